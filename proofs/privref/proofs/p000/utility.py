"""Ledger: 000's utility chain of LabelBoost (Claim 4.11, Lemma 4.12, Theorems 4.13, 4.14, 4.16,
Corollaries 4.17, 4.18).  The machinery is shared with 004 (proofs.p004.utility); 000's constants
differ (α_i = α/(10·2^i), 10Σα_j, |S| >= (96000/α)VC log(2240/(αβ))), so the entries are its own.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import partial
from typing import Final

from privref.reference.decide import at_least, ceil
from privref.reference.reals import Interval, interval_log, log

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import fixed
from ..p004 import subsampling as sub
from ..p004 import utility as u

__all__ = ["ENTRIES", "check_e12_instance"]

F = Fraction
PREC: Final = 96
_LN2: Final = interval_log(Interval.point(2), PREC)


_TENTH: Final = Fraction(1, 10)


LEMMA412_PRINTED_CONSTANT: int = 640
"""The 640 of 000 Lemma 4.12's printed |S^3| >= (640/α)VC log(4480/(αβ))."""

LEMMA412_PRINTED_LOG_CONSTANT: int = 4480
"""The 4480 of 000 Lemma 4.12's printed |S^3| >= (640/α)VC log(4480/(αβ))."""


def check_e12_instance(alpha: Fraction = _TENTH, beta: Fraction = _TENTH, n: int = 1) -> CheckResult:
    """000 Lemma 4.12's "|S^3| >= (1/300)|S| >= (640/α)VC log(4480/(αβ))" when the loop never runs.

    VC = 1, |S| = ⌈(96000/α)·log(2240/(αβ))⌉ (Claim 4.11's minimum) and base sample complexity n with
    300n <= |S|: the loop of Step 2 runs N = 0 times, Step 3 keeps at most |S|/300 + 1 entries (any
    rounding), which is below the printed (640/α)·log(4480/(αβ)) in both log readings: VIOLATED.
    (In general 320·log(2240/(αβ)) < 640·log(4480/(αβ)), so every N = 0 run at the minimum |S| fails.)
    The printed constants are :data:`LEMMA412_PRINTED_CONSTANT` and
    :data:`LEMMA412_PRINTED_LOG_CONSTANT`, read at run time.
    """
    printed = (LEMMA412_PRINTED_CONSTANT, LEMMA412_PRINTED_LOG_CONSTANT)
    rows = []
    for reading in ("ln", "log2"):
        def lg(x: Fraction, reading: str = reading) -> Interval:
            v = interval_log(Interval.point(x), PREC)
            return v if reading == "ln" else (v / _LN2).rounded(PREC)
        exact = log(2240 / (alpha * beta)) * (96000 / alpha)
        s = ceil(exact if reading == "ln" else exact / log(2))  # |S|, rounded up exactly
        if 300 * n > s:
            return CheckResult(Verdict.UNDECIDED, f"n={n}: the loop would run (300n > |S| = {s})")
        kept = Fraction(s, 300) + 1
        claimed = (lg(printed[1] / (alpha * beta)) * (printed[0] / alpha)).rounded(PREC)
        rows.append(f"[{reading}] |S| = {s}, |S^3| <= {fixed(kept, 1)} vs printed bound ∈ {claimed}")
        met = at_least(kept, claimed)
        if met is not Verdict.VIOLATED:
            return CheckResult(met, "; ".join(rows) + (": the printed bound is met"
                                                       if met is Verdict.HOLDS else ": undecided"))
    text = f"α = β = {alpha}, VC = 1, n = {n} (N = 0): " + "; ".join(rows)
    return CheckResult(Verdict.VIOLATED, text + ": |S^3| is below the printed bound", witness=text)


_SUFF_411: Final = Check("b&b: |S_i^c| suffices for B.5(10α_i, β_i) (ln and log2)",
                         u.sufficiency_check("000 C4.11").run)
_SUFF_412: Final = Check("b&b: (320/α)VC log(2240/(αβ)) suffices for B.5(10α, β/2) (ln and log2)",
                         u.sufficiency_check("000 L4.12 corrected").run)
_ACC_000: Final = Check("exact bookkeeping: 10Σα_j <= α, 2Σβ_j <= β/2, base case",
                        partial(u.check_accumulation, "000"))
_BOX_LO: Final = (F(1, 2**30), F(1), F(1))

_DELTA_004 = next(e for e in u.ENTRIES if e.id.startswith("004 Theorem 4.2 / "))
_RATE_REPAIR: Final = Check("rate ε(3+e)/164 (t = 164 at ε = 1): (ε, δ) over all pairs",
                            sub.check_rescaled_rate)
_RATE_BROKEN: Final = Check("printed rate (t = 6, ε ≈ 0.953): δ over all pairs > δ",
                            partial(sub.check_rescaled_rate, 6), Verdict.VIOLATED)

