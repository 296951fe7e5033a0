"""``privref table4``: the command line of paper 001's Table 4 experiment on real data.

Every flag is checked (:func:`config_from_args`) before any data are read; :func:`run` runs
:func:`privref.app.experiments.pate.run_experiment` and writes the JSON (with :data:`NOTES`),
the figure (:mod:`privref.app.reports.pate_plot`) and the docs page
(:mod:`privref.app.reports.pate_text`) it is asked for, then prints the summary.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, cast

from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.validate import to_fraction

from ..reports.output import check_output_path, write_json, write_text_atomic
from .progress import bounded_int, require_matplotlib, run_versions, stderr_lines

if TYPE_CHECKING:
    from ..experiments.pate import ExperimentConfig

# The experiment modules import the realdata extra (scipy, scikit-learn, threadpoolctl): they
# are imported when the command runs, so that ``privref table4 --help`` lists every option
# without the extra.

__all__ = ["MAX_C0", "MAX_C0_SWEEP", "MAX_EPSILON", "MAX_RUNS", "NOTES", "QUICK_ROWS", "QUICK_RUNS",
           "REALDATA_NOTE", "config_from_args", "configure_parser", "run"]

MAX_RUNS: Final = 1000
"""Largest ``--runs``."""

MAX_EPSILON: Final = Fraction(100)
"""Largest ε accepted in ``--epsilons``."""

QUICK_RUNS: Final = 2
"""``--quick``'s default ``--runs``."""

QUICK_ROWS: Final = 4000
"""``--quick``'s default ``--subsample`` (rows per data set)."""


REALDATA_NOTE: Final = ("Running it needs the realdata extra (scipy, scikit-learn, threadpoolctl,\n"
                        "matplotlib): pip install 'privref[realdata]'.")
"""The line ``privref table4 --help`` adds to the description, extra installed or not."""

_HELP_DATASETS: Final = ("a9a", "mushroom")
_HELP_ACTIVE_RULE: Final = "iwal"
_HELP_AGNOSTIC_C0: Final = 8.0
_HELP_IWAL_C0: Final = 1e-5
MAX_C0_SWEEP: Final = 10
"""Most values in ``--c0-sweep``."""
# what --help shows when the extra is missing; tests/app/test_table4_help.py checks that these
# equal KNOWN_DATASETS, DEFAULT_ACTIVE_RULE and AGNOSTIC_C0 (and IWAL_C0)


def _missing_realdata() -> str | None:
    """The module of the realdata extra that cannot be imported, or None when all can."""
    try:
        from ..experiments import pate  # noqa: F401  (scipy, scikit-learn, threadpoolctl)
        from ..reports import pate_plot  # noqa: F401
    except ImportError as exc:
        return exc.name or str(exc)
    return None


