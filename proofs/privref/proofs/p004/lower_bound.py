"""Ledger: 004 Theorem C.12 (the TPAL lower bound m = Ω(1/α)), with its proof steps.

The proof's experiment runs exactly on tiny d, n through
:mod:`privref.reference.learners.lower_bound`.  The theorem itself is refuted for
a fixed δ > 0 by the subset-search learner of
:mod:`privref.reference.learners.subset_search` ((0, k/n)-transcript-private,
⌈log₂(k+1)⌉ labels), checked here exactly (audits, label counts, tiny-size
accuracy) and by seeded Monte Carlo.  Its checks are shared with 000
Theorem 5.6 (privref.proofs.p000.active); proof-step entries are built by
:func:`privref.proofs.p004.active.proof_step`.  Decisions go through :mod:`privref.reference.decide`.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from functools import cache, partial
from typing import Any, Final, cast

import numpy as np

from privref.audits.exact import audit
from privref.audits.stats import cp_lower, cp_upper
from privref.reference.citations import Uncited
from privref.reference.concepts import Concept, thresholds_on
from privref.reference.data import Dataset
from privref.reference.decide import all_hold, at_most, floor, greater_than, within
from privref.reference.learners.active import ActiveLearner, Query, active_learner
from privref.reference.learners.lower_bound import (
    PRINTED_FAILURE_BOUND,
    Version,
    b_positions,
    conditioned_product,
    expected_b,
    failure_bound,
    failure_probability,
    hard_sample,
    implied_label_lower_bound,
    min_failure_all_hypotheses,
    min_failure_thresholds,
    swap_distribution,
    swap_entries,
    threshold_range,
    wlog_sample_size,
)
from privref.reference.learners.subset_search import (
    exact_failure,
    failure_upper_bound,
    label_budget,
    subset_search_learner,
    subset_search_program,
    subset_size,
)
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, Uniform, call, distribution, sample, uniform
from privref.reference.reals import exp

from .._common import combine
from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import decimal
from .active import proof_step

__all__ = [
    "CE_C12",
    "ENTRIES",
    "MC_BETA",
    "SS_FAILURE_SCALE",
    "SUBSET_SEARCH_CHECKS",
    "check_b_concentration_000",
    "check_b_concentration_004",
    "check_corrected_consistency",
    "check_failure_all_hypotheses",
    "check_failure_formula",
    "check_failure_single",
    "check_failure_thresholds",
    "check_fixed_delta_family",
    "check_implied_bound_positive",
    "check_subset_search_accuracy",
    "check_subset_search_labels",
    "check_subset_search_monte_carlo",
    "check_subset_search_privacy",
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
    size = wlog_sample_size(alpha, beta)
    n = floor(size) + 1
    while (alpha * 8 * n).denominator != 1:
        n += 1
    thresholds = threshold_range(d, alpha, version="004", n=n)
    mean = expected_b(d, n, thresholds)
    if thresholds[-1] >= 2**d - 1:
        upper = Fraction(0) if n > alpha * 9 * n else Fraction(1)
        how = (f"X_{d} ⊆ B so b = n {'>' if upper == 0 else '<='} 9αn surely: Pr[event] <= "
               f"{upper}")
    else:
        upper = min(Fraction(1), mean / (alpha * 7 * n))
        how = f"Markov: Pr[b >= 7αn] <= E[b]/(7αn) = {decimal(upper)}"
    text = (f"α={alpha}, β={beta}, n={n} (>= WLOG size {decimal(size)}), d={d}, E[b]={decimal(mean)}: "
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
                               f"2(αβ)^200/β <= 2·(1/9)^200·(1/4)^199 = {decimal(corner)} <= 1"))
    return combine(results)


def check_implied_bound_positive(alpha: Fraction, beta: Fraction, epsilon: Fraction,
                                 delta: Fraction, version: Version, n: int | None = None
                                 ) -> CheckResult:
    """Is the proof's implied bound on m positive (so that it says anything)?

    n defaults to ⌈(100/α²)·ln(1/(αβ))⌉ (the proofs' WLOG size); also reports α·bound.
    """
    if n is None:
        n = floor(wlog_sample_size(alpha, min(beta, Fraction(99, 100)))) + 1
    bound = implied_label_lower_bound(alpha, beta, epsilon, delta, n,
                                      version=version)
    verdict = greater_than(bound, 0)
    text = (f"{version}: α={alpha}, β={beta}, ε={epsilon}, δ={delta}, n={n}: m >= "
            f"{decimal(bound)} (α·bound = {decimal(bound * alpha)})")
    if verdict is Verdict.VIOLATED:
        return CheckResult(verdict, text + ": vacuous", witness=text)
    return CheckResult(verdict, text)


def check_bound_scales_with_alpha(version: Version, beta: Fraction) -> CheckResult:
    """With δ = 0 and ε = 1: α·bound = e^{−2}(1 − cβ)/9, the same for every α, and > 0.

    Each α·bound is proved within 10^-20 of e^{−2}(1 − cβ)/9 (interval arithmetic cannot prove
    two irrational reals equal; the identity itself is algebra: the δ-term vanishes at δ = 0).
    VIOLATED only when a difference above 10^-20, or e^{−2}(1 − cβ)/9 <= 0, is proved.
    """
    values = [implied_label_lower_bound(a, beta, 1, 0, 100, version=version)
              * a for a in (Fraction(1, 16), Fraction(1, 64), Fraction(1, 1024))]
    coef = Fraction(25, 9) if version == "000" else Fraction(7, 3)
    target = exp(-2) * ((1 - coef * beta) / 9)
    tolerance = Fraction(1, 10**20)
    verdict = all_hold([*(within(v - target, -tolerance, tolerance) for v in values),
                        greater_than(target, 0)])
    return CheckResult(verdict,
                       f"{version}, β={beta}: α·bound = e^-2(1−{coef}β)/9 = {decimal(target)} for "
                       "α ∈ {1/16, 1/64, 1/1024} (each within 10^-20, proved), and it is > 0")


def check_failure_single(d: int, alpha: Fraction, s: int, bound: Fraction = PRINTED_FAILURE_BOUND,
                         *, version: Version = "004", n: int | None = None,
                         beta: Fraction = Fraction(1, 4)) -> CheckResult:
    """Exact failure probability of the one hypothesis c_s (t uniform on B), vs ``bound``.

    For large d, where minimizing over all 2^d + 1 thresholds is too slow.  With
    004's B the instance also reports whether n meets the proof's WLOG
    n >= (100/α²)ln(1/(αβ)) (decided by interval arithmetic).
    """
    thresholds = threshold_range(d, alpha, version=version, n=n)
    failure = failure_probability(d, alpha, (1 << min(s, 1 << d)) - 1, thresholds)
    wlog = ""
    if n is not None:
        inside = at_most(wlog_sample_size(alpha, beta), n)
        wlog = (f", n={n} {'>=' if inside is Verdict.HOLDS else 'below'} WLOG size "
                f"(100/α²)ln(1/(αβ)) = {decimal(wlog_sample_size(alpha, beta))} at β={beta}")
        if inside is Verdict.UNDECIDED:
            return CheckResult(Verdict.UNDECIDED, "WLOG comparison undecided" + wlog)
    text = (f"d={d}, α={alpha}, |B|={len(thresholds)}{wlog}: h = c_{s} fails w.p. {failure} "
            f"(exact) vs bound {bound}")
    if failure >= bound:
        return CheckResult(Verdict.HOLDS, text)
    return CheckResult(Verdict.VIOLATED, text, witness=f"d={d}, α={alpha}, n={n}, h=c_{s}: "
                       f"{failure}")


# ------------------------------------------------------------------ the fixed-δ counterexample

_SS_AUDITS: Final = ((1, 3, 2), (1, 4, 2), (2, 3, 2))  # (d, n, k): exact TPAL audits


def _examples(d: int) -> tuple[tuple[int, int], ...]:
    return tuple((x, y) for x in range(1 << d) for y in (0, 1))


def _fixed_subset(learner: ActiveLearner[Concept]) -> ActiveLearner[Concept]:
    """Mutant: the same program with every random choice answered 0, i.e. K = {0, …, k−1}."""
    inner = learner.program

    def program(points: tuple[Hashable, ...]) -> Program[Concept]:
        gen = inner(points)
        reply: Any = None
        while True:
            try:
                item = gen.send(reply)
            except StopIteration as stop:
                return cast(Concept, stop.value)
            if isinstance(item, Uniform):
                reply = 0
            else:
                reply = yield item

    return active_learner(f"fixed-subset mutant of {learner.name}", program, n=learner.n,
                          m=learner.m, concepts=learner.concepts, proper=True,
                          pal_claim=learner.pal_claim, tpal_claim=learner.tpal_claim,
                          source=Uncited("mutant: subset search without its random subset"))


@cache
def check_subset_search_privacy(mutant: bool = False) -> CheckResult:
    """Exact TPAL audits of the subset-search learner at (0, k/n), and tightness of k/n.

    Universe: all fully labeled samples (X_d × {0,1})^n, substitution neighbors
    (the point may change too).  HOLDS needs the audit at (0, k/n) to hold and
    the audit at (0, k/n − 1/1000) to fail, so the exact δ at ε = 0 is k/n up
    to 1/1000.  ``mutant``: K = the first k indices (no random subset), which
    must fail the (0, k/n) audit.
    """
    results = []
    for d, n, k in _SS_AUDITS:
        learner = subset_search_learner(d, n, k)
        if mutant:
            learner = _fixed_subset(learner)
        universe = Universe(_examples(d), (n,))
        rep = audit(learner.tpal(), universe)
        text = f"d={d}, n={n}, k={k}: TPAL audit at (0, {Fraction(k, n)}) over {rep.pairs} pairs"
        if rep.verdict is not Verdict.HOLDS:
            w = rep.verdict_witness
            results.append(CheckResult(rep.verdict, f"{text}: {rep.verdict.value}",
                                       witness=None if w is None else f"{w.a!r} -> {w.b!r}"))
            continue
        below = audit(learner.tpal(), universe,
                      claim=PrivacyClaim.of(0, Fraction(k, n) - Fraction(1, 1000)))
        tight = below.verdict is Verdict.VIOLATED
        results.append(CheckResult(Verdict.HOLDS if tight else Verdict.UNDECIDED,
                                   f"{text}: HOLDS; at δ = k/n − 1/1000: "
                                   f"{below.verdict.value} (k/n is {'' if tight else 'not '}"
                                   "tight)"))
    return combine(results)


def _max_queries(k: int) -> int:
    """Most label queries of the learner's program over every answer sequence (DFS, exact).

    Drives the real program on the pool (0, …, k−1) (n = k): random choices are
    answered 0 and label queries from a prefix of answers, branching on 0/1
    past it.  The search depends on the answers only, so this covers every
    labeling and every subset.
    """
    prog = subset_search_program(thresholds_on(k), k)

    def run(answers: tuple[int, ...]) -> int | None:
        gen = prog(tuple(range(k)))
        reply: Any = None
        asked = 0
        while True:
            try:
                item = gen.send(reply)
            except StopIteration:
                return asked
            if isinstance(item, Query):
                if asked == len(answers):
                    return None
                reply = answers[asked]
                asked += 1
            else:
                reply = 0

    best = 0
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        used = run(prefix)
        if used is None:
            stack.extend(((*prefix, 0), (*prefix, 1)))
        else:
            best = max(best, used)
    return best


@cache
def check_subset_search_labels(k_max: int = 130) -> CheckResult:
    """Exact: the program asks at most ⌈log₂(k+1)⌉ = k.bit_length() labels, every k <= k_max.

    Over every answer sequence (DFS on the real program), and it reaches that
    number; the audits' universes also run under the budget m = k.bit_length()
    (the label oracle refuses one more query).
    """
    bad = [(k, q) for k in range(1, k_max + 1) if (q := _max_queries(k)) != label_budget(k)]
    if bad:
        k, q = bad[0]
        return CheckResult(Verdict.VIOLATED, f"k={k}: {q} queries vs ⌈log₂(k+1)⌉ = "
                           f"{label_budget(k)}", witness=f"k={k}")
    return CheckResult(Verdict.HOLDS, f"k = 1..{k_max}: the most queries over every answer "
                       "sequence is exactly ⌈log₂(k+1)⌉ (e.g. k = 72: 7, k = 130: 8)")


_SS_ACCURACY: Final = (  # (d, n, k, α)
    (2, 3, 2, Fraction(1, 4)), (2, 3, 1, Fraction(1, 8)), (1, 4, 3, Fraction(1, 4)),
)
_SS_MU: Final = (
    (Fraction(1, 4),) * 4,
    (Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8)),
    (Fraction(1, 10), Fraction(3, 5), Fraction(1, 5), Fraction(1, 10)),
    (Fraction(0), Fraction(1, 3), Fraction(0), Fraction(2, 3)),
)
_SS_MU_1: Final = ((Fraction(1, 2),) * 2, (Fraction(1, 5), Fraction(4, 5)))


SS_FAILURE_SCALE = Fraction(1)
"""The implicit leading 1 of the subset-search learner's failure bound Pr[error > α] <= 1·(1 − α)^k."""


def check_subset_search_accuracy() -> CheckResult:
    """Exact: Pr[error_μ(h, c_t) > α] <= (1 − α)^k for every target t, several μ, three sizes."""
    return _subset_search_accuracy(SS_FAILURE_SCALE)


@cache
def _subset_search_accuracy(scale: Fraction) -> CheckResult:
    worst = (Fraction(0), "")
    for d, n, k, alpha in _SS_ACCURACY:
        learner = subset_search_learner(d, n, k)
        bound = scale * failure_upper_bound(alpha, k)
        for mu in (_SS_MU if d == 2 else _SS_MU_1):
            for t in range((1 << d) + 1):
                f = exact_failure(learner, alpha, t, mu)
                where = f"d={d}, n={n}, k={k}, α={alpha}, μ={tuple(map(str, mu))}, t={t}"
                if f > bound:
                    return CheckResult(Verdict.VIOLATED, f"{where}: failure {f} > {scale}·(1−α)^k = "
                                       f"{bound}", witness=where)
                if f / bound > worst[0]:
                    worst = (f / bound, f"{where}: {f} vs {bound}")
    return CheckResult(Verdict.HOLDS, f"{len(_SS_ACCURACY)} sizes × 2–4 μ × every target: "
                       f"failure <= (1−α)^k; closest: {worst[1]}")


MC_SEED: Final = 20261124

MC_BETA = Fraction(1, 20)
"""The β claimed for the subset-search learner in the Monte Carlo check (d = 10, α = 1/16, k = 61)."""


def check_subset_search_monte_carlo(runs: int = 2000, seed: int = MC_SEED) -> CheckResult:
    """Seeded Monte Carlo, d = 10, n = 100, α = 1/16, k = 61 (least k with (15/16)^k <= 1/50).

    μ uniform on X_10, target c_512 (for uniform μ the failure is exactly
    (1−α)^k ≈ 0.0195).  HOLDS when the one-sided Clopper–Pearson upper bound
    at confidence 1 − 10^-6 is <= β (:data:`MC_BETA`, 1/20; exact CP, privref.audits.stats),
    VIOLATED when the lower bound exceeds β, else UNDECIDED.
    """
    return _subset_search_monte_carlo(runs, seed, MC_BETA)


@cache
def _subset_search_monte_carlo(runs: int, seed: int, beta: Fraction) -> CheckResult:
    alpha, d, n, target = Fraction(1, 16), 10, 100, 512
    k = subset_size(alpha, Fraction(1, 50))
    learner = subset_search_learner(d, n, k)
    c = learner.concepts[target]
    rng = np.random.default_rng(seed)
    failures = 0
    size = 1 << d
    for _ in range(runs):
        pool = tuple(int(x) for x in rng.integers(0, size, n))
        h, transcript = sample(learner.run, tuple((x, c(x)) for x in pool), rng=rng)
        if len(transcript) > learner.m:
            return CheckResult(Verdict.VIOLATED, f"{len(transcript)} queries > m = {learner.m}")
        if Fraction((h.mask ^ c.mask).bit_count(), size) > alpha:
            failures += 1
    conf = Fraction(1, 10**6)
    upper, lower = cp_upper(failures, runs, conf), cp_lower(failures, runs, conf)
    text = (f"d={d}, n={n}, α={alpha}, k={k}, m={learner.m}, target c_{target}, μ uniform, "
            f"{runs} runs (seed {seed}): {failures} failures, CP upper ({1 - conf} confidence) "
            f"{decimal(upper)} vs β = {beta}; exact (1−α)^k = {decimal(failure_upper_bound(alpha, k))}")
    if lower > beta:
        return CheckResult(Verdict.VIOLATED, text + f"; CP lower {decimal(lower)} > β", witness=text,
                           confidence=1 - conf)
    return CheckResult(Verdict.HOLDS if upper <= beta else Verdict.UNDECIDED, text,
                       confidence=1 - conf)


_FAMILY_J: Final = (4, 8, 12, 16, 20, 24)  # α = 2^-j
_FAMILY_DELTA: Final = Fraction(1, 100)


def _family(beta: Fraction) -> list[tuple[Fraction, int, int, int]]:
    """(α, k, n, m) of the subset-search learners at δ = k/n <= 1/100, α = 2^-j."""
    rows = []
    for j in _FAMILY_J:
        alpha = Fraction(1, 1 << j)
        k = subset_size(alpha, beta)
        n = -(-k * _FAMILY_DELTA.denominator // _FAMILY_DELTA.numerator)
        rows.append((alpha, k, n, label_budget(k)))
    return rows


def _proof_constant(version: Version, beta: Fraction) -> Fraction:
    """c = (1 − cβ)/18 at ε = 0: the Ω(1/α) constant the proofs give when nδ is negligible."""
    coef = Fraction(25, 9) if version == "000" else Fraction(7, 3)
    return (1 - coef * beta) / 18


def check_fixed_delta_family(version: Version = "004", beta: Fraction = Fraction(1, 4)
                             ) -> CheckResult:
    """The theorem read with a fixed δ > 0: is m >= c/α for the learners at δ = 1/100, ε = 0?

    The family is the subset-search learner (reference.learners.subset_search),
    an (α, β, 0, k/n, n, ⌈log₂(k+1)⌉)-TPAL with k/n <= δ = 1/100.  c is the
    proof's constant (1 − 7β/3)/18 (004) or (1 − 25β/9)/18 (000) at ε = 0;
    α·m → 0 along the family, so no constant c > 0 works.  VIOLATED refutes
    the fixed-δ reading.
    """
    c = _proof_constant(version, beta)
    rows = _family(beta)
    text = "; ".join(f"α=2^-{j}: k={k}, m={m}, α·m={decimal(a * m)}"
                     for j, (a, k, _, m) in zip(_FAMILY_J, rows, strict=True))
    bad = [(a, k, n, m) for a, k, n, m in rows if m < c / a]
    if not bad:
        return CheckResult(Verdict.HOLDS, f"{version}: m >= c/α (c = {c}) on the family: {text}")
    a, k, n, m = bad[0]
    return CheckResult(Verdict.VIOLATED,
                       f"{version}: β={beta}, ε=0, δ=k/n <= {_FAMILY_DELTA}; {text}; the proof's "
                       f"c = {c} ≈ {decimal(c)} fails from α = {a} on",
                       witness=f"α={a}, β={beta}, ε=0, n={n}, k={k}, δ={Fraction(k, n)}: "
                               f"m = {m} < c/α = {decimal(c / a)}")


def check_corrected_consistency(version: Version = "004", beta: Fraction = Fraction(1, 4)
                                ) -> CheckResult:
    """The corrected statement against the family: the proof's inequality m >= e^{−2ε}(1 −
    cβ)/(9α) − nδ(1 + e^{−ε}) must hold for every learner of the family (ε = 0, δ = k/n),
    and each must fall outside the hypothesis nδ(1+e^{−ε}) <= e^{−2ε}(1 − cβ)/(18α) under
    which the corrected statement asserts Ω(1/α).
    """
    c = _proof_constant(version, beta)
    parts = []
    for alpha, k, n, m in _family(beta):
        bound = implied_label_lower_bound(alpha, beta, 0, Fraction(k, n), n, version=version)
        verdict = at_most(bound, m)
        if verdict is Verdict.UNDECIDED:
            return CheckResult(verdict, f"α={alpha}: comparison undecided")
        if verdict is Verdict.VIOLATED:
            return CheckResult(verdict, f"α={alpha}, k={k}, n={n}: m = {m} < bound "
                               f"{decimal(bound)}", witness=f"α={alpha}, n={n}, k={k}")
        if 2 * k <= c / alpha:  # nδ(1+e^0) = 2k; the hypothesis would assert m >= c/α
            return CheckResult(Verdict.VIOLATED, f"α={alpha}: 2k = {2 * k} <= c/α yet m = {m}",
                               witness=f"α={alpha}, k={k}")
        parts.append(f"α={alpha}: bound {decimal(bound)} <= m = {m}, 2k = {2 * k} > c/α = "
                     f"{decimal(c / alpha)}")
    return CheckResult(Verdict.HOLDS, f"{version}, β={beta}: " + "; ".join(parts))


# ------------------------------------------------------------------ entries

_SC12 = "For every (α, β, ε, δ, n, m)-TPAL for THRESH_d it holds that m = Ω(1/α)."
_ALSO_C12 = ("000 Theorem 5.6",)

SWAP_CHECKS_004: Final = (Check("exact swap law, 004's B", partial(check_swap, "004")),
                          Check("exact swap law, 000's B", check_swap))
FAILURE_FORMULA: Final = Check("corrected formula = exact minimum", check_failure_formula)

SUBSET_SEARCH_CHECKS: Final = (
    Check("subset search: exact TPAL audits at (0, k/n), k/n tight", check_subset_search_privacy),
    Check("subset search: <= ⌈log₂(k+1)⌉ labels, every answer sequence",
          check_subset_search_labels),
    Check("subset search: exact failure <= (1−α)^k, tiny sizes", check_subset_search_accuracy,
          constant="SS_FAILURE_SCALE"),
    Check("subset search: Monte Carlo accuracy, d = 10 (CP, 1 − 10^-6)",
          check_subset_search_monte_carlo, constant="MC_BETA"),
)
CE_C12 = ("Fix δ = 1/100, ε = 0, β = 1/4. The subset-search learner (reference.learners."
           "subset_search: a uniformly random set K of k indices, binary search of K sorted by "
           "point for the first label 0, output c_s with s = 1 + the largest point labeled 1) "
           "reads only the entries in K, so it is (0, k/n)-transcript-private (exact audits: k/n "
           "is tight); it asks at most ⌈log₂(k+1)⌉ labels (exact, every answer sequence) and "
           "fails w.p. <= (1−α)^k for every μ and target (proof in the module; exact on tiny "
           "sizes, Monte Carlo at d = 10). With k = the least k with (1−α)^k <= β and n = "
           "100k it is an (α, 1/4, 0, 1/100, n, ⌈log₂(k+1)⌉)-TPAL for THRESH_d: at α = 2^-12, "
           "k = 5678, n = 567800, m = 13 < 94.8 = c/α for the proof's c = (1 − 7β/3)/18 = "
           "5/216, and α·m → 0 (α = 2^-24: m = 25, α·m ≈ 1.5·10^-6), so no constant works.")
_CORR_C12 = ("For every (α, β, ε, δ, n, m)-TPAL for THRESH_d, the proof (run with 000's B = "
             "{1, …, 8α2^d}, and up to the constants of the step corrections) gives m >= "
             "e^−2ε(1 − 7β/3)/(9α) − nδ(1+e^−ε). So "
             "m = Ω(1/α) when ε <= ε₀, β <= β₀ < 3/7 and δ = O(1/n): nδ(1+e^−ε) <= c₀ with "
             "c₀ = e^−2ε₀(1 − 7β₀/3)/18 gives m >= e^−2ε(1 − 7β/3)/(18α) (α <= 1). The "
             "subset-search learners have nδ = k ≈ ln(1/β)/α, outside this hypothesis, and "
             "satisfy the inequality (checked).")

THEOREMC12: Final = Entry(
    paper="004", number="Theorem C.12", kind=Kind.THEOREM, status=Status.REFUTED,
    statement=_SC12 + " (Read with ε and δ > 0 fixed: a constant c(ε, δ, β) > 0 with m >= c/α "
                      "for every n.)",
    also=_ALSO_C12, subjects=("reference.learners.lower_bound",
                              "reference.learners.subset_search"),
    counterexample=CE_C12, corrected=_CORR_C12,
    notes="The proof's last display has −δ(1+e^−ε) against a first term of order 1/(αn): it "
          "says nothing unless nδ = O(1/α), and the WLOG 'n >= (100/α²)ln(1/(αβ))' makes n large "
          "for a fixed δ. 000 Theorem 5.6's NOT_CHECKABLE reason mentioned nδ = o(1/α); 004 "
          "states no condition at all. Also 004-E16(iii): 004 uses the unconditional "
          "1 − 4β/3 inside a probability conditioned on b <= 9αn; 000 repairs it with 9/16 and "
          "1 − 16β/9. The corrected statement is quantified over every TPAL: checked are its "
          "consistency with the counterexample family and the δ = 0 constant.",
    checks=(Check("fixed δ = 1/100: m >= c/α fails along the subset-search family",
                  check_fixed_delta_family, Verdict.VIOLATED),
            *SUBSET_SEARCH_CHECKS,
            Check("corrected: the family satisfies the inequality, outside δ = O(1/n)",
                  check_corrected_consistency),
            Check("corrected: α·bound is constant in α and > 0 (δ = 0)", partial(
                check_bound_scales_with_alpha, "004", Fraction(1, 4)))))

_N004 = threshold_range(17, Fraction(1, 8), version="004", n=22181)

THEOREMC12_STEPS: Final = (
    proof_step("Theorem C.12", "(1−β)(1−4β/3) algebra", status=Status.PROVED, also=_ALSO_C12,
          statement="(1−β)(1−4β/3) = 1 − 7β/3 + 4β²/3 >= 1 − 7β/3.",
          parameter_range="every real β (polynomial identity; 4β²/3 >= 0)",
          checks=(Check("coefficients", partial(algebra_identity, Fraction(4, 3), Fraction(7, 3),
                                                Fraction(4, 3))),)),
    proof_step("Theorem C.12", "swap exchangeability", status=Status.CHECKED, also=_ALSO_C12,
          statement="For S ~ 𝒫 with b >= 1, x* uniform among the entries in B and x̂ uniform "
                    "among all entries, swapping them gives (S′, position of x̂) ~ "
                    "𝒫|_{b>=1} × Unif[n].",
          notes="Checked exactly for (d, n) ∈ {(2, 4), (1, 5)} with 004's B and (1, 5), (2, 4), "
                "(2, 3) with 000's B. General reason: 𝒫 is exchangeable, so Pr[S′, j] = "
                "Σ_{ĵ: S′_ĵ∈B} Pr[S′]/(b·n) = Pr[S′]/n. Choosing x* as the first entry in B "
                "breaks it.",
          checks=SWAP_CHECKS_004),
    proof_step("Theorem C.12", "fails w.p. >= 3/4", status=Status.REFUTED, also=_ALSO_C12,
          statement="A learner that queries no point of B fails to be α-good w.p. >= 3/4 "
                    "(t uniform on B).",
          counterexample="Inside the proof's WLOG n >= (100/α²)ln(1/(αβ)): α = 1/8, β = 1/4, "
                         "n = 22181 (the WLOG size is 22180.71), d = 17, 004's B = {0..8αn} = "
                         "{0..22181}: h = c_11091 has error |11091 − t|/2^17 <= 11091/131072 < "
                         "α for every t ∈ B (failure 0, exact; any 2^d >= 4n does it, and "
                         "d = 15 still gives 1 − 8193/22182 ≈ 0.63). With 000's B (where n "
                         "plays no role): d = 6, α = 1/8, h = c_9: 47/64; d = 3, α = 1/8: 5/8 "
                         "even over all 256 (improper) hypotheses.",
          corrected="For consecutive thresholds B ⊆ [0, 2^d] the exact minimum failure is "
                    "1 − min(|B|, 2⌊α2^d⌋+1)/|B| (3/4 − 1/|B| for 000's B when α2^d ∈ ℤ); "
                    "with 004's B it is 0 once 2⌊α2^d⌋ >= 8αn.",
          notes="The earlier instance d = n = 4 (α = 1/8) lay outside the proof's WLOG n >= "
                "(100/α²)ln(1/(αβ)) (>= 22181 at α = 1/8); the counterexample now uses an "
                "n inside it (checked by interval arithmetic in the check).",
          checks=(Check("004's B, d=17, n=22181 (>= WLOG size): c_11091 fails w.p. 0",
                        partial(check_failure_single, 17, Fraction(1, 8), 11091,
                                version="004", n=22181), Verdict.VIOLATED),
                  Check("000's B, d=6, α=1/8: 47/64", partial(check_failure_thresholds, 6,
                                                              Fraction(1, 8)), Verdict.VIOLATED),
                  Check("exhaustive d=3, α=1/8: 5/8", partial(check_failure_all_hypotheses, 3,
                                                              Fraction(1, 8)), Verdict.VIOLATED),
                  FAILURE_FORMULA,
                  Check("004's B, d=17, n=22181: corrected value 0 attained", partial(
                      check_failure_single, 17, Fraction(1, 8), 11091,
                      failure_bound(17, Fraction(1, 8), _N004), version="004", n=22181)))),
    proof_step("Theorem C.12", "7αn <= b <= 9αn", status=Status.REFUTED, also=_ALSO_C12,
          statement="With B = {0, …, 8αn} and n >= (100/α²)ln(1/(αβ)), w.p. >= 1 − β the "
                    "number b of sample points in B satisfies 7αn <= b <= 9αn.",
          counterexample="α = 1/8, β = 1/4, n = 22181, d = 20: E[b] = n(8αn+1)/2^20 ≈ 469.2, "
                         "so Pr[b >= 7αn] <= 0.0242 (Markov) < 3/4. α = 1/16, n = 106468, "
                         "d = 10: X_10 ⊆ B, so b = n > 9αn surely (004-E16(i)).",
          corrected="With 000's B = {1, …, 8α2^d} (8α2^d ∈ ℤ, α < 1/8): b ~ Binomial(n, 8α), "
                    "E[b] = 8αn and Pr[|b − 8αn| > αn] <= 2e^{−2α²n} <= 2(αβ)^200 <= β.",
          checks=(Check("α=1/8, d=20 (Markov)", partial(check_b_concentration_004,
                                                       Fraction(1, 8), 20), Verdict.VIOLATED),
                  Check("α=1/16, d=10 (X_d ⊆ B)", partial(check_b_concentration_004,
                                                         Fraction(1, 16), 10), Verdict.VIOLATED),
                  Check("000's B: mean and Hoeffding", check_b_concentration_000))),
    proof_step("Theorem C.12", "solving for m", status=Status.REFUTED, also=_ALSO_C12,
          statement="Without hypotheses on α, β, ε, δ, the final inequality m/n >= "
                    "e^−2ε(1 − 7β/3)/(9αn) − δ(1+e^−ε) yields m = Ω(1/α).",
          counterexample="β = 1/2 (no hypothesis excludes it): 1 − 7β/3 < 0, the bound is "
                         "negative for every α. δ = 1/1000 with β = 1/4, ε = 1, α = 1/16 and the "
                         "WLOG n = 106468: m >= −145.5 (004-E16(ii), (vii)).",
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
