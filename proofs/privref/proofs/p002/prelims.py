"""Ledger: the preliminaries of paper 002 (§2): Lemmas 1–5 and the post-processing remark.

The paper's math was lost in the text dump, so every statement below is reconstructed
(tags as in the reconstruction: [R-high] forced by a standard result, [R-med] constants
uncertain, [ours] our explicit version).  Every check is exact: probabilities are Fractions
(multinomial or inclusion–exclusion enumeration), transcendental comparisons are decided by
interval arithmetic (:mod:`privref.reference.decide`), and privacy is audited by the
exact auditor :func:`privref.audits.prediction.audit_prediction`.

* Lemma 1 (α-nets): exact P[not an α-net] against the explicit 2·τ_C(2m)²·e^{−αm/4}
  (m ≥ 8/α), monotonicity in m, and "without replacement only helps".
* Lemma 2 (Sauer–Shelah): exact growth functions; the (em/d)^d form needs its hypothesis m ≥ d
  (lost from the text after 'and'; the usage note under the entry shows it is needed).
* Lemma 3 (uniform convergence): the finite-class Hoeffding form, by exact enumeration.
* Lemma 4 (exponential mechanism): exact audit of B5, the tail |H|·r^{−t} and the
  expectation ln|H|/ln r (in mistakes), and post-processing (a DP model predicts privately).
* Lemma 5 (amplification by subsampling): the exact ln(1 + (m/n)(e^ε − 1)), attained.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Hashable
from fractions import Fraction
from functools import cache
from typing import Final

from privref.audits.prediction import audit_prediction
from privref.reference.citations import Uncited
from privref.reference.concepts import (
    Concept,
    ConceptClass,
    explicit,
    intervals,
    point_functions,
    thresholds_on,
)
from privref.reference.data import Dataset, label_of, point_of
from privref.reference.decide import at_most, greater_than, less_than, proved_le
from privref.reference.learners.prediction_baselines import (
    generic_predictor,
    private_majority_epsilon,
)
from privref.reference.learners.stable_prediction import (
    pattern_exponential_mechanism,
    random_index_subset,
)
from privref.reference.neighbors import SUBSTITUTION, Universe
from privref.reference.prediction import Predictor, PrivatePrediction
from privref.reference.program import Program, call, categorical, distribution
from privref.reference.reals import exp, log, rational
from privref.reference.vc import growth_function, sauer_shelah_bound, vc_dimension

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import exact_and_decimal
from ..p003.upper import bad_probability

__all__ = [
    "ENTRIES",
    "amplified_vote_predictor",
    "check_amplification_candidates",
    "check_amplification_tight",
    "check_exp_mech_expectation",
    "check_exp_mech_tail",
    "check_explicit_net_bound",
    "check_hoeffding_finite_class",
    "check_lemma1_illustration",
    "check_lemma4_privacy_and_utility",
    "check_net_monotone_and_distinct",
    "check_post_processing",
    "check_sauer_hypothesis_needed",
    "check_sauer_shelah",
    "distinct_sample_law",
]

F = Fraction
_R: Final = F(3, 2)
"""e^{ε/2} = 3/2: ε = 2·ln(3/2), so exponential-mechanism laws are rational."""
_EPS: Final = log(_R) * 2


# ------------------------------------------------------------------ test families


@cache
def _classes() -> tuple[ConceptClass, ...]:
    """Structured classes plus four seeded random classes on 4 points."""
    rng = random.Random(2002)
    randoms = []
    for j, size in enumerate((3, 5, 8, 11)):
        masks = sorted({rng.getrandbits(4) for _ in range(size)})
        randoms.append(explicit(range(4), [tuple((m >> i) & 1 for i in range(4)) for m in masks],
                                name=f"random[4 points, seed 2002, #{j}]"))
    return (thresholds_on(4), intervals(4), point_functions(range(4), include_zero=True),
            explicit(range(3), itertools.product((0, 1), repeat=3), name="ALL[3 points]"),
            *randoms)


def _marginals(k: int) -> tuple[tuple[Fraction, ...], ...]:
    """Uniform and a skewed marginal on k points."""
    skew = (*tuple(F(1, 2 ** (i + 1)) for i in range(k - 1)), F(1, 2 ** (k - 1)))
    return tuple(F(1, k) for _ in range(k)), skew


def _frac(p: object) -> Fraction:
    assert isinstance(p, Fraction), p
    return p


def _mass(mu: tuple[Fraction, ...], mask: int) -> Fraction:
    return sum((w for i, w in enumerate(mu) if mask >> i & 1), F(0))


def _is_net(C: ConceptClass, mu: tuple[Fraction, ...], alpha: Fraction, support: int) -> bool:
    """Every h, h' ∈ C equal on ``support`` (a bitmask of points) disagree on mass <= α (002 D9)."""
    return all(_mass(mu, h ^ g) <= alpha for h, g in itertools.combinations(C.masks, 2)
               if (h ^ g) & support == 0)


# ------------------------------------------------------------------ Lemma 1


_NET_ALPHAS: Final = (F(1, 4), F(1, 2))

NET_EXPONENT_DIVISOR = F(4)
"""The 4 of e^{−αm/4} in our explicit 002 Lemma 1 bound 2·τ_C(2m)²·e^{−αm/4} (m >= 8/α)."""


