"""Learning-curve experiments: labeled and unlabeled sample complexity of the private learners.

Issue 4, item 3 tests the main claim of papers 000/004 (Beimel, Nissim,
Stemmer): the *labeled* sample complexity of private learning is governed by
the VC dimension, while the *unlabeled* sample complexity may grow with the
domain (d for X_d = {0, …, 2^d − 1}).  For every registered learner, concept
family and d, the experiment runs the learner's exact sampler on i.i.d.
samples from the uniform distribution over X_d labeled by a uniformly drawn
target concept, and measures the generalization error exactly (the fraction
of X_d where hypothesis and target disagree).

Per (learner, class, d, m, n) it records, over ``runs`` seeded repetitions:

* the number of failures (error > α) and an exact two-sided Clopper–Pearson
  interval for the failure probability (:mod:`privref.audits.stats`; the
  interval holds with probability ≥ 1 − ``ci_alpha`` for that cell);
* the mean error;
* the learner's claimed (ε, δ).

The *empirical sample complexity* m*(d) is the smallest grid value m whose
failure interval lies below β (upper end ≤ β): with confidence 1 − ci_alpha,
at m* the learner is (α, β)-accurate on this distribution family; n*(d) is
the same for the unlabeled size.  These are statements about the grid, the
distribution family and the seeds, not about worst-case distributions.

Every random choice uses ``numpy.random.Generator`` integers seeded from a
``SeedSequence(seed, spawn_key=(cell, run))``, so results are reproducible and
independent of execution order.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from privref import reference
from privref.audits.stats import cp_lower, cp_upper
from privref.reference.concepts import Concept, ConceptClass, intervals, rectangles, thresholds
from privref.reference.data import labeled, unlabeled
from privref.reference.errors import InvalidArgument
from privref.reference.learners.base import Learner
from privref.reference.learners.generic import generic_learner_blr, klnrs_learner
from privref.reference.learners.labelboost import label_boost
from privref.reference.learners.semiprivate import sspp_learner
from privref.reference.validate import check_int, to_fraction

__all__ = [
    "FAMILIES",
    "LEARNERS",
    "MAX_WORK",
    "Cell",
    "ExperimentConfig",
    "ExperimentResult",
    "LearnerSpec",
    "estimated_work",
    "grid_size",
    "run_experiment",
    "sample_complexity",
]

Layout = Literal["labeled", "unlabeled-then-labeled", "labeled-then-unlabeled"]


@dataclass(frozen=True, slots=True)
class LearnerSpec:
    """A learner under test: how to build it for a class and how its input database is laid out.

    ``layout`` says where the labeled examples go: ``labeled`` (labeled sample
    only; the unlabeled size is ignored), ``unlabeled-then-labeled`` (D then S,
    000/004 Algorithm 1) or ``labeled-then-unlabeled`` (S then D, the
    LabelBoost learners).  ``build(concepts, epsilon, labeled_size,
    unlabeled_size)`` returns the learner for those (public) sizes.
    """

    name: str
    source: str
    layout: Layout
    build: Callable[[ConceptClass, Fraction, int, int], Learner[Any]]
    max_domain: int | None = None
    """Cells whose domain has more points are skipped (and listed): exact sampling would be too slow."""


def _klnrs(concepts: ConceptClass, epsilon: Fraction, m: int, n: int) -> Learner[Any]:
    return klnrs_learner(concepts, epsilon=epsilon)


GENERIC_K: int = 2
"""Size of the BLR-sanitized database in the experiment's GenericLearner (candidates C(2^d+1, 2))."""


def _generic(concepts: ConceptClass, epsilon: Fraction, m: int, n: int) -> Learner[Any]:
    return generic_learner_blr(concepts, m=m, k=GENERIC_K, epsilon=epsilon)


def _labelboost(concepts: ConceptClass, epsilon: Fraction, m: int, n: int) -> Learner[Any]:
    return label_boost(klnrs_learner(concepts, epsilon=epsilon), s=m, t=n, d=0)


def _sspp(concepts: ConceptClass, epsilon: Fraction, m: int, n: int) -> Learner[Any]:
    return sspp_learner(concepts, public_size=n, epsilon=epsilon)


