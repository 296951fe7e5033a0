"""The learning-curve experiment (``privref learn``): exact errors, reproducibility, outputs, errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from privref.app.cli import main
from privref.app.experiments.learning import (
    ExperimentConfig,
    _error,
    run_cell,
    run_experiment,
    sample_complexity,
)
from privref.reference.concepts import thresholds
from privref.reference.errors import InvalidArgument

SMALL = ExperimentConfig(learners=("klnrs",), families=("thresholds",), dims=(2,),
                         labeled_sizes=(2, 32), runs=12, seed=3)


def test_error_is_the_exact_disagreement_fraction() -> None:
    """THRESH_2: c_1 and c_3 disagree on x = 1, 2 of the 4 points."""
    c = thresholds(2)
    assert _error(c[1], c[3]) == Fraction(1, 2) and _error(c[2], c[2]) == 0


def test_cells_are_reproducible_and_their_intervals_contain_the_frequency() -> None:
    a, b = run_experiment(SMALL), run_experiment(SMALL)
    assert [c.to_json() | {"seconds": 0} for c in a.cells] == [c.to_json() | {"seconds": 0}
                                                                  for c in b.cells]
    for c in a.cells:
        assert c.failure_low <= Fraction(c.failures, c.runs) <= c.failure_high
        assert c.claimed_epsilon == "1" and c.vc == 1 and c.class_size == 5
    # more labeled data, fewer failures (exact counts for this seed)
    few, many = a.cells
    assert few.failures >= many.failures


def test_sample_complexity_is_the_smallest_size_below_beta() -> None:
    result = run_experiment(SMALL)
    stars = sample_complexity(result)
    (m_star, n_star), = stars.values()
    ok = [c.labeled for c in result.cells if c.failure_high <= SMALL.beta]
    assert m_star == (min(ok) if ok else None) and n_star in (0, None)


def test_seeds_are_per_cell() -> None:
    """A cell's result does not depend on which other cells run (seeded by its index)."""
    alone = run_cell("klnrs", "thresholds", 2, 32, 0, SMALL, 1)
    assert alone.failures == run_experiment(SMALL).cells[1].failures


@pytest.mark.parametrize("kwargs, message", [
    ({"learners": ("nope",)}, "learner='nope' is not registered"),
    ({"families": ("circles",)}, "family='circles' is unknown"),
    ({"dims": ()}, "dims=\\(\\) must hold at least one value"),
    ({"alpha": Fraction(3, 2)}, "alpha=3/2 must lie in"),
    ({"runs": 0}, "runs=0 must be"),
])
def test_bad_configuration(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        ExperimentConfig(**kwargs)  # type: ignore[arg-type]


def test_cli_writes_json_and_png(tmp_path: Path) -> None:
    out, png = tmp_path / "l.json", tmp_path / "l.png"
    status = main(["learn", "--learners", "klnrs", "--families", "thresholds", "--dims", "2",
                   "--labeled", "4,16", "--runs", "5", "--json", str(out), "--png", str(png)])
    assert status == 0
    table = json.loads(out.read_text())
    assert table["config"]["runs"] == 5 and len(table["cells"]) == 2
    assert table["privref_version"] and table["sample_complexity"][0]["d"] == 2
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["learn", "--dims", "2,x", "--json", str(out)]) == 2
    assert main(["learn", "--png", "/no/such/dir/p.png", "--runs", "1"]) == 2


def test_cli_writes_nothing_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Without --json/--png the results go to stdout and the working directory stays empty."""
    monkeypatch.chdir(tmp_path)
    assert main(["learn", "--quick", "--learners", "klnrs", "--families", "thresholds",
                 "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "klnrs      thresholds  d=2 VC=1 proved eps=1: m* = " in captured.out
    assert captured.err == "" and list(tmp_path.iterdir()) == []


def test_progress_is_one_counter_line_per_cell(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "--learners", "klnrs", "--families", "thresholds", "--dims", "2",
                 "--labeled", "4,16", "--runs", "3"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert [line[:6] for line in lines] == ["[1/2] ", "[2/2] "]


@pytest.mark.parametrize("argv, message", [
    (["--quick", "--runs", "5"], "--quick sets --dims, --labeled, --unlabeled and --runs; drop "
                                 "--quick or --runs"),
    (["--runs", "5,6"], "--runs='5,6' must be an int in [1, 100000]"),
    (["--runs", "1000000000"], "--runs=1000000000 must be an int in [1, 100000]"),
    (["--dims", "60"], "--dims='60' must be a comma-separated list of ints in [1, 16]"),
    (["--labeled=-3"], "--labeled='-3' must be a comma-separated list of ints in [1, 100000]"),
    (["--seed", "1" + "0" * 40], "--seed="),
    (["--alpha", "0"], "--alpha=0 must lie in (0, 1)"),
    (["--beta", "nan"], "--beta='nan' is not an exact number"),
    (["--epsilon", "1e9"], "--epsilon=1e9 must lie in (0, 1000]"),
    (["--epsilon", "1e99999999"], "--epsilon='1e99999999' is not an exact number"),
    (["--learners", "nope"], "--learners: 'nope' is unknown"),
    (["--runs", "10000", "--dims", "2,3,4,5,6,7,8"], "more than max_work=4e+09"),
])
def test_cli_refuses_bad_and_huge_values_before_running(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every numeric flag is bounded; the error names the flag and the limit; nothing runs."""
    assert main(["learn", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    last = captured.err.strip().splitlines()[-1]
    assert last.startswith("privref learn: error: ") and message in last, last


def test_grid_work_is_bounded_in_the_api() -> None:
    """ExperimentConfig refuses a grid whose estimated work exceeds max_work (raisable)."""
    with pytest.raises(InvalidArgument, match="max_work=4e\\+09"):
        ExperimentConfig(dims=(8, 9, 10), runs=100_000)
    config = ExperimentConfig(dims=(8,), runs=10_000, max_work=10**12)
    assert config.max_work == 10**12
