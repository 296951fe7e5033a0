"""Speed and scale of the black-box auditor (issue 3, item 7; a benchmark, not a test).

Usage (from the repository root)::

    python benchmarks/bench_blackbox_speed.py [--quick] [--seed 0] [--sections LIST]
        [--case-seconds S] [--cap-seconds S] [--doc docs/blackbox-performance.md]
        [--json docs/generated/blackbox-performance.json]
    python benchmarks/bench_blackbox_speed.py --render docs/generated/blackbox-performance.json
    python benchmarks/bench_blackbox_speed.py --sections workers \
        --update docs/generated/blackbox-performance.json

Five series, all through the real engine (:func:`privref.audits.blackbox.runner.sample_pair`
and :func:`~audits.blackbox.runner.run_audit`, the code behind ``privref audit
blackbox``), timed with ``time.perf_counter``:

1. ``throughput``: draws per second of the engine, for each target in its scalar
   form ``fn(data, rng)`` and its vectorized form ``fn(data, rng, size)``: zoo
   entries (integer, float, index, tuple and vector outcomes), a built-in privref
   ``Mechanism`` (sampled by ``Mechanism.sample``; vectorized by its exact finite
   law), and one diffprivlib and one OpenDP adapter (skipped, and recorded as
   skipped, when the extra is not installed).  The sample size per side is chosen
   from a short calibration run so that each case takes about ``--case-seconds``
   (best of 2 runs).  The same draws are also timed calling the target directly (no seeding, no
   checking, no packing), which shows the engine's own overhead.
2. ``workers``: the same sampling with 1 and 2 worker processes (pool start-up
   included; best of 5), and a check that the samples are identical.
3. ``estimator``: :func:`privref.audits.blackbox.estimate.estimate_pair` alone, on
   N = 10^4, 10^5, 10^6 samples per side of discrete, float, vector and tuple
   outcomes (a size predicted to exceed ``--cap-seconds`` is skipped and recorded).
4. ``memory``: peak resident memory of ``sample_pair`` alone and of a whole
   ``run_audit`` (one worker), each in a fresh subprocess, above its resident
   size just before the call, at two budgets 4x apart.
5. ``tightness``: the median over seeds of ``run_audit``'s epsilon lower bound
   divided by the exact epsilon (and by the oracle bound of
   :mod:`validation.oracle`) at N = 10^3 .. 10^6, for built-in mechanisms
   with an exactly known epsilon: the randomized-response and exponential cases of
   benchmarks/bench_blackbox_validation.py (imported from there) and the discrete
   Laplace mechanism.

The results go to ``docs/blackbox-performance.md`` and ``docs/generated/blackbox-performance.json``
(``--doc``/``--json``; ``--quick`` writes neither unless asked); ``--render``
rebuilds the page from the JSON, and ``--update`` reruns only ``--sections`` and
replaces them in the JSON (for a series disturbed by other load).  Nothing here
asserts; timings depend on the machine and its load: the page records, per
series, when it ran, on which commit, and how many CPUs other processes used
meanwhile.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # the sibling benchmarks imported below

from bench_blackbox_validation import CASES as VALIDATION_CASES  # noqa: E402
from bench_exact_audit import _loadavg, machine  # noqa: E402

from privref.audits.blackbox.adapters import MissingDependency, third_party_target  # noqa: E402
from privref.audits.blackbox.estimate import estimate_pair  # noqa: E402
from privref.audits.blackbox.runner import AuditConfig, run_audit, sample_pair  # noqa: E402
from privref.audits.blackbox.target import Target, target_from_callable  # noqa: E402
from privref.reference.geometric import discrete_laplace_mechanism  # noqa: E402
from privref.reference.mechanism import Mechanism  # noqa: E402
from privref.reference.randomized_response import randomized_response  # noqa: E402
from privref.reference.reals import Real, rational  # noqa: E402
from validation.oracle import exact_epsilon, oracle_bound  # noqa: E402
from validation.zoo import zoo_entry  # noqa: E402
from validation.zoo_samplers import finite_law_samplers  # noqa: E402

CONFIDENCE = Fraction(95, 100)
ALPHA = 1 - CONFIDENCE
DOC = ROOT / "docs" / "blackbox-performance.md"
JSON = ROOT / "docs" / "generated" / "blackbox-performance.json"
SECTIONS = ("throughput", "workers", "estimator", "memory", "tightness")
REPEAT_BELOW = 0.5
"""Estimator runs shorter than this many seconds are repeated (3 in all) and the best is kept."""

Pair = tuple[tuple[Hashable, ...], tuple[Hashable, ...]]


# ------------------------------------------------------------------ targets


@dataclass(frozen=True)
class Case:
    """A black-box target in its scalar and (when it has one) vectorized form."""

    key: str
    label: str
    outcome: str
    pair: Pair
    scalar: object
    vectorized: Callable[..., Any] | None
    epsilon: Real
    delta: Fraction
    relation: object = "linf"  # the zoo's claims are about l-infinity neighbouring query answers

    def target(self, form: str) -> Target:
        fn = self.scalar if form == "scalar" else self.vectorized
        assert fn is not None
        target = target_from_callable(fn, name=f"{self.key} ({form})")
        assert target.vectorized == (form == "vectorized"), (self.key, form)
        return target


def _pair(pairs: Sequence[tuple[Sequence[Hashable], Sequence[Hashable]]]) -> Pair:
    a, b = pairs[0]
    return tuple(a), tuple(b)


def _zoo(name: str, outcome: str) -> Case:
    e = zoo_entry(name)
    return Case(f"zoo:{name}", f"zoo `{name}`", outcome, _pair(e.pairs), e.sampler, e.vectorized,
                e.claimed_epsilon, e.claimed_delta)


def _rr_mechanism() -> Mechanism[Any]:
    return randomized_response(Fraction(3, 4))


def cases(third_party: bool = True) -> tuple[list[Case], list[dict[str, str]]]:
    """Every throughput target, and the third-party ones skipped (with the reason)."""
    rr = _rr_mechanism()
    out = [
        _zoo("laplace_discrete", "integer (unbounded)"),
        _zoo("laplace_float", "float"),
        _zoo("noisy_max_index", "integer index (5 values)"),
        _zoo("svt1", "tuple of 10"),
        _zoo("histogram", "vector of 5"),
        Case("privref:randomized-response", "privref `Mechanism` randomized response 3/4",
             "bit", ((0,), (1,)), rr, finite_law_samplers(rr)[1], rr.claim.epsilon, Fraction(0),
             rr.relation),
    ]
    skipped: list[dict[str, str]] = []
    for name in ("diffprivlib:count-laplace", "opendp:count-laplace") if third_party else ():
        try:
            t = third_party_target(name)
        except MissingDependency as exc:
            skipped.append({"target": name, "reason": str(exc)})
            continue
        out.append(Case(name, f"{t.library} {t.library_version} `{name}`", t.outcome_type.__name__,
                        _pair(t.pairs), t.sample, t.sample_many, t.claim.epsilon, t.claim.delta,
                        t.relation))
    return out, skipped


def _case(all_cases: Sequence[Case], key: str) -> Case:
    return next(c for c in all_cases if c.key == key)


# ------------------------------------------------------------------ timing helpers


def _busy_seconds() -> float | None:
    """CPU-seconds all processes have used since boot (from /proc/stat), or None off Linux."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


