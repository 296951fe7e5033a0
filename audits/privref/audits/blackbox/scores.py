"""Scores of vector outputs learned on the selection split: naive Bayes, logistic regression, Fisher.

Both return a :class:`~privref.audits.blackbox.events.Score`, a fixed function
of one output once learned, so a threshold on it
(:class:`~privref.audits.blackbox.events.ScoreThreshold`) is a fixed event.

* :func:`naive_bayes_score`: a sum of per-coordinate binned log ratios (quantile
  bins, then the atoms -inf, +inf and nan), add-one smoothed;
* :func:`logistic_score`: a logistic regression on standardized coordinates
  and atom indicators (ridge-regularized Newton iterations in numpy; no other
  dependency); None when the iterations fail;
* :func:`linear_score`: Fisher's linear discriminant on the same features,
  one pass over every fit row;
* :func:`vote_score`: a sign test across coordinates (how many sit on their
  side's side of the pooled median);
* :func:`margin_score`: a conjunction across coordinates (the smallest
  standardized margin by which a row sits on one side's side of the midpoint of
  the two sides' medians), on the coordinates or on their increments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

import numpy as np

from .events import Score, atom_of, increments, table_index
from .features import ATOM_NAN, ATOM_NEG_INF, ATOM_POS_INF
from .outcomes import FloatArray, quantile_cuts

__all__ = [
    "MARGIN_CORRELATION",
    "MARGIN_MIN_Z",
    "MARGIN_SHARE",
    "linear_score",
    "logistic_score",
    "margin_score",
    "naive_bayes_score",
    "vote_score",
]


def naive_bayes_score(va: FloatArray, vb: FloatArray, bins: int) -> Score:
    """Per-coordinate log ratios of add-one counts of rows ``va`` vs ``vb`` in up to ``bins`` quantile bins
    and the three atoms, summed over coordinates."""
    edges, table = [], []
    for i in range(va.shape[1]):
        cuts = quantile_cuts(np.concatenate([va[:, i], vb[:, i]]), bins - 1)
        e = tuple(float(v) for v in cuts)
        size = len(cuts) + 4  # bins, then the atoms -inf, +inf, nan
        ca = np.bincount(table_index(va[:, i], e), minlength=size) + 1
        cb = np.bincount(table_index(vb[:, i], e), minlength=size) + 1
        ratio = np.log(ca / ca.sum()) - np.log(cb / cb.sum())
        edges.append(e)
        table.append(tuple(float(v) for v in ratio))
    return Score("naive-Bayes", va.shape[1], edges=tuple(edges), table=tuple(table))


@dataclass(frozen=True, slots=True)
class _Design:
    """Rows of both sides as standardized finite entries (non-finite ones at 0) and atom indicators."""

    z: FloatArray
    center: FloatArray
    scale: FloatArray
    atoms: tuple[tuple[int, int], ...]


def _design(x: FloatArray) -> _Design:
    finite = np.isfinite(x)
    counts = finite.sum(axis=0)
    center = np.where(counts > 0, np.where(finite, x, 0.0).sum(axis=0) / np.maximum(counts, 1), 0.0)
    spread = np.where(finite, x - center, 0.0)
    scale = np.sqrt((spread ** 2).sum(axis=0) / np.maximum(counts, 1))
    scale = np.where(scale > 0, scale, 1.0)
    columns = [np.where(finite, (x - center) / scale, 0.0)]
    atoms: list[tuple[int, int]] = []
    for i in range(x.shape[1]):
        sym = atom_of(x[:, i])
        for atom in (ATOM_NEG_INF, ATOM_POS_INF, ATOM_NAN):
            flag = sym == atom
            if flag.any() and not flag.all():
                atoms.append((i, atom))
                columns.append(flag[:, None].astype(np.float64))
    return _Design(np.column_stack(columns), center, scale, tuple(atoms))


def _score(kind: Literal["logistic", "linear"], d: _Design, w: FloatArray, intercept: float) -> Score:
    dim = len(d.center)
    return Score(kind, dim, weights=tuple(float(v) for v in w[:dim]),
                 center=tuple(float(v) for v in d.center), scale=tuple(float(v) for v in d.scale),
                 intercept=intercept,
                 atoms=tuple((c, a, float(w[dim + k])) for k, (c, a) in enumerate(d.atoms)))


def logistic_score(va: FloatArray, vb: FloatArray, iterations: int = 25) -> Score | None:
    """A ridge logistic regression of ``va`` (label 1) against ``vb`` (label 0) by ``iterations`` Newton
    steps, on standardized finite entries and atom indicators; None when a step fails or diverges."""
    d = _design(np.concatenate([va, vb]))
    y = np.concatenate([np.ones(len(va)), np.zeros(len(vb))])
    z = np.column_stack([d.z, np.ones(len(y))])
    w = np.zeros(z.shape[1])
    ridge = 1e-3 * np.eye(z.shape[1])
    for _ in range(iterations):
        prob = 1 / (1 + np.exp(-np.clip(z @ w, -30, 30)))
        grad = z.T @ (prob - y) + ridge @ w
        hess = (z * (prob * (1 - prob))[:, None]).T @ z + ridge
        try:
            w = w - np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:
            return None
    if not np.all(np.isfinite(w)):
        return None
    return _score("logistic", d, w[:-1], float(w[-1]))


def linear_score(va: FloatArray, vb: FloatArray) -> Score | None:
    """Fisher's linear discriminant of ``va`` against ``vb``: weights S^-1 (mean_a − mean_b) on the
    standardized entries and atom indicators, S the pooled within-side covariance (ridge 1e-6).

    One pass over the rows (cost linear in them, so it learns on the whole fit part, where the
    logistic score is capped): the direction of a sum of many small per-coordinate shifts
    (parallel compositions, prefix sums) is learned from every row.  None when the solve fails.
    """
    if len(va) < 2 or len(vb) < 2:
        return None
    d = _design(np.concatenate([va, vb]))
    za, zb = d.z[: len(va)], d.z[len(va):]
    ma, mb = za.mean(axis=0), zb.mean(axis=0)
    ca, cb = za - ma, zb - mb
    pooled = (ca.T @ ca + cb.T @ cb) / (len(za) + len(zb) - 2)
    try:
        w = np.linalg.solve(pooled + 1e-6 * np.eye(len(ma)), ma - mb)
    except np.linalg.LinAlgError:
        return None
    if not np.all(np.isfinite(w)):
        return None
    return _score("linear", d, w, 0.0)


def vote_score(va: FloatArray, vb: FloatArray) -> Score | None:
    """A sign test across coordinates: Σ_i w_i·[x_i > m_i], m_i the pooled median of coordinate i and
    w_i the sign of (share of ``va`` above m_i) − (share of ``vb`` above m_i).

    Only signs are learned, so it stays sharp where the per-coordinate shifts are far below the
    noise (parallel compositions of many small mechanisms: each coordinate's log ratio is a
    step at the median, and their sum is this count).  None when no coordinate votes.
    """
    if len(va) == 0 or len(vb) == 0:
        return None
    pooled = np.concatenate([va, vb])
    medians = np.zeros(pooled.shape[1])
    for i in range(pooled.shape[1]):
        finite = pooled[:, i][np.isfinite(pooled[:, i])]
        if len(finite):
            medians[i] = float(np.median(finite))
    share_a = (va > medians).sum(axis=0) / len(va)
    share_b = (vb > medians).sum(axis=0) / len(vb)
    weights = np.sign(share_a - share_b)
    if not np.any(weights):
        return None
    return Score("vote", va.shape[1], edges=tuple((float(m),) for m in medians),
                 weights=tuple(float(w) for w in weights))


MARGIN_MIN_Z: Final = 2.0
"""A coordinate joins a margin score when its two medians differ by more than this many standard
errors, and by at least ``MARGIN_SHARE`` of the largest such difference (in standard errors)."""

MARGIN_SHARE: Final = 0.25
"""See ``MARGIN_MIN_Z``: coordinates the pair barely moves would halve the event's mass each and
add nothing to its ratio, so a conjunction keeps the coordinates moved comparably to the most."""

MARGIN_CORRELATION: Final = 0.5
"""Increments are read only when consecutive coordinates are this correlated on average (pooled
fit rows): cumulative releases, whose increments are the independent noisy answers."""


def _lag_correlation(x: FloatArray) -> float:
    """Mean Pearson correlation of consecutive columns of ``x`` (0 for a constant column)."""
    c = x - x.mean(axis=0)
    norm = np.sqrt((c * c).sum(axis=0))
    ok = (norm[:-1] > 0) & (norm[1:] > 0)
    if not ok.any():
        return 0.0
    corr = (c[:, :-1] * c[:, 1:]).sum(axis=0)[ok] / (norm[:-1] * norm[1:])[ok]
    return float(corr.mean())


def margin_score(va: FloatArray, vb: FloatArray, *, toward_a: bool = True,
                 differences: bool = False) -> Score | None:
    """A conjunction across coordinates: min_i w_i·(x_i − c_i)/s_i over the moved coordinates.

    Learned on all-finite rows of ``va`` and ``vb`` (read as increments when ``differences``):
    c_i is the midpoint of the two sides' medians of coordinate i, s_i half its pooled
    interquartile range (1 when that is 0), and w_i the sign of median_a − median_b (reversed
    when not ``toward_a``).  A coordinate is *moved* when its medians differ by more than
    ``MARGIN_MIN_Z`` standard errors (1.2533·IQR/1.349 per root row, the normal approximation)
    and by at least ``MARGIN_SHARE`` of the largest difference in standard errors; the others
    get w_i = 0.  {score > t} is "every moved coordinate beyond its midpoint by t spreads, on
    that side": for a product of shifted Laplace noises (parallel releases; prefix sums, read
    as increments) it is the joint tail whose ratio is e^(Σ ε_i) exactly once t clears every
    shift.  None without two finite rows per side, with fewer than two moved coordinates (a
    threshold on one coordinate is already a candidate), or, with ``differences``, when
    consecutive coordinates are not correlated above ``MARGIN_CORRELATION`` on average.
    """
    if len(va) < 2 or len(vb) < 2 or va.shape[1] < 2 or not (
            np.isfinite(va).all() and np.isfinite(vb).all()):
        return None
    if differences:
        if _lag_correlation(np.concatenate([va, vb])) <= MARGIN_CORRELATION:
            return None
        va, vb = increments(va), increments(vb)
    ma, mb = np.median(va, axis=0), np.median(vb, axis=0)
    q1, q3 = np.quantile(np.concatenate([va, vb]), [0.25, 0.75], axis=0)
    iqr = q3 - q1
    scale = np.where(iqr > 0, iqr / 2, 1.0)
    error = 1.2533 * (np.where(iqr > 0, iqr, 1.0) / 1.349) * np.sqrt(1 / len(va) + 1 / len(vb))
    z = np.abs(ma - mb) / error
    moved = (z > MARGIN_MIN_Z) & (z >= MARGIN_SHARE * z.max())
    if moved.sum() < 2:
        return None
    weights = np.where(moved, np.sign(ma - mb), 0.0) * (1.0 if toward_a else -1.0)
    return Score("margin", va.shape[1], edges=tuple((float(c),) for c in (ma + mb) / 2),
                 weights=tuple(float(w) for w in weights), scale=tuple(float(v) for v in scale),
                 differences=differences)
