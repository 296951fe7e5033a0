"""Checks of the tight zCDP conversion (Canonne, Kamath and Steinke 2020, Corollary 13).

The accountant :func:`privref.reference.accounting.zcdp_to_dp_epsilon` returns, for ρ-zCDP and
δ, the ε_α of Corollary 13 at a proposed order α (or 001 Lemma 51's ε when smaller).  Three checks,
each able to fail:

* the algebra: at ε = ε_α, the paper's δ formula exp((α − 1)(αρ − ε))·(1 − 1/α)^α/(α − 1) gives
  back δ (interval arithmetic on an independent expression of the same statement);
* soundness against a mechanism whose profile is known exactly: the Gaussian mechanism of
  sensitivity 1 and noise σ is ρ = 1/(2σ²)-zCDP, and its exact δ(ε) (Balle-Wang 2018 Theorem 8,
  itself checked against a hockey-stick integral) must be at most δ at the returned ε;
* tightness: the returned ε is strictly below 001 Lemma 51's ρ + 2√(ρ ln(1/δ)) on a grid.

The δ form :func:`privref.reference.accounting.zcdp_to_dp_delta` (the infimum over α) is checked
by exact audits of the discrete Gaussian mechanism (ρ = 1/(2σ²)-zCDP, CKS 2020 Theorem 4): its
claim (ε, δ) HOLDS, the δ is strictly below Bun-Steinke's exp(−(ε − ρ)²/(4ρ)), and at two points
half the δ is refuted (the conversion is within 2× of the mechanism's exact profile there).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from privref.reference.accounting import (
    analytic_gaussian_delta,
    gaussian_zcdp,
    zcdp_delta,
    zcdp_epsilon_at_order,
    zcdp_order,
    zcdp_to_dp_delta,
    zcdp_to_dp_epsilon,
)
from privref.reference.decide import at_most, less_than, within
from privref.reference.geometric import discrete_gaussian_mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import Real, exp, log, rational, sqrt

from ._common import audit_result, combine
from ._ledger import CheckResult, Verdict
from .numbers_text import decimal

__all__ = ["CKS_DELTA_SCALE", "LEMMA_51_FACTOR", "check_against_gaussian",
           "check_delta_form_against_audits", "check_delta_round_trip",
           "check_tighter_than_lemma_51"]

LEMMA_51_FACTOR = 2
"""The 2 of 001 Lemma 51's ε = ρ + 2√(ρ ln(1/δ)), the bound Corollary 13 is compared with."""

CKS_DELTA_SCALE = Fraction(1)
"""The factor of the converted δ claimed in :func:`check_delta_form_against_audits` (read at run
time; halved, the audits refute it at σ² = 1, ε = 1 and σ² = 4, ε = 1/2)."""

Conversion = Callable[[Fraction, Fraction], Real]
"""(ρ, δ) ↦ an ε with ρ-zCDP ⟹ (ε, δ)-DP (exact Real)."""

_PREC = 96

_SIGMAS: tuple[Fraction, ...] = (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(5))
_DELTAS: tuple[Fraction, ...] = (Fraction(1, 10**2), Fraction(1, 10**3), Fraction(1, 10**6))


def check_delta_round_trip(at_order: Callable[[Fraction, Fraction, Fraction], Real]
                           = zcdp_epsilon_at_order) -> CheckResult:
    """exp((α − 1)(αρ − ε_α))·(1 − 1/α)^α/(α − 1) = δ at the proposed α, on a grid (intervals)."""
    count = 0
    for sigma in _SIGMAS:
        rho = gaussian_zcdp(sigma)
        for delta in _DELTAS:
            alpha = zcdp_order(rho, delta)
            eps = at_order(rho, delta, alpha)
            paper: Real = (exp((alpha - 1) * (rho * alpha - eps) + alpha * log(1 - 1 / alpha))
                           / (alpha - 1))
            box = (paper - rational(delta)).enclose(_PREC)
            if within(0, box.lo, box.hi) is Verdict.VIOLATED:  # the difference is proved nonzero
                return CheckResult(Verdict.VIOLATED,
                                   f"at ρ={rho}, δ={delta}, α={alpha}: the paper's δ at ε_α is "
                                   f"{decimal(paper, 9)}, not δ", witness=f"rho={rho}, delta={delta}")
            if box.width > delta / 10**9:
                return CheckResult(Verdict.UNDECIDED, f"at ρ={rho}, δ={delta}: the enclosure of "
                                   f"the difference is wider than δ/10⁹")
            count += 1
    return CheckResult(Verdict.HOLDS, f"{count} (ρ, δ) points: ε_α solves Corollary 13's δ "
                                      "formula exactly (interval enclosure of the difference)")


