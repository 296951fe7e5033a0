"""Ledger: the size schedule of 004 IterLabelBoost (Algorithm 4): Claims C.5–C.7 and Corollary C.8
(per-iteration error and the size schedule), with their proof steps.

Also the scaled constants and the grid of floored schedules (:func:`schedule_grid`) that these
checks and those of :mod:`privref.proofs.p004.iterlabelboost` and
:mod:`privref.proofs.p000.labelboost` run on.
Verdicts are exact (rationals or interval enclosures, decided by :mod:`privref.reference.decide`;
numbers are shown by :mod:`privref.proofs.numbers_text`); constants are parameters of the checks so
a mutated constant can be shown to flip the verdict.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator
from dataclasses import replace
from fractions import Fraction
from functools import cache, partial
from typing import Final

from privref.reference.concepts import Concept, ConceptClass, thresholds_on
from privref.reference.decide import at_least, at_most, ceil, greater_than, proved_le
from privref.reference.exponential import exponential_weights
from privref.reference.learners.labelboost import labelboost_hypotheses
from privref.reference.learners.schedule import (
    PAPER_000,
    PAPER_004,
    LabelBoostConstants,
    Outcome,
    Schedule,
    size_schedule,
)
from privref.reference.program import categorical_choice
from privref.reference.reals import (
    Interval,
    exp,
    interval_exp,
    interval_log,
    log,
    prob_as_interval,
    rational,
)

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import decimal

__all__ = [
    "C7_RHS_LOG_SHIFT",
    "EM_TAIL_SCALE",
    "ENTRIES",
    "FLOOR_SLACK",
    "LOG_STAR_EXTRA",
    "PROOF_SCALED_000",
    "PROOF_SCALED_004",
    "SCALED_000",
    "SCALED_004",
    "UNLABELED_SCALE",
    "check_c7_base_identity",
    "check_c7_chain",
    "check_c7_corrected_equality",
    "check_c7_lower_bounds",
    "check_c7_printed_equality",
    "check_em_tail",
    "check_iterations_vs_log_star",
    "check_never_fails",
    "check_sauer_side",
    "compositions",
    "describe_schedule",
    "em_tail",
    "em_tail_upper",
    "log_star",
    "m_threshold_000",
    "m_threshold_004",
    "schedule_grid",
]

_PREC: Final = 96
"""Working precision (bits) of the enclosures here (that of :mod:`privref.proofs.p004.labelboost`)."""

EM_TAIL_SCALE = Fraction(1)
"""The implicit leading 1 of 004 Claim C.5's bound: Pr[error_(S_i)(h_i) > α_i] <= 1·β_i."""

UNLABELED_SCALE = Fraction(1)
"""004 Claim C.6's |D| >= 90000n, as a multiple of each constant set's unlabeled_factor (1: as printed)."""

FLOOR_SLACK = 1
"""004 Claim C.7 at i = 1 holds only up to the floor of |S_1| = ⌊m/100⌋: |S_1| > RHS_1 − 1."""

C7_RHS_LOG_SHIFT = Fraction(0)
"""ln of the factor on 004 Claim C.7's RHS_i in the corrected chain (0: RHS_i as printed)."""

LOG_STAR_EXTRA = 0
"""The additive slack of the 004 Corollary C.8 illustration: N(n) <= log* n + 0."""

# ----------------------------------------------------------------- scaled constants and the grid

SCALED_000: Final = replace(PAPER_000, alpha_divisor=Fraction(1), beta_divisor=Fraction(1),
                            exponent_divisor=Fraction(1), keep_iteration=Fraction(1, 2),
                            keep_final=Fraction(1, 3), stop_factor=3, cap_factor=6,
                            unlabeled_factor=18)
"""000 constants scaled so that the loop iterates up to 4–5 times at moderate n.

The paper's ratios are kept: cap/stop = 1/keep_iteration (one capped
iteration ends the loop), |D| = 3·cap (000 Claim 4.8's 90000 = 3·30000),
stop·keep_final = 1 (Step 3 keeps >= n)."""

