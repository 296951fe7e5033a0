"""Where the source checkout is, when privref runs from one, and the shared data beside it.

An installed wheel has no checkout; an editable install or ``python -m privref`` from a clone does.
The checkout is found from this file's own path (``<root>/app/privref/app/checkout.py``), never by
resolving a link, and is accepted only if it holds the project's ``pyproject.toml``.
"""

from __future__ import annotations

from pathlib import Path

from privref.reference.errors import InvalidArgument

__all__ = ["checkout_root", "default_data_dir"]


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


def _candidate_dirs() -> tuple[Path, ...]:
    repo = checkout_root()
    beside_repo = () if repo is None else (repo.parent / "shared" / "data",)
    return (*beside_repo, Path.cwd().parent / "shared" / "data", Path.cwd() / "shared" / "data")


def default_data_dir() -> Path:
    """The first existing ``../shared/data`` next to the repository, or next to the current directory.

    Guarantee: never downloads; raises InvalidArgument naming the places tried when none exists.
    """
    tried = _candidate_dirs()
    for place in tried:
        if place.is_dir():
            return place
    raise InvalidArgument("directory=None: no data directory found (tried "
                          + ", ".join(str(p) for p in tried) + "); pass directory=")
