"""Continuous-noise events beyond the run and the argmax: every comparison with one shared noisy
threshold (ThresholdVector), a noisy value between two noisy bounds (NoisyBetween), several
queries between two shared noisy bounds (RangeRun) and the first query inside the noisy range of
two others (FirstInRange; nested integrals).  Laws checked against an independent mpmath
quadrature written from the densities (not from the Factor code), against exact rational laws
of iid orderings, against the existing events where the laws coincide, and against the exact
sampler."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from privref.audits.stats import bonferroni, cp_lower, cp_upper
from privref.reference._nested_quadrature import nested_integral
from privref.reference._piecewise_exp import Factor, Family
from privref.reference.continuous_noise import (
    MAX_VECTOR_VALUES,
    ContinuousNoise,
    FirstInRange,
    GaussianNoise,
    LaplaceNoise,
    NoiseContest,
    NoisyBetween,
    NoNoise,
    RangeRun,
    SignedThresholdRun,
    ThresholdRun,
    ThresholdVector,
    between,
    clear_caches,
    first_in_range,
    law_of,
    range_run,
    signed_first_below,
    threshold_vector,
)
from privref.reference.errors import InvalidArgument
from privref.reference.program import FiniteEvent, Program, distribution, sample
from privref.reference.reals import Interval, prob_as_interval, rational

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


# ------------------------------------------------------------------ nested laws

def _fpdf(noise: ContinuousNoise, mu: float, x: float) -> float:
    s = float(noise.scale)
    if isinstance(noise, GaussianNoise):
        return math.exp(-((x - mu) / s) ** 2 / 2) / (s * math.sqrt(2 * math.pi))
    return math.exp(-abs(x - mu) / s) / (2 * s)


def _fcdf(noise: ContinuousNoise, mu: float, x: float) -> float:
    s, z = float(noise.scale), x - mu
    if isinstance(noise, GaussianNoise):
        return math.erfc(-z / (s * math.sqrt(2))) / 2
    return math.exp(z / s) / 2 if z < 0 else 1 - math.exp(-z / s) / 2


def _nested_oracle(g: Callable[[float], float], h: Callable[[float], float],
                   kinks: list[float]) -> float:
    """∫ g(x) ∫_{y>x} h(y) dy dx by nested scipy quadrature in floats over ±200 (an oracle
    independent of arb and of the Factor code; accurate to about 1e-11)."""
    quad = pytest.importorskip("scipy.integrate").quad

    def k_of(x: float) -> float:
        return float(quad(h, x, 200, points=[k for k in kinks if k > x] or None,
                          epsabs=1e-14, epsrel=1e-12, limit=200)[0])

    return float(quad(lambda x: g(x) * k_of(x), -200, 200, points=kinks or None,
                      epsabs=1e-14, epsrel=1e-12, limit=200)[0])


NESTED_SLACK = 1e-9


def _meets_float(box: Interval, value: float) -> bool:
    return float(box.lo) - NESTED_SLACK <= value <= float(box.hi) + NESTED_SLACK


@pytest.mark.parametrize("gauss", [True, False])
def test_nested_integral_matches_nested_quadrature(gauss: bool) -> None:
    """∫ f_0(x) F_0(x) ∫_{y>x} f_1(y) S_{-1}(y): the chain Q < A < B < C of four values."""
    noise: ContinuousNoise = GaussianNoise(F(4)) if gauss else LaplaceNoise(F(4))
    family: Family = "gaussian" if gauss else "laplace"
    outer = (Factor(family, "density", F(0), F(4)), Factor(family, "cdf", F(0), F(4)))
    inner = (Factor(family, "density", F(1), F(4)), Factor(family, "sf", F(-1), F(4)))
    box = nested_integral(outer, inner, 40)
    assert box.width <= box.lo / 2**40
    oracle = _nested_oracle(lambda x: _fpdf(noise, 0, x) * _fcdf(noise, 0, x),
                            lambda y: _fpdf(noise, 1, y) * (1 - _fcdf(noise, -1, y)),
                            [] if gauss else [-1.0, 0.0, 1.0])
    assert _meets_float(box, oracle)


@pytest.mark.parametrize("noise", [LaplaceNoise(F(2)), GaussianNoise(F(2))])
def test_iid_orderings_give_exact_rational_laws(noise: ContinuousNoise) -> None:
    """All values iid: a run between two noisy bounds of two queries has P(2) = 2/4! = 1/12,
    P(1) = 1/3! - 1/12 = 1/12, P(0) = 5/6 (of three: P(3) = 3!/5! = 1/20); the first query
    inside the range of two others among four has P(0) = 1/3, P(1) = 2/4! = 1/12, P(none) = 7/12."""
    run = _law(RangeRun(noise, F(1), noise, F(1), noise, F(1), 2))
    run3 = _law(RangeRun(noise, F(1), noise, F(1), noise, F(1), 3))
    first = _law(FirstInRange(noise, (F(1),) * 4))
    for law, expected in ((run, {0: F(5, 6), 1: F(1, 12), 2: F(1, 12)}),
                          (run3, {0: F(5, 6), 1: F(1, 12), 2: F(1, 12) - F(1, 20),
                                  3: F(1, 20)}),
                          (first, {0: F(1, 3), 1: F(1, 12), 2: F(7, 12)})):
        for outcome, p in expected.items():
            assert law[outcome].lo <= p <= law[outcome].hi, (outcome, law[outcome])
            assert law[outcome].width < F(1, 10**6)


def test_short_runs_and_ranges_are_the_one_dimensional_events() -> None:
    """One query: a RangeRun is an ordered NoisyBetween; three values: a FirstInRange is an
    unordered NoisyBetween of the third between the first two."""
    q, b = GaussianNoise(F(4)), GaussianNoise(F(8))
    run = _law(RangeRun(q, F(0), b, F(0), b, F(1), 1))
    btw = _law(NoisyBetween(q, F(0), b, F(0), b, F(1)))
    assert run[1].lo <= btw[True].hi and btw[True].lo <= run[1].hi
    lap = LaplaceNoise(F(4))
    first = _law(FirstInRange(lap, (F(0), F(1), F(0))))
    mid = _law(NoisyBetween(lap, F(0), lap, F(0), lap, F(1), ordered=False))
    assert first[0].lo <= mid[True].hi and mid[True].lo <= first[0].hi


def test_range_run_matches_nested_quadrature() -> None:
    """Two Laplace queries at 0 between LOW ~ 0 + Lap(8) and HIGH ~ 1 + Lap(8): P(both inside)
    = E[(F(H) - F(L))⁺²] by nested quadrature."""
    q, b = LaplaceNoise(F(4)), LaplaceNoise(F(8))
    law = _law(RangeRun(q, F(0), b, F(0), b, F(1), 2))
    quad = pytest.importorskip("scipy.integrate").quad

    def inner(lo: float) -> float:
        def f(hi: float) -> float:
            return _fpdf(b, 1, hi) * (_fcdf(q, 0, hi) - _fcdf(q, 0, lo)) ** 2
        return float(quad(f, lo, 400, points=[p for p in (0.0, 1.0) if p > lo] or None,
                          epsabs=1e-14, epsrel=1e-12, limit=200)[0])

    oracle = float(quad(lambda lo: _fpdf(b, 0, lo) * inner(lo), -400, 400, points=[0.0, 1.0],
                        epsabs=1e-14, epsrel=1e-12, limit=200)[0])
    assert _meets_float(law[2], oracle)
    assert sum(p.lo for p in law.values()) <= 1 <= sum(p.hi for p in law.values())


def test_first_in_range_matches_nested_quadrature() -> None:
    """Values (0, 1, 0, 1), Gaussian σ = 4: P(Q_2 below the minimum, Q_3 inside the range)."""
    nu = GaussianNoise(F(4))
    law = _law(FirstInRange(nu, (F(0), F(1), F(0), F(1))))
    total = 0.0
    for a, b in ((0, 1), (1, 0)):  # the locations of the minimum and the maximum
        def g(x: float, a: int = a) -> float:
            return _fpdf(nu, a, x) * _fcdf(nu, 0, x)

        def h(y: float, b: int = b) -> float:
            return _fpdf(nu, 1, y) * (1 - _fcdf(nu, b, y))

        total += _nested_oracle(g, h, [])
    assert _meets_float(law[1], total)
    assert sum(p.lo for p in law.values()) <= 1 <= sum(p.hi for p in law.values())


@pytest.mark.parametrize("above", [True, False])
def test_signed_run_splits_the_run_by_the_side_of_the_cut(above: bool) -> None:
    """Summing the two sides gives the ThresholdRun's law; the law sums to 1."""
    rho, nu = LaplaceNoise(F(2)), LaplaceNoise(F(3))
    values = (F(-1), F(0), F(1))
    signed = _law(SignedThresholdRun(rho, F(0), nu, values, F(1, 2), above))
    run = _law(ThresholdRun(rho, F(0), nu, values, above))
    for j in range(3):
        both = signed[(j, True)] + signed[(j, False)]
        assert both.lo <= run[j].hi and run[j].lo <= both.hi
    assert signed[(3, False)] == run[3]
    assert sum(p.lo for p in signed.values()) <= 1 <= sum(p.hi for p in signed.values())


