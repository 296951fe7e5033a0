"""Ledger: utility of Gaussian-aggregated PATE in paper 001 (Theorems 22/34 and 28, Remark 24).

Theorems 22 (= 34, PATE-ASQ) and 28 (PATE-PSQ with Algorithm 1's aggregator) end in Õ rates
with unspecified constants, so their main entries are NOT_CHECKABLE; their constant-carrying
steps are checked exactly here:

* K = 6σ√(2 log(2n)) with Algorithm 1's σ equals the displayed K (algebra in the notes;
  enclosures of both sides agree at 256 bits and a perturbed formula separates).
* The Gaussian-tail + Markov step: Dis(h̃^priv, h*) <= (3/K)·E_x[c(x)] + 1/n whenever
  K >= 6σ√(2 log(2n)), with Φ enclosed by :func:`privref.reference.accounting.normal_cdf`.  Both
  sides are affine in the marginal's weights, so checking every vote count c ∈ [0, K] at a single
  point covers every finite domain and every vote pattern.
* Theorem 22's step 3 (θ(Err* + α)(…) <= θ(α)(…), needs Err* <= α and θ non-increasing), the
  circular parameters, Theorem 28's Eq. (8) algebra and its "ε assumed small".
* Remark 24: Algorithm 1's labels are conditionally independent given the teachers, on the
  exact law of :func:`privref.reference.pate.gaussian_votes` (discrete Gaussian noise).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Final

from privref.reference.accounting import algorithm1_sigma, normal_cdf
from privref.reference.concepts import ConceptClass, intervals, thresholds_on
from privref.reference.decide import at_most, ceil, equal, greater_than, less_than, proved_le
from privref.reference.learners.disagreement import disagreement_coefficient
from privref.reference.pate import gaussian_votes
from privref.reference.program import Program, distribution
from privref.reference.reals import Interval, Real, log, rational, sqrt

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import decimal

__all__ = [
    "ENTRIES",
    "check_circular_parameters",
    "check_conditional_independence",
    "check_eps_small",
    "check_eq8_algebra",
    "check_k_identity",
    "check_markov_step",
    "check_risk_triangle",
    "check_step3_label_bound",
    "displayed_k",
    "error_probability",
]

F = Fraction
_PREC: Final = 256

THEOREM22_K_CONSTANT = F(6)
"""001 Theorems 22 and 28: the 6 of K = 6σ√(2 log 2n) (on the σ side of the identity)."""
MARKOV_K_FACTOR = F(6)
"""001 Theorem 22 step 2: K >= 6σ√(2 log 2n), the 6."""
MARKOV_CONSTANT = F(3)
"""001 Theorem 22 step 2: Φ((c − K/2)/σ) <= 3c/K + 1/n, the 3."""
MARKOV_BETA = F(1)
"""001 Theorem 22 step 2: the 1 of the 1/n term."""
RISK_TRIANGLE_FACTOR = F(1)
"""001 Eq. (8) / Theorem 22 step 4: excess risk <= Dis(h, h*) <= Dis(h, z) + Dis(z, h*) (leading 1)."""
EQ8_B_COEFF = F(5)
"""001 Eq. (8)'s last line: 2a + 2√(ab) + 4b <= 4a + 5b, the 5."""
STEP3_ERR_RATIO = F(1)
"""001 Theorem 22 step 3's hypothesis Err* <= α, as Err*/α (1)."""
_SUBJECTS: Final = ("reference.accounting.algorithm1_sigma", "reference.accounting.normal_cdf")


def displayed_k(queries: int, epsilon: Fraction, delta: Fraction, n: int) -> Real:
    """K = 6√(log 2n)(√(ℓ log(1/δ)) + √(ℓ log(1/δ) + εℓ))/ε as printed in 001 Theorem 22 (ℓ = m in
    Theorem 28), an exact Real."""
    L = log(1 / delta)
    root = sqrt(L * queries) + sqrt(L * queries + rational(epsilon * queries))
    return sqrt(log(2 * n)) * root * rational(6 / epsilon)


