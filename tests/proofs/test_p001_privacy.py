"""Ledger entries of proofs.p001.privacy (001 Theorem 2 / 26, Lemmas 40, 42, 44, 51, 52)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privref.proofs import Status, Verdict
from privref.proofs.p001 import privacy
from privref.proofs.registry import entry_by_id
from privref.reference.accounting import (
    algorithm1_sigma,
    algorithm2_lambda,
    analytic_gaussian_delta,
)
from privref.reference.reals import Real, exp, log, rational, sqrt
from tests.proofs.checks import resolves

F = Fraction


def test_entries_and_statuses() -> None:
    assert {e.id: e.status for e in privacy.ENTRIES} == {
        "001 Theorem 2": Status.CHECKED,
        "001 Theorem 26": Status.CHECKED,
        "001 Theorem 2 / Algorithm 1 is not GNMax": Status.CHECKED,
        "001 Theorem 2 / PSQ and ASQ need a per-record teacher split": Status.CHECKED,
        "001 Theorem 2 / ex-post ε is data-dependent": Status.CHECKED,
        "001 Lemma 40": Status.PROVED,
        "001 Lemma 42": Status.PROVED,
        "001 Lemma 44": Status.REFUTED,
        "001 Lemma 51": Status.CHECKED,
        "001 Lemma 51 / Definition 50 reads ρ·φ": Status.REFUTED,
        "001 Lemma 52": Status.CHECKED,
    }
    for e in privacy.ENTRIES:
        assert entry_by_id(e.id) is e  # each check's verdict: the parametrized test above
        assert all(resolves(s) for s in e.subjects), e.subjects


def test_theorem_26_shares_theorem_2s_checks() -> None:
    main, again = entry_by_id("001 Theorem 2"), entry_by_id("001 Theorem 26")
    assert again.checks == main.checks and again.status is main.status


# ------------------------------------------------------------------ exact values


def test_contiguous_split_by_hand() -> None:
    assert privacy.contiguous_split(3, 2).teachers == (0, 0, 1)
    assert privacy.contiguous_split(4, 2).parts() == ((0, 1), (2, 3))


def test_hockey_stick_by_hand() -> None:
    # Σ max(0, P_i − 2Q_i) = max(0, 1/2 − 1/2) + max(0, 1/2 − 3/2) = 0; at r = 1: 1/4
    assert privacy.hockey_stick((F(1, 2), F(1, 2)), (F(1, 4), F(3, 4)), F(2)) == 0
    assert privacy.hockey_stick((F(1, 2), F(1, 2)), (F(1, 4), F(3, 4)), F(1)) == F(1, 4)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.data())
def test_post_processing_property(data: st.DataObject) -> None:
    """HS_r(PF || QF) <= HS_r(P || Q) for generated rational P, Q, F (001 Lemma 40)."""
    k = data.draw(st.integers(2, 4))
    out = data.draw(st.integers(1, 4))
    weights = st.lists(st.integers(0, 5), min_size=k, max_size=k).filter(lambda w: sum(w) > 0)
    row = st.lists(st.integers(0, 5), min_size=out, max_size=out).filter(lambda w: sum(w) > 0)
    p_w, q_w = data.draw(weights), data.draw(weights)
    p = tuple(F(x, sum(p_w)) for x in p_w)
    q = tuple(F(x, sum(q_w)) for x in q_w)
    rows = [data.draw(row) for _ in range(k)]
    m = [[F(x, sum(r)) for x in r] for r in rows]
    r = data.draw(st.fractions(1, 5))
    push = privacy._push
    assert privacy.hockey_stick(push(p, m), push(q, m), r) <= privacy.hockey_stick(p, q, r)


def test_randomized_response_renyi_at_two_against_the_two_point_sum() -> None:
    """D_2 = ln(Σ p_i²/q_i) with p = (e, 1)/(1 + e), q = (1, e)/(1 + e) at ε = 1."""
    e = exp(F(1))
    p1, p2 = e / (e + 1), rational(1) / (e + 1)
    direct = log(p1 * p1 / p2 + p2 * p2 / p1)
    a, b = direct.enclose(120), privacy.randomized_response_renyi(F(1), F(2)).enclose(120)
    assert a.lo <= b.hi and b.lo <= a.hi and a.width < F(1, 2**100)


def test_lemma44_counterexample_value() -> None:
    """δ(10) at the infimum σ for δ = 1e-5 is about 2.27e-5 (the inventory's value), > 1e-5."""
    assert privacy.check_lemma44_counterexample().verdict is Verdict.VIOLATED
    c = sqrt(log(F(5, 4) * 10**5) * 2)
    sigma = (c / 10).enclose(64).hi
    box = analytic_gaussian_delta(10, 1, sigma)
    assert F(22, 10**6) < box.lo and box.hi < F(23, 10**6)


def test_calibrations_solve_their_equations_at_one_point() -> None:
    lam = algorithm2_lambda(2, F(1), F(1, 10))
    rho = rational(4) / (lam * lam)  # 2T/λ², T = 2
    box = (rho + sqrt(rho * log(F(20))) * 2).enclose(120)
    assert box.lo <= 1 <= box.hi
    s = algorithm1_sigma(3, F(1, 2), F(1, 10))
    box = (sqrt(6 * log(F(10)) / (s * s)) + 3 / (s * s * 2)).enclose(120)
    assert box.lo <= F(1, 2) <= box.hi


# ------------------------------------------------------------------ mutations


def test_shrunk_claims_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(privacy, "ALGORITHM1_CLAIM_SCALE", F(1, 4))
    monkeypatch.setattr(privacy, "ALGORITHM2_CLAIM_SCALE", F(1, 10))
    assert privacy.check_algorithm1_audits().verdict is Verdict.VIOLATED
    assert privacy.check_algorithm2_audits().verdict is Verdict.VIOLATED


def _bad_lambda(cutoff: int, eps: Fraction, delta: Fraction) -> Real:
    """λ without the 2 in √(2T(ε + ln(2/δ)))."""
    l2 = log(2 / delta)
    return (sqrt((eps + l2) * cutoff) + sqrt(l2 * (2 * cutoff))) / eps


def _bad_sigma(ell: int, eps: Fraction, delta: Fraction) -> Real:
    """σ with 2ε instead of 2ε·ℓ under the second root."""
    two = log(1 / delta) * (2 * ell)
    return (sqrt(two) + sqrt(two + 2 * eps)) / (2 * eps)


def test_wrong_calibrations_are_caught() -> None:
    assert privacy.check_calibration_identities(lam_fn=_bad_lambda).verdict is Verdict.VIOLATED
    assert privacy.check_calibration_identities(sigma_fn=_bad_sigma).verdict is Verdict.VIOLATED


def test_gnmax_mutations_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    assert privacy.check_not_gnmax(against_gnmax=False).verdict is Verdict.VIOLATED
    monkeypatch.setattr(privacy, "GNMAX_VARIANCE_FACTOR", F(1))
    assert privacy.check_not_gnmax().verdict is Verdict.VIOLATED


def test_split_mutations_are_caught() -> None:
    assert privacy.check_positional_split_moves_many_votes(k=1).verdict is Verdict.VIOLATED
    assert privacy.check_per_record_split_moves_one_vote(
        assign=privacy._positional_assign).verdict is Verdict.VIOLATED


def test_a_data_blind_count_is_caught() -> None:
    assert privacy.check_ex_post_is_data_dependent(lambda out: 2).verdict is Verdict.VIOLATED


def test_post_processing_with_slack_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(privacy, "LEMMA40_FACTOR", F(1, 2))
    assert privacy.check_hockey_stick_post_processing().verdict is Verdict.VIOLATED


def test_half_laplace_noise_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(privacy, "LEMMA42_SCALE", F(1, 2))
    assert privacy.check_laplace_density_ratio().verdict is Verdict.VIOLATED


def test_lemma44_checks_can_flip(monkeypatch: pytest.MonkeyPatch) -> None:
    assert privacy.check_lemma44_counterexample(F(1, 2)).verdict is Verdict.HOLDS
    monkeypatch.setattr(privacy, "LEMMA44_C2_SCALE", F(1, 4))
    assert privacy.check_lemma44_corrected().verdict is Verdict.VIOLATED


def test_lemma51_without_the_two_is_caught() -> None:
    def weak(rho: Fraction, delta: Fraction) -> Real:
        return rho + sqrt(rho * log(1 / delta))

    assert privacy.check_gaussian_conversion(weak).verdict is Verdict.VIOLATED


def test_renyi_readings_can_flip(monkeypatch: pytest.MonkeyPatch) -> None:
    assert privacy.check_renyi_reading_constant(F(10**7)).verdict is Verdict.HOLDS
    monkeypatch.setattr(privacy, "DEFINITION50_RHO_SCALE", F(1, 2))
    assert privacy.check_renyi_reading_phi().verdict is Verdict.VIOLATED


def test_quartered_zcdp_bound_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(privacy, "LEMMA52_FACTOR", F(1, 4))
    assert privacy.check_randomized_response_renyi().verdict is Verdict.VIOLATED


def test_lemma44_repair_is_sufficient_not_necessary(monkeypatch: pytest.MonkeyPatch) -> None:
    """ε < 1 is sufficient: δ = 1e-5 holds at ε = 8 and fails at 9; moving either end breaks it."""
    assert privacy.check_lemma44_threshold().verdict is Verdict.HOLDS
    monkeypatch.setattr(privacy, "_L44_STILL_HOLDS", Fraction(17, 2))  # already fails at 8.5
    assert privacy.check_lemma44_threshold().verdict is Verdict.VIOLATED
    monkeypatch.setattr(privacy, "_L44_STILL_HOLDS", Fraction(8))
    monkeypatch.setattr(privacy, "_L44_FIRST_FAILS", Fraction(33, 4))  # still holds at 8.25
    assert privacy.check_lemma44_threshold().verdict is Verdict.VIOLATED
