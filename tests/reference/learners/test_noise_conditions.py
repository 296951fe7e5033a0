"""reference.learners.noise_conditions: exact values by hand (001 Definition 8, Lemma 9, Eq. (4))."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.reference.concepts import explicit, thresholds_on
from privref.reference.errors import InvalidArgument
from privref.reference.learners import noise_conditions as nc

F = Fraction


def _massart() -> nc.NoisyProblem:
    return nc.NoisyProblem.of(range(2), (F(1, 2), F(1, 2)), (F(3, 5), F(2, 5)))


def test_errors_and_bayes() -> None:
    P = _massart()
    assert nc.bayes_mask(P) == 0b01
    assert nc.error(P, 0b01) == F(2, 5) and nc.error(P, 0b10) == F(3, 5)
    assert nc.excess_risk(P, 0b00) == F(1, 10) and nc.disagreement(P, 0b01, 0b10) == 1
    assert nc.best_in_class(P, thresholds_on(2)).mask == 0b01


def test_constants_by_hand() -> None:
    """|r − 1/2| = 1/10 everywhere: C = 1/(1/10)^κ; τ = 1/2 (p=1, q=2): C^1 = 10, η^2 = 1/(1/5) = 5."""
    P = _massart()
    assert nc.tsybakov_constant_power(P, F(1, 2)) == 10
    assert nc.lemma9_eta_power(P, F(1, 2)) == 5
    assert nc.lemma9_eta_power(P, F(1)) == 5 and nc.massart_margin(P) == F(1, 10)
    # printed: max((1/2)/(2/5), 1/(3/5)) = 5/3
    assert nc.printed_tsybakov_constant_power(P, F(1, 2)) == F(5, 3)
    pure = nc.NoisyProblem.of(range(1), (1,), (F(1, 2),))
    assert nc.tsybakov_constant_power(pure, F(1, 2)) is None
    assert nc.lemma9_eta_power(pure, F(1, 2)) is None


def test_teacher_law_by_hand() -> None:
    """One sample: (x=0, y=1) or (x=1, y=0) (3/10 each) fit c_1; else ERM picks c_0 or c_2."""
    P, H = _massart(), thresholds_on(2)
    law = nc.erm_teacher_law(P, H, 1)
    assert sum(law.values()) == 1
    assert law == {0b00: F(1, 5) + F(3, 10), 0b01: F(3, 10), 0b11: F(1, 5)}
    assert nc.expected_vote(P, H, 1) == (F(1, 2), F(1, 5))
    assert nc.infinite_ensemble(P, H, 1) == 0b01
    assert nc.expected_margin(P, H, 1) == (F(0), F(3, 10))
    assert nc.high_margin_nu(P, H, 1, F(1, 6)) == F(1, 2)
    assert nc.expected_disagreement(P, H, 0, 0b01) == F(1, 2)


def test_vote_class() -> None:
    H = explicit(range(4), [(1, 1, 0, 0), (1, 0, 1, 0), (1, 0, 0, 1)])
    assert set(nc.vote_class(H, 1).masks) == set(H.masks)
    assert 0b0001 in nc.vote_class(H, 3).masks and 0b0001 not in nc.vote_class(H, 2).masks


def test_invalid_arguments() -> None:
    with pytest.raises(InvalidArgument, match="weights"):
        nc.NoisyProblem.of(range(2), (F(1, 2), F(1, 3)), (0, 1))
    with pytest.raises(InvalidArgument, match="tau"):
        nc.tsybakov_constant_power(_massart(), F(1))
    with pytest.raises(InvalidArgument, match="K="):
        nc.vote_class(thresholds_on(2), 0)
