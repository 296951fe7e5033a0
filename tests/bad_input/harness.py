"""The bad-input corpus: malformed CLI and API inputs, each run in a fresh interpreter under a
timeout, each expected to end in one clean error line that names the argument.

A :class:`Case` is either a ``privref`` command line (``argv``) or a Python snippet (``api``)
that must raise.  Cases are run in parallel subprocesses (:func:`run_all`), so a hang is a
timeout, never a stuck test, and a traceback or a silent success is a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

TIMEOUT = 60.0
"""Seconds one case may take; past it the case fails as a hang."""

EXIT_OK, EXIT_VIOLATION, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
"""The documented exit codes of ``privref``."""


@dataclass(frozen=True)
class Case:
    """One malformed input and the clean failure it must produce.

    ``argv``: the ``privref`` arguments (exit status ``exit_code`` expected; the last stderr line
    must read ``privref ...: error: ...`` and match ``names``).  ``api``: Python source that must
    raise an exception whose class (or a base class) is named ``error`` and whose one-line message
    matches ``names``.  ``files`` are written into the case's empty working directory first
    (``{cwd}`` in argv or api is replaced by that directory).  ``stderr`` (optional) must also
    match the whole stderr (for warnings that must appear).
    """

    id: str
    names: str
    argv: tuple[str, ...] | None = None
    api: str | None = None
    exit_code: int = EXIT_USAGE
    error: str = "PrivrefError"
    files: Mapping[str, str | bytes] = field(default_factory=dict)
    stderr: str | None = None


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


def _run(case: Case) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="privref-bad-") as tmp:
        for name, content in case.files.items():
            path = Path(tmp, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content.replace("{cwd}", tmp))
        if case.argv is not None:
            cmd = [sys.executable, "-m", "privref", *(a.replace("{cwd}", tmp) for a in case.argv)]
        else:
            assert case.api is not None, case.id
            cmd = [sys.executable, "-c", _DRIVER, case.api.replace("{cwd}", tmp)]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "HYPOTHESIS"))}
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        try:
            done = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, timeout=TIMEOUT,
                                  env=env, stdin=subprocess.DEVNULL)
            code: int | None = done.returncode
            out, err = done.stdout, done.stderr
        except subprocess.TimeoutExpired as exc:
            code = None
            out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
            err = exc.stderr.decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        given = {Path(n).parts[0] for n in case.files}
        left = tuple(sorted(n for n in os.listdir(tmp) if n not in given))
    return Outcome(case, code, out, err, left)


def run_all(cases: Sequence[Case], workers: int = 4) -> dict[str, Outcome]:
    """Run every case (``workers`` subprocesses at a time); outcomes by case id."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return {o.case.id: o for o in pool.map(_run, cases)}


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
    if c.argv is not None:
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
