"""Ledger: 004 Theorem 3.3 (GenericLearner), 004 Lemma 3.4 (thresholds), 004 Theorem A.3 (BLR).

What is checked, and on what (every check is exact; no sampling):

* **Privacy** of GenericLearner (004 Algorithm 1) with the BLR sanitizer
  (:mod:`privref.reference.learners.sanitizer`) and of BLR itself: the exact auditor
  over every substitution pair of tiny universes, at the claimed ε.
* **Properness**: every hypothesis in the exact output support is in C.
* **Utility** of GenericLearner: the exact probability, over D ~ μ^{n−m},
  S ~ (μ, c)^m and the coins, that error_μ(c, h) > α, for every target c of
  a tiny class and two distributions μ, at explicit (not asymptotic) sizes.
* **Accuracy** of BLR (004 Definition A.2, item 2): the exact worst case over
  every input of size n of Pr[max_c |Q_c(S) − Q_c(Ŝ)| > α].
* **Proof constants** of Theorem 3.3 (004-E18) by exact rational
  arithmetic, and the one step that fails (the proof's labeled-sample
  requirement is not within the stated O(·)) by interval arithmetic.

The O(·) sample sizes of Theorems 3.3 and A.3 and the Õ(8^{log* d}) of
Lemma 3.4 have unspecified constants and are not checkable as stated.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterator, Mapping
from fractions import Fraction
from functools import cache
from typing import Final

from privref.reference.concepts import Concept, ConceptClass, thresholds, thresholds_on
from privref.reference.data import BOTTOM, Dataset
from privref.reference.decide import at_most
from privref.reference.exponential import exponential_learner
from privref.reference.learners.base import Learner
from privref.reference.learners.generic import generic_learner_blr, hypothesis_set
from privref.reference.learners.sanitizer import Sanitizer, blr_sanitizer, candidate_databases, query_error
from privref.reference.neighbors import Universe
from privref.reference.reals import Interval, Real, exp, interval_log, log
from privref.reference.vc import xor_class

from .._common import audit_result, combine
from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import decimal, interval_text

__all__ = [
    "B6_FACTOR",
    "B6_INNER",
    "BLR_BETA",
    "BLR_TAIL_FACTOR",
    "CORRECTED_M_CONSTANT",
    "EM_DIVISOR",
    "ENTRIES",
    "ERROR_CHOSEN",
    "ERROR_E1",
    "FAILURE_PARTS",
    "STATED_M_CONSTANT",
    "UTILITY_BETA",
    "blr_accuracy_failure",
    "check_blr_accuracy",
    "check_blr_privacy",
    "check_blr_tail",
    "check_constants_b6",
    "check_constants_em",
    "check_corrected_m",
    "check_error_bookkeeping",
    "check_failure_bookkeeping",
    "check_generic_privacy",
    "check_generic_privacy_eps1",
    "check_generic_proper",
    "check_generic_utility",
    "check_hypothesis_count",
    "check_stated_m_covers_proof",
    "check_thresholds_labeled_part",
    "check_thresholds_privacy",
    "exact_failure_probability",
    "hypothesis_laws",
    "labeled_elements",
    "multisets",
]

PREC: Final = 96

B6_FACTOR = 1250
"""004 Theorem 3.3's proof: Theorem B.6 at (α/5, β/5) needs 1250/α²·VC·ln(25/(αβ)) samples (the 1250)."""

B6_INNER = 25
"""004 Theorem 3.3's proof: the 25 in ln(25/(αβ)) = ln(1/((α/5)(β/5)))."""

EM_DIVISOR = 10
"""004 Theorem 3.3's proof: Proposition A.1 (ii) with Δ = α/5 gives the exponent εαm/10 (the 10)."""

ERROR_E1 = Fraction(3, 5)
"""004 Theorem 3.3's proof: on E1, (2)+(3)+(4) give error 3α/5 (the 3/5)."""

ERROR_CHOSEN = Fraction(4, 5)
"""004 Theorem 3.3's proof: on E1 ∩ E2 the chosen hypothesis has error 4α/5 (the 4/5)."""

FAILURE_PARTS: tuple[Fraction, ...] = (Fraction(2, 5), Fraction(1, 5), Fraction(1, 5))
"""004 Theorem 3.3's proof: failure budget 2β/5 (B.6 twice) + β/5 (sanitizer) + β/5 (E2)."""

STATED_M_CONSTANT = Fraction(10**6)
"""The constant tried for 004 Theorem 3.3's O(·) m bound (refuted: the ratio tends to infinity)."""

CORRECTED_M_CONSTANT = Fraction(7100)
"""The corrected form of 004 Theorem 3.3's m: 1250/α²·VC·ln(25/(αβ)) <= 7100·VC/α²·ln(1/(αβ))."""

UTILITY_BETA = Fraction(1, 20)
"""The β of the 004 Theorem 3.3 utility instance: Pr[error > 1/3] <= 1/20."""

