"""``privref illustrate``: the three illustrations of paper 003 (Alon, Bassily, Moran), JSON + PNG.

* ``littlestone``: the Littlestone dimension against the VC dimension of
  thresholds as the domain grows (exact, :mod:`privref.reference.vc`).  003
  Theorems 4.1–4.3: pure private learning needs Ldim, semi-private learning
  only VC plus public data.
* ``semiprivate``: the private (labeled) sample size needed by a fully private
  learner (KLNRS, the exponential mechanism over C) and by the semi-private
  A_SSPP (003 Algorithm 1, with a fixed public sample) as the domain grows,
  measured with :mod:`privref.app.learning` (exact errors, Clopper–Pearson).
* ``public``: the public sample size A_SSPP needs as α shrinks, against the
  lower bound n_pub > 1/(1600α) of 003 Theorem 4.1 (a bound on any learner
  whose private sample is small; A_SSPP's own rate is O(log(1/α)/α)).

These illustrate the statements on small instances; none proves them.
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from privref import reference
from privref.reference.concepts import thresholds_on
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.validate import check_int
from privref.reference.vc import littlestone_dimension, vc_dimension

from .learning import Cell, ExperimentConfig, run_experiment, sample_complexity
from .learning_cli import parse_int
from .output import check_output_path, write_json, write_with

__all__ = ["configure_parser", "littlestone_table", "public_table", "run", "semiprivate_table"]

LOWER_CONSTANT = Fraction(1, 1600)
"""003 Theorem 4.1: n_pub > 1/(1600α) public examples (with a small private sample)."""


def littlestone_table(max_points: int) -> list[dict[str, int]]:
    """Exact VC and Littlestone dimensions of thresholds on n = 1..max_points points."""
    check_int(max_points, "max_points", minimum=1, maximum=256)
    rows = []
    for n in range(1, max_points + 1):
        C = thresholds_on(n)
        rows.append({"points": n, "vc": vc_dimension(C), "littlestone": littlestone_dimension(C)})
    return rows


def _quiet(cell: Cell) -> None:
    """No progress."""


def semiprivate_table(dims: tuple[int, ...], public: int, runs: int, epsilon: Fraction,
                      seed: int, progress: Any = _quiet) -> list[dict[str, Any]]:
    """Empirical private sample complexity m*(d) of KLNRS and of A_SSPP (public sample ``public``)."""
    config = ExperimentConfig(learners=("klnrs", "sspp"), families=("thresholds",), dims=dims,
                              labeled_sizes=(4, 8, 16, 32, 64, 128, 256),
                              unlabeled_sizes=(public,), epsilon=epsilon, runs=runs, seed=seed)
    result = run_experiment(config, progress=progress)
    return [{"learner": k[0], "d": k[2], "points": 1 << k[2], "private_m_star": v[0]}
            for k, v in sample_complexity(result).items()]


def public_table(alphas: tuple[Fraction, ...], d: int, private: int, runs: int, epsilon: Fraction,
                 seed: int, progress: Any = _quiet) -> list[dict[str, Any]]:
    """For each α: A_SSPP's empirical public sample complexity n*(α) at a generous private size."""
    rows = []
    for i, alpha in enumerate(alphas):
        config = ExperimentConfig(learners=("sspp",), families=("thresholds",), dims=(d,),
                                  labeled_sizes=(private,),
                                  unlabeled_sizes=(1, 2, 4, 8, 16, 32, 64, 128, 256),
                                  alpha=alpha, epsilon=epsilon, runs=runs, seed=seed + i)
        result = run_experiment(config, progress=progress)
        (_, n_star), = sample_complexity(result).values()
        rows.append({"alpha": str(alpha), "inverse_alpha": float(1 / alpha),
                     "public_n_star": n_star,
                     "lower_bound_1_over_1600_alpha": float(LOWER_CONSTANT / alpha)})
    return rows


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``illustrate`` arguments."""
    parser.add_argument("which", choices=("littlestone", "semiprivate", "public"),
                        help="which illustration of paper 003")
    parser.add_argument("--quick", action="store_true",
                        help="a small instance for smoke tests (10 runs: cannot be combined "
                             "with --runs)")
    parser.add_argument("--runs", default=None,
                        help=f"repetitions per cell, at most {MAX_RUNS} (default 60)")
    parser.add_argument("--seed", default="0", help="master seed in [0, 2^64) (default 0)")
    parser.add_argument("--json", metavar="PATH", default=None,
                        help="write the JSON table to PATH (default: print the rows only)")
    parser.add_argument("--png", metavar="PATH", default=None,
                        help="write the PNG plot to PATH (default: no plot)")


MAX_RUNS = 2000
"""Largest --runs of ``privref illustrate`` (semiprivate at 2000 runs takes about an hour)."""


def _plot(which: str, rows: list[dict[str, Any]], path: Path, meta: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise PrivrefError(f"privref illustrate needs matplotlib: pip install 'privref[plots]' ({exc})"
                           ) from None
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    if which == "littlestone":
        xs = [r["points"] for r in rows]
        ax.plot(xs, [r["littlestone"] for r in rows], marker=".", label="Littlestone dimension")
        ax.plot(xs, [r["vc"] for r in rows], marker=".", label="VC dimension")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("domain size (thresholds on {0, …, n − 1})")
        ax.set_ylabel("dimension")
        ax.set_title("thresholds: Ldim = ⌊log2(n+1)⌋ grows, VC = 1")
    elif which == "semiprivate":
        for learner in ("klnrs", "sspp"):
            pts = sorted((r["points"], r["private_m_star"]) for r in rows if r["learner"] == learner)
            ys = [m if m is not None else 512 for _, m in pts]
            ax.plot([p for p, _ in pts], ys, marker="o",
                    label={"klnrs": "fully private (KLNRS)", "sspp": "semi-private (A_SSPP)"}[learner])
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_xlabel("domain size 2^d")
        ax.set_ylabel("empirical private sample size m*")
        ax.set_title("private samples needed (512 = not reached on the grid)")
    else:
        xs = [r["inverse_alpha"] for r in rows]
        ax.plot(xs, [r["public_n_star"] if r["public_n_star"] is not None else 512 for r in rows],
                marker="o", label="A_SSPP: empirical public n*")
        ax.plot(xs, [r["lower_bound_1_over_1600_alpha"] for r in rows], linestyle="--",
                label="003 Thm 4.1: n_pub > 1/(1600α)")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_xlabel("1/α")
        ax.set_ylabel("public sample size")
        ax.set_title("public samples needed as α shrinks (512 = not reached)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    import textwrap
    fig.suptitle("\n".join(textwrap.wrap(meta, 110)), fontsize=7)
    fig.tight_layout()
    try:
        write_with(path, lambda fh: fig.savefig(fh, format="png", dpi=110), flag="--png")
    finally:
        plt.close(fig)


def run(args: argparse.Namespace) -> int:
    """Run ``privref illustrate WHICH``; 0 on success.

    Prints the rows; writes the JSON table and the PNG plot only to the paths given by
    ``--json`` / ``--png`` (checked, with every flag, before the run).
    """
    which = args.which
    if args.quick and args.runs is not None:
        raise InvalidArgument("--quick sets --runs to 10; drop --quick or --runs")
    runs = 60 if args.runs is None else parse_int(args.runs, "--runs")
    if runs > MAX_RUNS:
        raise InvalidArgument(f"--runs={runs} must be an int in [1, {MAX_RUNS}]")
    seed = parse_int(args.seed, "--seed")
    json_path = None if args.json is None else check_output_path("--json", args.json)
    png_path = None if args.png is None else check_output_path("--png", args.png)
    if png_path is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError as exc:
            raise PrivrefError("--png needs matplotlib: pip install 'privref[plots]' "
                               f"({exc})") from None
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
        params = {"dims": (2, 3) if args.quick else (2, 3, 4, 5, 6, 7), "public": 32,
                  "runs": 10 if args.quick else runs, "epsilon": str(eps), "seed": seed}
        rows = semiprivate_table(params["dims"], 32, params["runs"], eps, seed, progress)
    else:
        alphas = (Fraction(1, 4), Fraction(1, 8)) if args.quick else tuple(
            Fraction(1, 2 ** k) for k in range(2, 7))
        params = {"alphas": [str(a) for a in alphas], "d": 6, "private": 256,
                  "runs": 10 if args.quick else runs, "epsilon": str(eps), "seed": seed}
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
        _plot(which, rows, png_path, meta)
        print(f"wrote {png_path}")
    print(f"{which}: {len(rows)} rows in {seconds:.1f}s")
    return 0
