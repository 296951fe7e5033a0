"""``privref audit-library NAME``: the shipped suite of a library, its version check, reports.

A fake library entry (distribution ``privref`` itself, installed here) points at a suite in a
temporary folder: rr (randomized response, keep probability 3/4, true epsilon ln 3) claimed at
ln 3 (correct) and at 1/10 (misconfigured), at confidence 1 - 10^-7.
"""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

from privref.app.cli import main
from privref.audits.libraries import LIBRARIES, LibrarySuite, release

TARGETS = """
from privref.audits.blackbox import declare

@declare(epsilon="ln(3)", relation="substitution", pairs=[[[0], [1]]], library="privref")
def rr(data, rng):
    return data[0] if rng.random() < 0.75 else 1 - data[0]
"""

SUITE = """
[defaults]
samples = 2000
seed = 3
confidence = "0.9999999"

[[target]]
name = "fake:rr<correct>"
target = "targets.py:rr"
expect = "NO_VIOLATION_FOUND"

[[target]]
name = "fake:rr-misconfigured"
target = "targets.py:rr"
epsilon = "1/10"
expect = "VIOLATION"
"""

COVERAGE = """
[[mechanism]]
api = "fake.rr"
noise = "randomized response"
entries = ["fake:rr<correct>", "fake:rr-misconfigured"]

[[mechanism]]
api = "fake.other"
noise = "none"
reason = "not noise-adding"
"""


def _fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, distribution: str = "privref",
          tested: tuple[str, str] = ("0.1", "0.2")) -> None:
    (tmp_path / "targets.py").write_text(textwrap.dedent(TARGETS), encoding="utf-8")
    (tmp_path / "fake.suite.toml").write_text(SUITE, encoding="utf-8")
    (tmp_path / "fake.coverage.toml").write_text(COVERAGE, encoding="utf-8")
    monkeypatch.setitem(LIBRARIES, "fake", LibrarySuite("fake", distribution, "fake", tested,
                                                        "targets", str(tmp_path)))


def test_a_suite_run_states_versions_both_entries_and_its_false_alarm_bound(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _fake(tmp_path, monkeypatch)
    out, page = tmp_path / "r.json", tmp_path / "r.html"
    assert main(["audit-library", "fake", "--json", str(out), "--html", str(page),
                 "--workers", "1"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith("fake:rr<correct>  [privref 0.1.0]  substitution")
    assert lines[0].endswith("NO_VIOLATION_FOUND  expected NO_VIOLATION_FOUND  OK")
    assert lines[1].endswith("VIOLATION  expected VIOLATION  OK")
    err = captured.err.splitlines()
    assert err[0] == "library privref 0.1.0 (tested >=0.1,<0.2)"
    # one entry expects no violation at confidence 1 - 10^-7: the run's bound is 10^-7
    assert err[-2].startswith("false-alarm probability of this run <= 1e-07 (union bound over "
                              "the 1 entry expecting")
    payload = json.loads(out.read_text())
    assert payload["library"] == "privref" and payload["library_version"] == "0.1.0"
    assert Fraction(payload["false_alarm_bound_exact"]) == Fraction(1, 10**7)
    assert [r["status"] for r in payload["results"]] == ["OK", "OK"]
    html = page.read_text()
    assert "fake:rr&lt;correct&gt;" in html and "<correct>" not in html
    assert "false-alarm probability of this run" in html


def test_an_unexpected_verdict_fails_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    _fake(tmp_path, monkeypatch)
    suite = tmp_path / "fake.suite.toml"
    suite.write_text(SUITE.replace('expect = "VIOLATION"', 'expect = "NO_VIOLATION_FOUND"'),
                     encoding="utf-8")
    assert main(["audit-library", "fake", "--workers", "1", "--only", "misconfigured"]) == 1
    assert capsys.readouterr().out.splitlines()[0].endswith("FAIL")


def test_a_version_outside_the_tested_range_is_a_usage_error_unless_any_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _fake(tmp_path, monkeypatch, tested=("0.2", "0.3"))
    assert main(["audit-library", "fake"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["privref audit-library: error: privref 0.1.0 is installed; the fake suite is "
                   "tested on privref>=0.2,<0.3: install a tested version (pip install "
                   "'privref[fake]') or pass --any-version to run it anyway"]
    assert main(["audit-library", "fake", "--any-version", "--workers", "1", "--only",
                 "correct"]) == 0
    assert "warning: privref 0.1.0 is outside the tested range >=0.2,<0.3 (--any-version)" in (
        capsys.readouterr().err)


def test_a_library_not_installed_checks_nothing_and_exits_6(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _fake(tmp_path, monkeypatch, distribution="no-such-distribution-xyz")
    assert main(["audit-library", "fake"]) == 6
    assert capsys.readouterr().err.strip() == (
        "privref audit-library: error: nothing was checked: no-such-distribution-xyz is not "
        "installed here; pip install 'privref[fake]' (tested: no-such-distribution-xyz>=0.1,<0.2)")
    # listing the entries and the coverage needs no library
    assert main(["audit-library", "fake", "--list", "--coverage"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "fake:rr<correct>  expect NO_VIOLATION_FOUND  samples 2,000"
    assert out[-1] == "fake.other  [none]  not covered: not noise-adding"


def test_an_unknown_library_names_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit-library", "numpy"]) == 2
    assert capsys.readouterr().err.strip() == (
        "privref audit-library: error: NAME='numpy' is not a library with a shipped suite; "
        f"known: {', '.join(LIBRARIES)}")


@pytest.mark.parametrize(("version", "parts"), [("0.16.0", (0, 16)), ("1.2.0rc1", (1, 2)),
                                                ("0.20", (0, 20)), ("v3", (3,))])
def test_release_numbers(version: str, parts: tuple[int, ...]) -> None:
    assert release(version) == parts
