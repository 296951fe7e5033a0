"""``privref pate-theory {rates,margins}``: paper 001's theory measured (docs/pate-theory.md).

``rates``: 001 Theorems 10, 22 and 28 on exact finite populations
(:mod:`privref.app.experiments.pate_rates`); ``margins``: 001 Appendix E's margin experiment on
a9a (:mod:`privref.app.experiments.pate_margins`, needs the realdata extra).  Every flag is checked
(:func:`check_args`) before any run; the run writes pate-theory-WHICH.json and .png into
``--out`` and, with ``--markdown``, the docs page built from every pate-theory JSON in ``--out``
(:mod:`privref.app.reports.pate_theory_plot`).
"""

from __future__ import annotations

import argparse
import json
import shlex
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.validate import to_fraction

from ..reports.output import check_output_path, write_json, write_text_atomic
from .progress import bounded_int, require_matplotlib, run_versions, stderr_lines

__all__ = ["MAX_EPSILON", "MAX_QUERIES", "MAX_RUNS", "MAX_TEACHERS", "Checked", "check_args",
           "configure_parser", "run"]

MAX_RUNS: Final = 100
"""Largest --runs (rates: Monte Carlo runs per grid point; margins: seeded splits)."""

MAX_EPSILON: Final = Fraction(8)
"""Largest --epsilon of ``rates``."""

MAX_TEACHERS: Final = 2000
"""Largest --teachers of ``margins``."""

