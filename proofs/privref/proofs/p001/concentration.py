"""Ledger: paper 001's concentration tools and its two voting examples.

Lemma 14 (one teacher's mistakes, Bernstein), Lemma 35 (pointwise Bernstein), Lemma 36
(uniform relative deviations), Lemma 37 (ERM learning bound), Example 1 (voting fails) and
Example 2 (voting wins).  Every verdict is exact: binomial and multinomial laws are Fractions,
transcendental thresholds are decided by interval arithmetic
(:mod:`privref.reference.decide`, :func:`privref.reference.stability_release.threshold_floor`).

* Lemma 36 as printed ("d + log(4/γ)") is false: point functions on N = 2^19 uniform points
  (VC dimension 1), n = ⌊4(1 + ln 10)N⌋ + 1 samples, γ = 2/5: with probability > 2/5 some point
  is unseen, and its point function violates the printed bound.  The textbook form with
  ln S_H(2n) cannot be violated there.
* Lemma 37 ("d log n") held on every tiny instance we enumerated.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import cache
from typing import Final

from privref.reference.concepts import ConceptClass, intervals, point_functions, thresholds_on
from privref.reference.decide import proved_le
from privref.reference.errors import Undecided
from privref.reference.learners.pate_teachers import majority
from privref.reference.reals import Real, exp, log, rational, sqrt
from privref.reference.stability_release import threshold_floor
from privref.reference.vc import growth_function, vc_dimension

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict

__all__ = [
    "ENTRIES",
    "binomial_pmf",
    "check_bernstein_lower_tail",
    "check_bernstein_teacher_tail",
    "check_erm_learning_bound",
    "check_example1_erm_law",
    "check_example1_first_index_not_uniform",
    "check_example1_voting_error",
    "check_example2_hoeffding",
    "check_lemma36_point_functions",
    "check_mistake_max_form",
    "check_uniform_deviation",
    "deviation_probability",
    "erm_failure_probability",
    "erm_law",
    "lower_tail_below",
    "paper_complexity_36",
    "paper_complexity_37",
    "textbook_complexity",
    "upper_tail_above",
    "voting_error",
    "voting_error_bruteforce",
]

F = Fraction
LEMMA14_DEVIATION_SCALE = F(1)
"""001 Lemma 14: the Bernstein deviation √(2mp ln(K/γ)) + (2/3) ln(K/γ) (leading 1)."""
LEMMA14_MAX_CONSTANT = F(19, 6)
"""001 Lemma 14's O(max{m Dis, log(K/γ)}): v + √(2vL) + 2L/3 <= (19/6)·max{v, L}, the 19/6."""
LEMMA35_DEVIATION_SCALE = F(1)
"""001 Lemma 35: the deviation √(2pL/n) + 2L/(3n) (leading 1)."""
LEMMA36_TERM_SCALE = F(1)
"""001 Lemma 36: the complexity term A (ln S_H(2n) or d, plus ln(4/γ)) (leading 1)."""
LEMMA37_TERM_SCALE = F(1)
"""001 Lemma 37: the complexity term A = d ln n + ln(4/γ) (leading 1)."""
EXAMPLE2_RATE = F(2)
"""001 Example 2: P(Bin(K, p) >= K/2) <= e^{−2Kξ²}, the 2."""
Complexity = Callable[[ConceptClass, int, Fraction], Real]
"""(class, n, γ) -> the complexity term A of a uniform-convergence bound."""


def _undecided(what: str, exc: Undecided) -> CheckResult:
    return CheckResult(Verdict.UNDECIDED, f"{what}: {exc}")


# ------------------------------------------------------------------ exact binomial tails


@cache
def binomial_pmf(n: int, p: Fraction) -> tuple[Fraction, ...]:
    """The exact law of Bin(n, p) as Fractions, index k = P(X = k) (001 Lemmas 14 and 35)."""
    if n < 0 or not 0 <= p <= 1:
        raise ValueError(f"need n >= 0 and p in [0, 1], got n={n}, p={p}")
    return tuple(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))


def upper_tail_above(n: int, p: Fraction, threshold: Real) -> Fraction:
    """P(Bin(n, p) > threshold) exactly; the integer cut ⌊threshold⌋ is decided by intervals."""
    cut = threshold_floor(threshold)
    return sum(binomial_pmf(n, p)[max(cut + 1, 0):], F(0))


def lower_tail_below(n: int, p: Fraction, threshold: Real) -> Fraction:
    """P(Bin(n, p) < threshold) exactly (k < t iff k < ⌈t⌉ = −⌊−t⌋, decided by intervals)."""
    ceil = -threshold_floor(-threshold)
    return sum(binomial_pmf(n, p)[:max(ceil, 0)], F(0))


