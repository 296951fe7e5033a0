"""The ``privref`` command line: ``privref audit`` (exact audits), ``privref audit blackbox``,
``privref lemmas`` (the ledger), ``privref learn`` and ``privref illustrate`` (experiments).

:func:`main` maps every outcome to one of the documented exit codes (:data:`EXIT_CODES`):
no traceback reaches the user unless ``PRIVREF_DEBUG=1``.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
import traceback
from collections.abc import Sequence
from typing import Any

from privref import reference
from privref.reference.errors import OutputError, PrivrefError

from . import blackbox_cli
from .output import check_output_path, write_json, write_text_atomic

__all__ = ["EXIT_CODES", "EXIT_INTERNAL", "EXIT_OK", "EXIT_UNDECIDED", "EXIT_USAGE",
           "EXIT_VIOLATION", "main"]

EXIT_OK = 0
"""No violation found: every audit HOLDS, every ledger check agrees, the experiment finished."""
EXIT_VIOLATION = 1
"""A violation: an exact audit VIOLATED (a built-in row that expects VIOLATED, auditing a claim
the ledger refutes as printed, exits 1 when it does not find it), a black-box VIOLATION, a
ledger check contradicting its recorded status."""
EXIT_USAGE = 2
"""A usage error: unknown command or flag, a bad value, an output path unusable before the run."""
EXIT_INTERNAL = 3
"""The run failed: a result could not be written (OutputError, any OSError) or an internal
error (a bug: one line ``internal error: Type: message``; ``PRIVREF_DEBUG=1`` shows the
traceback)."""
EXIT_UNDECIDED = 4
"""``privref audit`` only: nothing VIOLATED, but at least one verdict is UNDECIDED (exact
arithmetic could not decide the claim at the maximum precision), so the claims are not all
proved to hold."""

EXIT_CODES = f"""\
exit status:
  {EXIT_OK}  no violation: every audit HOLDS / NO_VIOLATION_FOUND, every ledger check
     agrees with its recorded status, the experiment finished
  {EXIT_VIOLATION}  violation: an exact audit is VIOLATED (other than a row auditing a printed
     claim the ledger refutes, whose VIOLATED is expected; such a row that HOLDS also exits
     1), a black-box audit finds a VIOLATION, or a ledger check contradicts its status
  {EXIT_USAGE}  usage error: unknown command or flag, malformed or out-of-range value, or an
     output path that is unusable before the run (missing folder, a directory)
  {EXIT_INTERNAL}  the run failed: a result could not be written (disk full, ...), or an
     internal error (set PRIVREF_DEBUG=1 for the traceback)
  {EXIT_UNDECIDED}  privref audit: nothing VIOLATED, but some verdict is UNDECIDED
     (exact arithmetic could not decide it): the claims are not all proved
"""

COMMANDS = """\
commands:
  audit            exactly audit every built-in mechanism on its neighbor universe
  audit blackbox   Monte Carlo lower bound on the privacy loss of any callable
  blackbox-suite   run a suite file of black-box audits: one line per target, exit 0/1
  lemmas           print the lemma ledger (and run its checks with --check)
  learn            learning-curve experiment: labeled/unlabeled sample complexity vs d
  illustrate       illustrations of paper 003 (public data): JSON table and PNG plot
  experiments      sample complexity of the paper 002 predictors: JSON and PNG
  table4           paper 001's Table 4 (PATE-PSQ/ASQ accuracy on Mushroom, a9a): JSON, PNG
  account gaussian calibrate Gaussian noise and the ex-post epsilon, as enclosures

