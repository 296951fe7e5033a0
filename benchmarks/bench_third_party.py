"""Black-box verdicts on every registered OpenDP / diffprivlib target (a benchmark, not a test).

Usage (from the repository root)::

    python benchmarks/bench_third_party.py [--samples 50000] [--seed 7]

Runs :func:`privref.audits.blackbox.runner.run_audit` on every registered third-party
target with the library's own claim and the recommended pairs (confidence
0.95; 1 - 10^-6 for OpenDP, which cannot be seeded), once by default and, for
targets with float outcomes, once more in the real-arithmetic view
(``float_events=False``).  Prints the markdown table of
docs/blackbox-third-party.md ("Measured verdicts").  Nothing here asserts; the
regression check is tests/audits/blackbox/test_third_party_verdicts.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from privref.audits.blackbox.adapters import ThirdPartyTarget, third_party_targets  # noqa: E402
from privref.audits.blackbox.runner import AuditConfig, run_audit  # noqa: E402
from privref.audits.blackbox.target import load_target  # noqa: E402


def _row(t: ThirdPartyTarget, samples: int, seed: int, float_events: bool) -> str:
    confidence = Fraction(999999, 1000000) if t.uses_own_randomness else Fraction(95, 100)
    config = AuditConfig(epsilon=t.claim.epsilon, delta=t.claim.delta, confidence=confidence,
                         samples=samples, seed=seed, workers=1, float_events=float_events)
    start = time.perf_counter()
    report = run_audit(load_target(t.name), config, [(tuple(a), tuple(b)) for a, b in t.json_pairs])
    seconds = time.perf_counter() - start
    assert report.verdict is not None
    view = "default" if float_events else "real arithmetic"
    status = ("yes" if t.private_as_implemented else
              "no (float leak)" if t.correct else "no (misconfigured)")
    event = "" if report.witness is None else report.witness.estimate.event
    kind = "IEEE-754 pattern" if "as a double in" in event else "value"
    return (f"| {t.name} | {status} | {view} | {float(t.claim.epsilon):.4g} | "
            f"{float(t.true_epsilon):.4g} | {report.epsilon_lower_bound:.3f} | {kind} | "
            f"{report.verdict.name} | {seconds:.1f} s |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    print("| target | private as implemented | view | claimed ε | true ε (real arithmetic) "
          "| ε lower bound | witness event | verdict | time |")
    print("|---|---|---|---:|---:|---:|---|---|---:|")
    for t in third_party_targets():
        print(_row(t, args.samples, args.seed, True), flush=True)
        if t.outcome_type is float:
            print(_row(t, args.samples, args.seed, False), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
