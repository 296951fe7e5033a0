"""A case server of the bad-input corpus: an interpreter that imports privref once, then forks
one child per case (run as a script by :func:`tests.bad_input.harness.run_all`).

Protocol, one JSON object per line.  A request on stdin names the case (``argv``: the
``privref`` arguments, or ``api`` with the ``driver`` source that runs it), its working
directory ``cwd``, the files ``out`` and ``err`` for its stdout and stderr, and ``timeout`` in
seconds.  The answer on stdout is ``{"returncode": int}`` (negative: killed by that signal, as
:mod:`subprocess` reports it) or ``{"returncode": null}`` when the case outlived its timeout and
its process group was killed.

The child behaves as ``python -m privref ...`` (or ``python -c driver``) in ``cwd``: its own
process group, ``/dev/null`` as stdin, ``cwd`` first on ``sys.path``, ``python -m``'s
``sys.argv``, an uncaught exception printed as a traceback with exit status 1, and
``SystemExit`` mapped to a status as the interpreter maps it.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import runpy
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import privref.app.cli  # the imports every case would otherwise pay for
from privref.audits.blackbox.declarations import distributions_by_package
from privref.proofs.registry import all_entries

# what many cases import (table4's, the learners', prediction's, the suites'): forked children
# inherit the modules instead of importing them each
for _heavy in ("scipy.sparse", "sklearn.linear_model", "privref.app.experiments.pate",
               "privref.app.prediction_cli", "privref.app.blackbox_suite",
               "privref.app.library_cli"):
    importlib.import_module(_heavy)

distributions_by_package()  # the installed distributions, scanned once: every audit reads them
all_entries()  # the ledger, built once (about 0.6 s): the lemmas cases read it

_ENTRY = str(Path(privref.__file__).with_name("__main__.py"))


def _status(exc: SystemExit) -> int:
    """The exit status the interpreter gives an uncaught ``SystemExit``."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)
    return 1


def _redirect(fd: int, path: str, flags: int) -> None:
    handle = os.open(path, flags, 0o600)
    os.dup2(handle, fd)
    os.close(handle)


def _child(request: dict[str, Any]) -> int:
    """Run one case in this (forked) process; its exit status."""
    os.setpgid(0, 0)
    os.chdir(request["cwd"])
    _redirect(0, os.devnull, os.O_RDONLY)
    _redirect(1, request["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    _redirect(2, request["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115  (the server's buffer is not the case's)
    sys.path[0] = os.getcwd()
    try:
        if "argv" in request:
            sys.argv = [_ENTRY, *request["argv"]]
            runpy.run_module("privref", run_name="__main__", alter_sys=True)
        else:
            sys.argv = ["-c", request["api"]]
            exec(compile(request["driver"], "<string>", "exec"), {"__name__": "__main__"})
        code = 0
    except SystemExit as exc:
        code = _status(exc)
    except BaseException:
        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    return code


def _serve(request: dict[str, Any]) -> int | None:
    """Fork the case, wait for it at most its timeout; its status (None: killed as a hang)."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child never returns into the server loop
        code = 1
        try:
            code = _child(request)
        finally:
            os._exit(code)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)
    deadline = time.monotonic() + float(request["timeout"])
    status: int | None = None
    while True:
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(raw)
            break
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            break
        time.sleep(0.002)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)  # whatever the case left running in its group
    return status


def main() -> None:
    """Answer requests until stdin closes."""
    for line in sys.stdin:
        status = _serve(json.loads(line))
        print(json.dumps({"returncode": status}), flush=True)


if __name__ == "__main__":
    main()
