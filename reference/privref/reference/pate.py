"""PATE aggregators of paper 001: Algorithm 1 (Gaussian PATE) and Algorithm 2 (SVT-PATE).

Input and neighbors (both algorithms).  A dataset is the tuple of the K teachers' label
vectors, one per teacher, each a tuple of ℓ labels in {0, 1} (teacher k's predictions on the
ℓ queries x_1..x_ℓ, fixed in advance: the non-adaptive special case of 001's Nature).  One
private record lives in one teacher's part, so a neighbor substitutes ONE teacher's whole
label vector: every vote count moves by at most 1, and all ℓ counts can move together.  This
is the substitution relation on the tuple of label vectors, and it is the relation the claims
below are stated for.

Algorithm 1 (001 Algorithm 1, Theorem 2).  For each query j, release 1(votes_j + Z_j >= K/2)
with fresh noise Z_j.  The paper's noise is N(0, σ²); here it is the discrete Gaussian of
Canonne, Kamath and Steinke 2020 (CKS20) with a rational σ², whose release with sensitivity 1
is 1/(2σ²)-zCDP (CKS20 Theorem 4), so ℓ queries are ℓ/(2σ²)-zCDP (composition,
:func:`~privref.reference.accounting.zcdp_compose`) and (ρ + 2√(ρ ln(1/δ)), δ)-DP by 001
Lemma 51 (:func:`~privref.reference.accounting.zcdp_epsilon`).  Since votes_j + Z_j is an
integer, the test is votes_j + Z_j >= ⌈K/2⌉.  This is NOT GNMax: GNMax adds independent noise
to both class counts, n1 + Z1 >= n0 + Z0, which for two classes is noise of variance σ²/2 on
the vote count; Algorithm 1 adds noise once, to the count of ones.

One query of Algorithm 1 is :func:`gaussian_label` (discrete noise) or
:func:`continuous_gaussian_label` (the paper's N(0, σ²): a Bernoulli(Φ((vote − K/2)/σ)) bit, with
Φ an exact real enclosed by :func:`~privref.reference.accounting.normal_cdf`); the vector
versions loop over them, and :func:`majority_votes` / :func:`majority_label` are the noiseless
aggregator of the non-private baselines.

Algorithm 2 (001 Algorithm 2, Theorem 2).  dist_j = max{0, ⌈Δ_j/2⌉ - 1} with Δ_j = |2·votes_j - K|
(:func:`~privref.reference.stability_release.instability_distance`); dist_j + ν_j (ν_j ~ DLap(2t))
is compared with the shared noisy threshold w + ρ (ρ ~ DLap(t)); above it the exact majority
(ties to 1) is released, otherwise ⊥ and ρ is redrawn; the run stops at the T-th ⊥.  t is the
least multiple of 1/denominator that is >= λ, as in
:mod:`~privref.reference.sparse_vector`; since dist_j + ν_j - ρ is an integer, comparing with
the real w is comparing with ⌊w⌋.  Between two ⊥'s the comparisons share ρ: one
:class:`~privref.reference.discrete_noise.ThresholdRun`.

Accounting of the discrete Algorithm 2 (ours, following 001 Theorem 2's proof).  A released
label can differ between neighbors only at a query where dist_j = 0 on both sides (dist >= 1
keeps the majority under one changed vote).  Let B be "some query with dist_j(D) = 0 passes";
each query is compared once, with a threshold noise independent of its own ν, so
P(B) <= ℓ·P(ν - ρ > w).  Off B the output is a function of the ⊤/⊥ pattern alone, which is T
cutoff-1 discrete SVT rounds, each (2/t)-DP (:mod:`~privref.reference.sparse_vector`).  Hence
the output is (ε_svt, δ_svt + ℓ·P(ν - ρ > w))-DP for any (ε_svt, δ_svt) guarantee of the
pattern: basic composition gives (2T/t, 0) (:func:`svt_pate_at`); the paper's route gives
2T/t² <= 2T/λ² zCDP, so (ε, δ/2) by 001 Lemma 51 with the paper's λ (:func:`svt_pate`, which
checks ℓ·P(ν - ρ > ⌊w⌋) <= δ/2 exactly at construction).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from .accounting import (
    algorithm1_sigma,
    algorithm2_lambda,
    algorithm2_threshold,
    zcdp_compose,
    zcdp_epsilon,
)
from .citations import cite
from .continuous_noise import GaussianNoise, LaplaceNoise, exceeds, first_below
from .data import Dataset
from .discrete_noise import DiscreteGaussian, DiscreteLaplace, at_least, first_at_most
from .errors import InvalidArgument
from .mechanism import Mechanism
from .privacy import PrivacyClaim, ZCDPClaim
from .program import Program
from .reals import Interval, Order, Real, compare, rational
from .sparse_vector import discrete_release_probability, rational_scale_at_least
from .stability_release import instability_distance, majority, threshold_floor
from .validate import ExactInput, check_delta, check_int, check_positive, to_fraction

__all__ = [
    "BOTTOM",
    "SvtPateParameters",
    "continuous_gaussian_label",
    "continuous_gaussian_votes",
    "continuous_svt_votes",
    "gaussian_label",
    "gaussian_pate",
    "gaussian_pate_at",
    "gaussian_pate_epsilon",
    "gaussian_pate_rho",
    "gaussian_votes",
    "majority_label",
    "majority_votes",
    "printed_gaussian_pate",
    "printed_svt_pate",
    "svt_pate",
    "svt_pate_at",
    "svt_pate_parameters",
    "svt_votes",
    "teacher_votes",
]

BOTTOM = "⊥"
"""Output of 001 Algorithm 2 for a query whose noisy distance does not clear the threshold."""


def _check_open_delta(delta: object) -> Fraction:
    d = check_delta(delta)
    if d == 0:
        raise InvalidArgument(f"delta={d} must be > 0 (it lies in the open interval (0, 1))")
    return d


def _check_votes(votes: tuple[int, ...], k: int) -> tuple[tuple[int, ...], int]:
    kk = check_int(k, "k", minimum=1)
    if not isinstance(votes, tuple) or not votes:
        raise InvalidArgument(f"votes={votes!r} must be a non-empty tuple of vote counts")
    for j, v in enumerate(votes):
        check_int(v, f"votes[{j}]", minimum=0, maximum=kk)
    return votes, kk


def teacher_votes(data: Dataset, queries: int) -> tuple[tuple[int, ...], int]:
    """(vote vector, K) of a dataset of K teacher label vectors, each ℓ = ``queries`` labels in {0, 1}.

    votes_j = Σ_k data[k][j] (001 §2, the aggregated vote).  Guarantee: substituting one
    teacher's label vector moves every votes_j by at most 1.  InvalidArgument names data
    (empty, i.e. K < 1, or a malformed label vector) or queries (< 1).
    """
    ell = check_int(queries, "queries", minimum=1)
    if len(data) == 0:
        raise InvalidArgument("data=() must hold at least one teacher's label vector (K >= 1)")
    votes = [0] * ell
    for k, vec in enumerate(data):
        if not isinstance(vec, tuple) or len(vec) != ell:
            raise InvalidArgument(f"data[{k}]={vec!r} must be a tuple of {ell} labels")
        for j, y in enumerate(vec):
            if isinstance(y, bool) or y not in (0, 1):
                raise InvalidArgument(f"data[{k}][{j}]={y!r} must be a label 0 or 1")
            votes[j] += y
    return tuple(votes), len(data)


# ------------------------------------------------------------------ Algorithm 1


def _check_vote(vote: int, k: int) -> tuple[int, int]:
    kk = check_int(k, "k", minimum=1)
    return check_int(vote, "vote", minimum=0, maximum=kk), kk


def gaussian_label(vote: int, k: int, sigma2: ExactInput) -> Program[int]:
    """ONE query of 001 Algorithm 1 with discrete Gaussian noise: 1(vote + Z >= K/2), Z ~ N_Z(0, σ²).

    Z is the discrete Gaussian of CKS20 Definition 1 with rational σ² (fresh for this query);
    since vote + Z is an integer the test is vote + Z >= ⌈K/2⌉.  The law is exact (the
    threshold test of :func:`~privref.reference.discrete_noise.at_least`): the bit is 1 with
    probability P(Z >= ⌈K/2⌉ − vote).  InvalidArgument names k (< 1), vote (outside [0, k]) or
    sigma2 (<= 0), at call time.
    """
    v, kk = _check_vote(vote, k)
    noise = DiscreteGaussian(check_positive(to_fraction(sigma2, "sigma2"), "sigma2"))
    return _threshold_bit(noise, v, (kk + 1) // 2)


def _threshold_bit(noise: DiscreteGaussian, vote: int, bar: int) -> Program[int]:
    passed = yield from at_least(noise, vote, bar)
    return 1 if passed else 0


def gaussian_votes(votes: tuple[int, ...], k: int, sigma2: ExactInput) -> Program[tuple[int, ...]]:
    """The program of 001 Algorithm 1 on a vote vector: 1(votes_j + Z_j >= K/2), Z_j discrete Gaussian.

    One :func:`gaussian_label` per query, in order, each with fresh Z_j ~ N_Z(0, σ²) (CKS20
    Definition 1); the test is votes_j + Z_j >= ⌈K/2⌉ (integers).  InvalidArgument names k
    (< 1), votes (entries outside [0, k]) or sigma2 (<= 0), at call time.
    """
    vs, kk = _check_votes(votes, k)
    s2 = check_positive(to_fraction(sigma2, "sigma2"), "sigma2")

    def run() -> Program[tuple[int, ...]]:
        out: list[int] = []
        for v in vs:
            out.append((yield from gaussian_label(v, kk, s2)))
        return tuple(out)

    return run()


def _gaussian(sigma: ExactInput | Real) -> GaussianNoise:
    """N(0, σ²) for a positive exact σ: a rational, or an exact Real (Step 1's printed σ)."""
    if isinstance(sigma, Real):
        if compare(sigma, 0)[0] is not Order.GREATER:
            raise InvalidArgument(f"sigma={sigma} must be provably > 0")
        return GaussianNoise(Fraction(1), sigma)
    return GaussianNoise(check_positive(to_fraction(sigma, "sigma"), "sigma"))


def continuous_gaussian_label(vote: int, k: int, sigma: ExactInput | Real) -> Program[int]:
    """ONE query of 001 Algorithm 1 with the paper's continuous noise: 1(vote + Z >= K/2), Z ~ N(0, σ²).

    The released bit is the event vote + Z > K/2 of
    :func:`~privref.reference.continuous_noise.exceeds` (ties have probability 0): 1 with
    probability Φ((vote − K/2)/σ), exactly 1/2 when vote = K/2, enclosed in arb (erfc) by the
    exact interpreter and drawn exactly by lazy refinement by
    :func:`~privref.reference.program.sample`.  No float decides anything.  σ is any positive
    exact number (int, Fraction, str) or an exact Real (:func:`gaussian_pate`'s printed σ).
    InvalidArgument names k (< 1), vote (outside [0, k]) or sigma (<= 0), at call time.
    """
    v, kk = _check_vote(vote, k)
    return _noisy_bit(_gaussian(sigma), v, Fraction(kk, 2))


def _noisy_bit(noise: GaussianNoise, vote: int, half: Fraction) -> Program[int]:
    passed = yield from exceeds(noise, vote, half)
    return 1 if passed else 0


def continuous_gaussian_votes(votes: tuple[int, ...], k: int, sigma: ExactInput | Real
                              ) -> Program[tuple[int, ...]]:
    """001 Algorithm 1 with continuous N(0, σ²) noise on a vote vector: one
    :func:`continuous_gaussian_label` per query, in order, with independent noise.

    InvalidArgument names k, votes or sigma, at call time.
    """
    vs, kk = _check_votes(votes, k)
    noise = _gaussian(sigma)

    def run() -> Program[tuple[int, ...]]:
        out: list[int] = []
        for v in vs:
            out.append((yield from _noisy_bit(noise, v, Fraction(kk, 2))))
        return tuple(out)

    return run()


def majority_label(vote: int, k: int) -> Program[int]:
    """ONE query of the non-private aggregator: the exact majority 1(vote >= K/2), ties to 1.

    :func:`~privref.reference.stability_release.majority` (001 §2, ĥ^agg) as a program with no
    random choice, so PATE-ASQ-NP is PATE-ASQ with this label.  InvalidArgument names k (< 1)
    or vote (outside [0, k]), at call time.
    """
    v, kk = _check_vote(vote, k)
    return _constant(majority(v, kk))


def _constant(value: int) -> Program[int]:
    return value
    yield  # pragma: no cover - a program with no random choice


def majority_votes(votes: tuple[int, ...], k: int) -> Program[tuple[int, ...]]:
    """The non-private aggregator: :func:`majority_label` on each entry (exact majority, ties to 1).

    PATE-PSQ-NP is PATE-PSQ with this aggregator (001 §6, "no noise").  InvalidArgument names
    k or votes, at call time.
    """
    vs, kk = _check_votes(votes, k)

    def run() -> Program[tuple[int, ...]]:
        out: list[int] = []
        for v in vs:
            out.append((yield from majority_label(v, kk)))
        return tuple(out)

    return run()


def gaussian_pate_rho(queries: int, sigma2: ExactInput) -> ZCDPClaim:
    """ρ = ℓ/(2σ²)-zCDP of ℓ queries of Algorithm 1 at noise σ² (discrete Gaussian, or the
    paper's N(0, σ²)): each release of a sensitivity-1 count is 1/(2σ²)-zCDP (CKS20 Theorem 4;
    Bun and Steinke 2016, Proposition 1.6), the threshold bit is post-processing, and zCDP
    composes additively; the accounting of 001 Theorem 2's proof.  InvalidArgument names
    queries (< 1) or sigma2 (<= 0)."""
    ell = check_int(queries, "queries", minimum=1)
    s2 = check_positive(to_fraction(sigma2, "sigma2"), "sigma2")
    return ZCDPClaim(zcdp_compose(*([1 / (2 * s2)] * ell)))


def gaussian_pate_epsilon(queries: int, sigma2: ExactInput, delta: ExactInput) -> PrivacyClaim:
    """(ρ + 2√(ρ ln(1/δ)), δ) with ρ = ℓ/(2σ²): ℓ discrete Gaussian releases of sensitivity 1.

    CKS20 Theorem 4 (each query 1/(2σ²)-zCDP), zCDP composition, then 001 Lemma 51; the
    accounting of 001 Theorem 2's proof for Algorithm 1 with the discrete noise.
    """
    rho = gaussian_pate_rho(queries, sigma2).rho
    d = _check_open_delta(delta)
    return PrivacyClaim(zcdp_epsilon(rho, d), d)


def _gaussian_mechanism(ell: int, s2: Fraction, claim: PrivacyClaim, how: str
                        ) -> Mechanism[tuple[int, ...]]:
    def program(data: Dataset) -> Program[tuple[int, ...]]:
        votes, k = teacher_votes(data, ell)
        return (yield from gaussian_votes(votes, k, s2))

    return Mechanism("Gaussian PATE (discrete Gaussian)", program, claim,
                     cite("001 Theorem 2 (proof)"),
                     order_invariant=True,
                     description=f"001 Algorithm 1 on {ell} queries over the discrete Gaussian "
                                 f"with sigma^2={s2} ({how}); data = the teachers' label "
                                 "vectors, a neighbor substitutes one teacher's vector")


def gaussian_pate_at(queries: int, sigma2: ExactInput, delta: ExactInput) -> Mechanism[tuple[int, ...]]:
    """001 Algorithm 1 with a given rational σ², claiming :func:`gaussian_pate_epsilon`.

    Data: the K teachers' label vectors (module docstring); output: the ℓ released bits.
    InvalidArgument names queries (< 1), sigma2 (<= 0) or delta (outside (0, 1)).
    """
    claim = gaussian_pate_epsilon(queries, sigma2, delta)
    s2 = to_fraction(sigma2, "sigma2")
    return _gaussian_mechanism(queries, s2, claim, "sigma^2 given")


def gaussian_pate(queries: int, epsilon: ExactInput, delta: ExactInput, denominator: int = 1
                  ) -> Mechanism[tuple[int, ...]]:
    """001 Algorithm 1 as calibrated by its Step 1, claiming (ε, δ) as 001 Theorem 2 states.

    σ = :func:`~privref.reference.accounting.algorithm1_sigma` (ℓ, ε, δ), and σ² is rounded up to
    the least multiple of 1/denominator that is >= σ²; then ℓ/(2σ²) is at most the paper's ρ and
    the discrete accounting (:func:`gaussian_pate_epsilon`) gives at most ε.  InvalidArgument
    names queries, epsilon, delta or denominator.
    """
    ell = check_int(queries, "queries", minimum=1)
    eps = check_positive(to_fraction(epsilon, "epsilon"), "epsilon")
    d = _check_open_delta(delta)
    sigma = algorithm1_sigma(ell, eps, d)
    s2 = rational_scale_at_least(sigma * sigma, denominator)
    return _gaussian_mechanism(ell, s2, PrivacyClaim(rational(eps), d),
                               f"Step 1 sigma^2 rounded up, claim epsilon={eps}")


def printed_gaussian_pate(queries: int, epsilon: ExactInput, delta: ExactInput
                          ) -> Mechanism[tuple[int, ...]]:
    """001 Algorithm 1 exactly as printed, claiming (ε, δ) as 001 Theorem 2 states.

    Continuous N(0, σ²) noise with Step 1's σ (:func:`~privref.reference.accounting.algorithm1_sigma`,
    an exact Real, not rounded): :func:`continuous_gaussian_votes`.  InvalidArgument names
    queries, epsilon or delta.
    """
    ell = check_int(queries, "queries", minimum=1)
    eps = check_positive(to_fraction(epsilon, "epsilon"), "epsilon")
    d = _check_open_delta(delta)
    sigma = algorithm1_sigma(ell, eps, d)

    def program(data: Dataset) -> Program[tuple[int, ...]]:
        votes, k = teacher_votes(data, ell)
        return (yield from continuous_gaussian_votes(votes, k, sigma))

    return Mechanism("Gaussian PATE (continuous, as printed)", program,
                     PrivacyClaim(rational(eps), d), cite("001 Theorem 2"),
                     order_invariant=True,
                     description=f"001 Algorithm 1 on {ell} queries as printed: continuous "
                                 f"N(0, sigma^2) with Step 1's sigma exact (claim epsilon={eps}, "
                                 f"delta={d}); data = the teachers' label vectors, a neighbor "
                                 "substitutes one teacher's vector")


# ------------------------------------------------------------------ Algorithm 2


def svt_votes(votes: tuple[int, ...], k: int, scale: ExactInput, threshold: int, cutoff: int
              ) -> Program[tuple[int | str, ...]]:
    """The program of 001 Algorithm 2 on a vote vector (discrete Laplace scales t and 2t).

    Query j is answered by the exact majority (ties to 1) when dist_j + ν_j > threshold + ρ,
    else by ⊥, after which ρ is redrawn; the output stops at the ``cutoff``-th ⊥ (T).
    InvalidArgument names k, votes, scale, threshold or cutoff, at call time.
    """
    vs, kk = _check_votes(votes, k)
    t = check_positive(to_fraction(scale, "scale"), "scale")
    w = check_int(threshold, "threshold")
    big_t = check_int(cutoff, "cutoff", minimum=1)
    bar_noise, query_noise = DiscreteLaplace(t), DiscreteLaplace(2 * t)

    def run(dists: tuple[int, ...]) -> Program[int]:
        return (yield from first_at_most(bar_noise, w, query_noise, dists))

    return _svt_run(vs, kk, big_t, run)


def continuous_svt_votes(votes: tuple[int, ...], k: int, scale: ExactInput | Real,
                         threshold: ExactInput | Real, cutoff: int) -> Program[tuple[int | str, ...]]:
    """001 Algorithm 2 as printed, on a vote vector: continuous Lap(λ) and Lap(2λ) noise.

    As :func:`svt_votes`, with ρ ~ Lap(λ) and ν_j ~ Lap(2λ) continuous and the real threshold
    w; λ and w may be exact Reals (:func:`svt_pate`'s printed λ and w = 3λ ln(2(ℓ+T)/δ)).
    Each stretch between two ⊥'s is one
    :class:`~privref.reference.continuous_noise.ThresholdRun` (the first j with
    dist_j + ν_j < w + ρ; ties have probability 0).  InvalidArgument names k, votes, scale,
    threshold or cutoff, at call time.
    """
    vs, kk = _check_votes(votes, k)
    if isinstance(scale, Real):
        bar_noise = LaplaceNoise(Fraction(1), scale)
        query_noise = LaplaceNoise(Fraction(2), scale)
    else:
        t = check_positive(to_fraction(scale, "scale"), "scale")
        bar_noise, query_noise = LaplaceNoise(t), LaplaceNoise(2 * t)
    w = threshold if isinstance(threshold, Real) else to_fraction(threshold, "threshold")
    big_t = check_int(cutoff, "cutoff", minimum=1)

    def run(dists: tuple[int, ...]) -> Program[int]:
        return (yield from first_below(bar_noise, w, query_noise, dists))

    return _svt_run(vs, kk, big_t, run)


def _svt_run(vs: tuple[int, ...], k: int, cutoff: int,
             first_failure: Callable[[tuple[int, ...]], Program[int]]
             ) -> Program[tuple[int | str, ...]]:
    """Algorithm 2's loop: answer the passing queries by the majority, ⊥ at a failure (then a
    fresh threshold noise: ``first_failure`` on the remaining distances), stop at the T-th ⊥."""
    dists = tuple(instability_distance(v, k) for v in vs)
    labels = tuple(majority(v, k) for v in vs)

    def run() -> Program[tuple[int | str, ...]]:
        out: list[int | str] = []
        start, count = 0, 0
        while start < len(vs):
            passed = yield from first_failure(dists[start:])
            out.extend(labels[start:start + passed])
            start += passed
            if start == len(vs):
                break
            out.append(BOTTOM)
            start += 1
            count += 1
            if count >= cutoff:
                break
        return tuple(out)

    return run()


def _release_bound(queries: int, scale: Fraction, threshold: int) -> Fraction:
    """A rational upper bound on ℓ·P(ν - ρ > w), ν ~ DLap(2t), ρ ~ DLap(t) (module docstring)."""
    p = discrete_release_probability(scale, threshold)
    hi = p.hi if isinstance(p, Interval) else p
    return queries * hi


def _svt_mechanism(ell: int, scale: Fraction, threshold: int, cutoff: int,
                   claim: PrivacyClaim, how: str) -> Mechanism[tuple[int | str, ...]]:
    def program(data: Dataset) -> Program[tuple[int | str, ...]]:
        votes, k = teacher_votes(data, ell)
        return (yield from svt_votes(votes, k, scale, threshold, cutoff))

    return Mechanism("SVT-PATE (discrete Laplace)", program, claim,
                     cite("001 Theorem 2 (proof)"),
                     order_invariant=True,
                     description=f"001 Algorithm 2 on {ell} queries, discrete Laplace scales "
                                 f"t={scale} and 2t, integer threshold {threshold}, T={cutoff} "
                                 f"({how}); data = the teachers' label vectors, a neighbor "
                                 "substitutes one teacher's vector")


def svt_pate_at(queries: int, scale: ExactInput, threshold: int, cutoff: int
                ) -> Mechanism[tuple[int | str, ...]]:
    """001 Algorithm 2 with a given scale t and integer threshold w, claiming (2T/t, ℓ·P(ν - ρ > w)).

    The claim is basic composition of T discrete SVT rounds plus the union bound on releasing
    an unstable label (module docstring), δ rounded up to a rational.  InvalidArgument names
    queries, scale, threshold, cutoff, or delta when the bound is not below 1.
    """
    ell = check_int(queries, "queries", minimum=1)
    t = check_positive(to_fraction(scale, "scale"), "scale")
    w = check_int(threshold, "threshold")
    big_t = check_int(cutoff, "cutoff", minimum=1)
    d = _release_bound(ell, t, w)
    if d >= 1:
        raise InvalidArgument(f"delta={d} (queries times the release probability) must be < 1: "
                              f"raise threshold={w}")
    claim = PrivacyClaim(rational(Fraction(2 * big_t) / t), d)
    return _svt_mechanism(ell, t, w, big_t, claim, "basic composition claim")


@dataclass(frozen=True, slots=True)
class SvtPateParameters:
    """001 Algorithm 2 Steps 2–3 made discrete: scale t >= λ (rational) and ⌊w⌋ for w = 3λ ln(2(ℓ+T)/δ)."""

    scale: Fraction
    threshold: int


def svt_pate_parameters(queries: int, cutoff: int, epsilon: ExactInput, delta: ExactInput,
                        denominator: int = 1) -> SvtPateParameters:
    """t = least multiple of 1/denominator >= λ (001 Algorithm 2 Step 2) and ⌊w⌋ (Step 3).

    λ and w are :func:`~privref.reference.accounting.algorithm2_lambda` and
    :func:`~privref.reference.accounting.algorithm2_threshold`, exact; the floor is decided
    exactly.  InvalidArgument names queries, cutoff, epsilon, delta or denominator.
    """
    ell = check_int(queries, "queries", minimum=1)
    big_t = check_int(cutoff, "cutoff", minimum=1)
    eps = check_positive(to_fraction(epsilon, "epsilon"), "epsilon")
    d = _check_open_delta(delta)
    lam = algorithm2_lambda(big_t, eps, d)
    scale = rational_scale_at_least(lam, denominator)
    return SvtPateParameters(scale, threshold_floor(algorithm2_threshold(ell, big_t, eps, d)))


def svt_pate(queries: int, cutoff: int, epsilon: ExactInput, delta: ExactInput, denominator: int = 1
             ) -> Mechanism[tuple[int | str, ...]]:
    """001 Algorithm 2 with its own calibration (:func:`svt_pate_parameters`), claiming (ε, δ).

    The claim is 001 Theorem 2's; its discrete proof (module docstring) needs
    ℓ·P(ν - ρ > ⌊w⌋) <= δ/2, which is checked here exactly (InvalidArgument naming delta if
    it fails; 001 Theorem 2 bounds the continuous analogue by δ/(2(ℓ + T))).
    """
    params = svt_pate_parameters(queries, cutoff, epsilon, delta, denominator)
    d = _check_open_delta(delta)
    eps = to_fraction(epsilon, "epsilon")
    bound = _release_bound(queries, params.scale, params.threshold)
    if bound > d / 2:
        raise InvalidArgument(f"delta={d}: the release bound {float(bound):.3g} exceeds delta/2")
    return _svt_mechanism(queries, params.scale, params.threshold, cutoff,
                          PrivacyClaim(rational(eps), d), f"Steps 2-3, claim epsilon={eps}")


def printed_svt_pate(queries: int, cutoff: int, epsilon: ExactInput, delta: ExactInput
                     ) -> Mechanism[tuple[int | str, ...]]:
    """001 Algorithm 2 exactly as printed, claiming (ε, δ) as 001 Theorem 2 states.

    Continuous ρ ~ Lap(λ), ν_j ~ Lap(2λ) with the printed λ
    (:func:`~privref.reference.accounting.algorithm2_lambda`) and threshold
    w = 3λ ln(2(ℓ+T)/δ) (:func:`~privref.reference.accounting.algorithm2_threshold`), both
    exact Reals: no rounding of either (:func:`continuous_svt_votes`).  InvalidArgument names
    queries, cutoff, epsilon or delta.
    """
    ell = check_int(queries, "queries", minimum=1)
    big_t = check_int(cutoff, "cutoff", minimum=1)
    eps = check_positive(to_fraction(epsilon, "epsilon"), "epsilon")
    d = _check_open_delta(delta)
    lam = algorithm2_lambda(big_t, eps, d)
    w = algorithm2_threshold(ell, big_t, eps, d)

    def program(data: Dataset) -> Program[tuple[int | str, ...]]:
        votes, k = teacher_votes(data, ell)
        return (yield from continuous_svt_votes(votes, k, lam, w, big_t))

    return Mechanism("SVT-PATE (continuous Laplace, as printed)", program,
                     PrivacyClaim(rational(eps), d), cite("001 Theorem 2"),
                     order_invariant=True,
                     description=f"001 Algorithm 2 on {ell} queries as printed: continuous "
                                 f"Lap(lambda), Lap(2 lambda), lambda and w exact (T={big_t}, "
                                 f"claim epsilon={eps}, delta={d}); data = the teachers' label "
                                 "vectors, a neighbor substitutes one teacher's vector")

