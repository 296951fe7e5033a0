"""001 Algorithm 7 (distance to instability) on a majority vote, and Algorithm 2's distance."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from privref.audits.exact import audit
from privref.audits.stats import bonferroni, cp_lower, cp_upper
from privref.reference.discrete_noise import DiscreteLaplace, upper_tail
from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import Universe
from privref.reference.reals import log, prob_as_interval, rational
from privref.reference.stability_release import (
    BOTTOM,
    distance_to_instability,
    instability_distance,
    majority,
    stability_radius,
    threshold_floor,
)
from privref.reference.verdict import Verdict

MAX_K = 60


def test_distance_has_sensitivity_one_and_keeps_the_majority() -> None:
    for k in range(1, MAX_K):
        for s in range(k + 1):
            d = instability_distance(s, k)
            if s < k:
                assert abs(instability_distance(s + 1, k) - d) <= 1
            for t in range(max(0, s - d), min(k, s + d) + 1):
                assert majority(t, k) == majority(s, k)
            assert d <= stability_radius(s, k)


def test_distance_is_conservative_exactly_where_ties_go_to_one() -> None:
    # True radius: floor(Δ/2) when 2s >= K (ties to 1), ceil(Δ/2) - 1 otherwise; dist is
    # ceil(Δ/2) - 1 (or 0), so they differ exactly when 2s > K and Δ = 2s - K is even, i.e.
    # K even and s in K/2 + 1..K: K/2 cases per even K, 1 + 2 + ... + 29 = 435 for K < 60.
    conservative = Counter(k for k in range(1, MAX_K) for s in range(k + 1)
                           if instability_distance(s, k) < stability_radius(s, k))
    for k in range(1, MAX_K):
        assert conservative[k] == (k // 2 if k % 2 == 0 else 0)
    assert sum(conservative.values()) == 435


def test_threshold_floor_is_exact() -> None:
    assert threshold_floor(log(rational(10)) / Fraction(1)) == 2  # ln 10 = 2.30...
    assert threshold_floor(log(rational(1000)) / Fraction(1, 2)) == 13  # 2 ln 1000 = 13.8...
    assert threshold_floor(rational(Fraction(7))) == 7


@pytest.mark.parametrize(("eps", "delta", "k"), [
    (Fraction(1), Fraction(1, 10), 5),
    (Fraction(2), Fraction(1, 1000), 6),
    (Fraction(1, 2), Fraction(1, 20), 4),
])
def test_audit_holds_and_the_leak_is_the_noise_tail(eps: Fraction, delta: Fraction,
                                                     k: int) -> None:
    mech = distance_to_instability(eps, delta)
    report = audit(mech, Universe((0, 1), (k,)))
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_upper is not None and report.epsilon_upper <= eps
    # an unstable input (distance 0) releases its majority with P(Z > ⌊Γ⌋) = P(Z >= ⌊Γ⌋ + 1)
    gamma = threshold_floor(log(1 / delta) / eps)
    votes = (1,) * (k // 2) + (0,) * (k - k // 2)
    leak = prob_as_interval(mech.distribution(votes).prob(majority(k // 2, k)))
    tail = prob_as_interval(upper_tail(DiscreteLaplace(1 / eps), gamma + 1))
    assert leak.lo <= tail.hi and tail.lo <= leak.hi
    assert leak.hi < delta


def test_sampler_matches_exact_law() -> None:
    mech = distance_to_instability(Fraction(1), Fraction(1, 10))
    data = (1, 1, 1, 0)  # votes 3 of 4: distance 0, majority 1
    law = mech.distribution(data)
    rng = np.random.default_rng(7)
    n = 3000
    counts = Counter(mech.sample(data, rng) for _ in range(n))
    level = bonferroni(Fraction(1, 10**6), 2 * len(law))
    for outcome, p in law.items():
        box = prob_as_interval(p)
        assert cp_lower(counts[outcome], n, level) <= box.hi
        assert cp_upper(counts[outcome], n, level) >= box.lo
    assert set(law.support()) == {1, BOTTOM}


def test_bad_inputs_name_the_argument() -> None:
    with pytest.raises(InvalidArgument, match="epsilon"):
        distance_to_instability(0, Fraction(1, 2))
    with pytest.raises(InvalidArgument, match="delta"):
        distance_to_instability(1, 0)
    with pytest.raises(InvalidArgument, match="delta"):
        distance_to_instability(1, Fraction(3, 2))
    with pytest.raises(InvalidArgument, match="votes"):
        instability_distance(5, 4)
    with pytest.raises(InvalidArgument, match="k"):
        majority(0, 0)
    with pytest.raises(InvalidArgument, match="data"):
        distance_to_instability(1, Fraction(1, 2)).distribution((2, 0))
