"""Records of the mechanism zoo: entries, witnesses, and the "not private at any epsilon" marker."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from privref.reference.errors import InvalidArgument
from privref.reference.reals import Interval, Real, interval_log

__all__ = [
    "NOT_PRIVATE",
    "NotPrivate",
    "Sampler",
    "TrueEpsilon",
    "Vectorized",
    "Witness",
    "ZooEntry",
    "rows_as_outcomes",
]


@dataclass(frozen=True, slots=True)
class NotPrivate:
    """The true epsilon is infinite: some event has positive probability on one input only."""

    def __str__(self) -> str:
        return "inf (not epsilon-DP for any epsilon)"


NOT_PRIVATE = NotPrivate()
"""The one :class:`NotPrivate` value."""

TrueEpsilon: TypeAlias = Real | Interval | NotPrivate
"""Exact value (a Real), a rigorous enclosure [lo, hi] (an Interval), or NOT_PRIVATE."""

Sampler: TypeAlias = Callable[[list[Any], np.random.Generator], Any]
Vectorized: TypeAlias = Callable[[list[Any], np.random.Generator, int], npt.NDArray[Any]]


def rows_as_outcomes(rows: npt.NDArray[Any]) -> list[Any]:
    """Convert a vectorized sampler's array to outcomes equal to the scalar sampler's.

    A 1-D array holds one scalar outcome per entry (Python int or float after
    conversion); a 2-D array holds one tuple outcome per row.
    """
    if rows.ndim == 1:
        return list(rows.tolist())
    return [tuple(r) for r in rows.tolist()]


@dataclass(frozen=True, slots=True, eq=False)
class Witness:
    """An ordered neighboring pair (a, b) and an event F with P(F | a) > e^claimed · P(F | b).

    ``p`` and ``q`` are rigorous enclosures of P(F | a) and P(F | b) for the
    real-arithmetic mechanism (``basis`` says how they are known).  When only a
    loose rigorous bound is available (floating-point artifacts), ``p_estimate``
    is the planning value used for sample budgets, with its model in ``basis``.
    ``contains(outcome)`` decides membership of a sampler outcome in F.
    """

    a: list[Any]
    b: list[Any]
    event: str
    contains: Callable[[Any], bool]
    p: Interval
    q: Interval
    basis: str
    p_estimate: float | None = None

    def epsilon_lower(self, prec: int = 64) -> Fraction | None:
        """A proved lower bound on ln(P(F|a)/P(F|b)); None when P(F|b) = 0 exactly (infinite loss).

        Raises InvalidArgument when P(F|a) is not proved positive (no evidence at all).
        """
        if self.p.lo <= 0:
            raise InvalidArgument(f"P(F|a) is only known to lie in {self.p}; it is not proved > 0")
        if self.q.hi == 0:
            return None
        return interval_log(Interval.point(self.p.lo / self.q.hi), prec).lo


@dataclass(frozen=True, slots=True, eq=False)
class ZooEntry:
    """One mechanism of the zoo: a black-box target with a known true epsilon.

    * ``sampler(data, rng)`` returns one outcome (a hashable int, float, or a
      tuple of these); ``vectorized(data, rng, size)`` returns ``size``
      outcomes as the rows of an array (see :func:`rows_as_outcomes`).  Both
      draw every random bit from ``rng``.
    * ``claimed_epsilon``/``claimed_delta``: the guarantee the source states.
    * ``true_epsilon``: the exact worst case over all neighboring inputs under
      ``relation`` (a Real), a rigorous enclosure of it (an Interval), or
      NOT_PRIVATE; ``true_epsilon_basis`` says how it is known (closed form
      with citation, or computed exactly).  It is the loss of the mechanism in
      real arithmetic except where the bug under study is floating point
      (``laplace_float``).  ``float_outputs`` marks samplers that release
      floating-point values derived from continuous noise: such releases are
      also porous (Mironov 2012), so an auditor reading their low-order bits
      may find more than ``true_epsilon``.
    * ``pairs``: ordered neighboring inputs exhibiting the worst case;
      ``witnesses``: the pairs with events and their exact probabilities.
    """

    name: str
    sampler: Sampler
    claimed_epsilon: Real
    claimed_delta: Fraction
    true_epsilon: TrueEpsilon
    true_epsilon_basis: str
    correct: bool
    source: str
    relation: str
    pairs: tuple[tuple[list[Any], list[Any]], ...]
    witnesses: tuple[Witness, ...]
    notes: str
    vectorized: Vectorized | None = None
    float_outputs: bool = False
    aliases: tuple[str, ...] = ()
