"""IWAL-CAL (Beygelzimer, Hsu, Langford, Zhang 2010, Algorithm 1) as a program: the query rule,
the importance weights, no training on unrequested labels, the budget.

The rule's right side is recomputed here in 50-digit Decimal arithmetic, independently of the
module's floats, to check the rounding direction of P exactly (P is the smallest multiple of
2^-32 whose right side is <= G).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from privref.proofs.p001.iwal_privacy import ThresholdOracle
from privref.reference.errors import InvalidArgument
from privref.reference.learners import iwal
from privref.reference.learners.iwal import (
    WeightedExample,
    iwal_cal_program,
    iwal_threshold,
    query_probability,
    weighted_gap,
)
from privref.reference.program import Program, sample

STEP = Fraction(1, 1 << 32)


def _rhs_decimal(s: Fraction, k: int, c0: float) -> Decimal:
    """(c1/√s − c1 + 1)√b + (c2/s − c2 + 1)b, b = c0 ln k/(k − 1), c1 = 5 + 2√2, c2 = 5, at 50
    digits (independent of the module)."""
    with localcontext() as ctx:
        ctx.prec = 50
        b = Decimal(c0) * Decimal(k).ln() / (k - 1)
        c1 = 5 + 2 * Decimal(2).sqrt()
        sd = Decimal(s.numerator) / Decimal(s.denominator)
        return (c1 / sd.sqrt() - c1 + 1) * b.sqrt() + (5 / sd - 5 + 1) * b


def _threshold_decimal(k: int, c0: float) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = 50
        b = Decimal(c0) * Decimal(k).ln() / (k - 1)
        return b.sqrt() + b


@pytest.mark.parametrize("k", [2, 7, 50, 600])
@pytest.mark.parametrize("c0", [1e-5, 0.01, 1.0])
def test_probability_is_one_at_or_below_the_threshold(k: int, c0: float) -> None:
    t = iwal_threshold(k, c0)
    assert abs(Decimal(t) - _threshold_decimal(k, c0)) <= Decimal(t) * Decimal('1e-14')
    for gap in (Fraction(0), Fraction(-1, 3), Fraction(t) * Fraction(999, 1000)):
        assert query_probability(gap, k, c0) == 1
    assert query_probability(Fraction(5), 1, c0) == 1  # P_1 = 1
    assert query_probability(math.inf, k, c0) == 0       # no disagreeing hypothesis


@pytest.mark.parametrize("k", [2, 7, 50, 600])
@pytest.mark.parametrize("c0", [1e-5, 0.01, 1.0])
@pytest.mark.parametrize("factor", [Fraction(11, 10), Fraction(3), Fraction(40)])
def test_probability_above_the_threshold_solves_the_equation_rounded_up(
        k: int, c0: float, factor: Fraction) -> None:
    gap = Fraction(iwal_threshold(k, c0)) * factor
    p = query_probability(gap, k, c0)
    assert 0 < p < 1 and (p / STEP).denominator == 1        # dyadic, strictly inside (0, 1)
    g = Decimal(gap.numerator) / Decimal(gap.denominator)
    assert _rhs_decimal(p, k, c0) <= g                        # rounded up: rhs(P) <= G
    assert p == STEP or _rhs_decimal(p - STEP, k, c0) > g     # the smallest such grid point
    assert abs(iwal.iwal_rhs(float(p), k, c0) - float(gap)) <= 1e-6 * float(gap) + 1e-9


def test_probability_decreases_with_the_gap() -> None:
    t = Fraction(iwal_threshold(30, 0.01))
    ps = [query_probability(t * f, 30, 0.01) for f in (2, 4, 8, 16)]
    assert ps == sorted(ps, reverse=True) and len(set(ps)) == 4


def test_bad_arguments() -> None:
    with pytest.raises(InvalidArgument, match="c0"):
        query_probability(Fraction(1), 3, 0.0)
    with pytest.raises(InvalidArgument, match="k="):
        iwal_threshold(0, 1.0)
    with pytest.raises(InvalidArgument, match="probability"):
        WeightedExample(0, 1, Fraction(0))
    with pytest.raises(InvalidArgument, match="budget"):
        iwal_cal_program(3, lambda j: _plain(0), ThresholdOracle(3), budget=0, c0=1.0)


def test_weighted_gap_is_exact() -> None:
    ex = [WeightedExample(0, 1, Fraction(1, 4)), WeightedExample(2, 0, Fraction(1)),
          WeightedExample(5, 1, Fraction(1, 2))]
    # h right on all; h' wrong at 0 (weight 4) and right elsewhere; k - 1 = 6 points seen
    assert weighted_gap(ex, [1, 0, 1], [0, 0, 1], 7) == Fraction(4, 6)
    # h wrong at 5 (weight 2), h' right there: the gap is negative
    assert weighted_gap(ex, [1, 0, 0], [1, 0, 1], 7) == Fraction(-2, 6)


def _plain(y: int) -> Program[int]:
    return y
    yield  # pragma: no cover


class _Spy:
    """ThresholdOracle recording every fit's examples and constraint."""

    def __init__(self, points: int) -> None:
        self.inner = ThresholdOracle(points)
        self.calls: list[tuple[tuple[WeightedExample, ...], tuple[int, int] | None]] = []

    def fit(self, examples: Sequence[WeightedExample], forced: tuple[int, int] | None) -> int | None:
        self.calls.append((tuple(examples), forced))
        return self.inner.fit(examples, forced)

    def predict(self, h: int, positions: Sequence[int]) -> Sequence[int]:
        return self.inner.predict(h, positions)


