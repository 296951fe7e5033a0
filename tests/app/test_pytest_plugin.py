"""The pytest plugin (privref.testing): audits as tests, and the run's false-alarm bound.

Small inner pytest sessions (``pytester``, in this process) run audits of randomized response:
``rr`` keeps its bit with probability 3/4 (true epsilon exactly ln 3), ``rr9`` with 9/10 (true
epsilon ln 9 ~ 2.2).  Claimed ln 3, ``rr`` can only be flagged falsely (at most 1 - confidence,
here at most 3 * 10^-7 each); ``rr9`` claimed ln 3 is flagged at 2000 samples per side by a wide
margin (its bound is near 1.66).  ``leak`` outputs (b + u) - b for u uniform in [0, 1/2): the
same real law for b = 0 and b = 1, but for b = 1 the float rounding leaves u on the 2^-52 grid,
so its IEEE-754 view is violated and its real-arithmetic view is clean.

Each audit expecting no violation uses its own confidence, 1 - k * 10^-7 with k = 1, 2, 3, so
that the expected union bound (written below from these confidences, not read from the plugin)
changes if any audit is dropped, counted twice or given another rate.
"""

from __future__ import annotations

import hashlib
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import privref.testing
from privref.app import pytest_plugin
from privref.app.blackbox_suite import bound_text
from privref.reference.errors import InvalidArgument

pytest_plugins = ["pytester"]

MECHANISMS = """
from fractions import Fraction

import privref
import privref.testing

def conf(k):
    return 1 - Fraction(k, 10**7)

@privref.declare(epsilon="ln(3)", relation="substitution", pairs=[([0], [1])])
def rr(data, rng, size):
    return (rng.random(size) < 0.75).astype(int) ^ (1 - data[0])

@privref.declare(epsilon="ln(3)", relation="substitution", pairs=[([0], [1])])
def rr9(data, rng, size):
    return (rng.random(size) < 0.9).astype(int) ^ (1 - data[0])

@privref.declare(epsilon="1", relation="substitution", pairs=[([0], [1])])
def leak(data, rng, size):
    u = rng.random(size) * 0.5
    return (data[0] + u) - data[0]
"""

SUITE = """
from mechanisms import conf, leak, rr, rr9
import privref.testing

test_rr = privref.testing.audit(samples=2000, confidence=conf(1))(rr)
test_rr9_is_flagged = privref.testing.audit(expect="VIOLATION", samples=2000, confidence=conf(1))(rr9)
test_leak = privref.testing.audit(expect="VIOLATION", expect_real="NO_VIOLATION_FOUND",
                                  samples=2000, confidence=conf(3))(leak)

def test_fixture(privref_audit):
    report = privref_audit(rr9, epsilon="ln(9)", samples=2000, confidence=conf(2))
    assert report.verdict.value == "NO_VIOLATION_FOUND" and report.samples == 2000

def test_plain():
    assert True
"""

EXPECTED_BOUND = Fraction(1, 10**7) + Fraction(3, 10**7) + Fraction(2, 10**7)
"""rr (k = 1), leak (its real view expects no violation, k = 3), the fixture's rr9 at ln 9
(k = 2); rr9 expecting a VIOLATION adds nothing."""


def _write(pytester: pytest.Pytester, **modules: str) -> None:
    pytester.makepyfile(mechanisms=MECHANISMS, **modules)


def _summary(result: pytest.RunResult) -> tuple[int, str, Fraction]:
    """(audits, the bound as printed, the exact total) from the one summary line."""
    lines = [x for x in result.outlines if x.startswith("privref: ") and "union bound" in x]
    assert len(lines) == 1, result.outlines
    head, _, rest = lines[0].partition(" audit")
    shown = rest.split("<= ")[1].split(" (union bound")[0]
    exact = rest.split("exactly ")[1].rstrip(")")
    return int(head.removeprefix("privref: ")), shown, Fraction(exact)


def test_a_run_adds_up_its_audits_and_states_the_bound(pytester: pytest.Pytester) -> None:
    """Correct, broken (expect VIOLATION), two-view and fixture audits pass; the printed and the
    JSON totals are the sum of 1 - confidence over the audits expecting no violation; a budget
    equal to that sum is within it (the comparison is exact)."""
    _write(pytester, test_suite=SUITE)
    out = pytester.path / "audits.json"
    result = pytester.runpytest("-p", "no:cacheprovider", "--privref-json", str(out),
                                f"--privref-false-alarm-budget={EXPECTED_BOUND}")
    result.assert_outcomes(passed=5)
    audits, shown, exact = _summary(result)
    assert audits == 4
    assert exact == EXPECTED_BOUND
    assert Fraction(shown) >= EXPECTED_BOUND and shown == "6e-07"
    result.stdout.fnmatch_lines([f"privref: within the false-alarm budget {EXPECTED_BOUND} *"])
    written = json.loads(out.read_text())
    assert Fraction(written["false_alarm_bound"]) == EXPECTED_BOUND
    assert written["over_budget"] is False and written["session_seed"] is None
    rows = {r["nodeid"].split("::")[1]: r for r in written["audits"]}
    assert set(rows) == {"test_rr", "test_rr9_is_flagged", "test_leak", "test_fixture"}
    assert rows["test_leak"]["verdict"] == "VIOLATION"
    assert rows["test_leak"]["real_verdict"] == "NO_VIOLATION_FOUND"
    assert {k: Fraction(r["false_alarm"]) for k, r in rows.items()} == {
        "test_rr": Fraction(1, 10**7), "test_rr9_is_flagged": 0, "test_leak": Fraction(3, 10**7),
        "test_fixture": Fraction(2, 10**7)}
    assert all(r["seed"] == "0" and r["samples"] == 2000 for r in rows.values())
    _controller_adds_up_worker_reports(pytester, result)


