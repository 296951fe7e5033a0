"""Helpers shared by the ``privref account`` subcommands: exact flag values checked against
their documented ranges (InvalidArgument naming the flag and the limit), and the one way an
enclosure is printed and written to ``--json``."""

from __future__ import annotations

import argparse
import math
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from privref import reference
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.reals import Interval
from privref.reference.validate import to_fraction

from ..reports.output import check_output_path, write_json

__all__ = ["Clock", "add_json", "count", "emit", "exact_text", "json_path", "number", "show"]


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


def _digits(x: Fraction, places: int) -> str:
    """x to ``places`` significant digits; below the floats' range as ~1e-N (display only)."""
    value = float(x)
    if value != 0 or x == 0:
        return f"{value:.{places}g}"
    bits = x.numerator.bit_length() - x.denominator.bit_length()  # x ≈ 2^bits
    return f"~1e{math.floor(bits * math.log10(2))}"


_MAX_TEXT_BITS = 12_000
"""Exact fractions whose numerator or denominator has more bits than this (about 3,600 digits,
under Python's 4,300-digit limit on int-to-text conversion) are written rounded outward to 64
significant bits, as ``m/2^k``."""


def exact_text(x: Fraction, *, up: bool) -> str:
    """The exact fraction as text; a huge one (e.g. δ ≈ 2^-2^20) rounded outward (up when
    ``up``, else down) to a 64-bit dyadic written ``m/2^k``, still a valid end."""
    if max(x.numerator.bit_length(), x.denominator.bit_length()) <= _MAX_TEXT_BITS:
        return str(x)
    box = Interval.point(x).rounded(64)
    end = box.hi if up else box.lo
    k = end.denominator.bit_length() - 1  # a dyadic: the denominator is 2^k
    return f"{end.numerator}/2^{k}" if k else str(end.numerator)


def show(box: Interval) -> str:
    """[lo, hi] to 10 significant digits (display only; the JSON has the exact ends)."""
    return f"[{_digits(box.lo, 10)}, {_digits(box.hi, 10)}]"


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
    return f"width {_digits(width, 3)}{relative}"


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
        "lower": exact_text(box.lo, up=False), "upper": exact_text(box.hi, up=True),
        "lower_float": float(box.lo), "upper_float": float(box.hi),
        "width": exact_text(box.width, up=True), "width_float": float(box.width),
        "relative_width_float": None if box.hi == 0 else float(box.width / abs(box.hi)),
    }
    payload.update(extra or {})
    payload["seconds"] = clock.seconds()
    if path is not None:
        write_json(path, payload, flag="--json")
        print(f"wrote {path}")
    return 0
