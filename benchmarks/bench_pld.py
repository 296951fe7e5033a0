"""Certified PLD composition (privref.reference.pld) against third-party PLD/PRV accountants.

Usage (from the repository root)::

    python benchmarks/bench_pld.py [--steps 1/100,1/1000] [--k 1000] [--sigma 1] [--delta 1e-5]
        [--rate 1/100] [--json /tmp/bench_pld.json]

Task (DP-SGD without subsampling): k compositions of the Gaussian mechanism, sensitivity 1, noise
σ; ε at δ.  The exact answer is the analytic Gaussian with μ = √k/σ (Balle-Wang 2018), so each
row also checks the certified enclosure [ε_lo, ε_hi] against privref's analytic accountant:
δ(ε_hi) <= δ < δ(ε_lo), decided with accounting.analytic_gaussian_delta's enclosures.

For each grid step h: privref's time (discretize the Gaussian, k-fold composition by repeated
squaring with exact integer convolutions, ε(δ) from the two grids) and width ε_hi − ε_lo; in the
same run dp-accounting's PLD accountant (``from_gaussian_mechanism(σ, value_discretization_interval
= h).self_compose(k).get_epsilon_for_delta(δ)``, float FFT, no enclosure) and prv_accountant's
(``eps_error`` = 1/100 fixed: at 10⁻³ it took 4 minutes and over 11 GB on the Gaussian task; its
(lower, estimate, upper) triple), each skipped when not installed.
With ``--rate q`` the task is DP-SGD proper: the Poisson-subsampled Gaussian (add/remove), privref
composing both orders of Zhu-Dong-Wang's pairs and taking the larger ε, dp-accounting with
``sampling_prob=q`` and prv_accountant's PoissonSubsampledGaussianMechanism; there is no closed
form to check against, so only the enclosure and the third-party figures are printed.
Floats appear only as printed figures; nothing here asserts.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from privref.reference import pld  # noqa: E402
from privref.reference.accounting import analytic_gaussian_delta  # noqa: E402

PRV_EPS_ERROR = 0.01
"""prv_accountant's eps_error (fixed: its memory grows as 1/eps_error)."""


def privref_row(sigma: Fraction, k: int, delta: Fraction, step: Fraction) -> dict[str, Any]:
    t0 = time.perf_counter()
    one = pld.gaussian_pld(sigma, step=step)
    t1 = time.perf_counter()
    composed = one.self_compose(k)
    t2 = time.perf_counter()
    box = composed.epsilon(delta)
    t3 = time.perf_counter()
    safe = analytic_gaussian_delta(box.hi, k, sigma, prec=128).hi <= delta
    unsafe = analytic_gaussian_delta(box.lo, k, sigma, prec=128).lo > delta
    return {"step": str(step), "eps_lo": float(box.lo), "eps_hi": float(box.hi),
            "width": float(box.width), "relative_width": float(box.width / box.hi),
            "points": composed.points, "discretize_s": t1 - t0, "compose_s": t2 - t1,
            "epsilon_s": t3 - t2, "total_s": t3 - t0, "hi_proved_safe": safe,
            "lo_proved_unsafe": unsafe}


def subsampled_row(sigma: Fraction, rate: Fraction, k: int, delta: Fraction,
                   step: Fraction) -> dict[str, Any]:
    t0 = time.perf_counter()
    boxes = []
    points = 0
    for order in ("remove", "add"):
        composed = pld.poisson_subsampled_gaussian_pld(sigma, rate, order, step=step).self_compose(k)
        boxes.append(composed.epsilon(delta))
        points = max(points, composed.points)
    lo, hi = max(b.lo for b in boxes), max(b.hi for b in boxes)
    return {"step": str(step), "eps_lo": float(lo), "eps_hi": float(hi), "width": float(hi - lo),
            "relative_width": float((hi - lo) / hi), "points": points,
            "total_s": time.perf_counter() - t0,
            "orders": {o: [float(b.lo), float(b.hi)] for o, b in zip(("remove", "add"), boxes,
                                                                      strict=True)}}


def dp_accounting_row(sigma: float, k: int, delta: float, step: float,
                      rate: float = 1.0) -> dict[str, Any]:
    try:
        from dp_accounting.pld import privacy_loss_distribution as pldm  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return {"skipped": "dp-accounting not installed"}
    import importlib.metadata as md
    t0 = time.perf_counter()
    dist = pldm.from_gaussian_mechanism(sigma, sensitivity=1.0, sampling_prob=rate,
                                        value_discretization_interval=step)
    eps = dist.self_compose(k).get_epsilon_for_delta(delta)
    return {"version": md.version("dp-accounting"), "eps": eps, "total_s": time.perf_counter() - t0}


