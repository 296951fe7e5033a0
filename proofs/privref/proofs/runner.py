"""Run ledger checks and decide whether each result agrees with its entry's status."""

from __future__ import annotations

import traceback
from dataclasses import dataclass

from ._ledger import Check, CheckResult, Entry, Verdict

__all__ = ["CheckOutcome", "EntryReport", "run_check", "run_entry"]


@dataclass(frozen=True, slots=True)
class CheckOutcome:
    """One check's result next to what the entry's status expects of it."""

    check: Check
    result: CheckResult

    @property
    def agrees(self) -> bool:
        """True when the check returned the verdict the entry's status expects."""
        return self.result.verdict is self.check.expect


@dataclass(frozen=True, slots=True)
class EntryReport:
    """All check outcomes of one entry; ``consistent`` when every check agrees."""

    entry: Entry
    outcomes: tuple[CheckOutcome, ...]

    @property
    def consistent(self) -> bool:
        """True when no check contradicts the entry's recorded status."""
        return all(o.agrees for o in self.outcomes)


def run_check(check: Check) -> CheckOutcome:
    """Run one check; an exception becomes an UNDECIDED result carrying the error text."""
    try:
        result = check.run()
    except Exception as exc:  # a crashing check must show up as a contradiction, not abort
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        result = CheckResult(Verdict.UNDECIDED, f"check raised {detail}")
    return CheckOutcome(check, result)


def run_entry(entry: Entry, memo: dict[int, CheckOutcome] | None = None) -> EntryReport:
    """Run every check of ``entry``; ``memo`` reuses outcomes of checks shared between entries."""
    outcomes = []
    for c in entry.checks:
        if memo is not None and id(c) in memo:
            outcomes.append(memo[id(c)])
            continue
        outcome = run_check(c)
        if memo is not None:
            memo[id(c)] = outcome
        outcomes.append(outcome)
    return EntryReport(entry, tuple(outcomes))
