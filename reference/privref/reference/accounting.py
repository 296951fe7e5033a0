"""Certified privacy accountants for paper 001: zCDP, the analytic Gaussian mechanism, calibration.

Every answer is exact (a ``Fraction``), an exact :class:`~privref.reference.reals.Real`, or an
:class:`~privref.reference.reals.Interval` proved to contain the true value; no float decides
anything.  The pieces:

* zCDP bookkeeping: composition (ρ adds up), pure DP to zCDP (001 Lemma 52), zCDP to
  (ε, δ) and its exact inverse (001 Lemma 51), the tighter conversion of Canonne, Kamath and
  Steinke 2020 (Corollary 13: :func:`zcdp_to_dp_epsilon`), the Gaussian mechanism's
  ρ = Δ²/(2σ²);
* the classical Gaussian mechanism (001 Lemma 44), which needs ε < 1: the paper's statement omits
  that condition and is false at ε = 10, δ = 10⁻⁵ (:func:`analytic_gaussian_delta` proves it);
* the analytic Gaussian mechanism (Balle & Wang 2018, Theorem 8): for q sensitivity-1 Gaussian
  queries with noise σ, μ = √q/σ and δ(ε) = Φ(μ/2 − ε/μ) − e^ε·Φ(−μ/2 − ε/μ), enclosed;
* calibration of σ and the ex-post ε by searches on exact rationals (the accounting of
  001's experiments, Table 4);
* Algorithm 1's σ (Step 1) and Algorithm 2's λ and w (Steps 2-3) in closed form.

Two independent enclosures of δ(ε), one in production, one as its oracle.

* Production (:func:`analytic_gaussian_delta`, and the searches built on it): arb ball arithmetic
  (python-flint, through :mod:`privref.reference._arb`), Φ(−x) = erfc(x/√2)/2 with arb's rigorous
  erfc and exp.  arb's exponents are unbounded, so e^ε at ε = 10^4 and Φ(−B) ≈ e^{−B²/2} far in
  the tail neither overflow nor underflow; the cancellation in Φ(−A) − e^ε·Φ(−B) (about log2(B/μ)
  bits) is met by raising the precision until the ball is relatively narrow
  (:func:`_delta_from_mu`).  About 0.1 ms per δ, 0.5-1 ms per calibration or ex-post ε
  (docs/accounting.md, "Speed").
* Oracle (:func:`analytic_gaussian_delta_series`, :func:`normal_cdf`): no arb and no library erf,
  exact Fraction interval arithmetic with its own Φ, described below; about 150x slower per δ.
  Tests hold the two against each other (tests/reference/test_accounting_fast.py).

How the oracle encloses Φ.  Write φ for the normal density and
R(x) = (1 − Φ(x))/φ(x) for the Mills ratio.  Two proved representations are used:

* the series Φ(x) − 1/2 = φ(x)·S(x), S(x) = Σ_{n≥0} x^{2n+1}/(2n+1)!! (all terms of one sign;
  term ratio x²/(2n+3), so once that ratio is at most r < 1 the tail after a term t is at most
  t·r/(1 − r)), which gives R(x) = √(π/2)·e^{x²/2} − S(x) for every real x (used for |x| < 3);
* Laplace's continued fraction R(x) = 1/(x + 1/(x + 2/(x + 3/(x + …)))) for x ≥ 3.  Proof of the
  enclosure: with R_k(x) = ∫_0^∞ t^k e^{−xt−t²/2} dt (so R_0 = R), integrating by parts gives
  x·R_0 + R_1 = 1 and x·R_k + R_{k+1} = k·R_{k−1}; the ratios q_k = R_k/R_{k−1} > 0 satisfy
  R = 1/(x + q_1) and q_k = k/(x + q_{k+1}), hence 0 < q_N < N/x.  Evaluating the fraction
  backwards from the interval [0, N/x] with outward-rounded interval arithmetic therefore
  encloses R(x) for every depth N; the depth grows until the enclosure is narrow.

π comes from Machin's formula π = 16·atan(1/5) − 4·atan(1/239) with the alternating-series
remainder bound; exp, log and sqrt from :mod:`privref.reference.reals` (mpmath's outward-rounded
interval arithmetic).  The difference Φ(−A) − e^ε·Φ(−B) with A = ε/μ − μ/2, B = ε/μ + μ/2 is
rewritten with e^ε·φ(B) = φ(A) (since B² − A² = 2ε) as φ(A)·(R(A) − R(B)), which never forms
e^ε and never subtracts two nearly equal tail probabilities.

The searches (:func:`calibrate_sigma`, :func:`epsilon_ex_post`) start from 001 Lemma 51's value
(proved safe), let a float root proposed by secant steps on unproved arb evaluations choose
where to probe, and prove every end of the bracket they return with the production enclosure.

Work is bounded: the precision by :data:`MAX_PRECISION` bits, the continued fraction by
:data:`MAX_DEPTH` levels, bisections by :data:`MAX_BISECTION` steps; a question that cannot be
answered within them raises :class:`~privref.reference.errors.TooLargeToEnumerate` naming the limit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Final, NamedTuple

from ._arb import arb, ball, evaluate, to_interval, working_precision
from .citations import cite
from .errors import InvalidArgument, TooLargeToEnumerate
from .reals import (
    Interval,
    Order,
    Real,
    compare,
    exp,
    interval_exp,
    interval_log,
    interval_sqrt,
    log,
    rational,
    sqrt,
)
from .validate import ExactInput, check_probability, to_fraction

__all__ = [
    "DEFAULT_TOLERANCE",
    "MAX_BISECTION",
    "MAX_DEPTH",
    "MAX_PRECISION",
    "MAX_WORK_PRECISION",
    "ORDER_BITS",
    "SOURCES",
    "algorithm1_sigma",
    "algorithm2_lambda",
    "algorithm2_threshold",
    "analytic_gaussian_delta",
    "analytic_gaussian_delta_series",
    "calibrate_sigma",
    "classical_gaussian_sigma",
    "epsilon_ex_post",
    "gaussian_mu",
    "gaussian_zcdp",
    "normal_cdf",
    "normal_cdf_real",
    "pi_enclosure",
    "pure_to_zcdp",
    "rdp_order_to_dp_epsilon",
    "rdp_to_dp_epsilon",
    "zcdp_compose",
    "zcdp_delta",
    "zcdp_epsilon",
    "zcdp_epsilon_at_order",
    "zcdp_order",
    "zcdp_to_dp_delta",
    "zcdp_to_dp_epsilon",
]

SOURCES: Final = {
    "zcdp_epsilon": cite("001 Lemma 51"),
    "zcdp_delta": cite("001 Lemma 51"),
    "pure_to_zcdp": cite("001 Lemma 52"),
    "classical_gaussian_sigma": cite("001 Lemma 44 (corrected)"),
    "gaussian_zcdp": cite("001 Theorem 2 (proof)"),
    "algorithm1_sigma": cite("001 Theorem 2 (proof)"),
    "algorithm2_lambda": cite("001 Theorem 2 (proof)"),
    "algorithm2_threshold": cite("001 Theorem 2 (proof)"),
    "analytic_gaussian_delta": cite("folklore Balle-Wang 2018 Theorem 8"),
    "zcdp_epsilon_at_order": cite("folklore Canonne-Kamath-Steinke 2020 Corollary 13"),
    "zcdp_to_dp_epsilon": cite("folklore Canonne-Kamath-Steinke 2020 Corollary 13"),
    "zcdp_to_dp_delta": cite("folklore Canonne-Kamath-Steinke 2020 Corollary 13"),
    "rdp_order_to_dp_epsilon": cite("folklore Canonne-Kamath-Steinke 2020 Corollary 13"),
    "rdp_to_dp_epsilon": cite("folklore Canonne-Kamath-Steinke 2020 Corollary 13"),
}
"""The ledger entry each accountant implements: zCDP conversions (001 Lemmas 51, 52), the
classical Gaussian with its missing ε < 1 restored (001 Lemma 44, corrected), the calibrations of
Algorithms 1 and 2 (001 Theorem 2's proof), the analytic Gaussian (Balle-Wang 2018) and the
tight zCDP conversion (Canonne-Kamath-Steinke 2020)."""

WORK_PRECISION: Final = 64
"""Bits of the first enclosure; doubled (up to MAX_PRECISION) while a comparison is undecided."""

MAX_PRECISION: Final = 2048
"""Largest working precision in bits."""

MAX_DEPTH: Final = 1 << 14
"""Most levels of Laplace's continued fraction (and terms of the Φ series) per enclosure."""

MAX_BISECTION: Final = 400
"""Most bisection steps of one calibration (bracketing steps included)."""

DEFAULT_TOLERANCE: Final = Fraction(1, 1 << 30)
"""Relative width at which the bisections stop: (hi − lo) <= tolerance·hi."""

_SERIES_BELOW: Final = 4
"""|x| < 4: Φ and the Mills ratio through the series; x >= 4: the continued fraction (but see
_DEEP_BELOW)."""

_DEEP_BELOW: Final = 8
"""For 4 <= x < 8 at more than _DEEP_PRECISION bits the Mills ratio comes from the series too,
with _DEEP_GUARD guard bits: there the continued fraction would need more than MAX_DEPTH levels
(at x = 5 and 2100 bits it needs 2^15)."""

_DEEP_PRECISION: Final = 512
"""Above this precision, 4 <= x < _DEEP_BELOW takes the series (see _DEEP_BELOW)."""

_DEEP_GUARD: Final = 68
"""Guard bits of the series for 4 <= x < 8: its cancellation √(π/2)·e^{x²/2} − S(x) ≈ 1/x loses
about 0.7214·x² + log2(1.26·x) < 50 bits, plus the 16 of the series below 4."""


# --------------------------------------------------------------------------- validation


def _positive(value: object, name: str) -> Fraction:
    q = to_fraction(value, name)
    if q <= 0:
        raise InvalidArgument(f"{name}={q} must be > 0")
    return q


def _open_unit(value: object, name: str) -> Fraction:
    return check_probability(to_fraction(value, name), name, open_low=True, open_high=True)


def _queries(value: object, name: str = "queries") -> Fraction:
    q = to_fraction(value, name)
    if q < 1:
        raise InvalidArgument(f"{name}={q} must be >= 1")
    return q


def _count(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name}={value!r} must be an int")
    if value < 1:
        raise InvalidArgument(f"{name}={value} must be >= 1")
    return value


def _precision(prec: object) -> int:
    if isinstance(prec, bool) or not isinstance(prec, int) or not 32 <= prec <= MAX_PRECISION:
        raise InvalidArgument(f"prec={prec!r} must be an int in [32, {MAX_PRECISION}]")
    return prec


# --------------------------------------------------------------------------- zCDP


def zcdp_compose(*rhos: ExactInput) -> Fraction:
    """The ρ of the adaptive composition of ρ_i-zCDP mechanisms: exactly Σ ρ_i.

    Source: Bun & Steinke 2016 Lemma 2.3, used in 001 Theorem 2's proof (ℓ Gaussian queries give
    ℓ/(2σ²)) and 001 Algorithm 2's analysis (T SVTs give 2T/λ²).  Each ρ_i must be >= 0.
    """
    total = Fraction(0)
    for i, rho in enumerate(rhos):
        r = to_fraction(rho, f"rhos[{i}]")
        if r < 0:
            raise InvalidArgument(f"rhos[{i}]={r} must be >= 0")
        total += r
    return total


def gaussian_zcdp(sigma: ExactInput, sensitivity: ExactInput = 1) -> Fraction:
    """ρ = Δ²/(2σ²), exact: adding N(0, σ²) to a function of ℓ2-sensitivity Δ is ρ-zCDP.

    Source: Bun & Steinke 2016 Proposition 1.6, the fact behind 001 Theorem 2's proof for
    Algorithm 1 (the paper cites 001 Lemma 44 for it).
    """
    s = _positive(sigma, "sigma")
    d = _positive(sensitivity, "sensitivity")
    return d * d / (2 * s * s)


def pure_to_zcdp(epsilon: ExactInput) -> Fraction:
    """ε-DP implies (ε²/2)-zCDP: the exact ρ.  Source: 001 Lemma 52 (Bun & Steinke 2016 Prop 1.4)."""
    e = _positive(epsilon, "epsilon")
    return e * e / 2


def zcdp_epsilon(rho: ExactInput, delta: Real | ExactInput) -> Real:
    """ρ-zCDP implies (ε, δ)-DP for ε = ρ + 2√(ρ ln(1/δ)): this ε as an exact Real.

    Source: 001 Lemma 51 (Bun & Steinke 2016 Proposition 1.3).  ρ > 0 and 0 < δ < 1; δ may be
    an exact Real (e.g. from :func:`zcdp_delta`), then it must be proved to lie in (0, 1).
    """
    r = _positive(rho, "rho")
    if isinstance(delta, Real) and delta.exact is None:
        if compare(delta, 0)[0] is not Order.GREATER or compare(delta, 1)[0] is not Order.LESS:
            raise InvalidArgument(f"delta={delta} must be proved to lie in (0, 1)")
        return r + 2 * sqrt(r * log(delta.reciprocal()))
    d = _open_unit(delta.exact if isinstance(delta, Real) else delta, "delta")
    return r + 2 * sqrt(r * log(1 / d))


def zcdp_delta(rho: ExactInput, epsilon: ExactInput) -> Real:
    """The exact inverse of :func:`zcdp_epsilon`: the least δ with ρ + 2√(ρ ln(1/δ)) <= ε.

    It is exp(−(ε − ρ)²/(4ρ)) for ε > ρ, and 1 for ε <= ρ (001 Lemma 51 then gives nothing).
    Guarantee: zcdp_epsilon(ρ, zcdp_delta(ρ, ε)) = ε whenever ε > ρ.  Source: 001 Lemma 51.
    """
    r = _positive(rho, "rho")
    e = _positive(epsilon, "epsilon")
    if e <= r:
        return rational(1)
    return exp(-(e - r) ** 2 / (4 * r))


def _open_unit_real(delta: object) -> tuple[Real, float]:
    """δ in (0, 1) as an exact Real (a Fraction-like value, or a Real proved to lie in (0, 1)) and
    ln(1/δ) as a float (a proposal only)."""
    if isinstance(delta, Real) and delta.exact is None:
        if compare(delta, 0)[0] is not Order.GREATER or compare(delta, 1)[0] is not Order.LESS:
            raise InvalidArgument(f"delta={delta} must be proved to lie in (0, 1)")
        box = log(delta.reciprocal()).enclose(64)
        return delta, float((box.lo + box.hi) / 2)
    d = _open_unit(delta.exact if isinstance(delta, Real) else delta, "delta")
    return rational(d), math.log(d.denominator) - math.log(d.numerator)


def zcdp_epsilon_at_order(rho: ExactInput, delta: Real | ExactInput, alpha: ExactInput) -> Real:
    """ε_α = αρ + (ln(1/δ) + (α − 1)·ln(1 − 1/α) − ln α)/(α − 1), an exact Real, for a rational α > 1.

    Guarantee: a ρ-zCDP mechanism is (ε_α, δ)-DP for EVERY α > 1.  Source: Canonne, Kamath and
    Steinke 2020 (arXiv 2004.00010), Corollary 13 (Proposition 12 at the Rényi order α, where
    ρ-zCDP gives divergence at most αρ): δ = exp((α − 1)(αρ − ε))·(1 − 1/α)^α/(α − 1), solved
    for ε.  ρ > 0, 0 < δ < 1 (a Fraction, or a Real proved to lie in (0, 1)), α > 1 rational.
    """
    r = _positive(rho, "rho")
    d, _ = _open_unit_real(delta)
    a = _order(alpha)
    return _rdp_to_dp(a, r * a, d)


def _order(alpha: object) -> Fraction:
    a = to_fraction(alpha, "alpha")
    if a <= 1:
        raise InvalidArgument(f"alpha={a} must be > 1")
    return a


def _rdp_to_dp(a: Fraction, rdp: Fraction, d: Real) -> Real:
    """ε_α + (ln(1/δ) + (α − 1)·ln(1 − 1/α) − ln α)/(α − 1) for validated α > 1, ε_α, δ."""
    return rdp + (log(d.reciprocal()) + (a - 1) * log((a - 1) / a) - log(a)) / (a - 1)


def _cks_log_delta(alpha: Fraction, rho: Fraction, epsilon: Fraction, prec: int) -> tuple[Interval, Interval]:
    """log of CKS's δ at order α and its derivative in α, enclosed:
    g(α) = (α−1)(αρ−ε) + (α−1)·ln(1−1/α) − ln α and g'(α) = (2α−1)ρ − ε + ln(1−1/α)."""
    shrink = interval_log(Interval.point((alpha - 1) / alpha), prec)
    value = (alpha - 1) * (alpha * rho - epsilon) + shrink * (alpha - 1) \
        - interval_log(Interval.point(alpha), prec)
    slope = shrink + ((2 * alpha - 1) * rho - epsilon)
    return value, slope


def _cks_order_hint(rho: float, epsilon: float) -> float:
    """A float near the minimiser of g (a hint only: every bracket end is then verified)."""
    lo, hi = 1.0, (epsilon + 1) / (2 * rho) + 2
    for _ in range(2000):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if (2 * mid - 1) * rho - epsilon + math.log1p(-1 / mid) < 0:
            lo = mid
        else:
            hi = mid
    return hi


def zcdp_to_dp_delta(rho: ExactInput, epsilon: ExactInput, prec: int = 256) -> Interval:
    """Enclosure of min(1, inf over α > 1 of exp((α−1)(αρ−ε))·(1−1/α)^α/(α−1)): the δ for which
    ρ-zCDP implies (ε, δ)-DP by Canonne, Kamath and Steinke 2020 (arXiv 2004.00010) Proposition 12,
    optimized over α as in their Corollary 13 (OpenDP's ``cdp_delta`` computes the same number).

    Proof of the enclosure: g = log of the bound is convex in α (its second derivative is
    2ρ + 1/(α²(α−1)) > 0) with g' increasing from −∞ (α → 1) to +∞, so its minimiser α* is
    bracketed by any a < b with g'(a) < 0 < g'(b) (each sign proved); then g(a), g(b) bound the
    minimum above, and the tangents at a and b bound it below: g(α*) >= g(a) + g'(a)(b − a) and
    g(α*) >= g(b) − g'(b)(b − a).  The float proposal of α only seeds the bracket; every end is
    verified.  ρ > 0 and ε >= 0 (InvalidArgument otherwise); about 2^-(prec-56) wide.
    """
    rho = _positive(rho, "rho")
    epsilon = to_fraction(epsilon, "epsilon")
    if epsilon < 0:
        raise InvalidArgument(f"epsilon={epsilon} must be >= 0")
    hint = _cks_order_hint(float(rho), float(epsilon))
    a = b = Fraction(hint)
    gap = Fraction(1, 1 << 30)
    a, b = 1 + (a - 1) * (1 - gap), b * (1 + gap)
    for _ in range(200):  # widen until each end's slope sign is proved
        ga, sa = _cks_log_delta(a, rho, epsilon, prec)
        if sa.hi < 0:
            break
        a = 1 + (a - 1) / 2
    else:
        raise TooLargeToEnumerate("the CKS order could not be bracketed from below")
    for _ in range(200):
        gb, sb = _cks_log_delta(b, rho, epsilon, prec)
        if sb.lo > 0:
            break
        b *= 2
    else:
        raise TooLargeToEnumerate("the CKS order could not be bracketed from above")
    target = Fraction(1, 1 << (prec - 40))
    for _ in range(400):
        low = max(ga.lo + sa.lo * (b - a), gb.lo - sb.hi * (b - a))
        high = min(ga.hi, gb.hi)
        if high - low <= target:
            break
        mid = (a + b) / 2
        gm, sm = _cks_log_delta(mid, rho, epsilon, prec)
        high = min(high, gm.hi)
        if sm.hi < 0:
            a, ga, sa = mid, gm, sm
        elif sm.lo > 0:
            b, gb, sb = mid, gm, sm
        else:  # the slope's sign is undecided: the bracket is as narrow as prec allows
            break
    low = max(ga.lo + sa.lo * (b - a), gb.lo - sb.hi * (b - a))
    high = min(ga.hi, gb.hi)
    box = interval_exp(Interval(low, high), prec)
    return Interval(min(box.lo, Fraction(1)), min(box.hi, Fraction(1)))


def rdp_order_to_dp_epsilon(alpha: ExactInput, rdp_epsilon: ExactInput,
                            delta: Real | ExactInput) -> Real:
    """The ε of (ε, δ)-DP implied by (α, ε_α)-Rényi DP at one order, an exact Real.

    ε = ε_α + (ln(1/δ) + (α − 1)·ln(1 − 1/α) − ln α)/(α − 1).  Guarantee: a mechanism whose Rényi
    divergence of order α is at most ε_α (on every neighbouring pair) is (ε, δ)-DP; an ε <= 0
    means (0, δ)-DP.  Source: Canonne, Kamath and Steinke 2020 (arXiv 2004.00010), Proposition
    12, the conversion of Balle, Barthe, Gaboardi, Hsu and Sato 2020, Theorem 21 (the ledger's
    Corollary 13 entry is its ρ-zCDP case, ε_α = αρ: :func:`zcdp_epsilon_at_order`).  α > 1
    rational, ε_α >= 0, 0 < δ < 1 (a Fraction, or a Real proved to lie in (0, 1)).
    """
    a = _order(alpha)
    e = to_fraction(rdp_epsilon, "rdp_epsilon")
    if e < 0:
        raise InvalidArgument(f"rdp_epsilon={e} must be >= 0")
    d, _ = _open_unit_real(delta)
    return _rdp_to_dp(a, e, d)


def rdp_to_dp_epsilon(curve: Sequence[tuple[ExactInput, ExactInput]],
                      delta: Real | ExactInput) -> Real:
    """The least ε of :func:`rdp_order_to_dp_epsilon` over the (α, ε_α) pairs of an RDP curve.

    Guarantee: a mechanism that is (α, ε_α)-RDP at every pair given is (ε, δ)-DP for the returned
    ε, which is exactly 0 when the least ε_α-conversion is proved <= 0.  The least is chosen by
    exact comparisons (:func:`~privref.reference.reals.compare`); an undecided comparison keeps
    the earlier pair (both are valid).  Source: Canonne-Kamath-Steinke 2020 Proposition 12 at each
    order (every order gives a valid ε).  ``curve`` is non-empty; each α > 1, ε_α >= 0.
    """
    if len(curve) == 0:
        raise InvalidArgument("curve=[] must hold at least one (alpha, rdp_epsilon) pair")
    best: Real | None = None
    for i, (alpha, rdp) in enumerate(curve):
        a = to_fraction(alpha, f"curve[{i}].alpha")
        if a <= 1:
            raise InvalidArgument(f"curve[{i}].alpha={a} must be > 1")
        e = to_fraction(rdp, f"curve[{i}].rdp_epsilon")
        if e < 0:
            raise InvalidArgument(f"curve[{i}].rdp_epsilon={e} must be >= 0")
        here = rdp_order_to_dp_epsilon(a, e, delta)
        if best is None or compare(here, best)[0] is Order.LESS:
            best = here
    assert best is not None
    sign = compare(best, 0)[0]
    if sign is Order.LESS or sign is Order.EQUAL:  # (ε, δ)-DP with ε <= 0 implies (0, δ)-DP
        return rational(0)
    return best


ORDER_BITS: Final = 12
"""Significant bits kept of the proposed α − 1 in :func:`zcdp_order` (a short rational)."""


def zcdp_order(rho: ExactInput, delta: Real | ExactInput) -> Fraction:
    """A rational α > 1 near the minimiser of :func:`zcdp_epsilon_at_order` (a float proposal).

    d ε_α/dα = ρ − (ln(1/δ) − ln α)/(α − 1)², so the minimiser is the root of
    g(α) = ρ(α − 1)² + ln α − ln(1/δ), increasing on α > 1 from g(1) < 0; it is found by float
    bisection and rounded to ORDER_BITS significant bits of α − 1.  Every α > 1 gives a valid ε,
    so nothing here needs to be exact: the float only chooses where to evaluate.
    """
    r = float(min(_positive(rho, "rho"), Fraction(10) ** 300))
    _, big_l = _open_unit_real(delta)
    lo, hi = 1.0, 2.0 + math.sqrt(big_l / r)
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if r * (mid - 1) ** 2 + math.log(mid) - big_l < 0:
            lo = mid
        else:
            hi = mid
    t = Fraction(hi - 1) if hi > 1 else Fraction(0)
    if t <= 0:
        return 1 + Fraction(1, 1 << ORDER_BITS)
    step = Fraction(2) ** (math.floor(math.log2(t)) - ORDER_BITS)
    return 1 + max(1, round(t / step)) * step


_CHOICE_BITS: Final = 128
"""Precision of the ball comparisons by which :func:`zcdp_to_dp_epsilon` chooses its answer
before falling back to exact comparisons."""


def zcdp_to_dp_epsilon(rho: ExactInput, delta: Real | ExactInput) -> Real:
    """The ε of (ε, δ)-DP implied by ρ-zCDP, as an exact Real: min(ε_α, 001 Lemma 51's ε).

    ε_α is :func:`zcdp_epsilon_at_order` at the α proposed by :func:`zcdp_order` (Canonne, Kamath
    and Steinke 2020, Corollary 13, valid for every α > 1, so soundness never rests on the float
    proposal); Lemma 51's ρ + 2√(ρ ln(1/δ)) is :func:`zcdp_epsilon`.  The smaller is chosen by an
    exact comparison (:func:`~privref.reference.reals.compare`); when ε_α is proved <= 0 the answer
    is exactly 0 (Corollary 13 holds for every real ε, and (ε_α, δ)-DP implies (0, δ)-DP).
    Guarantee: ρ-zCDP implies (returned ε, δ)-DP, and the returned ε is at
    most Lemma 51's.  ρ > 0, 0 < δ < 1 (a Fraction, or a Real proved to lie in (0, 1)).
    """
    lemma51 = zcdp_epsilon(rho, delta)
    order = zcdp_epsilon_at_order(rho, delta, zcdp_order(rho, delta))
    with working_precision(_CHOICE_BITS):  # the choice from balls, when they separate
        at_order, bound = evaluate(order), evaluate(lemma51)
        if at_order < 0:
            return rational(0)
        if at_order > 0 and at_order < bound:
            return order
        if at_order > 0 and at_order > bound:
            return lemma51
    sign = compare(order, 0)[0]  # balls overlap: the exact comparisons decide
    if sign is Order.UNDECIDED:
        return lemma51
    if sign is not Order.GREATER:  # (ε_α, δ)-DP with ε_α <= 0 implies (0, δ)-DP
        return rational(0)
    return order if compare(order, lemma51)[0] is Order.LESS else lemma51


def classical_gaussian_sigma(epsilon: ExactInput, delta: ExactInput, sensitivity: ExactInput = 1) -> Real:
    """σ = c·Δ/ε with c = √(2 ln(1.25/δ)): the classical Gaussian mechanism's noise (the infimum).

    Source: 001 Lemma 44 (Dwork & Roth 2014 Theorem A.1), which asks for σ >= cΔ/ε with
    c² > 2 ln(1.25/δ).  Dwork and Roth prove it only for ε < 1, a condition 001's statement
    omits; it is false without it (at ε = 10, δ = 10⁻⁵ the exact δ is about 2.27·10⁻⁵), so
    ε >= 1 raises InvalidArgument.
    """
    e = _positive(epsilon, "epsilon")
    if e >= 1:
        raise InvalidArgument(f"epsilon={e} must be < 1: the classical Gaussian mechanism "
                              "(001 Lemma 44) is proved only for epsilon < 1 and fails beyond "
                              "(e.g. epsilon=10, delta=1e-5)")
    d = _open_unit(delta, "delta")
    s = _positive(sensitivity, "sensitivity")
    return sqrt(2 * log(Fraction(5, 4) / d)) * s / e


def algorithm1_sigma(queries: int, epsilon: ExactInput, delta: ExactInput) -> Real:
    """σ solving √(2ℓ ln(1/δ)/σ²) + ℓ/(2σ²) = ε, in closed form (an exact Real).

    σ = (√(2ℓL) + √(2ℓL + 2εℓ))/(2ε) with L = ln(1/δ).  Source: 001 Algorithm 1, Step 1 (the
    closed form is the positive root of the quadratic in 1/σ; 001 Theorem 2 then gives (ε, δ)-DP
    through 001 Lemma 51).  ``queries`` (ℓ) is an int >= 1.
    """
    ell = _count(queries, "queries")
    e = _positive(epsilon, "epsilon")
    d = _open_unit(delta, "delta")
    two_ell_l = 2 * ell * log(1 / d)
    return (sqrt(two_ell_l) + sqrt(two_ell_l + 2 * e * ell)) / (2 * e)


def algorithm2_lambda(cutoff: int, epsilon: ExactInput, delta: ExactInput) -> Real:
    """λ = (√(2T(ε + ln(2/δ))) + √(2T ln(2/δ)))/ε, exact.

    Source: 001 Algorithm 2, Step 2: the root of 2T/λ² + 2√(2T/λ²·ln(2/δ)) = ε, i.e. T cutoff-1
    SVTs ((2/λ)-DP each, 2/λ²-zCDP by 001 Lemma 52) converted at δ/2 by 001 Lemma 51.
    ``cutoff`` (T) is an int >= 1.
    """
    t = _count(cutoff, "cutoff")
    e = _positive(epsilon, "epsilon")
    d = _open_unit(delta, "delta")
    l2 = log(2 / d)
    return (sqrt(2 * t * (e + l2)) + sqrt(2 * t * l2)) / e


def algorithm2_threshold(queries: int, cutoff: int, epsilon: ExactInput, delta: ExactInput) -> Real:
    """w = 3λ ln(2(ℓ + T)/δ) with λ of :func:`algorithm2_lambda`, exact.

    Source: 001 Algorithm 2, Step 3 (each unstable query then passes with probability at most
    e^{−w/(3λ)} = δ/(2(ℓ + T))).
    """
    ell = _count(queries, "queries")
    lam = algorithm2_lambda(cutoff, epsilon, delta)
    t = _count(cutoff, "cutoff")
    d = _open_unit(delta, "delta")
    return 3 * lam * log(2 * (ell + t) / d)


# --------------------------------------------------------------------------- π and Φ


def _atan_inverse(k: int, prec: int) -> Interval:
    """atan(1/k) for an int k >= 2: alternating series, remainder at most the first omitted term."""
    total = Fraction(0)
    n = 0
    eps = Fraction(1, 1 << (prec + 8))
    while True:
        term = Fraction(1, (2 * n + 1) * k ** (2 * n + 1))
        if term < eps:
            # alternating with decreasing terms: the value lies between S_n and S_n ± term
            return Interval(total - term, total + term)
        total += term if n % 2 == 0 else -term
        n += 1


def pi_enclosure(prec: int = WORK_PRECISION) -> Interval:
    """An interval of width below 2^-prec containing π (Machin's formula, proved remainders).

    Source: Machin 1706, π = 16·atan(1/5) − 4·atan(1/239); each arctangent is an alternating
    series with decreasing terms, so its truncation error is below the first omitted term.
    """
    return _pi_at(_precision(prec))


@lru_cache(maxsize=16)
def _pi_at(p: int) -> Interval:
    return (16 * _atan_inverse(5, p + 8) - 4 * _atan_inverse(239, p + 8)).rounded(p + 4)


def _square(x: Interval) -> Interval:
    """{t² : t in x}, exactly (not x·x, which is too wide when x contains 0)."""
    a, b = x.lo * x.lo, x.hi * x.hi
    if x.lo <= 0 <= x.hi:
        return Interval(Fraction(0), max(a, b))
    return Interval(min(a, b), max(a, b))


def _density(x: Interval, prec: int) -> Interval:
    """φ(x) = e^{−x²/2}/√(2π) over x."""
    root = interval_sqrt(2 * _pi_at(prec), prec)
    return (interval_exp(-_square(x) / 2, prec) / root).rounded(prec)


def _series_at(y: Fraction, prec: int) -> Interval:
    """S(y) = Σ y^{2n+1}/(2n+1)!! for y >= 0, with the geometric tail bound.

    Fixed point with 2^-scale units: lower terms are rounded down and upper terms up at every
    step (all terms are >= 0), so [Σ lower, Σ upper + tail] contains S(y).
    """
    assert y >= 0
    if y == 0:
        return Interval.point(0)
    scale = prec + 24
    num, den = y.numerator ** 2, y.denominator ** 2
    lo_term = (y.numerator << scale) // y.denominator  # t_0 = y, rounded down
    hi_term = -((-y.numerator << scale) // y.denominator)  # rounded up
    lo_sum = hi_sum = 0
    for n in range(MAX_DEPTH):
        ratio = Fraction(num, den * (2 * n + 3))  # t_{n+1}/t_n, decreasing in n
        if ratio <= Fraction(1, 2) and hi_term << (prec + 8) <= max(lo_sum, 1 << scale):
            # tail from t_n on: t_n·(1 + r + r² + ...) <= t_n/(1 − r) <= 2·t_n
            unit = Fraction(1, 1 << scale)
            return Interval(lo_sum * unit, (hi_sum + 2 * hi_term) * unit)
        lo_sum += lo_term
        hi_sum += hi_term
        lo_term = (lo_term * num) // (den * (2 * n + 3))
        hi_term = -((-hi_term * num) // (den * (2 * n + 3)))
    raise TooLargeToEnumerate(f"the normal-CDF series at x={float(y):.6g} needs more than "
                              f"MAX_DEPTH={MAX_DEPTH} terms")


def _series(x: Interval, prec: int) -> Interval:
    """S over x: S is odd and increasing, so S(x) lies in [S(x.lo), S(x.hi)]."""
    def at(y: Fraction) -> Interval:
        return _series_at(y, prec) if y >= 0 else -_series_at(-y, prec)
    return Interval(at(x.lo).lo, at(x.hi).hi)


def _continued_fraction(x: Fraction, prec: int) -> Interval:
    """The Mills ratio R(x) for a rational x >= 3 by Laplace's continued fraction (module doc)."""
    assert x > 0
    depth = 64
    point = Interval.point(x)
    while True:
        tail = Interval(Fraction(0), depth / x)  # 0 < q_depth < depth/x
        for k in range(depth - 1, 0, -1):
            tail = (k / (point + tail)).rounded(prec + 16)
        value = (1 / (point + tail)).rounded(prec + 8)
        if value.width * (1 << prec) <= value.lo:
            return value
        if depth >= MAX_DEPTH:
            raise TooLargeToEnumerate(f"the continued fraction of the normal tail at x="
                                      f"{float(x):.6g} did not reach {prec} bits within "
                                      f"MAX_DEPTH={MAX_DEPTH} levels")
        depth *= 2


def _mills_at(x: Fraction, prec: int) -> Interval:
    """R(x) = (1 − Φ(x))/φ(x) at a rational x >= −2·_SERIES_BELOW (series below _SERIES_BELOW = 4,
    continued fraction from there on, except below _DEEP_BELOW at high precision)."""
    if x >= _SERIES_BELOW and (x >= _DEEP_BELOW or prec <= _DEEP_PRECISION):
        return _continued_fraction(x, prec)
    if x < -2 * _SERIES_BELOW:
        raise AssertionError(f"Mills ratio asked outside its range: {x}")  # callers keep x >= -3
    inner = prec + (16 if x < _SERIES_BELOW else _DEEP_GUARD)
    box = Interval.point(x)
    half_pi = interval_sqrt(_pi_at(inner) / 2, inner)
    grow = interval_exp(_square(box) / 2, inner)
    return (half_pi * grow - _series(box, inner)).rounded(prec)


def _mills(x: Interval, prec: int) -> Interval:
    """R over the interval x: R is decreasing (R' = xR − 1 < 0), so R(x) lies in
    [R(x.hi), R(x.lo)]."""
    if x.is_point:
        return _mills_at(x.lo, prec)
    return Interval(_mills_at(x.hi, prec).lo, _mills_at(x.lo, prec).hi)


def normal_cdf(x: ExactInput, prec: int = WORK_PRECISION) -> Interval:
    """An enclosure of Φ(x), the standard normal CDF, at about ``prec`` bits (relative in the tails).

    Proved through the series and continued fraction of the module doc; Φ(x) = 1/2 + φ(x)S(x)
    for |x| < 4 (_SERIES_BELOW), φ(x)·R(−x) for x <= −4 and 1 − φ(x)·R(x) for x >= 4.
    Source: Abramowitz & Stegun 7.1.6 (series) and 26.2.14 (Laplace's continued fraction).
    """
    p = _precision(prec)
    v = to_fraction(x, "x")
    box = Interval.point(v)
    if abs(v) < _SERIES_BELOW:
        return (Fraction(1, 2) + _density(box, p + 16) * _series(box, p + 16)).rounded(p)
    if v < 0:
        return (_density(box, p + 16) * _mills_at(-v, p + 16)).rounded(p)
    return (1 - _density(box, p + 16) * _mills_at(v, p + 16)).rounded(p)


@dataclass(frozen=True, slots=True, eq=False)
class _EnclosedReal(Real):
    """A Real whose enclosure at ``prec`` bits is ``enclosure(prec)`` (e.g. Φ(x) from normal_cdf).

    The precision handed to ``enclosure`` is clipped to [32, MAX_PRECISION]: beyond
    2048 bits the enclosure stops shrinking (still sound; a lazy draw would need a uniform within
    2^-2048 of the value to notice).
    """

    enclosure: Callable[[int], Interval] | None = field(default=None, compare=False)
    text: str = ""

    def _compute(self, prec: int) -> Interval:
        assert self.enclosure is not None
        return self.enclosure(max(32, min(prec, MAX_PRECISION)))

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__


def normal_cdf_real(x: ExactInput) -> Real:
    """Φ(x) for a rational x as an exact :class:`~privref.reference.reals.Real`.

    Exactly 1/2 at x = 0; otherwise enclosed at any precision by
    :func:`normal_cdf` (proved series / Laplace continued fraction,
    Abramowitz & Stegun 7.1.6 and 26.2.14), so the exact interpreter gets enclosures and the
    sampler refines lazily.  InvalidArgument names x when it is not an exact number.
    """
    v = to_fraction(x, "x")
    if v == 0:
        return rational(Fraction(1, 2))
    return _EnclosedReal("normal_cdf", enclosure=lambda prec: normal_cdf(v, prec),
                         text=f"Phi({v})")


# --------------------------------------------------------------------------- analytic Gaussian


def gaussian_mu(queries: ExactInput, sigma: ExactInput, prec: int = WORK_PRECISION) -> Interval:
    """μ = √q/σ enclosed, relative width at most 2^-prec: q sensitivity-1 Gaussian queries with
    noise σ form one Gaussian mechanism of sensitivity √q (Balle-Wang 2018 Theorem 8, Δ = √q; Dong,
    Roth & Su 2022 Corollary 3.3, adaptive composition).  q: any rational >= 1 (Table 4 averages)."""
    return _mu(_queries(queries, "queries"), _positive(sigma, "sigma"), _precision(prec))


def _mu(q: Fraction, s: Fraction, p: int) -> Interval:
    """√q/σ at p bits, for validated q and σ and any p (the callers add guard bits beyond
    MAX_PRECISION)."""
    return (interval_sqrt(Interval.point(q), p + 8) / s).rounded(p + 4)


def _delta_series(epsilon: Fraction, mu: Interval, prec: int) -> Interval:
    """The independent oracle: δ(ε) over μ through φ(A)(R(A) − R(B)) with the series and
    Laplace's continued fraction (module doc), in Fraction interval arithmetic.  Not used by the
    accountant (that is :func:`_delta_from_mu`, arb); see :func:`analytic_gaussian_delta_series`."""
    inner = prec + 32
    a = (epsilon / mu - mu / 2).rounded(inner)
    b = (epsilon / mu + mu / 2).rounded(inner)
    dens = _density(a, inner)
    if a.lo >= -_SERIES_BELOW:
        value = dens * (_mills(a, inner) - _mills(b, inner))
    else:  # Φ(−A) = 1 − φ(A)R(−A) when A < −3
        value = 1 - dens * (_mills(-a, inner) + _mills(b, inner))
    return _clip_unit(value).rounded(prec)


def _clip_unit(value: Interval) -> Interval:
    """An enclosure of a δ in [0, 1] intersected with [0, 1] (still an enclosure)."""
    return Interval(max(value.lo, Fraction(0)), min(value.hi, Fraction(1)))


def analytic_gaussian_delta_series(epsilon: ExactInput, queries: ExactInput, sigma: ExactInput,
                                   prec: int = WORK_PRECISION) -> Interval:
    """The same enclosure as :func:`analytic_gaussian_delta`, computed independently: the oracle.

    Φ here comes from the proved series and Laplace's continued fraction in exact Fraction
    interval arithmetic (module doc; Abramowitz & Stegun 7.1.6 and 26.2.14), with π from Machin's
    formula: no arb, no erfc.  The accountant itself uses arb (:func:`analytic_gaussian_delta`);
    this one exists to check it (tests/reference/test_accounting_fast.py), about 150x slower
    (17 ms against 0.1 ms per δ, docs/accounting.md).
    Guarantee: an interval containing δ(ε) of Balle-Wang 2018 Theorem 8, clipped to [0, 1].
    """
    e = to_fraction(epsilon, "epsilon")
    if e < 0:
        raise InvalidArgument(f"epsilon={e} must be >= 0")
    p = _precision(prec)
    return _delta_series(e, _mu(_queries(queries), _positive(sigma, "sigma"), p + 64), p)


MAX_WORK_PRECISION: Final = 8 * MAX_PRECISION
"""Most bits of one arb evaluation of δ (:func:`_delta_from_mu`): the precision rises while
cancellation leaves the ball relatively wide, up to this; the wider ball is then returned (still
an enclosure, so a decision on it stays sound, or is left undecided)."""

_GUARD: Final = 32
"""Guard bits of the first arb evaluation of δ beyond the precision asked for."""


class _Profile(NamedTuple):
    """δ(ε) enclosed (``box``, rounded outward to the precision asked for) and ln of the arb
    ball's midpoint as a float (``log_mid``: a search hint only, −1e6 when the midpoint is not
    positive)."""

    box: Interval
    log_mid: float


def _delta_ball(epsilon: arb, mu: arb) -> arb:
    """δ(ε) = Φ(−A) − e^ε·Φ(−B), A = ε/μ − μ/2, B = ε/μ + μ/2, as an arb ball at the current
    precision, with Φ(−x) = erfc(x/√2)/2 (arb's erfc is rigorous, its exponents unbounded)."""
    root2 = arb(2).sqrt()
    ratio = epsilon / mu
    half = mu / 2
    first = ((ratio - half) / root2).erfc()
    second = epsilon.exp() * ((ratio + half) / root2).erfc()
    return (first - second) / 2


def _delta_from_mu(epsilon: Fraction, mu_squared: Fraction, prec: int) -> _Profile:
    """δ(ε) for μ = √mu_squared, enclosed in arb ball arithmetic, relative width about 2^-prec.

    arb's erfc and exp are rigorous at every precision and its exponents are unbounded, so
    e^ε for ε = 10^4 (beyond a double) and Φ(−B) ≈ e^{−B²/2} far in the tail are formed without
    overflow or underflow.  The difference of the two terms cancels (by about log2(B/μ) bits when
    ε/μ >> μ); the precision therefore rises until the ball's relative accuracy reaches
    prec + 8 bits (or MAX_WORK_PRECISION).  The ball is then clipped to [0, 1], converted outward
    to exact endpoints (:func:`~privref.reference._arb.to_interval`: a δ below 2^-2^20 becomes
    [0, 2^-2^20]) and rounded outward to prec bits.  Source: Balle-Wang 2018 Theorem 8.
    """
    work = prec + _GUARD
    while True:
        with working_precision(work):
            value = _delta_ball(ball(epsilon), ball(mu_squared).sqrt())
            accuracy = value.rel_accuracy_bits()
            if accuracy >= prec + 8 or work >= MAX_WORK_PRECISION:
                return _Profile(_to_box(value, prec), _log_mid(value))
        lost = work - accuracy if accuracy > 0 else work
        work = min(MAX_WORK_PRECISION, max(2 * work, prec + lost + 2 * _GUARD))


def _to_box(value: arb, prec: int) -> Interval:
    """The ball of a δ in [0, 1] as an exact interval: endpoints rounded outward to prec bits
    (arb's lower() and upper() round down and up at the working precision), clipped to [0, 1]."""
    with working_precision(prec):
        return _clip_unit(to_interval(value, "delta"))


def analytic_gaussian_delta(epsilon: ExactInput, queries: ExactInput, sigma: ExactInput,
                            prec: int = WORK_PRECISION) -> Interval:
    """Enclosure of the least δ for which q sensitivity-1 Gaussian queries with noise σ are (ε, δ)-DP.

    δ(ε) = Φ(μ/2 − ε/μ) − e^ε·Φ(−μ/2 − ε/μ), μ = √q/σ: Balle-Wang 2018 Theorem 8 (an exact
    characterization, so this is the mechanism's true privacy profile), the accounting of
    001 Section 5 (Table 4).  ε >= 0 (ε = 0 gives the total variation 2Φ(μ/2) − 1); any ε
    (10^4 and beyond: arb's exponents do not overflow).  Computed in arb ball arithmetic
    (:func:`_delta_from_mu`), relative width about 2^-prec (a δ below 2^-2^20 is [0, 2^-2^20]);
    checked against the independent series oracle :func:`analytic_gaussian_delta_series`.
    """
    e = to_fraction(epsilon, "epsilon")
    if e < 0:
        raise InvalidArgument(f"epsilon={e} must be >= 0")
    p = _precision(prec)
    return _delta_from_mu(e, _mu_squared(_queries(queries), _positive(sigma, "sigma")), p).box


def _mu_squared(q: Fraction, sigma: Fraction) -> Fraction:
    """μ² = q/σ², exact."""
    return q / (sigma * sigma)


def _compare_delta(epsilon: Fraction, mu_squared: Fraction, delta: Fraction,
                   work: int) -> tuple[bool | None, arb]:
    """One comparison of δ(ε; μ) with δ at ``work`` bits: the arb ball of δ(ε; μ)
    (:func:`_delta_ball`) against the ball of δ.  arb's comparisons are True only when they hold
    for every point of both balls, so True proves δ(ε; μ) <= δ and False proves δ(ε; μ) > δ;
    None when the balls overlap.  Returns the verdict and the ball (for the search hint)."""
    with working_precision(work):
        value = _delta_ball(ball(epsilon), ball(mu_squared).sqrt())
        bound = ball(delta)
        if value <= bound:
            return True, value
        if value > bound:
            return False, value
        return None, value


def _decide(epsilon: Fraction, mu_squared: Fraction,
            delta: Fraction) -> tuple[bool | None, float]:
    """True: δ(ε; μ) <= δ proved; False: δ(ε; μ) > δ proved; None: undecided at MAX_PRECISION.

    First one comparison of balls at WORK_PRECISION + _GUARD bits (:func:`_compare_delta`),
    which decides every probe not within about 2^-64 relative of the threshold; then the
    enclosures of :func:`_delta_from_mu` at doubling precision from WORK_PRECISION to
    MAX_PRECISION (as if the comparison had not been made).  The float is a search hint (see
    :func:`_bisect`), never a verdict: √(2 ln(1/δ)) − √(2 ln(1/δ(ε; μ))) at the midpoint, which
    has the sign of δ(ε; μ) − δ and is nearly linear in σ and in ε (√(2 ln(1/Φ(−A))) ≈ A, and
    A = ε/μ − μ/2 is linear in ε and nearly so in σ), so the regula falsi converges in few steps.
    """
    target = _guide_target(delta)
    verdict, value = _compare_delta(epsilon, mu_squared, delta, WORK_PRECISION + _GUARD)
    if verdict is not None:
        return verdict, _guide(_log_mid(value), target)
    prec = WORK_PRECISION
    while True:
        box, log_mid = _delta_from_mu(epsilon, mu_squared, prec)
        guide = _guide(log_mid, target)
        if box.hi <= delta:
            return True, guide
        if box.lo > delta:
            return False, guide
        if prec >= MAX_PRECISION:
            return None, guide
        prec *= 2


def _guide_target(delta: Fraction) -> float:
    """√(2 ln(1/δ)) as a float (the target of :func:`_guide`)."""
    return math.sqrt(2 * max(0.0, math.log(delta.denominator) - math.log(delta.numerator)))


def _guide(log_mid: float, target: float) -> float:
    """The search hint of :func:`_decide`: target − √(2 ln(1/δ)) at ln δ = log_mid."""
    return target - math.sqrt(-2 * min(log_mid, 0.0))


_HINT_BITS: Final = 64
"""Precision of the unproved evaluations behind a search's float proposal (:func:`_proposal`)."""


def _float_guide(epsilon: arb, mu: arb, target: float) -> float:
    """:func:`_guide` at one point, a proposal only, never a verdict: from binary64 arithmetic
    (:func:`_float_log_delta`) when its cancellation is mild, else from one arb evaluation at
    the current precision (the callers hold _HINT_BITS); nan when neither is finite."""
    log_delta = _float_log_delta(float(epsilon.mid()), float(mu.mid()))
    if log_delta is not None:
        return _guide(log_delta, target)
    value = _delta_ball(epsilon, mu)
    if not value.is_finite():
        return math.nan
    return _guide(_log_mid(value), target)


_SQRT2: Final = math.sqrt(2)
_LOG_SQRT_2PI: Final = 0.5 * math.log(2 * math.pi)


def _float_log_normal_tail(x: float) -> float:
    """ln Φ(−x) in binary64 (erfc below x = 30, the asymptotic series beyond); a hint only."""
    if x < 30:
        return math.log(0.5 * math.erfc(x / _SQRT2))
    return -x * x / 2 - math.log(x) - _LOG_SQRT_2PI + math.log1p(-1 / x**2 + 3 / x**4)


def _float_log_delta(epsilon: float, mu: float) -> float | None:
    """ln δ(ε; μ) of Balle-Wang's formula in binary64, or None when the two terms cancel to
    within 10⁻³ of each other (or a value is not finite): a search hint only, never a verdict."""
    if not (math.isfinite(epsilon) and math.isfinite(mu) and mu > 0):
        return None
    ratio, half = epsilon / mu, mu / 2
    try:
        first = _float_log_normal_tail(ratio - half)
        log_ratio = epsilon + _float_log_normal_tail(ratio + half) - first
    except (ValueError, OverflowError):
        return None
    if not math.isfinite(log_ratio) or log_ratio > -1e-3:
        return None
    return first + math.log1p(-math.exp(log_ratio))


def _log_mid(value: arb) -> float:
    """ln of the ball's midpoint as a float (a hint only), −1e6 when it is not positive."""
    middle = value.mid()
    return float(middle.log().mid()) if middle > 0 else -1e6


def _proposal(guide: Callable[[float], float], x0: float, x1: float,
              tol: Fraction) -> float | None:
    """The root of a float guide decreasing in x by the secant method from x0 and x1, stopped
    when a step is below tol/64 relative (or 1e-14), or None if it does not converge within 40
    steps (a proposal only: :func:`_bisect` proves both ends of the bracket it returns)."""
    enough = max(float(tol) / 64, 1e-14)
    g0, g1 = guide(x0), guide(x1)
    for _ in range(40):
        if not (math.isfinite(g0) and math.isfinite(g1)) or g0 == g1:
            return None
        x2 = x1 - g1 * (x1 - x0) / (g1 - g0)
        if not (math.isfinite(x2) and x2 > 0):
            return None
        if abs(x2 - x1) <= enough * x2:
            return x2
        x0, g0, x1, g1 = x1, g1, x2, guide(x2)
    return None


def _safe(epsilon: Fraction, queries: Fraction, sigma: Fraction,
          delta: Fraction) -> tuple[bool | None, float]:
    """:func:`_decide` at μ² = q/σ²: True proves δ(ε; σ) <= δ, False proves δ(ε; σ) > δ."""
    return _decide(epsilon, _mu_squared(queries, sigma), delta)


def _tolerance(value: object) -> Fraction:
    t = to_fraction(value, "tolerance")
    if not Fraction(1, 1 << 200) <= t < 1:
        raise InvalidArgument(f"tolerance={t} must lie in [2^-200, 1)")
    return t


def calibrate_sigma(queries: ExactInput, epsilon: ExactInput, delta: ExactInput,
                    tolerance: ExactInput = DEFAULT_TOLERANCE) -> Interval:
    """[σ_lo, σ_hi] around the least σ for which q sensitivity-1 Gaussian queries are (ε, δ)-DP.

    Guarantee: δ(ε; σ_hi) <= δ is proved (σ_hi is safe) and δ(ε; σ_lo) > δ is proved (σ_lo is
    not), so, δ(ε; σ) being decreasing in σ, the calibrated σ lies in (σ_lo, σ_hi].  Bisection on
    exact rationals until σ_hi − σ_lo <= tolerance·σ_hi, or until a midpoint stays undecided at
    MAX_PRECISION (the bracket returned is then wider, still proved).  Source: Balle-Wang 2018
    Theorem 8 and Algorithm 1 (analytic calibration), as used for 001 Table 4.
    """
    q = _queries(queries)
    e = _positive(epsilon, "epsilon")
    d = _open_unit(delta, "delta")
    tol = _tolerance(tolerance)
    # start from the zCDP calibration (safe by 001 Lemma 51, but verified here, not assumed)
    start = _lemma51_sigma_above(q, e, d)
    target = _guide_target(d)
    with working_precision(_HINT_BITS):
        root_q, eps = ball(q).sqrt(), ball(e)
        guess = _proposal(lambda s: _float_guide(eps, root_q / arb(s), target), float(start),
                          float(start) / 2, tol)
    return _bisect(lambda s: _safe(e, q, s, d), start, tol, "sigma", increasing_safe=True,
                   guess=guess)


_START_BITS: Final = 64
"""Significant bits of the searches' starting points (001 Lemma 51's σ and ε, rounded up)."""


def _above(value: arb) -> Fraction:
    """A rational >= every point of the ball, with _START_BITS significant bits (arb's upper()
    rounds up at the working precision)."""
    with working_precision(_START_BITS):
        return to_interval(value, "the search's start").hi


def _lemma51_sigma_above(q: Fraction, epsilon: Fraction, delta: Fraction) -> Fraction:
    """√q·(√(2L) + √(2L + 2ε))/(2ε), L = ln(1/δ) (the one-query :func:`algorithm1_sigma`
    scaled to q queries), rounded up: safe by 001 Lemma 51."""
    with working_precision(2 * _START_BITS):
        two_l = 2 * _log_inverse(delta)
        e = ball(epsilon)
        return _above(ball(q).sqrt() * (two_l.sqrt() + (two_l + 2 * e).sqrt()) / (2 * e))


def _lemma51_epsilon_above(rho: Fraction, delta: Fraction) -> Fraction:
    """ρ + 2√(ρ ln(1/δ)) (:func:`zcdp_epsilon`) rounded up: safe by 001 Lemma 51."""
    with working_precision(2 * _START_BITS):
        r = ball(rho)
        return _above(r + 2 * (r * _log_inverse(delta)).sqrt())


def _log_inverse(delta: Fraction) -> arb:
    """ln(1/δ) for 0 < δ < 1 as a positive ball: −ln(1 − (1 − δ)) through log1p when δ > 1/2, so
    δ = 1 − 10^-60 is not lost to rounding δ itself to the working precision."""
    if delta > Fraction(1, 2):
        return -(-ball(1 - delta)).log1p()
    return -ball(delta).log()


def _bisect(safe: Callable[[Fraction], tuple[bool | None, float]], start: Fraction,
            tol: Fraction, what: str, *, increasing_safe: bool,
            guess: float | None = None) -> Interval:
    """Bracket the threshold of a monotone predicate and narrow it; see the two callers.

    ``safe(x)`` returns (True: proved safe / False: proved unsafe / None, a float guide); safety
    holds for every x above the threshold.  The float guide (positive on the unsafe side, see
    :func:`_decide`) only proposes where to test next: the secant through the last two probes
    when it falls inside the bracket and the previous proposal at least halved it, else regula
    falsi (Illinois), with a plain bisection every third step; each proposal is tested by a pair
    of probes tolerance·hi/2 apart.  ``guess`` (a float root proposed by :func:`_proposal`), when
    given, is tested first by the same pair: its upper probe, then its lower one as the first
    step of the downward search.  Every bracket end is a proved verdict.  Returns [unsafe, safe].
    """
    assert increasing_safe
    steps = 0
    hi = start
    verdict, g_hi = safe(hi)
    while verdict is not True:
        hi *= 2
        steps += 1
        if steps > MAX_BISECTION // 4:
            raise TooLargeToEnumerate(f"no safe {what} found below {float(hi):.6g} within "
                                      f"MAX_BISECTION={MAX_BISECTION} steps")
        verdict, g_hi = safe(hi)
    lo = hi / 2
    known: tuple[bool | None, float] | None = None  # the verdict at lo, when already probed
    if guess is not None and 0 < guess < hi:  # a float proposal: one probe pair around it
        step = tol * Fraction(guess) / 4
        below = Interval.point(Fraction(guess) - step).rounded(64).lo
        above = min(hi, Interval.point(Fraction(guess) + step).rounded(64).hi)
        steps += 1
        v_above, g_above = safe(above)
        if v_above is True:
            hi, g_hi = above, g_above
            lo = below if below > 0 else hi / 2
        elif v_above is False:  # already proved unsafe: the downward search starts there
            lo, known = above, (v_above, g_above)
    while True:
        verdict, g_lo = known if known is not None else safe(lo)
        known = None
        if verdict is False:
            break
        if verdict is True:
            hi, g_hi = lo, g_lo
        lo /= 2
        steps += 1
        if steps > MAX_BISECTION // 2:
            raise TooLargeToEnumerate(f"no unsafe {what} found above {float(lo):.6g} within "
                                      f"MAX_BISECTION={MAX_BISECTION} steps")
    last = "both"
    recent = [(hi, g_hi), (lo, g_lo)]  # the last two probes, for the secant proposal
    shrunk = True  # the last proposal at least halved the bracket
    while hi - lo > tol * hi and steps < MAX_BISECTION:
        steps += 1
        mid = (lo + hi) / 2
        proposal = _secant(recent, lo, hi) if shrunk else None
        if proposal is None and g_lo > g_hi and steps % 3 != 0:  # regula falsi
            proposal = hi - (hi - lo) * Fraction(g_hi / (g_hi - g_lo))
        if proposal is not None:  # the proposal, bracketed by a probe pair
            width = hi - lo
            step = tol * hi / 4
            below = max(lo, Interval.point(proposal - step).rounded(64).lo)  # short probes
            above = min(hi, Interval.point(proposal + step).rounded(64).hi)
            v_below, g_below = safe(below)
            v_above, g_above = safe(above)
            recent = [(below, g_below), (above, g_above)]
            if v_below is False:
                lo, g_lo = below, g_below
            elif v_below is True:
                hi, g_hi = below, g_below
            if v_above is True and above < hi:
                hi, g_hi = above, g_above
            elif v_above is False and above > lo:
                lo, g_lo = above, g_above
            if v_below is None or v_above is None:
                break
            side = "hi" if v_below is True else ("lo" if v_above is False else "both")
            if side == last == "lo":  # Illinois: an end kept twice has its hint halved
                g_hi /= 2
            elif side == last == "hi":
                g_lo /= 2
            last = side
            shrunk = 2 * (hi - lo) <= width
            continue
        verdict, g_mid = safe(mid)
        recent = [recent[-1], (mid, g_mid)]
        shrunk = True
        if verdict is None:
            break
        if verdict:
            hi, g_hi = mid, g_mid
        else:
            lo, g_lo = mid, g_mid
    return Interval(lo, hi)


def _secant(recent: list[tuple[Fraction, float]], lo: Fraction, hi: Fraction) -> Fraction | None:
    """The root of the line through the last two (probe, guide) pairs, if it lies strictly inside
    (lo, hi); None otherwise (equal or non-finite guides, or outside).  A proposal only."""
    (x1, g1), (x2, g2) = recent[-2], recent[-1]
    if x1 == x2 or g1 == g2 or not math.isfinite(g1) or not math.isfinite(g2):
        return None
    guess = x2 - (x2 - x1) * Fraction(g2 / (g2 - g1))
    return guess if lo < guess < hi else None


def epsilon_ex_post(sigma: Interval | ExactInput, realized: ExactInput, delta: ExactInput,
                    tolerance: ExactInput = DEFAULT_TOLERANCE) -> Interval:
    """Enclosure of the least ε with δ(ε; μ = √R/σ) <= δ after R realized queries.

    ``sigma`` is a rational σ or an Interval [σ_lo, σ_hi] holding the true σ (as returned by
    :func:`calibrate_sigma`); ε is decreasing in σ, so the lower end is computed at σ_hi and the
    upper end at σ_lo.  At each σ the lower end ε_lo is proved unsafe (δ(ε_lo) > δ) and the upper
    end proved safe, or the answer is exactly 0 when δ(0) <= δ is proved.  ``realized`` is any
    rational R > 0 (001 Table 4 reports averages, e.g. 401/10).  Source: the ex-post accounting
    of 001 Section 5 (Table 4), with Balle-Wang 2018 Theorem 8.
    """
    d = _open_unit(delta, "delta")
    r = _positive(realized, "realized")
    tol = _tolerance(tolerance)
    if isinstance(sigma, Interval):
        if sigma.lo <= 0:
            raise InvalidArgument(f"sigma={sigma} must be > 0")
        low = _epsilon_at(sigma.hi, r, d, tol)
        high = low if sigma.is_point else _epsilon_at(sigma.lo, r, d, tol)
        return Interval(low.lo, high.hi)
    return _epsilon_at(_positive(sigma, "sigma"), r, d, tol)


def _epsilon_at(sigma: Fraction, realized: Fraction, delta: Fraction, tol: Fraction) -> Interval:
    """The ex-post ε at one σ (see :func:`epsilon_ex_post`); R may be below 1 here."""
    mu_squared = _mu_squared(realized, sigma)

    def safe(eps: Fraction) -> tuple[bool | None, float]:
        return _decide(eps, mu_squared, delta)

    if safe(Fraction(0))[0] is True:
        return Interval.point(0)
    start = _lemma51_epsilon_above(realized / (2 * sigma * sigma), delta)
    target = _guide_target(delta)
    with working_precision(_HINT_BITS):
        mu = ball(mu_squared).sqrt()
        guess = _proposal(lambda e: _float_guide(arb(e), mu, target), float(start),
                          float(start) / 2, tol)
    return _bisect(safe, start, tol, "epsilon", increasing_safe=True, guess=guess)