def prv_row(sigma: float, k: int, delta: float, step: float, rate: float = 1.0) -> dict[str, Any]:
    try:
        from prv_accountant import PRVAccountant  # type: ignore[import-untyped,unused-ignore]
        from prv_accountant.privacy_random_variables import (  # type: ignore[import-untyped,unused-ignore]
            GaussianMechanism,
            PoissonSubsampledGaussianMechanism,
        )
    except ImportError:
        return {"skipped": "prv_accountant not installed"}
    import importlib.metadata as md
    t0 = time.perf_counter()
    try:
        prv = (GaussianMechanism(noise_multiplier=sigma) if rate == 1 else
               PoissonSubsampledGaussianMechanism(sampling_probability=rate,
                                                  noise_multiplier=sigma))
        acc = PRVAccountant(prvs=[prv],
                            max_self_compositions=[k], eps_error=PRV_EPS_ERROR,
                            delta_error=delta / 1000)
        lo, est, hi = acc.compute_epsilon(delta=delta, num_self_compositions=[k])
    except Exception as exc:  # a third-party failure is a figure, not a crash
        return {"version": md.version("prv-accountant"), "error": repr(exc)}
    return {"version": md.version("prv-accountant"), "eps_lo": lo, "eps": est, "eps_hi": hi,
            "total_s": time.perf_counter() - t0}


def float_truth(sigma: float, k: int, delta: float) -> float:
    """ε at δ of the analytic Gaussian by float bisection (a printed figure only; scipy)."""
    from scipy.special import log_ndtr
    mu = math.sqrt(k) / sigma

    def d(eps: float) -> float:
        return float(math.exp(log_ndtr(mu / 2 - eps / mu))
                     - math.exp(eps + log_ndtr(-mu / 2 - eps / mu)))

    lo, hi = 0.0, mu * mu / 2 + 40 * mu
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if d(mid) > delta else (lo, mid)
    return hi


def run_subsampled(sigma: Fraction, rate: Fraction, k: int, delta: Fraction, steps: str,
                   out: Path | None) -> None:
    print(f"Poisson-subsampled Gaussian sigma={sigma} q={rate} k={k} delta={float(delta):g}")
    rows = []
    for text in steps.split(","):
        step = Fraction(text)
        row = {"privref": subsampled_row(sigma, rate, k, delta, step),
               "dp_accounting": dp_accounting_row(float(sigma), k, float(delta), float(step),
                                                  float(rate)),
               "prv_accountant": prv_row(float(sigma), k, float(delta), float(step), float(rate))}
        rows.append(row)
        p = row["privref"]
        print(f"h={text}: privref [{p['eps_lo']:.6f}, {p['eps_hi']:.6f}] width {p['width']:.3g} "
              f"(rel {p['relative_width']:.2g}), {p['points']} points, {p['total_s']:.2f} s; "
              f"orders {p['orders']}")
        print(f"        dp-accounting {row['dp_accounting']}")
        print(f"        prv_accountant {row['prv_accountant']}")
    if out:
        out.write_text(json.dumps({"task": "subsampled", "k": k, "sigma": str(sigma),
                                   "rate": str(rate), "delta": str(delta), "rows": rows},
                                  indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="1/100,1/1000")
    parser.add_argument("--k", type=int, default=1000)
    parser.add_argument("--sigma", default="1")
    parser.add_argument("--delta", default="1/100000")
    parser.add_argument("--rate", default=None, help="Poisson sampling rate (DP-SGD task)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    sigma, delta = Fraction(args.sigma), Fraction(args.delta)
    if args.rate is not None:
        run_subsampled(sigma, Fraction(args.rate), args.k, delta, args.steps, args.json)
        return
    truth = float_truth(float(sigma), args.k, float(delta))
    print(f"Gaussian sigma={sigma} k={args.k} delta={float(delta):g}: analytic eps ~ {truth:.10f}")
    rows = []
    for text in args.steps.split(","):
        step = Fraction(text)
        row = {"privref": privref_row(sigma, args.k, delta, step),
               "dp_accounting": dp_accounting_row(float(sigma), args.k, float(delta), float(step)),
               "prv_accountant": prv_row(float(sigma), args.k, float(delta), float(step))}
        rows.append(row)
        p, g, v = row["privref"], row["dp_accounting"], row["prv_accountant"]
        print(f"h={text}: privref [{p['eps_lo']:.6f}, {p['eps_hi']:.6f}] width {p['width']:.3g} "
              f"(rel {p['relative_width']:.2g}), {p['points']} points, {p['total_s']:.2f} s "
              f"(discretize {p['discretize_s']:.2f}, compose {p['compose_s']:.2f}, "
              f"eps {p['epsilon_s']:.2f}); hi safe {p['hi_proved_safe']}, lo unsafe "
              f"{p['lo_proved_unsafe']}")
        print(f"        dp-accounting {g}")
        print(f"        prv_accountant {v}")
    if args.json:
        args.json.write_text(json.dumps({"truth_float": truth, "k": args.k, "sigma": str(sigma),
                                         "delta": str(delta), "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
