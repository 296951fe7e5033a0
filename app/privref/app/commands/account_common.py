"""Helpers shared by the ``privref account`` subcommands: exact flag values checked against
their documented ranges (InvalidArgument naming the flag and the limit), and the one way an
enclosure is printed and written to ``--json``."""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from privref import reference
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.reals import Interval
from privref.reference.validate import to_fraction

from ..reports.output import check_output_path, write_json

__all__ = ["Clock", "add_json", "count", "emit", "json_path", "number", "show"]


def number(text: str, flag: str, *, low: Fraction, high: Fraction | None,
           low_open: bool = True, high_open: bool = True) -> Fraction:
    """An exact number within its range; InvalidArgument naming ``flag``."""
    try:
        value = to_fraction(text, flag)
    except PrivrefError:
        raise InvalidArgument(f"{flag}={text!r} is not an exact number (e.g. '1/2' or "
                              "'0.25')") from None
    shown = text if len(text) <= 30 else text[:27] + "..."
    above = value > low if low_open else value >= low
    below = True if high is None else (value < high if high_open else value <= high)
    if not (above and below):
        left = "(" if low_open else "["
        right = "∞)" if high is None else f"{high}{')' if high_open else ']'}"
        raise InvalidArgument(f"{flag}={shown} must lie in {left}{low}, {right}")
    return value


def count(text: str, flag: str, limit: int) -> int:
    """An int in [1, limit] written in decimal digits; InvalidArgument naming ``flag``."""
    raw = text.strip()
    if not raw.isdigit() or len(raw) > len(str(limit)) or not 1 <= int(raw) <= limit:
        shown = text if len(text) <= 30 else text[:27] + "..."
        raise InvalidArgument(f"{flag}={shown!r} must be an int in [1, {limit}]")
    return int(raw)


def add_json(parser: argparse.ArgumentParser) -> None:
    """The ``--json PATH`` flag."""
    parser.add_argument("--json", metavar="PATH", default=None,
                        help="also write the result as JSON to PATH")


def json_path(args: argparse.Namespace) -> Path | None:
    """``--json``'s path checked writable before any work (InvalidArgument otherwise)."""
    return None if args.json is None else check_output_path("--json", args.json)


def show(box: Interval) -> str:
    """[lo, hi] to 10 significant digits (display only; the JSON has the exact ends)."""
    return f"[{float(box.lo):.10g}, {float(box.hi):.10g}]"


class Clock:
    """Wall seconds since construction (reported, never asserted)."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def seconds(self) -> float:
        """Elapsed seconds, rounded to ms."""
        return round(time.perf_counter() - self.start, 3)


def _width_line(box: Interval) -> str:
    width = box.width
    relative = "" if box.hi == 0 else f" ({float(width / abs(box.hi)):.2g} relative)"
    return f"width {float(width):.3g}{relative}"


def emit(label: str, box: Interval, *, path: Path | None, clock: Clock, accountant: str,
         relation: str, parameters: dict[str, Any], quantity: str,
         extra: dict[str, Any] | None = None, note: str | None = None) -> int:
    """Print ``label: [lo, hi]`` with its width, relation and ``note``; write the JSON when
    asked."""
    print(f"{label}: {show(box)}")
    print(f"  {_width_line(box)}; relation: {relation}")
    if note is not None:
        print(f"  ({note})")
    payload: dict[str, Any] = {
        "privref_version": reference.__version__,
        "accountant": accountant,
        "relation": relation,
        "parameters": parameters,
        "quantity": quantity,
        "lower": str(box.lo), "upper": str(box.hi),
        "lower_float": float(box.lo), "upper_float": float(box.hi),
        "width": str(box.width), "width_float": float(box.width),
        "relative_width_float": None if box.hi == 0 else float(box.width / abs(box.hi)),
    }
    payload.update(extra or {})
    payload["seconds"] = clock.seconds()
    if path is not None:
        write_json(path, payload, flag="--json")
        print(f"wrote {path}")
    return 0
