"""Neighbor search: patterns, hypothesis-drawn pairs, neighborliness, determinism."""

from __future__ import annotations

import pytest

from privref.audits.blackbox.search import RELATIONS, SearchSpace, candidate_pairs
from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import AddRemove, Substitution


@pytest.mark.parametrize("relation", RELATIONS)
def test_candidates_are_neighbors(relation: str) -> None:
    space = SearchSpace(relation=relation, elements=(0, 1, 2), sizes=(1, 2, 4))  # type: ignore[arg-type]
    pairs = candidate_pairs(space, seed=3)
    assert 1 < len(pairs) <= space.max_candidates
    for a, b in pairs:
        if relation == "substitution":
            assert Substitution().are_neighbors(a, b) and len(a) in space.sizes
        elif relation == "add-remove":
            assert AddRemove().are_neighbors(a, b) and min(len(a), len(b)) in space.sizes
        else:
            assert len(a) == len(b) and a != b
            assert all(abs(x - y) <= 1 for x, y in zip(a, b, strict=True))  # type: ignore[operator]


def test_standard_patterns_come_first() -> None:
    pairs = candidate_pairs(SearchSpace(elements=(0, 1, 2), sizes=(1, 3)), seed=0)
    head = pairs[:12]
    for expected in [((0,), (1,)), ((0,), (2,)), ((1, 1, 1), (2, 1, 1)), ((1, 1, 1), (0, 1, 1)),
                     ((2, 2, 2), (1, 2, 2))]:
        assert expected in head
    linf = candidate_pairs(SearchSpace(relation="linf", sizes=(5,)), seed=0)
    assert ((1,) * 5, (2, 0, 0, 0, 0)) in linf          # one above, rest below
    assert ((1,) * 5, (0, 2, 2, 2, 2)) in linf          # one below, rest above
    assert ((1,) * 5, (2,) * 5) in linf                 # all above


def test_deterministic_given_seed_and_seed_matters() -> None:
    space = SearchSpace(elements=(0, 1, 2, 3), sizes=(2, 3, 4), hypothesis_examples=30)
    assert candidate_pairs(space, 5) == candidate_pairs(space, 5)
    assert candidate_pairs(space, 5) != candidate_pairs(space, 6)


def test_hypothesis_examples_add_pairs_and_duplicates_are_dropped() -> None:
    without = candidate_pairs(SearchSpace(elements=(0, 1, 2), sizes=(2, 3),
                                          hypothesis_examples=0), 0)
    with_h = candidate_pairs(SearchSpace(elements=(0, 1, 2), sizes=(2, 3),
                                         hypothesis_examples=30), 0)
    assert set(without) < set(with_h)
    keys = {tuple(sorted((repr(a), repr(b)))) for a, b in with_h}
    assert len(keys) == len(with_h)


def test_max_candidates_caps_the_list() -> None:
    assert len(candidate_pairs(SearchSpace(elements=(0, 1, 2), max_candidates=4), 0)) == 4


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"relation": "hamming"}, "relation='hamming' must be one of"),
    ({"elements": ()}, "elements=()"),
    ({"elements": (1, 1)}, "contains duplicates"),
    ({"elements": (1,)}, "at least two values"),
    ({"sizes": ()}, "sizes=()"),
    ({"sizes": (0,)}, "every size must be an int >= 1"),
    ({"hypothesis_examples": -1}, "hypothesis_examples=-1 must be an int >= 0"),
    ({"max_candidates": 0}, "max_candidates=0"),
])
def test_bad_search_space(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgument, match=message.replace("(", r"\(").replace(")", r"\)")):
        SearchSpace(**kwargs)  # type: ignore[arg-type]
