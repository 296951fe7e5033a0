"""Validation of the black-box pair estimator against exact ground truth (a benchmark, not a test).

Usage (from the repository root)::

    python benchmarks/bench_blackbox_validation.py [--quick] [--confidence 0.95] [--out FILE.json]

For each built-in mechanism with an exact law (randomized response keep 3/4,
the rational-base exponential mechanism over counts 0..2 with base 3/2, the
geometric mechanism alpha = 1/2 on (0,) vs (1,)), each N in 10^3, 10^4, 10^5
samples per side and many fixed seeds, :func:`validation.oracle.coverage_experiment`
reports:

* exceedances: runs whose bound is proved above the exact epsilon (must be
  rare: at most alpha on average), and violations of the mechanism's own claim
  (false alarms);
* event exceedances and bound failures: the reported event's bound ratio
  above its own true ratio, and failures of its two held-out bounds;
* tightness: the median bound over the exact epsilon and over the oracle bound.

Null mechanisms (randomized response keep 1/2 with its exact law, and
numpy null samplers for floats and vectors) give the false-alarm rate at a
tiny positive claim.  RR and the exponential mechanism are sampled with the
exact vectorized law sampler; the geometric mechanism with ``Mechanism.sample``.
Nothing here asserts; the figures go in docs/blackbox-statistics.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from privref.audits.blackbox.estimate import estimate_pair  # noqa: E402
from privref.reference.exponential import count_score, exponential_mechanism  # noqa: E402
from privref.reference.geometric import geometric_mechanism  # noqa: E402
from privref.reference.randomized_response import randomized_response  # noqa: E402
from validation.oracle import coverage_experiment  # noqa: E402

CASES: list[tuple[str, Any, Literal["mechanism", "law"], Fraction]] = [
    ("randomized response 3/4", randomized_response(Fraction(3, 4)), "law", Fraction(0)),
    ("randomized response 3/4, delta 1/20", randomized_response(Fraction(3, 4)), "law",
     Fraction(1, 20)),
    ("exponential, base 3/2, counts 0..2",
     exponential_mechanism(range(3), count_score, epsilon="2*ln(3/2)"), "law", Fraction(0)),
    ("geometric 1/2", geometric_mechanism("1/2"), "mechanism", Fraction(0)),
    ("null: randomized response 1/2", randomized_response(Fraction(1, 2)), "law", Fraction(0)),
]


def runs_for(n: int, quick: bool) -> int:
    """Seeds per (case, N): fewer at larger N (each run costs more)."""
    if quick:
        return 20
    return {1000: 200, 10_000: 100, 100_000: 40}[n]


def main() -> None:
    """Run every case and print a Markdown table (and optionally write JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 seeds, N <= 10^4")
    parser.add_argument("--confidence", type=Fraction, default=Fraction(95, 100))
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    alpha = 1 - args.confidence
    sizes = [1000, 10_000] if args.quick else [1000, 10_000, 100_000]
    rows: list[dict[str, Any]] = []
    print("| case | N | runs | exceed | event exceed | bound failures | false alarms | median bound "
          "| exact eps | oracle | median/exact | median/oracle | s/run |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, mech, sampling, delta in CASES:
        for n in sizes:
            runs = runs_for(n, args.quick)
            start = time.perf_counter()
            null = name.startswith("null")
            r = coverage_experiment(mech, (0,), (1,), n=n, seeds=range(runs), alpha=alpha,
                                    delta=delta, sampling=sampling,
                                    epsilon=Fraction(1, 100) if null else None)
            per_run = (time.perf_counter() - start) / runs
            oracle = r.oracle.epsilon_lower_bound if r.oracle is not None else 0.0
            row = {"case": name, "n": n, "runs": runs, "alpha": str(alpha),
                   "exceedances": r.exceedances, "event_exceedances": r.event_exceedances,
                   "bound_failures": r.bound_failures, "false_alarms": r.violations,
                   "median_bound": r.median_bound(), "exact": r.exact.value(), "oracle": oracle,
                   "tightness_exact": r.tightness_vs_exact(),
                   "tightness_oracle": r.tightness_vs_oracle(),
                   "p10_bound": statistics.quantiles(r.bounds, n=10)[0], "seconds_per_run": per_run}
            rows.append(row)
            print(f"| {name} | {n} | {runs} | {r.exceedances} | {r.event_exceedances} | "
                  f"{r.bound_failures} | {r.violations} | {r.median_bound():.4f} | "
                  f"{r.exact.value():.4f} | {oracle:.4f} | {r.tightness_vs_exact():.3f} | "
                  f"{r.tightness_vs_oracle():.3f} | {per_run:.3f} |", flush=True)
    draws: tuple[tuple[str, Callable[[np.random.Generator, int], np.ndarray]], ...] = (
        ("null: numpy normal floats", lambda g, k: g.normal(size=k)),
        ("null: numpy normal 3-vectors", lambda g, k: g.normal(size=(k, 3))))
    for label, draw in draws:
        for n in sizes:
            runs = runs_for(n, args.quick)
            positive = alarms = 0
            for seed in range(runs):
                g = np.random.default_rng(seed)
                est = estimate_pair(draw(g, n), draw(g, n), epsilon=Fraction(1, 100), delta=0,
                                    alpha=alpha)
                positive += est.epsilon_lower_bound > 0
                alarms += est.violation
            rows.append({"case": label, "n": n, "runs": runs, "positive_bounds": positive,
                         "false_alarms": alarms})
            print(f"| {label} | {n} | {runs} | {positive} | – | – | {alarms} | – | 0 | – | – | – | – |",
                  flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
