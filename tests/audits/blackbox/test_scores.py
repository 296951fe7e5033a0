"""Learned scores: both point towards the side they learned as P, read atoms apart, and are finite."""

from __future__ import annotations

import math

import numpy as np

from privref.audits.blackbox.features import ATOM_NEG_INF
from privref.audits.blackbox.scores import linear_score, logistic_score, naive_bayes_score, vote_score

SHIFT = np.array([0.0, 1.0, 0.0])


def test_scores_rank_the_shifted_side_higher() -> None:
    """A mean shift in coordinate 1: fresh rows of P score higher on average under both scores."""
    rng = np.random.default_rng(2)
    va, vb = rng.normal(size=(2000, 3)) + SHIFT, rng.normal(size=(2000, 3))
    fresh_a, fresh_b = rng.normal(size=(2000, 3)) + SHIFT, rng.normal(size=(2000, 3))
    for score in (naive_bayes_score(va, vb, 16), logistic_score(va, vb), linear_score(va, vb),
                  vote_score(va, vb)):
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


def test_linear_score_is_fishers_direction_through_correlated_coordinates() -> None:
    """Prefix sums of independent shifts: the discriminant undoes the correlation and weighs the
    last prefix sum (the total) alone, where a per-coordinate rule would weigh every one."""
    rng = np.random.default_rng(5)
    steps_a = rng.normal(size=(20_000, 4)) + 0.5
    steps_b = rng.normal(size=(20_000, 4))
    score = linear_score(np.cumsum(steps_a, axis=1), np.cumsum(steps_b, axis=1))
    assert score is not None and score.kind == "linear" and score.intercept == 0.0
    w = np.array(score.weights) / np.array(score.scale)  # weights on the raw coordinates
    assert abs(w[3]) > 10 * max(abs(w[0]), abs(w[1]), abs(w[2])) and w[3] > 0
    assert linear_score(steps_a[:1], steps_b) is None  # too few rows for a covariance


def test_vote_score_counts_coordinates_above_their_medians_with_learned_signs() -> None:
    """Coordinates 0 and 2 shifted up and down under P, coordinate 1 not: votes +1, -1 (and a
    sign for the noise coordinate), read exactly on hand-made rows; atoms never vote above."""
    rng = np.random.default_rng(6)
    va = rng.normal(size=(50_000, 3)) + np.array([0.3, 0.0, -0.3])
    vb = rng.normal(size=(50_000, 3))
    score = vote_score(va, vb)
    assert score is not None and score.kind == "vote"
    assert score.weights[0] == 1.0 and score.weights[2] == -1.0
    medians = [e[0] for e in score.edges]
    assert abs(medians[0] - 0.15) < 0.05 and abs(medians[2] + 0.15) < 0.05
    w1 = score.weights[1]
    rows = np.array([[10.0, -10.0, -10.0], [-10.0, 10.0, 10.0], [math.inf, math.nan, -math.inf]])
    assert score(rows).tolist() == [1.0, w1 - 1.0, 1.0]
    assert "vote count" in score.describe()
    same = rng.normal(size=(10, 2))
    assert vote_score(same, same) is None  # no coordinate votes
