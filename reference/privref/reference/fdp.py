"""f-differential privacy: Gaussian DP and the trade-off curve of (ε, δ)-DP, as proved enclosures.

Source: Dong, Roth & Su, "Gaussian differential privacy", JRSS-B 2022 (arXiv 1905.02383; the
numbers below are the arXiv version's).

* The trade-off function of two laws P, Q is T(P, Q)(α) = inf {β_φ : α_φ <= α} over rejection
  rules φ, with α_φ = E_P[φ] and β_φ = 1 − E_Q[φ] (Definition 2.1); a mechanism is f-DP when
  T(M(D), M(D')) >= f for all neighbours (Definition 2.3).
* μ-GDP is G_μ-DP for G_μ = T(N(0, 1), N(μ, 1)), G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) (Definition 2.6);
  the Gaussian mechanism with sensitivity Δ and noise σ is (Δ/σ)-GDP (Theorem 2.7).
* μ-GDP holds iff (ε, δ(ε))-DP holds for every ε >= 0 with δ(ε) = Φ(−ε/μ + μ/2) −
  e^ε Φ(−ε/μ − μ/2) (Corollary 2.13): Balle and Wang's analytic Gaussian profile, which
  :func:`privref.reference.accounting.analytic_gaussian_delta` encloses (the one implementation;
  :meth:`GaussianDP.delta` calls it).
* The n-fold composition of μ_i-GDP mechanisms is √(μ_1² + … + μ_n²)-GDP (Corollary 3.3).
* (ε, δ)-DP is f_{ε,δ}-DP for f_{ε,δ}(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α))
  (Wasserman & Zhou 2010; Dong, Roth & Su Proposition 2.5 and equation (4)).

A :class:`GaussianDP` holds μ² as an exact rational, so composition is exact.  Φ⁻¹ is enclosed
by bisection on rationals, each step decided by the proved Φ enclosure
:func:`privref.reference.accounting.normal_cdf`; no float decides anything.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Final

from .accounting import MAX_PRECISION, analytic_gaussian_delta, normal_cdf
from .errors import InvalidArgument, TooLargeToEnumerate
from .privacy import parse_epsilon
from .reals import Interval, Real, exp, interval_sqrt
from .validate import ExactInput, check_delta, check_int, to_fraction

__all__ = ["QUANTILE_RANGE", "GaussianDP", "dp_tradeoff", "gaussian_dp", "normal_quantile"]

QUANTILE_RANGE: Final = Fraction(64)
"""|Φ⁻¹(p)| <= 64 is supported: Φ(−64) ≈ 10⁻⁸⁹⁰; a p closer to 0 or 1 raises."""


def _precision(prec: object) -> int:
    return check_int(prec, "prec", minimum=32, maximum=MAX_PRECISION)


def _decided(x: Fraction, p: Fraction, prec: int) -> int:
    """−1 if Φ(x) < p is proved, +1 if Φ(x) > p, 0 if undecided up to MAX_PRECISION bits."""
    work = prec
    while True:
        box = normal_cdf(x, work)
        if box.hi < p:
            return -1
        if box.lo > p:
            return 1
        if work >= MAX_PRECISION:
            return 0
        work = min(2 * work, MAX_PRECISION)


_GUIDE_WIDTH: Final = Fraction(1, 1 << 36)
"""Half-width of the first bracket tried around the float guide."""


def _start(q: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """A bracket with Φ(lo) < q < Φ(hi) proved: around a float guess (which only proposes where
    to look; both ends are proved, else the guess is dropped), else [−64, 64]."""
    try:
        guess = Fraction(NormalDist().inv_cdf(float(q)))
    except (ValueError, OverflowError):  # q underflows to 0.0 or rounds to 1.0: no guess
        guess = None
    if guess is not None and abs(guess) < QUANTILE_RANGE:
        lo, hi = guess - _GUIDE_WIDTH, guess + _GUIDE_WIDTH
        if _decided(lo, q, bits) == -1 and _decided(hi, q, bits) == 1:
            return lo, hi
    lo, hi = -QUANTILE_RANGE, QUANTILE_RANGE
    if _decided(lo, q, bits) != -1 or _decided(hi, q, bits) != 1:
        raise TooLargeToEnumerate(f"p={q}: Φ⁻¹(p) is not proved to lie in "
                                  f"[−{QUANTILE_RANGE}, {QUANTILE_RANGE}]")
    return lo, hi


def normal_quantile(p: ExactInput, prec: int = 64) -> Interval:
    """[lo, hi] containing Φ⁻¹(p) for 0 < p < 1, of width at most 2^-prec (unless Φ cannot
    separate p from Φ(mid) at MAX_PRECISION bits, when the wider bracket is returned).

    Bisection on rationals (the first bracket proposed by a float guess, kept only when both
    ends are proved): the invariant Φ(lo) < p < Φ(hi) is proved at every step by
    :func:`~privref.reference.accounting.normal_cdf`'s enclosure (Abramowitz & Stegun 7.1.6 and
    26.2.14).  Raises TooLargeToEnumerate when |Φ⁻¹(p)| > :data:`QUANTILE_RANGE`.
    """
    q = to_fraction(p, "p")
    if not 0 < q < 1:
        raise InvalidArgument(f"p={q} must be in (0, 1)")
    bits = _precision(prec)
    if q == Fraction(1, 2):
        return Interval.point(0)
    lo, hi = _start(q, bits)
    target = Fraction(1, 1 << bits)
    while hi - lo > target:
        mid = (lo + hi) / 2
        side = _decided(mid, q, bits + 8)
        if side == 0:
            break
        if side < 0:
            lo = mid
        else:
            hi = mid
    return Interval(lo, hi)


def _unit(alpha: ExactInput) -> Fraction:
    a = to_fraction(alpha, "alpha")
    if not 0 <= a <= 1:
        raise InvalidArgument(f"alpha={a} must be in [0, 1]")
    return a


@dataclass(frozen=True, slots=True)
class GaussianDP:
    """μ-GDP (Dong, Roth & Su 2022, Definition 2.6), held by μ² >= 0 exactly."""

    mu_squared: Fraction

    def __post_init__(self) -> None:
        if not isinstance(self.mu_squared, Fraction) or self.mu_squared < 0:
            raise InvalidArgument(f"mu_squared={self.mu_squared!r} must be a Fraction >= 0")

    def mu(self, prec: int = 64) -> Interval:
        """[lo, hi] containing μ = √(μ²), relative width about 2^-prec."""
        return interval_sqrt(Interval.point(self.mu_squared), _precision(prec))

    def compose(self, *others: GaussianDP) -> GaussianDP:
        """The composition with ``others``: μ² adds up, μ = √(Σ μ_i²) (Dong, Roth & Su 2022,
        Corollary 3.3; adaptive composition)."""
        for o in others:
            if not isinstance(o, GaussianDP):
                raise InvalidArgument(f"others: {o!r} must be a GaussianDP")
        return GaussianDP(self.mu_squared + sum((o.mu_squared for o in others), Fraction(0)))

    def self_compose(self, k: int) -> GaussianDP:
        """The k-fold composition: μ² times k (Corollary 3.3)."""
        return GaussianDP(self.mu_squared * check_int(k, "k", minimum=1))

    def delta(self, epsilon: ExactInput, prec: int = 64) -> Interval:
        """[lo, hi] containing the least δ with (ε, δ)-DP implied by μ-GDP, for rational ε >= 0:
        δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Dong, Roth & Su 2022, Corollary 2.13; tight).

        Computed by :func:`~privref.reference.accounting.analytic_gaussian_delta` (Balle and
        Wang's identical profile) with q queries at noise s chosen so that q/s² = μ² exactly.
        """
        e = to_fraction(epsilon, "epsilon")
        if e < 0:
            raise InvalidArgument(f"epsilon={e} must be >= 0")
        p = _precision(prec)
        if self.mu_squared == 0:
            return Interval.point(0)
        scale = math.isqrt(math.ceil(1 / self.mu_squared)) + 1  # scale² μ² >= 1 (queries >= 1)
        return analytic_gaussian_delta(e, self.mu_squared * scale * scale, scale, p)

    def epsilon_at(self, delta: ExactInput, prec: int = 64) -> Fraction:
        """A rational ε >= 0 with δ_μ(ε) <= ``delta`` proved, so that μ-GDP implies (ε, δ)-DP
        (Dong, Roth & Su 2022, Corollary 2.13), within about 2^-30 (relative) above the least
        such ε.

        δ_μ is decreasing in ε (its derivative is −e^ε Φ(−ε/μ − μ/2) < 0), so the least ε is
        where δ_μ(ε) = δ.  A float bisection only proposes ε; the returned ε is kept only when
        the upper end of :meth:`delta`'s enclosure is <= δ (else it is raised, doubling the
        step).  ``delta`` in (0, 1) (InvalidArgument otherwise).
        """
        d = check_delta(delta)
        if d == 0:
            raise InvalidArgument(f"delta={d} must lie in (0, 1)")
        p = _precision(prec)
        if self.delta(0, p).hi <= d:
            return Fraction(0)
        mu = math.sqrt(float(self.mu_squared))
        normal = NormalDist()

        def approx(e: float) -> float:
            return normal.cdf(-e / mu + mu / 2) - math.exp(e) * normal.cdf(-e / mu - mu / 2)

        lo, hi = 0.0, 1.0
        while approx(hi) > float(d) and hi < 1e6:
            lo, hi = hi, 2 * hi
        for _ in range(80):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if approx(mid) > float(d) else (lo, mid)
        step = Fraction(1, 1 << 30) * max(Fraction(1), Fraction(hi))
        eps = Fraction(math.ceil(Fraction(hi) / step)) * step
        for _ in range(64):
            if self.delta(eps, p).hi <= d:
                return eps
            eps += step
            step *= 2
        raise TooLargeToEnumerate(f"delta={d}: no epsilon with delta_mu(epsilon) <= delta was "
                                  f"proved for mu^2={self.mu_squared}")

    def tradeoff(self, alpha: ExactInput, prec: int = 64) -> Interval:
        """[lo, hi] containing G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) for α in [0, 1] (Dong, Roth & Su 2022,
        Definition 2.6): the least type II error of a level-α test of N(0, 1) against N(μ, 1).

        G_μ(0) = 1, G_μ(1) = 0 and G_0(α) = 1 − α exactly.  Otherwise Φ⁻¹(1 − α) ∈ [z_lo, z_hi]
        (:func:`normal_quantile`) and μ ∈ [m_lo, m_hi]; Φ is increasing, so
        G_μ(α) ∈ [Φ(z_lo − m_hi), Φ(z_hi − m_lo)], each end from the proved Φ enclosure.
        """
        a = _unit(alpha)
        p = _precision(prec)
        if a in (0, 1):
            return Interval.point(1 - a)
        if self.mu_squared == 0:
            return Interval.point(1 - a)
        z = normal_quantile(1 - a, p + 8)
        m = self.mu(p + 8)
        return Interval(normal_cdf(z.lo - m.hi, p + 8).lo,
                        normal_cdf(z.hi - m.lo, p + 8).hi).rounded(p)


def gaussian_dp(mu: ExactInput) -> GaussianDP:
    """μ-GDP for a rational μ >= 0 (e.g. the Gaussian mechanism with Δ/σ = μ: Dong, Roth & Su
    2022, Theorem 2.7)."""
    m = to_fraction(mu, "mu")
    if m < 0:
        raise InvalidArgument(f"mu={m} must be >= 0")
    return GaussianDP(m * m)


def dp_tradeoff(epsilon: Real | ExactInput, delta: ExactInput, alpha: ExactInput,
                prec: int = 64) -> Interval:
    """[lo, hi] containing f_{ε,δ}(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α)), the trade-off
    curve of (ε, δ)-DP (Wasserman & Zhou 2010; Dong, Roth & Su 2022, Proposition 2.5): a point
    (the exact value) when e^ε is rational (ε = 0, ln 3, …), else an enclosure of relative width
    about 2^-prec.  ``epsilon`` is an exact real >= 0 (a Real, a rational, or 'ln(3)').
    """
    eps = parse_epsilon(epsilon)
    d = check_delta(delta)
    a = _unit(alpha)
    p = _precision(prec)
    t = exp(eps)
    exact = t.exact
    rest = 1 - d
    if exact is not None:
        return Interval.point(max(Fraction(0), rest - exact * a, (rest - a) / exact))
    box = t.enclose(p + 8)
    first = Interval(rest - box.hi * a, rest - box.lo * a)
    second = Interval((rest - a) / box.hi, (rest - a) / box.lo) if rest >= a else Interval(
        (rest - a) / box.lo, (rest - a) / box.hi)
    return Interval(max(Fraction(0), first.lo, second.lo),
                    max(Fraction(0), first.hi, second.hi)).rounded(p)
