"""Ledger entries for 003's cited lemmas (2.5, 2.6) and lower bounds (Theorems 4.1–4.3).

Lemmas 2.5, 2.6 and Theorem 4.3 are cited black boxes, and Theorems 4.1/4.2
quantify over every learner and are asymptotic, so all five are NOT_CHECKABLE
as stated; each carries illustration checks that can fail:

* exact Littlestone / VC dimensions (:func:`privref.reference.vc.littlestone_dimension`)
  of thresholds on growing domains (Ldim = ⌊log2(n+1)⌋ → ∞, VC = 1) and of
  point functions (Ldim = VC = 1);
* exact error bookkeeping on realizable distributions (Lemma 2.5's easy
  converse) and accuracy-parameter monotonicity (how Lemma 2.6 is used).

The constant-carrying steps of the proofs of Theorems 4.1 and 4.2 get their
own proof-step entries, checked in exact rationals (and, for the logarithm,
by :mod:`privref.reference.decide`).  The ``check_*`` functions read their
constants from public module globals at run time, so tests can patch a broken
constant and watch VIOLATED.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from functools import cache

from privref.reference.concepts import ConceptClass, point_functions, thresholds, thresholds_on
from privref.reference.decide import less_than
from privref.reference.reals import log, rational
from privref.reference.vc import littlestone_dimension, vc_dimension

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import fixed
from ..p004.vc import exhaustive_classes

__all__ = [
    "CORRECTED_BETA",
    "CORRECTED_PRIVATE_RATIO",
    "ENTRIES",
    "LEMMA_26_ACCURACY",
    "LOWER_CONSTANT",
    "PAPER_BETA",
    "REDUCTION_SLACK",
    "TARGET_BETA",
    "THEOREM_42_ACCURACY",
    "budget",
    "check_accuracy_monotone",
    "check_budget",
    "check_delta_defined",
    "check_delta_monotone",
    "check_npub_table",
    "check_npub_threshold",
    "check_point_functions_ldim",
    "check_realizable_excess",
    "check_thresholds_ldim",
    "check_thresholds_ldim_powers",
    "npub_bound_table",
    "reduction_sizes",
]

LOWER_CONSTANT = Fraction(1, 1600)
"""Theorems 4.1/4.2 conclude n_pub > LOWER_CONSTANT / α, from 100·n_pub·α > 1/16."""

PAPER_BETA = Fraction(1, 18)
"""The confidence parameter at which Theorems 4.1/4.2 invoke the semi-private learner A."""

CORRECTED_BETA = Fraction(1, 24)
"""A β_A that leaves room for Lemma 4.4's two 0.01 failure terms inside 1/16 (003-E1)."""

TARGET_BETA = Fraction(1, 16)
"""Confidence of the private learner produced by Lemma 4.4 and excluded by Theorem 4.3."""

CORRECTED_PRIVATE_RATIO = 10
"""The 10 of the corrected hypothesis n_priv > 10·n_pub (003 Theorem 4.1's δ(n_priv) <= δ(ñ) step)."""

THEOREM_42_ACCURACY = Fraction(1, 16)
"""The α = β = 1/16 of the (1/16, 1/16, 0.1)-pure learner in the proof of 003 Theorem 4.2."""

LEMMA_26_ACCURACY = Fraction(1, 10)
"""The α = β = 0.1 of 003 Lemma 2.6's (0.1, 0.1, 0.1)-pure private learner."""

REDUCTION_SLACK = Fraction(1, 100) + Fraction(1, 100)
"""Lemma 4.4's extra failure terms: exhaustion (eq. 2) and public-sample TV (eq. 3)."""


# ------------------------------------------------ Littlestone / VC illustrations


def check_thresholds_ldim(max_points: int = 40) -> CheckResult:
    """Ldim(thresholds on n points) = ⌊log2(n+1)⌋ and VC = 1 for n = 1..max_points (exact)."""
    for n in range(1, max_points + 1):
        C = thresholds_on(n)
        ld, vc = littlestone_dimension(C), vc_dimension(C)
        want = (n + 1).bit_length() - 1
        if ld != want or vc != 1:
            return CheckResult(Verdict.VIOLATED, f"thresholds on {n} points: Ldim {ld} "
                               f"(expected ⌊log2({n + 1})⌋ = {want}), VC {vc} (expected 1)",
                               witness=f"n = {n}")
    return CheckResult(Verdict.HOLDS, f"n = 1..{max_points}: Ldim(thresholds on n points) = "
                                      f"⌊log2(n+1)⌋ (reaching {(max_points + 1).bit_length() - 1})"
                                      " while VC = 1 throughout")


