"""Which lines of one module a behaviour check executes: the harness's test selection.

``python -m mutation.trace OUT MODULE pytest ARGS...`` runs pytest with ARGS (or ``... privref
ARGS...`` the ``privref`` command) in this process under a line tracer restricted to the file
MODULE, and writes ``{"status": exit status, "lines": [executed line numbers]}`` to OUT.

The harness runs one such process per test file (and one per ``privref`` check) on the
unmutated module, so every file computes what it uses itself (no cache filled by an earlier
file hides a line), and later runs, for each mutant, only the files that executed its line.
Module-level lines (constants, defaults, decorators) run at import, so every file executes them.
Not seen: lines a check reaches only in a child process (the harness's targets reach the
mutated modules in-process).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any


def traced(module: str, call: Any, *args: Any) -> tuple[Any, set[int]]:
    """``call(*args)`` with the lines it executes in the file ``module`` recorded."""
    real = os.path.realpath(module)
    lines: set[int] = set()
    known: dict[str, bool] = {}

    def local(frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            lines.add(frame.f_lineno)
        return local

    def outer(frame: FrameType, event: str, arg: object) -> Any:
        name = frame.f_code.co_filename
        hit = known.get(name)
        if hit is None:
            hit = known[name] = os.path.realpath(name) == real
        if not hit:
            return None
        lines.add(frame.f_lineno)
        return local

    threading.settrace(outer)
    sys.settrace(outer)
    try:
        result = call(*args)
    finally:
        sys.settrace(None)
        threading.settrace(None)
    return result, lines


def main(argv: list[str]) -> int:
    """Run one check under the tracer and write its status and lines."""
    out, module, kind, *rest = argv
    if kind == "pytest":
        import pytest

        status, lines = traced(module, pytest.main, rest)
    elif kind == "privref":
        from privref.app.cli import main as cli

        status, lines = traced(module, cli, rest)
    else:
        raise SystemExit(f"unknown check kind {kind!r}: pytest or privref")
    Path(out).write_text(json.dumps({"status": int(status), "lines": sorted(lines)}),
                         encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
