"""f-DP (reference.fdp): Φ⁻¹ by proved bisection, G_μ, GDP δ(ε) and composition, f_(ε,δ)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction as F

import mpmath
import pytest

from privref.reference import accounting, fdp
from privref.reference.accounting import analytic_gaussian_delta
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate
from privref.reference.fdp import GaussianDP, dp_tradeoff, gaussian_dp, normal_quantile
from privref.reference.reals import Interval, log

_BITS = 200
"""Working precision of the mpmath references (set per test with mpmath.workprec)."""


@pytest.fixture(autouse=True)
def _precise() -> Iterator[None]:
    with mpmath.workprec(_BITS):
        yield


def _ncdf(x: mpmath.mpf) -> mpmath.mpf:
    return mpmath.ncdf(x)


def _quantile(p: F) -> mpmath.mpf:
    """Φ⁻¹(p) at 200 bits by mpmath's root finder on ncdf (an independent reference)."""
    target = mpmath.mpf(p.numerator) / p.denominator
    start = mpmath.sqrt(2) * mpmath.erfinv(2 * target - 1)
    return mpmath.findroot(lambda x: mpmath.ncdf(x) - target, start)


def _inside(box: Interval, value: mpmath.mpf) -> bool:
    lo = mpmath.mpf(box.lo.numerator) / box.lo.denominator
    hi = mpmath.mpf(box.hi.numerator) / box.hi.denominator
    return bool(lo <= value <= hi)


@pytest.mark.parametrize("p", [F(1, 2), F(9, 10), F(1, 10), F(1, 10**6), F(999, 1000)])
def test_the_quantile_encloses_the_truth_narrowly(p: F) -> None:
    box = normal_quantile(p)
    assert _inside(box, _quantile(p))
    assert box.width <= F(1, 1 << 64)


def test_the_quantile_far_in_the_tail_and_out_of_range() -> None:
    box = normal_quantile(F(1, 10**300))  # no float guess survives: the [−64, 64] start
    assert -38 < box.lo <= box.hi < -37
    with pytest.raises(TooLargeToEnumerate, match="p="):
        normal_quantile(F(1, 10**2000))
    for bad in (0, 1, F(-1, 2), "x"):
        with pytest.raises(InvalidArgument, match="p="):
            normal_quantile(bad)


@pytest.mark.parametrize("mu", [F(1, 2), F(1), F(3)])
@pytest.mark.parametrize("alpha", [F(1, 1000), F(1, 10), F(1, 2), F(9, 10)])
def test_the_tradeoff_curve_encloses_phi_of_the_quantile_minus_mu(mu: F, alpha: F) -> None:
    box = gaussian_dp(mu).tradeoff(alpha)
    truth = _ncdf(_quantile(1 - alpha) - mpmath.mpf(mu.numerator) / mu.denominator)
    assert _inside(box, truth)
    assert box.width <= truth * F(1, 1 << 50)


def test_the_tradeoff_curve_is_symmetric_and_has_exact_ends() -> None:
    g = gaussian_dp(1)
    beta = g.tradeoff(F(1, 5))
    back = g.tradeoff(F(beta.lo + beta.hi) / 2)  # G(G(α)) = α (G is an involution)
    assert abs((back.lo + back.hi) / 2 - F(1, 5)) < F(1, 10**15)
    assert g.tradeoff(0) == Interval.point(1) and g.tradeoff(1) == Interval.point(0)
    assert gaussian_dp(0).tradeoff(F(1, 3)) == Interval.point(F(2, 3))
    with pytest.raises(InvalidArgument, match="alpha="):
        g.tradeoff(F(3, 2))


