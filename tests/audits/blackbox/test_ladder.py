"""Edge cuts and the ladder: events in tails the selection split holds a handful of values of."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from privref.audits.blackbox import selection
from privref.audits.blackbox.estimate import SHORTLIST, plan_views
from privref.audits.blackbox.events import Threshold
from privref.audits.blackbox.outcomes import (
    DEEP_MIN_COUNT,
    EDGE_COUNTS,
    deep_cuts,
    edge_cuts,
    quantile_cuts,
)
from privref.audits.blackbox.pools import Halves, Pool, threshold_pools
from privref.audits.blackbox.runner import AuditConfig, run_audit
from privref.audits.blackbox.selection import LADDER, ROBUST, ladder
from privref.audits.blackbox.target import target_from_callable
from privref.reference.reals import rational

from ...stats import record

ONE_SIDED_SCALE = 20.0
"""DP-Sniper's ReportNoisyMax4 at ε = 1/10: the largest of five q_i + Exponential(2/ε)."""


def noisy_max_value(data: list[int], rng: np.random.Generator, size: int) -> Any:
    """One-sided noise: the released maximum is >= max_i q_i, so {max < 2} is impossible on 2^5."""
    q = np.asarray(data, dtype=np.float64)
    return np.max(q + rng.exponential(ONE_SIDED_SCALE, (size, q.size)), axis=1)


PAIR = ((1, 1, 1, 1, 1), (2, 2, 2, 2, 2))


def test_edge_cuts_are_the_thin_order_statistics_the_deep_cuts_stop_before() -> None:
    rng = np.random.default_rng(3)
    values = rng.permutation(np.arange(1000, dtype=np.float64))
    with_atoms = np.concatenate([values, [np.nan, np.inf, -np.inf]])
    expected = sorted({float(k - 1) for k in EDGE_COUNTS} | {float(1000 - k - 1) for k in EDGE_COUNTS})
    assert edge_cuts(with_atoms).tolist() == expected
    # a tail needs 2k < n: with 10 values only k = 1, 2, 4
    assert edge_cuts(np.arange(10.0)).tolist() == [0.0, 1.0, 3.0, 5.0, 7.0, 8.0]
    assert edge_cuts(np.array([np.nan, 1.0])).size == 0
    # every edge tail is thinner than the thinnest deep tail, so the two families do not meet
    assert max(EDGE_COUNTS) < DEEP_MIN_COUNT
    assert not set(edge_cuts(values).tolist()) & set(deep_cuts(values).tolist())


def test_threshold_pools_mark_exactly_the_edge_cuts_ladder_only() -> None:
    rng = np.random.default_rng(5)
    xa, xb = rng.laplace(0.0, 1.0, 20_000), rng.laplace(0.3, 1.0, 20_000)
    pooled = np.concatenate([xa, xb])
    ranked = set(quantile_cuts(pooled, 16).tolist()) | set(deep_cuts(pooled).tolist())
    edges = set(edge_cuts(pooled).tolist()) - ranked
    assert len(edges) == 2 * len(EDGE_COUNTS)
    pools = threshold_pools(Halves(xa, xb, xa, xb), None, 1, 16, True)
    thresholds = [p for p in pools if isinstance(p.make(0), Threshold)]
    assert len(thresholds) == 4  # {x <= c} and {x > c}, both directions
    for pool in thresholds:
        assert pool.ladder_only is not None
        cuts = [pool.make(i).cut for i in range(len(pool.hits_p))]  # type: ignore[attr-defined]
        marked = {c for c, only in zip(cuts, pool.ladder_only, strict=True) if only}
        assert marked == edges
    assert all(p.ladder_only is None for p in pools if not isinstance(p.make(0), Threshold))


def _pool(hits_p: list[int], hits_q: list[int]) -> Pool:
    return Pool("a→b", np.array(hits_p, dtype=np.int64), np.array(hits_q, dtype=np.int64),
                1000, 1000, lambda i: Threshold(None, 1, float(i), False))


