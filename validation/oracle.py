"""Ground truth for validating the black-box estimator against exact distributions.

* :func:`exact_epsilon`: the pair's exact epsilon at delta, from the exact
  auditor (:func:`privref.audits.exact.audit_pair`), maximized over both orders
  (the estimator looks at both directions).
* :func:`oracle_bound`: the bound the *same* estimator formula
  ln((p_lo - delta)/q_hi) gives to an oracle that knows the optimal event F*
  and direction, using all N samples per side (no selection split) and the
  whole alpha (alpha/2 per one-sided bound, no union over events), at the
  typical counts round(N·P(F*)), round(N·Q(F*)).  F* attains the exact
  epsilon at delta: the outcomes with P/Q >= e^epsilon(delta) (at delta = 0,
  the outcomes of maximal ratio), as returned by the exact solver.  The
  oracle bound is a deterministic reference value, not a random bound; the
  estimator's bound is random and may exceed it.
* :func:`law_sampler`: an exact vectorized sampler of a finite exact law
  (uniform integers over the common denominator), for fast experiments.
* :func:`coverage_experiment`: many seeded runs of the estimator on one pair,
  with exceedance counts and tightness figures (used by tests and benchmarks).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from privref.audits import loss
from privref.audits.blackbox.estimate import (
    PairFinding,
    bound_ratio,
    epsilon_from_ratio,
    estimate_pair_detailed,
)
from privref.audits.blackbox.events import Event
from privref.audits.exact import audit_pair
from privref.audits.stats import check_alpha, tail_exact
from privref.reference.discrete_noise import DiscreteGaussian, DiscreteLaplace, TwoSidedGeometric
from privref.reference.errors import InvalidArgument, UnsupportedProgram
from privref.reference.finite_law import FiniteLaw
from privref.reference.mechanism import Mechanism
from privref.reference.privacy import PrivacyClaim, parse_epsilon
from privref.reference.program import Distribution
from privref.reference.reals import (
    DEFAULT_PRECISION,
    Interval,
    Order,
    Prob,
    Real,
    compare,
    exp,
    log,
    prob_add,
    prob_as_interval,
    prob_mul,
    rational,
)
from privref.reference.validate import ExactInput, check_delta, check_int

__all__ = [
    "CoverageResult",
    "ExactEpsilon",
    "OracleBound",
    "coverage_experiment",
    "event_mass",
    "exact_epsilon",
    "law_sampler",
    "optimal_event",
    "oracle_bound",
    "sum_in_event",
]


# ------------------------------------------------------------ exact epsilon


@dataclass(frozen=True, slots=True)
class ExactEpsilon:
    """e^epsilon of a pair at delta, enclosed in [t_lo, t_hi] (t_hi None: unbounded or infinite)."""

    t_lo: Fraction
    t_hi: Fraction | None
    infinite: bool

    @property
    def exact(self) -> Real | None:
        """ln t as an exact Real when t is known exactly, else None."""
        if self.t_hi is not None and self.t_lo == self.t_hi:
            return log(rational(self.t_lo))
        return None

    def value(self) -> float:
        """A float for display and ratios (inf when unbounded); never used for decisions."""
        if self.t_hi is None:
            return math.inf
        return float(log(rational((self.t_lo + self.t_hi) / 2)))

    def exceeded_by(self, bound: float) -> bool:
        """True when ``bound`` is proved larger than the exact epsilon (e^bound > t_hi)."""
        if self.t_hi is None or bound <= 0:
            return False
        return compare(exp(rational(Fraction(bound))), rational(self.t_hi))[0] is Order.GREATER


def exact_epsilon(mechanism: Mechanism[Any], a: Iterable[Hashable], b: Iterable[Hashable],
                  delta: object = 0) -> ExactEpsilon:
    """The pair's exact epsilon at ``delta``, maximized over the orders (a, b) and (b, a)."""
    claim = PrivacyClaim(mechanism.claim.epsilon, check_delta(delta))
    da, db = tuple(a), tuple(b)
    reports = [audit_pair(mechanism, da, db, claim=claim), audit_pair(mechanism, db, da, claim=claim)]
    t_lo = max(r.epsilon.t_lo for r in reports)
    infinite = any(r.epsilon.infinite for r in reports)
    highs = [r.epsilon.t_hi for r in reports]
    t_hi = None if infinite or any(h is None for h in highs) else max(
        h for h in highs if h is not None)
    return ExactEpsilon(t_lo, t_hi, infinite)


