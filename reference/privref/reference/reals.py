"""Exact rationals, rigorous intervals, and lazily refinable real numbers.

privref never lets a float decide anything.  Numbers come in three forms:

* ``Fraction``: exact rationals, used wherever the mathematics is rational;
* :class:`Interval`: a closed interval with exact rational endpoints that is
  guaranteed to contain the true value (outward rounding only);
* :class:`Real`: an exact real given by an expression (``exp``, ``log``,
  ``sqrt``, field operations over rationals).  It is refinable: ``enclose(prec)``
  returns an Interval whose width shrinks as ``prec`` grows, and it knows its
  exact rational value when it has one (``exp(log(3))`` is exactly 3).

Comparisons that decide verdicts go through :func:`compare`, which is
three-valued: it returns the proved ordering or :data:`UNDECIDED`.

Magnitudes are bounded: enclosures keep their endpoints within 2^±:data:`MAX_EXPONENT`
(see :mod:`privref.reference._mp`), widening outward where that stays sound and raising
TooLargeToEnumerate where an endpoint would need astronomically many bits (an upper bound on
``exp(10**9)``).  :func:`compare` then compares positive numbers through their logarithms
(``exp(10**9) > 5`` because ``10**9 > ln 5``), so huge values still get proved answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Final

from . import _kernels, _mp
from ._mp import MAX_EXPONENT
from .errors import InvalidArgument, TooLargeToEnumerate

__all__ = [
    "DEFAULT_PRECISION",
    "MAX_EXPONENT",
    "MAX_PRECISION",
    "Interval",
    "Order",
    "Prob",
    "Real",
    "compare",
    "exp",
    "exp_form",
    "interval_exp",
    "interval_log",
    "interval_sqrt",
    "log",
    "prob_add",
    "prob_as_interval",
    "prob_mul",
    "prob_sub",
    "rational",
    "sqrt",
]

DEFAULT_PRECISION: Final = 96
"""Bits of working precision used for the first enclosure of irrational values."""

MAX_PRECISION: Final = 1536
"""Largest precision :func:`compare` refines to before answering UNDECIDED."""


def _floor_dyadic(x: Fraction, prec: int) -> Fraction:
    """Largest number <= x with at most ``prec`` significant bits (exact when x already is)."""
    if x == 0:
        return x
    scaled, shift = _kernels.dyadic_floor(x.numerator, x.denominator, prec)
    result = Fraction(scaled, 1 << shift) if shift >= 0 else Fraction(scaled << -shift)
    return result if result <= x else x


def _ceil_dyadic(x: Fraction, prec: int) -> Fraction:
    return -_floor_dyadic(-x, prec)


@dataclass(frozen=True, slots=True)
class Interval:
    """A closed interval [lo, hi] with exact rational endpoints, lo <= hi.

    Guarantee: every operation returns an interval containing every value the
    exact operation can take on points of its operands (inclusion isotonicity).
    """

    lo: Fraction
    hi: Fraction

    def __post_init__(self) -> None:
        if self.lo > self.hi:
            raise InvalidArgument(f"Interval lo={self.lo} must be <= hi={self.hi}")

    @staticmethod
    def point(x: Fraction | int) -> Interval:
        """The degenerate interval [x, x]."""
        q = Fraction(x)
        return Interval(q, q)

    @property
    def width(self) -> Fraction:
        """hi - lo."""
        return self.hi - self.lo

    @property
    def is_point(self) -> bool:
        """True when the interval holds exactly one number."""
        return self.lo == self.hi

    def rounded(self, prec: int) -> Interval:
        """Round the endpoints outward to ``prec`` significant bits (keeps sizes bounded)."""
        return Interval(_floor_dyadic(self.lo, prec), _ceil_dyadic(self.hi, prec))

    def __add__(self, other: Interval | Fraction | int) -> Interval:
        o = _as_interval(other)
        return Interval(self.lo + o.lo, self.hi + o.hi)

    __radd__ = __add__

    def __neg__(self) -> Interval:
        return Interval(-self.hi, -self.lo)

    def __sub__(self, other: Interval | Fraction | int) -> Interval:
        o = _as_interval(other)
        return Interval(self.lo - o.hi, self.hi - o.lo)

    def __rsub__(self, other: Interval | Fraction | int) -> Interval:
        return _as_interval(other) - self

    def __mul__(self, other: Interval | Fraction | int) -> Interval:
        o = _as_interval(other)
        products = (self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi)
        return Interval(min(products), max(products))

    __rmul__ = __mul__

    def __truediv__(self, other: Interval | Fraction | int) -> Interval:
        o = _as_interval(other)
        if o.lo <= 0 <= o.hi:
            raise ZeroDivisionError(f"interval division by {o}, which contains 0")
        return self * Interval(1 / o.hi, 1 / o.lo)

    def __rtruediv__(self, other: Interval | Fraction | int) -> Interval:
        return _as_interval(other) / self

    def clamp_low(self, floor: Fraction) -> Interval:
        """max(floor, x) applied pointwise."""
        return Interval(max(self.lo, floor), max(self.hi, floor))

    def hull(self, other: Interval) -> Interval:
        """Smallest interval containing both."""
        return Interval(min(self.lo, other.lo), max(self.hi, other.hi))

    def __str__(self) -> str:
        return f"[{_mp._short(self.lo)}, {_mp._short(self.hi)}]"


def _as_interval(x: Interval | Fraction | int) -> Interval:
    return x if isinstance(x, Interval) else Interval.point(Fraction(x))


Prob = Fraction | Interval
"""A probability: exact rational, or a rigorous enclosure."""


def prob_as_interval(p: Prob) -> Interval:
    """View a probability as an interval (a point interval for an exact value)."""
    return p if isinstance(p, Interval) else Interval.point(p)


def prob_add(a: Prob, b: Prob) -> Prob:
    """Sum, exact when both are exact."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a + b
    return prob_as_interval(a) + prob_as_interval(b)


