"""Exact privacy loss between two output distributions (one ordered neighboring pair).

For distributions P = M(a), Q = M(b) with finite support:

* hockey-stick divergence  delta_P||Q(t) = sup_F P(F) - t·Q(F) = Σ_o max(0, P(o) - t·Q(o)),
  attained by the event F = {o : P(o) > t·Q(o)}, with t = e^epsilon;
* epsilon at a given delta: the smallest t >= 1 with delta_P||Q(t) <= delta.  The
  curve is piecewise linear in t with breakpoints at the ratios P(o)/Q(o), so
  with rational probabilities t is an exact rational and epsilon = ln t exactly.

With interval probabilities every quantity is a rigorous enclosure.  Infinite-
support components are delegated to :mod:`privref.audits._tails`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from operator import itemgetter
from typing import Any

from privref.reference.program import Distribution
from privref.reference.reals import Interval, Prob, Real, prob_as_interval

__all__ = [
    "ClassEvent",
    "CompiledLaw",
    "CompiledPair",
    "LazyEpsilon",
    "OutcomeIndex",
    "PairEpsilon",
    "compile_law",
    "compiled_pair",
    "epsilon_at_delta",
    "hockey_stick",
    "profile_breakpoints",
    "solve_exact",
]


@dataclass(frozen=True, slots=True)
class PairEpsilon:
    """e^epsilon for one ordered pair at a given delta.

    ``t_exact`` is set when known exactly (a rational >= 1); otherwise
    [t_lo, t_hi] encloses it.  ``t_hi is None`` means unbounded (epsilon = ∞
    possible); ``infinite`` means proved infinite.  ``event`` is an event that
    attains (or nearly attains) the loss.
    """

    t_lo: Fraction
    t_hi: Fraction | None
    t_exact: Fraction | None
    infinite: bool
    event: tuple[Any, ...]


def _table(p_dist: Distribution[Any], q_dist: Distribution[Any]
           ) -> list[tuple[Any, Prob, Prob]]:
    q = q_dist.as_dict()
    rows: list[tuple[Any, Prob, Prob]] = []
    for o, p in p_dist.items():
        rows.append((o, p, q.get(o, Fraction(0))))
    return rows


def hockey_stick(p_dist: Distribution[Any], q_dist: Distribution[Any], t: Real,
                 prec: int) -> tuple[Prob, Fraction, tuple[Any, ...]]:
    """(enclosure of delta(t), proved lower bound attained by the witness event, witness event).

    Exact Fractions when P, Q and t are exact.  The witness event is
    {o : P(o) - t·Q(o) provably > 0}; its value P(F) - t·Q(F) is returned as the
    second component (a lower bound on the supremum).
    """
    rows = _table(p_dist, q_dist)
    if t.exact is not None and all(isinstance(p, Fraction) and isinstance(q, Fraction)
                                   for _, p, q in rows):
        tt = t.exact
        total = Fraction(0)
        event = []
        for o, p, q in rows:
            assert isinstance(p, Fraction) and isinstance(q, Fraction)
            gap = p - tt * q
            if gap > 0:
                total += gap
                event.append(o)
        return total, total, tuple(event)
    tbox = t.enclose(prec)
    lo_sum, hi_sum, witness = Fraction(0), Fraction(0), Fraction(0)
    event = []
    for o, p, q in rows:
        pb, qb = prob_as_interval(p), prob_as_interval(q)
        gap_lo, gap_hi = pb.lo - tbox.hi * qb.hi, pb.hi - tbox.lo * qb.lo
        lo_sum += max(gap_lo, Fraction(0))
        hi_sum += max(gap_hi, Fraction(0))
        if gap_lo > 0:
            witness += gap_lo
            event.append(o)
    return Interval(lo_sum, hi_sum).rounded(prec), witness, tuple(event)


def solve_exact(rows: list[tuple[Any, Fraction, Fraction]], delta: Fraction
                ) -> tuple[Fraction | None, tuple[Any, ...]]:
    """Smallest t >= 1 with Σ_o max(0, p_o - t·q_o) <= delta, exactly; None when no t works.

    Rows are (outcome, p, q) with non-negative rationals.  The divergence is
    piecewise linear and decreasing in t with breakpoints p/q, so t is found
    by sweeping the ratios in decreasing order; the event returned holds the
    outcomes whose ratio is >= t (plus those with q = 0).
    """
    m_inf = sum((p for _, p, q in rows if q == 0 and p > 0), Fraction(0))
    inf_event = tuple(o for o, p, q in rows if q == 0 and p > 0)
    if m_inf > delta:
        return None, inf_event
    finite = sorted(((p / q, p, q, o) for o, p, q in rows if p > 0 and q > 0),
                    key=lambda r: r[0], reverse=True)
    sp, sq = m_inf, Fraction(0)
    k = 0
    t: Fraction | None = None
    while k < len(finite):
        r = finite[k][0]
        if sp - r * sq > delta:
            t = (sp - delta) / sq
            break
        while k < len(finite) and finite[k][0] == r:
            sp += finite[k][1]
            sq += finite[k][2]
            k += 1
    if t is None:
        t = (sp - delta) / sq if sq > 0 and sp > delta else Fraction(1)
    t = max(t, Fraction(1))
    event = inf_event + tuple(f[3] for f in finite[:k] if f[0] >= t)
    return t, event


def epsilon_at_delta(p_dist: Distribution[Any], q_dist: Distribution[Any], delta: Fraction,
                     prec: int) -> PairEpsilon:
    """e^epsilon(delta) for the ordered pair (P, Q): exact when P and Q are exact."""
    rows = _table(p_dist, q_dist)
    if all(isinstance(p, Fraction) and isinstance(q, Fraction) for _, p, q in rows):
        exact_rows = [(o, p, q) for o, p, q in rows
                      if isinstance(p, Fraction) and isinstance(q, Fraction)]
        t, event = solve_exact(exact_rows, delta)
        if t is None:
            return PairEpsilon(Fraction(1), None, None, True, event)
        return PairEpsilon(t, t, t, False, event)
    if delta == 0:
        return _max_ratio_enclosure(rows)
    # Interval probabilities: the divergence of the rows (p.lo, q.hi) is pointwise below the
    # true one and that of (p.hi, q.lo) above it, so their exact solutions bracket t.
    boxes = [(o, prob_as_interval(p), prob_as_interval(q)) for o, p, q in rows]
    t_lo, event = solve_exact([(o, p.lo, q.hi) for o, p, q in boxes], delta)
    if t_lo is None:
        return PairEpsilon(Fraction(1), None, None, True, event)
    t_hi, _ = solve_exact([(o, p.hi, q.lo) for o, p, q in boxes], delta)
    return PairEpsilon(t_lo, t_hi, None, False, event)


def _max_ratio_enclosure(rows: list[tuple[Any, Prob, Prob]]) -> PairEpsilon:
    """e^epsilon at delta = 0 is max_o P(o)/Q(o): enclose each ratio, take the max of each end."""
    t_lo, t_hi = Fraction(1), Fraction(1)
    best: Any = None
    for o, p, q in rows:
        pb, qb = prob_as_interval(p), prob_as_interval(q)
        if pb.hi == 0:
            continue
        if qb.hi == 0:  # Q(o) is exactly 0 while P(o) may be positive
            if pb.lo > 0:
                return PairEpsilon(Fraction(1), None, None, True, (o,))
            return PairEpsilon(t_lo, None, None, False, (o,))
        lo = pb.lo / qb.hi
        hi = pb.hi / qb.lo if qb.lo > 0 else None
        if hi is None:
            return PairEpsilon(max(t_lo, lo), None, None, False, (o,))
        if lo > t_lo:
            t_lo, best = lo, o
        t_hi = max(t_hi, hi)
    return PairEpsilon(t_lo, t_hi, None, False, () if best is None else (best,))


def profile_breakpoints(p_dist: Distribution[Any], q_dist: Distribution[Any]
                        ) -> tuple[tuple[Fraction, Fraction], ...]:
    """The privacy profile of an exact pair: (t_i, delta(t_i)) at every breakpoint t_i = P(o)/Q(o) >= 1.

    delta(t) is linear between consecutive breakpoints, and delta(t) = P(Q = 0)
    beyond the largest one; together these describe the whole curve exactly.
    """
    rows = _table(p_dist, q_dist)
    ratios = sorted({p / q for _, p, q in rows if isinstance(p, Fraction) and isinstance(q, Fraction)
                     and q > 0 and p > 0 and p / q >= 1})
    from privref.reference.reals import rational
    out = []
    for r in ratios:
        val = hockey_stick(p_dist, q_dist, rational(r), 64)[0]
        assert isinstance(val, Fraction)
        out.append((r, val))
    return tuple(out)


# ------------------------------------------------------------------------------------------
# Compiled laws: the same functions on integer rows (the exact auditor's fast path).
#
# An audit compares each dataset's law with many others.  ``compile_law`` turns a finite law
# once into: an id per outcome (from an index shared by the audit), a class per outcome (the
# id of its distinct probability value), and per class the probability as integer endpoints
# over one common denominator.  A pair's rows are then the distinct (class_P, class_Q)
# combinations with their multiplicities.  Every function below returns exactly what the
# Fraction functions above return on the same laws:
#
# * scaling every p and q by the positive integer den_P·den_Q, and t and δ by their
#   denominators, multiplies both sides of every comparison by the same positive integer;
# * m equal rows (p, q) merge: Σ max(0, p − t·q) over them is max(0, m·p − t·m·q), the ratio
#   sweep adds a whole group of equal ratios at once, and a maximum of ratios ignores m;
# * enclosure endpoints are exact rationals, so comparing their integer forms is exact.
#
# No float is used.  Events are kept as sets of (class_P, class_Q) keys and expanded only
# on demand, in the order the functions above produce (``ClassEvent.expand``).
# ------------------------------------------------------------------------------------------

Key = tuple[int, int]
"""A row of a pair: (class in P, class in Q); class 0 is an outcome absent from the law."""


class OutcomeIndex:
    """Outcome -> small integer id, shared by every compiled law of one audit."""

    __slots__ = ("_ids",)

    def __init__(self) -> None:
        self._ids: dict[Any, int] = {}

    def id(self, outcome: Any) -> int:
        """The outcome's id (new outcomes get the next one)."""
        ids = self._ids
        i = ids.get(outcome)
        if i is None:
            i = ids[outcome] = len(ids)
        return i


