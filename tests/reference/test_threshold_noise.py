"""Branching on discrete noise: tails of ``c + Z >= t``, ``c1 + Z1 > c2 + Z2``, shared-threshold runs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.audits.stats import bonferroni, cp_lower, cp_upper
from privref.reference.discrete_noise import (
    DiscreteGaussian,
    DiscreteLaplace,
    NoiseContest,
    NoiseLaw,
    ThresholdRun,
    ThresholdTest,
    TwoSidedGeometric,
    at_least,
    beats,
    difference_tail,
    exceeds,
    first_at_most,
    upper_tail,
    window_run_law,
)
from privref.reference.errors import InvalidArgument, UnsupportedProgram
from privref.reference.program import Program, distribution, sample
from privref.reference.reals import Interval, Prob, interval_exp, prob_as_interval

LAWS: list[NoiseLaw] = [
    TwoSidedGeometric(Fraction(1, 2)),
    TwoSidedGeometric(Fraction(4, 5)),
    DiscreteLaplace(Fraction(3, 2)),
    DiscreteLaplace(Fraction(1, 3)),
    DiscreteGaussian(Fraction(2)),
    DiscreteGaussian(Fraction(1, 4)),
]
GEOMETRIC_TYPE = [law for law in LAWS if not isinstance(law, DiscreteGaussian)]
SMALL = [TwoSidedGeometric(Fraction(1, 2)), DiscreteLaplace(Fraction(3, 2)),
         DiscreteLaplace(Fraction(1, 3)), DiscreteGaussian(Fraction(1, 4))]
ALPHA = Fraction(1, 10**6)


def _box(p: Prob) -> Interval:
    return prob_as_interval(p)


def _overlap(a: Prob, b: Interval) -> bool:
    x = _box(a)
    return x.lo <= b.hi and b.lo <= x.hi


def _remainder(law: NoiseLaw, start: int) -> Fraction:
    """A proved upper bound on P(Z >= start) for start >= 1, derived independently of tail_mass."""
    if isinstance(law, DiscreteGaussian):
        return law.tail_weight_upper_bound(start) / law.normalizer().lo
    ratio = (Interval.point(law.alpha) if isinstance(law, TwoSidedGeometric)
             else interval_exp(Interval.point(-law.decay), 120))
    # Σ_{z>=start} c·r^z = P(Z = start)/(1 - r)
    return _box(law.pmf(start)).hi / (1 - ratio.hi)


def _brute_upper_tail(law: NoiseLaw, k: int, span: int) -> Interval:
    """Σ_{z=k}^{M} P(Z = z) enclosed, plus [0, proved remainder beyond M], M = max(k, 0) + span."""
    top = max(k, 0) + span
    lo = hi = Fraction(0)
    for z in range(k, top + 1):
        box = _box(law.pmf(z))
        lo, hi = lo + box.lo, hi + box.hi
    return Interval(lo, hi + _remainder(law, top + 1))


@given(law=st.sampled_from(LAWS), k=st.integers(-12, 12))
def test_upper_tail_encloses_partial_sum_plus_remainder(law: NoiseLaw, k: int) -> None:
    tail = upper_tail(law, k)
    assert _overlap(tail, _brute_upper_tail(law, k, 60))
    assert _box(tail).width < Fraction(1, 2**80)


@pytest.mark.parametrize("law", LAWS, ids=str)
def test_upper_tail_is_exact_for_the_geometric_law_and_symmetric(law: NoiseLaw) -> None:
    for k in range(-4, 5):
        both = _box(upper_tail(law, k)) + _box(upper_tail(law, 1 - k))
        assert both.lo <= 1 <= both.hi  # P(Z >= k) + P(Z <= k - 1) = 1 by symmetry
    if isinstance(law, TwoSidedGeometric):
        a = law.alpha
        assert upper_tail(law, -2) == 1 - a**3 / (1 + a)


def _brute_difference_tail(z1: NoiseLaw, z2: NoiseLaw, k: int, span: int) -> Interval:
    lo = hi = Fraction(0)
    for y in range(-span, span + 1):
        term = _box(z2.pmf(y)) * _box(upper_tail(z1, k + y))
        lo, hi = lo + term.lo, hi + term.hi
    return Interval(lo, hi + 2 * _remainder(z2, span + 1))


@given(z1=st.sampled_from(SMALL), z2=st.sampled_from(SMALL), k=st.integers(-6, 6))
def test_difference_tail_encloses_brute_force_convolution(z1: NoiseLaw, z2: NoiseLaw,
                                                          k: int) -> None:
    tail = difference_tail(z1, z2, k)
    assert _overlap(tail, _brute_difference_tail(z1, z2, k, 40))
    assert _box(tail).width < Fraction(1, 2**70)


def test_difference_tail_geometric_closed_form_is_exact() -> None:
    # Z1, Z2 iid two-sided geometric, α = 1/2, c = (1-α)/(1+α) = 1/3:
    # P(D = 0) = Σ_z P(z)² = c²(1 + 2α²/(1-α²)) = (1/9)(5/3) = 5/27, and by symmetry
    # P(D >= 1) = (1 - 5/27)/2 = 11/27.
    g = TwoSidedGeometric(Fraction(1, 2))
    assert difference_tail(g, g, 1) == Fraction(11, 27)
    assert difference_tail(g, g, 0) == Fraction(16, 27)


def test_difference_tail_with_equal_discrete_laplace_scales_matches_geometric_algebra() -> None:
    # DLap(t) and a geometric law with α = e^{-1/t} have the same law, so the same tail.
    lap = DiscreteLaplace(Fraction(2))
    tail = _box(difference_tail(lap, lap, 1))
    q = interval_exp(Interval.point(Fraction(-1, 2)), 200)
    # P(D = 0) = c²(1 + q²)/(1 - q²), c = (1-q)/(1+q)  (see the exact geometric test)
    c_lo, c_hi = (1 - q.hi) / (1 + q.hi), (1 - q.lo) / (1 + q.lo)
    p0 = Interval(c_lo**2 * (1 + q.lo**2) / (1 - q.lo**2), c_hi**2 * (1 + q.hi**2) / (1 - q.hi**2))
    expected = (1 - p0) / 2
    assert tail.lo <= expected.hi and expected.lo <= tail.hi


RUNS = [
    ThresholdRun(DiscreteLaplace(Fraction(5)), 3, DiscreteLaplace(Fraction(10)), (3, 4, 2)),
    ThresholdRun(DiscreteLaplace(Fraction(1, 2)), -2, DiscreteLaplace(Fraction(3)),
                 (0, 5, -3, 1)),
    ThresholdRun(TwoSidedGeometric(Fraction(1, 2)), 1, TwoSidedGeometric(Fraction(2, 3)),
                 (0, 2)),
    ThresholdRun(DiscreteLaplace(Fraction(2)), 0, TwoSidedGeometric(Fraction(1, 3)), (7,)),
]


@given(threshold=st.integers(-4, 4),
       values=st.lists(st.integers(-5, 5), min_size=1, max_size=4).map(tuple),
       scale=st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(3, 2)]))
def test_run_closed_form_agrees_with_window_sum(threshold: int, values: tuple[int, ...],
                                               scale: Fraction) -> None:
    run = ThresholdRun(DiscreteLaplace(scale), threshold, DiscreteLaplace(2 * scale), values)
    closed = run.branches(96)
    window = window_run_law(run, 96)
    assert [j for j, _ in closed] == list(range(len(values) + 1))
    for (_, a), (_, b) in zip(closed, window, strict=True):
        assert _overlap(a, _box(b))
        assert _box(a).width < Fraction(1, 2**70)
    total = sum((_box(p) for _, p in closed), Interval.point(Fraction(0)))
    assert total.lo <= 1 <= total.hi


def test_run_law_is_exact_for_geometric_laws_and_sums_to_one() -> None:
    run = RUNS[2]
    law = run.branches(96)
    assert all(isinstance(p, Fraction) for _, p in law)
    assert sum(p for _, p in law if isinstance(p, Fraction)) == 1
    # one value: stopping at 0 is v + ν <= w + ρ, i.e. ρ - ν >= v - w
    single = ThresholdRun(run.threshold_noise, 1, run.query_noise, (4,))
    assert single.branches(96)[0][1] == difference_tail(run.threshold_noise, run.query_noise, 3)


def test_run_with_gaussian_noise_uses_the_window_enclosure() -> None:
    run = ThresholdRun(DiscreteGaussian(Fraction(2)), 0, DiscreteLaplace(Fraction(1)), (0, 1))
    law = run.branches(96)
    total = sum((_box(p) for _, p in law), Interval.point(Fraction(0)))
    assert total.lo <= 1 <= total.hi and total.width < Fraction(1, 2**70)
    first = ThresholdRun(run.threshold_noise, 0, run.query_noise, (0,)).branches(96)[0][1]
    # stopping at index 0 does not depend on later values
    assert _overlap(law[0][1], _box(first))


# ------------------------------------------------------------------ programs


def _contest() -> Program[tuple[bool, bool]]:
    lap = DiscreteLaplace(Fraction(1))
    first = yield from beats(lap, 0, DiscreteLaplace(Fraction(2)), 1)
    second = yield from at_least(DiscreteGaussian(Fraction(1)), 2 if first else 0, 1)
    return first, second


def _run_program() -> Program[int]:
    stop = yield from first_at_most(DiscreteLaplace(Fraction(1)), 0,
                                    DiscreteLaplace(Fraction(2)), (0, 1, 0))
    if stop == 3:
        passed = yield from exceeds(TwoSidedGeometric(Fraction(1, 3)), 0, 0)
        return 3 + int(passed)
    return stop


def test_program_law_is_the_product_of_comparison_tails() -> None:
    law = distribution(_contest)
    p_first = _box(difference_tail(DiscreteLaplace(Fraction(1)), DiscreteLaplace(Fraction(2)), 2))
    g = DiscreteGaussian(Fraction(1))
    expected = {
        (True, True): p_first * _box(upper_tail(g, -1)),
        (True, False): p_first * (1 - _box(upper_tail(g, -1))),
        (False, True): (1 - p_first) * _box(upper_tail(g, 1)),
        (False, False): (1 - p_first) * (1 - _box(upper_tail(g, 1))),
    }
    for outcome, p in law.items():
        assert _overlap(p, expected[outcome])
    assert law.is_finite and len(law) == 4


@pytest.mark.parametrize(("program", "seed"), [(_contest, 11), (_run_program, 12)])
def test_sampler_frequencies_match_exact_law(program: Callable[[], Program[Hashable]],
                                             seed: int) -> None:
    law = distribution(program)
    rng = np.random.default_rng(seed)
    n = 3000
    counts = Counter(sample(program, rng=rng) for _ in range(n))
    assert set(counts) <= set(law.support())
    level = bonferroni(ALPHA, 2 * len(law))
    for outcome, p in law.items():
        box = _box(p)
        k = counts[outcome]
        assert cp_lower(k, n, level) <= box.hi
        assert cp_upper(k, n, level) >= box.lo


def test_threshold_test_sampler_compares_the_exact_draw() -> None:
    test = ThresholdTest(DiscreteLaplace(Fraction(1)), 2, 3, strict=True)
    rng = np.random.default_rng(5)
    n = 2000
    k = sum(test.draw(rng) for _ in range(n))
    p = _box(upper_tail(test.noise, 2))
    level = bonferroni(ALPHA, 2)
    assert cp_lower(k, n, level) <= p.hi and cp_upper(k, n, level) >= p.lo
    assert _overlap(test.branches(96)[0][1], p)


def test_contest_strictness_and_shift_direction() -> None:
    lap = DiscreteLaplace(Fraction(1))
    strict = NoiseContest(lap, 0, lap, 0).branches(96)[0][1]
    loose = NoiseContest(lap, 0, lap, 0, strict=False).branches(96)[0][1]
    assert _box(strict).hi < Fraction(1, 2) < _box(loose).lo
    assert _box(NoiseContest(lap, 5, lap, 0).branches(96)[0][1]).lo > Fraction(9, 10)


# ---------------------------------------------------------------- bad inputs


def test_bad_inputs_name_the_argument() -> None:
    lap = DiscreteLaplace(Fraction(1))
    with pytest.raises(InvalidArgument, match="scale"):
        DiscreteLaplace(Fraction(-1))
    with pytest.raises(InvalidArgument, match="sigma2"):
        DiscreteGaussian(Fraction(0))
    with pytest.raises(InvalidArgument, match="shift"):
        ThresholdTest(lap, Fraction(1, 2), 0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="threshold"):
        exceeds(lap, 0, 1.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="shift2"):
        beats(lap, 0, lap, True)
    with pytest.raises(InvalidArgument, match="noise2"):
        NoiseContest(lap, 0, "lap", 0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="values"):
        ThresholdRun(lap, 0, lap, ())
    with pytest.raises(InvalidArgument, match=r"values\[1\]"):
        ThresholdRun(lap, 0, lap, (1, 2.0))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="k"):
        upper_tail(lap, 1.0)  # type: ignore[arg-type]


def test_cached_tails_still_validate_their_arguments() -> None:
    """A valid call cached first must not let an equal-but-invalid argument through (1.0 == 1)."""
    lap = DiscreteLaplace(Fraction(1))
    upper_tail(lap, 1)
    difference_tail(lap, lap, 1)
    with pytest.raises(InvalidArgument, match="k"):
        upper_tail(lap, 1.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="k"):
        difference_tail(lap, lap, True)
    with pytest.raises(InvalidArgument, match="prec"):
        upper_tail(lap, 1, 0)


def test_replay_with_a_different_event_is_refused() -> None:
    lap = DiscreteLaplace(Fraction(1))
    state = [0]

    def unstable() -> Program[int]:
        state[0] += 1
        if state[0] % 2:
            yield from exceeds(lap, 0, 0)
            return 0
        stop = yield from first_at_most(lap, 0, lap, (1,))
        return stop

    with pytest.raises(UnsupportedProgram):
        distribution(unstable)
