"""002 Theorem 4's hard instance (reference.learners.stability_lower_bound): exact values, bad input.

Expected values are derived by hand in each docstring: D(x_0) = 1 − 4α, D(x_i) = 4α/(d − 1).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from fractions import Fraction

import pytest

from privref.reference.citations import Uncited
from privref.reference.concepts import ConceptClass, explicit, intervals, thresholds_on
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate
from privref.reference.learners.prediction_baselines import subsample_predictor
from privref.reference.learners.stability_lower_bound import (
    expected_loss,
    flip_point,
    hard_instance,
    key_bound,
    minimal_sample_size,
    occurrences,
    population_loss,
    sample_law,
    shattered_points,
    tail_bound,
    target_law,
    targets,
)
from privref.reference.learners.stable_prediction import stable_predictor
from privref.reference.prediction import Predictor, UniformStability
from privref.reference.program import Program

F = Fraction


def all_functions(d: int) -> ConceptClass:
    return explicit(range(d), itertools.product((0, 1), repeat=d), name=f"ALL[{d}]")


def constant_zero() -> Predictor:
    """Always predicts 0: 0-stable."""
    def program(data: Dataset, x: Hashable) -> Program[int]:
        if False:
            yield
        return 0

    return Predictor("zero", program, UniformStability.of(0), Uncited("test fixture"))


def test_instance_masses() -> None:
    """d = 3, α = 1/8: D = (1 − 1/2, (1/2)/2, (1/2)/2) = (1/2, 1/4, 1/4)."""
    inst = hard_instance(3, F(1, 8))
    assert inst.points == (0, 1, 2) and inst.weights == (F(1, 2), F(1, 4), F(1, 4))
    assert sum(inst.weights) == 1 and inst.mass(2) == F(1, 4)
    with pytest.raises(InvalidArgument, match="x=7"):
        inst.mass(7)
    edge = hard_instance(2, F(1, 4))                 # α = 1/4: x_0 has mass 0
    assert edge.weights == (F(0), F(1)) and target_law(edge, (0, 1)) == (((1, 1), F(1)),)


def test_shattered_points_come_from_the_class() -> None:
    """Intervals on 4 points shatter {0, 1} (first pair); thresholds shatter no pair."""
    assert shattered_points(intervals(4), 2) == (0, 1)
    assert hard_instance(2, F(1, 8), intervals(4)).points == (0, 1)
    assert shattered_points(thresholds_on(4), 1) == (0,)
    with pytest.raises(InvalidArgument, match="d=2"):
        hard_instance(2, F(1, 8), thresholds_on(4))


@pytest.mark.parametrize(("call", "name"), [
    (lambda: hard_instance(1, F(1, 8)), "d=1"),
    (lambda: hard_instance(0, F(1, 8)), "d=0"),
    (lambda: hard_instance(2, F(1, 3)), "alpha=1/3"),
    (lambda: hard_instance(2, 0), "alpha=0"),
    (lambda: hard_instance(2, "x"), "alpha"),
    (lambda: key_bound(hard_instance(2, F(1, 8)), 0, F(1, 2)), "n=0"),
    (lambda: key_bound(hard_instance(2, F(1, 8)), 2, F(-1, 2)), "gamma=-1/2"),
    (lambda: sample_law(hard_instance(2, F(1, 8)), (0, 1), 0), "n=0"),
    (lambda: sample_law(hard_instance(2, F(1, 8)), (0, 2), 1), "h="),
    (lambda: expected_loss(hard_instance(2, F(1, 8)), constant_zero(), 0), "n=0"),
    (lambda: minimal_sample_size(2, F(1, 8), 0), "gamma=0"),
    (lambda: minimal_sample_size(1, F(1, 8), F(1, 2)), "d=1"),
])
def test_bad_input_names_the_argument(call: object, name: str) -> None:
    with pytest.raises(InvalidArgument, match=name):
        call()  # type: ignore[operator]


def test_sample_law_and_flip() -> None:
    """S ~ P_h^n lists 2^n ordered datasets at d = 2 (both masses > 0), probabilities summing to 1.

    S^{(i)} flips every label at x_i and is an involution; N_i counts occurrences.
    """
    inst = hard_instance(2, F(1, 8))
    law = sample_law(inst, (1, 0), 3)
    assert len(law) == 8 and sum(p for _, p in law) == 1
    assert dict(law)[((0, 1), (0, 1), (1, 0))] == F(1, 8)
    data = ((0, 1), (1, 0), (0, 1))
    assert flip_point(data, 0) == ((0, 0), (1, 0), (0, 0))
    assert flip_point(flip_point(data, 0), 0) == data
    assert occurrences(data, 0) == 2 and occurrences(data, 1) == 1
    assert len(targets(inst)) == 4
    with pytest.raises(TooLargeToEnumerate, match="n=5"):
        sample_law(inst, (0, 0), 5, limit=10)


def test_bounds_closed_forms() -> None:
    """γ = 0: key bound Σ D/2 = 1/2.  d = 3, α = 1/8, n = 2, γ = 1/2: γnD(x) = D(x), so the
    key bound is Σ D(1 − D)/2 = (1/4 + 3/16 + 3/16)/2 = 5/16 and the tail form is
    2α(1 − 4αγn/(d − 1)) = (1/4)(1 − 1/4) = 3/16 = the i >= 1 terms."""
    inst = hard_instance(3, F(1, 8))
    assert key_bound(inst, 5, 0) == F(1, 2)
    assert key_bound(inst, 2, F(1, 2)) == F(5, 16)
    assert tail_bound(inst, 2, F(1, 2)) == F(3, 16)
    assert key_bound(inst, 100, 1) == 0               # every max(0, ·) is 0


def test_minimal_sample_size_is_where_the_tail_reaches_alpha() -> None:
    """tail <= α ⇔ n >= (d − 1)/(8αγ), exactly, on a grid."""
    for d in (2, 3, 5):
        for alpha in (F(1, 4), F(1, 8), F(1, 20)):
            inst = hard_instance(d, alpha)
            for gamma in (F(1, 10), F(1, 3), F(1)):
                bound = minimal_sample_size(d, alpha, gamma)
                assert bound == F(d - 1) / (8 * alpha * gamma)
                for n in range(1, 60):
                    assert (tail_bound(inst, n, gamma) <= alpha) == (n >= bound)


@pytest.mark.parametrize("d", [2, 3])
def test_b1_with_one_point_attains_the_key_bound(d: int) -> None:
    """B1 with m = 1 on all functions: ERM on one example (x_j, y) returns the first concept
    consistent with it, which is 0 off x_j.  So at x ≠ x_j it predicts 0, wrong iff h(x) = 1
    (probability 1/2 over h), and at x_j it is right: E L = Σ_x D(x)(1 − D(x))/2, which is the
    key bound at γn = 1."""
    alpha = F(1, 8)
    inst = hard_instance(d, alpha)
    want = sum(w * (1 - w) / 2 for w in inst.weights)
    for n in (1, 2, 3):
        loss = expected_loss(inst, subsample_predictor(all_functions(d), n, 1), n)
        assert loss == want == key_bound(inst, n, F(1, n))


def test_constant_predictor_loss() -> None:
    """Predicting 0 is wrong iff h(x) = 1: E L = Σ D/2 = 1/2 for every n; and on one S it is
    the mass of the points labelled 1."""
    inst = hard_instance(3, F(1, 16))
    assert expected_loss(inst, constant_zero(), 2) == F(1, 2)
    assert population_loss(inst, (0, 1, 1), constant_zero(), ((0, 0),)) == F(1, 4)


def test_irrational_laws_are_refused() -> None:
    inst = hard_instance(2, F(1, 8))
    A = stable_predictor(all_functions(2), 2, 1, 1)
    with pytest.raises(InvalidArgument, match="irrational"):
        expected_loss(inst, A, 2)
