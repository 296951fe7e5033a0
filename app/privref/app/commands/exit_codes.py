"""The exit codes of the ``privref`` command (printed by ``privref --help``: :data:`EXIT_CODES`)."""

from __future__ import annotations

__all__ = ["EXIT_CODES", "EXIT_INTERNAL", "EXIT_NOTHING_CHECKED", "EXIT_OK", "EXIT_TARGET",
           "EXIT_UNDECIDED", "EXIT_USAGE", "EXIT_VIOLATION"]

EXIT_OK = 0
"""No violation found: every audit HOLDS, every ledger check agrees, the experiment finished."""
EXIT_VIOLATION = 1
"""A violation: an exact audit VIOLATED (a built-in row that expects VIOLATED, auditing a claim
the ledger refutes as printed, exits 1 when it does not find it), a black-box VIOLATION, a
ledger check contradicting its recorded status."""
EXIT_USAGE = 2
"""A usage error: unknown command or flag, a bad value, an output path unusable before the run."""
EXIT_INTERNAL = 3
"""The run failed: a result could not be written (OutputError, any OSError) or an internal
error (a bug: one line ``internal error: Type: message``; ``PRIVREF_DEBUG=1`` shows the
traceback)."""
EXIT_UNDECIDED = 4
"""``privref audit`` only: nothing VIOLATED, but at least one verdict is UNDECIDED (exact
arithmetic could not decide the claim at the maximum precision), so the claims are not all
proved to hold."""
EXIT_TARGET = 5
"""Black-box audits: the audited target failed, so nothing was concluded about it: it raised
(any exception, ``SystemExit`` and ``KeyboardInterrupt`` included), exited or killed its
process, overran the per-call timeout, returned nothing (``None``) or an outcome that cannot be
compared by value, or an outcome larger than the documented limit (docs/blackbox.md).
``privref check-accountant``: the library failed to import, or a call raised, overran
``--task-timeout`` or returned NaN, and no answer is unsafe (docs/accountant-check.md)."""
EXIT_NOTHING_CHECKED = 6
"""Nothing was checked: every entry of a black-box suite was skipped (a missing library, or
``--only`` selecting nothing runnable); ``--allow-empty`` turns this into exit 0.
``privref check-accountant``: the library is not installed (``all``: none is)."""

EXIT_CODES = f"""\
exit status:
  {EXIT_OK}  no violation: every audit HOLDS / NO_VIOLATION_FOUND, every ledger check
     agrees with its recorded status, the experiment finished
  {EXIT_VIOLATION}  violation: an exact audit is VIOLATED (other than a row auditing a printed
     claim the ledger refutes, whose VIOLATED is expected; such a row that HOLDS also exits
     1), a black-box audit finds a VIOLATION, a ledger check contradicts its status, or
     check-accountant proves a library's bound unsafe
  {EXIT_USAGE}  usage error: unknown command or flag, malformed or out-of-range value, or an
     output path that is unusable before the run (missing folder, a directory)
  {EXIT_INTERNAL}  the run failed: a result could not be written (disk full, ...), or an
     internal error (set PRIVREF_DEBUG=1 for the traceback)
  {EXIT_UNDECIDED}  privref audit: nothing VIOLATED, but some verdict is UNDECIDED
     (exact arithmetic could not decide it): the claims are not all proved
  {EXIT_TARGET}  a black-box target failed: it raised, exited, was killed, overran
     --timeout, returned None, or an outcome that cannot be compared or is too large;
     check-accountant: the library failed to import, or a call raised, overran
     --task-timeout or returned NaN
  {EXIT_NOTHING_CHECKED}  nothing was checked: every suite entry was skipped (--allow-empty: 0),
     or the library given to check-accountant is missing (not importable)
"""
