"""The ledger's display-only number text: decimals for evidence strings, never for decisions.

Every check's evidence shows exact numbers next to a short decimal reading; this module is the
one place that turns them into text (it replaces the per-module ``_d``/``_fmt`` helpers):

* :func:`decimal` -- a decimal reading (``0.00403``) of an int, Fraction, Real or float;
* :func:`fixed` -- a reading with a fixed number of decimal places (``0.5108``);
* :func:`exact_and_decimal` -- the exact rational and its reading (``1/3 ≈ 0.3333``);
* :func:`interval_text` -- an enclosure as ``[lo, hi]`` in decimals.

Nothing here decides anything: a decimal is rounded (a Real's is the midpoint of an enclosure,
:meth:`privref.reference.reals.Real.__float__`), so decisions go through
:mod:`privref.reference.decide` and only their operands are printed here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TypeAlias

from privref.reference.reals import Interval, Real

__all__ = ["Shown", "decimal", "exact_and_decimal", "fixed", "interval_text"]

Shown: TypeAlias = Real | Fraction | int | float
"""A number the evidence text may show (a float only when it is itself the thing shown)."""


def decimal(x: Shown, digits: int = 6) -> str:
    """``x`` to ``digits`` significant digits (``%g`` style), display only (ledger evidence)."""
    return f"{float(x):.{digits}g}"


def fixed(x: Shown, places: int = 4) -> str:
    """``x`` with ``places`` decimal places (``%f`` style), display only (ledger evidence)."""
    return f"{float(x):.{places}f}"


def exact_and_decimal(q: Fraction | int, places: int = 4) -> str:
    """``q ≈ d`` with the exact rational first and ``places`` decimal places (ledger evidence)."""
    return f"{q} ≈ {fixed(q, places)}"


def interval_text(box: Interval, digits: int = 6) -> str:
    """``[lo, hi]`` of an enclosure, each end to ``digits`` significant digits (ledger evidence).

    The ends are rounded for display, so the text need not enclose the value; the exact ends
    are ``box.lo`` and ``box.hi``.
    """
    return f"[{decimal(box.lo, digits)}, {decimal(box.hi, digits)}]"
