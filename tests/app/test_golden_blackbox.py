"""The golden black-box runs: seeded runs of ``privref audit blackbox`` give the pinned figures.

See ``golden_blackbox.py``: each case reruns in a subprocess and every pinned field (verdict, lower
bound, witness pair, event, counts, δ interval) must equal the one in ``golden_blackbox.json``,
which was written by the code before the renovation of issue 31.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from . import golden_blackbox as golden

PINNED: dict[str, dict[str, Any]] = json.loads(golden.GOLDEN.read_text(encoding="utf-8"))["cases"]


def test_every_case_is_pinned() -> None:
    assert sorted(PINNED) == sorted(golden.CASES)


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_the_run_gives_the_pinned_figures(name: str) -> None:
    now = golden.run_case(golden.CASES[name])
    diff = {k: (PINNED[name][k], now[k]) for k in golden.FIELDS if PINNED[name][k] != now[k]}
    assert not diff, diff
