"""PATE on real data (paper 001 §5): logistic-regression teachers and students, and a practical
disagreement-based active student, with scikit-learn (kept out of the reference layer).

* :func:`row_keys` gives each example a key from its own content (label and non-zero entries),
  so :func:`~privref.reference.learners.pate_teachers.assign_teachers` assigns it a teacher
  independently of the other rows (one record changes one teacher under add/remove neighbors;
  identical rows share a teacher).
* :func:`train_logistic_teachers` trains one L2-regularized logistic regression per part (lbfgs,
  deterministic); a part with one label (or none) gets the constant classifier of that label
  (0 for an empty part).  :func:`teacher_votes` is Σ_k ĥ_k(x) at each row.
* :func:`logistic_student` fits the student on pseudo-labeled public rows (001 Algorithm 3
  step 4 with a linear model, as in the experiments).
* :func:`active_logistic_student` is a practical disagreement-based active learner for linear
  models.  001's experiments used Yan et al. (2018)'s unpublished code, which "does not keep the
  region of disagreement" and instead calls an ERM oracle; the rule here is our own choice, in
  that spirit (CAL with a logistic-regression oracle):

  1. Read the public stream in order, keeping L = the queried examples Q plus the inferred ones I.
  2. At x_j, for each y ∈ {0, 1} fit h_y on L ∪ {(x_j, y)}, the new example weighted |L| + 1 (a
     surrogate for "the best linear model with h(x_j) = y"), and count e_y = its mistakes on L;
     e_y = ∞ when h_y still does not predict y at x_j (no linear model found with h(x_j) = y).
  3. x_j is in the (approximate) region of disagreement of V = {h : mistakes_L(h) ≤ min + slack}
     iff |e_0 − e_1| ≤ ``slack`` (both labels are nearly as good): then request its label
     (spending one unit of ``budget``) and add it to Q.  Otherwise add (x_j, argmin_y e_y) to I
     (CAL's inferred label).  With L empty both labels are consistent, so the first point is
     queried; if neither constrained fit predicts its label (e_0 = e_1 = ∞), x_j is queried.
  4. Stop at the end of the stream or once ``budget`` labels were spent.  The output is a logistic
     regression fit on L.

  ``rule="agnostic"`` replaces step 3 by an agnostic test in the style of Dasgupta, Hsu and
  Monteleoni (2007, "A general agnostic active learning algorithm", Algorithm 1) with the
  practical threshold of importance-weighted active learning (Beygelzimer, Hsu, Langford, Zhang
  2010, "Agnostic active learning without constraints", Algorithm 1; the form implemented by
  Vowpal Wabbit's ``--active`` reduction): with n = |L| and the error rates r_y = e_y/n, infer
  y = argmin_y r_y only if r_{1−y} − r_y > Δ, where :func:`agnostic_threshold` gives
  Δ = b + √b·(√r_y + √r_{1−y}), b = C0·ln(n + 1)/n (DHM's β_t² + β_t(√err(h_y) + √err(h_{1−y}))
  with β_t² replaced by IWAL's C0·log t/(t − 1), t = n + 1 the stream position); otherwise
  query.  This is our reading of those papers for an ERM oracle on a logistic surrogate, not
  their code.  With L empty, or with both fits infeasible, the point is queried; with exactly one
  infeasible fit the other label is inferred (DHM: no hypothesis labels x_t so).  ``slack`` is
  not used by this rule.  C0 defaults to :data:`AGNOSTIC_C0`.

  Every fit is lbfgs (deterministic; ``seed`` is passed as random_state), so a run is a
  deterministic function of (rows, budget, slack, C, seed and the labeling service's answers).
  The rule has one definition, :func:`active_logistic_program`: a probabilistic program that
  requests the label of stream position j with ``y = yield from service(j)``, so PATE's noisy
  aggregator (001 Algorithm 1 on the teachers' votes at row j, as in 001 Algorithm 5) is a
  random choice of the same program and can be sampled exactly.  :func:`active_logistic_student`
  is the thin wrapper for a plain labeling function ``label(j) -> 0 | 1``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, cast

import numpy as np
import numpy.typing as npt
import scipy.sparse
from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]

from privref.reference.citations import Uncited
from privref.reference.errors import InvalidArgument
from privref.reference.learners.pate_teachers import TeacherAssignment
from privref.reference.program import Program
from privref.reference.validate import check_int

__all__ = [
    "ACTIVE_RULES",
    "AGNOSTIC_C0",
    "DENSE_LIMIT",
    "ActiveResult",
    "ActiveRule",
    "LabelService",
    "LinearClassifier",
    "active_logistic_program",
    "active_logistic_student",
    "agnostic_threshold",
    "fit_logistic",
    "logistic_student",
    "row_keys",
    "teacher_votes",
    "train_logistic_teachers",
]

SOURCE: Final = Uncited("001 §5.1 (linear teachers/students, practical active learner): "
                        "experiment section, not a numbered result")
"""What this module implements: the learners of 001's experiments, no numbered result."""

Labels = npt.NDArray[np.uint8]


@dataclass(frozen=True, eq=False)
class LinearClassifier:
    """x ↦ 1(⟨coef, x⟩ + intercept > 0): a fitted linear model, detached from scikit-learn.

    Guarantee: ``coef`` is read-only; :meth:`predict` returns a read-only 0/1 uint8 vector
    (ties, a score of exactly 0, give 0, as LogisticRegression.predict does).
    """

    coef: npt.NDArray[np.float64]
    intercept: float

    def scores(self, X: Any) -> npt.NDArray[np.float64]:
        """⟨coef, x⟩ + intercept for each row of X (dense array or scipy sparse matrix)."""
        return np.asarray(X @ self.coef, dtype=np.float64).reshape(-1) + self.intercept

    def predict(self, X: Any) -> Labels:
        """The 0/1 label of each row of X."""
        out = (self.scores(X) > 0).astype(np.uint8)
        out.setflags(write=False)
        return out


def _rows(X: Any, name: str = "X") -> int:
    shape = getattr(X, "shape", None)
    if shape is None or len(shape) != 2:
        raise InvalidArgument(f"{name} must be a 2-d array or scipy sparse matrix")
    return int(shape[0])


def _labels(y: object, n: int, name: str = "y") -> Labels:
    arr = np.asarray(y)
    if arr.shape != (n,) or not np.isin(arr, (0, 1)).all():
        raise InvalidArgument(f"{name} must be a vector of {n} labels in {{0, 1}}")
    return arr.astype(np.uint8)


def _constant(width: int, label: int) -> LinearClassifier:
    coef = np.zeros(width)
    coef.setflags(write=False)
    return LinearClassifier(coef, 1.0 if label == 1 else -1.0)


def fit_logistic(X: Any, y: object, *, seed: int, C: float = 1.0,
                 weights: npt.NDArray[np.float64] | None = None) -> LinearClassifier:
    """An L2-regularized logistic regression (lbfgs, ``C``, optional sample ``weights``) fit on (X, y).

    Guarantee: with both labels present, the model of ``LogisticRegression(C=C, solver="lbfgs",
    max_iter=1000, random_state=seed)``; with one label only, the constant classifier of that
    label; with no rows, the constant 0 (the documented fallback for an empty teacher).
    """
    n = _rows(X)
    labels = _labels(y, n)
    check_int(seed, "seed", minimum=0)
    width = int(X.shape[1])
    present = set(np.unique(labels).tolist())
    if len(present) < 2:
        return _constant(width, int(next(iter(present))) if present else 0)
    model = LogisticRegression(C=C, solver="lbfgs", max_iter=1000, random_state=seed)
    model.fit(X, labels, sample_weight=weights)
    coef = np.array(model.coef_[0], dtype=np.float64)
    coef.setflags(write=False)
    return LinearClassifier(coef, float(model.intercept_[0]))


