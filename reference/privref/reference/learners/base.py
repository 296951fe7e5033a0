"""The learner type shared by the learners of papers 000 and 004.

A learner is a mechanism whose input is a partially labeled database (entries
``labeled(x, y)`` with y in {0, 1, ⊥}; see :mod:`privref.reference.data`) and whose
output is a hypothesis.  It records the concept class C it learns, whether it
is *proper* (every output is a concept of C: 000/004 Definition 2.3), and its
privacy claim (on its mechanism).  Learners built from other learners (e.g.
LabelBoost around a base learner 𝒜) take the base as a :class:`Learner`, so
the base is pluggable.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import TypeVar

from ..concepts import ConceptClass
from ..errors import InvalidArgument
from ..mechanism import Mechanism, WrapsMechanism

__all__ = ["Learner", "as_learner"]

H = TypeVar("H", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Learner(WrapsMechanism[H]):
    """A private learner: ``mechanism`` maps a database to a hypothesis.

    Guarantees: ``mechanism.claim`` is the privacy claim of the cited
    ``mechanism.source`` under ``mechanism.relation``; when ``proper`` is
    True every output is a concept of ``concepts`` (checked by the tests on
    the exact output distributions).
    """

    mechanism: Mechanism[H]
    concepts: ConceptClass
    proper: bool


def as_learner(mechanism: Mechanism[H], concepts: ConceptClass, *, proper: bool) -> Learner[H]:
    """Wrap a mechanism that outputs hypotheses for ``concepts`` as a Learner."""
    if not isinstance(mechanism, Mechanism):
        raise InvalidArgument(f"mechanism={mechanism!r} must be a reference.mechanism.Mechanism")
    if not isinstance(concepts, ConceptClass):
        raise InvalidArgument(f"concepts={concepts!r} must be a reference.concepts.ConceptClass")
    return Learner(mechanism, concepts, bool(proper))
