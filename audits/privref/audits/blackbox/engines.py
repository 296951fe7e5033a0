"""Where the black-box auditor's chunks run: in-process, a local process pool, or Dask.

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
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from multiprocessing.pool import Pool
from typing import Any, Final, TypeVar

from privref.reference.errors import InvalidArgument

from .adapters import MissingDependency
from .errors import TargetError, TargetTimeout
from .target import Target, load_target

__all__ = [
    "BACKENDS",
    "DASK_IN_FLIGHT_PER_WORKER",
    "Backend",
    "DaskBackend",
    "ProcessBackend",
    "SerialBackend",
    "make_backend",
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
        return self._pool

    def run(self, fn: TaskFn, tasks: Iterator[Any], count: int,
            budget: float | None) -> Iterator[Any]:
        """Yield results as the pool completes them; TargetTimeout when none arrives within ``budget``."""
        if count <= 1:
            for task in tasks:
                yield fn(self.target, task)
            return
        results = self._get().imap_unordered(_pool_task, ((fn, t) for t in tasks))
        for _ in range(count):
            try:
                yield results.next(budget)
            except multiprocessing.TimeoutError:
                raise _stuck(self.target, budget) from None

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


def make_backend(name: str, target: Target, workers: int, address: str | None = None) -> Backend:
    """The backend ``name`` (:data:`BACKENDS`) for ``target``; InvalidArgument names a bad one."""
    if name not in BACKENDS:
        raise InvalidArgument(f"backend={name!r} must be one of {', '.join(BACKENDS)}")
    if address is not None and name != "dask":
        raise InvalidArgument(f"scheduler={address!r} needs backend='dask'")
    if name == "dask":
        return DaskBackend(target, workers, address)
    return SerialBackend(target) if workers == 1 else ProcessBackend(target, workers)
