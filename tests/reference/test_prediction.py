"""Prediction algorithms (002 D1): exact per-query laws, fresh-randomness samplers, claims, conversions.

The fixtures below are also used by tests/audits/test_prediction.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.reference.citations import Uncited
from privref.reference.data import Dataset, label_of, point_of
from privref.reference.errors import InvalidArgument, UnsupportedProgram
from privref.reference.prediction import (
    Predictor,
    PrivatePrediction,
    UniformStability,
    paper_stability_bound,
    privacy_from_stability,
    stability_from_privacy,
)
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Distribution, Program, bernoulli, uniform
from privref.reference.randomized_response import rr_epsilon
from privref.reference.reals import Interval, Order, Real, compare, exp, log, rational

from ..stats import chi_square_pvalue, fits

X = (0, 1)
"""The query domain of the fixtures."""

EXAMPLES = ((0, 0), (0, 1), (1, 0), (1, 1))
"""Every labeled example over X."""


def local_majority(data: Dataset, x: Hashable) -> int:
    """Deterministic ERM at x: the majority label among the examples at point x (ties, none: 0)."""
    labels = [label_of(z) for z in data if point_of(z) == x]
    return int(2 * sum(1 for y in labels if y == 1) > len(labels))


def majority_flip(keep: Fraction | Real) -> Predictor:
    """Randomized response on the label of the local-majority ERM, keeping it with prob. ``keep``.

    Neighbors can move the ERM label from 0 to 1, so p_S(x) goes from 1 - keep to keep:
    exactly ln(keep/(1-keep))-private, and tanh of half of that is 2·keep - 1.
    """
    def program(data: Dataset, x: Hashable) -> Program[int]:
        label = local_majority(data, x)
        kept = yield from bernoulli(keep)
        return label if kept else 1 - label

    if keep == 1:  # deterministic: only the trivial claim holds
        claim: PrivatePrediction | UniformStability = UniformStability.of(1)
    else:
        claim = PrivatePrediction(rr_epsilon(keep) if isinstance(keep, Fraction)
                                  else log(keep / (1 - keep)))
    return Predictor("majority flip", program, claim,
                     Uncited("test fixture: label flip of a deterministic ERM"), domain=X)


def subsample_flip(keep: Fraction, n: int) -> Predictor:
    """Predict the (flipped w.p. 1 - keep) label of one uniformly random training example.

    On datasets of size n: γ = (2·keep - 1)/n; with keep = 1 it is the random-label predictor,
    δ-stable with δ = 1/n and not ε-private for any finite ε.
    """
    def program(data: Dataset, x: Hashable) -> Program[int]:
        i = yield from uniform(len(data))
        y = label_of(data[i])
        assert isinstance(y, int)
        if keep == 1:
            return y
        kept = yield from bernoulli(keep)
        return y if kept else 1 - y

    claim = (UniformStability(rational(Fraction(1, n))) if keep == 1 else
             PrivatePrediction(log(rational(1 + (keep / (1 - keep) - 1) / n))))
    return Predictor("subsample flip", program, claim,
                     Uncited("test fixture: a random-subsample predictor"), domain=X)


S = ((0, 1), (0, 1), (1, 0))


def test_exact_laws_by_hand() -> None:
    """Majority at 0 is 1 and at 1 is 0: p = keep and 1 - keep; random label: p = #ones/n."""
    flip = majority_flip(Fraction(3, 4))
    assert flip.law(S, 0).as_dict() == {1: Fraction(3, 4), 0: Fraction(1, 4)}
    assert flip.probability_one(S, 1) == Fraction(1, 4)
    assert subsample_flip(Fraction(1), 3).probability_one(S, 0) == Fraction(2, 3)
    # (2/3)(3/4) + (1/3)(1/4) = 7/12
    assert subsample_flip(Fraction(3, 4), 3).probability_one(S, 1) == Fraction(7, 12)
    assert flip.law(S, 0).total() == 1


def test_irrational_law_is_an_enclosure() -> None:
    """keep = e/(1+e): p_S(0) is enclosed, and the enclosure holds e/(1+e) = 0.7310585786..."""
    p = majority_flip(exp(1) / (exp(1) + 1)).probability_one(S, 0)
    assert isinstance(p, Interval)
    with mpmath.workprec(200):
        truth = mpmath.e / (1 + mpmath.e)
        assert mpmath.mpf(p.lo.numerator) / p.lo.denominator <= truth
        assert truth <= mpmath.mpf(p.hi.numerator) / p.hi.denominator
    assert p.width <= Fraction(1, 2**96)  # DEFAULT_PRECISION-level enclosure


