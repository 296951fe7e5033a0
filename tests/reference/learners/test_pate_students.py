"""001's students over a finite class: the ERM student (Remark 16) and Algorithm 4, exactly.

Thresholds c_j(x) = 1 iff x < j on {0, 1, 2, 3}, in the order c_0 ≡ 0, c_1, ..., c_4 ≡ 1.
The expected runs below are traced by hand from the steps of 001 Algorithm 4.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.reference.concepts import Concept, intervals, thresholds_on
from privref.reference.data import BOTTOM, Bottom
from privref.reference.errors import InvalidArgument
from privref.reference.learners.pate_students import (
    ActiveRun,
    disagreement_active_learner,
    disagreement_region,
    erm_student,
    gamma_j,
    is_power_of_two,
)

C4 = thresholds_on(4)
TARGET = C4[2]  # labels 1, 1, 0, 0


def _zero(j: int, g: Fraction) -> Fraction:
    return Fraction(0)


def test_erm_student_ties_and_bottom_by_hand() -> None:
    points = [0, 1, 2, 3]
    labels: list[int | Bottom] = [1, BOTTOM, 0, 1]
    # ⊥ dropped: mistakes c_0..c_4 = 2, 1, 1, 2, 1 -> first minimizer c_1
    assert erm_student(C4, points, labels) == C4[1]
    # ⊥ read as 1: 3, 2, 1, 2, 1 -> c_2;  read as 0: 2, 1, 2, 3, 2 -> c_1
    assert erm_student(C4, points, labels, fill=1) == C4[2]
    assert erm_student(C4, points, labels, fill=0) == C4[1]
    assert erm_student(C4, [0], [BOTTOM]) == C4[0]  # nothing left: the first concept
    with pytest.raises(InvalidArgument, match="fill"):
        erm_student(C4, points, labels, fill=2)
    with pytest.raises(InvalidArgument, match=r"pseudo_labels\[0\]"):
        erm_student(C4, [0], [2])
    with pytest.raises(InvalidArgument, match="pseudo_labels has 1"):
        erm_student(C4, [0, 1], [1])


def test_disagreement_region_by_hand() -> None:
    assert disagreement_region([C4[1], C4[2], C4[3]], range(4)) == (1, 2)
    assert disagreement_region(C4.concepts, range(4)) == (0, 1, 2, 3)
    assert disagreement_region([C4[2]], range(4)) == ()
    assert disagreement_region([], range(4)) == ()


@given(st.sets(st.integers(0, 10)), st.sets(st.integers(0, 10)))
def test_disagreement_region_is_monotone(a: set[int], b: set[int]) -> None:
    C = intervals(4)
    V = [C[i] for i in sorted(a)]
    W = [C[i] for i in sorted(a | b)]
    assert set(disagreement_region(V, range(4))) <= set(disagreement_region(W, range(4)))


def test_gamma_j_is_exact_at_powers_of_two() -> None:
    g = Fraction(1, 10)
    assert [gamma_j(g, j) for j in (1, 2, 4, 8)] == [g, g / 4, g / 9, g / 16]
    assert [j for j in range(1, 20) if is_power_of_two(j)] == [1, 2, 4, 8, 16]
    with pytest.raises(InvalidArgument, match="j=3"):
        gamma_j(g, 3)


STREAM = (3, 0, 3, 0, 2, 1, 1, 1)


def _run(budget: int, U: Callable[[int, Fraction], object] = _zero) -> ActiveRun:
    return disagreement_active_learner(C4, STREAM, TARGET, budget=budget, U=U)


def test_algorithm_4_run_by_hand() -> None:
    # j=1 x=3 in DIS(H): ask (0); V <- {c_0..c_3}.  j=2 x=0 in DIS: ask (1); V <- {c_1,c_2,c_3}.
    # j=3 x=3, j=4 x=0: every c in V agrees there, no label; V unchanged at j=4.
    # j=5 x=2, j=6..8 x=1: in DIS({c_1,c_2,c_3}), asked (no update between 4 and 8).
    # j=8: mistakes c_1: 3, c_2: 0, c_3: 1 -> V = {c_2}.
    run = _run(budget=10)
    assert [(q.j, q.x, q.y) for q in run.queries] == [(1, 3, 0), (2, 0, 1), (5, 2, 0), (6, 1, 1),
                                                      (7, 1, 1), (8, 1, 1)]
    assert run.version_space == (C4[2],) and run.output == C4[2]
    assert run.processed == 8 and run.labels_used == 6


def test_algorithm_4_budget_stops_at_the_last_label() -> None:
    run = _run(budget=4)  # the 4th label is asked at j = 6 (not a power of two: no update)
    assert run.labels_used == 4 and run.processed == 6
    assert run.version_space == (C4[1], C4[2], C4[3]) and run.output == C4[1]


def test_algorithm_4_radius_and_gamma_j() -> None:
    seen: list[tuple[int, Fraction]] = []

    def U(j: int, g: Fraction) -> Fraction:
        seen.append((j, g))
        return Fraction(1, 8)  # U·j = 1/8, 1/4, 1/2 < 1 until j = 8, where it is 1

    run = disagreement_active_learner(C4, STREAM, TARGET, budget=10, U=U, gamma=Fraction(1, 2))
    assert seen == [(1, Fraction(1, 2)), (2, Fraction(1, 8)), (4, Fraction(1, 18)), (8, Fraction(1, 32))]
    assert run.version_space == (C4[2], C4[3])  # c_3's 1 mistake is within U·j = 1
    # a radius U = 1 keeps all of H (mistakes <= |Q| <= j): every point of DIS(H) is asked
    wide = _run(budget=10, U=lambda j, g: 1)
    assert wide.labels_used == 8 and wide.output == C4[0] and wide.version_space == C4.concepts


@given(target=st.integers(0, 6), stream=st.lists(st.integers(0, 5), min_size=8, max_size=8),
       budget=st.integers(1, 9))
def test_algorithm_4_realizable_with_zero_radius(target: int, stream: list[int], budget: int) -> None:
    C = thresholds_on(6)
    h = C[target]
    asked: list[int] = []

    def label(x: object) -> int:
        asked.append(x)  # type: ignore[arg-type]
        return h(x)

    run = disagreement_active_learner(C, stream, label, budget=budget, U=_zero)
    assert run.labels_used == len(asked) <= budget
    assert h in run.version_space  # the target is never eliminated (it makes no mistake)
    # replay: a label was asked exactly at the stream points inside DIS of the V of that time
    V: tuple[Concept, ...] = C.concepts
    expected = []
    for j, x in enumerate(stream[: run.processed], start=1):
        if disagreement_region(V, [x]):
            expected.append(x)
        if is_power_of_two(j):
            V = tuple(c for c in V if all(c(q.x) == q.y for q in run.queries if q.j <= j))
    assert asked == expected
    if budget >= 8:  # m = 8 = 2^3 points, all read, final update: output right on every point read
        assert all(run.output(x) == h(x) for x in stream)


def test_algorithm_4_refuses_bad_input() -> None:
    with pytest.raises(InvalidArgument, match="budget=0"):
        _run(budget=0)
    with pytest.raises(InvalidArgument, match="gamma"):
        disagreement_active_learner(C4, STREAM, TARGET, budget=1, U=_zero, gamma=1)
    with pytest.raises(InvalidArgument, match=r"U\(1, gamma_j\)=-1"):
        _run(budget=3, U=lambda j, g: -1)
    with pytest.raises(InvalidArgument, match=r"label\(3\)=2"):
        disagreement_active_learner(C4, STREAM, lambda x: 2, budget=3, U=_zero)
    with pytest.raises(InvalidArgument, match=r"stream\[1\]=9"):
        disagreement_active_learner(C4, [0, 9], TARGET, budget=3, U=_zero)
