"""The one decision vocabulary (privref.reference.decide): proved answers only, UNDECIDED otherwise.

Exact expectations: each relation is checked on operands whose order is known exactly (rationals,
and Reals such as ln 2 and √2 whose order to a rational is a classical fact), and on operands that
no precision can separate (an Interval straddling the other operand, or √2·√2 against 2, an integer
not known to be rational), which must stay UNDECIDED and never read as yes or no.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.reference.decide import (
    all_hold,
    at_least,
    at_most,
    ceil,
    equal,
    floor,
    greater_than,
    less_than,
    proved_le,
    proved_lt,
    within,
)
from privref.reference.errors import InvalidArgument, Undecided
from privref.reference.reals import Interval, exp, log, rational, sqrt
from privref.reference.verdict import Verdict

H, V, U = Verdict.HOLDS, Verdict.VIOLATED, Verdict.UNDECIDED
LN2 = log(2)  # 0.6931...
TWO_BY_ROOTS = sqrt(2) * sqrt(2)  # exactly 2, not known to be rational: no enclosure decides it


@pytest.mark.parametrize(("a", "b", "le", "lt", "ge", "gt", "eq"), [
    (1, 2, H, H, V, V, V),
    (2, 2, H, V, H, V, H),
    (Fraction(3, 2), 1, V, V, H, H, V),
    (LN2, Fraction(7, 10), H, H, V, V, V),
    (LN2, Fraction(69, 100), V, V, H, H, V),
    (exp(log(3)), 3, H, V, H, V, H),
    (Interval(Fraction(1), Fraction(2)), 3, H, H, V, V, V),
    (Interval(Fraction(1), Fraction(2)), Fraction(3, 2), U, U, U, U, U),
    (Interval(Fraction(1), Fraction(2)), LN2, V, V, H, H, V),
    (Interval(Fraction(1, 2), Fraction(7, 10)), LN2, U, U, U, U, U),
    (TWO_BY_ROOTS, 2, U, U, U, U, U),
    # An enclosure that touches b at one end proves the non-strict relation only.
    (Interval(Fraction(1), Fraction(2)), 2, H, U, U, V, U),
    (Interval(Fraction(2), Fraction(3)), 2, U, V, H, U, U),
    (Interval.point(Fraction(2)), 2, H, V, H, V, H),
    (Interval(Fraction(1), Fraction(2)), Interval(Fraction(2), Fraction(3)), H, U, U, V, U),
])
def test_relations_are_proved_or_undecided(a: object, b: object, le: Verdict, lt: Verdict,
                                           ge: Verdict, gt: Verdict, eq: Verdict) -> None:
    assert (at_most(a, b), less_than(a, b), at_least(a, b), greater_than(a, b),  # type: ignore[arg-type]
            equal(a, b)) == (le, lt, ge, gt, eq)  # type: ignore[arg-type]


def test_bools_raise_when_undecided() -> None:
    assert proved_le(LN2, 1) is True and proved_le(1, LN2) is False
    assert proved_lt(2, 2) is False and proved_lt(1, 2) is True
    with pytest.raises(Undecided, match="cannot decide"):
        proved_le(TWO_BY_ROOTS, 2)
    with pytest.raises(Undecided):
        proved_lt(Interval(Fraction(0), Fraction(1)), Fraction(1, 2))


@pytest.mark.parametrize(("x", "fl", "ce"), [
    (Fraction(7, 2), 3, 4), (Fraction(-7, 2), -4, -3), (5, 5, 5), (rational(Fraction(9, 4)), 2, 3),
    (log(1000), 6, 7), (-log(1000), -7, -6), (sqrt(16), 4, 4), (exp(log(5)), 5, 5),
])
def test_floor_and_ceil_are_exact(x: object, fl: int, ce: int) -> None:
    assert floor(x) == fl and ceil(x) == ce  # type: ignore[arg-type]


def test_floor_of_an_integer_not_known_rational_is_undecided() -> None:
    with pytest.raises(Undecided):
        floor(TWO_BY_ROOTS, max_precision=256)
    with pytest.raises(Undecided):
        ceil(TWO_BY_ROOTS, max_precision=256)


def test_conjunction() -> None:
    assert all_hold([H, H]) is H
    assert all_hold([H, U]) is U
    assert all_hold([U, V, H]) is V
    with pytest.raises(InvalidArgument, match="verdicts"):
        all_hold([])


@pytest.mark.parametrize("bad", [True, 1.5, "1", None])
def test_operands_must_be_exact(bad: object) -> None:
    with pytest.raises(InvalidArgument, match="a="):
        at_most(bad, 1)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="x="):
        floor(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("x", "lo", "hi", "expected"), [
    (Fraction(1, 2), 0, 1, H),
    (0, 0, 1, H),
    (2, 0, 1, V),
    (LN2, Fraction(69, 100), Fraction(7, 10), H),
    (LN2, Fraction(7, 10), 1, V),
    (Interval(Fraction(1, 2), Fraction(3, 2)), 0, 1, U),
    (TWO_BY_ROOTS, 1, 2, U),
    (TWO_BY_ROOTS, 1, 3, H),
])
def test_within_is_the_conjunction_of_both_ends(x: object, lo: object, hi: object,
                                                expected: Verdict) -> None:
    assert within(x, lo, hi) is expected  # type: ignore[arg-type]
