"""The mutation harness: apply each mutant in a scratch copy, run its tests, record the outcome.

Soundness of a run:

* The repository is never edited: each shard works in its own scratch copy (``git worktree``
  of HEAD under a temporary directory), importable as ``privref`` through ``PYTHONPATH``.
* Before any mutant, each target module is replaced by its *unmutated* ``ast.unparse`` and
  its tests must pass; otherwise the module is reported as not runnable and skipped (a mutant
  may only be killed by its mutation).
* The tests run with ``-m "not drift"``: the drift test fails on any edit and says nothing
  about behaviour, so a mutant it alone would catch counts as *survived*.
* Each test run has a time limit and a memory limit (:data:`MEMORY_LIMIT`); a mutant that
  hangs the tests is counted as killed by timeout and listed apart, one that allocates
  without bound fails with MemoryError (a kill).  Each check runs in its own process group,
  which is killed whole when it ends or times out: no test worker or pool outlives it.
* :func:`stop` (the command calls it on SIGINT and SIGTERM) kills the checks in progress; they
  record no outcome (:class:`Interrupted`), and each shard removes its scratch copy.

Outcomes: ``killed`` (the tests failed), ``timeout``, ``survived`` (they passed), and
``invalid`` (the mutant does not compile or import: not counted).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Final

from .operators import Mutant, apply, sites

__all__ = ["TARGETS", "Interrupted", "Outcome", "current", "digest", "logged", "mutants_of", "run",
           "sample", "stop", "unparsed_lines"]

ROOT: Final = Path(__file__).resolve().parents[1]

Command = tuple[str, ...]
"""A behaviour check: ``("pytest", paths...)`` (run with ``-x -q -m "not drift" -n 0``: one
process, the harness shards itself) or
``("privref", args...)`` (the ``privref`` command, e.g. the ledger's checks)."""

_MECHANISM: Final[tuple[Command, ...]] = (
    ("pytest", "tests/reference/test_mechanisms.py", "tests/reference/test_discrete_noise.py",
     "tests/reference/test_privacy.py", "tests/reference/test_claim_sweeps.py",
     "tests/app/test_golden_audit_table.py", "tests/audits/test_decision_boundary.py"),
    ("privref", "lemmas", "--check", "--quiet", "--id", "folklore", "--id", "Proposition A.1"),
)

TARGETS: Final[dict[str, tuple[Command, ...]]] = {
    "reference/privref/reference/exponential.py": (
        *_MECHANISM, ("pytest", "tests/reference/test_fast_blocks.py")),
    "reference/privref/reference/randomized_response.py": _MECHANISM,
    "reference/privref/reference/geometric.py": _MECHANISM,
    "reference/privref/reference/noisy_max.py": _MECHANISM,
    "reference/privref/reference/composition.py": _MECHANISM,
    "reference/privref/reference/subsampling.py": (
        *_MECHANISM, ("pytest", "tests/proofs/test_subsampling_entries.py")),
    "audits/privref/audits/exact.py": (
        ("pytest", "tests/audits/test_decision_boundary.py", "tests/audits/test_exact.py",
         "tests/audits/test_exact_edges.py", "tests/audits/test_exact_huge.py",
         "tests/audits/test_pair_compiled.py", "tests/app/test_golden_audit_table.py"),
        ("privref", "lemmas", "--check", "--quiet", "--id", "folklore")),
    "audits/privref/audits/_pair.py": (
        ("pytest", "tests/audits/test_pair_intervals.py", "tests/audits/test_pair_compiled.py",
         "tests/audits/test_decision_boundary.py", "tests/audits/test_exact.py",
         "tests/audits/test_exact_huge.py", "tests/audits/test_tails.py",
         "tests/app/test_golden_audit_table.py"),
        ("privref", "lemmas", "--check", "--quiet", "--id", "folklore")),
    "audits/privref/audits/_tails.py": (
        ("pytest", "tests/audits/test_tails_edges.py", "tests/audits/test_tails.py",
         "tests/audits/test_tails_precision.py", "tests/audits/test_tails_sweep.py",
         "tests/audits/test_decision_boundary.py",
         "tests/audits/test_exact.py", "tests/app/test_golden_audit_table.py"),
        ("privref", "lemmas", "--check", "--quiet", "--id", "folklore")),
    "reference/privref/reference/released_density.py": (
        ("pytest", "tests/audits/test_released.py", "tests/reference/test_contract_continuous.py"),
        ("privref", "lemmas", "--check", "--quiet", "--id", "folklore")),
    "audits/privref/audits/_released.py": (
        ("pytest", "tests/audits/test_released.py", "tests/reference/test_contract_continuous.py"),
        ("privref", "lemmas", "--check", "--quiet", "--id", "folklore")),
    "reference/privref/reference/_piecewise_exp.py": (
        ("pytest", "tests/reference/test_continuous_noise.py",
         "tests/reference/test_piecewise_real_kinks.py", "tests/reference/test_pate_printed.py",
         "tests/validation/test_zoo_laws_crosscheck.py"),),
    "reference/privref/reference/_nested_quadrature.py": (
        ("pytest", "tests/reference/test_continuous_events_more.py"),),
    "reference/privref/reference/accounting.py": (
        ("pytest", "tests/reference/test_accounting_edges.py", "tests/reference/test_accounting.py",
         "tests/reference/test_accounting_crosscheck.py", "tests/proofs/test_folklore_zcdp.py",
         "tests/proofs/test_folklore_gaussian.py", "tests/proofs/test_p001_privacy.py",
         "tests/reference/test_sparse_vector.py", "tests/reference/test_pate.py",
         "tests/app/test_account_cli.py"),
        ("privref", "lemmas", "--check", "--quiet", "--id", "folklore", "--id", "001 Lemma 5",
         "--id", "001 Theorem 2")),
    "audits/privref/audits/stats.py": (("pytest", "tests/audits/test_stats.py",
                         "tests/audits/blackbox/test_estimate.py",
                         "tests/audits/blackbox/test_pooled.py"),),
    "audits/privref/audits/blackbox/pooled.py": (("pytest", "tests/audits/blackbox/test_pooled.py",
                                   "tests/proofs/test_folklore_pooled.py",
                                   "tests/audits/test_decision_boundary.py"),),
    "audits/privref/audits/blackbox/estimate.py": (("pytest", "tests/audits/blackbox/test_estimate_edges.py",
                                     "tests/audits/blackbox/test_estimate.py",
                                     "tests/audits/blackbox/test_streaming.py",
                                     "tests/audits/blackbox/test_pooled.py",
                                     "tests/audits/test_decision_boundary.py",
                                     "tests/audits/blackbox/test_any_output.py"),),
}
"""The modules the harness mutates and the behaviour checks run against each, in order (the
first failure kills the mutant).  The drift test is never among them."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the tests did with one mutant, and how long they took."""

    mutant: Mutant
    status: str
    seconds: float
    detail: str = ""
    source: str = ""
    """:func:`digest` of the module the mutant was made from ("" in logs written before the
    digest was recorded)."""


def digest(source: str) -> str:
    """A short fingerprint of a module's code: a logged outcome applies to a mutant only if it
    was made from the same code.  It reads the syntax tree with every node's position (an id
    names its line, so an edit that moves lines changes it) and without the text of docstrings,
    attribute docstrings (any bare string statement) and comments, none of which a mutant
    touches or any behaviour reads: a docstring reworded within its lines keeps the log valid."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)):
            node.value = ast.Constant("", lineno=node.lineno, end_lineno=node.end_lineno,
                                      col_offset=0, end_col_offset=0)
            node.col_offset = node.end_col_offset = 0
    return hashlib.sha256(ast.dump(tree, include_attributes=True).encode("utf-8")).hexdigest()[:16]


def mutants_of(paths: Sequence[str]) -> list[Mutant]:
    """Every mutant of the given target modules, in a stable order."""
    out: list[Mutant] = []
    for path in paths:
        out.extend(sites((ROOT / path).read_text(encoding="utf-8"), path))
    return out


@contextmanager
def _scratch() -> Iterator[Path]:
    base = Path(tempfile.mkdtemp(prefix="privref-mutation-"))
    tree = base / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), "HEAD"], cwd=ROOT,
                   check=True)
    try:
        yield tree
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                       check=False)
        shutil.rmtree(base, ignore_errors=True)


MEMORY_LIMIT: Final = 6 << 30
"""Address-space limit of each test run, in bytes: a mutant that makes the code allocate without
bound (a window or a loop gone wrong) fails with MemoryError instead of exhausting the machine."""


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


class Interrupted(Exception):
    """The run was stopped (:func:`stop`): the check in progress gives no outcome."""


_STOP = threading.Event()
_LIVE: set[subprocess.Popen[str]] = set()
_LIVE_LOCK = threading.Lock()


def _kill_group(child: subprocess.Popen[str]) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)


def stop() -> None:
    """Stop every run of this process: kill each check in progress with its whole process group;
    the runs raise :class:`Interrupted` instead of recording an outcome, and remove their
    scratch copies on the way out."""
    _STOP.set()
    with _LIVE_LOCK:
        for child in _LIVE:
            _kill_group(child)


def _child(argv: Sequence[str], *, cwd: Path, env: dict[str, str],
           timeout: float) -> subprocess.CompletedProcess[str] | None:
    """Run ``argv`` in a new process group under the memory limit; None when it times out.  The
    group is killed when the child ends, so nothing it started outlives it.  Raises Interrupted
    after :func:`stop`."""
    if _STOP.is_set():
        raise Interrupted
    child = subprocess.Popen(list(argv), cwd=cwd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, preexec_fn=_limit_memory,
                             start_new_session=True)
    with _LIVE_LOCK:
        _LIVE.add(child)
    try:
        if _STOP.is_set():  # stop() ran between the start and the registration
            _kill_group(child)
        timed_out = False
        try:
            out, err = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(child)
            out, err = child.communicate()
            timed_out = True
    finally:
        _kill_group(child)
        with _LIVE_LOCK:
            _LIVE.discard(child)
    if _STOP.is_set():
        raise Interrupted
    if timed_out:
        return None
    return subprocess.CompletedProcess(list(argv), child.returncode, out, err)


def _check(tree: Path, commands: Sequence[Command], timeout: float) -> tuple[str, str]:
    """Run the behaviour checks in the scratch copy: "survived" when all pass."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    deadline = time.monotonic() + timeout
    for command in commands:
        if command[0] == "pytest":
            argv = [sys.executable, "-m", "pytest", "-x", "-q", "-m", "not drift", "-n", "0",
                    "-p", "no:cacheprovider", *command[1:]]
        else:
            argv = [sys.executable, "-m", "privref", *command[1:]]
        done = _child(argv, cwd=tree, env=env, timeout=max(1.0, deadline - time.monotonic()))
        if done is None:
            return "timeout", " ".join(command)
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-3:])
            if "SyntaxError" in tail:
                return "invalid", tail
            return "killed", f"{' '.join(command[:2])}: {tail}"
    return "survived", ""


