"""The numeric proof-step entries of paper 004 (proofs.p004.numeric), and mutations of them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Kind, Status, Verdict
from privref.proofs.p004 import numeric as nm
from privref.reference.errors import InvalidArgument
from privref.reference.reals import Interval, interval_exp

F = Fraction
E = interval_exp(Interval.point(1), nm.PREC)
ONE = Interval.point(1)


def test_entries_are_proof_steps_with_unique_ids_and_counterparts() -> None:
    ids = [e.id for e in nm.ENTRIES]
    assert len(ids) == len(set(ids)) == 8
    assert all(e.kind is Kind.PROOF_STEP and e.step for e in nm.ENTRIES)
    assert all(e.also for e in nm.ENTRIES)
    refuted = {e.step for e in nm.ENTRIES if e.status is Status.REFUTED}
    assert refuted == {"S2(ε) = Σ (e/ℓ)^ℓ e^(ℓε) <= 61 for ε <= 1",
                       "chain as printed supports (ln 244, 2467δ)"}


def test_stated_counterexample_enclosures_are_honest() -> None:
    s2 = nm.s2_enclosure(ONE)
    assert F(61385, 1000) <= s2.lo and s2.hi <= F(61387, 1000)
    ratio = s2 * 4
    assert F(24554, 100) <= ratio.lo and ratio.hi <= F(24555, 100)


def test_series_enclosures_are_consistent() -> None:
    # S3(0) = Σ ℓ(e/ℓ)^ℓ = S1 exactly (Σ_{j<ℓ} 1 = ℓ): the two enclosures must overlap.
    s1, s3_0 = nm.s1_enclosure(), nm.s3_enclosure(Interval.point(0))
    assert s1.lo <= s3_0.hi and s3_0.lo <= s1.hi
    # inclusion isotonicity: the box enclosure contains the point enclosures
    box = nm.s2_enclosure(Interval(F(0), F(1)))
    for eps in (F(0), F(1, 3), F(1)):
        point = nm.s2_enclosure(Interval.point(eps))
        assert box.lo <= point.lo and point.hi <= box.hi
    # n = 1: E[e^{-εL}] = e^{-ε} exactly
    den = nm.denominator_enclosure(ONE, 1)
    inv_e = interval_exp(Interval.point(-1), nm.PREC)
    assert den.lo <= inv_e.hi and inv_e.lo <= den.hi
    with pytest.raises(InvalidArgument):
        nm.s2_enclosure(Interval(F(0), F(2)))
    with pytest.raises(InvalidArgument):
        nm.occurrence_pmf(3, 4)


# ---------------------------------------------------------------- mutations


@pytest.mark.parametrize(("bound", "verdict"),
                         [(F(10), Verdict.HOLDS), (F(9), Verdict.VIOLATED),
                          (F(97, 10), Verdict.VIOLATED)])
def test_s1_constant(monkeypatch: pytest.MonkeyPatch, bound: Fraction, verdict: Verdict) -> None:
    monkeypatch.setattr(nm, "S1_BOUND", bound)
    assert nm.check_s1().verdict is verdict


def test_s2_mutations(monkeypatch: pytest.MonkeyPatch) -> None:
    res = nm.check_s2_range(F(999, 1000))
    assert res.verdict is Verdict.VIOLATED and res.witness == "(999/1000)"
    assert nm.check_s2_at(F(998, 1000)).verdict is Verdict.HOLDS
    assert nm.check_s2_threshold(F(99806, 100000), F(99807, 100000)).verdict is Verdict.VIOLATED
    monkeypatch.setattr(nm, "S2_BOUND", F(60))
    assert nm.check_s2_range(F(998, 1000)).verdict is Verdict.VIOLATED
    monkeypatch.setattr(nm, "S2_REPAIRED_BOUND", F(61))
    assert nm.check_s2_range(repaired=True).verdict is Verdict.VIOLATED


def test_s3_mutations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nm, "S3_BOUND", F(31))
    assert nm.check_s3_range().verdict is Verdict.VIOLATED
    assert nm.check_s3_range(F(1, 2)).verdict is Verdict.HOLDS
    monkeypatch.setattr(nm, "S3_BOUND", F(32))
    assert nm.check_s3_range().verdict is Verdict.HOLDS


def test_pmf_and_factorial_mutations() -> None:
    assert nm.check_occurrence_pmf(20, base=F(1)).verdict is Verdict.VIOLATED
    res = nm.check_factorial_bound(base=F(2))
    assert res.verdict is Verdict.VIOLATED and res.witness == "ℓ=6"  # 6!·2^6 < 6^6


def test_denominator_mutations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nm, "DENOMINATOR_FLOOR", F(36, 100))
    assert nm.check_denominator_floor().verdict is Verdict.HOLDS
    monkeypatch.setattr(nm, "DENOMINATOR_FLOOR", F(37, 100))
    assert nm.check_denominator_floor().verdict is Verdict.VIOLATED
    res = nm.check_denominator_bnb(4)
    assert res.verdict is Verdict.VIOLATED and res.witness == "(1)"


def test_reverse_group_coefficient_mutation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nm, "GROUP_COEFFICIENT_SCALE", F(9, 10))   # fails at ε = 0, Σ = ℓ
    assert nm.check_reverse_group_coefficient(3).verdict is Verdict.VIOLATED


def test_chain_mutations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nm, "CHAIN_RATIO_TARGET", F(246))
    assert nm.check_chain_ratio(None).verdict is Verdict.HOLDS
    monkeypatch.setattr(nm, "CHAIN_RATIO_TARGET", F(245))
    assert nm.check_chain_ratio(None).verdict is Verdict.VIOLATED
    monkeypatch.setattr(nm, "CHAIN_RATIO_TARGET", F(166))
    assert nm.check_chain_ratio(E).verdict is Verdict.VIOLATED
    assert nm.check_chain_printed_delta().verdict is Verdict.VIOLATED
    # with the true sums even the printed 1/4 gives ≈ 2437.7 <= 2467; only the ratio fails
    assert nm.check_chain_delta(None).verdict is Verdict.HOLDS
    monkeypatch.setattr(nm, "CHAIN_DELTA_TARGET", F(2476))
    assert nm.check_chain_printed_delta().verdict is Verdict.HOLDS
    monkeypatch.setattr(nm, "S2_BOUND", F(62))
    assert nm.check_chain_printed_delta().verdict is Verdict.VIOLATED
    monkeypatch.setattr(nm, "CHAIN_DELTA_TARGET", F(2437))
    assert nm.check_chain_delta(None).verdict is Verdict.VIOLATED
    monkeypatch.setattr(nm, "CHAIN_DELTA_TARGET", F(1666))
    assert nm.check_chain_delta(E).verdict is Verdict.VIOLATED


def test_subsampling_mutations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nm, "SUBSAMPLING_EPS_SCALE", F(1, 2))
    assert nm.check_subsampling_bnb().verdict is Verdict.VIOLATED
    monkeypatch.setattr(nm, "SUBSAMPLING_EPS_SCALE", F(9, 10))
    assert nm.check_subsampling_all_estar().verdict is Verdict.VIOLATED
    monkeypatch.setattr(nm, "CLAIMED_DELTA_FACTOR", F(1, 2))
    assert nm.check_subsampling_delta().verdict is Verdict.VIOLATED


def test_observation_3_2_mutations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nm, "OBS32_MULTIPLIER", 9)
    res = nm.check_obs32_real()
    assert res.verdict is Verdict.VIOLATED and res.witness == "(9)"
    assert nm.check_obs32_integers(v_max=4, span=4).verdict is Verdict.VIOLATED
    assert nm.check_obs32_nine_fails(F(93288, 10000), F(93289, 10000)).verdict \
        is Verdict.UNDECIDED
