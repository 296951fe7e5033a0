"""Continuous Laplace and exponential noise: closed-form event laws, checked against closed forms,
an independent quadrature, permute-and-flip's exact law, and the exact sampler."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from privref.audits.stats import bonferroni, cp_lower, cp_upper
from privref.reference._piecewise_exp import Factor, integral
from privref.reference.continuous_noise import (
    MAX_EVENT_VALUES,
    ContinuousNoise,
    ExponentialNoise,
    GaussianNoise,
    LaplaceNoise,
    NoiseContest,
    NoisyArgmax,
    NoNoise,
    ThresholdRun,
    ThresholdTest,
    argmax,
    first_above,
    law_of,
)
from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import answer, answer_query
from privref.reference.noisy_max import report_noisy_max, report_noisy_max_laplace
from privref.reference.program import FiniteEvent, Program, distribution, sample
from privref.reference.reals import Interval, Prob, exp, log, prob_as_interval, rational
from privref.reference.sparse_vector import above_threshold, laplace_difference_tail

F = Fraction
ALPHA = F(1, 10**6)


def _box(p: Prob) -> Interval:
    return prob_as_interval(p)


def _contains(p: Prob, value: Interval) -> bool:
    """The enclosure ``p`` meets the (much tighter or wider) enclosure ``value``."""
    box = _box(p)
    return box.lo <= value.hi and value.lo <= box.hi


def _law(event: FiniteEvent, prec: int = 96) -> dict[object, Interval]:
    return {v: _box(p) for v, p in law_of(event, prec)}


# ------------------------------------------------------------------ an independent oracle

def _location(f: Factor) -> Fraction:
    assert isinstance(f.location, Fraction)
    return f.location


def _quad(factors: tuple[Factor, ...]) -> mpmath.mpf:
    """∫ Π factors by mpmath quadrature at 40 digits, split at the kinks (an oracle, not a proof)."""
    def g(x: mpmath.mpf) -> mpmath.mpf:
        v = mpmath.mpf(1)
        for f in factors:
            mu = mpmath.mpf(_location(f).numerator) / _location(f).denominator
            s = mpmath.mpf(f.scale.numerator) / f.scale.denominator
            z = x - mu
            if f.family == "laplace":
                d = mpmath.exp(-abs(z) / s) / (2 * s)
                c = mpmath.exp(z / s) / 2 if z < 0 else 1 - mpmath.exp(-z / s) / 2
            else:
                d = mpmath.exp(-z / s) / s if z >= 0 else mpmath.mpf(0)
                c = 1 - mpmath.exp(-z / s) if z >= 0 else mpmath.mpf(0)
            v *= d if f.part == "density" else c if f.part == "cdf" else 1 - c
        return v

    with mpmath.workdps(40):
        kinks = sorted({mpmath.mpf(_location(f).numerator) / _location(f).denominator
                        for f in factors})
        return mpmath.quad(g, [-mpmath.inf, *kinks, mpmath.inf])


INTEGRANDS = [
    (Factor("laplace", "density", F(0), F(2)), Factor("laplace", "cdf", F(1), F(4)),
     Factor("laplace", "sf", F(-3, 2), F(4)), Factor("laplace", "cdf", F(3), F(1, 3))),
    (Factor("exponential", "density", F(0), F(2)), Factor("exponential", "cdf", F(1), F(1)),
     Factor("exponential", "sf", F(1, 2), F(3))),
    (Factor("laplace", "density", F(1), F(1, 2)),
     *(Factor("laplace", "sf", F(i % 3), F(1)) for i in range(6)),
     Factor("laplace", "cdf", F(2), F(1))),
]


@pytest.mark.parametrize("factors", INTEGRANDS)
def test_closed_form_integral_matches_quadrature_and_is_tight(factors: tuple[Factor, ...]
                                                              ) -> None:
    box = integral(factors, 96)
    oracle = F(mpmath.nstr(_quad(factors), 35, min_fixed=-50, max_fixed=50))
    assert box.lo - F(1, 10**33) <= oracle <= box.hi + F(1, 10**33)
    assert box.width <= box.lo / 2**96


def test_integral_refuses_integrands_without_one_density_or_with_mixed_units() -> None:
    cdf = Factor("laplace", "cdf", F(0), F(1))
    with pytest.raises(InvalidArgument, match="exactly one density"):
        integral((cdf,), 64)
    dens = Factor("laplace", "density", F(0), F(1))
    with pytest.raises(InvalidArgument, match="exactly one density"):
        integral((dens, dens), 64)
    with pytest.raises(InvalidArgument, match="one scale unit"):
        integral((dens, Factor("laplace", "cdf", F(0), F(1), rational(2) * log(2))), 64)


# ------------------------------------------------------------------ closed forms

@pytest.mark.parametrize(("scale", "k"), [(F(2), F(3)), (F(1, 3), F(-1, 2)), (F(5), F(0))])
def test_threshold_test_is_the_laplace_tail(scale: Fraction, k: Fraction) -> None:
    law = _law(ThresholdTest(LaplaceNoise(scale), F(1), 1 + k))
    above = exp(-k / scale) / 2 if k >= 0 else 1 - exp(k / scale) / 2
    assert _contains(law[True], above.enclose(200))
    assert _contains(law[False], (1 - above).enclose(200))
    assert law[True].width <= law[True].lo / 2**96


def test_exponential_threshold_test_is_certain_below_the_location() -> None:
    law = law_of(ThresholdTest(ExponentialNoise(F(1)), F(2), F(2)))
    assert law == ((True, F(1)), (False, F(0)))
    tail = _law(ThresholdTest(ExponentialNoise(F(1, 2)), F(0), F(1, 3)))
    assert _contains(tail[True], exp(F(-2, 3)).enclose(200))
    assert _contains(tail[False], (1 - exp(F(-2, 3))).enclose(200))


@pytest.mark.parametrize(("b1", "b2", "w"), [(F(2), F(4), F(1)), (F(1), F(1), F(3, 2)),
                                              (F(1, 2), F(3), F(-2))])
def test_contest_is_the_laplace_difference_tail(b1: Fraction, b2: Fraction, w: Fraction) -> None:
    """P(Z1 > w + Z2) against the closed forms of P(Z1 - Z2 > w) (Reals)."""
    law = _law(NoiseContest(LaplaceNoise(b1), F(0), LaplaceNoise(b2), w))
    if b1 == b2:  # the difference of two Lap(b) has tail e^{-w/b}(2 + w/b)/4, w >= 0
        expected = exp(-w / b1) * (2 + w / b1) / 4
    elif w >= 0:
        expected = laplace_difference_tail(b1, b2, w)
    else:
        expected = 1 - laplace_difference_tail(b2, b1, -w)
    assert _contains(law[True], expected.enclose(200))
    assert law[True].width <= law[True].lo / 2**96


def test_one_query_run_is_a_contest_and_two_values_argmax_too() -> None:
    rho, nu = LaplaceNoise(F(2)), LaplaceNoise(F(4))
    run = _law(ThresholdRun(rho, F(1), nu, (F(3),)))
    contest = _law(NoiseContest(nu, F(3), rho, F(1)))
    assert _contains(run[0], contest[True]) and _contains(run[1], contest[False])
    arg = _law(NoisyArgmax(nu, (F(0), F(1))))
    pair = _law(NoiseContest(nu, F(1), nu, F(0)))
    assert _contains(arg[1], pair[True]) and _contains(arg[0], pair[False])


@pytest.mark.parametrize("event", [
    ThresholdRun(LaplaceNoise(F(2)), F(0), LaplaceNoise(F(4)), tuple(F(i % 2) for i in range(9))),
    ThresholdRun(LaplaceNoise(F(2)), F(1), LaplaceNoise(F(4)), (F(0), F(2), F(1)), above=False),
    NoisyArgmax(LaplaceNoise(F(1)), (F(0), F(1), F(1), F(3))),
    NoisyArgmax(ExponentialNoise(F(2)), (F(0), F(1), F(1, 2)), maximum=False),
])
def test_every_law_sums_to_one(event: FiniteEvent) -> None:
    law = _law(event)
    assert sum(b.lo for b in law.values()) <= 1 <= sum(b.hi for b in law.values())
    assert all(b.lo > 0 for b in law.values())


def test_argmax_of_equal_values_is_uniform_and_shifts_favour_the_larger() -> None:
    law = _law(NoisyArgmax(LaplaceNoise(F(1)), (F(2),) * 3))
    for p in law.values():
        assert p.lo <= F(1, 3) <= p.hi
    lopsided = _law(NoisyArgmax(LaplaceNoise(F(1)), (F(0), F(1))))
    assert lopsided[1].lo > lopsided[0].hi


def test_run_stops_at_the_first_query_above_the_shared_threshold() -> None:
    """Above: P(first ⊤ at 0) = P(ν_0 > ρ) = 1/2 for equal locations; below: the mirror."""
    rho, nu = LaplaceNoise(F(2)), LaplaceNoise(F(4))
    above = _law(ThresholdRun(rho, F(0), nu, (F(0), F(5))))
    assert above[0].lo <= F(1, 2) <= above[0].hi
    below = _law(ThresholdRun(rho, F(0), nu, (F(5), F(0)), above=False))
    high = _law(ThresholdRun(rho, F(0), nu, (F(5), F(0))))
    assert below[0].hi < high[0].lo  # 5 + ν is rarely below ρ, often above it


def test_exponential_argmax_is_permute_and_flip() -> None:
    """Report noisy max with Exponential(b) noise has permute-and-flip's law with decay e^{-1/b}
    (McKenna and Sheldon 2020): with b = 1/ln 2 (an exact irrational unit) the decay is 1/2 and
    permute-and-flip's probabilities are exact rationals, which every enclosure must contain."""
    scores = (0, 2, 1, 2)
    pf = report_noisy_max(range(4), lambda _d, r: scores[r], decay="1/2")
    exact = pf.distribution(())
    noise = ExponentialNoise(F(1), rational(1) / log(2))
    law = _law(NoisyArgmax(noise, tuple(F(s) for s in scores)), 120)
    for r in range(4):
        p = exact.prob(r)
        assert isinstance(p, Fraction)
        assert law[r].lo <= p <= law[r].hi
        assert law[r].width <= law[r].lo / 2**120


