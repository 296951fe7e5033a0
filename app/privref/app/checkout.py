"""Where the source checkout is, when privref runs from one.

An installed wheel has no checkout; an editable install or ``python -m privref`` from a clone does.
The checkout is found from this file's own path (``<root>/app/privref/app/checkout.py``), never by
resolving a link, and is accepted only if it holds the project's ``pyproject.toml``.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["checkout_root"]


def checkout_root() -> Path | None:
    """The root of the source checkout this module was loaded from, or None when installed.

    Guarantee: a returned path holds ``pyproject.toml`` and ``app/privref/app/checkout.py`` (this
    file); None otherwise (a wheel installed in site-packages).
    """
    here = Path(__file__).absolute()
    root = here.parents[3]
    if (root / "pyproject.toml").is_file() and (root / "app" / "privref" / "app" / here.name).is_file():
        return root
    return None
