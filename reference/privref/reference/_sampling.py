"""Exact sampling from integer randomness (no float ever makes a random decision).

Every draw consumes raw 64-bit words from the numpy Generator's bit generator
and turns them into exact integers; probabilities are compared as integers or
exact rationals.  Irrational probabilities are handled by lazy refinement: a
uniform variate is revealed bit by bit and the category boundaries are
enclosed ever more tightly until the variate's dyadic interval falls inside a
single category (Mironov 2012's lesson: floating point must not decide).

The array forms (:func:`bernoulli_array`; :class:`privref.reference.finite_law.FiniteLaw`
and the ``*_array`` samplers of :mod:`privref.reference.discrete_noise` build on it) draw
``size`` values at once from numpy's bounded integers (``rng.integers``, exactly uniform by
rejection) instead of raw words: the same laws, exactly, from a different random stream.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from typing import Final, TypeVar

import numpy as np
import numpy.typing as npt

from . import _kernels
from .errors import InvalidArgument
from .reals import DEFAULT_PRECISION, Real

__all__ = ["ARRAY_MAX_DENOMINATOR", "EXACT_DRAW_BITS", "bernoulli", "bernoulli_array",
           "categorical_exact", "categorical_real", "integer_weights", "random_bits", "uniform_int"]

ARRAY_MAX_DENOMINATOR: Final = 2**62
"""Array draws compare int64 uniforms on [0, D) with integer weights: D may not exceed this."""


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


def bernoulli_array(rng: np.random.Generator, p: Fraction, size: int) -> npt.NDArray[np.bool_]:
    """``size`` independent draws of Bernoulli(p), p a rational in [0, 1], exactly (array form of
    :func:`bernoulli`: uniform integers on [0, den) from ``rng.integers`` compared with the numerator).

    Raises InvalidArgument for p outside [0, 1] or a denominator above :data:`ARRAY_MAX_DENOMINATOR`.
    """
    if not 0 <= p <= 1:
        raise InvalidArgument(f"p={p} must lie in [0, 1]")
    if p.denominator > ARRAY_MAX_DENOMINATOR:
        raise InvalidArgument(f"p={p} has a denominator above 2^62")
    return rng.integers(0, p.denominator, size) < p.numerator


def integer_weights(weights: Sequence[Fraction]) -> tuple[list[int], int]:
    """Non-negative rational weights over their least common denominator D: ([w_i·D], D)."""
    den = 1
    for w in weights:
        den = den * w.denominator // _gcd(den, w.denominator)
    return [int(w * den) for w in weights], den


def categorical_exact(rng: np.random.Generator, weights: Sequence[Fraction]) -> int:
    """Index i with probability weights[i] / sum(weights), for non-negative rationals."""
    ints, _ = integer_weights(weights)
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
    :data:`EXACT_DRAW_BITS`; then they are refined lazily too (:func:`_huge_bounds`)
    in integer fixed point (cheap even for huge rationals such as r^q with q in
    the thousands, whose common denominator is not).
    """
    exact = [w.exact for w in weights]
    if all(e is not None for e in exact):
        values = [e for e in exact if e is not None]
        if sum(v.numerator.bit_length() + v.denominator.bit_length() for v in values) \
                <= EXACT_DRAW_BITS:
            return categorical_exact(rng, values)
        return _lazy_choice(rng, partial(_huge_bounds, values))
    return _lazy_choice(rng, partial(_real_bounds, weights))


EXACT_DRAW_BITS: Final = 1 << 14
"""Above this total size (bits of numerators and denominators) rational weights are drawn lazily."""

N = TypeVar("N", int, Fraction)


def _lazy_choice(rng: np.random.Generator, bounds: Callable[[int], tuple[list[N], list[N]]]
                 ) -> int:
    """The lazy-refinement draw of :func:`categorical_real`.

    ``bounds(prec)`` returns lower and upper bounds of every weight (in any common
    unit, tighter as ``prec`` grows).  U's dyadic interval [u, u+1)/2^k selects
    category i once u·T_lo >= C_{i-1,hi}·2^k and (u+1)·T_hi <= C_{i,lo}·2^k.
    """
    prec = DEFAULT_PRECISION
    u, k = 0, 0
    rounds = 0
    while True:
        u = (u << 32) | random_bits(rng, 32)
        k += 32
        rounds += 1
        if rounds % 2 == 0:
            prec *= 2
        lows, highs = bounds(prec)
        total_lo, total_hi = sum(lows), sum(highs)
        scale = 1 << k
        cum_lo: N | int = 0
        cum_hi: N | int = 0
        for i, (lo, hi) in enumerate(zip(lows, highs, strict=True)):
            start_hi = cum_hi  # largest possible C_{i-1}
            cum_lo += lo
            cum_hi += hi
            if hi == 0:
                continue
            # U·T >= C_{i-1} and U·T < C_i for every value the bounds allow
            if u * total_lo >= start_hi * scale and (u + 1) * total_hi <= cum_lo * scale:
                return i


def _real_bounds(weights: Sequence[Real], prec: int) -> tuple[list[Fraction], list[Fraction]]:
    """Interval enclosures of exact reals at ``prec`` bits."""
    boxes = [w.enclose(prec) for w in weights]
    return [b.lo for b in boxes], [b.hi for b in boxes]


def _huge_bounds(values: Sequence[Fraction], prec: int) -> tuple[list[int], list[int]]:
    """Integer fixed-point bounds of non-negative rationals (any size), in units of 2^-unit.

    Each weight is boxed to ``prec`` significant bits (:func:`privref.reference._kernels.dyadic_box`);
    ``unit`` puts the largest box about ``prec`` + log2(len) bits above 1, and smaller boxes
    round outward (at worst to [0, 1]).  One short division per weight and integers of about
    ``prec`` bits: cheap even when the common denominator is enormous.
    """
    boxes = [_kernels.dyadic_box(v.numerator, v.denominator, prec) for v in values]
    top = max((hi.bit_length() - s for _, hi, s in boxes if hi), default=0)
    unit = prec + len(values).bit_length() + 2 - top
    return ([_kernels.to_units(lo, s, unit, False) for lo, _, s in boxes],
            [_kernels.to_units(hi, s, unit, True) for _, hi, s in boxes])