def check_k_identity() -> CheckResult:
    """6σ√(2 log(2n)) with σ = algorithm1_sigma(ℓ, ε, δ) equals :func:`displayed_k` (001 Theorems
    22 and 28): the 256-bit enclosures of both sides overlap at every grid point (the equality is
    proved algebraically in the entry's notes); a separated pair is VIOLATED.

    The σ side uses :data:`THEOREM22_K_CONSTANT` (a perturbed formula must separate).
    """
    points = widest = 0
    worst = F(0)
    for ell in (1, 10, 1000):
        for eps in (F(1, 10), F(1), F(3)):
            for delta in (F(1, 100), F(1, 10 ** 5)):
                for n in (10, 10 ** 6):
                    a = displayed_k(ell, eps, delta, n).enclose(_PREC)
                    b = (algorithm1_sigma(ell, eps, delta) * sqrt(log(2 * n) * 2)
                         * rational(THEOREM22_K_CONSTANT)).enclose(_PREC)
                    diff = a - b
                    if equal(diff, 0) is Verdict.VIOLATED:  # the difference is proved nonzero
                        return CheckResult(Verdict.VIOLATED, "the two K formulas differ",
                                           f"ℓ={ell}, ε={eps}, δ={delta}, n={n}: {a} vs {b}")
                    worst = max(worst, diff.width)
                    points += 1
    widest = points
    return CheckResult(Verdict.HOLDS, f"{widest} (ℓ, ε, δ, n) points: enclosures overlap, "
                       f"widest difference enclosure {float(worst):.1e}")


def error_probability(c: int, k: int, sigma: Fraction) -> Interval:
    """P(1(votes + Z >= K/2) ≠ h*(x)) for Z ~ N(0, σ²) when c of the K teachers disagree with
    h*(x): Φ((c − K/2)/σ) for either value of h*(x) (001 Theorem 22 step 2), an enclosure."""
    return normal_cdf((F(c) - F(k, 2)) / sigma, 64)


def _least_k(k_factor: Fraction, sigma: Fraction, n: int) -> int:
    """The least integer K >= k_factor·σ·√(2 log(2n)) (exact ceiling)."""
    return ceil(sqrt(log(2 * n) * 2) * rational(k_factor * sigma))


def check_markov_step() -> CheckResult:
    """Φ((c − K/2)/σ) <= (markov/K)·c + beta/n for every c ∈ [0, K], whenever K >= k_factor·σ·
    √(2 log(2n)) (paper: 6, 3 and 1: :data:`MARKOV_K_FACTOR`, :data:`MARKOV_CONSTANT`,
    :data:`MARKOV_BETA`), K ∈ {K0, K0 + 1, 2K0} with K0 the least such integer.

    Dis(h̃^priv, h*) = Σ_x w(x)Φ((c(x) − K/2)/σ) and the bound (3/K)Σ_x w(x)c(x) + 1/n are both
    affine in the weights w (Σ w = 1), so the per-count inequality is equivalent to the
    inequality for every finite marginal and every vote pattern, including adversarial counts
    just below K/2.  Mutations: a smaller k_factor, markov or beta must fail.
    """
    k_factor, markov, beta = MARKOV_K_FACTOR, MARKOV_CONSTANT, MARKOV_BETA
    cases = 0
    for n in (2, 1000):
        for sigma in (F(1, 2), F(3)):
            k0 = _least_k(k_factor, sigma, n)
            for k in (k0, k0 + 1, 2 * k0):
                for c in range(k + 1):
                    rhs = markov * c / k + beta / n
                    cases += 1
                    if rhs >= 1:
                        continue
                    p = error_probability(c, k, sigma)
                    below = at_most(p, rhs)
                    if below is Verdict.VIOLATED:
                        return CheckResult(below, "error probability above the bound",
                                           f"n={n}, σ={sigma}, K={k}, c={c}: P >= "
                                           f"{decimal(p.lo, 4)} > {decimal(rhs, 4)}")
                    if below is Verdict.UNDECIDED:
                        return CheckResult(below, "enclosure straddles the bound",
                                           f"n={n}, σ={sigma}, K={k}, c={c}")
    return CheckResult(Verdict.HOLDS, f"{cases} (n, σ, K, c) cases with K >= {k_factor}σ√(2 log"
                       " 2n): Φ((c − K/2)/σ) <= 3c/K + 1/n, hence for every finite D_X")


