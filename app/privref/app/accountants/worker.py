"""Run a third-party accountant in a child process, each call under a time limit and the process
under a memory limit.

The child (``python -P .../worker.py MODULE DISTRIBUTION``: this file run as a script, which
imports only the standard library, so it starts in milliseconds) imports the library first and
says whether it is there (``missing``), failed to import (``import_error``) or is
ready (with its version); then it answers one request per line: a Python snippet (a method's code
from an adapter, with the task's parameters filled in) is executed and its ``result`` (a float or a
tuple of floats) returned, each float as ``float.hex`` so that it crosses the pipe exactly.  A
snippet that raises is answered with the exception's type and message.  The parent
(:class:`Worker`) waits at most ``timeout`` seconds for each answer; past it the child's whole
process group is killed, the call is reported as overrunning, and the next call starts a new child.
The library's own prints go to the child's stderr (kept in a temporary file), never into the pipe.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import platform
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import IO, Any, Final

__all__ = ["MEMORY_LIMIT", "STARTUP_TIMEOUT", "Answer", "LibraryFailed", "LibraryMissing", "Worker"]

MEMORY_LIMIT: Final = 8 << 30
"""Bytes of address space the child may map (RLIMIT_AS); past it the library's allocation fails
(a MemoryError, reported as the call raising)."""

STARTUP_TIMEOUT: Final = 120.0
"""Seconds the child may take to import the library."""


class LibraryMissing(Exception):
    """The library is not installed (its module cannot be found)."""


class LibraryFailed(Exception):
    """The library is installed but importing it raised, or the child died while importing."""


@dataclass(frozen=True)
class Answer:
    """One call's outcome: ``values`` (the floats returned), or ``raised`` (``Type: message``), or
    ``timed_out`` (the call overran; the child was killed); ``seconds`` of wall time."""

    values: tuple[float, ...] | None
    raised: str | None
    timed_out: bool
    seconds: float


class Worker:
    """A child process holding one library (module doc); :meth:`call` runs one snippet."""

    def __init__(self, module: str, distribution: str, timeout: float) -> None:
        self.module, self.distribution, self.timeout = module, distribution, timeout
        self.version: str | None = None
        self.dependencies: dict[str, str] = {}
        """numpy's and scipy's versions in the child (when installed)."""
        self._proc: subprocess.Popen[str] | None = None
        self._log: IO[str] | None = None

    def start(self) -> str:
        """Start the child and import the library; its version.  Raises LibraryMissing or
        LibraryFailed."""
        self.close()
        self._log = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed in close()
        self._proc = subprocess.Popen(
            [sys.executable, "-P", os.path.abspath(__file__), self.module, self.distribution],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True,
            start_new_session=True)
        line = self._read(STARTUP_TIMEOUT)
        if line is None:
            self.close()
            raise LibraryFailed(f"{self.distribution} did not finish importing within "
                                f"{STARTUP_TIMEOUT:g} s")
        if not line:
            tail = self._stderr_tail()
            self.close()
            raise LibraryFailed(f"importing {self.distribution} killed its process: {tail}")
        hello = json.loads(line)
        if "missing" in hello:
            self.close()
            raise LibraryMissing(hello["missing"])
        if "import_error" in hello:
            self.close()
            raise LibraryFailed(f"importing {self.distribution} raised {hello['import_error']}")
        self.version = str(hello["version"])
        self.dependencies = {str(k): str(v) for k, v in hello.get("dependencies", {}).items()}
        return self.version

    def _read(self, timeout: float) -> str | None:
        """One line from the child, '' when it died, None past ``timeout`` seconds."""
        assert self._proc is not None and self._proc.stdout is not None
        ready, _, _ = select.select([self._proc.stdout], [], [], timeout)
        if not ready:
            return None
        return self._proc.stdout.readline()

    def _stderr_tail(self) -> str:
        if self._log is None:
            return ""
        self._log.seek(0)
        text = " ".join(self._log.read().split())
        return text[-300:] or "(no message)"

    def call(self, code: str) -> Answer:
        """Run ``code`` in the child (restarted first if a previous call killed it)."""
        if self._proc is None:
            self.start()
        assert self._proc is not None and self._proc.stdin is not None
        start = time.perf_counter()
        try:
            self._proc.stdin.write(json.dumps({"code": code}) + "\n")
            self._proc.stdin.flush()
        except BrokenPipeError:
            self.close()
            return Answer(None, "the library's process died before the call", False, 0.0)
        line = self._read(self.timeout)
        seconds = time.perf_counter() - start
        if line is None:
            self.close()
            return Answer(None, None, True, seconds)
        if not line:
            tail = self._stderr_tail()
            self.close()
            return Answer(None, f"the library's process died: {tail}", False, seconds)
        reply = json.loads(line)
        if "raised" in reply:
            return Answer(None, str(reply["raised"]), False, seconds)
        return Answer(tuple(float.fromhex(x) for x in reply["values"]), None, False, seconds)

    def close(self) -> None:
        """Stop the child (its whole process group) if it runs."""
        if self._proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self._proc.pid, signal.SIGKILL)
            self._proc.wait()
            for stream in (self._proc.stdin, self._proc.stdout):
                if stream is not None:
                    with contextlib.suppress(BrokenPipeError):
                        stream.close()
            self._proc = None
        if self._log is not None:
            self._log.close()
            self._log = None


def _limit_memory() -> None:
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):  # pragma: no cover - platform without RLIMIT_AS
        pass


def _floats(result: Any) -> list[str]:
    items = result if isinstance(result, tuple | list) else (result,)
    return [float(x).hex() for x in items]


def _serve(module: str, distribution: str) -> None:
    """The child's loop (module doc)."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # the library's prints go to stderr, never into the answers
    sys.stdout = sys.stderr
    _limit_memory()

    def say(message: dict[str, Any]) -> None:
        channel.write(json.dumps(message) + "\n")
        channel.flush()

    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.split(".")[0] == exc.name.split(".")[0]:
            say({"missing": f"{distribution} is not installed (no module {module!r})"})
            return
        say({"import_error": f"{type(exc).__name__}: {exc}"})
        return
    except BaseException as exc:
        say({"import_error": f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"})
        return
    from importlib import metadata
    try:
        version = metadata.version(distribution)
    except metadata.PackageNotFoundError:
        version = "unknown"
    found = {}
    for dependency in ("numpy", "scipy"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            found[dependency] = metadata.version(dependency)
    say({"version": version, "python": platform.python_version(), "dependencies": found})
    for line in sys.stdin:
        request = json.loads(line)
        scope: dict[str, Any] = {"__name__": "__accountant__"}
        try:
            exec(compile(request["code"], "<accountant call>", "exec"), scope)
            say({"values": _floats(scope["result"])})
        except BaseException as exc:  # the library raised: report it, keep serving
            say({"raised": f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"})


if __name__ == "__main__":
    _serve(sys.argv[1], sys.argv[2])
