"""The suite's false-positive budget is complete and enforced (issue 14, item 6).

Completeness: a statistical assertion that bypasses tests/stats.py (a p-value or a level
compared by hand) would not be counted, so no test file compares one directly; the black-box
audits are counted by tests/conftest.py as their reports are made.  Enforcement: a run whose
recorded rate exceeds SUITE_BUDGET fails although every test passed, and a run within it
passes; both are shown on a throw-away suite run in a subprocess with this conftest's hooks.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

from .stats import FALSE_POSITIVE_RATE, SUITE_BUDGET, fits, record

TESTS = Path(__file__).resolve().parent

LEVEL_NAMES = frozenset({"FALSE_POSITIVE_RATE", "LEVEL"})
"""Names of a p-value level: comparing against one by hand bypasses the record."""

ALLOWED: dict[tuple[str, str], str] = {
    ("validation/test_validation.py", "null_binomial_limit"):
        "computes the limit printed in assertion messages; the assertions go through fits",
}
"""(file, function) -> why a direct comparison there is not an assertion."""


def _is_pvalue(node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute) and node.attr == "pvalue":
        return True
    if isinstance(node, ast.Call):
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return name in ("chi_square_pvalue", "p_value")
    return isinstance(node, ast.Name) and node.id in LEVEL_NAMES


def _direct_comparisons(path: Path, *, allowed: bool = False) -> list[str]:
    """Comparisons of a p-value or a level, outside ALLOWED (``allowed``: inside it only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        rel = path.relative_to(TESTS).as_posix() if path.is_relative_to(TESTS) else path.name
        if ((rel, fn.name) in ALLOWED) is not allowed:
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Compare) and any(
                    _is_pvalue(x) for x in (node.left, *node.comparators)):
                found.append(f"{rel}:{node.lineno} in {fn.name}")
    return found


def test_no_test_compares_a_p_value_or_a_level_by_hand() -> None:
    """Every p-value assertion is fits(p) or rejects(p), so the conftest counts it."""
    files = [p for p in TESTS.rglob("*.py") if p.name not in ("stats.py", "conftest.py")]
    assert len(files) > 100
    offenders = [hit for p in sorted(files) for hit in _direct_comparisons(p)]
    assert offenders == [], offenders
    for rel, fn in ALLOWED:  # each exemption is still needed
        assert any(f" in {fn}" in h for h in _direct_comparisons(TESTS / rel, allowed=True)), fn


def test_the_scan_sees_a_direct_comparison(tmp_path: Path) -> None:
    """The scan is not vacuous: each form of a hand-made comparison is found."""
    path = tmp_path / "test_probe.py"
    path.write_text(textwrap.dedent("""
        def test_a(p, stats, chi_square_pvalue):
            assert stats.binomtest(1, 2, 0.5).pvalue > FALSE_POSITIVE_RATE
            assert chi_square_pvalue(1, 2) >= 1e-7
            assert p < FALSE_POSITIVE_RATE
            assert fits(p) and p > 0
    """), encoding="utf-8")
    assert [h.split(":")[1].split()[0] for h in _direct_comparisons(path)] == ["3", "4", "5"]


def test_fits_and_rejects_record_what_they_spend() -> None:
    """fits spends FALSE_POSITIVE_RATE whatever its outcome; a level of exactly the rate fails."""
    from . import stats

    start = len(stats.SPENT)
    assert fits(0.5, "probe") and not fits(float(FALSE_POSITIVE_RATE), "probe")
    assert [s.rate for s in stats.SPENT[start:]] == [FALSE_POSITIVE_RATE] * 2
    del stats.SPENT[start:]


def _write_suite(tmp_path: Path, records: int, key: str = "") -> None:
    """A throw-away suite with this conftest's hooks and one test recording ``records`` fits
    (all of one random experiment when ``key`` is given)."""
    (tmp_path / "conftest.py").write_text(
        "from tests.conftest import (pytest_configure, pytest_runtest_makereport,\n"
        "                            pytest_runtest_protocol, pytest_sessionfinish,\n"
        "                            pytest_terminal_summary)\n",
        encoding="utf-8")
    (tmp_path / "test_probe.py").write_text(textwrap.dedent(f"""
        from fractions import Fraction
        from tests.stats import record

        def test_spends():
            for _ in range({records}):
                record("fit", Fraction(1, 10**5), "probe", key={key!r})
    """), encoding="utf-8")


def _run_suite(tmp_path: Path, records: int, key: str = "") -> subprocess.CompletedProcess[str]:
    """Run :func:`_write_suite`'s suite in one process (``-n 0`` overrides the two xdist
    workers of the addopts: starting workers would only cost time here)."""
    _write_suite(tmp_path, records, key)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-n", "0", str(tmp_path)], cwd=TESTS.parent, capture_output=True,
                          text=True, timeout=300, check=False)


def test_a_run_over_budget_fails_and_one_within_passes(tmp_path: Path) -> None:
    """Ten records of 10^-5 spend exactly the budget (passes); eleven exceed it (fails)."""
    assert 10 * Fraction(1, 10**5) == SUITE_BUDGET
    within = _run_suite(tmp_path, 10)
    assert within.returncode == 0, within.stdout + within.stderr
    assert "proved false-positive rate of this run: 0.0001 (budget 1e-04)\n" in within.stdout
    over = _run_suite(tmp_path, 11)
    assert over.returncode == 1, over.stdout + over.stderr
    assert "1 passed" in over.stdout and ": OVER" in over.stdout


def test_one_keyed_experiment_spends_once(tmp_path: Path) -> None:
    """Eleven records of one seeded experiment (one key) are one event: 10^-5, within budget."""
    run = _run_suite(tmp_path, 11, key="seed 7")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "proved false-positive rate of this run: 1e-05 (budget 1e-04)\n" in run.stdout


def test_the_budget_adds_up_across_xdist_workers(tmp_path: Path) -> None:
    """Under pytest-xdist (the suite's default, pyproject.toml) each worker records its own tests'
    assertions; the controller adds them up: two files of six records of 10^-5, run by two
    workers, spend 1.2·10^-4 and fail the run, and each file's records are attributed to it."""
    _write_suite(tmp_path, 6)
    (tmp_path / "test_probe_2.py").write_text(
        (tmp_path / "test_probe.py").read_text(encoding="utf-8"), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-n", "2", "--dist", "loadfile", str(tmp_path)], cwd=TESTS.parent,
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 passed" in run.stdout, run.stdout
    assert "proved false-positive rate of this run: 0.00012 (budget 1e-04): OVER" in run.stdout
    assert "in 2 tests" in run.stdout, run.stdout


def test_record_refuses_a_bad_kind_or_rate() -> None:
    with pytest.raises(ValueError, match="kind='guess' must be fit, audit or power"):
        record("guess", Fraction(0))
    with pytest.raises(ValueError, match="rate=2 in"):
        record("fit", Fraction(2))
