"""privref's pytest plugin (``privref.testing``): black-box audits as tests, and the false-alarm
probability of the whole run, stated and bounded.

Installed with privref as the ``pytest11`` entry point ``privref`` (``-p no:privref`` turns it
off).  It is passive: a session in which no test uses it runs, prints and exits exactly as
without it (its options are listed by ``pytest --help``, its fixture by ``pytest --fixtures``).

* :func:`audit` turns a mechanism ``fn(data, rng)`` (best declared with
  :func:`privref.audits.blackbox.declare`) into a test::

      @privref.testing.audit(samples=20_000)
      @privref.declare(epsilon="ln(3)", relation="substitution", pairs=[([0], [1])])
      def test_randomized_response(data, rng):
          return data[0] if rng.random() < 0.75 else 1 - data[0]

  The test runs the black-box audit (:func:`privref.audits.blackbox.audit_callable`, supervised
  in a child process group as suites run it: a mechanism that exits or kills its process fails
  the test) and fails with one line when the verdict differs from ``expect``
  (``"NO_VIOLATION_FOUND"``, or ``"VIOLATION"`` for a configuration broken on purpose);
  ``expect_real`` also requires the real-arithmetic view's verdict
  (:func:`privref.app.blackbox_suite.real_verdict`).
* The fixture :func:`privref_audit` runs the same audit from inside a test and returns the
  report.
* Every audit that ran to a verdict is recorded.  An audit that expects no violation (in the
  IEEE-754 view, or in the real-arithmetic view with ``expect_real``) can fail falsely, on a
  mechanism that satisfies its claim, with probability at most ``1 - confidence`` (the
  black-box auditor's guarantee: :class:`privref.audits.blackbox.BlackboxReport`; a two-view
  run bounds both views at ``alpha/2`` each, :func:`privref.audits.blackbox.estimate.conclude_views`).
  By the union bound (Boole's inequality, folklore) the probability that any audit of the run
  fails falsely is at most the sum of these, which the terminal summary prints::

      privref: 3 audits, false-alarm probability of this run <= 3e-06 (union bound; exactly 3/1000000)

  ``--privref-false-alarm-budget X`` (ini ``privref_false_alarm_budget``) fails a run whose sum
  exceeds ``X``; ``--privref-seed S`` re-draws every audit (the seed of each audit becomes a
  hash of ``S``, its test's node id, its index in the test and its own seed);
  ``--privref-json PATH`` writes every record and the total.  With pytest-xdist the records
  travel in the test reports (``user_properties``) to the controller, which adds them up.

The probabilities are over the sampling: a run with fixed seeds is deterministic, and the bound
is the chance that a uniformly random seed (or a change that re-draws the streams) makes a
correct mechanism fail.  docs/pytest-plugin.md has the usage and the proof.
"""

from __future__ import annotations

import hashlib
import inspect
import warnings
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, cast

import pytest

from privref.audits.blackbox.adapters import MissingDependency
from privref.audits.blackbox.api import audit_callable
from privref.audits.blackbox.config import MAX_CONFIDENCE, MAX_SAMPLES, MAX_SEED
from privref.audits.blackbox.declarations import distributions_by_package, read_declaration
from privref.audits.blackbox.errors import TargetFailure
from privref.audits.blackbox.isolation import supervise
from privref.audits.blackbox.report import BlackboxReport, write_json
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.mechanism import Mechanism
from privref.reference.validate import ExactInput, to_fraction

from .blackbox_suite import (
    VERDICTS,
    SuiteCase,
    SuiteResult,
    bound_text,
    false_alarm_share,
    real_verdict,
)
from .reports.output import check_output_path

__all__ = ["DEFAULT_CONFIDENCE", "DEFAULT_SAMPLES", "OPTIONS", "AuditDecorator", "AuditRecord",
           "AuditSpec", "audit", "privref_audit", "pytest_addoption",
           "pytest_configure", "pytest_runtest_call", "pytest_runtest_makereport", "union_bound"]

DEFAULT_CONFIDENCE: Final = 1 - Fraction(1, 10**6)
"""Default confidence of an audit: each audit that expects no violation then adds 10⁻⁶ to the
run's false-alarm bound (a thousand such audits: 10⁻³)."""

