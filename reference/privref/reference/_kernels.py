"""Integer kernels of the exact core, with machine-checked contracts.

Each function here is what the core actually calls (rounding, categorical
selection, normalization), written over plain ints so that CrossHair can
explore it symbolically.  Contracts use PEP 316 docstring syntax and are
checked in CI by ``crosshair check --analysis_kind=PEP316 privref.reference._kernels``
(tests/test_static_checks.py).
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["bucket", "dyadic_box", "dyadic_floor", "normalized", "to_units"]


def dyadic_floor(num: int, den: int, prec: int) -> tuple[int, int]:
    """The largest m·2^-e <= num/den where m has about ``prec`` significant bits.

    Returns (m, e).  Used by reference.reals to round interval endpoints outward.

    pre: den >= 1 and 1 <= prec <= 64
    post: (__return__[0] * den << max(0, -__return__[1])) <= (num << max(0, __return__[1]))
    """
    shift = prec - (abs(num).bit_length() - den.bit_length())
    scaled = (num << shift) // den if shift >= 0 else num // (den << -shift)
    return scaled, shift


def bucket(weights: list[int], u: int) -> int:
    """The index i with Σ_{j<i} w_j <= u < Σ_{j<=i} w_j (inverse-CDF selection on integers).

    With u uniform on [0, Σ w), index i is returned with probability w_i / Σ w.

    pre: all(w >= 0 for w in weights) and 0 <= u < sum(weights)
    post: sum(weights[:__return__]) <= u < sum(weights[:__return__ + 1])
    post: weights[__return__] > 0
    """
    acc = 0
    for i, w in enumerate(weights):
        acc += w
        if u < acc:
            return i
    raise AssertionError("unreachable: u < sum(weights)")


def normalized(weights: list[int]) -> list[Fraction]:
    """Exact shares w_i / Σ w: probabilities that sum to exactly 1.

    pre: all(w >= 0 for w in weights) and sum(weights) > 0
    post: sum(__return__) == 1
    post: all(0 <= p <= 1 for p in __return__)
    """
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


def dyadic_box(num: int, den: int, prec: int) -> tuple[int, int, int]:
    """(lo, hi, s) with lo·2^-s <= num/den <= hi·2^-s, hi − lo <= 1, about ``prec`` bits.

    One division whose quotient has about ``prec`` bits (linear in the size of
    num/den).  Used by reference._sampling to draw from huge rational weights.

    pre: num >= 0 and den >= 1 and prec >= 1
    post: (__return__[0] * den << max(0, -__return__[2])) <= (num << max(0, __return__[2]))
    post: (num << max(0, __return__[2])) <= (__return__[1] * den << max(0, -__return__[2]))
    post: 0 <= __return__[1] - __return__[0] <= 1
    """
    if num == 0:
        return 0, 0, 0
    s = prec - (num.bit_length() - den.bit_length())
    m, r = divmod(num << s, den) if s >= 0 else divmod(num, den << -s)
    return m, m + (r != 0), s


def to_units(value: int, s: int, unit: int, up: bool) -> int:
    """value·2^-s in units of 2^-unit, rounded down (``up`` false) or up.

    pre: value >= 0
    post: up or (__return__ << max(0, s - unit)) <= (value << max(0, unit - s))
    post: up or (value << max(0, unit - s)) < ((__return__ + 1) << max(0, s - unit))
    post: not up or ((__return__ - 1) << max(0, s - unit)) < (value << max(0, unit - s))
    post: not up or (value << max(0, unit - s)) <= (__return__ << max(0, s - unit))
    """
    if unit >= s:
        return value << (unit - s)
    shift = s - unit
    return -((-value) >> shift) if up else value >> shift
