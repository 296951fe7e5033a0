"""Ledger: 002 Theorem 4 (the stability lower bound, §5) and the steps of its proof.

The §5 text stops after "Drawing h uniformly at random, we obtain the following:", so the
statement's hypotheses and the proof are reconstructed [R-high] (construction) with our
constants.  What is checked, all exactly (Fractions; no floats decide anything):

* **d = 1 refutes the statement as reconstructed**: C = {all-0, all-1} has VC dimension 1;
  "predict the label of a uniformly random training example" is exactly (1/n)-stable (exact
  audit over every neighbouring pair) and has zero error on every realizable distribution,
  so n = ⌈1/γ⌉ works for every α, contradicting Ω(d/(αγ)) = Ω(1/(αγ)).
* **Corrected (d ≥ 2)**: on the hard instance of
  :mod:`privref.reference.learners.stability_lower_bound`, the key inequality
  E_h E_S L_{P_h}(A, S) ≥ Σ_x D(x)·max(0, 1 − γnD(x))/2 ≥ 2α(1 − 4αγn/(d − 1)) for the
  baseline B1 (γ = m/n) and Algorithm 1 (γ its exact stability), d ∈ {2, 3}, by exact
  enumeration of S ~ P_h^n; and wherever the learner reaches E L ≤ α, n ≥ (d − 1)/(8αγ).
* **Proof steps**: (h, S) and (h ⊕ e_i, S^{(i)}) have the same law; A(S, x_i) and
  A(S^{(i)}, x_i) differ by at most γ·N_i(S).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from fractions import Fraction
from functools import cache
from typing import Final

from privref.audits.prediction import audit_prediction
from privref.reference.citations import Uncited
from privref.reference.concepts import ConceptClass, explicit
from privref.reference.data import Dataset, label_of
from privref.reference.learners.prediction_baselines import subsample_predictor
from privref.reference.learners.stability_lower_bound import (
    HardInstance,
    expected_loss,
    flip_point,
    hard_instance,
    key_bound,
    occurrences,
    sample_law,
    tail_bound,
    targets,
)
from privref.reference.learners.stable_prediction import stable_gamma, stable_predictor
from privref.reference.neighbors import Universe
from privref.reference.prediction import Predictor, UniformStability
from privref.reference.program import Program, uniform
from privref.reference.reals import log
from privref.reference.vc import vc_dimension

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict

__all__ = [
    "ENTRIES",
    "all_functions",
    "check_chain_of_replacements",
    "check_corrected_key_inequality",
    "check_d1_counterexample",
    "check_d1_reading_fails",
    "check_flip_symmetry",
    "constant_class",
    "random_label_predictor",
]

F = Fraction
_EPS: Final = log(F(3, 2)) * 2
"""ε = 2·ln(3/2): e^{ε/2} = 3/2, so Algorithm 1's laws and its γ are rational."""

Bound = Callable[[HardInstance, int, Fraction], Fraction]

SAMPLE_SIZE_DENOMINATOR = 8
"""The 8 of n >= (d − 1)/(8αγ), 002 Theorem 4 read for d >= 2 (our constants)."""

REPLACEMENT_SCALE = F(1)
"""The implicit leading 1 of γ·N_i(S) in 002 Theorem 4's step |A(S, x_i) − A(S^(i), x_i)| <=
γ·N_i(S)."""


@cache
def all_functions(d: int) -> ConceptClass:
    """All 2^d functions on {0, …, d−1} (VC dimension d), lexicographic order."""
    return explicit(range(d), itertools.product((0, 1), repeat=d), name=f"ALL[{d} points]")


@cache
def constant_class() -> ConceptClass:
    """C = {all-0, all-1} over {0, 1}: VC dimension 1 (either point alone is shattered)."""
    return explicit(range(2), [(0, 0), (1, 1)], name="CONSTANTS[2 points]")


def random_label_predictor(n: int) -> Predictor:
    """Predict the label of a uniformly random training example (ignores x).

    Exactly (1/n)-uniformly stable: one changed example moves P[A(S, x) = y] by at most 1/n.
    Used as the counterexample to 002 Theorem 4 at d = 1.
    """
    def program(data: Dataset, x: Hashable) -> Program[int]:
        i = yield from uniform(n)
        y = label_of(data[i])
        assert y in (0, 1)
        return int(y)

    return Predictor(f"random training label (n={n})", program, UniformStability.of(F(1, n)),
                     Uncited("the d = 1 counterexample to 002 Theorem 4"), domain=(0, 1))


def _frac(p: object) -> Fraction:
    assert isinstance(p, Fraction), p
    return p


# ------------------------------------------------------------------ d = 1


