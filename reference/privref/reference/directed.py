"""exp and log of exact rationals, bounded from below and above (arb's rigorous balls).

:func:`exp_bounds` and :func:`log_bounds` return an :class:`~privref.reference.reals.Interval` with
exact rational ends that contains the exact value, at about ``prec`` bits.  They are the fast
path (a few microseconds, against a few hundred for
:func:`~privref.reference.reals.interval_exp`) for code that needs many enclosures of elementary
functions at plain rationals, such as the Rényi divergences of :mod:`privref.audits.renyi`.
Magnitudes follow :mod:`privref.reference._arb`'s policy (a value below 2^-MAX_EXPONENT is
widened to 0; one above 2^MAX_EXPONENT raises TooLargeToEnumerate).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from . import _arb
from .errors import InvalidArgument
from .reals import Interval
from .validate import check_int

__all__ = ["exp_bounds", "exp_sum_bounds", "log_bounds"]


def _prec(prec: object) -> int:
    return check_int(prec, "prec", minimum=16, maximum=1 << 16)


def exp_bounds(x: Fraction | int, prec: int = 64) -> Interval:
    """[lo, hi] containing e^x for the exact rational x (arb's exp; about ``prec`` bits)."""
    with _arb.working_precision(_prec(prec)):
        return _arb.to_interval(_arb.ball(Fraction(x)).exp(), "exp(x)")


def log_bounds(x: Fraction | int, prec: int = 64) -> Interval:
    """[lo, hi] containing ln x for the exact rational x > 0 (InvalidArgument otherwise)."""
    q = Fraction(x)
    if q <= 0:
        raise InvalidArgument(f"x={q} must be > 0 for its log")
    with _arb.working_precision(_prec(prec)):
        return _arb.to_interval(_arb.ball(q).log(), "log(x)")


def exp_sum_bounds(exponents: Sequence[Fraction], prec: int = 64) -> Interval:
    """[lo, hi] containing Σ_i e^(x_i) for exact rationals x_i (0 for an empty sum), summed in
    arb at about ``prec`` bits."""
    with _arb.working_precision(_prec(prec)):
        total = _arb.ball(0)
        for x in exponents:
            total = total + _arb.ball(x).exp()
        return _arb.to_interval(total, "a sum of exponentials")