def check_explicit_net_bound() -> CheckResult:
    """P[m i.i.d. points are not an α-net] <= 2·τ_C(2m)²·e^{−αm/4} for m >= 8/α.

    The 4 is :data:`NET_EXPONENT_DIVISOR`, read at run time (a smaller divisor, a stronger
    bound, must fail).
    """
    cases = useful = 0
    for C in _classes()[:4]:
        for mu in _marginals(len(C.domain)):
            for alpha in _NET_ALPHAS:
                start = math.ceil(8 / alpha)
                for m in (start, start + 1, 2 * start, 5 * start, 10 * start):
                    p = bad_probability(C, mu, alpha, m)
                    rhs = (exp(-alpha * m / NET_EXPONENT_DIVISOR)
                           * rational(2 * growth_function(C, 2 * m) ** 2))
                    within = at_most(p, rhs)
                    if within is not Verdict.HOLDS:
                        return CheckResult(within, "net bound not proved",
                                           f"{C.name}, μ={mu}, α={alpha}, m={m}: P = {p}")
                    cases += 1
                    useful += less_than(rhs, 1) is Verdict.HOLDS
    return CheckResult(Verdict.HOLDS, f"{cases} (class, μ, α, m) cases with m >= 8/α, exact "
                       f"P[not α-net] vs the bound; the bound is below 1 in {useful}")


def distinct_sample_law(mu: tuple[Fraction, ...], m: int) -> dict[int, Fraction]:
    """Law of the set of m DISTINCT points drawn by re-sampling from μ until m are distinct.

    Exact: an ordered draw x_1..x_m has probability Π_j μ(x_j)/(1 − Σ_{k<j} μ(x_k)); sets are
    bitmasks over positions.  Requires m <= |supp μ| (ValueError otherwise).  (002 Lemma 1,
    the without-replacement variant.)
    """
    support = [i for i, w in enumerate(mu) if w > 0]
    if m > len(support):
        raise ValueError(f"m={m} exceeds the support size {len(support)}")
    out: dict[int, Fraction] = {}
    for order in itertools.permutations(support, m):
        p, used = F(1), F(0)
        for i in order:
            p *= mu[i] / (1 - used)
            used += mu[i]
        key = sum(1 << i for i in order)
        out[key] = out.get(key, F(0)) + p
    return out


def check_net_monotone_and_distinct() -> CheckResult:
    """Supersets of nets are nets; P[not net] is non-increasing in m; distinct points only help."""
    cases = 0
    for C in _classes():
        k = len(C.domain)
        for alpha in (F(1, 8), F(1, 4), F(1, 2)):
            for mu in _marginals(k):
                nets = {a for a in range(1 << k) if _is_net(C, mu, alpha, a)}
                if any(a | b not in nets for a in nets for b in range(1 << k)):
                    return CheckResult(Verdict.VIOLATED, "a superset of a net is not a net",
                                       f"{C.name}, α={alpha}")
                previous = None
                for m in range(1, k + 1):
                    p_iid = bad_probability(C, mu, alpha, m)
                    p_distinct = sum((p for a, p in distinct_sample_law(mu, m).items()
                                      if a not in nets), F(0))
                    if p_distinct > p_iid or (previous is not None and p_iid > previous):
                        return CheckResult(Verdict.VIOLATED, "monotonicity fails",
                                           f"{C.name}, μ={mu}, α={alpha}, m={m}: i.i.d. "
                                           f"{p_iid}, distinct {p_distinct}, m−1: {previous}")
                    previous = p_iid
                    cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (class, α, μ, m) cases: P[not net] "
                       "non-increasing in m, and <= for m distinct points than for m i.i.d.")


def check_lemma1_illustration() -> CheckResult:
    """The exact P[not α-net] falls below β = 1/10 at m of order (d ln(1/α) + ln(1/β))/α."""
    beta = F(1, 10)
    found: list[str] = []
    for C in _classes()[:3]:
        d = vc_dimension(C)
        for alpha in (F(1, 8), F(1, 4)):
            mu = _marginals(len(C.domain))[1]
            m = 1
            while bad_probability(C, mu, alpha, m) > beta:
                m += 1
                if m > 400:
                    return CheckResult(Verdict.VIOLATED, "no m <= 400 makes a net",
                                       f"{C.name}, α={alpha}")
            scale = (log(1 / alpha) * d + log(1 / beta)) / alpha
            found.append(f"{C.name} (d={d}), α={alpha}: m={m} ≈ "
                         f"{float(rational(m) / scale):.2f}·(d ln(1/α)+ln(1/β))/α")
    return CheckResult(Verdict.HOLDS, "smallest m with P[not α-net] <= 1/10 (skewed μ): "
                       + "; ".join(found))


# ------------------------------------------------------------------ Lemma 2


Bound = Callable[[int, int], int]

SAUER_FORM_SCALE = F(1)
"""The implicit leading 1 of (em/d)^d in 002 Lemma 2's Σ_{i<=d} C(m, i) <= (em/d)^d."""


def check_sauer_shelah(bound: Bound = sauer_shelah_bound) -> CheckResult:
    """τ_C(m) <= Σ_{i<=d} C(m, i) for every m (exact), and Σ <= (em/d)^d for m >= d >= 1.

    ``bound`` is the Sauer–Shelah sum under test; (em/d)^d is scaled by
    :data:`SAUER_FORM_SCALE`, read at run time.
    """
    cases = 0
    for C in _classes():
        d = vc_dimension(C)
        for m in range(len(C.domain) + 3):
            tau = growth_function(C, m)
            if tau > bound(m, d):
                return CheckResult(Verdict.VIOLATED, "growth above the Sauer–Shelah sum",
                                   f"{C.name}, d={d}, m={m}: τ = {tau} > {bound(m, d)}")
            cases += 1
    grid = 0
    for d in range(1, 13):
        for m in range(d, 4 * d + 20):
            rhs = exp(d) * rational(SAUER_FORM_SCALE * F(m, d) ** d)
            within = at_most(bound(m, d), rhs)
            if within is not Verdict.HOLDS:
                return CheckResult(within, "Σ C(m,i) <= (em/d)^d not proved", f"d={d}, m={m}")
            grid += 1
    return CheckResult(Verdict.HOLDS, f"τ_C(m) <= Σ_(i<=d) C(m,i) on {cases} (class, m) cases; "
                       f"Σ <= (em/d)^d on {grid} (d, m) with m >= d, d <= 12")


