"""The assembled final PAL of 004 Theorem 5.7 / 000 Theorem 5.8 and the Floyd subset draws."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from privref.reference.composition import leak
from privref.reference.concepts import thresholds_on
from privref.reference.data import BOTTOM
from privref.reference.errors import InvalidArgument
from privref.reference.exponential import exponential_learner
from privref.reference.learners.active import (
    subsampling_active_claim,
    subsampling_learner,
    theorem57_learner,
    theorem57_pool,
)
from privref.reference.learners.base import Learner, as_learner
from privref.reference.learners.iterlabelboost import iter_label_boost, keep_subset
from privref.reference.learners.schedule import PAPER_000, PAPER_004
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import distribution, sample
from privref.reference.reals import Order, compare, exp

F = Fraction
T3 = thresholds_on(3)
TINY_004 = replace(PAPER_000, version="004", v_over_e=True, alpha_divisor=F(1, 2),
                   beta_divisor=F(1, 8), exponent_divisor=F(2, 5), v_s_coefficient=F(2),
                   keep_iteration=F(1, 2), keep_final=F(1, 3), stop_factor=3, cap_factor=6,
                   unlabeled_factor=18)
"""The tiny 004 constants of tests/reference/learners/test_iterlabelboost.py (N = 1 at n=1, m=2)."""


def em(base: str = "3/2") -> Learner[Any]:
    return as_learner(exponential_learner(T3.concepts, epsilon=f"2*ln({base})"), T3, proper=True)


def tiny_pal(epsilon: Any = 1, base: Learner[Any] | None = None) -> Any:
    return theorem57_learner(base or em(), alpha=F(1, 2), beta=F(1, 2), n=1, m=2,
                             epsilon=epsilon, constants=TINY_004, unlabeled=4,
                             em_epsilon="2*ln(3/2)")


def test_pool_is_the_smallest_t_with_eps_t_at_most_eps() -> None:
    """t = ⌈(n/ε)(3 + e^{2ε*})⌉: ⌈3(3 + e²)⌉ = 32 (3(3 + e²) ≈ 31.17); ε_32 <= 1 < ε_31."""
    inner = PrivacyClaim.of(1)
    assert theorem57_pool(inner, 3, 1) == 32
    assert theorem57_pool(inner, 3, F(1, 2)) == 63          # ⌈62.33⌉
    assert theorem57_pool(PrivacyClaim.of("ln(2)"), 2, 1) == 14   # 2(3 + 4) exactly: no rounding
    for t, side in ((32, (Order.LESS, Order.EQUAL)), (31, (Order.GREATER,))):
        order, _ = compare((exp(2) + 3) * F(3, t), 1)
        assert order in side


def test_claim_is_claim_56_of_the_iterated_pssl_at_the_pool() -> None:
    pal = tiny_pal()
    pssl = iter_label_boost(em(), alpha=F(1, 2), beta=F(1, 2), n=1, m=2, constants=TINY_004,
                            unlabeled=4, em_epsilon="2*ln(3/2)")
    n_prime = 2 + 4
    t = theorem57_pool(pssl.claim, n_prime, 1)
    assert (pal.n, pal.m) == (t, 2)
    assert str(pal.pal_claim) == str(subsampling_active_claim(pssl.claim, n_prime, t))
    order, _ = compare(pal.pal_claim.epsilon, 1)
    assert order in (Order.LESS, Order.EQUAL)
    assert str(pal.source) == "004 Theorem 5.7" and pal.tpal_claim is None
    # a smaller target ε needs a larger pool, never more labels
    half = tiny_pal(F(1, 2))
    assert half.m == 2 and half.n > pal.n


def test_paper_constants_give_the_printed_delta_blowup() -> None:
    """Paper constants, base (1, δ): IterLabelBoost is (1, 41δ) (Theorem C.11) and the PAL's δ′ is
    (7 + e)(n′/t)·41δ, i.e. 41(7+e)/(3+e²)·ε_t·δ ≈ 38.35·ε_t·δ (004-E13), not δ."""
    base = as_learner(leak(exponential_learner(T3.concepts, epsilon=1), F(1, 10**9)), T3,
                      proper=False)
    pal = theorem57_learner(base, alpha=F(1, 2), beta=F(1, 2), n=10**5, m=10**7, epsilon=1,
                            constants=PAPER_004)
    n_prime = 10**7 + 90000 * 10**5
    assert pal.n == theorem57_pool(PrivacyClaim.of(1), n_prime, 1) and pal.m == 10**7
    ratio = pal.pal_claim.delta / F(41, 10**9)          # (7 + e)·n′/t, rounded up
    low, high = (exp(1) + 7) * F(n_prime, pal.n), (exp(1) + 7) * F(n_prime, pal.n + 1)
    assert float(high.enclose(64).lo) <= ratio
    assert ratio <= low.enclose(64).hi + F(1, 10**12)


def _check_transcripts(pal: Any, runs: int) -> None:
    rng = np.random.default_rng(7)
    for _ in range(runs):
        xs = rng.integers(3, size=pal.n).tolist()
        pool = tuple((x, int(x < 1)) for x in xs)
        _, transcript = sample(pal.run, pool, rng=rng)
        assert len(transcript) == pal.m
        assert list(transcript) == sorted(set(transcript))
        assert all(0 <= i < pal.n for i in transcript)


def test_the_pals_program_asks_exactly_m_labels_in_increasing_order() -> None:
    """The PAL's program is SubSampling's with draw="subset" around the iterated PSSL: at a
    small pool (t = 12) it asks exactly m = 2 labels, the 2 smallest indices of J."""
    pssl = iter_label_boost(em(), alpha=F(1, 2), beta=F(1, 2), n=1, m=2, constants=TINY_004,
                            unlabeled=4, em_epsilon="2*ln(3/2)", subset_draw="subset")
    _check_transcripts(subsampling_learner(pssl, 6, 2, 12, claim=PrivacyClaim.of(1),
                                           draw="subset"), 20)


@pytest.mark.deep
def test_the_assembled_pal_asks_exactly_m_labels() -> None:
    """The assembled learner itself (pool t = 819200 at these tiny constants)."""
    _check_transcripts(tiny_pal(), 3)


def test_subset_draws_have_the_rank_draws_law() -> None:
    """keep_subset and SubSampling: draw="subset" (Floyd) has exactly the law of draw="rank"."""
    entries = tuple((x, BOTTOM) for x in range(5))
    assert distribution(keep_subset, entries, 2, "subset") == distribution(keep_subset, entries, 2)
    a = subsampling_learner(em(), 2, 1, 4, claim=PrivacyClaim.of(5))
    b = subsampling_learner(em(), 2, 1, 4, claim=PrivacyClaim.of(5), draw="subset")
    data = ((0, 1), (1, 0), (2, 0), (0, 1))
    assert a.tpal(a.pal_claim).distribution(data) == b.tpal(b.pal_claim).distribution(data)


def test_bad_arguments_name_the_parameter() -> None:
    with pytest.raises(InvalidArgument, match="epsilon"):
        theorem57_pool(PrivacyClaim.of(1), 3, 0)
    with pytest.raises(InvalidArgument, match="n="):
        theorem57_pool(PrivacyClaim.of(1), 0, 1)
    with pytest.raises(InvalidArgument, match="draw"):
        subsampling_learner(em(), 2, 1, 4, draw="floyd")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="subset_draw"):
        iter_label_boost(em(), alpha=F(1, 2), beta=F(1, 2), n=1, m=2, constants=TINY_004,
                         unlabeled=4, subset_draw="x")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="ln 3"):
        tiny_pal(2)                                      # ε_t > ln 3: outside Claim 5.6's proof
