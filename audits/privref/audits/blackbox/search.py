"""Candidate neighboring pairs for the black-box auditor when none is given.

Two sources, both deterministic given the seed:

1. **Standard patterns** (after StatDP's and DP-Sniper's input generators),
   per dataset size ``n`` in ``sizes`` and base value ``b`` (the smallest,
   middle and largest element):

   * ``substitution``: ``[b]*n`` against the same list with its first entry
     moved one element up, one element down, or to the opposite extreme
     (e.g. ``[0]`` vs ``[1]``, ``[1, 1, 1]`` vs ``[2, 1, 1]``);
   * ``add-remove``: ``[b]*n`` against it with one element appended
     (the smallest, ``b``, or the largest);
   * ``linf`` (query-answer vectors of sensitivity 1, every entry may move by
     at most 1): one above, one below, one above rest below, one below rest
     above, half up half down, all above, all below, and the X shape, around
     the all-ones vector.

2. **Random draws** (``substitution`` and ``add-remove``): ``random_examples``
   pairs drawn by :func:`random_pairs` from a ``numpy.random.Generator`` seeded with
   ``SeedSequence(seed, spawn_key=(SEARCH_STREAM,))`` (a stream apart from every
   sampling stream of the runner): a dataset of a size drawn from ``sizes`` with
   entries drawn from ``elements``, and its neighbor (one entry substituted by
   another element, or one element inserted at a drawn position, the pair's order
   drawn too).  No test-generation library is involved at run time (the search
   used ``hypothesis.find`` before; the pairs it draws differ from those).

Relations are the classes of :mod:`privref.reference.neighbors` (one vocabulary
with the exact auditor); :data:`RELATIONS` maps the command-line names to them.
The search generates :class:`Substitution`, :class:`AddRemove` and
:class:`LInf` pairs; any other relation raises InvalidArgument (never a silent
fallback to substitution): give the pairs instead.

Guarantee: every candidate is a neighboring pair under the space's relation
(checked here).  Nothing is written to disk.  Pairs are deduplicated up to
order (the estimator tests both directions).  The statistical correction over
the candidates is the runner's job (see audits.blackbox.runner).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Final

import numpy as np

from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import (
    SUBSTITUTION,
    AddRemove,
    LabelSubstitution,
    LInf,
    NeighborRelation,
    PublicPrivate,
    Substitution,
)

__all__ = ["MAX_SEARCH_SIZE", "RELATIONS", "SEARCHABLE", "SEARCH_STREAM", "Pair", "SearchSpace",
           "candidate_pairs", "random_pairs", "relation_from_name", "relation_name"]

RELATIONS: dict[str, NeighborRelation] = {
    "substitution": Substitution(),
    "add-remove": AddRemove(),
    "linf": LInf(),
    "label-substitution": LabelSubstitution(),
    "public-private:K": PublicPrivate(0),
}
"""Command-line names of the neighbor relations (``public-private:K``: the first K entries public)."""

SEARCHABLE = (Substitution, AddRemove, LInf)
"""The relations the pair search can generate."""

MAX_SEARCH_SIZE = 1000
"""Largest dataset size of the pair search."""

SEARCH_STREAM: Final = 10
"""The spawn key ``(SEARCH_STREAM,)`` of the seed stream of :func:`random_pairs` (the runner's
sampling streams have spawn keys of three or five entries, so the streams never coincide)."""

Pair = tuple[tuple[Hashable, ...], tuple[Hashable, ...]]


def relation_from_name(name: str, flag: str = "relation") -> NeighborRelation:
    """The relation named ``name`` (see :data:`RELATIONS`); InvalidArgument naming ``flag`` otherwise."""
    known = ", ".join(RELATIONS)
    if isinstance(name, str) and name.startswith("public-private:"):
        size = name.partition(":")[2]
        if not size.isdigit() or len(size) > 6:
            raise InvalidArgument(f"{flag}={name!r}: public-private:K needs an int K >= 0 (the "
                                  "number of public entries), e.g. public-private:2")
        return PublicPrivate(int(size))
    if not isinstance(name, str) or name not in RELATIONS or name.endswith(":K"):
        raise InvalidArgument(f"{flag}={name!r} must be one of {known}")
    return RELATIONS[name]


def relation_name(relation: NeighborRelation) -> str:
    """The command-line name of ``relation`` (inverse of :func:`relation_from_name`)."""
    if isinstance(relation, PublicPrivate):
        return f"public-private:{relation.public_size}"
    for name, rel in RELATIONS.items():
        if rel == relation:
            return name
    raise InvalidArgument(f"relation={relation!r} is not a neighbor relation")  # pragma: no cover


@dataclass(frozen=True, slots=True)
class SearchSpace:
    """Where to look for neighboring pairs: relation, entry values, dataset sizes.

    ``relation`` is a relation class instance of reference.neighbors that the
    search can generate (:data:`SEARCHABLE`; others raise InvalidArgument).
    ``elements`` are the values an entry may take, in increasing order for
    "up"/"down" moves; ``LInf`` ignores them (vectors around all ones).  Sizes
    are at most :data:`MAX_SEARCH_SIZE`.  ``random_examples`` pairs are drawn at random
    (:func:`random_pairs`) after the standard patterns (the field was ``hypothesis_examples``
    when hypothesis drew them); at most ``max_candidates`` candidates are kept.
    """

    relation: NeighborRelation = SUBSTITUTION
    elements: tuple[Hashable, ...] = (0, 1)
    sizes: tuple[int, ...] = (1, 2, 3)
    random_examples: int = 16
    max_candidates: int = 48

    def __post_init__(self) -> None:
        if isinstance(self.relation, str):
            raise InvalidArgument(f"relation={self.relation!r} must be a relation of "
                                  "privref.reference.neighbors (e.g. Substitution(), AddRemove(), "
                                  "LInf()); map a name with relation_from_name")
        if not isinstance(self.relation, SEARCHABLE):
            raise InvalidArgument(
                f"relation={relation_name_safe(self.relation)!r} cannot be searched: the pair "
                "search generates substitution, add-remove and linf pairs only; give the "
                "pairs yourself (--pair / pairs=)")
        if not self.elements:
            raise InvalidArgument("elements=() must hold at least one value")
        if len(set(self.elements)) != len(self.elements):
            raise InvalidArgument(f"elements={list(self.elements)!r} contains duplicates")
        if isinstance(self.relation, Substitution) and len(self.elements) < 2:
            raise InvalidArgument(f"elements={list(self.elements)!r} must hold at least two values "
                                  "for substitution neighbors")
        if not self.sizes:
            raise InvalidArgument("sizes=() must hold at least one dataset size")
        low = 0 if isinstance(self.relation, AddRemove) else 1
        for s in self.sizes:
            if isinstance(s, bool) or not isinstance(s, int) or s < low:
                raise InvalidArgument(f"sizes={list(self.sizes)!r}: every size must be an int >= "
                                      f"{low}")
            if s > MAX_SEARCH_SIZE:
                raise InvalidArgument(f"sizes={list(self.sizes)!r}: every size must be <= "
                                      f"{MAX_SEARCH_SIZE}")
        for name, value, low in (("random_examples", self.random_examples, 0),
                                 ("max_candidates", self.max_candidates, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise InvalidArgument(f"{name}={value!r} must be an int >= {low}")

    def to_json(self) -> dict[str, object]:
        """A JSON-able description (used in reports and checkpoint fingerprints)."""
        return {"relation": relation_name(self.relation), "elements": list(self.elements),
                "sizes": list(self.sizes), "random_examples": self.random_examples,
                "max_candidates": self.max_candidates}


def _substitution(space: SearchSpace) -> Iterator[Pair]:
    els = space.elements
    last = len(els) - 1
    for n in space.sizes:
        for bi in dict.fromkeys((0, last // 2, last)):
            base = (els[bi],) * n
            for j in dict.fromkeys((bi + 1, bi - 1, last if bi < last else 0)):
                if 0 <= j <= last and j != bi:
                    yield base, (els[j], *base[1:])


def _add_remove(space: SearchSpace) -> Iterator[Pair]:
    els = space.elements
    last = len(els) - 1
    for n in space.sizes:
        for bi in dict.fromkeys((0, last // 2, last)):
            base = (els[bi],) * n
            for e in dict.fromkeys((els[0], els[bi], els[last])):
                yield base, (*base, e)


def _linf(space: SearchSpace) -> Iterator[Pair]:
    for n in space.sizes:
        ones = (1,) * n
        h = n // 2
        yield ones, (2, *ones[1:])                       # one above
        yield ones, (0, *ones[1:])                       # one below
        yield ones, (2, *(0,) * (n - 1))                 # one above, rest below
        yield ones, (0, *(2,) * (n - 1))                 # one below, rest above
        yield ones, (0,) * h + (2,) * (n - h)            # half up, half down
        yield ones, (2,) * n                             # all above
        yield ones, (0,) * n                             # all below
        if n >= 2:
            yield (1,) * h + (0,) * (n - h), (0,) * h + (1,) * (n - h)  # X shape


def relation_name_safe(relation: object) -> str:
    """:func:`relation_name` for a relation, else its repr (for messages)."""
    if isinstance(relation, Substitution | AddRemove | LInf | LabelSubstitution | PublicPrivate):
        return relation_name(relation)
    return repr(relation)


def random_pairs(space: SearchSpace, seed: int) -> list[Pair]:
    """``space.random_examples`` neighboring pairs drawn at random (none for ``LInf``).

    Drawn from ``numpy.random.Generator(PCG64(SeedSequence(seed, spawn_key=(SEARCH_STREAM,))))``:
    per pair a size n from ``space.sizes`` and n entries from ``space.elements`` (uniformly);
    under substitution one uniform position gets another element (uniform among the rest),
    under add-remove one uniform element is inserted at a uniform position, and the order of
    the two datasets is a fair coin.  The smaller dataset's size is therefore in ``sizes``.
    Deterministic given (space, seed); every pair is neighboring under ``space.relation``.
    """
    if space.random_examples == 0 or isinstance(space.relation, LInf):
        return []
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(
        seed, spawn_key=(SEARCH_STREAM,))))
    els = space.elements
    k = len(els)
    add_remove = isinstance(space.relation, AddRemove)
    found: list[Pair] = []
    for _ in range(space.random_examples):
        n = space.sizes[int(rng.integers(len(space.sizes)))]
        a = tuple(els[int(i)] for i in rng.integers(k, size=n))
        if add_remove:
            at = int(rng.integers(n + 1))
            b = (*a[:at], els[int(rng.integers(k))], *a[at:])
        else:
            at = int(rng.integers(n))
            current = els.index(a[at])
            other = int(rng.integers(k - 1))
            b = (*a[:at], els[other + (other >= current)], *a[at + 1:])
        found.append((a, b) if rng.integers(2) == 0 else (b, a))
    return found


def _key(pair: Pair) -> tuple[str, str]:
    a, b = repr(pair[0]), repr(pair[1])
    return (a, b) if a <= b else (b, a)


def candidate_pairs(space: SearchSpace, seed: int) -> tuple[Pair, ...]:
    """Standard patterns first, then :func:`random_pairs`; deduplicated, at most ``max_candidates``.

    Deterministic: the same ``space`` and ``seed`` give the same tuple.
    """
    patterns: Iterator[Pair]
    relation = space.relation
    if isinstance(relation, Substitution):
        patterns = _substitution(space)
    elif isinstance(relation, AddRemove):
        patterns = _add_remove(space)
    elif isinstance(relation, LInf):
        patterns = _linf(space)
    else:  # pragma: no cover - SearchSpace refuses the others
        raise InvalidArgument(f"relation={relation_name_safe(relation)!r} cannot be searched")
    out: dict[tuple[str, str], Pair] = {}
    for a, b in [*patterns, *random_pairs(space, seed)]:
        if not relation.are_neighbors(a, b):
            raise AssertionError(f"search produced a non-neighboring pair {a!r}, {b!r}")
        out.setdefault(_key((a, b)), (a, b))
        if len(out) >= space.max_candidates:
            break
    return tuple(out.values())