def check_sauer_hypothesis_needed() -> CheckResult:
    """HOLDS when τ_C(m) <= (em/d)^d read for all m fails at some m < d (smallest: d = 2, m = 1).

    The illustration, under 002 Lemma 2, of why its hypothesis m >= d is needed; VIOLATED if no
    m < d <= 8 breaks the exponential form (then the usage note would be wrong).
    """
    found: list[str] = []
    for d in range(1, 9):
        C = explicit(range(d), itertools.product((0, 1), repeat=d), name=f"ALL[{d} points]")
        for m in range(1, d):
            tau = growth_function(C, m)
            rhs = exp(d) * rational(F(m, d) ** d)
            above = greater_than(tau, rhs)
            if above is Verdict.UNDECIDED:
                return CheckResult(above, "τ vs (em/d)^d undecided", f"d={d}, m={m}")
            if above is Verdict.HOLDS:
                found.append(f"d={d}, m={m}: τ = {tau} > (e·{m}/{d})^{d} ≈ "
                             f"{float(rhs.enclose(64).hi):.3g}")
    if not found:
        return CheckResult(Verdict.VIOLATED, "no m < d violates the exponential form")
    return CheckResult(Verdict.HOLDS, f"{len(found)} (d, m) pairs with m < d <= 8 violate "
                       "it, so m >= d is needed; first: " + found[0], found[0])


# ------------------------------------------------------------------ Lemma 3


def _compositions(n: int, k: int) -> list[tuple[int, ...]]:
    out = []
    for bars in itertools.combinations(range(n + k - 1), k - 1):
        prev, parts = -1, []
        for b in bars:
            parts.append(b - prev - 1)
            prev = b
        parts.append(n + k - 2 - prev)
        out.append(tuple(parts))
    return out


def _uc_failure(C: ConceptClass, joint: tuple[Fraction, ...], alpha: Fraction, n: int) -> Fraction:
    """Exact P_{S~P^n}[∃h ∈ C: |err_S(h) − L_P(h)| > α]; P on cells (x, y) in domain × {0, 1}."""
    points = C.domain.points
    cells = [(x, y) for x in points for y in (0, 1)]
    wrong = [tuple(int(h(x) != y) for x, y in cells) for h in C]
    losses = [sum((p for p, w in zip(joint, row, strict=True) if w), F(0)) for row in wrong]
    total = F(0)
    for counts in _compositions(n, len(cells)):
        if any(c and not p for c, p in zip(counts, joint, strict=True)):
            continue
        if any(abs(F(sum(c for c, w in zip(counts, row, strict=True) if w), n) - loss) > alpha
               for row, loss in zip(wrong, losses, strict=True)):
            prob = F(math.factorial(n))
            for c, p in zip(counts, joint, strict=True):
                prob = prob * p**c / math.factorial(c)
            total += prob
    return total


HOEFFDING_SAMPLE_FACTOR = F(1, 2)
"""The 1/2 of n >= ln(2|C|/β)/(2α²) in 002 Lemma 3's finite-class (Hoeffding) form."""


def check_hoeffding_finite_class() -> CheckResult:
    """n >= ln(2|C|/β)/(2α²) ⇒ P[∃h: |err_S(h) − L_P(h)| > α] <= β, exact (agnostic P).

    n = ⌈:data:`HOEFFDING_SAMPLE_FACTOR`·ln(2|C|/β)/α²⌉, read at run time (a too-small n
    must fail).  Near-tight case: C = {h, h'} on 2 points, equal at the first, uniform P,
    α = 7/20, β = 3/20: n = 14, where n = 7 (half) gives P = 0.234 > β.
    """
    rows: list[str] = []
    uniform = (F(1, 4), F(1, 4), F(1, 4), F(1, 4))
    cases = [(C, joint, alpha, beta)
             for C, joint in ((thresholds_on(2), (F(1, 8), F(3, 8), F(3, 8), F(1, 8))),
                              (thresholds_on(2), uniform),
                              (point_functions(range(2)), (F(1, 2), F(0), F(1, 4), F(1, 4))))
             for alpha, beta in ((F(1, 4), F(1, 4)), (F(3, 10), F(1, 10)))]
    pair = explicit(range(2), [(0, 0), (0, 1)], name="PAIR[2 points]")
    cases.append((pair, uniform, F(7, 20), F(3, 20)))
    for C, joint, alpha, beta in cases:
        need = log(2 * len(C) / beta) * HOEFFDING_SAMPLE_FACTOR / (alpha * alpha)
        n = math.ceil(need.enclose(64).hi)
        p = _uc_failure(C, joint, alpha, n)
        if p > beta:
            return CheckResult(Verdict.VIOLATED, "uniform convergence fails",
                               f"{C.name}, P={joint}, α={alpha}, β={beta}, n={n}: {p}")
        rows.append(f"n={n}: {float(p):.3g} <= {beta}")
    return CheckResult(Verdict.HOLDS, "exact P[sup_h |err_S − L_P| > α] at n = "
                       "⌈ln(2|C|/β)/(2α²)⌉: " + "; ".join(rows))


# ------------------------------------------------------------------ Lemma 4