SCALED_004: Final = replace(PAPER_004, alpha_divisor=Fraction(1), beta_divisor=Fraction(1),
                            exponent_divisor=Fraction(1), v_s_coefficient=Fraction(2),
                            keep_iteration=Fraction(1, 2), keep_final=Fraction(1, 3),
                            stop_factor=3, cap_factor=6, unlabeled_factor=18)
"""004 constants scaled as :data:`SCALED_000` (the −100|S| of Step 2b becomes −(1/keep)|S|)."""

PROOF_SCALED_000: Final = replace(PAPER_000, alpha_divisor=Fraction(1), beta_divisor=Fraction(1),
                                  exponent_divisor=Fraction(10), keep_iteration=Fraction(1, 5),
                                  keep_final=Fraction(1, 5), stop_factor=5, cap_factor=25,
                                  unlabeled_factor=75)
"""Scaled constants that keep the structure of the proofs of 000 Observation 4.7 / 004 Claim C.5:
keep·exponent_divisor = 2 (the paper's (1/100)·200) and keep <= 1/e·e^{-1/4} (000's use of
Claim 4.2 needs keep <= 1/e up to the floor)."""

PROOF_SCALED_004: Final = replace(PROOF_SCALED_000, version="004", v_over_e=True,
                                  v_s_coefficient=Fraction(5))
"""The 004 form of :data:`PROOF_SCALED_000` (β_i/e and −(1/keep)|S| in Step 2b)."""


def m_threshold_000(alpha: Fraction, beta: Fraction, vc: int) -> int:
    """⌈(96000/α)·VC·ln(2240/(αβ))⌉: the labeled size required by 000 Claims 4.9, 4.11."""
    return ceil(rational(Fraction(96000) / alpha * vc) * log(Fraction(2240) / (alpha * beta)))


def m_threshold_004(alpha: Fraction, beta: Fraction, vc: int) -> int:
    """⌈(576000/α)·VC·ln(768/(αβ))⌉: the labeled size required by 004 Claims C.7, C.9."""
    return ceil(rational(Fraction(576000) / alpha * vc) * log(Fraction(768) / (alpha * beta)))


_GRID_AB: Final = ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 10), Fraction(1, 100)),
                   (Fraction(1, 1000), Fraction(1, 10)), (Fraction(9, 10), Fraction(9, 10)))


@cache
def schedule_grid() -> tuple[Schedule, ...]:
    """Schedules over paper and scaled constants, several (α, β), VC, n (up to 10^500) and m.

    Paper constants use m at and above the papers' thresholds and m = 0, 1;
    scaled constants use m from 0 to 10^4, so that N ranges over 0..5 and some
    schedules stall (|S| never reaches stop·n).
    """
    out: list[Schedule] = []
    for c in (PAPER_000, PAPER_004):
        thr = m_threshold_000 if c.version == "000" else m_threshold_004
        for a, b in _GRID_AB:
            for vc in (1, 3, 10):
                t = thr(a, b, vc)
                for k in (0, 3, 12, 100, 500):
                    for m in (0, 1, t, 2 * t):
                        out.append(size_schedule(c, a, b, 10**k, m, vc))
    for c in (SCALED_000, SCALED_004, PROOF_SCALED_000, PROOF_SCALED_004):
        for a, b in _GRID_AB:
            for vc in (1, 2, 5):
                for k in (0, 2, 6, 30, 100):
                    for m in (0, 10, 30, 100, 1000):
                        out.append(size_schedule(c, a, b, 10**k, m, vc))
    return tuple(out)


def describe_schedule(s: Schedule) -> str:
    """A short label of a schedule's parameters for evidence strings (n shown as 10^k when large)."""
    return (f"{s.constants.version}{'' if s.constants.is_paper else '(scaled)'} α={s.alpha} "
            f"β={s.beta} VC={s.vc} n={'10^' + str(len(str(s.n)) - 1) if s.n >= 1000 else s.n} "
            f"m={s.m}")


# ----------------------------------------------------------------- Claim C.5 / Observation 4.7


def _scores(C: ConceptClass, points: tuple[Hashable, ...], counts: dict[Hashable, int],
            target: Concept) -> tuple[tuple[Concept, ...], list[int]]:
    hyps = labelboost_hypotheses(C, tuple((x, 0) for x in points), ())
    return hyps, [sum(k for x, k in counts.items() if h(x) == target(x)) for h in hyps]


