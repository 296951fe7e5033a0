"""Ledger: 003 Theorem 3.1 (upper bound), Lemma 3.2 (privacy), Lemma 3.3 (α-cover) and inequality (1).

What is checked, and on what (every check is exact; no sampling):

* **Privacy** of A_SSPP (:mod:`privref.reference.learners.semiprivate`): the exact
  auditor over every PublicPrivate pair (public prefix fixed) of tiny
  universes at the claimed ε = 2 ln 2 (rational base 2), and the negative
  control: the same mechanism with weights e^{ε·q} (no 1/2) is caught
  (worst ratio 193/13 > 4 at T_pub = (0, 1, 2), inventory §3).
* **Cover**: P[H̃ not an α-cover] <= P[Bad] <= 2(2e·n/d)^{2d}·e^{−αn/4}, with
  P[Bad] and P[not cover] exact by support inclusion–exclusion
  (P[supp T = A] = Σ_{B⊆A} (−1)^{|A|−|B|} D_X(B)^n), the right side an exact
  real decided by interval arithmetic.
* **Inequality (1) needs 2n >= d** (003-E5): all functions on 8 points,
  n = 1, α = 1/10 has P[Bad] = 1 > 2(e/4)^{16}e^{−1/40} ≈ 0.0040.
* **Theorem 3.1** (O(·), not checkable as stated): the proof's chain on a tiny
  instance, exactly: P[excess > α] <= P[cover fails at α_c] + P[uniform
  convergence fails at η] + P[exponential mechanism fails at γ].
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Final

from privref.reference.concepts import Concept, ConceptClass, explicit, intervals, thresholds_on
from privref.reference.data import labeled
from privref.reference.decide import all_hold, at_most
from privref.reference.learners.semiprivate import alpha_cover, sspp_learner
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import Real, exp, log, rational
from privref.reference.vc import vc_dimension, xor_class

from .._common import audit_result, combine
from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import decimal

__all__ = [
    "ENTRIES",
    "INEQUALITY_1_FACTOR",
    "all_functions",
    "bad_probability",
    "check_chain_tiny",
    "check_cover_bound",
    "check_inequality_1_corrected",
    "check_inequality_1_small_n",
    "check_privacy",
    "check_privacy_negative_control",
    "inequality_1_rhs",
    "is_bad",
    "mass",
    "not_cover_probability",
    "support_probabilities",
    "uniform",
]

INEQUALITY_1_FACTOR = 2
"""The leading 2 of 003 Lemma 3.3's inequality (1), 2·(2e·n_pub/d)^{2d}·e^{−α n_pub/4}."""

_BASE: Final = Fraction(2)
"""e^{ε/2} = 2, so ε = 2 ln 2 and e^ε = 4 (the inventory's sanity experiment)."""

_PUBLICS: Final = ((), (1,), (0, 2), (0, 1, 2))


# ------------------------------------------------------------------ exact tools


def _masks_of(points: list[int]) -> int:
    s = 0
    for p in points:
        s |= 1 << p
    return s


def mass(mu: tuple[Fraction, ...], mask: int) -> Fraction:
    """The D_X-mass of the points in ``mask`` under the marginal ``mu`` (003 Lemma 3.3)."""
    return sum((w for i, w in enumerate(mu) if mask >> i & 1), Fraction(0))


def support_probabilities(mu: tuple[Fraction, ...], n: int) -> dict[int, Fraction]:
    """P[supp(T) = A] for T ~ μ^n, A as a bitmask over domain positions (inclusion–exclusion).

    Only subsets of supp(μ) are returned; the values are exact and sum to 1.
    """
    if sum(mu) != 1 or any(w < 0 for w in mu):
        raise ValueError(f"mu={mu!r} must be a probability vector")
    full = _masks_of([i for i, w in enumerate(mu) if w > 0])
    power = {b: mass(mu, b) ** n for b in _submasks(full)}
    out: dict[int, Fraction] = {}
    for a in _submasks(full):
        size = a.bit_count()
        p = sum(((-1) ** (size - b.bit_count()) * power[b] for b in _submasks(a)), Fraction(0))
        if p:
            out[a] = p
    return out


def _submasks(a: int) -> list[int]:
    subs = [0]
    b = a
    while b:
        subs.append(b)
        b = (b - 1) & a
    return subs


def is_bad(heavy: list[int], a: int) -> bool:
    """Bad(A): some h1 Δ h2 with D_X-mass > α is 0 on every point of A (003 Lemma 3.3, P2)."""
    return any(g & a == 0 for g in heavy)


