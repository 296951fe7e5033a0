"""Private prediction by subsample, exponential mechanism, relabel, realizable learner (002 Algorithm 3).

Algorithm 3 (002 §4.2, Theorem 2), for a dataset S of n labeled examples and a query x, with
fresh randomness per query (002 §2: every guarantee is per query):

1. I ← a uniform m-subset of the INDICES [n]
   (:func:`~privref.reference.learners.stable_prediction.random_index_subset`);
2. H ← one canonical representative of C per pattern of C on the x's of S_I (x's only, never
   labels) and h ← the exponential mechanism with ε₁ over H, scored on ALL of S
   (:func:`~privref.reference.learners.stable_prediction.pattern_exponential_mechanism`);
3. S_h ← ((x_1, h(x_1)), ..., (x_n, h(x_n))): ALL n points of S relabeled by h, the original
   labels dropped (:func:`relabel`);
4. ŷ ← a realizable private-prediction learner on (S_h, x): here 002 baseline B4, the private
   majority over k disjoint index blocks with ε₂
   (:func:`~privref.reference.learners.prediction_baselines.private_majority_predictor`, the
   learner of 002 Lemma 6);
5. flip ŷ with probability q
   (:func:`~privref.reference.learners.stable_prediction.flip_prediction`).

Steps 1–4 are the CORE (:func:`relabel_core_predictor`); with step 5 it is the full
algorithm (:func:`relabel_predictor`).  The paper's analysis (002 Lemma 8) gives the core only
an (ε₁ + ε₂ + O(m/n), δ) guarantee: its amplification step is not the subsampling lemma it
cites (its own footnote says so), the net event fails for a subsample holding the changed
index, and so the final flip is what makes the guarantee pure.  Both claims here are our own
proved formulas for the explicit parameters: :func:`relabel_core_privacy`,
:func:`relabel_core_gamma` and :func:`relabel_privacy`.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

from privref.reference.citations import cite
from privref.reference.concepts import Concept, ConceptClass
from privref.reference.data import Dataset, label_of, point_of
from privref.reference.errors import InvalidArgument, UnknownLabel
from privref.reference.learners.prediction_baselines import (
    private_majority_epsilon,
    private_majority_predictor,
)
from privref.reference.learners.stable_prediction import (
    flip_prediction,
    flip_privacy,
    pattern_exponential_mechanism,
    random_index_subset,
)
from privref.reference.prediction import (
    Predictor,
    PrivatePrediction,
    UniformStability,
    stability_from_privacy,
)
from privref.reference.privacy import parse_epsilon
from privref.reference.program import Program, call, deterministic
from privref.reference.reals import DEFAULT_PRECISION, Real, exp
from privref.reference.validate import ExactInput, check_int, check_probability, to_fraction

__all__ = [
    "relabel",
    "relabel_core_gamma",
    "relabel_core_predictor",
    "relabel_core_privacy",
    "relabel_hypothesis",
    "relabel_predictor",
    "relabel_privacy",
]

RELABEL_CORE_SOURCE = cite("002 Lemma 8 (proof)")
"""The core's (ε, δ)-private prediction: 002 Lemma 8's privacy proof (Lemmas 10, 11 and the
subsampling sum), with the exact net radius k(I) in place of the paper's k."""

RELABEL_SOURCE = cite("002 Theorem 2 (proof)")
"""Algorithm 3's pure private prediction: 002 Theorem 2's proof (Lemma 8's core, then the
final flip)."""


# ------------------------------------------------------------------ primitives


def relabel(data: Dataset, h: Concept) -> Dataset:
    """S_h: every example (x_i, y_i) of ``data`` replaced by (x_i, h(x_i)), order kept (002 Alg. 3 step 4).

    Guarantee: S_h is realizable by h ∈ C, and two datasets differing at index i give
    relabelings differing at index i at most (the labels come from h, not from S).
    """
    return tuple((point_of(e), h(point_of(e))) for e in data)