BLR_BETA = Fraction(1, 25)
"""The β of the 004 Theorem A.3 BLR accuracy instance: a (1/3, 1/25, 6 ln(5/4), 24)-sanitizer."""

BLR_TAIL_FACTOR = Fraction(1)
"""The implicit leading 1 of BLR's accuracy step: tail <= 1·|R|·e^{−εt/2}."""

_EPS_K2: Final = log(Fraction(9, 8)) * 4
"""ε = 4 ln(9/8) ≈ 0.471: with k = 2, e^{ε/(2k)} = 9/8 and e^{ε/2} = 81/64 are rational."""

_EPS_K1: Final = log(Fraction(3, 2)) * 2
"""ε = 2 ln(3/2) ≈ 0.811: with k = 1, e^{ε/2} = 3/2 (the GenericLearner audit instance)."""

_EPS_UTILITY: Final = log(Fraction(3, 2)) * 6
"""ε = 6 ln(3/2) ≈ 2.433 (k = 3): the utility instance."""

_EPS_K3: Final = log(Fraction(5, 4)) * 6
"""ε = 6 ln(5/4) ≈ 1.339 (k = 3): the BLR accuracy instance."""


# ------------------------------------------------------------------ helpers


def labeled_elements(C: ConceptClass) -> tuple[tuple[Hashable, object], ...]:
    """Every entry (x, y), y ∈ {0, 1, ⊥}: the universe of entries of GenericLearner's database."""
    return tuple((x, y) for x in C.domain for y in (0, 1, BOTTOM))


def multisets(mu: Mapping[Hashable, Fraction], size: int) -> Iterator[tuple[Dataset, Fraction]]:
    """Every multiset of ``size`` i.i.d. draws from μ (sorted in μ's order) with its exact probability."""
    points = tuple(mu)
    for combo in itertools.combinations_with_replacement(range(len(points)), size):
        counts = [0] * len(points)
        for i in combo:
            counts[i] += 1
        p = Fraction(math.factorial(size))
        for x, c in zip(points, counts, strict=True):
            p = p / math.factorial(c) * mu[x] ** c
        yield tuple(points[i] for i in combo), p


def _error(mu: Mapping[Hashable, Fraction], h: Concept, c: Concept) -> Fraction:
    return sum((p for x, p in mu.items() if h(x) != c(x)), Fraction(0))


def hypothesis_laws(C: ConceptClass, mus: tuple[Mapping[Hashable, Fraction], ...], *,
                    unlabeled: int, sanitizer: Sanitizer) -> tuple[dict[tuple[Concept, ...], Fraction], ...]:
    """For each μ: the exact law of H(D̃) (004 Algorithm 1, Steps 2–4) when D ~ μ^unlabeled.

    The sanitizer depends on D's multiset only (order invariance, verified by
    its audits), so each multiset's sanitized law is computed once for all μ.
    """
    sanitized: dict[Dataset, list[tuple[tuple[Concept, ...], Fraction]]] = {}
    laws: list[dict[tuple[Concept, ...], Fraction]] = []
    for mu in mus:
        law: dict[tuple[Concept, ...], Fraction] = {}
        for data, p in multisets(mu, unlabeled):
            if data not in sanitized:
                rows = []
                for out, q in sanitizer.distribution(data).items():
                    assert isinstance(q, Fraction)
                    rows.append((hypothesis_set(C, out), q))
                sanitized[data] = rows
            for hyps, q in sanitized[data]:
                law[hyps] = law.get(hyps, Fraction(0)) + p * q
        laws.append(law)
    return tuple(laws)


def exact_failure_probability(mu: Mapping[Hashable, Fraction], target: Concept, *,
                              hypotheses: Mapping[tuple[Concept, ...], Fraction], labeled: int,
                              epsilon: Real, alpha: Fraction) -> Fraction:
    """Pr[error_μ(target, h) > α] for GenericLearner, given the law of H (see :func:`hypothesis_laws`).

    Exact, by the decomposition of 004 Algorithm 1: H(D̃) with its law, then
    the exponential mechanism over H on S ~ (μ, target)^labeled (it depends
    on S's multiset only).  tests/reference/learners/test_generic.py checks
    the decomposition against the learner's own distribution.
    """
    samples = [(tuple((x, target(x)) for x in s), p) for s, p in multisets(mu, labeled)]
    fail = Fraction(0)
    for hyps, q in hypotheses.items():
        em = exponential_learner(hyps, epsilon=epsilon)
        bad = {h for h in hyps if _error(mu, h, target) > alpha}
        if not bad:
            continue
        for sample, p in samples:
            for h, r in em.distribution(sample).items():
                assert isinstance(r, Fraction)
                if h in bad:
                    fail += q * p * r
    return fail


# ---------------------------------------------- Theorem 3.3: privacy, properness, utility


@cache
def _default_learner() -> Learner[Concept]:
    return generic_learner_blr(thresholds_on(3), m=1, k=1, epsilon=_EPS_K1)