def row_keys(X: Any, y: object) -> tuple[bytes, ...]:
    """One key per row from the row's own content: label, non-zero column indices and values.

    Guarantee: key i depends on row i (and y[i]) only; equal rows with equal labels get equal keys.
    """
    n = _rows(X)
    labels = _labels(y, n)
    M = scipy.sparse.csr_matrix(X, dtype=np.float64)
    M.sum_duplicates()
    M.sort_indices()
    keys = []
    for i in range(n):
        lo, hi = int(M.indptr[i]), int(M.indptr[i + 1])
        cols = np.asarray(M.indices[lo:hi], dtype=np.int64)
        vals = np.asarray(M.data[lo:hi], dtype=np.float64)
        keep = vals != 0
        keys.append(bytes([int(labels[i])]) + cols[keep].tobytes() + b"|" + vals[keep].tobytes())
    return tuple(keys)


def train_logistic_teachers(X: Any, y: object, assignment: TeacherAssignment, *, seed: int,
                            C: float = 1.0) -> tuple[LinearClassifier, ...]:
    """Teacher k = :func:`fit_logistic` on the rows assigned to k (001 Algorithm 3 steps 1–2).

    Guarantee: teacher k depends on part k (and seed, C) only.  Requires one assignment entry
    per row (InvalidArgument naming assignment).
    """
    n = _rows(X)
    labels = _labels(y, n)
    if not isinstance(assignment, TeacherAssignment) or len(assignment.teachers) != n:
        raise InvalidArgument(f"assignment must be a TeacherAssignment covering the {n} rows")
    M = scipy.sparse.csr_matrix(X)
    return tuple(fit_logistic(M[list(part)], labels[list(part)], seed=seed, C=C)
                 for part in assignment.parts())


def teacher_votes(teachers: Sequence[LinearClassifier], X: Any) -> npt.NDArray[np.int64]:
    """Σ_k ĥ_k(x) at each row of X: the vote counts PATE's aggregators read (001 §2)."""
    n = _rows(X)
    total = np.zeros(n, dtype=np.int64)
    for h in teachers:
        total += h.predict(X)
    total.setflags(write=False)
    return total


def logistic_student(X: Any, pseudo_labels: object, *, seed: int, C: float = 1.0) -> LinearClassifier:
    """The student of 001 Algorithm 3 step 4 with a linear model: :func:`fit_logistic` on pseudo-labels."""
    return fit_logistic(X, pseudo_labels, seed=seed, C=C)


@dataclass(frozen=True, eq=False)
class ActiveResult:
    """The outcome of :func:`active_logistic_student`.

    ``model`` the output; ``queried`` the stream positions whose label was requested, in order;
    ``labels`` their answers; ``inferred`` the positions whose label was inferred;
    ``processed`` how many stream rows were read.
    """

    model: LinearClassifier
    queried: tuple[int, ...]
    labels: tuple[int, ...]
    inferred: tuple[int, ...]
    processed: int


def _mistakes_with(L: Any, yL: Labels, row: Any, y: int, seed: int, C: float) -> float:
    """Mistakes on L of the fit on L ∪ {(row, y)} (row weighted |L| + 1); ∞ if it misses (row, y)."""
    n = int(yL.shape[0])
    X = np.vstack([L, row]) if isinstance(L, np.ndarray) else scipy.sparse.vstack([L, row], format="csr")
    labels = np.append(yL, np.uint8(y))
    weights = np.ones(n + 1)
    weights[n] = n + 1
    h = fit_logistic(X, labels, seed=seed, C=C, weights=weights)
    if int(h.predict(row)[0]) != y:
        return float("inf")
    return float(np.count_nonzero(h.predict(L) != yL)) if n else 0.0