def bad_probability(H: ConceptClass, mu: tuple[Fraction, ...], alpha: Fraction, n: int
                    ) -> Fraction:
    """Exact P_{T ~ μ^n}[Bad] (Bad depends on supp(T) only)."""
    heavy = [g for g in xor_class(H).masks if mass(mu, g) > alpha]
    return sum((p for a, p in support_probabilities(mu, n).items() if is_bad(heavy, a)),
               Fraction(0))


def not_cover_probability(H: ConceptClass, mu: tuple[Fraction, ...], alpha: Fraction, n: int
                          ) -> Fraction:
    """Exact P_{T ~ μ^n}[H̃_T (A_SSPP's canonical cover) is not an α-cover of H w.r.t. μ]."""
    points = H.domain.points
    total = Fraction(0)
    for a, p in support_probabilities(mu, n).items():
        cover = [c.mask for c in alpha_cover(H, tuple(points[i] for i in range(len(points))
                                                      if a >> i & 1))]
        if any(min(mass(mu, h ^ c) for c in cover) > alpha for h in H.masks):
            total += p
    return total


def inequality_1_rhs(n: int, d: int, alpha: Fraction) -> Real:
    """2·(2e·n/d)^{2d}·e^{−αn/4} = 2·e^{2d − αn/4}·(2n/d)^{2d}, exactly (003 Lemma 3.3, (1)).

    The leading 2 is :data:`INEQUALITY_1_FACTOR`, read at run time.
    """
    return exp(Fraction(2 * d) - alpha * n / 4) * rational(
        INEQUALITY_1_FACTOR * Fraction(2 * n, d) ** (2 * d))


def uniform(k: int) -> tuple[Fraction, ...]:
    """The uniform marginal on k points."""
    return tuple(Fraction(1, k) for _ in range(k))


@cache
def all_functions(k: int) -> ConceptClass:
    """All 2^k functions on k points (VC dimension k): 003 Lemma 3.3's (1) at 2n < d."""
    return explicit(range(k), itertools.product((0, 1), repeat=k), name=f"ALL[{k} points]")


# ------------------------------------------------------------------ 003 Lemma 3.2


def _universe(public: tuple[int, ...], H: ConceptClass, size: int) -> Universe:
    elements = tuple(labeled(x, y) for x in H.domain.points for y in (0, 1))
    return Universe(elements, (size,), public=tuple(labeled(x, 0) for x in public))


def check_privacy() -> CheckResult:
    """Exact audit of A_SSPP (base 2, ε = 2 ln 2) under PublicPrivate: THRESH on 3 points, n_priv = 3,
    T_pub ∈ {(), (1), (0,2), (0,1,2)}; and intervals on 3 points, n_priv = 2, T_pub = (0, 2)."""
    results = []
    H = thresholds_on(3)
    for public in _PUBLICS:
        L = sspp_learner(H, public_size=len(public), epsilon=log(_BASE) * 2)
        results.append(audit_result(L.mechanism, _universe(public, H, 3))[0])
    J = intervals(3)
    L = sspp_learner(J, public_size=2, epsilon=log(_BASE) * 2)
    results.append(audit_result(L.mechanism, _universe((0, 2), J, 2))[0])
    return combine(results)


def check_privacy_negative_control() -> CheckResult:
    """HOLDS iff the variant without the 1/2 (weights e^{ε·q}) is caught (VIOLATED) at the claimed ε.

    Inventory §3: worst ratio 193/13 > e^ε = 4 at T_pub = (0, 1, 2), THRESH on 3 points, n_priv = 3.
    """
    H = thresholds_on(3)
    claim = PrivacyClaim(log(_BASE) * 2)
    broken = sspp_learner(H, public_size=3, epsilon=log(_BASE) * 4,
                          name="A_SSPP without the 1/2 (weights e^{eps q})")
    result, report = audit_result(broken.mechanism, _universe((0, 1, 2), H, 3), claim=claim)
    exact = report.epsilon_exact
    ratio_ok = exact is not None and str(exact) == str(log(Fraction(193, 13)))
    caught = result.verdict is Verdict.VIOLATED
    verdict = Verdict.HOLDS if caught and ratio_ok else Verdict.VIOLATED
    return CheckResult(verdict, f"negative control (expected VIOLATED at eps = 2 ln 2, worst ratio "
                                f"193/13): {result.evidence}; verdict {result.verdict.value}",
                       result.witness)


# ------------------------------------------------------------------ 003 Lemma 3.3


