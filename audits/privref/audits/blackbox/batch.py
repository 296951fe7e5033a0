"""Outcomes of one chunk of draws: checked, made canonical, packed into a :class:`Batch`, merged.

Rules (docs/blackbox-outcomes.md): an outcome is a *number* (int, float,
numpy scalar; NaN and ±inf included), a *label* (any other hashable value:
str, bool, None, enums, frozensets, ...), or a *tuple*.  Lists, numpy arrays
and nested structures are converted to one canonical form, nested tuples of
Python scalars (:func:`canonical_outcome`), and the conversion is recorded in
:attr:`Batch.conversions`.  Tuples may vary in length and in the kind of their
entries (a sparse vector's answers up to its first ⊤); what must not vary is
the *class* of the outcome: every draw of one audit is a number, or every one
a label, or every one a tuple.  The first draw that breaks this raises
:class:`OutcomeError` naming it.  Refused outright: dicts and sets (no
canonical order; return a tuple), other unhashable values, ints beyond
the float range (``|x| >= 2**1024``), which no numeric event can read,
``None`` as a whole outcome (the target returned nothing; an abstention is a
label such as ``"⊥"``, and ``None`` inside a tuple is a label), values
compared by identity (generators, functions, instances of classes without
``__eq__``: no two draws would ever be equal, so every event would be empty),
and outcomes larger than :data:`MAX_OUTCOME_ENTRIES` entries or labels longer
than :data:`MAX_LABEL_LENGTH` characters (refused on the first draw, before
they cost memory).
"""

from __future__ import annotations

import enum
import inspect
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from .errors import OutcomeError

__all__ = ["MAX_LABEL_LENGTH", "MAX_OUTCOME_ENTRIES", "VARYING_TUPLE", "Batch", "canonical_outcome",
           "check_kinds", "conversion", "describe_outcome", "join_kinds", "make_batch",
           "merge_batches", "outcome_kind"]

Outcomes = np.ndarray | list[Hashable]

VARYING_TUPLE: Final = "tuple(varying)"
"""The kind of a batch of tuples whose lengths (or entry kinds) vary."""

_MAX_CONVERSIONS: Final = 8

MAX_OUTCOME_ENTRIES: Final = 256
"""Most numbers and labels one outcome may hold (all nesting levels together).  The cost of an
audit grows with it (every coordinate gets events; 1,000 coordinates at 20,000 samples took
116 s and 824 MB), so a larger outcome is refused on the first draw: audit a projection
(a few coordinates, or a statistic of the output) instead."""

MAX_LABEL_LENGTH: Final = 1024
"""Most characters (or bytes) of one str or bytes label."""


def _is_number(o: object) -> bool:
    return isinstance(o, int | float | np.integer | np.floating) and not isinstance(o, bool | np.bool_)


def outcome_kind(o: object) -> str:
    """The kind of an outcome: ``number``, ``label``, or ``tuple(k1, k2, ...)`` (entries' kinds, nested)."""
    if isinstance(o, tuple):
        return "tuple(" + ", ".join(outcome_kind(x) for x in o) + ")"
    return "number" if _is_number(o) else "label"


def _kind_class(kind: str) -> str:
    return "tuple" if kind.startswith("tuple(") else kind


def join_kinds(first: str, other: str) -> str | None:
    """The kind of a batch holding outcomes of both kinds, or None when they cannot mix.

    Equal kinds join to themselves; two tuple kinds to :data:`VARYING_TUPLE`;
    a number, a label and a tuple never mix.
    """
    if first == other:
        return first
    if _kind_class(first) == _kind_class(other) == "tuple":
        return VARYING_TUPLE
    return None


class _Refused(Exception):
    """An outcome with no canonical form (the message says why)."""