def test_an_irrational_unit_equals_the_same_rational_scale() -> None:
    plain = _law(NoisyArgmax(LaplaceNoise(F(3)), (F(0), F(1), F(2))))
    scaled = _law(NoisyArgmax(LaplaceNoise(F(1), rational(3)), (F(0), F(1), F(2))))
    for j in range(3):
        assert _contains(plain[j], scaled[j])


# ------------------------------------------------------------------ sampler

def _svt() -> Program[int]:
    return first_above(LaplaceNoise(F(1)), F(0), LaplaceNoise(F(2)), (F(0), F(-1), F(1)))


def _rnm() -> Program[int]:
    return argmax(ExponentialNoise(F(1)), (F(0), F(1), F(1, 2)))


@pytest.mark.parametrize(("program", "seed"), [(_svt, 21), (_rnm, 22)])
def test_sampler_frequencies_match_the_exact_law(program: Callable[[], Program[int]],
                                                 seed: int) -> None:
    law = distribution(program)
    rng = np.random.default_rng(seed)
    n = 3000
    counts = Counter(sample(program, rng=rng) for _ in range(n))
    assert set(counts) <= set(law.support())
    level = bonferroni(ALPHA, 2 * len(law))
    for outcome, p in law.items():
        box, k = _box(p), counts[outcome]
        assert cp_lower(k, n, level) <= box.hi
        assert cp_upper(k, n, level) >= box.lo