def _random_instances(count: int, seed: int) -> list[tuple[ConceptClass, tuple[Concept, ...],
                                                            Dataset]]:
    rng = random.Random(seed)
    out: list[tuple[ConceptClass, tuple[Concept, ...], Dataset]] = []
    for _ in range(count):
        C = rng.choice(_classes())
        H = tuple(c for c in C if rng.random() < F(3, 5)) or (C[0],)
        n = rng.randint(2, 12)
        data = tuple((rng.choice(C.domain.points), rng.randint(0, 1)) for _ in range(n))
        out.append((C, H, data))
    return out


def _mistakes(h: Concept, data: Dataset) -> int:
    return sum(1 for z in data if h(point_of(z)) != label_of(z))


def _mech(H: tuple[Concept, ...], data: Dataset, r: Fraction) -> list[tuple[int, Fraction]]:
    """(mistakes, probability) per candidate: P[h] ∝ r^{−mistakes} (002 D13 with r = e^{ε/2})."""
    costs = [_mistakes(h, data) for h in H]
    low = min(costs)
    weights = [1 / r ** (c - low) for c in costs]
    total = sum(weights, F(0))
    return [(c, w / total) for c, w in zip(costs, weights, strict=True)]


def _tight_tail_instances() -> list[tuple[tuple[Concept, ...], Dataset]]:
    """Near-tight cases of the tail bound: point functions (with zero) on N points, each point
    seen t times with label 0, so zero has 0 mistakes and every point function exactly t;
    P[mistakes >= t] = N·r^{−t}/(1 + N·r^{−t}), within a factor 2 of |H|·r^{−t} once N r^{−t}
    is small (N = 9, r = 3, t = 3: 1/4 against 10/27)."""
    out: list[tuple[tuple[Concept, ...], Dataset]] = []
    for big_n, t in ((9, 3), (9, 2), (4, 2), (12, 2)):
        C = point_functions(range(big_n), include_zero=True)
        data = tuple((x, 0) for x in range(big_n) for _ in range(t))
        out.append((tuple(C), data))
    return out


TAIL_SCALE = F(1)
"""The leading constant of 002 Lemma 4's tail bound |H|·r^{−t} (the halving report runs the
check with 1/2: it must then fail)."""


def check_exp_mech_tail() -> CheckResult:
    """P[mistakes(h) >= c* + t] <= |H|·r^{−t} for every t (exact).

    On 120 random (H, S) and on the near-tight instances of :func:`_tight_tail_instances`
    (largest tail/bound ≈ 0.68, so the bound halved fails there at t >= 1, not only at t = 0).
    """
    cases = 0
    worst = F(0)
    instances = [(H, data) for _, H, data in _random_instances(40, 4)] + _tight_tail_instances()
    for r in (F(11, 10), _R, F(3)):
        for H, data in instances:
            law = _mech(H, data, r)
            low = min(c for c, _ in law)
            for t in range(0, len(data) + 1):
                tail = sum((p for c, p in law if c >= low + t), F(0))
                bound = TAIL_SCALE * len(H) / r**t
                if tail > bound:
                    return CheckResult(Verdict.VIOLATED, "tail above |H|·r^{−t}",
                                       f"r={r}, |H|={len(H)}, S={data}, t={t}: {tail}")
                if t >= 1:
                    worst = max(worst, tail / bound)
                cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (r, H, S, t) cases, exact; largest tail/bound "
                       f"at t >= 1: {exact_and_decimal(worst)}")


def _tight_expectation_instances() -> list[tuple[tuple[Concept, ...], Dataset]]:
    """Near-tight cases of the expectation bound: H = zero and the 512 concepts on 10 points
    that are 1 at point 0, S = t copies of (0, 0), so zero has 0 mistakes and the others t;
    E[excess] = t·N r^{−t}/(1 + N r^{−t}) with N = 512 reaches ≈ 0.61·ln|H|/ln r (r = 3,
    t = 4) and ≈ 0.58·ln|H|/ln r (r = 3/2, t = 10)."""
    k = 9
    C = explicit(range(k + 1), [(0,) * (k + 1)]
                 + [(1, *bits) for bits in itertools.product((0, 1), repeat=k)],
                 name="zero and 2^9 concepts with h(0) = 1")
    return [(tuple(C), tuple((0, 0) for _ in range(t))) for t in (4, 10)]


EXPECTATION_SCALE = F(1)
"""The implicit leading 1 of ln|H|/ln r in 002 Lemma 4's E[mistakes(h)] <= c* + ln|H|/ln r."""


def check_exp_mech_expectation() -> CheckResult:
    """E[mistakes(h)] <= c* + ln|H|/ln r (= c* + 2 ln|H|/ε), decided by intervals.

    On 120 random (H, S) and on the near-tight instances of
    :func:`_tight_expectation_instances` (largest ratio ≈ 0.61, so the bound halved fails).
    """
    cases = 0
    instances = [(H, data) for _, H, data in _random_instances(40, 5)]
    instances += _tight_expectation_instances()
    for r in (F(11, 10), _R, F(3)):
        for H, data in instances:
            law = _mech(H, data, r)
            excess = sum((c * p for c, p in law), F(0)) - min(c for c, _ in law)
            rhs = (log(len(H)) / log(r) * EXPECTATION_SCALE if len(H) > 1
                   else rational(0))
            within = at_most(excess, rhs)
            if within is not Verdict.HOLDS:
                return CheckResult(within, "expected excess not proved within ln|H|/ln r",
                                   f"r={r}, |H|={len(H)}, S={data}: {excess}")
            cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (r, H, S) cases, exact expectation vs "
                       "ln|H|/ln r (120 random, 2 near-tight)")


