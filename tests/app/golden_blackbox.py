"""The golden black-box runs: seeded ``privref audit blackbox`` runs whose figures may not move unreviewed.

Each case is a command line of ``privref audit blackbox`` with a fixed seed and one worker (the
sampling streams depend on the worker count).  OpenDP's targets are not among them: OpenDP draws
from its own system randomness, not from the seeded generator, so their runs do not repeat.  Each
case's decisive JSON fields (verdict, lower bound, witness pair, event, counts, δ interval,
real-arithmetic view) are pinned in ``golden_blackbox.json``; ``test_golden_blackbox.py`` reruns
every case and requires the same fields, exactly.  The pinned file was first written by the code
before the renovation of issue 31 (commit ab87629), so a restructuring that moves a figure fails
here.

Regenerating the file is a reviewed act: run

    python -m tests.app.golden_blackbox --write

and review the diff of ``tests/app/golden_blackbox.json`` like code.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).with_name("golden_blackbox.json")
TARGET = str(Path(__file__).with_name("golden_rr.py")) + ":rr"
CASES: dict[str, list[str]] = {
    "rr, fixed pair, pooled bound": [
        TARGET, "--epsilon", "1/2", "--pair", "[0]", "[1]", "--samples", "20000", "--seed", "1",
        "--relation", "substitution"],
    "rr, pair search": [
        TARGET, "--epsilon", "1", "--samples", "20000", "--seed", "6", "--relation", "substitution",
        "--sizes", "[1, 2]", "--elements", "[0, 1]"],
    "diffprivlib count-laplace, float leak": [
        "diffprivlib:count-laplace", "--samples", "20000", "--seed", "4"],
    "diffprivlib misconfigured sum": [
        "diffprivlib:sum-laplace-misconfigured", "--samples", "20000", "--seed", "5"],
}
FIELDS = ("status", "verdict", "epsilon_lower_bound", "pair", "event", "direction", "counts",
          "delta_at_claimed_epsilon", "candidates_tried", "float_leak", "real_epsilon_lower_bound",
          "claimed_epsilon_exact", "claimed_delta_exact", "relation")


def run_case(args: list[str]) -> dict[str, Any]:
    """The pinned fields of one case's JSON report (run as ``python -m privref`` in a subprocess)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        done = subprocess.run(
            [sys.executable, "-m", "privref", "audit", "blackbox", *args, "--workers", "1",
             "--quiet", "--json", str(out)],
            capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONHASHSEED": "0"})
        if done.returncode not in (0, 1) or not out.exists():
            raise RuntimeError(f"privref audit blackbox {args} exited {done.returncode}: {done.stderr}")
        report = json.loads(out.read_text(encoding="utf-8"))
    return {field: report[field] for field in FIELDS}


def rows() -> dict[str, dict[str, Any]]:
    """Every case's pinned fields, by case name."""
    return {name: run_case(args) for name, args in CASES.items()}


def main() -> None:
    """``--write`` rewrites golden_blackbox.json from the current code (a reviewed act)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help="rewrite golden_blackbox.json")
    if parser.parse_args().write:
        GOLDEN.write_text(json.dumps({"cases": rows()}, indent=1, sort_keys=True) + "\n",
                          encoding="utf-8")
        print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
