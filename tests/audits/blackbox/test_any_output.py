"""Any output (issue 13, item 3): variable-length tuples, lists, arrays, NaN, end to end.

Every test here uses fixed seeds, so it is deterministic.  The two end-to-end
verdict checks are statistical: the NO_VIOLATION_FOUND one would fail with
probability at most 1 - confidence = 5% over seeds (the estimator's
guarantee), the VIOLATION ones are power statements that hold on these seeds.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from privref.audits.blackbox.api import assert_private
from privref.audits.blackbox.estimate import bound_ratio, epsilon_from_ratio, estimate_pair

from ...stats import AUDIT_CONFIDENCE

QUERIES = 5


def above_threshold(answers: Sequence[int], rng: np.random.Generator, eps: float) -> tuple[bool, ...]:
    """Dwork–Roth AboveThreshold with c = 1 and T = 0: ⊥ (False) until the first ⊤ (True), then halt."""
    rho = rng.laplace(0.0, 2 / eps)
    out: list[bool] = []
    for q in answers:
        top = bool(q + rng.laplace(0.0, 4 / eps) >= rho)
        out.append(top)
        if top:
            break
    return tuple(out)


def _svt_samples(seed: int, n: int) -> tuple[list[tuple[bool, ...]], list[tuple[bool, ...]]]:
    rng = np.random.default_rng(seed)
    return ([above_threshold([0] * QUERIES, rng, 0.5) for _ in range(n)],
            [above_threshold([1] * QUERIES, rng, 0.5) for _ in range(n)])


def _pad(rows: list[tuple[bool, ...]]) -> list[tuple[bool | None, ...]]:
    return [row + (None,) * (QUERIES - len(row)) for row in rows]


MARGIN = 0.02
"""How far below the padded bound the variable-length bound may fall on a seed.

