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
from typing import TypeAlias, TypeVar, cast

import numpy as np
import numpy.typing as npt

from ._sampling import bernoulli, bernoulli_array, uniform_int
from .errors import InvalidArgument
from .program import FiniteEvent, InfiniteChoice, Program
from .reals import DEFAULT_PRECISION, Interval, Prob, interval_exp
from .validate import check_int, check_positive, check_probability, to_fraction

__all__ = [
    "DiscreteGaussian",
    "DiscreteLaplace",
    "NoiseContest",
    "NoiseLaw",
    "ThresholdRun",
    "ThresholdTest",
    "TwoSidedGeometric",
    "at_least",
    "beats",
    "bernoulli_exp_neg",
    "bernoulli_exp_neg_array",
    "difference_tail",
    "discrete_gaussian",
    "discrete_laplace",
    "discrete_laplace_array",
    "exceeds",
    "first_at_most",
    "noise_radius",
    "sample_discrete_laplace",
    "two_sided_geometric",
    "upper_tail",
    "window_run_law",
]

_E = TypeVar("_E")


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


# ------------------------------------------------------ tails of comparisons
#
# A program branches on noise by yielding one of the FiniteEvent choices below.  Each is
# defined once: ``branches`` gives the exact law of the comparison (closed-form geometric
# series for the two-sided geometric and discrete Laplace laws, rigorous enclosures with
# explicit, proved remainders otherwise) and ``draw`` draws every noise exactly with the
# samplers above and compares integers.  Nothing is truncated: every enclosure contains
# the whole infinite sum.


def _as_box(p: Prob) -> Interval:
    return p if isinstance(p, Interval) else Interval.point(p)


def _exact_or_box(box: Interval, prec: int) -> Prob:
    """A point interval becomes its exact Fraction; otherwise the outward-rounded interval."""
    return box.lo if box.is_point else box.rounded(prec)


def upper_tail(law: NoiseLaw, k: int, prec: int = DEFAULT_PRECISION) -> Prob:
    """P(Z >= k) for every integer k: exact for the two-sided geometric, an enclosure otherwise.

    k >= 0 is the law's own ``tail_mass``; k < 0 uses the symmetry of Z:
    P(Z >= k) = 1 - P(Z <= k - 1) = 1 - P(Z >= 1 - k) with 1 - k >= 1.  Closed form for
    the geometric and discrete Laplace laws (CKS20, geometric series), a sum plus a proved
    remainder for the discrete Gaussian (CKS20 Definition 1).
    """
    check_int(k, "k")
    check_int(prec, "prec", minimum=1)
    return _upper_tail(law, k, prec)


@lru_cache(maxsize=65536)
def _upper_tail(law: NoiseLaw, k: int, prec: int) -> Prob:
    """:func:`upper_tail` after validation (cached: 1.0 == 1 must not reach the cache unchecked)."""
    if k >= 0:
        return law.tail_mass(k, prec)
    rest = law.tail_mass(1 - k, prec)
    if isinstance(rest, Fraction):
        return 1 - rest
    return (1 - rest).rounded(prec)


def noise_radius(law: NoiseLaw, prec: int = DEFAULT_PRECISION) -> int:
    """A radius R with P(|Z| > R) below about 2^-prec: a choice of window only.

    Every enclosure using it adds the *proved* mass P(|Z| > R) = 2·P(Z >= R + 1) from
    :func:`upper_tail`, so a poor choice costs tightness, never soundness (the float used
    for geometric ratios picks the window and decides nothing).
    """
    if isinstance(law, DiscreteGaussian):
        return law.radius(prec)
    if isinstance(law, DiscreteLaplace):
        return math.ceil(law.scale * Fraction(7, 10) * (prec + 9)) + 1
    return math.ceil((prec + 9) * math.log(2) / -math.log(float(law.alpha))) + 1


def _ratio_power(law: TwoSidedGeometric | DiscreteLaplace, k: int, work: int) -> Interval:
    """An enclosure of r^k, r the law's ratio (α, or e^{-1/t}); exact for the geometric law."""
    if isinstance(law, TwoSidedGeometric):
        return Interval.point(law.alpha ** k)
    return _exp_box(-k * law.decay, work)


