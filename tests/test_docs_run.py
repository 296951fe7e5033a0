"""The docs run: every fenced code block of README.md and docs/*.md is executed, or marked.

Blocks and markers: tests/docs_blocks.py.  An unmarked block runs in the default tier; one
marked ``<!-- deep: REASON -->`` runs in the deep tier; one marked ``<!-- illustrative:
REASON -->`` is not run.  Python blocks run (and call the zero-argument ``test_*`` functions
they define); ``privref`` commands run with their exit status checked against the one the
block shows or implies and every output line the block shows (durations, worker counts and
library versions masked) found in what the command prints.  Whatever the marker, every
``privref`` command must parse with the real argument parser and every Python block must
compile and import only names that exist, so a renamed command, flag or function fails here.

Blocks run in one fresh process per tier (tests/docs_blocks.py as a script), in a temporary
folder holding a copy of docs/ (without docs/generated/) and the files of docs/examples/, so
``docs/examples/rr.py:rr`` and ``rr.py:rr`` both resolve and nothing in the checkout is written.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import inspect
import io
import json
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from privref.app.commands.cli import _parser, _wanted

from .docs_blocks import (
    ROOT,
    SHELL_LANGS,
    Block,
    all_blocks,
    blocks,
    expected_exit,
    missing_lines,
    pages,
    shell_commands,
)

BLOCKS = all_blocks()
COMMANDS = [(b, c) for b in BLOCKS if b.lang in SHELL_LANGS for c in shell_commands(b)[0]]
_RUN = [b for b in BLOCKS if "illustrative" not in b.marks]
_CACHE: dict[str, dict[str, list[dict[str, Any]]]] = {}


def _tier(block: Block) -> str:
    return "deep" if "deep" in block.marks else "default"


def _param(block: Block) -> Any:
    marks = [pytest.mark.deep] if _tier(block) == "deep" else []
    return pytest.param(block, id=block.id, marks=marks)


def _jobs(block: Block) -> list[dict[str, Any]]:
    if block.lang == "python":
        return [{"python": block.text, "name": block.id}]
    return [{"privref": list(c.argv)} for c in shell_commands(block)[0]]


def _results(block: Block, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The results of ``block``'s jobs, from one run of every block of its tier."""
    tier = _tier(block)
    if tier not in _CACHE:
        todo = [b for b in _RUN if _tier(b) == tier and b.lang != "toml"]
        cwd = tmp_path_factory.mktemp(f"docs-run-{tier}")
        shutil.copytree(ROOT / "docs", cwd / "docs", ignore=shutil.ignore_patterns("generated"))
        for example in sorted((ROOT / "docs" / "examples").glob("*")):
            if example.is_file():
                shutil.copy(example, cwd / example.name)
        jobs = [job for b in todo for job in _jobs(b)]
        (cwd / "jobs.json").write_text(json.dumps(jobs), encoding="utf-8")
        done = subprocess.run([sys.executable, str(ROOT / "tests" / "docs_blocks.py"), "jobs.json",
                               "results.json"], cwd=cwd, capture_output=True, text=True,
                              timeout=1800, check=False)
        assert done.returncode == 0, f"the docs runner failed: {done.stderr[-3000:]}"
        results = json.loads((cwd / "results.json").read_text(encoding="utf-8"))
        _CACHE[tier] = {}
        for b in todo:
            _CACHE[tier][b.id] = results[:len(_jobs(b))]
            results = results[len(_jobs(b)):]
    return _CACHE[tier][block.id]


def test_the_pages_have_blocks() -> None:
    """The collector sees the pages' blocks (a broken fence regex would see none)."""
    pages = {b.page for b in BLOCKS}
    assert {"README.md", "docs/api.md", "docs/blackbox.md", "docs/blackbox-cluster.md"} <= pages
    assert len(BLOCKS) >= 30 and len(COMMANDS) >= 15


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_every_block_runs_or_is_marked(block: Block) -> None:
    """A block that cannot run here (it installs, needs a cluster or a library that does not
    exist, or runs other programs) is marked illustrative, with a reason."""
    for key in ("illustrative", "deep"):
        if key in block.marks:
            assert block.marks[key].strip(), f"{block.id}: <!-- {key}: REASON --> needs a reason"
    assert not {"illustrative", "deep"} <= set(block.marks), f"{block.id}: illustrative or deep"
    if "exit" in block.marks:
        assert block.marks["exit"].isdigit(), f"{block.id}: <!-- exit: N --> needs an integer"
    if "illustrative" in block.marks:
        return
    if block.lang in ("python", "toml"):
        return
    assert block.lang in SHELL_LANGS, \
        f"{block.id}: a ```{block.lang} block cannot be run; mark it <!-- illustrative: REASON -->"
    commands, others = shell_commands(block)
    assert commands, f"{block.id}: no privref command to run; mark it illustrative"
    assert not others, (f"{block.id}: runs {others}, which this test does not run; mark it "
                        "<!-- illustrative: REASON --> or keep only privref commands")


