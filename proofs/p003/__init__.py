"""Ledger entries of paper 003 (Alon, Bassily, Moran: limits of private learning with public data).

Every submodule of this package that defines ``ENTRIES`` contributes them;
modules are collected in name order and :func:`proofs.registry.all_entries`
puts the entries in paper order.
"""

from __future__ import annotations

import importlib
import pkgutil

from .._ledger import Entry


def _collect() -> tuple[Entry, ...]:
    found: list[Entry] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.extend(getattr(module, "ENTRIES", ()))
    return tuple(found)


ENTRIES: tuple[Entry, ...] = _collect()
