"""Ledger entries of proofs.p003.cover_steps (proof steps of 003 Lemma 3.3): verdicts, values,
mutations, and properties."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privref.proofs import Status, Verdict
from privref.proofs.p003 import cover_steps as cs
from privref.proofs.p003.upper import inequality_1_rhs, is_bad, mass
from privref.proofs.registry import entry_by_id
from privref.reference.concepts import Concept, ConceptClass, explicit, thresholds_on
from privref.reference.errors import InvalidArgument
from privref.reference.learners.semiprivate import alpha_cover
from privref.reference.reals import Order, compare
from privref.reference.vc import growth_function, projection_size, xor_class

F = Fraction


def test_entries_and_statuses() -> None:
    status = {e.step: e.status for e in cs.ENTRIES}
    assert status == {
        "every h has h̃ ∈ H̃ agreeing with it on T_pub": Status.CHECKED,
        "H̃ not an α-cover ⇒ Bad": Status.CHECKED,
        "inequality (1)": Status.REFUTED,
        "(1) <= β once n_pub = O((d log(1/α) + log(1/β))/α)": Status.REFUTED,
        "|Π_{H_Δ}(V)| <= |Π_H(V)|²": Status.PROVED,
        "Sauer: G_H(m) <= (em/d)^d": Status.REFUTED,
        "Bad as an event of H_Δ with h_0 ≡ 0": Status.CHECKED,
        "double-sample bound 2·G_{H_Δ}(2n)·e^{−αn/4}": Status.CHECKED,
    }
    for e in cs.ENTRIES:
        assert e.number == "Lemma 3.3" and entry_by_id(e.id) is e


# ------------------------------------------------------------------ exact values


@pytest.mark.parametrize(("d", "alpha", "beta", "expected"), [
    (1, F(1, 10), F(1, 10), 789), (1, F(1, 100), F(1, 10), 9915), (2, F(1, 10), F(1, 10), 1444),
    (5, F(1, 10), F(1, 10), 3407), (10, F(1, 10), F(1, 10), 6678),
    (10, F(1, 100), F(1, 100), 88357),
])
def test_smallest_public_size_matches_the_inventory_table(d: int, alpha: Fraction, beta: Fraction,
                                                          expected: int) -> None:
    n = cs.smallest_public_size(d, alpha, beta)
    assert n == expected
    assert compare(inequality_1_rhs(n, d, alpha), beta)[0] is Order.LESS
    assert compare(inequality_1_rhs(n - 1, d, alpha), beta)[0] is Order.GREATER


def test_smallest_public_size_rejects_bad_parameters() -> None:
    for d, alpha, beta in ((0, F(1, 2), F(1, 2)), (1, F(0), F(1, 2)), (1, F(1, 2), F(1))):
        with pytest.raises(InvalidArgument, match="alpha, beta"):
            cs.smallest_public_size(d, alpha, beta)


def test_growth_functions_of_thresholds_and_their_differences() -> None:
    H = thresholds_on(6)
    assert [growth_function(H, m) for m in range(8)] == [1, 2, 3, 4, 5, 6, 7, 7]
    assert [growth_function(xor_class(H), m) for m in range(8)] == \
        [1 + m * (m + 1) // 2 for m in range(7)] + [22]


# ------------------------------------------------------------------ mutations


def test_a_cover_with_one_representative_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cs, "alpha_cover",
                        lambda H, pts: alpha_cover(H, pts)[:1])
    assert cs.check_representatives().verdict is Verdict.VIOLATED
    assert cs.check_not_cover_implies_bad().verdict is Verdict.VIOLATED


def test_a_wrong_xor_class_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cs, "xor_class", lambda H: H)
    assert cs.check_xor_growth().verdict is Verdict.VIOLATED
    assert cs.check_bad_via_xor_class().verdict is Verdict.VIOLATED


def test_an_undercounted_growth_function_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cs, "growth_function", lambda C, m: 0)
    assert cs.check_double_sample().verdict is Verdict.VIOLATED
    monkeypatch.setattr(cs, "growth_function", lambda C, m: 2 ** m)
    assert cs.check_sauer_corrected().verdict is Verdict.VIOLATED


def test_the_sample_size_grid_fails_for_too_small_constants() -> None:
    assert cs._grid_check(cs._SMALL_ALPHAS, 20, 0).verdict is Verdict.VIOLATED
    large = (F(9, 10), *cs._SMALL_ALPHAS)
    assert cs._grid_check(large, 50, 0).verdict is not Verdict.HOLDS   # ln(1/α), not ln(e/α)


# ------------------------------------------------------------------ properties


@st.composite
def _instances(draw: st.DrawFn) -> tuple[ConceptClass, tuple[Fraction, ...], Fraction, int]:
    k = draw(st.integers(2, 5))
    masks = draw(st.lists(st.integers(0, 2**k - 1), min_size=1, max_size=12, unique=True))
    H = explicit(range(k), [tuple((m >> i) & 1 for i in range(k)) for m in masks])
    weights = draw(st.lists(st.integers(0, 9), min_size=k, max_size=k).filter(any))
    mu = tuple(F(w, sum(weights)) for w in weights)
    alpha = draw(st.fractions(F(1, 20), F(19, 20)))
    return H, mu, alpha, draw(st.integers(0, 2**k - 1))


@settings(max_examples=80, deadline=None)
@given(_instances())
def test_no_bad_means_the_cover_is_an_alpha_cover(
        inst: tuple[ConceptClass, tuple[Fraction, ...], Fraction, int]) -> None:
    H, mu, alpha, a = inst
    heavy = [g for g in xor_class(H).masks if mass(mu, g) > alpha]
    points = tuple(x for i, x in enumerate(H.domain.points) if a >> i & 1)
    cover: tuple[Concept, ...] = alpha_cover(H, points)
    assert len(cover) == projection_size(H, points)
    if not is_bad(heavy, a):
        assert all(min(mass(mu, h ^ c.mask) for c in cover) <= alpha for h in H.masks)


@settings(max_examples=80, deadline=None)
@given(_instances())
def test_xor_patterns_are_pairs_of_patterns(
        inst: tuple[ConceptClass, tuple[Fraction, ...], Fraction, int]) -> None:
    H, _, _, a = inst
    pats = {m & a for m in H.masks}
    assert {m & a for m in xor_class(H).masks} == {p ^ q for p in pats for q in pats}