# ------------------------------------------------------------------ oracle


def _noise_ge(noise: TwoSidedGeometric | DiscreteLaplace | DiscreteGaussian, k: int) -> Prob:
    """P(Z >= k) for any integer k (the laws are symmetric)."""
    if k >= 0:
        return noise.tail_mass(k, DEFAULT_PRECISION)
    return 1 - noise.tail_mass(1 - k, DEFAULT_PRECISION)  # P(Z >= k) = 1 - P(Z >= 1-k)


def _label_mass(dist: Distribution[Any], label: Any) -> Prob:
    """Probability of one outcome, or of an IntegerTail event, including infinite-support parts."""
    total: Prob = Fraction(0)
    if isinstance(label, loss.IntegerTail):
        for o, p in dist.items():
            if isinstance(o, int) and (o > label.bound if label.above else o < label.bound):
                total = prob_add(total, p)
    else:
        total = dist.prob(label)
    for aff, w in dist.components:
        noise = aff.noise
        if not isinstance(noise, (TwoSidedGeometric, DiscreteLaplace, DiscreteGaussian)):
            raise UnsupportedProgram(f"noise {noise!r} has no closed-form law")
        c = aff.integer_offset  # sign·Z + c has the law of Z + c (symmetric laws)
        if isinstance(label, loss.IntegerTail):
            part = (_noise_ge(noise, label.bound + 1 - c) if label.above
                    else _noise_ge(noise, c + 1 - label.bound))
        elif isinstance(label, int) and not isinstance(label, bool):
            part = noise.pmf(label - c, DEFAULT_PRECISION)
        else:
            continue
        total = prob_add(total, prob_mul(w, part))
    return total


def event_mass(dist: Distribution[Any], event: Iterable[Any]) -> Prob:
    """P(F) for an event given as distinct outcomes and IntegerTail labels (exact or enclosed)."""
    total: Prob = Fraction(0)
    for label in event:
        total = prob_add(total, _label_mass(dist, label))
    return total


def optimal_event(p: Distribution[Any], q: Distribution[Any], delta: Fraction
                  ) -> tuple[tuple[Any, ...], Prob, Prob]:
    """F* = {P/Q >= e^epsilon(delta)} for the ordered pair (P, Q), with P(F*) and Q(F*)."""
    eps = loss.epsilon_at_delta(p, q, delta)
    return eps.event, event_mass(p, eps.event), event_mass(q, eps.event)


@dataclass(frozen=True, slots=True)
class OracleBound:
    """The oracle's bound: the estimator formula on F* at typical counts, all N samples, alpha/2 per side."""

    epsilon_lower_bound: float
    ratio: Fraction
    direction: str
    event: tuple[Any, ...]
    p_event: Prob
    q_event: Prob
    hits_p: int
    hits_q: int
    n: int
    alpha: Fraction


def _typical(n: int, p: Prob) -> int:
    box = prob_as_interval(p)
    return math.floor(n * (box.lo + box.hi) / 2 + Fraction(1, 2))


def oracle_bound(dist_a: Distribution[Any], dist_b: Distribution[Any], *, n: int, alpha: object,
                 delta: object = 0) -> OracleBound:
    """The better of the two directions' oracle bounds (see the module docstring)."""
    check_int(n, "n", minimum=1)
    a = check_alpha(alpha)
    d = check_delta(delta)
    best: OracleBound | None = None
    for direction, p, q in (("a→b", dist_a, dist_b), ("b→a", dist_b, dist_a)):
        event, pf, qf = optimal_event(p, q, d)
        kp, kq = _typical(n, pf), _typical(n, qf)
        ratio = bound_ratio(kp, n, kq, n, delta=d, alpha_side=a / 2)
        found = OracleBound(epsilon_from_ratio(ratio), ratio, direction, event, pf, qf, kp, kq, n, a)
        if best is None or found.ratio > best.ratio:
            best = found
    assert best is not None
    return best