_MS: Final = (1, 5, 20, 100, 300)
_PS: Final = (F(1, 1000), F(1, 100), F(1, 10), F(1, 3), F(1, 2), F(9, 10))
_GAMMAS: Final = (F(1, 2), F(1, 10), F(1, 1000))


# ------------------------------------------------------------------ Lemma 14


def check_bernstein_teacher_tail() -> CheckResult:
    """P(X > mp + s·(√(2mp ln(K/γ)) + (2/3) ln(K/γ))) <= γ/K for X ~ Bin(m, p),
    s = :data:`LEMMA14_DEVIATION_SCALE`.

    001 Lemma 14's explicit intermediate bound (Bernstein, then a union over K teachers gives
    probability 1 − γ for all of them).  s < 1 shrinks the deviation (must fail).
    """
    scale = LEMMA14_DEVIATION_SCALE
    worst = F(0)
    cases = 0
    try:
        for m in _MS:
            for p in _PS:
                for k in (1, 10, 100):
                    for gamma in _GAMMAS:
                        big_l = log(F(k) / gamma)
                        dev = (sqrt(big_l * (2 * m * p)) + big_l * F(2, 3)) * scale
                        tail = upper_tail_above(m, p, dev + m * p)
                        if tail > gamma / k:
                            return CheckResult(Verdict.VIOLATED, "Bernstein tail above γ/K",
                                               f"m={m}, p={p}, K={k}, γ={gamma}: "
                                               f"P = {float(tail):.4g} > γ/K")
                        worst = max(worst, tail * k / gamma)
                        cases += 1
    except Undecided as exc:  # pragma: no cover - intervals separate on this grid
        return _undecided("Lemma 14 tail", exc)
    return CheckResult(Verdict.HOLDS, f"{cases} (m, p, K, γ) cases: exact tail <= γ/K, largest "
                       f"ratio tail/(γ/K) = {float(worst):.4g}")


def check_mistake_max_form() -> CheckResult:
    """v + √(2vL) + (2/3)L <= c·max{v, L} with c = :data:`LEMMA14_MAX_CONSTANT` = 19/6
    (√(2vL) <= v + L/2), on a grid.

    This is how the O(max{m Dis, log(K/γ)}) of 001 Lemma 14 follows from its intermediate
    bound; the constant is near-tight (v = L gives 1 + √2 + 2/3 ≈ 3.08), so c = 3 fails.
    """
    constant = LEMMA14_MAX_CONSTANT
    grid = (F(0), F(1, 100), F(1, 3), F(1), F(2), F(7, 3), F(10), F(1000))
    cases = 0
    for v in grid:
        for big_l in grid[1:]:
            lhs = sqrt(2 * v * big_l) + v + big_l * F(2, 3)
            if not proved_le(lhs, constant * max(v, big_l)):
                return CheckResult(Verdict.VIOLATED, "max form fails",
                                   f"v={v}, L={big_l}, c={constant}")
            cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (v, L) pairs: v + √(2vL) + 2L/3 <= "
                       f"{constant}·max{{v, L}}")


# ------------------------------------------------------------------ Lemma 35


def check_bernstein_lower_tail() -> CheckResult:
    """P(p > X/n + s·(√(2pL/n) + 2L/(3n))) <= γ for X ~ Bin(n, p), L = ln(1/γ),
    s = :data:`LEMMA35_DEVIATION_SCALE`.

    001 Lemma 35 with Dis = p and Dis^ = X/n, i.e. P(X < np − s(√(2npL) + 2L/3)) <= γ, on a
    grid of n <= 300; s < 1 shrinks the deviation (must fail).
    """
    scale = LEMMA35_DEVIATION_SCALE
    worst = F(0)
    cases = 0
    for n in (1, 2, 5, 10, 30, 100, 300):
        for p in (F(1, 100), F(1, 10), F(1, 4), F(1, 2), F(3, 4), F(99, 100)):
            for gamma in (F(1, 2), F(1, 10), F(1, 100), F(1, 10 ** 4)):
                big_l = log(1 / gamma)
                dev = (sqrt(big_l * (2 * n * p)) + big_l * F(2, 3)) * scale
                tail = lower_tail_below(n, p, rational(n * p) - dev)
                if tail > gamma:
                    return CheckResult(Verdict.VIOLATED, "lower Bernstein tail above γ",
                                       f"n={n}, p={p}, γ={gamma}: P = {float(tail):.4g}")
                worst = max(worst, tail / gamma)
                cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (n, p, γ) cases: exact lower tail <= γ, largest "
                       f"ratio {float(worst):.4g}")


# ------------------------------------------------------------------ Lemmas 36 and 37


def _compositions(n: int, k: int) -> Iterator[tuple[int, ...]]:
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, k - 1):
            yield (first, *rest)