def test_the_tradeoff_rounded_the_wrong_way_misses_the_truth(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Control: Φ's enclosure moved by 2^-60 makes G_μ's enclosure exclude the truth."""
    right = accounting.normal_cdf

    def moved(x: F, prec: int = 64) -> Interval:
        box = right(x, prec)
        return Interval(box.lo + F(1, 1 << 60), box.hi + F(1, 1 << 60))
    monkeypatch.setattr(fdp, "normal_cdf", moved)
    box = gaussian_dp(1).tradeoff(F(1, 10))
    assert not _inside(box, _ncdf(_quantile(F(9, 10)) - 1))


def test_gdp_delta_is_the_analytic_gaussian_profile() -> None:
    for mu, eps in ((F(1), F(1)), (F(1, 3), F(1, 2)), (F(5, 2), F(0)), (F(4), F(10))):
        assert gaussian_dp(mu).delta(eps) == analytic_gaussian_delta(eps, 1, 1 / mu)
    assert gaussian_dp(0).delta(1) == Interval.point(0)
    with pytest.raises(InvalidArgument, match="epsilon="):
        gaussian_dp(1).delta(-1)


def test_composition_adds_mu_squared_exactly() -> None:
    g = gaussian_dp(1).compose(gaussian_dp(F(1, 2)), gaussian_dp(F(1, 3)))
    assert g.mu_squared == 1 + F(1, 4) + F(1, 9)
    assert gaussian_dp(F(1, 2)).self_compose(16) == gaussian_dp(2)
    mu = gaussian_dp(1).self_compose(2).mu()
    assert mu.lo ** 2 <= 2 <= mu.hi ** 2 and mu.width < F(1, 1 << 60)
    # three unit-μ queries: δ(ε) of μ = √3, as Balle-Wang with q = 3, σ = 1
    composed = gaussian_dp(1).self_compose(3).delta(1)
    direct = analytic_gaussian_delta(1, 3, 1)
    assert composed.lo <= direct.hi and direct.lo <= composed.hi
    with pytest.raises(InvalidArgument, match="mu_squared="):
        GaussianDP(F(-1))
    with pytest.raises(InvalidArgument, match="mu="):
        gaussian_dp(-1)
    with pytest.raises(InvalidArgument, match="k="):
        gaussian_dp(1).self_compose(0)


def test_dp_tradeoff_is_exact_when_e_to_the_epsilon_is_rational() -> None:
    # ε = ln 3, δ = 1/10: max(0, 9/10 − 3α, (9/10 − α)/3)
    assert dp_tradeoff("ln(3)", F(1, 10), F(1, 10)) == Interval.point(F(6, 10))
    assert dp_tradeoff(log(3), F(1, 10), F(1, 2)) == Interval.point(F(2, 15))
    assert dp_tradeoff("ln(3)", F(1, 10), F(95, 100)) == Interval.point(0)
    assert dp_tradeoff(0, 0, F(1, 4)) == Interval.point(F(3, 4))  # ε = δ = 0: 1 − α


def test_dp_tradeoff_encloses_irrational_values() -> None:
    for alpha in (F(1, 20), F(1, 2)):  # the e^ε·α piece, then the e^-ε piece
        box = dp_tradeoff(1, F(1, 100), alpha, prec=256)
        with mpmath.workprec(400):
            a, rest = mpmath.mpf(alpha.numerator) / alpha.denominator, mpmath.mpf(99) / 100
            truth = max(0, rest - mpmath.e * a, (rest - a) / mpmath.e)
            assert _inside(box, truth) and box.width < F(1, 1 << 250)
    low = dp_tradeoff(2, F(1, 100), F(995, 1000))  # both linear pieces negative: 0
    assert low.lo == 0
    with pytest.raises(InvalidArgument, match="delta="):
        dp_tradeoff(1, 1, F(1, 2))
    with pytest.raises(InvalidArgument, match="alpha="):
        dp_tradeoff(1, 0, -1)


@pytest.mark.parametrize("alpha", [F(1, 10), F(1, 2)])
def test_the_tradeoff_curve_at_an_irrational_mu(alpha: F) -> None:
    """μ = √2 (two unit compositions): the enclosure of μ enters with its ends the right way."""
    box = gaussian_dp(1).self_compose(2).tradeoff(alpha, prec=128)
    truth = _ncdf(_quantile(1 - alpha) - mpmath.sqrt(2))
    assert _inside(box, truth)
    assert box.width <= truth * F(1, 1 << 110)


@pytest.mark.parametrize(("mu", "delta"), [(F(1, 2), F(1, 100)),
                                           (F(1), F(1, 10**6)),
                                           (F(3), F(1, 1000))])
def test_epsilon_at_is_implied_and_tight(mu: F, delta: F) -> None:
    """μ-GDP implies (ε, δ)-DP at the returned ε (δ_μ(ε) <= δ by mpmath, 40 digits), and not at
    ε·(1 − 10⁻⁶) (Dong, Roth and Su 2022, Corollary 2.13)."""
    def delta_mu(e: float) -> float:
        with mpmath.workdps(40):
            m = mpmath.mpf(mu.numerator) / mu.denominator
            return float(mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2))

    eps = gaussian_dp(mu).epsilon_at(delta)
    assert delta_mu(float(eps)) <= float(delta) < delta_mu(float(eps) * (1 - 1e-6))
    assert gaussian_dp(F(1, 10)).epsilon_at(F(1, 2)) == 0  # δ_μ(0) < 1/2 already
    with pytest.raises(InvalidArgument, match="delta=0 must lie in"):
        gaussian_dp(1).epsilon_at(0)
