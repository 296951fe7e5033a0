"""Ledger: 004 Theorem C.12 (the TPAL lower bound m = Ω(1/α)), with its proof steps.

The proof's experiment runs exactly on tiny d, n through
:mod:`privref.reference.learners.lower_bound`.  Its checks are shared with 000
Theorem 5.6 (proofs/p000/active.py); the helpers ``PREC``, ``_ONE``, ``_d`` and
``_step`` are those of proofs/p004/active.py.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, partial
from typing import Final

from privref.reference.data import Dataset
from privref.reference.learners.lower_bound import (
    PRINTED_FAILURE_BOUND,
    Version,
    b_positions,
    conditioned_product,
    expected_b,
    failure_bound,
    hard_sample,
    implied_label_lower_bound,
    min_failure_all_hypotheses,
    min_failure_thresholds,
    swap_distribution,
    swap_entries,
    threshold_range,
    wlog_sample_size,
)
from privref.reference.program import Program, call, distribution, uniform
from privref.reference.reals import Order, compare, exp

from .._common import combine
from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from .active import _ONE, PREC, _d, _step

__all__ = [
    "ENTRIES",
    "check_b_concentration_000",
    "check_b_concentration_004",
    "check_failure_all_hypotheses",
    "check_failure_formula",
    "check_failure_thresholds",
    "check_implied_bound_positive",
    "check_swap",
]


# ------------------------------------------------------------------ Theorem C.12


def algebra_identity(b_coef: Fraction, total: Fraction, square: Fraction) -> CheckResult:
    """Exact polynomial identity (1 − β)(1 − b_coef·β) = 1 − total·β + square·β² (all β)."""
    product = (Fraction(1), -(1 + b_coef), b_coef)
    stated = (Fraction(1), -total, square)
    text = (f"(1−β)(1−{b_coef}β) = 1 − {1 + b_coef}β + {b_coef}β²; stated "
            f"1 − {total}β + {square}β²")
    if product == stated and square >= 0:
        return CheckResult(Verdict.HOLDS, f"{text}: equal coefficients; square term >= 0, so "
                           f"the product >= 1 − {total}β")
    return CheckResult(Verdict.VIOLATED, text + ": differ")


_SWAP_CASES: Final = (  # (d, n, alpha, version)
    (1, 5, Fraction(1, 8), "000"), (2, 4, Fraction(1, 16), "000"), (2, 3, Fraction(1, 8), "000"),
    (2, 4, Fraction(1, 8), "004"), (1, 5, Fraction(1, 8), "004"),
)


def _first_b_swap(d: int, n: int, thresholds: tuple[int, ...]
                  ) -> Program[tuple[Dataset, int] | None]:
    """Broken variant: x* = the *first* entry in B (not uniform among them)."""
    sample: Dataset = yield from call(hard_sample, d, n, thresholds)
    inside = b_positions(sample, thresholds)
    if not inside:
        return None
    hat = yield from uniform(n)
    return swap_entries(sample, inside[0], hat), inside[0]


@cache
def check_swap(version: Version = "000", *, first_in_b: bool = False) -> CheckResult:
    """Exact: law of (S′, position of x̂) = 𝒫|_{b>=1} × Unif[n] on tiny (d, n)."""
    results = []
    for d, n, alpha, v in _SWAP_CASES:
        if v != version:
            continue
        thresholds = threshold_range(d, alpha, version=v, n=n)
        if first_in_b:
            law = distribution(_first_b_swap, d, n, thresholds)
            kept = {o: p for o, p in law.items() if o is not None}
            total = sum((p for p in kept.values() if isinstance(p, Fraction)), Fraction(0))
            swapped = {o: p / total for o, p in kept.items() if isinstance(p, Fraction)}
        else:
            swapped = swap_distribution(d, n, thresholds)
        want = conditioned_product(d, n, thresholds)
        same = swapped == want
        results.append(CheckResult(Verdict.HOLDS if same else Verdict.VIOLATED,
                                   f"d={d}, n={n}, α={alpha}, B={thresholds}: "
                                   f"{len(want)} outcomes, laws {'equal' if same else 'differ'}"))
    return combine(results)


def check_failure_thresholds(d: int, alpha: Fraction, bound: Fraction = PRINTED_FAILURE_BOUND,
                             version: Version = "000", n: int | None = None) -> CheckResult:
    """min over threshold hypotheses of the never-query-B failure probability, vs ``bound``."""
    thresholds = threshold_range(d, alpha, version=version, n=n)
    best, s = min_failure_thresholds(d, alpha, thresholds)
    text = (f"d={d}, α={alpha}, |B|={len(thresholds)}: h = c_{s} fails w.p. {best} "
            f"(exact) vs bound {bound}")
    if best >= bound:
        return CheckResult(Verdict.HOLDS, text)
    return CheckResult(Verdict.VIOLATED, text, witness=f"d={d}, α={alpha}, h=c_{s}: {best}")


def check_failure_all_hypotheses(d: int, alpha: Fraction,
                                 bound: Fraction = PRINTED_FAILURE_BOUND) -> CheckResult:
    """Exhaustive over all 2^(2^d) hypotheses (improper learners too), vs ``bound``."""
    thresholds = threshold_range(d, alpha)
    best = min_failure_all_hypotheses(d, alpha, thresholds)
    text = f"d={d}, α={alpha}: min over all {2 ** 2 ** d} hypotheses = {best} vs {bound}"
    return CheckResult(Verdict.HOLDS if best >= bound else Verdict.VIOLATED, text,
                       witness=None if best >= bound else text)


def check_failure_formula() -> CheckResult:
    """1 − min(|B|, 2⌊α2^d⌋+1)/|B| equals the exact minimum (exhaustive d <= 3; thresholds d <= 6)."""
    results = []
    for d in range(1, 7):
        for alpha in (Fraction(1, 8), Fraction(1, 16), Fraction(3, 32)):
            try:
                thresholds = threshold_range(d, alpha)
            except ValueError:
                continue
            formula = failure_bound(d, alpha, thresholds)
            best = (min_failure_all_hypotheses(d, alpha, thresholds) if d <= 3
                    else min_failure_thresholds(d, alpha, thresholds)[0])
            results.append(CheckResult(Verdict.HOLDS if best == formula else Verdict.VIOLATED,
                                       f"d={d}, α={alpha}: {formula}"))
    return combine(results)


def check_b_concentration_004(alpha: Fraction, d: int) -> CheckResult:
    """004's B = {0..8αn} at n = ⌈WLOG size⌉: does Pr[7αn <= b <= 9αn] >= 1 − β (β = 1/4) hold?

    Markov's inequality Pr[b >= 7αn] <= E[b]/(7αn), or b = n > 9αn surely when
    X_d ⊆ B, gives an exact upper bound on the probability of the event.
    """
    beta = Fraction(1, 4)
    size = wlog_sample_size(alpha, beta).enclose(PREC).hi
    n = int(size) + 1
    while (alpha * 8 * n).denominator != 1:
        n += 1
    thresholds = threshold_range(d, alpha, version="004", n=n)
    mean = expected_b(d, n, thresholds)
    if thresholds[-1] >= 2**d - 1:
        upper = Fraction(0) if n > alpha * 9 * n else Fraction(1)
        how = (f"X_{d} ⊆ B so b = n {'>' if upper == 0 else '<='} 9αn surely: Pr[event] <= "
               f"{upper}")
    else:
        upper = min(_ONE, mean / (alpha * 7 * n))
        how = f"Markov: Pr[b >= 7αn] <= E[b]/(7αn) = {_d(upper)}"
    text = (f"α={alpha}, β={beta}, n={n} (>= WLOG size {_d(size)}), d={d}, E[b]={_d(mean)}: "
            f"{how}")
    if upper < 1 - beta:
        return CheckResult(Verdict.VIOLATED, f"{text} < 1−β", witness=text)
    return CheckResult(Verdict.HOLDS, text)


def check_b_concentration_000() -> CheckResult:
    """000's B: E[b] = 8αn exactly, and Hoeffding 2e^{−2α²n} <= 2(αβ)^200 <= β for α <= 1/9, β <= 1/4."""
    results = []
    for d, alpha in ((4, Fraction(1, 16)), (6, Fraction(1, 16)), (6, Fraction(3, 32))):
        n = 1000
        mean = expected_b(d, n, threshold_range(d, alpha))
        results.append(CheckResult(Verdict.HOLDS if mean == alpha * 8 * n else Verdict.VIOLATED,
                                   f"d={d}, α={alpha}: E[b] = {mean} = 8αn"))
    # 2·α^200·β^199 <= 1 is increasing in α and β: its maximum on the box is at the corner
    corner = 2 * Fraction(1, 9) ** 200 * Fraction(1, 4) ** 199
    results.append(CheckResult(Verdict.HOLDS if corner <= 1 else Verdict.VIOLATED,
                               f"2(αβ)^200/β <= 2·(1/9)^200·(1/4)^199 = {_d(corner)} <= 1"))
    return combine(results)


