"""Active students for 001's PATE-ASQ on real data: IWAL-CAL with a logistic-regression ERM
oracle (the paper's method family), and pool-based margin sampling (NOT the paper's method).

* :func:`iwal_logistic_program` is :func:`privref.reference.learners.iwal.iwal_cal_program`
  (Beygelzimer, Hsu, Langford, Zhang 2010, Algorithm 1) with :class:`LogisticOracle`: the ERM
  oracle is an importance-weighted L2 logistic regression (lbfgs, the surrogate of the 0/1 ERM),
  and "the ERM constrained to disagree with h_k at x_k" is the same fit with x_k added at the
  other label and a weight larger than all of S together (Σ 1/P_i + 1); when that fit still
  agrees with h_k at x_k the oracle reports no such hypothesis, G_k = +∞ and P_k = 0 (the point
  is skipped: treated as outside the region of disagreement; its label is neither requested nor
  inferred).  This is the practical family 001 §5.1 cites (Yan et al. 2018 build on IWAL with an
  ERM oracle); it is our implementation, not the authors' code.
* :func:`margin_sampling_program` is pool-based margin (uncertainty) sampling: request the label
  of the public point with the smallest |⟨w, x⟩ + b| of the logistic regression fit on the labels
  received so far (ties: the lowest stream position), until ``budget`` labels; while the labels
  received are all of one class (or none), the model is constant and every |score| ties, so the
  first requests are the first stream positions (the public part is a uniformly random sample in
  a random order, so these are random points).  NOT the paper's method: a second student, for
  comparison only.

Both train only on labels they requested (no inferred labels), request at most ``budget``
labels, and read only the public rows, their own coins and the answers: under 001 Algorithm 5
they are post-processing of at most ℓ released labels (ledger ``proofs.p001.iwal_privacy``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

import numpy as np
import scipy.sparse

from privref.reference.citations import Uncited
from privref.reference.errors import InvalidArgument
from privref.reference.learners.iwal import IwalRun, WeightedExample, iwal_cal_program
from privref.reference.program import Program
from privref.reference.validate import check_int

from .pate_students_sklearn import DENSE_LIMIT, LabelService, LinearClassifier, fit_logistic

__all__ = [
    "IWAL_C0",
    "IWAL_C0_GRID",
    "IWAL_C0_RULE",
    "IWAL_GAPS",
    "LogisticOracle",
    "MarginResult",
    "importance_weights",
    "iwal_logistic_program",
    "margin_sampling_program",
]

SOURCE: Final = Uncited("001 §5.1's active student (IWAL-CAL, Beygelzimer et al. 2010 Algorithm 1, "
                        "with a logistic oracle) and margin sampling (not the paper's): experiment "
                        "section, not a numbered result")
"""What this module implements: the experiments' active students, no numbered result."""

IWAL_GAPS: Final = ("logistic", "01")
"""How G_k is measured: ``logistic`` (the oracle's surrogate loss, importance-weighted) or
``01`` (the importance-weighted 0/1 error of Algorithm 1 as printed)."""

IWAL_C0_GRID: Final = (1e-6, 1e-5, 1e-4, 1e-3, 1e-2)
"""The C0 values of the reported sweep: five values over four orders of magnitude."""

IWAL_C0: Final = 1e-5
"""IWAL-CAL's C0 for Table 4 (:data:`IWAL_C0_RULE` says how it was fixed)."""

IWAL_C0_RULE: Final = (
    "C0 fixed before any private run and without test accuracies: the largest value of the grid "
    "1e-6, 1e-5, 1e-4, 1e-3, 1e-2 at which ASQ-NP (exact majority labels, no privacy) on "
    "mushroom, seed 1 (not the reported seed), 10 runs, spends on average fewer labels than the "
    "budget, i.e. reaches the end of its stream before the budget binds, as the paper's ASQ-NP "
    "rows do (47.3 of 49); measured: 1e-4 spends 49 of 49 (reads 125.8 of 163 points), 1e-5 "
    "spends 32.7 (reads all 163)")
"""The documented rule that fixed :data:`IWAL_C0` (recorded in the table4 JSON)."""


def _data(X: Any) -> Any:
    M = scipy.sparse.csr_matrix(X, dtype=np.float64)
    return M.toarray() if M.shape[0] * M.shape[1] <= DENSE_LIMIT else M


