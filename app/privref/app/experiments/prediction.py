"""Sample complexity of the prediction algorithms of paper 002 (``privref experiments``).

Paper 002 (Dagan and Feldman, "PAC learning with stable and private predictions") bounds the
number of examples its predictors need: Algorithm 1 (stable, Theorem 1), Algorithm 2
(Corollary 1, Õ(d/(α²ε))), Algorithm 3 (Theorem 2, Õ(d²/(αε) + d/α²)) and the baselines of
its §1 (subsample-and-aggregate, Õ(d/(α³ε)); the private majority, realizable; the generic
learner).  This module measures, for each predictor, class and α, the smallest n on a
geometric grid at which the mean excess error L_P(A, S) − OPT is at most α, at a fixed ε.

Exactness.  P is a known finite distribution on grid × {0, 1} (uniform x, labels of a target
concept flipped with probability η), so L_P(h) is an exact finite sum for every hypothesis
and L_P(A, S) = Σ_x D(x)·[η(x) + p_S(x)·(1 − 2η(x))] is linear in p_S(x).  Given the dataset
S and the algorithm's subset draw I (sampled exactly, integers only, by the predictor's own
subset choice), the conditional loss is computed from the predictor's own sub-programs with
the exact interpreter (:func:`~privref.reference.program.distribution`: exact rationals or
rigorous interval enclosures), never estimated from a test set.  Monte Carlo enters only
through the datasets S and the subset draws I (and, for Algorithm 3, the hypothesis draw h),
and each reported mean carries its standard error.  Evaluators and programs are tied by
tests: averaged over every subset on tiny instances, each evaluator equals the loss read off
:meth:`~privref.reference.prediction.Predictor.law` exactly.

Nothing here proves a bound: the measured n* illustrate the rates on small grids.  The command
line is :mod:`privref.app.commands.experiments`, the figure :mod:`privref.app.reports.prediction_plot`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from privref.reference.concepts import Concept, ConceptClass, explicit, intervals, thresholds_on
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument, UnsupportedProgram
from privref.reference.exponential import exponential_weights
from privref.reference.learners.prediction_baselines import (
    erm,
    flipped_average_predictor,
    generic_predictor,
    index_blocks,
    majority_choice,
    private_majority_predictor,
    subsample_predictor,
)
from privref.reference.learners.relabel_analysis import flip_approximate_privacy
from privref.reference.learners.relabel_prediction import (
    relabel,
    relabel_core_privacy,
    relabel_hypothesis,
    relabel_predictor,
)
from privref.reference.learners.stable_prediction import (
    pattern_exponential_mechanism,
    private_predictor,
    random_index_subset,
    stable_hypothesis,
    stable_predictor,
)
from privref.reference.prediction import Predictor, UniformStability
from privref.reference.privacy import parse_epsilon
from privref.reference.program import (
    Distribution,
    Program,
    Subset,
    categorical_choice,
    distribution,
    sample,
)
from privref.reference.reals import (
    DEFAULT_PRECISION,
    Order,
    Prob,
    Real,
    compare,
    prob_as_interval,
    rational,
)
from privref.reference.validate import check_int
from privref.reference.vc import canonical_representatives, vc_dimension

__all__ = [
    "AGNOSTIC_EPSILONS",
    "AGNOSTIC_GAMMAS",
    "AGNOSTIC_MARGIN",
    "MAX_AGNOSTIC_ALPHA",
    "MAX_N",
    "MAX_N_AGNOSTIC",
    "MIN_AGNOSTIC_ALPHA",
    "PREDICTORS",
    "PREDICTOR_KEYS",
    "QUANTIZATION_SD",
    "RATE_EXPONENT",
    "SWEEP_PAIRS",
    "Bounds",
    "ClassSpec",
    "DrawnSample",
    "ExperimentConfig",
    "Population",
    "PredictorSpec",
    "SweepConfig",
    "agnostic_points",
    "agnostic_population",
    "build_predictor",
    "conditional_law",
    "count_agreements",
    "count_erm",
    "experiment_classes",
    "fit_constants",
    "flip_loss",
    "flipped_average_parameters",
    "generic_loss",
    "hypothesis_loss",
    "majority_loss",
    "n_grid",
    "parameters",
    "predictor_loss",
    "predictor_rate_terms",
    "predictor_spec",
    "private_crossover_alpha",
    "private_crossover_epsilon",
    "private_majority_parameters",
    "private_parameters",
    "proved_epsilon",
    "rate_terms",
    "relabel_parameters",
    "relabel_pure_epsilon",
    "run_experiment",
    "run_sweep",
    "sample_loss",
    "sample_subset",
    "stable_crossover_alpha",
    "stable_crossover_gamma",
    "stable_parameters",
    "subsample_parameters",
    "sweep_crossovers",
    "sweep_grid",
    "sweep_parameters",
    "unions_of_two_intervals",
]

MAX_N = 100_000
"""Largest dataset size ``privref experiments`` accepts (``--max-n``)."""

Bounds = tuple[Fraction, Fraction]
"""A rigorous enclosure [lo, hi] of a real number (lo == hi when exact)."""


# ------------------------------------------------------------------ classes and population


def unions_of_two_intervals(points: int) -> ConceptClass:
    """Unions of at most two intervals on {0, …, points − 1} (VC dimension 4 for points >= 5).

    Canonical order: the empty set, then every single interval [a, b] in lexicographic order,
    then every union [a, b] ∪ [c, e] with b + 1 < c in lexicographic order of (a, b, c, e).
    The VC dimension is checked by brute force (:func:`privref.reference.vc.vc_dimension`) in
    the tests and recorded by every run.  Source: the larger-VC class of the 002 experiments
    (002 Theorems 1 and 2 are stated for any class of VC dimension d).
    """
    check_int(points, "points", minimum=1, maximum=24)
    specs: list[tuple[int, ...]] = [tuple([0] * points)]
    runs = [(a, b) for a in range(points) for b in range(a, points)]

    def labels(parts: Sequence[tuple[int, int]]) -> tuple[int, ...]:
        return tuple(int(any(a <= x <= b for a, b in parts)) for x in range(points))

    specs += [labels([r]) for r in runs]
    specs += [labels([r, s]) for r in runs for s in runs if r[1] + 1 < s[0]]
    return explicit(range(points), specs, name=f"UNION2[{points} points]")


@dataclass(frozen=True)
class ClassSpec:
    """One concept class of the experiment with its target concept (002 §2: agnostic PAC)."""

    key: str
    concepts: ConceptClass
    target: int
    vc: int


def experiment_classes(keys: Sequence[str] = ("thresholds", "intervals", "unions2")
                       ) -> tuple[ClassSpec, ...]:
    """The classes of the experiment, each with a target and its brute-force VC dimension.

    thresholds on 16 points (VC 1, target x < 8), intervals on 12 points (VC 2, target
    [3, 8]), unions of two intervals on 10 points (VC 4, target [1, 3] ∪ [6, 8]).
    """
    out = []
    for key in keys:
        if key == "thresholds":
            C, target = thresholds_on(16), (1 << 8) - 1
        elif key == "intervals":
            C, target = intervals(12), sum(1 << x for x in range(3, 9))
        elif key == "unions2":
            C, target = unions_of_two_intervals(10), sum(1 << x for x in (1, 2, 3, 6, 7, 8))
        else:
            raise InvalidArgument(f"class={key!r} must be thresholds, intervals or unions2")
        out.append(ClassSpec(key, C, C.masks.index(target), vc_dimension(C)))
    return tuple(out)


@dataclass(frozen=True)
class Population:
    """A known finite distribution P on domain × {0, 1}: x uniform, y = c*(x) flipped w.p. η.

    ``eta(x)`` = P[y = 1 | x] (η where c*(x) = 0, 1 − η where c*(x) = 1).  Every loss is an
    exact rational: L_P(h) = Σ_x D(x)·(h(x)(1 − η(x)) + (1 − h(x))η(x)) (002 §2's L_P).
    """

    concepts: ConceptClass
    target: Concept
    noise: Fraction

    def eta(self, x: Hashable) -> Fraction:
        """P[y = 1 | x], exact."""
        return 1 - self.noise if self.target(x) == 1 else self.noise

    def loss(self, h: Concept) -> Fraction:
        """L_P(h) = η + (1 − 2η)·|h Δ c*|/|X|, exact (002 §2's L_P).

        Fast path, equal to :meth:`reference_loss` (tested): at a point where h agrees with
        c* the loss is η, elsewhere 1 − η, so only the number of disagreements counts, a
        popcount of the two masks.  A concept on another domain takes the reference sum.
        """
        if isinstance(h, Concept) and h.domain == self.target.domain:
            size = len(self.target.domain)
            return self.noise + (1 - 2 * self.noise) * Fraction(
                (h.mask ^ self.target.mask).bit_count(), size)
        return self.reference_loss(h)

    def reference_loss(self, h: Concept) -> Fraction:
        """L_P(h) by the definition: Σ_x D(x)·(h(x)(1 − η(x)) + (1 − h(x))η(x)) (002 §2)."""
        points = self.concepts.domain.points
        total = sum((self.eta(x) if h(x) == 0 else 1 - self.eta(x) for x in points), Fraction(0))
        return total / len(points)

    def opt(self) -> Fraction:
        """OPT = min over C of L_P(c), exact (002 §2, agnostic benchmark)."""
        return min(self.loss(c) for c in self.concepts)

    def predictor_loss(self, p_one: Callable[[Hashable], Prob]) -> Bounds:
        """L_P(A, S) = Σ_x D(x)·[η(x) + p_S(x)(1 − 2η(x))], enclosed, given p_S(x) = P[A(S,x)=1]."""
        lo = hi = Fraction(0)
        for x in self.concepts.domain.points:
            box = prob_as_interval(p_one(x))
            slope = 1 - 2 * self.eta(x)
            lo += self.eta(x) + (box.lo * slope if slope >= 0 else box.hi * slope)
            hi += self.eta(x) + (box.hi * slope if slope >= 0 else box.lo * slope)
        size = len(self.concepts.domain)
        return lo / size, hi / size

    def draw(self, n: int, rng: np.random.Generator) -> Dataset:
        """n i.i.d. examples from P, by integer draws only (x uniform, flip iff u < η·den)."""
        return self.draw_sample(n, rng).dataset(self.concepts)

    def draw_sample(self, n: int, rng: np.random.Generator) -> DrawnSample:
        """The same n examples as :meth:`draw` (same integer draws), kept as two int arrays."""
        xs = rng.integers(0, len(self.concepts.domain), n)
        flips = rng.integers(0, self.noise.denominator, n) < self.noise.numerator
        labels = np.asarray(self.target.labels, dtype=np.int64)[xs] ^ flips.astype(np.int64)
        return DrawnSample(xs.astype(np.int64), labels)


@dataclass(frozen=True, eq=False)
class DrawnSample:
    """A dataset S as two integer arrays: the domain position of every x_i and its label y_i.

    The counts the sweep's evaluators need are read off these arrays exactly (numpy integer
    counts); :meth:`dataset` is the same S as the tuple of examples the predictors take.
    """

    positions: np.ndarray
    labels: np.ndarray

    def __len__(self) -> int:
        """n, the number of examples."""
        return int(self.positions.shape[0])

    def dataset(self, C: ConceptClass) -> Dataset:
        """S as the tuple ((x_1, y_1), …, (x_n, y_n)) of points of C's domain."""
        points = C.domain.points
        return tuple(zip([points[i] for i in self.positions.tolist()], self.labels.tolist(),
                         strict=True))


# ------------------------------------------------------------------ exact conditional laws


def _fix_first(program: Callable[..., Program[Any]], value: Any, *args: Any) -> Program[Any]:
    gen = program(*args)
    choice = next(gen)
    if not isinstance(choice, Subset) or not isinstance(value, tuple) or len(value) != choice.m:
        gen.close()
        raise UnsupportedProgram(f"the first choice of {program.__qualname__} is {choice!r}, "
                                 "not a subset choice of the size drawn")
    try:
        choice = gen.send(value)
        while True:
            sent = yield choice
            choice = gen.send(sent)
    except StopIteration as stop:
        return stop.value


def conditional_law(program: Callable[..., Program[Any]], args: tuple[Any, ...],
                    first: tuple[int, ...], *, precision: int = DEFAULT_PRECISION
                    ) -> Distribution[Any]:
    """The exact law of ``program(*args)`` given that its first choice, a subset, equals ``first``.

    The same program, replayed by the exact interpreter with its first choice fixed: exact
    rationals or interval enclosures (002 Algorithms 1 and 3: conditional on the subset I the
    exponential mechanism's law over the candidates is explicit).  Averaged over ``first``
    drawn from the subset choice it is the program's law.
    """
    return distribution(_fix_first, program, first, *args, precision=precision)


def hypothesis_loss(pop: Population, law: Distribution[Concept]) -> Bounds:
    """E[L_P(h)] = Σ_h P(h)·L_P(h) over a law of hypotheses, enclosed (exact when the law is)."""
    lo = hi = Fraction(0)
    for h, p in law.items():
        box, value = prob_as_interval(p), pop.loss(h)
        lo += box.lo * value
        hi += box.hi * value
    return lo, min(hi, Fraction(1))


def flip_loss(bounds: Bounds, q: Fraction) -> Bounds:
    """The loss after flipping the prediction w.p. q: L' = q + (1 − 2q)·L (002 Corollary 1).

    Proof: p' = q + (1 − 2q)p, so L' = Σ D[η + q(1 − 2η)] + (1 − 2q)·Σ D·p(1 − 2η)
    = q + (1 − 2q)·(Σ D·η + Σ D·p(1 − 2η)) = q + (1 − 2q)·L.  Monotone in L for q <= 1/2, so
    an enclosure of L maps to one of L'.
    """
    return (1 - 2 * q) * bounds[0] + q, (1 - 2 * q) * bounds[1] + q


def _block_hypotheses(C: ConceptClass, data: Dataset, k: int) -> list[Concept]:
    return [erm(C, tuple(data[i] for i in block)) for block in index_blocks(len(data), k)]


def majority_loss(pop: Population, data: Dataset, k: int, epsilon: Real,
                  precision: int = DEFAULT_PRECISION) -> Bounds:
    """L_P of 002 baseline B4 on ``data``: ERM per block, exponential mechanism on the votes.

    p_S(x) is the exact share of label 1 in the exponential mechanism over the vote counts
    (k − v, v) (B4's own :func:`~privref.reference.learners.prediction_baselines.majority_choice`),
    v = #{blocks whose ERM says 1 at x}; the block ERMs are computed once for all x.
    """
    hs = _block_hypotheses(pop.concepts, data, k)

    def p_one(x: Hashable) -> Prob:
        votes = sum(h(x) for h in hs)
        shares: dict[int, Prob] = dict(majority_choice(votes, k, epsilon).branches(precision))
        return shares.get(1, Fraction(0))

    return pop.predictor_loss(p_one)


def generic_loss(pop: Population, data: Dataset, epsilon: Real) -> Bounds:
    """L_P of 002 baseline B5: the exact law of h from its exponential mechanism over C."""
    law = distribution(pattern_exponential_mechanism, pop.concepts,
                       tuple(pop.concepts.domain), data, epsilon)
    return hypothesis_loss(pop, law)


# ------------------------------------------------------------------ parameter choices


def _ceil_log_ratio(scale: Fraction, alpha: Fraction, epsilon: Fraction) -> int:
    """⌈scale·ln(2/α)/ε⌉ (a parameter choice; floats never decide a privacy claim)."""
    return max(1, math.ceil(float(scale) * math.log(2 / float(alpha)) / float(epsilon)))


def stable_parameters(alpha: Fraction, epsilon: Fraction, n: int) -> dict[str, Any]:
    """Algorithm 1 at stability γ = αε/2 (002 Corollary 1's γ; Theorem 1's proof: ε_EM = γ/4, m <= γn/2).

    m = max(1, ⌊γn/2⌋): below n = 2/γ the proved stability exceeds γ (reported per run).
    """
    gamma = alpha * epsilon / 2
    return {"m": max(1, math.floor(gamma * n / 2)), "epsilon_em": gamma / 4, "gamma": gamma}


def private_parameters(alpha: Fraction, epsilon: Fraction, n: int) -> dict[str, Any]:
    """Algorithm 2 (002 Corollary 1): Algorithm 1 with γ = αε/2, then flip w.p. q = α/2."""
    return {**stable_parameters(alpha, epsilon, n), "flip": alpha / 2}


def subsample_parameters(alpha: Fraction, epsilon: Fraction, n: int) -> dict[str, Any]:
    """002 baseline B1 at the same stability γ = αε/2 as Algorithm 1: m = max(1, ⌊γn⌋)."""
    gamma = alpha * epsilon / 2
    return {"m": max(1, math.floor(gamma * n)), "gamma": gamma}


def flipped_average_parameters(alpha: Fraction, epsilon: Fraction, n: int) -> dict[str, Any]:
    """002 baseline B3: k = ⌈2/(αε)⌉ blocks (capped at n), flip q = α/2 (inventory-style B3).

    Then ε' = ln(1 + (1 − α)/(k·α/2)) <= ln(1 + ε) <= ε.
    """
    return {"k": min(n, math.ceil(2 / (alpha * epsilon))), "flip": alpha / 2}


def private_majority_parameters(alpha: Fraction, epsilon: Fraction, n: int) -> dict[str, Any]:
    """002 baseline B4 ([DF18] Theorem 4.1 as cited by 002 Lemma 6): k = ⌈4·ln(2/α)/ε⌉ blocks."""
    return {"k": min(n, _ceil_log_ratio(Fraction(4), alpha, epsilon)), "epsilon_b4": epsilon}


def relabel_parameters(alpha: Fraction, epsilon: Fraction, n: int, *,
                       proved: bool) -> dict[str, Any]:
    """002 Algorithm 3 (Theorem 2), our explicit constants: ε₁ = ε₂ = ε/4, q = α/2,
    k = ⌈4·ln(2/α)/ε₂⌉ private-majority blocks, and the subset size m:

    * ``proved=True``: m = max(1, ⌊αεn/8⌋), small enough that the (ε₀, δ) + flip bound
      (:func:`relabel_pure_epsilon`) is at most ε, so the run is proved ε-private;
    * ``proved=False`` ("paper-rate constants"): m = max(1, ⌊εn/8⌋), the Θ(εn) of 002 §4.2,
      whose privacy needs the paper's Lemma 10 matching argument; the bounds proved in this
      repository do NOT reach ε there (the proved ε is reported per run).
    """
    eps2 = epsilon / 4
    m = math.floor((alpha * epsilon if proved else epsilon) * n / 8)
    return {"m": max(1, m), "epsilon1": epsilon / 4, "epsilon2": eps2,
            "k": min(n, _ceil_log_ratio(Fraction(4), alpha, eps2)), "flip": alpha / 2}


def relabel_pure_epsilon(n: int, m: int, epsilon1: Real, k: int, epsilon2: Real,
                         flip: Fraction) -> Real:
    """A proved pure ε of Algorithm 3 via its core's (ε₀, δ): ε = ln(e^{ε₀} + (1 − 2q)·δ/q).

    Source: 002 Theorem 2's proof (the flip turns (ε₀, δ) into pure privacy): the conversion
    is :func:`~privref.reference.learners.relabel_analysis.flip_approximate_privacy` applied to
    (ε₀, δ) = :func:`~privref.reference.learners.relabel_prediction.relabel_core_privacy`.
    (The predictor's attached claim uses the stability route instead; both are valid.)
    """
    core = relabel_core_privacy(n, m, epsilon1, k, epsilon2)
    return flip_approximate_privacy(core, flip).epsilon


# ------------------------------------------------------------------ predictors and losses


@dataclass(frozen=True)
class PredictorSpec:
    """A predictor of the experiment: its key, label, parameters function and predicted rate."""

    key: str
    label: str
    rate: str
    realizable: bool


PREDICTORS: tuple[PredictorSpec, ...] = (
    PredictorSpec("alg1", "Alg 1 stable (Thm 1), γ = αε/2", "d/(α²ε)", False),
    PredictorSpec("alg2", "Alg 2 private (Cor 1)", "d/(α²ε)", False),
    PredictorSpec("alg3", "Alg 3 private (Thm 2), proved constants", "d/(α²ε)", False),
    PredictorSpec("alg3_rate", "Alg 3 (Thm 2), paper-rate constants (privacy not proved)",
                  "d²/(αε) + d/α²", False),
    PredictorSpec("b1", "B1 subsample ERM, γ = αε/2", "d/(α³ε)", False),
    PredictorSpec("b3", "B3 subsample-and-aggregate + flip", "d/(α³ε)", False),
    PredictorSpec("b4", "B4 private majority (realizable)", "d/(αε)", True),
    PredictorSpec("b5", "B5 generic learner", "log|C|·(1/(αε) + 1/α²)", False),
)
"""The predictors measured, with the rate each one's analysis predicts (002 §1, §3, §4)."""

PREDICTOR_KEYS: tuple[str, ...] = tuple(p.key for p in PREDICTORS)
"""The keys of :data:`PREDICTORS`, in order (a key's index seeds its subset draws)."""

RATE_EXPONENT = {"alg1": 2, "alg2": 2, "alg3": 2, "alg3_rate": 1, "b1": 3, "b3": 3, "b4": 1,
                 "b5": 2}
"""Exponent a of 1/α in the predicted rate (the α^-a term that dominates as α → 0)."""


def predictor_spec(key: str) -> PredictorSpec:
    """The :class:`PredictorSpec` of predictor ``key`` (one of :data:`PREDICTOR_KEYS`)."""
    return PREDICTORS[PREDICTOR_KEYS.index(key)]


def parameters(key: str, alpha: Fraction, epsilon: Fraction, n: int) -> dict[str, Any]:
    """The documented parameter choice of predictor ``key`` at (α, ε, n)."""
    match key:
        case "alg1":
            return stable_parameters(alpha, epsilon, n)
        case "alg2":
            return private_parameters(alpha, epsilon, n)
        case "alg3":
            return relabel_parameters(alpha, epsilon, n, proved=True)
        case "alg3_rate":
            return relabel_parameters(alpha, epsilon, n, proved=False)
        case "b1":
            return subsample_parameters(alpha, epsilon, n)
        case "b3":
            return flipped_average_parameters(alpha, epsilon, n)
        case "b4":
            return private_majority_parameters(alpha, epsilon, n)
        case "b5":
            return {"epsilon_b5": epsilon}
    raise InvalidArgument(f"predictor={key!r} is unknown")


def build_predictor(key: str, C: ConceptClass, n: int, par: dict[str, Any]) -> Predictor:
    """The :class:`~privref.reference.prediction.Predictor` that ``key`` with ``par`` runs."""
    match key:
        case "alg1":
            return stable_predictor(C, n, par["m"], par["epsilon_em"])
        case "alg2":
            return private_predictor(C, n, par["m"], par["epsilon_em"], par["flip"])
        case "alg3" | "alg3_rate":
            return relabel_predictor(C, n, par["m"], par["epsilon1"], par["k"],
                                     par["epsilon2"], par["flip"])
        case "b1":
            return subsample_predictor(C, n, par["m"])
        case "b3":
            return flipped_average_predictor(C, n, par["k"], par["flip"])
        case "b4":
            return private_majority_predictor(C, n, par["k"], par["epsilon_b4"])
        case "b5":
            return generic_predictor(C, n, par["epsilon_b5"])
    raise InvalidArgument(f"predictor={key!r} is unknown")


def proved_epsilon(key: str, predictor: Predictor, n: int, par: dict[str, Any]) -> Real:
    """The smallest proved per-query ε of the run (γ for the stable ones, as a 'stability')."""
    claim = predictor.claim
    value = claim.gamma if isinstance(claim, UniformStability) else claim.epsilon
    if key in ("alg3", "alg3_rate"):
        other = relabel_pure_epsilon(n, par["m"], parse_epsilon(par["epsilon1"]), par["k"],
                                     parse_epsilon(par["epsilon2"]), par["flip"])
        if compare(other, value)[0] is Order.LESS:
            return other
    return value


def predictor_loss(key: str, pop: Population, data: Dataset, par: dict[str, Any],
                   rng: np.random.Generator) -> tuple[Bounds, bool]:
    """One exact-given-the-draws value of L_P(A, S) for predictor ``key``; (bounds, used_rng).

    alg1/alg2: the subset I is drawn by the program's own subset choice, then the exact law of
    h given I (:func:`conditional_law` of ``stable_hypothesis``); alg2 adds the flip identity
    L' = q + (1 − 2q)L (002 P0.4).  b1: I drawn, ERM on S_I exact.  alg3: I and h drawn by
    ``relabel_hypothesis``'s sampler, then B4 on S_h exactly, then the flip identity.  b3, b4,
    b5: exact, no draw (used_rng False).
    """
    n = len(data)
    C = pop.concepts
    match key:
        case "alg1" | "alg2":
            index = sample(random_index_subset, n, par["m"], rng=rng)
            law = conditional_law(stable_hypothesis,
                                  (C, data, par["m"], parse_epsilon(par["epsilon_em"])), index)
            bounds = hypothesis_loss(pop, law)
            return (flip_loss(bounds, par["flip"]) if key == "alg2" else bounds), True
        case "b1":
            index = sample(random_index_subset, n, par["m"], rng=rng)
            value = pop.loss(erm(C, tuple(data[i] for i in index)))
            return (value, value), True
        case "alg3" | "alg3_rate":
            h = sample(relabel_hypothesis, C, data, par["m"], parse_epsilon(par["epsilon1"]),
                       rng=rng)
            core = majority_loss(pop, relabel(data, h), par["k"], parse_epsilon(par["epsilon2"]))
            return flip_loss(core, par["flip"]), True
        case "b3":
            hs = _block_hypotheses(C, data, par["k"])
            mean = sum((pop.loss(h) for h in hs), Fraction(0)) / len(hs)
            return flip_loss((mean, mean), par["flip"]), False
        case "b4":
            return majority_loss(pop, data, par["k"], parse_epsilon(par["epsilon_b4"])), False
        case "b5":
            return generic_loss(pop, data, parse_epsilon(par["epsilon_b5"])), False
    raise InvalidArgument(f"predictor={key!r} is unknown")


# ------------------------------------------------------------------ the experiment


def n_grid(max_n: int, limit: int = MAX_N) -> tuple[int, ...]:
    """The geometric grid round(16·2^{j/2}) (factor √2) below ``max_n``, then ``max_n`` itself;
    ``max_n`` in [16, ``limit``]."""
    check_int(max_n, "max_n", minimum=16, maximum=limit)
    grid = [16]
    j = 1
    while round(16 * 2 ** (j / 2)) < max_n:
        grid.append(round(16 * 2 ** (j / 2)))
        j += 1
    return (*grid, max_n)


@dataclass(frozen=True)
class ExperimentConfig:
    """Every knob of one run (all recorded in the JSON)."""

    classes: tuple[str, ...]
    predictors: tuple[str, ...]
    alphas: tuple[Fraction, ...]
    epsilon: Fraction
    noise: Fraction
    max_n: int
    datasets: int
    draws: int
    seed: int


def _std_error(values: Sequence[float]) -> float:
    if len(values) < 2:
        return float("nan")
    return float(np.std(values, ddof=1) / math.sqrt(len(values)))


def run_experiment(config: ExperimentConfig, progress: Callable[[str], None] = lambda s: None
                   ) -> dict[str, Any]:
    """Measure mean excess error on the n-grid and n*(α) for every (class, predictor, α).

    For each class and each n (ascending), ``datasets`` datasets S are drawn (seeded by
    (seed, class, n, s)); every (predictor, α) not yet at excess <= α is evaluated on them,
    ``draws`` subset draws per S when the predictor has a Monte Carlo part.  n* is the first
    grid n whose mean excess is <= α AND whose proved privacy (or stability) meets the target
    (ε, or γ = αε/2 for the stable learners), decided exactly.
    """
    rows: list[dict[str, Any]] = []
    n_star: list[dict[str, Any]] = []
    grid = n_grid(config.max_n)
    classes = experiment_classes(config.classes)
    for ci, spec in enumerate(classes):
        C = spec.concepts
        pops = {False: Population(C, C[spec.target], config.noise),
                True: Population(C, C[spec.target], Fraction(0))}
        opts = {r: pops[r].opt() for r in pops}
        active = {(p, a) for p in config.predictors for a in range(len(config.alphas))}
        found: dict[tuple[str, int], int | None] = {key: None for key in active}
        for n in grid:
            if not active:
                break
            samples: dict[tuple[str, int], list[tuple[float, float]]] = {k: [] for k in active}
            widths: dict[tuple[str, int], float] = {k: 0.0 for k in active}
            for s in range(config.datasets):
                datasets = {r: pops[r].draw(n, np.random.default_rng([config.seed, ci, n, s,
                                                                       int(r)]))
                            for r in pops}
                for key, ai in sorted(active):
                    pspec = predictor_spec(key)
                    alpha = config.alphas[ai]
                    par = parameters(key, alpha, config.epsilon, n)
                    draws = []
                    for r in range(config.draws):
                        rng = np.random.default_rng([config.seed, ci, n, s, ai,
                                                     PREDICTOR_KEYS.index(key), r])
                        (lo, hi), used = predictor_loss(key, pops[pspec.realizable],
                                                        datasets[pspec.realizable], par, rng)
                        excess_mid = float((lo + hi) / 2 - opts[pspec.realizable])
                        widths[(key, ai)] = max(widths[(key, ai)], float(hi - lo))
                        draws.append(excess_mid)
                        if not used:
                            break
                    samples[(key, ai)].append((float(np.mean(draws)),
                                               _std_error(draws) if len(draws) > 1 else 0.0))
            for key, ai in sorted(active):
                pspec = predictor_spec(key)
                alpha = config.alphas[ai]
                par = parameters(key, alpha, config.epsilon, n)
                predictor = build_predictor(key, C, n, par)
                proved = proved_epsilon(key, predictor, n, par)
                target = alpha * config.epsilon / 2 if key in ("alg1", "b1") else config.epsilon
                order = compare(proved, rational(target))[0]
                meets = order in (Order.LESS, Order.EQUAL)
                per_s = [m for m, _ in samples[(key, ai)]]
                within = [e for _, e in samples[(key, ai)]]
                mean = float(np.mean(per_s))
                row = {"class": spec.key, "vc": spec.vc, "predictor": key, "alpha": str(alpha),
                       "n": n, "mean_excess": mean,
                       "se_over_datasets": _std_error(per_s),
                       "mean_se_over_draws": float(np.mean(within)),
                       "max_enclosure_width": widths[(key, ai)],
                       "parameters": {k: str(v) for k, v in par.items()},
                       "proved_privacy_upper": float(proved.enclose().hi),
                       "proved_target": str(target),
                       "proved_meets_target": meets,
                       "realizable": pspec.realizable}
                rows.append(row)
                progress(f"{spec.key} {key} alpha={alpha} n={n}: excess {mean:.4f} "
                         f"(proved {'ok' if meets else 'NO'})")
                if mean <= alpha and (meets or key == "alg3_rate"):
                    found[(key, ai)] = n
                    active.discard((key, ai))
        for (key, ai), value in sorted(found.items()):
            n_star.append({"class": spec.key, "vc": spec.vc, "predictor": key,
                           "alpha": str(config.alphas[ai]), "n_star": value})
    return {"rows": rows, "n_star": n_star, "fits": _fits(n_star, config),
            "crossovers": _crossovers(n_star, config)}




def _fits(n_star: list[dict[str, Any]], config: ExperimentConfig) -> list[dict[str, Any]]:
    """Least-squares slope of log n* against log(1/α) per (class, predictor), vs the predicted."""
    out = []
    for cls in config.classes:
        for key in config.predictors:
            pts = [(math.log(1 / float(Fraction(r["alpha"]))), math.log(r["n_star"]))
                   for r in n_star if r["class"] == cls and r["predictor"] == key
                   and r["n_star"] is not None]
            slope = None
            if len(pts) >= 2 and len({x for x, _ in pts}) >= 2:
                slope = float(np.polyfit([x for x, _ in pts], [y for _, y in pts], 1)[0])
            out.append({"class": cls, "predictor": key, "points": len(pts),
                        "fitted_slope": slope, "predicted_slope": RATE_EXPONENT[key],
                        "predicted_rate": predictor_spec(key).rate})
    return out


def _crossovers(n_star: list[dict[str, Any]], config: ExperimentConfig) -> list[dict[str, Any]]:
    """Per (class, α): which of Thm 2 (paper-rate), Cor 1 and B3 needs the fewest examples."""
    out = []
    for cls in config.classes:
        for alpha in config.alphas:
            table = {r["predictor"]: r["n_star"] for r in n_star
                     if r["class"] == cls and r["alpha"] == str(alpha)}
            contenders = {k: v for k, v in table.items() if k in ("alg2", "alg3_rate", "b3")}
            if not contenders:
                continue
            reached = {k: v for k, v in contenders.items() if v is not None}
            low = min(reached.values()) if reached else None
            out.append({"class": cls, "alpha": str(alpha), "n_star": contenders,
                        "best": sorted(k for k, v in reached.items() if v == low)})
    return out


# ------------------------------------------------------------------ agnostic populations (issue 33)
#
# Populations on which the agnostic 1/α² term binds: P[y = 1 | x] = 1/2 ± 4α, so the Massart
# margin 1 − 2η = 8α shrinks with α and ERM needs Θ(1/α²) examples for excess α (the
# classical agnostic lower bound, 002 §1).  Then 002's rates separate from the baselines':
# Theorem 1 d/(αγ) + d/α² against B1's d/(α²γ), Corollary 1 d/(α²ε) against B3's d/(α³ε).

MAX_N_AGNOSTIC = 1 << 20
"""Largest n of the agnostic sweep (``--max-n`` with ``--population agnostic``): a dataset is
two int64 arrays (16 MiB at 2^20) and every evaluation is O(n) numpy plus O(m) Python."""

AGNOSTIC_MARGIN = 4
"""P[y = 1 | x] = 1/2 ± AGNOSTIC_MARGIN·α (noise η = 1/2 − 4α): the all-zero threshold's excess
is 4α and a uniformly random threshold's about 2α, so reaching α takes learning."""

MAX_AGNOSTIC_ALPHA = Fraction(1, 16)
"""Largest α of an agnostic population (then η = 1/2 − 4α >= 1/4)."""

MIN_AGNOSTIC_ALPHA = Fraction(1, 1024)
"""Smallest α of an agnostic population (bounds the domain and the n it needs)."""


def agnostic_points(alpha: Fraction) -> int:
    """The domain size of the agnostic population: the power of two nearest above 1/(4α),
    clamped to [16, 128] (the domain grows as α shrinks, so one threshold step costs
    8α/K <= α/2 of excess: the continuum regime of the thresholds problem)."""
    k = 16
    while k < 128 and k * 4 * alpha < 1:
        k *= 2
    return k


def _check_agnostic_alpha(alpha: object) -> Fraction:
    if (not isinstance(alpha, Fraction) or not MIN_AGNOSTIC_ALPHA <= alpha <= MAX_AGNOSTIC_ALPHA
            or alpha.denominator > 10 ** 6):
        raise InvalidArgument(f"alpha={alpha!r} must be a Fraction in "
                              f"[{MIN_AGNOSTIC_ALPHA}, {MAX_AGNOSTIC_ALPHA}] with a "
                              "denominator of at most 10^6")
    return alpha


def agnostic_population(alpha: Fraction, points: int | None = None) -> Population:
    """The agnostic population of the sweep: thresholds on K points (K = :func:`agnostic_points`
    (α) unless ``points`` is given, 2 <= K <= 1024, even), x uniform, target c_{K/2} (x < K/2),
    P[y = 1 | x] = 1/2 + 4α on the target and 1/2 − 4α off it.

    Exact facts (tested): OPT = η = 1/2 − 4α (attained by the target) and the excess of the
    threshold c_j is 8α·|j − K/2|/K.  This is the inventory's "biased-coin labels (½ ± α)"
    illustration of the agnostic Ω(d/α²) (002 §1, [SSBD14]) on a domain that grows with 1/α.
    """
    a = _check_agnostic_alpha(alpha)
    size = agnostic_points(a) if points is None else check_int(points, "points", minimum=2,
                                                                   maximum=1024)
    if size % 2:
        raise InvalidArgument(f"points={size} must be even (target x < points/2)")
    C = thresholds_on(size)
    return Population(C, C[size // 2], Fraction(1, 2) - AGNOSTIC_MARGIN * a)


_MEMBERSHIP: dict[int, tuple[ConceptClass, np.ndarray, dict[int, int]]] = {}


def _membership(C: ConceptClass) -> tuple[np.ndarray, dict[int, int]]:
    """(|C| × |X| 0/1 matrix of C's concepts, mask -> index in C), cached per class object."""
    hit = _MEMBERSHIP.get(id(C))
    if hit is None or hit[0] is not C:
        size = len(C.domain)
        matrix = np.array([[(mask >> i) & 1 for i in range(size)] for mask in C.masks],
                          dtype=np.int64)
        hit = (C, matrix, {mask: i for i, mask in enumerate(C.masks)})
        _MEMBERSHIP[id(C)] = hit
    return hit[1], hit[2]


def count_agreements(C: ConceptClass, positions: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """agreements_S(c) for every c ∈ C, in C's order, from S's positions and labels (exact ints).

    agreements = #{i : y_i = 0} + Σ_{x : c(x) = 1} (ones(x) − zeros(x)); equal to
    :func:`privref.reference.exponential.agreements` on the tuple dataset (tested), the score
    of 002 Algorithm 1's exponential mechanism and of ERM.
    """
    size = len(C.domain)
    ones = np.bincount(positions[labels == 1], minlength=size)
    zeros = np.bincount(positions[labels == 0], minlength=size)
    matrix, _ = _membership(C)
    return np.asarray(int(zeros.sum()) + matrix @ (ones - zeros), dtype=np.int64)


def count_erm(C: ConceptClass, positions: np.ndarray, labels: np.ndarray) -> Concept:
    """The ERM of :func:`~privref.reference.learners.prediction_baselines.erm` (first concept of C
    with the most agreements) computed from counts: numpy's argmax returns the first maximum."""
    return C[int(np.argmax(count_agreements(C, positions, labels)))]


def _gibbs_loss(pop: Population, drawn: DrawnSample, index: tuple[int, ...], epsilon: Real,
                precision: int = DEFAULT_PRECISION) -> Bounds:
    """E[L_P(h) | I] for Algorithm 1's exponential mechanism given the subset I (enclosed).

    The candidates are the predictor's own :func:`~privref.reference.vc.canonical_representatives`
    of C on the x's of S_I; their scores are the agreements on ALL of S (:func:`count_agreements`);
    the law is the predictor's own exponential weights (paper's ε/2), whose enclosures the
    exact interpreter would compute (:meth:`Categorical.branches`).
    """
    C = pop.concepts
    points = C.domain.points
    chosen = tuple(points[i] for i in drawn.positions[list(index)].tolist())
    hypotheses = canonical_representatives(C, chosen)
    scores = count_agreements(C, drawn.positions, drawn.labels)
    _, position = _membership(C)
    own = [int(scores[position[h.mask]]) for h in hypotheses]
    law = categorical_choice(exponential_weights(own, epsilon=epsilon, sensitivity=1))
    lo = hi = Fraction(0)
    for i, p in law.branches(precision):
        box, value = prob_as_interval(p), pop.loss(hypotheses[i])
        lo += box.lo * value
        hi += box.hi * value
    return lo, min(hi, Fraction(1))


def sample_loss(key: str, pop: Population, drawn: DrawnSample, par: dict[str, Any],
                rng: np.random.Generator) -> tuple[Bounds, bool]:
    """:func:`predictor_loss` for alg1, alg2, b1, b3 from a :class:`DrawnSample` (fast path).

    Same draws as :func:`predictor_loss` on ``drawn.dataset(C)`` with the same ``rng`` (the
    subset I is drawn by the predictor's own ``random_index_subset``) and the same exact value
    (tested); the counts replace the passes over tuples of examples, so n reaches 2^20.
    """
    n = len(drawn)
    C = pop.concepts
    match key:
        case "alg1" | "alg2":
            index = sample_subset(n, par["m"], rng)
            bounds = _gibbs_loss(pop, drawn, index, parse_epsilon(par["epsilon_em"]))
            return (flip_loss(bounds, par["flip"]) if key == "alg2" else bounds), True
        case "b1":
            index = sample_subset(n, par["m"], rng)
            picked = np.asarray(index, dtype=np.int64)
            h = count_erm(C, drawn.positions[picked], drawn.labels[picked])
            value = pop.loss(h)
            return (value, value), True
        case "b3":
            blocks = index_blocks(n, par["k"])
            total = Fraction(0)
            for block in blocks:
                lo_i, hi_i = block[0], block[-1] + 1
                total += pop.loss(count_erm(C, drawn.positions[lo_i:hi_i],
                                            drawn.labels[lo_i:hi_i]))
            mean = total / len(blocks)
            return flip_loss((mean, mean), par["flip"]), False
    raise InvalidArgument(f"predictor={key!r} must be alg1, alg2, b1 or b3 in the agnostic sweep")


def sample_subset(n: int, m: int, rng: np.random.Generator) -> tuple[int, ...]:
    """The subset I of B1 and Algorithm 1: the predictor's own ``random_index_subset`` sampler."""
    return sample(random_index_subset, n, m, rng=rng)


AGNOSTIC_GAMMAS: tuple[Fraction, ...] = tuple(Fraction(1, 2 ** j) for j in range(1, 6))
"""The stability levels γ of the sweep (Algorithm 1 against B1): 1/2, 1/4, …, 1/32."""

AGNOSTIC_EPSILONS: tuple[Fraction, ...] = (Fraction(4), Fraction(2), Fraction(1))
"""The privacy levels ε of the sweep (Algorithm 2 against B3): 4, 2, 1."""

SWEEP_PAIRS = {"stable": ("alg1", "b1"), "private": ("alg2", "b3")}
"""The two comparisons: (paper's predictor, baseline) at equal proved stability γ, resp. ε."""

QUANTIZATION_SD = math.log(2) / 2 / math.sqrt(12)
"""The sd of log n* from the √2 grid alone (n* uniform in log within one step): the floor of
every fitted point's log-scatter."""


@dataclass(frozen=True)
class SweepConfig:
    """Every knob of one agnostic sweep (all recorded in the JSON)."""

    alpha: Fraction
    gammas: tuple[Fraction, ...]
    epsilons: tuple[Fraction, ...]
    max_n: int
    datasets: int
    draws: int
    seed: int
    points: int | None = None


def sweep_grid(max_n: int) -> tuple[int, ...]:
    """:func:`n_grid` of ``max_n`` for the agnostic sweep (``max_n`` <= :data:`MAX_N_AGNOSTIC`)."""
    return n_grid(max_n, MAX_N_AGNOSTIC)


def sweep_parameters(key: str, alpha: Fraction, level: Fraction, n: int) -> dict[str, Any]:
    """The parameters of ``key`` at sweep level ``level`` (γ for alg1/b1, ε for alg2/b3).

    alg1/b1 at stability γ are :func:`stable_parameters` / :func:`subsample_parameters` with
    ε = 2γ/α (so their γ = αε/2 is exactly the level); alg2/b3 at ε are
    :func:`private_parameters` / :func:`flipped_average_parameters` (Corollary 1's γ = αε/2,
    flip α/2; B3's k = ⌈2/(αε)⌉ blocks, flip α/2).
    """
    if key in ("alg1", "b1"):
        return parameters(key, alpha, 2 * level / alpha, n)
    if key in ("alg2", "b3"):
        return parameters(key, alpha, level, n)
    raise InvalidArgument(f"predictor={key!r} must be alg1, b1, alg2 or b3 in the agnostic sweep")


def rate_terms(key: str, alpha: Fraction, level: Fraction) -> tuple[Fraction, ...]:
    """The terms of the predicted rate at (α, level), one fitted constant each (d = 1):

    alg1 (002 Theorem 1): (1/(αγ), 1/α²); b1 ([SSSSS10]): (1/(α²γ),);
    alg2 (002 Corollary 1, γ = αε/2): (1/(α²ε), 1/α²); b3 ([DF18, BTT18]): (1/(α³ε),).
    """
    match key:
        case "alg1":
            return (1 / (alpha * level), 1 / alpha ** 2)
        case "b1":
            return (1 / (alpha ** 2 * level),)
        case "alg2":
            return (1 / (alpha ** 2 * level), 1 / alpha ** 2)
        case "b3":
            return (1 / (alpha ** 3 * level),)
    raise InvalidArgument(f"predictor={key!r} must be alg1, b1, alg2 or b3")


def stable_crossover_gamma(alpha: Fraction, a: Fraction, b: Fraction, c: Fraction
                           ) -> Fraction | None:
    """γ* where a/(αγ) + b/α² = c/(α²γ), i.e. aα + bγ = c: γ* = (c − aα)/b, exact.

    Algorithm 1 (n* = a/(αγ) + b/α²) needs fewer examples than B1 (n* = c/(α²γ)) exactly when
    γ < γ*.  None when no positive γ* exists (b = 0, or c <= aα: B1 never loses).
    """
    if b <= 0 or c <= a * alpha:
        return None
    return (c - a * alpha) / b


def stable_crossover_alpha(gamma: Fraction, a: Fraction, b: Fraction, c: Fraction
                           ) -> Fraction | None:
    """α* where the same rates cross at fixed γ: aα + bγ = c, α* = (c − bγ)/a (Algorithm 1
    wins for α < α*), exact; None when a = 0 or c <= bγ."""
    if a <= 0 or c <= b * gamma:
        return None
    return (c - b * gamma) / a


def private_crossover_epsilon(alpha: Fraction, a: Fraction, b: Fraction, c: Fraction
                              ) -> Fraction | None:
    """ε* where a/(α²ε) + b/α² = c/(α³ε), i.e. aα + bαε = c: ε* = (c − aα)/(bα), exact.

    Algorithm 2 (n* = a/(α²ε) + b/α²) needs fewer examples than B3 (n* = c/(α³ε)) exactly
    when ε < ε*.  None when b = 0 or c <= aα.
    """
    if b <= 0 or c <= a * alpha:
        return None
    return (c - a * alpha) / (b * alpha)


def private_crossover_alpha(epsilon: Fraction, a: Fraction, b: Fraction, c: Fraction
                            ) -> Fraction | None:
    """α* where the same rates cross at fixed ε: α(a + bε) = c, α* = c/(a + bε) (Algorithm 2
    wins for α < α*), exact; None when a + bε = 0."""
    if a + b * epsilon <= 0:
        return None
    return c / (a + b * epsilon)


def fit_constants(points: Sequence[tuple[tuple[Fraction, ...], int]]) -> dict[str, Any]:
    """Fit n* = Σ_j c_j·term_j over measured (terms, n*) points; constants and standard errors.

    One term: log c = mean of log(n*/term), se from the scatter of those logs.  Two terms
    (and >= 3 points): least squares on the relative residuals (n*_fit − n*)/n*, covariance
    s²(XᵀX)^{-1}; a negative constant is dropped and the other refitted alone.  Every
    point's relative sd is floored at :data:`QUANTIZATION_SD` (the √2 grid).  Floats: these
    are reported measurements, never verdicts.
    """
    k = len(points)
    if k == 0:
        return {"constants": None, "se": None, "points": 0}
    width = len(points[0][0])
    if width == 2 and k >= 3:
        x = np.array([[float(t) / n for t in terms] for terms, n in points])
        coef, *_ = np.linalg.lstsq(x, np.ones(k), rcond=None)
        if all(v > 0 for v in coef):
            resid = x @ coef - 1
            s2 = max(float(resid @ resid) / (k - 2) if k > 2 else 0.0, QUANTIZATION_SD ** 2)
            cov = s2 * np.linalg.inv(x.T @ x)
            return {"constants": [float(v) for v in coef],
                    "se": [float(math.sqrt(max(cov[j][j], 0.0))) for j in range(2)],
                    "points": k, "model": "two terms, least squares on relative residuals"}
        keep = int(np.argmax(coef))
        single = fit_constants([((terms[keep],), n) for terms, n in points])
        constants = [0.0, 0.0]
        se = [0.0, 0.0]
        constants[keep] = single["constants"][0]
        se[keep] = single["se"][0]
        return {"constants": constants, "se": se, "points": k,
                "model": f"term {keep + 1} only (the two-term fit gave a negative constant)"}
    logs = [math.log(n / float(terms[0])) for terms, n in points]
    sd = float(np.std(logs, ddof=1)) if k >= 2 else 0.0
    c = math.exp(float(np.mean(logs)))
    se_log = math.sqrt(max(sd ** 2, QUANTIZATION_SD ** 2) / k)
    constants = [c] + [0.0] * (width - 1)
    return {"constants": constants, "se": [c * se_log] + [0.0] * (width - 1),
            "se_log": se_log, "points": k,
            "model": "one term, geometric mean" if width == 1 else
                     "first term only (fewer than 3 points)"}


def _ratio(num: Fraction, den: Fraction) -> float:
    """num/den as a float, ±inf when den = 0 (a crossing at infinity, or none)."""
    if den == 0:
        return math.inf if num > 0 else -math.inf
    return float(num / den)


def _raw_crossing(pair: str, over: str, fixed: Fraction, a: Fraction, b: Fraction,
                  c: Fraction) -> float:
    """The crossing of :func:`sweep_crossovers`' formulas without clipping (may be <= 0 or ±inf).

    ``over`` = "level": at fixed α (stable: (c − aα)/b, private: (c − aα)/(bα)); ``over`` =
    "alpha": at a fixed level (stable: (c − bγ)/a, private: c/(a + bε)).
    """
    if over == "level":
        return _ratio(c - a * fixed, b if pair == "stable" else b * fixed)
    if pair == "stable":
        return _ratio(c - b * fixed, a)
    return _ratio(c, a + b * fixed)


def _interval(values: list[float]) -> list[float | None]:
    """[low, high] over corner evaluations: low clipped at 0 (0: possibly no crossing), an
    infinite high is None (unbounded); [None, None] when every corner is at infinity (the
    paper's predictor needs fewer examples at every level)."""
    low, high = max(min(values), 0.0), max(values)
    if math.isinf(low):
        return [None, None]
    return [low, None if math.isinf(high) else max(high, 0.0)]


def _corners(fit: dict[str, Any], spread: float = 2.0) -> list[list[Fraction]]:
    """Every combination of constant ± spread·se (clipped at 0), as exact Fractions."""
    out: list[list[Fraction]] = [[]]
    for value, se in zip(fit["constants"], fit["se"], strict=True):
        options = {max(value - spread * se, 0.0), value + spread * se}
        out = [[*row, Fraction(v)] for row in out for v in sorted(options)]
    return out


def sweep_crossovers(pair: str, alpha: Fraction, levels: Sequence[Fraction],
                     n_star: dict[tuple[str, Fraction], int | None],
                     fits: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Measured and extrapolated crossovers of one pair (``stable`` or ``private``).

    Measured: per level, which predictor's n* is smaller (a predictor that reached α beats
    one that did not).  Extrapolated from the fitted constants (a, b) of the paper's
    predictor and c of the baseline: the level below which the paper's predictor wins at this
    α, the n there, and the α below which it wins at each level (assuming the constants do not
    depend on α, as for a population family scaled with α); intervals from the corners
    constant ± 2·se.  When the fit keeps one term (b = 0) the ratio of the two rates does not
    depend on the level: ``paper_fewer_at_every_level`` is then c > aα, and there is no level*.
    """
    paper, base = SWEEP_PAIRS[pair]
    measured = []
    for level in levels:
        p, q = n_star.get((paper, level)), n_star.get((base, level))
        if p is None and q is None:
            winner = "neither reached"
        elif q is None or (p is not None and p < q):
            winner = paper
        elif p is None or q < p:
            winner = base
        else:
            winner = "tie"
        measured.append({"level": str(level), "n_star": {paper: p, base: q}, "fewer": winner})
    out: dict[str, Any] = {"pair": pair, "paper": paper, "baseline": base,
                           "measured": measured}
    fa, fb = fits.get(paper), fits.get(base)
    if not fa or not fb or fa["constants"] is None or fb["constants"] is None:
        out["extrapolated"] = None
        return out
    a, b = (Fraction(v) for v in fa["constants"])
    c = Fraction(fb["constants"][0])
    level_fn = stable_crossover_gamma if pair == "stable" else private_crossover_epsilon
    alpha_fn = stable_crossover_alpha if pair == "stable" else private_crossover_alpha
    corners = [(x[0], x[1], y[0]) for x in _corners(fa) for y in _corners(fb)]
    star = level_fn(alpha, a, b, c)
    power = 2 if pair == "stable" else 3

    def rate(level: Fraction) -> Fraction:
        return c / (alpha ** power * level)

    out["extrapolated"] = {
        "constants": {"a": float(a), "b": float(b), "c": float(c)},
        "paper_fewer_at_every_level": b == 0 and c > a * alpha,
        "level_star": None if star is None else float(star),
        "level_star_interval": _interval([_raw_crossing(pair, "level", alpha, *k)
                                          for k in corners]),
        "n_at_level_star": None if star is None else float(rate(star)),
        "alpha_star": {str(level): (None if (v := alpha_fn(level, a, b, c)) is None
                                    else float(v)) for level in levels},
        "alpha_star_interval": {str(level): _interval([_raw_crossing(pair, "alpha", level, *k)
                                                       for k in corners])
                                for level in levels},
    }
    return out


def run_sweep(config: SweepConfig, progress: Callable[[str], None] = lambda s: None
              ) -> dict[str, Any]:
    """The agnostic sweep at fixed α: n* of alg1 and b1 at each γ, of alg2 and b3 at each ε.

    For each n of :func:`sweep_grid` (ascending), ``datasets`` datasets are drawn from
    :func:`agnostic_population` (α) (seeded by (seed, 33, n, s)); every (predictor, level) not
    yet at mean excess <= α is evaluated on them by :func:`sample_loss` (``draws`` subset draws
    for alg1, alg2, b1; b3 is exact given S).  n* is the first grid n whose mean excess is <= α
    AND whose proved stability (alg1, b1: <= γ) or privacy (alg2, b3: <= ε) meets the level,
    decided exactly by :func:`privref.reference.reals.compare`, and so is the next grid n (two
    consecutive grid points, so that a lucky draw at a tiny n is not an n*; at ``max_n`` one
    point suffices).
    """
    alpha = _check_agnostic_alpha(config.alpha)
    pop = agnostic_population(alpha, config.points)
    C = pop.concepts
    opt = pop.opt()
    units = ([(k, g) for k in SWEEP_PAIRS["stable"] for g in config.gammas]
             + [(k, e) for k in SWEEP_PAIRS["private"] for e in config.epsilons])
    active = set(units)
    found: dict[tuple[str, Fraction], int | None] = {u: None for u in units}
    pending: dict[tuple[str, Fraction], int | None] = {u: None for u in units}
    rows: list[dict[str, Any]] = []
    for n in sweep_grid(config.max_n):
        if not active:
            break
        samples: dict[tuple[str, Fraction], list[tuple[float, float]]] = {u: [] for u in active}
        widths = {u: 0.0 for u in active}
        for s in range(config.datasets):
            drawn = pop.draw_sample(n, np.random.default_rng([config.seed, 33, n, s]))
            for unit in sorted(active, key=units.index):
                key, level = unit
                par = sweep_parameters(key, alpha, level, n)
                draws = []
                for r in range(config.draws):
                    rng = np.random.default_rng([config.seed, 33, n, s, units.index(unit), r])
                    (lo, hi), used = sample_loss(key, pop, drawn, par, rng)
                    widths[unit] = max(widths[unit], float(hi - lo))
                    draws.append(float((lo + hi) / 2 - opt))
                    if not used:
                        break
                samples[unit].append((float(np.mean(draws)),
                                      _std_error(draws) if len(draws) > 1 else 0.0))
        for unit in sorted(active, key=units.index):
            key, level = unit
            par = sweep_parameters(key, alpha, level, n)
            predictor = build_predictor(key, C, n, par)
            proved = proved_epsilon(key, predictor, n, par)
            meets = compare(proved, rational(level))[0] in (Order.LESS, Order.EQUAL)
            per_s = [m for m, _ in samples[unit]]
            mean = float(np.mean(per_s))
            rows.append({"predictor": key, "level": str(level),
                         "level_kind": "gamma" if key in ("alg1", "b1") else "epsilon",
                         "n": n, "mean_excess": mean, "se_over_datasets": _std_error(per_s),
                         "mean_se_over_draws": float(np.mean([e for _, e in samples[unit]])),
                         "max_enclosure_width": widths[unit],
                         "parameters": {k: str(v) for k, v in par.items()},
                         "proved_upper": float(proved.enclose().hi),
                         "proved_target": str(level), "proved_meets_target": meets})
            progress(f"{key} level={level} n={n}: excess {mean:.5f} (alpha {float(alpha):.5f}, "
                     f"proved {'ok' if meets else 'NO'})")
            if mean <= alpha and meets:
                if pending[unit] is None:
                    pending[unit] = n
                if pending[unit] != n or n == config.max_n:
                    found[unit] = pending[unit]
                    active.discard(unit)
            else:
                pending[unit] = None
    n_star = [{"predictor": k, "level": str(v), "n_star": found[(k, v)]} for k, v in units]
    fits: dict[str, dict[str, Any]] = {}
    for key in ("alg1", "b1", "alg2", "b3"):
        levels = config.gammas if key in ("alg1", "b1") else config.epsilons
        pts = [(rate_terms(key, alpha, lv), found[(key, lv)]) for lv in levels
               if found[(key, lv)] is not None]
        fit = fit_constants([(t, n) for t, n in pts if n is not None])
        fits[key] = {**fit, "rate_terms": predictor_rate_terms(key)}
    crossovers = {"stable": sweep_crossovers("stable", alpha, config.gammas, found, fits),
                  "private": sweep_crossovers("private", alpha, config.epsilons, found, fits)}
    return {"rows": rows, "n_star": n_star, "fits": fits, "crossovers": crossovers,
            "population": {"class": C.name, "points": len(C.domain), "target": pop.target.name,
                           "noise": str(pop.noise), "opt": str(opt),
                           "p_y1_on_target": str(1 - pop.noise),
                           "p_y1_off_target": str(pop.noise)}}


def predictor_rate_terms(key: str) -> list[str]:
    """The names of the terms of :func:`rate_terms` (for the JSON)."""
    return {"alg1": ["1/(alpha*gamma)", "1/alpha^2"], "b1": ["1/(alpha^2*gamma)"],
            "alg2": ["1/(alpha^2*epsilon)", "1/alpha^2"], "b3": ["1/(alpha^3*epsilon)"]}[key]
