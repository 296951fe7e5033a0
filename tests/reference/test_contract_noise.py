"""MechanismContract for the additive integer-noise mechanisms of reference.geometric."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from privref.reference.geometric import (
    discrete_gaussian_mechanism,
    discrete_laplace_mechanism,
    geometric_mechanism,
)
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe

from .contracts import MechanismContract

COUNTS = Universe((0, 1), (1, 2))          # count of ones, substitution, 1-2 records
SYMBOLIC = {"test_sampler_agrees_with_distribution":
            "the exact law is symbolic (query + an infinite-support noise law) with no finite "
            "outcome list to chi-square against; the noise samplers are checked against their "
            "pmfs in tests/reference/test_discrete_noise.py::test_sampler_matches_pmf"}


class TestGeometric(MechanismContract):
    """Two-sided geometric noise, α = 1/2: exact rational law (infinite support, tail-bounded)."""

    constructors = (geometric_mechanism,)
    skips = SYMBOLIC

    def mechanism(self) -> Mechanism[Any]:
        return geometric_mechanism("1/2")

    def universe(self) -> Universe:
        return COUNTS

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0,), (1, 1)]


class TestDiscreteLaplace(MechanismContract):
    """Discrete Laplace of scale 1 (ε = 1): interval enclosures."""

    constructors = (discrete_laplace_mechanism,)
    skips = SYMBOLIC

    def mechanism(self) -> Mechanism[Any]:
        return discrete_laplace_mechanism(1)

    def universe(self) -> Universe:
        return COUNTS

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0,), (1, 1)]


class TestDiscreteGaussian(MechanismContract):
    """Discrete Gaussian σ² = 1 with its (ε, δ) claim: interval enclosures."""

    constructors = (discrete_gaussian_mechanism,)
    skips = SYMBOLIC

    def mechanism(self) -> Mechanism[Any]:
        return discrete_gaussian_mechanism(1)

    def universe(self) -> Universe:
        return Universe((0, 1), (1,))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0,), (1,)]
