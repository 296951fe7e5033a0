"""Privacy amplification by subsampling without replacement (004 Claim C.1 / 000 Claim 4.3).

Given 𝒜, (epsilon*, delta)-DP on databases of size n, and t = (n/epsilon)(3 + e^{epsilon*})
with epsilon <= 1: on a database of t entries, pick J ⊆ [t] with |J| = n uniformly
and run 𝒜 on D_J.  Claim: (epsilon, 4·epsilon/(3 + e^{epsilon*})·delta)-DP.
If 𝒜 is order-sensitive, D_J is shuffled first (004 Remark C.2 / 000 Remark 4.4);
without the shuffle, entries keep their original order.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TypeVar

from .citations import cite
from .data import Dataset
from .errors import InvalidArgument
from .mechanism import Mechanism
from .privacy import PrivacyClaim
from .program import Program, call, uniform
from .reals import Order, compare, exp
from .validate import check_int

__all__ = ["subsample", "subsampling_claim", "unrank_combination"]

T = TypeVar("T")


def unrank_combination(rank: int, t: int, n: int) -> tuple[int, ...]:
    """The ``rank``-th n-subset of range(t) in lexicographic order (0 <= rank < C(t, n))."""
    out: list[int] = []
    start = 0
    for k in range(n, 0, -1):
        for i in range(start, t):
            block = math.comb(t - i - 1, k - 1)
            if rank < block:
                out.append(i)
                start = i + 1
                break
            rank -= block
    return tuple(out)


def subsampling_claim(inner: PrivacyClaim, n: int, t: int) -> PrivacyClaim:
    """004 Claim C.1: epsilon = n(3 + e^{epsilon*})/t, delta' = 4·epsilon/(3 + e^{epsilon*})·delta.

    Requires epsilon <= 1 (the claim's hypothesis); raises InvalidArgument naming
    t otherwise.  delta' is exact when e^{epsilon*} is rational, else rounded up.
    """
    denom = exp(inner.epsilon) + 3
    eps = denom * Fraction(n, t)
    order, _ = compare(eps, 1)
    if order in (Order.GREATER, Order.UNDECIDED):
        raise InvalidArgument(
            f"t={t} must be >= n·(3 + e^eps*) = {float(denom * n):.6g} so that epsilon <= 1 "
            "(004 Claim C.1)")
    factor = eps / denom * 4
    exact = factor.exact
    delta = inner.delta * (exact if exact is not None else factor.enclose().hi)
    return PrivacyClaim(eps, delta)


def subsample(inner: Mechanism[T], n: int, t: int, *, shuffle: bool | None = None,
              claim: PrivacyClaim | None = None) -> Mechanism[T]:
    """004 Claim C.1 / 000 Claim 4.3: run ``inner`` on a uniformly random n-subset of t entries.

    ``shuffle`` defaults to ``not inner.order_invariant`` (004 Remark C.2).
    ``claim`` defaults to :func:`subsampling_claim`; pass another to audit a
    different (e.g. wrong) claim.
    """
    check_int(n, "n", minimum=1)
    check_int(t, "t", minimum=n)
    do_shuffle = (not inner.order_invariant) if shuffle is None else shuffle
    stated = claim if claim is not None else subsampling_claim(inner.claim, n, t)

    def program(data: Dataset) -> Program[T]:
        if len(data) != t:
            raise InvalidArgument(f"data has {len(data)} entries; this subsampler needs t={t}")
        rank = yield from uniform(math.comb(t, n))
        picked = [data[i] for i in unrank_combination(rank, t, n)]
        if do_shuffle:
            order: list[object] = []
            pool = picked
            while pool:
                j = yield from uniform(len(pool))
                order.append(pool.pop(j))
            picked = order
        return (yield from call(inner.program, tuple(picked)))

    return Mechanism(f"subsample {n} of {t} -> {inner.name}", program, stated,
                     cite("004 Claim C.1"), inner.relation, order_invariant=do_shuffle or
                     inner.order_invariant,
                     description=f"subsampling without replacement, shuffle={do_shuffle}")
