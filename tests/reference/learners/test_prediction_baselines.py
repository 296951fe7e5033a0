"""002 baselines B1–B5 as Predictors: exact laws, samplers, and exact audits of their claims.

ε = 2·ln(3/2) makes e^{ε/2} = 3/2 and e^ε = 9/4, so every law is rational and every audit is
decided exactly.  Classes: thresholds c_j(x) = 1 iff x < j, in the order c_0 ≡ 0, c_1, ...,
so on two points T2 = (c_0 = 00, c_1 = 10, c_2 = 11), and ERM breaks ties towards c_0.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

from privref.audits.prediction import audit_prediction
from privref.reference.concepts import thresholds_on
from privref.reference.data import BOTTOM
from privref.reference.errors import InvalidArgument, UnknownLabel
from privref.reference.learners import (
    block_average_predictor,
    erm,
    flipped_average_predictor,
    generic_predictor,
    index_blocks,
    private_majority_epsilon,
    private_majority_predictor,
    subsample_predictor,
)
from privref.reference.neighbors import Universe
from privref.reference.prediction import Predictor, PrivatePrediction, UniformStability
from privref.reference.privacy import parse_epsilon
from privref.reference.reals import exp, log
from privref.reference.verdict import Verdict

from ...stats import chi_square_pvalue, fits

EPS = parse_epsilon("2*ln(3/2)")
T2 = thresholds_on(2)
T3 = thresholds_on(3)
S = ((0, 1), (1, 0))
Q = Fraction(1, 4)


def examples(points: int) -> tuple[tuple[int, int], ...]:
    """Every labeled example over {0, ..., points − 1}."""
    return tuple((x, y) for x in range(points) for y in (0, 1))


# ------------------------------------------------------------------ primitives


def test_erm_is_first_in_class_order_with_fewest_mistakes() -> None:
    """On (0,1) c_1 and c_2 make no mistake: c_1 comes first.  On (1,0) c_0, c_1 tie: c_0."""
    assert erm(T2, ((0, 1),)) == T2[1]
    assert erm(T2, ((1, 0),)) == T2[0]
    assert erm(T2, ()) == T2[0]
    assert erm(T2, ((0, 1), (1, 1))) == T2[2]
    with pytest.raises(InvalidArgument, match=r"data\[0\]=5 must be a point of the domain"):
        erm(T2, ((5, 0),))
    with pytest.raises(InvalidArgument, match=r"C='T' must be a ConceptClass"):
        erm("T", ())  # type: ignore[arg-type]  # deliberately the wrong type


def test_index_blocks() -> None:
    """Consecutive, disjoint, covering; sizes differ by at most one."""
    assert index_blocks(4, 2) == ((0, 1), (2, 3))
    assert index_blocks(3, 2) == ((0,), (1, 2))
    assert index_blocks(3, 3) == ((0,), (1,), (2,))
    with pytest.raises(InvalidArgument, match=r"k=3 must be <= 2"):
        index_blocks(2, 3)
    with pytest.raises(InvalidArgument, match=r"k=0 must be >= 1"):
        index_blocks(2, 0)


def test_private_majority_epsilon_exact_values() -> None:
    """e^{ε′} = (1 + r^k)/(1 + r^{k−2}), r = 3/2: k = 1 gives r (ε/2), k = 2 gives 13/8, k = 3 7/4."""
    assert exp(private_majority_epsilon(1, EPS)).exact == Fraction(3, 2)
    assert exp(private_majority_epsilon(2, EPS)).exact == Fraction(13, 8)
    assert exp(private_majority_epsilon(3, EPS)).exact == Fraction(7, 4)
    assert private_majority_epsilon(5, 0).exact == 0
    for k in range(1, 8):        # never above e^ε = 9/4, approaching it as k grows
        ratio = exp(private_majority_epsilon(k, EPS)).exact
        assert ratio is not None and ratio < Fraction(9, 4)
    with pytest.raises(InvalidArgument, match=r"k=0 must be >= 1"):
        private_majority_epsilon(0, EPS)
    with pytest.raises(InvalidArgument, match=r"epsilon=-1 must be >= 0"):
        private_majority_epsilon(2, -1)


# ----------------------------------------------------------------- exact laws


def test_laws_by_hand() -> None:
    """S = ((0,1), (1,0)) on T2.  ERM on (0,1) is c_1 (says 1 at 0); on (1,0) it is c_0.

    B1 (m = 1) and B2 (k = 2): p(0) = 1/2, p(1) = 0.  B3 (q = 1/4): 1/4 + (1/2)p = 1/2, 1/4.
    B4 (k = 2): one vote each at 0 gives 1/2; at 1 the votes are (2, 0), so
    P[1] = (3/2)^{-2}/(1 + (3/2)^{-2}) = 4/13.
    """
    b1 = subsample_predictor(T2, 2, 1)
    b2 = block_average_predictor(T2, 2, 2)
    b3 = flipped_average_predictor(T2, 2, 2, Q)
    b4 = private_majority_predictor(T2, 2, 2, EPS)
    assert [b.probability_one(S, x) for b in (b1, b2, b3, b4) for x in (0, 1)] == [
        Fraction(1, 2), 0, Fraction(1, 2), 0, Fraction(1, 2), Fraction(1, 4),
        Fraction(1, 2), Fraction(4, 13)]
    # B1 with m = 2 of n = 3: subsets {0,1}, {0,2}, {1,2} of ((0,1), (1,1), (1,0)) give
    # ERMs c_2, c_1, c_0 (tie, first), so p(0) = 2/3 and p(1) = 1/3.
    data = ((0, 1), (1, 1), (1, 0))
    b1 = subsample_predictor(T2, 3, 2)
    assert (b1.probability_one(data, 0), b1.probability_one(data, 1)) == (Fraction(2, 3),
                                                                          Fraction(1, 3))


def test_claims() -> None:
    """m/n, 1/k, ln(1 + (1 − 2q)/(kq)) and ln((1 + r^k)/(1 + r^{k−2}))."""
    b1 = subsample_predictor(T3, 4, 2)
    b2 = block_average_predictor(T3, 4, 3)
    b3 = flipped_average_predictor(T3, 4, 3, Q)
    b4 = private_majority_predictor(T3, 4, 3, EPS)
    assert isinstance(b1.claim, UniformStability) and b1.claim.gamma.exact == Fraction(1, 2)
    assert isinstance(b2.claim, UniformStability) and b2.claim.gamma.exact == Fraction(1, 3)
    assert isinstance(b3.claim, PrivatePrediction)
    assert exp(b3.claim.epsilon).exact == Fraction(5, 3)          # 1 + (1/2)/(3/4)
    assert isinstance(b4.claim, PrivatePrediction)
    assert exp(b4.claim.epsilon).exact == Fraction(7, 4)


@pytest.mark.parametrize("make", [
    lambda: subsample_predictor(T3, 3, 2),
    lambda: block_average_predictor(T3, 3, 2),
    lambda: flipped_average_predictor(T3, 3, 2, Q),
    lambda: private_majority_predictor(T3, 3, 3, EPS),
    lambda: generic_predictor(T3, 3, EPS),
])
def test_samplers_match_the_law(make: Callable[[], Predictor]) -> None:
    """predict and predict_batch vs the exact law: seeded chi-square, each a recorded ``fits``."""
    predictor = make()
    data = ((0, 1), (2, 0), (1, 1))
    law = predictor.law(data, 1)
    assert fits(chi_square_pvalue(law, lambda rng: predictor.predict(data, 1, rng), n=2000),
                f"{predictor.name}: predict vs law")
    draws = iter(predictor.predict_batch(data, [1] * 4000, np.random.default_rng(7)).tolist())
    assert fits(chi_square_pvalue(law, lambda rng: next(draws)), f"{predictor.name}: predict_batch vs law")


# ------------------------------------------------------------------- audits

# (label, predictor, points, n): every stability claim below is ATTAINED exactly
STABILITY = [
    ("B1 m=1", subsample_predictor(T2, 2, 1), 2, 2, Fraction(1, 2)),
    ("B1 m=2", subsample_predictor(T2, 3, 2), 2, 3, Fraction(2, 3)),
    ("B1 m=1 of 3", subsample_predictor(T3, 3, 1), 3, 3, Fraction(1, 3)),
    ("B2 k=2", block_average_predictor(T2, 4, 2), 2, 4, Fraction(1, 2)),
    ("B2 k=3", block_average_predictor(T3, 3, 3), 3, 3, Fraction(1, 3)),
]


@pytest.mark.parametrize(("label", "predictor", "points", "n", "gamma"), STABILITY)
def test_stability_claims_hold_and_are_attained(label: str, predictor: Predictor, points: int,
                                                n: int, gamma: Fraction) -> None:
    """B1's m/n and B2's 1/k HOLD and are the exact worst case: a smaller γ is VIOLATED.

    Attained on thresholds because a single example decides a one-example ERM, and with
    m = 2 of n = 3 on T2 every pair holding the changed index flips its ERM at some x.
    """
    universe = Universe(examples(points), (n,))
    queries = tuple(range(points))
    report = audit_prediction(predictor, universe, queries)
    assert report.verdict is Verdict.HOLDS, label
    assert isinstance(predictor.claim, UniformStability)
    assert predictor.claim.gamma.exact == gamma == report.gamma_exact
    below = UniformStability.of(gamma - Fraction(1, 10**9))
    assert audit_prediction(predictor, universe, queries, claim=below).verdict \
        is Verdict.VIOLATED


# (label, predictor, points, n, exact e^ε of the claim = audited worst case)
PRIVACY = [
    ("B3 k=2", flipped_average_predictor(T2, 2, 2, Q), 2, 2, Fraction(2)),
    ("B3 k=3", flipped_average_predictor(T3, 3, 3, Q), 3, 3, Fraction(5, 3)),
    ("B4 k=2", private_majority_predictor(T2, 2, 2, EPS), 2, 2, Fraction(13, 8)),
    ("B4 k=2 of 4", private_majority_predictor(T2, 4, 2, EPS), 2, 4, Fraction(13, 8)),
    ("B4 k=3", private_majority_predictor(T3, 3, 3, EPS), 3, 3, Fraction(7, 4)),
]


@pytest.mark.parametrize(("label", "predictor", "points", "n", "ratio"), PRIVACY)
def test_privacy_claims_hold_and_are_attained(label: str, predictor: Predictor, points: int,
                                              n: int, ratio: Fraction) -> None:
    """B3's and B4's ε HOLD and are attained (votes 0 → 1 at some x); a smaller ε is VIOLATED.

    B4's generic exponential-mechanism claim ε (e^ε = 9/4) also HOLDS but is never attained.
    """
    universe = Universe(examples(points), (n,))
    queries = tuple(range(points))
    report = audit_prediction(predictor, universe, queries)
    assert report.verdict is Verdict.HOLDS, label
    assert isinstance(predictor.claim, PrivatePrediction)
    assert exp(predictor.claim.epsilon).exact == ratio
    assert report.epsilon_exact is not None and exp(report.epsilon_exact).exact == ratio
    below = PrivatePrediction(log(ratio - Fraction(1, 10**9)))
    assert audit_prediction(predictor, universe, queries, claim=below).verdict \
        is Verdict.VIOLATED
    if label.startswith("B4"):
        generic = audit_prediction(predictor, universe, queries, claim=PrivatePrediction(EPS))
        assert generic.verdict is Verdict.HOLDS and ratio < Fraction(9, 4)


# (points, n, audited exact e^ε): below the claim e^ε = 9/4
GENERIC = [(2, 1, Fraction(12, 7)), (2, 2, Fraction(11, 6)), (3, 2, Fraction(31, 16))]


@pytest.mark.parametrize(("points", "n", "audited"), GENERIC)
def test_generic_learner_claim_holds_and_is_not_attained(points: int, n: int,
                                                         audited: Fraction) -> None:
    """B5: ε HOLDS but is NOT attained: the event h(x) = y pools concepts whose scores move in
    different directions under a change, so the ratio of pooled weights stays below e^ε.
    The audited value is the exact worst case: HOLDS at it, VIOLATED just below.

    By hand (2 points, n = 1, S = ((0,1),), x = 1): weights c_0 : c_1 : c_2 = 2/3 : 1 : 1, so
    P[1] = P[c_2] = 3/8.
    """
    predictor = generic_predictor(thresholds_on(points), n, EPS)
    if (points, n) == (2, 1):
        assert predictor.probability_one(((0, 1),), 1) == Fraction(3, 8)
    universe = Universe(examples(points), (n,))
    queries = tuple(range(points))
    report = audit_prediction(predictor, universe, queries)
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_exact is not None and exp(report.epsilon_exact).exact == audited
    assert audited < Fraction(9, 4)
    at = audit_prediction(predictor, universe, queries, claim=PrivatePrediction(log(audited)))
    assert at.verdict is Verdict.HOLDS
    below = PrivatePrediction(log(audited - Fraction(1, 10**9)))
    assert audit_prediction(predictor, universe, queries, claim=below).verdict \
        is Verdict.VIOLATED


# --------------------------------------------------------------- validation


def test_bad_arguments_raise() -> None:
    """Every argument is validated with a message naming it."""
    with pytest.raises(InvalidArgument, match=r"m=3 must be <= 2"):
        subsample_predictor(T2, 2, 3)
    with pytest.raises(InvalidArgument, match=r"m=0 must be >= 1"):
        subsample_predictor(T2, 2, 0)
    with pytest.raises(InvalidArgument, match=r"n=0 must be >= 1"):
        block_average_predictor(T2, 0, 1)
    with pytest.raises(InvalidArgument, match=r"k=3 must be <= 2"):
        private_majority_predictor(T2, 2, 3, EPS)
    with pytest.raises(InvalidArgument, match=r"C='T' must be a ConceptClass"):
        subsample_predictor("T", 2, 1)  # type: ignore[arg-type]  # deliberately the wrong type
    with pytest.raises(InvalidArgument, match=r"flip=0 must lie in"):
        flipped_average_predictor(T2, 2, 2, 0)
    with pytest.raises(InvalidArgument, match=r"flip=3/4 must be <= 1/2"):
        flipped_average_predictor(T2, 2, 2, "3/4")
    with pytest.raises(InvalidArgument, match=r"epsilon=-1 must be >= 0"):
        private_majority_predictor(T2, 2, 2, -1)
    with pytest.raises(InvalidArgument, match=r"n=0 must be >= 1"):
        generic_predictor(T2, 0, EPS)
    b1 = subsample_predictor(T2, 2, 1)
    with pytest.raises(InvalidArgument, match=r"data has 1 examples; this predictor needs n=2"):
        b1.law(((0, 1),), 0)
    with pytest.raises(InvalidArgument, match=r"data\[1\]=5 must be a point of the domain"):
        b1.law(((0, 1), (5, 0)), 0)
    with pytest.raises(InvalidArgument, match=r"x=7 must be a point of the domain"):
        b1.law(S, 7)
    with pytest.raises(InvalidArgument, match=r"must be labeled 0 or 1, not ⊥"):
        private_majority_predictor(T2, 2, 2, EPS).law(((0, 1), (1, BOTTOM)), 0)


def test_erm_refuses_malformed_data_naming_it() -> None:
    """erm names data (or data[i]) for a non-iterable dataset or a label outside {0, 1}."""
    with pytest.raises(InvalidArgument, match=r"data=5 must be a sequence of labeled examples"):
        erm(T2, 5)  # type: ignore[arg-type]  # deliberately the wrong type
    with pytest.raises(InvalidArgument, match=r"data='ab' must be a sequence"):
        erm(T2, "ab")  # type: ignore[arg-type]  # deliberately the wrong type
    with pytest.raises(UnknownLabel, match=r"data\[1\]=\(1, 2\) must be an example"):
        erm(T2, ((0, 1), (1, 2)))
