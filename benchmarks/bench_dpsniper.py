"""privref against DP-Sniper on DP-Sniper's 20 benchmark mechanisms, at DP-Sniper's default budget.

Issue 13, item 7.  Usage (from the repository root)::

    python benchmarks/bench_dpsniper.py [--quick] [--only NAME[,NAME...]] [--no-scaling]
        [--scaling-only] [--workers 2] [--seed 0] [--json docs/generated/blackbox-dpsniper.json]
        [--doc docs/blackbox-zoo.md] [--force]
    python benchmarks/bench_dpsniper.py --render      # rewrite the doc table from the JSON only

For every DP-Sniper entry of :func:`validation.zoo.zoo` (``dpsniper_*``;
``--only`` takes entry names or DP-Sniper class names), one whole
:func:`privref.audits.blackbox.runner.run_audit` with the default (streaming)
estimator on the entry's vectorized sampler, at confidence 9/10, seed 0, 2 workers:

* candidates: all of DP-Sniper's input pairs for that mechanism (``dpsniper_pairs``: 4 or 16
  ordered pairs), so privref's screening + confirmation chooses among them, as DP-Sniper's own
  search does;
* screening: 2·10^7 samples per side per pair (DP-Sniper's n_train + n_check = 10^7 + 10^7
  per pair), then ``confirm=1``: the best pair gets 2.2·10^8 fresh samples per side (the
  budget the issue quotes as DP-Sniper's default) and the whole alpha = 1/10;
* both views of one run: the IEEE-754 view (events that read the bits of float outputs) and
  the real-arithmetic view, each at alpha/2.  The comparison with DP-Sniper is on the
  real-arithmetic bound (DP-Sniper's classifiers see float values, not their bits).

Recorded per mechanism: both bounds, the witness pair and whether it is a known worst pair, the
wall time, and the oracle bound (:func:`validation.zoo_oracle.witness_oracle`: the best
Clopper–Pearson bound the entry's known witness events give at privref's held-out size, with
the whole alpha and no selection).  ``--quick`` divides every budget by 100.  The wall-time
series (3 mechanisms at N = 2.2·10^6, 2.2·10^7, 2.2·10^8, screening N/11) reuses the main runs
at the largest N.

Results go to the JSON file after every run (a record per (entry, N); existing records at the
same parameters are kept and skipped unless ``--force``, so an interrupted run resumes), and
the table between the markers ``<!-- dpsniper-bench:start -->`` / ``<!-- dpsniper-bench:end -->``
in docs/blackbox-zoo.md is regenerated from the JSON.  Nothing here asserts.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from privref.audits.blackbox.estimate import selection_sizes  # noqa: E402
from privref.audits.blackbox.report import BlackboxReport, PairResult, is_float_leak  # noqa: E402
from privref.audits.blackbox.runner import DEFAULT_SELECTION_CAP, AuditConfig, run_audit  # noqa: E402
from privref.audits.blackbox.target import target_from_callable  # noqa: E402
from privref.reference.reals import Interval  # noqa: E402
from validation.zoo import NotPrivate, ZooEntry, zoo  # noqa: E402
from validation.zoo_dpsniper import MAPPING, PUBLISHED  # noqa: E402
from validation.zoo_oracle import witness_oracle  # noqa: E402

CONFIDENCE = Fraction(9, 10)
SAMPLES = 220_000_000
"""DP-Sniper's default budget per side for the final estimate (as quoted in issue 13)."""
SCREENING = 20_000_000
"""Per side per candidate pair: DP-Sniper's n_train + n_check."""
SCALING = ("dpsniper_laplace", "dpsniper_report_noisy_max3", "dpsniper_svt3")
SCALING_SAMPLES = (2_200_000, 22_000_000, 220_000_000)
JSON_PATH = ROOT / "docs" / "generated" / "blackbox-dpsniper.json"
DOC_PATH = ROOT / "docs" / "blackbox-zoo.md"
START, END = "<!-- dpsniper-bench:start -->", "<!-- dpsniper-bench:end -->"

ORDER = (
    "dpsniper_laplace", "dpsniper_truncated_geometric", "dpsniper_report_noisy_max1",
    "dpsniper_report_noisy_max2", "dpsniper_report_noisy_max3", "dpsniper_report_noisy_max4",
    "dpsniper_noisy_hist2", "dpsniper_noisy_hist1", "dpsniper_svt1", "dpsniper_svt3",
    "dpsniper_svt2", "dpsniper_svt4", "dpsniper_svt5", "dpsniper_svt6", "dpsniper_prefix_sum",
    "dpsniper_numerical_svt", "dpsniper_one_time_rappor", "dpsniper_rappor",
    "dpsniper_laplace_parallel", "dpsniper_svt34_parallel")
