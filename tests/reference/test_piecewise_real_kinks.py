"""Irrational kink locations in the closed-form integrals (001 Algorithm 2's threshold w)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from privref.reference._piecewise_exp import Factor, integral
from privref.reference.continuous_noise import (
    GaussianNoise,
    LaplaceNoise,
    ThresholdRun,
    law_of,
)
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate
from privref.reference.reals import Interval, Real, log, prob_as_interval, rational, sqrt

F = Fraction


def _mpf(x: Fraction | Real) -> mpmath.mpf:
    box = x.enclose(200) if isinstance(x, Real) else Interval.point(x)
    return mpmath.mpf(box.lo.numerator) / box.lo.denominator


def _quad(factors: tuple[Factor, ...]) -> mpmath.mpf:
    """∫ Π factors (Laplace only) by mpmath quadrature at 40 digits: an oracle, not a proof."""
    def g(x: mpmath.mpf) -> mpmath.mpf:
        v = mpmath.mpf(1)
        for f in factors:
            s = mpmath.mpf(f.scale.numerator) / f.scale.denominator
            z = x - _mpf(f.location)
            d = mpmath.exp(-abs(z) / s) / (2 * s)
            c = mpmath.exp(z / s) / 2 if z < 0 else 1 - mpmath.exp(-z / s) / 2
            v *= d if f.part == "density" else c if f.part == "cdf" else 1 - c
        return v

    with mpmath.workdps(40):
        kinks = sorted({_mpf(f.location) for f in factors})
        return mpmath.quad(g, [-mpmath.inf, *kinks, mpmath.inf])


LN2 = log(2)
ROOT2 = sqrt(rational(2))


@pytest.mark.parametrize("factors", [
    (Factor("laplace", "density", LN2, F(1)), Factor("laplace", "sf", F(0), F(2)),
     Factor("laplace", "cdf", F(1), F(2))),
    (Factor("laplace", "density", F(0), F(1)), Factor("laplace", "cdf", ROOT2, F(1, 2)),
     Factor("laplace", "sf", LN2, F(3)), Factor("laplace", "cdf", F(1), F(1))),
    # a Real location equal, as an object, to another factor's: one kink
    (Factor("laplace", "density", ROOT2, F(1)), Factor("laplace", "sf", ROOT2, F(2))),
])
def test_real_kinks_match_quadrature_and_are_tight(factors: tuple[Factor, ...]) -> None:
    box = integral(factors, 96)
    oracle = F(mpmath.nstr(_quad(factors), 35, min_fixed=-50, max_fixed=50))
    assert box.lo - F(1, 10**33) <= oracle <= box.hi + F(1, 10**33)
    assert box.width <= box.lo / 2**96


def test_a_rational_valued_real_location_is_the_rational_one() -> None:
    # rational(3/2) is a Real with an exact value: the same kink as Fraction(3, 2)
    as_real = (Factor("laplace", "density", rational(F(3, 2)), F(1)),
               Factor("laplace", "sf", F(0), F(2)), Factor("laplace", "cdf", F(3, 2), F(1)))
    as_fraction = (Factor("laplace", "density", F(3, 2), F(1)),
                   Factor("laplace", "sf", F(0), F(2)), Factor("laplace", "cdf", F(3, 2), F(1)))
    a, b = integral(as_real, 96), integral(as_fraction, 96)
    assert a.lo <= b.hi and b.lo <= a.hi


def test_kinks_that_cannot_be_ordered_are_refused() -> None:
    # √2·√2 = 2 but is not simplified: its order against the rational 2 is never proved, so
    # the pieces are unknown and no integral is returned (not a guess)
    two = ROOT2 * ROOT2
    factors = (Factor("laplace", "density", F(0), F(1)), Factor("laplace", "sf", two, F(1)),
               Factor("laplace", "cdf", F(2), F(1)))
    with pytest.raises(TooLargeToEnumerate, match="could not be ordered"):
        integral(factors, 64)


def test_an_irrational_threshold_run_moves_with_the_threshold() -> None:
    # the first query above w + ρ: raising w from ln 2 to √2 makes the first query less likely
    # to stop the run and no stop at all more likely
    values = (F(0), F(1), F(0))
    low = dict(law_of(ThresholdRun(LaplaceNoise(F(1)), LN2, LaplaceNoise(F(2)), values)))
    high = dict(law_of(ThresholdRun(LaplaceNoise(F(1)), ROOT2, LaplaceNoise(F(2)), values)))
    assert prob_as_interval(high[0]).hi < prob_as_interval(low[0]).lo
    assert prob_as_interval(low[3]).hi < prob_as_interval(high[3]).lo
    total = sum((prob_as_interval(p) for p in low.values()), Interval.point(F(0)))
    assert total.lo <= 1 <= total.hi


def test_gaussian_noise_with_an_irrational_threshold_is_refused() -> None:
    with pytest.raises(InvalidArgument, match="irrational threshold"):
        ThresholdRun(GaussianNoise(F(1)), LN2, LaplaceNoise(F(1)), (F(0),))
    factors = (Factor("gaussian", "density", LN2, F(1)), Factor("laplace", "sf", F(0), F(1)))
    from privref.reference import _quadrature
    with pytest.raises(InvalidArgument, match="rational locations"):
        _quadrature.integral(factors, 64)
