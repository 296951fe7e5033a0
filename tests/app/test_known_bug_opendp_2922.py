"""OpenDP issue 2922: make_laplace_threshold's δ understates the release of a new key.

The measurement adds discrete Laplace noise Z (scale 1) to each key's count and keeps a key whose
noisy count is >= the threshold.  A user who alone holds key "a" (count l∞ = 1) makes it appear
with probability P[1 + Z >= 3] = P[Z >= 2]; without that user the key never appears, so δ must
be at least that probability.  OpenDP 0.16 bounds δ by P[Z > threshold − l∞] = P[Z >= 3]: a factor
e too small.  With P(Z = k) = (1 − e⁻¹)/(1 + e⁻¹)·e^{−|k|}, P[Z >= k] = e^{−k}/(1 + e⁻¹) for
k >= 1: 0.0989 against the claimed 0.0364 at threshold 3 (issue 37's known-bug fixtures).

Two checks: the exact one (the installed OpenDP's own δ, taken at its exact binary value, is
proved below the exact release probability, an exact real), and the black-box one (the auditor
refutes OpenDP's (1, δ) claim from samples and does not refute the corrected δ).  When OpenDP
fixes the map, the first check fails: update the fixture and record the fixed version.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from fractions import Fraction

import numpy as np
import pytest

from privref.audits.blackbox.api import assert_private
from privref.audits.blackbox.report import BlackboxVerdict
from privref.reference.decide import greater_than, less_than
from privref.reference.reals import Real, exp, rational
from privref.reference.verdict import Verdict

dp = pytest.importorskip("opendp.prelude")

OPENDP_2922 = "https://github.com/opendp/opendp/issues/2922"
THRESHOLD = 3
SCALE = 1.0


@functools.cache
def _measurement() -> object:
    dp.enable_features("contrib")
    domain = dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=int))
    metric = dp.l01inf_distance(dp.absolute_distance(T=int))
    return dp.m.make_laplace_threshold(domain, metric, scale=SCALE, threshold=THRESHOLD)


def _tail(k: int) -> Real:
    """P[Z >= k] = e^{−k}/(1 + e⁻¹) for the discrete Laplace of scale 1, k >= 1 (exact)."""
    return exp(rational(-k)) * (1 / (1 + exp(rational(-1))))


def _claimed_delta() -> Fraction:
    _, delta = _measurement().map((1, 1, 1))  # type: ignore[attr-defined]
    return Fraction(delta)  # the float's exact binary value


def test_the_installed_opendp_states_the_exclusive_tail() -> None:
    """OpenDP's δ is P[Z >= threshold] (the 'l∞ excluded' tail) to float precision."""
    gap = rational(_claimed_delta()) - _tail(THRESHOLD)
    tiny = rational(Fraction(1, 10**15))
    assert less_than(gap, tiny) is Verdict.HOLDS and greater_than(gap, -tiny) is Verdict.HOLDS


def test_the_exact_release_probability_exceeds_the_claimed_delta() -> None:
    """P[1 + Z >= 3] = e^{-2}/(1 + e^{-1}) = 0.0989 > OpenDP's δ = 0.0364: the claim is refuted
    (the neighbour without the user never releases the key, so δ >= this probability)."""
    release = _tail(THRESHOLD - 1)
    assert greater_than(release, rational(_claimed_delta())) is Verdict.HOLDS
    assert less_than(release, rational(Fraction(99, 1000))) is Verdict.HOLDS


def _released(data: Sequence[Hashable], rng: np.random.Generator) -> int:
    """1 when key "a" is released: data holds the users' keys (one user: ("a",); none: ())."""
    counts = {"a": len(data)} if data else {}
    out = _measurement()(counts)  # type: ignore[operator]
    return int("a" in out)


_released.uses_own_randomness = True  # type: ignore[attr-defined]


@pytest.mark.deep  # 32,000 OpenDP calls, about 14 s; the exact checks above run in CI
def test_the_blackbox_auditor_flags_the_claim_and_passes_the_corrected_one() -> None:
    pairs = [(("a",), ())]
    confidence = 1 - Fraction(1, 10**6)
    with pytest.raises(AssertionError, match=r"is not \(1, .*\)-DP"):
        assert_private(_released, epsilon=1, delta=_claimed_delta(), pairs=pairs,
                       relation="add-remove", samples=8_000, confidence=confidence)
    corrected = _tail(THRESHOLD - 1).enclose(64).hi  # a rational at or above the release probability
    report = assert_private(_released, epsilon=1, delta=corrected, pairs=pairs,
                            relation="add-remove", samples=8_000, confidence=confidence)
    assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND
