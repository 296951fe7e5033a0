"""The black-box auditor: Monte Carlo lower bounds on the privacy loss of any callable.

Targets, sampling, pair search, event selection, the Clopper–Pearson estimate and the report
(terminal text and JSON); the HTML presentation and the command line live in :mod:`privref.app`,
the statistics in :mod:`privref.audits.stats`, the validation zoo in :mod:`privref.validation`.
"""

from .api import assert_private, neighboring_pairs
from .report import BlackboxReport, BlackboxVerdict, PairResult, WitnessSamples
from .runner import AuditConfig, CheckpointError, run_audit, sample_pair
from .search import SearchSpace, candidate_pairs
from .target import (
    OutcomeError,
    Target,
    TargetCallError,
    TargetError,
    TargetLoadError,
    load_target,
    target_from_callable,
)

__all__ = [
    "AuditConfig",
    "BlackboxReport",
    "BlackboxVerdict",
    "CheckpointError",
    "OutcomeError",
    "PairResult",
    "SearchSpace",
    "Target",
    "TargetCallError",
    "TargetError",
    "TargetLoadError",
    "WitnessSamples",
    "assert_private",
    "candidate_pairs",
    "load_target",
    "neighboring_pairs",
    "run_audit",
    "sample_pair",
    "target_from_callable",
]
