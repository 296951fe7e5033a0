"""Continuous-noise events beyond the run and the argmax: every comparison with one shared noisy
threshold (ThresholdVector) and a noisy value between two noisy bounds (NoisyBetween).  Laws
checked against an independent mpmath quadrature written from the densities (not from the
Factor code), against the existing events where the laws coincide, and against the exact
sampler."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from privref.audits.stats import bonferroni, cp_lower, cp_upper
from privref.reference.continuous_noise import (
    MAX_VECTOR_VALUES,
    ContinuousNoise,
    GaussianNoise,
    LaplaceNoise,
    NoiseContest,
    NoisyBetween,
    NoNoise,
    ThresholdRun,
    ThresholdVector,
    between,
    clear_caches,
    law_of,
    threshold_vector,
)
from privref.reference.errors import InvalidArgument
from privref.reference.program import FiniteEvent, Program, distribution, sample
from privref.reference.reals import Interval, prob_as_interval

F = Fraction
ALPHA = F(1, 10**6)
SLACK = F(1, 10**20)  # the oracle's own error allowance (30 digits of quadrature)


def _law(event: FiniteEvent, prec: int = 64) -> dict[object, Interval]:
    return {v: prob_as_interval(p) for v, p in law_of(event, prec)}


def _meets(box: Interval, value: Fraction) -> bool:
    return box.lo - SLACK <= value <= box.hi + SLACK


# ------------------------------------------------------------------ an independent oracle

def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _pdf(noise: ContinuousNoise, mu: Fraction, x: mpmath.mpf) -> mpmath.mpf:
    s = _mp(noise.scale)
    if isinstance(noise, GaussianNoise):
        return mpmath.npdf(x, _mp(mu), s)
    return mpmath.exp(-abs(x - _mp(mu)) / s) / (2 * s)


def _cdf(noise: ContinuousNoise | NoNoise, mu: Fraction, x: mpmath.mpf) -> mpmath.mpf:
    """P(mu + Z <= x), from the textbook formulas."""
    if isinstance(noise, NoNoise):
        return mpmath.mpf(1 if x >= _mp(mu) else 0)
    s, z = _mp(noise.scale), x - _mp(mu)
    if isinstance(noise, GaussianNoise):
        return mpmath.ncdf(z / s)
    return mpmath.exp(z / s) / 2 if z < 0 else 1 - mpmath.exp(-z / s) / 2


def _quad(g: Callable[[mpmath.mpf], mpmath.mpf], kinks: list[Fraction]) -> Fraction:
    with mpmath.workdps(30):
        points = [-mpmath.inf, *sorted({_mp(k) for k in kinks}), mpmath.inf]
        return F(mpmath.nstr(mpmath.quad(g, points), 25, min_fixed=-40, max_fixed=40))


def _vector_oracle(event: ThresholdVector, bits: tuple[bool, ...]) -> Fraction:
    """∫ f_ρ(x) Π_j P(values[j] + ν_j on the side bits[j] of x) dx by mpmath."""
    def g(x: mpmath.mpf) -> mpmath.mpf:
        v = _pdf(event.threshold_noise, event.threshold, x)
        for b, q in zip(bits, event.values, strict=True):
            c = _cdf(event.query_noise, q, x)
            v *= (1 - c) if b else c
        return v

    return _quad(g, [event.threshold, *event.values])


def _between_oracle(event: NoisyBetween) -> Fraction:
    """P(True) by mpmath: ∫ f(y) P(y strictly between the two noisy bounds) dy."""
    def g(y: mpmath.mpf) -> mpmath.mpf:
        lo, hi = _cdf(event.low_noise, event.low, y), _cdf(event.high_noise, event.high, y)
        inside = lo * (1 - hi) if event.ordered else lo * (1 - hi) + (1 - lo) * hi
        return _pdf(event.noise, event.value, y) * inside

    return _quad(g, [event.value, event.low, event.high])


# ------------------------------------------------------------------ ThresholdVector

VECTORS = [
    ThresholdVector(LaplaceNoise(F(2)), F(0), LaplaceNoise(F(2)), (F(-1), F(-1), F(0))),
    ThresholdVector(LaplaceNoise(F(2)), F(1, 2), LaplaceNoise(F(3)), (F(0), F(1))),
    ThresholdVector(LaplaceNoise(F(4)), F(0), GaussianNoise(F(8)), (F(0), F(1))),
    ThresholdVector(GaussianNoise(F(2)), F(0), NoNoise(), (F(1), F(-1), F(0))),
]


@pytest.mark.parametrize("event", VECTORS)
def test_vector_law_matches_quadrature_and_sums_to_one(event: ThresholdVector) -> None:
    law = _law(event)
    assert len(law) == 2 ** len(event.values)
    assert sum(b.lo for b in law.values()) <= 1 <= sum(b.hi for b in law.values())
    for bits, box in law.items():
        assert isinstance(bits, tuple)
        assert _meets(box, _vector_oracle(event, bits)), bits


def test_vector_of_one_comparison_is_a_contest() -> None:
    """One released comparison is the event ν + q > ρ + t (NoiseContest)."""
    rho, nu = LaplaceNoise(F(2)), LaplaceNoise(F(3))
    vec = _law(ThresholdVector(rho, F(1), nu, (F(2),)))
    contest = _law(NoiseContest(nu, F(2), rho, F(1)))
    assert vec[(True,)].lo <= contest[True].hi and contest[True].lo <= vec[(True,)].hi
    assert vec[(False,)].lo <= contest[False].hi and contest[False].lo <= vec[(False,)].hi


def test_vector_prefix_is_the_run() -> None:
    """The run stops at 0 iff the first comparison is true; it runs through iff all are false."""
    rho, nu = LaplaceNoise(F(2)), LaplaceNoise(F(4))
    values = (F(0), F(1), F(-1))
    vec = _law(ThresholdVector(rho, F(0), nu, values), 96)
    run = _law(ThresholdRun(rho, F(0), nu, values), 96)
    first = [b for bits, b in vec.items() if isinstance(bits, tuple) and bits[0]]
    assert sum(b.lo for b in first) <= run[0].hi and run[0].lo <= sum(b.hi for b in first)
    none = vec[(False, False, False)]
    assert none.lo <= run[3].hi and run[3].lo <= none.hi
    stop_1 = vec[(False, True, False)] + vec[(False, True, True)]
    assert stop_1.lo <= run[1].hi and run[1].lo <= stop_1.hi


def test_vector_outcomes_with_the_same_multiset_share_their_probability() -> None:
    """Equal values: the law depends on the number of true comparisons only (exchangeable)."""
    law = _law(ThresholdVector(LaplaceNoise(F(1)), F(0), LaplaceNoise(F(1)), (F(0),) * 3))
    assert law[(True, False, False)] == law[(False, True, False)] == law[(False, False, True)]
    assert law[(True, True, True)].lo <= F(1, 4) <= law[(True, True, True)].hi  # P(ρ min of 4)


def test_raw_values_against_a_noisy_threshold_are_exact_zeros_where_impossible() -> None:
    """Raw values 0 and 1: 0 > ρ and 1 <= ρ cannot both hold, exactly 0."""
    law = dict(law_of(ThresholdVector(LaplaceNoise(F(2)), F(0), NoNoise(), (F(0), F(1)))))
    assert law[(True, False)] == F(0)


# ------------------------------------------------------------------ NoisyBetween

BETWEENS = [
    NoisyBetween(GaussianNoise(F(4)), F(0), GaussianNoise(F(8)), F(0), GaussianNoise(F(8)), F(1)),
    NoisyBetween(LaplaceNoise(F(4)), F(1), LaplaceNoise(F(8)), F(0), LaplaceNoise(F(8)), F(1)),
    NoisyBetween(LaplaceNoise(F(4)), F(1), LaplaceNoise(F(4)), F(0), LaplaceNoise(F(4)), F(1),
                 ordered=False),
    NoisyBetween(GaussianNoise(F(4)), F(0), GaussianNoise(F(4)), F(1), GaussianNoise(F(4)), F(0),
                 ordered=False),
    NoisyBetween(LaplaceNoise(F(1)), F(0), GaussianNoise(F(2)), F(-1), LaplaceNoise(F(3)), F(2)),
]


@pytest.mark.parametrize("event", BETWEENS)
def test_between_law_matches_quadrature_and_sums_to_one(event: NoisyBetween) -> None:
    law = _law(event)
    assert law[True].lo <= 1 - law[False].lo and 1 - law[False].hi <= law[True].hi
    assert _meets(law[True], _between_oracle(event))


def test_unordered_between_of_three_equal_laws_is_one_third() -> None:
    """Three iid values: the third is the middle one with probability exactly 1/3."""
    for noise in (LaplaceNoise(F(2)), GaussianNoise(F(2))):
        law = _law(NoisyBetween(noise, F(5), noise, F(5), noise, F(5), ordered=False))
        assert law[True].lo <= F(1, 3) <= law[True].hi
        assert law[False].lo <= F(2, 3) <= law[False].hi


def test_ordered_between_is_directional() -> None:
    """Bounds far in the wrong order (low at 10, high at -10): rarely inside; the unordered
    event with the same bounds is likely."""
    nu = LaplaceNoise(F(1))
    wrong = _law(NoisyBetween(nu, F(0), nu, F(10), nu, F(-10)))
    either = _law(NoisyBetween(nu, F(0), nu, F(10), nu, F(-10), ordered=False))
    assert wrong[True].hi < F(1, 100) < F(9, 10) < either[True].lo


# ------------------------------------------------------------------ sampler and programs

def _vector() -> Program[tuple[bool, ...]]:
    return threshold_vector(LaplaceNoise(F(1)), F(0), LaplaceNoise(F(2)), (F(0), F(1)))


def _between() -> Program[bool]:
    return between(LaplaceNoise(F(1)), F(0), LaplaceNoise(F(1)), F(0), LaplaceNoise(F(1)), F(1),
                   ordered=False)


@pytest.mark.parametrize(("program", "seed"), [(_vector, 31), (_between, 32)])
def test_sampler_frequencies_match_the_exact_law(program: Callable[[], Program[object]],
                                                 seed: int) -> None:
    law = distribution(program)
    rng = np.random.default_rng(seed)
    n = 2000
    counts = Counter(sample(program, rng=rng) for _ in range(n))
    assert set(counts) <= set(law.support())
    level = bonferroni(ALPHA, 2 * len(law))
    for outcome, p in law.items():
        box, k = prob_as_interval(p), counts[outcome]
        assert cp_lower(k, n, level) <= box.hi
        assert cp_upper(k, n, level) >= box.lo


def test_caches_clear_and_laws_recompute_identically() -> None:
    event = VECTORS[0]
    before = law_of(event)
    clear_caches()
    assert law_of(event) == before


# ------------------------------------------------------------------ bad input

def test_bad_events_name_the_argument() -> None:
    lap: ContinuousNoise = LaplaceNoise(F(1))
    with pytest.raises(InvalidArgument, match="MAX_VECTOR_VALUES"):
        ThresholdVector(lap, F(0), lap, (F(0),) * (MAX_VECTOR_VALUES + 1))
    assert len(ThresholdVector(lap, F(0), lap, (F(0),) * MAX_VECTOR_VALUES).values) \
        == MAX_VECTOR_VALUES
    with pytest.raises(InvalidArgument, match="values"):
        ThresholdVector(lap, F(0), lap, ())
    with pytest.raises(InvalidArgument, match="threshold_noise"):
        ThresholdVector(NoNoise(), F(0), lap, (F(0),))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match=r"values\[1\]"):
        ThresholdVector(lap, F(0), lap, (F(0), "nan"))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="low_noise"):
        NoisyBetween(lap, F(0), NoNoise(), F(0), lap, F(1))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="high"):
        NoisyBetween(lap, F(0), lap, F(0), lap, "inf")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="ordered"):
        NoisyBetween(lap, F(0), lap, F(0), lap, F(1), 1)  # type: ignore[arg-type]


def test_accepts_only_the_outcomes() -> None:
    lap = LaplaceNoise(F(1))
    vec = ThresholdVector(lap, F(0), lap, (F(0), F(1)))
    assert vec.accepts((True, False)) and not vec.accepts((True,)) and not vec.accepts((1, 0))
    btw = NoisyBetween(lap, F(0), lap, F(0), lap, F(1))
    assert btw.accepts(False) and not btw.accepts(0)

