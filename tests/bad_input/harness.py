"""The bad-input corpus: malformed CLI and API inputs, each run in a fresh interpreter under a
timeout, each expected to end in one clean error line that names the argument.

A :class:`Case` is either a ``privref`` command line (``argv``) or a Python snippet (``api``)
that must raise.  Each case runs in its own process under a timeout, so a hang is a timeout,
never a stuck test, and a traceback or a silent success is a failure.

:func:`run_all` forks each case from a few case servers (``case_server.py``): interpreters that
imported privref once, so a case costs a fork instead of an interpreter start and the imports
(about 0.7 s each).  The forked child gets its own working directory, process group, stdin
(``/dev/null``) and output files, and runs ``python -m privref`` through :mod:`runpy` as the
interpreter would.  :func:`run_fresh` runs one case in a new interpreter, the reference a test
compares the servers with.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

TIMEOUT = 60.0
"""Seconds one case may take; past it the case fails as a hang."""

EXIT_OK, EXIT_VIOLATION, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_TARGET, EXIT_NOTHING_CHECKED = 5, 6
"""The documented exit codes of ``privref`` (privref.app.commands.exit_codes)."""


@dataclass(frozen=True)
class Case:
    """One malformed input and the clean failure it must produce.

    ``argv``: the ``privref`` arguments (exit status ``exit_code`` expected; the last stderr line
    must read ``privref ...: error: ...`` and match ``names``).  ``api``: Python source that must
    raise an exception whose class (or a base class) is named ``error`` and whose one-line message
    matches ``names``.  ``files`` are written into the case's empty working directory first
    (``{cwd}`` in argv or api is replaced by that directory).  ``stderr`` (optional) must also
    match the whole stderr (for warnings that must appear).  ``verdict`` (optional, argv cases
    only): the case is not an error but a run that must conclude; its exit status is
    ``exit_code`` and its stdout must match ``verdict`` (e.g. a hostile but valid target that
    must still get the verdict its law implies); ``names`` is then unused.
    """

    id: str
    names: str
    argv: tuple[str, ...] | None = None
    api: str | None = None
    exit_code: int = EXIT_USAGE
    error: str = "PrivrefError"
    files: Mapping[str, str | bytes] = field(default_factory=dict)
    stderr: str | None = None
    verdict: str | None = None


@dataclass(frozen=True)
class Outcome:
    """What running a case produced."""

    case: Case
    returncode: int | None  # None: timed out
    stdout: str
    stderr: str
    leftovers: tuple[str, ...]  # files the run left in its working directory besides ``files``


_DRIVER = r'''
import sys, traceback
src = sys.argv[1]
try:
    exec(compile(src, "<case>", "exec"), {"__name__": "__case__"})
except BaseException as exc:  # report the class chain and the message, never a traceback
    names = [c.__name__ for c in type(exc).__mro__]
    print("RAISED " + " ".join(names))
    print("MESSAGE " + str(exc).replace("\n", "\\n"))
    sys.exit(0)
print("NO ERROR")
sys.exit(5)
'''


def _fresh_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "HYPOTHESIS"))}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _write_files(case: Case, tmp: str) -> None:
    for name, content in case.files.items():
        path = Path(tmp, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content.replace("{cwd}", tmp))


def _leftovers(case: Case, tmp: str) -> tuple[str, ...]:
    given = {Path(n).parts[0] for n in case.files}
    return tuple(sorted(n for n in os.listdir(tmp) if n not in given))


def run_fresh(case: Case) -> Outcome:
    """Run one case in a new interpreter (``python -m privref`` or ``python -c``)."""
    with tempfile.TemporaryDirectory(prefix="privref-bad-") as tmp:
        _write_files(case, tmp)
        if case.argv is not None:
            cmd = [sys.executable, "-m", "privref", *(a.replace("{cwd}", tmp) for a in case.argv)]
        else:
            assert case.api is not None, case.id
            cmd = [sys.executable, "-c", _DRIVER, case.api.replace("{cwd}", tmp)]
        try:
            done = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, timeout=TIMEOUT,
                                  env=_fresh_env(), stdin=subprocess.DEVNULL)
            code: int | None = done.returncode
            out, err = done.stdout, done.stderr
        except subprocess.TimeoutExpired as exc:
            code = None
            out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
            err = exc.stderr.decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        left = _leftovers(case, tmp)
    return Outcome(case, code, out, err, left)


class Server:
    """One case server (``case_server.py``) and the pipe to it."""

    def __init__(self, scratch: str) -> None:
        self._scratch = scratch
        self._log = open(Path(scratch, "server.log"), "w+", encoding="utf-8")  # noqa: SIM115
        self._proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("case_server.py"))], cwd=scratch,
            env=_fresh_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
            text=True)

    def run(self, case: Case, timeout: float = TIMEOUT) -> Outcome:
        """Run one case in a child forked by the server."""
        with tempfile.TemporaryDirectory(prefix="privref-bad-") as tmp:
            _write_files(case, tmp)
            out, err = Path(self._scratch, "out"), Path(self._scratch, "err")
            request: dict[str, object] = {"cwd": tmp, "out": str(out), "err": str(err),
                                          "timeout": timeout}
            if case.argv is not None:
                request["argv"] = [a.replace("{cwd}", tmp) for a in case.argv]
            else:
                assert case.api is not None, case.id
                request.update(api=case.api.replace("{cwd}", tmp), driver=_DRIVER)
            assert self._proc.stdin is not None and self._proc.stdout is not None
            self._proc.stdin.write(json.dumps(request) + "\n")
            self._proc.stdin.flush()
            answer = self._proc.stdout.readline()
            if not answer:
                self._log.seek(0)
                raise RuntimeError(f"the case server died on {case.id}: {self._log.read()[-2000:]}")
            code = json.loads(answer)["returncode"]
            text = [p.read_text(encoding="utf-8", errors="replace") for p in (out, err)]
            return Outcome(case, code, text[0], text[1], _leftovers(case, tmp))

    def close(self) -> None:
        """Stop the server (it exits when its stdin closes)."""
        assert self._proc.stdin is not None
        self._proc.stdin.close()
        self._proc.wait(timeout=TIMEOUT)
        self._log.close()


def _serve_all(cases: Sequence[Case], workers: int) -> list[Outcome]:
    queue = list(reversed(cases))
    lock = threading.Lock()
    done: list[Outcome] = []

    def work() -> None:
        with tempfile.TemporaryDirectory(prefix="privref-server-") as scratch:
            server = Server(scratch)
            try:
                while True:
                    with lock:
                        if not queue:
                            return
                        case = queue.pop()
                    got = server.run(case)
                    with lock:
                        done.append(got)
            finally:
                server.close()

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(work) for _ in range(workers)]:
            future.result()
    return done


def run_all(cases: Sequence[Case], workers: int = 4) -> dict[str, Outcome]:
    """Run every case, forked from ``workers`` case servers; outcomes by case id."""
    return {o.case.id: o for o in _serve_all(cases, workers)}


def problems(o: Outcome) -> list[str]:
    """Everything wrong with one outcome (empty when the case failed cleanly as expected)."""
    import re

    c = o.case
    found: list[str] = []
    if o.returncode is None:
        return [f"hang: no answer within {TIMEOUT:.0f} s"]
    if "Traceback (most recent call last)" in o.stderr + o.stdout:
        found.append("traceback printed")
    if o.leftovers:
        found.append(f"left files in the working directory: {o.leftovers}")
    if c.argv is not None and c.verdict is not None:
        if o.returncode != c.exit_code:
            found.append(f"exit status {o.returncode}, expected {c.exit_code}")
        if not re.search(c.verdict, o.stdout):
            found.append(f"stdout does not match {c.verdict!r}: {o.stdout[-500:]!r}")
    elif c.argv is not None:
        if o.returncode != c.exit_code:
            found.append(f"exit status {o.returncode}, expected {c.exit_code}")
        lines = [ln for ln in o.stderr.splitlines() if ln.strip()]
        last = lines[-1] if lines else ""
        if not re.match(r"^privref( [\w-]+)*: error: ", last):
            found.append(f"last stderr line is not a privref error line: {last!r}")
        elif not re.search(c.names, last):
            found.append(f"error line does not match {c.names!r}: {last!r}")
    else:
        lines = o.stdout.splitlines()
        if not lines or not lines[0].startswith("RAISED "):
            found.append(f"no exception raised (stdout {o.stdout[-300:]!r})")
        else:
            chain = lines[0].split()[1:]
            message = lines[1][len("MESSAGE "):] if len(lines) > 1 else ""
            if c.error not in chain:
                found.append(f"raised {chain[0]} ({message!r}), expected a {c.error}")
            if "\\n" in message:
                found.append(f"message is not one line: {message!r}")
            if not re.search(c.names, message):
                found.append(f"message does not match {c.names!r}: {message!r}")
    if c.stderr is not None and not re.search(c.stderr, o.stderr):
        found.append(f"stderr does not match {c.stderr!r}: {o.stderr[-500:]!r}")
    return found


CLASSES = ("clean", "ok", "wrong exit", "traceback", "silent", "hang", "false verdict",
           "false pass")
"""How a case ended, for the census (``python -m tests.bad_input.census``): ``clean`` an
expected error, ``ok`` an expected verdict; the rest are defects: ``wrong exit`` (a clean line
but another status), ``traceback``, ``silent`` (no privref error line), ``hang``, ``false
verdict`` (exit 1 or a verdict line where an error, or another verdict, was expected) and
``false pass`` (exit 0 where it must not be)."""


def classify(o: Outcome) -> str:
    """The class of one outcome (:data:`CLASSES`); ``clean``/``ok`` exactly when
    :func:`problems` finds nothing."""
    c = o.case
    if o.returncode is None:
        return "hang"
    if not problems(o):
        return "ok" if c.verdict is not None else "clean"
    if "Traceback (most recent call last)" in o.stderr + o.stdout:
        return "traceback"
    if c.argv is None:
        return "silent" if not o.stdout.startswith("RAISED ") else "wrong exit"
    if o.returncode == EXIT_OK and c.exit_code != EXIT_OK:
        return "false pass"
    if o.returncode == EXIT_VIOLATION or (c.verdict is not None
                                          and o.returncode == c.exit_code):
        return "false verdict"
    lines = [ln for ln in o.stderr.splitlines() if ln.strip()]
    if not lines or not re.match(r"^privref( [\w-]+)*: error: ", lines[-1]):
        return "silent"
    return "wrong exit"


def alive(pid: int) -> bool:
    """False once ``pid`` is gone or a zombie (the kill is asynchronous; init reaps it)."""
    for _ in range(500):
        try:
            state = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return False
        if state == "Z":
            return False
        time.sleep(0.01)
    return True