def canonical_outcome(o: object) -> Hashable:
    """The canonical form of one outcome: Python scalars, labels, and nested tuples of these.

    numpy scalars become Python scalars, every float NaN the one object
    ``math.nan`` (whatever its payload), 0-d arrays their scalar, lists and
    arrays (of any shape) nested tuples.  Raises OutcomeError for dicts, sets
    and other unhashable values.
    """
    try:
        return _canonical(o)
    except _Refused as exc:
        raise OutcomeError(f"outcome {describe_outcome(o)} is refused: {exc}") from None


def _canonical(o: object) -> Hashable:
    c = _canonical_entry(o)
    if isinstance(c, tuple) and len(c) and any(isinstance(x, tuple) for x in c) \
            and _entries(c) > MAX_OUTCOME_ENTRIES:
        raise _Refused(f"it holds {_entries(c)} entries, more than MAX_OUTCOME_ENTRIES="
                       f"{MAX_OUTCOME_ENTRIES}; audit a projection of the output instead")
    return c


def _entries(c: Hashable) -> int:
    return sum(_entries(x) for x in c) if isinstance(c, tuple) else 1


def _too_long(n: int) -> _Refused:
    return _Refused(f"it holds {n} entries, more than MAX_OUTCOME_ENTRIES={MAX_OUTCOME_ENTRIES}; "
                    "audit a projection of the output (a few coordinates or a statistic) instead")


def _canonical_entry(o: object) -> Hashable:
    if isinstance(o, bool | np.bool_):
        return bool(o)
    if isinstance(o, float | np.floating):
        x = float(o)
        return math.nan if math.isnan(x) else x
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.str_):
        return str(o)
    if isinstance(o, np.ndarray):
        if o.size > MAX_OUTCOME_ENTRIES:
            raise _too_long(o.size)
        return _canonical_entry(o.item()) if o.ndim == 0 else tuple(_canonical_entry(x) for x in o)
    if isinstance(o, tuple | list):
        if len(o) > MAX_OUTCOME_ENTRIES:
            raise _too_long(len(o))
        return tuple(_canonical_entry(x) for x in o)
    if isinstance(o, str | bytes) and len(o) > MAX_LABEL_LENGTH:
        raise _Refused(f"a label of {len(o)} characters, more than MAX_LABEL_LENGTH="
                       f"{MAX_LABEL_LENGTH}; return a shorter label or a digest of it")
    if isinstance(o, Mapping):
        raise _Refused("dicts have no canonical order; return a tuple of the values in a fixed "
                       "order, e.g. tuple(d[k] for k in sorted(d))")
    if isinstance(o, set):
        raise _Refused("sets are not hashable; return a frozenset or a sorted tuple")
    try:
        hash(o)
    except TypeError:
        raise _Refused("outcomes must be hashable: a number, a label, or a tuple, list or array "
                       "of these") from None
    if _by_identity(o):
        raise _Refused(_identity_reason(o))
    assert isinstance(o, Hashable)
    return o


def _by_identity(o: object) -> bool:
    """True when ``o``'s class compares by identity (object's ``__eq__``), so two draws that are
    the same value are still unequal; singletons (None, enum members, classes) are exempt."""
    if o is None or o is Ellipsis or isinstance(o, enum.Enum | type):
        return False
    return type(o).__eq__ is object.__eq__


def _identity_reason(o: object) -> str:
    if inspect.isgenerator(o):
        return ("a generator is compared by identity, so no two draws are equal; if the target "
                "is a probabilistic program (it yields its random choices), audit the generator "
                "function itself: privref samples it exactly (see privref.Mechanism)")
    return (f"a {type(o).__name__} is compared by identity (its class defines no __eq__), so no "
            "two draws are equal and every event would be empty; return a number, a str, a "
            "tuple of these, or give the class __eq__ and __hash__")


def _noun(entries: Sequence[object]) -> str:
    names = {"float" if isinstance(x, float | np.floating) else
             "int" if isinstance(x, int | np.integer) and not isinstance(x, bool | np.bool_) else
             "bool" if isinstance(x, bool | np.bool_) else
             "string" if isinstance(x, str) else "value" for x in entries}
    return (names.pop() if len(names) == 1 else "value") + ("" if len(entries) == 1 else "s")


