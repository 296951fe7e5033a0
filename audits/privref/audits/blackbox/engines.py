"""The black-box sampling engine, and where its chunks run: in-process, a process pool, or Dask.

:class:`SamplingEngine` draws a stage's chunks (and, streaming, counts the held-out ones where
they are drawn), through a :class:`Backend`, the checkpoint
(:mod:`privref.audits.blackbox.checkpoint`) and an optional :class:`ProgressReporter`.

Every backend runs the same tasks, each a pure function of its task tuple (the chunk's key,
the dataset, the audit's seed, its size, the per-call timeout and, when counting, the events):
the chunk's randomness is derived from the seed and the key alone (audits.blackbox.runner), so
the results, hence the report, are identical whatever the backend and the number of workers.

* :class:`SerialBackend`: in the calling process (``workers = 1``).
* :class:`ProcessBackend`: a local ``multiprocessing`` pool (``workers > 1``).  With the fork
  start method the target is inherited, even a closure; otherwise the workers re-load it from
  its spec (``module:function``).
* :class:`DaskBackend`: ``dask.distributed``, a local cluster of ``workers`` processes by
  default, or an existing scheduler given by address (``tcp://host:8786``).  The target goes to
  the workers by its spec when they can re-load it from that (a module, a file path, a built-in
  adapter: every worker must be able to import it, and have privref installed), otherwise
  pickled (cloudpickle, closures included; so is a target registered with register_target).  At most
  :data:`DASK_IN_FLIGHT_PER_WORKER` tasks per worker are in flight, so the parent's memory does
  not grow with the number of chunks.

Timeouts: each call of the target is limited inside the task (audits.blackbox.target); on top,
a result that does not come back within the watchdog budget raises :class:`TargetTimeout`.
"""

from __future__ import annotations

import collections
import multiprocessing
import signal
import socket
import struct
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from multiprocessing.pool import Pool
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

import numpy as np

from privref.reference.errors import InvalidArgument

from .adapters import MissingDependency
from .batch import merge_batches
from .checkpoint import Checkpoint, CheckpointError, Counted, Key
from .errors import TargetError, TargetExited, TargetTimeout
from .estimate import dealt_sizes, events_digest, selection_sizes
from .events import Event
from .search import Pair
from .selection import Candidate
from .target import Batch, Target, draw, load_target, seeded_globals

if TYPE_CHECKING:  # config imports BACKENDS from here
    from .config import AuditConfig

__all__ = [
    "BACKENDS",
    "DASK_IN_FLIGHT_PER_WORKER",
    "VALIDATION_SHARE",
    "Backend",
    "DaskBackend",
    "Plan",
    "ProcessBackend",
    "ProgressReporter",
    "Refine",
    "SamplingEngine",
    "SerialBackend",
    "Streamed",
    "chunk_head",
    "dealing_seed",
    "make_backend",
    "sample_chunk",
    "validation_chunks",
]

T = TypeVar("T")
R = TypeVar("R")

BACKENDS: Final = ("local", "dask")
"""Backend names: ``local`` (in-process for one worker, else a process pool) and ``dask``."""

DASK_IN_FLIGHT_PER_WORKER: Final = 4
"""Dask tasks submitted ahead per worker (bounds the parent's memory and the scheduler's queue)."""

TaskFn = Callable[[Target, Any], Any]
"""A task function: (the target, the task tuple) -> result."""


class Backend(ABC):
    """Runs task functions over a stream of tasks; results come back in any order.

    ``run(fn, tasks, count, budget)`` yields ``fn(target, task)`` for each of the ``count``
    tasks; ``budget`` (seconds, or None) is the watchdog: no result within it raises
    TargetTimeout.  ``close(ok)`` releases the workers (``ok=False``: terminate at once).
    """

    target: Target

    @abstractmethod
    def run(self, fn: TaskFn, tasks: Iterator[Any], count: int,
            budget: float | None) -> Iterator[Any]:
        """Yield ``fn(target, task)`` for every task (order unspecified)."""

    def close(self, ok: bool) -> None:  # noqa: B027 - nothing to release by default
        """Release the workers; ``ok`` is False after an error or an interrupt."""

    @property
    def description(self) -> str:
        """A short description for reports (``serial``, ``local pool of 2 processes``, ...)."""
        return "serial"


class SerialBackend(Backend):
    """Runs every task in the calling process, in order."""

    def __init__(self, target: Target) -> None:
        self.target = target

    def run(self, fn: TaskFn, tasks: Iterator[Any], count: int,
            budget: float | None) -> Iterator[Any]:
        """Yield ``fn(target, task)`` for each task in order (the per-call timeout applies inside)."""
        for task in tasks:
            yield fn(self.target, task)