ENTRIES: tuple[Entry, ...] = (
    Entry(
        paper="000", number="Claim 4.11", kind=Kind.PROOF_STEP, status=Status.PROVED,
        step="|S_i^c| suffices for Theorem B.5 at (10α_i, β_i)", also=("004 Claim C.9",),
        statement="(48/α_i)·VC·log(14/(α_iβ_i)) >= (48/(10α_i))(10·VC·log(48e/(10α_i)) + log(5/β_i)) "
                  "for α_i = α/(10·2^i), β_i = β/(4·2^i).",
        parameter_range=u.E21_RANGE,
        notes="000-E21: minimum have/need 1.0666 on the box (α_1 = α/20, β_1 = β/8), tending to 1 as "
              "α → 0 (the gap a·(have - need) does not depend on α at all: its coefficient 48 - 480/10 "
              "is 0). Base case: |S_1^c| = |S|/100 = (960/α)VC log(2240/(αβ)) = (48/α_1)VC "
              "log(14/(α_1β_1)) exactly. " + u.E21_NOTE,
        checks=(_SUFF_411,
                Check("min ratio ∈ [1.0666, 1.0667] (ln)", partial(
                    u.check_min_ratio, u.B5_USES["000 C4.11"], "ln", F(10666, 10000), F(10667, 10000),
                    _BOX_LO))),
    ),
    Entry(
        paper="000", number="Claim 4.11", kind=Kind.CLAIM, status=Status.CHECKED, also=("004 Claim C.9",),
        statement="If D, S hold i.i.d. samples from μ, S labeled by c ∈ C and |S| >= (96000/α)·VC(C)·"
                  "log(2240/(αβ)), then for every i: Pr[error_μ(c, h_i) > 10·Σ_{j<=i} α_j] <= "
                  "2·Σ_{j<=i} β_j.",
        notes="Checked: the proof's constant-carrying steps (B.5 sample sufficiency by b&b, accumulation "
              "and base case exactly, triangle inequality). The induction also uses Observation 4.7 "
              "(the LabelBoost helper's entry) and Theorem B.5 (cited; checked on instances). Also a "
              "seeded Monte Carlo of the claim itself with scaled sizes (000 Algorithm 3, 000-E23; "
              "printed α_i, "
              f"β_i, N = 4 iterations on THRESH[16], exact one-sided Clopper–Pearson at confidence "
              f"{1 - u.MC_LEVEL}); "
              "its premise on |S| is not met at these sizes, so it is supporting evidence only and the "
              "status stays CHECKED. 004 Claim C.9 uses 12 (10 fails with its |S_i|).",
        checks=(_SUFF_411, _ACC_000, u.TRIANGLE, u.MC_000),
    ),
    Entry(
        paper="000", number="Lemma 4.12", kind=Kind.PROOF_STEP, status=Status.REFUTED,
        step="|S^3| >= (640/α)VC log(4480/(αβ))", also=("004 Lemma C.10",),
        statement="After Step 3, |S^3| >= (1/300)|S| >= (640/α)·VC(C)·log(4480/(αβ)), so Theorem B.5 at "
                  "(10α, β/2) applies.",
        counterexample="α = β = 1/10, VC = 1, n = 1, |S| = ⌈(96000/α)·ln(2240/(αβ))⌉ = 11,826,626: "
                       "300n <= |S|, so the loop runs N = 0 times and |S^3| <= |S|/300 + 1 ≈ 39,423 < "
                       "(640/α)·ln(4480/(αβ)) ≈ 83,280 (log2: 56,875 < 120,148). The printed bound needs "
                       "Claim 4.9 at i = N+1, i.e. an uncapped last iteration; with N = 0 or a capped one "
                       "(v = 30000n, the typical case) it fails (000-E12).",
        corrected="|S^3| >= (320/α)·VC·log(2240/(αβ)) in every case (N = 0: |S^3| ≈ |S|/300; N >= 1: "
                  "|S^3| >= n > |S|/300), and that suffices for Theorem B.5 at (10α, β/2): minimum ratio "
                  "8.06, so Lemma 4.12 survives with the smaller constant.",
        notes="When the last iteration is uncapped the printed 640/4480 holds (and suffices with ratio "
              "16.50); 004 Lemma C.10's 1920/768 bound holds in every case.",
        checks=(Check("N = 0 at the minimum |S| breaks the printed bound (interval)", check_e12_instance,
                      Verdict.VIOLATED),
                _SUFF_412,
                Check("min ratio with 320/2240 ∈ [8.055, 8.056] (ln)", partial(
                    u.check_min_ratio, u.B5_USES["000 L4.12 corrected"], "ln", F(8055, 1000),
                    F(8056, 1000), _BOX_LO)),
                Check("uncapped case: 640/4480 suffices, min ratio ∈ [16.50, 16.51] (ln)", partial(
                    u.check_min_ratio, u.B5_USES["000 L4.12"], "ln", F(1650, 100), F(1651, 100), _BOX_LO))),
    ),
    Entry(
        paper="000", number="Lemma 4.12", kind=Kind.PROOF_STEP, status=Status.REFUTED,
        step="Theorem B.5 applies to the pair (h_fin, h_N)", also=("004 Lemma C.10",),
        statement="Theorem B.5 (uniform over pairs in C × C) bounds error_μ(h_fin, h_N) by 10α for the base "
                  "learner's output h_fin, for any (α, β, n, n)-SSL.",
        counterexample="An improper h_fin (not in C) agreeing with h_N on the points of S^3 only: THRESH on "
                       "10^7 points, μ uniform, α = 1/20, β = 1/10, |S^3| = 175,433: error_S3 = 0 but "
                       "error_μ >= 1 - 175,433/10^7 > 10α = 1/2, with probability 1 (000-E10).",
        corrected="The step holds when the base learner is proper (h_fin ∈ C); improper base learners need "
                  "B.5 for a class containing their outputs (or a DP-generalization argument).",
        notes="Affects Corollary 4.18 (RepDim, improper); Remark 4.15(2) concerns proper learners.",
        checks=(Check("B.5's conclusion fails for an improper pair (exact)", partial(u.check_improper_pair,
                                                                                  "000"),
                      Verdict.VIOLATED),
                u.B5_PROPER),
    ),
    Entry(
        paper="000", number="Lemma 4.12", kind=Kind.LEMMA, status=Status.NOT_CHECKABLE,
        also=("004 Lemma C.10",),
        statement="Applying LabelBoost on an (α, β, n, n)-SSL for C results in an (11α, 2β, O(n), m)-SSL "
                  "for C, m = O((1/α)·VC(C)·log(1/(αβ))).",
        reason="Quantified over every base learner, with O(·) sizes. The proof supports the statement "
               "for proper base learners (with the corrected |S^3| bound, 000-E12); for improper "
               "ones its use "
               "of Theorem B.5 fails (000-E10), and we neither prove nor refute that case.",
        illustration="Explicit: for a proper base learner, |D| >= 90000n, |S| >= (96000/α)VC "
                     "log(2240/(αβ)): error <= 10α (B.5 at (10α, β/2), sample size checked) + α (Claim "
                     "4.11: 10Σα_j <= α) = 11α, failure <= β + β/2 + β/2 = 2β (exact bookkeeping below).",
        checks=(_SUFF_412, _ACC_000),
        notes="Unlike 004 Lemma C.10, 000's (11α, 2β) form is consistent with its proof: B.5 at accuracy "
              "10α only needs error_S3 <= α, which the (α, β) base learner gives. Not yet done: a Monte "
              "Carlo check of the final error with scaled constants (error accumulation is checked "
              "that way under Claim 4.11).",
    ),
    Entry(
        paper="000", number="Theorem 4.13", kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
        also=("004 Theorem C.11",),
        statement="Applying LabelBoost on an (α, β, ε=1, δ, n, n)-PSSL for C results in an "
                  "(11α, 2β, ε=1, 41δ, O(n), m)-PSSL, m = O((1/α)·VC(C)·log(1/(αβ))).",
        reason="Quantified over every base PSSL with O(·) sizes (Lemma 4.6 + Lemma 4.12).",
        illustration="Explicit: n′ = 90000n + |S| unlabeled, m = ⌈(96000/α)VC log(2240/(αβ))⌉ labeled; "
                     "utility as in Lemma 4.12 (proper base learner; constants checked below), privacy "
                     "(1, 41δ) from Lemma 4.6 (the LabelBoost helper's entry).",
        checks=(_SUFF_412, _ACC_000),
    ),
    replace(_DELTA_004, paper="000", number="Theorem 4.14",
            step="Claim 4.3 turns the (1, 41δ) learner into an (ε, δ) learner", also=(_DELTA_004.id,),
            statement="Subsampling (Claim 4.3 with ε* = 1) at the target ε, i.e. t = (n/ε)(3+e), the "
                      "(1, 41δ)-DP learner of Theorem 4.13 gives an (ε, δ)-DP learner, for every ε <= 1.",
            corrected="The step as printed gives (ε, 4·41/(3+e)·εδ) = (ε, ≈28.68·εδ) (audited exactly), "
                      "which is <= δ only for ε <= (3+e)/164 ≈ 0.0349. The theorem survives: subsample "
                      "at the lower rate ε(3+e)/164 = ε/28.68 (<= ε) instead, i.e. t = 164n/ε (28.68 "
                      "times the printed t, still O(n/ε)); Claim 4.3 then gives δ′ = 4·41δ·(ε/28.68)/"
                      "(3+e) = εδ <= δ. The labeled size grows by the same factor 164/(3+e), still "
                      "m = O(VC(C)/(αε)·log(1/(αβ))). Exact check at ε = 1, n = 1: t = 164 gives "
                      "(ε, δ) over all neighbors.",
            notes="Same derivation and counterexample as 004 Theorem 4.2 (004-E13); Claim 4.3 is "
                  "004's Claim C.1. The same rate repair fixes 000 Theorem 5.8 (Claim 5.7 at "
                  "ε/38.35, m unchanged there).",
            checks=(*_DELTA_004.checks, _RATE_REPAIR, _RATE_BROKEN)),
    Entry(
        paper="000", number="Theorem 4.14", kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
        also=("004 Theorem 4.2",),
        statement="There is a constant λ such that for every α, β, ε, δ, n: if there is an (α, β, 1, δ, n, "
                  "n)-PSSL for C, there is a (λα, λβ, ε, δ, O(n/ε), m)-PSSL for C, m = "
                  "O((1/(αε))·VC(C)·log(1/(αβ))).",
        reason="Existential (λ unspecified) with O(·) sizes, over every base PSSL. The printed "
               "derivation gives δ′ = 4·41/(3+e)·εδ ≈ 28.68·εδ, not δ (proof step above); the statement "
               "itself survives by subsampling at ε(3+e)/164 instead (t = 164n/ε), which only changes "
               "constants (checked exactly at ε = 1 below).",
        illustration="Explicit: λ = 11 (11α, 2β <= 11β), ε, δ′ = 28.68·εδ from the printed chain; δ′ <= δ "
                     "needs ε <= (3+e)/164 ≈ 0.0349, or the rescaled subsampling. Checked: the δ factor and "
                     "an exact audit of Claim 4.3's δ′ on a (1, 41δ)-DP mechanism.",
        checks=(u.DELTA_FACTOR, u.DELTA_CORRECTED, _RATE_REPAIR),
    ),
    Entry(
        paper="000", number="Theorem 4.16", kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
        also=("004 Theorem 4.4",),
        statement="There is a constant λ such that: if there is an (α, β, 1, δ, n, n)-PSSL for a class F, "
                  "there is a (λα, λβ, ε, δ, O(n/ε), m)-agnostic-PSSL using F, m = "
                  "O((1/(α²ε))·VC(F)·log(1/(αβ))).",
        reason="No proof ('minor changes in the proof of Theorem 4.14'); existential λ and O(·) sizes "
               "over every base PSSL; inherits Theorem 4.14's δ issue (000-E13).",
        illustration="The agnostic tool is uniform convergence (Theorem B.6, m ∝ 1/α²): checked exactly on "
                     "instances with f ∉ F.",
        checks=(u.AGNOSTIC,),
    ),
    replace(next(e for e in u.ENTRIES if e.id == "004 Corollary 4.5"), paper="000",
            number="Corollary 4.17", also=("004 Corollary 4.5",),
            reason="Relies on the external BNS13 learner for rectangles ([7]), not described in the "
                   "paper, and on asymptotic O/Õ bounds.",
            illustration="The labeled O(ℓ) comes from VC(RECTANGLE_d^ℓ) = 2ℓ through Theorem 4.14: "
                         "verified exactly for (d, ℓ) = (2,1), (2,2), (3,1). It needs >= 3 values per axis: "
                         "with d = 1 (2 values) VC = 2 and 3 for ℓ = 2, 3, below 2ℓ (harmless for an upper "
                         "bound)."),
    Entry(
        paper="000", number="Corollary 4.18", kind=Kind.COROLLARY, status=Status.NOT_CHECKABLE,
        also=("004 Corollary 4.6",),
        statement="For every class C there is a pure-private semi-supervised improper learner with labeled "
                  "sample complexity O_{α,β,ε}(VC(C)) and unlabeled sample complexity O_{α,β,ε}(RepDim(C)).",
        reason="Existential over all classes, through external RepDim learners ([6]) and O bounds; it "
               "applies LabelBoost to an improper learner, where Lemma 4.12's use of Theorem B.5 fails "
               "(000-E10).",
        illustration="B.5's conclusion fails deterministically for an improper pair (h_fin, h_N) at "
                     "Lemma 4.12's sample size (exact check below; the expected failure is reported as "
                     "HOLDS).",
        checks=(Check("an improper pair escapes Theorem B.5 (exact)",
                      lambda: u.expect_violation(u.check_improper_pair("000"))),),
        notes="000 states O_{α,β,ε}(RepDim(C)) unlabeled; 004 Corollary 4.6 states Õ (inventory §1.4). "
              "Both rest on the improper case (000-E10).",
    ),
)