ActiveRule = Literal["cal", "agnostic"]
"""The query rule of :func:`active_logistic_program`: ``cal`` (slack test on mistake counts) or
``agnostic`` (DHM/IWAL-style test on error rates, :func:`agnostic_threshold`)."""

ACTIVE_RULES: Final = ("cal", "agnostic")
"""The accepted values of ``rule``."""

AGNOSTIC_C0: Final = 8.0
"""The constant C0 of :func:`agnostic_threshold`: 8, Vowpal Wabbit's default "mellowness" c_0
of its importance-weighted active learner (the practical recommendation for the threshold of
Beygelzimer, Hsu, Langford, Zhang 2010, Algorithm 1); chosen a priori, not from test accuracies."""


def agnostic_threshold(labeled: int, err_best: float, err_other: float,
                       c0: float = AGNOSTIC_C0) -> float:
    """Δ = b + √b·(√err_best + √err_other), b = c0·ln(labeled + 1)/labeled: the threshold of
    the agnostic rule (Dasgupta–Hsu–Monteleoni 2007 Algorithm 1's Δ_t with β_t² = the IWAL
    practical term C0·log t/(t − 1) of Beygelzimer–Hsu–Langford–Zhang 2010, t = labeled + 1; our
    reading).  The error arguments are rates on the labeled set.

    Guarantee: +∞ when ``labeled`` is 0 (nothing to compare, so the point is queried); otherwise
    the float value of the formula (a learner's decision, not a verdict).  Requires labeled >= 0,
    rates in [0, 1] and c0 > 0 finite (InvalidArgument naming the argument).
    """
    n = check_int(labeled, "labeled", minimum=0)
    for name, r in (("err_best", err_best), ("err_other", err_other)):
        if not (isinstance(r, (int, float)) and 0.0 <= r <= 1.0):
            raise InvalidArgument(f"{name}={r!r} must be an error rate in [0, 1]")
    if not (isinstance(c0, (int, float)) and math.isfinite(c0) and c0 > 0):
        raise InvalidArgument(f"c0={c0!r} must be a finite number > 0")
    if n == 0:
        return math.inf
    b = c0 * math.log(n + 1) / n
    return b + math.sqrt(b) * (math.sqrt(err_best) + math.sqrt(err_other))


def _infer(rule: str, e0: float, e1: float, n: int, gap: int, c0: float) -> int | None:
    """The inferred label at a stream point (None: query), from the constrained fits' mistakes."""
    if rule == "cal":
        if abs(e0 - e1) > gap:  # true when exactly one is ∞; false (query) when both are
            return 0 if e0 < e1 else 1
        return None
    if math.isinf(e0) and math.isinf(e1):
        return None
    if math.isinf(e0) or math.isinf(e1):
        return 0 if e0 < e1 else 1
    if n == 0:
        return None
    best = 0 if e0 <= e1 else 1
    r_best, r_other = (e0 / n, e1 / n) if best == 0 else (e1 / n, e0 / n)
    return best if r_other - r_best > agnostic_threshold(n, r_best, r_other, c0) else None


DENSE_LIMIT: Final = 4_000_000
"""The active student works on a dense copy of the stream when rows × columns is at most this
(fits on small dense arrays are faster); above it, on the CSR matrix."""

LabelService = Callable[[int], Program[int]]
"""A labeling service in program form: ``service(j)`` is a program returning the label of
stream position j (001 Algorithm 5's per-query release; ``yield from service(j)``)."""