def relabel_hypothesis(C: ConceptClass, data: Dataset, m: int, epsilon1: Real) -> Program[Concept]:
    """Steps 1–2 of Algorithm 3 (002 §4.2): subsample m indices, patterns on their x's, choose h.

    The candidates depend on the x's of S_I only; the exponential mechanism (ε₁, with the
    paper's 1/2) scores every candidate on ALL of ``data``.
    """
    index = yield from random_index_subset(len(data), m)
    points = tuple(point_of(data[i]) for i in index)
    return (yield from call(pattern_exponential_mechanism, C, points, data, epsilon1))


# -------------------------------------------------------------------- claims


def _check(n: int, m: int, k: int) -> None:
    check_int(n, "n", minimum=1)
    check_int(m, "m", minimum=1, maximum=n)
    check_int(k, "k", minimum=1, maximum=n)


def _inner_epsilon(epsilon1: Real, k: int, epsilon2: Real) -> Real:
    """ε₀ = ε₁ + ε₂′: the core's pure ε given a subsample avoiding the changed index."""
    return epsilon1 + private_majority_epsilon(k, epsilon2)


def relabel_core_gamma(n: int, m: int, epsilon1: Real | ExactInput, k: int,
                       epsilon2: Real | ExactInput) -> Real:
    """A proved uniform stability of the core: γ = (m/n)·tanh(kε₂/4) + (1 − m/n)·tanh(ε₀/2).

    Here ε₀ = ε₁ + ε₂′ with ε₂′ = :func:`private_majority_epsilon` (k, ε₂) <= ε₂ (our
    derivation for 002 Algorithm 3 / Theorem 2).
    Proof.  Let S, S'' differ at index i; condition on the subset I.
    (a) i ∉ I (probability 1 − m/n): S_I and S''_I have the same x's, so the candidate set H
    is the same; each candidate's agreement count moves by at most 1, so
    P_S[h] <= e^{ε₁}·P_S''[h] (the exponential mechanism, 004 Proposition A.1 (i)).  For each
    h, S_h and S''_h differ at index i at most, so B4 gives
    P[B4(S_h, x) = y] <= e^{ε₂′}·P[B4(S''_h, x) = y].  Summing over h,
    P_S[y | I] <= e^{ε₀}·P_S''[y | I] for both labels, hence
    |P_S[y | I] − P_S''[y | I]| <= tanh(ε₀/2)
    (:func:`privref.reference.prediction.stability_from_privacy`).
    (b) i ∈ I (probability m/n): B4 outputs y with probability r^{v_y}/(r^{v_y} + r^{k−v_y}),
    r = e^{ε₂/2}, which lies in [a, 1 − a] with a = 1/(1 + r^k).  So every conditional law of
    the core lies in [a, 1 − a], and |P_S[y | I] − P_S''[y | I]| <= 1 − 2a =
    (r^k − 1)/(r^k + 1) = tanh(kε₂/4).
    Averaging over I gives the sum.  Requires 1 <= m <= n, 1 <= k <= n, ε₁, ε₂ >= 0
    (InvalidArgument naming the argument).
    """
    _check(n, m, k)
    eps1, eps2 = parse_epsilon(epsilon1, "epsilon1"), parse_epsilon(epsilon2, "epsilon2")
    share = Fraction(m, n)
    inside = stability_from_privacy(PrivatePrediction(eps2 * Fraction(k, 2))).gamma
    outside = stability_from_privacy(PrivatePrediction(_inner_epsilon(eps1, k, eps2))).gamma
    return inside * share + outside * (1 - share)