def _cover_cases() -> list[tuple[ConceptClass, tuple[Fraction, ...], Fraction, int]]:
    skew = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 16), Fraction(1, 16))
    cases = []
    for n in (1, 2, 5, 20, 300):
        cases.append((thresholds_on(6), uniform(6), Fraction(1, 4), n))
        cases.append((thresholds_on(5), skew, Fraction(1, 10), n))
        cases.append((intervals(4), uniform(4), Fraction(1, 4), n))
    return cases


def check_cover_bound() -> CheckResult:
    """P[not α-cover] <= P[Bad] <= (1) exactly, on tiny classes (2n >= d in every case)."""
    lines = []
    for H, mu, alpha, n in _cover_cases():
        d = vc_dimension(H)
        p_bad = bad_probability(H, mu, alpha, n)
        p_cov = not_cover_probability(H, mu, alpha, n)
        rhs = inequality_1_rhs(n, d, alpha)
        line = (f"{H.name}, n={n}, α={alpha}: P[not cover]={decimal(p_cov, 3)} <= "
                f"P[Bad]={decimal(p_bad, 3)} <= (1)={decimal(rhs, 3)}")
        verdict = all_hold((at_most(p_cov, p_bad), at_most(p_bad, rhs)))
        if verdict is not Verdict.HOLDS:
            return CheckResult(verdict, "cover bound fails" if verdict is Verdict.VIOLATED
                               else "cover bound undecided", line)
        lines.append(line)
    return CheckResult(Verdict.HOLDS, f"{len(lines)} cases; non-vacuous: " +
                       "; ".join(x for x in lines if "n=300" in x))


def check_inequality_1_small_n() -> CheckResult:
    """(1) as printed at 2n < d: all functions on 8 points (d = 8), uniform, α = 1/10, n = 1."""
    H = all_functions(8)
    d = vc_dimension(H)
    alpha = Fraction(1, 10)
    p_bad = bad_probability(H, uniform(8), alpha, 1)
    rhs = inequality_1_rhs(1, d, alpha)
    text = f"d={d}, n=1, α=1/10: P[Bad]={p_bad} vs (1)={decimal(rhs, 3)}"
    verdict = at_most(p_bad, rhs)
    if verdict is Verdict.VIOLATED:
        return CheckResult(verdict, f"P[Bad] > (1): {text}", text)
    return CheckResult(verdict, text if verdict is Verdict.HOLDS else f"undecided: {text}")


def check_inequality_1_corrected() -> CheckResult:
    """(1) with 2n >= d: the same class at n = 4..6, and the thresholds/intervals cases."""
    H = all_functions(8)
    d = vc_dimension(H)
    alpha = Fraction(1, 10)
    for n in range(math.ceil(d / 2), 7):
        p_bad = bad_probability(H, uniform(8), alpha, n)
        verdict = at_most(p_bad, inequality_1_rhs(n, d, alpha))
        if verdict is not Verdict.HOLDS:
            return CheckResult(verdict, f"(1) {'fails' if verdict is Verdict.VIOLATED else 'undecided'}"
                               f" at d={d}, n={n}", f"n={n}")
    rest = check_cover_bound()
    if rest.verdict is not Verdict.HOLDS:
        return rest
    return CheckResult(Verdict.HOLDS, f"ALL[8 points] at n=4..6 (vacuous) and {rest.evidence}")


# ------------------------------------------------------------------ 003 Theorem 3.1


def _err(h: int, D: Mapping[tuple[int, int], Fraction]) -> Fraction:
    return sum((p for (x, y), p in D.items() if (h >> x & 1) != y), Fraction(0))


def _multisets(elements: tuple[tuple[int, int], ...], n: int, D: Mapping[tuple[int, int], Fraction]
               ) -> list[tuple[tuple[tuple[int, int], ...], Fraction]]:
    out = []
    for combo in itertools.combinations_with_replacement(elements, n):
        counts: dict[tuple[int, int], int] = {}
        for z in combo:
            counts[z] = counts.get(z, 0) + 1
        coef = math.factorial(n)
        prob = Fraction(1)
        for z, c in counts.items():
            coef //= math.factorial(c)
            prob *= D[z] ** c
        if prob:
            out.append((combo, coef * prob))
    return out


_T31_N_PUB: Final = 2
_T31_N_PRIV: Final = 6
_T31_ALPHA: Final = Fraction(1, 4)
_T31_PARTS: Final = (Fraction(1, 20), Fraction(1, 20), Fraction(1, 10))
"""(α_c, η, γ) with α_c + 2η + γ = α = 1/4."""


