"""How fast the 002 predictors and the ``privref experiments`` evaluators run (a benchmark, not a test).

Usage (from the repository root)::

    python benchmarks/bench_prediction.py [--quick] [--out docs/generated/prediction-performance.json]

Series, on INTERVALS[12 points] (79 concepts) with datasets drawn from the experiment's
population (noise 1/10, seeded):

1. ``predict``: seconds per prediction of each predictor of paper 002 through
   ``Predictor.predict_batch`` (program path: one run of the one program per query, on
   fresh randomness) for n = 10^2 … 10^5, with the parameters of ``privref experiments``
   at α = 1/10, ε = 1; plus the peak traced memory of one batch.
2. ``blocks``: the fast building blocks against the code they replace, same values checked:
   the subset draw (Floyd, ``Subset.draw``) against a uniform rank among C(n, m) unranked by
   ``unrank_combination``; ``agreements`` of every concept (cached count table) against the
   reference loop; ``canonical_representatives`` on m = n/10 points.
3. ``evaluate``: seconds per exact-given-the-draw loss of each predictor at n = 10^5 (what one
   grid point of the experiment costs per dataset and draw), and the peak memory.

Prints a table; the full run writes JSON (``--out``) and ``docs/prediction-performance.md``.
Nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import platform
import sys
import time
import tracemalloc
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from privref.app.experiments import prediction as pe  # noqa: E402
from privref.reference._sampling import uniform_int  # noqa: E402
from privref.reference.concepts import Concept, ConceptClass, intervals  # noqa: E402
from privref.reference.data import Dataset, point_of  # noqa: E402
from privref.reference.exponential import agreements, reference_agreements  # noqa: E402
from privref.reference.program import Subset  # noqa: E402
from privref.reference.subsampling import unrank_combination  # noqa: E402
from privref.reference.vc import canonical_representatives  # noqa: E402

SEED = 2026
ALPHA, EPS = Fraction(1, 10), Fraction(1)
FULL_NS = (100, 1000, 10_000, 100_000)
QUICK_NS = (100, 1000)
KEYS = ("alg1", "alg2", "alg3", "b1", "b3", "b4", "b5")
UNRANK_LIMIT = 20_000
"""The old unranking is timed only for n up to this (about 100 s per draw at n = 10^5)."""


def _best(fn: Callable[[], object], repeat: int = 3, number: int = 1) -> float:
    """Best of ``repeat`` batches of ``number`` calls, seconds per call."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def _peak(fn: Callable[[], object]) -> int:
    """Peak traced Python memory (bytes) of one call."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def predict_series(ns: tuple[int, ...], queries: int) -> list[dict[str, Any]]:
    """Seconds per prediction and peak memory of a batch, per predictor and n."""
    C = intervals(12)
    pop = pe.Population(C, C[pe.experiment_classes(("intervals",))[0].target], Fraction(1, 10))
    rows = []
    for n in ns:
        data = pop.draw(n, np.random.default_rng([SEED, n]))
        for key in KEYS:
            par = pe.parameters(key, ALPHA, EPS, n)
            predictor = pe.build_predictor(key, C, n, par)
            points = [int(x) for x in np.random.default_rng(n).integers(0, 12, queries)]
            batch = partial(predictor.predict_batch, data, points,
                            np.random.default_rng([SEED, n, 1]), law_max_paths=0)

            seconds = _best(batch, repeat=3) / queries
            rows.append({"n": n, "predictor": key, "seconds_per_prediction": seconds,
                         "peak_bytes_batch": _peak(batch),
                         "parameters": {k: str(v) for k, v in par.items()}})
            print(f"predict n={n} {key}: {seconds:.4g} s/prediction", flush=True)
    return rows


def _unrank(rng: np.random.Generator, n: int, m: int) -> tuple[int, ...]:
    """The old subset draw: a uniform rank among C(n, m), unranked lexicographically."""
    return unrank_combination(uniform_int(rng, math.comb(n, m)), n, m)


def _agree_all(fn: Callable[[Concept, Dataset], int], C: ConceptClass, data: Dataset
               ) -> list[int]:
    return [fn(c, data) for c in C]


def _agree_fresh(C: ConceptClass, data: Dataset) -> int:
    """One agreement count on a fresh copy of the dataset (the count table is built)."""
    return agreements(C[0], tuple(data))


def blocks_series(ns: tuple[int, ...]) -> list[dict[str, Any]]:
    """The fast blocks against the code they replace (values checked equal)."""
    C = intervals(12)
    pop = pe.Population(C, C[0], Fraction(1, 10))
    rows = []
    for n in ns:
        m = max(1, n // 10)
        rng = np.random.default_rng([SEED, n, 2])
        floyd = _best(partial(Subset(n, m).draw, rng), repeat=3, number=5)
        unrank: float | None = None
        if n <= UNRANK_LIMIT:
            unrank = _best(partial(_unrank, rng, n, m), repeat=1)
        data = pop.draw(n, np.random.default_rng([SEED, n]))
        first = _best(partial(_agree_fresh, C, data), repeat=1)
        cached = _best(partial(_agree_all, agreements, C, data), repeat=3)
        loop = _best(partial(_agree_all, reference_agreements, C, data), repeat=1)
        assert _agree_all(agreements, C, data) == _agree_all(reference_agreements, C, data)
        points = tuple(point_of(e) for e in data[:m])
        reps = _best(partial(canonical_representatives, C, points), repeat=3)
        rows.append({"n": n, "m": m, "subset_floyd_s": floyd, "subset_unrank_s": unrank,
                     "agreements_first_call_s": first,
                     "agreements_all_concepts_cached_s": cached,
                     "agreements_all_concepts_loop_s": loop,
                     "canonical_representatives_s": reps, "concepts": len(C)})
        print(f"blocks n={n}: floyd {floyd:.3g}s unrank {unrank} cached {cached:.3g}s "
              f"loop {loop:.3g}s", flush=True)
    return rows


def evaluate_series(n: int, draws: int) -> list[dict[str, Any]]:
    """Seconds per exact-given-the-draw loss at n, per predictor, and peak memory."""
    spec = pe.experiment_classes(("intervals",))[0]
    pop = pe.Population(spec.concepts, spec.concepts[spec.target], Fraction(1, 10))
    data = pop.draw(n, np.random.default_rng([SEED, n]))
    rows = []
    for key in (*KEYS, "alg3_rate"):
        par = pe.parameters(key, ALPHA, EPS, n)
        rng = np.random.default_rng([SEED, n, 3])
        call = partial(pe.predictor_loss, key, pop, data, par, rng)
        seconds = _best(call, repeat=draws)
        peak = _peak(call)
        rows.append({"n": n, "predictor": key, "seconds_per_evaluation": seconds,
                     "peak_bytes": peak})
        print(f"evaluate n={n} {key}: {seconds:.4g} s", flush=True)
    return rows


def _render(payload: dict[str, Any]) -> str:
    lines = ["# Prediction samplers and experiment evaluators: speed, memory, scale", "",
             "Generated by `python benchmarks/bench_prediction.py` from "
             "[prediction-performance.json](generated/prediction-performance.json) "
             "(do not edit by hand). "
             "Class INTERVALS[12 points] (79 concepts), population of `privref experiments` "
             "(target [3, 8], noise 1/10), parameters of `privref experiments` at α = 1/10, "
             "ε = 1 (Algorithm 1: m = ⌊αεn/4⌋, ε_EM = αε/8; B3: k = 20; B4: k = 12; "
             "Algorithm 3: m = ⌊αεn/8⌋, k = 48, ε₁ = ε₂ = 1/4).  Times are the best of "
             "3 batches.",
             "", f"Machine: {payload['machine']}; {payload['when']}.", "",
             "## 1. Time per prediction (`predict_batch`, program path)", "",
             "One run of the predictor's own program per query, fresh randomness, fast blocks "
             "shared across the batch; peak = traced Python memory of one batch (the dataset "
             "itself excluded).", "",
             "| n | " + " | ".join(KEYS) + " |", "|---|" + "---|" * len(KEYS)]
    by = {(r["n"], r["predictor"]): r for r in payload["predict"]}
    for n in sorted({r["n"] for r in payload["predict"]}):
        lines.append(f"| {n} | " + " | ".join(
            f"{by[(n, k)]['seconds_per_prediction']:.3g} s / "
            f"{by[(n, k)]['peak_bytes_batch'] / 2**20:.1f} MiB" for k in KEYS) + " |")
    lines += ["", "## 2. The fast blocks against the code they replace", "",
              "Subset of m = n/10 indices: Floyd's algorithm (integer draws) vs a uniform "
              "rank among C(n, m) unranked lexicographically (the old definition; not run "
              f"above n = {UNRANK_LIMIT}).  Agreements of all 79 concepts: cached count table "
              "vs one pass over S per concept (values checked equal).", "",
              "| n | m | subset: Floyd (s) | subset: unrank (s) | agreements, table built (s) "
              "| agreements ×79, cached (s) | agreements ×79, loop (s) "
              "| canonical representatives (s) |",
              "|---|---|---|---|---|---|---|---|"]
    for r in payload["blocks"]:
        unrank = "not run" if r["subset_unrank_s"] is None else f"{r['subset_unrank_s']:.3g}"
        lines.append(f"| {r['n']} | {r['m']} | {r['subset_floyd_s']:.3g} | {unrank} | "
                     f"{r['agreements_first_call_s']:.3g} | "
                     f"{r['agreements_all_concepts_cached_s']:.3g} | "
                     f"{r['agreements_all_concepts_loop_s']:.3g} | "
                     f"{r['canonical_representatives_s']:.3g} |")
    lines += ["", "## 3. One exact-given-the-draw loss (`privref experiments`)", "",
              "| n | predictor | seconds | peak memory |", "|---|---|---|---|"]
    for r in payload["evaluate"]:
        lines.append(f"| {r['n']} | {r['predictor']} | {r['seconds_per_evaluation']:.3g} | "
                     f"{r['peak_bytes'] / 2**20:.1f} MiB |")
    lines += ["", payload["reading"], ""]
    return "\n".join(lines)


READING = (
    "**Reading.** At n = 10^5 a prediction costs 0.04 to 0.1 s for Algorithms 1 and 2 and "
    "B1 to B4, about 0.2 s for Algorithm 3 and 0.4 s for B5 (see the table for this run).  "
    "What remains is the programs' own per-query validation of the n examples (one pass over S "
    "in each `_check_data`, in files this benchmark does not change), building block datasets "
    "(B3, B4, Algorithm 3's relabeling) and, for B5 and Algorithm 3, the exact draw from the "
    "weights e^{ε(q − q_max)/2} whose score gaps reach thousands (the lazy refinement of "
    "`reference._sampling.categorical_real`).  The subset draw and the scores are no longer "
    "a cost: Floyd's draw of m = 10^4 indices takes milliseconds where the old unranking took "
    "0.44 s already at n = 10^4 (it is not run at 10^5), and all 79 agreement counts take "
    "tens of microseconds once the dataset's table is built, against seconds for one pass over "
    "S per concept.  An evaluation of the experiment costs about one prediction per draw: the "
    "exponential mechanism's conditional law is enumerated once per subset draw for every "
    "query point at once.")


def main() -> None:
    """Run the series and write the JSON and the page (full run only)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run, writes nothing")
    parser.add_argument("--out", default=str(ROOT / "docs" / "generated" / "prediction-performance.json"))
    args = parser.parse_args()
    ns = QUICK_NS if args.quick else FULL_NS
    start = time.perf_counter()
    payload: dict[str, Any] = {
        "machine": f"{platform.platform()}, {len(__import__('os').sched_getaffinity(0))} CPUs, "
                   f"Python {platform.python_version()}, numpy {np.__version__}",
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "seed": SEED,
        "predict": predict_series(ns, queries=5),
        "blocks": blocks_series(ns),
        "evaluate": evaluate_series(ns[-1], draws=3),
        "reading": READING,
    }
    payload["seconds"] = round(time.perf_counter() - start, 1)
    print(_render(payload))
    if not args.quick:
        Path(args.out).write_text(json.dumps(payload, indent=2) + "\n")
        (ROOT / "docs" / "prediction-performance.md").write_text(_render(payload))
        print(f"wrote {args.out} and docs/prediction-performance.md")


if __name__ == "__main__":
    main()