_WORKER_TARGET: list[Target] = []  # one per worker process, set by the pool's initializer


def _init_worker(target: Target | None, spec: str | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    # a forked worker writes to the process's own streams, never through a supervised parent's
    # forwarding pipe (whose frames must come from one process)
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    if target is None:
        assert spec is not None
        target = load_target(spec)
    _WORKER_TARGET[:] = [target]


def _pool_task(call: tuple[TaskFn, Any]) -> Any:
    fn, task = call
    return fn(_WORKER_TARGET[0], task)


class ProcessBackend(Backend):
    """A local ``multiprocessing`` pool of ``workers`` processes (fork when available)."""

    def __init__(self, target: Target, workers: int) -> None:
        self.target = target
        self.workers = workers
        self._pool: Pool | None = None
        self._started: list[Any] = []

    def _get(self) -> Pool:
        if self._pool is None:
            methods = multiprocessing.get_all_start_methods()
            init: tuple[Target | None, str | None]
            if "fork" in methods:  # the target (even a closure) is inherited, not pickled
                method, init = "fork", (self.target, None)
            elif self.target.spec is not None:  # workers re-load the target from its spec
                method, init = "spawn", (None, self.target.spec)
            else:
                raise TargetError(f"workers={self.workers} needs the fork start method or a "
                                  f"target given as 'module:function'; target {self.target.name} "
                                  "is an in-process callable: use workers=1")
            ctx = multiprocessing.get_context(method)
            self._pool = ctx.Pool(self.workers, initializer=_init_worker, initargs=init)
            self._started = list(getattr(self._pool, "_pool", []))  # the worker processes
        return self._pool

    def _check_workers(self) -> None:
        """TargetExited when a worker process ended: a pool's workers never end on their own
        (the pool would replace it and its task would never come back)."""
        for process in self._started:
            code = process.exitcode
            if code is not None:
                how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
                raise TargetExited(f"a worker process running target {self.target.name} ended "
                                   f"({how}) during the audit: the target called os._exit, "
                                   "killed its process or crashed; nothing was checked")

    def run(self, fn: TaskFn, tasks: Iterator[Any], count: int,
            budget: float | None) -> Iterator[Any]:
        """Yield results as the pool completes them; TargetTimeout when none arrives within ``budget``."""
        if count <= 1:
            for task in tasks:
                yield fn(self.target, task)
            return
        results = self._get().imap_unordered(_pool_task, ((fn, t) for t in tasks))
        for _ in range(count):
            deadline = None if budget is None else time.monotonic() + budget
            while True:  # look at the workers twice a second while waiting
                wait = 0.5 if deadline is None else max(0.0, min(0.5, deadline - time.monotonic()))
                try:
                    result = results.next(wait)
                    break
                except multiprocessing.TimeoutError:
                    self._check_workers()
                    if deadline is not None and time.monotonic() >= deadline:
                        raise _stuck(self.target, budget) from None
            yield result

    def close(self, ok: bool) -> None:
        """Close (after success) or terminate (after an error) the pool, and join it."""
        if self._pool is not None:
            if ok:
                self._pool.close()
            else:
                self._pool.terminate()
            self._pool.join()
            self._pool = None

    @property
    def description(self) -> str:
        """``local pool of N processes``."""
        return f"local pool of {self.workers} processes"


def _stuck(target: Target, budget: float | None) -> TargetTimeout:
    return TargetTimeout(
        f"target {target.name}: no chunk came back from the workers within {budget:g} s; the "
        "target blocks or ignores signals; raise --timeout (API: timeout=) or fix the target")


_DASK_TARGETS: dict[str, Target] = {}  # per Dask worker process: targets loaded by spec


def _dask_task(payload: tuple[str | None, Target | None], fn: TaskFn, task: Any) -> Any:
    spec, target = payload
    if target is None:
        assert spec is not None
        if spec not in _DASK_TARGETS:
            _DASK_TARGETS[spec] = load_target(spec)
        target = _DASK_TARGETS[spec]
    return fn(target, task)


class DaskBackend(Backend):
    """``dask.distributed``: a local cluster of ``workers`` processes, or the scheduler at ``address``.

    Needs the ``dask`` extra (MissingDependency otherwise).  Tasks are submitted in order, at
    most DASK_IN_FLIGHT_PER_WORKER per worker ahead, and their results taken in order.
    """

    def __init__(self, target: Target, workers: int, address: str | None = None) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise MissingDependency("backend='dask' needs dask.distributed: pip install "
                                    "'privref[dask]' (or pip install 'distributed')") from None
        self.target = target
        self.address = address
        self._cluster: Any = None
        try:
            if address is None:
                self._cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                             processes=True, dashboard_address=":0",
                                             silence_logs=40)  # type: ignore[no-untyped-call,unused-ignore]
                self._client: Any = Client(self._cluster)  # type: ignore[no-untyped-call,unused-ignore]
            else:
                check_scheduler(address)
                self._client = Client(address, timeout=30)  # type: ignore[no-untyped-call,unused-ignore]
        except OSError as exc:
            raise InvalidArgument(f"--scheduler {address}: cannot connect to a Dask scheduler "
                                  f"({exc})") from None
        self.workers = max(1, len(self._client.scheduler_info().get("workers", {})) or workers)
        from .adapters import registered_target

        # by spec when the workers can re-load it (a module, a file, a built-in adapter); a
        # target registered in this process only (register_target) or an in-process callable
        # is pickled instead
        by_spec = target.spec is not None and registered_target(target.spec) is None
        payload = (target.spec, None) if by_spec else (None, target)
        self._payload = self._client.scatter(payload, broadcast=True)

    def run(self, fn: TaskFn, tasks: Iterator[Any], count: int,
            budget: float | None) -> Iterator[Any]:
        """Yield results in submission order; TargetTimeout when one does not arrive within ``budget``."""
        from distributed import TimeoutError as DaskTimeout

        window = DASK_IN_FLIGHT_PER_WORKER * self.workers
        flight: collections.deque[Any] = collections.deque()
        source = iter(tasks)
        exhausted = False
        while True:
            while not exhausted and len(flight) < window:
                try:
                    task = next(source)
                except StopIteration:
                    exhausted = True
                    break
                flight.append(self._client.submit(_dask_task, self._payload, fn, task,
                                                  pure=False))
            if not flight:
                return
            future = flight.popleft()
            try:
                yield future.result(timeout=budget)
            except (DaskTimeout, TimeoutError):
                raise _stuck(self.target, budget) from None

    def close(self, ok: bool) -> None:
        """Shut the client down (and the local cluster, if this backend started it)."""
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()

    @property
    def description(self) -> str:
        """``dask local cluster of N workers`` or ``dask scheduler ADDRESS (N workers)``."""
        if self.address is None:
            return f"dask local cluster of {self.workers} workers"
        return f"dask scheduler {self.address} ({self.workers} workers)"


