"""Ledger entries of IterLabelBoost's privacy (proofs.p004.iterlabelboost): mutations of their checks.

Every check's verdict is exercised by tests/proofs/test_ledger.py; the entries' structure and the
000 counterparts are tested in test_labelboost_entries.py.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from privref.proofs import Verdict
from privref.proofs.p004 import iterlabelboost as ilb4

F = Fraction


@pytest.mark.parametrize(("check", "name", "value"), [
    (ilb4.check_446, "STEP_DELTA_FACTOR", 445),                # 4e·41 ≈ 445.8
    (ilb4.check_41_from, "STEP_DELTA_FACTOR", 600),            # 4·600/(3+e^4) ≈ 41.7
    (ilb4.check_590_threshold, "INTERMEDIATE_DELTA_FACTOR", 589),  # 590 also works
    (ilb4.check_base_case, "BASE_KEEP", F(1, 200)),            # ε = 247/200 > 1
])
def test_mutated_constants_are_refuted(monkeypatch: pytest.MonkeyPatch, check: Any, name: str,
                                       value: Any) -> None:
    monkeypatch.setattr(ilb4, name, value)
    result = check()
    assert result.verdict is Verdict.VIOLATED, result.evidence


def test_shuffle_remark_both_ways() -> None:
    assert ilb4.check_shuffle(True).verdict is Verdict.HOLDS
    assert ilb4.check_shuffle(False).verdict is Verdict.VIOLATED
