"""``privref table4``: paper 001's Table 4 accuracy experiment (PATE-PSQ and PATE-ASQ) on real data.

Paper 001 (Liu, Zhu, Chaudhuri, Wang), §5: logistic-regression teachers on the private data,
a logistic-regression student on a small public set labeled by 001 Algorithm 1 (PSQ, every
public point; 001 Algorithm 3) or by a disagreement-based active learner that asks for at most
ℓ labels (ASQ; 001 Algorithm 5), each at ε ∈ {0.5, 1, 2} and δ = 1/n_private, plus the
non-private baselines PSQ-NP and ASQ-NP (exact majority labels, ε = +∞).

Protocol of one run (the paper's, §5.1 and Table 3).  A seeded random split of the rows into
private / public / test with the sizes of 001 Table 3's rule (test_all = ⌈N/5⌉, private =
N − test_all, public = ⌈test_all/10⌉, test = test_all − public: about 80% / 2% / 18%); K =
round(private/100) teachers on a keyed per-record assignment (one record changes one teacher);
ASQ budget ℓ = round(3·public/10).  PSQ's σ is the safe end σ_hi of the analytic Gaussian
calibration (Balle-Wang 2018 Theorem 8; the paper's AutoDP) for q = #public queries, ASQ's for
q = ℓ.  The labels are drawn exactly: each noisy label is a random choice of a probabilistic
program (:mod:`privref.reference.pate_learning`) sampled by
:func:`~privref.reference.program.sample` from the run's own generator.

Figures.  Accuracy on the test split: mean ± 1.96·s/√runs, s the sample standard deviation
(ddof = 1) of the per-run accuracies: the half-width of a normal-approximation 95% interval for
the expected accuracy.  ASQ's ε_ex_post is the ε of the analytic Gaussian at the realized number
of queries R (001 §5): a data-dependent figure, never the a-priori guarantee, which is the budget
ε.  It is reported as exact enclosures per run (at σ_hi, the σ used), their endpoints' mean, and
the enclosure at the mean R.

The active student's query rule is ``--active-rule``: ``agnostic`` (the default; a DHM/IWAL-style
threshold on error rates, :func:`~privref.app.pate_students_sklearn.agnostic_threshold`) or
``cal`` (CAL's slack-0 rule); ``--compare-json`` adds the other rule's ASQ rows to the docs page.

Per-run seeds come from one ``--seed`` through :class:`numpy.random.SeedSequence` with spawn
keys (dataset name, run, purpose), so a data set's figures do not depend on which other data
sets or ε are run alongside.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import numpy as np
from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

from privref import reference
from privref.reference import pate, pate_learning
from privref.reference.accounting import algorithm1_sigma, calibrate_sigma, epsilon_ex_post
from privref.reference.citations import Uncited
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.learners.pate_teachers import assign_teachers
from privref.reference.pate import gaussian_pate_epsilon
from privref.reference.program import Program, sample
from privref.reference.reals import Interval
from privref.reference.sparse_vector import rational_scale_at_least
from privref.reference.validate import to_fraction

from .datasets import KNOWN_DATASETS, LibsvmData, default_data_dir, load_known, load_libsvm
from .output import check_output_path, write_json, write_text_atomic, write_with
from .pate_students_sklearn import (
    ACTIVE_RULES,
    AGNOSTIC_C0,
    ActiveResult,
    ActiveRule,
    LinearClassifier,
    active_logistic_program,
    fit_logistic,
    logistic_student,
    row_keys,
    teacher_votes,
    train_logistic_teachers,
)
from .table4 import ROWS, AccuracyRow, calibrated_sigma, paper_accuracy

__all__ = [
    "DEFAULT_ACTIVE_RULE",
    "DEFAULT_EPSILONS",
    "MAX_RUNS",
    "NOTES",
    "ExperimentConfig",
    "PreparedRun",
    "Sizes",
    "ci95_half_width",
    "config_from_args",
    "configure_parser",
    "load_dataset",
    "markdown",
    "prepare_run",
    "run",
    "run_dataset",
    "run_experiment",
    "sizes_for",
]

SOURCE: Final = Uncited("001 §5.1 and Table 4 (the accuracy experiment): experiment section, "
                        "not a numbered result")
"""What this module implements: 001's experiment, no numbered result."""

DEFAULT_ACTIVE_RULE: Final = "agnostic"
"""``--active-rule``'s default: the agnostic rule, chosen a priori because 001 §5 says its active
student is Yan et al. (2018)'s practical disagreement-based learner, which is built on the
agnostic (noise-tolerant, importance-weighted) learners of Dasgupta–Hsu–Monteleoni 2007 and
Beygelzimer et al. 2009/2010, not on CAL's realizable-case rule; PATE's answers are noisy."""

MAX_RUNS: Final = 1000
"""Largest ``--runs``."""

MAX_EPSILON: Final = Fraction(100)
"""Largest ε accepted in ``--epsilons``."""

DEFAULT_EPSILONS: Final = (Fraction(1, 2), Fraction(1), Fraction(2))
"""001 Table 4's privacy budgets."""

CALIBRATION_TOLERANCE: Final = Fraction(1, 1 << 24)
"""Relative width of σ's calibration bracket and of ε_ex_post's enclosures (about 6e-8)."""

NP_METHODS: Final = ("PSQ-NP", "ASQ-NP")
PRIVATE_METHODS: Final = ("PSQ", "ASQ")
_PURPOSE_SPLIT, _PURPOSE_KEY, _PURPOSE_STUDENT, _PURPOSE_NOISE, _PURPOSE_SUBSAMPLE = range(5)
_METHOD_CODE: Final = {"PSQ": 0, "ASQ": 1}
T = TypeVar("T")


# ------------------------------------------------------------------ sizes and configuration


def _round_half_up(x: Fraction) -> int:
    return math.floor(x + Fraction(1, 2))


@dataclass(frozen=True)
class Sizes:
    """The split of one data set (001 Table 3's rule): rows, private, public, test, K, budget ℓ, δ.

    Guarantee (checked at construction): private + public + test = rows; 1 <= K <= private;
    1 <= budget <= public; test >= 1; 0 < δ < 1.
    """

    rows: int
    private: int
    public: int
    test: int
    teachers: int
    budget: int
    delta: Fraction

    def __post_init__(self) -> None:
        if self.private + self.public + self.test != self.rows or min(self.public, self.test) < 1:
            raise InvalidArgument(f"rows={self.rows} are too few to split into private, public "
                                  "and test parts of at least one row each")
        if not 1 <= self.teachers <= self.private:
            raise InvalidArgument(f"--teachers={self.teachers} must lie in [1, {self.private}], "
                                  f"the number of private rows")
        if not 1 <= self.budget <= self.public:
            raise InvalidArgument(f"--budget={self.budget} must lie in [1, {self.public}], the "
                                  "number of public rows")
        if not 0 < self.delta < 1:
            raise InvalidArgument(f"--delta={self.delta} must lie in the open interval (0, 1)")


