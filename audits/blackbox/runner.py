"""The black-box sampling engine and audit driver.

Reproducibility.  Chunk ``c`` of side ``s`` (0 for the pair's first
dataset, 1 for the second) of candidate ``i`` in stage ``g`` (0 screening,
1 confirmation) is drawn with ``numpy.random.Generator(PCG64(SeedSequence(seed,
spawn_key=(g, i, s, c, 0))))``, and the global ``random`` / ``numpy.random``
states are reseeded from ``spawn_key=(g, i, s, c, 1)`` for the chunk (then
restored).  Chunks are reassembled in chunk order, so the samples, hence the
report, depend only on the seed, the target and the parameters, never on
``workers`` or on scheduling.

Statistics across pairs.  With at most ``confirm`` candidate pairs, each is
estimated once on ``samples`` draws per side with failure probability
``(1 - confidence) / k`` (Bonferroni over the ``k`` pairs).  With more
candidates (neighbor search), a *screening* stage draws
``screening_samples`` per side for every candidate only to rank them; the
``confirm`` best are then re-estimated on *fresh* samples (stage 1) with
``(1 - confidence) / k`` each.  The screening samples are independent of the
confirmation samples, so the selection does not bias the confirmation, and by
the union bound every confirmed bound holds simultaneously with probability
at least ``confidence``.  The estimator corrects within a pair (events and
directions; audits.blackbox.estimate).

Memory.  Outcomes are drawn in chunks of ``chunk_size`` (default 2**14 for
vectorized targets, 2**11 for scalar ones) and stored packed (numpy arrays
for numbers), so peak memory is the stored samples of one stage plus one
chunk per worker.

Checkpoint.  With ``checkpoint`` set, every completed chunk is appended (and
fsynced) to a JSON-lines file whose first line fingerprints the parameters;
a rerun with the same parameters skips the chunks found there, and a file
written for other parameters is refused (CheckpointError).
"""

from __future__ import annotations

import base64
import functools
import io
import json
import math
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from multiprocessing.pool import Pool
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

import numpy as np

from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.neighbors import AddRemove, Substitution
from privref.reference.reals import Real, rational

from .report import BlackboxReport, BlackboxVerdict, EstimateLike, PairResult, WitnessSamples
from .search import Pair, SearchSpace, candidate_pairs
from .target import (
    Batch,
    OutcomeError,
    Target,
    TargetCallError,
    TargetError,
    draw,
    probe_randomness,
    seeded_globals,
)

__all__ = ["AuditConfig", "CheckpointError", "Estimator", "run_audit", "sample_pair"]

Estimator = Callable[..., EstimateLike]
_Key = tuple[int, int, int, int]  # (stage, candidate index, side, chunk)


class CheckpointError(PrivrefError):
    """A checkpoint file is unreadable or was written for other parameters."""