DEFAULT_SAMPLES: Final = 20_000
"""Default samples per side of each confirmed pair (as :func:`privref.audits.blackbox.assert_private`)."""

_FIXED = frozenset({"mechanism", "samples", "confidence", "seed"})
OPTIONS: Final = tuple(p for p in inspect.signature(audit_callable).parameters if p not in _FIXED)
"""The further keyword options an audit takes: those of
:func:`privref.audits.blackbox.audit_callable` (``epsilon``, ``delta``, ``pairs``,
``relation``, ``search``, ``float_events``, ``group``, ``timeout``, ``workers``, ...)."""

_PROPERTY: Final = "privref-audits"
"""The ``user_properties`` name under which a test report carries its audits' records (reports
travel from pytest-xdist's workers to the controller, which adds them up)."""

_NO_VIOLATION: Final = "NO_VIOLATION_FOUND"


def _fail(message: str) -> InvalidArgument:
    return InvalidArgument(f"privref.testing.audit: {message}")


@dataclass(frozen=True, slots=True)
class AuditSpec:
    """A validated audit request: the expected verdicts, samples per side, confidence (exact),
    the audit's own seed and the further options of
    :func:`privref.audits.blackbox.audit_callable`."""

    expect: str
    expect_real: str | None
    samples: int
    confidence: Fraction
    seed: int
    options: Mapping[str, Any]

    @classmethod
    def check(cls, expect: object, expect_real: object, samples: object, confidence: object,
              seed: object, options: Mapping[str, Any]) -> AuditSpec:
        """The spec, or InvalidArgument naming the argument and what is allowed: ``expect`` and
        ``expect_real`` one of VIOLATION / NO_VIOLATION_FOUND (``expect_real="VIOLATION"``
        needs ``expect="VIOLATION"``; ``expect_real`` needs float events), ``samples`` an int in
        [2, 10**10], ``confidence`` an exact number in (0, 1 - 10**-15], ``seed`` an int in
        [0, 2**128 - 1], options among :data:`OPTIONS`."""
        for name, value in (("expect", expect), ("expect_real", expect_real)):
            if not (value is None and name == "expect_real") and value not in VERDICTS:
                raise _fail(f"{name}={value!r} must be one of {', '.join(VERDICTS)}")
        if expect_real == "VIOLATION" and expect != "VIOLATION":
            raise _fail("expect_real='VIOLATION' needs expect='VIOLATION': a real-arithmetic "
                        "violation is a violation")
        if expect_real is not None and options.get("float_events") is False:
            raise _fail("expect_real with float_events=False: the run has one view (the "
                        "real-arithmetic one); state it in expect")
        if isinstance(samples, bool) or not isinstance(samples, int) or not 2 <= samples <= MAX_SAMPLES:
            raise _fail(f"samples={samples!r} must be an int in [2, 10**10]")
        try:
            conf = to_fraction(confidence, "confidence")
        except InvalidArgument as exc:
            raise _fail(str(exc)) from None
        if not 0 < conf < 1:
            raise _fail(f"confidence={confidence!r} must lie in (0, 1)")
        if conf > MAX_CONFIDENCE:
            raise _fail(f"confidence={confidence!r} must be <= 1 - 10**-15")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise _fail(f"seed={seed!r} must be an int in [0, 2**128 - 1]")
        unknown = set(options) - set(OPTIONS)
        if unknown:
            raise _fail(f"unknown option(s) {sorted(unknown)}; allowed: expect, expect_real, "
                        f"samples, confidence, seed, {', '.join(OPTIONS)}")
        assert isinstance(expect, str) and (expect_real is None or isinstance(expect_real, str))
        return cls(expect, expect_real, samples, conf, seed, dict(options))

    @property
    def false_alarm(self) -> Fraction:
        """What one run of this audit adds to the union bound: ``1 - confidence`` when it expects
        no violation in some view, else 0 (an expected VIOLATION cannot be a false alarm)."""
        return false_alarm_share(self.expect, self.expect_real, self.confidence)

    def label(self, mechanism: object) -> str:
        """The mechanism's name; InvalidArgument when it is not callable, or when it declares no
        claim and no ``epsilon`` is given (read by :func:`read_declaration`; a declared library
        that is not installed here is left to the audit, which skips the test)."""
        if isinstance(mechanism, Mechanism):
            return mechanism.name
        if not callable(mechanism):
            raise _fail(f"{mechanism!r} is a {type(mechanism).__name__}, not a mechanism: "
                        "decorate a function fn(data, rng) or a privref Mechanism")
        label = str(getattr(mechanism, "__qualname__", None) or repr(mechanism))
        if self.options.get("epsilon") is None:
            try:
                claim = read_declaration(mechanism, label).claim
            except MissingDependency:
                return label
            if claim is None:
                raise _fail(f"{label} declares no privacy claim and no epsilon= is given: "
                            "declare it (@privref.declare(epsilon=..., relation=...)) or pass "
                            "epsilon=...")
        return label


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One audit that ran to a verdict: its test, target, expectations and verdicts (both
    views), the confidence and what it adds to the run's false-alarm bound
    (:attr:`AuditSpec.false_alarm`), the seed used, the samples and the bounds."""

    nodeid: str
    target: str
    expect: str
    expect_real: str | None
    verdict: str
    real_verdict: str | None
    ok: bool
    confidence: Fraction
    false_alarm: Fraction
    seed: int
    samples: int
    epsilon_lower_bound: float
    real_epsilon_lower_bound: float

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict (fractions as exact strings): what travels in a test report."""
        return {"nodeid": self.nodeid, "target": self.target, "expect": self.expect,
                "expect_real": self.expect_real, "verdict": self.verdict,
                "real_verdict": self.real_verdict, "ok": self.ok,
                "confidence": str(self.confidence), "false_alarm": str(self.false_alarm),
                "seed": str(self.seed), "samples": self.samples,
                "epsilon_lower_bound": self.epsilon_lower_bound,
                "real_epsilon_lower_bound": self.real_epsilon_lower_bound}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> AuditRecord:
        """The record :meth:`to_json` wrote (exact fractions restored)."""
        return cls(str(raw["nodeid"]), str(raw["target"]), str(raw["expect"]),
                   None if raw["expect_real"] is None else str(raw["expect_real"]),
                   str(raw["verdict"]),
                   None if raw["real_verdict"] is None else str(raw["real_verdict"]),
                   bool(raw["ok"]), Fraction(raw["confidence"]), Fraction(raw["false_alarm"]),
                   int(raw["seed"]), int(raw["samples"]), float(raw["epsilon_lower_bound"]),
                   float(raw["real_epsilon_lower_bound"]))