def active_logistic_program(X: Any, service: LabelService, *, budget: int, seed: int,
                            slack: int = 0, C: float = 1.0, rule: ActiveRule = "cal",
                            c0: float = AGNOSTIC_C0) -> Program[ActiveResult]:
    """The active student of the module docstring as a program that requests labels through
    ``service`` (``y = yield from service(j)``), so PATE's noisy labels (001 Algorithm 5) are
    random choices of one probabilistic program; the rule is ours, in the spirit of Yan et al.
    2018 (001 §5).

    Guarantee: at most ``budget`` requests, in increasing stream order, each at a row where
    ``rule`` does not infer: ``cal``, the two constrained fits are within ``slack`` mistakes of
    each other; ``agnostic``, their error-rate gap is at most :func:`agnostic_threshold` (with
    ``c0``).  Deterministic given the arguments and the answers.  Requires budget >= 1, slack >=
    0, seed >= 0, rule in {cal, agnostic}, c0 > 0 finite (InvalidArgument naming the argument,
    at call time) and answers in {0, 1} (InvalidArgument naming the request, when it is
    answered).
    """
    n = _rows(X)
    ell = check_int(budget, "budget", minimum=1)
    gap = check_int(slack, "slack", minimum=0)
    check_int(seed, "seed", minimum=0)
    if rule not in ACTIVE_RULES:
        raise InvalidArgument(f"rule={rule!r} must be one of {', '.join(ACTIVE_RULES)}")
    agnostic_threshold(1, 0.0, 0.0, c0)  # validates c0
    if not callable(service):
        raise InvalidArgument(f"service={service!r} must be a callable j -> Program[int]")
    M = scipy.sparse.csr_matrix(X, dtype=np.float64)
    data: Any = M.toarray() if n * M.shape[1] <= DENSE_LIMIT else M

    def run() -> Program[ActiveResult]:
        rows: list[int] = []
        ys: list[int] = []
        queried: list[int] = []
        answers: list[int] = []
        inferred: list[int] = []
        processed = 0
        for j in range(n):
            processed = j + 1
            L, yL = data[rows], np.asarray(ys, dtype=np.uint8)
            e0, e1 = (_mistakes_with(L, yL, data[j:j + 1], y, seed, C) for y in (0, 1))
            guess = _infer(rule, e0, e1, len(rows), gap, c0)
            if guess is not None:
                rows.append(j)
                ys.append(guess)
                inferred.append(j)
                continue
            y = yield from service(j)
            if isinstance(y, bool) or y not in (0, 1):
                raise InvalidArgument(f"label({j})={y!r} must be 0 or 1")
            rows.append(j)
            ys.append(int(y))
            queried.append(j)
            answers.append(int(y))
            if len(queried) >= ell:
                break
        model = fit_logistic(data[rows], np.asarray(ys, dtype=np.uint8), seed=seed, C=C)
        return ActiveResult(model, tuple(queried), tuple(answers), tuple(inferred), processed)

    return run()


def _answer(label: Callable[[int], int], j: int) -> Program[int]:
    """A labeling request answered by a plain function: a program with no random choice."""
    return label(j)
    yield  # pragma: no cover  (makes this a generator)


def active_logistic_student(X: Any, label: Callable[[int], int], *, budget: int, seed: int,
                            slack: int = 0, C: float = 1.0, rule: ActiveRule = "cal",
                            c0: float = AGNOSTIC_C0) -> ActiveResult:
    """:func:`active_logistic_program` with a plain labeling function ``label(j) -> 0 | 1``
    (001 §5, the practical active student; the rule is ours, in the spirit of Yan et al. 2018).

    Guarantee: at most ``budget`` calls to ``label``, each at a row where ``rule`` does not
    infer (see :func:`active_logistic_program`); deterministic given the arguments and the
    answers.  Requires budget >= 1, slack >= 0, seed >= 0, a known rule, c0 > 0 and answers in
    {0, 1} (InvalidArgument naming the argument).
    """
    program = active_logistic_program(X, lambda j: _answer(label, j), budget=budget, seed=seed,
                                      slack=slack, C=C, rule=rule, c0=c0)
    try:
        choice = next(program)
    except StopIteration as stop:
        return cast(ActiveResult, stop.value)
    raise InvalidArgument(f"label made a random choice {choice!r}; pass a plain function")  # pragma: no cover
