"""Ledger: the utility chain of IterLabelBoost (004 Claim C.9, Lemma C.10, Theorems C.11, 4.2, 4.4,
Corollaries 4.5, 4.6), and the shared machinery for 000's counterparts (proofs.p000.utility).

Sample-size sufficiency (004-E21).  Each utility proof applies Theorem
B.5 to a sample it knows to have at least ``have = (P/a)·VC·log(Q/(a·b))``
points, at accuracy k·a and confidence s·b, where B.5 asks for
``need = (48/(k·a))·(10·VC·log(48e/(k·a)) + log(5/(s·b)))``.  With
x = -log a and y = -log b both sides are affine in (x, y), so

    g_r = a·(have - r·need) = V·[P·log Q - r·(480/k)·log(48e/k)] + V·x·(P - r·480/k)
          + y·(P·V - r·48/k) - r·(48/k)·log(5/s)

is affine in each of x, y and VC separately: its range over a box is the hull
of its 8 vertex values, each enclosed by interval arithmetic.
:func:`check_sufficiency` proves g_1 >= 0 by interval branch-and-bound over
the box of 004-E21 (α ∈ [2^-30, 1], β ∈ [2^-60, 1], VC ∈ [1, 10^4], a =
a_scale·α, b = b_scale·β), for log read as ln and as log2.  When the
coefficients of x and y are >= 0 (checked exactly), g_1 only grows as α, β
decrease, so the result extends to all α, β ∈ (0, 1].  :func:`check_min_ratio`
encloses the minimum of have/need on the box, and :func:`check_insufficient`
shows a constant that does not work (004 with 10 in place of 12).

The other checks are exact bookkeeping (error and failure accumulation,
base-case identities, the triangle inequality) and the refutations of two
proof steps of 004 Lemma C.10 (004-E9, 004-E10) and of the δ in Theorem 4.2
(004-E13), each with its corrected statement.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial
from typing import Any, Final, Literal

import numpy as np

from privref.audits.stats import cp_lower, cp_upper
from privref.reference.composition import leak
from privref.reference.concepts import Concept, ConceptClass, rectangles, thresholds_on
from privref.reference.data import BOTTOM, Dataset
from privref.reference.decide import at_most, ceil, less_than, within
from privref.reference.errors import InvalidArgument
from privref.reference.learners.iterlabelboost import boost_iterations
from privref.reference.learners.labelboost import LABELBOOST_EM_EPSILON
from privref.reference.learners.schedule import (
    PAPER_000,
    PAPER_004,
    LabelBoostConstants,
    Schedule,
    size_schedule,
)
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import sample
from privref.reference.randomized_response import randomized_response
from privref.reference.reals import Interval, exp, interval_exp, interval_log, log
from privref.reference.subsampling import subsample
from privref.reference.vc import vc_dimension

from .._common import audit_result
from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..bnb import Enclosure, prove_nonnegative
from ..numbers_text import decimal
from . import subsampling
from .generalization import B5, B6_INSTANCES, all_functions, check_b6, sci

__all__ = [
    "B5_USES",
    "CLAIM411_MULTIPLIER",
    "CLAIM_C9_BETA_FACTOR",
    "CLAIM_C9_MULTIPLIER",
    "CORRECTED_C10_MULTIPLIER",
    "DELTA_C1_FACTOR",
    "E13_DELTA_FACTOR",
    "E21_NOTE",
    "E21_RANGE",
    "ENTRIES",
    "LEMMA_C10_STEP_FRACTION",
    "MC_CONSTANTS",
    "B5Use",
    "MonteCarloRun",
    "Reading",
    "check_accumulation",
    "check_corrected_c10",
    "check_delta_corrected",
    "check_delta_factor",
    "check_delta_step",
    "check_error_accumulation_mc",
    "check_improper_pair",
    "check_insufficient",
    "check_min_ratio",
    "check_premise_gap",
    "check_rectangles_vc",
    "check_sufficiency",
    "check_triangle",
    "expect_violation",
    "have_enclosure",
    "mc_schedule",
    "need_enclosure",
    "run_monte_carlo",
    "sample_size_c10",
    "scaled_gap",
    "sufficiency_check",
]

PREC: Final = 96
Reading = Literal["ln", "log2"]
READINGS: Final[tuple[Reading, ...]] = ("ln", "log2")
_LN2: Final = interval_log(Interval.point(2), PREC)
_ALPHA_LO: Final = Fraction(1, 2**30)
_BETA_LO: Final = Fraction(1, 2**60)
_VC_HI: Final = Fraction(10**4)


def _log(x: Interval, reading: Reading) -> Interval:
    value = interval_log(x, PREC)
    return value if reading == "ln" else (value / _LN2).rounded(PREC)


def _log_e(reading: Reading) -> Interval:
    return Interval.point(1) if reading == "ln" else (1 / _LN2).rounded(PREC)


# ------------------------------------------------------------------ B.5 sufficiency


@dataclass(frozen=True, slots=True)
class B5Use:
    """One use of Theorem B.5: have = (P/a)·VC·log(Q/(a·b)), applied at (k·a, s·b).

    On the 004-E21 box, a = a_scale·α and b = b_scale·β.  ``where`` cites the proof.
    """

    label: str
    where: str
    P: Fraction
    Q: Fraction
    k: Fraction
    s: Fraction
    a_scale: Fraction
    b_scale: Fraction

    @property
    def box(self) -> tuple[tuple[Fraction, Fraction], ...]:
        """(α, β, VC) box of 004-E21."""
        return ((_ALPHA_LO, Fraction(1)), (_BETA_LO, Fraction(1)), (Fraction(1), _VC_HI))

    def text(self) -> str:
        """The inequality in the paper's notation."""
        return (f"({decimal(self.P)}/a)·VC·log({decimal(self.Q)}/(a·b)) >= B.5({decimal(self.k)}·a, "
                f"{decimal(self.s)}·b), a = {self.a_scale}·α, b = {self.b_scale}·β")


def _u(label: str, where: str, P: int, Q: int, k: Fraction | int, s: Fraction | int,
       a_scale: Fraction | int, b_scale: Fraction | int) -> B5Use:
    return B5Use(label, where, Fraction(P), Fraction(Q), Fraction(k), Fraction(s), Fraction(a_scale),
                 Fraction(b_scale))


F = Fraction
B5_USES: Final[dict[str, B5Use]] = {
    "000 C4.11": _u("000 C4.11", "000 Claim 4.11: |S_i^c| >= (48/α_i)VC log(14/(α_iβ_i)), B.5(10α_i, β_i)",
                    48, 14, 10, 1, F(1, 20), F(1, 8)),
    "000 L4.12": _u("000 L4.12", "000 Lemma 4.12 as printed: (640/α)VC log(4480/(αβ)), B.5(10α, β/2)",
                    640, 4480, 10, F(1, 2), 1, 1),
    "000 L4.12 corrected": _u("000 L4.12 corrected",
                              "000 Lemma 4.12, every case: (320/α)VC log(2240/(αβ)), B.5(10α, β/2)",
                              320, 2240, 10, F(1, 2), 1, 1),
    "004 C.9 base": _u("004 C.9 base", "004 Claim C.9, i = 1: (120/α_1)VC log(2/(α_1β_1)), B.5(12α_1, β_1)",
                       120, 2, 12, 1, F(1, 48), F(1, 8)),
    "004 C.9 step": _u("004 C.9 step", "004 Claim C.9, i >= 2: (40/α_i)VC log(2/(α_iβ_i)), B.5(12α_i, β_i)",
                       40, 2, 12, 1, F(1, 96), F(1, 16)),
    "004 C.9 step, 10": _u("004 C.9 step, 10", "004 Claim C.9, i >= 2, with 10 in place of 12",
                           40, 2, 10, 1, F(1, 96), F(1, 16)),
    "004 C.10": _u("004 C.10", "004 Lemma C.10: (1920/α)VC log(768/(αβ)), B.5(α/2, β/2)",
                   1920, 768, F(1, 2), F(1, 2), 1, 1),
}
"""Every use of Theorem B.5 in the utility proofs of 000 and 004 (004-E21)."""


