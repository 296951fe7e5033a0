"""Exact laws of the zoo's Laplace-noise programs: closed-form event probabilities, rigorously enclosed.

The sparse-vector variants of Lyu, Su and Li (PVLDB 10(6), 2017) and
report-noisy-max with Laplace noise share one shape: conditionally on one
Laplace variable R (the noisy threshold, or the winner's noise) the events are
independent, and each is a Laplace CDF evaluated at R plus a rational shift.
So every event probability is one integral

    P = ∫ f_{b0}(r) · Π_j g_j(r) dr,        f_{b0}(r) = e^{-|r|/b0} / (2·b0),

where each factor g_j is, piecewise in r, a finite sum of terms c·e^{μ + λ·r}
with rational c, μ, λ (the Laplace CDF is ½e^{x/b} for x < 0 and
1 - ½e^{-x/b} for x >= 0).  On each cell between breakpoints the product is
again such a sum, and ∫ e^{μ + λ r} dr = (e^{μ + λ v} - e^{μ + λ u})/λ (or
e^{μ}·(v - u) when λ = 0).  The result is an exact finite sum Σ c_k·e^{ν_k}
with rational c_k, ν_k; :func:`enclose` turns it into a rigorous
:class:`privref.reference.reals.Interval` (mpmath interval exponentials, outward
rounding).  Nothing is sampled, truncated or approximated.

Scale 0 means "no noise" (Lyu et al.'s Algorithm 5): the CDF is then an
indicator and the same machinery integrates the threshold density over an
interval.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from privref.reference.errors import InvalidArgument
from privref.reference.reals import DEFAULT_PRECISION, Interval, interval_exp

__all__ = [
    "ExpSum",
    "Factor",
    "above",
    "below",
    "constant",
    "enclose",
    "integrate",
    "laplace_cdf",
    "times",
    "value_between",
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


def value_between(shift: Fraction, low: Fraction | None, high: Fraction, scale: Fraction) -> Factor:
    """g(r) = P(max(r + shift, low) <= ν < high), ν ~ Laplace(scale > 0); low None means -∞.

    This is the event "the query passed the threshold and its released noisy
    value lies in [low + q, high + q)" after subtracting the query answer q.
    """
    if scale <= 0:
        raise InvalidArgument(f"scale={scale} must be > 0 for a released noisy value")
    breaks = [-shift, high - shift] + ([] if low is None else [low - shift])

    def piece(m: Fraction) -> ExpPoly:
        start = m + shift if low is None or m + shift > low else low
        if start >= high:
            return {}
        top = _cdf_const(high, scale)
        if low is not None and start == low:
            bottom = _cdf_const(low, scale)
        else:
            bottom = _cdf_at(shift, scale, m, upper=False)
        out = dict(top)
        for k, c in bottom.items():
            out[k] = out.get(k, Fraction(0)) - c
        return {k: c for k, c in out.items() if c != 0}

    return Factor(tuple(breaks), piece)


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
