"""Randomized response and the label flip (Warner 1965; folklore).

Randomized response keeps a bit with probability p >= 1/2 and flips it
otherwise; it is ln(p/(1-p))-DP, exactly tight.  The label flip applies the
same coin independently to every label of a labeled dataset (points are
released as they are), which is ln(p/(1-p))-DP for label substitution.
"""

from __future__ import annotations

from fractions import Fraction

from .citations import cite
from .data import Dataset, label_of, nonempty_dataset, point_of
from .errors import InvalidArgument
from .mechanism import Mechanism
from .neighbors import LabelSubstitution, Substitution
from .privacy import PrivacyClaim
from .program import Program, bernoulli
from .reals import Real, log, rational
from .validate import ExactInput, check_probability, to_fraction

__all__ = ["flip_bit", "label_flip", "randomized_response", "rr_epsilon"]


def rr_epsilon(keep: Fraction) -> Real:
    """ln(p/(1-p)) for keep probability 1/2 <= p < 1 (exact real; 0 at p = 1/2)."""
    return log(keep / (1 - keep)) if keep != Fraction(1, 2) else rational(0)


def _keep(keep: object) -> Fraction:
    p = check_probability(to_fraction(keep, "keep"), "keep", open_high=True)
    if p < Fraction(1, 2):
        raise InvalidArgument(f"keep={p} must be >= 1/2 (flip more often than keep is the "
                              "same mechanism with the output negated)")
    return p


def flip_bit(bit: int, keep: Fraction) -> Program[int]:
    """Return ``bit`` with probability ``keep`` and 1 - bit otherwise."""
    kept = yield from bernoulli(keep)
    return bit if kept else 1 - bit


def randomized_response(keep: ExactInput) -> Mechanism[int]:
    """Randomized response on a one-bit dataset (x,) with x in {0, 1}.

    Guarantee: ln(p/(1-p))-DP under substitution, tight (folklore, Warner 1965).
    """
    p = _keep(keep)

    def program(data: Dataset) -> Program[int]:
        data = nonempty_dataset(data)
        if len(data) != 1 or data[0] not in (0, 1):
            raise InvalidArgument(f"data={data!r} must be a single bit (0,) or (1,)")
        bit = data[0]
        assert isinstance(bit, int)
        return (yield from flip_bit(bit, p))

    return Mechanism("randomized response", program, PrivacyClaim(rr_epsilon(p)),
                     cite("folklore Warner 1965"), Substitution(),
                     description=f"keep the bit with probability {p}")


def label_flip(keep: ExactInput) -> Mechanism[tuple[tuple[object, int], ...]]:
    """Flip every label of a labeled dataset independently, keeping it with probability p.

    Output: the dataset with points unchanged and noisy labels.  Guarantee:
    ln(p/(1-p))-DP for neighbors differing in one label (label privacy).
    """
    p = _keep(keep)

    def program(data: Dataset) -> Program[tuple[tuple[object, int], ...]]:
        out = []
        for example in data:
            y = label_of(example)
            if not isinstance(y, int):
                raise InvalidArgument(f"example={example!r} must be labeled 0 or 1, not ⊥")
            noisy = yield from flip_bit(y, p)
            out.append((point_of(example), noisy))
        return tuple(out)

    return Mechanism("label flip", program, PrivacyClaim(rr_epsilon(p)),
                     cite("folklore Warner 1965"), LabelSubstitution(),
                     description=f"keep each label with probability {p}")
