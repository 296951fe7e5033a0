"""Typed, precision-scoped access to mpmath's interval arithmetic.

This is the only module that touches mpmath.  Each function takes the
working precision (in bits) explicitly, sets ``iv.prec`` for the duration of
one call under a lock, and converts the outward-rounded mpmath endpoints to
exact Fractions, so callers see neither floats nor mpmath's global context.

Magnitudes are capped at 2^±:data:`MAX_EXPONENT`: an endpoint below 2^-MAX_EXPONENT in
absolute value is widened outward to 0 or ±2^-MAX_EXPONENT (a proved one-sided bound), and
an endpoint that must exceed 2^MAX_EXPONENT in absolute value is either pulled in to
±2^MAX_EXPONENT where that still bounds the value from the correct side, or refused with
:class:`~privref.reference.errors.TooLargeToEnumerate`.  So no enclosure ever materializes a
Fraction of more than about MAX_EXPONENT + precision bits (``exp(10**9)`` would need 1.4·10^9).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from mpmath import iv

from .errors import TooLargeToEnumerate

_LOCK = threading.Lock()

MAX_EXPONENT = 1 << 20
"""Enclosure endpoints stay within 2^-MAX_EXPONENT <= |x| <= 2^MAX_EXPONENT (or are 0)."""

TINY = Fraction(1, 1 << MAX_EXPONENT)
"""2^-MAX_EXPONENT: the widened bound of a positive endpoint too small to keep."""

HUGE = Fraction(1 << MAX_EXPONENT)
"""2^MAX_EXPONENT: the largest magnitude of an endpoint."""


def _raw_to_fraction(raw: tuple[int, int, int, int], upper: bool, what: str) -> Fraction:
    """The exact value of an mpmath raw float, capped outward (``upper``: an upper endpoint).

    Sound: the result is <= the raw value for a lower endpoint and >= it for an upper one,
    so the interval still contains the true value.
    """
    sign, man, exp, bc = raw[0], raw[1], raw[2], raw[3]
    if man == 0:
        if exp != 0 or bc != 0:  # mpmath's special values: +-inf (and nan) have man == 0
            raise TooLargeToEnumerate(f"{what} has no finite bound at this precision; its "
                                      f"magnitude exceeds 2^{MAX_EXPONENT}")
        return Fraction(0)
    top = exp + bc  # 2^(top-1) <= man·2^exp < 2^top
    if top <= -MAX_EXPONENT:  # |value| < 2^-MAX_EXPONENT: widen to 0 or to -+TINY outward
        if sign:
            return -TINY if not upper else Fraction(0)
        return TINY if upper else Fraction(0)
    if top - 1 > MAX_EXPONENT:  # |value| > 2^MAX_EXPONENT
        if upper == bool(sign):  # an upper end of a negative, a lower end of a positive value
            return -HUGE if sign else HUGE
        raise TooLargeToEnumerate(f"{what} exceeds 2^{MAX_EXPONENT} in magnitude (about "
                                  f"2^{_short_int(top - 1)}); privref does not enclose numbers that large")
    value = Fraction(man << exp) if exp >= 0 else Fraction(man, 1 << -exp)
    return -value if sign else value


def _short_int(n: int) -> str:
    """A short display of an int of any size."""
    if abs(n) < 10**9:
        return str(n)
    if n.bit_length() < 1000:
        return f"{float(n):.4g}"
    return f"{'-' if n < 0 else ''}2^{n.bit_length() - 1}"


def _short(x: Fraction) -> str:
    """A short display of a rational of any size (display only)."""
    if x == 0 or 2**-1000 < abs(x) < 2**1000:
        return f"{float(x):.6g}"
    bits = abs(x.numerator).bit_length() - x.denominator.bit_length()
    return f"{'-' if x < 0 else ''}2^{_short_int(bits)}"


def _to_iv(lo: Fraction, hi: Fraction) -> object:
    """An mpmath interval containing [lo, hi] (division rounds outward)."""
    a = iv.mpf(lo.numerator) / lo.denominator
    b = iv.mpf(hi.numerator) / hi.denominator
    return iv.mpf([a.a, b.b])


def apply(fn_name: str, lo: Fraction, hi: Fraction, prec: int) -> tuple[Fraction, Fraction]:
    """Enclose ``f([lo, hi])`` for f in {exp, log, sqrt} at ``prec`` bits; exact endpoints.

    The result interval contains f(x) for every x in [lo, hi]: mpmath's
    interval functions round outward, and the conversion back is exact.
    """
    with _LOCK:
        saved = iv.prec
        iv.prec = prec
        try:
            fn: Callable[[object], Any] = getattr(iv, fn_name)
            result: Any = fn(_to_iv(lo, hi))  # mpmath is untyped; only _mpi_ is read below
            raw = result._mpi_  # (lower, upper) raw mpf tuples: exact binary floats
        finally:
            iv.prec = saved
    what = f"{fn_name}(x) for x <= {_short(hi)}"
    return _raw_to_fraction(raw[0], False, what), _raw_to_fraction(raw[1], True, what)
