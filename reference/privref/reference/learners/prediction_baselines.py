"""The baselines that paper 002 (Dagan and Feldman 2020) compares its algorithms with, as Predictors.

Each baseline is one probabilistic program ``program(S, x)``
(:mod:`privref.reference.program`) wrapped in a
:class:`~privref.reference.prediction.Predictor`, with its exact per-query claim stated and
proved next to it; every query runs with fresh randomness (002 §2).  The learner inside every
baseline is :func:`erm`, a deterministic ERM over a finite concept class with canonical
tie-breaking, so all the randomness is the baseline's own.

* B1 :func:`subsample_predictor`: ERM on a uniform random m-subset of the indices
  ([SSSSS10], cited by 002 §1); exactly (m/n)-uniformly stable.
* B2 :func:`block_average_predictor`: ERM on each of k disjoint index blocks, predict with a
  uniformly random block's ERM (002 §1); exactly (1/k)-uniformly stable.
* B3 :func:`flipped_average_predictor`: B2, then flip the label with probability q
  (subsample-and-aggregate with noise, [DF18, BTT18] cited by 002 §1); ε = ln(1 + (1 − 2q)/(kq)).
* B4 :func:`private_majority_predictor`: k disjoint blocks, then the exponential mechanism on
  the two vote counts ([DF18] Theorem 4.1, cited by 002 §1 and Lemma 6); its exact ε is
  :func:`private_majority_epsilon`, never above the mechanism's ε.

* B5 :func:`generic_predictor`: the generic ε-DP learner ([KLNRS11], cited by 002 §1; the
  learner itself is :mod:`privref.reference.learners.generic`), predicting with its h; ε-private.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from fractions import Fraction

from privref.reference.citations import cite
from privref.reference.concepts import Concept, ConceptClass
from privref.reference.data import BOTTOM, Dataset, label_of, point_of
from privref.reference.errors import InvalidArgument, UnknownLabel
from privref.reference.exponential import agreements, exponential_weights
from privref.reference.learners.stable_prediction import (
    flip_predictor,
    pattern_exponential_mechanism,
    random_index_subset,
)
from privref.reference.prediction import Predictor, PrivatePrediction, UniformStability
from privref.reference.privacy import parse_epsilon
from privref.reference.program import (
    Categorical,
    Program,
    call,
    categorical_choice,
    choose,
    deterministic,
    uniform,
)
from privref.reference.reals import Real, exp, log, rational
from privref.reference.validate import ExactInput, check_int

__all__ = [
    "block_average_predictor",
    "erm",
    "flipped_average_predictor",
    "generic_predictor",
    "index_blocks",
    "majority_choice",
    "private_majority_epsilon",
    "private_majority_predictor",
    "subsample_predictor",
]

SUBSAMPLE_SOURCE = cite("folklore Shalev-Shwartz et al. 2010 subsampling")
"""B1's m/n stability ([SSSSS10], as recalled in 002 §1)."""

AVERAGE_SOURCE = cite("folklore Disjoint-block averaging")
"""B2's 1/k stability (002 §1)."""

FLIPPED_AVERAGE_SOURCE = cite("002 Corollary 1 (proof)")
"""B3's privacy: B2's 1/k stability through 002 Corollary 1's flip conversion (002 §1, after
[DF18, BTT18])."""

GENERIC_SOURCE = cite("002 Lemma 4")
"""B5 ([KLNRS11], 002 §1): the exponential mechanism over C gives ε-private prediction."""

PRIVATE_MAJORITY_SOURCE = cite("002 Lemma 6 (proof)")
"""B4's privacy: the private majority of [DF18] Theorem 4.1, the realizable learner of 002
Lemma 6 (one example moves each vote count by at most 1)."""


# ------------------------------------------------------------------ primitives


def _check_class(C: object) -> ConceptClass:
    if not isinstance(C, ConceptClass):
        raise InvalidArgument(f"C={C!r} must be a ConceptClass")
    return C


def _check_labeled(C: ConceptClass, data: Dataset, name: str) -> None:
    for i, example in enumerate(data):
        try:
            y = label_of(example)
        except UnknownLabel:
            raise UnknownLabel(f"{name}[{i}]={example!r} must be an example (x, y) labeled "
                               "0 or 1") from None
        if y is BOTTOM:
            raise InvalidArgument(f"{name}[{i}]={example!r} must be labeled 0 or 1, not ⊥")
        C.domain.position(point_of(example), f"{name}[{i}]")