def conversion(o: object) -> str:
    """How a raw outcome was converted to its canonical form ("" when it already was one).

    E.g. ``list of 3 floats``, ``ndarray shape (2,) float64``, ``nested list of 2 entries``,
    ``nested tuple of 2 entries``.
    """
    if isinstance(o, np.ndarray):
        return f"ndarray shape {o.shape} {o.dtype}"
    if isinstance(o, list | tuple):
        nested = any(isinstance(x, list | tuple | np.ndarray) for x in o)
        if nested:
            return f"nested {type(o).__name__} of {len(o)} entr{'y' if len(o) == 1 else 'ies'}"
        return f"list of {len(o)} {_noun(o)}" if isinstance(o, list) else ""
    return ""


@dataclass(frozen=True, slots=True)
class Batch:
    """Outcomes of one chunk (canonical, see :func:`canonical_outcome`), all of one ``kind``.

    ``values`` is a 1-D numpy array (int64 or float64, NaN and ±inf allowed)
    for numbers, a 2-D one whose rows are the outcomes for numeric tuples
    returned as a 2-D array by a vectorized target, else a list of hashable
    outcomes (tuples, labels).  ``first`` is the first outcome (for messages).
    ``conversions`` lists, in first-seen order (at most 8, then ``…``), how
    raw outcomes were converted (:func:`conversion`); empty when none was.
    """

    kind: str
    values: Outcomes
    first: Hashable
    conversions: tuple[str, ...] = ()

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
    except Exception:  # an int too long for repr nested somewhere, or a repr that raises
        text = f"<{type(o).__name__} that cannot be printed>"
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


def _merge_conversions(*groups: Sequence[str]) -> tuple[str, ...]:
    seen = list(dict.fromkeys(c for g in groups for c in g if c))
    if len(seen) > _MAX_CONVERSIONS:
        seen = [*seen[:_MAX_CONVERSIONS], "…"]
    return tuple(seen)


def make_batch(raw: Sequence[object] | np.ndarray, name: str, data: Sequence[object]) -> Batch:
    """Check, make canonical and pack raw outcomes (see the module docstring for the rules)."""
    if isinstance(raw, np.ndarray) and raw.ndim == 1 and raw.dtype.kind in "iuf":
        arr = raw.astype(np.float64 if raw.dtype.kind == "f" else np.int64)
        return Batch("number", arr, _canonical(raw[0]) if len(raw) else 0)
    if isinstance(raw, np.ndarray) and raw.ndim == 2 and raw.dtype.kind in "iuf" and raw.shape[1] > 0:
        if raw.shape[1] > MAX_OUTCOME_ENTRIES:
            raise OutcomeError(f"target {name} returned outcomes of {raw.shape[1]} entries on "
                               f"data={describe_outcome(list(data))}, more than "
                               f"MAX_OUTCOME_ENTRIES={MAX_OUTCOME_ENTRIES}; audit a projection of "
                               "the output (a few coordinates or a statistic) instead")
        arr = raw.astype(np.float64 if raw.dtype.kind == "f" else np.int64)
        head = _canonical(arr[0]) if len(arr) else ()
        return Batch(outcome_kind(head), arr, head)  # rows are the tuple outcomes
    items: list[object]
    if isinstance(raw, np.ndarray) and raw.ndim == 2:
        items = [tuple(r) for r in raw.tolist()]
    elif isinstance(raw, np.ndarray) and raw.ndim >= 3:
        items = list(raw)  # each row an array: converted, and recorded as such
    else:
        items = raw.tolist() if isinstance(raw, np.ndarray) else list(raw)
    if not items:
        return Batch("number", np.zeros(0, dtype=np.int64), 0)
    values: list[Hashable] = []
    conversions: dict[str, None] = {}
    kind = ""
    for i, o in enumerate(items):
        if o is None:
            raise OutcomeError(f"target {name} returned None (draw #{i}) on data="
                               f"{describe_outcome(list(data))}: it returned nothing (a missing "
                               "return?); an abstention must be a label such as '⊥'")
        try:
            c = _canonical(o)
        except _Refused as exc:
            raise OutcomeError(f"target {name} returned {describe_outcome(o)} ({type(o).__name__}) "
                               f"(draw #{i}) on data={describe_outcome(list(data))}; {exc}") from None
        if not isinstance(o, int | float | str | bool) and o is not None and len(conversions) <= 8:
            how = conversion(o)
            if how:
                conversions.setdefault(how)
        k = outcome_kind(c)
        joined = join_kinds(kind, k) if i else k
        if joined is None:
            raise OutcomeError(
                f"target {name} returned inconsistent outcomes on "
                f"data={describe_outcome(list(data))}: draw #{i} is {describe_outcome(c)} ({k}) "
                f"but draw #0 was {describe_outcome(values[0])} ({outcome_kind(values[0])}); "
                "every draw must be a number, or every one a label, or every one a tuple "
                "(docs/blackbox-outcomes.md)")
        kind = joined
        if _beyond_float(c):
            raise OutcomeError(f"target {name} returned {describe_outcome(c)} (draw #{i}) on "
                               f"data={describe_outcome(list(data))}; int outcomes must lie below 2**1024 in "
                               "absolute value (the float range), return a label (str) instead")
        values.append(c)
    first = values[0]
    converted = _merge_conversions(list(conversions))
    if kind == "number":
        try:
            arr = np.asarray(values, dtype=np.float64 if any(isinstance(v, float) for v in values)
                             else np.int64)
        except OverflowError:
            return Batch(kind, values, first, converted)
        return Batch(kind, arr, first, converted)
    return Batch(kind, values, first, converted)


