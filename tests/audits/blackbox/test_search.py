"""Neighbor search: patterns, hypothesis-drawn pairs, neighborliness, determinism."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from privref.audits.blackbox.search import (
    RELATIONS,
    SearchSpace,
    candidate_pairs,
    relation_from_name,
    relation_name,
)
from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import (
    AddRemove,
    LabelSubstitution,
    LInf,
    NeighborRelation,
    PublicPrivate,
    Substitution,
)


@pytest.mark.parametrize("relation", [Substitution(), AddRemove(), LInf()], ids=str)
def test_candidates_are_neighbors(relation: NeighborRelation) -> None:
    space = SearchSpace(relation=relation, elements=(0, 1, 2), sizes=(1, 2, 4))
    pairs = candidate_pairs(space, seed=3)
    assert 1 < len(pairs) <= space.max_candidates
    for a, b in pairs:
        assert relation.are_neighbors(a, b)
        if isinstance(relation, Substitution):
            assert Substitution().are_neighbors(a, b) and len(a) in space.sizes
        elif isinstance(relation, AddRemove):
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
    linf = candidate_pairs(SearchSpace(relation=LInf(), sizes=(5,)), seed=0)
    assert ((1,) * 5, (2, 0, 0, 0, 0)) in linf          # one above, rest below
    assert ((1,) * 5, (0, 2, 2, 2, 2)) in linf          # one below, rest above
    assert ((1,) * 5, (2,) * 5) in linf                 # all above


def test_deterministic_given_seed_and_seed_matters() -> None:
    space = SearchSpace(elements=(0, 1, 2, 3), sizes=(2, 3, 4), random_examples=30)
    assert candidate_pairs(space, 5) == candidate_pairs(space, 5)
    assert candidate_pairs(space, 5) != candidate_pairs(space, 6)


def test_random_examples_add_pairs_and_duplicates_are_dropped() -> None:
    without = candidate_pairs(SearchSpace(elements=(0, 1, 2), sizes=(2, 3),
                                          random_examples=0), 0)
    with_h = candidate_pairs(SearchSpace(elements=(0, 1, 2), sizes=(2, 3),
                                         random_examples=30), 0)
    assert set(without) < set(with_h)
    keys = {tuple(sorted((repr(a), repr(b)))) for a, b in with_h}
    assert len(keys) == len(with_h)


def test_max_candidates_caps_the_list() -> None:
    assert len(candidate_pairs(SearchSpace(elements=(0, 1, 2), max_candidates=4), 0)) == 4


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"relation": "hamming"}, "relation='hamming' must be a relation of privref.reference"),
    ({"relation": LabelSubstitution()}, "relation='label-substitution' cannot be searched"),
    ({"relation": PublicPrivate(1)}, "relation='public-private:1' cannot be searched"),
    ({"sizes": (1001,)}, "every size must be <= 1000"),
    ({"elements": ()}, "elements=()"),
    ({"elements": (1, 1)}, "contains duplicates"),
    ({"elements": (1,)}, "at least two values"),
    ({"sizes": ()}, "sizes=()"),
    ({"sizes": (0,)}, "every size must be an int >= 1"),
    ({"random_examples": -1}, "random_examples=-1 must be an int >= 0"),
    ({"max_candidates": 0}, "max_candidates=0"),
])
def test_bad_search_space(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgument, match=message.replace("(", r"\(").replace(")", r"\)")):
        SearchSpace(**kwargs)  # type: ignore[arg-type]


def test_relation_names_map_to_the_classes_of_reference_neighbors() -> None:
    """One vocabulary: every CLI name is a class instance of reference.neighbors, and back."""
    assert relation_from_name("substitution") == Substitution()
    assert relation_from_name("add-remove") == AddRemove()
    assert relation_from_name("linf") == LInf()
    assert relation_from_name("label-substitution") == LabelSubstitution()
    assert relation_from_name("public-private:3") == PublicPrivate(3)
    for name in ["substitution", "add-remove", "linf", "label-substitution", "public-private:3"]:
        assert relation_name(relation_from_name(name)) == name
    assert set(RELATIONS) == {"substitution", "add-remove", "linf", "label-substitution",
                              "public-private:K"}
    with pytest.raises(InvalidArgument, match=r"--relation='hamming' must be one of substitution"):
        relation_from_name("hamming", "--relation")
    with pytest.raises(InvalidArgument, match=r"--relation='public-private:x': public-private:K"):
        relation_from_name("public-private:x", "--relation")
    with pytest.raises(InvalidArgument, match=r"public-private:K needs an int K >= 0"):
        relation_from_name("public-private:K")


def test_search_writes_nothing_to_the_working_directory(tmp_path: Path) -> None:
    """A fresh interpreter: the search writes no cache or database into the working directory."""
    code = ("from privref.audits.blackbox.search import SearchSpace, candidate_pairs\n"
            "candidate_pairs(SearchSpace(elements=(0, 1, 2), sizes=(2, 3), "
            "random_examples=30), 0)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "HYPOTHESIS"))}
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, check=True, timeout=120)
    assert list(tmp_path.iterdir()) == []