def law_of(pairs: dict[tuple[int, ...], Fraction]) -> Distribution[tuple[int, ...]]:
    """A finite law over tuples of labels."""
    return Distribution.from_mapping(dict(pairs))


@pytest.mark.parametrize("keep", [Fraction(3, 4), Fraction(2, 3)])
def test_sampler_matches_law(keep: Fraction) -> None:
    """predict, predict_batch: seeded chi-square against the law, each a recorded ``fits``."""
    flip = majority_flip(keep)
    law = flip.law(S, 0)
    assert fits(chi_square_pvalue(law, lambda rng: flip.predict(S, 0, rng)), f"majority flip {keep}: predict")
    draws = iter(flip.predict_batch(S, [0] * 4000, np.random.default_rng(7)).tolist())
    assert fits(chi_square_pvalue(law, lambda rng: next(draws)), f"majority flip {keep}: predict_batch")


def test_batch_falls_back_to_the_program_for_irrational_laws() -> None:
    """An enclosed p_S(x) cannot be refined: those queries run the program's lazy exact sampler."""
    flip = majority_flip(exp(1) / (exp(1) + 1))
    law = flip.law(S, 1)
    draws = iter(flip.predict_batch(S, [1] * 3000, np.random.default_rng(3)).tolist())
    assert fits(chi_square_pvalue(law, lambda rng: next(draws), n=3000),
                "predict_batch program fallback (irrational law)")


def test_batch_with_a_huge_denominator_draws_one_at_a_time() -> None:
    """keep = (2^64 + 1)/2^65 has a denominator above 2^62: exact scalar draws, same law."""
    flip = majority_flip(Fraction(2**64 + 1, 2**65))
    law = flip.law(S, 0)
    draws = iter(flip.predict_batch(S, [0] * 4000, np.random.default_rng(5)).tolist())
    assert fits(chi_square_pvalue(law, lambda rng: next(draws)), "predict_batch with a huge denominator")


def product(p: Fraction, q: Fraction) -> Distribution[tuple[int, ...]]:
    """The joint law of two independent answers with P[1] = p and q."""
    return law_of({(a, b): (p if a else 1 - p) * (q if b else 1 - q)
                   for a in (0, 1) for b in (0, 1)})


@pytest.mark.parametrize("queries", [(0, 0), (0, 1)])
def test_answers_are_independent_across_queries(queries: tuple[int, int]) -> None:
    """Fresh randomness per query (002 §2): the joint law of two answers is the product law.

    A repeated query is the sharpest case: reusing one coin would make the two answers
    equal, a law far from the product (1/2·1/2 vs 3/4·1/4 off the diagonal).
    """
    flip = majority_flip(Fraction(3, 4))
    p, q = (flip.probability_one(S, x) for x in queries)
    assert isinstance(p, Fraction) and isinstance(q, Fraction)
    joint = product(p, q)

    many_draw = lambda rng: flip.predict_many(S, queries, rng)  # noqa: E731
    assert fits(chi_square_pvalue(joint, many_draw), f"predict_many {queries}: product law")
    batch = flip.predict_batch(S, list(queries) * 4000, np.random.default_rng(11))
    rows = iter(tuple(int(v) for v in row) for row in batch.reshape(4000, 2))
    assert fits(chi_square_pvalue(joint, lambda rng: next(rows)), f"predict_batch {queries}: product law")


def test_batch_keeps_query_order() -> None:
    """Deterministic predictions (keep = 1) come back in query order: majority at 0 is 1, at 1 is 0."""
    flip = majority_flip(Fraction(1))
    out = flip.predict_batch(S, [0, 1, 1, 0, 1], np.random.default_rng(0))
    assert out.tolist() == [1, 0, 0, 1, 0]
    assert Counter(flip.predict_many(S, [0, 1], np.random.default_rng(0))) == Counter((1, 0))


# ----------------------------------------------------------------------- claims and conversions


def test_tight_conversion_exact_values() -> None:
    """γ(ln 3) = (3-1)/(3+1) = 1/2; γ(ln 3, 1/10) = (2 + 1/5)/4 = 11/20; ε = 0 gives γ = δ."""
    assert stability_from_privacy(PrivatePrediction.of("ln(3)")).gamma.exact == Fraction(1, 2)
    assert stability_from_privacy(PrivatePrediction.of("ln(3)", "1/10")).gamma.exact \
        == Fraction(11, 20)
    assert stability_from_privacy(PrivatePrediction.of(0, "1/7")).gamma.exact == Fraction(1, 7)
    assert paper_stability_bound(PrivatePrediction.of("ln(3)")).gamma.exact == 2


