"""Supervised runs: a black-box audit in a child process group that can always be ended.

A target is arbitrary code.  It may call ``sys.exit`` or ``os._exit``, kill its own process,
ignore or catch ``SIGALRM``, catch every exception, block in C code, or fork.  In the process
that runs it, none of that can be fully contained, so the command line and suites run each
audit through :func:`supervise`:

* ``work`` runs in a forked child that leads a new process group (workers and whatever the
  target starts belong to it) with standard input at ``/dev/null``;
* its result, or the exception it raised, comes back through a pipe (pickled); a child that
  ends without sending one (``os._exit``, a signal, a crash) is :class:`TargetExited`, never a
  pass;
* a per-call watchdog (:func:`watchdog_arm`, armed by the target's per-call timer in every
  process of the group) ends the whole group :data:`TIMEOUT_GRACE` seconds past a call's
  deadline and leaves the reason in a status file, so the per-call timeout holds whatever the
  target does with signals and exceptions (:class:`TargetTimeout`);
* when ``work`` ends, every process left in the group (what the target forked) is killed.

Limits, stated: a process the target moves out of the group (``os.setsid``) escapes the final
kill; a target holding the interpreter lock forever in C code stops the watchdog thread too.
Without ``os.fork`` (Windows), :func:`supervise` runs ``work`` in-process.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import select
import signal
import struct
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final, TypeVar

from privref.reference.errors import PrivrefError

from .errors import TargetExited, TargetTimeout

__all__ = ["ENV_GROUP", "ENV_STATUS", "TIMEOUT_GRACE", "supervise", "supervised", "watchdog_arm"]

T = TypeVar("T")

ENV_GROUP: Final = "PRIVREF_SUPERVISED_GROUP"
"""Environment variable holding the supervised process group's id (set in the child)."""

ENV_STATUS: Final = "PRIVREF_SUPERVISED_STATUS"
"""Environment variable holding the path where the watchdog leaves the reason it ended a run."""

TIMEOUT_GRACE: Final = 2.0
"""Seconds past a call's deadline after which the watchdog ends the supervised process group
(the per-call alarm had its chance: the target ignores or catches it, or blocks)."""

_POLL: Final = 0.1  # seconds between the watchdog's looks at the armed deadline

_group_of_pid: dict[int, int | None] = {}  # per process: the supervised group it belongs to
_armed: list[tuple[float, float, str] | None] = [None]  # (deadline, seconds, target) of the call
_watchers: set[int] = set()  # pids whose watchdog thread runs


def supervised() -> int | None:
    """The supervised process group this process belongs to, or None (not supervised)."""
    pid = os.getpid()
    if pid not in _group_of_pid:
        value = os.environ.get(ENV_GROUP, "")
        group = int(value) if value.isdigit() else None
        _group_of_pid[pid] = group if group is not None and os.getpgrp() == group else None
    return _group_of_pid[pid]


def watchdog_arm(deadline: float | None, seconds: float = 0.0, target: str = "") -> None:
    """Arm (a ``time.monotonic`` deadline) or disarm (None) the watchdog of this process for the
    current call of ``target``; does nothing outside a supervised run.  Costs one assignment."""
    if deadline is None:
        _armed[0] = None
        return
    group = supervised()
    if group is None:
        return
    _armed[0] = (deadline, seconds, target)
    pid = os.getpid()
    if pid not in _watchers:
        _watchers.add(pid)
        threading.Thread(target=_watch, args=(group,), name="privref-watchdog",
                         daemon=True).start()


def _watch(group: int) -> None:
    while True:
        time.sleep(_POLL)
        armed = _armed[0]
        if armed is not None and time.monotonic() > armed[0] + TIMEOUT_GRACE:
            _, seconds, target = armed
            _end_group(group, f"target {target} did not return within the per-call limit "
                       f"timeout={seconds:g} s (nor {TIMEOUT_GRACE:g} s later: it ignores or "
                       "catches the alarm, or blocks), so its process group was ended; raise "
                       "--timeout (API: timeout=) or fix the target")


def _end_group(group: int, reason: str) -> None:
    path = os.environ.get(ENV_STATUS)
    if path:
        with contextlib.suppress(OSError):
            Path(path).write_text(reason, encoding="utf-8")
    os.killpg(group, signal.SIGKILL)


_LENGTH = struct.Struct("<Q")