def _multinomial_law(mu: tuple[Fraction, ...], n: int) -> Iterator[tuple[tuple[int, ...],
                                                                         Fraction]]:
    """Every count vector of n i.i.d. draws from μ with its exact probability."""
    fact = [math.factorial(i) for i in range(n + 1)]
    for counts in _compositions(n, len(mu)):
        prob = F(fact[n])
        for c, w in zip(counts, mu, strict=True):
            prob = prob * w ** c / fact[c]
        if prob:
            yield counts, prob


def _mass(mu: tuple[Fraction, ...], mask: int) -> Fraction:
    return sum((w for i, w in enumerate(mu) if mask >> i & 1), F(0))


def _count(counts: tuple[int, ...], mask: int) -> int:
    return sum(c for i, c in enumerate(counts) if mask >> i & 1)


def paper_complexity_36(C: ConceptClass, n: int, gamma: Fraction) -> Real:
    """001 Lemma 36's complexity term d + ln(4/γ) (d = VC dimension)."""
    return log(4 / gamma) + vc_dimension(C)


def textbook_complexity(C: ConceptClass, n: int, gamma: Fraction) -> Real:
    """ln S_H(2n) + ln(4/γ), the relative-deviation term of Bousquet et al. (2004) (001 Lemma 36)."""
    return log(4 / gamma) + log(growth_function(C, 2 * n))


def paper_complexity_37(C: ConceptClass, n: int, gamma: Fraction) -> Real:
    """001 Lemma 37's term d·ln(n) + ln(4/γ)."""
    return log(4 / gamma) + log(F(n)) * vc_dimension(C)


def _violates(dis: Fraction, emp: Fraction, a: Real, n: int) -> bool:
    """Either printed inequality of 001 Lemma 36 fails for (Dis, Dis^) with complexity a."""
    gap = dis - emp
    if gap <= 0:
        return False
    extra = a * F(4, n)
    return (not proved_le(rational(gap) - extra, sqrt(a * F(emp, n)) * 2)
            or not proved_le(rational(gap) - extra, sqrt(a * F(dis, n)) * 2))


_Instance = tuple[ConceptClass, tuple[Fraction, ...], int]


@cache
def _instances() -> tuple[_Instance, ...]:
    """(class, marginal μ, labeling z as a mask): realizable and agnostic, uniform and skewed."""
    heavy = (F(3, 4), F(3, 16), F(1, 16))
    third = (F(1, 3), F(1, 3), F(1, 3))
    return ((thresholds_on(3), third, 0), (thresholds_on(3), heavy, 0b101),
            (point_functions(range(3), include_zero=True), (F(1, 2), F(1, 4), F(1, 4)), 0),
            (point_functions(range(3), include_zero=True), third, 0b011),
            (intervals(3), heavy, 0b010))


_NS: Final = (2, 4, 8, 16, 32, 64)
_UC_GAMMAS: Final = (F(1, 2), F(9, 10))


def deviation_probability(inst: _Instance, n: int, gamma: Fraction,
                          complexity: Complexity) -> Fraction:
    """Exact P(∃h: 001 Lemma 36's inequality fails) for n i.i.d. points, z a fixed labeling."""
    C, mu, z = inst
    a = complexity(C, n, gamma)
    losses = [m ^ z for m in C.masks]
    bad = [{s for s in range(n + 1) if _violates(_mass(mu, loss), F(s, n), a, n)}
           for loss in losses]
    if not any(bad):
        return F(0)
    return sum((p for counts, p in _multinomial_law(mu, n)
                if any(_count(counts, loss) in b for loss, b in zip(losses, bad, strict=True))),
               F(0))


def _bound_over_instances(probability: Callable[[_Instance, int, Fraction, Complexity], Fraction],
                         complexity: Complexity, scale: Fraction, name: str, failure: str,
                         event: str) -> CheckResult:
    """VIOLATED at the first tiny (instance, n, γ) case where ``probability`` exceeds γ, with the
    complexity term multiplied by ``scale``; else HOLDS with the largest ratio P/γ."""
    worst = F(0)
    cases = 0

    def term(C: ConceptClass, m: int, g: Fraction) -> Real:
        return complexity(C, m, g) * scale

    try:
        for inst in _instances():
            for n in _NS:
                for gamma in _UC_GAMMAS:
                    p = probability(inst, n, gamma, term)
                    if p > gamma:
                        return CheckResult(Verdict.VIOLATED, failure,
                                           f"{inst[0].name}, μ={inst[1]}, z={inst[2]:b}, "
                                           f"n={n}, γ={gamma}: P = {float(p):.4g}")
                    worst = max(worst, p / gamma)
                    cases += 1
    except Undecided as exc:  # pragma: no cover
        return _undecided(name, exc)
    return CheckResult(Verdict.HOLDS, f"{cases} (instance, n, γ) cases, n <= {_NS[-1]}: exact "
                       f"P({event}) <= γ; largest P/γ = {float(worst):.4g}")


