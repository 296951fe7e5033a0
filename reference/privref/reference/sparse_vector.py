"""The sparse vector technique of paper 001 (Algorithm 6), over discrete or continuous Laplace
noise, and its cutoff-1 round AboveThreshold (Dwork and Roth 2014, Algorithm 1).

001 Algorithm 6 (after Dwork et al. 2010 and Dwork and Roth 2014, "Sparse"): the
threshold is ŵ = w + Lap(λ); each query q gets q̂ = q(D) + Lap(2λ); the output is ⊤ when
q̂ > ŵ and ⊥ otherwise, and the run halts at the ``cutoff``-th ⊥ (T).  Two places differ
between the printed algorithm and the Dwork–Roth one, and both are variants here:

* the refresh after a ⊥: printed ŵ ← w + 1 (no fresh noise: every later query is compared
  with a fixed threshold), corrected ŵ ← w + Lap(λ);
* the scale: printed λ = √(32T ln(1/δ)/ε), corrected λ = √(32T ln(1/δ))/ε.

Discrete variant (ours): the queries are integer valued with sensitivity 1, and both
noises are discrete Laplace (CKS20) with the rational scales t ≥ λ and 2t (t the least
multiple of 1/``denominator`` that is >= λ; a larger scale only adds privacy).  Between two
⊥'s the comparisons share one threshold draw, so one round is a single
:class:`~privref.reference.discrete_noise.ThresholdRun` choice; with the printed refresh
every later query is an independent :func:`~privref.reference.discrete_noise.exceeds`.

Continuous variant (``noise="continuous"``): the paper's own Lap(λ) and Lap(2λ) with λ exact
(irrational in general: the noise laws take λ as their unit), each round one
:class:`~privref.reference.continuous_noise.ThresholdRun` decided in closed form.

Privacy accounting.  Continuous (the paper's, Dwork–Roth Theorem 3.26 via advanced
composition): each cutoff-1 round is (2/λ)-DP, and T rounds are
(√(2T ln(1/δ))·ε0 + T·ε0·(e^{ε0} - 1), δ)-DP with ε0 = 2/λ, which is at most ε for the
corrected λ when ε <= 1 and δ <= e^{-1/2} (the first term is exactly ε/2; for δ near 1 the
second is not small: 2.65 at ε = 1, δ = 9/10, T = 1).  Discrete
(:func:`discrete_accounting`): the same round argument goes through with integer shifts
(ρ → ρ + 1 costs e^{1/t}, the stopping query's ν → ν + 2 costs e^{2/(2t)}; strict and
non-strict integer comparisons are preserved exactly), so each round is (2/t)-DP, and T
rounds compose to (2T/t)-DP (basic) or the advanced-composition bound above with ε0 = 2/t.
Neither argument covers the printed refresh: after its first ⊥ every ⊤ spends privacy of its
own, with no bound in terms of T.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from . import continuous_noise as cn
from .citations import Source, Uncited, cite
from .data import Dataset
from .discrete_noise import DiscreteLaplace, difference_tail, exceeds, first_at_most
from .errors import InvalidArgument
from .mechanism import Mechanism
from .neighbors import SUBSTITUTION, NeighborRelation
from .privacy import PrivacyClaim
from .program import Program
from .reals import Order, Prob, Real, compare, exp, log, rational, sqrt
from .validate import ExactInput, check_delta, check_int, check_positive, to_fraction

__all__ = [
    "BOTTOM",
    "TOP",
    "SparseVectorParameters",
    "above_threshold",
    "continuous_accounting",
    "continuous_release_probability",
    "discrete_accounting",
    "discrete_release_probability",
    "laplace_difference_tail",
    "paper_release_bound",
    "parameters",
    "rational_scale_at_least",
    "sparse_vector",
    "svt_lambda",
]

TOP = "⊤"
"""Output for a query whose noisy value exceeds the noisy threshold (001 Algorithm 6)."""

BOTTOM = "⊥"
"""Output for a query at or below the noisy threshold; the run halts at the T-th one."""

Query = Callable[[Dataset], int]
Variant = Literal["printed", "corrected"]
NoiseKind = Literal["discrete", "continuous"]


def _check_epsilon(epsilon: object) -> Fraction:
    return check_positive(to_fraction(epsilon, "epsilon"), "epsilon")


def _check_open_delta(delta: object) -> Fraction:
    d = check_delta(delta)
    if d == 0:
        raise InvalidArgument(f"delta={d} must be > 0 (it lies in the open interval (0, 1))")
    return d


def svt_lambda(epsilon: ExactInput, delta: ExactInput, cutoff: int, variant: Variant) -> Real:
    """λ of 001 Algorithm 6 step 1, exactly: printed √(32T ln(1/δ)/ε), corrected √(32T ln(1/δ))/ε.

    The corrected form is Dwork and Roth 2014 Theorem 3.26's σ; the printed one moves ε under
    the root.  InvalidArgument names epsilon (<= 0), delta (outside (0, 1)), cutoff (< 1).
    """
    eps = _check_epsilon(epsilon)
    d = _check_open_delta(delta)
    t = check_int(cutoff, "cutoff", minimum=1)
    inner = log(1 / d) * (32 * t)
    if variant == "printed":
        return sqrt(inner / eps)
    if variant == "corrected":
        return sqrt(inner) / eps
    raise InvalidArgument(f"variant={variant!r} must be 'printed' or 'corrected'")


def rational_scale_at_least(value: Real, denominator: int = 1) -> Fraction:
    """A multiple of 1/denominator that is >= value (> 0): the least one, or one step above it
    when the value equals that multiple but exact comparison cannot prove it (√2·√2 with
    denominator 4 gives 9/4); never below the value, so a scale chosen this way only adds noise."""
    check_int(denominator, "denominator", minimum=1)
    box = value.enclose(128)
    candidate = Fraction(math.ceil(box.hi * denominator), denominator)
    while candidate - Fraction(1, denominator) > 0:
        order, _ = compare(value, candidate - Fraction(1, denominator))
        if order in (Order.GREATER, Order.UNDECIDED):
            break
        candidate -= Fraction(1, denominator)
    return max(candidate, Fraction(1, denominator))


@dataclass(frozen=True, slots=True)
class SparseVectorParameters:
    """The exact λ of 001 Algorithm 6 and the rational discrete scale t >= λ used for the noise."""

    lam: Real
    scale: Fraction


def continuous_accounting(lam: Real, cutoff: int, delta: ExactInput) -> PrivacyClaim:
    """(√(2T ln(1/δ))·ε0 + T·ε0·(e^{ε0} - 1), δ) with ε0 = 2/λ: T cutoff-1 rounds with Lap(λ), Lap(2λ).

    Each round is (2/λ)-DP (Dwork and Roth 2014 Theorem 3.23, scaled); advanced composition
    (Dwork and Roth 2014 Theorem 3.20 with δ' = δ) gives the claim.  Source of the use:
    001 Lemma 45.
    """
    d = _check_open_delta(delta)
    t = check_int(cutoff, "cutoff", minimum=1)
    eps0 = rational(2) / lam
    eps = sqrt(log(1 / d) * (2 * t)) * eps0 + eps0 * (exp(eps0) - 1) * t
    return PrivacyClaim(eps, d)


def discrete_accounting(scale: Fraction, cutoff: int, delta: ExactInput
                        ) -> tuple[PrivacyClaim, PrivacyClaim]:
    """(basic, advanced) guarantees of the discrete variant with scales t and 2t (module docstring).

    basic: (2T/t)-DP; advanced: (√(2T ln(1/δ))·ε0 + T·ε0·(e^{ε0} - 1), δ) with ε0 = 2/t.
    Both hold for the corrected refresh only.  Ours, following 001 Lemma 45's argument.
    """
    s = check_positive(to_fraction(scale, "scale"), "scale")
    t = check_int(cutoff, "cutoff", minimum=1)
    basic = PrivacyClaim(rational(Fraction(2 * t) / s))
    return basic, continuous_accounting(rational(s), t, delta)


def _values(queries: tuple[Query, ...], data: Dataset) -> tuple[int, ...]:
    out = []
    for i, q in enumerate(queries):
        v = q(data)
        if isinstance(v, bool) or not isinstance(v, int):
            raise InvalidArgument(f"queries[{i}] returned {v!r}, which is not an int")
        out.append(v)
    return tuple(out)


def _program(queries: tuple[Query, ...], threshold: int, lam: Real, scale: Fraction,
             cutoff: int, refresh: Variant, noise: NoiseKind
             ) -> Callable[[Dataset], Program[tuple[str, ...]]]:
    """The one program of 001 Algorithm 6 over either noise (module docstring).

    A round compares the remaining queries with one noisy threshold until the first ⊥:
    one :func:`~privref.reference.discrete_noise.first_at_most` event (discrete Laplace with
    scales t, 2t) or one :func:`~privref.reference.continuous_noise.first_below` event
    (continuous Lap(λ), Lap(2λ), λ exact); after a printed refresh each query is one
    ``exceeds`` test against w + 1.
    """
    def rounds(values: tuple[int, ...]) -> Program[int]:
        if noise == "continuous":
            return cn.first_below(bar_c, threshold, query_c, values)
        return first_at_most(bar_d, threshold, query_d, values)

    def fixed(value: int) -> Program[bool]:
        if noise == "continuous":
            return cn.exceeds(query_c, value, threshold + 1)
        return exceeds(query_d, value, threshold + 1)

    bar_d, query_d = DiscreteLaplace(scale), DiscreteLaplace(2 * scale)
    exact = lam.exact
    bar_c = cn.LaplaceNoise(exact, None) if exact is not None else cn.LaplaceNoise(Fraction(1), lam)
    query_c = (cn.LaplaceNoise(2 * exact, None) if exact is not None
               else cn.LaplaceNoise(Fraction(2), lam))

    def program(data: Dataset) -> Program[tuple[str, ...]]:
        values = _values(queries, data)
        out: list[str] = []
        start, count, noisy = 0, 0, True
        while start < len(values):
            if noisy:
                run = yield from rounds(values[start:])
                out.extend([TOP] * run)
                start += run
                if start == len(values):
                    break
            else:
                passed = yield from fixed(values[start])
                if passed:
                    out.append(TOP)
                    start += 1
                    continue
            out.append(BOTTOM)
            start += 1
            count += 1
            if count >= cutoff:
                break
            noisy = refresh == "corrected"
        return tuple(out)

    return program


def _source(refresh: str, scale: str) -> Source:
    """Printed (both changes): 001 Lemma 45 as printed, which the ledger refutes; corrected:
    its correction; a mixed variant implements neither statement."""
    if refresh == scale == "printed":
        return cite("001 Lemma 45 (printed)")
    if refresh == scale == "corrected":
        return cite("001 Lemma 45 (corrected)")
    return Uncited(f"a mixed variant of 001 Algorithm 6 ({refresh} refresh, {scale} lambda), "
                   "for comparison: neither the printed nor the corrected Lemma 45")


def sparse_vector(queries: tuple[Query, ...], threshold: int, epsilon: ExactInput, delta: ExactInput,
                  cutoff: int, *, refresh: Variant = "corrected", scale: Variant = "corrected",
                  denominator: int = 1, noise: NoiseKind = "discrete"
                  ) -> Mechanism[tuple[str, ...]]:
    """001 Algorithm 6, as printed or corrected (module docstring), over either noise.

    ``noise`` "discrete": discrete Laplace with the rational scales t >= λ and 2t (the twin);
    "continuous": the paper's own Lap(λ) and Lap(2λ) with λ exact (irrational in general),
    decided exactly in closed form (:mod:`privref.reference.continuous_noise`).
    ``queries`` are integer-valued with sensitivity 1 under substitution (the caller's
    precondition); the output is the tuple of ⊤/⊥, halting at the ``cutoff``-th ⊥ (the
    Dwork–Roth halt; the printed loop condition "while c <= T" would allow T + 1 of them).
    Claim: (ε, δ) as 001 Lemma 45 states it.  InvalidArgument names queries, threshold,
    epsilon, delta, cutoff, refresh, scale or noise.
    """
    if not isinstance(queries, tuple) or not queries or not all(map(callable, queries)):
        raise InvalidArgument(f"queries={queries!r} must be a non-empty tuple of callables")
    w = check_int(threshold, "threshold")
    eps = _check_epsilon(epsilon)
    d = _check_open_delta(delta)
    t = check_int(cutoff, "cutoff", minimum=1)
    if refresh not in ("printed", "corrected"):
        raise InvalidArgument(f"refresh={refresh!r} must be 'printed' or 'corrected'")
    if scale not in ("printed", "corrected"):
        raise InvalidArgument(f"scale={scale!r} must be 'printed' or 'corrected'")
    if noise not in ("discrete", "continuous"):
        raise InvalidArgument(f"noise={noise!r} must be 'discrete' or 'continuous'")
    params = parameters(eps, d, t, scale, denominator)
    refresh_text = "ŵ ← w + 1" if refresh == "printed" else "ŵ ← w + Lap(λ)"
    if noise == "continuous":
        kind = ", continuous Laplace"
        text = f"001 Algorithm 6 over continuous Laplace, threshold w={w}, T={t}, {scale} lambda"
    else:
        kind = ""
        text = (f"001 Algorithm 6 over discrete Laplace, threshold w={w}, T={t}, "
                f"{scale} lambda rounded up to t={params.scale}")
    return Mechanism(
        f"sparse vector ({refresh} refresh, {scale} lambda{kind})",
        _program(queries, w, params.lam, params.scale, t, refresh, noise),
        PrivacyClaim(rational(eps), d),
        _source(refresh, scale),
        description=f"{text}, refresh {refresh_text}")


def above_threshold(queries: tuple[Query, ...], threshold: ExactInput, epsilon: ExactInput, *,
                    below: bool = False, relation: NeighborRelation = SUBSTITUTION,
                    name: str = "AboveThreshold") -> Mechanism[int]:
    """AboveThreshold (Dwork and Roth 2014, Algorithm 1): the index of the first query whose
    value plus Lap(4/ε) exceeds the threshold plus one shared Lap(2/ε); len(queries) if none.

    ``below``: the first query whose noisy value falls below the noisy threshold instead (the
    same algorithm on the negated queries and threshold, by the noise's symmetry).  Precondition
    (caller-checked): each query has sensitivity 1 under ``relation``.  Guarantee: ε-DP (Dwork
    and Roth 2014, Theorem 3.23).  ε and the threshold are exact rationals; the law is decided
    exactly (:class:`privref.reference.continuous_noise.ThresholdRun`).
    """
    if not isinstance(queries, tuple) or not queries or not all(map(callable, queries)):
        raise InvalidArgument(f"queries={queries!r} must be a non-empty tuple of callables")
    w = to_fraction(threshold, "threshold")
    eps = _check_epsilon(epsilon)
    if not isinstance(below, bool):
        raise InvalidArgument(f"below={below!r} must be a bool")
    rho, nu = cn.LaplaceNoise(2 / eps), cn.LaplaceNoise(4 / eps)
    run = cn.first_below if below else cn.first_above

    def program(data: Dataset) -> Program[int]:
        return run(rho, w, nu, _values(queries, data))

    side = "below" if below else "above"
    return Mechanism(name, program, PrivacyClaim(rational(eps)),
                     cite("folklore Dwork-Roth 2014 Theorem 3.23"), relation=relation,
                     description=f"first of {len(queries)} queries + Lap({4 / eps}) {side} "
                                 f"{w} + Lap({2 / eps})")


def parameters(epsilon: ExactInput, delta: ExactInput, cutoff: int, scale: Variant,
               denominator: int = 1) -> SparseVectorParameters:
    """λ (printed or corrected) and the discrete scale t: the least multiple of 1/denominator >= λ."""
    lam = svt_lambda(epsilon, delta, cutoff, scale)
    return SparseVectorParameters(lam, rational_scale_at_least(lam, denominator))


# ------------------------------------------------- release of an unstable query


def laplace_difference_tail(b1: ExactInput, b2: ExactInput, w: ExactInput) -> Real:
    """P(X - Y > w) for independent X ~ Lap(b1), Y ~ Lap(b2), b1 != b2, w >= 0, exactly.

    = (b1² e^{-w/b1} - b2² e^{-w/b2}) / (2(b1² - b2²)): convolving the two densities,
    X - Y has density (b1 e^{-|z|/b1} - b2 e^{-|z|/b2})/(2(b1² - b2²)), whose tail
    beyond w >= 0 integrates to the displayed form.  (001 Theorem 2's proof, the
    screening of 001 Algorithm 2.)
    """
    p = check_positive(to_fraction(b1, "b1"), "b1")
    q = check_positive(to_fraction(b2, "b2"), "b2")
    x = to_fraction(w, "w")
    if x < 0:
        raise InvalidArgument(f"w={x} must be >= 0")
    if p == q:
        raise InvalidArgument(f"b1={p} and b2={q} must differ")
    num = exp(rational(-x / p)) * (p * p) - exp(rational(-x / q)) * (q * q)
    return num / (2 * (p * p - q * q))


def continuous_release_probability(lam: ExactInput, w: ExactInput) -> Real:
    """P(Lap(2λ) - Lap(λ) > w) = (4e^{-w/(2λ)} - e^{-w/λ})/6 for w >= 0 (001 Algorithm 2 screening).

    The probability that an unstable query (distance 0) passes the screen; the special case
    b1 = 2λ, b2 = λ of :func:`laplace_difference_tail`, written out.
    """
    lam_f = check_positive(to_fraction(lam, "lam"), "lam")
    x = to_fraction(w, "w")
    if x < 0:
        raise InvalidArgument(f"w={x} must be >= 0")
    return (exp(rational(-x / (2 * lam_f))) * 4 - exp(rational(-x / lam_f))) / 6


def paper_release_bound(lam: ExactInput, w: ExactInput) -> Real:
    """e^{-w/(3λ)}, the bound 001 Theorem 2's proof uses for the release probability above."""
    lam_f = check_positive(to_fraction(lam, "lam"), "lam")
    return exp(rational(-to_fraction(w, "w") / (3 * lam_f)))


def discrete_release_probability(scale: ExactInput, w: int, prec: int = 96) -> Prob:
    """P(ν - ρ > w) for ν ~ DLap(2t), ρ ~ DLap(t) independent: the discrete analogue, exactly.

    = P(ν - ρ >= w + 1), the closed form of
    :func:`~privref.reference.discrete_noise.difference_tail` (enclosed at ``prec`` bits).
    """
    s = check_positive(to_fraction(scale, "scale"), "scale")
    check_int(w, "w")
    return difference_tail(DiscreteLaplace(2 * s), DiscreteLaplace(s), w + 1, prec)
