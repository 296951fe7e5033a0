"""Ledger entries of proofs.p002.lower (002 Theorem 4): verdicts, statuses, mutations."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p002 import lower
from privref.proofs.registry import entry_by_id
from privref.reference.learners.stability_lower_bound import hard_instance, key_bound
from tests.proofs.checks import resolves

F = Fraction


def test_entries_and_statuses() -> None:
    assert {e.id: e.status for e in lower.ENTRIES} == {
        "002 Theorem 4": Status.CHECKED,
        "002 Theorem 4 / (h, S) and (h ⊕ e_i, S^(i)) are identically distributed": Status.CHECKED,
        "002 Theorem 4 / A(S, x_i) and A(S^(i), x_i) differ by at most γ·N_i(S)": Status.CHECKED,
    }
    for e in lower.ENTRIES:
        assert entry_by_id(e.id) is e  # each check's verdict: the parametrized test above
        assert all(resolves(s) for s in e.subjects), e.subjects


def test_the_random_label_learner_is_exactly_one_over_n_stable() -> None:
    """Changing one example moves P[label = 1] by exactly 1/n at most; all labels c ⇒ predicts c."""
    A = lower.random_label_predictor(4)
    assert A.probability_one(((0, 1), (1, 1), (0, 0), (1, 0)), 0) == F(1, 2)
    assert A.probability_one(((0, 1), (1, 1), (0, 1), (1, 1)), 1) == 1


# ------------------------------------------------------------------ mutations


def test_a_too_large_key_bound_is_caught() -> None:
    """Raising the key bound by 10% fails (B1 with m = 1 attains it exactly)."""
    def inflated(inst: object, n: int, gamma: Fraction) -> Fraction:
        return key_bound(inst, n, gamma) * F(11, 10)  # type: ignore[arg-type]
    assert lower.check_corrected_key_inequality(inflated).verdict is Verdict.VIOLATED


def test_a_bound_without_the_half_is_caught() -> None:
    """Dropping the /2 of the key bound fails."""
    assert lower.check_corrected_key_inequality(
        lambda inst, n, g: 2 * key_bound(inst, n, g)).verdict is Verdict.VIOLATED


def test_a_smaller_chain_factor_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lower, "REPLACEMENT_SCALE", F(9, 10))
    assert lower.check_chain_of_replacements().verdict is Verdict.VIOLATED


def test_a_halved_sample_size_constant_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """n >= (d − 1)/(4αγ) fails: B1 at d = 2, α = 1/16, n = 3 has E L <= α with n < 4."""
    monkeypatch.setattr(lower, "SAMPLE_SIZE_DENOMINATOR", 4)
    result = lower.check_corrected_key_inequality()
    assert result.verdict is Verdict.VIOLATED and "E L <= α" in result.evidence


def test_a_wrong_flip_is_caught() -> None:
    assert lower.check_flip_symmetry(lambda data, x: data).verdict is Verdict.VIOLATED


def test_hard_instance_used_by_the_checks_is_the_papers() -> None:
    inst = hard_instance(3, F(1, 16))
    assert inst.weights == (F(3, 4), F(1, 8), F(1, 8))


def test_the_d1_counterexample_needs_the_constant_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """With all functions on 2 points (VC 2) instead, no counterexample is reported."""
    monkeypatch.setattr(lower, "constant_class", lambda: lower.all_functions(2))
    assert lower.check_d1_counterexample().verdict is Verdict.HOLDS
    assert lower.check_d1_reading_fails().verdict is Verdict.VIOLATED  # the d = 1 reading check
