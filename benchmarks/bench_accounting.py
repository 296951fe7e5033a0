"""Certified closed-form accounting against autodp's float closed forms, on the same tasks, in one run.

Usage (from the repository root)::

    python benchmarks/bench_accounting.py [--markdown docs/generated/accounting-speed.md]
        [--json FILE] [--before PYTHON | --before-from FILE] [--quick]

Each task is run by privref (``privref.reference.accounting``: an interval proved to contain the
answer, relative width 2^-30 for the searches, 2^-64 for δ and the zCDP conversions) and by
autodp (the accountant 001's experiments used; floats, no error bound), in this process, one
after the other.  Wall time per call (``time.perf_counter``): the median of repeated calls,
each call from scratch (privref keeps no cache on these paths).  Families:

* ``delta``: δ(ε) of q Gaussian queries with noise σ (Balle-Wang 2018 Theorem 8):
  ``analytic_gaussian_delta`` / ``dp_bank.get_logdelta_ana_gaussian``;
* ``ex_post``: the analytic Gaussian ε after R queries: ``epsilon_ex_post`` /
  ``dp_bank.get_eps_ana_gaussian``;
* ``calibrate``: σ for q queries at (ε, δ): ``calibrate_sigma`` /
  ``privacy_calibrator.ana_gaussian_mech`` (σ for one query, times √q);
* ``zcdp_eps`` (001 Lemma 51), ``zcdp_delta`` (its inverse), ``zcdp_cks`` (Canonne-Kamath-Steinke
  2020 Corollary 13): ``zcdp_epsilon`` / ``zcdp_delta`` / ``zcdp_to_dp_epsilon`` enclosed at 64
  bits, against autodp's ``converter.rdp_to_approxdp`` and ``rdp_to_delta`` on the RDP curve αρ
  (naive conversion for Lemma 51, whose optimum over α is exactly Lemma 51; BBGHS for CKS).

Tasks: the 18 rows of 001 Table 4 (σ calibrated for the budget at δ = 1/n, ε after q_actual), a
grid, and extremes (ε up to 10⁴, δ down to 10⁻³⁰⁰).  autodp's answer is classified against
privref's enclosure: inside, above (conservative) or below (unsafe for an ε or σ, optimistic for
a δ), or not a number.

``--before PYTHON`` also times privref's calls (not autodp's) in a second interpreter, e.g. one
whose privref is an older checkout, once per task after a warm-up call, and adds that column;
``--before-from JSON`` takes that column from an earlier run's JSON instead.
Nothing here asserts; times are figures, never verdicts.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import signal
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from privref.reference import accounting as acc
from privref.reference.reals import Interval

ROOT = Path(__file__).resolve().parent.parent
F = Fraction
TOL = acc.DEFAULT_TOLERANCE

PAPER_TRAIN = {"mushroom": 6499, "a9a": 39073, "real-sim": 57847}
"""n of 001 Table 3 per data set (δ = 1/n), as in privref.app.experiments.paper_table4."""

TABLE4 = [  # (data set, method, budget q, q_actual as printed, ε): the 18 private rows
    ("mushroom", "PSQ", 163, "163", "0.5"), ("mushroom", "ASQ", 49, "40.1", "0.5"),
    ("mushroom", "PSQ", 163, "163", "1.0"), ("mushroom", "ASQ", 49, "42.9", "1.0"),
    ("mushroom", "PSQ", 163, "163", "2.0"), ("mushroom", "ASQ", 49, "46.5", "2.0"),
    ("a9a", "PSQ", 977, "977", "0.5"), ("a9a", "ASQ", 293, "293", "0.5"),
    ("a9a", "PSQ", 977, "977", "1.0"), ("a9a", "ASQ", 293, "290.8", "1.0"),
    ("a9a", "PSQ", 977, "977", "2.0"), ("a9a", "ASQ", 293, "290.3", "2.0"),
    ("real-sim", "PSQ", 1447, "1447", "0.5"), ("real-sim", "ASQ", 434, "434", "0.5"),
    ("real-sim", "PSQ", 1447, "1447", "1.0"), ("real-sim", "ASQ", 434, "434", "1.0"),
    ("real-sim", "PSQ", 1447, "1447", "2.0"), ("real-sim", "ASQ", 434, "434", "2.0"),
]
"""001 Table 4's private rows: budget (σ is calibrated for it) and q_actual (ε is reported after
it); the same values as privref.app.experiments.paper_table4 (BUDGET, ROWS)."""


@dataclass(frozen=True)
class Task:
    """One call of each side: ``family``, a readable ``label``, and the arguments."""

    family: str
    label: str
    args: tuple[Fraction, ...]


def _sigma_hi(q: int, eps: Fraction, n: int) -> Fraction:
    """The σ 001's accounting calibrates (privref's proved-safe end), cached across tasks."""
    key = (q, eps, n)
    if key not in _SIGMAS:
        _SIGMAS[key] = acc.calibrate_sigma(q, eps, F(1, n), TOL).hi
    return _SIGMAS[key]


_SIGMAS: dict[tuple[int, Fraction, int], Fraction] = {}


def tasks(quick: bool) -> list[Task]:
    """The task list (Table 4, grid, extremes), in a fixed order."""
    found: list[Task] = []
    seen: set[tuple[int, Fraction, int]] = set()
    for data, method, budget, q_actual, eps_text in TABLE4[: 4 if quick else None]:
        n, eps = PAPER_TRAIN[data], F(eps_text)
        sigma = _sigma_hi(budget, eps, n)
        name = f"T4 {data} {method} ε={eps_text}"
        if (budget, eps, n) not in seen:
            seen.add((budget, eps, n))
            found.append(Task("calibrate", f"{name} q={budget}", (F(budget), eps, F(1, n))))
        found.append(Task("ex_post", f"{name} R={q_actual}", (sigma, F(q_actual), F(1, n))))
        found.append(Task("delta", f"{name} q={budget}", (eps, F(budget), sigma)))
    for sigma in (F(2), F(5), F(30))[: 1 if quick else None]:
        for q in (1, 10, 50):
            for delta in (F(1, 10**3), F(1, 10**6)):
                found.append(Task("ex_post", f"grid σ={sigma} R={q} δ={delta}",
                                  (sigma, F(q), delta)))
    for q, eps, delta in [(1, F(1), F(1, 10**5)), (100, F(1, 2), F(1, 10**6)),
                          (10**4, F(3), F(1, 10**9))][: 1 if quick else None]:
        found.append(Task("calibrate", f"grid q={q} ε={eps} δ={delta}", (F(q), eps, delta)))
    for rho in (F(1, 100), F(1, 10), F(1), F(10))[: 2 if quick else None]:
        for delta in (F(1, 10**5), F(1, 10**10)):
            found.append(Task("zcdp_eps", f"ρ={rho} δ={delta}", (rho, delta)))
            found.append(Task("zcdp_cks", f"ρ={rho} δ={delta}", (rho, delta)))
        found.append(Task("zcdp_delta", f"ρ={rho} ε={4 * rho + 1}", (rho, 4 * rho + 1)))
    extremes = [Task("delta", "extreme ε=10⁴ μ=140", (F(10**4), F(1), F(1, 140))),
                Task("delta", "extreme ε=710 μ=38", (F(710), F(1), F(1, 38))),
                Task("ex_post", "extreme σ=1/140 R=1 δ=1e-5", (F(1, 140), F(1), F(1, 10**5))),
                Task("calibrate", "extreme q=1 ε=10⁴ δ=1e-5", (F(1), F(10**4), F(1, 10**5))),
                Task("calibrate", "extreme q=1 ε=1 δ=1e-300", (F(1), F(1), F(1, 10**300))),
                Task("ex_post", "extreme σ=1 R=1 δ=1e-300", (F(1), F(1), F(1, 10**300)))]
    return found + (extremes[:2] if quick else extremes)


# ------------------------------------------------------------------------------ the two sides


def privref_call(task: Task) -> Callable[[], Interval]:
    """privref's certified call for the task (an Interval)."""
    a = task.args
    if task.family == "delta":
        return lambda: acc.analytic_gaussian_delta(a[0], a[1], a[2])
    if task.family == "ex_post":
        return lambda: acc.epsilon_ex_post(a[0], a[1], a[2], TOL)
    if task.family == "calibrate":
        return lambda: acc.calibrate_sigma(a[0], a[1], a[2], TOL)
    if task.family == "zcdp_eps":
        return lambda: acc.zcdp_epsilon(a[0], a[1]).enclose(64)
    if task.family == "zcdp_delta":
        return lambda: acc.zcdp_delta(a[0], a[1]).enclose(64)
    if task.family == "zcdp_cks":
        return lambda: acc.zcdp_to_dp_epsilon(a[0], a[1]).enclose(64)
    raise ValueError(task.family)


