"""Argument validation shared by every module (one place, one message style).

Messages follow ``name=value must be <condition>``.  Floats are refused
wherever an exact value is needed, because a binary float rarely equals the
number its author meant (0.1 is not 1/10) and privref's verdicts are exact.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from .errors import EmptyDataset, InexactNumber, InvalidArgument

ExactInput = int | Fraction | str | Decimal


def to_fraction(value: object, name: str) -> Fraction:
    """Convert an exact input (int, Fraction, Decimal, or a decimal/fraction string) to Fraction.

    Raises InexactNumber for floats (with the reason) and InvalidArgument for
    anything else that is not an exact finite number.
    """
    if isinstance(value, bool):
        raise InvalidArgument(f"{name}={value!r} must be a number, not a bool")
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise InvalidArgument(f"{name}={value!r} must be a finite number")
        raise InexactNumber(
            f"{name}={value!r} is a float; pass an exact value instead "
            f"(int, Fraction, or a string such as '{Fraction(str(value))}'), because a binary "
            "float rarely equals the decimal it was typed as and privref decides verdicts exactly"
        )
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise InvalidArgument(f"{name}={value!r} must be a finite number")
        return Fraction(value)
    if isinstance(value, str):
        try:
            result = Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise InvalidArgument(
                f"{name}={value!r} is not a number (expected e.g. '1/2' or '0.25')"
            ) from None
        return result
    raise InvalidArgument(f"{name}={value!r} must be an int, Fraction, Decimal or string")


def check_nonnegative(value: Fraction, name: str) -> Fraction:
    """Return ``value`` if it is >= 0, else raise InvalidArgument naming ``name``."""
    if value < 0:
        raise InvalidArgument(f"{name}={value} must be >= 0")
    return value


def check_positive(value: Fraction, name: str) -> Fraction:
    """Return ``value`` if it is > 0, else raise InvalidArgument naming ``name``."""
    if value <= 0:
        raise InvalidArgument(f"{name}={value} must be > 0")
    return value


def check_probability(value: Fraction, name: str, *, open_low: bool = False,
                      open_high: bool = False) -> Fraction:
    """Return ``value`` if it lies in [0, 1] (ends opened as requested), else raise."""
    low_ok = value > 0 if open_low else value >= 0
    high_ok = value < 1 if open_high else value <= 1
    if not (low_ok and high_ok):
        interval = ("(" if open_low else "[") + "0, 1" + (")" if open_high else "]")
        raise InvalidArgument(f"{name}={value} must lie in {interval}")
    return value


def check_delta(value: object, name: str = "delta") -> Fraction:
    """Validate a DP delta: an exact number with 0 <= delta < 1."""
    delta = to_fraction(value, name)
    if delta < 0:
        raise InvalidArgument(f"{name}={delta} must be >= 0")
    if delta >= 1:
        raise InvalidArgument(f"{name}={delta} must be < 1")
    return delta


def check_int(value: object, name: str, *, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """Validate an integer argument with optional inclusive bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name}={value!r} must be an int")
    if minimum is not None and value < minimum:
        raise InvalidArgument(f"{name}={value} must be >= {minimum}")
    if maximum is not None and value > maximum:
        raise InvalidArgument(f"{name}={value} must be <= {maximum}")
    return value


def check_nonempty(size: int, name: str) -> None:
    """Raise EmptyDataset when a dataset that must be non-empty has size 0."""
    if size == 0:
        raise EmptyDataset(f"{name} is empty; it must hold at least one example")