SCHEDULER_SCHEMES: Final = ("tcp", "tls", "ucx", "inproc", "ws", "wss")
"""The address schemes of a Dask scheduler (``tcp://host:8786``); ``http(s)://`` is a dashboard."""

SCHEDULER_PROBE_SECONDS: Final = 5.0
"""How long :func:`check_scheduler` waits for a Dask scheduler's handshake."""

_MAX_HANDSHAKE: Final = 1 << 24  # bytes: a scheduler's first message is a small handshake


def check_scheduler(address: str) -> None:
    """InvalidArgument (naming ``--scheduler``) unless ``address`` answers as a Dask scheduler
    within :data:`SCHEDULER_PROBE_SECONDS`: the scheme is a Dask one, and on ``tcp`` (or no
    scheme) the first 8 bytes the server sends are the length of a handshake, as every Dask
    listener sends on accept.  An HTTP server (the dashboard's port) sends nothing or ``HTTP/``,
    so it is refused within seconds instead of hanging or being read as a 3 EiB frame."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    scheme = scheme.lower()
    if scheme in ("http", "https"):
        raise InvalidArgument(f"--scheduler {address}: an http address is a dashboard; a Dask "
                              "scheduler listens on tcp://HOST:PORT (port 8786 by default)")
    if scheme not in SCHEDULER_SCHEMES:
        raise InvalidArgument(f"--scheduler {address}: unknown scheme {scheme!r}; a Dask "
                              "scheduler's address looks like tcp://HOST:8786")
    if scheme != "tcp":
        return  # no plain-socket probe for tls, ucx, inproc, websockets
    host, colon, port_text = rest.rstrip("/").rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise InvalidArgument(f"--scheduler {address} must look like tcp://HOST:PORT")
    try:
        with socket.create_connection((host, int(port_text)),
                                      timeout=SCHEDULER_PROBE_SECONDS) as conn:
            head = b""
            while len(head) < 8:
                chunk = conn.recv(8 - len(head))
                if not chunk:
                    break
                head += chunk
    except TimeoutError:
        raise InvalidArgument(f"--scheduler {address}: no Dask handshake within "
                              f"{SCHEDULER_PROBE_SECONDS:g} s: not a Dask scheduler (an HTTP "
                              "server such as the dashboard?); the scheduler listens on "
                              "tcp://HOST:8786 by default") from None
    except OSError as exc:
        raise InvalidArgument(f"--scheduler {address}: cannot connect "
                              f"({exc.strerror or type(exc).__name__})") from None
    size = struct.unpack("<Q", head)[0] if len(head) == 8 else 0
    if not 0 < size < _MAX_HANDSHAKE:
        shown = head[:8].decode("ascii", "replace")
        raise InvalidArgument(f"--scheduler {address}: the server there is not a Dask scheduler "
                              f"(it answered {shown!r}, not a Dask handshake)")


def make_backend(name: str, target: Target, workers: int, address: str | None = None) -> Backend:
    """The backend ``name`` (:data:`BACKENDS`) for ``target``; InvalidArgument names a bad one."""
    if name not in BACKENDS:
        raise InvalidArgument(f"backend={name!r} must be one of {', '.join(BACKENDS)}")
    if address is not None and name != "dask":
        raise InvalidArgument(f"scheduler={address!r} needs backend='dask'")
    if name == "dask":
        return DaskBackend(target, workers, address)
    return SerialBackend(target) if workers == 1 else ProcessBackend(target, workers)


# ---------------------------------------------------------------------------- one chunk

def _chunk_seed(seed: int, key: Key, stream: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(seed, spawn_key=(*key, stream))


def sample_chunk(target: Target, data: Sequence[Hashable], seed: int, key: Key,
                 size: int, timeout: float | None = None) -> Batch:
    """Chunk ``key`` of ``size`` outcomes of ``target`` on ``data``: drawn with the generator of
    ``(*key, 0)`` under global states seeded from ``(*key, 1)`` (the module docstring of
    :mod:`privref.audits.blackbox.runner`), so it depends only on (target, data, seed, key, size)."""
    rng = np.random.Generator(np.random.PCG64(_chunk_seed(seed, key, 0)))
    with seeded_globals(_chunk_seed(seed, key, 1)):
        return draw(target, data, rng, size, timeout)


def dealing_seed(seed: int, stage: int, index: int) -> np.random.SeedSequence:
    """The seed of the fair coins that deal a pair's bounding split to its sides
    (:func:`privref.audits.blackbox.pooled.allocate`): a stream of the audit's seed apart
    from every chunk's."""
    return np.random.SeedSequence(seed, spawn_key=(stage, index, 2))


