"""001 Table 4's ε_ex_post column, reproduced with certified enclosures.

The paper (001 Section 5) calibrates the Gaussian noise σ of Algorithm 1 with the analytic
Gaussian mechanism for the query budget q at (ε, δ = 1/n), n the number of private (teacher)
points of its Table 3, then reports ε_ex_post: the ε at δ after the q_actual queries a run
really asked (an average over 30 runs, printed to one decimal).  :func:`reproduce` recomputes
every private row: the printed ε_ex_post must lie between the enclosure of ε at q_actual − h and
at q_actual + h, h half a unit of q_actual's last printed digit (ε grows with the query count).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from privref.reference.accounting import calibrate_sigma, epsilon_ex_post
from privref.reference.reals import Interval

__all__ = ["ACCURACY", "PAPER_TRAIN", "ROWS", "AccuracyRow", "Reproduction", "Row", "calibrated_sigma",
           "paper_accuracy", "reproduce",
           "reproduce_all"]

PAPER_TRAIN: dict[str, int] = {"mushroom": 6499, "a9a": 39073, "real-sim": 57847}
"""n = # Train of 001 Table 3 (the paper's private points; δ = 1/n).  a9a here is the paper's
48,842-row version (LIBSVM train + test), not the 32,561-row Adult training file."""

BUDGET: dict[tuple[str, str], int] = {
    ("mushroom", "PSQ"): 163, ("mushroom", "ASQ"): 49,
    ("a9a", "PSQ"): 977, ("a9a", "ASQ"): 293,
    ("real-sim", "PSQ"): 1447, ("real-sim", "ASQ"): 434,
}
"""The query budget σ is calibrated for: PSQ labels all # Unlabeled points, ASQ # Budget (Table 3)."""


@dataclass(frozen=True)
class Row:
    """One private row of 001 Table 4 as printed: q_actual as its text, ε and ε_ex_post exact."""

    dataset: str
    method: str
    queries_printed: str
    epsilon: Fraction
    epsilon_ex_post: Fraction

    @property
    def budget(self) -> int:
        """The query budget the paper calibrated σ for."""
        return BUDGET[(self.dataset, self.method)]

    @property
    def half_unit(self) -> Fraction:
        """Half a unit of the last printed digit of q_actual (1/2 for an integer, 1/20 for 40.1)."""
        text = self.queries_printed.replace(",", "")
        decimals = len(text.split(".")[1]) if "." in text else 0
        return Fraction(1, 2 * 10**decimals)

    @property
    def queries(self) -> Fraction:
        """q_actual as printed (an average over the runs)."""
        return Fraction(self.queries_printed.replace(",", ""))


def _row(dataset: str, method: str, q: str, eps: str, ex_post: str) -> Row:
    return Row(dataset, method, q, Fraction(eps), Fraction(ex_post))


ROWS: tuple[Row, ...] = (
    _row("mushroom", "PSQ", "163", "0.5", "0.5"),
    _row("mushroom", "ASQ", "40.1", "0.5", "0.4461"),
    _row("mushroom", "PSQ", "163", "1.0", "1.0"),
    _row("mushroom", "ASQ", "42.9", "1.0", "0.9267"),
    _row("mushroom", "PSQ", "163", "2.0", "2.0"),
    _row("mushroom", "ASQ", "46.5", "2.0", "1.9410"),
    _row("a9a", "PSQ", "977", "0.5", "0.5"),
    _row("a9a", "ASQ", "293", "0.5", "0.5"),
    _row("a9a", "PSQ", "977", "1.0", "1.0"),
    _row("a9a", "ASQ", "290.8", "1.0", "0.9958"),
    _row("a9a", "PSQ", "977", "2.0", "2.0"),
    _row("a9a", "ASQ", "290.3", "2.0", "1.9896"),
    _row("real-sim", "PSQ", "1,447", "0.5", "0.5"),
    _row("real-sim", "ASQ", "434", "0.5", "0.5"),
    _row("real-sim", "PSQ", "1,447", "1.0", "1.0"),
    _row("real-sim", "ASQ", "434", "1.0", "1.0"),
    _row("real-sim", "PSQ", "1,447", "2.0", "2.0"),
    _row("real-sim", "ASQ", "434", "2.0", "2.0"),
)
"""The 18 private rows of 001 Table 4 (the ε = +∞ rows have no accounting), copied exactly."""

TOLERANCE = Fraction(1, 1 << 24)
"""Relative width of the bisections here: ε to about 10⁻⁷, far below the 4 printed digits."""


@dataclass(frozen=True)
class Reproduction:
    """One row recomputed: σ's enclosure and ε's enclosures at q_actual − h and q_actual + h."""

    row: Row
    sigma: Interval
    epsilon_low: Interval
    epsilon_high: Interval

    @property
    def reproduced(self) -> bool:
        """True when the printed ε_ex_post is proved to lie in [ε(q − h).lo, ε(q + h).hi]."""
        return self.epsilon_low.lo <= self.row.epsilon_ex_post <= self.epsilon_high.hi


@lru_cache(maxsize=64)
def _sigma(budget: int, epsilon: Fraction, n: int) -> Interval:
    return calibrate_sigma(budget, epsilon, Fraction(1, n), TOLERANCE)