def test_signed_run_of_iid_values_has_exact_rational_laws() -> None:
    """Threshold and queries iid symmetric at 0, cut 0, firing below: P(stop at 0 with a value
    >= 0) = P(0 <= Q < T) = 1/8, P(stop at 0 below 0) = 1/2 - 1/8 = 3/8; no stop among four:
    P(T below all) = 1/5."""
    for noise in (LaplaceNoise(F(2)), GaussianNoise(F(2))):
        law = _law(SignedThresholdRun(noise, F(0), noise, (F(0),) * 4, F(0), above=False))
        for outcome, p in {(0, True): F(1, 8), (0, False): F(3, 8), (4, False): F(1, 5)}.items():
            assert law[outcome].lo <= p <= law[outcome].hi, (outcome, law[outcome])


def test_signed_run_matches_nested_quadrature() -> None:
    """Above: P(the first query crosses and is >= 1/2) = ∫ f_ρ(x) ∫_{y > max(x, 1/2)} f_0(y)."""
    rho, nu = LaplaceNoise(F(2)), LaplaceNoise(F(3))
    law = _law(SignedThresholdRun(rho, F(0), nu, (F(1), F(0)), F(1, 2)))
    oracle = _nested_oracle(lambda x: _fpdf(rho, 0, x),
                            lambda y: _fpdf(nu, 1, y) * (1.0 if y >= 0.5 else 0.0),
                            [0.0, 0.5, 1.0])
    assert _meets_float(law[(0, True)], oracle)


