"""The fenced code blocks of README.md and docs/*.md, their markers and their commands.

Used by tests/test_docs_run.py, which runs every block or requires it to be marked.  A block is
marked by HTML comments (invisible when the Markdown is rendered) on the lines right above its
opening fence, one marker a line:

* ``<!-- illustrative: REASON -->``: not run (it needs a cluster, a fresh install, minutes, or a
  library that does not exist); its ``privref`` commands must still parse and its Python must
  compile and import only names that exist.
* ``<!-- deep: REASON -->``: run only in the deep tier (``pytest -m deep``), for its cost.
* ``<!-- exit: N -->``: the exit status of every ``privref`` command in the block (default: 1
  when the shown output has a ``verdict VIOLATION`` line, else 0).

Running with ``python tests/docs_blocks.py JOBS.json RESULTS.json`` (cwd: the folder to run in)
executes the jobs of :func:`run_jobs` in this fresh process, so that the docs' examples share
nothing with the test process (its statistical budget, its registry, its working directory).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parent.parent

GENERATED_PAGES: Final = frozenset({"docs/ledger.md", "docs/errata.md", "docs/paper-map.md",
                                    "docs/halved-constants.md"})
"""Pages written by ``privref lemmas`` (checked against the ledger by their own tests)."""

MARKER_KEYS: Final = ("illustrative", "deep", "exit")
"""The marker keys a block may carry."""

SHELL_LANGS: Final = frozenset({"console", "sh", "shell", "bash", ""})
"""Fence languages read as commands (``$ `` lines with output for console-style blocks)."""

OUTPUT_FILTERS: Final = frozenset({"head", "tail", "less"})
"""Commands allowed after a pipe: they only shorten what is shown."""

_FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
_MARKER = re.compile(r"^\s*<!--\s*([a-z-]+)\s*:\s*(.*?)\s*-->\s*$")


@dataclass(frozen=True)
class Command:
    """One ``privref`` command of a block, with the output the doc shows after it."""

    argv: tuple[str, ...]
    shown: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Block:
    """One fenced code block: where it is, its language, text and markers."""

    page: str
    line: int
    lang: str
    text: str
    marks: dict[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        """``page:line`` of the opening fence."""
        return f"{self.page}:{self.line}"


def pages() -> list[Path]:
    """README.md and docs/*.md, without the generated ledger pages."""
    found = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return [p for p in found if p.relative_to(ROOT).as_posix() not in GENERATED_PAGES]


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of ``page``; ValueError on an unclosed fence or a malformed marker."""
    lines = page.read_text(encoding="utf-8").splitlines()
    name = page.relative_to(ROOT).as_posix() if page.is_relative_to(ROOT) else page.name
    out: list[Block] = []
    i = 0
    while i < len(lines):
        opened = _FENCE.match(lines[i])
        if not opened:
            i += 1
            continue
        start, lang = i, opened.group(2).lower()
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            i += 1
        if i == len(lines):
            raise ValueError(f"{name}:{start + 1}: the fence is never closed")
        marks: dict[str, str] = {}
        j = start - 1
        while j >= 0 and lines[j].lstrip().startswith("<!--"):
            marker = _MARKER.match(lines[j])
            if marker is None or marker.group(1) not in MARKER_KEYS:
                raise ValueError(f"{name}:{j + 1}: a comment right above a fence must be a marker "
                                 f"<!-- KEY: TEXT --> with KEY in {MARKER_KEYS}: {lines[j]!r}")
            if marker.group(1) in marks:
                raise ValueError(f"{name}:{j + 1}: marker {marker.group(1)!r} given twice")
            marks[marker.group(1)] = marker.group(2)
            j -= 1
        indent = len(opened.group(1))
        body = "\n".join(line[indent:] if not line[:indent].strip() else line.lstrip()
                         for line in lines[start + 1:i])
        out.append(Block(name, start + 1, lang, body + "\n", marks))
        i += 1
    return out


def all_blocks() -> list[Block]:
    """Every block of every page of :func:`pages`."""
    return [b for p in pages() for b in blocks(p)]


def _logical_lines(text: str, first: int) -> list[tuple[int, str]]:
    """Lines with backslash continuations joined, each with its line number."""
    out: list[tuple[int, str]] = []
    pending, at = "", first
    for n, line in enumerate(text.splitlines(), start=first):
        if not pending:
            at = n
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        out.append((at, pending + line))
        pending = ""
    if pending:
        out.append((at, pending))
    return out


def segments(command_line: str) -> list[list[str]]:
    """The simple commands of one shell line, split at ``&&``, ``||``, ``;`` and ``|``."""
    lexer = shlex.shlex(command_line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    parts: list[list[str]] = [[]]
    for token in lexer:
        if token in ("&&", "||", ";", "|", "&"):
            parts.append([])
        else:
            parts[-1].append(token)
    return [p for p in parts if p]


def program(words: list[str]) -> tuple[str, list[str]]:
    """The program's base name and its arguments (leading ``VAR=value`` words skipped)."""
    k = 0
    while k < len(words) and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[k]):
        k += 1
    if k == len(words):
        return "", []
    return Path(words[k]).name, words[k + 1:]


def shell_commands(block: Block) -> tuple[list[Command], list[str]]:
    """The block's ``privref`` commands (with the output shown after each) and every other
    program it runs (``pip``, ``python``, ...), output filters after a pipe excepted."""
    logical = _logical_lines(block.text, block.line + 1)
    console = any(text.startswith("$ ") for _, text in logical)
    commands: list[Command] = []
    others: list[str] = []
    for n, text in logical:
        if console and not text.startswith("$ "):
            if commands:
                last = commands[-1]
                commands[-1] = Command(last.argv, (*last.shown, text), last.line)
            continue
        line = text[2:] if console else text
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        for k, words in enumerate(segments(line)):
            name, args = program(words)
            if name == "privref":
                commands.append(Command(tuple(args), (), n))
            elif not (k > 0 and name in OUTPUT_FILTERS):
                others.append(name or " ".join(words))
    return commands, others


def expected_exit(block: Block) -> int:
    """The exit status the block shows or implies for its ``privref`` commands."""
    if "exit" in block.marks:
        return int(block.marks["exit"])
    shown = "\n".join(line for c in shell_commands(block)[0] for line in c.shown)
    return 1 if re.search(r"^\s*verdict\s+VIOLATION\b", shown, flags=re.M) else 0


def normalized(line: str) -> str:
    """A shown or printed line with what may differ between runs masked: durations, worker
    counts and library versions; runs of blanks collapsed."""
    line = re.sub(r"\b\d+(\.\d+)?\s?(s|ms|min)\b", "<time>", line)
    line = re.sub(r"\bon \d+ worker\(s\)", "on <n> worker(s)", line)
    line = re.sub(r"\[([\w.-]+) \d+(\.\d+)+\w*\]", r"[\1 <version>]", line)
    return " ".join(line.split())


def missing_lines(shown: tuple[str, ...], stdout: str, stderr: str) -> list[str]:
    """The shown lines (``...`` and blanks skipped) not printed: in order on stdout, or
    anywhere on stderr."""
    out = [normalized(x) for x in stdout.splitlines()]
    err = {normalized(x) for x in stderr.splitlines()}
    missing: list[str] = []
    k = 0
    for line in shown:
        want = normalized(line)
        if not want or want == "...":
            continue
        hit = next((j for j in range(k, len(out)) if out[j] == want), None)
        if hit is not None:
            k = hit + 1
        elif want not in err:
            missing.append(line)
    return missing


# ---- the runner (a fresh process) -----------------------------------------------------------


def _run_python(code: str, name: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            exec(compile(code, name, "exec"), namespace)
            for key, value in list(namespace.items()):
                if key.startswith("test_") and callable(value) and \
                        value.__code__.co_argcount == 0:
                    value()   # a block that defines a test runs it
    except BaseException as exc:  # reported to the test, whatever it is
        return {"error": "".join(traceback.format_exception(exc)), "stdout": out.getvalue()}
    return {"error": None, "stdout": out.getvalue(), "stderr": err.getvalue()}


def _run_privref(argv: list[str]) -> dict[str, Any]:
    from privref.app.commands.cli import main
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    except BaseException as exc:
        return {"rc": None, "error": "".join(traceback.format_exception(exc)),
                "stdout": out.getvalue(), "stderr": err.getvalue()}
    return {"rc": rc, "error": None, "stdout": out.getvalue(), "stderr": err.getvalue()}


def run_jobs(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run each job (``{"python": code, "name": ...}`` or ``{"privref": argv}``) in turn."""
    results = []
    for job in jobs:
        if "python" in job:
            results.append(_run_python(job["python"], job["name"]))
        else:
            results.append(_run_privref(list(job["privref"])))
    return results


if __name__ == "__main__":
    sys.path[:0] = [".", str(ROOT)]
    done = run_jobs(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")))
    Path(sys.argv[2]).write_text(json.dumps(done), encoding="utf-8")
