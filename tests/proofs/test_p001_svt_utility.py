"""Ledger entries of proofs.p001.svt_utility (001 Lemmas 3, 4, 15, Propositions 18 / 30)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p001 import svt_utility as svt
from privref.proofs.registry import entry_by_id
from privref.reference import accounting
from privref.reference.decide import greater_than, less_than
from privref.reference.stability_release import instability_distance
from tests.proofs.checks import resolves

F = Fraction


def test_entries_and_statuses() -> None:
    assert {e.id: e.status for e in svt.ENTRIES} == {
        "001 Lemma 3": Status.REFUTED,
        "001 Lemma 4": Status.PROVED,
        "001 Lemma 15": Status.NOT_CHECKABLE,
        "001 Lemma 15 / margin smaller than K/6": Status.CHECKED,
        "001 Proposition 18": Status.NOT_CHECKABLE,
        "001 Proposition 30": Status.NOT_CHECKABLE,
        "001 Proposition 18 / Δ^ compared where Algorithm 2 uses dist": Status.REFUTED,
        "001 Proposition 18 / Definition 17's inequality is reversed": Status.REFUTED,
        "001 Proposition 18 / E[Δ^|x] = 2KΔ": Status.REFUTED,
    }
    for e in svt.ENTRIES:
        assert entry_by_id(e.id) is e  # each check's verdict: the parametrized test above
        assert all(resolves(s) for s in e.subjects), e.subjects
    by_id = {e.id: e for e in svt.ENTRIES}
    assert by_id["001 Proposition 30"].checks == by_id["001 Proposition 18"].checks


# ------------------------------------------------------------------ exact values


def test_the_large_epsilon_instance_by_hand() -> None:
    """ε = 100, δ = 1/100, β = 1/10, ℓ = T = 1: 18 < K_printed < 19, and Δ^ = 7 (13 of 19 votes)
    is the least margin >= 19/3 with K's parity; its distance is ⌈7/2⌉ − 1 = 3."""
    k = svt.lemma3_k(F(100), F(1, 100), F(1, 10), 1, 1)
    assert greater_than(k, 18) is Verdict.HOLDS and less_than(k, 19) is Verdict.HOLDS
    assert instability_distance(13, 19) == 3


def test_the_proposition18_correction_is_larger() -> None:
    """The corrected K is at least the printed one (it doubles the second term and adds 2/ξ)."""
    args = (F(1), F(1, 100), 1000, 21, F(1, 10), F(1, 10))
    printed, fixed = svt.proposition18_k(*args), svt.corrected_proposition18_k(*args)
    assert greater_than(fixed, printed * 2) is Verdict.HOLDS


def test_the_k6_witness_is_minimal() -> None:
    """K = 5, 2 votes: Δ^ = 1, 3·1 < 5 (refusable) but 6·1 >= 5 (not counted at K/6)."""
    result = svt.check_margin_full_scale_misses()
    assert result.verdict is Verdict.HOLDS
    assert result.witness is not None and result.witness.startswith("K=5")


# ------------------------------------------------------------------ mutations


def test_a_too_small_lemma3_constant_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(svt, "LEMMA3_K_CONSTANT", F(60))
    assert svt.check_lemma3_corrected().verdict is Verdict.VIOLATED


def test_the_lemma3_counterexamples_need_their_hypotheses() -> None:
    """(a) vanishes at ε = 1 <= ln(2/δ); (b) vanishes with a break after T ⊥'s or T − 1
    unstable queries."""
    assert svt.check_lemma3_large_epsilon(epsilon=F(1)).verdict is Verdict.HOLDS
    assert svt.check_lemma3_off_by_one(breaks_at=2).verdict is Verdict.HOLDS
    assert svt.check_lemma3_off_by_one_discrete(unstable=0).verdict is Verdict.HOLDS


def test_a_too_small_pigeonhole_factor_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(svt, "LEMMA4_FACTOR", 2)
        assert svt.check_pigeonhole().verdict is Verdict.VIOLATED
        assert svt.check_pigeonhole_labels().verdict is Verdict.VIOLATED
    monkeypatch.setattr(svt, "_LEMMA15_SLACK", 2)  # 3B − 2 is too tight
    assert svt.check_margin_cut().verdict is Verdict.VIOLATED
    assert svt.check_margin_half_scale().verdict is Verdict.VIOLATED


def test_both_lemma15_readings_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """The half-scale reading fails if its cut is K/12 (too small); the Δ^ reading's
    illustration fails if Δ^ is taken at K/3 (then nothing is missed)."""
    monkeypatch.setattr(svt, "_half_scale_below_k6", lambda s, k: 12 * abs(2 * s - k) < 2 * k)
    assert svt.check_margin_half_scale().verdict is Verdict.VIOLATED
    monkeypatch.setattr(svt, "_dhat_below_k6", svt._dhat_below_k3)
    assert svt.check_margin_full_scale_misses().verdict is Verdict.VIOLATED


def test_the_printed_proposition18_k_fails_and_the_corrected_holds() -> None:
    assert svt.check_proposition18_condition(svt.proposition18_k).verdict is Verdict.VIOLATED
    assert svt.check_proposition18_condition(grid=False).verdict is Verdict.HOLDS


def test_a_quarter_of_the_printed_k_is_not_certified(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(svt, "PROPOSITION18_K_SCALE", F(1, 4))
    assert svt.check_proposition18_instance().verdict is not Verdict.HOLDS


def test_shrunk_deviations_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(svt, "PROPOSITION18_STEP1_SCALE", F(1, 4))
    monkeypatch.setattr(svt, "SIGNED_HOEFFDING_SCALE", F(1, 2))
    assert svt.check_high_margin_count().verdict is Verdict.VIOLATED
    assert svt.check_signed_hoeffding().verdict is Verdict.VIOLATED


def test_lemma3_repair_is_sufficient_not_necessary(monkeypatch: pytest.MonkeyPatch) -> None:
    """ε <= ln(2/δ) is not necessary: the condition holds at ε = 20 but not at ε = 30."""
    assert svt.check_lemma3_condition_not_necessary().verdict is Verdict.HOLDS
    monkeypatch.setattr(svt, "_BEYOND_EPS", F(30))
    assert svt.check_lemma3_condition_not_necessary().verdict is Verdict.VIOLATED


def test_the_all_parameter_proof_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """Half the printed 136 breaks the proved constant; a doubled λ breaks the proof's step."""
    assert svt.check_lemma3_all_parameters().verdict is Verdict.HOLDS
    with monkeypatch.context() as m:
        m.setattr(svt, "LEMMA3_K_CONSTANT", F(68))
        assert svt.check_lemma3_all_parameters().verdict is Verdict.VIOLATED
    lam = accounting.algorithm2_lambda
    monkeypatch.setattr(svt, "algorithm2_lambda", lambda t, e, d: lam(t, e, d) * 2)
    assert svt.check_lemma3_all_parameters().verdict is Verdict.VIOLATED
