"""Ledger entries of proofs.p001.svt_privacy (001 Theorem 2's SVT steps, Lemmas 45, 46, 48, 49)."""

from __future__ import annotations

from fractions import Fraction

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
    assert svt_privacy.check_discrete_release_bound(F(1)).verdict is Verdict.VIOLATED


def test_a_too_large_dist_is_caught() -> None:
    def ceil_half(s: int, k: int) -> int:  # ⌈Δ/2⌉ without the − 1
        return -(-abs(2 * s - k) // 2)

    assert svt_privacy.check_dist_stability(ceil_half).verdict is Verdict.VIOLATED
    assert svt_privacy.check_max_k_reading(ceil_half).verdict is Verdict.VIOLATED


def test_role_checks_can_flip() -> None:
    assert svt_privacy.check_printed_roles(extra=3).verdict is Verdict.HOLDS
    assert svt_privacy.check_labels_where_screen_passes(-1).verdict is Verdict.VIOLATED


def test_a_too_small_union_is_caught() -> None:
    assert svt_privacy.check_union_bound(lambda ell, cutoff: ell - 1).verdict is Verdict.VIOLATED


def test_algorithm6_checks_can_flip() -> None:
    assert svt_privacy.check_printed_alg6("corrected").verdict is Verdict.HOLDS
    assert svt_privacy.check_corrected_alg6(F(1, 100)).verdict is Verdict.VIOLATED
    assert svt_privacy.check_printed_loop_guard(0).verdict is Verdict.HOLDS
    assert svt_privacy.check_bottom_count_at_most_cutoff(1).verdict is Verdict.VIOLATED


def test_a_too_small_margin_is_caught() -> None:
    assert svt_privacy.check_alg6_utility(F(1, 8)).verdict is Verdict.VIOLATED


def test_algorithm7_mutations_are_caught() -> None:
    assert svt_privacy.check_alg7_audits(F(1, 2)).verdict is Verdict.VIOLATED
    assert svt_privacy.check_alg7_noise_on_dist(1).verdict is Verdict.VIOLATED
    assert svt_privacy.check_alg7_utility(drop_delta=True).verdict is Verdict.VIOLATED