def check_chain_tiny() -> CheckResult:
    """Exact P[excess > α] <= P[cover fails at α_c] + P[UC fails at η] + P[EM fails at γ].

    THRESH on 3 points, D_X = (1/2, 1/4, 1/4), y = c_2(x) flipped w.p. 1/5, n_pub = 2,
    n_priv = 6, base 2 (ε = 2 ln 2), α = 1/4 = α_c + 2η + γ with (α_c, η, γ) = (1/20, 1/20, 1/10).
    The learner's exact output laws come from its one program.  At these sizes the right side
    exceeds 1 (the decomposition is illustrated, not a non-vacuous guarantee).
    """
    H = thresholds_on(3)
    mu = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 4))
    target = H[2].mask
    flip = Fraction(1, 5)
    D = {(x, y): mu[x] * (1 - flip if (target >> x & 1) == y else flip)
         for x in range(3) for y in (0, 1)}
    elements = tuple(D)
    opt = min(_err(h, D) for h in H.masks)
    a_c, eta, gamma = _T31_PARTS
    if a_c + 2 * eta + gamma != _T31_ALPHA:
        raise ValueError("α_c + 2η + γ must equal α")
    supports = support_probabilities(mu, _T31_N_PUB)
    samples = _multisets(elements, _T31_N_PRIV, D)
    p_fail = p_cover = p_uc = Fraction(0)
    em_worst = Fraction(0)
    for S, ps in samples:
        emp = {h: Fraction(sum((h >> x & 1) != y for x, y in S), _T31_N_PRIV) for h in H.masks}
        if any(abs(emp[h] - _err(h, D)) > eta for h in H.masks):
            p_uc += ps
    for a, pa in supports.items():
        public = tuple(x for x in range(3) if a >> x & 1)
        cover = alpha_cover(H, public)
        if all(_err(c.mask, D) > opt + a_c for c in cover):
            p_cover += pa
        learner = sspp_learner(H, public_size=len(public), epsilon=log(_BASE) * 2)
        em_fail_a = Fraction(0)
        for S, ps in samples:
            data = tuple(labeled(x, 0) for x in public) + tuple(labeled(x, y) for x, y in S)
            law = learner.distribution(data).as_dict()
            emp_cover = {c: Fraction(sum(c(x) != y for x, y in S), _T31_N_PRIV) for c in cover}
            best = min(emp_cover.values())
            for c, q in law.items():
                assert isinstance(q, Fraction) and isinstance(c, Concept)
                if _err(c.mask, D) > opt + _T31_ALPHA:
                    p_fail += pa * ps * q
                if emp_cover[c] > best + gamma:
                    em_fail_a += ps * q
        em_worst = max(em_worst, em_fail_a)
    bound = p_cover + p_uc + em_worst
    text = (f"P[excess > {_T31_ALPHA}] = {decimal(p_fail, 4)} <= P[cover] {decimal(p_cover, 4)} + "
            f"P[UC] {decimal(p_uc, 4)} + P[EM] {decimal(em_worst, 4)} = {decimal(bound, 4)}")
    return CheckResult(Verdict.HOLDS if p_fail <= bound else Verdict.VIOLATED, text,
                       None if p_fail <= bound else text)


# ------------------------------------------------------------------ entries

_L32 = "For every T_pub ∈ X^{n_pub}, A_SSPP(·, T_pub) is (pure) ε-differentially private."

LEMMA_3_2 = Entry(
    paper="003", number="Lemma 3.2", statement=_L32, kind=Kind.LEMMA, status=Status.CHECKED,
    checks=(Check("privacy: exact audits under PublicPrivate, THRESH/intervals on 3 points, "
                  "ε = 2 ln 2", check_privacy),
            Check("negative control: weights e^{ε·q} (no 1/2) are VIOLATED, ratio 193/13 > 4",
                  check_privacy_negative_control)),
    subjects=("reference.learners.semiprivate",),
    notes="The paper defers the proof ('straightforward'): H̃ is a function of T_pub only (our "
          "choice rule: first concept in canonical order per pattern), the exponential mechanism "
          "with sensitivity 1/n_priv (we use the count, sensitivity 1: the same law) is ε-DP, "
          "post-processing. Exact worst-case ratios at e^ε = 4: 3, 17/5, 25/7 for T_pub = (1), "
          "(0,2), (0,1,2) (matching inventory §3). The relation is substitution of one private "
          "entry with T_pub fixed (Definition 2.2, item 2).")

