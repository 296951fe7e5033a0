"""Ledger: 000 Section 5 (private active learners), sharing checks with privref.proofs.p004.active
and privref.proofs.p004.lower_bound.

000 states the lower bound in the main text as Theorem 5.6 with α <= 1/9, β <= 1/4,
B = {1, …, 8α·2^d} and the constants 9/16, 16/9, 25/9 (004 Theorem C.12 has
B = {0, …, 8αn}, no hypotheses, 4/3 and 7/3); SubSampling is Claim 5.7 /
Algorithm 4 and the final PAL Theorem 5.8 (λ form).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import partial
from typing import Final

from .._ledger import Check, Entry, Kind, Status, Verdict
from ..p004 import active as a4
from ..p004 import lower_bound as lower

__all__ = ["ENTRIES"]


_RENUMBER: Final = (("Claim 5.6", "Claim 5.7"), ("Algorithm 6", "Algorithm 4"),
                    ("Theorem C.11", "Theorem 4.13"), ("Theorem 4.2", "Theorem 4.14"),
                    ("Lemma C.10", "Lemma 4.12"), ("Claim C.1", "Claim 4.3"))


def _renumber(text: str | None) -> str | None:
    """004's numbers in a text, as 000 numbers them."""
    if text is None:
        return None
    for old, new in _RENUMBER:
        text = text.replace(old, new)
    return text


def _counterpart(entry: Entry, number: str, note: str, *, statement: str | None = None,
                 reason: str | None = None) -> Entry:
    return replace(entry, paper="000", number=number, also=(entry.id,), notes=note,
                   statement=statement or _renumber(entry.statement) or "",
                   reason=reason or _renumber(entry.reason),
                   illustration=_renumber(entry.illustration),
                   counterexample=_renumber(entry.counterexample),
                   corrected=_renumber(entry.corrected),
                   parameter_range=_renumber(entry.parameter_range))


_SUB = ("reference.learners.lower_bound",)
_ALSO = ("004 Theorem C.12",)


def _step(step: str, status: Status, *, statement: str, checks: tuple[Check, ...],
          parameter_range: str | None = None, counterexample: str | None = None,
          corrected: str | None = None, notes: str = "") -> Entry:
    return Entry(paper="000", number="Theorem 5.6", statement=statement, kind=Kind.PROOF_STEP,
                 status=status, checks=checks, step=step, also=_ALSO, subjects=_SUB,
                 parameter_range=parameter_range, counterexample=counterexample,
                 corrected=corrected, notes=notes)


THEOREM56: Final = Entry(
    paper="000", number="Theorem 5.6", kind=Kind.THEOREM, status=Status.REFUTED,
    statement="Let α <= 1/9 and β <= 1/4. In every (α, β, ε, δ, n, m)-TPAL for THRESH_d the "
              "labeled sample complexity satisfies m = Ω(1/α). (Read with ε and δ > 0 fixed: a "
              "constant c(ε, δ) > 0 with m >= c/α for every n.)",
    also=_ALSO, subjects=(*_SUB, "reference.learners.subset_search"),
    counterexample=lower.CE_C12.replace("(1 − 7β/3)/18 = 5/216", "(1 − 25β/9)/18 = 11/648"
                                        ).replace("m = 13 < 94.8 = c/α", "m = 13 < 69.5 = c/α"),
    corrected="m >= e^−2ε(1 − 25β/9)/(9α) − nδ(1+e^−ε) (the proof's final inequality, up to "
              "the constants of the step corrections), so m = Ω(1/α) when ε <= ε₀ and δ = O(1/n): "
              "nδ(1+e^−ε) <= e^−2ε₀(11/36)/18 gives m >= e^−2ε(11/36)/(18α) for β <= 1/4. The "
              "subset-search learners have nδ = k ≈ ln(1/β)/α, outside this hypothesis, and "
              "satisfy the inequality (checked).",
    notes="The earlier reason text already said the conclusion needs nδ = o(1/α); the statement "
          "does not say so, and the counterexample shows the condition is necessary: δ = k/n "
          "with k = O(log(1/β)/α) random indices suffices for ⌈log₂(k+1)⌉ labels. See 004 "
          "Theorem C.12 (same learner, 004's constant).",
    checks=(Check("fixed δ = 1/100: m >= c/α fails along the subset-search family", partial(
        lower.check_fixed_delta_family, "000"), Verdict.VIOLATED),
            *lower.SUBSET_SEARCH_CHECKS,
            Check("corrected: the family satisfies the inequality, outside δ = O(1/n)", partial(
                lower.check_corrected_consistency, "000")),
            Check("corrected: α·bound is constant in α and > 0 (δ = 0)", partial(
                lower.check_bound_scales_with_alpha, "000", Fraction(1, 4)))))

