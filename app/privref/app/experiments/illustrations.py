"""The three illustrations of paper 003 (Alon, Bassily, Moran) behind ``privref illustrate``.

* ``littlestone``: the Littlestone dimension against the VC dimension of
  thresholds as the domain grows (exact, :mod:`privref.reference.vc`).  003
  Theorems 4.1–4.3: pure private learning needs Ldim, semi-private learning
  only VC plus public data.
* ``semiprivate``: the private (labeled) sample size needed by a fully private
  learner (KLNRS, the exponential mechanism over C) and by the semi-private
  A_SSPP (003 Algorithm 1, with a fixed public sample) as the domain grows,
  measured with :mod:`privref.app.experiments.learning` (exact errors, Clopper–Pearson).
* ``public``: the public sample size A_SSPP needs as α shrinks, against the
  lower bound n_pub > 1/(1600α) of 003 Theorem 4.1 (a bound on any learner
  whose private sample is small; A_SSPP's own rate is O(log(1/α)/α)).

These illustrate the statements on small instances; none proves them.  The command line is
:mod:`privref.app.commands.illustrate`, the plot :mod:`privref.app.reports.illustrations_plot`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from privref.reference.concepts import thresholds_on
from privref.reference.learners.schedule import floor_real
from privref.reference.reals import log
from privref.reference.validate import check_int
from privref.reference.vc import littlestone_dimension, vc_dimension

from .learning import Cell, ExperimentConfig, run_experiment, sample_complexity

__all__ = [
    "LOWER_CONSTANT",
    "SEMIPRIVATE_GRID",
    "SEMIPRIVATE_WINDOW",
    "em_bound",
    "littlestone_table",
    "public_table",
    "semiprivate_table",
]

LOWER_CONSTANT = Fraction(1, 1600)
"""003 Theorem 4.1: n_pub > 1/(1600α) public examples (with a small private sample)."""


def littlestone_table(max_points: int) -> list[dict[str, int]]:
    """Exact VC and Littlestone dimensions of thresholds on n = 1..max_points points."""
    check_int(max_points, "max_points", minimum=1, maximum=256)
    rows = []
    for n in range(1, max_points + 1):
        C = thresholds_on(n)
        rows.append({"points": n, "vc": vc_dimension(C), "littlestone": littlestone_dimension(C)})
    return rows


def _quiet(cell: Cell) -> None:
    """No progress."""


SEMIPRIVATE_GRID: tuple[int, ...] = (4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384)
"""Private sizes tried by :func:`semiprivate_table`: steps of about √2, so a factor-2 separation
spans two grid steps; 384 exceeds both learners' bounds below at d <= 10, ε = 1/2."""


def em_bound(candidates: int, alpha: Fraction, beta: Fraction, epsilon: Fraction) -> int:
    """⌈(2/(αε))·ln(candidates/β)⌉: the private size at which the exponential mechanism over
    ``candidates`` hypotheses, one of them consistent, errs by more than α on the sample with
    probability <= β (Kasiviswanathan et al. 2008; 004 Proposition A.1).  KLNRS has |C| = 2^d + 1
    candidates; A_SSPP at most n_pub + 1 (its cover, 003 Algorithm 1), whatever d.  Exact (no float)."""
    value = log(Fraction(candidates) / Fraction(beta)) * (2 / (Fraction(alpha) * Fraction(epsilon)))
    return -floor_real(-value)


SEMIPRIVATE_WINDOW = 8
"""μ of ``illustrate semiprivate``: uniform on 8 consecutive points of X_d at a random offset,
target threshold cut inside them (ExperimentConfig.window)."""


def semiprivate_table(dims: tuple[int, ...], public: int, runs: int, epsilon: Fraction,
                      seed: int, progress: Any = _quiet,
                      labeled_sizes: tuple[int, ...] = SEMIPRIVATE_GRID,
                      window: int = SEMIPRIVATE_WINDOW) -> list[dict[str, Any]]:
    """Empirical private sample complexity m*(d) of KLNRS and of A_SSPP (public sample ``public``).

    Both are pure ε-DP in the private sample (equal proved privacy).  Each row also gives the
    exponential-mechanism bound :func:`em_bound` for the learner's candidate set (KLNRS: |C|;
    A_SSPP: n_pub + 1): KLNRS's grows like d·ln 2, A_SSPP's stays at ln(n_pub + 1).
    μ is concentrated on ``window`` consecutive points (0: uniform on X_d, where the α-good
    thresholds are a fixed fraction 2α of C and no separation can appear).
    """
    config = ExperimentConfig(learners=("klnrs", "sspp"), families=("thresholds",), dims=dims,
                              labeled_sizes=labeled_sizes, unlabeled_sizes=(public,),
                              epsilon=epsilon, runs=runs, seed=seed, window=window)
    result = run_experiment(config, progress=progress)
    rows = []
    for k, v in sample_complexity(result).items():
        cover = public + 1 if not window else min(public, window) + 1
        candidates = (1 << k[2]) + 1 if k[0] == "klnrs" else min((1 << k[2]) + 1, cover)
        rows.append({"learner": k[0], "d": k[2], "points": 1 << k[2], "private_m_star": v[0],
                     "candidates": candidates,
                     "em_bound": em_bound(candidates, config.alpha, config.beta, epsilon)})
    return rows


def public_table(alphas: tuple[Fraction, ...], d: int, private: int, runs: int, epsilon: Fraction,
                 seed: int, progress: Any = _quiet) -> list[dict[str, Any]]:
    """For each α: A_SSPP's empirical public sample complexity n*(α) at a generous private size."""
    rows = []
    for i, alpha in enumerate(alphas):
        config = ExperimentConfig(learners=("sspp",), families=("thresholds",), dims=(d,),
                                  labeled_sizes=(private,),
                                  unlabeled_sizes=(1, 2, 4, 8, 16, 32, 64, 128, 256),
                                  alpha=alpha, epsilon=epsilon, runs=runs, seed=seed + i)
        result = run_experiment(config, progress=progress)
        (_, n_star), = sample_complexity(result).values()
        rows.append({"alpha": str(alpha), "inverse_alpha": float(1 / alpha),
                     "public_n_star": n_star,
                     "lower_bound_1_over_1600_alpha": float(LOWER_CONSTANT / alpha)})
    return rows
