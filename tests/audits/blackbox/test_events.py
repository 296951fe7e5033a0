"""Events: descriptions, membership semantics (NaN, unreadable outputs, numpy and lists alike)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from privref.audits.blackbox.events import (
    Band,
    BinUnion,
    CoarseSet,
    FloatPattern,
    Leading,
    Length,
    OutcomeSet,
    Padded,
    PrefixSet,
    Threshold,
    leading,
)
from privref.audits.blackbox.outcomes import ABSENT, NAN, OVERFLOW


def test_descriptions_are_readable() -> None:
    """Sets, thresholds, intervals, complements, coordinates and merged bins read like math."""
    assert OutcomeSet(frozenset({4, 3})).describe() == "output in {3, 4}"
    assert OutcomeSet(frozenset({"x", 1})).describe() in ("output in {'x', 1}", "output in {1, 'x'}")
    assert Threshold(None, 1, 1.27, True).describe() == "output > 1.27"
    assert Threshold(None, 1, 0.0, False).describe() == "output <= 0"
    assert Threshold(2, 3, 0.5, False).describe() == "output[2] <= 0.5"
    assert Band(None, 1, -0.5, 2.0, True).describe() == "-0.5 < output <= 2"
    assert Band(None, 1, -0.5, 2.0, False).describe() == "output <= -0.5 or output > 2"
    bins = BinUnion(None, 1, (0.0, 1.0, 2.0), frozenset({0, 1, 3}))
    assert bins.describe() == "output in (-inf, 1] ∪ (2, inf)"
    many = OutcomeSet(frozenset(range(20))).describe()
    assert many.startswith("output in {0, 1, 2") and "(20 outcomes)" in many


def test_membership_reads_lists_and_arrays_alike() -> None:
    """The same outcomes give the same mask as a list, a numpy array, or numpy scalars."""
    values = [-1.5, 0.0, 0.25, 3.0]
    event = Band(None, 1, 0.0, 3.0, True)
    expected = [False, False, True, True]
    assert event.mask(values).tolist() == expected
    assert event.mask(np.array(values)).tolist() == expected
    assert event.mask([np.float64(v) for v in values]).tolist() == expected
    vec = Threshold(1, 2, 0.5, True)
    rows = [(0.0, 1.0), (9.0, 0.0)]
    assert vec.mask(rows).tolist() == vec.mask(np.array(rows)).tolist() == [True, False]


def test_unreadable_outputs_are_outside_every_numeric_event() -> None:
    """NaN, strings, None and wrong-length vectors are in no threshold, band or bin event."""
    odd: list[Any] = [math.nan, "3", None, (1.0,)]
    for event in (Threshold(None, 1, 0.0, True), Threshold(None, 1, 0.0, False),
                  Band(None, 1, -1.0, 1.0, True), Band(None, 1, -1.0, 1.0, False),
                  BinUnion(None, 1, (0.0,), frozenset({0, 1}))):
        assert not event.mask(odd).any()
    assert not Threshold(0, 2, 0.0, False).mask([(1.0, 2.0, 3.0), "x", (math.nan, 0.0)]).any()


def test_outcome_sets_canonicalize_numpy_and_lists() -> None:
    """np.int64(3) is the outcome 3; a list output is the tuple with the same entries."""
    event = OutcomeSet(frozenset({3, (1, 2)}))
    assert event.mask([np.int64(3), [1, 2], (1, 2), 4]).tolist() == [True, True, True, False]
    assert event.count(np.array([3, 3, 4])) == 2


@given(st.lists(st.one_of(st.floats(allow_nan=True), st.integers(-5, 5), st.text(max_size=2)),
                max_size=30), st.lists(st.floats(-3, 3), min_size=1, max_size=4))
def test_membership_is_elementwise(outcomes: list[Any], cuts: list[float]) -> None:
    """An outcome's membership never depends on the other outcomes (events are fixed sets)."""
    events = [Threshold(None, 1, cuts[0], True), Band(None, 1, min(cuts), max(cuts), False),
              BinUnion(None, 1, tuple(sorted(set(cuts))), frozenset({0})),
              OutcomeSet(frozenset({1, "a"}))]
    for event in events:
        whole = event.mask(outcomes).tolist()
        assert whole == [bool(event.mask([o])[0]) for o in outcomes]


def test_structural_events_read_bits_and_patterns() -> None:
    """Float patterns: non-numbers outside, NaN its own class; patterns: bins and atoms per coordinate."""
    from privref.audits.blackbox.features import float_pattern
    keys = frozenset(int(k) for k in float_pattern(np.array([0.375, math.nan])).tolist())
    event = FloatPattern(None, 1, keys)
    assert event.mask([0.375, 0.75, math.nan, "x", None, 0.375 + 2**-50]).tolist() == [
        True, False, True, False, False, False]
    assert event.describe().startswith("output as a double in ")
    pattern = CoarseSet(2, ((0.0,), (0.0,)), frozenset({(-1, 1), (0, -3)}))
    rows = [(-math.inf, 2.0), (-1.0, None), (-1.0, math.nan), (-math.inf, -2.0), (1.0,), "x"]
    assert pattern.mask(rows).tolist() == [True, True, True, False, False, False]
    assert pattern.mask(np.array([[-math.inf, 2.0], [3.0, 3.0]])).tolist() == [True, False]
    assert pattern.describe() == "output coordinate-wise in {(-inf, (0, inf)), ((-inf, 0], nan)}"


SPARSE: list[Any] = [(False, False, True), (True,), (False, False, False, False), [False, True],
                     np.array([False, False, True]), (), 7, "x"]