LEARNERS: dict[str, LearnerSpec] = {
    "klnrs": LearnerSpec("KLNRS (exponential mechanism over C)", "004 Algorithm 3 with H = C",
                         "labeled", _klnrs),
    "generic": LearnerSpec(f"GenericLearner with BLR (k = {GENERIC_K})", "004/000 Algorithm 1",
                           "unlabeled-then-labeled", _generic, max_domain=16),
    "labelboost": LearnerSpec("LabelBoost (S labeled, T = the unlabeled sample) -> KLNRS",
                              "004 Algorithm 2", "labeled-then-unlabeled", _labelboost),
    "sspp": LearnerSpec("A_SSPP: cover from the public (unlabeled) sample, EM on the private one",
                        "003 Algorithm 1", "unlabeled-then-labeled", _sspp),
}
"""The registered learners, by short name (extended by :func:`register_learner`)."""


def register_learner(key: str, spec: LearnerSpec) -> None:
    """Add a learner to :data:`LEARNERS` (refuses a key already in use)."""
    if key in LEARNERS:
        raise InvalidArgument(f"learner key={key!r} is already registered")
    LEARNERS[key] = spec


FAMILIES: dict[str, Callable[[int], ConceptClass]] = {
    "thresholds": thresholds,
    "intervals": lambda d: intervals(1 << d),
    "rectangles": lambda d: rectangles(d, 2),
}
"""Concept families by name, as functions of d (domain X_d, or X_d^2 for rectangles)."""


MAX_WORK: int = 4 * 10**9
"""Default bound on :func:`estimated_work` (about half an hour on a laptop core: the documented
814 s grid of docs/learning.md is 1.5e9): a grid above it is refused before it runs."""


