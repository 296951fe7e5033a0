"""Private learners of papers 000 and 004 (Beimel, Nissim, Stemmer), each one probabilistic program.

Every learner is a :class:`reference.learners.base.Learner`: a
:class:`reference.mechanism.Mechanism` from (partially) labeled datasets to
hypotheses, plus the concept class it learns and whether it is proper.  Its
exact output distribution (tiny inputs) and its sampler both come from the one
program.
"""

from .base import Learner, as_learner
from .generic import (
    GENERIC_LEARNER_SOURCE,
    generic_learner,
    generic_learner_blr,
    hypothesis_set,
    klnrs_learner,
    split_database,
)
from .sanitizer import (
    DEFAULT_MAX_CANDIDATES,
    SanitizedDatabase,
    Sanitizer,
    blr_sanitizer,
    candidate_databases,
    query_error,
)

__all__ = [
    "DEFAULT_MAX_CANDIDATES",
    "GENERIC_LEARNER_SOURCE",
    "Learner",
    "SanitizedDatabase",
    "Sanitizer",
    "as_learner",
    "blr_sanitizer",
    "candidate_databases",
    "generic_learner",
    "generic_learner_blr",
    "hypothesis_set",
    "klnrs_learner",
    "query_error",
    "split_database",
]