def prob_sub(a: Prob, b: Prob) -> Prob:
    """Difference, exact when both are exact."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a - b
    return prob_as_interval(a) - prob_as_interval(b)


def prob_mul(a: Prob, b: Prob, prec: int = DEFAULT_PRECISION) -> Prob:
    """Product, exact when both are exact; otherwise an enclosure rounded outward to ``prec``
    (an exact factor 1 returns the other factor as it is: it already encloses the product)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a * b
    if isinstance(a, Fraction) and a == 1:
        return b
    return (prob_as_interval(a) * prob_as_interval(b)).rounded(prec)


# ---------------------------------------------------------------- exact reals


_SQRT_PRECISION: Final = 4096
"""Bits up to which sqrt re-encloses an argument whose enclosure straddles 0 before refusing it
(√(ρ ln(1/δ)) for δ within 10⁻⁶⁰ of 1 needs about 200)."""


@dataclass(frozen=True, slots=True, eq=False)
class Real:
    """An exact real number given by an expression over rationals.

    ``op`` is one of ``const, add, mul, neg, inv, exp, log, sqrt``.  Build Reals
    with :func:`rational`, :func:`exp`, :func:`log`, :func:`sqrt` and the
    arithmetic operators; they simplify whenever the value stays rational.
    Guarantee: ``enclose(prec)`` contains the true value, and its width tends
    to 0 as ``prec`` grows.
    """

    op: str
    args: tuple[Real, ...] = ()
    value: Fraction | None = None
    _cache: dict[int, Interval] = field(default_factory=dict, compare=False, repr=False)

    @property
    def exact(self) -> Fraction | None:
        """The exact rational value, or None when the number is not known to be rational."""
        return self.value

    def enclose(self, prec: int = DEFAULT_PRECISION) -> Interval:
        """An interval containing the value, computed at ``prec`` bits."""
        if self.value is not None:
            return Interval.point(self.value)
        cached = self._cache.get(prec)
        if cached is not None:
            return cached
        result = self._compute(prec)
        self._cache[prec] = result
        return result

    def _compute(self, prec: int) -> Interval:
        inner = prec + 16
        match self.op:
            case "add":
                return (self.args[0].enclose(inner) + self.args[1].enclose(inner)).rounded(prec)
            case "mul":
                return (self.args[0].enclose(inner) * self.args[1].enclose(inner)).rounded(prec)
            case "neg":
                return -self.args[0].enclose(prec)
            case "inv":
                box = self.args[0].enclose(inner)
                if box.lo <= 0 <= box.hi and box.lo >= -_mp.TINY and box.hi <= _mp.TINY:
                    raise TooLargeToEnumerate(
                        f"1/x with |x| <= 2^-{MAX_EXPONENT} exceeds 2^{MAX_EXPONENT} in "
                        "magnitude; privref does not enclose numbers that large")
                return (Fraction(1) / box).rounded(prec)
            case "exp" | "log" | "sqrt":
                x = self.args[0].enclose(inner)
                if self.op == "log" and x.lo <= 0:
                    x = self.args[0].enclose(inner * 4)
                    if x.lo == 0 and 0 < x.hi <= _mp.TINY:
                        raise TooLargeToEnumerate(
                            f"log(x) with 0 < x <= 2^-{MAX_EXPONENT}: x is too small to "
                            "enclose its logarithm")
                    if x.lo <= 0:
                        raise InvalidArgument(f"log of a number not proved positive: {x}")
                work = inner
                while self.op == "sqrt" and x.lo < 0 < x.hi and work < _SQRT_PRECISION:
                    work *= 4  # a tiny positive argument (ln(1/δ) for δ near 1) needs bits
                    x = self.args[0].enclose(work)
                if self.op == "sqrt" and x.lo < 0:
                    raise InvalidArgument(f"sqrt of a number not proved non-negative at "
                                          f"{work} bits: {x}")
                lo, hi = _mp.apply(self.op, x.lo, x.hi, prec)
                return Interval(lo, hi)
        raise AssertionError(f"unknown Real op {self.op}")

    def __float__(self) -> float:
        """Nearest float to the midpoint of a tight enclosure (display only, never decisions)."""
        if self.value is not None:
            return float(self.value)
        box = self.enclose(DEFAULT_PRECISION)
        return float((box.lo + box.hi) / 2)

    # arithmetic ---------------------------------------------------------
    def __add__(self, other: Real | Fraction | int) -> Real:
        o = _as_real(other)
        if self.value is not None and o.value is not None:
            return rational(self.value + o.value)
        if o.value == 0:
            return self
        if self.value == 0:
            return o
        return Real("add", (self, o))

    __radd__ = __add__

    def __neg__(self) -> Real:
        if self.value is not None:
            return rational(-self.value)
        if self.op == "neg":
            return self.args[0]
        return Real("neg", (self,))

    def __sub__(self, other: Real | Fraction | int) -> Real:
        return self + (-_as_real(other))

    def __rsub__(self, other: Real | Fraction | int) -> Real:
        return _as_real(other) + (-self)

    def __mul__(self, other: Real | Fraction | int) -> Real:
        o = _as_real(other)
        if self.value is not None and o.value is not None:
            return rational(self.value * o.value)
        if o.value == 1:
            return self
        if self.value == 1:
            return o
        if o.value == 0 or self.value == 0:
            return rational(0)
        if self.value is not None:  # keep the constant factor second
            return o * self
        if o.value is not None and self.op == "mul" and self.args[1].value is not None:
            return self.args[0] * (self.args[1].value * o.value)
        if o.value is not None and self.op == "neg":
            return self.args[0] * (-o.value)
        return Real("mul", (self, o))

    __rmul__ = __mul__

    def reciprocal(self) -> Real:
        """1/x; raises ZeroDivisionError for an exact zero."""
        if self.value is not None:
            return rational(1 / self.value)
        if self.op == "inv":
            return self.args[0]
        if self.op == "exp":
            return exp(-self.args[0])
        return Real("inv", (self,))

    def __truediv__(self, other: Real | Fraction | int) -> Real:
        return self * _as_real(other).reciprocal()

    def __rtruediv__(self, other: Real | Fraction | int) -> Real:
        return _as_real(other) * self.reciprocal()

    def __pow__(self, k: int) -> Real:
        if self.value is not None:
            return rational(self.value**k)
        if self.op == "exp":
            return exp(self.args[0] * k)
        if k == 0:
            return rational(1)
        if k < 0:
            return (self ** (-k)).reciprocal()
        result = self
        for _ in range(k - 1):
            result = result * self
        return result

    def __str__(self) -> str:
        if self.value is not None:
            return str(self.value)
        match self.op:
            case "add":
                return f"({self.args[0]} + {self.args[1]})"
            case "mul":
                return f"{self.args[0]}*{self.args[1]}"
            case "neg":
                return f"-{self.args[0]}"
            case "inv":
                return f"1/{self.args[0]}"
            case _:
                return f"{self.op}({self.args[0]})"

    __repr__ = __str__


