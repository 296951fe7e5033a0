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
* the learner's claimed (ε, δ) and the base ε' it was run at.

**Equal proved privacy.** ``ExperimentConfig.epsilon`` is the *proved* ε every learner
must carry (all claims here are pure: δ = 0).  Each learner is run at the base ε' that makes
the claim its code attaches equal that target exactly (:func:`base_epsilon`; exact
Fractions): KLNRS, GenericLearner and A_SSPP claim their ε' (ε' = target); LabelBoost
claims ε' + 3 (000 Lemma 4.1 at the papers' ε_em = 1), so it runs at ε' = target − 3 and
is skipped (and listed) when target <= 3.  :func:`run_cell` refuses a learner whose
claim differs from the target.

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
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from privref import reference
from privref.audits.stats import cp_lower, cp_upper
from privref.reference.concepts import Concept, ConceptClass, intervals, rectangles, thresholds
from privref.reference.data import labeled, unlabeled
from privref.reference.errors import InvalidArgument
from privref.reference.learners.active import theorem57_learner, theorem57_pool
from privref.reference.learners.base import Learner
from privref.reference.learners.generic import generic_learner_blr, klnrs_learner
from privref.reference.learners.iterlabelboost import iter_label_boost
from privref.reference.learners.labelboost import label_boost
from privref.reference.learners.schedule import PAPER_004, LabelBoostConstants, floor_real
from privref.reference.learners.semiprivate import sspp_learner
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import sample as sample_program
from privref.reference.reals import Order, Real, compare, rational
from privref.reference.validate import check_int, to_fraction