def _require_realdata() -> None:
    """PrivrefError naming the realdata extra when it is not installed (usage error, exit 2)."""
    missing = _missing_realdata()
    if missing is not None:
        raise PrivrefError(f"the 'realdata' extra is not installed (missing module {missing!r}): "
                           "pip install 'privref[realdata]'")


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``table4`` arguments (every one checked by :func:`config_from_args`); they are
    declared, and listed by ``--help``, whether or not the realdata extra is installed."""
    missing = _missing_realdata()
    if missing is None:
        from ..experiments.datasets import KNOWN_DATASETS
        from ..experiments.pate import DEFAULT_ACTIVE_RULE
        from ..experiments.pate_students_active import IWAL_C0
        from ..experiments.pate_students_sklearn import AGNOSTIC_C0
        known: tuple[str, ...] = tuple(sorted(KNOWN_DATASETS))
        default_rule: str = DEFAULT_ACTIVE_RULE
        c0: float = AGNOSTIC_C0
        iwal_c0: float = IWAL_C0
    else:
        known, default_rule, c0 = _HELP_DATASETS, _HELP_ACTIVE_RULE, _HELP_AGNOSTIC_C0
        iwal_c0 = _HELP_IWAL_C0
    note = REALDATA_NOTE if missing is None else \
        f"{REALDATA_NOTE}\nIt is not installed here (missing module {missing!r})."
    parser.description = f"{parser.description or ''}\n\n{note}".lstrip()
    parser.add_argument("--runs", default=None, help=f"runs per data set, in [1, {MAX_RUNS}] "
                                                     "(default 30, as 001 Table 4)")
    parser.add_argument("--quick", action="store_true",
                        help=f"a coarse figure in well under a minute: --runs {QUICK_RUNS} and "
                             f"--subsample {QUICK_ROWS} unless given")
    parser.add_argument("--seed", default="0", help="master seed in [0, 2^64) (default 0)")
    parser.add_argument("--datasets", default="mushroom,a9a",
                        help="comma-separated known data sets among "
                             f"{', '.join(known)}, or '' for none "
                             "(default mushroom,a9a)")
    parser.add_argument("--libsvm", action="append", default=[], metavar="FILE",
                        help="also run on this LIBSVM file (labels -1/+1 or 0/1); repeatable")
    parser.add_argument("--data-dir", default=None, metavar="DIR",
                        help="folder holding the known data sets' files (default: the "
                             "shared/data folder next to the checkout); nothing is downloaded")
    parser.add_argument("--epsilons", default="1/2,1,2",
                        help=f"comma-separated budgets, rationals in (0, {MAX_EPSILON}] "
                             "(default 1/2,1,2)")
    parser.add_argument("--noise", default="continuous", choices=("continuous", "discrete"),
                        help="continuous: N(0, sigma^2), sigma analytic-Gaussian calibrated "
                             "(the paper's); discrete: discrete Gaussian with 001 Algorithm 1 "
                             "Step 1's sigma^2 (zCDP accounting)")
    parser.add_argument("--teachers", default=None,
                        help="number of teachers K (default round(private/100))")
    parser.add_argument("--budget", default=None,
                        help="ASQ query budget (default round(3 public/10))")
    parser.add_argument("--delta", default=None, help="delta in (0, 1) (default 1/private)")
    parser.add_argument("--subsample", default=None,
                        help="use a seeded random subsample of this many rows of each data "
                             "set, in [50, 10^6] (default: all rows)")
    parser.add_argument("--active-rule", default=default_rule, metavar="RULE",
                        help="ASQ's student: iwal (IWAL-CAL with a logistic ERM oracle, "
                             "Beygelzimer et al. 2010 Algorithm 1; default), or the older "
                             f"rules agnostic (DHM-style, C0 = {c0:g}) or cal (slack 0)")
    parser.add_argument("--c0", default=None,
                        help=f"IWAL's constant C0, a number in (0, 100] (default {iwal_c0:g}, "
                             "fixed by the rule in docs/pate-experiments.md)")
    parser.add_argument("--iwal-gap", default="logistic", choices=("logistic", "01"),
                        help="IWAL's error gap: logistic (importance-weighted logistic loss; "
                             "default) or 01 (importance-weighted 0/1 error)")
    parser.add_argument("--c0-sweep", default=None, metavar="LIST",
                        help="comma-separated C0 values in (0, 100] (at most "
                             f"{MAX_C0_SWEEP}): adds IWAL rows (ASQ-NP and ASQ at one epsilon) "
                             "for each, on the first --sweep-runs runs")
    parser.add_argument("--sweep-runs", default=None,
                        help="runs of the C0 sweep, in [1, --runs] (default min(10, --runs))")
    parser.add_argument("--compare-json", default=None, metavar="FILE",
                        help="a table4 JSON run with the other --active-rule: the docs page "
                             "gets a table comparing its ASQ rows with this run's")
    parser.add_argument("--jobs", default="1", help="worker processes for the runs, in [1, 8] "
                                                   "(default 1; figures do not depend on it)")
    parser.add_argument("--json", default=None, metavar="FILE", help="write the JSON here")
    parser.add_argument("--png", default=None, metavar="FILE", help="write the figure here")
    parser.add_argument("--markdown", default=None, metavar="FILE",
                        help="write the docs page (paper beside ours) here")



def _rational(text: str, flag: str) -> Fraction:
    try:
        return to_fraction(text.strip(), flag)
    except PrivrefError as exc:
        raise InvalidArgument(f"{flag}={text!r} must be a rational number, e.g. 1/2 ({exc})") from None


def config_from_args(args: argparse.Namespace) -> ExperimentConfig:
    """Validate the command line and build the config; InvalidArgument naming the flag.

    Checks: --runs in [1, 1000]; --seed in [0, 2^64); --datasets known names (no repeats);
    --epsilons rationals in (0, 100] (no repeats, at least one); --teachers >= 1; --budget
    >= 1; --delta in (0, 1); --subsample in [50, 10^6]; --jobs in [1, 8]; --active-rule iwal,
    agnostic or cal; --c0 and each --c0-sweep value in (0, 100] (at most 10 values, no repeats,
    only with iwal); --iwal-gap logistic or 01; --sweep-runs in [1, --runs]; at least one data
    set.  Sizes that depend on the data (K <= private rows,
    budget <= public rows) are checked when the data are read (:class:`Sizes`).  Without the
    realdata extra: PrivrefError naming it.
    """
    _require_realdata()
    from ..experiments.datasets import KNOWN_DATASETS, default_data_dir
    from ..experiments.pate import (
        DEFAULT_ACTIVE_RULE,
        IWAL_GAP_DEFAULT,
        STUDENT_RULES,
        ExperimentConfig,
    )
    from ..experiments.pate_students_active import IWAL_C0, IWAL_GAPS
    quick = bool(getattr(args, "quick", False))
    runs = bounded_int(args.runs, "--runs", QUICK_RUNS if quick else 30, 1, MAX_RUNS)
    seed = bounded_int(args.seed, "--seed", 0, 0, 2 ** 64 - 1)
    names = tuple(n.strip() for n in str(args.datasets).split(",") if n.strip())
    for n in names:
        if n not in KNOWN_DATASETS:
            raise InvalidArgument(f"--datasets={args.datasets!r}: {n!r} is not one of "
                                  f"{sorted(KNOWN_DATASETS)} (use --libsvm FILE for others)")
    if len(set(names)) != len(names):
        raise InvalidArgument(f"--datasets={args.datasets!r} names a data set twice")
    files = tuple(str(f) for f in (args.libsvm or []))
    for f in files:
        if not f.strip():
            raise InvalidArgument("--libsvm='' must be a file path")
    if not names and not files:
        raise InvalidArgument("--datasets='' and no --libsvm: nothing to run")
    eps = tuple(_rational(t, "--epsilons") for t in str(args.epsilons).split(","))
    for e in eps:
        if not 0 < e <= MAX_EPSILON:
            raise InvalidArgument(f"--epsilons: {e} must lie in (0, {MAX_EPSILON}]")
    if len(set(eps)) != len(eps):
        raise InvalidArgument(f"--epsilons={args.epsilons!r} repeats a value")
    delta = None if args.delta is None else _rational(str(args.delta), "--delta")
    if delta is not None and not 0 < delta < 1:
        raise InvalidArgument(f"--delta={delta} must lie in the open interval (0, 1)")
    if args.noise not in ("continuous", "discrete"):
        raise InvalidArgument(f"--noise={args.noise!r} must be continuous or discrete")
    data_dir = args.data_dir
    if data_dir is not None and not str(data_dir).strip():
        raise InvalidArgument("--data-dir='' must be a folder path")
    if data_dir is not None and names and not Path(data_dir).is_dir():
        raise InvalidArgument(f"--data-dir={data_dir!r} is not an existing folder")
    if data_dir is None and names:
        try:
            data_dir = str(default_data_dir())
        except InvalidArgument as exc:
            raise InvalidArgument(f"--data-dir: {exc}") from None
    rule = getattr(args, "active_rule", DEFAULT_ACTIVE_RULE)
    if rule not in STUDENT_RULES:
        raise InvalidArgument(f"--active-rule={rule!r} must be one of {', '.join(STUDENT_RULES)}")
    c0 = IWAL_C0 if getattr(args, "c0", None) is None else _c0(str(args.c0), "--c0")
    gap = getattr(args, "iwal_gap", IWAL_GAP_DEFAULT)
    if gap not in IWAL_GAPS:
        raise InvalidArgument(f"--iwal-gap={gap!r} must be one of {', '.join(IWAL_GAPS)}")
    sweep_text = getattr(args, "c0_sweep", None)
    sweep: tuple[float, ...] = ()
    if sweep_text is not None:
        parts = str(sweep_text).split(",")
        if len(parts) > MAX_C0_SWEEP:
            raise InvalidArgument(f"--c0-sweep has {len(parts)} values; at most {MAX_C0_SWEEP}")
        sweep = tuple(_c0(t, "--c0-sweep") for t in parts)
        if len(set(sweep)) != len(sweep):
            raise InvalidArgument(f"--c0-sweep={sweep_text!r} repeats a value")
        if rule != "iwal":
            raise InvalidArgument("--c0-sweep needs --active-rule iwal")
    assert runs is not None and seed is not None
    sweep_runs = bounded_int(getattr(args, "sweep_runs", None), "--sweep-runs", min(10, runs), 1, runs)
    assert sweep_runs is not None
    return ExperimentConfig(names, files, data_dir, runs, seed, eps, args.noise,
                            bounded_int(args.teachers, "--teachers", None, 1, 10 ** 6),
                            bounded_int(args.budget, "--budget", None, 1, 10 ** 6), delta,
                            bounded_int(args.subsample, "--subsample",
                                        QUICK_ROWS if quick else None, 50, 10 ** 6),
                            rule, c0, gap, sweep, sweep_runs)


MAX_C0: Final = 100
"""Largest C0 accepted by ``--c0`` and ``--c0-sweep``."""


def _c0(text: str, flag: str) -> float:
    """A C0 value: a decimal or rational number in (0, 100], as a float; InvalidArgument naming flag."""
    raw = text.strip()
    if not raw or len(raw) > 40:
        raise InvalidArgument(f"{flag}={text!r} must be a number in (0, {MAX_C0}]")
    try:
        value = Fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise InvalidArgument(f"{flag}={text!r} must be a number in (0, {MAX_C0}], e.g. 1e-5") from None
    if not 0 < value <= MAX_C0:
        raise InvalidArgument(f"{flag}={text!r} must be a number in (0, {MAX_C0}]")
    out = float(value)
    if out <= 0:
        raise InvalidArgument(f"{flag}={text!r} is below the smallest positive float")
    return out


def _read_compare(path: str | None, rule: str) -> dict[str, Any] | None:
    """The ``--compare-json`` payload (a table4 JSON of the other active rule), or None."""
    if path is None:
        return None
    import json

    from ..reports.pate_text import rule_of
    try:
        other = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InvalidArgument(f"--compare-json={path!r} cannot be read as JSON ({exc})") from None
    if not isinstance(other, dict) or other.get("command") != "privref table4" or \
            not isinstance(other.get("datasets"), list):
        raise InvalidArgument(f"--compare-json={path!r} is not a privref table4 JSON")
    if rule_of(other) == rule:
        raise InvalidArgument(f"--compare-json={path!r} was run with the same --active-rule "
                              f"{rule}; pass the other rule's JSON")
    return cast(dict[str, Any], other)




NOTES: Final = {
    "accuracy_ci95": "half-width 1.96*s/sqrt(runs), s the sample standard deviation (ddof 1) of "
                     "the per-run test accuracies: a normal-approximation 95% interval for the "
                     "expected accuracy (None for one run)",
    "queries_ci95": "the same for the number of labels the method released",
    "epsilon_ex_post": "ASQ: the epsilon at delta of the noise actually used after the realized "
                       "number of queries R (exact enclosure); it depends on the released labels, "
                       "so it is a data-dependent figure, NOT the a-priori privacy guarantee, which "
                       "is the budget epsilon.  PSQ always releases #public labels, so its "
                       "epsilon_ex_post is epsilon's enclosure at the calibrated sigma",
    "sigma": "continuous noise: sigma = the safe end sigma_hi of the analytic-Gaussian calibration "
             "bracket (sigma_lo, sigma_hi] for q queries (Balle-Wang 2018 Theorem 8), q = #public "
             "(PSQ) or the budget (ASQ); discrete: sigma^2 = 001 Algorithm 1 Step 1's sigma^2 "
             "rounded up to an integer (zCDP, 001 Lemma 51)",
    "split": "test_all = ceil(N/5), private = N - test_all, public = ceil(test_all/10), "
             "test = test_all - public (001 Table 3's sizes); K = round(private/100); "
             "budget = round(3 public/10); delta = 1/private",
    "seeds": "numpy SeedSequence(seed, spawn_key=(crc32(dataset), run, purpose, ...)): purpose "
             "0 split, 1 teacher-assignment key, 2 student seed, 3 label noise (with method and "
             "epsilon), 4 subsample",
}
"""What the JSON's figures are (copied into every JSON file)."""


