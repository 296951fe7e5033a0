"""``privref experiments``: the command line of paper 002's sample-complexity experiment.

Every flag is checked (:func:`config_from_args`) before the run.  ``--population massart``
(the default) runs :func:`privref.app.experiments.prediction.run_experiment` and writes
prediction-sample-complexity.json and .png; ``--population agnostic`` runs the agnostic sweep
:func:`privref.app.experiments.prediction.run_sweep` and writes prediction-agnostic.json and
.png (:mod:`privref.app.reports.prediction_plot`) into ``--out``.  The JSON records the command
line that regenerates it (with ``--out DIR``: no machine path).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.validate import to_fraction

from ..experiments.prediction import (
    AGNOSTIC_EPSILONS,
    AGNOSTIC_GAMMAS,
    MAX_AGNOSTIC_ALPHA,
    MAX_N,
    MAX_N_AGNOSTIC,
    MIN_AGNOSTIC_ALPHA,
    PREDICTOR_KEYS,
    PREDICTORS,
    ExperimentConfig,
    SweepConfig,
    agnostic_population,
    experiment_classes,
    n_grid,
    predictor_spec,
    run_experiment,
    run_sweep,
    sweep_grid,
)
from ..reports.output import check_output_path, write_text_atomic
from ..reports.prediction_plot import plot, plot_sweep
from .progress import bounded_int, require_matplotlib, run_versions, stderr_lines

__all__ = ["DEFAULT_AGNOSTIC_ALPHA", "MAX_DATASETS", "MAX_DRAWS", "MAX_EPSILON", "POPULATIONS",
           "command_line", "config_from_args", "configure_parser", "run", "write_payload"]

POPULATIONS = ("massart", "agnostic")
"""The values of ``--population``: Massart noise η fixed (the α grid of run_experiment) or the
agnostic sweep (P[y = 1 | x] = 1/2 ± 4α at a fixed α, γ and ε swept)."""

DEFAULT_AGNOSTIC_ALPHA = Fraction(1, 256)
"""The α of ``--population agnostic`` when ``--alpha`` is absent."""

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
                        help="a small instance for smoke tests (massart: thresholds, two "
                             "alphas, n <= 1024, 2 datasets, 2 draws; agnostic: alpha 1/32, "
                             "gamma 1/2 and 1/8, epsilon 4, n <= 16384, 4 datasets, 2 draws)")
    parser.add_argument("--population", default="massart",
                        help="massart (label noise --noise, alpha grid; default) or agnostic "
                             "(P[y=1|x] = 1/2 +- 4*alpha at fixed --alpha; gamma and epsilon "
                             "swept; writes prediction-agnostic.json and .png)")
    parser.add_argument("--alpha", default=None,
                        help=f"agnostic only: the fixed excess target alpha, a rational in "
                             f"[{MIN_AGNOSTIC_ALPHA}, {MAX_AGNOSTIC_ALPHA}] (default "
                             f"{DEFAULT_AGNOSTIC_ALPHA})")
    parser.add_argument("--max-n", default=None,
                        help=f"largest n of the grid, in [16, {MAX_N}] (default {MAX_N}); "
                             f"agnostic: in [16, {MAX_N_AGNOSTIC}] (default {MAX_N_AGNOSTIC})")
    parser.add_argument("--datasets", default=None,
                        help=f"datasets S per grid point, in [1, {MAX_DATASETS}] (default 6)")
    parser.add_argument("--draws", default=None,
                        help=f"subset draws per dataset, in [1, {MAX_DRAWS}] (default 3)")
    parser.add_argument("--epsilon", default=None,
                        help=f"massart only: target epsilon, a rational in (0, {MAX_EPSILON}] "
                             "(default 1)")
    parser.add_argument("--noise", default=None,
                        help="massart only: label noise eta of the population, a rational in "
                             "[0, 1/2) (default 1/10)")
    parser.add_argument("--seed", default="0", help="master seed in [0, 2^64) (default 0)")



def _population(args: argparse.Namespace) -> str:
    """The validated ``--population`` value."""
    value = getattr(args, "population", "massart")
    if value not in POPULATIONS:
        raise InvalidArgument(f"--population={value!r} must be one of {', '.join(POPULATIONS)}")
    return str(value)


def _agnostic_config(args: argparse.Namespace) -> SweepConfig:
    """The agnostic sweep's config: --alpha, --max-n, --datasets, --draws, --seed, --quick."""
    for flag, value in (("--epsilon", args.epsilon), ("--noise", args.noise)):
        if value is not None:
            raise InvalidArgument(f"{flag} applies to --population massart only (the agnostic "
                                  "sweep sets its own epsilons and noise 1/2 - 4*alpha)")
    seed = bounded_int(args.seed, "--seed", 0, 0, 2 ** 64 - 1)
    if args.quick:
        if args.alpha is not None:
            raise InvalidArgument("--quick fixes --alpha (1/32); drop --quick or --alpha")
        return SweepConfig(Fraction(1, 32), (Fraction(1, 2), Fraction(1, 8)), (Fraction(4),),
                           16384, 4, 2, seed)
    alpha = DEFAULT_AGNOSTIC_ALPHA
    if args.alpha is not None:
        try:
            alpha = to_fraction(args.alpha, "--alpha")
        except PrivrefError as exc:
            raise InvalidArgument(f"--alpha={args.alpha!r} must be a rational number, e.g. "
                                  f"1/256 ({exc})") from None
        if not MIN_AGNOSTIC_ALPHA <= alpha <= MAX_AGNOSTIC_ALPHA or alpha.denominator > 10 ** 6:
            raise InvalidArgument(f"--alpha={alpha} must lie in [{MIN_AGNOSTIC_ALPHA}, "
                                  f"{MAX_AGNOSTIC_ALPHA}] with a denominator of at most 10^6")
    return SweepConfig(alpha, AGNOSTIC_GAMMAS, AGNOSTIC_EPSILONS,
                       bounded_int(args.max_n, "--max-n", MAX_N_AGNOSTIC, 16, MAX_N_AGNOSTIC),
                       bounded_int(args.datasets, "--datasets", 6, 1, MAX_DATASETS),
                       bounded_int(args.draws, "--draws", 3, 1, MAX_DRAWS), seed)


def config_from_args(args: argparse.Namespace) -> ExperimentConfig | SweepConfig:
    """Validate the command line (InvalidArgument naming the flag) and build the config.

    ``--population massart``: the α grid is (1 − 2η)/4, /8, /16, /32 ((1 − 2η)/4 and /8 with
    --quick): with label noise η no predictor's excess error exceeds 1 − 2η, so α is measured
    against that scale (η = 1/10 gives 1/5, 1/10, 1/20, 1/40).  ``--population agnostic``:
    a :class:`SweepConfig` at the fixed ``--alpha`` (``--epsilon``/``--noise`` refused).
    """
    if args.quick and any(v is not None for v in (args.max_n, args.datasets, args.draws)):
        raise InvalidArgument("--quick fixes --max-n, --datasets and --draws; drop --quick "
                              "or those flags")
    if _population(args) == "agnostic":
        return _agnostic_config(args)
    if args.alpha is not None:
        raise InvalidArgument("--alpha applies to --population agnostic only (massart uses "
                              "the alpha grid (1 - 2*noise)/4 ... /32)")
    epsilon_text = "1" if args.epsilon is None else args.epsilon
    noise_text = "1/10" if args.noise is None else args.noise
    try:
        epsilon = to_fraction(epsilon_text, "--epsilon")
    except PrivrefError as exc:
        raise InvalidArgument(f"--epsilon={epsilon_text!r} must be a rational number, e.g. 1 "
                              f"or 1/2 ({exc})") from None
    if not 0 < epsilon <= MAX_EPSILON:
        raise InvalidArgument(f"--epsilon={epsilon} must lie in (0, {MAX_EPSILON}]")
    try:
        noise = to_fraction(noise_text, "--noise")
    except PrivrefError as exc:
        raise InvalidArgument(f"--noise={noise_text!r} must be a rational number, e.g. 1/10 "
                              f"({exc})") from None
    if not 0 <= noise < Fraction(1, 2) or noise.denominator > 10 ** 6:
        raise InvalidArgument(f"--noise={noise} must lie in [0, 1/2) with a denominator "
                              "of at most 10^6")
    seed = bounded_int(args.seed, "--seed", 0, 0, 2 ** 64 - 1)
    scale = 1 - 2 * noise        # the largest possible excess error is (1 − 2η)·D(disagree)
    if args.quick:
        return ExperimentConfig(("thresholds",), ("alg2", "alg3_rate", "b3", "b4", "b5"),
                                (scale / 4, scale / 8), epsilon, noise, 1024, 2, 2, seed)
    return ExperimentConfig(("thresholds", "intervals", "unions2"), PREDICTOR_KEYS,
                            tuple(scale / k for k in (4, 8, 16, 32)), epsilon, noise,
                            bounded_int(args.max_n, "--max-n", MAX_N, 16, MAX_N),
                            bounded_int(args.datasets, "--datasets", 6, 1, MAX_DATASETS),
                            bounded_int(args.draws, "--draws", 3, 1, MAX_DRAWS), seed)




