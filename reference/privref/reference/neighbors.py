"""Neighbor relations and finite universes of datasets.

Relations (the papers' notions of "differ in one entry"):

* :class:`Substitution`: equal length, differ in exactly one position
  (000/004 Definition 2.1; also papers 002 and 003);
* :class:`AddRemove`: one is the other with one entry inserted (paper 001);
* :class:`PublicPrivate`: substitution restricted to positions >= ``public_size``,
  the public prefix staying fixed (paper 003);
* :class:`LabelSubstitution`: labeled examples differing in one label only
  (label privacy, used by the label-flip mechanism);
* :class:`LInf`: numeric vectors of equal length whose entries all differ by at most 1
  (query answers of sensitivity 1, as in the sparse vector technique and report noisy max).

:func:`relation_distance` is the number of neighbor steps between two datasets under a
relation (for group privacy), or None when no chain of neighbors joins them.

A :class:`Universe` is every dataset of the given sizes over a finite list of
examples; it enumerates ordered neighboring pairs, optionally up to
reordering for mechanisms that declare themselves order-invariant.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Literal

from .data import Dataset
from .errors import InvalidArgument, NotNeighboring, TooLargeToEnumerate
from .validate import check_int

__all__ = [
    "SUBSTITUTION",
    "AddRemove",
    "LInf",
    "LabelSubstitution",
    "NeighborRelation",
    "PublicPrivate",
    "Substitution",
    "Universe",
    "answer",
    "answer_query",
    "check_neighbors",
    "relation_distance",
]

MAX_PAIRS = 2_000_000


@dataclass(frozen=True, slots=True)
class Substitution:
    """Neighbors: same length, exactly one position differs (000/004 Definition 2.1)."""

    kind: Literal["substitution"] = "substitution"

    def are_neighbors(self, a: Dataset, b: Dataset) -> bool:
        """True when a and b differ in exactly one position."""
        return len(a) == len(b) and sum(x != y for x, y in zip(a, b, strict=True)) == 1

    def distance(self, a: Dataset, b: Dataset) -> int:
        """Hamming distance (number of positions that differ); requires equal lengths."""
        if len(a) != len(b):
            raise NotNeighboring(f"substitution distance needs equal sizes, got {len(a)} "
                                 f"and {len(b)}")
        return sum(x != y for x, y in zip(a, b, strict=True))

    def neighbors(self, data: Dataset, elements: tuple[Hashable, ...]) -> Iterator[Dataset]:
        """Every dataset obtained by replacing one entry with a different element."""
        for i, old in enumerate(data):
            for e in elements:
                if e != old:
                    yield (*data[:i], e, *data[i + 1:])

    def __str__(self) -> str:
        return "substitution of one entry"


@dataclass(frozen=True, slots=True)
class AddRemove:
    """Neighbors: one dataset is the other with one entry inserted (paper 001)."""

    kind: Literal["add/remove"] = "add/remove"

    def are_neighbors(self, a: Dataset, b: Dataset) -> bool:
        """True when one of a, b is the other with exactly one entry added."""
        short, long_ = (a, b) if len(a) < len(b) else (b, a)
        if len(long_) != len(short) + 1:
            return False
        return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))

    def neighbors(self, data: Dataset, elements: tuple[Hashable, ...]) -> Iterator[Dataset]:
        """Every dataset with one entry removed or one element inserted."""
        seen: set[Dataset] = set()
        for i in range(len(data)):
            d = data[:i] + data[i + 1:]
            if d not in seen:
                seen.add(d)
                yield d
        for i in range(len(data) + 1):
            for e in elements:
                d = (*data[:i], e, *data[i:])
                if d not in seen:
                    seen.add(d)
                    yield d

    def __str__(self) -> str:
        return "add/remove of one entry"


@dataclass(frozen=True, slots=True)
class PublicPrivate:
    """Substitution restricted to the private part; the first ``public_size`` entries are fixed."""

    public_size: int
    kind: Literal["public/private"] = "public/private"

    def __post_init__(self) -> None:
        check_int(self.public_size, "public_size", minimum=0)

    def are_neighbors(self, a: Dataset, b: Dataset) -> bool:
        """True when the public prefixes agree and exactly one private entry differs."""
        k = self.public_size
        return (len(a) == len(b) and len(a) >= k and a[:k] == b[:k]
                and Substitution().are_neighbors(a[k:], b[k:]))

    def neighbors(self, data: Dataset, elements: tuple[Hashable, ...]) -> Iterator[Dataset]:
        """Every dataset with one private entry replaced."""
        k = self.public_size
        for rest in Substitution().neighbors(data[k:], elements):
            yield data[:k] + rest

    def __str__(self) -> str:
        return f"substitution in the private part (first {self.public_size} entries public)"


@dataclass(frozen=True, slots=True)
class LabelSubstitution:
    """Labeled datasets that differ in exactly one label, all points equal (label privacy)."""

    kind: Literal["label substitution"] = "label substitution"

    def are_neighbors(self, a: Dataset, b: Dataset) -> bool:
        """True when the points agree everywhere and exactly one label differs."""
        if len(a) != len(b):
            return False
        diffs = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
        return (len(diffs) == 1 and isinstance(diffs[0][0], tuple)
                and isinstance(diffs[0][1], tuple) and diffs[0][0][0] == diffs[0][1][0])

    def neighbors(self, data: Dataset, elements: tuple[Hashable, ...]) -> Iterator[Dataset]:
        """Every dataset with one example's label replaced by another label from ``elements``."""
        for d in Substitution().neighbors(data, elements):
            if self.are_neighbors(data, d):
                yield d

    def __str__(self) -> str:
        return "substitution of one label"


