"""Ledger entries of proofs.p001.svt_utility (001 Lemmas 3, 4, 15, Propositions 18 / 30)."""

from __future__ import annotations

from fractions import Fraction

from privref.proofs import Status, Verdict
from privref.proofs.p001 import svt_utility as svt
from privref.proofs.registry import entry_by_id
from privref.reference.reals import Order, compare
from privref.reference.stability_release import instability_distance
from tests.proofs.checks import resolves

F = Fraction


def test_entries_and_statuses() -> None:
    assert {e.id: e.status for e in svt.ENTRIES} == {
        "001 Lemma 3": Status.REFUTED,
        "001 Lemma 4": Status.PROVED,
        "001 Lemma 15": Status.NOT_CHECKABLE,
        "001 Lemma 15 / margin smaller than K/6": Status.REFUTED,
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
    assert compare(k, 18)[0] is Order.GREATER and compare(k, 19)[0] is Order.LESS
    assert instability_distance(13, 19) == 3


def test_the_proposition18_correction_is_larger() -> None:
    """The corrected K is at least the printed one (it doubles the second term and adds 2/ξ)."""
    args = (F(1), F(1, 100), 1000, 21, F(1, 10), F(1, 10))
    printed, fixed = svt.proposition18_k(*args), svt.corrected_proposition18_k(*args)
    assert compare(fixed, printed * 2)[0] is Order.GREATER


def test_the_k6_witness_is_minimal() -> None:
    """K = 5, 2 votes: Δ^ = 1, 3·1 < 5 (refusable) but 6·1 >= 5 (not counted at K/6)."""
    result = svt.check_margin_cut(6)
    assert result.witness is not None and result.witness.startswith("K=5")


# ------------------------------------------------------------------ mutations


def test_a_too_small_lemma3_constant_is_caught() -> None:
    assert svt.check_lemma3_corrected(F(60)).verdict is Verdict.VIOLATED


def test_the_lemma3_counterexamples_need_their_hypotheses() -> None:
    """(a) vanishes at ε = 1 <= ln(2/δ); (b) vanishes with a break after T ⊥'s or T − 1
    unstable queries."""
    assert svt.check_lemma3_large_epsilon(epsilon=F(1)).verdict is Verdict.HOLDS
    assert svt.check_lemma3_off_by_one(breaks_at=2).verdict is Verdict.HOLDS
    assert svt.check_lemma3_off_by_one_discrete(unstable=0).verdict is Verdict.HOLDS


def test_a_too_small_pigeonhole_factor_is_caught() -> None:
    assert svt.check_pigeonhole(2).verdict is Verdict.VIOLATED
    assert svt.check_pigeonhole_labels(2).verdict is Verdict.VIOLATED
    assert svt.check_margin_cut(slack=2).verdict is Verdict.VIOLATED


def test_the_printed_proposition18_k_fails_and_the_corrected_holds() -> None:
    assert svt.check_proposition18_condition(svt.proposition18_k).verdict is Verdict.VIOLATED
    assert svt.check_proposition18_condition(grid=False).verdict is Verdict.HOLDS


def test_a_quarter_of_the_printed_k_is_not_certified() -> None:
    assert svt.check_proposition18_instance(F(1, 4)).verdict is not Verdict.HOLDS


def test_shrunk_deviations_are_caught() -> None:
    assert svt.check_high_margin_count(scale=F(1, 4)).verdict is Verdict.VIOLATED
    assert svt.check_signed_hoeffding(F(1, 2)).verdict is Verdict.VIOLATED
