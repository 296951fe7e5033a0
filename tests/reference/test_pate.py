"""001 Algorithms 1 (Gaussian PATE) and 2 (SVT-PATE): exact laws, exact audits, sampler agreement."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privref.audits.exact import audit
from privref.audits.stats import bonferroni, cp_lower, cp_upper
from privref.reference.discrete_noise import (
    DiscreteGaussian,
    DiscreteLaplace,
    difference_tail,
    upper_tail,
)
from privref.reference.errors import InvalidArgument
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.pate import (
    BOTTOM,
    gaussian_pate,
    gaussian_pate_at,
    gaussian_pate_epsilon,
    gaussian_votes,
    svt_pate,
    svt_pate_at,
    svt_pate_parameters,
    svt_votes,
    teacher_votes,
)
from privref.reference.reals import Interval, prob_as_interval
from privref.reference.sparse_vector import discrete_release_probability
from privref.reference.verdict import Verdict

DELTA = Fraction(1, 10)


def _vectors(ell: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.product((0, 1), repeat=ell))


def _overlap(a: Interval, b: Interval) -> bool:
    return a.lo <= b.hi and b.lo <= a.hi


def _box(p: Any) -> Interval:
    return prob_as_interval(p)


def _one_minus(p: Interval) -> Interval:
    return Interval(1 - p.hi, 1 - p.lo)


# ------------------------------------------------------------------ Algorithm 1


def test_teacher_votes_sum_the_label_vectors() -> None:
    assert teacher_votes(((0, 1, 1), (1, 1, 0)), 3) == ((1, 2, 1), 2)


def test_gaussian_law_is_a_product_of_discrete_gaussian_tails() -> None:
    # bit j is 1 exactly when Z_j >= ceil(K/2) - votes_j, independently over j
    s2 = Fraction(1)
    mech = gaussian_pate_at(2, s2, DELTA)
    noise = DiscreteGaussian(s2)
    for data in [((0, 1), (1, 1), (1, 0)), ((0, 0), (0, 1)), ((1, 1), (1, 1), (1, 1))]:
        votes, k = teacher_votes(data, 2)
        tails = [_box(upper_tail(noise, (k + 1) // 2 - v)) for v in votes]
        law = mech.distribution(data)
        assert set(law.support()) == set(_vectors(2))
        for bits in _vectors(2):
            lo, hi = Fraction(1), Fraction(1)
            for b, p in zip(bits, tails, strict=True):
                q = p if b else _one_minus(p)
                lo, hi = lo * q.lo, hi * q.hi
            assert _overlap(_box(law.prob(bits)), Interval(lo, hi))


def test_gaussian_claim_is_rho_plus_two_root_rho_log() -> None:
    # ℓ = 2, σ² = 1: ρ = 1, ε = 1 + 2√(ln 10) = 4.03485...
    box = gaussian_pate_epsilon(2, 1, DELTA).epsilon.enclose(64)
    assert Fraction(40348, 10**4) < box.lo and box.hi < Fraction(40349, 10**4)


@pytest.mark.parametrize(("ell", "sigma2", "sizes"), [
    (1, Fraction(1), (2, 3)),
    (2, Fraction(1), (2, 3)),
    (3, Fraction(4), (2,)),
])
def test_gaussian_audit_holds_at_the_discrete_claim(ell: int, sigma2: Fraction,
                                                    sizes: tuple[int, ...]) -> None:
    mech = gaussian_pate_at(ell, sigma2, DELTA)
    report = audit(mech, Universe(_vectors(ell), sizes))
    assert report.verdict is Verdict.HOLDS
    claim = mech.claim.epsilon.enclose(64)
    assert report.epsilon_upper is not None and report.epsilon_upper <= claim.lo
    assert report.epsilon_lower > 0  # the check sees real loss, it is not vacuous


def test_gaussian_paper_calibration_holds() -> None:
    mech = gaussian_pate(2, 1, DELTA)
    report = audit(mech, Universe(_vectors(2), (2, 3)))
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_upper is not None and report.epsilon_upper <= 1


# ------------------------------------------------------------------ Algorithm 2


def _release(t: Fraction, w: int, dist: int) -> Interval:
    """P(dist + ν > w + ρ) = P(ν - ρ >= w - dist + 1), ν ~ DLap(2t), ρ ~ DLap(t)."""
    return _box(difference_tail(DiscreteLaplace(2 * t), DiscreteLaplace(t), w - dist + 1))


def test_svt_single_query_law() -> None:
    t, w = Fraction(1, 2), 1
    mech = svt_pate_at(1, t, w, 1)
    # K = 3: votes 0 and 3 have dist 1; votes 1 and 2 have dist 0
    for data, label, dist in [(((0,), (0,), (0,)), 0, 1), (((0,), (1,), (1,)), 1, 0),
                              (((1,), (1,), (1,)), 1, 1)]:
        law = mech.distribution(data)
        passed = _release(t, w, dist)
        assert set(law.support()) == {(label,), (BOTTOM,)}
        assert _overlap(_box(law.prob((label,))), passed)
        assert _overlap(_box(law.prob((BOTTOM,))), _one_minus(passed))


def test_svt_refreshes_the_threshold_and_stops_at_the_cutoff() -> None:
    t, w = Fraction(1, 2), 1
    data = ((0, 1), (1, 1), (0, 1))  # votes (1, 3), K = 3: dists (0, 1), majorities (0, 1)
    after_refresh = svt_pate_at(2, t, w, 2).distribution(data)
    # after the first ⊥ the threshold is redrawn: the second test is independent of the first
    fail, passed = _one_minus(_release(t, w, 0)), _release(t, w, 1)
    assert _overlap(_box(after_refresh.prob((BOTTOM, 1))),
                    Interval(fail.lo * passed.lo, fail.hi * passed.hi))
    stopped = svt_pate_at(2, t, w, 1).distribution(data)
    assert _overlap(_box(stopped.prob((BOTTOM,))), fail)
    assert all(len(out) == 2 or out == (BOTTOM,) for out in stopped.support())


def test_svt_unstable_release_is_the_discrete_difference_tail() -> None:
    t, w = Fraction(1, 2), 2
    mech = svt_pate_at(1, t, w, 1)
    leak = _box(mech.distribution(((0,), (1,))).prob((1,)))  # K = 2, votes 1: a tie, dist 0
    exact = _box(discrete_release_probability(t, w))
    assert _overlap(leak, exact)
    assert leak.hi <= mech.claim.delta


@pytest.mark.parametrize(("ell", "scale", "threshold", "cutoff"), [
    (1, Fraction(1, 2), 2, 1),
    (1, Fraction(1, 2), 0, 1),
    (2, Fraction(1, 2), 2, 1),
    (2, Fraction(1), 1, 2),
])
def test_svt_audit_holds_at_the_basic_claim(ell: int, scale: Fraction, threshold: int,
                                            cutoff: int) -> None:
    mech = svt_pate_at(ell, scale, threshold, cutoff)
    report = audit(mech, Universe(_vectors(ell), (2, 3)))
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_upper is not None
    assert report.epsilon_upper <= Fraction(2 * cutoff) / scale


def test_svt_paper_calibration_holds() -> None:
    params = svt_pate_parameters(1, 1, 1, DELTA)
    # λ = (√(2(1 + ln 20)) + √(2 ln 20))/1 = 5.3... so t = 6; w = 3λ ln 40 = 58.9...
    assert (params.scale, params.threshold) == (Fraction(6), 58)
    for ell in (1, 2):
        mech = svt_pate(ell, 1, 1, DELTA)
        report = audit(mech, Universe(_vectors(ell), (2, 3)))
        assert report.verdict is Verdict.HOLDS
        assert report.epsilon_upper is not None and report.epsilon_upper <= 1


# ------------------------------------------------------------------ samplers


def _agrees(mech: Mechanism[Any], data: Any, seed: int, n: int) -> None:
    law = mech.distribution(data)
    rng = np.random.default_rng(seed)
    counts = Counter(mech.sample(data, rng) for _ in range(n))
    assert set(counts) <= set(law.support())
    level = bonferroni(Fraction(1, 10**6), 2 * len(law))
    for outcome, p in law.items():
        box = _box(p)
        assert cp_lower(counts[outcome], n, level) <= box.hi
        assert cp_upper(counts[outcome], n, level) >= box.lo


@settings(max_examples=2, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_samplers_agree_with_the_exact_laws(seed: int) -> None:
    _agrees(gaussian_pate_at(2, 1, DELTA), ((0, 1), (1, 1), (1, 0)), seed, 1500)
    _agrees(svt_pate_at(2, Fraction(1, 2), 1, 2), ((0, 1), (1, 1), (0, 1)), seed, 1500)


# ------------------------------------------------------------------ bad input


def test_bad_inputs_name_the_argument() -> None:
    with pytest.raises(InvalidArgument, match="k="):
        gaussian_votes((0,), 0, 1)
    with pytest.raises(InvalidArgument, match="sigma2"):
        gaussian_votes((0,), 1, 0)
    with pytest.raises(InvalidArgument, match="sigma2"):
        gaussian_pate_at(1, Fraction(-1), DELTA)
    with pytest.raises(InvalidArgument, match=r"votes\[1\]"):
        gaussian_votes((0, 3), 2, 1)
    with pytest.raises(InvalidArgument, match=r"votes\[0\]"):
        svt_votes((-1,), 2, 1, 0, 1)
    with pytest.raises(InvalidArgument, match="k="):
        svt_votes((0,), 0, 1, 0, 1)
    with pytest.raises(InvalidArgument, match="cutoff"):
        svt_pate_at(1, 1, 3, 0)
    with pytest.raises(InvalidArgument, match="cutoff"):
        svt_pate(1, 0, 1, DELTA)
    with pytest.raises(InvalidArgument, match="scale"):
        svt_pate_at(1, 0, 3, 1)
    for bad in (0, 1, Fraction(3, 2)):
        with pytest.raises(InvalidArgument, match="delta"):
            gaussian_pate(1, 1, bad)
        with pytest.raises(InvalidArgument, match="delta"):
            svt_pate(1, 1, 1, bad)
    for eps in (0, -1):
        with pytest.raises(InvalidArgument, match="epsilon"):
            gaussian_pate(1, eps, DELTA)
        with pytest.raises(InvalidArgument, match="epsilon"):
            svt_pate(1, 1, eps, DELTA)
    with pytest.raises(InvalidArgument, match="data"):
        gaussian_pate_at(1, 1, DELTA).distribution(())
    with pytest.raises(InvalidArgument, match="data"):
        svt_pate_at(1, 1, 3, 1).distribution(((0,), (2,)))
    with pytest.raises(InvalidArgument, match="queries"):
        gaussian_pate_at(0, 1, DELTA)
