"""Random-subset binary search: a transcript-private active learner for THRESH_d with few labels.

The counterexample to 004 Theorem C.12 / 000 Theorem 5.6 read with a fixed δ > 0
(ledger entries ``004 Theorem C.12`` and ``000 Theorem 5.6``).  On a pool of n
points of X_d = {0, …, 2^d − 1} the learner

1. draws a uniformly random set K of k indices out of {0, …, n − 1} (partial
   Fisher–Yates: k uniform draws without replacement);
2. sorts the entries of K by (point, index) and binary-searches that sorted list
   for the first entry labeled 0, querying labels by index (004/000 Definition
   5.1); it asks at most ⌈log₂(k + 1)⌉ = k.bit_length() labels;
3. outputs c_s (c_s(x) = 1 iff x < s) with s = 1 + the largest point found
   labeled 1 (s = 0 when there is none).

Guarantees (privacy for fully labeled neighbors under substitution, 004/000
Definitions 5.3 and 5.4):

* **(0, k/n)-transcript-private.**  Couple the two runs on the same draws.  The
  run reads the entries of K only (points and labels) and its control flow and
  output are functions of K and of those entries, so when the differing index i
  is not in K both runs produce the same (hypothesis, transcript).  Hence for
  every event F, Pr[M(S) ∈ F] <= Pr[M(S′) ∈ F] + Pr[i ∈ K] = Pr[M(S′) ∈ F] + k/n.
* **Accuracy.**  For every distribution μ on X_d and every target c_t, with the
  pool i.i.d. from μ, the entries of K are k i.i.d. draws from μ (a uniformly
  random k-subset of i.i.d. points).  On a sample labeled by c_t the search
  returns the largest sampled point x below t, so error_μ(c_s, c_t) = μ([s, t)).
  Let a be the largest point with μ([a, t)) >= α (if there is none, every
  output has error < α).  If some sampled point lies in [a, t) then s >= a + 1
  and the error is μ([a + 1, t)) < α.  So Pr[error > α] <= (1 − α)^k, and
  :func:`subset_size` picks the least k with (1 − α)^k <= β (k <= ⌈ln(1/β)/α⌉).

So with n >= k/δ it is an (α, β, 0, δ, n, ⌈log₂(k + 1)⌉)-TPAL for THRESH_d:
m = O(log(1/α) + log log(1/β)) labels, against the Ω(1/α) of the theorems,
whose proofs need nδ = O(1/α) (final inequality m >= e^{−2ε}(1 − 7β/3)/(9α) −
nδ(1 + e^{−ε})).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from ..citations import Uncited
from ..concepts import Concept, ConceptClass, thresholds
from ..errors import InvalidArgument
from ..privacy import PrivacyClaim
from ..program import Program, categorical, distribution, uniform
from ..reals import log
from ..validate import ExactInput, check_int, check_probability, to_fraction
from .active import ActiveLearner, Points, active_learner, query

__all__ = [
    "SUBSET_SEARCH_SOURCE",
    "exact_failure",
    "failure_upper_bound",
    "label_budget",
    "subset_search_learner",
    "subset_search_program",
    "subset_size",
]

SUBSET_SEARCH_SOURCE = Uncited(
    "counterexample learner to 004 Theorem C.12 / 000 Theorem 5.6 at fixed delta; its "
    "(0, k/n) claim is proved in reference.learners.subset_search and audited in the ledger")
"""The learner implements no paper result: it refutes one (ledger ``004 Theorem C.12``)."""


def label_budget(k: int) -> int:
    """⌈log₂(k + 1)⌉ (= k.bit_length()): the labels a binary search over k sorted entries asks."""
    return check_int(k, "k", minimum=1).bit_length()


def failure_upper_bound(alpha: ExactInput, k: int) -> Fraction:
    """(1 − α)^k: the learner's failure probability bound, for every μ and target (exact)."""
    a = check_probability(to_fraction(alpha, "alpha"), "alpha", open_low=True)
    return (1 - a) ** check_int(k, "k", minimum=1)


def subset_size(alpha: ExactInput, beta: ExactInput) -> int:
    """The least k >= 1 with (1 − α)^k <= β (k <= ⌈ln(1/β)/α⌉); needs 0 < α < 1, 0 < β < 1.

    k = ⌈ln β / ln(1 − α)⌉, the ceiling decided by interval enclosures, or by
    exact rational powers when an enclosure contains an integer <= 10^4 (raises
    InvalidArgument if neither decides at 4096 bits).
    """
    a = check_probability(to_fraction(alpha, "alpha"), "alpha", open_low=True, open_high=True)
    b = check_probability(to_fraction(beta, "beta"), "beta", open_low=True, open_high=True)
    ratio = log(b) / log(1 - a)
    for prec in (64, 256, 1024, 4096):
        box = ratio.enclose(prec)
        low, high = max(1, math.ceil(box.lo)), max(1, math.ceil(box.hi))
        if low == high:
            return low
        if high <= 10_000:  # an integer inside the enclosure: decide exactly
            return next(k for k in range(low, high + 1) if (1 - a) ** k <= b)
    raise InvalidArgument(f"alpha={a}, beta={b}: ln β/ln(1 − α) too close to an integer")


def subset_search_program(concepts: ConceptClass, k: int) -> Callable[[Points], Program[Concept]]:
    """The learner's program on the pool's points (ints of THRESH's domain); see the module doc."""
    k = check_int(k, "k", minimum=1)
    size = len(concepts.domain)

    def program(points: Points) -> Program[Concept]:
        n = len(points)
        if k > n:
            raise InvalidArgument(f"k={k} must be <= the pool size n={n}")
        pool = list(range(n))
        for j in range(k):  # partial Fisher–Yates: pool[:k] is a uniform k-subset (ordered)
            r = j + (yield from uniform(n - j))
            pool[j], pool[r] = pool[r], pool[j]
        chosen = sorted(pool[:k], key=lambda i: (points[i], i))
        lo, hi = 0, k  # labels read: 1 on chosen[:lo], 0 on chosen[hi:]
        while lo < hi:
            mid = (lo + hi) // 2
            if (yield from query(chosen[mid])) == 1:
                lo = mid + 1
            else:
                hi = mid
        if lo == 0:
            return concepts[0]
        top = points[chosen[lo - 1]]
        if not isinstance(top, int) or not 0 <= top < size:
            raise InvalidArgument(f"point {top!r} is not in X_d = (0, …, {size - 1})")
        return concepts[top + 1]

    return program


def subset_search_learner(d: int, n: int, k: int) -> ActiveLearner[Concept]:
    """The (0, k/n)-TPAL for THRESH_d on a pool of n with k.bit_length() label queries."""
    d = check_int(d, "d", minimum=0, maximum=16)
    n = check_int(n, "n", minimum=1)
    k = check_int(k, "k", minimum=1, maximum=n)
    concepts = thresholds(d)
    if k == n:
        raise InvalidArgument(f"k={k} must be < n={n} (δ = k/n must be < 1)")
    claim = PrivacyClaim.of(0, Fraction(k, n))
    return active_learner(f"subset search d={d} n={n} k={k}", subset_search_program(concepts, k),
                          n=n, m=label_budget(k), concepts=concepts, proper=True,
                          pal_claim=claim, tpal_claim=claim, source=SUBSET_SEARCH_SOURCE)


def exact_failure(learner: ActiveLearner[Concept], alpha: ExactInput, target: int,
                  mu: tuple[Fraction, ...]) -> Fraction:
    """Exact Pr[error_μ(h, c_target) > α]: pool i.i.d. from μ, labeled by c_target, learner's coins.

    ``mu`` gives the weight of each point of the learner's domain (exact, summing to 1).
    Enumerates |supp μ|^n · n!/(n − k)! paths: tiny sizes only.
    """
    a = check_probability(to_fraction(alpha, "alpha"), "alpha", open_low=True)
    points = learner.concepts.domain.points
    if len(mu) != len(points) or any(w < 0 for w in mu) or sum(mu) != 1:
        raise InvalidArgument(f"mu={mu!r} must be {len(points)} non-negative weights summing to 1")
    target = check_int(target, "target", minimum=0, maximum=len(points))
    c = learner.concepts[target]

    def experiment() -> Program[bool]:
        pool = []
        for _ in range(learner.n):
            pool.append(points[(yield from categorical(mu))])
        h, _ = yield from learner.run(tuple((x, c(x)) for x in pool))
        error = sum((w for x, w in zip(points, mu, strict=True) if h(x) != c(x)), Fraction(0))
        return error > a

    law = distribution(experiment)
    bad = law.prob(True)
    if not isinstance(bad, Fraction):
        raise InvalidArgument("the failure probability is not exact")
    return bad
