"""Render docs/generated/benchmarks.json as the Markdown tables of docs/benchmarks.md.

Usage: python benchmarks/tables.py [docs/generated/benchmarks.json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def _fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds:.3g}"


def _esc(text: str) -> str:
    return text.replace("|", "\\|")


def _cell(rec: dict[str, Any] | None) -> str:
    if rec is None:
        return "-"
    if rec["status"] != "ok":
        return "not run"
    return _fmt(rec["seconds"])


def render(data: dict[str, Any]) -> str:
    """Markdown for the three series."""
    recs: list[dict[str, Any]] = data["records"]
    out: list[str] = []
    m = data["machine"]
    out += ["| | |", "|---|---|",
            f"| CPU | {m['cpu_model']}, {m['cpu_count']} vCPUs |",
            f"| Memory | {m['memory_gib']} GiB |",
            f"| OS | {m['platform']} |",
            f"| Python | {m['implementation']} {m['python']}, mpmath {m['mpmath']}, "
            f"numpy {m['numpy']} |",
            f"| Date | {m['date_utc']} |",
            f"| Code | commit `{m['git_commit'][:7]}` |",
            f"| Load average | {m['loadavg_start'][0]} at the start, {m['loadavg_end'][0]} at the end |",
            f"| Total wall time | {data['total_seconds']} s ({data['mode']} run) |", ""]

    def find(series: str, case: str, mech: str, value: int) -> dict[str, Any] | None:
        for r in recs:
            if (r["series"], r["case"], r["mechanism"], r["value"]) == (series, case, mech, value):
                return r
        return None

    out += ["### 1. |H| (n = 4), seconds", "",
            "| \\|H\\| | rational: distribution | rational: audit_pair | ε=1: distribution "
            "| ε=1: audit_pair |", "|---:|---:|---:|---:|---:|"]
    sizes = sorted({r["value"] for r in recs if r["series"] == "H"})
    for h in sizes:
        cells = [_cell(find("H", c, mech, h)) for mech in ("EM rational base 3/2",
                                                          "EM epsilon=1 (irrational)")
                 for c in ("distribution", "audit_pair")]
        out.append(f"| {h} | " + " | ".join(cells) + " |")
    out += ["", "### 2. n: one distribution and one audited pair, seconds", "",
            "| mechanism | n | paths (distribution) | distribution | audit_pair |",
            "|---|---:|---:|---:|---:|"]
    mechs = []
    for r in recs:
        if r["series"] == "n" and r["mechanism"] not in mechs:
            mechs.append(r["mechanism"])
    for mech in mechs:
        for n in sorted({r["value"] for r in recs if r["series"] == "n" and r["mechanism"] == mech}):
            d = find("n", "distribution", mech, n)
            a = find("n", "audit_pair", mech, n)
            paths = d["paths"] if d and d["paths"] else (d["note"] if d else "")
            out.append(f"| {_esc(mech)} | {n} | {paths} | {_cell(d)} | {_cell(a)} |")
    out += ["", "### 3. Universe: full audits", "",
            "| audit | size | pairs | seconds | µs / pair | verdict, exact ε |",
            "|---|---|---:|---:|---:|---|"]
    for r in recs:
        if r["series"] != "universe" or r["case"].startswith("universe verify"):
            continue
        if r["case"].startswith("verify"):
            continue
        us = r["extra"].get("us_per_pair") if r["extra"] else None
        pairs = r["pairs"] if r["pairs"] is not None else r["note"]
        out.append(f"| {r['case']} ({_esc(r['mechanism'])}) | {r['param']}={r['value']} | {pairs} | "
                   f"{_cell(r)} | {us if us else ''} | "
                   f"{(r['verdict'] or '') + (', ' + r['epsilon'] if r['epsilon'] else '')} |")
    verify = [r for r in recs if r["series"] == "universe" and "verify" in r["case"]]
    if verify:
        out += ["", "Time spent verifying declared order invariance (part of the sym=on audits):", "",
                "| audit | size | seconds |", "|---|---|---:|"]
        for r in verify:
            out.append(f"| {r['case']} | {r['param']}={r['value']} | {_cell(r)} |")
    return "\n".join(out) + "\n"


def main() -> None:
    """Print the tables for the given (or default) JSON file."""
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/generated/benchmarks.json")
    print(render(json.loads(path.read_text(encoding="utf-8"))))


if __name__ == "__main__":
    main()