_Task = tuple[Key, tuple[Hashable, ...], int, int, float | None]  # key, data, seed, size, timeout
# key, data, seed, size, timeout, events, how many of the chunk's outcomes to count
_CountTask = tuple[Key, tuple[Hashable, ...], int, int, float | None, tuple[Event, ...], int]


def _sample_task(target: Target, task: _Task) -> tuple[Key, Batch]:
    key, data, seed, size, timeout = task
    return key, sample_chunk(target, data, seed, key, size, timeout)



def chunk_head(batch: Batch) -> Batch:
    """The batch's first outcome only (what the outcome-kind checks need)."""
    values = batch.values[:1].copy() if isinstance(batch.values, np.ndarray) else batch.values[:1]
    return Batch(batch.kind, values, batch.first, batch.conversions)


def _count_task(target: Target, task: _CountTask) -> tuple[Key, Counted]:
    key, data, seed, size, timeout, events, limit = task
    batch = sample_chunk(target, data, seed, key, size, timeout)
    values = batch.values if limit >= len(batch) else batch.values[:limit]
    return key, Counted(len(values), tuple(e.count(values) for e in events), chunk_head(batch))


# ---------------------------------------------------------------------------- progress

class ProgressReporter(Protocol):
    """Where the sampling engine reports progress (e.g. a terminal bar; none by default).

    Per stage: ``begin(label, total)`` with the stage's name (``"screening"``,
    ``"confirmation"``, ``"sampling"``) and its total number of outcomes (both sides of every
    pair), then ``advance(n)`` for every ``n`` more outcomes drawn, counted or found in the
    checkpoint, then ``end()`` (also after an error).  Calls come from the calling thread.
    """

    def begin(self, label: str, total: int) -> None:
        """A stage of ``total`` outcomes starts."""

    def advance(self, n: int) -> None:
        """``n`` more outcomes of the stage are done."""

    def end(self) -> None:
        """The stage is over (completed or not)."""


