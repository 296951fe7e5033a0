"""The sampling engine: seeds, workers, chunks, checkpoints, alpha splitting, partial reports.

The estimator is replaced here by a recording stand-in (the runner's contract
does not depend on the statistics); end-to-end runs with the real estimator
are in test_cli_blackbox.py and test_api.py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from privref.audits.blackbox.declarations import DEFAULTED_RELATION, declare
from privref.audits.blackbox.report import BlackboxReport, BlackboxVerdict
from privref.audits.blackbox.runner import AuditConfig, CheckpointError, run_audit, sample_pair
from privref.audits.blackbox.search import SearchSpace
from privref.audits.blackbox.target import OutcomeError, Target, TargetCallError, target_from_callable
from privref.reference.errors import InvalidArgument, NotNeighboring
from privref.reference.reals import Real, rational

from ...stats import AUDIT_CONFIDENCE


@dataclass(frozen=True)
class Stand:
    """What the runner reads from an estimate."""

    epsilon_lower_bound: float
    delta_at_claimed_epsilon: tuple[float, float] | None
    event: str
    direction: str
    counts: dict[str, int]
    alpha: float
    violation: bool


def _mean(xs: Sequence[object]) -> float:
    return float(np.mean([x[0] if isinstance(x, tuple) else x for x in xs]))


@dataclass
class Recorder:
    """A deterministic stand-in estimator: the bound is |mean(a) - mean(b)|; it records calls."""

    calls: list[tuple[int, int, Fraction]] = field(default_factory=list)
    heads: list[tuple[object, ...]] = field(default_factory=list)

    def __call__(self, a: Sequence[object], b: Sequence[object], *, epsilon: Real,
                 delta: Fraction, alpha: Fraction) -> Stand:
        self.calls.append((len(a), len(b), alpha))
        self.heads.append(tuple(list(a)[:40]) + tuple(list(b)[:40]))
        bound = abs(_mean(a) - _mean(b))
        return Stand(bound, None, "mean", "a→b", {"n_a": len(a), "n_b": len(b)}, float(alpha),
                     bound > float(epsilon))


def rr(data: list[int], rng: np.random.Generator) -> int:
    b = data[0]
    return b if rng.random() < 0.75 else 1 - b


def rr_vec(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
    return np.where(rng.random(size) < 0.75, data[0], 1 - data[0])


def laplace_tuple(data: list[int], rng: np.random.Generator) -> tuple[float, str]:
    return (sum(data) + float(rng.laplace()), "tag")


RR = target_from_callable(rr, "rr")
RR_VEC = target_from_callable(rr_vec, "rr_vec")
EPS: Real = rational(Fraction(1, 2))


def config(**kw: object) -> AuditConfig:
    base: dict[str, object] = {"confidence": AUDIT_CONFIDENCE,
                               "epsilon": EPS, "samples": 3000, "seed": 11, "chunk_size": 500}
    base.update(kw)
    return AuditConfig(**base)  # type: ignore[arg-type]


def _values(batch: object) -> list[object]:
    values = batch.values  # type: ignore[attr-defined]
    return values.tolist() if isinstance(values, np.ndarray) else list(values)


@pytest.mark.parametrize("target", [RR, RR_VEC, target_from_callable(laplace_tuple, "lap")])
def test_samples_do_not_depend_on_workers(target: Target) -> None:
    """Per-chunk seeds come from (seed, stage, pair, side, chunk): workers=1 and 2 agree exactly."""
    one = sample_pair(target, ((0,), (1,)), samples=2100, seed=4, workers=1, chunk_size=256)
    two = sample_pair(target, ((0,), (1,)), samples=2100, seed=4, workers=2, chunk_size=256)
    for x, y in zip(one, two, strict=True):
        assert _values(x) == _values(y)
    assert len(one[0]) == 2100


def test_reports_do_not_depend_on_workers() -> None:
    est1, est2 = Recorder(), Recorder()
    r1 = run_audit(RR, config(workers=1), None, estimator=est1)
    r2 = run_audit(RR, config(workers=2), None, estimator=est2)
    strip = ("elapsed_seconds", "workers")
    assert ({k: v for k, v in r1.to_json().items() if k not in strip}
            == {k: v for k, v in r2.to_json().items() if k not in strip})


def test_seed_changes_samples_and_chunks_are_independent() -> None:
    a = sample_pair(RR, ((0,), (1,)), samples=1000, seed=1, chunk_size=100)
    b = sample_pair(RR, ((0,), (1,)), samples=1000, seed=2, chunk_size=100)
    assert _values(a[0]) != _values(b[0])
    chunks = [tuple(_values(a[0])[i:i + 100]) for i in range(0, 1000, 100)]
    assert len(set(chunks)) == len(chunks)
    assert _values(a[0]) != _values(a[1])[:0] + _values(a[0])[::-1]  # sides differ in stream too


def global_rng(data: list[int], rng: np.random.Generator) -> float:
    return float(np.random.random()) + random.random()


def test_global_rng_is_reseeded_per_chunk_and_restored() -> None:
    """Forked workers would otherwise share the global state and repeat each other's draws."""
    np.random.seed(123)
    random.seed(123)
    before = (np.random.random(), random.random())
    np.random.seed(123)
    random.seed(123)
    target = target_from_callable(global_rng, "global")
    one = sample_pair(target, ((0,), (1,)), samples=400, seed=9, workers=2, chunk_size=50)
    assert (np.random.random(), random.random()) == before  # caller's state untouched
    values = _values(one[0]) + _values(one[1])
    assert len(set(values)) == len(values)  # no chunk repeats another
    again = sample_pair(target, ((0,), (1,)), samples=400, seed=9, workers=1, chunk_size=50)
    assert _values(again[0]) == _values(one[0])


