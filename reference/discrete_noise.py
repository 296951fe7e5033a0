"""Integer noise with infinite support: two-sided geometric, discrete Laplace, discrete Gaussian.

Each law is an :class:`privref.reference.program.InfiniteChoice`: the exact
interpreter never enumerates it (it sends an ``Affine`` placeholder), the
auditor (:mod:`privref.audits._tails`) uses the closed-form law below, and
:meth:`draw` samples it exactly from integer randomness (only rational
Bernoulli trials and uniform integers; no float is ever drawn or compared).

Laws (all symmetric about 0, so ``-Z`` has the law of ``Z``):

* two-sided geometric, 0 < α < 1 rational:  P(z) = (1-α)/(1+α)·α^{|z|}
  (Ghosh, Roughgarden, Sundararajan 2009);
* discrete Laplace, scale t > 0 rational:   P(z) = (1-q)/(1+q)·q^{|z|}, q = e^{-1/t}
  (Canonne, Kamath, Steinke 2020, "The Discrete Gaussian for Differential
  Privacy", NeurIPS 2020, arXiv:2004.00010; CKS20 below);
* discrete Gaussian, σ² > 0 rational:       P(z) = e^{-z²/(2σ²)} / N,
  N = Σ_{z∈Z} e^{-z²/(2σ²)} (CKS20 Definition 1).

Samplers: CKS20 Algorithm 1 (Bernoulli(e^{-γ})), Algorithm 2 (discrete
Laplace) and Algorithm 3 (discrete Gaussian), with every comparison exact.
Array forms for many draws at once (:func:`bernoulli_exp_neg_array`,
:func:`discrete_laplace_array`) use numpy's exactly uniform bounded integers
(:func:`privref.reference._sampling.bernoulli_array`): the same laws, exactly,
from a different random stream than the scalar samplers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TypeAlias, cast

import numpy as np
import numpy.typing as npt

from ._sampling import bernoulli, bernoulli_array, uniform_int
from .errors import InvalidArgument
from .program import InfiniteChoice, Program
from .reals import DEFAULT_PRECISION, Interval, Prob, interval_exp
from .validate import check_int, check_positive, check_probability, to_fraction

__all__ = [
    "DiscreteGaussian",
    "DiscreteLaplace",
    "NoiseLaw",
    "TwoSidedGeometric",
    "bernoulli_exp_neg",
    "bernoulli_exp_neg_array",
    "discrete_gaussian",
    "discrete_laplace",
    "discrete_laplace_array",
    "sample_discrete_laplace",
    "two_sided_geometric",
]


# ------------------------------------------------------------------ samplers


def bernoulli_exp_neg(rng: np.random.Generator, gamma: Fraction) -> bool:
    """True with probability exactly e^{-γ}, for rational γ >= 0 (CKS20 Algorithm 1).

    For γ <= 1: draw A_k ~ Bernoulli(γ/k) for k = 1, 2, ... until the first
    failure at K; P(K > k) = γ^k/k!, so P(K odd) = Σ_k (-γ)^k/k! = e^{-γ}.
    For γ > 1: e^{-γ} = (e^{-1})^{⌊γ⌋}·e^{-(γ-⌊γ⌋)}, one independent trial per factor.
    """
    if gamma < 0:
        raise InvalidArgument(f"gamma={gamma} must be >= 0")
    whole = gamma.numerator // gamma.denominator
    if gamma > 1:
        for _ in range(whole):
            if not _bernoulli_exp_unit(rng, Fraction(1)):
                return False
        return _bernoulli_exp_unit(rng, gamma - whole)
    return _bernoulli_exp_unit(rng, gamma)


def _bernoulli_exp_unit(rng: np.random.Generator, gamma: Fraction) -> bool:
    """CKS20 Algorithm 1 proper, for 0 <= γ <= 1 (each Bernoulli(γ/k) is a valid probability)."""
    k = 1
    while bernoulli(rng, gamma / k):
        k += 1
    return k % 2 == 1


def _geometric_count(rng: np.random.Generator, alpha: Fraction) -> int:
    """Number of Bernoulli(α) successes before the first failure: P(G = k) = (1-α)α^k."""
    count = 0
    while bernoulli(rng, alpha):
        count += 1
    return count


def sample_discrete_laplace(rng: np.random.Generator, scale: Fraction) -> int:
    """One exact draw of the discrete Laplace law with scale t = n/s (CKS20 Algorithm 2).

    U uniform on {0..n-1} kept with probability e^{-U/n}, V ~ Geometric(1-e^{-1})
    via Algorithm 1, so X = U + nV has P(X = x) ∝ e^{-x/n}; Y = ⌊X/s⌋ has
    P(Y = y) ∝ e^{-ys/n}; a fair sign with the draw (-, 0) rejected gives
    P(Z = z) ∝ e^{-|z|/t} (the proof accompanying CKS20 Algorithm 2).
    """
    n, s = scale.numerator, scale.denominator
    while True:
        u = uniform_int(rng, n)
        if not bernoulli_exp_neg(rng, Fraction(u, n)):
            continue
        v = 0
        while bernoulli_exp_neg(rng, Fraction(1)):
            v += 1
        y = (u + n * v) // s
        negative = uniform_int(rng, 2) == 1
        if negative and y == 0:
            continue
        return -y if negative else y


def bernoulli_exp_neg_array(rng: np.random.Generator, gamma: Fraction, size: int
                            ) -> npt.NDArray[np.bool_]:
    """``size`` independent draws of Bernoulli(e^{-γ}) for rational γ >= 0, exactly (CKS20 Algorithm 1).

    The array form of :func:`bernoulli_exp_neg`: Algorithm 1 proper on γ - ⌊γ⌋
    for every draw at once, then one independent trial at γ = 1 per factor e^{-1}.
    """
    if gamma < 0:
        raise InvalidArgument(f"gamma={gamma} must be >= 0")
    whole = gamma.numerator // gamma.denominator
    out = _bernoulli_exp_unit_array(rng, gamma - whole, size)
    for _ in range(whole):
        out &= _bernoulli_exp_unit_array(rng, Fraction(1), size)
    return out


def _bernoulli_exp_unit_array(rng: np.random.Generator, gamma: Fraction, size: int
                              ) -> npt.NDArray[np.bool_]:
    """CKS20 Algorithm 1 for 0 <= γ <= 1 on ``size`` draws: A_k ~ Bernoulli(γ/k) until the first
    failure at K, P(K odd) = e^{-γ}; each round draws only for the draws still running."""
    out = np.empty(size, dtype=bool)
    active = np.arange(size)
    k = 1
    while active.size:
        success = bernoulli_array(rng, gamma / k, active.size)
        out[active[~success]] = k % 2 == 1
        active = active[success]
        k += 1
    return out


def _geometric_count_array(rng: np.random.Generator, gamma: Fraction, size: int
                           ) -> npt.NDArray[np.int64]:
    """Successes of Bernoulli(e^{-γ}) before the first failure: P(G = k) = (1 - e^{-γ})·e^{-γk}."""
    out = np.zeros(size, dtype=np.int64)
    active = np.arange(size)
    while active.size:
        success = bernoulli_exp_neg_array(rng, gamma, active.size)
        out[active[success]] += 1
        active = active[success]
    return out


def discrete_laplace_array(rng: np.random.Generator, scale: Fraction, size: int
                           ) -> npt.NDArray[np.int64]:
    """``size`` exact draws of the discrete Laplace law P(z) ∝ e^{-|z|/t}, rational scale t > 0.

    Z = G1 - G2 for independent G_i with P(G = k) = (1-q)q^k, q = e^{-1/t}
    (counts of :func:`bernoulli_exp_neg_array` successes): for z >= 0,
    P(Z = z) = Σ_k (1-q)²q^{z+2k} = (1-q)/(1+q)·q^z, the law of
    :class:`DiscreteLaplace`.  This is :class:`TwoSidedGeometric`'s construction
    with the irrational ratio q, not Algorithm 2 (expected 2/(1-q) trials per
    draw); it is the one the validation zoo's seeded draws were made with.
    """
    if scale <= 0:
        raise InvalidArgument(f"scale={scale} must be > 0")
    gamma = 1 / scale
    return _geometric_count_array(rng, gamma, size) - _geometric_count_array(rng, gamma, size)


# ---------------------------------------------------------------------- laws


@dataclass(frozen=True, slots=True)
class TwoSidedGeometric(InfiniteChoice):
    """Two-sided geometric noise: P(z) = (1-α)/(1+α)·α^{|z|}, 0 < α < 1 rational.

    Every probability is an exact rational.  Sampler: G1 - G2 for independent
    G_i with P(G = k) = (1-α)α^k (counts of Bernoulli(α) successes).  Proof of
    the law: for z >= 0, P(G1 - G2 = z) = Σ_k (1-α)²α^{k+z}α^k = (1-α)²α^z/(1-α²)
    = (1-α)/(1+α)·α^z, and z < 0 follows by symmetry.  Expected 2/(1-α) trials.
    """

    alpha: Fraction

    def __post_init__(self) -> None:
        a = check_probability(to_fraction(self.alpha, "alpha"), "alpha",
                              open_low=True, open_high=True)
        object.__setattr__(self, "alpha", a)

    def pmf(self, z: int, prec: int = DEFAULT_PRECISION) -> Prob:
        """P(Z = z), exact."""
        check_int(z, "z")
        a = self.alpha
        return (1 - a) / (1 + a) * a ** abs(z)

    def tail_mass(self, k: int, prec: int = DEFAULT_PRECISION) -> Prob:
        """P(Z >= k) = α^k/(1+α) for k >= 0, exact (geometric series)."""
        check_int(k, "k", minimum=0)
        return self.alpha**k / (1 + self.alpha)

    def draw(self, rng: np.random.Generator) -> int:
        """One exact draw (difference of two geometric counts)."""
        return _geometric_count(rng, self.alpha) - _geometric_count(rng, self.alpha)


def _exp_box(x: Fraction, prec: int) -> Interval:
    return interval_exp(Interval.point(x), prec)


@dataclass(frozen=True, slots=True)
class DiscreteLaplace(InfiniteChoice):
    """Discrete Laplace noise with scale t > 0: P(z) = (1-q)/(1+q)·q^{|z|}, q = e^{-1/t}.

    Probabilities are irrational; :meth:`pmf` and :meth:`tail_mass` return
    rigorous enclosures.  Sampler: CKS20 Algorithm 2.  ``decay`` = 1/t is the
    exact rate: P(z+1)/P(z) = e^{-decay} for z >= 0.
    """

    scale: Fraction

    def __post_init__(self) -> None:
        object.__setattr__(self, "scale", check_positive(to_fraction(self.scale, "scale"),
                                                         "scale"))

    @property
    def decay(self) -> Fraction:
        """1/t, so q = e^{-decay}."""
        return 1 / self.scale

    def pmf(self, z: int, prec: int = DEFAULT_PRECISION) -> Prob:
        """An enclosure of P(Z = z) (the factor (1-q)/(1+q) is decreasing in q)."""
        check_int(z, "z")
        q = _exp_box(-self.decay, prec + 16)
        c = Interval((1 - q.hi) / (1 + q.hi), (1 - q.lo) / (1 + q.lo))
        return (c * _exp_box(-abs(z) * self.decay, prec + 16)).rounded(prec)

    def tail_mass(self, k: int, prec: int = DEFAULT_PRECISION) -> Prob:
        """An enclosure of P(Z >= k) = q^k/(1+q), k >= 0 (geometric series)."""
        check_int(k, "k", minimum=0)
        q = _exp_box(-self.decay, prec + 16)
        return (_exp_box(-k * self.decay, prec + 16) / (1 + q)).rounded(prec)

    def draw(self, rng: np.random.Generator) -> int:
        """One exact draw (CKS20 Algorithm 2)."""
        return sample_discrete_laplace(rng, self.scale)


def _gauss_radius(sigma2: Fraction, prec: int) -> int:
    """K with (K+1)² >= 1.4·σ²·(prec+8): e^{-(K+1)²/(2σ²)} <= e^{-0.7(prec+8)} < 2^{-(prec+8)}."""
    need = Fraction(7, 5) * sigma2 * (prec + 8)
    return math.isqrt(math.ceil(need)) + 1


def _gauss_tail_bound(sigma2: Fraction, k: int, prec: int) -> Fraction:
    """Upper bound on Σ_{z>=k} e^{-z²/(2σ²)} for k >= 1: e^{-k²/(2σ²)}/(1 - e^{-k/σ²}).

    Proof: z = k + j with j >= 0 gives z² >= k² + 2kj, so each term is at most
    e^{-k²/(2σ²)}·(e^{-k/σ²})^j; sum the geometric series.
    """
    head = _exp_box(-Fraction(k * k) / (2 * sigma2), prec)
    ratio = _exp_box(-Fraction(k) / sigma2, prec)
    if ratio.hi >= 1:
        raise InvalidArgument(f"precision prec={prec} is too low for sigma2={sigma2}")
    return head.hi / (1 - ratio.hi)


@lru_cache(maxsize=256)
def _gauss_normalizer(sigma2: Fraction, prec: int) -> Interval:
    """N = 1 + 2Σ_{z=1}^{K} e^{-z²/(2σ²)} + 2R with R in [0, tail bound at K+1]."""
    work = prec + 24
    k = _gauss_radius(sigma2, prec)
    lo, hi = Fraction(1), Fraction(1)
    for z in range(1, k + 1):
        box = _exp_box(-Fraction(z * z) / (2 * sigma2), work)
        lo += 2 * box.lo
        hi += 2 * box.hi
    hi += 2 * _gauss_tail_bound(sigma2, k + 1, work)
    return Interval(lo, hi).rounded(prec + 8)


@lru_cache(maxsize=65536)
def _gauss_pmf(sigma2: Fraction, z: int, prec: int) -> Interval:
    weight = _exp_box(-Fraction(z * z) / (2 * sigma2), prec + 16)
    return (weight / _gauss_normalizer(sigma2, prec)).rounded(prec)


@dataclass(frozen=True, slots=True)
class DiscreteGaussian(InfiniteChoice):
    """Discrete Gaussian noise: P(z) = e^{-z²/(2σ²)}/N with σ² > 0 rational (CKS20 Definition 1).

    The normalizer N is enclosed rigorously: an explicit sum over |z| <= K plus
    a proved tail bound (see ``_gauss_tail_bound``), K growing with ``prec``.
    Sampler: CKS20 Algorithm 3, rejection from discrete Laplace with scale
    t = ⌊σ⌋ + 1, accepting Y with probability e^{-(|Y| - σ²/t)²/(2σ²)}; CKS20's
    analysis of Algorithm 3 shows the accepted Y has exactly the discrete Gaussian law.
    """

    sigma2: Fraction

    def __post_init__(self) -> None:
        object.__setattr__(self, "sigma2", check_positive(to_fraction(self.sigma2, "sigma2"),
                                                          "sigma2"))

    def radius(self, prec: int = DEFAULT_PRECISION) -> int:
        """A K with P(Z > K) below about 2^{-prec} (a choice only; bounds are proved separately)."""
        return _gauss_radius(self.sigma2, prec)

    def tail_weight_upper_bound(self, k: int, prec: int = DEFAULT_PRECISION) -> Fraction:
        """Upper bound on Σ_{z>=k} e^{-z²/(2σ²)} for k >= 1: e^{-k²/(2σ²)}/(1 - e^{-k/σ²})."""
        check_int(k, "k", minimum=1)
        return _gauss_tail_bound(self.sigma2, k, prec)

    def normalizer(self, prec: int = DEFAULT_PRECISION) -> Interval:
        """An enclosure of N = Σ_z e^{-z²/(2σ²)}."""
        return _gauss_normalizer(self.sigma2, prec)

    def pmf(self, z: int, prec: int = DEFAULT_PRECISION) -> Prob:
        """An enclosure of P(Z = z)."""
        check_int(z, "z")
        return _gauss_pmf(self.sigma2, abs(z), prec)

    def tail_mass(self, k: int, prec: int = DEFAULT_PRECISION) -> Prob:
        """An enclosure of P(Z >= k), k >= 0.

        k = 0: (N+1)/(2N) by symmetry.  k >= 1: an explicit sum over k <= z <= K
        (K = max(k-1, radius)) plus [0, the proved tail bound at K+1], over N.
        """
        check_int(k, "k", minimum=0)
        n = self.normalizer(prec)
        if k == 0:
            return Interval((n.hi + 1) / (2 * n.hi), (n.lo + 1) / (2 * n.lo)).rounded(prec)
        work = prec + 24
        end = max(k - 1, self.radius(prec))
        lo = hi = Fraction(0)
        for z in range(k, end + 1):
            box = _exp_box(-Fraction(z * z) / (2 * self.sigma2), work)
            lo, hi = lo + box.lo, hi + box.hi
        hi += _gauss_tail_bound(self.sigma2, end + 1, work)
        return Interval(lo / n.hi, hi / n.lo).rounded(prec)

    def draw(self, rng: np.random.Generator) -> int:
        """One exact draw (CKS20 Algorithm 3; all comparisons on rationals)."""
        s2 = self.sigma2
        t = math.isqrt(s2.numerator // s2.denominator) + 1  # ⌊σ⌋ = ⌊√⌊σ²⌋⌋
        while True:
            y = sample_discrete_laplace(rng, Fraction(t))
            gamma = (abs(y) - s2 / t) ** 2 / (2 * s2)
            if bernoulli_exp_neg(rng, gamma):
                return y


NoiseLaw: TypeAlias = TwoSidedGeometric | DiscreteLaplace | DiscreteGaussian
"""The closed set of integer noise laws the auditor understands."""


# ------------------------------------------------------------ program helpers


def _noise(choice: NoiseLaw) -> Program[int]:
    value = yield choice
    return cast(int, value)  # an Affine placeholder under the exact interpreter


def two_sided_geometric(alpha: Fraction) -> Program[int]:
    """Yield two-sided geometric noise with ratio ``alpha`` (validated now, not at first step)."""
    return _noise(TwoSidedGeometric(alpha))


def discrete_laplace(scale: Fraction) -> Program[int]:
    """Yield discrete Laplace noise with scale ``scale`` (validated now)."""
    return _noise(DiscreteLaplace(scale))


def discrete_gaussian(sigma2: Fraction) -> Program[int]:
    """Yield discrete Gaussian noise with variance parameter ``sigma2`` (validated now)."""
    return _noise(DiscreteGaussian(sigma2))
