"""Shared test configuration: hypothesis profiles and the suite's false-positive budget.

Profiles: ``ci`` (default; derandomized, bounded examples, no deadline) and
``deep`` (many more examples, for local runs: HYPOTHESIS_PROFILE=deep pytest).

False-positive budget (issue 14, item 6; tests/stats.py): every statistical assertion is
recorded with the probability that it fails on correct code.  Black-box audits are recorded
here, as their reports are made: a complete report without a real-arithmetic violation spends
1 - confidence (a false VIOLATION has at most that probability; for a two-view run it is the
real view's share and the IEEE view's together), and a VIOLATION is a power check.  The
ledger's statistical checks (a CheckResult with a confidence: Monte Carlo checks with
Clopper-Pearson bounds) are recorded the same way.  The run's
total is printed at the end and the run fails when it exceeds tests.stats.SUITE_BUDGET.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Generator, Iterator
from fractions import Fraction
from typing import Any, cast

import mpmath
import pytest
from hypothesis import HealthCheck, settings
from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

from privref.audits.blackbox import report as _report
from privref.proofs import _ledger
from privref.reference.verdict import Verdict

from .stats import SPENT, SUITE_BUDGET, Spent, record

# One BLAS/OpenMP thread per process: the suite runs two xdist workers on two cores, and
# scikit-learn fits that spawn a thread per core in each worker oversubscribe them (a student test
# took 33 s in a full run and 0.9 s alone).  threadpoolctl limits the libraries numpy has already
# loaded in this process; the environment variables (unless already set) reach the subprocesses
# the tests start.
_BLAS_THREADS = threadpool_limits(limits=1)
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

settings.register_profile("ci", max_examples=40, derandomize=True, deadline=None,
                          database=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

_made = _report.BlackboxReport.__init__


def _recorded(self: _report.BlackboxReport, *args: Any, **kwargs: Any) -> None:
    _made(self, *args, **kwargs)
    _record_report(self)


_unpickled = _report.BlackboxReport.__setstate__  # type: ignore[attr-defined]


def _recorded_unpickled(self: _report.BlackboxReport, state: Any) -> None:
    """A report made in a supervised child (the command line's audits run in one, forked:
    audits.blackbox.isolation) is recorded here, where it is unpickled: the child's record
    dies with it."""
    _unpickled(self, state)
    _record_report(self)


def _record_report(self: _report.BlackboxReport) -> None:
    if self.status != "complete":
        return
    what = f"black-box audit of {self.target} at confidence {self.confidence}"
    if self.verdict is _report.BlackboxVerdict.VIOLATION:
        record("power", Fraction(0), what)
        if self.real_arithmetic_violation:
            return
    record("audit", 1 - self.confidence, what)


setattr(_report.BlackboxReport, "__init__", _recorded)  # noqa: B010 (observation only)
setattr(_report.BlackboxReport, "__setstate__", _recorded_unpickled)  # noqa: B010

_checked = _ledger.CheckResult.__init__


def _recorded_check(self: _ledger.CheckResult, *args: Any, **kwargs: Any) -> None:
    _checked(self, *args, **kwargs)
    if self.confidence is None:
        return
    what = f"statistical ledger check at confidence {self.confidence}: {self.evidence[:80]}"
    if self.verdict is Verdict.VIOLATED:
        record("power", Fraction(0), what)
    else:
        record("audit", 1 - self.confidence, what, key=self.evidence)


setattr(_ledger.CheckResult, "__init__", _recorded_check)  # noqa: B010 (observation only)

_BY_TEST: pytest.StashKey[dict[str, list[Spent]]] = pytest.StashKey()
_START: pytest.StashKey[int] = pytest.StashKey()
_PROPERTY = "privref-statistical-assertions"
"""The name under which a test report carries the assertions recorded while it ran: reports
travel from pytest-xdist's workers to the controller, which adds them up."""


MPMATH_PRECISION = 53
"""mpmath's default working precision, in bits, which every test starts and ends with."""


@pytest.fixture(autouse=True)
def _mpmath_precision_is_restored() -> Iterator[None]:
    """mpmath's working precision is process-wide: a test (or a test module, at import) that sets
    it and does not restore it changes the mpmath references of every later test of its worker,
    depending on which files that worker ran before (a reference computed at 200 bits instead
    of 300 failed a 10^-80 comparison in a CI run).  Such a test errors here; use
    ``mpmath.workprec``/``workdps``."""
    assert mpmath.mp.prec == MPMATH_PRECISION, (
        f"mpmath.mp.prec is {mpmath.mp.prec} before the test, not {MPMATH_PRECISION}: a test "
        "module sets it at import")
    yield
    assert mpmath.mp.prec == MPMATH_PRECISION, (
        f"the test left mpmath.mp.prec at {mpmath.mp.prec} (not {MPMATH_PRECISION}): use "
        "mpmath.workprec or mpmath.workdps")


