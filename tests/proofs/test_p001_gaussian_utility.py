"""Ledger entries of proofs.p001.gaussian_utility (001 Theorems 22/34 and 28, Remark 24):
verdicts, statuses, exact values and mutations that must fail."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p001 import gaussian_utility as gu
from privref.proofs.registry import entry_by_id
from privref.reference import accounting
from privref.reference.discrete_noise import DiscreteGaussian, at_least
from privref.reference.program import Program
from tests.proofs.checks import resolves

F = Fraction


def test_entries_and_statuses() -> None:
    statuses = {e.id: e.status for e in gu.ENTRIES}
    assert statuses == {
        "001 Theorem 22": Status.NOT_CHECKABLE,
        "001 Theorem 22 / K = 6σ√(2 log 2n) with Algorithm 1's σ": Status.PROVED,
        "001 Theorem 22 / step 2: Gaussian tail and Markov": Status.PROVED,
        "001 Theorem 22 / step 3: label count with Err* <= α": Status.CHECKED,
        "001 Theorem 22 / step 4: risk triangle": Status.CHECKED,
        "001 Theorem 22 / circular parameters": Status.CHECKED,
        "001 Theorem 34": Status.NOT_CHECKABLE,
        "001 Theorem 28": Status.NOT_CHECKABLE,
        "001 Theorem 28 / Eq. (8) chain": Status.CHECKED,
        "001 Theorem 28 / ε assumed small": Status.CHECKED,
        "001 Remark 24": Status.NOT_CHECKABLE,
    }
    by_id = {e.id: e for e in gu.ENTRIES}
    assert by_id["001 Theorem 34"].checks == by_id["001 Theorem 22"].checks
    for e in gu.ENTRIES:
        assert entry_by_id(e.id) is e  # each check's verdict: the parametrized test above
        assert all(resolves(s) for s in e.subjects), e.subjects


def test_error_probability_at_the_tie_is_one_half() -> None:
    """c = K/2 teachers disagree: the noisy vote is a fair coin, Φ(0) = 1/2."""
    box = gu.error_probability(3, 6, F(2))
    assert box.lo <= F(1, 2) <= box.hi and box.width < F(1, 2 ** 50)


def test_displayed_k_at_a_rational_point() -> None:
    """ℓ = 1, ε = 3: √(L) + √(L + 3) with L = log(1/δ); the value is positive and finite."""
    k = gu.displayed_k(1, F(3), F(1, 100), 10).enclose(64)
    assert 0 < k.lo < k.hi < 100


# ------------------------------------------------------------------ mutations


def test_a_perturbed_k_formula_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gu, "THEOREM22_K_CONSTANT", F(6 * 99, 100))
    assert gu.check_k_identity().verdict is Verdict.VIOLATED


@pytest.mark.parametrize("changes", [{"MARKOV_K_FACTOR": F(1)}, {"MARKOV_CONSTANT": F(1)},
                                     {"MARKOV_K_FACTOR": F(2), "MARKOV_BETA": F(0)}])
def test_weaker_markov_constants_are_caught(monkeypatch: pytest.MonkeyPatch,
                                            changes: dict[str, Fraction]) -> None:
    """K >= σ√(2 log 2n) (factor 1, not 6), Markov factor 1 (not 3), and no 1/n term."""
    for name, value in changes.items():
        monkeypatch.setattr(gu, name, value)
    assert gu.check_markov_step().verdict is Verdict.VIOLATED


def test_a_halved_triangle_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gu, "RISK_TRIANGLE_FACTOR", F(1, 2))
    assert gu.check_risk_triangle().verdict is Verdict.VIOLATED


def test_eq8_without_the_fifth_b_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gu, "EQ8_B_COEFF", F(4))
    assert gu.check_eq8_algebra().verdict is Verdict.VIOLATED


def test_a_halved_hidden_factor_constant_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """6(1 + √2) halved fails (ε <= L no longer suffices)."""
    monkeypatch.setattr(gu, "EPS_SMALL_CONSTANT", gu.EPS_SMALL_CONSTANT / 2)
    assert gu.check_eps_small().verdict is Verdict.VIOLATED


def test_a_halved_sigma_breaks_the_eps_small_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The subject matters: Algorithm 1's σ halved makes the factor small for ε > L too."""
    sigma = accounting.algorithm1_sigma
    monkeypatch.setattr(gu, "algorithm1_sigma", lambda m, e, d: sigma(m, e, d) / 2)
    assert gu.check_eps_small().verdict is Verdict.VIOLATED


def test_err_star_above_alpha_breaks_step3(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gu, "STEP3_ERR_RATIO", F(2))
    assert gu.check_step3_label_bound().verdict is Verdict.VIOLATED


def test_circularity_depends_on_n() -> None:
    """With n = 10⁶ on both sides the 'empty for small n' half fails."""
    assert gu.check_circular_parameters(n_small=10 ** 6).verdict is Verdict.VIOLATED


def _copying(votes: tuple[int, ...], k: int, sigma2: object) -> Program[tuple[int, ...]]:
    """A labeler that answers every query with the first query's noisy label (dependent)."""
    assert isinstance(sigma2, Fraction)
    noise = DiscreteGaussian(sigma2)
    bar = (k + 1) // 2

    def run() -> Program[tuple[int, ...]]:
        passed = yield from at_least(noise, votes[0], bar)
        return tuple(1 if passed else 0 for _ in votes)

    return run()


def test_dependent_labels_are_caught() -> None:
    assert gu.check_conditional_independence(_copying).verdict is Verdict.VIOLATED