LEMMA4_SAMPLE_FACTOR = 2
"""The 2 of 002 Lemma 4's n >= 2 ln(|H|/β)/(αε)."""


def check_lemma4_privacy_and_utility() -> CheckResult:
    """B5 (exponential mechanism over C) is ε-private (exact audit); n >= 2ln(|H|/β)/(αε) ⇒ tail <= β.

    The 2 is :data:`LEMMA4_SAMPLE_FACTOR`, read at run time.
    """
    C = thresholds_on(2)
    elements = tuple((x, y) for x in C.domain.points for y in (0, 1))
    report = audit_prediction(generic_predictor(C, 2, _EPS), Universe(elements, (2,)), (0, 1))
    if report.verdict is not Verdict.HOLDS:
        return CheckResult(report.verdict, "B5 audit", str(report.verdict_witness))
    cases = 0
    for alpha, beta in ((F(1, 4), F(1, 10)), (F(1, 2), F(1, 4))):
        for C2, H, data in _random_instances(12, 6):
            need = log(len(H) / beta) * LEMMA4_SAMPLE_FACTOR / (alpha * _EPS)
            n = math.ceil(need.enclose(64).hi)
            rng = random.Random(cases)
            big = tuple(data[rng.randrange(len(data))] for _ in range(n))
            law = _mech(H, big, _R)
            low = min(c for c, _ in law)
            fail = sum((p for c, p in law if F(c - low, n) > alpha), F(0))
            if fail > beta:
                return CheckResult(Verdict.VIOLATED, "utility tail fails",
                                   f"{C2.name}, |H|={len(H)}, n={n}: {fail} > {beta}")
            cases += 1
    assert report.epsilon_exact is not None
    return CheckResult(Verdict.HOLDS, f"B5 on {C.name}, n=2: exact audit HOLDS at ε = 2 ln(3/2) "
                       f"(audited e^ε = {exp(report.epsilon_exact)} <= 9/4); utility tail <= β on {cases} "
                       "instances at n = ⌈2 ln(|H|/β)/(αε)⌉")


POST_PROCESSING_SCALE = F(1)
"""The implicit leading 1 of 002 Lemma 4's post-processing: a prediction's ratio <= 1·(the
model's ratio)."""


def check_post_processing() -> CheckResult:
    """A DP model gives private prediction: max prediction ratio <= max model ratio <= e^ε (exact).

    Model: h ~ exponential mechanism over C (B5's choice), all neighbours of tiny universes.
    The model ratio is scaled by :data:`POST_PROCESSING_SCALE`, read at run time.
    """
    cases = 0
    worst_model = worst_pred = F(1)
    for C, n in ((thresholds_on(2), 2), (intervals(2), 2), (thresholds_on(3), 2)):
        elements = tuple((x, y) for x in C.domain.points for y in (0, 1))
        universe = Universe(elements, (n,))
        points = tuple(C.domain.points)
        laws = {s: distribution(pattern_exponential_mechanism, C, points, s, _EPS).as_dict()
                for s in universe.datasets()}
        for a, b in universe.pairs(SUBSTITUTION):
            pa, pb = laws[a], laws[b]
            model = max(_frac(pa.get(h, F(0))) / _frac(pb[h]) for h in pb)
            for x in points:
                one_a = sum((_frac(p) for h, p in pa.items() if h(x) == 1), F(0))
                one_b = sum((_frac(p) for h, p in pb.items() if h(x) == 1), F(0))
                for ya, yb in ((one_a, one_b), (1 - one_a, 1 - one_b)):
                    if ya == 0:
                        continue
                    ratio = ya / yb
                    worst_pred = max(worst_pred, ratio)
                    if ratio > POST_PROCESSING_SCALE * model:
                        return CheckResult(Verdict.VIOLATED, "prediction ratio above the model's",
                                           f"{C.name}: {a} vs {b}, x={x}")
            worst_model = max(worst_model, model)
            cases += 1
    if worst_model > _R * _R:
        return CheckResult(Verdict.VIOLATED, "the model is not ε-DP", f"ratio {worst_model}")
    return CheckResult(Verdict.HOLDS, f"{cases} neighbouring pairs: worst model ratio "
                       f"{worst_model}, worst prediction ratio {worst_pred}, e^ε = {_R * _R}")


# ------------------------------------------------------------------ Lemma 5


def _vote(data: Dataset, index: tuple[int, ...], s: Fraction) -> Program[int]:
    ones = sum(1 for i in index if label_of(data[i]) == 1)
    return (yield from categorical((s ** (len(index) - ones), s**ones)))


def amplified_vote_predictor(n: int, m: int, s: Fraction) -> Predictor:
    """A'(S) = A(S_I) for a uniform m-subset I, A = exponential mechanism on the label vote.

    A outputs y ∈ {0, 1} with probability ∝ s^{#examples labelled y}; its exact privacy is
    ε_A = ln((1 + s^m)/(1 + s^{m−2})) (:func:`private_majority_epsilon` with e^{ε/2} = s; for
    m = 1 it is randomized response, ε_A = ln s).  The claim carried is ε_A itself (the
    wrapper's audit reports the amplified value).  Query points are ignored (domain {0}).
    """
    eps_a = private_majority_epsilon(m, log(s) * 2)

    def program(data: Dataset, x: Hashable) -> Program[int]:
        index = yield from random_index_subset(n, m)
        return (yield from call(_vote, data, index, s))

    return Predictor(f"subsampled vote (n={n}, m={m}, s={s})", program, PrivatePrediction(eps_a),
                     Uncited("an eps-private base learner for 002 Lemma 5's audit"), domain=(0,))


