"""Ledger entries of proofs.p001.svt_privacy (001 Theorem 2's SVT steps, Lemmas 45, 46, 48, 49)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p001 import svt_privacy
from privref.proofs.registry import entry_by_id
from privref.reference.reals import Real, exp, rational
from tests.proofs.checks import resolves

F = Fraction


def test_entries_and_statuses() -> None:
    assert {e.id: e.status for e in svt_privacy.ENTRIES} == {
        "001 Theorem 2 / release probability of an unstable query": Status.PROVED,
        "001 Theorem 2 / dist has sensitivity 1 and keeps the majority": Status.CHECKED,
        "001 Theorem 2 / the proof swaps ⊥ and ⊤": Status.REFUTED,
        "001 Theorem 2 / union bound over ℓ + T variables is loose": Status.CHECKED,
        "001 Lemma 45": Status.REFUTED,
        "001 Lemma 45 / loop guard while c <= T": Status.REFUTED,
        "001 Lemma 46": Status.CHECKED,
        "001 Lemma 48": Status.CHECKED,
        "001 Lemma 48 / argmax_k read as max k": Status.CHECKED,
        "001 Lemma 48 / noise is added to dist": Status.CHECKED,
        "001 Lemma 49": Status.PROVED,
    }
    for e in svt_privacy.ENTRIES:
        assert entry_by_id(e.id) is e  # each check's verdict: the parametrized test above
        assert all(resolves(s) for s in e.subjects), e.subjects


# ------------------------------------------------------------------ exact values


def test_piecewise_tail_at_zero_is_one_half() -> None:
    """X − Y is symmetric and continuous, so P(X − Y > 0) = 1/2 exactly."""
    assert svt_privacy.difference_tail_by_pieces(F(6), F(3), F(0)).exact == F(1, 2)


def test_conservative_cases_are_the_even_halves() -> None:
    """Σ_{even K <= n} K/2: 210 for n = 40, 435 for n = 59."""
    assert svt_privacy.conservative_cases(40) == sum(range(1, 21)) == 210
    assert svt_privacy.conservative_cases(59) == sum(range(1, 30))


# ------------------------------------------------------------------ mutations


def test_wrong_release_formula_and_bound_are_caught() -> None:
    def wrong(lam: Fraction, w: Fraction) -> Real:  # /3 instead of /6
        return (exp(rational(-w / (2 * lam))) * 4 - exp(rational(-w / lam))) / 3

    def strong(lam: Fraction, w: Fraction) -> Real:  # e^{−w/λ}
        return exp(rational(-w / lam))

    assert svt_privacy.check_release_probability(closed_form=wrong).verdict is Verdict.VIOLATED
    assert svt_privacy.check_release_probability(bound=strong).verdict is Verdict.VIOLATED
    with pytest.MonkeyPatch.context() as m:
        m.setattr(svt_privacy, "RELEASE_DENOMINATOR", 1)
        assert svt_privacy.check_discrete_release_bound().verdict is Verdict.VIOLATED


def test_a_too_large_dist_is_caught() -> None:
    def ceil_half(s: int, k: int) -> int:  # ⌈Δ/2⌉ without the − 1
        return -(-abs(2 * s - k) // 2)

    assert svt_privacy.check_dist_stability(ceil_half).verdict is Verdict.VIOLATED
    assert svt_privacy.check_max_k_reading(ceil_half).verdict is Verdict.VIOLATED


def test_role_checks_can_flip() -> None:
    assert svt_privacy.check_printed_roles(extra=3).verdict is Verdict.HOLDS
    with pytest.MonkeyPatch.context() as m:
        m.setattr(svt_privacy, "SCREEN_BOTTOM_OFFSET", -1)
        assert svt_privacy.check_labels_where_screen_passes().verdict is Verdict.VIOLATED


def test_a_too_small_union_is_caught() -> None:
    assert svt_privacy.check_union_bound(lambda ell, cutoff: ell - 1).verdict is Verdict.VIOLATED


def test_algorithm6_checks_can_flip(monkeypatch: pytest.MonkeyPatch) -> None:
    assert svt_privacy.check_printed_alg6("corrected").verdict is Verdict.HOLDS
    assert svt_privacy.check_printed_alg6_audit_continuous("corrected").verdict is Verdict.HOLDS
    monkeypatch.setattr(svt_privacy, "ALG6_CLAIM_SCALE", F(1, 100))
    assert svt_privacy.check_corrected_alg6().verdict is Verdict.VIOLATED
    assert svt_privacy.check_corrected_alg6_continuous().verdict is Verdict.VIOLATED
    assert svt_privacy.check_printed_loop_guard(0).verdict is Verdict.HOLDS
    assert svt_privacy.check_bottom_count_at_most_cutoff(1).verdict is Verdict.VIOLATED


def test_a_too_small_margin_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(svt_privacy, "LEMMA46_PHI_SCALE", F(1, 8))
    assert svt_privacy.check_alg6_utility().verdict is Verdict.VIOLATED


def test_algorithm7_mutations_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(svt_privacy, "ALG7_CLAIM_SCALE", F(1, 2))
    assert svt_privacy.check_alg7_audits().verdict is Verdict.VIOLATED
    with pytest.MonkeyPatch.context() as m:
        m.setattr(svt_privacy, "ALG7_NOISE_SHIFT", 1)
        assert svt_privacy.check_alg7_noise_on_dist().verdict is Verdict.VIOLATED
    assert svt_privacy.check_alg7_utility(drop_delta=True).verdict is Verdict.VIOLATED


def test_printed_alg6_with_continuous_noise_is_refuted_by_one_event() -> None:
    """The closed form of one transcript's two probabilities gives ε(2⁻²⁰) >= 0.0103862, the
    figure an independent audit of the printed algorithm with continuous noise found."""
    result = svt_privacy.check_printed_alg6_continuous()
    assert result.verdict is Verdict.VIOLATED
    assert "ε(2⁻²⁰) >= [0.0103862, 0.0103862]" in result.evidence
    assert result.witness == "datasets (0,) vs (1,), transcript ⊥⊤⊤⊤⊤⊤⊤⊤"


def test_the_continuous_event_does_not_refute_a_larger_delta(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """At δ = 1/1000 (λ recomputed) the event's excess is far below δ: no refutation."""
    monkeypatch.setattr(svt_privacy, "_SV_DELTA", Fraction(1, 1000))
    assert svt_privacy.check_printed_alg6_continuous().verdict is Verdict.HOLDS
