"""Ledger: results of 000 whose checks are shared with their 004 counterparts."""

from __future__ import annotations

from dataclasses import replace

from .._ledger import Entry
from ..p004 import resampling, subsampling, vc

__all__ = ["ENTRIES"]


def _counterpart(entry: Entry, number: str, note: str) -> Entry:
    return replace(entry, paper="000", number=number, also=(entry.id,), notes=note)


ENTRIES: tuple[Entry, ...] = (
    _counterpart(vc.SAUER, "Theorem B.2",
                 "Same as 004 Theorem B.2; 000 prints Π_C(B) without |·| (typo)."),
    _counterpart(vc.XOR_VC, "Observation 3.2",
                 "Same statement and proof as 004 Observation 3.2 (000 proves it inline)."),
    _counterpart(subsampling.ENTRIES[0], "Claim 4.3",
                 "Same statement and constants as 004 Claim C.1; no proof in either version."),
    _counterpart(resampling.ENTRIES[0], "Claim 4.5",
                 "Stated without proof (attributed to [11]); 004 Claim C.3 gives the proof. "
                 "000 Lemma 4.6 cites '(ln(244), 2476)', inconsistent with the 2467 here."),
)
