"""The exact auditor: true worst-case privacy loss over every neighboring pair of a universe.

For a mechanism built on :mod:`privref.reference.program`, the auditor computes each
dataset's exact output distribution once, then for every ordered neighboring
pair (a, b) of the universe:

* the hockey-stick divergence at the claimed e^epsilon, compared soundly with
  the claimed delta, giving HOLDS / VIOLATED (with the witness pair and event)
  or UNDECIDED (with the enclosure width);
* e^epsilon at the claimed delta, whose maximum over pairs is the exact
  worst-case epsilon (an exact ``ln t`` when probabilities are rational).

Undecided pairs are recomputed at doubled precision up to ``max_precision``.

A claimed epsilon above :data:`EPSILON_CAP` is decided against e^EPSILON_CAP instead of the
astronomically large e^epsilon: the hockey-stick divergence decreases in t, so HOLDS at the
smaller t implies HOLDS at the claim; a violation found there is kept only when its event
has Q-probability exactly 0 (then it is a violation at every epsilon), else it is UNDECIDED.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from privref.reference.data import Dataset, as_dataset
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import MAX_PAIRS, Universe, check_neighbors
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import MAX_PATHS, Distribution
from privref.reference.reals import (
    DEFAULT_PRECISION,
    Interval,
    Order,
    Prob,
    Real,
    compare,
    exp,
    log,
    prob_as_interval,
    rational,
)
from privref.reference.verdict import Verdict

from . import _pair, _tails

__all__ = [
    "EPSILON_CAP",
    "AuditReport",
    "PairReport",
    "Verdict",
    "audit",
    "audit_pair",
    "epsilon_text",
    "verify_order_invariance",
]


@dataclass(frozen=True, slots=True)
class PairReport:
    """Exact findings for one ordered pair (a, b): P = M(a), Q = M(b)."""

    a: Dataset
    b: Dataset
    verdict: Verdict
    delta_at_claim: Interval
    violation_event: tuple[Any, ...]
    violation_margin: Fraction
    epsilon: _pair.PairEpsilon
    precision: int


@dataclass(frozen=True, slots=True)
class AuditReport:
    """Result of an exact audit of a mechanism's claim over a finite universe.

    ``epsilon_lower``/``epsilon_upper`` enclose the exact worst-case epsilon at
    the claimed delta (``epsilon_exact`` holds it symbolically when known;
    ``epsilon_upper`` is None when unbounded).  ``verdict`` is decided soundly.
    ``verdict_witness`` is the first VIOLATED pair in the universe's order of pairs; with
    none, the UNDECIDED pair whose δ enclosure at the claim is widest (the first of equally
    wide ones), whose width is ``undecided_width``.
    """

    mechanism: str
    source: str
    claim: PrivacyClaim
    relation: str
    universe: str
    pairs: int
    verdict: Verdict
    epsilon_exact: Real | None
    epsilon_lower: Fraction
    epsilon_upper: Fraction | None
    epsilon_infinite: bool
    epsilon_witness: tuple[Dataset, Dataset, tuple[Any, ...]] | None
    verdict_witness: PairReport | None
    undecided_width: Fraction | None
    precision: int
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The JSON record of ``privref audit --json``.

        Floats are rounded outward from the exact enclosure (equal when the
        value is known exactly).  ``epsilon_upper`` is null when the loss is
        unbounded or proved infinite (``epsilon_infinite``).
        """
        lo = _round_down(self.epsilon_lower)
        hi = None if self.epsilon_upper is None else _round_up(self.epsilon_upper)
        if self.epsilon_exact is not None:
            lo = hi = float(self.epsilon_exact)
        witness: dict[str, Any] | None = None
        w = self.verdict_witness
        if w is not None and self.verdict is Verdict.VIOLATED:
            witness = {"pair": [_jsonable(w.a), _jsonable(w.b)],
                       "event": [_jsonable(o) for o in w.violation_event[:20]],
                       "event_size": len(w.violation_event),
                       "delta_lower_bound": _round_down(w.violation_margin)}
        elif self.epsilon_witness is not None:
            a, b, ev = self.epsilon_witness
            witness = {"pair": [_jsonable(a), _jsonable(b)],
                       "event": [_jsonable(o) for o in ev[:20]], "event_size": len(ev)}
        return {
            "mechanism": self.mechanism,
            "source": self.source,
            "claimed_epsilon": float(self.claim.epsilon),
            "claimed_epsilon_exact": str(self.claim.epsilon),
            "claimed_delta": float(self.claim.delta),
            "claimed_delta_exact": str(self.claim.delta),
            "epsilon_lower": lo,
            "epsilon_upper": None if self.epsilon_infinite else hi,
            "epsilon_infinite": self.epsilon_infinite,
            "epsilon_exact": None if self.epsilon_exact is None else str(self.epsilon_exact),
            "verdict": self.verdict.value,
            "witness": witness,
            "relation": self.relation,
            "universe": self.universe,
            "pairs": self.pairs,
            "precision_bits": self.precision,
            "undecided_width": None if self.undecided_width is None
            else float(self.undecided_width),
        }