def check_implied_bound_positive(alpha: Fraction, beta: Fraction, epsilon: Fraction,
                                 delta: Fraction, version: Version, n: int | None = None
                                 ) -> CheckResult:
    """Is the proof's implied bound on m positive (so that it says anything)?

    n defaults to ⌈(100/α²)·ln(1/(αβ))⌉ (the proofs' WLOG size); also reports α·bound.
    """
    if n is None:
        n = int(wlog_sample_size(alpha, min(beta, Fraction(99, 100))).enclose(PREC).hi) + 1
    bound = implied_label_lower_bound(alpha, beta, epsilon, delta, n,
                                      version=version)
    order, _ = compare(bound, 0)
    text = (f"{version}: α={alpha}, β={beta}, ε={epsilon}, δ={delta}, n={n}: m >= "
            f"{_d(bound)} (α·bound = {_d(bound * alpha)})")
    match order:
        case Order.GREATER:
            return CheckResult(Verdict.HOLDS, text)
        case Order.LESS | Order.EQUAL:
            return CheckResult(Verdict.VIOLATED, text + ": vacuous", witness=text)
    return CheckResult(Verdict.UNDECIDED, text)


def check_bound_scales_with_alpha(version: Version, beta: Fraction) -> CheckResult:
    """With δ = 0 and ε = 1: α·bound = e^{−2}(1 − cβ)/9 exactly, the same for every α, and > 0."""
    values = [implied_label_lower_bound(a, beta, 1, 0, 100, version=version)
              * a for a in (Fraction(1, 16), Fraction(1, 64), Fraction(1, 1024))]
    coef = Fraction(25, 9) if version == "000" else Fraction(7, 3)
    target = exp(-2) * ((1 - coef * beta) / 9)
    same = all(compare(v, target)[0] is Order.EQUAL or abs(
        (v - target).enclose(PREC).hi) < Fraction(1, 10**20) for v in values)
    positive = compare(target, 0)[0] is Order.GREATER
    return CheckResult(Verdict.HOLDS if same and positive else Verdict.VIOLATED,
                       f"{version}, β={beta}: α·bound = e^-2(1−{coef}β)/9 = {_d(target)} for "
                       "α ∈ {1/16, 1/64, 1/1024}")


# ------------------------------------------------------------------ entries

_SC12 = "For every (α, β, ε, δ, n, m)-TPAL for THRESH_d it holds that m = Ω(1/α)."
_ALSO_C12 = ("000 Theorem 5.6",)

SWAP_CHECKS_004: Final = (Check("exact swap law, 004's B", partial(check_swap, "004")),
                          Check("exact swap law, 000's B", check_swap))
FAILURE_FORMULA: Final = Check("corrected formula = exact minimum", check_failure_formula)

THEOREMC12: Final = Entry(
    paper="004", number="Theorem C.12", kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
    statement=_SC12, also=_ALSO_C12, subjects=("reference.learners.lower_bound",),
    reason="Quantified over every TPAL, with Ω(·) and no stated hypotheses on α, β, ε, δ.",
    illustration="reference.learners.lower_bound runs the proof's experiment exactly on tiny "
                 "d, n (proof-step entries) and evaluates the final inequality: with δ = 0, "
                 "ε = 1, β = 1/4 it gives m >= e^−2(1 − 7/12)/(9α) ≈ 0.0069/α.",
    notes="Inventory E16(iii): 004 uses the unconditional 1 − 4β/3 inside a probability "
          "conditioned on b <= 9αn; 000 repairs it with 9/16 and 1 − 16β/9.",
    checks=(Check("α·bound is constant in α and > 0", partial(check_bound_scales_with_alpha,
                                                             "004", Fraction(1, 4))),))

_N004 = threshold_range(4, Fraction(1, 8), version="004", n=4)

