"""A finding: diffprivlib's ``nanmean`` divides the sensitivity by the size including the NaNs.

``tools.nanmean(x, epsilon, bounds=(lower, upper))`` builds ``LaplaceTruncated`` with sensitivity
(upper − lower)/``array.size`` (diffprivlib 0.6.6, ``tools/utils.py``, ``_mean``), but the
release is the mean of the k non-NaN entries, which one substituted record moves by
(upper − lower)/k.  With one NaN of two entries and bounds (0, 4), ε = 1: the substitution
neighbours [NaN, 0] and [NaN, 4] have nanmeans 0 and 4, the scale is 2 (sensitivity 4/2), and
the truncation to [0, 4] puts an atom at 4: P[output = 4] is 1/2 from 4 and e⁻²/2 from 0, a
loss of exactly 2 = 2ε.  With n − k NaNs the loss is nε/k: unbounded.  ``nanvar`` (and so
``nanstd``, and ``models.StandardScaler``, which calls them) share the formula.

Checked on the installed diffprivlib: the sensitivity it builds (exact), the loss it implies
(exact reals), and (deep tier) the black-box auditor's real-arithmetic view at two seeds.
Reported in docs/library-diffprivlib.md ("Finding").  No upstream issue was found for it
(searched: nanmean / NaN / sensitivity in IBM/differential-privacy-library).
"""

from __future__ import annotations

import importlib
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from privref.audits.blackbox.config import AuditConfig
from privref.audits.blackbox.report import BlackboxVerdict
from privref.audits.blackbox.runner import run_audit
from privref.reference.decide import greater_than
from privref.reference.reals import exp, log, rational
from privref.reference.verdict import Verdict

from ..stats import AUDIT_CONFIDENCE

tools = pytest.importorskip("diffprivlib.tools")
targets = importlib.import_module("privref.audits.libraries.targets_diffprivlib")


def test_nanmean_builds_its_mechanism_with_the_size_including_nans(
        monkeypatch: pytest.MonkeyPatch) -> None:
    utils = importlib.import_module("diffprivlib.tools.utils")
    original = utils.LaplaceTruncated
    seen: list[dict[str, Any]] = []

    def spy(**kwargs: Any) -> Any:
        seen.append(kwargs)
        return original(**kwargs)

    monkeypatch.setattr(utils, "LaplaceTruncated", spy)
    for x in ([np.nan, 0.0], [np.nan, 4.0]):
        tools.nanmean(np.array(x), epsilon=1.0, bounds=(0, 4),
                      random_state=np.random.RandomState(0))
    assert [s["sensitivity"] for s in seen] == [2.0, 2.0]   # (4 - 0)/2, the NaN counted
    assert [(s["lower"], s["upper"], s["epsilon"]) for s in seen] == [(0, 4, 1.0)] * 2


def test_the_exact_loss_on_the_pair_is_twice_the_claim() -> None:
    """P[out = 4 | nanmean 4] = 1/2 and P[out = 4 | nanmean 0] = P[Laplace(2) >= 4] = e⁻²/2:
    the loss ln(e²) = 2 > ε = 1, decided exactly."""
    loss = log((rational(1) / 2) / (exp(rational(-2)) / 2))
    assert greater_than(loss, rational(1)) is Verdict.HOLDS
    assert greater_than(loss, rational(Fraction(2 * 10**9 - 1, 10**9))) is Verdict.HOLDS


@pytest.mark.deep  # 2 seeds x 2 x 8,000 tool calls, about 20 s
@pytest.mark.parametrize("seed", [11, 12])
def test_the_auditor_refutes_nanmean_in_the_real_arithmetic_view(seed: int) -> None:
    fn = targets.tools_nanmean_missing
    config = AuditConfig(epsilon=fn.privref_claim.epsilon, samples=4000, seed=seed,
                         confidence=AUDIT_CONFIDENCE, float_events=False, relation="substitution")
    report = run_audit(fn, config, [fn.privref_pairs[0]])
    assert report.verdict is BlackboxVerdict.VIOLATION
    assert report.epsilon_lower_bound > 1.2