def supervise(work: Callable[[], T]) -> T:
    """``work()`` run in a child process group (see the module docstring): its result, or its
    exception re-raised here; TargetExited when the child ends without either, TargetTimeout
    when the watchdog ended it.  What the child writes to ``sys.stdout``/``sys.stderr`` is
    passed on to this process's streams as it comes (so captured or redirected streams see it).
    KeyboardInterrupt here ends the child's group and propagates."""
    if not hasattr(os, "fork") or supervised() is not None:
        return work()  # no fork on this platform, or already inside a supervised run
    sys.stdout.flush()
    sys.stderr.flush()
    ttys = (_isatty(sys.stdout), _isatty(sys.stderr))
    with tempfile.TemporaryDirectory(prefix="privref-supervised-") as scratch:
        status = os.path.join(scratch, "status")
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child (covered through the parent's tests)
            os.close(read_end)
            _child(work, write_end, status, ttys)
        os.close(write_end)
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)  # also done by the child: whichever runs first
        try:
            result, exit_status = _collect(pid, read_end)
        except BaseException:
            _kill_group(pid)
            _reap(pid)
            raise
        finally:
            os.close(read_end)
            sys.stdout.flush()
        _kill_group(pid)  # whatever the target left running
        if result is not None:
            kind, value = result
            if kind == "raised":
                assert isinstance(value, BaseException)
                raise value
            return value  # type: ignore[return-value]
        reason = Path(status).read_text(encoding="utf-8") if os.path.exists(status) else ""
        if reason:
            raise TargetTimeout(reason)
        raise TargetExited(f"the process running the audit ended ({_describe(exit_status)}) "
                           "before the audit finished, without a result: the target called "
                           "os._exit, killed its process or crashed; nothing was checked")


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except Exception:
        return False


class _Forward(io.TextIOBase):
    """The child's ``sys.stdout``/``sys.stderr``: every write is a frame for the parent."""

    def __init__(self, send: Callable[[tuple[str, object]], None], name: str, tty: bool,
                 fileno: int | None) -> None:
        self._send, self._name, self._tty, self._fd = send, name, tty, fileno

    def write(self, text: str) -> int:
        if text:
            self._send((self._name, str(text)))
        return len(text)

    def isatty(self) -> bool:
        return self._tty

    def fileno(self) -> int:
        if self._fd is None:
            raise io.UnsupportedOperation("fileno")
        return self._fd

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"


def _fileno(stream: object) -> int | None:
    try:
        return int(stream.fileno())  # type: ignore[attr-defined]
    except Exception:
        return None


def _child(work: Callable[[], object], write_end: int, status: str,
           ttys: tuple[bool, bool]) -> None:  # pragma: no cover - runs in the forked child
    code = 0
    try:
        os.setpgid(0, 0)
        os.environ[ENV_GROUP] = str(os.getpgrp())
        os.environ[ENV_STATUS] = status
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
        lock = threading.Lock()

        def send(frame: tuple[str, object]) -> None:
            try:
                payload = pickle.dumps(frame)
            except Exception as exc:  # an unpicklable result or exception: say what it was
                shown = frame[1] if frame[0] == "raised" else exc
                payload = pickle.dumps(("raised", PrivrefError(
                    f"the audit's result could not be passed back: {type(shown).__name__}: "
                    f"{shown}")))
            view = memoryview(_LENGTH.pack(len(payload)) + payload)
            with lock:
                while view:
                    view = view[os.write(write_end, view):]

        sys.stdout = _Forward(send, "stdout", ttys[0], _fileno(sys.stdout))
        sys.stderr = _Forward(send, "stderr", ttys[1], _fileno(sys.stderr))
        try:
            frame: tuple[str, object] = ("ok", work())
        except BaseException as exc:  # sent to the parent, which re-raises it
            frame = ("raised", exc)
        send(frame)
    except BaseException:  # the parent reports a child without a result
        code = 70
    finally:
        os._exit(code)


def _collect(pid: int, fd: int) -> tuple[tuple[str, object] | None, int]:
    """Pass on the child's output frames until its result frame, or until the child is gone
    (what the target forked may hold the pipe open, so end of file alone is not waited for)."""
    buffer = bytearray()
    while True:
        ready, _, _ = select.select([fd], [], [], 0.2)
        chunk = os.read(fd, 1 << 20) if ready else b""
        buffer += chunk
        while len(buffer) >= _LENGTH.size:
            (size,) = _LENGTH.unpack_from(buffer)
            if len(buffer) < _LENGTH.size + size:
                break
            kind, value = pickle.loads(bytes(buffer[_LENGTH.size:_LENGTH.size + size]))
            del buffer[:_LENGTH.size + size]
            if kind in ("stdout", "stderr"):
                stream = sys.stdout if kind == "stdout" else sys.stderr
                stream.write(str(value))
                if kind == "stderr":
                    stream.flush()
                continue
            _reap(pid)
            return (kind, value), 0
        if chunk:
            continue
        done, waited = os.waitpid(pid, 0 if ready else os.WNOHANG)  # ready and empty: end of file
        if done:
            return None, waited


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _kill_group(group: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"killed by {name}"
    if os.WIFEXITED(status):
        return f"exit status {os.WEXITSTATUS(status)}"
    return f"status {status}"
