"""i.i.d. resampling: Algorithm 𝓑 of 004 (Algorithm 5; 000 Claim 4.5 describes it in words).

On a database D of n entries, draw V = (v_1..v_n) i.i.d. uniform on [n] and run
𝒜 on D_V = (x_{v_1}, ..., x_{v_n}).  Claim (004 Claim C.3 / 000 Claim 4.5): if
𝒜 is (epsilon, delta)-DP with epsilon <= 1, then 𝓑 is (ln 244, 2467·delta)-DP.
(The 004 proof derives 2476; see the ledger for the repaired chain.)
"""

from __future__ import annotations

from fractions import Fraction
from typing import TypeVar

from .citations import cite
from .data import Dataset, nonempty_dataset
from .errors import InvalidArgument
from .mechanism import Mechanism
from .privacy import PrivacyClaim
from .program import Program, call, uniform
from .reals import Order, compare, log

__all__ = ["RESAMPLING_DELTA_FACTOR", "RESAMPLING_RATIO", "resample_iid", "resampling_claim"]

T = TypeVar("T")

RESAMPLING_RATIO = Fraction(244)
"""e^epsilon of 004 Claim C.3 / 000 Claim 4.5."""

RESAMPLING_DELTA_FACTOR = Fraction(2467)
"""The delta multiplier stated in 004 Claim C.3 / 000 Claim 4.5."""


def resampling_claim(inner: PrivacyClaim) -> PrivacyClaim:
    """(ln 244, 2467·delta) from an (epsilon, delta) inner claim with epsilon <= 1 (004 Claim C.3)."""
    order, _ = compare(inner.epsilon, 1)
    if order in (Order.GREATER, Order.UNDECIDED):
        raise InvalidArgument(f"inner epsilon={inner.epsilon} must be <= 1 (004 Claim C.3)")
    delta = inner.delta * RESAMPLING_DELTA_FACTOR
    if delta >= 1:
        raise InvalidArgument(f"2467·delta={delta} must be < 1 for a meaningful claim")
    return PrivacyClaim(log(RESAMPLING_RATIO), delta)


def resample_iid(inner: Mechanism[T], *, claim: PrivacyClaim | None = None) -> Mechanism[T]:
    """004 Algorithm 5 (𝓑): run ``inner`` on n i.i.d. uniform draws from the n input entries."""
    stated = claim if claim is not None else resampling_claim(inner.claim)

    def program(data: Dataset) -> Program[T]:
        data = nonempty_dataset(data)
        n = len(data)
        picked = []
        for _ in range(n):
            v = yield from uniform(n)
            picked.append(data[v])
        return (yield from call(inner.program, tuple(picked)))

    return Mechanism(f"iid resample -> {inner.name}", program, stated, cite("004 Claim C.3"),
                     inner.relation, order_invariant=True,
                     description="n i.i.d. uniform draws from the input, then the inner mechanism")
