"""``privref blackbox-suite SUITE``: a regression suite of black-box audits, one line per target.

A suite file (TOML, or JSON when its name ends in ``.json``) lists targets with the
verdict each is expected to get::

    [defaults]            # optional; any entry key except target/name/expect
    samples = 20000
    seed = 1

    [[target]]
    target = "opendp:count-laplace"        # any TARGET of 'privref audit blackbox'
    expect = "NO_VIOLATION_FOUND"          # or "VIOLATION"
    name = "count"                         # optional label (default: the target)
    requires = ["opendp"]                  # optional: SKIP when a distribution is missing

Entry keys (:data:`KEYS`) are the flags of ``privref audit blackbox`` without the dashes
(``epsilon``, ``delta``, ``relation``, ``pairs = [[[0], []]]``, ``search``, ``samples``,
``seed``, ``confidence``, ``elements``, ``sizes``, ``float_events = false``, ``workers``,
``group``, ``timeout``, ``screening_samples``, ``confirm``), with the same meaning and the
same validation.  A target's declaration fills in what an entry omits.

Exit status: 0 when every verdict is the expected one (skipped entries do not count), 1
otherwise (a verdict differs, or an entry could not be run: its line says ERROR), 2 on a
usage error (an unreadable or malformed suite file, an unknown key, a refused value: all
found before anything runs).  ``--json PATH`` writes every report.

:func:`suite_cases` and :func:`check_case` are the pytest entry point::

    import pytest
    from privref.app.blackbox_suite import check_case, suite_cases

    @pytest.mark.parametrize("case", suite_cases("docs/blackbox-suite.toml"), ids=str)
    def test_suite(case):
        check_case(case)      # pytest.skip when a required library is missing
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from privref.audits.blackbox.adapters import MissingDependency
from privref.audits.blackbox.declarations import claim_text, library_version
from privref.audits.blackbox.report import BlackboxReport, exact_text, write_json
from privref.audits.blackbox.runner import MAX_WORKERS
from privref.audits.blackbox.target import load_target
from privref.reference.errors import InvalidArgument, PrivrefError

from . import blackbox_cli
from .reports.output import check_output_path

__all__ = ["KEYS", "SuiteCase", "SuiteResult", "check_case", "configure_parser", "load_suite",
           "run", "run_case", "suite_cases"]

VERDICTS = ("VIOLATION", "NO_VIOLATION_FOUND")

_VALUE_FLAGS = ("epsilon", "delta", "relation", "samples", "seed", "confidence", "group",
                "timeout", "workers", "screening_samples", "confirm")
KEYS = ("target", "name", "expect", "requires", "pairs", "search", "elements", "sizes",
        "float_events", *_VALUE_FLAGS)
"""The keys a suite entry may hold (``[defaults]`` holds any of them but target/name/expect)."""


@dataclass(frozen=True, slots=True)
class SuiteCase:
    """One validated suite entry: its label, the ``privref audit blackbox`` argument list it
    stands for, the expected verdict and the distributions it requires."""

    name: str
    argv: tuple[str, ...]
    expect: str
    requires: tuple[str, ...]

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class SuiteResult:
    """The outcome of one case: ``status`` is ``OK``, ``FAIL`` (verdict differs), ``ERROR``
    (could not run; ``error`` says why) or ``SKIP`` (a required library is missing)."""

    case: SuiteCase
    status: str
    report: BlackboxReport | None = None
    error: str | None = None

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
        return (f"{self.case.name}  [{library}]  {relation}  claim {claim}  "
                f"bound {r.epsilon_lower_bound:.4g}  {verdict}  expected {self.case.expect}  "
                f"{self.status}")

    def to_json(self) -> dict[str, Any]:
        """``{"name", "expect", "status", "error", "report"}``."""
        return {"name": self.case.name, "expect": self.case.expect, "status": self.status,
                "error": self.error, "report": None if self.report is None else self.report.to_json()}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="privref audit blackbox", add_help=False,
                                     exit_on_error=False)
    blackbox_cli.configure_parser(parser)
    return parser


def _text(value: object, where: str, key: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise InvalidArgument(f"{where}: {key}={value!r} must be a string or a number")
    return str(value)


def _argv(entry: Mapping[str, object], where: str) -> list[str]:
    argv = [_text(entry["target"], where, "target")]
    for key in _VALUE_FLAGS:
        if key in entry:
            argv += [f"--{key.replace('_', '-')}", _text(entry[key], where, key)]
    for key in ("elements", "sizes"):
        if key in entry:
            if not isinstance(entry[key], list):
                raise InvalidArgument(f"{where}: {key}={entry[key]!r} must be a list")
            argv += [f"--{key}", json.dumps(entry[key])]
    pairs = entry.get("pairs")
    if pairs is not None:
        if not isinstance(pairs, list) or not pairs or not all(
                isinstance(p, list) and len(p) == 2 for p in pairs):
            raise InvalidArgument(f"{where}: pairs={pairs!r} must be a non-empty list of "
                                  "[a, b] pairs of datasets")
        for a, b in pairs:
            argv += ["--pair", json.dumps(a), json.dumps(b)]
    for key, flag, when in (("search", "--search", True), ("float_events", "--no-float-events",
                                                              False)):
        if key in entry:
            if not isinstance(entry[key], bool):
                raise InvalidArgument(f"{where}: {key}={entry[key]!r} must be true or false")
            if entry[key] is when:
                argv.append(flag)
    return argv


def _check_argv(argv: list[str], where: str) -> None:
    """Every value refused before anything runs (pairs are checked against the relation in
    force when the entry runs, since the target may declare it)."""
    try:
        args = _parser().parse_args(argv)
    except argparse.ArgumentError as exc:
        raise InvalidArgument(f"{where}: {exc}") from None
    except SystemExit:  # argparse's own error(): a value it cannot place
        raise InvalidArgument(f"{where}: its values cannot be read as flags: {argv}") from None
    for a, b in args.pair or ():
        blackbox_cli._json_list(a, "pairs")
        blackbox_cli._json_list(b, "pairs")
    dry = argparse.Namespace(**{**vars(args), "pair": None, "checkpoint": None,
                                "epsilon": args.epsilon or "1", "seed": args.seed or "0"})
    try:
        blackbox_cli.parse_config(dry)
    except PrivrefError as exc:
        raise InvalidArgument(f"{where}: {exc}") from None


def load_suite(path: str | Path) -> tuple[SuiteCase, ...]:
    """The validated cases of a suite file (see the module docstring).

    Raises InvalidArgument naming the file, the entry and the key: unreadable file, bad
    TOML/JSON, no ``[[target]]``, an unknown key, a missing ``target``/``expect``, an
    ``expect`` other than VIOLATION / NO_VIOLATION_FOUND, a duplicate name, a refused value.
    """
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidArgument(f"suite {path}: cannot be read ({exc.strerror or exc})") from None
    try:
        raw = json.loads(text) if file.suffix == ".json" else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise InvalidArgument(f"suite {path}: not valid {'JSON' if file.suffix == '.json' else 'TOML'} "
                              f"({exc})") from None
    if not isinstance(raw, dict) or set(raw) - {"defaults", "target"}:
        raise InvalidArgument(f"suite {path}: the top level must hold [defaults] and [[target]] "
                              "tables only")
    defaults = raw.get("defaults", {})
    entries = raw.get("target")
    if not isinstance(defaults, dict):
        raise InvalidArgument(f"suite {path}: [defaults] must be a table")
    shared = [k for k in KEYS if k not in ("target", "name", "expect")]
    bad = set(defaults) - set(shared)
    if bad:
        raise InvalidArgument(f"suite {path}: [defaults] key(s) {sorted(bad)} not allowed; "
                              f"allowed: {', '.join(shared)}")
    if not isinstance(entries, list) or not entries:
        raise InvalidArgument(f"suite {path}: it must list at least one [[target]]")
    cases: list[SuiteCase] = []
    for i, entry in enumerate(entries, 1):
        where = f"suite {path}: target #{i}"
        if not isinstance(entry, dict):
            raise InvalidArgument(f"{where} must be a table")
        unknown = set(entry) - set(KEYS)
        if unknown:
            raise InvalidArgument(f"{where}: unknown key(s) {sorted(unknown)}; allowed: "
                                  f"{', '.join(KEYS)}")
        merged = {**defaults, **entry}
        if "target" not in merged:
            raise InvalidArgument(f"{where}: 'target' is required")
        name = _text(merged.get("name", merged["target"]), where, "name")
        where = f"suite {path}: target #{i} ({name})"
        if "expect" not in merged:
            raise InvalidArgument(f"{where}: 'expect' is required")
        if merged["expect"] not in VERDICTS:
            raise InvalidArgument(f"{where}: expect={merged['expect']!r} must be one of "
                                  f"{', '.join(VERDICTS)}")
        requires = merged.get("requires", [])
        if not isinstance(requires, list) or not all(isinstance(r, str) for r in requires):
            raise InvalidArgument(f"{where}: requires={requires!r} must be a list of "
                                  "distribution names")
        if any(c.name == name for c in cases):
            raise InvalidArgument(f"{where}: the name {name!r} is used twice; give 'name'")
        argv = _argv(merged, where)
        _check_argv(argv, where)
        cases.append(SuiteCase(name, (*argv, "--quiet"), str(merged["expect"]), tuple(requires)))
    return tuple(cases)


def _silent(message: str) -> None:
    """Per-audit notes and warnings stay in the reports (the suite prints one line each)."""


def _missing(case: SuiteCase) -> list[str]:
    return [r for r in case.requires if library_version(r) is None]


def run_case(case: SuiteCase, workers: str | None = None) -> SuiteResult:
    """Run one case: SKIP when a required distribution (or a registered target's library) is
    missing, ERROR when it cannot be run (the PrivrefError's message), else OK or FAIL."""
    missing = _missing(case)
    if missing:
        return SuiteResult(case, "SKIP", error=f"not installed: {', '.join(missing)}")
    args = _parser().parse_args(list(case.argv))
    if workers is not None and args.workers is None:
        args = argparse.Namespace(**{**vars(args), "workers": workers})
    if args.seed is None:  # a regression suite is reproducible: seed 0 unless given
        args = argparse.Namespace(**{**vars(args), "seed": "0"})
    try:
        target = load_target(args.target)
        plan = blackbox_cli.parse_config(args, target)
        report = blackbox_cli.audit_target(args, target, plan, on_warning=_silent,
                                           on_note=_silent)
    except MissingDependency as exc:
        return SuiteResult(case, "SKIP", error=str(exc))
    except PrivrefError as exc:
        return SuiteResult(case, "ERROR", error=" ".join(str(exc).split()))
    ok = report.verdict is not None and report.verdict.value == case.expect
    return SuiteResult(case, "OK" if ok else "FAIL", report)


def suite_cases(path: str | Path) -> list[SuiteCase]:
    """The cases of a suite file, for ``pytest.mark.parametrize`` (ids: their names)."""
    return list(load_suite(path))


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
    parser.add_argument("--json", metavar="PATH", help="write every report to PATH")
    parser.add_argument("--workers", default=None, metavar="W",
                        help="worker processes per audit unless an entry sets them (default 1)")
    parser.add_argument("--only", metavar="NAME", action="append",
                        help="run only entries whose name contains NAME (repeatable)")


def run(args: argparse.Namespace) -> int:
    """Run the suite: one line per target on stdout; 0 when all are as expected, else 1.

    Raises InvalidArgument (exit 2) for a bad suite file or flag, before any audit runs.
    """
    if args.json:
        check_output_path("--json", args.json)
    cases: Sequence[SuiteCase] = load_suite(args.suite)
    if args.only:
        cases = [c for c in cases if any(o in c.name for o in args.only)]
        if not cases:
            raise InvalidArgument(f"--only {args.only}: no entry of {args.suite} matches")
    workers = "1" if args.workers is None else args.workers
    blackbox_cli._int(workers, "--workers", 1, MAX_WORKERS)
    results = []
    for case in cases:
        result = run_case(case, workers=workers)
        print(result.line(), flush=True)
        results.append(result)
    failed = [r for r in results if r.status in ("FAIL", "ERROR")]
    skipped = sum(r.status == "SKIP" for r in results)
    print(f"{len(results) - len(failed) - skipped} OK, {len(failed)} failed, {skipped} skipped",
          file=sys.stderr)
    if args.json:
        write_json(args.json, {"suite": str(args.suite),
                               "results": [r.to_json() for r in results]})
    return 1 if failed else 0
