"""Black-box audits of prediction services against their exact loss (a benchmark, not a test).

Usage (from the repository root)::

    nice -n 10 python benchmarks/bench_prediction_audit.py [--quick] [--out FILE.json]

For each adversary of Chadha et al. 2024 (natural, poison, queries:
:mod:`privref.audits.blackbox.prediction_adversaries`, on UCI Mushroom read from
``../shared/data`` beside the checkout) and each PATE service
(:mod:`privref.audits.blackbox.prediction_target`:
001's Gaussian PATE and SVT-PATE, GNMax, and the misconfigured Gaussian PATE whose noise is
calibrated for one query but whose claim covers the sequence), all calibrated for ℓ = 12 queries
at (ε, δ) = (2, 10^-5) (GNMax: σ² = 16 per count), one worker:

* ``one query``: the first query's label, 10^6 samples per side (``--quick``: 10^5);
* ``sequence``: the 12 labels, 10^5 samples per side (``--quick``: 2·10^4).

Each row gives the verdict at confidence 0.95, the black-box ε lower bound, the exact loss of the
same pair at the claimed δ (:func:`~privref.audits.blackbox.prediction_target.exact_loss`, both
orders), their ratio, the samples, the seed and the time.  A 002 predictor (the private majority
B4, exact rational laws) is audited at one query on its worst pair.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from privref.app.checkout import default_data_dir
from privref.audits.blackbox import AuditConfig, BlackboxVerdict, run_audit
from privref.audits.blackbox.curves import CurveRequest
from privref.audits.blackbox.prediction_adversaries import ADVERSARIES, plan_adversary
from privref.audits.blackbox.prediction_target import (
    PredictionService,
    answer_curves,
    exact_loss,
    gaussian_pate_service,
    gnmax_service,
    misconfigured_pate_service,
    prediction_target,
    predictor_service,
    svt_pate_service,
)

DATA = default_data_dir()
ELL = 12
SEED = 1


def _services() -> list[tuple[str, PredictionService]]:
    return [("Gaussian PATE", gaussian_pate_service(ELL, 2, "1/100000")),
            ("SVT-PATE (T=1)", svt_pate_service(ELL, 1, 2, "1/100000")),
            ("GNMax (sigma^2=16)", gnmax_service(ELL, 16, "1/100000")),
            ("MISCONFIGURED PATE", misconfigured_pate_service(ELL, 2, "1/100000"))]


def _audit(service: PredictionService, a: Any, b: Any, queries: list[int], samples: int
           ) -> dict[str, Any]:
    start = time.perf_counter()
    target = prediction_target(service, queries)
    assert service.claim is not None
    one = len(queries) == 1
    curves = CurveRequest(orders=(Fraction(2),)) if one else None
    report = run_audit(target, AuditConfig(service.claim, samples=samples, seed=SEED,
                                           curves=curves), [(a, b)])
    seconds = time.perf_counter() - start
    truth = exact_loss(service, a, b, queries, report.claimed_delta)
    bound = report.epsilon_lower_bound
    extra: dict[str, Any] = {}
    if one and report.curves is not None and "SVT" not in service.name:  # SVT: 3 outcomes
        exact = answer_curves(service, a, b, queries[0], orders=(2,))
        extra = {"mu_bound": float(report.curves.mu_lower),
                 "mu_exact": None if exact.mu is None else float(exact.mu[0]),
                 "renyi2_bound": float(report.curves.renyi_lower[0]),
                 "renyi2_exact": float(exact.renyi[0][0])}
    return {**extra, "verdict": report.verdict.value if report.verdict else None, "bound": bound,
            "exact": truth.lower, "ratio": bound / truth.lower if truth.lower > 0 else None,
            "samples": samples, "seed": SEED, "seconds": seconds,
            "claim": f"({float(report.claimed_epsilon.enclose(64).lo):.4g}, "
                     f"{float(report.claimed_delta):.0e})"}


def _predictor_row(samples: int) -> dict[str, Any]:
    from privref.reference.concepts import thresholds_on
    from privref.reference.learners.prediction_baselines import private_majority_predictor
    from privref.reference.reals import log, rational

    predictor = private_majority_predictor(thresholds_on(2), 4, 4, 2 * log(rational(3)))
    service = predictor_service(predictor)
    # one example moves one block's ERM, hence one vote at x = 0: the exact claim is attained
    best: tuple[float, Any, Any] | None = None
    points = (0, 1)
    examples = [(x, y) for x in points for y in (0, 1)]
    import itertools
    for data in itertools.product(examples, repeat=4):
        for i, e in itertools.product(range(4), examples):
            other = (*data[:i], e, *data[i + 1:])
            if other == data:
                continue
            value = exact_loss(service, data, other, [0], 0).lower
            if best is None or value > best[0] + 1e-12:
                best = (value, data, other)
        if best is not None and best[0] > 0.99 * 2 * 1.0986:
            break
    assert best is not None
    row = _audit(service, list(best[1]), list(best[2]), [0], samples)
    row.update(adversary="worst pair (searched exactly)", service=predictor.name,
               mode="one query")
    return row


def main() -> None:
    """Run every row, print it, write the Markdown and the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", default="docs/generated/prediction-audit.json",
                        help="the JSON of every row (the table is printed, for docs/prediction-audit.md)")
    args = parser.parse_args()
    one, seq = (10**5, 2 * 10**4) if args.quick else (10**6, 10**5)
    rows: list[dict[str, Any]] = []
    total = time.perf_counter()
    for adversary in ADVERSARIES:
        plan = plan_adversary(adversary, train=DATA / "agaricus.txt.train",
                              test=DATA / "agaricus.txt.test", teachers=11,
                              records_per_teacher=2, queries=ELL, seed=SEED)
        for name, service in _services():
            for mode, queries, samples in (("one query", [0], one),
                                           ("sequence", list(range(ELL)), seq)):
                row = _audit(service, plan.a, plan.b, queries, samples)
                row.update(adversary=adversary, service=name, mode=mode,
                           votes=f"{list(plan.votes_a)} vs {list(plan.votes_b)}")
                rows.append(row)
                print(json.dumps(row), flush=True)
    rows.append(_predictor_row(one))
    print(json.dumps(rows[-1]), flush=True)
    elapsed = time.perf_counter() - total
    head = {"seconds": elapsed, "machine": platform.platform(),
            "command": "python benchmarks/bench_prediction_audit.py" + (" --quick" if args.quick
                                                                        else "")}
    Path(args.out).write_text(  # one row per line, compact (docs/generated stays small)
        "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in head.items())
        + ', "rows": [\n' + ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows)
        + "\n]}\n")
    lines = ["| adversary | service | mode | claim | verdict | bound | exact | ratio | samples "
             "| seed | s |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.3f}"
        lines.append(f"| {r['adversary']} | {r['service']} | {r['mode']} | {r['claim']} | "
                     f"{r['verdict']} | {r['bound']:.4f} | {r['exact']:.4f} | {ratio} | "
                     f"{r['samples']:,} | {r['seed']} | {r['seconds']:.1f} |")
    print("\n".join(lines))
    curve_lines = ["| adversary | service | mu bound | mu exact | ratio | D_2 bound | D_2 exact | ratio |",
                   "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r.get("mu_exact") is None or (r["adversary"] != "queries" and "002" not in r["service"]):
            continue
        mu_ratio = r["mu_bound"] / r["mu_exact"] if r["mu_exact"] else float("nan")
        d_ratio = r["renyi2_bound"] / r["renyi2_exact"] if r["renyi2_exact"] else float("nan")
        curve_lines.append(f"| {r['adversary']} | {r['service']} | {r['mu_bound']:.4f} | "
                           f"{r['mu_exact']:.4f} | {mu_ratio:.3f} | {r['renyi2_bound']:.4f} | "
                           f"{r['renyi2_exact']:.4f} | {d_ratio:.3f} |")
    print("\n".join(curve_lines))
    print(f"total {elapsed:.0f} s")
    assert all(r["verdict"] != BlackboxVerdict.VIOLATION.value for r in rows
               if "MISCONFIGURED" not in r["service"])


if __name__ == "__main__":
    main()
