"""reference.learners.disagreement: Dis, DIS mass, balls and the exact disagreement coefficient."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.reference.concepts import explicit, thresholds_on
from privref.reference.errors import InvalidArgument
from privref.reference.learners.disagreement import (
    ball,
    check_marginal,
    dis,
    dis_mass,
    disagreement_coefficient,
    distance_breakpoints,
)

F = Fraction


def test_dis_and_ball_by_hand() -> None:
    """Thresholds on 4 points, uniform: Dis(c_s, c_t) = |s − t|/4; B(c_2, 1/4) = {c_1, c_2, c_3}."""
    C = thresholds_on(4)
    w = (F(1, 4),) * 4
    assert dis(C[0], C[3], w) == F(3, 4) and dis(C[2], C[2], w) == 0
    assert ball(C, C[2], F(1, 4), w) == (C[1], C[2], C[3])
    assert distance_breakpoints(C, C[2], w) == (F(0), F(1, 4), F(1, 2))
    assert dis_mass(ball(C, C[2], F(1, 4), w), C.domain.points, w) == F(1, 2)


def test_theta_thresholds_by_hand() -> None:
    """N = 4, h* = c_1 (m = 1): distances 1/4 (c_0, c_2), 1/2 (c_3), 3/4 (c_4); the pieces give
    masses 2/4 on [1/4, 1/2), 3/4 on [1/2, 3/4) and 1 on [3/4, ∞).  θ(0) = θ(1/4) = 2;
    θ(3/8) = max((2/4)/(3/8), (3/4)/(1/2), 1/(3/4)) = 3/2 = θ(1/2); θ(3/4) = 4/3; θ(1) = 1."""
    C = thresholds_on(4)
    w = (F(1, 4),) * 4
    assert disagreement_coefficient(C, C[1], w, 0) == 2
    assert disagreement_coefficient(C, C[1], w, F(1, 4)) == 2
    assert disagreement_coefficient(C, C[1], w, F(3, 8)) == F(3, 2)
    assert disagreement_coefficient(C, C[1], w, F(1, 2)) == F(3, 2)
    assert disagreement_coefficient(C, C[1], w, F(3, 4)) == F(4, 3)
    assert disagreement_coefficient(C, C[1], w, 1) == 1


def test_theta_matches_a_brute_force_supremum() -> None:
    """Against max over a fine grid r = k/64 > r0 (a lower bound of the sup that meets it at
    breakpoints, which lie on the grid for dyadic weights)."""
    C = explicit(range(3), [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 1), (1, 1, 1)], name="five")
    w = (F(1, 2), F(1, 4), F(1, 4))
    for h in C:
        for k0 in range(0, 65, 4):
            r0 = F(k0, 64)
            grid = [F(k, 64) for k in range(k0 + 1, 129)]
            brute = max([F(1)] + [dis_mass(ball(C, h, r, w), C.domain.points, w) / r
                                  for r in grid])
            exact = disagreement_coefficient(C, h, w, r0)
            assert brute <= exact
            if any(d > r0 for d in distance_breakpoints(C, h, w)):
                assert brute == exact or exact == dis_mass(
                    ball(C, h, r0, w), C.domain.points, w) / r0


def test_zero_weight_points_do_not_count() -> None:
    C = thresholds_on(3)
    w = (F(0), F(1, 2), F(1, 2))
    assert disagreement_coefficient(C, C[0], w, 0) == 1  # c_0, c_1 differ only at a null point


def test_invalid_arguments() -> None:
    C = thresholds_on(3)
    with pytest.raises(InvalidArgument, match="weights"):
        check_marginal(C, (F(1, 2), F(1, 2)))
    with pytest.raises(InvalidArgument, match="weights"):
        check_marginal(C, (F(1, 2), F(1, 2), F(1, 2)))
    with pytest.raises(InvalidArgument, match="r0"):
        disagreement_coefficient(C, C[0], (F(1, 3),) * 3, -1)
    other = thresholds_on(4)
    with pytest.raises(InvalidArgument, match="h_star"):
        distance_breakpoints(C, other[0], (F(1, 3),) * 3)