def _as_real(x: Real | Fraction | int) -> Real:
    return x if isinstance(x, Real) else rational(x)


def rational(x: Fraction | int) -> Real:
    """The exact real with rational value ``x``."""
    return Real("const", (), Fraction(x))


def _power_fits(base: Real, k: int) -> bool:
    """Whether r**k for a rational r stays within MAX_EXPONENT bits (so it may be formed exactly)."""
    if base.value is None:
        return abs(k) <= 64
    size = max(base.value.numerator.bit_length(), base.value.denominator.bit_length())
    return abs(k) * size <= MAX_EXPONENT


def exp(x: Real | Fraction | int) -> Real:
    """e**x, simplified to a rational when x = log(r) or x = 0.

    exp(k·log(r)) becomes r**k only while that rational has at most MAX_EXPONENT bits; beyond,
    it stays symbolic (its enclosure is then capped, and compare() decides through logarithms),
    so a claim like ε = 10^9·ln 3 never forms 3^(10^9).
    """
    r = _as_real(x)
    if r.value == 0:
        return rational(1)
    if r.op == "log":
        return r.args[0]
    if r.op == "mul":
        for a, b in (r.args, r.args[::-1]):
            if (a.op == "log" and b.value is not None and b.value.denominator == 1
                    and _power_fits(a.args[0], int(b.value))):
                return a.args[0] ** int(b.value)
    if r.op == "add":
        ea, eb = exp(r.args[0]), exp(r.args[1])
        if ea.op != "exp" or eb.op != "exp":
            return ea * eb
    if r.op == "neg":
        inner = exp(r.args[0])
        if inner.op != "exp":
            return inner.reciprocal()
    return Real("exp", (r,))