def test_given_pairs_split_alpha() -> None:
    est = Recorder()
    pairs = [((0,), (1,)), ((0, 0), (1, 0))]
    report = run_audit(RR, config(confidence=Fraction(9, 10)), pairs, estimator=est)
    assert [c[2] for c in est.calls] == [Fraction(1, 20), Fraction(1, 20)]
    assert all(p.stage == "confirmation" and p.samples == 3000 for p in report.pairs)
    assert report.screening_samples is None and report.status == "complete"


def test_search_screens_then_confirms_on_fresh_samples() -> None:
    est = Recorder()
    report = run_audit(RR, config(confirm=2, screening_samples=600, confidence=Fraction(95, 100)),
                       None, estimator=est)
    screening = [p for p in report.pairs if p.stage == "screening"]
    confirmed = [p for p in report.pairs if p.stage == "confirmation"]
    assert len(screening) == report.candidates > 2 and len(confirmed) == 2
    assert all(p.samples == 600 for p in screening)
    assert all(p.alpha == Fraction(1, 40) and p.samples == 3000 for p in confirmed)
    best = sorted(screening, key=lambda p: (-p.estimate.epsilon_lower_bound, p.index))[:2]
    assert {p.index for p in best} == {p.index for p in confirmed}
    assert report.witness is not None and report.witness.stage == "confirmation"
    assert (report.verdict is BlackboxVerdict.VIOLATION) == any(p.estimate.violation
                                                                for p in confirmed)
    assert report.epsilon_lower_bound == max(p.estimate.epsilon_lower_bound for p in confirmed)
    # fresh samples: no confirmation call sees the samples its pair was screened on
    by_index = {p.index: k for k, p in enumerate(report.pairs) if p.stage == "screening"}
    for k, p in enumerate(report.pairs):
        if p.stage == "confirmation":
            assert est.heads[k] != est.heads[by_index[p.index]]


def test_verdict_follows_confirmed_pairs_only() -> None:
    report = run_audit(RR, config(epsilon=rational(1)), [((0,), (1,))], estimator=Recorder())
    assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND
    assert 0 < report.epsilon_lower_bound < 1


