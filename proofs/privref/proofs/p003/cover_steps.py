"""Ledger: the constant-carrying steps inside the proof of 003 Lemma 3.3 (the α-cover).

The proof of 003 Lemma 3.3 runs: every h has a representative h̃ ∈ H̃ that
agrees with it on T_pub (P1); so if H̃ is not an α-cover the event Bad occurs
(P2); Bad is an event about H_Δ = {h_1 Δ h_2} against h_0 ≡ 0 (P7); the
double-sample argument bounds it by 2·G_{H_Δ}(2n)·e^{−αn/4} (P8); G_{H_Δ} <=
G_H² (P5) <= (em/d)^{2d} by Sauer (P6); and "standard manipulation" turns
inequality (1) into n_pub = O((d log(1/α) + log(1/β))/α) (P4).  Inequality (1)
itself (P3) is the entry '003 Lemma 3.3 / inequality (1)' in
:mod:`privref.proofs.p003.upper`.

Every check is exact: supports of T_pub are enumerated with their exact
probabilities (inclusion–exclusion), growth functions by enumeration
(:func:`privref.reference.vc.growth_function`), and every transcendental comparison
is decided by interval arithmetic (:mod:`privref.reference.decide`).
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from functools import cache
from typing import Final

from privref.reference.concepts import ConceptClass, explicit, intervals, point_functions, thresholds_on
from privref.reference.decide import all_hold, at_most, floor, greater_than, less_than, proved_le
from privref.reference.errors import InvalidArgument
from privref.reference.learners.semiprivate import alpha_cover
from privref.reference.reals import Real, exp, log, rational
from privref.reference.vc import (
    growth_function,
    projection_size,
    sauer_bound_exponential,
    sauer_shelah_bound,
    vc_dimension,
    xor_class,
)

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import decimal
from ..p000.labelboost import check_sauer_form
from .upper import STEP_INEQ_1, all_functions, bad_probability, inequality_1_rhs, is_bad, mass

__all__ = [
    "DOUBLE_SAMPLE_FACTOR",
    "ENTRIES",
    "LARGE_ALPHA_CONSTANT",
    "SMALL_ALPHA_CONSTANT",
    "check_bad_via_xor_class",
    "check_cover_needs_subset",
    "check_double_sample",
    "check_no_uniform_constant",
    "check_not_cover_implies_bad",
    "check_representatives",
    "check_sample_size_large_alpha",
    "check_sample_size_small_alpha",
    "check_sauer_corrected",
    "check_sauer_unrestricted",
    "check_xor_growth",
    "check_zero_reference_needed",
    "smallest_public_size",
]

F = Fraction

DOUBLE_SAMPLE_FACTOR = 2
"""The leading 2 of 003 Lemma 3.3's double-sample bound 2·G_{H_Δ}(2n)·e^{−αn/4}."""
SMALL_ALPHA_CONSTANT = 30
"""The constant C = 30 of corrected 003 Lemma 3.3 P4 (a): n_pub >= C·(d ln(1/α) + ln(1/β))/α."""
LARGE_ALPHA_CONSTANT = 50
"""The constant C = 50 of corrected 003 Lemma 3.3 P4 (b): n_pub >= C·(d ln(e/α) + ln(1/β))/α."""


# ------------------------------------------------------------------ test families


@cache
def _classes() -> tuple[ConceptClass, ...]:
    """Structured classes plus six seeded random classes on 5 points (integer randomness)."""
    rng = random.Random(3003)
    randoms = []
    for j, size in enumerate((2, 3, 4, 6, 9, 14)):
        masks = sorted({rng.getrandbits(5) for _ in range(size)})
        randoms.append(explicit(range(5), [tuple((m >> i) & 1 for i in range(5)) for m in masks],
                                name=f"random[5 points, seed 3003, #{j}]"))
    return (thresholds_on(6), intervals(5), point_functions(range(5), include_zero=True),
            all_functions(4), *randoms)


def _marginals(k: int) -> tuple[tuple[Fraction, ...], ...]:
    """Uniform, geometric-skewed, and one with a null point, on k points."""
    uniform = tuple(F(1, k) for _ in range(k))
    skew = (*tuple(F(1, 2 ** (i + 1)) for i in range(k - 1)), F(1, 2 ** (k - 1)))
    null = (F(0), *tuple(F(1, k - 1) for _ in range(k - 1)))
    return uniform, skew, null


