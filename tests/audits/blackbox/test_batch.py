"""Batches: canonical outcomes, kinds that may mix (tuples of any length) and kinds that may not."""

from __future__ import annotations

import math
import struct
from collections.abc import Hashable, Sequence

import numpy as np
import pytest

from privref.audits.blackbox.batch import (
    VARYING_TUPLE,
    Batch,
    canonical_outcome,
    check_kinds,
    conversion,
    join_kinds,
    make_batch,
    merge_batches,
)
from privref.audits.blackbox.errors import OutcomeError


def _nan_with_payload(payload: int) -> float:
    value: float = struct.unpack("<d", struct.pack("<Q", 0x7FF8_0000_0000_0000 | payload))[0]
    return value


def test_canonical_form_is_nested_tuples_of_python_scalars() -> None:
    """numpy scalars, 0-d arrays, lists and arrays of any shape become Python scalars and tuples."""
    assert canonical_outcome(np.int64(3)) == 3 and type(canonical_outcome(np.int64(3))) is int
    assert type(canonical_outcome(np.float32(0.5))) is float
    assert canonical_outcome(np.bool_(True)) is True
    assert type(canonical_outcome(np.str_("x"))) is str
    assert canonical_outcome(np.array(2.5)) == 2.5
    assert canonical_outcome([1, [2.0, np.int8(3)]]) == (1, (2.0, 3))
    assert canonical_outcome(np.arange(4).reshape(2, 2)) == ((0, 1), (2, 3))
    assert canonical_outcome((None, "a", [True])) == (None, "a", (True,))


def test_every_nan_is_one_object() -> None:
    """Every NaN (any payload, numpy or not, nested) becomes the one object math.nan, so equal outcomes
    compare equal (tuples and lists compare entries by identity first)."""
    odd = _nan_with_payload(12345)
    assert math.isnan(odd)
    assert canonical_outcome(odd) is math.nan and canonical_outcome(np.float32("nan")) is math.nan
    assert canonical_outcome([odd, 1.0]) == canonical_outcome((np.nan, 1.0))


def test_dicts_sets_and_unhashables_are_refused_with_the_reason() -> None:
    """The documented choice: dicts are refused (no canonical order), sets too; draw and data are named."""
    with pytest.raises(OutcomeError, match=r"target t returned \{'a': 1\} \(dict\) \(draw #1\) on "
                                           r"data=\[0\]; dicts have no canonical order"):
        make_batch([(1,), {"a": 1}], "t", [0])
    with pytest.raises(OutcomeError, match="dicts have no canonical order"):
        make_batch([[1, {"a": 1}]], "t", [0])  # nested too
    with pytest.raises(OutcomeError, match="return a frozenset or a sorted tuple"):
        make_batch([{1, 2}], "t", [0])
    with pytest.raises(OutcomeError, match="must be hashable"):
        make_batch([bytearray(b"x")], "t", [0])
    with pytest.raises(OutcomeError, match="below 2\\*\\*1024"):
        make_batch([(1, 2**1024)], "t", [0])
    assert make_batch([frozenset({1})], "t", [0]).kind == "label"


def test_variable_length_tuples_are_one_batch() -> None:
    """A sparse vector's outputs (answers up to the first ⊤) are accepted; the batch kind says they vary."""
    raw = [(False, False, True), (True,), (False, False, False, False)]
    batch = make_batch(raw, "svt", [0])
    assert batch.kind == VARYING_TUPLE and batch.values == raw and batch.conversions == ()
    same = make_batch([(1, 2), (3, 4)], "t", [0])
    assert same.kind == "tuple(number, number)"  # one length: the precise kind, as before
    assert make_batch([(1, "a"), (None, 2.5)], "t", [0]).kind == VARYING_TUPLE


@pytest.mark.parametrize(("raw", "message"), [
    ([(1, 2), 3], r"draw #1 is 3 \(number\) but draw #0 was \(1, 2\) \(tuple\(number, number\)\)"),
    ([1.5, "x"], r"draw #1 is 'x' \(label\) but draw #0 was 1.5 \(number\)"),
    (["a", (1,)], r"draw #1 is \(1,\) \(tuple\(number\)\) but draw #0 was 'a' \(label\)"),
    ([[1], 2], r"draw #1 is 2 \(number\) but draw #0 was \(1,\) \(tuple\(number\)\)"),
])
def test_genuinely_inconsistent_outcomes_are_refused(raw: list[object], message: str) -> None:
    """A number after a tuple, a label after a number, a tuple after a label: OutcomeError naming both."""
    with pytest.raises(OutcomeError, match="target t returned inconsistent outcomes on data=\\[0\\]: "
                                           + message):
        make_batch(raw, "t", [0])


