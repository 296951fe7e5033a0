"""Ledger: the utility of paper 001's SVT aggregation (Algorithm 2) and its margin bookkeeping.

Lemma 3 (Algorithm 2 answers every large-margin query), Lemma 4 (pigeonhole), Lemma 15 (the
cut-off budget of Algorithm 3) and Proposition 18 / 30 (approximate high margin).  Verdicts are
exact: comparisons of transcendental quantities go through interval arithmetic
(:mod:`privref.reference.decide`), Laplace tails through
:func:`privref.reference.sparse_vector.laplace_difference_tail` at a rational endpoint of a
proven enclosure (the tail is decreasing), and discrete runs of Algorithm 2 through the exact
law of :func:`privref.reference.pate.svt_votes`.

Findings:

* Lemma 3 is false as printed, twice over: (a) without ε <= ln(2/δ), at ε = 100 the threshold w
  exceeds the distance of a query with Δ^ = ⌈K/3⌉ (K the printed value), which is then refused
  with probability > 1/2; (b) Algorithm 2 stops at the T-th ⊥, so T unstable queries before a
  stable one end the run early almost surely.  With at most T − 1 unstable queries and
  ε <= ln(2/δ), the printed K satisfies a proved sufficient condition on the whole grid.
* Proposition 18's proof compares Δ^ with the noisy threshold although Algorithm 2 compares
  dist = ⌈Δ^/2⌉ − 1; at the printed K its final inequality fails on a boundary instance.  The
  doubled K (plus 2/ξ) repairs it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Final

from privref.reference.accounting import algorithm2_lambda, algorithm2_threshold
from privref.reference.decide import all_hold, at_least, ceil, proved_le
from privref.reference.errors import Undecided
from privref.reference.learners.pate_teachers import majority
from privref.reference.pate import svt_votes
from privref.reference.program import distribution
from privref.reference.reals import Interval, Real, log, rational, sqrt
from privref.reference.sparse_vector import laplace_difference_tail
from privref.reference.stability_release import instability_distance, threshold_floor

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import decimal
from .concentration import binomial_pmf, lower_tail_below

__all__ = [
    "ENTRIES",
    "check_expected_margin",
    "check_high_margin_count",
    "check_lemma3_all_parameters",
    "check_lemma3_condition_not_necessary",
    "check_lemma3_corrected",
    "check_lemma3_large_epsilon",
    "check_lemma3_off_by_one",
    "check_lemma3_off_by_one_discrete",
    "check_margin_cut",
    "check_margin_full_scale_misses",
    "check_margin_half_scale",
    "check_pigeonhole",
    "check_pigeonhole_labels",
    "check_proposition18_condition",
    "check_proposition18_instance",
    "check_signed_hoeffding",
    "corrected_proposition18_k",
    "lemma3_k",
    "lemma3_slack_constant",
    "lemma3_sufficient_gap",
    "proposition18_k",
]

F = Fraction
_ONE: Final = F(1)
_TENTH: Final = F(1, 10)
_PERCENT: Final = F(1, 100)
LEMMA3_K_CONSTANT = F(136)
"""001 Lemma 3's printed K = 136·ln(4ℓT/min(δ, β/2))·√(T ln(2/δ))/ε, the 136."""
LEMMA4_FACTOR = 3
"""001 Lemma 4: #{i : mistakes_i >= K/3} <= 3B, the 3."""
PROPOSITION18_K_SCALE = F(1)
"""001 Proposition 18's printed K (leading 1)."""
PROPOSITION18_STEP1_SCALE = F(1)
"""001 Proposition 18 step 1: the deviation √(2νm ln(3/γ)) + (2/3) ln(3/γ) (leading 1)."""
SIGNED_HOEFFDING_SCALE = F(1)
"""001 Proposition 18's Hoeffding step: the deviation √(2K ln(1/g)) (leading 1)."""
_LARGE_EPS: Final = F(100)
_BEYOND_EPS = F(20)
"""An ε above ln(2/δ) at δ = 1/100 where corrected 001 Lemma 3's sufficient condition holds."""
KRule = Callable[[Fraction, Fraction, int, int, Fraction, Fraction], Real]
"""(ε, δ, m, T, γ, ξ) -> a lower bound on the number of teachers K."""


def _tail_upper(u: Real) -> Fraction:
    """A rational upper bound on P(Lap(2) − Lap(1) > u) for a real u >= 0 (tail decreasing)."""
    lo = u.enclose(96).lo
    if lo < 0:
        raise Undecided(f"cannot certify {u} >= 0")
    box = laplace_difference_tail(2, 1, lo).enclose(96)
    assert isinstance(box, Interval)
    return box.hi


def _stable_margin(k: int, at_least: Real) -> int:
    """The least achievable Δ^ = |2s − K| (parity of K) that is >= ``at_least``."""
    d = max(ceil(at_least), 0)
    if (d - k) % 2:
        d += 1
    return d


# ------------------------------------------------------------------ Lemma 3


def lemma3_k(epsilon: Fraction, delta: Fraction, beta: Fraction, ell: int, cutoff: int,
             constant: Fraction | None = None) -> Real:
    """001 Lemma 3's K = 136·ln(4ℓT/min(δ, β/2))·√(T ln(2/δ))/ε (``constant`` replaces 136;
    None: :data:`LEMMA3_K_CONSTANT`, read at call time)."""
    if constant is None:
        constant = LEMMA3_K_CONSTANT
    return (log(F(4 * ell * cutoff) / min(delta, beta / 2)) * constant
            * sqrt(log(2 / delta) * cutoff) / epsilon)


def lemma3_sufficient_gap(k: Real, epsilon: Fraction, delta: Fraction, beta: Fraction,
                          ell: int, cutoff: int) -> Real:
    """K/6 − 1 − λ(3 ln(2(ℓ+T)/δ) + ln(T/β) + 2 ln(ℓ/β)); >= 0 makes 001 Lemma 3 hold.

    Proved in the Lemma 3 entry's notes: with probability >= 1 − β all T threshold noises are
    < λ ln(T/β) and all ℓ query noises > −2λ ln(ℓ/β), and Δ^ >= K/3 gives dist >= K/6 − 1.
    """
    lam = algorithm2_lambda(cutoff, epsilon, delta)
    w = algorithm2_threshold(ell, cutoff, epsilon, delta)
    return k / 6 - 1 - w - lam * log(F(cutoff) / beta) - lam * log(F(ell) / beta) * 2


