"""The one decision vocabulary: three-valued comparisons of exact reals, and exact rounding.

Every decision that rests on a number goes through this module, so an undecided comparison can
never be read as yes or no:

* :func:`at_most`, :func:`less_than`, :func:`at_least`, :func:`greater_than` and :func:`equal`
  return a :class:`~privref.reference.verdict.Verdict` for the stated relation: HOLDS when exact
  or interval arithmetic proves it, VIOLATED when it proves the opposite, UNDECIDED otherwise;
* :func:`proved_le` and :func:`proved_lt` return a bool, True or False only when proved, and
  raise :class:`~privref.reference.errors.Undecided` otherwise (for code that must branch);
* :func:`floor` and :func:`ceil` are the exact integer roundings of a real (``Undecided`` when
  the real is an integer that is not known to be rational);
* :func:`within` is ``lo <= x <= hi``; :func:`all_hold` is the conjunction of verdicts (VIOLATED
  beats UNDECIDED beats HOLDS).

Operands are exact: ``int``, ``Fraction``, :class:`~privref.reference.reals.Real`, or an
:class:`~privref.reference.reals.Interval` enclosing an unknown value (its ends are exact).
Reals are enclosed at rising precision up to :data:`~privref.reference.reals.MAX_PRECISION`
bits; an Interval is used as given (more precision cannot narrow it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import TypeAlias

from .errors import InvalidArgument, Undecided
from .reals import DEFAULT_PRECISION, MAX_PRECISION, Interval, Real
from .verdict import Verdict

__all__ = [
    "Exact",
    "all_hold",
    "at_least",
    "at_most",
    "ceil",
    "equal",
    "floor",
    "greater_than",
    "less_than",
    "proved_le",
    "proved_lt",
    "within",
]

Exact: TypeAlias = Real | Fraction | int
"""A number known exactly: an integer, a rational, or an exact real expression."""

_Operand: TypeAlias = Real | Fraction | int | Interval


_Relation: TypeAlias = Callable[[Interval, Interval], Verdict | None]
"""Decides a relation from two enclosures: HOLDS/VIOLATED when they prove it, else None."""


def _check(x: _Operand, name: str) -> None:
    if isinstance(x, bool) or not isinstance(x, Real | Fraction | int | Interval):
        raise InvalidArgument(f"{name}={x!r} must be an int, Fraction, Real or Interval")


def _decide(a: _Operand, b: _Operand, relation: _Relation) -> Verdict:
    """Refine enclosures of a and b until ``relation`` decides, up to MAX_PRECISION bits."""
    _check(a, "a")
    _check(b, "b")
    prec = DEFAULT_PRECISION
    while True:
        found = relation(_box(a, prec), _box(b, prec))
        if found is not None:
            return found
        if prec >= MAX_PRECISION or (_fixed(a) and _fixed(b)):
            return Verdict.UNDECIDED
        prec *= 2


def _fixed(x: _Operand) -> bool:
    """True when more precision cannot narrow x's enclosure (an Interval, or an exact rational)."""
    return not isinstance(x, Real) or x.exact is not None


def _box(x: _Operand, prec: int) -> Interval:
    """An enclosure of x: x itself for an Interval, a point for a rational, else at ``prec`` bits."""
    if isinstance(x, Interval):
        return x
    if isinstance(x, Real):
        exact = x.exact
        return Interval.point(exact) if exact is not None else x.enclose(prec)
    return Interval.point(Fraction(x))


# Each relation reads only the ends of two enclosures A ∋ a and B ∋ b (exact rationals):
# a <= b is proved when every point of A is <= every point of B, refuted when every point of A
# is > every point of B; the others are alike.  Nothing else can be concluded from A and B.
def _le(x: Interval, y: Interval) -> Verdict | None:
    if x.hi <= y.lo:
        return Verdict.HOLDS
    return Verdict.VIOLATED if x.lo > y.hi else None


def _lt(x: Interval, y: Interval) -> Verdict | None:
    if x.hi < y.lo:
        return Verdict.HOLDS
    return Verdict.VIOLATED if x.lo >= y.hi else None


