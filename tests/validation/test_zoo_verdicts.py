"""Zoo verdicts of the black-box auditor at a small fixed budget (issue 3, item 5; fast).

Every audit here is ``run_audit`` with the default (streaming) estimator on the
entry's listed pairs at ``SAMPLES`` per side, confidence 0.95 (1 - 10^-7 where
the verdict must not be VIOLATION), seed 0 and one worker.  On float outputs
that run takes two views of the same samples, each at alpha/2: the IEEE-754
view (events that read the bits of the released doubles) and the real-arithmetic view (events that do not).

Correct entries.  Every correct entry's true ε is that of the algorithm in
real arithmetic (zoo_types.ZooEntry), so "not flagged" is judged on the
real-arithmetic view: ``report.real_arithmetic_violation`` is False and
``report.real_epsilon_lower_bound`` is at most the claim.  Entries without
float outputs have only that view, so their verdict must be
NO_VIOLATION_FOUND.  A correct float entry may well be VIOLATION in the IEEE
view (e.g. ``dpsniper_laplace``, ``dpsniper_noisy_hist1``): that is a genuine
floating-point leak (Mironov 2012), and the test requires the report to say so
(``report.float_leak``).

Incorrect entries.  The cheap ones (oracle budget N* <= 1 200 samples per side
in docs/blackbox-zoo.md: ``histogram_inverted_scale`` 21,
``dpsniper_noisy_hist2`` 22, ``svt5`` 87, ``dpsniper_svt5`` 190,
``exponential_no_half`` 300, ``svt4`` 760, ``noisy_max_value`` 1 200, ``svt6``
1 200) must give VIOLATION, and in the real-arithmetic view too: their bug is
algorithmic.  ``laplace_float`` (N* = 130 for a bit-level event) and ``svt3``
are flagged through the IEEE-754 pattern events: both add float Laplace noise
to an integer and release the double.  With ``float_events=False``
``laplace_float`` is exactly ε-DP and must not be flagged, while ``svt3``'s
algorithmic violation (N* = 3.5e5) is out of reach here;
benchmarks/bench_zoo.py records both views (docs/blackbox-zoo-verdicts.md).

False positives.  The audits whose verdict must not be VIOLATION (correct
entries, the real-arithmetic view of a float leak) run at
tests.stats.AUDIT_CONFIDENCE, so a false VIOLATION has probability at most
10^-7 each over the sampling randomness (the float-leak ones at
FLOAT_LEAK_SAMPLES, where the bit-pattern events still reach the claim); the
cheap incorrect entries run at 0.95, as power checks (tests/conftest.py counts
both).  The seed is fixed, and the runner's samples depend only
on the seed, the target and the parameters (not on workers or scheduling), so
each outcome here is deterministic: the test cannot flake, it either always
passes or always fails.  The seed was not tuned: seed 0 is the API default,
and the verdicts hold with margin (the correct entries' real-view bounds stay
below their claims; the incorrect ones' exceed theirs) at this budget, which
is about 4x the largest oracle budget above.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import pytest

from privref.audits.blackbox.report import BlackboxReport, BlackboxVerdict
from privref.audits.blackbox.runner import AuditConfig, run_audit
from privref.audits.blackbox.target import target_from_callable
from validation.zoo import ZooEntry, zoo, zoo_entry

from ..stats import AUDIT_CONFIDENCE

pytestmark = pytest.mark.deep  # the deep tier: python -m pytest -m deep (docs/test-tiers.md)

SAMPLES = 5_000
FLOAT_LEAK_SAMPLES = 20_000
SEED = 0
CONFIDENCE = Fraction(95, 100)
CHEAP_INCORRECT = ("histogram_inverted_scale", "dpsniper_noisy_hist2", "svt5", "dpsniper_svt5",
                   "exponential_no_half", "svt4", "noisy_max_value", "svt6")
FLOAT_LEAKS = ("laplace_float", "svt3")
CORRECT = tuple(e.name for e in zoo() if e.correct)


def _audit(entry: ZooEntry, float_events: bool = True, *, confidence: Fraction = CONFIDENCE,
           samples: int = SAMPLES) -> BlackboxReport:
    target = target_from_callable(entry.vectorized or entry.sampler, name=entry.name)
    config = AuditConfig(epsilon=entry.claimed_epsilon, delta=entry.claimed_delta,
                         confidence=confidence, samples=samples, seed=SEED, workers=1,
                         float_events=float_events, relation="linf")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return run_audit(target, config, [(tuple(a), tuple(b)) for a, b in entry.pairs])


def test_lists_match_the_zoo() -> None:
    names = {e.name: e.correct for e in zoo()}
    assert all(names[n] is False for n in CHEAP_INCORRECT + FLOAT_LEAKS)
    assert all(zoo_entry(n).float_outputs for n in FLOAT_LEAKS)
    assert set(CORRECT) == {"svt1", "svt2", "noisy_max_index", "histogram", "exponential",
                            "laplace_snapping", "laplace_discrete", "dpsniper_laplace",
                            "dpsniper_truncated_geometric", "dpsniper_noisy_hist1",
                            "dpsniper_report_noisy_max1", "dpsniper_report_noisy_max2",
                            "dpsniper_svt1", "dpsniper_svt2", "dpsniper_rappor",
                            "dpsniper_one_time_rappor", "dpsniper_laplace_parallel",
                            "dpsniper_numerical_svt"}


@pytest.mark.parametrize("name", CORRECT)
def test_correct_entry_not_flagged(name: str) -> None:
    """Judged on the real-arithmetic view; an IEEE-view VIOLATION must be reported as a float leak."""
    entry = zoo_entry(name)
    report = _audit(entry, confidence=AUDIT_CONFIDENCE)
    witness = report.witness
    assert report.status == "complete"
    assert not report.real_arithmetic_violation, (
        name, report.real_epsilon_lower_bound, None if witness is None else witness.estimate.event)
    assert report.real_epsilon_lower_bound <= float(entry.claimed_epsilon)
    if not entry.float_outputs:
        assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND
        assert report.epsilon_lower_bound == report.real_epsilon_lower_bound
    elif report.verdict is BlackboxVerdict.VIOLATION:
        assert report.float_leak, name


@pytest.mark.parametrize("name", ["dpsniper_laplace", "dpsniper_noisy_hist1"])
def test_correct_float_entry_leaks_only_in_the_ieee_view(name: str) -> None:
    """Float Laplace noise on an integer input: VIOLATION from bit patterns, none in real arithmetic."""
    report = _audit(zoo_entry(name), confidence=AUDIT_CONFIDENCE, samples=FLOAT_LEAK_SAMPLES)
    assert report.verdict is BlackboxVerdict.VIOLATION and report.float_leak
    assert report.witness is not None and "as a double in" in report.witness.estimate.event
    assert not report.real_arithmetic_violation


@pytest.mark.parametrize("name", CHEAP_INCORRECT)
def test_cheap_incorrect_entry_flagged(name: str) -> None:
    entry = zoo_entry(name)
    report = _audit(entry)
    assert report.verdict is BlackboxVerdict.VIOLATION, (name, report.epsilon_lower_bound)
    assert report.epsilon_lower_bound > float(entry.claimed_epsilon)
    assert report.real_arithmetic_violation, (name, report.real_epsilon_lower_bound)
    assert report.real_epsilon_lower_bound > float(entry.claimed_epsilon)
    assert report.samples == SAMPLES and report.seed == SEED


@pytest.mark.parametrize("name", FLOAT_LEAKS)
def test_float_leak_flagged_by_a_bit_pattern_event(name: str) -> None:
    """The released double's low-order bits depend on the input: flagged through a float-pattern event."""
    report = _audit(zoo_entry(name), confidence=AUDIT_CONFIDENCE, samples=FLOAT_LEAK_SAMPLES)
    assert report.verdict is BlackboxVerdict.VIOLATION, (name, report.epsilon_lower_bound)
    assert report.witness is not None and "as a double in" in report.witness.estimate.event


def test_float_laplace_is_private_in_the_real_arithmetic_view() -> None:
    """Without the bit-level events the textbook Laplace mechanism is the exact ε = 1 mechanism."""
    entry = zoo_entry("laplace_float")
    report = _audit(entry, float_events=False, confidence=AUDIT_CONFIDENCE)
    assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND, report.epsilon_lower_bound
    assert 0.5 < report.epsilon_lower_bound <= 1
