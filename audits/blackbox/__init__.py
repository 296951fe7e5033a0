"""The black-box auditor: Monte Carlo lower bounds on the privacy loss of any callable.

Work in progress (issue 3): targets, sampling, search, reports (terminal, JSON and the
self-contained HTML report of :mod:`audits.blackbox.html`), the CLI, the Python API, the
statistics and third-party adapters have landed; the zoo verdict table and the validation
benchmarks are still to come (see docs/blackbox.md).
"""

from .api import assert_private, neighboring_pairs
from .html import GrowthPoint, bound_growth, render_html, write_html
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
    "GrowthPoint",
    "OutcomeError",
    "PairResult",
    "SearchSpace",
    "Target",
    "TargetCallError",
    "TargetError",
    "TargetLoadError",
    "WitnessSamples",
    "assert_private",
    "bound_growth",
    "candidate_pairs",
    "load_target",
    "neighboring_pairs",
    "render_html",
    "run_audit",
    "sample_pair",
    "target_from_callable",
    "write_html",
]