Coverage = dict[tuple[int, str], frozenset[int]]
"""Lines of the target module each check unit executes: (index of the command in the target's
checks, test file, or "" for a ``privref`` command) -> line numbers of the unparsed module."""


def _units(commands: Sequence[Command]) -> list[tuple[int, str]]:
    return [(i, f) for i, c in enumerate(commands)
            for f in (c[1:] if c[0] == "pytest" else ("",))]


def _coverage(tree: Path, path: str, commands: Sequence[Command], timeout: float
              ) -> Coverage | None:
    """Trace each check unit alone on the unmutated module (:mod:`mutation.trace`); None when a
    traced unit fails or times out (the harness then runs every check for every mutant)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    cover: Coverage = {}
    with tempfile.TemporaryDirectory(prefix="privref-trace-") as scratch:
        out = Path(scratch, "lines.json")
        for index, file in _units(commands):
            command = commands[index]
            rest = (["-x", "-q", "-m", "not drift", "-n", "0", "-p", "no:cacheprovider", file]
                    if command[0] == "pytest" else list(command[1:]))
            argv = [sys.executable, "-m", "mutation.trace", str(out), str(tree / path),
                    command[0], *rest]
            try:
                done = _child(argv, cwd=tree, env=env, timeout=timeout)
                if done is None or done.returncode != 0:
                    return None
                got = json.loads(out.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return None
            if got["status"] != 0:
                return None
            cover[(index, file)] = frozenset(got["lines"])
    return cover


def _selected(commands: Sequence[Command], cover: Coverage, line: int) -> list[Command]:
    """The checks that execute ``line``: each pytest command cut to the files that do."""
    chosen: list[Command] = []
    for index, command in enumerate(commands):
        if command[0] == "pytest":
            files = [f for f in command[1:] if line in cover[(index, f)]]
            if files:
                chosen.append(("pytest", *files))
        elif line in cover[(index, "")]:
            chosen.append(command)
    return chosen


def unparsed_lines(source: str, path: str) -> dict[str, int]:
    """Each mutant's line in the unparsed module the harness runs (mutant ids are numbered by
    the file's own lines; ``ast.unparse`` moves them).  Sites are matched by operator, index and
    text; a mutant missing here is run with every check."""
    base = sites(apply(source, None), path)
    where = {(m.operator, m.index, m.before, m.after): m.line for m in base}
    return {m.id: where[key] for m in sites(source, path)
            if (key := (m.operator, m.index, m.before, m.after)) in where}


def run(mutants: Sequence[Mutant], *, timeout: float, log: Path | None = None,
        select: bool = True) -> list[Outcome]:
    """Run ``mutants`` (grouped by module) in one scratch copy; a baseline per module first.

    With ``select``, each mutant runs only the checks (test files) that execute its line on the
    unmutated module (:func:`_coverage`); a mutant on a line no check executes survives
    without a run.  Killed means a check failed on the mutant, with or without selection."""
    outcomes: list[Outcome] = []
    if not mutants:
        return outcomes
    by_path: dict[str, list[Mutant]] = {}
    for m in mutants:
        by_path.setdefault(m.path, []).append(m)
    with _scratch() as tree:
        for path, group in by_path.items():
            source = (ROOT / path).read_text(encoding="utf-8")
            target, checks = tree / path, TARGETS[path]
            target.write_text(apply(source, None), encoding="utf-8")
            status, detail = _check(tree, checks, timeout)
            if status != "survived":
                for m in group:
                    outcomes.append(Outcome(m, "not-runnable", 0.0, f"baseline {status}: {detail}"))
                target.write_text(source, encoding="utf-8")
                continue
            cover = _coverage(tree, path, checks, timeout) if select else None
            if select and cover is None:
                print(f"{path}: a traced check failed on the unmutated module; every mutant "
                      "runs every check", file=sys.stderr)
            lines = unparsed_lines(source, path) if cover is not None else {}
            for m in group:
                target.write_text(apply(source, m), encoding="utf-8")
                start = time.perf_counter()
                todo = (_selected(checks, cover, lines[m.id])
                        if cover is not None and m.id in lines else checks)
                if todo:
                    status, detail = _check(tree, todo, timeout)
                else:
                    status, detail = "survived", "no check executes this line"
                got = Outcome(m, status, time.perf_counter() - start, detail, digest(source))
                outcomes.append(got)
                if log is not None:
                    with log.open("a", encoding="utf-8") as f:
                        f.write(json.dumps({**asdict(got.mutant), "id": m.id, "status": status,
                                            "seconds": round(got.seconds, 2),
                                            "source": got.source}) + "\n")
            target.write_text(source, encoding="utf-8")
    return outcomes


def logged(log: Path) -> dict[str, Outcome]:
    """The outcomes a ``--log`` file records, by mutant id (the last line of an id wins)."""
    fields = set(Mutant.__dataclass_fields__)
    out: dict[str, Outcome] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        mutant = Mutant(**{k: v for k, v in row.items() if k in fields})
        out[mutant.id] = Outcome(mutant, row["status"], float(row["seconds"]),
                                 source=str(row.get("source", "")))
    return out


def current(outcomes: dict[str, Outcome], mutants: Sequence[Mutant]) -> dict[str, Outcome]:
    """The logged outcomes that still describe ``mutants``: same id, made from a module with the
    same source digest.  A line without a digest (older logs) counts only when its mutant is
    identical (line, operator, site index and both texts).  An edit renumbers the mutants
    below it, so a bare id match would silently skip a mutant that was never run."""
    digests = {path: digest((ROOT / path).read_text(encoding="utf-8"))
               for path in {m.path for m in mutants}}
    out: dict[str, Outcome] = {}
    for m in mutants:
        o = outcomes.get(m.id)
        if o is not None and (o.source == digests[m.path] or (not o.source and o.mutant == m)):
            out[m.id] = o
    return out


def sample(mutants: Sequence[Mutant], count: int | None, seed: int) -> list[Mutant]:
    """``count`` mutants drawn without replacement by ``seed`` (all of them for None)."""
    if count is None or count >= len(mutants):
        return list(mutants)
    picked = random.Random(seed).sample(range(len(mutants)), count)
    return [mutants[i] for i in sorted(picked)]