def relabel_core_privacy(n: int, m: int, epsilon1: Real | ExactInput, k: int, epsilon2: Real | ExactInput, *,
                         precision: int = DEFAULT_PRECISION) -> PrivatePrediction:
    """A proved (ε₀, δ) private prediction of the core: ε₀ = ε₁ + ε₂′ and
    δ = (m/n)·max(0, (r^k − e^{ε₀})/(1 + r^k)), r = e^{ε₂/2} (002 Lemma 8's form, our constants).

    Proof.  Condition on I as in :func:`relabel_core_gamma`.  If i ∉ I,
    P_S[y | I] − e^{ε₀}·P_S''[y | I] <= 0.  If i ∈ I, both conditional laws lie in [a, 1 − a],
    a = 1/(1 + r^k), so P_S[y | I] − e^{ε₀}·P_S''[y | I] <= (1 − a) − e^{ε₀}·a
    = (r^k − e^{ε₀})/(1 + r^k).  Averaging (the subsets holding i have total mass m/n) gives
    P_S[y] <= e^{ε₀}·P_S''[y] + δ.  This is NOT a pure claim at ε₀: δ > 0 whenever
    kε₂/2 > ε₀, as in the paper's regime ε₁ = ε₂ = 1/k with k large.  (The core IS pure at
    the larger kε₂/2, since every conditional law lies in [a, 1 − a]; the paper's point is
    that ε₀ = O(ε) needs δ.  The exact audit exhibits it at n = 19 with 19 blocks: the pure
    claim at ε₀ is VIOLATED there while (ε₀, δ) holds, ledger entry "002 Lemma 8 / the core
    without the flip is not pure: delta is needed"; with few blocks the core stays pure.)
    δ is exact when r and e^{ε₁} are rational (ε = 2·ln of a rational), otherwise the dyadic
    upper end of its enclosure at ``precision`` bits (never below the exact value).
    Requires the arguments of :func:`relabel_core_gamma` and an int precision >= 16
    (InvalidArgument naming it).
    """
    _check(n, m, k)
    eps1, eps2 = parse_epsilon(epsilon1, "epsilon1"), parse_epsilon(epsilon2, "epsilon2")
    check_int(precision, "precision", minimum=16)
    eps0 = _inner_epsilon(eps1, k, eps2)
    rk = exp(eps2 * Fraction(k, 2))
    excess = (rk - exp(eps0)) / (rk + 1)
    value = excess.exact
    upper = value if value is not None else excess.enclose(precision).hi
    delta = Fraction(m, n) * max(Fraction(0), upper)
    return PrivatePrediction(eps0, delta)


def _check_flip(flip: object) -> Fraction:
    q = check_probability(to_fraction(flip, "flip"), "flip", open_low=True)
    if q > Fraction(1, 2):
        raise InvalidArgument(f"flip={q} must be <= 1/2")
    return q


def relabel_privacy(n: int, m: int, epsilon1: Real | ExactInput, k: int, epsilon2: Real | ExactInput,
                    flip: ExactInput) -> PrivatePrediction:
    """The pure private prediction of Algorithm 3: ε = ln(1 + (1 − 2q)·min(γ, 1)/q), δ = 0.

    γ = :func:`relabel_core_gamma` (n, m, ε₁, k, ε₂), q = flip (002 Theorem 2, our constants).
    Proof.  The core is γ-uniformly stable (:func:`relabel_core_gamma`); flipping a γ-stable
    prediction with probability q puts the output law in [q, 1 − q] and moves it by at most
    (1 − 2q)·γ, so the ratio of the two laws is at most 1 + (1 − 2q)·γ/q
    (:func:`~privref.reference.learners.stable_prediction.flip_privacy`, 002 Corollary 1).
    Requires 0 < q <= 1/2 (InvalidArgument naming flip) and the arguments of
    :func:`relabel_core_gamma`.
    """
    gamma = relabel_core_gamma(n, m, epsilon1, k, epsilon2)
    return flip_privacy(UniformStability(gamma), _check_flip(flip))


# ---------------------------------------------------------------- predictors


