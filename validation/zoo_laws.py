"""An independent exact integrator for the zoo's Laplace-noise laws: exact sums Σ c·e^ν.

The zoo's witness probabilities come from the exact core
(:mod:`validation.zoo_integrands`: the core's closed-form integrals and threshold tests,
enclosed in arb balls).  This module computes the same :data:`~validation.zoo_integrands.Law`
a second way, for the tests: symbolically, as an exact finite sum Σ c_k·e^{ν_k} with rational
c_k, ν_k, so that a test can check the core's enclosure against it and prove a ratio exactly
(e.g. P(F|a) = e^{5/2}·P(F|b) as an identity of sums, :func:`exact`).

Conditionally on one Laplace variable R (the noisy threshold, or the winner's noise) the
factors of an integrand are Laplace CDFs at R plus a rational shift, so

    P = ∫ f_{b0}(r) · Π_j g_j(r) dr,        f_{b0}(r) = e^{-|r|/b0} / (2·b0),

where each g_j is, piecewise in r, a finite sum of terms c·e^{μ + λ·r} with rational c, μ, λ
(the Laplace CDF is ½e^{x/b} for x < 0 and 1 - ½e^{-x/b} for x >= 0).  On each cell between
breakpoints the product is again such a sum, and ∫ e^{μ + λ r} dr = (e^{μ + λ v} - e^{μ + λ u})/λ
(or e^{μ}·(v - u) when λ = 0).  :func:`enclose` turns the sum into a rigorous
:class:`privref.reference.reals.Interval` (mpmath interval exponentials, outward rounding).
Scale 0 means "no noise" (Lyu et al.'s Algorithm 5, the core's point factors): the CDF is then
an indicator.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from privref.reference.continuous_noise import LaplaceNoise, NoNoise
from privref.reference.errors import InvalidArgument
from privref.reference.reals import DEFAULT_PRECISION, Interval, interval_exp

from .zoo_integrands import Integrand, Law, Piece

__all__ = [
    "ExpSum",
    "Factor",
    "above",
    "below",
    "constant",
    "enclose",
    "exact",
    "exact_integral",
    "integrate",
    "laplace_cdf",
    "times",
]

Term = tuple[Fraction, Fraction]  # (λ, μ): the function r -> e^{μ + λ·r}
ExpPoly = dict[Term, Fraction]  # Σ coef·e^{μ + λ r}
ExpSum = dict[Fraction, Fraction]  # ν -> coef: the number Σ coef·e^{ν}

_ONE: ExpPoly = {(Fraction(0), Fraction(0)): Fraction(1)}
_HALF = Fraction(1, 2)


@dataclass(frozen=True, slots=True)
class Factor:
    """A piecewise exp-polynomial g(r): ``piece(m)`` is the formula on the cell containing m.

    ``breaks`` are the points where the formula may change; ``piece`` is only
    ever called at interior points of cells, so values at breakpoints (a set of
    measure zero) never matter.
    """

    breaks: tuple[Fraction, ...]
    piece: Callable[[Fraction], ExpPoly]


def _mul(a: ExpPoly, b: ExpPoly) -> ExpPoly:
    out: ExpPoly = {}
    for (la, ma), ca in a.items():
        for (lb, mb), cb in b.items():
            key = (la + lb, ma + mb)
            out[key] = out.get(key, Fraction(0)) + ca * cb
    return {k: c for k, c in out.items() if c != 0}


def _cdf_at(x_shift: Fraction, scale: Fraction, point: Fraction, *, upper: bool) -> ExpPoly:
    """P(ν < r + x_shift) (upper=False) or P(ν >= r + x_shift) (upper=True) on the cell of ``point``.

    ν ~ Laplace(scale); scale 0 means ν = 0 (an indicator).
    """
    x = point + x_shift
    if scale == 0:
        below_x = x > 0  # P(0 < x) is 1 exactly when x > 0
        return dict(_ONE) if below_x != upper else {}
    lam = 1 / scale
    if x < 0:  # F(x) = ½e^{x/b}: the term e^{(r + s)/b}
        tail: ExpPoly = {(lam, x_shift * lam): _HALF}
        return {**_ONE, (lam, x_shift * lam): -_HALF} if upper else tail
    tail = {(-lam, -x_shift * lam): _HALF}  # S(x) = ½e^{-x/b}
    return tail if upper else {**_ONE, (-lam, -x_shift * lam): -_HALF}


def below(shift: Fraction, scale: Fraction) -> Factor:
    """g(r) = P(ν < r + shift), ν ~ Laplace(scale) (scale 0: no noise)."""
    return Factor((-shift,), lambda m: _cdf_at(shift, scale, m, upper=False))


def above(shift: Fraction, scale: Fraction) -> Factor:
    """g(r) = P(ν >= r + shift), ν ~ Laplace(scale) (scale 0: no noise)."""
    return Factor((-shift,), lambda m: _cdf_at(shift, scale, m, upper=True))


def _cdf_const(c: Fraction, scale: Fraction) -> ExpPoly:
    """P(ν < c) as a constant (λ = 0) exp-polynomial."""
    if c < 0:
        return {(Fraction(0), c / scale): _HALF}
    if c == 0:
        return {(Fraction(0), Fraction(0)): _HALF}
    return {**_ONE, (Fraction(0), -c / scale): -_HALF}


def constant(value: Fraction) -> Factor:
    """The constant factor ``value`` (no breakpoints)."""
    return Factor((), lambda m: {(Fraction(0), Fraction(0)): value} if value else {})


def _laplace_density(scale: Fraction, point: Fraction) -> ExpPoly:
    lam = 1 / scale
    coef = 1 / (2 * scale)
    return {(lam if point < 0 else -lam, Fraction(0)): coef}


def integrate(scale: Fraction, factors: Sequence[Factor]) -> ExpSum:
    """∫ Laplace(scale) density × Π factors, as an exact sum Σ c·e^{ν} (see the module docstring)."""
    if scale <= 0:
        raise InvalidArgument(f"scale={scale} of the integration variable must be > 0")
    points = sorted({Fraction(0), *(b for f in factors for b in f.breaks)})
    cells: list[tuple[Fraction | None, Fraction | None, Fraction]] = [
        (None, points[0], points[0] - 1)]
    cells += [(lo, hi, (lo + hi) / 2) for lo, hi in itertools.pairwise(points)]
    cells.append((points[-1], None, points[-1] + 1))
    total: ExpSum = {}
    for lo, hi, mid in cells:  # mid: an interior point of the cell
        poly = _laplace_density(scale, mid)
        for f in factors:
            poly = _mul(poly, f.piece(mid))
            if not poly:
                break
        for (lam, mu), c in poly.items():
            _integrate_term(total, lam, mu, c, lo, hi)
    return {nu: c for nu, c in total.items() if c != 0}


def _integrate_term(acc: ExpSum, lam: Fraction, mu: Fraction, c: Fraction,
                    lo: Fraction | None, hi: Fraction | None) -> None:
    def add(nu: Fraction, coef: Fraction) -> None:
        acc[nu] = acc.get(nu, Fraction(0)) + coef

    if lam == 0:
        if lo is None or hi is None:
            raise AssertionError("a constant term on an unbounded cell: the integral diverges")
        add(mu, c * (hi - lo))
        return
    if (hi is None and lam > 0) or (lo is None and lam < 0):
        raise AssertionError("a growing term on an unbounded cell: the integral diverges")
    if hi is not None:
        add(mu + lam * hi, c / lam)
    if lo is not None:
        add(mu + lam * lo, -c / lam)


def times(a: ExpSum, b: ExpSum) -> ExpSum:
    """The product of two exact sums Σ c·e^{ν}."""
    out: ExpSum = {}
    for na, ca in a.items():
        for nb, cb in b.items():
            out[na + nb] = out.get(na + nb, Fraction(0)) + ca * cb
    return {k: v for k, v in out.items() if v != 0}


def laplace_cdf(x: Fraction, scale: Fraction) -> ExpSum:
    """P(ν < x) = P(ν <= x) for ν ~ Laplace(scale > 0), as an exact sum."""
    if scale <= 0:
        raise InvalidArgument(f"scale={scale} must be > 0")
    return {mu: c for (_, mu), c in _cdf_const(x, scale).items()}


def enclose(value: ExpSum, prec: int = DEFAULT_PRECISION) -> Interval:
    """A rigorous enclosure of Σ c·e^{ν} (mpmath interval exponentials; outward rounding)."""
    acc = Interval.point(0)
    for nu, c in sorted(value.items()):
        acc = acc + interval_exp(Interval.point(nu), prec + 16) * c
    box = acc.rounded(prec)
    if box.hi < 0:
        raise AssertionError(f"a probability enclosed as {box}, which is negative")
    return box.clamp_low(Fraction(0))  # a probability is >= 0: a valid tightening


def _as_factor(factor: Piece, origin: Fraction) -> Factor:
    """The CDF or survival function of m + Z at x = origin + r (Laplace or no noise), as a
    factor of r."""
    if isinstance(factor.noise, NoNoise):
        scale = Fraction(0)
    elif isinstance(factor.noise, LaplaceNoise) and factor.noise.unit is None:
        scale = factor.noise.scale
    else:
        raise InvalidArgument(f"factor {factor} is not on unit-free Laplace noise or no noise")
    shift = origin - factor.location  # P(m + Z <= x) = P(Z <= r + origin - m)
    return below(shift, scale) if factor.part == "cdf" else above(shift, scale)


def exact_integral(factors: Integrand) -> ExpSum:
    """The integrand ``∫ Π factors dx`` (one unit-free Laplace density; Laplace or step CDFs and
    survival functions) as an exact sum, independently of the core's integrator."""
    densities = [f.noise for f in factors if f.part == "density"]
    if len(densities) != 1 or not isinstance(densities[0], LaplaceNoise) \
            or densities[0].unit is not None:
        raise InvalidArgument("an integrand needs exactly one unit-free Laplace density")
    origin = next(f.location for f in factors if f.part == "density")
    return integrate(densities[0].scale, [_as_factor(f, origin)
                                          for f in factors if f.part != "density"])


def exact(law: Law) -> ExpSum:
    """A :data:`validation.zoo_integrands.Law` with Laplace noise as an exact sum Σ c·e^ν."""
    total: ExpSum = {}
    for term in law:
        value: ExpSum = {Fraction(0): Fraction(term.sign)}
        for test, outcome in term.tests:
            if not isinstance(test.noise, LaplaceNoise) or test.noise.unit is not None:
                raise InvalidArgument(f"test {test} is not on unit-free Laplace noise")
            below_sum = laplace_cdf(test.threshold - test.shift, test.noise.scale)
            if outcome:  # P(shift + Z > threshold) = 1 - P(Z < threshold - shift)
                below_sum = {nu: -c for nu, c in below_sum.items()}
                below_sum[Fraction(0)] = below_sum.get(Fraction(0), Fraction(0)) + 1
            value = times(value, below_sum)
        for factors in term.integrals:
            value = times(value, exact_integral(factors))
        for nu, c in value.items():
            total[nu] = total.get(nu, Fraction(0)) + c
    return {nu: c for nu, c in total.items() if c != 0}
