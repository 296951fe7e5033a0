"""The README's examples run as written, its commands match .ci/run, and the docs' links resolve."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def _python_blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)


def test_readme_target_runs() -> None:
    """The README's black-box target (its first python block) is a randomized response."""
    blocks = _python_blocks(ROOT / "README.md")
    assert blocks
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    rr = namespace["rr"]
    assert callable(rr)
    rng = np.random.default_rng(0)
    kept = sum(rr((1,), rng) for _ in range(2000))
    assert 1300 < kept < 1700  # keeps the bit with probability 3/4 (failure rate below 1e-9)


def test_readme_target_is_the_shipped_example() -> None:
    """The README's target is docs/examples/rr.py's, which its black-box command audits."""
    shipped = (ROOT / "docs" / "examples" / "rr.py").read_text(encoding="utf-8")
    assert _python_blocks(ROOT / "README.md")[0] in shipped
    assert "audit blackbox docs/examples/rr.py:rr" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_api_example_runs() -> None:
    """Execute docs/api.md's first python block (the API in twenty lines)."""
    blocks = _python_blocks(ROOT / "docs" / "api.md")
    assert blocks
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "docs/api.md", "exec"), namespace)


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run contains exactly the README's test command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(.*?)\n```", readme, flags=re.S)
    assert len(commands) == 2
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_relative_links_resolve() -> None:
    """Every relative link to a file in README.md and docs/ names a file that exists."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    link = re.compile(r"\]\(([\w./-]+\.(?:md|json|png|toml|py|txt))(?:#[\w-]*)?\)")
    broken = []
    for page in pages:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        broken += [f"{page.relative_to(ROOT)}: {target}" for target in link.findall(text)
                   if not (page.parent / target).exists()]
    assert not broken
