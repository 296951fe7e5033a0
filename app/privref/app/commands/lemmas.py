"""``privref lemmas``: print the lemma ledger (:mod:`privref.proofs`), run its checks with ``--check``
and write it as JSON or Markdown (with the errata and the paper map) when asked.
"""

from __future__ import annotations

import argparse
from typing import Any

from privref import reference
from privref.reference.errors import PrivrefError

from ..reports.output import check_output_path, write_json, write_text_atomic
from .exit_codes import EXIT_OK, EXIT_VIOLATION
from .progress import progress

__all__ = ["configure_parser", "run"]


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``lemmas`` arguments (``--quiet`` is added by :mod:`.cli`)."""
    parser.add_argument("--check", action="store_true", help="run every check")
    parser.add_argument("--json", metavar="PATH", help="also write the ledger as JSON")
    parser.add_argument("--markdown", metavar="PATH", help="also write the ledger as Markdown")
    parser.add_argument("--errata", metavar="PATH", help="also write the errata as Markdown")
    parser.add_argument("--paper-map", metavar="PATH",
                        help="also write the map algorithm → function → ledger → tests")
    parser.add_argument("--halved", metavar="PATH",
                        help="also run each check with its constant halved and write the "
                             "report as Markdown (slow: runs the checks again); a check that "
                             "still passes and is not reviewed makes the exit status 1")
    parser.add_argument("--id", metavar="TEXT", action="append",
                        help="only entries whose id contains TEXT (repeatable)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print statements")


def run(args: argparse.Namespace) -> int:
    """Run ``privref lemmas``: print the ledger (run its checks with ``--check``); exit status
    :data:`~.exit_codes.EXIT_VIOLATION` when a check contradicts its entry's recorded status."""
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
    for flag, path in (("--json", args.json), ("--markdown", args.markdown),
                       ("--errata", args.errata), ("--paper-map", args.paper_map),
                       ("--halved", args.halved)):
        if path is not None:
            check_output_path(flag, path)
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
            progress(args, number, len(entries), e.id)
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
        write_json(args.json, {"privref_version": reference.__version__, "entries": records},
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

        from ..checkout import checkout_root
        root = checkout_root()
        tests = root / "tests" if root is not None else None  # the checkout's tests, if any
        write_text_atomic(args.paper_map, paper_map_markdown(tests), flag="--paper-map")
        print(f"wrote {args.paper_map}")
    if args.halved:
        from privref.proofs.halving import halving_markdown, halving_report
        halving = halving_report(entries)
        write_text_atomic(args.halved, halving_markdown(halving, len(entries)), flag="--halved")
        print(f"wrote {args.halved}: {len(halving.outcomes)} checks run with a halved constant, "
              f"{len(halving.still_pass)} still pass ({len(halving.unreviewed)} not reviewed)")
        failures += len(halving.unreviewed)
    return EXIT_VIOLATION if failures else EXIT_OK