def _eq(x: Interval, y: Interval) -> Verdict | None:
    if x.is_point and y.is_point:
        return Verdict.HOLDS if x.lo == y.lo else Verdict.VIOLATED
    return Verdict.VIOLATED if x.hi < y.lo or y.hi < x.lo else None


def at_most(a: _Operand, b: _Operand) -> Verdict:
    """``a <= b``: HOLDS or VIOLATED only when proved, UNDECIDED otherwise."""
    return _decide(a, b, _le)


def less_than(a: _Operand, b: _Operand) -> Verdict:
    """``a < b``: HOLDS or VIOLATED only when proved, UNDECIDED otherwise."""
    return _decide(a, b, _lt)


def at_least(a: _Operand, b: _Operand) -> Verdict:
    """``a >= b``: HOLDS or VIOLATED only when proved, UNDECIDED otherwise."""
    return _decide(b, a, _le)


def greater_than(a: _Operand, b: _Operand) -> Verdict:
    """``a > b``: HOLDS or VIOLATED only when proved, UNDECIDED otherwise."""
    return _decide(b, a, _lt)


def equal(a: _Operand, b: _Operand) -> Verdict:
    """``a == b``: HOLDS only for the same exact value, VIOLATED when proved different.

    An Interval operand is an enclosure of an unknown value, so it can prove ``a == b`` only when
    it is a single point.
    """
    return _decide(a, b, _eq)


def within(x: _Operand, lo: _Operand, hi: _Operand) -> Verdict:
    """``lo <= x <= hi``: the conjunction of ``at_least(x, lo)`` and ``at_most(x, hi)``."""
    return all_hold((at_least(x, lo), at_most(x, hi)))


def _proved(verdict: Verdict, a: _Operand, b: _Operand, relation: str) -> bool:
    if verdict is Verdict.UNDECIDED:
        raise Undecided(f"cannot decide {a} {relation} {b} by interval arithmetic")
    return verdict is Verdict.HOLDS


def proved_le(a: _Operand, b: _Operand) -> bool:
    """``a <= b`` as a bool: True or False when proved; raises Undecided otherwise."""
    return _proved(at_most(a, b), a, b, "<=")


def proved_lt(a: _Operand, b: _Operand) -> bool:
    """``a < b`` as a bool: True or False when proved; raises Undecided otherwise."""
    return _proved(less_than(a, b), a, b, "<")


def floor(x: Exact, *, max_precision: int = 1 << 16) -> int:
    """⌊x⌋ exactly: from the rational value when known, else from enclosures of rising precision.

    Raises Undecided when the enclosure still holds an integer at ``max_precision`` bits (only
    possible when x is an integer not known to be rational).
    """
    if isinstance(x, bool) or not isinstance(x, Real | Fraction | int):
        raise InvalidArgument(f"x={x!r} must be an int, Fraction or Real")
    if not isinstance(x, Real):
        return math.floor(x)
    if x.exact is not None:
        return math.floor(x.exact)
    prec = 64
    while True:
        box = x.enclose(prec)
        low = math.floor(box.lo)
        if box.hi < low + 1:  # x ∈ [box.lo, box.hi] ⊂ [low, low + 1)
            return low
        if prec >= max_precision:
            raise Undecided(f"cannot decide the floor of {x} at {prec} bits")
        prec *= 2


def ceil(x: Exact, *, max_precision: int = 1 << 16) -> int:
    """⌈x⌉ exactly (``-floor(-x)``); raises Undecided as :func:`floor` does."""
    if isinstance(x, bool) or not isinstance(x, Real | Fraction | int):
        raise InvalidArgument(f"x={x!r} must be an int, Fraction or Real")
    return -floor(-x, max_precision=max_precision)


def all_hold(verdicts: Iterable[Verdict]) -> Verdict:
    """The conjunction: VIOLATED if any is, else UNDECIDED if any is, else HOLDS.

    An empty iterable is refused (a conjunction of nothing checks nothing).
    """
    seen = list(verdicts)
    if not seen:
        raise InvalidArgument("verdicts=() must hold at least one verdict")
    if Verdict.VIOLATED in seen:
        return Verdict.VIOLATED
    if Verdict.UNDECIDED in seen:
        return Verdict.UNDECIDED
    return Verdict.HOLDS
