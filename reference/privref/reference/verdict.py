"""The sound three-valued verdict shared by the auditors and the ledger."""

from __future__ import annotations

from enum import Enum

__all__ = ["Verdict"]


class Verdict(Enum):
    """HOLDS or VIOLATED only when exact or interval arithmetic proves it; UNDECIDED otherwise."""

    HOLDS = "HOLDS"
    VIOLATED = "VIOLATED"
    UNDECIDED = "UNDECIDED"
