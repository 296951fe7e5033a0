"""The harness's log: outcomes read back by id, and a report rendered from it without a run."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from mutation.__main__ import main
from mutation.harness import logged, mutants_of

POOLED = "audits/blackbox/pooled.py"


def _line(mutant_index: int, status: str) -> str:
    m = mutants_of([POOLED])[mutant_index]
    return json.dumps({**asdict(m), "id": m.id, "status": status, "seconds": 1.5})


def test_the_last_line_of_an_id_wins(tmp_path: Path) -> None:
    """A rerun appends to the log; its outcome replaces the earlier one of the same mutant."""
    log = tmp_path / "mut.jsonl"
    log.write_text("\n".join([_line(0, "survived"), _line(1, "killed"), _line(0, "killed")])
                   + "\n", encoding="utf-8")
    got = logged(log)
    assert len(got) == 2
    assert {o.status for o in got.values()} == {"killed"}
    assert all(o.seconds == 1.5 for o in got.values())


def test_from_log_runs_nothing_and_counts_what_is_not_run(tmp_path: Path) -> None:
    """--from-log renders the logged outcomes of the chosen modules and says how many mutants
    of them are still to run; a survivor not analysed as equivalent makes the exit code 1."""
    log, out = tmp_path / "mut.jsonl", tmp_path / "report.md"
    log.write_text(_line(0, "killed") + "\n" + _line(1, "survived") + "\n", encoding="utf-8")
    total = len(mutants_of([POOLED]))
    code = main(["--modules", POOLED, "--log", str(log), "--from-log", "--report", str(out)])
    text = out.read_text(encoding="utf-8")
    analysed = mutants_of([POOLED])[1].id in json.loads(
        (Path(__file__).resolve().parents[2] / "mutation" / "analysis.json").read_text(
            encoding="utf-8"))
    assert code == (0 if analysed else 1)
    assert f"{total - 2} mutants of these modules are not run yet" in text
    assert f"| `{POOLED}` | 2 | 1 | 0 | 1 |" in text


def test_resume_and_from_log_need_a_log() -> None:
    """Without --log there is nothing to resume from: exit 2."""
    assert main(["--modules", POOLED, "--resume"]) == 2
    assert main(["--modules", POOLED, "--from-log"]) == 2
