"""Exact array draws from a finite law with rational probabilities.

:class:`FiniteLaw` keeps a finite, exact :class:`~privref.reference.program.Distribution`
as the integer table of :func:`privref.reference._sampling.integer_weights` (every
probability p_i times the common denominator D) and draws ``size`` outcomes at once:
u uniform on [0, D) (numpy's bounded integers, exactly uniform by rejection) selects the
first outcome whose cumulative integer weight exceeds u.  This is the inverse-CDF
selection of :func:`privref.reference._sampling.categorical_exact` in array form, so
outcome i is drawn with probability exactly p_i (from a different random stream than the
scalar sampler, which reads raw words).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from ._sampling import ARRAY_MAX_DENOMINATOR, integer_weights
from .errors import UnsupportedProgram
from .program import Distribution

__all__ = ["FiniteLaw"]

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True, slots=True, eq=False)
class FiniteLaw(Generic[T]):
    """A finite law with rational probabilities, ready for exact array draws.

    ``outcomes`` in the distribution's enumeration order; ``cumulative[i]`` is
    (p_0 + … + p_i)·``denominator``, so ``cumulative[-1] == denominator``.
    """

    outcomes: tuple[T, ...]
    cumulative: npt.NDArray[np.int64]
    denominator: int

    @classmethod
    def of(cls, dist: Distribution[T]) -> FiniteLaw[T]:
        """The table of ``dist``.

        Raises UnsupportedProgram for a law with infinite support or an inexact
        probability, or when the common denominator exceeds 2^62.
        """
        if not dist.is_finite or not dist.is_exact:
            raise UnsupportedProgram("array draws need a finite law with exact probabilities")
        probs = [p for _, p in dist.items() if isinstance(p, Fraction)]
        ints, den = integer_weights(probs)
        if den > ARRAY_MAX_DENOMINATOR:
            raise UnsupportedProgram(f"common denominator {den} exceeds 2^62")
        return cls(dist.support(), np.cumsum(ints, dtype=np.int64), den)

    def indices(self, rng: np.random.Generator, size: int) -> npt.NDArray[np.int64]:
        """``size`` independent draws, as indices into ``outcomes`` (index i with probability p_i)."""
        u = rng.integers(0, self.denominator, size)
        return np.asarray(np.searchsorted(self.cumulative, u, side="right"), dtype=np.int64)

    def draw(self, rng: np.random.Generator, size: int) -> list[T]:
        """``size`` independent outcomes."""
        return [self.outcomes[i] for i in self.indices(rng, size).tolist()]
