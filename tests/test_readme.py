"""The README's API example runs as written, and its commands match .ci/run."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_python_example_runs() -> None:
    """Execute the README's python block."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run contains exactly the README's test command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(.*?)\n```", readme, flags=re.S)
    assert len(commands) == 2
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
