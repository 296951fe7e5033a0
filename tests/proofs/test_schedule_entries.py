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


@pytest.mark.parametrize(("check", "args"), [
    (sched4.check_never_fails, {"factor": 30000}),               # |D| = 30000n only
    (sched4.check_c7_lower_bounds, {"floor_slack": 0}),          # the base case is lost to ⌊·⌋
    (sched4.check_iterations_vs_log_star, {"extra": -1}),        # N(10^5) = 3 = log*(10^5)
    (sched4.check_c7_chain, {"rhs_log_shift": F(500)}),          # smallest log-gap ≈ 453.9
    (sched4.check_sauer_side, {"constants": sched4.SCALED_004}),  # keep·exponent_divisor != 2
])
def test_mutated_constants_are_refuted(check: Any, args: dict[str, Any]) -> None:
    result = check(**args)
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
