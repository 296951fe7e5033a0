"""Every numbered result of each paper (the ledger's target list), re-exported for the ledger.

The data lives in :mod:`privref.reference.citations` (so that mechanisms can
cite it without importing the ledger): :data:`MANIFEST` lists the numbered
results of each paper, :data:`EXTERNAL` the folklore and external results.
The ledger may only use numbers listed there; :func:`pending` lists what has
no entry yet.
"""

from __future__ import annotations

from privref.reference.citations import EXTERNAL, MANIFEST

__all__ = ["EXTERNAL", "MANIFEST", "pending"]


def pending() -> dict[str, tuple[str, ...]]:
    """Numbered results of each paper that have no ledger entry yet."""
    from .registry import all_entries

    covered = {(e.paper, e.number) for e in all_entries()}
    return {paper: tuple(n for n in numbers if (paper, n) not in covered)
            for paper, numbers in MANIFEST.items()}
