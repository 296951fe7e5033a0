"""The 002 rows of ``privref audit``: exact audits of Algorithms 1-3, the core and B1-B5."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from privref.app.cli import main
from privref.app.suites.prediction import PredictionBuiltin, json_record, prediction_audits, table_cells
from privref.audits.prediction import audit_prediction
from privref.reference.prediction import PrivatePrediction, UniformStability
from privref.reference.reals import Order, compare, exp, rational
from privref.reference.verdict import Verdict

ROWS = prediction_audits(False)


def test_the_rows_cover_every_002_algorithm_and_baseline() -> None:
    tags = " ".join(row.label for row in ROWS)
    for tag in ("Algorithm 1", "Algorithm 2", "Algorithm 3, core", "Algorithm 3;", "B1", "B2",
                "B3", "B4", "B5"):
        assert tag in tags, tag
    assert all(row.queries == tuple(row.predictor.domain or ()) for row in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[r.label for r in ROWS])
def test_every_row_holds_and_its_worst_case_is_within_the_claim(row: PredictionBuiltin) -> None:
    report = row.run()
    assert report.verdict is Verdict.HOLDS
    claim = report.claim
    if isinstance(claim, UniformStability):
        assert report.gamma_exact is not None
        assert compare(rational(report.gamma_exact), claim.gamma)[0] in (Order.LESS, Order.EQUAL)
    else:
        assert report.epsilon_exact is not None
        worst, stated = exp(report.epsilon_exact).exact, exp(claim.epsilon).exact
        assert worst is not None and stated is not None and worst <= stated
    cells = table_cells(row, report)
    assert cells[0] == row.label and cells[-1] == "HOLDS"
    json.dumps(json_record(row, report))


def test_b1_to_b4_claims_are_attained_exactly() -> None:
    """The baselines' claims are tight on these universes: m/n, 1/k, ln 2, ln(13/8)."""
    found = {row.label.split(" [")[0]: row.run() for row in ROWS}
    assert found["002 baseline B1 (random-subsample ERM)"].gamma_exact == Fraction(1, 2)
    assert found["002 baseline B2 (block average)"].gamma_exact == Fraction(1, 2)
    b3 = found["002 baseline B3 (block average, then flip)"].epsilon_exact
    b4 = found["002 baseline B4 (private majority)"].epsilon_exact
    assert b3 is not None and exp(b3).exact == 2
    assert b4 is not None and exp(b4).exact == Fraction(13, 8)


@pytest.mark.parametrize("row", ROWS[:2], ids=["Algorithm 1", "Algorithm 2"])
def test_a_claim_below_the_worst_case_is_violated(row: PredictionBuiltin) -> None:
    """The rows can fail: claiming 9/10 of the exact worst case is VIOLATED."""
    report = row.run()
    if isinstance(report.claim, UniformStability):
        assert report.gamma_exact is not None
        tight = UniformStability(rational(report.gamma_exact * Fraction(9, 10)))
        bad = audit_prediction(row.predictor, row.universe, row.queries, claim=tight)
    else:
        assert report.epsilon_exact is not None
        tight_p = PrivatePrediction(report.epsilon_exact * rational(Fraction(9, 10)))
        bad = audit_prediction(row.predictor, row.universe, row.queries, claim=tight_p)
    assert bad.verdict is Verdict.VIOLATED


def test_privref_audit_lists_the_prediction_rows(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "audit.json"
    assert main(["audit", "--only", "002", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "002 Algorithm 3 (relabel, then flip)" in text and "γ 1/2" in text
    records = json.loads(out.read_text())["results"]
    assert len(records) == len(ROWS)
    assert {r["kind"] for r in records} == {"prediction"}
