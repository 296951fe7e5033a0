"""Exact one-sided Clopper–Pearson bounds, verified without trusting a float.

For X ~ Bin(n, p), the one-sided Clopper–Pearson (1950) bounds at level alpha are

* lower: p_L(k) = sup{p : P_p(X >= k) <= alpha}  (0 when k = 0; alpha^(1/n) when k = n),
* upper: p_U(k) = inf{p : P_p(X <= k) <= alpha}  (1 when k = n; 1 - alpha^(1/n) when k = 0),

and P_p(p_L(X) > p) <= alpha, P_p(p_U(X) < p) <= alpha for every p.

How a bound is produced (a float proposes, integers and intervals decide):

1. a float bisection on the binomial tail (log space, ``math.lgamma`` or a sum of logs; the
   closed forms at the edges) proposes p_L, which is moved down by the
   relative factor 1 - 2^-24 and rounded *down* to a dyadic rational L with
   64 (or 65) significant bits;
2. :func:`upper_tail_upper_bound` then proves P_L(X >= k) <= alpha: the first
   term C(n,k) L^k (1-L)^(n-k) is exact (when its numerator has at most 2^17
   bits) or enclosed through ln m! (the exact m! for m <= 4096, Robbins'
   bounds beyond) with mpmath's outward-rounded interval log/exp; the other
   terms are summed in integer fixed point rounded up, and the tail beyond
   the last summed term is bounded by a geometric series (the term ratio
   (n-j)p/((j+1)(1-p)) decreases in j);
3. if the proof fails, L is moved further down (ultimately to 0, always valid).

Since the tail is increasing in p, a proved P_L(X >= k) <= alpha gives
L <= p_L, so L is a valid (conservative) lower confidence bound.  The upper
bound is produced the same way, moved *up* and proved with
P_U(X <= k) = P_{1-U}(n - X >= n - k) <= alpha.

Rigor rests on: Robbins' inequality 1/(12m+1) < ln m! - (m ln m - m + ½ ln(2πm)) < 1/(12m)
(H. Robbins, "A remark on Stirling's formula", Amer. Math. Monthly 62 (1955) 26–29), the
decimal digits of π, and mpmath's interval ``log``/``exp`` (via :mod:`privref.reference.reals`).
Everything else is exact integer or rational arithmetic.  No special function
(betainc, beta quantiles) is trusted: mpmath's ``betainc`` neither converges
nor is fast at n ≈ 5·10^4, so it is not used at all.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

from privref.reference.errors import InvalidArgument
from privref.reference.reals import Interval, interval_exp, interval_log

__all__ = [
    "bonferroni",
    "check_alpha",
    "check_counts",
    "cp_lower",
    "cp_upper",
    "lower_tail_upper_bound",
    "tail_exact",
    "upper_tail_upper_bound",
]

_BITS = 64
"""Significant bits of a returned bound."""

_FIXED = 128
"""Fixed-point bits of the term-ratio summation."""

_PREC = 160
"""Bits of the interval enclosure of the first tail term."""

_EXACT_TERM_BITS = 1 << 17
"""Compute the first term exactly when its exact numerator has at most this many bits."""

# π to 40 decimals, cut below and above (known digits: 3.14159265358979323846264338327950288419716...)
_PI = Interval(Fraction("3.1415926535897932384626433832795028841971"),
               Fraction("3.1415926535897932384626433832795028841972"))


def check_alpha(alpha: object, name: str = "alpha") -> Fraction:
    """alpha as an exact Fraction in (0, 1); a float is taken at its exact binary value.

    Raises InvalidArgument naming ``name`` for bools, non-numbers, NaN and
    values outside (0, 1).
    """
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, Fraction)):
        raise InvalidArgument(f"{name}={alpha!r} must be a number in (0, 1)")
    if isinstance(alpha, float) and not math.isfinite(alpha):
        raise InvalidArgument(f"{name}={alpha!r} must be a finite number in (0, 1)")
    value = Fraction(alpha)
    if not 0 < value < 1:
        raise InvalidArgument(f"{name}={alpha!r} must lie in (0, 1)")
    return value


def check_counts(k: object, n: object) -> tuple[int, int]:
    """Validate a binomial count k out of n trials: ints with 0 <= k <= n and n >= 1."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise InvalidArgument(f"n={n!r} must be an int")
    if isinstance(k, bool) or not isinstance(k, int):
        raise InvalidArgument(f"k={k!r} must be an int")
    if n < 1:
        raise InvalidArgument(f"n={n} must be >= 1")
    if not 0 <= k <= n:
        raise InvalidArgument(f"k={k} must lie in [0, n={n}]")
    return k, n


