"""Poisson subsampling as an exact program, its amplification claim, and a tight add/remove test bed.

* :func:`poisson_subsample`: keep every entry independently with probability q (order kept) and
  run the inner mechanism on the kept entries.  If the inner mechanism is (ε, δ)-DP under
  add/remove of one entry, the result is (ln(1 + q(e^ε − 1)), q·δ)-DP under add/remove (Li,
  Qardaji & Su 2012; Balle, Barthe & Gaboardi 2018 for the (ε, δ) form):
  :func:`poisson_subsampling_claim`.
* :func:`membership_response`: randomized response (Warner 1965) on the bit "the dataset holds
  ``element``", ln(p/(1 − p))-DP under add/remove: adding or removing one entry changes the bit
  at most once.  Subsampled, it attains the amplified ε exactly (the ledger checks this).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TypeVar

from .citations import cite
from .data import Dataset
from .errors import InvalidArgument
from .mechanism import Mechanism
from .neighbors import AddRemove
from .privacy import PrivacyClaim
from .program import Program, bernoulli, call
from .randomized_response import flip_bit, rr_epsilon
from .reals import Real, exp, log
from .validate import ExactInput, check_probability, to_fraction

__all__ = ["amplified_epsilon", "membership_response", "poisson_subsample",
           "poisson_subsampling_claim"]

T = TypeVar("T")


def _rate(rate: object) -> Fraction:
    return check_probability(to_fraction(rate, "rate"), "rate", open_low=True)


def amplified_epsilon(epsilon: Real, rate: Fraction) -> Real:
    """ln(1 + q(e^ε − 1)), exact (rational inside the log when e^ε is): the ε of an ε-DP
    mechanism run on a q-subsample (Li, Qardaji & Su 2012; Balle, Barthe & Gaboardi 2018)."""
    return log((exp(epsilon) - 1) * rate + 1)


def poisson_subsampling_claim(inner: PrivacyClaim, rate: ExactInput) -> PrivacyClaim:
    """(ln(1 + q(e^ε − 1)), q·δ) for an (ε, δ) inner claim and 0 < q <= 1, under add/remove
    (Li, Qardaji & Su 2012, Theorem 1 for ε; Balle, Barthe & Gaboardi 2018 for δ)."""
    q = _rate(rate)
    return PrivacyClaim(amplified_epsilon(inner.epsilon, q), inner.delta * q)


def poisson_subsample(inner: Mechanism[T], rate: ExactInput, *,
                      claim: PrivacyClaim | None = None) -> Mechanism[T]:
    """Run ``inner`` on the entries kept by independent coins of probability q (in their order).

    ``inner`` must be stated for add/remove neighbours (AddRemove) and accept every sub-dataset
    (including the empty one).  ``claim`` defaults to :func:`poisson_subsampling_claim`; pass
    another to audit a different (e.g. wrong) claim.
    """
    q = _rate(rate)
    if not isinstance(inner, Mechanism):
        raise InvalidArgument(f"inner={inner!r} must be a Mechanism")
    if not isinstance(inner.relation, AddRemove):
        raise InvalidArgument(f"inner={inner.name!r} is stated under {inner.relation}; Poisson "
                              "amplification needs add/remove of one entry")
    stated = claim if claim is not None else poisson_subsampling_claim(inner.claim, q)

    def program(data: Dataset) -> Program[T]:
        kept = []
        for x in data:
            if (yield from bernoulli(q)):
                kept.append(x)
        return (yield from call(inner.program, tuple(kept)))

    return Mechanism(f"Poisson subsample q={q} -> {inner.name}", program, stated,
                     cite("folklore Li-Qardaji-Su 2012 Poisson amplification"), AddRemove(),
                     order_invariant=inner.order_invariant,
                     description=f"keep each entry with probability {q}")


def membership_response(keep: ExactInput, element: object = 1) -> Mechanism[int]:
    """Randomized response on the bit [``element`` occurs in the dataset], keep p in [1/2, 1).

    Guarantee: ln(p/(1 − p))-DP under add/remove of one entry (one entry moves the bit at most
    once; Warner 1965), attained on (), (element,).  Any dataset of hashable entries.
    """
    p = check_probability(to_fraction(keep, "keep"), "keep", open_high=True)
    if p < Fraction(1, 2):
        raise InvalidArgument(f"keep={p} must be >= 1/2")

    def program(data: Dataset) -> Program[int]:
        return (yield from flip_bit(int(element in data), p))

    return Mechanism("membership response", program, PrivacyClaim(rr_epsilon(p)),
                     cite("folklore Warner 1965"), AddRemove(), order_invariant=True,
                     description=f"randomized response (keep {p}) on [{element!r} in data]")
