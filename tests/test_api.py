"""The public façades export exactly their public names (STYLE.md item 9)."""

from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize("name", ["privref", "privref.reference", "privref.audits", "privref.audits.blackbox",
                                  "privref.proofs", "privref.reference.strategies", "privref.testing"])
def test_all_matches_public_names(name: str) -> None:
    """__all__ lists every public name of the module and nothing else."""
    module = importlib.import_module(name)
    exported = set(module.__all__)
    for symbol in exported:
        assert hasattr(module, symbol), symbol
    if hasattr(module, "__path__"):  # a package façade re-exports its submodules' names
        public = {n for n, v in vars(module).items()
                  if not n.startswith("_") and not isinstance(v, type(importlib))
                  and getattr(v, "__module__", name).startswith("privref")}
    else:  # a plain module exports what it defines
        public = {n for n, v in vars(module).items()
                  if not n.startswith("_") and getattr(v, "__module__", None) == name}
    assert public <= exported | {"annotations"}, public - exported
