"""The privacy loss of one ordered pair of output laws, decided exactly or enclosed.

The public face of the exact auditor's pair computations: finite laws are solved exactly
(rational e^ε, or rigorous enclosures when probabilities are irrational), and laws with an
integer-noise part (two-sided geometric, discrete Laplace, discrete Gaussian) are handled in
closed form or with proved tail bounds, never truncated.  Used by :mod:`privref.audits.exact`
and by anyone who needs e^ε(δ) or the hockey-stick divergence of two explicit laws.
"""

from __future__ import annotations

from typing import Any

from privref.reference.program import Distribution
from privref.reference.reals import DEFAULT_PRECISION, Prob, Real

from . import _tails
from ._pair import PairEpsilon
from ._tails import IntegerTail

__all__ = ["IntegerTail", "PairEpsilon", "epsilon_at_delta", "hockey_stick"]


def epsilon_at_delta(p: Distribution[Any], q: Distribution[Any], delta: Any,
                     precision: int = DEFAULT_PRECISION) -> PairEpsilon:
    """e^ε at δ for the ordered pair (P, Q): the least t with Σ_o max(0, P(o) − t·Q(o)) ≤ δ.

    Exact when the laws allow it, else a rigorous enclosure; ``infinite`` only when proved.
    """
    from privref.reference.validate import check_delta

    return _tails.epsilon_at_delta(p, q, check_delta(delta), precision)


def hockey_stick(p: Distribution[Any], q: Distribution[Any], t: Real,
                 precision: int = DEFAULT_PRECISION) -> tuple[Prob, Any, tuple[Any, ...]]:
    """Σ_o max(0, P(o) − t·Q(o)) (exact or enclosed), a proved lower bound, and the event P > tQ."""
    return _tails.hockey_stick(p, q, t, precision)
