"""``privref audit blackbox`` end to end: verdicts, JSON report, partial reports, every bad flag."""

from __future__ import annotations

import argparse
import io
import json
import textwrap
from pathlib import Path

import numpy as np
import pytest

from privref.app.blackbox_cli import configure_parser, run
from privref.audits.blackbox.declarations import DEFAULTED_RELATION
from privref.audits.blackbox.target import TargetCallError, TargetLoadError
from privref.reference.errors import InvalidArgument, PrivrefError

RR = """
import numpy as np

def rr(data, rng):
    b = data[0]
    return b if rng.random() < 0.75 else 1 - b

def rr_vec(data, rng, size):
    return np.where(rng.random(size) < 0.75, data[0], 1 - data[0])

def boom(data, rng):
    raise RuntimeError("sensor offline")

def global_rr(data, rng):
    b = data[0]
    return b if np.random.random() < 0.75 else 1 - b
"""


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="privref audit blackbox")
    configure_parser(parser)
    return parser.parse_args(argv)


@pytest.fixture
def target_file(tmp_path: Path) -> Path:
    path = tmp_path / "third_party_rr.py"
    path.write_text(textwrap.dedent(RR), encoding="utf-8")
    return path


def _run(argv: list[str]) -> int:
    """Run the command at confidence 1 - 10^-7 unless argv sets one (tests/stats.py's budget)."""
    confidence = [] if "--confidence" in argv else ["--confidence", "0.9999999"]
    return run(parse([*argv, *confidence]))


