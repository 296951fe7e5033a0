"""Ledger: the preliminaries of paper 002 (§2): Lemmas 1–5 and the post-processing remark.

The paper's math was lost in the text dump, so every statement below is reconstructed
(tags as in the reconstruction: [R-high] forced by a standard result, [R-med] constants
uncertain, [ours] our explicit version).  Every check is exact: probabilities are Fractions
(multinomial or inclusion–exclusion enumeration), transcendental comparisons are decided by
interval arithmetic (:func:`privref.reference.reals.compare`), and privacy is audited by the
exact auditor :func:`privref.audits.prediction.audit_prediction`.

* Lemma 1 (α-nets): exact P[not an α-net] against the explicit 2·τ_C(2m)²·e^{−αm/4}
  (m ≥ 8/α), monotonicity in m, and "without replacement only helps".
* Lemma 2 (Sauer–Shelah): exact growth functions; the (em/d)^d form needs m ≥ d.
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
from privref.reference.reals import Order, compare, exp, log, rational
from privref.reference.vc import growth_function, sauer_shelah_bound, vc_dimension

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
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
    "check_sauer_exponential_unrestricted",
    "check_sauer_shelah",
    "distinct_sample_law",
]

F = Fraction
_ONE: Final = F(1)
_QUARTER: Final = F(1, 4)
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


def check_explicit_net_bound(rate: Fraction = _QUARTER) -> CheckResult:
    """P[m i.i.d. points are not an α-net] <= 2·τ_C(2m)²·e^{−rate·αm} for m >= 8/α (rate 1/4).

    ``rate`` is the exponent's constant; a too-large rate (a too-strong bound) must fail.
    """
    cases = useful = 0
    for C in _classes()[:4]:
        for mu in _marginals(len(C.domain)):
            for alpha in _NET_ALPHAS:
                start = math.ceil(8 / alpha)
                for m in (start, start + 1, 2 * start, 5 * start, 10 * start):
                    p = bad_probability(C, mu, alpha, m)
                    rhs = exp(-rate * alpha * m) * rational(2 * growth_function(C, 2 * m) ** 2)
                    order = compare(p, rhs)[0]
                    if order not in (Order.LESS, Order.EQUAL):
                        return CheckResult(Verdict.VIOLATED if order is Order.GREATER
                                           else Verdict.UNDECIDED, "net bound fails",
                                           f"{C.name}, μ={mu}, α={alpha}, m={m}: P = {p}")
                    cases += 1
                    useful += compare(rhs, 1)[0] is Order.LESS
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


def check_net_monotone_and_distinct(direction: int = 1) -> CheckResult:
    """Supersets of nets are nets; P[not net] is non-increasing in m; distinct points only help.

    ``direction`` = −1 reverses the two probability comparisons (a mutation that must fail).
    """
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
                    if direction * (p_distinct - p_iid) > 0 or (
                            previous is not None and direction * (p_iid - previous) > 0):
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


def check_sauer_shelah(bound: Bound = sauer_shelah_bound) -> CheckResult:
    """τ_C(m) <= Σ_{i<=d} C(m, i) for every m (exact), and Σ <= (em/d)^d for m >= d >= 1."""
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
            rhs = exp(d) * rational(F(m, d) ** d)
            if compare(bound(m, d), rhs)[0] not in (Order.LESS, Order.EQUAL):
                return CheckResult(Verdict.VIOLATED, "Σ C(m,i) above (em/d)^d",
                                   f"d={d}, m={m}")
            grid += 1
    return CheckResult(Verdict.HOLDS, f"τ_C(m) <= Σ_(i<=d) C(m,i) on {cases} (class, m) cases; "
                       f"Σ <= (em/d)^d on {grid} (d, m) with m >= d, d <= 12")


def check_sauer_exponential_unrestricted() -> CheckResult:
    """VIOLATED: τ_C(m) <= (em/d)^d read for all m fails at m < d (smallest: d = 2, m = 1)."""
    found: list[str] = []
    for d in range(1, 9):
        C = explicit(range(d), itertools.product((0, 1), repeat=d), name=f"ALL[{d} points]")
        for m in range(1, d):
            tau = growth_function(C, m)
            rhs = exp(d) * rational(F(m, d) ** d)
            if compare(tau, rhs)[0] is Order.GREATER:
                found.append(f"d={d}, m={m}: τ = {tau} > (e·{m}/{d})^{d} ≈ "
                             f"{float(rhs.enclose(64).hi):.3g}")
    if not found:
        return CheckResult(Verdict.HOLDS, "no m < d violates the exponential form")
    return CheckResult(Verdict.VIOLATED, f"{len(found)} (d, m) pairs with m < d <= 8 violate "
                       "it; first: " + found[0], found[0])


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


def check_hoeffding_finite_class(shrink: int = 1) -> CheckResult:
    """n >= ln(2|C|/β)/(2α²) ⇒ P[∃h: |err_S(h) − L_P(h)| > α] <= β, exact (agnostic P).

    ``shrink`` divides the sample size (a mutation: a too-small n must fail).
    """
    rows: list[str] = []
    for C, joint in ((thresholds_on(2), (F(1, 8), F(3, 8), F(3, 8), F(1, 8))),
                     (thresholds_on(2), (F(1, 4), F(1, 4), F(1, 4), F(1, 4))),
                     (point_functions(range(2)), (F(1, 2), F(0), F(1, 4), F(1, 4)))):
        for alpha, beta in ((F(1, 4), F(1, 4)), (F(3, 10), F(1, 10))):
            need = log(2 * len(C) / beta) / (2 * alpha * alpha)
            n = math.ceil(need.enclose(64).hi) // shrink
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


def check_exp_mech_tail(factor: Fraction = _ONE) -> CheckResult:
    """P[mistakes(h) >= c* + t] <= factor·|H|·r^{−t} for every t (exact; factor 1 is the bound)."""
    cases = 0
    for r in (F(11, 10), _R, F(3)):
        for _, H, data in _random_instances(40, 4):
            law = _mech(H, data, r)
            low = min(c for c, _ in law)
            for t in range(0, len(data) + 1):
                tail = sum((p for c, p in law if c >= low + t), F(0))
                if tail > factor * len(H) / r**t:
                    return CheckResult(Verdict.VIOLATED, "tail above |H|·r^{−t}",
                                       f"r={r}, |H|={len(H)}, S={data}, t={t}: {tail}")
                cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (r, H, S, t) cases, exact")


def check_exp_mech_expectation(factor: Fraction = _ONE) -> CheckResult:
    """E[mistakes(h)] <= c* + factor·ln|H|/ln r (= c* + 2 ln|H|/ε), decided by intervals."""
    cases = 0
    for r in (F(11, 10), _R, F(3)):
        for _, H, data in _random_instances(40, 5):
            law = _mech(H, data, r)
            excess = sum((c * p for c, p in law), F(0)) - min(c for c, _ in law)
            rhs = log(len(H)) / log(r) * factor if len(H) > 1 else rational(0)
            if compare(excess, rhs)[0] is Order.GREATER:
                return CheckResult(Verdict.VIOLATED, "expected excess above ln|H|/ln r",
                                   f"r={r}, |H|={len(H)}, S={data}: {excess}")
            cases += 1
    return CheckResult(Verdict.HOLDS, f"{cases} (r, H, S) cases, exact expectation vs "
                       "ln|H|/ln r")


def check_lemma4_privacy_and_utility() -> CheckResult:
    """B5 (exponential mechanism over C) is ε-private (exact audit); n >= 2ln(|H|/β)/(αε) ⇒ tail <= β."""
    C = thresholds_on(2)
    elements = tuple((x, y) for x in C.domain.points for y in (0, 1))
    report = audit_prediction(generic_predictor(C, 2, _EPS), Universe(elements, (2,)), (0, 1))
    if report.verdict is not Verdict.HOLDS:
        return CheckResult(report.verdict, "B5 audit", str(report.verdict_witness))
    cases = 0
    for alpha, beta in ((F(1, 4), F(1, 10)), (F(1, 2), F(1, 4))):
        for C2, H, data in _random_instances(12, 6):
            need = log(len(H) / beta) * 2 / (alpha * _EPS)
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


def check_post_processing(slack: Fraction = _ONE) -> CheckResult:
    """A DP model gives private prediction: max prediction ratio <= max model ratio <= e^ε (exact).

    Model: h ~ exponential mechanism over C (B5's choice), all neighbours of tiny universes.
    ``slack`` scales the model-level ratio (slack < 1 is a mutation that must fail).
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
                    if ratio > slack * model:
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


def check_amplification_tight(scale: Fraction = _ONE) -> CheckResult:
    """Audited e^{ε'} <= 1 + scale·(m/n)(e^{ε_A} − 1), with equality at m = 1 (exact).

    At m = 1, A is randomized response with e^{ε_A} = s; all-0 labels against one 1 give
    P[1] = 1/(1 + s) and (n − 1 + s)/(n(1 + s)), ratio 1 + (s − 1)/n.  ``scale`` < 1 must fail.
    """
    equal = cases = 0
    for s in (F(3, 2), F(3), F(16)):
        for n, m in _AMP_CASES:
            audited, t_a = _amplified(n, m, s)
            bound = 1 + scale * F(m, n) * (t_a - 1)
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


def check_amplification_candidates() -> CheckResult:
    """For ε_A <= 1 the amplified ε' is below both 2ε_A·m/n and (e^{ε_A} − 1)m/n; 2εm/n needs ε <= 1."""
    cases = 0
    for s in (F(11, 10), F(3, 2), F(2)):
        for n, m in _AMP_CASES:
            audited, t_a = _amplified(n, m, s)
            eps_a = log(t_a)
            if compare(eps_a, 1)[0] is Order.GREATER:
                continue
            eps_p = log(audited)
            for name, cand in (("2εm/n", eps_a * F(2 * m, n)), ("(e^ε−1)m/n",
                                                                 rational((t_a - 1) * F(m, n)))):
                if compare(eps_p, cand)[0] not in (Order.LESS, Order.EQUAL):
                    return CheckResult(Verdict.VIOLATED, f"ε' above {name}",
                                       f"s={s}, n={n}, m={m}")
            cases += 1
    # outside ε <= 1: randomized response with e^ε = 16, n = 4, m = 1
    audited, t_a = _amplified(4, 1, F(16))
    beyond = compare(log(audited), log(t_a) * F(2, 4))[0] is Order.GREATER
    if not beyond:
        return CheckResult(Verdict.VIOLATED, "2εm/n was not exceeded at ε = ln 16",
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
                      check_explicit_net_bound),),
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
                      check_sauer_shelah),),
        notes=("Proof: the first inequality is Sauer–Shelah (shifting argument). For m >= d, "
               "Σ_{i<=d} C(m,i) <= (m/d)^d Σ_{i<=d} C(m,i)(d/m)^i <= (m/d)^d (1 + d/m)^m <= "
               "(em/d)^d. The exponential form needs m >= d; see the step 'the (em/d)^d form "
               "without m >= d'."),
        subjects=("reference.vc.sauer_shelah_bound", "reference.vc.growth_function")),
    Entry(
        paper="002", number="Lemma 2", step="the (em/d)^d form without m >= d",
        statement=("The exponential Sauer form τ_C(m) <= (em/d)^d read for every m, as the "
                   "overview of §3 uses it for |H_{S'}| (reconstructed [R-high]; the printed "
                   "hypotheses are lost)."),
        kind=Kind.PROOF_STEP, status=Status.REFUTED,
        counterexample=("C = all functions on 2 points (d = 2), m = 1: τ_C(1) = 2 > (e/2)² ≈ "
                        "1.847 (decided by interval arithmetic on e). Every d <= 8 has such an m "
                        "< d."),
        corrected=("For m >= d >= 1, τ_C(m) <= Σ_{i<=d} C(m,i) <= (em/d)^d; for every m, "
                   "τ_C(m) <= min(2^m, Σ_{i<=d} C(m,i))."),
        checks=(Check("(em/d)^d at m < d", check_sauer_exponential_unrestricted,
                      Verdict.VIOLATED),
                Check("corrected: exact Sauer–Shelah sum, and (em/d)^d for m >= d",
                      check_sauer_shelah)),
        notes=("The failure may be the reconstruction's fault: the lost statement probably had "
               "m >= d, and the paper's subsample sizes m = Θ̃(d/α) satisfy it. Code should "
               "guard the form (reference.vc.sauer_bound_exponential requires m > d)."),
        subjects=("reference.vc.sauer_bound_exponential",)),
    Entry(
        paper="002", number="Lemma 3",
        statement=("Reconstructed [R-high form] from §2 ([SSBD14 Thm 6.8]): if n >= c·(d + "
                   "log(1/β))/α² then P_{S~P^n}[∀h ∈ C: |err_S(h) − L_P(h)| <= α] >= 1 − β."),
        kind=Kind.LEMMA, status=Status.NOT_CHECKABLE,
        reason=("The universal constant c is unspecified and the statement ranges over every "
                "distribution and VC class; it is cited."),
        illustration=("The finite-class form n >= ln(2|C|/β)/(2α²), checked exactly by "
                      "multinomial enumeration (the step below)."),
        checks=(Check("finite-class Hoeffding form, exact", check_hoeffding_finite_class),),
        subjects=("reference.concepts.thresholds_on",)),
    Entry(
        paper="002", number="Lemma 3", step="finite-class Hoeffding form",
        statement=("Explicit finite-class version [bg]: n >= ln(2|C|/β)/(2α²) gives "
                   "P[∃h ∈ C: |err_S(h) − L_P(h)| > α] <= β for every P over X × {0, 1}."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exact multinomial enumeration at n = ⌈ln(2|C|/β)/(2α²)⌉",
                      check_hoeffding_finite_class),),
        subjects=("reference.concepts.point_functions",)),
    Entry(
        paper="002", number="Lemma 4",
        statement=("Reconstructed [R-high statement, R-med utility form] from §2: the "
                   "exponential mechanism (P[h] ∝ exp(−ε·n·err_S(h)/2)) gives ε-private "
                   "predictions, and if n >= 2 ln(|H|/β)/(αε) then P[err_S(h) <= min_H err_S + "
                   "α] >= 1 − β."),
        kind=Kind.LEMMA, status=Status.CHECKED,
        checks=(Check("exact audit of B5 and the utility tail at the stated n",
                      check_lemma4_privacy_and_utility),),
        notes=("Privacy: the mistake count has sensitivity 1 and the 1/2 is present. The paper "
               "also cites an expected-utility form [SU17]; both forms are checked as steps."),
        subjects=("reference.learners.prediction_baselines.generic_predictor", _EM)),
    Entry(
        paper="002", number="Lemma 4", step="tail |H|·r^{−t} (mistakes)",
        statement=("Our explicit tail [ours]: with r = e^{ε/2} and c* = min_H mistakes, "
                   "P[mistakes(h) >= c* + t] <= |H|·r^{−t}."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exact laws on 120 random (H, S), r ∈ {11/10, 3/2, 3}", check_exp_mech_tail),),
        subjects=(_EM,)),
    Entry(
        paper="002", number="Lemma 4", step="expectation ln|H|/ln r (mistakes)",
        statement=("Our explicit expected utility [ours, after SU17]: E[mistakes(h)] <= c* + "
                   "ln|H|/ln r = c* + 2 ln|H|/ε, i.e. E[err_S(h)] <= min_H err_S + 2 ln|H|/(εn)."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exact expectations vs ln|H|/ln r by intervals", check_exp_mech_expectation),),
        subjects=(_EM,)),
    Entry(
        paper="002", number="Lemma 4", step="post-processing: a DP model gives private prediction",
        statement=("Reconstructed [V] from §2: any learning algorithm that outputs a predictor "
                   "with (ε, δ)-DP also gives (ε, δ)-private prediction (post-processing)."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("B5's model ratio vs its prediction ratios, every neighbouring pair",
                      check_post_processing),),
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
                      check_amplification_candidates),),
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
                      check_amplification_tight),),
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