class LogisticOracle:
    """IWAL-CAL's ERM oracle on the public rows X: importance-weighted logistic regression
    (:func:`fit_logistic`, weights 1/P as floats), constrained fits by a dominant weight on the
    forced point (module docstring); None when the constrained fit misses the forced label."""

    def __init__(self, X: Any, *, seed: int, C: float = 1.0) -> None:
        """Keep a dense (small) or CSR copy of X, the lbfgs seed and C."""
        self.data = _data(X)
        self.seed = check_int(seed, "seed", minimum=0)
        self.C = C

    def _rows(self, positions: Sequence[int]) -> Any:
        return self.data[list(positions)]

    def fit(self, examples: Sequence[WeightedExample],
            forced: tuple[int, int] | None) -> LinearClassifier | None:
        """The weighted fit on ``examples``, with ``forced`` = (position, label) weighted
        Σ 1/P + 1 if given (None if the fit then does not predict that label there)."""
        positions = [e.position for e in examples]
        labels = [e.label for e in examples]
        weights = [float(e.weight) for e in examples]
        if forced is not None:
            positions.append(forced[0])
            labels.append(forced[1])
            weights.append(sum(weights) + 1.0)
        width = int(self.data.shape[1])
        if not positions:
            return fit_logistic(np.zeros((0, width)), np.zeros(0, dtype=np.uint8), seed=self.seed,
                                C=self.C)
        h = fit_logistic(self._rows(positions), np.asarray(labels, dtype=np.uint8), seed=self.seed,
                         C=self.C, weights=np.asarray(weights, dtype=np.float64))
        if forced is not None and int(h.predict(self._rows([forced[0]]))[0]) != forced[1]:
            return None
        return h

    def surrogate_gap(self, h: LinearClassifier, other: LinearClassifier,
                      examples: Sequence[WeightedExample], k: int) -> float:
        """(1/(k − 1)) Σ_i (1/P_i)(ℓ(h', z_i) − ℓ(h, z_i)), ℓ the logistic loss
        log(1 + e^{−(2y − 1)·score}): IWAL's gap measured in the oracle's own surrogate loss."""
        if not examples:
            return 0.0
        rows = self._rows([e.position for e in examples])
        sign = np.asarray([2 * e.label - 1 for e in examples], dtype=np.float64)
        weights = np.asarray([float(e.weight) for e in examples], dtype=np.float64)
        loss_h = np.logaddexp(0.0, -sign * h.scores(rows))
        loss_o = np.logaddexp(0.0, -sign * other.scores(rows))
        return float(np.dot(weights, loss_o - loss_h)) / (k - 1)

    def predict(self, h: LinearClassifier, positions: Sequence[int]) -> Sequence[int]:
        """h's labels at the stream positions."""
        if not positions:
            return []
        return [int(v) for v in h.predict(self._rows(positions))]


def iwal_logistic_program(X: Any, service: LabelService, *, budget: int, seed: int,
                          c0: float = IWAL_C0, C: float = 1.0,
                          gap: str = "logistic") -> Program[IwalRun[LinearClassifier]]:
    """IWAL-CAL (Beygelzimer et al. 2010, Algorithm 1) on the rows of X in order, with
    :class:`LogisticOracle`, requesting labels through ``service`` (001 Algorithm 5's service).

    Guarantee: that of :func:`~privref.reference.learners.iwal.iwal_cal_program` (at most
    ``budget`` requests, exact coins at dyadic P rounded up, weights exactly 1/P, no inferred
    labels); deterministic given the arguments, the coins and the answers.  InvalidArgument names
    budget, seed or c0.
    """
    n = int(getattr(X, "shape", (0,))[0])
    check_int(seed, "seed", minimum=0)
    if gap not in IWAL_GAPS:
        raise InvalidArgument(f"gap={gap!r} must be one of {', '.join(IWAL_GAPS)}")
    oracle = LogisticOracle(X, seed=seed, C=C)
    return iwal_cal_program(n, service, oracle, budget=budget, c0=c0,
                            gap=oracle.surrogate_gap if gap == "logistic" else None)


@dataclass(frozen=True, eq=False)
class MarginResult:
    """The outcome of :func:`margin_sampling_program`: the model fit on the requested labels,
    the requested positions in request order, their answers, and their |score| when requested
    (None while the model was constant)."""

    model: LinearClassifier
    queried: tuple[int, ...]
    labels: tuple[int, ...]
    margins: tuple[float | None, ...]


def margin_sampling_program(X: Any, service: LabelService, *, budget: int,
                            seed: int, C: float = 1.0) -> Program[MarginResult]:
    """Pool-based margin sampling (NOT 001's method; module docstring) on the rows of X,
    requesting labels through ``service``.

    Guarantee: exactly min(budget, rows) requests at distinct positions, each the unrequested
    row of smallest |score| under the logistic fit on the answers so far (ties and a constant
    model: the lowest position); the output is the fit on the requested labels only;
    deterministic given the arguments and the answers.  InvalidArgument names budget or seed.
    """
    data = _data(X)
    n = int(data.shape[0])
    ell = check_int(budget, "budget", minimum=1)
    check_int(seed, "seed", minimum=0)

    def fit(queried: list[int], labels: list[int]) -> LinearClassifier:
        if not queried:
            return fit_logistic(np.zeros((0, int(data.shape[1]))), np.zeros(0, dtype=np.uint8),
                                seed=seed, C=C)
        return fit_logistic(data[queried], np.asarray(labels, dtype=np.uint8), seed=seed, C=C)

    def run() -> Program[MarginResult]:
        queried: list[int] = []
        labels: list[int] = []
        margins: list[float | None] = []
        free = np.ones(n, dtype=bool)
        model = fit(queried, labels)
        while len(queried) < min(ell, n):
            if len(set(labels)) < 2:
                j = int(np.flatnonzero(free)[0])
                margin: float | None = None
            else:
                score = np.abs(model.scores(data))
                score[~free] = np.inf
                j = int(np.argmin(score))
                margin = float(score[j])
            y = yield from service(j)
            if isinstance(y, bool) or y not in (0, 1):
                raise InvalidArgument(f"label({j})={y!r} must be 0 or 1")
            free[j] = False
            queried.append(j)
            labels.append(int(y))
            margins.append(margin)
            model = fit(queried, labels)
        return MarginResult(model, tuple(queried), tuple(labels), tuple(margins))

    return run()


def importance_weights(run: IwalRun[Any]) -> tuple[Fraction, ...]:
    """The weights 1/P of an IWAL run's queried labels, in request order (exact)."""
    return tuple(e.weight for e in run.examples)
