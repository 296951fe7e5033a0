"""The exact auditor of prediction algorithms: private prediction and uniform stability, per query.

Paper 002 (Dagan and Feldman 2020, §2) states its guarantees
about the law of ONE answer A(S, x) in {0, 1}.  For a finite universe of datasets and a finite
set of query points, this auditor computes every law P = A(a, x), Q = A(b, x) exactly once
(:meth:`privref.reference.prediction.Predictor.law`) and, for every ordered neighboring pair
(a, b), every query x and every label y, decides the claim soundly:

* (ε, δ)-private prediction: P(y) ≤ e^ε·Q(y) + δ.  With two outcomes and e^ε ≥ 1 at most one
  label can exceed e^ε·Q, so the largest per-label excess equals the hockey-stick divergence
  of the pair, decided by :func:`privref.audits.loss.hockey_stick` (the exact auditor's own
  pair machinery, not a second solver);
* γ-uniform stability: |P(y) − Q(y)| ≤ γ, decided by :func:`privref.reference.reals.compare`
  (three-valued) or, for enclosed laws, by interval arithmetic.

It also reports the exact worst-case γ and the worst-case ε at the claimed δ (at δ = 0 for a
stability claim) from :func:`privref.audits.loss.epsilon_at_delta`, each with a witness
(a, b, x, y).  HOLDS and VIOLATED are proved; anything else is UNDECIDED, after laws with
irrational probabilities are recomputed at doubled precision up to ``max_precision``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import assert_never

from privref.reference.data import Dataset, as_dataset
from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import MAX_PAIRS, Universe, check_neighbors
from privref.reference.prediction import (
    PredictionClaim,
    Predictor,
    PrivatePrediction,
    UniformStability,
)
from privref.reference.program import MAX_PATHS, Distribution
from privref.reference.reals import (
    DEFAULT_PRECISION,
    Order,
    Real,
    compare,
    exp,
    log,
    prob_as_interval,
    rational,
)
from privref.reference.validate import check_int
from privref.reference.verdict import Verdict

from .loss import PairEpsilon, epsilon_at_delta, hockey_stick

__all__ = ["PredictionAuditReport", "PredictionWitness", "audit_prediction",
           "audit_prediction_pair"]


@dataclass(frozen=True, slots=True)
class PredictionWitness:
    """Where a per-query quantity is attained: datasets a, b (neighbors), query x, label y.

    ``y`` is None only for an ε witness whose pair has no label with P(y) > e^ε·Q(y).
    """

    a: Dataset
    b: Dataset
    x: Hashable
    y: int | None


@dataclass(frozen=True, slots=True)
class PredictionAuditReport:
    """The exact audit of a per-query claim over every neighboring pair and query.

    ``verdict`` is proved (HOLDS / VIOLATED) or UNDECIDED; ``verdict_witness`` is the first
    violation, else the widest undecided case.  The worst-case γ = max |P(y) − Q(y)| lies in
    [``gamma_lower``, ``gamma_upper``] (``gamma_exact`` when every law is rational).  The
    worst-case ε at ``delta`` (the claim's δ, or 0 for a stability claim) lies in
    [``epsilon_lower``, ``epsilon_upper``] (``epsilon_exact`` symbolically, e.g. ln 3, when
    known; ``epsilon_upper`` None when unbounded; ``epsilon_infinite`` when proved ∞).
    """

    predictor: str
    source: str
    claim: PredictionClaim
    relation: str
    universe: str
    queries: tuple[Hashable, ...]
    pairs: int
    verdict: Verdict
    verdict_witness: PredictionWitness | None
    gamma_lower: Fraction
    gamma_upper: Fraction
    gamma_exact: Fraction | None
    gamma_witness: PredictionWitness
    delta: Fraction
    epsilon_exact: Real | None
    epsilon_lower: Fraction
    epsilon_upper: Fraction | None
    epsilon_infinite: bool
    epsilon_witness: PredictionWitness
    precision: int


@dataclass(frozen=True, slots=True)
class _Finding:
    """One (a, b, x): verdict (with label), gap enclosure max_y |P(y) − Q(y)|, and e^ε."""

    verdict: Verdict
    verdict_label: int | None
    width: Fraction
    gap_lo: Fraction
    gap_hi: Fraction
    gap_exact: Fraction | None
    gap_label: int
    epsilon: PairEpsilon
    precision: int


class _Laws:
    def __init__(self, predictor: Predictor, max_paths: int) -> None:
        self.predictor = predictor
        self.max_paths = max_paths
        self.store: dict[tuple[Dataset, Hashable, int], Distribution[int]] = {}

    def get(self, data: Dataset, x: Hashable, prec: int) -> Distribution[int]:
        key = (data, x, prec)
        law = self.store.get(key)
        if law is None:
            law = self.predictor.law(data, x, precision=prec, max_paths=self.max_paths)
            self.store[key] = law
        return law


def _private_verdict(p: Distribution[int], q: Distribution[int], t: Real, delta: Fraction,
                     prec: int) -> tuple[Verdict, int | None, Fraction]:
    """P(y) ≤ t·Q(y) + δ for both y: the hockey-stick divergence of the binary pair vs δ."""
    value, margin, event = hockey_stick(p, q, t, prec)
    box = prob_as_interval(value)
    label = event[0] if event else None
    if box.hi <= delta:
        return Verdict.HOLDS, None, Fraction(0)
    if margin > delta:
        return Verdict.VIOLATED, label, Fraction(0)
    return Verdict.UNDECIDED, label, box.width


def _gaps(p: Distribution[int], q: Distribution[int]
          ) -> tuple[Fraction, Fraction, Fraction | None, int]:
    """Enclosure [lo, hi] of max_y |P(y) − Q(y)|, its exact value when known, and a label."""
    lo, hi, exact, label = Fraction(-1), Fraction(-1), Fraction(0), 0
    all_exact = True
    for y in (0, 1):
        py, qy = p.prob(y), q.prob(y)
        if isinstance(py, Fraction) and isinstance(qy, Fraction):
            g_lo = g_hi = abs(py - qy)
            exact = max(exact, g_lo)
        else:
            all_exact = False
            diff = prob_as_interval(py) - prob_as_interval(qy)
            g_hi = max(diff.hi, -diff.lo)
            g_lo = max(Fraction(0), diff.lo, -diff.hi)
        if g_lo > lo:
            lo, label = g_lo, y
        hi = max(hi, g_hi)
    return lo, hi, exact if all_exact else None, label


def _stability_verdict(p: Distribution[int], q: Distribution[int], gamma: Real, prec: int
                       ) -> tuple[Verdict, int | None, Fraction]:
    """|P(y) − Q(y)| ≤ γ for both y: exact gaps via compare, enclosed gaps via intervals."""
    undecided: tuple[Verdict, int | None, Fraction] | None = None
    for y in (0, 1):
        py, qy = p.prob(y), q.prob(y)
        if isinstance(py, Fraction) and isinstance(qy, Fraction):
            order, width = compare(rational(abs(py - qy)), gamma)
            if order is Order.GREATER:
                return Verdict.VIOLATED, y, Fraction(0)
            if order is Order.UNDECIDED and undecided is None:
                undecided = (Verdict.UNDECIDED, y, width)
            continue
        diff = prob_as_interval(py) - prob_as_interval(qy)
        g_lo, g_hi = max(Fraction(0), diff.lo, -diff.hi), max(diff.hi, -diff.lo)
        box = gamma.enclose(prec)
        if g_lo > box.hi:
            return Verdict.VIOLATED, y, Fraction(0)
        if g_hi > box.lo and undecided is None:
            undecided = (Verdict.UNDECIDED, y, g_hi - box.lo)
    return undecided or (Verdict.HOLDS, None, Fraction(0))


def _decide(laws: _Laws, a: Dataset, b: Dataset, x: Hashable, claim: PredictionClaim,
            t_claim: Real | None, delta: Fraction, precision: int, max_precision: int
            ) -> _Finding:
    prec = precision
    while True:
        p, q = laws.get(a, x, prec), laws.get(b, x, prec)
        match claim:
            case PrivatePrediction():
                assert t_claim is not None
                verdict, label, width = _private_verdict(p, q, t_claim, claim.delta, prec)
            case UniformStability():
                verdict, label, width = _stability_verdict(p, q, claim.gamma, prec)
            case _:
                assert_never(claim)
        eps = epsilon_at_delta(p, q, delta, prec)
        gap_lo, gap_hi, gap_exact, gap_label = _gaps(p, q)
        settled = eps.t_exact is not None or eps.infinite or (
            eps.t_hi is not None and eps.t_hi - eps.t_lo <= Fraction(1, 2**40) * eps.t_hi)
        if (verdict is not Verdict.UNDECIDED and settled) or prec >= max_precision:
            return _Finding(verdict, label, width, gap_lo, gap_hi, gap_exact, gap_label, eps,
                            prec)
        prec = min(2 * prec, max_precision)


def _predictor(predictor: object) -> Predictor:
    if not isinstance(predictor, Predictor):
        raise InvalidArgument(f"predictor={predictor!r} must be a Predictor")
    return predictor


def _dataset(value: object, name: str) -> Dataset:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidArgument(f"{name}={value!r} must be a dataset (a sequence of examples)")
    try:
        return as_dataset(value)
    except TypeError:
        raise InvalidArgument(f"{name}={value!r} must hold hashable examples") from None


def _queries(predictor: Predictor, queries: Iterable[Hashable]) -> tuple[Hashable, ...]:
    if isinstance(queries, str | bytes) or not isinstance(queries, Iterable):
        raise InvalidArgument(f"queries={queries!r} must be an iterable of query points")
    points = tuple(predictor.check_query(x) for x in queries)
    if not points:
        raise InvalidArgument("queries=() must hold at least one query point")
    if len(set(points)) != len(points):
        raise InvalidArgument(f"queries={points!r} contains duplicates")
    return points


def _claim(predictor: Predictor, claim: PredictionClaim | None) -> PredictionClaim:
    stated = predictor.claim if claim is None else claim
    if not isinstance(stated, PrivatePrediction | UniformStability):
        raise InvalidArgument(f"claim={stated!r} must be a PrivatePrediction or "
                              "UniformStability")
    return stated


def _run(predictor: Predictor, pairs: Iterable[tuple[Dataset, Dataset]],
         queries: tuple[Hashable, ...], claim: PredictionClaim, universe_text: str,
         precision: int, max_precision: int, max_paths: int) -> PredictionAuditReport:
    check_int(precision, "precision", minimum=32)
    check_int(max_precision, "max_precision")
    if max_precision < precision:
        raise InvalidArgument(f"max_precision={max_precision} must be >= precision={precision}")
    check_int(max_paths, "max_paths", minimum=1)
    laws = _Laws(predictor, max_paths)
    private = isinstance(claim, PrivatePrediction)
    t_claim = exp(claim.epsilon) if isinstance(claim, PrivatePrediction) else None
    delta = claim.delta if isinstance(claim, PrivatePrediction) else Fraction(0)
    count = 0
    violation: PredictionWitness | None = None
    undecided: tuple[Fraction, PredictionWitness] | None = None
    gamma_lo, gamma_hi, gamma_exact = Fraction(-1), Fraction(0), Fraction(0)
    gamma_all_exact = True
    gamma_witness: PredictionWitness | None = None
    t_lo, t_hi, t_exact = Fraction(0), Fraction(1), Fraction(1)
    t_unbounded = infinite = False
    t_all_exact = True
    eps_witness: PredictionWitness | None = None
    used_precision = precision
    for a, b in pairs:
        count += 1
        for x in queries:
            f = _decide(laws, a, b, x, claim, t_claim, delta, precision, max_precision)
            used_precision = max(used_precision, f.precision)
            if f.verdict is Verdict.VIOLATED and violation is None:
                violation = PredictionWitness(a, b, x, f.verdict_label)
            if f.verdict is Verdict.UNDECIDED and (undecided is None or f.width > undecided[0]):
                undecided = (f.width, PredictionWitness(a, b, x, f.verdict_label))
            if f.gap_lo > gamma_lo:
                gamma_lo, gamma_witness = f.gap_lo, PredictionWitness(a, b, x, f.gap_label)
            gamma_hi = max(gamma_hi, f.gap_hi)
            if f.gap_exact is None:
                gamma_all_exact = False
            else:
                gamma_exact = max(gamma_exact, f.gap_exact)
            e = f.epsilon
            label = e.event[0] if e.event else None
            if e.infinite and not infinite:
                infinite, eps_witness = True, PredictionWitness(a, b, x, label)
            if e.t_lo > t_lo and not infinite:
                t_lo, eps_witness = e.t_lo, PredictionWitness(a, b, x, label)
            if e.t_exact is None:
                t_all_exact = False
            else:
                t_exact = max(t_exact, e.t_exact)
            if e.t_hi is None:
                t_unbounded = True
            else:
                t_hi = max(t_hi, e.t_hi)
    if count == 0 or gamma_witness is None or eps_witness is None:
        raise InvalidArgument(f"universe {universe_text} has no neighboring pairs under "
                              f"{predictor.relation}")
    verdict = (Verdict.VIOLATED if violation else
               Verdict.UNDECIDED if undecided else Verdict.HOLDS)
    epsilon_exact: Real | None = None
    if t_all_exact and not infinite:
        epsilon_exact = log(rational(t_exact))
        t_lo = t_hi = t_exact
    eps_lo = max(log(rational(max(t_lo, Fraction(1)))).enclose(precision).lo, Fraction(0))
    eps_hi = None if t_unbounded or infinite else log(rational(t_hi)).enclose(precision).hi
    return PredictionAuditReport(
        predictor=predictor.name, source=str(predictor.source), claim=claim,
        relation=str(predictor.relation), universe=universe_text, queries=queries, pairs=count,
        verdict=verdict,
        verdict_witness=violation or (undecided[1] if undecided else None),
        gamma_lower=gamma_exact if gamma_all_exact else gamma_lo,
        gamma_upper=gamma_exact if gamma_all_exact else gamma_hi,
        gamma_exact=gamma_exact if gamma_all_exact else None, gamma_witness=gamma_witness,
        delta=delta if private else Fraction(0), epsilon_exact=epsilon_exact,
        epsilon_lower=eps_lo, epsilon_upper=eps_hi, epsilon_infinite=infinite,
        epsilon_witness=eps_witness, precision=used_precision)


def audit_prediction(predictor: Predictor, universe: Universe, queries: Iterable[Hashable], *,
                     claim: PredictionClaim | None = None, precision: int = DEFAULT_PRECISION,
                     max_precision: int = 1024, max_paths: int = MAX_PATHS,
                     pair_limit: int = MAX_PAIRS) -> PredictionAuditReport:
    """Audit ``claim`` (default: the predictor's own) over every ordered neighboring pair of
    ``universe`` (under the predictor's relation) and every point of ``queries``, one query
    at a time (002 §2: guarantees are per single query).

    Raises InvalidArgument for a predictor that is not a Predictor, empty or repeated queries,
    a query outside the predictor's domain, a universe with no neighboring pairs, a precision
    below 32 bits (or not an int), max_precision below precision, max_paths or pair_limit
    below 1; TooLargeToEnumerate when the universe has more than ``pair_limit`` pairs.
    """
    predictor = _predictor(predictor)
    points = _queries(predictor, queries)
    stated = _claim(predictor, claim)
    check_int(pair_limit, "pair_limit", minimum=1)
    if not isinstance(universe, Universe):
        raise InvalidArgument(f"universe={universe!r} must be a reference.neighbors.Universe")
    sizes = ",".join(str(s) for s in universe.sizes)
    text = f"{len(universe.elements)} elements, sizes {sizes}"
    pairs = universe.pairs(predictor.relation, limit=pair_limit)
    return _run(predictor, pairs, points, stated, text, precision, max_precision, max_paths)


def audit_prediction_pair(predictor: Predictor, a: Iterable[Hashable], b: Iterable[Hashable],
                          queries: Iterable[Hashable], *, claim: PredictionClaim | None = None,
                          precision: int = DEFAULT_PRECISION, max_precision: int = 1024,
                          max_paths: int = MAX_PATHS) -> PredictionAuditReport:
    """:func:`audit_prediction` restricted to the one ordered pair (a, b).

    Raises NotNeighboring unless a and b are neighbors under the predictor's relation (never
    a verdict on a non-neighboring pair), InvalidArgument when a or b is not a dataset of
    hashable examples, and otherwise as :func:`audit_prediction`.
    """
    predictor = _predictor(predictor)
    da, db = _dataset(a, "a"), _dataset(b, "b")
    check_neighbors(predictor.relation, da, db)
    points = _queries(predictor, queries)
    stated = _claim(predictor, claim)
    return _run(predictor, [(da, db)], points, stated, f"the pair {da!r}, {db!r}", precision,
                max_precision, max_paths)