"""Run order: the fastest first (measured with --quick), then the four mechanisms where issue 13
says DP-Sniper still won (ReportNoisyMax1/3, SVT1/3) as early as their cost allows."""

ALL_SHIFT = {
    "dpsniper_report_noisy_max3": 5, "dpsniper_report_noisy_max4": 5, "dpsniper_prefix_sum": 10,
    "dpsniper_svt3": 10, "dpsniper_svt34_parallel": 10,
}
"""Entries whose worst pairs among DP-Sniper's are the all-shift pairs 1^d vs 2^d and 1^d vs 0^d
(every coordinate moves the same way; by symmetry both are equally bad, either order)."""

ANY_PAIR = {"dpsniper_laplace", "dpsniper_laplace_parallel", "dpsniper_truncated_geometric",
            "dpsniper_noisy_hist1", "dpsniper_noisy_hist2"}
"""Entries on which every DP-Sniper pair is a worst pair (one value or one bin moves by 1).

For the truncated geometric this holds for DP-Sniper's pairs 1 vs 0 and 1 vs 2 (both inside
the clamped range, where the loss is attained)."""


def _pair_key(a: Any, b: Any) -> frozenset[tuple[Any, ...]]:
    return frozenset((tuple(a), tuple(b)))


def worst_pairs(entry: ZooEntry) -> set[frozenset[tuple[Any, ...]]] | None:
    """The known worst pairs among DP-Sniper's (unordered), or None where none is known.

    All-shift entries: 1^d vs 2^d and 1^d vs 0^d.  Symmetric entries: every pair.  Otherwise
    the pairs of the entry's witnesses that are among DP-Sniper's pairs, when the entry's
    true epsilon enclosure's lower end is that witness's loss (the best pair of a search);
    RAPPOR's worst pair over its whole domain (10 vs 6) is not among DP-Sniper's.
    """
    candidates = {_pair_key(a, b) for a, b in entry.pairs}
    if entry.name in ANY_PAIR:
        return candidates
    if entry.name in ALL_SHIFT:
        d = ALL_SHIFT[entry.name]
        return {_pair_key([1] * d, [2] * d), _pair_key([1] * d, [0] * d)}
    if entry.name in ("dpsniper_rappor", "dpsniper_one_time_rappor", "dpsniper_report_noisy_max4",
                      "dpsniper_svt5"):
        return None  # several pairs equally bad or infinitely bad; no single worst pair
    found = {_pair_key(w.a, w.b) for w in entry.witnesses} & candidates
    return found or None


def fmt_eps(x: object) -> str:
    """A short rendering of a true epsilon: ∞, [lo, hi] or a 4-decimal value."""
    if isinstance(x, NotPrivate):
        return "∞"
    if isinstance(x, Interval):
        return f"[{float(x.lo):.4f}, {float(x.hi):.4f}]"
    return f"{float(x):.4f}"  # type: ignore[arg-type]


def _show(pair: Any) -> str:
    def one(d: Any) -> str:
        return "".join(str(v) if len(str(v)) == 1 else f"({v})" for v in d)
    return f"{one(pair[0])} → {one(pair[1])}"


def audit(entry: ZooEntry, samples: int, screening: int, seed: int, workers: int,
          float_events: bool = True) -> dict[str, Any]:
    """One audit of ``entry`` on DP-Sniper's pairs; a JSON-ready record.

    ``float_events=False`` runs the real-arithmetic view alone (with the whole alpha, and the
    screening ranks pairs by it); the default takes both views from one run."""
    assert entry.vectorized is not None
    target = target_from_callable(entry.vectorized, name=entry.name)
    config = AuditConfig(epsilon=entry.claimed_epsilon, delta=entry.claimed_delta,
                         confidence=CONFIDENCE, samples=samples, seed=seed, workers=workers,
                         screening_samples=screening, confirm=1, float_events=float_events,
                         relation="linf")
    pairs = [(tuple(a), tuple(b)) for a, b in entry.pairs]
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        report = run_audit(target, config, pairs)
    seconds = time.perf_counter() - start
    return record(entry, report, samples, screening, seconds, seed, workers, float_events)


def _real_bound(r: PairResult) -> float:
    """A pair result's real-arithmetic bound (0 when its only evidence reads float bits)."""
    if r.real_estimate is not None:
        return r.real_estimate.epsilon_lower_bound
    return 0.0 if is_float_leak(r.estimate) else r.estimate.epsilon_lower_bound