def autodp_call(task: Task) -> Callable[[], float]:
    """autodp's float call for the same task."""
    # autodp issue #51: privacy_calibrator fails to import first; import another module before it
    import autodp.mechanism_zoo  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
    from autodp import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        converter,
        dp_bank,
        privacy_calibrator,
    )

    a = [float(x) for x in task.args]
    if task.family == "delta":  # one query of sensitivity √q ~ noise σ/√q
        return lambda: math.exp(dp_bank.get_logdelta_ana_gaussian(a[2] / math.sqrt(a[1]), a[0]))
    if task.family == "ex_post":
        return lambda: float(dp_bank.get_eps_ana_gaussian(a[0] / math.sqrt(a[1]), a[2]))
    if task.family == "calibrate":
        return lambda: (privacy_calibrator.ana_gaussian_mech(a[1], a[2])["sigma"]
                        * math.sqrt(a[0]))
    rho = a[0]
    if task.family == "zcdp_eps":
        return lambda: float(converter.rdp_to_approxdp(lambda x: rho * x,
                                                       BBGHS_conversion=False)(a[1]))
    if task.family == "zcdp_cks":
        return lambda: float(converter.rdp_to_approxdp(lambda x: rho * x)(a[1]))
    if task.family == "zcdp_delta":
        return lambda: float(converter.rdp_to_delta(lambda x: rho * x,
                                                    BBGHS_conversion=False)(a[1]))
    raise ValueError(task.family)


