"""Validation of the black-box estimator against exact ground truth (issue 3, item 4).

(a) coverage: over fixed seeds, how often the lower bound exceeds the exact
    epsilon (and the chosen event's own true ratio) must be compatible with
    the stated confidence: an exact binomial test, recorded by tests.stats.fits;
(b) null mechanisms (output independent of the data) give exactly 0.0 in
    almost all seeds and never a violation of a positive claim;
(c) tightness at N = 10^5 against the exact epsilon and the oracle bound, with
    a loose floor (0.5) that only catches regressions; the measured figures
    are in docs/blackbox-statistics.md.

Seeds are fixed, so every run is deterministic; LEVEL (10^-6, see there) is the
chance that a *correct* estimator fails one coverage assertion for random seeds,
and each such assertion (the exact binomial tail passed to
tests.stats.fits) is recorded.  Samples come from ``Mechanism.sample`` (exact
samplers) except where ``sampling="law"`` is used for speed: the exact
vectorized sampler of the same exact law (the statistics only need i.i.d. draws
from the law; sampler-versus-law agreement is tested in tests/reference).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from privref.audits.blackbox.estimate import estimate_pair
from privref.audits.stats import tail_exact
from privref.reference.exponential import count_score, exponential_mechanism
from privref.reference.geometric import geometric_mechanism
from privref.reference.mechanism import Mechanism
from privref.reference.randomized_response import randomized_response
from tests.stats import fits
from validation.oracle import (
    CoverageResult,
    coverage_experiment,
    exact_epsilon,
    law_sampler,
    oracle_bound,
)

pytestmark = pytest.mark.deep  # the deep tier: python -m pytest -m deep (docs/test-tiers.md)

CONFIDENCE = Fraction(9, 10)
ALPHA = 1 - CONFIDENCE
SEEDS = range(200)
LEVEL = Fraction(1, 10**6)
"""Level of the binomial tests here: 10^-6, not the suite's 10^-7, to keep their power (at 200
runs the largest passing count of failures is 43, against 45 at 10^-7, and the selection-bias
bug of docs/blackbox-statistics.md showed 44).  Five assertion sites, 24 assertions over the
parameters: 2.4·10^-5 of the suite's budget (docs/test-budget.md)."""

RR = randomized_response(Fraction(3, 4))
EM = exponential_mechanism(range(3), count_score, epsilon="2*ln(3/2)")
GEO = geometric_mechanism("1/2")


def assert_coverage(result: CoverageResult) -> None:
    """Exceedances of the exact epsilon, of the event's own ratio, and failures of the event's two
    held-out bounds each pass the exact binomial test (the exact tail, through fits)."""
    assert fits(float(result.p_value()), "exceedances of the exact epsilon", level=LEVEL), (
        f"{result.exceedances}/{result.runs} bounds exceed the exact epsilon "
        f"(p = {float(result.p_value()):.2e} at alpha = {result.alpha})")
    event_p = result.event_p_value()
    if event_p is not None:
        assert fits(float(event_p), "exceedances of the event's true ratio", level=LEVEL), (
            f"{result.event_exceedances}/{result.runs} bounds exceed their event's true ratio "
            f"(p = {float(event_p):.2e})")
    failure_p = result.bound_failure_p_value()
    if failure_p is not None:
        assert fits(float(failure_p), "failures of the held-out bounds", level=LEVEL), (
            f"{result.bound_failures}/{result.runs} reported events have a wrong held-out bound "
            f"(p = {float(failure_p):.2e})")


@pytest.mark.parametrize(("mechanism", "n", "sampling", "delta", "events"), [
    (RR, 400, "mechanism", Fraction(0), 1),
    (RR, 400, "law", Fraction(1, 20), 1),
    (RR, 400, "law", Fraction(0), 3),
    (EM, 500, "law", Fraction(0), 1),
    (GEO, 300, "mechanism", Fraction(0), 1),
], ids=["rr", "rr-delta", "rr-3-events", "exponential", "geometric"])
def test_coverage_against_the_exact_epsilon(mechanism: Mechanism[Any], n: int, sampling: Any,
                                            delta: Fraction, events: int) -> None:
    """(a) 200 seeds at confidence 0.9: exceedances compatible with alpha = 1/10.

    Deliberately bounding on the selection split is caught by every null black-box
    test below and, barely, by the geometric case (44/200 bound failures against
    a limit of 43); see docs/blackbox-statistics.md.
    """
    result = coverage_experiment(mechanism, (0,), (1,), n=n, seeds=SEEDS, alpha=ALPHA,
                                 delta=delta, sampling=sampling, max_events=events)
    assert_coverage(result)
    assert result.violations <= result.exceedances  # each claim here is the exact (tight) loss


