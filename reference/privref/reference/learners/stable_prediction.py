"""Stable and private prediction by subsampled exponential mechanisms (paper 002, Dagan and Feldman 2020).

Algorithm 1 (002 §3.1, Theorem 1), for a dataset S of n labeled examples and
a query x, with fresh randomness per query (002 §2: every guarantee is per query):

1. I ← a uniform m-subset of the INDICES [n] (repeated points are distinct entries);
2. H ← one canonical representative of C per pattern of C on the x's of S_I; labels of S_I are
   ignored and the choice depends on those x's only (the paper's "arbitrary" representatives must not
   look at labels; :func:`canonical_representatives`);
3. h ← the exponential mechanism over H, scored on ALL of S with sensitivity-1 mistake counts
   and the standard 1/2: P[h] ∝ exp(−ε·mistakes_S(h)/2) (the paper's n·err_S(h) with ε/2);
4. predict h(x).

Algorithm 2 (002 Corollary 1) flips that prediction with probability q (the
paper uses q = α/2 with γ = Θ(αε)).  Each step is a small probabilistic program
(:mod:`privref.reference.program`), and each algorithm is a
:class:`~privref.reference.prediction.Predictor` whose exact law and samplers come from it.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

from privref.reference.citations import Source, cite
from privref.reference.concepts import Concept, ConceptClass
from privref.reference.data import BOTTOM, Dataset, label_of, point_of
from privref.reference.errors import InvalidArgument, UnknownLabel
from privref.reference.exponential import agreements, exponential_weights
from privref.reference.prediction import (
    Predictor,
    PrivatePrediction,
    UniformStability,
    paper_stability_bound,
    stability_from_privacy,
)
from privref.reference.privacy import parse_epsilon
from privref.reference.program import (
    Categorical,
    Program,
    call,
    categorical_choice,
    choose,
    deterministic,
    subset,
)
from privref.reference.randomized_response import flip_bit
from privref.reference.reals import Order, Real, compare, log, rational
from privref.reference.validate import ExactInput, check_int, check_probability, to_fraction
from privref.reference.vc import canonical_representatives

__all__ = [
    "flip_prediction",
    "flip_predictor",
    "flip_privacy",
    "paper_stable_gamma",
    "pattern_exponential_mechanism",
    "private_predictor",
    "random_index_subset",
    "stable_gamma",
    "stable_hypothesis",
    "stable_predictor",
]

STABLE_SOURCE = cite("002 Lemma 7 (proof)")
"""Algorithm 1's stability: the stability half of 002 Lemma 7's proof, with the exact
m/n + (1 − m/n)·tanh(ε/2) in place of the paper's m/n + e^ε − 1 (used by 002 Theorem 1)."""

PRIVATE_SOURCE = cite("002 Corollary 1 (proof)")
"""The flip conversion's private prediction: 002 Corollary 1's proof (a γ-stable label flipped
w.p. q is ln(1 + (1 − 2q)·γ/q)-private)."""


# ------------------------------------------------------------------ primitives


def random_index_subset(n: int, m: int) -> Program[tuple[int, ...]]:
    """A uniform m-subset of the indices range(n), sorted (002 Algorithm 1 step 1).

    Distinct indices, so repeated points count as different entries.

    One exact subset choice (:func:`privref.reference.program.subset`): the exact law gives
    each of the C(n, m) subsets probability exactly 1/C(n, m), in lexicographic order (the
    law of unranking a uniform rank, :func:`privref.reference.subsampling.unrank_combination`,
    which this replaces for speed); the sampler is Floyd's algorithm on integer draws, O(m)
    per query at n = 10^5.  The indices are distinct even when S repeats a point.
    Requires 1 <= m <= n (InvalidArgument naming m or n).
    """
    check_int(n, "n", minimum=1)
    check_int(m, "m", minimum=1, maximum=n)
    return (yield from subset(n, m))


def _weights(hypotheses: tuple[Concept, ...], data: Dataset, epsilon: Real) -> Categorical:
    scores = [agreements(h, data) for h in hypotheses]
    return categorical_choice(exponential_weights(scores, epsilon=epsilon, sensitivity=1))


def pattern_exponential_mechanism(C: ConceptClass, points: tuple[Hashable, ...], data: Dataset,
                                  epsilon: Real) -> Program[Concept]:
    """The exponential mechanism over the patterns of C on ``points``, scored on ``data``.

    Candidates: :func:`~privref.reference.vc.canonical_representatives` of C on ``points``
    (002 §3): the first concept of C in canonical order per pattern, so the
    candidate set is a subset of C that depends only on ``points`` (required for stability), never on labels.
    Choice: h with probability ∝ exp(ε·agreements_S(h)/2), which for a fully labeled S is
    ∝ exp(−ε·mistakes_S(h)/2) (002 §3; the weights are
    :func:`privref.reference.exponential.exponential_weights`, with the paper's 1/2).
    Guarantee: ε-DP in ``data`` under substitution for fixed ``points`` (sensitivity 1;
    004 Proposition A.1 (i)).  Exact rationals when e^{ε/2} is rational (ε = 2·ln r).
    """
    hypotheses = yield from deterministic(canonical_representatives, C, points)
    choice = yield from deterministic(_weights, hypotheses, data, epsilon)
    index = yield from choose(choice)
    return hypotheses[index]


