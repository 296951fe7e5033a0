"""Ledger entries of proofs.p002.matching (002 Lemmas 10, 11, Eqs. (3)-(7), C12): verdicts, mutations."""

from __future__ import annotations

from fractions import Fraction

from privref.proofs import Kind, Status, Verdict
from privref.proofs.p002 import ENTRIES as P002_ENTRIES
from privref.proofs.p002 import matching as mt
from privref.proofs.registry import entry_by_id
from privref.reference.concepts import Concept, ConceptClass
from privref.reference.data import Dataset
from privref.reference.learners import relabel_analysis as ra
from privref.reference.reals import rational

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


def test_mutation_lemma10_without_four_and_radius() -> None:
    """Dropping both the 4 and e^{k(I)(eps1+eps2)} (the bound becomes P(S,S_J)) fails; the
    real bound is loose on these instances (largest ratio/bound about 0.05), so dropping only
    one of them is not caught: recorded honestly."""
    assert mt.check_lemma10_exact(F(1), use_radius=False).verdict is Verdict.VIOLATED
    assert mt.check_lemma10_exact(F(4), use_radius=False).verdict is Verdict.HOLDS


def test_mutation_lemma10_paper_constant_one() -> None:
    assert mt.check_lemma10_paper_constant(constant=rational(1)).verdict is Verdict.VIOLATED


def test_mutation_lemma11_without_the_factor() -> None:
    assert mt.check_lemma11(F(1)).verdict is Verdict.VIOLATED


def test_mutation_group_privacy_with_half_the_exponent() -> None:
    assert mt.check_matched_consequences(group_factor=1).verdict is Verdict.VIOLATED


def test_mutation_refined_privacy_without_delta() -> None:
    """Without |T1(k)|/|T| the refined bound fails on the trap pair (the core needs δ)."""
    result = mt.check_refined_privacy(with_delta=False)
    assert result.verdict is Verdict.VIOLATED and "trap" in (result.witness or "")


def test_mutation_amplification_without_the_t2_term() -> None:
    assert mt.check_amplified_subsets(F(0)).verdict is Verdict.VIOLATED


def test_mutation_off_by_one_without_slack() -> None:
    assert mt.check_net_off_by_one(0).verdict is Verdict.VIOLATED


def test_mutation_bad_set_with_a_huge_constant() -> None:
    assert mt.check_bad_set_needed(factor=F(10**6)).verdict is Verdict.VIOLATED
