"""Supervised runs (audits.blackbox.isolation): whatever the work does, its caller gets a result,
the exception, or a TargetFailure, and nothing it started outlives it."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from privref.audits.blackbox import isolation
from privref.audits.blackbox.errors import TargetExited, TargetFailure, TargetTimeout
from privref.audits.blackbox.isolation import supervise, supervised, watchdog_arm
from privref.reference.errors import InvalidArgument
from tests.bad_input.harness import alive

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="supervision needs os.fork")


def test_the_result_and_the_exception_come_back() -> None:
    assert supervise(lambda: {"answer": 42}) == {"answer": 42}

    def refuse() -> None:
        raise InvalidArgument("--samples=0 must be >= 1")

    with pytest.raises(InvalidArgument, match="--samples=0"):
        supervise(refuse)


def test_the_work_runs_in_its_own_process_group_and_knows_it() -> None:
    parent_group = os.getpgrp()
    group, pid = supervise(lambda: (supervised(), os.getpid()))
    assert group == pid and group != parent_group
    assert supervised() is None  # the caller is not supervised


@pytest.mark.parametrize("end", ["os._exit", "SIGKILL"])
def test_a_child_that_ends_without_a_result_is_a_target_failure(end: str) -> None:
    def die() -> None:
        if end == "os._exit":
            os._exit(0)
        os.kill(os.getpid(), signal.SIGKILL)

    expected = "exit status 0" if end == "os._exit" else "killed by SIGKILL"
    with pytest.raises(TargetExited, match=rf"ended \({expected}\).*nothing was checked"):
        supervise(die)


def test_system_exit_in_the_work_is_re_raised_not_obeyed() -> None:
    """SystemExit travels back as an exception: the caller (the CLI) decides, nothing exits."""
    with pytest.raises(SystemExit):
        supervise(lambda: sys.exit(0))


def test_what_the_work_prints_reaches_the_callers_streams(capsys: pytest.CaptureFixture[str]) -> None:
    def talk() -> int:
        print("to stdout")
        print("to stderr", file=sys.stderr)
        return 1

    assert supervise(talk) == 1
    out, err = capsys.readouterr()
    assert out == "to stdout\n" and err == "to stderr\n"


def test_what_the_work_forks_is_killed_when_it_ends(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild"

    def fork_and_return() -> str:
        child = os.fork()
        if child == 0:  # the grandchild: outlives its parent unless killed
            time.sleep(600)
            os._exit(0)
        pid_file.write_text(str(child))
        return "returned"

    assert supervise(fork_and_return) == "returned"
    assert not alive(int(pid_file.read_text()))


def test_the_watchdog_ends_a_call_that_ignores_the_alarm() -> None:
    """A call whose deadline passed by more than the grace, in a process that ignores SIGALRM
    and swallows every exception, is ended by the watchdog; the reason names the target."""
    def stubborn() -> None:
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        watchdog_arm(time.monotonic() + 0.1, 0.1, "stubborn")
        while True:
            with contextlib.suppress(BaseException):  # swallows the alarm's exception too
                time.sleep(60)

    start = time.monotonic()
    with pytest.raises(TargetTimeout, match=r"target stubborn did not return within the per-call "
                                            r"limit timeout=0.1 s"):
        supervise(stubborn)
    assert time.monotonic() - start < 0.1 + isolation.TIMEOUT_GRACE + 5


def test_outside_supervision_the_watchdog_is_not_armed() -> None:
    watchdog_arm(time.monotonic() - 100, 1.0, "t")  # past due, but nothing may be killed here
    time.sleep(2 * isolation._POLL)
    watchdog_arm(None)
    assert isolation._armed[0] is None


def test_target_failures_share_a_base_class() -> None:
    assert issubclass(TargetExited, TargetFailure) and issubclass(TargetTimeout, TargetFailure)


def test_a_report_made_in_the_child_is_recorded_in_the_caller() -> None:
    """The suite's false-positive budget (tests/stats.py) counts a complete report made in a
    supervised child where it is unpickled: a child's own record would die with it."""
    from privref.audits.blackbox.config import AuditConfig
    from privref.audits.blackbox.runner import run_audit
    from privref.reference.neighbors import SUBSTITUTION
    from tests.stats import AUDIT_CONFIDENCE, SPENT

    def rr(data: list[int], rng: object) -> int:
        return data[0] if rng.random() < 0.75 else 1 - data[0]  # type: ignore[attr-defined]

    config = AuditConfig(epsilon="ln(3)", samples=2000, seed=1, relation=SUBSTITUTION,
                         confidence=AUDIT_CONFIDENCE)
    before = len(SPENT)
    report = supervise(lambda: run_audit(rr, config, [((0,), (1,))]))
    assert report.status == "complete"
    audits = [s for s in SPENT[before:] if s.kind in ("audit", "power")]
    assert len(audits) == 1 and report.target in audits[0].what
