"""The pair estimator: the contract, no-evidence zeros, exact violation decisions, rounding, bad input."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from privref.audits.blackbox.estimate import (
    PairEstimate,
    bound_ratio,
    epsilon_from_ratio,
    estimate_pair,
    estimate_pair_detailed,
    exceeds,
)
from privref.reference.errors import InvalidArgument
from privref.reference.reals import Interval, Order, compare, exp, interval_log, log, rational

RR_A = [0] * 750 + [1] * 250
RR_B = [0] * 250 + [1] * 750


def shuffled(xs: list[int], seed: int) -> list[int]:
    """A fixed permutation (so both splits see both outcomes)."""
    out = list(xs)
    np.random.default_rng(seed).shuffle(out)
    return out


A, B = shuffled(RR_A, 1), shuffled(RR_B, 2)


def test_contract_fields_and_types() -> None:
    """The frozen dataclass the CLI consumes, with the documented field types."""
    est = estimate_pair(A, B, epsilon=log(3), delta=0, alpha=Fraction(1, 20))
    assert isinstance(est, PairEstimate)
    assert [f.name for f in dataclasses.fields(est)] == [
        "epsilon_lower_bound", "delta_at_claimed_epsilon", "event", "direction", "counts", "alpha",
        "violation", "float_leak", "test"]
    assert est.float_leak is False and est.test == "per-side"  # no seed: never dealt
    assert isinstance(est.epsilon_lower_bound, float) and est.epsilon_lower_bound > 0.5
    assert est.direction in ("a→b", "b→a") and "P = M(" in est.event
    assert set(est.counts) == {"hits_a", "held_out_a", "hits_b", "held_out_b", "selection_a",
                               "selection_b"}
    assert est.counts["held_out_a"] == est.counts["selection_a"] == 500
    assert est.alpha == 0.05 and est.violation is False
    assert est.delta_at_claimed_epsilon is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        est.violation = True  # type: ignore[misc]  # the dataclass is frozen: this must raise


def test_no_evidence_gives_exactly_zero() -> None:
    """Identical samples: 0.0 (not a tiny positive or negative number) and no violation."""
    same = shuffled([0, 1, 2] * 300, 3)
    est = estimate_pair(same, same, epsilon=Fraction(1, 100), delta=0, alpha=Fraction(1, 20))
    assert est.epsilon_lower_bound == 0.0 and math.copysign(1, est.epsilon_lower_bound) == 1
    assert not est.violation
    assert est.delta_at_claimed_epsilon is not None and est.delta_at_claimed_epsilon[0] == 0.0


def test_bound_is_rounded_down_from_the_exact_ratio() -> None:
    """e^bound <= (p_lo - delta)/q_hi exactly, for the internal exact ratio."""
    found = estimate_pair_detailed(A, B, epsilon=1, delta=0, alpha=Fraction(1, 20))
    lb = found.estimate.epsilon_lower_bound
    assert found.ratio > 1
    assert compare(exp(rational(Fraction(lb))), rational(found.ratio))[0] is Order.LESS
    assert epsilon_from_ratio(Fraction(1)) == 0.0 and epsilon_from_ratio(Fraction(1, 2)) == 0.0


def test_violation_is_decided_exactly_at_the_boundary() -> None:
    """Claim eps = ln(ratio) exactly: no violation (equal is not greater); slightly less: violation."""
    found = estimate_pair_detailed(A, B, epsilon=1, delta=0, alpha=Fraction(1, 20))
    at = log(rational(found.ratio))
    assert not estimate_pair(A, B, epsilon=at, delta=0, alpha=Fraction(1, 20)).violation
    below = at - Fraction(1, 10**30)
    assert estimate_pair(A, B, epsilon=below, delta=0, alpha=Fraction(1, 20)).violation


def test_exact_epsilons_in_every_form() -> None:
    """Fraction, int, Real, 'ln(3)' strings and floats (at their exact binary value) are accepted."""
    for eps in (Fraction(1, 2), 1, log(3), "ln(3)", "1/2"):
        estimate_pair(A, B, epsilon=eps, delta=0, alpha=Fraction(1, 20))
    half = estimate_pair(A, B, epsilon=Fraction(1, 2), delta=0, alpha=Fraction(1, 20))
    assert estimate_pair(A, B, epsilon=0.5, delta=0, alpha=Fraction(1, 20)) == half


def test_disjoint_supports_are_a_violation() -> None:
    """Disjoint outputs, 200 held out per side: ln(L/U), L = (1/40)^(1/200), U = 1 - L; a violation."""
    est = estimate_pair([0] * 400, [1] * 400, epsilon=1, delta=0, alpha=Fraction(1, 20))
    closed_form = math.log((1 / 40) ** (1 / 200) / (1 - (1 / 40) ** (1 / 200)))
    assert closed_form - 1e-6 < est.epsilon_lower_bound <= closed_form and est.violation


def test_delta_bounds_the_eps_and_the_interval() -> None:
    """With delta > 0 the bound uses p_lo - delta; the delta interval is ordered inside [0, 1]."""
    plain = estimate_pair(A, B, epsilon=Fraction(1, 2), delta=0, alpha=Fraction(1, 20))
    with_delta = estimate_pair(A, B, epsilon=Fraction(1, 2), delta=Fraction(1, 10),
                               alpha=Fraction(1, 20))
    assert with_delta.epsilon_lower_bound < plain.epsilon_lower_bound
    assert plain.delta_at_claimed_epsilon is not None
    lo, hi = plain.delta_at_claimed_epsilon
    assert 0 < lo <= hi <= 1  # RR 3/4 at eps = 1/2: delta(1/2) = 3/4 - e^(1/2)/4 ≈ 0.338
    assert lo <= 0.75 - math.exp(0.5) / 4 <= hi
    assert with_delta.violation  # delta(1/2) ≈ 0.338 > 1/10


def test_bound_ratio_formula() -> None:
    """(p_lo - delta)/q_hi, and 0 when p_lo <= delta."""
    assert bound_ratio(0, 10, 0, 10, delta=Fraction(0), alpha_side=Fraction(1, 4)) == 0
    r = bound_ratio(90, 100, 10, 100, delta=Fraction(0), alpha_side=Fraction(1, 4))
    assert 1 < r < 9
    assert bound_ratio(90, 100, 10, 100, delta=Fraction(99, 100), alpha_side=Fraction(1, 4)) == 0


def test_swapping_the_inputs_swaps_the_direction() -> None:
    """(b, a) finds the same bound with the direction reversed."""
    ab = estimate_pair(A, B, epsilon=1, delta=0, alpha=Fraction(1, 20))
    ba = estimate_pair(B, A, epsilon=1, delta=0, alpha=Fraction(1, 20))
    assert ab.epsilon_lower_bound == ba.epsilon_lower_bound
    assert {ab.direction, ba.direction} == {"a→b", "b→a"}


def test_numpy_and_list_samples_agree() -> None:
    """Arrays and lists of the same outcomes give the same estimate."""
    rng = np.random.default_rng(5)
    xa, xb = rng.laplace(0, 1, 2000), rng.laplace(1, 1, 2000)
    left = estimate_pair(xa, xb, epsilon=1, delta=0, alpha=Fraction(1, 20))
    right = estimate_pair(xa.tolist(), xb.tolist(), epsilon=1, delta=0, alpha=Fraction(1, 20))
    assert left == right


def test_several_events_split_alpha() -> None:
    """max_events = 3 bounds up to 3 events at alpha/6 per side: never above the max_events = 1 level."""
    one = estimate_pair(A, B, epsilon=1, delta=0, alpha=Fraction(1, 20))
    three = estimate_pair(A, B, epsilon=1, delta=0, alpha=Fraction(1, 20), max_events=3)
    assert three.epsilon_lower_bound <= one.epsilon_lower_bound


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"alpha": 0}, InvalidArgument, r"alpha=0 must lie in \(0, 1\)"),
    ({"alpha": 1.5}, InvalidArgument, r"alpha=1\.5 must lie in \(0, 1\)"),
    ({"delta": 1}, InvalidArgument, "delta=1 must be < 1"),
    ({"delta": 1.0}, InvalidArgument, "delta=1 must be < 1"),
    ({"epsilon": -1}, InvalidArgument, "epsilon=-1 must be >= 0"),
    ({"selection_fraction": 1}, InvalidArgument, r"selection_fraction=1 must lie in \(0, 1\)"),
    ({"selection_fraction": 1.0}, InvalidArgument, r"selection_fraction=1 must lie in \(0, 1\)"),
    ({"max_events": 0}, InvalidArgument, "max_events=0 must be >= 1"),
])
def test_bad_arguments_are_named(kwargs: dict[str, object], error: type[Exception],
                                 message: str) -> None:
    """Every bad argument raises with its name and the broken limit."""
    args: dict[str, object] = {"epsilon": 1, "delta": 0, "alpha": Fraction(1, 20)}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        estimate_pair(A, B, **args)  # type: ignore[arg-type]  # deliberately mixed test inputs


def test_too_few_samples_is_an_error() -> None:
    """One outcome cannot be split into a selection and a held-out part."""
    with pytest.raises(InvalidArgument, match="samples_a has 1 outcomes"):
        estimate_pair([0], [0, 1], epsilon=1, delta=0, alpha=Fraction(1, 20))


@pytest.mark.parametrize("ratio", [Fraction(3), Fraction(7, 2), Fraction(10**6 + 1)])
def test_exceeds_near_the_upper_end_of_the_log_enclosure(ratio: Fraction) -> None:
    """ε a rational strictly between ln(ratio) and the upper end of the enclosure of ln(ratio)
    that exceeds() forms: ratio < e^ε, so False (deciding from the wrong end would say True);
    and just below ln(ratio), True."""
    top = interval_log(Interval.point(ratio)).hi
    with mpmath.workprec(400):
        true = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
        gap = mpmath.mpf(top.numerator) / top.denominator - true
        assert gap > 0
        above = Fraction(str(true + gap / 2))
        below = Fraction(str(true - gap / 2))
    assert above < top
    assert exceeds(ratio, rational(above)) is False
    assert exceeds(ratio, rational(below)) is True