def scaled_gap(use: B5Use, reading: Reading, r: Fraction = Fraction(1)) -> Enclosure:
    """Interval extension of g_r(α, β, VC) = a·(have - r·need) (see the module docstring).

    g_r = VC·(k0 + c1·x) + y·(P·VC - c2) - c3 is affine in each of x = -log(a_scale·α),
    y = -log(b_scale·β) and VC separately (multilinear), and x, y are monotone in α, β; so its
    range over a box is the hull of its values at the 8 vertices, each enclosed by intervals.
    """
    P, k = use.P, use.k
    log_q = _log(Interval.point(use.Q), reading)
    log_48e = _log(Interval.point(48 / k), reading) + _log_e(reading)
    log_5s = _log(Interval.point(5 / use.s), reading)
    k0 = (log_q * P - log_48e * (r * 480 / k)).rounded(PREC)
    c1 = P - r * 480 / k
    c2 = r * 48 / k
    c3 = (log_5s * c2).rounded(PREC)

    def at(alpha: Fraction, beta: Fraction, vc: Fraction) -> Interval:
        x = -_log(Interval.point(alpha * use.a_scale), reading)
        y = -_log(Interval.point(beta * use.b_scale), reading)
        return (vc * (k0 + x * c1) + y * (vc * P - c2) - c3).rounded(PREC)

    def g(xs: tuple[Interval, ...]) -> Interval:
        values = [at(a, b, v) for a in (xs[0].lo, xs[0].hi) for b in (xs[1].lo, xs[1].hi)
                  for v in (xs[2].lo, xs[2].hi)]
        return Interval(min(e.lo for e in values), max(e.hi for e in values))

    return g


def have_enclosure(use: B5Use, alpha: Fraction, beta: Fraction, vc: Fraction, reading: Reading
                   ) -> Interval:
    """(P/a)·VC·log(Q/(a·b)) at a point, straight from the formula (no algebra)."""
    a, b = alpha * use.a_scale, beta * use.b_scale
    return (_log(Interval.point(use.Q / (a * b)), reading) * (use.P / a * vc)).rounded(PREC)


def need_enclosure(use: B5Use, alpha: Fraction, beta: Fraction, vc: Fraction, reading: Reading
                   ) -> Interval:
    """Theorem B.5's (48/A)(10·VC·log(48e/A) + log(5/B)) at A = k·a, B = s·b, straight from the formula."""
    A, B = use.k * alpha * use.a_scale, use.s * beta * use.b_scale
    log_48e = _log(Interval.point(48 / A), reading) + _log_e(reading)
    return ((log_48e * (10 * vc) + _log(Interval.point(5 / B), reading)) * (48 / A)).rounded(PREC)


def _monotone_note(use: B5Use, r: Fraction = Fraction(1)) -> tuple[bool, str]:
    c1, c2 = use.P - r * 480 / use.k, use.P - r * 48 / use.k
    ok = c1 >= 0 and c2 >= 0
    text = (f"coefficients of -log α: VC·{decimal(c1)}, of -log β: >= {decimal(c2)} (VC >= 1): "
            + ("both >= 0, so the bound extends to all α, β ∈ (0, 1]" if ok else
               "not both >= 0: proved on the box only"))
    return ok, text


def check_sufficiency(use: B5Use, reading: Reading = "ln") -> CheckResult:
    """b&b: have >= need on the 004-E21 box for ``use`` (004 Claim C.9 / Lemma C.10, 000 4.11 / 4.12)."""
    res = prove_nonnegative(scaled_gap(use, reading), use.box, max_boxes=2048, prec=PREC)
    _, note = _monotone_note(use)
    witness = None
    if res.witness is not None:
        witness = "(α, β, VC) = (" + ", ".join(str(x) for x in res.witness) + ")"
    return CheckResult(res.verdict, f"{use.where} [{reading}]: a·(have - need) on α ∈ [2^-30,1], "
                       f"β ∈ [2^-60,1], VC ∈ [1,10^4]: {res.summary()}; {note}", witness=witness)


def _ratio(use: B5Use, point: tuple[Fraction, Fraction, Fraction], reading: Reading) -> Interval:
    return (have_enclosure(use, *point, reading) / need_enclosure(use, *point, reading)).rounded(PREC)


def check_min_ratio(use: B5Use, reading: Reading, r_lo: Fraction, r_hi: Fraction,
                    at: tuple[Fraction, Fraction, Fraction]) -> CheckResult:
    """min have/need over the 004-E21 box lies in [r_lo, r_hi]: b&b proves >= r_lo, ``at`` shows <= r_hi."""
    res = prove_nonnegative(scaled_gap(use, reading, r_lo), use.box, max_boxes=4096, prec=PREC)
    ratio = _ratio(use, at, reading)
    text = (f"{use.label} [{reading}]: have/need >= {decimal(r_lo)} on the box ({res.summary()}); at "
            f"(α, β, VC) = ({decimal(at[0])}, {decimal(at[1])}, {decimal(at[2])}) have/need ∈ {ratio}")
    if res.verdict is Verdict.HOLDS and at_most(ratio, r_hi) is Verdict.HOLDS:
        return CheckResult(Verdict.HOLDS, f"{text}: minimum ∈ [{decimal(r_lo)}, {decimal(r_hi)}]")
    if res.verdict is Verdict.VIOLATED:
        return CheckResult(Verdict.VIOLATED, f"{text}: ratio < {decimal(r_lo)} somewhere",
                           witness=str(res.witness))
    return CheckResult(Verdict.UNDECIDED, f"{text}: window [{decimal(r_lo)}, {decimal(r_hi)}] not confirmed")


def check_insufficient(use: B5Use, reading: Reading = "ln") -> CheckResult:
    """HOLDS when b&b finds a proved point of the 004-E21 box with have < need (a constant that fails)."""
    res = prove_nonnegative(scaled_gap(use, reading), use.box, max_boxes=2048, prec=PREC)
    if res.verdict is Verdict.VIOLATED:
        assert res.witness is not None
        a, b, v = res.witness
        ratio = _ratio(use, (a, b, v), reading)
        pt = ", ".join(decimal(x) for x in res.witness)
        return CheckResult(Verdict.HOLDS, f"{use.where} [{reading}] fails as it must: at (α, β, VC) = "
                           f"({pt}) have/need ∈ {ratio} < 1 ({res.summary()})")
    return CheckResult(Verdict.VIOLATED if res.verdict is Verdict.HOLDS else Verdict.UNDECIDED,
                       f"{use.where} [{reading}]: expected a failure, got {res.summary()}")


def _both(check: partial[CheckResult]) -> CheckResult:
    results = [check(reading=r) for r in READINGS]
    verdict = next((r.verdict for r in results if r.verdict is not Verdict.HOLDS), Verdict.HOLDS)
    witness = next((r.witness for r in results if r.witness), None)
    return CheckResult(verdict, " | ".join(r.evidence for r in results), witness)


