"""The data-independent size schedule of 000 Algorithm 3 / 004 Algorithm 4 (reference.learners.schedule)."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.reference.errors import InvalidArgument
from privref.reference.learners.schedule import (
    PAPER_000,
    PAPER_004,
    LabelBoostConstants,
    Outcome,
    floor_real,
    size_schedule,
    step_2b_size,
)
from privref.reference.reals import exp, log, rational

F = Fraction
TINY = replace(PAPER_000, alpha_divisor=F(1, 2), beta_divisor=F(1, 8), exponent_divisor=F(7, 8),
               keep_iteration=F(1, 2), keep_final=F(1, 3), stop_factor=3, cap_factor=6,
               unlabeled_factor=18)
SCALED = replace(PAPER_000, alpha_divisor=F(1), beta_divisor=F(1), exponent_divisor=F(1),
                 keep_iteration=F(1, 2), keep_final=F(1, 3), stop_factor=3, cap_factor=6,
                 unlabeled_factor=18)


def m004(alpha: Fraction, beta: Fraction, vc: int) -> int:
    x = rational(F(576000) / alpha * vc) * log(F(768) / (alpha * beta))
    return math.ceil(x.enclose(96).hi)


def test_paper_constants_are_the_printed_ones() -> None:
    a, b = F(1, 2), F(1, 3)
    assert PAPER_000.alpha_i(a, 1) == a / 20 and PAPER_004.alpha_i(a, 1) == a / 48
    assert PAPER_000.beta_i(b, 2) == PAPER_004.beta_i(b, 2) == b / 16
    for c in (PAPER_000, PAPER_004):
        assert (c.stop_factor, c.unlabeled_factor, c.cap_factor) == (300, 90000, 30000)
        assert (c.keep_iteration, c.keep_final, c.exponent_divisor) == (F(1, 100), F(1, 300), F(200))
        assert c.is_paper
    assert (PAPER_000.v_over_e, PAPER_000.v_s_coefficient) == (False, F(1))
    assert (PAPER_004.v_over_e, PAPER_004.v_s_coefficient) == (True, F(100))
    assert not TINY.is_paper


def test_tiny_schedule_exact_values() -> None:
    """v = ⌊2·e^{8/7} − 2⌋ = 4; kept ⌊2/2⌋ = 1 and ⌊4/2⌋ = 2; |S| = 3 = stop·n; Step 3 keeps 1."""
    s = size_schedule(TINY, F(1, 2), F(1, 2), 1, 2, 1, unlabeled=4)
    assert s.outcome is Outcome.OK and s.n_iterations == 1
    it = s.iterations[0]
    assert (it.s_before, it.t_before, it.capped, it.s_kept, it.t_kept, it.d_after) == \
        (2, 4, False, 1, 2, 0)
    assert (it.alpha, it.beta) == (F(1, 2), F(2))
    assert (s.s_loop, s.s_final, s.draws("printed"), s.draws("n")) == (3, 1, 1, 1)
    assert s.database_sizes() == (6, 3)
    # the floor is decided exactly: 2e^{8/7} − 2 ∈ (4, 5)
    y = rational(2) * exp(F(8, 7)) - 2
    assert floor_real(y) == 4


def test_paper_schedule_runs_once_and_caps() -> None:
    """With m at 004's threshold, n = 10^5: one capped iteration (004-E23); |S_1| = ⌊m/100⌋."""
    a = b = F(1, 2)
    m = m004(a, b, 1)
    s = size_schedule(PAPER_004, a, b, 10**5, m, 1)
    assert s.outcome is Outcome.OK and s.n_iterations == 1
    it = s.iterations[0]
    assert it.capped and it.t_before == 30000 * 10**5
    assert it.s_kept == m // 100 and it.t_kept == 300 * 10**5
    assert s.s_final == (it.s_kept + it.t_kept) // 300 >= 10**5
    assert s.unlabeled_used <= 90000 * 10**5


def test_paper_loop_needs_astronomical_n_for_two_iterations() -> None:
    """N = 2 first appears between n = 10^80 and 10^100 (000) resp. 10^200 and 10^500 (004), and
    sizes stay exact big integers (no float overflow)."""
    a = b = F(1, 2)
    m000 = math.ceil((rational(F(96000) / a) * log(F(2240) / (a * b))).enclose(96).hi)
    assert size_schedule(PAPER_000, a, b, 10**80, m000, 1).n_iterations == 1
    two = size_schedule(PAPER_000, a, b, 10**100, m000, 1)
    assert two.n_iterations == 2 and not two.iterations[0].capped and two.iterations[1].capped
    assert size_schedule(PAPER_004, a, b, 10**200, m004(a, b, 1), 1).n_iterations == 1
    assert size_schedule(PAPER_004, a, b, 10**500, m004(a, b, 1), 1).n_iterations == 2