def _noisy_labels(n: int, seed: int) -> list[int]:
    rng = np.random.default_rng(seed)
    return [int((j >= n // 2) != (rng.random() < 0.15)) for j in range(n)]


def _run(n: int, budget: int, c0: float, seed: int) -> tuple[Any, _Spy, list[int], list[int]]:
    labels = _noisy_labels(n, seed)
    asked: list[int] = []

    def service(j: int) -> Program[int]:
        asked.append(j)
        return _plain(labels[j])

    spy = _Spy(n)
    run = sample(lambda: iwal_cal_program(n, service, spy, budget=budget, c0=c0),
                 rng=np.random.default_rng(seed))
    return run, spy, labels, asked


def test_weights_are_one_over_p_and_only_requested_labels_are_trained_on() -> None:
    run, spy, labels, asked = _run(40, 40, 0.01, 3)
    assert list(run.queried) == asked and len(asked) < 40            # the coins skipped points
    assert any(e.probability < 1 for e in run.examples)                # some label carries 1/P > 1
    for e in run.examples:
        assert e.weight == 1 / e.probability                           # exactly 1/P
        assert e.probability == run.probabilities[e.position]          # the P of its coin
        assert e.label == labels[e.position]
    requested = {(e.position, e.label, e.probability) for e in run.examples}
    for examples, forced in spy.calls:                                  # never an inferred label
        assert {(e.position, e.label, e.probability) for e in examples} <= requested
        assert forced is None or forced[0] not in {e.position for e in examples}
    assert spy.calls[-1] == (run.examples, None)                       # output = ERM(S)
    assert run.model == ThresholdOracle(40).fit(run.examples, None)


def test_the_budget_stops_the_run() -> None:
    for c0 in (0.01, 100.0):
        run, _, _, asked = _run(40, 5, c0, 4)
        assert len(asked) == 5 == len(run.queried) and run.processed == run.queried[-1] + 1
        assert run.processed < 40


def test_large_c0_queries_every_point() -> None:
    run, _, _, asked = _run(25, 25, 100.0, 5)
    assert asked == list(range(25)) and all(p == 1 for p in run.probabilities)


def test_importance_weights_enter_the_gap() -> None:
    """A label requested at P = 1/4 counts 4 times in G (the ERM is exact on thresholds): forcing
    h(x_0) = 1 makes every threshold wrong at positions 0 and 1, so G = (4 + 1)/2 at P_0 = 1/4
    against (1 + 1)/2 at P_0 = 1."""
    oracle = ThresholdOracle(4)
    for p0, expected in ((Fraction(1, 4), Fraction(5, 2)), (Fraction(1), Fraction(1))):
        exs = [WeightedExample(0, 0, p0), WeightedExample(1, 0, Fraction(1))]
        h, other = oracle.fit(exs, None), oracle.fit(exs, (0, 1))
        assert h is not None and other is not None
        assert weighted_gap(exs, oracle.predict(h, [0, 1]), oracle.predict(other, [0, 1]), 3) \
            == expected