SWEEP_CLAIMS = {
    "alg1": "gamma-uniform stability of the predicted label, one query: proved "
            "gamma = m/n + (1 - m/n)*tanh(eps_EM/2) <= the level (002 Theorem 1's algorithm, "
            "Lemma 7's proof tightened)",
    "b1": "gamma-uniform stability of the predicted label, one query: proved m/n <= the level "
          "([SSSSS10], 002 section 1)",
    "alg2": "pure epsilon-differentially private prediction of the label at the query x, one "
            "query: proved ln(1 + (1 - alpha)*gamma/(alpha/2)) <= the level (002 Corollary 1)",
    "b3": "pure epsilon-differentially private prediction of the label at the query x, one "
          "query: proved ln(1 + (1 - 2q)/(k*q)) <= the level ([DF18, BTT18] via 002 "
          "Corollary 1's flip conversion)",
}
"""The claim each predictor of the agnostic sweep carries at every reported n* (checked exactly
per grid point: ``proved_meets_target`` in the rows)."""


def command_line(args: argparse.Namespace, config: ExperimentConfig | SweepConfig) -> str:
    """The command line that regenerates the run, every value explicit, ``--out DIR``."""
    parts = ["privref experiments"]
    if isinstance(config, SweepConfig):
        parts.append("--population agnostic")
        if args.quick:
            parts.append("--quick")
        else:
            parts += [f"--alpha {config.alpha}", f"--max-n {config.max_n}",
                      f"--datasets {config.datasets}", f"--draws {config.draws}"]
    else:
        if args.quick:
            parts.append("--quick")
        parts += [f"--noise {config.noise}", f"--epsilon {config.epsilon}"]
        if not args.quick:
            parts += [f"--max-n {config.max_n}", f"--datasets {config.datasets}",
                      f"--draws {config.draws}"]
    parts += [f"--seed {config.seed}", "--out DIR"]
    return " ".join(parts)


def _short(value: Any) -> Any:
    """A row value for the JSON: floats to 6 significant digits (reported measurements)."""
    if isinstance(value, float) and math.isfinite(value):
        return float(f"{value:.6g}")
    return value


def write_payload(path: Path, payload: dict[str, Any]) -> None:
    """Write ``payload`` as JSON: indented, except that every entry of ``rows`` (one grid point)
    is one compact line with its floats at 6 significant digits, so that the files under
    docs/generated stay small; a final newline, written atomically."""
    head = {k: v for k, v in payload.items() if k != "rows"}
    text = json.dumps(head, indent=1, ensure_ascii=False, default=str)
    rows = ",\n".join("  " + json.dumps({k: _short(v) for k, v in row.items()},
                                          separators=(",", ":"), ensure_ascii=False, default=str)
                       for row in payload.get("rows", []))
    text = text[:-2] + ',\n "rows": [\n' + rows + "\n ]\n}\n"
    write_text_atomic(path, text, flag="--out")