def flip_prediction(label: int, flip: Fraction) -> Program[int]:
    """Randomized response on a predicted label: 1 − label w.p. ``flip`` (002 Corollary 1; P0.4).

    If P[label = 1] = p then P[output = 1] = flip + (1 − 2·flip)·p.
    """
    return (yield from flip_bit(label, 1 - flip))


def stable_hypothesis(C: ConceptClass, data: Dataset, m: int, epsilon: Real) -> Program[Concept]:
    """Steps 1–3 of Algorithm 1 (002 §3.1): subsample m indices, patterns on their x's, choose h.

    The patterns use only the x's of S_I (labels ignored); the exponential mechanism
    scores every candidate on ALL of ``data`` (not on S_I).
    """
    index = yield from random_index_subset(len(data), m)
    points = tuple(point_of(data[i]) for i in index)
    return (yield from call(pattern_exponential_mechanism, C, points, data, epsilon))


# -------------------------------------------------------------------- claims


def _check_sizes(n: int, m: int) -> None:
    check_int(n, "n", minimum=1)
    check_int(m, "m", minimum=1, maximum=n)


def stable_gamma(m: int, n: int, epsilon: Real | ExactInput) -> Real:
    """The exact stability of Algorithm 1: γ = m/n + (1 − m/n)·tanh(ε/2) (002 Theorem 1, tightened).

    Proof.  Let S, S'' differ at index i.  Condition on the subset I.  If i ∉ I (probability
    1 − m/n) the x's of S_I and S''_I agree, so the candidate set H is the same, and
    every candidate's mistake count moves by at most 1: the draw of h is ε-DP, hence so is the
    event h(x) = y, and ε-private prediction gives |ΔP| ≤ tanh(ε/2)
    (:func:`privref.reference.prediction.stability_from_privacy`).  If i ∈ I (probability m/n)
    |ΔP| ≤ 1.  Averaging over I bounds |P[A(S,x)=y] − P[A(S'',x)=y]| by the sum.  The paper
    states the looser m/n + e^ε − 1 (:func:`paper_stable_gamma`; loose by about 2×).
    Requires 1 <= m <= n and ε >= 0 (InvalidArgument naming the argument).
    """
    _check_sizes(n, m)
    eps = parse_epsilon(epsilon)
    share = Fraction(m, n)
    tanh = stability_from_privacy(PrivatePrediction(eps)).gamma
    return tanh * (1 - share) + share


def paper_stable_gamma(m: int, n: int, epsilon: Real | ExactInput) -> Real:
    """The paper's stability of Algorithm 1: m/n + e^ε − 1 (002 Theorem 1's proof; loose by about 2×).

    Valid and never below :func:`stable_gamma`, since e^ε − 1 >= tanh(ε/2) >= (1 − m/n)·tanh(ε/2).
    """
    _check_sizes(n, m)
    eps = parse_epsilon(epsilon)
    return paper_stability_bound(PrivatePrediction(eps)).gamma + Fraction(m, n)


def _check_flip(flip: object) -> Fraction:
    q = check_probability(to_fraction(flip, "flip"), "flip", open_low=True)
    if q > Fraction(1, 2):
        raise InvalidArgument(f"flip={q} must be <= 1/2")
    return q


def flip_privacy(stability: UniformStability, flip: ExactInput) -> PrivatePrediction:
    """ε′ = ln(1 + (1 − 2q)·min(γ, 1)/q): a γ-stable prediction flipped w.p. q is ε′-private.

    Source: 002 Corollary 1 (whose 1 + 2γ/α at q = α/2 this tightens by the
    factor 1 − 2q).  Proof.  Let p, p'' be P[A(S,x)=1], P[A(S'',x)=1] for neighbors, so
    |p − p''| <= g := min(γ, 1).  After the flip P'[1] = q + (1 − 2q)p and
    P'[0] = q + (1 − 2q)(1 − p).  For y = 1:
    P'_S(1)/P'_S''(1) <= (q + (1 − 2q)(p'' + g))/(q + (1 − 2q)p'') = 1 + (1 − 2q)g/(q + (1 − 2q)p'')
    <= 1 + (1 − 2q)g/q, because p'' >= 0 and q <= 1/2; y = 0 is the same with 1 − p.  δ = 0.
    Tight over γ-stable predictors: one with p'' = 0 and p = g attains it (the tests show one).
    When γ cannot be compared with 1 (irrational and equal to 1), γ itself is used: still an
    upper bound.  Requires 0 < q <= 1/2 (InvalidArgument naming flip); q = 1/2 gives ε′ = 0.
    """
    if not isinstance(stability, UniformStability):
        raise InvalidArgument(f"stability={stability!r} must be a UniformStability")
    q = _check_flip(flip)
    gamma = stability.gamma
    if compare(gamma, 1)[0] in (Order.GREATER, Order.EQUAL):
        gamma = rational(1)
    if q == Fraction(1, 2) or gamma.exact == 0:
        return PrivatePrediction(rational(0))
    return PrivatePrediction(log(gamma * ((1 - 2 * q) / q) + 1))


