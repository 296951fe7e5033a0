"""Ledger: the realizable private learner of 002 (Lemma 6, Remark 2) through baseline B4.

002 Lemma 6 cites [DF18, Theorem 4.1]: a realizable (α, β)-PAC learner with ε-private
prediction and Õ(d/(αε)) examples.  Our concrete instance is B4
(:func:`~privref.reference.learners.prediction_baselines.private_majority_predictor`): ERM on
k disjoint index blocks, then the exponential mechanism on the two vote counts.  Remark 2 asks
for more than a fixed target: Algorithm 3 feeds it S_h for a data-dependent h, so the accuracy
must hold for all targets simultaneously; it does, because each block's guarantee comes from
the net property of its points, which does not look at labels.

All checks are exact (rationals; ε = 2·ln r so every weight is a power of r).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from fractions import Fraction

from privref.audits.prediction import audit_prediction
from privref.reference.concepts import Concept, ConceptClass, point_functions, thresholds_on
from privref.reference.data import Dataset
from privref.reference.decide import at_most
from privref.reference.learners.prediction_baselines import (
    erm,
    index_blocks,
    private_majority_epsilon,
    private_majority_predictor,
)
from privref.reference.neighbors import Universe
from privref.reference.prediction import PrivatePrediction
from privref.reference.reals import Real, exp, log, rational

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import exact_and_decimal

__all__ = [
    "ENTRIES",
    "check_b4_accuracy",
    "check_b4_privacy",
    "check_simultaneous_targets",
]

F = Fraction

B4_EPSILON_SCALE = F(1)
"""The implicit leading 1 of B4's claimed ε′ = ln((1 + r^k)/(1 + r^{k−2})) (002 Lemma 6, the
B4 privacy step)."""

B4_MARKOV_FACTOR = F(4)
"""The 4 of 002 Lemma 6's B4 accuracy step L <= 4·max_j err(f_j) + e^{−εk/4} (Markov on the
number of wrong blocks), used again by Remark 2's simultaneous bound."""
Learner = Callable[[ConceptClass, Dataset], Concept]

_R = F(2)
"""e^{ε/2} = 2, i.e. ε = 2 ln 2, for every B4 here."""

_MARGINALS: tuple[tuple[Fraction, ...], ...] = (
    (F(1, 4), F(1, 4), F(1, 4), F(1, 4)), (F(1, 2), F(1, 4), F(1, 8), F(1, 8)),
    (F(1, 16), F(1, 16), F(3, 8), F(1, 2)))
"""Marginals D on the 4-point domain of the accuracy checks."""


def _eps() -> Real:
    return log(rational(_R)) * 2


# ------------------------------------------------------------------ privacy


def check_b4_privacy() -> CheckResult:
    """B4's ε′-private prediction, exact audit over EVERY neighbouring pair of datasets of size
    n over the domain × {0, 1} (thresholds on 3 points, n = 3, k = 3; point functions on 2
    points, n = 4, k = 2), every query: HOLDS at ε′ = ln((1 + r^k)/(1 + r^{k−2})) <= ε, and
    ε′ is attained.  The claim audited is ε′·:data:`B4_EPSILON_SCALE`, read at run time
    (below 1 it must fail)."""
    claim_scale = B4_EPSILON_SCALE
    notes = []
    for C, n, k in ((thresholds_on(3), 3, 3), (point_functions((0, 1), include_zero=True), 4, 2)):
        b4 = private_majority_predictor(C, n, k, _eps())
        stated = private_majority_epsilon(k, _eps())
        universe = Universe(tuple((x, y) for x in C.domain for y in (0, 1)), (n,))
        report = audit_prediction(b4, universe, tuple(C.domain),
                                  claim=PrivatePrediction(stated * claim_scale))
        if report.verdict is not Verdict.HOLDS:
            w = report.verdict_witness
            return CheckResult(report.verdict, "B4 breaks its private-prediction claim",
                               f"{C.name}, n={n}, k={k}: claim {stated}·{claim_scale}; pair "
                               f"{w.a if w else None} -> {w.b if w else None}")
        exact = report.epsilon_exact
        attained = exact is not None and exp(exact).exact is not None \
            and exp(exact).exact == exp(stated).exact
        if not attained:
            return CheckResult(Verdict.VIOLATED, "B4's eps' is not attained",
                               f"{C.name}: audited {exact}, stated {stated}")
        within = at_most(stated, _eps())
        if within is not Verdict.HOLDS:
            return CheckResult(within, "B4's eps' not proved <= eps",
                               f"{C.name}: audited {exact}, stated {stated}")
        notes.append(f"{C.name}, n={n}, k={k}: {report.pairs} pairs, exact eps = {exact} "
                     "(attained)")
    return CheckResult(Verdict.HOLDS, "; ".join(notes) + "; eps' <= eps = 2 ln 2")


# ------------------------------------------------------------------ accuracy


def _wrong(C: ConceptClass, data: Dataset, k: int, target: Concept) -> tuple[Fraction, ...]:
    """Pr[B4(S, x) != target(x)] for every domain point x, exact."""
    b4 = private_majority_predictor(C, len(data), k, _eps())
    out = []
    for x in C.domain:
        wrong = b4.law(data, x).prob(1 - target(x))
        assert isinstance(wrong, Fraction)
        out.append(wrong)
    return tuple(out)


