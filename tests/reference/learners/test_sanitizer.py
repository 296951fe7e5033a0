"""The BLR sanitizer (reference.learners.sanitizer): contract, exact values, normalization, errors."""

from __future__ import annotations

import math
from collections.abc import Hashable
from fractions import Fraction
from typing import Any, cast

import pytest

from privref.audits.exact import Verdict, audit
from privref.reference.concepts import thresholds_on
from privref.reference.errors import EmptyDataset, InvalidArgument, TooLargeToEnumerate
from privref.reference.learners.sanitizer import (
    Sanitizer,
    blr_sanitizer,
    candidate_databases,
    query_error,
)
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import Interval, Real, log
from privref.reference.vc import xor_class

from ..contracts import MechanismContract

Q3 = xor_class(thresholds_on(3))          # the half-open intervals [a, b) on {0, 1, 2}, and ∅
EPS = log(Fraction(9, 8)) * 4             # k = 2: e^{ε/(2k)} = 9/8, exact rationals


def blr(k: int = 2, epsilon: Real | int = EPS) -> Sanitizer:
    return blr_sanitizer(Q3, k=k, epsilon=epsilon)


class TestBLR(MechanismContract):
    constructors = (blr_sanitizer,)
    samples = 1500
    def mechanism(self) -> Mechanism[Any]:
        return blr().mechanism

    def universe(self) -> Universe:
        return Universe((0, 1, 2), (1, 2, 3))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0,), (0, 1, 2), (2, 2, 1)]

    def test_exact_values(self) -> None:
        """S = (0, 1, 2): scores k·u = -2 for (0,1), (0,2), (1,2) and -4 for the doubled points.

        Weights (9/8)^(k·u + 2): 1 and 64/81, total 435/81, so 27/145 and 64/435.
        """
        dist = blr().distribution((0, 1, 2)).as_dict()
        assert dist == {(0, 1): Fraction(27, 145), (0, 2): Fraction(27, 145),
                        (1, 2): Fraction(27, 145), (0, 0): Fraction(64, 435),
                        (1, 1): Fraction(64, 435), (2, 2): Fraction(64, 435)}

    def test_same_law_as_the_usual_normalization(self) -> None:
        """Pr[Ŝ] ∝ exp(-ε·|S|·max_c|Q_c(S) - Q_c(Ŝ)|/2), computed here from query_error directly."""
        san = blr()
        for data in Universe((0, 1, 2), (1, 2, 3, 4)).datasets():
            weights = {out: Fraction(9, 8) ** int(-2 * len(data) * query_error(Q3, data, out))
                       for out in candidate_databases(Q3, 2)}
            total = sum(weights.values())
            assert san.distribution(data).as_dict() == {o: w / total for o, w in weights.items()}

    def test_a_smaller_claim_is_refuted(self) -> None:
        """The exact loss (ln(847611/623296) ≈ 0.307) exceeds half the claim (≈ 0.236)."""
        report = audit(blr().mechanism, self.universe(), claim=PrivacyClaim(EPS * Fraction(1, 2)))
        assert report.verdict is Verdict.VIOLATED
        assert report.epsilon_exact is not None and str(report.epsilon_exact) == "log(847611/623296)"

    def test_irrational_epsilon_gives_enclosures_containing_one(self) -> None:
        total = blr(k=3, epsilon=1).distribution((0, 2)).total()
        assert isinstance(total, Interval) and total.lo <= 1 <= total.hi


def test_candidates_are_the_multisets() -> None:
    cands = cast("tuple[tuple[int, ...], ...]", candidate_databases(Q3, 3))
    assert len(cands) == math.comb(3 + 3 - 1, 3) == 10
    assert cands[0] == (0, 0, 0) and cands[-1] == (2, 2, 2)
    assert all(list(c) == sorted(c) for c in cands)


def test_query_error_is_exact() -> None:
    assert query_error(Q3, (0, 1, 2), (0, 0)) == Fraction(2, 3)    # [1, 3): 2/3 vs 0
    assert query_error(Q3, (0, 1, 2), (0, 1, 2)) == 0
    assert query_error(Q3, (0, 0, 1, 2), (0, 2)) == Fraction(1, 4)


def test_interface_fields() -> None:
    san = blr()
    assert san.output_size == 2 and san.queries == Q3
    assert san.claim == san.mechanism.claim and san.name.startswith("BLR sanitizer")
    assert str(san.mechanism.source) == "004 Theorem A.3" and san.mechanism.order_invariant


def test_bad_arguments() -> None:
    with pytest.raises(InvalidArgument, match="k=0 must be >= 1"):
        blr_sanitizer(Q3, k=0, epsilon=1)
    with pytest.raises(TooLargeToEnumerate, match=r"k=6 over a domain of 10 points gives 5005 .*limit=4096"):
        blr_sanitizer(xor_class(thresholds_on(10)), k=6, epsilon=1)
    with pytest.raises(InvalidArgument, match=r"epsilon=nan must be a finite number"):
        blr_sanitizer(Q3, k=2, epsilon=float("nan"))
    with pytest.raises(InvalidArgument, match=r"queries=.* must be a ConceptClass"):
        blr_sanitizer([1, 2], k=2, epsilon=1)  # type: ignore[arg-type]
    with pytest.raises(EmptyDataset, match="data is empty"):
        blr().distribution(())
    with pytest.raises(InvalidArgument, match=r"data\[1\]=7 must be a point of the domain"):
        blr().distribution((0, 7))