class _Silent:
    """The progress reporter that reports nothing."""

    def begin(self, label: str, total: int) -> None:
        """Nothing."""

    def advance(self, n: int) -> None:
        """Nothing."""

    def end(self) -> None:
        """Nothing."""


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
    kept: tuple[Batch, Batch] | None = None
    """The first outcomes per side of this stage's own draws, kept on request (``keep``)."""

    @property
    def bounding(self) -> tuple[int, int]:
        """The bounding split's size per side: the dealt sizes, or ``held_size`` twice."""
        return self.dealt if self.dealt is not None else (self.held_size, self.held_size)


class SamplingEngine:
    """Draws and counts the chunks of a stage (see the module docstring of
    :mod:`privref.audits.blackbox.runner`), through a backend, a checkpoint and a progress
    reporter; a context manager that releases the backend and closes the checkpoint."""

    def __init__(self, target: Target, config: AuditConfig, fingerprint: dict[str, Any],
                 progress: ProgressReporter | None = None) -> None:
        self.target = target
        self.config = config
        self.backend: Backend | None = None
        self.progress: ProgressReporter = _Silent() if progress is None else progress
        self.checkpoint = (None if config.checkpoint is None
                           else Checkpoint(config.checkpoint, fingerprint))

    def __enter__(self) -> SamplingEngine:
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
        found: dict[Key, Batch] = {}
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
               pooled: bool = False, carried: Mapping[int, tuple[Batch, Batch]] | None = None,
               keep: int = 0) -> dict[int, Streamed]:
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

        With ``carried`` (pair index -> a selection sample per side drawn apart from this
        stage, e.g. by the earlier rounds of a sequential audit, at least one outcome per side),
        this stage has no selection and no validation split: ``plan`` reads the carried samples
        and all ``n`` outcomes of each side bound.  ``keep``: the first ``min(keep, n)`` outcomes
        of each side (fewer with a validation split: those already in the parent) are also
        returned, as ``Streamed.kept``; their chunks are drawn in the parent, so memory grows by
        ``keep`` outcomes per side per pair.  The defaults change nothing.
        """
        chunk = self.config.chunk(self.target)
        total = -(-n // chunk)
        sel = 0 if carried is not None else selection_sizes(
            n, n, Fraction(1, 2), self.config.selection_cap)[0]
        held = n - sel
        first = -(-sel // chunk)
        v = 0 if refine is None or carried is not None else validation_chunks(n, sel, chunk)
        keep = min(keep, n)
        if not v:  # the kept outcomes' chunks are drawn in the parent (and counted there)
            first = max(first, -(-keep // chunk))
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
                merged = (self._collect(stage, [(index, pair)], n, first) if first else
                          {(index, side): Batch("number", np.zeros(0, dtype=np.int64), 0)
                           for side in (0, 1)})
                check(merged)
                values = (merged[(index, 0)].values, merged[(index, 1)].values)
                picked = ((values[0][:sel], values[1][:sel]) if carried is None
                          else (carried[index][0].values, carried[index][1].values))
                chosen = plan(index, picked[0], picked[1], bounding, bounding,
                              v > 0, index in dealt)
                events[index] = tuple(c.event for c in chosen)
                digests[index] = events_digest(chosen)
                for side in (0, 1):
                    # the held-out part of the last selection chunk (validation, or bounding
                    # up to this side's dealt end)
                    tail = values[side][sel:] if v else values[side][sel:ends[(index, side)]]
                    hits[(index, side)] = [e.count(tail) for e in events[index]]
                heads = [Batch(b.kind, b.values[:keep], b.first, b.conversions)
                         for b in (merged[(index, 0)], merged[(index, 1)])]
                out[index] = Streamed(chosen, (), sel if carried is None else len(picked[0]),
                                      held, (picked[0], picked[1]) if keep_selection
                                      else None, dealt=dealt.get(index),
                                      kept=(heads[0], heads[1]) if keep else None)
                del merged, values, tail, picked, heads
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
                                          dealt.get(index), s.kept)
                self._count(stage, pairs, n, first + v, total, events, digests, hits, check,
                            ends)
        finally:
            self.progress.end()
        return {index: Streamed(s.chosen, tuple((hits[(index, 0)][k], hits[(index, 1)][k])
                                                for k in range(len(s.chosen))),
                                s.selection_size, s.held_size, s.selection, s.validation_size,
                                s.dealt, s.kept)
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

        done: dict[Key, Counted] = {}
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

        def add(key: Key, counted: Counted) -> None:
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