def test_search_skips_candidates_the_target_rejects() -> None:
    def bits_only(data: list[int], rng: np.random.Generator) -> int:
        if len(data) != 1:
            raise ValueError(f"need one bit, got {len(data)}")
        return rr(data, rng)
    report = run_audit(target_from_callable(bits_only, "bits"),
                       config(search=SearchSpace(sizes=(1, 2), random_examples=0)), None,
                       estimator=Recorder())
    assert report.candidates == 1
    assert any("skipped because the target raised" in w for w in report.warnings)
    with pytest.raises(TargetCallError, match="raised on every one of the"):
        run_audit(target_from_callable(bits_only, "bits"),
                  config(search=SearchSpace(sizes=(2, 3), random_examples=0)), None,
                  estimator=Recorder())


def test_target_error_yields_partial_report() -> None:
    calls = {"n": 0}

    def flaky(data: list[int], rng: np.random.Generator) -> int:
        calls["n"] += 1
        if calls["n"] > 700:
            raise RuntimeError("disk full")
        return 0
    partial: list[BlackboxReport] = []
    with pytest.raises(TargetCallError, match=r"target flaky raised on data=\[\d\]: RuntimeError: "
                                              "disk full"):
        run_audit(target_from_callable(flaky, "flaky"), config(), [((0,), (1,))],
                  estimator=Recorder(), on_partial=partial.append)
    (report,) = partial
    assert report.status == "error" and report.verdict is None and "disk full" in (report.error or "")
    assert report.to_json()["epsilon_lower_bound"] == 0.0


def test_inconsistent_kinds_across_sides() -> None:
    def by_side(data: list[int], rng: np.random.Generator) -> object:
        return 1 if data[0] == 0 else "one"
    with pytest.raises(OutcomeError, match=r"'one' \(label\) on data=\[1\] but 1 \(number\) on "
                                           r"data=\[0\]"):
        run_audit(target_from_callable(by_side, "side"), config(), [((0,), (1,))],
                  estimator=Recorder())