def merge_batches(parts: list[Batch], name: str, data: Sequence[Hashable]) -> Batch:
    """One batch from the chunks of one side, in chunk order; OutcomeError if their kinds cannot mix.

    Kinds join as in :func:`join_kinds` (tuples of varying lengths mix; numbers, labels and
    tuples do not).  Empty chunks are ignored.
    """
    full = [p for p in parts if len(p)]
    if not full:
        return parts[0]
    kind, head = full[0].kind, full[0]
    for p in full[1:]:
        joined = join_kinds(kind, p.kind)
        if joined is None:
            raise OutcomeError(f"target {name} returned inconsistent outcomes on "
                               f"data={describe_outcome(list(data))}: {p.first!r} ({p.kind}) after "
                               f"{head.first!r} ({head.kind})")
        kind = joined
    converted = _merge_conversions(*(p.conversions for p in full))
    arrays = [p.values for p in full if isinstance(p.values, np.ndarray)]
    if len(arrays) == len(full) and len({a.shape[1:] for a in arrays}) == 1:
        return Batch(kind, np.concatenate(arrays), head.first, converted)
    values: list[Hashable] = []
    for p in full:
        values.extend(p.outcomes())
    return Batch(kind, values, head.first, converted)


def check_kinds(batches: dict[tuple[int, int], Batch],
                pairs: Mapping[int, tuple[Sequence[Hashable], Sequence[Hashable]]], name: str,
                reference_batch: list[tuple[Batch, Sequence[Hashable]]]) -> None:
    """OutcomeError unless every non-empty batch's kind can mix with ``reference_batch``'s (set on first use).

    ``batches`` is keyed by (candidate index, side); ``pairs`` maps an index to its pair.
    Kinds mix as in :func:`join_kinds`.
    """
    for (index, side), batch in sorted(batches.items()):
        if not len(batch):
            continue
        if not reference_batch:
            reference_batch.append((batch, pairs[index][side]))
            continue
        first, data = reference_batch[0]
        if join_kinds(first.kind, batch.kind) is None:
            raise OutcomeError(
                f"target {name} returned inconsistent outcomes: {batch.first!r} "
                f"({batch.kind}) on data={list(pairs[index][side])!r} but {first.first!r} "
                f"({first.kind}) on data={describe_outcome(list(data))}")
