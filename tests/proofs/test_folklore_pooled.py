"""The ledger entry behind the pooled test: its checks hold, and fail where they must."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.audits.blackbox import pooled
from privref.proofs import folklore_pooled
from privref.proofs._ledger import Verdict
from privref.proofs.registry import entry_by_id


def test_the_entry_is_checked_and_cited_by_the_code() -> None:
    entry = entry_by_id("folklore Przyborowski-Wilenski 1940")
    assert [c.expect for c in entry.checks] == [Verdict.HOLDS, Verdict.HOLDS]  # run: test_ledger
    assert pooled.SOURCE.entry_id == entry.id


def test_without_the_coins_the_conditional_law_is_not_binomial() -> None:
    """Fixed sizes (D per side): the check must fail, so it can."""
    got = folklore_pooled.check_conditional_law(coins=False)
    assert got.verdict is Verdict.VIOLATED and got.witness == "P=1/2 Q=1/4"


def test_a_bound_at_twice_the_level_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """pooled_ratio at 3·alpha: some case's failure probability exceeds alpha."""
    real = pooled.pooled_ratio

    def loose(x: int, y: int, alpha: Fraction) -> Fraction:
        return real(x, y, min(3 * alpha, Fraction(99, 100)))

    monkeypatch.setattr(folklore_pooled, "pooled_ratio", loose)
    assert folklore_pooled.check_pooled_level().verdict is Verdict.VIOLATED