def log(x: Real | Fraction | int) -> Real:
    """Natural logarithm of a positive number, simplified when x = exp(y) or x = 1."""
    r = _as_real(x)
    if r.value is not None and r.value <= 0:
        raise InvalidArgument(f"log argument {r.value} must be > 0")
    if r.value == 1:
        return rational(0)
    if r.op == "exp":
        return r.args[0]
    return Real("log", (r,))


def sqrt(x: Real | Fraction | int) -> Real:
    """Square root, exact when x is the square of a rational."""
    r = _as_real(x)
    if r.value is not None:
        if r.value < 0:
            raise InvalidArgument(f"sqrt argument {r.value} must be >= 0")
        n, d = r.value.numerator, r.value.denominator
        rn, rd = math.isqrt(n), math.isqrt(d)
        if rn * rn == n and rd * rd == d:
            return rational(Fraction(rn, rd))
    return Real("sqrt", (r,))


def exp_form(t: Real | Fraction) -> tuple[Fraction, Fraction] | None:
    """(c, x) with t = c·e^x exactly, c and x rational (e.g. a claim's e^ε); None for another form.

    Sums Σ c_i·e^{x_i} over distinct rationals x_i vanish only when every c_i does
    (Lindemann–Weierstrass), so this form lets callers prove exact zeros no ball can.
    """
    if isinstance(t, Fraction):
        return t, Fraction(0)
    if t.exact is not None:
        return t.exact, Fraction(0)
    if t.op == "exp" and t.args[0].exact is not None:
        return Fraction(1), t.args[0].exact
    if t.op == "mul" and t.args[1].exact is not None and t.args[0].op == "exp":
        inner = t.args[0].args[0].exact
        if inner is not None:
            return t.args[1].exact, inner
    return None


class Order(Enum):
    """Result of a three-valued comparison."""

    LESS = "<"
    EQUAL = "="
    GREATER = ">"
    UNDECIDED = "?"


def compare(a: Real | Fraction | int, b: Real | Fraction | int, *,
            max_precision: int = MAX_PRECISION) -> tuple[Order, Fraction]:
    """Compare two exact reals soundly.

    Returns (order, width): ``order`` is proved (LESS, EQUAL, GREATER) or
    UNDECIDED; ``width`` is the width of the final enclosure of a - b (0 when
    decided exactly).  EQUAL is only returned when both values are exact
    rationals or the same expression; otherwise precision doubles until the
    enclosures separate or ``max_precision`` is reached.
    """
    ra, rb = _as_real(a), _as_real(b)
    if ra.value is not None and rb.value is not None:
        if ra.value < rb.value:
            return Order.LESS, Fraction(0)
        if ra.value > rb.value:
            return Order.GREATER, Fraction(0)
        return Order.EQUAL, Fraction(0)
    if ra is rb:
        return Order.EQUAL, Fraction(0)
    prec = DEFAULT_PRECISION
    tried_logs = False
    while True:
        try:
            box_a, box_b = ra.enclose(prec), rb.enclose(prec)
        except TooLargeToEnumerate:
            return _compare_huge(ra, rb, max_precision)
        diff = box_a - box_b
        if diff.hi < 0:
            return Order.LESS, Fraction(0)
        if diff.lo > 0:
            return Order.GREATER, Fraction(0)
        if not tried_logs and (_capped(box_a) or _capped(box_b)):
            # an endpoint was widened at 2^±MAX_EXPONENT: more precision cannot help, logs can
            tried_logs = True
            order, _ = _compare_huge(ra, rb, max_precision)
            if order is not Order.UNDECIDED:
                return order, Fraction(0)
        if prec >= max_precision:
            return Order.UNDECIDED, diff.width
        prec *= 2