FIRST: tuple[str, ...] = (
    "tests/proofs/test_ledger.py",
    "tests/test_static_checks.py",
    "tests/bad_input/test_bad_input.py",
    "tests/proofs/test_active_entries.py",
    "tests/reference/learners/test_prediction_baselines.py",
    "tests/reference/test_accounting_edges.py",
    "tests/reference/learners/test_iterlabelboost.py",
    "tests/app/test_account_cli.py",
    "tests/reference/learners/test_stable_prediction.py",
    "tests/audits/test_stats.py",
    "tests/audits/blackbox/test_streaming.py",
)
"""The longest test files (every ledger check; CrossHair and mypy; the bad-input corpus; ...),
longest first by their measured time, collected first so that pytest-xdist (with
``--no-loadscope-reorder``, which keeps the collection order) starts them first and the short
files fill in around them: by default xdist orders files by their number of tests, which put
CrossHair's one 100 s test last, alone, while the other worker idled."""


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """Move the files of FIRST to the front, in that order (a stable sort: nothing else moves)."""
    rank = {name: i for i, name in enumerate(FIRST)}
    root = config.rootpath

    def key(item: pytest.Item) -> int:
        return rank.get(item.path.relative_to(root).as_posix(), len(FIRST))

    items.sort(key=key)


def pytest_configure(config: pytest.Config) -> None:
    """Start the run's record of statistical assertions, by test."""
    config.stash[_BY_TEST] = {}
    config.pluginmanager.register(_Collector(config), "privref-budget")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    """Mark where the test's assertions start in the record."""
    item.stash[_START] = len(SPENT)
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None]:
    """Attach to each phase's report (setup, call, teardown) the assertions recorded in it."""
    outcome: Any = yield
    start = item.stash.get(_START, len(SPENT))
    item.stash[_START] = len(SPENT)
    if len(SPENT) > start:
        outcome.get_result().user_properties.append(
            (_PROPERTY, [(s.kind, str(s.rate), s.what, s.key) for s in SPENT[start:]]))


class _Collector:
    """Adds up the assertions carried by the reports, in whichever process receives them."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Attribute a report's assertions to its test."""
        for name, value in report.user_properties:
            if name == _PROPERTY:
                rows = cast("list[tuple[str, str, str, str]]", value)  # as attached above
                self.config.stash[_BY_TEST].setdefault(report.nodeid, []).extend(
                    Spent(kind, Fraction(rate), what, key) for kind, rate, what, key in rows)


def _totals(config: pytest.Config) -> tuple[Fraction, Counter[str], list[tuple[Fraction, str]]]:
    """(the run's rate, records per kind, each test's rate largest first); a keyed experiment
    spends once in the run, in the first test that records it."""
    by_test = config.stash.get(_BY_TEST, {})
    kinds: Counter[str] = Counter(s.kind for spent in by_test.values() for s in spent)
    seen: set[str] = set()
    per_test = []
    for test, spent in by_test.items():
        rate = Fraction(0)
        for s in spent:
            if s.key in seen:
                continue
            rate += s.rate
            if s.key:
                seen.add(s.key)
        per_test.append((rate, test))
    per_test.sort(reverse=True)
    return sum((r for r, _ in per_test), Fraction(0)), kinds, per_test


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Print the run's proved false-positive rate, its budget and its largest spenders."""
    total, kinds, per_test = _totals(config)
    if not per_test:
        return
    tr = terminalreporter
    tr.write_sep("-", "statistical false-positive budget (tests/stats.py)")
    tr.write_line(f"{kinds['fit']} goodness-of-fit assertions, {kinds['audit']} audits without a "
                  f"violation (black-box reports, ledger checks), {kinds['power']} power checks (miss "
                  f"probability not proved; not in the total) in {len(per_test)} tests")
    tr.write_line(f"proved false-positive rate of this run: {float(total):.3g} "
                  f"(budget {float(SUITE_BUDGET):.0e}){'' if total <= SUITE_BUDGET else ': OVER'}")
    shown = per_test[:3] if total <= SUITE_BUDGET else [
        (rate, test) for rate, test in per_test if rate > SUITE_BUDGET / 100]
    for rate, test in shown:
        if rate:
            tr.write_line(f"  {float(rate):.3g}  {test}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when its proved false-positive rate exceeds SUITE_BUDGET."""
    total, _, _ = _totals(session.config)
    if total > SUITE_BUDGET and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
