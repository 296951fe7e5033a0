"""The answered-set family: which entries of a sparse vector were answered, and a threshold on
the smallest or largest answer (NumericalSVT's worst event is ⊥⁵ then two answers >= 2)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import pytest

from privref.audits.blackbox import selection
from privref.audits.blackbox.events import (
    ANSWERED_MAX_DIM,
    Answered,
    answered_codes,
    answered_stat,
)
from privref.audits.blackbox.outcomes import quantile_cuts, vectors
from privref.audits.blackbox.pools import (
    ANSWERED_MIN_ROWS,
    ANSWERED_PATTERNS,
    Pool,
    answered_pools,
)
from privref.audits.blackbox.runner import AuditConfig, run_audit
from privref.audits.blackbox.selection import WIDE, select_events
from privref.audits.blackbox.target import target_from_callable
from privref.reference.errors import InvalidArgument
from privref.reference.reals import rational

from ...stats import record

inf = math.inf

ROWS = [(-inf, 3.0, 5.0), (-inf, 1.0, 7.0), (2.0, -inf, -inf), (-inf, 4.0, math.nan),
        (-inf, 6.0, 2.0, 0.0), (-inf, -inf, -inf)]


def test_the_event_fixes_the_answered_entries_and_reads_their_extreme() -> None:
    """Rows 0 and 1 answer exactly {1, 2}; NaN is an atom (row 3 answers {1}); another length is
    outside; min and max, above and below, and the pattern alone."""
    rows: list[Any] = list(ROWS)
    assert Answered(3, (1, 2), "min", 2.0, True).mask(rows).tolist() == [
        True, False, False, False, False, False]
    assert Answered(3, (1, 2), "min", 1.0, False).mask(rows).tolist() == [
        False, True, False, False, False, False]
    assert Answered(3, (1, 2), "max", 5.0, False).mask(rows).tolist() == [
        True, False, False, False, False, False]
    assert Answered(3, (1, 2), "max", 5.0, True).mask(rows).tolist() == [
        False, True, False, False, False, False]
    assert Answered(3, (1, 2), "min", inf, False).mask(rows).tolist() == [
        True, True, False, False, False, False]
    assert Answered(3, (1,), "min", 3.0, True).mask(rows).tolist() == [
        False, False, False, True, False, False]
    assert Answered(3, (), "min", inf, False).mask(rows).tolist() == [
        False, False, False, False, False, True]
    assert Answered(3, (), "min", 0.0, True).mask(rows).tolist() == [False] * 6
    text = Answered(3, (1, 2), "min", 2.0, True).describe()
    assert "exactly {1, 2}" in text and "smallest of them is > 2" in text
    assert Answered(3, (0,), "max", inf, False).describe() == "the finite entries are exactly {0}"


def test_an_event_the_bit_mask_cannot_hold_is_refused() -> None:
    """62 entries fit an int64 bit mask; 63 would overflow it, so the event is refused by name."""
    wide = Answered(ANSWERED_MAX_DIM, (0, ANSWERED_MAX_DIM - 1), "min", 0.0, True)
    row = [1.0] + [-inf] * (ANSWERED_MAX_DIM - 2) + [2.0]
    assert wide.mask([tuple(row), tuple([*row[:-1], -inf])]).tolist() == [True, False]
    for bad, match in [((ANSWERED_MAX_DIM + 1, (0,), "min"), "dim=63 must be in"),
                       ((0, (), "min"), "dim=0 must be in"),
                       ((3, (3,), "min"), r"answered=\(3,\) must be increasing"),
                       ((3, (2, 1), "min"), "must be increasing"),
                       ((3, (1, 1), "min"), "must be increasing"),
                       ((3, (1,), "mean"), "stat='mean' must be")]:
        with pytest.raises(InvalidArgument, match=match):
            Answered(*bad, 0.0, True)  # type: ignore[arg-type]


def test_codes_and_statistics_are_exact() -> None:
    values = vectors([r for r in ROWS if len(r) == 3], 3)
    assert answered_codes(values).tolist() == [6, 6, 1, 2, 0]
    assert answered_stat(values[:2], 6, "min").tolist() == [3.0, 1.0]
    assert answered_stat(values[:2], 6, "max").tolist() == [5.0, 7.0]


def _svt_like(shift: tuple[float, ...], rng: np.random.Generator, size: int) -> Any:
    """Two entries answered, the pair uniform over all pairs whatever the data, each
    answer q_i + Laplace(4); the other entries -inf."""
    dim = len(shift)
    pairs = np.array(list(itertools.combinations(range(dim), 2)))
    chosen = pairs[rng.integers(0, len(pairs), size)]
    out = np.full((size, dim), -inf)
    rows = np.arange(size)[:, None]
    out[rows, chosen] = np.asarray(shift)[chosen] + rng.laplace(0.0, 4.0, (size, 2))
    return out


def test_pools_count_exactly_what_their_events_hold() -> None:
    """Every candidate's hits are its event's count on the same rows, in both directions; only
    patterns with ANSWERED_MIN_ROWS pooled rows, at most ANSWERED_PATTERNS of them; only the joint
    tails (every answer > c, every answer <= c), cut at the quartiles of the min and of the max,
    and the pattern alone; every pool is wide."""
    rng = np.random.default_rng(4)
    va = _svt_like((1.0, 1.0, 0.0, 0.0), rng, 6000)
    vb = _svt_like((0.0, 0.0, 0.0, 0.0), rng, 6000)
    va[:, 3] = -inf  # the pairs holding entry 3 become singletons: (i, 3) keeps about 170 rows
    vb[:5000, 3] = -inf
    pools = answered_pools(va, vb)
    assert pools and all(p.wide for p in pools)
    seen: set[tuple[int, ...]] = set()
    for pool in pools:
        side_p, side_q = (va, vb) if pool.direction == "a→b" else (vb, va)
        for i in range(len(pool.hits_p)):
            event = pool.make(i)
            assert isinstance(event, Answered)
            seen.add(event.answered)
            assert event.count(side_p) == pool.hits_p[i] and event.count(side_q) == pool.hits_q[i]
        assert (pool.size_p, pool.size_q) == (6000, 6000)
        kinds = {(e.stat, e.above) for e in map(pool.make, range(len(pool.hits_p)))
                 if isinstance(e, Answered)}
        assert kinds in ({("min", True)}, {("max", False)})  # the joint tails only
    codes = np.concatenate([answered_codes(va), answered_codes(vb)])
    expected = {tuple(i for i in range(4) if c >> i & 1) for c, n in
                zip(*np.unique(codes, return_counts=True), strict=True) if c and n >= ANSWERED_MIN_ROWS}
    assert seen == expected and len(seen) <= ANSWERED_PATTERNS
    assert not any(3 in s for s in seen) and {(0, 1), (0,), (1,), (2,)} <= seen
    def first(p: Pool) -> Answered:
        event = p.make(0)
        assert isinstance(event, Answered)
        return event

    joint: tuple[tuple[Literal["min", "max"], list[float]], ...] = (("min", []), ("max", [inf]))
    for stat, tail in joint:  # inf: the pattern alone
        one = next(p for p in pools if p.direction == "a→b" and first(p).answered == (0, 1)
                   and first(p).stat == stat)
        xs = np.concatenate([answered_stat(v[answered_codes(v) == 3], 3, stat) for v in (va, vb)])
        cuts = [e.cut for e in map(one.make, range(len(one.hits_p))) if isinstance(e, Answered)]
        assert cuts == [*quantile_cuts(xs, 3).tolist(), *tail]


def test_wide_candidates_are_never_ranked_only_shortlisted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a validation split (no explore) no answered event is chosen (the family is not even
    built); with one, up to WIDE are shortlisted after every other slot."""
    rng = np.random.default_rng(1)
    a, b = _svt_like((2.0, 2.0, 0.0, 0.0), rng, 8000), _svt_like((0.0,) * 4, rng, 8000)
    kw: dict[str, Any] = {"held_a": 10**7, "held_b": 10**7, "delta": Fraction(0),
                          "alpha_side": Fraction(1, 20), "float_events": False, "pooled": True}
    plain = select_events(a, b, count=40, **kw)
    assert not any(isinstance(c.event, Answered) for c in plain)
    explored = select_events(a, b, count=4, explore=4, **kw)
    wide = [c for c in explored if isinstance(c.event, Answered)]
    assert 0 < len(wide) <= WIDE
    assert all(not isinstance(c.event, Answered) for c in explored[: len(explored) - len(wide)])
    monkeypatch.setattr(selection, "WIDE", 0)
    assert select_events(a, b, count=4, explore=4, **kw) == explored[: len(explored) - len(wide)]


