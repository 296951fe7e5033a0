"""Pair computations for distributions with infinite-support (affine noise) components."""

from __future__ import annotations

from typing import Any

from reference.errors import UnsupportedProgram
from reference.program import Distribution
from reference.reals import Prob, Real

from ._pair import PairEpsilon

__all__ = ["epsilon_at_delta", "hockey_stick"]


def hockey_stick(p: Distribution[Any], q: Distribution[Any], t: Real, prec: int
                 ) -> tuple[Prob, Any, tuple[Any, ...]]:
    """Hockey-stick divergence with closed-form tails (not yet supported)."""
    raise UnsupportedProgram("infinite-support distributions are not supported yet")


def epsilon_at_delta(p: Distribution[Any], q: Distribution[Any], delta: Any, prec: int
                     ) -> PairEpsilon:
    """epsilon at delta with closed-form tails (not yet supported)."""
    raise UnsupportedProgram("infinite-support distributions are not supported yet")