def check_uniform_deviation(complexity: Complexity = textbook_complexity) -> CheckResult:
    """P(∃h ∈ H: Dis − Dis^ exceeds either bound of 001 Lemma 36) <= γ, exactly, tiny cases.

    ``complexity`` picks the term (textbook ln S_H(2n) + ln(4/γ), or the paper's d + ln(4/γ));
    :data:`LEMMA36_TERM_SCALE` multiplies it (a too-small term must fail).
    """
    return _bound_over_instances(deviation_probability, complexity, LEMMA36_TERM_SCALE, "Lemma 36",
                                 "uniform deviation bound fails", "some h violates")


_N_POINTS: Final = 1 << 19
_PF_GAMMA: Final = F(2, 5)


def check_lemma36_point_functions(textbook: bool = False, points: int = _N_POINTS,
                                  gamma: Fraction = _PF_GAMMA) -> CheckResult:
    """Point functions on N uniform points, z ≡ 0, n = ⌊4(1 + ln(4/γ))N⌋ + 1 (001 Lemma 36).

    VC dimension 1, Dis(h_x, z) = 1/N.  With the paper's term A = 1 + ln(4/γ), an unseen point
    x gives Dis − Dis^ = 1/N > 4A/n, so P(violation) >= P(some point unseen) >= S1 − S2
    (Bonferroni, S1 = N(1 − 1/N)^n, S2 = C(N, 2)(1 − 2/N)^n), decided against γ by intervals:
    VIOLATED when S1 − S2 > γ.  With ``textbook`` the term is ln S_H(2n) + ln(4/γ) where
    S_H(2n) = N (2n >= N); then 1/N <= 4A/n makes every violation impossible: HOLDS, P = 0.
    """
    big_n = points
    big_l = log(4 / gamma)
    paper_a = big_l + 1
    n = threshold_floor(paper_a * 4 * big_n) + 1
    a = big_l + log(F(big_n)) if textbook else paper_a
    try:
        if proved_le(F(1, big_n), a * F(4, n)):
            return CheckResult(Verdict.HOLDS, f"N={big_n}, n={n}, γ={gamma}: 1/N <= 4A/n with "
                               f"A = {'ln N' if textbook else 'd'} + ln(4/γ), so Dis − Dis^ <= "
                               "1/N never exceeds the bound: P(violation) = 0")
        s1 = exp(log(1 - F(1, big_n)) * n) * big_n
        s2 = exp(log(1 - F(2, big_n)) * n) * F(big_n * (big_n - 1), 2)
        if not proved_le(s1 - s2, gamma):
            return CheckResult(Verdict.VIOLATED, f"N={big_n}, n={n}, γ={gamma}: an unseen point "
                               "violates the bound, and P(some point unseen) >= S1 − S2 > γ",
                               f"point functions on {big_n} uniform points, z ≡ 0, n={n}, "
                               f"γ={gamma}: S1 − S2 ≈ {float(s1 - s2):.4f} > γ")
    except Undecided as exc:  # pragma: no cover
        return _undecided("Lemma 36 point functions", exc)
    return CheckResult(Verdict.HOLDS, "the Bonferroni bound does not exceed γ")


def erm_failure_probability(inst: _Instance, n: int, gamma: Fraction,
                            complexity: Complexity) -> Fraction:
    """Exact P(some empirical-risk minimizer violates 001 Lemma 37's bound), labels y = z."""
    C, mu, z = inst
    a = complexity(C, n, gamma)
    errs = [_mass(mu, m ^ z) for m in C.masks]
    best = min(errs)
    limit = sqrt(a * F(best, n)) * 2 + a * F(4, n) + best
    bad = [not proved_le(e, limit) for e in errs]
    if not any(bad):
        return F(0)
    losses = [m ^ z for m in C.masks]
    total = F(0)
    for counts, p in _multinomial_law(mu, n):
        emp = [_count(counts, loss) for loss in losses]
        low = min(emp)
        if any(b and e == low for b, e in zip(bad, emp, strict=True)):
            total += p
    return total


def check_erm_learning_bound(complexity: Complexity = paper_complexity_37) -> CheckResult:
    """P(an ERM has Err > Err* + 2√(Err*·A/n) + 4A/n) <= γ exactly (001 Lemma 37), tiny cases.

    Any minimizer counts (adversarial tie-breaking); A = ``complexity`` ×
    :data:`LEMMA37_TERM_SCALE`.
    """
    return _bound_over_instances(erm_failure_probability, complexity, LEMMA37_TERM_SCALE, "Lemma 37",
                                 "ERM bound fails", "some ERM violates")