# ------------------------------------------------------------------ sampler and programs

def _vector() -> Program[tuple[bool, ...]]:
    return threshold_vector(LaplaceNoise(F(1)), F(0), LaplaceNoise(F(2)), (F(0), F(1)))


def _between() -> Program[bool]:
    return between(LaplaceNoise(F(1)), F(0), LaplaceNoise(F(1)), F(0), LaplaceNoise(F(1)), F(1),
                   ordered=False)


def _first_in_range() -> Program[int]:
    return first_in_range(LaplaceNoise(F(1)), (F(0), F(1), F(0), F(1)))


def _signed() -> Program[tuple[int, bool]]:
    return signed_first_below(LaplaceNoise(F(1)), F(0), LaplaceNoise(F(1)), (F(0), F(-1)), F(0))


def _range_run() -> Program[int]:
    return range_run(LaplaceNoise(F(1)), F(0), LaplaceNoise(F(2)), F(-1), LaplaceNoise(F(2)),
                     F(1), 2)


@pytest.mark.parametrize(("program", "seed"), [(_vector, 31), (_between, 32),
                                               (_first_in_range, 33), (_range_run, 34),
                                               (_signed, 35)])
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
    with pytest.raises(InvalidArgument, match="count"):
        RangeRun(lap, F(0), lap, F(0), lap, F(1), 0)
    with pytest.raises(InvalidArgument, match="MAX_VECTOR_VALUES"):
        RangeRun(lap, F(0), lap, F(0), lap, F(1), MAX_VECTOR_VALUES + 1)
    with pytest.raises(InvalidArgument, match="cut"):
        SignedThresholdRun(lap, F(0), lap, (F(0),), "nan")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="above"):
        SignedThresholdRun(lap, F(0), lap, (F(0),), F(0), 0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="query_noise"):
        SignedThresholdRun(lap, F(0), NoNoise(), (F(0),), F(0))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="at least 3"):
        FirstInRange(lap, (F(0), F(1)))
    with pytest.raises(InvalidArgument, match="unit"):
        FirstInRange(LaplaceNoise(F(1), rational(2)), (F(0),) * 3)


def test_accepts_only_the_outcomes() -> None:
    lap = LaplaceNoise(F(1))
    vec = ThresholdVector(lap, F(0), lap, (F(0), F(1)))
    assert vec.accepts((True, False)) and not vec.accepts((True,)) and not vec.accepts((1, 0))
    btw = NoisyBetween(lap, F(0), lap, F(0), lap, F(1))
    assert btw.accepts(False) and not btw.accepts(0)
    signed = SignedThresholdRun(lap, F(0), lap, (F(0), F(1)), F(0))
    assert signed.accepts((1, True)) and signed.accepts((2, False))
    assert not signed.accepts((2, True)) and not signed.accepts((True, True))