def bonferroni(alpha: int | Fraction | float, parts: int) -> Fraction:
    """alpha / parts, exactly: the share of each of ``parts`` statements under a union bound.

    If each of m statements fails with probability at most alpha/m, all hold
    simultaneously with probability at least 1 - alpha (Boole's inequality).
    """
    a = check_alpha(alpha)
    if isinstance(parts, bool) or not isinstance(parts, int) or parts < 1:
        raise InvalidArgument(f"parts={parts!r} must be an int >= 1")
    return a / parts


def cp_lower(k: int, n: int, alpha: int | Fraction | float) -> Fraction:
    """Conservative one-sided Clopper–Pearson lower bound: a dyadic L <= p_L(k), proved.

    Guarantee: P_p(cp_lower(X, n, alpha) > p) <= alpha for X ~ Bin(n, p), every p.
    Exactly 0 when k = 0; otherwise about 6e-8 (relative) below p_L, the
    deliberate 2^-24 shift (tested against scipy and exactly for small n).
    See the module docstring for what is rigorous.
    """
    k, n = check_counts(k, n)
    return _cp_lower(k, n, check_alpha(alpha))


def cp_upper(k: int, n: int, alpha: int | Fraction | float) -> Fraction:
    """Conservative one-sided Clopper–Pearson upper bound: a dyadic U >= p_U(k), proved.

    Guarantee: P_p(cp_upper(X, n, alpha) < p) <= alpha for X ~ Bin(n, p), every p.
    Exactly 1 when k = n.
    """
    k, n = check_counts(k, n)
    return _cp_upper(k, n, check_alpha(alpha))


@lru_cache(maxsize=8192)
def _cp_lower(k: int, n: int, alpha: Fraction) -> Fraction:
    if k == 0:
        return Fraction(0)
    guess = Fraction(_quantile_guess(k, n, float(alpha), upper=False))
    for shrink in _SHRINKS:
        candidate = _round_bits(guess * shrink, _BITS, up=False)
        if 0 < candidate < 1 and upper_tail_upper_bound(n, k, candidate) <= alpha:
            return candidate
    return Fraction(0)  # pragma: no cover - the float guess was wildly off; 0 is always valid


@lru_cache(maxsize=8192)
def _cp_upper(k: int, n: int, alpha: Fraction) -> Fraction:
    if k == n:
        return Fraction(1)
    guess = Fraction(_quantile_guess(k, n, float(alpha), upper=True))
    for shrink in _SHRINKS:
        candidate = _round_bits(guess * (2 - shrink), _BITS, up=True)
        if 0 < candidate < 1 and lower_tail_upper_bound(n, k, candidate) <= alpha:
            return candidate
    return Fraction(1)  # pragma: no cover - the float guess was wildly off; 1 is always valid


_SHRINKS = (Fraction(2**24 - 1, 2**24), Fraction(2**16 - 1, 2**16), Fraction(255, 256),
            Fraction(1, 2))
"""Relative moves of the guess tried in turn (outward); the first proved candidate (tie: <=) wins."""


