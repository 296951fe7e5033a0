"""Shared assertions for ledger checks (one place; the per-paper test modules use it)."""

from __future__ import annotations

from collections.abc import Iterable

from privref.proofs import Check, CheckResult, Entry, Verdict


def check_cases(entries: Iterable[Entry]) -> list[tuple[Entry, Check]]:
    """Every (entry, check) pair, for pytest parametrization."""
    return [(entry, check) for entry in entries for check in entry.checks]


def case_id(case: tuple[Entry, Check]) -> str:
    """A readable test id: ``<entry id> :: <check name>``."""
    return f"{case[0].id} :: {case[1].name}"


def assert_check(check: Check) -> CheckResult:
    """The check returns the verdict it expects, a witness when VIOLATED, and the same result twice."""
    result = check.run()
    assert result.verdict is check.expect, result.evidence
    if result.verdict is Verdict.VIOLATED:
        assert result.witness, check.name
    assert check.run().verdict is result.verdict, check.name
    return result