_AMP_CASES: Final = ((2, 1), (3, 1), (4, 1), (3, 2), (4, 2), (4, 3))


def _amplified(n: int, m: int, s: Fraction) -> tuple[Fraction, Fraction]:
    """(audited e^{ε'} of A', e^{ε_A}) exactly, over every 0/1-labelled dataset of size n."""
    A = amplified_vote_predictor(n, m, s)
    report = audit_prediction(A, Universe(((0, 0), (0, 1)), (n,)), (0,))
    t_a = (1 + s**m) / (1 + s ** (m - 2))
    assert report.epsilon_exact is not None
    audited = exp(report.epsilon_exact).exact
    assert audited is not None
    return audited, t_a


AMPLIFICATION_SCALE = F(1)
"""The implicit leading 1 of (m/n)(e^ε − 1) in 002 Lemma 5's tight ln(1 + (m/n)(e^ε − 1))."""


def check_amplification_tight() -> CheckResult:
    """Audited e^{ε'} <= 1 + (m/n)(e^{ε_A} − 1), with equality at m = 1 (exact).

    At m = 1, A is randomized response with e^{ε_A} = s; all-0 labels against one 1 give
    P[1] = 1/(1 + s) and (n − 1 + s)/(n(1 + s)), ratio 1 + (s − 1)/n.  (m/n)(e^{ε_A} − 1) is
    scaled by :data:`AMPLIFICATION_SCALE`, read at run time (below 1 it must fail).
    """
    equal = cases = 0
    for s in (F(3, 2), F(3), F(16)):
        for n, m in _AMP_CASES:
            audited, t_a = _amplified(n, m, s)
            bound = 1 + AMPLIFICATION_SCALE * F(m, n) * (t_a - 1)
            if audited > bound:
                return CheckResult(Verdict.VIOLATED, "amplified ε above ln(1 + (m/n)(e^ε − 1))",
                                   f"s={s}, n={n}, m={m}: {audited} > {bound}")
            if m == 1 and audited != bound:
                return CheckResult(Verdict.VIOLATED, "randomized response does not attain it",
                                   f"s={s}, n={n}: {audited} < {bound}")
            equal += audited == bound
            cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (s, n, m) cases audited exactly; the bound is "
                       f"attained in {equal} of them (all m = 1 cases, randomized response, "
                       "where e^(ε') = 1 + (s − 1)/n by hand)")


CANDIDATE_FACTOR = 2
"""The 2 of 2εm/n, 002 Lemma 5's candidate constant form of ε' = O(εm/n) (for ε <= 1)."""


def check_amplification_candidates() -> CheckResult:
    """For ε_A <= 1 the amplified ε' is below both 2ε_A·m/n and (e^{ε_A} − 1)m/n; 2εm/n needs ε <= 1.

    The 2 is :data:`CANDIDATE_FACTOR`, read at run time.
    """
    factor = F(CANDIDATE_FACTOR)
    cases = 0
    for s in (F(11, 10), F(3, 2), F(2)):
        for n, m in _AMP_CASES:
            audited, t_a = _amplified(n, m, s)
            eps_a = log(t_a)
            if not proved_le(eps_a, 1):
                continue
            # ε' <= cε_A·m/n ⟺ (e^{ε'})^{n·q} <= (e^{ε_A})^{p·m} for c = p/q (ln is increasing):
            # exact rationals
            lhs, rhs = audited ** (n * factor.denominator), t_a ** (factor.numerator * m)
            for name, within in ((f"{factor}εm/n", at_most(lhs, rhs)),
                                 ("(e^ε−1)m/n", at_most(log(audited),
                                                        rational((t_a - 1) * F(m, n))))):
                if within is not Verdict.HOLDS:
                    return CheckResult(within, f"ε' not proved within {name}",
                                       f"s={s}, n={n}, m={m}")
            cases += 1
    # outside ε <= 1: randomized response with e^ε = 16, n = 4, m = 1
    audited, t_a = _amplified(4, 1, F(16))
    beyond = greater_than(log(audited), log(t_a) * (factor / 4))
    if beyond is not Verdict.HOLDS:
        return CheckResult(beyond, f"{factor}εm/n not proved exceeded at ε = ln 16",
                           "s=16, n=4, m=1")
    return CheckResult(Verdict.HOLDS, f"{cases} cases with ε_A <= 1 below both forms; at "
                       f"ε = ln 16 (> 1), n = 4, m = 1 the exact ε' = ln({audited}) exceeds "
                       "2εm/n = ln(16)/2, so the 2εm/n form needs ε <= 1")


# ------------------------------------------------------------------ entries

_EM: Final = "reference.learners.stable_prediction.pattern_exponential_mechanism"