def _round_bits(x: Fraction, bits: int, *, up: bool) -> Fraction:
    """x >= 0 rounded down (or up) to a dyadic of ``bits`` (or bits + 1) significant bits."""
    if x <= 0:
        return Fraction(0)
    shift = bits - (x.numerator.bit_length() - x.denominator.bit_length())
    num, den = (x.numerator << shift, x.denominator) if shift >= 0 else (
        x.numerator, x.denominator << -shift)
    m = -(-num // den) if up else num // den
    return Fraction(m, 1 << shift) if shift >= 0 else Fraction(m << -shift)


# ------------------------------------------------------------ float guess


_SUMMED_BELOW = 1 << 16
"""ln C(n, j) is summed term by term when min(j, n - j) is below this (see :func:`_log_choose`)."""


def _log_choose(n: int, j: int) -> float:
    """ln C(n, j) in floating point (a proposal only); m = min(j, n - j) terms summed if m < 2^16.

    ``lgamma(n+1) - lgamma(j+1) - lgamma(n-j+1)`` cancels: each term is about n ln n, so at
    n = 2·10^8 its rounding errors reach 10^-6, and the guess of a quantile with few hits moved
    by about that much relative (five times the documented 2^-24).  The sum of the m terms
    ln((n-i)/(i+1)) errs by about m·10^-15; from m = 2^16 lgamma's error, divided by about m in
    the quantile, stays below 10^-8 relative up to n = 2^31 (measured 9·10^-9 at m = 2^16)."""
    m = min(j, n - j)
    if m >= _SUMMED_BELOW:  # the quantile is then steep in the tail: the cancellation is harmless
        return math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)
    i = np.arange(m, dtype=np.float64)
    return float(np.sum(np.log1p((n - 2 * i - 1) / (i + 1))))


def _log_tail_float(n: int, k: int, p: float, *, upper: bool) -> float:
    """ln P_p(X >= k) (or ln P_p(X <= k)) in floating point (a proposal only; never decides)."""
    if p <= 0.0:
        return -math.inf if upper and k > 0 else 0.0
    if p >= 1.0:
        return 0.0 if upper or k == n else -math.inf
    sd = math.sqrt(n * p * (1 - p))
    mode = min(n, int((n + 1) * p))
    width = int(40 * sd) + 40  # terms beyond 40 standard deviations of the mode are negligible
    lp, lq = math.log(p), math.log1p(-p)
    # the summed window [j0, ...] (upper) or [..., j0] (lower) starts at k, or nearer the mode when
    # k is far on the heavy side: the skipped terms are below e^-800 of the largest (a proposal
    # only; memory and time stay O(sd), never O(n))
    j0 = max(k, mode - width) if upper else min(k, mode + width)
    first = _log_choose(n, j0) + j0 * lp + (n - j0) * lq
    if upper:  # t_{j+1}/t_j = (n-j)/(j+1)·p/q for j = j0 .. end-1
        end = min(n, max(j0, mode) + width)
        j = np.arange(j0, end, dtype=np.float64)
        steps = np.log(n - j) - np.log(j + 1) + (lp - lq)
    else:  # t_{j-1}/t_j = j/(n-j+1)·q/p for j = j0 .. start+1
        start = max(0, min(j0, mode) - width)
        j = np.arange(j0, start, -1, dtype=np.float64)
        steps = np.log(j) - np.log(n - j + 1) + (lq - lp)
    logs = first + np.concatenate(([0.0], np.cumsum(steps)))
    top = float(np.max(logs))
    return top + math.log(float(np.sum(np.exp(logs - top))))


def _quantile_guess(k: int, n: int, alpha: float, *, upper: bool) -> float:
    """Float estimate of p_L (p_U): the p with P_p(X >= k) = alpha (P_p(X <= k) = alpha).

    Closed forms at the edges: p_L(n) = alpha^(1/n), p_U(0) = 1 - alpha^(1/n).
    Otherwise bisection (geometric while the bracket spans a factor > 2).
    """
    if not upper and k == n:
        return math.exp(math.log(alpha) / n)
    if upper and k == 0:
        return -math.expm1(math.log(alpha) / n)
    target = math.log(alpha)
    lo, hi = 0.0, 1.0
    for _ in range(2200):
        mid = math.sqrt(lo * hi) if 0 < 2 * lo < hi else (lo + hi) / 2
        if mid in (lo, hi):
            break
        # lower bound: P(X >= k) <= alpha keeps mid feasible; upper bound: P(X <= k) <= alpha
        inside = _log_tail_float(n, k, mid, upper=not upper) <= target
        if inside != upper:
            lo = mid
        else:
            hi = mid
    return hi if upper else lo


