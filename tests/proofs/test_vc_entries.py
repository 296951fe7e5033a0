"""The VC ledger entries of paper 004 (proofs.p004.vc): verdicts, determinism, and mutations."""

from __future__ import annotations

from fractions import Fraction

from privref.proofs import Kind, Status, Verdict
from privref.proofs.p004 import vc as pv
from privref.reference.concepts import ConceptClass, explicit, intervals, thresholds
from privref.reference.reals import Order, compare, exp, rational
from privref.reference.vc import projection, sauer_bound_exponential, vc_dimension, xor_class


def test_entries_ids_kinds_and_counterparts() -> None:
    by_id = {e.id: e for e in pv.ENTRIES}
    assert set(by_id) == {"004 Theorem B.2", "004 Observation 3.2"}
    sauer, xor = by_id["004 Theorem B.2"], by_id["004 Observation 3.2"]
    assert sauer.kind is Kind.THEOREM and xor.kind is Kind.OBSERVATION
    assert sauer.status is xor.status is Status.CHECKED
    assert sauer.also == ("000 Theorem B.2",)
    assert xor.also == ("000 Observation 3.2",)
    assert "|B| < VC(C)" in sauer.notes


def test_families_are_fixed() -> None:
    again = pv.seeded_classes.__wrapped__()                # bypass the cache: rebuild from seed
    assert again == pv.seeded_classes()
    assert len(pv.exhaustive_classes(3)) == 3 + 15 + 255
    assert {len(C.domain) for C in pv.seeded_classes()} == {4, 5, 6, 7}


# ------------------------------------------------------- the hypothesis |B| > VC


def test_sauer_needs_b_larger_than_vc() -> None:
    """All four functions on two points: VC 2; one point B gives 2 patterns > (e·1/2)^2."""
    C = explicit(range(2), [(0, 0), (0, 1), (1, 0), (1, 1)])
    assert vc_dimension(C) == 2
    count = len(projection(C, [0]))
    assert count == 2
    rhs = exp(2) * rational(Fraction(1, 4))                # (e|B|/VC)^VC with |B| = 1 < VC
    assert compare(rhs, count)[0] is Order.LESS            # e²/4 ≈ 1.85 < 2
    # with |B| = 3 > VC = 2 on all functions of three points the bound holds again
    C3 = explicit(range(3), [tuple((m >> i) & 1 for i in range(3)) for m in range(8)])
    assert compare(len(projection(C3, [0, 1, 2])), sauer_bound_exponential(3, 3 - 1))[0] \
        is Order.LESS


# --------------------------------------------------------------- mutations


def _vc_minus_one(C: ConceptClass) -> int:
    return max(vc_dimension(C) - 1, 0)


def test_sauer_check_catches_an_underestimated_vc() -> None:
    result = pv.check_sauer([thresholds(2), intervals(4)], vc=_vc_minus_one)
    assert result.verdict is Verdict.VIOLATED
    assert result.witness is not None and "THRESH_2" in result.witness


def test_xor_identity_check_catches_a_wrong_xor_class() -> None:
    def drop_last(C: ConceptClass) -> ConceptClass:
        X = xor_class(C)
        return ConceptClass(X.name, X.domain, X.concepts[:-1] or X.concepts)

    result = pv.check_xor_projection_identity([thresholds(2)], xor=drop_last)
    assert result.verdict is Verdict.VIOLATED
    assert result.witness is not None and "B = " in result.witness


def test_xor_vc_bound_check_catches_violations() -> None:
    def vc_base_zero(C: ConceptClass) -> int:
        return vc_dimension(C) if C.name.endswith("^⊕") else 0

    result = pv.check_xor_vc_bound([intervals(4)], vc=vc_base_zero)
    assert result.verdict is Verdict.VIOLATED
    assert "VC(C) = 0 but VC(C^⊕) = 4" in result.evidence

    def vc_times_ten(C: ConceptClass) -> int:
        return 10 * vc_dimension(C) if C.name.endswith("^⊕") else vc_dimension(C)

    result = pv.check_xor_vc_bound([intervals(4)], vc=vc_times_ten)
    assert result.verdict is Verdict.VIOLATED
    assert result.witness is not None and "INTERVALS" in result.witness


def test_xor_vc_zero_check() -> None:
    result = pv.check_xor_vc_zero([intervals(3)], vc=lambda C: 0)
    assert result.verdict is Verdict.VIOLATED
    assert pv.check_xor_vc_zero([intervals(3)]).verdict is Verdict.UNDECIDED   # nothing to test
