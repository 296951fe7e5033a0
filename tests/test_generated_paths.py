"""Generated reports record no machine paths (issue 33, item 6): a page or JSON file under docs/
names data files by their name and sha256, never by where they sat on the machine that made it."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"

MACHINE_PATH = re.compile(r"""["'`(\s](/(?:work|home|root|Users)/[^\s"'`)]*)""")
"""An absolute path under a folder that holds a user's files on common systems (example
commands in the docs may write to /tmp; that is not a record of a machine)."""


def test_no_generated_file_records_a_machine_path() -> None:
    found = [f"{p.relative_to(DOCS)}: {m.group(1)}"
             for p in sorted(DOCS.rglob("*")) if p.suffix in {".json", ".md", ".toml"}
             for m in MACHINE_PATH.finditer(p.read_text(encoding="utf-8"))]
    assert found == [], found[:10]


def test_the_pattern_finds_a_machine_path() -> None:
    assert MACHINE_PATH.search('"path": "/work/shared/data/a9a"')
    assert not MACHINE_PATH.search('"path": "a9a"')
