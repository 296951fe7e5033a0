"""Ledger: 003 Theorem 3.1 at explicit sample sizes (our instantiation), audited by seeded Monte Carlo.

The paper states Theorem 3.1 with O(·) sizes only (the entry ``003 Theorem 3.1`` is
NOT_CHECKABLE).  Inventory §3 gives an explicit-constant instantiation [ours]:

(i)   cover at scale α/4: 2(2e·n_pub/d)^{2d}·e^{−(α/4)·n_pub/4} <= β/3 and 2n_pub >= d
      (inequality (1) of Lemma 3.3 at α/4, :func:`privref.proofs.p003.upper.inequality_1_rhs`);
(ii)  uniform convergence over the fixed cover H̃ (|H̃| <= N = Σ_{i<=d} C(n_pub, i), Sauer–Shelah):
      n_priv >= 8·ln(6N/β)/α²;
(iii) exponential mechanism: n_priv >= 8·ln(3N/β)/(ε·α);

so that, with probability >= 1 − β, err(h_priv; D) <= min_H err(·; D) + α.
:func:`explicit_sample_sizes` returns the smallest such (n_pub, n_priv), decided with exact
and interval arithmetic (:mod:`privref.reference.decide`).

The Monte Carlo check runs A_SSPP (:mod:`privref.reference.learners.semiprivate`) at those sizes on
THRESH[1000] (d = 1) with α = 1/4, β = 1/10, ε = 2 ln(5/3) (rational base 5/3), on an
agnostic distribution (ramp marginal, labels of a threshold flipped w.p. 1/10) and a
realizable one, counts runs with exact excess error > α, and compares exact one-sided
Clopper–Pearson bounds (:mod:`privref.audits.stats`) with β.

Sampling.  Every random decision is integer: points by ``rng.integers(W)`` against integer
cumulative weights, label flips by ``rng.integers(Q) < numerator``, and the learner's own
exact categorical draw: each run calls ``learner.sample`` of the one A_SSPP program (about
20–40 ms per run at these sizes, the agreement counts being
:func:`privref.reference.learners.semiprivate.cover_agreements`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Final

import numpy as np

from privref.audits.stats import bonferroni, cp_lower, cp_upper
from privref.reference.concepts import ConceptClass, thresholds_on
from privref.reference.data import Dataset, labeled, unlabeled
from privref.reference.decide import all_hold, at_most, proved_le, proved_lt
from privref.reference.errors import InvalidArgument
from privref.reference.learners.semiprivate import sspp_learner
from privref.reference.privacy import parse_epsilon
from privref.reference.reals import Interval, Real, log
from privref.reference.validate import check_int, to_fraction
from privref.reference.vc import sauer_shelah_bound

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import decimal, fixed, interval_text
from .upper import inequality_1_rhs

__all__ = [
    "ENTRIES",
    "MC_ALPHA",
    "MC_BASE",
    "MC_BETA",
    "MC_LEVEL",
    "MC_POINTS",
    "MC_RUNS",
    "MC_SEED",
    "SIZE_GRID",
    "THEOREM_3_1_MC",
    "McCase",
    "McResult",
    "agnostic_case",
    "check_explicit_sizes_arithmetic",
    "check_theorem_3_1_mc",
    "cover_condition",
    "dataset",
    "em_condition",
    "explicit_sample_sizes",
    "points_of",
    "realizable_case",
    "run_case",
    "uc_condition",
]

# ------------------------------------------------------------------ explicit sizes


def cover_condition(n_pub: int, d: int, alpha: Fraction, beta: Fraction) -> bool:
    """(i): 2n_pub >= d and 2(2e·n_pub/d)^{2d}·e^{−(α/4)·n_pub/4} <= β/3 (exact, interval-decided)."""
    return 2 * n_pub >= d and proved_le(inequality_1_rhs(n_pub, d, alpha / 4), beta / 3)


def uc_condition(n_priv: int, N: int, alpha: Fraction, beta: Fraction) -> bool:
    """(ii): n_priv >= 8·ln(6N/β)/α², i.e. ln(6N/β) <= n_priv·α²/8."""
    return proved_le(log(6 * N / beta), n_priv * alpha**2 / 8)


def em_condition(n_priv: int, N: int, alpha: Fraction, beta: Fraction, epsilon: Real) -> bool:
    """(iii): n_priv >= 8·ln(3N/β)/(ε·α), i.e. ln(3N/β) <= ε·n_priv·α/8."""
    return proved_le(log(3 * N / beta), epsilon * (n_priv * alpha / 8))


def _smallest(ok: Callable[[int], bool], start: int) -> int:
    """The smallest n >= start with ok(n), for a monotone (up-closed) predicate: doubling, bisection."""
    if ok(start):
        return start
    lo, step = start, 1          # ok(lo) is False
    hi = start + step
    while not ok(hi):
        lo, step = hi, step * 2
        hi = start + step
    while hi - lo > 1:           # ok(hi), not ok(lo)
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def explicit_sample_sizes(d: int, alpha: object, beta: object, epsilon: object) -> tuple[int, int]:
    """The smallest (n_pub, n_priv) of 003 Theorem 3.1, explicit-constant instantiation (ours, inventory §3).

    n_pub: the smallest n with (i) 2n >= d and 2(2e·n/d)^{2d}·e^{−(α/4)n/4} <= β/3 (cover at
    scale α/4 with probability >= 1 − β/3, Lemma 3.3's inequality (1)).  For n >= d/2 the set
    of such n is up-closed: ln of the left side, 2d·ln(2en/d) + ln 2 − αn/16, is concave in n
    and exceeds ln(β/3) at n = d/2 (it is >= 2d − d/32 + ln 2 > 0 there), so the n where (1)
    fails form an interval containing d/2.  Hence bisection finds the smallest n.

    n_priv: with N = Σ_{i<=d} C(n_pub, i) >= |H̃| (Sauer–Shelah; <= (e·n_pub/d)^d), the smallest
    n with (ii) n >= 8 ln(6N/β)/α² (uniform convergence over the fixed H̃, Hoeffding + union
    bound, β/3) and (iii) n >= 8 ln(3N/β)/(εα) (exponential mechanism, β/3).

    Every comparison is exact or decided by interval arithmetic (:mod:`privref.reference.decide`;
    :class:`~privref.reference.errors.Undecided` when one cannot be decided); ``epsilon`` is any
    exact ε > 0 (a Fraction, or a Real such as 2·ln(5/3)).
    """
    d = check_int(d, "d", minimum=1)
    a, b = to_fraction(alpha, "alpha"), to_fraction(beta, "beta")
    for name, v in (("alpha", a), ("beta", b)):
        if not 0 < v < 1:
            raise InvalidArgument(f"{name}={v} must lie in (0, 1)")
    eps = parse_epsilon(epsilon)
    if not proved_lt(0, eps):
        raise InvalidArgument(f"epsilon={eps} must be > 0")
    n_pub = _smallest(lambda n: cover_condition(n, d, a, b), -(-d // 2))
    N = sauer_shelah_bound(n_pub, d)
    n_uc = _smallest(lambda n: uc_condition(n, N, a, b), 1)
    n_em = _smallest(lambda n: em_condition(n, N, a, b, eps), 1)
    return n_pub, max(n_uc, n_em)


# ------------------------------------------------------------------ instances


@dataclass(frozen=True, slots=True)
class McCase:
    """A distribution D on {0..k−1} × {0, 1} with exact rational probabilities.

    μ(x) = weights[x] / Σ weights; P[y = 1 | x] = ones[x] / label_den.
    """

    name: str
    points: int
    weights: tuple[int, ...]
    ones: tuple[int, ...]
    label_den: int

    def __post_init__(self) -> None:
        if len(self.weights) != self.points or len(self.ones) != self.points:
            raise InvalidArgument("weights and ones need one entry per point")
        if any(w < 0 for w in self.weights) or not sum(self.weights):
            raise InvalidArgument("weights must be >= 0, not all 0")
        if any(not 0 <= o <= self.label_den for o in self.ones):
            raise InvalidArgument("ones must lie in [0, label_den]")


def agnostic_case(k: int = 1000) -> McCase:
    """μ(x) ∝ x + 1 (ramp), y = c_t(x) flipped w.p. 1/10, t the μ-median (t = 707 for k = 1000)."""
    total = k * (k + 1) // 2
    t = next(j for j in range(k + 1) if 2 * (j * (j + 1) // 2) >= total)
    return McCase(f"agnostic (μ(x) ∝ x+1, y = c_{t}(x) flipped w.p. 1/10)", k,
                  tuple(x + 1 for x in range(k)), tuple(9 if x < t else 1 for x in range(k)), 10)


def realizable_case(k: int = 1000) -> McCase:
    """μ(x) ∝ k − x (decreasing ramp), y = c_t(x) with t = k // 5 (μ(c_t = 1) = 0.36 for k = 1000)."""
    t = k // 5
    return McCase(f"realizable (μ(x) ∝ {k}−x, y = c_{t}(x))", k,
                  tuple(k - x for x in range(k)), tuple(1 if x < t else 0 for x in range(k)), 1)


def _draw_points(rng: np.random.Generator, cum: np.ndarray, n: int) -> np.ndarray:
    """n i.i.d. points with P[x] = weights[x]/W: integer U uniform in [0, W), x = #{i : cum[i] <= U}."""
    return points_of(cum, rng.integers(int(cum[-1]), size=n, dtype=np.int64))


def points_of(cum: np.ndarray, u: np.ndarray) -> np.ndarray:
    """x = #{i : cum[i] <= u} for integers u in [0, W): exactly weights[x] of the W values map to x."""
    out: np.ndarray = np.searchsorted(cum, u, side="right").astype(np.int64)
    return out


def _draw_labels(rng: np.random.Generator, ones: np.ndarray, den: int, xs: np.ndarray) -> np.ndarray:
    """y = 1 iff an integer U uniform in [0, den) is < ones[x] (exact probability ones[x]/den)."""
    u = rng.integers(den, size=len(xs), dtype=np.int64)
    out: np.ndarray = (u < ones[xs]).astype(np.int64)
    return out


# ------------------------------------------------------------------ exact errors


@cache
def _thresholds(k: int) -> ConceptClass:
    return thresholds_on(k)


@cache
def _label_matrix(concepts: ConceptClass) -> np.ndarray:
    """Row i: the labels of concept i of H on the domain points, in domain order (int64)."""
    return np.array([c.labels for c in concepts.concepts], dtype=np.int64).reshape(
        len(concepts), len(concepts.domain))


def dataset(public: Sequence[int], xs: np.ndarray, ys: np.ndarray) -> Dataset:
    """A_SSPP's one database: T_pub unlabeled, then S_priv labeled."""
    return (tuple(unlabeled(int(x)) for x in public)
            + tuple(labeled(int(x), int(y)) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)))


