"""Event selection on a selection split (the events are bounded later on a held-out split).

Candidate events come from the **selection split only**, in the families of
:mod:`.pools`:

* discrete (hashable) outcomes, tuples included: ranked outcomes, every
  prefix of the ranking;
* numeric scalars (ints or floats): thresholds, intervals and their
  complements, with at most ``max_cuts`` cut points at quantiles of the pooled
  selection split, and, when δ > 0, cut points whose tails hold δ·2^j of it
  (j = −2..8; every other j per coordinate of a vector), where the events that
  maximise (P(F) − δ)/Q(F) live; unions of quantile bins ranked by likelihood ratio; and
  IEEE-754 classes for non-integer floats;
* numeric tuples / vectors: the same threshold families on each coordinate,
  coordinate-wise patterns, thresholds on scores learned on the selection
  split (:mod:`.scores`: naive Bayes, logistic regression, Fisher's
  discriminant, a sign test, and conjunctions of per-coordinate margins, on the
  coordinates and on their increments), and, when some entries are atoms, the
  sparse-vector family {at least k atoms lead, then a first finite entry <= c};
* tuples of varying length (sparse-vector outputs): every family above on the
  rows padded to the longest length L of the selection split
  (:class:`~privref.audits.blackbox.events.Padded`), plus the halting family:
  {len = k}, {len <= k}, {len >= k} for k <= L, and sets of first-k-entries
  prefixes (k < L) ranked by likelihood ratio.

Learned families (rankings, bins, patterns, scores) learn on the first half of
the selection split and are counted on its second half, so that their counts
carry no fitting bias; fixed-form families are counted on the whole
selection split.  :func:`select_events` ranks every candidate, in both
directions, by :func:`plug_in_score` (floats; heuristic) and returns the best
few distinct ones.

Why the final bounds are valid: the returned events and directions are
functions of the selection split alone, hence fixed with respect to the
held-out split, however many candidates were scored.  Bounding only the few
returned events, with a union bound over them, is a valid confidence
statement.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any, Final, cast

import numpy as np
from numpy.typing import NDArray

from privref.reference.errors import InvalidArgument

from .events import Event, FloatPattern, OutcomeSet, Padded, Score
from .outcomes import (
    TAIL_EXPONENTS,
    FloatArray,
    IntArray,
    Layout,
    decode_int_row,
    detect_layout,
    int_row_codes,
    outcome_keys,
    padded_rows,
    readable,
    scalars,
    vectors,
)
from .pools import (
    Direction,
    Halves,
    Pool,
    answered_pools,
    binned_pools,
    coarse_pools,
    float_pattern_pools,
    leading_pools,
    length_pools,
    prefix_pools,
    ranked_pools,
    score_pools,
    threshold_pools,
)
from .scores import linear_score, logistic_score, margin_score, naive_bayes_score, vote_score

__all__ = [
    "COARSE_MAX_DIM",
    "EXPLORE_Z",
    "LADDER",
    "LEADING_CUTS",
    "LEARNER_MAX_ROWS",
    "ROBUST",
    "VECTOR_TAIL_EXPONENTS",
    "WIDE",
    "Candidate",
    "ladder",
    "plug_in_score",
    "select_event_views",
    "select_events",
]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A selected event and direction, with the hits that scored it and its score (a float).

    ``hits_a``/``hits_b`` are counted on the part of the selection split that
    scored the candidate (all of it for thresholds and intervals, its second
    half for learned events); they never involve the held-out split.
    """

    event: Event
    direction: Direction
    hits_a: int
    hits_b: int
    score: float


Split = Sequence[Any] | NDArray[Any]


LEARNER_MAX_ROWS: Final = 50_000
"""The logistic score learns on at most this many rows per side of the fit part (its cost is linear)."""

COARSE_MAX_DIM: Final = 32
"""Coordinate-wise pattern and float-pattern families are built for vectors of at most this length."""


LEADING_CUTS: Final = 16
"""Quantile cuts per lead length of the sparse-vector family (:func:`.pools.leading_pools`),
besides its deep tail cuts."""