def check_risk_triangle() -> CheckResult:
    """Err(h) − Err(h*) <= Dis(h, h*) <= Dis(h, z) + Dis(z, h*) for a randomized labeler z
    (the first steps of 001 Eq. (8) and Theorem 22 step 4), exactly on seeded random rational
    laws over small classes.  :data:`RISK_TRIANGLE_FACTOR` multiplies the right-hand sides
    (< 1 must fail).
    """
    scale = RISK_TRIANGLE_FACTOR
    rng = random.Random(22)
    cases = 0
    classes: tuple[ConceptClass, ...] = (thresholds_on(3), intervals(3))
    for C in classes:
        k = len(C.domain)
        for _ in range(20):
            raw = [F(rng.randint(1, 9)) for _ in range(k)]
            w = [r / sum(raw) for r in raw]
            eta = [F(rng.randint(0, 10), 10) for _ in range(k)]
            q = [F(rng.randint(0, 10), 10) for _ in range(k)]

            def err(h_labels: tuple[int, ...], _eta: list[Fraction] = eta,
                    _w: list[Fraction] = w) -> Fraction:
                return sum((wi * (e if lab == 1 else 1 - e)
                            for wi, e, lab in zip(_w, _eta, h_labels, strict=True)), F(0))

            risks = {h: err(h.labels) for h in C}
            h_star = min(C, key=lambda h: risks[h])
            for h in C:
                d_star = sum((wi for wi, a, b in zip(w, h.labels, h_star.labels, strict=True)
                              if a != b), F(0))
                d_hz = sum((wi * (1 - qi if a == 1 else qi)
                            for wi, qi, a in zip(w, q, h.labels, strict=True)), F(0))
                d_zs = sum((wi * (1 - qi if a == 1 else qi)
                            for wi, qi, a in zip(w, q, h_star.labels, strict=True)), F(0))
                if risks[h] - risks[h_star] > scale * d_star or d_star > scale * (d_hz + d_zs):
                    return CheckResult(Verdict.VIOLATED, "triangle step fails",
                                       f"{C.name}, h={h.name}, w={w}")
                cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (law, labeler, h) cases: excess risk <= "
                       "Dis(h, h*) <= Dis(h, z) + Dis(z, h*)")


def check_eq8_algebra() -> CheckResult:
    """001 Eq. (8)'s last line: 2a + 2√(ab) + 4b <= 4a + c·b (c = :data:`EQ8_B_COEFF`), and the quoted
    a + 2√(ab) + b <= 2a + 2b, for a, b >= 0 on a rational grid (a = Dis(h̃^priv, h*),
    b = (d + log(4/γ))/m); decided by interval arithmetic, exact when √(ab) is rational.
    """
    b_coeff = EQ8_B_COEFF
    grid = [F(0), F(1, 100), F(1, 9), F(1, 4), F(1, 2), F(1), F(7, 3)]
    cases = 0
    for a, b in itertools.product(grid, repeat=2):
        r = sqrt(a * b)
        for lhs, rhs, what in ((r * 2 + rational(2 * a + 4 * b), rational(4 * a + b_coeff * b),
                                "2a + 2√ab + 4b <= 4a + 5b"),
                               (r * 2 + rational(a + b), rational(2 * a + 2 * b),
                                "a + 2√ab + b <= 2a + 2b")):
            verdict = at_most(lhs, rhs)
            if verdict is not Verdict.HOLDS:
                return CheckResult(verdict, f"{what} not proved", f"a={a}, b={b}")
            cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (a, b, inequality) cases on a 7×7 grid")


EPS_SMALL_CONSTANT = F(6)
"""001 Theorem 22's Õ(√m/ε): the hidden factor is at most 6(1 + √2)√log(1/δ), the 6."""
"""6(1 + √2): K·ε/(√m·√(log 2n)) <= 6(1 + √2)·√log(1/δ) exactly when ε <= log(1/δ)."""