THEOREMC12_STEPS: Final = (
    _step("Theorem C.12", "(1−β)(1−4β/3) algebra", status=Status.PROVED, also=_ALSO_C12,
          statement="(1−β)(1−4β/3) = 1 − 7β/3 + 4β²/3 >= 1 − 7β/3.",
          parameter_range="every real β (polynomial identity; 4β²/3 >= 0)",
          checks=(Check("coefficients", partial(algebra_identity, Fraction(4, 3), Fraction(7, 3),
                                                Fraction(4, 3))),)),
    _step("Theorem C.12", "swap exchangeability", status=Status.CHECKED, also=_ALSO_C12,
          statement="For S ~ 𝒫 with b >= 1, x* uniform among the entries in B and x̂ uniform "
                    "among all entries, swapping them gives (S′, position of x̂) ~ "
                    "𝒫|_{b>=1} × Unif[n].",
          notes="Checked exactly for (d, n) ∈ {(2, 4), (1, 5)} with 004's B and (1, 5), (2, 4), "
                "(2, 3) with 000's B. General reason: 𝒫 is exchangeable, so Pr[S′, j] = "
                "Σ_{ĵ: S′_ĵ∈B} Pr[S′]/(b·n) = Pr[S′]/n. Choosing x* as the first entry in B "
                "breaks it.",
          checks=SWAP_CHECKS_004),
    _step("Theorem C.12", "fails w.p. >= 3/4", status=Status.REFUTED, also=_ALSO_C12,
          statement="A learner that queries no point of B fails to be α-good w.p. >= 3/4 "
                    "(t uniform on B).",
          counterexample="With 004's B = {0..8αn}: d = 4, n = 4, α = 1/8, B = {0..4}: h = c_2 "
                         "is α-good for every t ∈ B (failure 0). With 000's B: d = 6, α = 1/8, "
                         "h = c_9: 47/64; d = 3, α = 1/8: 5/8 even over all 256 (improper) "
                         "hypotheses.",
          corrected="For consecutive thresholds B ⊆ [0, 2^d] the exact minimum failure is "
                    "1 − min(|B|, 2⌊α2^d⌋+1)/|B| (3/4 − 1/|B| for 000's B when α2^d ∈ ℤ); "
                    "with 004's B it is 0 once 2⌊α2^d⌋ >= 8αn.",
          checks=(Check("004's B, d=4, n=4", partial(check_failure_thresholds, 4, Fraction(1, 8),
                                                     version="004", n=4), Verdict.VIOLATED),
                  Check("000's B, d=6, α=1/8: 47/64", partial(check_failure_thresholds, 6,
                                                              Fraction(1, 8)), Verdict.VIOLATED),
                  Check("exhaustive d=3, α=1/8: 5/8", partial(check_failure_all_hypotheses, 3,
                                                              Fraction(1, 8)), Verdict.VIOLATED),
                  FAILURE_FORMULA,
                  Check("004's B, d=4, n=4: corrected value 0", partial(
                      check_failure_thresholds, 4, Fraction(1, 8),
                      failure_bound(4, Fraction(1, 8), _N004), "004", 4)))),
    _step("Theorem C.12", "7αn <= b <= 9αn", status=Status.REFUTED, also=_ALSO_C12,
          statement="With B = {0, …, 8αn} and n >= (100/α²)ln(1/(αβ)), w.p. >= 1 − β the "
                    "number b of sample points in B satisfies 7αn <= b <= 9αn.",
          counterexample="α = 1/8, β = 1/4, n = 22181, d = 20: E[b] = n(8αn+1)/2^20 ≈ 469.2, "
                         "so Pr[b >= 7αn] <= 0.0242 (Markov) < 3/4. α = 1/16, n = 106468, "
                         "d = 10: X_10 ⊆ B, so b = n > 9αn surely (inventory E16(i)).",
          corrected="With 000's B = {1, …, 8α2^d} (8α2^d ∈ ℤ, α < 1/8): b ~ Binomial(n, 8α), "
                    "E[b] = 8αn and Pr[|b − 8αn| > αn] <= 2e^{−2α²n} <= 2(αβ)^200 <= β.",
          checks=(Check("α=1/8, d=20 (Markov)", partial(check_b_concentration_004,
                                                       Fraction(1, 8), 20), Verdict.VIOLATED),
                  Check("α=1/16, d=10 (X_d ⊆ B)", partial(check_b_concentration_004,
                                                         Fraction(1, 16), 10), Verdict.VIOLATED),
                  Check("000's B: mean and Hoeffding", check_b_concentration_000))),
    _step("Theorem C.12", "solving for m", status=Status.REFUTED, also=_ALSO_C12,
          statement="Without hypotheses on α, β, ε, δ, the final inequality m/n >= "
                    "e^−2ε(1 − 7β/3)/(9αn) − δ(1+e^−ε) yields m = Ω(1/α).",
          counterexample="β = 1/2 (no hypothesis excludes it): 1 − 7β/3 < 0, the bound is "
                         "negative for every α. δ = 1/1000 with β = 1/4, ε = 1, α = 1/16 and the "
                         "WLOG n = 106468: m >= −145.6 (inventory E16(ii), (vii)).",
          corrected="m >= e^−2ε(1 − 7β/3)/(9α) − nδ(1+e^−ε), which is >= c/α with "
                    "c = e^−2ε₀(1 − 7β₀/3)/18 when β <= β₀ < 3/7, ε <= ε₀ and "
                    "nδ(1+e^−ε) <= e^−2ε(1 − 7β/3)/(18α); needs 8α <= 1 for B ⊆ X_d.",
          checks=(Check("β = 1/2", partial(check_implied_bound_positive, Fraction(1, 16),
                                          Fraction(1, 2), Fraction(1), Fraction(0), "004"),
                        Verdict.VIOLATED),
                  Check("δ = 1/1000 at the WLOG n", partial(
                      check_implied_bound_positive, Fraction(1, 16), Fraction(1, 4), Fraction(1),
                      Fraction(1, 1000), "004"), Verdict.VIOLATED),
                  Check("δ = 0, β = 1/4: α·bound constant and > 0", partial(
                      check_bound_scales_with_alpha, "004", Fraction(1, 4))))),
)

ENTRIES: tuple[Entry, ...] = (THEOREMC12, *THEOREMC12_STEPS)
