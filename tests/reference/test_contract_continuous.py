"""MechanismContract for the continuous-noise textbook mechanisms (Dwork–Roth 2014; the Laplace
and Gaussian mechanisms' released values)."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from privref.reference.continuous_release import gaussian_mechanism, laplace_mechanism
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import LInf, Universe, answer, answer_query
from privref.reference.noisy_max import report_noisy_max_laplace
from privref.reference.sparse_vector import above_threshold

from .contracts import MechanismContract

VECTORS = Universe((0, 1), (3,))             # query-answer vectors under l-infinity


class TestReportNoisyMaxLaplace(MechanismContract):
    """Report noisy max with Lap(2/ε), ε = 1, three answers: closed-form enclosures."""

    constructors = (report_noisy_max_laplace,)

    def mechanism(self) -> Mechanism[Any]:
        return report_noisy_max_laplace(range(3), answer, epsilon=1, relation=LInf())

    def universe(self) -> Universe:
        return VECTORS

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0, 0, 0), (0, 1, 1), (1, 0, 1)]


class TestAboveThreshold(MechanismContract):
    """AboveThreshold with Lap(2/ε), Lap(4/ε), ε = 1/2, threshold 1/2: closed-form enclosures."""

    constructors = (above_threshold,)

    def mechanism(self) -> Mechanism[Any]:
        queries = tuple(answer_query(i) for i in range(3))
        return above_threshold(queries, Fraction(1, 2), Fraction(1, 2), relation=LInf())

    def universe(self) -> Universe:
        return VECTORS

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0, 0, 0), (1, 1, 1), (0, 1, 0)]


_RELEASED = {"test_sampler_agrees_with_distribution":
             "a released continuous value has no finite law to chi-square against; the "
             "sampler's tail frequencies are checked in tests/audits/test_released.py"}
SUMS = Universe((0, 1), (1, 2))              # bounded sums, one or two records


class TestLaplaceMechanism(MechanismContract):
    """The Laplace mechanism, ε = 1: the released value decided from the density ratio."""

    constructors = (laplace_mechanism,)
    skips = _RELEASED

    def mechanism(self) -> Mechanism[Any]:
        return laplace_mechanism(1)

    def universe(self) -> Universe:
        return SUMS

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0,), (1, 1)]


class TestGaussianMechanism(MechanismContract):
    """The Gaussian mechanism, σ = 2, claiming Balle–Wang's δ(1): the released value."""

    constructors = (gaussian_mechanism,)
    skips = _RELEASED

    def mechanism(self) -> Mechanism[Any]:
        return gaussian_mechanism(2)

    def universe(self) -> Universe:
        return SUMS

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0,), (1, 1)]
