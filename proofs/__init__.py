"""privref's lemma ledger: every numbered result of the papers, with executable checks."""

from ._ledger import Check, CheckResult, Entry, Kind, Status, Verdict

__all__ = ["Check", "CheckResult", "Entry", "Kind", "Status", "Verdict"]
