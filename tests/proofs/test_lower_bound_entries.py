"""Ledger entries of 004 Theorem C.12 (proofs.p004.lower_bound), and broken variants they catch.

The 000 counterpart (Theorem 5.6, proofs.p000.active) is tested in test_active_entries.py.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p004 import lower_bound as lower

F = Fraction


def test_statuses_are_as_recorded() -> None:
    status = {e.id: e.status for e in lower.ENTRIES}
    assert status["004 Theorem C.12"] is Status.REFUTED  # for a fixed δ > 0
    assert status["004 Theorem C.12 / fails w.p. >= 3/4"] is Status.REFUTED
    assert status["004 Theorem C.12 / 7αn <= b <= 9αn"] is Status.REFUTED


def test_refuted_steps_name_a_checked_counterexample() -> None:
    refuted = [e for e in lower.ENTRIES if e.status is Status.REFUTED]
    assert [e.step for e in refuted] == [None, "fails w.p. >= 3/4", "7αn <= b <= 9αn",
                                         "solving for m"]
    for entry in refuted:
        assert entry.counterexample and entry.corrected
        assert any(c.expect is Verdict.VIOLATED for c in entry.checks), entry.id


# ------------------------------------------------------------------ broken variants are caught


def test_a_biased_swap_is_caught() -> None:
    assert lower.check_swap("000", first_in_b=True).verdict is Verdict.VIOLATED


def test_wrong_constants_are_caught() -> None:
    assert lower.algebra_identity(F(4, 3), F(7, 3), F(1)).verdict is Verdict.VIOLATED
    assert lower.algebra_identity(F(16, 9), F(24, 9), F(16, 9)).verdict is Verdict.VIOLATED
    # the corrected 3/4 − 1/|B| holds exactly, one more 1/|B| does not
    assert lower.check_failure_thresholds(6, F(1, 8), F(47, 64)).verdict is Verdict.HOLDS
    assert lower.check_failure_thresholds(6, F(1, 8), F(48, 64)).verdict is Verdict.VIOLATED


def test_the_c12_counterexample_lies_inside_the_wlog() -> None:
    """The 004 B instance has n >= (100/α²)ln(1/(αβ)); an n below it is reported as such."""
    inside = lower.check_failure_single(17, F(1, 8), 11091, version="004", n=22181)
    assert inside.verdict is Verdict.VIOLATED and ">= WLOG size" in inside.evidence
    below = lower.check_failure_single(4, F(1, 8), 2, version="004", n=4)
    assert "below WLOG size" in below.evidence
    # c_0 fails exactly for t > 2^17/8 = 16384: 5797/22182 >= 1/4 (the count is live)
    at_zero = lower.check_failure_single(17, F(1, 8), 0, F(1, 4), version="004", n=22181)
    assert at_zero.verdict is Verdict.HOLDS and "5797/22182" in at_zero.evidence


# ------------------------------------------------------------------ the fixed-δ counterexample


def test_the_fixed_subset_mutant_is_caught() -> None:
    """Without its random subset the learner is not (0, k/n)-private: the exact audit fails."""
    result = lower.check_subset_search_privacy(mutant=True)
    assert result.verdict is Verdict.VIOLATED and result.witness


def test_the_family_needs_delta_times_n_large() -> None:
    """With δ = 0 (nδ = 0) the corrected inequality would exceed the family's m: the consistency
    check's comparison is live, and the proof's constant is what the family beats."""
    from privref.reference.learners.lower_bound import implied_label_lower_bound
    from privref.reference.reals import Order, compare
    alpha, beta = F(1, 4096), F(1, 4)
    bound = implied_label_lower_bound(alpha, beta, 0, 0, 567800, version="004")
    assert compare(bound, 13)[0] is Order.GREATER  # (1 − 7/12)/(9α) ≈ 189.6
    result = lower.check_fixed_delta_family("004")
    assert result.verdict is Verdict.VIOLATED and "k=5678" in (result.witness or "")


def test_label_count_is_exactly_the_bit_length() -> None:
    assert [lower._max_queries(k) for k in (1, 2, 3, 4, 7, 8, 61)] == [1, 2, 2, 3, 3, 4, 6]


def test_monte_carlo_catches_a_beta_ten_times_too_small(monkeypatch: pytest.MonkeyPatch) -> None:
    """The failure rate is (15/16)^61 ≈ 0.0195: a claimed β = 1/500 is refuted at 1 − 10^-6."""
    monkeypatch.setattr(lower, "MC_BETA", F(1, 500))
    result = lower.check_subset_search_monte_carlo()
    assert result.verdict is Verdict.VIOLATED and result.witness
