"""Ledger entries of proofs.p003.reduction: verdicts, statuses, timing, and mutations."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import pytest

from privref.proofs import Kind, Status, Verdict
from privref.proofs.p003 import reduction as red
from privref.proofs.registry import entry_by_id
from privref.proofs.runner import run_entry
from privref.reference.data import Dataset
from privref.reference.learners import reduction as ref
from privref.reference.program import Program, bernoulli, call


def test_entries_and_statuses() -> None:
    status = {e.id: e.status for e in red.ENTRIES}
    assert status == {
        "003 Lemma 4.4": Status.NOT_CHECKABLE,
        "003 Claim 4.5": Status.CHECKED,
        "003 Claim 4.6": Status.NOT_CHECKABLE,
        "003 Claim 4.6 / eq. (2)": Status.REFUTED,
    }
    step = entry_by_id("003 Claim 4.6 / eq. (2)")
    assert step.kind is Kind.PROOF_STEP and step.counterexample and step.corrected
    for e in red.ENTRIES:
        assert entry_by_id(e.id) is e
        assert e.subjects == ("reference.learners.reduction",)


def _reusing_priv_samp(s_tilde: Dataset, d0: ref.DummyDistribution, p: Fraction,
                       n_priv: int) -> Program[tuple[Dataset, bool]]:
    """Broken PrivSamp: takes the next S̃ entry but never removes it (reuse)."""
    out: list[Hashable] = []
    while len(out) < n_priv:
        if (yield from bernoulli(p)):
            out.append(s_tilde[0])
        else:
            out.append((yield from call(ref._dummy_example, d0)))
    return (tuple(out), False)


def test_mutation_reusing_privsamp_breaks_the_privacy_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ref, "priv_samp", _reusing_priv_samp)
    assert red.check_privacy_stressed().verdict is Verdict.VIOLATED
    entry = entry_by_id("003 Claim 4.5")
    assert not run_entry(entry).consistent


def test_mutation_off_by_one_exhaustion_formula_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    original = ref.exhaustion_probability

    def wrong(n_priv: int, n_tilde: int, p: Fraction) -> Fraction:
        return original(n_priv + 1, n_tilde, p)  # Bin(n_priv, p) instead of Bin(n_priv - 1, p)

    monkeypatch.setattr(red, "exhaustion_probability", wrong)
    assert red.check_exhaustion_formula().verdict is Verdict.VIOLATED
    assert red.check_privsamp_coupling().verdict is Verdict.VIOLATED


def test_mutation_biased_dummy_labels_break_the_mixture_identity(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def biased_law(self: ref.DummyDistribution) -> dict[tuple[Hashable, int], Fraction]:
        total = sum(self.weights, Fraction(0))
        return {(x, y): w / total * (Fraction(3, 4) if y else Fraction(1, 4))
                for x, w in zip(self.points, self.weights, strict=True) if w for y in (0, 1)}

    monkeypatch.setattr(ref.DummyDistribution, "law", biased_law)
    assert red.check_mixture_identity().verdict is Verdict.VIOLATED
