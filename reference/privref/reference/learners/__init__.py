"""Private learners of papers 000 and 004 (Beimel, Nissim, Stemmer), each one probabilistic program.

Every learner is a :class:`privref.reference.learners.base.Learner`: a
:class:`privref.reference.mechanism.Mechanism` from (partially) labeled datasets to
hypotheses, plus the concept class it learns and whether it is proper.  Its
exact output distribution (tiny inputs) and its sampler both come from the one
program.
"""

from .active import ActiveLearner, LabelOracle, Transcript, pssl_as_active, subsampling_learner
from .base import Learner, as_learner
from .generic import (
    GENERIC_LEARNER_SOURCE,
    generic_learner,
    generic_learner_blr,
    hypothesis_set,
    klnrs_learner,
    split_database,
)
from .iterlabelboost import iter_label_boost
from .labelboost import LabelBoostProcedure, boosted_learner, label_boost, label_boost_procedure
from .prediction_baselines import (
    block_average_predictor,
    erm,
    flipped_average_predictor,
    generic_predictor,
    index_blocks,
    private_majority_epsilon,
    private_majority_predictor,
    subsample_predictor,
)
from .relabel_prediction import (
    relabel,
    relabel_core_gamma,
    relabel_core_predictor,
    relabel_core_privacy,
    relabel_hypothesis,
    relabel_predictor,
    relabel_privacy,
)
from .sanitizer import (
    DEFAULT_MAX_CANDIDATES,
    SanitizedDatabase,
    Sanitizer,
    blr_sanitizer,
    candidate_databases,
    query_error,
)
from .schedule import PAPER_000, PAPER_004, LabelBoostConstants, Schedule, size_schedule
from .stable_prediction import (
    flip_prediction,
    flip_predictor,
    flip_privacy,
    paper_stable_gamma,
    pattern_exponential_mechanism,
    private_predictor,
    random_index_subset,
    stable_gamma,
    stable_hypothesis,
    stable_predictor,
)

__all__ = [
    "DEFAULT_MAX_CANDIDATES",
    "GENERIC_LEARNER_SOURCE",
    "PAPER_000",
    "PAPER_004",
    "ActiveLearner",
    "LabelBoostConstants",
    "LabelBoostProcedure",
    "LabelOracle",
    "Learner",
    "SanitizedDatabase",
    "Sanitizer",
    "Schedule",
    "Transcript",
    "as_learner",
    "block_average_predictor",
    "blr_sanitizer",
    "boosted_learner",
    "candidate_databases",
    "erm",
    "flip_prediction",
    "flip_predictor",
    "flip_privacy",
    "flipped_average_predictor",
    "generic_learner",
    "generic_learner_blr",
    "generic_predictor",
    "hypothesis_set",
    "index_blocks",
    "iter_label_boost",
    "klnrs_learner",
    "label_boost",
    "label_boost_procedure",
    "paper_stable_gamma",
    "pattern_exponential_mechanism",
    "private_majority_epsilon",
    "private_majority_predictor",
    "private_predictor",
    "pssl_as_active",
    "query_error",
    "random_index_subset",
    "relabel",
    "relabel_core_gamma",
    "relabel_core_predictor",
    "relabel_core_privacy",
    "relabel_hypothesis",
    "relabel_predictor",
    "relabel_privacy",
    "size_schedule",
    "split_database",
    "stable_gamma",
    "stable_hypothesis",
    "stable_predictor",
    "subsample_predictor",
    "subsampling_learner",
]
