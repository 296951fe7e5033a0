"""Typed, precision-scoped access to arb ball arithmetic (python-flint).

This is the only module that touches python-flint.  arb's working precision
(``flint.ctx.prec``) is one process-wide setting, so every computation runs inside
:func:`working_precision`, which holds a lock and restores the previous precision.  A
ball leaves this module only as an :class:`~privref.reference.reals.Interval` with exact
Fraction endpoints, rounded outward (:func:`to_interval`), so callers never see a float, a
ball or the global context.  The magnitude policy is :mod:`._mp`'s: an endpoint below
2^-MAX_EXPONENT is widened outward to 0 or ±2^-MAX_EXPONENT, one above 2^MAX_EXPONENT is
refused with :class:`~privref.reference.errors.TooLargeToEnumerate`.  A ball that is not
finite (arb's answer when it cannot bound a value) is refused the same way; callers turn
that into UNDECIDED or a typed error, never into a verdict.

Why arb (measured, docs/continuous-noise.md): one ball operation costs 1.4–2.6 µs against
21–105 µs for privref's Fraction intervals and 5–23 µs for mpmath's; arb's exp and erfc
are rigorous at any precision (mpmath's ``iv.erfc`` is not usable).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

from flint import arb, ctx, fmpq, fmpz

from ._mp import HUGE, MAX_EXPONENT, TINY
from .errors import TooLargeToEnumerate
from .reals import Interval, Real

__all__ = ["arb", "ball", "evaluate", "multiply_integers", "real_ball", "to_interval",
           "working_precision"]

_LOCK = threading.RLock()


@contextmanager
def working_precision(prec: int) -> Iterator[None]:
    """Run the body with arb's precision set to ``prec`` bits, under the module lock."""
    with _LOCK:
        saved = ctx.prec
        ctx.prec = prec
        try:
            yield
        finally:
            ctx.prec = saved


def ball(x: Fraction | int) -> arb:
    """The ball of the exact rational ``x`` at the current precision (exact if representable)."""
    q = Fraction(x)
    return arb(fmpq(q.numerator, q.denominator))


def real_ball(x: Real) -> arb:
    """A ball containing the exact real ``x`` (its enclosure at the current precision + 16)."""
    box = x.enclose(ctx.prec + 16)
    return ball(box.lo).union(ball(box.hi))


def evaluate(x: Real) -> arb:
    """A ball containing the exact real ``x``, by evaluating its expression tree in arb at the
    current precision (a rational leaf is its exact ball; exp, log, sqrt, 1/x are arb's rigorous
    functions; a Real of another kind, such as an enclosed constant, is :func:`real_ball`).

    Faster than :meth:`Real.enclose` and as sound: arb's operations contain every exact result.
    Where an operation is undefined on its ball (a log or sqrt of a ball reaching 0 or below, a
    reciprocal of a ball holding 0) arb returns a non-finite ball, whose comparisons all fail:
    a caller deciding by comparisons then stays undecided, never wrong.
    """
    memo: dict[int, arb] = {}

    def walk(node: Real) -> arb:
        key = id(node)
        if key in memo:
            return memo[key]
        if node.value is not None:
            out = ball(node.value)
        elif type(node) is not Real:
            out = real_ball(node)
        else:
            args = [walk(a) for a in node.args]
            match node.op:
                case "add":
                    out = args[0] + args[1]
                case "mul":
                    out = args[0] * args[1]
                case "neg":
                    out = -args[0]
                case "inv":
                    out = 1 / args[0]
                case "exp":
                    out = args[0].exp()
                case "log":
                    out = args[0].log()
                case "sqrt":
                    out = args[0].sqrt()
                case _:
                    out = real_ball(node)
        memo[key] = out
        return out

    return walk(x)


def _endpoint(point: arb, upper: bool, what: str) -> Fraction:
    """The exact value of one arb endpoint, capped outward by the magnitude policy."""
    man_, exp_ = point.man_exp()
    man, exp = int(man_), int(exp_)
    if man == 0:
        return Fraction(0)
    top = exp + abs(man).bit_length()  # 2^(top-1) <= |value| < 2^top
    negative = man < 0
    if top <= -MAX_EXPONENT:  # |value| < 2^-MAX_EXPONENT: widen outward to 0 or -+TINY
        if negative:
            return Fraction(0) if upper else -TINY
        return TINY if upper else Fraction(0)
    if top - 1 > MAX_EXPONENT:
        if upper == negative:  # an upper end of a negative, a lower end of a positive value
            return -HUGE if negative else HUGE
        raise TooLargeToEnumerate(f"{what} exceeds 2^{MAX_EXPONENT} in magnitude; privref "
                                  "does not enclose numbers that large")
    return Fraction(man << exp) if exp >= 0 else Fraction(man, 1 << -exp)


def to_interval(x: arb, what: str = "a value") -> Interval:
    """The exact-endpoint interval containing the ball ``x`` (outward; magnitude policy above).

    Raises TooLargeToEnumerate when ``x`` is not finite (arb could not bound it) or too large.
    """
    if not x.is_finite():
        raise TooLargeToEnumerate(f"{what} could not be bounded at {ctx.prec} bits")
    return Interval(_endpoint(x.lower(), False, what), _endpoint(x.upper(), True, what))


def multiply_integers(a: int, b: int) -> int:
    """The exact product a·b of two (huge) integers through FLINT's fast multiplication.

    CPython multiplies big integers by Karatsuba; FLINT/GMP switch to FFT multiplication, which is
    what makes the exact Kronecker-substitution convolutions of :mod:`._pld_grid` affordable.
    """
    return int(fmpz(a) * fmpz(b))
