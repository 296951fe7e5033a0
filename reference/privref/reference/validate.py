"""Argument validation shared by every module (one place, one message style).

Messages follow ``name=value must be <condition>``.  A finite float is taken at its
*exact binary value* (``0.1`` is 3602879701896397/36028797018963968, the number the float
really holds), which is sound: every verdict is then exact about that number.  Only the
decimal the author may have meant is lost; pass ``'0.1'`` or ``Fraction(1, 10)`` for it.
NaN and infinities are refused.  Decimal strings are read exactly (``'0.1'`` is 1/10).
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction

from .errors import EmptyDataset, InvalidArgument

ExactInput = int | Fraction | str | Decimal | float

MAX_DECIMAL_EXPONENT = 4000
"""Largest |exponent| of a decimal string or Decimal ('1e400' is fine, '1e999999999' is not:
it alone would need billions of bits; 4000 keeps every such number printable)."""

_EXPONENT = re.compile(r"[eE]\s*([+-]?\d+)\s*$")


def _check_exponent(exponent: int, value: object, name: str) -> None:
    if abs(exponent) > MAX_DECIMAL_EXPONENT:
        raise InvalidArgument(f"{name}={value!r} has a decimal exponent beyond "
                              f"±{MAX_DECIMAL_EXPONENT}")


def to_fraction(value: object, name: str) -> Fraction:
    """Convert an exact input to a Fraction: int, Fraction, Decimal, a decimal/fraction string,
    or a finite float (taken at its exact binary value, e.g. 0.5 -> 1/2, 0.1 ->
    3602879701896397/36028797018963968).

    Raises InvalidArgument (naming ``name``) for NaN, infinities, bools, decimal exponents
    beyond ±MAX_DECIMAL_EXPONENT and anything else that is not a finite number.
    """
    if isinstance(value, bool):
        raise InvalidArgument(f"{name}={value!r} must be a number, not a bool")
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise InvalidArgument(f"{name}={value!r} must be a finite number")
        return Fraction(value)  # exact: every finite float is a dyadic rational
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise InvalidArgument(f"{name}={value!r} must be a finite number")
        exponent = value.as_tuple().exponent
        assert isinstance(exponent, int)  # finite
        _check_exponent(exponent, value, name)
        return Fraction(value)
    if isinstance(value, str):
        if len(value) > 10_000:
            raise InvalidArgument(f"{name}: a number of {len(value)} characters is longer than "
                                  "10000")
        match = _EXPONENT.search(value)
        if match is not None:
            _check_exponent(int(match.group(1)), value, name)
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
