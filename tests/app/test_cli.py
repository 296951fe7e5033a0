"""The privref command line: audit table and JSON, lemmas, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from privref.app.cli import main


def test_audit_writes_the_documented_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    """Every result has the documented fields; every claim HOLDS exactly, except a row auditing
    a refuted printed claim, which is VIOLATED as it expects (exit 0).  Six rows of three kinds
    (learner, mechanism, printed claim refuted); every row's verdict and enclosure is pinned by
    tests/app/test_golden_audit_table.py, and README's command runs them all."""
    out = tmp_path / "audit.json"
    assert main(["audit", "--json", str(out), "--only", "randomized response",
                 "--only", "(w+1 refresh", "--only", "exponential learner"]) == 0
    payload = json.loads(out.read_text())
    assert payload["privref_version"]
    assert len(payload["results"]) == 6
    assert {r.get("expected_verdict") for r in payload["results"]} == {"HOLDS", "VIOLATED"}
    for r in payload["results"]:
        for key in ("mechanism", "source", "claimed_epsilon", "claimed_delta", "epsilon_lower",
                    "epsilon_upper", "verdict", "witness"):
            assert key in r
        assert r["verdict"] == r.get("expected_verdict", "HOLDS"), r
        if r["verdict"] == "HOLDS" and r["epsilon_upper"] is not None:
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
    assert main(["audit", "--bogus"]) == 2  # argparse errors are returned, not raised
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err
    assert main([]) == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith("privref: error: a COMMAND")


def test_builtin_sources_cite_manifest_results() -> None:
    """Every built-in audit citing paper 000/004 names a numbered result of that paper."""
    from privref.app.suites.builtin import builtin_audits
    from privref.proofs.registry import MANIFEST
    from privref.reference.citations import Citation

    for item in builtin_audits():
        source = item.mechanism.source
        assert isinstance(source, Citation), source
        if MANIFEST.get(source.paper):
            assert source.number in MANIFEST[source.paper], source


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


# ---------------------------------------------------------------- exit codes and outputs