def check_eps_small() -> CheckResult:
    """K = Õ(√m/ε) hides the factor K·ε/(√m·√(log 2n)) = 6(√L + √(L + ε)), L = log(1/δ), with
    K = 6σ√(2 log 2n) and σ = algorithm1_sigma(m, ε, δ) (001 Theorems 22 and 28); it is at most
    6(1 + √2)√L exactly when ε <= L (decided by intervals on a grid with ε ≠ L).

    So 001's "ε is assumed small" means ε <= log(1/δ), and the hidden factor is √(log(1/δ)),
    not a log in m, n or 1/γ.  The constant 6(1 + √2) (6 = :data:`EPS_SMALL_CONSTANT`) and the
    subject σ both matter: halving either breaks the equivalence on the grid.
    """
    cases = 0
    for delta in (F(1, 100), F(1, 10 ** 5)):
        L = log(1 / delta)
        for eps in (F(1, 10), F(1), F(4), F(10), F(40)):
            for m, n in ((1, 10), (100, 10 ** 6)):
                k = algorithm1_sigma(m, eps, delta) * sqrt(log(2 * n) * 2) * 6
                hidden = k * rational(eps) / (sqrt(m) * sqrt(log(2 * n)))
                small = less_than(eps, L)
                within = at_most(hidden, (sqrt(2) + 1) * rational(EPS_SMALL_CONSTANT) * sqrt(L))
                if Verdict.UNDECIDED in (small, within):
                    return CheckResult(Verdict.UNDECIDED, "undecided",
                                       f"δ={delta}, ε={eps}, m={m}, n={n}")
                if within is not small:
                    return CheckResult(Verdict.VIOLATED, "hidden factor <= 6(1+√2)√L is not ε <= L",
                                       f"δ={delta}, ε={eps}, m={m}, n={n}: factor <= c√L is "
                                       f"{within.value}, ε <= L is {small.value}")
                cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (δ, ε, m, n) cases: the hidden factor "
                       "Kε/(√m√(log 2n)) is at most 6(1 + √2)√log(1/δ) exactly when "
                       "ε <= log(1/δ)")


def check_step3_label_bound() -> CheckResult:
    """001 Theorem 22 step 3: θ(E + α)(E²/α² + log(1/α))(d log θ(E + α) + log(log(1/α)/γ)) <=
    θ(α)(1 + log(1/α))(d log θ(α) + log(log(1/α)/γ)) when E = Err* <= α.

    θ is the exact coefficient of thresholds on 8 points (uniform, every h*) and of intervals on
    4 points; α ∈ {1/8, 1/4} (so log(1/α) > 1), γ = 1/2, d = 1, E = e·α·err_ratio for
    e ∈ {0, 1/2, 1}, err_ratio = :data:`STEP3_ERR_RATIO`; > 1 (Err* above α) is the mutation.
    """
    err_ratio = STEP3_ERR_RATIO
    cases = 0
    gamma = F(1, 2)
    classes: tuple[ConceptClass, ...] = (thresholds_on(8), intervals(4))
    for C in classes:
        w = [F(1, len(C.domain))] * len(C.domain)
        for h_star in C:
            for alpha in (F(1, 8), F(1, 4)):
                la = log(1 / alpha)
                if greater_than(la, gamma) is not Verdict.HOLDS:
                    return CheckResult(Verdict.UNDECIDED, "log(log(1/α)/γ) not positive",
                                       f"α={alpha}")
                th_a = disagreement_coefficient(C, h_star, w, alpha)
                for e in (F(0), F(1, 2), F(1)):
                    E = e * alpha * err_ratio
                    th_e = disagreement_coefficient(C, h_star, w, E + alpha)
                    # all three factors are positive, so the product inequality follows from
                    # the factorwise ones, which are exact rational comparisons
                    if th_e > th_a or (E / alpha) ** 2 > 1:
                        return CheckResult(Verdict.VIOLATED, "step 3 inequality fails",
                                           f"{C.name}, h*={h_star.name}, α={alpha}, Err*={E}: "
                                           f"θ(Err*+α)={th_e}, θ(α)={th_a}")
                    cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (class, h*, α, Err*) cases with Err* <= α")