def _real(x: object) -> Fraction | None:
    """x as an exact Fraction when it is a finite real number (not a bool), else None."""
    if isinstance(x, bool) or not isinstance(x, int | float | Fraction):
        return None
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return Fraction(x)


def _gap(x: object, y: object) -> Fraction | None:
    fx, fy = _real(x), _real(y)
    return None if fx is None or fy is None else abs(fx - fy)


@dataclass(frozen=True, slots=True)
class LInf:
    """Neighbors: numeric vectors of equal length, different, every entry moved by at most 1.

    The neighbor notion of sensitivity-1 query-answer vectors (sparse vector, report noisy max).
    Entries must be finite real numbers (int, float, Fraction; not bool).
    """

    kind: Literal["linf"] = "linf"

    def are_neighbors(self, a: Dataset, b: Dataset) -> bool:
        """True when a != b, same length, all entries numbers and |a_i - b_i| <= 1 for every i."""
        if len(a) != len(b) or a == b:
            return False
        gaps = [_gap(x, y) for x, y in zip(a, b, strict=True)]
        return all(g is not None and g <= 1 for g in gaps)

    def neighbors(self, data: Dataset, elements: tuple[Hashable, ...]) -> Iterator[Dataset]:
        """Every other dataset over ``elements`` whose entries are each within 1 of ``data``'s."""
        choices = [[e for e in elements if (g := _gap(e, x)) is not None and g <= 1] for x in data]
        for d in itertools.product(*choices):
            if d != tuple(data):
                yield d

    def __str__(self) -> str:
        return "vectors with every entry within 1 (l-infinity distance <= 1)"


def answer(data: Dataset, i: int) -> int:
    """The i-th entry of a query-answer vector (an int): a score or query of sensitivity 1
    under :class:`LInf`.  InvalidArgument when the entry is missing or not an int."""
    if not 0 <= i < len(data):
        raise InvalidArgument(f"i={i} is not an index of the vector {data!r}")
    value = data[i]
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"entry {i} of {data!r} is {value!r}, not an int")
    return value


def answer_query(i: int) -> Callable[[Dataset], int]:
    """The query D -> D[i] on query-answer vectors (:func:`answer`; sensitivity 1 under LInf)."""
    check_int(i, "i", minimum=0)
    return partial(answer, i=i)


