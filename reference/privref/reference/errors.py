"""The one exception hierarchy of privref.

Every error privref raises on bad input derives from :class:`PrivrefError`
(itself a ``ValueError``), and its message names the offending argument and
the limit it broke, in the form ``epsilon=-1 must be >= 0``.
"""

from __future__ import annotations

__all__ = [
    "EmptyDataset",
    "InexactNumber",
    "InvalidArgument",
    "NotNeighboring",
    "OutputError",
    "PrivrefError",
    "TooLargeToEnumerate",
    "Undecided",
    "UnknownLabel",
    "UnsupportedProgram",
]


class PrivrefError(ValueError):
    """Root of every error privref raises deliberately."""


class InvalidArgument(PrivrefError):
    """An argument is outside its documented range (e.g. ``delta=1 must be < 1``)."""


class InexactNumber(InvalidArgument):
    """A number that cannot be read exactly where an exact number is required.

    privref no longer raises it for floats (a finite float is read as its exact binary value);
    it stays for callers that catch it.
    """


class EmptyDataset(InvalidArgument):
    """A dataset that must be non-empty was empty."""


class UnknownLabel(InvalidArgument):
    """A label outside {0, 1, ⊥} was given."""


class NotNeighboring(PrivrefError):
    """Two datasets claimed to be neighbors are not, under the stated relation."""


class TooLargeToEnumerate(PrivrefError):
    """An exact enumeration would exceed its limit (universe, class, or execution paths)."""


class Undecided(PrivrefError):
    """Exact or interval arithmetic could not decide a comparison the caller must branch on.

    Raised by :mod:`privref.reference.decide` where a bool or an integer is required; a
    three-valued caller gets UNDECIDED instead and never reads it as yes or no.
    """


class UnsupportedProgram(PrivrefError):
    """A probabilistic program does something its interpreter cannot handle exactly."""


class OutputError(PrivrefError):
    """A result could not be written (a full disk, a path that vanished mid-run).

    The command line exits with status 3 on it; an output path that is unusable before the run
    starts (a directory, a missing folder, no permission) is a usage error instead
    (:class:`InvalidArgument`, status 2).
    """
