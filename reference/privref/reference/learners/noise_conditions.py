"""Finite learning problems with exact noise quantities (001 Definition 8, Lemma 9, Eq. (4)).

A :class:`NoisyProblem` is a distribution of (x, y) on a finite domain given by rational
weights p(x) and rational r(x) = P(y = 1 | x).  Everything here is an exact Fraction:

* Err(h), Dis(h, g), h_Bayes, h* over a finite class (001 §2 notation);
* the minimal constant C of the corrected Tsybakov condition P(|r(x) − 1/2| <= t) <= C·t^κ,
  κ = τ/(1 − τ) (001 Definition 8, read with r − 1/2), and of the printed reading
  P(|r(x)| <= t) <= C·t^κ, both returned as the rational C^{q−p} for τ = p/q;
* the minimal η of 001 Lemma 9's (2), Dis(h, h_Bayes) <= η (Err(h) − Err(h_Bayes))^τ over all
  labelings h, returned as the rational η^q;
* the Massart margin t0 = min |r(x) − 1/2| (τ = 1);
* the exact law of a deterministic ERM teacher trained on n i.i.d. samples (by enumerating
  the multisets of n labelled points), hence E[ĥ(x)], the expected margin Δ_n(x) =
  |E[ĥ(x)] − 1/2| of 001 Eq. (4), and the infinite-ensemble classifier h^agg_inf;
* Vote_K(H), the majority votes (ties to 1) of K members of H (001 Theorem 20).

Raising to the integer powers q − p and q keeps every comparison with t^κ or e^τ rational.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from privref.reference.concepts import Concept, ConceptClass, Domain, as_domain, explicit
from privref.reference.errors import InvalidArgument

__all__ = [
    "NoisyProblem",
    "bayes_mask",
    "best_in_class",
    "disagreement",
    "erm_teacher_law",
    "error",
    "excess_risk",
    "expected_disagreement",
    "expected_margin",
    "expected_vote",
    "high_margin_nu",
    "infinite_ensemble",
    "lemma9_eta_power",
    "massart_margin",
    "printed_tsybakov_constant_power",
    "tsybakov_constant_power",
    "vote_class",
]

F = Fraction
_HALF = F(1, 2)


@dataclass(frozen=True, slots=True)
class NoisyProblem:
    """A distribution of (x, y) on a finite domain: weights p(x) and r(x) = P(y = 1 | x).

    Guarantee: one weight and one r per domain point, weights >= 0 summing to exactly 1,
    every r in [0, 1] (InvalidArgument naming the argument otherwise).  (001 §2: Err, Dis,
    h_Bayes and r(x) = E[y | x] of Definition 8 are taken with respect to it.)
    """

    domain: Domain
    weights: tuple[Fraction, ...]
    posterior: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        n = len(self.domain)
        if len(self.weights) != n or len(self.posterior) != n:
            raise InvalidArgument(f"weights and posterior must have {n} entries, one per point")
        if any(not isinstance(w, Fraction) or w < 0 for w in self.weights) or sum(
                self.weights, F(0)) != 1:
            raise InvalidArgument(f"weights={self.weights!r} must be Fractions >= 0 summing to 1")
        if any(not isinstance(r, Fraction) or not 0 <= r <= 1 for r in self.posterior):
            raise InvalidArgument(f"posterior={self.posterior!r} must be Fractions in [0, 1]")

    @staticmethod
    def of(points: Iterable[Hashable], weights: Iterable[Fraction | int],
           posterior: Iterable[Fraction | int]) -> NoisyProblem:
        """Build from plain sequences (ints become Fractions); validated as in the class."""
        return NoisyProblem(as_domain(tuple(points)), tuple(F(w) for w in weights),
                            tuple(F(r) for r in posterior))

    @property
    def size(self) -> int:
        """Number of domain points."""
        return len(self.domain)

    def support(self) -> tuple[int, ...]:
        """Indices of the points of positive weight."""
        return tuple(i for i, w in enumerate(self.weights) if w > 0)


def _bit(mask: int, i: int) -> int:
    return (mask >> i) & 1


def error(problem: NoisyProblem, mask: int) -> Fraction:
    """Err(h) = P(h(x) != y) for the labeling with bit i = h(point i) (001 §2 notation), exact."""
    return sum((w * (1 - r if _bit(mask, i) else r)
                for i, (w, r) in enumerate(zip(problem.weights, problem.posterior, strict=True))),
               F(0))


def disagreement(problem: NoisyProblem, a: int, b: int) -> Fraction:
    """Dis(a, b) = P_x(a(x) != b(x)) for two labelings given as bitmasks (001 §2), exact."""
    return sum((w for i, w in enumerate(problem.weights) if _bit(a ^ b, i)), F(0))


def bayes_mask(problem: NoisyProblem) -> int:
    """h_Bayes(x) = 1(r(x) > 1/2) as a bitmask (001 Lemma 9)."""
    return sum(1 << i for i, r in enumerate(problem.posterior) if r > _HALF)


def excess_risk(problem: NoisyProblem, mask: int) -> Fraction:
    """Err(h) − Err(h_Bayes) = E[|2r(x) − 1|·1(h(x) != h_Bayes(x))] (001 Lemma 9), exact."""
    return error(problem, mask) - error(problem, bayes_mask(problem))


def best_in_class(problem: NoisyProblem, C: ConceptClass) -> Concept:
    """h* = argmin_{h ∈ C} Err(h), the first minimizer in C's canonical order (001 §2)."""
    _same_domain(problem, C)
    errs = [error(problem, m) for m in C.masks]
    return C.concepts[errs.index(min(errs))]