def _jsonable(x: Any) -> Any:
    if isinstance(x, tuple):
        return [_jsonable(v) for v in x]
    if isinstance(x, (int, str, bool)) or x is None:
        return x
    if isinstance(x, Fraction):
        return str(x)
    return str(x)


def _round_down(x: Fraction) -> float:
    f = float(x)
    return math.nextafter(f, -math.inf) if Fraction(f) > x else f


def _round_up(x: Fraction) -> float:
    f = float(x)
    return math.nextafter(f, math.inf) if Fraction(f) < x else f


def epsilon_text(report: AuditReport) -> str:
    """Human-readable worst-case epsilon: exact form when known, else an enclosure."""
    if report.epsilon_infinite:
        return "inf"
    if report.epsilon_exact is not None:
        exact = report.epsilon_exact
        return f"{float(exact):.6g}" + (f" = {exact}" if exact.exact is None else "")
    if report.epsilon_upper is None:
        return f"[{_round_down(report.epsilon_lower):.6g}, inf]"
    width = report.epsilon_upper - report.epsilon_lower
    if width < Fraction(1, 10**9):
        mid = float((report.epsilon_upper + report.epsilon_lower) / 2)
        return f"{mid:.6g} (± {float(width):.0e})"
    return f"[{_round_down(report.epsilon_lower):.6g}, {_round_up(report.epsilon_upper):.6g}]"


class _Cache:
    """Each dataset's law per precision, computed once, and its compiled form (the pair
    analysis's integer rows, :func:`privref.audits._pair.compile_law`) over one outcome index."""

    def __init__(self, mechanism: Mechanism[Any], max_paths: int) -> None:
        self.mechanism = mechanism
        self.max_paths = max_paths
        self.store: dict[tuple[Dataset, int], Distribution[Any]] = {}
        self.compiled: dict[tuple[Dataset, int], _pair.CompiledLaw | None] = {}
        self.index = _pair.OutcomeIndex()

    def get(self, data: Dataset, prec: int) -> Distribution[Any]:
        key = (data, prec)
        dist = self.store.get(key)
        if dist is None:
            dist = self.mechanism.distribution(data, precision=prec, max_paths=self.max_paths)
            self.store[key] = dist
        return dist

    def get_compiled(self, data: Dataset, prec: int) -> _pair.CompiledLaw | None:
        """The compiled law of ``data`` at ``prec``, or None when it has no compiled form."""
        key = (data, prec)
        if key in self.compiled:
            return self.compiled[key]
        law = self.compiled[key] = _pair.compile_law(self.get(data, prec), self.index)
        return law


def _same_law(p: Distribution[Any], q: Distribution[Any]) -> bool:
    if p.components or q.components:
        return p.components == q.components and p.as_dict() == q.as_dict()
    return p.as_dict() == q.as_dict()


