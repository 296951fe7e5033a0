"""The pair estimator: a lower confidence bound on epsilon from samples of M(a) and M(b).

Method (see docs/blackbox-statistics.md):

1. Split each side positionally: the first ``selection_fraction`` of the
   samples is the selection split, the rest the held-out split (the samples
   are i.i.d., so any split fixed in advance is as good as a random one).
2. On the selection split only, :func:`privref.audits.blackbox.selection.select_events`
   picks m <= ``max_events`` distinct (event F, direction) candidates; the
   direction says which input is P (the numerator).
3. On the held-out split, each candidate gets Clopper–Pearson bounds
   p_lo <= P(F) and q_hi >= Q(F), each at level alpha/(2m).  By the union
   bound, with probability >= 1 - alpha all 2m bounds hold simultaneously.
4. For an (epsilon, delta)-DP mechanism, P(F) <= e^epsilon Q(F) + delta for
   every event, so on that good event every candidate satisfies
   (p_lo - delta)/q_hi <= e^epsilon(delta), the smallest epsilon the pair
   satisfies at the claimed delta.  The reported bound is
   ln max_F (p_lo - delta)/q_hi, rounded down, and 0.0 when the maximum is <= 1.
5. The pooled test replaces steps 3-4 when delta = 0 and the held-out sizes were
   dealt by fair coins (:mod:`privref.audits.blackbox.pooled`; with a ``seed`` here,
   and in every audit with at least POOLED_MIN held-out outcomes per side): each
   candidate gets one bound r_lo <= P(F)/(P(F) + Q(F)) at level alpha/m, so that
   r_lo/(1 - r_lo) <= P(F)/Q(F) <= e^epsilon for all of them with probability
   >= 1 - alpha.

Guarantee: P(epsilon_lower_bound > epsilon_pair(delta)) <= alpha, where
epsilon_pair(delta) is the pair's exact epsilon at the claimed delta in the
direction(s) considered, and P(violation) <= alpha when the pair satisfies
the claim.  Exact rationals carry the bound until the final float, which is
rounded down; ``violation`` is decided by :func:`privref.reference.reals.compare`.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from privref.reference.errors import InvalidArgument
from privref.reference.privacy import parse_epsilon
from privref.reference.reals import Interval, Order, Real, compare, exp, interval_log, rational
from privref.reference.validate import ExactInput, check_delta, check_int, to_fraction

from ..stats import check_alpha, cp_lower, cp_upper
from .events import FloatPattern
from .pooled import allocate, pooled_applies, pooled_ratio
from .selection import EXPLORE_Z, Candidate, plug_in_score, select_event_views, select_events

__all__ = [
    "SHORTLIST",
    "UNION_COST",
    "PairEstimate",
    "PairFinding",
    "bound_ratio",
    "conclude_pair",
    "conclude_views",
    "dealt_sizes",
    "epsilon_from_ratio",
    "estimate_pair",
    "estimate_pair_detailed",
    "estimate_pair_views",
    "events_digest",
    "exceeds",
    "plan_pair",
    "plan_views",
    "refine_views",
    "selection_sizes",
]

Samples = Sequence[Any] | NDArray[Any]


@dataclass(frozen=True, slots=True)
class PairEstimate:
    """The black-box finding for one pair (a, b), valid with probability >= 1 - alpha.

    * ``epsilon_lower_bound``: >= 0, rounded down; exactly 0.0 with no evidence.
    * ``delta_at_claimed_epsilon``: (lower, upper) bounds on P(F) - e^epsilon Q(F)
      for the reported event F and direction; the lower end is also a lower
      bound on the pair's delta(epsilon) and holds jointly with the epsilon
      bound; the upper end holds (on its own) with probability >= 1 - alpha
      and bounds this event only, not the mechanism's delta.  None only when
      no event was available.
    * ``event``: the event, with the direction: ``(P = M(a), Q = M(b))``.
    * ``direction``: "a→b" (P = M(a), Q = M(b)) or "b→a".
    * ``counts``: held-out hits and sizes per side, and the selection sizes.
    * ``alpha``: the failure probability spent on this pair.
    * ``violation``: the bound proves epsilon(delta) > claimed epsilon.
    * ``float_leak``: the event is an IEEE-754 pattern event (FloatPattern) that reads bits a
      real number lacks: the evidence is a floating-point leak (Mironov 2012).  A pattern event
      that is a union of whole binades (an interval set) is not one.
    * ``test``: "per-side" (Clopper–Pearson bounds on P(F) and Q(F)) or "pooled"
      (one bound on P(F)/(P(F) + Q(F)) over sizes dealt by fair coins,
      :mod:`privref.audits.blackbox.pooled`; delta = 0 only).  With "pooled" the
      delta interval comes from per-side bounds and each of its ends holds on its own
      with probability >= 1 - alpha, not jointly with the epsilon bound.
    """

    epsilon_lower_bound: float
    delta_at_claimed_epsilon: tuple[float, float] | None
    event: str
    direction: str
    counts: dict[str, int]
    alpha: float
    violation: bool
    float_leak: bool = False
    test: str = "per-side"


@dataclass(frozen=True, slots=True)
class PairFinding:
    """:class:`PairEstimate` plus the exact internals: the chosen candidate and its bound ratio.

    ``ratio`` = (p_lo - delta)/q_hi for ``candidate`` (0 with no evidence), an
    exact Fraction, from the held-out bounds ``p_lower`` <= P(F) and
    ``q_upper`` >= Q(F) at level ``alpha_side`` each; with the pooled test
    (``estimate.test == "pooled"``) it is :func:`~privref.audits.blackbox.pooled.pooled_ratio`
    at level 2·``alpha_side``, and ``p_lower``/``q_upper`` are the per-side bounds that
    gave the delta interval.
    """

    estimate: PairEstimate
    candidate: Candidate | None
    ratio: Fraction
    alpha_side: Fraction
    p_lower: Fraction = Fraction(0)
    q_upper: Fraction = Fraction(1)


def bound_ratio(hits_p: int, n_p: int, hits_q: int, n_q: int, *, delta: Fraction,
                alpha_side: Fraction) -> Fraction:
    """(p_lo - delta)/q_hi with one-sided Clopper–Pearson bounds at ``alpha_side`` each; 0 if p_lo <= delta.

    With probability >= 1 - 2·alpha_side this is <= (P(F) - delta)/Q(F) <= e^epsilon(delta).
    """
    p_lo = cp_lower(hits_p, n_p, alpha_side)
    q_hi = cp_upper(hits_q, n_q, alpha_side)
    return (p_lo - delta) / q_hi if p_lo > delta else Fraction(0)


def epsilon_from_ratio(ratio: Fraction) -> float:
    """ln ratio rounded down to a float, and exactly 0.0 when ratio <= 1 (no evidence)."""
    if ratio <= 1:
        return 0.0
    lo = interval_log(Interval.point(ratio)).lo
    if lo <= 0:
        return 0.0
    f = float(lo)
    return math.nextafter(f, -math.inf) if Fraction(f) > lo else f


_HUGE = 50_000
"""Above this (an enclosure of) epsilon, e^epsilon is never formed: ln of any bound is far below
(and the delta interval's upper end is 0 only where e^epsilon·q_lo >= 1 is proved)."""


def exceeds(ratio: Fraction, epsilon: Real) -> bool:
    """True exactly when ``ratio > e^epsilon`` (epsilon >= 0), without forming e^epsilon for huge epsilon.

    ratio <= 1 never exceeds; otherwise ln(ratio) is enclosed and compared with an enclosure of
    epsilon, and only an overlap falls back to the exact comparison (then epsilon is within a
    hair of ln(ratio), a modest number).
    """
    if ratio <= 1:
        return False
    log_ratio = interval_log(Interval.point(ratio))
    eps = epsilon.enclose(64)
    if eps.lo > log_ratio.hi:
        return False
    if eps.hi < log_ratio.lo:
        return True
    return compare(rational(ratio), exp(epsilon))[0] is Order.GREATER


def _round(x: Fraction, up: bool) -> float:
    f = float(x)
    if up and Fraction(f) < x:
        return math.nextafter(f, math.inf)
    if not up and Fraction(f) > x:
        return math.nextafter(f, -math.inf)
    return f


def _fraction(value: object, name: str) -> Fraction:
    frac = to_fraction(value, name)
    if not 0 < frac < 1:
        raise InvalidArgument(f"{name}={frac} must lie in (0, 1)")
    return frac


def _label(candidate: Candidate) -> str:
    p, q = ("a", "b") if candidate.direction == "a→b" else ("b", "a")
    return f"{candidate.event.describe()}  (P = M({p}), Q = M({q}))"


def _delta_interval(c: Candidate, hits: dict[str, int], sizes: dict[str, int], eps: Real,
                    alpha_side: Fraction) -> tuple[float, float]:
    p, q = ("a", "b") if c.direction == "a→b" else ("b", "a")
    q_hi, q_lo = cp_upper(hits[q], sizes[q], alpha_side), cp_lower(hits[q], sizes[q], alpha_side)
    p_lo, p_hi = cp_lower(hits[p], sizes[p], alpha_side), cp_upper(hits[p], sizes[p], alpha_side)
    eps_lo = eps.enclose(64).lo
    if eps_lo > _HUGE:  # e^epsilon is not formed; the upper end is 0 only when e^epsilon·q_lo >= 1
        # is proved: 1/q_lo <= 2^bits for bits = the bit length of q_lo's denominator, and
        # ln 2 < 6932/10000
        proved = q_lo > 0 and eps_lo >= Fraction(6932, 10000) * q_lo.denominator.bit_length()
        return (0.0, 0.0 if proved else _round(p_hi, up=True))
    box = exp(eps).enclose(128)  # formed only below _HUGE
    lower = p_lo - box.hi * q_hi
    upper = p_hi - box.lo * q_lo
    return (_round(min(max(lower, Fraction(0)), Fraction(1)), up=False),
            _round(min(max(upper, Fraction(0)), Fraction(1)), up=True))


def estimate_pair(samples_a: Samples, samples_b: Samples, *, epsilon: Real | ExactInput,
                  delta: ExactInput, alpha: int | Fraction | float,
                  selection_fraction: ExactInput = Fraction(1, 2), max_events: int = 1,
                  max_cuts: int = 64, float_events: bool = True,
                  seed: int | np.random.SeedSequence | None = None) -> PairEstimate:
    """Lower-bound the pair's epsilon at ``delta`` from i.i.d. samples of M(a) and M(b).

    ``epsilon`` (the claim; an exact number or Real such as ln 3) only
    decides ``violation`` and the delta interval; ``delta`` is exact in
    [0, 1); ``alpha`` in (0, 1) is the failure probability (a float is taken
    at its exact binary value).  ``max_events`` (>= 1) caps the number of
    events bounded on the held-out split, ``max_cuts`` the cut points per
    threshold family.  ``float_events=False`` leaves out the events that
    read the bits of float outputs (an audit of the algorithm as if it ran in
    real arithmetic).  With a ``seed`` and delta = 0, a held-out split of at
    least POOLED_MIN per side is bounded by the pooled test, its sizes dealt
    by the seed's fair coins (:mod:`privref.audits.blackbox.pooled`); without
    one, by the per-side test.  See the module docstring for the guarantee.
    """
    return estimate_pair_detailed(samples_a, samples_b, epsilon=epsilon, delta=delta, alpha=alpha,
                                  selection_fraction=selection_fraction, max_events=max_events,
                                  max_cuts=max_cuts, float_events=float_events, seed=seed).estimate


def selection_sizes(n_a: int, n_b: int, selection_fraction: ExactInput = Fraction(1, 2),
                    selection_cap: int | None = None) -> tuple[int, int]:
    """The selection split's size per side: floor(n·fraction), at most ``selection_cap``.

    Raises InvalidArgument unless both the selection and the held-out split get at least one
    outcome per side.  The held-out split is everything after the selection split.
    """
    frac = _fraction(selection_fraction, "selection_fraction")
    if selection_cap is not None:
        check_int(selection_cap, "selection_cap", minimum=1)
    out = []
    for side, n in (("a", n_a), ("b", n_b)):
        s = math.floor(n * frac)
        if selection_cap is not None:
            s = min(s, selection_cap)
        if s < 1 or n - s < 1:
            raise InvalidArgument(
                f"samples_{side} has {n} outcomes; with selection_fraction={frac} both the "
                "selection and the held-out split need at least one")
        out.append(s)
    return out[0], out[1]


def plan_pair(sel_a: Samples, sel_b: Samples, *, held_a: int, held_b: int, delta: ExactInput,
              alpha: int | Fraction | float, max_events: int = 1, max_cuts: int = 64,
              float_events: bool = True, pooled: bool = False) -> tuple[Candidate, ...]:
    """The (event, direction) candidates to bound on the held-out split, from the selection split alone.

    At most ``max_events`` of them; empty when no outcome is readable.  Because they depend on
    the selection split only, counting them on a held-out split of i.i.d. draws (all at once, or
    chunk by chunk as the streaming engine does) and passing the counts to :func:`conclude_pair`
    gives the guarantee of the module docstring.  ``pooled`` scores the events for the
    pooled test (delta = 0, dealt sizes).
    """
    d = check_delta(delta)
    a = check_alpha(alpha)
    check_int(max_events, "max_events", minimum=1)
    check_int(max_cuts, "max_cuts", minimum=1)
    return tuple(select_events(sel_a, sel_b, held_a=held_a, held_b=held_b, delta=d,
                               alpha_side=a / (2 * max_events), count=max_events,
                               max_cuts=max_cuts, float_events=float_events, pooled=pooled))


def dealt_sizes(held_a: int, held_b: int, delta: Fraction,
                seed: int | np.random.SeedSequence | None) -> tuple[int, int] | None:
    """The pooled test's bounding sizes per side, or None when the per-side test applies.

    Dealt (:func:`~privref.audits.blackbox.pooled.allocate`) when a ``seed`` is given,
    delta = 0 and both held-out splits hold at least POOLED_MIN outcomes; the dealing
    uses min(``held_a``, ``held_b``) per side.  The one rule for every path: the streaming
    engine, the in-memory audit and the ``estimate_pair*`` functions.  Raises
    InvalidArgument for a seed that is not an int >= 0 or a SeedSequence.
    """
    if seed is not None and not isinstance(seed, np.random.SeedSequence):
        check_int(seed, "seed", minimum=0)
    if seed is None or delta != 0 or not pooled_applies(min(held_a, held_b)):
        return None
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return allocate(min(held_a, held_b), sequence)


def _bounding_hits(chosen: Sequence[Candidate], rest_a: Samples, rest_b: Samples
                   ) -> list[tuple[int, int]]:
    """(hits under M(a), under M(b)) of each candidate on the bounding split."""
    return [(c.event.count(rest_a), c.event.count(rest_b)) for c in chosen]


def conclude_pair(chosen: Sequence[Candidate], hits: Sequence[tuple[int, int]], *,
                  held_a: int, held_b: int, selection_a: int, selection_b: int,
                  epsilon: Real | ExactInput, delta: ExactInput, alpha: int | Fraction | float,
                  validation: int = 0, dealt: bool = False) -> PairFinding:
    """The pair's finding from held-out counts: ``hits[k]`` = (hits under M(a), under M(b)) of ``chosen[k]``.

    ``held_a``/``held_b`` are the held-out sizes, ``selection_a``/``selection_b`` the selection
    sizes and ``validation`` the validation size per side (:func:`refine_views`; recorded only,
    as ``validation_a``/``validation_b`` when > 0).  Each candidate is bounded at level
    alpha/(2·len(chosen)) per side (a union bound fixed before the held-out split is read); the
    best bound ratio is reported (the first candidate among equals).  With ``dealt`` (sizes
    dealt by :func:`~privref.audits.blackbox.pooled.allocate`) and delta = 0, each candidate
    gets the pooled test at alpha/len(chosen) instead, and dealt sizes (0, 0) (an overflow)
    give no evidence.
    """
    eps = parse_epsilon(epsilon)
    d = check_delta(delta)
    a = check_alpha(alpha)
    if len(hits) != len(chosen):
        raise InvalidArgument(f"hits has {len(hits)} entries for {len(chosen)} candidates")
    held = {"a": held_a, "b": held_b}
    for (ha, hb) in hits:
        if not (0 <= ha <= held_a and 0 <= hb <= held_b):
            raise InvalidArgument(f"hits=({ha}, {hb}) must lie within the held-out sizes "
                                  f"({held_a}, {held_b})")
    counts = {"hits_a": 0, "held_out_a": held_a, "hits_b": 0, "held_out_b": held_b,
              "selection_a": selection_a, "selection_b": selection_b}
    if validation:
        counts["validation_a"] = counts["validation_b"] = validation
    if not chosen or (dealt and held_a == 0):
        why = ("no event (no outcome readable)" if not chosen else
               "no evidence (the dealt sizes overflowed their margin; probability <= 2e^-24)")
        return PairFinding(PairEstimate(0.0, None, why, "a→b", counts, float(a), False), None,
                           Fraction(0), a / 2)
    alpha_side = a / (2 * len(chosen))  # fixed by the selection split alone
    pooled = dealt and d == 0
    best: tuple[Fraction, Candidate, dict[str, int]] | None = None
    for c, (ha, hb) in zip(chosen, hits, strict=True):
        h = {"a": ha, "b": hb}
        p, q = ("a", "b") if c.direction == "a→b" else ("b", "a")
        ratio = (pooled_ratio(h[p], h[q], 2 * alpha_side) if pooled else
                 bound_ratio(h[p], held[p], h[q], held[q], delta=d, alpha_side=alpha_side))
        if best is None or ratio > best[0]:
            best = (ratio, c, h)
    assert best is not None
    ratio, c, h = best
    counts["hits_a"], counts["hits_b"] = h["a"], h["b"]
    estimate = PairEstimate(
        epsilon_lower_bound=epsilon_from_ratio(ratio),
        delta_at_claimed_epsilon=_delta_interval(c, h, held, eps, alpha_side),
        event=_label(c), direction=c.direction, counts=counts, alpha=float(a),
        violation=exceeds(ratio, eps),
        float_leak=isinstance(c.event, FloatPattern) and c.event.reads_float_bits,
        test="pooled" if pooled else "per-side")
    p, q = ("a", "b") if c.direction == "a→b" else ("b", "a")
    return PairFinding(estimate, c, ratio, alpha_side, cp_lower(h[p], held[p], alpha_side),
                       cp_upper(h[q], held[q], alpha_side))


def estimate_pair_detailed(samples_a: Samples, samples_b: Samples, *, epsilon: Real | ExactInput,
                           delta: ExactInput, alpha: int | Fraction | float,
                           selection_fraction: ExactInput = Fraction(1, 2),
                           max_events: int = 1, max_cuts: int = 64,
                           float_events: bool = True,
                           seed: int | np.random.SeedSequence | None = None) -> PairFinding:
    """:func:`estimate_pair` with its exact internals (for validation and reports).

    It is :func:`selection_sizes`, :func:`plan_pair` on the selection split, the candidates'
    counts on the held-out split (its first :func:`dealt_sizes` outcomes per side when
    dealt), and :func:`conclude_pair`.
    """
    parse_epsilon(epsilon)
    sel_a, sel_b = selection_sizes(len(samples_a), len(samples_b), selection_fraction)
    held_a, held_b = len(samples_a) - sel_a, len(samples_b) - sel_b
    dealt = dealt_sizes(held_a, held_b, check_delta(delta), seed)
    chosen = plan_pair(samples_a[:sel_a], samples_b[:sel_b], held_a=held_a, held_b=held_b,
                       delta=delta, alpha=alpha, max_events=max_events, max_cuts=max_cuts,
                       float_events=float_events, pooled=dealt is not None)
    if dealt is not None:
        held_a, held_b = dealt
    hits = _bounding_hits(chosen, samples_a[sel_a:sel_a + held_a], samples_b[sel_b:sel_b + held_b])
    return conclude_pair(chosen, hits, held_a=held_a, held_b=held_b, selection_a=sel_a,
                         selection_b=sel_b, epsilon=epsilon, delta=delta, alpha=alpha,
                         dealt=dealt is not None)


def events_digest(chosen: Sequence[Candidate]) -> str:
    """SHA-256 of a canonical form of the candidates (events and directions): equal iff the same events."""
    h = hashlib.sha256()
    for c in chosen:
        h.update(_canonical_text(c.event).encode())
        h.update(c.direction.encode())
    return h.hexdigest()


def _canonical_text(o: object) -> str:
    if isinstance(o, np.ndarray):
        return f"ndarray{o.dtype.str}{o.shape}:" + hashlib.sha256(o.tobytes()).hexdigest()
    if isinstance(o, frozenset | set):
        return "{" + ",".join(sorted(_canonical_text(x) for x in o)) + "}"
    if isinstance(o, tuple | list):
        return "(" + ",".join(_canonical_text(x) for x in o) + ")"
    if isinstance(o, float):
        return float.hex(o)
    fields = getattr(type(o), "__dataclass_fields__", None)
    if fields is not None:  # the compared fields only (caches are not part of an event)
        return type(o).__name__ + "(" + ",".join(
            f"{k}={_canonical_text(getattr(o, k))}" for k, f in fields.items() if f.compare) + ")"
    return repr(o)


UNION_COST: Final = 0.35
"""About what a second event's union bound costs, in standard errors of the log ratio (the
held-out z at alpha/8 against alpha/4 per side); :func:`refine_views` pays it only to save more."""

SHORTLIST: Final = 4
"""With a validation split, each view shortlists this many candidates by the selection score,
as many again by the milder score of ``EXPLORE_Z``, ``ROBUST`` more by the multiplicity score,
up to ``LADDER`` further out in the best explore candidate's pool and up to ``WIDE`` of the wide
families (the three in :mod:`privref.audits.blackbox.selection`);
:func:`refine_views` keeps one or two."""


def plan_views(sel_a: Samples, sel_b: Samples, *, held_a: int, held_b: int, delta: ExactInput,
               alpha: int | Fraction | float, float_events: bool = True, shortlist: bool = False,
               pooled: bool = False) -> tuple[tuple[Candidate, ...], int | None]:
    """The candidates of the IEEE-754 view and, when they differ, of the real-arithmetic view.

    Returns (candidates, split): with ``float_events`` off, or when the real-arithmetic view
    (no IEEE-754 pattern events) picks the same events, the one view's candidates and None;
    otherwise the IEEE view's candidates followed by the real view's, and ``split`` = how many
    are the IEEE view's.  Decided on the selection split alone.  One candidate per view, or with
    ``shortlist`` up to 2·``SHORTLIST`` + ``ROBUST`` + ``LADDER`` + ``WIDE`` per view, for
    :func:`refine_views` to choose from on a validation split.  ``pooled``: scored for the
    pooled test (delta = 0, dealt sizes).
    """
    d = check_delta(delta)
    a = check_alpha(alpha)
    count, explore = (SHORTLIST, SHORTLIST) if shortlist else (1, 0)
    if not float_events:
        return tuple(select_events(sel_a, sel_b, held_a=held_a, held_b=held_b, delta=d,
                                   alpha_side=a / 2, count=count, explore=explore,
                                   float_events=False, pooled=pooled)), None
    both, only_real = select_event_views(sel_a, sel_b, held_a=held_a, held_b=held_b, delta=d,
                                         alpha_side=a / 2, count=count, explore=explore,
                                         pooled=pooled)
    ieee, real = tuple(both), tuple(only_real)
    if events_digest(real) == events_digest(ieee):
        return ieee, None
    return ieee + real, len(ieee)


def refine_views(chosen: Sequence[Candidate], split: int | None,
                 hits: Sequence[tuple[int, int]], *, validation_a: int, validation_b: int,
                 held_a: int, held_b: int, delta: ExactInput, alpha: int | Fraction | float,
                 pooled: bool = False) -> tuple[tuple[Candidate, ...], int | None]:
    """At most two candidates per view out of a :func:`plan_views` shortlist, by their counts on a
    validation split.

    ``hits[k]`` = (hits under M(a), under M(b)) of ``chosen[k]`` on the validation split, of
    sizes ``validation_a``/``validation_b``; ``held_a``/``held_b`` are the sizes of the split
    that will bound the result.  Candidates are scored by
    :func:`~privref.audits.blackbox.selection.plug_in_score` projected to the bounding sizes,
    twice: with a selection step of ``EXPLORE_Z`` standard errors (bold: small events with
    large ratios) and of the held-out z (safe: events whose counts leave no doubt).  Each view
    keeps the best of each; bounding both (a union bound in :func:`conclude_views`) costs little,
    and a validation split that flattered a small event cannot sink the bound.  It keeps the bold
    one alone when they coincide, or when the bold one's safe score is within ``UNION_COST``
    standard errors (of its log ratio at the bounding sizes) of the safe one's: then the union
    bound would cost about as much as it could save.  Returns (candidates, split) as
    :func:`plan_views` does: one view when both views keep the same events.  The choice is a
    function of the selection and validation splits only, so bounding it on a third, disjoint
    split keeps the guarantee of the module docstring.  ``pooled``: scored for the pooled
    test (delta = 0, dealt sizes), whose level per event is twice the per-side level.
    """
    d = check_delta(delta)
    a = check_alpha(alpha)
    if len(hits) != len(chosen):
        raise InvalidArgument(f"hits has {len(hits)} entries for {len(chosen)} candidates")
    z = NormalDist().inv_cdf(1 - float(a / 8))
    z_held = NormalDist().inv_cdf(1 - float(a / 4)) if pooled else z
    sizes = {"a": validation_a, "b": validation_b}
    bound = {"a": held_a, "b": held_b}

    def sides(k: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """(hits, validation size, bounding size) of P, then of Q, for candidate k."""
        h = {"a": hits[k][0], "b": hits[k][1]}
        p, q = ("a", "b") if chosen[k].direction == "a→b" else ("b", "a")
        return (h[p], sizes[p], bound[p]), (h[q], sizes[q], bound[q])

    def score(k: int, z_selection: float) -> float:
        (hp, vp, bp), (hq, vq, bq) = sides(k)
        return float(plug_in_score(np.array([hp]), vp, bp, np.array([hq]), vq, bq, float(d),
                                   z_held, z_selection, pooled)[0])

    def spread(k: int) -> float:  # standard error of the log ratio at the bounding sizes
        projected = [max(h / max(v, 1) * b, 1.0) for h, v, b in sides(k)]
        return math.sqrt(1 / projected[0] + 1 / projected[1])

    def best(lo: int, hi: int) -> tuple[Candidate, ...]:
        if lo == hi:
            return ()
        bold = max(range(lo, hi), key=lambda k: (score(k, EXPLORE_Z), -k))
        safe = max(range(lo, hi), key=lambda k: (score(k, z), -k))
        if bold == safe or score(bold, z) >= score(safe, z) - UNION_COST * spread(bold):
            return (chosen[bold],)  # the bold pick is about as sure: no union bound to pay
        return (chosen[bold], chosen[safe])

    if split is None:
        return best(0, len(chosen)), None
    ieee, real = best(0, split), best(split, len(chosen))
    if events_digest(ieee) == events_digest(real):
        return ieee, None
    return ieee + real, len(ieee)


def conclude_views(chosen: Sequence[Candidate], hits: Sequence[tuple[int, int]],
                   split: int | None, *, held_a: int, held_b: int, selection_a: int,
                   selection_b: int, epsilon: Real | ExactInput, delta: ExactInput,
                   alpha: int | Fraction | float, validation: int = 0, dealt: bool = False
                   ) -> tuple[PairFinding, PairFinding | None]:
    """(the IEEE-754 view's or only view's finding, the real-arithmetic view's or None).

    With two views (``split`` not None) each is bounded at alpha/2, so both hold together with
    probability >= 1 - alpha; with one view it gets all of alpha (:func:`conclude_pair`, with
    ``dealt`` as there).
    """
    a = check_alpha(alpha)

    def one(lo: int, hi: int, level: Fraction) -> PairFinding:
        return conclude_pair(chosen[lo:hi], hits[lo:hi], held_a=held_a, held_b=held_b,
                             selection_a=selection_a, selection_b=selection_b, epsilon=epsilon,
                             delta=delta, alpha=level, validation=validation, dealt=dealt)

    if split is None:
        return one(0, len(chosen), a), None
    return one(0, split, a / 2), one(split, len(chosen), a / 2)


def estimate_pair_views(samples_a: Samples, samples_b: Samples, *, epsilon: Real | ExactInput,
                        delta: ExactInput, alpha: int | Fraction | float, float_events: bool = True,
                        seed: int | np.random.SeedSequence | None = None
                        ) -> tuple[PairFinding, PairFinding | None]:
    """Both views from one run on all the samples: what ``run_audit`` reports for a pair.

    :func:`plan_views` on the first half, the candidates counted on the second half (its
    first :func:`dealt_sizes` outcomes per side when dealt by ``seed``),
    :func:`conclude_views`.  Equal to the streaming engine's result whenever its selection
    split is not capped, given the engine's seed of the pair
    (:func:`privref.audits.blackbox.runner.dealing_seed`).
    """
    sel_a, sel_b = selection_sizes(len(samples_a), len(samples_b))
    held_a, held_b = len(samples_a) - sel_a, len(samples_b) - sel_b
    dealt = dealt_sizes(held_a, held_b, check_delta(delta), seed)
    chosen, split = plan_views(samples_a[:sel_a], samples_b[:sel_b], held_a=held_a,
                               held_b=held_b, delta=delta, alpha=alpha, float_events=float_events,
                               pooled=dealt is not None)
    if dealt is not None:
        held_a, held_b = dealt
    hits = _bounding_hits(chosen, samples_a[sel_a:sel_a + held_a], samples_b[sel_b:sel_b + held_b])
    return conclude_views(chosen, hits, split, held_a=held_a, held_b=held_b, selection_a=sel_a,
                          selection_b=sel_b, epsilon=epsilon, delta=delta, alpha=alpha,
                          dealt=dealt is not None)