def _class_size(family: str, d: int) -> int:
    n = 1 << d
    if family == "thresholds":
        return n + 1
    if family == "intervals":
        return n * (n + 1) // 2 + 1
    return (n * (n + 1) // 2 + 1) ** 2  # rectangles over X_d^2 (and any other family)


def grid_size(config: ExperimentConfig) -> int:
    """Number of cells :func:`run_experiment` runs (before skipping cells over max_domain)."""
    total = 0
    for key in config.learners:
        sizes_n = 1 if LEARNERS[key].layout == "labeled" else len(config.unlabeled_sizes)
        total += len(config.families) * len(config.dims) * sizes_n * len(config.labeled_sizes)
    return total


def estimated_work(config: ExperimentConfig) -> int:
    """A cost estimate of the grid: Σ over cells of runs × (class size) × (sample size + 1).

    Each run of an exact sampler scores every hypothesis on every example, so this grows
    like the real running time (about 2·10^6 units a second); it bounds the resources a user can
    inflate with runs, dims and sizes.
    """
    work = 0
    for key in config.learners:
        labeled_only = LEARNERS[key].layout == "labeled"
        sizes_n = (0,) if labeled_only else config.unlabeled_sizes
        for family in config.families:
            for d in config.dims:
                size = _class_size(family, d)
                for n in sizes_n:
                    for m in config.labeled_sizes:
                        work += config.runs * size * (m + n + 1)
    return work


@dataclass(frozen=True, slots=True)
class ExperimentConfig:
    """Parameters of one experiment (validated at construction; exact α, β, ε)."""

    learners: tuple[str, ...] = ("klnrs",)
    families: tuple[str, ...] = ("thresholds", "intervals")
    dims: tuple[int, ...] = (2, 3, 4, 5)
    labeled_sizes: tuple[int, ...] = (2, 4, 8, 16, 32, 64, 128)
    unlabeled_sizes: tuple[int, ...] = (64,)
    alpha: Fraction = Fraction(1, 4)
    beta: Fraction = Fraction(1, 4)
    epsilon: Fraction = Fraction(1)
    runs: int = 100
    ci_alpha: Fraction = Fraction(1, 20)
    seed: int = 0
    max_work: int = MAX_WORK
    """Refuse grids whose :func:`estimated_work` exceeds this (raise it to run bigger grids)."""

    def __post_init__(self) -> None:
        for key in self.learners:
            if key not in LEARNERS:
                raise InvalidArgument(f"learner={key!r} is not registered; known: "
                                      + ", ".join(sorted(LEARNERS)))
        for fam in self.families:
            if fam not in FAMILIES:
                raise InvalidArgument(f"family={fam!r} is unknown; known: {', '.join(FAMILIES)}")
        for name, sizes, low in (("dims", self.dims, 1), ("labeled_sizes", self.labeled_sizes, 1),
                                 ("unlabeled_sizes", self.unlabeled_sizes, 0)):
            if not sizes:
                raise InvalidArgument(f"{name}=() must hold at least one value")
            for v in sizes:
                check_int(v, name, minimum=low)
        for name, value in (("alpha", self.alpha), ("beta", self.beta), ("ci_alpha", self.ci_alpha)):
            frac = to_fraction(value, name)
            if not 0 < frac < 1:
                raise InvalidArgument(f"{name}={frac} must lie in (0, 1)")
        if to_fraction(self.epsilon, "epsilon") <= 0:
            raise InvalidArgument(f"epsilon={self.epsilon} must be > 0")
        check_int(self.runs, "runs", minimum=1)
        check_int(self.seed, "seed", minimum=0, maximum=2**64 - 1)
        check_int(self.max_work, "max_work", minimum=1)
        for d in self.dims:
            check_int(d, "dims", maximum=20)  # 2^20 points: beyond every concept-class limit
        work = estimated_work(self)
        if work > self.max_work:
            raise InvalidArgument(
                f"the grid needs about {work:.2e} steps (runs x cells x class size x sample "
                f"size), more than max_work={self.max_work:.0e}; lower runs, dims or the sizes")

    def to_json(self) -> dict[str, Any]:
        """The parameters as JSON (exact values as strings)."""
        return {"learners": list(self.learners), "families": list(self.families),
                "dims": list(self.dims), "labeled_sizes": list(self.labeled_sizes),
                "unlabeled_sizes": list(self.unlabeled_sizes), "alpha": str(self.alpha),
                "beta": str(self.beta), "epsilon": str(self.epsilon), "runs": self.runs,
                "ci_alpha": str(self.ci_alpha), "seed": self.seed}


@dataclass(frozen=True, slots=True)
class Cell:
    """The outcome of ``runs`` repetitions at one (learner, family, d, m, n)."""

    learner: str
    family: str
    d: int
    vc: int
    class_size: int
    labeled: int
    unlabeled: int
    runs: int
    failures: int
    failure_low: Fraction
    failure_high: Fraction
    mean_error: Fraction
    claimed_epsilon: str
    claimed_delta: str
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """JSON record (floats for reading, exact values as strings)."""
        return {"learner": self.learner, "family": self.family, "d": self.d, "vc": self.vc,
                "class_size": self.class_size, "labeled": self.labeled,
                "unlabeled": self.unlabeled, "runs": self.runs, "failures": self.failures,
                "failure_interval": [float(self.failure_low), float(self.failure_high)],
                "failure_interval_exact": [str(self.failure_low), str(self.failure_high)],
                "mean_error": float(self.mean_error), "claimed_epsilon": self.claimed_epsilon,
                "claimed_delta": self.claimed_delta, "seconds": round(self.seconds, 3)}


@dataclass(frozen=True, slots=True)
class ExperimentResult:
    """All cells of an experiment, with its configuration and privref's version."""

    config: ExperimentConfig
    cells: tuple[Cell, ...]
    seconds: float
    skipped: tuple[str, ...] = ()
    version: str = field(default_factory=lambda: reference.__version__)

    def to_json(self) -> dict[str, Any]:
        """The JSON table: configuration, every cell, and the empirical sample complexities."""
        return {"privref_version": self.version, "config": self.config.to_json(),
                "seconds": round(self.seconds, 2), "skipped": list(self.skipped),
                "cells": [c.to_json() for c in self.cells],
                "sample_complexity": [
                    {"learner": k[0], "family": k[1], "d": k[2], "vc": k[3],
                     "labeled": v[0], "unlabeled": v[1]}
                    for k, v in sample_complexity(self).items()]}


def _vc(concepts: ConceptClass) -> int:
    from privref.reference.vc import vc_dimension
    return vc_dimension(concepts)


def _error(h: object, target: Concept) -> Fraction:
    if not isinstance(h, Concept):
        if not callable(h):
            raise InvalidArgument(f"learner output {h!r} is not a hypothesis (callable on points)")
        labels = tuple(int(h(x)) for x in target.domain.points)
    else:
        labels = h.labels
    wrong = sum(1 for a, b in zip(labels, target.labels, strict=True) if a != b)
    return Fraction(wrong, len(target.labels))


def _database(spec: LearnerSpec, points: Sequence[Hashable], target: Concept, m: int,
              n: int) -> tuple[Hashable, ...]:
    lab = tuple(labeled(x, target(x)) for x in points[:m])
    unl = tuple(unlabeled(x) for x in points[m:m + n])
    if spec.layout == "labeled":
        return lab
    if spec.layout == "unlabeled-then-labeled":
        return (*unl, *lab)
    return (*lab, *unl)


def run_cell(spec_key: str, family: str, d: int, m: int, n: int, config: ExperimentConfig,
             cell_index: int) -> Cell:
    """Run one cell: ``config.runs`` seeded repetitions of the learner at sizes (m, n)."""
    import time
    spec = LEARNERS[spec_key]
    concepts = FAMILIES[family](d)
    learner = spec.build(concepts, config.epsilon, m, n)
    n_used = 0 if spec.layout == "labeled" else n
    start = time.perf_counter()
    failures = 0
    total = Fraction(0)
    points = concepts.domain.points
    for run in range(config.runs):
        rng = np.random.Generator(np.random.PCG64(
            np.random.SeedSequence(config.seed, spawn_key=(cell_index, run))))
        target = concepts[int(rng.integers(len(concepts)))]
        drawn = [points[int(i)] for i in rng.integers(len(points), size=m + n_used)]
        h = learner.sample(_database(spec, drawn, target, m, n_used), rng)
        err = _error(h, target)
        total += err
        failures += err > config.alpha
    a = config.ci_alpha / 2
    claim = learner.claim
    return Cell(spec_key, family, d, _vc(concepts), len(concepts), m, n_used, config.runs,
                failures, cp_lower(failures, config.runs, a), cp_upper(failures, config.runs, a),
                total / config.runs, str(claim.epsilon), str(claim.delta),
                time.perf_counter() - start)


def run_experiment(config: ExperimentConfig,
                   progress: Callable[[Cell], None] | None = None) -> ExperimentResult:
    """Every cell of the grid (learners × families × dims × labeled sizes × unlabeled sizes)."""
    import time
    start = time.perf_counter()
    cells: list[Cell] = []
    skipped: list[str] = []
    index = 0
    for key in config.learners:
        spec = LEARNERS[key]
        sizes_n = (0,) if spec.layout == "labeled" else config.unlabeled_sizes
        for family in config.families:
            for d in config.dims:
                points = len(FAMILIES[family](d).domain)
                if spec.max_domain is not None and points > spec.max_domain:
                    skipped.append(f"{key} on {family}, d={d}: {points} points > max_domain="
                                   f"{spec.max_domain}")
                    index += len(sizes_n) * len(config.labeled_sizes)
                    continue
                for n in sizes_n:
                    for m in config.labeled_sizes:
                        cell = run_cell(key, family, d, m, n, config, index)
                        index += 1
                        cells.append(cell)
                        if progress is not None:
                            progress(cell)
    return ExperimentResult(config, tuple(cells), time.perf_counter() - start, tuple(skipped))


def sample_complexity(result: ExperimentResult
                      ) -> dict[tuple[str, str, int, int], tuple[int | None, int | None]]:
    """(learner, family, d, vc) -> (m*, n*): the smallest grid sizes whose failure interval is ≤ β.

    m* is the smallest labeled size at which some unlabeled size reaches
    failure_high ≤ β; n* is the smallest unlabeled size reaching it at some
    labeled size (0 for labeled-only learners).  None when no grid point does.
    """
    beta = result.config.beta
    out: dict[tuple[str, str, int, int], tuple[int | None, int | None]] = {}
    for c in result.cells:
        key = (c.learner, c.family, c.d, c.vc)
        m_star, n_star = out.get(key, (None, None))
        if c.failure_high <= beta:
            m_star = c.labeled if m_star is None else min(m_star, c.labeled)
            n_star = c.unlabeled if n_star is None else min(n_star, c.unlabeled)
        out[key] = (m_star, n_star)
    return out
