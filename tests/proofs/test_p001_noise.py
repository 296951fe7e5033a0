"""Ledger entries of proofs.p001.noise (001 Lemma 9, Definition 8, Lemmas 13, 38, Remark 21)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p001 import noise
from tests.proofs.checks import resolves

F = Fraction


def test_entries_and_statuses() -> None:
    statuses = {e.id: e.status for e in noise.ENTRIES}
    assert statuses["001 Lemma 9"] is Status.CHECKED
    assert statuses["001 Lemma 9 / Definition 8 reads P(|r(x)| <= t)"] is Status.REFUTED
    assert statuses["001 Lemma 13"] is Status.REFUTED
    assert statuses["001 Lemma 13 / log(K/γ) without a factor K"] is Status.REFUTED
    assert statuses["001 Lemma 38"] is Status.NOT_CHECKABLE
    assert statuses["001 Remark 21"] is Status.NOT_CHECKABLE
    mains = [e.number for e in noise.ENTRIES if e.step is None]
    assert sorted(mains) == ["Lemma 13", "Lemma 38", "Lemma 9", "Remark 21"]
    for e in noise.ENTRIES:
        assert all(resolves(s) for s in e.subjects), e.subjects


@pytest.mark.parametrize(("name", "value"), [("LEMMA9_ETA_FACTOR", F(1, 2)),
                                             ("LEMMA9_C_FACTOR", F(1))])
def test_mutated_conversions_fail(monkeypatch: pytest.MonkeyPatch, name: str,
                                  value: Fraction) -> None:
    """η = (C)^{1−τ}/… (factor 1/2 inside) and C without 2^{τ/(1−τ)} both fail."""
    monkeypatch.setattr(noise, name, value)
    assert noise.check_lemma9_constants().verdict is Verdict.VIOLATED


def test_other_mutations_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(noise, "MASSART_ETA_FACTOR", F(1))
        assert noise.check_massart_convention().verdict is Verdict.VIOLATED
    assert noise.check_massart_teacher_rate(noise=F(1, 2)).verdict is Verdict.VIOLATED
    with monkeypatch.context() as m:
        m.setattr(noise, "ETA_EXPONENT_ADD", F(1, 2))
        assert noise.check_eta_exponent_algebra().verdict is Verdict.VIOLATED
    assert noise.check_remark21_nu_bounds_agg(F(0)).verdict is Verdict.VIOLATED
    assert noise.check_log_term_printed(F(10)).verdict is Verdict.HOLDS


def test_log_ratio_exact() -> None:
    """(64·14 + 64·206)/(64·20 + 206) = 14080/1486 in units of ln 2."""
    printed, union = noise._printed_and_union(1, 20, 6, 200)
    assert (printed, union) == (F(1486), F(14080))


def test_lemma13_needs_many_teachers_to_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """K = C teachers (not 16C): the printed bound tends to ln 8 > 1/2, no counterexample."""
    assert noise.check_lemma13_any_constant().verdict is Verdict.VIOLATED
    monkeypatch.setattr(noise, "_L13_TEACHERS_PER_C", 1)
    assert noise.check_lemma13_any_constant().verdict is not Verdict.VIOLATED
