"""Learned scores: both point towards the side they learned as P, read atoms apart, and are finite."""

from __future__ import annotations

import math

import numpy as np

from privref.audits.blackbox.features import ATOM_NEG_INF
from privref.audits.blackbox.scores import logistic_score, naive_bayes_score

SHIFT = np.array([0.0, 1.0, 0.0])


def test_scores_rank_the_shifted_side_higher() -> None:
    """A mean shift in coordinate 1: fresh rows of P score higher on average under both scores."""
    rng = np.random.default_rng(2)
    va, vb = rng.normal(size=(2000, 3)) + SHIFT, rng.normal(size=(2000, 3))
    fresh_a, fresh_b = rng.normal(size=(2000, 3)) + SHIFT, rng.normal(size=(2000, 3))
    for score in (naive_bayes_score(va, vb, 16), logistic_score(va, vb)):
        assert score is not None and score.dim == 3
        assert float(score(fresh_a).mean()) > float(score(fresh_b).mean()) + 0.2


def test_scores_read_atoms_apart_and_stay_finite() -> None:
    """-inf entries (more frequent under P) get their own weight; rows with atoms score finitely."""
    rng = np.random.default_rng(3)

    def draw(p: float) -> np.ndarray:
        values = rng.normal(size=(2000, 2))
        values[:, 0] = np.where(rng.random(2000) < p, -math.inf, values[:, 0])
        return values

    va, vb = draw(0.5), draw(0.1)
    logistic = logistic_score(va, vb)
    assert logistic is not None
    weights = {(c, a): w for c, a, w in logistic.atoms}
    assert weights[(0, ATOM_NEG_INF)] > 0
    odd = np.array([[-math.inf, 0.0], [math.inf, math.nan], [math.nan, -math.inf]])
    for score in (logistic, naive_bayes_score(va, vb, 4)):
        assert bool(np.all(np.isfinite(score(odd))))
