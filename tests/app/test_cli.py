"""The privref command line: audit table and JSON, lemmas, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from privref.app.cli import main


def test_audit_writes_the_documented_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    """Every result has the documented fields; every built-in claim HOLDS exactly."""
    out = tmp_path / "audit.json"
    assert main(["audit", "--json", str(out)]) == 0
    payload = json.loads(out.read_text())
    assert payload["privref_version"]
    assert len(payload["results"]) >= 10
    for r in payload["results"]:
        for key in ("mechanism", "source", "claimed_epsilon", "claimed_delta", "epsilon_lower",
                    "epsilon_upper", "verdict", "witness"):
            assert key in r
        assert r["verdict"] == "HOLDS", r
        if r["epsilon_upper"] is not None:
            assert r["epsilon_lower"] <= r["epsilon_upper"] <= r["claimed_epsilon"] + 1e-12
    table = capsys.readouterr().out
    assert "exact worst-case eps" in table and "004 Proposition A.1" in table


def test_audit_only_filters(capsys: pytest.CaptureFixture[str]) -> None:
    """--only selects rows by name."""
    assert main(["audit", "--only", "randomized response"]) == 0
    out = capsys.readouterr().out
    assert "randomized response" in out and "report-noisy-max" not in out


def test_lemmas_json_schema(tmp_path: Path) -> None:
    """privref lemmas --json writes id, paper, number, statement, status, checks, evidence."""
    out = tmp_path / "lemmas.json"
    assert main(["lemmas", "--json", str(out), "--id", "Proposition A.1"]) == 0
    entries = json.loads(out.read_text())["entries"]
    assert entries and all(e["paper"] in {"000", "004"} for e in entries)
    for e in entries:
        for key in ("id", "paper", "number", "statement", "status", "checks", "evidence"):
            assert key in e


def test_lemmas_check_runs_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    """--check runs the checks of the selected entries and reports agreement."""
    assert main(["lemmas", "--check", "--id", "Group privacy"]) == 0
    assert "all checks agree" in capsys.readouterr().out


def test_errors_are_clear_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad paths and unknown ids give one-line errors, not tracebacks."""
    assert main(["audit", "--json", str(tmp_path / "missing" / "x.json")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["lemmas", "--id", "no such entry"]) == 2
    assert "no ledger entry matches" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["audit", "--bogus"])
    assert exc.value.code == 2
    assert main([]) == 2


def test_builtin_sources_cite_manifest_results() -> None:
    """Every built-in audit citing paper 000/004 names a numbered result of that paper."""
    from privref.app.builtin import builtin_audits
    from privref.app.extra_builtin import EXTRA
    from privref.proofs.manifest import MANIFEST

    for item in builtin_audits(extra=EXTRA):
        source = item.mechanism.source
        paper = source[:3]
        if MANIFEST.get(paper):
            assert source[4:] in MANIFEST[paper], source


def test_audit_only_without_match_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    """--only that matches nothing is refused rather than printing an empty table."""
    assert main(["audit", "--only", "no such mechanism"]) == 2
    assert "no built-in mechanism matches" in capsys.readouterr().err


def test_default_audit_includes_the_reduction_of_paper_003(capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    """The private learner 𝓑 of 003 Algorithm 2 around A_SSPP is audited by default (Claim 4.5)."""
    assert main(["audit", "--only", "𝓑 around A_SSPP"]) == 0
    out = capsys.readouterr().out
    assert "003 Claim 4.5" in out and "HOLDS" in out and "1 audits" in out