def check_generic_privacy(learner: Learner[Concept] | None = None) -> CheckResult:
    """Exact audit of GenericLearner + BLR (THRESH on 3 points, k=1, ε = 2 ln(3/2), n=3, m=1).

    An instance where the exact loss (≈ 0.466) is close enough to ε (≈ 0.811)
    that a sanitizer run at 2ε, or one that also reads S, is caught.  The
    universe holds every entry (x, y), y ∈ {0, 1, ⊥}, at every position,
    so substitutions inside D, inside S, and of any kind of entry are all
    audited.  ``learner`` replaces the default (mutation tests); the
    universe is then every database of 3 entries over its class's domain.
    """
    lrn = learner or _default_learner()
    return audit_result(lrn.mechanism, Universe(labeled_elements(lrn.concepts), (3,)))[0]


def check_generic_privacy_eps1() -> CheckResult:
    """Exact audit at the papers' kind of ε = 1 (irrational weights, interval enclosures refined
    until decided): GenericLearner + BLR(k = 2) on THRESH_1, n = 3, m = 1."""
    C = thresholds(1)
    mech = generic_learner_blr(C, m=1, k=2, epsilon=1).mechanism
    return audit_result(mech, Universe(labeled_elements(C), (3,)))[0]


def check_generic_proper(learner: Learner[Concept] | None = None) -> CheckResult:
    """Every hypothesis in the exact support, on every database of the audit universe, is in C."""
    lrn = learner or _default_learner()
    uni = Universe(labeled_elements(lrn.concepts), (3,))
    count = 0
    for data in uni.datasets():
        for h, _ in lrn.distribution(data).items():
            if h not in lrn.concepts:
                return CheckResult(Verdict.VIOLATED, f"{lrn.name} output {h!r} ∉ C",
                                   witness=f"database {data!r}")
        count += 1
    return CheckResult(Verdict.HOLDS, f"{lrn.name}: every output on {count} databases is in "
                                      f"{lrn.concepts.name}")


_UTILITY_MUS: Final[tuple[Mapping[Hashable, Fraction], ...]] = (
    {0: Fraction(1, 3), 1: Fraction(1, 3), 2: Fraction(1, 3)},
    {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)},
)


def check_generic_utility(sanitizer: Sanitizer | None = None) -> CheckResult:
    """Exact: GenericLearner + BLR(k=3, ε = 6 ln(3/2)) with n−m = 16, m = 12 is (1/3, β)-accurate.

    On THRESH over 3 points, for every target c ∈ C and μ ∈ {uniform,
    (1/2, 1/4, 1/4)}: Pr[error_μ(c, h) > 1/3] <= β = 1/20 (exact rationals).
    """
    beta = UTILITY_BETA
    C = thresholds_on(3)
    san = sanitizer or blr_sanitizer(xor_class(C), k=3, epsilon=_EPS_UTILITY)
    laws = hypothesis_laws(C, _UTILITY_MUS, unlabeled=16, sanitizer=san)
    worst, where = Fraction(0), ""
    for mu, law in zip(_UTILITY_MUS, laws, strict=True):
        for c in C:
            p = exact_failure_probability(mu, c, hypotheses=law, labeled=12, epsilon=_EPS_UTILITY,
                                          alpha=Fraction(1, 3))
            if p > worst:
                worst, where = p, f"target {c.name}, μ = ({', '.join(str(v) for v in mu.values())})"
    text = (f"max over 8 (target, μ) of Pr[error > 1/3] ≈ {decimal(worst, 4)} (exact rational; {where}); "
            f"β = {beta}")
    if worst > beta:
        return CheckResult(Verdict.VIOLATED, text, witness=where)
    return CheckResult(Verdict.HOLDS, text)


# ---------------------------------------------------------- Theorem 3.3: proof constants


def check_constants_b6() -> CheckResult:
    """Theorem B.6 at (α/5, β/5): 50·VC/(α/5)² = B6_FACTOR·VC/α² and 1/((α/5)(β/5)) = B6_INNER/(αβ)."""
    factor, inner = B6_FACTOR, B6_INNER
    grid = [Fraction(p, q) for q in (2, 3, 7, 10, 97) for p in range(1, q, 5)]
    for a in grid:
        for b in grid:
            if 50 / (a / 5) ** 2 != factor / a**2 or 1 / ((a / 5) * (b / 5)) != inner / (a * b):
                return CheckResult(Verdict.VIOLATED, f"identity fails at α={a}, β={b}",
                                   witness=f"α={a}, β={b}")
    return CheckResult(Verdict.HOLDS, f"50/(α/5)² = {factor}/α² and 1/((α/5)(β/5)) = "
                                      f"{inner}/(αβ) on {len(grid) ** 2} rational (α, β)")