@dataclass(frozen=True, slots=True)
class AuditConfig:
    """Parameters of one black-box audit (validated at construction).

    ``samples`` is per side and per confirmed pair; ``screening_samples``
    defaults to ``min(samples, max(1000, samples // 10))``.  ``confirm`` is
    how many candidates are confirmed on fresh samples after screening.
    ``float_events=False`` makes the default estimator leave out the IEEE-754
    pattern events (the real-arithmetic view; audits.blackbox.features).
    """

    epsilon: Real
    delta: Fraction = Fraction(0)
    confidence: Fraction = Fraction(95, 100)
    samples: int = 100_000
    seed: int = 0
    workers: int = 1
    checkpoint: Path | None = None
    progress: bool = False
    screening_samples: int | None = None
    confirm: int = 3
    search: SearchSpace = field(default_factory=SearchSpace)
    chunk_size: int | None = None
    float_events: bool = True

    def __post_init__(self) -> None:
        if not 0 < self.confidence < 1:
            raise InvalidArgument(f"confidence={self.confidence} must lie in (0, 1)")
        if not 0 <= self.delta < 1:
            raise InvalidArgument(f"delta={self.delta} must lie in [0, 1)")
        for name, value, low in (("samples", self.samples, 2), ("workers", self.workers, 1),
                                 ("confirm", self.confirm, 1), ("seed", self.seed, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise InvalidArgument(f"{name}={value!r} must be an int >= {low}")
        for name, opt in (("screening_samples", self.screening_samples),
                          ("chunk_size", self.chunk_size)):
            if opt is not None and (isinstance(opt, bool) or not isinstance(opt, int) or opt < 1):
                raise InvalidArgument(f"{name}={opt!r} must be an int >= 1")

    @property
    def screening(self) -> int:
        """Samples per side per candidate in the screening stage."""
        if self.screening_samples is not None:
            return self.screening_samples
        return min(self.samples, max(1000, self.samples // 10))

    def chunk(self, target: Target) -> int:
        """Outcomes per chunk for ``target``."""
        return self.chunk_size or (2**14 if target.vectorized else 2**11)


# ---------------------------------------------------------------------------- one chunk

def _chunk_seed(seed: int, key: _Key, stream: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(seed, spawn_key=(*key, stream))


def _sample_chunk(target: Target, data: Sequence[Hashable], seed: int, key: _Key,
                  size: int) -> Batch:
    rng = np.random.Generator(np.random.PCG64(_chunk_seed(seed, key, 0)))
    with seeded_globals(_chunk_seed(seed, key, 1)):
        return draw(target, data, rng, size)


_WORKER_TARGET: list[Target] = []


def _init_worker(target: Target | None, spec: str | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    if target is None:
        from .target import load_target
        assert spec is not None
        target = load_target(spec)
    _WORKER_TARGET[:] = [target]


_Task = tuple[_Key, tuple[Hashable, ...], int, int]  # key, data, seed, size


def _worker_task(task: _Task) -> tuple[_Key, Batch]:
    key, data, seed, size = task
    return key, _sample_chunk(_WORKER_TARGET[0], data, seed, key, size)


# ---------------------------------------------------------------------------- checkpoint

def _encode(o: object) -> object:
    if o is None or isinstance(o, bool | int | float | str):
        return o
    if isinstance(o, tuple):
        return {"t": [_encode(x) for x in o]}
    raise CheckpointError(f"--checkpoint cannot store outcomes of type {type(o).__name__} "
                          f"({o!r}); use numbers, strings, bools, None or tuples, or run without "
                          "--checkpoint")


def _decode(o: object) -> Hashable:
    if isinstance(o, dict):
        return tuple(_decode(x) for x in o["t"])
    assert o is None or isinstance(o, bool | int | float | str)
    return o


class Checkpoint:
    """Append-only JSON-lines store of completed chunks, keyed by (stage, index, side, chunk)."""

    def __init__(self, path: Path, fingerprint: dict[str, Any]) -> None:
        self.path = path
        self.chunks: dict[_Key, Batch] = {}
        if path.exists() and path.stat().st_size > 0:
            self._load(fingerprint)
        else:
            if not path.parent.exists():
                raise CheckpointError(f"--checkpoint {path}: directory {path.parent} does not exist")
            with path.open("w", encoding="utf-8") as f:
                f.write(json.dumps({"privref_checkpoint": 1, "fingerprint": fingerprint}) + "\n")
        self._file: TextIO = path.open("a", encoding="utf-8")

    def _load(self, fingerprint: dict[str, Any]) -> None:
        good = 0
        with self.path.open("r", encoding="utf-8") as f:
            lines = f.readlines()
        try:
            header = json.loads(lines[0])
            old = header["fingerprint"]
        except (ValueError, KeyError, TypeError):
            raise CheckpointError(f"--checkpoint {self.path} is not a privref checkpoint") from None
        for name in sorted(set(old) | set(fingerprint)):
            if old.get(name) != fingerprint.get(name):
                raise CheckpointError(
                    f"--checkpoint {self.path} was written for other parameters ({name}: "
                    f"{old.get(name)!r} in the file, {fingerprint.get(name)!r} now); rerun with "
                    "the original parameters or use another file")
        good = len(lines[0])
        for line in lines[1:]:
            try:
                record = json.loads(line)
                key: _Key = (int(record["key"][0]), int(record["key"][1]), int(record["key"][2]),
                             int(record["key"][3]))
                if record["encoding"] == "npy":
                    values: np.ndarray | list[Hashable] = np.load(
                        io.BytesIO(base64.b64decode(record["data"])), allow_pickle=False)
                else:
                    values = [_decode(o) for o in record["data"]]
                batch = Batch(record["kind"], values, _decode(record["first"]))
            except (ValueError, KeyError, TypeError, IndexError):
                break  # a line cut by a crash: drop it and everything after
            self.chunks[key] = batch
            good += len(line)
        with self.path.open("r+", encoding="utf-8") as f:  # drop a torn tail before appending
            f.seek(0)
            text = f.read()
            f.seek(0)
            f.write(text[:good])
            f.truncate()

    def record(self, key: _Key, batch: Batch) -> None:
        """Persist one completed chunk (flushed and fsynced before returning)."""
        if isinstance(batch.values, np.ndarray):
            buf = io.BytesIO()
            np.save(buf, batch.values, allow_pickle=False)
            enc, data = "npy", base64.b64encode(buf.getvalue()).decode("ascii")
            payload: object = data
        else:
            enc, payload = "json", [_encode(o) for o in batch.values]
        line = json.dumps({"key": list(key), "kind": batch.kind, "first": _encode(batch.first),
                           "encoding": enc, "data": payload})
        self._file.write(line + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())
        self.chunks[key] = batch

    def close(self) -> None:
        """Close the file (the data is already on disk)."""
        self._file.close()


# ---------------------------------------------------------------------------- progress

class Progress:
    """A one-line progress bar with rate and ETA on stderr (only when enabled)."""

    def __init__(self, enabled: bool, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.total = 0
        self.done = 0
        self.label = ""
        self.start = time.perf_counter()
        self.last = 0.0

    def begin(self, label: str, total: int) -> None:
        """Start a stage of ``total`` samples."""
        self.label, self.total, self.done = label, total, 0
        self.start = time.perf_counter()
        self.last = 0.0
        self._draw(force=True)

    def advance(self, n: int) -> None:
        """Record ``n`` more samples."""
        self.done += n
        self._draw(force=self.done >= self.total)

    def _draw(self, *, force: bool) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self.last < 0.2:
            return
        self.last = now
        frac = self.done / self.total if self.total else 1.0
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else math.inf
        eta_text = "--:--" if math.isinf(eta) else f"{int(eta) // 60}:{int(eta) % 60:02d}"
        bar = "#" * int(frac * 24) + "-" * (24 - int(frac * 24))
        self.stream.write(f"\r{self.label} [{bar}] {frac:4.0%} {self.done}/{self.total} "
                          f"{rate:,.0f}/s ETA {eta_text} ")
        self.stream.flush()

    def end(self) -> None:
        """Finish the line."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


# ---------------------------------------------------------------------------- engine

class _Engine:
    def __init__(self, target: Target, config: AuditConfig, fingerprint: dict[str, Any]) -> None:
        self.target = target
        self.config = config
        self.pool: Pool | None = None
        self.progress = Progress(config.progress)
        self.checkpoint = (None if config.checkpoint is None
                           else Checkpoint(config.checkpoint, fingerprint))

    def __enter__(self) -> _Engine:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.pool is not None:
            if kind is None:
                self.pool.close()
            else:
                self.pool.terminate()
            self.pool.join()
        if self.checkpoint is not None:
            self.checkpoint.close()

    def _pool(self) -> Pool:
        if self.pool is None:
            methods = multiprocessing.get_all_start_methods()
            init: tuple[Target | None, str | None]
            if "fork" in methods:  # the target (even a closure) is inherited, not pickled
                method, init = "fork", (self.target, None)
            elif self.target.spec is not None:  # workers re-load the target from its spec
                method, init = "spawn", (None, self.target.spec)
            else:
                raise TargetError(f"workers={self.config.workers} needs the fork start method or a "
                                  f"target given as 'module:function'; target {self.target.name} is "
                                  "an in-process callable: use workers=1")
            ctx = multiprocessing.get_context(method)
            self.pool = ctx.Pool(self.config.workers, initializer=_init_worker, initargs=init)
        return self.pool

    def sample(self, stage: int, pairs: Sequence[tuple[int, Pair]], n: int,
               label: str) -> dict[tuple[int, int], Batch]:
        chunk = self.config.chunk(self.target)
        tasks: list[_Task] = []
        found: dict[_Key, Batch] = {}
        total = 0
        for index, pair in pairs:
            for side in (0, 1):
                for c in range(-(-n // chunk)):
                    key = (stage, index, side, c)
                    size = min(chunk, n - c * chunk)
                    total += size
                    if self.checkpoint is not None and key in self.checkpoint.chunks:
                        found[key] = self.checkpoint.chunks[key]
                    else:
                        tasks.append((key, pair[side], self.config.seed, size))
        self.progress.begin(label, total)
        self.progress.advance(sum(len(b) for b in found.values()))
        try:
            for key, batch in self._run(tasks):
                if self.checkpoint is not None:
                    self.checkpoint.record(key, batch)
                found[key] = batch
                self.progress.advance(len(batch))
        finally:
            self.progress.end()
        out: dict[tuple[int, int], Batch] = {}
        for index, pair in pairs:
            for side in (0, 1):
                # pop: each side's chunks are released once merged (peak ≈ total + one side)
                parts = [found.pop((stage, index, side, c)) for c in range(-(-n // chunk))]
                out[(index, side)] = _merge(parts, self.target, pair[side])
        return out

    def _run(self, tasks: list[_Task]) -> Iterator[tuple[_Key, Batch]]:
        if self.config.workers == 1 or len(tasks) <= 1:
            for key, data, seed, size in tasks:
                yield key, _sample_chunk(self.target, data, seed, key, size)
            return
        yield from self._pool().imap_unordered(_worker_task, tasks)


def _merge(parts: list[Batch], target: Target, data: Sequence[Hashable]) -> Batch:
    kind = parts[0].kind
    for p in parts[1:]:
        if p.kind != kind and len(p):
            raise OutcomeError(f"target {target.name} returned inconsistent outcomes on "
                               f"data={list(data)!r}: {p.first!r} ({p.kind}) after "
                               f"{parts[0].first!r} ({kind})")
    if all(isinstance(p.values, np.ndarray) for p in parts):
        return Batch(kind, np.concatenate([p.values for p in parts if isinstance(p.values, np.ndarray)]),
                     parts[0].first)
    values: list[Hashable] = []
    for p in parts:
        values.extend(p.outcomes())
    return Batch(kind, values, parts[0].first)


def sample_pair(target: Target, pair: Pair, *, samples: int, seed: int, workers: int = 1,
                chunk_size: int | None = None, stage: int = 1, index: int = 0
                ) -> tuple[Batch, Batch]:
    """Draw ``samples`` outcomes on each side of ``pair`` exactly as :func:`run_audit` does.

    The result depends only on (target, pair, samples, seed, chunk_size,
    stage, index), never on ``workers``.
    """
    config = AuditConfig(epsilon=rational(0), samples=max(samples, 2), seed=seed, workers=workers,
                         chunk_size=chunk_size)
    with _Engine(target, config, {}) as engine:
        out = engine.sample(stage, [(index, pair)], samples, "sampling")
    return out[(index, 0)], out[(index, 1)]


# ---------------------------------------------------------------------------- audit

def _default_estimator(float_events: bool = True) -> Estimator:
    from .estimate import estimate_pair
    return estimate_pair if float_events else functools.partial(estimate_pair, float_events=False)


def _check_kinds(batches: dict[tuple[int, int], Batch], pairs: dict[int, Pair], target: Target,
                 reference_batch: list[tuple[Batch, Sequence[Hashable]]]) -> None:
    for (index, side), batch in sorted(batches.items()):
        if not len(batch):
            continue
        if not reference_batch:
            reference_batch.append((batch, pairs[index][side]))
            continue
        first, data = reference_batch[0]
        if batch.kind != first.kind:
            raise OutcomeError(
                f"target {target.name} returned inconsistent outcomes: {batch.first!r} "
                f"({batch.kind}) on data={list(pairs[index][side])!r} but {first.first!r} "
                f"({first.kind}) on data={list(data)!r}")


def _fingerprint(target: Target, config: AuditConfig, given: Sequence[Pair] | None) -> dict[str, Any]:
    return {
        "target": target.name, "vectorized": target.vectorized, "seed": config.seed,
        "samples": config.samples, "screening_samples": config.screening,
        "chunk_size": config.chunk(target), "confirm": config.confirm,
        "epsilon": str(config.epsilon), "delta": str(config.delta),
        "confidence": str(config.confidence),
        "pairs": None if given is None else json.loads(json.dumps([[list(a), list(b)]
                                                                     for a, b in given], default=repr)),
        "search": None if given is not None else config.search.to_json(),
    }


def _usable_candidates(target: Target, candidates: Sequence[Pair], seed: int,
                       warnings: list[str]) -> list[Pair]:
    usable: list[Pair] = []
    failures: list[str] = []
    for i, pair in enumerate(candidates):
        try:
            for side in (0, 1):
                _sample_chunk(target, pair[side], seed, (9, i, side, 0), 1)
        except TargetCallError as exc:
            failures.append(str(exc))
            continue
        usable.append(pair)
    if not usable:
        raise TargetCallError(f"target {target.name} raised on every one of the {len(candidates)} "
                              f"candidate pairs (give --pair, --elements or --sizes); first: "
                              f"{failures[0]}")
    if failures:
        warnings.append(f"{len(failures)} of {len(candidates)} searched candidate pairs were "
                        f"skipped because the target raised on them; first: {failures[0]}")
    return usable


def _linf_neighbors(a: Sequence[Hashable], b: Sequence[Hashable]) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if not (isinstance(x, int | float) and isinstance(y, int | float)) or abs(x - y) > 1:
            return False
    return True


def _check_given(pairs: Sequence[Pair], warnings: list[str]) -> None:
    for a, b in pairs:
        if a == b:
            raise InvalidArgument(f"pair {list(a)!r}, {list(b)!r}: the two datasets are equal")
        if not (Substitution().are_neighbors(a, b) or AddRemove().are_neighbors(a, b)
                or _linf_neighbors(a, b)):
            warnings.append(f"pair {list(a)!r} vs {list(b)!r} is neighboring under none of "
                            "substitution, add/remove or entries within 1 of each other; the "
                            "bound is only meaningful if the mechanism's claim covers this pair")


def run_audit(target: Target, config: AuditConfig, pairs: Sequence[Pair] | None = None, *,
              estimator: Estimator | None = None,
              on_partial: Callable[[BlackboxReport], None] | None = None,
              keep_witness_samples: bool = False) -> BlackboxReport:
    """Audit ``target`` against ``config``'s claim on ``pairs`` (searched when None).

    Guarantee: when the report is complete, with probability at least
    ``config.confidence`` every confirmed pair's ``epsilon_lower_bound`` is
    at most the target's true privacy loss at ``config.delta`` on that pair
    (given the estimator's per-pair guarantee; see the module docstring for
    the correction over pairs).  On a PrivrefError or Ctrl-C, ``on_partial``
    receives the partial report (status ``error`` or ``interrupted``) before
    the exception propagates; completed chunks are already in the checkpoint.

    With ``keep_witness_samples``, the report's ``witness_samples`` holds the
    witness pair's confirmation samples (the very arrays the estimator saw;
    no extra sampling) for audits.blackbox.html; the other pairs' samples are
    dropped on return, so memory stays that of one stage.  Nothing else in
    the report changes.
    """
    estimate_pair = estimator or _default_estimator(config.float_events)
    start = time.perf_counter()
    warnings: list[str] = []
    notes: list[str] = []
    results: list[PairResult] = []
    kept: dict[int, WitnessSamples] = {}  # confirmed pairs' samples, only when asked for
    if pairs is not None:
        if not pairs:
            raise InvalidArgument("pairs=[] must hold at least one pair")
        candidates: list[Pair] = [(tuple(a), tuple(b)) for a, b in pairs]
        _check_given(candidates, warnings)
    else:
        candidates = list(candidate_pairs(config.search, config.seed))

    def report(status: str, error: str | None) -> BlackboxReport:
        confirmed = [r for r in results if r.stage == "confirmation"]
        witness = None
        if confirmed:
            witness = max(confirmed, key=lambda r: (r.estimate.violation,
                                                    r.estimate.epsilon_lower_bound, -r.index))
        verdict = None
        if status == "complete":
            verdict = (BlackboxVerdict.VIOLATION if any(r.estimate.violation for r in confirmed)
                       else BlackboxVerdict.NO_VIOLATION_FOUND)
        return BlackboxReport(
            target=target.name, target_package=target.package,
            target_package_version=target.package_version, vectorized=target.vectorized,
            claimed_epsilon=config.epsilon, claimed_delta=config.delta,
            confidence=config.confidence, samples=config.samples, seed=config.seed,
            status=status, verdict=verdict,
            epsilon_lower_bound=0.0 if witness is None else witness.estimate.epsilon_lower_bound,
            witness=witness, pairs=tuple(results), candidates=len(candidates),
            search=None if pairs is not None else config.search.to_json(),
            screening_samples=None if len(candidates) <= config.confirm else config.screening,
            workers=config.workers, warnings=tuple(warnings), notes=tuple(notes),
            elapsed_seconds=time.perf_counter() - start, error=error,
            float_events=config.float_events,
            witness_samples=None if witness is None else kept.get(witness.index))

    try:
        if pairs is None:
            candidates = _usable_candidates(target, candidates, config.seed, warnings)
        w, n = probe_randomness(target, candidates[0][0], seed=config.seed)
        warnings.extend(w)
        notes.extend(n)
        indexed = dict(enumerate(candidates))
        seen: list[tuple[Batch, Sequence[Hashable]]] = []
        alpha = 1 - config.confidence
        with _Engine(target, config, _fingerprint(target, config, pairs)) as engine:
            chosen = list(indexed.items())
            if len(candidates) > config.confirm:
                batches = engine.sample(0, chosen, config.screening, "screening")
                _check_kinds(batches, indexed, target, seen)
                for i, pair in chosen:
                    est = estimate_pair(batches[(i, 0)].values, batches[(i, 1)].values,
                                        epsilon=config.epsilon, delta=config.delta, alpha=alpha)
                    results.append(PairResult(i, "screening", pair, config.screening, alpha, est))
                del batches
                ranked = sorted(results, key=lambda r: (-r.estimate.epsilon_lower_bound, r.index))
                chosen = sorted((r.index, r.pair) for r in ranked[:config.confirm])
            share = alpha / len(chosen)
            batches = engine.sample(1, chosen, config.samples, "confirmation")
            _check_kinds(batches, indexed, target, seen)
            for i, pair in chosen:
                est = estimate_pair(batches[(i, 0)].values, batches[(i, 1)].values,
                                    epsilon=config.epsilon, delta=config.delta, alpha=share)
                results.append(PairResult(i, "confirmation", pair, config.samples, share, est))
                if keep_witness_samples:
                    kept[i] = WitnessSamples(batches[(i, 0)].values, batches[(i, 1)].values)
    except PrivrefError as exc:
        if on_partial is not None:
            on_partial(report("error", str(exc)))
        raise
    except KeyboardInterrupt:
        if on_partial is not None:
            where = (f"; completed chunks are in {config.checkpoint}: rerun the same command to "
                     "resume" if config.checkpoint is not None else "")
            on_partial(report("interrupted", "interrupted" + where))
        raise
    return report("complete", None)