# ------------------------------------------------------------------ Monte Carlo

MC_ALPHA: Final = Fraction(1, 4)
MC_BETA: Final = Fraction(1, 10)
MC_BASE: Final = Fraction(5, 3)
"""e^{ε/2} = 5/3: ε = 2 ln(5/3) ≈ 1.0217 (a rational base keeps every weight an exact rational)."""
MC_POINTS: Final = 1000
MC_RUNS: Final = 200
MC_SEED: Final = 20260031
MC_LEVEL: Final = Fraction(1, 10**6)
"""Overall error level; each of the two cases gets level/2 (Bonferroni): confidence 1 − 10⁻⁶
(small enough for the test suite's false-positive budget, docs/test-budget.md)."""

_MC_D: Final = 1
"""VC(THRESH[k]) = 1."""


@dataclass(frozen=True, slots=True)
class McResult:
    """Failures (excess > α) of ``runs`` seeded runs of one case, with exact excess statistics."""

    case: McCase
    n_pub: int
    n_priv: int
    runs: int
    seed: int
    failures: int
    max_excess: Fraction
    mean_excess: Fraction
    witness: str | None


def _excess_numerators(case: McCase, concepts: ConceptClass) -> tuple[np.ndarray, int]:
    """(err(h; D)·W·Q − min_H err·W·Q for every h of H, W·Q): exact integers.

    err(h)·W·Q = Σ_x w(x)·(Q − ones[x] if h(x) = 1 else ones[x]).
    """
    w = np.array(case.weights, dtype=np.int64)
    ones = np.array(case.ones, dtype=np.int64)
    a1 = w * ones                        # mass of (x, 1): a mistake when h(x) = 0
    a0 = w * (case.label_den - ones)     # mass of (x, 0): a mistake when h(x) = 1
    err = int(a1.sum()) + _label_matrix(concepts) @ (a0 - a1)
    return err - err.min(), int(w.sum()) * case.label_den