EXPLORE_Z: Final = 1.0
"""The selection step's z for the ``explore`` candidates: one standard error of pessimism
instead of the held-out z (a validation split larger than the selection split re-ranks them)."""

ROBUST: Final = 2
"""With ``explore``, this many more candidates per view, the best by the score whose selection
step is the multiplicity z: z_M = Φ⁻¹(1 − 1/(2M)) for the M members of the pools scored (at
least the held-out z; M also counts the edge cuts and the ``wide`` members, which are scored but
not ranked, so z_M errs on the pessimistic side: about 6 300 instead of 5 000 members on
NumericalSVT).  Hundreds of deep tail cuts each carry a plug-in ratio noisy by several standard
errors, and their maximum is luck: on DP-Sniper's Laplace mechanism at 2.2·10⁸ per side the
eight shortlisted real-arithmetic events were all deep tails (186 against 118 selection hits,
ratio e^0.46 for a true e^0.1), and the broad tail {x > 1} was not among them."""


WIDE: Final = 32
"""With ``explore``, up to this many more candidates per view from the ``wide`` pools
(:func:`.pools.answered_pools`), the best by the explore score: those families are never ranked
on the selection split, whose counts cannot tell their best member from its neighbours; the
validation split, 16 times larger, ranks them (:func:`privref.audits.blackbox.estimate.refine_views`).
Without a validation split they take no part."""

LADDER: Final = 6
"""With ``explore``, up to this many more candidates per view: the ladder below the best explore
candidate, in its own pool, at about 1/2, 1/4, … 1/2^LADDER of its selection hits under P, down
to one hit (:func:`ladder`: a tail cut further out; the edge cuts of :func:`.outcomes.edge_cuts`
are reached only this way).  A validation split VALIDATION_SHARE = 16 times the selection split
sees such events 16 times as often and can rank what the selection split sees a handful of
times: on DP-Sniper's ReportNoisyMax4 at 2.2·10⁸ per side, seed 0, the best explore cut was
{max <= 4.58} (128 against 24 selection hits); its rungs went down through {max <= 3.61} (29
against 3) to {max <= 2.55} (4 against 0, 28 against 0 on the validation split), and the bound
rose from 1.744 to 3.631."""


def ladder(pool: Pool, top: int, steps: int = LADDER) -> list[int]:
    """Indices of ``pool`` below candidate ``top``: for m = 1..``steps`` while 2^m <= hits_p[top],
    the candidate whose hits under P are nearest (in log) to hits_p[top]/2^m, among those with
    1 <= hits_p < hits_p[top] and hits_q <= hits_q[top] (a threshold's or a ranked prefix's
    further tail; no condition on the ratio, which a handful of hits cannot estimate); first of
    equals, distinct, in the order of m.  A function of the selection counts only."""
    hp, hq = pool.hits_p.astype(np.float64), pool.hits_q.astype(np.float64)
    h = hp[top]
    ok = (hp >= 1) & (hp < h) & (hq <= hq[top])
    if not ok.any():
        return []
    where = np.flatnonzero(ok)
    logs = np.log2(hp[where])
    out: list[int] = []
    for m in range(1, steps + 1):
        if h < 2 ** m:
            break
        j = int(where[np.argmin(np.abs(logs - (math.log2(h) - m)))])
        if j not in out:
            out.append(j)
    return out


def _decoding_maker(low: IntArray, place: IntArray) -> Callable[[frozenset[Hashable]], Event]:
    return lambda codes: OutcomeSet(frozenset(decode_int_row(cast(int, c), low, place)
                                              for c in codes))


def _padded_maker(make: Callable[[int], Event], length: int) -> Callable[[int], Event]:
    return lambda i: Padded(make(i), length)


VECTOR_TAIL_EXPONENTS: Final = (-2, 0, 2, 4, 6, 8)
"""Tail-mass exponents j (masses δ·2^j) of the per-coordinate tail cuts of vector outcomes."""


