"""diffprivlib issue 20: without ``bounds`` a tool reads its domain from the data.

``tools.mean(x, epsilon)`` with ``bounds=None`` warns (PrivacyLeakWarning) and goes on with
``bounds = (nanmin(x), nanmax(x))``: on [0, 0] the bounds are (0, 0), so the mechanism it builds
has sensitivity 0 and the output is exactly 0.0 whatever the randomness; on the substitution
neighbour [4, 0] the bounds are (0, 4), the scale 2, and P[output = 0.0] = P[Laplace(2) <= -2]
= e⁻¹/2 < 1.  The output ≠ 0.0 has probability 0 on one side and a positive one on the other:
no finite ε.  The fix is the documented use, bounds from domain knowledge: the mechanism no
longer depends on the data, and the pair loss is |2 − 0|/scale = 1 = ε.

Issue 20 ("Privacy-preserving parametrisation") is open: diffprivlib 0.6.6, its newest release,
still reads the domain from the data (with the warning).  Fixture targets:
``privref.audits.libraries.targets_diffprivlib.known_bug_issue20_domain_from_data_*``.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

import numpy as np
import pytest

from privref.audits.blackbox.api import assert_private
from privref.audits.blackbox.report import BlackboxVerdict
from privref.reference.decide import greater_than
from privref.reference.reals import exp, rational
from privref.reference.verdict import Verdict

from ..stats import AUDIT_CONFIDENCE

tools = pytest.importorskip("diffprivlib.tools")
targets = importlib.import_module("privref.audits.libraries.targets_diffprivlib")

ISSUE = "https://github.com/IBM/differential-privacy-library/issues/20"


def _built(data: list[float], bounds: tuple[int, int] | None,
           monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The (sensitivity, lower, upper) of each LaplaceTruncated that ``tools.mean`` builds."""
    mechanisms = importlib.import_module("diffprivlib.tools.utils")
    original = mechanisms.LaplaceTruncated
    seen: list[dict[str, Any]] = []

    def spy(**kwargs: Any) -> Any:
        seen.append({k: kwargs[k] for k in ("sensitivity", "lower", "upper")})
        return original(**kwargs)

    monkeypatch.setattr(mechanisms, "LaplaceTruncated", spy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tools.mean(np.array(data), epsilon=1.0, bounds=bounds,
                   random_state=np.random.RandomState(0))
    monkeypatch.undo()
    return seen


def test_without_bounds_the_mechanism_is_read_from_the_data(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _built([0.0, 0.0], None, monkeypatch) == [{"sensitivity": 0.0, "lower": 0.0,
                                                       "upper": 0.0}]
    assert _built([4.0, 0.0], None, monkeypatch) == [{"sensitivity": 2.0, "lower": 0.0,
                                                       "upper": 4.0}]
    with pytest.warns(Warning, match="Bounds have not been specified"):
        tools.mean(np.array([0.0, 0.0]), epsilon=1.0)


def test_the_buggy_release_is_deterministic_on_one_side_and_not_on_the_other() -> None:
    """Sensitivity 0 means scale 0: the output is 0.0 for every seed (not a sample: the code
    path adds 0 × noise); from [4, 0], P[output = 0.0] = e⁻¹/2 < 1, proved exactly."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outs = {tools.mean(np.array([0.0, 0.0]), epsilon=1.0,
                           random_state=np.random.RandomState(s)) for s in range(20)}
    assert outs == {0.0}
    assert greater_than(rational(1) - exp(rational(-1)) / 2, rational(0)) is Verdict.HOLDS


def test_with_bounds_the_mechanism_does_not_depend_on_the_data(
        monkeypatch: pytest.MonkeyPatch) -> None:
    built = [_built(d, (0, 4), monkeypatch) for d in ([0.0, 0.0], [4.0, 0.0])]
    assert built[0] == built[1] == [{"sensitivity": 2.0, "lower": 0, "upper": 4}]


@pytest.mark.deep  # 2 x 8,000 tool calls, about 10 s
def test_the_auditor_flags_the_buggy_use_and_passes_the_fixed_one() -> None:
    with pytest.raises(AssertionError, match="is not"):
        assert_private(targets.known_bug_issue20_domain_from_data_buggy, samples=1000, seed=1,
                       confidence=AUDIT_CONFIDENCE, float_events=False)
    report = assert_private(targets.known_bug_issue20_domain_from_data_fixed, samples=2000,
                            seed=1, confidence=AUDIT_CONFIDENCE, float_events=False)
    assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND
