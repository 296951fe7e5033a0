"""004/000 Theorems B.3–B.6 (proofs.p004.generalization, proofs.p000.generalization)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from privref.proofs import Kind, Status, Verdict
from privref.proofs.p000 import generalization as g000
from privref.proofs.p004 import generalization as g
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate

F = Fraction
ENTRIES = (*g.ENTRIES, *g000.ENTRIES)


# Each check's verdict is asserted once, by tests/proofs/test_ledger.py (no check runs twice).


def test_statuses_and_counterparts() -> None:
    by_id = {e.id: e for e in ENTRIES}
    assert set(by_id) == {f"{p} Theorem B.{i}" for p in ("004", "000") for i in (3, 4, 5, 6)}
    assert by_id["004 Theorem B.3"].status is Status.NOT_CHECKABLE
    for i in (4, 5, 6):
        assert by_id[f"004 Theorem B.{i}"].status is Status.CHECKED
        assert by_id[f"000 Theorem B.{i}"].also == (f"004 Theorem B.{i}",)
    assert all(e.kind is Kind.THEOREM for e in ENTRIES)
    assert all(a.checks == b.checks for a, b in zip(g.ENTRIES, g000.ENTRIES, strict=True))


# ------------------------------------------------------------------ exact values by hand


def test_type_class_probability_by_hand() -> None:
    # N({1,2}) ~ Bin(3, 1/2); bad iff N <= 1: 1/8 + 3/8.
    mu = (F(1, 2), F(1, 4), F(1, 4))
    assert g.bad_probability(mu, 3, [(0b110, 2, 3)]) == F(1, 2)
    assert g.bad_probability_by_types(mu, 3, [(0b110, 2, 3)]) == F(1, 2)
    # two points, bad iff point 0 is never drawn: (1/2)^2.
    assert g.bad_probability((F(1, 2), F(1, 2)), 2, [(0b01, 1, 2)]) == F(1, 4)
    # zero-mass points are dropped; a condition on them alone is about N = 0.
    assert g.bad_probability((F(0), F(1)), 5, [(0b01, 1, 5)]) == 1
    assert g.bad_probability((F(0), F(1)), 5, [(0b10, 5, 5)]) == 0


def test_b4_threshold_instance_by_hand() -> None:
    """THRESH[4], μ uniform, c = c_2, α = 1/4: bad sets {0,1} and {2,3}, so Pr = 2·2^-m (m >= 1)."""
    inst = g.B4_INSTANCES[0]
    C = inst.concepts()
    assert g.b4_conditions(C, inst.target, inst.mu, inst.alpha) == (0b0011, 0b1100)
    for m in range(1, 12):
        assert g.instance_probability("B.4", inst, m) == F(2, 2**m)
    assert g.sample_size("B.4", inst.alpha, inst.beta, 1) == 229   # 32·(ln 64 + ln 20) = 228.95


def test_engine_agrees_with_literal_type_sum_and_inclusion_exclusion() -> None:
    rng = random.Random(4_2014)
    for _ in range(60):
        k = rng.randint(1, 4)
        weights = [rng.randint(0, 4) for _ in range(k)]
        if sum(weights) == 0:
            weights[0] = 1
        mu = tuple(F(w, sum(weights)) for w in weights)
        m = rng.randint(0, 7)
        conds = []
        for _ in range(rng.randint(1, 4)):
            lo = rng.randint(0, m)
            conds.append((rng.randint(1, (1 << k) - 1), lo, rng.randint(lo, m)))
        assert g.bad_probability(mu, m, conds) == g.bad_probability_by_types(mu, m, conds)
        masks = [mask for mask, _, _ in conds]
        avoid = [(mask, 1, m) for mask in masks]
        assert g.avoid_probability(mu, m, masks) == g.bad_probability_by_types(mu, m, avoid)
        assert sum(g.support_probabilities(mu, m)) == 1


def test_engine_validates_and_refuses() -> None:
    with pytest.raises(InvalidArgument, match="sum to exactly 1"):
        g.bad_probability((F(1, 2), F(1, 3)), 2, [])
    with pytest.raises(InvalidArgument, match="m=-1"):
        g.bad_probability((F(1),), -1, [])
    with pytest.raises(TooLargeToEnumerate):
        g.bad_probability((F(1, 3),) * 3, 4000, [(0b001, 1333, 1334)], budget=1000)


def test_b5_readings_and_sample_sizes() -> None:
    ln = g.sample_size("B.5", F(1, 2), F(1, 10), 1)
    log2 = g.sample_size("B.5", F(1, 2), F(1, 10), 1, reading="log2")
    assert ln == 5718 and log2 == 8249 and ln < log2
    assert g.sample_size("B.6", F(1, 2), F(1, 4), 1) == 416            # 200·ln 8 = 415.89


# ------------------------------------------------------------------ mutations


def test_a_broken_constant_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bounds are loose on tiny domains: only drastic cuts of the constant fail."""
    monkeypatch.setattr(g, "B4_LEAD", F(1, 16))
    b4 = g.check_b4()
    assert b4.verdict is Verdict.VIOLATED and b4.witness
    monkeypatch.setattr(g, "B4_LEAD", F(1, 4))
    assert g.check_b4().verdict is Verdict.HOLDS
    monkeypatch.setattr(g, "B5_LEAD", F(1, 100))
    assert g.check_b5().verdict is Verdict.VIOLATED
    monkeypatch.setattr(g, "B6_LEAD", F(1, 10))
    assert g.check_b6().verdict is Verdict.VIOLATED


def test_b3_illustration_can_fail() -> None:
    """Two points, μ uniform, α = 1/64: the bound is 4 but the memorizer succeeds w.p. 3/4 at m = 3."""
    res = g.check_b3_memorizer(2, F(1, 64), (F(1, 2), F(1, 2)))
    assert res.verdict is Verdict.VIOLATED and res.witness == "m=2"


def test_not_vacuous_check_can_fail() -> None:
    inst = g.Instance("THRESH[4], no small failure", g.B4_INSTANCES[0].concepts, (F(1, 4),) * 4,
                      F(1, 4), F(1, 10), target=2, small_m=5)
    assert g.check_b4_not_vacuous((inst,)).verdict is Verdict.VIOLATED