def _pools(sel_a: Split, sel_b: Split, cut_a: int, cut_b: int, layout: Layout,
           max_cuts: int, float_events: bool, delta: float = 0.0,
           wide: bool = False) -> list[Pool]:
    """Every family's candidates.  Fixed-form families (thresholds, intervals) count on the whole
    selection split; learned ones (ranked outcomes, bins, patterns, scores) learn on its first part
    (``[:cut]``) and count on the rest, so their counts carry no fitting bias.  ``wide``: also
    the families that only a validation split ranks (:data:`WIDE`)."""
    split = cut_a > 0 and cut_b > 0
    fit_a, fit_b = (sel_a[:cut_a], sel_b[:cut_b]) if split else (sel_a, sel_b)
    test_a, test_b = (sel_a[cut_a:], sel_b[cut_b:]) if split else (sel_a, sel_b)
    if layout.padded:  # varying lengths: every family on padded rows, then the halting family
        longest = layout.dim
        inner = _pools(padded_rows(sel_a, longest), padded_rows(sel_b, longest), cut_a, cut_b,
                       Layout("mixed", longest, True), max_cuts, float_events, delta, wide)
        wrapped = [Pool(p.direction, p.hits_p, p.hits_q, p.size_p, p.size_q,
                        _padded_maker(p.make, longest), p.ladder_only, p.wide) for p in inner]
        return (wrapped + length_pools(sel_a, sel_b, longest)
                + prefix_pools(fit_a, fit_b, test_a, test_b, longest))

    def halves(xa: FloatArray, xb: FloatArray) -> Halves:
        if not split:
            return Halves(xa, xb, xa, xb)
        return Halves(xa[:cut_a], xb[:cut_b], xa[cut_a:], xb[cut_b:])

    pools: list[Pool] = []
    if layout.discrete:
        coded = int_row_codes(*(x for x in (fit_a, fit_b, test_a, test_b)
                                if isinstance(x, np.ndarray)))
        if coded is not None and len(coded[0]) == 4:  # integer rows: int64 codes, same events
            (k_fa, k_fb, k_ta, k_tb), low, place = coded
            pools += ranked_pools(k_fa, k_fb, k_ta, k_tb, _decoding_maker(low, place))
        else:
            pools += ranked_pools(outcome_keys(fit_a), outcome_keys(fit_b),
                                  outcome_keys(test_a), outcome_keys(test_b), OutcomeSet)
    if layout.kind == "scalar":
        xa, xb = scalars(sel_a), scalars(sel_b)
        pools += threshold_pools(Halves(xa, xb, xa, xb), None, 1, max_cuts, True, delta)
        pools += binned_pools(halves(xa, xb), None, 1, max_cuts)
        if float_events and not layout.discrete:
            ra, rb = readable(sel_a, None, 1), readable(sel_b, None, 1)
            pools += float_pattern_pools(halves(ra.values, rb.values), None, 1)
    elif layout.kind in ("vector", "mixed"):
        dim = layout.dim
        va, vb = vectors(sel_a, dim), vectors(sel_b, dim)
        per_coord = max(8, max_cuts // 4) if dim > 1 else max_cuts
        for i in range(dim):
            ca, cb = va[:, i], vb[:, i]
            pools += threshold_pools(Halves(ca, cb, ca, cb), i, dim, per_coord, True, delta,
                                     VECTOR_TAIL_EXPONENTS if dim > 1 else TAIL_EXPONENTS)
            if dim == 1:
                pools += binned_pools(halves(ca, cb), i, dim, max_cuts)
            if float_events and not layout.discrete and dim <= COARSE_MAX_DIM:
                pools += float_pattern_pools(halves(ca, cb), i, dim)
        if dim > 1 and not (np.isfinite(va).all() and np.isfinite(vb).all()):
            pools += leading_pools(va, vb, LEADING_CUTS)
            if wide:  # only a validation split ranks them (WIDE)
                pools += answered_pools(va, vb)
        fa, fb = (va[:cut_a], vb[:cut_b]) if split else (va, vb)
        if dim > 1 and dim <= COARSE_MAX_DIM:
            ta, tb = (va[cut_a:], vb[cut_b:]) if split else (va, vb)
            for bins in (2, 4):
                pools += coarse_pools(fa, fb, ta, tb, bins)
        cap = LEARNER_MAX_ROWS
        learned: list[Score | None] = [naive_bayes_score(fa, fb, 16), logistic_score(fa[:cap], fb[:cap]),
                                       linear_score(fa, fb), vote_score(fa, fb)]
        if dim > 1:
            learned += [margin_score(fa, fb, toward_a=t, differences=d)
                        for d in (False, True) for t in (True, False)]
        for score in learned:
            if score is not None:
                sa, sb = score(va), score(vb)
                pools += score_pools(score, halves(sa, sb), max_cuts, delta)
    return pools


def _wilson(phat: FloatArray, n: int, z: float, upper: bool) -> FloatArray:
    z2 = z * z
    center = (phat + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * np.sqrt(phat * (1 - phat) / n + z2 / (4 * n * n))
    return np.asarray(np.clip(center + half if upper else center - half, 0.0, 1.0))


def plug_in_score(hits_p: IntArray, size_p: int, held_p: int, hits_q: IntArray, size_q: int,
                  held_q: int, delta: float, z: float, z_selection: float,
                  pooled: bool = False) -> FloatArray:
    """A pessimistic plug-in of the held-out bound's log; -inf when there is none.

    The selection frequencies are first moved to their own Wilson bounds at
    the selection sizes (``z_selection``; 0 keeps them), then the held-out
    bound (``z`` standard errors) is applied at the held-out sizes: per side,
    ln((p_lo - delta)/q_hi), or with ``pooled`` (delta = 0) the pooled test's
    ln(r_lo/(1 - r_lo)) on the expected pooled hits
    (:mod:`privref.audits.blackbox.pooled`).  The first step keeps small
    events with lucky ratios from winning the maximum over many candidates.
    Floats, heuristic: this only chooses events and never enters a reported
    bound.
    """
    p_sel = _wilson(hits_p / size_p, size_p, z_selection, upper=False)
    q_sel = _wilson(hits_q / size_q, size_q, z_selection, upper=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        if pooled:
            x, y = p_sel * held_p, q_sel * held_q
            total = x + y
            safe = np.maximum(total, 1e-300)
            r_lo = _wilson_at(x / safe, safe, z)
            out = np.where((total > 0) & (r_lo > 0),
                           np.log(np.maximum(r_lo, 1e-300)) - np.log1p(-np.minimum(r_lo, 1 - 1e-16)),
                           -np.inf)
            return np.asarray(out, dtype=np.float64)
        p_lo = _wilson(p_sel, held_p, z, upper=False)
        q_hi = _wilson(q_sel, held_q, z, upper=True)
        num = p_lo - delta
        out = np.where((num > 0) & (q_hi > 0), np.log(np.maximum(num, 1e-300) / q_hi), -np.inf)
    return np.asarray(out, dtype=np.float64)


def _wilson_at(phat: FloatArray, n: FloatArray, z: float) -> FloatArray:
    """The lower Wilson bound of ``phat`` at (expected, real-valued) sizes ``n``, elementwise."""
    z2 = z * z
    center = (phat + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * np.sqrt(phat * (1 - phat) / n + z2 / (4 * n * n))
    return np.asarray(np.clip(center - half, 0.0, 1.0))


def select_events(sel_a: Sequence[Any] | NDArray[Any], sel_b: Sequence[Any] | NDArray[Any], *,
                  held_a: int, held_b: int, delta: Fraction, alpha_side: Fraction,
                  count: int = 1, max_cuts: int = 64, pessimism: float = 1.0,
                  float_events: bool = True, explore: int = 0,
                  pooled: bool = False) -> list[Candidate]:
    """The ``count`` best distinct (event, direction) candidates, chosen from the selection split only.

    ``held_a``/``held_b`` are the held-out sizes and ``alpha_side`` the level
    of each one-sided held-out bound; they only shape the score.  Candidates
    with equal selection counts in the same direction are treated as one.
    Candidates are ranked by :func:`plug_in_score` with ``z_selection =
    pessimism·z``, ties (e.g. all -inf) broken by the score without the
    selection step and then by the smoothed empirical log ratio, so a caller
    always gets an event when any outcome was seen.  ``float_events=False``
    leaves out the IEEE-754 pattern family (audit the algorithm as if in real
    arithmetic; see :mod:`privref.audits.blackbox.features`).  ``explore`` as in
    :func:`select_event_views`.  ``pooled`` (delta = 0 only) scores for the pooled test
    at level 2·``alpha_side`` (:mod:`privref.audits.blackbox.pooled`).
    """
    pools, rank = _prepare(sel_a, sel_b, held_a=held_a, held_b=held_b, delta=delta,
                           alpha_side=alpha_side, count=count, max_cuts=max_cuts,
                           pessimism=pessimism, float_events=float_events, explore=explore,
                           pooled=pooled)
    return rank(pools)


def select_event_views(sel_a: Sequence[Any] | NDArray[Any], sel_b: Sequence[Any] | NDArray[Any],
                       *, held_a: int, held_b: int, delta: Fraction, alpha_side: Fraction,
                       count: int = 1, max_cuts: int = 64, pessimism: float = 1.0,
                       explore: int = 0, pooled: bool = False
                       ) -> tuple[list[Candidate], list[Candidate]]:
    """:func:`select_events` with and without the IEEE-754 pattern family, from one set of pools.

    Returns (the choice with ``float_events=True``, the choice with ``float_events=False``),
    equal to the two calls of :func:`select_events`, at the cost of one: the families are
    built once and ranked twice, the second time without the float-pattern pools.
    ``explore`` > 0 appends up to that many more candidates per view, the best by the score
    with a selection step of only ``EXPLORE_Z`` standard errors (smaller events with larger
    ratios, which a validation split larger than the selection split can confirm; see
    :func:`privref.audits.blackbox.estimate.refine_views`).
    """
    pools, rank = _prepare(sel_a, sel_b, held_a=held_a, held_b=held_b, delta=delta,
                           alpha_side=alpha_side, count=count, max_cuts=max_cuts,
                           pessimism=pessimism, float_events=True, explore=explore,
                           pooled=pooled)
    real = [p for p in pools if not (len(p.hits_p) and isinstance(p.make(0), FloatPattern))]
    everything = rank(pools)
    return everything, (everything if len(real) == len(pools) else rank(real))


def _prepare(sel_a: Sequence[Any] | NDArray[Any], sel_b: Sequence[Any] | NDArray[Any], *,
             held_a: int, held_b: int, delta: Fraction, alpha_side: Fraction, count: int,
             max_cuts: int, pessimism: float, float_events: bool, explore: int = 0,
             pooled: bool = False
             ) -> tuple[list[Pool], Callable[[list[Pool]], list[Candidate]]]:
    """The candidate pools of the selection split, and the ranking that picks from a list of them."""
    if count < 1:
        raise InvalidArgument(f"count={count} must be >= 1")
    if len(sel_a) == 0 or len(sel_b) == 0:
        raise InvalidArgument("the selection split must hold at least one outcome per side")
    layout = detect_layout(sel_a, sel_b)
    cut_a, cut_b = (len(sel_a) + 1) // 2, (len(sel_b) + 1) // 2
    if cut_a == len(sel_a) or cut_b == len(sel_b):  # too few to split: learned families count in-sample
        cut_a, cut_b = 0, 0
    d = float(delta)
    pools = _pools(sel_a, sel_b, cut_a, cut_b, layout, max_cuts, float_events, d, explore > 0)
    if pooled and delta != 0:
        raise InvalidArgument(f"pooled=True needs delta=0, not {delta}")
    z = NormalDist().inv_cdf(1 - float(alpha_side))
    z_held = NormalDist().inv_cdf(1 - float(2 * alpha_side)) if pooled else z
    held = {"a→b": (held_a, held_b), "b→a": (held_b, held_a)}

    def rank(pools: list[Pool]) -> list[Candidate]:
        # (primary, secondary, ratio, explored, pool, index, robust): each pool's best few by
        # each ordering
        ranked: list[tuple[float, float, float, float, int, int, float]] = []
        scored = sum(len(pool.hits_p) for pool in pools if pool.size_p and pool.size_q)
        z_robust = max(z, NormalDist().inv_cdf(1 - 1 / (2 * max(scored, 1))))
        bold_scores: dict[int, FloatArray] = {}  # each pool's explore scores, edge cuts included
        wide: list[tuple[float, float, int, int]] = []  # (explored, ratio, pool, index)
        for pi, pool in enumerate(pools):
            if pool.size_p == 0 or pool.size_q == 0:
                continue
            held_p, held_q = held[pool.direction]
            args = (pool.hits_p, pool.size_p, held_p, pool.hits_q, pool.size_q, held_q, d, z_held)
            primary = plug_in_score(*args, z_selection=pessimism * z, pooled=pooled)
            secondary = plug_in_score(*args, z_selection=0.0, pooled=pooled)
            explored = (plug_in_score(*args, z_selection=EXPLORE_Z, pooled=pooled) if explore
                        else np.zeros(len(primary)))
            robust = (plug_in_score(*args, z_selection=z_robust, pooled=pooled) if explore
                      else np.zeros(len(primary)))
            ratio = (np.log((pool.hits_p + 1) / (pool.size_p + 1))
                     - np.log((pool.hits_q + 1) / (pool.size_q + 1)))
            if explore:  # kept before the edge cuts are masked (a copy only where they are)
                bold_scores[pi] = explored if pool.ladder_only is None else explored.copy()
            if pool.wide:  # never ranked on the selection split, only shortlisted wholesale
                if explore:
                    wide += [(float(explored[i]), float(ratio[i]), pi, int(i))
                             for i in range(len(primary))]
                continue
            if pool.ladder_only is not None:  # edge cuts: never ranked, only laddered to
                for v in (primary, secondary, explored, robust, ratio):
                    v[pool.ladder_only] = -np.inf
            top = np.lexsort((-ratio, -secondary, -primary))[: 4 * count]
            if explore:
                top = np.unique(np.concatenate([top, np.lexsort((-ratio, -explored))[: 4 * explore],
                                                np.lexsort((-ratio, -robust))[: 4 * ROBUST]]))
            ranked += [(float(primary[i]), float(secondary[i]), float(ratio[i]),
                        float(explored[i]), pi, int(i), float(robust[i])) for i in top]
        chosen: list[Candidate] = []
        seen: set[tuple[str, int, int]] = set()

        def take(order: list[tuple[float, float, float, float, int, int, float]],
                 limit: int) -> None:
            taken = 0
            for score, _, _, _, pi, i, _ in order:
                if taken == limit:
                    return
                pool = pools[pi]
                key = (pool.direction, int(pool.hits_p[i]), int(pool.hits_q[i]))
                if key in seen:
                    continue
                seen.add(key)
                hits_a, hits_b = (key[1], key[2]) if pool.direction == "a→b" else (key[2], key[1])
                chosen.append(Candidate(pool.make(i), pool.direction, hits_a, hits_b, score))
                taken += 1

        take(sorted(ranked, key=lambda r: r[:3], reverse=True), count)
        if explore:
            bold = sorted(ranked, key=lambda r: (r[3], r[2]), reverse=True)
            take(bold, explore)
            take(sorted(ranked, key=lambda r: (r[6], r[2]), reverse=True), ROBUST)
            if bold and bold[0][3] > -math.inf:
                best_pool, best = bold[0][4], bold[0][5]
                take([(float(bold_scores[best_pool][j]), 0.0, 0.0, 0.0, best_pool, j, 0.0)
                      for j in ladder(pools[best_pool], best)], LADDER)
            take([(e, 0.0, r, e, pi, i, 0.0) for e, r, pi, i in sorted(wide, reverse=True)
                  if e > -math.inf], WIDE)
        return chosen

    return pools, rank