def sufficiency_check(key: str) -> Check:
    """A Check running :func:`check_sufficiency` for B5_USES[key] in both log readings."""
    return Check(f"b&b: {key} sample size suffices for B.5 (ln and log2)",
                 partial(_both, partial(check_sufficiency, B5_USES[key])))


# ------------------------------------------------------------------ bookkeeping

CLAIM_C9_MULTIPLIER: int = 12
"""004 Claim C.9's 12 in Pr[error_μ(c, h_i) > 12·Σ_{j<=i} α_j] <= 2·Σ_{j<=i} β_j."""

CLAIM411_MULTIPLIER: int = 10
"""000 Claim 4.11's 10 in Pr[error_μ(c, h_i) > 10·Σ_{j<=i} α_j] <= 2·Σ_{j<=i} β_j."""

CLAIM_C9_BETA_FACTOR: Fraction = Fraction(2)
"""004 Claim C.9's (and 000 Claim 4.11's) 2 in the failure probability 2·Σ_{j<=i} β_j."""



def check_accumulation(version: Literal["000", "004"] = "004", iterations: int = 64) -> CheckResult:
    """Exact: multiplier·Σ_{j<=i} α_j and 2Σ_{j<=i} β_j stay within the proofs' budgets, i <= iterations.

    000 (Claim 4.11, Lemma 4.12): α_j = α/(10·2^j), multiplier 10, budget α; 004 (Claim C.9,
    Lemma C.10): α_j = α/(24·2^j), multiplier 12, budget α/2.  β_j = β/(4·2^j), budget β/2 in both.
    Also the base cases |S_1| = |S|/100 and B.5's premise error_S <= (k·α_j)/10.  α = β = 1
    (everything is linear in them).  The multipliers are :data:`CLAIM411_MULTIPLIER` (000) and
    :data:`CLAIM_C9_MULTIPLIER` (004).
    """
    mult = CLAIM411_MULTIPLIER if version == "000" else CLAIM_C9_MULTIPLIER
    denom, budget = (10, Fraction(1)) if version == "000" else (24, Fraction(1, 2))
    acc_a = acc_b = Fraction(0)
    for i in range(1, iterations + 1):
        acc_a += Fraction(1, denom * 2**i)
        acc_b += Fraction(1, 4 * 2**i)
        if mult * acc_a > budget or 2 * acc_b > Fraction(1, 2):
            return CheckResult(Verdict.VIOLATED, f"{version}: at i = {i}: {mult}·Σα_j = "
                               f"{mult * acc_a}·α > {budget}·α or 2Σβ_j = {2 * acc_b}·β > β/2",
                               witness=f"i={i}")
    if Fraction(mult, 10) < 1:
        return CheckResult(Verdict.VIOLATED, f"B.5 at accuracy {mult}α_i needs error_S <= "
                           f"{Fraction(mult, 10)}α_i < α_i, more than Observation 4.7/Claim C.5 gives")
    if version == "000":
        base = (Fraction(96000, 100) == 48 * 20, 14 * 20 * 8 == 2240)
        base_txt = "|S|/100 = (960/α)VC log(2240/(αβ)) = (48/α_1)VC log(14/(α_1β_1)) exactly"
        total = "Lemma 4.12: 10α + α = 11α; β + β/2 + β/2 = 2β"
    else:
        base = (Fraction(576000, 100) == 120 * 48, 2 * 48 * 8 == 768)
        base_txt = "|S|/100 = (5760/α)VC log(768/(αβ)) = (120/α_1)VC log(2/(α_1β_1)) exactly"
        total = "Lemma C.10: α/2 + α/2 (+α′); β/2 + β/2 (+β′)"
    if not all(base):
        return CheckResult(Verdict.VIOLATED, f"{version}: base-case identity fails")
    return CheckResult(Verdict.HOLDS, f"{version}, i <= {iterations}: {mult}·Σα_j = "
                       f"{mult}·(1-2^-i)/{denom}·α <= {budget}·α and 2Σβ_j = (1-2^-i)β/2 <= β/2 "
                       f"(exact); B.5's premise error_S <= {mult}α_i/10 follows from error_S <= α_i; "
                       f"{base_txt}; {total}")


def check_triangle() -> CheckResult:
    """Exact: error_μ(c,h) <= error_μ(c,g) + error_μ(g,h) for all functions on 3 points, several μ."""
    C = all_functions(3)
    mus = ((F(1, 3),) * 3, (F(1, 2), F(1, 4), F(1, 4)), (F(1, 10), F(7, 10), F(2, 10)))
    count = 0
    for mu in mus:
        def err(u: int, v: int, mu: tuple[Fraction, ...] = mu) -> Fraction:
            return sum((p for i, p in enumerate(mu) if ((u ^ v) >> i) & 1), Fraction(0))
        for c, g, h in itertools.product(C.masks, repeat=3):
            count += 1
            if err(c, h) > err(c, g) + err(g, h):
                return CheckResult(Verdict.VIOLATED, f"triangle fails at μ={mu}", witness=f"{c},{g},{h}")
    return CheckResult(Verdict.HOLDS, f"error_μ is a pseudo-metric: triangle inequality exact on "
                       f"{count} triples (all functions on 3 points, 3 distributions)")


# ------------------------------------------------------------------ Monte Carlo: Claim C.9 / 4.11

MC_ALPHA: Final = Fraction(1, 2)
MC_BETA: Final = Fraction(1, 2)
MC_POINTS: Final = 16
MC_M: Final = 60
MC_RUNS: Final = 200
MC_SEED: Final = 20260004
MC_LEVEL: Final = Fraction(1, 10**6)
"""Overall error level of the Monte Carlo check: confidence 1 − 10⁻⁶ (the test suite's
false-positive budget, docs/test-budget.md)."""
MC_CONSTANTS: Final[dict[str, LabelBoostConstants]] = {
    version: replace(paper, exponent_divisor=F(1, 100), v_s_coefficient=F(1), stop_factor=140,
                     cap_factor=150, unlabeled_factor=600, keep_iteration=F(1, 2), keep_final=F(1, 3))
    for version, paper in (("000", PAPER_000), ("004", PAPER_004))
}
"""Scaled constants for the Monte Carlo checks.  alpha_divisor (000: 10, 004: 24) and beta_divisor (4)
are the printed ones, so α_i, β_i (and the claims' bounds) are the papers'; only the sizes are scaled:
Step 2b's exponent divisor 200 → 1/100 and |S| coefficient (004: 100) → 1, cap 30000n → 150n, |D| =
90000n → 600n, keep rates 1/100 → 1/2 and 1/300 → 1/3, stop 300n → 140n.  With α = β = 1/2, n = 1,
m = 60, VC = 1 the loop runs N = 4 times (|S|: 60 → 105 → 127 → 138 → 144)."""


def mc_schedule(version: Literal["000", "004"]) -> Schedule:
    """The (data-independent) size schedule of the Monte Carlo instance of ``version``."""
    return size_schedule(MC_CONSTANTS[version], MC_ALPHA, MC_BETA, 1, MC_M, 1)


def hypothesis_of(concepts: ConceptClass, relabeled: Dataset) -> Concept:
    """h_i from S after iteration i: the first concept (canonical order) agreeing with every label.

    relabel_step's H holds the canonical representatives of the patterns on the points of S∘T, which
    are exactly the points of the relabeled S, so this recovers the EM's choice itself.
    """
    pairs = [(entry[0], entry[1]) for entry in relabeled if isinstance(entry, tuple)]
    return next(h for h in concepts.concepts if all(h(x) == y for x, y in pairs))


