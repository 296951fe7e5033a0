"""Checks of the analytic Gaussian mechanism (Balle and Wang 2018, Theorem 8), used by 001 §5.

The accountant :func:`privref.reference.accounting.analytic_gaussian_delta` encloses
δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ), the exact privacy profile of a Gaussian mechanism with
sensitivity-to-noise ratio μ.  Two checks that do not reuse its Φ:

* the hockey-stick integral ∫ (φ(t) − e^ε φ(t − μ))₊ dt, computed by monotone Riemann sums of
  the density with interval exponentials and a rational enclosure of π, must meet the
  accountant's enclosure (the integrand is positive exactly for t < μ/2 − ε/μ, where
  φ(t)/φ(t − μ) = e^{μ²/2 − μt} exceeds e^ε);
* the profile is at most the zCDP bound of 001 Lemma 51 solved for δ, exp(−(ε − ρ)²/(4ρ)) with
  ρ = μ²/2 (for ε > ρ), since the Gaussian mechanism is ρ-zCDP.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from privref.reference.accounting import analytic_gaussian_delta
from privref.reference.decide import at_most, equal
from privref.reference.reals import Interval, exp, rational

from ._ledger import CheckResult, Verdict
from .numbers_text import decimal, interval_text

__all__ = ["LEMMA_51_FACTOR", "check_against_lemma_51", "check_hockey_stick_integral",
           "riemann_normal_cdf"]

LEMMA_51_FACTOR = 2
"""The 2 of 001 Lemma 51's ε = ρ + 2√(ρ ln(1/δ)), i.e. δ = exp(−(ε − ρ)²/(2²ρ))."""

_PI = Interval(Fraction(333, 106), Fraction(355, 113))
"""π between two classical convergents: 3.14150... < π < 3.14159292..."""

_ROOT_2PI = Interval(Fraction(2506, 1000), Fraction(2507, 1000))
"""√(2π) between 2.506 and 2.507: 2.506² = 6.280036 <= 2·333/106 and 2·355/113 <= 6.285049 = 2.507²
(checked in the tests)."""

_LEFT = Fraction(-9)
"""Lower limit of integration; Φ(−9) <= φ(9)/9 < 10⁻¹⁸ is added to the upper sum."""

_PREC = 60

Profile = Callable[[Fraction, Fraction], Interval]
"""(ε, μ) ↦ an enclosure of δ(ε) for sensitivity-to-noise ratio μ (rational)."""


def _density(t: Fraction) -> Interval:
    """exp(−t²/2) enclosed (without the 1/√(2π) factor)."""
    return exp(rational(-t * t / 2)).enclose(_PREC)


def riemann_normal_cdf(a: Fraction, steps: int) -> Interval:
    """An enclosure of Φ(a) by lower and upper Riemann sums on ``steps`` cells of [−9, a].

    φ increases on (−∞, 0] and decreases on [0, ∞), so on a cell not containing 0 its
    minimum and maximum are at the ends; the cell holding 0 is bounded by φ(0).  The tail
    Φ(−9) is bounded by φ(9)/9 (Mills).  Independent of reference.accounting's series.
    """
    if a <= _LEFT:
        raise ValueError(f"a={a} must exceed {_LEFT}")
    cuts = [_LEFT + (a - _LEFT) * i / steps for i in range(steps + 1)]
    if a > 0 and 0 not in cuts:
        cuts = sorted([*cuts, Fraction(0)])
    values = [_density(t) for t in cuts]
    lo, hi = Fraction(0), Fraction(0)
    for (t0, v0), (t1, v1) in zip(zip(cuts, values, strict=True),
                                  zip(cuts[1:], values[1:], strict=True), strict=False):
        width = t1 - t0
        lo += width * min(v0.lo, v1.lo)
        hi += width * max(v0.hi, v1.hi)
    tail = _density(-_LEFT).hi / -_LEFT
    total = Interval(lo, hi + tail)
    return Interval(total.lo / _ROOT_2PI.hi, total.hi / _ROOT_2PI.lo)


def _integral_profile(epsilon: Fraction, mu: Fraction, steps: int) -> Interval:
    """∫ (φ(t) − e^ε φ(t − μ))₊ dt = Φ(c) − e^ε Φ(c − μ), c = μ/2 − ε/μ, by Riemann sums."""
    c = mu / 2 - epsilon / mu
    first = riemann_normal_cdf(c, steps)
    second = riemann_normal_cdf(c - mu, steps)
    factor = exp(rational(epsilon)).enclose(_PREC)
    return Interval(first.lo - factor.hi * second.hi, first.hi - factor.lo * second.lo)


_GRID: tuple[tuple[Fraction, Fraction], ...] = (
    (Fraction(0), Fraction(1)), (Fraction(1, 2), Fraction(1)), (Fraction(1), Fraction(2)),
    (Fraction(2), Fraction(3)), (Fraction(1, 4), Fraction(1, 2)),
)


def accountant_profile(epsilon: Fraction, mu: Fraction) -> Interval:
    """reference.accounting's enclosure of δ(ε) at μ (one query, σ = 1/μ)."""
    return analytic_gaussian_delta(epsilon, 1, 1 / mu)


def check_hockey_stick_integral(profile: Profile = accountant_profile,
                                steps: int = 1500) -> CheckResult:
    """The accountant's δ(ε) meets the Riemann enclosure of the hockey-stick integral (5 points)."""
    for eps, mu in _GRID:
        ours = profile(eps, mu)
        direct = _integral_profile(eps, mu, steps)
        if equal(ours, direct) is Verdict.VIOLATED:  # disjoint enclosures of one number
            return CheckResult(Verdict.VIOLATED,
                               f"at ε={eps}, μ={mu} the accountant's δ ∈ {interval_text(ours)} "
                               f"misses the integral's {interval_text(direct)}",
                               witness=f"epsilon={eps}, mu={mu}")
    return CheckResult(Verdict.HOLDS,
                       f"{len(_GRID)} (ε, μ) points: the accountant's enclosure meets the "
                       f"hockey-stick integral enclosed by {steps}-cell Riemann sums")


def check_against_lemma_51(profile: Profile = accountant_profile) -> CheckResult:
    """δ(ε) <= exp(−(ε − ρ)²/(4ρ)), ρ = μ²/2, on a grid with ε > ρ (001 Lemma 51 inverted).

    The 4 is :data:`LEMMA_51_FACTOR` squared, read at run time.
    """
    count = 0
    for mu in (Fraction(1, 4), Fraction(1, 2), Fraction(1)):
        rho = mu * mu / 2
        for eps in (rho + Fraction(1, 8), rho + 1, rho + 3):
            ours = profile(eps, mu)
            bound = exp(rational(-(eps - rho) ** 2 / (LEMMA_51_FACTOR ** 2 * rho))).enclose(_PREC)
            below = at_most(ours, bound)
            if below is Verdict.VIOLATED:
                return CheckResult(below,
                                   f"at ε={eps}, μ={mu}: δ(ε) >= {decimal(ours.lo)} > the "
                                   f"zCDP bound {decimal(bound.hi)}",
                                   witness=f"epsilon={eps}, mu={mu}")
            if below is Verdict.UNDECIDED:
                return CheckResult(below, f"at ε={eps}, μ={mu} the enclosures overlap")
            count += 1
    return CheckResult(Verdict.HOLDS, f"{count} (ε, μ) points: the analytic δ(ε) is below the "
                                      "zCDP bound exp(−(ε − ρ)²/(4ρ)), decided by intervals")