def _capped(box: Interval) -> bool:
    """True when an endpoint sits on a magnitude cap of :mod:`privref.reference._mp`."""
    return any(abs(x) in (_mp.TINY, _mp.HUGE) for x in (box.lo, box.hi))


def _log_of_positive(r: Real) -> Real | None:
    """A Real equal to log(r) when r is proved positive by its structure, else None.

    exp(x) > 0 with log x; a positive rational; products, reciprocals and square roots of
    proved-positive numbers.  Never encloses anything (so it works for huge magnitudes).
    """
    if r.value is not None:
        return log(r) if r.value > 0 else None
    match r.op:
        case "exp":
            return r.args[0]
        case "mul":
            la, lb = _log_of_positive(r.args[0]), _log_of_positive(r.args[1])
            return None if la is None or lb is None else la + lb
        case "inv":
            inner = _log_of_positive(r.args[0])
            return None if inner is None else -inner
        case "sqrt":
            inner = _log_of_positive(r.args[0])
            return None if inner is None else inner * Fraction(1, 2)
    return None


def _compare_huge(a: Real, b: Real, max_precision: int) -> tuple[Order, Fraction]:
    """compare() when an enclosure would exceed 2^MAX_EXPONENT: compare logarithms.

    Sound because log is strictly increasing on positive numbers; a proved-positive number
    is greater than any rational <= 0.  Anything else is UNDECIDED (never a guess).
    """
    if a.op == "neg" and b.op == "neg":  # -x vs -y is y vs x
        return _compare_huge(b.args[0], a.args[0], max_precision)
    la, lb = _log_of_positive(a), _log_of_positive(b)
    na = a.op == "neg" and _log_of_positive(a.args[0]) is not None  # a proved negative
    nb = b.op == "neg" and _log_of_positive(b.args[0]) is not None
    if na and (lb is not None or (b.value is not None and b.value >= 0)):
        return Order.LESS, Fraction(0)
    if nb and (la is not None or (a.value is not None and a.value >= 0)):
        return Order.GREATER, Fraction(0)
    if la is not None and lb is not None:
        order, _ = compare(la, lb, max_precision=max_precision)
        return order, Fraction(0)
    if la is not None and b.value is not None and b.value <= 0:
        return Order.GREATER, Fraction(0)
    if lb is not None and a.value is not None and a.value <= 0:
        return Order.LESS, Fraction(0)
    return Order.UNDECIDED, Fraction(0)


def interval_exp(x: Interval, prec: int = DEFAULT_PRECISION) -> Interval:
    """Rigorous enclosure of exp over the interval ``x`` at ``prec`` bits."""
    lo, hi = _mp.apply("exp", x.lo, x.hi, prec)
    return Interval(lo, hi)


def interval_log(x: Interval, prec: int = DEFAULT_PRECISION) -> Interval:
    """Rigorous enclosure of log over ``x``; raises InvalidArgument unless x > 0."""
    if x.lo <= 0:
        raise InvalidArgument(f"log needs a positive interval, got {x}")
    lo, hi = _mp.apply("log", x.lo, x.hi, prec)
    return Interval(lo, hi)


def interval_sqrt(x: Interval, prec: int = DEFAULT_PRECISION) -> Interval:
    """Rigorous enclosure of sqrt over ``x``; raises InvalidArgument unless x >= 0."""
    if x.lo < 0:
        raise InvalidArgument(f"sqrt needs a non-negative interval, got {x}")
    lo, hi = _mp.apply("sqrt", x.lo, x.hi, prec)
    return Interval(lo, hi)
