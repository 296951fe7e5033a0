"""The harness's log: outcomes read back by id, and a report rendered from it without a run."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from mutation.__main__ import carry, main, renames
from mutation.harness import current, digest, logged, mutants_of
from mutation.operators import sites

POOLED = "audits/privref/audits/blackbox/pooled.py"


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


def test_renames_follow_a_shift_and_skip_a_changed_mutant() -> None:
    """A line added above shifts every id by one line; a comparison that the edit changed
    keeps no analysis, and the mutants after it still move."""
    old = "def f(a, b):\n    if a < b:\n        return a + 1\n    return b - 1\n"
    new = "# one more line\ndef f(a, b):\n    if a <= b:\n        return a + 1\n    return b - 1\n"
    rename = renames(old, new, "m.py")
    before = {m.id: m for m in sites(old, "m.py")}
    assert rename == {"m.py:4:arith#0": "m.py:5:arith#0", "m.py:3:arith#1": "m.py:4:arith#1"}
    assert {before[k].operator for k in before} - {before[k].operator for k in rename} == {
        "boundary", "flip"}


def test_carry_at_head_moves_every_analysis_onto_itself(tmp_path: Path) -> None:
    """Carrying from HEAD for a module the working tree has not changed renames nothing and
    drops nothing (pooled.py is not edited by the test suite)."""
    analysis = tmp_path / "analysis.json"
    source = Path(__file__).resolve().parents[2] / "mutation" / "analysis.json"
    analysis.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    mine = [k for k in json.loads(analysis.read_text(encoding="utf-8")) if k.startswith(POOLED)]
    moved, dropped = carry([POOLED], "HEAD", analysis)
    assert (moved, dropped) == (len(mine), [])
    assert json.loads(analysis.read_text(encoding="utf-8")) == json.loads(
        source.read_text(encoding="utf-8"))


def test_a_logged_outcome_counts_only_for_the_source_it_was_made_from(tmp_path: Path) -> None:
    """--resume and --from-log skip a mutant only when its logged line was made from the same
    module: an edit renumbers the mutants below it, and an id alone would then skip a mutant
    that never ran.  Older lines (no digest) count only when the mutant is identical."""
    chosen = mutants_of([POOLED])
    here = digest((Path(__file__).resolve().parents[2] / POOLED).read_text(encoding="utf-8"))
    m0, m1, m2, m3 = chosen[:4]
    moved = json.loads(_line(2, "killed"))
    moved["line"] += 1                       # the same id, logged before a line was added
    rows = [{**json.loads(_line(0, "killed")), "source": here},
            {**json.loads(_line(1, "killed")), "source": "0" * 16},
            moved,
            json.loads(_line(3, "survived"))]
    log = tmp_path / "mut.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    got = current(logged(log), chosen)
    assert set(got) == {m0.id, m3.id}
    assert got[m3.id].status == "survived" and got[m0.id].source == here
    assert m1.id not in got and m2.id not in got
    out = tmp_path / "report.md"
    main(["--modules", POOLED, "--log", str(log), "--from-log", "--report", str(out)])
    assert f"{len(chosen) - 2} mutants of these modules are not run yet" in out.read_text(
        encoding="utf-8")


def test_the_digest_ignores_docstrings_and_comments_but_not_code_or_lines() -> None:
    """A docstring reworded on its own lines, or a comment, leaves the digest (and so the log)
    valid; a changed operator, or a docstring that gains a line (every id below moves), does not."""
    base = 'def f(a):\n    """Doc."""\n    return a + 1  # note\n'
    assert digest(base) == digest(base.replace("Doc.", "Reworded doc.").replace("note", "other"))
    assert digest(base) != digest(base.replace("a + 1", "a - 1"))
    assert digest(base) != digest(base.replace('"""Doc."""', '"""Doc.\n\n    More."""'))
    assert digest('"""Module."""\nX = 1\n') == digest('"""Other."""\nX = 1\n')


def test_rerun_takes_the_survivors_and_with_timeouts_the_timeouts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--rerun LOG runs that log's survivors; --timeouts adds the mutants that reached the time
    limit (on a loaded machine a slow check is not a hang); killed ones never run again."""
    here = digest((Path(__file__).resolve().parents[2] / POOLED).read_text(encoding="utf-8"))
    statuses = ["survived", "timeout", "killed"]
    log = tmp_path / "mut.jsonl"
    log.write_text("".join(json.dumps({**json.loads(_line(i, s)), "source": here}) + "\n"
                           for i, s in enumerate(statuses)), encoding="utf-8")
    ids = [m.id for m in mutants_of([POOLED])[:3]]
    for extra, expected in (([], ids[:1]), (["--timeouts"], ids[:2])):
        assert main(["--modules", POOLED, "--rerun", str(log), "--list", *extra]) == 0
        listed = [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()[:-1]]
        assert listed == expected


def test_the_digest_ignores_attribute_docstrings() -> None:
    """A bare string after an assignment (an attribute docstring) is read by no code either."""
    base = 'X = 1\n"""About X,\nover two lines."""\ny = X + 1\n'
    assert digest(base) == digest(base.replace("About X,", "What X is,"))
    assert digest(base) != digest(base.replace("X + 1", "X + 2"))
