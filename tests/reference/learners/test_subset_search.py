"""The subset-search learner (reference.learners.subset_search): a (0, k/n)-TPAL for THRESH_d
with ⌈log₂(k+1)⌉ labels, the counterexample to 004 Theorem C.12 / 000 Theorem 5.6 at fixed δ."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from privref.audits.exact import audit
from privref.reference.errors import InvalidArgument
from privref.reference.learners.subset_search import (
    exact_failure,
    failure_upper_bound,
    label_budget,
    subset_search_learner,
    subset_size,
)
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import sample

F = Fraction


def test_sizes_and_budget() -> None:
    assert [label_budget(k) for k in (1, 2, 3, 4, 7, 8)] == [1, 2, 2, 3, 3, 4]
    assert subset_size(F(1, 16), F(1, 50)) == 61
    assert subset_size(F(1, 2), F(1, 4)) == 2  # (1/2)^2 = 1/4 exactly
    assert subset_size(F(1, 4096), F(1, 4)) == 5678
    for a in range(1, 8):
        for b in range(1, 8):
            k = subset_size(F(a, 8), F(b, 8))
            assert (1 - F(a, 8)) ** k <= F(b, 8) < (1 - F(a, 8)) ** (k - 1) or k == 1
    learner = subset_search_learner(3, 10, 5)
    claim = learner.tpal_claim
    assert learner.m == 3 and claim is not None and claim.delta == F(1, 2)
    assert claim.epsilon.exact == 0
    with pytest.raises(InvalidArgument, match="k=4 must be < n=4"):
        subset_search_learner(2, 4, 4)


def test_tpal_audit_is_tight_at_k_over_n() -> None:
    learner = subset_search_learner(1, 3, 2)
    universe = Universe(tuple((x, y) for x in (0, 1) for y in (0, 1)), (3,))
    assert audit(learner.tpal(), universe).verdict.value == "HOLDS"
    below = audit(learner.tpal(), universe, claim=PrivacyClaim.of(0, F(2, 3) - F(1, 1000)))
    assert below.verdict.value == "VIOLATED"


def test_realizable_runs_find_the_largest_positive_sampled_point() -> None:
    """On c_t-labeled pools the output is c_s with s − 1 the largest *queried-and-found* point
    below t: s <= t, s − 1 is a pool point, and no chosen point in [s, t) was missed when K is
    the whole pool but one."""
    learner = subset_search_learner(4, 12, 11)
    rng = np.random.default_rng(7)
    for t in (0, 3, 9, 16):
        pool = tuple(int(x) for x in rng.integers(0, 16, 12))
        h, transcript = sample(learner.run, tuple((x, 1 if x < t else 0) for x in pool), rng=rng)
        assert len(transcript) <= learner.m
        s = sum(h(x) for x in range(16))  # h = c_s
        assert all(h(x) == (1 if x < s else 0) for x in range(16))
        assert s <= t and (s == 0 or s - 1 in pool)
        # at most one pool entry (the one outside K) lies in [s, t)
        assert sum(1 for x in pool if s <= x < t) <= 1


def test_exact_failure_meets_the_bound_and_the_bound_is_tight_for_uniform_mu() -> None:
    learner = subset_search_learner(2, 3, 2)
    mu = (F(1, 4),) * 4
    fails = [exact_failure(learner, F(1, 4), t, mu) for t in range(5)]
    assert max(fails) <= failure_upper_bound(F(1, 4), 2)
    assert fails == [0, 0, F(1, 4), F(1, 4), F(1, 4)]  # no sampled point in {t−2, t−1}


def test_bad_mu_is_refused() -> None:
    learner = subset_search_learner(1, 3, 2)
    with pytest.raises(InvalidArgument, match="summing to 1"):
        exact_failure(learner, F(1, 4), 1, (F(1, 2), F(1, 3)))