def union_bound(records: Iterable[AuditRecord]) -> Fraction:
    """The run's false-alarm bound: the sum of the records' ``false_alarm`` (exact).

    Sound by the union bound: P(some audit fails falsely) <= the sum over the audits of P(it
    fails falsely) <= the sum of their ``1 - confidence``, whatever the dependence between them.
    """
    return sum((r.false_alarm for r in records), Fraction(0))


@dataclass(frozen=True, slots=True)
class _Settings:
    budget: Fraction | None
    budget_source: str
    seed: int | None
    json: str | None


_SETTINGS: pytest.StashKey[_Settings] = pytest.StashKey()
_PENDING: pytest.StashKey[list[AuditRecord]] = pytest.StashKey()
_COUNT: pytest.StashKey[int] = pytest.StashKey()
_RUNNING: list[pytest.Item] = []  # the items whose test function is running (nested sessions too)


def _derived_seed(session_seed: int, nodeid: str, index: int, seed: int) -> int:
    """The seed of an audit under ``--privref-seed``: SHA-256 of (session seed, node id, the
    audit's index in its test, its own seed), first 16 bytes (< 2**128)."""
    digest = hashlib.sha256(f"privref-seed\0{session_seed}\0{nodeid}\0{index}\0{seed}".encode())
    return int.from_bytes(digest.digest()[:16], "big")


