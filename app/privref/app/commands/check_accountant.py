"""``privref check-accountant LIBRARY``: run a third-party accountant over the documented grid of
tasks and classify every answer against privref's certified enclosure (docs/accountant-check.md).

Each answer is ``inside``, ``conservative`` (above, by the relative distance shown), ``unsafe``
(proved below the true value; the snippet that reproduces it is printed), ``unproved`` (a zCDP
conversion below the theorem's value but above the Gaussian's) or ``invalid`` (NaN); a call that
raised or overran ``--task-timeout`` is reported as such (:mod:`privref.app.accountants.certify`).
Exit status: 0 nothing unsafe and every call answered; 1 some answer presented as a bound is
unsafe; 2 usage error; 3 the JSON could not be written; 5 the library failed to import, or some
call raised, overran the time limit or returned NaN (and nothing is unsafe); 6 the library is not
installed (``all``: none is).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from privref import reference
from privref.audits.blackbox.errors import TargetFailure
from privref.reference.errors import InvalidArgument, PrivrefError, TooLargeToEnumerate
from privref.reference.validate import to_fraction

from ..accountants.adapter import Library, Method
from ..accountants.certify import Certified, Verdict, certified_kinds, certify, classify
from ..accountants.registry import LIBRARIES
from ..accountants.tasks import GRID, Task
from ..accountants.worker import MEMORY_LIMIT, Answer, LibraryFailed, LibraryMissing, Worker
from ..reports.output import check_output_path, write_json
from .exit_codes import EXIT_NOTHING_CHECKED, EXIT_OK, EXIT_TARGET, EXIT_VIOLATION

__all__ = ["DEFAULT_TIMEOUT", "MAX_TIMEOUT", "Row", "configure_parser", "run", "run_library"]

DEFAULT_TIMEOUT: Final = 60.0
"""Seconds one library call may take (--task-timeout); past it the call is killed."""

MAX_TIMEOUT: Final = 3600
"""Largest --task-timeout."""

COMMAND: Final = "privref check-accountant"


@dataclass(frozen=True)
class Row:
    """One classified output: the task, the method and output name, its role, the answer and the
    verdict (None when the call raised or overran: ``answer`` says which)."""

    task: Task
    method: Method
    output: str
    role: str
    value: float | None
    verdict: Verdict | None
    answer: Answer

    @property
    def cls(self) -> str:
        """The class, or ``raised`` / ``timeout``."""
        if self.verdict is not None:
            return self.verdict.cls
        return "timeout" if self.answer.timed_out else "raised"


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``check-accountant`` arguments."""
    parser.add_argument("library", metavar="LIBRARY",
                        help=f"one of {', '.join(sorted(LIBRARIES))}, or 'all' (each installed one)")
    parser.add_argument("--only", metavar="TEXT", default=None,
                        help="run only the tasks whose id contains TEXT (e.g. 'zcdp', 'R100000')")
    parser.add_argument("--task-timeout", metavar="SECONDS", default=str(DEFAULT_TIMEOUT),
                        help=f"seconds one library call may take before it is killed "
                             f"(default {DEFAULT_TIMEOUT:g}, at most {MAX_TIMEOUT})")
    parser.add_argument("--json", metavar="PATH", default=None,
                        help="also write every task, enclosure and answer as JSON to PATH")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def _timeout(text: str) -> float:
    try:
        value = to_fraction(text, "--task-timeout")
    except PrivrefError:
        raise InvalidArgument(f"--task-timeout={text!r} is not a number of seconds") from None
    if not 0 < value <= MAX_TIMEOUT:
        raise InvalidArgument(f"--task-timeout={text} must lie in (0, {MAX_TIMEOUT}] seconds")
    return float(value)


def _tasks(only: str | None) -> list[Task]:
    kinds = certified_kinds()
    chosen = [t for t in GRID if t.kind in kinds and (only is None or only in t.id)]
    if not chosen:
        raise InvalidArgument(f"--only={only!r} matches no task id (ids look like "
                              f"{GRID[0].id!r}; docs/accountant-check.md lists them)")
    return chosen


def run_library(library: Library, tasks: list[Task], timeout: float,
                certified: dict[str, Certified],
                quiet: bool = True) -> tuple[str, dict[str, str], list[Row]]:
    """Run every method of ``library`` on each task of its kind and classify each output.

    Returns the library's version, its numpy and scipy versions, and the rows.  Raises
    LibraryMissing / LibraryFailed when the library cannot be imported.  ``certified`` caches
    privref's enclosures across libraries.
    """
    worker = Worker(library.module, library.distribution, timeout)
    version = worker.start()
    rows: list[Row] = []
    try:
        for method in library.methods:
            for task in tasks:
                if task.kind != method.kind:
                    continue
                if task.id not in certified:
                    certified[task.id] = certify(task)
                cert = certified[task.id]
                if not quiet:
                    print(f"{COMMAND}: {library.name}: {method.name} on {task.id}", file=sys.stderr)
                answer = worker.call(method.snippet(task))
                if answer.values is None:
                    rows.append(Row(task, method, "-", method.outputs[0][1], None, None, answer))
                    continue
                if len(answer.values) != len(method.outputs):
                    bad = Answer(None, f"returned {len(answer.values)} values, expected "
                                       f"{len(method.outputs)}", False, answer.seconds)
                    rows.append(Row(task, method, "-", method.outputs[0][1], None, None, bad))
                    continue
                for (name, role), value in zip(method.outputs, answer.values, strict=True):
                    rows.append(Row(task, method, name, role, value, classify(cert, value), answer))
    finally:
        worker.close()
    return version, worker.dependencies, rows


def _distance(row: Row) -> str:
    if row.verdict is None or row.verdict.relative is None:
        return ""
    return f"{row.verdict.relative:+.2e}"


def _print_rows(name: str, version: str, rows: list[Row]) -> None:
    print(f"{name} {version}")
    header = f"  {'task':42} {'method':56} {'value':24} {'class':13} relative"
    print(header)
    for row in rows:
        method = row.method.name if row.output in ("value", "-") else f"{row.method.name} [{row.output}]"
        shown = repr(row.value) if row.value is not None else (
            "timeout" if row.answer.timed_out else "raised")
        cls = row.cls if row.role == "bound" or row.verdict is None else f"{row.cls}*"
        print(f"  {row.task.id:42} {method[:56]:56} {shown[:24]:24} {cls:13} {_distance(row)}")
        if row.answer.raised is not None:
            print(f"      raised {row.answer.raised}")


def _counts(rows: list[Row]) -> dict[str, int]:
    out: dict[str, int] = {}
    for row in rows:
        out[row.cls] = out.get(row.cls, 0) + 1
    return out


def _row_json(row: Row, cert: Certified) -> dict[str, Any]:
    verdict = row.verdict
    return {
        "task": row.task.id, "method": row.method.name, "output": row.output, "role": row.role,
        "value": None if row.value is None else repr(row.value),
        "value_hex": None if row.value is None else row.value.hex(),
        "class": row.cls, "relative": None if verdict is None else verdict.relative,
        "how": None if verdict is None else verdict.how,
        "proved_safe": None if verdict is None else verdict.proved_safe,
        "raised": row.answer.raised, "timed_out": row.answer.timed_out,
        "seconds": round(row.answer.seconds, 3),
        "enclosure": [str(cert.enclosure.lo), str(cert.enclosure.hi)],
        "reproduce": row.method.snippet(row.task),
    }


def _task_json(cert: Certified) -> dict[str, Any]:
    task, box = cert.task, cert.enclosure
    out: dict[str, Any] = {
        "id": task.id, "kind": task.kind, "note": task.note,
        "params": {k: repr(v) for k, v in task.params},
        "exact_params": {k: str(Fraction(v)) for k, v in task.params},
        "enclosure": [str(box.lo), str(box.hi)],
        "enclosure_float": [float(box.lo), float(box.hi)],
        "privref_seconds": round(cert.seconds, 3),
    }
    if cert.floor is not None:
        out["gaussian_floor"] = [str(cert.floor.lo), str(cert.floor.hi)]
    return out


def run(args: argparse.Namespace) -> int:
    """Run ``privref check-accountant`` (module doc for the exit status)."""
    name = str(args.library)
    if name != "all" and name not in LIBRARIES:
        raise InvalidArgument(f"LIBRARY={name!r} is not one of {', '.join(sorted(LIBRARIES))}, all")
    timeout = _timeout(str(args.task_timeout))
    tasks = _tasks(args.only)
    json_path = None if args.json is None else check_output_path("--json", args.json)
    libraries = list(LIBRARIES.values()) if name == "all" else [LIBRARIES[name]]
    certified: dict[str, Certified] = {}
    results: dict[str, dict[str, Any]] = {}
    all_rows: list[Row] = []
    start = time.perf_counter()
    for library in libraries:
        wanted = [t for t in tasks if any(m.kind == t.kind for m in library.methods)]
        if not wanted:
            if name != "all":
                kinds = sorted({m.kind for m in library.methods})
                raise InvalidArgument(f"--only={args.only!r} selects no task {name} answers "
                                      f"(its task kinds: {', '.join(kinds)})")
            results[library.name] = {"status": "no task selected"}
            continue
        try:
            version, dependencies, rows = run_library(library, wanted, timeout, certified,
                                                      quiet=args.quiet)
        except LibraryMissing as exc:
            if name != "all":
                print(f"{COMMAND}: error: {exc}: pip install {library.distribution} "
                      "(or pip install 'privref[accounting]')", file=sys.stderr)
                return EXIT_NOTHING_CHECKED
            results[library.name] = {"status": "not installed"}
            print(f"{library.name}: not installed (skipped)\n")
            continue
        except LibraryFailed as exc:
            if name != "all":
                raise TargetFailure(str(exc)) from None
            results[library.name] = {"status": f"failed: {exc}"}
            print(f"{library.name}: {exc} (skipped)\n")
            continue
        except TooLargeToEnumerate as exc:  # privref's own work caps: a bug in the grid
            raise PrivrefError(f"privref could not certify a grid task: {exc}") from None
        all_rows.extend(rows)
        _print_rows(library.name, version, rows)
        results[library.name] = {"status": "ran", "distribution": library.distribution,
                                 "version": version, "dependencies": dependencies,
                                 "counts": _counts(rows),
                                 "answers": [_row_json(r, certified[r.task.id]) for r in rows]}
    ran = [n for n, r in results.items() if r["status"] == "ran"]
    broken = [n for n, r in results.items() if str(r["status"]).startswith("failed")]
    if not ran and broken:
        raise TargetFailure(f"no library could be imported: {', '.join(broken)} failed to import")
    if not ran and all(r["status"] == "no task selected" for r in results.values()):
        raise InvalidArgument(f"--only={args.only!r} selects no task any library answers")
    if not ran:
        print(f"{COMMAND}: error: none of {', '.join(LIBRARIES)} is installed: pip install "
              "'privref[accounting]'", file=sys.stderr)
        return EXIT_NOTHING_CHECKED
    unsafe = [r for r in all_rows if r.cls == "unsafe"]
    print()
    for n in ran:
        counts = results[n]["counts"]
        print(f"{n}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for row in unsafe:
        print(f"\nUNSAFE{'' if row.role == 'bound' else ' (an estimate)'}: {row.method.name} "
              f"[{row.output}] on {row.task.id} ({row.task.shown()}) returned {row.value!r}; "
              f"privref's enclosure [{float(certified[row.task.id].enclosure.lo)!r}, "
              f"{float(certified[row.task.id].enclosure.hi)!r}]; {row.verdict.how if row.verdict else ''}")
        print("  reproduce:")
        for line in row.method.snippet(row.task).splitlines():
            print(f"    {line}")
    if json_path is not None:
        payload = {
            "privref_version": reference.__version__, "python": platform.python_version(),
            "platform": platform.platform(), "task_timeout": timeout, "memory_limit": MEMORY_LIMIT,
            "tasks": [_task_json(c) for c in certified.values()],
            "libraries": results, "seconds": round(time.perf_counter() - start, 3),
        }
        write_json(json_path, payload, flag="--json")
        print(f"wrote {json_path}")
    if any(r.role == "bound" for r in unsafe):
        return EXIT_VIOLATION
    failed = [r for r in all_rows if r.cls in ("raised", "timeout", "invalid")]
    if broken:
        print(f"{COMMAND}: error: {', '.join(broken)} failed to import (see above)",
              file=sys.stderr)
        return EXIT_TARGET
    if failed:
        print(f"{COMMAND}: error: {len(failed)} answer(s) raised, overran --task-timeout="
              f"{timeout:g} s or were NaN (rows marked raised / timeout / invalid): nothing was "
              "concluded for those tasks", file=sys.stderr)
        return EXIT_TARGET
    return EXIT_OK
