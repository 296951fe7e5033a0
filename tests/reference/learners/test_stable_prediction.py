"""002 Algorithms 1 and 2 (stable learner, flip conversion): primitives, exact laws, exact audits.

Every figure below is an exact rational: ε = 2·ln(3/2) makes e^{ε/2} = 3/2, e^ε = 9/4 and
tanh(ε/2) = (9/4 − 1)/(9/4 + 1) = 5/13, so every law is rational and the audits are decided
exactly.  Classes: thresholds c_j(x) = 1 iff x < j, in the order c_0 ≡ 0, c_1, ..., c_k ≡ 1.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from privref.audits.prediction import audit_prediction
from privref.reference.concepts import thresholds_on
from privref.reference.data import BOTTOM, Dataset
from privref.reference.errors import InvalidArgument, UnknownLabel
from privref.reference.learners import (
    flip_predictor,
    flip_privacy,
    paper_stable_gamma,
    pattern_exponential_mechanism,
    private_predictor,
    random_index_subset,
    stable_gamma,
    stable_hypothesis,
    stable_predictor,
)
from privref.reference.neighbors import Universe
from privref.reference.prediction import Predictor, PrivatePrediction, UniformStability
from privref.reference.privacy import parse_epsilon
from privref.reference.program import distribution
from privref.reference.reals import exp, log, rational
from privref.reference.verdict import Verdict

from ...stats import chi_square_pvalue, fits
from ..test_prediction import EXAMPLES, X, subsample_flip

EPS = parse_epsilon("2*ln(3/2)")
T2 = thresholds_on(2)                 # c_0 = 00, c_1 = 10, c_2 = 11 over {0, 1}
T3 = thresholds_on(3)
S = ((0, 1), (1, 0))


def examples(points: int) -> tuple[tuple[int, int], ...]:
    """Every labeled example over {0, ..., points − 1}."""
    return tuple((x, y) for x in range(points) for y in (0, 1))


# ------------------------------------------------------------------ primitives


def test_random_index_subset_is_uniform_over_distinct_indices() -> None:
    """Each of the C(4, 2) = 6 index pairs has probability exactly 1/6 (distinct indices)."""
    law = distribution(random_index_subset, 4, 2)
    assert law.as_dict() == {s: Fraction(1, 6) for s in
                             ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))}
    with pytest.raises(InvalidArgument, match=r"m=3 must be <= 2"):
        distribution(random_index_subset, 2, 3)
    with pytest.raises(InvalidArgument, match=r"m=0 must be >= 1"):
        distribution(random_index_subset, 2, 0)


def test_exponential_mechanism_over_patterns_by_hand() -> None:
    """Patterns of T2 on (0,): c_0 and c_1.  On S, c_0 makes 1 mistake and c_1 none.

    P[c_1] = 1/(1 + (3/2)^{-1}) = 3/5 with the paper's 1/2 (without it, 9/13).
    """
    law = distribution(pattern_exponential_mechanism, T2, (0,), S, EPS)
    assert law.as_dict() == {T2[1]: Fraction(3, 5), T2[0]: Fraction(2, 5)}
    # on (1,): c_0 and c_2, one mistake each on S: uniform
    law = distribution(pattern_exponential_mechanism, T2, (1,), S, EPS)
    assert law.as_dict() == {T2[0]: Fraction(1, 2), T2[2]: Fraction(1, 2)}


def test_candidates_depend_on_the_points_only() -> None:
    """Candidates from x's only: relabeling S changes the scores but never the candidate set of a subsample.

    On ((0,0), (1,1)): I = {0} offers c_0, c_1 with 1 and 2 mistakes (3/5, 2/5); I = {1}
    offers c_0, c_2 with 1 mistake each (1/2, 1/2).  So c_0: 11/20, c_1: 1/5, c_2: 1/4.
    """
    relabeled = ((0, 0), (1, 1))
    for data in (S, relabeled):
        law = distribution(stable_hypothesis, T2, data, 1, EPS)
        assert set(law.support()) == {T2[0], T2[1], T2[2]}
    assert distribution(stable_hypothesis, T2, relabeled, 1, EPS).as_dict() == {
        T2[0]: Fraction(11, 20), T2[1]: Fraction(1, 5), T2[2]: Fraction(1, 4)}


# --------------------------------------------------------------- claims


def test_stable_gamma_exact_values() -> None:
    """m/n + (1 − m/n)·5/13 and the paper's m/n + e^ε − 1 = m/n + 5/4."""
    assert stable_gamma(1, 2, EPS).exact == Fraction(9, 13)
    assert stable_gamma(1, 3, EPS).exact == Fraction(1, 3) + Fraction(2, 3) * Fraction(5, 13)
    assert stable_gamma(2, 2, EPS).exact == 1
    assert stable_gamma(1, 4, 0).exact == Fraction(1, 4)
    assert paper_stable_gamma(1, 2, EPS).exact == Fraction(7, 4)
    assert paper_stable_gamma(1, 4, 0).exact == Fraction(1, 4)