MAX_QUERIES: Final = 6000
"""Largest --queries of ``margins`` (a9a leaves 6,513 non-private rows)."""


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``pate-theory`` arguments (checked by :func:`check_args`)."""
    parser.add_argument("which", choices=("rates", "margins"),
                        help="rates: 001 Theorems 10/22/28 on finite populations; margins: 001 "
                             "Appendix E on a9a (realdata extra)")
    parser.add_argument("--out", metavar="DIR", required=True,
                        help="existing folder for pate-theory-WHICH.json and .png")
    parser.add_argument("--markdown", metavar="FILE", default=None,
                        help="also write the docs page from the pate-theory JSON files in --out")
    parser.add_argument("--quick", action="store_true",
                        help="a coarse instance (< 1 min): rates on two threshold populations "
                             "of 256 points, 3 sizes, 2 runs; margins with 50 teachers and "
                             "500 queries")
    parser.add_argument("--runs", default=None,
                        help=f"rates: runs per grid point, in [1, {MAX_RUNS}] (default 6); "
                             f"margins: seeded splits, in [1, 10] (default 1)")
    parser.add_argument("--seed", default="0", help="master seed in [0, 2^64) (default 0)")
    parser.add_argument("--epsilon", default="1",
                        help=f"rates: epsilon, a rational in (0, {MAX_EPSILON}] (default 1)")
    parser.add_argument("--teachers", default=None,
                        help=f"margins: number of teachers, in [3, {MAX_TEACHERS}] (default 250, "
                             "001 Appendix E)")
    parser.add_argument("--queries", default=None,
                        help=f"margins: public queries, in [10, {MAX_QUERIES}] (default 2000, "
                             "001 Appendix E)")
    parser.add_argument("--data-dir", default=None, metavar="DIR",
                        help="margins: folder holding a9a (default: the shared/data folder next "
                             "to the checkout); nothing is downloaded")



@dataclass(frozen=True)
class Checked:
    """The validated command line."""

    which: str
    out: Path
    json_path: Path
    png_path: Path
    markdown: Path | None
    quick: bool
    runs: int
    seed: int
    epsilon: Fraction
    teachers: int
    queries: int
    data_dir: str | None


def check_args(args: argparse.Namespace) -> Checked:
    """Validate every flag (InvalidArgument naming it, exit 2) before any work.

    --out an existing writable folder; --markdown a writable file path; --runs in [1, 100]
    (rates) or [1, 10] (margins), not with --quick; --seed in [0, 2^64); --epsilon a rational
    in (0, 8] (rates only); --teachers in [3, 2000] and --queries in [10, 6000] (margins only,
    not with --quick); --data-dir an existing folder (margins only); margins without the
    realdata extra: PrivrefError naming it.
    """
    which = args.which
    if which not in ("rates", "margins"):
        raise InvalidArgument(f"WHICH={which!r} must be rates or margins")
    if not str(args.out).strip():
        raise InvalidArgument(f"--out={args.out!r} must be a folder path, not empty")
    out = Path(args.out)
    if not out.is_dir():
        raise InvalidArgument(f"--out {args.out}: is not an existing folder")
    json_path = check_output_path("--out", out / f"pate-theory-{which}.json")
    png_path = check_output_path("--out", out / f"pate-theory-{which}.png")
    markdown = None if args.markdown is None else check_output_path("--markdown", args.markdown)
    if args.quick and args.runs is not None:
        raise InvalidArgument("--quick fixes --runs; drop --quick or --runs")
    high = MAX_RUNS if which == "rates" else 10
    runs = bounded_int(args.runs, "--runs", 6 if which == "rates" else 1, 1, high)
    if args.quick:
        runs = 2 if which == "rates" else 1
    seed = bounded_int(args.seed, "--seed", 0, 0, 2 ** 64 - 1)
    try:
        epsilon = to_fraction(str(args.epsilon).strip(), "--epsilon")
    except PrivrefError as exc:
        raise InvalidArgument(f"--epsilon={args.epsilon!r} must be a rational number, e.g. 1 "
                              f"or 1/2 ({exc})") from None
    if not 0 < epsilon <= MAX_EPSILON or epsilon.denominator > 10 ** 6:
        raise InvalidArgument(f"--epsilon={epsilon} must lie in (0, {MAX_EPSILON}] with a "
                              "denominator of at most 10^6")
    if which == "rates":
        for flag, value in (("--teachers", args.teachers), ("--queries", args.queries),
                            ("--data-dir", args.data_dir)):
            if value is not None:
                raise InvalidArgument(f"{flag} applies to margins only, not rates")
        return Checked(which, out, json_path, png_path, markdown, args.quick, runs, seed,
                       epsilon, 0, 0, None)
    if args.epsilon != "1":
        raise InvalidArgument("--epsilon applies to rates only, not margins")
    if args.quick and (args.teachers is not None or args.queries is not None):
        raise InvalidArgument("--quick fixes --teachers and --queries; drop --quick or them")
    teachers = bounded_int(args.teachers, "--teachers", 50 if args.quick else 250, 3, MAX_TEACHERS)
    queries = bounded_int(args.queries, "--queries", 500 if args.quick else 2000, 10, MAX_QUERIES)
    data_dir = args.data_dir
    if data_dir is not None:
        if not str(data_dir).strip():
            raise InvalidArgument("--data-dir='' must be a folder path")
        if not Path(data_dir).is_dir():
            raise InvalidArgument(f"--data-dir={data_dir!r} is not an existing folder")
    try:
        from ..experiments import pate_margins  # noqa: F401  (scipy, scikit-learn)
    except ImportError as exc:
        raise PrivrefError(f"the 'realdata' extra is not installed (missing module "
                           f"{exc.name or str(exc)!r}): pip install 'privref[realdata]'") from None
    if data_dir is None:
        from ..experiments.datasets import default_data_dir
        try:
            data_dir = str(default_data_dir())
        except InvalidArgument as exc:
            raise InvalidArgument(f"--data-dir: {exc}") from None
    return Checked(which, out, json_path, png_path, markdown, args.quick, runs, seed,
                   Fraction(1), teachers, queries, data_dir)




def _command_line(checked: Checked, args: argparse.Namespace) -> str:
    """The command line as run, rebuilt from the checked flags; paths reduced to file names
    (a generated file records no machine path)."""
    parts = ["privref", "pate-theory", checked.which]
    if checked.quick:
        parts.append("--quick")
    elif args.runs is not None:
        parts += ["--runs", str(checked.runs)]
    if args.seed not in (None, "0"):
        parts += ["--seed", str(checked.seed)]
    if checked.which == "rates" and checked.epsilon != 1:
        parts += ["--epsilon", str(checked.epsilon)]
    if checked.which == "margins":
        for flag, given, value in (("--teachers", args.teachers, checked.teachers),
                                   ("--queries", args.queries, checked.queries)):
            if given is not None:
                parts += [flag, str(value)]
        if args.data_dir is not None:
            parts += ["--data-dir", Path(args.data_dir).name]
    parts += ["--out", checked.out.name or str(checked.out)]
    if checked.markdown is not None:
        parts += ["--markdown", checked.markdown.name]
    return " ".join(shlex.quote(p) for p in parts)


def run(args: argparse.Namespace) -> int:
    """Run ``privref pate-theory WHICH``; 0 on success.  Every flag is checked before the run."""
    checked = check_args(args)
    require_matplotlib("privref pate-theory")
    from ..reports.pate_theory_plot import markdown, plot_margins, plot_rates
    progress = stderr_lines(args)

    start = time.perf_counter()
    payload: dict[str, Any] = {"command": _command_line(checked, args),
                               "versions": run_versions("scipy", "sklearn", "matplotlib"),
                               "seed": checked.seed,
                               "quick": checked.quick}
    if checked.which == "rates":
        from ..experiments.pate_rates import run_experiment
        config = rates_config(checked)
        result = run_experiment(config, progress)
        payload["config"] = {
            "populations": ["-".join(p) for p in config.populations], "tau": str(config.tau),
            "thresholds_points": config.thresholds_points,
            "intervals_points": config.intervals_points, "n_grid": list(config.n_grid),
            "stream": config.stream, "budget": config.budget, "m_grid": list(config.m_grid),
            "n_labels": config.n_labels, "asq_streams": list(config.asq_streams),
            "label_budget": config.label_budget, "svt": config.svt, "runs": config.runs,
            "epsilon": str(config.epsilon),
            "delta": str(config.delta)}
    else:
        from ..experiments.pate_margins import run_margins
        result = run_margins(checked.data_dir or "", teachers=checked.teachers,
                             queries=checked.queries, runs=checked.runs, seed=checked.seed,
                             progress=progress)
    payload["seconds"] = round(time.perf_counter() - start, 2)
    payload.update(result)
    write_json(checked.json_path, payload, flag="--out")
    print(f"wrote {checked.json_path}")
    (plot_rates if checked.which == "rates" else plot_margins)(payload, checked.png_path)
    print(f"wrote {checked.png_path}")
    if checked.markdown is not None:
        found = {}
        for which in ("rates", "margins"):
            path = checked.out / f"pate-theory-{which}.json"
            if path.is_file():
                try:
                    found[which] = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, ValueError) as exc:
                    raise InvalidArgument(f"--out: {path.name} cannot be read ({exc})") from None
        write_text_atomic(checked.markdown, markdown(found), flag="--markdown")
        print(f"wrote {checked.markdown}")
    print(f"pate-theory {checked.which}: done in {payload['seconds']:.1f}s")
    return 0


def rates_config(checked: Checked) -> Any:
    """The rates sweep of the command line: the documented grid, or the --quick one."""
    from ..experiments.pate_rates import RatesConfig
    delta = Fraction(1, 10 ** 5)
    if checked.quick:
        return RatesConfig((("thresholds", "massart"), ("thresholds", "tnc")), Fraction(1, 2),
                           256, 32, (2 ** 12, 2 ** 14, 2 ** 16), 256, 64, (32, 128, 256),
                           2 ** 16, checked.runs, checked.seed, checked.epsilon, delta,
                           (32, 128, 512, 2048), 128)
    return RatesConfig((("thresholds", "massart"), ("thresholds", "tnc"),
                        ("intervals", "massart"), ("intervals", "tnc")), Fraction(1, 2),
                       1024, 128, (2 ** 14, 2 ** 16, 2 ** 18, 2 ** 20), 4096, 256,
                       (64, 256, 1024, 4096), 2 ** 20, checked.runs, checked.seed,
                       checked.epsilon, delta, (64, 256, 1024, 4096, 16384), 512)