def check_thresholds_ldim_powers(max_k: int = 9) -> CheckResult:
    """Ldim(THRESH_k) = k on 2^k points for k = 1..max_k: unbounded in k, VC stays 1."""
    values: list[int] = []
    for k in range(1, max_k + 1):
        C = thresholds(k)
        ld, vc = littlestone_dimension(C), vc_dimension(C)
        values.append(ld)
        if ld != k or vc != 1:
            return CheckResult(Verdict.VIOLATED, f"THRESH_{k} on {1 << k} points: Ldim {ld} "
                               f"(expected {k}), VC {vc} (expected 1)", witness=f"k = {k}")
    return CheckResult(Verdict.HOLDS, f"Ldim(THRESH_k) = k on 2^k points for k = 1..{max_k} "
                                      f"({values}); VC = 1; so every finite bound on Ldim is "
                                      "exceeded on a large enough finite domain")


def check_point_functions_ldim(sizes: Iterable[int] = range(2, 17)) -> CheckResult:
    """Point functions on k >= 2 points (with and without the zero concept): Ldim = VC = 1."""
    n = 0
    for k in sizes:
        for zero in (False, True):
            C = point_functions(range(k), include_zero=zero)
            ld, vc = littlestone_dimension(C), vc_dimension(C)
            n += 1
            if ld != 1 or vc != 1:
                return CheckResult(Verdict.VIOLATED, f"{C.name} (zero={zero}): Ldim {ld}, "
                                   f"VC {vc}; expected 1, 1", witness=f"k = {k}")
    return CheckResult(Verdict.HOLDS, f"{n} point-function classes on 2..16 points: Ldim = VC = 1"
                                      " (bounded, independent of the domain size)")


# --------------------------------------------------- Lemma 2.5 / 2.6 illustrations

_MARGINAL_WEIGHTS: tuple[tuple[int, ...], ...] = (
    (1, 0, 0), (1, 1, 1), (3, 1, 0), (2, 5, 7), (0, 1, 4), (9, 0, 1),
)


def _marginal(n: int, weights: tuple[int, ...]) -> tuple[Fraction, ...]:
    w = weights[:n] if sum(weights[:n]) > 0 else (1,) * n     # all-zero prefix: uniform
    return tuple(Fraction(x, sum(w)) for x in w)


def _err(labels: tuple[int, ...], target: tuple[int, ...], px: tuple[Fraction, ...]) -> Fraction:
    return sum((p for a, b, p in zip(labels, target, px, strict=True) if a != b), Fraction(0))


def check_realizable_excess(classes: Iterable[ConceptClass]) -> CheckResult:
    """For realizable D = (D_X, h*) with h* ∈ H: min_H err(·;D) = 0, so excess error = error.

    This is the easy converse of Lemma 2.5 (an agnostic learner is a realizable
    learner with the same α, β); computed exactly over every class and h*.
    """
    cases = 0
    for C in classes:
        n = len(C.domain)
        for weights in _MARGINAL_WEIGHTS:
            px = _marginal(n, weights)
            for target in C:
                errs = [_err(h.labels, target.labels, px) for h in C]
                cases += 1
                if min(errs) != 0:
                    return CheckResult(Verdict.VIOLATED,
                                       f"min_H err = {min(errs)} != 0 on a realizable D",
                                       witness=f"{C.name}, D_X = {px}, h* = {target.name}")
                if any(e < 0 or e > 1 for e in errs):
                    return CheckResult(Verdict.VIOLATED, "an error outside [0, 1]",
                                       witness=f"{C.name}, D_X = {px}")
    return CheckResult(Verdict.HOLDS, f"{cases} realizable (class, D_X, h*) cases on <= 3 points: "
                                      "min_H err = 0, so the agnostic excess guarantee is the "
                                      "realizable error guarantee")


