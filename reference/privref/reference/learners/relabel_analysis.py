"""Analysis objects of the privacy proof of 002 Algorithm 3 (002 §4.2, Lemmas 8, 10 and 11).

None of this runs inside the learner; it is what the proof talks about, made exact so the
ledger (:mod:`privref.proofs.p002`) can check each step on finite instances.  Indices are
0-based: the paper's changed example "1" is ``changed`` (default 0).

* :func:`candidates`: H_{S'} for a list of points S' (the canonical representatives the
  algorithm itself uses);
* :func:`matching`: the matching M(h₁) ⊆ H_{S_J} of each h₁ ∈ H_{S_I}, for I ∋ changed and
  J = (I ∖ {changed}) ∪ {j} (002 Lemma 10's proof);
* :func:`matched_radius`: the exact net radius k(I), the largest number of points of S on
  which two matched hypotheses disagree (our exact replacement of the paper's k);
* :func:`net_radius`: the radius of a point set as a net for C with respect to the points of
  S (the paper's "(k/n)-net w.r.t. U(S)" is net_radius <= k);
* :func:`subset_partition`: T₀, T₁(k), T₂(k) for a changed index (002 §4.2);
* :func:`subset_law`: P(S, S', x) of 002 Eq. (8), built from Algorithm 3's own programs;
* :func:`averaged_law`: F_S(x) of 002 Eq. (9), the average of :func:`subset_law` over every
  m-subset, equal to the law of
  :func:`~privref.reference.learners.relabel_prediction.relabel_core_predictor`;
* :func:`refined_epsilon`, :func:`refined_core_claim`: our exact form of 002 Lemma 8's
  privacy conclusion for one changed index, valid for every k >= 0;
* :func:`stated_core_claim`: 002 Lemma 8's conclusion with our constants;
* :func:`flip_approximate_privacy`: the flip that turns an (ε, δ) claim into a pure one
  (002 Theorem 2's proof, "as in the proof of Corollary 1").
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from privref.reference.concepts import Concept, ConceptClass
from privref.reference.data import Dataset, point_of
from privref.reference.errors import InvalidArgument
from privref.reference.learners.prediction_baselines import private_majority_predictor
from privref.reference.learners.relabel_prediction import relabel
from privref.reference.learners.stable_prediction import pattern_exponential_mechanism
from privref.reference.prediction import PredictionProgram, PrivatePrediction
from privref.reference.privacy import parse_epsilon
from privref.reference.program import Distribution, Program, call, deterministic, distribution
from privref.reference.reals import (
    DEFAULT_PRECISION,
    Prob,
    Real,
    exp,
    log,
    prob_add,
    prob_as_interval,
    rational,
)
from privref.reference.validate import ExactInput, check_int, check_probability, to_fraction
from privref.reference.vc import canonical_representatives

__all__ = [
    "SubsetPartition",
    "averaged_law",
    "candidates",
    "disagreements",
    "flip_approximate_privacy",
    "matched_radius",
    "matching",
    "net_radius",
    "refined_core_claim",
    "refined_epsilon",
    "stated_core_claim",
    "subset_law",
    "subset_partition",
]

Index = tuple[int, ...]


# ------------------------------------------------------------------ validation


def _check_class(C: object) -> ConceptClass:
    if not isinstance(C, ConceptClass):
        raise InvalidArgument(f"C={C!r} must be a ConceptClass")
    return C


def _check_data(C: ConceptClass, data: object) -> Dataset:
    if not isinstance(data, tuple) or not data:
        raise InvalidArgument(f"data={data!r} must be a non-empty tuple of (x, y) examples")
    for i, example in enumerate(data):
        if not isinstance(example, tuple) or len(example) != 2 \
                or isinstance(example[1], bool) or example[1] not in (0, 1):
            raise InvalidArgument(f"data[{i}]={example!r} must be an example (x, y), y in 0/1")
        C.domain.position(point_of(example), f"data[{i}]")
    return data


def _check_index(index: object, n: int, name: str) -> Index:
    if not isinstance(index, tuple):
        raise InvalidArgument(f"{name}={index!r} must be a tuple of indices")
    for i in index:
        check_int(i, f"{name} entry", minimum=0, maximum=n - 1)
    if len(set(index)) != len(index):
        raise InvalidArgument(f"{name}={index!r} repeats an index")
    return tuple(sorted(index))


def _check_subset(index: object, n: int, changed: int) -> Index:
    subset = _check_index(index, n, "index")
    if changed not in subset:
        raise InvalidArgument(f"index={subset!r} must contain changed={changed}")
    return subset


def _points(data: Dataset, index: Sequence[int]) -> tuple[Hashable, ...]:
    return tuple(point_of(data[i]) for i in index)


# ------------------------------------------------------------------ hypotheses


def candidates(C: ConceptClass, points: Sequence[Hashable]) -> tuple[Concept, ...]:
    """H_{S'}: one canonical representative of C per pattern on ``points`` (002 §2.1, D10).

    Exactly the candidate set of Algorithm 3 step 2
    (:func:`~privref.reference.learners.stable_prediction.pattern_exponential_mechanism`
    draws from it): a subset of C depending on the points only, |H_{S'}| = |C restricted to
    S'|.  Raises InvalidArgument for a non-class or a point outside C's domain.
    """
    _check_class(C)
    for i, x in enumerate(points):
        C.domain.position(x, f"points[{i}]")
    return canonical_representatives(C, tuple(points))


def disagreements(h1: Concept, h2: Concept, data: Dataset) -> int:
    """#{i : h1(x_i) != h2(x_i)} over the n examples of ``data``, repeats counted (002 Eq. (7)).

    The number of labels in which the relabelings S_{h1} and S_{h2} differ, and a bound on
    |mistakes_S(h1) − mistakes_S(h2)|.
    """
    return sum(h1(point_of(e)) != h2(point_of(e)) for e in data)


def matching(C: ConceptClass, data: Dataset, index: Index, changed: int,
             j: int) -> tuple[tuple[Concept, tuple[Concept, ...]], ...]:
    """M(h₁) for each h₁ ∈ H_{S_I}: the h₂ ∈ H_{S_J} agreeing with h₁ on S_{I∖{changed}}.

    002 Lemma 10's proof: I = ``index`` holds ``changed``, j ∉ I, J = (I ∖ {changed}) ∪ {j}.
    Guarantee (checked in the ledger, 002 Lemma 10 C12): 1 <= |M(h₁)| <= 2 and each h₂ lies
    in at most two sets M(h₁).  Raises InvalidArgument (naming the argument) for a bad class,
    dataset, index without ``changed``, or j in I.
    """
    _check_class(C)
    data = _check_data(C, data)
    n = len(data)
    check_int(changed, "changed", minimum=0, maximum=n - 1)
    subset = _check_subset(index, n, changed)
    check_int(j, "j", minimum=0, maximum=n - 1)
    if j in subset:
        raise InvalidArgument(f"j={j} must not lie in index={subset!r}")
    rest = tuple(i for i in subset if i != changed)
    shared = _points(data, rest)
    left = candidates(C, _points(data, subset))
    right = candidates(C, _points(data, tuple(sorted((*rest, j)))))
    return tuple((h1, tuple(h2 for h2 in right
                            if all(h1(x) == h2(x) for x in shared)))
                 for h1 in left)


def matched_radius(C: ConceptClass, data: Dataset, index: Index, changed: int = 0) -> int:
    """k(I): the most points of S on which a matched pair (h₁, h₂ ∈ M(h₁)) disagrees, over all j ∉ I.

    Our exact net radius for 002 Lemma 10 (the paper bounds it by k when S_{I∖{1}} is a
    (k/n)-net w.r.t. U(S); always k(I) <= :func:`net_radius` of I ∖ {changed}).  With it,
    Lemma 10 reads P(S, S_I, x)(y) <= 4·e^{k(I)(ε₁+ε₂)}·P(S, S_J, x)(y) for every j ∉ I.
    0 when I = [n] (no j).  Same arguments and errors as :func:`matching` without j.
    """
    _check_class(C)
    data = _check_data(C, data)
    n = len(data)
    check_int(changed, "changed", minimum=0, maximum=n - 1)
    subset = _check_subset(index, n, changed)
    best = 0
    for j in range(n):
        if j in subset:
            continue
        for h1, matched in matching(C, data, subset, changed, j):
            for h2 in matched:
                best = max(best, disagreements(h1, h2, data))
    return best


def net_radius(C: ConceptClass, data: Dataset, index: Index, *,
               over: Index | None = None) -> int:
    """The largest number of examples of ``data`` (those at ``over``; default all) on which two
    concepts of C agreeing on the points at ``index`` disagree.

    The points of S_index form a (k/n)-net for C w.r.t. U(S) (002 §2.1, D9) exactly when
    net_radius <= k (with ``over`` = all indices).  ``over`` = [n] ∖ {changed} is the net
    w.r.t. U(S ∖ {x₁}) to which Lemma 1 applies (the T₁ off-by-one of 002 §4.2).  Raises
    InvalidArgument for bad indices.
    """
    _check_class(C)
    data = _check_data(C, data)
    n = len(data)
    subset = _check_index(index, n, "index")
    counted = tuple(range(n)) if over is None else _check_index(over, n, "over")
    shared = _points(data, subset)
    groups: dict[tuple[int, ...], list[Concept]] = {}
    for c in C:
        groups.setdefault(tuple(c(x) for x in shared), []).append(c)
    points = _points(data, counted)
    best = 0
    for members in groups.values():
        columns = {tuple(c(x) for x in points) for c in members}
        for a, b in itertools.combinations(columns, 2):
            best = max(best, sum(u != v for u, v in zip(a, b, strict=True)))
    return best


# ------------------------------------------------------------------ partition


@dataclass(frozen=True, slots=True)
class SubsetPartition:
    """T = all m-subsets of range(n), split for one changed index and radius k (002 §4.2).

    ``t0``: subsets without ``changed``; ``t1``: subsets with it and k(I) > k (the net fails);
    ``t2``: the rest (k(I) <= k).  Each is sorted; together they are T, disjoint.
    """

    n: int
    m: int
    changed: int
    k: int
    t0: tuple[Index, ...]
    t1: tuple[Index, ...]
    t2: tuple[Index, ...]
    radii: tuple[tuple[Index, int], ...]

    @property
    def total(self) -> int:
        """|T| = C(n, m)."""
        return len(self.t0) + len(self.t1) + len(self.t2)

    @property
    def t1_fraction(self) -> Fraction:
        """|T₁(k)|/|T|: the δ of the refined privacy claim (:func:`refined_core_claim`)."""
        return Fraction(len(self.t1), self.total)


def subset_partition(C: ConceptClass, data: Dataset, m: int, k: int,
                     changed: int = 0) -> SubsetPartition:
    """T₀, T₁(k), T₂(k) of 002 §4.2 for ``changed``, with T₁(k) = {I ∋ changed : k(I) > k}.

    The paper defines T₁ by "S_{I∖{1}} is not a (k/n)-net w.r.t. U(S)"; we use the exact
    :func:`matched_radius` k(I) instead, which is never larger than that net radius, so our
    T₁(k) is contained in the paper's (the T₁ off-by-one: the paper's Lemma 1 controls a net
    w.r.t. U(S ∖ {x₁}), which may need radius k + 1 w.r.t. U(S)).  ``radii`` lists k(I) for
    every I ∋ changed.  Requires 1 <= m <= n, k >= 0 (InvalidArgument naming the argument).
    """
    _check_class(C)
    data = _check_data(C, data)
    n = len(data)
    check_int(m, "m", minimum=1, maximum=n)
    check_int(k, "k", minimum=0)
    check_int(changed, "changed", minimum=0, maximum=n - 1)
    t0: list[Index] = []
    t1: list[Index] = []
    t2: list[Index] = []
    radii: list[tuple[Index, int]] = []
    for subset in itertools.combinations(range(n), m):
        if changed not in subset:
            t0.append(subset)
            continue
        radius = matched_radius(C, data, subset, changed)
        radii.append((subset, radius))
        (t1 if radius > k else t2).append(subset)
    return SubsetPartition(n, m, changed, k, tuple(t0), tuple(t1), tuple(t2), tuple(radii))


# ------------------------------------------------------------------ laws


def _subset_program(C: ConceptClass, data: Dataset, points: tuple[Hashable, ...],
                    x: Hashable, epsilon1: Real, inner: PredictionProgram) -> Program[int]:
    h = yield from call(pattern_exponential_mechanism, C, points, data, epsilon1)
    relabeled = yield from deterministic(relabel, data, h)
    return (yield from call(inner, relabeled, x))


def subset_law(C: ConceptClass, data: Dataset, points: Sequence[Hashable], x: Hashable,
               epsilon1: Real | ExactInput, blocks: int, epsilon2: Real | ExactInput, *,
               precision: int = DEFAULT_PRECISION) -> Distribution[int]:
    """P(S, S', x) of 002 Eq. (8): the law of Algorithm 3's steps 2–4 for a FIXED point list S'.

    h ∈ H_{S'} with probability ∝ e^{−ε₁·mistakes_S(h)/2}, then B4 (``blocks`` blocks, ε₂)
    on S_h at x.  S' need not come from S (the paper extends Eq. (8) that way).  Built from
    the algorithm's own programs (pattern_exponential_mechanism, relabel, B4's program), not
    a second implementation.  Exact when e^{ε/2} is rational.  Raises InvalidArgument for a
    bad class, dataset, point, block count (1 <= blocks <= n) or ε < 0.
    """
    _check_class(C)
    data = _check_data(C, data)
    eps1, eps2 = parse_epsilon(epsilon1, "epsilon1"), parse_epsilon(epsilon2, "epsilon2")
    check_int(blocks, "blocks", minimum=1, maximum=len(data))
    pts = tuple(points)
    for i, p in enumerate(pts):
        C.domain.position(p, f"points[{i}]")
    C.domain.position(x, "x")
    inner = private_majority_predictor(C, len(data), blocks, eps2).program
    return distribution(_subset_program, C, data, pts, x, eps1, inner, precision=precision)


def averaged_law(C: ConceptClass, data: Dataset, m: int, x: Hashable, epsilon1: Real | ExactInput,
                 blocks: int, epsilon2: Real | ExactInput, *,
                 precision: int = DEFAULT_PRECISION) -> Distribution[int]:
    """F_S(x) of 002 Eq. (9): C(n, m)^{-1}·Σ_{|I| = m} P(S, S_I, x), as a law on {0, 1}.

    Equal to the law of Algorithm 3's core
    (:func:`~privref.reference.learners.relabel_prediction.relabel_core_predictor`) at x;
    the tests check the equality exactly.  Arguments as :func:`subset_law` plus 1 <= m <= n.
    """
    _check_class(C)
    data = _check_data(C, data)
    n = len(data)
    check_int(m, "m", minimum=1, maximum=n)
    total: dict[int, Prob] = {0: Fraction(0), 1: Fraction(0)}
    count = math.comb(n, m)
    for subset in itertools.combinations(range(n), m):
        law = subset_law(C, data, _points(data, subset), x, epsilon1, blocks, epsilon2,
                         precision=precision)
        for y in (0, 1):
            total[y] = prob_add(total[y], law.prob(y))
    probs: dict[int, Prob] = {}
    for y in (0, 1):
        p = total[y]
        probs[y] = p / count if isinstance(p, Fraction) else prob_as_interval(p) / count
    return Distribution.from_mapping(probs)


# ------------------------------------------------------------------ claims


def refined_epsilon(n: int, m: int, epsilon1: Real | ExactInput, epsilon2: Real | ExactInput, k: int) -> Real:
    """ε(k) = ε₁ + ε₂ + ln(1 + 4·e^{k(ε₁+ε₂)}·m/(n − m)): our exact multiplicative term of
    002 Lemma 8's privacy proof (Lemma 11 gives e^{ε₁+ε₂}; Lemma 10 with radius k and the
    double count of C6 give the second factor).

    Requires 1 <= m < n and k >= 0 (InvalidArgument naming the argument).  Exact
    (log of a rational) when e^{ε₁}, e^{ε₂} are rational.
    """
    check_int(n, "n", minimum=2)
    check_int(m, "m", minimum=1, maximum=n - 1)
    check_int(k, "k", minimum=0)
    eps = parse_epsilon(epsilon1, "epsilon1") + parse_epsilon(epsilon2, "epsilon2")
    return eps + log(exp(eps * k) * Fraction(4 * m, n - m) + 1)


def refined_core_claim(C: ConceptClass, data: Dataset, m: int, epsilon1: Real | ExactInput,
                       epsilon2: Real | ExactInput, k: int, changed: int = 0) -> PrivatePrediction:
    """(ε(k), |T₁(k)|/|T|): our exact, always-valid form of 002 Lemma 8's privacy for ``data``.

    Guarantee (proved in the ledger entry of 002 Lemma 8): for every S'' differing from
    S = ``data`` at index ``changed`` only, every x and y,
    P[A(S, x) = y] <= e^{ε(k)}·P[A(S'', x) = y] + |T₁(k)|/|T|, where A is Algorithm 3's core
    with ANY ε₂-private realizable learner (B4 included) and ε(k) = :func:`refined_epsilon`.
    It is a claim about ordered pairs starting at ``data`` (δ depends on S).  Requires
    1 <= m < n, k >= 0, ε₁, ε₂ >= 0 (InvalidArgument naming the argument).
    """
    _check_class(C)
    data = _check_data(C, data)
    partition = subset_partition(C, data, m, k, changed)
    return PrivatePrediction(refined_epsilon(len(data), m, epsilon1, epsilon2, k),
                             partition.t1_fraction)


def stated_core_claim(n: int, m: int, epsilon1: Real | ExactInput, epsilon2: Real | ExactInput,
                      delta: ExactInput) -> PrivatePrediction:
    """002 Lemma 8's privacy with our constants: (ε₁ + ε₂ + 8e²·m/n, δ·m/n).

    Valid under the reconstructed conditions k·ε₁ <= 1, k·ε₂ <= 1, m <= n/2 and
    "S_{I∖{1}} is a (k/n)-net w.r.t. U(S) with probability >= 1 − δ" (then
    ln(1 + 4e^{k(ε₁+ε₂)}m/(n−m)) <= 4e²·m/(n−m) <= 8e²·m/n, and |T₁|/|T| <= δ·m/n by C5).
    Requires 1 <= m <= n/2 and 0 <= δ <= 1 (InvalidArgument naming the argument).
    """
    check_int(n, "n", minimum=2)
    check_int(m, "m", minimum=1, maximum=n // 2)
    d = check_probability(to_fraction(delta, "delta"), "delta")
    eps = parse_epsilon(epsilon1, "epsilon1") + parse_epsilon(epsilon2, "epsilon2")
    return PrivatePrediction(eps + exp(rational(2)) * Fraction(8 * m, n), d * Fraction(m, n))


def flip_approximate_privacy(claim: PrivatePrediction, flip: ExactInput) -> PrivatePrediction:
    """An (ε, δ)-private prediction flipped w.p. q is pure ln(e^ε + (1 − 2q)·δ/q)-private.

    002 Theorem 2's proof converts Lemma 8's (ε, δ) claim "as in the proof of Corollary 1".
    Proof.  p' = q + (1 − 2q)p <= q + (1 − 2q)(e^ε·p'' + δ) <= e^ε·(q + (1 − 2q)p'') +
    (1 − 2q)δ = e^ε·p''' + (1 − 2q)δ, and p''' >= q, so (1 − 2q)δ <= (1 − 2q)(δ/q)·p'''.
    Requires 0 < q <= 1/2 (InvalidArgument naming flip).
    """
    if not isinstance(claim, PrivatePrediction):
        raise InvalidArgument(f"claim={claim!r} must be a PrivatePrediction")
    q = check_probability(to_fraction(flip, "flip"), "flip", open_low=True)
    if q > Fraction(1, 2):
        raise InvalidArgument(f"flip={q} must be <= 1/2")
    extra = (1 - 2 * q) * claim.delta / q
    return PrivatePrediction(log(exp(claim.epsilon) + extra))
