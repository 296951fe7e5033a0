"""Ledger entries of proofs.p002.stability (002 §3): verdicts, statuses, values, mutations."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p002 import stability as st
from privref.proofs.registry import entry_by_id
from privref.reference.decide import at_most, less_than
from privref.reference.learners.stable_prediction import flip_predictor, stable_gamma
from privref.reference.reals import Real, exp, log, rational
from privref.reference.vc import sauer_shelah_bound
from tests.proofs.checks import resolves

F = Fraction


def test_entries_and_statuses() -> None:
    status = {e.id: e.status for e in st.ENTRIES}
    mains = {k: v for k, v in status.items() if " / " not in k}
    assert mains == {
        "002 Theorem 1": Status.NOT_CHECKABLE, "002 Theorem 3": Status.NOT_CHECKABLE,
        "002 Lemma 7": Status.CHECKED, "002 Corollary 1": Status.NOT_CHECKABLE,
        "002 Remark 1": Status.NOT_CHECKABLE,
    }
    assert status["002 Lemma 7 / stability composition m/n + e^ε − 1"] is Status.CHECKED
    assert status["002 Corollary 1 / ε-private ⇒ stable (printed e^ε − 1, tight tanh(ε/2))"] \
        is Status.CHECKED
    assert status["002 Theorem 1 / the exponential mechanism is not efficient in general"] \
        is Status.NOT_CHECKABLE
    assert status["002 Theorem 1 / parameters ε = γ/4 and m <= γn/2 give γ-stability"] \
        is Status.PROVED
    assert status["002 Corollary 1 / parameters γ = αε/2, ρ = α/2"] is Status.PROVED
    assert len(status) == 15
    for e in st.ENTRIES:
        assert entry_by_id(e.id) is e  # each check's verdict: the parametrized test above
        assert all(resolves(s) for s in e.subjects), e.subjects
    # the code cites these entries; they must not be REFUTED
    for cited in ("002 Lemma 7", "002 Corollary 1"):
        assert entry_by_id(cited).status is not Status.REFUTED


# ------------------------------------------------------------------ exact values


def test_tanh_is_attained_and_half_the_printed_constant_for_small_eps() -> None:
    """e^ε = 9/4: tanh(ε/2) = (5/4)/(13/4) = 5/13 < e^ε − 1 = 5/4; the ratio is e^ε + 1."""
    assert st._tight(F(9, 4), F(0)) == F(5, 13)
    assert (F(9, 4) - 1) / st._tight(F(9, 4), F(0)) == F(9, 4) + 1


def test_our_sample_sizes_meet_their_definitions() -> None:
    """m₀ and n₃ satisfy their inequalities; n covers 2m/γ and 8 ln S(m)/(αγ)."""
    d, alpha, beta, gamma = 2, F(1, 10), F(1, 10), F(1, 10)
    m, n = st.theorem1_sizes(d, alpha, beta, gamma)
    assert st._net_ok(d, alpha, beta, m) and 2 * m <= gamma * n
    need = log(sauer_shelah_bound(m, d)) * 8 / (alpha * gamma)
    assert at_most(need, n) is Verdict.HOLDS
    assert st._uc_ok(d, alpha, beta, st.uniform_convergence_size(d, alpha, beta))
    assert st.corollary1_sizes(d, alpha, beta, F(1)) == st.theorem1_sizes(d, alpha / 2, beta,
                                                                          alpha / 2)


# ------------------------------------------------------------------ mutations


def test_a_smaller_stability_rule_is_caught() -> None:
    """97% of the exact bound is below the audited γ in the near-tight case (e^{ε/2} = 100)."""
    def shrunk(m: int, n: int, eps: Real) -> Real:
        return stable_gamma(m, n, eps) * F(97, 100)
    assert st.check_alg1_stability(shrunk).verdict is Verdict.VIOLATED


def test_lemma7_stability_without_the_subsampling_term_is_caught() -> None:
    """2ε alone (no m/n) is below the audited γ."""
    assert st.check_lemma7_stability(lambda m, n, eps: eps * 2).verdict is Verdict.VIOLATED


def test_a_too_small_privacy_to_stability_bound_is_caught() -> None:
    assert st.check_privacy_to_stability(
        lambda t, d: (t - 1 + 2 * d) / (2 * (t + 1))).verdict is Verdict.VIOLATED


def test_flip_mutations_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flip at half the rate breaks the identities; 1 + γ/α and 9/10 of (1 − 2ρ)γ/ρ fail."""
    with monkeypatch.context() as mp:
        mp.setattr(st, "flip_predictor", lambda inner, rho: flip_predictor(inner, rho / 2))
        assert st.check_flip_identities().verdict is Verdict.VIOLATED
    with monkeypatch.context() as mp:
        mp.setattr(st, "FLIP_RATIO_FACTOR", 1)
        assert st.check_flip_ratio_condition().verdict is Verdict.VIOLATED
    with monkeypatch.context() as mp:
        mp.setattr(st, "FLIP_PRIVACY_SCALE", F(9, 10))
        assert st.check_alg2_privacy().verdict is Verdict.VIOLATED


