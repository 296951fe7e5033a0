"""Integer kernels of the exact core, with machine-checked contracts.

Each function here is what the core actually calls (rounding, categorical
selection, normalization), written over plain ints so that CrossHair can
explore it symbolically.  Contracts use PEP 316 docstring syntax and are
checked in CI by ``crosshair check --analysis_kind=PEP316 reference/_kernels.py``.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["bucket", "dyadic_floor", "normalized"]


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
