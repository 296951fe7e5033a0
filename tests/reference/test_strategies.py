"""The public hypothesis strategies produce valid values."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given

from privref.reference.data import BOTTOM
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Distribution
from privref.reference.reals import Order, Real, compare
from privref.reference.strategies import (
    deltas,
    distributions,
    epsilons,
    labeled_datasets,
    partially_labeled_datasets,
    privacy_claims,
)


@given(labeled_datasets(), partially_labeled_datasets())
def test_datasets_have_valid_labels(labeled: tuple[object, ...], partial: tuple[object, ...]
                                    ) -> None:
    """Labels are 0/1 (labeled) or 0/1/⊥ (partially labeled)."""
    assert all(isinstance(e, tuple) and e[1] in (0, 1) for e in labeled)
    assert all(isinstance(e, tuple) and (e[1] in (0, 1) or e[1] is BOTTOM) for e in partial)


@given(distributions())
def test_distributions_are_exact_and_normalized(d: Distribution[object]) -> None:
    """Exact rational probabilities summing to exactly 1."""
    assert d.is_exact and d.total() == 1


@given(epsilons(), deltas(), privacy_claims())
def test_privacy_parameters_are_valid(eps: Real, delta: Fraction, claim: PrivacyClaim) -> None:
    """Epsilons are >= 0, deltas lie in [0, 1/10], claims validate."""
    assert compare(eps, 0)[0] in (Order.GREATER, Order.EQUAL)
    assert 0 <= delta <= Fraction(1, 10)
    assert 0 <= claim.delta < 1
