"""The privacy profile of a neighboring pair: the hockey-stick curve delta(epsilon).

For P = M(a), Q = M(b), delta(epsilon) = sup_F P(F) - e^epsilon·Q(F).  For exact finite
laws the whole curve is returned exactly by its breakpoints; for any law (intervals,
infinite-support noise) delta is enclosed rigorously at requested epsilons.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from privref.reference.data import Dataset, as_dataset
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import check_neighbors
from privref.reference.privacy import parse_epsilon
from privref.reference.reals import DEFAULT_PRECISION, Interval, Real, exp, log, prob_as_interval, rational
from privref.reference.validate import ExactInput

from . import _pair, _tails

__all__ = ["PrivacyProfile", "privacy_profile"]


@dataclass(frozen=True, slots=True)
class PrivacyProfile:
    """delta(epsilon) for the ordered pair (a, b).

    ``breakpoints`` (exact finite laws only) lists (epsilon_i, delta(epsilon_i)) with
    epsilon_i = ln(P(o)/Q(o)) >= 0; delta is linear in e^epsilon between consecutive
    breakpoints and equals ``mass_without_q`` (P's mass where Q is 0) beyond the last.
    ``points`` holds rigorous enclosures of delta at the requested epsilons.
    """

    a: Dataset
    b: Dataset
    breakpoints: tuple[tuple[Real, Fraction], ...] | None
    mass_without_q: Fraction | None
    points: tuple[tuple[Real, Interval], ...]


def privacy_profile(mechanism: Mechanism[Any], a: Iterable[Hashable], b: Iterable[Hashable], *,
                    epsilons: Sequence[Real | ExactInput] = (), precision: int = DEFAULT_PRECISION
                    ) -> PrivacyProfile:
    """The privacy profile of M on the neighbors (a, b); raises NotNeighboring otherwise."""
    da, db = as_dataset(a), as_dataset(b)
    check_neighbors(mechanism.relation, da, db)
    p = mechanism.distribution(da, precision=precision)
    q = mechanism.distribution(db, precision=precision)
    breakpoints: tuple[tuple[Real, Fraction], ...] | None = None
    without_q: Fraction | None = None
    if p.is_finite and q.is_finite and p.is_exact and q.is_exact:
        breakpoints = tuple((log(rational(t)), d) for t, d in _pair.profile_breakpoints(p, q))
        support_q = set(q.support())
        without_q = sum((pr for o, pr in p.items()
                         if o not in support_q and isinstance(pr, Fraction)), Fraction(0))
    points = []
    for raw in epsilons:
        eps = parse_epsilon(raw)
        t = exp(eps)
        if p.is_finite and q.is_finite:
            value = _pair.hockey_stick(p, q, t, precision)[0]
        else:
            value = _tails.hockey_stick(p, q, t, precision)[0]
        points.append((eps, prob_as_interval(value)))
    return PrivacyProfile(da, db, breakpoints, without_q, tuple(points))
