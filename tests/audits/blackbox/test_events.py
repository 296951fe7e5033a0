"""Events: descriptions, membership semantics (NaN, unreadable outputs), layouts, selection."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.audits.blackbox.events import (
    NAN,
    Band,
    BinUnion,
    CoarseSet,
    FloatPattern,
    OutcomeSet,
    ScoreThreshold,
    Threshold,
    canonical,
    detect_layout,
    select_events,
)
from privref.reference.errors import InvalidArgument


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


def test_nan_outcomes_share_one_key() -> None:
    """NaN != NaN, yet every NaN (also inside tuples) is the same discrete outcome."""
    assert canonical(float("nan")) is NAN and canonical(np.float64("nan")) is NAN
    assert canonical((1, float("nan"))) == canonical((1, np.nan))
    assert OutcomeSet(frozenset({NAN})).mask([float("nan"), 1.0, np.nan]).tolist() == [True, False, True]


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


def test_layouts() -> None:
    """Numbers are scalars, equal-length numeric tuples vectors, anything else discrete."""
    assert detect_layout([1, 2, 3], [0.5]).kind == "scalar"
    assert detect_layout(np.zeros(4), np.ones(3)).kind == "scalar"
    assert detect_layout([(1.0, 2.0)], [(0, 1)]) .kind == "vector"
    assert detect_layout(np.zeros((3, 2)), np.ones((2, 2))).dim == 2
    assert detect_layout([(1, 2)], [(1, 2, 3)]).kind == "other"
    mixed = detect_layout([(None, 2.5), (1.0, None)], [(None, None), (0.5, 1.5)])
    assert (mixed.kind, mixed.dim, mixed.discrete) == ("mixed", 2, True)
    assert detect_layout(["a", "b"], ["a"]).kind == "other"
    assert detect_layout([True, False], [True]).kind == "other"
    floats = np.random.default_rng(0).normal(size=200)
    assert not detect_layout(floats, floats + 1).discrete  # all distinct: no ranked outcomes
    assert detect_layout([0, 1] * 50, [1, 2] * 50).discrete


def test_selection_finds_the_likely_outcome_and_direction() -> None:
    """Randomized-response-like counts: {0} with P = M(a), or {1} with P = M(b)."""
    a = [0] * 75 + [1] * 25
    b = [0] * 25 + [1] * 75
    best = select_events(a, b, held_a=100, held_b=100, delta=Fraction(0),
                         alpha_side=Fraction(1, 40))[0]
    assert (best.event.mask([0, 1]).tolist(), best.direction) in (
        ([True, False], "a→b"), ([False, True], "b→a"))


def test_selection_prefers_the_full_threshold_for_shifted_integers() -> None:
    """Geometric-like data shifted by one: a half-line threshold event, not a lucky small set."""
    rng = np.random.default_rng(7)
    a = (rng.geometric(0.5, 4000) - rng.geometric(0.5, 4000)).tolist()
    b = (rng.geometric(0.5, 4000) - rng.geometric(0.5, 4000) + 1).tolist()
    best = select_events(a, b, held_a=4000, held_b=4000, delta=Fraction(0),
                         alpha_side=Fraction(1, 40))[0]
    inside = best.event.mask(list(range(-6, 7))).tolist()
    lower = [o <= 0 for o in range(-6, 7)]
    expected = lower if best.direction == "a→b" else [not x for x in lower]
    assert sum(x == y for x, y in zip(inside, expected, strict=True)) >= 11


def test_selection_returns_distinct_candidates_and_always_one() -> None:
    """count caps the result; identical samples still yield an event (whose bound will be 0)."""
    a = list(range(10)) * 5
    chosen = select_events(a, a, held_a=50, held_b=50, delta=Fraction(0),
                           alpha_side=Fraction(1, 40), count=3)
    assert 1 <= len(chosen) <= 3
    keys = {(c.direction, c.hits_a, c.hits_b) for c in chosen}
    assert len(keys) == len(chosen)


def test_vectors_get_coordinate_and_learned_events() -> None:
    """A shift in coordinate 1 of 3 is found by a coordinate threshold or a learned score."""
    rng = np.random.default_rng(3)
    a = rng.laplace(size=(3000, 3))
    b = rng.laplace(size=(3000, 3)) + np.array([0.0, 1.0, 0.0])
    best = select_events(a, b, held_a=3000, held_b=3000, delta=Fraction(0),
                         alpha_side=Fraction(1, 40))[0]
    text = best.event.describe()
    assert "output[1]" in text or "score" in text


def test_selection_refuses_empty_splits() -> None:
    """Both sides need outcomes; count must be positive."""
    with pytest.raises(InvalidArgument, match="at least one outcome per side"):
        select_events([], [1], held_a=1, held_b=1, delta=Fraction(0), alpha_side=Fraction(1, 4))
    with pytest.raises(InvalidArgument, match="count=0 must be >= 1"):
        select_events([1], [1], held_a=1, held_b=1, delta=Fraction(0), alpha_side=Fraction(1, 4),
                      count=0)


def test_selection_does_not_depend_on_the_hash_seed() -> None:
    """String outcomes hash differently per process; the chosen event must not change with it."""
    code = ("import numpy as np; from fractions import Fraction; "
            "from audits.blackbox.estimate import estimate_pair; "
            "rng = np.random.default_rng(4); "
            "xs = [[[f's{v}' for v in rng.integers(0, 40, 300)] for _ in range(2)] for _ in range(20)]; "
            "print([estimate_pair(a, b, epsilon=1, delta=0, alpha=Fraction(1, 10)).event "
            "for a, b in xs])")
    outputs = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, check=True, cwd=Path(__file__).resolve().parents[3])
        outputs.add(done.stdout)
    assert len(outputs) == 1


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


def test_selection_sees_the_floating_point_laplace_leak_only_with_float_events() -> None:
    """count + float Laplace (Mironov 2012): an IEEE-754 pattern event separates 0 from 1; without
    float events the best event is an ordinary interval whose ratio stays near e^1."""
    rng = np.random.default_rng(11)
    a, b = rng.laplace(0.0, 1.0, 4000), 1.0 + rng.laplace(0.0, 1.0, 4000)
    best = select_events(a, b, held_a=4000, held_b=4000, delta=Fraction(0),
                         alpha_side=Fraction(1, 40))[0]
    assert isinstance(best.event, FloatPattern) and best.direction == "a→b"
    fresh_a, fresh_b = rng.laplace(0.0, 1.0, 4000), 1.0 + rng.laplace(0.0, 1.0, 4000)
    assert best.event.count(fresh_a) > 20 * max(1, best.event.count(fresh_b))
    plain = select_events(a, b, held_a=4000, held_b=4000, delta=Fraction(0),
                          alpha_side=Fraction(1, 40), float_events=False)[0]
    assert not isinstance(plain.event, FloatPattern)


def test_selection_finds_atom_patterns_in_sparse_outputs() -> None:
    """Outputs with -inf where a query was not answered: the pattern of answered positions leaks."""
    rng = np.random.default_rng(5)

    def draw(p: float, n: int) -> np.ndarray:
        answered = rng.random((n, 6)) < p
        return np.where(answered, rng.normal(size=(n, 6)), -math.inf)

    a, b = draw(0.3, 3000), draw(0.6, 3000)
    best = select_events(a, b, held_a=3000, held_b=3000, delta=Fraction(0),
                         alpha_side=Fraction(1, 40), float_events=False)[0]
    # e.g. no answer: 0.7^6 = 0.118 vs 0.4^6 = 0.004; all answered: 0.3^6 vs 0.6^6 (ratio 64)
    assert isinstance(best.event, (CoarseSet, ScoreThreshold))  # atoms read apart from values
    p, q = (draw(0.3, 3000), draw(0.6, 3000))[:: 1 if best.direction == "a→b" else -1]
    assert best.event.count(p) > 8 * max(1, best.event.count(q))