def check_against_gaussian(conversion: Conversion = zcdp_to_dp_epsilon) -> CheckResult:
    """δ_Gauss(ε) <= δ at the converted ε for σ ∈ {1/2, 1, 2, 5}, δ ∈ {10⁻², 10⁻³, 10⁻⁶}."""
    count = 0
    for sigma in _SIGMAS:
        rho = gaussian_zcdp(sigma)
        for delta in _DELTAS:
            below = conversion(rho, delta).enclose(_PREC).lo
            exact = analytic_gaussian_delta(max(below, Fraction(0)), 1, sigma)
            fits = at_most(exact, delta)
            if fits is Verdict.VIOLATED:
                return CheckResult(fits,
                                   f"σ={sigma} (ρ={rho}): at the converted ε <= {decimal(below)} "
                                   f"the Gaussian's exact δ >= {decimal(exact.lo)} > {delta}",
                                   witness=f"sigma={sigma}, delta={delta}")
            if fits is Verdict.UNDECIDED:
                return CheckResult(fits, f"σ={sigma}, δ={delta}: the enclosures overlap")
            count += 1
    return CheckResult(Verdict.HOLDS, f"{count} (σ, δ) points: the Gaussian mechanism's exact "
                                      "δ(ε) is at most δ at the converted ε (intervals)")


def check_tighter_than_lemma_51(conversion: Conversion = zcdp_to_dp_epsilon) -> CheckResult:
    """The converted ε is proved strictly below ρ + 2√(ρ ln(1/δ)) on a grid of (ρ, δ).

    The 2 is :data:`LEMMA_51_FACTOR`, read at run time.
    """
    count = 0
    for rho in (Fraction(1, 1000), Fraction(1, 50), Fraction(1, 8), Fraction(1, 2), Fraction(4)):
        for delta in (Fraction(1, 10), Fraction(1, 10**3), Fraction(1, 10**6), Fraction(1, 10**12)):
            lemma_51 = rho + LEMMA_51_FACTOR * sqrt(rho * log(1 / delta))
            below = less_than(conversion(rho, delta), lemma_51)
            if below is not Verdict.HOLDS:
                return CheckResult(below,
                                   f"at ρ={rho}, δ={delta} the conversion is not proved below "
                                   f"001 Lemma 51's ε", witness=f"rho={rho}, delta={delta}")
            count += 1
    return CheckResult(Verdict.HOLDS, f"{count} (ρ, δ) points: strictly below 001 Lemma 51")


def check_delta_form_against_audits() -> CheckResult:
    """zcdp_to_dp_delta(ρ, ε) against the discrete Gaussian mechanism at σ² = 1, 4 (ρ = 1/(2σ²)),
    ε = 1/2, 1, 2: exact audits of (ε, CKS_DELTA_SCALE·δ.hi) HOLD, and δ is proved strictly below
    Bun-Steinke's δ of 001 Lemma 51 (zcdp_delta)."""
    results = []
    for sigma2, eps in ((1, Fraction(1)), (4, Fraction(1, 2)), (4, Fraction(1)), (1, Fraction(2))):
        rho = Fraction(1, 2 * sigma2)
        delta = zcdp_to_dp_delta(rho, eps)
        if eps > rho:
            below = less_than(delta.hi, zcdp_delta(rho, eps))
            if below is not Verdict.HOLDS:
                return CheckResult(below, f"σ²={sigma2}, ε={eps}: CKS δ <= {decimal(delta.hi)} "
                                          "not proved below Lemma 51's δ")
        claim = PrivacyClaim(rational(eps), delta.rounded(64).hi * CKS_DELTA_SCALE)
        results.append(audit_result(discrete_gaussian_mechanism(sigma2), Universe((0, 1), (1,)),
                                    claim=claim)[0])
    return combine(results)
