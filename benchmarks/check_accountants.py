"""The full ``privref check-accountant all`` run behind docs/accountant-check.md.

Runs every installed adapted library over the whole grid (a few minutes: some calls overrun the
default 60 s limit), then writes a compact summary to docs/generated/accountant-check.json
(versions, privref's enclosure of each task as floats, every answer's class and relative distance)
and prints the Markdown tables of the page.  Usage, from the checkout's root, in an environment
with the libraries installed (``pip install -e '.[accounting]'``)::

    python benchmarks/check_accountants.py [--from-json FULL.json]

``--from-json`` reuses the JSON of an earlier ``privref check-accountant all --json FULL.json``
run instead of running again.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from privref.app.commands.cli import main as privref_main

OUT = Path(__file__).resolve().parent.parent / "docs" / "generated" / "accountant-check.json"


def _full(path: str | None) -> dict[str, Any]:
    if path is not None:
        data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
        return data
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp, "full.json")
        privref_main(["check-accountant", "all", "--quiet", "--json", str(target)])
        loaded: dict[str, Any] = json.loads(target.read_text(encoding="utf-8"))
        return loaded


def _compact(full: dict[str, Any]) -> dict[str, Any]:
    libraries: dict[str, Any] = {}
    for name, lib in full["libraries"].items():
        if lib["status"] != "ran":
            libraries[name] = {"status": lib["status"]}
            continue
        libraries[name] = {
            "version": lib["version"], "counts": lib["counts"],
            "answers": [[a["task"], a["method"], a["output"], a["role"], a["value"], a["class"],
                         None if a["relative"] is None else float(f"{a['relative']:.3g}")]
                        for a in lib["answers"]],
        }
    return {
        "privref_version": full["privref_version"], "python": full["python"],
        "task_timeout": full["task_timeout"], "memory_limit": full["memory_limit"],
        "answer_fields": ["task", "method", "output", "role", "value", "class", "relative"],
        "tasks": {t["id"]: t["enclosure_float"] for t in full["tasks"]},
        "libraries": libraries,
    }


def _tables(compact: dict[str, Any]) -> str:
    classes = ["inside", "conservative", "unsafe", "unproved", "invalid", "raised", "timeout"]
    lines = ["| library | version | " + " | ".join(classes) + " |",
             "|---|---|" + "---|" * len(classes)]
    for name, lib in compact["libraries"].items():
        if "counts" not in lib:
            lines.append(f"| {name} | {lib['status']} |" + " |" * len(classes))
            continue
        counts = lib["counts"]
        lines.append(f"| {name} | {lib['version']} | "
                     + " | ".join(str(counts.get(c, 0)) for c in classes) + " |")
    lines += ["", "| library | method | task | output | answer | class | relative |",
              "|---|---|---|---|---|---|---|"]
    for name, lib in compact["libraries"].items():
        for task, method, output, _role, value, cls, rel in lib.get("answers", []):
            if cls in ("unsafe", "unproved", "invalid", "raised", "timeout"):
                shown = "" if rel is None else f"{rel:+.2g}"
                lines.append(f"| {name} | `{method}` | `{task}` | {output} | {value} | {cls} | "
                             f"{shown} |")
    return "\n".join(lines)


def main() -> None:
    """Run (or reuse) the full check, write the compact JSON and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--from-json", default=None)
    args = parser.parse_args()
    compact = _compact(_full(args.from_json))
    OUT.write_text(json.dumps(compact, separators=(",", ":")) + "\n", encoding="utf-8")
    print(_tables(compact))


if __name__ == "__main__":
    main()