def test_tight_conversion_is_tanh_of_half_epsilon() -> None:
    """ε = 1: γ = tanh(1/2), checked against mpmath's tanh at 200 bits (enclosure contains it)."""
    gamma = stability_from_privacy(PrivatePrediction.of(1)).gamma
    assert gamma.exact is None
    box = gamma.enclose(128)
    with mpmath.workprec(200):
        truth = mpmath.tanh(mpmath.mpf(1) / 2)
        assert mpmath.mpf(box.lo.numerator) / box.lo.denominator <= truth
        assert truth <= mpmath.mpf(box.hi.numerator) / box.hi.denominator


ratios = st.fractions(min_value=1, max_value=20, max_denominator=50)
deltas = st.fractions(min_value=0, max_value=Fraction(99, 100), max_denominator=100)


def tight(t: Fraction, delta: Fraction) -> Fraction:
    """(t - 1 + 2δ)/(t + 1), the tight γ for e^ε = t."""
    return (t - 1 + 2 * delta) / (t + 1)


@given(ratios, deltas)
def test_conversion_attained_by_the_extremal_pair(t: Fraction, delta: Fraction) -> None:
    """p = (t+δ)/(t+1), q = (1-δ)/(t+1) meet both (ε, δ) constraints with equality; p - q = γ."""
    gamma = stability_from_privacy(PrivatePrediction(log(rational(t)), delta)).gamma
    assert gamma.exact == tight(t, delta)
    p, q = (t + delta) / (t + 1), (1 - delta) / (t + 1)
    assert p == t * q + delta and 1 - q == t * (1 - p) + delta
    assert q <= t * p + delta and 1 - p <= t * (1 - q) + delta
    assert p - q == gamma.exact


@given(ratios, deltas, st.fractions(0, 1, max_denominator=60),
       st.fractions(0, 1, max_denominator=60))
def test_every_private_pair_is_within_the_bound(t: Fraction, delta: Fraction, q: Fraction,
                                                 u: Fraction) -> None:
    """Any p >= q with p <= tq + δ and 1 - q <= t(1 - p) + δ has p - q <= (t - 1 + 2δ)/(t + 1)."""
    top = min(t * q + delta, 1 - (1 - q - delta) / t, Fraction(1))
    if top < q:
        return
    p = q + u * (top - q)
    assert p - q <= tight(t, delta)


@given(ratios.filter(lambda t: t > 1), deltas)
def test_paper_bound_is_strictly_looser(t: Fraction, delta: Fraction) -> None:
    """e^ε - 1 + δ - γ = (t - 1)(t + δ)/(t + 1) > 0 for ε > 0 (the paper's e^ε − 1 is loose), exactly."""
    claim = PrivatePrediction(log(rational(t)), delta)
    loose, exact = paper_stability_bound(claim).gamma, stability_from_privacy(claim).gamma
    assert compare(loose, exact)[0] is Order.GREATER
    assert loose.exact is not None and exact.exact is not None
    assert loose.exact - exact.exact == (t - 1) * (t + delta) / (t + 1)


@given(deltas)
def test_zero_epsilon_privacy_is_stability(delta: Fraction) -> None:
    """(0, δ)-private prediction ≡ δ-stability: the two maps are inverse (002 C2, D4)."""
    stable = UniformStability(rational(delta))
    private = privacy_from_stability(stable)
    assert private.epsilon.exact == 0 and private.delta == delta
    assert stability_from_privacy(private).gamma.exact == delta
    assert compare(paper_stability_bound(private).gamma, stable.gamma)[0] is Order.EQUAL


def test_claim_properties() -> None:
    """of() parses exact input; privacy exposes the PrivacyClaim; str names the notion."""
    claim = PrivatePrediction.of("2*ln(3/2)", "1/4")
    assert exp(claim.epsilon).exact == Fraction(9, 4)
    assert claim.privacy == PrivacyClaim(claim.epsilon, Fraction(1, 4))
    assert "private prediction" in str(claim)
    assert UniformStability.of("1/3").gamma.exact == Fraction(1, 3)
    assert UniformStability.of(Fraction(3, 2)).gamma.exact == Fraction(3, 2)  # vacuous, allowed
    assert "uniform stability" in str(UniformStability.of(0))


# --------------------------------------------------------------------------------- bad input