The variable-length candidates contain the padded ones (the padded families
see ``absent`` exactly where the padded outputs have None) plus the halting
family, so the two bounds differ only when selection prefers a halting event;
its held-out bound can then be lower by held-out noise.  On these seeds it
never is (the margin is slack, not a fudge)."""


def test_variable_length_svt_is_read_as_well_as_padded_svt() -> None:
    """Same samples, read as variable-length tuples and as tuples padded with None: the variable-length
    bound is never below the padded one minus MARGIN, and the halting family makes it higher overall."""
    total_var, total_pad = 0.0, 0.0
    for seed in range(4):
        a, b = _svt_samples(seed, 20_000)
        args: dict[str, Any] = {"epsilon": Fraction(1, 2), "delta": 0, "alpha": Fraction(1, 20)}
        var = estimate_pair(a, b, **args)
        pad = estimate_pair(_pad(a), _pad(b), **args)
        assert not var.violation and not pad.violation  # AboveThreshold is 0.5-DP
        assert var.epsilon_lower_bound >= pad.epsilon_lower_bound - MARGIN
        if var.counts == pad.counts:  # the same event: the same bound, exactly
            assert var.epsilon_lower_bound == pad.epsilon_lower_bound
        total_var += var.epsilon_lower_bound
        total_pad += pad.epsilon_lower_bound
    assert total_var > total_pad


def _as_lists(rows: list[tuple[Any, ...]]) -> list[list[Any]]:
    return [list(r) for r in rows]


def _as_arrays(rows: list[tuple[Any, ...]]) -> list[np.ndarray]:
    return [np.array(r) for r in rows]


def test_lists_and_arrays_give_the_tuple_estimate() -> None:
    """The same outcomes as tuples, lists, per-draw numpy arrays (and a 2-D array when the length is
    fixed) give an identical PairEstimate: variable-length bools and fixed-length floats."""
    a, b = _svt_samples(9, 4000)
    args: dict[str, Any] = {"epsilon": Fraction(1, 2), "delta": 0, "alpha": Fraction(1, 20)}
    reference = estimate_pair(a, b, **args)
    assert "padded" in reference.event or "len(output)" in reference.event or "output[:" in reference.event
    for convert in (_as_lists, _as_arrays):
        assert estimate_pair(convert(a), convert(b), **args) == reference
    rng = np.random.default_rng(3)
    va, vb = rng.laplace(size=(3000, 3)), rng.laplace(size=(3000, 3)) + np.array([0.0, 0.7, 0.0])
    ta: list[tuple[Any, ...]] = [tuple(r) for r in va.tolist()]
    tb: list[tuple[Any, ...]] = [tuple(r) for r in vb.tolist()]
    fixed = estimate_pair(ta, tb, **args)
    assert fixed.epsilon_lower_bound > 0
    for xa, xb in ((va, vb), (_as_lists(ta), _as_lists(tb)), (_as_arrays(ta), _as_arrays(tb))):
        assert estimate_pair(xa, xb, **args) == fixed


def _nan_with_payload(payload: int) -> float:
    value: float = struct.unpack("<d", struct.pack("<Q", 0x7FF8_0000_0000_0000 | payload))[0]
    return value


def test_nan_is_one_ordinary_outcome() -> None:
    """NaN (any payload) is one atom seen by the ranked family: exact held-out counts and bound."""
    odd = _nan_with_payload(77)
    a = [math.nan, odd, np.float64("nan"), 1.0, 1.0] * 200  # P(NaN) = 3/5
    b = [odd, 1.0, 1.0, 1.0, 1.0] * 200  # P(NaN) = 1/5
    alpha = Fraction(1, 20)
    est = estimate_pair(a, b, epsilon=Fraction(1, 10), delta=0, alpha=alpha)
    assert est.event == "output in {nan}  (P = M(a), Q = M(b))"
    assert (est.counts["hits_a"], est.counts["hits_b"]) == (300, 100)
    exact = epsilon_from_ratio(bound_ratio(300, 500, 100, 500, delta=Fraction(0), alpha_side=alpha / 2))
    assert est.epsilon_lower_bound == exact and est.violation
    assert estimate_pair(np.array(a), np.array(b), epsilon=Fraction(1, 10), delta=0, alpha=alpha) == est


def noisy_svt_list(data: list[int], rng: np.random.Generator) -> list[bool]:
    """AboveThreshold run with ε = 2 noise, returning a list (as OpenDP vector measurements do)."""
    return list(above_threshold(data, rng, 2.0))


def test_end_to_end_variable_length_lists() -> None:
    """assert_private on list outputs of varying length: the true claim passes, an 8x overclaim fails."""
    pair = [((0,) * 4, (1,) * 4)]
    report = assert_private(noisy_svt_list, epsilon=2, pairs=pair, samples=20_000, seed=1,
                            relation="linf", confidence=AUDIT_CONFIDENCE)
    (result,) = report.pairs
    assert result.estimate is not None and result.estimate.epsilon_lower_bound > 0.25
    with pytest.raises(AssertionError):
        assert_private(noisy_svt_list, epsilon=Fraction(1, 4), pairs=pair, samples=20_000, seed=1,
                       relation="linf", confidence=AUDIT_CONFIDENCE)


def nan_or_one(data: list[int], rng: np.random.Generator) -> float:
    """NaN with probability 3/5 on [0] and 1/5 otherwise, else 1.0."""
    return math.nan if rng.random() < (0.6 if data[0] == 0 else 0.2) else 1.0


def test_end_to_end_nan_outputs() -> None:
    """A NaN-returning target is audited (no refusal, no spurious hidden-randomness warning): the NaN atom
    is the witness of a violation of ε = 1/10 (true ε = ln 3)."""
    with pytest.raises(AssertionError, match=r"output in \{nan\}"):
        assert_private(nan_or_one, epsilon=Fraction(1, 10), pairs=[([0], [1])], samples=4000, seed=1,
                       confidence=AUDIT_CONFIDENCE)
    report = assert_private(nan_or_one, epsilon="ln(3)", pairs=[([0], [1])], samples=4000, seed=1,
                            confidence=AUDIT_CONFIDENCE)
    assert not any("hidden randomness" in w for w in report.warnings)