@cache
def run_case(case: McCase, n_pub: int, n_priv: int, runs: int = MC_RUNS, seed: int = MC_SEED
             ) -> McResult:
    """``runs`` seeded runs (child i of SeedSequence(seed) drives run i) of A_SSPP on ``case``.

    Per run: T_pub ~ μ^{n_pub}, S_priv ~ D^{n_priv}, h_priv = ``learner.sample`` of
    ``sspp_learner(THRESH[k], public_size=n_pub, epsilon=log(MC_BASE) * 2)`` on that database.
    The excess err(h_priv; D) − min_H err(·; D) is exact.  Deterministic and cached.
    """
    H = _thresholds(case.points)
    learner = sspp_learner(H, public_size=n_pub, epsilon=log(MC_BASE) * 2)
    index = {h: i for i, h in enumerate(H.concepts)}
    excess, den = _excess_numerators(case, H)
    cum = np.cumsum(np.array(case.weights, dtype=np.int64))
    ones = np.array(case.ones, dtype=np.int64)
    limit = MC_ALPHA * den              # excess > α  <=>  numerator > α·W·Q
    failures, worst, total = 0, 0, 0
    witness: str | None = None
    for run, child in enumerate(np.random.SeedSequence(seed).spawn(runs)):
        rng = np.random.default_rng(child)
        public = _draw_points(rng, cum, n_pub).tolist()
        xs = _draw_points(rng, cum, n_priv)
        ys = _draw_labels(rng, ones, case.label_den, xs)
        h = learner.sample(dataset(public, xs, ys), rng)
        e = int(excess[index[h]])
        worst, total = max(worst, e), total + e
        if e > limit:
            failures += 1
            if witness is None:
                witness = (f"run {run} (seed {seed}, child {run}): h_priv = {h.name}, excess "
                           f"{Fraction(e, den)} > α = {MC_ALPHA}")
    return McResult(case, n_pub, n_priv, runs, seed, failures, Fraction(worst, den),
                    Fraction(total, den * runs), witness)


