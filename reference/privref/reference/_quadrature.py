"""Integrals of products of densities and CDFs that involve Gaussian noise: validated quadrature.

A Gaussian density or CDF is not piecewise exponential, so the closed form of
:mod:`._piecewise_exp` does not apply.  Here ``∫ Π_i g_i(x) dx`` is computed with arb's
rigorous adaptive Gauss–Legendre integration (``acb.integral``, Johansson 2018,
"Numerical integration in arbitrary-precision ball arithmetic"), which returns a ball that
contains the integral of the function it is given, provided that function is analytic on the
region it is asked about.  Three points make the result an enclosure of the probability:

* **Pieces.** Laplace and exponential factors have a kink at their location.  The range is
  split at every kink, and on each piece every such factor is evaluated by its own formula
  α + β·e^{κ(z-μ)} (entire), never by a branch on Re z.  (A branch inside the integrand
  gives balls that are tight and wrong.)  Gaussian densities e^{-t²/2}/(σ√(2π)) and CDFs
  erfc(∓t/√2)/2 are entire.
* **Tails.** The integral is taken over [μ - Lσ, μ + Lσ] around the density factor (σ its
  scale).  Every other factor is a probability in [0, 1], so the mass outside is at most the
  density's own tail mass: erfc(L/√2) for a Gaussian, e^{-L} for a Laplace or exponential
  density.  That bound is added to the upper end (the lower end keeps the truncated value).
* **Accuracy.** Each piece is integrated to a relative tolerance, and L grows until the
  tail bound is below the value's own relative goal, so small probabilities keep their
  relative accuracy.  The working precision doubles until the enclosure is relatively
  ``prec`` bits wide, or :data:`MAX_QUADRATURE_PRECISION` and :data:`MAX_HALF_WIDTH` are
  reached; then the wider enclosure is returned, and the auditor sees its width.

Cost (measured before the choice): 7–55 ms per integral at 53 bits for n = 5–30 factors,
growing with the precision (about p²).  :data:`EVAL_LIMIT` bounds each piece's integrand
evaluations.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from typing import Final

from flint import acb, arb

from ._arb import ball, real_ball, to_interval, working_precision
from ._piecewise_exp import Factor, check_integrand
from .errors import InvalidArgument, TooLargeToEnumerate
from .reals import Interval

__all__ = ["EVAL_LIMIT", "MAX_HALF_WIDTH", "MAX_QUADRATURE_PRECISION", "integral"]

EVAL_LIMIT: Final = 200_000
"""Most integrand evaluations ``acb.integral`` may spend on one piece."""

MAX_QUADRATURE_PRECISION: Final = 1536
"""Largest working precision (bits) of the quadrature (its cost grows about as p²)."""

MAX_HALF_WIDTH: Final = 1 << 12
"""Largest half-width L (in units of the density's scale) of the integration range."""


def _loc(factor: Factor) -> Fraction:
    """The factor's location, which must be rational here (InvalidArgument otherwise)."""
    if not isinstance(factor.location, Fraction):
        raise InvalidArgument("Gaussian-noise integrals take rational locations only (an exact "
                              "Real location is supported with Laplace and exponential noise)")
    return factor.location


def _initial_half_width(factor: Factor, bits: int) -> int:
    """An L whose tail bound is below 2^-bits (Gaussian erfc(L/√2) <= e^{-L²/2})."""
    nats = bits * math.log(2) + 1
    if factor.family == "gaussian":
        return math.ceil(math.sqrt(2 * nats)) + 1
    return math.ceil(nats) + 1


def _tail(factor: Factor, half_width: int) -> arb:
    """An upper bound on the density's mass outside ±half_width scales (both sides)."""
    if factor.family == "gaussian":
        return (ball(half_width) / arb(2).sqrt()).erfc()
    return (-ball(half_width)).exp()


def _evaluator(factor: Factor, right: bool, inv_unit: arb) -> Callable[[acb], acb]:
    """The factor as an entire function of z on one side of its location."""
    mu = ball(_loc(factor))
    if factor.family == "gaussian":
        inv_sigma = inv_unit / ball(factor.scale)
        root2 = arb(2).sqrt()
        norm = inv_sigma / (2 * arb.pi()).sqrt()
        if factor.part == "density":
            return lambda z: (-((z - mu) * inv_sigma) ** 2 / 2).exp() * norm
        if factor.part == "cdf":
            return lambda z: (-((z - mu) * inv_sigma) / root2).erfc() / 2
        return lambda z: (((z - mu) * inv_sigma) / root2).erfc() / 2
    alpha, beta, kappa = factor.piece(right)
    coef = ball(beta) * (inv_unit if factor.part == "density" else 1)
    rate = ball(kappa) * inv_unit
    if beta == 0:
        constant = acb(alpha)
        return lambda z: constant
    return lambda z: alpha + coef * ((z - mu) * rate).exp()


def _range(density: Factor, half_width: int, unit_hi: Fraction) -> tuple[Fraction, Fraction]:
    """Rational ends at least ``half_width`` scales from the density's location."""
    reach = half_width * density.scale * unit_hi
    low = _loc(density) if density.family == "exponential" else _loc(density) - reach
    return low, _loc(density) + reach


def _integral_ball(factors: tuple[Factor, ...], half_width: int, prec: int) -> tuple[arb, arb]:
    """(∫ over the truncated range, tail bound) as arb balls at the current precision."""
    density = next(f for f in factors if f.part == "density")
    unit = density.unit
    unit_hi = Fraction(1) if unit is None else unit.enclose(prec + 16).hi
    inv_unit = arb(1) if unit is None else 1 / real_ball(unit)
    low, high = _range(density, half_width, unit_hi)
    kinks = sorted({_loc(f) for f in factors if f.family != "gaussian"
                    and low < _loc(f) < high})
    rel = arb(2) ** -(prec + 8)
    tiny = arb(2) ** -(4 * prec)
    total = arb(0)
    for a, b in pairwise([low, *kinks, high]):
        parts = [_evaluator(f, f.family != "gaussian" and a >= _loc(f), inv_unit)
                 for f in factors]

        def g(z: acb, _analytic: bool, parts: list[Callable[[acb], acb]] = parts) -> acb:
            value = acb(1)
            for part in parts:
                value *= part(z)
            return value

        piece = acb.integral(g, ball(a), ball(b), rel_tol=rel, abs_tol=tiny,
                             eval_limit=EVAL_LIMIT)
        total += piece.real
    return total, _tail(density, half_width)


def _vanishes(factors: tuple[Factor, ...]) -> bool:
    """True when on every piece of the whole line some Laplace, exponential or no-noise factor
    is identically 0 there (e.g. a raw value that can never pass): the integral is exactly 0."""
    kinks = sorted({_loc(f) for f in factors if f.family != "gaussian"})
    ends: list[Fraction | None] = [None, *kinks, None]
    for lo, _ in pairwise(ends):
        if not any(f.family != "gaussian"
                   and _is_zero(f.piece(lo is not None and lo >= _loc(f)))
                   for f in factors):
            return False
    return True


def _is_zero(piece: tuple[int, Fraction, Fraction]) -> bool:
    alpha, beta, _ = piece
    return alpha == 0 and beta == 0


@lru_cache(maxsize=4096)
def integral(factors: tuple[Factor, ...], prec: int) -> Interval:
    """A rigorous enclosure of ``∫ Π factors dx`` (a probability), relatively ``prec`` bits
    wide when the limits allow (see the module docstring), clipped to [0, 1].

    An integrand that vanishes on every piece by construction (:func:`_vanishes`) is exactly 0.
    Raises InvalidArgument for an integrand without exactly one density, with mixed units or
    with an irrational location (those are supported in closed form only), TooLargeToEnumerate
    when arb cannot bound the value.
    """
    check_integrand(factors)
    for f in factors:
        _loc(f)
    if _vanishes(factors):
        return Interval.point(Fraction(0))
    density = next(f for f in factors if f.part == "density")
    work = min(prec + 2 * len(factors) + 32, MAX_QUADRATURE_PRECISION)
    half_width = _initial_half_width(density, prec + 16)
    while True:
        with working_precision(work):
            inner, tail = _integral_ball(factors, half_width, work)
            if not inner.is_finite() or not tail.is_finite():
                raise TooLargeToEnumerate("the integral could not be bounded at "
                                          f"{work} bits")
            box = to_interval(inner + arb(0).union(tail), "a Gaussian-noise probability")
            tail_box = to_interval(tail, "a tail bound")
        lo = max(box.lo, Fraction(0))
        goal = lo / (1 << prec)
        done = box.hi - box.lo <= goal
        if done or (work >= MAX_QUADRATURE_PRECISION and half_width >= MAX_HALF_WIDTH):
            one = Fraction(1)
            return Interval(min(lo, one), min(max(box.hi, Fraction(0)), one))
        if tail_box.hi > goal / 4 and half_width < MAX_HALF_WIDTH and lo > 0:
            half_width = min(2 * half_width, MAX_HALF_WIDTH)
        elif work < MAX_QUADRATURE_PRECISION:
            work = min(2 * work, MAX_QUADRATURE_PRECISION)
        else:
            half_width = min(2 * half_width, MAX_HALF_WIDTH)