def test_sampler_never_draws_an_impossible_outcome() -> None:
    certain = ThresholdTest(ExponentialNoise(F(1)), F(5), F(5))
    rng = np.random.default_rng(3)
    assert all(certain.draw(rng) for _ in range(200))


# ------------------------------------------------------------------ bad input

@pytest.mark.parametrize("scale", [0, -1, "nan", "inf", float("nan"), "abc"])
def test_bad_scales_name_the_argument(scale: object) -> None:
    with pytest.raises(InvalidArgument, match="scale"):
        LaplaceNoise(scale)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="scale"):
        ExponentialNoise(scale)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="scale"):
        GaussianNoise(scale)  # type: ignore[arg-type]


def test_bad_events_name_the_argument() -> None:
    lap: ContinuousNoise = LaplaceNoise(F(1))
    with pytest.raises(InvalidArgument, match="unit"):
        LaplaceNoise(F(1), rational(-1))
    with pytest.raises(InvalidArgument, match="unit"):
        LaplaceNoise(F(1), 2)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="noise"):
        ThresholdTest(object(), F(0), F(0))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="threshold"):
        ThresholdTest(lap, F(0), "inf")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="values"):
        ThresholdRun(lap, F(0), lap, ())
    with pytest.raises(InvalidArgument, match="MAX_EVENT_VALUES"):
        NoisyArgmax(lap, (F(0),) * (MAX_EVENT_VALUES + 1))
    with pytest.raises(InvalidArgument, match="MAX_EVENT_VALUES"):
        ThresholdRun(lap, F(0), lap, (F(0),) * (MAX_EVENT_VALUES + 1))
    assert len(NoisyArgmax(lap, (F(0),) * MAX_EVENT_VALUES).values) == MAX_EVENT_VALUES
    with pytest.raises(InvalidArgument, match=r"values\[1\]"):
        NoisyArgmax(lap, (F(0), "nan"))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="prec"):
        law_of(NoisyArgmax(lap, (F(0),)), 4)


