"""Ledger: PATE-ASQ (001 Algorithm 5) with the IWAL-CAL student stays post-processing of <= ℓ labels.

001 states no theorem for Algorithm 5's privacy: it follows from Theorem 2 (each released label is
one query of Algorithm 1) by adaptive composition over at most ℓ queries and post-processing
(Lemma 40), provided the student's decisions depend only on the released labels, the public
points and its own coins.  The experiments' student is IWAL-CAL
(:mod:`privref.reference.learners.iwal`, Beygelzimer–Hsu–Langford–Zhang 2010 Algorithm 1), whose
query coins are random choices of the same program.  The check computes the EXACT law of the
whole ASQ program on a finite instance and verifies the ℓ-fold composition bound for every pair of
neighbouring vote vectors:

* public points 0, 1, 2 on a line; hypotheses the thresholds h_t(x) = 1[x >= t], t = 0..3, with an
  exact importance-weighted ERM oracle (ties to the smallest t); C0 = :data:`CHECK_C0`, small
  enough that the coins have probabilities strictly between 0 and 1;
* K = 2 teachers and a rational label mechanism whose per-query likelihood ratio between vote
  counts v and v ± 1 is at most 2 (P[y = 1 | v] = (1 + v)/(K + 2): a pure ln 2-DP release);
* every pair of vote vectors in {0, 1, 2}³ that differ by at most 1 at each point (one teacher
  changes: 001's per-record split); for every outcome o (requested positions, answers, coin
  probabilities and output hypothesis) P_D[o] <= 2^ℓ·P_D'[o] exactly, ℓ = :data:`CHECK_BUDGET`.

The check is VIOLATED when the student reads a private vote directly (outcomes then differ between
neighbours beyond the bound, typically with probability 0 on one side) or requests more than ℓ
labels (the labeling service refuses, the run raises).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, Final

from privref.reference.errors import InvalidArgument
from privref.reference.learners.iwal import IwalRun, WeightedExample, iwal_cal_program
from privref.reference.pate_learning import asq
from privref.reference.program import Program, distribution

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict

__all__ = [
    "CHECK_BUDGET",
    "CHECK_C0",
    "ENTRIES",
    "ThresholdOracle",
    "check_asq_iwal_post_processing",
    "honest_student",
    "rational_label",
]

CHECK_C0: Final = 0.01
"""C0 of the IWAL-CAL student in the check (small: coins strictly between 0 and 1 occur)."""

CHECK_BUDGET: Final = 2
"""ℓ of the check: at most 2 of the 3 public labels may be released."""

_K: Final = 2
_POINTS: Final = 3
Votes = tuple[int, ...]
Learner = Callable[[Callable[[int], Program[int]]], Program[Any]]
StudentFactory = Callable[[Votes], Learner]
"""student(votes) -> learner: the votes are passed ONLY so that a mutant can misuse them; an
honest student ignores them (it may read public points, its coins and the service's answers)."""


class ThresholdOracle:
    """Exact importance-weighted ERM over thresholds h_t(x) = 1[x >= t], t = 0..points, on
    points x = position (ties to the smallest t); a constrained fit keeps only the thresholds
    with h_t(forced position) = forced label (None if there are none)."""

    def __init__(self, points: int) -> None:
        """Thresholds on ``points`` public points 0..points − 1."""
        self.points = points

    def fit(self, examples: Sequence[WeightedExample],
            forced: tuple[int, int] | None) -> int | None:
        """The smallest t minimising Σ (1/P_i)·1[h_t(x_i) ≠ y_i] (under the constraint)."""
        best: tuple[Fraction, int] | None = None
        for t in range(self.points + 1):
            if forced is not None and int(forced[0] >= t) != forced[1]:
                continue
            err = sum((e.weight for e in examples if int(e.position >= t) != e.label), Fraction(0))
            if best is None or err < best[0]:
                best = (err, t)
        return None if best is None else best[1]

    def predict(self, h: int, positions: Sequence[int]) -> Sequence[int]:
        """h_t's labels at the positions."""
        return [int(p >= h) for p in positions]


def rational_label(vote: int, k: int) -> Program[int]:
    """One released label with P[y = 1] = (1 + vote)/(k + 2): between vote counts v and v ± 1 the
    likelihood ratio of either answer is at most 2 (a pure ln 2-DP query; a stand-in for 001
    Algorithm 1 with an exact rational law)."""
    from privref.reference.program import bernoulli
    if not 0 <= vote <= k:
        raise InvalidArgument(f"vote={vote} must lie in [0, {k}]")
    y = yield from bernoulli(Fraction(1 + vote, k + 2))
    return int(y)


def honest_student(votes: Votes) -> Learner:
    """IWAL-CAL with the exact threshold oracle (reads only the service's answers and its coins)."""
    del votes  # never read: the point of the check

    def learner(service: Callable[[int], Program[int]]) -> Program[IwalRun[int]]:
        return iwal_cal_program(_POINTS, service, ThresholdOracle(_POINTS), budget=CHECK_BUDGET,
                                c0=CHECK_C0)
    return learner


def _key(out: Any, model_key: Callable[[Any], Hashable]) -> Hashable:
    probabilities = tuple(getattr(out, "probabilities", ()))
    return (tuple(out.queried), tuple(out.labels), probabilities, model_key(out.model))


def _law(votes: Votes, student: StudentFactory,
         model_key: Callable[[Any], Hashable]) -> dict[Hashable, Fraction]:
    def program() -> Program[Hashable]:
        out = yield from asq(votes, _K, rational_label, student(votes), CHECK_BUDGET)
        return _key(out, model_key)
    law = distribution(program)
    result: dict[Hashable, Fraction] = {}
    for outcome, p in law.items():
        if not isinstance(p, Fraction):
            raise InvalidArgument("the check's law must be exact")
        result[outcome] = p
    return result


def _neighbours(v: Votes) -> list[Votes]:
    ranges = [range(max(0, x - 1), min(_K, x + 1) + 1) for x in v]
    return [w for w in itertools.product(*ranges) if w != v]


def check_asq_iwal_post_processing(student: StudentFactory = honest_student,
                                   model_key: Callable[[Any], Hashable] = lambda h: h,
                                   ) -> CheckResult:
    """For every pair of neighbouring vote vectors and every outcome, P_D[o] <= 2^ℓ·P_D'[o]
    exactly (module docstring); VIOLATED with a witness otherwise, or when the student asks the
    service for more than ℓ labels."""
    bound = Fraction(2) ** CHECK_BUDGET
    laws: dict[Votes, dict[Hashable, Fraction]] = {}
    vectors = list(itertools.product(range(_K + 1), repeat=_POINTS))
    try:
        for v in vectors:
            laws[v] = _law(v, student, model_key)
    except InvalidArgument as exc:
        return CheckResult(Verdict.VIOLATED, f"the ASQ run failed: {exc}", witness=str(exc))
    coins = sorted({p for law in laws.values() for o in law for p in o[2]  # type: ignore[index]
                    if 0 < p < 1})
    worst = Fraction(0)
    pairs = 0
    for v in vectors:
        for w in _neighbours(v):
            pairs += 1
            for o, p in laws[v].items():
                q = laws[w].get(o, Fraction(0))
                if p > bound * q:
                    return CheckResult(
                        Verdict.VIOLATED,
                        f"votes {v} vs neighbour {w}: outcome {o} has probability {p} against "
                        f"{q}, above the 2^{CHECK_BUDGET} = {bound} bound",
                        witness=f"{v} / {w} / {o}")
                if q:
                    worst = max(worst, p / q)
    if not coins:
        return CheckResult(Verdict.UNDECIDED, "no query coin strictly between 0 and 1 occurred: "
                           "the instance does not exercise IWAL's coins")
    return CheckResult(
        Verdict.HOLDS,
        f"{len(vectors)} vote vectors, {pairs} ordered neighbour pairs, "
        f"{sum(len(law) for law in laws.values())} outcomes in all; largest ratio {worst} <= "
        f"2^{CHECK_BUDGET}; IWAL query coins seen at {len(coins)} probabilities in (0, 1), "
        f"from {float(coins[0]):.4f} to {float(coins[-1]):.4f}")


ENTRIES: tuple[Entry, ...] = (
    Entry(
        paper="001", number="Theorem 2",
        step="ASQ with the IWAL-CAL student is post-processing of <= ℓ labels",
        statement=("001 Algorithm 5 (L537–547) with the experiments' active student IWAL-CAL "
                   "(Beygelzimer–Hsu–Langford–Zhang 2010 Algorithm 1; exact query coins, "
                   "weights 1/P, no inferred labels): the student requests at most ℓ labels and "
                   "its requests, coins and output depend only on the public points and the "
                   "released labels, so by Theorem 2, adaptive composition over ℓ queries and "
                   "Lemma 40 the whole run has the privacy of ℓ queries of Algorithm 1.  "
                   "Checked exactly on a finite instance: with a pure ln 2-DP label release, the "
                   "law of the whole ASQ run (query coins included) changes by at most 2^ℓ "
                   "between any two neighbouring vote vectors."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exact law of ASQ + IWAL-CAL on 3 points, K = 2, ℓ = 2: ratio <= 2^ℓ",
                      check_asq_iwal_post_processing),),
        notes=("The app's student (privref.app.experiments.pate_students_active) is the same "
               "program with a logistic-regression ERM oracle; tests/app run this check with it "
               "on a tiny instance.  Query decisions depend on the labels already released, so "
               "the realized number of queries (hence ε_ex_post) is data-dependent; the "
               "guarantee is the ℓ-query ε."),
        subjects=("reference.learners.iwal.iwal_cal_program", "reference.pate_learning.asq")),
)
