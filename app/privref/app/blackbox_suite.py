"""``privref blackbox-suite SUITE``: a regression suite of black-box audits, one line per target.

A suite file (TOML, or JSON when its name ends in ``.json``; UTF-8 text) lists targets with
the verdict each is expected to get::

    [defaults]            # optional; any entry key except target/name/expect
    samples = 20000
    seed = 1

    [[target]]
    target = "opendp:count-laplace"        # any TARGET of 'privref audit blackbox'
    expect = "NO_VIOLATION_FOUND"          # or "VIOLATION"
    name = "count"                         # optional label (default: the target as written)
    requires = ["opendp"]                  # optional: SKIP when a distribution is missing
    expect_real = "NO_VIOLATION_FOUND"     # optional: the real-arithmetic view's verdict too

``expect`` is the audit's verdict (the IEEE-754 view when outputs are floats: pattern events
that read float bits count); ``expect_real``, when given, is also required of the
real-arithmetic view (:func:`real_verdict`: VIOLATION only when an event that reads no float
bits proves it), so "float leak expected, real view clean" is one entry and one run.

Entry keys (:data:`KEYS`) are the flags of ``privref audit blackbox`` without the dashes
(``epsilon``, ``delta``, ``relation``, ``pairs = [[[0], []]]``, ``search``, ``samples``,
``seed``, ``confidence``, ``elements``, ``sizes``, ``float_events = false``,
``override_declared_relation = true``, ``workers``,
``group``, ``timeout``, ``screening_samples``, ``confirm``), with the same meaning and the
same validation (:func:`privref.app.blackbox_cli.parse_config`).  A target's declaration
fills in what an entry omits.  A file target (``"rr.py:rr"``, ``"dir/x.py:f"``: a part
before ``:`` ending in ``.py`` or holding a ``/``) is relative to the suite file's folder,
not to the working directory; module targets (``pkg.mod:fn``) and registered targets
(``opendp:count-laplace``) are unchanged.

Before any audit runs, the whole file is checked (:func:`load_suite`): UTF-8 text, valid
TOML/JSON, at most :data:`MAX_SUITE_BYTES` bytes and :data:`MAX_ENTRIES` entries, every key
known and well typed, ``target`` a string naming an existing file when it is a file target,
every value accepted by the CLI (``search`` with ``pairs`` included); then the entries to run
(all, or those ``--only`` selects) hold at most :data:`MAX_SUITE_SAMPLES` samples in all
(:func:`check_budget`).  Entries with the same options are validated once, so selecting one
entry of a 20,000-entry suite is quick (the targets are loaded only when their entry runs).

Exit status of :func:`run`: 0 when at least one entry ran and every verdict is the expected
one; 1 when a verdict differs (FAIL) or an entry could not run for a reason other than its
target failing (ERROR: the target cannot be imported, a pair is not neighboring under the
relation it declares); 5 when no verdict differs but the target of an entry failed (ERROR:
it raised, exited, timed out, returned unusable outcomes); 6 when nothing was checked (every
entry SKIPPED), unless ``--allow-empty`` (then 0); 2 on a usage error, found before anything
runs.  Each audit runs supervised (:func:`privref.audits.blackbox.isolation.supervise`), so a
target that exits or kills its process is an ERROR, never a pass.  After the entries' lines,
a summary line on stderr (:func:`summary`: entries run and skipped, and the pairs and samples
actually checked), then for 5 and 6 one ``privref blackbox-suite: error:`` line.  ``--json
PATH`` writes every report, the summary and the exit status.

:func:`suite_cases` and :func:`check_case` are the pytest entry point::

    import pytest
    from privref.app.blackbox_suite import check_case, suite_cases

    @pytest.mark.parametrize("case", suite_cases("docs/blackbox-suite.toml"), ids=str)
    def test_suite(case):
        check_case(case)      # pytest.skip when a required library is missing
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from privref.audits.blackbox.adapters import MissingDependency
from privref.audits.blackbox.declarations import (
    claim_text,
    distributions_by_package,
    library_version,
)
from privref.audits.blackbox.errors import TargetFailure
from privref.audits.blackbox.isolation import supervise
from privref.audits.blackbox.report import BlackboxReport, exact_text, write_json
from privref.audits.blackbox.runner import MAX_SAMPLES, MAX_SEED, MAX_WORKERS
from privref.audits.blackbox.target import load_target
from privref.reference.errors import InvalidArgument, NotNeighboring, PrivrefError

from . import blackbox_cli
from .commands.exit_codes import (
    EXIT_NOTHING_CHECKED,
    EXIT_OK,
    EXIT_TARGET,
    EXIT_VIOLATION,
)
from .reports.output import check_output_path, same_file

__all__ = [
    "KEYS",
    "MAX_ENTRIES",
    "MAX_SUITE_BYTES",
    "MAX_SUITE_SAMPLES",
    "SuiteCase",
    "SuiteResult",
    "bound_text",
    "check_budget",
    "check_case",
    "configure_parser",
    "false_alarm_bound",
    "false_alarm_share",
    "load_suite",
    "real_verdict",
    "run",
    "run_case",
    "run_cases",
    "status_of",
    "suite_cases",
    "summary",
]

VERDICTS = ("VIOLATION", "NO_VIOLATION_FOUND")

MAX_ENTRIES: Final = 20_000
"""Most ``[[target]]`` entries in a suite file.  Every entry is parsed and validated before
anything runs: 20,000 entries take about 1.3 s to parse as TOML and, when all their options
differ, about 0.4 ms each to validate (about 9 s); more belong in several files."""

MAX_SUITE_BYTES: Final = 32 * 2**20
"""Largest suite file (32 MiB): 20,000 ordinary entries take about 3 MB; the rest leaves room
for long pairs.  No more than this (plus one byte) is read: a larger file, or a device such as
/dev/zero, is refused without reading it to its end."""

MAX_SUITE_SAMPLES: Final = 10 * MAX_SAMPLES
"""Most samples per side, summed over the entries that run (``samples``, default
:data:`privref.app.blackbox_cli.DEFAULT_SAMPLES` each): ten audits at the per-audit maximum
(10**10), already hours of sampling; larger studies run as separate audits."""

_VALUE_FLAGS = ("epsilon", "delta", "relation", "samples", "seed", "confidence", "group",
                "timeout", "workers", "screening_samples", "confirm")
KEYS = ("target", "name", "expect", "expect_real", "requires", "pairs", "search", "elements", "sizes",
        "float_events", "override_declared_relation", *_VALUE_FLAGS)
"""The keys a suite entry may hold (``[defaults]`` holds any of them but target/name/expect)."""
_KEYSET = frozenset(KEYS)

_PREFIX = "privref blackbox-suite"


@dataclass(frozen=True, slots=True)
class SuiteCase:
    """One validated suite entry: its label, the ``privref audit blackbox`` argument list it
    stands for (a file target already resolved against the suite's folder), the expected
    verdict and the distributions it requires."""

    name: str
    argv: tuple[str, ...]
    expect: str
    requires: tuple[str, ...]
    expect_real: str | None = None

    def __str__(self) -> str:
        return self.name

    @property
    def samples(self) -> int:
        """Samples per side of this entry's audit (its last ``--samples``, else the default)."""
        value: str = str(blackbox_cli.DEFAULT_SAMPLES)
        for flag, given in itertools.pairwise(self.argv):
            if flag == "--samples":
                value = given
        return blackbox_cli._int(value, "--samples", 2, MAX_SAMPLES,
                                 f"10**{len(str(MAX_SAMPLES)) - 1}")


@dataclass(frozen=True, slots=True)
class SuiteResult:
    """The outcome of one case: ``status`` is ``OK``, ``FAIL`` (verdict differs), ``ERROR``
    (could not run; ``error`` says why, ``target_failure`` when the target itself failed) or
    ``SKIP`` (a required library is missing)."""

    case: SuiteCase
    status: str
    report: BlackboxReport | None = None
    error: str | None = None
    target_failure: bool = False

    @property
    def pairs_checked(self) -> int:
        """Pairs confirmed by this entry's audit (0 when it did not run to a verdict)."""
        if self.report is None:
            return 0
        return sum(p.stage == "confirmation" for p in self.report.pairs)

    @property
    def samples_checked(self) -> int:
        """Samples drawn for the confirmed pairs, both sides (0 when it did not run)."""
        if self.report is None:
            return 0
        return sum(2 * p.samples for p in self.report.pairs if p.stage == "confirmation")

    def line(self) -> str:
        """One line: name, library+version, relation, claim, bound, verdict, expected, status."""
        r = self.report
        if r is None:
            return f"{self.case.name}  expected {self.case.expect}  {self.status}: {self.error}"
        library = ", ".join(f"{lib.name} {lib.version or '?'}" for lib in r.libraries
                            if lib.source != "detected") or (
            f"{r.target_package} {r.target_package_version or '?'}" if r.target_package else "-")
        claim = (claim_text(r.declared_claim) + " -> " if r.declared_claim is not None
                 and r.claim_conversion is not None else "")
        claim += f"({exact_text(r.claimed_epsilon)}, {exact_text(r.claimed_delta)})"
        relation = f"{r.relation}{' (defaulted)' if r.relation_source == 'default' else ''}"
        verdict = "-" if r.verdict is None else r.verdict.value
        expected = self.case.expect
        if self.case.expect_real is not None:
            verdict = (f"IEEE-754 {verdict} (bound {r.epsilon_lower_bound:.4g}), real "
                       f"{real_verdict(r)} (bound {r.real_epsilon_lower_bound:.4g})")
            expected = f"IEEE-754 {expected}, real {self.case.expect_real}"
        else:
            verdict = f"bound {r.epsilon_lower_bound:.4g}  {verdict}"
        return (f"{self.case.name}  [{library}]  {relation}  claim {claim}  "
                f"{verdict}  expected {expected}  {self.status}")

    def to_json(self) -> dict[str, Any]:
        """``{"name", "expect", "expect_real", "real_verdict", "status", "error",
        "target_failure", "pairs_checked", "samples_checked", "report"}``."""
        return {"name": self.case.name, "expect": self.case.expect,
                "expect_real": self.case.expect_real,
                "real_verdict": None if self.report is None else real_verdict(self.report),
                "status": self.status,
                "error": self.error, "target_failure": self.target_failure,
                "pairs_checked": self.pairs_checked, "samples_checked": self.samples_checked,
                "report": None if self.report is None else self.report.to_json()}


_PARSER: list[argparse.ArgumentParser] = []


def _parser() -> argparse.ArgumentParser:
    """The ``audit blackbox`` parser (built once: it is only read)."""
    if not _PARSER:
        parser = argparse.ArgumentParser(prog="privref audit blackbox", add_help=False,
                                         exit_on_error=False)
        blackbox_cli.configure_parser(parser)
        _PARSER.append(parser)
    return _PARSER[0]


def _text(value: object, where: str, key: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise InvalidArgument(f"{where}: {key}={_show(value)} must be a string or a number")
    try:
        return str(value)
    except ValueError:  # an int past Python's 4300-digit conversion limit
        raise InvalidArgument(f"{where}: {key} is a number with more than 4300 digits") from None


def _show(value: object) -> str:
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def _target(value: object, where: str, folder: Path) -> str:
    """The entry's target as ``audit blackbox`` takes it: a file target is resolved against the
    suite's ``folder`` and must exist; module and registered targets are left as written."""
    if not isinstance(value, str):
        raise InvalidArgument(f"{where}: target={_show(value)} must be a string: "
                              "'package.module:function' or 'path/to/file.py:function'")
    module_part, sep, attr = value.rpartition(":")
    if not sep or not module_part or not attr or not value.strip() == value:
        raise InvalidArgument(f"{where}: target={value!r} must look like "
                              "'package.module:function' or 'path/to/file.py:function'")
    if "-" in attr and "/" not in module_part and not module_part.endswith(".py"):
        return value  # a registered third-party target (opendp:count-laplace)
    if not (module_part.endswith(".py") or "/" in module_part or os.sep in module_part):
        return value  # a module target, imported when its entry runs
    path = folder / module_part
    if not path.is_file():
        what = "is not a file" if path.exists() else "does not exist"
        raise InvalidArgument(f"{where}: target={value!r}: {path} {what} (a file target is "
                              f"relative to the suite's folder {folder})")
    return f"{path}:{attr}"


def _argv(entry: Mapping[str, object], where: str, target: str) -> list[str]:
    argv = [target]
    for key in _VALUE_FLAGS:
        if key in entry:
            argv += [f"--{key.replace('_', '-')}", _text(entry[key], where, key)]
    for key in ("elements", "sizes"):
        if key in entry:
            if not isinstance(entry[key], list):
                raise InvalidArgument(f"{where}: {key}={_show(entry[key])} must be a list")
            argv += [f"--{key}", json.dumps(entry[key])]
    pairs = entry.get("pairs")
    if pairs is not None:
        if not isinstance(pairs, list) or not pairs or not all(
                isinstance(p, list) and len(p) == 2 for p in pairs):
            raise InvalidArgument(f"{where}: pairs={_show(pairs)} must be a non-empty list of "
                                  "[a, b] pairs of datasets")
        for a, b in pairs:
            argv += ["--pair", json.dumps(a), json.dumps(b)]
    for key, flag, when in (("search", "--search", True),
                            ("float_events", "--no-float-events", False),
                            ("override_declared_relation", "--override-declared-relation", True)):
        if key in entry:
            if not isinstance(entry[key], bool):
                raise InvalidArgument(f"{where}: {key}={_show(entry[key])} must be true or false")
            if entry[key] is when:
                argv.append(flag)
    return argv


def _check_argv(argv: list[str], where: str, checked: set[tuple[str, ...]]) -> None:
    """Every value refused before anything runs, by the CLI's own validation
    (:func:`privref.app.blackbox_cli.parse_config`; given pairs are checked against the
    relation only when the entry gives it, since the target may declare another).  An option
    set already accepted (in ``checked``) is not parsed again: the target and the seed take no
    part in it (the seed is checked on its own)."""
    seed = next((v for f, v in itertools.pairwise(argv) if f == "--seed"), None)
    key = tuple(a for i, a in enumerate(argv) if i > 0 and a != "--seed"
                and argv[i - 1] != "--seed")
    try:
        if seed is not None:
            blackbox_cli._int(seed, "--seed", 0, MAX_SEED, "2**128 - 1")
        if key in checked:
            return
        try:
            args = _parser().parse_args(argv)
        except argparse.ArgumentError as exc:
            raise InvalidArgument(str(exc)) from None
        except SystemExit:  # argparse's own error(): a value it cannot place
            raise InvalidArgument(f"its values cannot be read as flags: {argv}") from None
        dry = argparse.Namespace(**{**vars(args), "checkpoint": None,
                                    "epsilon": args.epsilon or "1", "seed": "0"})
        try:
            blackbox_cli.parse_config(dry)
        except NotNeighboring:
            if args.relation is not None:
                raise
            # the relation in force is the target's declaration, known when it is loaded
            blackbox_cli.parse_config(argparse.Namespace(**{**vars(dry), "pair": None}))
        checked.add(key)
    except PrivrefError as exc:
        raise InvalidArgument(f"{where}: {' '.join(str(exc).split())}") from None
    except RecursionError:
        raise InvalidArgument(f"{where}: a value is nested too deeply") from None


def _read(file: Path) -> dict[str, Any]:
    """The suite file's top-level table: InvalidArgument naming the file when it cannot be
    read, is too large, is not UTF-8 text, or is not valid (or too deeply nested) TOML/JSON."""
    kind = "JSON" if file.suffix == ".json" else "TOML"
    try:
        if file.is_dir():
            raise InvalidArgument(f"suite {file}: is a directory, not a suite file")
        if file.exists() and not file.is_file():
            raise InvalidArgument(f"suite {file}: not a regular file (a device, a pipe or a "
                                  "socket)")
        with open(file, "rb") as fh:
            data = fh.read(MAX_SUITE_BYTES + 1)
    except OSError as exc:
        raise InvalidArgument(f"suite {file}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_SUITE_BYTES:
        raise InvalidArgument(f"suite {file}: larger than {MAX_SUITE_BYTES} bytes; a suite "
                              "file holds at most 32 MiB (MAX_SUITE_BYTES)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidArgument(f"suite {file}: not UTF-8 text (byte {data[exc.start]:#04x} at "
                              f"offset {exc.start}); a suite file is {kind} text") from None
    try:
        raw = json.loads(text) if kind == "JSON" else tomllib.loads(text)
    except RecursionError:
        raise InvalidArgument(f"suite {file}: not valid {kind} (nested too deeply)") from None
    except ValueError as exc:  # TOMLDecodeError, JSONDecodeError, an over-long integer
        raise InvalidArgument(f"suite {file}: not valid {kind} "
                              f"({' '.join(str(exc).split())[:200]})") from None
    if not isinstance(raw, dict) or set(raw) - {"defaults", "target"}:
        raise InvalidArgument(f"suite {file}: the top level must hold [defaults] and [[target]] "
                              "tables only")
    return raw


def load_suite(path: str | Path) -> tuple[SuiteCase, ...]:
    """The validated cases of a suite file (see the module docstring); nothing is imported.

    Raises InvalidArgument naming the file, the entry and the key: unreadable, too large, not
    UTF-8, bad or too deeply nested TOML/JSON, no ``[[target]]``, more than
    :data:`MAX_ENTRIES`, an unknown or ill-typed key, a missing ``target``/``expect``, an
    ``expect`` other than VIOLATION / NO_VIOLATION_FOUND, a duplicate name, a file target that
    does not exist (relative to the suite's folder), a value the CLI refuses.
    """
    file = Path(path)
    raw = _read(file)
    folder = file.absolute().parent
    defaults = raw.get("defaults", {})
    entries = raw.get("target")
    if not isinstance(defaults, dict):
        raise InvalidArgument(f"suite {path}: [defaults] must be a table")
    shared = [k for k in KEYS if k not in ("target", "name", "expect", "expect_real")]
    bad = set(defaults) - set(shared)
    if bad:
        raise InvalidArgument(f"suite {path}: [defaults] key(s) {sorted(bad)} not allowed; "
                              f"allowed: {', '.join(shared)}")
    if not isinstance(entries, list) or not entries:
        raise InvalidArgument(f"suite {path}: it must list at least one [[target]]")
    if len(entries) > MAX_ENTRIES:
        raise InvalidArgument(f"suite {path}: {len(entries)} [[target]] entries; a suite holds "
                              f"at most {MAX_ENTRIES} (MAX_ENTRIES): split it into several files")
    cases: list[SuiteCase] = []
    names: set[str] = set()
    checked: set[tuple[str, ...]] = set()
    targets: dict[str, str] = {}
    for i, entry in enumerate(entries, 1):
        where = f"suite {path}: target #{i}"
        if not isinstance(entry, dict):
            raise InvalidArgument(f"{where} must be a table")
        unknown = entry.keys() - _KEYSET
        if unknown:
            raise InvalidArgument(f"{where}: unknown key(s) {sorted(unknown)}; allowed: "
                                  f"{', '.join(KEYS)}")
        merged = {**defaults, **entry}
        if "target" not in merged:
            raise InvalidArgument(f"{where}: 'target' is required")
        spec = merged["target"]
        if not isinstance(spec, str) or spec not in targets:
            targets[spec] = _target(spec, where, folder)
        name = merged.get("name", spec)
        if not isinstance(name, str) or not name.strip():
            raise InvalidArgument(f"{where}: name={_show(name)} must be a non-empty string")
        where = f"suite {path}: target #{i} ({name})"
        if "expect" not in merged:
            raise InvalidArgument(f"{where}: 'expect' is required")
        for key in ("expect", "expect_real"):
            if key in merged and merged[key] not in VERDICTS:
                raise InvalidArgument(f"{where}: {key}={_show(merged[key])} must be one of "
                                      f"{', '.join(VERDICTS)}")
        if merged.get("expect_real") == "VIOLATION" and merged["expect"] != "VIOLATION":
            raise InvalidArgument(f"{where}: expect_real = \"VIOLATION\" needs expect = "
                                  "\"VIOLATION\": a real-arithmetic violation is a violation")
        if "expect_real" in merged and merged.get("float_events") is False:
            raise InvalidArgument(f"{where}: expect_real with float_events = false: the run "
                                  "has one view (the real-arithmetic one); state it in expect")
        requires = merged.get("requires", [])
        if not isinstance(requires, list) or not all(isinstance(r, str) for r in requires):
            raise InvalidArgument(f"{where}: requires={_show(requires)} must be a list of "
                                  "distribution names")
        if name in names:
            raise InvalidArgument(f"{where}: the name {name!r} is used twice; give 'name'")
        names.add(name)
        try:
            argv = _argv(merged, where, targets[spec])
        except RecursionError:
            raise InvalidArgument(f"{where}: a value is nested too deeply") from None
        _check_argv(argv, where, checked)
        expect_real = merged.get("expect_real")
        cases.append(SuiteCase(name, (*argv, "--quiet"), str(merged["expect"]), tuple(requires),
                               None if expect_real is None else str(expect_real)))
    return tuple(cases)


def check_budget(cases: Sequence[SuiteCase], where: str = "suite") -> int:
    """The samples per side the ``cases`` ask for in all; InvalidArgument naming ``samples``
    and :data:`MAX_SUITE_SAMPLES` when the sum exceeds it (checked before any run)."""
    total = 0
    for case in cases:
        total += case.samples
        if total > MAX_SUITE_SAMPLES:
            raise InvalidArgument(
                f"{where}: the entries to run ask for more than {MAX_SUITE_SAMPLES:.0e} "
                f"samples per side in all (the sum of 'samples'; limit MAX_SUITE_SAMPLES = "
                f"10 x 10**{len(str(MAX_SAMPLES)) - 1}, ten audits at the per-audit maximum); "
                "lower 'samples' or select fewer entries with --only")
    return total


def _silent(message: str) -> None:
    """Per-audit notes and warnings stay in the reports (the suite prints one line each)."""


def _missing(case: SuiteCase) -> list[str]:
    return [r for r in case.requires if library_version(r) is None]


def _audit(args: argparse.Namespace) -> BlackboxReport:
    """Load the target and audit it (run supervised, in a child process group)."""
    target = load_target(args.target)
    plan = blackbox_cli.parse_config(args, target)
    return blackbox_cli.audit_target(args, target, plan, on_warning=_silent, on_note=_silent)


def run_case(case: SuiteCase, workers: str | None = None) -> SuiteResult:
    """Run one case, supervised: SKIP when a required distribution (or a registered target's
    library) is missing; ERROR when it cannot be run (the PrivrefError's message;
    ``target_failure`` when the target raised, exited, timed out or returned unusable
    outcomes); else OK or FAIL."""
    missing = _missing(case)
    if missing:
        return SuiteResult(case, "SKIP", error=f"not installed: {', '.join(missing)}")
    args = _parser().parse_args(list(case.argv))
    if workers is not None and args.workers is None:
        args = argparse.Namespace(**{**vars(args), "workers": workers})
    if args.seed is None:  # a regression suite is reproducible: seed 0 unless given
        args = argparse.Namespace(**{**vars(args), "seed": "0"})
    distributions_by_package()  # read once here, not in every supervised child
    try:
        report = supervise(lambda: _audit(args))
    except MissingDependency as exc:
        return SuiteResult(case, "SKIP", error=str(exc))
    except TargetFailure as exc:
        return SuiteResult(case, "ERROR", error=" ".join(str(exc).split()), target_failure=True)
    except PrivrefError as exc:
        return SuiteResult(case, "ERROR", error=" ".join(str(exc).split()))
    except SystemExit as exc:  # the target's, escaped: nothing was checked
        return SuiteResult(case, "ERROR", error=f"target {args.target} raised SystemExit"
                           f"({exc.code!r})", target_failure=True)
    ok = report.verdict is not None and report.verdict.value == case.expect
    if case.expect_real is not None:
        ok = ok and real_verdict(report) == case.expect_real
    return SuiteResult(case, "OK" if ok else "FAIL", report)


def real_verdict(report: BlackboxReport) -> str | None:
    """The real-arithmetic view's verdict (:attr:`BlackboxReport.real_verdict`)."""
    return report.real_verdict


def suite_cases(path: str | Path) -> list[SuiteCase]:
    """The cases of a suite file, for ``pytest.mark.parametrize`` (ids: their names); the
    file is checked as by ``privref blackbox-suite`` (:func:`load_suite`, :func:`check_budget`
    over all entries)."""
    cases = load_suite(path)
    check_budget(cases, f"suite {path}")
    return list(cases)


def check_case(case: SuiteCase) -> BlackboxReport:
    """Run ``case`` in a test: ``pytest.skip`` when it is skipped, AssertionError (with its line)
    when it fails or errs; returns the report."""
    result = run_case(case, workers="1")
    if result.status == "SKIP":
        import pytest

        pytest.skip(result.error or "skipped")
    if result.status != "OK":
        raise AssertionError(result.line())
    assert result.report is not None
    return result.report


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``blackbox-suite`` arguments to ``parser``."""
    parser.add_argument("suite", metavar="SUITE", help="a suite file (.toml, or .json)")
    parser.add_argument("--json", metavar="PATH",
                        help="write every report, the summary and the exit status to PATH")
    parser.add_argument("--html", metavar="PATH",
                        help="write a self-contained HTML page, one row per entry, to PATH")
    parser.add_argument("--workers", default=None, metavar="W",
                        help="worker processes per audit unless an entry sets them (default 1)")
    parser.add_argument("--only", metavar="NAME", action="append",
                        help="run only entries whose name contains NAME (repeatable)")
    parser.add_argument("--allow-empty", action="store_true",
                        help="exit 0, not 6, when nothing was checked (every entry to run was "
                             "skipped: a missing library)")


def summary(results: Sequence[SuiteResult]) -> str:
    """The suite's summary line: entries run (OK/FAIL/ERROR) and skipped, and the pairs and
    samples actually checked (confirmed pairs, both sides, over the entries that ran)."""
    count = {s: sum(r.status == s for r in results) for s in ("OK", "FAIL", "ERROR", "SKIP")}
    ran = len(results) - count["SKIP"]
    pairs = sum(r.pairs_checked for r in results)
    samples = sum(r.samples_checked for r in results)
    return (f"{len(results)} entr{'y' if len(results) == 1 else 'ies'}: {ran} ran ({count['OK']} "
            f"OK, {count['FAIL']} FAIL, {count['ERROR']} ERROR), {count['SKIP']} skipped; "
            f"checked {pairs} pair{'' if pairs == 1 else 's'} on {samples:,} samples")


def status_of(results: Sequence[SuiteResult], allow_empty: bool = False) -> int:
    """The exit status of a suite run (see the module docstring): 1 when a verdict differs or
    an entry could not run for a reason other than its target, else 5 when a target failed,
    else 6 when nothing ran (0 with ``allow_empty``), else 0."""
    if any(r.status == "FAIL" or (r.status == "ERROR" and not r.target_failure)
           for r in results):
        return EXIT_VIOLATION
    if any(r.status == "ERROR" for r in results):
        return EXIT_TARGET
    if all(r.status == "SKIP" for r in results) and not allow_empty:
        return EXIT_NOTHING_CHECKED
    return EXIT_OK


def _not_an_input(output: str, source: Path, what: str, flag: str = "json") -> None:
    """InvalidArgument when ``--json output`` (``--html``) is ``source``: a report never
    overwrites an input."""
    if same_file(Path(output), source):
        raise InvalidArgument(f"--{flag} {output} is {what}; the report would overwrite it: "
                              "choose another path")


def run(args: argparse.Namespace) -> int:
    """Run the suite: one line per entry on stdout, the summary on stderr; the exit status of
    :func:`status_of` (0, 1, 5 or 6), with a last ``privref blackbox-suite: error:`` line for
    5 and 6.

    Raises InvalidArgument (exit 2) for a bad suite file, flag or budget, before any audit runs.
    """
    for flag in ("json", "html"):
        path = getattr(args, flag, None)
        if path:
            check_output_path(f"--{flag}", path)
            _not_an_input(path, Path(args.suite), "the suite file", flag)
    workers = "1" if args.workers is None else args.workers
    blackbox_cli._int(workers, "--workers", 1, MAX_WORKERS)
    cases: Sequence[SuiteCase] = load_suite(args.suite)
    if args.only:
        cases = [c for c in cases if any(o in c.name for o in args.only)]
        if not cases:
            raise InvalidArgument(f"--only {args.only}: no entry of {args.suite} matches")
    check_budget(cases, f"suite {args.suite}")
    for flag in ("json", "html"):
        output: str | None = getattr(args, flag, None)
        for case in cases if output else ():
            source = case.argv[0].rpartition(":")[0]
            if output and (source.endswith(".py") or "/" in source):
                _not_an_input(output, Path(source), f"the target file of entry {case.name!r}",
                              flag)
    return run_cases(cases, workers, json_path=args.json, source=str(args.suite),
                     allow_empty=getattr(args, "allow_empty", False),
                     html_path=getattr(args, "html", None))


def false_alarm_share(expect: str, expect_real: str | None, confidence: Fraction) -> Fraction:
    """What one audit that reached a verdict adds to a run's false-alarm bound: ``1 -
    confidence`` when it expects NO_VIOLATION_FOUND in a view (``expect`` or ``expect_real``),
    else 0 (an audit expecting VIOLATION in every view cannot be failed by a false alarm).  The
    one rule of :func:`false_alarm_bound` and of the pytest plugin
    (:mod:`privref.app.pytest_plugin`)."""
    return 1 - confidence if "NO_VIOLATION_FOUND" in (expect, expect_real) else Fraction(0)


def false_alarm_bound(results: Sequence[SuiteResult]) -> tuple[Fraction, int]:
    """(bound, k): the probability that any entry of a run is FAILed by a false alarm is at most
    ``bound``, the sum of ``1 - confidence`` over the ``k`` entries that reached a verdict and
    expect NO_VIOLATION_FOUND in a view (``expect`` or ``expect_real``).  Union bound: each such
    audit reports a violation of a claim that holds with probability at most ``1 - confidence``
    (the black-box auditor's guarantee, docs/blackbox.md); an entry expecting VIOLATION in
    every view cannot be failed by a false alarm."""
    total, count = Fraction(0), 0
    for r in results:
        if r.report is not None and r.report.verdict is not None:
            share = false_alarm_share(r.case.expect, r.case.expect_real, r.report.confidence)
            total += share
            count += share > 0
    return total, count


def bound_text(value: Fraction, digits: int = 3) -> str:
    """``value`` rounded **up** to ``digits`` significant decimal digits (``3e-06``,
    ``0.0123``, ``1``): never below the value, so a printed upper bound stays one (``.3g``
    rounds to nearest: 1/3 x 10^-6 would read 3.33e-07).  The float logarithm only proposes
    the exponent; exact comparisons fix it."""
    if value <= 0:
        return "0"
    e = math.floor(math.log10(value.numerator) - math.log10(value.denominator))
    while Fraction(10) ** e > value:
        e -= 1
    while Fraction(10) ** (e + 1) <= value:
        e += 1
    scaled = value * Fraction(10) ** (digits - 1 - e)
    m = -(-scaled.numerator // scaled.denominator)  # ceil
    if m == 10**digits:
        m, e = 10 ** (digits - 1), e + 1
    text = str(m).rstrip("0") or "0"
    if -4 <= e <= 5:  # a plain decimal
        shift = e - (len(text) - 1)  # value = text * 10**shift
        if shift >= 0:
            return text + "0" * shift
        text = text.rjust(-shift + 1, "0")
        return f"{text[:shift]}.{text[shift:]}"
    mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
    return f"{mantissa}e{e:+03d}"


def false_alarm_line(results: Sequence[SuiteResult]) -> str:
    """The run's false-alarm statement (:func:`false_alarm_bound`), one line."""
    bound, count = false_alarm_bound(results)
    return (f"false-alarm probability of this run <= {bound_text(bound)} (union bound over the "
            f"{count} entr{'y' if count == 1 else 'ies'} expecting no violation in a view)")


def run_cases(cases: Sequence[SuiteCase], workers: str, *, json_path: str | None, source: str,
              allow_empty: bool = False, extra_json: Mapping[str, Any] | None = None,
              prefix: str = _PREFIX, html_path: str | None = None,
              header: Sequence[str] = ()) -> int:
    """Run validated ``cases`` (see :func:`run`): one line each on stdout, the false-alarm line
    and the summary on stderr, the JSON report (``extra_json`` merged in) when ``json_path``,
    the HTML page (:mod:`privref.app.reports.suite_html`, ``header`` lines on top) when
    ``html_path``; returns the exit status of :func:`status_of`."""
    results = []
    for case in cases:
        result = run_case(case, workers=workers)
        print(result.line(), flush=True)
        results.append(result)
    status = status_of(results, allow_empty)
    print(false_alarm_line(results), file=sys.stderr)
    print(summary(results), file=sys.stderr)
    if json_path:
        bound, count = false_alarm_bound(results)
        write_json(json_path, {"suite": source, "exit_status": status,
                               "summary": summary(results),
                               "false_alarm_bound": float(bound),
                               "false_alarm_bound_exact": str(bound),
                               "entries_expecting_no_violation": count,
                               **(extra_json or {}),
                               "results": [r.to_json() for r in results]})
    if html_path:
        from .reports.suite_html import write_suite_html

        write_suite_html(html_path, f"{prefix}: {source}", results,
                         [*header, summary(results), false_alarm_line(results),
                          f"exit status {status}"])
    skipped = [r for r in results if r.status == "SKIP"]
    if len(skipped) == len(results):
        why = sorted({r.error or "skipped" for r in skipped})
        if status == EXIT_NOTHING_CHECKED:
            print(f"{prefix}: error: nothing was checked: all {len(results)} entries to run "
                  f"were skipped ({'; '.join(why)[:300]}); install what they require, or pass "
                  "--allow-empty to accept a run that checks nothing", file=sys.stderr)
        else:
            print(f"warning: nothing was checked: all {len(results)} entries to run were "
                  "skipped (--allow-empty)", file=sys.stderr)
    if status == EXIT_TARGET:
        failed = [r for r in results if r.target_failure]
        names = ", ".join(r.case.name for r in failed)
        print(f"{prefix}: error: the target of {len(failed)} entr"
              f"{'y' if len(failed) == 1 else 'ies'} failed ({names[:200]}), so nothing was "
              f"concluded about {'it' if len(failed) == 1 else 'them'}; first: "
              f"{(failed[0].error or '')[:500]}", file=sys.stderr)
    return status
