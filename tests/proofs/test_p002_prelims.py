"""Ledger entries of proofs.p002.prelims (002 Lemmas 1–5): verdicts, statuses, values, mutations."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p002 import prelims
from privref.proofs.registry import entry_by_id
from privref.reference.vc import sauer_shelah_bound
from tests.proofs.checks import resolves

F = Fraction


def test_entries_and_statuses() -> None:
    assert {e.id: e.status for e in prelims.ENTRIES} == {
        "002 Lemma 1": Status.NOT_CHECKABLE,
        "002 Lemma 1 / explicit bound 2·τ_C(2m)²·e^{−αm/4} for m >= 8/α": Status.CHECKED,
        "002 Lemma 1 / without replacement and monotonicity": Status.CHECKED,
        "002 Lemma 2": Status.PROVED,
        "002 Lemma 3": Status.NOT_CHECKABLE,
        "002 Lemma 3 / finite-class Hoeffding form": Status.CHECKED,
        "002 Lemma 4": Status.CHECKED,
        "002 Lemma 4 / tail |H|·r^{−t} (mistakes)": Status.CHECKED,
        "002 Lemma 4 / expectation ln|H|/ln r (mistakes)": Status.CHECKED,
        "002 Lemma 4 / post-processing: a DP model gives private prediction": Status.CHECKED,
        "002 Lemma 5": Status.CHECKED,
        "002 Lemma 5 / tight amplification ln(1 + (m/n)(e^ε − 1))": Status.PROVED,
    }
    for e in prelims.ENTRIES:
        assert entry_by_id(e.id) is e  # each check's verdict: the parametrized test above
        assert all(resolves(s) for s in e.subjects), e.subjects


# ------------------------------------------------------------------ exact values


def test_distinct_sample_law_by_hand() -> None:
    """μ = (1/2, 1/4, 1/4), m = 2: P[{0,1}] = (1/2)(1/4)/(1/2) + (1/4)(1/2)/(3/4) = 1/4 + 1/6."""
    law = prelims.distinct_sample_law((F(1, 2), F(1, 4), F(1, 4)), 2)
    assert law[0b011] == F(1, 4) + F(1, 6) and sum(law.values()) == 1
    with pytest.raises(ValueError, match="m=4"):
        prelims.distinct_sample_law((F(1, 2), F(1, 4), F(1, 4)), 4)


def test_amplified_randomized_response_by_hand() -> None:
    """m = 1, s = 3, n = 4: e^{ε'} = 1 + (s − 1)/n = 3/2 exactly, and the base ε is ln 3."""
    audited, t_a = prelims._amplified(4, 1, F(3))
    assert t_a == 3 and audited == F(3, 2)


# ------------------------------------------------------------------ mutations


def test_a_too_strong_net_bound_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Exponent 4αm instead of αm/4 is below the exact failure probability."""
    monkeypatch.setattr(prelims, "NET_EXPONENT_DIVISOR", F(1, 4))
    assert prelims.check_explicit_net_bound().verdict is Verdict.VIOLATED


def test_increasing_failure_probability_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A P[not net] that grows with m breaks the monotonicity check."""
    monkeypatch.setattr(prelims, "bad_probability", lambda C, mu, a, m: 1 - F(1, m + 1))
    assert prelims.check_net_monotone_and_distinct().verdict is Verdict.VIOLATED


def test_a_smaller_sauer_sum_is_caught() -> None:
    """Σ_{i<d} instead of Σ_{i<=d}."""
    assert prelims.check_sauer_shelah(
        lambda m, d: sauer_shelah_bound(m, d - 1)).verdict is Verdict.VIOLATED


def test_a_too_small_sample_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """n divided by 8 breaks uniform convergence at the stated β; halved, the near-tight
    2-concept case alone breaks it (n = 7 instead of 14)."""
    monkeypatch.setattr(prelims, "HOEFFDING_SAMPLE_FACTOR", F(1, 16))
    assert prelims.check_hoeffding_finite_class().verdict is Verdict.VIOLATED
    monkeypatch.setattr(prelims, "HOEFFDING_SAMPLE_FACTOR", F(1, 4))
    result = prelims.check_hoeffding_finite_class()
    assert result.verdict is Verdict.VIOLATED and "PAIR" in (result.witness or "")


def test_too_strong_exp_mech_bounds_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prelims, "EXPECTATION_SCALE", F(1, 20))
    assert prelims.check_exp_mech_expectation().verdict is Verdict.VIOLATED


