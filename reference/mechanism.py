"""A mechanism: one probabilistic program plus its claimed guarantee, source and relation."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from .data import Dataset, as_dataset
from .neighbors import SUBSTITUTION, NeighborRelation
from .privacy import PrivacyClaim, group_privacy
from .program import MAX_PATHS, Distribution, Program, distribution, sample
from .reals import DEFAULT_PRECISION

__all__ = ["Mechanism", "WrapsMechanism"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Mechanism(Generic[T]):
    """A randomized algorithm on datasets, written once as a probabilistic program.

    ``program(data)`` is the single definition; :meth:`distribution` and
    :meth:`sample` are both derived from it.  ``claim`` is the guarantee the
    cited ``source`` (e.g. ``004 Proposition A.1``) states for neighbors under
    ``relation``.  ``order_invariant`` declares that the output law does not
    depend on the order of entries (enables symmetry reduction in audits).
    """

    name: str
    program: Callable[[Dataset], Program[T]]
    claim: PrivacyClaim
    source: str
    relation: NeighborRelation = SUBSTITUTION
    order_invariant: bool = False
    description: str = ""

    def privacy_map(self, distance: int) -> PrivacyClaim:
        """The guarantee for inputs at ``distance`` neighbor steps (group privacy; 1 gives ``claim``)."""
        return group_privacy(self.claim, distance)

    def distribution(self, data: Any, *, precision: int = DEFAULT_PRECISION,
                     max_paths: int = MAX_PATHS) -> Distribution[T]:
        """The exact output distribution on ``data`` (see reference.program.distribution)."""
        return distribution(self.program, as_dataset(data), precision=precision,
                            max_paths=max_paths)

    def sample(self, data: Any, rng: np.random.Generator) -> T:
        """One exact draw of the output on ``data``."""
        return sample(self.program, as_dataset(data), rng=rng)

    def sampler(self) -> Callable[[list[Hashable], np.random.Generator], T]:
        """A ``(data, rng) -> outcome`` callable, the black-box target form."""
        def run(data: list[Hashable], rng: np.random.Generator) -> T:
            return self.sample(data, rng)
        run.__name__ = self.name
        return run


class WrapsMechanism(Generic[T]):
    """Base of the typed wrappers around one ``mechanism`` (learners, sanitizers).

    Name, claim, source, exact distribution and sampler are the wrapped
    mechanism's: the one definition serves both interpreters.  Subclasses are
    dataclasses declaring the ``mechanism`` field.
    """

    __slots__ = ()
    mechanism: Mechanism[T]

    @property
    def name(self) -> str:
        """The mechanism's name."""
        return self.mechanism.name

    @property
    def claim(self) -> PrivacyClaim:
        """The (epsilon, delta) the source claims, under the mechanism's relation."""
        return self.mechanism.claim

    @property
    def source(self) -> str:
        """Paper and number where the claim is stated, e.g. ``004 Theorem 3.3``."""
        return self.mechanism.source

    def distribution(self, data: Any, **kwargs: Any) -> Distribution[T]:
        """The exact output distribution on ``data`` (see :meth:`Mechanism.distribution`)."""
        return self.mechanism.distribution(data, **kwargs)

    def sample(self, data: Any, rng: np.random.Generator) -> T:
        """One exact draw of the output on ``data``."""
        return self.mechanism.sample(data, rng)
