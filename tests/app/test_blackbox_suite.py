"""``privref blackbox-suite``: one line per target, exit 0/1/2, --json, and the pytest helper.

The audits are statistical with fixed seeds (deterministic).  ``rr`` is randomized response
with keep probability 3/4, true epsilon exactly ln 3: claimed ln 3 it can only be flagged
falsely (probability <= 10^-7 at confidence 0.9999999); claimed 1/10 it is flagged at 2000
samples per side by a wide margin (its bound is near ln 3 ~ 1.1).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from privref.app.blackbox_suite import check_case, load_suite, run_case, suite_cases
from privref.app.cli import main
from privref.reference.errors import InvalidArgument

TARGETS = """
from privref.audits.blackbox import declare

@declare(epsilon="ln(3)", relation="substitution", pairs=[[[0], [1]]])
def rr(data, rng):
    return data[0] if rng.random() < 0.75 else 1 - data[0]

def boom(data, rng):
    raise RuntimeError("sensor offline")
"""

SUITE = """
[defaults]
samples = 2000
seed = 3
confidence = "0.9999999"

[[target]]
name = "rr-correct"
target = "{t}:rr"
expect = "NO_VIOLATION_FOUND"

[[target]]
name = "rr-overclaimed"
target = "{t}:rr"
epsilon = "1/10"
expect = "{over}"

[[target]]
name = "needs-a-missing-library"
target = "{t}:rr"
expect = "NO_VIOLATION_FOUND"
requires = ["no-such-distribution-xyz"]
"""


@pytest.fixture
def targets(tmp_path: Path) -> Path:
    path = tmp_path / "targets.py"
    path.write_text(textwrap.dedent(TARGETS), encoding="utf-8")
    return path


def _suite(tmp_path: Path, targets: Path, over: str = "VIOLATION", extra: str = "") -> Path:
    path = tmp_path / "suite.toml"
    path.write_text(SUITE.format(t=targets, over=over) + extra, encoding="utf-8")
    return path


def test_every_verdict_as_expected_exits_0(tmp_path: Path, targets: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "reports.json"
    assert main(["blackbox-suite", str(_suite(tmp_path, targets)), "--json", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("rr-correct  [") and lines[0].endswith(
        "NO_VIOLATION_FOUND  expected NO_VIOLATION_FOUND  OK")
    assert "substitution  claim (1.09861 = log(3), 0)" in lines[0]
    assert lines[1].endswith("VIOLATION  expected VIOLATION  OK")
    assert lines[2].endswith("SKIP: not installed: no-such-distribution-xyz")
    results = json.loads(out.read_text())["results"]
    assert [r["status"] for r in results] == ["OK", "OK", "SKIP"]
    assert results[0]["report"]["relation_source"] == "declared"
    assert results[0]["report"]["seed"] == 3 and results[0]["report"]["samples"] == 2000


def test_an_unexpected_verdict_exits_1(tmp_path: Path, targets: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    suite = _suite(tmp_path, targets, over="NO_VIOLATION_FOUND")
    assert main(["blackbox-suite", str(suite)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith("VIOLATION  expected NO_VIOLATION_FOUND  FAIL")


def test_an_entry_that_cannot_run_is_an_error_line_and_exits_1(
        tmp_path: Path, targets: Path, capsys: pytest.CaptureFixture[str]) -> None:
    extra = f'\n[[target]]\nname = "boom"\ntarget = "{targets}:boom"\nepsilon = 1\n' \
            'pairs = [[[0], [1]]]\nexpect = "NO_VIOLATION_FOUND"\n'
    assert main(["blackbox-suite", str(_suite(tmp_path, targets, extra=extra)),
                 "--only", "boom"]) == 1
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith("boom  expected NO_VIOLATION_FOUND  ERROR: target")
    assert "RuntimeError: sensor offline" in line


@pytest.mark.parametrize(("extra", "message"), [
    ('\n[[target]]\ntarget = "x:y"\n', "target #4 (x:y): 'expect' is required"),
    ('\n[[target]]\ntarget = "x:y"\nexpect = "HOLDS"\n', "expect='HOLDS' must be one of"),
    ('\n[[target]]\ntarget = "x:y"\nexpect = "VIOLATION"\ncolour = 1\n', "unknown key(s) ['colour']"),
    ('\n[[target]]\ntarget = "x:y"\nexpect = "VIOLATION"\nsamples = -5\n',
     "target #4 (x:y): --samples=-5 must be an int >= 2"),
    ('\n[[target]]\ntarget = "x:y"\nexpect = "VIOLATION"\npairs = [[0]]\n', "pairs=[[0]] must be"),
    ('\n[[target]]\ntarget = "x:y"\nexpect = "VIOLATION"\nrelation = "nope"\n', "--relation='nope'"),
    ('\n[[target]]\nname = "rr-correct"\ntarget = "x:y"\nexpect = "VIOLATION"\n', "used twice"),
    ("\nthis is not toml", "not valid TOML"),
])
def test_a_bad_suite_is_a_usage_error_before_anything_runs(
        tmp_path: Path, targets: Path, extra: str, message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    suite = _suite(tmp_path, targets, extra=extra)
    with pytest.raises(InvalidArgument) as info:
        load_suite(suite)
    assert message in str(info.value)
    assert main(["blackbox-suite", str(suite)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "privref blackbox-suite: error: suite" in captured.err


def test_missing_suite_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["blackbox-suite", str(tmp_path / "none.toml")]) == 2
    assert "cannot be read" in capsys.readouterr().err


def test_json_suite_and_pytest_helper(tmp_path: Path, targets: Path) -> None:
    suite = tmp_path / "suite.json"
    suite.write_text(json.dumps({"defaults": {"samples": 2000, "seed": 3, "confidence": "0.9999999"},
                                     "target": [
        {"target": f"{targets}:rr", "expect": "NO_VIOLATION_FOUND"},
        {"name": "missing", "target": f"{targets}:rr", "expect": "VIOLATION",
         "requires": ["no-such-distribution-xyz"]}]}), encoding="utf-8")
    cases = suite_cases(suite)
    assert [str(c) for c in cases] == [f"{targets}:rr", "missing"]
    report = check_case(cases[0])
    assert report.verdict is not None and report.verdict.value == "NO_VIOLATION_FOUND"
    with pytest.raises(pytest.skip.Exception, match="no-such-distribution-xyz"):
        check_case(cases[1])
    wrong = type(cases[0])(cases[0].name, cases[0].argv, "VIOLATION", ())
    with pytest.raises(AssertionError, match="expected VIOLATION  FAIL"):
        check_case(wrong)


def test_example_suite_in_docs_is_valid() -> None:
    cases = load_suite(Path(__file__).parents[2] / "docs" / "blackbox-suite.toml")
    assert len(cases) == 9 and {c.expect for c in cases} == {"VIOLATION", "NO_VIOLATION_FOUND"}
    assert all(c.requires in (("opendp",), ("diffprivlib",)) for c in cases)


def test_example_suite_entry_runs_or_skips() -> None:
    case = next(c for c in load_suite(Path(__file__).parents[2] / "docs" / "blackbox-suite.toml")
                if c.name == "diffprivlib:sum-laplace-misconfigured")
    small = type(case)(case.name, (*case.argv, "--samples", "3000"), case.expect, case.requires)
    result = run_case(small, workers="1")
    if result.status == "SKIP":
        pytest.skip(result.error or "diffprivlib missing")
    assert result.status == "OK", result.line()
