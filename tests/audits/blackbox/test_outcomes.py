"""Outcomes: canonical keys (NaN, numpy scalars, lists) and the layout of a selection split."""

from __future__ import annotations

import numpy as np

from privref.audits.blackbox.events import OutcomeSet
from privref.audits.blackbox.outcomes import NAN, canonical, detect_layout


def test_nan_outcomes_share_one_key() -> None:
    """NaN != NaN, yet every NaN (also inside tuples) is the same discrete outcome."""
    assert canonical(float("nan")) is NAN and canonical(np.float64("nan")) is NAN
    assert canonical((1, float("nan"))) == canonical((1, np.nan))
    assert OutcomeSet(frozenset({NAN})).mask([float("nan"), 1.0, np.nan]).tolist() == [True, False, True]


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
