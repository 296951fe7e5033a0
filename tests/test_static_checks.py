"""ruff, mypy --strict and CrossHair, run as tests of the suite.

They were three commands run one after the other before pytest; as tests, pytest's two workers
share them with the rest of the suite.  Each must be able to fail, and none may pass having
checked nothing: ruff must say that all checks passed, mypy must report success over every Python
file of the configured folders, and CrossHair must report on every ``post:`` condition of the
contract-carrying kernels (a wrong module name would otherwise exit 0 having analysed nothing).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "reference" / "privref" / "reference" / "_kernels.py"


def _run(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def test_ruff_is_clean() -> None:
    done = _run("ruff", "check", ".", timeout=300)
    assert done.returncode == 0 and "All checks passed!" in done.stdout, done.stdout[-5000:]


def test_mypy_strict_is_clean_over_every_configured_file() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    files = {p for folder in config["files"] for p in (ROOT / folder).rglob("*.py")}
    done = _run("mypy", timeout=900)
    assert done.returncode == 0, done.stdout[-8000:]
    found = re.search(r"Success: no issues found in (\d+) source files", done.stdout)
    assert found is not None, done.stdout[-2000:]
    assert int(found.group(1)) == len(files), (found.group(0), len(files))


def _crosshair(per_condition_timeout: int) -> None:
    conditions = KERNELS.read_text(encoding="utf-8").count("post:")
    assert conditions >= 10, conditions
    done = _run("crosshair", "check", "--analysis_kind=PEP316",
                f"--per_condition_timeout={per_condition_timeout}", "--report_all",
                "privref.reference._kernels", timeout=1800)
    assert done.returncode == 0, (done.stdout + done.stderr)[-5000:]
    reported = re.findall(rf"{re.escape(str(KERNELS))}:\d+: info: (?:Not confirmed|Confirmed)",
                          done.stdout)
    assert len(reported) == conditions, done.stdout[-5000:]


def test_crosshair_finds_no_counterexample_to_the_kernels_contracts() -> None:
    """Every condition analysed for 2 s (CI, for time: docs/test-tiers.md); the deep tier
    searches 16 s per condition."""
    _crosshair(2)


@pytest.mark.deep
def test_crosshair_searches_deeper() -> None:
    _crosshair(16)