# ------------------------------------------------------------------ the textbook mechanisms

def test_above_threshold_is_one_shared_threshold_run() -> None:
    """Dwork–Roth's AboveThreshold at ε = 1/2: ρ ~ Lap(4), ν ~ Lap(8), one ThresholdRun."""
    mech = above_threshold(tuple(answer_query(i) for i in range(3)), 1, F(1, 2))
    law = mech.distribution((0, 2, 1))
    run = _law(ThresholdRun(LaplaceNoise(F(4)), F(1), LaplaceNoise(F(8)), (F(0), F(2), F(1))))
    for j in range(4):
        assert _contains(law.prob(j), run[j])
    below = above_threshold((answer_query(0),), 1, F(1, 2), below=True).distribution((0,))
    assert _box(below.prob(0)).lo > F(1, 2)  # 0 + ν below 1 + ρ: more likely than not


def test_report_noisy_max_laplace_uses_2_over_epsilon_unless_monotone() -> None:
    scores = (F(0), F(2), F(1))
    general = report_noisy_max_laplace(range(3), lambda _d, r: int(scores[r]), epsilon=F(1, 2))
    law = general.distribution(())
    expected = _law(NoisyArgmax(LaplaceNoise(F(4)), scores))
    monotone = report_noisy_max_laplace(range(3), lambda _d, r: int(scores[r]), epsilon=F(1, 2),
                                        monotone=True).distribution(())
    tighter = _law(NoisyArgmax(LaplaceNoise(F(2)), scores))
    for r in range(3):
        assert _contains(law.prob(r), expected[r])
        assert _contains(monotone.prob(r), tighter[r])


