"""The harness's resource limits: a test run cannot take the machine's memory."""

from __future__ import annotations

import subprocess
import sys

from mutation.harness import MEMORY_LIMIT, _limit_memory


def test_a_test_run_cannot_allocate_past_the_memory_limit() -> None:
    """A child asking for more than MEMORY_LIMIT bytes gets MemoryError at once (the address
    space is refused, nothing is touched), so a runaway mutant is a kill, not an outage."""
    code = f"b = bytearray({MEMORY_LIMIT + (1 << 30)})"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, preexec_fn=_limit_memory, check=False)
    assert done.returncode != 0
    assert "MemoryError" in done.stderr
    ok = subprocess.run([sys.executable, "-c", "b = bytearray(1 << 20)"], capture_output=True,
                        text=True, timeout=60, preexec_fn=_limit_memory, check=False)
    assert ok.returncode == 0
