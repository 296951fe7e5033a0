"""The folklore stability entries behind 002's baselines B1 and B2, and their controls."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import folklore
from privref.proofs.folklore import check_block_average_stability, check_subsample_stability
from privref.proofs.registry import entry_by_id
from privref.reference.verdict import Verdict


def test_b1_is_exactly_m_over_n_stable() -> None:
    result = check_subsample_stability()
    assert result.verdict is Verdict.HOLDS
    assert "γ* = 2/3" in result.evidence


def test_b2_is_exactly_one_over_k_stable() -> None:
    assert check_block_average_stability().verdict is Verdict.HOLDS


def test_both_checks_fail_below_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Claiming 9/10 of m/n (or 1/k) is refuted by the exact audit: the bounds are tight."""
    monkeypatch.setattr(folklore, "SUBSAMPLE_STABILITY_SCALE", Fraction(9, 10))
    assert check_subsample_stability().verdict is Verdict.VIOLATED
    monkeypatch.setattr(folklore, "BLOCK_STABILITY_SCALE", Fraction(9, 10))
    assert check_block_average_stability().verdict is Verdict.VIOLATED


def test_the_entries_name_the_baselines() -> None:
    b1 = entry_by_id("folklore Shalev-Shwartz et al. 2010 subsampling")
    b2 = entry_by_id("folklore Disjoint-block averaging")
    assert b1.subjects == ("reference.learners.prediction_baselines.subsample_predictor",)
    assert b2.subjects == ("reference.learners.prediction_baselines.block_average_predictor",)