def _one_line(text: str, limit: int = 500) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _run(spec: AuditSpec, mechanism: object, label: str, item: pytest.Item | None) -> BlackboxReport:
    """Run the audit (supervised), record it on ``item`` and check its verdicts: pytest.skip
    when a library it needs is missing; pytest.fail with one line when the target fails, the
    audit is refused, or a verdict differs from the expected one."""
    settings = None if item is None else item.config.stash.get(_SETTINGS, None)
    seed = spec.seed
    if item is not None and settings is not None and settings.seed is not None:
        index = item.stash.get(_COUNT, 0)
        item.stash[_COUNT] = index + 1
        seed = _derived_seed(settings.seed, item.nodeid, index, spec.seed)
    options = dict(spec.options)
    options.setdefault("workers", 1)
    distributions_by_package()  # read here, once, not again in every supervised child
    try:
        report = supervise(lambda: audit_callable(mechanism, samples=spec.samples,
                                                  confidence=spec.confidence, seed=seed, **options))
    except MissingDependency as exc:
        pytest.skip(f"privref: {label}: {_one_line(str(exc))}")
    except TargetFailure as exc:
        pytest.fail(f"privref: {label}: the mechanism failed, nothing was checked: "
                    f"{_one_line(str(exc))}", pytrace=False)
    except PrivrefError as exc:
        pytest.fail(f"privref: {label}: {type(exc).__name__}: {_one_line(str(exc))}", pytrace=False)
    for warning in report.warnings:
        warnings.warn(f"privref: {label}: {_one_line(warning)}", UserWarning, stacklevel=3)
    verdict = None if report.verdict is None else report.verdict.value
    real = real_verdict(report)
    ok = verdict == spec.expect and (spec.expect_real is None or real == spec.expect_real)
    if verdict is not None and item is not None and settings is not None:
        record = AuditRecord(item.nodeid, report.target, spec.expect, spec.expect_real, verdict,
                             real, ok, report.confidence, spec.false_alarm, report.seed,
                             report.samples, report.epsilon_lower_bound,
                             report.real_epsilon_lower_bound)
        item.stash.setdefault(_PENDING, []).append(record)
    if not ok:
        case = SuiteCase(label, (), spec.expect, (), spec.expect_real)
        line = SuiteResult(case, "FAIL", report).line()
        w = report.witness
        witness = ("" if w is None else f"; witness {list(w.pair[0])!r} vs {list(w.pair[1])!r}, "
                   f"event {w.estimate.event}")
        rerun = ("" if settings is None or settings.seed is None
                 else f" (--privref-seed {settings.seed})")
        pytest.fail(f"privref: {_one_line(line, 400)}{_one_line(witness, 200)}; "
                    f"{report.samples} samples per side at confidence {report.confidence}, "
                    f"seed {report.seed}{rerun}", pytrace=False)
    return report


def _current_item() -> pytest.Item | None:
    return _RUNNING[-1] if _RUNNING else None


class AuditDecorator:
    """What :func:`audit` returns: applied to a mechanism, a zero-argument test function."""

    def __init__(self, spec: AuditSpec) -> None:
        self.spec = spec

    def __call__(self, mechanism: object) -> Callable[[], None]:
        """A test that audits ``mechanism`` (see :func:`audit`); InvalidArgument at once when
        ``mechanism`` is not callable or declares no claim and no ``epsilon`` is given."""
        spec = self.spec
        label = spec.label(mechanism)

        def test() -> None:
            _run(spec, mechanism, label, _current_item())

        test.__name__ = str(getattr(mechanism, "__name__", label))
        test.__qualname__ = str(getattr(mechanism, "__qualname__", label))
        test.__module__ = str(getattr(mechanism, "__module__", __name__))
        test.__doc__ = getattr(mechanism, "__doc__", None) or (
            f"privref black-box audit of {label}: expect {spec.expect}")
        marks = getattr(mechanism, "pytestmark", None)
        if isinstance(marks, list):  # @pytest.mark.x under the decorator, on the mechanism
            setattr(test, "pytestmark", list(marks))  # noqa: B010
        setattr(test, "mechanism", mechanism)  # noqa: B010 (a plain function attribute)
        setattr(test, "privref_audit_spec", spec)  # noqa: B010
        return test


