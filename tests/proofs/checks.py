"""Shared assertions for ledger checks (one place; the per-paper test modules use it)."""

from __future__ import annotations

import importlib
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


def resolves(subject: str) -> bool:
    """A ledger subject names an importable module of privref or an attribute of one."""
    try:
        importlib.import_module(f"privref.{subject}")
        return True
    except ModuleNotFoundError:
        module, _, name = f"privref.{subject}".rpartition(".")
        return hasattr(importlib.import_module(module), name)


def distinct_checks(entries: Iterable[Entry]) -> list[Check]:
    """Each check function once (several entries share one), in first-seen order."""
    seen: dict[object, Check] = {}
    for e in entries:
        for c in e.checks:
            seen.setdefault(c.run, c)
    return list(seen.values())