def erm(C: ConceptClass, data: Dataset) -> Concept:
    """The deterministic ERM over C: the FIRST concept of C (in C's order) with the fewest mistakes.

    Guarantee: a function of (C, data) alone, with the canonical tie-break "first in C's
    order", so every baseline's randomness is its own; on an empty dataset it is C[0].  This
    is the PAC learner L that the baselines of 002 §1 run ("ERM over C").  Requires a
    ConceptClass and a sequence of examples labeled 0 or 1 at points of C's domain
    (InvalidArgument naming ``data`` or the entry ``data[i]``).
    """
    _check_class(C)
    if isinstance(data, str | bytes) or not isinstance(data, Iterable):
        raise InvalidArgument(f"data={data!r} must be a sequence of labeled examples (x, y)")
    data = tuple(data)
    _check_labeled(C, data, "data")
    best, best_score = C[0], agreements(C[0], data)
    for c in C:
        score = agreements(c, data)
        if score > best_score:
            best, best_score = c, score
    return best


def index_blocks(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Split the indices range(n) into k consecutive non-empty blocks, [j·n//k, (j+1)·n//k).

    Guarantee: every index lies in exactly one block (so changing one example changes exactly
    one block), and the sizes differ by at most one (all n/k when k divides n).  002 §1
    splits "by index"; which fixed split is used does not affect any claim here.
    Requires 1 <= k <= n (InvalidArgument naming n or k).
    """
    check_int(n, "n", minimum=1)
    check_int(k, "k", minimum=1, maximum=n)
    return tuple(tuple(range(j * n // k, (j + 1) * n // k)) for j in range(k))


def _check_data(C: ConceptClass, data: Dataset, n: int) -> None:
    if len(data) != n:
        raise InvalidArgument(f"data has {len(data)} examples; this predictor needs n={n}")
    _check_labeled(C, data, "data")


def _erm_label(C: ConceptClass, data: Dataset, index: tuple[int, ...], x: Hashable) -> int:
    return erm(C, tuple(data[i] for i in index))(x)


# ----------------------------------------------------------------------- B1


def subsample_predictor(C: ConceptClass, n: int, m: int, *,
                        name: str = "002 baseline B1 (random-subsample ERM)") -> Predictor:
    """B1: ERM on a uniform random m-subset of the n indices, then predict h(x) (002 §1).

    Program per query: I ← :func:`~privref.reference.learners.stable_prediction.random_index_subset`
    (n, m); h ← :func:`erm` (C, S_I); return h(x).
    Claim: exactly (m/n)-uniform stability ([SSSSS10], cited by 002 §1).
    Proof.  Let S, S'' differ at index i only.  For each m-subset I with i ∉ I, S_I = S''_I,
    so the deterministic ERM returns the same h and the same label.  Hence
    |P[A(S,x)=y] − P[A(S'',x)=y]| = |Σ_{I ∋ i} (1[h_{S_I}(x)=y] − 1[h_{S''_I}(x)=y])|/C(n,m)
    <= #{I ∋ i}/C(n,m) = C(n−1,m−1)/C(n,m) = m/n.  The bound is attained exactly when every
    subset holding i flips the ERM's label at x in the same direction (e.g. m = 1; the tests
    audit it as attained on thresholds with n <= 4; a class of one concept gives 0).
    Requires a ConceptClass and 1 <= m <= n (InvalidArgument naming the argument); at run
    time n examples labeled 0/1 at points of C's domain, and a query in C's domain.
    """
    _check_class(C)
    check_int(n, "n", minimum=1)
    check_int(m, "m", minimum=1, maximum=n)

    def program(data: Dataset, x: Hashable) -> Program[int]:
        _check_data(C, data, n)
        index = yield from call(random_index_subset, n, m)
        return (yield from deterministic(_erm_label, C, data, index, x))

    return Predictor(name, program, UniformStability(rational(Fraction(m, n))),
                     SUBSAMPLE_SOURCE, domain=tuple(C.domain),
                     description=f"{C.name}: ERM on a uniform {m}-subset of n={n}")


# ----------------------------------------------------------------------- B2


def block_average_predictor(C: ConceptClass, n: int, k: int, *,
                            name: str = "002 baseline B2 (block average)") -> Predictor:
    """B2: ERM h_j on each block of :func:`index_blocks` (n, k); answer h_J(x), J uniform (002 §1).

    So P[A(S,x)=1] = (1/k)·#{j : h_j(x) = 1}, the average of the k block models.
    Claim: exactly (1/k)-uniform stability (002 §1: "improves stability by a factor k").
    Proof.  Neighbors S, S'' differ at one index, which lies in exactly one block j₀; every
    other block, hence its ERM, is unchanged.  So P[A(S,x)=y] − P[A(S'',x)=y] =
    (1[h_{j₀}(x)=y] − 1[h''_{j₀}(x)=y])/k, at most 1/k in absolute value, with equality
    exactly when block j₀'s ERM changes its label at x.  Requires a ConceptClass and
    1 <= k <= n (InvalidArgument naming the argument); run-time checks as in
    :func:`subsample_predictor`.
    """
    _check_class(C)
    blocks = index_blocks(n, k)

    def program(data: Dataset, x: Hashable) -> Program[int]:
        _check_data(C, data, n)
        j = yield from uniform(k)
        return (yield from deterministic(_erm_label, C, data, blocks[j], x))

    return Predictor(name, program, UniformStability(rational(Fraction(1, k))), AVERAGE_SOURCE,
                     domain=tuple(C.domain),
                     description=f"{C.name}: ERM on {k} index blocks of n={n}, a uniform "
                                 "block answers")


# ----------------------------------------------------------------------- B3


def flipped_average_predictor(C: ConceptClass, n: int, k: int, flip: ExactInput, *,
                              name: str = "002 baseline B3 (block average, then flip)"
                              ) -> Predictor:
    """B3: :func:`block_average_predictor` (n, k), then flip the label with probability q (002 §1).

    The aggregation is the SOFT vote: P[1 before the flip] = (fraction of blocks voting 1).
    A hard majority vote followed by the flip would only be ln((1 − q)/q)-private, the
    stability of a hard majority being 1: one block can swing it.
    Claim: ε-private prediction with ε = ln(1 + (1 − 2q)/(k·q)) exactly (subsample-and-
    aggregate with noise, [DF18, BTT18] cited by 002 §1; at q = α/2 the ratio is
    1 + (1 − α)(1/k)/(α/2)).  Proof: B2 is (1/k)-stable, and
    :func:`~privref.reference.learners.stable_prediction.flip_privacy` turns a γ-stable
    predictor flipped w.p. q into an ln(1 + (1 − 2q)·γ/q)-private one; the bound is attained
    when one neighbor has no block voting y and the other exactly one.  Requires
    0 < q <= 1/2 (InvalidArgument naming flip) and the arguments of B2.
    """
    inner = block_average_predictor(C, n, k)
    return flip_predictor(inner, flip, name=name, source=FLIPPED_AVERAGE_SOURCE)


# ----------------------------------------------------------------------- B4


def private_majority_epsilon(k: int, epsilon: Real | ExactInput) -> Real:
    """The exact private-prediction ε of B4: ln((1 + r^k)/(1 + r^{k−2})) with r = e^{ε/2}; <= ε.

    Source: our derivation for 002 baseline B4 ([DF18] Theorem 4.1's private majority).
    Proof.  With v = #{blocks voting 1}, B4 outputs 1 with probability
    r^v/(r^v + r^{k−v}) = σ(a), a = ε(2v − k)/2, σ(a) = 1/(1 + e^{−a}).  A neighbor changes
    one block, so v moves by at most 1 and a by at most ε.  For y = 1 and v → v + 1 the
    ratio is σ(a + ε)/σ(a) = (1 + u)/(1 + u·e^{−ε}) with u = e^{−a}, increasing in u, so it is
    largest at the smallest a = −εk/2 (v = 0), where it equals (1 + r^k)/(1 + r^{k−2}); y = 0
    is the mirror image (v = k).  The ratio is below e^ε = r² since
    r²(1 + r^{k−2}) − (1 + r^k) = r² − 1 >= 0, so the exponential mechanism's ε is a valid but
    never attained claim when ε > 0.  k = 1 gives ε/2.  Edge cases in order: validate
    (k >= 1, ε >= 0; InvalidArgument naming the argument); ε = 0 gives 0; then the closed form.
    """
    check_int(k, "k", minimum=1)
    eps = parse_epsilon(epsilon)
    if eps.exact == 0:
        return rational(0)
    return log((exp(eps * Fraction(k, 2)) + 1) / (exp(eps * Fraction(k - 2, 2)) + 1))


def _votes(C: ConceptClass, data: Dataset, blocks: tuple[tuple[int, ...], ...],
           x: Hashable) -> int:
    return sum(_erm_label(C, data, block, x) for block in blocks)


def majority_choice(votes: int, k: int, epsilon: Real) -> Categorical:
    """B4's private majority at one query: label y with probability ∝ exp(ε·v_y/2), where
    v_1 = ``votes`` and v_0 = k − votes (the exponential mechanism over {0, 1}, score
    sensitivity 1; [DF18] Theorem 4.1, 002 Lemma 6)."""
    return categorical_choice(exponential_weights([k - votes, votes], epsilon=epsilon))


def private_majority_predictor(C: ConceptClass, n: int, k: int, epsilon: Real | ExactInput, *,
                               name: str = "002 baseline B4 (private majority)") -> Predictor:
    """B4: ERM on each block of :func:`index_blocks` (n, k), then a private majority at x (002 §1).

    Program per query: v_y = #{j : h_j(x) = y}; output y with probability ∝ exp(ε·v_y/2), the
    exponential mechanism over {0, 1} with score v_y (sensitivity 1: one example changes one
    block, so each v_y moves by at most 1).  This is our concrete choice of [DF18] Theorem
    4.1's "subsample-and-aggregate with private majority" (cited by 002 §1 and Lemma 6; DF18
    takes k ≈ 4·ln(2/α)/ε blocks of a consistent learner in the realizable case).
    Claim: ε′-private prediction with the exact ε′ = :func:`private_majority_epsilon` (k, ε)
    <= ε, attained whenever neighbors move the vote at x from 0 to 1 (or k − 1 to k).
    Exact rationals when e^{ε/2} is rational (ε = 2·ln r).  Requires a ConceptClass,
    1 <= k <= n and ε >= 0 (InvalidArgument naming the argument); run-time checks as in
    :func:`subsample_predictor`.
    """
    _check_class(C)
    blocks = index_blocks(n, k)
    eps = parse_epsilon(epsilon)
    claim = PrivatePrediction(private_majority_epsilon(k, eps))

    def program(data: Dataset, x: Hashable) -> Program[int]:
        _check_data(C, data, n)
        votes = yield from deterministic(_votes, C, data, blocks, x)
        choice = yield from deterministic(majority_choice, votes, k, eps)
        return (yield from choose(choice))

    return Predictor(name, program, claim, PRIVATE_MAJORITY_SOURCE, domain=tuple(C.domain),
                     description=f"{C.name}: ERM on {k} index blocks of n={n}, exponential "
                                 f"mechanism on the votes, eps={eps}")


# ----------------------------------------------------------------------- B5


def generic_predictor(C: ConceptClass, n: int, epsilon: Real | ExactInput, *,
                      name: str = "002 baseline B5 (generic private learner)") -> Predictor:
    """B5: h ← the exponential mechanism over C scored on S, then predict h(x) (002 §1).

    Candidates: one canonical representative of C per pattern on C's whole domain, i.e. C
    without duplicates (:func:`~privref.reference.learners.stable_prediction.pattern_exponential_mechanism`
    on every domain point); P[h] ∝ exp(ε·agreements_S(h)/2) ([KLNRS11], cited by 002 §1).
    Claim: ε-private prediction.  Proof: the choice of h is ε-DP under substitution
    (sensitivity 1; 004 Proposition A.1 (i)), and h(x) is post-processing of h.  Usually not
    attained for a fixed x (the tests report the audited value).  Requires a ConceptClass,
    n >= 1 and ε >= 0 (InvalidArgument naming the argument); run-time checks as in
    :func:`subsample_predictor`.
    """
    _check_class(C)
    check_int(n, "n", minimum=1)
    eps = parse_epsilon(epsilon)
    points = tuple(C.domain)

    def program(data: Dataset, x: Hashable) -> Program[int]:
        _check_data(C, data, n)
        h = yield from call(pattern_exponential_mechanism, C, points, data, eps)
        return h(x)

    return Predictor(name, program, PrivatePrediction(eps), GENERIC_SOURCE, domain=points,
                     description=f"{C.name}: exponential mechanism over C, eps={eps}")
