"""One table of malformed CLI and API inputs; each must fail cleanly (see harness.py).

The tables live next to this file, one per surface (``cases_*.py``, each exporting ``CASES``);
they are concatenated here into one parametrized test.  All cases run once, in parallel
subprocesses under a timeout, in a module fixture; each test then checks its own outcome.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import tempfile
from pathlib import Path

import pytest

from .harness import Case, Outcome, Server, alive, problems, run_all, run_fresh


def _cases() -> list[Case]:
    found: list[Case] = []
    here = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if info.name.startswith("cases_"):
            found.extend(importlib.import_module(f"{__package__}.{info.name}").CASES)
    return found


CASES = _cases()


def test_case_ids_are_unique_and_the_corpus_is_large() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    assert len(ids) >= 100, len(ids)


@pytest.fixture(scope="module")
def outcomes() -> dict[str, Outcome]:
    return run_all(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_fails_cleanly(case: Case, outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes[case.id]
    assert not problems(outcome), (problems(outcome), outcome.stderr[-2000:])


def _last_line(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return re.sub(r"/tmp/privref-bad-\w+", "{cwd}", lines[-1]) if lines else ""


SAMPLE = CASES[::25]


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.id)
def test_a_served_case_ends_as_in_a_fresh_interpreter(case: Case,
                                                      outcomes: dict[str, Outcome]) -> None:
    """The case servers fork instead of starting an interpreter: on a sample of the corpus (every
    25th case, both kinds) a fresh ``python -m privref`` / ``python -c`` ends the same way."""
    fresh, served = run_fresh(case), outcomes[case.id]
    assert (served.returncode, served.leftovers) == (fresh.returncode, fresh.leftovers)
    assert _last_line(served.stderr) == _last_line(fresh.stderr)
    assert _last_line(served.stdout) == _last_line(fresh.stdout)
    assert problems(served) == problems(fresh) == []


def test_the_sample_has_both_kinds() -> None:
    assert {c.argv is None for c in SAMPLE} == {True, False}


def test_a_served_hang_is_killed_with_what_it_started() -> None:
    """A case past its timeout is reported as a hang (returncode None), and the server kills its
    whole process group: a grandchild it left behind does not outlive it."""
    with tempfile.TemporaryDirectory() as scratch:
        server = Server(scratch)
        try:
            pid_file = Path(scratch, "grandchild")
            hang = Case("hang", "", api=(
                "import subprocess, sys, time\n"
                "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
                f"open({str(pid_file)!r}, 'w').write(str(p.pid))\n"
                "time.sleep(600)\n"))
            got = server.run(hang, timeout=3.0)
            assert got.returncode is None
            assert problems(got) and problems(got)[0].startswith("hang")
            grandchild = int(pid_file.read_text())
            assert not alive(grandchild)
            after = server.run(Case("after", "x", api="raise ValueError('x')", error="ValueError"))
            assert problems(after) == []
        finally:
            server.close()


def test_a_served_case_sees_what_python_m_would_give_it() -> None:
    """In the forked child, as under ``python -m`` in the case's directory: that directory is the
    working directory and sys.path[0], stdin is empty (not the server's request pipe), and a
    file it writes there is reported as a leftover."""
    probe = ("import os, sys\n"
             "open('made.txt', 'w').close()\n"
             "raise ValueError(repr((os.getcwd() == sys.path[0], sys.stdin.read())))")
    with tempfile.TemporaryDirectory() as scratch:
        server = Server(scratch)
        try:
            got = server.run(Case("env", r"^\(True, ''\)$", api=probe, error="ValueError"))
        finally:
            server.close()
    assert got.leftovers == ("made.txt",)
    assert problems(got) == ["left files in the working directory: ('made.txt',)"]
