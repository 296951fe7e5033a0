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

  Every fit is lbfgs (deterministic; ``seed`` is passed as random_state), so a run is a
  deterministic function of (rows, budget, slack, C, seed and the labeling service's answers).
  The labeling service is a callable ``label(j) -> 0 | 1`` taking the stream position, so PATE's
  noisy aggregator (001 Algorithm 1 on the teachers' votes at row j) plugs in directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import scipy.sparse
from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]

from privref.reference.citations import Uncited
from privref.reference.errors import InvalidArgument
from privref.reference.learners.pate_teachers import TeacherAssignment
from privref.reference.validate import check_int

__all__ = [
    "ActiveResult",
    "LinearClassifier",
    "active_logistic_student",
    "fit_logistic",
    "logistic_student",
    "row_keys",
    "teacher_votes",
    "train_logistic_teachers",
]

SOURCE: Final = Uncited("001 §5.1 (linear teachers/students, practical active learner); "
                        "ledger entry pending")
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
    X = scipy.sparse.vstack([L, row], format="csr")
    labels = np.append(yL, np.uint8(y))
    weights = np.ones(n + 1)
    weights[n] = n + 1
    h = fit_logistic(X, labels, seed=seed, C=C, weights=weights)
    if int(h.predict(row)[0]) != y:
        return float("inf")
    return float(np.count_nonzero(h.predict(L) != yL)) if n else 0.0


def active_logistic_student(X: Any, label: Callable[[int], int], *, budget: int, seed: int,
                            slack: int = 0, C: float = 1.0) -> ActiveResult:
    """The practical disagreement-based active student of the module docstring (001 §5, in the
    spirit of Yan et al. 2018; the rule is ours).

    Guarantee: at most ``budget`` calls to ``label``, each at a row whose two constrained fits
    are within ``slack`` mistakes of each other; deterministic given the arguments and the
    answers.  Requires budget >= 1, slack >= 0, seed >= 0 and answers in {0, 1}
    (InvalidArgument naming the argument).
    """
    n = _rows(X)
    ell = check_int(budget, "budget", minimum=1)
    gap = check_int(slack, "slack", minimum=0)
    check_int(seed, "seed", minimum=0)
    M = scipy.sparse.csr_matrix(X, dtype=np.float64)
    rows: list[int] = []
    ys: list[int] = []
    queried: list[int] = []
    answers: list[int] = []
    inferred: list[int] = []
    processed = 0
    for j in range(n):
        processed = j + 1
        L, yL = M[rows], np.asarray(ys, dtype=np.uint8)
        e0, e1 = (_mistakes_with(L, yL, M[j], y, seed, C) for y in (0, 1))
        if abs(e0 - e1) > gap:  # true when exactly one is ∞; false (query) when both are
            rows.append(j)
            ys.append(0 if e0 < e1 else 1)
            inferred.append(j)
            continue
        y = label(j)
        if isinstance(y, bool) or y not in (0, 1):
            raise InvalidArgument(f"label({j})={y!r} must be 0 or 1")
        rows.append(j)
        ys.append(int(y))
        queried.append(j)
        answers.append(int(y))
        if len(queried) >= ell:
            break
    model = fit_logistic(M[rows], np.asarray(ys, dtype=np.uint8), seed=seed, C=C)
    return ActiveResult(model, tuple(queried), tuple(answers), tuple(inferred), processed)