def check_constants_em() -> CheckResult:
    """Proposition A.1 (ii) with Δ = α/5: ε·(α/5)·m/2 = ε·α·m/EM_DIVISOR, exactly."""
    divisor = EM_DIVISOR
    grid = [Fraction(p, q) for q in (3, 8, 100) for p in range(1, q)]
    for a in grid:
        for eps in (Fraction(1, 7), Fraction(1), Fraction(5, 2)):
            for m in (1, 13, 400):
                if eps * (a / 5) * m / 2 != eps * a * m / divisor:
                    return CheckResult(Verdict.VIOLATED, f"identity fails at α={a}, ε={eps}, m={m}",
                                       witness=f"α={a}, ε={eps}, m={m}")
    return CheckResult(Verdict.HOLDS, f"ε·(α/5)·m/2 = ε·α·m/{divisor} on a rational grid")


def check_error_bookkeeping() -> CheckResult:
    """E1: (2)+(3)+(4) give 3α/5; E1∩E2: α/5 + 3α/5 = 4α/5; E3 via (2): 4α/5 + α/5 <= α."""
    e1, chosen = ERROR_E1, ERROR_CHOSEN
    fifth = Fraction(1, 5)
    steps = [("3·(α/5) <= e1·α", 3 * fifth <= e1),
             ("α/5 + e1·α <= chosen·α", fifth + e1 <= chosen),
             ("chosen·α + α/5 <= α", chosen + fifth <= 1)]
    bad = [name for name, ok in steps if not ok]
    text = f"with e1 = {e1}, chosen = {chosen}: " + ", ".join(n for n, _ in steps)
    if bad:
        return CheckResult(Verdict.VIOLATED, text + f"; fails: {bad}", witness=bad[0])
    return CheckResult(Verdict.HOLDS, text + ": all hold exactly")


def check_failure_bookkeeping() -> CheckResult:
    """B.6 twice (2β/5) + sanitizer (β/5) + E2 (β/5) = 4β/5 <= β (parts: :data:`FAILURE_PARTS`)."""
    parts = FAILURE_PARTS
    total = sum(parts, Fraction(0))
    text = f"{' + '.join(str(p) for p in parts)} = {total} (times β)"
    if total > 1:
        return CheckResult(Verdict.VIOLATED, f"{text} > 1", witness=str(total))
    return CheckResult(Verdict.HOLDS, f"{text} <= 1; the statement's 4β/5 is {total == Fraction(4, 5)}")


def check_hypothesis_count() -> CheckResult:
    """ln|H| <= |B|: |hypothesis_set(C, D̃)| <= 2^|B| for every D̃ of size <= 3 over small classes."""
    classes = [thresholds_on(4), thresholds(3), xor_class(thresholds_on(4))]
    checked = 0
    for C in classes:
        for k in (1, 2, 3):
            for out in candidate_databases(C, k):
                size = len(hypothesis_set(C, out))
                if size > 2 ** len(set(out)):
                    return CheckResult(Verdict.VIOLATED, f"|H| = {size} > 2^|B| on {C.name}",
                                       witness=f"D̃ = {out!r}")
                checked += 1
    return CheckResult(Verdict.HOLDS, f"|H| <= 2^|B| (so ln|H| <= |B|·ln 2 <= |B|) on {checked} "
                                      "sanitized databases of 3 classes")


def _proof_m(alpha: Fraction, log_inv_beta: Fraction, vc: int) -> Interval:
    """1250/α²·VC·ln(25/(αβ)) with ln(1/β) given exactly."""
    ln = interval_log(Interval.point(25 / alpha), PREC) + log_inv_beta
    return ln * (1250 * vc / alpha**2)


def _stated_m(alpha: Fraction, log_inv_beta: Fraction, eps: Fraction, vc: int) -> Interval:
    """VC/(α³ε)·ln(1/α) + 1/(αε)·ln(1/β) (the O(·) of Theorem 3.3 without its constant)."""
    ln_inv_alpha = interval_log(Interval.point(1 / alpha), PREC)
    return ln_inv_alpha * (vc / (alpha**3 * eps)) + log_inv_beta / (alpha * eps)


def check_stated_m_covers_proof() -> CheckResult:
    """Is the proof's m >= 1250/α²·VC·ln(25/(αβ)) within STATED_M_CONSTANT × the stated O(·) bound?

    Evaluated (interval arithmetic) at α = 1/2, ε = 1, VC = 1000, ln(1/β) = 10^9.
    As β → 0 the ratio tends to 1250·VC·ε/α, so every fixed constant fails.
    """
    constant = STATED_M_CONSTANT
    alpha, eps, vc, lib = Fraction(1, 2), Fraction(1), 1000, Fraction(10**9)
    ratio = _proof_m(alpha, lib, vc) / _stated_m(alpha, lib, eps, vc)
    where = f"α = {alpha}, ε = {eps}, VC = {vc}, ln(1/β) = {lib}"
    text = f"proof's m / stated bound ∈ {interval_text(ratio, 4)} at {where}; constant {constant}"
    verdict = at_most(ratio, constant)
    match verdict:
        case Verdict.VIOLATED:
            return CheckResult(verdict, text + ": exceeds it", witness=where)
        case Verdict.HOLDS:
            return CheckResult(verdict, text + ": within it")
    return CheckResult(verdict, text + ": enclosure straddles it")


