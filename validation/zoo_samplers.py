"""Vectorized samplers for the zoo: exact integer-randomness samplers, and Mironov's full-precision uniform.

Exact samplers here use only ``rng.integers`` (exactly uniform by rejection)
and integer comparisons, so their laws are the stated ones exactly; they are
the vectorized counterparts of :mod:`privref.reference.discrete_noise` and of
:meth:`privref.reference.mechanism.Mechanism.sample`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from privref.reference.data import Dataset, as_dataset
from privref.reference.errors import InvalidArgument, UnsupportedProgram
from privref.reference.mechanism import Mechanism

from .zoo_types import Sampler, Vectorized

__all__ = [
    "bernoulli",
    "bernoulli_exp_neg",
    "discrete_laplace",
    "finite_law_samplers",
    "full_precision_uniform",
]

_MAX_DENOMINATOR = 2**62


def bernoulli(rng: np.random.Generator, p: Fraction, size: int) -> npt.NDArray[np.bool_]:
    """``size`` independent draws of Bernoulli(p), p a rational in [0, 1], exactly."""
    if not 0 <= p <= 1:
        raise InvalidArgument(f"p={p} must lie in [0, 1]")
    if p.denominator > _MAX_DENOMINATOR:
        raise InvalidArgument(f"p={p} has a denominator above 2^62")
    return rng.integers(0, p.denominator, size) < p.numerator


def _bernoulli_exp_unit(rng: np.random.Generator, gamma: Fraction, size: int) -> npt.NDArray[np.bool_]:
    # CKS20 Algorithm 1 for 0 <= γ <= 1: A_k ~ Bernoulli(γ/k) until the first failure at K;
    # P(K > k) = γ^k/k!, so P(K odd) = Σ_k (-γ)^k/k! = e^{-γ}.
    out = np.empty(size, dtype=bool)
    active = np.arange(size)
    k = 1
    while active.size:
        success = bernoulli(rng, gamma / k, active.size)
        out[active[~success]] = k % 2 == 1
        active = active[success]
        k += 1
    return out


def bernoulli_exp_neg(rng: np.random.Generator, gamma: Fraction, size: int) -> npt.NDArray[np.bool_]:
    """``size`` draws of Bernoulli(e^{-γ}) for rational γ >= 0, exactly (Canonne-Kamath-Steinke 2020, Alg. 1).

    For γ > 1, e^{-γ} = (e^{-1})^{⌊γ⌋}·e^{-(γ - ⌊γ⌋)}: one independent trial per factor.
    """
    if gamma < 0:
        raise InvalidArgument(f"gamma={gamma} must be >= 0")
    whole = gamma.numerator // gamma.denominator
    out = _bernoulli_exp_unit(rng, gamma - whole, size)
    for _ in range(whole):
        out &= _bernoulli_exp_unit(rng, Fraction(1), size)
    return out


def _geometric_count(rng: np.random.Generator, gamma: Fraction, size: int) -> npt.NDArray[np.int64]:
    """Successes of Bernoulli(e^{-γ}) before the first failure: P(G = k) = (1 - e^{-γ})·e^{-γk}."""
    out = np.zeros(size, dtype=np.int64)
    active = np.arange(size)
    while active.size:
        success = bernoulli_exp_neg(rng, gamma, active.size)
        out[active[success]] += 1
        active = active[success]
    return out


def discrete_laplace(rng: np.random.Generator, scale: Fraction, size: int) -> npt.NDArray[np.int64]:
    """``size`` exact draws of the discrete Laplace law P(z) ∝ e^{-|z|/t} with rational scale t > 0.

    Z = G1 - G2 for independent G_i with P(G = k) = (1-q)q^k, q = e^{-1/t}:
    for z >= 0, P(Z = z) = Σ_k (1-q)²q^{z+2k} = (1-q)/(1+q)·q^z, the law of
    :class:`privref.reference.discrete_noise.DiscreteLaplace` (Canonne-Kamath-Steinke 2020).
    """
    if scale <= 0:
        raise InvalidArgument(f"scale={scale} must be > 0")
    gamma = 1 / scale
    return _geometric_count(rng, gamma, size) - _geometric_count(rng, gamma, size)


def full_precision_uniform(rng: np.random.Generator, size: int) -> npt.NDArray[np.float64]:
    """U* of Mironov (2012, Section 5.2): a uniform real in (0, 1) rounded down to a double.

    The binade is [2^-k, 2^-k+1) with probability 2^-k (k = 1 + the number of
    leading zeros of a stream of fair bits) and the 52 significand bits are
    uniform, so every double in (0, 1) is drawn with probability equal to the
    length of the real interval it represents (subnormals, reached with
    probability 2^-1022, are not treated specially).
    """
    k = np.ones(size, dtype=np.int64)
    active = np.arange(size)
    while active.size:  # count leading zero bits, 53 fair bits at a time
        word = rng.integers(0, 2**53, active.size, dtype=np.int64)
        zero = word == 0
        _, exponent = np.frexp(word[~zero].astype(np.float64))  # exact: word < 2^53
        done = active[~zero]
        k[done] += 53 - exponent
        k[active[zero]] += 53
        active = active[zero]
    significand = rng.integers(0, 2**52, size, dtype=np.int64) + 2**52
    return np.ldexp(significand.astype(np.float64), -(52 + k).astype(np.int32))


def finite_law_samplers(mechanism: Mechanism[Any]) -> tuple[Sampler, Vectorized]:
    """Exact scalar and vectorized samplers of a mechanism with a finite, exactly rational output law.

    The law of each dataset is computed once (exactly, by
    :meth:`Mechanism.distribution`), then ``size`` outcomes are drawn by
    comparing exact uniform integers in [0, D) with the cumulative numerators
    over the common denominator D.
    """
    @lru_cache(maxsize=256)
    def table(data: Dataset) -> tuple[tuple[Hashable, ...], npt.NDArray[np.int64], int]:
        dist = mechanism.distribution(data)
        if not dist.is_finite or not dist.is_exact:
            raise UnsupportedProgram(f"{mechanism.name} has no finite exact law on {data!r}")
        outs = dist.support()
        probs = [p for _, p in dist.items() if isinstance(p, Fraction)]
        den = math.lcm(*(p.denominator for p in probs))
        if den > _MAX_DENOMINATOR:
            raise UnsupportedProgram(f"{mechanism.name}: common denominator {den} exceeds 2^62")
        cumulative = np.cumsum([int(p * den) for p in probs], dtype=np.int64)
        return outs, cumulative, den

    def vectorized(data: list[Any], rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        outs, cumulative, den = table(as_dataset(data))
        index = np.searchsorted(cumulative, rng.integers(0, den, size), side="right")
        return np.asarray(outs)[index]

    def sampler(data: list[Any], rng: np.random.Generator) -> Any:
        return vectorized(data, rng, 1).tolist()[0]

    return sampler, vectorized
