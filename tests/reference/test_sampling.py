"""Exact samplers: integer randomness only, correct laws."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from privref.reference import _sampling
from privref.reference.reals import exp, rational

from ..stats import fits


def test_uniform_int_covers_huge_ranges_exactly() -> None:
    """Draws below n for n far beyond 64 bits; the top bit is set about half the time."""
    rng = np.random.default_rng(7)
    n = 3 * 2**200 + 1
    draws = [_sampling.uniform_int(rng, n) for _ in range(2000)]
    assert all(0 <= d < n for d in draws)
    high = sum(d >= 2**201 for d in draws)
    assert fits(stats.binomtest(high, 2000, float(Fraction(2**200 + 1, n))).pvalue,
                "uniform_int: top bit of a huge range")


def test_bernoulli_uses_exact_rational_probability() -> None:
    """A Bernoulli(1/3) coin agrees with 1/3 (binomial test, seeded)."""
    rng = np.random.default_rng(11)
    hits = sum(_sampling.bernoulli(rng, Fraction(1, 3)) for _ in range(6000))
    assert fits(stats.binomtest(hits, 6000, 1 / 3).pvalue, "bernoulli(1/3)")


def test_categorical_real_with_irrational_weights() -> None:
    """Weights e^0, e^(1/2), e^1 are sampled by lazy refinement with the right law."""
    rng = np.random.default_rng(5)
    weights = (rational(1), exp(Fraction(1, 2)), exp(1))
    counts = Counter(_sampling.categorical_real(rng, weights) for _ in range(6000))
    total = sum(float(w) for w in weights)
    expected = [6000 * float(w) / total for w in weights]
    assert fits(stats.chisquare([counts[i] for i in range(3)], expected).pvalue,
                "categorical with irrational weights")


def test_zero_weight_category_is_never_drawn() -> None:
    """A category with weight exactly 0 never appears."""
    rng = np.random.default_rng(3)
    weights = (rational(0), exp(1), rational(0))
    assert {_sampling.categorical_real(rng, weights) for _ in range(200)} == {1}


def test_uniform_int_rejects_empty_range() -> None:
    """n must be >= 1."""
    with pytest.raises(ValueError, match="n=0 must be >= 1"):
        _sampling.uniform_int(np.random.default_rng(0), 0)


def _huge(scale: Fraction, weights: tuple[int, ...]) -> tuple[Fraction, ...]:
    return tuple(scale * w for w in weights)


def test_huge_rational_weights_are_drawn_lazily_with_the_exact_law() -> None:
    """Weights c_i·(7/3)^5000 (about 22,000 bits each) take the integer lazy path; law c_i/Σc."""
    values = _huge(Fraction(7, 3) ** 5000, (1, 2, 3, 4))
    assert sum(v.numerator.bit_length() + v.denominator.bit_length() for v in values) \
        > _sampling.EXACT_DRAW_BITS
    rng = np.random.default_rng(17)
    weights = tuple(rational(v) for v in values)
    counts = Counter(_sampling.categorical_real(rng, weights) for _ in range(5000))
    expected = [5000 * c / 10 for c in (1, 2, 3, 4)]
    assert fits(stats.chisquare([counts[i] for i in range(4)], expected).pvalue,
                "categorical with huge rational weights")


def test_huge_weights_spanning_many_orders_of_magnitude() -> None:
    """(3/5)^q for q = 0, 1, 2, 50000: the last is never drawn, the first three in ratio 25:15:9."""
    rng = np.random.default_rng(23)
    values = (Fraction(1), Fraction(3, 5), Fraction(9, 25), Fraction(3, 5) ** 50000, Fraction(0))
    weights = tuple(rational(v) for v in values)
    counts = Counter(_sampling.categorical_real(rng, weights) for _ in range(4900))
    assert counts[3] == counts[4] == 0
    expected = [4900 * c / 49 for c in (25, 15, 9)]
    assert fits(stats.chisquare([counts[i] for i in range(3)], expected).pvalue,
                "categorical with weights over many orders of magnitude")


def test_huge_path_matches_the_exact_path_on_equal_weights() -> None:
    """Two equal huge weights: a fair coin (binomial test)."""
    rng = np.random.default_rng(29)
    x = Fraction(11, 13) ** 9000
    ones = sum(_sampling.categorical_real(rng, (rational(x), rational(x))) for _ in range(4000))
    assert fits(stats.binomtest(ones, 4000, 0.5).pvalue, "huge path on equal weights")


def test_bernoulli_array_is_exact_and_validated() -> None:
    """Bernoulli(1/3) in array form agrees with 1/3; p outside [0, 1] or a huge denominator is refused."""
    hits = int(_sampling.bernoulli_array(np.random.default_rng(12), Fraction(1, 3), 30_000).sum())
    assert fits(stats.binomtest(hits, 30_000, 1 / 3).pvalue, "bernoulli_array(1/3)")
    assert not _sampling.bernoulli_array(np.random.default_rng(0), Fraction(0), 100).any()
    assert _sampling.bernoulli_array(np.random.default_rng(0), Fraction(1), 100).all()
    with pytest.raises(ValueError, match="must lie in"):
        _sampling.bernoulli_array(np.random.default_rng(0), Fraction(4, 3), 1)
    with pytest.raises(ValueError, match="denominator above"):
        _sampling.bernoulli_array(np.random.default_rng(0), Fraction(1, 2**62 + 1), 1)


def test_integer_weights_use_the_least_common_denominator() -> None:
    assert _sampling.integer_weights([Fraction(1, 4), Fraction(1, 6), Fraction(0)]) == ([3, 2, 0], 12)
