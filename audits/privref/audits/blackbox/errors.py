"""The black-box auditor's errors about targets: loading, calling, and their outcomes.

All are PrivrefErrors.  A target that cannot be loaded is a usage error of the command line
(:class:`TargetLoadError`, exit status 2); a target that was loaded but failed while it was
audited is a :class:`TargetFailure` (exit status 5): nothing was concluded about it
(docs/blackbox.md, "When the target fails").
"""

from __future__ import annotations

from privref.reference.errors import PrivrefError

__all__ = ["MissingDependency", "OutcomeError", "TargetCallError", "TargetError", "TargetExited",
           "TargetFailure", "TargetLoadError", "TargetTimeout"]


class MissingDependency(PrivrefError):
    """A target's library is not installed, or is installed but cannot be imported.

    The message names the target, the library and how to install it (for a registered adapter,
    the pip extra that installs compatible versions, ``pip install 'privref[opendp]'``).  A
    suite skips the entry (``privref blackbox-suite``); a single audit stops with the message.
    """


class TargetError(PrivrefError):
    """The black-box target cannot be loaded, raised, or returned unusable outcomes."""


class TargetLoadError(TargetError):
    """The target cannot be imported, has no such attribute, or is not callable."""


class TargetFailure(TargetError):
    """The target failed while it was audited, so the audit concluded nothing (exit status 5)."""


class TargetCallError(TargetFailure):
    """The target raised (any exception, ``SystemExit`` and ``KeyboardInterrupt`` included);
    the message names the target, the input and the exception."""


class OutcomeError(TargetFailure):
    """An outcome is refused (None, unhashable, compared by identity, too large) or
    inconsistent with earlier draws; the message names the draw and the rule."""


class TargetTimeout(TargetCallError):
    """A call of the target did not return within the per-call timeout; the message names both."""


class TargetExited(TargetFailure):
    """The process running the target ended during a call (``os._exit``, a signal, a crash)
    without returning; the message gives the exit status or the signal."""