def calibrated_sigma(row: Row) -> Interval:
    """[σ_lo, σ_hi] for the row's budget at (ε, δ = 1/n) (Balle-Wang 2018; 001 Section 5), cached."""
    return _sigma(row.budget, row.epsilon, PAPER_TRAIN[row.dataset])


def reproduce(row: Row) -> Reproduction:
    """Recompute one row of 001 Table 4 (Section 5; Balle-Wang 2018 Theorem 8 accounting)."""
    sigma = calibrated_sigma(row)
    delta = Fraction(1, PAPER_TRAIN[row.dataset])
    low = epsilon_ex_post(sigma, row.queries - row.half_unit, delta, TOLERANCE)
    high = epsilon_ex_post(sigma, row.queries + row.half_unit, delta, TOLERANCE)
    return Reproduction(row, sigma, low, high)


def reproduce_all() -> tuple[Reproduction, ...]:
    """Every private row of 001 Table 4, recomputed."""
    return tuple(reproduce(row) for row in ROWS)


@dataclass(frozen=True)
class AccuracyRow:
    """One row of 001 Table 4 as printed, with its accuracy column.

    ``epsilon`` is None for the non-private rows (ε = +∞); ``queries`` and ``queries_ci`` are the
    printed # Queries and its ± half-width (None when none is printed); ``accuracy`` and
    ``accuracy_ci`` are the printed accuracy and its ± half-width (the caption calls it
    mean ± 1.96 × standard_error/√30, a "98%" interval; 1.96 is the 95% quantile).
    """

    dataset: str
    method: str
    epsilon: Fraction | None
    queries: Fraction
    queries_ci: Fraction | None
    accuracy: Fraction
    accuracy_ci: Fraction


def _acc(dataset: str, method: str, eps: str | None, q: str, acc: str) -> AccuracyRow:
    q_mean, _, q_ci = q.replace(",", "").partition("±")
    a_mean, _, a_ci = acc.partition("±")
    return AccuracyRow(dataset, method, None if eps is None else Fraction(eps),
                       Fraction(q_mean.strip()), Fraction(q_ci.strip()) if q_ci else None,
                       Fraction(a_mean.strip()), Fraction(a_ci.strip()))


ACCURACY: tuple[AccuracyRow, ...] = (
    _acc("mushroom", "PSQ-NP", None, "163", "0.9773±0.0006"),
    _acc("mushroom", "ASQ-NP", None, "47.3±0.2", "0.9146±0.0036"),
    _acc("mushroom", "PSQ", "0.5", "163", "0.6416±0.0036"),
    _acc("mushroom", "ASQ", "0.5", "40.1±0.7", "0.6418±0.0091"),
    _acc("mushroom", "PSQ", "1.0", "163", "0.7534±0.0045"),
    _acc("mushroom", "ASQ", "1.0", "42.9±0.5", "0.7727±0.0098"),
    _acc("mushroom", "PSQ", "2.0", "163", "0.8974±0.0027"),
    _acc("mushroom", "ASQ", "2.0", "46.5±0.3", "0.8858±0.0059"),
    _acc("a9a", "PSQ-NP", None, "977", "0.5555±0.0157"),
    _acc("a9a", "ASQ-NP", None, "225.6±5.0", "0.5461±0.0160"),
    _acc("a9a", "PSQ", "0.5", "977", "0.5040±0.0034"),
    _acc("a9a", "ASQ", "0.5", "293", "0.5212±0.0088"),
    _acc("a9a", "PSQ", "1.0", "977", "0.5171±0.0050"),
    _acc("a9a", "ASQ", "1.0", "290.8±0.8", "0.5369±0.0103"),
    _acc("a9a", "PSQ", "2.0", "977", "0.5176±0.0070"),
    _acc("a9a", "ASQ", "2.0", "290.3±0.9", "0.5543±0.0089"),
    _acc("real-sim", "PSQ-NP", None, "1,447", "0.8234±0.0014"),
    _acc("real-sim", "ASQ-NP", None, "434", "0.8289±0.0008"),
    _acc("real-sim", "PSQ", "0.5", "1,447", "0.6355±0.0065"),
    _acc("real-sim", "ASQ", "0.5", "434", "0.7389±0.0014"),
    _acc("real-sim", "PSQ", "1.0", "1,447", "0.7550±0.0058"),
    _acc("real-sim", "ASQ", "1.0", "434", "0.8040±0.0009"),
    _acc("real-sim", "PSQ", "2.0", "1,447", "0.8025±0.0037"),
    _acc("real-sim", "ASQ", "2.0", "434", "0.8231±0.0009"),
)
"""All 24 rows of 001 Table 4 (Section 5.2) with # Queries and Accuracy, copied exactly."""


def paper_accuracy(dataset: str, method: str, epsilon: Fraction | None) -> AccuracyRow | None:
    """The printed 001 Table 4 row for (dataset, method, ε) (ε None for the NP rows), or None."""
    for row in ACCURACY:
        if (row.dataset, row.method, row.epsilon) == (dataset, method, epsilon):
            return row
    return None
