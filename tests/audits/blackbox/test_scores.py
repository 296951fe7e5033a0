"""Learned scores: both point towards the side they learned as P, read atoms apart, and are finite."""

from __future__ import annotations

import math

import numpy as np

from privref.audits.blackbox.events import MARGIN_CLIP, increments
from privref.audits.blackbox.features import ATOM_NEG_INF
from privref.audits.blackbox.scores import (
    linear_score,
    logistic_score,
    margin_score,
    naive_bayes_score,
    vote_score,
)

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


def test_margin_score_is_the_smallest_standardized_margin_on_the_moved_coordinates() -> None:
    """Coordinate 0 moves up and 2 down under P; 1 does not move and is left out.  Hand-made
    rows read exactly: min over the moved coordinates of ±(x - midpoint)/half-IQR; a nan term
    is -inf (clipped), +inf on the right side never binds."""
    rng = np.random.default_rng(7)
    va = rng.laplace(size=(40_000, 3)) + np.array([1.0, 0.0, -1.0])
    vb = rng.laplace(size=(40_000, 3))
    score = margin_score(va, vb)
    assert score is not None and score.kind == "margin" and not score.differences
    assert score.weights == (1.0, 0.0, -1.0)
    c = np.array([e[0] for e in score.edges])
    s = np.array(score.scale)
    assert abs(c[0] - 0.5) < 0.05 and abs(c[2] + 0.5) < 0.05
    rows = np.array([[3.0, 100.0, -2.0], [0.0, 0.0, -5.0], [math.inf, 0.0, -1.0],
                     [1.0, 0.0, math.nan]])
    want = [min((3 - c[0]) / s[0], -(-2 - c[2]) / s[2]), min((0 - c[0]) / s[0], (5 + c[2]) / s[2]),
            -(-1 - c[2]) / s[2], -MARGIN_CLIP]
    assert score(rows).tolist() == want
    toward_b = margin_score(va, vb, toward_a=False)
    assert toward_b is not None and toward_b.weights == (-1.0, 0.0, 1.0)
    assert "margin score" in score.describe() and "d[1]" not in score.describe()
    same = rng.laplace(size=(10, 2))
    assert margin_score(same, same) is None  # nothing moves
    assert margin_score(va[:1], vb) is None
    assert margin_score(np.where(va > 3, math.inf, va), vb) is None  # finite rows only
    assert margin_score(va[:, :2], vb[:, :2]) is None  # one moved coordinate: a threshold


def test_margin_score_leaves_out_coordinates_moved_far_less_than_the_most() -> None:
    """Shifts 1, 1 and 0.1 (about 40, 40 and 4 standard errors at 40,000 rows of Laplace(1)):
    the third is significant but below a quarter of the largest, so it is left out."""
    rng = np.random.default_rng(9)
    va = rng.laplace(size=(40_000, 3)) + np.array([1.0, 1.0, 0.1])
    vb = rng.laplace(size=(40_000, 3))
    score = margin_score(va, vb)
    assert score is not None and score.weights == (1.0, 1.0, 0.0)


def test_margin_score_on_increments_reads_prefix_sums_as_their_steps() -> None:
    """Prefix sums of Laplace steps shifted by 1 under P: on the increments every coordinate moves
    the same way, and {score > t} with t clearing the shift has exactly the product of the steps'
    tails; on the sums themselves the later coordinates carry the whole walk."""
    rng = np.random.default_rng(8)
    steps_a, steps_b = rng.laplace(size=(40_000, 4)) + 1.0, rng.laplace(size=(40_000, 4))
    ya, yb = np.cumsum(steps_a, axis=1), np.cumsum(steps_b, axis=1)
    score = margin_score(ya, yb, differences=True)
    assert score is not None and score.differences and score.weights == (1.0,) * 4
    assert np.allclose(increments(ya), steps_a)
    c = np.array([e[0] for e in score.edges])
    s = np.array(score.scale)
    fresh = np.cumsum(rng.laplace(size=(1000, 4)) + 1.0, axis=1)
    inside = score(fresh) > 0.2
    assert inside.tolist() == np.all((increments(fresh) - c) / s > 0.2, axis=1).tolist()
    assert 0 < inside.sum() < 1000
    assert "x[i] - x[i-1]" in score.describe()
    alternating = steps_a - 1.0 + np.array([1.0, 0.0, 1.0, 0.0])  # every increment moves
    assert margin_score(alternating, steps_b) is not None
    assert margin_score(alternating, steps_b, differences=True) is None  # uncorrelated columns