def test_correct_claim_no_violation(target_file: Path, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    status = _run([f"{target_file}:rr", "--epsilon", "ln(3)", "--pair", "[0]", "[1]",
                   "--samples", "4000", "--seed", "7", "--workers", "1", "--json", str(out)])
    assert status == 0
    report = json.loads(out.read_text())
    assert report["verdict"] == "NO_VIOLATION_FOUND" and report["status"] == "complete"
    assert 0 <= report["epsilon_lower_bound"] <= report["claimed_epsilon"]
    assert report["claimed_epsilon_exact"] == "log(3)" and report["claimed_delta"] == 0
    assert report["confidence"] == 0.9999999 and report["confidence_exact"] == "9999999/10000000"
    assert report["samples"] == 4000 and report["seed"] == 7 and report["pair"] == [[0], [1]]
    assert report["privref_version"] and report["target"] == f"{target_file}:rr"
    assert report["target_package_version"] is None
    # neither --relation nor a declaration: substitution, recorded as defaulted, with a warning
    assert report["relation"] == "substitution" and report["relation_source"] == "default"
    assert report["warnings"] == [DEFAULTED_RELATION]
    assert report["libraries"] == [{"name": "numpy", "version": np.__version__,
                                    "source": "detected"}]
    assert isinstance(report["event"], str) and report["pairs"][0]["stage"] == "confirmation"
    assert "verdict          NO_VIOLATION_FOUND" in capsys.readouterr().out


def test_wrong_claim_violation(target_file: Path, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    status = _run([f"{target_file}:rr_vec", "--epsilon", "1/2", "--pair", "[0]", "[1]",
                   "--samples", "4000", "--seed", "7", "--workers", "2", "--json", str(out),
                   "--quiet"])
    assert status == 1
    report = json.loads(out.read_text())
    assert report["verdict"] == "VIOLATION" and report["epsilon_lower_bound"] > 0.5
    assert report["vectorized"] is True
    assert "VIOLATION" in capsys.readouterr().out


def test_builtin_mechanism_target_with_search(tmp_path: Path) -> None:
    """A module attribute holding a privref Mechanism is audited through its exact sampler."""
    path = tmp_path / "builtin_rr.py"
    path.write_text("from privref.reference.randomized_response import randomized_response\n"
                    "RR = randomized_response('3/4')\n")
    out = tmp_path / "r.json"
    status = _run([f"{path}:RR", "--epsilon", "1/4", "--samples", "3000", "--seed", "3",
                   "--workers", "2", "--json", str(out), "--sizes", "[1]",
                   "--screening-samples", "500", "--confirm", "1"])
    report = json.loads(out.read_text())
    assert status == 1 and report["verdict"] == "VIOLATION"
    assert report["target_package"] == "privref" and report["target_package_version"]
    assert report["candidates_tried"] == 1 and report["search"]["relation"] == "substitution"


def test_random_seed_is_reported(target_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    _run([f"{target_file}:rr", "--epsilon", "ln(3)", "--pair", "[0]", "[1]", "--samples", "500",
          "--workers", "1", "--json", str(out)])
    assert isinstance(json.loads(out.read_text())["seed"], int)


def test_default_confidence_is_0_95() -> None:
    """Without --confidence the command audits at 0.95 (the tests pass 1 - 10^-7 explicitly)."""
    assert parse(["t:f", "--epsilon", "1"]).confidence == "0.95"


def test_target_that_raises_saves_partial_report(target_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "partial.json"
    with pytest.raises(TargetCallError, match=r"boom raised on data=\[0\]: RuntimeError: sensor "
                                              "offline"):
        _run([f"{target_file}:boom", "--epsilon", "1", "--pair", "[0]", "[1]", "--samples", "500",
              "--json", str(out), "--workers", "1"])
    partial = json.loads(out.read_text())
    assert partial["status"] == "error" and partial["verdict"] is None
    assert "sensor offline" in partial["error"]


def test_hidden_randomness_is_warned(target_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    _run([f"{target_file}:global_rr", "--epsilon", "ln(3)", "--pair", "[0]", "[1]", "--samples",
          "1000", "--seed", "1", "--workers", "1", "--json", str(out), "--relation",
          "substitution"])
    report = json.loads(out.read_text())
    warnings = report["warnings"]
    assert len(warnings) == 1 and warnings[0].startswith("hidden randomness")
    assert report["relation_source"] == "given"


def test_checkpoint_flag(target_file: Path, tmp_path: Path) -> None:
    ckpt = tmp_path / "run.ckpt"
    args = [f"{target_file}:rr", "--epsilon", "ln(3)", "--pair", "[0]", "[1]", "--samples", "3000",
            "--seed", "5", "--workers", "1", "--checkpoint", str(ckpt)]
    first, second = tmp_path / "1.json", tmp_path / "2.json"
    _run([*args, "--json", str(first)])
    _run([*args, "--json", str(second)])
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    assert a["pairs"] == b["pairs"]
    with pytest.raises(PrivrefError, match=r"other parameters \(seed: 5 in the file, 6 now\)"):
        _run([*args[:-4], "--seed", "6", "--workers", "1", "--checkpoint", str(ckpt)])


def test_unimportable_target(tmp_path: Path) -> None:
    with pytest.raises(TargetLoadError, match="cannot import target 'no_such_pkg_q:f'"):
        _run(["no_such_pkg_q:f", "--epsilon", "1", "--pair", "[0]", "[1]"])


@pytest.mark.parametrize(("flags", "message"), [
    (["--samples", "-5"], "--samples=-5 must be an int >= 2"),
    (["--samples", "many"], "--samples='many' must be an int"),
    (["--confidence", "1"], "--confidence=1 must lie strictly between 0 and 1"),
    (["--confidence", "0"], "--confidence=0 must lie strictly between 0 and 1"),
    (["--confidence", "1.5"], "--confidence=1.5 must lie strictly between 0 and 1"),
    (["--confidence", "high"], "--confidence: confidence='high' is not a number"),
    (["--delta", "1"], "--delta: delta=1 must be < 1"),
    (["--delta", "-0.1"], "--delta: delta=-1/10 must be >= 0"),
    (["--pair", "[0", "[1]"], "--pair '[0' is not valid JSON"),
    (["--pair", '{"a": 1}', "[1]"], "--pair '{\"a\": 1}' must be a JSON list"),
    (["--pair", "[{}]", "[1]"], "JSON objects are not dataset entries"),
    (["--workers", "0"], "--workers=0 must be an int >= 1"),
    (["--seed", "-3"], "--seed=-3 must be an int >= 0"),
    (["--relation", "hamming"], "--relation='hamming' must be one of"),
    (["--sizes", '["a"]'], "--sizes '[\"a\"]' must be a JSON list of ints"),
    (["--sizes", "[0]"], "--elements/--sizes: sizes=[0]"),
    (["--elements", "[1]"], "--elements/--sizes: elements=[1] must hold at least two values"),
    (["--confirm", "0"], "--confirm=0 must be an int >= 1"),
    (["--json", "/no/such/dir/r.json"], "--json /no/such/dir/r.json: folder /no/such/dir does"),
])
def test_nonsense_flags(target_file: Path, flags: list[str], message: str) -> None:
    base = [f"{target_file}:rr", "--epsilon", "1", "--samples", "100", "--workers", "1"]
    with pytest.raises(InvalidArgument) as info:
        _run([*base, *flags])
    assert message in str(info.value)


@pytest.mark.parametrize(("epsilon", "message"), [
    ("abc", "--epsilon: epsilon='abc' is not a number"),
    ("-1", "--epsilon: epsilon=-1 must be >= 0"),
    ("ln(0)", "the argument of ln must be > 0"),
])
def test_bad_epsilon(target_file: Path, epsilon: str, message: str) -> None:
    with pytest.raises(InvalidArgument) as info:
        _run([f"{target_file}:rr", "--epsilon", epsilon])
    assert message in str(info.value)


def test_epsilon_is_required_unless_the_target_declares_a_claim(target_file: Path) -> None:
    with pytest.raises(InvalidArgument, match=r"--epsilon is required: the target .* declares no "
                                              r"privacy claim"):
        _run([f"{target_file}:rr", "--pair", "[0]", "[1]", "--samples", "100", "--workers", "1"])


def test_declared_claim_is_the_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A built-in Mechanism declares its claim (here ln 3, tight): no --epsilon needed."""
    path = tmp_path / "declared_rr.py"
    path.write_text("from privref.reference.randomized_response import randomized_response\n"
                    "RR = randomized_response('3/4')\n")
    out = tmp_path / "r.json"
    status = _run([f"{path}:RR", "--pair", "[0]", "[1]", "--samples", "3000", "--seed", "1",
                   "--workers", "1", "--json", str(out)])
    report = json.loads(out.read_text())
    assert status == 0 and report["claimed_epsilon_exact"] == "log(3)"
    assert report["claimed_delta"] == 0
    assert "declared by the target" in capsys.readouterr().err
    with pytest.raises(InvalidArgument, match="--search and --pair exclude each other"):
        _run([f"{path}:RR", "--pair", "[0]", "[1]", "--search"])


FLOAT_LAPLACE = """
import numpy as np

def count_laplace(data, rng, size):
    return float(len(data)) + rng.laplace(0.0, 1.0, size)
"""


def test_no_float_events_asks_the_real_arithmetic_question(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """count + float Laplace: flagged through its bits by default; ε = 1 in real arithmetic."""
    path = tmp_path / "float_laplace.py"
    path.write_text(textwrap.dedent(FLOAT_LAPLACE), encoding="utf-8")
    base = [f"{path}:count_laplace", "--epsilon", "1", "--pair", "[]", "[0]", "--samples", "4000",
            "--seed", "3", "--workers", "1", "--relation", "add-remove"]
    out = tmp_path / "bits.json"
    assert _run([*base, "--json", str(out)]) == 1
    bits = json.loads(out.read_text())
    assert bits["float_events"] is True and "as a double in" in bits["event"]
    out = tmp_path / "real.json"
    assert _run([*base, "--no-float-events", "--json", str(out)]) == 0
    real = json.loads(out.read_text())
    assert real["float_events"] is False and real["verdict"] == "NO_VIOLATION_FOUND"
    assert "real-arithmetic view" in capsys.readouterr().out


def test_registry_target_needs_no_claim_or_pairs(tmp_path: Path) -> None:
    """``privref audit blackbox diffprivlib:count-geometric``: the library's claim, the listed pairs."""
    out = tmp_path / "r.json"
    status = _run(["diffprivlib:count-geometric", "--samples", "3000", "--seed", "2", "--workers", "1",
                   "--json", str(out)])
    report = json.loads(out.read_text())
    assert status == 0 and report["claimed_epsilon_exact"] == "1" and report["search"] is None
    assert [p["pair"] for p in report["pairs"]] == [[[0], []], [[0, 0, 0], [0, 0]]]
    out = tmp_path / "s.json"
    _run(["diffprivlib:count-geometric", "--search", "--relation", "add-remove", "--sizes", "[1]",
          "--samples", "1000", "--seed", "2", "--workers", "1", "--json", str(out)])
    assert json.loads(out.read_text())["search"]["relation"] == "add-remove"


def test_progress_bar_shows_eta() -> None:
    """The command line's terminal bar (the ProgressReporter it gives run_audit)."""
    from privref.app.blackbox_cli import TerminalProgress as Progress

    stream = io.StringIO()
    bar = Progress(True, stream)
    bar.begin("confirmation", 100)
    bar.advance(100)
    bar.end()
    text = stream.getvalue()
    assert "confirmation [" in text and "100/100" in text and "ETA" in text
    silent = io.StringIO()
    off = Progress(False, silent)
    off.begin("x", 10)
    off.advance(10)
    off.end()
    assert silent.getvalue() == ""


def test_the_cli_supplies_the_bar_when_stderr_is_a_terminal(
        target_file: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The auditor prints no progress itself; the command gives it the terminal bar on a tty
    (and none with --quiet)."""
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    argv = [f"{target_file}:rr", "--epsilon", "ln(3)", "--pair", "[0]", "[1]", "--samples",
            "2000", "--seed", "7", "--workers", "1"]
    _run(argv)
    assert "confirmation [########################] 100% 4000/4000" in capsys.readouterr().err
    _run([*argv, "--quiet"])
    assert "confirmation [" not in capsys.readouterr().err
