"""The black-box auditor: Monte Carlo lower bounds on the privacy loss of any callable.

Targets, sampling, pair search, event selection, the Clopper–Pearson estimate and the report
(terminal text and JSON); the HTML presentation and the command line live in :mod:`privref.app`,
the statistics in :mod:`privref.audits.stats`, the validation zoo in :mod:`validation`.
"""

from .adapters import register_target, registered_target_names
from .api import assert_private, neighboring_pairs
from .declarations import InputDomain, LibraryVersion, ProfileClaim, ZCDPClaim, audited_point, declare
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
    "InputDomain",
    "LibraryVersion",
    "OutcomeError",
    "PairResult",
    "ProfileClaim",
    "SearchSpace",
    "Target",
    "TargetCallError",
    "TargetError",
    "TargetLoadError",
    "WitnessSamples",
    "ZCDPClaim",
    "assert_private",
    "audited_point",
    "candidate_pairs",
    "declare",
    "load_target",
    "neighboring_pairs",
    "register_target",
    "registered_target_names",
    "run_audit",
    "sample_pair",
    "target_from_callable",
]
