"""Datasets, labels and neighbor relations."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import cast

import pytest
from hypothesis import given

from privref.reference.data import BOTTOM, as_dataset, label_of, labeled, nonempty_dataset, point_of
from privref.reference.errors import (
    EmptyDataset,
    InvalidArgument,
    NotNeighboring,
    TooLargeToEnumerate,
    UnknownLabel,
)
from privref.reference.neighbors import (
    AddRemove,
    LabelSubstitution,
    PublicPrivate,
    Substitution,
    Universe,
    check_neighbors,
)
from privref.reference.strategies import neighboring_pairs


def test_labels_are_validated() -> None:
    """Labels must be 0, 1 or ⊥."""
    assert labeled("x", 1) == ("x", 1)
    assert labeled("x", BOTTOM) == ("x", BOTTOM)
    with pytest.raises(UnknownLabel, match="label=2 must be 0, 1 or ⊥"):
        labeled("x", 2)
    with pytest.raises(UnknownLabel, match="label=True"):
        labeled("x", True)
    assert point_of(("x", BOTTOM)) == "x" and label_of((3, 0)) == 0
    with pytest.raises(UnknownLabel):
        label_of(5)


def test_datasets_are_immutable_and_empty_ones_refused() -> None:
    """Lists become tuples; an empty dataset is refused where one is required."""
    # as_dataset documents that list rows become tuples; its Iterable[Hashable] annotation
    # cannot say so, and this line checks exactly that conversion.
    assert as_dataset([[1, 0], [2, 1]]) == ((1, 0), (2, 1))  # type: ignore[list-item]
    with pytest.raises(EmptyDataset, match="data is empty"):
        nonempty_dataset([])


@given(neighboring_pairs(Substitution(), (0, 1, 2)))
def test_generated_substitution_pairs_are_neighbors(pair: tuple[tuple[int, ...], ...]) -> None:
    """The strategy only yields neighbors."""
    assert Substitution().are_neighbors(*pair)


@given(neighboring_pairs(AddRemove(), (0, 1)))
def test_generated_add_remove_pairs_are_neighbors(pair: tuple[tuple[int, ...], ...]) -> None:
    """The strategy only yields add/remove neighbors."""
    assert AddRemove().are_neighbors(*pair)


@given(neighboring_pairs(PublicPrivate(2), (0, 1)))
def test_generated_public_private_pairs_keep_the_public_prefix(
        pair: tuple[tuple[int, ...], ...]) -> None:
    """Public entries never change."""
    a, b = pair
    assert a[:2] == b[:2] and PublicPrivate(2).are_neighbors(a, b)


@pytest.mark.parametrize(("m", "sizes"), [(2, (1, 2, 3)), (3, (2,)), (4, (1, 2))])
def test_substitution_pair_count_is_exact(m: int, sizes: tuple[int, ...]) -> None:
    """Ordered pairs = Σ_s m^s · s · (m - 1)."""
    uni = Universe(tuple(range(m)), sizes)
    pairs = list(uni.pairs(Substitution()))
    assert len(pairs) == sum(m**s * s * (m - 1) for s in sizes)
    assert len(set(pairs)) == len(pairs)


def test_order_invariant_reduction_counts_multiset_pairs() -> None:
    """Over {0,1} with size 3 there are 4 multisets and 6 ordered multiset-neighbor pairs."""
    pairs = cast("list[tuple[tuple[int, ...], tuple[int, ...]]]",
                 list(Universe((0, 1), (3,)).pairs(Substitution(), order_invariant=True)))
    assert len(pairs) == 6
    assert all(sum(a) - sum(b) in (-1, 1) for a, b in pairs)
    assert math.comb(2 + 3 - 1, 3) == 4


def test_add_remove_universe_stays_within_sizes() -> None:
    """Add/remove pairs only connect sizes present in the universe."""
    pairs = list(Universe((0, 1), (1, 2)).pairs(AddRemove()))
    assert all({len(a), len(b)} == {1, 2} for a, b in pairs)
    # each size-1 dataset (x,) has 3 distinct size-2 supersets: (0,x)/(x,0), (1,x), (x,1)
    assert len(pairs) == 2 * 2 * 3


def test_label_substitution_changes_one_label_only() -> None:
    """Label neighbors keep every point."""
    uni = Universe(((0, 0), (0, 1), (1, 0), (1, 1)), (2,))
    for a, b in cast("Iterator[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]]",
                     uni.pairs(LabelSubstitution())):
        assert [x for x, _ in a] == [x for x, _ in b]
        assert sum(p != q for p, q in zip(a, b, strict=True)) == 1


def test_pairs_at_distance_follow_the_relation() -> None:
    """Distance-2 label pairs differ in exactly two labels."""
    uni = Universe(((0, 0), (0, 1), (1, 0), (1, 1)), (2,))
    pairs = list(uni.pairs_at_distance(LabelSubstitution(), 2))
    assert len(pairs) == 16
    assert all(sum(p != q for p, q in zip(a, b, strict=True)) == 2 for a, b in pairs)


def test_bad_pairs_and_universes_are_refused() -> None:
    """Non-neighbors, empty universes and oversized enumerations raise typed errors."""
    with pytest.raises(NotNeighboring, match="not neighbors under substitution"):
        check_neighbors(Substitution(), (0, 0), (1, 1))
    with pytest.raises(InvalidArgument, match="elements"):
        Universe((), (1,))
    with pytest.raises(InvalidArgument, match="duplicates"):
        Universe((0, 0), (1,))
    with pytest.raises(TooLargeToEnumerate, match="limit=100"):
        list(Universe(tuple(range(10)), (3,)).pairs(Substitution(), limit=100))
    with pytest.raises(InvalidArgument, match="public_size=-1"):
        PublicPrivate(-1)
