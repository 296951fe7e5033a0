"""Selection: the chosen event and direction, distinct candidates, hash-seed independence, families."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from privref.audits.blackbox import selection
from privref.audits.blackbox.estimate import SHORTLIST, plan_views
from privref.audits.blackbox.events import (
    CoarseSet,
    FloatPattern,
    Length,
    OutcomeSet,
    Padded,
    PrefixSet,
    ScoreThreshold,
)
from privref.audits.blackbox.pools import length_pools, prefix_pools
from privref.audits.blackbox.report import BlackboxVerdict
from privref.audits.blackbox.runner import AuditConfig, run_audit
from privref.audits.blackbox.selection import LADDER, ROBUST, Candidate, select_events
from privref.audits.blackbox.target import target_from_callable
from privref.reference.accounting import calibrate_sigma
from privref.reference.errors import InvalidArgument
from privref.reference.reals import rational

from ...stats import AUDIT_CONFIDENCE


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
            "from privref.audits.blackbox.estimate import estimate_pair; "
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


def test_length_pools_count_exactly() -> None:
    """Hits of {len = k}, {len <= k}, {len >= k} for k = 0..L, in both directions, on the whole split."""
    a = [(1,), (1, 2), (1, 2), (1, 2, 3)]
    b = [(1,), (1,), (1,), (1, 2, 3)]
    pools = length_pools(a, b, 3)
    got = {(p.direction, str(p.make(0)).split(" ")[1]): (p.hits_p.tolist(), p.hits_q.tolist())
           for p in pools}
    assert got[("a→b", "=")] == ([0, 1, 2, 1], [0, 3, 0, 1])
    assert got[("a→b", "<=")] == ([0, 1, 3, 4], [0, 3, 3, 4])
    assert got[("b→a", ">=")] == ([4, 4, 1, 1], [4, 4, 3, 1])
    assert pools[2].make(2) == Length(2, "<=") and all(p.size_p == 4 for p in pools)


def test_prefix_pools_rank_prefixes_on_the_fit_part() -> None:
    """For each k < L, prefixes ranked by likelihood ratio on the fit part, counted on the test part."""
    fit_a, fit_b = [("x", 1), ("x", 2, 3)], [("y", 1), ("y",)]
    test_a, test_b = [("x",), ("y", 5)], [("y", 0, 0)]
    # k = 1 then k = 2; per k: a→b by ratio, a→b by lower bound, b→a by ratio, b→a by lower bound
    to_b, to_a = prefix_pools(fit_a, fit_b, test_a, test_b, 3)[0:4:2]
    assert to_b.make(0) == PrefixSet(1, frozenset({("x",)}))
    assert (to_b.hits_p.tolist(), to_b.hits_q.tolist()) == ([1, 2], [0, 1])
    assert to_a.make(0) == PrefixSet(1, frozenset({("y",)}))
    k2 = prefix_pools(fit_a, fit_b, test_a, test_b, 3)[4]
    event = k2.make(0)
    assert isinstance(event, PrefixSet) and event.k == 2
    assert prefix_pools(fit_a, fit_b, test_a, test_b, 1) == []


def test_selection_finds_a_prefix_in_variable_length_outputs() -> None:
    """The first entry leaks ("A" more likely under a); the rest are fresh labels of random length, so
    whole outputs never repeat and no numeric family applies: the halting family's prefix event wins."""
    rng = np.random.default_rng(8)

    def draw(p: float, n: int) -> list[tuple[str, ...]]:
        out = []
        for _ in range(n):
            head = "A" if rng.random() < p else "B"
            out.append((head, *(f"t{rng.integers(10**9)}" for _ in range(int(rng.integers(0, 4))))))
        return out

    a, b = draw(0.8, 2000), draw(0.2, 2000)
    best = select_events(a, b, held_a=2000, held_b=2000, delta=Fraction(0), alpha_side=Fraction(1, 40))[0]
    assert best.event == PrefixSet(1, frozenset({("A",)})) and best.direction == "a→b"
    also = select_events(a, b, held_a=2000, held_b=2000, delta=Fraction(0), alpha_side=Fraction(1, 40),
                         count=40)
    assert any(isinstance(c.event, Padded) for c in also)  # the padded families are candidates too
    assert best.event.mask([("A", "t1"), ("B",), ("A",)]).tolist() == [True, False, True]