def _arrangements(rest: Dataset) -> Iterator[Dataset]:
    """Every distinct arrangement of ``rest``, each once (multiset permutations, generated in
    lexicographic order of the entries' first-occurrence codes, so no order on entries is
    needed and repeated entries cost nothing)."""
    index: dict[Hashable, int] = {}
    codes = sorted(index.setdefault(x, len(index)) for x in rest)
    values = list(index)
    while True:
        yield tuple(values[c] for c in codes)
        i = len(codes) - 2
        while i >= 0 and codes[i] >= codes[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(codes) - 1
        while codes[j] <= codes[i]:
            j -= 1
        codes[i], codes[j] = codes[j], codes[i]
        codes[i + 1:] = reversed(codes[i + 1:])


def _reorderings(data: Dataset, public: int) -> list[Dataset]:
    head, rest = data[:public], data[public:]
    return [head + r for r in _arrangements(rest) if r != rest]


def verify_order_invariance(mechanism: Mechanism[Any], universe: Universe, *,
                            precision: int = DEFAULT_PRECISION,
                            max_paths: int = MAX_PATHS, limit: int = MAX_PAIRS,
                            cache: _Cache | None = None) -> None:
    """Check a mechanism's ``order_invariant`` declaration on the universe; raise if it is false.

    Every distinct reordering of the private entries of every dataset of the universe is
    compared with the law of the dataset's sorted representative, so a law that singles out
    one arrangement is caught (a transposition and a cycle of the representatives alone are
    not enough: they generate every permutation, but are applied to one arrangement only).
    The cost is one law per dataset of the universe, as an audit without the reduction.
    Exact laws are compared exactly, enclosures by equality of their endpoints (the same
    computation on reordered input).  Raises TooLargeToEnumerate, naming ``limit``, before
    any law when the universe holds more than ``limit`` datasets.  ``cache`` (the audit's)
    keeps the laws computed here for the audit that follows.
    """
    if universe.count() > limit:
        raise TooLargeToEnumerate(
            f"checking order_invariant=True needs one law per dataset, and the universe has "
            f"{universe.count()} datasets, more than limit={limit}; shrink elements or sizes, "
            "or raise pair_limit")
    if cache is None:
        cache = _Cache(mechanism, max_paths)
    for data in universe.datasets(order_invariant=True):
        base = cache.get(data, precision)
        for other in _reorderings(data, len(universe.public)):
            if not _same_law(base, cache.get(other, precision)):
                raise InvalidArgument(
                    f"mechanism {mechanism.name!r} declares order_invariant=True, but its output "
                    f"law differs on {data!r} and {other!r}; audit it with "
                    "order_invariant=False")


EPSILON_CAP = Fraction(4096)
"""Claims with epsilon above this are decided against e^EPSILON_CAP (see the module doc)."""


def _threshold(claim: PrivacyClaim) -> tuple[Real, bool]:
    """(t, capped): t = e^epsilon, or e^EPSILON_CAP <= e^epsilon when epsilon > EPSILON_CAP."""
    order, _ = compare(claim.epsilon, EPSILON_CAP)
    if order is Order.GREATER:
        return exp(rational(EPSILON_CAP)), True
    return exp(claim.epsilon), False


def _mass_where_q_vanishes(p: Distribution[Any], q: Distribution[Any]
                           ) -> tuple[Interval, tuple[Any, ...]]:
    """(an enclosure of P(F), F) for F = {o : Q(o) = 0 proved}; ([0, 0], ()) with tails."""
    if p.components or q.components:
        return Interval.point(0), ()
    qd = q.as_dict()
    lo = hi = Fraction(0)
    event = []
    for o, prob in p.items():
        if prob_as_interval(qd.get(o, Fraction(0))).hi == 0:
            box = prob_as_interval(prob)
            lo, hi = lo + box.lo, hi + box.hi
            event.append(o)
    return Interval(lo, hi), tuple(event)


@dataclass(frozen=True, slots=True)
class _Found:
    """A :class:`PairReport` whose events may still be unexpanded (most are never read)."""

    a: Dataset
    b: Dataset
    verdict: Verdict
    delta_at_claim: Interval
    violation_event: tuple[Any, ...] | _pair.ClassEvent
    violation_margin: Fraction
    epsilon: _pair.LazyEpsilon
    precision: int

    def report(self) -> PairReport:
        """The PairReport, its events expanded."""
        ev = self.violation_event
        return PairReport(self.a, self.b, self.verdict, self.delta_at_claim,
                          ev if isinstance(ev, tuple) else ev.expand(), self.violation_margin,
                          self.epsilon.value(), self.precision)


def _analyse(cache: _Cache, a: Dataset, b: Dataset, p: Distribution[Any], q: Distribution[Any],
             t_claim: Real, delta: Fraction, prec: int
             ) -> tuple[Prob, Fraction, tuple[Any, ...] | _pair.ClassEvent, _pair.LazyEpsilon]:
    """(divergence at t_claim, its proved lower bound, the witness event, ε at δ) of one pair:
    from the compiled laws when both have one (equal results), else from the laws."""
    if p.components or q.components:
        hs, margin, event = _tails.hockey_stick(p, q, t_claim, prec)
        eps = _tails.epsilon_at_delta(p, q, delta, prec)
        return hs, margin, event, _lazy(eps)
    cp, cq = cache.get_compiled(a, prec), cache.get_compiled(b, prec)
    if cp is not None and cq is not None:
        found = _pair.compiled_pair(cp, cq, t_claim, delta, prec)
        lazy = found.epsilon
        if lazy is None:  # the order-dependent edge of the δ = 0 enclosure: the law's order
            lazy = _lazy(_pair.epsilon_at_delta(p, q, delta, prec))
        return found.divergence, found.margin, found.event, lazy
    hs, margin, event = _pair.hockey_stick(p, q, t_claim, prec)
    return hs, margin, event, _lazy(_pair.epsilon_at_delta(p, q, delta, prec))


def _lazy(eps: _pair.PairEpsilon) -> _pair.LazyEpsilon:
    return _pair.LazyEpsilon(eps.t_lo, eps.t_hi, eps.t_exact, eps.infinite, eps.event)


def _settled(eps: _pair.LazyEpsilon) -> bool:
    """ε known exactly, proved infinite, or enclosed within a relative width of 2^-40:
    t_hi - t_lo <= t_hi / 2^40, compared as integers (both sides times the denominators)."""
    if eps.t_exact is not None or eps.infinite:
        return True
    hi, lo = eps.t_hi, eps.t_lo
    if hi is None:
        return False
    scaled_hi = hi.numerator * lo.denominator
    return (scaled_hi - lo.numerator * hi.denominator) << 40 <= scaled_hi


def _decide(cache: _Cache, a: Dataset, b: Dataset, claim: PrivacyClaim, precision: int,
            max_precision: int, t_claim: Real | None = None, capped: bool = False
            ) -> _Found:
    """One pair's verdict; ``t_claim`` = e^ε, shared across pairs so its enclosures are cached.

    With ``capped``, ``t_claim`` is a number <= e^ε (see :data:`EPSILON_CAP`): HOLDS carries
    over, VIOLATED only when the violating mass sits where Q vanishes.
    """
    prec = precision
    if t_claim is None:
        t_claim, capped = _threshold(claim)
    while True:
        p, q = cache.get(a, prec), cache.get(b, prec)
        hs, margin, event, eps = _analyse(cache, a, b, p, q, t_claim, claim.delta, prec)
        box = _pair.ZERO_BOX if hs is _pair.ZERO else prob_as_interval(hs)
        final = False
        if capped:  # hs encloses the divergence at t_claim <= e^ε: an upper bound at e^ε
            free, free_event = _mass_where_q_vanishes(p, q)  # P(F) - e^ε·0 for Q(F) = 0
            box = Interval(free.lo, box.hi)
            # a violation at t_claim alone says nothing at e^ε; more precision cannot help
            # once P(F) <= δ is proved (an irrational P(F) may still prove a violation)
            final = margin > claim.delta and free.hi <= claim.delta
            margin, event = free.lo, free_event
        if box.hi <= claim.delta:
            verdict = Verdict.HOLDS
        elif margin > claim.delta:
            verdict = Verdict.VIOLATED
        else:
            verdict = Verdict.UNDECIDED
        if (verdict is not Verdict.UNDECIDED and _settled(eps)) or final or prec >= max_precision:
            return _Found(a, b, verdict, box, event, margin, eps, prec)
        prec = min(2 * prec, max_precision)


def audit_pair(mechanism: Mechanism[Any], a: Iterable[Hashable], b: Iterable[Hashable], *,
               claim: PrivacyClaim | None = None, precision: int = DEFAULT_PRECISION,
               max_precision: int = 1024, max_paths: int = MAX_PATHS) -> PairReport:
    """Exact loss of the ordered pair (a, b); raises NotNeighboring unless they are neighbors."""
    da, db = as_dataset(a), as_dataset(b)
    check_neighbors(mechanism.relation, da, db)
    return _decide(_Cache(mechanism, max_paths), da, db, claim or mechanism.claim, precision,
                   max_precision).report()


def audit(mechanism: Mechanism[Any], universe: Universe, *, claim: PrivacyClaim | None = None,
          precision: int = DEFAULT_PRECISION, max_precision: int = 1024,
          max_paths: int = MAX_PATHS, pair_limit: int = 2_000_000,
          distance: int = 1) -> AuditReport:
    """Audit ``claim`` (default: the mechanism's own) over every neighboring pair of ``universe``.

    ``distance`` > 1 audits pairs at substitution distance exactly k (group
    privacy); then ``claim`` should be the group-privacy claim.
    """
    if precision < 32:
        raise InvalidArgument(f"precision={precision} must be >= 32")
    if max_precision < precision:
        raise InvalidArgument(f"max_precision={max_precision} must be >= precision={precision}")
    stated = claim or mechanism.claim
    cache = _Cache(mechanism, max_paths)
    if mechanism.order_invariant:
        verify_order_invariance(mechanism, universe, precision=precision, max_paths=max_paths,
                                limit=pair_limit, cache=cache)
    if distance == 1:
        pairs: Iterable[tuple[Dataset, Dataset]] = universe.pairs(
            mechanism.relation, order_invariant=mechanism.order_invariant, limit=pair_limit)
    else:
        pairs = universe.pairs_at_distance(mechanism.relation, distance,
                                           order_invariant=mechanism.order_invariant,
                                           limit=pair_limit)
    t_claim, capped = _threshold(stated)     # one expression: its enclosures are computed once
    count = 0
    worst: _Found | None = None
    violation: _Found | None = None
    undecided: _Found | None = None
    lower, upper, exact = Fraction(1), Fraction(1), Fraction(1)
    upper_unbounded = infinite = False
    all_exact = True
    for a, b in pairs:
        count += 1
        rep = _decide(cache, a, b, stated, precision, max_precision, t_claim, capped)
        if rep.verdict is Verdict.VIOLATED and violation is None:
            violation = rep
        if rep.verdict is Verdict.UNDECIDED and (
                undecided is None or rep.delta_at_claim.width > undecided.delta_at_claim.width):
            undecided = rep
        e = rep.epsilon
        if e.infinite:
            if not infinite:
                worst = rep
            infinite = True
        if e.t_exact is None:
            all_exact = False
        if e.t_lo > lower:
            lower = e.t_lo
            if not infinite:
                worst = rep
        if e.t_hi is None:
            upper_unbounded = True
        elif e.t_hi > upper:
            upper = e.t_hi
        if e.t_exact is not None and e.t_exact > exact:
            exact = e.t_exact
        if worst is None:
            worst = rep
    if count == 0:
        raise InvalidArgument(f"universe {universe} has no neighboring pairs under "
                              f"{mechanism.relation}")
    verdict = (Verdict.VIOLATED if violation else
               Verdict.UNDECIDED if undecided else Verdict.HOLDS)
    eps_exact: Real | None = None
    if all_exact and not infinite:
        eps_exact = log(rational(exact))
        lower = upper = exact
    eps_box_lo = log(rational(lower)).enclose(precision).lo
    eps_box_hi: Fraction | None = None
    if not upper_unbounded and not infinite:
        eps_box_hi = log(rational(upper)).enclose(precision).hi
    kept = violation or undecided
    witness = None
    if worst is not None:
        witness = (worst.a, worst.b, worst.epsilon.value().event)
    sizes = ",".join(str(s) for s in universe.sizes)
    uni_text = (f"{len(universe.elements)} elements, sizes {sizes}"
                + (f", public prefix {universe.public!r}" if universe.public else ""))
    return AuditReport(
        mechanism=mechanism.name, source=str(mechanism.source), claim=stated,
        relation=str(mechanism.relation), universe=uni_text, pairs=count, verdict=verdict,
        epsilon_exact=eps_exact, epsilon_lower=max(eps_box_lo, Fraction(0)),
        epsilon_upper=eps_box_hi, epsilon_infinite=infinite, epsilon_witness=witness,
        verdict_witness=None if kept is None else kept.report(),
        undecided_width=None if undecided is None else undecided.delta_at_claim.width,
        precision=max_precision if undecided else precision,
        notes=(f"claimed epsilon > {EPSILON_CAP}: decided against e^{EPSILON_CAP} (HOLDS there "
               "implies HOLDS at the claim; VIOLATED only where Q vanishes)",) if capped else ())