__all__ = [
    "FAMILIES",
    "LABELBOOST_OVERHEAD",
    "LEARNERS",
    "MAX_POOL",
    "MAX_WORK",
    "SCALED_004",
    "THEOREM_LEARNERS",
    "Cell",
    "ExperimentConfig",
    "ExperimentResult",
    "LearnerSpec",
    "TheoremCell",
    "TheoremConfig",
    "TheoremResult",
    "base_epsilon",
    "base_size",
    "estimated_work",
    "grid_size",
    "run_experiment",
    "run_theorems",
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
    overhead: Fraction = Fraction(0)
    """The learner's proved ε minus its base ε' (exact): 3 for LabelBoost (000 Lemma 4.1), else 0."""


LABELBOOST_OVERHEAD: Fraction = Fraction(3)
"""LabelBoost's claim is (ε' + 3, 4e·δ) from an (ε', δ) base at ε_em = 1 (000 Lemma 4.1;
:func:`privref.reference.learners.labelboost.labelboost_claim`)."""


def base_epsilon(key: str, target: Fraction) -> Fraction | None:
    """The base ε' at which learner ``key`` proves exactly ε = ``target`` (None if none > 0).

    ε' = target − overhead (exact Fractions; LabelBoost: target − 3, 000 Lemma 4.1).
    """
    if key not in LEARNERS:
        raise InvalidArgument(f"learner={key!r} is not registered")
    base = Fraction(target) - LEARNERS[key].overhead
    return base if base > 0 else None


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
                              "004 Algorithm 2", "labeled-then-unlabeled", _labelboost,
                              overhead=LABELBOOST_OVERHEAD),
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
        if base_epsilon(key, config.epsilon) is None:
            continue
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
    window: int = 0
    """0: μ uniform on X_d, target uniform in C.  W > 0 (thresholds only): μ uniform on W
    consecutive points at a uniform offset, target c_j with j uniform among the W + 1 cuts of the
    window: the α-good thresholds are then a fraction ≈ 2αW/2^d of C, so KLNRS's need grows
    with d while a learner that sees μ through public points does not (003's setting)."""

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
        check_int(self.window, "window", minimum=0)
        if self.window:
            if tuple(self.families) != ("thresholds",):
                raise InvalidArgument(f"window={self.window} needs families=('thresholds',)")
            if self.window > 1 << min(self.dims):
                raise InvalidArgument(f"window={self.window} must be <= 2^d = "
                                      f"{1 << min(self.dims)} for every d in dims")
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
                "ci_alpha": str(self.ci_alpha), "seed": self.seed, "window": self.window,
                "epsilon_is": "the proved claim of every learner (equal privacy)"}


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
    base_epsilon: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON record (floats for reading, exact values as strings)."""
        return {"learner": self.learner, "family": self.family, "d": self.d, "vc": self.vc,
                "class_size": self.class_size, "labeled": self.labeled,
                "unlabeled": self.unlabeled, "runs": self.runs, "failures": self.failures,
                "failure_interval": [float(self.failure_low), float(self.failure_high)],
                "failure_interval_exact": [str(self.failure_low), str(self.failure_high)],
                "mean_error": float(self.mean_error), "claimed_epsilon": self.claimed_epsilon,
                "claimed_delta": self.claimed_delta, "base_epsilon": self.base_epsilon,
                "seconds": round(self.seconds, 3)}


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


def _window_error(h: object, target: Concept, offset: int, w: int) -> Fraction:
    """error_μ(h, target) for μ uniform on the points offset..offset + w − 1 (exact)."""
    if not callable(h):
        raise InvalidArgument(f"learner output {h!r} is not a hypothesis (callable on points)")
    pts = target.domain.points[offset:offset + w]
    wrong = sum(1 for x in pts if int(h(x)) != target(x))
    return Fraction(wrong, w)


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
    base = base_epsilon(spec_key, config.epsilon)
    if base is None:
        raise InvalidArgument(f"{spec_key} cannot prove epsilon={config.epsilon}: its claim is "
                              f"eps' + {spec.overhead} for a base eps' > 0")
    learner = spec.build(concepts, base, m, n)
    claim = learner.claim
    if claim.epsilon.exact != config.epsilon or claim.delta != 0:
        raise InvalidArgument(f"{spec_key} at base eps'={base} claims ({claim.epsilon}, "
                              f"{claim.delta}), not the target ({config.epsilon}, 0)")
    n_used = 0 if spec.layout == "labeled" else n
    start = time.perf_counter()
    failures = 0
    total = Fraction(0)
    points = concepts.domain.points
    for run in range(config.runs):
        rng = np.random.Generator(np.random.PCG64(
            np.random.SeedSequence(config.seed, spawn_key=(cell_index, run))))
        if config.window:
            # μ uniform on W consecutive points at a uniform offset; target c_j, j uniform in the
            # window's W + 1 cuts (THRESH_d's canonical index j: c_j(x) = 1 iff x < j)
            w = config.window
            offset = int(rng.integers(len(points) - w + 1))
            target = concepts[offset + int(rng.integers(w + 1))]
            drawn = [points[offset + int(i)] for i in rng.integers(w, size=m + n_used)]
            h = learner.sample(_database(spec, drawn, target, m, n_used), rng)
            err = _window_error(h, target, offset, w)
        else:
            target = concepts[int(rng.integers(len(concepts)))]
            drawn = [points[int(i)] for i in rng.integers(len(points), size=m + n_used)]
            h = learner.sample(_database(spec, drawn, target, m, n_used), rng)
            err = _error(h, target)
        total += err
        failures += err > config.alpha
    a = config.ci_alpha / 2
    return Cell(spec_key, family, d, _vc(concepts), len(concepts), m, n_used, config.runs,
                failures, cp_lower(failures, config.runs, a), cp_upper(failures, config.runs, a),
                total / config.runs, str(claim.epsilon), str(claim.delta),
                time.perf_counter() - start, str(base))


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
        if base_epsilon(key, config.epsilon) is None:
            skipped.append(f"{key}: its proved claim is eps' + {spec.overhead} > "
                           f"{config.epsilon} for every base eps' > 0 (not run at this privacy)")
            index += len(config.families) * len(config.dims) * len(sizes_n) * len(
                config.labeled_sizes)
            continue
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


# ----------------------------------------------------------------- the theorems' learners

SCALED_004: LabelBoostConstants = replace(
    PAPER_004, exponent_divisor=Fraction(1, 1000), v_s_coefficient=Fraction(1), stop_factor=30,
    cap_factor=751, unlabeled_factor=751, keep_iteration=Fraction(1, 25),
    keep_final=Fraction(1, 30))
"""Scaled constants of 004 Algorithm 4 for :func:`run_theorems` (the paper's in brackets):
α_i = α/(24·2^i) and β_i = β/(4·2^i) as printed; Step 2b's exponent divisor 1/1000 (200) and
|S| coefficient 1 (100); stop at |S| >= 30n (300n); cap v <= 751n (30000n); |D| = 751n (90000n:
one capped iteration); keep 1/25 in Step 2c (1/100) and 1/30 in Step 3 (1/300), so Step 4 still
draws >= n examples.  The privacy claim is recomputed along 004 Lemma C.4's proof
(ε* ≈ 2.11 instead of 1); the papers' sizes (|D| = 90000n, |S| >= 576000/α·VC·log(768/(αβ)))
are beyond exact sampling."""

MAX_POOL: int = 4_000_000
"""Largest SubSampling pool t :func:`run_theorems` accepts (memory: one labeled pair per point)."""

THEOREM_LEARNERS: tuple[str, ...] = ("iterlabelboost", "klnrs@iterlabelboost", "theorem57",
                                     "klnrs@theorem57")
"""Rows of :func:`run_theorems`: each theorem learner, and KLNRS at exactly its proved ε."""


def base_size(d: int, alpha: Fraction, beta: Fraction) -> int:
    """n(d) = ⌈(2/α)(ln|THRESH_d| + ln(1/β))⌉: a sample size at which KLNRS at ε' = 1 is an
    (α, β)-learner of THRESH_d (the exponential mechanism's bound, 004 Proposition A.1 with
    Kasiviswanathan et al.'s analysis); grows with d like ln|C| (decided exactly, no float)."""
    from privref.reference.reals import log as rlog
    value = (rlog(Fraction((1 << d) + 1)) + rlog(1 / Fraction(beta))) * (2 / Fraction(alpha))
    return -floor_real(-value)


@dataclass(frozen=True, slots=True)
class TheoremConfig:
    """Parameters of :func:`run_theorems` (validated; exact α, β, ε)."""

    dims: tuple[int, ...] = (2, 4, 6)
    labeled_sizes: tuple[int, ...] = (128, 256, 512, 1024)
    """Labeled sizes m of IterLabelBoost (Step 2c keeps ⌊m/25⌋ of them before the first EM)."""
    pal_sizes: tuple[int, ...] = (256, 1024)
    """Labeled sizes (label budgets) at which the Theorem 5.7 PAL runs (each run draws a pool of
    about 10^6 points); a subset of ``labeled_sizes``."""
    klnrs_sizes: tuple[int, ...] = (2, 4, 8, 16, 32, 64)
    """Labeled sizes of KLNRS at each theorem learner's proved ε."""
    runs: int = 20
    alpha: Fraction = Fraction(1, 4)
    beta: Fraction = Fraction(1, 4)
    epsilon: Fraction = Fraction(1)
    ci_alpha: Fraction = Fraction(1, 20)
    seed: int = 0
    constants: LabelBoostConstants = SCALED_004

    def __post_init__(self) -> None:
        for name, sizes, low, high in (("dims", self.dims, 1, 8),
                                       ("labeled_sizes", self.labeled_sizes, 1, 4096),
                                       ("pal_sizes", self.pal_sizes, 1, 4096),
                                       ("klnrs_sizes", self.klnrs_sizes, 1, 4096)):
            if not sizes and name != "pal_sizes":
                raise InvalidArgument(f"{name}=() must hold at least one value")
            for v in sizes:
                check_int(v, name, minimum=low, maximum=high)
        if not set(self.pal_sizes) <= set(self.labeled_sizes):
            raise InvalidArgument(f"pal_sizes={self.pal_sizes} must be a subset of "
                                  f"labeled_sizes={self.labeled_sizes}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta), ("ci_alpha", self.ci_alpha)):
            frac = to_fraction(value, name)
            if not 0 < frac < 1:
                raise InvalidArgument(f"{name}={frac} must lie in (0, 1)")
        eps = to_fraction(self.epsilon, "epsilon")
        if not 0 < eps <= 1:
            raise InvalidArgument(f"epsilon={eps} must lie in (0, 1] (004 Claim 5.6 is proved "
                                  "for eps <= ln 3; the theorems' target)")
        check_int(self.runs, "runs", minimum=1, maximum=10_000)
        check_int(self.seed, "seed", minimum=0, maximum=2**64 - 1)
        for d in self.dims if self.pal_sizes else ():
            n = base_size(d, self.alpha, self.beta)
            pool = theorem57_pool(_iter_claim(d, n, max(self.pal_sizes), self),
                                  max(self.pal_sizes) + self.constants.unlabeled_factor * n,
                                  self.epsilon)
            if pool > MAX_POOL:
                raise InvalidArgument(f"the Theorem 5.7 pool at d={d}, epsilon={self.epsilon} "
                                      f"has t={pool} points, more than MAX_POOL={MAX_POOL}; "
                                      "lower dims or raise epsilon")

    def to_json(self) -> dict[str, Any]:
        """The parameters as JSON (exact values as strings; the constants field by field)."""
        c = self.constants
        return {"dims": list(self.dims), "labeled_sizes": list(self.labeled_sizes),
                "pal_sizes": list(self.pal_sizes), "klnrs_sizes": list(self.klnrs_sizes),
                "runs": self.runs, "alpha": str(self.alpha), "beta": str(self.beta),
                "epsilon": str(self.epsilon), "ci_alpha": str(self.ci_alpha), "seed": self.seed,
                "constants": {f: str(getattr(c, f)) for f in c.__dataclass_fields__}}


def _schedulable(d: int, n: int, m: int, config: TheoremConfig) -> bool:
    try:
        _iter(d, n, m, config)
    except InvalidArgument:
        return False
    return True


def _largest(values: list[Real]) -> Real:
    if not values:
        raise InvalidArgument("no labeled size gives an OK schedule; raise labeled_sizes")
    best = values[0]
    for v in values[1:]:
        order, _ = compare(v, best)
        if order is Order.UNDECIDED:
            raise InvalidArgument(f"cannot order the claims {v} and {best}")
        if order is Order.GREATER:
            best = v
    return best


def _iter_claim(d: int, n: int, m: int, config: TheoremConfig) -> PrivacyClaim:
    return _iter(d, n, m, config).claim


def _iter(d: int, n: int, m: int, config: TheoremConfig) -> Learner[Any]:
    C = thresholds(d)
    return iter_label_boost(klnrs_learner(C, epsilon=1), alpha=config.alpha, beta=config.beta,
                            n=n, m=m, constants=config.constants, subset_draw="subset")


@dataclass(frozen=True, slots=True)
class TheoremCell:
    """``runs`` repetitions of one theorem learner (or KLNRS at its claim) at (d, m)."""

    learner: str
    d: int
    base_n: int
    labeled: int
    unlabeled: int
    runs: int
    failures: int
    failure_low: Fraction
    failure_high: Fraction
    mean_error: Fraction
    claimed_epsilon: str
    claimed_epsilon_float: float
    claimed_delta: str
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """JSON record (floats for reading, exact values as strings)."""
        return {"learner": self.learner, "d": self.d, "base_n": self.base_n,
                "labeled": self.labeled, "unlabeled": self.unlabeled, "runs": self.runs,
                "failures": self.failures,
                "failure_interval": [float(self.failure_low), float(self.failure_high)],
                "failure_interval_exact": [str(self.failure_low), str(self.failure_high)],
                "mean_error": float(self.mean_error), "claimed_epsilon": self.claimed_epsilon,
                "claimed_epsilon_float": self.claimed_epsilon_float,
                "claimed_delta": self.claimed_delta, "seconds": round(self.seconds, 3)}


@dataclass(frozen=True, slots=True)
class TheoremResult:
    """All cells of :func:`run_theorems` with the configuration and privref's version."""

    config: TheoremConfig
    cells: tuple[TheoremCell, ...]
    seconds: float
    version: str = field(default_factory=lambda: reference.__version__)

    def summary(self) -> list[dict[str, Any]]:
        """Per (learner, d): proved ε, labeled m* (smallest grid m with CP upper end <= β) and
        the unlabeled count used there (None when no grid m reaches the target)."""
        out: dict[tuple[str, int], dict[str, Any]] = {}
        for c in self.cells:
            row = out.setdefault((c.learner, c.d), {
                "learner": c.learner, "d": c.d, "base_n": c.base_n, "m_star": None,
                "unlabeled_at_m_star": None, "claimed_epsilon": c.claimed_epsilon,
                "claimed_epsilon_float": c.claimed_epsilon_float,
                "claimed_delta": c.claimed_delta})
            if c.failure_high <= self.config.beta and (row["m_star"] is None
                                                       or c.labeled < row["m_star"]):
                row.update(m_star=c.labeled, unlabeled_at_m_star=c.unlabeled,
                           claimed_epsilon=c.claimed_epsilon,
                           claimed_epsilon_float=c.claimed_epsilon_float)
        return list(out.values())

    def to_json(self) -> dict[str, Any]:
        """The JSON table: configuration, every cell, and :meth:`summary`."""
        return {"privref_version": self.version, "config": self.config.to_json(),
                "seconds": round(self.seconds, 2), "cells": [c.to_json() for c in self.cells],
                "summary": self.summary()}


def _float(eps: Real) -> float:
    return float(eps.enclose(64).hi)


def run_theorems(config: TheoremConfig,
                 progress: Callable[[TheoremCell], None] | None = None) -> TheoremResult:
    """IterLabelBoost (004 Algorithm 4 / Theorem C.11) and the Theorem 5.7 PAL, end to end, with
    KLNRS at exactly each one's proved ε, on THRESH_d (uniform μ, uniform target), per (d, m).

    The base PSSL is KLNRS at ε' = 1 on n(d) = :func:`base_size` examples.  IterLabelBoost gets
    m labeled and |D| = unlabeled_factor·n unlabeled points; the PAL gets a pool of t
    (:func:`~privref.reference.learners.active.theorem57_pool`) unlabeled points and asks m
    labels.  Seeds: ``SeedSequence(seed, spawn_key=(10^6 + cell, run))``.
    """
    import time
    start = time.perf_counter()
    cells: list[TheoremCell] = []
    index = 0
    a = config.ci_alpha / 2
    for d in config.dims:
        C = thresholds(d)
        n = base_size(d, config.alpha, config.beta)
        points = C.domain.points
        unl = config.constants.unlabeled_factor * n
        # KLNRS runs at a proved ε that every theorem learner of this d also proves: the largest
        # IterLabelBoost ε* over the grid (it varies with m through the floors of Step 2c), and
        # the PAL's target ε (each PAL claims ε_t <= ε).  Ties favour KLNRS, never the theorem.
        iter_eps = _largest([_iter(d, n, m, config).claim.epsilon
                             for m in config.labeled_sizes if _schedulable(d, n, m, config)])
        pal_eps = rational(config.epsilon)
        jobs = [(key, m) for key in THEOREM_LEARNERS for m in
                {"iterlabelboost": config.labeled_sizes, "theorem57": config.pal_sizes}.get(
                    key, config.klnrs_sizes)]
        for key, m in jobs:
            index += 1
            if key in ("iterlabelboost", "theorem57") and not _schedulable(d, n, m, config):
                continue                      # the schedule fails or stalls at this m
            if True:
                t0 = time.perf_counter()
                if key == "iterlabelboost":
                    itl = _iter(d, n, m, config)
                    claim = itl.claim
                elif key == "theorem57":
                    pal = theorem57_learner(klnrs_learner(C, epsilon=1), alpha=config.alpha,
                                            beta=config.beta, n=n, m=m, epsilon=config.epsilon,
                                            constants=config.constants)
                    claim = pal.pal_claim
                else:
                    claim = PrivacyClaim(iter_eps if key.endswith("iterlabelboost") else pal_eps,
                                         Fraction(0))
                klnrs = klnrs_learner(C, epsilon=claim.epsilon)
                if key.startswith("klnrs") and str(klnrs.claim.epsilon) != str(claim.epsilon):
                    raise InvalidArgument(f"KLNRS claims {klnrs.claim.epsilon}, not {claim.epsilon}")
                failures, total = 0, Fraction(0)
                for run in range(config.runs):
                    rng = np.random.Generator(np.random.PCG64(
                        np.random.SeedSequence(config.seed, spawn_key=(10**6 + index, run))))
                    target = C[int(rng.integers(len(C)))]
                    if key == "theorem57":
                        xs = rng.integers(len(points), size=pal.n).tolist()
                        ys = [target.labels[i] for i in xs]
                        pool = tuple(zip([points[i] for i in xs], ys, strict=True))
                        h, transcript = sample_program(pal.run, pool, rng=rng)
                        if len(transcript) != m:
                            raise InvalidArgument(f"the PAL asked {len(transcript)} labels, "
                                                  f"not m={m}")
                    elif key == "iterlabelboost":
                        drawn = [points[int(i)] for i in rng.integers(len(points), size=m + unl)]
                        h = itl.sample(tuple(labeled(x, target(x)) for x in drawn[:m])
                                       + tuple(unlabeled(x) for x in drawn[m:]), rng)
                    else:
                        drawn = [points[int(i)] for i in rng.integers(len(points), size=m)]
                        h = klnrs.sample(tuple(labeled(x, target(x)) for x in drawn), rng)
                    err = _error(h, target)
                    total += err
                    failures += err > config.alpha
                unlabeled_count = (unl if key == "iterlabelboost" else
                                   pal.n - m if key == "theorem57" else 0)
                cell = TheoremCell(key, d, n, m, unlabeled_count, config.runs, failures,
                                   cp_lower(failures, config.runs, a),
                                   cp_upper(failures, config.runs, a), total / config.runs,
                                   str(claim.epsilon), _float(claim.epsilon), str(claim.delta),
                                   time.perf_counter() - t0)
                cells.append(cell)
                if progress is not None:
                    progress(cell)
    return TheoremResult(config, tuple(cells), time.perf_counter() - start)
