"""The pooled test (audits.blackbox.pooled): exact dealing, the bound's formula, its use.

The guarantee rests on one identity (dealt hits given their sum are binomial), checked
exactly by the ledger entry "folklore Przyborowski-Wilenski 1940"
(tests/proofs/test_folklore_pooled.py).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privref.audits.blackbox import pooled
from privref.audits.blackbox.estimate import bound_ratio, conclude_pair, estimate_pair_detailed
from privref.audits.blackbox.events import Threshold
from privref.audits.blackbox.pooled import (
    POOLED_MIN,
    allocate,
    fair_count,
    pooled_applies,
    pooled_ratio,
    spare,
)
from privref.audits.blackbox.selection import Candidate
from privref.audits.stats import cp_lower, cp_upper
from privref.reference.errors import InvalidArgument
from privref.reference.reals import log


def test_pooled_ratio_formula() -> None:
    assert pooled_ratio(0, 0, Fraction(1, 10)) == 0
    assert pooled_ratio(0, 7, Fraction(1, 10)) == 0
    r = cp_lower(30, 50, Fraction(1, 10))
    assert pooled_ratio(30, 20, Fraction(1, 10)) == r / (1 - r)
    assert pooled_ratio(5, 0, Fraction(1, 10)) == cp_lower(5, 5, Fraction(1, 10)) / (
        1 - cp_lower(5, 5, Fraction(1, 10)))
    for bad in (-1, True, 1.5):
        with pytest.raises(InvalidArgument, match="hits_p"):
            pooled_ratio(bad, 3, Fraction(1, 10))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="alpha"):
        pooled_ratio(1, 1, 0)


@pytest.mark.parametrize("coins", [0, 1, 7, 8, 9, 64, 1001, 2**15 + 3])
def test_fair_count_counts_exactly_the_first_bits(coins: int) -> None:
    raw = np.random.Generator(np.random.PCG64(11)).bytes(coins // 8 + 1)
    bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
    assert fair_count(coins, np.random.Generator(np.random.PCG64(11))) == int(bits[:coins].sum())


def test_fair_count_in_small_blocks_counts_the_same_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pooled, "_BLOCK", 16)
    raw = np.random.Generator(np.random.PCG64(2)).bytes(126)
    bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
    assert fair_count(1001, np.random.Generator(np.random.PCG64(2))) == int(bits[:1001].sum())


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=10**12))
def test_the_spare_makes_an_overflow_rarer_than_2e_minus_24(bounding: int) -> None:
    t = spare(bounding)
    assert t * t > 24 * bounding and (t - 1) ** 2 <= 24 * bounding


def test_allocate_deals_within_the_bounding_split() -> None:
    b = 10**6
    seed = np.random.SeedSequence(5, spawn_key=(1, 0, 2))
    m_a, m_b = allocate(b, seed)
    dealt = b - spare(b)
    assert m_a + m_b == 2 * dealt and max(m_a, m_b) <= b
    assert m_a == fair_count(2 * dealt, np.random.Generator(np.random.PCG64(seed)))
    assert allocate(b, np.random.SeedSequence(5, spawn_key=(1, 0, 2))) == (m_a, m_b)
    assert allocate(b, np.random.SeedSequence(6, spawn_key=(1, 0, 2))) != (m_a, m_b)
    assert pooled_applies(POOLED_MIN) and not pooled_applies(POOLED_MIN - 1)
    with pytest.raises(InvalidArgument, match="bounding=4095"):
        allocate(POOLED_MIN - 1, seed)


def _candidate() -> Candidate:
    return Candidate(Threshold(None, 1, 0.5, False), "a→b", 0, 0, 0.0)


def test_conclude_pair_uses_the_pooled_test_only_on_dealt_sizes_at_delta_zero() -> None:
    kw: dict[str, Any] = {"selection_a": 10, "selection_b": 10, "epsilon": log(2),
                          "alpha": Fraction(1, 10)}
    c = [_candidate()]
    pooled = conclude_pair(c, [(300, 100)], held_a=5000, held_b=5100, delta=0, dealt=True, **kw)
    assert pooled.estimate.test == "pooled"
    assert pooled.ratio == pooled_ratio(300, 100, Fraction(1, 10))
    assert pooled.estimate.counts["held_out_b"] == 5100
    side = conclude_pair(c, [(300, 100)], held_a=5000, held_b=5100, delta=0, **kw)
    assert side.estimate.test == "per-side"
    assert side.ratio == bound_ratio(300, 5000, 100, 5100, delta=Fraction(0),
                                     alpha_side=Fraction(1, 20))
    assert pooled.ratio > side.ratio  # the narrower test, on the same counts
    # delta > 0 keeps the per-side test even on dealt sizes
    delta = conclude_pair(c, [(300, 100)], held_a=5000, held_b=5100, delta=Fraction(1, 1000),
                          dealt=True, **kw)
    assert delta.estimate.test == "per-side"
    assert delta.ratio == bound_ratio(300, 5000, 100, 5100, delta=Fraction(1, 1000),
                                      alpha_side=Fraction(1, 20))
    # the delta interval stays the per-side one
    assert pooled.p_lower == cp_lower(300, 5000, Fraction(1, 20))
    assert pooled.q_upper == cp_upper(100, 5100, Fraction(1, 20))
    # an overflowed dealing gives no evidence, never a bound
    void = conclude_pair(c, [(0, 0)], held_a=0, held_b=0, delta=0, dealt=True, **kw)
    assert void.estimate.epsilon_lower_bound == 0.0 and not void.estimate.violation
    assert "overflowed" in void.estimate.event


def test_estimate_pair_deals_with_a_seed_and_is_reproducible() -> None:
    rng = np.random.default_rng(3)
    a = rng.laplace(0.0, 1.0, 20_000)
    b = rng.laplace(1.0, 1.0, 20_000)
    kw: dict[str, Any] = {"epsilon": 1, "delta": 0, "alpha": Fraction(1, 20),
                          "float_events": False}
    one = estimate_pair_detailed(a, b, seed=4, **kw)
    assert one.estimate.test == "pooled"
    assert (one.estimate.counts["held_out_a"], one.estimate.counts["held_out_b"]) == allocate(
        10_000, np.random.SeedSequence(4))
    assert estimate_pair_detailed(a, b, seed=4, **kw) == one
    plain = estimate_pair_detailed(a, b, **kw)
    assert plain.estimate.test == "per-side" and plain.estimate.counts["held_out_a"] == 10_000
    # the true epsilon is 1: neither test claims more
    assert one.estimate.epsilon_lower_bound < 1 and plain.estimate.epsilon_lower_bound < 1


def test_pooled_ratio_is_the_formula_when_both_sides_hit_equally() -> None:
    """Equal hits: r_lo < 1/2, a ratio below 1 (no evidence), not the S = 0 shortcut."""
    r = cp_lower(20, 40, Fraction(1, 10))
    assert 0 < pooled_ratio(20, 20, Fraction(1, 10)) == r / (1 - r) < 1


def test_allocate_keeps_a_dealing_exactly_at_its_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    """|m - (B - t)| = t still fits (m = B); one more overflows and gives (0, 0)."""
    b = 10**6
    t, dealt = spare(b), b - spare(b)
    seed = np.random.SeedSequence(1)
    monkeypatch.setattr(pooled, "fair_count", lambda coins, rng: dealt + t)
    assert allocate(b, seed) == (b, 2 * dealt - b)
    monkeypatch.setattr(pooled, "fair_count", lambda coins, rng: dealt - t - 1)
    assert allocate(b, seed) == (0, 0)


def test_fair_count_never_draws_more_than_a_block_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory stays bounded: no single draw exceeds _BLOCK bytes, whatever the coin count."""
    monkeypatch.setattr(pooled, "_BLOCK", 16)
    asked: list[int] = []

    class Spy:
        def __init__(self) -> None:
            self.rng = np.random.Generator(np.random.PCG64(3))

        def bytes(self, n: int) -> bytes:
            asked.append(n)
            return self.rng.bytes(n)

    fair_count(8 * 100 + 3, Spy())  # type: ignore[arg-type]
    assert max(asked) == 16 and sum(asked) == 101


@pytest.mark.parametrize("seed", [-1, True, 1.5, "7"])
def test_a_bad_seed_is_an_error_naming_it(seed: object) -> None:
    a = np.zeros(20_000)
    with pytest.raises(InvalidArgument, match="seed"):
        estimate_pair_detailed(a, a, epsilon=1, delta=0, alpha=Fraction(1, 20),
                               seed=seed)  # type: ignore[arg-type]
