"""The black-box auditor: Monte Carlo lower bounds on the privacy loss of any callable.

Targets, sampling, pair search, event selection, the Clopper–Pearson estimate and the report
(terminal text and JSON); the HTML presentation and the command line live in :mod:`privref.app`,
the statistics in :mod:`privref.audits.stats`, the validation zoo in :mod:`validation`.

Importing this package does not import hypothesis; ``neighboring_pairs`` (a hypothesis strategy,
:mod:`privref.reference.strategies`) is still reachable here, imported on first access.
"""

from .adapters import register_target, registered_target_names
from .api import assert_private, audit_callable
from .checkpoint import CheckpointError
from .config import AuditConfig
from .curves import CurveBounds, CurveRequest
from .declarations import (
    GDPClaim,
    InputDomain,
    LibraryVersion,
    ProfileClaim,
    ZCDPClaim,
    audited_point,
    declare,
)
from .engines import ProgressReporter
from .prediction_target import PredictionService, prediction_target
from .report import BlackboxReport, BlackboxVerdict, PairResult, WitnessSamples
from .runner import run_audit, sample_pair
from .search import SearchSpace, candidate_pairs
from .sequential import run_sequential_audit
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
    "CurveBounds",
    "CurveRequest",
    "GDPClaim",
    "InputDomain",
    "LibraryVersion",
    "OutcomeError",
    "PairResult",
    "PredictionService",
    "ProfileClaim",
    "ProgressReporter",
    "SearchSpace",
    "Target",
    "TargetCallError",
    "TargetError",
    "TargetLoadError",
    "WitnessSamples",
    "ZCDPClaim",
    "assert_private",
    "audit_callable",
    "audited_point",
    "candidate_pairs",
    "declare",
    "load_target",
    "prediction_target",
    "register_target",
    "registered_target_names",
    "run_audit",
    "run_sequential_audit",
    "sample_pair",
    "target_from_callable",
]


def __getattr__(name: str) -> object:
    """``neighboring_pairs`` (privref.reference.strategies), imported on first access only."""
    if name == "neighboring_pairs":
        from privref.reference.strategies import neighboring_pairs

        return neighboring_pairs
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