def audit(*, expect: str = _NO_VIOLATION, expect_real: str | None = None,
          samples: int = DEFAULT_SAMPLES, confidence: ExactInput = DEFAULT_CONFIDENCE,
          seed: int = 0, **options: Any) -> AuditDecorator:
    """A decorator that turns a mechanism ``fn(data, rng)`` (or a privref ``Mechanism``) into a
    pytest test auditing it with the black-box auditor.

    The test calls :func:`privref.audits.blackbox.audit_callable` with ``samples`` per side,
    ``confidence`` (exact; floats at their binary value), ``seed`` and ``options`` (any further
    keyword of it: ``epsilon``, ``delta``, ``pairs``, ``relation``, ...; the mechanism's
    declaration, :func:`privref.audits.blackbox.declare`, supplies what is not given), in a
    supervised child process with one worker unless ``workers`` is given.  It fails with one
    line when the verdict is not ``expect`` (``"NO_VIOLATION_FOUND"`` or ``"VIOLATION"``) or,
    with ``expect_real``, when the real-arithmetic view's verdict is not ``expect_real``;
    pytest.skip when a library the mechanism declares is not installed.

    Guarantee (the auditor's, :class:`privref.audits.blackbox.BlackboxReport`): for a mechanism
    that satisfies its claim, a test expecting ``NO_VIOLATION_FOUND`` fails with probability at
    most ``1 - confidence``; the plugin adds these up over the run (:func:`union_bound`).
    Passing is no proof of privacy.  Bad arguments raise InvalidArgument at decoration time
    (:meth:`AuditSpec.check`, :meth:`AuditSpec.label`).
    """
    return AuditDecorator(AuditSpec.check(expect, expect_real, samples, confidence, seed, options))


@pytest.fixture
def privref_audit(request: pytest.FixtureRequest) -> Callable[..., BlackboxReport]:
    """``privref_audit(mechanism, **settings) -> BlackboxReport``: the audit of :func:`audit`
    (same settings: ``expect``, ``expect_real``, ``samples``, ``confidence``, ``seed``, options),
    run inside the test and recorded in the run's false-alarm bound; fails the test with one
    line when a verdict differs, returns the report otherwise."""
    def run(mechanism: object, **settings: Any) -> BlackboxReport:
        spec = audit(**settings).spec
        return _run(spec, mechanism, spec.label(mechanism), request.node)

    return run


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--privref-false-alarm-budget``, ``--privref-seed``, ``--privref-json`` and the ini
    option ``privref_false_alarm_budget``."""
    group = parser.getgroup("privref", "privref black-box audits (privref.testing)")
    group.addoption("--privref-false-alarm-budget", default=None, metavar="X",
                    help="fail the run when the sum over its audits that expect no violation of "
                         "1 - confidence (a union bound on the probability of any false alarm) "
                         "exceeds X, a number in [0, 1] such as 1e-4 or 1/10000")
    group.addoption("--privref-seed", default=None, metavar="S",
                    help="re-draw every privref audit: each audit's seed becomes a hash of S, "
                         "its test and its own seed (an int in [0, 2**128 - 1])")
    group.addoption("--privref-json", default=None, metavar="PATH",
                    help="write every privref audit of the run and the false-alarm bound to PATH")
    parser.addini("privref_false_alarm_budget", default="",
                  help="as --privref-false-alarm-budget (the option wins)")


def _settings(config: pytest.Config) -> _Settings:
    """The run's settings; pytest.UsageError (one line naming the option) on a bad value."""
    budget: Fraction | None = None
    given = config.getoption("privref_false_alarm_budget")
    source = "--privref-false-alarm-budget"
    if given is None:
        given, source = str(config.getini("privref_false_alarm_budget")).strip() or None, \
            "ini privref_false_alarm_budget"
    if given is not None:
        try:
            budget = to_fraction(given, source)
        except InvalidArgument:
            budget = None
        if budget is None or not 0 <= budget <= 1:
            raise pytest.UsageError(f"{source}={given!r} must be a number in [0, 1], e.g. 1e-4 "
                                    "or 1/10000")
    seed: int | None = None
    text = config.getoption("privref_seed")
    if text is not None:
        try:
            seed = int(text)
        except ValueError:
            seed = -1
        if not 0 <= seed <= MAX_SEED:
            raise pytest.UsageError(f"--privref-seed={text!r} must be an int in [0, 2**128 - 1]")
    path = config.getoption("privref_json")
    if path is not None:
        try:
            check_output_path("--privref-json", path)
        except InvalidArgument as exc:
            raise pytest.UsageError(str(exc)) from None
    return _Settings(budget, source, seed, path)