# ---------------------------------------------------------------- predictors


def _check_data(C: ConceptClass, data: Dataset, n: int) -> None:
    if len(data) != n:
        raise InvalidArgument(f"data has {len(data)} examples; this predictor needs n={n}")
    for i, example in enumerate(data):
        try:
            y = label_of(example)
        except UnknownLabel:
            raise UnknownLabel(f"data[{i}]={example!r} must be an example (x, y) labeled "
                               "0 or 1") from None
        if y is BOTTOM:
            raise InvalidArgument(f"data[{i}]={example!r} must be labeled 0 or 1, not ⊥")
        C.domain.position(point_of(example), f"data[{i}]")


def stable_predictor(C: ConceptClass, n: int, m: int, epsilon: Real | ExactInput, *,
                     name: str = "002 Algorithm 1 (stable learner)") -> Predictor:
    """Algorithm 1 of 002 (§3.1, Theorem 1) as a Predictor on datasets of exactly n examples.

    Per query x (fresh randomness, 002 §2): :func:`stable_hypothesis` then h(x).  Claim:
    γ-uniform stability with the exact γ = :func:`stable_gamma` (m, n, ε).  Validates C (a
    ConceptClass, non-empty by construction), 1 <= m <= n, ε >= 0 (InvalidArgument naming the
    argument); at run time the dataset size n, 0/1 labels and points of C's domain, and the
    query (a point of C's domain).
    """
    if not isinstance(C, ConceptClass):
        raise InvalidArgument(f"C={C!r} must be a ConceptClass")
    eps = parse_epsilon(epsilon)
    gamma = stable_gamma(m, n, eps)

    def program(data: Dataset, x: Hashable) -> Program[int]:
        _check_data(C, data, n)
        h = yield from call(stable_hypothesis, C, data, m, eps)
        return h(x)

    return Predictor(name, program, UniformStability(gamma), STABLE_SOURCE,
                     domain=tuple(C.domain),
                     description=f"{C.name}: subsample m={m} of n={n}, exponential mechanism "
                                 f"eps={eps} scored on all of S")


def flip_predictor(inner: Predictor, flip: ExactInput, *, name: str | None = None,
                   source: Source = PRIVATE_SOURCE) -> Predictor:
    """Run ``inner`` (claimed γ-stable) and flip its label with probability ``flip`` (002 Cor. 1).

    Claim: ε′-private prediction with ε′ = :func:`flip_privacy` (inner's γ, flip).  Requires a
    UniformStability claim on ``inner`` and 0 < flip <= 1/2 (InvalidArgument otherwise).
    """
    if not isinstance(inner, Predictor):
        raise InvalidArgument(f"inner={inner!r} must be a Predictor")
    if not isinstance(inner.claim, UniformStability):
        raise InvalidArgument(f"inner.claim={inner.claim} must be a UniformStability")
    q = _check_flip(flip)
    claim = flip_privacy(inner.claim, q)
    inner_program = inner.program

    def program(data: Dataset, x: Hashable) -> Program[int]:
        label = yield from call(inner_program, data, x)
        return (yield from flip_prediction(label, q))

    return Predictor(name or f"flip({inner.name}, {q})", program, claim, source,
                     inner.relation, inner.domain,
                     description=f"{inner.description}; then flip the label w.p. {q}")


def private_predictor(C: ConceptClass, n: int, m: int, epsilon: Real | ExactInput, flip: ExactInput, *,
                      name: str = "002 Algorithm 2 (flip conversion)") -> Predictor:
    """Algorithm 2 of 002 (Corollary 1): Algorithm 1 with (m, ε), then the flip w.p. ``flip``.

    Claim: ε′-private prediction, ε′ = ln(1 + (1 − 2q)·γ/q) with γ = :func:`stable_gamma`
    (m, n, ε) and q = flip (:func:`flip_privacy`; the paper takes q = α/2, γ = Θ(αε)).
    """
    return flip_predictor(stable_predictor(C, n, m, epsilon), flip, name=name)
