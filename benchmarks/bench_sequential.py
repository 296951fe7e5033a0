"""Sequential against fixed-budget black-box audits (issue 36, item 1; a benchmark, not a test).

Usage (from the repository root)::

    python benchmarks/bench_sequential.py [--seeds 20] [--fixed-seeds 5] [--false-alarm-runs 1000]
        [--doc docs/blackbox-sequential.md] [--json docs/generated/blackbox-sequential.json]
        [--quick] [--only NAME,...]
    python benchmarks/bench_sequential.py --render   # rewrite the doc from the JSON only
    python benchmarks/bench_sequential.py --rerun --only svt4,dpsniper_svt3 [--seeds 20]
        [--false-alarm-runs 1000]   # rerun the sequential mode on some rows (below)

1. Violations.  For every incorrect entry of :func:`validation.zoo.zoo` (the zoo proper and
   DP-Sniper's benchmark, ``dpsniper_*``), the same audit is run in fixed mode
   (:func:`privref.audits.blackbox.runner.run_audit`) and in sequential mode
   (:func:`privref.audits.blackbox.sequential.run_sequential_audit`) at the same budget and
   confidence 0.95, one worker, on the entry's listed pairs under ``linf`` (the configuration of
   benchmarks/bench_zoo.py; DP-Sniper entries as in benchmarks/bench_dpsniper.py: all of
   DP-Sniper's pairs, screening ``budget/11`` per side per pair, ``confirm=1``).  Sequential mode
   over ``--seeds`` seeds (0, 1, ...), fixed mode over ``--fixed-seeds`` (its samples are the
   budget whatever the seed; the seeds give its detection rate).  Recorded: samples used per
   side per confirmed pair (median, 90th percentile), the fixed budget, the bound at stop, the
   detection rates, and every draw (screening included).
2. False alarms.  ``--false-alarm-runs`` seeded audits in each mode on correct, cheap,
   vectorized entries at a small budget, confidence 0.95; the false-alarm rate with an exact
   Clopper–Pearson 95% upper bound (:func:`privref.audits.stats.cp_upper`).

3. ``--rerun``: the sequential mode alone (the fixed mode's code is unchanged) on the ``--only``
   entries and the false-alarm entries, with the current code; the results go to the JSON's
   ``rerun`` record (the full table is kept) and the doc gets a section comparing them with the
   full table's rows, marked with the commit of the rerun.

Budgets (``BUDGETS``): the CLI's default 10^5 per side, 10^6 for the entries whose fixed audit
needs it; far below DP-Sniper's own 2.2·10^8, chosen for a run of about 25 minutes on one core.
The recorded run took 2128 s (35 min) on one core of a machine shared with other jobs, plus 86 s
for ``--tenth``; ``--seeds 10`` halves the sequential part.  Nothing here asserts.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import math
import statistics
import sys
import time
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bench_dpsniper  # noqa: E402
import bench_zoo  # noqa: E402

from privref.audits.blackbox.report import BlackboxReport, BlackboxVerdict  # noqa: E402
from privref.audits.blackbox.runner import AuditConfig, run_audit  # noqa: E402
from privref.audits.blackbox.sequential import default_first_round, run_sequential_audit  # noqa: E402
from privref.audits.blackbox.target import Target, target_from_callable  # noqa: E402
from privref.audits.stats import cp_upper  # noqa: E402
from privref.reference.reals import Interval  # noqa: E402
from validation.zoo import NotPrivate, ZooEntry, zoo  # noqa: E402

CONFIDENCE = Fraction(95, 100)
BUDGET = 100_000
BUDGETS = {"dpsniper_report_noisy_max4": 1_000_000}
"""Entries audited at a larger budget: the fixed audit misses them at 10^5 (measured)."""
FALSE_ALARM = ("laplace_discrete", "noisy_max_index")
"""Correct, vectorized, cheap entries whose claim is (nearly) tight: true eps 1 and [0.9957, 1]."""
FALSE_ALARM_BUDGET = 4_000
FALSE_ALARM_FIRST_ROUND = 250
"""Rounds 250, 500, 1000, 2250: four looks, so that a wrong spending would show."""
DOC = ROOT / "docs" / "blackbox-sequential.md"
JSON_PATH = ROOT / "docs" / "generated" / "blackbox-sequential.json"


def _config(entry: ZooEntry, samples: int, seed: int) -> AuditConfig:
    dpsniper = entry.name.startswith("dpsniper_")
    extra: dict[str, Any] = ({"screening_samples": samples * bench_dpsniper.SCREENING
                              // bench_dpsniper.SAMPLES, "confirm": 1} if dpsniper else {})
    return AuditConfig(epsilon=entry.claimed_epsilon, delta=entry.claimed_delta,
                       confidence=CONFIDENCE, samples=samples, seed=seed, workers=1,
                       relation="linf", **extra)


@functools.cache
def _target(name: str) -> Target:
    """The entry's vectorized sampler as a Target, built once (building one detects the
    libraries it uses, which costs far more than a small audit)."""
    entry = {e.name: e for e in zoo()}[name]
    assert entry.vectorized is not None
    return target_from_callable(entry.vectorized, name=entry.name)


def _run(entry: ZooEntry, samples: int, seed: int, sequential: bool,
         first_round: int | None = None) -> dict[str, Any]:
    target = _target(entry.name)
    pairs = [(tuple(a), tuple(b)) for a, b in entry.pairs]
    config = _config(entry, samples, seed)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        report: BlackboxReport = (run_sequential_audit(target, config, pairs, first_round=first_round)
                                  if sequential
                                  else run_audit(target, config, pairs))
    q = report.sequential
    return {"seed": seed, "verdict": None if report.verdict is None else report.verdict.name,
            "samples_used": report.samples_used,
            "draws": q.draws if q is not None else sum(2 * p.samples for p in report.pairs),
            "bound": report.epsilon_lower_bound,
            "bound_at_stop": q.bound_at_stop if q is not None else report.epsilon_lower_bound,
            "rounds": None if q is None else len(q.rounds),
            "schedule": None if q is None else list(q.schedule),
            "seconds": round(time.perf_counter() - start, 3)}


def _pct(values: list[float], q: float) -> float:
    """The q-quantile by the nearest-rank rule (the smallest value with at least q of the runs
    at or below it)."""
    s = sorted(values)
    k = max(0, -(-int(q * 1000) * len(s) // 1000) - 1)
    return s[k]


def _claim_ratio(entry: ZooEntry) -> str:
    return bench_zoo.fmt_eps(entry.true_epsilon)


def at_least_twice(entry: ZooEntry) -> bool | None:
    """Is the true epsilon at least twice the claim (the goal's scope)?  True for a mechanism
    that is not DP at all; for an enclosure, True/False when it lies wholly above/below twice
    the claim, None when it straddles it.  (A label of the table, compared in floats; it decides
    no verdict.)"""
    true, claim = entry.true_epsilon, 2 * float(entry.claimed_epsilon)
    if isinstance(true, NotPrivate):
        return True
    if isinstance(true, Interval):
        lo, hi = float(true.lo), float(true.hi)
    else:
        lo = hi = float(true)
    return True if lo >= claim else False if hi < claim else None


def violations(entries: list[ZooEntry], seeds: int, fixed_seeds: int,
               scale: int) -> list[dict[str, Any]]:
    """Section 1: one record per entry."""
    out = []
    for entry in entries:
        budget = BUDGETS.get(entry.name, BUDGET) // scale
        fixed = [_run(entry, budget, s, False) for s in range(fixed_seeds)]
        seq = [_run(entry, budget, s, True) for s in range(seeds)]
        flagged = [r for r in seq if r["verdict"] == BlackboxVerdict.VIOLATION.name]
        used = [r["samples_used"] for r in seq]
        rec = {"entry": entry.name, "claimed_epsilon": bench_zoo.fmt_eps(entry.claimed_epsilon),
               "true_epsilon": _claim_ratio(entry), "budget": budget,
               "at_least_twice": at_least_twice(entry),
               "first_round": default_first_round(budget), "pairs": len(entry.pairs),
               "fixed_detected": sum(r["verdict"] == "VIOLATION" for r in fixed),
               "fixed_runs": len(fixed),
               "fixed_bound_median": statistics.median(r["bound"] for r in fixed),
               "fixed_draws": statistics.median(r["draws"] for r in fixed),
               "seq_detected": len(flagged), "seq_runs": len(seq),
               "seq_used_median": statistics.median(used), "seq_used_p90": _pct(used, 0.9),
               "seq_draws_median": statistics.median(r["draws"] for r in seq),
               "seq_bound_at_stop_median": statistics.median(r["bound_at_stop"] for r in seq),
               "fixed_seconds": round(sum(r["seconds"] for r in fixed), 1),
               "seq_seconds": round(sum(r["seconds"] for r in seq), 1),
               "fixed": fixed, "sequential": seq}
        print(f"{entry.name}: fixed {rec['fixed_detected']}/{len(fixed)}, sequential "
              f"{len(flagged)}/{len(seq)}, used median {rec['seq_used_median']} p90 "
              f"{rec['seq_used_p90']} of {budget} ({rec['fixed_seconds']} s + "
              f"{rec['seq_seconds']} s)", flush=True)
        out.append(rec)
    return out


def false_alarms(names: tuple[str, ...], runs: int, budget: int) -> list[dict[str, Any]]:
    """Section 2: ``runs`` seeded audits per mode per entry; counts of VIOLATION."""
    by_name = {e.name: e for e in zoo()}
    out = []
    for name in names:
        entry = by_name[name]
        assert entry.correct
        for sequential in (False, True):
            start = time.perf_counter()
            got = [_run(entry, budget, s, sequential, FALSE_ALARM_FIRST_ROUND) for s in range(runs)]
            alarms = sum(r["verdict"] == "VIOLATION" for r in got)
            rec = {"entry": name, "mode": "sequential" if sequential else "fixed",
                   "budget": budget, "schedule": got[0]["schedule"], "runs": runs, "alarms": alarms,
                   "rate": alarms / runs,
                   "rate_upper_95": float(cp_upper(alarms, runs, Fraction(1, 20))),
                   "max_bound": max(r["bound"] for r in got),
                   "seconds": round(time.perf_counter() - start, 1)}
            print(f"false alarms {name} {rec['mode']}: {alarms}/{runs} "
                  f"({rec['seconds']} s)", flush=True)
            out.append(rec)
    return out


RUN_FIELDS = ("seed", "verdict", "samples_used", "draws", "bound_at_stop", "rounds")


def _down(x: object) -> object:
    """A float bound rounded down to 6 decimals (still a lower bound); anything else as is."""
    return math.floor(x * 10**6) / 10**6 if isinstance(x, float) else x


def compact(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with each run as a row of RUN_FIELDS (docs/generated stays small)."""
    for r in [*data["violations"], *data.get("rerun", {}).get("violations", [])]:
        for key in ("fixed", "sequential", "fixed_tenth"):
            if key in r and r[key] and isinstance(r[key][0], dict):
                r[key] = [[_down(run.get(f)) for f in RUN_FIELDS] for run in r[key]]
    data["run_fields"] = list(RUN_FIELDS)
    return data


def save(path: Path, data: dict[str, Any]) -> None:
    """Write the compact JSON, one violation record per line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(compact(data), separators=(",", ":")) + "\n", encoding="utf-8")


def tenth(data: dict[str, Any]) -> None:
    """The fixed mode at 1/10 of each entry's budget, on the fixed seeds: a violation it flags
    there is one a sequential mode could in principle flag within 1/10 of the budget."""
    by_name = {e.name: e for e in zoo()}
    start = time.perf_counter()
    for r in data["violations"]:
        runs = [_run(by_name[r["entry"]], r["budget"] // 10, s, False)
                for s in range(r["fixed_runs"])]
        r["fixed_tenth_detected"] = sum(x["verdict"] == "VIOLATION" for x in runs)
        r["fixed_tenth_budget"] = r["budget"] // 10
        r["fixed_tenth"] = runs
        print(f"{r['entry']}: fixed at {r['budget'] // 10} flags "
              f"{r['fixed_tenth_detected']}/{len(runs)}", flush=True)
    data["tenth_seconds"] = time.perf_counter() - start


def rerun(data: dict[str, Any], entries: list[ZooEntry], seeds: int, fa_runs: int,
          fa_budget: int) -> dict[str, Any]:
    """Section 3: the sequential mode again on ``entries`` (their fixed figures are the full
    table's) and, with ``fa_runs`` > 0, on the false-alarm entries."""
    start = time.perf_counter()
    old = {r["entry"]: r for r in data["violations"]}
    rows = []
    for entry in entries:
        budget = BUDGETS.get(entry.name, BUDGET)
        seq = [_run(entry, budget, s, True) for s in range(seeds)]
        used = [r["samples_used"] for r in seq]
        rec = {k: old[entry.name][k] for k in (
            "entry", "claimed_epsilon", "true_epsilon", "budget", "at_least_twice",
            "fixed_detected", "fixed_runs", "seq_detected", "seq_runs", "seq_used_median",
            "seq_used_p90", "seq_draws_median", "seq_bound_at_stop_median")}
        rec.update({"new_detected": sum(r["verdict"] == "VIOLATION" for r in seq),
                    "new_runs": len(seq), "new_used_median": statistics.median(used),
                    "new_used_p90": _pct(used, 0.9),
                    "new_draws_median": statistics.median(r["draws"] for r in seq),
                    "new_bound_at_stop_median": statistics.median(r["bound_at_stop"] for r in seq),
                    "new_seconds": round(sum(r["seconds"] for r in seq), 1), "sequential": seq})
        print(f"{entry.name}: sequential {rec['new_detected']}/{len(seq)}, used median "
              f"{rec['new_used_median']} p90 {rec['new_used_p90']} (was "
              f"{rec['seq_used_median']}, {rec['seq_used_p90']}) ({rec['new_seconds']} s)",
              flush=True)
        rows.append(rec)
    fa = []
    by_name = {e.name: e for e in zoo()}
    for name in FALSE_ALARM if fa_runs else ():
        t = time.perf_counter()
        got = [_run(by_name[name], fa_budget, s, True, FALSE_ALARM_FIRST_ROUND)
               for s in range(fa_runs)]
        alarms = sum(r["verdict"] == "VIOLATION" for r in got)
        fa.append({"entry": name, "mode": "sequential", "budget": fa_budget,
                   "schedule": got[0]["schedule"], "runs": fa_runs, "alarms": alarms,
                   "rate": alarms / fa_runs,
                   "rate_upper_95": float(cp_upper(alarms, fa_runs, Fraction(1, 20))),
                   "max_bound": max(r["bound"] for r in got),
                   "seconds": round(time.perf_counter() - t, 1)})
        print(f"false alarms {name} sequential: {alarms}/{fa_runs}", flush=True)
    return {"commit": bench_dpsniper.code_version(),
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": _machine(), "seeds": seeds, "violations": rows, "false_alarms": fa,
            "seconds": round(time.perf_counter() - start, 1)}


def _render_rerun(q: dict[str, Any]) -> list[str]:
    """The doc section of a ``--rerun``."""
    lines = [
        "",
        "## Rerun: rounds after the first select on earlier rounds' outcomes",
        "",
        f"Rows rerun with `python benchmarks/bench_sequential.py --rerun` at privref commit "
        f"{q['commit']}, {q['date']} ({q['machine']}; {q['seconds']:.0f} s), sequential mode "
        f"only, seeds 0..{q['seeds'] - 1}, same budgets, confidence and first round as above: "
        "round 0 splits its draws as before; every later round chooses its events on the "
        "outcomes of the earlier rounds (at most `selection_cap` per side) and bounds on all of "
        "its own draws. *before*: the full table above (commit 36a605a..8e2b9c2, every round "
        "split). The fixed mode's code did not change; its figures are the table's.",
        "",
        "| entry | fixed flags | sequential flags before / now | samples used median before "
        "/ now | 90th pct before / now | bound at stop (median) before / now | draws (median) "
        "before / now | ≤ 1/10 of fixed now? |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in q["violations"]:
        now = dict(r, seq_detected=r["new_detected"], seq_runs=r["new_runs"],
                   seq_used_median=r["new_used_median"])
        lines.append(
            f"| `{r['entry']}` | {r['fixed_detected']}/{r['fixed_runs']} | "
            f"{r['seq_detected']}/{r['seq_runs']} / {r['new_detected']}/{r['new_runs']} | "
            f"{r['seq_used_median']:,.0f} / {r['new_used_median']:,.0f} | "
            f"{r['seq_used_p90']:,} / {r['new_used_p90']:,} | "
            f"{r['seq_bound_at_stop_median']:.4g} / {r['new_bound_at_stop_median']:.4g} | "
            f"{r['seq_draws_median']:,.0f} / {r['new_draws_median']:,.0f} | {_goal(now)} |")
    if q["false_alarms"]:
        lines += ["", "| entry | mode | budget | runs | VIOLATION | rate | 95% upper bound | "
                  "largest bound |", "|---|---|---:|---:|---:|---:|---:|---:|"]
        for r in q["false_alarms"]:
            lines.append(f"| `{r['entry']}` | sequential (rerun), rounds {r['schedule']} | "
                         f"{r['budget']:,} | {r['runs']} | {r['alarms']} | {r['rate']:.3f} | "
                         f"{r['rate_upper_95']:.3f} | {r['max_bound']:.4g} |")
    lines += ["", *q.get("reading", [])]
    return lines


def _goal(r: dict[str, Any]) -> str:
    """Whether the 1/10 goal is met, and if not, why (in the table's last column)."""
    scope = {True: "", False: "; out of scope: true ε < 2 × claim",
             None: "; true ε straddles 2 × claim"}[r["at_least_twice"]]
    return _verdict(r) + scope


def _verdict(r: dict[str, Any]) -> str:
    if r["fixed_detected"] < r["fixed_runs"]:
        return (f"not applicable: fixed mode flags {r['fixed_detected']}/{r['fixed_runs']} at "
                "this budget")
    if r["seq_detected"] < r["seq_runs"]:
        return f"**no**: sequential flags {r['seq_detected']}/{r['seq_runs']}"
    ratio = Fraction(str(r["seq_used_median"])) / r["budget"]
    return ("yes" if ratio <= Fraction(1, 10) else "**no**") + f" (median 1/{float(1 / ratio):.3g})"


def render(data: dict[str, Any]) -> str:
    """The doc page."""
    p = data["parameters"]
    lines = [
        "# Sequential black-box audits: measured",
        "",
        f"Generated by `{p['command']}` (do not edit by hand; rerun it). The mode itself is "
        "described in [blackbox.md](blackbox.md#sequential-mode) and, with its validity argument, "
        "in the docstring of `privref.audits.blackbox.sequential`. Every run (seed, verdict, "
        "samples used, draws, bound at stop, rounds) is in "
        "[generated/blackbox-sequential.json](generated/blackbox-sequential.json).",
        "",
        "## Setup",
        "",
        f"* Confidence {p['confidence']} per audit; one worker; privref commit {p['commit']}, "
        f"{p['date']}; {p['machine']}.",
        f"* Violations: every incorrect entry of the zoo and of DP-Sniper's benchmark "
        f"(`validation.zoo`), its listed pairs under `linf`; DP-Sniper entries with screening "
        f"budget/11 per side per pair and `confirm=1` (as in `benchmarks/bench_dpsniper.py`). "
        f"Fixed mode at the budget over seeds 0..{p['fixed_seeds'] - 1}; sequential mode at the "
        f"same budget over seeds 0..{p['seeds'] - 1}, default first round "
        "`max(1000, budget // 1024)` (rounds 1000, 2000, 4000, 8000, 16000 and 69000 for 10^5).",
        "* Budgets: 10^5 per side (the CLI default) except "
        + ", ".join(f"`{k}` {v:,}" for k, v in BUDGETS.items())
        +
        f" (the fixed audit misses it at 10^5); DP-Sniper's own budget is 2.2·10^8, out of reach "
        f"here: the budgets were chosen for a run of about {p['minutes_target']} minutes on one "
        "core (the wall time below says what it took)."
        + ("" if p["scale"] == 1 else f" **Every budget divided by {p['scale']} (--quick).**"),
        "* *samples used*: per side per confirmed pair, summed over the rounds run (the figure "
        "comparable with the fixed mode's `samples`); *draws*: every outcome drawn, both sides, "
        "screening included.",
        f"* False alarms: sequential runs with first round {FALSE_ALARM_FIRST_ROUND} (four looks).",
        f"* Total wall time {data['seconds']:.0f} s (one core of a machine shared with other "
        "jobs)" + ("" if "tenth_seconds" not in data else
                   f"; then `python benchmarks/bench_sequential.py --tenth` ran the fixed mode at "
                   f"1/10 of each budget on the fixed seeds ({data['tenth_seconds']:.0f} s): the "
                   "column *fixed at budget/10*: a violation the fixed mode misses there is "
                   "practically out of reach of the sequential mode within 1/10 of the budget, "
                   "whose rounds are smaller still and run at alpha/R") + ".",
        "",
        "## Violations: samples to a VIOLATION",
        "",
        "| entry | claimed ε | true ε | fixed samples | fixed flags | fixed bound (median) | "
        "sequential flags | samples used median | 90th pct | bound at stop (median) | "
        "draws fixed / sequential (median) | fixed at budget/10 flags | ≤ 1/10 of fixed? |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in data["violations"]:
        lines.append(
            f"| `{r['entry']}` | {r['claimed_epsilon']} | {r['true_epsilon']} | {r['budget']:,} | "
            f"{r['fixed_detected']}/{r['fixed_runs']} | {r['fixed_bound_median']:.4g} | "
            f"{r['seq_detected']}/{r['seq_runs']} | {r['seq_used_median']:,.0f} | "
            f"{r['seq_used_p90']:,} | {r['seq_bound_at_stop_median']:.4g} | "
            f"{r['fixed_draws']:,.0f} / {r['seq_draws_median']:,.0f} | "
            + (f"{r['fixed_tenth_detected']}/{r['fixed_runs']}" if "fixed_tenth_detected" in r
               else "-") + f" | {_goal(r)} |")
    lines += [
        "",
        "## False alarms on correct mechanisms",
        "",
        "| entry | mode | budget | runs (seeds 0..runs-1) | VIOLATION | rate | 95% upper bound "
        "(Clopper–Pearson) | largest bound |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in data["false_alarms"]:
        mode = r["mode"] if r.get("schedule") is None else f"sequential, rounds {r['schedule']}"
        lines.append(f"| `{r['entry']}` | {mode} | {r['budget']:,} | {r['runs']} | "
                     f"{r['alarms']} | {r['rate']:.3f} | {r['rate_upper_95']:.3f} | "
                     f"{r['max_bound']:.4g} |")
    lines += ["", "## Reading the results", "", *data.get("reading", [])]
    if "rerun" in data:
        lines += _render_rerun(data["rerun"])
    lines.append("")
    return "\n".join(lines)


READING = [
    "* **The 1/10 goal is met on 8 of the 14 entries whose violation is at least twice the claim** "
    "(`svt3`, `svt5`, `svt6`, `noisy_max_value`, `histogram_inverted_scale`, `laplace_float`, "
    "`dpsniper_noisy_hist2`, `dpsniper_prefix_sum`: median 1/14 to 1/100 of the budget, 90th "
    "percentile at most 15,000 of 100,000), and not on 6:",
    "  * `dpsniper_report_noisy_max3`, `dpsniper_report_noisy_max4` and `dpsniper_svt6`: the fixed "
    "mode itself flags none of them at 1/10 of its budget (0/5), and only 4/5, 5/5 (at 10^6) and "
    "3/5 at the full budget: these violations sit near the budget's detection threshold, so no "
    "audit of this estimator flags them with 1/10 of it. The sequential mode flags "
    "`report_noisy_max4` only in its last round, and misses `report_noisy_max3` and `svt6`.",
    "  * `svt4` (1/6.7), `dpsniper_svt3` (1/3.2) and `dpsniper_svt5` (1/6.7): the fixed mode "
    "flags them at 1/10 of the budget (5/5, 4/5, 5/5), but the sequential mode stops only in "
    "round 3 (8,000 drawn, 15,000 in all) or round 4 (31,000 in all). The rounds share no "
    "samples: a round of n selects its event on n/2 draws and bounds on the other n/2 at alpha/R "
    "(R = 6 here), and stopping in round r has spent about 2·n_r. So a violation that the fixed "
    "mode detects at about N/10 costs the sequential mode 2 to 3 times that; the goal holds where "
    "the fixed mode's own threshold is below about N/30.",
    "  * Out of the goal's scope: `exponential_no_half` (true ε / claim = 1.85; flagged at 1/100 "
    "anyway), `dpsniper_svt4` (1.7; neither mode flags it) and `dpsniper_svt34_parallel` (true "
    "ε in [0.275, 0.575] against twice the claim 0.4; flagged in the last round only).",
    "* **Power at full budget**: the sequential mode is less powerful than the fixed one "
    "(`dpsniper_report_noisy_max3`: fixed 4/5, sequential 0/20; `dpsniper_svt6`: 3/5 against "
    "0/20), because its last round sees 69% of the budget at alpha/6. The fixed mode stays the "
    "default.",
    "* **False alarms**: 0 of 1000 in sequential mode on both correct entries (rate at most 0.003 "
    "at 95%), against 5 and 3 of 1000 in fixed mode at the same budget: the sequential mode's "
    "false-alarm rate is not higher, and both are far below 1 - confidence = 0.05, as the "
    "Clopper–Pearson bounds are conservative (the union bound makes 0.05 a ceiling for the "
    "sequential mode at any stopping time).",
    "* Not done in this run, and the likely way to the goal on the second group: let round r "
    "choose its events on all earlier rounds' samples (independent of its own) and bound on the "
    "whole of its fresh round, with no split; that keeps the validity argument and about halves "
    "the samples to a stop. Since done (carried selection, the default): see the rerun below.",
]


RERUN_READING = [
    "Reading the rerun:",
    "",
    "* **Two of the three rows that missed the 1/10 goal now meet it**: `svt4` (median 15,000 → "
    "7,000 samples used, 1/14.3; 90th percentile 31,000 → 7,000) and `dpsniper_svt5` (15,000 → "
    "7,000; 15,000 → 7,000): both now stop in round 2 (4,000 draws bounded, events chosen on the "
    "3,000 of rounds 0 and 1) instead of round 3 or 4. `dpsniper_svt3` still misses it: median "
    "31,000 → 15,000 (1/6.7), it now stops in round 3 (8,000 bounded at alpha/6, events chosen "
    "on the 7,000 of rounds 0-2); the fixed mode flags it at 10^4 (4/5) by bounding 5,000 at "
    "alpha, and round 2's 4,000 at alpha/6 are not enough. Counting the six rows that met the "
    "goal before and were not rerun as before (not remeasured), the goal is met on 10 of the 14 "
    "entries in scope.",
    "* Rows that met it already: `svt3` stops at the same median (7,000) with a higher bound at "
    "stop (2.155 → 3.212); `dpsniper_prefix_sum` at the same median, 90th percentile 15,000 → "
    "7,000. Draws (screening included) halve on `svt4`, `dpsniper_svt3` and `dpsniper_svt5`.",
    "* Power at full budget is unchanged where it was lacking: `dpsniper_report_noisy_max3` and "
    "`dpsniper_svt6` are still 0/20 (fixed mode 4/5 and 3/5): the last round still runs at "
    "alpha/6.",
    "* False alarms: 0 and 1 of 1000 sequential runs (rate at most 0.005 at 95%), against 5 and 3 "
    "of 1000 for the fixed mode above; all far below 1 - confidence = 0.05. The one alarm "
    "(`noisy_max_index`, true ε in [0.9957, 1] against the claim 1, bound 1.017) is a false "
    "VIOLATION of the kind the guarantee allows with probability at most 0.05.",
    "* Commit: the run started at da5503c and its audit code is that commit's; before it ended, "
    "cb1ca4a renamed two local variables (engine and runner, no change of behaviour) and the "
    "docstrings of privref.audits.blackbox.sequential were edited, hence the recorded label.",
]
"""Reading notes of the rerun section (written after the rerun, from its figures)."""


def main(argv: list[str] | None = None) -> int:
    """Run both sections, write the JSON and the doc."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--fixed-seeds", type=int, default=5)
    ap.add_argument("--false-alarm-runs", type=int, default=None, help="default 1000")
    ap.add_argument("--false-alarm-budget", type=int, default=FALSE_ALARM_BUDGET)
    ap.add_argument("--only", default=None, help="comma-separated entry names")
    ap.add_argument("--quick", action="store_true", help="budgets / 10, 3 seeds, 50 false-alarm runs")
    ap.add_argument("--doc", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--tenth", action="store_true",
                    help="add to the JSON the fixed mode at 1/10 of each budget (its fixed "
                         "seeds), then rewrite the doc")
    ap.add_argument("--render", action="store_true",
                    help="only rewrite the doc from the JSON (with the current reading notes)")
    ap.add_argument("--rerun", action="store_true",
                    help="rerun the sequential mode on --only entries (and the false alarms "
                         "unless --false-alarm-runs 0) into the JSON's rerun record")
    args = ap.parse_args(argv)
    if args.rerun:
        source = args.json or JSON_PATH
        data = json.loads(source.read_text(encoding="utf-8"))
        names = [] if args.only is None else args.only.split(",")
        picked = [e for e in zoo() if e.name in names]
        data["rerun"] = rerun(data, picked, args.seeds,
                              1000 if args.false_alarm_runs is None else args.false_alarm_runs,
                              args.false_alarm_budget)
        data["rerun"]["reading"] = RERUN_READING
        save(source, data)
        args.render = True
    if args.tenth:
        source = args.json or JSON_PATH
        data = json.loads(source.read_text(encoding="utf-8"))
        tenth(data)
        save(source, data)
        args.render = True
    if args.render:
        source = args.json or JSON_PATH
        data = json.loads(source.read_text(encoding="utf-8"))
        data["reading"] = READING
        if "rerun" in data:
            data["rerun"]["reading"] = RERUN_READING
        (args.doc or DOC).write_text(render(data), encoding="utf-8")
        return 0
    scale = 10 if args.quick else 1
    if args.quick:
        args.seeds, args.fixed_seeds = 3, 2
    if args.false_alarm_runs is None:
        args.false_alarm_runs = 50 if args.quick else 1000
    entries = [e for e in zoo() if not e.correct and e.vectorized is not None
               and (args.only is None or e.name in args.only.split(","))]
    start = time.perf_counter()
    viol = violations(entries, args.seeds, args.fixed_seeds, scale)
    fa = false_alarms(FALSE_ALARM, args.false_alarm_runs, args.false_alarm_budget)
    command = "python benchmarks/bench_sequential.py" + ("" if argv is None else " " + " ".join(argv))
    if argv is None:
        command = "python benchmarks/bench_sequential.py " + " ".join(sys.argv[1:])
    data = {"parameters": {"command": command.strip(), "confidence": str(CONFIDENCE),
                           "seeds": args.seeds, "fixed_seeds": args.fixed_seeds,
                           "false_alarm_runs": args.false_alarm_runs, "scale": scale,
                           "commit": bench_dpsniper.code_version(),
                           "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
                           "machine": _machine(), "minutes_target": 25},
            "violations": viol, "false_alarms": fa, "reading": READING,
            "seconds": time.perf_counter() - start}
    doc = args.doc if args.doc is not None else (None if args.quick else DOC)
    out = args.json if args.json is not None else (None if args.quick else JSON_PATH)
    if out is not None:
        save(out, data)
    if doc is not None:
        doc.write_text(render(data), encoding="utf-8")
    print(render(data))
    return 0


def _machine() -> str:
    m = bench_dpsniper.machine()
    return ", ".join(f"{k} {v}" for k, v in m.items())


if __name__ == "__main__":
    raise SystemExit(main())
