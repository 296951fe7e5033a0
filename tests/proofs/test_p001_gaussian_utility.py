"""Ledger entries of proofs.p001.gaussian_utility (001 Theorems 22/34 and 28, Remark 24):
verdicts, statuses, exact values and mutations that must fail."""

from __future__ import annotations

from fractions import Fraction

from privref.proofs import Status, Verdict
from privref.proofs.p001 import gaussian_utility as gu
from privref.proofs.registry import entry_by_id
from privref.reference.discrete_noise import DiscreteGaussian, at_least
from privref.reference.program import Program
from privref.reference.reals import rational
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


def test_a_perturbed_k_formula_is_caught() -> None:
    assert gu.check_k_identity(F(99, 100)).verdict is Verdict.VIOLATED


def test_weaker_markov_constants_are_caught() -> None:
    """K >= σ√(2 log 2n) (factor 1, not 6), Markov factor 1 (not 3), and no 1/n term."""
    assert gu.check_markov_step(k_factor=F(1)).verdict is Verdict.VIOLATED
    assert gu.check_markov_step(markov=F(1)).verdict is Verdict.VIOLATED
    assert gu.check_markov_step(k_factor=F(2), beta=F(0)).verdict is Verdict.VIOLATED


def test_a_halved_triangle_is_caught() -> None:
    assert gu.check_risk_triangle(F(1, 2)).verdict is Verdict.VIOLATED


def test_eq8_without_the_fifth_b_is_caught() -> None:
    assert gu.check_eq8_algebra(F(4)).verdict is Verdict.VIOLATED


def test_a_smaller_hidden_factor_is_caught() -> None:
    assert gu.check_eps_small(rational(2)).verdict is Verdict.VIOLATED


def test_err_star_above_alpha_breaks_step3() -> None:
    assert gu.check_step3_label_bound(F(2)).verdict is Verdict.VIOLATED


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