def test_ladder_halves_the_hits_down_to_one_in_the_same_pool() -> None:
    pool = _pool([1, 2, 3, 4, 8, 16, 33, 64, 128], [0, 0, 0, 0, 1, 1, 2, 4, 9])
    assert ladder(pool, 8) == [7, 6, 5, 4, 3, 1]  # 64, 32 (33), 16, 8, 4, 2
    assert ladder(pool, 8, steps=2) == [7, 6]
    assert ladder(pool, 4) == [3, 1, 0]  # 8 -> 4, 2, 1; stops at 2^m > 8
    assert ladder(pool, 0) == []  # nothing below one hit
    assert ladder(_pool([3, 2, 1], [0, 0, 0]), 0) == [1]  # no rung targets fewer than one hit


def test_ladder_skips_candidates_with_more_hits_under_q() -> None:
    # 12 hits (1 under Q): the rung at 6 has 2 under Q, so the nearest eligible is 5
    pool = _pool([12, 6, 5, 3], [1, 2, 0, 0])
    assert ladder(pool, 0) == [2, 3]  # targets 6 -> 5 (6 skipped), 3 -> 3, 1.5 -> 3 (taken)
    assert ladder(_pool([12, 6], [1, 2]), 0) == []


def _shortlist(monkeypatch: pytest.MonkeyPatch, steps: int) -> tuple[Any, ...]:
    monkeypatch.setattr(selection, "LADDER", steps)
    rng = np.random.default_rng(11)
    a, b = noisy_max_value(list(PAIR[0]), rng, 2**15), noisy_max_value(list(PAIR[1]), rng, 2**15)
    got, _ = plan_views(a, b, held_a=10**8, held_b=10**8, delta=0, alpha=Fraction(1, 10),
                        shortlist=True, pooled=True, float_events=False)
    edges = set(edge_cuts(np.concatenate([a, b])).tolist())
    return tuple(c for c in got if isinstance(c.event, Threshold) and c.event.cut in edges)


def test_edge_cuts_reach_the_shortlist_only_through_the_ladder(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One-sided noise: the best events are {max <= c} with c in the last few selection values of
    M(1^5) below M(2^5)'s.  The ladder shortlists edge cuts there; without it none is, though
    the edge cuts are in the pools."""
    with_ladder = _shortlist(monkeypatch, LADDER)
    assert with_ladder and all(c.direction == "a→b" and not c.event.above for c in with_ladder)
    assert len(with_ladder) <= LADDER
    assert _shortlist(monkeypatch, 0) == ()


def test_the_ladder_only_adds_to_the_shortlist(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rungs come after every other slot: without them the shortlist is the same prefix."""
    rng = np.random.default_rng(2)
    a, b = noisy_max_value(list(PAIR[0]), rng, 2**14), noisy_max_value(list(PAIR[1]), rng, 2**14)
    kw: dict[str, Any] = {"held_a": 10**7, "held_b": 10**7, "delta": 0, "alpha": Fraction(1, 10),
                          "shortlist": True, "pooled": True, "float_events": False}
    got, _ = plan_views(a, b, **kw)
    assert len(got) <= 2 * SHORTLIST + ROBUST + LADDER
    monkeypatch.setattr(selection, "LADDER", 0)
    without, _ = plan_views(a, b, **kw)
    assert got[: len(without)] == without and len(got) > len(without)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_ladder_raises_the_bound_on_one_sided_noise(monkeypatch: pytest.MonkeyPatch,
                                                        seed: int) -> None:
    """A whole audit at 2·10⁶ per side with a 2^14 selection split (validation 16 times it):
    the validation split ranks the rungs below the best explore cut, and the bound rises
    (measured: 0.71 and 1.05 against 0.57 and 0.54 without the ladder).  A power check: the
    bounds themselves are valid either way."""
    config = AuditConfig(epsilon=rational(Fraction(1, 10)), samples=2_000_000, seed=seed,
                         selection_cap=2**14, float_events=False, confidence=Fraction(9, 10),
                         relation="linf")
    target = target_from_callable(noisy_max_value, "noisy_max_value")

    def bound() -> float:
        report = run_audit(target, config, [PAIR])
        assert report.witness is not None
        return report.witness.estimate.epsilon_lower_bound

    laddered = bound()
    monkeypatch.setattr(selection, "LADDER", 0)
    record("power", Fraction(0), f"the ladder raises the bound (seed {seed})")
    assert laddered > bound() + 0.1
