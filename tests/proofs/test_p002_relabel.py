"""Ledger entries of proofs.p002.relabel (002 Theorems 2, 5, Lemmas 8, 9, C5, C6, C8): verdicts, mutations."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.audits.prediction import audit_prediction_pair
from privref.proofs import Status, Verdict
from privref.proofs.p002 import ENTRIES as P002_ENTRIES
from privref.proofs.p002 import matching as mt
from privref.proofs.p002 import relabel as rl
from privref.proofs.registry import entry_by_id
from privref.reference.learners import relabel_analysis as ra
from privref.reference.learners.relabel_prediction import relabel_core_predictor
from privref.reference.prediction import PrivatePrediction
from privref.reference.reals import exp

F = Fraction

IDS = {
    "002 Theorem 2": Status.NOT_CHECKABLE,
    "002 Theorem 2 / C8: stable or prediction-private learners are sub-optimal on long tails":
        Status.NOT_CHECKABLE,
    "002 Theorem 5": Status.NOT_CHECKABLE,
    "002 Lemma 8": Status.CHECKED,
    "002 Lemma 8 / refined privacy for every k >= 0": Status.PROVED,
    "002 Lemma 8 / the core without the flip is not pure: delta is needed": Status.CHECKED,
    "002 Lemma 8 / C5: |T1|/|T| = (m/n)·P[S_{I minus 1} not a (k/n)-net] <= (m/n)·delta":
        Status.CHECKED,
    "002 Lemma 8 / C6: the T2 amplification sum by double counting, Eq. (13)": Status.CHECKED,
    "002 Lemma 8 / Theorem 2's parameterization meets the conditions": Status.CHECKED,
    "002 Lemma 9": Status.NOT_CHECKABLE,
    "002 Lemma 9 / (i) S' is an alpha-net, so min over H_{S'} is alpha-optimal on S":
        Status.CHECKED,
    "002 Lemma 9 / (ii) the exponential mechanism is (alpha, beta)-approximate": Status.CHECKED,
    "002 Lemma 9 / (iv) uniform convergence turns err_S into L_P": Status.CHECKED,
}


def test_entries_and_statuses() -> None:
    assert {e.id: e.status for e in rl.ENTRIES} == IDS
    for e in rl.ENTRIES:
        assert e.paper == "002" and e in P002_ENTRIES and entry_by_id(e.id) is e
        assert e.subjects
    theorem2 = entry_by_id("002 Theorem 2")
    theorem5 = entry_by_id("002 Theorem 5")
    assert {c.run for c in theorem5.checks} <= {c.run for c in theorem2.checks}


def test_core_not_pure_in_numbers() -> None:
    """The trap pair: the pure claim at eps(1) fails, with δ = |T1(1)|/|T| = 2/19 it holds,
    and the smallest δ needed lies strictly between 0 and 2/19."""
    inst = mt.TRAP
    core = relabel_core_predictor(inst.C, inst.n, inst.m, inst.epsilon1, inst.blocks,
                                  inst.epsilon2)
    claim = ra.refined_core_claim(inst.C, inst.data, inst.m, inst.epsilon1, inst.epsilon2, 1)
    assert claim.delta == F(2, 19)
    # e^{eps(1)} = g·(1 + 4g·2/17) with g = e^{eps1+eps2} = (33/20)^2, exactly rational
    g = F(33, 20) ** 2
    t = exp(claim.epsilon).exact
    assert t == g * (1 + 4 * g * F(2, 17))
    p = core.law(inst.data, mt.TRAP_QUERY).prob(0)
    q = core.law(mt.TRAP_NEIGHBOUR, mt.TRAP_QUERY).prob(0)
    assert isinstance(p, Fraction) and isinstance(q, Fraction)
    assert 0 < p - t * q < F(2, 19)
    pure = audit_prediction_pair(core, inst.data, mt.TRAP_NEIGHBOUR, [mt.TRAP_QUERY],
                                 claim=PrivatePrediction(claim.epsilon))
    assert pure.verdict is Verdict.VIOLATED


# ------------------------------------------------------------------ mutations


def test_mutation_core_with_few_blocks_or_the_full_radius() -> None:
    """With 3 B4 blocks the core IS pure at eps(1), and at k = max k(I) the pure claim is the
    theorem itself: either way the necessity of δ is not shown, so the check fails."""
    assert rl.check_core_not_pure(blocks=3).verdict is Verdict.VIOLATED
    assert rl.check_core_not_pure(k=17).verdict is Verdict.VIOLATED


def test_mutation_flipped_claim_too_small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rl, "FLIPPED_EPSILON_SCALE", F(1, 5))
    assert rl.check_flipped_pure().verdict is Verdict.VIOLATED


def test_mutation_c5_without_the_net_radius(monkeypatch: pytest.MonkeyPatch) -> None:
    """A net radius of 0 everywhere empties the paper's T1 while ours is not empty."""
    monkeypatch.setattr(ra, "net_radius", lambda C, data, rest, **kw: 0)
    assert rl.check_c5_share().verdict is Verdict.VIOLATED


def test_mutation_c6_without_the_t2_term(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rl, "C6_FACTOR", F(0))
    assert rl.check_c6_double_count().verdict is Verdict.VIOLATED


def test_mutation_stated_constant_too_small(monkeypatch: pytest.MonkeyPatch) -> None:
    """8e² replaced by 2e²: ln(1 + 4e²m/(n-m)) > 2e²m/n when m/n is small."""
    monkeypatch.setattr(rl, "LEMMA8_EPS_CONSTANT", F(2))
    assert rl.check_stated_constants().verdict is Verdict.VIOLATED


def test_mutation_parameterization_with_too_large_m(monkeypatch: pytest.MonkeyPatch) -> None:
    """m = floor(eps·n/(8e²)) makes 8e²m/n about eps: no n satisfies the conditions."""
    monkeypatch.setattr(rl, "M_DIVISOR", 8)
    assert rl.check_parameterization(cap=2**40).verdict is Verdict.VIOLATED


def test_mutation_lemma9_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as mp:
        mp.setattr(ra, "net_radius", lambda C, data, rest, **kw: 0)
        assert rl.check_lemma9_net().verdict is Verdict.VIOLATED
    with monkeypatch.context() as mp:
        mp.setattr(rl, "L9_TAIL_SCALE", F(1, 4))
        assert rl.check_lemma9_exponential().verdict is Verdict.VIOLATED
    with monkeypatch.context() as mp:
        mp.setattr(rl, "DEVIATION_SCALE", F(1, 2))
        assert rl.check_lemma9_uniform().verdict is Verdict.VIOLATED


def test_mutation_lemma9_chain_without_learner_term_and_one_deviation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Dropping λ and one a(S) fails; dropping only one of them is not caught here."""
    monkeypatch.setattr(rl, "CHAIN_DEVIATION_FACTOR", 1)
    assert rl.check_lemma9_chain().verdict is Verdict.HOLDS
    monkeypatch.setattr(rl, "_learner_error", lambda b4, law, data, marginal: F(0))
    assert rl.check_lemma9_chain().verdict is Verdict.VIOLATED


def test_mutation_singleton_with_a_memorizing_learner() -> None:
    assert rl.singleton_counterexample().verdict is Verdict.VIOLATED