def test_tail_cuts_isolate_a_rare_leak_near_delta() -> None:
    """M(b) puts 0.4% of its mass far right (in [10, 11)), M(a) none: at δ = 10⁻³ the best event
    is a far tail holding a few δ of mass, which no 64-quantile cut reaches (the top quantile cut
    holds 1.5% of the pooled mass, mostly normal draws of both sides); the tail cuts at masses
    δ·2^j (and the deep tail cuts) do.  The cut points come from the selection split only (both
    splits given here are it)."""
    rng = np.random.default_rng(11)
    n = 20_000
    a = rng.normal(0.0, 1.0, n)
    b = rng.normal(0.0, 1.0, n)
    spike = rng.random(n) < 0.004
    b[spike] = 10.0 + rng.random(int(spike.sum()))
    best = select_events(a, b, held_a=n, held_b=n, delta=Fraction(1, 1000),
                         alpha_side=Fraction(1, 40), float_events=False)[0]
    assert best.direction == "b→a" and best.hits_a <= 2 and best.hits_b >= 40
    assert best.event.mask(np.array([2.5, 10.9])).tolist() == [False, True]


def _gaussian(sigma: float) -> Callable[[Sequence[float], np.random.Generator, int], np.ndarray]:
    def gauss(data: Sequence[float], rng: np.random.Generator, size: int) -> np.ndarray:
        return float(sum(data)) + rng.normal(0.0, sigma, size)
    gauss.privref_vectorized = True  # type: ignore[attr-defined]
    return gauss


def test_gaussian_overclaim_at_delta_is_flagged_and_the_true_claim_is_not() -> None:
    """The Gaussian mechanism (sensitivity 1) claimed (1, 10⁻³)-DP, 10⁵ samples per side.

    σ from accounting.calibrate_sigma: σ_hi(ε) is proved to give δ(ε) <= 10⁻³ exactly, so at
    σ_hi(1) the claim is TRUE (a VIOLATION there has probability <= 1 − confidence = 10⁻⁷), and at
    σ_hi(2) the true ε at 10⁻³ is 2 (a 100% overclaim).  Fixed seeds: deterministic.
    """
    pair = [((0,), (1,))]
    verdicts = {}
    for true_eps in (1, 2):
        sigma = float(calibrate_sigma(1, true_eps, Fraction(1, 1000)).hi)
        config = AuditConfig(epsilon=rational(1), delta=Fraction(1, 1000), samples=100_000,
                             confidence=AUDIT_CONFIDENCE, float_events=False, seed=3)
        report = run_audit(target_from_callable(_gaussian(sigma)), config, pair)
        verdicts[true_eps] = report.verdict
    assert verdicts == {1: BlackboxVerdict.NO_VIOLATION_FOUND, 2: BlackboxVerdict.VIOLATION}


@pytest.mark.parametrize("kind", ["float", "vector", "int"])
def test_both_views_from_one_set_of_pools_equal_two_selections(kind: str) -> None:
    from privref.audits.blackbox.estimate import events_digest
    from privref.audits.blackbox.selection import select_event_views

    rng = np.random.default_rng(11)
    if kind == "float":
        a, b = rng.laplace(0.0, 1.0, 4000), 1.0 + rng.laplace(0.0, 1.0, 4000)
    elif kind == "vector":
        a, b = rng.normal(0.0, 1.0, (4000, 3)), rng.normal(0.3, 1.0, (4000, 3))
    else:
        a, b = rng.integers(0, 5, 4000).astype(np.float64), rng.integers(0, 6, 4000).astype(np.float64)
    args: dict[str, Any] = {"held_a": 4000, "held_b": 4000, "delta": Fraction(1, 1000),
                            "alpha_side": Fraction(1, 40)}
    both, real = select_event_views(a, b, **args)
    assert events_digest(both) == events_digest(select_events(a, b, **args))
    assert events_digest(real) == events_digest(select_events(a, b, float_events=False, **args))
    if kind == "float":  # the IEEE view picks a float-pattern event here; the real view cannot
        assert type(both[0].event).__name__ == "FloatPattern"
        assert type(real[0].event).__name__ != "FloatPattern"