@pytest.mark.parametrize(("block", "argv"), [(b, c.argv) for b, c in COMMANDS],
                         ids=[f"{b.id}:{' '.join(c.argv)[:50]}" for b, c in COMMANDS])
def test_every_privref_command_parses(block: Block, argv: tuple[str, ...]) -> None:
    """Every privref command of every block, illustrative ones included, names an existing
    command and existing flags with the right number of values."""
    parser = _parser(_wanted(list(argv)))
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            args = parser.parse_args(list(argv))
    except SystemExit as exc:
        assert exc.code == 0, f"{block.id}: privref {' '.join(argv)}: {err.getvalue().strip()}"
        return
    assert isinstance(args, argparse.Namespace) and args.command, f"{block.id}: no command"


def _imports(tree: ast.AST) -> list[tuple[str, str | None]]:
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [(node.module, alias.name) for alias in node.names]
    return found


_PYTHON = [b for b in BLOCKS if b.lang == "python"]


@pytest.mark.parametrize("block", _PYTHON, ids=[b.id for b in _PYTHON])
def test_python_blocks_compile_and_import_what_exists(block: Block,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Python block, illustrative ones included, compiles, and each name it imports
    exists (modules of the checkout such as ``validation`` included)."""
    tree = ast.parse(block.text, filename=block.id)
    monkeypatch.syspath_prepend(str(ROOT))
    for module, name in _imports(tree):
        if module == "pytest" or module.split(".")[0] in {"mymech", "mylib"}:
            continue
        try:
            imported = importlib.import_module(module)
        except ImportError as exc:
            pytest.fail(f"{block.id}: import {module}: {exc}")
        if name is not None and not hasattr(imported, name):
            try:
                importlib.import_module(f"{module}.{name}")
            except ImportError:
                pytest.fail(f"{block.id}: from {module} import {name}: no such name")
    bad = _unknown_keywords(tree)
    assert not bad, f"{block.id}: calls with keywords the function does not take: {bad}"


def _unknown_keywords(tree: ast.AST) -> list[str]:
    """Calls of imported functions (``from m import f; f(x=...)``) with a keyword ``f`` does
    not accept, so a renamed parameter fails even in an illustrative block."""
    imported: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            with contextlib.suppress(ImportError):
                module = importlib.import_module(node.module)
                imported.update({(a.asname or a.name): getattr(module, a.name)
                                 for a in node.names if hasattr(module, a.name)})
    bad = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in imported):
            continue
        try:
            signature = inspect.signature(imported[node.func.id])  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        params = signature.parameters.values()
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
            continue
        names = {p.name for p in params if p.kind is not inspect.Parameter.POSITIONAL_ONLY}
        bad += [f"{node.func.id}({kw.arg}=...)" for kw in node.keywords
                if kw.arg is not None and kw.arg not in names]
    return bad


_TOML = [b for b in BLOCKS if b.lang == "toml"]


@pytest.mark.parametrize("block", _TOML, ids=[b.id for b in _TOML])
def test_toml_blocks_parse(block: Block) -> None:
    """A TOML block is valid TOML."""
    tomllib.loads(block.text)


_EXECUTED = [b for b in _RUN if b.lang in ("python", *SHELL_LANGS)]


@pytest.mark.parametrize("block", [_param(b) for b in _EXECUTED])
def test_block_runs_as_shown(block: Block, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The block runs: Python without an exception, each privref command with the exit status
    the block shows or implies and every output line it shows."""
    results = _results(block, tmp_path_factory)
    if block.lang == "python":
        assert results[0]["error"] is None, f"{block.id} raised:\n{results[0]['error']}"
        return
    want = expected_exit(block)
    for command, result in zip(shell_commands(block)[0], results, strict=True):
        shown = f"{block.page}:{command.line}: privref {' '.join(command.argv)}"
        assert result["error"] is None, f"{shown} raised:\n{result['error']}"
        assert result["rc"] == want, (f"{shown} exited {result['rc']}, the doc implies {want}; "
                                      f"stderr: {result['stderr'][-2000:]}")
        missing = missing_lines(command.shown, result["stdout"], result["stderr"])
        assert not missing, (f"{shown}: the doc shows lines it does not print: {missing}\n"
                             f"it printed:\n{result['stdout'][-4000:]}")


def test_the_checks_can_fail(tmp_path: Path) -> None:
    """Unmarked blocks that run other programs, reasonless markers, unknown keywords, wrong
    exit statuses and lines a command does not print are all caught."""
    page = tmp_path / "page.md"
    page.write_text("\n".join([
        "```sh", "pip install privref && privref audit", "```", "",
        "<!-- illustrative: -->", "```python", "x = 1", "```", "",
        "```console", "$ privref audit blackbox rr.py:rr --epsilon 1", "  verdict          VIOLATION",
        "```", ""]), encoding="utf-8")
    found = blocks(page)
    assert [b.lang for b in found] == ["sh", "python", "console"]
    with pytest.raises(AssertionError, match="runs \\['pip'\\]"):
        test_every_block_runs_or_is_marked(found[0])
    with pytest.raises(AssertionError, match="needs a reason"):
        test_every_block_runs_or_is_marked(found[1])
    assert expected_exit(found[2]) == 1
    assert missing_lines(shell_commands(found[2])[0][0].shown, "verdict NO_VIOLATION_FOUND\n", "")
    assert not missing_lines(("  samples  9 on 2 worker(s); 0.4s",), "samples 9 on 8 worker(s); 3.1s", "")
    tree = ast.parse("from privref.audits.blackbox import AuditConfig\nAuditConfig(epsilonn=1)")
    assert _unknown_keywords(tree) == ["AuditConfig(epsilonn=...)"]
    page.write_text("<!-- ilustrative: typo -->\n```sh\nprivref audit\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match="must be a marker"):
        blocks(page)
    page.write_text("```sh\nprivref audit\n", encoding="utf-8")
    with pytest.raises(ValueError, match="never closed"):
        blocks(page)
    with pytest.raises(AssertionError, match="privref blackbox"):
        test_every_privref_command_parses(found[2], ("blackbox", "rr.py:rr"))


def _inline_commands() -> list[tuple[str, str]]:
    """The ``privref ...`` spans of inline code outside fences: (page, span)."""
    found = []
    for page in pages():
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        found += [(page.relative_to(ROOT).as_posix(), " ".join(m.group(1).split()))
                  for m in re.finditer(r"`privref ([^`]+)`", text)]
    return found


def _unknown_words(words: list[str]) -> list[str]:
    """The command words and ``--flags`` of a (possibly partial) command line that the real
    parser does not know; placeholders (``COMMAND``, ``<command>``) end the check."""
    parser: argparse.ArgumentParser = _parser(words[0].rstrip(":") if words else None)
    bad: list[str] = []
    command_words = True
    for word in words:
        if word.startswith("-"):
            command_words = False
            options = {o for a in parser._actions for o in a.option_strings}
            if word.startswith("--") and word.split("=")[0] not in options:
                bad.append(word)
            continue
        if not command_words:
            continue
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        name = word.rstrip(":")
        if not subs or not re.fullmatch(r"[a-z][a-z0-9-]*", name):
            command_words = False   # a value, a placeholder or a positional argument
            continue
        if name not in subs[0].choices:
            bad.append(word)
            break
        parser = subs[0].choices[name]
    return bad


_INLINE = _inline_commands()


def test_inline_privref_commands_name_real_commands_and_flags() -> None:
    """Every `privref ...` span in the prose names existing commands and flags."""
    assert len(_INLINE) >= 40
    bad = [f"{page}: privref {span}: {words}" for page, span in _INLINE
           if (words := _unknown_words(shlex.split(span.replace("...", ""))))]
    assert not bad, "\n".join(bad)
    assert _unknown_words(["blackbox", "x.py:f"]) == ["blackbox"]
    assert _unknown_words(["audit", "blackbox", "x.py:f", "--pairs", "[0]"]) == ["--pairs"]
