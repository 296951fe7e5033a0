"""Private learners of papers 000 and 004 (Beimel, Nissim, Stemmer), each one probabilistic program.

Every learner is a :class:`reference.learners.base.Learner`: a
:class:`reference.mechanism.Mechanism` from (partially) labeled datasets to
hypotheses, plus the concept class it learns and whether it is proper.  Its
exact output distribution (tiny inputs) and its sampler both come from the one
program.
"""

from .base import Learner, as_learner

__all__ = ["Learner", "as_learner"]
