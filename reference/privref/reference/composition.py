"""Sequential composition and the delta-leak device.

* :func:`compose`: run mechanisms on the same data with independent coins and
  release all outputs; (Σ epsilon_i, Σ delta_i)-DP (basic composition; folklore).
* :func:`leak`: with probability delta release the data itself, else run the
  inner mechanism.  It is (epsilon, delta)-DP and tight in delta, which makes it
  the standard stress test for the delta terms of the papers' claims.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

from .citations import cite
from .data import Dataset
from .errors import InvalidArgument
from .mechanism import Mechanism
from .privacy import PrivacyClaim, compose_claims
from .program import Program, bernoulli, call
from .validate import ExactInput, check_delta

__all__ = ["compose", "leak"]

T = TypeVar("T", bound=Hashable)


def compose(*mechanisms: Mechanism[Any], name: str | None = None) -> Mechanism[tuple[Any, ...]]:
    """Release (M_1(D), ..., M_k(D)) with independent coins; claim (Σ epsilon_i, Σ delta_i)."""
    if not mechanisms:
        raise InvalidArgument("mechanisms=() must hold at least one mechanism")
    relation = mechanisms[0].relation
    for m in mechanisms[1:]:
        if m.relation != relation:
            raise InvalidArgument(f"mechanism {m.name!r} uses relation {m.relation}, "
                                  f"not {relation}; composition needs one relation")

    def program(data: Dataset) -> Program[tuple[Any, ...]]:
        outs: list[Any] = []
        for m in mechanisms:
            outs.append((yield from call(m.program, data)))
        return tuple(outs)

    return Mechanism(name or " + ".join(m.name for m in mechanisms), program,
                     compose_claims(*(m.claim for m in mechanisms)),
                     cite("folklore Basic composition"), relation,
                     order_invariant=all(m.order_invariant for m in mechanisms))


def leak(inner: Mechanism[T], delta: ExactInput) -> Mechanism[T | tuple[str, Dataset]]:
    """With probability delta output ("leak", data), else inner(data): (epsilon, delta + delta_inner)-DP."""
    d = check_delta(delta)
    if d == 0:
        raise InvalidArgument("delta=0 must be > 0 for a leak")
    claim = PrivacyClaim(inner.claim.epsilon, inner.claim.delta + d)
    check_delta(claim.delta, "delta + inner delta")

    def program(data: Dataset) -> Program[T | tuple[str, Dataset]]:
        if (yield from bernoulli(d)):
            return ("leak", data)
        return (yield from call(inner.program, data))

    return Mechanism(f"leak({d}) -> {inner.name}", program, claim,
                     cite("folklore Delta leak"), inner.relation, order_invariant=False,
                     description=f"release the data with probability {d}")


