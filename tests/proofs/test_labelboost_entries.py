"""Ledger entries of LabelBoost (proofs.p004.labelboost) and the 000 counterparts (proofs.p000.labelboost).

Every check's verdict is exercised by tests/proofs/test_ledger.py; here: the structure of the
entries, and mutations showing that each kind of check can fail.  The IterLabelBoost privacy and
schedule checks (proofs.p004.iterlabelboost, proofs.p004.schedule) are tested in
test_iterlabelboost_entries.py and test_schedule_entries.py.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from privref.proofs import Kind, Status, Verdict
from privref.proofs.p000 import labelboost as lb0
from privref.proofs.p004 import iterlabelboost as ilb4
from privref.proofs.p004 import labelboost as lb4
from privref.proofs.p004 import schedule as sched4
from privref.reference.learners.base import Learner, as_learner
from privref.reference.learners.labelboost import label_boost, labelboost_claim
from privref.reference.reals import Interval

F = Fraction
ENTRIES_004 = (*lb4.ENTRIES, *ilb4.ENTRIES, *sched4.ENTRIES)
ENTRIES = (*ENTRIES_004, *lb0.ENTRIES)


def test_ids_statuses_and_counterparts() -> None:
    ids = [e.id for e in ENTRIES]
    assert len(ids) == len(set(ids))
    status = {e.id: e.status for e in ENTRIES}
    assert status["004 Lemma 4.1"] is Status.REFUTED
    assert status["000 Lemma 4.1"] is Status.CHECKED
    assert status["000 Claim 4.2"] is Status.REFUTED
    assert status["004 Claim C.7 / first display '='"] is Status.REFUTED
    assert status["004 Corollary C.8"] is status["000 Remark 4.10"] is Status.NOT_CHECKABLE
    for number in ("Lemma 4.1", "Claim 4.2", "Remark 4.4", "Lemma 4.6", "Observation 4.7",
                   "Claim 4.8", "Claim 4.9", "Remark 4.10", "Remark 4.15"):
        assert f"000 {number}" in ids
    for number in ("Lemma 4.1", "Remark 4.3", "Remark C.2", "Lemma C.4", "Claim C.5", "Claim C.6",
                   "Claim C.7", "Corollary C.8"):
        assert f"004 {number}" in ids
    for e in ENTRIES:
        if e.kind is Kind.PROOF_STEP:
            assert e.step and e.id.startswith(f"{e.paper} {e.number} / ")
        if e.status is Status.REFUTED:
            assert any(c.expect is Verdict.VIOLATED for c in e.checks)
    counterpart = next(e for e in lb0.ENTRIES if e.id == "000 Claim 4.8")
    assert counterpart.also == ("004 Claim C.6",) and counterpart.checks == next(
        e for e in ENTRIES_004 if e.id == "004 Claim C.6").checks


@pytest.mark.parametrize(("name", "value", "check"), [
    ("LEMMA41_EPS_SHIFT", 2, lb4.check_ln4e),                 # ln(4e) ≈ 2.386 > 2
    ("WEIGHT_RATIO_FACTOR", F(1, 4), lb4.check_weight_ratio),  # w ratio ≈ 3.3 > e/4
])
def test_mutated_lb4_constants_are_refuted(monkeypatch: pytest.MonkeyPatch, name: str, value: Any,
                                           check: Any) -> None:
    monkeypatch.setattr(lb4, name, value)
    result = check()
    assert result.verdict is Verdict.VIOLATED, result.evidence


@pytest.mark.parametrize(("check", "args"), [
    (lb0.check_claim42_counterexample, {}),
])
def test_mutated_constants_are_refuted(check: Any, args: dict[str, Any]) -> None:
    result = check(**args)
    assert result.verdict is Verdict.VIOLATED, result.evidence


def test_claim49_chain_fails_with_a_small_exponent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutation: exponent 2 instead of 24 (corner log-gap ≈ 163.7 at 24, negative at 2)."""
    monkeypatch.setattr(lb0, "CLAIM49_CHAIN_EXPONENT", 2)
    result = lb0.check_claim49_chain()
    assert result.verdict is Verdict.VIOLATED, result.evidence


def test_claim42_counterexample_depends_on_beta() -> None:
    """At β = 2/5 > 1/(1+√e) ≈ 0.3775 the same instance satisfies the conclusion."""
    assert lb0.check_claim42_counterexample(beta=F(2, 5)).verdict is Verdict.HOLDS


def test_claim42_corrected_detects_a_too_strong_conclusion(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """Mutation: compare the exact tails against β/10^6 instead of β: a violation is found."""
    real = lb0.claim42_tail

    def inflated(*args: Any) -> Interval:
        return real(*args) * 10**6

    monkeypatch.setattr(lb0, "claim42_tail", inflated)
    assert lb0.check_claim42_corrected(examples=15).verdict is Verdict.VIOLATED


def test_lemma41_audit_fails_when_the_em_epsilon_is_dropped() -> None:
    """Mutation: LabelBoost with ε_em = 2 ln 10^4 but the claim of ε_em = 1 (ε + 3): VIOLATED."""
    def mutant(base: Learner[Any], *, s: int, t: int, d: int) -> Learner[Any]:
        learner = label_boost(base, s=s, t=t, d=d, em_epsilon="2*ln(10000)")
        mech = replace(learner.mechanism, claim=labelboost_claim(base.claim))
        return as_learner(mech, learner.concepts, proper=learner.proper)

    assert lb4.check_lemma41_eps1_audits(mutant).verdict is Verdict.VIOLATED


def test_printed_004_claim_is_refuted_and_corrected_holds() -> None:
    assert lb4.check_004_printed_counterexample().verdict is Verdict.VIOLATED
    assert lb4.check_printed_holds_for_large_eps().verdict is Verdict.HOLDS