_ALPHAS: Final = (F(1, 10), F(1, 4), F(1, 2))


def _subsets(k: int) -> range:
    return range(1 << k)


def _show(mu: tuple[Fraction, ...]) -> str:
    return "(" + ", ".join(str(w) for w in mu) + ")"


def _points(H: ConceptClass, a: int) -> tuple[object, ...]:
    return tuple(x for i, x in enumerate(H.domain.points) if a >> i & 1)


# ------------------------------------------------------------------ P1, P2


def check_representatives() -> CheckResult:
    """P1: for every T̃ ⊆ X and h ∈ H some h̃ ∈ H̃_{T̃} ⊆ H equals h on T̃; |H̃| = |Π_H(T̃)|."""
    cases = 0
    for H in _classes():
        masks = set(H.masks)
        for a in _subsets(len(H.domain)):
            cover = [c.mask for c in alpha_cover(H, _points(H, a))]
            ok = (all(c in masks for c in cover)
                  and len(cover) == projection_size(H, _points(H, a))
                  and all(any((h ^ c) & a == 0 for c in cover) for h in H.masks))
            if not ok:
                return CheckResult(Verdict.VIOLATED, "a concept has no representative on T̃",
                                   f"{H.name}, T̃ = {_points(H, a)}")
            cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (class, T̃) cases over {len(_classes())} "
                       "classes, every subset T̃ of the domain")


def _cover_fails(H: ConceptClass, cover: list[int], mu: tuple[Fraction, ...],
                 alpha: Fraction) -> bool:
    return any(min(mass(mu, h ^ c) for c in cover) > alpha for h in H.masks)


def check_not_cover_implies_bad() -> CheckResult:
    """P2: for every support A of T_pub, H̃_A not an α-cover ⇒ Bad(A) (deterministic, exact)."""
    cases = failures = 0
    for H in _classes():
        k = len(H.domain)
        for mu in _marginals(k):
            for alpha in _ALPHAS:
                heavy = [g for g in xor_class(H).masks if mass(mu, g) > alpha]
                for a in _subsets(k):
                    cover = [c.mask for c in alpha_cover(H, _points(H, a))]
                    cases += 1
                    if _cover_fails(H, cover, mu, alpha):
                        failures += 1
                        if not is_bad(heavy, a):
                            return CheckResult(Verdict.VIOLATED, "not a cover, yet no Bad",
                                               f"{H.name}, μ = {_show(mu)}, α = {alpha}, A = {a:b}")
    return CheckResult(Verdict.HOLDS, f"{cases} (class, μ, α, A) cases; H̃ failed to be an "
                       f"α-cover in {failures} of them, each time with Bad")


def check_cover_needs_subset() -> CheckResult:
    """The step needs H̃ ⊆ H (003-E7): representatives taken outside H break it.

    Off-class representatives: the pattern on A, the complement of H's canonical
    representative elsewhere.  HOLDS when some (A, α) has no Bad yet no α-cover.
    """
    H = thresholds_on(6)
    mu = _marginals(6)[0]
    alpha = F(1, 4)
    heavy = [g for g in xor_class(H).masks if mass(mu, g) > alpha]
    full = (1 << 6) - 1
    for a in _subsets(6):
        if is_bad(heavy, a):
            continue
        off = [(c.mask & a) | (~c.mask & full & ~a) for c in alpha_cover(H, _points(H, a))]
        if _cover_fails(H, off, mu, alpha):
            return CheckResult(Verdict.HOLDS, f"{H.name}, uniform, α = 1/4, A = "
                               f"{_points(H, a)}: no Bad, but off-class representatives are "
                               "not an α-cover (H̃ ⊆ H is needed)")
    return CheckResult(Verdict.VIOLATED, "off-class representatives never failed",
                       f"{H.name}, uniform, α = 1/4")


# ------------------------------------------------------------------ P5, P6, P7


