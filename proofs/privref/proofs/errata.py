"""Errata: the known errors and typos of the papers that the code and the ledger rely on.

Each :class:`Erratum` has a paper-qualified id, ``<paper>-E<n>`` (``004-E5``,
``000-E12``, ``003-E2``), where ``n`` is the number of the finding in the
paper's inventory (000 and 004 share one inventory, so one finding that
affects both versions has two ids, one per version, each naming that
version's result).  Code, docstrings and ledger text cite errata by these ids
only; a test checks that every id cited anywhere resolves here, and that
every ledger id listed by an erratum exists.  ``docs/errata.md`` is
generated from this module (``privref lemmas --errata docs/errata.md``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Final

from privref.reference.errors import InvalidArgument

__all__ = ["ERRATA", "ERRATUM_ID", "Erratum", "Flaw", "erratum"]

ERRATUM_ID: Final = re.compile(r"\b(00[0-4])-E(\d+)\b")
"""How an erratum is cited in code and prose: ``004-E5``."""


class Flaw(Enum):
    """What kind of error the paper makes."""

    TYPO = "typo"
    FALSE = "false statement"
    GAP = "proof gap"
    INCONSISTENCY = "inconsistency"
    MINOR = "minor"
    PRACTICAL = "practical caveat"
    HOLDS = "checked, holds"


@dataclass(frozen=True, slots=True)
class Erratum:
    """One known error of a paper: where it is, what is wrong, and the ledger entries handling it."""

    id: str
    flaw: Flaw
    where: str
    summary: str
    entries: tuple[str, ...]

    def __post_init__(self) -> None:
        match = ERRATUM_ID.fullmatch(self.id)
        if match is None:
            raise InvalidArgument(f"id={self.id!r} must read '<paper>-E<n>', e.g. '004-E5'")
        if not self.entries:
            raise InvalidArgument(f"{self.id}: entries=() must name the ledger entries "
                                  "handling it")

    @property
    def paper(self) -> str:
        """The paper whose text has the error (``000``, ``003``, ``004``)."""
        return self.id[:3]


ERRATA: Final[tuple[Erratum, ...]] = (
    # ---------------------------------------------------------------- 004 (and its twin 000)
    Erratum("004-E1", Flaw.TYPO, "Claim C.3",
            "The statement's δ-coefficient 2467 does not match the proof's own arithmetic, "
            "4·10·61 + 36 = 2476; downstream constants survive either value.",
            ("004 Claim C.3 / chain as printed supports (ln 244, 2467δ)",)),
    Erratum("000-E1", Flaw.TYPO, "Claim 4.5, Lemma 4.6",
            "Claim 4.5 states 2467δ while Lemma 4.6 uses (ln 244, 2476), without the δ; the "
            "same arithmetic slip as in 004 Claim C.3.",
            ("004 Claim C.3 / chain as printed supports (ln 244, 2467δ)",)),
    Erratum("004-E2", Flaw.FALSE, "Claim C.3 (proof)",
            "The proof bounds Σ_ℓ (e/ℓ)^ℓ e^(ℓε) by 61 for every ε <= 1, but at ε = 1 the sum "
            "is about 61.39; the bound only holds up to ε ≈ 0.998. The claim itself survives "
            "a repaired proof (denominator bounded by e^(-ε) instead of 1/4).",
            ("004 Claim C.3 / S2(ε) = Σ (e/ℓ)^ℓ e^(ℓε) <= 61 for ε <= 1",
             "004 Claim C.3 / chain as printed supports (ln 244, 2467δ)")),
    Erratum("000-E2", Flaw.FALSE, "Claim 4.5",
            "000 gives no proof of Claim 4.5, but its constants come from the same chain as "
            "004 Claim C.3, whose bound 61 fails at ε = 1.",
            ("004 Claim C.3 / S2(ε) = Σ (e/ℓ)^ℓ e^(ℓε) <= 61 for ε <= 1",)),
    Erratum("004-E5", Flaw.TYPO, "Lemma 4.1",
            "The lemma prints (ε + 3, 4ε·δ); its proof, and 000 Lemma 4.1, conclude 4e·δ. "
            "The printed form fails for ε < 1/4; code audits the corrected (ε + 3, 4e·δ).",
            ("004 Lemma 4.1",)),
    Erratum("000-E6", Flaw.FALSE, "Claim 4.2",
            "As a standalone statement the claim is false: its Sauer-type bound needs at least "
            "VC(C) points, which nothing in the hypothesis forces (11-point counterexample). "
            "Inside LabelBoost the sample sizes are large enough, so the algorithm is unaffected.",
            ("000 Claim 4.2",)),
    Erratum("004-E7", Flaw.INCONSISTENCY, "Algorithm 4 Step 2b, Claim C.7",
            "004's Step 2b subtracts 100|S| where 000 subtracts |S|, so the '=' in the first "
            "display of Claim C.7's proof is only a '>='; numerically irrelevant.",
            ("004 Claim C.7 / first display '='",)),
    Erratum("004-E8", Flaw.TYPO, "Claim C.5",
            "A factor is typeset as e^{β_i/(100e)} where e·β_i/(100e) = β_i/100 is meant, as "
            "the next line of the proof shows.",
            ("004 Claim C.5",)),
    Erratum("004-E9", Flaw.GAP, "Lemma C.10 (and Theorems C.11, 4.2, 4.4, 5.7)",
            "From a base learner with empirical error α′, Theorem B.5 at accuracy α/2 does not "
            "give error α/2: it needs empirical error α/20. The proof supports (α + 10α′), "
            "not (α + α′).",
            ("004 Lemma C.10 / error_μ(h_fin, h_N) <= α/2 by Theorem B.5", "004 Lemma C.10",
             "004 Theorem 5.7")),
    Erratum("004-E10", Flaw.GAP, "Lemma C.10",
            "Theorem B.5 is uniform over pairs of C × C only; an improper base learner's output "
            "lies outside C, and the step fails for it.",
            ("004 Lemma C.10 / Theorem B.5 applies to the pair (h_fin, h_N)",)),
    Erratum("000-E10", Flaw.GAP, "Lemma 4.12",
            "The same step as 004-E10: Theorem B.5 is applied to an improper learner's output, "
            "which is not in C.",
            ("000 Lemma 4.12 / Theorem B.5 applies to the pair (h_fin, h_N)",)),
    Erratum("004-E11", Flaw.MINOR, "Algorithm 4 Step 4",
            "Step 4 draws as many samples as the remaining |S| (about n to 1.01n) while its "
            "comment and Claim C.3 speak of n draws from exactly n entries; the rounding of the "
            "kept fractions is unspecified.",
            ("004 Lemma C.4", "004 Claim C.3")),
    Erratum("000-E12", Flaw.FALSE, "Lemma 4.12 (proof)",
            "The bound |S^3| >= (640/α)VC log(4480/(αβ)) only follows when the last iteration "
            "is uncapped; in the typical capped case only about half of it holds, which still "
            "suffices for Theorem B.5.",
            ("000 Lemma 4.12 / |S^3| >= (640/α)VC log(4480/(αβ))",)),
    Erratum("004-E13", Flaw.GAP, "Theorems 4.2 and 5.7",
            "Subsampling the (1, 41δ) learner gives δ′ ≈ 28.68·εδ (Theorem 4.2) and Claim 5.6 "
            "gives ≈ 38.35·εδ (Theorem 5.7), not δ; the theorems hold only for small ε or after "
            "rescaling δ.",
            ("004 Theorem 4.2 / Claim C.1 turns the (1, 41δ) learner into an (ε, δ) learner",
             "004 Theorem 5.7 / δ′ = δ")),
    Erratum("000-E13", Flaw.GAP, "Theorems 4.14 and 5.8",
            "The same hidden δ blow-up as 004-E13, through Claim 4.3 and Claim 5.7.",
            ("000 Theorem 4.14 / Claim 4.3 turns the (1, 41δ) learner into an (ε, δ) learner",
             "000 Theorem 5.8 / δ′ = δ")),
    Erratum("004-E14", Flaw.INCONSISTENCY, "Theorem 5.7",
            "The proof applies Claim 5.6 to Theorem 4.2's learner, whose labeled size depends "
            "on ε; the stated m needs the ε* = 1 learner of Theorem C.11.",
            ("004 Theorem 5.7 / source learner",)),
    Erratum("000-E14", Flaw.INCONSISTENCY, "Theorem 5.8",
            "As 004-E14, with Claim 5.7, Theorem 4.14 and Theorem 4.13.",
            ("000 Theorem 5.8 / source learner",)),
    Erratum("004-E15", Flaw.GAP, "Claim 5.6",
            "The claim is stated for every ε, but the last step of its proof needs e^ε <= 3.",
            ("004 Claim 5.6 / δ-coefficient",)),
    Erratum("000-E15", Flaw.GAP, "Claim 5.7",
            "As 004-E15: the proof covers e^ε <= 3 only.",
            ("000 Claim 5.7 / δ-coefficient",)),
    Erratum("004-E16", Flaw.FALSE, "Theorem C.12",
            "The lower bound's set B = {0, …, 8αn} does not have measure 8α, so '7αn <= b <= "
            "9αn' fails in general (i); α, β hypotheses are missing (ii); the conditioning is "
            "not accounted for (iii); 'fails with probability >= 3/4' is off by 1/|B| (v); the "
            "final bound is Ω(1/α) only when ε = O(1) and nδ = o(1/α) (vii).",
            ("004 Theorem C.12 / 7αn <= b <= 9αn", "004 Theorem C.12 / fails w.p. >= 3/4",
             "004 Theorem C.12 / solving for m")),
    Erratum("000-E16", Flaw.FALSE, "Theorem 5.6",
            "000's B has the right measure, but 'fails with probability >= 3/4' is off by "
            "1/|B| (v) and the final bound needs ε = O(1) and nδ = o(1/α) (vii).",
            ("000 Theorem 5.6 / fails w.p. >= 3/4", "000 Theorem 5.6 / solving for m")),
    Erratum("004-E17", Flaw.HOLDS, "Observation 3.2",
            "Not an error: (eℓ/v)^(2v) < 2^ℓ for every ℓ >= 10v, so VC(C^⊕) < 10·VC(C) when "
            "VC(C) >= 1 (10 is the smallest integer factor that works); VC(C) = 0 needs its own "
            "case.",
            ("004 Observation 3.2",)),
    Erratum("004-E18", Flaw.MINOR, "Theorem 3.3",
            "The proof's requirement m >= (1250/α²)VC ln(25/(αβ)) is not dominated by the "
            "stated O(·) uniformly in the parameters; Step 4 of Algorithm 1 writes c(j_i) for "
            "c(b_i).",
            ("004 Theorem 3.3 / the proof's m requirement is within the stated O(·)",)),
    Erratum("004-E20", Flaw.TYPO, "Theorem B.5 and passim",
            "Theorem B.5 writes error_D for error_μ; log and ln are mixed (B.4 and B.6 use ln, "
            "B.5 and the utility claims log); every constant check is run in both bases.",
            ("004 Theorem B.5",)),
    Erratum("000-E20", Flaw.TYPO, "Theorem B.5 and passim",
            "log and ln are mixed as in 004-E20; every constant check is run in both bases.",
            ("000 Theorem B.5",)),
    Erratum("004-E21", Flaw.HOLDS, "Claim C.9, Lemma C.10",
            "Not an error: every use of Theorem B.5's sample size in the utility proofs has "
            "enough samples over α ∈ [2^-30, 1], β ∈ [2^-60, 1], VC <= 10^4, in ln and log2 "
            "(Claim C.9 needs its 12; with 10 it would fail).",
            ("004 Claim C.9 / |S_i| suffices for Theorem B.5 at (12α_i, β_i)",
             "004 Lemma C.10 / |S^3| suffices for Theorem B.5 at (α/2, β/2)")),
    Erratum("000-E21", Flaw.HOLDS, "Claim 4.11, Lemma 4.12",
            "Not an error: as 004-E21, Claim 4.11's sample size suffices for Theorem B.5 "
            "(ratio tending to 1 as α → 0).",
            ("000 Claim 4.11 / |S_i^c| suffices for Theorem B.5 at (10α_i, β_i)",)),
    Erratum("004-E22", Flaw.HOLDS, "Claims C.6, C.7",
            "Not an error: the final inequalities of the size claims hold by enormous margins, "
            "and their intermediate steps hold in either logarithm base.",
            ("004 Claim C.7", "004 Claim C.6")),
    Erratum("000-E22", Flaw.HOLDS, "Claims 4.8, 4.9",
            "Not an error: as 004-E22 for 000's size claims.",
            ("000 Claim 4.9", "000 Claim 4.8")),
    Erratum("004-E23", Flaw.PRACTICAL, "Algorithm 4, Claims C.7–C.9",
            "With the printed constants the boosting loop runs at most once unless n is "
            "astronomically large, so the inductive claims are exercised only with scaled-down "
            "constants.",
            ("004 Claim C.9",)),
    Erratum("000-E23", Flaw.PRACTICAL, "Algorithm 3, Claims 4.9–4.11",
            "As 004-E23: with the printed constants the loop runs at most once.",
            ("000 Claim 4.11",)),
    # ---------------------------------------------------------------- 003
    Erratum("003-E1", Flaw.FALSE, "Lemma 4.4, Claim 4.6",
            "The failure budget does not add up: 1/18 + 0.01 + 0.01 > 1/16, and each printed "
            "intermediate step (<= 1/17, then < 1/16) is wrong too. A base learner with "
            "β_A <= 1/16 − 0.02 (e.g. 1/24) repairs it.",
            ("003 Theorem 4.1 / β_A = 1/18 fits Lemma 4.4's 1/16 budget",
             "003 Theorem 4.2 / β_A = 1/18 fits Lemma 4.4's 1/16 budget",
             "003 Claim 4.6 / eq. (4): P_{S_priv,Ŝ_pub,𝒜}[excess > α] <= 1/17",
             "003 Claim 4.6 / hence, using (3), the excess is <= α except with probability "
             "< 1/16")),
    Erratum("003-E2", Flaw.FALSE, "Claim 4.6, eq. (2)",
            "PrivSamp's exhaustion probability is not below 0.01 when ñ is small (about 0.09 "
            "at ñ = 1); it is below 0.01 only from ñ = 3 on.",
            ("003 Claim 4.6 / eq. (2)",)),
    Erratum("003-E3", Flaw.GAP, "Theorem 4.1 (proof)",
            "Theorem 4.3's δ = 1/(100n² log n) is undefined at n = ñ = 1, and the comparison "
            "δ(n_priv) <= δ(ñ) is used silently.",
            ("003 Theorem 4.1 / δ(n_priv) <= δ(ñ) for Theorem 4.3 at ñ",)),
    Erratum("003-E4", Flaw.GAP, "Definition 2.3, Theorem 4.1",
            "Definition 2.3 asks for δ negligible in n_priv, while Theorem 4.1's proof needs "
            "δ <= 1/(100 n_priv² log n_priv), true only for large enough n_priv; implicit.",
            ("003 Theorem 4.1",)),
    Erratum("003-E5", Flaw.FALSE, "Lemma 3.3, inequality (1)",
            "Sauer's bound (em/d)^d needs m >= d; with 2n_pub < d inequality (1) fails (all "
            "functions on 20 points, n_pub = 1). The lemma survives since its O(·) forces "
            "n_pub >= d.",
            ("003 Lemma 3.3 / inequality (1)", "003 Lemma 3.3 / Sauer: G_H(m) <= (em/d)^d")),
    Erratum("003-E6", Flaw.TYPO, "Lemma 3.3 (proof)",
            "The event Bad uses a function h_0 that is never defined; it must be the constant 0.",
            ("003 Lemma 3.3 / Bad as an event of H_Δ with h_0 ≡ 0",)),
    Erratum("003-E7", Flaw.GAP, "Algorithm 1, Lemmas 3.2 and 3.3",
            "The argument needs H̃ ⊆ H and an 'arbitrary' choice in Step 5 that does not "
            "depend on S_priv; both are implicit.",
            ("003 Lemma 3.2", "003 Lemma 3.3 / every h has h̃ ∈ H̃ agreeing with it on T_pub")),
    Erratum("003-E8", Flaw.GAP, "Lemma 2.5, Theorem 4.2",
            "Theorem 4.2's proof applies Lemma 2.5 to pure learners, a form the lemma as stated "
            "does not mention (presumably covered by the cited source).",
            ("003 Lemma 2.5", "003 Theorem 4.2")),
    Erratum("003-E9", Flaw.GAP, "Theorem 3.1",
            "The proof is missing: constants, the exponential mechanism's score, sensitivity "
            "and neighbor relation are left unspecified.",
            ("003 Theorem 3.1",)),
    # ---------------------------------------------------------------- 002
    # The text of 002 lost almost all of its mathematics; the statements are the inventory's
    # reconstruction, so a failure may be the reconstruction's, as each entry says.
    Erratum("002-E1", Flaw.MINOR, "Theorem 4",
            "The statement's hypotheses were lost from the text. Read for every d >= 1, the "
            "lower bound Ω(d/(αγ)) fails at d = 1: C = {all-0, all-1} has VC dimension 1 and "
            "the 1/n-stable 'label of a random example' learner has zero error on every "
            "realizable distribution. Read with d >= 2 (the hypothesis §5's construction "
            "needs) it holds, with our constants n >= (d−1)/(8αγ).",
            ("002 Theorem 4",)),
    Erratum("002-E2", Flaw.HOLDS, "§4.2, Eq. (4) and its footnote",
            "Not a proof gap: §4.2 builds the core of Algorithm 3 as an (ε, δ)-private "
            "predictor itself and converts it to pure privacy by the final flip, as in "
            "Corollary 1; the footnote says Lemma 5 does not apply as stated and that the "
            "proof is analogous (it needs the net event for subsets holding the changed "
            "index). privref confirms that design: an exact audit at n = 19 shows the core "
            "is not pure without the flip, so both the δ and the flip are needed.",
            ("002 Lemma 8 / the core without the flip is not pure: delta is needed",
             "002 Lemma 8 / Eq. (4): amplification over the subset, scores on S",
             "002 Lemma 10 / Eq. (6): the core is O(1)-private in the subset, outside a bad "
             "set")),
    Erratum("002-E3", Flaw.MINOR, "Lemma 8 (proof), the set T₁",
            "S_{I∖{1}} is drawn from [n]∖{1} but the net is required w.r.t. U(S), which holds "
            "x₁: one extra disagreement (k becomes k + 1). Harmless; the code defines the net "
            "radius k(I) directly.",
            ("002 Lemma 8 / the T₁ off-by-one: the net is w.r.t. U(S), the sample avoids x₁",
             "002 Lemma 8 / C5: |T1|/|T| = (m/n)·P[S_{I minus 1} not a (k/n)-net] <= "
             "(m/n)·delta")),
    Erratum("002-E4", Flaw.GAP, "§3.1 and §4.2, the class H_{S'}",
            "'Representatives chosen arbitrarily' hides two requirements: H_{S'} ⊆ C, and a "
            "choice that depends only on the x's of S' (never on labels or the rest of S); "
            "otherwise the stability proof and Lemma 10's matching break.",
            ("002 Lemma 7 / stability composition m/n + e^ε − 1",
             "002 Lemma 10 / C12: the matching is one-to-one, one-to-two or two-to-one")),
    Erratum("002-E5", Flaw.MINOR, "§2, privacy ⇒ stability; Lemma 7",
            "'ε-private ⇒ (e^ε − 1)-stable' is true but loose by the factor e^ε + 1; the tight "
            "constant is tanh(ε/2), attained by randomized response on the label.",
            ("002 Corollary 1 / ε-private ⇒ stable (printed e^ε − 1, tight tanh(ε/2))",
             "002 Lemma 7 / stability composition m/n + e^ε − 1")),
    Erratum("002-E6", Flaw.INCONSISTENCY, "Lemma 4, Lemma 8, Lemma 9",
            "'(α, β)-approximate' is used both as an expected-utility bound and with a "
            "failure probability β; the code uses the tail |H|·r^(−t) and the expectation "
            "ln|H|/ln r explicitly.",
            ("002 Lemma 4 / tail |H|·r^{−t} (mistakes)",
             "002 Lemma 4 / expectation ln|H|/ln r (mistakes)",
             "002 Lemma 9 / (ii) the exponential mechanism is (alpha, beta)-approximate")),
    Erratum("002-E7", Flaw.GAP, "Lemma 6, Remark 2",
            "The realizable learner must be accurate for all relabelings h ∈ C simultaneously; "
            "the justification is informal. It holds for the block learner because each "
            "block's net property does not depend on the labels.",
            ("002 Remark 2", "002 Lemma 6")),
    Erratum("002-E10", Flaw.GAP, "Lemma 8, Theorem 2, §5",
            "The source text is truncated and lost its equations: Lemma 8's condition list, "
            "Theorem 2's parameters and the proof of Theorem 4 are reconstructions, checked "
            "with our own constants.",
            ("002 Lemma 8", "002 Lemma 8 / Theorem 2's parameterization meets the conditions",
             "002 Theorem 4")),
    Erratum("002-E11", Flaw.PRACTICAL, "Lemma 2",
            "Not a paper error: the text lost Lemma 2's hypothesis after 'and'; the cited "
            "[SSBD14 Lemma 6.10] has m > d + 1, the inventory states m >= d, and the paper "
            "uses the bound only where m >= d. Usage caveat: the (em/d)^d form must not be "
            "read for m < d (d = 2, m = 1: the growth function is 2 > (e/2)^2); code guards it.",
            ("002 Lemma 2",)),
    Erratum("002-E12", Flaw.HOLDS, "Lemma 1",
            "'Without replacement' must mean distinct indices when S repeats points; the "
            "monotonicity argument (a superset of a net is a net) is correct.",
            ("002 Lemma 1 / without replacement and monotonicity",)),
    Erratum("002-E13", Flaw.GAP, "Theorems 1, 2, Corollary 1, Remark 1",
            "The exact log factors are not recoverable; the explicit sample sizes in the "
            "ledger use our own constants.",
            ("002 Theorem 1", "002 Corollary 1", "002 Theorem 2", "002 Remark 1")),
    Erratum("002-E15", Flaw.PRACTICAL, "§3.1, the exponential mechanism's scores",
            "Scores are n·err_S(h) with ε/2; err_S(h) without n, or no 1/2, silently changes "
            "ε by a factor n or 2.",
            ("002 Theorem 1 / overview Eq. (2): n = O(d log(m/d)/(αγ)) suffices",)),
    Erratum("002-E16", Flaw.MINOR, "Corollary 1 (proof)",
            "'For any p >= α/2 and |p − q| <= γ, p/q <= 1 + 2γ/α' needs q >= α/2 (true after "
            "the flip): p = 1/20, q = 1/40, α = 1/10, γ = 1/40 gives 2 > 3/2. Found by "
            "privref; possibly the reconstruction's wording.",
            ("002 Corollary 1 / the flip: p' = ρ + (1 − 2ρ)p and p/q <= 1 + 2γ/α",)),
    Erratum("002-E17", Flaw.MINOR, "Lemma 5",
            "Of the candidate constants for amplification, 2εm/n needs ε <= 1 (it fails at "
            "e^ε = 16); ln(1 + (m/n)(e^ε − 1)) is tight and always valid. Found by privref.",
            ("002 Lemma 5",)),
    # ---------------------------------------------------------------- 001
    Erratum("001-E1", Flaw.TYPO, "Definition 8",
            "P(|r(x)| <= t) must read P(|r(x) − 1/2| <= t): as printed, purely random labels "
            "(r = 1/2) satisfy the noise condition and noiseless labels fail it. C depends on "
            "the distribution (not universal), and τ = 1 needs the Massart convention.",
            ("001 Lemma 9 / Definition 8 reads P(|r(x)| <= t)",)),
    Erratum("001-E2", Flaw.GAP, "Lemma 9",
            "The constants are missing: η = (2C)^{1−τ} and C = 2^{τ/(1−τ)}η^{1/(1−τ)}; the "
            "restriction η ∈ [1, ∞) restricts nothing (every valid η is >= 1).",
            ("001 Lemma 9",
             "001 Lemma 9 / constants η = (2C)^{1−τ} and C = 2^{τ/(1−τ)}η^{1/(1−τ)}")),
    Erratum("001-E3", Flaw.TYPO, "Definition 17",
            "The inequality is reversed: the condition the text and Proposition 18's proof use "
            "is P[Δ_n(x) <= ξ] <= ν. Under the printed reading a two-point problem satisfies "
            "the condition while the proof's first step fails with probability near 1.",
            ("001 Proposition 18 / Definition 17's inequality is reversed",)),
    Erratum("001-E4", Flaw.TYPO, "Example 2, h^agg_inf",
            "'>= k/2' should be '>= K/2', and the sum defining h^agg_inf runs to K, not k.",
            ("001 Example 2",)),
    Erratum("001-E5", Flaw.TYPO, "Theorem 2 (proof)",
            "⊥ and ⊤ are swapped: labels are released where the screening passes, and at most "
            "T ⊥'s occur (not 'fewer than T ⊤').",
            ("001 Theorem 2 / the proof swaps ⊥ and ⊤",)),
    Erratum("001-E6", Flaw.INCONSISTENCY, "Algorithms 2 and 6, Lemma 3",
            "Algorithm 2 stops at the T-th ⊥, so Lemma 3's 'at most T unstable queries' does "
            "not let it finish all ℓ queries (T − 1 do); Algorithm 6 loops while c <= T and so "
            "allows T + 1 ⊥'s.",
            ("001 Lemma 3", "001 Lemma 45 / loop guard while c <= T")),
    Erratum("001-E7", Flaw.FALSE, "Lemma 3",
            "The stated K needs ε <= ln(2/δ), which the lemma omits: at ε = 100, δ = 1/100, "
            "β = 1/10, ℓ = T = 1 the paper's K = 19 leaves a query with Δ^ = 7 >= K/3 at "
            "distance 3 below the threshold w ≈ 3.19, refused with probability >= 0.669 > β.",
            ("001 Lemma 3",)),
    Erratum("001-E8", Flaw.TYPO, "Lemma 15 (proof)",
            "'Margin smaller than K/6' should be K/3 on the Δ^ scale (ξ = 1/6 normalized): with "
            "K = 5 and 2 votes, Δ^ = 1 is refusable but not counted.",
            ("001 Lemma 15 / margin smaller than K/6",)),
    Erratum("001-E9", Flaw.GAP, "Proposition 18 (proof)",
            "The proof compares Δ^ with the noisy threshold, but Algorithm 2 thresholds dist = "
            "⌈Δ^/2⌉ − 1: the second term of K must double (plus 2/ξ). 'E[Δ^|x] = 2KΔ' should "
            "be >= (Jensen), and Hoeffding must be applied to the signed margin.",
            ("001 Proposition 18 / Δ^ compared where Algorithm 2 uses dist",
             "001 Proposition 18 / E[Δ^|x] = 2KΔ")),
    Erratum("001-E10", Flaw.GAP, "Theorem 20 (proof)",
            "'h^agg_inf ∈ Vote_K(H)' is false on Example 1 with four samples per teacher; "
            "VC(Vote_K(H)) <= Kd is unproved (the standard bound is O(Kd log K); no "
            "counterexample found); the final Õ drops the ε and δ dependence of K.",
            ("001 Theorem 20 / h^agg_inf ∈ Vote_K(H)",
             "001 Theorem 20 / VC(Vote_K(H)) <= Kd")),
    Erratum("001-E11", Flaw.FALSE, "Lemmas 36 and 37",
            "Lemma 36's 'd + log(4/γ)' must be ln S_H(2n) + ln(4/γ): point functions (VC "
            "dimension 1) on 2^19 uniform points violate it with probability >= 0.499 > γ = 2/5. "
            "Lemma 37's d log n is not what the cited proof gives (no counterexample found). "
            "The constants propagate into Eqs. (3), (8) and (10).",
            ("001 Lemma 36", "001 Lemma 37")),
    Erratum("001-E12", Flaw.GAP, "Lemma 13 (and Lemma 38)",
            "The 'universal' constant hides η^{2/(2−τ)}; with n/K samples per teacher the log "
            "term needs a factor K, (dK log(n/(dK)) + K log(K/γ))/n, and the ratio to the "
            "printed term tends to K, so no constant absorbs it.",
            ("001 Lemma 13 / the universal constant hides η^{2/(2−τ)}",
             "001 Lemma 13 / log(K/γ) without a factor K")),
    Erratum("001-E13", Flaw.GAP, "Theorem 5 (proof)",
            "The union bound over teachers needs log(K/β), not log(m/β); each teacher's "
            "mistakes are bounded with E[Err(ĥ_1)] although Err(ĥ_k) is random; T needs the "
            "unknown E[Err(ĥ_1)].",
            ("001 Theorem 5",)),
    Erratum("001-E14", Flaw.TYPO, "Theorem 28",
            "'Algorithm 1' means Algorithm 3 with Algorithm 1's aggregation; 'ε assumed "
            "small' means ε <= ln(1/δ), and the rate drops the √(log(1/δ)) of K.",
            ("001 Theorem 28", "001 Theorem 28 / ε assumed small")),
    Erratum("001-E15", Flaw.TYPO, "Introduction (contribution 2)",
            "The realizable private sample complexity of Gaussian PATE is Õ(d^{3/2}/(α^{3/2}ε)) "
            "(Theorem 28, Remark 29), not Õ(d^{3/2}/(αε)), which only reaches error α^{2/3}.",
            ("001 Remark 29 / introduction's Õ(d^{3/2}/(αε))",)),
    Erratum("001-E16", Flaw.TYPO, "Remark 25",
            "'Algorithm 1 which uses active learning' means Algorithm 5.",
            ("001 Remark 25",)),
    Erratum("001-E17", Flaw.FALSE, "Algorithm 6, Lemma 45",
            "The printed λ = √(32T ln(1/δ)/ε) with the refresh ŵ ← w + 1 is not (ε, δ)-DP (exact "
            "worst case 0.0104 > 1/100 at δ = 2^-20); Dwork and Roth have λ = √(32T ln(1/δ))/ε and "
            "ŵ ← w + Lap(λ).",
            ("001 Lemma 45", "001 Lemma 45 / loop guard while c <= T")),
    Erratum("001-E18", Flaw.TYPO, "Algorithm 7, Lemma 48",
            "Noise is added to dist_f(D) (printed 'dist^_f(D)'), 'argmax_k' means max k, and "
            "the result is Thakurta and Smith's (2013), not Bassily et al.'s.",
            ("001 Lemma 48 / argmax_k read as max k", "001 Lemma 48 / noise is added to dist",
             "001 Lemma 48")),
    Erratum("001-E19", Flaw.TYPO, "Definition 50",
            "D_φ <= ξ + ρ·α should read ξ + ρ·φ (with a constant in place of φ the Gaussian "
            "mechanism fails it for large φ); the ξ clashes with the margin ξ.",
            ("001 Lemma 51 / Definition 50 reads ρ·φ",)),
    Erratum("001-E20", Flaw.FALSE, "Lemma 44",
            "The classical Gaussian mechanism needs ε < 1 (Dwork and Roth), which the statement "
            "omits: at ε = 10, δ = 10^-5 the exact δ is about 2.27·10^-5.",
            ("001 Lemma 44",)),
    Erratum("001-E21", Flaw.TYPO, "Lemma 39",
            "'Err* = argmin' should be min and 'access risk' excess risk; the displayed quantity "
            "is a label count; Theorem 22 uses θ(Err* + α) <= θ(α), true because θ is "
            "non-increasing, which is not stated.",
            ("001 Lemma 39",)),
    Erratum("001-E22", Flaw.GAP, "Algorithm 4, Lemma 33",
            "U(j, γ_j) needs the unknown Err(h*) and θ (never defined) and a constant c'; its "
            "parentheses are unbalanced; the stream is from D_X; Lemma 33 ignores the label "
            "budget ℓ, which can stop the learner with constant error.",
            ("001 Lemma 33 / Algorithm 4: the radius U needs Err(h*) and θ",
             "001 Lemma 33 / Algorithm 4: the label budget stops the learner early")),
    Erratum("001-E23", Flaw.GAP, "Theorem 22",
            "α, ℓ and K are defined circularly; the quantifiers are in the wrong order; the "
            "statement has d log((m+n)/d) where the proof has d log(m/d); Table 1 drops "
            "√(log(1/δ)).",
            ("001 Theorem 22", "001 Theorem 22 / circular parameters")),
    Erratum("001-E28", Flaw.GAP, "Algorithms 3 and 5 (privacy)",
            "Privacy is never stated; Theorem 2 and post-processing give it only if one record "
            "changes one teacher. A random even or positional split lets one added record "
            "change two teachers (a vote moves by 2); a keyed per-record assignment fixes it.",
            ("001 Theorem 2 / PSQ and ASQ need a per-record teacher split",)),
    Erratum("001-E29", Flaw.PRACTICAL, "§6, Table 4",
            "ε_ex_post is computed from the realized query count, whose law differs between "
            "neighbors: a data-dependent figure, not an a-priori guarantee (the budget ε is).",
            ("001 Theorem 2 / ex-post ε is data-dependent",)),
    Erratum("001-E30", Flaw.MINOR, "Theorem 2 (proof)",
            "The union bound over 'ℓ + T' Laplace variables is valid but loose: only the ℓ "
            "query comparisons can release a label that differs between neighbors.",
            ("001 Theorem 2 / union bound over ℓ + T variables is loose",)),
    Erratum("001-E31", Flaw.MINOR, "Example 1",
            "'ERM is uniform over {h1, h2, h3}' needs symmetric tie-breaking (first-index ties "
            "give (1/2, 1/4, 1/4)); the error is not monotone in K (K = 2 gives 1/3 < 1/2).",
            ("001 Example 1 / ERM is uniform over {h1, h2, h3}",)),
)
"""Every erratum, 004 then 000 then 003 then 002 then 001, in inventory order (002-E16 and E17
are privref's own findings; 001's numbering skips the errors of its experiment section,
Table 4's caption and a9a column, Table 1's attributions, Appendix E's sizes and the truncated
text, which no ledger entry handles: docs/pate-experiments.md discusses the experiment's)."""


def erratum(ident: str) -> Erratum:
    """The erratum with this id (``004-E5``); raises InvalidArgument naming it when unknown."""
    for e in ERRATA:
        if e.id == ident:
            return e
    raise InvalidArgument(f"erratum={ident!r} is not in proofs.errata.ERRATA")