def sizes_for(rows: int, *, per_teacher: int = 100, teachers: int | None = None,
              budget: int | None = None, delta: Fraction | None = None) -> Sizes:
    """The split of 001 §5.1 / Table 3 for ``rows`` examples.

    test_all = ⌈rows/5⌉, private = rows − test_all, public = ⌈test_all/10⌉, test = test_all −
    public; K = round(private/per_teacher) (halves up) unless ``teachers`` is given; ℓ =
    round(3·public/10) unless ``budget`` is given; δ = 1/private unless given.  This rule
    reproduces every size of 001 Table 3 (mushroom 6,499 / 163 / 49 / 1,462).  InvalidArgument
    names --teachers (K < 1: too few rows for ``per_teacher`` points per teacher, or K above the
    private rows), --budget or --delta.
    """
    test_all = -(-rows // 5)
    private = rows - test_all
    public = -(-test_all // 10)
    k = _round_half_up(Fraction(private, per_teacher)) if teachers is None else teachers
    if teachers is None and k < 1:
        raise InvalidArgument(f"--teachers: rows={rows} give {private} private rows, too few for "
                              f"one teacher of about {per_teacher} points (K = round("
                              f"{private}/{per_teacher}) = 0); pass --teachers or more data")
    ell = _round_half_up(Fraction(3 * public, 10)) if budget is None else budget
    d = Fraction(1, max(private, 1)) if delta is None else delta
    return Sizes(rows, private, public, test_all - public, k, ell, d)


@dataclass(frozen=True)
class ExperimentConfig:
    """A validated ``privref table4`` configuration (see :func:`config_from_args`)."""

    datasets: tuple[str, ...]
    files: tuple[str, ...]
    data_dir: str | None
    runs: int
    seed: int
    epsilons: tuple[Fraction, ...]
    noise: str
    teachers: int | None
    budget: int | None
    delta: Fraction | None
    subsample: int | None
    active_rule: ActiveRule = "agnostic"


def ci95_half_width(values: Sequence[float]) -> float | None:
    """1.96·s/√n, s the sample standard deviation (ddof 1) of ``values``; None when n < 2.

    The half-width of the normal-approximation 95% interval for the mean (001 Table 4's caption
    says "98%" and divides a standard error by √30 again; this is what 1.96 actually gives).
    """
    n = len(values)
    if n < 2:
        return None
    return float(1.96 * np.std(np.asarray(values, dtype=np.float64), ddof=1) / math.sqrt(n))


# ------------------------------------------------------------------ data


def load_dataset(name: str, config: ExperimentConfig) -> LibsvmData:
    """The rows of data set ``name``: a known data set from the data directory, or a LIBSVM file."""
    try:
        if name in config.datasets:
            return load_known(name, config.data_dir)
        return load_libsvm(name)
    except PrivrefError as exc:
        flag = "--data-dir" if name in config.datasets else "--libsvm"
        raise type(exc)(f"{flag} ({name}): {exc}") from None


def _seed_sequence(seed: int, name: str, *key: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(seed, spawn_key=(zlib.crc32(name.encode("utf-8")), *key))


def _int_seed(ss: np.random.SeedSequence, words: int) -> int:
    state = ss.generate_state(words, np.uint32)
    return int.from_bytes(b"".join(int(w).to_bytes(4, "big") for w in state), "big")


def _subsample(data: LibsvmData, rows: int | None, seed: int, name: str) -> tuple[Any, Any]:
    X, y = data.features, np.asarray(data.labels)
    if rows is None or rows >= data.rows:
        return X, y
    rng = np.random.default_rng(_seed_sequence(seed, name, 1 << 30, _PURPOSE_SUBSAMPLE))
    keep = np.sort(rng.choice(data.rows, size=rows, replace=False))
    return X[keep], y[keep]


# ------------------------------------------------------------------ noisy labels


@dataclass(frozen=True)
class _Noise:
    """The noise of one (method, ε): σ's bracket and the σ (or σ²) used."""

    sigma: Interval   # continuous: the calibration bracket (σ_lo, σ_hi]; discrete: [σ, σ]
    used: Fraction    # continuous: σ_hi; discrete: σ² (rounded up to an integer)


def _calibrate(noise: str, queries: int, epsilon: Fraction, delta: Fraction) -> _Noise:
    if noise == "continuous":
        box = calibrate_sigma(queries, epsilon, delta, CALIBRATION_TOLERANCE)
        return _Noise(box, box.hi)
    sigma = algorithm1_sigma(queries, epsilon, delta)
    s2 = rational_scale_at_least(sigma * sigma, 1)
    return _Noise(sigma.enclose(64), s2)


def _ex_post(noise: str, used: Fraction, realized: Fraction, delta: Fraction) -> Interval:
    """ε after ``realized`` queries at the σ (σ²) used: analytic Gaussian, or zCDP for discrete."""
    if realized == 0:
        return Interval.point(0)
    if noise == "continuous":
        return epsilon_ex_post(used, realized, delta, CALIBRATION_TOLERANCE)
    if realized.denominator != 1:  # zCDP composition of a fractional count: ρ = R/(2σ²) all the same
        rho_eps = gaussian_pate_epsilon(1, used / realized, delta).epsilon
    else:
        rho_eps = gaussian_pate_epsilon(int(realized), used, delta).epsilon
    return rho_eps.enclose(64)


def _memoised(table: dict[tuple[Any, ...], Any], key: Any, program: Program[T]) -> Program[T]:
    """``program`` with each yielded choice replaced by the first equal-position choice recorded
    under (key, values so far): the choice objects, and so the enclosures of Φ cached inside
    their exact reals, are built once per vote value.  Sound because a program is a deterministic
    function of its choices' values (:mod:`privref.reference.program`), and every program stored
    under one key is the same program (same vote, K and σ)."""
    history: tuple[Any, ...] = ()
    try:
        choice = next(program)
        while True:
            choice = table.setdefault((key, history), choice)
            value = yield choice
            history = (*history, value)
            choice = program.send(value)
    except StopIteration as stop:
        return cast(T, stop.value)


def _label_service(noise: str, used: Fraction) -> Callable[[int, int], Program[int]]:
    """label(vote, K): one query of 001 Algorithm 1 (continuous N(0, σ²) with σ = ``used``, or
    discrete with σ² = ``used``), memoised per vote value for this (σ, K) only (a table local
    to the returned function, so to one run and one (method, ε))."""
    table: dict[tuple[Any, ...], Any] = {}
    if noise == "continuous":
        def label(vote: int, k: int) -> Program[int]:
            return _memoised(table, (vote, k), pate.continuous_gaussian_label(vote, k, used))
    else:
        def label(vote: int, k: int) -> Program[int]:
            return _memoised(table, (vote, k), pate.gaussian_label(vote, k, used))
    return label


def _aggregate(noise: str, used: Fraction) -> Callable[[tuple[int, ...], int], Program[Any]]:
    """001 Algorithm 1 on the whole public vote vector (PSQ's step 3)."""
    if noise == "continuous":
        return lambda votes, k: pate.continuous_gaussian_votes(votes, k, used)
    return lambda votes, k: pate.gaussian_votes(votes, k, used)


# ------------------------------------------------------------------ one run


def _accuracy(model: LinearClassifier, X: Any, y: Any) -> tuple[int, float]:
    correct = int(np.count_nonzero(model.predict(X) == y))
    return correct, correct / int(y.shape[0])


@dataclass(frozen=True, eq=False)
class PreparedRun:
    """The data side of one run: split positions, the teachers' votes on the public rows, K and
    the student seed (001 Algorithm 3 steps 1–2 on this run's private part)."""

    private: Any
    public: Any
    test: Any
    votes: tuple[int, ...]
    teachers: int
    student_seed: int
    teacher_sizes: tuple[int, ...]


def prepare_run(X: Any, y: Any, sizes: Sizes, seed: int, name: str, r: int) -> PreparedRun:
    """Split run ``r`` of data set ``name``, assign and train the teachers, count their votes.

    Guarantee: a deterministic function of (X, y, sizes, seed, name, r); the split is a uniform
    permutation from SeedSequence(seed, spawn_key=(crc32(name), r, 0)); the teacher of a
    private row is a keyed hash of its content (key from purpose 1), so one record changes one
    teacher (001 Algorithm 3 steps 1–2).
    """
    perm = np.random.default_rng(_seed_sequence(seed, name, r, _PURPOSE_SPLIT)).permutation(sizes.rows)
    private = perm[:sizes.private]
    public = perm[sizes.private:sizes.private + sizes.public]
    test = perm[sizes.private + sizes.public:]
    Xp, yp = X[private], y[private]
    key = _int_seed(_seed_sequence(seed, name, r, _PURPOSE_KEY), 8)
    student_seed = _int_seed(_seed_sequence(seed, name, r, _PURPOSE_STUDENT), 1)
    assignment = assign_teachers(row_keys(Xp, yp), sizes.teachers, key)
    teachers = train_logistic_teachers(Xp, yp, assignment, seed=student_seed)
    votes = tuple(int(v) for v in teacher_votes(teachers, X[public]))
    return PreparedRun(private, public, test, votes, sizes.teachers, student_seed,
                       assignment.sizes())


def _one_run(X: Any, y: Any, sizes: Sizes, config: ExperimentConfig, name: str, r: int,
             noises: dict[tuple[str, Fraction], _Noise]) -> dict[str, Any]:
    """One run of the protocol (module docstring) on one data set: every method, every ε.

    ε_ex_post is left to the caller (it depends on the realized query count only)."""
    seed = config.seed
    prep = prepare_run(X, y, sizes, seed, name, r)
    Xp, yp, Xu, Xt, yt = X[prep.private], y[prep.private], X[prep.public], X[prep.test], y[prep.test]
    votes, K, student_seed = prep.votes, prep.teachers, prep.student_seed
    ones = int(np.count_nonzero(yt))
    methods: list[dict[str, Any]] = []
    out: dict[str, Any] = {
        "run": r,
        "majority_class_rate": max(ones, len(yt) - ones) / len(yt),
        "nonprivate_accuracy": _accuracy(fit_logistic(Xp, yp, seed=student_seed), Xt, yt)[1],
        "teacher_sizes_min_max": [min(prep.teacher_sizes), max(prep.teacher_sizes)],
        "methods": methods,
    }

    def fit_student(labels: Sequence[int | str]) -> LinearClassifier:
        return logistic_student(Xu, np.asarray(labels, dtype=np.uint8), seed=student_seed)

    def learner(service: Callable[[int], Program[int]]) -> Program[ActiveResult]:
        return active_logistic_program(Xu, service, budget=sizes.budget, seed=student_seed,
                                       rule=config.active_rule)

    def record(method: str, eps: Fraction | None, model: LinearClassifier, queries: int,
               active: ActiveResult | None = None) -> None:
        correct, acc = _accuracy(model, Xt, yt)
        row: dict[str, Any] = {"method": method, "epsilon": None if eps is None else str(eps),
                               "correct": correct, "accuracy": acc, "queries": queries}
        if active is not None:  # ASQ: which stream positions were asked, and the answers
            row["queried"] = list(active.queried)
            row["answers"] = list(active.labels)
        methods.append(row)

    no_noise = np.random.default_rng(0)  # the NP programs make no random choice
    record("PSQ-NP", None, sample(pate_learning.psq, votes, K, pate.majority_votes, fit_student,
                                  rng=no_noise), sizes.public)
    np_run = sample(pate_learning.asq, votes, K, pate.majority_label, learner, sizes.budget,
                    rng=no_noise)
    record("ASQ-NP", None, np_run.model, len(np_run.queried), np_run)
    for eps in config.epsilons:
        for method in PRIVATE_METHODS:
            noise = noises[(method, eps)]
            rng = np.random.default_rng(_seed_sequence(seed, name, r, _PURPOSE_NOISE,
                                                       _METHOD_CODE[method], eps.numerator,
                                                       eps.denominator))
            if method == "PSQ":
                model = sample(pate_learning.psq, votes, K, _aggregate(config.noise, noise.used),
                               fit_student, rng=rng)
                record("PSQ", eps, model, sizes.public)
            else:
                result = sample(pate_learning.asq, votes, K, _label_service(config.noise, noise.used),
                                learner, sizes.budget, rng=rng)
                record("ASQ", eps, result.model, len(result.queried), result)
    return out


# ------------------------------------------------------------------ one data set


def _interval_json(box: Interval) -> dict[str, Any]:
    return {"lo": str(box.lo), "hi": str(box.hi), "lo_float": float(box.lo), "hi_float": float(box.hi)}


def _method_keys(config: ExperimentConfig) -> list[tuple[str, Fraction | None]]:
    keys: list[tuple[str, Fraction | None]] = [(m, None) for m in NP_METHODS]
    keys.extend((m, eps) for eps in config.epsilons for m in PRIVATE_METHODS)
    return keys


def _worker(task: tuple[Any, Any, Sizes, ExperimentConfig, str, int,
                        dict[tuple[str, Fraction], _Noise]]) -> dict[str, Any]:
    """One run with BLAS limited to one thread: the many tiny lbfgs fits of the teachers and
    of the active student are about 15 times slower when BLAS threads compete for the cores."""
    with threadpool_limits(limits=1):
        return _one_run(*task)


def run_dataset(name: str, data: LibsvmData, config: ExperimentConfig,
                progress: Callable[[str], None] = lambda line: None, jobs: int = 1) -> dict[str, Any]:
    """Every run of the protocol on one data set, with per-run figures and aggregates.

    Guarantee: a deterministic function of (data, config) (``jobs`` only spreads the runs over
    processes); every ε_ex_post is an exact enclosure (:func:`~privref.reference.accounting.
    epsilon_ex_post` for the continuous noise, zCDP with 001 Lemma 51 for the discrete one).
    """
    X, y = _subsample(data, config.subsample, config.seed, name)
    sizes = sizes_for(int(y.shape[0]), teachers=config.teachers, budget=config.budget,
                      delta=config.delta)
    queries = {"PSQ": sizes.public, "ASQ": sizes.budget}
    noises = {(m, eps): _calibrate(config.noise, queries[m], eps, sizes.delta)
              for eps in config.epsilons for m in PRIVATE_METHODS}
    tasks = [(X, y, sizes, config, name, r, noises) for r in range(config.runs)]
    runs: list[dict[str, Any]] = []
    if jobs > 1 and config.runs > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for result in pool.map(_worker, tasks):
                runs.append(result)
                progress(f"{name}: run {result['run'] + 1}/{config.runs} done")
    else:
        for task in tasks:
            runs.append(_worker(task))
            progress(f"{name}: run {task[5] + 1}/{config.runs} done")
    memo: dict[tuple[str, Fraction, Fraction], Interval] = {}

    def ex_post(method: str, eps: Fraction, realized: Fraction) -> Interval:
        key = (method, eps, realized)
        if key not in memo:
            memo[key] = _ex_post(config.noise, noises[(method, eps)].used, realized, sizes.delta)
        return memo[key]

    for run_ in runs:
        for row in run_["methods"]:
            if row["epsilon"] is not None:
                box = ex_post(row["method"], Fraction(row["epsilon"]), Fraction(row["queries"]))
                row["epsilon_ex_post"] = _interval_json(box)
    aggregates = []
    for method, eps in _method_keys(config):
        rows = [m for r_ in runs for m in r_["methods"]
                if m["method"] == method and m["epsilon"] == (None if eps is None else str(eps))]
        accs = [m["accuracy"] for m in rows]
        qs = [m["queries"] for m in rows]
        agg: dict[str, Any] = {
            "method": method, "epsilon": None if eps is None else str(eps),
            "accuracy_mean": float(np.mean(accs)), "accuracy_ci95": ci95_half_width(accs),
            "queries_mean": float(np.mean(qs)), "queries_ci95": ci95_half_width(qs),
            "queries_total": int(sum(qs)), "runs": len(rows)}
        if eps is not None:
            noise = noises[(method, eps)]
            los = [Fraction(m["epsilon_ex_post"]["lo"]) for m in rows]
            his = [Fraction(m["epsilon_ex_post"]["hi"]) for m in rows]
            agg["epsilon_ex_post_mean_of_ends"] = _interval_json(
                Interval(sum(los, Fraction(0)) / len(los), sum(his, Fraction(0)) / len(his)))
            agg["epsilon_ex_post_at_mean_queries"] = _interval_json(
                ex_post(method, eps, Fraction(sum(qs), len(qs))))
            agg["epsilon_ex_post_at_budget"] = _interval_json(
                ex_post(method, eps, Fraction(queries[method])))
            agg["sigma_bracket"] = _interval_json(noise.sigma)
            agg["noise_parameter_used"] = {"continuous": "sigma", "discrete": "sigma2"}[
                config.noise]
            agg["noise_value_used"] = str(noise.used)
            sigma_used = float(noise.used) if config.noise == "continuous" else math.sqrt(noise.used)
            agg["sigma_float"] = sigma_used
        paper = paper_accuracy(name, method, eps) if name in KNOWN_DATASETS else None
        agg["paper"] = None if paper is None else _paper_json(paper, name)
        aggregates.append(agg)
    majority = [r_["majority_class_rate"] for r_ in runs]
    nonprivate = [r_["nonprivate_accuracy"] for r_ in runs]
    return {
        "name": name,
        "files": [{"path": s.path, "rows": s.rows, "sha256": s.sha256} for s in data.sources],
        "rows_in_files": data.rows, "rows_used": sizes.rows, "n_features": data.n_features,
        "sizes": {"private": sizes.private, "public": sizes.public, "test": sizes.test,
                  "teachers": sizes.teachers, "budget": sizes.budget,
                  "delta": str(sizes.delta)},
        "majority_class_rate_mean": float(np.mean(majority)),
        "majority_class_rate_ci95": ci95_half_width(majority),
        "nonprivate_accuracy_mean": float(np.mean(nonprivate)),
        "nonprivate_accuracy_ci95": ci95_half_width(nonprivate),
        "aggregates": aggregates,
        "runs": runs,
    }


def _paper_json(row: AccuracyRow, name: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "accuracy": float(row.accuracy), "accuracy_pm": float(row.accuracy_ci),
        "queries": float(row.queries),
        "queries_pm": None if row.queries_ci is None else float(row.queries_ci)}
    for printed in ROWS:
        if (printed.dataset, printed.method, printed.epsilon) == (name, row.method, row.epsilon):
            out["epsilon_ex_post"] = float(printed.epsilon_ex_post)
    return out


def run_experiment(config: ExperimentConfig, progress: Callable[[str], None] = lambda line: None,
                   jobs: int = 1) -> dict[str, Any]:
    """:func:`run_dataset` on every data set of ``config`` (known names first, then files)."""
    out = []
    for name in (*config.datasets, *config.files):
        data = load_dataset(name, config)
        progress(f"{name}: {data.rows} rows read")
        out.append(run_dataset(name, data, config, progress, jobs))
    return {"datasets": out}


# ------------------------------------------------------------------ command line


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``table4`` arguments (every one checked by :func:`config_from_args`)."""
    parser.add_argument("--runs", default=None, help=f"runs per data set, in [1, {MAX_RUNS}] "
                                                     "(default 30, as 001 Table 4)")
    parser.add_argument("--seed", default="0", help="master seed in [0, 2^64) (default 0)")
    parser.add_argument("--datasets", default="mushroom,a9a",
                        help="comma-separated known data sets among "
                             f"{', '.join(sorted(KNOWN_DATASETS))}, or '' for none "
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
    parser.add_argument("--active-rule", default=DEFAULT_ACTIVE_RULE, metavar="RULE",
                        help="the active student's query rule: agnostic (DHM/IWAL-style "
                             f"threshold, C0 = {AGNOSTIC_C0:g}; default) or cal (slack 0)")
    parser.add_argument("--compare-json", default=None, metavar="FILE",
                        help="a table4 JSON run with the other --active-rule: the docs page "
                             "gets a table comparing its ASQ rows with this run's")
    parser.add_argument("--jobs", default="1", help="worker processes for the runs, in [1, 8] "
                                                   "(default 1; figures do not depend on it)")
    parser.add_argument("--json", default=None, metavar="FILE", help="write the JSON here")
    parser.add_argument("--png", default=None, metavar="FILE", help="write the figure here")
    parser.add_argument("--markdown", default=None, metavar="FILE",
                        help="write the docs page (paper beside ours) here")


def _bounded(text: object, flag: str, default: int | None, low: int, high: int) -> int | None:
    """An int flag in [low, high] (``default`` when absent); InvalidArgument naming the flag."""
    if text is None:
        return default
    raw = str(text).strip()
    if not raw.lstrip("+-").isdigit() or len(raw) > 30:
        raise InvalidArgument(f"{flag}={text!r} must be an int in [{low}, {high}]")
    value = int(raw)
    if not low <= value <= high:
        raise InvalidArgument(f"{flag}={value} must be an int in [{low}, {high}]")
    return value


def _rational(text: str, flag: str) -> Fraction:
    try:
        return to_fraction(text.strip(), flag)
    except PrivrefError as exc:
        raise InvalidArgument(f"{flag}={text!r} must be a rational number, e.g. 1/2 ({exc})") from None


def config_from_args(args: argparse.Namespace) -> ExperimentConfig:
    """Validate the command line and build the config; InvalidArgument naming the flag.

    Checks: --runs in [1, 1000]; --seed in [0, 2^64); --datasets known names (no repeats);
    --epsilons rationals in (0, 100] (no repeats, at least one); --teachers >= 1; --budget
    >= 1; --delta in (0, 1); --subsample in [50, 10^6]; --jobs in [1, 8]; --active-rule cal
    or agnostic; at least one data set.  Sizes that depend on the data (K <= private rows,
    budget <= public rows) are checked when the data are read (:class:`Sizes`).
    """
    runs = _bounded(args.runs, "--runs", 30, 1, MAX_RUNS)
    seed = _bounded(args.seed, "--seed", 0, 0, 2 ** 64 - 1)
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
    if rule not in ACTIVE_RULES:
        raise InvalidArgument(f"--active-rule={rule!r} must be one of {', '.join(ACTIVE_RULES)}")
    assert runs is not None and seed is not None
    return ExperimentConfig(names, files, data_dir, runs, seed, eps, args.noise,
                            _bounded(args.teachers, "--teachers", None, 1, 10 ** 6),
                            _bounded(args.budget, "--budget", None, 1, 10 ** 6), delta,
                            _bounded(args.subsample, "--subsample", None, 50, 10 ** 6),
                            cast(ActiveRule, rule))


def _read_compare(path: str | None, rule: str) -> dict[str, Any] | None:
    """The ``--compare-json`` payload (a table4 JSON of the other active rule), or None."""
    if path is None:
        return None
    import json
    try:
        other = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InvalidArgument(f"--compare-json={path!r} cannot be read as JSON ({exc})") from None
    if not isinstance(other, dict) or other.get("command") != "privref table4" or \
            not isinstance(other.get("datasets"), list):
        raise InvalidArgument(f"--compare-json={path!r} is not a privref table4 JSON")
    if _rule_of(other) == rule:
        raise InvalidArgument(f"--compare-json={path!r} was run with the same --active-rule "
                              f"{rule}; pass the other rule's JSON")
    return cast(dict[str, Any], other)


def _rule_of(payload: dict[str, Any]) -> str:
    """The active rule a payload was run with (files from before the option: cal)."""
    return str(payload.get("parameters", {}).get("active_rule") or "cal")


def _versions() -> dict[str, str]:
    import scipy
    import sklearn  # type: ignore[import-untyped]
    out = {"privref": reference.__version__, "python": sys.version.split()[0],
           "numpy": np.__version__, "scipy": scipy.__version__,
           "scikit-learn": sklearn.__version__}
    try:
        import matplotlib
        out["matplotlib"] = matplotlib.__version__
    except ImportError:
        pass
    return out


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


def run(args: argparse.Namespace) -> int:
    """Run ``privref table4``; 0 on success.  Every flag is checked before the run."""
    config = config_from_args(args)
    jobs = _bounded(args.jobs, "--jobs", 1, 1, 8)
    other = _read_compare(getattr(args, "compare_json", None), config.active_rule)
    outputs = {flag: check_output_path(flag, value) for flag, value in
               (("--json", args.json), ("--png", args.png), ("--markdown", args.markdown))
               if value is not None}
    if "--png" in outputs:
        try:
            import matplotlib  # noqa: F401
        except ImportError as exc:
            raise PrivrefError("privref table4 --png needs matplotlib: pip install "
                               f"'privref[plots]' ({exc})") from None
    quiet = getattr(args, "quiet", False)

    def progress(line: str) -> None:
        if not quiet:
            print(line, file=sys.stderr, flush=True)

    start = time.perf_counter()
    result = run_experiment(config, progress, jobs or 1)
    seconds = time.perf_counter() - start
    payload = {"command": "privref table4", "versions": _versions(), "seed": config.seed,
               "seconds": round(seconds, 2),
               "parameters": {"runs": config.runs, "epsilons": [str(e) for e in config.epsilons],
                              "noise": config.noise, "datasets": list(config.datasets),
                              "libsvm": list(config.files), "data_dir": config.data_dir,
                              "teachers": config.teachers, "budget": config.budget,
                              "delta": None if config.delta is None else str(config.delta),
                              "subsample": config.subsample,
                              "active_rule": config.active_rule,
                              "compare_json": getattr(args, "compare_json", None)},
               "notes": dict(NOTES), **result}
    if "--json" in outputs:
        write_json(outputs["--json"], payload, flag="--json")
        print(f"wrote {outputs['--json']}")
    if "--png" in outputs:
        _plot(payload, outputs["--png"])
        print(f"wrote {outputs['--png']}")
    if "--markdown" in outputs:
        write_text_atomic(outputs["--markdown"], markdown(payload, other), flag="--markdown")
        print(f"wrote {outputs['--markdown']}")
    if not quiet:
        print(_summary(payload))
    print(f"table4: {len(result['datasets'])} data set(s), {config.runs} run(s) in {seconds:.1f}s")
    return 0


# ------------------------------------------------------------------ reports


def _fmt(mean: float | None, half: float | None, digits: int = 4) -> str:
    if mean is None:
        return "–"
    return f"{mean:.{digits}f}" + ("" if half is None else f" ± {half:.{digits}f}")


def _eps_label(eps: str | None) -> str:
    return "+∞" if eps is None else str(float(Fraction(eps)))


def _ex_post_text(agg: dict[str, Any]) -> str:
    box = agg.get("epsilon_ex_post_at_mean_queries")
    if box is None:
        return "+∞"
    return f"[{box['lo_float']:.4f}, {box['hi_float']:.4f}]"


def _summary(payload: dict[str, Any]) -> str:
    lines = []
    for ds in payload["datasets"]:
        lines.append(f"{ds['name']}: majority-class rate {ds['majority_class_rate_mean']:.4f}, "
                     f"non-private logistic regression {ds['nonprivate_accuracy_mean']:.4f}")
        for agg in ds["aggregates"]:
            lines.append(f"  {agg['method']:6} eps={_eps_label(agg['epsilon']):4} accuracy "
                         f"{_fmt(agg['accuracy_mean'], agg['accuracy_ci95'])}  queries "
                         f"{_fmt(agg['queries_mean'], agg['queries_ci95'], 1)}  eps_ex_post "
                         f"{_ex_post_text(agg)}")
    return "\n".join(lines)


def _plot(payload: dict[str, Any], path: Path) -> None:
    """Accuracy vs ε per data set and method (95% CIs), NP, majority-class and non-private lines,
    and 001 Table 4's printed accuracies as markers."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sets = payload["datasets"]
    fig, axes = plt.subplots(1, len(sets), figsize=(6.2 * len(sets), 5.2), squeeze=False)
    colors = {"PSQ": "tab:blue", "ASQ": "tab:orange"}
    for ax, ds in zip(axes[0], sets, strict=True):
        by = {(a["method"], a["epsilon"]): a for a in ds["aggregates"]}
        eps = [e for e in payload["parameters"]["epsilons"]]
        xs = [float(Fraction(e)) for e in eps]
        for shift, method in ((0.97, "PSQ"), (1.03, "ASQ")):
            rows = [by[(method, e)] for e in eps]
            ax.errorbar([x * shift for x in xs], [r["accuracy_mean"] for r in rows],
                        yerr=[r["accuracy_ci95"] or 0.0 for r in rows], marker="o", capsize=3,
                        color=colors[method], label=f"{method} (ours, 95% CI)")
            papers = [(x, r["paper"]) for x, r in zip(xs, rows, strict=True) if r["paper"]]
            if papers:
                ax.scatter([x * shift for x, _ in papers], [p["accuracy"] for _, p in papers],
                           marker="x", s=60, color=colors[method], label=f"{method} (paper)")
            np_row = by[(method + "-NP", None)]
            ax.axhline(np_row["accuracy_mean"], color=colors[method], linestyle="--",
                       linewidth=1, label=f"{method}-NP (ours)")
            if np_row["paper"]:
                ax.axhline(np_row["paper"]["accuracy"], color=colors[method], linestyle=":",
                           linewidth=1, label=f"{method}-NP (paper)")
        ax.axhline(ds["majority_class_rate_mean"], color="grey", linestyle="-", linewidth=1,
                   label="majority-class rate (test)")
        ax.axhline(ds["nonprivate_accuracy_mean"], color="black", linestyle="-.", linewidth=1,
                   label="logistic regression on all private data")
        ax.set_xscale("log", base=2)
        ax.set_xticks(xs, [f"{x:g}" for x in xs])
        ax.set_xlabel("ε (δ = 1/#private)")
        ax.set_ylabel("test accuracy")
        sizes = ds["sizes"]
        ax.set_title(f"{ds['name']}: {ds['rows_used']} rows, K = {sizes['teachers']}, "
                     f"{sizes['public']} public, budget {sizes['budget']}", fontsize=9)
        ax.grid(True, alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=5, fontsize=7, frameon=False)
    fig.suptitle(f"privref {payload['versions']['privref']} table4 (001 Table 4), seed "
                 f"{payload['seed']}, {payload['parameters']['runs']} runs, "
                 f"{payload['parameters']['noise']} noise, {_rule_of(payload)} active rule",
                 fontsize=9)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    try:
        write_with(path, lambda fh: fig.savefig(fh, format="png", dpi=100), flag="--png")
    finally:
        plt.close(fig)


def _command_line(payload: dict[str, Any]) -> str:
    p = payload["parameters"]
    parts = ["privref table4", f"--runs {p['runs']}", f"--seed {payload['seed']}",
             f"--datasets {','.join(p['datasets'])}" if p["datasets"] else "--datasets ''",
             f"--epsilons {','.join(p['epsilons'])}"]
    parts.extend(f"--libsvm {f}" for f in p["libsvm"])
    if p["noise"] != "continuous":
        parts.append(f"--noise {p['noise']}")
    parts.append(f"--active-rule {_rule_of(payload)}")
    if p.get("compare_json"):
        parts.append(f"--compare-json {p['compare_json']}")
    for flag in ("teachers", "budget", "delta", "subsample"):
        if p[flag] is not None:
            parts.append(f"--{flag} {p[flag]}")
    return " ".join(parts)


def _paper_sigma(dataset: str, method: str, epsilon: Fraction) -> float:
    """The σ_hi 001 Table 4's row was calibrated with (display only)."""
    row = next(r for r in ROWS if (r.dataset, r.method, r.epsilon) == (dataset, method, epsilon))
    return float(calibrated_sigma(row).hi)


def _unanimous_flip(sigma: float, k: int) -> str:
    """Φ(−(K/2)/σ), the chance a unanimous vote is released flipped, enclosed (display only)."""
    from privref.reference.accounting import normal_cdf
    box = normal_cdf(-Fraction(k, 2) / Fraction(sigma))
    return f"{float(box.lo):.3f}"


def markdown(payload: dict[str, Any], other: dict[str, Any] | None = None) -> str:
    """The docs page of a ``privref table4`` run: protocol, rule, the paper's Table 4 beside ours
    for every row of every data set run, and the differences explained (001 §5, Tables 3–4);
    with ``other`` (the same experiment run with the other active rule), a table comparing the
    two rules' ASQ rows."""
    lines = [
        "# Paper 001's Table 4 on real data: PATE-PSQ and PATE-ASQ",
        "",
        "<!-- generated by `privref table4 --markdown`; do not edit by hand -->",
        "",
        f"Generated by `{_command_line(payload)}` (privref {payload['versions']['privref']}, "
        f"scikit-learn {payload['versions'].get('scikit-learn', '?')}, "
        f"{payload['seconds']} s).  The JSON with every per-run figure is "
        "[pate-table4.json](pate-table4.json); the figure is [pate-table4.png](pate-table4.png); "
        "runtime and memory are in [pate-performance.md](pate-performance.md).",
        "",
        "## What is run",
        "",
        "Paper 001 (Liu, Zhu, Chaudhuri, Wang, *Revisiting Model-Agnostic Private Learning*), §5: "
        "each run splits the rows at random into private / public / test parts with the sizes of "
        "001 Table 3's rule (test_all = ⌈N/5⌉, private = N − test_all, public = ⌈test_all/10⌉, "
        "test = the rest: about 80% / 2% / 18%; for mushroom exactly the paper's 6,499 / 163 / "
        "1,462).  K = round(private/100) logistic-regression teachers (L2, C = 1, lbfgs) train on "
        "a keyed per-record assignment of the private rows (each record's teacher is a keyed hash "
        "of its own content, so adding or removing one record changes one teacher: the "
        "hypothesis 001's privacy argument needs).  δ = 1/#private.",
        "",
        "* **PSQ** (001 Algorithm 3 with Algorithm 1): every public point is labeled "
        "1(votes + Z ≥ K/2), Z ~ N(0, σ²) fresh per point; σ is the safe end σ_hi of the "
        "analytic-Gaussian calibration for q = #public queries at (ε, δ) (Balle–Wang 2018 "
        "Theorem 8, what the paper's AutoDP does), proved: δ(ε; σ_hi) ≤ δ.  The student is a "
        "logistic regression on the pseudo-labels.",
        "* **ASQ** (001 Algorithm 5): the active student below reads the public points as a "
        "stream and asks for at most ℓ = round(0.3·#public) labels, each answered by one query "
        "of Algorithm 1 with σ calibrated for q = ℓ.",
        "* **PSQ-NP / ASQ-NP**: the same with the exact majority label 1(votes ≥ K/2) (ties "
        "to 1), ε = +∞.",
        "* `--noise discrete` (not the paper's; not used for the figures below unless the "
        "command line says so): Z is the discrete Gaussian N_Z(0, σ²) (Canonne–Kamath–Steinke "
        "2020) with σ² = 001 Algorithm 1 Step 1's σ² rounded up to an integer, accounted "
        "by zCDP: q queries are q/(2σ²)-zCDP, converted by 001 Lemma 51, and ε_ex_post is "
        "ρ_R + 2√(ρ_R ln(1/δ)) with ρ_R = R/(2σ²).  That conversion is looser than the "
        "analytic Gaussian, so σ is larger at the same (ε, δ) (mushroom PSQ at ε = 0.5: "
        "about 108.5 against 72.3) and the accuracies lower.",
        "* Every noisy label is a random choice of one probabilistic program "
        "(`reference.pate_learning.psq` / `asq` over `reference.pate`'s labels), drawn exactly "
        "(Φ's enclosure, lazy refinement; no float decides a label) from the run's generator.",
        "* Seeds: one `--seed`; the split, the teacher-assignment key, the student seed and the "
        "label noise of each (method, ε) come from `numpy.random.SeedSequence(seed, spawn_key="
        "(crc32(data set), run, purpose, …))`, so a data set's figures do not depend on what "
        "else is run.",
        "",
        "### The active student (our rules, in the spirit of Yan et al. 2018)",
        "",
        "The paper used Yan et al. (2018)'s practical disagreement-based learner, which calls an "
        "ERM oracle instead of keeping the region of disagreement; its code is not public, so "
        "the rules here are ours (`app/pate_students_sklearn.active_logistic_program`): keep L = "
        "queried plus inferred examples; at stream point x_t (t = |L| + 1) fit, for each "
        "y ∈ {0, 1}, a logistic regression h_y on L ∪ {(x_t, y)} with the new point weighted "
        "|L| + 1, and count its mistakes e_y on L (e_y = ∞ if the fit still does not predict y "
        "at x_t).  Then either request the label (one unit of budget) or infer one, by one of "
        "two rules (`--active-rule`):",
        "",
        "* **cal** (CAL's realizable-case rule): infer argmin e_y if |e_0 − e_1| > 0, "
        "otherwise request.",
        "* **agnostic** (our reading of Dasgupta, Hsu and Monteleoni 2007, Algorithm 1, with the "
        "practical threshold of Beygelzimer, Hsu, Langford and Zhang 2010, Algorithm 1, as "
        "Vowpal Wabbit implements it): with n = |L| and error rates r_y = e_y/n, infer "
        "y = argmin r_y only if r_{1−y} − r_y > Δ_t = b_t + √b_t·(√r_y + √r_{1−y}), "
        f"b_t = C0·ln t/(t − 1), C0 = {AGNOSTIC_C0:g}; otherwise request.  C0 = 8 is Vowpal "
        "Wabbit's default (its \"mellowness\"), fixed before any run, not tuned on our "
        "accuracies.  With one fit infeasible (e_y = ∞) both rules infer the other label; with "
        "both infeasible, or L empty, both request.",
        "",
        "Stop at the end of the stream or when the budget is spent; output a logistic "
        "regression on L.  The default is **agnostic**, chosen before running anything: the "
        "paper's learner builds on the agnostic, noise-tolerant learners (DHM 2007, IWAL), and "
        "the labels PATE returns are noisy, which is the case CAL's rule is not made for.  "
        f"This page's run used **{_rule_of(payload)}**.",
        "",
        "### How to read the figures",
        "",
        "* **Accuracy**: mean over the runs ± 1.96·s/√runs, s the sample standard deviation "
        "(ddof 1) of the per-run test accuracies, i.e. the half-width of a normal-approximation "
        "**95%** interval for the expected accuracy.  001 Table 4's caption calls its ± "
        "\"1.96 × standard_error/√30, a 98% interval\": 1.96 is the 95% quantile, and a "
        "standard error divided by √30 again would be divided twice.",
        "* **# Queries**: labels released, mean ± the same 95% half-width.",
        "* **ε_ex_post** (ASQ): the ε at δ of the σ used, after the realized number of "
        "queries R, as an exact enclosure; the table shows the enclosure at the mean R (the "
        "JSON also has the mean of the per-run enclosures' ends).  R depends on the released "
        "labels, so ε_ex_post is a **data-dependent figure, not a privacy guarantee**: the "
        "a-priori guarantee of every private row is its budget ε.  For PSQ, R = #public always, "
        "and the enclosure holds ε (σ_hi is proved safe, so ε_ex_post ≤ ε).",
        "",
    ]
    for ds in payload["datasets"]:
        lines.extend(_dataset_section(ds, payload))
    if other is not None:
        lines.extend(_rule_comparison(payload, other))
    lines.extend(_differences(payload))
    return "\n".join(lines) + "\n"


def _dataset_section(ds: dict[str, Any], payload: dict[str, Any]) -> list[str]:
    s = ds["sizes"]
    out = [f"## {ds['name']}", "",
           f"{ds['rows_used']} rows used ({ds['rows_in_files']} in the files), "
           f"{ds['n_features']} features; {s['private']} private, {s['public']} public, "
           f"{s['test']} test; K = {s['teachers']} teachers; ASQ budget ℓ = {s['budget']}; "
           f"δ = {s['delta']}; {payload['parameters']['runs']} runs.", "",
           "Majority-class rate of the test split: "
           f"{_fmt(ds['majority_class_rate_mean'], ds['majority_class_rate_ci95'])}.  "
           "Logistic regression on all private data (true labels): "
           f"{_fmt(ds['nonprivate_accuracy_mean'], ds['nonprivate_accuracy_ci95'])}.", "",
           "| Method | ε | Accuracy (ours, ± 95%) | Accuracy (paper, as printed) | # Queries (ours) "
           "| # Queries (paper) | ε_ex_post (ours, at mean R) | ε_ex_post (paper) | σ (ours) |",
           "|---|---|---|---|---|---|---|---|---|"]
    for agg in ds["aggregates"]:
        paper = agg["paper"]
        pa = "–" if paper is None else _fmt(paper["accuracy"], paper["accuracy_pm"])
        pq = "–" if paper is None else (f"{paper['queries']:g}" + (
            "" if paper["queries_pm"] is None else f" ± {paper['queries_pm']:g}"))
        pe = "+∞" if agg["epsilon"] is None else (
            "–" if paper is None else f"{paper.get('epsilon_ex_post', float('nan')):g}")
        sigma = "–" if agg.get("sigma_float") is None else f"{agg['sigma_float']:.2f}"
        out.append(f"| {agg['method']} | {_eps_label(agg['epsilon'])} | "
                   f"{_fmt(agg['accuracy_mean'], agg['accuracy_ci95'])} | {pa} | "
                   f"{_fmt(agg['queries_mean'], agg['queries_ci95'], 1)} | {pq} | "
                   f"{_ex_post_text(agg)} | {pe} | {sigma} |")
    out.append("")
    out.append("Data files: " + "; ".join(f"`{Path(f['path']).name}` ({f['rows']} rows, sha256 "
                                           f"`{f['sha256'][:16]}…`)" for f in ds["files"]) + ".")
    out.append("")
    return out


def _rule_comparison(payload: dict[str, Any], other: dict[str, Any]) -> list[str]:
    """The ASQ rows of this run beside those of the same experiment with the other rule."""
    mine, theirs = _rule_of(payload), _rule_of(other)
    by_name = {ds["name"]: ds for ds in other["datasets"]}
    name = Path(str(payload["parameters"].get("compare_json") or "")).name
    out = ["## The two active rules side by side", "",
           f"The same command with `--active-rule {theirs}` (seed, splits, teachers and label "
           f"noise streams unchanged) is in [{name}]({name}).  PSQ does not depend on the rule.",
           ""]
    for ds in payload["datasets"]:
        o = by_name.get(ds["name"])
        if o is None:
            continue
        out.extend([f"### {ds['name']}", "",
                    f"| Method | ε | Accuracy ({mine}) | Accuracy ({theirs}) | # Queries ({mine}) "
                    f"| # Queries ({theirs}) | ε_ex_post ({mine}) | ε_ex_post ({theirs}) "
                    "| PSQ accuracy | Accuracy (paper) |",
                    "|---|---|---|---|---|---|---|---|---|---|"])
        for agg in ds["aggregates"]:
            if agg["method"] not in ("ASQ", "ASQ-NP"):
                continue
            key = (agg["method"], agg["epsilon"])
            alt = next((a for a in o["aggregates"] if (a["method"], a["epsilon"]) == key), None)
            if alt is None:
                continue
            psq = _mean(ds, "PSQ" if agg["epsilon"] else "PSQ-NP", agg["epsilon"])
            paper = agg["paper"]
            out.append(f"| {agg['method']} | {_eps_label(agg['epsilon'])} | "
                       f"{_fmt(agg['accuracy_mean'], agg['accuracy_ci95'])} | "
                       f"{_fmt(alt['accuracy_mean'], alt['accuracy_ci95'])} | "
                       f"{_fmt(agg['queries_mean'], agg['queries_ci95'], 1)} | "
                       f"{_fmt(alt['queries_mean'], alt['queries_ci95'], 1)} | "
                       f"{_ex_post_text(agg)} | {_ex_post_text(alt)} | {_fmt(psq, None)} | "
                       + ("–" if paper is None else _fmt(paper["accuracy"], paper["accuracy_pm"]))
                       + " |")
        out.append("")
    return out


def _differences(payload: dict[str, Any]) -> list[str]:
    out = ["## Why our figures differ from the paper's", ""]
    by = {ds["name"]: ds for ds in payload["datasets"]}
    counts = "; ".join(
        f"{ds['name']} ASQ-NP {_queries_of(ds, 'ASQ-NP')} of {ds['sizes']['budget']}"
        + ("" if (pr := paper_accuracy(ds["name"], "ASQ-NP", None)) is None
           else f" (paper {float(pr.queries):g} of its budget)")
        for ds in payload["datasets"])
    out.append("* **The active learner is not the authors'.**  Yan et al. (2018)'s code is not "
               f"public; our {_rule_of(payload)} rule (above) is one reasonable reading, so its "
               f"query counts differ from the paper's: {counts}.")
    for ds in payload["datasets"]:
        out.extend(_active_vs_passive(ds, _rule_of(payload)))
    out.append("* **Students and teachers are our logistic regressions** (L2, C = 1, lbfgs); the "
               "paper says only \"linear models\".  Its mushroom has 112 one-hot features "
               "(LIBSVM's file), ours 126 (the same 8,124 instances, xgboost's encoding).")
    if "mushroom" in by:
        ds = by["mushroom"]
        k = ds["sizes"]["teachers"]
        psq = next((a for a in ds["aggregates"] if a["method"] == "PSQ"
                    and a["epsilon"] == "1/2"), None)
        if psq is not None:
            out.append(f"* **mushroom, PSQ at ε = 0.5: σ ≈ {psq['sigma_float']:.1f} against "
                       f"K = {k} teachers.**  Even a unanimous vote is released flipped with "
                       f"probability Φ(−(K/2)/σ) ≈ {_unanimous_flip(psq['sigma_float'], k)}, so "
                       "the pseudo-labels are close to random and the accuracy depends mostly on "
                       "how the student copes with heavy label noise; small changes in the "
                       "pipeline move it a lot.  The paper's σ for this row (analytic Gaussian "
                       "at its 163 queries and δ = 1/6499, `privref.app.table4`) is "
                       f"{_paper_sigma('mushroom', 'PSQ', Fraction(1, 2)):.2f}, so with the "
                       "same split sizes the gap to its 0.6416 comes from the teachers, the "
                       "student and the feature encoding, which the paper does not pin down.")
    if "a9a" in by:
        ds = by["a9a"]
        out.append(f"* **a9a: {ds['rows_in_files']:,} rows, not the paper's 48,842.**  Only "
                   "LIBSVM's a9a training file is kept offline (its a9a.t is not), so our "
                   f"private / public / test sizes are {ds['sizes']['private']:,} / "
                   f"{ds['sizes']['public']} / {ds['sizes']['test']:,} (paper 39,073 / 977 / "
                   f"8,792), K = {ds['sizes']['teachers']} (paper ≈ 391) and δ = "
                   f"{ds['sizes']['delta']}.")
        out.append(f"* **a9a: the paper's accuracies (0.50–0.56) are below the majority-class "
                   f"rate** (ours: {ds['majority_class_rate_mean']:.3f} on the test split; "
                   "about 0.76 on all 48,842 rows), even for the non-private PSQ-NP (0.5555), "
                   "whereas a logistic regression on the private data reaches "
                   f"{ds['nonprivate_accuracy_mean']:.3f} here.  A classifier that always "
                   "answers the majority class would beat every a9a row of the paper's table, "
                   "which suggests a bug in the original pipeline (e.g. labels or features "
                   "misaligned); these numbers are not a reproduction target.")
    full = all(a["queries_mean"] == ds["sizes"]["budget"] for ds in payload["datasets"]
               for a in ds["aggregates"] if a["method"] == "ASQ")
    out.append("* **ε_ex_post**: the paper's column averages per-run ε's (its mushroom figures "
               "are reproduced from its own mean query counts by `privref.app.table4` up to that "
               "averaging); ours differ because our learner's query counts differ"
               + ("; every ASQ run here spent its whole budget, so ours is the budget ε (to the "
                  "calibration's tolerance)" if full else "")
               + ".  Both are data-dependent figures, not guarantees.")
    out.append("* **Confidence intervals**: ours are 95% intervals from the sample standard "
               "deviation over our runs; the paper's ± is labelled inconsistently (\"98%\", "
               "1.96, standard error divided by √30); if it is 1.96·SE/√30 it is √30 ≈ 5.5 times "
               "narrower than a 95% interval, so compare means, not interval widths.")
    out.append("* **real-sim** is not run: it is not kept offline (nothing is downloaded).")
    out.append("")
    return out


def _mean(ds: dict[str, Any], method: str, eps: str | None) -> float | None:
    for agg in ds["aggregates"]:
        if (agg["method"], agg["epsilon"]) == (method, eps):
            return float(agg["accuracy_mean"])
    return None


def _queries_of(ds: dict[str, Any], method: str) -> str:
    for agg in ds["aggregates"]:
        if agg["method"] == method:
            return f"{agg['queries_mean']:.1f}"
    return "–"


def _inferred(ds: dict[str, Any], method: str, eps: str | None) -> float:
    """Mean labels the active student inferred per run: the stream points it read (up to the
    last request when the budget was spent, else the whole public stream) minus its requests."""
    public, budget = ds["sizes"]["public"], ds["sizes"]["budget"]
    counts = []
    for run_ in ds["runs"]:
        for m in run_["methods"]:
            if (m["method"], m["epsilon"]) == (method, eps):
                read = max(m["queried"]) + 1 if m["queries"] >= budget else public
                counts.append(read - m["queries"])
    return float(np.mean(counts)) if counts else 0.0


def _always_above_one(c0: float) -> int:
    """The largest n with C0·ln(n + 1)/n >= 1: while |L| <= n, b_t alone exceeds every possible
    gap of error rates, so the agnostic rule infers only from an infeasible fit."""
    n = 1
    while c0 * math.log(n + 2) / (n + 1) >= 1:
        n += 1
    return n


def _active_vs_passive(ds: dict[str, Any], rule: str) -> list[str]:
    """Where our ASQ beats our PSQ (the paper's observation 1 says: in most cases), and why."""
    eps = [a["epsilon"] for a in ds["aggregates"] if a["method"] == "ASQ"]
    wins = [e for e in eps if (_mean(ds, "ASQ", e) or 0.0) > (_mean(ds, "PSQ", e) or 0.0)]
    asq_np, psq_np = _mean(ds, "ASQ-NP", None), _mean(ds, "PSQ-NP", None)
    budget = ds["sizes"]["budget"]
    used = [a["queries_mean"] for a in ds["aggregates"] if a["method"] in ("ASQ", "ASQ-NP")]
    inferred = [_inferred(ds, a["method"], a["epsilon"]) for a in ds["aggregates"]
                if a["method"] in ("ASQ", "ASQ-NP")]
    text = (f"* **{ds['name']}: active vs passive ({rule} rule).**  Our ASQ beats our PSQ (by "
            f"the mean) at {len(wins)} of {len(eps)} budgets"
            + (f" (ε = {', '.join(_eps_label(e) for e in wins)})" if wins else "")
            + f"; ASQ-NP {asq_np:.4f} vs PSQ-NP {psq_np:.4f} (logistic regression on all "
              f"private data: {ds['nonprivate_accuracy_mean']:.4f}).  The paper reports ASQ "
              f"ahead in most private rows.  ASQ and ASQ-NP requested {_span(used)} labels of "
              f"the budget {budget} and inferred {_span(inferred)} (means over the runs of each "
              "row).  ")
    if rule == "cal":
        text += ("The cal rule infers a label whenever one candidate fit makes fewer mistakes "
                 "on the labeled set than the other (CAL's rule, made for the realizable case), "
                 "so every error in the labeled set, a noisy answer at finite ε or a point the "
                 "data's best linear rule gets wrong, is copied into further inferred labels, "
                 "while PSQ's student sees a (noisy) label for every public point and averages "
                 "the noise out.  The agnostic rule (`--active-rule agnostic`) asks more and "
                 "infers less.")
    else:
        n = _always_above_one(AGNOSTIC_C0)
        text += (f"The agnostic rule infers only when the gap of error rates exceeds Δ_t >= "
                 f"b_t = {AGNOSTIC_C0:g}·ln t/(t − 1), which is at least 1 (above every "
                 f"possible gap) while |L| <= {n}, so the first points are always requested")
        if max(inferred) == 0:
            text += ("; here every later gap also stayed below Δ_t and no label was inferred "
                     "in any run, so ASQ was exactly a passive student on the first ℓ stream "
                     "points (a uniformly random ℓ of the public rows): ℓ labels with less noise "
                     "than PSQ's (σ calibrated for ℓ queries instead of #public) against "
                     "#public noisier ones.")
        else:
            text += " and an inferred label needs a large gap of error rates."
    return [text]


def _span(values: Sequence[float]) -> str:
    """"a" when all values print alike, else "a to b" (one decimal)."""
    lo, hi = f"{min(values):.1f}", f"{max(values):.1f}"
    return lo if lo == hi else f"{lo} to {hi}"
