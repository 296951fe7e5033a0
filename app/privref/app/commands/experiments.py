"""``privref experiments``: the command line of paper 002's sample-complexity experiment.

Every flag is checked (:func:`config_from_args`) before the run; :func:`run` runs
:func:`privref.app.experiments.prediction.run_experiment` and writes
prediction-sample-complexity.json and .png (:mod:`privref.app.reports.prediction_plot`) into
``--out``.
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

from privref import reference
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.validate import to_fraction

from ..experiments.prediction import (
    MAX_N,
    PREDICTOR_KEYS,
    PREDICTORS,
    ExperimentConfig,
    experiment_classes,
    n_grid,
    run_experiment,
)
from ..reports.output import check_output_path, write_json
from ..reports.prediction_plot import plot

__all__ = ["MAX_DATASETS", "MAX_DRAWS", "MAX_EPSILON", "config_from_args", "configure_parser", "run"]

MAX_DATASETS = 50
"""Largest number of datasets S per grid point (``--datasets``)."""

MAX_DRAWS = 50
"""Largest number of subset draws I per dataset (``--draws``)."""

MAX_EPSILON = Fraction(4)
"""Largest target ε (``--epsilon``)."""


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``experiments`` arguments."""
    parser.add_argument("--out", metavar="DIR", required=True,
                        help="existing folder for prediction-sample-complexity.json and .png")
    parser.add_argument("--quick", action="store_true",
                        help="a small instance for smoke tests (thresholds, two alphas, "
                             "n <= 1024, 2 datasets, 2 draws)")
    parser.add_argument("--max-n", default=None,
                        help=f"largest n of the grid, in [16, {MAX_N}] (default {MAX_N})")
    parser.add_argument("--datasets", default=None,
                        help=f"datasets S per grid point, in [1, {MAX_DATASETS}] (default 6)")
    parser.add_argument("--draws", default=None,
                        help=f"subset draws per dataset, in [1, {MAX_DRAWS}] (default 3)")
    parser.add_argument("--epsilon", default="1",
                        help=f"target epsilon, a rational in (0, {MAX_EPSILON}] (default 1)")
    parser.add_argument("--noise", default="1/10",
                        help="label noise eta of the agnostic population, a rational in "
                             "[0, 1/2) (default 1/10)")
    parser.add_argument("--seed", default="0", help="master seed in [0, 2^64) (default 0)")


def _bounded(text: str | None, flag: str, default: int, low: int, high: int) -> int:
    """An int flag in [low, high] (``default`` when absent); InvalidArgument naming the flag."""
    if text is None:
        return default
    raw = text.strip()
    if not raw.lstrip("+-").isdigit() or len(raw) > 30:
        raise InvalidArgument(f"{flag}={text!r} must be an int in [{low}, {high}]")
    value = int(raw)
    if not low <= value <= high:
        raise InvalidArgument(f"{flag}={value} must be an int in [{low}, {high}]")
    return value


