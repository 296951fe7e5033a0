"""Seeded statistical assertions of the test suite and the false-positive rate they spend.

Every statistical assertion of the suite goes through this module, which records the
probability that it fails although the code under test is correct (its false-positive rate).
tests/conftest.py adds the records up per test and per run, prints the total, and fails the
run when it exceeds SUITE_BUDGET (issue 14, item 6).  The rates are over the seed: seeds are
fixed, so a given run is deterministic, and a rate is the chance that a uniformly random seed
(or a change that re-draws the stream) makes a correct implementation fail.

Three kinds of record:

- ``fit``: a goodness-of-fit test of a sampler against its exact law (``fits``), spending
  FALSE_POSITIVE_RATE.  The binomial tests are exact; Pearson's chi-square and the normal
  approximations use asymptotic p-values, so their level is approximate.
- ``audit``: a black-box audit that did not report a violation, or a statistical ledger check
  that is not VIOLATED (recorded by the conftest as it is made, whether or not the test
  asserts its verdict), spending 1 - confidence: a false alarm has at most that probability.
  Tests use AUDIT_CONFIDENCE where they may.  A ledger check is keyed by its evidence (seed
  and counts included), so running the same seeded check in several tests spends once.
- ``power``: an assertion that a test detects a wrong sampler or a violation (``rejects``, and
  every black-box VIOLATION report).  Its miss probability is not proved; it is counted and
  listed apart, never added to the proved total.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, TypeVar

import numpy as np
from scipy import stats

from privref.reference.program import Distribution
from privref.reference.reals import prob_as_interval

FALSE_POSITIVE_RATE: Final = Fraction(1, 10**7)
"""Level of one goodness-of-fit assertion: a correct sampler fails it with this probability."""

SUITE_BUDGET: Final = Fraction(1, 10**4)
"""Largest proved false-positive rate a full run of the suite may spend (issue 14, item 6)."""

AUDIT_CONFIDENCE: Final = 1 - Fraction(1, 10**7)
"""Confidence of the black-box audits whose verdict the tests rely on."""


@dataclass(frozen=True, slots=True)
class Spent:
    """One statistical assertion: its kind (fit, audit, power), its rate and what it checked.

    ``key`` names the random experiment when the same seeded computation may be asserted more
    than once (a ledger check run by several tests): records with one key are one event and
    spend their rate once.  Empty: every record counts.
    """

    kind: str
    rate: Fraction
    what: str
    key: str = ""


SPENT: list[Spent] = []
"""Every assertion of the run, in order (test instrumentation, read by tests/conftest.py)."""


def record(kind: str, rate: Fraction, what: object = "", key: str = "") -> None:
    """Append one assertion's record (kind ``fit``, ``audit`` or ``power``; see Spent)."""
    if kind not in ("fit", "audit", "power") or not 0 <= rate <= 1:
        raise ValueError(f"record: kind={kind!r} must be fit, audit or power; rate={rate} in [0, 1]")
    SPENT.append(Spent(kind, rate, str(what), key))


def fits(pvalue: float, what: object = "", *, level: Fraction = FALSE_POSITIVE_RATE) -> bool:
    """True when a goodness-of-fit p-value does not reject at ``level``; recorded.

    Use as ``assert fits(p)``: a correct sampler fails it with probability ``level``
    (FALSE_POSITIVE_RATE unless a test needs more power and says why).
    """
    record("fit", level, what)
    return bool(pvalue > level)


def rejects(pvalue: float, what: object = "", *, level: Fraction = FALSE_POSITIVE_RATE) -> bool:
    """True when a p-value rejects at ``level`` (a power check: a wrong law is seen).

    Its miss probability is not proved; it is recorded as ``power``.
    """
    record("power", Fraction(0), what)
    return bool(pvalue < level)


H = TypeVar("H", bound=Hashable)


def expected_probabilities(dist: Distribution[H]) -> dict[H, float]:
    """Midpoint probabilities as floats (test statistics only; never a verdict)."""
    out: dict[H, float] = {}
    for o, p in dist.items():
        box = prob_as_interval(p)
        out[o] = float((box.lo + box.hi) / 2)
    return out


def chi_square_pvalue(dist: Distribution[H], draw: Callable[[np.random.Generator], H],
                      *, n: int = 4000, seed: int = 20261121) -> float:
    """p-value of Pearson's chi-square test of n seeded draws against the exact distribution.

    Outcomes never produced by the exact distribution make the p-value 0.
    """
    rng = np.random.default_rng(seed)
    counts = Counter(draw(rng) for _ in range(n))
    probs = expected_probabilities(dist)
    if set(counts) - set(probs):
        return 0.0
    keys = list(probs)
    observed = [counts.get(k, 0) for k in keys]
    expected = [probs[k] * n for k in keys]
    if len(keys) == 1:
        return 1.0
    return float(stats.chisquare(observed, expected).pvalue)
