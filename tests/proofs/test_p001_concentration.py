"""Ledger entries of proofs.p001.concentration (001 Lemmas 14, 35–37, Examples 1–2)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p001 import concentration as conc
from privref.proofs.registry import entry_by_id
from privref.reference.concepts import point_functions
from privref.reference.reals import rational
from privref.reference.vc import growth_function, vc_dimension
from tests.proofs.checks import resolves

F = Fraction


def test_entries_and_statuses() -> None:
    assert {e.id: e.status for e in conc.ENTRIES} == {
        "001 Lemma 14": Status.NOT_CHECKABLE,
        "001 Lemma 14 / explicit Bernstein tail with log(K/γ)": Status.CHECKED,
        "001 Lemma 35": Status.CHECKED,
        "001 Lemma 36": Status.REFUTED,
        "001 Lemma 37": Status.CHECKED,
        "001 Example 1": Status.CHECKED,
        "001 Example 1 / ERM is uniform over {h1, h2, h3}": Status.CHECKED,
        "001 Example 2": Status.CHECKED,
    }
    for e in conc.ENTRIES:
        assert entry_by_id(e.id) is e  # each check's verdict: the parametrized test above
        assert all(resolves(s) for s in e.subjects), e.subjects


# ------------------------------------------------------------------ exact values


def test_binomial_tails_by_hand() -> None:
    """Bin(2, 1/3): (4/9, 4/9, 1/9); P(X > 1) = 1/9, P(X < 1) = 4/9, P(X > 1/2) = 5/9."""
    assert conc.binomial_pmf(2, F(1, 3)) == (F(4, 9), F(4, 9), F(1, 9))
    assert conc.upper_tail_above(2, F(1, 3), rational(1)) == F(1, 9)
    assert conc.lower_tail_below(2, F(1, 3), rational(1)) == F(4, 9)
    assert conc.upper_tail_above(2, F(1, 3), rational(F(1, 2))) == F(5, 9)
    assert conc.lower_tail_below(2, F(1, 3), rational(-1)) == 0


def test_example1_values_by_hand() -> None:
    """(3/4)·P(Bin(K, 1/3) < K/2): the terms C(K, j)·2^{K−j}/3^K for 2j < K."""
    third, two = F(1, 3), F(2, 3)
    assert conc.voting_error(1) == F(3, 4) * two == F(1, 2)
    assert conc.voting_error(2) == F(3, 4) * two ** 2 == F(1, 3)
    assert conc.voting_error(3) == F(3, 4) * (two ** 3 + 3 * third * two ** 2) == F(5, 9)
    assert conc.voting_error(4) == F(3, 4) * (two ** 4 + 4 * third * two ** 3) == F(4, 9)
    assert conc.voting_error(5) == F(3, 4) * (two ** 5 + 5 * third * two ** 4
                                              + 10 * third ** 2 * two ** 3) == F(16, 27)
    assert conc.voting_error_bruteforce(3) == F(5, 9)


def test_erm_law_by_hand() -> None:
    """n = 1: x1 ties all three (first index: h1), x2 → h1, x3 → h2, x4 → h3."""
    assert conc.erm_law(1, symmetric=False) == (F(1, 2), F(1, 4), F(1, 4))
    assert conc.erm_law(1, symmetric=True) == (F(1, 3), F(1, 3), F(1, 3))


def test_point_functions_have_vc_one_and_n_patterns() -> None:
    """The facts the Lemma 36 counterexample uses, on 6 points: VC dimension 1, S_H(2n) = N."""
    C = point_functions(range(6))
    assert vc_dimension(C) == 1 and growth_function(C, 12) == 6 and growth_function(C, 5) == 6


# ------------------------------------------------------------------ mutations


def test_a_shrunk_bernstein_deviation_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conc, "LEMMA14_DEVIATION_SCALE", F(1, 2))
    monkeypatch.setattr(conc, "LEMMA35_DEVIATION_SCALE", F(1, 2))
    assert conc.check_bernstein_teacher_tail().verdict is Verdict.VIOLATED
    assert conc.check_bernstein_lower_tail().verdict is Verdict.VIOLATED


def test_a_too_small_max_constant_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """v = L: 1 + √2 + 2/3 > 3."""
    monkeypatch.setattr(conc, "LEMMA14_MAX_CONSTANT", F(3))
    assert conc.check_mistake_max_form().verdict is Verdict.VIOLATED


def test_a_too_small_uniform_term_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conc, "LEMMA36_TERM_SCALE", F(1, 100))
    monkeypatch.setattr(conc, "LEMMA37_TERM_SCALE", F(1, 100))
    for complexity in (conc.paper_complexity_36, conc.textbook_complexity):
        assert conc.check_uniform_deviation(complexity).verdict is Verdict.VIOLATED
    assert conc.check_erm_learning_bound().verdict is Verdict.VIOLATED


def test_the_point_function_counterexample_needs_the_small_term() -> None:
    """With ln S_H(2n) (or too few points for the Bonferroni bound) it disappears."""
    assert conc.check_lemma36_point_functions(textbook=True).verdict is Verdict.HOLDS
    assert conc.check_lemma36_point_functions(points=1 << 10).verdict is Verdict.HOLDS
    assert conc.check_lemma36_point_functions(textbook=False).verdict is Verdict.VIOLATED


def test_ties_to_zero_break_the_closed_form() -> None:
    def strict(count: int, k: int) -> int:
        return 1 if 2 * count > k else 0
    assert conc.check_example1_voting_error(strict).verdict is Verdict.VIOLATED


def test_a_too_fast_rate_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conc, "EXAMPLE2_RATE", F(4))
    assert conc.check_example2_hoeffding().verdict is Verdict.VIOLATED


def test_both_example1_readings_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """Symmetric ties give the uniform law, first-index ties do not; a tie rule that ignores
    the flag (always first-index, or always symmetric) breaks one of the two checks."""
    assert conc.check_example1_erm_law().verdict is Verdict.HOLDS
    assert conc.check_example1_first_index_not_uniform().verdict is Verdict.HOLDS
    law = conc.erm_law
    monkeypatch.setattr(conc, "erm_law", lambda n, symmetric: law(n, False))
    assert conc.check_example1_erm_law().verdict is Verdict.VIOLATED
    monkeypatch.setattr(conc, "erm_law", lambda n, symmetric: law(n, True))
    assert conc.check_example1_first_index_not_uniform().verdict is Verdict.VIOLATED
