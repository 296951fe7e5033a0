"""001 Algorithms 1 and 2 exactly as printed: continuous noise with the exact σ, λ and w."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from privref.audits.exact import audit
from privref.reference.accounting import algorithm2_lambda, algorithm2_threshold
from privref.reference.citations import Uncited
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.pate import (
    BOTTOM,
    continuous_gaussian_label,
    continuous_svt_votes,
    printed_gaussian_pate,
    printed_svt_pate,
    teacher_votes,
)
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, distribution
from privref.reference.reals import Interval, Real, exp, prob_as_interval, rational, sqrt
from privref.reference.verdict import Verdict

F = Fraction
TENTH = F(1, 10)


def _box(p: object) -> Interval:
    return p.enclose(128) if isinstance(p, Real) else prob_as_interval(p)  # type: ignore[arg-type]


def _meets(a: Interval, b: Interval) -> bool:
    return a.lo <= b.hi and b.lo <= a.hi


def test_first_query_passes_with_the_printed_difference_tail() -> None:
    # K = 2, vote 1: dist 0, so the label is released iff ν − ρ > w with ν ~ Lap(2λ), ρ ~ Lap(λ):
    # P = (4e^{-w/(2λ)} − e^{-w/λ})/6 (the Laplace difference tail, b1 = 2λ, b2 = λ)
    lam = algorithm2_lambda(1, 1, TENTH)
    w = algorithm2_threshold(1, 1, 1, TENTH)
    law = distribution(continuous_svt_votes, (1,), 2, lam, w, 1)
    tail = (exp(-(w / (lam * 2))) * 4 - exp(-(w / lam))) / 6
    assert _meets(_box(law.prob((1,))), tail.enclose(128))
    assert _meets(_box(law.prob((BOTTOM,))), (1 - tail).enclose(128))


def test_bottom_redraws_the_threshold_and_cutoff_stops() -> None:
    # T = 1: the output stops at the first ⊥; T = 2 allows a second stretch
    lam, w = F(1), F(1, 2)
    one = distribution(continuous_svt_votes, (1, 1), 2, lam, w, 1)
    assert all(out[-1] == BOTTOM or len(out) == 2 for out, _ in one.items())
    assert {len(out) for out, _ in one.items()} == {1, 2}
    two = distribution(continuous_svt_votes, (1, 1), 2, lam, w, 2)
    assert (BOTTOM, BOTTOM) in dict(two.items())


def test_a_real_sigma_gives_the_rational_sigma_law() -> None:
    as_real = distribution(continuous_gaussian_label, 3, 4, sqrt(rational(F(9, 4))))
    as_fraction = distribution(continuous_gaussian_label, 3, 4, F(3, 2))
    for bit in (0, 1):
        assert _meets(_box(as_real.prob(bit)), _box(as_fraction.prob(bit)))
    with pytest.raises(InvalidArgument, match="sigma"):
        continuous_gaussian_label(1, 2, rational(F(-1)) * sqrt(rational(2)))


def _teachers(ell: int) -> Universe:
    return Universe(tuple(itertools.product((0, 1), repeat=ell)), (2, 3))


@pytest.mark.parametrize("mechanism", [printed_gaussian_pate(2, 1, TENTH),
                                       printed_svt_pate(2, 1, 1, TENTH)],
                         ids=["algorithm-1", "algorithm-2"])
def test_printed_algorithms_hold_at_their_claim(mechanism: Mechanism[object]) -> None:
    assert audit(mechanism, _teachers(2)).verdict is Verdict.HOLDS


def _svt_with_threshold(w: Fraction | Real, delta: Fraction) -> Mechanism[tuple[int | str, ...]]:
    lam = algorithm2_lambda(1, 1, TENTH)

    def program(data: Dataset) -> Program[tuple[int | str, ...]]:
        votes, k = teacher_votes(data, 2)
        return (yield from continuous_svt_votes(votes, k, lam, w, 1))

    return Mechanism("SVT-PATE, threshold changed", program, PrivacyClaim(rational(1), delta),
                     Uncited("a mutation of 001 Algorithm 2"), order_invariant=True,
                     description="001 Algorithm 2 with another threshold")


def test_the_audit_fails_without_the_printed_threshold() -> None:
    # w = 0 releases an unstable majority with probability about 1/2: δ = 1/10 cannot cover it
    assert audit(_svt_with_threshold(F(0), TENTH), _teachers(2)).verdict is Verdict.VIOLATED
    # and the printed w is not pure: a released label has disjoint support across neighbors
    w = algorithm2_threshold(2, 1, 1, TENTH)
    assert audit(_svt_with_threshold(w, F(0)), _teachers(2)).verdict is Verdict.VIOLATED
