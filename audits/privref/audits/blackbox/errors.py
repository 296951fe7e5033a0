"""The black-box auditor's errors about targets: loading, calling, and their outcomes.

All are PrivrefErrors (usage errors of the command line, exit status 2; docs/blackbox.md).
"""

from __future__ import annotations

from privref.reference.errors import PrivrefError

__all__ = ["OutcomeError", "TargetCallError", "TargetError", "TargetLoadError", "TargetTimeout"]


class TargetError(PrivrefError):
    """The black-box target cannot be loaded, raised, or returned unusable outcomes."""


class TargetLoadError(TargetError):
    """The target cannot be imported, has no such attribute, or is not callable."""


class TargetCallError(TargetError):
    """The target raised; the message names the target, the input and the exception."""


class OutcomeError(TargetError):
    """An outcome is unsupported (unhashable, NaN) or inconsistent with earlier draws."""


class TargetTimeout(TargetCallError):
    """A call of the target did not return within the per-call timeout; the message names both."""