NeighborRelation = Substitution | AddRemove | PublicPrivate | LabelSubstitution | LInf

SUBSTITUTION: NeighborRelation = Substitution()
"""The default relation (000/004 Definition 2.1); a shared immutable instance."""


def check_neighbors(relation: NeighborRelation, a: Dataset, b: Dataset) -> None:
    """Raise NotNeighboring (naming the relation) unless a and b are neighbors."""
    if not relation.are_neighbors(a, b):
        raise NotNeighboring(f"datasets {a!r} and {b!r} are not neighbors under {relation}")


MAX_DISTANCE_SIZE = 10_000
"""Longest dataset :func:`relation_distance` accepts (add/remove uses an O(n·m) table)."""


def _lcs(a: Dataset, b: Dataset) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        prev = 0
        for j, y in enumerate(b, start=1):
            cur = row[j]
            row[j] = prev + 1 if x == y else max(row[j], row[j - 1])
            prev = cur
    return row[-1]


def relation_distance(relation: NeighborRelation, a: Dataset, b: Dataset) -> int | None:
    """Least number of neighbor steps from ``a`` to ``b`` under ``relation``; None if unreachable.

    0 for equal datasets.  Substitution: Hamming distance (equal sizes); add/remove:
    ``len(a) + len(b) - 2·LCS(a, b)`` (deletions and insertions); public/private: Hamming
    distance of the private parts when the public prefixes agree; label substitution: the
    number of differing labels when all points agree; l-infinity: ``ceil(max |a_i - b_i|)``.
    Raises TooLargeToEnumerate when a dataset is longer than MAX_DISTANCE_SIZE.
    """
    if max(len(a), len(b)) > MAX_DISTANCE_SIZE:
        raise TooLargeToEnumerate(f"relation distance of datasets of sizes {len(a)} and {len(b)}: "
                                  f"sizes must be <= {MAX_DISTANCE_SIZE}")
    if tuple(a) == tuple(b):
        return 0
    if isinstance(relation, AddRemove):
        return len(a) + len(b) - 2 * _lcs(a, b)
    if len(a) != len(b):
        return None
    pairs = list(zip(a, b, strict=True))
    if isinstance(relation, Substitution):
        return sum(x != y for x, y in pairs)
    if isinstance(relation, PublicPrivate):
        k = relation.public_size
        if len(a) < k or tuple(a[:k]) != tuple(b[:k]):
            return None
        return sum(x != y for x, y in pairs[k:])
    if isinstance(relation, LabelSubstitution):
        diffs = [(x, y) for x, y in pairs if x != y]
        ok = all(isinstance(x, tuple) and isinstance(y, tuple) and len(x) == len(y) == 2
                 and x[0] == y[0] for x, y in diffs)
        return len(diffs) if ok else None
    gaps = [_gap(x, y) for x, y in pairs]
    if any(g is None for g in gaps):
        return None
    return max(math.ceil(g) for g in gaps if g is not None)


