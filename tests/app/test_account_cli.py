"""``privref account gaussian`` and the reproduction of 001 Table 4's ε_ex_post column."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from privref.app.cli import main
from privref.app.experiments.paper_table4 import PAPER_TRAIN, ROWS, Reproduction, reproduce_all
from privref.reference.accounting import analytic_gaussian_delta


@pytest.fixture(scope="module")
def table() -> tuple[Reproduction, ...]:
    return reproduce_all()


def test_table4_has_every_private_row() -> None:
    assert len(ROWS) == 18
    assert {(r.dataset, r.method, r.epsilon) for r in ROWS} == {
        (d, m, e) for d in PAPER_TRAIN for m in ("PSQ", "ASQ")
        for e in (Fraction(1, 2), Fraction(1), Fraction(2))}
    assert PAPER_TRAIN["a9a"] == 39073  # the paper's a9a (48,842 rows), not Adult's 32,561
    mushroom = [r for r in ROWS if r.dataset == "mushroom" and r.method == "ASQ"]
    assert [r.half_unit for r in mushroom] == [Fraction(1, 20)] * 3
    assert ROWS[12].queries == 1447 and ROWS[12].half_unit == Fraction(1, 2)


def test_every_row_of_table4_reproduces(table: tuple[Reproduction, ...]) -> None:
    bad = [(r.row, r.epsilon_low, r.epsilon_high) for r in table if not r.reproduced]
    assert not bad


def test_table4_sigma_is_calibrated_and_full_budget_rows_give_epsilon(
        table: tuple[Reproduction, ...]) -> None:
    for rep in table:
        delta = Fraction(1, PAPER_TRAIN[rep.row.dataset])
        assert analytic_gaussian_delta(rep.row.epsilon, rep.row.budget, rep.sigma.hi).hi <= delta
        assert analytic_gaussian_delta(rep.row.epsilon, rep.row.budget, rep.sigma.lo).lo > delta
        if rep.row.queries == rep.row.budget:  # the printed ε_ex_post is then ε itself
            assert rep.row.epsilon_ex_post == rep.row.epsilon
        else:  # fewer queries: strictly less privacy spent
            assert rep.epsilon_high.hi < rep.row.epsilon


def test_cli_prints_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "a.json"
    argv = ["account", "gaussian", "--queries", "49", "--epsilon", "0.5", "--delta", "1/6499",
            "--realized", "40.1", "--json", str(out)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "sigma for 49" in text and "after 401/10 queries" in text
    data = json.loads(out.read_text())
    assert data["parameters"] == {"queries": 49, "epsilon": "1/2", "delta": "1/6499",
                                  "realized": "401/10"}
    assert data["privref_version"]
    s_lo, s_hi = Fraction(data["sigma_lower"]), Fraction(data["sigma_upper"])
    e_lo, e_hi = Fraction(data["epsilon_ex_post_lower"]), Fraction(data["epsilon_ex_post_upper"])
    assert s_lo < s_hi and e_lo < e_hi < Fraction(1, 2)
    delta = Fraction(1, 6499)
    assert analytic_gaussian_delta(Fraction(1, 2), 49, s_hi).hi <= delta
    assert analytic_gaussian_delta(Fraction(1, 2), 49, s_lo).lo > delta
    # the ex-post enclosure is proved at the bracket's ends: ε_hi safe at σ_lo, ε_lo not at σ_hi
    assert analytic_gaussian_delta(e_hi, Fraction(401, 10), s_lo).hi <= delta
    assert analytic_gaussian_delta(e_lo, Fraction(401, 10), s_hi).lo > delta


def test_cli_without_realized_has_no_ex_post(tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    assert main(["account", "gaussian", "--queries", "1", "--epsilon", "1", "--delta", "1e-5",
                 "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert "epsilon_ex_post_lower" not in data and data["parameters"]["realized"] is None


@pytest.mark.parametrize(("argv", "flag"), [
    (["--queries", "0", "--epsilon", "1", "--delta", "0.1"], "--queries"),
    (["--queries", "2.5", "--epsilon", "1", "--delta", "0.1"], "--queries"),
    (["--queries", "3", "--epsilon", "0", "--delta", "0.1"], "--epsilon"),
    (["--queries", "3", "--epsilon", "1", "--delta", "1"], "--delta"),
    (["--queries", "3", "--epsilon", "1", "--delta", "0.1", "--realized", "-2"], "--realized"),
    (["--queries", "3", "--epsilon", "1", "--delta", "0.1", "--json", "/no/such/dir/a.json"],
     "--json"),
])
def test_usage_errors_exit_2(argv: list[str], flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["account", "gaussian", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("privref account gaussian: error: ") and flag in err


def test_unwritable_output_exits_3() -> None:
    assert main(["account", "gaussian", "--queries", "2", "--epsilon", "1", "--delta", "0.1",
                 "--json", "/dev/full"]) == 3