# ------------------------------------------------------------------ Example 1


_H1: Final = (1, 1, 0, 0)
_H2: Final = (1, 0, 1, 0)
_H3: Final = (1, 0, 0, 1)
_EXAMPLE1: Final = (_H1, _H2, _H3)


def voting_error(k: int) -> Fraction:
    """Err(ĥ^agg_K) = (3/4)·P(Bin(K, 1/3) < K/2) for K i.i.d. teachers uniform on {h1, h2, h3}.

    001 Example 1 (labels all 1, X uniform on 4 points, ties go to 1): x1 is always right and
    each of x2, x3, x4 is right iff its one hypothesis gets >= K/2 of the votes.
    """
    pmf = binomial_pmf(k, F(1, 3))
    return F(3, 4) * sum((pmf[j] for j in range(k + 1) if 2 * j < k), F(0))


def voting_error_bruteforce(k: int, rule: Callable[[int, int], int] = majority) -> Fraction:
    """The same error by enumerating all 3^K teacher assignments (001 Example 1), vote ``rule``."""
    total = F(0)
    for choice in itertools.product(_EXAMPLE1, repeat=k):
        wrong = sum(1 for x in range(4) if rule(sum(h[x] for h in choice), k) != 1)
        total += F(wrong, 4)
    return total / F(3 ** k)


def check_example1_voting_error(rule: Callable[[int, int], int] = majority) -> CheckResult:
    """Closed form = brute force (K <= 8), K = 2 beats K = 1, and 3/4 − Err <= (3/4)e^{−K/18}.

    001 Example 1: the limit 3/4 is approached at least as fast as Hoeffding's
    P(Bin(K, 1/3) >= K/2) <= e^{−2K(1/6)²}, checked for K <= 60 and K = 301.
    """
    for k in range(1, 9):
        brute = voting_error_bruteforce(k, rule)
        if brute != voting_error(k):
            return CheckResult(Verdict.VIOLATED, "closed form differs from enumeration",
                               f"K={k}: closed {voting_error(k)}, enumerated {brute}")
    if not voting_error(2) < voting_error(1):
        return CheckResult(Verdict.VIOLATED, "K = 2 does not beat K = 1", "K=1, 2")
    for k in (*range(1, 61), 301):
        gap = F(3, 4) - voting_error(k)
        if gap < 0 or not proved_le(gap, exp(F(-k, 18)) * F(3, 4)):
            return CheckResult(Verdict.VIOLATED, "gap to 3/4 above the Hoeffding rate", f"K={k}")
    return CheckResult(Verdict.HOLDS, "closed form = enumeration of 3^K assignments for K <= 8; "
                       f"Err(K=1) = {voting_error(1)} > Err(K=2) = {voting_error(2)}; "
                       f"0 <= 3/4 − Err(K) <= (3/4)e^{{−K/18}} for K <= 60 and 301 "
                       f"(K=301: gap {float(F(3, 4) - voting_error(301)):.3g})")


def erm_law(n: int, symmetric: bool) -> tuple[Fraction, Fraction, Fraction]:
    """The exact law of the ERM over {h1, h2, h3} on n i.i.d. uniform points with label 1.

    001 Example 1: ties are broken uniformly at random (``symmetric``) or by the first index.
    """
    law = [F(0)] * 3
    for sample in itertools.product(range(4), repeat=n):
        errors = [sum(1 for x in sample if h[x] != 1) for h in _EXAMPLE1]
        best = [i for i in range(3) if errors[i] == min(errors)]
        share = F(1, 4 ** n)
        if symmetric:
            for i in best:
                law[i] += share / len(best)
        else:
            law[best[0]] += share
    return law[0], law[1], law[2]


def check_example1_erm_law(symmetric: bool = True) -> CheckResult:
    """The ERM of 001 Example 1 is exactly uniform on {h1, h2, h3} for n = 1..5 samples.

    ``symmetric`` is the tie-breaking rule under test: uniformly random ties (True) or
    first-index ties, a plain argmin (False), under which it is not uniform.
    """
    third = F(1, 3)
    for n in range(1, 6):
        law = erm_law(n, symmetric)
        if law != (third, third, third):
            return CheckResult(Verdict.VIOLATED, "ERM law is not uniform",
                               f"n={n}, {'uniform' if symmetric else 'first-index'} ties: "
                               f"law {tuple(str(p) for p in law)}")
    return CheckResult(Verdict.HOLDS, "ERM law exactly (1/3, 1/3, 1/3) for n = 1..5 (all 4^n "
                       f"samples) with {'uniformly random' if symmetric else 'first-index'} "
                       "tie-breaking")


