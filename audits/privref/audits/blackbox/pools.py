"""Candidate pools: the event families of the selection split, with their hit counts in both directions.

A :class:`Pool` holds the hits under P and Q of a family's events, in one
direction, and builds the event at an index on demand.  Families:

* ranked outcomes (:func:`ranked_pools`): outcomes (or bins, classes,
  patterns) ranked by the smoothed likelihood ratio
  ((c_P + 1)/(s_P + 1)) / ((c_Q + 1)/(s_Q + 1)) on a fit part, every prefix of
  the ranking (a grid of 256 prefix lengths beyond :data:`MAX_PREFIXES`
  outcomes), counted on a test part;
* thresholds {x <= c}, {x > c}, intervals {c < x <= c'} and their complements
  (:func:`threshold_pools`), with at most ``max_cuts`` cut points at quantiles, plus, when
  δ > 0, the tail cuts of :func:`~privref.audits.blackbox.outcomes.tail_cuts` (tail masses
  δ·2^j: the best event for δ > 0 maximises (P(F) − δ)/Q(F) and lives in a tail);
* unions of quantile bins (:func:`binned_pools`), IEEE-754 classes
  (:func:`float_pattern_pools`) and coordinate-wise patterns
  (:func:`coarse_pools`), ranked as above;
* thresholds on a learned score (:func:`score_pools`);
* for vectors with atoms (a sparse vector's unanswered entries), the first answer after k
  unanswered (:func:`leading_pools`) and the set of answered entries with a threshold on the
  smallest or largest answer (:func:`answered_pools`);
* for tuples of varying length, the halting family: {len = k}, {len <= k},
  {len >= k} (:func:`length_pools`) and sets of first-k-entries prefixes
  ranked as above (:func:`prefix_pools`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, cast

import numpy as np
from numpy.typing import NDArray

from .events import (
    ANSWERED_MAX_DIM,
    Answered,
    Band,
    BinUnion,
    CoarseSet,
    Event,
    FloatPattern,
    Leading,
    Length,
    PrefixSet,
    Score,
    ScoreThreshold,
    Threshold,
    answered_codes,
    answered_stat,
    leading,
)
from .features import float_pattern
from .outcomes import (
    TAIL_EXPONENTS,
    FloatArray,
    IntArray,
    deep_cuts,
    edge_cuts,
    lengths,
    outcome_keys,
    prefixes_of_keys,
    quantile_cuts,
    tail_cuts,
)

__all__ = [
    "ANSWERED_MIN_ROWS",
    "ANSWERED_PATTERNS",
    "MAX_PREFIXES",
    "PREFIX_LENGTHS",
    "RANK_Z",
    "Direction",
    "Halves",
    "Pool",
    "answered_pools",
    "binned_pools",
    "coarse_pools",
    "float_pattern_pools",
    "leading_pools",
    "length_pools",
    "prefix_pools",
    "ranked_pools",
    "score_pools",
    "threshold_pools",
]

Direction = Literal["a→b", "b→a"]
"""a→b: P = M(a), Q = M(b); b→a the reverse."""

MAX_PREFIXES: Final = 4096
"""Up to this many distinct outcomes every ranked prefix is a candidate; beyond, a grid of 256."""

RANK_Z: Final = 1.0
"""Standard errors below the log ratio in the second ranking of :func:`ranked_pools`."""

PREFIX_LENGTHS: Final = 32
"""The prefix family uses every k < L when L <= this + 1, else a geometric grid of this many k."""


@dataclass(slots=True)
class Pool:
    """Candidates in one direction: hits under P and Q on a counting split of sizes (size_p, size_q).

    ``ladder_only`` (None: none) marks the candidates that only a ladder may shortlist
    (:data:`~privref.audits.blackbox.selection.LADDER`): the edge cuts, whose few selection hits
    would make them lottery tickets in a ranking by selection counts.  ``wide`` marks a pool
    whose candidates are never ranked on the selection split, only shortlisted for a validation
    split (:data:`~privref.audits.blackbox.selection.WIDE`): a family whose best member is too
    rare for the selection split to tell from its neighbours.
    """

    direction: Direction
    hits_p: IntArray
    hits_q: IntArray
    size_p: int
    size_q: int
    make: Callable[[int], Event]
    ladder_only: NDArray[np.bool_] | None = None
    wide: bool = False


def _both(hits_a: IntArray, hits_b: IntArray, size_a: int, size_b: int,
          make: Callable[[int], Event], ladder_only: NDArray[np.bool_] | None = None,
          wide: bool = False) -> list[Pool]:
    return [Pool("a→b", hits_a, hits_b, size_a, size_b, make, ladder_only, wide),
            Pool("b→a", hits_b, hits_a, size_b, size_a, make, ladder_only, wide)]


Keys = Sequence[Hashable] | IntArray
"""Outcome keys: hashables, or int64 codes (the fast path of :func:`ranked_pools`)."""


def _support_counts(fit_a: Keys, fit_b: Keys, test_a: Keys, test_b: Keys
                    ) -> tuple[list[Hashable], IntArray, IntArray, IntArray, IntArray]:
    """The fit part's distinct keys in first-seen order (a's, then b's new ones) and the counts
    of each under fit a, fit b, test a, test b (test keys outside the support are dropped)."""
    arrays = (fit_a, fit_b, test_a, test_b)
    if all(isinstance(x, np.ndarray) and x.dtype.kind in "iu" for x in arrays):
        fa, fb, ta_, tb_ = (np.asarray(x, dtype=np.int64) for x in arrays)
        fit = np.concatenate([fa, fb])
        uniq, first, inverse = np.unique(fit, return_index=True, return_inverse=True)
        seen = np.argsort(first, kind="stable")  # support position -> unique index
        rank = np.empty(len(uniq), dtype=np.int64)
        rank[seen] = np.arange(len(uniq))
        pos = rank[inverse.reshape(-1)]
        m = len(uniq)

        def test_counts(t: IntArray) -> IntArray:
            if m == 0:
                return np.zeros(0, dtype=np.int64)
            idx = np.minimum(np.searchsorted(uniq, t), m - 1)
            found = uniq[idx] == t
            return np.bincount(rank[idx[found]], minlength=m).astype(np.int64)

        return ([int(v) for v in uniq[seen].tolist()],
                np.bincount(pos[: len(fa)], minlength=m).astype(np.int64),
                np.bincount(pos[len(fa):], minlength=m).astype(np.int64),
                test_counts(ta_), test_counts(tb_))
    la, lb, lta, ltb = (list(x.tolist()) if isinstance(x, np.ndarray) else x for x in arrays)
    ca, cb = Counter(la), Counter(lb)
    support = list(dict.fromkeys([*ca, *cb]))  # first-seen order: independent of hash seeds
    position = {o: i for i, o in enumerate(support)}
    a = np.array([ca[o] for o in support], dtype=np.int64)
    b = np.array([cb[o] for o in support], dtype=np.int64)
    ta = np.bincount([position[o] for o in lta if o in position], minlength=len(support))
    tb = np.bincount([position[o] for o in ltb if o in position], minlength=len(support))
    return support, a, b, ta.astype(np.int64), tb.astype(np.int64)


def ranked_pools(fit_a: Keys, fit_b: Keys, test_a: Keys, test_b: Keys,
                 build: Callable[[frozenset[Hashable]], Event]) -> list[Pool]:
    """Prefixes of the outcomes ranked on the fit part, counted on the test part.

    Two rankings per direction: by the smoothed likelihood ratio, and by a lower confidence
    bound on its logarithm (``RANK_Z`` standard errors below it), which keeps rare outcomes
    whose ratio is mostly noise from leading the ranking (the first prefix is then a frequent
    outcome with a sure ratio, as a sparse vector's ⊥⁵⊤).  Keys may be lists of hashables or
    int64 arrays (counted in numpy, with the same result as the list of their Python ints)."""
    support, a, b, ta, tb = _support_counts(fit_a, fit_b, test_a, test_b)
    if not support:
        return []
    pools: list[Pool] = []
    for direction, p, q, sp, sq, tp, tq, np_, nq in (
            ("a→b", a, b, len(fit_a), len(fit_b), ta, tb, len(test_a), len(test_b)),
            ("b→a", b, a, len(fit_b), len(fit_a), tb, ta, len(test_b), len(test_a))):
        log_ratio = np.log((p + 1) / (sp + 1)) - np.log((q + 1) / (sq + 1))
        sure = log_ratio - RANK_Z * np.sqrt(1 / (p + 1) + 1 / (q + 1))
        lengths = np.arange(1, len(support) + 1)
        if len(support) > MAX_PREFIXES:
            lengths = np.unique(np.geomspace(1, len(support), 256).astype(np.int64))
        for key in (log_ratio, sure):
            order = np.lexsort((-p, -key))  # by the key, then by mass, both decreasing
            cum_p = np.cumsum(tp[order])[lengths - 1].astype(np.int64)
            cum_q = np.cumsum(tq[order])[lengths - 1].astype(np.int64)

            def make(i: int, order: IntArray = order, lengths: IntArray = lengths) -> Event:
                return build(frozenset(support[j] for j in order[: lengths[i]]))

            d: Direction = "a→b" if direction == "a→b" else "b→a"
            pools.append(Pool(d, cum_p, cum_q, np_, nq, make))
    return pools


@dataclass(frozen=True, slots=True)
class Halves:
    """Real values of the selection split: a fit part (learns) and a test part (counts)."""

    fit_a: FloatArray
    fit_b: FloatArray
    test_a: FloatArray
    test_b: FloatArray


def _le_counts(values: FloatArray, cuts: FloatArray) -> tuple[IntArray, int]:
    finite = np.sort(values[~np.isnan(values)])
    return np.searchsorted(finite, cuts, side="right").astype(np.int64), len(finite)


def _cuts(pooled: FloatArray, max_cuts: int, delta: float, exponents: Sequence[int]) -> FloatArray:
    """Quantile cuts, with the tail cuts around δ added when δ > 0 (at most 2·len(exponents))."""
    cuts = quantile_cuts(pooled, max_cuts)
    if delta > 0 and len(cuts):
        cuts = np.unique(np.concatenate([cuts, tail_cuts(pooled, delta, exponents)]))
    return cuts


def threshold_pools(whole: Halves, coord: int | None, dim: int, max_cuts: int,
                     bands: bool, delta: float = 0.0,
                     exponents: Sequence[int] = TAIL_EXPONENTS) -> list[Pool]:
    """Thresholds, and (when ``bands``) intervals and their complements, on one real view.

    Cut points: ``max_cuts`` quantiles of the pooled view, plus (δ > 0) the tail cuts at masses
    δ·2^j, j in ``exponents`` (:func:`~privref.audits.blackbox.outcomes.tail_cuts`).  The
    thresholds also take the deep tail cuts (:func:`~privref.audits.blackbox.outcomes.deep_cuts`),
    where a one-sided support gap (an impossible event) or a steepening ratio lives, and the
    edge cuts (:func:`~privref.audits.blackbox.outcomes.edge_cuts`), marked ``ladder_only``.
    """
    pooled = np.concatenate([whole.fit_a, whole.fit_b])
    cuts = _cuts(pooled, max_cuts, delta, exponents)
    if len(cuts) == 0:
        return []
    ranked_ends = np.unique(np.concatenate([cuts, deep_cuts(pooled)]))
    ends = np.unique(np.concatenate([ranked_ends, edge_cuts(pooled)]))
    edge = ~np.isin(ends, ranked_ends)
    (le_a, na), (le_b, nb) = _le_counts(whole.test_a, ends), _le_counts(whole.test_b, ends)
    sa, sb = len(whole.test_a), len(whole.test_b)
    pools = _both(le_a, le_b, sa, sb, lambda i: Threshold(coord, dim, float(ends[i]), False), edge)
    pools += _both(na - le_a, nb - le_b, sa, sb,
                   lambda i: Threshold(coord, dim, float(ends[i]), True), edge)
    at = np.searchsorted(ends, cuts)  # the band ends are among the threshold ends
    le_a, le_b = le_a[at], le_b[at]
    lo, hi = np.triu_indices(len(cuts), k=1)
    if bands and len(lo):
        band_a, band_b = le_a[hi] - le_a[lo], le_b[hi] - le_b[lo]
        pools += _both(band_a, band_b, sa, sb,
                       lambda i: Band(coord, dim, float(cuts[lo[i]]), float(cuts[hi[i]]), True))
        pools += _both(na - band_a, nb - band_b, sa, sb,
                       lambda i: Band(coord, dim, float(cuts[lo[i]]), float(cuts[hi[i]]), False))
    return pools


def binned_pools(h: Halves, coord: int | None, dim: int, max_cuts: int) -> list[Pool]:
    """Unions of quantile bins ranked by likelihood ratio on the fit part, counted on the test part."""
    cuts = quantile_cuts(np.concatenate([h.fit_a, h.fit_b]), max_cuts)
    if len(cuts) < 2:
        return []
    edges = tuple(float(v) for v in cuts)

    def bins(x: FloatArray) -> IntArray:
        return np.searchsorted(cuts, x[~np.isnan(x)], side="left").astype(np.int64)

    return ranked_pools(bins(h.fit_a), bins(h.fit_b), bins(h.test_a), bins(h.test_b),
                   lambda s: BinUnion(coord, dim, edges, frozenset(cast(int, v) for v in s)))


def score_pools(score: Score, h: Halves, max_cuts: int, delta: float = 0.0) -> list[Pool]:
    """Thresholds on a learned score: cut points from the fit part (quantiles, the deep tail cuts
    of :func:`~privref.audits.blackbox.outcomes.deep_cuts`, and the tail cuts around δ when
    δ > 0), counts on the test part."""
    pooled = np.concatenate([h.fit_a, h.fit_b])
    cuts = _cuts(pooled, max_cuts, delta, TAIL_EXPONENTS)
    if len(cuts):
        cuts = np.unique(np.concatenate([cuts, deep_cuts(pooled)]))
    if len(cuts) == 0:
        return []
    (le_a, na), (le_b, nb) = _le_counts(h.test_a, cuts), _le_counts(h.test_b, cuts)
    sa, sb = len(h.test_a), len(h.test_b)
    pools = _both(le_a, le_b, sa, sb, lambda i: ScoreThreshold(score, float(cuts[i]), False))
    pools += _both(na - le_a, nb - le_b, sa, sb,
                   lambda i: ScoreThreshold(score, float(cuts[i]), True))
    return pools


def float_pattern_pools(h: Halves, coord: int | None, dim: int) -> list[Pool]:
    """Unions of IEEE-754 classes ranked by likelihood ratio on the fit part (only for non-integer floats)."""
    fit = np.concatenate([h.fit_a, h.fit_b])
    finite = fit[np.isfinite(fit)]
    if len(finite) == 0 or np.all(finite == np.round(finite)):
        return []

    def keys(x: FloatArray) -> IntArray:
        return float_pattern(x)

    return ranked_pools(keys(h.fit_a), keys(h.fit_b), keys(h.test_a), keys(h.test_b),
                   lambda s: FloatPattern(coord, dim, frozenset(cast(int, k) for k in s)))


def coarse_pools(fit_a: FloatArray, fit_b: FloatArray, test_a: FloatArray, test_b: FloatArray,
                  bins: int) -> list[Pool]:
    """Unions of coordinate-wise patterns (bin or atom per coordinate) ranked by likelihood ratio."""
    dim = fit_a.shape[1]
    edges = tuple(tuple(float(v) for v in quantile_cuts(np.concatenate([fit_a[:, i], fit_b[:, i]]), bins - 1))
                  for i in range(dim))
    probe = CoarseSet(dim, edges, frozenset())
    return ranked_pools(probe.codes(fit_a)[0], probe.codes(fit_b)[0], probe.codes(test_a)[0],
                   probe.codes(test_b)[0],
                   lambda s: CoarseSet(dim, edges, frozenset(probe.decode(c) for c in s)))


LEADING_MIN_ROWS: Final = 64
"""A lead length k gets candidates only when at least this many pooled rows lead with >= k atoms."""


def _leading_maker(dim: int, skip: int, cuts: FloatArray, above: bool,
                   exact: bool) -> Callable[[int], Event]:
    return lambda i: Leading(dim, skip, float(cuts[i]), above, exact)


def leading_pools(va: FloatArray, vb: FloatArray, max_cuts: int) -> list[Pool]:
    """Sparse-vector events on rows with atoms: {at least k entries lead the first finite one
    (or there is none), and it is <= c} or {exactly k lead, and the first finite one is <= c}
    (each also with > c), for every lead k = 0..dim held by enough rows, with the quantile and
    deep tail cuts of the first finite entries of those rows (and c = inf: the lead alone).
    Counted on the rows given (the whole selection split, as the thresholds)."""
    dim = va.shape[1]
    (lead_a, first_a), (lead_b, first_b) = leading(va), leading(vb)
    sa, sb = len(va), len(vb)
    pools: list[Pool] = []
    for skip in range(dim + 1):
        for exact in (False, True):
            if exact and skip == dim:
                continue  # "exactly dim lead" is "at least dim": no finite entry
            in_a = lead_a == skip if exact else lead_a >= skip
            in_b = lead_b == skip if exact else lead_b >= skip
            if int(in_a.sum() + in_b.sum()) < LEADING_MIN_ROWS:
                continue
            xa, xb = first_a[in_a], first_b[in_b]  # NaN: no finite entry (below every cut)
            pooled = np.concatenate([xa, xb])
            cuts = np.unique(np.concatenate([quantile_cuts(pooled, max_cuts), deep_cuts(pooled),
                                             [math.inf]]))
            (le_a, na), (le_b, nb) = _le_counts(xa, cuts), _le_counts(xb, cuts)
            none_a, none_b = len(xa) - na, len(xb) - nb  # rows without a finite entry
            pools += _both(le_a + none_a, le_b + none_b, sa, sb,
                           _leading_maker(dim, skip, cuts, False, exact))
            pools += _both(na - le_a, nb - le_b, sa, sb,
                           _leading_maker(dim, skip, cuts, True, exact))
    return pools


ANSWERED_MIN_ROWS: Final = 256
"""A pattern gets candidates only when at least this many pooled rows hold it."""

ANSWERED_PATTERNS: Final = 64
"""The answered-set family (:func:`answered_pools`) takes at most this many patterns, the most
frequent on the pooled selection split."""


def _answered_maker(dim: int, answered: tuple[int, ...], stat: Literal["min", "max"],
                    cuts: FloatArray, above: bool) -> Callable[[int], Event]:
    return lambda i: Answered(dim, answered, stat, float(cuts[i]), above)


def answered_pools(va: FloatArray, vb: FloatArray) -> list[Pool]:
    """Sparse-vector events on rows with atoms, read on several answers at once (``wide`` pools):
    {the finite entries are exactly S} alone, {… and every one is > c} (their min) and {… and
    every one is <= c} (their max), the joint tails, at the quartiles c of that statistic on the
    rows of S, for the :data:`ANSWERED_PATTERNS` most frequent non-empty patterns S held by at least
    :data:`ANSWERED_MIN_ROWS` pooled rows.  Patterns and cuts come from pooled counts only, so the
    events are counted on the rows given (the whole selection split, as the thresholds).  The best
    of them (NumericalSVT's ⊥⁵ then two answers >= 2, probability 0.002) is a few selection
    standard errors from its neighbours, so they go to the validation split
    (:data:`~privref.audits.blackbox.selection.WIDE`).  For ``dim`` <=
    :data:`~privref.audits.blackbox.events.ANSWERED_MAX_DIM` (a pattern is a bit mask)."""
    dim = va.shape[1]
    if dim > ANSWERED_MAX_DIM or dim == 0:
        return []
    code_a, code_b = answered_codes(va), answered_codes(vb)
    found, counts = np.unique(np.concatenate([code_a, code_b]), return_counts=True)
    keep = (found != 0) & (counts >= ANSWERED_MIN_ROWS)
    found, counts = found[keep], counts[keep]
    top = found[np.lexsort((found, -counts))[:ANSWERED_PATTERNS]]
    sa, sb = len(va), len(vb)
    pools: list[Pool] = []
    for code in (int(c) for c in top):
        in_a, in_b = code_a == code, code_b == code
        answered = tuple(i for i in range(dim) if code >> i & 1)
        # every answer <= c (their max), with c = inf for the pattern alone; every answer > c
        # (their min): the joint tails, where a product of shifted noises has its largest ratio
        xa, xb = answered_stat(va[in_a], code, "max"), answered_stat(vb[in_b], code, "max")
        cuts = np.unique(np.concatenate([quantile_cuts(np.concatenate([xa, xb]), 3), [math.inf]]))
        (le_a, _), (le_b, _) = _le_counts(xa, cuts), _le_counts(xb, cuts)
        pools += _both(le_a, le_b, sa, sb, _answered_maker(dim, answered, "max", cuts, False),
                       wide=True)
        xa, xb = answered_stat(va[in_a], code, "min"), answered_stat(vb[in_b], code, "min")
        cuts = quantile_cuts(np.concatenate([xa, xb]), 3)
        (le_a, na), (le_b, nb) = _le_counts(xa, cuts), _le_counts(xb, cuts)
        pools += _both(na - le_a, nb - le_b, sa, sb,
                       _answered_maker(dim, answered, "min", cuts, True), wide=True)
    return pools


def _length_maker(ks: IntArray, relation: Literal["=", "<=", ">="]) -> Callable[[int], Event]:
    return lambda i: Length(int(ks[i]), relation)


def _prefix_maker(k: int) -> Callable[[frozenset[Hashable]], Event]:
    return lambda s: PrefixSet(k, s)


def length_pools(sel_a: Sequence[Any] | NDArray[Any], sel_b: Sequence[Any] | NDArray[Any],
                 longest: int) -> list[Pool]:
    """{len = k}, {len <= k} and {len >= k} for k = 0..``longest``, counted on the whole selection split."""
    (la, oka), (lb, okb) = lengths(sel_a), lengths(sel_b)
    ks = np.arange(longest + 1, dtype=np.int64)
    sa, sb = len(sel_a), len(sel_b)
    relations: tuple[Literal["=", "<=", ">="], ...] = ("=", "<=", ">=")
    pools: list[Pool] = []
    for relation in relations:
        def hits(size: IntArray, ok: NDArray[np.bool_], relation: str = relation) -> IntArray:
            x = size[ok][:, None]
            inside = x == ks if relation == "=" else (x <= ks if relation == "<=" else x >= ks)
            return np.asarray(inside.sum(axis=0), dtype=np.int64)

        pools += _both(hits(la, oka), hits(lb, okb), sa, sb, _length_maker(ks, relation))
    return pools


def prefix_pools(fit_a: Sequence[Any] | NDArray[Any], fit_b: Sequence[Any] | NDArray[Any],
                 test_a: Sequence[Any] | NDArray[Any], test_b: Sequence[Any] | NDArray[Any],
                 longest: int) -> list[Pool]:
    """Sets of first-k-entries prefixes (k < ``longest``) ranked by likelihood ratio on the fit part."""
    if longest - 1 <= PREFIX_LENGTHS:
        ks = list(range(1, longest))
    else:
        ks = sorted({int(k) for k in np.geomspace(1, longest - 1, PREFIX_LENGTHS)})
    parts = [outcome_keys(x) for x in (fit_a, fit_b, test_a, test_b)]
    pools: list[Pool] = []
    for k in ks:
        fa, fb, ta, tb = (prefixes_of_keys(keys, k) for keys in parts)
        pools += ranked_pools(fa, fb, ta, tb, _prefix_maker(k))
    return pools
