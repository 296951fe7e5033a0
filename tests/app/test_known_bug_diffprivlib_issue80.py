"""diffprivlib issue 80: a NaN record passes the clamp, and the release is NaN.

``tools.mean(x, epsilon=1, bounds=(0, 4))`` clips with ``np.clip``, which keeps NaN; the mean is
NaN; ``LaplaceTruncated`` adds noise to NaN and its clamp (``value > upper``, ``value < lower``,
both False for NaN) keeps it.  So the output is NaN exactly when a NaN record is present: with
substitution neighbours [NaN, 0] and [4, 0], P[NaN] is 1 against 0, no finite ε.  (``nanmean``
ignores NaNs instead; see test_known_bug_diffprivlib_nanmean.py for its sensitivity.)

Issue 80 ("Handling of NaNs", opened by the maintainer in March 2023) is open, and diffprivlib
0.6.6, the newest release, still does this.  The fix used here maps a missing value into the
bounds before the call (``np.nan_to_num(x, nan=lower)``: a per-record map, so substitution
neighbours stay neighbours), after which the release is the bounded mean, ε = 1.  Fixture
targets: ``privref.audits.libraries.targets_diffprivlib.known_bug_issue80_nan_clamp_*``.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from privref.audits.blackbox.api import assert_private
from privref.audits.blackbox.report import BlackboxVerdict

from ..stats import AUDIT_CONFIDENCE

tools = pytest.importorskip("diffprivlib.tools")
mechanisms = importlib.import_module("diffprivlib.mechanisms")
targets = importlib.import_module("privref.audits.libraries.targets_diffprivlib")

ISSUE = "https://github.com/IBM/differential-privacy-library/issues/80"


def _mean(x: list[float], seed: int) -> float:
    return float(tools.mean(np.array(x), epsilon=1.0, bounds=(0, 4),
                            random_state=np.random.RandomState(seed)))


def test_the_clamp_keeps_nan() -> None:
    """Every piece on the path keeps NaN, whatever the randomness (an exact property of IEEE-754
    comparisons, checked on the installed code)."""
    assert np.isnan(np.clip(np.array([np.nan]), 0, 4)[0])
    mech = mechanisms.LaplaceTruncated(epsilon=1.0, sensitivity=1, lower=0, upper=4,
                                       random_state=np.random.RandomState(0))
    assert all(np.isnan(mech.randomise(float("nan"))) for _ in range(20))


def test_the_release_is_nan_exactly_when_a_nan_record_is_present() -> None:
    assert all(np.isnan(_mean([np.nan, 0.0], s)) for s in range(20))
    assert not any(np.isnan(_mean([4.0, 0.0], s)) for s in range(20))
    fixed = targets.known_bug_issue80_nan_clamp_fixed([None, 0], np.random.default_rng(0), 20)
    assert np.isfinite(fixed).all() and ((fixed >= 0) & (fixed <= 4)).all()


@pytest.mark.deep  # 2 x 8,000 tool calls, about 10 s
def test_the_auditor_flags_the_buggy_use_and_passes_the_fixed_one() -> None:
    with pytest.raises(AssertionError, match="is not"):
        assert_private(targets.known_bug_issue80_nan_clamp_buggy, samples=1000, seed=1,
                       confidence=AUDIT_CONFIDENCE, float_events=False)
    report = assert_private(targets.known_bug_issue80_nan_clamp_fixed, samples=2000, seed=1,
                            confidence=AUDIT_CONFIDENCE, float_events=False)
    assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND
