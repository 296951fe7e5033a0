"""The drift test: docs/ledger.md's source fingerprints match the code the entries check.

A fingerprint is a short SHA-256 of the source of an entry's subjects, so this test fails on
*any* edit of a checked module, a comment included.  Its failure alone says nothing about
behaviour: it says that the ledger page was generated from other code, and is labelled
DRIFT.  It is marked ``drift`` (``pytest -m "not drift"`` runs the behaviour tests alone;
the mutation harness does so, so that a mutant killed only here is not counted as killed by
behaviour).  The rest of docs/ledger.md is compared in tests/proofs/test_ledger.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from privref.proofs.registry import all_entries
from privref.proofs.report import ledger_markdown, subject_fingerprint

_FINGERPRINT = re.compile(r" [0-9a-f]{12} \|$", re.MULTILINE)


def without_fingerprints(markdown: str) -> str:
    """The ledger page with each row's trailing source fingerprint removed."""
    return _FINGERPRINT.sub(" |", markdown)


def _fingerprints(markdown: str) -> list[str]:
    return [m.group(0)[1:13] for m in _FINGERPRINT.finditer(markdown)]


def test_without_fingerprints_removes_exactly_the_fingerprints() -> None:
    text = "| a | reference.vc.xor_class 4b4c1bf1e3bc |\n| b | none |\n"
    assert without_fingerprints(text) == "| a | reference.vc.xor_class |\n| b | none |\n"
    assert _fingerprints(text) == ["4b4c1bf1e3bc"]


@pytest.mark.drift
def test_ledger_fingerprints_match_the_code() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "ledger.md"
    pinned, now = _fingerprints(doc.read_text(encoding="utf-8")), _fingerprints(ledger_markdown())
    expected = [subject_fingerprint(e) for e in all_entries() if e.subjects]
    assert now == expected
    stale = sum(a != b for a, b in zip(pinned, now, strict=False)) + abs(len(pinned) - len(now))
    assert stale == 0, (
        f"DRIFT (not a behaviour failure): {stale} ledger entries check code that changed since "
        "docs/ledger.md was generated; review the entries, then regenerate with: privref lemmas "
        "--markdown docs/ledger.md")
