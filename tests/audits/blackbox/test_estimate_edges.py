"""The pair estimator at its edges: split sizes, the delta interval's outward rounding, the best
of several candidates (first of equals), the no-evidence finding, counts out of range, the
epsilon bound next to a double, and the pooled test's dealing."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import pytest

from privref.audits.blackbox import estimate as estimate_module
from privref.audits.blackbox.estimate import (
    conclude_pair,
    conclude_views,
    dealt_sizes,
    epsilon_from_ratio,
    plan_pair,
    plan_views,
    refine_views,
    selection_sizes,
)
from privref.audits.blackbox.events import Threshold
from privref.audits.blackbox.pooled import POOLED_MIN, allocate
from privref.audits.blackbox.selection import (
    Candidate,
    plug_in_score,
    select_event_views,
    select_events,
)
from privref.audits.stats import cp_lower, cp_upper
from privref.reference.errors import InvalidArgument
from privref.reference.reals import Interval, exp, interval_log, log, rational


def _candidate(cut: float) -> Candidate:
    return Candidate(Threshold(None, 1, cut, False), "a→b", 0, 0, 0.0)


def _is_floor(f: float, x: Fraction) -> bool:
    """f is the largest double <= x."""
    return Fraction(f) <= x < Fraction(math.nextafter(f, math.inf))


def _is_ceil(f: float, x: Fraction) -> bool:
    """f is the smallest double >= x."""
    return Fraction(math.nextafter(f, -math.inf)) < x <= Fraction(f)


KW: dict[str, Any] = {"held_a": 5000, "held_b": 5100, "selection_a": 10, "selection_b": 10,
                      "delta": 0, "alpha": Fraction(1, 10)}


@pytest.mark.parametrize(("n_a", "n_b", "fraction", "cap", "sizes"), [
    (2, 2, Fraction(1, 2), None, (1, 1)),          # one outcome in each split: the least allowed
    (10, 7, Fraction(1, 2), None, (5, 3)),         # floor(n·fraction) per side
    (10, 10, Fraction(19, 20), None, (9, 9)),      # floor(9.5) = 9 leaves one held out
    (100, 40, Fraction(1, 2), 7, (7, 7)),          # the cap
    (100, 3, Fraction(1, 2), 1, (1, 1)),
])
def test_selection_sizes(n_a: int, n_b: int, fraction: Fraction, cap: int | None,
                         sizes: tuple[int, int]) -> None:
    """floor(n·fraction) per side, at most the cap; one outcome in a split is enough."""
    assert selection_sizes(n_a, n_b, fraction, cap) == sizes


@pytest.mark.parametrize(("n_a", "n_b", "fraction", "side"), [
    (1, 5, Fraction(1, 2), "a"),       # floor(1/2) = 0: no selection split
    (10, 3, Fraction(1, 10), "b"),     # floor(3/10) = 0
])
def test_selection_sizes_refuse_an_empty_split(n_a: int, n_b: int, fraction: Fraction,
                                                side: str) -> None:
    """Refused, naming the side, when the selection split would be empty."""
    with pytest.raises(InvalidArgument, match=f"samples_{side} has"):
        selection_sizes(n_a, n_b, fraction)


def test_delta_interval_is_the_exact_interval_rounded_outward() -> None:
    """At epsilon = 0 (e^epsilon = 1 exactly) the delta interval is [p_lo - q_hi, p_hi - q_lo]
    with the per-side bounds at alpha/2, the lower end rounded down and the upper end up to
    doubles: exactly those doubles, not one further and never inward."""
    found = conclude_pair([_candidate(0.5)], [(300, 100)], epsilon=0, **KW)
    side = Fraction(1, 20)
    p_lo, p_hi = cp_lower(300, 5000, side), cp_upper(300, 5000, side)
    q_lo, q_hi = cp_lower(100, 5100, side), cp_upper(100, 5100, side)
    lower, upper = p_lo - q_hi, p_hi - q_lo
    assert 0 < lower < upper < 1
    assert found.estimate.delta_at_claimed_epsilon is not None
    lo, hi = found.estimate.delta_at_claimed_epsilon
    assert _is_floor(lo, lower) and _is_ceil(hi, upper)
    assert Fraction(lo) != lower and Fraction(hi) != upper  # the rounding shows


def test_delta_interval_clipped_at_zero_is_exactly_zero() -> None:
    """When even p_hi - q_lo is negative (the event is likelier under Q), the interval is
    (0.0, 0.0): a clipped end is exact, not a double beside it."""
    found = conclude_pair([_candidate(0.5)], [(100, 300)], epsilon=0, **KW)
    assert found.estimate.delta_at_claimed_epsilon == (0.0, 0.0)


@pytest.mark.parametrize("end", ["lower", "upper"])
def test_delta_interval_holds_the_truth_within_e_to_the_epsilon_s_enclosure(end: str) -> None:
    """An irrational e^epsilon is enclosed at 128 bits, and each end of the delta interval must
    use the enclosure's end that keeps the truth inside.  Here e^epsilon is chosen 2^-200 (far
    inside that enclosure's width) from the value that puts an end exactly at 0: the true lower
    end p_lo - e^epsilon·q_hi = -2^-200 must give 0.0, and the true upper end
    p_hi - e^epsilon·q_lo = +2^-200 must give a double >= 2^-200, not 0.0."""
    side = Fraction(1, 20)
    p_lo, p_hi = cp_lower(300, 5000, side), cp_upper(300, 5000, side)
    q_lo, q_hi = cp_lower(100, 5100, side), cp_upper(100, 5100, side)
    tiny = Fraction(1, 2**200)
    # a rational epsilon (so e^epsilon is irrational, enclosed only to 128 bits) on the far side
    # of ln(ratio): e^epsilon >= (p_lo + tiny)/q_hi, or <= (p_hi - tiny)/q_lo
    if end == "lower":
        ratio = (p_lo + tiny) / q_hi
        epsilon = log(rational(ratio)).enclose(400).hi
    else:
        ratio = (p_hi - tiny) / q_lo
        epsilon = log(rational(ratio)).enclose(400).lo
    box = exp(rational(epsilon)).enclose(128)
    assert box.lo < ratio < box.hi and (box.hi - box.lo) * q_lo > 2**60 * tiny
    found = conclude_pair([_candidate(0.5)], [(300, 100)], epsilon=epsilon, **KW)
    assert found.estimate.delta_at_claimed_epsilon is not None
    lo, hi = found.estimate.delta_at_claimed_epsilon
    if end == "lower":
        assert lo == 0.0 and hi > 0
    else:
        assert Fraction(hi) >= tiny and lo == 0.0


def test_the_best_candidate_is_reported_and_the_first_of_equals() -> None:
    """Of several candidates the largest bound ratio is reported, wherever it stands; between
    equal ratios, the first candidate (a fixed rule, so reports are reproducible)."""
    weak, strong = _candidate(0.25), _candidate(0.75)
    for chosen, hits in (([weak, strong], [(200, 100), (300, 100)]),
                         ([strong, weak], [(300, 100), (200, 100)])):
        found = conclude_pair(chosen, hits, epsilon=0, **KW)
        assert found.candidate == strong
        assert found.estimate.counts["hits_a"] == 300
    tied = conclude_pair([weak, strong], [(300, 100), (300, 100)], epsilon=0, **KW)
    assert tied.candidate == weak


def test_no_candidate_is_no_evidence_at_the_one_candidate_level() -> None:
    """No readable outcome: ratio 0, epsilon bound 0.0, and the per-side level one candidate
    would have had (alpha/2), so the finding reads like a one-event run that found nothing."""
    found = conclude_pair([], [], epsilon=0, **KW)
    assert found.candidate is None and found.ratio == 0
    assert found.estimate.epsilon_lower_bound == 0.0
    assert found.alpha_side == Fraction(1, 20)


@pytest.mark.parametrize("hits", [(5001, 100), (100, 5101), (-1, 100), (100, -1)])
def test_counts_outside_the_held_out_split_are_refused(hits: tuple[int, int]) -> None:
    """A count above its side's held-out size, or negative, on either side, is an error naming
    the counts and the sizes, not a bound."""
    with pytest.raises(InvalidArgument, match=r"must lie within the held-out sizes \(5000, 5100\)"):
        conclude_pair([_candidate(0.5)], [hits], epsilon=0, **KW)


@pytest.mark.parametrize("d", [0.75, 1.0986122886681098, 2.302585092994046, 9.5])
def test_epsilon_from_ratio_stays_below_a_double_just_above_ln_ratio(d: float) -> None:
    """A ratio whose logarithm lies 2^-200 below the double ``d``: every enclosure of ln ratio
    that privref forms straddles ``d``, so only the enclosure's lower end, rounded down, gives a
    proved bound; the result is the double just below ``d`` (the largest double <= ln ratio)."""
    with mpmath.workprec(400):
        target = mpmath.exp(mpmath.mpf(d) - mpmath.mpf(2) ** -200)
        ratio = Fraction(int(mpmath.floor(target * mpmath.mpf(2) ** 300)), 2**300)
        assert mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator) < d
    assert epsilon_from_ratio(ratio) == math.nextafter(d, -math.inf)


def test_epsilon_from_ratio_keeps_a_lower_end_that_is_itself_a_double() -> None:
    """A ratio whose logarithm lies 2^-98 above the double 0.1: the 96-bit enclosure's lower end
    is then exactly that double, which is the largest double <= ln ratio, so it is the result
    (not the double below it: only an end strictly below its double steps down)."""
    d = 0.1
    with mpmath.workprec(400):
        target = mpmath.exp(mpmath.mpf(d) + mpmath.mpf(2) ** -98)
        ratio = Fraction(int(mpmath.floor(target * mpmath.mpf(2) ** 300)), 2**300)
        ln_ratio = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
        assert d < ln_ratio < math.nextafter(d, math.inf)
    assert interval_log(Interval.point(ratio)).lo == Fraction(d)  # the case this test is about
    assert epsilon_from_ratio(ratio) == d


def test_dealt_sizes_use_the_smaller_held_out_split() -> None:
    """The pooled test applies when the smaller held-out split has POOLED_MIN outcomes, and deals
    sizes from min(held_a, held_b), so neither side is asked for more outcomes than it holds; the
    same seed gives the same dealing as allocate on that minimum."""
    seed = 20261127
    sizes = dealt_sizes(5000, 9000, Fraction(0), seed)
    assert sizes == allocate(5000, np.random.SeedSequence(seed))
    assert sizes is not None and max(sizes) <= 5000
    assert dealt_sizes(9000, 5000, Fraction(0), seed) == sizes
    assert dealt_sizes(5000, 9000, Fraction(1, 1000), seed) is None  # delta > 0: per-side test
    assert dealt_sizes(5000, 9000, Fraction(0), None) is None       # no seed: per-side test
    # the smaller side below POOLED_MIN: per-side test, however large the other side
    assert dealt_sizes(POOLED_MIN - 1, 10**6, Fraction(0), seed) is None
    assert dealt_sizes(10**6, POOLED_MIN - 1, Fraction(0), seed) is None
    assert dealt_sizes(POOLED_MIN, 10**6, Fraction(0), seed) is not None


@pytest.mark.parametrize("max_events", [1, 3])
def test_selection_scores_events_at_the_level_of_their_held_out_bound(
        monkeypatch: pytest.MonkeyPatch, max_events: int) -> None:
    """plan_pair ranks events by the bound they would get on the held-out split, so it must
    score them at the per-side level conclude_pair will bound them at: alpha/(2·max_events)
    when max_events candidates share the union bound."""
    seen: list[Fraction] = []
    real = select_events

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["alpha_side"])
        return real(*args, **kwargs)

    monkeypatch.setattr(estimate_module, "select_events", spy)  # the name plan_pair calls
    sel_a, sel_b = [0, 1, 1, 2, 2, 2] * 20, [0, 0, 0, 1, 1, 2] * 20
    chosen = plan_pair(sel_a, sel_b, held_a=5000, held_b=5100, delta=0, alpha=Fraction(1, 10),
                       max_events=max_events)
    assert len(chosen) == max_events
    found = conclude_pair(chosen, [(300, 100)] * max_events, epsilon=0, **KW)
    assert seen == [found.alpha_side] == [Fraction(1, 20 * max_events)]


@pytest.mark.parametrize("float_events", [False, True])
def test_views_are_scored_at_the_one_view_level(monkeypatch: pytest.MonkeyPatch,
                                                float_events: bool) -> None:
    """plan_views (one candidate per view) scores events at the per-side level a single view's
    one candidate is bounded at by conclude_views, alpha/2 (whether the views will differ is
    known only after selection, so both views are scored at the one-view level)."""
    seen: list[Fraction] = []

    def spy(real: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            seen.append(kwargs["alpha_side"])
            return real(*args, **kwargs)
        return wrapped

    monkeypatch.setattr(estimate_module, "select_events", spy(select_events))
    monkeypatch.setattr(estimate_module, "select_event_views", spy(select_event_views))
    sel_a, sel_b = [0.5, 1.5, 1.5, 2.5] * 30, [0.5, 0.5, 1.5, 2.5] * 30
    chosen, split = plan_views(sel_a, sel_b, held_a=5000, held_b=5100, delta=0,
                               alpha=Fraction(1, 10), float_events=float_events)
    one_view, other = conclude_views(chosen[:1], [(300, 100)], None, epsilon=0, **KW)
    assert other is None and split in (None, 1)
    assert seen == [one_view.alpha_side] == [Fraction(1, 20)]


@pytest.mark.parametrize("pooled", [False, True])
def test_validation_scores_events_at_the_level_of_their_bound(monkeypatch: pytest.MonkeyPatch,
                                                              pooled: bool) -> None:
    """refine_views keeps up to two candidates per view, so it scores them at the level
    conclude_views bounds two candidates of one of two views at: the per-side level alpha/8,
    and for the pooled test (dealt sizes) the per-event level, twice that, alpha/4."""
    from statistics import NormalDist

    seen: list[float] = []
    real = plug_in_score  # the name refine_views calls, from where it is defined

    def spy(*args: Any) -> Any:
        seen.append(args[7])  # z: the held-out bound's level
        return real(*args)

    monkeypatch.setattr(estimate_module, "plug_in_score", spy)
    short = (_candidate(0.25), _candidate(0.5), _candidate(0.75), _candidate(1.0))
    refine_views(short, 2, [(30, 10), (20000, 18000), (30, 10), (20000, 18000)],
                 validation_a=10**5, validation_b=10**5, held_a=10**7, held_b=10**7, delta=0,
                 alpha=Fraction(1, 10), pooled=pooled)
    two, other = conclude_views(short, [(300, 100)] * 4, 2, epsilon=0, **KW)
    assert other is not None and two.alpha_side == Fraction(1, 80)
    level = 2 * two.alpha_side if pooled else two.alpha_side
    assert seen and set(seen) == {NormalDist().inv_cdf(1 - float(level))}


@pytest.mark.parametrize(("q_lo", "upper_is_zero"), [
    (Fraction(1, 2**72000), True),    # 72001 bits · 0.6932 = 49911 <= 50001: e^50001·q_lo >= 1
    (Fraction(1, 2**80000), False),   # q_lo < e^-50001: p_hi - e^50001·q_lo > 0
    (Fraction(0), False),             # no lower bound under Q: p_hi
], ids=["2^-72000", "2^-80000", "zero"])
def test_delta_interval_above_the_huge_epsilon_is_zero_only_when_proved(
        monkeypatch: pytest.MonkeyPatch, q_lo: Fraction, upper_is_zero: bool) -> None:
    """Above _HUGE, e^epsilon is never formed, so the upper end p_hi - e^epsilon·q_lo is taken
    as 0 only where e^epsilon·q_lo >= 1 follows from q_lo's bit length; otherwise it stays
    p_hi (sound).  The Clopper-Pearson lower ends are replaced by q_lo (a tiny alpha gives
    such bounds; 2^-80000 needs about that alpha)."""
    monkeypatch.setattr(estimate_module, "cp_lower", lambda hits, n, alpha: q_lo)
    found = conclude_pair([_candidate(0.5)], [(300, 100)], epsilon=50001, **KW)
    interval = found.estimate.delta_at_claimed_epsilon
    assert interval is not None and interval[0] == 0.0
    if upper_is_zero:
        assert interval[1] == 0.0
    else:
        assert _is_ceil(interval[1], cp_upper(300, 5000, Fraction(1, 20)))


def test_delta_interval_at_exactly_the_huge_epsilon_is_formed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The shortcut is taken only strictly above _HUGE: at epsilon = 50000 exactly, e^epsilon is
    formed and a q_lo near 1/2 whose denominator is too long for the bit-length proof still gives
    the upper end 0 (p_hi - e^50000·q_lo < 0); the shortcut would give p_hi."""
    q_lo = Fraction(2**80000 + 1, 2**80001)
    monkeypatch.setattr(estimate_module, "cp_lower", lambda hits, n, alpha: q_lo)
    found = conclude_pair([_candidate(0.5)], [(300, 100)], epsilon=50000, **KW)
    assert found.estimate.delta_at_claimed_epsilon == (0.0, 0.0)


def test_delta_interval_above_the_huge_epsilon_at_the_proof_s_exact_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """epsilon = 6932/10000 · 72500 = 50257 exactly, q_lo = 2^-72499 (a denominator of 72500
    bits): the bit-length proof holds with equality (e^50257·2^-72499 = e^4.4... >= 1), so the
    upper end is 0."""
    monkeypatch.setattr(estimate_module, "cp_lower", lambda hits, n, alpha: Fraction(1, 2**72499))
    assert Fraction(6932, 10000) * 72500 == 50257
    found = conclude_pair([_candidate(0.5)], [(300, 100)], epsilon=50257, **KW)
    assert found.estimate.delta_at_claimed_epsilon == (0.0, 0.0)