class Interrupting:
    """Raises KeyboardInterrupt (as Ctrl-C would) once ``limit`` chunks were drawn (probes not counted)."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.chunks = 0
        self.__name__ = "interrupting"
        self.__qualname__ = "interrupting"

    def __call__(self, data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
        if size < 100:  # the runner's randomness probe
            return rr_vec(data, rng, size)
        if self.limit is not None and self.chunks >= self.limit:
            raise KeyboardInterrupt
        self.chunks += 1
        return rr_vec(data, rng, size)


def test_checkpoint_resume_after_interrupt(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    cfg = config(checkpoint=path)
    pairs = [((0,), (1,))]
    partial: list[BlackboxReport] = []
    with pytest.raises(KeyboardInterrupt):
        run_audit(target_from_callable(Interrupting(4), "t"), cfg, pairs, estimator=Recorder(),
                  on_partial=partial.append)
    assert partial[0].status == "interrupted" and str(path) in (partial[0].error or "")
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 4  # header + the 4 completed chunks
    intact = path.read_text()
    with path.open("a") as f:
        f.write('{"key": [1, 0, 1, 2], "kind": "number", "fir')  # a line torn by a crash
    with pytest.raises(CheckpointError, match=r"is truncated \(its last line is incomplete\)"):
        run_audit(target_from_callable(Interrupting(None), "t"), cfg, pairs, estimator=Recorder())
    path.write_text(intact)  # the user deletes the torn line, as the message says
    resumed_target = Interrupting(None)
    resumed = run_audit(target_from_callable(resumed_target, "t"), cfg, pairs, estimator=Recorder())
    assert resumed_target.chunks == 12 - 4  # 6 chunks per side; only the missing ones are drawn
    fresh = run_audit(target_from_callable(Interrupting(None), "t"), config(), pairs,
                      estimator=Recorder())
    assert resumed.epsilon_lower_bound == fresh.epsilon_lower_bound
    assert resumed.to_json()["counts"] == fresh.to_json()["counts"]
    assert len(path.read_text().splitlines()) == 1 + 12
    again = Interrupting(0)  # everything is in the checkpoint: no draw at all
    run_audit(target_from_callable(again, "t"), cfg, pairs, estimator=Recorder())


def test_checkpoint_of_labels_and_tuples_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "tuples.ckpt"
    first = run_audit(target_from_callable(laplace_tuple, "lap"),
                      config(checkpoint=path, samples=600), [((0,), (1,))], estimator=Recorder())
    calls = {"n": 0}

    def counting(data: list[int], rng: np.random.Generator) -> tuple[float, str]:
        calls["n"] += 1
        return laplace_tuple(data, rng)
    second = run_audit(target_from_callable(counting, "lap"), config(checkpoint=path, samples=600),
                       [((0,), (1,))], estimator=Recorder())
    assert calls["n"] == 3 * 8  # only the randomness probe ran; every chunk came from the file
    assert first.to_json()["pairs"] == second.to_json()["pairs"]


def test_checkpoint_refuses_other_parameters(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    run_audit(RR, config(checkpoint=path, samples=600), [((0,), (1,))], estimator=Recorder())
    with pytest.raises(CheckpointError, match=r"other parameters \(seed: 11 in the file, 12 now\)"):
        run_audit(RR, config(checkpoint=path, samples=600, seed=12), [((0,), (1,))],
                  estimator=Recorder())
    with pytest.raises(CheckpointError, match="pairs"):
        run_audit(RR, config(checkpoint=path, samples=600), [((1,), (0,))], estimator=Recorder())
    junk = tmp_path / "junk.ckpt"
    junk.write_text("hello\n")
    with pytest.raises(CheckpointError, match="is not a privref checkpoint"):
        run_audit(RR, config(checkpoint=junk, samples=600), [((0,), (1,))], estimator=Recorder())
    with pytest.raises(CheckpointError, match="does not exist"):
        run_audit(RR, config(checkpoint=tmp_path / "no" / "x.ckpt"), [((0,), (1,))],
                  estimator=Recorder())


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"samples": 1}, "samples=1 must be an int >= 2"),
    ({"workers": 0}, "workers=0 must be an int >= 1"),
    ({"confidence": Fraction(1)}, r"confidence=1 must lie in \(0, 1\)"),
    ({"delta": Fraction(-1, 2)}, "delta=-1/2"),
    ({"seed": -1}, "seed=-1"),
    ({"chunk_size": 0}, "chunk_size=0"),
])
def test_config_validation(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        config(**kwargs)


def test_empty_pair_list_is_refused() -> None:
    with pytest.raises(InvalidArgument, match=r"pairs=\[\]"):
        run_audit(RR, config(), [], estimator=Recorder())
    with pytest.raises(InvalidArgument, match="the two datasets are equal"):
        run_audit(RR, config(), [((0,), (0,))], estimator=Recorder())


def test_given_pairs_are_checked_under_the_relation_in_force() -> None:
    """relation=None: run_audit checks given pairs under the target's declared relation, else
    substitution (with the DEFAULTED warning, the relation recorded); never unchecked."""
    with pytest.raises(NotNeighboring, match=r"\[0, 0, 0\] vs \[1, 1, 1\] is not neighboring "
                                             r"under substitution.*distance 3"):
        run_audit(RR, config(), [((0, 0, 0), (1, 1, 1))], estimator=Recorder())
    ok = run_audit(RR, config(), [((0, 0), (1, 0))], estimator=Recorder())
    assert ok.relation == "substitution" and ok.warnings == (DEFAULTED_RELATION,)
    @declare(relation="add-remove")
    def count(data: list[int], rng: np.random.Generator) -> int:
        return rr(data[:1], rng)

    declared = target_from_callable(count)
    ok = run_audit(declared, config(), [((0,), (0, 1))], estimator=Recorder())
    assert ok.relation == "add-remove" and ok.warnings == ()
    with pytest.raises(NotNeighboring, match="under add-remove"):
        run_audit(declared, config(), [((0,), (1,))], estimator=Recorder())


def test_report_json_is_serializable() -> None:
    report = run_audit(RR, config(), [((0,), (1,))], estimator=Recorder())
    payload = json.loads(json.dumps(report.to_json()))
    for key in ("claimed_epsilon", "claimed_delta", "epsilon_lower_bound", "verdict", "confidence",
                "samples", "seed", "pair", "event", "privref_version", "target",
                "target_package_version", "warnings", "pairs", "elapsed_seconds"):
        assert key in payload
    assert payload["pair"] == [[0], [1]] and payload["samples"] == 3000
    assert "verdict" in report.summary()