def _loss(wrong: tuple[Fraction, ...], marginal: tuple[Fraction, ...]) -> Fraction:
    return sum((w * p for w, p in zip(marginal, wrong, strict=True)), F(0))


def _err(h: Concept, target: Concept, C: ConceptClass,
         marginal: tuple[Fraction, ...]) -> Fraction:
    return sum((w for x, w in zip(C.domain, marginal, strict=True) if h(x) != target(x)), F(0))


def _vote_term(k: int) -> Fraction:
    """e^{−εk/4} = r^{−k/2} (k even here), the vote term of B4's accuracy bound."""
    return _R ** (-k // 2)


def check_b4_accuracy() -> CheckResult:
    """B4's accuracy on realizable data, exact: for thresholds on 4 points, every target h ∈ C,
    every x-sequence of length n = 4, k ∈ {2, 4} blocks and three marginals D,
    L_D(B4(S_h)) <= 4·mean_j err_D(f_j) + e^{−εk/4} (so <= 4·max_j err_D(f_j) + e^{−εk/4}),
    f_j the ERM of block j; the 4 is :data:`B4_MARKOV_FACTOR`, read at run time."""
    constant = B4_MARKOV_FACTOR
    C = thresholds_on(4)
    cases = 0
    worst = F(0)
    for k in (2, 4):
        tail = _vote_term(k)
        blocks = index_blocks(4, k)
        for points in itertools.product(C.domain, repeat=4):
            if k == 4 and [C.domain.position(x) for x in points] != \
                    sorted(C.domain.position(x) for x in points):
                continue          # with one-point blocks the order of the points is immaterial
            for target in C:
                data = tuple((x, target(x)) for x in points)
                fits = [erm(C, tuple(data[i] for i in b)) for b in blocks]
                wrong = _wrong(C, data, k, target)
                for marginal in _MARGINALS:
                    cases += 1
                    loss = _loss(wrong, marginal)
                    mean = sum((_err(f, target, C, marginal) for f in fits), F(0)) / k
                    bound = constant * mean + tail
                    if loss > bound:
                        return CheckResult(Verdict.VIOLATED, "B4's accuracy bound fails",
                                           f"k={k}, S={data}, D={marginal}: L = {exact_and_decimal(loss)} > "
                                           f"{constant}·{mean} + {tail}")
                    worst = max(worst, loss / bound)
    return CheckResult(Verdict.HOLDS, f"{cases} (k, S, h, D) cases: L <= 4·mean err(f_j) + "
                       f"e^(-eps k/4); largest L/bound {exact_and_decimal(worst)}")


def _block_radius(C: ConceptClass, points: tuple[Hashable, ...],
                  marginal: tuple[Fraction, ...]) -> Fraction:
    """The D-mass net radius of ``points``: max D(h != h') over h, h' ∈ C agreeing on them."""
    best = F(0)
    for h, g in itertools.combinations(C, 2):
        if all(h(x) == g(x) for x in points):
            best = max(best, sum((w for x, w in zip(C.domain, marginal, strict=True)
                                  if h(x) != g(x)), F(0)))
    return best


def check_simultaneous_targets(learner: Learner = erm, k: int = 2) -> CheckResult:
    """002 Remark 2 with B4, exact: for thresholds on 4 points, every x-sequence S^X of length 4
    and every marginal D, with ρ_j the D-net radius of block j's points (the largest D-mass on
    which two concepts agreeing on those points differ; it ignores labels):
    (a) for EVERY target h ∈ C at once, the block learner on S_h has err_D(f_j) <= ρ_j (a
    consistent learner errs only inside the net radius);
    (b) hence L_D(B4(S_h)) <= 4·max_j ρ_j + e^{−εk/4} for every h simultaneously (the 4 is
    :data:`B4_MARKOV_FACTOR`, read at run time).
    ``learner`` replaces ERM (a non-consistent one must fail)."""
    C = thresholds_on(4)
    blocks = index_blocks(4, k)
    tail = _vote_term(k)
    cases = 0
    tightest = F(0)
    for points in itertools.product(C.domain, repeat=4):
        labelled = [(target, tuple((x, target(x)) for x in points)) for target in C]
        wrongs = {target.name: _wrong(C, data, k, target) for target, data in labelled}
        for marginal in _MARGINALS:
            radii = [_block_radius(C, tuple(points[i] for i in b), marginal) for b in blocks]
            for target, data in labelled:
                cases += 1
                for b, rho in zip(blocks, radii, strict=True):
                    f = learner(C, tuple(data[i] for i in b))
                    if _err(f, target, C, marginal) > rho:
                        return CheckResult(Verdict.VIOLATED, "a block learner errs beyond the "
                                           "net radius", f"S^X={points}, h={target.name}, "
                                           f"D={marginal}, block {b}")
                loss = _loss(wrongs[target.name], marginal)
                bound = B4_MARKOV_FACTOR * max(radii) + tail
                if loss > bound:
                    return CheckResult(Verdict.VIOLATED, "B4 misses the simultaneous bound",
                                       f"S^X={points}, h={target.name}, D={marginal}")
                tightest = max(tightest, loss / bound)
    return CheckResult(Verdict.HOLDS, f"{cases} (S^X, h, D) cases: for every target at once "
                       "each block learner errs within its block's net radius, and "
                       f"L <= 4·max_j rho_j + e^(-eps k/4) (largest L/bound {exact_and_decimal(tightest)})")


# ------------------------------------------------------------------ entries

_SUBJECTS = ("reference.learners.prediction_baselines.private_majority_predictor",
             "reference.learners.prediction_baselines.private_majority_epsilon")
_PRIVACY = Check("exact audit of B4 over every neighbouring pair: eps' attained, <= eps",
                 check_b4_privacy, constant="B4_EPSILON_SCALE")
_ACCURACY = Check("exact: L <= 4·mean err(f_j) + e^(-eps k/4) on every realizable S",
                  check_b4_accuracy, constant="B4_MARKOV_FACTOR")
_SIMULTANEOUS = Check("exact: nets give accuracy for every relabeling simultaneously",
                      check_simultaneous_targets, constant="B4_MARKOV_FACTOR")

ENTRIES: tuple[Entry, ...] = (
    Entry(
        paper="002", number="Lemma 6",
        statement=("[R-high] form, [R-low] logs, citing [DF18, Theorem 4.1]: for any α, β, ε ∈ "
                   "(0, 1) there is an (α, β)-PAC learner with ε-private prediction for "
                   "distributions realizable by C, with sample complexity Õ(d/(αε))."),
        kind=Kind.LEMMA, status=Status.NOT_CHECKABLE,
        checks=(_PRIVACY, _ACCURACY, _SIMULTANEOUS),
        reason=("An existence statement with an asymptotic sample size, cited from [DF18]; the "
                "paper gives neither the learner nor the constants. Our B4 is one concrete "
                "instance; checking it on tiny inputs cannot establish an Õ(d/(αε)) rate."),
        illustration=("B4 (k blocks of ERM, private majority) is ε′-private exactly "
                      "(audited, attained), and its loss on realizable data obeys "
                      "L <= 4·mean_j err(f_j) + e^{−εk/4} exactly; with k = ⌈4 ln(2/α)/ε⌉ and "
                      "blocks that are (α/8)-nets this is <= α, giving n = k·m₀(α/8, β/k) = "
                      "Õ(d/(αε)) (our constants)."),
        notes=("Status justification: the privacy half of B4 is exact and attained, and the "
               "accuracy inequality is exact; what remains is the rate, which is the "
               "existence-with-rate statement and not a finite check."),
        subjects=_SUBJECTS),
    Entry(
        paper="002", number="Lemma 6", step="B4 is epsilon-private (one example moves each vote by 1)",
        statement=("Ours, for B4 as the Lemma 6 learner: ERM on k index blocks then the "
                   "exponential mechanism on the vote counts is ε′-private with "
                   "ε′ = ln((1 + r^k)/(1 + r^{k−2})) <= ε, r = e^{ε/2}, and ε′ is attained."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(_PRIVACY,),
        notes="One example lies in one block, so each vote count moves by at most 1.",
        subjects=_SUBJECTS),
    Entry(
        paper="002", number="Lemma 6", step="B4 accuracy: L <= 4 max_j err(f_j) + e^(-eps k/4)",
        statement=("Ours, for B4 on realizable data labeled by h: with N(x) the number of blocks "
                   "voting wrong at x, Pr[wrong | x] <= e^{−ε(k−2N(x))/2} and "
                   "Pr_x[N(x) > k/4] <= 4·mean_j err(f_j), so "
                   "L <= 4·max_j err(f_j) + e^{−εk/4}."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(_ACCURACY,),
        notes="Markov's inequality on N(x), and the exponential mechanism's tail on the votes.",
        subjects=_SUBJECTS),
    Entry(
        paper="002", number="Remark 2",
        statement=("[R-med] from the surviving prose of 002 Remark 2: the realizable learner must "
                   "succeed for all targets simultaneously (Eq. (10): w.p. >= 1 − β over the "
                   "x's, for all h ∈ C, Pr_x[A_R(S_h, x) != h(x)] <= α), because Algorithm 3 "
                   "relabels by a data-dependent h; a consistent (non-private) learner has this "
                   "property at the ε-net sample size, so n₁ = Õ(d/(αε)) as in [DF18]."),
        kind=Kind.REMARK, status=Status.CHECKED,
        checks=(_SIMULTANEOUS,),
        notes=("Checked exactly for B4 with ERM blocks: the net radius of each block's points "
               "bounds the block learner's error for every target at once, so the event 'every "
               "block is an α′-net' (which ignores labels) implies accuracy for all relabelings. "
               "The paper calls the ε-net theorem 'uniform convergence'; B4 needs a union bound "
               "over its k blocks (β/k per block). The rate n₁ = Õ(d/(αε)) itself is part of "
               "Lemma 6 (not checkable)."),
        subjects=_SUBJECTS),
)
