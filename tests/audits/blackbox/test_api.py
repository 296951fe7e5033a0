"""The pytest-friendly assertion and the re-exported hypothesis strategy."""

from __future__ import annotations

import inspect
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given

from privref.audits.blackbox import api
from privref.audits.blackbox.api import assert_private
from privref.audits.blackbox.report import BlackboxVerdict
from privref.audits.blackbox.search import SearchSpace
from privref.reference import strategies
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument
from privref.reference.randomized_response import randomized_response
from privref.reference.strategies import neighboring_pairs

from ...stats import AUDIT_CONFIDENCE


def my_rr(data: list[int], rng: np.random.Generator) -> int:
    """A third-party style randomized response, keep probability 3/4: ln(3)-DP."""
    return data[0] if rng.random() < 0.75 else 1 - data[0]


def test_correct_claim_passes_and_returns_the_report() -> None:
    report = assert_private(my_rr, epsilon="ln(3)", pairs=[([0], [1])], samples=4000,
                            confidence=AUDIT_CONFIDENCE)
    assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND
    assert report.seed == 0 and report.samples == 4000 and report.workers == 1


def test_wrong_claim_fails_with_the_witness() -> None:
    with pytest.raises(AssertionError) as info:
        assert_private(my_rr, epsilon=Fraction(1, 2), pairs=[([0], [1])], samples=4000, seed=3,
                       confidence=AUDIT_CONFIDENCE)
    message = str(info.value)
    assert "my_rr is not (1/2, 0)-DP: epsilon >= " in message
    assert "witness pair: [0] vs [1]" in message or "witness pair: [1] vs [0]" in message
    assert "event:" in message and "counts:" in message and "seed 3" in message


def test_builtin_mechanism_with_search() -> None:
    """A Mechanism is audited through its exact sampler; pairs default to a search."""
    report = assert_private(randomized_response("3/4"), epsilon="ln(3)", samples=2000,
                            search=SearchSpace(sizes=(1,), random_examples=2),
                            confidence=AUDIT_CONFIDENCE)
    assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND and report.candidates == 1


def test_floats_are_taken_at_their_exact_binary_value() -> None:
    """epsilon=1.5 and confidence=0.9999999 are accepted as the dyadic rationals the floats hold."""
    report = assert_private(my_rr, epsilon=1.5, confidence=0.9999999, pairs=[([0], [1])],
                            samples=2000)
    assert report.claimed_epsilon.exact == Fraction(3, 2)
    assert report.confidence == Fraction(0.9999999) != Fraction(9999999, 10**7)
    assert report.confidence.denominator == 2**53
    with pytest.raises(InvalidArgument, match="confidence=nan"):
        assert_private(my_rr, epsilon=1, confidence=float("nan"), pairs=[([0], [1])])
    with pytest.raises(InvalidArgument, match="must be a pair"):
        assert_private(my_rr, epsilon=1, pairs=[([0], [1], [2])])  # type: ignore[list-item]


def test_audit_callable_is_assert_private_without_the_assertion() -> None:
    """One parameter list: assert_private forwards every argument to audit_callable."""
    assert inspect.signature(api.audit_callable) == inspect.signature(assert_private)


def test_strategy_is_reexported_lazily() -> None:
    """``api.neighboring_pairs`` (and the package's) still resolve, imported on first access."""
    import privref.audits.blackbox as package

    assert api.neighboring_pairs is strategies.neighboring_pairs
    assert package.neighboring_pairs is strategies.neighboring_pairs
    assert set(api.__all__) == {"assert_private", "audit_callable"}
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        api.nope  # noqa: B018


@given(neighboring_pairs(elements=(0, 1), min_size=1, max_size=1))
def test_strategy_drives_explicit_pairs(pair: tuple[Dataset, Dataset]) -> None:
    """Pairs drawn by the strategy are valid explicit pairs (tiny N: plumbing only)."""
    assert_private(my_rr, epsilon=5, pairs=[pair], samples=64, confidence=AUDIT_CONFIDENCE)
