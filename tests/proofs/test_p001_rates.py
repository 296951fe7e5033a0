"""Ledger entries of proofs.p001.rates (001 Theorems 5/27, 10, 19/31, 20/32, Remarks 6, 11, 12, 16, 29)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from privref.proofs import CheckResult, Status, Verdict
from privref.proofs.p001 import rates
from privref.reference.reals import Interval
from tests.proofs.checks import case_id, resolves

F = Fraction


def test_entries_and_statuses() -> None:
    mains = {e.number: e for e in rates.ENTRIES if e.step is None}
    assert set(mains) == {"Theorem 5", "Theorem 27", "Remark 6", "Theorem 10", "Remark 11",
                          "Remark 12", "Remark 16", "Theorem 19", "Theorem 31", "Theorem 20",
                          "Theorem 32", "Remark 29"}
    for a, b in (("Theorem 27", "Theorem 5"), ("Theorem 31", "Theorem 19"),
                 ("Theorem 32", "Theorem 20")):
        assert mains[a].status is mains[b].status
        assert {c.name for c in mains[a].checks} == {c.name for c in mains[b].checks}
    refuted = {e.id for e in rates.ENTRIES if e.status is Status.REFUTED}
    assert refuted == {"001 Theorem 20 / h^agg_inf ∈ Vote_K(H)",
                       "001 Remark 29 / introduction's Õ(d^{3/2}/(αε))"}
    for e in rates.ENTRIES:
        assert all(resolves(s) for s in e.subjects), e.subjects
    assert case_id((rates.ENTRIES[0], rates.ENTRIES[0].checks[0]))


def test_mutations_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    cases: list[tuple[str, int | Fraction, Callable[[], CheckResult]]] = [
            ("TRIANGLE_FACTOR", F(1, 2), lambda: rates.check_triangle(4)),
            ("EQ7_FACTOR", F(3, 2), rates.check_eq7_case_split),
            ("THEOREM5_CONSTANT", 12, rates.check_thirteen),
            ("REMARK6_AGNOSTIC_D_EXP", F(-1, 4), rates.check_remark6),
            ("THEOREM10_B_COEFF", 4, rates.check_scalar_inequality),
            ("ERR_DIS_FACTOR", F(1, 2), rates.check_err_minus_dis),
            ("ERM_CHAIN_COEFFICIENT", 1, lambda: rates.check_erm_chain("thresholds"))]
    for name, value, check in cases:
        with monkeypatch.context() as m:
            m.setattr(rates, name, value)
            assert check().verdict is Verdict.VIOLATED, name
    assert rates.check_theorem10_exponents(lambda t: 2 / (4 - 2 * t)).verdict is Verdict.VIOLATED
    assert rates.check_remark12(lambda t: 1 / (4 - 3 * t)).verdict is Verdict.VIOLATED
    assert rates.check_remark29(lambda t: t / (2 - t)).verdict is Verdict.VIOLATED
    assert rates.check_vote_vc(lambda K, d: (K - 1) * d).verdict is Verdict.VIOLATED
    assert rates.check_agg_exact(2).verdict is Verdict.VIOLATED
    assert rates.check_agg_not_in_votes(ks=(3, 5)).verdict is Verdict.HOLDS


def test_product_law_is_not_dependent() -> None:
    """A product law (independent entries) must make the Remark 16 illustration fail."""
    half = Interval.point(F(1, 2))
    quarter = Interval.point(F(1, 4))
    law: list[tuple[tuple[int | str, ...], Interval]] = [
        ((a, b), quarter) for a in (0, 1) for b in (0, 1)]
    assert half * half == quarter
    assert rates.check_svt_dependence(lambda: law).verdict is Verdict.VIOLATED
