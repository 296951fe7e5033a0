"""GenericLearner (004/000 Algorithm 1) and the KLNRS learner: contract, exact values, errors."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest

from privref.audits.exact import Verdict, audit
from privref.reference.concepts import Concept, thresholds, thresholds_on
from privref.reference.data import BOTTOM
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate, UnknownLabel
from privref.reference.exponential import exponential_learner
from privref.reference.learners.base import Learner
from privref.reference.learners.generic import (
    generic_learner,
    generic_learner_blr,
    hypothesis_set,
    klnrs_learner,
    split_database,
)
from privref.reference.learners.sanitizer import Sanitizer, blr_sanitizer
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import log
from privref.reference.vc import xor_class

from ..contracts import MechanismContract

T1 = thresholds(1)                         # c_0 = 00, c_1 = 10, c_2 = 11 over X_1 = {0, 1}
T3 = thresholds_on(3)
EPS = log(Fraction(9, 8)) * 4              # k = 2: e^{ε/4} = 9/8 and e^{ε/2} = 81/64
ELEMENTS_T1 = tuple((x, y) for x in T1.domain for y in (0, 1, BOTTOM))
U = BOTTOM


def learner(m: int = 1) -> Learner[Concept]:
    return generic_learner_blr(T1, m=m, k=2, epsilon=EPS)


class TestGenericLearner(MechanismContract):
    constructors = (generic_learner_blr,)
    samples = 2000
    def mechanism(self) -> Mechanism[Any]:
        return learner().mechanism

    def universe(self) -> Universe:
        return Universe(ELEMENTS_T1, (2, 3))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [((0, U), (1, 1)), ((0, U), (1, U), (0, 1)), ((1, 0), (1, U), (1, 0))]

    def test_exact_values(self) -> None:
        """k = 1, ε = 2 ln 2, D = (0), S = ((1, 1)).

        BLR on D: Ŝ = (0) scores 0, Ŝ = (1) scores -1 (e.g. on c_0⊕c_1): 2/3 and 1/3.
        H = (c_0, c_1) for B = {0}: both disagree with (1, 1), 1/2 each; H = (c_0, c_2) for
        B = {1}: weights 1 and 2.  So c_0: 2/3·1/2 + 1/3·1/3 = 4/9, c_1: 1/3, c_2: 2/9.
        """
        lrn = generic_learner_blr(T1, m=1, k=1, epsilon="2*ln(2)")
        dist = lrn.distribution(((0, U), (1, 1)))
        assert {h.name: p for h, p in dist.items()} == {
            "c_0": Fraction(4, 9), "c_1": Fraction(1, 3), "c_2": Fraction(2, 9)}

    def test_proper_on_every_database(self) -> None:
        lrn = learner()
        assert lrn.proper and lrn.concepts == T1
        for data in self.universe().datasets():
            assert all(h in T1 for h in lrn.distribution(data).support())

    def test_equals_its_decomposition(self) -> None:
        """Law = Σ_D̃ Pr[D̃ | D]·EM(H(D̃), S): what proofs.p004.generic.exact_failure_probability uses."""
        san = blr_sanitizer(xor_class(T3), k=2, epsilon=EPS)
        lrn = generic_learner(T3, m=2, epsilon=EPS, sanitizer=san)
        for data in (((0, U), (2, 0), (1, 1), (2, 0)), ((1, 1), (1, U), (0, 1), (2, 1))):
            expected: dict[Concept, Fraction] = {}
            for out, q in san.distribution(tuple(x for x, _ in data[:2])).items():
                em = exponential_learner(hypothesis_set(T3, out), epsilon=EPS)
                for h, r in em.distribution(data[2:]).items():
                    assert isinstance(q, Fraction) and isinstance(r, Fraction)
                    expected[h] = expected.get(h, Fraction(0)) + q * r
            assert lrn.distribution(data).as_dict() == expected

    def test_labels_in_d_are_ignored_and_bottom_in_s_agrees_with_nothing(self) -> None:
        lrn = learner()
        base = lrn.distribution(((0, U), (1, U), (0, 1)))
        assert lrn.distribution(((0, 1), (1, 0), (0, 1))).as_dict() == base.as_dict()
        # S = ((0, ⊥)): every hypothesis scores 0, so the output law is that of H alone
        blank = lrn.distribution(((0, U), (1, U), (0, U)))
        assert blank.as_dict() != base.as_dict() and blank.total() == 1

    def test_a_smaller_claim_is_refuted(self) -> None:
        report = audit(learner().mechanism, Universe(ELEMENTS_T1, (2,)),
                       claim=PrivacyClaim(EPS * Fraction(1, 4)))
        assert report.verdict is Verdict.VIOLATED


class TestKLNRS(MechanismContract):
    constructors = (klnrs_learner,)
    def mechanism(self) -> Mechanism[Any]:
        return klnrs_learner(T3, epsilon=EPS).mechanism

    def universe(self) -> Universe:
        return Universe(tuple((x, y) for x in T3.domain for y in (0, 1, BOTTOM)), (1, 2))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [((0, 1),), ((2, 0), (1, U))]

    def test_exact_values_and_properness(self) -> None:
        """S = ((0, 1)): c_1, c_2, c_3 agree (weight 81/64), c_0 does not (weight 1)."""
        lrn = klnrs_learner(T3, epsilon=EPS)
        assert lrn.proper and lrn.concepts == T3
        dist = lrn.distribution(((0, 1),))
        assert {h.name: p for h, p in dist.items()} == {
            "c_0": Fraction(64, 307), "c_1": Fraction(81, 307), "c_2": Fraction(81, 307),
            "c_3": Fraction(81, 307)}


def test_hypothesis_set_is_one_canonical_concept_per_pattern() -> None:
    """B = {1} on THRESH over 3 points: patterns c(1) = 0 (first: c_0) and 1 (first: c_2)."""
    assert [h.name for h in hypothesis_set(T3, (1, 1))] == ["c_0", "c_2"]
    assert [h.name for h in hypothesis_set(T3, (2, 0))] == ["c_0", "c_1", "c_3"]
    assert hypothesis_set(T3, (0, 2)) == hypothesis_set(T3, (2, 0, 2))   # depends on the set B


def test_split_database() -> None:
    points, sample = split_database(T1, 1, ((0, U), (1, 0), (1, 1)))
    assert points == (0, 1) and sample == ((1, 1),)
    assert split_database(T1, 0, ((0, 1),)) == ((0,), ())


def test_claim_follows_the_sanitizer() -> None:
    """(ε, δ_s): an approximate sanitizer's δ carries over; ε is the learner's."""
    san = blr_sanitizer(xor_class(T1), k=2, epsilon=EPS)
    leaky = Sanitizer(dataclasses.replace(san.mechanism, claim=PrivacyClaim(EPS, Fraction(1, 100))),
                      san.queries, san.output_size)
    lrn = generic_learner(T1, m=1, epsilon=EPS, sanitizer=leaky)
    assert lrn.claim.delta == Fraction(1, 100) and lrn.claim.epsilon is EPS
    assert str(lrn.source) == "004 Theorem 3.3"
    cheaper = blr_sanitizer(xor_class(T1), k=2, epsilon="1/4")
    assert generic_learner(T1, m=1, epsilon=EPS, sanitizer=cheaper).claim.epsilon is EPS


def test_bad_arguments() -> None:
    san = blr_sanitizer(xor_class(T1), k=2, epsilon=EPS)
    with pytest.raises(InvalidArgument, match="m=-1 must be >= 0"):
        generic_learner(T1, m=-1, epsilon=EPS, sanitizer=san)
    with pytest.raises(InvalidArgument, match=r"epsilon=nan must be a finite number"):
        generic_learner(T1, m=1, epsilon=float("nan"), sanitizer=san)
    with pytest.raises(InvalidArgument, match=r"sanitizer epsilon=1 must be <= epsilon=1/2"):
        generic_learner(T1, m=1, epsilon="1/2", sanitizer=blr_sanitizer(xor_class(T1), k=2, epsilon=1))
    with pytest.raises(InvalidArgument, match=r"must answer every query of THRESH_1\^⊕; 1 are missing"):
        generic_learner(T1, m=1, epsilon=EPS, sanitizer=blr_sanitizer(T1, k=2, epsilon=EPS))
    with pytest.raises(InvalidArgument, match="must be over the domain of THRESH_1"):
        generic_learner(T1, m=1, epsilon=EPS, sanitizer=blr_sanitizer(xor_class(T3), k=2, epsilon=EPS))
    with pytest.raises(InvalidArgument, match=r"sanitizer=.* must be a reference\.learners\.Sanitizer"):
        generic_learner(T1, m=1, epsilon=EPS, sanitizer=san.mechanism)  # type: ignore[arg-type]
    with pytest.raises(TooLargeToEnumerate, match=r"k=9 .*limit=4096"):
        generic_learner_blr(thresholds(4), m=1, k=9, epsilon=1)
    lrn = learner()
    with pytest.raises(InvalidArgument, match=r"data has 1 entries; it must hold at least m\+1=2"):
        lrn.distribution(((0, U),))
    with pytest.raises(UnknownLabel, match="label=2 must be 0, 1 or ⊥"):
        lrn.distribution(((0, U), (1, 2)))
    with pytest.raises(UnknownLabel, match="is not a labeled pair"):
        lrn.distribution((0, (1, 1)))
    with pytest.raises(InvalidArgument, match=r"data\[0\]\[0\]=5 must be a point of the domain"):
        lrn.distribution(((5, U), (1, 1)))
    with pytest.raises(InvalidArgument, match=r"concepts=.* must be a ConceptClass"):
        klnrs_learner([1], epsilon=1)  # type: ignore[arg-type]
