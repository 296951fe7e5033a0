"""Ledger entries of proofs.p002.realizable (002 Lemma 6, Remark 2 via B4): verdicts, mutations."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p002 import ENTRIES as P002_ENTRIES
from privref.proofs.p002 import realizable as rz
from privref.proofs.registry import entry_by_id
from privref.reference.concepts import Concept, ConceptClass
from privref.reference.data import Dataset

F = Fraction

IDS = {
    "002 Lemma 6": Status.NOT_CHECKABLE,
    "002 Lemma 6 / B4 is epsilon-private (one example moves each vote by 1)": Status.CHECKED,
    "002 Lemma 6 / B4 accuracy: L <= 4 max_j err(f_j) + e^(-eps k/4)": Status.CHECKED,
    "002 Remark 2": Status.CHECKED,
}


def test_entries_and_statuses() -> None:
    assert {e.id: e.status for e in rz.ENTRIES} == IDS
    for e in rz.ENTRIES:
        assert e.paper == "002" and e in P002_ENTRIES and entry_by_id(e.id) is e


def test_privacy_values_by_hand() -> None:
    """ln((1 + r^k)/(1 + r^{k-2})) at r = 2: k = 3 gives ln(9/3) = ln 3, k = 2 gives ln(5/2)."""
    evidence = rz.check_b4_privacy().evidence
    assert "exact eps = log(3)" in evidence and "exact eps = log(5/2)" in evidence


def test_mutation_privacy_claim_halved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rz, "B4_EPSILON_SCALE", F(1, 2))
    assert rz.check_b4_privacy().verdict is Verdict.VIOLATED


def test_mutation_accuracy_without_the_vote_term(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without e^{-eps k/4}: all blocks right still leaves B4 wrong w.p. 1/(1 + r^k) > 0."""
    monkeypatch.setattr(rz, "_vote_term", lambda k: F(0))
    assert rz.check_b4_accuracy().verdict is Verdict.VIOLATED


def test_mutation_simultaneous_with_a_non_consistent_learner() -> None:
    def constant(C: ConceptClass, data: Dataset) -> Concept:
        return C[0]

    assert rz.check_simultaneous_targets(constant).verdict is Verdict.VIOLATED
