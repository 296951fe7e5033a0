"""The analysis objects of 002 §4 (reference.learners.relabel_analysis): exact values, errors."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.reference.concepts import explicit, thresholds_on
from privref.reference.errors import InvalidArgument
from privref.reference.learners import relabel_analysis as ra
from privref.reference.learners.relabel_prediction import relabel_core_predictor
from privref.reference.prediction import PrivatePrediction
from privref.reference.reals import exp, log, rational

F = Fraction
C4 = thresholds_on(4)                     # c_j(x) = 1 iff x < j, j = 0..4
S = ((0, 1), (2, 0), (1, 1), (3, 0), (2, 1))
E1 = log(rational(F(3, 2))) * 2           # e^{eps1/2} = 3/2
E2 = log(rational(F(5, 4))) * 2           # e^{eps2/2} = 5/4


def names(hs: tuple[object, ...]) -> list[str]:
    return [h.name for h in hs]  # type: ignore[attr-defined]


def test_candidates_are_the_canonical_patterns() -> None:
    # on the points {0, 2}: c_0 = (0,0), c_1 = (1,0) (c_2 repeats it), c_3 = (1,1) (c_4 repeats)
    assert names(ra.candidates(C4, (0, 2))) == ["c_0", "c_1", "c_3"]


def test_matching_by_hand() -> None:
    # I = {0, 1} (points 0, 2), changed 0, j = 2 (point 1): J's points {2, 1} give c_0, c_2, c_3;
    # h2 is matched with h1 when they agree on point 2 (the point of index 1):
    # c_0(2) = c_1(2) = 0 = c_0(2) = c_2(2), c_3(2) = 1 = c_3(2).
    pairs = ra.matching(C4, S, (0, 1), 0, 2)
    assert [(h.name, names(m)) for h, m in pairs] == [
        ("c_0", ["c_0", "c_2"]), ("c_1", ["c_0", "c_2"]), ("c_3", ["c_3"])]


def test_matched_and_net_radius_by_hand() -> None:
    # j = 2: c_0 ~ c_2 disagree on points 0 and 1, i.e. indices 0 and 2 -> 2; every other
    # matched pair (all j) disagrees on at most one index, so k(I) = 2.
    assert ra.matched_radius(C4, S, (0, 1), 0) == 2
    # concepts agreeing on point 2: {c_0, c_1, c_2} (c_0 vs c_2: indices 0, 2) and {c_3, c_4}
    assert ra.net_radius(C4, S, (1,)) == 2
    # without index 0 only index 2 separates c_0 from c_2: the T1 off-by-one is attained here
    assert ra.net_radius(C4, S, (1,), over=(1, 2, 3, 4)) == 1
    assert ra.disagreements(C4[0], C4[4], S) == 5


def test_partition_by_hand() -> None:
    part = ra.subset_partition(C4, S, 2, 1)
    assert part.total == 10 and len(part.t0) == 6
    assert dict(part.radii) == {(0, 1): 2, (0, 2): 3, (0, 3): 4, (0, 4): 2}
    assert part.t1 == ((0, 1), (0, 2), (0, 3), (0, 4)) and part.t2 == ()
    assert part.t1_fraction == F(2, 5)
    assert ra.subset_partition(C4, S, 2, 2).t1 == ((0, 2), (0, 3))


def test_averaged_law_is_the_core_predictor_law() -> None:
    core = relabel_core_predictor(C4, 5, 2, E1, 2, E2)
    for x in C4.domain:
        assert ra.averaged_law(C4, S, 2, x, E1, 2, E2).prob(1) == core.law(S, x).prob(1)


def test_subset_law_single_concept_by_hand() -> None:
    # one concept (all 0): h is forced, S_h is all 0, both B4 blocks vote 0, so with r = 2
    # P(1) = r^0/(r^0 + r^2) = 1/5, whatever S' and S are.
    zero = explicit((0, 1), [(0, 0)], name="zero")
    law = ra.subset_law(zero, ((0, 1), (1, 1), (0, 0)), (1,), 0, E1, 2, log(rational(2)) * 2)
    assert law.prob(1) == F(1, 5) and law.prob(0) == F(4, 5)


def test_refined_epsilon_exact() -> None:
    # e^{eps(0)} = (3/2 · 5/4)^2 · (1 + 4·2/3) = 225/64 · 11/3
    value = ra.refined_epsilon(5, 2, E1, E2, 0)
    assert exp(value).exact == F(225, 64) * F(11, 3)
    claim = ra.refined_core_claim(C4, S, 2, E1, E2, 3)
    assert claim.delta == F(1, 10)          # only I = {0, 3} has k(I) = 4 > 3


def test_stated_claim_and_flip() -> None:
    claim = ra.stated_core_claim(10, 2, F(1, 4), F(1, 4), F(1, 2))
    assert claim.delta == F(1, 10)
    assert float(claim.epsilon) == pytest.approx(0.5 + 8 * 2.718281828459045 ** 2 * 2 / 10)
    flipped = ra.flip_approximate_privacy(PrivatePrediction(log(rational(2)), F(1, 10)), F(1, 4))
    assert exp(flipped.epsilon).exact == F(11, 5)     # 2 + (1/2)(1/10)/(1/4)
    assert flipped.delta == 0


@pytest.mark.parametrize(("call", "name"), [
    (lambda: ra.matching(C4, S, (0, 1), 0, 1), "j="),
    (lambda: ra.matching(C4, S, (1, 2), 0, 3), "index="),
    (lambda: ra.matching("C", S, (0, 1), 0, 2), "C="),             # type: ignore[arg-type]
    (lambda: ra.matched_radius(C4, ((0, 2),), (0,), 0), "data[0]"),
    (lambda: ra.matched_radius(C4, S, (0, 9), 0), "index entry"),
    (lambda: ra.net_radius(C4, S, (0, 0)), "index="),
    (lambda: ra.net_radius(C4, S, (0,), over=(7,)), "over entry"),
    (lambda: ra.subset_partition(C4, S, 6, 1), "m="),
    (lambda: ra.subset_partition(C4, S, 2, -1), "k="),
    (lambda: ra.subset_partition(C4, S, 2, 1, changed=5), "changed="),
    (lambda: ra.subset_law(C4, S, (0,), 0, E1, 6, E2), "blocks="),
    (lambda: ra.subset_law(C4, S, (9,), 0, E1, 2, E2), "points[0]"),
    (lambda: ra.subset_law(C4, S, (0,), 9, E1, 2, E2), "x="),
    (lambda: ra.refined_epsilon(5, 5, E1, E2, 0), "m="),
    (lambda: ra.stated_core_claim(10, 6, 0, 0, 0), "m="),
    (lambda: ra.stated_core_claim(10, 2, 0, 0, 2), "delta"),
    (lambda: ra.flip_approximate_privacy(PrivatePrediction(rational(1)), F(3, 4)), "flip="),
    (lambda: ra.flip_approximate_privacy("claim", F(1, 4)), "claim="),  # type: ignore[arg-type]
])
def test_bad_input_names_the_argument(call: object, name: str) -> None:
    with pytest.raises(InvalidArgument, match=name.replace("[", r"\[").replace("]", r"\]")):
        call()  # type: ignore[operator]