def mc_dataset(rng: np.random.Generator, schedule: Schedule, points: int = MC_POINTS
               ) -> tuple[int, Dataset]:
    """(j, S∘D): target c_j, j uniform in 0..points; m points i.i.d. uniform labeled by c_j; |D| ⊥'s."""
    j = int(rng.integers(points + 1))
    xs = rng.integers(points, size=schedule.input_size)
    m = schedule.m
    return j, (tuple((int(x), int(x < j)) for x in xs[:m])
               + tuple((int(x), BOTTOM) for x in xs[m:]))


@dataclass(frozen=True, slots=True)
class MonteCarloRun:
    """error_μ(c, h_i) of every run (rows) and iteration i = 1..N (columns), μ uniform, exact."""

    version: str
    schedule: Schedule
    runs: int
    seed: int
    errors: tuple[tuple[Fraction, ...], ...]


@cache
def run_monte_carlo(version: Literal["000", "004"], runs: int = MC_RUNS, seed: int = MC_SEED
                    ) -> MonteCarloRun:
    """Seeded runs of the loop (one child of SeedSequence(seed) per run): deterministic, cached.

    The loop is :func:`privref.reference.learners.iterlabelboost.boost_iterations` at ε_em = 1, the
    very sub-program :func:`~privref.reference.learners.iterlabelboost.iter_label_boost` runs.
    """
    sched = mc_schedule(version)
    C = thresholds_on(MC_POINTS)
    rows = []
    for child in np.random.SeedSequence(seed).spawn(runs):
        rng = np.random.default_rng(child)
        j, data = mc_dataset(rng, sched)
        target = C.concepts[j]
        row = []
        for relabeled in sample(boost_iterations, C, sched, data, LABELBOOST_EM_EPSILON, rng=rng)[1:]:
            h = hypothesis_of(C, relabeled)
            row.append(Fraction((h.mask ^ target.mask).bit_count(), MC_POINTS))
        rows.append(tuple(row))
    return MonteCarloRun(version, sched, runs, seed, tuple(rows))


def check_error_accumulation_mc(version: Literal["000", "004"] = "004", runs: int = MC_RUNS,
                                seed: int = MC_SEED, level: Fraction = MC_LEVEL) -> CheckResult:
    """Monte Carlo of 004 Claim C.9 / 000 Claim 4.11 at scaled sizes (004 Algorithm 4, 004-E23).

    Instance: THRESH on 16 points, μ uniform, target c_j with j uniform in 0..16 (per run), α = β =
    1/2, n = 1, m = 60, VC = 1, constants :data:`MC_CONSTANTS` (printed α_i, β_i; scaled sizes; the
    loop runs N = 4 times), ε_em = 1.  For each i <= N the statement the scaled instance implies is
    the claim itself with α_j = α/(d·2^j) (d = 24 in 004, 10 in 000), β_j = β/(4·2^j):
    Pr[error_μ(c, h_i) > k·Σ_{j<=i} α_j] <= 2·Σ_{j<=i} β_j (k = 12 in 004, 10 in 000); h_i is read
    off the loop exactly (:func:`hypothesis_of`), error_μ is exact.  The claim's premise |S| >=
    (576000/α)VC log(768/(αβ)) (000: 96000, 2240) is *not* met: the sizes are scaled so that the loop
    iterates, so a HOLDS is evidence at small sizes, not a proof, and a VIOLATED would only show the
    conclusion needs large samples.  Test: k_i = #runs with error_μ(c, h_i) above the bound; with
    exact one-sided Clopper–Pearson bounds at level/N each (Bonferroni over i), VIOLATED when
    cp_lower(k_i) > 2Σβ_j for some i (the data contradict the claim at confidence 1 - level),
    HOLDS otherwise.  The multipliers are :data:`CLAIM_C9_MULTIPLIER` / :data:`CLAIM411_MULTIPLIER`
    and the 2 is :data:`CLAIM_C9_BETA_FACTOR`.
    """
    mc = run_monte_carlo(version, runs, seed)
    c = mc.schedule.constants
    mult = CLAIM411_MULTIPLIER if version == "000" else CLAIM_C9_MULTIPLIER
    per = level / max(1, mc.schedule.n_iterations)
    rows, bad = [], None
    acc_a = acc_b = Fraction(0)
    for i in range(1, mc.schedule.n_iterations + 1):
        acc_a += c.alpha_i(MC_ALPHA, i)
        acc_b += c.beta_i(MC_BETA, i)
        bound, claimed = mult * acc_a, CLAIM_C9_BETA_FACTOR * acc_b
        k = sum(1 for row in mc.errors if row[i - 1] > bound)
        lo, hi = cp_lower(k, runs, per), cp_upper(k, runs, per)
        rows.append(f"i={i}: error > {mult}Σα_j = {bound} in {k}/{runs} runs, CP [{decimal(lo)}, "
                    f"{decimal(hi)}] vs claimed {decimal(claimed)} (= {claimed})")
        if lo > claimed and bad is None:
            bad = f"i={i}: {k}/{runs} runs with error_μ(c,h_i) > {bound}; CP lower {decimal(lo)} > {claimed}"
    sizes = " → ".join(str(it.s_before) for it in mc.schedule.iterations) + f" → {mc.schedule.s_loop}"
    text = (f"{version} scaled Monte Carlo (THRESH[{MC_POINTS}], μ uniform, random target, α = β = "
            f"{MC_ALPHA}, m = {MC_M}, N = {mc.schedule.n_iterations}, |S|: {sizes}; {runs} runs, seed "
            f"{seed}; one-sided CP at {decimal(per)} per i, confidence 1 - {level} overall): "
            + "; ".join(rows))
    if bad is not None:
        return CheckResult(Verdict.VIOLATED, text + ": the data contradict the claim", witness=bad,
                           confidence=1 - level)
    return CheckResult(Verdict.HOLDS, text + ": no contradiction", confidence=1 - level)


# ------------------------------------------------------------------ 004-E9: Lemma C.10's B.5 step

GAP_INSTANCE: Final = (F(1, 10), F(1, 10), F(1, 10), F(3, 40))
"""(α, α′, β, p): Lemma C.10 counterexample, p = μ(h_fin Δ h_N) ∈ (α/2, α′)."""

LEMMA_C10_STEP_FRACTION: Fraction = Fraction(1, 2)
"""004 Lemma C.10 proof's 1/2 in 'error_μ(h_fin, h_N) <= α/2 w.p. >= 1 − β/2'."""

CORRECTED_C10_MULTIPLIER: Fraction = Fraction(10)
"""The corrected Lemma C.10's 10 in B.5 at A = max(10α′, α/2) and the final α + 10α′."""


def _kl(a: Fraction, p: Fraction) -> Interval:
    """KL(a ‖ p) = a ln(a/p) + (1-a) ln((1-a)/(1-p)), enclosed."""
    return (interval_log(Interval.point(a / p), PREC) * a
            + interval_log(Interval.point((1 - a) / (1 - p)), PREC) * (1 - a)).rounded(PREC)