def test_exact_epsilon_and_oracle_by_hand() -> None:
    """RR 3/4: e^eps = 3, F* = {0} (or {1}); at delta = 1/20: (3/4 - 1/20)/(1/4) = 14/5."""
    assert exact_epsilon(RR, (0,), (1,)).t_hi == 3
    assert exact_epsilon(RR, (0,), (1,), Fraction(1, 20)).t_lo == Fraction(14, 5)
    oracle = oracle_bound(RR.distribution((0,)), RR.distribution((1,)), n=1000, alpha=ALPHA)
    assert (oracle.p_event, oracle.q_event, oracle.hits_p, oracle.hits_q) == (
        Fraction(3, 4), Fraction(1, 4), 750, 250)
    geo = oracle_bound(GEO.distribution((0,)), GEO.distribution((1,)), n=1000, alpha=ALPHA)
    assert (geo.p_event, geo.q_event) == (Fraction(2, 3), Fraction(1, 3))  # {o <= 0}


# ------------------------------------------------------------------- nulls


def null_binomial_limit(runs: int) -> int:
    """Largest count of positive bounds a valid estimator shows with probability >= LEVEL.

    For the assertion messages; the assertions pass the exact tail to fits (null_count_fits).
    """
    k = 0
    while tail_exact(runs, k + 1, ALPHA) >= LEVEL:
        k += 1
    return k


def null_count_fits(positive: int, runs: int, what: str) -> bool:
    """fits on the exact tail P[Bin(runs, ALPHA) >= positive]: positive bounds of a null estimator.

    It holds exactly when ``positive <= null_binomial_limit(runs)`` (up to the tail equal to the
    level, which fits rejects).
    """
    return fits(float(tail_exact(runs, positive, ALPHA)), f"{what}: {positive}/{runs} positive bounds",
                level=LEVEL)


def test_null_with_an_exact_law_gives_zero() -> None:
    """(b) Randomized response with keep = 1/2 ignores its input: exact eps 0, bounds 0.0."""
    null = randomized_response(Fraction(1, 2))
    result = coverage_experiment(null, (0,), (1,), n=400, seeds=SEEDS, alpha=ALPHA,
                                 epsilon=Fraction(1, 100), sampling="law")
    assert result.exact.t_hi == 1
    assert_coverage(result)
    nonzero = len(SEEDS) - sum(b == 0.0 for b in result.bounds)
    assert null_count_fits(nonzero, len(SEEDS), "null randomized response"), (
        f"{nonzero} nonzero bounds, limit {null_binomial_limit(len(SEEDS))}")
    assert result.violations == 0


NULLS: dict[str, Callable[[np.random.Generator, int], Any]] = {
    "float": lambda rng, n: rng.normal(size=n),
    "vector": lambda rng, n: rng.normal(size=(n, 3)),
    "tuples": lambda rng, n: [tuple(r) for r in rng.laplace(size=(n, 2)).tolist()],
    "many-ints": lambda rng, n: rng.integers(0, 1000, size=n),
    "strings": lambda rng, n: [f"s{x}" for x in rng.integers(0, 50, size=n)],
}


@pytest.mark.parametrize("kind", list(NULLS))
def test_null_black_boxes_give_zero(kind: str) -> None:
    """(b) Outputs independent of the input (floats, vectors, tuples, many or named outcomes): 0.0.

    The jax_privacy auditor bug (eps ≈ 3.5 on null scores) is the failure this guards against.
    Positive bounds are held to the exact binomial limit; violations of the claim 1/100 are
    held to zero for these fixed seeds (0 observed for every kind; the guarantee alone allows
    each run one with probability <= alpha, and at N = 250 one tuple seed shows one).
    """
    draw = NULLS[kind]
    runs, positive, violations = 100, 0, 0
    for seed in range(runs):
        rng = np.random.default_rng(seed)
        est = estimate_pair(draw(rng, 300), draw(rng, 300), epsilon=Fraction(1, 100), delta=0,
                            alpha=ALPHA)
        positive += est.epsilon_lower_bound > 0
        violations += est.violation
    assert null_count_fits(positive, runs, f"null black box ({kind})"), (
        f"{positive} positive bounds, limit {null_binomial_limit(runs)}")
    assert violations == 0


# --------------------------------------------------------------- tightness


@pytest.mark.parametrize(("mechanism", "a", "b"), [(RR, (0,), (1,)), (EM, (0,), (1,))],
                         ids=["rr", "exponential"])
def test_tightness_floor_at_n_1e5(mechanism: Mechanism[Any], a: tuple[int], b: tuple[int]) -> None:
    """(c) One seed at N = 10^5: bound >= 0.5 × exact eps and >= 0.5 × oracle bound.

    Measured ratios are 0.97-0.99 (docs); 0.5 only catches gross regressions (a
    lost direction, a broken family) without making the test flaky.
    """
    n = 100_000
    law_a, law_b = law_sampler(mechanism.distribution(a)), law_sampler(mechanism.distribution(b))
    rng = np.random.default_rng(2026)
    est = estimate_pair(law_a(rng, n), law_b(rng, n), epsilon=mechanism.claim.epsilon, delta=0,
                        alpha=ALPHA)
    exact = exact_epsilon(mechanism, a, b)
    oracle = oracle_bound(mechanism.distribution(a), mechanism.distribution(b), n=n, alpha=ALPHA)
    assert not exact.exceeded_by(est.epsilon_lower_bound)
    assert est.epsilon_lower_bound >= 0.5 * exact.value()
    assert est.epsilon_lower_bound >= 0.5 * oracle.epsilon_lower_bound