def _geometric_difference_tail(z1: TwoSidedGeometric | DiscreteLaplace,
                               z2: TwoSidedGeometric | DiscreteLaplace, k: int,
                               prec: int) -> Prob:
    """P(Z1 - Z2 >= k) for k >= 1 in closed form, ratios a (of Z1) and b (of Z2).

    With Y = -Z2 (same law), c_b = (1-b)/(1+b), and P(Z1 >= m) = a^m/(1+a) (m >= 0),
    = 1 - a^{1-m}/(1+a) (m < 0), summing P(Y = y)·P(Z1 >= k - y) over y <= 0, 1 <= y <= k
    and y > k gives three geometric series:
    P = [c_b a^k/(1-ab) + c_b Σ_{y=1}^{k} b^y a^{k-y} - c_b a² b^{k+1}/(1-ab)]/(1+a)
        + c_b b^{k+1}/(1-b).
    The middle sum is kept as a finite sum (no division by a - b, so a = b needs no case).
    """
    work = prec + 32 + k.bit_length()
    a, b = _ratio_power(z1, 1, work), _ratio_power(z2, 1, work)
    exact = isinstance(z1, TwoSidedGeometric) and isinstance(z2, TwoSidedGeometric)

    def rnd(x: Interval) -> Interval:
        return x if exact else x.rounded(work)

    a_k = _ratio_power(z1, k, work)
    b_k1 = _ratio_power(z2, k + 1, work)
    c_b = rnd((1 - b) / (1 + b))
    one_minus_ab = rnd(1 - a * b)
    middle = Interval.point(Fraction(0))
    for y in range(1, k + 1):
        middle = rnd(middle + _ratio_power(z2, y, work) * _ratio_power(z1, k - y, work))
    inner = rnd(a_k / one_minus_ab + middle - a * a * b_k1 / one_minus_ab)
    total = rnd(c_b * inner / (1 + a) + c_b * b_k1 / (1 - b))
    return _exact_or_box(total, prec)


def difference_tail(z1: NoiseLaw, z2: NoiseLaw, k: int, prec: int = DEFAULT_PRECISION) -> Prob:
    """P(Z1 - Z2 >= k) for independent Z1, Z2 and every integer k, without truncation.

    Both geometric-type (two-sided geometric or discrete Laplace): the closed form of
    ``_geometric_difference_tail`` (exact for two geometric laws).  Otherwise (a discrete
    Gaussian is involved): Σ_{|z| <= R} P(Z2 = z)·P(Z1 >= k + z) enclosed term by term,
    plus [0, P(|Z2| > R)] for the rest (each omitted term is at most P(Z2 = z)).  k <= 0
    uses the symmetry of Z1 - Z2: P(D >= k) = 1 - P(D >= 1 - k).
    """
    check_int(k, "k")
    check_int(prec, "prec", minimum=1)
    return _difference_tail(z1, z2, k, prec)


@lru_cache(maxsize=4096)
def _difference_tail(z1: NoiseLaw, z2: NoiseLaw, k: int, prec: int) -> Prob:
    """:func:`difference_tail` after validation (cached on validated arguments only)."""
    if k <= 0:
        rest = _difference_tail(z1, z2, 1 - k, prec)
        return 1 - rest if isinstance(rest, Fraction) else (1 - rest).rounded(prec)
    if not isinstance(z1, DiscreteGaussian) and not isinstance(z2, DiscreteGaussian):
        return _geometric_difference_tail(z1, z2, k, prec)
    work = prec + 24
    radius = noise_radius(z2, work)
    lo = hi = Fraction(0)
    for z in range(-radius, radius + 1):
        term = _as_box(z2.pmf(z, work)) * _as_box(upper_tail(z1, k + z, work))
        lo, hi = lo + term.lo, hi + term.hi
    hi += 2 * _as_box(upper_tail(z2, radius + 1, work)).hi
    return Interval(lo, min(hi, Fraction(1))).rounded(prec)


def _bool_branches(p: Prob, prec: int) -> list[tuple[object, Prob]]:
    if isinstance(p, Fraction):
        return [(True, p), (False, 1 - p)]
    return [(True, p), (False, (1 - p).rounded(prec))]


