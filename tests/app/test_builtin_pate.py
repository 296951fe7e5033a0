"""The paper-001 rows of ``privref audit``: verdicts, expected violations and exit codes."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from privref.app.commands import cli
from privref.app.suites.pate import pate_audits
from privref.app.suites.row import BuiltinAudit
from privref.audits.exact import audit
from privref.reference.citations import cite
from privref.reference.errors import InvalidArgument
from privref.reference.verdict import Verdict


def test_each_row_reaches_its_expected_verdict() -> None:
    """Every 001 row reaches its expected verdict; exactly two expect VIOLATED (Algorithm 6
    printed, over discrete and over continuous Laplace noise)."""
    rows = pate_audits(False)
    assert [r.label for r in rows if r.expect is Verdict.VIOLATED] == [
        "sparse vector as printed (w+1 refresh, printed lambda) [001 Algorithm 6]",
        "sparse vector as printed, continuous Lap(lambda), Lap(2 lambda) [001 Algorithm 6]"]
    for row in rows:
        report = audit(row.mechanism, row.universe, claim=row.claim, distance=row.distance)
        assert report.verdict is row.expect, row.label
        if row.expect is Verdict.HOLDS:
            assert report.epsilon_upper is not None
            assert report.epsilon_upper <= row.mechanism.claim.epsilon.enclose(64).lo


def test_the_printed_sparse_vector_loses_more_than_it_claims() -> None:
    """The expected violations are real: the exact worst case exceeds the printed 1/100."""
    for row in (r for r in pate_audits(False) if r.expect is Verdict.VIOLATED):
        report = audit(row.mechanism, row.universe)
        assert report.epsilon_lower > row.mechanism.claim.epsilon.enclose(64).hi


def test_a_row_expecting_violated_must_cite_the_printed_statement() -> None:
    """expect=VIOLATED and a '(printed)' citation go together, both ways."""
    row = pate_audits(False)[0]
    with pytest.raises(InvalidArgument, match="printed"):
        BuiltinAudit(row.mechanism, row.universe, expect=Verdict.VIOLATED)
    with pytest.raises(InvalidArgument, match="printed"):
        BuiltinAudit(row.mechanism, row.universe, source=cite("001 Lemma 45 (printed)"))
    with pytest.raises(InvalidArgument, match="expect="):
        BuiltinAudit(row.mechanism, row.universe, expect=Verdict.UNDECIDED)


def _run(monkeypatch: pytest.MonkeyPatch, rows: list[BuiltinAudit], tmp_path: Path
         ) -> tuple[int, list[dict[str, object]]]:
    monkeypatch.setattr("privref.app.suites.builtin.pate_audits", lambda deep: rows)
    monkeypatch.setattr("privref.app.suites.renyi.renyi_audits", lambda deep: [])  # also "001 Algorithm"
    out = tmp_path / "a.json"
    code = cli.main(["audit", "--only", "001 Algorithm", "--json", str(out)])
    return code, json.loads(out.read_text())["results"]


def test_exit_code_follows_the_expected_verdict(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """An expected VIOLATED exits 0; a printed claim that no longer fails, or an unexpected
    VIOLATED, exits 1 (the result contradicts the ledger)."""
    rows = pate_audits(False)
    printed = next(r for r in rows if r.expect is Verdict.VIOLATED)
    corrected = next(r for r in rows if "corrected" in (r.label or ""))
    code, results = _run(monkeypatch, [printed], tmp_path)
    assert code == cli.EXIT_OK
    assert [(r["verdict"], r["expected_verdict"]) for r in results] == [("VIOLATED", "VIOLATED")]
    assert "VIOLATED (expected)" in capsys.readouterr().out
    # the corrected mechanism under the printed row's expectation: HOLDS where VIOLATED was due
    holds = replace(printed, mechanism=corrected.mechanism)
    code, results = _run(monkeypatch, [holds], tmp_path)
    assert code == cli.EXIT_VIOLATION
    assert "HOLDS (expected VIOLATED)" in capsys.readouterr().out
    # the printed mechanism in a row that expects HOLDS: an ordinary violation
    violated = replace(corrected, mechanism=printed.mechanism)
    code, _ = _run(monkeypatch, [violated], tmp_path)
    assert code == cli.EXIT_VIOLATION