def record(entry: ZooEntry, report: BlackboxReport, samples: int, screening_samples: int,
           seconds: float, seed: int, workers: int, float_events: bool = True) -> dict[str, Any]:
    """The JSON record of one run: both views' bounds, the witness pair, the oracle, the goals."""
    dps = entry.aliases[0]
    w = report.witness
    assert w is not None and report.verdict is not None
    held = samples - selection_sizes(samples, samples, Fraction(1, 2), DEFAULT_SELECTION_CAP)[0]
    oracle = witness_oracle(entry, held, 1 - CONFIDENCE)
    real = report.real_epsilon_lower_bound
    worst = worst_pairs(entry)
    published = float(PUBLISHED[dps])
    ieee = None if not (entry.float_outputs and float_events) else w.estimate.epsilon_lower_bound
    real_est = w.real_estimate if w.real_estimate is not None else (
        None if is_float_leak(w.estimate) else w.estimate)
    screening = [r for r in report.pairs if r.stage == "screening"]
    screened = sorted(((r.best_bound, r.pair) for r in screening), key=lambda t: -t[0])
    screened_real = sorted(((_real_bound(r), r.pair) for r in screening), key=lambda t: -t[0])
    return {
        "entry": entry.name, "dpsniper": dps, "samples": samples,
        "screening_samples": screening_samples, "float_events": float_events,
        "confidence": str(CONFIDENCE), "seed": seed, "workers": workers,
        "selection_cap": DEFAULT_SELECTION_CAP, "held_out": held, "pairs": len(entry.pairs),
        "correct": entry.correct, "float_outputs": entry.float_outputs,
        "claimed_epsilon": float(entry.claimed_epsilon), "true_epsilon": fmt_eps(entry.true_epsilon),
        "published": published,
        "real_bound": real, "real_event": None if real_est is None else real_est.event,
        "ieee_bound": ieee, "ieee_event": None if ieee is None else w.estimate.event,
        "verdict": report.verdict.name, "real_arithmetic_violation": report.real_arithmetic_violation,
        "witness_pair": [list(w.pair[0]), list(w.pair[1])], "witness_pair_text": _show(w.pair),
        "worst_pair_known": worst is not None,
        "worst_pair_found": None if worst is None else _pair_key(*w.pair) in worst,
        "screening_top3": [[b, _show(p)] for b, p in screened[:3]],
        "screening_real_top3": [[b, _show(p)] for b, p in screened_real[:3]],
        "oracle_bound": None if oracle is None else oracle.epsilon_lower_bound,
        "oracle_event": None if oracle is None else oracle.witness.event,
        "oracle_pair": None if oracle is None else _show((oracle.witness.a, oracle.witness.b)),
        "ratio_to_oracle": None if oracle is None or oracle.epsilon_lower_bound <= 0
        else real / oracle.epsilon_lower_bound,
        "beats_published": real >= published,
        "reaches_95pct_oracle": None if oracle is None or oracle.epsilon_lower_bound <= 0
        else real >= 0.95 * oracle.epsilon_lower_bound,
        "wall_seconds": seconds,
        "code": code_version(),
    }


def code_version() -> str:
    """The checkout's commit (with "+changes" when the work tree differs), or "unknown"."""
    import subprocess
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--",
                                "audits", "reference", "privref"], cwd=ROOT, text=True,
                               capture_output=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def machine() -> dict[str, Any]:
    """Where the figures were measured."""
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), cpu)
    except OSError:
        pass
    return {"platform": platform.platform(), "cpu": cpu, "cores": os.cpu_count(),
            "python": platform.python_version(), "numpy": np.__version__}


def load(path: Path) -> dict[str, Any]:
    """The JSON results file (empty structure when absent)."""
    if path.exists():
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return data
    return {"runs": []}


def save(path: Path, data: dict[str, Any]) -> None:
    """Write atomically (a temporary file, then rename), so an interrupted write loses nothing."""
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


def _same(r: dict[str, Any], name: str, samples: int, screening: int, seed: int,
          float_events: bool) -> bool:
    return bool(r["entry"] == name and r["samples"] == samples
                and r["screening_samples"] == screening and r["seed"] == seed
                and r.get("float_events", True) == float_events)


def _cell(x: float | None, digits: int = 4) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def _at(runs: list[dict[str, Any]], samples: int, float_events: bool) -> list[dict[str, Any]]:
    return [r for r in runs if r["samples"] == samples and r.get("float_events", True) == float_events]


