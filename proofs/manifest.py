"""Every numbered result of each paper (the ledger's target list).

Taken from ../shared/notes inventories (000/004: section 4.5 counts) and
checked against the papers.  Definitions and algorithms are not results;
remarks are included because they make checkable claims.  The ledger may
only use numbers listed here; :func:`pending` lists what has no entry yet.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MANIFEST", "pending"]

_P000: Final = (
    "Observation 3.2", "Theorem 3.3", "Corollary 3.4",
    "Lemma 4.1", "Claim 4.2", "Claim 4.3", "Remark 4.4", "Claim 4.5", "Lemma 4.6",
    "Observation 4.7", "Claim 4.8", "Claim 4.9", "Remark 4.10", "Claim 4.11", "Lemma 4.12",
    "Theorem 4.13", "Theorem 4.14", "Remark 4.15", "Theorem 4.16", "Corollary 4.17",
    "Corollary 4.18",
    "Remark 5.2", "Theorem 5.5", "Theorem 5.6", "Claim 5.7", "Theorem 5.8",
    "Proposition A.1", "Theorem A.3",
    "Theorem B.2", "Theorem B.3", "Theorem B.4", "Theorem B.5", "Theorem B.6",
)

_P004: Final = (
    "Observation 3.2", "Theorem 3.3", "Lemma 3.4",
    "Lemma 4.1", "Theorem 4.2", "Remark 4.3", "Theorem 4.4", "Corollary 4.5", "Corollary 4.6",
    "Remark 5.2", "Theorem 5.5", "Claim 5.6", "Theorem 5.7",
    "Proposition A.1", "Theorem A.3",
    "Theorem B.2", "Theorem B.3", "Theorem B.4", "Theorem B.5", "Theorem B.6",
    "Claim C.1", "Remark C.2", "Claim C.3", "Lemma C.4", "Claim C.5", "Claim C.6", "Claim C.7",
    "Corollary C.8", "Claim C.9", "Lemma C.10", "Theorem C.11", "Theorem C.12",
)

MANIFEST: Final[dict[str, tuple[str, ...]]] = {
    "000": _P000,
    "004": _P004,
    # 001 and 002 are listed by the issues that implement those papers.
    "001": (),
    "002": (),
    "003": ("Lemma 2.5", "Lemma 2.6", "Theorem 3.1", "Lemma 3.2", "Lemma 3.3", "Theorem 4.1",
            "Theorem 4.2", "Theorem 4.3", "Lemma 4.4", "Claim 4.5", "Claim 4.6"),
}


def pending() -> dict[str, tuple[str, ...]]:
    """Numbered results of each paper that have no ledger entry yet."""
    from .registry import all_entries

    covered = {(e.paper, e.number) for e in all_entries()}
    return {paper: tuple(n for n in numbers if (paper, n) not in covered)
            for paper, numbers in MANIFEST.items()}
