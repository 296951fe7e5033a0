"""The oracle bound of a zoo entry: the best Clopper–Pearson bound its known witness events allow.

Issue 13, item 7 measures the black-box auditor against an oracle that knows
the best event in advance.  For a zoo entry the known events are its
witnesses (exact or rigorously enclosed P(F|a) and P(F|b) for the
real-arithmetic mechanism).  :func:`witness_oracle` gives, for a held-out
size n and failure probability alpha, the estimator's own test with no split of
alpha over views, events or pairs, at typical counts, maximized over the witnesses
whose pair is among the candidate pairs:

* the pooled test (:func:`privref.audits.blackbox.pooled.pooled_ratio` at alpha) when
  delta = 0 and n >= POOLED_MIN, at the counts round(D·P(F|a)) and round(D·Q(F|b)) of
  the dealt size D = n - spare(n) per side (the sizes' mean);
* otherwise the per-side test ln((p_lo - delta)/q_hi)
  (:func:`privref.audits.blackbox.estimate.bound_ratio`, one-sided Clopper–Pearson
  bounds at alpha/2 each) at round(n·P(F|a)) and round(n·Q(F|b)).
  As in
:func:`validation.oracle.oracle_bound` this is a deterministic
reference value, not a random bound; an auditor's bound may exceed it (by
luck, or by finding a better event than the known ones).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from privref.audits.blackbox.estimate import bound_ratio, epsilon_from_ratio
from privref.audits.blackbox.pooled import pooled_applies, pooled_ratio, spare
from privref.audits.stats import check_alpha
from privref.reference.errors import InvalidArgument
from privref.reference.reals import Interval
from privref.reference.validate import check_int

from .zoo_types import Witness, ZooEntry

__all__ = ["WitnessOracle", "typical_count", "witness_oracle"]


@dataclass(frozen=True, slots=True, eq=False)
class WitnessOracle:
    """The oracle's bound on one witness: ``epsilon_lower_bound`` = ln(``ratio``) rounded down.

    ``hits_p``/``hits_q`` are the typical counts out of ``size`` per side (the dealt size
    with the pooled test, else ``n``); ``alpha`` is the whole failure probability (all of
    it on the pooled test, alpha/2 per one-sided bound otherwise); ``test`` is "pooled" or
    "per-side".
    """

    epsilon_lower_bound: float
    ratio: Fraction
    witness: Witness
    n: int
    alpha: Fraction
    hits_p: int
    hits_q: int
    size: int = 0
    test: str = "per-side"


def typical_count(n: int, p: Interval) -> int:
    """round(n · midpoint of the enclosure ``p``), halves rounded up (an exact computation)."""
    check_int(n, "n", minimum=1)
    return math.floor(n * (p.lo + p.hi) / 2 + Fraction(1, 2))


def _key(a: Sequence[Any], b: Sequence[Any]) -> frozenset[tuple[Hashable, ...]]:
    return frozenset((tuple(a), tuple(b)))


def witness_oracle(entry: ZooEntry, n: int, alpha: object,
                   pairs: Sequence[tuple[Sequence[Any], Sequence[Any]]] | None = None
                   ) -> WitnessOracle | None:
    """The best oracle bound over ``entry``'s witnesses on ``pairs`` (default: the entry's pairs).

    A witness counts when its pair, in either order, is among ``pairs`` (an
    auditor searching those pairs can reach it).  Returns None when no
    witness is on a candidate pair.  Raises InvalidArgument for n < 1 or an
    alpha outside (0, 1).
    """
    check_int(n, "n", minimum=1)
    a = check_alpha(alpha)
    allowed = {_key(x, y) for x, y in (entry.pairs if pairs is None else pairs)}
    if not allowed:
        raise InvalidArgument("pairs=[] must hold at least one pair")
    pooled = entry.claimed_delta == 0 and pooled_applies(n)
    size = n - spare(n) if pooled else n
    best: WitnessOracle | None = None
    for w in entry.witnesses:
        if _key(w.a, w.b) not in allowed:
            continue
        kp, kq = typical_count(size, w.p), typical_count(size, w.q)
        ratio = (pooled_ratio(kp, kq, a) if pooled else
                 bound_ratio(kp, n, kq, n, delta=entry.claimed_delta, alpha_side=a / 2))
        if best is None or ratio > best.ratio:
            best = WitnessOracle(epsilon_from_ratio(ratio), ratio, w, n, a, kp, kq, size,
                                 "pooled" if pooled else "per-side")
    return best