def em_tail(C: ConceptClass, points: tuple[Hashable, ...], counts: dict[Hashable, int],
            target: Concept, alpha: Fraction) -> Interval:
    """Pr[error_S(h) > α] for the EM (ε = 1) over H = reps of Π_C(points), S = ``counts`` of points
    labeled by ``target``: a rigorous enclosure of the exact probability."""
    _, scores = _scores(C, points, counts, target)
    size = sum(counts.values())
    shares = categorical_choice(exponential_weights(scores, epsilon=rational(1))).branches(_PREC)
    tail = Interval.point(0)
    for index, p in shares:
        if Fraction(size - scores[index], size) > alpha:
            tail = tail + prob_as_interval(p)
    return tail


def em_tail_upper(C: ConceptClass, points: tuple[Hashable, ...], counts: dict[Hashable, int],
                  target: Concept, alpha: Fraction) -> Fraction:
    """A proved upper bound on :func:`em_tail`: Σ_{bad h} e^{(q_h − q_max)/2} (the normalizer is
    >= the top weight 1).  Cheap for huge |S|, where the exact shares need huge rationals."""
    _, scores = _scores(C, points, counts, target)
    size, top = sum(counts.values()), max(scores)
    upper = Interval.point(0)
    for q in scores:
        if Fraction(size - q, size) > alpha:
            upper = upper + interval_exp(Interval.point(Fraction(q - top, 2)), 64)
    return upper.hi


def compositions(points: tuple[Hashable, ...], size: int) -> Iterator[dict[Hashable, int]]:
    """Three histograms of ``size`` entries over ``points``: balanced, all on one point, and one
    seeded by ``size`` (deterministic)."""
    k = len(points)
    yield {x: size // k + (1 if i < size % k else 0) for i, x in enumerate(points)}
    yield {points[0]: size}
    rng = random.Random(size)
    cuts = sorted(rng.randint(0, size) for _ in range(k - 1))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, size], strict=True)]
    yield dict(zip(points, parts, strict=True))


def check_em_tail(constants: LabelBoostConstants, max_size: int = 200_000) -> CheckResult:
    """EM tail per iteration: Pr[error_{S_i}(h_i) > α_i] <= β_i (004 Claim C.5 / 000 Obs 4.7), proved
    by a rigorous upper bound (or the exact enclosure when the bound is not enough).

    For every OK schedule of :func:`schedule_grid` with these constants and
    |S_i| <= max_size: C = THRESH on 8 points, P = all 8 points (T covers the
    domain: the largest H), S_i labeled by each of 3 targets, with 3
    compositions of |S_i| over the points.  The EM is at ε = 1.
    """
    C = thresholds_on(8)
    points = C.domain.points
    iterations = worst = 0
    worst_ratio = Fraction(0)
    scale = EM_TAIL_SCALE
    for s in schedule_grid():
        if s.constants != constants or s.outcome is not Outcome.OK or s.vc != 1:
            continue
        for it in s.iterations:
            if not 0 < it.s_kept <= max_size:
                continue
            iterations += 1
            for target in (C[0], C[4], C[8]):
                for counts in compositions(points, it.s_kept):
                    upper = em_tail_upper(C, points, counts, target, it.alpha)
                    beta = scale * it.beta
                    tail = (Interval(Fraction(0), upper) if upper <= beta
                            else em_tail(C, points, counts, target, it.alpha))
                    worst += 1
                    verdict = at_most(tail, beta)
                    if verdict is Verdict.VIOLATED:
                        return CheckResult(verdict, f"tail {decimal(tail.lo)} > {scale}·β_i = "
                                           f"{beta} in iteration {it.index} of {describe_schedule(s)}",
                                           witness=f"{describe_schedule(s)}, i={it.index}, "
                                                   f"|S_i|={it.s_kept}, counts={counts}")
                    if verdict is Verdict.UNDECIDED:
                        return CheckResult(verdict, f"tail overlaps β_i at {counts}")
                    worst_ratio = max(worst_ratio, tail.hi / beta)
    if iterations == 0:
        return CheckResult(Verdict.UNDECIDED, "no iteration in range")
    return CheckResult(Verdict.HOLDS, f"{iterations} iterations ({worst} (target, S) cases) of "
                       f"{constants.version} schedules: tail <= β_i (proved), largest bound/β_i "
                       f"{decimal(worst_ratio)}")


