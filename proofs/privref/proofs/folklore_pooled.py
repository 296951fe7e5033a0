"""Ledger checks of the pooled test behind the black-box auditor's pure-DP bounds.

The result (Przyborowski and Wilenski, Biometrika 1940, for two Poisson counts; here
for draws dealt to two sides by fair coins): if 2D draws are each dealt to side a or
b by a fair coin, and a draw of side a (b) lands in F with probability P (Q), then
the hit counts (X, Y) given X + Y = s satisfy X ~ Bin(s, P/(P + Q)).  Hence a
one-sided Clopper–Pearson bound r_lo on that share at level alpha gives
r_lo/(1 - r_lo) <= P/Q with probability >= 1 - alpha
(:func:`privref.audits.blackbox.pooled.pooled_ratio`).  Both facts are checked
exactly, with fractions, over the whole joint law on small cases.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from privref.audits.blackbox.pooled import pooled_ratio

from ._ledger import CheckResult, Verdict
from .numbers_text import decimal

__all__ = ["check_conditional_law", "check_pooled_level"]

_CASES: tuple[tuple[Fraction, Fraction], ...] = (
    (Fraction(1, 2), Fraction(1, 4)), (Fraction(9, 10), Fraction(1, 3)),
    (Fraction(1, 5), Fraction(1, 10)), (Fraction(1, 3), Fraction(1, 3)))


def _binom(n: int, k: int, p: Fraction) -> Fraction:
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def _joint(dealt: int, p: Fraction, q: Fraction, coins: bool) -> dict[tuple[int, int], Fraction]:
    """The exact law of (X, Y) for 2·dealt draws: dealt by fair coins, or ``dealt`` per side."""
    sizes = ([(m, _binom(2 * dealt, m, Fraction(1, 2))) for m in range(2 * dealt + 1)]
             if coins else [(dealt, Fraction(1))])
    law: dict[tuple[int, int], Fraction] = {}
    for m, pm in sizes:
        for x in range(m + 1):
            for y in range(2 * dealt - m + 1):
                w = pm * _binom(m, x, p) * _binom(2 * dealt - m, y, q)
                law[(x, y)] = law.get((x, y), Fraction(0)) + w
    return law


def _binomial_given_sum(law: dict[tuple[int, int], Fraction], r: Fraction, total: int) -> bool:
    for s in range(total + 1):
        mass = [law.get((x, s - x), Fraction(0)) for x in range(s + 1)]
        norm = sum(mass)
        if norm and any(w / norm != _binom(s, x, r) for x, w in enumerate(mass)):
            return False
    return True


def check_conditional_law(dealt: int = 4, coins: bool = True) -> CheckResult:
    """X given X + Y is exactly Bin(s, P/(P + Q)) for dealt draws, on 4 (P, Q) cases."""
    for p, q in _CASES:
        if not _binomial_given_sum(_joint(dealt, p, q, coins), p / (p + q), 2 * dealt):
            return CheckResult(Verdict.VIOLATED, f"P = {p}, Q = {q}, {2 * dealt} draws: the "
                               "conditional law of X given X + Y is not binomial",
                               witness=f"P={p} Q={q}")
    return CheckResult(Verdict.HOLDS, f"exact for {len(_CASES)} (P, Q) cases, {2 * dealt} draws "
                       "dealt by fair coins, every value of X + Y")


def check_pooled_level(dealt: int = 5) -> CheckResult:
    """P(pooled_ratio(X, Y, alpha) > P/Q) <= alpha, summed exactly over the joint law."""
    worst = Fraction(0)
    for (p, q), alpha in zip(_CASES, (Fraction(1, 5), Fraction(1, 10), Fraction(1, 3),
                                      Fraction(1, 10)), strict=True):
        wrong = sum((w for (x, y), w in _joint(dealt, p, q, True).items()
                     if pooled_ratio(x, y, alpha) > p / q), Fraction(0))
        if wrong > alpha:
            return CheckResult(Verdict.VIOLATED, f"P = {p}, Q = {q}: the bound exceeds P/Q with "
                               f"probability {decimal(wrong, 4)} > alpha = {alpha}",
                               witness=f"P={p} Q={q} alpha={alpha}")
        worst = max(worst, wrong / alpha)
    return CheckResult(Verdict.HOLDS, f"{len(_CASES)} cases, {2 * dealt} dealt draws: the failure "
                       f"probability is at most {decimal(worst, 3)} of alpha")