def _admissible_floor(alpha: Fraction, n: int, m: int) -> Real:
    """F(α) = the theorem's lower bound on α after ℓ(α) and K(ℓ(α)), constants set to 1
    (C1 = C2 = η = d = τ = 1, θ = 2, γ = 1/10, ε = 1, δ = 10⁻⁵)."""
    gamma, delta, eps = F(1, 10), F(1, 10 ** 5), F(1)
    la = log(1 / alpha)
    ell = (la + 1) * (log(2) + log(la / (gamma / 2))) * 2
    L = log(1 / delta)
    K = sqrt(log(2 * n)) * (sqrt(L * ell) + sqrt(L * ell + ell * eps)) * rational(6 / eps)
    teacher = (K * log(n) + log(K * rational(2 / gamma))) * rational(F(1, n))
    student = (log(m + n) + log(2 / gamma)) * rational(F(1, m))
    return student if proved_le(teacher, student) else teacher


def check_circular_parameters(n_small: int = 10 ** 4, n_large: int = 10 ** 6) -> CheckResult:
    """001 Theorem 22's α, ℓ and K are circular (α's bound grows with K, K with ℓ, ℓ as α
    shrinks): F(α) is non-increasing in α on α = 2^−2..2^−10, and {α : α >= F(α)} is empty for
    n = ``n_small`` yet non-empty (though not the whole grid) for n = ``n_large`` (m = 10⁶).
    """
    grid = [F(1, 2 ** k) for k in range(2, 11)]
    found = {}
    for n in (n_small, n_large):
        values = [_admissible_floor(a, n, 10 ** 6) for a in grid]
        for (a, fa), (b, fb) in itertools.pairwise(zip(grid, values, strict=True)):
            monotone = at_most(fa, fb)  # a > b on the grid
            if monotone is not Verdict.HOLDS:
                return CheckResult(monotone, "F not proved non-increasing in α",
                                   f"n={n}, α={a}, {b}")
        found[n] = [a for a, fa in zip(grid, values, strict=True)
                    if not proved_le(rational(a), fa)]
    if found[n_small] or not found[n_large] or len(found[n_large]) == len(grid):
        return CheckResult(Verdict.VIOLATED, "admissibility does not depend on n as claimed",
                           f"admissible α: {found}")
    return CheckResult(Verdict.HOLDS, f"F non-increasing; admissible α: none at n={n_small}, "
                       f"{[str(a) for a in found[n_large]]} at n={n_large}")


LabelProgram = Callable[[tuple[int, ...], int, Fraction], Program[tuple[int, ...]]]


def check_conditional_independence(program: LabelProgram = gaussian_votes) -> CheckResult:
    """The exact law of Algorithm 1's labels on 2–3 queries is the product of the per-query laws
    (001 Remark 24): every joint probability's enclosure meets the product of the marginals'
    enclosures (a dependence larger than the enclosure widths would separate them).
    """
    cases = 0
    for s2 in (F(1), F(3)):
        for votes in ((1, 3), (2, 2), (0, 4), (1, 2, 4), (3, 3, 0)):
            joint = distribution(program, votes, 4, s2)
            margins = [dict(distribution(gaussian_votes, (v,), 4, s2).items()) for v in votes]
            items = dict(joint.items())
            for outcome in itertools.product((0, 1), repeat=len(votes)):
                prod = Interval.point(1)
                for y, mg in zip(outcome, margins, strict=True):
                    p = mg.get((y,), F(0))
                    prod = prod * (p if isinstance(p, Interval) else Interval.point(p))
                got = items.get(outcome, F(0))
                box = got if isinstance(got, Interval) else Interval.point(got)
                if equal(box, prod) is Verdict.VIOLATED:  # disjoint enclosures: proved unequal
                    return CheckResult(Verdict.VIOLATED, "labels are dependent",
                                       f"votes {votes}, σ²={s2}, outcome {outcome}: joint {box}"
                                       f" vs product {prod}")
                cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (votes, σ², outcome) cases: joint law = product "
                       "of per-query laws within the enclosures")


# ------------------------------------------------------------------ entries