@dataclass(frozen=True, slots=True)
class Universe:
    """All datasets with sizes in ``sizes`` over the finite list ``elements``.

    With ``public`` set (for PublicPrivate), every dataset starts with that
    fixed public prefix followed by a private part of each size in ``sizes``.
    """

    elements: tuple[Hashable, ...]
    sizes: tuple[int, ...]
    public: tuple[Hashable, ...] = ()

    def __post_init__(self) -> None:
        if not self.elements:
            raise InvalidArgument("elements=() must hold at least one example")
        if len(set(self.elements)) != len(self.elements):
            raise InvalidArgument(f"elements={self.elements!r} contains duplicates")
        if not self.sizes:
            raise InvalidArgument("sizes=() must hold at least one dataset size")
        for s in self.sizes:
            check_int(s, "sizes[i]", minimum=0)

    def neighbors_of(self, data: Dataset, relation: NeighborRelation) -> Iterator[Dataset]:
        """Every neighbor of ``data`` under ``relation`` whose size is in the universe."""
        for b in relation.neighbors(data, self.elements):
            if len(b) - len(self.public) in self.sizes:
                yield b

    def count(self) -> int:
        """Number of datasets in the universe."""
        return sum(len(self.elements) ** s for s in self.sizes)

    def datasets(self, *, order_invariant: bool = False) -> Iterator[Dataset]:
        """Every dataset (one per multiset of private entries when ``order_invariant``)."""
        for s in self.sizes:
            gen = (itertools.combinations_with_replacement(self.elements, s) if order_invariant
                   else itertools.product(self.elements, repeat=s))
            for rest in gen:
                yield self.public + tuple(rest)

    def _canonical(self, d: Dataset) -> Dataset:
        index = {e: i for i, e in enumerate(self.elements)}
        k = len(self.public)
        return d[:k] + tuple(sorted(d[k:], key=lambda e: index[e]))

    def pairs(self, relation: NeighborRelation, *, order_invariant: bool = False,
              limit: int = MAX_PAIRS) -> Iterator[tuple[Dataset, Dataset]]:
        """Every ordered neighboring pair (a, b), both directions.

        With ``order_invariant`` (the mechanism's output law ignores entry order),
        pairs are reduced to one representative per pair of multisets.  Raises
        TooLargeToEnumerate, naming ``limit``, before yielding more than ``limit`` pairs.
        """
        estimate = self._pair_estimate(relation, order_invariant)
        if estimate > limit:
            raise TooLargeToEnumerate(
                f"universe has about {estimate} neighboring pairs, more than limit={limit}; "
                "shrink elements or sizes, or raise limit")
        emitted = 0
        seen: set[tuple[Dataset, Dataset]] = set()
        elements = self.elements
        for a in self.datasets(order_invariant=order_invariant):
            if isinstance(relation, PublicPrivate) and relation.public_size != len(self.public):
                raise InvalidArgument(
                    f"relation public_size={relation.public_size} must equal the universe's "
                    f"public prefix length {len(self.public)}")
            for b in relation.neighbors(a, elements):
                if isinstance(relation, AddRemove) and not self._size_ok(b):
                    continue
                if order_invariant:
                    b = self._canonical(b)
                    if (a, b) in seen:
                        continue
                    seen.add((a, b))
                emitted += 1
                if emitted > limit:
                    raise TooLargeToEnumerate(f"more than limit={limit} neighboring pairs")
                yield a, b

    def _size_ok(self, d: Dataset) -> bool:
        return len(d) - len(self.public) in self.sizes

    def _pair_estimate(self, relation: NeighborRelation, order_invariant: bool) -> int:
        m = len(self.elements)
        if order_invariant:
            return sum(math.comb(m + s - 1, s) * max(s, 1) * m for s in self.sizes)
        return sum(int(m**s) * max(s, 1) * m for s in self.sizes)

    def pairs_at_distance(self, relation: NeighborRelation, k: int, *,
                          order_invariant: bool = False, limit: int = MAX_PAIRS
                          ) -> Iterator[tuple[Dataset, Dataset]]:
        """Ordered pairs (a, b) at distance exactly k in the relation's neighbor graph.

        Distance is the least number of neighbor steps from a to b (group
        privacy).  With ``order_invariant``, b is reduced to its multiset.
        """
        check_int(k, "k", minimum=1)
        emitted = 0
        for a in self.datasets(order_invariant=order_invariant):
            seen = {a}
            frontier = {a}
            for _ in range(k):
                nxt: set[Dataset] = set()
                for d in frontier:
                    for b in relation.neighbors(d, self.elements):
                        if isinstance(relation, AddRemove) and not self._size_ok(b):
                            continue
                        if order_invariant:
                            b = self._canonical(b)
                        if b not in seen:
                            seen.add(b)
                            nxt.add(b)
                frontier = nxt
            for b in sorted(frontier, key=repr):
                emitted += 1
                if emitted > limit:
                    raise TooLargeToEnumerate(f"more than limit={limit} pairs at distance {k}")
                yield a, b