def test_bad_claims_raise() -> None:
    """Negative or non-exact parameters are refused with the argument named."""
    with pytest.raises(InvalidArgument, match="epsilon=-1 must be >= 0"):
        PrivatePrediction.of(-1)
    with pytest.raises(InvalidArgument, match="delta=1 must be < 1"):
        PrivatePrediction.of(0, 1)
    with pytest.raises(InvalidArgument, match="epsilon=1 must be a Real"):
        PrivatePrediction(1)  # type: ignore[arg-type]  # a Real is required
    with pytest.raises(InvalidArgument, match="delta=0 must be a Fraction"):
        PrivatePrediction(rational(1), 0)  # type: ignore[arg-type]  # a Fraction is required
    with pytest.raises(InvalidArgument, match="gamma=-1/2 must be >= 0"):
        UniformStability.of("-1/2")
    with pytest.raises(InvalidArgument, match="gamma=1/2 must be a Real"):
        UniformStability(Fraction(1, 2))  # type: ignore[arg-type]  # a Real is required
    with pytest.raises(InvalidArgument, match="must be rational"):
        privacy_from_stability(stability_from_privacy(PrivatePrediction.of(1)))
    with pytest.raises(InvalidArgument, match="gamma=1 must be < 1"):
        privacy_from_stability(UniformStability.of(1))
    with pytest.raises(InvalidArgument, match="must be a PrivatePrediction"):
        stability_from_privacy(UniformStability.of(0))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="must be a PrivatePrediction"):
        paper_stability_bound(PrivacyClaim.of(1))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="must be a UniformStability"):
        privacy_from_stability(PrivatePrediction.of(1))  # type: ignore[arg-type]


def constant(value: object) -> Predictor:
    """A predictor returning ``value`` (possibly not a label) without randomness."""
    def program(data: Dataset, x: Hashable) -> Program[int]:
        coin = yield from bernoulli(Fraction(1, 2))
        del coin
        return value  # type: ignore[return-value]  # deliberately not a label in some tests

    return Predictor("constant", program, UniformStability.of(0), Uncited("test fixture"))


def test_bad_predictors_raise() -> None:
    """Every field is checked; outputs outside {0, 1} and non-programs are refused."""
    good = majority_flip(Fraction(3, 4))
    with pytest.raises(InvalidArgument, match="name=''"):
        Predictor("", good.program, good.claim, good.source)
    with pytest.raises(InvalidArgument, match="program=3"):
        Predictor("p", 3, good.claim, good.source)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="must be a PrivatePrediction or UniformStability"):
        Predictor("p", good.program, PrivacyClaim.of(1), good.source)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="source='002'"):
        Predictor("p", good.program, good.claim, "002")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="relation=None"):
        Predictor("p", good.program, good.claim, good.source, None)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match=r"domain=\(\)"):
        Predictor("p", good.program, good.claim, good.source, domain=())
    with pytest.raises(InvalidArgument, match="x=2 must be a point of the domain"):
        good.law(S, 2)
    with pytest.raises(InvalidArgument, match="x=2 must be a point of the domain"):
        good.predict_batch(S, [0, 2], np.random.default_rng(0))
    with pytest.raises(InvalidArgument, match=r"x=\[0\] must be hashable"):
        good.predict(S, [0], np.random.default_rng(0))  # type: ignore[arg-type]  # unhashable
    with pytest.raises(InvalidArgument, match=r"rng=0 must be a numpy\.random\.Generator"):
        good.predict(S, 0, 0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match=r"rng=0 must be a numpy\.random\.Generator"):
        good.predict_batch(S, [0], 0)  # type: ignore[arg-type]
    for bad in (2, True, "1"):
        with pytest.raises(UnsupportedProgram, match="must be the int 0 or 1"):
            constant(bad).law(S, 0)
        with pytest.raises(UnsupportedProgram, match="must be the int 0 or 1"):
            constant(bad).predict(S, 0, np.random.default_rng(0))

    def not_a_program(data: Dataset, x: Hashable) -> Program[int]:
        return 1  # type: ignore[return-value]  # deliberately not a generator

    plain = Predictor("plain", not_a_program, UniformStability.of(0), Uncited("test fixture"))
    with pytest.raises(UnsupportedProgram, match=r"predictor 'plain'.*not a generator"):
        plain.law(S, 0)
    with pytest.raises(UnsupportedProgram, match=r"predictor 'plain'.*not a generator"):
        plain.predict(S, 0, np.random.default_rng(0))