# ----------------------------------------------------------------- sampling


def law_sampler(dist: Distribution[Any]) -> Callable[[np.random.Generator, int], list[Any]]:
    """An exact vectorized sampler of a finite law with rational probabilities.

    :meth:`privref.reference.finite_law.FiniteLaw.draw`: u uniform on [0, D) (D the
    common denominator, numpy's unbiased bounded integers) selects the outcome whose
    cumulative integer weight first exceeds u.  Raises UnsupportedProgram for inexact
    or infinite laws or D > 2^62.
    """
    return FiniteLaw.of(dist).draw


# ---------------------------------------------------------------- coverage


@dataclass(frozen=True, slots=True)
class CoverageResult:
    """Seeded runs of the estimator on one pair, against the exact epsilon and the oracle bound."""

    runs: int
    n: int
    alpha: Fraction
    delta: Fraction
    bounds: tuple[float, ...]
    exceedances: int
    violations: int
    exact: ExactEpsilon
    oracle: OracleBound | None
    event_exceedances: int | None = None
    """Runs whose bound ratio is proved above the reported event's own (P(F) - delta)/Q(F)."""
    bound_failures: int | None = None
    """Runs where p_lower > P(F) or q_upper < Q(F) is proved for the reported event."""

    def p_value(self) -> Fraction:
        """P(Bin(runs, alpha) >= exceedances): small values reject "the bound is valid at level alpha"."""
        return tail_exact(self.runs, self.exceedances, self.alpha)

    def event_p_value(self) -> Fraction | None:
        """The same test for the event-level exceedances (None when not measured)."""
        if self.event_exceedances is None:
            return None
        return tail_exact(self.runs, self.event_exceedances, self.alpha)

    def bound_failure_p_value(self) -> Fraction | None:
        """The same test for failures of the reported event's two bounds (None when not measured)."""
        if self.bound_failures is None:
            return None
        return tail_exact(self.runs, self.bound_failures, self.alpha)

    def median_bound(self) -> float:
        """Median of the bounds over the runs."""
        return float(statistics.median(self.bounds))

    def tightness_vs_exact(self) -> float:
        """Median bound / exact epsilon (nan when the exact epsilon is 0 or infinite)."""
        value = self.exact.value()
        return self.median_bound() / value if 0 < value < math.inf else math.nan

    def tightness_vs_oracle(self) -> float:
        """Median bound / oracle bound (nan without a positive oracle bound)."""
        if self.oracle is None or self.oracle.epsilon_lower_bound <= 0:
            return math.nan
        return self.median_bound() / self.oracle.epsilon_lower_bound


def coverage_experiment(mechanism: Mechanism[Any], a: Sequence[Hashable], b: Sequence[Hashable], *,
                        n: int, seeds: Iterable[int], alpha: int | Fraction | float, delta: ExactInput = 0,
                        epsilon: Real | ExactInput | None = None,
                        sampling: Literal["mechanism", "law"] = "mechanism",
                        sampler: Callable[[Any, np.random.Generator], Any] | None = None,
                        max_events: int = 1,
                        selection_fraction: ExactInput = Fraction(1, 2)) -> CoverageResult:
    """Run :func:`estimate_pair` once per seed on n fresh outcomes per side and compare with the truth.

    Each seed s draws M(a) then M(b) from ``numpy.random.default_rng(s)``:
    ``sampling="mechanism"`` uses ``Mechanism.sample`` (or ``sampler(data,
    rng)`` when given: e.g. a deliberately different implementation),
    ``"law"`` the exact vectorized :func:`law_sampler` of the exact law
    (finite exact laws only).  ``epsilon`` (default: the mechanism's claim)
    decides ``violations``.  The oracle is computed when both laws are
    available (finite or with closed-form noise components).
    """
    check_int(n, "n", minimum=2)
    alpha_q = check_alpha(alpha)
    d = check_delta(delta)
    eps = mechanism.claim.epsilon if epsilon is None else parse_epsilon(epsilon)
    exact = exact_epsilon(mechanism, a, b, d)
    dist_a, dist_b = mechanism.distribution(tuple(a)), mechanism.distribution(tuple(b))
    oracle = oracle_bound(dist_a, dist_b, n=n, alpha=alpha_q, delta=d)
    draw: Callable[[Sequence[Hashable], np.random.Generator], list[Any]]
    if sampling == "law":
        laws = {tuple(a): law_sampler(dist_a), tuple(b): law_sampler(dist_b)}

        def draw(data: Sequence[Hashable], rng: np.random.Generator) -> list[Any]:
            return laws[tuple(data)](rng, n)
    else:
        one = sampler or (lambda data, rng: mechanism.sample(data, rng))

        def draw(data: Sequence[Hashable], rng: np.random.Generator) -> list[Any]:
            return [one(list(data), rng) for _ in range(n)]

    bounds, exceed, violations, event_exceed, failures = [], 0, 0, 0, 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        xa, xb = draw(a, rng), draw(b, rng)
        found = estimate_pair_detailed(xa, xb, epsilon=eps, delta=d, alpha=alpha_q,
                                       max_events=max_events,
                                       selection_fraction=selection_fraction)
        est = found.estimate
        bounds.append(est.epsilon_lower_bound)
        exceed += exact.exceeded_by(est.epsilon_lower_bound)
        violations += est.violation
        exceeded, failed = _event_truth(found, dist_a, dist_b, d)
        event_exceed += exceeded
        failures += failed
    return CoverageResult(len(bounds), n, alpha_q, d, tuple(bounds), exceed, violations, exact,
                          oracle, event_exceed, failures)