def _controller_adds_up_worker_reports(pytester: pytest.Pytester, result: pytest.RunResult) -> None:
    """What pytest-xdist does with the reports: serialize each in a worker (through JSON here,
    stricter than execnet), rebuild it in the controller, whose ledger adds them up; the reports
    are split between two workers, whose ledgers are not the controller's."""
    reports = result.reprec.getreports("pytest_runtest_logreport")  # type: ignore[attr-defined]
    config = pytester.parseconfig()
    hook = config.hook
    controller = pytest_plugin._Ledger(config, pytest_plugin._settings(config))
    for report in reports:
        data = hook.pytest_report_to_serializable(config=config, report=report)
        controller.pytest_runtest_logreport(
            hook.pytest_report_from_serializable(config=config, data=json.loads(json.dumps(data))))
    assert len(controller.records) == 4
    assert pytest_plugin.union_bound(controller.records) == EXPECTED_BOUND


def test_a_broken_claim_fails_its_test_with_one_line(pytester: pytest.Pytester) -> None:
    _write(pytester, test_broken="""
from mechanisms import conf, rr9
import privref.testing

test_rr9 = privref.testing.audit(samples=2000, confidence=conf(1))(rr9)
""")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    (failure,) = result.reprec.getfailures()  # type: ignore[attr-defined]
    text = failure.longreprtext.strip()
    assert "\n" not in text, text
    assert text.startswith("privref: rr9 ")
    assert "VIOLATION expected NO_VIOLATION_FOUND FAIL; witness [0] vs [1]" in text or \
        "VIOLATION expected NO_VIOLATION_FOUND FAIL; witness [1] vs [0]" in text
    assert text.endswith("2000 samples per side at confidence 9999999/10000000, seed 0")
    assert _summary(result)[2] == Fraction(1, 10**7)  # a failed audit still spent its rate
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_a_run_over_its_budget_fails(pytester: pytest.Pytester) -> None:
    """One audit at 1 - 10^-7 against a budget just below 10^-7: every test passes, the run
    fails with the line naming both numbers."""
    _write(pytester, test_one="""
from mechanisms import conf, rr
import privref.testing

test_rr = privref.testing.audit(samples=2000, confidence=conf(1))(rr)
""")
    pytester.makeini("[pytest]\nprivref_false_alarm_budget = 99/1000000000\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines([
        "privref: FAILED: the false-alarm bound 1/10000000 exceeds the budget 99/1000000000 "
        "(ini privref_false_alarm_budget)*",
        "  1e-07  test_one.py::test_rr"])


def test_the_session_seed_redraws_every_audit(pytester: pytest.Pytester) -> None:
    """Under --privref-seed S, an audit's seed is the documented hash of S, its node id, its
    index in the test and its own seed (recomputed here from the documentation)."""
    _write(pytester, test_seeded="""
from mechanisms import conf, rr

def test_twice(privref_audit):
    first = privref_audit(rr, samples=500, confidence=conf(1))
    second = privref_audit(rr, samples=500, confidence=conf(1), seed=5)
    assert first.seed != second.seed
""")
    out = pytester.path / "seeded.json"
    result = pytester.runpytest("-p", "no:cacheprovider", "--privref-seed", "7",
                                "--privref-json", str(out))
    result.assert_outcomes(passed=1)
    rows = json.loads(out.read_text())["audits"]

    def documented(index: int, own: int) -> int:
        text = f"privref-seed\0{7}\0test_seeded.py::test_twice\0{index}\0{own}"
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "big")

    assert [int(r["seed"]) for r in rows] == [documented(0, 0), documented(1, 5)]
    assert "--privref-seed 7" in result.stdout.str()


def test_a_session_that_uses_no_audit_is_unchanged(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_plain="def test_plain():\n    assert True\n")
    with_plugin = pytester.runpytest("-p", "no:cacheprovider")
    without = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:privref")
    with_plugin.assert_outcomes(passed=1)
    assert with_plugin.ret == without.ret == pytest.ExitCode.OK

    def body(result: pytest.RunResult) -> list[str]:  # without the timing and pytest's header
        return [line.split(" in ")[0] for line in result.outlines + result.errlines
                if not line.startswith("plugins: ")]  # lists installed plugins, privref too

    assert not [line for line in body(with_plugin) if "privref" in line]

    assert body(with_plugin) == body(without)


