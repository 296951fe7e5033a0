"""Exact sampling from integer randomness (no float ever makes a random decision).

Every draw consumes raw 64-bit words from the numpy Generator's bit generator
and turns them into exact integers; probabilities are compared as integers or
exact rationals.  Irrational probabilities are handled by lazy refinement: a
uniform variate is revealed bit by bit and the category boundaries are
enclosed ever more tightly until the variate's dyadic interval falls inside a
single category (Mironov 2012's lesson: floating point must not decide).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Final

import numpy as np

from . import _kernels
from .reals import DEFAULT_PRECISION, Interval, Real

__all__ = ["EXACT_DRAW_BITS", "bernoulli", "categorical_exact", "categorical_real", "random_bits",
           "uniform_int"]


def random_bits(rng: np.random.Generator, k: int) -> int:
    """A uniformly random integer in [0, 2**k) from raw 64-bit words."""
    if k <= 0:
        return 0
    words = -(-k // 64)
    raw = rng.bit_generator.random_raw(words)
    value = 0
    for w in np.atleast_1d(raw).tolist():
        value = (value << 64) | int(w)
    return value >> (64 * words - k)


def uniform_int(rng: np.random.Generator, n: int) -> int:
    """A uniformly random integer in [0, n), n >= 1, by rejection (exactly uniform)."""
    if n <= 0:
        raise ValueError(f"n={n} must be >= 1")
    if n == 1:
        return 0
    k = (n - 1).bit_length()
    while True:
        v = random_bits(rng, k)
        if v < n:
            return v


def bernoulli(rng: np.random.Generator, p: Fraction) -> bool:
    """True with probability exactly p (a rational in [0, 1])."""
    return uniform_int(rng, p.denominator) < p.numerator


def categorical_exact(rng: np.random.Generator, weights: Sequence[Fraction]) -> int:
    """Index i with probability weights[i] / sum(weights), for non-negative rationals."""
    den = 1
    for w in weights:
        den = den * w.denominator // _gcd(den, w.denominator)
    ints = [int(w * den) for w in weights]
    return _kernels.bucket(ints, uniform_int(rng, sum(ints)))


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def categorical_real(rng: np.random.Generator, weights: Sequence[Real]) -> int:
    """Index i with probability w_i / sum(w) for exact real weights, by lazy refinement.

    A uniform U in [0, 1) is revealed 32 bits at a time; category i is returned
    once U's dyadic interval provably lies inside [C_{i-1}/T, C_i/T) for every
    value the weight enclosures allow (C partial sums, T total).  Terminates
    with probability 1 whenever the total weight is positive.  Rational weights
    are drawn by :func:`categorical_exact` unless their total size exceeds
    :data:`EXACT_DRAW_BITS`; then :func:`_categorical_huge` refines them lazily
    in integer fixed point (cheap even for huge rationals such as r^q with q in
    the thousands, whose common denominator is not).
    """
    exact = [w.exact for w in weights]
    if all(e is not None for e in exact):
        values = [e for e in exact if e is not None]
        if sum(v.numerator.bit_length() + v.denominator.bit_length() for v in values) \
                <= EXACT_DRAW_BITS:
            return categorical_exact(rng, values)
        return _categorical_huge(rng, values)
    return _lazy_choice(rng, lambda prec: [w.enclose(prec) for w in weights])


EXACT_DRAW_BITS: Final = 1 << 14
"""Above this total size (bits of numerators and denominators) rational weights are drawn lazily."""


def _lazy_choice(rng: np.random.Generator, enclose: Callable[[int], list[Interval]]) -> int:
    """The lazy-refinement draw of :func:`categorical_real`; ``enclose(prec)`` boxes every weight."""
    prec = DEFAULT_PRECISION
    u, k = 0, 0
    rounds = 0
    while True:
        u = (u << 32) | random_bits(rng, 32)
        k += 32
        rounds += 1
        if rounds % 2 == 0:
            prec *= 2
        boxes = enclose(prec)
        total = Interval(sum((b.lo for b in boxes), Fraction(0)), sum((b.hi for b in boxes), Fraction(0)))
        u_lo, u_hi = Fraction(u, 1 << k), Fraction(u + 1, 1 << k)
        cum_lo, cum_hi = Fraction(0), Fraction(0)
        for i, b in enumerate(boxes):
            start_hi = cum_hi  # largest possible C_{i-1}
            cum_lo += b.lo
            cum_hi += b.hi
            if b.hi == 0:
                continue
            # U*T >= C_{i-1} for all admissible values, and U*T < C_i likewise
            if u_lo * total.lo >= start_hi and u_hi * total.hi <= cum_lo:
                return i


def _categorical_huge(rng: np.random.Generator, values: Sequence[Fraction]) -> int:
    """:func:`categorical_real`'s lazy refinement for non-negative rationals, in integers.

    Each weight is boxed to ``prec`` significant bits (:func:`reference._kernels.dyadic_box`), then
    every box is expressed in units of 2^-unit, ``unit`` placing the largest box
    about ``prec`` + log2(len) bits above 1 (smaller boxes round outward, at worst
    to [0, 1]).  The same acceptance test as :func:`categorical_real`, exactly, on
    integers of about ``prec`` + 32·rounds bits.
    """
    prec = DEFAULT_PRECISION
    extra = len(values).bit_length() + 2
    u, k = 0, 0
    rounds = 0
    while True:
        u = (u << 32) | random_bits(rng, 32)
        k += 32
        rounds += 1
        if rounds % 2 == 0:
            prec *= 2
        boxes = [_kernels.dyadic_box(v.numerator, v.denominator, prec) for v in values]
        top = max((hi.bit_length() - s for _, hi, s in boxes if hi), default=0)
        unit = prec + extra - top
        lows = [_kernels.to_units(lo, s, unit, False) for lo, _, s in boxes]
        highs = [_kernels.to_units(hi, s, unit, True) for _, hi, s in boxes]
        total_lo, total_hi = sum(lows), sum(highs)
        cum_lo = cum_hi = 0
        for i, (lo, hi) in enumerate(zip(lows, highs, strict=True)):
            start_hi = cum_hi
            cum_lo += lo
            cum_hi += hi
            if hi == 0:
                continue
            # U·T >= C_{i-1} and U·T < C_i for every admissible value (U in [u, u+1)/2^k)
            if u * total_lo >= start_hi << k and (u + 1) * total_hi <= cum_lo << k:
                return i
