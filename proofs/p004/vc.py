"""Ledger entries (filled in by the module's owner)."""

from __future__ import annotations

from .._ledger import Entry

ENTRIES: tuple[Entry, ...] = ()