def check_lemma3_large_epsilon(epsilon: Fraction = _LARGE_EPS, delta: Fraction = _PERCENT,
                               beta: Fraction = _TENTH, ell: int = 1,
                               cutoff: int = 1) -> CheckResult:
    """A query with Δ^ >= K/3 at K = ⌈001 Lemma 3's K⌉ is refused with probability > β.

    One stable query (no unstable ones).  Refusal = 1 − P(dist + Lap(2λ) > w + Lap(λ))
    >= 1 − P(Lap(2) − Lap(1) > (w − dist)/λ), decided by intervals: VIOLATED when > β.
    """
    try:
        k = ceil(lemma3_k(epsilon, delta, beta, ell, cutoff))
        margin = _stable_margin(k, rational(F(k, 3)))
        dist = instability_distance((k + margin) // 2, k)
        lam = algorithm2_lambda(cutoff, epsilon, delta)
        w = algorithm2_threshold(ell, cutoff, epsilon, delta)
        if proved_le(w, dist):
            return CheckResult(Verdict.HOLDS, f"ε={epsilon}: K={k}, dist={dist} >= w; no "
                               "refusal above 1/2 forced")
        refusal = 1 - _tail_upper((w - dist) / lam)
        if refusal > beta:
            return CheckResult(
                Verdict.VIOLATED, f"K={k}, Δ^={margin} >= K/3, dist={dist} < w ≈ {float(w):.4f} "
                f"(λ ≈ {float(lam):.4f}): refusal probability >= {float(refusal):.4f} > β",
                f"ε={epsilon}, δ={delta}, β={beta}, ℓ={ell}, T={cutoff}, one query with "
                f"Δ^={margin}: P(⊥) >= {float(refusal):.4f} > β={beta}")
    except Undecided as exc:  # pragma: no cover
        return CheckResult(Verdict.UNDECIDED, str(exc))
    return CheckResult(Verdict.HOLDS, f"refusal <= β at ε={epsilon}")


def check_lemma3_off_by_one(cutoff: int = 1, epsilon: Fraction = _ONE,
                            delta: Fraction = _PERCENT, beta: Fraction = _TENTH,
                            breaks_at: int | None = None) -> CheckResult:
    """T unstable queries (dist 0) then a stable one: Algorithm 2 stops early w.p. > β.

    Algorithm 2 breaks when the ⊥-count reaches ``breaks_at`` (= T, its step 12).  Each
    unstable query passes with probability p0 = P(Lap(2λ) − Lap(λ) > w), so all T are refused
    with probability >= 1 − T·p0 (001 Lemma 3 with "at most T" unstable queries).
    """
    stop = cutoff if breaks_at is None else breaks_at
    if cutoff < stop:
        return CheckResult(Verdict.HOLDS, f"the run breaks at ⊥ number {stop} > T={cutoff}: "
                           "T unstable queries cannot stop it")
    ell = cutoff + 1
    try:
        lam = algorithm2_lambda(cutoff, epsilon, delta)
        w = algorithm2_threshold(ell, cutoff, epsilon, delta)
        p0 = _tail_upper(w / lam)
        stopped = 1 - cutoff * p0
    except Undecided as exc:  # pragma: no cover
        return CheckResult(Verdict.UNDECIDED, str(exc))
    if stopped > beta:
        return CheckResult(Verdict.VIOLATED, f"T={cutoff}, ℓ={ell}: P(stop before the stable "
                           f"query) >= 1 − T·p0 >= {float(stopped):.6f} > β",
                           f"ε={epsilon}, δ={delta}, β={beta}: T={cutoff} unstable queries "
                           f"then a stable one; p0 <= {float(p0):.3g}")
    return CheckResult(Verdict.HOLDS, "early stop not forced")


def check_lemma3_off_by_one_discrete(cutoff: int = 1, unstable: int | None = None,
                                     beta: Fraction = _TENTH) -> CheckResult:
    """The exact law of :func:`privref.reference.pate.svt_votes` (discrete Laplace, scale 1/2,
    threshold 2, K = 9): ``unstable`` tied-ish queries (5 votes, dist 0) then one unanimous
    query (dist 4).  VIOLATED when P(output shorter than ℓ) > β (001 Lemma 3, 'finishes all ℓ').
    """
    n_bad = cutoff if unstable is None else unstable
    votes = (5,) * n_bad + (9,)
    law = distribution(svt_votes, votes, 9, F(1, 2), 2, cutoff)
    low = F(0)
    for out, p in law.items():
        if len(out) < len(votes):
            low += p.lo if isinstance(p, Interval) else p
    if low > beta:
        return CheckResult(Verdict.VIOLATED, f"exact law: P(stopped early) >= {float(low):.4f}",
                           f"votes {votes}, K=9, T={cutoff}: P(run ends before query "
                           f"{len(votes)}) >= {float(low):.4f} > β={beta}")
    return CheckResult(Verdict.HOLDS, f"votes {votes}, T={cutoff}: P(stopped early) lower bound "
                       f"{float(low):.4f} <= β")


_DELTAS: Final = (F(1, 2), F(1, 10), F(1, 100), F(1, 10 ** 6), F(1, 10 ** 10))
_BETAS: Final = (F(1, 2), F(1, 10 ** 4))
_ELLS: Final = (1, 10 ** 6)
_CUTOFFS: Final = (1, 500)


def _epsilons(delta: Fraction) -> tuple[Fraction, ...]:
    """1/10, 1 and ⌊100·ln(2/δ)⌋/100 (the worst case sits at ε = ln(2/δ)), all <= ln(2/δ)."""
    top = F(threshold_floor(log(2 / delta) * 100), 100)
    return tuple(e for e in (F(1, 10), F(1), top) if e <= top)


def check_lemma3_corrected() -> CheckResult:
    """The printed K (:data:`LEMMA3_K_CONSTANT` = 136) meets the proved sufficient condition
    whenever ε <= ln(2/δ), on a grid of ε, δ, β, ℓ, T (001 Lemma 3, corrected)."""
    constant = LEMMA3_K_CONSTANT
    cases = 0
    worst = 10.0
    try:
        for delta in _DELTAS:
            for eps in _epsilons(delta):
                for beta in _BETAS:
                    for ell in _ELLS:
                        for t in _CUTOFFS:
                            k = lemma3_k(eps, delta, beta, ell, t, constant)
                            gap = lemma3_sufficient_gap(k, eps, delta, beta, ell, t)
                            if not proved_le(0, gap):
                                return CheckResult(
                                    Verdict.VIOLATED, "sufficient condition fails",
                                    f"ε={eps}, δ={delta}, β={beta}, ℓ={ell}, T={t}, "
                                    f"constant {constant}")
                            # the K the condition needs is K − 6·gap
                            worst = min(worst, float(k) / float(k - gap * 6))
                            cases += 1
    except Undecided as exc:  # pragma: no cover
        return CheckResult(Verdict.UNDECIDED, str(exc))
    return CheckResult(Verdict.HOLDS, f"{cases} grid points with ε <= ln(2/δ): K/6 − 1 >= "
                       f"w + λ ln(T/β) + 2λ ln(ℓ/β); smallest K/K_needed ≈ {worst:.3f}")


def lemma3_slack_constant() -> Real:
    """c·√(ln 2) − 1 with c = 136/6 − 6(2 + √2): the proved lower bound on
    :func:`lemma3_sufficient_gap` at the printed K, for every ε <= ln(2/δ) (001 Lemma 3 entry)."""
    c = rational(LEMMA3_K_CONSTANT / 6) - (sqrt(2) + 2) * 6
    return c * sqrt(log(2)) - 1


def check_lemma3_all_parameters() -> CheckResult:
    """Corrected 001 Lemma 3 for EVERY ε <= ln(2/δ), δ, β ∈ (0, 1), ℓ, T >= 1: the proof in the
    entry's notes gives gap >= c·AΛ − 1 >= c·√(ln 2) − 1 with A = √(T ln(2/δ))/ε,
    Λ = ln(4ℓT/min(δ, β/2)), c = 136/6 − 6(2 + √2); the check decides (1) the constant
    c√(ln 2) − 1 >= 0.816 > 0 by intervals, and (2) both steps of the chain, gap >= c·AΛ − 1
    and AΛ >= √(ln 2), at every point of the Lemma 3 grid (the reference's λ, w and K).
    """
    slack = lemma3_slack_constant()
    verdict = at_least(slack, F(816, 1000))
    if verdict is not Verdict.HOLDS:
        return CheckResult(verdict, "c·√(ln 2) − 1 >= 0.816 not proved",
                           f"constant {LEMMA3_K_CONSTANT}, slack ≈ {decimal(slack, 4)}")
    c = rational(LEMMA3_K_CONSTANT / 6) - (sqrt(2) + 2) * 6
    cases = 0
    for delta in _DELTAS:
        for eps in _epsilons(delta):
            for beta in _BETAS:
                for ell in _ELLS:
                    for t in _CUTOFFS:
                        a = sqrt(log(2 / delta) * t) / eps
                        big_l = log(F(4 * ell * t) / min(delta, beta / 2))
                        gap = lemma3_sufficient_gap(lemma3_k(eps, delta, beta, ell, t),
                                                    eps, delta, beta, ell, t)
                        step = all_hold((at_least(gap, c * a * big_l - 1),
                                         at_least(a * big_l, sqrt(log(2)))))
                        if step is not Verdict.HOLDS:
                            return CheckResult(step, "a step of the all-parameter proof fails",
                                               f"ε={eps}, δ={delta}, β={beta}, ℓ={ell}, T={t}")
                        cases += 1
    return CheckResult(Verdict.HOLDS, f"slack c√(ln 2) − 1 ≈ {decimal(slack, 4)} >= 0.816 "
                       f"(proved); both proof steps hold at {cases} grid points")


def check_lemma3_condition_not_necessary() -> CheckResult:
    """ε <= ln(2/δ) is sufficient, not necessary: at δ = 1/100 (ln(2/δ) ≈ 5.3), β = 1/10,
    ℓ = T = 1 and ε = 20 the printed K (constant 136) still meets the proved sufficient
    condition K/6 − 1 >= w + λ ln(T/β) + 2λ ln(ℓ/β) (decided by intervals)."""
    epsilon, delta, beta = _BEYOND_EPS, _PERCENT, _TENTH
    k = lemma3_k(epsilon, delta, beta, 1, 1)
    verdict = at_least(lemma3_sufficient_gap(k, epsilon, delta, beta, 1, 1), 0)
    return CheckResult(verdict, f"ε={epsilon} > ln(2/δ), δ={delta}, β={beta}, ℓ=T=1: the "
                       "sufficient condition of corrected 001 Lemma 3 "
                       f"{'holds' if verdict is Verdict.HOLDS else 'is not proved'}")


# ------------------------------------------------------------------ Lemmas 4 and 15


def _matrices(k: int, ell: int) -> range:
    return range(1 << (k * ell))


def _bit(mat: int, k: int, ell: int, i: int, j: int) -> int:
    return mat >> (i * ell + j) & 1


def check_pigeonhole() -> CheckResult:
    """#{i : Σ_k M_ki >= K/3} <= factor·B, B = max row sum, for every 0/1 mistake matrix M.

    001 Lemma 4, exhaustively for K·ℓ <= 12 (K <= 6); the factor :data:`LEMMA4_FACTOR` = 3 is the
    lemma, 2 must fail.
    """
    factor = LEMMA4_FACTOR
    cases = 0
    for k in range(1, 7):
        for ell in range(1, 13 // k + 1):
            if k * ell > 12:
                continue
            for mat in _matrices(k, ell):
                rows = [sum(_bit(mat, k, ell, i, j) for j in range(ell)) for i in range(k)]
                cols = [sum(_bit(mat, k, ell, i, j) for i in range(k)) for j in range(ell)]
                counted = sum(1 for c in cols if 3 * c >= k)
                if counted > factor * max(rows):
                    return CheckResult(Verdict.VIOLATED, "pigeonhole bound fails",
                                       f"K={k}, ℓ={ell}, rows {rows}, columns {cols}: "
                                       f"{counted} > {factor}·{max(rows)}")
                cases += 1
    return CheckResult(Verdict.HOLDS, f"all {cases} mistake matrices with K·ℓ <= 12: "
                       f"#{{i : mistakes_i >= K/3}} <= {factor}B")


def _vote_cases(max_cells: int) -> list[tuple[int, int]]:
    return [(k, ell) for k in range(1, 7) for ell in range(1, 4) if k * ell <= max_cells]


def check_pigeonhole_labels() -> CheckResult:
    """Lemma 4 with labels z: votes V ∈ {0,1}^{K×ℓ}, any z ∈ {0,1}^ℓ, mistakes 1(V_ki ≠ z_i).

    001 Lemma 4 as used in Lemma 15 (z = h*), exhaustively for K·ℓ <= 9; factor
    :data:`LEMMA4_FACTOR`.
    """
    factor = LEMMA4_FACTOR
    cases = 0
    for k, ell in _vote_cases(9):
        for mat in _matrices(k, ell):
            for z in range(1 << ell):
                wrong = [[int(_bit(mat, k, ell, i, j) != (z >> j & 1)) for j in range(ell)]
                         for i in range(k)]
                b = max(sum(r) for r in wrong)
                counted = sum(1 for j in range(ell) if 3 * sum(r[j] for r in wrong) >= k)
                if counted > factor * b:
                    return CheckResult(Verdict.VIOLATED, "pigeonhole with labels fails",
                                       f"K={k}, ℓ={ell}, votes {mat:b}, z {z:b}")
                cases += 1
    return CheckResult(Verdict.HOLDS, f"all {cases} (votes, z) with K·ℓ <= 9: "
                       f"#{{i : Σ_k 1(V_ki ≠ z_i) >= K/3}} <= {factor}B")


_LEMMA15_SLACK = 1
LEMMA15_FACTOR = 3
"""001 Lemma 15: #({Δ^ < K/3} ∪ {maj ≠ z}) <= max(0, 3B − 1), the 3."""
"""The refusable and wrong queries number at most max(0, 3B − 1) (001 Lemma 15, corrected)."""

MarginRule = Callable[[int, int], bool]
"""(votes s for label 1, K) -> whether a query is counted by Lemma 15's "margin smaller than"."""


def _dhat_below_k3(s: int, k: int) -> bool:
    """Δ^ < K/3 with Δ^ = |2s − K| (Eq. (1)): Lemma 3's refusable queries."""
    return 3 * abs(2 * s - k) < k


def _half_scale_below_k6(s: int, k: int) -> bool:
    """|s − K/2| < K/6, exactly (the scale of the expected margin Δ(x) = |E ĥ(x) − 1/2|)."""
    return abs(F(s) - F(k, 2)) < F(k, 6)


def _dhat_below_k6(s: int, k: int) -> bool:
    """Δ^ < K/6 with Δ^ = |2s − K| (Eq. (1)): the printed cut read on the realized margin."""
    return 6 * abs(2 * s - k) < k


def _margin_cut(counted_rule: MarginRule) -> CheckResult:
    """Every refusable query (Δ^ < K/3) is counted by ``counted_rule``, the counted set equals
    the refusable one, and with the queries whose majority differs from z they number at most
    max(0, 3B − 1).  Exhaustive for K·ℓ <= 12, every z, plus single queries with K <= 12.

    VIOLATED names the first vote vector where a refusable query is missed, or the count fails.
    """
    cases = 0
    grid = _vote_cases(12) + [(k, 1) for k in range(7, 13)]
    for k, ell in grid:
        for mat in _matrices(k, ell):
            for z in range(1 << ell):
                votes = [sum(_bit(mat, k, ell, i, j) for i in range(k)) for j in range(ell)]
                labels = [z >> j & 1 for j in range(ell)]
                b = max(sum(int(_bit(mat, k, ell, i, j) != labels[j]) for j in range(ell))
                        for i in range(k))
                refusable = {j for j in range(ell) if _dhat_below_k3(votes[j], k)}
                counted = {j for j in range(ell) if counted_rule(votes[j], k)}
                off = {j for j in range(ell) if majority(votes[j], k) != labels[j]}
                if refusable != counted:
                    missed = sorted(refusable ^ counted)
                    return CheckResult(Verdict.VIOLATED, "the counted set is not the refusable set",
                                       f"K={k}, votes {votes}: Δ^ = "
                                       f"{[abs(2 * votes[j] - k) for j in missed]} is < K/3 "
                                       "but not counted (or the reverse)")
                if len(counted | off) > max(0, LEMMA15_FACTOR * b - _LEMMA15_SLACK):
                    return CheckResult(Verdict.VIOLATED, f"count above 3B − {_LEMMA15_SLACK}",
                                       f"K={k}, votes {votes}, z {labels}, B={b}")
                cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (K, ℓ, votes, z) cases: the counted set is "
                       "{Δ^ < K/3} and #({Δ^ < K/3} ∪ {maj ≠ z}) <= "
                       f"max(0, 3B − {_LEMMA15_SLACK})")


def check_margin_cut() -> CheckResult:
    """001 Lemma 15's pigeonhole with z = h* on Lemma 3's refusable set {Δ^ < K/3}: with the
    queries whose majority differs from z they number at most max(0, 3B − 1)."""
    return _margin_cut(_dhat_below_k3)


def check_margin_half_scale() -> CheckResult:
    """001 Lemma 15's "margin smaller than K/6" read on the |s − K/2| scale (the scale of the
    paper's expected margin, ξ = 1/6 in Remark 21): the set {|s − K/2| < K/6}
    is exactly {Δ^ < K/3}, and the count is at most max(0, 3B − 1)."""
    return _margin_cut(_half_scale_below_k6)


def check_margin_full_scale_misses() -> CheckResult:
    """001 Lemma 15's "margin smaller than K/6" read on the |2s − K| = Δ^ scale of Eq. (1)
    misses refusable queries: HOLDS when a refusable query with Δ^ >= K/6 is found (this
    reading fails; smallest witness K = 5, 2 votes: Δ^ = 1), VIOLATED if the reading holds."""
    result = _margin_cut(_dhat_below_k6)
    if result.verdict is Verdict.VIOLATED and result.evidence.startswith("the counted set"):
        return CheckResult(Verdict.HOLDS, "the Δ^ < K/6 reading misses a refusable query",
                           result.witness)
    return CheckResult(Verdict.VIOLATED if result.verdict is Verdict.HOLDS else result.verdict,
                       "the Δ^ < K/6 reading did not miss a refusable query", result.evidence)


# ------------------------------------------------------------------ Proposition 18


def proposition18_k(epsilon: Fraction, delta: Fraction, m: int, cutoff: int, gamma: Fraction,
                    xi: Fraction) -> Real:
    """001 Proposition 18's K = max{2 ln(3m/γ)/ξ², 3λ(ln(4m/δ) + ln(3m/γ))/ξ}."""
    lam = algorithm2_lambda(cutoff, epsilon, delta)
    l3 = log(F(3 * m) / gamma)
    first, second = l3 * 2 / (xi * xi), lam * 3 * (log(F(4 * m) / delta) + l3) / xi
    return second if proved_le(first, second) else first


CORRECTED_P18_LAMBDA_FACTOR = 6
"""Corrected 001 Proposition 18: K >= (6λ(ln(4m/δ) + ln(3m/γ)) + 2)/ξ, the 6 (printed: 3)."""


def corrected_proposition18_k(epsilon: Fraction, delta: Fraction, m: int, cutoff: int,
                              gamma: Fraction, xi: Fraction) -> Real:
    """max{2 ln(3m/γ)/ξ², (6λ(ln(4m/δ) + ln(3m/γ)) + 2)/ξ}: 001 Proposition 18 with dist ≈ Δ^/2.

    Sufficient for T <= m (proof in the entry's notes).
    """
    lam = algorithm2_lambda(cutoff, epsilon, delta)
    l3 = log(F(3 * m) / gamma)
    first, second = l3 * 2 / (xi * xi), (lam * rational(F(CORRECTED_P18_LAMBDA_FACTOR))
                                       * (log(F(4 * m) / delta) + l3) + 2) / xi
    return second if proved_le(first, second) else first


def _condition(k: int, epsilon: Fraction, delta: Fraction, m: int, cutoff: int,
               gamma: Fraction, xi: Fraction) -> tuple[int, int, Real]:
    """(Δ^ at its Hoeffding bound, its dist, the noise requirement w + 3λ ln(3(m+T)/(2γ)))."""
    low = rational(2 * k * xi) - sqrt(log(F(3 * m) / gamma) * (2 * k))
    margin = _stable_margin(k, low)
    dist = instability_distance((k + margin) // 2, k) if margin <= k else k
    lam = algorithm2_lambda(cutoff, epsilon, delta)
    need = algorithm2_threshold(m, cutoff, epsilon, delta) + lam * log(
        F(3 * (m + cutoff)) / (2 * gamma)) * 3
    return margin, dist, need


_P18_INSTANCE: Final = (F(1), F(1, 100), 1000, 21, F(1, 10), F(1, 10))


def check_proposition18_condition(rule: KRule = corrected_proposition18_k,
                                  grid: bool = True) -> CheckResult:
    """At K = ⌈rule⌉ a query with Δ^ at its Hoeffding lower bound 2Kξ − √(2K ln(3m/γ)) has
    dist >= w + 3λ ln((m + T)/(2γ/3)): the last inequality of 001 Proposition 18's proof with
    Algorithm 2's dist = ⌈Δ^/2⌉ − 1 in place of Δ^.  ``grid`` False: only the instance
    ε = 1, δ = 1/100, m = 1000, T = 21, γ = ξ = 1/10.
    """
    if grid:
        cases = [(e, d, m, t, g, x) for e in (F(1, 10), F(1), F(5)) for d in (F(1, 100),
                 F(1, 10 ** 6)) for m in (10, 1000, 10 ** 5) for t in (1, m // 10 or 1)
                 for g in (F(1, 10), F(1, 2)) for x in (F(1, 100), F(1, 10), F(2, 5))]
    else:
        cases = [_P18_INSTANCE]
    try:
        for eps, delta, m, t, gamma, xi in cases:
            k = ceil(rule(eps, delta, m, t, gamma, xi))
            margin, dist, need = _condition(k, eps, delta, m, t, gamma, xi)
            if not proved_le(need, dist):
                return CheckResult(
                    Verdict.VIOLATED, f"K={k}: Δ^ >= {margin} only gives dist = {dist} < "
                    f"{float(need):.1f} (the proof needs Δ^ itself above it)",
                    f"ε={eps}, δ={delta}, m={m}, T={t}, γ={gamma}, ξ={xi}, K={k}: "
                    f"Δ^={margin}, dist={dist} < {float(need):.1f}")
    except Undecided as exc:  # pragma: no cover
        return CheckResult(Verdict.UNDECIDED, str(exc))
    return CheckResult(Verdict.HOLDS, f"{len(cases)} (ε, δ, m, T, γ, ξ) cases with T <= m: "
                       "dist at the Hoeffding bound meets the noise requirement")


_P18_SMALL: Final = (F(1), F(1, 100), 10, 2, F(1, 2), F(2, 5))
_P18_VOTE_P: Final = F(91, 100)


def check_proposition18_instance() -> CheckResult:
    """001 Proposition 18's conclusion at the printed K on ε = 1, δ = 1/100, m = 10, T = 2,
    γ = 1/2, ξ = 2/5, where the proof's final inequality fails (dist 315 < 328 at the bound).

    Problem: ν = 0, every public point has teacher votes S ~ Bin(K, 91/100) (Δ = 41/100 > ξ),
    so h^agg_∞ = 1.  The conclusion fails only if some query is refused or answered 0, so
    P(fail) <= m·(P(S < s0) + P(Lap(2λ) − Lap(λ) > (dist(s0) − w)/λ)) for any s0 with
    dist(s0) > w (each query's screening has this law marginally); the best of a few s0 is
    compared with γ exactly.  HOLDS when the bound is <= γ; a bound above γ proves nothing
    (UNDECIDED).  :data:`PROPOSITION18_K_SCALE` scales the printed K (a much smaller K must
    not HOLD).
    """
    k_factor = PROPOSITION18_K_SCALE
    eps, delta, m, t, gamma, xi = _P18_SMALL
    try:
        k = ceil(proposition18_k(eps, delta, m, t, gamma, xi) * k_factor)
        lam = algorithm2_lambda(t, eps, delta)
        w = algorithm2_threshold(m, t, eps, delta)
        pmf = binomial_pmf(k, _P18_VOTE_P)
        best: Fraction | None = None
        for j in range(1, 9):
            s0 = math.ceil(k * (_P18_VOTE_P - F(j, 100)))
            dist = instability_distance(s0, k)
            if 2 * s0 < k or proved_le(dist, w):
                continue
            bound = m * (sum(pmf[:s0], F(0)) + _tail_upper((dist - w) / lam))
            best = bound if best is None else min(best, bound)
    except Undecided as exc:  # pragma: no cover
        return CheckResult(Verdict.UNDECIDED, str(exc))
    if best is not None and best <= gamma:
        return CheckResult(Verdict.HOLDS, f"K={k}: P(conclusion fails) <= {float(best):.4f} "
                           f"<= γ={gamma}")
    return CheckResult(Verdict.UNDECIDED, f"K={k}: no bound below γ "
                       f"({'none' if best is None else f'{float(best):.4f}'})")


def check_high_margin_count(printed: bool = False) -> CheckResult:
    """Step 1 of 001 Proposition 18's proof: #{j : Δ(x_j) <= ξ} >= νm + √(2νm ln(3/γ)) +
    (2/3) ln(3/γ) has probability <= γ/3.

    Corrected Definition 17 (P[Δ <= ξ] <= ν): the count is Bin(m, p) with p <= ν; checked
    exactly on a grid.  ``printed``: a two-point problem (mass 9/10 with Δ = 0, mass 1/10 with
    Δ = 1/2) meets the printed P[Δ > ξ] <= ν for ν = 1/10, ξ = 1/10, yet the event has
    probability near 1 (m = 100, γ = 1/10).  :data:`PROPOSITION18_STEP1_SCALE` < 1 shrinks the
    deviation (must fail).
    """
    scale = PROPOSITION18_STEP1_SCALE

    def failure(p: Fraction, nu: Fraction, m: int, gamma: Fraction) -> Fraction:
        l3 = log(3 / gamma)
        bound = rational(nu * m) + (sqrt(l3 * (2 * nu * m)) + l3 * F(2, 3)) * scale
        return 1 - lower_tail_below(m, p, bound)

    if printed:
        nu, m, gamma = F(1, 10), 100, F(1, 10)
        p_low = F(9, 10)  # P[Δ <= ξ] for the two-point problem; P[Δ > ξ] = 1/10 <= ν
        bad = failure(p_low, nu, m, gamma)
        if bad > gamma / 3:
            return CheckResult(Verdict.VIOLATED, f"printed Definition 17: step 1 fails with "
                               f"probability {float(bad):.6f}",
                               f"two-point problem, ν=ξ=1/10, m={m}, γ={gamma}: "
                               f"P(#low-margin >= bound) = {float(bad):.6f} > γ/3")
        return CheckResult(Verdict.HOLDS, "printed reading harmless here")
    cases = 0
    for m in (1, 10, 100, 300):
        for nu in (F(1, 100), F(1, 10), F(1, 3)):
            for gamma in (F(1, 10), F(1, 2)):
                for p in (nu, nu / 2):
                    bad = failure(p, nu, m, gamma)
                    if bad > gamma / 3:
                        return CheckResult(Verdict.VIOLATED, "Bernstein step fails",
                                           f"m={m}, ν={nu}, p={p}, γ={gamma}")
                    cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (m, ν, p <= ν, γ) cases: exact P(count >= "
                       "bound) <= γ/3")


def check_expected_margin(equality: bool = False) -> CheckResult:
    """E|2S − K| >= 2K|q − 1/2| for S ~ Bin(K, q) (Jensen), exactly for K <= 12 and a grid of q.

    001 Proposition 18's proof writes '='; ``equality`` checks that reading (it fails).
    """
    cases = 0
    for k in range(1, 13):
        for q in (F(0), F(1, 10), F(1, 3), F(1, 2), F(3, 5), F(1)):
            pmf = binomial_pmf(k, q)
            mean = sum((pmf[s] * abs(2 * s - k) for s in range(k + 1)), F(0))
            target = 2 * k * abs(q - F(1, 2))
            if mean < target or (equality and mean != target):
                return CheckResult(Verdict.VIOLATED, "E[Δ^] is not 2KΔ",
                                   f"K={k}, q={q}: E[Δ^] = {mean}, 2KΔ = {target}")
            cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (K, q) cases: E[Δ^|x] >= 2KΔ, strict somewhere "
                       "(K = 1, q = 1/2: 1 > 0)")


def check_signed_hoeffding() -> CheckResult:
    """P(2S − K < 2K(q − 1/2) − s·√(2K ln(1/g))) <= g for S ~ Bin(K, q), exactly.

    The Hoeffding step of 001 Proposition 18's proof, applied to the signed margin (which also
    fixes the majority's side); s = :data:`SIGNED_HOEFFDING_SCALE` < 1 must fail.
    """
    scale = SIGNED_HOEFFDING_SCALE
    cases = 0
    for k in (1, 3, 10, 31, 100):
        for q in (F(1, 2), F(3, 5), F(9, 10)):
            for g in (F(1, 2), F(1, 10), F(1, 1000)):
                dev = sqrt(log(1 / g) * (2 * k)) * scale
                # 2S − K < c  ⇔  S < (K + c)/2
                cut = (rational(2 * k * (q - F(1, 2))) - dev + k) / 2
                tail = lower_tail_below(k, q, cut)
                if tail > g:
                    return CheckResult(Verdict.VIOLATED, "signed Hoeffding fails",
                                       f"K={k}, q={q}, g={g}: P = {float(tail):.4g}")
                cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (K, q, g) cases: exact lower tail <= g")


# ------------------------------------------------------------------ entries


_ALG2 = ("reference.accounting.algorithm2_lambda", "reference.accounting.algorithm2_threshold",
         "reference.stability_release.instability_distance")

_P18_STATEMENT = (
    "001 Proposition 18 (L496–505; restated as Proposition 30, L889–916): under the (ν, ξ)-"
    "approximate high-margin condition for n/K points, Algorithm 2 with T >= νm + "
    "√(2νm ln(3/γ)) + (2/3) ln(3/γ) and K >= max{2 ln(3m/γ)/ξ², 3λ(ln(4m/δ) + ln(3m/γ))/ξ} "
    "finishes all m rounds and agrees with h^agg_∞ on all but T public points, with high "
    "probability.")
_P18_REASON = (
    "'With high probability' over an arbitrary learning problem is not quantified (the proof "
    "aims at 1 − γ), and we found no problem where the conclusion fails at the printed K (on "
    "the instance where the proof's last inequality fails, the conclusion still holds, with "
    "failure probability <= 0.027 < γ = 1/2: the Hoeffding step already loses a factor 2); "
    "but the proof does not establish it (see the steps: it compares Δ^ with the noisy "
    "threshold where Algorithm 2 compares dist ≈ Δ^/2, and the printed Definition 17 is "
    "reversed).  The corrected K is proved in the notes and its deterministic core checked.")
_P18_ILLUSTRATION = (
    "At K = ⌈max{2 ln(3m/γ)/ξ², (6λ(ln(4m/δ) + ln(3m/γ)) + 2)/ξ}⌉, a query whose Δ^ sits at "
    "its Hoeffding bound has dist above w + 3λ ln((m+T)/(2γ/3)) on a 216-point grid; the "
    "signed Hoeffding step holds exactly; at the printed K the conclusion holds on one explicit "
    "instance (rigorous upper bound on the failure probability).")
_P18_NOTES = (
    "Corrected proof (T <= m).  With γ1 = γ2 = γ3 = γ/3: (1) Bernstein: fewer than T points have "
    "Δ_{n/K} <= ξ w.p. >= 1 − γ/3.  (2) Hoeffding on the signed margin 2S − K (S = votes for "
    "h^agg_∞'s label): w.p. >= 1 − γ/3 every other point has 2S − K >= 2Kξ − √(2K ln(3m/γ)) "
    ">= Kξ when K >= 2 ln(3m/γ)/ξ², so the majority is h^agg_∞ and Δ^ >= Kξ, "
    "dist = ⌈Δ^/2⌉ − 1 >= Kξ/2 − 1.  (3) Laplace tails with a = ln((m+T)/(2γ1)): all m query "
    "noises > −2λa and all T threshold noises < λa w.p. >= 1 − γ/3.  Release needs "
    "dist > w + 3λa, implied by Kξ/2 − 1 >= 3λ(ln(4m/δ) + ln(3m/γ)) since w <= 3λ ln(4m/δ) "
    "and a <= ln(3m/γ) for T <= m; that is K >= (6λ(ln(4m/δ) + ln(3m/γ)) + 2)/ξ.  A tighter "
    "alternative keeps the Hoeffding term: Kξ − √(K ln(3m/γ)/2) − 1 >= 3λ(…).  Fewer than T "
    "low-margin points also avoids Algorithm 2's break at the T-th ⊥.")

_P18_CHECKS = (
    Check("corrected K: dist at the Hoeffding bound meets the requirement (grid)",
          check_proposition18_condition, constant="CORRECTED_P18_LAMBDA_FACTOR"),
    Check("signed Hoeffding step, exact", check_signed_hoeffding,
          constant="SIGNED_HOEFFDING_SCALE"),
    Check("printed K: the conclusion holds on the instance where the proof's step fails",
          check_proposition18_instance, constant="PROPOSITION18_K_SCALE"),
)

ENTRIES: tuple[Entry, ...] = (
    Entry(
        paper="001", number="Lemma 3",
        statement=("001 Lemma 3 (L221–223): if at most T of x_1..x_ℓ have Δ^ < K/3 and K = "
                   "136 ln(4ℓT/min(δ, β/2))·√(T ln(2/δ))/ε, then w.p. >= 1 − β Algorithm 2 "
                   "finishes all ℓ queries and answers every query with Δ^ >= K/3 by the "
                   "majority ĥ^agg."),
        kind=Kind.LEMMA, status=Status.REFUTED,
        counterexample=(
            "(a) ε = 100, δ = 1/100, β = 1/10, ℓ = T = 1: K = ⌈18.75…⌉ = 19, a query with "
            "Δ^ = 7 >= K/3 has dist 3 < w ≈ 3.19, so it is refused w.p. >= 0.66 > β.  "
            "(b) ε = 1, δ = 1/100, β = 1/10, T unstable queries (dist 0) before a stable one: "
            "Algorithm 2 breaks at the T-th ⊥ w.p. >= 1 − T·p0 ≈ 1 (T = 1, 3); the exact "
            "discrete-Laplace law of svt_votes gives the same (P >= 0.95 for T = 1)."),
        corrected=(
            "Assume at most T − 1 queries with Δ^ < K/3 (or that the T-th one is the last "
            "query).  Then w.p. >= 1 − β Algorithm 2 finishes all ℓ queries and answers every "
            "query with Δ^ >= K/3 by ĥ^agg whenever K/6 − 1 >= 3λ ln(2(ℓ+T)/δ) + λ ln(T/β) + "
            "2λ ln(ℓ/β) (proved); the printed K meets this for EVERY ε <= ln(2/δ), δ, β ∈ "
            "(0, 1), ℓ, T >= 1, with slack >= 136/6·√(ln 2) − 6(2 + √2)√(ln 2) − 1 ≈ 0.816 "
            "(proved, notes).  ε <= ln(2/δ) is a sufficient "
            "condition, not a necessary one: at δ = 1/100, β = 1/10, ℓ = T = 1 the condition "
            "still holds at ε = 20 (checked), and a float scan puts the first refusal "
            "probability > β near ε ≈ 39, far above ln(2/δ) ≈ 5.3."),
        checks=(Check("large ε: a stable query is refused w.p. > β",
                      check_lemma3_large_epsilon, expect=Verdict.VIOLATED),
                Check("T unstable queries stop the run early (Laplace tails)",
                      check_lemma3_off_by_one, expect=Verdict.VIOLATED),
                Check("T = 3 unstable queries stop the run early",
                      lambda: check_lemma3_off_by_one(3), expect=Verdict.VIOLATED),
                Check("exact svt_votes law: T unstable queries stop the run early",
                      check_lemma3_off_by_one_discrete, expect=Verdict.VIOLATED),
                Check("corrected: the printed K meets the sufficient condition when "
                      "ε <= ln(2/δ)", check_lemma3_corrected, constant="LEMMA3_K_CONSTANT"),
                Check("corrected: the printed K meets it for all parameters (proved constant, "
                      "both proof steps on the grid)", check_lemma3_all_parameters,
                      constant="LEMMA3_K_CONSTANT"),
                Check("ε <= ln(2/δ) is sufficient, not necessary: the condition holds at ε = 20",
                      check_lemma3_condition_not_necessary, constant="LEMMA3_K_CONSTANT")),
        notes=(
            "Sufficient condition (proof).  Algorithm 2 uses at most T threshold draws "
            "w + ν_t, ν_t ~ Lap(λ) (one initially, one after each ⊥ but the last), and one query "
            "noise η_j ~ Lap(2λ) per query.  P(some ν_t >= λ ln(T/β)) <= T·e^{−ln(T/β)}/2 = β/2 "
            "and P(some η_j <= −2λ ln(ℓ/β)) <= ℓ·e^{−ln(ℓ/β)}/2 = β/2.  Outside these events, a "
            "query with Δ^ >= K/3 has dist = ⌈Δ^/2⌉ − 1 >= K/6 − 1, so dist + η_j > w + ν_t "
            "whenever K/6 − 1 >= w + λ ln(T/β) + 2λ ln(ℓ/β); it is answered by ĥ^agg.  Only "
            "queries with Δ^ < K/3 can then get ⊥; with at most T − 1 of them the break "
            "(c >= T) never fires, so all ℓ queries are answered.  All parameters (proof): "
            "let L = ln(2/δ), A = √(TL)/ε, Λ = ln(4ℓT/m), m = min(δ, β/2).  ε <= L gives "
            "λ <= (√(4TL) + √(2TL))/ε = (2 + √2)A.  Since ℓ + T <= 2ℓT, 1/δ <= 1/m and "
            "1/β <= 1/(2m): 3 ln(2(ℓ+T)/δ) <= 3Λ, ln(T/β) <= Λ, 2 ln(ℓ/β) <= 2Λ, all three "
            "positive, so w + λ ln(T/β) + 2λ ln(ℓ/β) <= 6(2 + √2)AΛ, and the gap is >= "
            "(136/6 − 12 − 6√2)AΛ − 1.  Λ >= ln(4/δ) > L and ε <= L give AΛ > √(TL) >= "
            "√(ln 2), so the gap is >= 2.181·0.8326 − 1 ≈ 0.816 > 0 (the constant is decided "
            "by intervals; both steps are re-checked at the grid points).  The grid "
            "(ε ∈ {1/10, 1, ⌊100 ln(2/δ)⌋/100}, δ from 1/2 to 10^-10, β, ℓ up to 10^6, T up "
            "to 500, ε <= ln(2/δ)) has smallest ratio ≈ 1.36 between the printed K and the "
            "needed one (ε just below ln(2/δ), δ = 10^-6, β = 10^-4, T = 1); a float scan of "
            "a finer grid found the same minimum.  At ε = 100, δ = 1/100 the "
            "printed K is below w itself (counterexample (a)).  Mutations: constant 60 in "
            "place of 136 fails the grid; ε = 1 removes counterexample (a); a break at the "
            "(T+1)-th ⊥ or T − 1 unstable queries removes (b)."),
        subjects=(*_ALG2, "reference.sparse_vector.laplace_difference_tail",
                  "reference.pate.svt_votes")),
    Entry(
        paper="001", number="Lemma 4",
        statement=("001 Lemma 4 (L225–231): if each of K classifiers makes at most B mistakes "
                   "on (x_1, y_1)..(x_ℓ, y_ℓ), then at most 3B points get >= K/3 wrong votes; "
                   "the same with any label vector z in place of y."),
        kind=Kind.LEMMA, status=Status.PROVED,
        parameter_range="all K >= 1, ℓ >= 1, B >= 0 (checked exhaustively for K·ℓ <= 12)",
        checks=(Check("exhaustive mistake matrices, K·ℓ <= 12", check_pigeonhole,
                      constant="LEMMA4_FACTOR"),
                Check("exhaustive votes and labels z, K·ℓ <= 9", check_pigeonhole_labels,
                      constant="LEMMA4_FACTOR")),
        notes=("Proof: the total number of wrong votes is at most KB, and each counted point "
               "carries at least K/3 of them, so (count)·K/3 <= KB.  Labels only enter through "
               "the mistake matrix, so z works as y.  Mutation: factor 2 fails (K = 3, "
               "three teachers with one mistake each on distinct points)."),
        subjects=("proofs.p001.svt_utility.check_pigeonhole",)),
    Entry(
        paper="001", number="Lemma 15",
        statement=("001 Lemma 15 (L389–406): with K, T chosen as in Theorem 10 and "
                   "conditioned on Lemmas 13 and 14, w.p. >= 1 − β Algorithm 3 finishes all m "
                   "queries without exhausting the cut-off budget and "
                   "Σ_j 1(ĥ^priv_j ≠ h*(x_j)) <= T (T = 3B, B from Lemma 14)."),
        kind=Kind.LEMMA, status=Status.NOT_CHECKABLE,
        reason=("K and T come from Theorem 10 in Õ form (polylog factors hidden), so the "
                "probability statement has no explicit instance.  Its deterministic core, "
                "the pigeonhole with z = h*, is checked exactly."),
        illustration=("For every vote matrix and labeling z (K·ℓ <= 12, and single queries "
                      "with K <= 12): the queries Algorithm 2 may refuse (Δ^ < K/3) together "
                      "with those whose majority differs from z number at most "
                      "max(0, 3B − 1) < T — so the off-by-one of Lemma 3 does not bite here."),
        checks=(Check("{Δ^ < K/3} ∪ {maj ≠ z} has at most max(0, 3B − 1) points",
                      check_margin_cut, constant="LEMMA15_FACTOR"),),
        notes=("Every point with Δ^ < K/3 has more than K/3 votes on each side, and every point "
               "whose majority differs from z has >= K/2 > K/3 wrong votes, so each carries "
               "strictly more than K/3 of the <= KB wrong votes: the count is < 3B.  Given "
               "corrected Lemma 3 (at most T − 1 = 3B − 1 refusable queries, ε <= ln(2/δ)), "
               "the run finishes and the released labels differ from h* on at most 3B − 1 "
               "points.  B = 0 would give T = 0, which Algorithm 2 does not accept. Mutation: "
               "3B − 2 fails."),
        subjects=("reference.learners.pate_teachers.majority",
                  "reference.stability_release.instability_distance")),
    Entry(
        paper="001", number="Lemma 15", step="margin smaller than K/6",
        statement=("001 Lemma 15's proof (L397): 'the number of queries that have margin smaller "
                   "than K/6 is at most 3B' — the set is meant to contain every query Lemma 3 "
                   "may refuse (Δ^ < K/3).  The text does not say which margin scale is meant."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("holds on the |s − K/2| scale: {|s − K/2| < K/6} = {Δ^ < K/3}, at most "
                      "3B − 1", check_margin_half_scale, constant="LEMMA15_FACTOR"),
                Check("fails on the |2s − K| = Δ^ scale: the K/6 cut misses refusable queries",
                      check_margin_full_scale_misses)),
        notes=("Two readings.  (a) Margin = |s − K/2| (s votes for 1), the scale of the paper's "
               "expected margin Δ(x) = |E[ĥ(x) | x] − 1/2| and of Remark 21 "
               "(ξ = 1/6): |s − K/2| < K/6 ⟺ |2s − K| < K/3, so the set is exactly Lemma 3's "
               "refusable set and the step HOLDS (with 3B − 1, checked exhaustively).  (b) Margin "
               "= Δ^ = |2s − K| of Eq. (1): the set {Δ^ < K/6} misses refusable queries — K = 5, "
               "one query with 2 votes: Δ^ = 1 < K/3 but not < K/6 (likewise K = 12 with 5 "
               "votes) — so under this reading the step FAILS.  Not REFUTED: reading (a) is the "
               "paper's own margin scale there, and under it the sets coincide exactly."),
        subjects=("reference.stability_release.instability_distance",
                  "reference.learners.pate_teachers.majority")),
    Entry(
        paper="001", number="Proposition 18",
        statement=_P18_STATEMENT, kind=Kind.PROPOSITION, status=Status.NOT_CHECKABLE,
        reason=_P18_REASON, illustration=_P18_ILLUSTRATION, checks=_P18_CHECKS,
        notes=_P18_NOTES,
        subjects=(*_ALG2, "proofs.p001.svt_utility.corrected_proposition18_k")),
    Entry(
        paper="001", number="Proposition 30",
        statement="Restates 001 Proposition 18 (L889–916 with its proof): " + _P18_STATEMENT,
        kind=Kind.PROPOSITION, status=Status.NOT_CHECKABLE,
        reason="Restatement of Proposition 18; same status and checks. " + _P18_REASON,
        illustration=_P18_ILLUSTRATION, checks=_P18_CHECKS,
        notes="See 001 Proposition 18. " + _P18_NOTES,
        subjects=(*_ALG2, "proofs.p001.svt_utility.corrected_proposition18_k")),
    Entry(
        paper="001", number="Proposition 18", step="Δ^ compared where Algorithm 2 uses dist",
        statement=("001 Proposition 18's proof (L905–912) concludes from "
                   "2Kξ − √(2K ln(m/γ3)) − 2λ ln(m/γ1) > w + λ ln(m/γ1), i.e. it compares the "
                   "realized margin Δ^ with the noisy threshold, and derives the printed "
                   "K >= 3λ(ln(4m/δ) + ln(3m/γ))/ξ."),
        kind=Kind.PROOF_STEP, status=Status.REFUTED,
        counterexample=("ε = 1, δ = 1/100, m = 1000, T = 21, γ = ξ = 1/10: the printed K = "
                        "21711; Δ^ at its Hoeffding bound is 3675, but dist = 1837 < w + "
                        "3λ ln((m+T)/(2γ/3)) ≈ 2045, so the proof's final inequality fails."),
        corrected=("K >= max{2 ln(3m/γ)/ξ², (6λ(ln(4m/δ) + ln(3m/γ)) + 2)/ξ} (for T <= m), "
                   "proved in Proposition 18's notes."),
        checks=(Check("printed K fails the inequality with dist",
                      lambda: check_proposition18_condition(proposition18_k, grid=False),
                      expect=Verdict.VIOLATED),
                Check("corrected K meets it on the grid", check_proposition18_condition,
                      constant="CORRECTED_P18_LAMBDA_FACTOR")),
        notes=("Algorithm 2 step 6 thresholds dist = ⌈Δ^/2⌉ − 1, half of Δ^, so the printed "
               "second term must roughly double.  Mutation: the corrected rule on the same "
               "instance HOLDS, the printed rule on the grid fails."),
        subjects=(*_ALG2, "proofs.p001.svt_utility.proposition18_k")),
    Entry(
        paper="001", number="Proposition 18", step="Definition 17's inequality is reversed",
        statement=("Definition 17 (L488–490) says P_x[Δ_n(x) > ξ] <= ν, while the text and "
                   "step 1 of Proposition 18's proof need P_x[Δ_n(x) <= ξ] <= ν (few "
                   "low-margin points)."),
        kind=Kind.PROOF_STEP, status=Status.REFUTED,
        counterexample=("A two-point problem with mass 9/10 at Δ = 0 and 1/10 at Δ = 1/2 meets "
                        "the printed condition for ν = ξ = 1/10; with m = 100, γ = 1/10 the "
                        "low-margin count exceeds T's bound w.p. ≈ 1, so the proposition's "
                        "T budget (and its conclusion) fails."),
        corrected="P_{x~D}[Δ_n(x) <= ξ] <= ν; then step 1 holds (exact Bernstein check).",
        checks=(Check("printed reading: step 1 fails",
                      lambda: check_high_margin_count(printed=True),
                      expect=Verdict.VIOLATED),
                Check("corrected reading: step 1 holds exactly", check_high_margin_count,
                      constant="PROPOSITION18_STEP1_SCALE")),
        subjects=("proofs.p001.concentration.lower_tail_below",)),
    Entry(
        paper="001", number="Proposition 18", step="E[Δ^|x] = 2KΔ",
        statement=("Proposition 18's proof (L903) writes E[Δ^(x_j)|x_j] = 2KΔ_{n/K}(x_j) and "
                   "applies Hoeffding to the unsigned Δ^."),
        kind=Kind.PROOF_STEP, status=Status.REFUTED,
        counterexample="K = 1, q = 1/10: E[Δ^] = 1 while 2KΔ = 4/5 (q = 1/2: 1 vs 0).",
        corrected=("E[Δ^|x] >= 2KΔ (Jensen); the proof should apply Hoeffding to the signed "
                   "margin 2S − K, which gives the same bound and fixes the majority's side."),
        checks=(Check("equality fails", lambda: check_expected_margin(equality=True),
                      expect=Verdict.VIOLATED),
                Check("E[Δ^] >= 2KΔ exactly", check_expected_margin),
                Check("signed Hoeffding step, exact", check_signed_hoeffding,
                      constant="SIGNED_HOEFFDING_SCALE")),
        subjects=("proofs.p001.concentration.binomial_pmf",)),
)