def check_premise_gap(alpha: Fraction = GAP_INSTANCE[0], alpha_p: Fraction = GAP_INSTANCE[1],
                      beta: Fraction = GAP_INSTANCE[2], p: Fraction = GAP_INSTANCE[3]
                      ) -> CheckResult:
    """The printed step "error_μ(h_fin,h_N) <= factor·α w.p. >= 1-β/2" on a concrete instance (004 C.10),
    factor = :data:`LEMMA_C10_STEP_FRACTION`.

    X = {0, 1}, C = THRESH[2 points] (VC 1), h_N = c_0 ≡ 0, h_fin = c_1 (1 on point 0 only), μ(0) = p,
    |S^3| = m = ⌈(1920/α)·ln(768/(αβ))⌉.  h_fin meets the base learner's premise
    error_{S^3}(h_fin, h_N) <= α′ unless Bin(m, p) > α′m, which has probability <= exp(-m·KL(α′ ‖ p))
    (Chernoff, α′ > p), while error_μ(h_fin, h_N) = p always.  VIOLATED when p > factor·α and that
    bound is < 1 - β/2: the conclusion error_μ <= factor·α can then only hold when the premise fails,
    so its probability is below 1 - β/2.
    """
    factor = LEMMA_C10_STEP_FRACTION
    m = sample_size_c10(alpha, beta)
    if not p < alpha_p:
        raise InvalidArgument(f"p={p} must be < alpha_p={alpha_p} so that the premise holds w.h.p.")
    bound = interval_exp(-(_kl(alpha_p, p) * m), PREC)   # Pr[premise fails] <= bound
    # Pr[conclusion] = Pr[error_μ(h_fin,h_N) <= factor·α] <= Pr[premise fails] if p > factor·α
    text = (f"α={alpha}, α′={alpha_p}, β={beta}, μ(h_fin Δ h_N) = {p}, |S^3| = {m}: "
            f"Pr[error_S3 > α′] <= exp(-m·KL(α′ ‖ p)) <= {sci(bound.hi)}")
    if p <= factor * alpha:
        return CheckResult(Verdict.HOLDS, f"{text}; error_μ = {p} <= {factor}·α: no counterexample")
    if less_than(bound, 1 - beta / 2) is Verdict.HOLDS:
        return CheckResult(Verdict.VIOLATED, f"{text}; error_μ(h_fin,h_N) = {p} > {factor}·α with "
                           f"probability >= 1 - that > β/2", witness=text)
    return CheckResult(Verdict.UNDECIDED, f"{text}: failure bound not small enough")


def sample_size_c10(alpha: Fraction, beta: Fraction, vc: int = 1) -> int:
    """⌈(1920/α)·VC·ln(768/(αβ))⌉, the |S^3| of 004 Lemma C.10's proof (exact ceiling)."""
    return ceil(log(768 / (alpha * beta)) * (1920 * vc / alpha))


def check_corrected_c10(alpha: Fraction = GAP_INSTANCE[0], alpha_p: Fraction = GAP_INSTANCE[1]
                        ) -> CheckResult:
    """The corrected step's bookkeeping: B.5 at A = max(multiplier·α′, α/2) has its premise
    error_S <= A/10 given error_S <= α′ (needs multiplier >= 10), needs no more samples than B.5(α/2)
    (its requirement decreases in A: both factors of (48/A)(10VC log(48e/A) + log(5/B)) are positive and
    decreasing for A <= 1, B <= 1), and α/2 + max(multiplier·α′, α/2) <= α + multiplier·α′ (exact);
    multiplier = :data:`CORRECTED_C10_MULTIPLIER`."""
    multiplier = CORRECTED_C10_MULTIPLIER
    A = max(multiplier * alpha_p, alpha / 2)
    if alpha_p > A / 10:
        return CheckResult(Verdict.VIOLATED, f"B.5 at A = {A} needs error_S <= {A / 10} < α′ = {alpha_p}",
                           witness=f"α={alpha}, α′={alpha_p}")
    if alpha / 2 + A > alpha + multiplier * alpha_p:
        return CheckResult(Verdict.VIOLATED, "final accumulation exceeds α + 10α′")
    return CheckResult(Verdict.HOLDS, f"α={alpha}, α′={alpha_p}: A = max({multiplier}α′, α/2) = {A}; premise "
                       f"error_S <= α′ <= A/10 holds; B.5(A, β/2) needs <= B.5(α/2, β/2) samples; final "
                       f"error <= α/2 + A = {alpha / 2 + A} <= α + {multiplier}α′ = "
                       f"{alpha + multiplier * alpha_p}")


# ------------------------------------------------------------------ 004-E10: improper base learners


def check_improper_pair(version: Literal["000", "004"] = "004", domain: int = 10**7) -> CheckResult:
    """B.5's conclusion for the pair (h_fin, h_N) when h_fin is improper: a deterministic failure.

    X = THRESH on ``domain`` points (VC 1), μ uniform, α = 1/20, β = 1/10, |S^3| = the proof's
    bound ((640/α)VC log(4480/(αβ)) in 000, (1920/α)VC log(768/(αβ)) in 004, ln).  Let h_fin agree
    with h_N on the points of S^3 and disagree elsewhere (not a threshold): error_{S^3}(h_fin,h_N) = 0,
    but error_μ(h_fin,h_N) >= 1 - |S^3|/|X| > the proof's bound (10α in 000, α/2 in 004), with
    probability 1.  VIOLATED = "B.5 applied to (h_fin, h_N)" is refuted.
    """
    alpha, beta = Fraction(1, 20), Fraction(1, 10)
    if version == "000":
        P, Q, bound = 640, 4480, 10 * alpha
    else:
        P, Q, bound = 1920, 768, alpha / 2
    m = ceil(log(Q / (alpha * beta)) * (P / alpha))
    floor = 1 - Fraction(m, domain)
    text = (f"{version}: THRESH on {domain} points, μ uniform, α={alpha}, β={beta}, |S^3| = {m}: an "
            f"improper h_fin equal to h_N on S^3 only has error_S3 = 0 and error_μ >= 1 - {m}/{domain} "
            f"= {decimal(floor)}")
    if floor > bound:
        return CheckResult(Verdict.VIOLATED, f"{text} > {bound} (the proof's bound) always",
                           witness=text)
    return CheckResult(Verdict.HOLDS, f"{text} <= {bound}: no counterexample at this size")


# ------------------------------------------------------------------ 004-E13: δ of Theorem 4.2 / 4.14

_DELTA: Final = Fraction(1, 1000)

DELTA_C1_FACTOR: int = 164
"""004-E13: Claim C.1's δ′ = 4·41/(3+e)·εδ = 164δ/t at ε = (3+e)/t (ε* = 1, base δ-factor 41)."""

E13_DELTA_FACTOR: Fraction = Fraction(2868, 100)
"""004-E13's δ′ = 28.68·εδ: 4·41/(3+e) to 2 decimals (checked within ±1/100)."""


def _delta_mechanism() -> Mechanism[Any]:
    return leak(randomized_response("2/3"), 41 * _DELTA)


def check_delta_step(t: int = 6, delta_claim: Fraction = _DELTA) -> CheckResult:
    """Exact audit: subsample 1 of t (Claim C.1 with ε* = 1, ε = (3+e)/t) of a (1, 41δ)-DP 𝒜, at (ε, δ).

    𝒜 = leak(41δ) ∘ randomized response(2/3) is (ln 2, 41δ)-DP, hence (1, 41δ)-DP, δ = 1/1000.
    VIOLATED (with the auditor's witness) refutes "Claim C.1 turns the (1, 41δ) learner into an
    (ε, δ) learner" (004 Theorem 4.2 / 000 Theorem 4.14, proof; 004-E13).
    """
    eps = (exp(1) + 3) / t
    mech = subsample(_delta_mechanism(), 1, t, claim=PrivacyClaim(eps, delta_claim))
    res, _ = audit_result(mech, Universe((0, 1), (t,)))
    return CheckResult(res.verdict, f"𝒜 = leak(41δ)∘RR(2/3), δ = {_DELTA}; " + res.evidence, res.witness)