def table(runs: list[dict[str, Any]], samples: int, float_events: bool = True) -> list[str]:
    """The markdown table of the runs at ``samples`` per side, in DP-Sniper's order.

    With ``float_events=False``, the real-arithmetic-only runs, and only the mechanisms run so."""
    by = {r["entry"]: r for r in _at(runs, samples, float_events)}
    out = ["| mechanism | true ε | DP-Sniper published | privref real-arithmetic bound "
           "| IEEE-754 view bound | oracle bound | privref/oracle | witness pair (worst?) | wall s |",
           "|---|---|---:|---:|---:|---:|---:|---|---:|"]
    for dps, name, _ in MAPPING:
        r = by.get(name)
        if r is None and not float_events:
            continue
        if r is None:
            out.append(f"| {dps} | | {float(PUBLISHED[dps]):.4f} | not run | | | | | |")
            continue
        real = f"{r['real_bound']:.4f}" + ("" if r["beats_published"] else " **<**")
        ratio = "—" if r["ratio_to_oracle"] is None else (
            f"{r['ratio_to_oracle']:.3f}" + ("" if r["reaches_95pct_oracle"] else " **<0.95**"))
        worst = {True: "yes", False: "**no**", None: "n/a"}[r["worst_pair_found"]]
        out.append(f"| {dps} | {r['true_epsilon']} | {r['published']:.4f} | {real} | "
                   f"{_cell(r['ieee_bound'])} | {_cell(r['oracle_bound'])} | {ratio} | "
                   f"{r['witness_pair_text']} ({worst}) | {r['wall_seconds']:.0f} |")
    return out


def scaling_table(runs: list[dict[str, Any]]) -> list[str]:
    """Wall time against N for the scaling mechanisms (every N recorded)."""
    out = ["| mechanism | N per side | screening per pair | wall s | real-arithmetic bound |",
           "|---|---:|---:|---:|---:|"]
    for name in SCALING:
        for r in sorted((r for r in runs if r["entry"] == name and r.get("float_events", True)),
                        key=lambda r: r["samples"]):
            out.append(f"| {r['dpsniper']} | {r['samples']:.2g} | {r['screening_samples']:.2g} | "
                       f"{r['wall_seconds']:.0f} | {r['real_bound']:.4f} |")
    return out


def _codes(runs: list[dict[str, Any]]) -> str:
    """Which commits the rows ran at (``code`` of each record; "unrecorded" before it was kept)."""
    count: dict[str, int] = {}
    for r in runs:
        count[r.get("code", "unrecorded")] = count.get(r.get("code", "unrecorded"), 0) + 1
    listed = ", ".join(f"{code} ({n} rows)" for code, n in sorted(count.items()))
    return f"Code: {listed}."


def budget_section(data: dict[str, Any], samples: int) -> list[str]:
    """The tables and goal counts of the runs at ``samples`` per side."""
    runs = data["runs"]
    at = _at(runs, samples, True)
    real_only = _at(runs, samples, False)
    done = len(at)
    beats = sum(r["beats_published"] for r in at)
    oracles = [r for r in at if r["reaches_95pct_oracle"] is not None]
    reach = sum(bool(r["reaches_95pct_oracle"]) for r in oracles)
    worst = [r for r in at if r["worst_pair_found"] is not None]
    share = "DP-Sniper's default budget" if samples == SAMPLES else f"1/{SAMPLES // samples} of it"
    return [
        f"### N = {samples:,} per side ({share})",
        "",
        f"Screening {samples // 11:,} per side per pair over all of DP-Sniper's pairs, confirm 1, "
        f"confidence {CONFIDENCE}, seed 0, {at[0]['workers'] if at else 2} workers.  "
        f"Mechanisms run: {done} of 20.",
        "",
        *table(runs, samples),
        "",
        f"privref's real-arithmetic bound ≥ DP-Sniper's published bound: {beats} of {done}.  "
        f"≥ 0.95 of the oracle bound: {reach} of {len(oracles)} (oracle positive).  "
        f"Known worst pair found: {sum(bool(r['worst_pair_found']) for r in worst)} of "
        f"{len(worst)}.",
        "",
        _codes(at),
        "",
        *([] if not real_only else [
            "Real-arithmetic view alone (`float_events=False`: the whole alpha on that view, and "
            "screening ranks pairs by it), float-output mechanisms:", "",
            *table(runs, samples, float_events=False), ""]),
    ]