_L33 = ("If T_pub ~ D_X^{n_pub} with n_pub = O((d log(1/α) + log(1/β))/α), then with probability "
        ">= 1 − β the family H̃_{T_pub} of Algorithm 1 is an α-cover of H w.r.t. D_X; via "
        "P[not α-cover] <= P[Bad] <= 2(2e·n_pub/d)^{2d}·e^{−α n_pub/4} (inequality (1)).")

LEMMA_3_3 = Entry(
    paper="003", number="Lemma 3.3", statement=_L33, kind=Kind.LEMMA, status=Status.CHECKED,
    checks=(Check("exact P[not cover] <= P[Bad] <= (1) on thresholds/intervals, n up to 300",
                  check_cover_bound, constant="INEQUALITY_1_FACTOR"),),
    subjects=("reference.learners.semiprivate",),
    notes="Checked through its explicit form (1) (with the hypothesis 2n_pub >= d, see the "
          "proof-step entry): exact P[Bad] and P[H̃ not an α-cover] by support inclusion–exclusion "
          "on THRESH (6 points uniform, 5 points skewed) and intervals on 4 points, n ∈ {1, 2, 5, "
          "20, 300}; non-vacuous at n = 300. Each step of the proof has its own entry "
          "(proofs.p003.cover_steps): representatives (P1), not-a-cover ⇒ Bad (P2), the O(·) "
          "sample size with explicit constants (P4, REFUTED uniformly in α, β; C = 30 for "
          "α <= 1/10), |Π_{H_Δ}| <= |Π_H|² (P5), Sauer (P6, needs m >= d), h_0 ≡ 0 (P7, "
          "003-E6) and the double-sample bound (P8).")

STEP_INEQ_1 = Entry(
    paper="003", number="Lemma 3.3", kind=Kind.PROOF_STEP, status=Status.REFUTED,
    step="inequality (1)",
    statement="P_{T_pub ~ D_X^{n_pub}}[Bad] <= 2·(2e·n_pub/d)^{2d}·e^{−α n_pub/4} (stated for all "
              "n_pub).",
    counterexample="H = all functions on 8 points (d = 8), D_X uniform, α = 1/10, n_pub = 1: "
                   "P[Bad] = 1 exactly, but 2(2e/8)^{16}e^{−1/40} ≈ 0.0040 (Sauer's (em/d)^d needs "
                   "m >= d; 003-E5).",
    corrected="Inequality (1) holds when 2n_pub >= d (the lemma's O(·) forces this anyway).",
    checks=(Check("(1) at d = 8, n = 1 (2n < d)", check_inequality_1_small_n, Verdict.VIOLATED),
            Check("(1) with 2n >= d on every exact case", check_inequality_1_corrected,
                  constant="INEQUALITY_1_FACTOR")),
    subjects=("reference.learners.semiprivate",))

_T31 = ("For every H with VC(H) = d, α, β ∈ (0,1), ε > 0, A_SSPP is an (α, β, ε)-SS-SP agnostic "
        "learner with n_priv = O((d log(1/α) + log(1/β))·max(1/α², 1/(εα))) and n_pub = "
        "O((d log(1/α) + log(1/β))/α).")

THEOREM_3_1 = Entry(
    paper="003", number="Theorem 3.1", statement=_T31, kind=Kind.THEOREM,
    status=Status.NOT_CHECKABLE,
    reason="The sample sizes are O(·) with unspecified constants and the proof is deferred to "
           "[ABM19]; the explicit-constant instantiation (inventory §3) needs n_pub, n_priv in "
           "the thousands, beyond exact enumeration: it is the AUDITED proof-step entry "
           "'003 Theorem 3.1 / explicit instantiation (ours): …' (seeded Monte Carlo).",
    illustration="The instantiation's chain, exactly on a tiny instance (THRESH on 3 points, "
                 "noisy labels, n_pub = 2, n_priv = 6, ε = 2 ln 2, α = 1/4 = α_c + 2η + γ): "
                 "P[excess > α] <= P[cover fails at α_c] + P[uniform convergence fails at η] + "
                 "P[exponential mechanism fails at γ], all exact (the right side exceeds 1 at "
                 "such sizes: it illustrates the proof's decomposition, not the rates).",
    checks=(Check("exact chain: P[excess > 1/4] <= cover + UC + EM failures", check_chain_tiny),),
    subjects=("reference.learners.semiprivate",))

ENTRIES: tuple[Entry, ...] = (THEOREM_3_1, LEMMA_3_2, LEMMA_3_3)
"""STEP_INEQ_1 is listed by :mod:`privref.proofs.p003.cover_steps`, in the proof's order (P3)."""
