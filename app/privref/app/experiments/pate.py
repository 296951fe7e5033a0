"""Paper 001's Table 4 accuracy experiment (PATE-PSQ and PATE-ASQ) on real data (``privref table4``).

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

ASQ's student is ``--active-rule``: ``iwal`` (the default: IWAL-CAL, Beygelzimer–Hsu–Langford–Zhang
2010 Algorithm 1, with a logistic ERM oracle, :func:`~privref.app.experiments.pate_students_active.
iwal_logistic_program`, constant ``--c0``), or the older rules ``agnostic`` (DHM-style test with
IWAL's threshold on inferred labels) and ``cal`` (CAL's slack-0 rule), kept for comparison.  A
second student, pool-based margin sampling (NOT the paper's method), runs beside it as the rows
ASQ-MS-NP / ASQ-MS.  ``--c0-sweep`` adds IWAL rows (NP and one ε) for each C0 of a list, on the
first ``--sweep-runs`` runs.

Per-run seeds come from one ``--seed`` through :class:`numpy.random.SeedSequence` with spawn
keys (dataset name, run, purpose), so a data set's figures do not depend on which other data
sets or ε are run alongside.

The command line is :mod:`privref.app.commands.table4`; the docs page, the terminal summary and
the figure are :mod:`privref.app.reports.pate_text` and :mod:`privref.app.reports.pate_plot`.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import numpy as np
from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

from privref.reference import pate, pate_learning
from privref.reference.accounting import algorithm1_sigma, calibrate_sigma, epsilon_ex_post
from privref.reference.citations import Uncited
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.learners.pate_teachers import assign_teachers
from privref.reference.pate import gaussian_pate_epsilon
from privref.reference.program import Program, sample
from privref.reference.reals import Interval
from privref.reference.sparse_vector import rational_scale_at_least

from .datasets import KNOWN_DATASETS, LibsvmData, load_known, load_libsvm
from .paper_table4 import ROWS, AccuracyRow, paper_accuracy
from .pate_students_active import IWAL_C0, iwal_logistic_program, margin_sampling_program
from .pate_students_sklearn import (
    ActiveRule,
    LinearClassifier,
    active_logistic_program,
    fit_logistic,
    logistic_student,
    row_keys,
    teacher_votes,
    train_logistic_teachers,
)

__all__ = [
    "CALIBRATION_TOLERANCE",
    "DEFAULT_ACTIVE_RULE",
    "DEFAULT_EPSILONS",
    "ExperimentConfig",
    "PreparedRun",
    "Sizes",
    "ci95_half_width",
    "load_dataset",
    "prepare_run",
    "run_dataset",
    "run_experiment",
    "sizes_for",
]

SOURCE: Final = Uncited("001 §5.1 and Table 4 (the accuracy experiment): experiment section, "
                        "not a numbered result")
"""What this module implements: 001's experiment, no numbered result."""

DEFAULT_ACTIVE_RULE: Final = "iwal"
"""``--active-rule``'s default: IWAL-CAL (Beygelzimer et al. 2010 Algorithm 1), because 001 §5.1
says its active student is Yan et al. (2018)'s practical disagreement-based learner with an ERM
oracle and no explicit region of disagreement, which is built on IWAL; unlike the older
``agnostic``/``cal`` rules it never trains on an inferred label (those rules, with an ERM oracle
on 100+ features, never infer at C0 = 8 and spread errors when they do)."""

STUDENT_RULES: Final = ("iwal", "agnostic", "cal")
"""The accepted ``--active-rule`` values."""

IWAL_GAP_DEFAULT: Final = "logistic"
"""``--iwal-gap``'s default: IWAL's gap G_k measured in the oracle's importance-weighted logistic
loss (with the 0/1 error of Algorithm 1 as printed, G_k = 0 at almost every point: with more
features than labels a linear fit can give any new point either label at no 0/1 cost)."""

DEFAULT_EPSILONS: Final = (Fraction(1, 2), Fraction(1), Fraction(2))
"""001 Table 4's privacy budgets."""

