"""The smallest overclaim of a Gaussian mechanism at δ = 10⁻³ that the black-box auditor flags (issue 13).

Usage (from the repository root)::

    python benchmarks/bench_gaussian_delta.py [--budgets 1e6,1e7] [--overclaims 0.05,0.08,...]
        [--seeds 0,1,2,3,4] [--modes before,after] [--json /tmp/gaussian_delta.json]

Setting: the Gaussian mechanism of sensitivity 1 on the pair (0,) vs (1,), claimed (1, 10⁻³)-DP
(ε_claim = 1).  For an overclaim x its noise σ is ``accounting.calibrate_sigma(1, 1 + x, 10⁻³).hi``
(its exact ε at δ = 10⁻³ is (1 + x)·ε_claim, to 2⁻³⁰ relative, proved by the analytic Gaussian
accountant).  Each point is one ``run_audit`` (the code behind ``privref blackbox``) with
``float_events=False`` (the real-arithmetic view: floating-point patterns would flag every σ),
confidence 0.95 and N samples per side: N/2 select the event, N/2 are held out (N <= 2·2^20;
above, the selection split is capped at 2^20 and the rest is held out).

Modes: ``after`` is the auditor as it is; ``before`` removes the tail cut points around δ
(``pools.tail_cuts`` replaced by a function returning no cut, which restores the candidate
set of the 64 quantile cuts exactly; in-process only, so ``workers`` stays 1).

Oracle: the bound the estimator would reach with the best threshold event known in advance and
expected counts (one-sided Clopper–Pearson bounds at α/2 = 0.025 each, the estimator's split for
one event): max over c of ln((P_lo − δ)/Q_hi), for all N draws held out and for the N − s held out
here.  Floats (scipy): figures, never verdicts.

Nothing here asserts; the audits are deterministic given the seeds.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from privref.audits.blackbox import pools  # noqa: E402
from privref.audits.blackbox.estimate import selection_sizes  # noqa: E402
from privref.audits.blackbox.runner import DEFAULT_SELECTION_CAP, AuditConfig, run_audit  # noqa: E402
from privref.audits.blackbox.target import target_from_callable  # noqa: E402
from privref.reference.accounting import calibrate_sigma  # noqa: E402
from privref.reference.reals import rational  # noqa: E402

DELTA = Fraction(1, 1000)
CLAIM = 1
CONFIDENCE = Fraction(95, 100)
OVERCLAIMS = (0.05, 0.08, 0.11, 0.13, 0.15, 0.18, 0.2, 0.25, 0.3, 0.4)


class Gaussian:
    """sum(data) + N(0, σ²), vectorized (picklable: a module-level class)."""

    privref_vectorized = True

    def __init__(self, sigma: float) -> None:
        self.sigma = sigma

    def __call__(self, data: list[float], rng: np.random.Generator, size: int) -> np.ndarray:
        return float(sum(data)) + rng.normal(0.0, self.sigma, size)


def sigma_for(overclaim: float) -> float:
    """σ whose exact ε at δ = 10⁻³ is (1 + overclaim)·ε_claim (the safe end of the bracket)."""
    eps = Fraction(CLAIM) * (1 + Fraction(overclaim).limit_denominator(10**6))
    return float(calibrate_sigma(1, eps, DELTA).hi)


def oracle(sigma: float, held: int, alpha_side: float = 0.025) -> float:
    """max_c ln((P_lo − δ)/Q_hi) for the event {x <= c} with expected counts (module doc)."""
    from scipy.stats import beta, norm

    best = -math.inf
    d = float(DELTA)
    for c in np.linspace(-8.0 * sigma, 0.0, 4000):
        p, q = norm.cdf(c / sigma), norm.cdf((c - 1.0) / sigma)
        kp, kq = p * held, q * held
        if kp < 1:
            continue
        p_lo = beta.ppf(alpha_side, kp, held - kp + 1)
        q_hi = beta.ppf(1 - alpha_side, kq + 1, held - kq)
        if p_lo > d:
            best = max(best, math.log((p_lo - d) / q_hi))
    return best


def audit(sigma: float, samples: int, seed: int) -> tuple[str, float, str, float]:
    """(verdict, ε lower bound, event, seconds) of one run_audit."""
    config = AuditConfig(epsilon=rational(CLAIM), delta=DELTA, samples=samples,
                         confidence=CONFIDENCE, float_events=False, seed=seed)
    start = time.perf_counter()
    report = run_audit(target_from_callable(Gaussian(sigma), "gaussian"), config,
                       [((0,), (1,))])
    pair = report.pairs[0]
    verdict = "none" if report.verdict is None else report.verdict.value
    return (verdict, report.epsilon_lower_bound, str(pair.estimate.event),
            time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="1e6,1e7")
    parser.add_argument("--overclaims", default=",".join(str(x) for x in OVERCLAIMS))
    parser.add_argument("--seeds", default="0,1,2,3,4")
    parser.add_argument("--modes", default="before,after")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    budgets = [int(float(b)) for b in args.budgets.split(",")]
    overclaims = [float(x) for x in args.overclaims.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]
    modes = args.modes.split(",")
    real_tail_cuts = getattr(pools, "tail_cuts")  # noqa: B009 (replaced below, in-process)
    rows: list[dict[str, Any]] = []
    for mode in modes:
        setattr(pools, "tail_cuts", real_tail_cuts if mode == "after"  # noqa: B010
                else lambda values, delta, exponents=(): np.empty(0))
        for n in budgets:
            for x in overclaims:
                sigma = sigma_for(x)
                for seed in seeds:
                    verdict, bound, event, seconds = audit(sigma, n, seed)
                    rows.append({"mode": mode, "samples": n, "overclaim": x, "sigma": sigma,
                                 "seed": seed, "verdict": verdict, "bound": bound,
                                 "event": event, "seconds": round(seconds, 2)})
                    print(json.dumps(rows[-1]), flush=True)
    setattr(pools, "tail_cuts", real_tail_cuts)  # noqa: B010
    summary = []
    for n in budgets:
        held = n - selection_sizes(n, n, Fraction(1, 2), DEFAULT_SELECTION_CAP)[0]
        line: dict[str, Any] = {"samples": n, "held_out": held}
        for mode in modes:
            mine = [r for r in rows if r["mode"] == mode and r["samples"] == n]
            flagged = {x: sum(r["verdict"] == "VIOLATION" for r in mine if r["overclaim"] == x)
                       for x in overclaims}
            line[mode] = {"flagged_of_seeds": {str(x): k for x, k in flagged.items()},
                          "smallest_all_seeds": min((x for x, k in flagged.items()
                                                     if k == len(seeds)), default=None),
                          "smallest_any_seed": min((x for x, k in flagged.items() if k),
                                                   default=None),
                          "mean_bound": {str(x): round(float(np.mean(
                              [r["bound"] for r in mine if r["overclaim"] == x])), 4)
                              for x in overclaims}}
        line["oracle_all_held_out"] = {str(x): round(oracle(sigma_for(x), n), 4)
                                       for x in overclaims}
        line["oracle_this_split"] = {str(x): round(oracle(sigma_for(x), held), 4)
                                     for x in overclaims}
        summary.append(line)
        print(json.dumps(line), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps({"rows": rows, "summary": summary}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