def test_length_events() -> None:
    """{len = k}, {len <= k}, {len >= k}: lists and arrays count like tuples, non-tuples are outside."""
    assert Length(2, "<=").describe() == "len(output) <= 2"
    assert Length(3, "=").mask(SPARSE).tolist() == [True, False, False, False, True, False, False, False]
    assert Length(2, "<=").mask(SPARSE).tolist() == [False, True, False, True, False, True, False, False]
    assert Length(3, ">=").mask(SPARSE).tolist() == [True, False, True, False, True, False, False, False]
    assert Length(2, "=").mask(np.zeros((3, 2))).tolist() == [True] * 3


def test_prefix_events() -> None:
    """First k entries, completed with absent when the output is shorter; non-tuples are outside."""
    event = PrefixSet(2, frozenset({(False, False), (True, ABSENT)}))
    assert event.mask(SPARSE).tolist() == [True, True, True, False, True, False, False, False]
    assert PrefixSet(0, frozenset({()})).mask(SPARSE).tolist() == [True] * 6 + [False] * 2
    assert PrefixSet(1, frozenset({(NAN,)})).mask([(math.nan, 1), (1.0,)]).tolist() == [True, False]
    assert event.describe() in ("output[:2] in {(False, False), (True, absent)}",
                                "output[:2] in {(True, absent), (False, False)}")


def test_padded_events_read_rows_padded_and_overflowing() -> None:
    """Rows shorter than L end with absent; longer ones keep L - 1 entries and end with overflow."""
    whole = Padded(OutcomeSet(frozenset({(False, True, ABSENT), (False, False, OVERFLOW)})), 3)
    assert whole.mask(SPARSE).tolist() == [False, False, True, True, False, False, False, False]
    assert whole.describe().endswith("[output padded to length 3 with absent]")
    coordinate = Padded(Threshold(1, 3, 0.0, True), 3)  # absent and overflow are not numbers
    assert coordinate.mask([(0.0, 1.0), (0.0,), (0.0, 1.0, 2.0, 3.0), (5.0, 2.0, None)]).tolist() == [
        True, False, True, True]
    assert Padded(Threshold(2, 3, 0.0, True), 3).mask([(0.0, 1.0, 2.0, 3.0), (0.0, 1.0, 2.0)]).tolist() == [
        False, True]


def test_variable_length_events_count_chunk_by_chunk() -> None:
    """No event learns from what it counts: counts over chunks add up to the count over the whole."""
    rng = np.random.default_rng(2)
    rows: list[Any] = [tuple(rng.integers(0, 2, int(rng.integers(1, 6))).tolist()) for _ in range(300)]
    events = [Length(3, ">="), PrefixSet(2, frozenset({(0, 1), (1, ABSENT)})),
              Padded(OutcomeSet(frozenset({(0, 0, 1, ABSENT), (1, 1, 1, OVERFLOW)})), 4),
              Padded(Threshold(2, 4, 0.5, True), 4)]
    for event in events:
        whole = event.count(rows)
        assert 0 < whole < len(rows)
        assert sum(event.count(rows[i:i + 37]) for i in range(0, len(rows), 37)) == whole


def test_outcome_set_on_integer_arrays_is_membership_by_python_equality() -> None:
    # the vectorized path for integer arrays must agree with canonical-key membership,
    # including Python's 1 == True == 1.0 and members of other widths or types
    from privref.audits.blackbox.events import OutcomeSet

    event = OutcomeSet(frozenset({(0, 1), (1, True), (2.0, 0), (0.5, 0), ("x", 1), (3,), 7}))
    rows = np.array([[0, 1], [1, 1], [2, 0], [0, 0], [3, 3], [1, 0]], dtype=np.int64)
    slow = [tuple(r) in event.outcomes for r in rows.tolist()]
    assert event.mask(rows).tolist() == slow == [True, True, True, False, False, False]
    assert event.count(rows) == 3
    scalars = np.array([7, 3, 0, 7], dtype=np.int64)
    assert event.mask(scalars).tolist() == [True, False, False, True]
    assert event.mask(rows.astype(np.bool_)).tolist() == [
        tuple(r) in event.outcomes for r in rows.astype(np.bool_).tolist()]
    # chunks add up to the whole
    assert event.count(rows[:2]) + event.count(rows[2:]) == event.count(rows)


def test_leading_events_count_the_atoms_before_the_first_finite_entry() -> None:
    """Rows: answered at 0; two atoms then 0.5; three atoms (-inf, nan, None read as nan) then 3;
    never answered; a row of another length.  Each event's membership by hand."""
    inf = math.inf
    rows: list[Any] = [(1.0, -inf, -inf, -inf), (-inf, -inf, 0.5, -inf), (-inf, math.nan, None, 3.0),
                       (-inf, -inf, -inf, -inf), (0.0, 0.0)]
    lead, first = leading(np.array([[1.0, -inf], [-inf, 2.0], [-inf, math.nan]]))
    assert lead.tolist() == [0, 1, 2] and first[:2].tolist() == [1.0, 2.0] and math.isnan(first[2])
    assert Leading(4, 2, 1.0, False).mask(rows).tolist() == [False, True, False, True, False]
    assert Leading(4, 2, 1.0, True).mask(rows).tolist() == [False, False, True, False, False]
    assert Leading(4, 2, 1.0, False, exact=True).mask(rows).tolist() == [False, True, False, False, False]
    assert Leading(4, 0, inf, False).mask(rows).tolist() == [True, True, True, True, False]
    assert Leading(4, 3, inf, False, exact=True).mask(rows).tolist() == [False, False, True, False, False]
    assert "exactly 2 non-finite entries" in Leading(4, 2, 1.0, False, exact=True).describe()
    assert "(or there is none)" in Leading(4, 2, 1.0, False).describe()