class OtherLoad:
    """Average number of CPUs used by *other* processes while a block runs.

    All busy CPU time (/proc/stat) minus this process's own and its reaped
    children's (the pool workers): how much the measurement competed with.
    """

    def __init__(self) -> None:
        self.cpus: float | None = None

    def __enter__(self) -> OtherLoad:
        self._busy, self._own, self._wall = _busy_seconds(), self._own_seconds(), time.perf_counter()
        return self

    @staticmethod
    def _own_seconds() -> float:
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    def __exit__(self, *exc: object) -> None:
        busy, wall = _busy_seconds(), time.perf_counter() - self._wall
        if busy is not None and self._busy is not None and wall > 0:
            other = (busy - self._busy) - (self._own_seconds() - self._own)
            self.cpus = max(0.0, other / wall)


def _sample(target: Target, pair: Pair, n: int, seed: int, workers: int = 1) -> tuple[float, Any, Any]:
    start = time.perf_counter()
    a, b = sample_pair(target, pair, samples=n, seed=seed, workers=workers)
    return time.perf_counter() - start, a, b


def _raw_seconds(target: Target, pair: Pair, n: int, seed: int) -> float:
    """``n`` draws per side calling the target directly, in the engine's chunk sizes."""
    chunk = AuditConfig(epsilon=rational(0)).chunk(target)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for data in pair:
        left = n
        while left:
            k = min(chunk, left)
            if target.vectorized:
                target.function(list(data), rng, k)
            else:
                for _ in range(k):
                    target.function(list(data), rng)
            left -= k
    return time.perf_counter() - start


def _stored_as(values: object) -> str:
    """How the engine stores a side's outcomes: ``array (N,)``/``array (N, k)`` or ``list``."""
    if isinstance(values, np.ndarray):
        return f"{values.dtype} array, {values.ndim}-D"
    return "list of Python objects"