def test_no_iteration_when_m_is_large_and_stall_detection() -> None:
    s = size_schedule(PAPER_004, F(1, 2), F(1, 2), 10, 3000, 1)
    assert s.n_iterations == 0 and s.s_final == 10 and s.s_loop == 3000
    stall = size_schedule(SCALED, F(9, 10), F(9, 10), 10**6, 4, 1)
    assert stall.outcome is Outcome.STALLS and stall.s_final == 0
    with pytest.raises(InvalidArgument, match="mode='x'"):
        s.draws("x")  # type: ignore[arg-type]


def test_fails_when_d_is_too_small() -> None:
    s = size_schedule(TINY, F(1, 2), F(1, 2), 1, 2, 1, unlabeled=3)
    assert s.outcome is Outcome.FAILS and s.n_iterations == 0


@st.composite
def schedule_args(draw: st.DrawFn) -> tuple[LabelBoostConstants, Fraction, Fraction, int, int,
                                            int]:
    c = draw(st.sampled_from((PAPER_000, PAPER_004, TINY, SCALED,
                              replace(SCALED, version="004", v_over_e=True,
                                      v_s_coefficient=F(2)))))
    a = draw(st.fractions(F(1, 100), F(99, 100), max_denominator=100))
    b = draw(st.fractions(F(1, 100), F(99, 100), max_denominator=100))
    n = draw(st.integers(1, 10**6))
    m = draw(st.integers(0, 2000))
    vc = draw(st.integers(1, 8))
    return c, a, b, n, m, vc


@given(schedule_args())
def test_rounding_rule_and_invariants(args: tuple[LabelBoostConstants, Fraction, Fraction, int,
                                                  int, int]) -> None:
    """Kept counts are ⌊keep·size⌋, 0 <= v <= cap·n (v = cap·n iff capped), D never goes
    negative, |S| follows the merges, and Step 3 keeps ⌊keep_final·|S|⌋."""
    c, a, b, n, m, vc = args
    s = size_schedule(c, a, b, n, m, vc)
    d, size = s.unlabeled, m
    for it in s.iterations:
        assert it.s_before == size
        assert 0 <= it.t_before <= c.cap_factor * n
        assert it.capped == (it.t_before == c.cap_factor * n)
        assert it.s_kept == math.floor(c.keep_iteration * it.s_before)
        assert it.t_kept == math.floor(c.keep_iteration * it.t_before)
        d -= it.t_before
        assert it.d_after == d >= 0
        size = it.s_after
    if s.outcome is Outcome.OK:
        assert size >= c.stop_factor * n and s.s_loop == size
        assert s.s_final == math.floor(c.keep_final * size)


@given(schedule_args())
def test_schedule_is_a_pure_function_of_its_parameters(
        args: tuple[LabelBoostConstants, Fraction, Fraction, int, int, int]) -> None:
    """Data-independence by construction: the schedule takes no data and is deterministic."""
    assert size_schedule(*args) == size_schedule(*args)


def test_step_2b_cap_is_decided_in_log_space_for_huge_exponents() -> None:
    """|S| = 10^30 makes e^{α|S|/(200VC)} astronomically large: capped without evaluating it."""
    v, capped = step_2b_size(PAPER_004, F(1, 48), F(1, 8), 10**30, 7, 1)
    assert capped and v == 30000 * 7


def test_bad_arguments_raise_named_errors() -> None:
    with pytest.raises(InvalidArgument, match=r"alpha=inf must be a finite number"):
        size_schedule(PAPER_000, float("inf"), F(1, 2), 1, 1, 1)
    assert size_schedule(PAPER_000, 0.5, F(1, 4), 1, 1, 1) == size_schedule(
        PAPER_000, F(1, 2), F(1, 4), 1, 1, 1)  # a float is its exact binary value
    with pytest.raises(InvalidArgument, match="beta=1 must lie in"):
        size_schedule(PAPER_000, F(1, 2), 1, 1, 1, 1)
    with pytest.raises(InvalidArgument, match="n=0 must be >= 1"):
        size_schedule(PAPER_000, F(1, 2), F(1, 2), 0, 1, 1)
    with pytest.raises(InvalidArgument, match="vc=0 must be >= 1"):
        size_schedule(PAPER_000, F(1, 2), F(1, 2), 1, 1, 0)
    with pytest.raises(InvalidArgument, match="m=-1 must be >= 0"):
        size_schedule(PAPER_000, F(1, 2), F(1, 2), 1, -1, 1)
    with pytest.raises(InvalidArgument, match="constants="):
        size_schedule("000", F(1, 2), F(1, 2), 1, 1, 1)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="keep_iteration=2 must lie in"):
        replace(PAPER_000, keep_iteration=F(2))
    with pytest.raises(InvalidArgument, match=r"keep_final=0.5 must be an exact rational"):
        replace(PAPER_000, keep_final=0.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="exponent_divisor=0 must be > 0"):
        replace(PAPER_000, exponent_divisor=F(0))
    with pytest.raises(InvalidArgument, match="stop_factor=0 must be >= 1"):
        replace(PAPER_000, stop_factor=0)
    with pytest.raises(InvalidArgument, match="version='005'"):
        replace(PAPER_000, version="005")  # type: ignore[arg-type]
