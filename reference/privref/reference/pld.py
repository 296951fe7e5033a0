"""Certified privacy-loss distributions (PLDs): composed δ(ε) and ε(δ) as proved enclosures.

**Objects.**  For a pair (P, Q) of distributions on one space, the privacy loss of an outcome o is
L(o) = ln(dP/dQ)(o) (+∞ where Q has no density against P), and the PLD ω is the law of L(o) for
o ~ P.  Its hockey-stick divergence is

    δ_{P,Q}(ε) = sup_S P(S) − e^ε Q(S) = E_ω[(1 − e^{ε−L})_+] = Σ_{l>ε} ω(l)(1 − e^{ε−l}) + ω(∞)

(the supremum is attained at S = {L > ε}; Meiser & Mohammadi 2018, Sommer, Meiser & Mohammadi
2019).  A mechanism M is (ε, δ)-DP for a neighbour relation iff δ_{M(D),M(D')}(ε) <= δ for every
ordered neighbouring pair; (P, Q) is a *dominating pair* of M when δ_{M(D),M(D')} <= δ_{P,Q}
pointwise for all of them (Zhu, Dong & Wang 2022, Definition 7), *tight* when it is attained.

**Composition.**  For product pairs the loss adds: L_{P1×P2, Q1×Q2}(o1, o2) = L1(o1) + L2(o2)
with o1, o2 independent, so the PLD of the product is the convolution ω1 * ω2 (+∞ absorbing).  If
(P_i, Q_i) dominates M_i, then (Π P_i, Π Q_i) dominates the adaptive composition of the M_i
(Zhu, Dong & Wang 2022, Theorem 10); so δ of k composed mechanisms is at most
E_{ω1*…*ωk}[(1 − e^{ε−L})_+], with equality for the non-adaptive product of tight pairs.

**What is proved here.**  Let f_ε(l) = (1 − e^{ε−l})_+ on [−∞, +∞] (f(−∞) = 0, f(+∞) = 1),
a nondecreasing function.  Write ν <= ν' (stochastic order) when ν(L > t) <= ν'(L > t) for every
real t, for measures of equal total mass on [−∞, +∞] (the missing mass of a sub-probability
measure counted at −∞).  Four facts:

1. ν <= ν' implies E_ν[f_ε] <= E_ν'[f_ε] (f_ε nondecreasing; layer-cake formula).
2. ν1 <= ν1' and ν2 <= ν2' imply ν1 * ν2 <= ν1' * ν2' (couple each pair monotonically, X_i <= X_i'
   pointwise, the two couplings independent; X1 + X2 <= X1' + X2' with ±∞ absorbing; −∞ never
   meets +∞ because pessimistic measures carry no −∞ mass and optimistic ones no +∞ mass).
3. Post-processing: if (P, Q) = (K∘P', K∘Q') for one Markov kernel K, then δ_{P,Q} <= δ_{P',Q'}
   pointwise, and products of such pairs are again related by the product kernel; so replacing
   every (P_i, Q_i) by a pair it is a post-processing of can only raise the composed δ, and
   replacing it by a post-processing of it can only lower it.
4. Pessimistic split ("connect the dots", Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022):
   give each outcome o whose loss l lies in a grid bucket (jh, (j+1)h) inside the grid a label,
   "low" with P-probability λ and "high" with 1 − λ, where λ solves
   λ·e^{−jh} + (1 − λ)·e^{−(j+1)h} = e^{−l}, and set Q'(o, low) = P(o)·λ·e^{−jh},
   Q'(o, high) = P(o)(1 − λ)·e^{−(j+1)h} (other outcomes unlabelled).  Then Q' sums back to Q, the
   kernel "forget the label" maps (P', Q') to (P, Q), and the loss of (P', Q') is jh or (j+1)h.
   Optimistic merge (laws without atoms): for any partition of the losses into intervals B_i,
   the kernel o -> the bucket B_i holding L(o) maps (P, Q) to a pair whose loss
   m_i = ln(P(B_i)/Q(B_i)) lies in B_i.

The grids of :mod:`._pld_grid` are built from these.  *Pessimistic*: the split pair's loss
distribution ω' (by 4, whose δ dominates the truth by 3), then mass beyond the grid moved to +∞
(counted fully in δ) or up to the lowest point, and its survival function rounded *up* to
multiples of 2^-bits; so the grid is >= ω' stochastically.  *Optimistic*: for the Gaussians the
merged pair (dominated by 3) with buckets B_i = [b_{i−1}, b_i) whose upper ends are searched so
that m_i >= ih is proved with m_i just above ih (:func:`._pld_grid.discretize_lower`), each m_i
placed at ih (a bucket whose search fails is placed at ih when m_i >= ih is proved and otherwise
one point lower), below-grid mass dropped, survival rounded *down*; for the other mechanisms
every loss is simply moved down to the grid, [ih, (i+1)h) -> ih.  Either way the grid is <= the loss
distribution of a pair dominated by the truth.  After each exact convolution (integer masses,
Kronecker substitution) the product is re-rounded the same way and its tails of at most ``tail``
units truncated (up to +∞ or the lowest point; down to the top point or dropped), which by 2
keeps each order.  Chaining 1-3:

    E_{lower_1*…*lower_k}[f_ε] <= δ_{ΠP_i,ΠQ_i}(ε) <= E_{upper_1*…*upper_k}[f_ε]   for every ε,

and δ(ε) of a grid is then evaluated with e^{−h} and each product rounded in the direction that
can only raise (pessimistic) or lower (optimistic) the value.  So :meth:`CertifiedPLD.delta`
returns [lo, hi] with lo <= δ_{ΠP_i,ΠQ_i}(ε) <= hi *proved*, for the ordered pairs named at each
constructor; with a tight pair this is the exact privacy profile of the non-adaptive composition,
and hi bounds every adaptive composition.  Not claimed: the opposite ordered pair (Q, P) unless
the constructor says the pair is symmetric, or anything about another mechanism.

**Pairs given by a survival function** (:class:`LossPair`; every constructor's ordered pair and
relation is in its docstring and in docs/pld.md's table).  The grids need only enclosures of
P(L > t), P(L >= t) and the same under Q at exact points t, so any pair whose loss survival can
be enclosed is certified by the same proof: Laplace, randomized response, discrete Laplace and
the discrete Gaussian (exact rational losses; the discrete Gaussian's normalizer, an infinite sum,
is enclosed by :class:`~.discrete_noise.DiscreteGaussian` with a proved tail bound, and its mass
beyond the summed range is kept as an interval, never dropped).  *Subsampled pairs*: for
γ in (0, 1) the mixture pairs ((1−γ)Q + γP, Q) and (Q, (1−γ)Q + γP) have the losses
±ln(1 − γ + γe^L), strictly monotone in L, so their survival at t is a mixture of the base
survivals at the cut s = ln((e^{±t} − (1 − γ))/γ); s is irrational, enclosed in [s_lo, s_hi], and
the survival (monotone in s) is enclosed by the union of its values at s_lo and s_hi.  Which
subsampling and relation each mixture pair dominates: Poisson subsampling under add/remove,
remove and add orders, each composable (:func:`poisson_subsampled_pld`; Zhu, Dong & Wang 2022,
Theorem 11 and Proposition 30); sampling m of n without replacement under substitution, the
forward pair only, one use only (:func:`fixed_size_subsampled_pld`, where the proof and the reason
composition is refused are given).

Width: the split is exact at grid points for one mechanism (only mass rounding), but its
composition is not: the pessimistic end drifts by about k·c·h² (c grows with the steepness of the
loss density).  The optimistic end of the Gaussians loses almost nothing per composition (each
merged loss within about h·2^-30 of its point, the search's tolerance); it loses up to h per
composed mechanism of the other kinds; mass rounding adds about 2^-bits per rounding and
truncation at most ``tail``·2^-bits per convolution.  Rounding losses up instead of splitting
(Meiser & Mohammadi 2018; Koskela, Jälkö & Honkela 2020) would be sound too, but biased by up to
h per composition.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from . import _pld_grid as grid_
from ._arb import arb, ball, to_interval, working_precision
from ._pld_grid import Grid, Survival
from .discrete_noise import DiscreteGaussian
from .errors import InvalidArgument, TooLargeToEnumerate
from .reals import Interval, Prob
from .validate import ExactInput, check_int, to_fraction

__all__ = [
    "DEFAULT_BITS",
    "DEFAULT_STEP",
    "CertifiedPLD",
    "LossPair",
    "discrete_gaussian_pair",
    "discrete_gaussian_pld",
    "discrete_laplace_pair",
    "discrete_laplace_pld",
    "fixed_size_subsampled_pld",
    "gaussian_pair",
    "gaussian_pld",
    "laplace_pair",
    "laplace_pld",
    "pair_delta",
    "pair_epsilon",
    "pair_pld",
    "poisson_subsampled_gaussian_pair",
    "poisson_subsampled_gaussian_pld",
    "poisson_subsampled_pld",
    "randomized_response_pair",
    "randomized_response_pld",
]

DEFAULT_STEP: Final = Fraction(1, 1000)
"""Default grid spacing h of the loss values."""

DEFAULT_BITS: Final = 62
"""Default mass precision: probabilities are integers times 2^-62 (at most 63 bits allowed)."""

_QUERY_PREC: Final = 256
"""Working precision (bits) of the final δ(ε) and ε(δ) evaluations."""


def _bits(value: object) -> int:
    return check_int(value, "bits", minimum=16, maximum=63)


def _step(value: object) -> Fraction:
    h = to_fraction(value, "step")
    if not Fraction(1, 1 << 30) <= h <= 1:
        raise InvalidArgument(f"step={h} must be in [2^-30, 1]")
    return h


def _positive(value: object, name: str) -> Fraction:
    q = to_fraction(value, name)
    if q <= 0:
        raise InvalidArgument(f"{name}={q} must be > 0")
    return q


@dataclass(frozen=True)
class CertifiedPLD:
    """A pair of grids enclosing one PLD: ``upper`` dominates it, ``lower`` is dominated by it
    (the invariant proved in the module docstring), so δ(ε) and ε(δ) come out as intervals
    proved to contain the true values for the stated ordered pair (``relation``)."""

    upper: Grid
    lower: Grid
    relation: str
    tail: int = 1
    composable: bool = True
    """False when the pair bounds one use of the mechanism only (its product bounds nothing:
    :func:`fixed_size_subsampled_pld`); then :meth:`compose` and :meth:`self_compose` refuse."""

    def _check_composable(self, who: str) -> None:
        if not self.composable:
            raise InvalidArgument(f"{who} ({self.relation}) bounds one use of the mechanism only; "
                                  "its composition is not a proved bound (fixed_size_subsampled_pld)")

    def compose(self, other: CertifiedPLD) -> CertifiedPLD:
        """The PLD of the composition with ``other`` (same step and bits): exact convolution,
        then directed re-rounding (module docstring, steps 2-3)."""
        if not isinstance(other, CertifiedPLD):
            raise InvalidArgument(f"other={other!r} must be a CertifiedPLD")
        self._check_composable("self")
        other._check_composable("other")
        if other.upper.step != self.upper.step or other.upper.bits != self.upper.bits:
            raise InvalidArgument(f"other has step={other.upper.step}, bits={other.upper.bits}; "
                                  f"must match step={self.upper.step}, bits={self.upper.bits}")
        tail = max(self.tail, other.tail)
        return CertifiedPLD(grid_.convolve(self.upper, other.upper, tail),
                            grid_.convolve(self.lower, other.lower, tail),
                            f"({self.relation}) composed with ({other.relation})", tail)

    def self_compose(self, k: int) -> CertifiedPLD:
        """The PLD of k-fold composition, by repeated squaring (about 2·log2 k convolutions)."""
        count = check_int(k, "k", minimum=1, maximum=1 << 40)
        if count > 1:
            self._check_composable("self")
        return CertifiedPLD(grid_.power(self.upper, count, self.tail),
                            grid_.power(self.lower, count, self.tail),
                            f"{count}-fold composition of ({self.relation})", self.tail)

    def delta(self, epsilon: ExactInput) -> Interval:
        """[lo, hi] with lo <= δ(ε) <= hi proved for the stated pair (ε >= 0, exact)."""
        eps = to_fraction(epsilon, "epsilon")
        if eps < 0:
            raise InvalidArgument(f"epsilon={eps} must be >= 0")
        return Interval(self.lower.table().delta(eps, _QUERY_PREC),
                        self.upper.table().delta(eps, _QUERY_PREC))

    def epsilon(self, delta: ExactInput) -> Interval:
        """[lo, hi] containing the least ε >= 0 with δ(ε) <= δ, proved (0 < δ < 1, exact).

        hi: δ(hi) <= δ is proved through the pessimistic grid; lo: δ(ε) > δ for every ε < lo is
        proved through the optimistic grid.  Raises TooLargeToEnumerate when the pessimistic
        grid's mass at +∞ alone exceeds δ."""
        d = to_fraction(delta, "delta")
        if not 0 < d < 1:
            raise InvalidArgument(f"delta={d} must be in (0, 1)")
        hi = self.upper.table().epsilon(d, _QUERY_PREC)
        lo = self.lower.table().epsilon(d, _QUERY_PREC)
        return Interval(min(lo, hi), hi)

    @property
    def points(self) -> int:
        """Number of finite grid points of the pessimistic grid (a size measure)."""
        return len(self.upper.masses)


