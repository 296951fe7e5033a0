"""A mechanism: one probabilistic program plus its claimed guarantee, source and relation."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from .citations import Citation, Source, Uncited
from .data import Dataset, as_dataset
from .errors import InvalidArgument, UnsupportedProgram
from .neighbors import SUBSTITUTION, NeighborRelation
from .privacy import PrivacyClaim, group_privacy
from .program import MAX_PATHS, Distribution, Program, distribution, sample
from .reals import DEFAULT_PRECISION

__all__ = ["Interpreted", "Mechanism", "WrapsMechanism"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Mechanism(Generic[T]):
    """A randomized algorithm on datasets, written once as a probabilistic program.

    ``program(data)`` is the single definition, a generator function that
    yields its random choices (:mod:`privref.reference.program`);
    :meth:`distribution` and :meth:`sample` are both derived from it and raise
    UnsupportedProgram naming the mechanism when it is not such a program.
    ``claim`` is the guarantee that ``source`` states for neighbors under
    ``relation``: a :class:`~privref.reference.citations.Citation` of a ledger
    entry (``cite("004 Proposition A.1")``), or
    :class:`~privref.reference.citations.Uncited` for fixtures and controls.
    ``order_invariant`` declares that the output law does not depend on the
    order of entries (enables symmetry reduction in audits).  Every field is
    type-checked at construction (InvalidArgument naming the field).
    """

    name: str
    program: Callable[[Dataset], Program[T]]
    claim: PrivacyClaim
    source: Source
    relation: NeighborRelation = SUBSTITUTION
    order_invariant: bool = False
    description: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InvalidArgument(f"name={self.name!r} must be a non-empty str")
        if not callable(self.program):
            raise InvalidArgument(f"program={self.program!r} of mechanism {self.name!r} must be "
                                  "a callable returning a probabilistic program")
        if not isinstance(self.claim, PrivacyClaim):
            raise InvalidArgument(f"claim={self.claim!r} of mechanism {self.name!r} must be a "
                                  "PrivacyClaim")
        if isinstance(self.source, str):
            raise InvalidArgument(f"source={self.source!r} of mechanism {self.name!r} must be "
                                  "a Citation: use reference.citations.cite(...)")
        if not isinstance(self.source, Citation | Uncited):
            raise InvalidArgument(f"source={self.source!r} of mechanism {self.name!r} must be "
                                  "a Citation or Uncited")
        if not isinstance(self.relation, NeighborRelation):
            raise InvalidArgument(f"relation={self.relation!r} of mechanism {self.name!r} must "
                                  "be a NeighborRelation")
        if not isinstance(self.order_invariant, bool):
            raise InvalidArgument(f"order_invariant={self.order_invariant!r} must be a bool")
        if not isinstance(self.description, str):
            raise InvalidArgument(f"description={self.description!r} must be a str")

    def privacy_map(self, distance: int) -> PrivacyClaim:
        """The guarantee for inputs at ``distance`` neighbor steps (group privacy; 1 gives ``claim``)."""
        return group_privacy(self.claim, distance)

    def distribution(self, data: Any, *, precision: int = DEFAULT_PRECISION,
                     max_paths: int = MAX_PATHS) -> Distribution[T]:
        """The exact output distribution on ``data`` (see reference.program.distribution)."""
        data = as_dataset(data)
        try:
            return distribution(self.program, data, precision=precision, max_paths=max_paths)
        except UnsupportedProgram as exc:
            raise UnsupportedProgram(f"mechanism {self.name!r}: {exc}") from exc

    def sample(self, data: Any, rng: np.random.Generator) -> T:
        """One exact draw of the output on ``data``."""
        data = as_dataset(data)
        try:
            return sample(self.program, data, rng=rng)
        except UnsupportedProgram as exc:
            raise UnsupportedProgram(f"mechanism {self.name!r}: {exc}") from exc

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
    def source(self) -> Source:
        """The ledger entry backing the claim, e.g. ``cite("004 Theorem 3.3")``."""
        return self.mechanism.source

    def distribution(self, data: Any, **kwargs: Any) -> Distribution[T]:
        """The exact output distribution on ``data`` (see :meth:`Mechanism.distribution`)."""
        return self.mechanism.distribution(data, **kwargs)

    def sample(self, data: Any, rng: np.random.Generator) -> T:
        """One exact draw of the output on ``data``."""
        return self.mechanism.sample(data, rng)


class Interpreted(Generic[T]):
    """Base of the named probabilistic programs that are not mechanisms on one dataset.

    For procedures with no privacy claim of their own (000 Algorithm 2's
    LabelBoostProcedure) and 003's sample generators, whose programs may take
    several arguments: :meth:`distribution` and :meth:`sample` both come from
    the one definition ``program(*inputs)``, as :class:`Mechanism`'s do from
    ``program(data)``.  Subclasses are dataclasses providing ``name`` and
    ``program`` (a field or a method).
    """

    __slots__ = ()
    name: str
    program: Callable[..., Program[T]]

    def distribution(self, *inputs: Any, precision: int = DEFAULT_PRECISION,
                     max_paths: int = MAX_PATHS) -> Distribution[T]:
        """The exact law of ``program(*inputs)`` (see reference.program.distribution)."""
        try:
            return distribution(self.program, *inputs, precision=precision, max_paths=max_paths)
        except UnsupportedProgram as exc:
            raise UnsupportedProgram(f"{self.name!r}: {exc}") from exc

    def sample(self, *inputs: Any, rng: np.random.Generator) -> T:
        """One exact draw of ``program(*inputs)``."""
        try:
            return sample(self.program, *inputs, rng=rng)
        except UnsupportedProgram as exc:
            raise UnsupportedProgram(f"{self.name!r}: {exc}") from exc