@pytest.mark.parametrize("seed", [0, 1])
def test_the_answered_family_raises_the_bound_on_two_released_answers(
        monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """A whole audit at 10⁶ per side with a 2^13 selection split (validation 16 times it), eight
    entries, two answered: the loss lives in "entries 0 and 1 answered, both large" (ratio up to
    e^(1/2); one answer alone reaches e^(1/4)), which the validation split ranks among the wide
    candidates (measured: 0.48 and 0.42 against 0.24 and 0.25 without them).  A power check: the
    bounds themselves are valid either way."""
    config = AuditConfig(epsilon=rational(Fraction(1, 10)), samples=1_000_000, seed=seed,
                         selection_cap=2**13, float_events=False, confidence=Fraction(9, 10),
                         relation="linf")

    def mechanism(data: list[int], rng: np.random.Generator, size: int) -> Any:
        return _svt_like(tuple(float(x) for x in data), rng, size)

    target = target_from_callable(mechanism, "two_answers")
    pair = ((1, 1, 0, 0, 0, 0, 0, 0), (0,) * 8)

    def bound() -> tuple[float, str]:
        report = run_audit(target, config, [pair])
        assert report.witness is not None
        return report.witness.estimate.epsilon_lower_bound, report.witness.estimate.event

    wide, event = bound()
    monkeypatch.setattr(selection, "WIDE", 0)
    record("power", Fraction(0), f"the answered family raises the bound (seed {seed})")
    narrow, _ = bound()
    assert "finite entries are exactly {0, 1}" in event
    assert wide > narrow + 0.05