def test_selection_finds_a_sparse_vector_run_of_unanswered_queries_then_a_low_answer() -> None:
    """Rows of 6: -inf until the first answer.  Under M(a), with probability 0.3 the answer comes
    at position 4 and is below -2 (under M(b) 0.03), and otherwise at a position 0..5 uniformly,
    with a standard normal value under both.  The leading family's {exactly 4 atoms lead, then
    a value <= c} (c near -2) is found, with its counts exactly those of the rows."""
    from privref.audits.blackbox.events import Leading

    rng = np.random.default_rng(12)

    def draw(p: float, n: int) -> np.ndarray:
        rows = np.full((n, 6), -np.inf)
        special = rng.random(n) < p
        where = np.where(special, 4, rng.integers(0, 6, n))
        value = np.where(special, -2.0 - rng.random(n), rng.normal(size=n))
        rows[np.arange(n), where] = value
        return rows

    a, b = draw(0.3, 4000), draw(0.03, 4000)
    best = select_events(a, b, held_a=4000, held_b=4000, delta=Fraction(0),
                         alpha_side=Fraction(1, 40), float_events=False)[0]
    assert isinstance(best.event, Leading) and best.direction == "a→b"
    assert best.event.skip == 4 and best.event.exact and not best.event.above
    assert -2.5 <= best.event.cut <= -1.0
    assert (best.hits_a, best.hits_b) == (best.event.count(a), best.event.count(b))


def test_integer_rows_are_ranked_by_int64_codes_with_the_same_events_as_tuples() -> None:
    """The numpy path (rows coded in a mixed radix) and the tuple path choose the same events,
    with the same counts, on SVT-like integer rows; the codes decode to the rows' tuples."""
    from privref.audits.blackbox.outcomes import decode_int_row, int_row_codes

    rng = np.random.default_rng(13)
    a = (rng.laplace(0.0, 2.0, (3000, 6)) > 0.3).astype(np.int64) - (rng.random((3000, 6)) < 0.1)
    b = (rng.laplace(0.0, 2.0, (3000, 6)) > 0.8).astype(np.int64) - (rng.random((3000, 6)) < 0.1)
    args = {"held_a": 3000, "held_b": 3000, "delta": Fraction(0), "alpha_side": Fraction(1, 40),
            "count": 12}
    fast = select_events(a, b, **args)  # type: ignore[arg-type]
    slow = select_events([tuple(r) for r in a.tolist()], [tuple(r) for r in b.tolist()],
                         **args)  # type: ignore[arg-type]
    assert [(c.event, c.direction, c.hits_a, c.hits_b) for c in fast] == \
        [(c.event, c.direction, c.hits_a, c.hits_b) for c in slow]
    coded = int_row_codes(a, b)
    assert coded is not None
    (ca, cb), low, place = coded
    # the ranked family itself, pool by pool: codes with decoding vs tuples
    from privref.audits.blackbox.outcomes import outcome_keys
    from privref.audits.blackbox.pools import ranked_pools

    def decoded(codes: frozenset[object]) -> OutcomeSet:
        return OutcomeSet(frozenset(decode_int_row(int(c), low, place) for c in codes))  # type: ignore[call-overload]

    by_code = ranked_pools(ca[:1500], cb[:1500], ca[1500:], cb[1500:], decoded)
    by_tuple = ranked_pools(outcome_keys(a[:1500]), outcome_keys(b[:1500]), outcome_keys(a[1500:]),
                            outcome_keys(b[1500:]), OutcomeSet)
    assert len(by_code) == len(by_tuple) == 4  # two rankings per direction
    for x, y in zip(by_code, by_tuple, strict=True):
        assert x.direction == y.direction and (x.size_p, x.size_q) == (y.size_p, y.size_q)
        assert x.hits_p.tolist() == y.hits_p.tolist() and x.hits_q.tolist() == y.hits_q.tolist()
        assert all(x.make(i) == y.make(i) for i in range(len(x.hits_p)))
    assert decode_int_row(int(ca[7]), low, place) == tuple(a[7].tolist())
    assert len(set(ca.tolist()) | set(cb.tolist())) == len({tuple(r) for r in np.vstack([a, b]).tolist()})
    assert int_row_codes(a.astype(np.float64)) is None and int_row_codes(a, b[:, :3]) is None