def test_textbook_mechanisms_name_bad_arguments() -> None:
    with pytest.raises(InvalidArgument, match="epsilon"):
        report_noisy_max_laplace(range(2), lambda _d, r: r, epsilon=0)
    with pytest.raises(InvalidArgument, match="outputs"):
        report_noisy_max_laplace((), lambda _d, r: r, epsilon=1)
    with pytest.raises(InvalidArgument, match="monotone"):
        report_noisy_max_laplace(range(2), lambda _d, r: r, epsilon=1,
                                 monotone=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="score"):
        report_noisy_max_laplace(range(2), lambda _d, r: "x",  # type: ignore[arg-type, return-value]
                                 epsilon=1).distribution(())
    with pytest.raises(InvalidArgument, match="queries"):
        above_threshold((), 0, 1)
    with pytest.raises(InvalidArgument, match="threshold"):
        above_threshold((answer_query(0),), "nan", 1)
    with pytest.raises(InvalidArgument, match="epsilon"):
        above_threshold((answer_query(0),), 0, -1)
    with pytest.raises(InvalidArgument, match="below"):
        above_threshold((answer_query(0),), 0, 1, below="yes")  # type: ignore[arg-type]


def test_answer_reads_one_int_entry_and_names_bad_ones() -> None:
    assert answer((3, 4), 1) == 4 and answer_query(0)((3, 4)) == 3
    with pytest.raises(InvalidArgument, match="not an index"):
        answer((3,), 1)
    with pytest.raises(InvalidArgument, match="not an int"):
        answer((True,), 0)
    with pytest.raises(InvalidArgument, match="i="):
        answer_query(-1)


# ------------------------------------------------------------------ Gaussian noise (quadrature)

def _ncdf(x: Fraction) -> Interval:
    """Φ(x) by mpmath at 50 digits, widened by 10^-45 (an oracle, not a proof)."""
    with mpmath.workdps(50):
        value = F(mpmath.nstr(mpmath.ncdf(mpmath.mpf(x.numerator) / x.denominator), 48,
                              min_fixed=-60, max_fixed=60))
    return Interval(value - F(1, 10**45), value + F(1, 10**45))


@pytest.mark.parametrize(("sigma", "k"), [(F(2), F(3)), (F(1, 2), F(-1, 3)), (F(4), F(0))])
def test_gaussian_threshold_test_is_the_normal_tail(sigma: Fraction, k: Fraction) -> None:
    law = _law(ThresholdTest(GaussianNoise(sigma), F(0), k))
    assert _contains(law[True], _ncdf(-k / sigma))
    assert _contains(law[False], _ncdf(k / sigma))
    assert law[True].width <= law[True].lo / 2**96


def test_gaussian_contest_is_the_normal_difference() -> None:
    """N(0, 4) > 1 + N(0, 9) has probability Φ(-1/√13): checked against the quadrature's box."""
    law = _law(NoiseContest(GaussianNoise(F(2)), F(0), GaussianNoise(F(3)), F(1)))
    with mpmath.workdps(50):
        value = F(mpmath.nstr(mpmath.ncdf(-1 / mpmath.sqrt(13)), 48))
    assert law[True].lo - F(1, 10**45) <= value <= law[True].hi + F(1, 10**45)
    assert law[True].width <= law[True].lo / 2**96


def test_mixed_laplace_threshold_with_gaussian_queries_matches_quadrature() -> None:
    """A Laplace density against Gaussian CDFs: kinks split the range; the law sums to 1 and
    one stopping probability meets mpmath's quadrature."""
    run = ThresholdRun(LaplaceNoise(F(4)), F(0), GaussianNoise(F(8)), (F(0), F(1), F(-1)))
    law = _law(run, 64)
    assert sum(b.lo for b in law.values()) <= 1 <= sum(b.hi for b in law.values())

    def stop_at_1(x: mpmath.mpf) -> mpmath.mpf:
        # density of ρ at x, then 0 + ν_0 <= x (no stop at 0), then 1 + ν_1 > x (stop at 1)
        return mpmath.exp(-abs(x) / 4) / 8 * mpmath.ncdf(x / 8) * (1 - mpmath.ncdf((x - 1) / 8))

    with mpmath.workdps(30):
        value = F(mpmath.nstr(mpmath.quad(stop_at_1, [-mpmath.inf, 0, mpmath.inf]), 25))
    assert law[1].lo - F(1, 10**22) <= value <= law[1].hi + F(1, 10**22)