def check_accuracy_monotone(grid: int = 32) -> CheckResult:
    """An (α, β)-accurate learner is (α′, β′)-accurate when α <= α′ and β <= β′.

    Here α = β = :data:`THEOREM_42_ACCURACY` and α′ = β′ = :data:`LEMMA_26_ACCURACY` (read at
    run time).  Exact: α <= α′, β <= β′, and for every output-error law on the grid
    {i/grid} with two atoms (rational weights j/grid), P[err > α′] <= P[err > α],
    so P[err > α] <= β implies P[err > α′] <= β′.
    """
    a = b = THEOREM_42_ACCURACY
    a2 = b2 = LEMMA_26_ACCURACY
    if not (a <= a2 and b <= b2):
        return CheckResult(Verdict.VIOLATED, f"({a}, {b}) is not componentwise <= ({a2}, {b2})",
                           witness=f"strong = ({a}, {b}), weak = ({a2}, {b2})")
    laws = 0
    for i in range(grid + 1):
        for k in range(i, grid + 1):
            for j in range(grid + 1):
                w = Fraction(j, grid)
                law = ((Fraction(i, grid), w), (Fraction(k, grid), 1 - w))
                p_strong = sum((q for e, q in law if e > a), Fraction(0))
                p_weak = sum((q for e, q in law if e > a2), Fraction(0))
                laws += 1
                if p_weak > p_strong or (p_strong <= b and p_weak > b2):
                    return CheckResult(Verdict.VIOLATED, "monotonicity failed",
                                       witness=f"law {law}")
    return CheckResult(Verdict.HOLDS, f"({a}, {b}) <= ({a2}, {b2}) componentwise; P[err > α′] <= "
                                      f"P[err > α] on {laws} two-atom error laws (exact)")


# ------------------------------------------------------ Theorem 4.1 / 4.2 steps


def check_npub_threshold(alphas: Iterable[Fraction] | None = None,
                         max_npub: int = 4000) -> CheckResult:
    """100·n·α > 1/16  ⇔  n > LOWER_CONSTANT/α, for n = 1..max_npub and α on a rational grid (exact).

    Reads :data:`LOWER_CONSTANT` at run time.
    """
    constant = LOWER_CONSTANT
    grid = list(alphas) if alphas is not None else [
        *(Fraction(1, k) for k in (100, 160, 999, 1000, 1599, 1600, 1601, 3200, 10_000)),
        Fraction(3, 1000), Fraction(7, 16_000), Fraction(1, 6400), Fraction(2, 3201)]
    checked = 0
    for alpha in grid:
        for n in range(1, max_npub + 1):
            lhs = 100 * n * alpha > TARGET_BETA
            rhs = n > constant / alpha
            checked += 1
            if lhs != rhs:
                return CheckResult(Verdict.VIOLATED,
                                   f"100·n·α > 1/16 is {lhs} but n > {constant}/α is {rhs}",
                                   witness=f"n_pub = {n}, α = {alpha}")
    return CheckResult(Verdict.HOLDS, f"equivalence exact on {checked} pairs (n_pub, α) "
                                      f"({len(grid)} values of α, n_pub <= {max_npub})")


