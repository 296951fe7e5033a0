"""Typed, precision-scoped access to mpmath's interval arithmetic.

This is the only module that touches mpmath.  Each function takes the
working precision (in bits) explicitly, sets ``iv.prec`` for the duration of
one call under a lock, and converts the outward-rounded mpmath endpoints to
exact Fractions, so callers see neither floats nor mpmath's global context.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from mpmath import iv

_LOCK = threading.Lock()


def _raw_to_fraction(raw: tuple[int, int, int, int]) -> Fraction:
    sign, man, exp, _ = raw
    if man == 0:
        return Fraction(0)
    value = Fraction(man) * (Fraction(2) ** exp)
    return -value if sign else value


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
            return _raw_to_fraction(raw[0]), _raw_to_fraction(raw[1])
        finally:
            iv.prec = saved
