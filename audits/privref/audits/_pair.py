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

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from privref.reference.program import Distribution
from privref.reference.reals import Interval, Prob, Real, prob_as_interval

__all__ = ["PairEpsilon", "epsilon_at_delta", "hockey_stick", "profile_breakpoints", "solve_exact"]


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