@dataclass(frozen=True, slots=True)
class ThresholdTest(FiniteEvent):
    """The event ``shift + Z >= threshold`` (``strict``: ``>``) for one noise draw Z.

    Exact law: True with P(Z >= threshold - shift + [strict]) (:func:`upper_tail`).
    Sampler: one exact draw of Z, then an integer comparison.
    """

    noise: NoiseLaw
    shift: int
    threshold: int
    strict: bool = False

    def __post_init__(self) -> None:
        _check_law(self.noise, "noise")
        check_int(self.shift, "shift")
        check_int(self.threshold, "threshold")

    def accepts(self, value: object) -> bool:
        """True and False."""
        return isinstance(value, bool)

    def branches(self, prec: int) -> list[tuple[object, Prob]]:
        """True with the tail probability of the comparison, False with its complement."""
        k = self.threshold - self.shift + (1 if self.strict else 0)
        return _bool_branches(upper_tail(self.noise, k, prec), prec)

    def draw(self, rng: np.random.Generator) -> bool:
        """Draw Z exactly, compare."""
        value = self.shift + int(self.noise.draw(rng))
        return value > self.threshold if self.strict else value >= self.threshold


@dataclass(frozen=True, slots=True)
class NoiseContest(FiniteEvent):
    """The event ``shift1 + Z1 > shift2 + Z2`` (``strict`` false: ``>=``), Z1, Z2 independent.

    Exact law: True with P(Z1 - Z2 >= shift2 - shift1 + [strict]) (:func:`difference_tail`).
    Sampler: two exact draws, then an integer comparison.
    """

    noise1: NoiseLaw
    shift1: int
    noise2: NoiseLaw
    shift2: int
    strict: bool = True

    def __post_init__(self) -> None:
        _check_law(self.noise1, "noise1")
        _check_law(self.noise2, "noise2")
        check_int(self.shift1, "shift1")
        check_int(self.shift2, "shift2")

    def accepts(self, value: object) -> bool:
        """True and False."""
        return isinstance(value, bool)

    def branches(self, prec: int) -> list[tuple[object, Prob]]:
        """True with the tail of Z1 - Z2 at the shifted threshold, False with its complement."""
        k = self.shift2 - self.shift1 + (1 if self.strict else 0)
        return _bool_branches(difference_tail(self.noise1, self.noise2, k, prec), prec)

    def draw(self, rng: np.random.Generator) -> bool:
        """Draw Z1 then Z2 exactly, compare."""
        left = self.shift1 + int(self.noise1.draw(rng))
        right = self.shift2 + int(self.noise2.draw(rng))
        return left > right if self.strict else left >= right


@dataclass(frozen=True, slots=True)
class ThresholdRun(FiniteEvent):
    """The first j with ``values[j] + ν_j <= threshold + ρ``, one shared ρ, fresh ν_j; len(values) if none.

    This is one cutoff-1 round of the sparse vector technique (Dwork and Roth 2014,
    AboveThreshold, with ⊤ meaning ``values[j] + ν_j > threshold + ρ``): ρ ~ ``threshold_noise``
    is drawn once and shared by all comparisons, so they are dependent and cannot be
    written as independent :class:`NoiseContest` events.  Exact law: P(j) = Σ_r P(ρ = r)·
    Π_{i<j} P(ν_i >= threshold + r - values[i] + 1)·P(ν_j <= threshold + r - values[j]),
    enclosed by summing |r| <= R term by term and adding the proved mass P(|ρ| > R) to
    every upper end (each omitted term is at most P(ρ = r)).  Sampler: draw ρ, then each
    ν_j in turn, stop at the first failure.
    """

    threshold_noise: NoiseLaw
    threshold: int
    query_noise: NoiseLaw
    values: tuple[int, ...]

    def __post_init__(self) -> None:
        _check_law(self.threshold_noise, "threshold_noise")
        _check_law(self.query_noise, "query_noise")
        check_int(self.threshold, "threshold")
        if not isinstance(self.values, tuple) or not self.values:
            raise InvalidArgument(f"values={self.values!r} must be a non-empty tuple of ints")
        for i, v in enumerate(self.values):
            check_int(v, f"values[{i}]")

    def accepts(self, value: object) -> bool:
        """The ints 0..len(values)."""
        return (isinstance(value, int) and not isinstance(value, bool)
                and 0 <= value <= len(self.values))

    def branches(self, prec: int) -> list[tuple[object, Prob]]:
        """Each stopping index with an enclosure of its probability (see the class docstring)."""
        return list(_run_law(self, prec))

    def draw(self, rng: np.random.Generator) -> int:
        """Draw ρ, then ν_0, ν_1, ... exactly; return the first index that fails."""
        bar = self.threshold + int(self.threshold_noise.draw(rng))
        for j, v in enumerate(self.values):
            if v + int(self.query_noise.draw(rng)) <= bar:
                return j
        return len(self.values)