def _last_err(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err.strip().splitlines()[-1]


def test_help_lists_every_command_and_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    """privref --help names every command (the black-box auditor too) and documents 0-4."""
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("audit ", "audit blackbox", "lemmas", "learn", "illustrate"):
        assert f"\n  {command}" in out, command
    for code in range(5):
        assert f"\n  {code}  " in out
    for argv in (["audit"], ["audit", "blackbox"], ["lemmas"], ["learn"], ["illustrate"]):
        assert main([*argv, "--help"]) == 0
        assert "exit status:" in capsys.readouterr().out, argv


@pytest.mark.parametrize("argv, flag", [
    (["audit", "--only", "randomized response", "--json", "{tmp}"], "--json"),
    (["audit", "--only", "randomized response", "--json", "{tmp}/missing/x.json"], "--json"),
    (["audit", "--only", "randomized response", "--json", ""], "--json"),
    (["audit", "--only", ""], "--only"),
    (["lemmas", "--id", "Observation 3.2", "--markdown", "{tmp}"], "--markdown"),
    (["lemmas", "--id", ""], "--id"),
])
def test_unusable_outputs_are_usage_errors_before_the_run(
        argv: list[str], flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A directory, a missing folder or an empty path: exit 2, one line naming the flag."""
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    captured = capsys.readouterr()
    last = captured.err.strip().splitlines()[-1]
    assert last.startswith(f"privref {argv[0]}: error: ") and flag in last
    assert captured.out == ""  # refused before any audit ran
    assert list(tmp_path.iterdir()) == []


def test_a_write_failure_mid_run_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    """/dev/full passes the early check but the write fails: exit 3 (not 1 = violation)."""
    assert main(["audit", "--only", "randomized response", "--json", "/dev/full"]) == 3
    last = _last_err(capsys)
    assert last.startswith("privref audit: error: --json /dev/full: could not write")
    assert main(["lemmas", "--id", "Observation 3.2", "--markdown", "/dev/full"]) == 3
    assert "--markdown /dev/full" in _last_err(capsys)


def test_an_unexpected_exception_is_one_line_exit_3(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A bug prints one 'internal error' line, no traceback (PRIVREF_DEBUG=1 shows it)."""
    import privref.app.suites.builtin as builtin

    def broken(**kwargs: object) -> list[object]:
        raise ZeroDivisionError("boom\nsecond line")

    monkeypatch.setattr(builtin, "builtin_audits", broken)
    monkeypatch.delenv("PRIVREF_DEBUG", raising=False)
    assert main(["audit"]) == 3
    err = capsys.readouterr().err
    assert err == "privref audit: internal error: ZeroDivisionError: boom second line\n"
    monkeypatch.setenv("PRIVREF_DEBUG", "1")
    assert main(["audit"]) == 3
    assert "Traceback (most recent call last)" in capsys.readouterr().err


def test_blackbox_errors_are_named_after_the_subcommand(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    assert main(["audit", "blackbox", "no_such_module_xyz:f", "--epsilon", "1",
                 "--samples", "-5"]) == 2
    assert _last_err(capsys).startswith("privref audit blackbox: error: --samples")


def test_exit_codes_of_verdicts(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    """VIOLATED -> 1; UNDECIDED without a violation -> 4; all HOLDS -> 0."""
    from privref.app.commands import cli
    from privref.audits import exact
    from privref.audits.exact import Verdict

    real_audit = exact.audit
    for verdict, code in ((Verdict.HOLDS, 0), (Verdict.UNDECIDED, 4), (Verdict.VIOLATED, 1)):
        def fake(*args: object, _v: Verdict = verdict, **kwargs: object) -> exact.AuditReport:
            import dataclasses
            return dataclasses.replace(real_audit(*args, **kwargs),  # type: ignore[arg-type]
                                       verdict=_v)
        monkeypatch.setattr(exact, "audit", fake)
        assert cli.main(["audit", "--only", "randomized response"]) == code, verdict
    capsys.readouterr()


def test_progress_lines_go_to_stderr_and_quiet_silences_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lemmas", "--check", "--id", "Group privacy"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("[1/") and "Group privacy" in err
    assert main(["lemmas", "--check", "--id", "Group privacy", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_table4_without_the_realdata_extra_names_it(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Without scipy/scikit-learn the table4 command is a usage error naming the extra; every
    other command (privref audit) still works."""
    import sys

    import privref.app.commands
    monkeypatch.setitem(sys.modules, "privref.app.commands.table4", None)  # import fails
    monkeypatch.delattr(privref.app.commands, "table4", raising=False)
    assert main(["table4", "--runs", "2"]) == 2
    err = capsys.readouterr().err
    assert "privref table4: error: the 'realdata' extra is not installed" in err
    assert "pip install 'privref[realdata]'" in err
    assert main(["audit", "--only", "randomized response"]) == 0
    assert main(["audit", "--bogus"]) == 2


def test_audit_curves_adds_the_exact_curves(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    """``--curves``: each selected mechanism row gains its exact curves in the JSON and a line in
    a second table; randomized response 3/4 has μ* = 2Φ⁻¹(3/4) = 1.3489795 and D_∞ = ln 3; the
    continuous Laplace mechanism gets its profile only (μ and ρ need finitely many outputs)."""
    out = tmp_path / "audit.json"
    assert main(["audit", "--only", "randomized response", "--only", "Laplace mechanism",
                 "--curves", "--json", str(out)]) == 0
    rows = {r["mechanism"]: r for r in json.loads(out.read_text())["results"]}
    rr = rows["randomized response"]["curves"]
    assert rr["mu"]["lower_float"] <= 1.3489795003921634 <= rr["mu"]["upper_float"]
    assert rr["renyi_infinity"]["lower_float"] <= 1.0986122886681098
    assert len(rr["profile"]) == 5 and rr["profile"][0]["delta"]["lower"] == "1/2"
    laplace = rows["Laplace mechanism (continuous)"]["curves"]
    assert laplace["mu"] is None and laplace["rho"] is None and len(laplace["profile"]) == 5
    assert "exact worst-case mu (GDP)" in capsys.readouterr().out
