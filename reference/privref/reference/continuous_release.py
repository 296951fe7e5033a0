"""Releasing a continuous noisy value: the Laplace and Gaussian mechanisms, decided exactly.

A program draws continuous noise with ``z = yield NoiseDraw(noise)`` and may only shift,
negate and return it (``return value + z``), as with the integer noise of
:mod:`privref.reference.discrete_noise`.  Both interpreters read that one definition:

* the exact interpreter sends an :class:`~privref.reference.program.Affine` placeholder, so a
  path contributes ``P(path)·f(y − value)`` to the output's density;
  :mod:`privref.audits._released` decides the claims from the density ratio (the privacy loss
  is a supremum over a continuum of outputs; nothing is sampled);
* the sampler draws Z by inversion of an exact uniform: U = (k + 1/2)/2^64 with k the next 64
  random bits of ``rng``, and Z = F⁻¹(U) as an exact :class:`~privref.reference.reals.Real`
  (Laplace: b·ln(2U) or −b·ln(2(1 − U)); Gaussian: σ√2·erfinv(2U − 1), enclosed by arb).  The
  draw is the noise law discretised in U to 2^-64 (each of the 2^64 cells gets its midpoint),
  and no float is computed.

Noise laws: :class:`~privref.reference.continuous_noise.LaplaceNoise` and
:class:`~privref.reference.continuous_noise.GaussianNoise` (symmetric, so ``value − z`` has
the law of ``value + z``).  Offsets are exact rationals.

The mechanisms: :func:`laplace_mechanism` (Dwork, McSherry, Nissim, Smith 2006: a query of
sensitivity Δ plus Lap(Δ/ε) is ε-DP, tight) and :func:`gaussian_mechanism` (Balle and Wang 2018,
Theorem 8: with μ = Δ/σ it is (ε, δ(ε))-DP exactly for δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ)).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ._arb import arb, real_ball, to_interval, working_precision
from .accounting import analytic_gaussian_delta
from .citations import cite
from .continuous_noise import GaussianNoise, LaplaceNoise
from .data import Dataset
from .errors import InvalidArgument
from .geometric import bounded_sum
from .mechanism import Mechanism
from .privacy import PrivacyClaim
from .program import ContinuousChoice, Program
from .reals import MAX_PRECISION, Interval, Prob, Real, log, rational
from .validate import ExactInput, check_delta, check_int, check_positive, to_fraction

__all__ = ["NoiseDraw", "gaussian_mechanism", "laplace_mechanism", "release"]

_UNIFORM_BITS = 64


@dataclass(frozen=True, slots=True, eq=False)
class _InverseNormal(Real):
    """σ√2·erfinv(2u − 1) for a rational u in (0, 1): an exact Real enclosed by arb."""

    u: Fraction = Fraction(1, 2)
    sigma: Fraction = Fraction(1)
    unit: Real | None = field(default=None, compare=False)

    def _compute(self, prec: int) -> Interval:
        work = max(32, min(prec, MAX_PRECISION)) + 32
        with working_precision(work):
            z = (2 * arb(self.u.numerator) / self.u.denominator - 1).erfinv() * arb(2).sqrt()
            z *= arb(self.sigma.numerator) / self.sigma.denominator
            if self.unit is not None:
                z *= real_ball(self.unit)
            return to_interval(z, "a Gaussian draw").rounded(prec)

    def __str__(self) -> str:
        return f"N^-1({self.u})"

    __repr__ = __str__


@dataclass(frozen=True, slots=True)
class NoiseDraw(ContinuousChoice):
    """One draw of continuous Laplace or Gaussian noise, to be shifted and returned.

    Exact interpreter: an Affine placeholder (module docstring).  Sampler: Z = F⁻¹(U) for the
    64-bit midpoint uniform U, an exact Real.
    """

    noise: LaplaceNoise | GaussianNoise

    def __post_init__(self) -> None:
        if not isinstance(self.noise, LaplaceNoise | GaussianNoise):
            raise InvalidArgument(f"noise={self.noise!r} must be a LaplaceNoise or GaussianNoise "
                                  "(a released value needs a symmetric law with a density)")

    def branches(self, prec: int) -> list[tuple[Any, Prob]]:
        """Never enumerated: the exact interpreter sends an Affine placeholder instead."""
        raise InvalidArgument("a continuous draw has no finite branches")

    def draw(self, rng: np.random.Generator) -> Real:
        """Z = F⁻¹(U), U = (k + 1/2)/2^64 from the next 64 bits of ``rng`` (exact)."""
        k = int(rng.integers(0, 1 << _UNIFORM_BITS, dtype=np.uint64))
        u = Fraction(2 * k + 1, 1 << (_UNIFORM_BITS + 1))
        scale = rational(self.noise.scale) if self.noise.unit is None \
            else self.noise.unit * self.noise.scale
        if isinstance(self.noise, GaussianNoise):
            return _InverseNormal("erfinv", u=u, sigma=self.noise.scale, unit=self.noise.unit)
        if u < Fraction(1, 2):
            return log(rational(2 * u)) * scale
        return -(log(rational(2 * (1 - u))) * scale)


def release(noise: LaplaceNoise | GaussianNoise, value: ExactInput) -> Program[Fraction | Real]:
    """Yield one draw Z of ``noise`` and return ``value + Z`` (the released noisy value)."""
    v = to_fraction(value, "value")
    draw = NoiseDraw(noise)

    def run() -> Program[Fraction | Real]:
        z: Real = yield draw  # an Affine placeholder under the exact interpreter
        return v + z

    return run()


Query = Callable[[Dataset], int]


def _query(query: Query | None, sensitivity: int) -> tuple[Query, bool]:
    check_int(sensitivity, "sensitivity", minimum=1)
    return (bounded_sum(sensitivity), True) if query is None else (query, False)


def _additive(noise: LaplaceNoise | GaussianNoise, query: Query
              ) -> Callable[[Dataset], Program[Fraction | Real]]:
    def program(data: Dataset) -> Program[Fraction | Real]:
        return (yield from release(noise, query(data)))
    return program


def laplace_mechanism(epsilon: ExactInput, sensitivity: int = 1, *,
                      query: Query | None = None) -> Mechanism[Fraction | Real]:
    """query(D) + Lap(Δ/ε), claiming ε-DP (Dwork, McSherry, Nissim, Smith 2006; tight).

    The default query is the bounded sum (entries ints in [0, Δ]); a custom query's
    sensitivity Δ under substitution is the caller's precondition.  InvalidArgument names
    epsilon (<= 0) or sensitivity (< 1).
    """
    eps = check_positive(to_fraction(epsilon, "epsilon"), "epsilon")
    q, invariant = _query(query, sensitivity)
    noise = LaplaceNoise(Fraction(sensitivity) / eps)
    return Mechanism("Laplace mechanism (continuous)", _additive(noise, q),
                     PrivacyClaim(rational(eps)), cite("folklore Dwork-McSherry-Nissim-Smith 2006"),
                     order_invariant=invariant,
                     description=f"query + continuous Laplace noise of scale {noise.scale}, "
                                 f"sensitivity={sensitivity}")


def gaussian_mechanism(sigma: ExactInput, sensitivity: int = 1, *, epsilon: ExactInput = 1,
                       query: Query | None = None) -> Mechanism[Fraction | Real]:
    """query(D) + N(0, σ²), claiming (ε, δ(ε)) with Balle and Wang's exact δ(ε) for μ = Δ/σ.

    δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) (Balle and Wang 2018, Theorem 8;
    :func:`~privref.reference.accounting.analytic_gaussian_delta`), rounded up to a rational
    at 64 bits: the claim holds and is nearly tight.  InvalidArgument names sigma (<= 0),
    epsilon (<= 0) or sensitivity (< 1), or delta when δ(ε) is not in (0, 1).
    """
    s = check_positive(to_fraction(sigma, "sigma"), "sigma")
    eps = check_positive(to_fraction(epsilon, "epsilon"), "epsilon")
    q, invariant = _query(query, sensitivity)
    delta = analytic_gaussian_delta(eps, sensitivity * sensitivity, s).rounded(64).hi
    check_delta(delta)
    return Mechanism("Gaussian mechanism (continuous)", _additive(GaussianNoise(s), q),
                     PrivacyClaim(rational(eps), delta), cite("folklore Balle-Wang 2018 Theorem 8"),
                     order_invariant=invariant,
                     description=f"query + continuous N(0, sigma^2) noise, sigma={s}, "
                                 f"sensitivity={sensitivity}")