def test_ranked_outcomes_also_rank_by_a_lower_confidence_bound_of_the_ratio() -> None:
    """Fit counts: "rare" 3 vs 0 (smoothed log ratio ln 4 ≈ 1.39, but one standard error is
    1.2), "sure" 3000 vs 2000 (ln 1.5 ≈ 0.41, error 0.03), "even" 2000 vs 3000.  By the ratio,
    the first prefix is {rare}; by the lower bound it is {sure}.  Counts come from the test part."""
    from privref.audits.blackbox.events import OutcomeSet
    from privref.audits.blackbox.pools import ranked_pools

    fit_a = ["rare"] * 3 + ["sure"] * 3000 + ["even"] * 2000
    fit_b = ["sure"] * 2000 + ["even"] * 3000
    test_a = ["sure"] * 30 + ["rare"]
    test_b = ["sure"] * 20 + ["even"] * 5
    pools = [p for p in ranked_pools(fit_a, fit_b, test_a, test_b, OutcomeSet)
             if p.direction == "a→b"]
    assert len(pools) == 2
    by_ratio, by_bound = pools
    assert by_ratio.make(0) == OutcomeSet(frozenset({"rare"}))
    assert (int(by_ratio.hits_p[0]), int(by_ratio.hits_q[0])) == (1, 0)
    assert by_bound.make(0) == OutcomeSet(frozenset({"sure"}))
    assert (int(by_bound.hits_p[0]), int(by_bound.hits_q[0])) == (30, 20)
    assert by_bound.make(1) == OutcomeSet(frozenset({"sure", "rare"}))


def test_threshold_and_band_counts_are_the_events_own_counts() -> None:
    """Every threshold (quantile and deep tail cuts) and every band candidate: its pool counts
    are exactly the event's membership counts on the split it was counted on."""
    from privref.audits.blackbox.pools import Halves, threshold_pools

    rng = np.random.default_rng(14)
    xa, xb = rng.laplace(0.0, 1.0, 3000), rng.laplace(0.5, 1.0, 2500)
    xa[:7] = np.nan
    pools = threshold_pools(Halves(xa, xb, xa, xb), None, 1, 12, True)
    kinds = set()
    for pool in pools:
        p, q = (xa, xb) if pool.direction == "a→b" else (xb, xa)
        for i in range(0, len(pool.hits_p), 7):
            event = pool.make(i)
            kinds.add(type(event).__name__)
            assert (int(pool.hits_p[i]), int(pool.hits_q[i])) == (event.count(p), event.count(q))
    assert kinds == {"Threshold", "Band"}


def test_the_robust_slots_keep_a_broad_event_among_lucky_deep_tails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Laplace(10) shifted by 1, 2·10⁴ selection draws, a held-out split of 10⁷: the tail
    {x > 1} (half the mass, ratio e^0.1) is the best event, but hundreds of deep tail cuts
    carry plug-in ratios noisy by several standard errors.  With seed 1 the 8 shortlisted
    events of the selection and explore scores are all small; the ROBUST slots (the
    multiplicity z) add a broad one, and without them none is shortlisted."""
    rng = np.random.default_rng(1)
    n = 20_000
    a, b = rng.laplace(1.0, 10.0, n), rng.laplace(0.0, 10.0, n)
    kw = {"held_a": 10**7, "held_b": 10**7, "delta": 0, "alpha": Fraction(1, 10),
          "shortlist": True, "pooled": True, "float_events": False}

    def broad(candidates: tuple[Candidate, ...]) -> list[Candidate]:
        return [c for c in candidates if min(c.hits_a, c.hits_b) > n // 4]

    got, _ = plan_views(a, b, **kw)  # type: ignore[arg-type]
    assert len(got) <= 2 * SHORTLIST + ROBUST + LADDER and broad(got)
    monkeypatch.setattr(selection, "ROBUST", 0)
    without, _ = plan_views(a, b, **kw)  # type: ignore[arg-type]
    assert not broad(without)
