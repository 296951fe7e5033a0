"""The types the third-party adapters share: a target's library-independent definition and its
library-dependent implementation, and the exact reading of a library's float claim.

Split from :mod:`privref.audits.blackbox.adapters` so that the per-library modules
(``adapters_opendp``, ``adapters_diffprivlib``) and the registry import these types in one
direction only.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from types import ModuleType
from typing import Literal

import numpy as np
import numpy.typing as npt

from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import NeighborRelation, check_neighbors
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import Order, Real, compare

from .declarations import InputDomain

__all__ = ["AdapterDefinition", "Implementation", "Library", "Outcomes", "Pair", "ScalarFn",
           "VectorFn", "claim_of", "exact_float"]

Library = Literal["opendp", "diffprivlib"]

Pair = tuple[tuple[Hashable, ...], tuple[Hashable, ...]]
"""A neighboring pair of datasets (the shape used by audits.blackbox.search)."""

Outcomes = npt.NDArray[np.int64] | npt.NDArray[np.float64] | list[Hashable]
"""What a vectorized form returns: a 1-D int64/float64 array for numbers, else a list."""

ScalarFn = Callable[[list[Hashable], np.random.Generator], Hashable]
VectorFn = Callable[[list[Hashable], np.random.Generator, int], Outcomes]


@dataclass(frozen=True, slots=True)
class Implementation:
    """The library-dependent half of a target, built once per process after importing the library.

    ``claim`` is read from the library object (``claim_source`` says how);
    ``one`` draws one outcome, ``many`` (optional) draws ``size`` at once.
    """

    claim: PrivacyClaim
    claim_source: str
    one: ScalarFn
    many: VectorFn | None


@dataclass(frozen=True, slots=True)
class AdapterDefinition:
    """The library-independent half of a target: what it is and what is true of it.

    ``documented_claim`` is the claim this module documents for the use; the
    tests check that the library's own claim (``Implementation.claim``)
    equals it, so a library upgrade that changes its accounting is noticed.
    ``pair_epsilons[i]`` is the exact privacy loss (max over outcomes of
    |ln P[M(a)=o]/P[M(b)=o]|) on ``pairs[i]``; ``true_epsilon`` is its
    supremum over all neighbors under ``relation``, attained by some pair
    when ``true_epsilon_attained``.  ``misconfiguration`` is None for a
    correct use, else a sentence saying what is wrong.  ``float_leak`` is
    None when the implementation is private as implemented, else a sentence
    saying how its floating-point outputs leak (the use is then correct in
    real arithmetic, ``true_epsilon`` is that of the real-arithmetic law, and
    the implementation itself is not ``claim``-DP).  ``domain`` is the input
    domain the pair search explores (clamp bounds included), None: the default.
    """

    name: str
    library: Library
    description: str
    relation: NeighborRelation
    pairs: tuple[Pair, ...]
    pair_epsilons: tuple[Real, ...]
    true_epsilon: Real
    true_epsilon_attained: bool
    documented_claim: PrivacyClaim
    misconfiguration: str | None
    reference: str
    outcome_type: type
    vectorized: bool
    build: Callable[[ModuleType], Implementation]
    float_leak: str | None = None
    domain: InputDomain | None = None

    def __post_init__(self) -> None:
        prefix, sep, rest = self.name.partition(":")
        if prefix != self.library or not sep or "-" not in rest:
            raise InvalidArgument(f"name={self.name!r} must look like '{self.library}:some-name' "
                                  "(with a hyphen, so that it is never a module:function spec)")
        if not self.pairs or len(self.pairs) != len(self.pair_epsilons):
            raise InvalidArgument(f"{self.name}: pairs and pair_epsilons must be non-empty and of "
                                  f"equal length, got {len(self.pairs)} and {len(self.pair_epsilons)}")
        for a, b in self.pairs:
            check_neighbors(self.relation, a, b)
        for eps in self.pair_epsilons:
            if compare(eps, self.true_epsilon)[0] not in (Order.LESS, Order.EQUAL):
                raise InvalidArgument(f"{self.name}: pair epsilon {eps} must be <= true_epsilon="
                                      f"{self.true_epsilon}")


def exact_float(value: object, what: str) -> Fraction:
    """The exact rational value of a library's float (or int) claim; refuses NaN, inf and non-numbers.

    ``Fraction(float)`` is exact: the float *is* the library's claim, so no
    rounding happens here.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidArgument(f"{what}={value!r} must be a number")
    if isinstance(value, float) and not np.isfinite(value):
        raise InvalidArgument(f"{what}={value!r} must be finite")
    return Fraction(value)


def claim_of(epsilon: object, delta: object, what: str) -> PrivacyClaim:
    """A PrivacyClaim from a library's float epsilon and delta (exactly; see :func:`exact_float`)."""
    return PrivacyClaim.of(exact_float(epsilon, f"{what} epsilon"), exact_float(delta, f"{what} delta"))