@lru_cache(maxsize=65536)
def _pmf(law: NoiseLaw, z: int, prec: int) -> Interval:
    return _as_box(law.pmf(z, prec))


@lru_cache(maxsize=1024)
def _run_law(run: ThresholdRun, prec: int) -> tuple[tuple[object, Prob], ...]:
    """The law of :class:`ThresholdRun` (memoized: the exact interpreter replays paths)."""
    if isinstance(run.threshold_noise, DiscreteGaussian) or isinstance(run.query_noise,
                                                                       DiscreteGaussian):
        return window_run_law(run, prec)
    return _geometric_run_law(run, run.threshold_noise, run.query_noise, prec)


def _geometric_run_law(run: ThresholdRun, rho: TwoSidedGeometric | DiscreteLaplace,
                       nu: TwoSidedGeometric | DiscreteLaplace, prec: int
                       ) -> tuple[tuple[object, Prob], ...]:
    """Closed form of the :class:`ThresholdRun` law for geometric-type ρ (ratio p) and ν (ratio q).

    With k_i = threshold - values[i] + 1, a pass is ν_i >= k_i + r.  Let L = min(0, min -k_i)
    and U = max(0, max -k_i).  For r in [L, U] the terms are summed one by one.  For r > U
    every k_i + r >= 1 and r >= 1, so P(ν_i >= k_i + r) = q^{k_i + r}/(1+q) and
    P(ρ = r) = c_p p^r: the terms for index j form
    c_p p^{U+1} Π_{i<j} q^{k_i+U+1}/(1+q) · Σ_n [(p q^j)^n - q^{k_j+U+1}/(1+q) (p q^{j+1})^n],
    two geometric series.  For r = -s < L every k_i + r <= -1, so the pass probability is
    1 - β_i q^n with β_i = q^{1-k_i+s0}/(1+q), s = s0 + n, s0 = 1 - L; expanding
    Π_{i<j}(1 - β_i y) = Σ_l (-1)^l e_l y^l (elementary symmetric e_l) turns the sum over n
    into Σ_l (-1)^l e_l c_p p^{s0} β_j / (1 - p q^{l+1}) (index j < m) or
    Σ_l (-1)^l e_l c_p p^{s0} / (1 - p q^l) (no stop).  Exact for two geometric laws.
    """
    m = len(run.values)
    exact = isinstance(rho, TwoSidedGeometric) and isinstance(nu, TwoSidedGeometric)
    work = prec + 40 + (4 * m).bit_length()

    def rnd(x: Interval) -> Interval:
        return x if exact else x.rounded(work)

    ks = [run.threshold - v + 1 for v in run.values]
    low, high = min(0, *(-k for k in ks)), max(0, *(-k for k in ks))
    p, q = _ratio_power(rho, 1, work), _ratio_power(nu, 1, work)
    c_p = rnd((1 - p) / (1 + p))
    total = [Interval.point(Fraction(0))] * (m + 1)
    for r in range(low, high + 1):
        prefix = _as_box(rho.pmf(r, work))
        for j, k in enumerate(ks):
            passed = _as_box(upper_tail(nu, k + r, work))
            total[j] = rnd(total[j] + prefix * (1 - passed))
            prefix = rnd(prefix * passed)
        total[m] = rnd(total[m] + prefix)
    # r > U
    head = rnd(c_p * _ratio_power(rho, high + 1, work))
    for j in range(m + 1):
        series = rnd(1 / (1 - p * _ratio_power(nu, j, work)))
        if j < m:
            stop = rnd(_ratio_power(nu, ks[j] + high + 1, work) / (1 + q))
            series = rnd(series - stop / (1 - p * _ratio_power(nu, j + 1, work)))
        total[j] = rnd(total[j] + head * series)
        if j < m:
            head = rnd(head * _ratio_power(nu, ks[j] + high + 1, work) / (1 + q))
    # r < L
    s0 = 1 - low
    base = rnd(c_p * _ratio_power(rho, s0, work))
    elementary = [Interval.point(Fraction(1))]  # e_0..e_j of β_0..β_{j-1}
    for j in range(m + 1):
        acc = Interval.point(Fraction(0))
        shift = 1 if j < m else 0
        for l_, e in enumerate(elementary):
            term = rnd(e / (1 - p * _ratio_power(nu, l_ + shift, work)))
            acc = rnd(acc + term if l_ % 2 == 0 else acc - term)
        if j < m:
            beta = rnd(_ratio_power(nu, 1 - ks[j] + s0, work) / (1 + q))
            total[j] = rnd(total[j] + base * beta * acc)
            elementary = [rnd(elementary[i] + (beta * elementary[i - 1] if i else 0))
                          if i < len(elementary) else rnd(beta * elementary[i - 1])
                          for i in range(len(elementary) + 1)]
        else:
            total[m] = rnd(total[m] + base * acc)
    return tuple((j, _exact_or_box(Interval(max(box.lo, Fraction(0)), min(box.hi, Fraction(1))),
                                   prec)) for j, box in enumerate(total))


