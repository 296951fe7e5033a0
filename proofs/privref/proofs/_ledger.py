"""The lemma ledger: one entry per numbered result, each with checks that can fail.

An :class:`Entry` records a paper's numbered result (``004 Claim C.3``) or a
constant-carrying step of its proof, in our own words, together with its
status and the checks that exercise it.  A :class:`Check` is a named, pure,
deterministic function returning a :class:`CheckResult`; it declares what it
expects (HOLDS for support of the statement, VIOLATED for a counterexample),
so ``privref lemmas --check`` can tell when a result contradicts its status.

Consistency rules enforced at construction:

* PROVED, CHECKED, AUDITED: at least one check, all expecting HOLDS;
  PROVED also needs ``parameter_range``; AUDITED needs ``confidence``.
* REFUTED: a ``counterexample`` and a ``corrected`` statement, at least one
  check expecting VIOLATED (the counterexample) and one expecting HOLDS
  (the corrected statement).
* NOT_CHECKABLE: a ``reason`` and an ``illustration``; its checks (if any)
  illustrate and expect HOLDS.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from privref.reference.errors import InvalidArgument
from privref.reference.verdict import Verdict

__all__ = ["Check", "CheckResult", "Entry", "Kind", "Status", "Verdict", "collect_entries"]


class Status(Enum):
    """How a ledger entry is established."""

    PROVED = "PROVED"
    CHECKED = "CHECKED"
    AUDITED = "AUDITED"
    REFUTED = "REFUTED"
    NOT_CHECKABLE = "NOT_CHECKABLE"


class Kind(Enum):
    """What kind of numbered result an entry is."""

    THEOREM = "theorem"
    LEMMA = "lemma"
    CLAIM = "claim"
    OBSERVATION = "observation"
    COROLLARY = "corollary"
    PROPOSITION = "proposition"
    REMARK = "remark"
    EXAMPLE = "example"
    PROOF_STEP = "proof step"
    FOLKLORE = "folklore"


@dataclass(frozen=True, slots=True)
class CheckResult:
    """What a check found: its verdict, human-readable evidence, and an optional witness."""

    verdict: Verdict
    evidence: str
    witness: str | None = None
    confidence: Fraction | None = None


@dataclass(frozen=True, slots=True)
class Check:
    """A named deterministic check; ``expect`` is the verdict that supports the entry's status."""

    name: str
    run: Callable[[], CheckResult]
    expect: Verdict = Verdict.HOLDS
    constant: str | None = None
    """The statement's main constant, by name: a public int or Fraction at the top of the module
    that defines ``run``, read by ``run`` each time it runs, so that :mod:`privref.proofs.halving`
    can run the check with the constant halved (a check that still passes then is reviewed)."""


_PAPERS = ("000", "001", "002", "003", "004", "folklore")
_NUMBER = re.compile(
    r"^(Theorem|Lemma|Claim|Observation|Corollary|Proposition|Remark|Example|Fact|Definition)"
    r" (?:[A-Z]\.)?[0-9]+(?:\.[0-9]+)*( \([a-z0-9 ]+\))?$"
)


@dataclass(frozen=True, slots=True)
class Entry:
    """One ledger entry.  ``id`` is ``"<paper> <number>"`` plus ``" / <step>"`` for proof steps."""

    paper: str
    number: str
    statement: str
    kind: Kind
    status: Status
    checks: tuple[Check, ...]
    step: str | None = None
    also: tuple[str, ...] = ()
    parameter_range: str | None = None
    counterexample: str | None = None
    corrected: str | None = None
    reason: str | None = None
    illustration: str | None = None
    confidence: Fraction | None = None
    notes: str = ""
    subjects: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.paper not in _PAPERS:
            raise InvalidArgument(f"paper={self.paper!r} must be one of {_PAPERS}")
        if self.paper != "folklore" and not _NUMBER.match(self.number):
            raise InvalidArgument(f"number={self.number!r} is not a printed result number")
        expects = {c.expect for c in self.checks}
        where = self.id
        match self.status:
            case Status.PROVED | Status.CHECKED | Status.AUDITED:
                if not self.checks or expects != {Verdict.HOLDS}:
                    raise InvalidArgument(f"{where}: status {self.status.value} needs checks "
                                          "that all expect HOLDS")
                if self.status is Status.PROVED and not self.parameter_range:
                    raise InvalidArgument(f"{where}: PROVED needs parameter_range")
                if self.status is Status.AUDITED and self.confidence is None:
                    raise InvalidArgument(f"{where}: AUDITED needs confidence")
            case Status.REFUTED:
                if not (self.counterexample and self.corrected):
                    raise InvalidArgument(f"{where}: REFUTED needs counterexample and corrected")
                if Verdict.VIOLATED not in expects or Verdict.HOLDS not in expects:
                    raise InvalidArgument(f"{where}: REFUTED needs a counterexample check "
                                          "(expect VIOLATED) and a corrected check (expect HOLDS)")
            case Status.NOT_CHECKABLE:
                if not (self.reason and self.illustration):
                    raise InvalidArgument(f"{where}: NOT_CHECKABLE needs reason and illustration")
                if expects - {Verdict.HOLDS}:
                    raise InvalidArgument(f"{where}: illustrations must expect HOLDS")

    @property
    def id(self) -> str:
        """Stable identifier, e.g. ``004 Claim C.3`` or ``004 Claim C.3 / series S1 <= 10``."""
        base = f"{self.paper} {self.number}"
        return f"{base} / {self.step}" if self.step else base


def collect_entries(package: str, path: Iterable[str]) -> tuple[Entry, ...]:
    """Every ``ENTRIES`` of the submodules of ``package`` (at ``path``), modules in name order."""
    found: list[Entry] = []
    for info in sorted(pkgutil.iter_modules(list(path)), key=lambda m: m.name):
        module = importlib.import_module(f"{package}.{info.name}")
        found.extend(getattr(module, "ENTRIES", ()))
    return tuple(found)