def check_corrected_m() -> CheckResult:
    """1250/α²·VC·ln(25/(αβ)) <= CORRECTED_M_CONSTANT·VC/α²·ln(1/(αβ)) whenever αβ <= 1/2.

    ln(25/(αβ)) = ln 25 + ln(1/(αβ)) <= (1 + ln 25/ln 2)·ln(1/(αβ)) as
    ln(1/(αβ)) >= ln 2; so it suffices that 1250·(1 + ln 25/ln 2) <= constant
    (interval arithmetic), confirmed on a grid of rational (α, β).
    """
    constant = CORRECTED_M_CONSTANT
    ln2 = interval_log(Interval.point(2), PREC)
    ln25 = interval_log(Interval.point(25), PREC)
    coefficient = (ln25 / ln2 + 1) * 1250
    verdict = at_most(coefficient, constant)
    if verdict is not Verdict.HOLDS:
        return CheckResult(verdict, f"1250(1 + ln 25/ln 2) ∈ {interval_text(coefficient, 4)} "
                           f"vs {constant}", witness=str(coefficient))
    grid = [Fraction(1, 2**j) for j in range(1, 40, 3)] + [Fraction(9, 10), Fraction(1, 3)]
    for a in grid:
        for b in grid:
            if a * b > Fraction(1, 2):
                continue
            lhs = (interval_log(Interval.point(25 / (a * b)), PREC)) * 1250
            rhs = interval_log(Interval.point(1 / (a * b)), PREC) * constant
            verdict = at_most(lhs, rhs)
            if verdict is Verdict.VIOLATED:
                return CheckResult(verdict, f"fails at α={a}, β={b}", witness=f"α={a}, β={b}")
            if verdict is Verdict.UNDECIDED:
                return CheckResult(verdict, f"enclosures of both sides overlap at α={a}, β={b}")
    return CheckResult(Verdict.HOLDS, f"1250(1 + ln 25/ln 2) <= {decimal(coefficient.hi, 4)} <= {constant}; "
                                      f"and on {len(grid) ** 2} grid points")


# ------------------------------------------------------------------ Lemma 3.4


def check_thresholds_privacy() -> CheckResult:
    """Exact audits of GenericLearner + BLR on THRESH_1 (X_1 = {0, 1}) with n = 3, m ∈ {1, 2}."""
    C = thresholds(1)
    uni = Universe(labeled_elements(C), (3,))
    return combine([audit_result(generic_learner_blr(C, m=m, k=2, epsilon=_EPS_K2).mechanism,
                                 uni)[0] for m in (1, 2)])


def check_thresholds_labeled_part() -> CheckResult:
    """For THRESH_d, d = 1..4: every sanitized D̃ of size k gives |H| <= k + 1 (equality reached).

    The labeled sample enters Theorem 3.3's proof only through Theorem B.6
    (VC only) and E2's |H|·exp(−εαm/10); this bound on |H| does not depend
    on d, so the labeled requirement does not grow with d.
    """
    rows = []
    for d in (1, 2, 3, 4):
        C = thresholds(d)
        for k in (1, 2, 3):
            largest = max(len(hypothesis_set(C, out)) for out in candidate_databases(C, k))
            if largest > k + 1:
                return CheckResult(Verdict.VIOLATED, f"THRESH_{d}, k={k}: |H| = {largest} > k+1",
                                   witness=f"d={d}, k={k}")
            rows.append(f"d={d},k={k}:{largest}")
    return CheckResult(Verdict.HOLDS, "max |H| over all sanitized databases: " + " ".join(rows))


# ------------------------------------------------------------------ Theorem A.3 (BLR)


def check_blr_privacy(sanitizer: Sanitizer | None = None) -> CheckResult:
    """Exact audits of BLR: THRESH_3^⊕ on 3 points (k = 2, ε = 4 ln(9/8); k = 3, ε = 1) and
    THRESH_4^⊕ on 4 points (k = 2, ε = 4 ln(9/8)), every input size 1..3 (2..3 on 4 points)."""
    if sanitizer is not None:
        pts = sanitizer.queries.domain.points
        return audit_result(sanitizer.mechanism, Universe(pts, (1, 2, 3)))[0]
    q3, q4 = xor_class(thresholds_on(3)), xor_class(thresholds_on(4))
    return combine([
        audit_result(blr_sanitizer(q3, k=2, epsilon=_EPS_K2).mechanism, Universe((0, 1, 2), (1, 2, 3)))[0],
        audit_result(blr_sanitizer(q3, k=3, epsilon=1).mechanism, Universe((0, 1, 2), (1, 2, 3)))[0],
        audit_result(blr_sanitizer(q4, k=2, epsilon=_EPS_K2).mechanism, Universe((0, 1, 2, 3), (2, 3)))[0],
    ])


