"""Sanitizers for counting queries (004/000 Definition A.2), and Blum–Ligett–Roth (Theorem A.3).

For a concept c: X → {0, 1} and a database S ∈ X*, the counting query is
Q_c(S) = |{i : c(x_i) = 1}| / |S|.  An (α, β, ε, δ, m)-sanitizer for a class C
(004/000 Definition A.2) is an (ε, δ)-DP algorithm mapping S ∈ X^m to a
sanitized database Ŝ ∈ X* with Pr[∃c ∈ C : |Q_c(S) − Q_c(Ŝ)| > α] <= β.

:class:`Sanitizer` is the pluggable interface GenericLearner (004/000
Algorithm 1, Step 2) uses: a :class:`~reference.mechanism.Mechanism` from a
database of points of a finite domain to a sanitized database, plus the query
class it answers and the size of its output.

:func:`blr_sanitizer` is the construction behind 004/000 Theorem A.3 (Blum,
Ligett and Roth 2008).  **Neither paper describes it**; the
standard construction used here comes from outside the papers: the
exponential mechanism over candidate databases Ŝ of a fixed size k.

* Candidates are the **multisets** of k points (sorted tuples in domain
  order), each counted once: C(|X|+k−1, k) candidates, at most |X|^k.  Q_c
  depends only on the multiset, and counting multisets rather than sequences
  only shrinks the range, so the accuracy analysis (which uses |range| <= |X|^k)
  is unaffected.
* Score u(S, Ŝ) = −max_{c ∈ C} | |S|·Q_c(Ŝ) − count_c(S) |, where
  count_c(S) = |S|·Q_c(S).  This is −|S| times the usual error
  max_c |Q_c(S) − Q_c(Ŝ)| (whose sensitivity is 1/|S|), so it has sensitivity
  1 under substitution (|S| is fixed; one entry changes count_c(S) by at most
  1), and Pr[Ŝ] ∝ exp(ε·u(S, Ŝ)/2) is ε-DP (004 Proposition A.1 (i)) and the
  same distribution as the usual exp(ε·(−error)/(2·(1/|S|))).
* The program scores with the integer k·u (sensitivity k) and weights
  exp(ε·k·u/(2k)), so probabilities are exact rationals whenever
  e^{ε/(2k)} is rational (e.g. ``epsilon = 2k·ln r`` with r rational);
  otherwise they are rigorous enclosures.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from ..citations import cite
from ..concepts import ConceptClass
from ..data import Dataset
from ..errors import InvalidArgument, TooLargeToEnumerate
from ..exponential import exponential_weights
from ..mechanism import Mechanism, WrapsMechanism
from ..privacy import PrivacyClaim, parse_epsilon
from ..program import Categorical, Program, categorical_choice, choose, deterministic
from ..reals import Real
from ..validate import ExactInput, check_int, check_nonempty

__all__ = [
    "DEFAULT_MAX_CANDIDATES",
    "SanitizedDatabase",
    "Sanitizer",
    "blr_sanitizer",
    "candidate_databases",
    "query_error",
]

SanitizedDatabase = tuple[Hashable, ...]
"""A sanitized database Ŝ: a tuple of domain points (BLR returns it sorted in domain order)."""

DEFAULT_MAX_CANDIDATES: Final = 4096
"""Default cap on the number of candidate sanitized databases BLR enumerates."""


@dataclass(frozen=True, slots=True)
class Sanitizer(WrapsMechanism[SanitizedDatabase]):
    """A sanitizer for the counting queries of ``queries`` (004/000 Definition A.2).

    ``mechanism`` maps a database of points of ``queries.domain`` to a
    sanitized database of ``output_size`` points; its claim is the sanitizer's
    (ε, δ) under substitution.  Accuracy (item 2 of Definition A.2) is a
    property of the concrete sanitizer and its parameters, checked by the
    ledger entries of 004/000 Theorem A.3, not recorded here.
    """

    mechanism: Mechanism[SanitizedDatabase]
    queries: ConceptClass
    output_size: int


def query_error(queries: ConceptClass, data: Dataset, sanitized: SanitizedDatabase) -> Fraction:
    """max_{c ∈ queries} |Q_c(data) − Q_c(sanitized)|, exactly (004 Definition A.2, item 2).

    Both databases must be non-empty tuples of domain points.
    """
    data_counts = _histogram(queries, data, "data")
    out_counts = _histogram(queries, sanitized, "sanitized")
    n, k = len(data), len(sanitized)
    worst = Fraction(0)
    for mask in queries.masks:
        diff = abs(Fraction(_count(mask, data_counts), n) - Fraction(_count(mask, out_counts), k))
        worst = max(worst, diff)
    return worst


def candidate_databases(queries: ConceptClass, k: int, *,
                        limit: int = DEFAULT_MAX_CANDIDATES) -> tuple[SanitizedDatabase, ...]:
    """Every multiset of k domain points, as sorted tuples in domain order (BLR's range).

    There are C(|X|+k−1, k) of them; raises TooLargeToEnumerate (naming ``k``
    and ``limit``) when that exceeds ``limit``.
    """
    if not isinstance(queries, ConceptClass):
        raise InvalidArgument(f"queries={queries!r} must be a ConceptClass")
    k = check_int(k, "k", minimum=1)
    limit = check_int(limit, "limit", minimum=1)
    size = len(queries.domain)
    count = math.comb(size + k - 1, k)
    if count > limit:
        raise TooLargeToEnumerate(
            f"k={k} over a domain of {size} points gives {count} candidate sanitized "
            f"databases (more than limit={limit}); use a smaller k or domain, or raise limit=")
    return tuple(itertools.combinations_with_replacement(queries.domain.points, k))


def blr_sanitizer(queries: ConceptClass, *, k: int, epsilon: Real | ExactInput,
                  limit: int = DEFAULT_MAX_CANDIDATES,
                  name: str | None = None) -> Sanitizer:
    """BLR: the exponential mechanism over all size-k multisets Ŝ, score −max_c | |S|·Q_c(Ŝ) − count_c(S) |.

    The construction behind 004/000 Theorem A.3 (Blum, Ligett, Roth 2008),
    which neither paper describes; see the module docstring
    for the normalization.  Guarantee: ε-DP under substitution (004
    Proposition A.1 (i); score sensitivity 1); outputs are sorted tuples of k
    domain points.  Input: a non-empty database of points of
    ``queries.domain`` (anything else raises InvalidArgument naming the
    entry).  Exact probabilities when e^{ε/(2k)} is rational (``epsilon =
    2k·ln r``).  Ledger: ``004 Theorem A.3`` / ``000 Theorem A.3``.
    """
    if not isinstance(queries, ConceptClass):
        raise InvalidArgument(f"queries={queries!r} must be a ConceptClass")
    eps = parse_epsilon(epsilon)
    candidates = candidate_databases(queries, k, limit=limit)
    table = tuple(tuple(_count(mask, _histogram(queries, cand, "candidate")) for mask in queries.masks)
                  for cand in candidates)
    program = _blr_program(queries, candidates, table, k, eps)
    label = name or f"BLR sanitizer for {queries.name} (k={k})"
    mech = Mechanism(label, program, PrivacyClaim(eps), cite("004 Theorem A.3"),
                     order_invariant=True,
                     description=f"exponential mechanism over {len(candidates)} multisets of "
                                 f"{k} points, eps={eps}")
    return Sanitizer(mech, queries, k)


# ------------------------------------------------------------------ internals


def _histogram(queries: ConceptClass, data: Dataset, name: str) -> tuple[int, ...]:
    """Counts per domain position; InvalidArgument names ``name[i]`` for a non-point."""
    if not isinstance(data, tuple):
        raise InvalidArgument(f"{name}={data!r} must be a tuple of domain points")
    check_nonempty(len(data), name)
    counts = [0] * len(queries.domain)
    for i, x in enumerate(data):
        counts[queries.domain.position(x, f"{name}[{i}]")] += 1
    return tuple(counts)


def _count(mask: int, counts: tuple[int, ...]) -> int:
    """count_c = Σ counts[i] over the positions i where the concept with ``mask`` is 1."""
    return sum(c for i, c in enumerate(counts) if (mask >> i) & 1)


def _blr_selection(queries: ConceptClass, table: tuple[tuple[int, ...], ...], k: int,
                   epsilon: Real, data: Dataset) -> Categorical:
    """The categorical choice over candidates: weights exp(ε·(k·u)/(2k)), k·u an integer."""
    counts = _histogram(queries, data, "data")
    n = len(data)
    data_counts = tuple(_count(mask, counts) for mask in queries.masks)
    # k·u(S, Ŝ) = −max_c | n·count_c(Ŝ) − k·count_c(S) |, an integer of sensitivity k
    scores = [-max(abs(n * cand - k * own) for cand, own in zip(row, data_counts, strict=True))
              for row in table]
    return categorical_choice(exponential_weights(scores, epsilon=epsilon, sensitivity=k))


def _blr_program(queries: ConceptClass, candidates: tuple[SanitizedDatabase, ...],
                 table: tuple[tuple[int, ...], ...], k: int, epsilon: Real
                 ) -> Callable[[Dataset], Program[SanitizedDatabase]]:
    def program(data: Dataset) -> Program[SanitizedDatabase]:
        choice = yield from deterministic(_blr_selection, queries, table, k, epsilon, data)
        index = yield from choose(choice)
        return candidates[index]
    return program