def check_example1_first_index_not_uniform() -> CheckResult:
    """Under first-index tie-breaking (a plain argmin) the ERM of 001 Example 1 is NOT uniform:
    HOLDS when :func:`check_example1_erm_law` finds the non-uniform law (n = 1: h1 w.p. 1/2),
    VIOLATED if that reading turned out uniform."""
    result = check_example1_erm_law(symmetric=False)
    if result.verdict is Verdict.VIOLATED:
        return CheckResult(Verdict.HOLDS, "first-index ties: the ERM law is not uniform",
                           result.witness)
    return CheckResult(Verdict.VIOLATED, "first-index ties gave a uniform law", result.evidence)


# ------------------------------------------------------------------ Example 2


def check_example2_hoeffding() -> CheckResult:
    """P(Bin(K, p) >= K/2) <= e^{−rate·Kξ²} for p <= 1/2 − ξ, exactly (001 Example 2, rate
    :data:`EXAMPLE2_RATE` = 2).

    Grid: K = 1..40, 100, 250; ξ rational; p = 1/2 − ξ and p = (1/2 − ξ)/2.  A larger rate
    (a too-strong bound) must fail.
    """
    rate = EXAMPLE2_RATE
    cases = 0
    worst = F(0)
    for k in (*range(1, 41), 100, 250):
        for xi in (F(1, 100), F(1, 20), F(1, 10), F(1, 4), F(2, 5), F(49, 100)):
            bound = exp(-rate * k * xi * xi)
            for p in (F(1, 2) - xi, (F(1, 2) - xi) / 2):
                pmf = binomial_pmf(k, p)
                tail = sum((pmf[j] for j in range(k + 1) if 2 * j >= k), F(0))
                if not proved_le(tail, bound):
                    return CheckResult(Verdict.VIOLATED, "majority error above e^{−2Kξ²}",
                                       f"K={k}, ξ={xi}, p={p}: P = {float(tail):.4g}")
                cases += 1
                if p == F(1, 2) - xi:
                    worst = max(worst, tail)
    return CheckResult(Verdict.HOLDS, f"{cases} (K, ξ, p) cases: exact P(Bin(K, p) >= K/2) <= "
                       f"e^{{−{rate}Kξ²}}")


# ------------------------------------------------------------------ entries


_BIN = "proofs.p001.concentration.binomial_pmf"

