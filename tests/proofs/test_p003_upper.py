"""Ledger entries of 003 Section 3 (proofs.p003.upper): statuses, runtimes, exact tools, mutations."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p003 import upper as u
from privref.proofs.registry import all_entries
from privref.reference.concepts import thresholds_on
from privref.reference.reals import Order, compare


def test_entries_consistent_and_registered() -> None:
    ids = {e.id for e in all_entries()}
    expected = {"003 Theorem 3.1": Status.NOT_CHECKABLE, "003 Lemma 3.2": Status.CHECKED,
                "003 Lemma 3.3": Status.CHECKED,
                "003 Lemma 3.3 / inequality (1)": Status.REFUTED}
    entries = (*u.ENTRIES, u.STEP_INEQ_1)     # the step is listed by proofs.p003.cover_steps
    assert {e.id: e.status for e in entries} == expected
    for entry in entries:
        assert entry.id in ids  # its checks' verdicts: tests/proofs/test_ledger.py


def test_support_probabilities_sum_to_one() -> None:
    mu = (Fraction(1, 2), Fraction(1, 3), Fraction(1, 6), Fraction(0))
    for n in (1, 2, 3, 7):
        probs = u.support_probabilities(mu, n)
        assert sum(probs.values()) == 1
        assert all(a.bit_count() <= n and not a >> 3 & 1 for a in probs)
    # n = 1: the support is one point with its mass
    assert u.support_probabilities(mu, 1) == {1: Fraction(1, 2), 2: Fraction(1, 3),
                                              4: Fraction(1, 6)}


def test_bad_probability_by_brute_force() -> None:
    # THRESH on 3 points, μ uniform, α = 1/4, n = 2: enumerate all 9 samples
    H = thresholds_on(3)
    mu = (Fraction(1, 3),) * 3
    brute = Fraction(0)
    heavy = [g for g in (a ^ b for a in H.masks for b in H.masks) if bin(g).count("1") >= 1]
    for x in range(3):
        for y in range(3):
            a = (1 << x) | (1 << y)
            if any(g & a == 0 for g in heavy):
                brute += Fraction(1, 9)
    assert u.bad_probability(H, mu, Fraction(1, 4), 2) == brute
    assert u.not_cover_probability(H, mu, Fraction(1, 4), 2) <= brute


def test_inequality_1_rhs_value() -> None:
    # 2(2e·300)^2 e^{-75/4} ≈ 0.038274
    rhs = u.inequality_1_rhs(300, 1, Fraction(1, 4))
    assert compare(rhs, Fraction(38273, 10**6))[0] is Order.GREATER
    assert compare(rhs, Fraction(38274, 10**6))[0] is Order.LESS


def test_mutation_wrong_bound_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # a bound ten orders of magnitude too small must make the HOLDS check fail
    original = u.inequality_1_rhs
    monkeypatch.setattr(u, "inequality_1_rhs",
                        lambda n, d, a: original(n, d, a) * Fraction(1, 10**60))
    assert u.check_cover_bound().verdict is Verdict.VIOLATED


def test_mutation_data_dependent_cover_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # a cover that peeks at S_priv (here: the private points join the public ones) is not private
    from privref.reference.learners import semiprivate as sp

    def peeking(concepts, epsilon, public, sample):  # type: ignore[no-untyped-def]
        return original(concepts, epsilon, public + tuple(x for x, _ in sample), sample)

    original = sp._selection
    monkeypatch.setattr(sp, "_selection", peeking)
    assert u.check_privacy().verdict is Verdict.VIOLATED