def check_theorem_3_1_mc(runs: int = MC_RUNS, seed: int = MC_SEED, level: Fraction = MC_LEVEL,
                         k: int = MC_POINTS) -> CheckResult:
    """Monte Carlo of 003 Theorem 3.1 at the explicit sizes of :func:`explicit_sample_sizes`.

    H = THRESH[k] (d = 1), α = 1/4, β = 1/10, ε = 2 ln(5/3); cases :func:`agnostic_case` and
    :func:`realizable_case`; ``runs`` runs each.  Per case, with failures f = #{excess > α}
    and exact one-sided Clopper–Pearson bounds at level/2: VIOLATED if cp_lower(f) > β
    (the data contradict the theorem's instance), HOLDS if every case has cp_upper(f) <= β,
    UNDECIDED otherwise.  The sizes come from :func:`explicit_sample_sizes`, looked up at run
    time; the seed is part of the evidence.
    """
    eps = parse_epsilon(log(MC_BASE) * 2)
    sizes = explicit_sample_sizes(_MC_D, MC_ALPHA, MC_BETA, eps)
    np_, nq = sizes
    per = bonferroni(level, 2)
    parts, verdicts, witness = [], [], None
    for case in (agnostic_case(k), realizable_case(k)):
        r = run_case(case, np_, nq, runs, seed)
        cp = Interval(cp_lower(r.failures, runs, per), cp_upper(r.failures, runs, per))
        found = at_most(cp, MC_BETA)  # the CP interval decides P[excess > α] <= β, or not
        verdicts.append(found)
        if found is Verdict.VIOLATED:
            witness = witness or (f"{case.name}: {r.failures}/{runs} failures, CP lower "
                                  f"{decimal(cp.lo, 4)} > β = {MC_BETA}; first: {r.witness}")
        parts.append(f"{case.name}: {r.failures}/{runs} runs with excess > {MC_ALPHA}, CP "
                     f"{interval_text(cp, 4)} vs β = {MC_BETA}, max excess "
                     f"{decimal(r.max_excess, 4)}, mean "
                     f"{decimal(r.mean_excess, 4)}")
    n_cov = sauer_shelah_bound(np_, _MC_D)
    text = (f"A_SSPP on THRESH[{k}] (d = 1), α = {MC_ALPHA}, β = {MC_BETA}, ε = 2 ln(5/3) ≈ "
            f"{fixed(eps, 4)}; explicit sizes n_pub = {np_}, n_priv = {nq}"
            f", N = {n_cov}; seed {seed}, {runs} runs per case, one-sided CP at level {per} per "
            f"case (confidence {1 - level}): " + "; ".join(parts))
    verdict = all_hold(verdicts)
    return CheckResult(verdict, text, witness if verdict is Verdict.VIOLATED else None,
                       confidence=1 - level)