def wall_ms(fn: Callable[[], object], budget: float, most: int,
            least: int = 3) -> tuple[float, object]:
    """Median wall milliseconds per call over repeated calls (at least ``least``, at most
    ``most``, about ``budget`` seconds in all), after one warm-up call; and the last answer."""
    answer = fn()
    times: list[float] = []
    spent = 0.0
    while len(times) < least or (spent < budget and len(times) < most):
        start = time.perf_counter()
        answer = fn()
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        spent += elapsed
    return statistics.median(times) * 1e3, answer


def classify(value: float, box: Interval) -> str:
    """Where autodp's float lies relative to privref's proved enclosure."""
    if not math.isfinite(value):
        return f"not a number ({value})"
    exact = Fraction(value)
    if exact < box.lo:
        return f"below by {float((box.lo - exact) / box.lo):.1e}"
    if exact > box.hi:
        return f"above by {float((exact - box.hi) / box.hi):.1e}"
    return "inside"


BEFORE_CAP = 120
"""Seconds allowed to one task (warm-up and timed call) in the ``--before`` interpreter."""


def _too_long(signum: int, frame: object) -> None:
    raise TimeoutError(f"more than {BEFORE_CAP} s")


def run(task_list: list[Task], with_autodp: bool, budget: float) -> list[dict[str, Any]]:
    """Time every task (privref, then autodp) and record both answers."""
    rows: list[dict[str, Any]] = []
    for task in task_list:
        if not with_autodp:  # an older privref may take minutes on a task: cap it
            signal.signal(signal.SIGALRM, _too_long)
            signal.alarm(BEFORE_CAP)
        try:
            ms, box = wall_ms(privref_call(task), budget, 50, 3 if with_autodp else 1)
        except Exception as error:  # an older privref may refuse a task
            if with_autodp:
                raise
            print(json.dumps({"family": task.family, "label": task.label, "privref_ms": math.nan,
                              "privref_error": f"{type(error).__name__}: {error}"[:200]},
                             ensure_ascii=False), flush=True)
            continue
        finally:
            signal.alarm(0)
        assert isinstance(box, Interval)
        row: dict[str, Any] = {"family": task.family, "label": task.label,
                               "privref_ms": ms, "privref_lo": float(box.lo),
                               "privref_hi": float(box.hi),
                               "privref_width": float((box.hi - box.lo) / box.hi) if box.hi else 0.0}
        if with_autodp:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    autodp_ms, value = wall_ms(autodp_call(task), budget, 2000)
                    found = float(value)  # type: ignore[arg-type]
                except (ArithmeticError, ValueError, RuntimeError) as error:
                    autodp_ms, found = float("nan"), float("nan")
                    row["autodp_error"] = f"{type(error).__name__}: {error}"
            row.update({"autodp_ms": autodp_ms, "autodp": found, "autodp_vs_privref":
                        row.get("autodp_error") or classify(found, box)})
        rows.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)
    return rows


def before_times(python: str, quick: bool) -> dict[str, float]:
    """privref's time per task in another interpreter (one call per task after a warm-up)."""
    command = [python, str(Path(__file__).resolve()), "--privref-only", "--budget", "0"]
    if quick:
        command.append("--quick")
    done = subprocess.run(command, check=False, capture_output=True, text=True, cwd="/")
    times: dict[str, float] = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            if math.isfinite(row["privref_ms"]):
                times[f"{row['family']}|{row['label']}"] = row["privref_ms"]
    return times


FAMILIES = [("delta", "δ(ε), analytic Gaussian"), ("ex_post", "ε after R queries (ex post)"),
            ("calibrate", "σ calibration"), ("zcdp_eps", "zCDP → ε (Lemma 51)"),
            ("zcdp_delta", "zCDP → δ (Lemma 51 inverse)"), ("zcdp_cks", "zCDP → ε (CKS Cor. 13)")]


def markdown(rows: list[dict[str, Any]], header: str, before: dict[str, float]) -> str:
    """The summary table per family and the table of every task."""
    has_before = bool(before)
    lines = [header, "", "## Per family (wall ms per call; median and worst over the tasks)", "",
             "| family | tasks | privref median | privref max | autodp median | "
             "privref / autodp (median of ratios) | worst ratio |"
             + (" before median |" if has_before else ""),
             "|---|---|---|---|---|---|---|" + ("---|" if has_before else "")]
    for family, title in FAMILIES:
        mine = [r for r in rows if r["family"] == family]
        if not mine:
            continue
        ratios = [r["privref_ms"] / r["autodp_ms"] for r in mine
                  if r.get("autodp_ms", 0) and math.isfinite(r["autodp_ms"])]
        autodp = [r["autodp_ms"] for r in mine if math.isfinite(r.get("autodp_ms", math.nan))]
        line = (f"| {title} | {len(mine)} | {statistics.median(r['privref_ms'] for r in mine):.3g} "
                f"| {max(r['privref_ms'] for r in mine):.3g} | "
                f"{statistics.median(autodp):.3g} | {statistics.median(ratios):.2g} | "
                f"{max(ratios):.2g} |")
        if has_before:
            old = [before[k] for r in mine if (k := f"{family}|{r['label']}") in before]
            line += f" {statistics.median(old):.3g} |" if old else " — |"
        lines.append(line)
    lines += ["", "## Every task", "",
              "| family | task | privref ms | autodp ms | privref enclosure | width (rel.) | "
              "autodp | autodp vs enclosure |" + (" before ms |" if has_before else ""),
              "|---|---|---|---|---|---|---|---|" + ("---|" if has_before else "")]
    for r in rows:
        line = (f"| {r['family']} | {r['label']} | {r['privref_ms']:.3g} | "
                f"{r.get('autodp_ms', math.nan):.3g} | [{r['privref_lo']:.10g}, "
                f"{r['privref_hi']:.10g}] | {r['privref_width']:.1e} | "
                f"{r.get('autodp', math.nan):.10g} | {r.get('autodp_vs_privref', '')} |")
        if has_before:
            old_ms = before.get(f"{r['family']}|{r['label']}")
            line += f" {old_ms:.3g} |" if old_ms is not None else " — |"
        lines.append(line)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run the tasks, print one JSON line per task, write the Markdown and JSON files."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--markdown", type=Path, default=ROOT / "docs/generated/accounting-speed.md")
    parser.add_argument("--json", type=Path, default=None,
                        help="also write every figure as JSON (e.g. for a later --before-from)")
    parser.add_argument("--before", default=None, help="another Python to time privref's calls in")
    parser.add_argument("--before-from", type=Path, default=None,
                        help="take the before column from an earlier run's JSON instead")
    parser.add_argument("--before-label", default="an older privref",
                        help="what the before column measured, for the header (no machine path)")
    parser.add_argument("--budget", type=float, default=0.3, help="seconds of repeats per call")
    parser.add_argument("--quick", action="store_true", help="a few tasks; writes no file")
    parser.add_argument("--privref-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    started, load = time.perf_counter(), os.getloadavg()
    task_list = tasks(args.quick)
    rows = run(task_list, not args.privref_only, args.budget)
    if args.privref_only:
        return 0
    before = before_times(args.before, args.quick) if args.before else {}
    if args.before_from is not None:
        earlier = json.loads(args.before_from.read_text(encoding="utf-8"))
        before, args.before_label = earlier["before_ms"], earlier.get("before", args.before_label)
    from importlib.metadata import version

    header = (f"Generated by `python benchmarks/bench_accounting.py"
              f"{' --before-from FILE' if args.before_from else ' --before PYTHON' if before else ''}"
              "` on "
              f"{datetime.datetime.now(datetime.UTC).isoformat(timespec='seconds')} "
              f"({time.perf_counter() - started:.0f} s; {os.cpu_count()} CPUs, load "
              f"{load[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end; "
              f"{platform.platform()}, Python {platform.python_version()}, autodp "
              f"{version('autodp')}{'; before: ' + args.before_label if before else ''}). "
              "Do not edit by hand.")
    text = markdown(rows, header, before)
    print(text)
    if not args.quick:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(text, encoding="utf-8")
    if args.json is not None:
        compact = [{k: (float(f"{v:.6g}") if isinstance(v, float) else v) for k, v in r.items()}
                   for r in rows]
        args.json.write_text(json.dumps({"header": header, "rows": compact,
                                         "before_ms": {k: float(f"{v:.4g}")
                                                       for k, v in before.items()},
                                         "before": args.before_label},
                                        ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