Run 'privref COMMAND --help' for the options of a command.
"""


def _progress(args: argparse.Namespace, i: int, total: int, what: str) -> None:
    """One counter line on stderr per item of a long command (none with --quiet)."""
    if not getattr(args, "quiet", False):
        print(f"[{i}/{total}] {what}", file=sys.stderr, flush=True)


def _check_outputs(*flags: tuple[str, str | None]) -> None:
    for flag, path in flags:
        if path is not None:
            check_output_path(flag, path)


def _version() -> str:
    return reference.__version__


def _needs_extra(extra: str, missing: str, args: argparse.Namespace) -> int:
    """A command whose optional dependencies are absent: a usage error naming the extra."""
    raise PrivrefError(f"the {extra!r} extra is not installed (missing module {missing!r}): "
                       f"pip install 'privref[{extra}]'")


def _cmd_audit(args: argparse.Namespace) -> int:
    from privref.audits.exact import Verdict, audit, epsilon_text

    from .builtin import builtin_audits
    from .builtin_prediction import json_record, prediction_audits, table_cells
    from .extra_builtin import EXTRA

    for name in args.only or ():
        if not name.strip():
            raise PrivrefError(f"--only {name!r} must be a non-empty part of a mechanism name")
    _check_outputs(("--json", args.json))
    rows: list[dict[str, Any]] = []
    table: list[tuple[str, ...]] = []
    start = time.perf_counter()
    worst = EXIT_OK
    def wanted(name: str) -> bool:
        return not args.only or any(s.lower() in name.lower() for s in args.only)

    items = [item for item in builtin_audits(deep=args.deep, extra=EXTRA)
             if wanted(item.label or item.mechanism.name)]
    predictions = [row for row in prediction_audits(args.deep) if wanted(row.label)]
    if not items and not predictions:
        known = ", ".join(sorted({i.label or i.mechanism.name
                                  for i in builtin_audits(deep=args.deep, extra=EXTRA)}
                                 | {row.label for row in prediction_audits(args.deep)}))
        raise PrivrefError(f"--only {args.only}: no built-in mechanism matches; known: {known}")
    total = len(items) + len(predictions)
    for number, item in enumerate(items, 1):
        if args.deep:
            _progress(args, number, total, item.label or item.mechanism.name)
        report = audit(item.mechanism, item.universe, claim=item.claim, distance=item.distance)
        record = report.to_json()
        record["mechanism"] = item.label or report.mechanism
        record["distance"] = item.distance
        record["source"] = str(item.cited)
        record["expected_verdict"] = item.expect.value
        rows.append(record)
        eps = report.claim.epsilon
        claimed = f"{float(eps):.6g}" + ("" if eps.exact is not None else f" = {eps}")
        verdict = report.verdict.value
        if item.expect is Verdict.VIOLATED:
            verdict += " (expected)" if report.verdict is Verdict.VIOLATED else " (expected VIOLATED)"
        delta = str(report.claim.delta)
        if len(delta) > 24:  # a long exact rational: the exact value is in --json
            delta = f"≈{float(report.claim.delta):.6g}"
        table.append((record["mechanism"], record["source"], claimed,
                      delta, epsilon_text(report), verdict))
        if report.verdict is Verdict.UNDECIDED:
            worst = EXIT_UNDECIDED if worst == EXIT_OK else worst
        elif report.verdict is not item.expect:
            # a violation, or a refuted printed claim that no longer fails: either way the
            # result contradicts what the ledger records
            worst = EXIT_VIOLATION
    for number, row in enumerate(predictions, len(items) + 1):
        if args.deep:
            _progress(args, number, total, row.label)
        found = row.run()
        rows.append(json_record(row, found))
        table.append(table_cells(row, found))
        if found.verdict is Verdict.VIOLATED:
            worst = EXIT_VIOLATION
        elif found.verdict is Verdict.UNDECIDED and worst == EXIT_OK:
            worst = EXIT_UNDECIDED
    elapsed = time.perf_counter() - start
    headers = ("mechanism", "source", "claimed eps", "claimed delta", "exact worst-case eps",
               "verdict")
    widths = [max(len(h), *(len(r[i]) for r in table)) if table else len(h)
              for i, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
    print(f"\n{len(table)} audits in {elapsed:.1f}s (privref {_version()}"
          f"{', deep' if args.deep else ''}); exact worst case over every neighboring pair"
          " (and, for predictors, every query point)")
    if args.json:
        write_json(args.json, {"privref_version": _version(), "deep": args.deep,
                                "results": rows}, flag="--json")
        print(f"wrote {args.json}")
    return worst


def _cmd_lemmas(args: argparse.Namespace) -> int:
    from privref.proofs.registry import all_entries
    from privref.proofs.runner import run_entry

    entries = all_entries()
    for text in args.id or ():
        if not text.strip():
            raise PrivrefError(f"--id {text!r} must be a non-empty part of a ledger id")
    if args.id:
        entries = tuple(e for e in entries if any(s in e.id for s in args.id))
        if not entries:
            raise PrivrefError(f"--id {args.id}: no ledger entry matches "
                               "(see 'privref lemmas' for the ids)")
    _check_outputs(("--json", args.json), ("--markdown", args.markdown),
                   ("--errata", args.errata), ("--paper-map", args.paper_map))
    records: list[dict[str, Any]] = []
    failures = 0
    memo: dict[int, Any] = {}
    for number, e in enumerate(entries, 1):
        record: dict[str, Any] = {
            "id": e.id, "paper": e.paper, "number": e.number, "step": e.step,
            "also": list(e.also), "kind": e.kind.value, "statement": e.statement,
            "status": e.status.value, "checks": [c.name for c in e.checks],
            "parameter_range": e.parameter_range, "counterexample": e.counterexample,
            "corrected": e.corrected, "reason": e.reason, "illustration": e.illustration,
            "confidence": None if e.confidence is None else str(e.confidence),
        }
        line = f"{e.status.value:13s} {e.id}"
        if args.check:
            _progress(args, number, len(entries), e.id)
            report = run_entry(e, memo)
            record["evidence"] = [{"check": o.check.name, "expected": o.check.expect.value,
                                   "verdict": o.result.verdict.value,
                                   "evidence": o.result.evidence, "witness": o.result.witness,
                                   "agrees": o.agrees} for o in report.outcomes]
            mark = "ok" if report.consistent else "CONTRADICTS STATUS"
            line = f"{mark:18s} {line}"
            if not report.consistent:
                failures += 1
                for o in report.outcomes:
                    if not o.agrees:
                        line += (f"\n      {o.check.name}: expected {o.check.expect.value}, got "
                                 f"{o.result.verdict.value}: {o.result.evidence}")
        else:
            record["evidence"] = None
        print(line)
        if args.verbose:
            print(f"      {e.statement}")
        records.append(record)
    counts: dict[str, int] = {}
    for e in entries:
        counts[e.status.value] = counts.get(e.status.value, 0) + 1
    print("\n" + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
          + f" ({len(entries)} entries)")
    if args.check:
        print("all checks agree with their recorded status" if failures == 0
              else f"{failures} entries contradict their recorded status")
    if args.json:
        write_json(args.json, {"privref_version": _version(), "entries": records},
                   flag="--json")
        print(f"wrote {args.json}")
    if args.markdown:
        from privref.proofs.report import ledger_markdown
        write_text_atomic(args.markdown, ledger_markdown(), flag="--markdown")
        print(f"wrote {args.markdown}")
    if args.errata:
        from privref.proofs.report import errata_markdown
        write_text_atomic(args.errata, errata_markdown(), flag="--errata")
        print(f"wrote {args.errata}")
    if args.paper_map:
        from privref.proofs.report import paper_map_markdown

        from .checkout import checkout_root
        root = checkout_root()
        tests = root / "tests" if root is not None else None  # the checkout's tests, if any
        write_text_atomic(args.paper_map, paper_map_markdown(tests), flag="--paper-map")
        print(f"wrote {args.paper_map}")
    return EXIT_VIOLATION if failures else EXIT_OK


def _wanted(argv: Sequence[str]) -> str | None:
    """The command named on the command line (its first word that is not an option), if any."""
    return next((a for a in argv if not a.startswith("-")), None)


def _parser(wanted: str | None) -> argparse.ArgumentParser:
    """The ``privref`` parser.  The options of blackbox-suite, learn, illustrate, experiments,
    table4 and account are declared only when ``wanted`` names that command (they come from
    modules that import plotting and learning libraries, which ``privref audit`` never needs);
    otherwise those commands keep only their name and description."""
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="privref", formatter_class=raw, epilog=EXIT_CODES,
        usage="%(prog)s [-h] [--version] COMMAND ...",
        description="Exact reference implementations of private learners, with auditors.\n\n"
                    + COMMANDS)
    parser.add_argument("--version", action="version", version=f"privref {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", help=argparse.SUPPRESS)

    def command(parent: Any, name: str, description: str) -> argparse.ArgumentParser:
        made: argparse.ArgumentParser = parent.add_parser(
            name.split()[-1], prog=f"privref {name}", formatter_class=raw, epilog=EXIT_CODES,
            description=description)
        return made

    quiet_help = "no progress lines on stderr"
    audit = command(
        sub, "audit",
        "Compute, for every built-in mechanism, the exact worst-case privacy loss over every\n"
        "neighboring pair of its universe and decide its claim soundly (HOLDS / VIOLATED /\n"
        "UNDECIDED).  'privref audit blackbox TARGET ...' audits any callable instead\n"
        "(see 'privref audit blackbox --help').")
    audit.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    audit.add_argument("--deep", action="store_true",
                       help="use larger universes (slower; one progress line per audit)")
    audit.add_argument("--only", metavar="NAME", action="append",
                       help="audit only mechanisms whose name contains NAME (repeatable)")
    audit.add_argument("--quiet", action="store_true", help=quiet_help)
    audit.set_defaults(func=_cmd_audit)
    audit_kinds = audit.add_subparsers(dest="audit_kind", metavar="KIND",
                                       help="blackbox: audit any callable by sampling")
    blackbox = command(
        audit_kinds, "audit blackbox",
        "Sample TARGET on neighboring inputs and report a lower bound on its privacy loss that\n"
        "holds at the stated confidence (VIOLATION when it exceeds the claim); see\n"
        "docs/blackbox.md.")
    blackbox_cli.configure_parser(blackbox)
    blackbox.set_defaults(func=blackbox_cli.run)
    suite = command(
        sub, "blackbox-suite",
        "Run every black-box audit listed in SUITE (TOML or JSON: targets, claims, pairs,\n"
        "samples, seeds and the expected verdict); one line per target; exit 0 when every\n"
        "verdict is the expected one, 1 otherwise, 2 on a bad suite file (docs/blackbox.md).")
    if wanted == "blackbox-suite":
        from . import blackbox_suite
        blackbox_suite.configure_parser(suite)
        suite.set_defaults(func=blackbox_suite.run)
    lemmas = command(
        sub, "lemmas",
        "Print every ledger entry with its status; --check runs every check (one progress\n"
        "line per entry on stderr) and exits 1 when a result contradicts its recorded status.")
    lemmas.add_argument("--check", action="store_true", help="run every check")
    lemmas.add_argument("--json", metavar="PATH", help="also write the ledger as JSON")
    lemmas.add_argument("--markdown", metavar="PATH", help="also write the ledger as Markdown")
    lemmas.add_argument("--errata", metavar="PATH", help="also write the errata as Markdown")
    lemmas.add_argument("--paper-map", metavar="PATH",
                        help="also write the map algorithm → function → ledger → tests")
    lemmas.add_argument("--id", metavar="TEXT", action="append",
                        help="only entries whose id contains TEXT (repeatable)")
    lemmas.add_argument("-v", "--verbose", action="store_true", help="print statements")
    lemmas.add_argument("--quiet", action="store_true", help=quiet_help)
    lemmas.set_defaults(func=_cmd_lemmas)
    learn = command(
        sub, "learn",
        "Run the private learners on thresholds, intervals and rectangles over X_d for growing\n"
        "d; print the empirical labeled and unlabeled sample complexities, and write a JSON\n"
        "table (--json) and a PNG plot (--png) when asked (see docs/learning.md).  One\n"
        "progress line per grid cell on stderr.")
    if wanted == "learn":
        from . import learning_cli
        learning_cli.configure_parser(learn)
        learn.add_argument("--quiet", action="store_true", help=quiet_help)
        learn.set_defaults(func=learning_cli.run)
    illustrate = command(
        sub, "illustrate",
        "littlestone: Ldim vs VC of thresholds; semiprivate: private sample size, fully\n"
        "private vs semi-private, as the domain grows; public: public sample size against\n"
        "alpha and the 1/alpha lower bound (see docs/public-data.md).  Prints the table;\n"
        "writes JSON (--json) and a PNG plot (--png) when asked.")
    if wanted == "illustrate":
        from . import illustrations
        illustrations.configure_parser(illustrate)
        illustrate.add_argument("--quiet", action="store_true", help=quiet_help)
        illustrate.set_defaults(func=illustrations.run)
    experiments = command(
        sub, "experiments",
        "Sample complexity of the prediction algorithms of paper 002 (Algorithms 1-3 and the\n"
        "baselines) on thresholds, intervals and unions of two intervals: exact losses given\n"
        "the draws, n* against alpha, JSON and PNG into --out (see\n"
        "docs/prediction-experiments.md).  One progress line per grid point on stderr.")
    if wanted == "experiments":
        from . import prediction_experiments
        prediction_experiments.configure_parser(experiments)
        experiments.add_argument("--quiet", action="store_true", help=quiet_help)
        experiments.set_defaults(func=prediction_experiments.run)
    table4 = command(
        sub, "table4",
        "001 Table 4's accuracy experiment on real data: PATE-PSQ and PATE-ASQ (Algorithms 3\n"
        "and 5 with Algorithm 1's Gaussian labels) and their non-private baselines on Mushroom\n"
        "and a9a from ../shared/data (or --data-dir; nothing is downloaded), ε in {1/2, 1, 2},\n"
        "30 seeded runs; accuracy, queries and the realized ε_ex_post beside the paper's\n"
        "figures; JSON, PNG and a docs page (see docs/pate-experiments.md).")
    if wanted == "table4":
        try:
            from . import pate_experiments
        except ImportError as exc:  # the realdata extra (scipy, scikit-learn) is not installed
            # its flags cannot be declared without the module: accept any, report the extra
            table4.set_defaults(func=functools.partial(_needs_extra, "realdata",
                                                       exc.name or str(exc)), missing_extra=True)
        else:
            pate_experiments.configure_parser(table4)
            table4.add_argument("--quiet", action="store_true", help=quiet_help)
            table4.set_defaults(func=pate_experiments.run)
    account = command(
        sub, "account",
        "Certified privacy accounting (see docs/accounting.md).  'privref account gaussian'\n"
        "calibrates sigma for Q sensitivity-1 Gaussian queries at (epsilon, delta) with the\n"
        "analytic Gaussian mechanism, and with --realized R the epsilon after R queries.")
    account_kinds = account.add_subparsers(dest="account_kind", metavar="KIND", required=True,
                                           help="gaussian: the analytic Gaussian mechanism")
    gaussian = command(
        account_kinds, "account gaussian",
        "Calibrate sigma for Q sensitivity-1 Gaussian queries at (epsilon, delta) (analytic\n"
        "Gaussian mechanism, Balle-Wang 2018) and, with --realized R, the epsilon at delta after\n"
        "R queries; both printed as proved enclosures [lower, upper].")
    if wanted == "account":
        from . import account_cli
        account_cli.configure_parser(gaussian)
        gaussian.set_defaults(func=account_cli.run, command="account gaussian")
    return parser


def _command_name(args: argparse.Namespace) -> str:
    name = str(getattr(args, "command", None) or "")
    if name == "audit" and getattr(args, "audit_kind", None):
        name += f" {args.audit_kind}"
    return f"privref {name}" if name else "privref"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``privref`` console script; returns the exit status.

    Guarantee: the status is one of :data:`EXIT_CODES` (130 on Ctrl-C); every failure ends in
    one stderr line ``privref CMD: error: MESSAGE`` (usage errors, OutputError) or ``privref
    CMD: internal error: TYPE: MESSAGE`` (anything unexpected), with a traceback only when
    the environment sets ``PRIVREF_DEBUG=1``.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    wanted = _wanted(argv)
    parser = _parser(wanted)
    try:
        args, unknown = parser.parse_known_args(argv)
        if unknown and not getattr(args, "missing_extra", False):
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    except SystemExit as exc:  # argparse: --help / --version (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_usage(sys.stderr)
        print("privref: error: a COMMAND is required (audit, audit blackbox, blackbox-suite, lemmas, learn, "
              "illustrate, experiments, table4, account gaussian); see 'privref --help'", file=sys.stderr)
        return EXIT_USAGE
    cmd = _command_name(args)
    debug = os.environ.get("PRIVREF_DEBUG") == "1"
    try:
        status: int = args.func(args)
        sys.stdout.flush()
    except OutputError as exc:
        if debug:
            traceback.print_exc()
        print(f"{cmd}: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_INTERNAL
    except PrivrefError as exc:
        if debug:
            traceback.print_exc()
        print(f"{cmd}: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{cmd}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of stdout went away (``privref lemmas | head``): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        print(f"{cmd}: error: standard output was closed early", file=sys.stderr)
        return EXIT_INTERNAL
    except Exception as exc:  # the last resort (MemoryError, RecursionError included)
        if debug:
            traceback.print_exc()
        print(f"{cmd}: internal error: {type(exc).__name__}: {_one_line(exc)}", file=sys.stderr)
        return EXIT_INTERNAL
    return status


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or "(no message)"


if __name__ == "__main__":
    sys.exit(main())
