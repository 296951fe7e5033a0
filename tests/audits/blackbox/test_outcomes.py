"""Outcomes: canonical keys (NaN, numpy scalars, lists) and the layout of a selection split."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

from privref.audits.blackbox.events import OutcomeSet
from privref.audits.blackbox.outcomes import (
    ABSENT,
    DEEP_FINE_COUNT,
    DEEP_STEPS,
    NAN,
    OVERFLOW,
    canonical,
    deep_cuts,
    detect_layout,
    lengths,
    padded_rows,
    prefix_keys,
    quantile_cuts,
    tail_cuts,
)
from privref.reference.errors import InvalidArgument


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
    varying = detect_layout([(1, 2)], [(1, 2, 3)])  # varying lengths: read padded to the longest
    assert (varying.kind, varying.dim, varying.discrete, varying.padded) == ("mixed", 3, True, True)
    assert detect_layout([(1, 2)], [3]).kind == "other"
    mixed = detect_layout([(None, 2.5), (1.0, None)], [(None, None), (0.5, 1.5)])
    assert (mixed.kind, mixed.dim, mixed.discrete) == ("mixed", 2, True)
    assert detect_layout(["a", "b"], ["a"]).kind == "other"
    assert detect_layout([True, False], [True]).kind == "other"
    floats = np.random.default_rng(0).normal(size=200)
    assert not detect_layout(floats, floats + 1).discrete  # all distinct: no ranked outcomes
    assert detect_layout([0, 1] * 50, [1, 2] * 50).discrete


def test_atoms_survive_pickling() -> None:
    """Events go to worker processes: the atoms are equal by value after a pickle round trip."""
    for atom in (NAN, ABSENT, OVERFLOW):
        assert pickle.loads(pickle.dumps(atom)) == atom
    assert len({NAN, ABSENT, OVERFLOW, "nan", "absent", None}) == 6
    event = OutcomeSet(frozenset({(1, ABSENT)}))
    assert pickle.loads(pickle.dumps(event)).mask([(1,), (1, 2)]).tolist() == [False, False]
    assert OutcomeSet(frozenset({(1, ABSENT)})).mask(padded_rows([(1,), (1, 2)], 2)).tolist() == [True, False]


def test_canonical_keys_of_arrays_and_refusals() -> None:
    """0-d arrays are scalars, arrays nested tuples; dicts and sets are refused with the reason."""
    assert canonical(np.array(1.5)) == 1.5 and canonical(np.ones((1, 2))) == ((1.0, 1.0),)
    assert canonical([math.nan, [1]]) == (NAN, (1,))
    with pytest.raises(InvalidArgument, match="dicts and sets are refused"):
        canonical({"a": 1})
    with pytest.raises(InvalidArgument, match="dicts and sets are refused"):
        canonical({1})


def test_padding_prefixes_and_lengths() -> None:
    """Padded rows have exactly L entries (absent after the end; overflow ends a longer row);
    prefixes are completed with absent; non-tuples pass through and have no length."""
    rows = [(1,), [1, 2, 3], np.array([4, 5]), (1, 2, 3, 4), "x"]
    assert padded_rows(rows, 3) == [(1, ABSENT, ABSENT), (1, 2, 3), (4, 5, ABSENT), (1, 2, OVERFLOW), "x"]
    assert padded_rows(np.zeros((2, 2)), 2) == [(0.0, 0.0)] * 2
    assert prefix_keys(rows, 2) == [(1, ABSENT), (1, 2), (4, 5), (1, 2), "x"]
    size, ok = lengths(rows)
    assert size.tolist() == [1, 3, 2, 4, 0] and ok.tolist() == [True] * 4 + [False]
    with pytest.raises(InvalidArgument, match="length=0 must be >= 1"):
        padded_rows(rows, 0)


def test_variable_length_layouts() -> None:
    """Tuples of varying lengths (bools, strings, numbers, None) are read padded to the longest."""
    svt = detect_layout([(False, True), (True,)], [(False, False, False)])
    assert (svt.kind, svt.dim, svt.padded) == ("mixed", 3, True)
    assert detect_layout([("a",), ("b", "c")], [("a",)]).padded
    assert detect_layout([(), (1.0,)], [(2.0, None)]).dim == 2
    assert detect_layout([()], [()]).kind == "other"
    assert not detect_layout([(1, 2)], [(3, 4)]).padded


def test_tail_cuts_sit_at_the_order_statistics_of_masses_delta_times_powers_of_two() -> None:
    """n = 1000 values 0..999, δ = 1/100: k = round(10·2^j) values in each tail, for 2k < n."""
    values = np.arange(1000, dtype=np.float64)[::-1].copy()  # order does not matter
    cuts = tail_cuts(values, 0.01)
    ks = [2, 5, 10, 20, 40, 80, 160, 320]  # j = -2..5 (round(2.5) = 2); j >= 6 has 2k >= n
    assert cuts.tolist() == sorted([k - 1.0 for k in ks] + [999.0 - k for k in ks])
    for k in ks:  # {x <= x_k} and {x > x_(n-k)} hold exactly k values each
        assert int(np.sum(values <= k - 1.0)) == k and int(np.sum(values > 999.0 - k)) == k
    assert tail_cuts(values, 0.01, exponents=(0,)).tolist() == [9.0, 989.0]


def test_tail_cuts_are_empty_at_delta_zero_and_skip_nan_and_too_small_tails() -> None:
    values = np.array([np.nan, np.inf, -np.inf, *range(100)], dtype=np.float64)
    assert len(tail_cuts(values, 0.0)) == 0
    assert tail_cuts(values, 0.001, exponents=range(-2, 3)).tolist() == []  # δ·2^j·100 < 1/2
    # j = 3..8: k = round(0.1·2^j) = 1, 2, 3, 6, 13, 26
    assert tail_cuts(values, 0.001).tolist() == [0.0, 1.0, 2.0, 5.0, 12.0, 25.0,
                                                 73.0, 86.0, 93.0, 96.0, 97.0, 98.0]
    assert tail_cuts(values, 0.01, exponents=(0, 1)).tolist() == [0.0, 1.0, 97.0, 98.0]
    # quantile cuts are untouched: the δ = 0 families are unchanged
    assert quantile_cuts(values, 8).tolist() == quantile_cuts(values[3:], 8).tolist()


def test_deep_cuts_step_by_quarter_octaves_in_big_tails_and_half_octaves_in_small_ones() -> None:
    """n = 65536 values 0..65535: tails of k = round(n·2^(-s)) values, s = 1/2, 3/4, 1, … stepping
    by a quarter after a tail of k >= 4096 (s up to 17/4), then by halves while k >= 64; each
    tail {x <= x_k} and
    {x > x_(n-k)} holds exactly k values.  With n = 4096 every step is a half."""
    assert (DEEP_STEPS, DEEP_FINE_COUNT) == (4, 4096)
    n = 65536
    values = np.arange(n, dtype=np.float64)[::-1].copy()
    exponents = [k / 4 for k in range(2, 18)] + [4.25 + k / 2 for k in range(1, 21)]
    ks = [round(n * 2.0 ** -s) for s in exponents]
    ks = [k for k in ks if k >= 64]
    assert ks[:3] == [46341, 38968, 32768] and ks[14] == 4096 and ks[15] == 3444 and ks[16] == 2435
    cuts = deep_cuts(values)
    tails = [k for k in ks if 2 * k < n]
    assert cuts.tolist() == sorted({k - 1.0 for k in tails} | {n - 1.0 - k for k in tails})
    for k in tails:
        assert int(np.sum(values <= k - 1.0)) == k and int(np.sum(values > n - 1.0 - k)) == k
    small = np.arange(4096, dtype=np.float64)
    half = sorted({round(4096 * 2.0 ** (-j / 2)) for j in range(2, 13)})
    assert deep_cuts(small).tolist() == sorted({k - 1.0 for k in half if 2 * k < 4096}
                                               | {4095.0 - k for k in half if 2 * k < 4096})
    assert deep_cuts(small, min_count=4096).size == 0  # no tail holds that many
    assert deep_cuts(np.array([np.nan, np.inf, 1.0, 2.0]), min_count=1).tolist() == []
    with pytest.raises(InvalidArgument, match=r"min_count=0 must be >= 1"):
        deep_cuts(small, min_count=0)  # would never stop: k = 0 >= 0 for ever


def test_int_row_codes_take_the_tuple_path_for_uint64_and_keep_smaller_unsigned() -> None:
    from privref.audits.blackbox.outcomes import decode_int_row, int_row_codes

    big = np.array([[2**63 + 5, 1], [3, 1]], dtype=np.uint64)  # beyond int64: no codes
    assert int_row_codes(big) is None
    small = np.array([[7, 0], [65535, 2]], dtype=np.uint16)
    coded = int_row_codes(small)
    assert coded is not None
    (codes,), low, place = coded
    assert [decode_int_row(int(c), low, place) for c in codes] == [(7, 0), (65535, 2)]
