"""Array draws from finite exact laws: the exact law, the table, refusals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from scipy import stats

from privref.reference.discrete_noise import discrete_laplace
from privref.reference.errors import UnsupportedProgram
from privref.reference.finite_law import FiniteLaw
from privref.reference.program import Program, bernoulli, categorical, distribution
from privref.reference.reals import exp, rational

from ..stats import fits

WEIGHTS = (Fraction(1, 65), Fraction(16, 65), Fraction(48, 65))


def _fine() -> Program[int]:
    return (yield from categorical(WEIGHTS))


def test_table_is_the_cumulative_integer_weights() -> None:
    law = FiniteLaw.of(distribution(_fine))
    assert law.outcomes == (0, 1, 2) and law.denominator == 65
    assert law.cumulative.tolist() == [1, 17, 65]


def test_draws_follow_the_exact_law() -> None:
    """Chi-square of 50 000 seeded draws against 1/65, 16/65, 48/65."""
    law = FiniteLaw.of(distribution(_fine))
    n = 50_000
    counts = Counter(law.draw(np.random.default_rng(4), n))
    assert set(counts) <= set(law.outcomes)
    expected = [float(w) * n for w in WEIGHTS]
    assert fits(stats.chisquare([counts[i] for i in range(3)], expected).pvalue,
                "FiniteLaw.draw vs 1/65, 16/65, 48/65")
    assert law.indices(np.random.default_rng(4), 10).tolist() == [
        law.outcomes.index(o) for o in law.draw(np.random.default_rng(4), 10)]


def _irrational() -> Program[bool]:
    return (yield from bernoulli(exp(rational(-1))))


def _noisy() -> Program[int]:
    return (yield from discrete_laplace(Fraction(1)))


def _huge() -> Program[bool]:
    return (yield from bernoulli(Fraction(1, 2**62 + 1)))


@pytest.mark.parametrize(("make", "message"), [
    (_irrational, "exact probabilities"), (_noisy, "finite law"), (_huge, "exceeds 2\\^62")])
def test_laws_it_cannot_draw_are_refused(make: Callable[[], Program[Any]], message: str) -> None:
    with pytest.raises(UnsupportedProgram, match=message):
        FiniteLaw.of(distribution(make))
