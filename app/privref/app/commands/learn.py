"""``privref learn``: run the learning-curve experiment, write a JSON table and a PNG plot.

The experiment is :mod:`privref.app.experiments.learning`, the plot
:func:`privref.app.reports.learning_plot.plot_png`.  The integer and exact-number flag parsers
here (:data:`LIMITS`) also serve ``privref illustrate``.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import Any

from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.validate import to_fraction

from ..experiments.learning import (
    FAMILIES,
    LEARNERS,
    Cell,
    ExperimentConfig,
    TheoremCell,
    TheoremConfig,
    grid_size,
    run_experiment,
    run_theorems,
    sample_complexity,
)
from ..reports.learning_plot import plot_png, plot_theorems_png
from ..reports.output import check_output_path, write_json
from .progress import require_matplotlib

__all__ = ["LIMITS", "configure_parser", "parse_exact", "parse_int", "parse_ints", "run"]

QUICK = {"dims": (2, 3), "labeled_sizes": (4, 16, 64), "unlabeled_sizes": (16,), "runs": 20}
DEFAULTS = {"dims": "2,3,4,5", "labeled": "2,4,8,16,32,64,128", "unlabeled": "64",
            "runs": "100"}
_GRID_FLAGS = {"dims": "--dims", "labeled": "--labeled", "unlabeled": "--unlabeled",
               "runs": "--runs"}
THEOREM_DEFAULTS = {"dims": "2,4,6", "labeled": "128,256,512,1024", "runs": "20"}
THEOREM_PAL_SIZES = (256, 1024)
"""Labeled sizes at which ``--theorems`` runs the PAL (those in --labeled; else the largest)."""
"""Defaults of ``--theorems`` (about 15 minutes on the 2-core development machine)."""
THEOREM_MAX_DIM = 8
"""Largest --dims value with --theorems (the SubSampling pool grows like n(d)·e^(2ε*)/ε)."""

LIMITS: dict[str, tuple[int, int]] = {
    "--dims": (1, 16), "--labeled": (1, 100_000), "--unlabeled": (0, 100_000),
    "--runs": (1, 100_000), "--seed": (0, 2**64 - 1),
}
"""Inclusive bounds of the integer flags of ``learn`` and ``illustrate`` (the whole grid is
also bounded by :data:`privref.app.experiments.learning.MAX_WORK`)."""

MAX_EPSILON = Fraction(1000)
"""Largest --epsilon accepted (every learner is already near-deterministic long before)."""

MAX_VALUES = 64
"""Most values a comma-separated list flag (--dims, --labeled, --unlabeled) may hold."""


def parse_int(text: str, flag: str) -> int:
    """One int flag within :data:`LIMITS`; InvalidArgument naming the flag and the limit."""
    low, high = LIMITS[flag]
    raw = text.strip()
    if not raw.lstrip("+-").isdigit() or len(raw) > 30:
        raise InvalidArgument(f"{flag}={text!r} must be an int in [{low}, {high}]")
    value = int(raw)
    if not low <= value <= high:
        raise InvalidArgument(f"{flag}={value} must be an int in [{low}, {high}]")
    return value


def parse_ints(text: str, flag: str) -> tuple[int, ...]:
    """A comma-separated list of ints, each within :data:`LIMITS` (at most MAX_VALUES)."""
    parts = text.split(",")
    if len(parts) > MAX_VALUES:
        raise InvalidArgument(f"{flag} holds {len(parts)} values, more than {MAX_VALUES}")
    low, high = LIMITS[flag]
    values = []
    for part in parts:
        try:
            values.append(parse_int(part, flag))
        except InvalidArgument:
            raise InvalidArgument(f"{flag}={text!r} must be a comma-separated list of ints in "
                                  f"[{low}, {high}]") from None
    return tuple(values)


def parse_exact(text: str, flag: str, *, low: Fraction, high: Fraction,
                open_high: bool = True) -> Fraction:
    """An exact number strictly above ``low`` and below ``high`` (or at most, ``open_high``
    false); InvalidArgument naming the flag."""
    try:
        value = to_fraction(text, flag)
    except PrivrefError:
        raise InvalidArgument(f"{flag}={text!r} is not an exact number (e.g. '1/4' or "
                              "'0.25')") from None
    above = value < high if open_high else value <= high
    if not (low < value and above):
        shown = text if len(text) <= 30 else text[:27] + "..."
        bracket = ")" if open_high else "]"
        raise InvalidArgument(f"{flag}={shown} must lie in ({low}, {high}{bracket}")
    return value


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``learn`` arguments to ``parser``."""
    parser.add_argument("--learners", default=None,
                        help=f"comma-separated learner keys (default: all; known: {', '.join(LEARNERS)})")
    parser.add_argument("--families", default=None,
                        help=f"comma-separated concept families ({', '.join(FAMILIES)}; default "
                             "thresholds,intervals)")
    parser.add_argument("--dims", default=None,
                        help=f"values of d (domain size 2^d), each in {list(LIMITS['--dims'])} "
                             f"(default {DEFAULTS['dims']})")
    parser.add_argument("--labeled", default=None,
                        help=f"labeled sizes m to try (default {DEFAULTS['labeled']})")
    parser.add_argument("--unlabeled", default=None,
                        help=f"unlabeled sizes n to try (default {DEFAULTS['unlabeled']})")
    parser.add_argument("--alpha", default="1/4", help="accuracy α in (0, 1), exact (default 1/4)")
    parser.add_argument("--beta", default="1/4",
                        help="failure probability β in (0, 1), exact (default 1/4)")
    parser.add_argument("--epsilon", default="1",
                        help=f"the PROVED privacy ε every learner carries, in (0, {MAX_EPSILON}], "
                             "exact (default 1): each learner runs at the base ε' that makes its "
                             "claim equal it (LabelBoost: ε' = ε − 3, skipped when ε <= 3); with "
                             "--theorems, the Theorem 5.7 PAL's target, in (0, 1]")
    parser.add_argument("--theorems", action="store_true",
                        help="run the theorems' learners instead of the grid: IterLabelBoost "
                             "(004 Theorem C.11) and the SubSampling PAL of 004 Theorem 5.7, with "
                             "KLNRS at each one's proved ε, on thresholds (scaled constants; "
                             f"defaults --dims {THEOREM_DEFAULTS['dims']} (each <= "
                             f"{THEOREM_MAX_DIM}), --labeled {THEOREM_DEFAULTS['labeled']}, --runs "
                             f"{THEOREM_DEFAULTS['runs']}); not with --quick, --learners, "
                             "--families or --unlabeled")
    parser.add_argument("--runs", default=None,
                        help=f"repetitions per grid cell, at most {LIMITS['--runs'][1]} "
                             f"(default {DEFAULTS['runs']})")
    parser.add_argument("--seed", default="0", help="master seed in [0, 2^64) (default 0)")
    parser.add_argument("--quick", action="store_true",
                        help="a small grid (d in 2,3; m in 4,16,64; n = 16; 20 runs) for smoke "
                             "tests; it sets --dims, --labeled, --unlabeled and --runs, so it "
                             "cannot be combined with them")
    parser.add_argument("--json", metavar="PATH", default=None,
                        help="write the JSON table to PATH (default: nothing is written)")
    parser.add_argument("--png", metavar="PATH", default=None,
                        help="write the PNG plot to PATH (default: nothing is written)")