def test_gaussian_argmax_of_equal_values_is_uniform() -> None:
    law = _law(NoisyArgmax(GaussianNoise(F(1)), (F(1),) * 3), 64)
    for p in law.values():
        assert p.lo <= F(1, 3) <= p.hi


@pytest.mark.parametrize("event", [
    NoiseContest(GaussianNoise(F(1, 10**9)), F(0), GaussianNoise(F(1, 10**9)), F(1)),
    NoiseContest(GaussianNoise(F(10**9)), F(0), GaussianNoise(F(10**9)), F(1)),
    NoiseContest(LaplaceNoise(F(1, 10**9)), F(0), LaplaceNoise(F(1, 10**9)), F(1)),
    NoisyArgmax(GaussianNoise(F(1)), (F(0), F(10**6))),
])
def test_extreme_scales_give_sound_laws(event: FiniteEvent) -> None:
    """Scales far from the shifts: outcomes of probability below 2^-(2^20) are enclosed by
    [0, 2^-(2^20)] (the magnitude policy), the others by intervals containing 1 - that."""
    law = _law(event)
    assert sum(b.lo for b in law.values()) <= 1 <= sum(b.hi for b in law.values())
    assert max(b.lo for b in law.values()) > F(1, 2)


def test_raw_queries_against_a_noisy_threshold() -> None:
    """NoNoise queries (the leaky sparse vectors): with ρ ~ Lap(2) and threshold 0, the run over
    raw values (1, 3, 2) stops at 0 w.p. P(ρ < 1), at 1 w.p. P(1 <= ρ < 3), never at 2 (2 < 3),
    and runs through w.p. P(ρ >= 3)."""
    law = _law(ThresholdRun(LaplaceNoise(F(2)), F(0), NoNoise(), (F(1), F(3), F(2))))
    below_1, below_3 = 1 - exp(F(-1, 2)) / 2, 1 - exp(F(-3, 2)) / 2
    assert _contains(law[0], below_1.enclose(200))
    assert _contains(law[1], (below_3 - below_1).enclose(200))
    assert law[2] == Interval.point(F(0))
    assert _contains(law[3], (1 - below_3).enclose(200))
    gauss = _law(ThresholdRun(GaussianNoise(F(1)), F(0), NoNoise(), (F(0),)), 64)
    assert gauss[0].lo <= F(1, 2) <= gauss[0].hi


def test_no_noise_is_refused_where_ties_could_matter() -> None:
    with pytest.raises(InvalidArgument, match="threshold_noise"):
        ThresholdRun(NoNoise(), F(0), LaplaceNoise(F(1)), (F(0),))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="noise"):
        NoisyArgmax(NoNoise(), (F(0), F(1)))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="noise"):
        ThresholdTest(NoNoise(), F(0), F(0))  # type: ignore[arg-type]


def test_an_impossible_stop_is_exactly_zero_with_gaussian_noise_too() -> None:
    """Raw values (0, 0): the run cannot stop at 1 (it would need 0 <= T and 0 > T), so the
    probability is exactly 0 (not an enclosure [0, tail]), and the loss of that event is
    proved infinite."""
    law = dict(law_of(ThresholdRun(GaussianNoise(F(2)), F(0), NoNoise(), (F(0), F(0))), 64))
    assert law[1] == F(0)
    assert law_of(ThresholdRun(LaplaceNoise(F(2)), F(0), NoNoise(), (F(0), F(0))))[1][1] == F(0)