@dataclass(frozen=True, slots=True)
class CompiledLaw:
    """A finite law as integer classes (see the section comment).  Class 0 is "absent":
    probability exactly 0; ``lo``/``hi``/``exact`` are indexed by class."""

    outcomes: tuple[Any, ...]
    """The law's own outcomes, in its item order."""
    ids: tuple[int, ...]
    """Their ids in the audit's :class:`OutcomeIndex`."""
    classes: tuple[int, ...]
    """The class of each item (>= 1)."""
    class_of: dict[int, int]
    """Outcome id -> class."""
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    """Class endpoints times ``den`` (equal for an exact probability)."""
    den: int
    exact: tuple[bool, ...]
    """True where the class's probability is a Fraction (not an Interval, even a point)."""
    all_exact: bool


COMMON_DENOMINATOR_BITS = 512
"""A law is compiled only when its common denominator has at most this many bits more than
twice its longest single denominator (laws from one computation share their denominators:
a normalizer, or the dyadic endpoints of one precision)."""

COMPILED_BITS = 4096
"""A law is compiled only when every integer of its compiled form (the common denominator and
each endpoint over it) has at most this many bits, whatever its own denominators.  A pair's
rows multiply two such integers, and its results are Fractions of them (a gcd quadratic in
their length); the Fraction functions keep each probability's own numerator and denominator,
often short (an enclosure [0, 2^-k] of a weight that underflowed is 1 over a power of two).
On laws of 100 outcomes with enclosures of 96 bits and some of k bits, the compiled pair is
as fast as the Fraction functions near k = 4096 and 4 to 19 times slower for k = 8192 to 65536;
an exponential learner at epsilon = 10^9 has enclosures [0, 2^-1048576], whose common
denominator of 2^20 bits made one pair take seconds."""


