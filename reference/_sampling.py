"""Exact sampling from integer randomness (no float ever makes a random decision).

Every draw consumes raw 64-bit words from the numpy Generator's bit generator
and turns them into exact integers; probabilities are compared as integers or
exact rationals.  Irrational probabilities are handled by lazy refinement: a
uniform variate is revealed bit by bit and the category boundaries are
enclosed ever more tightly until the variate's dyadic interval falls inside a
single category (Mironov 2012's lesson: floating point must not decide).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from . import _kernels
from .reals import DEFAULT_PRECISION, Interval, Real

__all__ = ["bernoulli", "categorical_exact", "categorical_real", "random_bits", "uniform_int"]


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
    with probability 1 whenever the total weight is positive.
    """
    exact = [w.exact for w in weights]
    if all(e is not None for e in exact):
        return categorical_exact(rng, [e for e in exact if e is not None])
    prec = DEFAULT_PRECISION
    u, k = 0, 0
    rounds = 0
    while True:
        u = (u << 32) | random_bits(rng, 32)
        k += 32
        rounds += 1
        if rounds % 2 == 0:
            prec *= 2
        boxes = [w.enclose(prec) for w in weights]
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