def test_flip_privacy_exact_values() -> None:
    """ln(1 + (1 − 2q)·min(γ, 1)/q): q = 1/4, γ = 9/13 gives ln(31/13); γ = 2 is capped at 1."""
    at = flip_privacy(UniformStability.of(Fraction(9, 13)), Fraction(1, 4))
    assert exp(at.epsilon).exact == Fraction(31, 13) and at.delta == 0
    assert exp(flip_privacy(UniformStability.of(2), "1/4").epsilon).exact == 3
    assert flip_privacy(UniformStability.of(1), Fraction(1, 2)).epsilon.exact == 0
    assert flip_privacy(UniformStability.of(0), Fraction(1, 10)).epsilon.exact == 0


# ---------------------------------------------------------- laws and samplers


def test_algorithm1_and_2_laws_by_hand() -> None:
    """T2, S = ((0,1), (1,0)), m = 1.  I = {0}: P[c_1] = 3/5; I = {1}: c_0, c_2 at 1/2 each.

    x = 0: p = (1/2)(3/5) + (1/2)(1/2) = 11/20.  x = 1: only c_2 says 1: p = (1/2)(1/2) = 1/4
    (scoring on S_I instead of all of S would give c_2 weight 2/5 there, so p = 1/5).
    Algorithm 2 with q = 1/4: p' = 1/4 + (1/2)·p = 21/40 and 3/8.
    """
    one = stable_predictor(T2, 2, 1, EPS)
    assert one.law(S, 0).as_dict() == {1: Fraction(11, 20), 0: Fraction(9, 20)}
    assert one.probability_one(S, 1) == Fraction(1, 4)
    two = private_predictor(T2, 2, 1, EPS, Fraction(1, 4))
    assert two.probability_one(S, 0) == Fraction(21, 40)
    assert two.probability_one(S, 1) == Fraction(3, 8)
    assert isinstance(one.claim, UniformStability) and one.claim.gamma.exact == Fraction(9, 13)
    assert isinstance(two.claim, PrivatePrediction)
    assert exp(two.claim.epsilon).exact == Fraction(31, 13)


@pytest.mark.parametrize("flip", [None, Fraction(1, 4)])
def test_samplers_match_the_law(flip: Fraction | None) -> None:
    """predict and predict_batch vs the exact law: seeded chi-square, each a recorded ``fits``."""
    data = ((0, 1), (2, 0), (1, 1))
    predictor = (stable_predictor(T3, 3, 2, EPS) if flip is None
                 else private_predictor(T3, 3, 2, EPS, flip))
    law = predictor.law(data, 1)
    assert fits(chi_square_pvalue(law, lambda rng: predictor.predict(data, 1, rng), n=2000),
                f"{predictor.name}: predict vs law")
    draws = iter(predictor.predict_batch(data, [1] * 4000, np.random.default_rng(11)).tolist())
    assert fits(chi_square_pvalue(law, lambda rng: next(draws)), f"{predictor.name}: predict_batch vs law")


# ------------------------------------------------------------------ audits

# (points, n, m): audited exact worst-case γ, next to the claim m/n + (1 − m/n)·5/13
ALGORITHM1 = [
    (2, 2, 1, Fraction(23, 52), Fraction(9, 13)),
    (3, 3, 1, Fraction(13, 35), Fraction(23, 39)),
    (2, 3, 2, Fraction(48, 133), Fraction(31, 39)),
]