def test_lists_arrays_and_nested_outputs_are_converted_and_recorded() -> None:
    """Conversions are recorded in first-seen order (the report can say what was converted)."""
    batch = make_batch([[0.5, 1.5, 2.5], [1.0, 2.0, 3.0]], "t", [0])
    assert batch.values == [(0.5, 1.5, 2.5), (1.0, 2.0, 3.0)] and batch.conversions == ("list of 3 floats",)
    assert batch.kind == "tuple(number, number, number)"
    arrays = make_batch([np.array([1.0, 2.0]), np.array([3.0])], "t", [0])
    assert arrays.values == [(1.0, 2.0), (3.0,)] and arrays.kind == VARYING_TUPLE
    assert arrays.conversions == ("ndarray shape (2,) float64", "ndarray shape (1,) float64")
    nested = make_batch([[[1, 2], [3]]], "t", [0])
    assert nested.values == [((1, 2), (3,))] and nested.conversions == ("nested list of 2 entries",)
    cube = make_batch(np.zeros((2, 2, 2), dtype=np.int64), "t", [0])  # a vectorized 3-D array
    assert cube.values == [((0, 0), (0, 0))] * 2 and cube.conversions == ("ndarray shape (2, 2) int64",)
    assert conversion((1, 2)) == "" and conversion(3.0) == "" and conversion(["a"]) == "list of 1 string"
    assert conversion([1, "a"]) == "list of 2 values" and conversion(((1,), 2)) == "nested tuple of 2 entries"


def test_nan_and_infinity_are_ordinary_numbers() -> None:
    """NaN and ±inf are numbers: kept in the packed arrays (scalar, vectorized and tuple forms)."""
    scalar = make_batch([0.5, math.nan, -math.inf], "t", [0])
    assert scalar.kind == "number" and isinstance(scalar.values, np.ndarray)
    assert np.isnan(scalar.values[1]) and scalar.values[2] == -math.inf
    column = make_batch(np.array([np.nan, 1.0]), "t", [0])  # a vectorized 1-D array
    assert column.kind == "number" and isinstance(column.values, np.ndarray) and np.isnan(column.values[0])
    vectorized = make_batch(np.array([[1.0, np.nan], [np.inf, 0.0]]), "t", [0])
    assert vectorized.kind == "tuple(number, number)" and isinstance(vectorized.values, np.ndarray)
    assert np.isnan(vectorized.values[0, 1])
    (row,) = make_batch([(np.float64("nan"), 1)], "t", [0]).values
    assert isinstance(row, tuple) and row[0] is math.nan


def _batch(values: list[object] | np.ndarray) -> Batch:
    return make_batch(values, "t", [0])


def test_merge_accepts_varying_tuples_and_refuses_other_mixes() -> None:
    """Chunks of tuples of other lengths (even 2-D arrays of other widths) merge into a list; a number
    chunk after a tuple chunk is refused; empty chunks are ignored."""
    wide, narrow = _batch(np.zeros((2, 3))), _batch(np.ones((1, 2)))
    merged = merge_batches([wide, _batch([]), narrow], "t", [0])
    assert merged.kind == VARYING_TUPLE and merged.values == [(0.0, 0.0, 0.0)] * 2 + [(1.0, 1.0)]
    packed = merge_batches([wide, wide], "t", [0])
    assert isinstance(packed.values, np.ndarray) and packed.values.shape == (4, 3)
    lists = merge_batches([_batch([[1.0]]), _batch([np.array([2])])], "t", [0])
    assert lists.conversions == ("list of 1 float", "ndarray shape (1,) int64")
    with pytest.raises(OutcomeError, match=r"inconsistent outcomes on data=\[0\]: 5 \(number\) after "
                                           r"\(1,\) \(tuple\(number\)\)"):
        merge_batches([_batch([(1,)]), _batch([5])], "t", [0])
    assert join_kinds("number", "label") is None and join_kinds("tuple(label)", "tuple()") == VARYING_TUPLE


def test_check_kinds_across_pairs() -> None:
    """Tuples of other lengths on other inputs pass; a label where tuples were seen is refused."""
    pairs: dict[int, tuple[Sequence[Hashable], Sequence[Hashable]]] = {0: ((0,), (1,)), 1: ((2,), (3,))}
    seen: list[tuple[Batch, Sequence[Hashable]]] = []
    check_kinds({(0, 0): _batch([(True,)]), (0, 1): _batch([(False, True)])}, pairs, "t", seen)
    check_kinds({(1, 0): _batch([(False, False, False)])}, pairs, "t", seen)
    with pytest.raises(OutcomeError, match=r"'x' \(label\) on data=\[3\] but \(True,\) "
                                           r"\(tuple\(label\)\) on data=\[0\]"):
        check_kinds({(1, 1): _batch(["x"])}, pairs, "t", seen)
