"""Ledger entries of 004 Theorem C.12 (proofs.p004.lower_bound), and broken variants they catch.

The 000 counterpart (Theorem 5.6, proofs.p000.active) is tested in test_active_entries.py.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Check, Entry, Status, Verdict
from privref.proofs.p004 import lower_bound as lower
from tests.proofs.checks import assert_check, case_id, check_cases

F = Fraction
CASES = check_cases(lower.ENTRIES)


@pytest.mark.parametrize(("entry", "check"), CASES, ids=[case_id(c) for c in CASES])
def test_every_check_gives_its_expected_verdict(entry: Entry, check: Check) -> None:
    """Agrees with the entry's status; a counterexample (VIOLATED) carries a witness."""
    assert_check(check)


def test_statuses_are_as_recorded() -> None:
    status = {e.id: e.status for e in lower.ENTRIES}
    assert status["004 Theorem C.12"] is Status.NOT_CHECKABLE
    assert status["004 Theorem C.12 / fails w.p. >= 3/4"] is Status.REFUTED
    assert status["004 Theorem C.12 / 7αn <= b <= 9αn"] is Status.REFUTED


def test_refuted_steps_name_a_checked_counterexample() -> None:
    refuted = [e for e in lower.ENTRIES if e.status is Status.REFUTED]
    assert [e.step for e in refuted] == ["fails w.p. >= 3/4", "7αn <= b <= 9αn", "solving for m"]
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