def _build(survival: Survival, step: Fraction, bits: int, lo: int, hi: int, relation: str,
           tail: int, merge: bool = False, continuous: bool = False,
           composable: bool = True) -> CertifiedPLD:
    """Both grids; each survival value is computed once (for a ``continuous`` law, whose
    P(L > t) and P(L >= t) coincide, once for both)."""
    memo: dict[tuple[Fraction, bool, bool], arb] = {}

    def cached(x: Fraction, strict: bool, under_q: bool) -> arb:
        key = (x, strict and not continuous, under_q)
        if key not in memo:
            memo[key] = survival(x, strict, under_q)
        return memo[key]

    with working_precision(bits + 48):  # one precision for every memoized ball
        return CertifiedPLD(grid_.discretize_upper(cached, step, bits, lo, hi),
                            grid_.discretize_lower(cached, step, bits, lo, hi, merge), relation,
                            tail, composable)


def _tail(value: object) -> int:
    return check_int(value, "tail", minimum=0, maximum=1 << 40)


def _tail_radius(bits: int) -> int:
    """An integer z with e^{−z²/2} < 2^−bits−8 (so Φ(−z) is below the mass unit)."""
    return math.isqrt(2 * (bits + 8) * 7 // 10 + 1) + 2  # 2·ln 2 < 1.4 = 2·0.7


# --------------------------------------------------------------------------- mechanisms


def gaussian_pld(sigma: ExactInput, sensitivity: ExactInput = 1, *,
                 step: ExactInput = DEFAULT_STEP, bits: int = DEFAULT_BITS,
                 tail: int = 1) -> CertifiedPLD:
    """Certified PLD of the Gaussian mechanism N(f(D), σ²) with ℓ2-sensitivity Δ.

    Pair: P = N(0, σ²), Q = N(Δ, σ²), a tight dominating pair for add/remove and for substitution
    alike (whichever relation Δ bounds the sensitivity of); it is symmetric, so both orders are
    covered.  L ~ N(μ²/2, μ²), μ = Δ/σ, and P(L > t) = Φ(μ/2 − t/μ) = erfc((t/μ − μ/2)/√2)/2,
    enclosed by arb's erfc (Balle & Wang 2018; Koskela et al. 2020).  The grid spans the mean ±
    z·μ with Φ(−z) below 2^-bits; the rest is moved to +∞ (pessimistic) or dropped.
    """
    pair = gaussian_pair(sigma, sensitivity)  # validates both
    mu = to_fraction(sensitivity, "sensitivity") / to_fraction(sigma, "sigma")
    h, b, t = _step(step), _bits(bits), _tail(tail)
    lo, hi = _gaussian_range(mu, b)
    return _build(pair.survival, h, b, math.floor(lo / h), math.ceil(hi / h), pair.name, t,
                  merge=True,
                  continuous=True)


def _gaussian_range(mu: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """The mean μ²/2 of the loss ± z·μ, with Φ(−z) below the mass unit 2^-bits."""
    z = _tail_radius(bits)
    return mu * mu / 2 - z * mu, mu * mu / 2 + z * mu


@dataclass(frozen=True)
class LossPair:
    """An ordered pair (P, Q) given by the survival functions of its privacy loss L = ln(dP/dQ):
    ``survival(t, strict, under_q)`` is a ball containing P(L > t) (``strict``) or P(L >= t), or
    the same under Q.  ``low`` and ``high`` bound the grid built for it (only a choice of range:
    mass beyond it is moved soundly, module docstring).  The loss must be finite on the support
    of P and of Q (no ±∞ atoms), as for every pair constructed here.  ``name`` names the pair
    and the relation it is for."""

    survival: Survival
    low: Fraction
    high: Fraction
    name: str


def gaussian_pair(sigma: ExactInput, sensitivity: ExactInput = 1) -> LossPair:
    """The pair P = N(0, σ²), Q = N(Δ, σ²) of :func:`gaussian_pld` (tight and symmetric, both
    relations): L ~ N(μ²/2, μ²) under P and N(−μ²/2, μ²) under Q, μ = Δ/σ, so
    P(L > t) = erfc((t/μ − μ/2)/√2)/2, enclosed by arb's erfc; for
    :func:`poisson_subsampled_pld` and :func:`pair_delta`."""
    s = _positive(sigma, "sigma")
    d = _positive(sensitivity, "sensitivity")
    mu = d / s

    def survival(x: Fraction, strict: bool, under_q: bool) -> arb:
        centre = -mu / 2 if under_q else mu / 2  # L ~ N(±μ²/2, μ²) under P / under Q
        return ((ball(x / mu) - ball(centre)) / arb(2).sqrt()).erfc() / 2

    lo, hi = _gaussian_range(mu, 63)
    return LossPair(survival, lo, hi, f"Gaussian sigma={s} sensitivity={d}")


def pair_pld(pair: LossPair, *, step: ExactInput = DEFAULT_STEP, bits: int = DEFAULT_BITS,
             tail: int = 1) -> CertifiedPLD:
    """Certified PLD of ``pair`` itself (both grids; every loss moved down to the grid for the
    optimistic one)."""
    if not isinstance(pair, LossPair):
        raise InvalidArgument(f"pair={pair!r} must be a LossPair")
    h, b, t = _step(step), _bits(bits), _tail(tail)
    return _build(pair.survival, h, b, math.floor(pair.low / h), math.ceil(pair.high / h),
                  pair.name, t)


def laplace_pair(scale: ExactInput, sensitivity: ExactInput = 1) -> LossPair:
    """The pair P = Lap(0, b), Q = Lap(Δ, b) of the Laplace mechanism f(D) + Lap(b), ℓ1-sensitivity
    Δ: tight and symmetric (both orders), for add/remove and substitution alike (whichever
    relation Δ bounds the sensitivity of).  With ε0 = Δ/b the loss is ε0 on x <= 0 (mass 1/2),
    −ε0 on x >= Δ (mass e^{−ε0}/2) and (Δ − 2x)/b in between, so P(L > t) = 1 − e^{−(ε0−t)/2}/2
    for −ε0 <= t < ε0 (Koskela et al. 2020, Section 6)."""
    b_ = _positive(scale, "scale")
    d = _positive(sensitivity, "sensitivity")
    eps0 = d / b_

    def survival(x: Fraction, strict: bool, under_q: bool) -> arb:
        if x > eps0 or (strict and x == eps0):
            return arb(0)
        if x < -eps0 or (not strict and x == -eps0):
            return arb(1)
        if under_q:  # Q(L > x) = Q(X < (Δ − x·b)/2) for X ~ Lap(Δ, b)
            return (ball(-(eps0 + x) / 2)).exp() / 2
        return 1 - (ball((x - eps0) / 2)).exp() / 2

    return LossPair(survival, -eps0, eps0, f"Laplace scale={b_} sensitivity={d}")


def laplace_pld(scale: ExactInput, sensitivity: ExactInput = 1, *,
                step: ExactInput = DEFAULT_STEP, bits: int = DEFAULT_BITS,
                tail: int = 1) -> CertifiedPLD:
    """Certified PLD of the Laplace mechanism f(D) + Lap(b) with ℓ1-sensitivity Δ (real line),
    for :func:`laplace_pair`; k = 1 gives δ(ε) = 1 − e^{(ε−ε0)/2}, ε0 = Δ/b."""
    return pair_pld(laplace_pair(scale, sensitivity), step=step, bits=bits, tail=tail)


def _atoms_survival(atoms: Sequence[tuple[Fraction, arb]], x: Fraction, strict: bool,
                    under_q: bool) -> arb:
    """P(L > x) (or >=, or under Q) of a finite law of exact losses with ball P-masses; the
    Q-mass of an atom of loss l is its P-mass times e^{−l}."""
    total = arb(0)
    for loss, mass in atoms:
        if loss > x or (not strict and loss == x):
            total += mass * (-ball(loss)).exp() if under_q else mass
    return total


def randomized_response_pair(epsilon: ExactInput) -> LossPair:
    """The pair of binary randomized response with parameter ε0 (Warner 1965): the true bit is
    reported with probability e^{ε0}/(1 + e^{ε0}); P = the output law on input 1, Q = on input 0
    (tight and symmetric; substitution of one bit-holder): loss +ε0 with probability
    e^{ε0}/(1 + e^{ε0}), −ε0 with 1/(1 + e^{ε0}).  It is also a dominating pair of every ε0-DP
    mechanism, for the relation that mechanism is ε0-DP under (Kairouz, Oh & Viswanath 2015,
    Theorem 4; Zhu, Dong & Wang 2022)."""
    e0 = _positive(epsilon, "epsilon")

    def survival(x: Fraction, strict: bool, under_q: bool) -> arb:
        w = ball(e0).exp()
        return _atoms_survival([(e0, w / (1 + w)), (-e0, 1 / (1 + w))], x, strict, under_q)

    return LossPair(survival, -e0, e0, f"randomized response epsilon={e0}")


def randomized_response_pld(epsilon: ExactInput, *, step: ExactInput = DEFAULT_STEP,
                            bits: int = DEFAULT_BITS, tail: int = 1) -> CertifiedPLD:
    """Certified PLD of binary randomized response with parameter ε0
    (:func:`randomized_response_pair`)."""
    return pair_pld(randomized_response_pair(epsilon), step=step, bits=bits, tail=tail)


def discrete_laplace_pair(scale: ExactInput, sensitivity: int = 1) -> LossPair:
    """The pair P = DLap(0, t), Q = DLap(Δ, t) of the discrete Laplace mechanism f(D) + Z,
    P(Z = z) ∝ e^{−|z|/t}, for an integer-valued f of sensitivity Δ (an int): tight and symmetric
    (both orders), add/remove and substitution alike.  With q = e^{−1/t} the loss is Δ/t on
    z <= 0 (mass 1/(1+q)), −Δ/t on z >= Δ (mass q^Δ/(1+q)) and (Δ − 2z)/t at 0 < z < Δ (mass
    (1−q)q^z/(1+q)); all losses are exact rationals (Canonne, Kamath & Steinke 2020 for the law,
    the loss by direct computation)."""
    t_ = _positive(scale, "scale")
    d = check_int(sensitivity, "sensitivity", minimum=1, maximum=1 << 16)

    def survival(x: Fraction, strict: bool, under_q: bool) -> arb:
        q = (-ball(1 / t_)).exp()
        atoms: list[tuple[Fraction, arb]] = [
            (Fraction(d) / t_, 1 / (1 + q)), (-Fraction(d) / t_, q ** d / (1 + q))]
        atoms += [(Fraction(d - 2 * z) / t_, (1 - q) * q ** z / (1 + q)) for z in range(1, d)]
        return _atoms_survival(atoms, x, strict, under_q)

    e0 = Fraction(d) / t_
    return LossPair(survival, -e0, e0, f"discrete Laplace scale={t_} sensitivity={d}")


def discrete_laplace_pld(scale: ExactInput, sensitivity: int = 1, *,
                         step: ExactInput = DEFAULT_STEP, bits: int = DEFAULT_BITS,
                         tail: int = 1) -> CertifiedPLD:
    """Certified PLD of the discrete Laplace mechanism (:func:`discrete_laplace_pair`)."""
    return pair_pld(discrete_laplace_pair(scale, sensitivity), step=step, bits=bits, tail=tail)


_DG_PREC: Final = 128
"""Bits of the discrete Gaussian's probabilities (above every grid's working precision)."""


def _prob_ball(p: Prob) -> arb:
    if isinstance(p, Interval):
        return ball(p.lo).union(ball(p.hi))
    return ball(p)


def discrete_gaussian_pair(sigma2: ExactInput, sensitivity: int = 1) -> LossPair:
    """The pair P = DG(0, σ²), Q = DG(Δ, σ²) of the discrete Gaussian mechanism f(D) + Z,
    P(Z = z) = e^{−z²/(2σ²)}/N (Canonne, Kamath & Steinke 2020, Definition 1), for an
    integer-valued f of sensitivity Δ (an int): tight and symmetric (z -> Δ − z swaps P and Q),
    add/remove and substitution alike.  The normalizers cancel: L(z) = (Δ² − 2zΔ)/(2σ²), exact,
    so P(L > t) = P(Z <= m) with m = ⌈c⌉ − 1 (for >=: m = ⌊c⌋), c = (Δ² − 2σ²t)/(2Δ), and
    Q(L > t) = P(Z <= m − Δ).  P(Z <= m) is the sum of the probabilities of |z| <= K
    (:meth:`~.discrete_noise.DiscreteGaussian.pmf`, whose normalizer N is enclosed with a proved
    tail bound) plus P(Z < −K) in [0, P(Z >= K+1)] (:meth:`~.discrete_noise.DiscreteGaussian.
    tail_mass`); nothing is truncated.  The grid spans z in [−K, K + Δ]."""
    s2 = _positive(sigma2, "sigma2")
    d = check_int(sensitivity, "sensitivity", minimum=1, maximum=1 << 16)
    law = DiscreteGaussian(s2)
    radius = law.radius(_DG_PREC)
    cache: list[tuple[list[arb], arb]] = []

    def cdf(m: int) -> arb:
        """A ball containing P(Z <= m)."""
        if not cache:  # prefix[i] = P(-K <= Z <= -K + i), beyond = P(Z >= K + 1) = P(Z <= -K - 1)
            beyond = _prob_ball(law.tail_mass(radius + 1, _DG_PREC))
            prefix, acc = [], arb(0)
            for z in range(-radius, radius + 1):
                acc += _prob_ball(law.pmf(z, _DG_PREC))
                prefix.append(acc)
            cache.append((prefix, beyond))
        prefix, beyond = cache[0]
        below = arb(0).union(beyond)  # P(Z <= m) for m < -K lies in [0, P(Z < -K)]
        if m < -radius:
            return below
        if m > radius:
            return 1 - below
        return beyond + prefix[m + radius]

    def survival(x: Fraction, strict: bool, under_q: bool) -> arb:
        c = (d * d - 2 * s2 * x) / (2 * d)
        m = math.ceil(c) - 1 if strict else math.floor(c)
        return cdf(m - d if under_q else m)

    low = Fraction(d * d - 2 * (radius + d) * d) / (2 * s2)
    high = Fraction(d * d + 2 * radius * d) / (2 * s2)
    return LossPair(survival, low, high, f"discrete Gaussian sigma2={s2} sensitivity={d}")


def discrete_gaussian_pld(sigma2: ExactInput, sensitivity: int = 1, *,
                          step: ExactInput = DEFAULT_STEP, bits: int = DEFAULT_BITS,
                          tail: int = 1) -> CertifiedPLD:
    """Certified PLD of the discrete Gaussian mechanism (:func:`discrete_gaussian_pair`); it
    also bounds the composition of discrete Gaussians, which CKS20 bound through zCDP only."""
    return pair_pld(discrete_gaussian_pair(sigma2, sensitivity), step=step, bits=bits, tail=tail)


# --------------------------------------------------------------------------- subsampling


def _mixture_pair(pair: LossPair, gamma: Fraction, forward: bool, name: str) -> LossPair:
    """``forward``: ((1 − γ)Q + γP, Q), loss L' = ln(1 − γ + γe^L); otherwise
    (Q, (1 − γ)Q + γP), loss −ln(1 − γ + γe^L).  Both are monotone in L, so with
    s(u) = ln((e^u − (1 − γ))/γ): forward, L' > t iff L > s(t); reverse, L' > t iff L < s(−t)
    (L' >= t iff L <= s(−t)); when e^{±t} <= 1 − γ every outcome (forward) or none (reverse)
    has L' > t.  s is enclosed in [s_lo, s_hi] and each survival is monotone in s, so the value
    lies between its values at s_hi and s_lo (their union is returned)."""
    base, g = pair.survival, gamma

    def at(s: Fraction, strict: bool, under_q: bool) -> arb:
        if forward:
            below = base(s, strict, True)
            return below if under_q else (1 - ball(g)) * below + ball(g) * base(s, strict, False)
        inner = base(s, not strict, True)  # Q(L >= s) or Q(L > s): the complement's event
        if under_q:
            inner = (1 - ball(g)) * inner + ball(g) * base(s, not strict, False)
        return 1 - inner

    def survival(x: Fraction, strict: bool, under_q: bool) -> arb:
        room = ball(x if forward else -x).exp() - ball(1 - g)
        if not room > 0:
            if room < 0:
                return arb(1) if forward else arb(0)
            return arb(0).union(arb(1))
        cut = to_interval((room / ball(g)).log(), "a subsampled loss")
        return at(cut.lo, strict, under_q).union(at(cut.hi, strict, under_q))

    with working_precision(64):
        ends = [to_interval((1 - ball(g) + ball(g) * ball(v).exp()).log(), "a loss bound")
                for v in (pair.low, pair.high)]
    low, high = (ends[0].lo, ends[1].hi) if forward else (-ends[1].hi, -ends[0].lo)
    return LossPair(survival, low, high, name)


def _rate(value: object, name: str) -> Fraction:
    q = to_fraction(value, name)
    if not 0 < q < 1:
        raise InvalidArgument(f"{name}={q} must be in (0, 1) (rate 1 is the mechanism itself)")
    return q


def poisson_subsampled_pld(pair: LossPair, rate: ExactInput, order: str, *,
                           step: ExactInput = DEFAULT_STEP, bits: int = DEFAULT_BITS,
                           tail: int = 1) -> CertifiedPLD:
    """Certified PLD of a Poisson-subsampled mechanism (each record kept with probability q, then
    M), add/remove neighbours, where ``pair`` = (P, Q) dominates M for removal (M(D) against
    M(D minus one record)) in Zhu, Dong & Wang's sense (for every hockey-stick order α >= 0, i.e.
    its whole trade-off curve; true of the tight symmetric pairs constructed here: Laplace,
    discrete Laplace and Gaussian with the removal's sensitivity, and randomized response for
    any ε0-DP M).  Zhu, Dong & Wang 2022 (Theorem 11 and Proposition 30):

    * ``order="remove"`` (D' = D minus one record): ((1−q)Q + qP, Q);
    * ``order="add"`` (D' = D plus one record): (Q, (1−q)Q + qP);

    each a dominating pair for its direction (tight when ``pair`` is).  The mechanism's δ(ε)
    after k compositions is the larger of the two orders' composed δ(ε) (the datasets are fixed,
    so every step shares the direction).  The loss is L' = ±ln(1 − q + q·e^L), its survival a
    mixture of ``pair``'s survivals at an enclosed cut (:func:`_mixture_pair`).
    """
    if not isinstance(pair, LossPair):
        raise InvalidArgument(f"pair={pair!r} must be a LossPair")
    q = _rate(rate, "rate")
    if order not in ("remove", "add"):
        raise InvalidArgument(f"order={order!r} must be 'remove' or 'add'")
    sub = _mixture_pair(pair, q, order == "remove",
                        f"Poisson-subsampled ({pair.name}) rate={q} ({order}, add/remove)")
    return pair_pld(sub, step=step, bits=bits, tail=tail)


def fixed_size_subsampled_pld(pair: LossPair, size: int, population: int, *,
                              step: ExactInput = DEFAULT_STEP, bits: int = DEFAULT_BITS,
                              tail: int = 1) -> CertifiedPLD:
    """Certified PLD of one use of M on a uniformly random subset of ``size`` = m of the
    ``population`` = n records (sampling without replacement), substitution neighbours (|D| = n
    fixed, one record replaced), where ``pair`` = (P, Q) dominates M under substitution at every
    hockey-stick order α >= 1 (ε >= 0).  With γ = m/n the pair is ((1−γ)Q + γP, Q); its δ(ε)
    bounds δ_{M(D),M(D')}(ε) for *both* orderings of every pair of substitution neighbours and
    every ε >= 0 (the result of Zhu, Dong & Wang 2022 for sampling without replacement).  Proof:
    M(D) = (1−γ)A + γB and M(D') = (1−γ)A + γB', where A is M's law on the subsets without the
    replaced record and B, B' on those with it.  Balle, Barthe & Gaboardi 2018's advanced joint
    convexity (their Theorem 2, an equality) gives H_{α'}(M(D)‖M(D')) = γ·H_α(B‖(1−β)A + βB'),
    α' = 1 + γ(α − 1), β = α'/α; convexity in the second argument bounds that by
    γ·((1−β)H_α(B‖A) + β·H_α(B‖B')), and both are at most H_α(P‖Q), because B against A (couple
    each subset holding the record with the subset that swaps it for a record outside) and B
    against B' are mixtures of substitution pairs.  The same identity gives
    H_{α'}((1−γ)Q + γP‖Q) = γ·H_α(P‖Q) exactly.  The reversed pair (Q, (1−γ)Q + γP) is the
    bound at orders α < 1 (negative ε, the other half of the trade-off curve), which no δ(ε) at
    ε >= 0 needs.

    One use only: composition needs one pair dominating the whole trade-off curve, and that is
    the symmetrisation min{f, f⁻¹}** (Dong, Roth & Su 2022) of this pair's curve f, not this
    pair; so the result refuses :meth:`CertifiedPLD.compose` and :meth:`CertifiedPLD.self_compose`
    (k > 1).  Under add/remove, use :func:`poisson_subsampled_pld`.
    """
    if not isinstance(pair, LossPair):
        raise InvalidArgument(f"pair={pair!r} must be a LossPair")
    n = check_int(population, "population", minimum=2, maximum=1 << 62)
    m = check_int(size, "size", minimum=1, maximum=n - 1)
    sub = _mixture_pair(pair, Fraction(m, n), True,
                        f"fixed-size subsampled ({pair.name}) {m} of {n} (substitution)")
    h, b, t = _step(step), _bits(bits), _tail(tail)
    return _build(sub.survival, h, b, math.floor(sub.low / h), math.ceil(sub.high / h), sub.name,
                  t, composable=False)


def _tail_prob(y: arb) -> arb:
    """1 − Φ(y) = erfc(y/√2)/2."""
    return (y / arb(2).sqrt()).erfc() / 2


def poisson_subsampled_gaussian_pld(sigma: ExactInput, rate: ExactInput, order: str, *,
                                    step: ExactInput = DEFAULT_STEP, bits: int = DEFAULT_BITS,
                                    tail: int = 1) -> CertifiedPLD:
    """Certified PLD of the Poisson-subsampled Gaussian mechanism (each record kept with probability
    q, then the sum of the kept records' values clipped to norm 1 plus N(0, σ²)), add/remove
    neighbours.  Zhu, Dong & Wang 2022 (Theorem 11 and Proposition 30): the pairs

    * ``order="remove"`` (D' = D minus one record): P = (1−q)·N(0, σ²) + q·N(1, σ²), Q = N(0, σ²);
    * ``order="add"`` (D' = D plus one record): P = N(0, σ²), Q = (1−q)·N(0, σ²) + q·N(1, σ²);

    each a tight dominating pair for its direction.  The mechanism's δ(ε) after k compositions
    is the larger of the two orders' composed δ(ε) (every step shares the direction, since the
    datasets are fixed); this function gives one order.  The loss is monotone in the output x:
    remove: L = ln(1 − q + q·e^{(2x−1)/(2σ²)}); add: minus that; its survival under P and Q is a
    mixture of Φ values at x_t = σ²·ln((e^{±t} − (1 − q))/q) + 1/2, enclosed with arb.
    """
    pair = poisson_subsampled_gaussian_pair(sigma, rate, order)  # validates the three
    s, q = to_fraction(sigma, "sigma"), to_fraction(rate, "rate")
    h, b, t = _step(step), _bits(bits), _tail(tail)
    lo, hi = _subsampled_gaussian_range(s, q, order == "remove", b)
    return _build(pair.survival, h, b,
                  math.floor(lo / h) - 1, math.ceil(hi / h) + 1,
                  f"Poisson-subsampled Gaussian sigma={s} rate={q} ({order})", t, merge=True,
                  continuous=True)


def _subsampled_gaussian_range(s: Fraction, q: Fraction, remove: bool,
                               bits: int) -> tuple[Fraction, Fraction]:
    """The loss range spanned by the grid: the output within 1 + z·σ of the mean, Φ(−z) below
    the mass unit."""
    z = _tail_radius(bits)
    with working_precision(64):
        far = (ball((2 * (1 + z * s) - 1) / (2 * s * s))).exp()
        top = to_interval((1 - ball(q) + ball(q) * far).log(), "a loss bound").hi
    near = q / (1 - q)  # |ln(1 − q)| <= q/(1 − q)
    return (-near, top) if remove else (-top, near)


def poisson_subsampled_gaussian_pair(sigma: ExactInput, rate: ExactInput,
                                     order: str) -> LossPair:
    """The pair of :func:`poisson_subsampled_gaussian_pld` (same orders, same relation), for
    :func:`pair_delta` and :func:`pair_epsilon` (one step, no grid)."""
    s = _positive(sigma, "sigma")
    q = to_fraction(rate, "rate")
    if not 0 < q < 1:
        raise InvalidArgument(f"rate={q} must be in (0, 1) (rate 1 is gaussian_pld)")
    if order not in ("remove", "add"):
        raise InvalidArgument(f"order={order!r} must be 'remove' or 'add'")
    remove = order == "remove"
    var = s * s

    def survival(x: Fraction, strict: bool, under_q: bool) -> arb:
        inner = (ball(x if remove else -x)).exp() - ball(1 - q)
        if not inner > 0:  # the loss bound ±ln(1 − q) is within the ball: only [0, 1] is known
            if inner < 0:  # e^{±t} < 1 − q: the event is everything (remove) or nothing (add)
                return arb(1) if remove else arb(0)
            return arb(0).union(arb(1))
        cut = ball(var) * (inner / ball(q)).log() + ball(Fraction(1, 2))
        z0, z1 = cut / ball(s), (cut - 1) / ball(s)
        if remove:  # L > t iff X > cut
            if under_q:
                return _tail_prob(z0)
            return ball(1 - q) * _tail_prob(z0) + ball(q) * _tail_prob(z1)
        # add: L > t iff X < cut
        if under_q:
            return ball(1 - q) * _tail_prob(-z0) + ball(q) * _tail_prob(-z1)
        return _tail_prob(-z0)

    lo, hi = _subsampled_gaussian_range(s, q, remove, 63)
    return LossPair(survival, lo, hi,
                    f"Poisson-subsampled Gaussian sigma={s} rate={q} ({order}, add/remove)")


_PAIR_PREC: Final = 128
"""Working precision (bits) of :func:`pair_delta`."""


def pair_delta(pair: LossPair, epsilon: ExactInput, prec: int = _PAIR_PREC) -> Interval:
    """[lo, hi] containing δ_{P,Q}(ε) = P(L > ε) − e^ε·Q(L > ε) of one use of ``pair`` (ε >= 0,
    exact): the hockey-stick divergence at its optimal set {L > ε} (module docstring), evaluated
    from the survival enclosures at ``prec`` bits, no grid."""
    if not isinstance(pair, LossPair):
        raise InvalidArgument(f"pair={pair!r} must be a LossPair")
    eps = to_fraction(epsilon, "epsilon")
    if eps < 0:
        raise InvalidArgument(f"epsilon={eps} must be >= 0")
    work = check_int(prec, "prec", minimum=32, maximum=1 << 14)
    with working_precision(work):
        box = to_interval(pair.survival(eps, True, False)
                          - ball(eps).exp() * pair.survival(eps, True, True), "a delta")
    return Interval(max(box.lo, Fraction(0)), min(box.hi, Fraction(1)))


def pair_epsilon(pair: LossPair, delta: ExactInput, rel: ExactInput = Fraction(1, 1 << 30),
                 prec: int = _PAIR_PREC) -> Interval:
    """[lo, hi] containing the least ε >= 0 with δ_{P,Q}(ε) <= δ for one use of ``pair``
    (0 < δ < 1): δ(hi) <= δ is proved by :func:`pair_delta`, and δ(lo) > δ is proved (or
    lo = 0); δ is nonincreasing in ε, so the least ε lies between.  Bisection on dyadic ε until
    hi − lo <= rel·hi, or until :func:`pair_delta` cannot decide at ``prec`` bits (wider then)."""
    d = to_fraction(delta, "delta")
    if not 0 < d < 1:
        raise InvalidArgument(f"delta={d} must be in (0, 1)")
    r = _positive(rel, "rel")
    if pair_delta(pair, 0, prec).hi <= d:
        return Interval(Fraction(0), Fraction(0))
    lo, hi = Fraction(0), Fraction(1)
    while (box := pair_delta(pair, hi, prec)).hi > d:
        if box.lo > d:  # lo moves only where δ > δ is proved
            lo = hi
        hi *= 2
        if hi > 1 << 20:
            raise TooLargeToEnumerate(f"delta={d}: no epsilon <= 2^20 is proved for {pair.name}")
    while hi - lo > r * hi:
        mid = (lo + hi) / 2
        box = pair_delta(pair, mid, prec)
        if box.hi <= d:
            hi = mid
        elif box.lo > d:
            lo = mid
        else:
            break
    return Interval(lo, hi)