_K_CHECK = Check("6σ√(2 log 2n) with Algorithm 1's σ vs the displayed K (256-bit enclosures)",
                 check_k_identity, constant="THEOREM22_K_CONSTANT")
_MARKOV_CHECK = Check("Gaussian tail + Markov: Φ((c − K/2)/σ) <= 3c/K + 1/n, every c",
                      check_markov_step, constant="MARKOV_CONSTANT")
_TRI_CHECK = Check("excess risk <= Dis(h, h*) <= Dis(h, z) + Dis(z, h*), exact",
                   check_risk_triangle, constant="RISK_TRIANGLE_FACTOR")
_STEP3_CHECK = Check("θ(Err* + α)(…) <= θ(α)(1 + log(1/α))(…) for Err* <= α, exact θ",
                     check_step3_label_bound)
_CIRC_CHECK = Check("circular α, ℓ, K: admissible α exist only for n large enough",
                    check_circular_parameters)
_EQ8_CHECK = Check("Eq. (8) algebra on a rational grid", check_eq8_algebra,
                   constant="EQ8_B_COEFF")
_EPS_CHECK = Check("hidden factor Kε/(√m√(log 2n)) <= 6(1 + √2)√L iff ε <= L",
                   check_eps_small, constant="EPS_SMALL_CONSTANT")

_T22_STATEMENT = (
    "001 Theorem 22 (L549–572; proof L982–1056): w.p. >= 1 − γ, for α >= C1·max{η^{2/(2−τ)}"
    "((dK log(n/d) + log(2K/γ))/n)^{τ/(2−τ)}, (d log((m+n)/d) + log(2/γ))/m}, PATE-ASQ "
    "(Algorithm 5) with ℓ = C2θ(α)(1 + log(1/α))(d log θ(α) + log(log(1/α)/(γ/2))) and K = "
    "6√(log 2n)(√(ℓ log(1/δ)) + √(ℓ log(1/δ) + εℓ))/ε has Err(ĥ^S) − Err(h*) <= α, i.e. "
    "Õ(max{(d^{1.5}√(θ(α) log(1/δ))/(nε))^{τ/(2−τ)}, d/m}) when ε <= log(1/δ).")
_T22_REASON = ("Universal constants C1, C2 (and those of Lemmas 13 and 39) are unspecified, the "
               "final rate is an Õ, and the statement ranges over all TNC distributions.")
_T22_ILLUSTRATION = ("Its constant-carrying steps are checked exactly: the K formula, the "
                     "Gaussian-tail + Markov step, the risk triangle, the step-3 label count "
                     "(needs Err* <= α and θ non-increasing) and the circularity of α, ℓ, K.")
_T22_NOTES = (
    "Issues: (1) the parameters are circular — α's lower bound involves K, K is set from ℓ and ℓ "
    "from α — so the theorem silently needs a fixed point (checked: none exists for small n); "
    "(2) 'with probability >= 1 − γ there exist universal constants' has the quantifiers in the "
    "wrong order (constants first, then the probability); (3) α uses d log((m+n)/d) where the "
    "proof's Lemma 33 step gives d log(m/d) (the printed term is larger, so harmless); (4) the "
    "ℓ formula has γ/2 while step 3 uses γ; (5) Table 1's (AL) column drops the √(log(1/δ)) of "
    "the theorem; (6) θ(α)'s reference hypothesis and marginal are not named (the student's "
    "problem has labels h̃^priv and best hypothesis near h*). Step 4 also needs "
    "Dis(ĥ^S, h̃^priv) <= 2α from Lemma 39 with m unbounded, or Lemma 33 when m is small.")

