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
from privref.reference.accounting import normal_cdf
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
    continuous_gaussian_label,
    continuous_gaussian_votes,
    gaussian_label,
    gaussian_pate,
    gaussian_pate_at,
    gaussian_pate_epsilon,
    gaussian_votes,
    majority_label,
    majority_votes,
    svt_pate,
    svt_pate_at,
    svt_pate_parameters,
    svt_votes,
    teacher_votes,
)
from privref.reference.program import distribution, sample
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


# ------------------------------------------------------------------ one query, continuous noise


def test_gaussian_label_is_one_query_of_gaussian_votes() -> None:
    # Algorithm 1 is written once: each query of gaussian_votes is one gaussian_label
    noise = DiscreteGaussian(Fraction(1))
    for k in (1, 2, 3):
        for v in range(k + 1):
            single = distribution(gaussian_label, v, k, 1)
            assert distribution(gaussian_votes, (v,), k, 1).map(lambda b: b[0]).items() \
                == single.items()
            assert _overlap(_box(single.prob(1)), _box(upper_tail(noise, (k + 1) // 2 - v)))


def test_continuous_label_law_is_phi_of_the_margin() -> None:
    # P(v + Z >= K/2) = Φ((v − K/2)/σ); K = 4, σ = 2
    for v in range(5):
        law = distribution(continuous_gaussian_label, v, 4, 2)
        phi = normal_cdf(Fraction(v - 2, 2), 128)
        one = _box(law.prob(1))
        assert _overlap(one, phi) and one.width < Fraction(1, 2**80)
        assert _overlap(_box(law.prob(0)), _one_minus(phi))
    # at v = K/2 the bit is a fair coin, exactly
    assert distribution(continuous_gaussian_label, 2, 4, "3/7").items() == (
        (1, Fraction(1, 2)), (0, Fraction(1, 2)))
    # Φ(1) from the printed table (Abramowitz & Stegun 26.2): 0.8413447460685...
    p = _box(distribution(continuous_gaussian_label, 4, 4, 2).prob(1))
    assert Fraction(84134474606, 10**11) < p.lo and p.hi < Fraction(84134474607, 10**11)
    # monotone in the vote, symmetric: P_v(1) = P_{K−v}(0)
    probs = [_box(distribution(continuous_gaussian_label, v, 3, Fraction(3, 2)).prob(1))
             for v in range(4)]
    assert all(a.hi < b.lo for a, b in itertools.pairwise(probs))
    assert _overlap(probs[0], _one_minus(probs[3])) and _overlap(probs[1], _one_minus(probs[2]))


def test_continuous_votes_loop_over_the_label() -> None:
    law = distribution(continuous_gaussian_votes, (0, 2, 1), 2, 1)
    singles = [distribution(continuous_gaussian_label, v, 2, 1) for v in (0, 2, 1)]
    for bits in _vectors(3):
        lo, hi = Fraction(1), Fraction(1)
        for b, s in zip(bits, singles, strict=True):
            q = _box(s.prob(b))
            lo, hi = lo * q.lo, hi * q.hi
        assert _overlap(_box(law.prob(bits)), Interval(lo, hi))


def test_continuous_label_sampler_agrees_with_its_law() -> None:
    # false-positive rate at most 10^-6 (two one-sided Clopper–Pearson bounds per outcome)
    n, v, k, sigma = 1500, 3, 4, Fraction(3, 2)
    law = distribution(continuous_gaussian_label, v, k, sigma)
    rng = np.random.default_rng(20261124)
    ones = sum(sample(continuous_gaussian_label, v, k, sigma, rng=rng) for _ in range(n))
    level = bonferroni(Fraction(1, 10**6), 4)
    for outcome, count in ((1, ones), (0, n - ones)):
        box = _box(law.prob(outcome))
        assert cp_lower(count, n, level) <= box.hi
        assert cp_upper(count, n, level) >= box.lo


def test_majority_votes_are_exact_with_ties_to_one() -> None:
    assert distribution(majority_votes, (0, 1, 2, 3), 3).items() == (((0, 0, 1, 1), Fraction(1)),)
    assert distribution(majority_votes, (1,), 2).items() == (((1,), Fraction(1)),)
    assert distribution(majority_label, 0, 2).items() == ((0, Fraction(1)),)


def test_one_query_bad_input_names_the_argument() -> None:
    for bad in (0, -1, "-1/2"):
        with pytest.raises(InvalidArgument, match="sigma"):
            continuous_gaussian_label(1, 2, bad)
        with pytest.raises(InvalidArgument, match="sigma"):
            continuous_gaussian_votes((1,), 2, bad)
        with pytest.raises(InvalidArgument, match="sigma2"):
            gaussian_label(1, 2, bad)
    with pytest.raises(InvalidArgument, match="k="):
        continuous_gaussian_label(0, 0, 1)
    with pytest.raises(InvalidArgument, match="vote="):
        gaussian_label(3, 2, 1)
    with pytest.raises(InvalidArgument, match="vote="):
        majority_label(-1, 2)
    with pytest.raises(InvalidArgument, match=r"votes\[0\]"):
        majority_votes((5,), 2)