@pytest.mark.parametrize(("points", "n", "m", "audited", "claimed"), ALGORITHM1)
def test_algorithm1_stability_audit(points: int, n: int, m: int, audited: Fraction,
                                    claimed: Fraction) -> None:
    """The claimed γ HOLDS; the audited worst case is exact, decided at and just below.

    The claim is NOT attained here (audited < claimed), for two structural reasons: (i) the
    m/n term needs P to move by 1 when the changed index is subsampled, but c_0 (first in C's
    order) is a candidate for every subsample and the exponential mechanism gives every
    candidate positive weight, so P never reaches 0 or 1; (ii) the tanh(ε/2) term needs a
    change that moves every candidate's mistakes by ±1 according to h(x), i.e. a label flip
    at x, while the m/n term needs a change of x.  So a slightly smaller claim still HOLDS;
    the audited value itself is the exact supremum: HOLDS at it, VIOLATED just below.
    """
    predictor = stable_predictor(thresholds_on(points), n, m, EPS)
    universe = Universe(examples(points), (n,))
    queries = tuple(range(points))
    report = audit_prediction(predictor, universe, queries)
    assert report.verdict is Verdict.HOLDS
    assert report.gamma_exact == audited
    assert stable_gamma(m, n, EPS).exact == claimed and audited < claimed
    w = report.gamma_witness
    pa, pb = predictor.probability_one(w.a, w.x), predictor.probability_one(w.b, w.x)
    assert isinstance(pa, Fraction) and isinstance(pb, Fraction) and abs(pa - pb) == audited
    between = UniformStability(rational((audited + claimed) / 2))
    assert audit_prediction(predictor, universe, queries, claim=between).verdict is Verdict.HOLDS
    at = audit_prediction(predictor, universe, queries, claim=UniformStability.of(audited))
    assert at.verdict is Verdict.HOLDS
    below = UniformStability.of(audited - Fraction(1, 10**9))
    assert audit_prediction(predictor, universe, queries, claim=below).verdict \
        is Verdict.VIOLATED


def test_irrational_epsilon_is_decided_by_intervals() -> None:
    """ε = 1: the laws are enclosures, yet both claims are proved to HOLD (with no exact γ).

    On (2 points, n = 2, m = 1) the audited γ is the claim minus 1/4 at ε = 2·ln(3/2)
    (9/13 − 23/52 = 1/4), and the enclosure at ε = 1 holds 1/2 + (1/2)·tanh(1/2) − 1/4 too:
    the tanh(ε/2) half is attained there, the subsampled half contributes 1/4 of its 1/2.
    """
    universe = Universe(examples(2), (2,))
    one = stable_predictor(T2, 2, 1, 1)
    report = audit_prediction(one, universe, (0, 1))
    assert report.verdict is Verdict.HOLDS and report.gamma_exact is None
    assert isinstance(one.claim, UniformStability)
    box = (one.claim.gamma - Fraction(1, 4)).enclose(report.precision)
    assert report.gamma_lower <= box.hi and box.lo <= report.gamma_upper
    two = private_predictor(T2, 2, 1, 1, Fraction(1, 4))
    private = audit_prediction(two, universe, (0, 1))
    assert private.verdict is Verdict.HOLDS and private.epsilon_upper is not None
    assert isinstance(two.claim, PrivatePrediction)
    assert private.epsilon_upper < two.claim.epsilon.enclose().lo


# (points, n, m, q): audited exact e^{ε′}, next to the claimed 1 + (1 − 2q)·γ/q
ALGORITHM2 = [
    (2, 2, 1, Fraction(1, 4), Fraction(22, 13), Fraction(31, 13)),
    (3, 3, 1, Fraction(1, 4), Fraction(53, 35), Fraction(85, 39)),
    (2, 3, 2, Fraction(1, 10), Fraction(197, 53), Fraction(287, 39)),
]


@pytest.mark.parametrize(("points", "n", "m", "flip", "audited", "claimed"), ALGORITHM2)
def test_algorithm2_privacy_audit(points: int, n: int, m: int, flip: Fraction,
                                  audited: Fraction, claimed: Fraction) -> None:
    """ε′ = ln(1 + (1 − 2q)γ/q) HOLDS; the audited ε′ is the flip of Algorithm 1's own laws.

    Not attained, because Algorithm 1's γ is not (see the Algorithm 1 audit) and its p never
    reaches 0: the audited e^{ε′} equals max (q + (1 − 2q)P_a(y))/(q + (1 − 2q)P_b(y)) over
    pairs, queries and labels, recomputed here from Algorithm 1's exact laws, and it is at
    most the flip of the audited γ.  Decided at the audited value (HOLDS) and just below it.
    """
    C = thresholds_on(points)
    one = stable_predictor(C, n, m, EPS)
    two = private_predictor(C, n, m, EPS, flip)
    universe = Universe(examples(points), (n,))
    queries = tuple(range(points))
    report = audit_prediction(two, universe, queries)
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_exact is not None and exp(report.epsilon_exact).exact == audited
    assert isinstance(two.claim, PrivatePrediction)
    assert exp(two.claim.epsilon).exact == claimed and audited < claimed
    p: dict[tuple[Dataset, int], Fraction] = {}
    for data in universe.datasets():
        for x in queries:
            value = one.probability_one(data, x)
            assert isinstance(value, Fraction)
            p[data, x] = value
    ratio = Fraction(1)
    for a, b in universe.pairs(two.relation):
        for x in queries:
            pa, pb = p[a, x], p[b, x]
            for ya, yb in ((pa, pb), (1 - pa, 1 - pb)):
                ratio = max(ratio, (flip + (1 - 2 * flip) * ya) / (flip + (1 - 2 * flip) * yb))
    assert ratio == audited
    gamma = audit_prediction(one, universe, queries).gamma_exact
    assert gamma is not None
    via_gamma = exp(flip_privacy(UniformStability.of(gamma), flip).epsilon).exact
    assert via_gamma is not None and audited <= via_gamma
    at = PrivatePrediction(log(rational(audited)))
    assert audit_prediction(two, universe, queries, claim=at).verdict is Verdict.HOLDS
    below = PrivatePrediction(log(rational(audited - Fraction(1, 10**9))))
    assert audit_prediction(two, universe, queries, claim=below).verdict is Verdict.VIOLATED


