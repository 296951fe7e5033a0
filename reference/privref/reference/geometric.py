"""Additive integer-noise mechanisms: geometric, discrete Laplace and discrete Gaussian.

Each mechanism releases ``query(data) + Z`` for a noise law Z from
:mod:`privref.reference.discrete_noise`.  The default query is the bounded sum: every
entry must be an int in [0, Δ] (0/1 values give the count, Δ = 1), so
substituting one entry moves the sum by at most Δ.  A custom ``query`` may be
given; its sensitivity Δ under substitution is then the caller's precondition.

The exact interpreter returns each output law as affine components
(``count + noise``) with closed-form tails, audited by :mod:`privref.audits._tails`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from .accounting import zcdp_epsilon
from .citations import cite
from .data import Dataset
from .discrete_noise import DiscreteGaussian, DiscreteLaplace, NoiseLaw, TwoSidedGeometric
from .errors import InvalidArgument
from .mechanism import Mechanism
from .privacy import PrivacyClaim
from .program import Program
from .reals import log, rational
from .validate import ExactInput, check_delta, check_int, to_fraction

__all__ = [
    "bounded_sum",
    "discrete_gaussian_claim",
    "discrete_gaussian_mechanism",
    "discrete_laplace_mechanism",
    "geometric_mechanism",
]

Query = Callable[[Dataset], int]


def bounded_sum(sensitivity: int) -> Query:
    """The sum of entries, each required to be an int in [0, sensitivity] (sensitivity Δ)."""
    def query(data: Dataset) -> int:
        total = 0
        for i, x in enumerate(data):
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= sensitivity:
                raise InvalidArgument(f"data[{i}]={x!r} must be an int in [0, {sensitivity}]")
            total += x
        return total
    return query


def _additive(noise: NoiseLaw, query: Query) -> Callable[[Dataset], Program[int]]:
    def program(data: Dataset) -> Program[int]:
        value = query(data)
        z: int = yield noise
        return value + z  # an Affine placeholder under the exact interpreter
    return program


def _query(query: Query | None, sensitivity: int) -> tuple[Query, bool]:
    check_int(sensitivity, "sensitivity", minimum=1)
    return (bounded_sum(sensitivity), True) if query is None else (query, False)


def geometric_mechanism(alpha: ExactInput, sensitivity: int = 1, *, query: Query | None = None
                        ) -> Mechanism[int]:
    """query(D) + Z with Z two-sided geometric, P(z) ∝ α^{|z|}, 0 < α < 1 rational.

    Guarantee: (Δ·ln(1/α))-DP under substitution (Ghosh, Roughgarden,
    Sundararajan 2009): P(o)/P(o') = α^{|o-c'| - |o-c|} <= α^{-Δ} for |c - c'| <= Δ,
    tight.  Every probability is rational, so audits decide the claim exactly.
    """
    noise = TwoSidedGeometric(to_fraction(alpha, "alpha"))
    q, invariant = _query(query, sensitivity)
    eps = log(1 / noise.alpha) * sensitivity
    return Mechanism("geometric", _additive(noise, q), PrivacyClaim(eps),
                     cite("folklore Ghosh-Roughgarden-Sundararajan 2009"),
                     order_invariant=invariant,
                     description=f"count + two-sided geometric noise, alpha={noise.alpha}, "
                                 f"sensitivity={sensitivity}")


def discrete_laplace_mechanism(scale: ExactInput, sensitivity: int = 1, *,
                               query: Query | None = None) -> Mechanism[int]:
    """query(D) + Z with Z discrete Laplace of scale t, P(z) ∝ e^{-|z|/t}.

    Guarantee: (Δ/t)-DP under substitution (the geometric mechanism with
    α = e^{-1/t}; Ghosh et al. 2009), tight; epsilon is rational.
    """
    noise = DiscreteLaplace(to_fraction(scale, "scale"))
    q, invariant = _query(query, sensitivity)
    return Mechanism("discrete Laplace", _additive(noise, q),
                     PrivacyClaim(rational(Fraction(sensitivity) / noise.scale)),
                     cite("folklore Canonne-Kamath-Steinke 2020 discrete Laplace"), order_invariant=invariant,
                     description=f"count + discrete Laplace noise, scale={noise.scale}, "
                                 f"sensitivity={sensitivity}")


def discrete_gaussian_claim(sigma2: Fraction, sensitivity: int, delta: Fraction) -> PrivacyClaim:
    """(ρ + 2√(ρ·ln(1/δ)), δ) with ρ = Δ²/(2σ²), exact reals; 0 < δ < 1.

    The discrete Gaussian mechanism is ρ-zCDP (CKS20 Theorem 4), and ρ-zCDP
    implies (ρ + 2√(ρ ln(1/δ)), δ)-DP for every δ > 0 (Bun and Steinke 2016,
    Proposition 1.3; the conversion is :func:`privref.reference.accounting.zcdp_epsilon`).
    """
    if delta <= 0:
        raise InvalidArgument(f"delta={delta} must be > 0 (the discrete Gaussian is not pure DP)")
    rho = Fraction(sensitivity**2) / (2 * sigma2)
    return PrivacyClaim(zcdp_epsilon(rho, delta), delta)


def discrete_gaussian_mechanism(sigma2: ExactInput, sensitivity: int = 1, *,
                                delta: ExactInput = Fraction(1, 10**6),
                                query: Query | None = None) -> Mechanism[int]:
    """query(D) + Z with Z discrete Gaussian, P(z) ∝ e^{-z²/(2σ²)}.

    Guarantee: (ρ + 2√(ρ ln(1/δ)), δ)-DP with ρ = Δ²/(2σ²) (see
    :func:`discrete_gaussian_claim`); sound, not tight.  At δ = 0 the privacy
    loss is unbounded.
    """
    noise = DiscreteGaussian(to_fraction(sigma2, "sigma2"))
    q, invariant = _query(query, sensitivity)
    claim = discrete_gaussian_claim(noise.sigma2, sensitivity, check_delta(delta))
    return Mechanism("discrete Gaussian", _additive(noise, q), claim,
                     cite("folklore Canonne-Kamath-Steinke 2020 Theorem 4"),
                     order_invariant=invariant,
                     description=f"count + discrete Gaussian noise, sigma2={noise.sigma2}, "
                                 f"sensitivity={sensitivity}")
