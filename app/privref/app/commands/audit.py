"""``privref audit``: exactly audit every built-in row (:mod:`privref.app.suites`) and print the table.

Each row's exact worst-case privacy loss over every neighboring pair of its universe (and, for the
predictors, every query point) decides its claim: HOLDS, VIOLATED or UNDECIDED.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from privref import reference
from privref.reference.errors import PrivrefError

from ..reports.output import check_output_path, write_json
from .exit_codes import EXIT_OK, EXIT_UNDECIDED, EXIT_VIOLATION
from .progress import progress

__all__ = ["configure_parser", "run"]


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``audit`` arguments (``--quiet`` is added by :mod:`.cli`)."""
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--deep", action="store_true",
                        help="use larger universes (slower; one progress line per audit)")
    parser.add_argument("--only", metavar="NAME", action="append",
                        help="audit only mechanisms whose name contains NAME (repeatable)")
    parser.add_argument("--curves", action="store_true",
                        help="also compute each mechanism row's exact worst-case curves: the "
                             "profile delta(eps) at eps in {0, 1/4, 1/2, 1, 2}, Gaussian-DP mu, "
                             "the Renyi curve, D_inf and zCDP rho (a second table; 'curves' in "
                             "--json; about 2 minutes for every row)")


CURVE_EPSILONS = (0, "1/4", "1/2", 1, 2)
"""The ε grid of ``privref audit --curves``' profiles."""


def _curves_of(item: Any) -> tuple[dict[str, Any], tuple[str, str, str, str]]:
    """The exact curves of one mechanism row (profile only when its outputs are continuous):
    its JSON record and its cells in the curves table (μ*, ρ*, D_∞)."""
    from privref.audits.curves import exact_curves
    from privref.reference.errors import UnsupportedProgram

    try:
        found = exact_curves(item.mechanism, item.universe, epsilons=CURVE_EPSILONS)
    except UnsupportedProgram:
        found = exact_curves(item.mechanism, item.universe, epsilons=CURVE_EPSILONS, orders=(),
                             mu=False, rho=False)
    mu, rho, top = ("n/a (continuous output)" if v is None else v.text()
                    for v in (found.mu, found.rho, found.renyi_infinity))
    return found.to_json(), (item.label or item.mechanism.name, mu, rho, top)


def _print_table(headers: tuple[str, ...], table: Sequence[tuple[str, ...]], lead: str = ""
                 ) -> None:
    widths = [max(len(h), *(len(r[i]) for r in table)) if table else len(h)
              for i, h in enumerate(headers)]
    print(lead + "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))


def run(args: argparse.Namespace) -> int:
    """Run ``privref audit``: print the table of every selected built-in row; its exit status
    (:data:`~.exit_codes.EXIT_OK`, :data:`~.exit_codes.EXIT_VIOLATION` or
    :data:`~.exit_codes.EXIT_UNDECIDED`, see :mod:`.exit_codes`)."""
    from privref.audits.exact import Verdict, audit, epsilon_text

    from ..suites import renyi as renyi_suite
    from ..suites.builtin import builtin_audits
    from ..suites.prediction import json_record, prediction_audits, table_cells

    for name in args.only or ():
        if not name.strip():
            raise PrivrefError(f"--only {name!r} must be a non-empty part of a mechanism name")
    if args.json is not None:
        check_output_path("--json", args.json)
    rows: list[dict[str, Any]] = []
    table: list[tuple[str, ...]] = []
    start = time.perf_counter()
    worst = EXIT_OK
    def wanted(name: str) -> bool:
        return not args.only or any(s.lower() in name.lower() for s in args.only)

    items = [item for item in builtin_audits(deep=args.deep)
             if wanted(item.label or item.mechanism.name)]
    predictions = [row for row in prediction_audits(args.deep) if wanted(row.label)]
    renyis = [row for row in renyi_suite.renyi_audits(args.deep) if wanted(row.label)]
    if not items and not predictions and not renyis:
        known = ", ".join(sorted({i.label or i.mechanism.name
                                  for i in builtin_audits(deep=args.deep)}
                                 | {row.label for row in prediction_audits(args.deep)}
                                 | {row.label for row in renyi_suite.renyi_audits(args.deep)}))
        raise PrivrefError(f"--only {args.only}: no built-in mechanism matches; known: {known}")
    total = len(items) + len(predictions) + len(renyis)
    curve_table: list[tuple[str, str, str, str]] = []
    for number, item in enumerate(items, 1):
        if args.deep:
            progress(args, number, total, item.label or item.mechanism.name)
        report = audit(item.mechanism, item.universe, claim=item.claim, distance=item.distance)
        record = report.to_json()
        if args.curves and item.distance == 1:
            record["curves"], cells = _curves_of(item)
            curve_table.append(cells)
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
            progress(args, number, total, row.label)
        found = row.run()
        rows.append(json_record(row, found))
        table.append(table_cells(row, found))
        if found.verdict is Verdict.VIOLATED:
            worst = EXIT_VIOLATION
        elif found.verdict is Verdict.UNDECIDED and worst == EXIT_OK:
            worst = EXIT_UNDECIDED
    for number, renyi_row in enumerate(renyis, len(items) + len(predictions) + 1):
        if args.deep:
            progress(args, number, total, renyi_row.label)
        decided, curves = renyi_row.run()
        rows.append(renyi_suite.json_record(renyi_row, decided, curves))
        table.append(renyi_suite.table_cells(renyi_row, decided))
        if decided.verdict is Verdict.VIOLATED:
            worst = EXIT_VIOLATION
        elif decided.verdict is Verdict.UNDECIDED and worst == EXIT_OK:
            worst = EXIT_UNDECIDED
    elapsed = time.perf_counter() - start
    _print_table(("mechanism", "source", "claimed eps", "claimed delta", "exact worst-case eps",
                  "verdict"), table)
    if curve_table:
        _print_table(("mechanism", "exact worst-case mu (GDP)", "rho (zCDP)", "D_inf (pure eps)"),
                     curve_table, lead="\n")
    print(f"\n{len(table)} audits in {elapsed:.1f}s (privref {reference.__version__}"
          f"{', deep' if args.deep else ''}); exact worst case over every neighboring pair"
          " (and, for predictors, every query point; Renyi rows: every order alpha > 1)")
    if args.json:
        write_json(args.json, {"privref_version": reference.__version__, "deep": args.deep,
                                "results": rows}, flag="--json")
        print(f"wrote {args.json}")
    return worst
