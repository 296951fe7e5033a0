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

2. **Hypothesis-driven search** (``substitution`` and ``add-remove``):
   ``hypothesis_examples`` pairs drawn from
   :func:`privref.reference.strategies.neighboring_pairs` over ``elements`` and
   ``sizes``, with ``hypothesis.find`` driven by ``random.Random(seed)``.

Guarantee: every candidate of the ``substitution`` and ``add-remove`` spaces
is a neighboring pair under that relation (checked here), and ``linf``
candidates differ by at most 1 in every entry.  Pairs are deduplicated up to
order (the estimator tests both directions).  The statistical correction over
the candidates is the runner's job (see audits.blackbox.runner).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Literal

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import NoSuchExample

from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import AddRemove, NeighborRelation, Substitution
from privref.reference.strategies import neighboring_pairs

__all__ = ["RELATIONS", "Pair", "SearchSpace", "candidate_pairs"]

Relation = Literal["substitution", "add-remove", "linf"]
RELATIONS: tuple[Relation, ...] = ("substitution", "add-remove", "linf")
Pair = tuple[tuple[Hashable, ...], tuple[Hashable, ...]]


@dataclass(frozen=True, slots=True)
class SearchSpace:
    """Where to look for neighboring pairs: relation, entry values, dataset sizes.

    ``elements`` are the values an entry may take, in increasing order for
    "up"/"down" moves; ``linf`` ignores them (vectors around all ones).
    """

    relation: Relation = "substitution"
    elements: tuple[Hashable, ...] = (0, 1)
    sizes: tuple[int, ...] = (1, 2, 3)
    hypothesis_examples: int = 16
    max_candidates: int = 48

    def __post_init__(self) -> None:
        if self.relation not in RELATIONS:
            raise InvalidArgument(f"relation={self.relation!r} must be one of {', '.join(RELATIONS)}")
        if not self.elements:
            raise InvalidArgument("elements=() must hold at least one value")
        if len(set(self.elements)) != len(self.elements):
            raise InvalidArgument(f"elements={list(self.elements)!r} contains duplicates")
        if self.relation == "substitution" and len(self.elements) < 2:
            raise InvalidArgument(f"elements={list(self.elements)!r} must hold at least two values "
                                  "for substitution neighbors")
        if not self.sizes:
            raise InvalidArgument("sizes=() must hold at least one dataset size")
        for s in self.sizes:
            if isinstance(s, bool) or not isinstance(s, int) or s < (0 if self.relation == "add-remove"
                                                                      else 1):
                raise InvalidArgument(f"sizes={list(self.sizes)!r}: every size must be an int >= "
                                      f"{0 if self.relation == 'add-remove' else 1}")
        for name, value, low in (("hypothesis_examples", self.hypothesis_examples, 0),
                                 ("max_candidates", self.max_candidates, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise InvalidArgument(f"{name}={value!r} must be an int >= {low}")

    def to_json(self) -> dict[str, object]:
        """A JSON-able description (used in reports and checkpoint fingerprints)."""
        return {"relation": self.relation, "elements": list(self.elements),
                "sizes": list(self.sizes), "hypothesis_examples": self.hypothesis_examples,
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


def _relation(space: SearchSpace) -> NeighborRelation:
    return AddRemove() if space.relation == "add-remove" else Substitution()


def _hypothesis_pairs(space: SearchSpace, seed: int) -> list[Pair]:
    if space.hypothesis_examples == 0 or space.relation == "linf":
        return []
    add_remove = space.relation == "add-remove"
    strategy = neighboring_pairs(_relation(space), space.elements, min_size=min(space.sizes),
                                 max_size=max(space.sizes) + (1 if add_remove else 0))
    found: list[Pair] = []

    def collect(pair: tuple[Dataset, Dataset]) -> bool:
        a, b = pair
        if min(len(a), len(b)) in space.sizes:  # the smaller dataset's size is in the space
            found.append((tuple(a), tuple(b)))
        return False

    config = settings(max_examples=space.hypothesis_examples, database=None, deadline=None,
                      phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    with contextlib.suppress(NoSuchExample):  # collect() never accepts, so find always ends here
        find(strategy, collect, settings=config, random=random.Random(seed))
    return found


def _key(pair: Pair) -> tuple[str, str]:
    a, b = repr(pair[0]), repr(pair[1])
    return (a, b) if a <= b else (b, a)


def candidate_pairs(space: SearchSpace, seed: int) -> tuple[Pair, ...]:
    """Standard patterns first, then hypothesis-drawn pairs; deduplicated, at most ``max_candidates``.

    Deterministic: the same ``space`` and ``seed`` give the same tuple.
    """
    patterns: Iterator[Pair]
    match space.relation:
        case "substitution":
            patterns = _substitution(space)
        case "add-remove":
            patterns = _add_remove(space)
        case "linf":
            patterns = _linf(space)
    out: dict[tuple[str, str], Pair] = {}
    relation = _relation(space)
    for a, b in [*patterns, *_hypothesis_pairs(space, seed)]:
        if space.relation != "linf" and not relation.are_neighbors(a, b):
            raise AssertionError(f"search produced a non-neighboring pair {a!r}, {b!r}")
        out.setdefault(_key((a, b)), (a, b))
        if len(out) >= space.max_candidates:
            break
    return tuple(out.values())