ENTRIES: tuple[Entry, ...] = (
    Entry(
        paper="002", number="Lemma 1",
        statement=("Reconstructed [R-high form, R-low constant] from §2 (after [SSBD14 §28.3]): "
                   "for a distribution D over X and α, β ∈ (0, 1), m >= c·(d log(1/α) + "
                   "log(1/β))/α i.i.d. samples from D form an α-net for C w.r.t. D with "
                   "probability >= 1 − β; this also holds when the samples are drawn without "
                   "replacement (re-sampling until m distinct elements)."),
        kind=Kind.LEMMA, status=Status.NOT_CHECKABLE,
        reason=("The universal constant c is unspecified and the statement quantifies over all "
                "D, X and classes; the paper cites it. Its explicit form and the "
                "without-replacement claim are checked as steps of this entry."),
        illustration=("Exact P[not α-net] on tiny classes (skewed marginal) reaches 1/10 at m "
                      "within a small multiple of (d ln(1/α) + ln(1/β))/α."),
        checks=(Check("smallest m with exact P[not α-net] <= 1/10", check_lemma1_illustration),),
        subjects=("proofs.p003.upper.bad_probability",)),
    Entry(
        paper="002", number="Lemma 1", step="explicit bound 2·τ_C(2m)²·e^{−αm/4} for m >= 8/α",
        statement=("Our explicit version [ours/bg] of Lemma 1 (double-sample argument on the "
                   "disagreement class, whose growth function is <= τ_C²): P[m i.i.d. points "
                   "are not an α-net] <= 2·τ_C(2m)²·e^{−αm/4} for m >= 8/α."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exact P[not α-net] vs the bound, 4 classes, 2 marginals, α ∈ {1/4, 1/2}",
                      check_explicit_net_bound, constant="NET_EXPONENT_DIVISOR"),),
        notes=("The same double-sample bound is checked for paper 003 (Lemma 3.3 steps); "
               "here the class's own τ_C(2m)² is used. The bound is vacuous at the smallest m "
               "and below 1 for the larger ones."),
        subjects=("proofs.p003.upper.bad_probability", "reference.vc.growth_function")),
    Entry(
        paper="002", number="Lemma 1", step="without replacement and monotonicity",
        statement=("Reconstructed [V] from §2: 'this holds also if the samples are selected "
                   "without replacement'; because a superset of an α-net is an α-net, m distinct "
                   "points are a net at least as often as m i.i.d. points, and P[not net] is "
                   "non-increasing in m."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("supersets, monotonicity in m and distinct vs i.i.d., exact",
                      check_net_monotone_and_distinct),),
        notes=("Algorithm 1 subsamples distinct INDICES of S; with repeated points S_I may hold "
               "fewer distinct points, which the net property (a function of the point set) "
               "handles by the same monotonicity."),
        subjects=("proofs.p002.prelims.distinct_sample_law",)),
    Entry(
        paper="002", number="Lemma 2",
        statement=("Reconstructed [R-high] from §2 (Sauer–Shelah, [SSBD14 Lemma 6.10]): for C "
                   "of VC dimension d and m >= d, τ_C(m) <= Σ_{i=0}^{d} C(m, i) <= (em/d)^d."),
        kind=Kind.LEMMA, status=Status.PROVED,
        parameter_range="d >= 1 and m >= d (the first inequality for every m >= 0)",
        checks=(Check("exact growth functions vs Σ C(m,i); Σ vs (em/d)^d by intervals",
                      check_sauer_shelah, constant="SAUER_FORM_SCALE"),
                Check("illustration: the hypothesis m >= d is needed ((em/d)^d fails at m < d)",
                      check_sauer_hypothesis_needed)),
        notes=("Proof: the first inequality is Sauer–Shelah (shifting argument). For m >= d, "
               "Σ_{i<=d} C(m,i) <= (m/d)^d Σ_{i<=d} C(m,i)(d/m)^i <= (m/d)^d (1 + d/m)^m <= "
               "(em/d)^d.  Reading of the text: the printed statement breaks off after 'For any "
               "hypothesis class of VC dimension and ,' — a hypothesis on m was lost after "
               "'and'; the cited [SSBD14 Lemma 6.10] has m > d + 1 and the seed inventory states "
               "m >= d, so m >= d is part of the lemma, not a paper error (002-E11).  Usage note: "
               "the exponential form must not be read for every m — at m < d it fails (C = all "
               "functions on 2 points, d = 2, m = 1: τ_C(1) = 2 > (e/2)² ≈ 1.847, decided by "
               "interval arithmetic on e; every d <= 8 has such an m < d), as the second check "
               "illustrates.  The paper only uses the form for subsamples of m = Θ̃(d/α) >= d "
               "points (overview of §3, property 2); code guards it "
               "(reference.vc.sauer_bound_exponential requires m > d), and for every m, "
               "τ_C(m) <= min(2^m, Σ_{i<=d} C(m,i))."),
        subjects=("reference.vc.sauer_shelah_bound", "reference.vc.growth_function",
                  "reference.vc.sauer_bound_exponential")),
    Entry(
        paper="002", number="Lemma 3",
        statement=("Reconstructed [R-high form] from §2 ([SSBD14 Thm 6.8]): if n >= c·(d + "
                   "log(1/β))/α² then P_{S~P^n}[∀h ∈ C: |err_S(h) − L_P(h)| <= α] >= 1 − β."),
        kind=Kind.LEMMA, status=Status.NOT_CHECKABLE,
        reason=("The universal constant c is unspecified and the statement ranges over every "
                "distribution and VC class; it is cited."),
        illustration=("The finite-class form n >= ln(2|C|/β)/(2α²), checked exactly by "
                      "multinomial enumeration (the step below)."),
        checks=(Check("finite-class Hoeffding form, exact", check_hoeffding_finite_class,
                      constant="HOEFFDING_SAMPLE_FACTOR"),),
        subjects=("reference.concepts.thresholds_on",)),
    Entry(
        paper="002", number="Lemma 3", step="finite-class Hoeffding form",
        statement=("Explicit finite-class version [bg]: n >= ln(2|C|/β)/(2α²) gives "
                   "P[∃h ∈ C: |err_S(h) − L_P(h)| > α] <= β for every P over X × {0, 1}."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exact multinomial enumeration at n = ⌈ln(2|C|/β)/(2α²)⌉",
                      check_hoeffding_finite_class, constant="HOEFFDING_SAMPLE_FACTOR"),),
        subjects=("reference.concepts.point_functions",)),
    Entry(
        paper="002", number="Lemma 4",
        statement=("Reconstructed [R-high statement, R-med utility form] from §2: the "
                   "exponential mechanism (P[h] ∝ exp(−ε·n·err_S(h)/2)) gives ε-private "
                   "predictions, and if n >= 2 ln(|H|/β)/(αε) then P[err_S(h) <= min_H err_S + "
                   "α] >= 1 − β."),
        kind=Kind.LEMMA, status=Status.CHECKED,
        checks=(Check("exact audit of B5 and the utility tail at the stated n",
                      check_lemma4_privacy_and_utility, constant="LEMMA4_SAMPLE_FACTOR"),),
        notes=("Privacy: the mistake count has sensitivity 1 and the 1/2 is present. The paper "
               "also cites an expected-utility form [SU17]; both forms are checked as steps."),
        subjects=("reference.learners.prediction_baselines.generic_predictor", _EM)),
    Entry(
        paper="002", number="Lemma 4", step="tail |H|·r^{−t} (mistakes)",
        statement=("Our explicit tail [ours]: with r = e^{ε/2} and c* = min_H mistakes, "
                   "P[mistakes(h) >= c* + t] <= |H|·r^{−t}."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exact laws on 120 random (H, S) and 4 near-tight ones, r ∈ {11/10, 3/2, "
                      "3}", check_exp_mech_tail, constant="TAIL_SCALE"),),
        notes=("Near-tight instances (point functions with zero on N points, each seen t times "
               "with label 0) reach tail/bound = 27/40 at t = 3, so the bound halved fails at "
               "t >= 1, not only through t = 0."),
        subjects=(_EM,)),
    Entry(
        paper="002", number="Lemma 4", step="expectation ln|H|/ln r (mistakes)",
        statement=("Our explicit expected utility [ours, after SU17]: E[mistakes(h)] <= c* + "
                   "ln|H|/ln r = c* + 2 ln|H|/ε, i.e. E[err_S(h)] <= min_H err_S + 2 ln|H|/(εn)."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exact expectations vs ln|H|/ln r by intervals, 120 random and 2 "
                      "near-tight (H, S)", check_exp_mech_expectation,
                      constant="EXPECTATION_SCALE"),),
        subjects=(_EM,)),
    Entry(
        paper="002", number="Lemma 4", step="post-processing: a DP model gives private prediction",
        statement=("Reconstructed [V] from §2: any learning algorithm that outputs a predictor "
                   "with (ε, δ)-DP also gives (ε, δ)-private prediction (post-processing)."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("B5's model ratio vs its prediction ratios, every neighbouring pair",
                      check_post_processing, constant="POST_PROCESSING_SCALE"),),
        notes="Checked for B5 (the generic ε-DP learner) on tiny classes, δ = 0.",
        subjects=("reference.learners.prediction_baselines.generic_predictor",)),
    Entry(
        paper="002", number="Lemma 5",
        statement=("Reconstructed [R-high form, R-med constant] from §2: if A (on m examples) "
                   "gives ε-private prediction, ε <= 1, then A' (run A on a uniformly random "
                   "m-subset of the n examples) gives ε'-private prediction with ε' = O(εm/n); "
                   "the candidate constant forms are 2εm/n and (e^ε − 1)m/n."),
        kind=Kind.LEMMA, status=Status.CHECKED,
        checks=(Check("audited ε' below both candidate forms for ε <= 1; 2εm/n needs ε <= 1",
                      check_amplification_candidates, constant="CANDIDATE_FACTOR"),),
        notes=("Both candidate forms follow from the tight step below for ε <= 1: "
               "ln(1 + q(e^ε − 1)) <= q(e^ε − 1) <= 2εq since e^ε − 1 <= 2ε on [0, 1]. The "
               "check also shows that the 2εm/n form fails beyond ε <= 1 (e^ε = 16)."),
        subjects=("proofs.p002.prelims.amplified_vote_predictor",)),
    Entry(
        paper="002", number="Lemma 5", step="tight amplification ln(1 + (m/n)(e^ε − 1))",
        statement=("Our exact form [ours]: A' is ln(1 + (m/n)(e^ε − 1))-private whenever A "
                   "(a function of the multiset of its m examples) is ε-private, for every ε >= 0; "
                   "randomized response on one random example attains it."),
        kind=Kind.PROOF_STEP, status=Status.PROVED,
        parameter_range=("every ε >= 0, 1 <= m <= n, A symmetric in its m examples, "
                         "substitution neighbours"),
        checks=(Check("exact audits of the subsampled vote, attained at m = 1",
                      check_amplification_tight, constant="AMPLIFICATION_SCALE"),),
        notes=("Proof (q = m/n; S, S'' differ at index 1; fix x, y). Let a average "
               "P[A(S_J, x) = y] over the m-sets J ∌ 1 (the same for S''), b over I ∋ 1 on S, "
               "c over I ∋ 1 on S''. Each I ∋ 1 is matched with the n − m sets "
               "J = I∖{1}∪{j}, j ∉ I, and every J ∌ 1 arises from exactly m such I; S_I and S_J "
               "differ in one example, so b <= e^ε·a, and S_I, S''_I differ in one example, so "
               "b <= e^ε·c. Then P_S − P_S'' = q(b − c) <= q(e^ε·min(a, c) − c). If c <= a this "
               "is <= q(e^ε − 1)c <= q(e^ε − 1)P_S'' (as P_S'' = (1−q)a + qc >= c); if c > a it "
               "is < q(e^ε − 1)a <= q(e^ε − 1)P_S''. So P_S <= (1 + q(e^ε − 1))·P_S''."),
        subjects=("proofs.p002.prelims.amplified_vote_predictor",
                  "reference.learners.stable_prediction.random_index_subset")),
)
