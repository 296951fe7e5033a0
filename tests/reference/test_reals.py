"""Exact reals and intervals: containment, simplification, sound comparison."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.reference.errors import InvalidArgument
from privref.reference.reals import (
    Interval,
    Order,
    compare,
    exp,
    interval_exp,
    interval_log,
    log,
    prob_add,
    prob_mul,
    rational,
    sqrt,
)

fracs = st.fractions(min_value=-50, max_value=50, max_denominator=1000)


@st.composite
def boxes(draw: st.DrawFn) -> tuple[Interval, Fraction]:
    a, b, t = draw(fracs), draw(fracs), draw(st.fractions(0, 1, max_denominator=100))
    lo, hi = min(a, b), max(a, b)
    return Interval(lo, hi), lo + t * (hi - lo)


@given(boxes(), boxes())
def test_interval_arithmetic_contains_pointwise_results(x: tuple[Interval, Fraction],
                                                        y: tuple[Interval, Fraction]) -> None:
    """Every operation's result contains the exact result of its points."""
    (bx, px), (by, py) = x, y
    for box, value in ((bx + by, px + py), (bx - by, px - py), (bx * by, px * py)):
        assert box.lo <= value <= box.hi
    if not by.lo <= 0 <= by.hi:
        q = bx / by
        assert q.lo <= px / py <= q.hi


@given(fracs, st.integers(8, 80))
def test_outward_rounding_contains_and_bounds_size(x: Fraction, prec: int) -> None:
    """rounded(prec) contains the original interval and has prec-bit endpoints."""
    box = Interval.point(x / 7).rounded(prec)
    assert box.lo <= x / 7 <= box.hi
    for end in (box.lo, box.hi):
        if end:
            assert abs(end.numerator).bit_length() <= prec + 1
            assert end.denominator & (end.denominator - 1) == 0  # dyadic


def test_known_constants_are_enclosed() -> None:
    """e and ln 2 are enclosed by intervals that contain their classical rational bounds."""
    e_box = exp(1).enclose(64)
    assert e_box.lo < Fraction(2718281828459045235, 10**18) + Fraction(1, 10**18)
    assert e_box.lo > Fraction(2718281828459045234, 10**18)
    assert e_box.hi < Fraction(2718281828459045236, 10**18)
    ln2 = log(2).enclose(64)  # ln 2 = 0.69314718055994530941...
    assert Fraction(6931471805599453093, 10**19) < ln2.lo
    assert ln2.hi < Fraction(6931471805599453096, 10**19)
    assert interval_exp(Interval(Fraction(0), Fraction(1))).hi >= e_box.lo
    assert interval_log(Interval.point(Fraction(1))).lo <= 0 <= interval_log(
        Interval.point(Fraction(1))).hi


def test_simplifications_keep_rational_values_exact() -> None:
    """exp(log r)·k-style expressions simplify to exact rationals."""
    assert exp(log(3)).exact == 3
    assert exp(log(3) * 2).exact == 9
    assert exp(log(3) + log(Fraction(1, 2))).exact == Fraction(3, 2)
    assert exp(-log(3)).exact == Fraction(1, 3)
    assert exp(log(Fraction(3, 2)) * 2 * Fraction(-1, 2)).exact == Fraction(2, 3)
    assert sqrt(Fraction(9, 4)).exact == Fraction(3, 2)
    assert log(1).exact == 0
    assert sqrt(2).exact is None


def test_compare_is_three_valued_and_sound() -> None:
    """Exact comparisons are decided; distinct irrationals separate; equal expressions do not."""
    assert compare(exp(log(3)), 3)[0] is Order.EQUAL
    assert compare(exp(1), Fraction(271828, 100000))[0] is Order.GREATER
    assert compare(log(3), Fraction(11, 10))[0] is Order.LESS
    order, width = compare(log(9), log(3) * 2, max_precision=256)
    assert order is Order.UNDECIDED and width > 0
    assert compare(sqrt(2) * sqrt(2), 2, max_precision=256)[0] is Order.UNDECIDED


def test_domain_errors_name_the_value() -> None:
    """log of a non-positive number and sqrt of a negative one are refused."""
    with pytest.raises(InvalidArgument, match="must be > 0"):
        log(0)
    with pytest.raises(InvalidArgument, match="must be >= 0"):
        sqrt(-1)
    with pytest.raises(InvalidArgument, match="lo=2 must be <= hi=1"):
        Interval(Fraction(2), Fraction(1))
    with pytest.raises(ZeroDivisionError):
        Interval(Fraction(1), Fraction(2)) / Interval(Fraction(-1), Fraction(1))


