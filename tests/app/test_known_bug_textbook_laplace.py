"""The textbook floating-point Laplace mechanism leaks through its float bits (Mironov, CCS 2012).

``count − scale·sign(u)·ln(1 − 2|u|)`` computed in doubles: from count 1, every output in
(0, 1/2) is ``1 − y`` with y in (1/2, 1), exact by Sterbenz's lemma, so a multiple of 2⁻⁵³; from
count 0 the output is the noise itself, and most noise values in (0, 1/2) are finer.  Each u is
one of finitely many doubles, drawn with positive probability, so a fine output seen from
count 0 has positive probability there and probability 0 from count 1: no finite ε, although
the algorithm in real arithmetic is exactly 1-DP at scale 1.  The fixture
(``targets_diffprivlib.known_bug_textbook_laplace_buggy``) is flagged in the IEEE-754 view and
clean in the real-arithmetic view; the fix, diffprivlib's ``Snapping`` (Mironov's own), is clean
in both; diffprivlib's ``Laplace`` (four uniforms, Holohan and Braghin 2021) hardens the noise
but not the addition, and is flagged like the textbook one.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from privref.audits.blackbox.api import assert_private
from privref.audits.blackbox.report import BlackboxVerdict

from ..stats import AUDIT_CONFIDENCE

targets = importlib.import_module("privref.audits.libraries.targets_diffprivlib")
GRID = 2.0 ** -53


def _in_low_half(x: np.ndarray) -> np.ndarray:
    return x[(x > 0) & (x < 0.5)]


def test_outputs_from_count_one_are_on_the_sterbenz_grid_and_from_zero_are_not() -> None:
    rng = np.random.default_rng(1)
    one = _in_low_half(targets.textbook_laplace(1.0, 1.0, rng, 20_000))
    zero = _in_low_half(targets.textbook_laplace(0.0, 1.0, rng, 20_000))
    assert len(one) > 1000 and len(zero) > 1000
    assert (np.floor(one / GRID) * GRID == one).all()          # exact: scaling by 2^53
    finer = zero[np.floor(zero / GRID) * GRID != zero]
    assert len(finer) > len(zero) // 2                          # a witness, and most of them


@pytest.mark.deep  # about 7 s on a loaded 2-core machine: the pattern events of 16,000 floats
def test_the_textbook_laplace_is_flagged_in_the_ieee_view_and_clean_in_the_real_view() -> None:
    fn = targets.known_bug_textbook_laplace_buggy
    with pytest.raises(AssertionError, match="floating-point leak"):
        assert_private(fn, samples=4000, seed=2, confidence=AUDIT_CONFIDENCE)
    real = assert_private(fn, samples=4000, seed=2, confidence=AUDIT_CONFIDENCE,
                          float_events=False)
    assert real.verdict is BlackboxVerdict.NO_VIOLATION_FOUND


@pytest.mark.deep  # about 16,000 diffprivlib Snapping and Laplace draws per view
def test_snapping_is_clean_in_both_views_and_diffprivlib_laplace_is_flagged() -> None:
    pytest.importorskip("diffprivlib")
    fixed = targets.known_bug_textbook_laplace_fixed_snapping
    for float_events in (True, False):
        report = assert_private(fixed, samples=4000, seed=2, confidence=AUDIT_CONFIDENCE,
                                float_events=float_events)
        assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND
    with pytest.raises(AssertionError, match="floating-point leak"):
        assert_private(targets.laplace_approx_count, samples=4000, seed=2,
                       confidence=AUDIT_CONFIDENCE)
