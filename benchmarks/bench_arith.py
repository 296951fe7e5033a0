"""Why arb: the cost of one rigorous operation and of one continuous-noise kernel (a benchmark).

Usage (from the repository root)::

    python benchmarks/bench_arith.py [--markdown docs/generated/arith.md]

Three arithmetics, each rigorous (outward-rounded), at 53 and 200 bits, CPU time per call
(``time.process_time``, best of 3 batches):

* privref's own exact-endpoint intervals (``privref.reference.reals.Interval``);
* mpmath's interval context ``mpmath.iv``;
* arb balls (python-flint), the library privref's continuous core uses.

Then the sparse vector's kernel ∫ f_ρ Π_{i<n} F_i(x) dx (n Laplace CDF factors), by privref's
closed form in arb (``privref.reference._piecewise_exp.integral``; relative width 2^-prec),
against mpmath's non-rigorous quadrature at the same number of digits (an estimate with no
proved error, shown for scale only).  Nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import cast

import mpmath
from flint import arb, ctx, fmpq

from privref.reference._piecewise_exp import Factor, integral
from privref.reference.reals import Interval, interval_exp

ROOT = Path(__file__).resolve().parent.parent


def cpu_per_call(fn: Callable[[], object], budget: float = 0.2) -> float:
    """Best-of-3 CPU seconds per call, each batch running about ``budget``/3 seconds."""
    fn()
    best = float("inf")
    for _ in range(3):
        reps, start = 0, time.process_time()
        while True:
            fn()
            reps += 1
            spent = time.process_time() - start
            if spent >= budget / 3 or reps >= 5000:
                break
        best = min(best, spent / reps)
    return best


def _ops(prec: int) -> dict[str, dict[str, float]]:
    x, y = Fraction(7, 3), Fraction(-5, 11)
    px, py = Interval.point(x), Interval.point(y)
    ctx.prec = prec
    ax, ay = arb(fmpq(7, 3)), arb(fmpq(-5, 11))
    mpmath.iv.prec = prec
    ix, iy = mpmath.iv.mpf(7) / 3, mpmath.iv.mpf(-5) / 11
    return {
        "add": {"privref": cpu_per_call(lambda: (px + py).rounded(prec)),
                "mpmath iv": cpu_per_call(lambda: ix + iy), "arb": cpu_per_call(lambda: ax + ay)},
        "mul": {"privref": cpu_per_call(lambda: (px * py).rounded(prec)),
                "mpmath iv": cpu_per_call(lambda: ix * iy), "arb": cpu_per_call(lambda: ax * ay)},
        "exp": {"privref": cpu_per_call(lambda: interval_exp(px, prec)),
                "mpmath iv": cpu_per_call(lambda: mpmath.iv.exp(ix)),
                "arb": cpu_per_call(lambda: ax.exp())},
    }


def kernel(n: int) -> tuple[Factor, ...]:
    """The sparse vector's stopping kernel at query n: ρ ~ Lap(2), ν_i ~ Lap(4), mixed locations."""
    return (Factor("laplace", "density", Fraction(0), Fraction(2)),
            *(Factor("laplace", "sf", Fraction(i % 3), Fraction(4)) for i in range(n - 1)),
            Factor("laplace", "cdf", Fraction(1), Fraction(4)))


def _quad(factors: tuple[Factor, ...], digits: int) -> object:
    def g(x: object) -> object:
        v = mpmath.mpf(1)
        for f in factors:
            z = (x - int(cast(Fraction, f.location))) / f.scale  # type: ignore[operator]
            if f.part == "density":
                v *= mpmath.exp(-abs(z)) / (2 * f.scale)
            else:
                cdf = mpmath.exp(z) / 2 if z < 0 else 1 - mpmath.exp(-z) / 2
                v *= cdf if f.part == "cdf" else 1 - cdf
        return v

    with mpmath.workdps(digits):
        kinks = sorted({int(cast(Fraction, f.location)) for f in factors})
        return mpmath.quad(g, [-mpmath.inf, *kinks, mpmath.inf])


def _cold_integral(factors: tuple[Factor, ...], prec: int) -> object:
    integral.cache_clear()  # time the computation, not the memo
    return integral(factors, prec)


def main(argv: list[str] | None = None) -> int:
    """Measure, print and write the Markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--markdown", type=Path, default=ROOT / "docs/generated/arith.md")
    args = parser.parse_args(argv)
    started, load = time.perf_counter(), os.getloadavg()
    lines = ["## One operation (CPU µs per call)", "",
             "| operation | bits | privref Interval | mpmath iv | arb |", "|---|---|---|---|---|"]
    for prec in (53, 200):
        for op, row in _ops(prec).items():
            lines.append(f"| {op} | {prec} | {row['privref'] * 1e6:.3g} | "
                         f"{row['mpmath iv'] * 1e6:.3g} | {row['arb'] * 1e6:.3g} |")
    lines += ["", "## Sparse-vector kernel (CPU ms per integral)", "",
              "| n factors | bits | privref closed form in arb (rigorous) | mpmath quad "
              "(no proved error) |", "|---|---|---|---|"]
    for n in (5, 10, 30, 60):
        for prec in (53, 200):
            closed = cpu_per_call(partial(_cold_integral, kernel(n), prec), 0.5)
            quad = cpu_per_call(partial(_quad, kernel(n), prec * 3 // 10), 0.5)
            lines.append(f"| {n} | {prec} | {closed * 1e3:.3g} | {quad * 1e3:.3g} |")
    header = (f"Generated by `python benchmarks/bench_arith.py` on "
              f"{datetime.datetime.now(datetime.UTC).isoformat(timespec='seconds')} "
              f"({time.perf_counter() - started:.0f} s; {os.cpu_count()} CPUs, load "
              f"{load[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end; "
              f"{platform.platform()}, Python {platform.python_version()}). "
              "Do not edit by hand.")
    text = "\n".join([header, "", *lines]) + "\n"
    args.markdown.parent.mkdir(parents=True, exist_ok=True)
    args.markdown.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
