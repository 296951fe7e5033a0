"""What the long commands share: progress lines on stderr, the check that the plotting extra is
installed before a run that writes a PNG, the versions a generated JSON records, and the parsing
of a bounded integer flag."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from typing import overload

from privref import reference
from privref.reference.errors import InvalidArgument, PrivrefError

__all__ = ["bounded_int", "progress", "require_matplotlib", "run_versions", "stderr_lines"]


def progress(args: argparse.Namespace, i: int, total: int, what: str) -> None:
    """One counter line on stderr per item of a long command (none with --quiet)."""
    if not getattr(args, "quiet", False):
        print(f"[{i}/{total}] {what}", file=sys.stderr, flush=True)


def stderr_lines(args: argparse.Namespace) -> Callable[[str], None]:
    """A progress callback that prints each line on stderr, flushed (nothing with --quiet)."""
    quiet = bool(getattr(args, "quiet", False))

    def emit(line: str) -> None:
        if not quiet:
            print(line, file=sys.stderr, flush=True)

    return emit


def require_matplotlib(what: str) -> None:
    """Raise PrivrefError "``what`` needs matplotlib: pip install 'privref[plots]'" when the
    plotting extra is missing; called before a run, so no work is lost to a missing plotter."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise PrivrefError(f"{what} needs matplotlib: pip install 'privref[plots]' ({exc})") from None


_DISTRIBUTIONS = {"sklearn": "scikit-learn"}


def run_versions(*optional: str) -> dict[str, str]:
    """The versions a generated JSON records: privref, Python, numpy, and each module named in
    ``optional`` that imports (keyed by its distribution name: sklearn → scikit-learn)."""
    import numpy as np
    out = {"privref": reference.__version__, "python": sys.version.split()[0],
           "numpy": np.__version__}
    for name in optional:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        out[_DISTRIBUTIONS.get(name, name)] = str(module.__version__)
    return out


@overload
def bounded_int(text: object, flag: str, default: int, low: int, high: int) -> int: ...


@overload
def bounded_int(text: object, flag: str, default: int | None, low: int, high: int) -> int | None: ...


def bounded_int(text: object, flag: str, default: int | None, low: int, high: int) -> int | None:
    """The int flag ``text`` in [low, high], ``default`` when absent (None); InvalidArgument
    naming the flag and the range for anything else (at most 30 characters are parsed)."""
    if text is None:
        return default
    raw = str(text).strip()
    if not raw.lstrip("+-").isdigit() or len(raw) > 30:
        raise InvalidArgument(f"{flag}={text!r} must be an int in [{low}, {high}]")
    value = int(raw)
    if not low <= value <= high:
        raise InvalidArgument(f"{flag}={value} must be an int in [{low}, {high}]")
    return value