def _same_domain(problem: NoisyProblem, C: ConceptClass) -> None:
    if C.domain != problem.domain:
        raise InvalidArgument(f"C={C!r} must be over the problem's domain")


def _tau_parts(tau: Fraction, *, allow_one: bool) -> tuple[int, int]:
    if not isinstance(tau, Fraction) or not (0 < tau < 1 or (allow_one and tau == 1)):
        raise InvalidArgument(f"tau={tau!r} must be a Fraction in (0, 1{']' if allow_one else ')'}")
    return tau.numerator, tau.denominator


def _constant_power(problem: NoisyProblem, tau: Fraction, gaps: tuple[Fraction, ...]
                    ) -> Fraction | None:
    p, q = _tau_parts(tau, allow_one=False)
    support = problem.support()
    if any(gaps[i] == 0 for i in support):
        return None
    best = F(0)
    for i in support:
        mass = sum((problem.weights[j] for j in support if gaps[j] <= gaps[i]), F(0))
        best = max(best, mass ** (q - p) / gaps[i] ** p)
    return best


def tsybakov_constant_power(problem: NoisyProblem, tau: Fraction) -> Fraction | None:
    """C^{q−p} for the least C with P(|r(x) − 1/2| <= t) <= C·t^{τ/(1−τ)} for all t >= 0, τ = p/q.

    This is 001 Definition 8 read with |r(x) − 1/2| (the printed |r(x)| is a typo).  The
    supremum of P(|r − 1/2| <= t)/t^κ is attained at a value t = |r(x_i) − 1/2| of the support,
    and (P/t^κ)^{q−p} = P^{q−p}/t^p because κ(q − p) = p.  None when a point of positive
    weight has r = 1/2 (no finite C).  Requires τ ∈ (0, 1).
    """
    return _constant_power(problem, tau, tuple(abs(r - _HALF) for r in problem.posterior))


def printed_tsybakov_constant_power(problem: NoisyProblem, tau: Fraction) -> Fraction | None:
    """C^{q−p} for the least C with P(|r(x)| <= t) <= C·t^{τ/(1−τ)}: 001 Definition 8 as printed.

    None when a point of positive weight has r = 0 (no finite C).  Requires τ ∈ (0, 1).
    """
    return _constant_power(problem, tau, problem.posterior)


def lemma9_eta_power(problem: NoisyProblem, tau: Fraction) -> Fraction | None:
    """η^q for the least η with Dis(h, h_Bayes) <= η (Err(h) − Err(h_Bayes))^τ for all h, τ = p/q.

    001 Lemma 9's (2) over every labeling h of the domain: h differs from h_Bayes on a set S,
    Dis = p(S) and the excess is e(S) = Σ_S p(x)|2r(x) − 1|, so η^q = max_S p(S)^q / e(S)^p.
    None when some S of positive mass has e(S) = 0.  Requires τ ∈ (0, 1]; exponential in the
    support size (at most 16 points).
    """
    p, q = _tau_parts(tau, allow_one=True)
    support = problem.support()
    if len(support) > 16:
        raise InvalidArgument(f"problem has {len(support)} support points; at most 16")
    best = F(0)
    for size in range(1, len(support) + 1):
        for S in itertools.combinations(support, size):
            mass = sum((problem.weights[i] for i in S), F(0))
            gain = sum((problem.weights[i] * abs(2 * problem.posterior[i] - 1) for i in S), F(0))
            if gain == 0:
                return None
            best = max(best, mass ** q / gain ** p)
    return best


def massart_margin(problem: NoisyProblem) -> Fraction:
    """t0 = min over the support of |r(x) − 1/2|: the Massart (τ = 1) margin of 001 Definition 8.

    At τ = 1 the exponent τ/(1 − τ) is +∞ and Definition 8 is read as |r(x) − 1/2| >= t0 > 0
    almost surely (bounded noise); then Lemma 9's (2) holds with η = 1/(2·t0).
    """
    return min(abs(problem.posterior[i] - _HALF) for i in problem.support())


# ------------------------------------------------------------------ ERM teachers, Eq. (4)


@cache
def _teacher_law(problem: NoisyProblem, C: ConceptClass, n: int) -> tuple[tuple[int, Fraction], ...]:
    cells = [(i, y, problem.weights[i] * (problem.posterior[i] if y else 1 - problem.posterior[i]))
             for i in range(problem.size) for y in (0, 1)]
    cells = [c for c in cells if c[2] > 0]
    law: dict[int, Fraction] = {}
    for combo in itertools.combinations_with_replacement(range(len(cells)), n):
        counts: dict[int, int] = {}
        for c in combo:
            counts[c] = counts.get(c, 0) + 1
        prob = F(math.factorial(n))
        for c, k in counts.items():
            prob *= cells[c][2] ** k / math.factorial(k)
        best_mask, best_err = C.masks[0], -1
        for mask in C.masks:
            mistakes = sum(k for c, k in counts.items() if _bit(mask, cells[c][0]) != cells[c][1])
            if best_err < 0 or mistakes < best_err:
                best_mask, best_err = mask, mistakes
        law[best_mask] = law.get(best_mask, F(0)) + prob
    return tuple(sorted(law.items()))


def erm_teacher_law(problem: NoisyProblem, C: ConceptClass, n: int) -> dict[int, Fraction]:
    """Exact law (mask -> probability) of ERM over C on n i.i.d. samples of the problem.

    The teacher of 001 Algorithm 3 step 2 (and :func:`reference.learners.pate_teachers
    .erm_teachers`): the first concept in C's canonical order with the fewest mistakes.  All
    multisets of n labelled points are enumerated with their multinomial probabilities.
    Requires n >= 0 and C over the problem's domain.
    """
    _same_domain(problem, C)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise InvalidArgument(f"n={n!r} must be an int >= 0")
    return dict(_teacher_law(problem, C, n))


def expected_vote(problem: NoisyProblem, C: ConceptClass, n: int) -> tuple[Fraction, ...]:
    """E[ĥ_1(x)] per domain point for an ERM teacher on n samples (001 Eq. (4)), exact."""
    law = erm_teacher_law(problem, C, n)
    return tuple(sum((pr for m, pr in law.items() if _bit(m, i)), F(0))
                 for i in range(problem.size))


def expected_margin(problem: NoisyProblem, C: ConceptClass, n: int) -> tuple[Fraction, ...]:
    """Δ_n(x) = |E[ĥ_1(x) | x] − 1/2| per domain point (001 Eq. (4)), exact."""
    return tuple(abs(v - _HALF) for v in expected_vote(problem, C, n))


def infinite_ensemble(problem: NoisyProblem, C: ConceptClass, n: int) -> int:
    """h^agg_inf(x) = 1(E[ĥ_1(x)] >= 1/2) as a bitmask (001 §4.3, teachers on n samples)."""
    return sum(1 << i for i, v in enumerate(expected_vote(problem, C, n)) if v >= _HALF)


def expected_disagreement(problem: NoisyProblem, C: ConceptClass, n: int, target: int
                          ) -> Fraction:
    """E[Dis(ĥ_1, target)] over the n training samples of an ERM teacher (001 Lemma 13), exact."""
    return sum((pr * disagreement(problem, m, target)
                for m, pr in erm_teacher_law(problem, C, n).items()), F(0))


def high_margin_nu(problem: NoisyProblem, C: ConceptClass, n: int, xi: Fraction) -> Fraction:
    """ν = P_x(Δ_n(x) <= ξ): the least ν of the (ν, ξ)-approximate high-margin condition.

    001 Definition 17 with its inequality read the right way round, P[Δ_n(x) <= ξ] <= ν.
    """
    return sum((w for w, d in zip(problem.weights, expected_margin(problem, C, n), strict=True)
                if d <= xi), F(0))


def vote_class(C: ConceptClass, K: int) -> ConceptClass:
    """Vote_K(C): every majority vote 1(Σ_k h_k(x) >= K/2) of K members of C (001 Theorem 20).

    Ties (even K) go to 1, as in the paper's ĥ^agg.  Members may repeat (multisets).
    """
    if isinstance(K, bool) or not isinstance(K, int) or K < 1:
        raise InvalidArgument(f"K={K!r} must be an int >= 1")
    n = len(C.domain)
    masks: dict[int, None] = {}
    for combo in itertools.combinations_with_replacement(C.masks, K):
        masks[sum(1 << i for i in range(n) if 2 * sum(_bit(m, i) for m in combo) >= K)] = None
    labels = [tuple(_bit(m, i) for i in range(n)) for m in masks]
    return explicit(C.domain, labels, name=f"Vote_{K}({C.name})")
