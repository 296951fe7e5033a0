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
vectorized targets, 2**11 for scalar ones).  The default estimator streams
(:meth:`_Engine.stream`): it keeps the selection split (at most
``selection_cap`` outcomes per side) and one chunk per worker, and the
held-out chunks come back as counts, so memory does not grow with
``samples``.  A custom estimator or the HTML report's samples keep every
outcome (packed: numpy arrays for numbers), at most MAX_IN_MEMORY per side.

Checkpoint.  With ``checkpoint`` set, every completed chunk is appended (and
fsynced) to a JSON-lines file whose first line fingerprints the parameters;
a rerun with the same parameters skips the chunks found there, and a file
written for other parameters is refused (CheckpointError).  Integrity: every
chunk line carries ``sha256`` = SHA-256 of (SHA-256 of the header line ||
the line's canonical JSON without that field), so a flipped byte, a chunk
spliced in from another run's file, an edited header or a truncated line is
refused (CheckpointError), never trusted.  (Not a defence against a forger who
recomputes the digests; it catches corruption and accidental edits.)

Pairs.  Given pairs must be neighboring under ``config.relation`` (or, with
``config.group = k``, within distance k; the claim tested is then the group
claim (kε, δ·Σ_{j<k} e^{jε})): anything else is NotNeighboring, never a
verdict.  Exact duplicates (also up to order) are dropped with a warning, and
entries must be finite.  ``relation=None`` means the caller vouches for the
pairs (the validation zoo's custom relations); the report says "unchecked".

Limits: ``samples`` <= MAX_SAMPLES per side, ``workers`` <= MAX_WORKERS,
datasets of at most MAX_DATASET_SIZE entries, ``seed`` < 2**128,
``confidence`` <= 1 - 10**-15, and a per-call ``timeout`` (audits.blackbox.target).
Tasks are generated lazily, so the plan never sits in memory.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import math
import os
import sys
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import TracebackType
from typing import Any, Final, TextIO

import numpy as np

from privref.reference.errors import (
    InvalidArgument,
    NotNeighboring,
    OutputError,
    PrivrefError,
    TooLargeToEnumerate,
)
from privref.reference.neighbors import NeighborRelation, relation_distance
from privref.reference.privacy import PrivacyClaim, group_privacy
from privref.reference.reals import Order, Real, compare, log, rational

from .batch import check_kinds, merge_batches
from .engines import BACKENDS, Backend, make_backend
from .estimate import (
    conclude_views,
    dealt_sizes,
    events_digest,
    plan_views,
    refine_views,
    selection_sizes,
)
from .events import Event
from .report import (
    BlackboxReport,
    BlackboxVerdict,
    EstimateLike,
    PairResult,
    PointResult,
    WitnessSamples,
)
from .search import Pair, SearchSpace, candidate_pairs, relation_name_safe
from .selection import Candidate
from .target import (
    DEFAULT_TIMEOUT,
    Batch,
    Target,
    TargetCallError,
    TargetTimeout,
    check_timeout,
    draw,
    probe_randomness,
    seeded_globals,
)

__all__ = [
    "DEFAULT_SELECTION_CAP",
    "MAX_CONFIDENCE",
    "MAX_DATASET_SIZE",
    "MAX_IN_MEMORY",
    "MAX_POINTS",
    "MAX_SAMPLES",
    "MAX_SEED",
    "MAX_WORKERS",
    "AuditConfig",
    "CheckpointError",
    "Counted",
    "Estimator",
    "Streamed",
    "audited_claim",
    "audited_points",
    "confirmed_pairs",
    "low_power",
    "run_audit",
    "sample_pair",
]

MAX_SAMPLES = 10**10
"""Largest ``samples`` per side and pair (the streaming estimator's memory does not grow with it)."""

MAX_IN_MEMORY = 10**8
"""Largest ``samples`` when every outcome is kept (a custom estimator, or the witness samples for
the HTML report): about 1.6 GB of float outcomes for one pair."""

MAX_POINTS = 64
"""Most (epsilon, delta) points one audit tests (AuditConfig.points plus the headline point)."""

DEFAULT_SELECTION_CAP = 2**20
"""Default cap of the selection split per side (the only outcomes the default estimator keeps)."""

MAX_WORKERS = 4 * (os.cpu_count() or 1)
"""Largest ``workers``: four per core."""

MAX_SEED = 2**128 - 1
"""Largest seed (numpy's SeedSequence entropy is taken as 128 bits here)."""

MAX_CONFIDENCE = 1 - Fraction(1, 10**15)
"""Largest confidence: 1 - 10**-15 (beyond it the float proposals of audits.stats underflow)."""

MAX_DATASET_SIZE = 10_000
"""Longest dataset in a given pair."""

Estimator = Callable[..., EstimateLike]
_Found = tuple[int, "Pair", EstimateLike, "EstimateLike | None", "tuple[PointResult, ...]"]
_Key = tuple[int, int, int, int]  # (stage, candidate index, side, chunk)


class CheckpointError(InvalidArgument):
    """A checkpoint file is unreadable, tampered with, truncated, or written for other parameters.

    A PrivrefError (a usage error, exit status 2): the message names ``--checkpoint`` and the file.
    """


@dataclass(frozen=True, slots=True)
class AuditConfig:
    """Parameters of one black-box audit (validated at construction).

    ``samples`` is per side and per confirmed pair; ``screening_samples``
    defaults to ``min(samples, max(1000, samples // 10))``.  ``confirm`` is
    how many candidates are confirmed on fresh samples after screening.
    ``float_events=False`` makes the default estimator leave out the IEEE-754
    pattern events (the real-arithmetic view; audits.blackbox.features).
    ``relation`` is the neighbor relation given pairs must satisfy (None: not
    checked, the caller vouches); ``group = k`` accepts pairs within distance
    k and tests the group claim (see :func:`audited_claim`).  ``timeout`` is
    the per-call limit in seconds (None: none).  ``backend`` is where chunks
    run: "local" (in-process, or a process pool of ``workers``) or "dask" (a
    local Dask cluster of ``workers`` processes, or the scheduler at
    ``scheduler``); the results do not depend on it.  ``selection_cap`` bounds
    the selection split of the default (streaming) estimator per side.
    ``points`` are further (epsilon, delta) points of the claim's privacy
    profile (a zCDP claim, or a declared profile), tested together with
    (epsilon, delta) under the one confidence budget: each of the k points
    gets alpha/k (see :func:`audited_points`).  Limits: see the module docstring.
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
    relation: NeighborRelation | None = None
    group: int = 1
    timeout: float | None = DEFAULT_TIMEOUT
    backend: str = "local"
    scheduler: str | None = None
    selection_cap: int = DEFAULT_SELECTION_CAP
    points: tuple[tuple[Real, Fraction], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.confidence, Fraction | int) or isinstance(self.confidence, bool):
            raise InvalidArgument(f"confidence={self.confidence!r} must be an exact Fraction")
        if not 0 < self.confidence < 1:
            raise InvalidArgument(f"confidence={self.confidence} must lie in (0, 1)")
        if self.confidence > MAX_CONFIDENCE:
            raise InvalidArgument(f"confidence={self.confidence} must be <= 1 - 10**-15")
        if not 0 <= self.delta < 1:
            raise InvalidArgument(f"delta={self.delta} must lie in [0, 1)")
        for name, value, low, high in (("samples", self.samples, 2, MAX_SAMPLES),
                                       ("workers", self.workers, 1, MAX_WORKERS),
                                       ("confirm", self.confirm, 1, 1000),
                                       ("seed", self.seed, 0, MAX_SEED),
                                       ("group", self.group, 1, 1000),
                                       ("selection_cap", self.selection_cap, 1, MAX_SAMPLES)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise InvalidArgument(f"{name}={value!r} must be an int >= {low}")
            if value > high:
                raise InvalidArgument(f"{name}={_big(value)} must be <= {_big(high)}")
        if self.timeout is not None:
            check_timeout(self.timeout)
        if not isinstance(self.points, tuple) or len(self.points) > MAX_POINTS - 1:
            raise InvalidArgument(f"points must be a tuple of at most {MAX_POINTS - 1} "
                                  "(epsilon, delta) pairs")
        for eps, delta in self.points:
            if not isinstance(eps, Real) or not isinstance(delta, Fraction | int) \
                    or isinstance(delta, bool) or not 0 <= delta < 1:
                raise InvalidArgument(f"points: ({eps!r}, {delta!r}) must be an exact Real "
                                      "epsilon and a Fraction delta in [0, 1)")
        if self.backend not in BACKENDS:
            raise InvalidArgument(f"backend={self.backend!r} must be one of {', '.join(BACKENDS)}")
        if self.scheduler is not None and (self.backend != "dask" or not isinstance(
                self.scheduler, str) or not self.scheduler):
            raise InvalidArgument(f"scheduler={self.scheduler!r} needs backend='dask' and an "
                                  "address such as 'tcp://host:8786'")
        for name, opt in (("screening_samples", self.screening_samples),
                          ("chunk_size", self.chunk_size)):
            if opt is not None and (isinstance(opt, bool) or not isinstance(opt, int) or opt < 1):
                raise InvalidArgument(f"{name}={opt!r} must be an int >= 1")
            if opt is not None and opt > MAX_SAMPLES:
                raise InvalidArgument(f"{name}={_big(opt)} must be <= {_big(MAX_SAMPLES)}")

    @property
    def screening(self) -> int:
        """Samples per side per candidate in the screening stage."""
        if self.screening_samples is not None:
            return self.screening_samples
        return min(self.samples, max(1000, self.samples // 10))

    def chunk(self, target: Target) -> int:
        """Outcomes per chunk for ``target``."""
        return self.chunk_size or (2**14 if target.vectorized else 2**11)


def _big(n: int) -> str:
    """n as digits, or as 10**k when it is an exact power of ten above 10**6 (readable limits)."""
    if n > 10**6:
        k = len(str(n)) - 1
        if n == 10**k:
            return f"10**{k}"
        if n == 2**128 - 1:
            return "2**128 - 1"
    return str(n)


# ---------------------------------------------------------------------------- one chunk

def _chunk_seed(seed: int, key: _Key, stream: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(seed, spawn_key=(*key, stream))


def _sample_chunk(target: Target, data: Sequence[Hashable], seed: int, key: _Key,
                  size: int, timeout: float | None = None) -> Batch:
    rng = np.random.Generator(np.random.PCG64(_chunk_seed(seed, key, 0)))
    with seeded_globals(_chunk_seed(seed, key, 1)):
        return draw(target, data, rng, size, timeout)


def dealing_seed(seed: int, stage: int, index: int) -> np.random.SeedSequence:
    """The seed of the fair coins that deal a pair's bounding split to its sides
    (:func:`privref.audits.blackbox.pooled.allocate`): a stream of the audit's seed apart
    from every chunk's."""
    return np.random.SeedSequence(seed, spawn_key=(stage, index, 2))


_Task = tuple[_Key, tuple[Hashable, ...], int, int, float | None]  # key, data, seed, size, timeout
# key, data, seed, size, timeout, events, how many of the chunk's outcomes to count
_CountTask = tuple[_Key, tuple[Hashable, ...], int, int, float | None, tuple[Event, ...], int]


def _sample_task(target: Target, task: _Task) -> tuple[_Key, Batch]:
    key, data, seed, size, timeout = task
    return key, _sample_chunk(target, data, seed, key, size, timeout)


@dataclass(frozen=True, slots=True)
class Counted:
    """One held-out chunk, counted: its size, each event's hits, and its first outcome (kind checks)."""

    size: int
    hits: tuple[int, ...]
    head: Batch


def _head(batch: Batch) -> Batch:
    values = batch.values[:1].copy() if isinstance(batch.values, np.ndarray) else batch.values[:1]
    return Batch(batch.kind, values, batch.first, batch.conversions)


def _count_task(target: Target, task: _CountTask) -> tuple[_Key, Counted]:
    key, data, seed, size, timeout, events, limit = task
    batch = _sample_chunk(target, data, seed, key, size, timeout)
    values = batch.values if limit >= len(batch) else batch.values[:limit]
    return key, Counted(len(values), tuple(e.count(values) for e in events), _head(batch))


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
    if not (o is None or isinstance(o, bool | int | float | str)):
        raise TypeError(f"not an outcome: {o!r}")
    return o


def _canonical(record: dict[str, Any]) -> bytes:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


class Checkpoint:
    """Append-only JSON-lines store of completed chunks, keyed by (stage, index, side, chunk).

    Integrity: see the module docstring (a SHA-256 per chunk line, chained to the header);
    a tampered, truncated or foreign file raises CheckpointError naming ``--checkpoint``.
    Write failures raise OutputError.
    """

    VERSION = 3

    def __init__(self, path: Path, fingerprint: dict[str, Any]) -> None:
        self.path = path
        self.chunks: dict[_Key, Batch] = {}
        self.counts: dict[_Key, tuple[str, Counted]] = {}  # held-out chunks: (events digest, counts)
        if path.is_dir():
            raise CheckpointError(f"--checkpoint {path}: is a directory; give a file path")
        try:
            if path.exists() and path.stat().st_size > 0:
                self._load(fingerprint)
            else:
                if not path.parent.exists():
                    raise CheckpointError(
                        f"--checkpoint {path}: directory {path.parent} does not exist")
                header = json.dumps({"privref_checkpoint": self.VERSION,
                                     "fingerprint": fingerprint}, sort_keys=True) + "\n"
                with path.open("w", encoding="utf-8") as f:
                    f.write(header)
                self._chain = hashlib.sha256(header.encode("utf-8")).digest()
            self._file: TextIO = path.open("a", encoding="utf-8")
        except OSError as exc:
            raise OutputError(f"--checkpoint {path}: cannot use the file "
                              f"({exc.strerror or type(exc).__name__})") from None

    def _bad(self, what: str) -> CheckpointError:
        return CheckpointError(f"--checkpoint {self.path} {what}; delete it (or use another file) "
                               "to start over")

    def _load(self, fingerprint: dict[str, Any]) -> None:
        raw = self.path.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise CheckpointError(f"--checkpoint {self.path} is not a privref checkpoint (binary "
                                  "data); delete it or use another file") from None
        lines = text.split("\n")
        try:
            header = json.loads(lines[0])
            old = header["fingerprint"]
            version = header["privref_checkpoint"]
            if not isinstance(old, dict):
                raise TypeError
        except (ValueError, KeyError, TypeError, IndexError):
            raise CheckpointError(f"--checkpoint {self.path} is not a privref checkpoint (no "
                                  "header line); delete it or use another file") from None
        if version != self.VERSION:
            raise self._bad(f"has format version {version!r}, not {self.VERSION}")
        for name in sorted(set(old) | set(fingerprint)):
            if old.get(name) != fingerprint.get(name):
                raise CheckpointError(
                    f"--checkpoint {self.path} was written for other parameters ({name}: "
                    f"{old.get(name)!r} in the file, {fingerprint.get(name)!r} now); rerun with "
                    "the original parameters or use another file")
        self._chain = hashlib.sha256((lines[0] + "\n").encode("utf-8")).digest()
        body = lines[1:]
        if body and body[-1] == "":
            body = body[:-1]  # the final newline
        elif body or not text.endswith("\n"):
            raise self._bad("is truncated (its last line is incomplete)")
        for number, line in enumerate(body, start=2):
            try:
                record = json.loads(line)
                digest = record.pop("sha256")
            except (ValueError, KeyError, TypeError, AttributeError):
                raise self._bad(f"is corrupted or truncated at line {number}") from None
            if not isinstance(digest, str) or digest != hashlib.sha256(
                    self._chain + _canonical(record)).hexdigest():
                raise self._bad(f"was tampered with: line {number} fails its SHA-256 digest")
            try:
                key: _Key = (int(record["key"][0]), int(record["key"][1]), int(record["key"][2]),
                             int(record["key"][3]))
                if "hits" in record:  # a counted held-out chunk
                    head = Batch(record["kind"], [_decode(record["first"])], _decode(record["first"]))
                    hits = tuple(int(h) for h in record["hits"])
                    self.counts[key] = (str(record["events"]),
                                        Counted(int(record["size"]), hits, head))
                    continue
                if record["encoding"] == "npy":
                    values: np.ndarray | list[Hashable] = np.load(
                        io.BytesIO(base64.b64decode(record["data"])), allow_pickle=False)
                else:
                    values = [_decode(o) for o in record["data"]]
                batch = Batch(record["kind"], values, _decode(record["first"]))
            except (ValueError, KeyError, TypeError, IndexError, AssertionError, OSError):
                raise self._bad(f"has an unreadable chunk at line {number}") from None
            self.chunks[key] = batch

    def record(self, key: _Key, batch: Batch) -> None:
        """Persist one completed chunk (flushed and fsynced before returning); OutputError on failure."""
        if isinstance(batch.values, np.ndarray):
            buf = io.BytesIO()
            np.save(buf, batch.values, allow_pickle=False)
            enc, data = "npy", base64.b64encode(buf.getvalue()).decode("ascii")
            payload: object = data
        else:
            enc, payload = "json", [_encode(o) for o in batch.values]
        record: dict[str, Any] = {"key": list(key), "kind": batch.kind,
                                  "first": _encode(batch.first), "encoding": enc, "data": payload}
        self._append(record)
        self.chunks[key] = batch

    def record_counts(self, key: _Key, events: str, counted: Counted) -> None:
        """Persist one counted held-out chunk: its size, hits and the digest of the events counted."""
        record: dict[str, Any] = {"key": list(key), "kind": counted.head.kind,
                                  "first": _encode(counted.head.first), "events": events,
                                  "size": counted.size, "hits": list(counted.hits)}
        self._append(record)
        self.counts[key] = (events, counted)

    def _append(self, record: dict[str, Any]) -> None:
        record["sha256"] = hashlib.sha256(self._chain + _canonical(record)).hexdigest()
        try:
            self._file.write(json.dumps(record) + "\n")
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as exc:
            raise OutputError(f"--checkpoint {self.path}: could not write a chunk "
                              f"({exc.strerror or type(exc).__name__})") from None

    def close(self) -> None:
        """Close the file (the data is already on disk)."""
        with contextlib.suppress(OSError):  # every chunk was fsynced already
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

Plan = Callable[[int, Any, Any, int, int, bool, bool], tuple[Candidate, ...]]
"""plan(candidate index, selection split a, selection split b, held-out size a, held-out size b,
shortlist, dealt): the candidates to count (a shortlist for a :data:`Refine` step when asked);
``dealt`` says the bounding split's sizes are dealt for the pooled test."""

Refine = Callable[[int, tuple[Candidate, ...], tuple[tuple[int, int], ...], int, int, bool],
                  tuple[Candidate, ...]]
"""refine(candidate index, shortlist, its validation hits, validation size, bounding size,
dealt): the candidates kept, to be counted on the rest of the held-out split."""

VALIDATION_SHARE: Final = 16
"""When the held-out split is at least this many times the selection split, its first
1/VALIDATION_SHARE (whole chunks) is a validation split that chooses among a shortlist."""


def validation_chunks(n: int, selection: int, chunk: int) -> int:
    """How many whole held-out chunks (after the selection split's last chunk) form the validation
    split: 0 (no validation) unless n − selection >= VALIDATION_SHARE·selection, else enough
    chunks for (n − selection)/VALIDATION_SHARE outcomes, always leaving one chunk to bound."""
    held = n - selection
    if held < VALIDATION_SHARE * selection:
        return 0
    first, total = -(-selection // chunk), -(-n // chunk)
    return max(0, min(-(-(held // VALIDATION_SHARE) // chunk), total - first - 1))


@dataclass(frozen=True, slots=True)
class Streamed:
    """One pair's streamed stage: the candidates, their held-out hits per side, the split sizes.

    ``hits[k]`` = (hits under M(a), hits under M(b)) of ``chosen[k]`` on the held-out split
    (after the validation split, when there is one: ``validation_size`` > 0 outcomes per side
    that chose ``chosen`` from a shortlist); ``selection`` the selection samples (kept only on
    request, else None).  ``dealt``: the bounding split's sizes per side when they were dealt
    for the pooled test (:func:`privref.audits.blackbox.pooled.allocate`), else None and
    both sides bound ``held_size`` outcomes.
    """

    chosen: tuple[Candidate, ...]
    hits: tuple[tuple[int, int], ...]
    selection_size: int
    held_size: int
    selection: tuple[Any, Any] | None = None
    validation_size: int = 0
    dealt: tuple[int, int] | None = None

    @property
    def bounding(self) -> tuple[int, int]:
        """The bounding split's size per side: the dealt sizes, or ``held_size`` twice."""
        return self.dealt if self.dealt is not None else (self.held_size, self.held_size)


class _Engine:
    def __init__(self, target: Target, config: AuditConfig, fingerprint: dict[str, Any]) -> None:
        self.target = target
        self.config = config
        self.backend: Backend | None = None
        self.progress = Progress(config.progress)
        self.checkpoint = (None if config.checkpoint is None
                           else Checkpoint(config.checkpoint, fingerprint))

    def __enter__(self) -> _Engine:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.backend is not None:
            self.backend.close(kind is None)
        if self.checkpoint is not None:
            self.checkpoint.close()

    def _backend(self) -> Backend:
        if self.backend is None:
            self.backend = make_backend(self.config.backend, self.target, self.config.workers,
                                        self.config.scheduler)
        return self.backend

    def _run(self, fn: Callable[[Target, Any], Any], tasks: Iterator[Any], count: int,
             chunk: int) -> Iterator[Any]:
        if self.config.backend == "local" and (self.config.workers == 1 or count <= 1):
            for task in tasks:
                yield fn(self.target, task)
            return
        timeout = self.config.timeout
        # watchdog behind the workers' own per-call alarms: a worker stuck where signals
        # cannot reach (C code holding the GIL) is caught here and the workers terminated
        budget = None if timeout is None else timeout * (1 if self.target.vectorized else chunk) + 30
        yield from self._backend().run(fn, tasks, count, budget)

    def _collect(self, stage: int, pairs: Sequence[tuple[int, Pair]], n: int,
                 chunks: int) -> dict[tuple[int, int], Batch]:
        """The first ``chunks`` chunks of each side of each pair, merged (progress not begun here)."""
        chunk = self.config.chunk(self.target)
        found: dict[_Key, Batch] = {}
        pending = 0
        for index, _ in pairs:
            for side in (0, 1):
                for c in range(chunks):
                    key = (stage, index, side, c)
                    if self.checkpoint is not None and key in self.checkpoint.chunks:
                        found[key] = self.checkpoint.chunks[key]
                    else:
                        pending += 1

        def tasks() -> Iterator[_Task]:  # lazily: the plan never sits in memory
            for index, pair in pairs:
                for side in (0, 1):
                    for c in range(chunks):
                        key = (stage, index, side, c)
                        if key not in found:
                            yield (key, pair[side], self.config.seed, min(chunk, n - c * chunk),
                                   self.config.timeout)

        self.progress.advance(sum(len(b) for b in found.values()))
        for key, batch in self._run(_sample_task, tasks(), pending, chunk):
            if self.checkpoint is not None:
                self.checkpoint.record(key, batch)
            found[key] = batch
            self.progress.advance(len(batch))
        out: dict[tuple[int, int], Batch] = {}
        for index, pair in pairs:
            for side in (0, 1):
                # pop: each side's chunks are released once merged (peak ≈ total + one side)
                parts = [found.pop((stage, index, side, c)) for c in range(chunks)]
                out[(index, side)] = merge_batches(parts, self.target.name, pair[side])
        return out

    def sample(self, stage: int, pairs: Sequence[tuple[int, Pair]], n: int,
               label: str) -> dict[tuple[int, int], Batch]:
        """Every one of the ``n`` outcomes of each side of each pair, kept in memory."""
        chunks = -(-n // self.config.chunk(self.target))
        self.progress.begin(label, 2 * n * len(pairs))
        try:
            return self._collect(stage, pairs, n, chunks)
        finally:
            self.progress.end()

    def stream(self, stage: int, pairs: Sequence[tuple[int, Pair]], n: int, label: str,
               plan: Plan, check: Callable[[dict[tuple[int, int], Batch]], None],
               keep_selection: bool = False, refine: Refine | None = None,
               pooled: bool = False) -> dict[int, Streamed]:
        """Select events on a bounded selection split, then count them on the streamed rest.

        The selection split is the first ``selection_sizes(n, n, 1/2, config.selection_cap)``
        outcomes of each side; only one pair's (and one chunk per worker) is ever in memory,
        whatever the number of pairs.  The
        held-out chunks are drawn and counted where they are drawn (worker or cluster), and
        only their counts come back, so memory does not grow with ``n``.  The counts equal
        those of :func:`privref.audits.blackbox.estimate.estimate_pair_detailed` on all ``n``
        outcomes whenever the selection split is not capped.

        With ``refine``, when :func:`validation_chunks` > 0 (a held-out split at least
        VALIDATION_SHARE times the selection split), the plan is a shortlist counted on the
        validation split (the rest of the selection's last chunk and the next chunks), ``refine``
        keeps some of it, and only those are counted on the remaining chunks.

        With ``pooled``, a bounding split (what follows the validation split) of at least
        POOLED_MIN outcomes per side is dealt to the sides by fair coins of
        :func:`dealing_seed` (:func:`privref.audits.blackbox.pooled.allocate`), and each side
        counts only the first outcomes of its dealt size.
        """
        chunk = self.config.chunk(self.target)
        total = -(-n // chunk)
        sel, _ = selection_sizes(n, n, Fraction(1, 2), self.config.selection_cap)
        held = n - sel
        first = -(-sel // chunk)
        v = 0 if refine is None else validation_chunks(n, sel, chunk)
        validation = (first * chunk - sel + sum(min(chunk, n - c * chunk)
                                                for c in range(first, first + v))) if v else 0
        bounding = held - validation
        dealt: dict[int, tuple[int, int]] = {}
        for index, _ in pairs:
            got = (dealt_sizes(bounding, bounding, Fraction(0),
                               dealing_seed(self.config.seed, stage, index)) if pooled else None)
            if got is not None:
                dealt[index] = got
        ends = {(index, side): (sel + validation + dealt[index][side] if index in dealt else n)
                for index, _ in pairs for side in (0, 1)}
        self.progress.begin(label, 2 * n * len(pairs))
        try:
            out: dict[int, Streamed] = {}
            events: dict[int, tuple[Event, ...]] = {}
            hits: dict[tuple[int, int], list[int]] = {}
            digests: dict[int, str] = {}
            for index, pair in pairs:
                # one pair's selection split at a time: memory does not grow with the pairs
                merged = self._collect(stage, [(index, pair)], n, first)
                check(merged)
                values = (merged[(index, 0)].values, merged[(index, 1)].values)
                chosen = plan(index, values[0][:sel], values[1][:sel], bounding, bounding,
                              v > 0, index in dealt)
                events[index] = tuple(c.event for c in chosen)
                digests[index] = events_digest(chosen)
                for side in (0, 1):
                    # the held-out part of the last selection chunk (validation, or bounding
                    # up to this side's dealt end)
                    tail = values[side][sel:] if v else values[side][sel:ends[(index, side)]]
                    hits[(index, side)] = [e.count(tail) for e in events[index]]
                out[index] = Streamed(chosen, (), sel, held,
                                      (values[0][:sel], values[1][:sel]) if keep_selection
                                      else None, dealt=dealt.get(index))
                del merged, values, tail
            self._count(stage, pairs, n, first, first + v if v else total, events, digests,
                        hits, check, {} if v else ends)
            if v:
                assert refine is not None
                for index, _ in pairs:
                    s = out[index]
                    seen = tuple((hits[(index, 0)][k], hits[(index, 1)][k])
                                 for k in range(len(s.chosen)))
                    kept = refine(index, s.chosen, seen, validation, bounding, index in dealt)
                    events[index] = tuple(c.event for c in kept)
                    digests[index] = events_digest(kept)
                    hits[(index, 0)], hits[(index, 1)] = [0] * len(kept), [0] * len(kept)
                    out[index] = Streamed(kept, (), sel, bounding, s.selection, validation,
                                          dealt.get(index))
                self._count(stage, pairs, n, first + v, total, events, digests, hits, check,
                            ends)
        finally:
            self.progress.end()
        return {index: Streamed(s.chosen, tuple((hits[(index, 0)][k], hits[(index, 1)][k])
                                                for k in range(len(s.chosen))),
                                s.selection_size, s.held_size, s.selection, s.validation_size,
                                s.dealt)
                for index, s in out.items()}

    def _count(self, stage: int, pairs: Sequence[tuple[int, Pair]], n: int, first: int,
               total: int, events: dict[int, tuple[Event, ...]], digests: dict[int, str],
               hits: dict[tuple[int, int], list[int]],
               check: Callable[[dict[tuple[int, int], Batch]], None],
               ends: dict[tuple[int, int], int] | None = None) -> None:
        """Count chunks first..total-1 of each side, each side only up to its end in ``ends``
        ((index, side) -> outcomes of the side's stream counted; n when absent)."""
        chunk = self.config.chunk(self.target)
        stop = {} if ends is None else ends

        def chunks(index: int, side: int) -> range:
            return range(first, min(total, -(-stop.get((index, side), n) // chunk)))

        def limit(index: int, side: int, c: int) -> int:
            return min(chunk, stop.get((index, side), n) - c * chunk)

        done: dict[_Key, Counted] = {}
        pending = 0
        for index, _ in pairs:
            for side in (0, 1):
                for c in chunks(index, side):
                    key = (stage, index, side, c)
                    saved = None if self.checkpoint is None else self.checkpoint.counts.get(key)
                    if saved is not None:
                        if saved[0] != digests[index] or saved[1].size != limit(index, side, c):
                            raise CheckpointError(
                                f"--checkpoint {self.config.checkpoint}: its counts of chunk "
                                f"{key} were made for other events or another split than this "
                                "run's (the target or privref changed since); delete it to "
                                "start over")
                        done[key] = saved[1]
                    else:
                        pending += 1

        def tasks() -> Iterator[_CountTask]:
            for index, pair in pairs:
                if not events[index]:
                    continue
                for side in (0, 1):
                    for c in chunks(index, side):
                        key = (stage, index, side, c)
                        if key not in done:
                            yield (key, pair[side], self.config.seed, min(chunk, n - c * chunk),
                                   self.config.timeout, events[index], limit(index, side, c))

        def add(key: _Key, counted: Counted) -> None:
            check({(key[1], key[2]): counted.head})
            acc = hits[(key[1], key[2])]
            for k, h in enumerate(counted.hits):
                acc[k] += h
            self.progress.advance(counted.size)

        for key, counted in done.items():
            add(key, counted)
        skipped = sum(min(chunk, n - c * chunk) for index, _ in pairs if not events[index]
                      for _side in (0, 1) for c in chunks(index, _side))
        self.progress.advance(skipped)
        pending -= sum(1 for index, _ in pairs if not events[index]
                       for _side in (0, 1) for c in chunks(index, _side)
                       if (stage, index, _side, c) not in done)
        for key, counted in self._run(_count_task, tasks(), pending, chunk):
            if self.checkpoint is not None:
                self.checkpoint.record_counts(key, digests[key[1]], counted)
            add(key, counted)


def sample_pair(target: Target, pair: Pair, *, samples: int, seed: int, workers: int = 1,
                chunk_size: int | None = None, stage: int = 1, index: int = 0
                ) -> tuple[Batch, Batch]:
    """Draw ``samples`` outcomes on each side of ``pair`` exactly as :func:`run_audit` does.

    The result depends only on (target, pair, samples, seed, chunk_size,
    stage, index), never on ``workers``.
    """
    config = AuditConfig(epsilon=rational(0), samples=max(samples, 2), seed=seed, workers=workers,
                         chunk_size=chunk_size, timeout=None)
    with _Engine(target, config, {}) as engine:
        out = engine.sample(stage, [(index, pair)], samples, "sampling")
    return out[(index, 0)], out[(index, 1)]


# ---------------------------------------------------------------------------- audit

def _fingerprint(target: Target, config: AuditConfig, given: Sequence[Pair] | None) -> dict[str, Any]:
    return {
        "target": target.name, "vectorized": target.vectorized, "seed": config.seed,
        "samples": config.samples, "screening_samples": config.screening,
        "chunk_size": config.chunk(target), "confirm": config.confirm,
        "epsilon": str(config.epsilon), "delta": str(config.delta),
        "confidence": str(config.confidence), "selection_cap": config.selection_cap,
        "float_events": config.float_events,
        "pairs": None if given is None else json.loads(json.dumps([[list(a), list(b)]
                                                                     for a, b in given], default=repr)),
        "search": None if given is not None else config.search.to_json(),
    }


def _usable_candidates(target: Target, candidates: Sequence[Pair], seed: int,
                       warnings: list[str], timeout: float | None) -> list[Pair]:
    usable: list[Pair] = []
    failures: list[str] = []
    for i, pair in enumerate(candidates):
        try:
            for side in (0, 1):
                _sample_chunk(target, pair[side], seed, (9, i, side, 0), 1, timeout)
        except TargetTimeout:
            raise
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


def _show(d: Sequence[Hashable]) -> str:
    text = repr(list(d))
    return text if len(text) <= 60 else text[:57] + "...]"


def _finite(x: object) -> bool:
    if isinstance(x, float):
        return math.isfinite(x)
    if isinstance(x, complex):
        return math.isfinite(x.real) and math.isfinite(x.imag)
    if isinstance(x, tuple):
        return all(_finite(y) for y in x)
    return True


def _pair_key(pair: Pair) -> tuple[str, str]:
    a, b = repr(pair[0]), repr(pair[1])
    return (a, b) if a <= b else (b, a)


def _warn(warnings: list[str], on_warning: Callable[[str], None] | None, message: str) -> None:
    warnings.append(message)
    if on_warning is not None:
        on_warning(message)


def check_pairs(pairs: Sequence[Pair], relation: NeighborRelation | None, group: int = 1, *,
                name: str = "pair") -> tuple[list[Pair], int]:
    """Validate given pairs; return them without duplicates and the number of duplicates dropped.

    Each dataset: at most MAX_DATASET_SIZE entries, hashable, finite numbers only; the two
    datasets differ; under ``relation`` (unless None) they are neighbors, or with ``group = k``
    at distance at most k.  Raises InvalidArgument / NotNeighboring whose message starts with
    ``name`` and the pair, and names the relation.  A duplicate (also up to order: the estimator
    tests both directions) would only split the confidence, so it is dropped.
    """
    out: dict[tuple[str, str], Pair] = {}
    duplicates = 0
    for a, b in pairs:
        where = f"{name} {_show(a)} vs {_show(b)}"
        for d in (a, b):
            if len(d) > MAX_DATASET_SIZE:
                raise InvalidArgument(f"{where}: a dataset of {len(d)} entries; sizes must be "
                                      f"<= {MAX_DATASET_SIZE}")
            try:
                hash(d)
            except TypeError:
                raise InvalidArgument(f"{where}: entries must be hashable (numbers, strings, "
                                      "tuples), not lists or dicts") from None
            if not all(_finite(x) for x in d):
                raise InvalidArgument(f"{where}: entries must be finite numbers (no inf or NaN; "
                                      "1e400 overflows to inf)")
        if a == b:
            raise InvalidArgument(f"{where}: the two datasets are equal")
        if relation is not None:
            rel = relation_name_safe(relation)
            if group == 1 and not relation.are_neighbors(a, b):
                raise NotNeighboring(
                    f"{where} is not neighboring under {rel} ({relation}); give a neighboring "
                    "pair, choose the relation (--relation / relation=), or test group privacy "
                    "(--group K / group=K)")
            if group > 1:
                try:
                    dist = relation_distance(relation, a, b)
                except TooLargeToEnumerate as exc:  # pragma: no cover - sizes capped above
                    raise InvalidArgument(f"{where}: {exc}") from None
                if dist is None or dist > group:
                    far = "unreachable" if dist is None else f"at distance {dist}"
                    raise NotNeighboring(
                        f"{where} is {far} under {rel} ({relation}), more than the group size "
                        f"--group {group} (API: group={group})")
        key = _pair_key((a, b))
        if key in out:
            duplicates += 1
            continue
        out[key] = (a, b)
    return list(out.values()), duplicates


def audited_claim(config: AuditConfig) -> tuple[Real, Fraction]:
    """The claim the audit tests: config's (epsilon, delta), or for ``group = k`` the group claim.

    Group privacy: (epsilon, delta)-DP implies (k·epsilon, delta·Σ_{j<k} e^{j·epsilon})-DP
    for datasets at distance k (reference.privacy.group_privacy; the delta factor rounded up,
    so the tested claim is implied by the stated one).  A vacuous result (delta >= 1) raises
    InvalidArgument naming ``--group``; e^epsilon is never computed when delta = 0.
    """
    return _group_point(config.epsilon, config.delta, config.group)


def audited_points(config: AuditConfig) -> tuple[tuple[Real, Fraction], ...]:
    """Every (epsilon, delta) point the audit tests: :func:`audited_claim`, then ``config.points``.

    Each point is transformed like the headline one for ``group = k``; each of the k points is
    tested at alpha/k, so with probability >= 1 - alpha no point is falsely reported violated.
    """
    return tuple(_group_point(e, Fraction(d), config.group)
                 for e, d in ((config.epsilon, config.delta), *config.points))


def _group_point(epsilon: Real, delta: Fraction, k: int) -> tuple[Real, Fraction]:
    if k == 1:
        return epsilon, delta
    if delta == 0:
        return epsilon * k, Fraction(0)
    # delta·e^{(k-1)·epsilon} <= the new delta; vacuous once it reaches 1 (checked on an
    # enclosure first, so that a huge epsilon never reaches the exact exponential)
    lo = (epsilon * (k - 1)).enclose(64).lo
    if lo > 50_000 or compare(log(rational(delta)) + rational(lo), rational(1))[0] \
            is Order.GREATER:  # delta·e^lo > e, decided exactly (no float)
        raise InvalidArgument(f"--group={k} with delta={delta}: the group claim's delta "
                              f"delta·Σ e^(j·epsilon) is >= 1, which is vacuous")
    try:
        claim = group_privacy(PrivacyClaim(epsilon, delta), k)
    except InvalidArgument as exc:
        raise InvalidArgument(f"--group={k}: {exc}") from None
    return claim.epsilon, claim.delta


def low_power(config: AuditConfig, pairs: int) -> str | None:
    """The LOW-POWER warning, or None: can the default estimator find a violation at all?

    With n = ``samples`` per side, the default estimator bounds its event on the held-out half
    (n - n//2 draws per side) at alpha/(2·pairs) per side.  The most extreme counts, every
    held-out draw of P inside the event and none of Q, give the largest possible ratio
    (cp_lower(h, h) - delta)/cp_upper(0, h); when even that is <= e^epsilon (exact comparison),
    no outcome of the audit can be VIOLATION.
    """
    from .estimate import bound_ratio, epsilon_from_ratio, exceeds

    eps, delta = audited_claim(config)
    n = config.samples
    held = n - n // 2
    alpha_side = (1 - config.confidence) / pairs / 2
    ratio = bound_ratio(held, held, 0, held, delta=delta, alpha_side=alpha_side)
    if exceeds(ratio, eps):
        return None
    return (f"LOW-POWER: samples={n} per side cannot detect a violation of the claim: even the "
            f"most extreme counts ({held} of {held} held-out draws in the event on one side, 0 on "
            f"the other) give an epsilon lower bound of at most {epsilon_from_ratio(ratio):.4g}, "
            f"not above the claimed {float(eps):.4g} at confidence {config.confidence} over "
            f"{pairs} pair(s); NO_VIOLATION_FOUND means nothing here: raise --samples")


def confirmed_pairs(screened: Sequence[PairResult], confirm: int) -> list[PairResult]:
    """The ``confirm`` screened pairs to confirm: the best of each view, in turn.

    Pairs are ranked twice, by the real-arithmetic bound (a two-view pair's ``real_estimate``,
    else its only estimate) and by the headline estimate (the IEEE-754 view), and picked
    alternately from the two rankings, the real one first, skipping repeats.  A floating-point
    leak shows on most pairs of a float mechanism with a saturated bound, so ranking by the
    larger bound alone would pick pairs blind to the algorithm's own loss.  With one view the
    two rankings coincide and this is the best ``confirm`` pairs.  Ties go to the lower index.
    """
    def real(r: PairResult) -> float:
        return (r.real_estimate if r.real_estimate is not None else r.estimate).epsilon_lower_bound

    by_real = sorted(screened, key=lambda r: (-real(r), r.index))
    by_view = sorted(screened, key=lambda r: (-r.estimate.epsilon_lower_bound, r.index))
    picked: dict[int, PairResult] = {}
    for first, second in zip(by_real, by_view, strict=True):
        for r in (first, second):
            if len(picked) < confirm and r.index not in picked:
                picked[r.index] = r
    return list(picked.values())


def run_audit(target: Target, config: AuditConfig, pairs: Sequence[Pair] | None = None, *,
              estimator: Estimator | None = None,
              on_partial: Callable[[BlackboxReport], None] | None = None,
              keep_witness_samples: bool = False,
              on_warning: Callable[[str], None] | None = None) -> BlackboxReport:
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

    Given pairs are checked by :func:`check_pairs` (NotNeighboring under
    ``config.relation``; duplicates dropped with a warning); with ``group = k``
    the tested claim is :func:`audited_claim`.  Warnings known before sampling
    (duplicates, LOW-POWER) are also passed to ``on_warning`` as they arise.
    """
    streaming = estimator is None and not keep_witness_samples
    if not streaming and config.samples > MAX_IN_MEMORY:
        why = "a custom estimator" if estimator is not None else "the HTML report's samples"
        raise InvalidArgument(f"samples={_big(config.samples)}: {why} keeps every outcome, so "
                              f"samples must be <= {_big(MAX_IN_MEMORY)} (the default estimator "
                              "streams, and has no such limit)")
    claim_eps, claim_delta = audited_claim(config)
    points = audited_points(config)
    if estimator is not None and len(points) > 1:
        raise InvalidArgument("points: a custom estimator tests one (epsilon, delta) point; "
                              "leave points empty or use the default estimator")
    start = time.perf_counter()
    warnings: list[str] = []
    notes: list[str] = []
    results: list[PairResult] = []
    kept: dict[int, WitnessSamples] = {}  # confirmed pairs' samples, only when asked for
    if pairs is not None:
        if not pairs:
            raise InvalidArgument("pairs=[] must hold at least one pair")
        try:
            given = [(tuple(a), tuple(b)) for a, b in pairs]
        except TypeError:
            raise InvalidArgument("pairs must be pairs (a, b) of datasets (sequences)") from None
        candidates, duplicates = check_pairs(given, config.relation, config.group)
        if duplicates:
            _warn(warnings, on_warning,
                  f"{duplicates} duplicate pair(s) removed (a repeated pair, also in the other "
                  "order, would only split the confidence)")
    else:
        candidates = list(candidate_pairs(config.search, config.seed))

    def report(status: str, error: str | None) -> BlackboxReport:
        confirmed = [r for r in results if r.stage == "confirmation"]
        witness = None
        if confirmed:
            witness = max(confirmed, key=lambda r: (r.violation, r.best_bound, -r.index))
        verdict = None
        if status == "complete":
            verdict = (BlackboxVerdict.VIOLATION if any(r.violation for r in confirmed)
                       else BlackboxVerdict.NO_VIOLATION_FOUND)
        return BlackboxReport(
            target=target.name, target_package=target.package,
            target_package_version=target.package_version, vectorized=target.vectorized,
            claimed_epsilon=config.epsilon, claimed_delta=config.delta,
            confidence=config.confidence, samples=config.samples, seed=config.seed,
            status=status, verdict=verdict,
            epsilon_lower_bound=0.0 if witness is None else witness.best_bound,
            witness=witness, pairs=tuple(results), candidates=len(candidates),
            search=None if pairs is not None else config.search.to_json(),
            screening_samples=None if len(candidates) <= config.confirm else config.screening,
            workers=config.workers, warnings=tuple(warnings), notes=tuple(notes),
            elapsed_seconds=time.perf_counter() - start, error=error,
            float_events=config.float_events,
            witness_samples=None if witness is None else kept.get(witness.index),
            relation=(None if config.relation is None else relation_name_safe(config.relation)),
            group=config.group,
            tested_epsilon=None if config.group == 1 else claim_eps,
            tested_delta=None if config.group == 1 else claim_delta,
            backend=config.backend if config.scheduler is None
            else f"{config.backend} {config.scheduler}",
            selection_cap=config.selection_cap if streaming else None,
            declared_claim=target.claim, libraries=target.libraries)

    try:
        if pairs is None:
            candidates = _usable_candidates(target, candidates, config.seed, warnings,
                                            config.timeout)
        if estimator is None:
            confirming = min(len(candidates), config.confirm)
            weak = low_power(config, confirming)
            if weak is not None:
                _warn(warnings, on_warning, weak)
        w, n = probe_randomness(target, candidates[0][0], seed=config.seed,
                                timeout=config.timeout)
        warnings.extend(w)
        notes.extend(n)
        indexed = dict(enumerate(candidates))
        seen: list[tuple[Batch, Sequence[Hashable]]] = []
        alpha = 1 - config.confidence
        with _Engine(target, config, _fingerprint(target, config, pairs)) as engine:
            def check(batches: dict[tuple[int, int], Batch]) -> None:
                # heads only: the first batch is kept as the reference for the whole run
                check_kinds({k: _head(b) for k, b in batches.items()}, indexed, target.name,
                            seen)

            def stage(number: int, chosen: list[tuple[int, Pair]], n: int, label: str,
                      level: Fraction) -> list[_Found]:
                if estimator is not None:  # a custom estimator sees every outcome
                    batches = engine.sample(number, chosen, n, label)
                    check(batches)
                    return [(i, pair, estimator(
                        batches[(i, 0)].values, batches[(i, 1)].values, epsilon=claim_eps,
                        delta=claim_delta, alpha=level), None, ()) for i, pair in chosen]
                spans: dict[int, list[tuple[int, int, int | None]]] = {}
                share = level / len(points)  # each tested point's part of the pair's alpha
                pooled = any(point_delta == 0 for _eps, point_delta in points)

                def plan(index: int, sel_a: Any, sel_b: Any, held_a: int, held_b: int,
                         shortlist: bool, dealt: bool) -> tuple[Candidate, ...]:
                    picked: list[Candidate] = []
                    spans[index] = []
                    for _eps, point_delta in points:
                        got, split = plan_views(sel_a, sel_b, held_a=held_a, held_b=held_b,
                                                delta=point_delta, alpha=share,
                                                float_events=config.float_events,
                                                shortlist=shortlist,
                                                pooled=dealt and point_delta == 0)
                        spans[index].append((len(picked), len(picked) + len(got), split))
                        picked.extend(got)
                    return tuple(picked)

                def refine(index: int, shortlist: tuple[Candidate, ...],
                           seen: tuple[tuple[int, int], ...], validation: int,
                           bounding: int, dealt: bool) -> tuple[Candidate, ...]:
                    kept: list[Candidate] = []
                    old, spans[index] = spans[index], []
                    for (start, end, split), (_eps, point_delta) in zip(old, points, strict=True):
                        got, new_split = refine_views(
                            shortlist[start:end], split,
                            seen[start:end], validation_a=validation, validation_b=validation,
                            held_a=bounding, held_b=bounding, delta=point_delta, alpha=share,
                            pooled=dealt and point_delta == 0)
                        spans[index].append((len(kept), len(kept) + len(got), new_split))
                        kept.extend(got)
                    return tuple(kept)

                if streaming:
                    streamed = engine.stream(number, chosen, n, label, plan, check, refine=refine,
                                             pooled=pooled)
                else:  # every outcome kept (the HTML report's samples): the same plan and counts
                    batches = engine.sample(number, chosen, n, label)
                    check(batches)
                    sel, _ = selection_sizes(n, n)
                    streamed = {}
                    for i, _pair in chosen:
                        xa, xb = batches[(i, 0)].values, batches[(i, 1)].values
                        dealt = (dealt_sizes(n - sel, n - sel, Fraction(0),
                                             dealing_seed(config.seed, number, i))
                                 if pooled else None)
                        end_a, end_b = (n, n) if dealt is None else (sel + dealt[0], sel + dealt[1])
                        picked = plan(i, xa[:sel], xb[:sel], n - sel, n - sel, False,
                                      dealt is not None)
                        streamed[i] = Streamed(picked, tuple(
                            (c.event.count(xa[sel:end_a]), c.event.count(xb[sel:end_b]))
                            for c in picked), sel, n - sel, dealt=dealt)
                        if number == 1:
                            kept[i] = WitnessSamples(xa, xb)
                found: list[_Found] = []
                for i, pair in chosen:
                    got = streamed[i]
                    profile = []
                    for (start, end, split), (point_eps, point_delta) in zip(
                            spans[i], points, strict=True):
                        ieee, real = conclude_views(
                            got.chosen[start:end], got.hits[start:end], split,
                            held_a=got.bounding[0], held_b=got.bounding[1],
                            selection_a=got.selection_size, selection_b=got.selection_size,
                            epsilon=point_eps, delta=point_delta, alpha=share,
                            validation=got.validation_size, dealt=got.dealt is not None)
                        profile.append(PointResult(point_eps, point_delta, ieee.estimate,
                                                   None if real is None else real.estimate))
                    head = profile[0]
                    found.append((i, pair, head.estimate, head.real_estimate,
                                  tuple(profile) if len(points) > 1 else ()))
                return found

            chosen = list(indexed.items())
            if len(candidates) > config.confirm:
                for i, pair, est, real, prof in stage(0, chosen, config.screening, "screening",
                                                      alpha):
                    results.append(PairResult(i, "screening", pair, config.screening, alpha, est,
                                              real, prof))
                chosen = sorted((r.index, r.pair) for r in confirmed_pairs(results, config.confirm))
            share = alpha / len(chosen)
            for i, pair, est, real, prof in stage(1, chosen, config.samples, "confirmation",
                                                  share):
                results.append(PairResult(i, "confirmation", pair, config.samples, share, est,
                                          real, prof))
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
    if seen and seen[0][0].conversions:
        notes.append("outputs converted to canonical tuples: " + "; ".join(seen[0][0].conversions)
                     + " (docs/blackbox-outcomes.md)")
    return report("complete", None)
