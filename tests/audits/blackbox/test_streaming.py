"""The streaming estimator and the backends: the same counts as keeping every outcome, bounded memory.

Every test here is deterministic (fixed seeds); none is statistical.
"""

from __future__ import annotations

import hashlib
import json
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from privref.audits.blackbox import batch as batch_module
from privref.audits.blackbox import engines, runner
from privref.audits.blackbox.batch import Batch
from privref.audits.blackbox.checkpoint import canonical
from privref.audits.blackbox.estimate import (
    conclude_views,
    estimate_pair,
    estimate_pair_views,
    plan_views,
    refine_views,
)
from privref.audits.blackbox.pooled import allocate, spare
from privref.audits.blackbox.report import is_float_leak
from privref.audits.blackbox.runner import AuditConfig, CheckpointError, run_audit, sample_pair
from privref.audits.blackbox.target import Target, target_from_callable
from privref.reference.reals import log, rational

from ...stats import AUDIT_CONFIDENCE


def laplace_vec(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
    return sum(data) + rng.laplace(0.0, 2.0, size)


def svt_rows(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
    """Ten above-threshold bits per draw (a 10-coordinate sparse-vector-like output)."""
    noise = rng.laplace(0.0, 2.0, (size, 10))
    return (np.asarray(data[:1] * 10) + noise > 0.5).astype(np.int64)


def label(data: list[int], rng: np.random.Generator) -> str:
    return "yes" if rng.random() < (0.7 if data[0] else 0.4) else "no"


def config(**kw: object) -> AuditConfig:
    base: dict[str, object] = {"confidence": AUDIT_CONFIDENCE,
                               "epsilon": log(2), "samples": 1000, "seed": 7, "chunk_size": 300}
    base.update(kw)
    return AuditConfig(**base)  # type: ignore[arg-type]


TARGETS = [target_from_callable(laplace_vec, "lap"), target_from_callable(svt_rows, "svt"),
           target_from_callable(label, "label")]
PAIR = ((0,), (1,))


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_streaming_equals_keeping_every_outcome(target: Target) -> None:
    # samples=1000, chunk 300: the selection split (500) ends inside the second chunk, whose
    # tail is counted with the held-out chunks; one view (no IEEE-754 events) is estimate_pair
    streamed = run_audit(target, config(float_events=False), [PAIR])
    kept = run_audit(target, config(float_events=False), [PAIR],
                     estimator=partial(estimate_pair, float_events=False))
    assert streamed.witness is not None and kept.witness is not None
    assert streamed.witness.estimate == kept.witness.estimate
    assert streamed.witness.estimate.counts["selection_a"] == 500
    # both views: exactly estimate_pair_views on all the outcomes
    both = run_audit(target, config(), [PAIR])
    a, b = sample_pair(target, PAIR, samples=1000, seed=7, chunk_size=300)
    ieee, real = estimate_pair_views(a.values, b.values, epsilon=log(2), delta=0,
                                     alpha=1 - both.confidence)
    assert both.witness is not None
    assert both.witness.estimate == ieee.estimate
    assert (both.witness.real_estimate is None) == (real is None)
    assert real is None or both.witness.real_estimate == real.estimate


@pytest.mark.parametrize("chunk", [300, 20_000])
def test_a_dealt_bounding_split_streams_as_it_is_kept(chunk: int) -> None:
    """10^4 samples: the held-out 5000 per side is dealt (>= POOLED_MIN).  Streamed (chunks of
    300), or all in the selection's one chunk (20000, where each side's dealt end cuts the tail
    of that chunk), the report is estimate_pair_views with the pair's dealing seed; and the HTML
    path (every outcome kept) deals the same."""
    target = TARGETS[0]
    cfg = config(samples=10_000, chunk_size=chunk)
    streamed = run_audit(target, cfg, [PAIR])
    kept = run_audit(target, cfg, [PAIR], keep_witness_samples=True)
    a, b = sample_pair(target, PAIR, samples=10_000, seed=7, chunk_size=chunk)
    ieee, real = estimate_pair_views(a.values, b.values, epsilon=log(2), delta=0,
                                     alpha=1 - cfg.confidence, seed=runner.dealing_seed(7, 1, 0))
    assert ieee.estimate.test == "pooled"
    assert (ieee.estimate.counts["held_out_a"], ieee.estimate.counts["held_out_b"]) == allocate(
        5000, runner.dealing_seed(7, 1, 0))
    for report in (streamed, kept):
        assert report.witness is not None and report.witness.estimate == ieee.estimate
        assert (report.witness.real_estimate is None) == (real is None)
        assert real is None or report.witness.real_estimate == real.estimate


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_a_capped_selection_split_is_the_first_outcomes(target: Target) -> None:
    cfg = config(selection_cap=200, samples=1500)
    report = run_audit(target, cfg, [PAIR])
    a, b = sample_pair(target, PAIR, samples=1500, seed=7, chunk_size=300)
    alpha = 1 - cfg.confidence
    chosen, split = plan_views(a.values[:200], b.values[:200], held_a=1300, held_b=1300,
                               delta=0, alpha=alpha)
    hits = [(c.event.count(a.values[200:]), c.event.count(b.values[200:])) for c in chosen]
    ieee, real = conclude_views(chosen, hits, split, held_a=1300, held_b=1300, selection_a=200,
                                selection_b=200, epsilon=log(2), delta=0, alpha=alpha)
    assert report.witness is not None and report.witness.estimate == ieee.estimate
    assert (report.witness.real_estimate is None) == (real is None)
    assert real is None or report.witness.real_estimate == real.estimate
    assert ieee.estimate.counts["held_out_a"] == 1300


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_a_validation_split_chooses_from_a_shortlist_then_a_third_split_bounds(target: Target) -> None:
    # cap 100 and 6000 samples: held-out 5900 >= 16·100, so the first 5900/16 held-out outcomes
    # (whole chunks of 300: the tail 100..300 of chunk 0, then chunks 1 and 2) validate a
    # shortlist; the kept candidates are bounded on chunks 3..19 only
    assert runner.validation_chunks(6000, 100, 300) == 2
    assert runner.validation_chunks(1500, 200, 300) == 0  # held-out < 16 × selection: none
    cfg = config(selection_cap=100, samples=6000)
    report = run_audit(target, cfg, [PAIR])
    a, b = sample_pair(target, PAIR, samples=6000, seed=7, chunk_size=300)
    alpha = 1 - cfg.confidence
    # the bounding split (5100 per side >= POOLED_MIN) is dealt by the pair's coins
    m_a, m_b = allocate(5100, runner.dealing_seed(7, 1, 0))
    assert m_a + m_b == 2 * (5100 - spare(5100)) and max(m_a, m_b) <= 5100
    short, split = plan_views(a.values[:100], b.values[:100], held_a=5100, held_b=5100,
                              delta=0, alpha=alpha, shortlist=True, pooled=True)
    seen = [(c.event.count(a.values[100:900]), c.event.count(b.values[100:900])) for c in short]
    kept, kept_split = refine_views(short, split, seen, validation_a=800, validation_b=800,
                                    held_a=5100, held_b=5100, delta=0, alpha=alpha, pooled=True)
    assert 1 <= len(kept) <= 2 and set(kept) <= set(short)
    hits = [(c.event.count(a.values[900:900 + m_a]), c.event.count(b.values[900:900 + m_b]))
            for c in kept]
    ieee, real = conclude_views(kept, hits, kept_split, held_a=m_a, held_b=m_b,
                                selection_a=100, selection_b=100, epsilon=log(2), delta=0,
                                alpha=alpha, validation=800, dealt=True)
    assert report.witness is not None and report.witness.estimate == ieee.estimate
    assert (report.witness.real_estimate is None) == (real is None)
    assert real is None or report.witness.real_estimate == real.estimate
    assert ieee.estimate.counts["validation_a"] == 800
    assert (ieee.estimate.counts["held_out_a"], ieee.estimate.counts["held_out_b"]) == (m_a, m_b)
    assert ieee.estimate.test == "pooled"
    # the same with two workers
    assert run_audit(target, config(selection_cap=100, samples=6000, workers=2),
                     [PAIR]).witness == report.witness


def test_refine_views_keeps_a_bold_and_a_safe_candidate_per_view() -> None:
    from privref.audits.blackbox.events import Threshold
    from privref.audits.blackbox.selection import Candidate

    def cand(cut: float) -> Candidate:
        return Candidate(Threshold(None, 1, cut, False), "a→b", 0, 0, 0.0)

    short = tuple(cand(float(c)) for c in range(6))
    sizes = {"validation_a": 10**5, "validation_b": 10**5, "held_a": 10**7, "held_b": 10**7,
             "delta": 0, "alpha": 0.1}
    # IEEE view 0-2, real view 3-5.  Candidate 1 is small with a large ratio (30 vs 10: bold
    # pick, ln 3 at one standard error, but unsure at the held-out z); 2 is broad with a
    # smaller sure ratio (20000 vs 18000: the safe pick); 0 is no evidence.  In the real view
    # the broad 4 wins both ways.
    seen = [(1000, 1000), (30, 10), (20000, 18000), (50, 50), (30000, 20000), (10, 9)]
    kept, split = refine_views(short, 3, seen, **sizes)  # type: ignore[arg-type]
    assert kept == (short[1], short[2], short[4]) and split == 2
    # one view: the bold and the safe pick of all six
    assert refine_views(short, None, seen, **sizes) == ((short[1], short[4]), None)  # type: ignore[arg-type]
    # both views keeping the same events collapse into one view
    same = (short[4], short[0], short[4])
    assert refine_views(same, 2, [(30000, 20000), (10, 10), (30000, 20000)],
                        **sizes) == ((short[4],), None)  # type: ignore[arg-type]
    # a bold pick whose safe score is within UNION_COST standard errors of the safe pick's is
    # kept alone (10376 vs 9200 against 20000 vs 18000: both broad, the union would not pay)
    pair = (short[0], short[1])
    assert refine_views(pair, None, [(20000, 18000), (10376, 9200)],
                        **sizes) == ((short[1],), None)  # type: ignore[arg-type]
    assert refine_views(pair, None, [(20000, 18000), (10370, 9200)],
                        **sizes) == ((short[1], short[0]), None)  # type: ignore[arg-type]
    with pytest.raises(Exception, match="hits has 1 entries for 6 candidates"):
        refine_views(short, 3, seen[:1], **sizes)  # type: ignore[arg-type]


def test_streaming_never_merges_more_than_the_selection_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    merged: list[int] = []
    real = batch_module.merge_batches

    def spy(parts: list[Batch], name: str, data: object) -> Batch:
        out = real(parts, name, data)  # type: ignore[arg-type]
        merged.append(len(out))
        return out

    monkeypatch.setattr(engines, "merge_batches", spy)  # the name the sampling engine calls
    run_audit(TARGETS[0], config(samples=30_000, selection_cap=1000), [PAIR])
    assert merged and max(merged) == 1200  # ceil(1000 / 300) chunks of 300, whatever the samples


def test_a_search_holds_one_pairs_selection_split_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # memory must not grow with the number of pairs screened: when a side's selection split is
    # merged, at most the other side of the same pair may still be alive (weak references
    # see what the run still holds; the first batch must not be kept as the kinds' reference)
    import weakref

    alive: list[weakref.ref[np.ndarray]] = []
    most: list[int] = []
    real = batch_module.merge_batches

    def spy(parts: list[Batch], name: str, data: object) -> Batch:
        out = real(parts, name, data)  # type: ignore[arg-type]
        assert isinstance(out.values, np.ndarray)
        alive.append(weakref.ref(out.values))
        most.append(sum(r() is not None for r in alive))
        return out

    monkeypatch.setattr(engines, "merge_batches", spy)  # the name the sampling engine calls
    pairs = [((0,), (1,)), ((0,), (2,)), ((1,), (2,)), ((2,), (3,))]
    report = run_audit(TARGETS[1], config(samples=3000, screening_samples=3000, confirm=1),
                       pairs)
    assert len([r for r in report.pairs if r.stage == "screening"]) == 4
    assert len(most) == 10 and max(most) == 2  # 4 screened and 1 confirmed pair, 2 sides each


def test_checkpoint_keeps_counts_and_resumes_without_drawing(tmp_path: Path) -> None:
    calls: list[int] = []

    def counting(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
        calls.append(size)
        return laplace_vec(data, rng, size)

    path = tmp_path / "ck.jsonl"
    cfg = config(checkpoint=path, samples=3000)
    first = run_audit(target_from_callable(counting, "lap"), cfg, [PAIR])
    lines = [json.loads(x) for x in path.read_text().splitlines()[1:]]
    # 10 chunks of 300 per side; the selection split (1500) is chunks 0..4, kept as outcomes;
    # chunks 5..9 are held out, kept as counts only
    assert sum("hits" in r for r in lines) == 2 * 5
    assert sum("data" in r for r in lines) == 2 * 5
    calls.clear()
    again = run_audit(target_from_callable(counting, "lap"), cfg, [PAIR])
    assert again.witness is not None and first.witness is not None
    assert again.witness.estimate == first.witness.estimate
    assert sum(calls) == 3 * 8  # only the randomness probe draws (three draws of 8)
    # counts made for other events are refused, never added up
    text = path.read_text().splitlines()
    record = json.loads(text[-1])
    record["events"] = "0" * 64
    record.pop("sha256")
    chain = hashlib.sha256((text[0] + "\n").encode()).digest()  # as a forger would
    record["sha256"] = hashlib.sha256(chain + canonical(record)).hexdigest()
    path.write_text("\n".join([*text[:-1], json.dumps(record)]) + "\n")
    with pytest.raises(CheckpointError, match=r"made for other events or another split"):
        run_audit(target_from_callable(counting, "lap"), cfg, [PAIR])
    # and so are counts of another part of a chunk (another dealing of the bounding split)
    record = json.loads(text[-1])
    record["size"] -= 1
    record.pop("sha256")
    record["sha256"] = hashlib.sha256(chain + canonical(record)).hexdigest()
    path.write_text("\n".join([*text[:-1], json.dumps(record)]) + "\n")
    with pytest.raises(CheckpointError, match=r"made for other events or another split"):
        run_audit(target_from_callable(counting, "lap"), cfg, [PAIR])


def test_checkpoint_resumes_a_run_with_a_validation_split(tmp_path: Path) -> None:
    """The validation chunks are stored with the shortlist's digest and the rest with the kept
    events' digest; a rerun recomputes the same choice from the stored counts and draws nothing."""
    calls: list[int] = []

    def counting(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
        calls.append(size)
        return laplace_vec(data, rng, size)

    path = tmp_path / "ck.jsonl"
    cfg = config(checkpoint=path, samples=6000, selection_cap=100)
    first = run_audit(target_from_callable(counting, "lap"), cfg, [PAIR])
    lines = [json.loads(x) for x in path.read_text().splitlines()[1:]]
    digests = {r["events"] for r in lines if "hits" in r}
    assert len(digests) == 2  # the shortlist (chunks 1, 2) and the kept events (chunks 3..19)
    # the bounding split (5100 per side) is dealt: each side counts chunks up to its dealt end
    dealt = allocate(5100, runner.dealing_seed(7, 1, 0))
    assert sum("hits" in r for r in lines) == sum(-(-(900 + m) // 300) - 1 for m in dealt)
    assert first.witness is not None and first.witness.estimate.counts["validation_a"] == 800
    calls.clear()
    again = run_audit(target_from_callable(counting, "lap"), cfg, [PAIR])
    assert again.witness is not None and again.witness.estimate == first.witness.estimate
    assert sum(calls) == 3 * 8  # only the randomness probe draws


def test_workers_do_not_change_the_report() -> None:
    one = run_audit(TARGETS[1], config(samples=3000), [PAIR])
    two = run_audit(TARGETS[1], config(samples=3000, workers=2), [PAIR])
    assert one.witness is not None and two.witness is not None
    assert one.witness.estimate == two.witness.estimate


@pytest.mark.deep  # starts a local Dask cluster (about 12 s): docs/test-tiers.md
def test_dask_local_cluster_gives_the_same_report() -> None:
    pytest.importorskip("distributed")
    import cloudpickle  # type: ignore[import-untyped]

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import tests/
    try:
        local = run_audit(TARGETS[0], config(samples=3000), [PAIR, ((0,), (2,))])
        dask = run_audit(TARGETS[0], config(samples=3000, backend="dask", workers=2),
                         [PAIR, ((0,), (2,))])
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert [r.estimate for r in local.pairs] == [r.estimate for r in dask.pairs]
    assert local.epsilon_lower_bound == dask.epsilon_lower_bound > 0


def laplace_scaled(scale: float):  # type: ignore[no-untyped-def]
    def release(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
        return sum(data) + rng.laplace(0.0, scale, size)
    return release


def test_one_run_gives_the_ieee_and_the_real_arithmetic_verdicts() -> None:
    # a Laplace mechanism calibrated for eps = 1 leaks through its float bits (Mironov 2012) but
    # holds in real arithmetic; the same mechanism with its budget spent twice (scale 1/2, true
    # eps = 2, claimed 1) also fails in real arithmetic.  Each view is bounded at alpha/2, so a
    # view's false VIOLATION has probability <= 10^-7 / 2 (a fixed seed makes the test
    # deterministic).
    claim = {"epsilon": rational(1), "samples": 40_000, "seed": 3, "chunk_size": 4096,
             "confidence": AUDIT_CONFIDENCE}
    right = run_audit(target_from_callable(laplace_scaled(1.0), "lap1"),
                      AuditConfig(**claim), [PAIR])  # type: ignore[arg-type]
    double = run_audit(target_from_callable(laplace_scaled(0.5), "lap2"),
                       AuditConfig(**claim), [PAIR])  # type: ignore[arg-type]
    for report in (right, double):
        w = report.witness
        assert w is not None and w.real_estimate is not None  # two views were taken
        assert w.estimate.violation and is_float_leak(w.estimate)
        assert w.real_estimate.alpha == w.estimate.alpha == float(w.alpha / 2)
        assert not is_float_leak(w.real_estimate)
    assert right.float_leak and not right.real_arithmetic_violation
    assert not double.float_leak and double.real_arithmetic_violation
    assert 1 < double.real_epsilon_lower_bound <= 2
    assert right.real_epsilon_lower_bound <= 1
    text = double.summary()
    assert "real view        eps lower bound" in text and "(VIOLATION)" in text
    assert "event kind       IEEE-754 pattern" in text
    # issue 37: both views violated: the verdict line says so and gives the real-view bound
    verdict = text.splitlines()[-1]
    assert verdict.startswith("  verdict          VIOLATION in both views: a real-arithmetic "
                              f"violation, eps >= {double.real_epsilon_lower_bound:.6g}")
    assert "in both views" not in right.summary()
    # without the IEEE-754 events: one view at the whole alpha
    plain = run_audit(target_from_callable(laplace_scaled(0.5), "lap2"),
                      AuditConfig(**claim, float_events=False), [PAIR])  # type: ignore[arg-type]
    assert plain.witness is not None and plain.witness.real_estimate is None
    assert plain.witness.estimate.alpha == float(plain.witness.alpha)


def test_screening_confirms_the_best_pair_of_each_view() -> None:
    # a float mechanism leaks through its bits on every pair (IEEE-view bounds saturate near
    # ln N), so ranking by the larger bound alone would ignore the real-arithmetic loss
    from dataclasses import replace as swap
    from fractions import Fraction

    from privref.audits.blackbox.estimate import PairEstimate
    from privref.audits.blackbox.report import PairResult
    from privref.audits.blackbox.runner import confirmed_pairs

    def est(bound: float) -> PairEstimate:
        return PairEstimate(bound, None, "e", "a→b", {}, 0.05, False)

    base = PairResult(0, "screening", ((0,), (1,)), 10, Fraction(1, 20), est(0.0))
    screened = [swap(base, index=i, estimate=est(ieee), real_estimate=est(real))
                for i, (ieee, real) in enumerate([(12.0, 0.05), (12.5, 0.02), (11.0, 0.30),
                                                  (12.1, 0.10)])]
    assert [r.index for r in confirmed_pairs(screened, 1)] == [2]  # the real view's best
    assert [r.index for r in confirmed_pairs(screened, 2)] == [2, 1]  # then the IEEE view's best
    assert [r.index for r in confirmed_pairs(screened, 3)] == [2, 1, 3]
    one_view = [swap(r, real_estimate=None) for r in screened]
    assert [r.index for r in confirmed_pairs(one_view, 2)] == [1, 3]  # the plain ranking
