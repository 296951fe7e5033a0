"""Ledger entries of IterLabelBoost's size schedule (proofs.p004.schedule): mutations and helpers.

Every check's verdict is exercised by tests/proofs/test_ledger.py; the entries' structure and the
000 counterparts are tested in test_labelboost_entries.py.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from privref.proofs import Verdict
from privref.proofs.p004 import schedule as sched4
from privref.reference.concepts import thresholds_on

F = Fraction


@pytest.mark.parametrize(("check", "constants"), [
    (sched4.check_never_fails, {"UNLABELED_SCALE": F(1, 3)}),    # |D| = 30000n only
    (sched4.check_c7_lower_bounds, {"FLOOR_SLACK": 0}),          # the base case is lost to ⌊·⌋
    (sched4.check_iterations_vs_log_star, {"LOG_STAR_EXTRA": -1}),  # N(10^5) = 3 = log*(10^5)
    (sched4.check_c7_chain, {"C7_RHS_LOG_SHIFT": F(500)}),       # smallest log-gap ≈ 453.9
])
def test_mutated_constants_are_refuted(monkeypatch: pytest.MonkeyPatch, check: Any,
                                       constants: dict[str, Any]) -> None:
    for name, value in constants.items():
        monkeypatch.setattr(sched4, name, value)
    result = check()
    assert result.verdict is Verdict.VIOLATED, result.evidence


def test_sauer_side_fails_without_the_proof_structure() -> None:
    result = sched4.check_sauer_side(sched4.SCALED_004)   # keep·exponent_divisor != 2
    assert result.verdict is Verdict.VIOLATED, result.evidence


def test_log_star() -> None:
    assert [sched4.log_star(n) for n in (1, 2, 15, 16, 3814279, 10**100)] == [0, 1, 2, 3, 3, 4]


def test_em_tail_upper_bounds_the_exact_tail() -> None:
    C = thresholds_on(8)
    pts = C.domain.points
    for size in (3, 40, 400):
        for counts in sched4.compositions(pts, size):
            for target in (C[0], C[3]):
                exact = sched4.em_tail(C, pts, counts, target, F(1, 10))
                assert exact.hi <= sched4.em_tail_upper(C, pts, counts, target, F(1, 10)) + F(1, 2**80)