@pytest.mark.parametrize(("args", "message"), [
    (["--privref-false-alarm-budget", "abc"],
     "--privref-false-alarm-budget='abc' must be a number in [0, 1], e.g. 1e-4 or 1/10000"),
    (["--privref-false-alarm-budget=-1e-4"],
     "--privref-false-alarm-budget='-1e-4' must be a number in *"),
    (["--privref-false-alarm-budget", "nan"], "--privref-false-alarm-budget='nan' must be*"),
    (["--privref-seed", "x"], "--privref-seed='x' must be an int in [0, 2**128 - 1]"),
    (["--privref-json", "missing-folder/out.json"], "--privref-json*missing-folder*"),
])
def test_a_bad_option_is_a_usage_error_in_one_line(pytester: pytest.Pytester, args: list[str],
                                                   message: str) -> None:
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {message}"])


def test_a_json_report_that_cannot_be_written_fails_the_run_in_one_line(
        pytester: pytest.Pytester) -> None:
    """/dev/full passes the check made before the run; the write fails (ENOSPC): exit 3."""
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--privref-json", "/dev/full")
    assert result.ret == pytest.ExitCode.INTERNAL_ERROR
    result.stdout.fnmatch_lines(["privref: --privref-json /dev/full*"])


def _declared(data: list[int], rng: Any) -> int:
    return int(data[0])


_declared = privref.declare(epsilon="ln(3)", relation="substitution")(_declared)


def _undeclared(data: list[int], rng: Any) -> int:
    return int(data[0])


@pytest.mark.parametrize(("settings", "message"), [
    ({"confidence": 1}, "confidence=1 must lie in (0, 1)"),
    ({"confidence": 0}, "confidence=0 must lie in (0, 1)"),
    ({"confidence": 1.5}, "confidence=1.5 must lie in (0, 1)"),
    ({"confidence": math.nan}, "confidence=nan must be a finite number"),
    ({"confidence": 1 - Fraction(1, 10**16)}, "must be <= 1 - 10**-15"),
    ({"expect": "PASS"}, "expect='PASS' must be one of VIOLATION, NO_VIOLATION_FOUND"),
    ({"expect_real": "VIOLATION"}, "expect_real='VIOLATION' needs expect='VIOLATION'"),
    ({"expect": "VIOLATION", "expect_real": "VIOLATION", "float_events": False},
     "expect_real with float_events=False"),
    ({"samples": 1}, "samples=1 must be an int in [2, 10**10]"),
    ({"seed": -1}, "seed=-1 must be an int in [0, 2**128 - 1]"),
    ({"epsilon_": 1}, "unknown option(s) ['epsilon_']; allowed: expect, expect_real, samples"),
])
def test_bad_settings_are_refused_at_decoration(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidArgument) as info:
        privref.testing.audit(**settings)(_declared)
    assert str(info.value).startswith("privref.testing.audit: ")
    assert message in str(info.value)


def test_a_mechanism_without_a_claim_needs_epsilon() -> None:
    with pytest.raises(InvalidArgument, match=r"_undeclared declares no privacy claim and no "
                       r"epsilon= is given: declare it \(@privref.declare"):
        privref.testing.audit()(_undeclared)
    assert callable(privref.testing.audit(epsilon="ln(3)")(_undeclared))
    with pytest.raises(InvalidArgument, match="42 is a int, not a mechanism"):
        privref.testing.audit()(42)


def test_marks_on_the_mechanism_carry_to_the_test() -> None:
    """``@pytest.mark.x`` written under ``@audit`` (on the mechanism) marks the test."""
    test = privref.testing.audit(epsilon=1)(pytest.mark.deep(_undeclared))
    assert [m.name for m in getattr(test, "pytestmark", [])] == ["deep"]
    assert not hasattr(privref.testing.audit()(_declared), "pytestmark")


@pytest.mark.parametrize(("value", "text"), [
    (Fraction(3, 10**7), "3e-07"),
    (Fraction(1, 3 * 10**6), "3.34e-07"),   # 3.333...e-07 rounded up, not to nearest
    (Fraction(1, 10**4) - Fraction(1, 10**20), "0.0001"),
    (Fraction(123, 10**4), "0.0123"),
    (Fraction(1999, 2), "1000"),             # 999.5 -> 1000 (the carry)
    (Fraction(1), "1"),
    (Fraction(0), "0"),
    (Fraction(2, 3), "0.667"),
])
def test_the_printed_bound_is_rounded_up(value: Fraction, text: str) -> None:
    assert bound_text(value) == text
    assert Fraction(text) >= value


@pytest.mark.deep
def test_pytest_xdist_workers_add_up(pytester: pytest.Pytester) -> None:
    """A real pytest-xdist run on two workers (about 10 s: each worker imports privref)."""
    _write(pytester, test_suite=SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2")
    result.assert_outcomes(passed=5)
    assert _summary(result)[:1] == (4,) and _summary(result)[2] == EXPECTED_BOUND


def test_the_plugin_is_registered_as_a_pytest11_entry_point() -> None:
    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.entry-points.pytest11]\nprivref = "privref.app.pytest_plugin"' in text
