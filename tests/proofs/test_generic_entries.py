"""Ledger entries of GenericLearner and BLR (proofs.p004.generic, proofs.p000.generic), and mutations."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from fractions import Fraction
from typing import cast

import pytest

from privref.proofs import Kind, Status, Verdict
from privref.proofs.p000 import generic as g000
from privref.proofs.p004 import generic as g
from privref.reference.citations import Uncited
from privref.reference.concepts import Concept, thresholds_on
from privref.reference.data import Dataset
from privref.reference.exponential import agreements, exponential_weights
from privref.reference.learners.base import Learner, as_learner
from privref.reference.learners.generic import generic_learner, hypothesis_set, split_database
from privref.reference.learners.sanitizer import SanitizedDatabase, Sanitizer, blr_sanitizer
from privref.reference.mechanism import Mechanism
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, call, categorical_choice, choose
from privref.reference.reals import log
from privref.reference.vc import xor_class

T3 = thresholds_on(3)
EPS = log(Fraction(3, 2)) * 2          # the default audit instance: BLR with k = 1, n = 3, m = 1


def test_entries_ids_statuses_and_counterparts() -> None:
    by_id = {e.id: e for e in g.ENTRIES}
    assert by_id["004 Theorem 3.3"].status is Status.CHECKED
    assert by_id["004 Theorem A.3"].status is Status.CHECKED
    assert by_id["004 Lemma 3.4"].status is Status.NOT_CHECKABLE
    steps = [e for e in g.ENTRIES if e.kind is Kind.PROOF_STEP]
    assert len(steps) == 5 and all(e.number == "Theorem 3.3" and e.also == ("000 Theorem 3.3",)
                                   for e in steps)
    assert [e.status for e in steps].count(Status.REFUTED) == 1
    assert {e.id for e in g000.ENTRIES} == {"000 Theorem 3.3", "000 Corollary 3.4", "000 Theorem A.3"}
    for e in g000.ENTRIES:                         # counterparts share their 004 checks
        twin = by_id[e.also[0]]
        assert e.checks == twin.checks and e.status is twin.status


# ------------------------------------------------------------- privacy mutations


def _doubled_budget_sanitizer() -> Sanitizer:
    """BLR run at 2ε that still claims ε."""
    real = blr_sanitizer(xor_class(T3), k=1, epsilon=EPS * 2)
    return Sanitizer(dataclasses.replace(real.mechanism, claim=PrivacyClaim(EPS)),
                     real.queries, real.output_size)


def test_a_sanitizer_with_a_doubled_budget_is_caught() -> None:
    bad = _doubled_budget_sanitizer()
    assert g.check_blr_privacy(bad).verdict is Verdict.VIOLATED
    lrn = generic_learner(T3, m=1, epsilon=EPS, sanitizer=bad)
    result = g.check_generic_privacy(lrn)
    assert result.verdict is Verdict.VIOLATED and result.witness


def _reads_s_in_the_sanitizer(m: int) -> Learner[Concept]:
    """GenericLearner that sanitizes D and the points of S together (no longer parallel composition)."""
    san = blr_sanitizer(xor_class(T3), k=1, epsilon=EPS)

    def program(data: Dataset) -> Program[Concept]:
        points, sample = split_database(T3, m, data)
        everything = points + tuple(x for x, _ in cast("tuple[tuple[Hashable, int], ...]", sample))
        sanitized: SanitizedDatabase = yield from call(san.mechanism.program, everything)
        hyps = hypothesis_set(T3, sanitized)
        weights = exponential_weights([agreements(h, sample) for h in hyps], epsilon=EPS)
        index = yield from choose(categorical_choice(weights))
        return hyps[index]

    return as_learner(Mechanism("leaky GenericLearner", program, PrivacyClaim(EPS),
                                Uncited("mutation")),
                      T3, proper=True)


def test_a_learner_that_reads_s_in_the_sanitizer_is_caught() -> None:
    result = g.check_generic_privacy(_reads_s_in_the_sanitizer(1))
    assert result.verdict is Verdict.VIOLATED, result.evidence


def test_an_improper_variant_is_caught() -> None:
    """Outputting the complement x >= j of the chosen threshold leaves THRESH."""
    real = generic_learner(T3, m=1, epsilon=EPS, sanitizer=blr_sanitizer(xor_class(T3), k=1, epsilon=EPS))
    inner = real.mechanism.program
    full = Concept(T3.domain, (1, 1, 1))

    def program(data: Dataset) -> Program[Concept]:
        h = yield from inner(data)
        return h.xor(full)

    lrn = as_learner(dataclasses.replace(real.mechanism, program=program), T3, proper=True)
    assert g.check_generic_proper(lrn).verdict is Verdict.VIOLATED


# -------------------------------------------------------- utility and accuracy mutations


def test_a_sanitizer_that_ignores_its_input_fails_utility() -> None:
    real = blr_sanitizer(xor_class(T3), k=3, epsilon=1)

    def constant(data: Dataset) -> Program[SanitizedDatabase]:
        return (0, 0, 0)
        yield  # pragma: no cover

    blind = Sanitizer(dataclasses.replace(real.mechanism, program=constant), real.queries, 3)
    assert g.check_generic_utility(blind).verdict is Verdict.VIOLATED


def test_accuracy_and_tail_checks_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    weak = blr_sanitizer(xor_class(T3), k=3, epsilon=log(Fraction(101, 100)) * 6)
    assert g.check_blr_accuracy(weak).verdict is Verdict.VIOLATED
    monkeypatch.setattr(g, "BLR_BETA", Fraction(1, 30))
    assert g.check_blr_accuracy().verdict is Verdict.VIOLATED   # true ≈ 0.0345
    monkeypatch.setattr(g, "BLR_TAIL_FACTOR", Fraction(1, 20))
    assert g.check_blr_tail().verdict is Verdict.VIOLATED


# ------------------------------------------------------------- constant mutations


@pytest.mark.parametrize(("name", "value", "check"), [
    ("B6_FACTOR", 1200, g.check_constants_b6),
    ("B6_INNER", 20, g.check_constants_b6),
    ("EM_DIVISOR", 5, g.check_constants_em),
    ("ERROR_E1", Fraction(2, 5), g.check_error_bookkeeping),
    ("ERROR_CHOSEN", Fraction(9, 10), g.check_error_bookkeeping),
    ("FAILURE_PARTS", (Fraction(2, 5),) * 3, g.check_failure_bookkeeping),
    ("CORRECTED_M_CONSTANT", Fraction(7000), g.check_corrected_m),
])
def test_constant_checks_fail_on_wrong_constants(monkeypatch: pytest.MonkeyPatch, name: str,
                                                 value: object, check: object) -> None:
    monkeypatch.setattr(g, name, value)
    assert callable(check)
    assert check().verdict is Verdict.VIOLATED


def test_stated_m_refutation_is_a_real_computation(monkeypatch: pytest.MonkeyPatch) -> None:
    # a constant above the ratio (≈ 2.5e6) is not exceeded
    monkeypatch.setattr(g, "STATED_M_CONSTANT", Fraction(10**7))
    assert g.check_stated_m_covers_proof().verdict is Verdict.HOLDS


def test_labeled_part_check_fails_when_h_is_all_of_c(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(g, "hypothesis_set", lambda C, out: C.concepts)
    assert g.check_thresholds_labeled_part().verdict is Verdict.VIOLATED