def _c0_rule(config: ExperimentConfig) -> str | None:
    """How the run's C0 was fixed: the documented rule for the default, 'given' otherwise."""
    from ..experiments.pate_students_active import IWAL_C0, IWAL_C0_RULE
    if config.active_rule != "iwal":
        return None
    return IWAL_C0_RULE if config.c0 == IWAL_C0 else "given on the command line (--c0)"


def run(args: argparse.Namespace) -> int:
    """Run ``privref table4``; 0 on success.  Every flag is checked before the run."""
    config = config_from_args(args)  # first: PrivrefError when the realdata extra is missing
    from ..experiments.pate import run_experiment
    from ..reports.pate_plot import plot
    from ..reports.pate_text import markdown, summary
    jobs = bounded_int(args.jobs, "--jobs", 1, 1, 8)
    other = _read_compare(getattr(args, "compare_json", None), config.active_rule)
    outputs = {flag: check_output_path(flag, value) for flag, value in
               (("--json", args.json), ("--png", args.png), ("--markdown", args.markdown))
               if value is not None}
    if "--png" in outputs:
        require_matplotlib("privref table4 --png")
    progress = stderr_lines(args)

    start = time.perf_counter()
    result = run_experiment(config, progress, jobs or 1)
    seconds = time.perf_counter() - start
    payload = {"command": "privref table4",
               "versions": run_versions("scipy", "sklearn", "matplotlib"), "seed": config.seed,
               "seconds": round(seconds, 2),
               "parameters": {"runs": config.runs, "epsilons": [str(e) for e in config.epsilons],
                              "noise": config.noise, "datasets": list(config.datasets),
                              # file and folder names only: a generated report records no
                              # machine path (the files are identified by their sha256)
                              "libsvm": [Path(f).name for f in config.files],
                              "data_dir": None if config.data_dir is None
                              else Path(config.data_dir).name,
                              "teachers": config.teachers, "budget": config.budget,
                              "delta": None if config.delta is None else str(config.delta),
                              "subsample": config.subsample,
                              "active_rule": config.active_rule,
                              "c0": config.c0, "c0_rule": _c0_rule(config),
                              "iwal_gap": config.iwal_gap,
                              "c0_sweep": list(config.c0_sweep),
                              "sweep_runs": config.sweep_runs if config.c0_sweep else None,
                              "sweep_epsilon": str(config.sweep_epsilon),
                              "compare_json": getattr(args, "compare_json", None)},
               "notes": dict(NOTES), **result}
    if "--json" in outputs:
        write_json(outputs["--json"], payload, flag="--json", inline_lists=True)
        print(f"wrote {outputs['--json']}")
    if "--png" in outputs:
        plot(payload, outputs["--png"])
        print(f"wrote {outputs['--png']}")
    if "--markdown" in outputs:
        write_text_atomic(outputs["--markdown"], markdown(payload, other), flag="--markdown")
        print(f"wrote {outputs['--markdown']}")
    if not getattr(args, "quiet", False):
        print(summary(payload))
    print(f"table4: {len(result['datasets'])} data set(s), {config.runs} run(s) in {seconds:.1f}s")
    return 0