def _round2(x: float) -> int:
    """``x`` rounded down to two significant digits (a readable sample size)."""
    if x < 100:
        return max(2, int(x))
    e = 10 ** (int(math.log10(x)) - 1)
    return int(x // e) * int(e)


def calibrate(target: Target, pair: Pair, seconds: float, n_max: int, seed: int) -> int:
    """A sample size per side for which sampling ``pair`` takes about ``seconds``."""
    n0 = AuditConfig(epsilon=rational(0)).chunk(target)
    t0, _, _ = _sample(target, pair, n0, seed)
    rate = 2 * n0 / max(t0, 1e-6)
    return min(n_max, max(n0, _round2(rate * seconds / 2)))


# ------------------------------------------------------------------ 1. throughput


def throughput(all_cases: Sequence[Case], seconds: float, seed: int, log: bool,
               repeats: int = 2) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for case in all_cases:
        for form in ("scalar", "vectorized"):
            if form == "vectorized" and case.vectorized is None:
                continue
            target = case.target(form)
            n_max = 4_000_000 if form == "vectorized" else 400_000
            n = calibrate(target, case.pair, seconds, n_max, seed)
            with OtherLoad() as load:
                t, a, _ = _sample(target, case.pair, n, seed)
                for _ in range(repeats - 1):  # best of (other load on the machine)
                    t = min(t, _sample(target, case.pair, n, seed)[0])
                n_raw = min(n, 65_536)
                raw = _raw_seconds(target, case.pair, n_raw, seed)
            row = {"target": case.key, "label": case.label, "outcome": case.outcome, "form": form,
                   "repeats": repeats, "other_cpus": load.cpus,
                   "stored_as": _stored_as(a.values), "kind": a.kind, "samples_per_side": n,
                   "seconds": t, "draws_per_second": 2 * n / t,
                   "raw_samples_per_side": n_raw, "raw_seconds": raw,
                   "raw_draws_per_second": 2 * n_raw / raw if raw > 0 else math.inf}
            rows.append(row)
            if log:
                print(f"throughput {case.key:30s} {form:10s} N={n:>9,d} {t:6.2f} s "
                      f"{row['draws_per_second']:>12,.0f} draws/s (raw {row['raw_draws_per_second']:,.0f})",
                      flush=True)
    return rows


# ------------------------------------------------------------------ 2. workers

WORKER_CASES = (("zoo:laplace_discrete", "scalar"), ("zoo:laplace_discrete", "vectorized"),
                ("zoo:histogram", "vectorized"), ("diffprivlib:count-laplace", "vectorized"))
WORKER_REPEATS = 5
"""Each worker count is timed this many times and the best is kept (other load on the machine)."""


def _same(x: Any, y: Any) -> bool:
    if isinstance(x.values, np.ndarray) and isinstance(y.values, np.ndarray):
        return bool(np.array_equal(x.values, y.values))
    return list(x.values) == list(y.values)


def workers(all_cases: Sequence[Case], seconds: float, seed: int, log: bool,
            plan: Sequence[tuple[str, str]] = WORKER_CASES, repeats: int = WORKER_REPEATS
            ) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for key, form in plan:
        if not any(c.key == key for c in all_cases):
            continue  # an optional library that is not installed
        case = _case(all_cases, key)
        target = case.target(form)
        n = calibrate(target, case.pair, seconds, 4_000_000 if form == "vectorized" else 400_000, seed)
        with OtherLoad() as load:
            t1, a1, b1 = _sample(target, case.pair, n, seed, workers=1)
            t2, a2, b2 = _sample(target, case.pair, n, seed, workers=2)
            same = _same(a1, a2) and _same(b1, b2)
            del a1, b1, a2, b2
            for _ in range(repeats - 1):
                t1 = min(t1, _sample(target, case.pair, n, seed, workers=1)[0])
                t2 = min(t2, _sample(target, case.pair, n, seed, workers=2)[0])
        rows.append({"target": key, "form": form, "samples_per_side": n, "seconds_1": t1,
                     "seconds_2": t2, "speedup": t1 / t2, "identical_samples": same,
                     "repeats": repeats, "other_cpus": load.cpus})
        if log:
            print(f"workers    {key:30s} {form:10s} N={n:>9,d} 1 worker {t1:6.2f} s, 2 workers "
                  f"{t2:6.2f} s (x{t1 / t2:.2f}), identical samples: {same}, other load "
                  f"{load.cpus if load.cpus is not None else float('nan'):.2f} CPUs", flush=True)
    return rows


# ------------------------------------------------------------------ 3. estimator

ESTIMATOR_CASES = ("zoo:noisy_max_index", "zoo:laplace_discrete", "zoo:laplace_float", "zoo:histogram",
                   "zoo:svt1")


def estimator(all_cases: Sequence[Case], sizes: Sequence[int], cap: float, seed: int,
              log: bool) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for key in ESTIMATOR_CASES:
        case = _case(all_cases, key)
        target = case.target("vectorized")
        warm_a, warm_b = sample_pair(target, case.pair, samples=1000, seed=seed)
        estimate_pair(warm_a.values, warm_b.values, epsilon=case.epsilon, delta=case.delta,
                      alpha=ALPHA)  # warm-up: lazy imports and caches are not the estimator's cost
        previous: tuple[int, float] | None = None
        for n in sizes:
            if previous is not None:
                predicted = previous[1] * n / previous[0] * 1.2
                if predicted > cap:
                    rows.append({"target": key, "outcome": case.outcome, "samples_per_side": n,
                                 "skipped": f"predicted {predicted:.0f} s > cap {cap:.0f} s"})
                    if log:
                        print(f"estimator  {key:30s} N={n:>9,d} skipped (predicted {predicted:.0f} s)",
                              flush=True)
                    break
            t_sample, a, b = _sample(target, case.pair, n, seed)
            best = math.inf
            for _ in range(3):
                start = time.perf_counter()
                est = estimate_pair(a.values, b.values, epsilon=case.epsilon, delta=case.delta,
                                    alpha=ALPHA)
                best = min(best, time.perf_counter() - start)
                if best >= REPEAT_BELOW:
                    break
            del a, b
            previous = (n, t_sample + best)
            rows.append({"target": key, "outcome": case.outcome, "samples_per_side": n,
                         "sampling_seconds": t_sample, "estimate_seconds": best,
                         "microseconds_per_draw": best / (2 * n) * 1e6,
                         "epsilon_lower_bound": est.epsilon_lower_bound, "event": est.event})
            if log:
                print(f"estimator  {key:30s} N={n:>9,d} sampling {t_sample:6.2f} s, estimate_pair "
                      f"{best:6.3f} s ({best / (2 * n) * 1e6:.2f} µs/draw)", flush=True)
    return rows


# ------------------------------------------------------------------ 4. memory


def _status_kib(field_name: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_peak() -> bool:
    """Reset the kernel's resident high-water mark (VmHWM) to the current RSS (Linux >= 4.0)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
    except OSError:
        return False
    return True


def memory_child(spec: str) -> None:
    """Sample (``mode`` = sample) or audit (``mode`` = audit) in this fresh process; print memory as JSON."""
    import resource

    mode, key, n_text, seed_text = spec.split(",")
    all_cases, _ = cases(third_party=False)
    case = _case(all_cases, key)
    target = case.target("vectorized")
    n, seed = int(n_text), int(seed_text)
    sample_pair(target, case.pair, samples=1000, seed=seed)  # warm up (imports, caches)
    config = AuditConfig(epsilon=case.epsilon, delta=case.delta, confidence=CONFIDENCE, samples=n,
                         seed=seed, workers=1, relation=case.relation)  # type: ignore[arg-type]
    before = _status_kib("VmRSS")
    reset = _reset_peak()
    start = time.perf_counter()
    bound = None
    stored = None
    if mode == "sample":
        a, b = sample_pair(target, case.pair, samples=n, seed=seed)
        assert len(a) == len(b) == n
        stored = _stored_as(a.values)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            bound = run_audit(target, config, [case.pair]).epsilon_lower_bound
    seconds = time.perf_counter() - start
    peak = _status_kib("VmHWM") if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"rss_before_kib": before, "peak_kib": peak,
                      "peak_method": "VmHWM after clear_refs" if reset else "ru_maxrss (upper bound)",
                      "seconds": seconds, "epsilon_lower_bound": bound, "stored_as": stored}))


MEMORY_MODES = ("sample", "audit")


def memory(plan: Sequence[tuple[str, int]], seed: int, log: bool) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for key, n in plan:
        row: dict[str, Any] = {"target": key, "samples_per_side": n, "packed_number_bytes": 2 * n * 8}
        for mode in MEMORY_MODES:
            out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--memory-child",
                                  f"{mode},{key},{n},{seed}"], capture_output=True, text=True,
                                 check=False, cwd=ROOT)
            if out.returncode != 0:
                row[f"{mode}_error"] = out.stderr.strip()[-500:]
                print(f"memory     {key:30s} N={n:>9,d} {mode} failed: {row[f'{mode}_error']}", flush=True)
                continue
            child = json.loads(out.stdout.strip().splitlines()[-1])
            above = (child["peak_kib"] - child["rss_before_kib"]) * 1024
            row[mode] = {**child, "peak_above_before_bytes": above, "bytes_per_draw": above / (2 * n)}
            if log:
                print(f"memory     {key:30s} N={n:>9,d} {mode:6s} peak +{above / 2**20:7.1f} MiB "
                      f"({above / (2 * n):5.1f} B/draw) in {child['seconds']:.1f} s", flush=True)
        rows.append(row)
    return rows


# ------------------------------------------------------------------ 5. tightness


@dataclass(frozen=True)
class TightCase:
    """A built-in mechanism with an exact epsilon, and an exact vectorized sampler of it."""

    name: str
    mechanism: Mechanism[Any]
    vectorized: Callable[..., Any]
    pair: Pair


def tight_cases() -> list[TightCase]:
    chosen = {"randomized response 3/4", "exponential, base 3/2, counts 0..2"}
    out = [TightCase(name, mech, finite_law_samplers(mech)[1], ((0,), (1,)))
           for name, mech, sampling, delta in VALIDATION_CASES
           if name in chosen and sampling == "law" and delta == 0]
    dl = zoo_entry("laplace_discrete")
    assert dl.vectorized is not None
    out.append(TightCase("discrete Laplace, scale 1 (zoo `laplace_discrete`)",
                         discrete_laplace_mechanism(Fraction(1)), dl.vectorized, _pair(dl.pairs)))
    return out


def tightness(sizes: Sequence[int], seeds: int, seed0: int, log: bool) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for case in tight_cases():
        a, b = case.pair
        exact = exact_epsilon(case.mechanism, a, b, 0).value()
        dist_a, dist_b = case.mechanism.distribution(a), case.mechanism.distribution(b)
        target = target_from_callable(case.vectorized, name=case.name)
        for n in sizes:
            oracle = oracle_bound(dist_a, dist_b, n=n, alpha=ALPHA, delta=0).epsilon_lower_bound
            bounds: list[float] = []
            times: list[float] = []
            for s in range(seed0, seed0 + seeds):
                config = AuditConfig(epsilon=case.mechanism.claim.epsilon, confidence=CONFIDENCE,
                                     samples=n, seed=s)
                start = time.perf_counter()
                report = run_audit(target, config, [case.pair])
                times.append(time.perf_counter() - start)
                bounds.append(report.epsilon_lower_bound)
            med = statistics.median(bounds)
            row = {"mechanism": case.name, "samples_per_side": n, "seeds": seeds,
                   "bounds": bounds, "median_bound": med, "min_bound": min(bounds),
                   "max_bound": max(bounds), "exact": exact, "oracle": oracle,
                   "median_over_exact": med / exact,
                   "median_over_oracle": med / oracle if oracle > 0 else math.nan,
                   "median_seconds_per_audit": statistics.median(times)}
            rows.append(row)
            if log:
                print(f"tightness  {case.name[:30]:30s} N={n:>9,d} median {med:.4f} / exact "
                      f"{exact:.4f} = {med / exact:.3f} (oracle {oracle:.4f}) "
                      f"{row['median_seconds_per_audit']:.2f} s/audit", flush=True)
    return rows


# ------------------------------------------------------------------ rendering


def _rate(x: float) -> str:
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    if x >= 1e3:
        return f"{x / 1e3:.1f} k"
    return f"{x:.0f}"


def _n(n: int) -> str:
    exp = int(math.log10(n)) if n > 0 else 0
    return f"10^{exp}" if n == 10**exp else f"{n:,}"


def _engine_share(r: dict[str, Any]) -> float:
    """Fraction of the engine's wall time not spent calling the target (0 when within noise)."""
    share: float = 1 - r["draws_per_second"] / r["raw_draws_per_second"]
    return max(0.0, share)


def _span(values: Sequence[float], fmt: str) -> str:
    lo, hi = min(values), max(values)
    return format(lo, fmt) if format(lo, fmt) == format(hi, fmt) else f"{lo:{fmt}} to {hi:{fmt}}"


def _cpus(x: float | None) -> str:
    return "?" if x is None else f"{x:.2f}"


def _best(repeats: int) -> str:
    return "one run" if repeats == 1 else f"best of {repeats} runs"


def _speedups(rows: list[dict[str, Any]]) -> dict[str, float]:
    by = {(r["target"], r["form"]): r for r in rows}
    return {r["target"]: r["draws_per_second"] / by[(r["target"], "scalar")]["draws_per_second"]
            for r in rows if r["form"] == "vectorized" and (r["target"], "scalar") in by}


def _throughput_section(data: dict[str, Any]) -> list[str]:
    rows = data["throughput"]
    speed = _speedups(rows)
    out = [
        "## 1. Sampling throughput, scalar and vectorized targets",
        "",
        "A *draw* is one outcome of the target; both datasets of the pair are drawn, so "
        f"draws/s = 2 × (samples per side) / wall time, {_best(rows[0].get('repeats', 1))}. "
        "The sample size per side "
        f"was chosen from a calibration run so that each run takes about {data['case_seconds']} s "
        "(capped at 4·10^6 vectorized, 4·10^5 scalar). *Target alone* times the same calls "
        "without the engine (no per-chunk seeding, no outcome checks, no packing), on up to "
        "65 536 draws per side; *engine share* is the fraction of the engine's wall time not "
        "spent in the target (0% when within the noise). One worker. The scalar form "
        "`fn(data, rng)` is called once per draw, in chunks of 2 048; the vectorized form "
        "`fn(data, rng, size)` once per chunk of 16 384 draws.",
        "",
        "| target | outcome | form | samples per side | wall time (s) | draws/s (engine) "
        "| draws/s (target alone) | engine share | vectorized / scalar | stored as |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        ratio = f"{speed[r['target']]:,.1f}×" if r["form"] == "vectorized" and r["target"] in speed else ""
        out.append(f"| {r['label']} | {r['outcome']} | {r['form']} | {r['samples_per_side']:,} | "
                   f"{r['seconds']:.2f} | {_rate(r['draws_per_second'])} | "
                   f"{_rate(r['raw_draws_per_second'])} | {_engine_share(r):.0%} | {ratio} | "
                   f"{r.get('stored_as', '')} |")
    out.append("")
    for sk in data.get("skipped_targets", []):
        out += [f"* Skipped `{sk['target']}`: {sk['reason']}", ""]
    number = [r for r in rows if r["form"] == "vectorized" and r["kind"] == "number"]
    tuples = [r for r in rows if r["form"] == "vectorized" and r["kind"].startswith("tuple")]
    native = [r for r in number if r["target"].startswith(("zoo:", "privref:"))]
    if native:
        out += [
            "**Vectorized targets.** For number outcomes drawn with numpy (the zoo entries and "
            "the privref mechanism's exact law sampler) the vectorized form is "
            f"{_span([speed[r['target']] for r in native if r['target'] in speed], ',.0f')} times "
            "faster than the scalar form and reaches "
            f"{_span([r['draws_per_second'] / 1e6 for r in native], '.1f')} million draws/s through "
            "the engine. The engine's own share (per-chunk seeding, checks, packing into an "
            f"int64/float64 array) is {_span([_engine_share(r) * 100 for r in native], '.0f')}% of "
            "the time, largest for the fastest targets, where its fixed cost per chunk weighs "
            "most. Scalar targets run at "
            f"{_span([r['draws_per_second'] / 1e3 for r in rows if r['form'] == 'scalar'], ',.0f')} "
            "thousand draws/s, a rate set by the target's own cost per call (engine share "
            f"{_span([_engine_share(r) * 100 for r in rows if r['form'] == 'scalar'], '.0f')}%).",
            "",
        ]
    third = {r["target"]: r for r in rows if r["form"] == "vectorized"
             and not r["target"].startswith(("zoo:", "privref:"))}
    if "diffprivlib:count-laplace" in third and "diffprivlib:count-laplace" in speed:
        out += ["**diffprivlib** has no batch sampler, so the adapter's vectorized form calls "
                "`randomise` once per draw and gains only "
                f"{speed['diffprivlib:count-laplace']:.1f}× over the scalar form (which also builds "
                "the mechanism object on every call).", ""]
    if "opendp:count-laplace" in third and "opendp:count-laplace" in speed:
        out += ["**OpenDP**'s vectorized form is one call of a vector-domain Laplace measurement "
                f"per chunk: {speed['opendp:count-laplace']:.0f}× its scalar form, "
                f"{_rate(third['opendp:count-laplace']['draws_per_second'])} draws/s.", ""]
    slow = [r for r in tuples if _engine_share(r) > 0.5]
    if slow:
        worst = max(slow, key=_engine_share)
        out += [
            "**Bottleneck: tuple and vector outcomes.** A vectorized target that returns a 2-D "
            "array is unpacked by the engine (`privref.audits.blackbox.target.make_batch`) into a list "
            "of Python tuples, and every element of every tuple is normalized and checked "
            "(kind, hashability, NaN) in Python. For "
            + ", ".join(f"`{r['target']}` ({_rate(r['raw_draws_per_second'])} draws/s alone, "
                        f"{_rate(r['draws_per_second'])} through the engine)" for r in slow)
            + f", that is up to {_engine_share(worst):.0%} of the wall time. Checking a numeric "
            "2-D array with numpy and keeping it packed would remove most of this cost, and cut "
            "the memory of such outcomes (section 4).",
            "",
        ]
    elif tuples:
        out += [
            "**Tuple and vector outcomes.** A vectorized target that returns a numeric 2-D array "
            "(one row per outcome) is checked with numpy and stored as a 2-D array "
            "(`privref.audits.blackbox.target.make_batch`, since commit 7dfbfdd): "
            + ", ".join(f"`{r['target']}` runs at {_rate(r['draws_per_second'])} draws/s through "
                        f"the engine ({_engine_share(r):.0%} engine share)" for r in tuples)
            + ". Before that commit the engine turned each row into a Python tuple and checked "
            "every element in Python; the first run of this benchmark (at 0616a4e) measured 59 k "
            "draws/s for `svt1` (3.9 M alone, 98% of the time in the engine) and 94 k for "
            "`histogram` (1.1 M alone, 91%). Tuple outcomes returned as Python sequences still "
            "take that path.",
            "",
        ]
    return out


def _workers_section(data: dict[str, Any]) -> list[str]:
    rows = data["workers"]
    m = data["machine"]
    out = [
        "## 2. Worker processes",
        "",
        f"`workers=1` against `workers=2` on this {m['cpu_count']}-vCPU machine, same seed and "
        f"samples per side, {_best(rows[0].get('repeats', 1))} each (fork start method; "
        "the pool start-up is included, as in a real audit). *Identical* checks the runner's "
        "reproducibility guarantee: the samples depend on the seed only, never on the number "
        "of workers.",
        "",
        "| target | form | samples per side | 1 worker (s) | 2 workers (s) | speed-up | identical "
        "| other load (CPUs) |",
        "|---|---|---:|---:|---:|---:|---|---:|",
        *[f"| `{r['target']}` | {r['form']} | {r['samples_per_side']:,} | {r['seconds_1']:.2f} | "
          f"{r['seconds_2']:.2f} | {r['speedup']:.2f}× | {'yes' if r['identical_samples'] else '**no**'} "
          f"| {_cpus(r.get('other_cpus'))} |" for r in rows],
        "",
    ]
    busy = [r for r in rows if (r.get("other_cpus") or 0.0) >= 0.3]
    good = [r for r in rows if r["speedup"] >= 1.3]
    modest = [r for r in rows if r["speedup"] < 1.3 and r not in busy]
    if good:
        out.append("A second worker pays off for "
                   + ", ".join(f"`{r['target']}` ({r['form']}, {r['speedup']:.2f}×)" for r in good)
                   + ": most of the time is per-chunk work (the target's draws, the engine's "
                     "checks) that the workers share.")
    if modest:
        out.append("It gains little for "
                   + ", ".join(f"`{r['target']}` ({r['form']}, {r['speedup']:.2f}×)" for r in modest)
                   + ": a chunk of a fast vectorized target is cheap to draw, so the parent's "
                     "serial share (pool start-up, receiving, unpickling and merging the chunks) "
                     "likely dominates.")
    out += ["*Other load* is the average number of CPUs used by other processes during the row. "
            "With 2 vCPUs, any other load takes CPU time away from the second worker."
            + (" Rows with an other load of 0.3 CPUs or more ("
               + ", ".join(f"`{r['target']}` {r['form']}" for r in busy)
               + ") understate the speed-up a quiet machine gives." if busy else ""), ""]
    return out


def _estimator_section(data: dict[str, Any]) -> list[str]:
    rows = data["estimator"]
    out = [
        "## 3. Cost of the estimator",
        "",
        "`estimate_pair` alone (event selection on half the samples, Clopper–Pearson bounds "
        "on the other half), on samples drawn by the engine from each zoo entry's vectorized "
        f"form, after one warm-up call on 1 000 samples per side (lazy imports, caches); best "
        f"of 3 when under {REPEAT_BELOW} s. Sampling is timed separately (one "
        f"worker). Confidence {data['confidence']}. µs per draw = estimate time / (2N).",
        "",
        "| outcomes | target | samples per side | sampling (s) | estimate_pair (s) "
        "| µs per draw | ε lower bound |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if "skipped" in r:
            out.append(f"| {r['outcome']} | `{r['target']}` | {r['samples_per_side']:,} | — | "
                       f"skipped ({r['skipped']}) | — | — |")
            continue
        out.append(f"| {r['outcome']} | `{r['target']}` | {r['samples_per_side']:,} | "
                   f"{r['sampling_seconds']:.2f} | {r['estimate_seconds']:.3f} | "
                   f"{r['microseconds_per_draw']:.2f} | {r['epsilon_lower_bound']:.4f} |")
    done = [r for r in rows if "skipped" not in r]
    largest: dict[str, dict[str, Any]] = {}
    for r in done:
        if r["samples_per_side"] >= largest.get(r["target"], {"samples_per_side": 0})["samples_per_side"]:
            largest[r["target"]] = r
    numbers = [r for k, r in largest.items() if k in ("zoo:noisy_max_index", "zoo:laplace_discrete",
                                                      "zoo:laplace_float")]
    tuples = [r for k, r in largest.items() if k in ("zoo:histogram", "zoo:svt1")]
    out.append("")
    if numbers and tuples:
        out.append(
            "At the largest N measured, number outcomes cost the estimator "
            f"{_span([r['microseconds_per_draw'] for r in numbers], '.2f')} µs per draw (they are "
            "sorted and counted with numpy) and tuple or vector outcomes "
            f"{_span([r['microseconds_per_draw'] for r in tuples], '.1f')} µs (per-coordinate, "
            "pattern and learned events over the coordinates); for those, estimate_pair "
            f"takes {_span([r['estimate_seconds'] / r['sampling_seconds'] for r in tuples], '.1f')} "
            "times as long as the engine's sampling.")
    growth: dict[str, float] = {}
    for key in dict.fromkeys(r["target"] for r in done):
        by_n = {r["samples_per_side"]: r for r in done if r["target"] == key}
        if 100_000 in by_n and 1_000_000 in by_n:
            growth[key] = (by_n[1_000_000]["microseconds_per_draw"]
                           / by_n[100_000]["microseconds_per_draw"])
    tuple_keys = {"zoo:histogram", "zoo:svt1"}
    g_num = [v for k, v in growth.items() if k not in tuple_keys]
    g_tup = [v for k, v in growth.items() if k in tuple_keys]
    if g_num and g_tup:
        out.append("From 10^5 to 10^6 samples per side the cost per draw changes by a factor of "
                   f"{_span(g_num, '.2f')} for number outcomes and {_span(g_tup, '.2f')} for tuple "
                   "outcomes.")
    out.append("")
    return out


def _memory_section(data: dict[str, Any]) -> list[str]:
    rows = data["memory"]
    out = [
        "## 4. Peak memory",
        "",
        "Each figure comes from a fresh process with one worker and the default chunk of 16 384 "
        "draws: the resident high-water mark during the call (`VmHWM`, reset just before it "
        "through `/proc/self/clear_refs`) minus the resident size just before it. *Sampling* is "
        "`sample_pair` alone; *audit* is a whole `run_audit` on the pair (sampling, then the "
        "estimator). *Packed* is 2N × 8 bytes, the stored samples when they are numbers.",
        "",
        "| target | samples per side | packed numbers (MiB) | sampling peak (MiB) | B per draw "
        "| audit peak (MiB) | B per draw | audit time (s) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def cell(r: dict[str, Any], mode: str) -> str:
        if mode not in r:
            return "failed | "
        return f"{r[mode]['peak_above_before_bytes'] / 2**20:.1f} | {r[mode]['bytes_per_draw']:.1f}"

    for r in rows:
        secs = f"{r['audit']['seconds']:.1f}" if "audit" in r else "—"
        out.append(f"| `{r['target']}` | {r['samples_per_side']:,} | "
                   f"{r['packed_number_bytes'] / 2**20:.1f} | {cell(r, 'sample')} | {cell(r, 'audit')} "
                   f"| {secs} |")
    out.append("")
    growth: list[str] = []
    for key in dict.fromkeys(r["target"] for r in rows):
        mine = sorted((r for r in rows if r["target"] == key and "audit" in r),
                      key=lambda r: r["samples_per_side"])
        if len(mine) >= 2:
            lo, hi = mine[0], mine[-1]
            growth.append(f"`{key}` {lo['audit']['bytes_per_draw']:.0f} → "
                          f"{hi['audit']['bytes_per_draw']:.0f} B per draw from "
                          f"{_n(lo['samples_per_side'])} to {_n(hi['samples_per_side'])}")
    if growth:
        out += ["Peak memory is proportional to the samples kept, with a constant cost per draw "
                "at budgets 4× apart (" + "; ".join(growth) + "): the engine draws one chunk per "
                "worker at a time and keeps only packed results, so nothing grows with the "
                "number of chunks.", ""]
    nums = [r for r in rows if "sample" in r and r["target"] in ("zoo:laplace_discrete", "zoo:laplace_float")]
    if nums:
        audit_bytes = [r["audit"]["bytes_per_draw"] for r in nums if "audit" in r]
        out += ["For number outcomes, sampling peaks at "
                f"{_span([r['sample']['bytes_per_draw'] for r in nums], '.0f')} B per draw, "
                f"{_span([r['sample']['bytes_per_draw'] / 8 for r in nums], '.1f')} times the packed "
                "8 B: `_Engine.sample` keeps every chunk until both sides have been concatenated, "
                "so the chunks and the merged arrays coexist for a moment. The "
                "estimator then adds its working copies (split, sorted and unique values): the "
                f"whole audit peaks at {_span(audit_bytes, '.0f')} B per draw.", ""]
    tup = [r for r in rows if "sample" in r and r["target"] in ("zoo:histogram", "zoo:svt1")]
    if tup:
        stored = {r["sample"].get("stored_as") for r in tup}
        how = ("as a 2-D int64 array (40 B per 5-vector)" if all(x and "2-D" in x for x in stored)
               else "as lists of Python tuples (40 B per 5-vector in an int64 array)")
        audit_tup = [r["audit"]["bytes_per_draw"] for r in tup if "audit" in r]
        out += ["The 5-vectors of `histogram` are stored " + how + ": sampling peaks at "
                f"{_span([r['sample']['bytes_per_draw'] for r in tup], '.0f')} B per draw and "
                f"the whole audit at {_span(audit_tup, '.0f')} B per draw.", ""]
    return out


def _tightness_section(data: dict[str, Any]) -> list[str]:
    rows = data["tightness"]
    out = [
        "## 5. Tightness against N",
        "",
        f"`run_audit` on one pair at confidence {data['confidence']}, each built-in mechanism "
        f"sampled by an exact vectorized sampler of its law, {rows[0]['seeds']} seeds per N. The "
        "table gives the median lower bound, its ratio to the pair's exact ε (from "
        "`validation.oracle.exact_epsilon`) and to the oracle bound (the Clopper–Pearson "
        "bound at N for the best event fixed in advance, at its expected counts), and the "
        "smallest and largest bound over the seeds. The randomized-response and exponential "
        "mechanisms are the cases of `benchmarks/bench_blackbox_validation.py` (imported from "
        "there), which measures the same ratio at 10^3..10^5 with 40 to 200 seeds "
        "([blackbox-statistics.md](blackbox-statistics.md)); the discrete Laplace mechanism is "
        "the zoo's `laplace_discrete` (infinite support).",
        "",
        "| mechanism | N per side | median bound | exact ε | median / exact | oracle bound "
        "| median / oracle | min..max over seeds | s per audit |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|",
        *[f"| {r['mechanism']} | {_n(r['samples_per_side'])} | {r['median_bound']:.4f} | "
          f"{r['exact']:.4f} | {r['median_over_exact']:.3f} | {r['oracle']:.4f} | "
          f"{r['median_over_oracle']:.3f} | {r['min_bound']:.4f}..{r['max_bound']:.4f} | "
          f"{r['median_seconds_per_audit']:.2f} |" for r in rows],
        "",
    ]
    biggest = max(r["samples_per_side"] for r in rows)
    at_big = [r for r in rows if r["samples_per_side"] == biggest]
    shrink: list[float] = []
    for mech in dict.fromkeys(r["mechanism"] for r in rows):
        mine = sorted((r for r in rows if r["mechanism"] == mech), key=lambda r: r["samples_per_side"])
        for lo, hi in itertools.pairwise(mine):
            gap_lo, gap_hi = 1 - lo["median_over_exact"], 1 - hi["median_over_exact"]
            if lo["samples_per_side"] >= 10_000 and gap_hi > 0 and gap_lo > 0:
                shrink.append(gap_lo / gap_hi)
    later = [r["median_over_oracle"] for r in rows if r["samples_per_side"] >= 10_000
             and not math.isnan(r["median_over_oracle"])]
    out.append(f"At N = {_n(biggest)} the median bound is "
               + "; ".join(f"{r['median_over_exact']:.1%} of the exact ε for {r['mechanism'].split(' (')[0]}"
                           for r in at_big) + ".")
    if shrink:
        out.append("From 10^4 on, each tenfold increase of N divides the gap 1 − bound/ε by "
                   f"{_span(shrink, '.1f')} (√10 ≈ 3.2 is the rate of a confidence interval).")
    if later:
        out.append("From 10^4 on the median is "
                   f"{_span(later, '.2f')} times the oracle bound. The oracle counts the event of "
                   "largest likelihood ratio on all N samples; the auditor selects its event on "
                   "half of them and bounds it on the other half, but it may pick an event with "
                   "more mass and a slightly lower ratio (a tail instead of a single point), "
                   "whose bound is better at finite N, so the ratio can exceed 1.")
    out.append("")
    return out


def render(data: dict[str, Any]) -> str:
    m = data["machine"]
    cpus = f"{m['cpu_count']} vCPUs (os.cpu_count()), {m.get('cpus_usable')} usable"
    lines = [
        "# Black-box auditor: speed and scale",
        "",
        "Generated by `python benchmarks/bench_blackbox_speed.py` (do not edit by hand; rerun it "
        "to regenerate this page and [blackbox-performance.json](generated/blackbox-performance.json)). "
        "Issue 3, item 7 asks for the sampling throughput on vectorized and scalar targets and "
        "the tightness of the bound against the number of samples N. Every sampling figure goes "
        "through the real engine (`privref.audits.blackbox.runner`: per-chunk seeding, outcome checks, "
        "packing, merging), the code behind `privref audit blackbox` and `assert_private`; the "
        "tightness figures come from whole `run_audit` calls. Nothing here is asserted; the "
        "timings depend on the machine and its load.",
        "",
        "| | |",
        "|---|---|",
        f"| CPU | {m['cpu_model']}, {cpus} |",
        f"| Memory | {m['memory_gib']} GiB |",
        f"| OS | {m['platform']} |",
        f"| Python | {m['implementation']} {m['python']}, numpy {m['numpy']} |",
        f"| Settings | {data['mode']} run, seed {data['seed']} |",
        "",
        "The machine is shared: *other load* is the average number of CPUs that other processes "
        "used while a series ran (all busy time in `/proc/stat` minus this process and its "
        "workers). Timings taken under other load are slower than on a quiet machine.",
        "",
        "| series | run at (UTC) | code | wall time (s) | load average at start | other load (CPUs) |",
        "|---|---|---|---:|---:|---:|",
    ]
    runs = data.get("section_runs", {})
    for name in SECTIONS:
        if name in runs:
            r = runs[name]
            code = f"`{(r['git_commit'] or '')[:7]}`"
            if r["core_modified"]:
                code += " + uncommitted changes"
            lines.append(f"| {name} | {r['date_utc']} | {code} | {r['seconds']:.0f} | "
                         f"{(r['loadavg_start'] or ['?'])[0]} | {_cpus(r['other_cpus'])} |")
    lines.append("")
    if data.get("throughput"):
        lines += _throughput_section(data)
    if data.get("workers"):
        lines += _workers_section(data)
    if data.get("estimator"):
        lines += _estimator_section(data)
    if data.get("memory"):
        lines += _memory_section(data)
    if data.get("tightness"):
        lines += _tightness_section(data)
    lines += [
        "## Reproducing",
        "",
        "```sh",
        "python benchmarks/bench_blackbox_speed.py          # this page and the JSON, 3 to 5 minutes",
        "python benchmarks/bench_blackbox_speed.py --quick  # smoke run, under 30 s, writes nothing",
        "python benchmarks/bench_blackbox_speed.py --render "
        "docs/generated/blackbox-performance.json  # page only",
        "python benchmarks/bench_blackbox_speed.py --sections workers "
        "--update docs/generated/blackbox-performance.json  # rerun one series",
        "```",
        "",
        "`--sections throughput,workers,estimator,memory,tightness` runs some of the series; "
        "with `--update`, only those are rerun and replaced in the JSON (for a series disturbed "
        "by other load). `--case-seconds` sets the duration of each throughput case and "
        "`--cap-seconds` the largest predicted estimator run.",
        "",
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------ main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="smoke run (under 30 s): small budgets, few seeds, no files written")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"comma-separated subset of {','.join(SECTIONS)}")
    parser.add_argument("--case-seconds", type=float, default=None,
                        help="target duration of each throughput case (default 1.5, or 0.1 with --quick)")
    parser.add_argument("--cap-seconds", type=float, default=None,
                        help="skip an estimator size predicted to take longer (default 90, or 5 quick)")
    parser.add_argument("--doc", type=Path, default=None,
                        help=f"markdown output (default {DOC.relative_to(ROOT)}; none with --quick)")
    parser.add_argument("--json", type=Path, default=None,
                        help=f"JSON output (default {JSON.relative_to(ROOT)}; none with --quick)")
    parser.add_argument("--render", type=Path, default=None, metavar="JSON",
                        help="only re-render the page from a JSON file written by this script")
    parser.add_argument("--update", type=Path, default=None, metavar="JSON",
                        help="rerun only --sections and replace them in this JSON file (e.g. a series "
                             "disturbed by other load), keeping the others; rewrites it and the page")
    parser.add_argument("--memory-child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_child is not None:
        memory_child(args.memory_child)
        return 0
    if args.render is not None:
        doc = args.doc or DOC
        doc.write_text(render(json.loads(args.render.read_text(encoding="utf-8"))), encoding="utf-8")
        print(f"wrote {doc}")
        return 0
    sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        parser.error(f"--sections: unknown {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    quick = args.quick
    case_seconds = args.case_seconds or (0.1 if quick else 1.5)
    cap = args.cap_seconds or (5.0 if quick else 90.0)
    settings = {"mode": "quick" if quick else "full", "seed": args.seed, "case_seconds": case_seconds,
                "cap_seconds": cap, "confidence": str(CONFIDENCE)}
    data: dict[str, Any] = {**settings, "section_runs": {}}
    if args.update is not None:
        data = json.loads(args.update.read_text(encoding="utf-8"))
        for name, value in settings.items():
            if data.get(name) != value:
                parser.error(f"--update {args.update}: {name}={data.get(name)!r} there, {value!r} now; "
                             "rerun with the same settings or without --update")
    info = machine()
    all_cases, skipped = cases()
    for sk in skipped:
        print(f"skipped {sk['target']}: {sk['reason']}", flush=True)
    data["skipped_targets"] = skipped
    runs: dict[str, Callable[[], list[dict[str, Any]]]] = {
        "throughput": lambda: throughput(all_cases, case_seconds, args.seed, True, 1 if quick else 2),
        "workers": lambda: workers(all_cases, case_seconds, args.seed, True,
                                   WORKER_CASES[:2] if quick else WORKER_CASES,
                                   1 if quick else WORKER_REPEATS),
        "estimator": lambda: estimator(all_cases, (1000, 10_000) if quick else (10_000, 100_000, 1_000_000),
                                       cap, args.seed, True),
        "memory": lambda: memory(
            [("zoo:laplace_discrete", 100_000), ("zoo:laplace_discrete", 400_000)] if quick else
            [("zoo:laplace_discrete", 1_000_000), ("zoo:laplace_discrete", 4_000_000),
             ("zoo:laplace_float", 1_000_000), ("zoo:laplace_float", 4_000_000),
             ("zoo:histogram", 250_000), ("zoo:histogram", 1_000_000)], args.seed, True),
        "tightness": lambda: tightness((1000, 10_000) if quick else (1000, 10_000, 100_000, 1_000_000),
                                       2 if quick else 5, args.seed, True),
    }
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # -inf arithmetic in likelihood-ratio events
        for name in SECTIONS:
            if name in sections:
                began = time.perf_counter()
                when = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
                loadavg = _loadavg()
                with OtherLoad() as load:
                    data[name] = runs[name]()
                data["section_runs"][name] = {
                    "date_utc": when, "git_commit": info["git_commit"],
                    "core_modified": info["core_modified"], "seconds": time.perf_counter() - began,
                    "other_cpus": load.cpus, "loadavg_start": loadavg}
                print(f"-- {name}: {data['section_runs'][name]['seconds']:.1f} s, other processes "
                      f"used {_cpus(load.cpus)} CPUs on average", flush=True)
    info["loadavg_end"] = _loadavg()
    data["machine"] = info
    print(f"total {time.perf_counter() - start:.1f} s; load average at start {info['loadavg_start']}, "
          f"at end {info['loadavg_end']}", flush=True)
    doc = args.doc if args.doc is not None else (None if quick else DOC)
    out = args.json if args.json is not None else (None if quick else JSON)
    if args.update is not None:
        doc = args.doc or DOC
        out = args.json or args.update
    if doc is not None:
        doc.write_text(render(data), encoding="utf-8")
        print(f"wrote {doc}")
    if out is not None:
        out.write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
