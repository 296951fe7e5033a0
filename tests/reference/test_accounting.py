"""Tests of the certified accountants (privref.reference.accounting): exact identities where the maths
gives them, enclosures against independent evaluations, and monotonicity/calibration properties."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privref.reference import accounting as acc
from privref.reference.errors import InvalidArgument
from privref.reference.reals import Interval, Order, compare, exp, interval_exp, log, rational, sqrt

F = Fraction


def _contains(box: Interval, x: Fraction) -> bool:
    return box.lo <= x <= box.hi


def _overlap(a: Interval, b: Interval) -> bool:
    return a.lo <= b.hi and b.lo <= a.hi


# ----------------------------------------------------------------------- zCDP, exact


def test_zcdp_bookkeeping_is_exact() -> None:
    assert acc.zcdp_compose(F(1, 2), F(1, 3), 0) == F(5, 6)
    assert acc.zcdp_compose() == 0
    assert acc.gaussian_zcdp(2) == F(1, 8)
    assert acc.gaussian_zcdp(3, sensitivity=2) == F(2, 9)
    assert acc.pure_to_zcdp(F(1, 2)) == F(1, 8)  # 001 Lemma 52: ε²/2
    # ℓ Gaussian queries compose to ℓ/(2σ²) (001 Theorem 2's proof)
    assert acc.zcdp_compose(*[acc.gaussian_zcdp(7)] * 11) == F(11, 98)


def test_lemma51_and_its_inverse_round_trip_exactly() -> None:
    # ε = ρ + 2√(ρ ln(1/δ)) with δ = exp(-(ε-ρ)²/(4ρ)) simplifies symbolically back to ε
    for rho, eps in [(F(1, 3), F(2)), (F(1, 8), F(1, 2)), (F(5), F(7))]:
        d = acc.zcdp_delta(rho, eps)
        assert d.op == "exp" and d.args[0].exact == -(eps - rho) ** 2 / (4 * rho)
        assert acc.zcdp_epsilon(rho, d).exact == eps
    assert acc.zcdp_delta(F(1), F(1, 2)).exact == 1  # ε <= ρ: nothing below δ = 1
    # ρ = 1/2, δ = e^-2: ε = 1/2 + 2·√(1/2·2) = 5/2 exactly
    assert acc.zcdp_epsilon(F(1, 2), exp(-2)).exact == F(5, 2)


def test_algorithm1_sigma_solves_step1() -> None:
    for ell, eps, delta in [(163, F(1, 2), F(1, 6499)), (1, F(2), F(1, 10)), (977, F(1), F(1, 39073))]:
        s = acc.algorithm1_sigma(ell, eps, delta)
        lhs = sqrt(2 * ell * log(1 / delta) / (s * s)) + ell / (2 * s * s)
        box = lhs.enclose(200)
        assert _contains(box, eps) and box.width < F(1, 2**150)
        # Step 1 is 001 Lemma 51 at ρ = ℓ/(2σ²): a larger σ gives an ε below the target
        s_hi = s.enclose(200).hi
        assert compare(acc.zcdp_epsilon(ell / (2 * s_hi**2), delta), eps)[0] is Order.LESS


def test_algorithm2_lambda_and_threshold() -> None:
    for t, eps, delta, ell in [(10, F(1), F(1, 1000), 100), (1, F(1, 2), F(1, 2), 1)]:
        lam = acc.algorithm2_lambda(t, eps, delta)
        rho = 2 * t / (lam * lam)  # T cutoff-1 SVTs, each (2/λ)-DP = 2/λ²-zCDP
        lhs = rho + 2 * sqrt(rho * log(2 / rational(delta)))
        box = lhs.enclose(200)
        assert _contains(box, eps) and box.width < F(1, 2**150)
        w = acc.algorithm2_threshold(ell, t, eps, delta)
        tail = exp(-w / (3 * lam)).enclose(200)
        assert _contains(tail, delta / (2 * (ell + t))) and tail.width < F(1, 2**150)


# ----------------------------------------------------------------------- Φ and π


def test_pi_enclosure() -> None:
    box = acc.pi_enclosure(200)
    assert box.width < F(1, 2**200)
    assert abs(F(math.pi) - box.lo) < F(1, 2**50)


def test_normal_cdf_exact_points_and_symmetry() -> None:
    assert acc.normal_cdf(0) == Interval.point(F(1, 2))
    for x in [F(1, 3), F(2), F(7, 2), F(4), F(9), F(41, 5)]:
        total = acc.normal_cdf(x, 128) + acc.normal_cdf(-x, 128)
        assert _contains(total, F(1)) and total.width < F(1, 2**100)


@pytest.mark.parametrize("prec", [64, 96, 128])
def test_normal_cdf_is_sharp_to_its_precision(prec: int) -> None:
    """The docstring's "about prec bits (relative)": on the series, on either tail's continued
    fraction and at the seam, the enclosure is at most 16·2^-prec of Φ(x) wide (measured: at
    most 4 units), so a working precision cut anywhere in its three branches is seen."""
    for x in [F(-30), F(-17, 2), F(-4), F(-399, 100), F(-1), F(1, 4), F(196, 100), F(7, 2),
              F(401, 100), F(6), F(41, 5), F(9)]:
        box = acc.normal_cdf(x, prec)
        assert box.hi - box.lo <= 16 * box.lo / 2**prec, (x, prec)


def test_normal_cdf_against_scipy() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    for x in [-30, -8.5, -4, -3.99, -1, 0.25, 1.96, 3.5, 4.01, 6]:
        box = acc.normal_cdf(F(x), 96)
        ref = float(scipy_stats.norm.cdf(x))
        mid = float((box.lo + box.hi) / 2)
        assert abs(mid - ref) <= 1e-13 * ref  # scipy's float agrees to rounding


def test_normal_cdf_continued_fraction_matches_series_at_the_seam() -> None:
    # x = 4 is computed by the series just below and by Laplace's fraction at 4
    below = acc.normal_cdf(F(4) - F(1, 10**30), 128)
    at = acc.normal_cdf(F(4), 128)
    assert below.hi <= at.hi and at.lo - below.lo < F(1, 10**29)


# ----------------------------------------------------------------------- analytic Gaussian


def _delta_by_cdf(eps: Fraction, mu: Fraction) -> Interval:
    """Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) term by term (μ rational), independent of φ·R."""
    first = acc.normal_cdf(mu / 2 - eps / mu, 160)
    second = acc.normal_cdf(-mu / 2 - eps / mu, 160)
    return first - interval_exp(Interval.point(eps), 160) * second


@pytest.mark.parametrize(("eps", "queries", "sigma"), [
    (F(1), 4, F(2)), (F(0), 4, F(2)), (F(1, 2), 9, F(1, 2)), (F(3), 1, F(1, 5)),
    (F(1, 10), 100, F(40)), (F(5), 1, F(1, 100))])
def test_analytic_delta_matches_the_printed_formula(eps: Fraction, queries: int,
                                                      sigma: Fraction) -> None:
    mu = F(math.isqrt(queries)) / sigma  # the queries are squares: μ is rational
    box = acc.analytic_gaussian_delta(eps, queries, sigma, 128)
    assert _overlap(box, _delta_by_cdf(eps, mu))
    assert box.width <= max(box.lo, F(1, 2**200)) / 2**50


def test_delta_at_zero_is_total_variation() -> None:
    box = acc.analytic_gaussian_delta(0, 4, 2)  # μ = 1: δ(0) = 2Φ(1/2) − 1
    assert _overlap(box, 2 * acc.normal_cdf(F(1, 2), 128) - 1)


def test_composition_is_one_gaussian_of_sensitivity_sqrt_q() -> None:
    # 16 queries at σ = 4 and one query at σ = 1 have the same μ = 1
    for eps in [F(1, 4), F(1), F(3)]:
        a = acc.analytic_gaussian_delta(eps, 16, 4, 128)
        b = acc.analytic_gaussian_delta(eps, 1, 1, 128)
        assert _overlap(a, b)


def test_lemma44_holds_below_one_and_fails_at_epsilon_ten() -> None:
    # 001 Lemma 44 at ε < 1: σ = c/ε (rounded up) is (ε, δ)-DP by the exact profile
    for eps, delta in [(F(1, 2), F(1, 10**5)), (F(9, 10), F(1, 10**3)), (F(1, 10), F(1, 10**9))]:
        s = acc.classical_gaussian_sigma(eps, delta).enclose(100).hi
        assert acc.analytic_gaussian_delta(eps, 1, s).hi <= delta
    # without ε < 1 (the paper omits it) it is false: ε = 10, δ = 1e-5 gives δ ≈ 2.27e-5
    c = sqrt(2 * log(F(5, 4) / F(1, 10**5))).enclose(100).hi
    s = c / 10  # the lemma's σ, rounded up (larger σ only lowers δ)
    box = acc.analytic_gaussian_delta(10, 1, s)
    assert box.lo > F(1, 10**5)
    assert F(226, 10**7) < box.lo and box.hi < F(228, 10**7)
    with pytest.raises(InvalidArgument, match="epsilon"):
        acc.classical_gaussian_sigma(10, F(1, 10**5))


def test_lemma51_is_never_tighter_than_the_exact_profile() -> None:
    # ρ = q/(2σ²) with Lemma 51's ε: the exact δ at that ε is at most δ
    for q, sigma, delta in [(163, F(72), F(1, 6499)), (1, F(1), F(1, 10)), (49, F(20), F(1, 10**6))]:
        eps = acc.zcdp_epsilon(acc.gaussian_zcdp(sigma) * q, delta).enclose(100).lo
        assert acc.analytic_gaussian_delta(eps, q, sigma).hi <= delta


_EPS = st.fractions(min_value=F(1, 20), max_value=F(4)).map(lambda x: x.limit_denominator(1000))
_SIGMA = st.fractions(min_value=F(1, 10), max_value=F(300)).map(lambda x: x.limit_denominator(100))


@settings(max_examples=25, deadline=None)
@given(eps=_EPS, q=st.integers(1, 2000), s1=_SIGMA, s2=_SIGMA)
def test_delta_decreases_in_sigma(eps: Fraction, q: int, s1: Fraction, s2: Fraction) -> None:
    lo, hi = min(s1, s2), max(s1, s2)
    assert acc.analytic_gaussian_delta(eps, q, lo).hi >= acc.analytic_gaussian_delta(eps, q, hi).lo


@settings(max_examples=25, deadline=None)
@given(e1=_EPS, e2=_EPS, q=st.integers(1, 2000), s=_SIGMA)
def test_delta_decreases_in_epsilon(e1: Fraction, e2: Fraction, q: int, s: Fraction) -> None:
    lo, hi = min(e1, e2), max(e1, e2)
    assert acc.analytic_gaussian_delta(lo, q, s).hi >= acc.analytic_gaussian_delta(hi, q, s).lo


_DELTA = st.sampled_from([F(1, 10), F(1, 1000), F(1, 6499), F(1, 10**6), F(1, 10**9)])


@settings(max_examples=8, deadline=None)
@given(eps=_EPS, q=st.integers(1, 2000), delta=_DELTA)
def test_calibrated_sigma_high_is_safe_and_low_is_not(eps: Fraction, q: int,
                                                      delta: Fraction) -> None:
    box = acc.calibrate_sigma(q, eps, delta, F(1, 2**20))
    assert box.width <= box.hi / 2**20
    assert acc.analytic_gaussian_delta(eps, q, box.hi, 192).hi <= delta
    assert acc.analytic_gaussian_delta(eps, q, box.lo, 192).lo > delta
    # the zCDP calibration (001 Algorithm 1) is safe, hence never below the calibrated σ
    assert acc.algorithm1_sigma(q, eps, delta).enclose(64).hi >= box.lo


@settings(max_examples=6, deadline=None)
@given(eps=_EPS, q=st.integers(1, 500), delta=_DELTA)
def test_ex_post_at_the_budget_returns_the_budget(eps: Fraction, q: int, delta: Fraction) -> None:
    sigma = acc.calibrate_sigma(q, eps, delta, F(1, 2**24))
    box = acc.epsilon_ex_post(sigma, q, delta, F(1, 2**24))
    assert _contains(box, eps)
    at_hi = acc.epsilon_ex_post(sigma.hi, q, delta, F(1, 2**24))
    assert at_hi.hi <= eps or _contains(at_hi, eps)  # σ_hi is safe: its ε is at most ε
    assert acc.analytic_gaussian_delta(at_hi.hi, q, sigma.hi).hi <= delta
    if at_hi.lo > 0:
        assert acc.analytic_gaussian_delta(at_hi.lo, q, sigma.hi).lo > delta


def test_ex_post_grows_with_realized_queries_and_can_be_zero() -> None:
    sigma = acc.calibrate_sigma(49, F(1, 2), F(1, 6499))
    a = acc.epsilon_ex_post(sigma, F(401, 10), F(1, 6499))
    b = acc.epsilon_ex_post(sigma, F(49), F(1, 6499))
    assert a.hi < b.lo and _contains(b, F(1, 2))
    # a huge σ: δ(0) = 2Φ(μ/2) − 1 <= δ already, so the least ε is exactly 0
    assert acc.epsilon_ex_post(F(10**6), 1, F(1, 10)) == Interval.point(0)


@pytest.mark.parametrize(("call", "name"), [
    (lambda: acc.calibrate_sigma(0, 1, F(1, 10)), "queries"),
    (lambda: acc.calibrate_sigma(5, 0, F(1, 10)), "epsilon"),
    (lambda: acc.calibrate_sigma(5, 1, 0), "delta"),
    (lambda: acc.calibrate_sigma(5, 1, 1), "delta"),
    (lambda: acc.calibrate_sigma(5, "x", F(1, 2)), "epsilon"),
    (lambda: acc.epsilon_ex_post(0, 5, F(1, 10)), "sigma"),
    (lambda: acc.epsilon_ex_post(1, 0, F(1, 10)), "realized"),
    (lambda: acc.analytic_gaussian_delta(-1, 5, 1), "epsilon"),
    (lambda: acc.analytic_gaussian_delta(1, F(1, 2), 1), "queries"),
    (lambda: acc.gaussian_zcdp(-2), "sigma"),
    (lambda: acc.zcdp_epsilon(0, F(1, 2)), "rho"),
    (lambda: acc.algorithm1_sigma(F(3, 2), 1, F(1, 2)), "queries"),  # type: ignore[arg-type]
    (lambda: acc.algorithm2_lambda(0, 1, F(1, 2)), "cutoff"),
    (lambda: acc.normal_cdf(float("nan")), "x"),
    (lambda: acc.normal_cdf(1, prec=10**6), "prec"),
    (lambda: acc.calibrate_sigma(5, 1, F(1, 2), tolerance=2), "tolerance"),
])
def test_bad_input_names_the_argument(call: object, name: str) -> None:
    assert callable(call)
    with pytest.raises(InvalidArgument, match=name):
        call()


# ----------------------------------------------------------------------- zCDP → (ε, δ), tight

_CKS_GRID = [(F(1, 8), F(1, 10**3)), (F(1, 2), F(1, 10**6)), (F(1, 50), F(1, 100)),
             (F(2), F(1, 10**5)), (F(1, 200), F(1, 10**4)), (F(1, 8), F(1, 10**9))]


def test_cks_epsilon_at_order_two_is_exact() -> None:
    # α = 2: ε_2 = 2ρ + ln(1/δ) + ln(1/2) − ln 2 = 2ρ + ln(1/(4δ)); at ρ = 1/2, δ = 1/400: 1 + ln 100
    value = acc.zcdp_epsilon_at_order(F(1, 2), F(1, 400), 2)
    box = (value - 1 - log(100)).enclose(200)
    assert box.lo <= 0 <= box.hi and box.width < F(1, 2**150)


def test_cks_conversion_is_sound_against_the_exact_gaussian_profile() -> None:
    # the Gaussian mechanism (Δ = 1, noise σ) is ρ = 1/(2σ²)-zCDP and its exact profile is
    # Balle-Wang's δ(ε): the returned ε must satisfy δ(ε) <= δ, proved with intervals (δ(ε) is
    # decreasing, so checking at a rational below ε suffices)
    for sigma in (F(1, 2), F(1), F(2), F(5)):
        rho = acc.gaussian_zcdp(sigma)
        for delta in (F(1, 10**2), F(1, 10**3), F(1, 10**5), F(1, 10**8)):
            eps = acc.zcdp_to_dp_epsilon(rho, delta)
            below = eps.enclose(64).lo
            assert acc.analytic_gaussian_delta(below, 1, sigma).hi <= delta, (sigma, delta)
    # tiny ρ, large δ: ε_α <= 0, so exactly 0, and the exact profile agrees: δ(0) <= δ
    assert acc.zcdp_to_dp_epsilon(acc.gaussian_zcdp(22), F(1, 10)).exact == 0
    assert acc.analytic_gaussian_delta(0, 1, 22).hi <= F(1, 10)


def test_cks_conversion_is_strictly_tighter_than_lemma_51_on_a_grid() -> None:
    for rho in (F(1, 1000), F(1, 50), F(1, 8), F(1, 2), F(2), F(10)):
        for delta in (F(1, 10), F(1, 10**3), F(1, 10**6), F(1, 10**12)):
            ours = acc.zcdp_to_dp_epsilon(rho, delta)
            assert compare(ours, acc.zcdp_epsilon(rho, delta))[0] is Order.LESS, (rho, delta)


def test_cks_conversion_is_near_the_optimal_order_and_valid_at_any_order() -> None:
    # the proposed α is within a hair of the best order on a fine float grid, and other orders give
    # valid (larger) epsilons, never a smaller one than the returned minimum by more than 1e-6
    for rho, delta in _CKS_GRID:
        best = float(acc.zcdp_to_dp_epsilon(rho, delta))
        alpha = acc.zcdp_order(rho, delta)
        assert alpha > 1 and alpha.denominator <= 1 << 20
        for k in range(1, 60):
            other = 1 + (alpha - 1) * F(k, 30)
            assert float(acc.zcdp_epsilon_at_order(rho, delta, other)) >= best - 1e-6


def test_the_order_stays_above_1_when_the_float_search_collapses_to_1() -> None:
    # at ρ = 10^40, δ = 1/2 the optimal α − 1 (about 10^-20) is below a double's resolution at 1,
    # so the float bisection ends at α = 1: the order returned must still exceed 1 (α <= 1 is
    # no Rényi order), and the conversion at it must be a valid ε (at least ρ)
    alpha = acc.zcdp_order(10**40, F(1, 2))
    assert 1 < alpha <= 1 + F(1, 2**20)
    eps = acc.zcdp_epsilon_at_order(10**40, F(1, 2), alpha)
    assert compare(eps, rational(10**40))[0] is Order.GREATER
    # a ρ beyond a double's range is capped before the float search (no OverflowError)
    assert 1 < acc.zcdp_order(10**400, F(1, 2)) <= 1 + F(1, 2**20)


def test_the_square_of_an_interval_around_0_starts_at_0() -> None:
    # {t² : t in x} for x straddling 0 is [0, max(lo², hi²)]: φ's enclosure at an argument
    # enclosed around 0 (ε = μ²/2 in the analytic Gaussian) must reach φ(0)
    assert acc._square(Interval(F(-1), F(2))) == Interval(F(0), F(4))
    assert acc._square(Interval(F(-3), F(1))) == Interval(F(0), F(9))
    assert acc._square(Interval(F(1), F(2))) == Interval(F(1), F(4))
    assert acc._square(Interval(F(-2), F(-1))) == Interval(F(1), F(4))


def test_cks_reproduces_the_opendp_figure_of_issue_13() -> None:
    # OpenDP's discrete Gaussian at scale 2 is 1/8-zCDP; at δ = 10⁻³ Corollary 13 gives 1.5461
    # (the issue's "1.546"), 001 Lemma 51 gives 1.9835 (1/8 + 2√(ln(1000)/8))
    ours = acc.zcdp_to_dp_epsilon(F(1, 8), F(1, 1000)).enclose(64)
    assert F(15460, 10**4) < ours.lo and ours.hi < F(15462, 10**4)
    lemma = acc.zcdp_epsilon(F(1, 8), F(1, 1000)).enclose(64)
    assert F(19834, 10**4) < lemma.lo and lemma.hi < F(19835, 10**4)


def test_cks_accepts_an_exact_real_delta() -> None:
    # δ = e^-2 as a Real: same answer as at a rational just above it, give or take its width
    ours = acc.zcdp_to_dp_epsilon(F(1, 2), exp(-2))
    lemma = acc.zcdp_epsilon(F(1, 2), exp(-2))
    assert lemma.exact == F(5, 2) and compare(ours, lemma)[0] is Order.LESS


@pytest.mark.parametrize(("call", "name"), [
    (lambda: acc.zcdp_to_dp_epsilon(0, F(1, 2)), "rho"),
    (lambda: acc.zcdp_to_dp_epsilon(1, 0), "delta"),
    (lambda: acc.zcdp_to_dp_epsilon(1, 1), "delta"),
    (lambda: acc.zcdp_to_dp_epsilon(-1, F(1, 2)), "rho"),
    (lambda: acc.zcdp_epsilon_at_order(1, F(1, 2), 1), "alpha"),
    (lambda: acc.zcdp_epsilon_at_order(1, F(1, 2), "x"), "alpha"),
    (lambda: acc.zcdp_order(1, F(3, 2)), "delta"),
])
def test_cks_bad_input_names_the_argument(call: object, name: str) -> None:
    assert callable(call)
    with pytest.raises(InvalidArgument, match=name):
        call()


def test_safety_is_decided_from_the_right_end_of_delta() -> None:
    """calibrate_sigma's probe: proved safe only when the *upper* end of δ(ε; σ)'s enclosure is
    <= δ, proved unsafe only when its lower end is > δ.  A target δ inside the 64-bit enclosure
    but below (above) the true δ(ε; σ), located by a 256-bit enclosure, must be refined to
    unsafe (safe), not decided from the wrong end."""
    eps, q, sigma = F(1), F(1), F(3, 2)
    wide = acc.analytic_gaussian_delta(eps, q, sigma, acc.WORK_PRECISION)
    sharp = acc.analytic_gaussian_delta(eps, q, sigma, 4 * acc.WORK_PRECISION)
    assert wide.lo < sharp.lo <= sharp.hi < wide.hi
    below = (wide.lo + sharp.lo) / 2  # inside the 64-bit box, below the truth
    above = (sharp.hi + wide.hi) / 2  # inside it, above the truth
    assert acc._safe(eps, q, sigma, below)[0] is False
    assert acc._safe(eps, q, sigma, above)[0] is True


@pytest.mark.parametrize("y", [F(1, 3), F(1), F(-7, 2), F(39, 10)])
def test_the_series_encloses_s_at_a_point(y: F) -> None:
    """S(y) = Σ y^(2n+1)/(2n+1)!! = sqrt(π/2)·e^(y²/2)·erf(y/√2) (the series branch of Φ) lies in
    the enclosure _series gives for the point y, both ends checked against a 400-bit value (an
    upper end taken from the lower end of S(y)'s own enclosure excludes it)."""
    box = acc._series(Interval.point(y), 64)
    with mpmath.workprec(400):
        ym = mpmath.mpf(y.numerator) / y.denominator
        true = mpmath.sqrt(mpmath.pi / 2) * mpmath.exp(ym**2 / 2) * mpmath.erf(ym / mpmath.sqrt(2))
        lo = mpmath.mpf(box.lo.numerator) / box.lo.denominator
        hi = mpmath.mpf(box.hi.numerator) / box.hi.denominator
        assert lo < true < hi
