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
def test_s1_constant(bound: Fraction, verdict: Verdict) -> None:
    assert nm.check_s1(bound).verdict is verdict


def test_s2_mutations() -> None:
    assert nm.check_s2_range(F(998, 1000), F(60)).verdict is Verdict.VIOLATED
    res = nm.check_s2_range(F(999, 1000), F(61))
    assert res.verdict is Verdict.VIOLATED and res.witness == "(999/1000)"
    assert nm.check_s2_at(F(998, 1000), F(61)).verdict is Verdict.HOLDS
    assert nm.check_s2_threshold(F(99806, 100000), F(99807, 100000)).verdict is Verdict.VIOLATED


def test_s3_mutations() -> None:
    assert nm.check_s3_range(bound=F(31)).verdict is Verdict.VIOLATED
    assert nm.check_s3_range(bound=F(32)).verdict is Verdict.HOLDS
    assert nm.check_s3_range(F(1, 2), F(31)).verdict is Verdict.HOLDS


def test_pmf_and_factorial_mutations() -> None:
    assert nm.check_occurrence_pmf(20, base=F(1)).verdict is Verdict.VIOLATED
    res = nm.check_factorial_bound(base=F(2))
    assert res.verdict is Verdict.VIOLATED and res.witness == "ℓ=6"  # 6!·2^6 < 6^6


def test_denominator_mutations() -> None:
    assert nm.check_denominator_floor(F(37, 100)).verdict is Verdict.VIOLATED
    assert nm.check_denominator_floor(F(36, 100)).verdict is Verdict.HOLDS
    res = nm.check_denominator_bnb(4, F(37, 100))
    assert res.verdict is Verdict.VIOLATED and res.witness == "(1)"


def test_chain_mutations() -> None:
    assert nm.check_chain_ratio(None, F(246)).verdict is Verdict.HOLDS
    assert nm.check_chain_ratio(None, F(245)).verdict is Verdict.VIOLATED
    assert nm.check_chain_ratio(E, F(166)).verdict is Verdict.VIOLATED
    assert nm.check_chain_printed_delta(target=2476).verdict is Verdict.HOLDS
    assert nm.check_chain_printed_delta(s2=62, target=2476).verdict is Verdict.VIOLATED
    # with the true sums even the printed 1/4 gives ≈ 2437.7 <= 2467; only the ratio fails
    assert nm.check_chain_delta(None, F(2467)).verdict is Verdict.HOLDS
    assert nm.check_chain_delta(None, F(2437)).verdict is Verdict.VIOLATED
    assert nm.check_chain_delta(E, F(1666)).verdict is Verdict.VIOLATED


def test_subsampling_mutations() -> None:
    assert nm.check_subsampling_bnb(scale=F(1, 2)).verdict is Verdict.VIOLATED
    assert nm.check_subsampling_all_estar(scale=F(9, 10)).verdict is Verdict.VIOLATED
    assert nm.check_subsampling_delta(F(1, 2)).verdict is Verdict.VIOLATED


def test_observation_3_2_mutations() -> None:
    res = nm.check_obs32_real(F(9))
    assert res.verdict is Verdict.VIOLATED and res.witness == "(9)"
    assert nm.check_obs32_integers(v_max=4, span=4, multiplier=9).verdict is Verdict.VIOLATED
    assert nm.check_obs32_nine_fails(F(93288, 10000), F(93289, 10000)).verdict \
        is Verdict.UNDECIDED