def config_from_args(args: argparse.Namespace) -> ExperimentConfig:
    """Validate the command line (InvalidArgument naming the flag) and build the config.

    The α grid is (1 − 2η)/4, /8, /16, /32 ((1 − 2η)/4 and /8 with --quick): with label noise
    η no predictor's excess error exceeds 1 − 2η, so α is measured against that scale
    (η = 1/10 gives 1/5, 1/10, 1/20, 1/40).
    """
    if args.quick and any(v is not None for v in (args.max_n, args.datasets, args.draws)):
        raise InvalidArgument("--quick fixes --max-n, --datasets and --draws; drop --quick "
                              "or those flags")
    try:
        epsilon = to_fraction(args.epsilon, "--epsilon")
    except PrivrefError as exc:
        raise InvalidArgument(f"--epsilon={args.epsilon!r} must be a rational number, e.g. 1 "
                              f"or 1/2 ({exc})") from None
    if not 0 < epsilon <= MAX_EPSILON:
        raise InvalidArgument(f"--epsilon={epsilon} must lie in (0, {MAX_EPSILON}]")
    try:
        noise = to_fraction(args.noise, "--noise")
    except PrivrefError as exc:
        raise InvalidArgument(f"--noise={args.noise!r} must be a rational number, e.g. 1/10 "
                              f"({exc})") from None
    if not 0 <= noise < Fraction(1, 2) or noise.denominator > 10 ** 6:
        raise InvalidArgument(f"--noise={noise} must lie in [0, 1/2) with a denominator "
                              "of at most 10^6")
    seed = _bounded(args.seed, "--seed", 0, 0, 2 ** 64 - 1)
    scale = 1 - 2 * noise        # the largest possible excess error is (1 − 2η)·D(disagree)
    if args.quick:
        return ExperimentConfig(("thresholds",), ("alg2", "alg3_rate", "b3", "b4", "b5"),
                                (scale / 4, scale / 8), epsilon, noise, 1024, 2, 2, seed)
    return ExperimentConfig(("thresholds", "intervals", "unions2"), PREDICTOR_KEYS,
                            tuple(scale / k for k in (4, 8, 16, 32)), epsilon, noise,
                            _bounded(args.max_n, "--max-n", MAX_N, 16, MAX_N),
                            _bounded(args.datasets, "--datasets", 6, 1, MAX_DATASETS),
                            _bounded(args.draws, "--draws", 3, 1, MAX_DRAWS), seed)


def _versions() -> dict[str, str]:
    out = {"privref": reference.__version__, "python": sys.version.split()[0],
           "numpy": np.__version__}
    try:
        import matplotlib
        out["matplotlib"] = matplotlib.__version__
    except ImportError:
        pass
    return out


def run(args: argparse.Namespace) -> int:
    """Run ``privref experiments``; 0 on success.  Every flag is checked before the run."""
    config = config_from_args(args)
    if not args.out.strip():
        raise InvalidArgument(f"--out={args.out!r} must be a folder path, not empty")
    out = Path(args.out)
    if not out.is_dir():
        raise InvalidArgument(f"--out {args.out}: is not an existing folder")
    json_path = check_output_path("--out", out / "prediction-sample-complexity.json")
    png_path = check_output_path("--out", out / "prediction-sample-complexity.png")
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise PrivrefError("privref experiments needs matplotlib: pip install "
                           f"'privref[plots]' ({exc})") from None
    quiet = getattr(args, "quiet", False)

    def progress(line: str) -> None:
        if not quiet:
            print(line, file=sys.stderr, flush=True)

    start = time.perf_counter()
    result = run_experiment(config, progress)
    seconds = time.perf_counter() - start
    payload = {"command": "privref experiments", "versions": _versions(),
               "seed": config.seed, "seconds": round(seconds, 2),
               "config": {"classes": list(config.classes), "predictors": list(config.predictors),
                          "alphas": [str(a) for a in config.alphas],
                          "epsilon": str(config.epsilon), "noise": str(config.noise),
                          "max_n": config.max_n, "n_grid": list(n_grid(config.max_n)),
                          "datasets": config.datasets, "draws": config.draws,
                          "quick": bool(args.quick)},
               "classes": [{"key": c.key, "name": c.concepts.name, "size": len(c.concepts),
                            "vc_brute_force": c.vc, "target": c.concepts[c.target].name}
                           for c in experiment_classes(config.classes)],
               "predictors": [{"key": p.key, "label": p.label, "predicted_rate": p.rate,
                               "realizable": p.realizable} for p in PREDICTORS
                              if p.key in config.predictors],
               "exact": "given S and the subset draw I (alg1, alg2) or I and h (alg3), or "
                        "given S alone (b3, b4, b5): L_P exact or enclosed; Monte Carlo over S "
                        "and the draws, with standard errors",
               **result}
    write_json(json_path, payload, flag="--out")
    print(f"wrote {json_path}")
    plot(payload, png_path)
    print(f"wrote {png_path}")
    for fit in result["fits"]:
        print(f"{fit['class']} {fit['predictor']}: fitted slope {fit['fitted_slope']} "
              f"(predicted {fit['predicted_slope']}, {fit['points']} points)")
    print(f"experiments: {len(result['rows'])} grid points in {seconds:.1f}s")
    return 0
