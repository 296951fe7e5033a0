"""Ledger entries of 004 Section 5 / C.3–C.4 and 000 Section 5, and broken variants they catch.

proofs.p004.active and proofs.p000.active (with 000 Theorem 5.6); 004 Theorem C.12
(proofs.p004.lower_bound) is tested in test_lower_bound_entries.py.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p000 import active as a0
from privref.proofs.p004 import active as a4
from privref.proofs.registry import MANIFEST, pending

F = Fraction
ENTRIES = (*a4.ENTRIES, *a0.ENTRIES)


def test_numbers_are_covered_in_both_papers() -> None:
    wanted = {"004": ("Remark 5.2", "Theorem 5.5", "Claim 5.6", "Theorem 5.7", "Theorem C.12"),
              "000": ("Remark 5.2", "Theorem 5.5", "Claim 5.7", "Theorem 5.8", "Theorem 5.6")}
    left = pending()
    for paper, numbers in wanted.items():
        for number in numbers:
            assert number in MANIFEST[paper]
            assert number not in left[paper]
    ids = [e.id for e in ENTRIES]
    assert len(ids) == len(set(ids))


def test_statuses_are_as_recorded() -> None:
    status = {e.id: e.status for e in ENTRIES}
    assert status["004 Claim 5.6"] is Status.PROVED
    assert status["004 Claim 5.6 / δ-coefficient"] is Status.REFUTED
    assert status["004 Theorem 5.7"] is Status.NOT_CHECKABLE
    assert status["000 Theorem 5.6 / 7αn <= b <= 9αn"] is Status.PROVED
    assert status["000 Theorem 5.6"] is Status.REFUTED  # for a fixed δ > 0


def test_the_rate_repair_of_theorem_57() -> None:
    """The rescaled sizes hold, and the audit is not vacuous: at t = 30 the leak alone has
    probability 41δ/30 > δ.  (The ledger checks at the printed t = 11, VIOLATED with a witness,
    and at t = 399, HOLDS, run once in tests/proofs/test_ledger.py.)"""
    assert a4.check_rescaled_sizes().verdict is Verdict.HOLDS
    assert a4.check_theorem57_all_pairs(30).verdict is Verdict.VIOLATED


# ------------------------------------------------------------------ broken variants are caught


def test_wrong_t_in_the_claim_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Claiming the (ε, δ′) of t·8 while running with t: the exact audit finds a pair."""
    from privref.reference.learners.active import subsampling_active_claim as real

    def claim_of_8t(inner: Any, n: int, t: int, **kwargs: Any) -> Any:
        return real(inner, n, 8 * t, **kwargs)

    monkeypatch.setattr(a4, "subsampling_active_claim", claim_of_8t)
    a4.check_subsampling_audits.cache_clear()
    try:
        result = a4.check_subsampling_audits("printed", False)
    finally:
        a4.check_subsampling_audits.cache_clear()
    assert result.verdict is Verdict.VIOLATED


def test_revealing_the_transcript_is_caught() -> None:
    """SubSampling's output + K (TPAL) at the PAL claim is VIOLATED; the check relies on it."""
    assert a4.check_tpal_not_claimed().verdict is Verdict.HOLDS


def test_a_shifted_transcript_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(a4, "TPAL_FIRST_QUERY", 1)
    assert a4.check_theorem55().verdict is Verdict.VIOLATED


def test_ratio_with_half_the_exponent_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    assert a4.ratio_identity(eps_max=F(4)).verdict is Verdict.VIOLATED
    with monkeypatch.context() as m:
        m.setattr(a4, "RATIO_EXP_SCALE", F(1, 2))
        assert a4.check_ratio_bnb().verdict is Verdict.VIOLATED
    monkeypatch.setattr(a4, "CLAIM56_T_CONSTANT", 2)
    assert a4.ratio_identity().verdict is Verdict.VIOLATED


def test_repaired_proof_needs_its_case_split(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(a4, "LARGE_EPS_W_EXPONENT", 0)
        assert a4.check_repaired_large_eps().verdict is Verdict.VIOLATED
    monkeypatch.setattr(a4, "REPAIRED_CASE_SPLIT", F(5))
    assert a4.check_repaired_small_eps().verdict is Verdict.VIOLATED


def test_wrong_constants_are_caught() -> None:
    assert a4.check_c11_coefficient(7, F(38), F(3835, 100)).verdict is Verdict.VIOLATED


def test_delta_coefficient_boundary_is_ln3() -> None:
    """With R = e^ε the printed coefficient survives at e^ε = 3 − 1/100 and fails just above 3."""
    below = a4.check_delta_coefficient(F(0), F(1098, 1000), route="exp")   # e^1.098 < 3
    above = a4.check_delta_coefficient(F(0), F(1100, 1000), route="exp")   # e^1.1 > 3
    assert below.verdict is Verdict.HOLDS and above.verdict is Verdict.VIOLATED


def test_counterexamples_carry_witnesses() -> None:
    """Each REFUTED entry states its counterexample and correction and has a check expecting
    VIOLATED (test_ledger.py runs it once and requires its witness)."""
    for entry in ENTRIES:
        if entry.status is Status.REFUTED:
            assert entry.counterexample and entry.corrected
            assert any(c.expect is Verdict.VIOLATED for c in entry.checks), entry.id
