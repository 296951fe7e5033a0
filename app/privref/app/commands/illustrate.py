"""``privref illustrate WHICH``: paper 003's illustrations as a printed table, JSON and PNG.

The tables are :mod:`privref.app.experiments.illustrations`, the plot
:mod:`privref.app.reports.illustrations_plot`.
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from typing import Any

from privref import reference
from privref.reference.errors import InvalidArgument

from ..experiments.illustrations import (
    SEMIPRIVATE_GRID,
    SEMIPRIVATE_WINDOW,
    littlestone_table,
    public_table,
    semiprivate_table,
)
from ..experiments.learning import Cell
from ..reports.illustrations_plot import plot
from ..reports.output import check_output_path, write_json
from .learn import parse_int
from .progress import require_matplotlib

__all__ = ["MAX_RUNS", "configure_parser", "run"]

MAX_RUNS = 2000
"""Largest --runs of ``privref illustrate`` (semiprivate at 2000 runs takes about an hour)."""

SEMI_PUBLIC = 16
"""Public (unlabeled) points of A_SSPP in ``illustrate semiprivate``."""

SEMI_QUICK_RUNS = 20
"""Runs per cell of ``illustrate semiprivate --quick`` and ``public --quick``: with 10 runs no
cell can have a CP upper end below β = 1/4, so m* and n* would always be None."""

SEMI_QUICK_GRID = (8, 16, 32, 64, 128, 256)
"""Private sizes of ``illustrate semiprivate --quick`` (they bracket both m* at d = 3 and 7)."""


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``illustrate`` arguments."""
    parser.add_argument("which", choices=("littlestone", "semiprivate", "public"),
                        help="which illustration of paper 003")
    parser.add_argument("--quick", action="store_true",
                        help="a small instance for smoke tests (20 runs for semiprivate and "
                             "public: cannot be combined with --runs)")
    parser.add_argument("--runs", default=None,
                        help=f"repetitions per cell, at most {MAX_RUNS} (default 60)")
    parser.add_argument("--seed", default="0", help="master seed in [0, 2^64) (default 0)")
    parser.add_argument("--json", metavar="PATH", default=None,
                        help="write the JSON table to PATH (default: print the rows only)")
    parser.add_argument("--png", metavar="PATH", default=None,
                        help="write the PNG plot to PATH (default: no plot)")


def run(args: argparse.Namespace) -> int:
    """Run ``privref illustrate WHICH``; 0 on success.

    Prints the rows; writes the JSON table and the PNG plot only to the paths given by
    ``--json`` / ``--png`` (checked, with every flag, before the run).
    """
    which = args.which
    if args.quick and args.runs is not None:
        raise InvalidArgument("--quick sets --runs (20); drop --quick or "
                              "--runs")
    runs = 60 if args.runs is None else parse_int(args.runs, "--runs")
    if runs > MAX_RUNS:
        raise InvalidArgument(f"--runs={runs} must be an int in [1, {MAX_RUNS}]")
    seed = parse_int(args.seed, "--seed")
    json_path = None if args.json is None else check_output_path("--json", args.json)
    png_path = None if args.png is None else check_output_path("--png", args.png)
    if png_path is not None:
        require_matplotlib("privref illustrate --png")
    count = [0]

    def progress(cell: Cell) -> None:
        count[0] += 1
        if not getattr(args, "quiet", False):
            print(f"[{count[0]}] {cell.learner} d={cell.d} m={cell.labeled} n={cell.unlabeled}: "
                  f"failures {cell.failures}/{cell.runs}", file=sys.stderr, flush=True)

    start = time.perf_counter()
    eps = Fraction(1)
    params: dict[str, Any]
    if which == "littlestone":
        params = {"max_points": 16 if args.quick else 128}
        rows = littlestone_table(params["max_points"])
    elif which == "semiprivate":
        # ε = 1/2, 16 public points, μ on 8 consecutive points: KLNRS's bound grows like
        # ln|C| = ln(2^d + 1), A_SSPP's stays at ln 9 (003 Algorithm 1's cover on the window);
        # 20 quick runs so that a cell with no failure
        # has a CP upper end below β = 1/4 (10 runs cannot: 1 - 0.025^(1/10) = 0.31).
        eps = Fraction(1, 2)
        params = {"dims": (3, 7) if args.quick else (3, 5, 7, 9), "public": SEMI_PUBLIC,
                  "runs": SEMI_QUICK_RUNS if args.quick else runs, "epsilon": str(eps),
                  "seed": seed, "labeled_sizes": list(SEMIPRIVATE_GRID),
                  "window": SEMIPRIVATE_WINDOW}
        if args.quick:
            params["labeled_sizes"] = list(SEMI_QUICK_GRID)
        rows = semiprivate_table(params["dims"], SEMI_PUBLIC, params["runs"], eps, seed,
                                 progress, tuple(params["labeled_sizes"]))
    else:
        alphas = (Fraction(1, 4), Fraction(1, 8)) if args.quick else tuple(
            Fraction(1, 2 ** k) for k in range(2, 7))
        params = {"alphas": [str(a) for a in alphas], "d": 6, "private": 256,
                  "runs": SEMI_QUICK_RUNS if args.quick else runs, "epsilon": str(eps),
                  "seed": seed}
        rows = public_table(alphas, 6, 256, params["runs"], eps, seed, progress)
    seconds = time.perf_counter() - start
    meta = f"privref {reference.__version__}, {which}, {params}"
    for r in rows:
        print(r)
    if json_path is not None:
        write_json(json_path, {"privref_version": reference.__version__, "illustration": which,
                               "parameters": params, "seconds": round(seconds, 2),
                               "rows": rows}, flag="--json")
        print(f"wrote {json_path}")
    if png_path is not None:
        plot(which, rows, png_path, meta)
        print(f"wrote {png_path}")
    print(f"{which}: {len(rows)} rows in {seconds:.1f}s")
    return 0