def check_d1_counterexample() -> CheckResult:
    """VIOLATED: at d = 1 a (1/n)-stable learner has zero error for every α (Ω(1/(αγ)) fails)."""
    C = constant_class()
    if vc_dimension(C) != 1:
        return CheckResult(Verdict.HOLDS, f"VC({C.name}) = {vc_dimension(C)} is not 1")
    elements = tuple((x, y) for x in (0, 1) for y in (0, 1))
    facts: list[str] = []
    for n in (1, 2, 3):
        A = random_label_predictor(n)
        report = audit_prediction(A, Universe(elements, (n,)), (0, 1))
        if report.verdict is not Verdict.HOLDS or report.gamma_exact != F(1, n):
            return CheckResult(Verdict.HOLDS, f"n={n}: audited γ = {report.gamma_exact}")
        for c in C:                                       # every realizable P: labels c(x)
            for xs in itertools.product((0, 1), repeat=n):
                data = tuple((x, c(x)) for x in xs)
                for x in (0, 1):
                    if A.probability_one(data, x) != c(x):
                        return CheckResult(Verdict.HOLDS, f"error at S={data}, x={x}")
        facts.append(f"n={n}: γ = 1/{n} (exact audit), error 0")
    # Ω(1/(αγ)) means n >= c/(αγ) for a fixed c > 0; at n = 2, γ = 1/2 that is α >= c.
    broken = [f"c = {c}: α = {c / 2} needs n >= {c / (c / 2 * F(1, 2))} > 2"
              for c in (F(1, 8), F(1, 1000), F(1, 10**9))]
    text = "; ".join(facts) + ". With γ = 1/2 and n = 2, for every α: " + "; ".join(broken)
    return CheckResult(Verdict.VIOLATED, "Theorem 4 fails at d = 1 ({all-0, all-1}): " + text,
                       "C = {all-0, all-1}, A = label of a uniform training example, n = 2")


def check_d1_reading_fails() -> CheckResult:
    """The reading of 002 Theorem 4 for every d >= 1 fails at d = 1: HOLDS when
    :func:`check_d1_counterexample` exhibits its counterexample (a (1/n)-stable learner with
    zero error), VIOLATED when it does not (then the d >= 2 hypothesis would not be needed)."""
    result = check_d1_counterexample()
    if result.verdict is Verdict.VIOLATED:
        return CheckResult(Verdict.HOLDS, "the d >= 1 reading fails: " + result.evidence,
                           result.witness)
    if result.verdict is Verdict.HOLDS:
        return CheckResult(Verdict.VIOLATED, "no d = 1 counterexample: " + result.evidence)
    return result


# ------------------------------------------------------------------ d >= 2


def _cases() -> list[tuple[int, Fraction, str, int, int]]:
    """(d, α, learner, n, m): B1 for d = 2 (n <= 4) and d = 3 (n <= 3); Algorithm 1, n <= 3."""
    out = []
    for d, alpha in ((2, F(1, 8)), (2, F(1, 16)), (3, F(1, 8)), (3, F(1, 16))):
        for n in range(1, 5 if d == 2 else 4):
            for m in range(1, n + 1):
                out.append((d, alpha, "B1", n, m))
                if n <= 3:
                    out.append((d, alpha, "Algorithm 1", n, m))
    return out


def _learner(kind: str, d: int, n: int, m: int) -> tuple[Predictor, Fraction]:
    C = all_functions(d)
    if kind == "B1":
        return subsample_predictor(C, n, m), F(m, n)
    gamma = stable_gamma(m, n, _EPS).exact
    assert gamma is not None
    return stable_predictor(C, n, m, _EPS), gamma


