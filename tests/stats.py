"""Seeded goodness-of-fit helpers for sampler-vs-distribution tests.

FALSE_POSITIVE_RATE is the chance that a correct sampler fails one test for a
uniformly random seed.  Seeds are fixed, so every run is deterministic: a
failure means the sampler and the exact distribution disagree (or the fixed
seed is one of the rare unlucky ones, which re-running with the documented
seed reproduces).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from typing import TypeVar

import numpy as np
from scipy import stats

from privref.reference.program import Distribution
from privref.reference.reals import prob_as_interval

FALSE_POSITIVE_RATE = 1e-6

H = TypeVar("H", bound=Hashable)


def expected_probabilities(dist: Distribution[H]) -> dict[H, float]:
    """Midpoint probabilities as floats (test statistics only; never a verdict)."""
    out: dict[H, float] = {}
    for o, p in dist.items():
        box = prob_as_interval(p)
        out[o] = float((box.lo + box.hi) / 2)
    return out


def chi_square_pvalue(dist: Distribution[H], draw: Callable[[np.random.Generator], H],
                      *, n: int = 4000, seed: int = 20261121) -> float:
    """p-value of Pearson's chi-square test of n seeded draws against the exact distribution.

    Outcomes never produced by the exact distribution make the p-value 0.
    """
    rng = np.random.default_rng(seed)
    counts = Counter(draw(rng) for _ in range(n))
    probs = expected_probabilities(dist)
    if set(counts) - set(probs):
        return 0.0
    keys = list(probs)
    observed = [counts.get(k, 0) for k in keys]
    expected = [probs[k] * n for k in keys]
    if len(keys) == 1:
        return 1.0
    return float(stats.chisquare(observed, expected).pvalue)