def _names(text: str, flag: str, known: dict[str, Any]) -> tuple[str, ...]:
    names = tuple(k.strip() for k in text.split(",") if k.strip())
    if not names:
        raise InvalidArgument(f"{flag}={text!r} must name at least one of {', '.join(known)}")
    for name in names:
        if name not in known:
            raise InvalidArgument(f"{flag}: {name!r} is unknown; known: {', '.join(known)}")
    return names


def _config(args: argparse.Namespace) -> ExperimentConfig:
    if args.quick:
        given = [flag for key, flag in _GRID_FLAGS.items() if getattr(args, key) is not None]
        if given:
            raise InvalidArgument(f"--quick sets --dims, --labeled, --unlabeled and --runs; drop "
                                  f"--quick or {', '.join(given)}")
    grid = {key: DEFAULTS[key] if getattr(args, key) is None else getattr(args, key)
            for key in _GRID_FLAGS}
    kwargs: dict[str, Any] = {
        "learners": _names(",".join(LEARNERS) if args.learners is None else args.learners,
                           "--learners", LEARNERS),
        "families": _names("thresholds,intervals" if args.families is None else args.families,
                           "--families", FAMILIES),
        "dims": parse_ints(grid["dims"], "--dims"),
        "labeled_sizes": parse_ints(grid["labeled"], "--labeled"),
        "unlabeled_sizes": parse_ints(grid["unlabeled"], "--unlabeled"),
        "alpha": parse_exact(args.alpha, "--alpha", low=Fraction(0), high=Fraction(1)),
        "beta": parse_exact(args.beta, "--beta", low=Fraction(0), high=Fraction(1)),
        "epsilon": parse_exact(args.epsilon, "--epsilon", low=Fraction(0), high=MAX_EPSILON,
                               open_high=False),
        "runs": parse_int(grid["runs"], "--runs"), "seed": parse_int(args.seed, "--seed")}
    if args.quick:
        kwargs.update(QUICK)
    try:
        return ExperimentConfig(**kwargs)
    except InvalidArgument as exc:
        raise InvalidArgument(f"{exc} (--runs, --dims, --labeled, --unlabeled)") from None


