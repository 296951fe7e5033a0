"""Scores of vector outputs learned on the selection split: naive Bayes and logistic regression.

Both return a :class:`~privref.audits.blackbox.events.Score`, a fixed function
of one output once learned, so a threshold on it
(:class:`~privref.audits.blackbox.events.ScoreThreshold`) is a fixed event.

* :func:`naive_bayes_score`: a sum of per-coordinate binned log ratios (quantile
  bins, then the atoms -inf, +inf and nan), add-one smoothed;
* :func:`logistic_score`: a logistic regression on standardized coordinates
  and atom indicators (ridge-regularized Newton iterations in numpy; no other
  dependency); None when the iterations fail.
"""

from __future__ import annotations

import numpy as np

from .events import Score, atom_of, table_index
from .features import ATOM_NAN, ATOM_NEG_INF, ATOM_POS_INF
from .outcomes import FloatArray, quantile_cuts

__all__ = ["logistic_score", "naive_bayes_score"]


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


def logistic_score(va: FloatArray, vb: FloatArray, iterations: int = 25) -> Score | None:
    """A ridge logistic regression of ``va`` (label 1) against ``vb`` (label 0) by ``iterations`` Newton
    steps, on standardized finite entries and atom indicators; None when a step fails or diverges."""
    x = np.concatenate([va, vb])
    y = np.concatenate([np.ones(len(va)), np.zeros(len(vb))])
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
    z = np.column_stack([*columns, np.ones(len(x))])
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
    dim = va.shape[1]
    return Score("logistic", dim, weights=tuple(float(v) for v in w[:dim]),
                 center=tuple(float(v) for v in center), scale=tuple(float(v) for v in scale),
                 intercept=float(w[-1]),
                 atoms=tuple((c, a, float(w[dim + k])) for k, (c, a) in enumerate(atoms)))
