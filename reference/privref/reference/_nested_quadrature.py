"""Two nested integrals ``∫ g(x) ∫_{y>x} h(y) dy dx`` of products of densities and CDFs, enclosed.

Some continuous-noise events need the probability that independent noisy values fall in a
given order along a chain: X < Y with X weighted by its density times the CDFs of the values
only compared with X (g), and Y weighted likewise (h).  DiPApprox's k-Min-Max (a query between
the noisy minimum and maximum of two others) and m-Range (several queries between the same two
noisy bounds) are such events (:mod:`privref.reference.continuous_noise`).  The integral is
computed with arb's rigorous integration (``acb.integral``, Johansson 2018) twice nested:

* **Pieces.** The range is split at every Laplace, exponential or no-noise location of g or h.
  On a piece every factor is one entire function (:func:`._quadrature._evaluator`), so the
  inner integral K(z) = ∫_z^b h(t) dt + C(b), with C(b) = ∫_b^R h the mass of h to the right
  of the piece, is an entire function of z that equals the true one on the real piece.
* **Balls.** The outer integration evaluates its integrand on complex balls.  For a ball of
  midpoint m and radius r, K(z) lies in K(m) ± r·sup|h| over the ball (h is entire on the
  piece, so the integral from m to z does not depend on the path): K(m) is an inner
  ``acb.integral`` from the exact point m, sup|h| is h evaluated on the ball.
* **Tails.** The outer integral runs over ±L scales around g's density and the inner one up to
  R, at least L scales right of h's density.  Every factor other than the densities is a
  probability in [0, 1], so the mass left out is at most the two densities' tail masses
  (:func:`._quadrature._tail`), added to the upper end.

The working precision doubles until the enclosure is relatively ``prec`` bits wide, up to
:data:`MAX_NESTED_PRECISION` bits and :data:`._quadrature.MAX_HALF_WIDTH` scales; then the
wider enclosure is returned (the auditor sees its width).  Cost: one inner integral per outer
evaluation, about 1.5 s at 50 bits for Gaussian factors (measured), growing with the precision.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from typing import Final

from flint import acb, arb

from ._arb import ball, to_interval, working_precision
from ._piecewise_exp import Factor, check_integrand
from ._quadrature import EVAL_LIMIT, MAX_HALF_WIDTH, _evaluator, _initial_half_width, _loc, _tail
from .errors import InvalidArgument, TooLargeToEnumerate
from .reals import Interval

__all__ = ["MAX_NESTED_PRECISION", "nested_integral"]

MAX_NESTED_PRECISION: Final = 384
"""Largest working precision (bits) of the nested integration (each outer evaluation runs one
inner integration, so the cost grows faster than the one-dimensional quadrature's)."""


def _product(factors: tuple[Factor, ...], left: Fraction) -> Callable[[acb], acb]:
    """The product of ``factors`` as one entire function on the piece starting at ``left``."""
    parts = [_evaluator(f, f.family != "gaussian" and left >= _loc(f), arb(1))
             for f in factors]

    def value(z: acb) -> acb:
        out = acb(1)
        for part in parts:
            out *= part(z)
        return out

    return value


def _density(factors: tuple[Factor, ...]) -> Factor:
    return next(f for f in factors if f.part == "density")


def _reach(density: Factor, half_width: int) -> tuple[Fraction, Fraction]:
    span, mu = half_width * density.scale, _loc(density)
    low = mu if density.family == "exponential" else mu - span
    return low, mu + span


def _nested_ball(outer: tuple[Factor, ...], inner: tuple[Factor, ...], half_width: int,
                 goal: int) -> tuple[arb, arb]:
    """(the truncated nested integral, the tail bound) as arb balls at the current precision,
    each integration asked for a relative error of 2^-(goal + 8)."""
    d_out, d_in = _density(outer), _density(inner)
    low, high = _reach(d_out, half_width)
    right = max(high, _reach(d_in, half_width)[1])
    kinks = sorted({_loc(f) for f in (*outer, *inner) if f.family != "gaussian"
                    and low < _loc(f) < right})
    ends = [low, *[k for k in kinks if k < high], high]
    inner_ends = sorted({*ends, *kinks, right})
    rel, tiny = arb(2) ** -(goal + 8), arb(2) ** -(4 * goal)

    def integrate(f: Callable[[acb], acb], a: acb | arb, b: acb | arb) -> acb:
        return acb.integral(lambda z, _analytic: f(z), a, b, rel_tol=rel, abs_tol=tiny,
                            eval_limit=EVAL_LIMIT)

    # C(b): the mass of h on [b, right], for every piece end b
    after: dict[Fraction, acb] = {right: acb(0)}
    for a, b in reversed(list(pairwise(inner_ends))):
        after[a] = after[b] + integrate(_product(inner, a), ball(a), ball(b))
    total = acb(0)
    for a, b in pairwise(ends):
        g, h, rest = _product(outer, a), _product(inner, a), after[b]
        end = acb(ball(b))

        def k_of(z: acb, h: Callable[[acb], acb] = h, end: acb = end, rest: acb = rest) -> acb:
            mid = acb(z.real.mid(), z.imag.mid())
            value = integrate(h, mid, end) + rest
            radius = (arb(z.real.rad()) ** 2 + arb(z.imag.rad()) ** 2).sqrt()
            if radius != 0:  # K varies by at most radius·sup|h| over the ball
                bound = radius * abs(h(z))
                spread = arb(0, bound.mid() + bound.rad())
                value += acb(spread, spread)
            return value

        def product(z: acb, g: Callable[[acb], acb] = g,
                    k_of: Callable[[acb], acb] = k_of) -> acb:
            return g(z) * k_of(z)

        total += integrate(product, ball(a), ball(b))
    return total.real, _tail(d_out, half_width) + _tail(d_in, half_width)


@lru_cache(maxsize=4096)
def nested_integral(outer: tuple[Factor, ...], inner: tuple[Factor, ...], prec: int) -> Interval:
    """A rigorous enclosure of ``∫ g(x) (∫_{y>x} h(y) dy) dx`` (g = Π outer, h = Π inner, each
    with exactly one density; a probability), relatively ``prec`` bits wide when the limits
    allow (see the module docstring), clipped to [0, 1].

    Raises InvalidArgument for factors with a scale unit or an irrational location (not
    supported here) or without exactly one density each, TooLargeToEnumerate when arb cannot
    bound the value.
    """
    check_integrand(outer)
    check_integrand(inner)
    if any(f.unit is not None or not isinstance(f.location, Fraction) for f in (*outer, *inner)):
        raise InvalidArgument("nested integrals take rational scales and locations only")
    half_width = max(_initial_half_width(_density(outer), prec + 16),
                     _initial_half_width(_density(inner), prec + 16))
    work = min(prec + 32, MAX_NESTED_PRECISION)
    while True:
        with working_precision(work):
            value, tail = _nested_ball(outer, inner, half_width, prec)
            if not value.is_finite() or not tail.is_finite():
                raise TooLargeToEnumerate(f"a nested integral could not be bounded at {work} bits")
            box = to_interval(value + arb(0).union(tail), "a nested continuous-noise probability")
            tail_box = to_interval(tail, "a tail bound")
        lo = max(box.lo, Fraction(0))
        goal = lo / (1 << prec)
        if box.hi - box.lo <= goal or (work >= MAX_NESTED_PRECISION
                                       and half_width >= MAX_HALF_WIDTH):
            one = Fraction(1)
            return Interval(min(lo, one), min(max(box.hi, Fraction(0)), one))
        if tail_box.hi > goal / 4 and half_width < MAX_HALF_WIDTH and lo > 0:
            half_width = min(2 * half_width, MAX_HALF_WIDTH)
        elif work < MAX_NESTED_PRECISION:
            work = min(2 * work, MAX_NESTED_PRECISION)
        else:
            half_width = min(2 * half_width, MAX_HALF_WIDTH)