def render(data: dict[str, Any]) -> str:
    """The doc section's generated part: every budget with records, then the wall-time series."""
    runs = data["runs"]
    info = data.get("machine", {})
    budgets = [n for n in (SAMPLES, SAMPLES // 100) if _at(runs, n, True) or _at(runs, n, False)]
    lines = [
        START,
        "",
        "Generated by `python benchmarks/bench_dpsniper.py` from "
        "[blackbox-dpsniper.json](generated/blackbox-dpsniper.json) (do not edit by hand) on "
        f"{info.get('cpu', '?')} ({info.get('cores', '?')} cores, shared with other jobs).  "
        "**<** marks a bound below DP-Sniper's published one, **<0.95** one below 0.95 of the "
        "oracle.",
        "",
    ]
    for n in budgets:
        lines += budget_section(data, n)
    lines += [
        "### Wall time against N",
        "",
        "Same settings (screening N/11 per side per pair, confirm 1, 2 workers):",
        "",
        *scaling_table(runs),
        "",
        END,
    ]
    return "\n".join(lines)


def write_doc(path: Path, text: str) -> None:
    """Replace the generated part of the doc's DP-Sniper section (between the markers)."""
    doc = path.read_text(encoding="utf-8")
    if START not in doc or END not in doc:
        raise SystemExit(f"{path}: markers {START} / {END} not found")
    head, rest = doc.split(START, 1)
    tail = rest.split(END, 1)[1]
    path.write_text(head + text + tail, encoding="utf-8")


def select(only: str | None) -> list[ZooEntry]:
    """The DP-Sniper entries, or those named in ``only`` (entry or DP-Sniper class names)."""
    entries = [e for e in zoo() if e.name.startswith("dpsniper_")]
    if only is None:
        return entries
    wanted = {w.strip() for w in only.split(",") if w.strip()}
    chosen = [e for e in entries if e.name in wanted or set(e.aliases) & wanted]
    unknown = wanted - {k for e in chosen for k in (e.name, *e.aliases)}
    if unknown:
        valid = ", ".join(f"{e.name} ({e.aliases[0]})" for e in entries)
        raise SystemExit(f"--only: unknown {', '.join(sorted(unknown))}; valid: {valid}")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every budget divided by 100")
    parser.add_argument("--only", default=None, help="comma-separated entry or DP-Sniper names")
    parser.add_argument("--no-scaling", action="store_true", help="skip the wall-time series")
    parser.add_argument("--scaling-only", action="store_true", help="only the wall-time series")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=JSON_PATH)
    parser.add_argument("--doc", type=Path, default=DOC_PATH)
    parser.add_argument("--force", action="store_true", help="rerun records already in the JSON")
    parser.add_argument("--no-float-events", action="store_true",
                        help="the real-arithmetic view alone (float-output mechanisms only)")
    parser.add_argument("--render", action="store_true", help="only rewrite the doc from the JSON")
    args = parser.parse_args(argv)
    scale = 100 if args.quick else 1
    samples, screening = SAMPLES // scale, SCREENING // scale
    data = load(args.json)
    if args.render:
        write_doc(args.doc, render(data))
        return 0
    entries = sorted(select(args.only), key=lambda e: ORDER.index(e.name))
    view = not args.no_float_events
    if not view:
        entries = [e for e in entries if e.float_outputs]
    jobs: list[tuple[ZooEntry, int, int]] = []
    if not args.no_scaling and view:  # the cheaper points of the series first
        jobs += [(e, n // scale, n // scale // 11) for e in entries if e.name in SCALING
                 for n in SCALING_SAMPLES if n // scale != samples]
    if not args.scaling_only:
        jobs += [(e, samples, screening) for e in entries]
    for entry, n, screen in jobs:
        if not args.force and any(_same(r, entry.name, n, screen, args.seed, view)
                                  for r in data["runs"]):
            print(f"{entry.name:30s} N={n:>11,d} already recorded (use --force to rerun)", flush=True)
            continue
        rec = audit(entry, n, screen, args.seed, args.workers, view)
        rec["date"] = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        data = load(args.json)  # another run may have added records meanwhile
        data["machine"] = machine()
        data["runs"] = [r for r in data["runs"]
                        if not _same(r, entry.name, n, screen, args.seed, view)]
        data["runs"].append(rec)
        save(args.json, data)
        print(f"{entry.name:30s} N={n:>11,d} real={rec['real_bound']:.4f} "
              f"ieee={_cell(rec['ieee_bound'])} published={rec['published']:.4f} "
              f"oracle={_cell(rec['oracle_bound'])} pair={rec['witness_pair_text']} "
              f"worst={rec['worst_pair_found']} {rec['wall_seconds']:.1f} s", flush=True)
        write_doc(args.doc, render(data))
    write_doc(args.doc, render(data))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
