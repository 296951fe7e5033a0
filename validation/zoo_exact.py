"""The zoo's continuous mechanisms with finitely many outcomes, as core programs, audited exactly.

Report-noisy-max (Laplace or exponential noise, the index) and the sparse vector whose
outcome is decided by "the first query above one noisy threshold" (cut-off c = 1, or Dwork and
Roth's Algorithm 2, which draws a fresh threshold after every ⊤) are written once as
:mod:`privref.reference.program` programs over the core's continuous-noise events
(:func:`~privref.reference.continuous_noise.argmax`,
:func:`~privref.reference.continuous_noise.first_above`), with outcomes equal to the zoo
samplers' outcomes (:func:`validation.zoo_selection.noisy_max_mechanism`,
:func:`validation.zoo_svt.svt_mechanism`).  :func:`pairs_loss` runs the exact auditor
(:func:`privref.audits.exact.audit_pair`) on each of an entry's listed pairs in both orders:
the largest loss is a proved lower end of the entry's true ε (the loss over all neighbors).

Not expressible with the core's events, and so not audited here: the sparse vector with one
noisy threshold shared by c >= 2 answers (Lyu et al.'s Algorithms 1 and 4 at c = 2) or by all
answers (Algorithms 5 and 6: no cut-off), whose outcome is a ⊤/⊥ pattern rather than a first
index; and every mechanism that releases a continuous value (the Laplace mechanism, noisy
histograms, report-noisy-max's value, Algorithm 3, NumericalSVT, PrefixSum).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from privref.audits.exact import audit_pair
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument
from privref.reference.mechanism import Mechanism
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import DEFAULT_PRECISION, log, rational

__all__ = ["PairsLoss", "audited_loss", "int_values", "pairs_loss"]


@dataclass(frozen=True, slots=True)
class PairsLoss:
    """The exact loss over some ordered pairs: ``lower`` <= max ε <= ``upper`` (proved), attained
    (up to the enclosure) by ``pair`` on the outcome set ``event``."""

    lower: Fraction
    upper: Fraction
    pair: tuple[Dataset, Dataset]
    event: tuple[Any, ...]
    pairs: int


def pairs_loss(mechanism: Mechanism[Any], pairs: Sequence[tuple[Sequence[Any], Sequence[Any]]],
               precision: int = DEFAULT_PRECISION) -> PairsLoss:
    """The exact auditor's ε over ``pairs``, each in both orders (pure DP: δ = 0).

    Raises InvalidArgument when ``pairs`` is empty, and the auditor's NotNeighboring when a
    pair is not neighboring under the mechanism's relation.
    """
    if not pairs:
        raise InvalidArgument("pairs=() must hold at least one pair")
    claim = PrivacyClaim(mechanism.claim.epsilon)
    best: PairsLoss | None = None
    upper = Fraction(0)
    ordered = {(tuple(a), tuple(b)) for x, y in pairs for a, b in ((x, y), (y, x))}
    for a, b in sorted(ordered):
        eps = audit_pair(mechanism, a, b, claim=claim).epsilon
        if eps.infinite or eps.t_hi is None:
            raise InvalidArgument(f"the loss on {a} -> {b} is not finite; this helper is for "
                                  "private mechanisms")
        lo = log(rational(eps.t_lo)).enclose(precision).lo
        hi = log(rational(eps.t_hi)).enclose(precision).hi
        upper = max(upper, hi)
        if best is None or lo > best.lower:
            best = PairsLoss(max(lo, Fraction(0)), hi, (a, b), eps.event, len(ordered))
    assert best is not None
    return PairsLoss(best.lower, upper, best.pair, best.event, len(ordered))


@cache
def _loss(factory: Callable[..., Mechanism[Any]], args: tuple[Any, ...],
          pairs: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]) -> PairsLoss:
    return pairs_loss(factory(*args), pairs)


def audited_loss(factory: Callable[..., Mechanism[Any]], args: tuple[Any, ...],
                 pairs: Sequence[tuple[Sequence[int], Sequence[int]]]) -> PairsLoss:
    """:func:`pairs_loss` of ``factory(*args)`` over ``pairs``, memoized by its arguments."""
    return _loss(factory, args, tuple((tuple(a), tuple(b)) for a, b in pairs))


def int_values(data: Dataset) -> tuple[Fraction, ...]:
    """The int entries of a query-answer or score vector as exact rationals (InvalidArgument
    naming the first entry that is not an int)."""
    values = []
    for i, x in enumerate(data):
        if isinstance(x, bool) or not isinstance(x, int):
            raise InvalidArgument(f"data[{i}]={x!r} must be an int")
        values.append(Fraction(x))
    return tuple(values)