def check_corrected_key_inequality(bound: Bound = key_bound) -> CheckResult:
    """Corrected Theorem 4 at explicit sizes: E_h E_S L >= bound >= tail; E L <= α ⇒ n >= (d−1)/(8αγ).

    ``bound`` is the key bound under test (a mutated bound must make the check fail); the 8 is
    :data:`SAMPLE_SIZE_DENOMINATOR`, read at run time (halved, B1 at d = 2, α = 1/16, n = 3
    with E L <= α is below (d − 1)/(4αγ) = 4).
    """
    tight = reached = 0
    cases = _cases()
    for d, alpha, kind, n, m in cases:
        inst = hard_instance(d, alpha, all_functions(d))
        A, gamma = _learner(kind, d, n, m)
        loss = expected_loss(inst, A, n)
        b = bound(inst, n, gamma)
        t = tail_bound(inst, n, gamma)
        where = f"d={d}, α={alpha}, {kind}, n={n}, m={m}, γ={gamma}"
        if loss < b:
            return CheckResult(Verdict.VIOLATED, "E L below the key bound",
                               f"{where}: E L = {loss} < {b}")
        if t > b:
            return CheckResult(Verdict.VIOLATED, "tail form above the key bound",
                               f"{where}: {t} > {b}")
        tight += loss == b
        if loss <= alpha:
            reached += 1
            if n < F(d - 1) / (SAMPLE_SIZE_DENOMINATOR * alpha * gamma):
                return CheckResult(Verdict.VIOLATED,
                                   f"E L <= α below (d−1)/({SAMPLE_SIZE_DENOMINATOR}αγ)",
                                   f"{where}: E L = {loss}")
    return CheckResult(Verdict.HOLDS, f"{len(cases)} (d, α, learner, n, m) cases, exact "
                       f"E_h E_S L >= Σ D(x)max(0, 1 − γnD(x))/2 >= 2α(1 − 4αγn/(d−1)); "
                       f"equality in {tight} cases (B1 with m = 1 attains it); E L <= α in {reached} "
                       "cases, each with n >= (d−1)/(8αγ)")


# ------------------------------------------------------------------ proof steps


def _joint(inst: HardInstance, n: int, flip: int | None) -> dict[tuple[tuple[int, ...], Dataset],
                                                                  Fraction]:
    """Law of (h, S) for h uniform (flip None), or of (h ⊕ e_i, S^{(i)}) (flip = i)."""
    out: dict[tuple[tuple[int, ...], Dataset], Fraction] = {}
    hs = targets(inst)
    for h in hs:
        for data, p in sample_law(inst, h, n):
            key = (h, data)
            if flip is not None:
                g = tuple(v ^ (j == flip) for j, v in enumerate(h))
                key = (g, flip_point(data, inst.points[flip]))
            out[key] = out.get(key, F(0)) + p / len(hs)
    return out


def check_flip_symmetry(flip: Callable[[Dataset, Hashable], Dataset] = flip_point
                        ) -> CheckResult:
    """(h, S) and (h ⊕ e_i, S^{(i)}) have the same law, h uniform, S ~ P_h^n (exact)."""
    cases = 0
    for d, alpha in ((2, F(1, 8)), (3, F(1, 16))):
        inst = hard_instance(d, alpha)
        for n in (1, 2, 3):
            base = _joint(inst, n, None)
            for i in range(d):
                moved: dict[tuple[tuple[int, ...], Dataset], Fraction] = {}
                for (h, data), p in base.items():
                    g = tuple(v ^ (j == i) for j, v in enumerate(h))
                    key = (g, flip(data, inst.points[i]))
                    moved[key] = moved.get(key, F(0)) + p
                if moved != base:
                    return CheckResult(Verdict.VIOLATED, "the laws differ",
                                       f"d={d}, n={n}, i={i}")
                cases += 1
    return CheckResult(Verdict.HOLDS, f"equal exact laws in {cases} (d, n, i) cases")


def check_chain_of_replacements() -> CheckResult:
    """|P[A(S,x_i)=1] − P[A(S^{(i)},x_i)=1]| <= γ·N_i(S) for B1 (γ = m/n), every S.

    γ·N_i(S) is scaled by :data:`REPLACEMENT_SCALE`, read at run time; the step is tight, so
    a smaller scale must fail.
    """
    cases = tight = 0
    for d in (2, 3):
        inst = hard_instance(d, F(1, 8))
        for n in (2, 3):
            for m in range(1, n + 1):
                A, gamma = _learner("B1", d, n, m)
                for h in targets(inst):
                    for data, _ in sample_law(inst, h, n):
                        for x in inst.points:
                            gap = abs(_frac(A.probability_one(data, x))
                                      - _frac(A.probability_one(flip_point(data, x), x)))
                            limit = REPLACEMENT_SCALE * gamma * occurrences(data, x)
                            if gap > limit:
                                return CheckResult(Verdict.VIOLATED, "gap above γ·N_i(S)",
                                                   f"d={d}, n={n}, m={m}, S={data}, x={x}: "
                                                   f"{gap} > {limit}")
                            cases += 1
                            tight += gap == limit and gap > 0
    return CheckResult(Verdict.HOLDS, f"{cases} (S, x_i) cases of B1; the bound is attained "
                       f"with a positive gap in {tight}")


# ------------------------------------------------------------------ entries

_SUBJECTS: Final = ("reference.learners.stability_lower_bound",)