def check_xor_growth() -> CheckResult:
    """P5: Π_{H_Δ}(V) = {p ⊕ q : p, q ∈ Π_H(V)} for every V, so |Π_{H_Δ}(V)| <= |Π_H(V)|²."""
    cases = 0
    for H in _classes():
        x = xor_class(H)
        for a in _subsets(len(H.domain)):
            pats = {m & a for m in H.masks}
            if {m & a for m in x.masks} != {p ^ q for p in pats for q in pats}:
                return CheckResult(Verdict.VIOLATED, "Π_{H_Δ}(V) is not the XOR of Π_H(V)²",
                                   f"{H.name}, V = {_points(H, a)}")
            cases += 1
        for m in range(len(H.domain) + 1):
            if growth_function(x, m) > growth_function(H, m) ** 2:
                return CheckResult(Verdict.VIOLATED, "G_{H_Δ}(m) > G_H(m)²", f"{H.name}, m={m}")
    return CheckResult(Verdict.HOLDS, f"{cases} (class, V) cases, and G_(H_Δ)(m) <= G_H(m)² "
                       "for every m")


def check_sauer_unrestricted() -> CheckResult:
    """P6 as printed (no m >= d): ALL[8 points] (d = 8) at m = 1 and H_Δ at m = 2."""
    H = all_functions(8)
    d = vc_dimension(H)
    g1, g2 = growth_function(H, 1), growth_function(xor_class(H), 2)
    r1 = sauer_bound_exponential(1, d, require_hypothesis=False)
    r2 = sauer_bound_exponential(2, d, require_hypothesis=False) * \
        sauer_bound_exponential(2, d, require_hypothesis=False)
    verdict = all_hold((at_most(g1, r1), at_most(g2, r2)))
    text = (f"d = {d}: G_H(1) = {g1} vs (e/8)^8 ≈ {decimal(r1, 3)}; "
            f"G_(H_Δ)(2) = {g2} vs (2e/8)^16 ≈ {decimal(r2, 3)}")
    if verdict is Verdict.VIOLATED:
        return CheckResult(verdict, "Sauer's (em/d)^d fails for m < d: " + text, text)
    return CheckResult(verdict, text if verdict is Verdict.HOLDS else f"undecided: {text}")


def check_sauer_corrected() -> CheckResult:
    """P6 with m >= d: G_H(m) <= Σ_{i<=d} C(m,i) exactly; Σ <= (em/d)^d by intervals."""
    cases = 0
    for H in _classes():
        d = vc_dimension(H)
        x = xor_class(H)
        for m in range(len(H.domain) + 1):
            s = sauer_shelah_bound(m, d)
            if growth_function(H, m) > s or growth_function(x, m) > s * s:
                return CheckResult(Verdict.VIOLATED, "growth exceeds the Sauer–Shelah sum",
                                   f"{H.name}, m = {m}, d = {d}")
            cases += 1
    form = check_sauer_form()
    if form.verdict is not Verdict.HOLDS:
        return form
    return CheckResult(Verdict.HOLDS, f"G_H(m) <= Σ C(m,i) and G_(H_Δ)(m) <= (Σ C(m,i))² on "
                       f"{cases} (class, m) cases; {form.evidence}")


def _bad_by_pairs(H: ConceptClass, mu: tuple[Fraction, ...], alpha: Fraction, a: int) -> bool:
    """Bad(A) read literally: ∃ h_1, h_2 ∈ H, dis(h_1, h_2; μ) > α, equal on A."""
    return any(mass(mu, h1 ^ h2) > alpha and (h1 ^ h2) & a == 0
               for h1, h2 in itertools.combinations(H.masks, 2))


def _bad_against(x: ConceptClass, mu: tuple[Fraction, ...], alpha: Fraction, a: int,
                 h0: int) -> bool:
    """∃ h ∈ H_Δ: dis(h, h_0; μ) > α and h = h_0 on A."""
    return any(mass(mu, h ^ h0) > alpha and (h ^ h0) & a == 0 for h in x.masks)


def check_bad_via_xor_class() -> CheckResult:
    """P7 with h_0 ≡ 0: Bad(A) ⇔ ∃ h ∈ H_Δ, dis(h, 0) > α, h = 0 on A, for every A (exact)."""
    cases = bad = 0
    for H in _classes():
        x = xor_class(H)
        for mu in _marginals(len(H.domain)):
            for alpha in _ALPHAS:
                for a in _subsets(len(H.domain)):
                    lhs = _bad_by_pairs(H, mu, alpha, a)
                    if lhs != _bad_against(x, mu, alpha, a, 0):
                        return CheckResult(Verdict.VIOLATED, "the two events differ",
                                           f"{H.name}, μ = {_show(mu)}, α = {alpha}, A = {a:b}")
                    cases += 1
                    bad += lhs
    return CheckResult(Verdict.HOLDS, f"events equal on {cases} (class, μ, α, A) cases "
                       f"({bad} of them Bad)")


