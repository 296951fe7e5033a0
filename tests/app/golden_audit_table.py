"""The golden audit table: every built-in row of ``privref audit``, its exact worst case pinned.

Each row pins its verdict, its claim (exact strings) and its worst-case loss: the exact value
when the auditor knows it (``epsilon_exact``, ``gamma_exact``), and always an enclosure
rounded outward to 15 significant digits (for the Rényi rows: ρ*, μ* and D_α at every
order).  ``test_golden_audit_table.py`` recomputes every row and requires the same verdict
and exact values, and a new enclosure inside the pinned one; a loss that moves by more than
about 10^-15 (relative) fails.

Regenerating the table is a reviewed act: run

    python -m tests.app.golden_audit_table --write

and review the diff of ``tests/app/golden_audit_table.json`` like code.
"""

from __future__ import annotations

import argparse
import json
import math
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from privref.app.suites.builtin import builtin_audits
from privref.app.suites.prediction import prediction_audits
from privref.app.suites.renyi import renyi_audits
from privref.audits.exact import audit

GOLDEN = Path(__file__).with_name("golden_audit_table.json")
DIGITS = 15


def outward(lo: Fraction, hi: Fraction | None) -> list[str | None]:
    """[lo, hi] rounded outward to DIGITS significant digits, as exact decimal strings."""
    def one(x: Fraction, up: bool) -> str:
        if x == 0:
            return "0"
        k = DIGITS - 1 - math.floor(math.log10(abs(float(x))))
        scaled = x * Fraction(10) ** k
        n = math.ceil(scaled) if up else math.floor(scaled)
        return str(Decimal(n).scaleb(-k))
    return [one(lo, False), None if hi is None else one(hi, True)]


def rows() -> list[dict[str, Any]]:
    """Every default row of ``privref audit``, in its order, as pinned values."""
    out: list[dict[str, Any]] = []
    for item in builtin_audits():
        report = audit(item.mechanism, item.universe, claim=item.claim, distance=item.distance)
        out.append({
            "mechanism": item.label or report.mechanism, "distance": item.distance,
            "claimed_epsilon": str(report.claim.epsilon), "claimed_delta": str(report.claim.delta),
            "verdict": report.verdict.value,
            "epsilon_exact": None if report.epsilon_exact is None else str(report.epsilon_exact),
            "epsilon_infinite": report.epsilon_infinite,
            "epsilon": outward(report.epsilon_lower, report.epsilon_upper)})
    for row in prediction_audits(False):
        found = row.run()
        out.append({
            "mechanism": row.label, "claim": str(found.claim), "verdict": found.verdict.value,
            "epsilon_exact": None if found.epsilon_exact is None else str(found.epsilon_exact),
            "epsilon_infinite": found.epsilon_infinite,
            "epsilon": outward(found.epsilon_lower, found.epsilon_upper),
            "gamma_exact": None if found.gamma_exact is None else str(found.gamma_exact),
            "gamma": outward(found.gamma_lower, found.gamma_upper)})
    for renyi_row in renyi_audits(False):
        decided, curves = renyi_row.run()
        assert curves.mu is not None
        out.append({
            "mechanism": renyi_row.label, "claim": str(decided.claim),
            "verdict": decided.verdict.value,
            "rho": outward(decided.rho.lower, decided.rho.upper),
            "mu": outward(curves.mu.lower, curves.mu.upper),
            **{f"renyi_{alpha}": outward(value.lower, value.upper)
               for alpha, value in curves.renyi}})
    return out


def main() -> int:
    """``--write`` regenerates the pinned table; without it, print the current rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {GOLDEN.name}")
    args = parser.parse_args()
    text = json.dumps({"rows": rows()}, indent=1, ensure_ascii=False) + "\n"
    if args.write:
        GOLDEN.write_text(text, encoding="utf-8")
        print(f"wrote {GOLDEN}; review its diff before committing")
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