# -------------------------------------------------------- rigorous tails


def _log_factorial(m: int, prec: int) -> Interval:
    """An enclosure of ln m!: from the exact integer m! for m <= 4096, else Robbins' bounds.

    Robbins' enclosure has width below 1/(144 m²) < 2^-31 for m > 4096.
    """
    if m <= 1:
        return Interval.point(0)
    if m <= 4096:
        return interval_log(Interval.point(math.factorial(m)), prec)
    lm = interval_log(Interval.point(m), prec)
    half_log_2pi_m = interval_log(_PI * (2 * m), prec) * Fraction(1, 2)
    base = lm * m - m + half_log_2pi_m
    return Interval(base.lo + Fraction(1, 12 * m + 1), base.hi + Fraction(1, 12 * m))


def _first_term_upper(n: int, k: int, p: Fraction) -> Fraction:
    """An upper bound on C(n, k) p^k (1-p)^(n-k) for a dyadic 0 < p < 1."""
    q = 1 - p
    if (n + 1) * max(p.numerator.bit_length(), p.denominator.bit_length()) <= _EXACT_TERM_BITS:
        return math.comb(n, k) * p**k * q ** (n - k)
    log_term = (_log_factorial(n, _PREC) - _log_factorial(k, _PREC) - _log_factorial(n - k, _PREC)
                + interval_log(Interval.point(p), _PREC) * k
                + interval_log(Interval.point(q), _PREC) * (n - k))
    return min(interval_exp(log_term, _PREC).hi, Fraction(1))


def upper_tail_upper_bound(n: int, k: int, p: Fraction) -> Fraction:
    """A rational number >= P(Bin(n, p) >= k), proved (p a dyadic rational in [0, 1]).

    The terms t_j are summed relative to t_k in ``_FIXED``-bit fixed point,
    every product rounded up; once the term ratio r_j = (n-j)p/((j+1)(1-p))
    is below 1 and the geometric remainder t_j·r_j/(1-r_j) is below 2^-64 of
    the sum, that remainder is added and the sum stops (r_j decreases in j).
    """
    k, n = check_counts(k, n)
    if p.denominator & (p.denominator - 1):
        raise InvalidArgument(f"p={p} must be a dyadic rational")
    if not 0 <= p <= 1:
        raise InvalidArgument(f"p={p} must lie in [0, 1]")
    if k == 0 or p == 1:
        return Fraction(1)
    if p == 0:
        return Fraction(0)
    scale = p.denominator
    p_num, q_num = p.numerator, scale - p.numerator  # p = p_num/scale, 1-p = q_num/scale
    term = 1 << _FIXED  # t_j / t_k, rounded up
    total = term
    j = k
    while j < n:
        a, b = (n - j) * p_num, (j + 1) * q_num
        if a < b:
            rest = -((-term * a) // (b - a))  # ceil(t_j·r/(1-r)) bounds Σ_{i>j} t_i
            if rest << 64 <= total:
                total += rest
                break
        term = -((-term * a) // b)
        total += term
        j += 1
    return min(_first_term_upper(n, k, p) * Fraction(total, 1 << _FIXED), Fraction(1))


def lower_tail_upper_bound(n: int, k: int, p: Fraction) -> Fraction:
    """A rational number >= P(Bin(n, p) <= k), proved: P(n - X >= n - k) with n - X ~ Bin(n, 1 - p)."""
    k, n = check_counts(k, n)
    return upper_tail_upper_bound(n, n - k, 1 - p)


def tail_exact(n: int, k: int, p: Fraction) -> Fraction:
    """P(Bin(n, p) >= k) exactly, by rational summation (for small n: tests and p-values)."""
    k, n = check_counts(k, n)
    if not 0 <= p <= 1:
        raise InvalidArgument(f"p={p} must lie in [0, 1]")
    return sum((math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1)), Fraction(0))
