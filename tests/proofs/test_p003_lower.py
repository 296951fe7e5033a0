"""003's cited lemmas and lower-bound entries (proofs.p003.lower): statuses, exact values, mutations."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Entry, Kind, Status, Verdict
from privref.proofs.p003 import lower as pl
from privref.proofs.registry import entry_by_id
from privref.proofs.report import subject_fingerprint
from privref.reference.concepts import explicit, point_functions, thresholds, thresholds_on
from privref.reference.vc import littlestone_dimension, vc_dimension

IDS = {
    "003 Lemma 2.5": Status.NOT_CHECKABLE,
    "003 Lemma 2.6": Status.NOT_CHECKABLE,
    "003 Theorem 4.1": Status.NOT_CHECKABLE,
    "003 Theorem 4.1 / 100·n_pub·α > 1/16 ⇔ n_pub > 1/(1600α)": Status.PROVED,
    "003 Theorem 4.1 / δ(n_priv) <= δ(ñ) for Theorem 4.3 at ñ": Status.REFUTED,
    "003 Theorem 4.1 / β_A = 1/18 fits Lemma 4.4's 1/16 budget": Status.REFUTED,
    "003 Theorem 4.2": Status.NOT_CHECKABLE,
    "003 Theorem 4.2 / (1/16,1/16,0.1) learner ⇒ (0.1,0.1,0.1) learner": Status.PROVED,
    "003 Theorem 4.2 / 100·n_pub·α > 1/16 ⇔ n_pub > 1/(1600α)": Status.PROVED,
    "003 Theorem 4.2 / β_A = 1/18 fits Lemma 4.4's 1/16 budget": Status.REFUTED,
    "003 Theorem 4.3": Status.NOT_CHECKABLE,
}


@pytest.mark.parametrize("entry", pl.ENTRIES, ids=[e.id for e in pl.ENTRIES])
def test_entry_registered(entry: Entry) -> None:
    """Registered, with resolvable subjects (its checks' verdicts: tests/proofs/test_ledger.py)."""
    assert entry_by_id(entry.id) is entry
    subject_fingerprint(entry)                      # every subject resolves


def test_ids_statuses_and_kinds() -> None:
    assert {e.id: e.status for e in pl.ENTRIES} == IDS
    for e in pl.ENTRIES:
        assert e.paper == "003"
        assert (e.kind is Kind.PROOF_STEP) == (e.step is not None)
        assert e.number in {"Lemma 2.5", "Lemma 2.6", "Theorem 4.1", "Theorem 4.2",
                            "Theorem 4.3"}
    assert "003-E8" in entry_by_id("003 Lemma 2.5").notes
    assert "pure" in entry_by_id("003 Lemma 2.5").notes
    assert "003-E3" in entry_by_id("003 Theorem 4.3").notes


# ------------------------------------------------------------- exact values


@pytest.mark.parametrize("k", range(1, 10))
def test_ldim_of_thresholds_on_2_to_the_k_points_is_k(k: int) -> None:
    C = thresholds(k)
    assert len(C.domain) == 1 << k
    assert littlestone_dimension(C) == k
    assert vc_dimension(C) == 1


def test_ldim_thresholds_small_table_and_point_functions() -> None:
    assert [littlestone_dimension(thresholds_on(n)) for n in range(1, 16)] == \
        [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 4]
    assert littlestone_dimension(thresholds(0)) == 1      # 1 point, 2 concepts
    assert littlestone_dimension(point_functions(range(1))) == 0
    assert littlestone_dimension(point_functions(range(12), include_zero=True)) == 1


def test_npub_bound_table_and_reduction_sizes() -> None:
    table = pl.npub_bound_table([Fraction(1, 100), Fraction(1, 1600), Fraction(1, 1601),
                                 Fraction(1, 16_000)])
    assert [n for _, n in table] == [1, 2, 2, 11]
    assert pl.reduction_sizes(10, 1) == 1
    assert pl.reduction_sizes(11, 1) == 2
    assert pl.reduction_sizes(50, 5) == 1
    assert pl.reduction_sizes(101, 5) == 3


def test_budget_exact_values() -> None:
    assert pl.budget(pl.PAPER_BETA) == Fraction(17, 225)
    assert pl.budget(pl.CORRECTED_BETA) == Fraction(37, 600)
    assert pl.budget(Fraction(17, 400)) == Fraction(1, 16)          # the largest β_A that fits
    assert pl.check_budget(Fraction(17, 400)).verdict is Verdict.HOLDS
    assert pl.check_budget(Fraction(17, 400) + Fraction(1, 10**9)).verdict is Verdict.VIOLATED
    # the paper's intermediate fractions (eq. 4 and the final 1/16) fail too
    assert Fraction(1, 18) + Fraction(1, 100) > Fraction(1, 17)
    assert Fraction(1, 17) + Fraction(1, 100) > Fraction(1, 16)


def test_delta_step_boundary() -> None:
    assert pl.check_delta_defined(10, 1).verdict is Verdict.VIOLATED
    assert pl.check_delta_defined(11, 1).verdict is Verdict.HOLDS     # ñ = 2
    assert pl.check_delta_defined(1, 1).verdict is Verdict.VIOLATED
    assert pl.check_delta_defined(21, 2).verdict is Verdict.HOLDS


# ---------------------------------------------------------------- mutations


def test_broken_lower_constant_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pl, "LOWER_CONSTANT", Fraction(1, 1000))  # the proof-overview's 1/1000
    r = pl.check_npub_threshold()
    assert r.verdict is Verdict.VIOLATED
    assert r.witness == "n_pub = 1, α = 1/1000"
    for wrong in (Fraction(1, 1599), Fraction(1, 1601)):
        monkeypatch.setattr(pl, "LOWER_CONSTANT", wrong)
        assert pl.check_npub_threshold().verdict is Verdict.VIOLATED


def test_broken_accuracy_order_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pl, "THEOREM_42_ACCURACY", Fraction(1, 8))
    r = pl.check_accuracy_monotone()
    assert r.verdict is Verdict.VIOLATED


def test_ldim_claims_outside_their_range_are_caught() -> None:
    # one point: POINT has a single concept, Ldim 0, so "Ldim = 1" fails at k = 1
    r = pl.check_point_functions_ldim(range(1, 4))
    assert r.verdict is Verdict.VIOLATED and r.witness == "k = 1"
    # all four functions on two points have Ldim 2: realizable bookkeeping still holds
    full = explicit(range(2), [(0, 0), (0, 1), (1, 0), (1, 1)], name="all")
    assert littlestone_dimension(full) == 2
    assert pl.check_realizable_excess([full]).verdict is Verdict.HOLDS


def test_broken_ldim_routine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pl, "littlestone_dimension", vc_dimension)   # VC instead of Ldim
    assert pl.check_thresholds_ldim().verdict is Verdict.VIOLATED
    assert pl.check_thresholds_ldim_powers().witness == "k = 2"
    assert pl.check_point_functions_ldim().verdict is Verdict.HOLDS  # VC = Ldim = 1 there
