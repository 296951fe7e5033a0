"""Ledger entry of proofs.p001.iwal_privacy: PATE-ASQ with the IWAL-CAL student is
post-processing of at most ℓ released labels.  The honest check runs once, in
tests/proofs/test_ledger.py; here its mutants must make it fail."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from privref.proofs import Status, Verdict
from privref.proofs.p001 import iwal_privacy as ip
from privref.proofs.registry import entry_by_id
from privref.reference.learners.iwal import iwal_cal_program
from privref.reference.program import Program
from tests.proofs.checks import resolves

Service = Callable[[int], Program[int]]


def test_entry() -> None:
    (entry,) = ip.ENTRIES
    assert entry.id == "001 Theorem 2 / ASQ with the IWAL-CAL student is post-processing of <= ℓ labels"
    assert entry.status is Status.CHECKED and entry_by_id(entry.id) is entry
    assert all(resolves(s) for s in entry.subjects), entry.subjects


def test_fails_when_the_student_reads_a_private_vote() -> None:
    """Mutant: the stream length (so which points are asked) depends on the first vote count."""
    def peeking(votes: tuple[int, ...]) -> Callable[[Service], Program[Any]]:
        def learner(service: Service) -> Program[Any]:
            return iwal_cal_program(3 if votes[0] else 2, service, ip.ThresholdOracle(3),
                                    budget=ip.CHECK_BUDGET, c0=ip.CHECK_C0)
        return learner
    result = ip.check_asq_iwal_post_processing(peeking)
    assert result.verdict is Verdict.VIOLATED and "above the 2^2 = 4 bound" in result.evidence


def test_fails_when_the_student_trains_on_a_label_it_was_not_released() -> None:
    """Mutant: the output hypothesis is the majority of the private votes at point 0."""
    def cheating(votes: tuple[int, ...]) -> Callable[[Service], Program[Any]]:
        def learner(service: Service) -> Program[Any]:
            run = yield from ip.honest_student(votes)(service)
            return type(run)(0 if 2 * votes[0] >= 2 else 3, run.examples, run.probabilities,
                             run.processed)
        return learner
    assert ip.check_asq_iwal_post_processing(cheating).verdict is Verdict.VIOLATED


def test_fails_when_the_student_exceeds_the_budget() -> None:
    def greedy(votes: tuple[int, ...]) -> Callable[[Service], Program[Any]]:
        def learner(service: Service) -> Program[Any]:
            for j in range(3):
                yield from service(j)
            return None
        return learner
    result = ip.check_asq_iwal_post_processing(greedy)
    assert result.verdict is Verdict.VIOLATED and "budget=2 exhausted" in result.evidence


def test_undecided_when_no_coin_is_exercised(monkeypatch: Any) -> None:
    """With C0 so large that every P is 1, the instance no longer tests IWAL's coins."""
    monkeypatch.setattr(ip, "CHECK_C0", 100.0)
    assert ip.check_asq_iwal_post_processing().verdict is Verdict.UNDECIDED
