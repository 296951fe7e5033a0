"""One definition, two interpreters: exact distribution and sampler of the same program."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction

import numpy as np
import pytest

from privref.reference.errors import InvalidArgument, TooLargeToEnumerate, UnsupportedProgram
from privref.reference.program import (
    Distribution,
    Program,
    bernoulli,
    call,
    categorical,
    distribution,
    sample,
    uniform,
)
from privref.reference.reals import Interval, Real, exp, rational

from ..stats import chi_square_pvalue, fits


def coin_sum(n: int) -> Program[int]:
    """Sum of n fair coins."""
    total = 0
    for _ in range(n):
        total += int((yield from bernoulli(Fraction(1, 2))))
    return total


def geometric_capped(cap: int) -> Program[int]:
    """Number of failures before the first success of a 1/3 coin, capped."""
    k = 0
    while k < cap and not (yield from bernoulli(Fraction(1, 3))):
        k += 1
    return k


def softmax3() -> Program[int]:
    """Categorical with irrational weights 1, e^(1/2), e."""
    return (yield from categorical((rational(1), exp(Fraction(1, 2)), exp(1))))


def pair_of_calls() -> Program[tuple[int, int]]:
    """Two independent sub-program calls."""
    a = yield from call(coin_sum, 2)
    b = yield from call(geometric_capped, 2)
    return (a, b)


def test_exact_distribution_merges_equal_outcomes() -> None:
    """Binomial(3, 1/2) exactly, from 8 paths merged into 4 outcomes."""
    d = distribution(coin_sum, 3)
    assert d.as_dict() == {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8),
                           3: Fraction(1, 8)}
    assert d.total() == 1 and d.is_exact


def test_unbounded_loop_with_cap_is_exact() -> None:
    """Capped geometric: P(k) = (2/3)^k (1/3) for k < cap, and the rest at the cap."""
    d = distribution(geometric_capped, 3)
    assert d.as_dict() == {0: Fraction(1, 3), 1: Fraction(2, 9), 2: Fraction(4, 27),
                           3: Fraction(8, 27)}


def test_irrational_weights_give_enclosures_that_sum_to_one() -> None:
    """Interval probabilities contain the true softmax values and their sum contains 1."""
    d = distribution(softmax3, precision=80)
    total = d.total()
    assert isinstance(total, Interval) and total.lo <= 1 <= total.hi
    p2 = d.prob(2)
    assert isinstance(p2, Interval) and p2.width < Fraction(1, 2**70)


def test_calls_compose_as_product_distribution() -> None:
    """Independent sub-calls give the product law."""
    d = distribution(pair_of_calls)
    assert d.prob((1, 0)) == Fraction(1, 2) * Fraction(1, 3)
    assert d.total() == 1


@pytest.mark.parametrize(("program", "args"), [
    (coin_sum, (4,)), (geometric_capped, (4,)), (softmax3, ()), (pair_of_calls, ()),
])
def test_sampler_agrees_with_exact_distribution(program: Callable[..., Program[Hashable]],
                                                args: tuple[int, ...]) -> None:
    """Seeded chi-square test of the sampler against the exact law (one recorded ``fits``)."""
    dist = distribution(program, *args)
    pvalue = chi_square_pvalue(dist, lambda rng: sample(program, *args, rng=rng))
    assert fits(pvalue, f"sample({program.__name__}) vs distribution"), pvalue


def test_sampler_is_reproducible_from_its_seed() -> None:
    """The same seed gives the same draws."""
    a = [sample(pair_of_calls, rng=np.random.default_rng(9)) for _ in range(1)]
    b = [sample(pair_of_calls, rng=np.random.default_rng(9)) for _ in range(1)]
    assert a == b


def test_enumeration_limit_raises_with_the_limit_named() -> None:
    """max_paths is enforced and named."""
    with pytest.raises(TooLargeToEnumerate, match="max_paths=10"):
        distribution(coin_sum, 6, max_paths=10)


def unhashable() -> Program[list[int]]:
    """Returns a list (not hashable)."""
    yield from uniform(2)
    return [1]


def bad_yield() -> Program[int]:
    """Yields something that is not a Choice."""
    yield 3  # type: ignore[misc]
    return 0


def bad_probability() -> Program[bool]:
    """A Bernoulli with p = 3/2."""
    return (yield from bernoulli(Fraction(3, 2)))


def zero_weights() -> Program[int]:
    """A categorical whose weights are all 0."""
    return (yield from categorical((0, 0)))


def test_bad_programs_get_clear_errors() -> None:
    """Unhashable outcomes and foreign yields are refused with a message."""
    with pytest.raises(UnsupportedProgram, match="not hashable"):
        distribution(unhashable)
    with pytest.raises(UnsupportedProgram, match="not a Choice"):
        distribution(bad_yield)
    with pytest.raises(InvalidArgument, match="must lie in"):
        distribution(bad_probability)
    with pytest.raises(InvalidArgument, match="must not all be 0"):
        distribution(zero_weights)
    with pytest.raises(InvalidArgument, match="precision=8"):
        distribution(coin_sum, 1, precision=8)


def test_distribution_map_merges_images() -> None:
    """Push-forward merges equal images."""
    d = distribution(coin_sum, 2).map(lambda k: k % 2)
    assert d.as_dict() == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert isinstance(d, Distribution)


def test_hidden_randomness_is_detected() -> None:
    """A program whose choices depend on hidden state is refused, not silently mis-enumerated."""
    calls = {"n": 0}

    def sneaky() -> Program[int]:
        calls["n"] += 1
        n = 2 if calls["n"] == 1 else 1  # hidden state changes the choice on replay
        a = yield from uniform(n)
        b = yield from uniform(n)
        return a + b

    with pytest.raises(UnsupportedProgram, match="not deterministic given its choices"):
        distribution(sneaky)


def _shares_one_per_item(weights: tuple[Real, ...], prec: int) -> list[Interval]:
    """The per-item formula of program._weight_shares (before distinct weights were grouped)."""
    boxes = [w.enclose(prec + 8) for w in weights]
    lo_sum, hi_sum = sum((b.lo for b in boxes), Fraction(0)), sum((b.hi for b in boxes), Fraction(0))
    out = []
    for b in boxes:
        o_lo, o_hi = lo_sum - b.lo, hi_sum - b.hi
        out.append(Interval(b.lo / (b.lo + o_hi) if b.lo + o_hi > 0 else Fraction(0),
                            b.hi / (b.hi + o_lo) if b.hi + o_lo > 0 else Fraction(1)).rounded(prec))
    return out


@pytest.mark.parametrize("pattern", [(0, 0, 1, 0, 2, 1), (3,), (0, 1, 2), (5, 5, 5, 5)])
def test_grouped_weight_shares_equal_the_per_item_formula(pattern: tuple[int, ...]) -> None:
    """Shares computed once per distinct weight object are the per-item shares, item by item
    (repeated objects and equal values held by distinct objects alike)."""
    from privref.reference.program import _weight_shares
    pool = [exp(rational(Fraction(-k, 3))) for k in range(6)]
    shared = tuple(pool[k] for k in pattern)                         # repeated objects
    copies = tuple(exp(rational(Fraction(-k, 3))) for k in pattern)  # equal values, new objects
    for weights in (shared, copies):
        got = _weight_shares(weights, 64)
        assert got == _shares_one_per_item(weights, 64)


def test_equal_exponential_weights_share_one_real() -> None:
    """Equal shifts of one mechanism's scores give the same Real object (one enclosure cache)."""
    from privref.reference.exponential import exponential_weights
    eps = rational(1)
    a = exponential_weights([3, 1, 3, 0], epsilon=eps)
    b = exponential_weights([5, 3, 2], epsilon=eps)
    assert a[0] is a[2] and a[1] is b[1]
    assert a[3].enclose(64) == exp(rational(Fraction(-3, 2))).enclose(64)