def check_zero_reference_needed() -> CheckResult:
    """h_0 is undefined in the paper (003-E6); h_0 ≡ 1 would change the event.

    HOLDS when some case has Bad(A) differing from the h_0 ≡ 1 event.
    """
    for H in _classes():
        x = xor_class(H)
        ones = (1 << len(H.domain)) - 1
        for mu in _marginals(len(H.domain)):
            for alpha in _ALPHAS:
                for a in _subsets(len(H.domain)):
                    if _bad_by_pairs(H, mu, alpha, a) != _bad_against(x, mu, alpha, a, ones):
                        return CheckResult(Verdict.HOLDS, f"{H.name}, μ = {_show(mu)}, α = {alpha}, "
                                           f"A = {_points(H, a)}: h_0 ≡ 1 gives a different "
                                           "event, so h_0 must be the zero function")
    return CheckResult(Verdict.VIOLATED, "h_0 ≡ 1 never differed", "all cases")


# ------------------------------------------------------------------ P8


_DS_SIZES: Final = (1, 2, 3, 5, 10, 20, 40, 80, 160)


def check_double_sample() -> CheckResult:
    """P8: P[Bad] <= 2·G_{H_Δ}(2n)·e^{−αn/4} exactly, including every n < 8/α (no m >= 8/α)."""
    cases = small = useful = 0
    for H in _classes()[:4]:
        x = xor_class(H)
        for mu in _marginals(len(H.domain)):
            for alpha in _ALPHAS:
                for n in _DS_SIZES:
                    p_bad = bad_probability(H, mu, alpha, n)
                    rhs = exp(-alpha * n / 4) * rational(
                        DOUBLE_SAMPLE_FACTOR * growth_function(x, 2 * n))
                    verdict = at_most(p_bad, rhs)
                    if verdict is not Verdict.HOLDS:
                        return CheckResult(verdict, "double-sample bound fails"
                                           if verdict is Verdict.VIOLATED else
                                           "double-sample bound undecided",
                                           f"{H.name}, μ = {_show(mu)}, α = {alpha}, n = {n}")
                    cases += 1
                    small += n * alpha < 8
                    useful += less_than(rhs, 1) is Verdict.HOLDS  # a count shown, not a verdict
    return CheckResult(Verdict.HOLDS, f"{cases} (class, μ, α, n) cases, {small} with n < 8/α; "
                       f"the bound is below 1 in {useful} of them")


# ------------------------------------------------------------------ P4


def _admissible(n: int, d: int, alpha: Fraction, beta: Fraction) -> Verdict:
    """(1) at n <= β (HOLDS: n is admissible), three-valued."""
    return at_most(inequality_1_rhs(n, d, alpha), beta)