def check_delta_corrected(t: int = 6) -> CheckResult:
    """Exact audit of the same subsampled 𝒜 at Claim C.1's own (ε, 4·41/(3+e)·εδ) = (ε, 164δ/t)."""
    return check_delta_step(t, DELTA_C1_FACTOR * _DELTA / t)


def check_delta_factor() -> CheckResult:
    """4·41/(3+e) ∈ [c − 1/100, c + 1/100], c = :data:`E13_DELTA_FACTOR` (interval): the δ′ =
    28.68·εδ of 004-E13, and (3+e)/164 ≈ 1/28.68."""
    lo, hi = E13_DELTA_FACTOR - Fraction(1, 100), E13_DELTA_FACTOR + Fraction(1, 100)
    e = interval_exp(Interval.point(1), PREC)
    factor = (164 / (e + 3)).rounded(PREC)
    verdict = within(factor, lo, hi)
    if verdict is Verdict.HOLDS:
        return CheckResult(Verdict.HOLDS, f"4·41/(3+e) ∈ {factor} ⊆ [{decimal(lo)}, {decimal(hi)}]: "
                           f"δ′ = 4ε·41δ/(3+e) <= δ iff ε <= (3+e)/164 ∈ {(1 / factor).rounded(PREC)}")
    if verdict is Verdict.VIOLATED:
        return CheckResult(Verdict.VIOLATED, f"4·41/(3+e) ∈ {factor} outside [{lo}, {hi}]",
                           witness=f"4·41/(3+e) ∈ {factor}")
    return CheckResult(Verdict.UNDECIDED, f"4·41/(3+e) ∈ {factor}: overlap")


# ------------------------------------------------------------------ Corollary 4.5 illustration


def check_rectangles_vc() -> CheckResult:
    """VC(RECTANGLE_d^ℓ) = 2ℓ for (d, ℓ) ∈ {(2,1), (2,2), (3,1)}; < 2ℓ for d = 1, ℓ ∈ {2, 3}."""
    rows = []
    for d, ell, expect_full in ((2, 1, True), (2, 2, True), (3, 1, True), (1, 1, True),
                                (1, 2, False), (1, 3, False)):
        v = vc_dimension(rectangles(d, ell))
        if (v == 2 * ell) != expect_full:
            return CheckResult(Verdict.VIOLATED, f"VC(RECTANGLE_{d}^{ell}) = {v}", witness=f"d={d}, ℓ={ell}")
        rows.append(f"VC(RECT_{d}^{ell}) = {v}")
    return CheckResult(Verdict.HOLDS, "; ".join(rows) + " (exact brute force): 2ℓ needs >= 3 values per "
                       "axis once ℓ >= 2, i.e. d >= 2")


# ------------------------------------------------------------------ entries
def expect_violation(res: CheckResult) -> CheckResult:
    """Turn an expected counterexample into an illustration that HOLDS (and vice versa)."""
    if res.verdict is Verdict.VIOLATED:
        return CheckResult(Verdict.HOLDS, "as expected: " + res.evidence)
    return CheckResult(Verdict.VIOLATED if res.verdict is Verdict.HOLDS else res.verdict,
                       "expected a counterexample: " + res.evidence)



SUFF_C9: Final = Check("b&b: |S_1| and |S_i| suffice for B.5(12α_i, β_i) (ln and log2)",
                       lambda: _combine_checks(
                           _both(partial(check_sufficiency, B5_USES["004 C.9 base"])),
                           _both(partial(check_sufficiency, B5_USES["004 C.9 step"]))))
SUFF_C10: Final = sufficiency_check("004 C.10")
ACC_004: Final = Check("exact bookkeeping: 12Σα_j <= α/2, 2Σβ_j <= β/2, base case", check_accumulation,
                      constant="CLAIM_C9_MULTIPLIER")
TRIANGLE: Final = Check("triangle inequality for error_μ (exact)", check_triangle)
DELTA_FACTOR: Final = Check("4·41/(3+e) ∈ [28.67, 28.69]", check_delta_factor,
                           constant="E13_DELTA_FACTOR")
DELTA_CORRECTED: Final = Check("exact audit at Claim C.1's (ε, 164δ/t)", check_delta_corrected,
                               constant="DELTA_C1_FACTOR")
B5_PROPER: Final = B5.checks[0]  # Theorem B.5's own exact check (pairs in C × C), shared
RECT: Final = Check("VC(RECTANGLE_d^ℓ) = 2ℓ for d >= 2; < 2ℓ for d = 1", check_rectangles_vc)
AGNOSTIC: Final = Check("B.6 on instances with f ∉ H (exact)",
                        partial(check_b6, tuple(i for i in B6_INSTANCES if "∉" in i.name)))


def _combine_checks(*results: CheckResult) -> CheckResult:
    verdict = next((r.verdict for r in results if r.verdict is not Verdict.HOLDS), Verdict.HOLDS)
    witness = next((r.witness for r in results if r.witness), None)
    return CheckResult(verdict, " || ".join(r.evidence for r in results), witness)


E21_RANGE: Final = ("α ∈ (0, 1], β ∈ (0, 1], VC ∈ [1, 10^4] real, log = ln and log2: b&b on α ∈ "
                     "[2^-30, 1], β ∈ [2^-60, 1]; below that the gap only grows (exact sign of the "
                     "coefficients of -log α and -log β)")

E21_NOTE: Final = ("have/need is a ratio of sums of logs in one base, so both readings give the same "
                   "ratios (the b&b runs both anyway). a·(have - need) is multilinear in (-log a, "
                   "-log b, VC) (module docstring), so its range on a box is the hull of its vertex "
                   "values and the b&b closes at once.")

_MC_NAME: Final = ("scaled Monte Carlo of the claim itself (200 seeded runs, CP at confidence "
                   f"{1 - MC_LEVEL})")
MC_004: Final = Check(_MC_NAME, partial(check_error_accumulation_mc, "004"),
                      constant="CLAIM_C9_BETA_FACTOR")
MC_000: Final = Check(_MC_NAME, partial(check_error_accumulation_mc, "000"))

