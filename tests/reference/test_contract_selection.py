"""MechanismContract for 001 Algorithm 6 (sparse vector), A_SSPP (003 Algorithm 1) and 003 Algorithm 2."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from privref.reference.concepts import thresholds_on
from privref.reference.data import Dataset, labeled, unlabeled
from privref.reference.learners.reduction import (
    DummyDistribution,
    exponential_semi_private_learner,
    reduction,
)
from privref.reference.learners.semiprivate import sspp_learner
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.sparse_vector import sparse_vector

from .contracts import MechanismContract


def count(data: Dataset) -> int:
    """The number of ones: sensitivity 1 under substitution."""
    return sum(1 for x in data if x == 1)


class TestSparseVector(MechanismContract):
    """001 Algorithm 6 (corrected), two queries, cutoff 1, (ε, δ) = (2, 1/10)."""

    constructors = (sparse_vector,)
    samples = 1000

    def mechanism(self) -> Mechanism[Any]:
        return sparse_vector((count,) * 2, 1, Fraction(2), Fraction(1, 10), 1)

    def universe(self) -> Universe:
        return Universe((0, 1), (1,))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0,), (1,)]


class TestSSPP(MechanismContract):
    """A_SSPP over thresholds on 3 points, one public point, ε = 2 ln 2: exact probabilities."""

    constructors = (sspp_learner,)
    samples = 1000

    def mechanism(self) -> Mechanism[Any]:
        return sspp_learner(thresholds_on(3), public_size=1, epsilon="2*ln(2)").mechanism

    def universe(self) -> Universe:
        elements = tuple(labeled(x, y) for x in range(3) for y in (0, 1))
        return Universe(elements, (2,), public=(labeled(1, 0),))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(unlabeled(1), labeled(0, 1), labeled(2, 0)),
                (unlabeled(1), labeled(2, 1))]


class TestReduction(MechanismContract):
    """003 Algorithm 2 over an exponential semi-private learner on thresholds on 2 points."""

    constructors = (reduction,)
    samples = 1000

    def mechanism(self) -> Mechanism[Any]:
        a = exponential_semi_private_learner(thresholds_on(2), base=2, n_priv=3, n_pub=1,
                                             public_weight=1)
        return reduction(a, DummyDistribution.uniform_on((0, 1)))

    def universe(self) -> Universe:
        return Universe(tuple((x, y) for x in (0, 1) for y in (0, 1)), (1,))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [((0, 1),), ((1, 0),)]