ENTRIES: tuple[Entry, ...] = (
    Entry(
        paper="002", number="Theorem 4",
        statement=("Reconstructed [R-high] from the surviving prose of §5 (the statement's "
                   "hypotheses and the proof were lost): let C have VC dimension d, α <= 1/4 "
                   "and γ ∈ (0, 1); if A is γ-uniformly stable and E_{S~P^n}[L_P(A, S)] <= α "
                   "for every distribution P realizable by C, then n = Ω(d/(αγ))."),
        kind=Kind.THEOREM, status=Status.CHECKED,
        checks=(Check("reading d >= 2 (lost hypothesis): the key inequality and n >= "
                      "(d−1)/(8αγ) for B1 and Algorithm 1, d ∈ {2, 3}, exact",
                      check_corrected_key_inequality, constant="SAMPLE_SIZE_DENOMINATOR"),
                Check("reading d >= 1 fails at d = 1: a (1/n)-stable learner with zero error "
                      "for every α", check_d1_reading_fails)),
        notes=("Two readings; the statement's hypotheses were lost from the text ('Let be a "
               "class of functions of VC dimension . Fix .').  (a) d >= 2 (the inventory's "
               "reading; §5's construction needs a heavy point x_0 next to at least one light "
               "point of a shattered set, so d >= 2): with our constants, if A is γ-uniformly "
               "stable and E_S L_P(A, S) <= α for every realizable P, α <= 1/4, then n >= "
               "(d − 1)/(8αγ) >= d/(16αγ) — HOLDS.  Mechanism, checked exactly: on X' "
               "shattered, D(x_0) = 1 − 4α, D(x_i) = 4α/(d−1), h uniform, E_h E_{S~P_h^n} "
               "L_{P_h}(A, S) >= Σ_{x∈X'} D(x)·max(0, 1 − γnD(x))/2 >= 2α(1 − 4αγn/(d−1)), and "
               "E L <= α then forces n >= (d−1)/(8αγ).  (b) Every d >= 1: FAILS at d = 1 — C = "
               "{all-0, all-1} over {0, 1} has VC dimension 1; 'output the label of a uniformly "
               "random training example' is exactly (1/n)-stable (exact audit, n = 1, 2, 3) "
               "with zero error on every realizable distribution, so n = 2 with γ = 1/2 works "
               "for every α while n >= c/(αγ) = 2c/α fails for any fixed c > 0 once α < c.  "
               "Not REFUTED: reading (a) is a reasonable reading of the lost hypotheses, and "
               "under it the bound holds.  At d = 1 our constant (d−1)/(8αγ) is 0, so (b) does "
               "not contradict it.  The key bound is tight: B1 with m = 1 on all functions has "
               "E L = Σ D(x)(1 − D(x))/2 exactly (it predicts correctly at the sampled point "
               "and 0 elsewhere), which the check finds equal to the bound.  By the tanh(ε/2) "
               "conversion ('002 Corollary 1 / ε-private ⇒ stable (printed e^ε − 1, tight "
               "tanh(ε/2))') the same bound gives the private-prediction lower bound n >= "
               "(d−1)/(8α·tanh(ε/2)) for d >= 2."),
        subjects=(*_SUBJECTS, "reference.learners.prediction_baselines.subsample_predictor",
                  "reference.learners.stable_prediction.stable_predictor")),
    Entry(
        paper="002", number="Theorem 4", step="(h, S) and (h ⊕ e_i, S^(i)) are identically distributed",
        statement=("Proof step, reconstructed [R-high] from §5: for h uniform on {0,1}^{X'} and "
                   "S ~ P_h^n, the pair (h ⊕ e_i, S^{(i)}) (the labels of every occurrence of "
                   "x_i flipped) has the same law as (h, S)."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exact joint laws, d ∈ {2, 3}, n <= 3, every i", check_flip_symmetry),),
        subjects=("reference.learners.stability_lower_bound.flip_point",
                  "reference.learners.stability_lower_bound.sample_law")),
    Entry(
        paper="002", number="Theorem 4", step="A(S, x_i) and A(S^(i), x_i) differ by at most γ·N_i(S)",
        statement=("Proof step, reconstructed [R-high] from §5: S and S^{(i)} are N_i(S) "
                   "single replacements apart, so a γ-stable A has |P[A(S,x_i)=1] − "
                   "P[A(S^{(i)},x_i)=1]| <= γ·N_i(S)."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("B1, d ∈ {2, 3}, n <= 3, every S and x_i, exact", check_chain_of_replacements,
                      constant="REPLACEMENT_SCALE"),),
        notes="Attained (with a positive gap) by B1, so the factor γ·N_i(S) cannot be lowered.",
        subjects=("reference.learners.stability_lower_bound.occurrences",
                  "reference.learners.prediction_baselines.subsample_predictor")),
)
