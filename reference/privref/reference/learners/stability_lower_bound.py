"""The hard instance behind the stability lower bound of paper 002 (Dagan and Feldman 2020, §5).

002 Theorem 4: a γ-uniformly stable learner whose expected error is at most α on every
realizable distribution needs n = Ω(d/(αγ)) examples.  The proof (reconstructed; the text
stops after its first lines) uses:

* a set X' = {x_0, …, x_{d−1}} shattered by C, with D(x_0) = 1 − 4α and
  D(x_i) = 4α/(d − 1) for i ≥ 1 (so d ≥ 2 and α ≤ 1/4 are needed);
* the realizable targets P_h (x ~ D, y = h(x)) for every h ∈ {0,1}^{X'};
* the flipped sample S^{(i)} (every occurrence of x_i gets the other label) and N_i(S), the
  number of occurrences of x_i in S.  For h uniform, (h, S) and (h ⊕ e_i, S^{(i)}) have the
  same law, and γ-stability along N_i(S) single replacements gives
  E_h E_S L_{P_h}(A, S) ≥ Σ_{x∈X'} D(x)·max(0, 1 − γ·n·D(x))/2.

Restricted to i ≥ 1 the sum is 2α(1 − 4αγn/(d − 1)), so E L ≤ α forces n ≥ (d − 1)/(8αγ)
(our constants).  Everything here is exact (Fractions) and meant for tiny sizes: the law of
S ~ P_h^n is enumerated, d^n datasets per target.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from privref.reference.concepts import ConceptClass
from privref.reference.data import Dataset, label_of, point_of
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate
from privref.reference.prediction import Predictor
from privref.reference.validate import ExactInput, check_int, to_fraction
from privref.reference.vc import shatters

__all__ = [
    "DEFAULT_SAMPLE_LIMIT",
    "HardInstance",
    "expected_loss",
    "flip_point",
    "hard_instance",
    "key_bound",
    "minimal_sample_size",
    "occurrences",
    "population_loss",
    "sample_law",
    "shattered_points",
    "tail_bound",
    "target_law",
    "targets",
]

DEFAULT_SAMPLE_LIMIT = 200_000
"""Largest number of datasets (d^n per target) the exact enumerations accept."""

Target = tuple[int, ...]
"""A target h ∈ {0,1}^{X'}: its labels on x_0, …, x_{d−1}, in that order."""


@dataclass(frozen=True, slots=True)
class HardInstance:
    """002 Theorem 4's distribution: points x_0..x_{d−1} of X' and their exact masses D(x_i).

    Guarantee (checked at construction by :func:`hard_instance`): d ≥ 2, 0 < α ≤ 1/4,
    ``weights`` = (1 − 4α, 4α/(d−1), …, 4α/(d−1)) sum to 1, and the points are distinct.
    """

    d: int
    alpha: Fraction
    points: tuple[Hashable, ...]
    weights: tuple[Fraction, ...]

    def mass(self, x: Hashable) -> Fraction:
        """D(x) for a point of X' (InvalidArgument naming x otherwise)."""
        for p, w in zip(self.points, self.weights, strict=True):
            if p == x:
                return w
        raise InvalidArgument(f"x={x!r} must be a point of X' = {self.points!r}")


def _check_alpha(alpha: object) -> Fraction:
    a = to_fraction(alpha, "alpha")
    if not 0 < a <= Fraction(1, 4):
        raise InvalidArgument(f"alpha={a} must be in (0, 1/4] (D(x_0) = 1 − 4·alpha >= 0)")
    return a


def _check_d(d: object) -> int:
    return check_int(d, "d", minimum=2)


def shattered_points(C: ConceptClass, d: int) -> tuple[Hashable, ...]:
    """The first d points of C's domain (in the order of combinations) that C shatters.

    002 §5 takes "a set X' of size d shattered by C".  Raises InvalidArgument naming ``d``
    when C shatters no d points (d is above C's VC dimension).
    """
    if not isinstance(C, ConceptClass):
        raise InvalidArgument(f"C={C!r} must be a ConceptClass")
    d = check_int(d, "d", minimum=0)
    for chosen in itertools.combinations(C.domain.points, d):
        if shatters(C, chosen):
            return chosen
    raise InvalidArgument(f"d={d}: {C.name} shatters no {d} points of its domain")


def hard_instance(d: int, alpha: ExactInput, C: ConceptClass | None = None) -> HardInstance:
    """002 Theorem 4's hard distribution for dimension d and accuracy α (002 §5).

    X' = (0, …, d−1) by default, or the first d points shattered by ``C``
    (:func:`shattered_points`); D(x_0) = 1 − 4α and D(x_i) = 4α/(d − 1) for i ≥ 1.
    Requires d ≥ 2 (the construction needs a heavy point next to at least one light one;
    at d = 1 the theorem fails, see the ledger entry '002 Theorem 4') and 0 < α ≤ 1/4
    (InvalidArgument naming d or alpha).
    """
    d = _check_d(d)
    a = _check_alpha(alpha)
    points: tuple[Hashable, ...] = tuple(range(d)) if C is None else shattered_points(C, d)
    light = 4 * a / (d - 1)
    return HardInstance(d, a, points, (1 - 4 * a, *([light] * (d - 1))))


def targets(instance: HardInstance) -> tuple[Target, ...]:
    """Every h ∈ {0,1}^{X'} (2^d of them, lexicographic); each P_h is realizable by C ⊇ patterns on X'."""
    return tuple(itertools.product((0, 1), repeat=instance.d))


def _check_target(instance: HardInstance, h: Target) -> Target:
    if (not isinstance(h, tuple) or len(h) != instance.d
            or any(type(v) is not int or v not in (0, 1) for v in h)):
        raise InvalidArgument(f"h={h!r} must be a tuple of {instance.d} labels 0/1")
    return h


def target_law(instance: HardInstance, h: Target) -> tuple[tuple[tuple[Hashable, int], Fraction], ...]:
    """P_h: the example (x_i, h_i) with probability D(x_i), zero-mass points dropped (002 §5)."""
    h = _check_target(instance, h)
    return tuple(((x, y), w) for x, y, w in zip(instance.points, h, instance.weights, strict=True)
                 if w > 0)


def flip_point(data: Dataset, x: Hashable) -> Dataset:
    """S^{(i)} for x = x_i: every example at x gets the other label, the rest unchanged (002 §5)."""
    out: list[Hashable] = []
    for i, example in enumerate(data):
        y = label_of(example)
        if y not in (0, 1):
            raise InvalidArgument(f"data[{i}]={example!r} must be labeled 0 or 1")
        p = point_of(example)
        out.append((p, 1 - y) if p == x else example)
    return tuple(out)


def occurrences(data: Dataset, x: Hashable) -> int:
    """N_i(S) for x = x_i: how many examples of S sit at x (so S and S^{(i)} are N_i(S) changes apart)."""
    return sum(1 for example in data if point_of(example) == x)


def _check_size(instance: HardInstance, n: int, limit: int) -> int:
    n = check_int(n, "n", minimum=1)
    support = sum(1 for w in instance.weights if w > 0)
    if support**n > limit:
        raise TooLargeToEnumerate(f"n={n}: {support}^{n} datasets exceed limit={limit}")
    return n


def _law(instance: HardInstance, h: Target, n: int) -> Iterator[tuple[Dataset, Fraction]]:
    cells = target_law(instance, h)
    for combo in itertools.product(cells, repeat=n):
        p = Fraction(1)
        for _, w in combo:
            p *= w
        yield tuple(z for z, _ in combo), p


def sample_law(instance: HardInstance, h: Target, n: int, *,
               limit: int = DEFAULT_SAMPLE_LIMIT) -> tuple[tuple[Dataset, Fraction], ...]:
    """The exact law of S ~ P_h^n, one (S, P[S]) per ordered dataset of positive probability.

    The probabilities are exact and sum to 1.  Requires n ≥ 1 (InvalidArgument naming n);
    raises TooLargeToEnumerate when more than ``limit`` datasets would be listed.
    """
    h = _check_target(instance, h)
    n = _check_size(instance, n, limit)
    return tuple(_law(instance, h, n))


def key_bound(instance: HardInstance, n: int, gamma: ExactInput) -> Fraction:
    """Σ_{x∈X'} D(x)·max(0, 1 − γ·n·D(x))/2: 002 Theorem 4's lower bound on E_h E_S L_{P_h}(A, S).

    Valid for every γ-uniformly stable A (see the module docstring; the max(0, ·) is ours and
    makes each term a valid lower bound also when γ·n·D(x) > 1).  Requires n ≥ 1 and an exact
    γ ≥ 0 (InvalidArgument naming the argument).
    """
    n = check_int(n, "n", minimum=1)
    g = _check_gamma(gamma)
    return sum((w * max(Fraction(0), 1 - g * n * w) / 2 for w in instance.weights), Fraction(0))


def tail_bound(instance: HardInstance, n: int, gamma: ExactInput) -> Fraction:
    """2α(1 − 4αγn/(d − 1)): the i ≥ 1 terms of :func:`key_bound` without the max (002 §5).

    Never above :func:`key_bound` (it drops the x_0 term and the max).  If it is above α,
    no γ-stable learner has expected error ≤ α with n examples.
    """
    n = check_int(n, "n", minimum=1)
    g = _check_gamma(gamma)
    a = instance.alpha
    return 2 * a * (1 - 4 * a * g * n / (instance.d - 1))


def minimal_sample_size(d: int, alpha: ExactInput, gamma: ExactInput) -> Fraction:
    """(d − 1)/(8αγ): the n below which 002 Theorem 4 rules out E L ≤ α (our constants).

    From :func:`tail_bound` ≤ α ⇔ n ≥ (d − 1)/(8αγ).  Requires d ≥ 2, 0 < α ≤ 1/4 and an
    exact γ > 0 (InvalidArgument naming the argument).
    """
    d = _check_d(d)
    a = _check_alpha(alpha)
    g = _check_gamma(gamma)
    if g == 0:
        raise InvalidArgument("gamma=0 must be > 0")
    return Fraction(d - 1) / (8 * a * g)


def _check_gamma(gamma: object) -> Fraction:
    g = to_fraction(gamma, "gamma")
    if g < 0:
        raise InvalidArgument(f"gamma={g} must be >= 0")
    return g


def _probability_one(predictor: Predictor, data: Dataset, x: Hashable,
                     cache: dict[tuple[Dataset, Hashable], Fraction]) -> Fraction:
    key = (data, x)
    p = cache.get(key)
    if p is None:
        value = predictor.probability_one(data, x)
        if not isinstance(value, Fraction):
            raise InvalidArgument(f"predictor {predictor.name!r} has an irrational law at "
                                  f"x={x!r}; use exact (rational) parameters")
        p = cache[key] = value
    return p


def population_loss(instance: HardInstance, h: Target, predictor: Predictor, data: Dataset
                    ) -> Fraction:
    """L_{P_h}(A, S) = Σ_x D(x)·P[A(S, x) ≠ h(x)], exactly (002 D7; one query per x)."""
    h = _check_target(instance, h)
    cache: dict[tuple[Dataset, Hashable], Fraction] = {}
    return _loss(instance, h, predictor, data, cache)


def _loss(instance: HardInstance, h: Target, predictor: Predictor, data: Dataset,
          cache: dict[tuple[Dataset, Hashable], Fraction]) -> Fraction:
    total = Fraction(0)
    for x, y, w in zip(instance.points, h, instance.weights, strict=True):
        if w:
            p = _probability_one(predictor, data, x, cache)
            total += w * (1 - p if y == 1 else p)
    return total


def expected_loss(instance: HardInstance, predictor: Predictor, n: int, *,
                  limit: int = DEFAULT_SAMPLE_LIMIT) -> Fraction:
    """E_h E_{S~P_h^n} L_{P_h}(A, S) for h uniform on {0,1}^{X'}, exactly (002 §5).

    The left side of 002 Theorem 4's key inequality.  Laws come from the predictor's one
    program (:meth:`~privref.reference.prediction.Predictor.law`), each (S, x) computed once.
    Requires n ≥ 1 and a predictor whose laws on these datasets are rational
    (InvalidArgument otherwise); TooLargeToEnumerate beyond ``limit`` datasets per target.
    """
    n = _check_size(instance, n, limit)
    cache: dict[tuple[Dataset, Hashable], Fraction] = {}
    hs = targets(instance)
    total = Fraction(0)
    for h in hs:
        for data, p in _law(instance, h, n):
            total += p * _loss(instance, h, predictor, data, cache)
    return total / len(hs)
