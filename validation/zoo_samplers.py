"""Vectorized samplers for the zoo: finite exact laws, and Mironov's full-precision uniform.

The exact samplers are the reference layer's: :class:`privref.reference.finite_law.FiniteLaw`
for finite laws with rational probabilities, and the array forms in
:mod:`privref.reference.discrete_noise` (discrete Laplace, Bernoulli(e^{-γ})) for noise.
:func:`full_precision_uniform` is a float sampler, kept here for the floating-point zoo entries.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from privref.reference.data import Dataset, as_dataset
from privref.reference.errors import UnsupportedProgram
from privref.reference.finite_law import FiniteLaw
from privref.reference.mechanism import Mechanism

from .zoo_types import Sampler, Vectorized

__all__ = [
    "finite_law_samplers",
    "full_precision_uniform",
]


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
    :meth:`Mechanism.distribution`) and drawn from by
    :class:`privref.reference.finite_law.FiniteLaw` (exact uniform integers in
    [0, D) against the cumulative numerators over the common denominator D).
    """
    @lru_cache(maxsize=256)
    def table(data: Dataset) -> FiniteLaw[Any]:
        try:
            return FiniteLaw.of(mechanism.distribution(data))
        except UnsupportedProgram as err:
            raise UnsupportedProgram(f"{mechanism.name} on {data!r}: {err}") from err

    def vectorized(data: list[Any], rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        law = table(as_dataset(data))
        return np.asarray(law.outcomes)[law.indices(rng, size)]

    def sampler(data: list[Any], rng: np.random.Generator) -> Any:
        return vectorized(data, rng, 1).tolist()[0]

    return sampler, vectorized
