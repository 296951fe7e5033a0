"""Ledger entries of proofs.p002.matching (002 Lemmas 10, 11, Eqs. (3)-(7), C12): verdicts, mutations."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Kind, Status, Verdict
from privref.proofs.p002 import ENTRIES as P002_ENTRIES
from privref.proofs.p002 import matching as mt
from privref.proofs.registry import entry_by_id
from privref.reference.concepts import Concept, ConceptClass
from privref.reference.data import Dataset
from privref.reference.learners import relabel_analysis as ra

F = Fraction

IDS = {
    "002 Lemma 10": Status.CHECKED,
    "002 Lemma 10 / C12: the matching is one-to-one, one-to-two or two-to-one": Status.CHECKED,
    "002 Lemma 10 / Eq. (7): matched pairs differ on at most k points of S": Status.CHECKED,
    "002 Lemma 10 / Eq. (6): the core is O(1)-private in the subset, outside a bad set":
        Status.CHECKED,
    "002 Lemma 11": Status.CHECKED,
    "002 Lemma 11 / Eq. (5): fixed subset, changed data": Status.CHECKED,
    "002 Lemma 8 / Eq. (3): the core's privacy, E_I over subsets": Status.CHECKED,
    "002 Lemma 8 / Eq. (4): amplification over the subset, scores on S": Status.CHECKED,
    "002 Lemma 8 / the T₁ off-by-one: the net is w.r.t. U(S), the sample avoids x₁":
        Status.CHECKED,
}


def test_entries_and_statuses() -> None:
    assert {e.id: e.status for e in mt.ENTRIES} == IDS
    for e in mt.ENTRIES:
        assert e.paper == "002" and e in P002_ENTRIES and entry_by_id(e.id) is e
        assert e.kind is (Kind.PROOF_STEP if e.step else Kind.LEMMA)
        assert "[R-" in e.statement, "every statement names its reconstruction tag"
        assert e.subjects


def test_trap_instance_by_construction() -> None:
    """The trap's δ is m/n = 2/19: g is a candidate only with index 0, so every I ∋ 0 has a
    large radius; C(18, 1)/C(19, 2) = 18/171 = 2/19."""
    part = ra.subset_partition(mt.TRAP.C, mt.TRAP.data, 2, 1)
    assert part.t1_fraction == F(2, 19) and part.t2 == ()
    assert min(r for _, r in part.radii) >= 16
    assert mt.TRAP.growth == (F(11, 10) * F(3, 2)) ** 2


def test_laws_core_equals_the_mean_of_subset_laws() -> None:
    inst = mt.INSTANCES[0]
    laws = mt.Laws(inst)
    for x in inst.C.domain:
        mean = ra.averaged_law(inst.C, inst.data, inst.m, x, inst.epsilon1, inst.blocks,
                               inst.epsilon2).prob(1)
        assert laws.core(inst.data, x, 1) == mean


# ------------------------------------------------------------------ mutations


def test_mutation_matching_without_agreement() -> None:
    """A matcher that pairs every h1 with all of H_{S_J} breaks |M(h1)| <= 2."""
    def everything(C: ConceptClass, data: Dataset, index: tuple[int, ...], changed: int,
                   j: int) -> tuple[tuple[Concept, tuple[Concept, ...]], ...]:
        pairs = ra.matching(C, data, index, changed, j)
        right = tuple({h2 for _, m in pairs for h2 in m})
        return tuple((h1, right) for h1, _ in pairs)

    assert mt.check_matching_shape(everything).verdict is Verdict.VIOLATED


def test_mutation_lemma10_without_four_and_radius(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dropping both the 4 and e^{k(I)(eps1+eps2)} (the bound becomes P(S,S_J)) fails; the
    real bound is loose on these instances (largest ratio/bound about 0.05), so dropping only
    one of them is not caught: recorded honestly."""
    monkeypatch.setattr(ra, "matched_radius", lambda C, data, index, changed: 0)
    assert mt.check_lemma10_exact().verdict is Verdict.HOLDS
    monkeypatch.setattr(mt, "MATCHING_FACTOR", F(1))
    assert mt.check_lemma10_exact().verdict is Verdict.VIOLATED


def test_mutation_lemma10_paper_constant_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """4e² replaced by e²/8 (< 1) fails."""
    monkeypatch.setattr(mt, "LEMMA10_PAPER_FACTOR", F(1, 8))
    assert mt.check_lemma10_paper_constant().verdict is Verdict.VIOLATED


def test_mutation_lemma11_without_the_factor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mt, "LEMMA11_SCALE", F(1, 6))
    assert mt.check_lemma11().verdict is Verdict.VIOLATED


def test_lemma11_halved_fails_on_the_near_tight_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    """e^{ε₁+ε₂}/2 holds on the tiny instances (ratio/bound ≈ 0.37) but fails on the
    near-tight pair (≈ 0.75): a factor-2 error in Lemma 11 is caught."""
    monkeypatch.setattr(mt, "LEMMA11_SCALE", F(1, 2))
    assert mt.check_lemma11(extra=()).verdict is Verdict.HOLDS
    result = mt.check_lemma11()
    assert result.verdict is Verdict.VIOLATED and "near-tight" in (result.witness or "")
    assert mt.check_lemma11(instances=()).verdict is Verdict.VIOLATED


def test_mutation_group_privacy_with_half_the_exponent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mt, "GROUP_PRIVACY_EXPONENT", 1)
    assert mt.check_matched_consequences().verdict is Verdict.VIOLATED


def test_mutation_refined_privacy_without_delta(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without |T1(k)|/|T| (or with half of it) the refined bound fails on the trap pair (the
    core needs δ)."""
    for scale in (F(0), F(1, 2)):
        monkeypatch.setattr(mt, "T1_SCALE", scale)
        result = mt.check_refined_privacy()
        assert result.verdict is Verdict.VIOLATED and "trap" in (result.witness or "")


def test_mutation_amplification_without_the_t1_or_t2_term(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the T2 term (the 4 set to 0) Eq. (4) fails; with half the |T1(k)| term it fails
    on the trap pair."""
    with monkeypatch.context() as mp:
        mp.setattr(mt, "MATCHING_FACTOR", F(0))
        assert mt.check_amplified_subsets().verdict is Verdict.VIOLATED
    monkeypatch.setattr(mt, "T1_SCALE", F(1, 2))
    assert mt.check_amplified_subsets(extra=()).verdict is Verdict.HOLDS
    result = mt.check_amplified_subsets()
    assert result.verdict is Verdict.VIOLATED and "trap" in (result.witness or "")


def test_mutation_off_by_one_without_slack(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mt, "OFF_BY_ONE", 0)
    assert mt.check_net_off_by_one().verdict is Verdict.VIOLATED


def test_mutation_bad_set_with_a_huge_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mt, "MATCHING_FACTOR", F(10**6))
    assert mt.check_bad_set_needed().verdict is Verdict.VIOLATED