def blr_accuracy_failure(sanitizer: Sanitizer, n: int, alpha: Fraction) -> tuple[Fraction, Dataset]:
    """max over every input S ∈ X^n of Pr[max_c |Q_c(S) − Q_c(Ŝ)| > α], exactly, and a worst S.

    Inputs are enumerated as multisets (the sanitizer is order-invariant; its
    audits verify that declaration).
    """
    worst = Fraction(-1)
    at: Dataset = ()
    pts = sanitizer.queries.domain.points
    for data in itertools.combinations_with_replacement(pts, n):
        fail = Fraction(0)
        for out, p in sanitizer.distribution(data).items():
            assert isinstance(p, Fraction)
            if query_error(sanitizer.queries, data, out) > alpha:
                fail += p
        if fail > worst:
            worst, at = fail, data
    return worst, at


def check_blr_accuracy(sanitizer: Sanitizer | None = None, *, alpha: Fraction = Fraction(1, 3),
                       n: int = 24) -> CheckResult:
    """Exact: BLR(k = 3, ε = 6 ln(5/4)) is an (α = 1/3, β = 1/25, ε, n = 24)-sanitizer for THRESH_3^⊕."""
    beta = BLR_BETA
    san = sanitizer or blr_sanitizer(xor_class(thresholds_on(3)), k=3, epsilon=_EPS_K3)
    worst, at = blr_accuracy_failure(san, n, alpha)
    text = (f"{san.name}: max over all {math.comb(n + len(san.queries.domain) - 1, n)} inputs of "
            f"size {n} of Pr[error > {alpha}] ≈ {decimal(worst, 4)} (exact rational, at S = {at!r}); "
            f"β = {beta}")
    if worst > beta:
        return CheckResult(Verdict.VIOLATED, text, witness=f"S = {at!r}")
    return CheckResult(Verdict.HOLDS, text)


def check_blr_tail() -> CheckResult:
    """BLR's accuracy step: Pr[n·err(Ŝ) >= n·min err + t] <= |R|·e^{−εt/2}, every input, every t.

    THRESH_3^⊕ on 3 points, k = 3 (|R| = 10 multisets), ε = 6 ln(5/4), all
    inputs of size n = 12; t ranges over the attained gaps (multiples of 1/3).
    """
    factor = BLR_TAIL_FACTOR
    san = blr_sanitizer(xor_class(thresholds_on(3)), k=3, epsilon=_EPS_K3)
    cands = candidate_databases(san.queries, 3)
    n, checked = 12, 0
    for data in itertools.combinations_with_replacement((0, 1, 2), n):
        errs = {out: n * query_error(san.queries, data, out) for out in cands}
        best = min(errs.values())
        dist = san.distribution(data)
        for t in sorted({e - best for e in errs.values()} - {Fraction(0)}):
            tail = Fraction(0)
            for out, p in dist.items():
                assert isinstance(p, Fraction)
                if errs[out] >= best + t:
                    tail += p
            bound = exp(_EPS_K3 * (-t / 2)) * (factor * len(cands))
            verdict = at_most(tail, bound)
            if verdict is not Verdict.HOLDS:
                return CheckResult(verdict,
                                   f"tail {tail} vs bound {bound} at t = {t}",
                                   witness=f"S = {data!r}, t = {t}")
            checked += 1
    return CheckResult(Verdict.HOLDS, f"exact tail <= {factor}·|R|·e^(-εt/2) in {checked} "
                                      f"(input, t) cases")


# ------------------------------------------------------------------ entries

_T33_ALSO: Final = ("000 Theorem 3.3",)
_T33 = (
    "Let C be a concept class over X_d. For every α, β, ε there is an (α, β, ε, δ=0, n, m)-private "
    "semi-supervised proper learner for C (GenericLearner, Algorithm 1) with "
    "m = O(VC(C)/(α³ε)·log(1/α) + 1/(αε)·log(1/β)) and "
    "n = O(d·VC(C)/(α³ε)·log(1/α) + 1/(αε)·log(1/β)); Appendix C.1 restates n = O_{α,β,ε}(d·VC(C)) "
    "and m >= O(…). Privacy: ε-DP by parallel composition (the sanitizer reads only D, the "
    "exponential mechanism only S).")
_T33_NOTES = (
    "Checked: ε-DP (exact audit, substitution of any entry, including ⊥/labeled swaps), properness "
    "(exact support), and utility at explicit small sizes on a tiny instance (exact). Not checkable "
    "as stated: the O(·) sample sizes (unspecified constants); the proof's explicit constants are "
    "the proof-step entries, one of which fails (the proof's m requirement is not within the stated "
    "O(·), 004-E18). Step 4's 'c(j_1), …, c(j_ℓ)' is read as c(b_1), …, c(b_ℓ). Inequality (3) "
    "concerns D, of size n − m, but the proof requires 'n and m' >= 1250/α²·VC·ln(25/(αβ)); it needs "
    "n − m >= that. The split D | S is the public parameter m; ⊥ labels in S agree with nothing; labels "
    "in D are ignored. BLR (not described in the paper) is the sanitizer; see 004 Theorem A.3.")

