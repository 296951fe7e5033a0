"""The assembled ledger: every entry of every paper module, with unique ids, and what is pending.

The target list of numbered results lives in :mod:`privref.reference.citations` (so mechanisms
can cite it without importing the ledger): :data:`MANIFEST` lists each paper's numbered results,
:data:`EXTERNAL` the folklore and external ones.  The ledger may only use numbers listed there;
:func:`pending` lists what has no entry yet.
"""

from __future__ import annotations

from functools import cache

from privref.reference.citations import EXTERNAL, MANIFEST
from privref.reference.errors import InvalidArgument

from ._ledger import Entry

__all__ = ["EXTERNAL", "MANIFEST", "all_entries", "entry_by_id", "pending"]


@cache
def all_entries() -> tuple[Entry, ...]:
    """Every ledger entry, in paper order; raises on a duplicate id."""
    from . import folklore, p000, p001, p002, p003, p004  # lazy: importing the ledger runs no check

    def order(e: Entry) -> tuple[int, int, int]:
        papers = ("004", "000", "001", "002", "003", "folklore")
        numbers = MANIFEST.get(e.paper, ())
        rank = numbers.index(e.number) if e.number in numbers else len(numbers)
        return papers.index(e.paper), rank, 0 if e.step is None else 1

    collected = (*p004.ENTRIES, *p000.ENTRIES, *p001.ENTRIES, *p002.ENTRIES, *p003.ENTRIES,
                 *folklore.ENTRIES)
    entries = tuple(sorted(collected, key=order))  # stable: steps keep their module order
    seen: set[str] = set()
    for e in entries:
        if e.id in seen:
            raise InvalidArgument(f"duplicate ledger id {e.id!r}")
        seen.add(e.id)
    return entries


def entry_by_id(entry_id: str) -> Entry:
    """The entry with this id; raises InvalidArgument naming the id when absent."""
    for e in all_entries():
        if e.id == entry_id:
            return e
    raise InvalidArgument(f"entry_id={entry_id!r} is not in the ledger")


def pending() -> dict[str, tuple[str, ...]]:
    """Numbered results of each paper (:data:`MANIFEST`) that have no ledger entry yet."""
    covered = {(e.paper, e.number) for e in all_entries()}
    return {paper: tuple(n for n in numbers if (paper, n) not in covered)
            for paper, numbers in MANIFEST.items()}