def _theorem_config(args: argparse.Namespace) -> TheoremConfig:
    """The ``--theorems`` configuration; every flag checked (InvalidArgument naming it)."""
    clash = [flag for flag, value in (("--quick", args.quick or None),
                                      ("--learners", args.learners),
                                      ("--families", args.families),
                                      ("--unlabeled", args.unlabeled)) if value is not None]
    if clash:
        raise InvalidArgument(f"--theorems runs fixed learners on thresholds with the schedule's "
                              f"unlabeled sizes; drop {', '.join(clash)}")
    dims = parse_ints(args.dims or THEOREM_DEFAULTS["dims"], "--dims")
    for d in dims:
        if d > THEOREM_MAX_DIM:
            raise InvalidArgument(f"--dims={d} must be an int in [1, {THEOREM_MAX_DIM}] with "
                                  "--theorems")
    labeled = parse_ints(args.labeled or THEOREM_DEFAULTS["labeled"], "--labeled")
    for m in labeled:
        if m > 4096:
            raise InvalidArgument(f"--labeled={m} must be an int in [1, 4096] with --theorems")
    runs = parse_int(args.runs or THEOREM_DEFAULTS["runs"], "--runs")
    if runs > 10_000:
        raise InvalidArgument(f"--runs={runs} must be an int in [1, 10000] with --theorems")
    try:
        return TheoremConfig(
            dims=dims, labeled_sizes=labeled, runs=runs,
            pal_sizes=tuple(m for m in THEOREM_PAL_SIZES if m in labeled) or (max(labeled),),
            alpha=parse_exact(args.alpha, "--alpha", low=Fraction(0), high=Fraction(1)),
            beta=parse_exact(args.beta, "--beta", low=Fraction(0), high=Fraction(1)),
            epsilon=parse_exact(args.epsilon, "--epsilon", low=Fraction(0), high=Fraction(1),
                                open_high=False),
            seed=parse_int(args.seed, "--seed"))
    except InvalidArgument as exc:
        raise InvalidArgument(f"{exc} (--dims, --epsilon)") from None


def _run_theorems(args: argparse.Namespace) -> int:
    config = _theorem_config(args)
    for flag, path in (("--json", args.json), ("--png", args.png)):
        if path is not None:
            check_output_path(flag, path)
    if args.png is not None:
        _need_matplotlib()

    def show(c: TheoremCell) -> None:
        if not getattr(args, "quiet", False):
            print(f"{c.learner:21s} d={c.d} n(d)={c.base_n} m={c.labeled:<4d} unlabeled="
                  f"{c.unlabeled:<8d} eps={c.claimed_epsilon_float:.4f} failures "
                  f"{c.failures}/{c.runs} CP [{float(c.failure_low):.3f}, "
                  f"{float(c.failure_high):.3f}] {c.seconds:.1f}s", file=sys.stderr, flush=True)

    result = run_theorems(config, progress=show)
    for row in result.summary():
        print(f"{row['learner']:21s} d={row['d']} proved eps={row['claimed_epsilon_float']:.4f} "
              f"delta={row['claimed_delta']}: m* = {row['m_star']}, unlabeled = "
              f"{row['unlabeled_at_m_star']}")
    if args.json is not None:
        write_json(args.json, result.to_json(), flag="--json")
        print(f"wrote {args.json}")
    if args.png is not None:
        plot_theorems_png(result, args.png)
        print(f"wrote {args.png}")
    return 0


def _need_matplotlib() -> None:
    require_matplotlib("privref learn --png")


def run(args: argparse.Namespace) -> int:
    """Run ``privref learn``; 0 on success.

    Prints the empirical sample complexities; writes the JSON table and the PNG plot only to
    the paths given by ``--json`` / ``--png`` (checked before the run).
    """
    if getattr(args, "theorems", False):
        return _run_theorems(args)
    config = _config(args)
    for flag, path in (("--json", args.json), ("--png", args.png)):
        if path is not None:
            check_output_path(flag, path)
    if args.png is not None:
        _need_matplotlib()
    total = grid_size(config)
    done = [0]

    def show(c: Cell) -> None:
        done[0] += 1
        if getattr(args, "quiet", False):
            return
        print(f"[{done[0]}/{total}] {c.learner:10s} {c.family:11s} d={c.d} m={c.labeled:<5d} "
              f"n={c.unlabeled:<6d} "
              f"failures {c.failures}/{c.runs}  CP [{float(c.failure_low):.3f}, "
              f"{float(c.failure_high):.3f}]  mean error {float(c.mean_error):.3f}  "
              f"{c.seconds:.1f}s", file=sys.stderr, flush=True)

    result = run_experiment(config, progress=show)
    for line in result.skipped:
        print(f"skipped: {line}")
    for (learner, family, d, vc), (m_star, n_star) in sample_complexity(result).items():
        print(f"{learner:10s} {family:11s} d={d} VC={vc} proved eps={config.epsilon}: "
              f"m* = {m_star}, n* = {n_star}")
    if args.json is not None:
        write_json(args.json, result.to_json(), flag="--json")
        print(f"wrote {args.json}")
    if args.png is not None:
        plot_png(result, args.png)
        print(f"wrote {args.png}")
    return 0
