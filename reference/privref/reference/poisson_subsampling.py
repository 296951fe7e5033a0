"""Poisson subsampling as an exact program, its amplification claim, and a tight add/remove test bed.

* :func:`poisson_subsample`: keep every entry independently with probability q (order kept) and
  run the inner mechanism on the kept entries.  If the inner mechanism is (ε, δ)-DP under
  add/remove of one entry, the result is (ln(1 + q(e^ε − 1)), q·δ)-DP under add/remove (Li,
  Qardaji & Su 2012; Balle, Barthe & Gaboardi 2018 for the (ε, δ) form); the same holds under
  substitution of one entry (the changed entry is kept with probability q, and then the two
  subsamples are substitution neighbours; otherwise they are equal):
  :func:`amplified_claim`, which is also the claim of sampling m of n without replacement
  (q = m/n) under substitution (Balle, Barthe & Gaboardi 2018).
* :func:`membership_response`: randomized response (Warner 1965) on the bit "the dataset holds
  ``element``", ln(p/(1 − p))-DP under add/remove and under substitution: one entry added,
  removed or replaced changes the bit at most once.  Subsampled, it attains the amplified ε
  exactly (the ledger checks this).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final, TypeVar

from .citations import cite
from .data import Dataset
from .errors import InvalidArgument
from .mechanism import Mechanism
from .neighbors import AddRemove, Substitution
from .privacy import PrivacyClaim
from .program import Program, bernoulli, call
from .randomized_response import flip_bit, rr_epsilon
from .reals import Real, exp, log
from .validate import ExactInput, check_probability, to_fraction

__all__ = ["amplified_claim", "amplified_epsilon", "membership_response", "poisson_subsample"]

T = TypeVar("T")

_ADD_REMOVE: Final = AddRemove()


def _rate(rate: object) -> Fraction:
    return check_probability(to_fraction(rate, "rate"), "rate", open_low=True)


def amplified_epsilon(epsilon: Real, rate: Fraction) -> Real:
    """ln(1 + q(e^ε − 1)), exact (rational inside the log when e^ε is): the ε of an ε-DP
    mechanism run on a q-subsample (Li, Qardaji & Su 2012; Balle, Barthe & Gaboardi 2018)."""
    return log((exp(epsilon) - 1) * rate + 1)


def amplified_claim(inner: PrivacyClaim, rate: ExactInput) -> PrivacyClaim:
    """(ln(1 + q(e^ε − 1)), q·δ) for an (ε, δ) inner claim and 0 < q <= 1: the amplified claim of
    Poisson subsampling at rate q under add/remove (Li, Qardaji & Su 2012, Theorem 1 for ε; Balle,
    Barthe & Gaboardi 2018 for δ) and of sampling m of n without replacement, q = m/n, under
    substitution (Balle, Barthe & Gaboardi 2018)."""
    q = _rate(rate)
    return PrivacyClaim(amplified_epsilon(inner.epsilon, q), inner.delta * q)


def poisson_subsample(inner: Mechanism[T], rate: ExactInput, *,
                      claim: PrivacyClaim | None = None) -> Mechanism[T]:
    """Run ``inner`` on the entries kept by independent coins of probability q (in their order).

    ``inner`` must be stated for add/remove (AddRemove) or substitution (Substitution) of one
    entry, and accept every sub-dataset (including the empty one); the result is stated for the
    same relation.  ``claim`` defaults to :func:`amplified_claim`; pass
    another to audit a different (e.g. wrong) claim.
    """
    q = _rate(rate)
    if not isinstance(inner, Mechanism):
        raise InvalidArgument(f"inner={inner!r} must be a Mechanism")
    if not isinstance(inner.relation, AddRemove | Substitution):
        raise InvalidArgument(f"inner={inner.name!r} is stated under {inner.relation}; Poisson "
                              "amplification needs add/remove or substitution of one entry")
    stated = claim if claim is not None else amplified_claim(inner.claim, q)

    def program(data: Dataset) -> Program[T]:
        kept = []
        for x in data:
            if (yield from bernoulli(q)):
                kept.append(x)
        return (yield from call(inner.program, tuple(kept)))

    return Mechanism(f"Poisson subsample q={q} -> {inner.name}", program, stated,
                     cite("folklore Li-Qardaji-Su 2012 Poisson amplification"), inner.relation,
                     order_invariant=inner.order_invariant,
                     description=f"keep each entry with probability {q}")


def membership_response(keep: ExactInput, element: object = 1, *,
                        relation: AddRemove | Substitution = _ADD_REMOVE) -> Mechanism[int]:
    """Randomized response on the bit [``element`` occurs in the dataset], keep p in [1/2, 1).

    Guarantee: ln(p/(1 − p))-DP under ``relation`` (add/remove by default, or substitution): one
    entry moves the bit at most once (Warner 1965); attained on (), (element,) and on
    (element,), (other,).  Any dataset of hashable entries.
    """
    if not isinstance(relation, AddRemove | Substitution):
        raise InvalidArgument(f"relation={relation!r} must be AddRemove() or Substitution()")
    p = check_probability(to_fraction(keep, "keep"), "keep", open_high=True)
    if p < Fraction(1, 2):
        raise InvalidArgument(f"keep={p} must be >= 1/2")

    def program(data: Dataset) -> Program[int]:
        return (yield from flip_bit(int(element in data), p))

    return Mechanism("membership response", program, PrivacyClaim(rr_epsilon(p)),
                     cite("folklore Warner 1965"), relation, order_invariant=True,
                     description=f"randomized response (keep {p}) on [{element!r} in data]")
