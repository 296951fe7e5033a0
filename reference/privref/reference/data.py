"""Datasets, examples and labels, as in the papers.

A dataset is an immutable ordered tuple of examples.  An example is an
unlabeled point ``x``, a labeled pair ``(x, y)`` with y in {0, 1}, or a
partially labeled pair ``(x, ⊥)`` (004/000 Definition 2.3: the last n - m
entries of an SSL input carry ⊥).  Points are any hashable values.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from enum import Enum
from typing import Final, TypeAlias

from .errors import UnknownLabel
from .validate import check_nonempty

__all__ = [
    "BOTTOM",
    "Bottom",
    "Dataset",
    "Label",
    "as_dataset",
    "label_of",
    "labeled",
    "nonempty_dataset",
    "point_of",
    "unlabeled",
]


class Bottom(Enum):
    """The type of ⊥, the "no label" marker of partially labeled examples."""

    BOTTOM = "⊥"

    def __repr__(self) -> str:
        return "⊥"

    __str__ = __repr__


BOTTOM: Final = Bottom.BOTTOM
"""⊥: the label of an unlabeled entry of a partially labeled database."""

Label: TypeAlias = int | Bottom
Dataset: TypeAlias = tuple[Hashable, ...]


def _check_label(y: object) -> Label:
    if y is BOTTOM:
        return BOTTOM
    if isinstance(y, bool) or not isinstance(y, int) or y not in (0, 1):
        raise UnknownLabel(f"label={y!r} must be 0, 1 or ⊥ (reference.data.BOTTOM)")
    return y


def labeled(x: Hashable, y: Label) -> tuple[Hashable, Label]:
    """The example (x, y); y must be 0, 1 or ⊥ (raises UnknownLabel otherwise)."""
    return (x, _check_label(y))


def unlabeled(x: Hashable) -> tuple[Hashable, Label]:
    """The partially labeled example (x, ⊥)."""
    return (x, BOTTOM)


def point_of(example: Hashable) -> Hashable:
    """x for a (partially) labeled example (x, y); the example itself otherwise."""
    if isinstance(example, tuple) and len(example) == 2 and (
            example[1] is BOTTOM or example[1] in (0, 1)):
        x: Hashable = example[0]
        return x
    return example


def label_of(example: Hashable) -> Label:
    """y of a (partially) labeled example (x, y); raises UnknownLabel for anything else."""
    if not (isinstance(example, tuple) and len(example) == 2):
        raise UnknownLabel(f"example={example!r} is not a labeled pair (x, y)")
    return _check_label(example[1])


def as_dataset(examples: Iterable[Hashable]) -> Dataset:
    """An immutable dataset from any iterable of hashable examples (lists become tuples)."""
    out: list[Hashable] = []
    for e in examples:
        if isinstance(e, list):
            e = tuple(e)
        hash(e)
        out.append(e)
    return tuple(out)


def nonempty_dataset(examples: Iterable[Hashable], name: str = "data") -> Dataset:
    """As :func:`as_dataset`, raising EmptyDataset (naming ``name``) when empty."""
    data = as_dataset(examples)
    check_nonempty(len(data), name)
    return data