def check_sauer_side(constants: LabelBoostConstants) -> CheckResult:
    """The Sauer side of 004 Claim C.5's proof on every iteration of the grid's OK schedules:
    VC·ln(e(|T_i|+|S_i|)/VC) <= ln β_i + α_i|S_i|/2 (i.e. (e(|T_i|+|S_i|)/VC)^VC <= β_i e^{α_i|S_i|/2}),
    in log space with intervals; also |S_i|+|T_i| >= VC (so Sauer's lemma applies)."""
    count = 0
    least: Fraction | None = None  # the least lower end of the gaps (display)
    for s in schedule_grid():
        if s.constants != constants or s.outcome is not Outcome.OK:
            continue
        for it in s.iterations:
            total = it.s_kept + it.t_kept
            if total < s.vc:
                return CheckResult(Verdict.VIOLATED, f"|S_i|+|T_i| = {total} < VC = {s.vc}",
                                   witness=f"{describe_schedule(s)}, i = {it.index}")
            lhs = (interval_log(Interval.point(Fraction(total, s.vc)), _PREC) + 1) * s.vc
            rhs = interval_log(Interval.point(it.beta), _PREC) + it.alpha * it.s_kept / 2
            gap = rhs - lhs
            count += 1
            verdict = at_least(gap, 0)
            if verdict is Verdict.VIOLATED:
                return CheckResult(verdict, f"Sauer side fails by {decimal(-gap.hi)} (log)",
                                   witness=f"{describe_schedule(s)}, i = {it.index}, |S_i| = "
                                           f"{it.s_kept}, |T_i| = {it.t_kept}")
            if verdict is Verdict.UNDECIDED:
                return CheckResult(verdict, f"overlap at {describe_schedule(s)}")
            least = gap.lo if least is None else min(least, gap.lo)
    if count == 0 or least is None:
        return CheckResult(Verdict.UNDECIDED, "no iteration")
    return CheckResult(Verdict.HOLDS, f"{count} iterations: ln(β_i e^(α_i|S_i|/2)) − "
                       f"VC·ln(e(|S_i|+|T_i|)/VC) >= {decimal(least)}")


# ----------------------------------------------------------------- Claims C.6 / 4.8


def check_never_fails() -> CheckResult:
    """000 Claim 4.8 / 004 Claim C.6 on every schedule of the grid: Step 2b never fails with
    |D| = unlabeled_factor·n (Σ_i |T_i^b| <= 90000n), and |T_i^b| >= 2|T_{i−1}^b| for 1 < i < N.

    |D| is ⌊UNLABELED_SCALE·unlabeled_factor·n⌋ (:data:`UNLABELED_SCALE`, 1 as printed).
    """
    count = multi = 0
    top = 0
    scale = UNLABELED_SCALE
    for s0 in schedule_grid():
        s = s0 if scale == 1 else size_schedule(
            s0.constants, s0.alpha, s0.beta, s0.n, s0.m, s0.vc,
            unlabeled=int(scale * s0.constants.unlabeled_factor * s0.n))
        count += 1
        if s.outcome is Outcome.FAILS:
            return CheckResult(Verdict.VIOLATED, f"Step 2b fails: {describe_schedule(s)}",
                               witness=describe_schedule(s))
        if s.unlabeled_used > s.unlabeled:
            return CheckResult(Verdict.VIOLATED, f"Σ|T_i^b| > |D|: {describe_schedule(s)}")
        if s.outcome is not Outcome.OK:
            continue
        ts = [it.t_before for it in s.iterations]
        top = max(top, len(ts))
        multi += len(ts) >= 3
        for i in range(1, len(ts) - 1):
            if ts[i] < 2 * ts[i - 1]:
                return CheckResult(Verdict.VIOLATED, f"doubling fails at i = {i + 1}: {ts}",
                                   witness=describe_schedule(s))
    return CheckResult(Verdict.HOLDS, f"{count} schedules never fail in Step 2b; doubling holds "
                       f"on all {multi} OK schedules with N >= 3 (max N = {top})")


# ----------------------------------------------------------------- Claim C.7


def _tower(k: int) -> Interval:
    value = Interval.point(3)
    for _ in range(k):
        value = interval_exp(value, _PREC)
    return value


def check_c7_lower_bounds() -> CheckResult:
    """004 Claim C.7 on the paper schedules with m >= threshold: |S_i| > RHS_i − FLOOR_SLACK for
    i = 1 (floored kept count) and |S_i| >= RHS_i for i >= 2, RHS_i = (40/α_i)VC·ln(2/(α_iβ_i))·
    exp^{[i−1]}(3).  ``FLOOR_SLACK = 0`` asks for the unrounded statement |S_1| >= RHS_1 (fails at
    i = 1)."""
    floor_slack = FLOOR_SLACK
    count = second = 0
    for s in schedule_grid():
        if s.constants != PAPER_004 or s.outcome is not Outcome.OK or s.m < m_threshold_004(
                s.alpha, s.beta, s.vc):
            continue
        for it in s.iterations:
            rhs = (Fraction(40) / it.alpha * s.vc) * interval_log(
                Interval.point(2 / (it.alpha * it.beta)), _PREC) * _tower(it.index - 1)
            slack = floor_slack if it.index == 1 else 0
            count += 1
            second += it.index >= 2
            verdict = (greater_than(it.s_kept + slack, rhs) if slack
                       else at_least(it.s_kept, rhs))
            if verdict is Verdict.VIOLATED:
                return CheckResult(verdict, f"|S_{it.index}| = {it.s_kept} vs RHS "
                                   f"{decimal(rhs.lo)}", witness=f"{describe_schedule(s)}, i = {it.index}")
            if verdict is Verdict.UNDECIDED:
                return CheckResult(verdict, f"overlap at {describe_schedule(s)}")
    return CheckResult(Verdict.HOLDS, f"{count} iterations ({second} with i >= 2) of paper 004 "
                       "schedules satisfy the bound (i = 1 up to the floor)")


def check_c7_base_identity() -> CheckResult:
    """Real-valued base case of 004 C.7: (1/100)·(576000/α)VC·L(768/(αβ)) = (40/α_1)VC·L(2/(α_1β_1))·3
    exactly (α_1 = α/48, β_1 = β/8: 576000 = 100·40·48·3 and 768 = 2·48·8)."""
    ok = Fraction(576000, 100) == 40 * 48 * 3 and 2 * 48 * 8 == 768
    return CheckResult(Verdict.HOLDS if ok else Verdict.VIOLATED,
                       "576000/100 = 40·48·3 = 5760 and 2·48·8 = 768 (exact)")


def _c7_first_line(k: Fraction, s_prev: Fraction) -> tuple[Fraction, Fraction]:
    """Real-valued, uncapped: |S_i| from |S_{i−1}^b| = s_prev with K = (β_{i−1}/e)VC·e^{x}:
    v = K − 100 s_prev; |S_i| = (|S^b_{i−1}|/100 + v/100)/100.  Returns (|S_i|, printed K/10000)."""
    v = k - 100 * s_prev
    return (s_prev / 100 + v / 100) / 100, k / 10000


def check_c7_printed_equality() -> CheckResult:
    """The first display of C.7's proof: |S_i| = (1/10000)(β_{i−1}/e)VC·exp(α_{i−1}|S_{i−1}|/(2VC)).
    Exact algebra with K standing for the exponential term (it enters linearly)."""
    for k, s_prev in ((Fraction(10**9), Fraction(3000)), (Fraction(7, 3) * 10**6, Fraction(50))):
        lhs, printed = _c7_first_line(k, s_prev)
        if lhs != printed:
            return CheckResult(Verdict.VIOLATED, f"|S_i| − printed = {lhs - printed} = "
                               f"−0.0099·|S^b_(i−1)| ≠ 0 (K = {k}, |S^b_(i−1)| = {s_prev})",
                               witness=f"K = {k}, |S^b_(i−1)| = {s_prev}")
    return CheckResult(Verdict.HOLDS, "equality holds")


def check_c7_corrected_equality() -> CheckResult:
    """Corrected: |S_i| = (1/10000)K − (99/10000)|S^b_{i−1}| exactly (real-valued, uncapped), for
    several K and |S^b_{i−1}|; with floors |S_i| >= that − 2 on the grid's 004 schedules."""
    for k, s_prev in ((Fraction(10**9), Fraction(3000)), (Fraction(7, 3) * 10**6, Fraction(50)),
                      (Fraction(1), Fraction(0))):
        lhs, printed = _c7_first_line(k, s_prev)
        if lhs != printed - Fraction(99, 10000) * s_prev:
            return CheckResult(Verdict.VIOLATED, f"corrected identity fails at K = {k}")
    count = 0
    for s in schedule_grid():
        if s.constants.version != "004" or s.outcome is not Outcome.OK:
            continue
        c = s.constants
        for prev, it in zip(s.iterations, s.iterations[1:], strict=False):
            # K/(1/keep)^2 − (1/keep − 1)/(1/keep)^2 · s_prev, exact up to the floors
            inv = 1 / c.keep_iteration
            x = prev.alpha * prev.s_before / (c.exponent_divisor * s.vc) - 1
            k_term = rational(prev.beta * s.vc) * exp(rational(x))
            bound = (k_term - (inv - 1) * prev.s_before) / (inv * inv) - 3
            count += 1
            verdict = at_least(it.s_kept, bound)
            if verdict is Verdict.VIOLATED:
                return CheckResult(verdict, f"corrected bound fails at {describe_schedule(s)}",
                                   witness=describe_schedule(s))
            if verdict is Verdict.UNDECIDED:
                return CheckResult(verdict, f"corrected bound not decided at {describe_schedule(s)}")
    return CheckResult(Verdict.HOLDS, f"exact identity at 3 points; floored schedules satisfy "
                       f"|S_i| >= keep²·(K − (1/keep − 1)|S^b|) − 3 on {count} iterations")


def check_c7_chain(indices: tuple[int, ...] = (2, 3, 4)) -> CheckResult:
    """004-E22 for 004 C.7 with 004-E7's correction, in log space (VC cancels).

    With s_0 = (40/α_{i−1})VC·ln(2/(α_{i−1}β_{i−1}))·E, E = exp^{[i−2]}(3), and
    K(s) = (β_{i−1}/(10000e))VC·e^{α_{i−1}s/(2VC)}: K(s_0) >= 2(0.99 s_0 + 1) and
    K(s_0)/2 >= RHS_i, over α, β ∈ {2^−1, …, 2^−28} (natural log).  :data:`C7_RHS_LOG_SHIFT`
    multiplies RHS_i by e^shift (0 as printed).
    Since K(s) − 0.99s is increasing for s >= s_0, the corrected first line implies C.7 at i."""
    worst: Fraction | None = None  # the least lower end of gap2 (display)
    count = 0
    rhs_log_shift = C7_RHS_LOG_SHIFT
    for i in indices:
        big_e = _tower(i - 2)
        for ka in range(1, 31, 3):
            for kb in range(1, 31, 3):
                a, b = Fraction(1, 2**ka), Fraction(1, 2**kb)
                ap, bp = PAPER_004.alpha_i(a, i - 1), PAPER_004.beta_i(b, i - 1)
                ai, bi = PAPER_004.alpha_i(a, i), PAPER_004.beta_i(b, i)
                lp = interval_log(Interval.point(2 / (ap * bp)), _PREC)
                # logs with VC = 1 (VC multiplies K, s_0 and RHS alike)
                log_k = interval_log(Interval.point(bp / 10000), _PREC) - 1 + lp * 20 * big_e
                log_s0 = interval_log(Interval.point(40 / ap) * lp * big_e, _PREC)
                log_rhs = interval_log(Interval.point(40 / ai) * interval_log(
                    Interval.point(2 / (ai * bi)), _PREC), _PREC) + big_e + rhs_log_shift
                ln2 = interval_log(Interval.point(2), _PREC)
                gap1 = log_k - ln2 - (log_s0 + 1)       # 0.99 s_0 + 1 <= e·s_0 (s_0 >= 1)
                gap2 = log_k - ln2 - log_rhs
                count += 1
                for gap in (gap1, gap2):
                    verdict = at_least(gap, 0)
                    if verdict is Verdict.VIOLATED:
                        return CheckResult(verdict, f"i={i}, α=2^-{ka}, β=2^-{kb}",
                                           witness=f"i={i}, α=2^-{ka}, β=2^-{kb}")
                    if verdict is Verdict.UNDECIDED:
                        return CheckResult(verdict, f"overlap at i={i}")
                worst = gap2.lo if worst is None else min(worst, gap2.lo)
    assert worst is not None
    decades = worst / interval_log(Interval.point(10), _PREC).hi
    return CheckResult(Verdict.HOLDS, f"{count} (i, α, β) cases; smallest ln(K(s_0)/(2·RHS_i)) = "
                       f"{decimal(worst)} (ratio >= 10^{decimal(decades)})")


# ----------------------------------------------------------------- Corollary C.8


def log_star(n: int) -> int:
    """log*(n) in base e: the number of ln applications until the value is <= 1 (exact for ints).

    Raises :class:`~privref.reference.errors.Undecided` when an iterate's enclosure straddles 1.
    """
    count = 0
    value: Interval = Interval.point(n)
    while not proved_le(value, 1):  # value > 1 is proved, so ln applies
        value = interval_log(value, _PREC)
        count += 1
    return count


def check_iterations_vs_log_star() -> CheckResult:
    """Illustration of 004 Corollary C.8 / 000 Remark 4.10: N(n) for scaled constants, n = 10^k,
    k <= 600, against log* n (base e); N is nondecreasing in n and N(n) <= log*(n) + LOG_STAR_EXTRA."""
    extra = LOG_STAR_EXTRA
    rows = []
    for c in (SCALED_000, SCALED_004):
        m = 30 if c.version == "000" else 40
        last = -1
        for k in (0, 1, 2, 3, 5, 10, 20, 50, 100, 200, 600):
            n = 10**k
            s = size_schedule(c, Fraction(1, 2), Fraction(1, 4), n, m, 1)
            if s.outcome is not Outcome.OK:
                return CheckResult(Verdict.UNDECIDED, f"schedule {s.outcome.value} at n = 10^{k}")
            big_n, ls = s.n_iterations, log_star(n)
            rows.append(f"{c.version} 10^{k}: N={big_n}, log*={ls}")
            if big_n < last or big_n > ls + extra:
                return CheckResult(Verdict.VIOLATED, "; ".join(rows), witness=rows[-1])
            last = big_n
    paper = [size_schedule(PAPER_004, Fraction(1, 2), Fraction(1, 2), 10**k,
                           m_threshold_004(Fraction(1, 2), Fraction(1, 2), 1), 1).n_iterations
             for k in (3, 100, 1000)]
    return CheckResult(Verdict.HOLDS, "; ".join(rows) + f"; paper 004 constants at n = 10^3, "
                       f"10^100, 10^1000: N = {paper}")


# ----------------------------------------------------------------- entries

ENTRIES: tuple[Entry, ...] = (
    Entry(paper="004", number="Claim C.5", kind=Kind.CLAIM, status=Status.CHECKED,
          statement="In every iteration i, with probability at least 1 − β_i, error_(S_i)(h_i) "
                    "<= α_i (S_i after Step 2c).",
          also=("000 Observation 4.7",), subjects=("reference.learners.iterlabelboost",),
          notes="The proof's display types e^(β_i/(100e)) where e·β_i/(100e) = β_i/100 is meant "
                "(004-E8). The Sauer step needs |P_i| > VC (000-E6); |S_i| + |T_i| >= VC holds on every "
                "schedule checked.",
          checks=(Check("exact EM tail <= β_i, paper constants", partial(check_em_tail, PAPER_004),
                        constant="EM_TAIL_SCALE"),
                  Check("exact EM tail <= β_i, scaled constants",
                        partial(check_em_tail, PROOF_SCALED_004), constant="EM_TAIL_SCALE"),
                  Check("Sauer side, paper constants", partial(check_sauer_side, PAPER_004)),
                  Check("Sauer side, scaled constants",
                        partial(check_sauer_side, PROOF_SCALED_004)))),
    Entry(paper="004", number="Claim C.6", kind=Kind.CLAIM, status=Status.CHECKED,
          statement="If |D| >= 90000n, IterLabelBoost never fails in Step 2b.",
          also=("000 Claim 4.8",), subjects=("reference.learners.schedule",),
          notes="Deterministic simulation of the floored schedule over paper and scaled "
                "constants (|D| = 3·cap), incl. N up to 5; the proof's unproved doubling "
                "|T_i^b| >= 2|T_(i−1)^b| (1 < i < N) is checked too. With the paper constants N <= 2 "
                "for every n we can represent, so the doubling is vacuous there.",
          checks=(Check("never fails; doubling", check_never_fails, constant="UNLABELED_SCALE"),)),
    Entry(paper="004", number="Claim C.7", kind=Kind.CLAIM, status=Status.CHECKED,
          statement="If |D| >= 90000n and |S| >= (576000/α)VC(C)·log(768/(αβ)), then in every "
                    "iteration |S_i| >= (40/α_i)VC(C)·log(2/(α_iβ_i))·exp^[i−1](3).",
          subjects=("reference.learners.schedule",),
          notes="log = ln here. The base case is an equality of real numbers; with the floored "
                "kept count |S_1| = ⌊m/100⌋ it holds only up to < 1 (e.g. α = 1/1000, β = 1/2, "
                "VC = 1, m at the threshold: |S_1| = 82049427 < 82049427.03). For i >= 2 it holds "
                "with enormous slack (paper schedules with n up to 10^500 reach i = 2).",
          checks=(Check("schedule lower bounds (i = 1 up to the floor)", check_c7_lower_bounds),
                  Check("real-valued base case identity", check_c7_base_identity))),
    Entry(paper="004", number="Claim C.7", kind=Kind.PROOF_STEP, status=Status.REFUTED,
          step="first display '='",
          statement="|S_i| = (1/100)(|S_(i−1)| + |T_(i−1)|) = (1/10000)(β_(i−1)/e)VC·"
                    "exp(α_(i−1)|S_(i−1)|/(2VC)).",
          counterexample="With 004's v = (β/e)VC·e^x − 100|S| the right side exceeds |S_i| by "
                         "0.0099·|S^b_(i−1)| (exact algebra: K = 10^9, |S^b| = 3000 gives a "
                         "difference of −29.7) (004-E7).",
          corrected="|S_i| = (1/10000)(β_(i−1)/e)VC·exp(α_(i−1)|S_(i−1)|/(2VC)) − 0.0099|S^b_(i−1)| "
                    "(uncapped, real-valued sizes; ≥ that − 2 with floors); the chain still "
                    "reaches C.7's bound since K(s) − 0.99s is increasing and K(s_0)/2 >= RHS_i.",
          checks=(Check("printed '=' (exact algebra)", check_c7_printed_equality,
                        Verdict.VIOLATED),
                  Check("corrected identity; floored schedules", check_c7_corrected_equality),
                  Check("corrected chain reaches RHS_i, i = 2..4", check_c7_chain))),
    Entry(paper="004", number="Corollary C.8", kind=Kind.COROLLARY, status=Status.NOT_CHECKABLE,
          statement="IterLabelBoost runs at most O(log* n) iterations.",
          also=("000 Remark 4.10",), subjects=("reference.learners.schedule",),
          reason="Asymptotic with an unspecified constant; with the paper constants N <= 2 for "
                 "every representable n (N = 3 needs n ≈ e^(10^92)).",
          illustration="N(n) of scaled schedules for n = 10^k, k <= 600, next to log* n "
                       "(reference.learners.schedule.size_schedule).",
          checks=(Check("N(n) nondecreasing and <= log* n (illustration)",
                        check_iterations_vs_log_star),)),
)
