"""The learning-curve experiment (``privref learn``): exact errors, reproducibility, outputs, errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from privref.app.cli import main
from privref.app.learning import ExperimentConfig, _error, run_cell, run_experiment, sample_complexity
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