def test_parameter_mutations_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """ε = γ (no /4) and γ = αε (no /2) both fail."""
    monkeypatch.setattr(st, "THEOREM1_EPS_DIVISOR", 1)
    monkeypatch.setattr(st, "COROLLARY1_GAMMA_DIVISOR", 1)
    assert st.check_theorem1_parameters().verdict is Verdict.VIOLATED
    assert st.check_corollary1_parameters().verdict is Verdict.VIOLATED


def test_overview_mutations_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """No net-radius slack; scores err_S instead of n·err_S; a bound below Sauer's sum."""
    with monkeypatch.context() as mp:
        mp.setattr(st, "EQ1_RADIUS_SCALE", F(0))
        assert st.check_eq1_net_radius().verdict is Verdict.VIOLATED
    with monkeypatch.context() as mp:
        mech = st._mech_law
        mp.setattr(st, "_mech_law", lambda H, data, r, scale: mech(H, data, r, len(data)))
        assert st.check_eq2_expectation().verdict is Verdict.VIOLATED
    assert st.check_pattern_count(lambda m, d: rational(m)).verdict is Verdict.VIOLATED
    monkeypatch.setattr(st, "PATTERN_BOUND_SCALE", F(1, 2))
    assert st.check_pattern_count().verdict is Verdict.VIOLATED


def test_lemma7_mutations_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as mp:
        mp.setattr(st, "RADIUS_TERM_SCALE", F(0))
        assert st.check_lemma7_refined().verdict is Verdict.VIOLATED
    with monkeypatch.context() as mp:
        mp.setattr(st, "LEMMA7_FACTOR", 0)
        assert st.check_lemma7_stated().verdict is Verdict.VIOLATED


def test_halved_stability_constants_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Half the tight conversion bound and half Algorithm 1's claimed γ are both refuted."""
    with monkeypatch.context() as mp:
        mp.setattr(st, "STABILITY_SCALE", F(1, 2))
        assert st.check_privacy_to_stability().verdict is Verdict.VIOLATED
    with monkeypatch.context() as mp:
        mp.setattr(st, "GAMMA_CLAIM_SCALE", F(1, 2))
        assert st.check_alg1_stability().verdict is Verdict.VIOLATED


def test_exp_bound_in_the_parameter_step_is_an_interval_decision() -> None:
    """e^{1/4} − 1 <= 1/2 is decided by interval arithmetic (decide.less_than), not floats."""
    assert less_than(exp(F(1, 4)) - 1, F(1, 2)) is Verdict.HOLDS


def test_other_mutations_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The printed e^ε − 1 in place of tanh(ε/2); a net too small; a single candidate; huge covers."""
    from privref.reference.prediction import paper_stability_bound
    with monkeypatch.context() as mp:
        mp.setattr(st, "stability_from_privacy", paper_stability_bound)
        assert st.check_rr_stability_audit().verdict is Verdict.VIOLATED
    with monkeypatch.context() as mp:
        mp.setattr(st, "net_size", lambda d, a, b: 1)
        assert st.check_sample_sizes().verdict is Verdict.VIOLATED
    with monkeypatch.context() as mp:
        mp.setattr(st, "canonical_representatives", lambda C, pts: C.concepts[:1])
        assert st.check_enumeration_size().verdict is Verdict.VIOLATED
    with monkeypatch.context() as mp:
        mp.setattr(st, "_min_cover", lambda C, radius: 10**6)
        assert st.check_min_cover_sizes().verdict is Verdict.VIOLATED