def _event_truth(found: PairFinding, dist_a: Distribution[Any], dist_b: Distribution[Any],
                 delta: Fraction) -> tuple[bool, bool]:
    """(ratio proved above the reported event's true (P(F) - delta)/Q(F), one of its bounds proved wrong)."""
    c = found.candidate
    if c is None:
        return False, False
    p, q = (dist_a, dist_b) if c.direction == "a→b" else (dist_b, dist_a)
    pf, qf = (prob_as_interval(sum_in_event(dist, c.event)) for dist in (p, q))
    failed = found.p_lower > pf.hi or found.q_upper < qf.lo
    if found.ratio <= 0:
        return False, failed
    if qf.lo == 0:
        return pf.hi <= delta, failed  # infinite true ratio unless P(F) <= delta
    return found.ratio * qf.lo > pf.hi - delta, failed


def sum_in_event(dist: Distribution[Any], event: Event) -> Prob:
    """P(F) for an :class:`~audits.blackbox.events.Event`: exact for finite exact laws, else an enclosure.

    Infinite-support (additive integer noise) parts are summed over a window
    of integers around each offset, with the mass outside the window (where
    membership is not examined) enclosed by [0, proved tail mass] with tail
    mass <= 2^-64 per side.
    """
    total: Prob = Fraction(0)
    outcomes = [o for o, _ in dist.items()]
    inside = event.mask(outcomes).tolist() if outcomes else []
    for (_, prob), hit in zip(dist.items(), inside, strict=True):
        if hit:
            total = prob_add(total, prob)
    for aff, w in dist.components:
        noise = aff.noise
        if not isinstance(noise, (TwoSidedGeometric, DiscreteLaplace, DiscreteGaussian)):
            raise UnsupportedProgram(f"noise {noise!r} has no closed-form law")
        radius = 16
        while prob_as_interval(noise.tail_mass(radius + 1, DEFAULT_PRECISION)).hi > Fraction(1, 2**64):
            radius *= 2
            if radius > 10**6:
                raise InvalidArgument(f"noise {noise!r} is too wide to sum an event over it")
        window = list(range(aff.integer_offset - radius, aff.integer_offset + radius + 1))
        part: Prob = Fraction(0)
        for o, hit in zip(window, event.mask(window).tolist(), strict=True):
            if hit:
                part = prob_add(part, noise.pmf(o - aff.integer_offset, DEFAULT_PRECISION))
        outside = prob_as_interval(noise.tail_mass(radius + 1, DEFAULT_PRECISION)).hi * 2
        box = prob_as_interval(part)
        total = prob_add(total, prob_mul(w, Interval(box.lo, box.hi + outside)))
    return total