CALIBRATION_TOLERANCE: Final = Fraction(1, 1 << 24)
"""Relative width of σ's calibration bracket and of ε_ex_post's enclosures (about 6e-8)."""

NP_METHODS: Final = ("PSQ-NP", "ASQ-NP", "ASQ-MS-NP")
PRIVATE_METHODS: Final = ("PSQ", "ASQ", "ASQ-MS")
_PURPOSE_SPLIT, _PURPOSE_KEY, _PURPOSE_STUDENT, _PURPOSE_NOISE, _PURPOSE_SUBSAMPLE = range(5)
_METHOD_CODE: Final = {"PSQ": 0, "ASQ": 1, "ASQ-MS": 2}
_SWEEP_CODE: Final = 1 << 20  # noise streams of the C0 sweep: (this + grid index), disjoint from methods
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
    """A validated ``privref table4`` configuration (see
    :func:`privref.app.commands.table4.config_from_args`)."""

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
    active_rule: str = "iwal"
    c0: float = IWAL_C0
    iwal_gap: str = IWAL_GAP_DEFAULT
    c0_sweep: tuple[float, ...] = ()
    sweep_runs: int = 10

    @property
    def sweep_epsilon(self) -> Fraction:
        """The private ε of the C0 sweep: 1 when it is among ``epsilons``, else the first."""
        return Fraction(1) if Fraction(1) in self.epsilons else self.epsilons[0]


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

    def learner_for(c0: float) -> Callable[[Callable[[int], Program[int]]], Program[Any]]:
        def learner(service: Callable[[int], Program[int]]) -> Program[Any]:
            if config.active_rule == "iwal":
                return iwal_logistic_program(Xu, service, budget=sizes.budget, seed=student_seed,
                                             c0=c0, gap=config.iwal_gap)
            return active_logistic_program(Xu, service, budget=sizes.budget, seed=student_seed,
                                           rule=cast(ActiveRule, config.active_rule))
        return learner

    learner = learner_for(config.c0)

    def margin(service: Callable[[int], Program[int]]) -> Program[Any]:
        return margin_sampling_program(Xu, service, budget=sizes.budget, seed=student_seed)

    def record(method: str, eps: Fraction | None, model: LinearClassifier, queries: int,
               active: Any = None, into: list[dict[str, Any]] = methods,
               c0: float | None = None) -> None:
        correct, acc = _accuracy(model, Xt, yt)
        row: dict[str, Any] = {"method": method, "epsilon": None if eps is None else str(eps),
                               "correct": correct, "accuracy": acc, "queries": queries}
        if c0 is not None:
            row["c0"] = c0
        if active is not None:  # ASQ: which stream positions were asked, and the answers
            row["queried"] = list(active.queried)
            row["answers"] = list(active.labels)
            if hasattr(active, "processed"):
                row["processed"] = active.processed
            if hasattr(active, "examples"):  # IWAL: the query probabilities, exact
                row["probabilities"] = [str(e.probability) for e in active.examples]
        into.append(row)

    def np_rng(code: int) -> np.random.Generator:
        """The NP rows' generator: their labels are exact majorities, but IWAL's query coins
        are random choices (spawn key ε = 0/0, disjoint from every private ε)."""
        return np.random.default_rng(_seed_sequence(seed, name, r, _PURPOSE_NOISE, code, 0, 0))

    record("PSQ-NP", None, sample(pate_learning.psq, votes, K, pate.majority_votes, fit_student,
                                  rng=np_rng(_METHOD_CODE["PSQ"])), sizes.public)
    np_run = sample(pate_learning.asq, votes, K, pate.majority_label, learner, sizes.budget,
                    rng=np_rng(_METHOD_CODE["ASQ"]))
    record("ASQ-NP", None, np_run.model, len(np_run.queried), np_run)
    ms_run = sample(pate_learning.asq, votes, K, pate.majority_label, margin, sizes.budget,
                    rng=np_rng(_METHOD_CODE["ASQ-MS"]))
    record("ASQ-MS-NP", None, ms_run.model, len(ms_run.queried), ms_run)
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
                                learner if method == "ASQ" else margin, sizes.budget, rng=rng)
                record(method, eps, result.model, len(result.queried), result)
    if config.c0_sweep and r < config.sweep_runs:
        sweep: list[dict[str, Any]] = []
        out["sweep"] = sweep
        eps = config.sweep_epsilon
        noise = noises[("ASQ", eps)]
        for g, c0 in enumerate(config.c0_sweep):
            swept = learner_for(c0)
            np_sweep = sample(pate_learning.asq, votes, K, pate.majority_label, swept,
                              sizes.budget, rng=np_rng(_SWEEP_CODE + g))
            record("ASQ-NP", None, np_sweep.model, len(np_sweep.queried), np_sweep, sweep, c0)
            rng = np.random.default_rng(_seed_sequence(seed, name, r, _PURPOSE_NOISE,
                                                       _SWEEP_CODE + g, eps.numerator,
                                                       eps.denominator))
            result = sample(pate_learning.asq, votes, K, _label_service(config.noise, noise.used),
                            swept, sizes.budget, rng=rng)
            record("ASQ", eps, result.model, len(result.queried), result, sweep, c0)
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
    queries = {"PSQ": sizes.public, "ASQ": sizes.budget, "ASQ-MS": sizes.budget}
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
        for row in (*run_["methods"], *run_.get("sweep", ())):
            if row["epsilon"] is not None:
                box = ex_post(row["method"], Fraction(row["epsilon"]), Fraction(row["queries"]))
                row["epsilon_ex_post"] = _interval_json(box)
    def summarise(method: str, eps: Fraction | None, rows: list[dict[str, Any]]) -> dict[str, Any]:
        accs = [m["accuracy"] for m in rows]
        qs = [m["queries"] for m in rows]
        agg: dict[str, Any] = {
            "method": method, "epsilon": None if eps is None else str(eps),
            "accuracy_mean": float(np.mean(accs)), "accuracy_ci95": ci95_half_width(accs),
            "queries_mean": float(np.mean(qs)), "queries_ci95": ci95_half_width(qs),
            "queries_total": int(sum(qs)), "runs": len(rows)}
        read = [m["processed"] for m in rows if "processed" in m]
        if len(read) == len(rows):
            agg["stream_read_mean"] = float(np.mean(read))
            agg["below_budget_runs"] = sum(1 for q in qs if q < sizes.budget)
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
        return agg

    aggregates = []
    for method, eps in _method_keys(config):
        rows = [m for r_ in runs for m in r_["methods"]
                if m["method"] == method and m["epsilon"] == (None if eps is None else str(eps))]
        agg = summarise(method, eps, rows)
        paper = paper_accuracy(name, method, eps) if name in KNOWN_DATASETS else None
        agg["paper"] = None if paper is None else _paper_json(paper, name)
        aggregates.append(agg)
    sweep_aggregates = []
    for c0 in config.c0_sweep:
        for method, eps in (("ASQ-NP", None), ("ASQ", config.sweep_epsilon)):
            rows = [m for r_ in runs for m in r_.get("sweep", ())
                    if m["c0"] == c0 and m["method"] == method]
            sweep_aggregates.append({"c0": c0, **summarise(method, eps, rows)})
    majority = [r_["majority_class_rate"] for r_ in runs]
    nonprivate = [r_["nonprivate_accuracy"] for r_ in runs]
    return {
        "name": name,
        # the file's name, not its machine path: the sha256 identifies it
        "files": [{"path": Path(s.path).name, "rows": s.rows, "sha256": s.sha256}
                  for s in data.sources],
        "rows_in_files": data.rows, "rows_used": sizes.rows, "n_features": data.n_features,
        "sizes": {"private": sizes.private, "public": sizes.public, "test": sizes.test,
                  "teachers": sizes.teachers, "budget": sizes.budget,
                  "delta": str(sizes.delta)},
        "majority_class_rate_mean": float(np.mean(majority)),
        "majority_class_rate_ci95": ci95_half_width(majority),
        "nonprivate_accuracy_mean": float(np.mean(nonprivate)),
        "nonprivate_accuracy_ci95": ci95_half_width(nonprivate),
        "aggregates": aggregates,
        "sweep_aggregates": sweep_aggregates,
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
