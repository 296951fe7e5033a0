"""Ledger entries of paper 002 (Dagan and Feldman: PAC learning with stable and private predictions).

Every submodule of this package that defines ``ENTRIES`` contributes them
(:func:`privref.proofs._ledger.collect_entries`); :func:`privref.proofs.registry.all_entries`
puts the entries in paper order.
"""

from __future__ import annotations

from .._ledger import Entry, collect_entries

ENTRIES: tuple[Entry, ...] = collect_entries(__name__, __path__)