def pytest_configure(config: pytest.Config) -> None:
    """Read the options (a bad value is a usage error, exit 4) and start the run's record."""
    settings = _settings(config)
    config.stash[_SETTINGS] = settings
    config.pluginmanager.register(_Ledger(config, settings), f"privref-ledger-{id(config)}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """Make ``item`` the running test while its function runs (for tests made by :func:`audit`,
    which take no fixture)."""
    _RUNNING.append(item)
    try:
        return (yield)
    finally:
        _RUNNING.pop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Attach to the report of each phase the audits recorded during it (once each)."""
    report = yield
    pending = item.stash.get(_PENDING, None)
    if pending:
        report.user_properties.append((_PROPERTY, [r.to_json() for r in pending]))
        pending.clear()
    return report


class _Ledger:
    """Adds up the records carried by the reports, in whichever process receives them (the
    controller under pytest-xdist), prints the bound and enforces the budget."""

    def __init__(self, config: pytest.Config, settings: _Settings) -> None:
        self.config = config
        self.settings = settings
        self.records: list[AuditRecord] = []
        self.json_error: str | None = None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Collect the records a report carries."""
        for name, value in report.user_properties:
            if name == _PROPERTY:
                rows = cast("Sequence[Mapping[str, Any]]", value)  # as attached by makereport
                self.records.extend(AuditRecord.from_json(row) for row in rows)

    def _worker(self) -> bool:
        return hasattr(self.config, "workerinput")

    def over_budget(self) -> bool:
        """The run's bound exceeds the budget (compared exactly)."""
        budget = self.settings.budget
        return budget is not None and union_bound(self.records) > budget

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """One line with the number of audits and the run's false-alarm bound (then the budget,
        and the largest spenders when over it); nothing when no audit ran."""
        if self.json_error is not None:
            terminalreporter.write_line(f"privref: {self.json_error}", red=True)
        if not self.records or self._worker():
            return
        total = union_bound(self.records)
        expecting = sum(r.false_alarm > 0 for r in self.records)
        n = len(self.records)
        tr = terminalreporter
        tr.write_line(f"privref: {n} audit{'' if n == 1 else 's'}, false-alarm probability of "
                      f"this run <= {bound_text(total)} (union bound; exactly {total})")
        seed = "" if self.settings.seed is None else f"; --privref-seed {self.settings.seed}"
        tr.write_line(f"privref: {expecting} expecting no violation (each adds 1 - confidence), "
                      f"{n - expecting} expecting only a violation (its miss probability is not "
                      f"bounded){seed}")
        budget = self.settings.budget
        if budget is None:
            return
        if total <= budget:
            tr.write_line(f"privref: within the false-alarm budget {budget} "
                          f"({self.settings.budget_source})")
            return
        tr.write_line(f"privref: FAILED: the false-alarm bound {total} exceeds the budget "
                      f"{budget} ({self.settings.budget_source}): raise the audits' confidence "
                      "or the budget", red=True)
        spenders = sorted(((r.false_alarm, r.nodeid) for r in self.records), reverse=True)
        for rate, nodeid in spenders[:5]:
            if rate:
                tr.write_line(f"  {bound_text(rate)}  {nodeid}")

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """Write ``--privref-json``; fail a run whose bound exceeds the budget (in the process
        that holds every record: not in an xdist worker)."""
        if self._worker():
            return
        total = union_bound(self.records)
        if self.settings.json is not None:
            try:
                write_json(self.settings.json, {
                    "audits": [r.to_json() for r in self.records],
                    "false_alarm_bound": str(total), "false_alarm_bound_text": bound_text(total),
                    "budget": None if self.settings.budget is None else str(self.settings.budget),
                    "over_budget": self.over_budget(),
                    "session_seed": None if self.settings.seed is None else str(self.settings.seed)},
                    flag="--privref-json")
            except PrivrefError as exc:  # OutputError (a full disk), or the folder went away
                self.json_error = _one_line(str(exc))
                session.exitstatus = pytest.ExitCode.INTERNAL_ERROR
        if self.over_budget() and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
