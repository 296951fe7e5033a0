"""The libraries ``privref check-accountant`` knows (:data:`LIBRARIES`), by command-line name."""

from __future__ import annotations

from typing import Final

from . import autodp, dp_accounting, opendp, prv_accountant
from .adapter import Library

__all__ = ["LIBRARIES"]

LIBRARIES: Final[dict[str, Library]] = {
    lib.name: lib for lib in (autodp.LIBRARY, dp_accounting.LIBRARY, opendp.LIBRARY,
                              prv_accountant.LIBRARY)
}
"""Every adapted library; Opacus is not adapted (it needs PyTorch: docs/accountant-check.md)."""