_STEP_B6 = Entry(
    paper="004", number="Theorem 3.3", kind=Kind.PROOF_STEP, status=Status.PROVED,
    step="1250/α²·VC·ln(25/(αβ)) is Theorem B.6 at (α/5, β/5)", also=_T33_ALSO,
    statement="Theorem B.6 with accuracy α/5 and confidence β/5 requires "
              "50·VC/(α/5)²·ln(1/((α/5)(β/5))) = 1250/α²·VC·ln(25/(αβ)) samples; used twice "
              "(for S and for D), it gives (2) and (3) with probability >= 1 − 2β/5.",
    parameter_range="all α, β > 0, VC >= 1 (algebraic identity; confirmed exactly on a rational grid)",
    checks=(Check("50/(α/5)² = 1250/α², 1/((α/5)(β/5)) = 25/(αβ)", check_constants_b6,
                  constant="B6_FACTOR"),))

_STEP_EM = Entry(
    paper="004", number="Theorem 3.3", kind=Kind.PROOF_STEP, status=Status.PROVED,
    step="Pr[not E2] <= |H|·exp(−εαm/10), ln|H| <= |B|", also=_T33_ALSO,
    statement="Proposition A.1 (ii) with Δ = α/5 bounds the failure of E2 by |H|·exp(−ε(α/5)m/2) = "
              "|H|·exp(−εαm/10); and ln|H| <= |B| <= |D̃| since |H| = |Π_C(B)| <= 2^|B|.",
    parameter_range="all α, ε > 0, m >= 1 (identity); |H| <= 2^|B| for every finite C and B "
                    "(exhaustive on three small classes, every D̃ of size <= 3)",
    checks=(Check("ε·(α/5)·m/2 = εαm/10", check_constants_em, constant="EM_DIVISOR"),
            Check("|H| <= 2^|B| on every sanitized database", check_hypothesis_count)),
    subjects=("reference.learners.generic",))

_STEP_ERRORS = Entry(
    paper="004", number="Theorem 3.3", kind=Kind.PROOF_STEP, status=Status.PROVED,
    step="E1 ∩ E2 ∩ E3 gives error_μ <= α (3α/5, 4α/5)", also=_T33_ALSO,
    statement="(2), (3), (4) and the triangle inequality give E1 with 3α/5; h* with "
              "error_D̃(h*, c) = 0 then has error_S(h*) <= 3α/5, E2 gives error_S(h) <= α/5 + 3α/5 = 4α/5, "
              "and (2) gives error_μ(c, h) <= 4α/5 + α/5 = α.",
    parameter_range="all α > 0 (linear in α; exact)",
    checks=(Check("3α/5, 4α/5, α", check_error_bookkeeping, constant="ERROR_E1"),))

_STEP_FAILURE = Entry(
    paper="004", number="Theorem 3.3", kind=Kind.PROOF_STEP, status=Status.PROVED,
    step="total failure 2β/5 + β/5 + β/5 = 4β/5 <= β", also=_T33_ALSO,
    statement="Theorem B.6 twice (2β/5), the sanitizer (β/5) and E2 (β/5) fail with total "
              "probability at most 4β/5 <= β.",
    parameter_range="all β >= 0 (linear in β; exact)",
    checks=(Check("2/5 + 1/5 + 1/5 = 4/5 <= 1", check_failure_bookkeeping),))

_STEP_M = Entry(
    paper="004", number="Theorem 3.3", kind=Kind.PROOF_STEP, status=Status.REFUTED,
    step="the proof's m requirement is within the stated O(·)", also=_T33_ALSO,
    statement="The proof's requirement m >= 1250/α²·VC(C)·ln(25/(αβ)) (for (2)) is covered by the "
              "stated m = O(VC(C)/(α³ε)·log(1/α) + 1/(αε)·log(1/β)), i.e. is at most a universal "
              "constant times it.",
    counterexample="As β → 0 the ratio tends to 1250·VC·ε/α, unbounded in VC, ε and 1/α: at "
                   "α = 1/2, ε = 1, VC = 1000, ln(1/β) = 10^9 it is ≈ 2.5·10^6 (> 10^6). 004-E18 "
                   "(MINOR): the VC·log(1/β)/α² term is missing from the statement.",
    corrected="m = O(VC(C)/α²·log(1/(αβ)) + VC(C)/(α³ε)·log(1/α) + 1/(αε)·log(1/β)) (for ε <= 1 the "
              "first term's log(1/α) part is absorbed): 1250/α²·VC·ln(25/(αβ)) <= "
              "7100·VC/α²·ln(1/(αβ)) whenever αβ <= 1/2.",
    checks=(Check("ratio <= 10^6 at α=1/2, ε=1, VC=1000, ln(1/β)=10^9", check_stated_m_covers_proof,
                  Verdict.VIOLATED),
            Check("1250·ln(25/(αβ)) <= 7100·ln(1/(αβ)) for αβ <= 1/2", check_corrected_m,
                  constant="CORRECTED_M_CONSTANT")))