def reduction_sizes(n_priv: int, n_pub: int) -> int:
    """ñ = ⌈n_priv/(10·n_pub)⌉, the sample size of Lemma 4.4's private learner B."""
    return -(-n_priv // (10 * n_pub))


def check_delta_defined(n_priv: int, n_pub: int) -> CheckResult:
    """Is δ(ñ) = 1/(100·ñ²·log ñ) defined, and δ(n_priv) <= δ(ñ)?  (ñ from :func:`reduction_sizes`).

    VIOLATED when ñ = 1 or n_priv = 1 (log 1 = 0: the bound of Theorem 4.3 the
    proof applies at sample size ñ does not exist), or when the inequality fails.
    """
    nt = reduction_sizes(n_priv, n_pub)
    if nt < 2 or n_priv < 2:
        return CheckResult(Verdict.VIOLATED, f"ñ = ⌈{n_priv}/(10·{n_pub})⌉ = {nt}: "
                           "100·ñ²·log ñ = 0, so δ(ñ) is undefined",
                           witness=f"(n_priv, n_pub) = ({n_priv}, {n_pub}), ñ = {nt}")
    if nt > n_priv:
        return CheckResult(Verdict.VIOLATED, f"ñ = {nt} > n_priv = {n_priv}",
                           witness=f"(n_priv, n_pub) = ({n_priv}, {n_pub})")
    if nt < n_priv:
        below = less_than(rational(nt * nt) * log(nt), rational(n_priv * n_priv) * log(n_priv))
        if below is not Verdict.HOLDS:
            return CheckResult(below, f"ñ² ln ñ < n_priv² ln n_priv: {below.value}",
                               witness=f"(n_priv, n_pub) = ({n_priv}, {n_pub}), ñ = {nt}")
    return CheckResult(Verdict.HOLDS, f"ñ = {nt} in [2, {n_priv}]: δ(n_priv) <= δ(ñ)")


def check_delta_monotone(max_npub: int = 10, max_npriv: int = 300) -> CheckResult:
    """Corrected step: for every n_pub <= max_npub and 10·n_pub < n_priv <= max_npriv (the 10 is
    :data:`CORRECTED_PRIVATE_RATIO`, read at run time),
    ñ >= 2 and 1/(100·n_priv²·ln n_priv) <= 1/(100·ñ²·ln ñ) (decided exactly)."""
    pairs = 0
    for n_pub in range(1, max_npub + 1):
        for n_priv in range(CORRECTED_PRIVATE_RATIO * n_pub + 1, max_npriv + 1):
            pairs += 1
            r = check_delta_defined(n_priv, n_pub)
            if r.verdict is not Verdict.HOLDS:
                return r
    return CheckResult(Verdict.HOLDS, f"{pairs} pairs with n_priv > "
                       f"{CORRECTED_PRIVATE_RATIO}·n_pub: ñ >= 2 and "
                       "n_priv²·ln n_priv >= ñ²·ln ñ (strict when ñ < n_priv)")


def budget(beta_a: Fraction) -> Fraction:
    """β_A + 0.01 + 0.01: Lemma 4.4's failure budget when A runs at confidence β_A."""
    return beta_a + REDUCTION_SLACK


def check_budget(beta_a: Fraction) -> CheckResult:
    """HOLDS iff budget(β_A) <= TARGET_BETA = 1/16 (exact rationals; read at run time)."""
    total = budget(beta_a)
    if total > TARGET_BETA:
        return CheckResult(Verdict.VIOLATED, f"{beta_a} + 1/100 + 1/100 = {total} "
                           f"≈ {fixed(total, 4)} > {TARGET_BETA} ≈ {fixed(TARGET_BETA, 4)}",
                           witness=f"β_A = {beta_a}")
    return CheckResult(Verdict.HOLDS, f"{beta_a} + 1/100 + 1/100 = {total} "
                                      f"≈ {fixed(total, 4)} <= {TARGET_BETA} ≈ {fixed(TARGET_BETA, 4)}")


def npub_bound_table(alphas: Iterable[Fraction]) -> tuple[tuple[Fraction, int], ...]:
    """(α, least integer n_pub with n_pub > α⁻¹/1600) — the bound of Theorems 4.1/4.2."""
    return tuple((a, math.floor(LOWER_CONSTANT / a) + 1) for a in alphas)


def check_npub_table() -> CheckResult:
    """Instantiations: at α = 1/100 (Lemma 4.4's largest α) the bound is n_pub >= 1, vacuous;
    it exceeds 1 exactly when α <= 1/1600; at α = 10⁻⁴ it is n_pub >= 7; at 10⁻⁶, 626."""
    table = npub_bound_table([Fraction(1, 100), Fraction(1, 1600), Fraction(1, 1601),
                              Fraction(1, 10_000), Fraction(1, 10**6)])
    want = (1, 2, 2, 7, 626)
    got = tuple(n for _, n in table)
    if got != want:
        return CheckResult(Verdict.VIOLATED, f"least n_pub {got}, expected {want}",
                           witness=str(table))
    # the bound is vacuous (least n_pub = 1) exactly on α >= 1/1600
    for k in range(100, 3201):
        a = Fraction(1, k)
        if (npub_bound_table([a])[0][1] == 1) != (a > Fraction(1, 1600)):
            return CheckResult(Verdict.VIOLATED, "vacuity threshold is not α = 1/1600",
                               witness=f"α = {a}")
    return CheckResult(Verdict.HOLDS, "least n_pub allowed: α = 1/100 → 1 (vacuous), 1/1600 → 2, "
                                      "1/1601 → 2, 10⁻⁴ → 7, 10⁻⁶ → 626; vacuous exactly for α > 1/1600 "
                                      "(checked on α = 1/k, k = 100..3200)")


# --------------------------------------------------------------- shared checks


@cache
def _tiny_classes() -> tuple[ConceptClass, ...]:
    return exhaustive_classes(3)


LDIM_THRESH = Check("exact: Ldim(thresholds on n points) = ⌊log2(n+1)⌋, VC = 1, n = 1..40",
                    check_thresholds_ldim)
LDIM_POWERS = Check("exact: Ldim(THRESH_k) = k on 2^k points, k = 1..9 (unbounded), VC = 1",
                    check_thresholds_ldim_powers)
LDIM_POINTS = Check("exact: point functions on 2..16 points have Ldim = VC = 1",
                    check_point_functions_ldim)
NPUB_EQUIV = Check("exact: 100·n_pub·α > 1/16 ⇔ n_pub > 1/(1600α) on a rational grid",
                   check_npub_threshold, constant="LOWER_CONSTANT")
NPUB_TABLE = Check("exact: instantiations of n_pub > 1/(1600α) (vacuous for α > 1/1600)",
                   check_npub_table, constant="LOWER_CONSTANT")
MONOTONE = Check("exact: (1/16, 1/16)-accuracy implies (0.1, 0.1)-accuracy",
                 check_accuracy_monotone, constant="LEMMA_26_ACCURACY")
BUDGET_PAPER = Check("exact: 1/18 + 0.01 + 0.01 <= 1/16 (paper's β_A)",
                     lambda: check_budget(PAPER_BETA), expect=Verdict.VIOLATED)
BUDGET_FIXED = Check("exact: 1/24 + 0.01 + 0.01 <= 1/16 (corrected β_A)",
                     lambda: check_budget(CORRECTED_BETA), constant="TARGET_BETA")

# ------------------------------------------------------------------ entries

_L25 = Entry(
    paper="003", number="Lemma 2.5",
    statement=("(Special case of [BNS15, Thm 4.16].) Any class H that is privately learnable "
               "under the realizability assumption is also privately learnable in the agnostic "
               "setting."),
    kind=Kind.LEMMA, status=Status.NOT_CHECKABLE,
    checks=(Check("exact: on realizable D, min_H err = 0, so agnostic excess = realizable error "
                  "(every class on <= 3 points)",
                  lambda: check_realizable_excess(_tiny_classes())),),
    reason=("Cited black box ([BNS15]) about learnability of arbitrary (possibly infinite) "
            "classes: it asserts the existence of learners for every α, β, with sample sizes "
            "not given; no finite computation decides it."),
    illustration=("The easy converse, exactly: on a realizable distribution (D_X, h*) the "
                  "minimum error over H is 0, so an agnostic learner's excess-error guarantee is "
                  "a realizable error guarantee with the same (α, β)."),
    notes=("003-E8: Theorem 4.2's proof applies Lemma 2.5 to *pure* learners "
           "(pure-realizable ⇒ pure-agnostic); the lemma as printed does not say 'pure'. "
           "Presumably [BNS15, Thm 4.16] covers the pure case; we record it as an unverified "
           "dependency of Theorem 4.2."),
    subjects=("proofs.p003.lower.check_realizable_excess",),
)

_L26 = Entry(
    paper="003", number="Lemma 2.6",
    statement=("(From [DRV10, Thm 6.1].) Under realizability, if H has a (0.1, 0.1, 0.1)-pure "
               "private learner (tuple (α, β, ε)), then H is privately learnable by a pure "
               "private algorithm."),
    kind=Kind.LEMMA, status=Status.NOT_CHECKABLE,
    checks=(MONOTONE,),
    reason=("Cited black box (private boosting, [DRV10]) quantified over all classes and all "
            "accuracy targets; not a fixed finite statement."),
    illustration=("How Theorem 4.2 uses it: a (1/16, 1/16, 0.1) learner is a (0.1, 0.1, 0.1) "
                  "learner, since 1/16 <= 1/10 and P[err > α′] <= P[err > α] for α <= α′ "
                  "(checked exactly on a grid of error laws)."),
    notes=("The paper notes no analogue is known for approximate DP ([ABM19]); that is why the "
           "dichotomy (Theorem 4.2) is stated for pure learners only.  003-E8: using "
           "(0.1,0.1,0.1) to exclude (1/16,1/16,0.1) learners is the implicit monotonicity "
           "checked here."),
    subjects=("proofs.p003.lower.check_accuracy_monotone",),
)

_T41 = Entry(
    paper="003", number="Theorem 4.1",
    statement=("If H has infinite Littlestone dimension (e.g. thresholds over ℝ), every "
               "semi-private learner for H (Def 2.3: ε = 0.1, δ negligible, agnostic; even "
               "with labeled public data) needs n_pub = Ω(1/α); the proof gives "
               "n_pub > 1/(1600α) for α <= 1/100."),
    kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
    checks=(LDIM_POWERS, NPUB_EQUIV, NPUB_TABLE),
    reason=("Quantified over every semi-private learner, asymptotic (Ω), and about infinite "
            "classes; it rests on the cited Theorem 4.3 ([ALMM19])."),
    illustration=("The hypothesis: thresholds have Ldim k on 2^k points (unbounded) with VC 1.  "
                  "The conclusion's arithmetic: 100·n_pub·α > 1/16 ⇔ n_pub > 1/(1600α), and "
                  "its instantiations (vacuous, n_pub >= 1, for α > 1/1600)."),
    notes=("Proof steps are separate entries: '/ 100·n_pub·α > 1/16 ⇔ n_pub > 1/(1600α)' "
           "(PROVED), '/ δ(n_priv) <= δ(ñ) for Theorem 4.3 at ñ' (REFUTED at ñ = 1, "
           "003-E3), '/ β_A = 1/18 fits Lemma 4.4's 1/16 budget' (REFUTED, 003-E1).  With "
           "the corrections (β_A = 1/24, n_priv > 10·n_pub; Def 2.3 learners work for every β "
           "and every large n_priv) the conclusion n_pub > 1/(1600α) is unchanged.  003-E4: "
           "δ = negl(n_priv) gives δ <= 1/(100 n_priv² log n_priv) only for large n_priv."),
    subjects=("reference.vc.littlestone_dimension", "reference.concepts.thresholds"),
)

_T41_EQUIV = Entry(
    paper="003", number="Theorem 4.1", step="100·n_pub·α > 1/16 ⇔ n_pub > 1/(1600α)",
    statement=("For α > 0 and n_pub > 0: 100·n_pub·α > 1/16 if and only if "
               "n_pub > 1/(1600α)."),
    kind=Kind.PROOF_STEP, status=Status.PROVED,
    checks=(NPUB_EQUIV,),
    parameter_range="all real α > 0 and n_pub > 0 (analytic: divide by 100α > 0); exact grid "
                    "check n_pub = 1..4000 on 13 values of α",
    notes="Multiply both sides by the positive 1/(100α): 1/(16·100α) = 1/(1600α).",
    subjects=("proofs.p003.lower.check_npub_threshold",),
)

_T41_DELTA = Entry(
    paper="003", number="Theorem 4.1", step="δ(n_priv) <= δ(ñ) for Theorem 4.3 at ñ",
    statement=("With δ(n) = 1/(100·n²·log n) and ñ = ⌈n_priv/(10·n_pub)⌉, A's privacy "
               "δ(n_priv) is at most δ(ñ), so Theorem 4.3 applies to Lemma 4.4's learner B at "
               "sample size ñ (used silently in the proof)."),
    kind=Kind.PROOF_STEP, status=Status.REFUTED,
    checks=(Check("exact: (n_priv, n_pub) = (10, 1) gives ñ = 1 and δ(1) undefined",
                  lambda: check_delta_defined(10, 1), expect=Verdict.VIOLATED),
            Check("exact: (n_priv, n_pub) = (50, 5) gives ñ = 1 and δ(1) undefined",
                  lambda: check_delta_defined(50, 5), expect=Verdict.VIOLATED),
            Check("exact: corrected, n_priv > 10·n_pub (n_pub <= 10, n_priv <= 300)",
                  check_delta_monotone, constant="CORRECTED_PRIVATE_RATIO")),
    counterexample=("(n_priv, n_pub) = (10, 1): ñ = ⌈10/10⌉ = 1 and 100·1²·log 1 = 0, so "
                    "Theorem 4.3's δ at sample size ñ is undefined (003-E3); the same "
                    "happens whenever n_priv <= 10·n_pub."),
    corrected=("If n_priv > 10·n_pub then 2 <= ñ <= n_priv and, since n² log n is increasing "
               "on n >= 2, 1/(100·n_priv²·log n_priv) <= 1/(100·ñ²·log ñ) (any log base > 1)."),
    notes=("Harmless for the Ω(1/α) conclusion: Def 2.3 learners work for every n_priv, so one "
           "may take n_priv large.  The corrected check decides n² ln n monotonicity with "
           "reference.decide (never floats)."),
    subjects=("proofs.p003.lower.check_delta_defined",),
)

_BUDGET_NOTES = ("003-E1: Lemma 4.4's proof loses 0.01 (exhaustion, eq. 2) and 0.01 "
                 "(public-sample TV, eq. 3) on top of A's β, so invoking A at β_A = 1/18 gives "
                 "17/225 ≈ 0.0756 > 1/16.  Def 2.3 learners work for every β, so using "
                 "n_priv(α, 1/24), n_pub(α, 1/24) repairs the proof with the bound n_pub > "
                 "1/(1600α) unchanged.  The exhaustion term is < 0.01 only for ñ >= 3 "
                 "(003-E2, Lemma 4.4 / Claim 4.6 entries).")

_T41_BUDGET = Entry(
    paper="003", number="Theorem 4.1", step="β_A = 1/18 fits Lemma 4.4's 1/16 budget",
    statement=("Running A at confidence β_A = 1/18 leaves room for Lemma 4.4's two further "
               "failure terms (0.01 each): 1/18 + 0.01 + 0.01 <= 1/16."),
    kind=Kind.PROOF_STEP, status=Status.REFUTED,
    checks=(BUDGET_PAPER, BUDGET_FIXED),
    counterexample="1/18 + 1/100 + 1/100 = 17/225 ≈ 0.0756 > 1/16 = 0.0625.",
    corrected=("With β_A = 1/24: 1/24 + 1/100 + 1/100 = 37/600 ≈ 0.0617 <= 1/16; any "
               "β_A <= 1/16 − 1/50 = 17/400 works."),
    notes=_BUDGET_NOTES,
    subjects=("proofs.p003.lower.check_budget",),
)

_T42 = Entry(
    paper="003", number="Theorem 4.2",
    statement=("Every class H satisfies exactly one of: (1) H is learnable by a pure private "
               "learner; (2) every pure semi-private learner for H needs n_pub = Ω(1/α) (the "
               "proof gives n_pub > 1/(1600α))."),
    kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
    checks=(LDIM_POINTS, LDIM_POWERS, NPUB_EQUIV),
    reason=("A dichotomy over all classes, quantified over every (pure) learner and "
            "asymptotic; it rests on the cited Lemmas 2.5 and 2.6.  Which side a class is on "
            "cannot be decided by computation in general; an implementation can only label "
            "classes by their proven side."),
    illustration=("Side 1: point functions (pure privately learnable [BKN10, background]) have "
                  "Ldim = VC = 1 on every domain size.  Side 2: thresholds over an infinite "
                  "domain, whose Ldim on 2^k points is k (unbounded) while VC = 1."),
    notes=("The Ldim of a class does not decide the pure side (pure private learnability is "
           "characterized by representation dimension [background]); the Ldim checks only "
           "illustrate the two examples.  Proof steps: '/ (1/16,1/16,0.1) ⇒ (0.1,0.1,0.1)' "
           "(PROVED), '/ 100·n_pub·α > 1/16 ⇔ n_pub > 1/(1600α)' (PROVED), '/ β_A = 1/18 fits "
           "Lemma 4.4's 1/16 budget' (REFUTED, 003-E1).  003-E8: uses the pure form of Lemma 2.5."),
    subjects=("reference.vc.littlestone_dimension", "reference.concepts.point_functions"),
)

_T42_MONO = Entry(
    paper="003", number="Theorem 4.2", step="(1/16,1/16,0.1) learner ⇒ (0.1,0.1,0.1) learner",
    statement=("A (1/16, 1/16, 0.1)-pure private learner (tuple (α, β, ε)) is a "
               "(0.1, 0.1, 0.1)-pure private learner, so Lemma 2.6 excludes it."),
    kind=Kind.PROOF_STEP, status=Status.PROVED,
    checks=(MONOTONE,),
    parameter_range="the fixed constants (α, β) = (1/16, 1/16) vs (1/10, 1/10); analytic for "
                    "any error law, exact grid check on two-atom laws",
    notes=("Analytic: {err > 1/10} ⊆ {err > 1/16}, so P[err > 1/10] <= P[err > 1/16] <= 1/16 "
           "<= 1/10; ε and the sample size are unchanged."),
    subjects=("proofs.p003.lower.check_accuracy_monotone",),
)

_T42_EQUIV = Entry(
    paper="003", number="Theorem 4.2", step="100·n_pub·α > 1/16 ⇔ n_pub > 1/(1600α)",
    statement=_T41_EQUIV.statement,
    kind=Kind.PROOF_STEP, status=Status.PROVED,
    checks=(NPUB_EQUIV,),
    parameter_range=_T41_EQUIV.parameter_range,
    notes="Same arithmetic as in Theorem 4.1's proof.",
    subjects=("proofs.p003.lower.check_npub_threshold",),
)

_T42_BUDGET = Entry(
    paper="003", number="Theorem 4.2", step="β_A = 1/18 fits Lemma 4.4's 1/16 budget",
    statement=_T41_BUDGET.statement,
    kind=Kind.PROOF_STEP, status=Status.REFUTED,
    checks=(BUDGET_PAPER, BUDGET_FIXED),
    counterexample=_T41_BUDGET.counterexample,
    corrected=_T41_BUDGET.corrected,
    notes=_BUDGET_NOTES + "  Theorem 4.2 invokes the pure SP learner at β = 1/18 as well.",
    subjects=("proofs.p003.lower.check_budget",),
)

_T43 = Entry(
    paper="003", number="Theorem 4.3",
    statement=("(Restatement of [ALMM19, Cor. 2].) If H has infinite Littlestone dimension "
               "(e.g. thresholds over an infinite X ⊆ ℝ), then for every n there is no "
               "(1/16, 1/16, 0.1, 1/(100·n²·log n))-private learner for H with n private "
               "samples (tuple (α, β, ε, δ)), even in the realizable case."),
    kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
    checks=(LDIM_THRESH, LDIM_POWERS, LDIM_POINTS),
    reason=("Cited lower bound ([ALMM19]) quantified over all learners and about infinite "
            "classes; the dependence on the domain (a log* lower bound) is not observable "
            "empirically."),
    illustration=("Its hypothesis on finite truncations: thresholds on n points have Ldim "
                  "⌊log2(n+1)⌋ (k on 2^k points, unbounded) while VC = 1; point functions "
                  "stay at Ldim 1."),
    notes=("003-E3: δ = 1/(100·n²·log n) is undefined at n = 1 (log 1 = 0); see "
           "'003 Theorem 4.1 / δ(n_priv) <= δ(ñ) for Theorem 4.3 at ñ'."),
    subjects=("reference.vc.littlestone_dimension", "reference.concepts.thresholds_on"),
)

ENTRIES: tuple[Entry, ...] = (_L25, _L26, _T41, _T41_EQUIV, _T41_DELTA, _T41_BUDGET, _T42,
                              _T42_MONO, _T42_EQUIV, _T42_BUDGET, _T43)
