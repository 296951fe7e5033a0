"""The harness's test selection: the lines a check executes, and the checks a mutant then gets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from mutation.harness import ROOT, TARGETS, _selected, mutants_of, unparsed_lines
from mutation.operators import apply, sites

_MODULE = '''def f(x,
      y):
    """A docstring
    on two lines."""
    if x <= y:  # a comment the unparse drops
        return x + 1
    return (x *
            2)


LIMIT = 3 + 4
'''

_TEST = '''from mod_x import f


def test_low() -> None:
    assert f(1, 2) == 2
'''


def test_each_mutant_is_found_on_its_line_of_the_unparsed_module() -> None:
    where = unparsed_lines(_MODULE, "mod_x.py")
    mutants = sites(_MODULE, "mod_x.py")
    assert set(where) == {m.id for m in mutants}
    base = apply(_MODULE, None).splitlines()
    for m in mutants:
        assert m.before in base[where[m.id] - 1], (m.id, base[where[m.id] - 1])
    moved = [m for m in mutants if where[m.id] != m.line]
    assert moved  # the layout changes, so the map is needed


def test_every_target_mutant_has_a_line_in_the_unparsed_module() -> None:
    for path in TARGETS:
        source = (ROOT / path).read_text(encoding="utf-8")
        assert set(unparsed_lines(source, path)) == {m.id for m in mutants_of([path])}, path


def test_the_tracer_sees_the_branch_taken_and_not_the_other(tmp_path: Path) -> None:
    (tmp_path / "mod_x.py").write_text(apply(_MODULE, None), encoding="utf-8")
    (tmp_path / "test_x.py").write_text(_TEST, encoding="utf-8")
    out = tmp_path / "lines.json"
    done = subprocess.run([sys.executable, "-m", "mutation.trace", str(out),
                           str(tmp_path / "mod_x.py"), "pytest", "-q", "-p", "no:cacheprovider",
                           "test_x.py"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False,
                          env={"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    got = json.loads(out.read_text(encoding="utf-8"))
    assert got["status"] == 0
    text = apply(_MODULE, None).splitlines()
    line = {s: text.index(next(t for t in text if s in t)) + 1 for s in
            ("if x <= y", "return x + 1", "return x * 2", "LIMIT = 3 + 4")}
    executed = set(got["lines"])
    assert {line["if x <= y"], line["return x + 1"], line["LIMIT = 3 + 4"]} <= executed
    assert line["return x * 2"] not in executed


def test_a_mutant_gets_only_the_files_that_execute_its_line() -> None:
    checks = (("pytest", "a.py", "b.py"), ("privref", "lemmas", "--check"))
    cover = {(0, "a.py"): frozenset({5, 6}), (0, "b.py"): frozenset({6}),
             (1, ""): frozenset({7})}
    assert _selected(checks, cover, 5) == [("pytest", "a.py")]
    assert _selected(checks, cover, 6) == [("pytest", "a.py", "b.py")]
    assert _selected(checks, cover, 7) == [("privref", "lemmas", "--check")]
    assert _selected(checks, cover, 8) == []
