"""Ledger: 000 Theorems B.3–B.6, the same statements and constants as 004's (proofs.p004.generalization)."""

from __future__ import annotations

from dataclasses import replace

from .._ledger import Entry
from ..p004 import generalization as g

__all__ = ["ENTRIES"]


def _counterpart(entry: Entry, note: str) -> Entry:
    return replace(entry, paper="000", also=(entry.id,), notes=f"{note} {entry.notes}")


ENTRIES: tuple[Entry, ...] = (
    _counterpart(g.B3, "Same statement as 004 Theorem B.3 (both cite [18])."),
    _counterpart(g.B4, "Same statement and constants as 004 Theorem B.4 (000 cites [30,10])."),
    _counterpart(g.B5, "Same statement and constants as 004 Theorem B.5 (000 writes error_μ in the "
                       "event, 004 error_D)."),
    _counterpart(g.B6, "Same statement and constants as 004 Theorem B.6."),
)