def window_run_law(run: ThresholdRun, prec: int = DEFAULT_PRECISION
                   ) -> tuple[tuple[object, Prob], ...]:
    """The :class:`ThresholdRun` law by a window over ρ plus the proved remainder (any noise laws).

    Σ_{|r| <= R} P(ρ = r)·(pass/stop products), each term enclosed, and P(|ρ| > R) added
    to every upper end.  Used for the discrete Gaussian, and to cross-check the closed form.
    """
    m = len(run.values)
    work = prec + 24 + (4 * m).bit_length()
    radius = noise_radius(run.threshold_noise, work)
    lo = [Fraction(0)] * (m + 1)
    hi = [Fraction(0)] * (m + 1)
    for r in range(-radius, radius + 1):
        weight = _pmf(run.threshold_noise, r, work)
        prefix = weight
        for j, v in enumerate(run.values):
            passed = _as_box(upper_tail(run.query_noise, run.threshold + r - v + 1, work))
            stop = (prefix * (1 - passed)).rounded(work)
            lo[j], hi[j] = lo[j] + stop.lo, hi[j] + stop.hi
            prefix = (prefix * passed).rounded(work)
        lo[m], hi[m] = lo[m] + prefix.lo, hi[m] + prefix.hi
    rest = 2 * _as_box(upper_tail(run.threshold_noise, radius + 1, work)).hi
    return tuple((j, Interval(lo[j], min(hi[j] + rest, Fraction(1))).rounded(prec))
                 for j in range(m + 1))


def _check_law(law: object, name: str) -> None:
    if not isinstance(law, TwoSidedGeometric | DiscreteLaplace | DiscreteGaussian):
        raise InvalidArgument(f"{name}={law!r} must be a TwoSidedGeometric, DiscreteLaplace "
                              "or DiscreteGaussian noise law")


def exceeds(noise: NoiseLaw, shift: int, threshold: int) -> Program[bool]:
    """Yield the event ``shift + Z > threshold`` (validated now; see :class:`ThresholdTest`)."""
    return _event(ThresholdTest(noise, shift, threshold, strict=True))


def at_least(noise: NoiseLaw, shift: int, threshold: int) -> Program[bool]:
    """Yield the event ``shift + Z >= threshold`` (validated now; see :class:`ThresholdTest`)."""
    return _event(ThresholdTest(noise, shift, threshold, strict=False))


def beats(noise1: NoiseLaw, shift1: int, noise2: NoiseLaw, shift2: int) -> Program[bool]:
    """Yield the event ``shift1 + Z1 > shift2 + Z2`` for independent Z1, Z2 (:class:`NoiseContest`)."""
    return _event(NoiseContest(noise1, shift1, noise2, shift2))


def first_at_most(threshold_noise: NoiseLaw, threshold: int, query_noise: NoiseLaw,
                  values: tuple[int, ...]) -> Program[int]:
    """Yield the stopping index of one shared-threshold round (see :class:`ThresholdRun`)."""
    return _event(ThresholdRun(threshold_noise, threshold, query_noise, tuple(values)))


def _event(choice: FiniteEvent) -> Program[_E]:
    value = yield choice
    return cast(_E, value)