_T33_CHECKS: Final = (
    Check("privacy: exact audit of GenericLearner + BLR(k=1), THRESH on 3 points, n=3, m=1",
          check_generic_privacy),
    Check("privacy: exact audit at ε = 1 (enclosures), THRESH_1, n=3, m=1",
          check_generic_privacy_eps1),
    Check("proper: every output on every audited database is in C", check_generic_proper),
    Check("utility: exact Pr[error > 1/3] <= 1/20, n−m=16, m=12, every target, two μ",
          check_generic_utility, constant="UTILITY_BETA"),
)

THEOREM_3_3 = Entry(
    paper="004", number="Theorem 3.3", statement=_T33, kind=Kind.THEOREM, status=Status.CHECKED,
    checks=_T33_CHECKS, also=_T33_ALSO, notes=_T33_NOTES,
    subjects=("reference.learners.generic", "reference.learners.sanitizer"))

_L34 = ("There exists an efficient approximate-private proper learner for THRESH_d with labeled "
        "sample complexity O_{α,β,ε}(1) and unlabeled sample complexity Õ_{α,β,ε,δ}(8^{log* d}) "
        "(GenericLearner with the approximate-private sanitizer for intervals of [8] = BNS13 in Step 2).")

LEMMA_3_4 = Entry(
    paper="004", number="Lemma 3.4", statement=_L34, kind=Kind.LEMMA, status=Status.NOT_CHECKABLE,
    reason="It rests on the BNS13 sanitizer for intervals/thresholds ([8]), which neither paper "
           "describes, and its sizes are asymptotic (O_{α,β,ε}(1), "
           "Õ(8^{log* d}) with unspecified constants).",
    illustration="GenericLearner with the pure BLR sanitizer in its place on THRESH_1: exactly "
                 "ε-DP (audit, n = 3, m ∈ {1, 2}); and for d = 1..4 every sanitized database of size k "
                 "gives |H| <= k + 1, so the labeled requirement of Theorem 3.3's proof (Theorem B.6: "
                 "VC only; E2: |H|·exp(−εαm/10)) does not grow with d. BLR's unlabeled need grows with "
                 "log|X| = d; only BNS13 would give 8^{log* d}.",
    checks=(Check("privacy: exact audits on THRESH_1 with BLR", check_thresholds_privacy),
            Check("|H| <= k + 1 for every sanitized database, d = 1..4", check_thresholds_labeled_part)),
    also=("000 Corollary 3.4",), subjects=("reference.learners.generic",),
    notes="004 cites the sanitizer 'for intervals from [8]'; 000 Corollary 3.4 the sanitizer 'for "
          "threshold functions from [7]' (the same BNS APPROX'13 paper under its 000 number).")

_A3 = ("For any class of predicates C over X and any α, β, ε there is an (α, β, ε, m)-sanitizer for C "
       "(Definition A.2) provided m >= O(log|X|·VC(C)·log(1/α)/(α³ε) + log(1/β)/(εα)); its output has "
       "O(VC(C)/α²·log(1/α)) elements (Blum, Ligett, Roth).")

THEOREM_A_3 = Entry(
    paper="004", number="Theorem A.3", statement=_A3, kind=Kind.THEOREM, status=Status.CHECKED,
    checks=(Check("privacy: exact audits of BLR on 3 and 4 points", check_blr_privacy),
            Check("accuracy: (1/3, 1/25, 6 ln(5/4), 24)-sanitizer for THRESH_3^⊕ (exact, all inputs)",
                  check_blr_accuracy, constant="BLR_BETA"),
            Check("accuracy step: exact tail <= |R|·e^(-εt/2) on every input of size 12",
                  check_blr_tail, constant="BLR_TAIL_FACTOR")),
    also=("000 Theorem A.3",), subjects=("reference.learners.sanitizer",),
    notes="Checked for the concrete instantiation, not as stated: the theorem is existential with "
          "O(·) sizes (unspecified constants). Neither paper describes BLR; the "
          "construction (exponential mechanism over size-k multisets, score −|S|·max_c|Q_c(S) − Q_c(Ŝ)|, "
          "sensitivity 1) comes from outside the papers. Checked: ε-DP exactly; Definition A.2's "
          "accuracy exactly for one (α, β, ε, m, k) on every input; and the exponential-mechanism "
          "step Pr[err >= OPT_k + t/m] <= |R|·e^{−εt/2} behind BLR's size bound. Not checked: the "
          "existence of Ŝ with error <= α/2 at k = O(VC·log(1/α)/α²) beyond these sizes. 004's "
          "Definition A.2 item 2 is garbled ('the size of the database m satisfies:').")

ENTRIES: tuple[Entry, ...] = (THEOREM_3_3, _STEP_B6, _STEP_EM, _STEP_ERRORS, _STEP_FAILURE, _STEP_M,
                              LEMMA_3_4, THEOREM_A_3)