# ------------------------------------------------------------------ arithmetic check

_GRID_EPS: Final = (parse_epsilon(1), parse_epsilon(Fraction(1, 10)), log(MC_BASE) * 2)
SIZE_GRID: Final = tuple((d, a, b, e) for d in (1, 2, 3)
                         for a in (Fraction(1, 4), Fraction(1, 10))
                         for b in (Fraction(1, 10), Fraction(1, 100))
                         for e in _GRID_EPS)
"""(d, α, β, ε) on which :func:`check_explicit_sizes_arithmetic` verifies (i)–(iii) and minimality."""


def check_explicit_sizes_arithmetic(grid: Sequence[tuple[int, Fraction, Fraction, Real]] = SIZE_GRID
                                    ) -> CheckResult:
    """Per (d, α, β, ε): the sizes satisfy (i)–(iii); n_pub − 1 fails (i); n_priv − 1 fails (ii) or (iii)."""
    rows: list[str] = []
    for d, a, b, e in grid:
        n_pub, n_priv = explicit_sample_sizes(d, a, b, e)
        N = sauer_shelah_bound(n_pub, d)
        ok = (cover_condition(n_pub, d, a, b) and uc_condition(n_priv, N, a, b)
              and em_condition(n_priv, N, a, b, e))
        minimal = (not cover_condition(n_pub - 1, d, a, b)
                   and not (uc_condition(n_priv - 1, N, a, b)
                            and em_condition(n_priv - 1, N, a, b, e)))
        row = f"(d={d}, α={a}, β={b}, ε={e}): n_pub={n_pub}, n_priv={n_priv}"
        if not (ok and minimal):
            return CheckResult(Verdict.VIOLATED, f"{'not satisfied' if not ok else 'not minimal'}: "
                               f"{row}", row)
        rows.append(row)
    return CheckResult(Verdict.HOLDS, f"{len(rows)} grid points satisfy (i)–(iii) and are minimal; "
                       + "; ".join(r for r in rows if "ε=1)" in r and "d=1" in r))


# ------------------------------------------------------------------ entry

_STATEMENT = ("With N = Σ_{i<=d} C(n_pub, i), A_SSPP is (α, β, ε)-accurate (P[err(h_priv; D) > "
              "min_H err(·; D) + α] <= β for every D) when n_pub is the smallest n with 2n >= d and "
              "2(2e·n/d)^{2d}·e^{−(α/4)n/4} <= β/3, and n_priv = max(⌈8 ln(6N/β)/α²⌉, "
              "⌈8 ln(3N/β)/(εα)⌉) (smallest integers; ours, inventory §3).")

THEOREM_3_1_MC = Entry(
    paper="003", number="Theorem 3.1", kind=Kind.PROOF_STEP, status=Status.AUDITED,
    step="explicit instantiation (ours): Monte Carlo at n_pub, n_priv from (i)–(iii)",
    statement=_STATEMENT, confidence=1 - MC_LEVEL,
    checks=(Check("Monte Carlo at the explicit sizes (THRESH[1000], α = 1/4, β = 1/10, ε = 2 ln(5/3); "
                  f"agnostic and realizable; 200 seeded runs each; CP at confidence {1 - MC_LEVEL})",
                  check_theorem_3_1_mc),
            Check("the sizes satisfy (i)–(iii) and are minimal on a (d, α, β, ε) grid",
                  check_explicit_sizes_arithmetic)),
    subjects=("reference.learners.semiprivate",),
    notes="Our reconstruction, not the paper's constants: the paper gives only O(·) sizes and "
          "defers the proof to [ABM19]. The chain: cover at α/4 (Lemma 3.3's inequality (1) at "
          "α/4, β/3), uniform convergence over the fixed H̃ at α/4 (Hoeffding + union bound, β/3), "
          "exponential mechanism within α/4 of the empirical optimum (β/3), so err(h_priv) <= "
          "err(h*) + α. The sizes are decided exactly (interval arithmetic); N uses the exact "
          "Sauer–Shelah sum instead of (e·n_pub/d)^d. The Monte Carlo is supporting evidence on "
          "two distributions only (one-sided Clopper–Pearson, Bonferroni over the two cases); "
          "the constants are loose, so the observed failure rate is far below β. Every run is "
          "the reference sampler of the one A_SSPP program (learner.sample).")

ENTRIES: tuple[Entry, ...] = (THEOREM_3_1_MC,)