def smallest_public_size(d: int, alpha: Fraction, beta: Fraction) -> int:
    """The smallest n_pub with 2n_pub >= d and 2(2e·n/d)^{2d}e^{−αn/4} <= β (003 Lemma 3.3, (1)).

    As a function of n the logarithm of (1) is concave with its maximum at
    n = 8d/α and exceeds log β at n = d/2 (it is 2d + log 2 − αd/8 − log β > 0
    there), so the admissible n form the ray beyond a single crossing, found
    by bisection with every comparison decided by interval arithmetic
    (:class:`~privref.reference.errors.Undecided` when one cannot be decided).
    """
    if not (0 < alpha < 1 and 0 < beta < 1) or d < 1:
        raise InvalidArgument(f"need d >= 1 and alpha, beta in (0, 1); got d={d}, "
                              f"alpha={alpha}, beta={beta}")
    lo = max(-(-d // 2), math.floor(8 * d / alpha))  # (1) > β at lo: before the crossing

    def admissible(n: int) -> bool:  # raises Undecided when interval arithmetic cannot tell
        return proved_le(inequality_1_rhs(n, d, alpha), beta)

    if admissible(lo):
        raise ArithmeticError(f"(1) <= β at the peak n = {lo}: d={d}, α={alpha}, β={beta}")
    hi = 2 * lo
    while not admissible(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if admissible(mid) else (mid, hi)
    return hi


_INVENTORY_TABLE: Final = ((1, F(1, 10), F(1, 10)), (1, F(1, 100), F(1, 10)),
                           (2, F(1, 10), F(1, 10)), (5, F(1, 10), F(1, 10)),
                           (10, F(1, 10), F(1, 10)), (10, F(1, 100), F(1, 100)))


def _log_size(d: int, alpha: Fraction, beta: Fraction, offset: int) -> Real:
    """(d·(offset + ln(1/α)) + ln(1/β))/α: the O(·) expression, offset 0 as printed."""
    return (log(1 / alpha) * d + log(1 / beta) + d * offset) / alpha


def check_no_uniform_constant() -> CheckResult:
    """P4 read uniformly over α, β ∈ (0,1) fails: at d = 1 every admissible n is >= 48.

    (1) decreases in α and 2(2e·n)^2·e^{−n/4} > 1 > β for n <= 47, so no n <= 47
    works for any α, β < 1, while (ln(1/α) + ln(1/β))/α → 0 as α, β → 1.
    """
    for n in range(1, 48):
        above = greater_than(inequality_1_rhs(n, 1, F(1)), 1)
        if above is Verdict.UNDECIDED:
            return CheckResult(Verdict.UNDECIDED, f"(1) vs 1 undecided at n = {n}")
        if above is Verdict.VIOLATED:
            return CheckResult(Verdict.HOLDS, f"(1) <= 1 already at n = {n}: no obstruction")
    needed: list[str] = []
    for k in (1, 3, 6):
        a = 1 - F(1, 10**k)
        size = _log_size(1, a, a, 0)
        c = F(48) / size.enclose(64).hi          # any valid constant must be at least this
        needed.append(f"α = β = 1 − 10^-{k}: C >= {decimal(c, 3)}")
    text = ("d = 1: (1) > 1 for every n <= 47 (any α, β < 1), so n_pub >= 48, while "
            "C·(ln(1/α) + ln(1/β))/α < 48 unless " + "; ".join(needed))
    return CheckResult(Verdict.VIOLATED, "no constant C works for all α, β ∈ (0,1): " + text,
                       text)


def _grid_check(alphas: tuple[Fraction, ...], constant: int, offset: int) -> CheckResult:
    betas = (1 - F(1, 10**6), F(1, 2), F(1, 10), F(1, 1000), F(1, 10**9))
    cases = 0
    for d in (1, 2, 3, 5, 10, 30, 100, 1000):
        for alpha in alphas:
            for beta in betas:
                n = floor(_log_size(d, alpha, beta, offset) * constant)
                if n < 8 * d / alpha:
                    return CheckResult(Verdict.UNDECIDED, "size before the peak of (1)",
                                       f"d={d}, α={alpha}, β={beta}")
                verdict = _admissible(n, d, alpha, beta)
                if verdict is not Verdict.HOLDS:
                    return CheckResult(verdict, "(1) > β at the prescribed size"
                                       if verdict is Verdict.VIOLATED else
                                       "(1) vs β undecided at the prescribed size",
                                       f"d={d}, α={alpha}, β={beta}, n={n}")
                cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} grid points (d <= 1000; β from 10^-9 to "
                       "1 − 10^-6); (1) decreases beyond 8d/α, so every larger n works too")


_SMALL_ALPHAS: Final = (F(1, 10), F(1, 11), F(1, 20), F(1, 50), F(1, 100), F(1, 1000),
                        F(1, 10**6))


def check_sample_size_small_alpha() -> CheckResult:
    """Corrected P4 (a): for α <= 1/10, n >= 30·(d ln(1/α) + ln(1/β))/α makes (1) <= β."""
    table = [f"({d}, {a}, {b}) → {smallest_public_size(d, a, b)}" for d, a, b in _INVENTORY_TABLE]
    grid = _grid_check(_SMALL_ALPHAS, SMALL_ALPHA_CONSTANT, 0)
    if grid.verdict is not Verdict.HOLDS:
        return grid
    return CheckResult(Verdict.HOLDS, f"C = {SMALL_ALPHA_CONSTANT}, α <= 1/10: {grid.evidence}. "
                       "Smallest n_pub for (d, α, β): " + ", ".join(table))


def check_sample_size_large_alpha() -> CheckResult:
    """Corrected P4 (b): for all α, β ∈ (0,1), n >= 50·(d ln(e/α) + ln(1/β))/α makes (1) <= β."""
    alphas = (1 - F(1, 10**6), F(99, 100), F(9, 10), F(1, 2), F(1, 4), *_SMALL_ALPHAS)
    grid = _grid_check(alphas, LARGE_ALPHA_CONSTANT, 1)
    if grid.verdict is not Verdict.HOLDS:
        return grid
    return CheckResult(Verdict.HOLDS, f"C = {LARGE_ALPHA_CONSTANT} with ln(e/α), α up to "
                       f"1 − 10^-6: {grid.evidence}")


# ------------------------------------------------------------------ entries

_SUBJECTS: Final = ("reference.learners.semiprivate", "reference.vc")

ENTRIES: tuple[Entry, ...] = (
    Entry(
        paper="003", number="Lemma 3.3", step="every h has h̃ ∈ H̃ agreeing with it on T_pub",
        statement=("By construction of H̃_{T_pub} (Algorithm 1, Steps 1–5), for every h ∈ H some "
                   "h̃ ∈ H̃_{T_pub} satisfies h̃(x̂_j) = h(x̂_j) for all j, i.e. diŝ(h̃, h; T_pub) = 0."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exhaustive over every T̃ ⊆ X on 10 classes", check_representatives),),
        notes=("Also checked: H̃ ⊆ H and |H̃| = |Π_H(T̃)| (one canonical representative per "
               "pattern, chosen from T_pub and H only)."),
        subjects=_SUBJECTS),
    Entry(
        paper="003", number="Lemma 3.3", step="H̃ not an α-cover ⇒ Bad",
        statement=("If dis(h̃, h; D_X) > α for the representative h̃ of some h ∈ H then Bad = "
                   "{∃ h_1, h_2 ∈ H: dis(h_1, h_2; D_X) > α, diŝ(h_1, h_2; T_pub) = 0} occurs; "
                   "hence P[H̃ not an α-cover] <= P[Bad]."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exhaustive over supports, marginals and α on 10 classes",
                      check_not_cover_implies_bad),
                Check("the step needs H̃ ⊆ H: off-class representatives break it",
                      check_cover_needs_subset)),
        notes=("Deterministic in the support of T_pub; the probability form is checked in "
               "'003 Lemma 3.3'. The argument uses H̃ ⊆ H, which Algorithm 1 guarantees "
               "(003-E7); the second check shows it is needed."),
        subjects=_SUBJECTS),
    STEP_INEQ_1,
    Entry(
        paper="003", number="Lemma 3.3",
        step="(1) <= β once n_pub = O((d log(1/α) + log(1/β))/α)",
        statement=("'Via standard manipulation', 2(2e·n_pub/d)^{2d}·e^{−α n_pub/4} <= β when "
                   "n_pub = O((d log(1/α) + log(1/β))/α), for α, β ∈ (0, 1)."),
        kind=Kind.PROOF_STEP, status=Status.REFUTED,
        counterexample=("Read uniformly over α, β ∈ (0,1) no constant works: at d = 1, (1) > 1 "
                        "for every n_pub <= 47 whatever α, β < 1, but (ln(1/α) + ln(1/β))/α "
                        "→ 0 as α, β → 1 (at α = β = 1 − 10^-6 a constant would have to exceed "
                        "2.4·10^7)."),
        corrected=("(a) For α <= 1/10 and every β ∈ (0,1): n_pub >= 30·(d ln(1/α) + "
                   "ln(1/β))/α gives (1) <= β (the inventory's C ≈ 30; the largest ratio found "
                   "is 29.79 at d = 1, α = 1/10, β → 1). (b) For all α, β ∈ (0,1): n_pub >= "
                   "50·(d ln(e/α) + ln(1/β))/α (sup ratio about 48, at α, β → 1). Both "
                   "checked on grids of d <= 1000, β from 10^-9 to 1 − 10^-6."),
        checks=(Check("uniform reading: n_pub >= 48 at d = 1 while the O(·) term → 0",
                      check_no_uniform_constant, Verdict.VIOLATED),
                Check("corrected (a): C = 30 for α <= 1/10, and the smallest n_pub table",
                      check_sample_size_small_alpha, constant="SMALL_ALPHA_CONSTANT"),
                Check("corrected (b): C = 50 with ln(e/α) for all α", check_sample_size_large_alpha,
                      constant="LARGE_ALPHA_CONSTANT")),
        notes=("The asymptotic statement (α, β → 0) is fine; only the reading over the whole "
               "range fails, because log(1/α) and log(1/β) vanish near 1 while (1) needs n_pub "
               "of order d/α regardless. Smallest n_pub (exact, interval-decided) agree with "
               "inventory §3: 789, 9915, 1444, 3407, 6678, 88357. Grid checks only: between "
               "grid points the statement is not proved."),
        subjects=("proofs.p003.upper.inequality_1_rhs",)),
    Entry(
        paper="003", number="Lemma 3.3", step="|Π_{H_Δ}(V)| <= |Π_H(V)|²",
        statement=("For every V with |V| = m, every dichotomy of H_Δ on V is determined by a pair "
                   "of dichotomies of H, so |Π_{H_Δ}(V)| <= |Π_H(V)|² and G_{H_Δ}(m) <= "
                   "G_H(m)²."),
        kind=Kind.PROOF_STEP, status=Status.PROVED,
        parameter_range=("every class H and finite V (analytic: (p, q) ↦ p ⊕ q maps Π_H(V)² "
                         "onto Π_{H_Δ}(V)); exhaustive check on 10 classes, every V ⊆ X"),
        checks=(Check("Π_{H_Δ}(V) = Π_H(V) ⊕ Π_H(V) for every V; G_{H_Δ} <= G_H²",
                      check_xor_growth),),
        subjects=("reference.vc.xor_class", "reference.vc.growth_function")),
    Entry(
        paper="003", number="Lemma 3.3", step="Sauer: G_H(m) <= (em/d)^d",
        statement=("By Sauer's lemma G_H(m) <= (e·m/d)^d, hence G_{H_Δ}(m) <= (G_H(m))² <= "
                   "(e·m/d)^{2d} (printed without a condition on m)."),
        kind=Kind.PROOF_STEP, status=Status.REFUTED,
        counterexample=("H = all functions on 8 points (d = 8), m = 1: G_H(1) = 2 > (e/8)^8 ≈ "
                        "1.8·10^-4; and G_{H_Δ}(2) = 4 > (2e/8)^16. Sauer's exponential form "
                        "needs m >= d (003-E5)."),
        corrected=("For m >= d >= 1: G_H(m) <= Σ_{i<=d} C(m, i) <= (e·m/d)^d, and G_{H_Δ}(m) <= "
                   "(e·m/d)^{2d}; in (1) this is the hypothesis 2n_pub >= d."),
        checks=(Check("(em/d)^d at m < d", check_sauer_unrestricted, Verdict.VIOLATED),
                Check("corrected: exact growth functions and the Sauer form for m >= d",
                      check_sauer_corrected)),
        notes="The corrected Sauer form is the same check as 000's Claim 4.2 step (one source).",
        subjects=("reference.vc.growth_function", "reference.vc.sauer_bound_exponential")),
    Entry(
        paper="003", number="Lemma 3.3", step="Bad as an event of H_Δ with h_0 ≡ 0",
        statement=("P[Bad] = P[∃ h ∈ H_Δ : dis(h, h_0; D_X) > α and diŝ(h, h_0; T_pub) = 0], "
                   "where h_0 (undefined in the paper) is the constant-0 function."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("the events coincide for every support, marginal and α",
                      check_bad_via_xor_class),
                Check("h_0 must be ≡ 0: h_0 ≡ 1 gives a different event",
                      check_zero_reference_needed)),
        notes="003-E6: h_0 is not defined in the text; only h_0 ≡ 0 makes the equality hold.",
        subjects=("reference.vc.xor_class",)),
    Entry(
        paper="003", number="Lemma 3.3", step="double-sample bound 2·G_{H_Δ}(2n)·e^{−αn/4}",
        statement=("By the double-sample argument, P[∃ h ∈ H_Δ: dis(h, 0; D_X) > α, h = 0 on "
                   "T_pub] <= 2·G_{H_Δ}(2n_pub)·e^{−α n_pub/4}."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exact P[Bad] against the bound, n from 1 to 160", check_double_sample,
                      constant="DOUBLE_SAMPLE_FACTOR"),),
        notes=("The textbook statement is 2·G(2m)·2^{−αm/2} for m >= 8/α; e^{−αm/4} is looser. "
               "The hypothesis m >= 8/α is not stated; the exact cases include n < 8/α and no "
               "violation occurs there (when |X| <= 2n the union bound |H_Δ|·(1−α)^n already "
               "implies it)."),
        subjects=("proofs.p003.upper.bad_probability", "reference.vc.growth_function")),
)