def _core(C: ConceptClass, n: int, m: int, eps1: Real, k: int,
          eps2: Real) -> tuple[Predictor, str]:
    if not isinstance(C, ConceptClass):
        raise InvalidArgument(f"C={C!r} must be a ConceptClass")
    _check(n, m, k)
    inner = private_majority_predictor(C, n, k, eps2)
    return inner, (f"{C.name}: subsample m={m} of n={n}, exponential mechanism eps1={eps1} "
                   f"scored on all of S, relabel S, private majority of k={k} blocks "
                   f"eps2={eps2}")


def _check_data(C: ConceptClass, data: Dataset, n: int) -> None:
    if len(data) != n:
        raise InvalidArgument(f"data has {len(data)} examples; this predictor needs n={n}")
    for i, example in enumerate(data):
        try:
            y = label_of(example)
        except UnknownLabel:
            raise UnknownLabel(f"data[{i}]={example!r} must be an example (x, y) labeled "
                               "0 or 1") from None
        if y not in (0, 1):
            raise InvalidArgument(f"data[{i}]={example!r} must be labeled 0 or 1, not ⊥")
        C.domain.position(point_of(example), f"data[{i}]")


def _core_run(C: ConceptClass, n: int, m: int, eps1: Real, inner: Predictor, data: Dataset,
              x: Hashable) -> Program[int]:
    _check_data(C, data, n)
    h = yield from call(relabel_hypothesis, C, data, m, eps1)
    relabeled = yield from deterministic(relabel, data, h)
    return (yield from call(inner.program, relabeled, x))


def relabel_core_predictor(C: ConceptClass, n: int, m: int, epsilon1: Real | ExactInput, k: int,
                           epsilon2: Real | ExactInput, *,
                           name: str = "002 Algorithm 3 core (no flip)") -> Predictor:
    """Steps 1–4 of 002 Algorithm 3 (no final flip) as a Predictor on n examples.

    Claim: the (ε₀, δ) private prediction of :func:`relabel_core_privacy`, NOT pure at ε₀
    (the paper's analysis likewise gives only (O(ε), δ) before the flip).  Validates C,
    1 <= m <= n, 1 <= k <= n, ε₁, ε₂ >= 0 (InvalidArgument naming the argument); at run time
    the dataset size n, 0/1 labels and points of C's domain, and the query.
    """
    eps1, eps2 = parse_epsilon(epsilon1, "epsilon1"), parse_epsilon(epsilon2, "epsilon2")
    inner, description = _core(C, n, m, eps1, k, eps2)
    claim = relabel_core_privacy(n, m, eps1, k, eps2)

    def program(data: Dataset, x: Hashable) -> Program[int]:
        return (yield from _core_run(C, n, m, eps1, inner, data, x))

    return Predictor(name, program, claim, RELABEL_CORE_SOURCE, domain=tuple(C.domain),
                     description=description)


def relabel_predictor(C: ConceptClass, n: int, m: int, epsilon1: Real | ExactInput, k: int,
                      epsilon2: Real | ExactInput, flip: ExactInput, *,
                      name: str = "002 Algorithm 3 (relabel, then flip)") -> Predictor:
    """002 Algorithm 3 (Theorem 2): the core of :func:`relabel_core_predictor`, then flip w.p. q.

    Claim: pure ε-private prediction with ε = :func:`relabel_privacy` (n, m, ε₁, k, ε₂, q).
    Validates as :func:`relabel_core_predictor` plus 0 < q <= 1/2 (InvalidArgument naming flip).
    """
    eps1, eps2 = parse_epsilon(epsilon1, "epsilon1"), parse_epsilon(epsilon2, "epsilon2")
    inner, description = _core(C, n, m, eps1, k, eps2)
    q = _check_flip(flip)
    claim = relabel_privacy(n, m, eps1, k, eps2, q)

    def program(data: Dataset, x: Hashable) -> Program[int]:
        label = yield from _core_run(C, n, m, eps1, inner, data, x)
        return (yield from flip_prediction(label, q))

    return Predictor(name, program, claim, RELABEL_SOURCE, domain=tuple(C.domain),
                     description=f"{description}; then flip the label w.p. {q}")