THEOREM56_STEPS: Final = (
    _step("(1−β)(1−16β/9) algebra", Status.PROVED,
          statement="(1−β)(1−16β/9) = 1 − 25β/9 + 16β²/9 >= 1 − 25β/9.",
          parameter_range="every real β (polynomial identity; 16β²/9 >= 0)",
          checks=(Check("coefficients", partial(lower.algebra_identity, Fraction(16, 9),
                                                   Fraction(25, 9), Fraction(16, 9))),)),
    _step("swap exchangeability", Status.CHECKED,
          statement="For S ~ 𝒫 (B = {1..8α2^d}) with b >= 1, x* uniform among the entries in B "
                    "and x̂ uniform among all entries, swapping them gives (S′, position of x̂) "
                    "~ 𝒫|_{b>=1} × Unif[n].",
          notes="Exact for (d, n) ∈ {(1, 5), (2, 4), (2, 3)}; see 004 Theorem C.12 / swap "
                "exchangeability for the general reason.",
          checks=(Check("exact swap law, 000's B", lower.check_swap),)),
    _step("fails w.p. >= 3/4", Status.REFUTED,
          statement="Given the labels outside B, t is uniform on B = {1..8α2^d} and a learner "
                    "that queries no point of B fails to be α-good w.p. >= 3/4.",
          counterexample="Within α <= 1/9: d = 6, α = 1/16, |B| = 32: h = c_5 fails w.p. 23/32 "
                         "< 3/4; d = 3, α = 1/32: 1/2 over all 256 hypotheses. (000-E16(v): "
                         "d = 6, α = 1/8: 47/64; there α > 1/9.)",
          corrected="The exact minimum failure is 1 − min(|B|, 2⌊α2^d⌋+1)/|B| (= 3/4 − 1/|B| "
                    "when α2^d ∈ ℤ), so 9/16 becomes (3/4)(1 − (2⌊α2^d⌋+1)/|B|) and 16β/9 its "
                    "reciprocal times β; the Ω(1/α) conclusion is unaffected.",
          checks=(Check("d=6, α=1/16: 23/32", partial(lower.check_failure_thresholds, 6,
                                                         Fraction(1, 16)), Verdict.VIOLATED),
                  Check("exhaustive d=3, α=1/32: 1/2", partial(
                      lower.check_failure_all_hypotheses, 3, Fraction(1, 32)), Verdict.VIOLATED),
                  lower.FAILURE_FORMULA,
                  Check("d=6, α=1/16: corrected value holds", partial(
                      lower.check_failure_thresholds, 6, Fraction(1, 16), Fraction(23, 32))))),
    _step("7αn <= b <= 9αn", Status.PROVED,
          statement="With B = {1..8α2^d} and n >= (100/α²)ln(1/(αβ)), w.p. >= 1 − β it holds "
                    "that 7αn <= b <= 9αn.",
          parameter_range="α <= 1/9 with 8α2^d ∈ ℤ, β <= 1/4, n >= (100/α²)ln(1/(αβ)): "
                          "b ~ Binomial(n, 8α) and Hoeffding",
          notes="The paper cites Theorem B.6; Hoeffding suffices: Pr[|b − 8αn| > αn] <= "
                "2e^{−2α²n} <= 2(αβ)^200 <= β. 004's B = {0..8αn} breaks this (004 Theorem "
                "C.12 / 7αn <= b <= 9αn).",
          checks=(Check("mean and Hoeffding", lower.check_b_concentration_000),)),
    _step("solving for m", Status.REFUTED,
          statement="With α <= 1/9 and β <= 1/4, the final inequality m/n >= e^−2ε(1 − 25β/9)/"
                    "(9αn) − δ(1+e^−ε) yields m = Ω(1/α).",
          counterexample="δ = 1/1000, β = 1/4, ε = 1, α = 1/16 at the WLOG n = 106468: the "
                         "bound is negative (000-E16(vii)).",
          corrected="m >= e^−2ε(1 − 25β/9)/(9α) − nδ(1+e^−ε) >= e^−2ε(11/36)/(18α) when "
                    "nδ(1+e^−ε) <= e^−2ε(11/36)/(18α); Ω(1/α) for ε = O(1).",
          checks=(Check("δ = 1/1000 at the WLOG n", partial(
              lower.check_implied_bound_positive, Fraction(1, 16), Fraction(1, 4), Fraction(1),
              Fraction(1, 1000), "000"), Verdict.VIOLATED),
                  Check("δ = 0, β = 1/4: α·bound constant and > 0", partial(
                      lower.check_bound_scales_with_alpha, "000", Fraction(1, 4))))),
)

_S58 = ("There exists a constant λ such that for every α, β, ε, δ, n: if there exists an "
        "(α, β, 1, δ, n, n)-PSSL for C, then there exists an (λα, λβ, ε, δ, O(n/ε), m)-PAL for "
        "C, where m = O(VC(C)/α·log(1/(αβ))).")

ENTRIES: tuple[Entry, ...] = (
    _counterpart(a4.REMARK52, "Remark 5.2", "Identical to 004 Remark 5.2."),
    _counterpart(a4.THEOREM55, "Theorem 5.5", "Identical to 004 Theorem 5.5; same checks."),
    _counterpart(a4.CLAIM56, "Claim 5.7", "Same statement, Algorithm 4 and proof as 004 Claim "
                 "5.6 (000's proof correctly writes J ⊆ {1..t}); same checks and status."),
    *(_counterpart(s, "Claim 5.7", f"As 004 Claim 5.6 / {s.step}.") for s in a4.CLAIM56_STEPS),
    _counterpart(a4.THEOREM57, "Theorem 5.8", "000's λ form of 004 Theorem 5.7 (applies "
                 "Claim 5.7 to 'the learner from Theorem 4.14').", statement=_S58,
                 reason="λ, O(n/ε) and O(VC(C)/α·log(1/(αβ))) are unspecified."),
    *(_counterpart(s, "Theorem 5.8", f"As 004 Theorem 5.7 / {s.step}; 000 cites Theorem 4.14.")
      for s in a4.THEOREM57_STEPS),
    THEOREM56, *THEOREM56_STEPS,
)
