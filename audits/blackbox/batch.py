"""Outcomes of one chunk of draws: checked, packed into a :class:`Batch`, merged across chunks.

Rules (docs/blackbox.md, "Outcomes"): numbers (int, float, numpy scalars),
other hashable values ("labels": str, bool, None, enums, ...), or tuples of
these.  Every draw of one audit must have the same *kind* (number, label, or
tuple of a fixed arity with a fixed kind per position); the first draw that
breaks this raises :class:`OutcomeError` naming it.  NaN is refused, and so is
an int beyond the float range (``|x| >= 2**1024``), which no numeric event can read.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .errors import OutcomeError

__all__ = ["Batch", "check_kinds", "describe_outcome", "make_batch", "merge_batches",
           "outcome_kind"]

Outcomes = np.ndarray | list[Hashable]


def _scalar_kind(o: object) -> str:
    if isinstance(o, bool | np.bool_):
        return "label"
    if isinstance(o, int | float | np.integer | np.floating):
        return "number"
    return "label"


def outcome_kind(o: object) -> str:
    """The kind of an outcome: ``number``, ``label``, or ``tuple(k1, k2, ...)``."""
    if isinstance(o, tuple):
        return "tuple(" + ", ".join(_scalar_kind(x) for x in o) + ")"
    return _scalar_kind(o)


def _normalize(o: object) -> Hashable:
    """numpy scalars become Python scalars, so equal outcomes hash and print alike."""
    if isinstance(o, np.bool_):
        return bool(o)
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, tuple):
        return tuple(_normalize(x) for x in o)
    assert isinstance(o, Hashable)
    return o


def _has_nan(o: object) -> bool:
    if isinstance(o, float):
        return math.isnan(o)
    if isinstance(o, tuple):
        return any(_has_nan(x) for x in o)
    return False


@dataclass(frozen=True, slots=True)
class Batch:
    """Outcomes of one chunk, all of one ``kind``.

    ``values`` is a 1-D numpy array (int64 or float64) for numbers, a 2-D
    one whose rows are the outcomes for numeric tuples returned as a 2-D
    array by a vectorized target, else a list of hashable outcomes (tuples,
    labels).  ``first`` is the first
    outcome (for messages).
    """

    kind: str
    values: Outcomes
    first: Hashable

    def __len__(self) -> int:
        return len(self.values)

    def outcomes(self) -> list[Hashable]:
        """The outcomes as hashable Python values (rows of a 2-D array as tuples)."""
        if isinstance(self.values, np.ndarray):
            rows = self.values.tolist()
            return [tuple(r) for r in rows] if self.values.ndim == 2 else list(rows)
        return list(self.values)


def describe_outcome(o: object) -> str:
    """A short repr of an outcome for messages (huge ints summarised, at most 80 characters)."""
    if isinstance(o, int) and not isinstance(o, bool) and o.bit_length() > 256:
        return _huge_int(o)
    try:
        text = repr(o)
    except ValueError:  # an int too long for repr, nested somewhere
        text = f"<{type(o).__name__} too large to print>"
    return text if len(text) <= 80 else text[:77] + "..."


def _huge_int(o: int) -> str:
    digits = math.floor((o.bit_length() - 1) * math.log10(2)) + 1
    return f"an int of about {'-' if o < 0 else ''}10**{digits - 1} ({digits} digits or so)"


_FLOAT_LIMIT = 2**1024


def _beyond_float(o: object) -> bool:
    if isinstance(o, int) and not isinstance(o, bool):
        return abs(o) >= _FLOAT_LIMIT
    if isinstance(o, tuple):
        return any(_beyond_float(x) for x in o)
    return False


def _check_hashable(o: object, name: str, data: Sequence[object]) -> None:
    try:
        hash(o)
    except TypeError:
        raise OutcomeError(
            f"target {name} returned {describe_outcome(o)} ({type(o).__name__}) on data={list(data)!r}; "
            "outcomes must be hashable: a number, a label, or a tuple of these") from None


def make_batch(raw: Sequence[object] | np.ndarray, name: str, data: Sequence[object]) -> Batch:
    """Check and pack raw outcomes (see the module docstring for the rules)."""
    if isinstance(raw, np.ndarray) and raw.ndim == 1 and raw.dtype.kind in "iuf":
        if raw.dtype.kind == "f" and bool(np.isnan(raw).any()):
            i = int(np.flatnonzero(np.isnan(raw))[0])
            raise OutcomeError(f"target {name} returned NaN (draw #{i}) on data={list(data)!r}; "
                               "NaN outcomes cannot be counted")
        arr = raw.astype(np.float64 if raw.dtype.kind == "f" else np.int64)
        return Batch("number", arr, _normalize(raw[0]) if len(raw) else 0)
    if isinstance(raw, np.ndarray) and raw.ndim == 2 and raw.dtype.kind in "iuf" and raw.shape[1] > 0:
        if raw.dtype.kind == "f" and bool(np.isnan(raw).any()):
            i = int(np.flatnonzero(np.isnan(raw).any(axis=1))[0])
            raise OutcomeError(f"target {name} returned NaN in draw #{i} on data={list(data)!r}; "
                               "NaN outcomes cannot be counted")
        arr = raw.astype(np.float64 if raw.dtype.kind == "f" else np.int64)
        head = tuple(arr[0].tolist()) if len(arr) else ()
        return Batch(outcome_kind(head), arr, head)  # rows are the tuple outcomes
    if isinstance(raw, np.ndarray) and raw.ndim == 2:
        rows: list[object] = [tuple(r) for r in raw.tolist()]
        return make_batch(rows, name, data)
    items = raw.tolist() if isinstance(raw, np.ndarray) else list(raw)
    values = [_normalize(o) if isinstance(o, np.generic | tuple) else o for o in items]
    if not values:
        return Batch("number", np.zeros(0, dtype=np.int64), 0)
    first = values[0]
    _check_hashable(first, name, data)
    kind = outcome_kind(first)
    for i, o in enumerate(values):
        _check_hashable(o, name, data)
        k = outcome_kind(o)
        if k != kind:
            raise OutcomeError(
                f"target {name} returned inconsistent outcomes on data={list(data)!r}: draw #{i} "
                f"is {describe_outcome(o)} ({k}) but draw #0 was {describe_outcome(first)} ({kind})")
        if _has_nan(o):
            raise OutcomeError(f"target {name} returned NaN in {describe_outcome(o)} (draw #{i}) on "
                               f"data={list(data)!r}; NaN outcomes cannot be counted")
        if _beyond_float(o):
            raise OutcomeError(f"target {name} returned {describe_outcome(o)} (draw #{i}) on "
                               f"data={list(data)!r}; int outcomes must lie below 2**1024 in "
                               "absolute value (the float range), return a label (str) instead")
    assert isinstance(first, Hashable)
    if kind == "number":
        try:
            arr = np.asarray(values, dtype=np.float64 if any(isinstance(v, float) for v in values)
                             else np.int64)
        except OverflowError:
            return Batch(kind, [v for v in values if isinstance(v, Hashable)], first)
        return Batch(kind, arr, first)
    return Batch(kind, [v for v in values if isinstance(v, Hashable)], first)


def merge_batches(parts: list[Batch], name: str, data: Sequence[Hashable]) -> Batch:
    """One batch from the chunks of one side, in chunk order; OutcomeError if their kinds differ."""
    kind = parts[0].kind
    for p in parts[1:]:
        if p.kind != kind and len(p):
            raise OutcomeError(f"target {name} returned inconsistent outcomes on "
                               f"data={list(data)!r}: {p.first!r} ({p.kind}) after "
                               f"{parts[0].first!r} ({kind})")
    if all(isinstance(p.values, np.ndarray) for p in parts):
        return Batch(kind, np.concatenate([p.values for p in parts if isinstance(p.values, np.ndarray)]),
                     parts[0].first)
    values: list[Hashable] = []
    for p in parts:
        values.extend(p.outcomes())
    return Batch(kind, values, parts[0].first)


def check_kinds(batches: dict[tuple[int, int], Batch],
                pairs: Mapping[int, tuple[Sequence[Hashable], Sequence[Hashable]]], name: str,
                reference_batch: list[tuple[Batch, Sequence[Hashable]]]) -> None:
    """OutcomeError unless every non-empty batch has the kind of ``reference_batch`` (set on first use).

    ``batches`` is keyed by (candidate index, side); ``pairs`` maps an index to its pair.
    """
    for (index, side), batch in sorted(batches.items()):
        if not len(batch):
            continue
        if not reference_batch:
            reference_batch.append((batch, pairs[index][side]))
            continue
        first, data = reference_batch[0]
        if batch.kind != first.kind:
            raise OutcomeError(
                f"target {name} returned inconsistent outcomes: {batch.first!r} "
                f"({batch.kind}) on data={list(pairs[index][side])!r} but {first.first!r} "
                f"({first.kind}) on data={list(data)!r}")
