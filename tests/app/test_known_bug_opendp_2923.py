"""OpenDP issue 2923: make_sum_of_squared_deviations understates its sensitivity under float rounding.

``make_sum_of_squared_deviations`` (no ``idealized-numerics`` needed) widens its stability map for
the rounding of the sum of squares, but not for the rounding of the float mean it subtracts from
every record: one changed record can flip the mean's rounding and move every deviation.  The
issue's instance: 1024 records in [2^50, 2^50 + 1] (every double there is a multiple of 1/4),
x = [2^50 + 1/4] * 1024 and y = x with one record replaced by 2^50 + 1/2 (symmetric distance 2).
OpenDP 0.16.0 claims ``map(2)`` = 40.60 and computes SSD(x) = 0, SSD(y) = 63.9375; in real
arithmetic SSD(y) = (1/4)^2 (1 - 1/1024), so the bug is the float pipeline's, not the formula's.

Checks: exact (the installed OpenDP's own outputs and map, at their exact binary values: the
change exceeds the claimed sensitivity; the real-arithmetic change does not), the workaround
(records shifted by the public lower bound into [0, 1]: on the pair that moves the SSD most the
change 1023/1024 stays below ``map(2)``), and black-box (deep tier: the auditor refutes the
Laplace release's claim, ``privref.audits.libraries.targets_opendp.known_bug_2923_buggy``, and not
the workaround's).  The issue is open; no OpenDP release fixes it yet (0.16.0 is affected).  When
one does, the first check fails: update the fixture and record the version that fixed it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.audits.blackbox.api import assert_private
from privref.audits.blackbox.report import BlackboxVerdict
from privref.audits.libraries import targets_opendp as T

pytest.importorskip("opendp")

OPENDP_2923 = "https://github.com/opendp/opendp/issues/2923"
AFFECTED = "0.16.0"
"""The OpenDP release this fixture was written against, which has the bug (no fixed release yet)."""


def _exact_ssd(data: list[float]) -> Fraction:
    """The sum of squared deviations of ``data`` in exact rational arithmetic."""
    xs = [Fraction(x) for x in data]
    mean = sum(xs, Fraction(0)) / len(xs)
    return sum(((x - mean) ** 2 for x in xs), Fraction(0))


def _query(low: float) -> object:
    query, _, _ = T._ssd(low, 1.0)
    return query


def test_the_float_ssd_moves_more_than_the_claimed_sensitivity() -> None:
    """|SSD(x) - SSD(y)| = 63.9375 > map(2) = 40.60 (exact: both floats at their binary values)."""
    query = _query(T.SSD_HIGH)
    x, y = T.SSD_BUGGY_PAIR
    change = abs(Fraction(query(x)) - Fraction(query(y)))  # type: ignore[operator]
    claimed = Fraction(query.map(2))  # type: ignore[attr-defined]
    assert change > claimed, (change, claimed, OPENDP_2923)
    assert change == Fraction(1023, 16)  # 1023 deviations of 1/4 each: the mean moved by 1/4


def test_in_real_arithmetic_the_pair_moves_the_ssd_by_under_one() -> None:
    """The exact SSDs of the pair differ by (1/16)(1023/1024) < 1 <= map(2): the understatement
    comes from the float mean, not from OpenDP's formula."""
    x, y = T.SSD_BUGGY_PAIR
    change = abs(_exact_ssd(x) - _exact_ssd(y))
    assert change == Fraction(1, 16) * Fraction(1023, 1024)
    assert change < Fraction(_query(T.SSD_HIGH).map(2))  # type: ignore[attr-defined]


def test_the_workaround_stays_within_its_claim() -> None:
    """Shifted into [0, 1]: the pair [1, 0, ..., 0] vs [0, ..., 0] moves the float SSD by exactly
    1023/1024 (its real value), below map(2) = 0.99902343750456."""
    query = _query(0.0)
    a, b = T.SSD_FIXED_PAIR
    change = abs(Fraction(query(a)) - Fraction(query(b)))  # type: ignore[operator]
    assert change == Fraction(1023, 1024) == abs(_exact_ssd(a) - _exact_ssd(b))
    assert change < Fraction(query.map(2))  # type: ignore[attr-defined]


@pytest.mark.deep  # two vectorized audits of 20,000 samples per side, a few seconds
def test_the_blackbox_auditor_flags_the_release_and_passes_the_workaround() -> None:
    confidence = 1 - Fraction(1, 10**6)
    with pytest.raises(AssertionError, match="is not"):
        assert_private(T.known_bug_2923_buggy, samples=20_000, confidence=confidence)
    report = assert_private(T.known_bug_2923_fixed, samples=20_000, confidence=confidence)
    assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND
