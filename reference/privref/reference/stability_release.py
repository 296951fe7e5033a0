"""Distance to instability (001 Algorithm 7, Thakurta and Smith 2013) on a majority vote.

The function released is the majority of K teacher votes with ties going to 1
(001's ĥ^agg: 1 when 2·votes >= K), and its distance to instability is the one of
001 Algorithm 2 step 6: dist = max{0, ⌈Δ/2⌉ - 1} with the margin Δ = |2·votes - K|.
Changing at most dist votes never changes the majority, and dist has sensitivity 1 in the
vote count (both checked exhaustively by the tests, with :func:`stability_radius` as the
brute-force reference).

Algorithm 7: dist^ = dist + noise; output f(D) when dist^ > Γ, else ⊥.  Continuous (the
paper's): noise Lap(1/ε), Γ = ln(1/δ)/ε, claimed (ε, δ)-DP (001 Lemma 48).  Discrete variant
(ours): noise discrete Laplace with scale 1/ε (CKS20; ε rational), and since dist + Z is an
integer, dist + Z > Γ exactly when dist + Z > ⌊Γ⌋.  Its accounting: dist moves by at most 1
between neighbors, so every output's probability moves by at most e^{ε} (the discrete
Laplace ratio bound); when f(D) != f(D') both distances are 0 and the leak is
P(Z > ⌊Γ⌋) = e^{-ε(⌊Γ⌋+1)}/(1 + e^{-ε}) < δ/(1 + e^{-ε}) <= δ, so (ε, δ)-DP holds as claimed.
"""

from __future__ import annotations

import math

from .citations import cite
from .data import Dataset
from .discrete_noise import DiscreteLaplace, exceeds
from .errors import InvalidArgument
from .mechanism import Mechanism
from .privacy import PrivacyClaim
from .program import Program
from .reals import Order, Real, compare, log, rational
from .validate import ExactInput, check_delta, check_int, check_positive, to_fraction

__all__ = [
    "BOTTOM",
    "distance_to_instability",
    "instability_distance",
    "majority",
    "stability_radius",
    "threshold_floor",
]

BOTTOM = "⊥"
"""Output of 001 Algorithm 7 when the noisy distance does not clear the threshold."""


def _check_votes(votes: int, k: int) -> None:
    check_int(k, "k", minimum=1)
    check_int(votes, "votes", minimum=0, maximum=k)


def majority(votes: int, k: int) -> int:
    """1 when 2·votes >= k, else 0: 001's aggregated classifier ĥ^agg, ties to 1."""
    _check_votes(votes, k)
    return 1 if 2 * votes >= k else 0


def instability_distance(votes: int, k: int) -> int:
    """max{0, ⌈Δ/2⌉ - 1} with Δ = |2·votes - k| (001 Algorithm 2 step 6).

    Guarantee (tested exhaustively): every vote count within this distance has the same
    :func:`majority`, and the distance changes by at most 1 when votes changes by 1.
    """
    _check_votes(votes, k)
    margin = abs(2 * votes - k)
    return max(0, -(-margin // 2) - 1)


def stability_radius(votes: int, k: int) -> int:
    """The largest r such that every count in [votes - r, votes + r] ∩ [0, k] has the same majority.

    Brute force, the reference the tests compare :func:`instability_distance` against.
    """
    _check_votes(votes, k)
    m = majority(votes, k)
    r = 0
    while r < k and all(majority(v, k) == m
                        for v in range(max(0, votes - r - 1), min(k, votes + r + 1) + 1)):
        r += 1
    return r


def threshold_floor(gamma: Real) -> int:
    """⌊Γ⌋ decided by exact comparison (so that an integer x satisfies x > Γ iff x > ⌊Γ⌋)."""
    box = gamma.enclose(128)
    guess = math.floor(box.lo)
    while True:
        up, _ = compare(gamma, guess + 1)
        if up in (Order.GREATER, Order.EQUAL):
            guess += 1
            continue
        low, _ = compare(gamma, guess)
        if low in (Order.GREATER, Order.EQUAL):
            return guess
        if low is Order.UNDECIDED or up is Order.UNDECIDED:
            raise InvalidArgument(f"cannot decide the floor of {gamma}")
        guess -= 1


def distance_to_instability(epsilon: ExactInput, delta: ExactInput) -> Mechanism[int | str]:
    """001 Algorithm 7 with f = majority of 0/1 votes (one per entry) over discrete Laplace noise.

    Output: the majority when dist + Z > ⌊ln(1/δ)/ε⌋, Z ~ DLap(1/ε), else ⊥.  Claim (ε, δ)
    (001 Lemma 48; the discrete accounting is in the module docstring).  ε must be a
    positive rational, δ in (0, 1); InvalidArgument names them.
    """
    eps = check_positive(to_fraction(epsilon, "epsilon"), "epsilon")
    d = check_delta(delta)
    if d == 0:
        raise InvalidArgument(f"delta={d} must be > 0 (it lies in the open interval (0, 1))")
    gamma = threshold_floor(log(1 / d) / eps)
    noise = DiscreteLaplace(1 / eps)

    def program(data: Dataset) -> Program[int | str]:
        votes = 0
        for i, x in enumerate(data):
            if isinstance(x, bool) or x not in (0, 1):
                raise InvalidArgument(f"data[{i}]={x!r} must be a vote 0 or 1")
            votes += x
        k = len(data)
        if k == 0:
            raise InvalidArgument("data=() must hold at least one vote")
        passed = yield from exceeds(noise, instability_distance(votes, k), gamma)
        return majority(votes, k) if passed else BOTTOM

    return Mechanism("distance to instability (majority)", program,
                     PrivacyClaim(rational(eps), d),
                     cite("001 Lemma 48"),
                     order_invariant=True,
                     description=f"001 Algorithm 7 over discrete Laplace scale {1 / eps}, "
                                 f"threshold floor(ln(1/delta)/epsilon)={gamma}")
