"""Discrete features of numeric outputs for the structural event families of :mod:`.events`.

Two encodings, both pure functions of one output (so an event built on them is
a fixed set of outcomes):

* :func:`float_pattern`: the IEEE-754 structure of a double, ``(sign, binade,
  trailing zero bits of the significand)``, packed into one int.  Two
  mechanisms can agree on every interval of real numbers and still differ
  here: Mironov (CCS 2012) shows that the textbook floating-point Laplace
  mechanism ``x + Lap(b)`` leaves the low-order bits of its output dependent on
  x (some doubles are reachable from one input and not from the other).  The
  family over these keys is how the auditor sees such bit-level leaks.
* :func:`coarse_symbols`: a vector output read coordinate by coordinate as a
  symbol: its quantile bin when it is a finite number, or one of the *atoms*
  -inf, +inf, and "not a number" (NaN or a non-numeric entry such as None).
  Sparse-vector style outputs (values where a query was answered, an atom
  where it was not) become short discrete patterns.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "ATOM_NAN",
    "ATOM_NEG_INF",
    "ATOM_POS_INF",
    "LOW_BITS_CAP",
    "coarse_symbols",
    "describe_float_pattern",
    "float_pattern",
    "patterns_are_intervals",
]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

LOW_BITS_CAP: Final = 8
"""Trailing-zero counts of the significand at or above this are one class ("at least 8")."""

_BINADE_MIN, _BINADE_MAX = -1075, 1024
_ZERO, _NAN, _POS_INF, _NEG_INF, _NEG_ZERO = -1, -2, -3, -4, -5  # special codes (all negative)

ATOM_NEG_INF: Final = -1
ATOM_POS_INF: Final = -2
ATOM_NAN: Final = -3
"""Symbols of :func:`coarse_symbols` for non-finite entries; finite entries get their bin >= 0."""


def float_pattern(values: FloatArray) -> IntArray:
    """The IEEE-754 pattern key of each double: sign, binade and trailing zeros of the significand.

    For a finite nonzero x = ±m·2^e with 1 <= m < 2 (normal) the key encodes
    (sign, e, min(t, LOW_BITS_CAP)) where t is the number of trailing zero
    bits of the 52-bit stored fraction (52 when m = 1); subnormals have e =
    -1023 and t counted the same way.  So x is an odd multiple of 2^(e - 52 + t)
    when t < 52.  +0.0, -0.0 (told apart: their bits differ, and a mechanism whose sign of
    zero depends on the data leaks it), NaN, +inf and -inf get their own keys.
    Keys are non-negative for finite nonzero x and are decoded by
    :func:`describe_float_pattern`.
    """
    x = np.ascontiguousarray(values, dtype=np.float64)
    bits = x.view(np.uint64)
    sign = (bits >> np.uint64(63)).astype(np.int64)
    biased = ((bits >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
    fraction = bits & np.uint64((1 << 52) - 1)
    lowest = fraction & (~fraction + np.uint64(1))  # the lowest set bit (0 when fraction == 0)
    _, position = np.frexp(lowest.astype(np.float64))  # exact: a power of two, or 0 -> 0
    trailing = np.where(fraction == 0, 52, position.astype(np.int64) - 1)
    binade = np.where(biased == 0, -1023, biased - 1023)
    key = (sign * (_BINADE_MAX - _BINADE_MIN + 1) + (binade - _BINADE_MIN)) * (LOW_BITS_CAP + 1)
    key = key + np.minimum(trailing, LOW_BITS_CAP)
    key = np.where(x == 0, np.where(sign == 1, _NEG_ZERO, _ZERO), key)
    key = np.where(np.isnan(x), _NAN, key)
    key = np.where(x == math.inf, _POS_INF, key)
    return np.asarray(np.where(x == -math.inf, _NEG_INF, key), dtype=np.int64)


def patterns_are_intervals(keys: Iterable[int]) -> bool:
    """True when a set of :func:`float_pattern` keys is a union of whole binades (every
    trailing-zero class of each sign and binade it touches), with +0.0 and -0.0 together and no
    NaN: a union of intervals of the reals (±inf as atoms), which a real-valued mechanism's
    output can fall in.  An event on such keys reads no bit a real number lacks, so a violation
    on it is a real-arithmetic one, not a floating-point leak."""
    keys = set(keys)
    if _NAN in keys or ((_ZERO in keys) != (_NEG_ZERO in keys)):
        return False
    per_binade: dict[int, int] = {}
    for k in keys:
        if k >= 0:
            per_binade[k // (LOW_BITS_CAP + 1)] = per_binade.get(k // (LOW_BITS_CAP + 1), 0) + 1
    return all(n == LOW_BITS_CAP + 1 for n in per_binade.values())


def describe_float_pattern(key: int) -> str:
    """A readable form of a :func:`float_pattern` key, e.g. ``+[2^-2, 2^-1) odd multiple of 2^-54``."""
    special = {_ZERO: "+0.0", _NEG_ZERO: "-0.0", _NAN: "nan", _POS_INF: "inf", _NEG_INF: "-inf"}
    if key in special:
        return special[key]
    rest, low = divmod(key, LOW_BITS_CAP + 1)
    sign, offset = divmod(rest, _BINADE_MAX - _BINADE_MIN + 1)
    binade = offset + _BINADE_MIN
    grain = binade - 52 + low
    head = f"{'-' if sign else '+'}[2^{binade}, 2^{binade + 1})"
    if low == LOW_BITS_CAP:
        return f"{head} multiple of 2^{grain}"
    return f"{head} odd multiple of 2^{grain}"


def coarse_symbols(values: FloatArray, edges: FloatArray) -> IntArray:
    """Each entry's symbol: its bin among (-inf, e0], (e0, e1], …, (e_last, inf) when finite, else an atom.

    Bins are numbered 0..len(edges); -inf, +inf and NaN (which also stands
    for non-numeric entries) are ATOM_NEG_INF, ATOM_POS_INF and ATOM_NAN.
    """
    x = np.asarray(values, dtype=np.float64)
    out = np.searchsorted(edges, x, side="left").astype(np.int64)
    odd = np.flatnonzero(~np.isfinite(x))  # usually none: fix only those entries
    if len(odd):
        y = x[odd]
        out[odd] = np.where(y == -math.inf, ATOM_NEG_INF,
                            np.where(y == math.inf, ATOM_POS_INF, ATOM_NAN))
    return out
