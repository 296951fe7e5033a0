"""Ledger entries of paper 000 (Beimel, Nissim, Stemmer; later version)."""

from __future__ import annotations

from .._ledger import Entry
from . import claims

ENTRIES: tuple[Entry, ...] = (*claims.ENTRIES,)