def compile_law(dist: Distribution[Any], index: OutcomeIndex) -> CompiledLaw | None:
    """The compiled form of a finite law, or None (infinite-support components, a repeated
    outcome, a probability neither Fraction nor Interval, a common denominator far longer
    than the probabilities' own, see :data:`COMMON_DENOMINATOR_BITS`, or compiled integers
    longer than :data:`COMPILED_BITS`, bounded before they are built): such laws use the
    functions above."""
    if dist.components:
        return None
    by_value: dict[tuple[int, ...], int] = {}
    values: list[Prob] = []
    outcomes: list[Any] = []
    ids: list[int] = []
    classes: list[int] = []
    class_of: dict[int, int] = {}
    for o, p in dist.items():
        # int tuples as keys: Fraction.__hash__ computes a modular inverse
        if isinstance(p, Fraction):
            key: tuple[int, ...] = (p.numerator, p.denominator)
        elif isinstance(p, Interval):
            key = (p.lo.numerator, p.lo.denominator, p.hi.numerator, p.hi.denominator)
        else:
            return None
        c = by_value.get(key)
        if c is None:
            c = by_value[key] = len(values) + 1
            values.append(p)
        g = index.id(o)
        if g in class_of:
            return None
        class_of[g] = c
        outcomes.append(o)
        ids.append(g)
        classes.append(c)
    ends = [(p, p) if isinstance(p, Fraction) else (p.lo, p.hi) for p in values]
    den = _common_denominator(ends)
    if den is None:
        return None
    lo = (0, *(a.numerator * (den // a.denominator) for a, _ in ends))
    hi = (0, *(b.numerator * (den // b.denominator) for _, b in ends))
    exact = (True, *(isinstance(p, Fraction) for p in values))
    return CompiledLaw(tuple(outcomes), tuple(ids), tuple(classes), class_of, lo, hi, den,
                       exact, all(exact))


def _common_denominator(ends: list[tuple[Fraction, Fraction]]) -> int | None:
    """The least common denominator of the endpoints, or None when it, or an endpoint over it,
    would exceed the limits of :func:`compile_law`.  Nothing is built when one denominator is
    already longer than the limit; otherwise the lcm is built one denominator at a time and
    abandoned as soon as it passes the limit, so no intermediate has more than twice the
    limit's bits.  x·den has at most
    ``den.bit_length() + x.numerator.bit_length() - x.denominator.bit_length() + 1`` bits."""
    dens = {x.denominator for pair in ends for x in pair}
    longest = max((d.bit_length() for d in dens), default=0)
    limit = min(COMPILED_BITS, COMMON_DENOMINATOR_BITS + 2 * longest)
    # an endpoint above 1 needs this many bits more than the denominator (0 when all are <= 1)
    above = max((x.numerator.bit_length() - x.denominator.bit_length() + 1
                 for pair in ends for x in pair), default=0)
    limit = min(limit, COMPILED_BITS - max(above, 0))
    if longest > limit:
        return None
    den = 1
    for d in dens:
        den = math.lcm(den, d)
        if den.bit_length() > limit:
            return None  # unrelated denominators, or long ones: Fractions cost less
    return den


def _keys(p: CompiledLaw, q: CompiledLaw) -> Iterator[Key]:
    """(class_P, class_Q) of every outcome of P, in P's item order."""
    return zip(p.classes, map(q.class_of.get, p.ids, repeat(0)), strict=True)


class ClassEvent:
    """An event given by a set of row keys; ``expand`` lists its outcomes as the Fraction
    functions do: in P's item order, then (``rank``) stably by rank, then (``first``) the first."""

    __slots__ = ("_p", "_q", "first", "keys", "rank")

    def __init__(self, p: CompiledLaw, q: CompiledLaw, keys: set[Key] | frozenset[Key],
                 rank: dict[Key, tuple[int, Fraction]] | None = None, first: bool = False) -> None:
        self._p, self._q, self.keys, self.rank, self.first = p, q, keys, rank, first

    def expand(self) -> tuple[Any, ...]:
        """The outcomes of the event, in the reference order."""
        keys = self.keys
        if not keys:
            return ()
        chosen = [(o, k) for o, k in zip(self._p.outcomes, _keys(self._p, self._q), strict=True) if k in keys]
        rank = self.rank
        if rank is not None:
            chosen.sort(key=lambda ok: rank[ok[1]])
        if self.first:
            chosen = chosen[:1]
        return tuple(o for o, _ in chosen)


EMPTY: frozenset[Key] = frozenset()
ZERO = Fraction(0)
"""The divergence of a pair with no positive gap (exact laws and t); shared, so that callers
may recognise it by identity."""
ZERO_BOX = Interval(ZERO, ZERO)


@dataclass(frozen=True, slots=True)
class LazyEpsilon:
    """A :class:`PairEpsilon` whose event may still be a :class:`ClassEvent`."""

    t_lo: Fraction
    t_hi: Fraction | None
    t_exact: Fraction | None
    infinite: bool
    event: tuple[Any, ...] | ClassEvent

    def value(self) -> PairEpsilon:
        """The PairEpsilon, its event expanded."""
        ev = self.event
        return PairEpsilon(self.t_lo, self.t_hi, self.t_exact, self.infinite,
                           ev if isinstance(ev, tuple) else ev.expand())


@dataclass(frozen=True, slots=True)
class CompiledPair:
    """What :func:`hockey_stick` and :func:`epsilon_at_delta` return for one ordered pair.

    ``epsilon`` is None when the ε part hit the order-dependent edge of
    :func:`_max_ratio_enclosure` (δ = 0, enclosures, some Q(o) with a lower end 0):
    the caller uses :func:`epsilon_at_delta` for it."""

    divergence: Prob
    margin: Fraction
    event: ClassEvent
    epsilon: LazyEpsilon | None


Row = tuple[Key, int, int, int, int]
"""(key, p_lo, p_hi, q_lo, q_hi): multiplicity times the class endpoints, over den_P·den_Q."""


def _rows(p: CompiledLaw, q: CompiledLaw) -> tuple[list[Row], int, bool]:
    """Merged rows of the pair, their common denominator, and whether every row is exact."""
    joint = Counter(_keys(p, q))
    dp, dq = p.den, q.den
    plo, phi, qlo, qhi, qexact = p.lo, p.hi, q.lo, q.hi, q.exact
    rows = [(k, m * plo[k[0]] * dq, m * phi[k[0]] * dq, m * qlo[k[1]] * dp, m * qhi[k[1]] * dp)
            for k, m in joint.items()]
    exact = p.all_exact and (q.all_exact or all(qexact[k[1]] for k in joint))
    return rows, dp * dq, exact


def compiled_pair(p: CompiledLaw, q: CompiledLaw, t: Real, delta: Fraction,
                  prec: int) -> CompiledPair:
    """:func:`hockey_stick` (p, q, t, prec) and :func:`epsilon_at_delta` (p, q, delta, prec) at once,
    on compiled laws; equal results (events as :class:`ClassEvent`)."""
    if delta == 0:
        quick = _pure_no_gap(p, q, t, prec)
        if quick is not None:
            return quick
    rows, scale, exact = _rows(p, q)
    divergence, margin, event = _hockey_stick_rows(rows, scale, t, prec, exact)
    return CompiledPair(divergence, margin, ClassEvent(p, q, event),
                        _epsilon_rows(p, q, rows, scale, delta, exact))


def _hockey_stick_rows(rows: list[Row], scale: int, t: Real, prec: int, exact: bool
                       ) -> tuple[Prob, Fraction, set[Key]]:
    event: set[Key] = set()
    tt = t.exact
    if tt is not None and exact:
        tn, td = tt.numerator, tt.denominator
        total = 0
        for k, pv, _, qv, _ in rows:
            gap = pv * td - tn * qv                    # (p − t·q)·scale·td
            if gap > 0:
                total += gap
                event.add(k)
        value = Fraction(total, scale * td)
        return value, value, event
    tbox = t.enclose(prec)
    hn, hd = tbox.hi.numerator, tbox.hi.denominator
    ln, ld = tbox.lo.numerator, tbox.lo.denominator
    lo_sum = hi_sum = 0
    for k, plo, phi, qlo, qhi in rows:
        gap_lo = plo * hd - hn * qhi                   # (p.lo − t.hi·q.hi)·scale·t.hi.den
        if gap_lo > 0:
            lo_sum += gap_lo
            event.add(k)
        gap_hi = phi * ld - ln * qlo                   # (p.hi − t.lo·q.lo)·scale·t.lo.den
        if gap_hi > 0:
            hi_sum += gap_hi
    witness = Fraction(lo_sum, scale * hd)
    return Interval(witness, Fraction(hi_sum, scale * ld)).rounded(prec), witness, event


def _sweep(rows: list[tuple[Key, int, int]], scale: int, delta: Fraction
           ) -> tuple[Fraction | None, set[Key], dict[Key, tuple[int, Fraction]] | None]:
    """:func:`solve_exact` on integer rows (key, p·scale, q·scale): (t, event keys, ranks)."""
    dn, dd = delta.numerator * scale, delta.denominator     # delta·scale = dn/dd
    infinite = {k for k, p, q in rows if q == 0 and p > 0}
    m_inf = sum(p for _, p, q in rows if q == 0 and p > 0)
    if m_inf * dd > dn:
        return None, infinite, None
    finite = sorted(((Fraction(p, q), p, q, k) for k, p, q in rows if p > 0 and q > 0),
                    key=itemgetter(0), reverse=True)
    sp, sq = m_inf, 0
    i, n = 0, len(finite)
    t: Fraction | None = None
    while i < n:
        r = finite[i][0]
        rn, rd = r.numerator, r.denominator
        if (sp * rd - rn * sq) * dd > dn * rd:              # sp − r·sq > δ, times scale·rd·dd
            t = Fraction(sp * dd - dn, sq * dd)
            break
        while i < n and finite[i][0] == r:
            sp += finite[i][1]
            sq += finite[i][2]
            i += 1
    if t is None:
        t = Fraction(sp * dd - dn, sq * dd) if sq > 0 and sp * dd > dn else Fraction(1)
    t = max(t, Fraction(1))
    rank: dict[Key, tuple[int, Fraction]] = dict.fromkeys(infinite, (0, Fraction(0)))
    event = set(infinite)
    for r, _, _, k in finite[:i]:
        if r >= t:
            event.add(k)
            rank[k] = (1, -r)
    return t, event, rank


def _epsilon_rows(p: CompiledLaw, q: CompiledLaw, rows: list[Row], scale: int, delta: Fraction,
                  exact: bool) -> LazyEpsilon | None:
    if exact:
        t, keys, rank = _sweep([(k, pv, qv) for k, pv, _, qv, _ in rows], scale, delta)
        if t is None:
            return LazyEpsilon(Fraction(1), None, None, True, ClassEvent(p, q, keys))
        return LazyEpsilon(t, t, t, False, ClassEvent(p, q, keys, rank))
    if delta == 0:
        return _max_ratio_rows(p, q, rows)
    t_lo, keys, rank = _sweep([(k, plo, qhi) for k, plo, _, _, qhi in rows], scale, delta)
    if t_lo is None:
        return LazyEpsilon(Fraction(1), None, None, True, ClassEvent(p, q, keys))
    t_hi, _, _ = _sweep([(k, phi, qlo) for k, _, phi, qlo, _ in rows], scale, delta)
    return LazyEpsilon(t_lo, t_hi, None, False, ClassEvent(p, q, keys, rank))


def _max_ratio_rows(p: CompiledLaw, q: CompiledLaw, rows: list[Row]) -> LazyEpsilon | None:
    """:func:`_max_ratio_enclosure`, or None at its order-dependent edge (a row with P(o) > 0
    possible and Q(o)'s lower end 0, where it stops at the first such outcome)."""
    lo_n = lo_d = hi_n = hi_d = 1
    best: set[Key] = set()
    for k, plo, phi, qlo, qhi in rows:
        if phi == 0:
            continue
        if qlo == 0:          # covers qhi == 0
            return None
        x, y = plo * lo_d, lo_n * qhi
        if x > y:
            lo_n, lo_d, best = plo, qhi, {k}
        elif x == y and best:
            best.add(k)
        if phi * hi_d > hi_n * qlo:
            hi_n, hi_d = phi, qlo
    return LazyEpsilon(Fraction(lo_n, lo_d), Fraction(hi_n, hi_d), None, False,
                       ClassEvent(p, q, best, first=True))


def _pure_no_gap(p: CompiledLaw, q: CompiledLaw, t: Real, prec: int) -> CompiledPair | None:
    """δ = 0 when no row can have P(o) > t·Q(o): the divergence is 0, ε is the largest ratio,
    and neither needs multiplicities, so the distinct keys suffice.  None otherwise."""
    keys = set(_keys(p, q))
    dp, dq = p.den, q.den
    plo, phi, qlo, qhi = p.lo, p.hi, q.lo, q.hi
    exact = p.all_exact and (q.all_exact or all(q.exact[k[1]] for k in keys))
    tt = t.exact
    if tt is not None and exact:
        tn, td = tt.numerator, tt.denominator
        bn, bd = 1, 1                       # the largest ratio so far, at least 1
        best: set[Key] = set()
        for k in keys:
            pv, qv = phi[k[0]] * dq, qhi[k[1]] * dp
            if pv * td > tn * qv:
                return None
            if pv == 0:
                continue
            x, y = pv * bd, bn * qv         # qv > 0 here: pv > 0 = t·qv was excluded
            if x > y:
                bn, bd, best = pv, qv, {k}
            elif x == y:
                best.add(k)
        ratio = Fraction(bn, bd)
        return CompiledPair(ZERO, ZERO, ClassEvent(p, q, EMPTY),
                            LazyEpsilon(ratio, ratio, ratio, False, ClassEvent(p, q, best)))
    tbox = t.enclose(prec)
    ln, ld = tbox.lo.numerator, tbox.lo.denominator
    rows: list[Row] = []
    for k in keys:
        ph, ql = phi[k[0]] * dq, qlo[k[1]] * dp
        if ph * ld > ln * ql:
            return None
        rows.append((k, plo[k[0]] * dq, ph, ql, qhi[k[1]] * dp))
    eps = _epsilon_rows(p, q, rows, dp * dq, ZERO, exact)
    if eps is None:
        return None
    return CompiledPair(ZERO_BOX, ZERO, ClassEvent(p, q, EMPTY), eps)
