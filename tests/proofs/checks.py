"""Shared assertions for ledger checks (one place; the per-paper test modules use it)."""

from __future__ import annotations

import importlib

from privref.proofs import Check, Entry


def case_id(case: tuple[Entry, Check]) -> str:
    """A readable test id: ``<entry id> :: <check name>``."""
    return f"{case[0].id} :: {case[1].name}"


def resolves(subject: str) -> bool:
    """A ledger subject names an importable module of privref or an attribute of one."""
    try:
        importlib.import_module(f"privref.{subject}")
        return True
    except ModuleNotFoundError:
        module, _, name = f"privref.{subject}".rpartition(".")
        return hasattr(importlib.import_module(module), name)
