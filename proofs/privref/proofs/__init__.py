"""privref's lemma ledger: every numbered result of the papers, with executable checks."""

if __name__ != "privref.proofs":  # one importable name per module (docs/layout.md)
    raise ImportError(f"import privref.proofs, not {__name__}: this folder is privref.proofs")

from ._ledger import Check, CheckResult, Entry, Kind, Status, Verdict

__all__ = ["Check", "CheckResult", "Entry", "Kind", "Status", "Verdict"]
