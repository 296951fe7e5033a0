"""The golden audit table: ``privref audit``'s exact worst cases may not move unreviewed.

Every built-in row is recomputed and compared with ``golden_audit_table.json``: the same
verdicts, claims and exact values, and an enclosure of the loss inside the pinned one (15
significant digits, rounded outward).  A value that moves fails here even when every verdict
stays HOLDS; regenerate with ``python -m tests.app.golden_audit_table --write`` and review
the diff (see that module).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from . import golden_audit_table as golden

PINNED: list[dict[str, Any]] = json.loads(golden.GOLDEN.read_text(encoding="utf-8"))["rows"]


@pytest.fixture(scope="module")
def current() -> list[dict[str, Any]]:
    return golden.rows()


def _inside(new: list[str | None], pinned: list[str | None]) -> bool:
    lo, hi = (None if x is None else Fraction(x) for x in new)
    plo, phi = (None if x is None else Fraction(x) for x in pinned)
    assert lo is not None and plo is not None
    return plo <= lo and (phi is None if hi is None else (phi is not None and hi <= phi))


def test_the_same_rows_in_the_same_order(current: list[dict[str, Any]]) -> None:
    assert [r["mechanism"] for r in current] == [r["mechanism"] for r in PINNED]


@pytest.mark.parametrize("index", range(len(PINNED)), ids=[r["mechanism"] for r in PINNED])
def test_each_row_keeps_its_pinned_values(current: list[dict[str, Any]], index: int) -> None:
    new, pinned = current[index], PINNED[index]
    enclosed = {k for k in pinned if k in ("epsilon", "gamma", "rho", "mu")
                or k.startswith("renyi_")}
    exact = {k: v for k, v in pinned.items() if k not in enclosed}
    assert {k: new[k] for k in exact} == exact
    assert set(new) == set(pinned)
    for key in enclosed:
        assert _inside(new[key], pinned[key]), (key, new[key], pinned[key])


def test_outward_rounding_contains_the_value() -> None:
    lo, hi = golden.outward(Fraction(2, 3), Fraction(2, 3))
    assert lo is not None and hi is not None
    assert Fraction(lo) < Fraction(2, 3) < Fraction(hi)
    assert Fraction(hi) - Fraction(lo) == Fraction(1, 10**15)
    assert golden.outward(Fraction(0), None) == ["0", None]
