"""001 Appendix E's margin experiment on Adult (a9a), Figures 3–4 (``privref pate-theory margins``).

Appendix E trains 250 logistic-regression teachers on Adult's training set (36,631 rows, the
private data), h* = one logistic regression on the whole private set, and looks at 2,000 public
queries: the expected margin Δ(x) = |E[ĥ_1(x) | x] − ½| (Figure 3, left) and |E[1(ĥ(x) ≠ h*(x)) |
x] − ½| (Figure 3, right), and the cumulative Δ(x) against the cumulative E[1(ĥ(x) ≠ h*(x)) | x]
− ½ over 200 queries (Figure 4).  Both expectations are estimated by the K teachers' votes: with
v(x) = Σ_k ĥ_k(x),

    Δ̂(x) = |v(x)/K − ½|,     s(x) = (#teachers with ĥ_k(x) ≠ h*(x))/K − ½ (signed).

Since #disagreeing = v (h*(x) = 0) or K − v (h*(x) = 1), |s(x)| = Δ̂(x) at EVERY query
(:func:`query_margins` records both; the tests check the identity): Figure 3's two panels are one
histogram, as printed.  The information is in the sign: s(x) = −Δ̂(x) where the teachers'
majority agrees with h* and +Δ̂(x) where it disagrees, so Figure 4's cumulative curve is the line
y = −x exactly until the first query where the majority disagrees with h*.  The page therefore
reports the signed s, the share of queries where the majority disagrees with h* (and with a
margin >= 0.4, "agree on the wrong answer with high margin"), and the slope of Figure 4.

Data: a9a (LIBSVM's encoding of Adult's 32,561 training rows; a9a.t, Adult's test rows, is not
kept), so the split is :func:`privref.app.experiments.pate.prepare_run`'s: a seeded permutation,
the private part of 001 Table 3's rule (⌈N/5⌉ held out: 26,048 private rows), the next
``queries`` rows as public queries; teachers are :mod:`pate_students_sklearn`'s logistic
regressions on a keyed per-record assignment (:func:`row_keys`, ``train_logistic_teachers``,
``teacher_votes``), h* = ``fit_logistic`` on the whole private part.  Margins are exact
Fractions given the fitted teachers; the teachers themselves are float fits (a model choice).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

import numpy as np

from privref.reference.citations import Uncited
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.validate import check_int

from .datasets import load_known
from .pate import Sizes, prepare_run, sizes_for
from .pate_students_sklearn import fit_logistic, row_keys, teacher_votes, train_logistic_teachers

__all__ = ["BINS", "HIGH_MARGIN", "histogram", "query_margins", "run_margins", "summary"]

SOURCE: Final = Uncited("001 Appendix E (Figures 3–4): experiment section, not a numbered result")
"""What this module reproduces."""

BINS: Final = tuple(Fraction(i, 20) for i in range(-10, 11))
"""Histogram edges −½, −0.45, …, ½ (width 1/20) for Δ̂ (non-negative half) and s."""

HIGH_MARGIN: Final = Fraction(2, 5)
"""Δ̂ >= 2/5, i.e. at least 90% of the teachers agree: "high margin"."""

_REEXPORTED: Final = (row_keys, train_logistic_teachers, teacher_votes)  # the teachers used


def query_margins(votes: Sequence[int], k: int, h_star: Sequence[int]
                  ) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """(Δ̂(x), s(x)) per query: Δ̂ = |v/K − ½|, s = (#teachers ≠ h*(x))/K − ½ (001 Appendix E).

    Guarantee: exact Fractions; |s| = Δ̂ at every query; s < 0 iff the teachers' strict majority
    agrees with h*.  Requires K >= 1, votes in [0, K] and h* labels in {0, 1}, one per vote.
    """
    kk = check_int(k, "k", minimum=1)
    if len(votes) != len(h_star):
        raise InvalidArgument(f"h_star has {len(h_star)} labels for {len(votes)} votes")
    deltas, signed = [], []
    half = Fraction(1, 2)
    for i, (v, h) in enumerate(zip(votes, h_star, strict=True)):
        vv = check_int(int(v), f"votes[{i}]", minimum=0, maximum=kk)
        if int(h) not in (0, 1):
            raise InvalidArgument(f"h_star[{i}]={h!r} must be 0 or 1")
        wrong = vv if int(h) == 0 else kk - vv
        deltas.append(abs(Fraction(vv, kk) - half))
        signed.append(Fraction(wrong, kk) - half)
    return tuple(deltas), tuple(signed)


def histogram(values: Sequence[Fraction], edges: Sequence[Fraction] = BINS) -> tuple[int, ...]:
    """Counts of ``values`` in the bins [e_i, e_{i+1}) (the last bin closed), exact comparisons.

    Requires strictly increasing edges and every value within [e_0, e_last] (InvalidArgument).
    """
    es = tuple(Fraction(e) for e in edges)
    if len(es) < 2 or any(a >= b for a, b in pairwise(es)):
        raise InvalidArgument("edges must be at least two strictly increasing numbers")
    counts = [0] * (len(es) - 1)
    for v in values:
        if not es[0] <= v <= es[-1]:
            raise InvalidArgument(f"value {v} lies outside [{es[0]}, {es[-1]}]")
        i = next(j for j in range(len(es) - 1) if v < es[j + 1] or j == len(es) - 2)
        counts[i] += 1
    return tuple(counts)


def summary(deltas: Sequence[Fraction], signed: Sequence[Fraction], first: int = 200
            ) -> dict[str, Any]:
    """The figures the page quotes: shares (exact), histograms and Figure 4's curve."""
    n = len(deltas)
    if n == 0 or len(signed) != n:
        raise InvalidArgument("deltas and signed must be non-empty and of one length")
    against = sum(1 for s in signed if s > 0)
    ties = sum(1 for s in signed if s == 0)
    high = sum(1 for d in deltas if d >= HIGH_MARGIN)
    high_wrong = sum(1 for s in signed if s >= HIGH_MARGIN)
    cut = min(first, n)
    cum_d = np.cumsum([float(d) for d in deltas[:cut]])
    cum_s = np.cumsum([float(s) for s in signed[:cut]])
    slope = float(np.polyfit(cum_d, cum_s, 1)[0]) if cut >= 2 and cum_d[-1] > cum_d[0] else None
    corr = float(np.corrcoef(cum_d, cum_s)[0, 1]) if cut >= 2 and np.std(cum_s) > 0 else None
    return {"queries": n,
            "majority_against_h_star": str(Fraction(against, n)),
            "ties": str(Fraction(ties, n)),
            "high_margin": str(Fraction(high, n)),
            "high_margin_against_h_star": str(Fraction(high_wrong, n)),
            "mean_delta": float(sum(deltas, Fraction(0)) / n),
            "histogram_delta": list(histogram(deltas)),
            "histogram_signed": list(histogram(signed)),
            "histogram_abs_signed": list(histogram([abs(s) for s in signed])),
            "identity_abs_signed_equals_delta": all(abs(s) == d
                                                    for s, d in zip(signed, deltas, strict=True)),
            "figure4_first": cut,
            "figure4_cum_delta": [round(float(x), 6) for x in cum_d],
            "figure4_cum_signed": [round(float(x), 6) for x in cum_s],
            "figure4_slope": slope, "figure4_correlation": corr}


def run_margins(data_dir: str, *, teachers: int = 250, queries: int = 2000, runs: int = 1,
                seed: int = 0, progress: Callable[[str], None] = lambda s: None
                ) -> dict[str, Any]:
    """Appendix E on a9a: ``runs`` seeded splits, K = ``teachers``, ``queries`` public queries.

    Guarantee: a deterministic function of (the a9a file, teachers, queries, runs, seed); each
    run's figures come from :func:`query_margins` and :func:`summary`.  Requires the realdata
    extra; InvalidArgument names --teachers or --queries when they exceed the split.
    """
    try:
        data = load_known("a9a", data_dir)
    except PrivrefError as exc:
        raise type(exc)(f"--data-dir: a9a: {exc}") from None
    X, y = data.features, np.asarray(data.labels)
    base = sizes_for(data.rows)
    if queries > data.rows - base.private:
        raise InvalidArgument(f"--queries={queries} exceeds the {data.rows - base.private} "
                              "non-private rows of a9a")
    if teachers > base.private:
        raise InvalidArgument(f"--teachers={teachers} exceeds the {base.private} private rows")
    sizes = Sizes(data.rows, base.private, queries, data.rows - base.private - queries,
                  teachers, 1, base.delta)
    out = []
    for r in range(runs):
        prep = prepare_run(X, y, sizes, seed, "a9a-appendix-e", r)
        h_star = fit_logistic(X[prep.private], y[prep.private], seed=prep.student_seed)
        hs = tuple(int(b) for b in h_star.predict(X[prep.public]))
        deltas, signed = query_margins(prep.votes, teachers, hs)
        truth = y[prep.public]
        majority = np.asarray([1 if 2 * v >= teachers else 0 for v in prep.votes])
        row = summary(deltas, signed)
        row.update({"run": r, "private": sizes.private, "teachers": teachers,
                    "teacher_sizes": [min(prep.teacher_sizes), max(prep.teacher_sizes)],
                    "h_star_accuracy_on_queries": float(np.mean(np.asarray(hs) == truth)),
                    "majority_accuracy_on_queries": float(np.mean(majority == truth)),
                    "majority_agrees_h_star": float(np.mean(majority == np.asarray(hs)))})
        out.append(row)
        progress(f"margins run {r}: majority against h* on {row['majority_against_h_star']} "
                 f"of {queries} queries; high margin {row['high_margin']}")
    return {"dataset": "a9a", "rows": data.rows,
            "files": [{"name": Path(s.path).name, "sha256": s.sha256} for s in data.sources],
            "bins": [str(b) for b in BINS], "runs": out}