def test_prob_helpers_stay_exact_for_fractions() -> None:
    """Sums and products of exact probabilities stay Fractions; mixed ones become intervals."""
    assert prob_add(Fraction(1, 3), Fraction(1, 6)) == Fraction(1, 2)
    assert prob_mul(Fraction(1, 3), Fraction(3, 4)) == Fraction(1, 4)
    mixed = prob_mul(Fraction(1, 2), rational(1).enclose())
    assert isinstance(mixed, Interval)


# ---------------------------------------------------------------- astronomically large magnitudes


def test_tiny_enclosures_are_widened_soundly_and_fast() -> None:
    """exp(-10^9) is enclosed by [0, 2^-MAX_EXPONENT] without computing 2^(1.4e9) exactly."""
    from privref.reference.reals import MAX_EXPONENT

    box = exp(-10**9).enclose()
    assert box.lo == 0 and box.hi == Fraction(1, 2**MAX_EXPONENT)
    assert compare(exp(-10**9), 0)[0] is Order.GREATER  # decided through the logarithm
    assert compare(exp(-10**9), Fraction(1, 10**100))[0] is Order.LESS


def test_huge_upper_bounds_are_refused_and_compare_uses_logs() -> None:
    from privref.reference.errors import TooLargeToEnumerate
    from privref.reference.reals import MAX_EXPONENT

    with pytest.raises(TooLargeToEnumerate, match=rf"exceeds 2\^{MAX_EXPONENT}"):
        exp(10**9).enclose()
    with pytest.raises(TooLargeToEnumerate, match=rf"exceeds 2\^{MAX_EXPONENT}"):
        exp(Fraction(10**400)).enclose()
    assert compare(exp(10**9), 5)[0] is Order.GREATER
    assert compare(exp(10**9), exp(10**9 + 1))[0] is Order.LESS
    assert compare(exp(10**9) * 3, exp(10**9))[0] is Order.GREATER
    assert compare(sqrt(exp(10**9)), exp(10**8))[0] is Order.GREATER
    assert compare(-exp(10**9), 0)[0] is Order.LESS
    assert compare(-exp(10**9), -exp(10**9 + 1))[0] is Order.GREATER
    assert compare(exp(10**9) + exp(10**9), exp(10**9))[0] is Order.UNDECIDED  # sound, not guessed


def test_the_cap_is_exact_below_it() -> None:
    """Values inside 2^±16384 keep their ordinary tight enclosures."""
    box = exp(1000).enclose()
    assert box.lo < box.hi and box.width < box.lo / 2**90


def test_exp_of_a_huge_multiple_of_a_log_stays_symbolic() -> None:
    """exp(10^9·ln 3) is not expanded to 3^(10^9) (1.6·10^9 bits); small multiples still are."""
    from privref.reference.reals import log

    assert exp(log(3) * 4).value == 81
    huge = exp(log(3) * 10**9)
    assert huge.value is None
    assert compare(huge, 5)[0] is Order.GREATER
    assert compare(exp(log(Fraction(1, 3)) * 10**9), Fraction(1, 10**100))[0] is Order.LESS


def test_sqrt_refines_an_argument_whose_enclosure_straddles_zero() -> None:
    """√(ln(1 + 10⁻⁶⁰)) is about 10⁻³⁰: at 64 bits its argument's enclosure straddles 0, so
    sqrt re-encloses it with more bits instead of refusing a valid argument."""
    root = sqrt(log(1 + Fraction(1, 10**60)))
    box = root.enclose(64)
    assert Fraction(99, 10**32) <= box.lo <= box.hi <= Fraction(101, 10**32)


def test_sqrt_of_an_unresolvable_zero_is_refused_naming_the_bits() -> None:
    """ln 2 − ln 2 is 0, but no enclosure proves it non-negative: after _SQRT_PRECISION bits the
    argument is refused with an InvalidArgument, never a wrong root or a hang."""
    with pytest.raises(InvalidArgument, match=r"sqrt of a number not proved non-negative at \d+ bits"):
        sqrt(log(2) - log(2)).enclose(64)


def test_an_exact_factor_one_returns_the_other_factor() -> None:
    box = exp(rational(1)).enclose(200)
    assert prob_mul(Fraction(1), box) is box          # no re-rounding: it already encloses 1·box
    half = Interval(Fraction(1, 2), Fraction(1, 2))
    assert prob_mul(Fraction(1, 2), box, 96) == (half * box).rounded(96)
