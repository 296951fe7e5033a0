"""The harness's resource limits: a test run cannot take the machine's memory, leave processes
behind, or outlive a stop."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mutation import harness
from mutation.harness import MEMORY_LIMIT, Interrupted, _child, _limit_memory, stop


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


# a child that starts a grandchild (as pytest starts a worker pool), writes its pid, and sleeps
_SPAWNER = ("import subprocess, sys, time; "
            "g = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)']); "
            "open(sys.argv[1], 'w').write(str(g.pid)); time.sleep(120)")


def _gone(pid: int) -> bool:
    """The process has exited (a zombie counts: it runs nothing)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state in ("Z", "X")


def _wait_for(path: Path) -> int:
    for _ in range(200):
        if path.exists() and path.read_text():
            return int(path.read_text())
        time.sleep(0.05)
    raise AssertionError("the child never wrote its grandchild's pid")


@pytest.fixture
def fresh_stop() -> Iterator[None]:
    harness._STOP.clear()
    yield
    harness._STOP.clear()


@pytest.mark.usefixtures("fresh_stop")
def test_a_timed_out_check_takes_its_whole_process_group_with_it(tmp_path: Path) -> None:
    """A check past its time limit is a timeout (None), and the processes it started (a test's
    worker pool) are killed with it, not left running."""
    pid_file = tmp_path / "pid"
    done = _child([sys.executable, "-c", _SPAWNER, str(pid_file)], cwd=tmp_path,
                  env=dict(os.environ), timeout=3)
    assert done is None
    grandchild = _wait_for(pid_file)
    for _ in range(100):
        if _gone(grandchild):
            break
        time.sleep(0.05)
    assert _gone(grandchild)
    ok = _child([sys.executable, "-c", "print('fine')"], cwd=tmp_path, env=dict(os.environ),
                timeout=60)
    assert ok is not None and ok.returncode == 0 and ok.stdout.strip() == "fine"


@pytest.mark.usefixtures("fresh_stop")
def test_stop_kills_the_checks_in_progress_and_they_record_nothing(tmp_path: Path) -> None:
    """stop() (the command's SIGINT and SIGTERM handler) kills a running check at once with its
    group, and the check raises Interrupted instead of returning an outcome; a later check
    does not start."""
    pid_file = tmp_path / "pid"
    raised: list[BaseException] = []

    def one() -> None:
        try:
            _child([sys.executable, "-c", _SPAWNER, str(pid_file)], cwd=tmp_path,
                   env=dict(os.environ), timeout=600)
        except Interrupted as e:
            raised.append(e)

    thread = threading.Thread(target=one)
    thread.start()
    grandchild = _wait_for(pid_file)
    start = time.monotonic()
    stop()
    thread.join(timeout=30)
    assert not thread.is_alive() and time.monotonic() - start < 30
    assert len(raised) == 1
    for _ in range(100):
        if _gone(grandchild):
            break
        time.sleep(0.05)
    assert _gone(grandchild)
    with pytest.raises(Interrupted):
        _child([sys.executable, "-c", "pass"], cwd=tmp_path, env=dict(os.environ), timeout=60)
