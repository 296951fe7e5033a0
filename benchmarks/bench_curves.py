"""The black-box μ-GDP lower bound against the true μ (issue 36 item 2), written to
docs/blackbox-curves.md.

Usage (from the repository root)::

    python benchmarks/bench_curves.py [--samples 10000000] [--seeds 0,1,2] [--json PATH]

It prints one JSON line per run and the markdown table of docs/blackbox-curves.md.

Mechanisms (vectorized numpy targets, one worker, ``float_events=False``: the real-arithmetic
view, since IEEE-754 patterns would flag any float Gaussian):

* the Gaussian mechanism sum(data) + N(0, σ²), sensitivity 1, pair (0,) vs (1,) under
  substitution: true μ = 1/σ (Dong, Roth and Su 2022, Theorem 2.7);
* the Poisson-subsampled Gaussian: each record kept with probability q, then the sum plus
  N(0, σ²), pair (1,) vs () under add-remove.  Its laws are P = (1 − q)N(0, σ²) + qN(1, σ²) and
  Q = N(0, σ²).  True μ = 1/σ: the likelihood ratio is monotone, so the trade-off curve is
  traced by threshold tests and the least μ is sup_t μ(t), μ(t) = Φ⁻¹(P(x > t)) − Φ⁻¹(Q(x > t))
  (and the reverse direction, which gives less); μ(t) <= 1/σ (the mixture is a garbling of
  N(1, σ²) vs N(0, σ²)) and μ(t) → 1/σ as t → ∞ (docs/blackbox-curves.md gives the argument).

Each run is one ``run_audit`` with the μ-GDP claim at the true μ (so its 5 points δ = 10⁻²…10⁻⁶
are true claims) and ``curves=CurveRequest()``, confidence 0.95, N samples per side.  The
*ceiling* is what any event can give with this held-out size: q_hi >= q0 = 1 − α_side^(1/n)
(the Clopper–Pearson upper bound at 0 hits), so the μ bound is at most
sup over t <= t0 of μ(t) with Q(x > t0) = q0 (Neyman–Pearson; docs), computed with scipy at
α_side = 0.025 (larger than any event's level, so the ceiling only rises).  Floats: figures,
never verdicts.
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
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_gaussian_delta import Gaussian  # noqa: E402  (sum(data) + N(0, σ²), vectorized)

from privref.audits.blackbox.curves import CurveRequest  # noqa: E402
from privref.audits.blackbox.runner import AuditConfig, run_audit  # noqa: E402
from privref.audits.blackbox.target import target_from_callable  # noqa: E402
from privref.reference.privacy import GDPClaim  # noqa: E402

CONFIDENCE = Fraction(95, 100)


class SubsampledGaussian:
    """Each record kept with probability q (Poisson subsampling), then the sum + N(0, σ²)."""

    privref_vectorized = True

    def __init__(self, q: float, sigma: float) -> None:
        self.q, self.sigma = q, sigma

    def __call__(self, data: list[float], rng: np.random.Generator, size: int) -> np.ndarray:
        total = np.zeros(size)
        for x in data:
            total += float(x) * (rng.random(size) < self.q)
        return total + rng.normal(0.0, self.sigma, size)


def mu_curve(q: float, sigma: float, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Q(x > t), μ(t)) for P = (1 − q)N(0, σ²) + qN(1, σ²), Q = N(0, σ²), in the log domain
    (scipy's ndtri_exp: Φ⁻¹ of exp(log p), no underflow far in the tail)."""
    from scipy.special import logsumexp, ndtri_exp
    from scipy.stats import norm
    log_q = norm.logsf(t / sigma)
    log_p = logsumexp([np.log1p(-q) + log_q, np.log(q) + norm.logsf((t - 1) / sigma)], axis=0) \
        if q < 1 else norm.logsf((t - 1) / sigma)
    return np.exp(log_q), ndtri_exp(log_p) - ndtri_exp(log_q)


def ceiling(q: float, sigma: float, held: int, alpha_side: float = 0.025) -> tuple[float, float]:
    """(sup over t <= t0 of μ(t), t0) with Q(x > t0) = 1 − alpha_side^(1/held) (module doc)."""
    from scipy.stats import norm
    q0 = -math.expm1(math.log(alpha_side) / held)
    t0 = sigma * float(norm.isf(q0))
    t = np.linspace(-3 * sigma, t0, 20001)
    _, mu = mu_curve(q, sigma, t)
    return float(np.nanmax(mu)), t0


def one(kind: str, q: float, sigma: float, samples: int, seed: int) -> dict[str, Any]:
    true_mu = Fraction(1) / Fraction(sigma).limit_denominator(10**6)
    pairs: list[tuple[tuple[int, ...], tuple[int, ...]]]
    if kind == "gaussian":
        target = target_from_callable(Gaussian(sigma), name=f"gaussian sigma={sigma}")
        pairs, relation = [((0,), (1,))], "substitution"
    else:
        target = target_from_callable(SubsampledGaussian(q, sigma),
                                      name=f"subsampled gaussian q={q} sigma={sigma}")
        pairs, relation = [((1,), ())], "add-remove"
    config = AuditConfig(GDPClaim(true_mu), confidence=CONFIDENCE, samples=samples, seed=seed,
                         workers=1, float_events=False, relation=relation,
                         curves=CurveRequest(claim=GDPClaim(true_mu)))
    start = time.perf_counter()
    report = run_audit(target, config, pairs)
    elapsed = time.perf_counter() - start
    assert report.curves is not None
    held = report.witness.estimate.counts["held_out_a"] if report.witness else 0
    return {"kind": kind, "q": q, "sigma": sigma, "samples": samples, "seed": seed,
            "true_mu": float(true_mu), "mu_lower": float(report.curves.mu_lower),
            "ratio": float(report.curves.mu_lower / true_mu), "mu_event": report.curves.mu_event,
            "rho_lower": float(report.curves.rho_lower),
            "delta0_lower": float(report.curves.delta_lower[0]),
            "verdict": None if report.verdict is None else report.verdict.value,
            "held_out": held, "events": report.curves.events,
            "refuted": list(report.curves.refuted), "seconds": round(elapsed, 1)}


def table(rows: list[dict[str, Any]]) -> str:
    out = ["| mechanism | true μ | seed | μ lower bound | / true μ | ceiling (any event) | "
           "event of the μ bound | ρ lower bound | δ(0) lower bound | verdict | seconds |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        name = (f"Gaussian σ = {r['sigma']:g}" if r["kind"] == "gaussian"
                else f"Poisson-subsampled Gaussian q = {r['q']:g}, σ = {r['sigma']:g}")
        q = 1.0 if r["kind"] == "gaussian" else r["q"]
        top, _ = ceiling(q, r["sigma"], r["held_out"]) if r["held_out"] else (float("nan"), 0)
        out.append(f"| {name} | {r['true_mu']:g} | {r['seed']} | {r['mu_lower']:.4f} | "
                   f"{r['ratio']:.3f} | {top:.4f} | {r['mu_event']} | {r['rho_lower']:.4f} | "
                   f"{r['delta0_lower']:.4f} | {r['verdict']} | {r['seconds']} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=float, default=1e7)
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    samples = int(args.samples)
    seeds = [int(s) for s in args.seeds.split(",")]
    rows = []
    for kind, q, sigma in (("gaussian", 1.0, 1.0), ("gaussian", 1.0, 2.0),
                           ("subsampled", 0.1, 1.0), ("subsampled", 0.5, 1.0)):
        for seed in seeds:
            row = one(kind, q, sigma, samples, seed)
            print(json.dumps(row), flush=True)
            rows.append(row)
    print(table(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