ENTRIES: tuple[Entry, ...] = (
    Entry(
        paper="004", number="Claim C.9", kind=Kind.PROOF_STEP, status=Status.PROVED,
        step="|S_i| suffices for Theorem B.5 at (12α_i, β_i)",
        statement="(120/α_1)·VC·log(2/(α_1β_1)) >= (48/(12α_1))(10·VC·log(48e/(12α_1)) + log(5/β_1)) "
                  "with α_1 = α/48, β_1 = β/8; and (40/α_i)·VC·log(2/(α_iβ_i)) >= the same with "
                  "α_i, β_i for i >= 2 (α_i <= α/96, β_i <= β/16); with 10 in place of 12 the second fails.",
        parameter_range=E21_RANGE,
        notes="004-E21: min have/need 3.0019 at i = 1 and 1.0228 at i >= 2 on the box (enclosed "
              "windows below; they tend to 3 and 1 as α → 0); with 10 instead of 12 it is 0.847 < 1, "
              "which explains why 004 uses 12 where 000 uses 10. " + E21_NOTE,
        checks=(SUFF_C9,
                Check("min ratio i = 1 ∈ [3.0019, 3.0020] (ln)", partial(
                    check_min_ratio, B5_USES["004 C.9 base"], "ln", F(30019, 10000), F(30020, 10000),
                    (_ALPHA_LO, F(1), F(1)))),
                Check("min ratio i >= 2 ∈ [1.0227, 1.0228] (ln)", partial(
                    check_min_ratio, B5_USES["004 C.9 step"], "ln", F(10227, 10000), F(10228, 10000),
                    (_ALPHA_LO, F(1), F(1)))),
                Check("with 10 in place of 12 the step fails (b&b witness, ln and log2)",
                      partial(_both, partial(check_insufficient, B5_USES["004 C.9 step, 10"])))),
    ),
    Entry(
        paper="004", number="Claim C.9", kind=Kind.CLAIM, status=Status.CHECKED,
        statement="If D, S hold i.i.d. samples from μ, S labeled by c ∈ C and |S| >= (576000/α)·VC(C)·"
                  "log(768/(αβ)), then for every i: Pr[error_μ(c, h_i) > 12·Σ_{j<=i} α_j] <= 2·Σ_{j<=i} β_j.",
        notes="Checked: the proof's constant-carrying steps (B.5 sample sufficiency by b&b, the "
              "accumulation and base case exactly, the triangle inequality). The induction also uses "
              "Claim C.5 (per-iteration empirical error; the LabelBoost helper's entry) and Theorem B.5 "
              "(cited; checked on instances). Also a seeded Monte Carlo of the claim itself with scaled "
              "sizes (004 Algorithm 4, 004-E23: with the paper's constants the loop runs at most "
              "once): printed "
              "α_i, β_i, N = 4 iterations on THRESH[16], h_i read off the loop, exact one-sided "
              f"Clopper–Pearson at confidence {1 - MC_LEVEL}; its premise on |S| is not met at these "
              "sizes, so it "
              "is supporting evidence only and the status stays CHECKED (the exact checks establish it).",
        checks=(SUFF_C9, ACC_004, TRIANGLE, MC_004),
    ),
    Entry(
        paper="004", number="Lemma C.10", kind=Kind.PROOF_STEP, status=Status.PROVED,
        step="|S^3| suffices for Theorem B.5 at (α/2, β/2)",
        statement="(1920/α)·VC·log(768/(αβ)) >= (48/(α/2))(10·VC·log(48e/(α/2)) + log(5/(β/2))).",
        parameter_range=E21_RANGE,
        notes="004-E21: minimum ratio 2.0639 on the box. Only the sample size is fine; B.5's "
              "premise at accuracy α/2 (error_S3 <= α/20) is not available (next entry). " + E21_NOTE,
        checks=(SUFF_C10,
                Check("min ratio ∈ [2.063, 2.064] (ln)", partial(
                    check_min_ratio, B5_USES["004 C.10"], "ln", F(2063, 1000), F(2064, 1000),
                    (_ALPHA_LO, F(1), F(1))))),
    ),
    Entry(
        paper="004", number="Lemma C.10", kind=Kind.PROOF_STEP, status=Status.REFUTED,
        step="error_μ(h_fin, h_N) <= α/2 by Theorem B.5",
        statement="Given error_S3(h_fin, h_N) <= α′ (the base learner) and |S^3| >= (1920/α)·VC·"
                  "log(768/(αβ)), Theorem B.5 gives error_μ(h_fin, h_N) <= α/2 with probability >= 1 - β/2.",
        counterexample="α = α′ = β = 1/10, X = {0, 1}, C = THRESH[2 points], h_N ≡ 0, h_fin = 1 on point 0 "
                       "only, μ(0) = 3/40, |S^3| = 215,981 (the bound, ln): h_fin meets the premise "
                       "(error_S3 <= α′) except with probability <= exp(-m·KL(1/10 ‖ 3/40)) < 10^-385, yet "
                       "error_μ(h_fin, h_N) = 3/40 > α/2 always. B.5 at accuracy α/2 needs error_S3 <= α/20, "
                       "which an (α′, β′) base learner does not provide unless α′ <= α/20 (004-E9).",
        corrected="Apply B.5 at accuracy A = max(10α′, α/2): its premise error_S3 <= A/10 holds, and "
                  "(1920/α)VC log(768/(αβ)) >= B.5(α/2, β/2) >= B.5(A, β/2) samples, so error_μ(h_fin, h_N) "
                  "< max(10α′, α/2) w.p. >= 1 - β/2; with Claim C.9, IterLabelBoost on a proper "
                  "(α′, β′, n, n)-SSL is an (α + 10α′, β + β′, O(n), m)-SSL.",
        notes="Getting α′ + α/2 would need uniform convergence at deviation α/2 (Theorem B.6, ~VC/α² "
              "samples); only O(VC/α·log) are available. Whether the printed (α + α′) statement is true "
              "is open here: the counterexample refutes the inference, not the lemma.",
        checks=(Check("the step's conclusion fails on the instance (Chernoff, interval)", check_premise_gap,
                      Verdict.VIOLATED),
                SUFF_C10,
                Check("corrected bookkeeping: premise, monotonicity, α/2 + max(10α′, α/2) <= α + 10α′",
                      check_corrected_c10, constant="CORRECTED_C10_MULTIPLIER")),
    ),
    Entry(
        paper="004", number="Lemma C.10", kind=Kind.PROOF_STEP, status=Status.REFUTED,
        step="Theorem B.5 applies to the pair (h_fin, h_N)",
        statement="Theorem B.5 (uniform over pairs in C × C) bounds error_μ(h_fin, h_N) for the base "
                  "learner's output h_fin, for any (α′, β′, n, n)-SSL.",
        counterexample="An improper h_fin (not in C) that agrees with h_N on the points of S^3 and "
                       "disagrees elsewhere: THRESH on 10^7 points, μ uniform, α = 1/20, β = 1/10, "
                       "|S^3| = 458,577: error_S3 = 0 but error_μ >= 1 - 458,577/10^7 > α/2, with "
                       "probability 1 (004-E10).",
        corrected="The step holds when the base learner is proper (h_fin ∈ C): then (h_fin, h_N) ∈ C × C "
                  "and Theorem B.5 applies. Improper base learners need B.5 for a class containing "
                  "their outputs (or a DP-generalization argument).",
        notes="Affects Corollary 4.6 (RepDim, improper learners); Remark 4.3(2) concerns proper ones.",
        checks=(Check("B.5's conclusion fails for an improper pair (exact)", check_improper_pair,
                      Verdict.VIOLATED),
                B5_PROPER),
    ),
    Entry(
        paper="004", number="Lemma C.10", kind=Kind.LEMMA, status=Status.NOT_CHECKABLE,
        statement="Applying IterLabelBoost on an (α′, β′, n, n)-SSL for C results in an "
                  "(α + α′, β + β′, O(n), m)-SSL for C, m = O((1/α)·VC(C)·log(1/(αβ))).",
        reason="Quantified over every base learner, with O(·) sizes; and the printed proof does not "
               "support the (α + α′) form (step 'error_μ(h_fin, h_N) <= α/2 by Theorem B.5', "
               "004-E9) nor improper base learners (004-E10). We neither prove nor refute the statement.",
        illustration="The explicit version the proof does support: for a proper base learner, "
                     "|D| >= 90000n, |S| >= (576000/α)VC log(768/(αβ)): (α + 10α′, β + β′). Its constant "
                     "steps are the checks below (B.5 sample sufficiency, accumulation).",
        checks=(SUFF_C10, ACC_004),
        notes="Not yet done: a Monte Carlo check of the final error of IterLabelBoost with scaled "
              "constants (the error-accumulation part is checked that way under Claim C.9).",
    ),
    Entry(
        paper="004", number="Theorem C.11", kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
        statement="Applying IterLabelBoost on an (α′, β′, ε′=1, δ, n, n)-PSSL for C results in an "
                  "(α + α′, β + β′, ε′=1, 41δ, O(n), m)-PSSL, m = O((1/α)·VC(C)·log(1/(αβ))).",
        reason="Quantified over every base PSSL with O(·) sizes; its utility half is Lemma C.10, whose "
               "(α + α′) form the proof does not support (004-E9).",
        illustration="Explicit: for a proper (α′, β′, 1, δ, n, n)-PSSL, (α + 10α′, β + β′, 1, 41δ) with "
                     "|S| >= (576000/α)VC log(768/(αβ)) labeled examples; the privacy half is Lemma C.4 "
                     "(another entry), the utility constants are checked below.",
        checks=(SUFF_C10, ACC_004),
    ),
    Entry(
        paper="004", number="Theorem 4.2", kind=Kind.PROOF_STEP, status=Status.REFUTED,
        step="Claim C.1 turns the (1, 41δ) learner into an (ε, δ) learner",
        statement="Subsampling (Claim C.1 with ε* = 1) the (1, 41δ)-DP learner of Theorem C.11 at the "
                  "target ε, i.e. t = (n/ε)(3+e), gives an (ε, δ)-DP learner, for every ε <= 1.",
        counterexample="𝒜 = leak(41δ)∘randomized response(2/3) is (ln 2, 41δ)-DP, hence (1, 41δ)-DP "
                       "(δ = 1/1000); subsampling 1 of t = 6 entries (ε = (3+e)/6 ≈ 0.953) is not "
                       "(ε, δ)-DP: the exact audit finds the neighbors (0,0,0,0,0,1) / (0,0,0,0,0,0) and "
                       "the event 'leak (1,)', of probability 41δ/6 ≈ 6.8δ vs 0 (004-E13).",
        corrected="The step fails, the theorem survives: Claim C.1 at the target ε gives (ε, 4·41/(3+e)·εδ) "
                  "= (ε, ≈28.68·εδ) (audited exactly below), which is <= δ only for ε <= (3+e)/164 ≈ "
                  "0.0349; for any ε <= 1, subsampling at the lower rate ε(3+e)/164 instead (t = 164n/ε, "
                  "still O(n/ε); labeled size ×164/(3+e)) yields (ε, δ), checked exactly at ε = 1 over "
                  "every neighboring pair.",
        checks=(Check("exact audit of the subsampled 𝒜 at (ε, δ)", check_delta_step, Verdict.VIOLATED),
                DELTA_CORRECTED, DELTA_FACTOR,
                Check("rate ε(3+e)/164 (t = 164 at ε = 1): (ε, δ) over all pairs",
                      subsampling.check_rescaled_rate),
                Check("printed rate (t = 6, ε ≈ 0.953): δ over all pairs > δ",
                      partial(subsampling.check_rescaled_rate, 6), Verdict.VIOLATED)),
    ),
    Entry(
        paper="004", number="Theorem 4.2", kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
        statement="Fix α, β, ε. Applying IterLabelBoost on an (α′, β′, ε′=1, δ, n, n)-PSSL for C results "
                  "in an (α + α′, β + β′, ε, δ, O(n/ε), m)-PSSL, m = O((1/(αε))·VC(C)·log(1/(αβ))).",
        reason="Quantified over every base PSSL with O(·) sizes. The printed derivation has two gaps: "
               "the (α + α′) utility (Lemma C.10, 004-E9) and δ: Claim C.1 yields 28.68·εδ, not δ (004-E13).",
        illustration="Explicit, as the proof supports it: for a proper base PSSL, (α + 10α′, β + β′, ε, "
                     "4·41/(3+e)·εδ) with t = (n′/ε)(3+e); subsampling at ε(3+e)/164 restores δ at a "
                     "constant factor in the sizes. Checked: the δ factor and the exact audit of "
                     "Claim C.1's δ′ on a (1, 41δ)-DP mechanism.",
        checks=(DELTA_FACTOR, DELTA_CORRECTED, SUFF_C10),
    ),
    Entry(
        paper="004", number="Theorem 4.4", kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
        statement="Applying IterLabelBoost on an (α′, β′, ε′=1, δ, n, n)-PSSL for a class F results in an "
                  "(α + α′, β + β′, ε, δ, O(n/ε), m)-agnostic-PSSL using F, m = O((1/(α²ε))·VC(F)·"
                  "log(1/(αβ))).",
        reason="No proof ('minor changes in the proof of Theorem 4.2'); quantified over every base PSSL "
               "with O(·) sizes; it inherits Theorem 4.2's gaps (004-E9, 004-E13).",
        illustration="The tool an agnostic version needs is uniform convergence (Theorem B.6, m ∝ 1/α²), "
                     "which is where the 1/α² comes from: B.6 checked exactly on instances with f ∉ F.",
        checks=(AGNOSTIC,),
    ),
    Entry(
        paper="004", number="Corollary 4.5", kind=Kind.COROLLARY, status=Status.NOT_CHECKABLE,
        statement="There is a private semi-supervised learner for RECTANGLE_d^ℓ with unlabeled sample "
                  "complexity Õ_{α,β,ε,δ}(ℓ³·8^{log* d}) and labeled sample complexity O_{α,β,ε}(ℓ); "
                  "efficient when ℓ is small (roughly ℓ <= log^{1/3} d).",
        reason="Relies on the external BNS13 learner for rectangles ([8]), not described in the paper, "
               "and on asymptotic O/Õ bounds.",
        illustration="The labeled O(ℓ) comes from VC(RECTANGLE_d^ℓ) = 2ℓ through Theorem 4.2: verified "
                     "exactly for (d, ℓ) = (2,1), (2,2), (3,1). It needs >= 3 values per axis: with d = 1 "
                     "(2 values) VC = 2 and 3 for ℓ = 2, 3, below 2ℓ (harmless for an upper bound).",
        checks=(RECT,),
    ),
    Entry(
        paper="004", number="Corollary 4.6", kind=Kind.COROLLARY, status=Status.NOT_CHECKABLE,
        statement="For every class C there is a pure-private semi-supervised improper learner with labeled "
                  "sample complexity O_{α,β,ε}(VC(C)) and unlabeled sample complexity Õ_{α,β,ε}(RepDim(C)).",
        reason="Existential over all classes, through external RepDim learners ([7]) and O/Õ bounds; "
               "moreover it applies LabelBoost to an improper learner, where the utility proof's use of "
               "Theorem B.5 fails (004-E10).",
        illustration="Why improperness matters: B.5's conclusion fails deterministically for an improper "
                     "pair (h_fin, h_N) at the proof's sample size (exact check below, VIOLATED is the "
                     "expected failure of B.5 and is reported as HOLDS here).",
        checks=(Check("an improper pair escapes Theorem B.5 (exact)",
                      lambda: expect_violation(check_improper_pair("004"))),),
        notes="000 Corollary 4.18 states O_{α,β,ε}(RepDim(C)) unlabeled, 004 states Õ (inventory §1.4).",
    ),
)

