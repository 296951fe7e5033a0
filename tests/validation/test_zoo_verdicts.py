"""Zoo verdicts of the black-box auditor at a small fixed budget (issue 3, item 5; fast).

Every correct zoo entry must give NO_VIOLATION_FOUND, and the cheap incorrect
entries (oracle budget N* <= 1 200 samples per side in docs/blackbox-zoo.md:
``histogram_inverted_scale`` 21, ``svt5`` 87, ``exponential_no_half`` 300,
``svt4`` 760, ``noisy_max_value`` 1 200, ``svt6`` 1 200) must give VIOLATION,
on the entry's listed pairs at ``SAMPLES`` per side, confidence 0.95, seed 0
and one worker.  ``laplace_float`` (N* = 130 for a bit-level event) and
``svt3`` are flagged through the IEEE-754 pattern events: both add float
Laplace noise to an integer and release the double (Mironov 2012).  In the
real-arithmetic view (``float_events=False``) ``laplace_float`` is exactly
ε-DP and must not be flagged, while ``svt3``'s algorithmic violation (N* =
3.5e5) is out of reach here; benchmarks/bench_zoo.py records both views
(docs/blackbox-zoo-verdicts.md).

False positives.  For a truly private mechanism each audit raises a false
VIOLATION with probability at most 1 - 0.95 = 0.05 over the sampling
randomness.  The seed is fixed, and the runner's samples depend only on the
seed, the target and the parameters (not on workers or scheduling), so each
outcome here is deterministic: the test cannot flake, it either always passes
or always fails.  The seed was not tuned: seed 0 is the API default, and the
verdicts hold with margin (the correct entries' bounds stay below their
claims; the incorrect ones' exceed theirs) at this budget, which is about 4x
the largest oracle budget above.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from functools import partial

import pytest

from privref.audits.blackbox.estimate import estimate_pair
from privref.audits.blackbox.report import BlackboxReport, BlackboxVerdict
from privref.audits.blackbox.runner import AuditConfig, run_audit
from privref.audits.blackbox.target import target_from_callable
from privref.validation.zoo import ZooEntry, zoo, zoo_entry

SAMPLES = 5_000
SEED = 0
CONFIDENCE = Fraction(95, 100)
CHEAP_INCORRECT = ("histogram_inverted_scale", "svt5", "exponential_no_half", "svt4",
                   "noisy_max_value", "svt6")
FLOAT_LEAKS = ("laplace_float", "svt3")
CORRECT = tuple(e.name for e in zoo() if e.correct)


def _audit(entry: ZooEntry, float_events: bool = True) -> BlackboxReport:
    target = target_from_callable(entry.vectorized or entry.sampler, name=entry.name)
    config = AuditConfig(epsilon=entry.claimed_epsilon, delta=entry.claimed_delta,
                         confidence=CONFIDENCE, samples=SAMPLES, seed=SEED, workers=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return run_audit(target, config, [(tuple(a), tuple(b)) for a, b in entry.pairs],
                         estimator=partial(estimate_pair, float_events=float_events))


def test_lists_match_the_zoo() -> None:
    names = {e.name: e.correct for e in zoo()}
    assert all(names[n] is False for n in CHEAP_INCORRECT + FLOAT_LEAKS)
    assert all(zoo_entry(n).float_outputs for n in FLOAT_LEAKS)
    assert set(CORRECT) == {"svt1", "svt2", "noisy_max_index", "histogram", "exponential",
                            "laplace_snapping", "laplace_discrete"}


@pytest.mark.parametrize("name", CORRECT)
def test_correct_entry_not_flagged(name: str) -> None:
    entry = zoo_entry(name)
    report = _audit(entry)
    witness = report.witness
    assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND, (
        name, report.epsilon_lower_bound, None if witness is None else witness.estimate.event)
    assert report.epsilon_lower_bound <= float(entry.claimed_epsilon)


@pytest.mark.parametrize("name", CHEAP_INCORRECT)
def test_cheap_incorrect_entry_flagged(name: str) -> None:
    entry = zoo_entry(name)
    report = _audit(entry)
    assert report.verdict is BlackboxVerdict.VIOLATION, (name, report.epsilon_lower_bound)
    assert report.epsilon_lower_bound > float(entry.claimed_epsilon)
    assert report.samples == SAMPLES and report.seed == SEED


@pytest.mark.parametrize("name", FLOAT_LEAKS)
def test_float_leak_flagged_by_a_bit_pattern_event(name: str) -> None:
    """The released double's low-order bits depend on the input: flagged through a float-pattern event."""
    report = _audit(zoo_entry(name))
    assert report.verdict is BlackboxVerdict.VIOLATION, (name, report.epsilon_lower_bound)
    assert report.witness is not None and "as a double in" in report.witness.estimate.event


def test_float_laplace_is_private_in_the_real_arithmetic_view() -> None:
    """Without the bit-level events the textbook Laplace mechanism is the exact ε = 1 mechanism."""
    entry = zoo_entry("laplace_float")
    report = _audit(entry, float_events=False)
    assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND, report.epsilon_lower_bound
    assert 0.5 < report.epsilon_lower_bound <= 1
