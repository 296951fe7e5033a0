"""MechanismContract for PATE (001 Algorithms 1, 2, 3, 5) and distance-to-instability (Algorithm 7)."""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from privref.reference.concepts import thresholds_on
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.pate import (
    gaussian_pate,
    gaussian_pate_at,
    printed_gaussian_pate,
    printed_svt_pate,
    svt_pate,
    svt_pate_at,
)
from privref.reference.pate_learning import asq_mechanism, gaussian_aggregator, psq_mechanism
from privref.reference.stability_release import distance_to_instability

from .contracts import MechanismContract

DELTA = Fraction(1, 10)
ONE_QUERY = Universe(tuple(itertools.product((0, 1), repeat=1)), (2, 3))   # K = 2-3 teachers, ℓ = 1
TEACHERS = [((0,), (0,), (1,)), ((1,), (1,))]

C = thresholds_on(2)
RECORDS = ((0, 0), (0, 1), (1, 0), (1, 1))
LEARNING = Universe(RECORDS, (0, 1, 2))                                  # add/remove neighbors
PUBLIC = (0, 1)


def _zero(j: int, g: Fraction) -> int:
    return 0


class TestGaussianPateAt(MechanismContract):
    """001 Algorithm 1 with σ² = 1, one query: interval enclosures."""

    constructors = (gaussian_pate_at,)
    samples = 1000

    def mechanism(self) -> Mechanism[Any]:
        return gaussian_pate_at(1, 1, DELTA)

    def universe(self) -> Universe:
        return ONE_QUERY

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return list(TEACHERS)


class TestGaussianPate(MechanismContract):
    """001 Algorithm 1 calibrated by its Step 1 (ε = 1, δ = 1/10), one query."""

    constructors = (gaussian_pate,)
    samples = 1000

    def mechanism(self) -> Mechanism[Any]:
        return gaussian_pate(1, 1, DELTA)

    def universe(self) -> Universe:
        return ONE_QUERY

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return list(TEACHERS)


class TestSvtPateAt(MechanismContract):
    """001 Algorithm 2 with t = 1/2, w = 1, T = 1, one query."""

    constructors = (svt_pate_at,)
    samples = 1000

    def mechanism(self) -> Mechanism[Any]:
        return svt_pate_at(1, Fraction(1, 2), 1, 1)

    def universe(self) -> Universe:
        return ONE_QUERY

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return list(TEACHERS)


class TestSvtPate(MechanismContract):
    """001 Algorithm 2 with its own calibration (ε = 1, δ = 1/10), one query."""

    constructors = (svt_pate,)
    samples = 1000

    def mechanism(self) -> Mechanism[Any]:
        return svt_pate(1, 1, 1, DELTA)

    def universe(self) -> Universe:
        return ONE_QUERY

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return list(TEACHERS)


class TestPrintedGaussianPate(MechanismContract):
    """001 Algorithm 1 as printed: continuous N(0, σ²), Step 1's exact σ, one query."""

    constructors = (printed_gaussian_pate,)
    samples = 1000

    def mechanism(self) -> Mechanism[Any]:
        return printed_gaussian_pate(1, 1, DELTA)

    def universe(self) -> Universe:
        return ONE_QUERY

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return list(TEACHERS)


class TestPrintedSvtPate(MechanismContract):
    """001 Algorithm 2 as printed: continuous Lap(λ), Lap(2λ), exact λ and w, one query."""

    constructors = (printed_svt_pate,)
    samples = 1000

    def mechanism(self) -> Mechanism[Any]:
        return printed_svt_pate(1, 1, 1, DELTA)

    def universe(self) -> Universe:
        return ONE_QUERY

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return list(TEACHERS)


class TestPsq(MechanismContract):
    """001 Algorithm 3 (PATE-PSQ), K = 2 teachers, discrete Gaussian aggregator."""

    constructors = (psq_mechanism,)
    samples = 1000

    def mechanism(self) -> Mechanism[Any]:
        return psq_mechanism(C, PUBLIC, 2, 0, gaussian_aggregator(Fraction(1, 2), DELTA))

    def universe(self) -> Universe:
        return LEARNING

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(), ((0, 1), (1, 0))]


class TestAsq(MechanismContract):
    """001 Algorithm 5 (PATE-ASQ), K = 2 teachers, budget 1, discrete Gaussian aggregator."""

    constructors = (asq_mechanism,)
    samples = 1000

    def mechanism(self) -> Mechanism[Any]:
        return asq_mechanism(C, PUBLIC, 2, 0, 1, _zero, gaussian_aggregator(Fraction(1, 2), DELTA))

    def universe(self) -> Universe:
        return LEARNING

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(), ((0, 1), (1, 0))]


class TestDistanceToInstability(MechanismContract):
    """001 Algorithm 7 at (ε, δ) = (1, 1/10) over 3 votes."""

    constructors = (distance_to_instability,)
    samples = 1000

    def mechanism(self) -> Mechanism[Any]:
        return distance_to_instability(1, DELTA)

    def universe(self) -> Universe:
        return Universe((0, 1), (3,))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0, 0, 1), (1, 1, 1)]
