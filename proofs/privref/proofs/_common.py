"""Helpers shared by ledger checks: exact audits and derandomized property runs as CheckResults."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from privref.audits.exact import AuditReport, audit, epsilon_text
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim

from ._ledger import CheckResult, Verdict

if TYPE_CHECKING:
    from hypothesis import strategies as st

__all__ = ["audit_result", "combine", "property_result"]


def audit_result(mechanism: Mechanism[Any], universe: Universe, *,
                 claim: PrivacyClaim | None = None, distance: int = 1) -> tuple[CheckResult,
                                                                                 AuditReport]:
    """Exact audit of ``claim`` (default: the mechanism's) as a CheckResult."""
    report = audit(mechanism, universe, claim=claim, distance=distance)
    verdict = report.verdict
    witness = None
    if report.verdict_witness is not None and report.verdict is Verdict.VIOLATED:
        w = report.verdict_witness
        witness = f"pair {w.a!r} -> {w.b!r}, event {w.violation_event!r}"
    evidence = (f"{mechanism.name}: claim {report.claim}, exact worst-case eps "
                f"{epsilon_text(report)} over {report.pairs} pairs ({report.universe})")
    return CheckResult(verdict, evidence, witness), report


def combine(results: Iterable[CheckResult]) -> CheckResult:
    """VIOLATED if any is, else UNDECIDED if any is, else HOLDS; evidence joined."""
    items = list(results)
    verdicts = {r.verdict for r in items}
    verdict = (Verdict.VIOLATED if Verdict.VIOLATED in verdicts else
               Verdict.UNDECIDED if Verdict.UNDECIDED in verdicts else Verdict.HOLDS)
    witness = next((r.witness for r in items if r.witness), None)
    return CheckResult(verdict, "; ".join(r.evidence for r in items), witness)


def property_result(strategy: st.SearchStrategy[Any], prop: Callable[[Any], str | None], *,
                    examples: int, what: str) -> CheckResult:
    """Run ``prop`` on ``examples`` derandomized hypothesis examples.

    ``prop`` returns None when the statement holds on the example, or a text
    describing the violation.  The first (shrunk) violation becomes the witness.
    hypothesis is imported here, not at module level, so that importing the ledger
    does not import it (tests/test_imports.py).
    """
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis.errors import HypothesisException

    failures: list[str] = []

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
              phases=(Phase.generate, Phase.shrink),
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def run(example: Any) -> None:
        problem = prop(example)
        if problem is not None:
            failures.append(problem)
            raise AssertionError(problem)

    try:
        run()
    except (AssertionError, HypothesisException):
        witness = failures[-1] if failures else "hypothesis error"
        return CheckResult(Verdict.VIOLATED, f"{what}: counterexample found", witness)
    return CheckResult(Verdict.HOLDS, f"{what}: held on {examples} generated cases")
