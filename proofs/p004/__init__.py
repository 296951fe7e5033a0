"""Ledger entries of paper 004 (Beimel, Nissim, Stemmer; earlier version)."""

from __future__ import annotations

from .._ledger import Entry
from . import exponential, numeric, resampling, subsampling, vc

ENTRIES: tuple[Entry, ...] = (
    *exponential.ENTRIES,
    *vc.ENTRIES,
    *subsampling.ENTRIES,
    *resampling.ENTRIES,
    *numeric.ENTRIES,
)