ENTRIES: Final[tuple[Entry, ...]] = (
    Entry(
        paper="001", number="Theorem 22", statement=_T22_STATEMENT, kind=Kind.THEOREM,
        status=Status.NOT_CHECKABLE, reason=_T22_REASON, illustration=_T22_ILLUSTRATION,
        checks=(_K_CHECK, _MARKOV_CHECK, _TRI_CHECK, _STEP3_CHECK, _CIRC_CHECK),
        notes=_T22_NOTES,
        subjects=(*_SUBJECTS, "reference.learners.pate_students.disagreement_active_learner",
                  "reference.learners.disagreement.disagreement_coefficient")),
    Entry(
        paper="001", number="Theorem 22", step="K = 6σ√(2 log 2n) with Algorithm 1's σ",
        statement=("Theorem 22's K (L560) equals 6σ√(2 log(2n)) with σ = (√(2ℓL) + √(2ℓL + "
                   "2εℓ))/(2ε), L = log(1/δ), Algorithm 1's σ (the substitution of step 4)."),
        kind=Kind.PROOF_STEP, status=Status.PROVED,
        parameter_range="every ℓ >= 1, ε > 0, δ ∈ (0, 1), n >= 1",
        checks=(_K_CHECK,),
        notes=("Proof: √2·√(2x) = 2√x, so 6σ√2√(log 2n) = 6√(log 2n)(2√(ℓL) + 2√(ℓL + εℓ))/(2ε)"
               " = the displayed K. The check encloses both sides (no float decides it)."),
        subjects=_SUBJECTS),
    Entry(
        paper="001", number="Theorem 22", step="step 2: Gaussian tail and Markov",
        statement=("Theorem 22 step 2 (L1000–1010), also Theorem 28's: with c(x) the number of "
                   "teachers disagreeing with h*(x) and Z ~ N(0, σ²), Dis(h̃^priv, h*) = "
                   "E_x[P(1(Σ_k ĥ_k(x) + Z >= K/2) ≠ h*(x))] <= (3/K)E_x[c(x)] + 1/n whenever "
                   "K >= 6σ√(2 log(2n)) (β = 1/n)."),
        kind=Kind.PROOF_STEP, status=Status.PROVED,
        parameter_range="n >= 1, σ > 0, integer K >= 6σ√(2 log 2n), any finite D_X and votes",
        checks=(_MARKOV_CHECK,),
        notes=("Proof: the error event at x needs c(x) >= K/2 − |Z| (either value of h*(x)); "
               "split on |Z| <= s = σ√(2 log(2n)): P(|Z| > s) <= 2e^{−s²/(2σ²)} = 1/n, and "
               "P_x(c(x) >= K/2 − s) <= E[c]/(K/2 − s) <= 3E[c]/K by Markov since s <= K/6. "
               "The check covers every vote count exactly (affine-in-weights reduction)."),
        subjects=_SUBJECTS),
    Entry(
        paper="001", number="Theorem 22", step="step 3: label count with Err* <= α",
        statement=("Theorem 22 step 3 (L1030–1036): Lemma 39's count with θ(Err* + α) and "
                   "(Err*)²/α² is at most the one with θ(α) and 1, because θ is non-increasing "
                   "and Err* = Dis(h̃^priv, h*) <= α; the latter assumption is required."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED, checks=(_STEP3_CHECK,),
        subjects=("reference.learners.disagreement.disagreement_coefficient",)),
    Entry(
        paper="001", number="Theorem 22", step="step 4: risk triangle",
        statement=("Theorem 22 step 4 and Eq. (8)'s first lines: Err(ĥ) − Err(h*) <= Dis(ĥ, h*) "
                   "<= Dis(ĥ, h̃^priv) + Dis(h̃^priv, h*) for the randomized labeler h̃^priv."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED, checks=(_TRI_CHECK,),
        subjects=("reference.learners.disagreement.dis",)),
    Entry(
        paper="001", number="Theorem 22", step="circular parameters",
        statement=("Theorem 22's α, ℓ and K are circular: the admissible α solve α >= F(α) with "
                   "F non-increasing (through ℓ(α) and K(ℓ)); with all hidden constants set to "
                   "1 no α in 2^−2..2^−10 is admissible at n = 10⁴, some are at n = 10⁶."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED, checks=(_CIRC_CHECK,),
        subjects=("reference.accounting.algorithm1_sigma",)),
    Entry(
        paper="001", number="Theorem 34",
        statement=("001 Theorem 34 (L982–1000) restates Theorem 22 verbatim; it shares Theorem "
                   "22's checks and status. " + _T22_STATEMENT),
        kind=Kind.THEOREM, status=Status.NOT_CHECKABLE, reason=_T22_REASON,
        illustration=_T22_ILLUSTRATION,
        checks=(_K_CHECK, _MARKOV_CHECK, _TRI_CHECK, _STEP3_CHECK, _CIRC_CHECK),
        notes="Restatement of Theorem 22; see its entry and steps.", subjects=_SUBJECTS),
    Entry(
        paper="001", number="Theorem 28",
        statement=("001 Theorem 28 (L825–879): under τ-TNC, w.p. >= 1 − γ the student of "
                   "Algorithm 3 with Algorithm 1 as aggregator (the paper says 'Algorithm 1') "
                   "and K = 6√(log 2n)(√(m log(1/δ)) + √(m log(1/δ) + εm))/ε has Err(ĥ^S) − "
                   "Err(h*) <= Õ(d/m + (d√m/(nε))^{τ/(2−τ)}); realizable: Õ(d/m + d√m/(nε))."),
        kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
        reason=("Õ rates with an unspecified constant (Lemma 13's), over all TNC distributions; "
                "the proof also cites Lemma 37 but uses Lemma 36-style constants."),
        illustration=("The constant-carrying steps, exactly: Eq. (8)'s triangle and algebra, "
                      "the shared Gaussian-tail + Markov step, the σ/K identity with ℓ = m, and "
                      "what 'ε assumed small' hides."),
        checks=(_TRI_CHECK, _EQ8_CHECK, _MARKOV_CHECK, _K_CHECK, _EPS_CHECK),
        notes=("'Algorithm 1' in the statement means Algorithm 3 run with Algorithm 1's "
               "aggregation. K = Õ(√m/ε) hides √(log(1/δ)), which is not among the logs Õ "
               "hides (m, n, 1/γ); the final rate drops it."),
        subjects=_SUBJECTS),
    Entry(
        paper="001", number="Theorem 28", step="Eq. (8) chain",
        statement=("Eq. (8) (L841–848): Err(ĥ^S) − Err(h*) <= Dis(ĥ^S, h̃^priv) + Dis(h̃^priv, h*)"
                   " <= 2a + 2√(ab) + 4b <= 4a + 5b with a = Dis(h̃^priv, h*), b = (d + log(4/"
                   "γ))/m, via a + 2√(ab) + b <= 2a + 2b; the printed '4a + Õ(d/m)' is 4a + 5b."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED, checks=(_TRI_CHECK, _EQ8_CHECK),
        subjects=("reference.learners.disagreement.dis",)),
    Entry(
        paper="001", number="Theorem 28", step="ε assumed small",
        statement=("Theorem 28's 'K = Õ(√m/ε), where ε is assumed small' (L870–875): the hidden "
                   "factor is √L + √(L + ε), L = log(1/δ), at most (1 + √2)√L exactly when "
                   "ε <= L; so the assumption is ε <= log(1/δ) and a √(log(1/δ)) is hidden."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED, checks=(_EPS_CHECK,),
        subjects=("reference.accounting.algorithm1_sigma",)),
    Entry(
        paper="001", number="Remark 24",
        statement=("001 Remark 24 (L578–580): with Algorithm 1 as the labeling service the labels "
                   "are conditionally i.i.d. given the teachers (fresh noise per query), so any "
                   "learner, not only ERM, can be plugged in as a black box."),
        kind=Kind.REMARK, status=Status.NOT_CHECKABLE,
        reason=("'Any learner can be used as a black box' is informal; the independence behind "
                "it holds by construction (fresh noise), and an equality of irrational "
                "probabilities cannot be decided by enclosures."),
        illustration=("The exact law of reference.pate.gaussian_votes (discrete Gaussian noise) "
                      "on 2–3 queries agrees with the product of its per-query laws within the "
                      "enclosures; a labeler that reuses the first label is caught."),
        checks=(Check("joint law of Algorithm 1's labels vs product of marginals",
                      check_conditional_independence),),
        notes=("Conditioned on the teachers, the labels are independent but not identically "
               "distributed unless the queries are i.i.d. (they are, in PATE-ASQ's stream, "
               "before the learner's selection; the selection itself is a post-processing)."),
        subjects=("reference.pate.gaussian_votes",)),
)