def test_flip_conversion_is_tight() -> None:
    """The flip bound is attained by a γ-stable predictor with p'' = 0 and p = γ.

    The random-label predictor on n = 2 is exactly 1/2-stable (p moves from 0 to 1/2); flipped
    with q = 1/4 it is exactly ln(1 + (1/2)(1/2)/(1/4)) = ln 2-private: HOLDS at ln 2 and
    VIOLATED just below.
    """
    inner = subsample_flip(Fraction(1), 2)
    flipped = flip_predictor(inner, Fraction(1, 4))
    assert isinstance(flipped.claim, PrivatePrediction)
    assert exp(flipped.claim.epsilon).exact == 2
    universe = Universe(EXAMPLES, (2,))
    report = audit_prediction(flipped, universe, X)
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_exact is not None and exp(report.epsilon_exact).exact == 2
    below = PrivatePrediction(log(rational(2 - Fraction(1, 10**9))))
    assert audit_prediction(flipped, universe, X, claim=below).verdict is Verdict.VIOLATED


# ------------------------------------------------------------------ errors


def test_bad_arguments_raise_naming_the_argument() -> None:
    """m, n, ε, C, flip at construction; data size, ⊥ labels, points and query at run time."""
    with pytest.raises(InvalidArgument, match=r"m=3 must be <= 2"):
        stable_predictor(T2, 2, 3, EPS)
    with pytest.raises(InvalidArgument, match=r"m=0 must be >= 1"):
        stable_predictor(T2, 2, 0, EPS)
    with pytest.raises(InvalidArgument, match=r"n=0 must be >= 1"):
        stable_predictor(T2, 0, 1, EPS)
    with pytest.raises(InvalidArgument, match=r"epsilon=-1 must be >= 0"):
        stable_predictor(T2, 2, 1, -1)
    with pytest.raises(InvalidArgument, match=r"C=.* must be a ConceptClass"):
        stable_predictor((), 2, 1, EPS)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match=r"flip=0 must"):
        private_predictor(T2, 2, 1, EPS, 0)
    with pytest.raises(InvalidArgument, match=r"flip=3/4 must be <= 1/2"):
        private_predictor(T2, 2, 1, EPS, Fraction(3, 4))
    two = private_predictor(T2, 2, 1, EPS, Fraction(1, 4))
    with pytest.raises(InvalidArgument, match=r"inner.claim=.* must be a UniformStability"):
        flip_predictor(two, Fraction(1, 4))
    one = stable_predictor(T2, 2, 1, EPS)
    with pytest.raises(InvalidArgument, match=r"x=5 must be a point of the domain"):
        one.law(S, 5)
    with pytest.raises(InvalidArgument, match=r"data has 3 examples; this predictor needs n=2"):
        one.law((*S, (0, 0)), 0)
    with pytest.raises(InvalidArgument, match=r"data\[1\]=.* must be labeled 0 or 1"):
        one.law(((0, 1), (1, BOTTOM)), 0)
    with pytest.raises(InvalidArgument, match=r"data\[0\]"):
        one.law(((7, 1), (1, 0)), 0)
    assert isinstance(one, Predictor)


def test_malformed_examples_are_refused_naming_their_index() -> None:
    """A label outside {0, 1, ⊥} or a non-pair is refused as data[i], not as a bare label."""
    one = stable_predictor(T2, 2, 1, EPS)
    with pytest.raises(UnknownLabel, match=r"data\[0\]=\(0, 2\) must be an example \(x, y\) "
                                           r"labeled 0 or 1"):
        one.law(((0, 2), (1, 0)), 0)
    with pytest.raises(UnknownLabel, match=r"data\[1\]=5 must be an example"):
        one.law(((0, 1), 5), 0)
