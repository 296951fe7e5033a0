"""Parameter sweeps of every mechanism's claim formula against its exact loss (issue 14, item 1).

Each claim formula of ``reference/`` is tested over its parameter range, not at one point: the
sensitivity Δ runs past 1 (where Δ and Δ² agree), inner deltas are non-zero (where a δ-leak that
forgets them is still right), group sizes run past 1.  The expected value is never the formula
under test: it is the exact worst-case loss the exact auditor computes from the mechanism's law
(``audits.exact``), or a scaling law that a wrong formula breaks.  Hypothesis runs derandomized
(tests/conftest.py), so every run sees the same examples.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from privref.audits.exact import Verdict, audit, audit_pair
from privref.reference.composition import compose, leak
from privref.reference.exponential import count_score, exponential_mechanism
from privref.reference.geometric import (
    discrete_gaussian_claim,
    discrete_gaussian_mechanism,
    discrete_laplace_mechanism,
    geometric_mechanism,
)
from privref.reference.neighbors import Universe
from privref.reference.noisy_max import report_noisy_max
from privref.reference.privacy import PrivacyClaim, group_privacy
from privref.reference.randomized_response import label_flip, randomized_response
from privref.reference.reals import Order, Real, compare, exp, log
from privref.reference.subsampling import subsampling_claim

pytestmark = pytest.mark.deep  # the deep tier: python -m pytest -m deep (docs/test-tiers.md)

SWEEP = settings(max_examples=25, deadline=None)

sensitivities = st.integers(min_value=1, max_value=4)
alphas = st.fractions(min_value=Fraction(1, 20), max_value=Fraction(19, 20),
                      max_denominator=20)
scales = st.fractions(min_value=Fraction(1, 2), max_value=Fraction(6), max_denominator=8)
keeps = st.fractions(min_value=Fraction(11, 20), max_value=Fraction(19, 20), max_denominator=20)
small_deltas = st.fractions(min_value=Fraction(1, 10**6), max_value=Fraction(1, 8),
                            max_denominator=10**6)


def _counts(sensitivity: int, length: int = 1) -> Universe:
    """Datasets of ``length`` entries in [0, Δ]: bounded sums whose neighbors differ by up to Δ."""
    return Universe(tuple(range(sensitivity + 1)), (length,))


def _equal(x: Real, y: Real) -> bool:
    """x = y: decided EQUAL exactly, or both enclosed to 2^-200 with overlapping enclosures.

    Two different expression trees of one irrational number (√(ln 10^6 / 2) reached two ways)
    compare UNDECIDED; |x − y| < 2^-199 is then the check, far below any formula error."""
    order, _ = compare(x, y)
    if order is Order.EQUAL:
        return True
    bx, by = x.enclose(256), y.enclose(256)
    narrow = bx.hi - bx.lo < Fraction(1, 2**200) and by.hi - by.lo < Fraction(1, 2**200)
    return narrow and bx.lo <= by.hi and by.lo <= bx.hi


def _shaved(claim: PrivacyClaim) -> PrivacyClaim:
    """The claim with epsilon lowered by one part in 10^6: a tight claim then fails."""
    return PrivacyClaim(claim.epsilon * Fraction(999_999, 1_000_000), claim.delta)


# ----------------------------------------------------------------------------- additive noise

@SWEEP
@given(alpha=alphas, sensitivity=sensitivities)
@example(alpha=Fraction(1, 2), sensitivity=2)
def test_geometric_loss_is_sensitivity_times_log_inverse_alpha(alpha: Fraction,
                                                               sensitivity: int) -> None:
    """Geometric mechanism: exact loss Δ·ln(1/α), attained (Ghosh-Roughgarden-Sundararajan 2009).

    The exact auditor's loss over counts in [0, Δ] has e^loss = (1/α)^Δ exactly, the claim is
    that number, and a claim one part in 10^6 lower is VIOLATED."""
    mech = geometric_mechanism(alpha, sensitivity)
    report = audit(mech, _counts(sensitivity))
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_exact is not None
    assert exp(report.epsilon_exact).exact == (1 / alpha) ** sensitivity
    assert exp(mech.claim.epsilon).exact == (1 / alpha) ** sensitivity
    assert audit(mech, _counts(sensitivity), claim=_shaved(mech.claim)).verdict is Verdict.VIOLATED


@SWEEP
@given(scale=scales, sensitivity=sensitivities)
@example(scale=Fraction(2), sensitivity=2)
def test_discrete_laplace_loss_is_sensitivity_over_scale(scale: Fraction,
                                                         sensitivity: int) -> None:
    """Discrete Laplace mechanism: exact loss Δ/t, attained (Canonne-Kamath-Steinke 2020).

    The auditor's enclosure of the loss holds Δ/t, the claim is exactly Δ/t, and a claim one
    part in 10^6 lower is VIOLATED."""
    mech = discrete_laplace_mechanism(scale, sensitivity)
    report = audit(mech, _counts(sensitivity))
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_lower <= sensitivity / scale
    assert report.epsilon_upper is not None and sensitivity / scale <= report.epsilon_upper
    assert mech.claim.epsilon.exact == sensitivity / scale
    assert audit(mech, _counts(sensitivity), claim=_shaved(mech.claim)).verdict is Verdict.VIOLATED


@SWEEP
@given(sigma2=st.fractions(min_value=Fraction(1, 2), max_value=Fraction(8), max_denominator=4),
       sensitivity=st.integers(min_value=1, max_value=3), delta=small_deltas)
@example(sigma2=Fraction(2), sensitivity=2, delta=Fraction(1, 1000))
def test_discrete_gaussian_claim_is_sound_over_its_parameters(sigma2: Fraction, sensitivity: int,
                                                              delta: Fraction) -> None:
    """Discrete Gaussian mechanism: its (ρ + 2√(ρ ln 1/δ), δ) claim, ρ = Δ²/(2σ²), HOLDS exactly
    over counts in [0, Δ] (CKS20 Theorem 4 with Bun-Steinke 2016 Proposition 1.3)."""
    mech = discrete_gaussian_mechanism(sigma2, sensitivity, delta=delta)
    assert audit(mech, _counts(sensitivity)).verdict is Verdict.HOLDS


@SWEEP
@given(sigma2=st.fractions(min_value=Fraction(1, 4), max_value=Fraction(50), max_denominator=16),
       sensitivity=st.integers(min_value=2, max_value=6), delta=small_deltas)
@example(sigma2=Fraction(4), sensitivity=2, delta=Fraction(1, 10**6))
def test_discrete_gaussian_claim_depends_on_sensitivity_squared_over_sigma2(
        sigma2: Fraction, sensitivity: int, delta: Fraction) -> None:
    """ρ = Δ²/(2σ²) depends on Δ and σ² only through Δ²/σ² (CKS20 Theorem 4): the claim at
    (σ², Δ) equals the claim at (σ²/Δ², 1), and quadrupling σ² halves Δ's effect.  A formula
    in Δ instead of Δ² (equal at Δ = 1 only) breaks both."""
    claim = discrete_gaussian_claim(sigma2, sensitivity, delta)
    assert _equal(claim.epsilon,
                  discrete_gaussian_claim(sigma2 / sensitivity**2, 1, delta).epsilon)
    assert _equal(discrete_gaussian_claim(4 * sigma2, 2 * sensitivity, delta).epsilon,
                  claim.epsilon)
    assert claim.delta == delta


# ----------------------------------------------------------------------------- selection

@SWEEP
@given(keep=keeps)
@example(keep=Fraction(3, 4))
def test_randomized_response_loss_is_log_odds(keep: Fraction) -> None:
    """Randomized response: exact loss ln(p/(1 − p)), attained (Warner 1965)."""
    mech = randomized_response(keep)
    report = audit(mech, Universe((0, 1), (1,)))
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_exact is not None
    assert exp(report.epsilon_exact).exact == keep / (1 - keep)
    assert exp(mech.claim.epsilon).exact == keep / (1 - keep)


def _scaled_count(sensitivity: int) -> object:
    def score(data: tuple[object, ...], output: int) -> int:
        return sensitivity * count_score(data, output)
    return score


@SWEEP
@given(ratio=st.fractions(min_value=Fraction(11, 10), max_value=Fraction(4), max_denominator=10),
       sensitivity=st.integers(min_value=1, max_value=3))
@example(ratio=Fraction(3, 2), sensitivity=2)
def test_exponential_mechanism_holds_for_scores_of_any_sensitivity(ratio: Fraction,
                                                                   sensitivity: int) -> None:
    """Exponential mechanism with a score of sensitivity Δ: ε-DP at every ε and Δ (004
    Proposition A.1 (i)).  The score is Δ × a count, so its sensitivity is exactly Δ; a weight
    that forgets Δ, or the 1/2, multiplies the loss and is VIOLATED at Δ >= 2."""
    epsilon = log(ratio) * 2
    mech = exponential_mechanism((0, 1, 2), _scaled_count(sensitivity),  # type: ignore[arg-type]
                                 epsilon=epsilon, sensitivity=sensitivity)
    report = audit(mech, Universe((0, 1), (2,)))
    assert report.verdict is Verdict.HOLDS
    # the loss is positive and below ε: the score matters, and the claim is not vacuous
    assert report.epsilon_lower > 0
    assert report.epsilon_upper is not None
    box = mech.claim.epsilon.enclose(200)
    assert report.epsilon_upper <= box.hi


@SWEEP
@given(decay=st.fractions(min_value=Fraction(1, 5), max_value=Fraction(9, 10),
                          max_denominator=10),
       sensitivity=st.integers(min_value=1, max_value=3))
@example(decay=Fraction(1, 2), sensitivity=2)
def test_report_noisy_max_holds_for_scores_of_any_sensitivity(decay: Fraction,
                                                              sensitivity: int) -> None:
    """Report-noisy-max with exponential noise: (2Δ·ln(1/decay))-DP (McKenna-Sheldon 2020
    Theorem 1), for a score of sensitivity exactly Δ, and the loss is positive."""
    mech = report_noisy_max((0, 1, 2), _scaled_count(sensitivity),  # type: ignore[arg-type]
                            decay=decay, sensitivity=sensitivity)
    report = audit(mech, Universe((0, 1), (2,)))
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_lower > 0
    assert exp(mech.claim.epsilon).exact == (1 / decay) ** (2 * sensitivity)


# ----------------------------------------------------------------------------- combinators

@SWEEP
@given(keep=keeps, inner=small_deltas, outer=small_deltas)
@example(keep=Fraction(3, 4), inner=Fraction(1, 10), outer=Fraction(1, 20))
def test_leak_of_a_leaky_mechanism_adds_both_deltas(keep: Fraction, inner: Fraction,
                                                    outer: Fraction) -> None:
    """δ-leak around an (ε, δ_in) mechanism: (ε, δ_in + δ)-DP (folklore Delta leak).

    The exact hockey-stick divergence at the claimed ε is the leak's total probability
    1 − (1 − δ_in)(1 − δ) (randomized response itself has none at its own ε), which exceeds
    either delta alone: a claim that drops the inner delta is VIOLATED."""
    mech = leak(leak(randomized_response(keep), inner), outer)
    assert mech.claim.delta == inner + outer
    assert audit(mech, Universe((0, 1), (1,))).verdict is Verdict.HOLDS
    true_delta = 1 - (1 - inner) * (1 - outer)
    box = audit_pair(mech, (0,), (1,)).delta_at_claim
    assert box.lo <= true_delta <= box.hi
    for wrong in (inner, outer):
        claim = PrivacyClaim(mech.claim.epsilon, wrong)
        assert audit(mech, Universe((0, 1), (1,)), claim=claim).verdict is Verdict.VIOLATED


@SWEEP
@given(first=keeps, second=keeps, delta=small_deltas, other=small_deltas)
@example(first=Fraction(3, 4), second=Fraction(2, 3), delta=Fraction(1, 10),
         other=Fraction(1, 20))
def test_composition_of_tight_mechanisms_is_exactly_the_sum(first: Fraction, second: Fraction,
                                                            delta: Fraction,
                                                            other: Fraction) -> None:
    """Basic composition: (ε₁ + ε₂, δ₁ + δ₂)-DP (folklore Basic composition), tight in ε when
    both parts are tight on the same pair: two randomized responses of one bit have e^loss
    equal to the product of their odds.  With two δ-leaks the exact δ at ε₁ + ε₂ is
    1 − (1 − δ₁)(1 − δ₂), above max(δ₁, δ₂): a composition that kept only the larger is
    VIOLATED."""
    mech = compose(randomized_response(first), randomized_response(second))
    bits = Universe((0, 1), (1,))
    report = audit(mech, bits)
    odds = first / (1 - first) * second / (1 - second)
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_exact is not None and exp(report.epsilon_exact).exact == odds
    assert audit(mech, bits, claim=_shaved(mech.claim)).verdict is Verdict.VIOLATED
    leaky = compose(leak(randomized_response(first), delta),
                    leak(randomized_response(second), other))
    assert leaky.claim.delta == delta + other
    assert audit(leaky, bits).verdict is Verdict.HOLDS
    box = audit_pair(leaky, (0,), (1,)).delta_at_claim
    assert box.lo <= 1 - (1 - delta) * (1 - other) <= box.hi
    larger = PrivacyClaim(leaky.claim.epsilon, max(delta, other))
    assert audit(leaky, bits, claim=larger).verdict is Verdict.VIOLATED


@settings(max_examples=12, deadline=None)
@given(alpha=alphas, k=st.integers(min_value=2, max_value=3))
@example(alpha=Fraction(1, 2), k=2)
def test_group_privacy_of_a_tight_mechanism_is_k_times_its_loss(alpha: Fraction, k: int) -> None:
    """Group privacy: ε-DP gives kε at distance k, attained by the geometric mechanism on a sum
    of k bits (folklore Group privacy)."""
    mech = geometric_mechanism(alpha)
    claim = group_privacy(mech.claim, k)
    universe = Universe((0, 1), (k,))
    report = audit(mech, universe, claim=claim, distance=k)
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_exact is not None
    assert exp(report.epsilon_exact).exact == (1 / alpha) ** k
    assert audit(mech, universe, claim=_shaved(claim), distance=k).verdict is Verdict.VIOLATED


@SWEEP
@given(keep=keeps, delta=small_deltas, k=st.integers(min_value=2, max_value=3))
@example(keep=Fraction(3, 4), delta=Fraction(1, 50), k=2)
def test_group_privacy_delta_is_sound_for_a_leak(keep: Fraction, delta: Fraction,
                                                 k: int) -> None:
    """Group privacy's (kε, δ·Σ_{j<k} e^{jε}) (folklore Group privacy) holds at distance k for
    a δ-leak of label flipping (randomized response on each label), whose δ is not 0; with
    e^ε = p/(1 − p) rational the δ factor is exact, and the kε part is attained."""
    odds = keep / (1 - keep)
    assume(delta * sum(odds**j for j in range(k)) < 1)  # else the claim is vacuous (an error)
    mech = leak(label_flip(keep), delta)
    claim = group_privacy(mech.claim, k)
    assert claim.delta == delta * sum(odds**j for j in range(k))
    assert exp(claim.epsilon).exact == odds**k
    labeled = Universe(((0, 0), (0, 1)), (k,))
    assert audit(mech, labeled, claim=claim, distance=k).verdict is Verdict.HOLDS
    assert audit(label_flip(keep), labeled, claim=_shaved(group_privacy(
        label_flip(keep).claim, k)), distance=k).verdict is Verdict.VIOLATED


@SWEEP
@given(keep=st.fractions(min_value=Fraction(1, 2), max_value=Fraction(2, 3), max_denominator=12),
       delta=small_deltas, n=st.integers(min_value=1, max_value=4),
       factor=st.integers(min_value=1, max_value=5))
@example(keep=Fraction(2, 3), delta=Fraction(1, 10), n=1, factor=1)
def test_subsampling_claim_depends_on_n_over_t_and_scales_delta_by_4n_over_t(
        keep: Fraction, delta: Fraction, n: int, factor: int) -> None:
    """004 Claim C.1: ε = n(3 + e^{ε*})/t and δ' = 4ε/(3 + e^{ε*})·δ = (4n/t)·δ.  The claim
    depends on n and t only through n/t, and δ'/δ is exactly 4n/t (an independent closed
    form); t is the smallest multiple of ``factor`` allowed by ε <= 1."""
    ratio = keep / (1 - keep)
    inner = PrivacyClaim(log(ratio), delta)
    t = factor * -(-n * (3 + ratio) // factor)
    claim = subsampling_claim(inner, n, t)
    assert claim.epsilon.exact == n * (3 + ratio) / t
    assert claim.delta == 4 * Fraction(n, t) * delta
    doubled = subsampling_claim(inner, 2 * n, 2 * t)
    assert doubled == claim or (_equal(doubled.epsilon, claim.epsilon)
                                and doubled.delta == claim.delta)