def _prepare(args: argparse.Namespace, stem: str) -> tuple[Path, Path]:
    """Check --out and matplotlib before the run; the JSON and PNG paths."""
    if not args.out.strip():
        raise InvalidArgument(f"--out={args.out!r} must be a folder path, not empty")
    out = Path(args.out)
    if not out.is_dir():
        raise InvalidArgument(f"--out {args.out}: is not an existing folder")
    json_path = check_output_path("--out", out / f"{stem}.json")
    png_path = check_output_path("--out", out / f"{stem}.png")
    require_matplotlib("privref experiments")
    return json_path, png_path


def run(args: argparse.Namespace) -> int:
    """Run ``privref experiments``; 0 on success.  Every flag is checked before the run."""
    config = config_from_args(args)
    stem = ("prediction-agnostic" if isinstance(config, SweepConfig)
            else "prediction-sample-complexity")
    json_path, png_path = _prepare(args, stem)
    progress = stderr_lines(args)
    if isinstance(config, SweepConfig):
        return _run_sweep(args, config, json_path, png_path, progress)
    start = time.perf_counter()
    result = run_experiment(config, progress)
    seconds = time.perf_counter() - start
    payload = {"command": command_line(args, config), "versions": run_versions("matplotlib"),
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
    write_payload(json_path, payload)
    print(f"wrote {json_path}")
    plot(payload, png_path)
    print(f"wrote {png_path}")
    for fit in result["fits"]:
        print(f"{fit['class']} {fit['predictor']}: fitted slope {fit['fitted_slope']} "
              f"(predicted {fit['predicted_slope']}, {fit['points']} points)")
    print(f"experiments: {len(result['rows'])} grid points in {seconds:.1f}s")
    return 0


def _run_sweep(args: argparse.Namespace, config: SweepConfig, json_path: Path, png_path: Path,
               progress: Callable[[str], None]) -> int:
    """The agnostic sweep: run, write JSON and PNG, print the n* and crossovers."""
    start = time.perf_counter()
    result = run_sweep(config, progress)
    seconds = time.perf_counter() - start
    pop = agnostic_population(config.alpha, config.points)
    payload = {"command": command_line(args, config), "versions": run_versions("matplotlib"),
               "seed": config.seed, "seconds": round(seconds, 2),
               "config": {"population": "agnostic", "alpha": str(config.alpha),
                          "gammas": [str(g) for g in config.gammas],
                          "epsilons": [str(e) for e in config.epsilons],
                          "max_n": config.max_n, "n_grid": list(sweep_grid(config.max_n)),
                          "datasets": config.datasets, "draws": config.draws,
                          "points": len(pop.concepts.domain), "quick": bool(args.quick)},
               "predictors": [{"key": k, "label": predictor_spec(k).label,
                               "claim": SWEEP_CLAIMS[k]} for k in ("alg1", "b1", "alg2", "b3")],
               "exact": "given S and the subset draw I (alg1, alg2, b1) or given S alone (b3): "
                        "L_P exact or enclosed (counts of S, the predictors' own subset "
                        "sampler, candidate rule and exponential weights); Monte Carlo over S "
                        "and I, with standard errors",
               **result}
    write_payload(json_path, payload)
    print(f"wrote {json_path}")
    plot_sweep(payload, png_path)
    print(f"wrote {png_path}")
    for row in result["n_star"]:
        print(f"{row['predictor']} at {row['level']}: n* = {row['n_star']}")
    for pair in ("stable", "private"):
        ext = result["crossovers"][pair]["extrapolated"]
        if ext is not None:
            where = ("at every level" if ext["paper_fewer_at_every_level"] else
                     f"below level {ext['level_star']} (interval {ext['level_star_interval']})")
            print(f"{pair}: fitted, the paper's predictor needs fewer examples {where}; "
                  f"alpha* {ext['alpha_star']}")
    print(f"experiments: {len(result['rows'])} grid points in {seconds:.1f}s")
    return 0
