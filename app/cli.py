"""The ``privref`` command line: ``privref audit`` (exact audits) and ``privref lemmas`` (the ledger)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from privref import reference
from privref.audits.blackbox.report import write_json
from privref.reference.errors import PrivrefError

from . import blackbox_cli

__all__ = ["main"]


def _version() -> str:
    return reference.__version__


def _cmd_audit(args: argparse.Namespace) -> int:
    from privref.audits.exact import Verdict, audit, epsilon_text

    from .builtin import builtin_audits
    from .extra_builtin import EXTRA

    rows: list[dict[str, Any]] = []
    table: list[tuple[str, ...]] = []
    start = time.perf_counter()
    worst = 0
    for item in builtin_audits(deep=args.deep, extra=EXTRA):
        if args.only and not any(s.lower() in (item.label or item.mechanism.name).lower()
                                 for s in args.only):
            continue
        report = audit(item.mechanism, item.universe, claim=item.claim, distance=item.distance)
        record = report.to_json()
        record["mechanism"] = item.label or report.mechanism
        record["distance"] = item.distance
        rows.append(record)
        eps = report.claim.epsilon
        claimed = f"{float(eps):.6g}" + ("" if eps.exact is not None else f" = {eps}")
        table.append((record["mechanism"], report.source, claimed,
                      str(report.claim.delta), epsilon_text(report), report.verdict.value))
        if report.verdict is Verdict.VIOLATED:
            worst = max(worst, 1)
    elapsed = time.perf_counter() - start
    if not table:
        raise PrivrefError(f"--only {args.only}: no built-in mechanism matches")
    headers = ("mechanism", "source", "claimed eps", "claimed delta", "exact worst-case eps",
               "verdict")
    widths = [max(len(h), *(len(r[i]) for r in table)) if table else len(h)
              for i, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
    print(f"\n{len(table)} audits in {elapsed:.1f}s (privref {_version()}"
          f"{', deep' if args.deep else ''}); exact worst case over every neighboring pair")
    if args.json:
        write_json(args.json, {"privref_version": _version(), "deep": args.deep,
                                "results": rows})
        print(f"wrote {args.json}")
    return worst


def _cmd_lemmas(args: argparse.Namespace) -> int:
    from privref.proofs.registry import all_entries
    from privref.proofs.runner import run_entry

    entries = all_entries()
    if args.id:
        entries = tuple(e for e in entries if any(s in e.id for s in args.id))
        if not entries:
            raise PrivrefError(f"--id {args.id}: no ledger entry matches")
    records: list[dict[str, Any]] = []
    failures = 0
    memo: dict[int, Any] = {}
    for e in entries:
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
        write_json(args.json, {"privref_version": _version(), "entries": records})
        print(f"wrote {args.json}")
    if args.markdown:
        from privref.proofs.report import ledger_markdown
        target = Path(args.markdown)
        if not target.parent.exists():
            raise PrivrefError(f"--markdown {args.markdown}: directory {target.parent} "
                               "does not exist")
        target.write_text(ledger_markdown(), encoding="utf-8")
        print(f"wrote {args.markdown}")
    return 1 if failures else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="privref",
        description="Exact reference implementations of private learners, with auditors.")
    parser.add_argument("--version", action="version", version=f"privref {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    audit = sub.add_parser(
        "audit", help="exactly audit every built-in mechanism on its neighbor universe",
        description="Compute, for every built-in mechanism, the exact worst-case privacy loss "
                    "over every neighboring pair of its universe and decide its claim soundly "
                    "(HOLDS / VIOLATED / UNDECIDED).")
    audit.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    audit.add_argument("--deep", action="store_true", help="use larger universes")
    audit.add_argument("--only", metavar="NAME", action="append",
                       help="audit only mechanisms whose name contains NAME (repeatable)")
    audit.set_defaults(func=_cmd_audit)
    audit_kinds = audit.add_subparsers(dest="audit_kind", metavar="KIND")
    blackbox = audit_kinds.add_parser(
        "blackbox", help="Monte Carlo lower bound on the privacy loss of any callable",
        description="Sample TARGET on neighboring inputs and report a lower bound on its privacy "
                    "loss that holds at the stated confidence (VIOLATION when it exceeds the "
                    "claim); see docs/blackbox.md.")
    blackbox_cli.configure_parser(blackbox)
    blackbox.set_defaults(func=blackbox_cli.run)
    lemmas = sub.add_parser(
        "lemmas", help="print the lemma ledger (and run its checks with --check)",
        description="Print every ledger entry with its status; --check runs every check and "
                    "exits non-zero when a result contradicts its recorded status.")
    lemmas.add_argument("--check", action="store_true", help="run every check")
    lemmas.add_argument("--json", metavar="PATH", help="also write the ledger as JSON")
    lemmas.add_argument("--markdown", metavar="PATH", help="also write the ledger as Markdown")
    lemmas.add_argument("--id", metavar="TEXT", action="append",
                        help="only entries whose id contains TEXT (repeatable)")
    lemmas.add_argument("-v", "--verbose", action="store_true", help="print statements")
    lemmas.set_defaults(func=_cmd_lemmas)
    learn = sub.add_parser(
        "learn", help="learning-curve experiment: labeled/unlabeled sample complexity vs d",
        description="Run the private learners on thresholds, intervals and rectangles over "
                    "X_d for growing d; write a JSON table and a PNG plot of the empirical "
                    "labeled and unlabeled sample complexities (see docs/learning.md).")
    from . import learning_cli
    learning_cli.configure_parser(learn)
    learn.set_defaults(func=learning_cli.run)
    illustrate = sub.add_parser(
        "illustrate", help="illustrations of paper 003 (public data): JSON table and PNG plot",
        description="littlestone: Ldim vs VC of thresholds; semiprivate: private sample size, "
                    "fully private vs semi-private, as the domain grows; public: public sample "
                    "size against alpha and the 1/alpha lower bound (see docs/public-data.md).")
    from . import illustrations
    illustrations.configure_parser(illustrate)
    illustrate.set_defaults(func=illustrations.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``privref`` console script; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        status: int = args.func(args)
    except PrivrefError as exc:
        print(f"privref {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"privref {args.command}: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
