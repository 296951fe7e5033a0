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
from privref.reference.validate import check_int
from privref.reference.vc import littlestone_dimension, vc_dimension

from .learning import Cell, ExperimentConfig, run_experiment, sample_complexity

__all__ = ["LOWER_CONSTANT", "littlestone_table", "public_table", "semiprivate_table"]

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


def semiprivate_table(dims: tuple[int, ...], public: int, runs: int, epsilon: Fraction,
                      seed: int, progress: Any = _quiet) -> list[dict[str, Any]]:
    """Empirical private sample complexity m*(d) of KLNRS and of A_SSPP (public sample ``public``)."""
    config = ExperimentConfig(learners=("klnrs", "sspp"), families=("thresholds",), dims=dims,
                              labeled_sizes=(4, 8, 16, 32, 64, 128, 256),
                              unlabeled_sizes=(public,), epsilon=epsilon, runs=runs, seed=seed)
    result = run_experiment(config, progress=progress)
    return [{"learner": k[0], "d": k[2], "points": 1 << k[2], "private_m_star": v[0]}
            for k, v in sample_complexity(result).items()]


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
