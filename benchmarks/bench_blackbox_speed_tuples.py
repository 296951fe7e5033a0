"""Wall time of whole black-box audits on tuple outputs and of pair searches (issue 13, item 8).

Usage (from the repository root)::

    python benchmarks/bench_blackbox_speed_tuples.py [--n 2.2e6] [--workers 2] [--json PATH]

Cases (DP-Sniper's benchmark mechanisms from validation.zoo_dpsniper, vectorized
samplers, claim ε = 1/10, confidence 0.9):

* ``svt1-audit``: SparseVectorTechnique1 (10-coordinate tuple outputs) on its first pair,
  N samples per side (the issue measured 16-36 s for 4.4·10^6 draws);
* ``noisyhist2-search`` and ``svt5-search``: the audit over all of DP-Sniper's input pairs
  for the mechanism (screening every pair, confirming the best 3), N samples per side for the
  confirmed pairs.

For each case: the wall time, the time spent choosing events on selection splits
(``plan_views``; the rest is sampling and counting), and the bound.  The same script runs on an
older checkout (``--legacy``: no ``plan_views`` to time) for a before/after comparison on the
same machine.  Nothing asserts; timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CASES = {"svt1-audit": ("dpsniper_svt1", False), "noisyhist2-search": ("dpsniper_noisy_hist2", True),
         "svt5-search": ("dpsniper_svt5", True)}


def run(case: str, n: int, workers: int, legacy: bool) -> dict[str, Any]:
    """One timed audit."""
    from privref.audits.blackbox import runner
    from privref.audits.blackbox.runner import AuditConfig, run_audit
    from privref.audits.blackbox.target import target_from_callable
    from privref.reference.reals import rational
    from validation.zoo_dpsniper import dpsniper_entries

    name, search = CASES[case]
    entry = next(e for e in dpsniper_entries() if e.name == name)
    assert entry.vectorized is not None
    target = target_from_callable(entry.vectorized, name)
    given = list(entry.pairs) if search else [entry.pairs[0]]
    pairs = [(tuple(a), tuple(b)) for a, b in given]
    planning = [0.0]
    if not legacy:
        real_plan = runner.plan_views  # type: ignore[attr-defined]

        def timed(*args: Any, **kw: Any) -> Any:
            start = time.perf_counter()
            try:
                return real_plan(*args, **kw)
            finally:
                planning[0] += time.perf_counter() - start

        runner.plan_views = timed  # type: ignore[attr-defined]
    config = AuditConfig(epsilon=rational(Fraction(1, 10)), samples=n, seed=0, workers=workers,
                         confidence=Fraction(9, 10), relation="linf")
    start = time.perf_counter()
    report = run_audit(target, config, pairs)
    wall = time.perf_counter() - start
    return {"case": case, "samples_per_side": n, "pairs": len(pairs), "workers": workers,
            "wall_seconds": round(wall, 2),
            "selection_seconds": None if legacy else round(planning[0], 2),
            "bound": report.epsilon_lower_bound,
            "real_bound": getattr(report, "real_epsilon_lower_bound", None),
            "cpus_busy_before": os.getloadavg()[0]}


def main() -> None:
    """Run every case and print (and optionally save) one JSON line per case."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", default="2.2e6")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--legacy", action="store_true")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=ROOT).stdout.strip()
    path = None if args.json is None else Path(args.json)
    rows: list[dict[str, Any]] = ([] if path is None or not path.exists()
                                  else json.loads(path.read_text()))
    for case in args.cases.split(","):
        row = run(case, int(float(args.n)), args.workers, args.legacy)
        row["commit"] = commit
        row["date"] = datetime.date.today().isoformat()
        print(json.dumps(row), flush=True)
        rows = [r for r in rows if not (r["case"] == case and r["commit"] == commit
                                        and r["samples_per_side"] == row["samples_per_side"])]
        rows.append(row)
        if path is not None:
            path.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