def test_a_halved_expectation_bound_fails_on_the_near_tight_instances(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """ln|H|/ln r halved fails on the near-tight instances alone (ratio ≈ 0.61 there)."""
    monkeypatch.setattr(prelims, "EXPECTATION_SCALE", F(1, 2))
    monkeypatch.setattr(prelims, "_random_instances", lambda count, seed: [])
    assert prelims.check_exp_mech_expectation().verdict is Verdict.VIOLATED


def test_a_model_ratio_below_the_prediction_ratio_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prelims, "POST_PROCESSING_SCALE", F(99, 100))
    assert prelims.check_post_processing().verdict is Verdict.VIOLATED


def test_a_too_strong_amplification_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prelims, "AMPLIFICATION_SCALE", F(99, 100))
    assert prelims.check_amplification_tight().verdict is Verdict.VIOLATED


def test_halved_lemma4_and_lemma5_constants_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """n = ln(|H|/β)/(αε) (the 2 halved) breaks the utility tail; εm/n (the 2 of 2εm/n halved)
    is below the audited ε'."""
    with monkeypatch.context() as mp:
        mp.setattr(prelims, "LEMMA4_SAMPLE_FACTOR", 1)
        assert prelims.check_lemma4_privacy_and_utility().verdict is Verdict.VIOLATED
    with monkeypatch.context() as mp:
        mp.setattr(prelims, "CANDIDATE_FACTOR", 1)
        assert prelims.check_amplification_candidates().verdict is Verdict.VIOLATED
    with monkeypatch.context() as mp:
        mp.setattr(prelims, "SAUER_FORM_SCALE", F(1, 2))
        assert prelims.check_sauer_shelah().verdict is Verdict.VIOLATED


def test_the_sauer_counterexample_is_the_smallest() -> None:
    """(e/2)² < 2 since e < 2√2 (e ≈ 2.718 < 2.828, decided by intervals); d = 1 has no m < d."""
    result = prelims.check_sauer_hypothesis_needed()
    assert result.verdict is Verdict.HOLDS
    assert result.witness is not None and result.witness.startswith("d=2, m=1")


def test_no_subsampling_means_no_amplification(monkeypatch: pytest.MonkeyPatch) -> None:
    """Always taking the first m indices (no random subset) breaks both Lemma 5 checks."""
    def first(n: int, m: int):  # type: ignore[no-untyped-def]
        if False:
            yield
        return tuple(range(m))
    monkeypatch.setattr(prelims, "random_index_subset", first)
    assert prelims.check_amplification_tight().verdict is Verdict.VIOLATED
    assert prelims.check_amplification_candidates().verdict is Verdict.VIOLATED


def test_a_weaker_mechanism_than_its_epsilon_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scores weighted with e^{ε/2} = 11/10 while n is sized for 3/2: the utility tail fails."""
    monkeypatch.setattr(prelims, "_R", F(11, 10))
    assert prelims.check_lemma4_privacy_and_utility().verdict is Verdict.VIOLATED


def test_the_illustration_fails_without_growth(monkeypatch: pytest.MonkeyPatch) -> None:
    """An undercounted growth function (0) hides the m < d failure: the illustration fails."""
    monkeypatch.setattr(prelims, "growth_function", lambda C, m: 0)
    assert prelims.check_sauer_hypothesis_needed().verdict is Verdict.VIOLATED


def test_lemma2_is_not_a_paper_error() -> None:
    """002-E11 is a usage caveat on a lost hypothesis, not a false statement (not REFUTED)."""
    from privref.proofs.errata import Flaw, erratum
    e = erratum("002-E11")
    assert e.flaw is not Flaw.FALSE and e.entries == ("002 Lemma 2",)
    assert entry_by_id("002 Lemma 2").status is Status.PROVED


def test_a_never_vanishing_failure_probability_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prelims, "bad_probability", lambda C, mu, a, m: F(1))
    assert prelims.check_lemma1_illustration().verdict is Verdict.VIOLATED


def test_a_halved_tail_bound_fails_beyond_t0(monkeypatch: pytest.MonkeyPatch) -> None:
    """|H|·r^{−t}/2 fails on the near-tight instances at t >= 1 (not only through t = 0)."""
    monkeypatch.setattr(prelims, "TAIL_SCALE", F(1, 2))
    assert prelims.check_exp_mech_tail().verdict is Verdict.VIOLATED
    monkeypatch.setattr(prelims, "_random_instances", lambda count, seed: [])
    result = prelims.check_exp_mech_tail()
    assert result.verdict is Verdict.VIOLATED
    assert result.witness is not None and not result.witness.endswith("t=0: 1")
    assert int(result.witness.split("t=")[1].split(":")[0]) >= 1
