"""``privref illustrate``: the paper-003 illustrations write a JSON table and a PNG plot."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from privref.app.cli import main
from privref.app.experiments.illustrations import (
    em_bound,
    littlestone_table,
    public_table,
    semiprivate_table,
)


def test_littlestone_of_thresholds_is_floor_log2_while_vc_is_one() -> None:
    rows = littlestone_table(12)
    assert [r["littlestone"] for r in rows] == [(n + 1).bit_length() - 1 for n in range(1, 13)]
    assert {r["vc"] for r in rows} == {1}


def test_public_table_reports_the_lower_bound_exactly() -> None:
    (row,) = public_table((Fraction(1, 4),), 2, 16, 4, Fraction(1), 0)
    assert row["lower_bound_1_over_1600_alpha"] == 4 / 1600 and row["inverse_alpha"] == 4.0


def test_semiprivate_rows_carry_the_exact_em_bounds() -> None:
    """KLNRS: ⌈(2/(αε))ln(|C|/β)⌉ = ⌈16 ln 36⌉ = 58 at d = 3 and ⌈16 ln 516⌉ = 100 at d = 7;
    A_SSPP's cover on the 8-point window has at most 9 concepts: 58 at every d."""
    rows = semiprivate_table((3, 7), 16, 2, Fraction(1, 2), 0, labeled_sizes=(256,))
    got = {(r["learner"], r["d"]): (r["candidates"], r["em_bound"]) for r in rows}
    assert got == {("klnrs", 3): (9, 58), ("klnrs", 7): (129, 100), ("sspp", 3): (9, 58),
                   ("sspp", 7): (9, 58)}
    assert em_bound(1025, Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)) == 134


@pytest.mark.parametrize("which", ["littlestone",
                                   pytest.param("semiprivate", marks=pytest.mark.deep),
                                   pytest.param("public", marks=pytest.mark.deep)])
def test_cli_writes_json_and_png(which: str, tmp_path: Path) -> None:
    out, png = tmp_path / "t.json", tmp_path / "t.png"
    assert main(["illustrate", which, "--quick", "--json", str(out), "--png", str(png)]) == 0
    table = json.loads(out.read_text())
    assert table["illustration"] == which and table["rows"] and table["privref_version"]
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_bad_arguments() -> None:
    assert main(["illustrate", "public", "--runs", "x", "--json", "/tmp/x.json"]) == 2
    assert main(["illustrate", "littlestone", "--png", "/no/such/dir/p.png"]) == 2


@pytest.mark.parametrize("argv, message", [
    (["semiprivate", "--quick", "--runs", "5"], "--quick sets --runs"),
    (["public", "--runs", "1000000000"], "--runs=1000000000 must be an int in [1, 100000]"),
    (["public", "--runs", "5000"], "--runs=5000 must be an int in [1, 2000]"),
    (["public", "--seed=-5"], "--seed=-5 must be an int in [0, 18446744073709551615]"),
    (["littlestone", "--json", "{tmp}"], "is a directory"),
])
def test_bad_values_name_the_flag(argv: list[str], message: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["illustrate", *(a.replace("{tmp}", str(tmp_path)) for a in argv)]) == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("privref illustrate: error: ") and message in last, last


def test_nothing_is_written_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["illustrate", "littlestone", "--quick"]) == 0
    assert "'littlestone': 4" in capsys.readouterr().out  # 16 points: Ldim 4
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["illustrate", "littlestone", "--quick", "--png", "/dev/full"]) == 3
    assert "--png /dev/full: could not write" in capsys.readouterr().err
