"""A randomized-response target for the golden black-box runs: keeps its bit with probability 3/4."""

from __future__ import annotations

from typing import Any


def rr(data: Any, rng: Any) -> int:
    """Output the first bit of ``data``, flipped with probability 1/4 (exact ε = ln 3)."""
    bit = int(data[0])
    return bit if rng.random() < 0.75 else 1 - bit