ENTRIES: tuple[Entry, ...] = (
    Entry(
        paper="001", number="Lemma 14",
        statement=("001 Lemma 14 (L374–386): under Lemma 13's conditions, with probability "
                   "1 − γ, every teacher k makes at most O(max{m·Dis(ĥ_k, h*), log(K/γ)}) "
                   "mistakes against h* on the m public points (Bernstein, Lemma 35's upper "
                   "tail, plus a union bound over the K teachers)."),
        kind=Kind.LEMMA, status=Status.NOT_CHECKABLE,
        reason=("The conclusion is an O(·) with an unspecified constant.  What is checked: the "
                "explicit intermediate bound mp + √(2mp ln(K/γ)) + (2/3) ln(K/γ) (step entry) "
                "and the algebra turning it into (19/6)·max{mp, ln(K/γ)}."),
        illustration=("v + √(2vL) + 2L/3 <= (19/6)·max{v, L} on a grid (√(2vL) <= v + L/2); "
                      "the constant is near-tight (3 fails at v = L)."),
        checks=(Check("v + √(2vL) + 2L/3 <= (19/6)max{v, L}", check_mistake_max_form,
                      constant="LEMMA14_MAX_CONSTANT"),
                Check("exact Bernstein upper tail <= γ/K", check_bernstein_teacher_tail,
                      constant="LEMMA14_DEVIATION_SCALE")),
        notes=("Given the realized teacher, its mistakes on the m i.i.d. public points are "
               "Bin(m, Dis(ĥ_k, h*)); with the explicit bound each fails w.p. <= γ/K, so all K "
               "hold w.p. >= 1 − γ.  Hence the O-constant 19/6 suffices."),
        subjects=(_BIN, "proofs.p001.concentration.upper_tail_above")),
    Entry(
        paper="001", number="Lemma 14", step="explicit Bernstein tail with log(K/γ)",
        statement=("The explicit form behind 001 Lemma 14's proof (L380–384): for X ~ Bin(m, p), "
                   "P(X > mp + √(2mp ln(K/γ)) + (2/3) ln(K/γ)) <= γ/K."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exact Bernstein upper tail <= γ/K", check_bernstein_teacher_tail,
                      constant="LEMMA14_DEVIATION_SCALE"),),
        notes=("Exact binomial sums (Fractions) on m ∈ {1, 5, 20, 100, 300}, 6 values of p, "
               "K ∈ {1, 10, 100}, γ ∈ {1/2, 1/10, 1/1000}; the integer cut is decided by "
               "intervals.  Analytically it is Bernstein: t = √(2vL) + 2L/3 gives "
               "t²/(2(v + t/3)) >= L.  Mutation: a deviation scaled by 1/2 fails."),
        subjects=(_BIN, "proofs.p001.concentration.upper_tail_above")),
    Entry(
        paper="001", number="Lemma 35",
        statement=("001 Lemma 35 (L1060–1066): for a fixed h, with probability 1 − γ over n "
                   "i.i.d. points, Dis(h, z) <= Dis^(h, z) + √(2·Dis·ln(1/γ)/n) + 2 ln(1/γ)/(3n). "
                   "Checked with Dis = p, n·Dis^ ~ Bin(n, p)."),
        kind=Kind.LEMMA, status=Status.CHECKED,
        checks=(Check("exact Bernstein lower tail <= γ", check_bernstein_lower_tail,
                      constant="LEMMA35_DEVIATION_SCALE"),),
        notes=("Exact binomial lower tails for n <= 300, p ∈ {1/100 … 99/100}, γ down to 10^-4. "
               "It is Bernstein's inequality for the lower tail (variance p(1 − p) <= p). "
               "Mutation: the deviation scaled by 1/2 fails."),
        subjects=(_BIN, "proofs.p001.concentration.lower_tail_below")),
    Entry(
        paper="001", number="Lemma 36",
        statement=("001 Lemma 36 (L1070–1080): with probability >= 1 − γ, for all h in a class "
                   "of VC dimension d, Dis − Dis^ <= 2√((d + ln(4/γ))·Dis^/n) + 4(d + ln(4/γ))/n, "
                   "and the same with Dis in the square root."),
        kind=Kind.LEMMA, status=Status.REFUTED,
        counterexample=("Point functions on N = 2^19 uniform points (VC dimension 1), z ≡ 0, "
                        "γ = 2/5, n = ⌊4(1 + ln 10)N⌋ + 1: an unseen point's function has "
                        "Dis − Dis^ = 1/N > 4(1 + ln 10)/n, and some point is unseen with "
                        "probability >= S1 − S2 ≈ 0.499 > γ (Bonferroni, intervals)."),
        corrected=("The textbook relative-deviation bound (Bousquet, Boucheron and Lugosi 2004): "
                   "the same two inequalities with ln S_H(2n) + ln(4/γ) in place of "
                   "d + ln(4/γ), where S_H is the growth function (ln S_H(2n) <= d ln(2en/d))."),
        checks=(Check("printed d + ln(4/γ) fails on point functions",
                      check_lemma36_point_functions, expect=Verdict.VIOLATED),
                Check("ln S_H(2n) + ln(4/γ) cannot fail on the same instance",
                      lambda: check_lemma36_point_functions(textbook=True)),
                Check("ln S_H(2n) + ln(4/γ): exact P(violation) <= γ on tiny cases",
                      check_uniform_deviation, constant="LEMMA36_TERM_SCALE"),
                Check("printed form: exact P(violation) <= γ on tiny cases",
                      lambda: check_uniform_deviation(paper_complexity_36),
                      constant="LEMMA36_TERM_SCALE")),
        notes=("The printed term d + ln(4/γ) is a union bound over ~e^d hypotheses, but a VC class "
               "can have S_H(2n) ≫ e^d patterns: point functions have VC dimension 1 and N "
               "patterns.  With n ≈ 13.2N each point is unseen w.p. ≈ e^{−13.2}, but there are "
               "N = 2^19 of them.  On tiny enumerable instances (|X| = 3, n <= 64) both forms "
               "hold with a wide margin: exact enumeration cannot reach the needed N; the "
               "counterexample is decided by interval arithmetic on the Bonferroni bound. "
               "Growth function of point functions without the zero concept on 2n >= N "
               "points: N (each seen point gives its own pattern, an unseen one the zero "
               "pattern).  Mutations: the counterexample turns HOLDS with ln S_H(2n); the "
               "tiny-case check fails with the term scaled by 1/100."),
        subjects=("proofs.p001.concentration.check_lemma36_point_functions",
                  "proofs.p001.concentration.deviation_probability",
                  "reference.vc.growth_function")),
    Entry(
        paper="001", number="Lemma 37",
        statement=("001 Lemma 37 (L1082–1088): with probability 1 − γ the ERM satisfies "
                   "Err(ĥ) <= Err(h*) + 2√(Err(h*)(d ln n + ln(4/γ))/n) + 4(d ln n + ln(4/γ))/n. "
                   "Checked exactly on tiny instances with adversarial tie-breaking."),
        kind=Kind.LEMMA, status=Status.CHECKED,
        checks=(Check("d ln n + ln(4/γ): exact P(some ERM violates) <= γ",
                      check_erm_learning_bound, constant="LEMMA37_TERM_SCALE"),
                Check("ln S_H(2n) + ln(4/γ): exact P(some ERM violates) <= γ",
                      lambda: check_erm_learning_bound(textbook_complexity),
                      constant="LEMMA37_TERM_SCALE")),
        notes=("Instances: thresholds, point functions (with zero) and intervals on 3 points, "
               "uniform and skewed marginals, realizable and agnostic deterministic labels, "
               "n <= 64, γ ∈ {1/2, 9/10}; every minimizer of the empirical error counts. "
               "The textbook derivation gives ln S_H(2n) (from Lemma 36's corrected form); "
               "d ln n is below ln S_H(2n) for small d (d = 1: ln n < ln(2n + 1)), so the "
               "printed constant is not what the cited proof gives; we found no instance where "
               "it fails (the factor 4 leaves slack).  The paper's point-function "
               "counterexample to Lemma 36 does not transfer: d ln n > ln N there.  Weakness, "
               "recorded: the largest P/γ is ≈ 0.40, and the check still passes with the "
               "complexity term divided by 10 (it first fails at 1/20: point functions on 3 "
               "points, n = 2), so it cannot detect a halved term.  We could not make it: on the "
               "instances small enough to enumerate exactly (3 points, n <= 64) the printed "
               "bound holds with a factor of more than 10 to spare, and its slack (the factor 4, "
               "d ln n against ln(4/γ)) is a property of the bound, not of the instances; a "
               "sharper test needs sample sizes beyond exact enumeration."),
        subjects=("proofs.p001.concentration.erm_failure_probability",)),
    Entry(
        paper="001", number="Example 1",
        statement=("001 Example 1 (L434–444, Figure 1): X uniform on 4 points, all labels 1, "
                   "H = {h1, h2, h3} each of error 1/2; with K i.i.d. teachers uniform on H and "
                   "ties to 1, Err(ĥ^agg_K) = (3/4)·P(Bin(K, 1/3) < K/2) (1/2, 1/3, 5/9, 4/9, "
                   "16/27 for K = 1..5), tending to 3/4 exponentially fast."),
        kind=Kind.EXAMPLE, status=Status.CHECKED,
        checks=(Check("closed form, non-monotone start, rate to 3/4",
                      check_example1_voting_error),),
        notes=("The error is not monotone in K (K = 2 gives 1/3 < 1/2 since ties go to 1), "
               "which the paper does not claim otherwise.  Mutation: majority with ties to 0 "
               "disagrees with the closed form at K = 2."),
        subjects=("reference.learners.pate_teachers.majority",
                  "proofs.p001.concentration.voting_error")),
    Entry(
        paper="001", number="Example 1", step="ERM is uniform over {h1, h2, h3}",
        statement=("001 Example 1 (L438): 'the empirical risk minimizer ĥ will be a uniform "
                   "distribution over h1, h2, h3' (over the i.i.d. sample; the tie-breaking "
                   "rule among empirical risk minimizers is not stated)."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("symmetric (uniformly random) ties: exactly uniform, n = 1..5",
                      check_example1_erm_law),
                Check("first-index ties (plain argmin): not uniform",
                      check_example1_first_index_not_uniform)),
        notes=("Two readings of 'the ERM'.  (a) Ties broken uniformly at random (or by any rule "
               "symmetric under permuting h1, h2, h3): the law is exactly uniform for every n, by "
               "the symmetry permuting x2, x3, x4 (checked exactly for n = 1..5) — the statement "
               "HOLDS.  (b) A fixed rule, e.g. a plain argmin with first-index ties: with n = 1 "
               "sample the ERM is h1 with probability 1/2 (x1 ties all three) — the statement "
               "FAILS.  Not REFUTED: the example's point (voting fails) needs only (a), and "
               "symmetric tie-breaking is the natural reading."),
        subjects=("proofs.p001.concentration.erm_law",)),
    Entry(
        paper="001", number="Example 2",
        statement=("001 Example 2 (L448–454): if every teacher errs at x with probability "
                   "<= 1/2 − ξ, the majority errs with probability "
                   "P(Σ_k 1(ĥ_k(x) ≠ y) >= K/2) <= e^{−2Kξ²} (Hoeffding)."),
        kind=Kind.EXAMPLE, status=Status.CHECKED,
        checks=(Check("exact tail <= e^{−2Kξ²}", check_example2_hoeffding),),
        notes=("The display writes '>= k/2' where K/2 is meant.  Exact binomial tails, the "
                "exponential enclosed by intervals.  Mutation: rate 4 (e^{−4Kξ²}) fails."),
        subjects=(_BIN,)),
)
