"""The halving report (privref.proofs.halving): each named constant is halved, run, restored."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from privref.proofs import halving
from privref.proofs._ledger import Check, CheckResult, Verdict
from privref.proofs.p002 import prelims
from privref.proofs.registry import all_entries, entry_by_id
from privref.reference.errors import InvalidArgument

LEMMA4_TAIL = "002 Lemma 4 / tail |H|·r^{−t} (mistakes)"


def test_halving_is_exact_and_keeps_integers() -> None:
    assert halving.halved(136) == 68 and isinstance(halving.halved(136), int)
    assert halving.halved(41) == F(41, 2)
    assert halving.halved(F(1, 3)) == F(1, 6)


def test_a_halved_constant_is_run_and_restored() -> None:
    check = next(c for c in entry_by_id(LEMMA4_TAIL).checks if c.constant is not None)
    assert check.constant == "TAIL_SCALE"
    result = halving.run_halved(check)
    assert result.verdict is Verdict.VIOLATED
    assert prelims.TAIL_SCALE == 1
    report = halving.halving_report([entry_by_id(LEMMA4_TAIL)])
    assert [o.fails for o in report.outcomes] == [True] and report.unnamed == ()


def test_an_unnamed_or_private_constant_is_refused() -> None:
    def run() -> CheckResult:
        return CheckResult(Verdict.HOLDS, "")
    with pytest.raises(InvalidArgument, match="names no constant"):
        halving.run_halved(Check("no constant", run))
    with pytest.raises(InvalidArgument, match="public int or Fraction"):
        halving.run_halved(Check("private", run, constant="_PRIVATE"))
    with pytest.raises(InvalidArgument, match="public int or Fraction"):
        halving.run_halved(Check("missing", run, constant="NO_SUCH_NAME"))


def test_every_named_constant_is_a_public_number_of_its_module() -> None:
    named = [c for e in all_entries() for c in e.checks if c.constant is not None]
    assert named
    for c in named:
        value = getattr(halving.constant_module(c), c.constant or "")
        assert isinstance(value, int | F) and not isinstance(value, bool), c.name


def test_reviewed_names_are_checks_with_constants() -> None:
    names = {c.name for e in all_entries() for c in e.checks if c.constant is not None}
    assert set(halving.REVIEWED) <= names


@pytest.mark.deep
def test_docs_halved_constants_is_current() -> None:
    """The reviewed list in docs/ is the one the code gives, and every survivor is reviewed."""
    from pathlib import Path
    entries = all_entries()
    report = halving.halving_report(entries)
    assert report.unreviewed == (), "review these in privref.proofs.halving.REVIEWED"
    doc = Path(__file__).resolve().parents[2] / "docs" / "halved-constants.md"
    assert doc.read_text(encoding="utf-8") == halving.halving_markdown(report, len(entries)), (
        "regenerate with: privref lemmas --halved docs/halved-constants.md")
