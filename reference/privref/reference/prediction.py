"""Prediction algorithms A(S, x) and their per-query guarantees (paper 002, Dagan and Feldman 2020).

A prediction algorithm (002 §2) takes a labeled dataset S and a query point x and outputs a
random label in {0, 1}; it is fully described by p_S(x) = P[A(S, x) = 1].  It is written ONCE,
as a probabilistic program ``program(S, x)`` (:mod:`privref.reference.program`);
:class:`Predictor` derives from that one definition both the exact per-query law and the
samplers.  Every query runs with FRESH randomness: the guarantees of paper 002 are about the
law of a single answer, never about several answers that share randomness.

Two per-query notions (002 §2), for substitution neighbors S, S'':

* (ε, δ)-private prediction [DF18]: P[A(S,x)=y] ≤ e^ε·P[A(S'',x)=y] + δ for every x, y;
* γ-uniform stability [BE02]: |P[A(S,x)=y] − P[A(S'',x)=y]| ≤ γ for every x, y.

The conversions between them (002 §1–§2; the paper's constant e^ε − 1 is loose by about 2×)
are exact functions here:
:func:`stability_from_privacy` (tight), :func:`paper_stability_bound` (the paper's looser
e^ε − 1) and :func:`privacy_from_stability` ((0, δ)-private prediction is δ-stability).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeAlias, assert_never

import numpy as np
import numpy.typing as npt

from . import _sampling
from .citations import Citation, Source, Uncited
from .data import Dataset, as_dataset
from .errors import InvalidArgument, TooLargeToEnumerate, UnsupportedProgram
from .mechanism import Mechanism
from .neighbors import SUBSTITUTION, NeighborRelation
from .privacy import PrivacyClaim, parse_epsilon
from .program import MAX_PATHS, Distribution, Program, distribution, sample
from .reals import DEFAULT_PRECISION, Order, Prob, Real, compare, exp, rational
from .validate import ExactInput, check_delta, check_int, to_fraction

__all__ = [
    "BATCH_LAW_MAX_PATHS",
    "PredictionClaim",
    "Predictor",
    "PrivatePrediction",
    "UniformStability",
    "paper_stability_bound",
    "privacy_from_stability",
    "stability_from_privacy",
]


@dataclass(frozen=True, slots=True)
class PrivatePrediction:
    """(ε, δ)-differentially private prediction (002 §2, after [DF18]).

    For all substitution neighbors S, S'', every query x and label y:
    P[A(S,x)=y] ≤ e^ε·P[A(S'',x)=y] + δ, over A's randomness for ONE query (002 §2).
    ``epsilon`` is an exact non-negative :class:`~privref.reference.reals.Real` (so ε = ln 3
    keeps e^ε = 3 exactly), ``delta`` an exact rational in [0, 1); build from user input
    with :meth:`of`.  Both are validated at construction (InvalidArgument naming the field).
    """

    epsilon: Real
    delta: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        if not isinstance(self.epsilon, Real):
            raise InvalidArgument(f"epsilon={self.epsilon} must be a Real: use "
                                  "PrivatePrediction.of(epsilon, delta)")
        if not isinstance(self.delta, Fraction):
            raise InvalidArgument(f"delta={self.delta} must be a Fraction: use "
                                  "PrivatePrediction.of(epsilon, delta)")
        parse_epsilon(self.epsilon)
        check_delta(self.delta)

    @staticmethod
    def of(epsilon: Real | ExactInput, delta: ExactInput = 0) -> PrivatePrediction:
        """Build from exact input: epsilon as in :func:`~privref.reference.privacy.parse_epsilon`
        (``'ln(3)'``, ``'1/2'``, a Real), delta an exact number in [0, 1)."""
        return PrivatePrediction(parse_epsilon(epsilon), check_delta(delta))

    @property
    def privacy(self) -> PrivacyClaim:
        """The same (ε, δ) as a :class:`~privref.reference.privacy.PrivacyClaim` on one answer."""
        return PrivacyClaim(self.epsilon, self.delta)

    def __str__(self) -> str:
        return f"({self.epsilon}, {self.delta})-private prediction"


@dataclass(frozen=True, slots=True)
class UniformStability:
    """γ-uniform stability of predictions (002 §2, after [BE02]).

    For all substitution neighbors S, S'', every query x and label y:
    |P[A(S,x)=y] − P[A(S'',x)=y]| ≤ γ, for ONE query (002 §2).  ``gamma`` is an exact
    non-negative Real (tanh(ε/2) is irrational in general); γ ≥ 1 is allowed and vacuous.
    """

    gamma: Real

    def __post_init__(self) -> None:
        if not isinstance(self.gamma, Real):
            raise InvalidArgument(f"gamma={self.gamma} must be a Real: use "
                                  "UniformStability.of(gamma)")
        order, _ = compare(self.gamma, 0)
        if order is Order.LESS:
            raise InvalidArgument(f"gamma={self.gamma} must be >= 0")

    @staticmethod
    def of(gamma: Real | ExactInput) -> UniformStability:
        """Build from a Real or an exact number (int, Fraction, decimal or fraction string)."""
        return UniformStability(gamma if isinstance(gamma, Real)
                                else rational(to_fraction(gamma, "gamma")))

    def __str__(self) -> str:
        return f"{self.gamma}-uniform stability"


PredictionClaim: TypeAlias = PrivatePrediction | UniformStability
"""The closed union of the two per-query notions of paper 002 (D3 and D4)."""


def stability_from_privacy(claim: PrivatePrediction) -> UniformStability:
    """(ε, δ)-private prediction implies γ-uniform stability with γ = (e^ε − 1 + 2δ)/(e^ε + 1).

    Source: 002 §2 states the looser e^ε − 1 (see :func:`paper_stability_bound`; it is loose
    by about 2×); this tight form is our derivation, checked exactly.  With t = e^ε, the
    largest p − q subject to p ≤ t·q + δ and 1 − q ≤ t·(1 − p) + δ is attained where both
    bind, at q = (1 − δ)/(t + 1), p = (t + δ)/(t + 1).  For δ = 0 it is tanh(ε/2), which
    randomized response on the label attains exactly.  Exact: a rational when e^ε is.
    Edge cases in order: validate; ε = 0 gives γ = δ; then the closed form.
    """
    if not isinstance(claim, PrivatePrediction):
        raise InvalidArgument(f"claim={claim!r} must be a PrivatePrediction")
    if claim.epsilon.exact == 0:
        return UniformStability(rational(claim.delta))
    t = exp(claim.epsilon)
    return UniformStability((t - 1 + 2 * claim.delta) / (t + 1))


def paper_stability_bound(claim: PrivatePrediction) -> UniformStability:
    """The paper's looser conversion: ε-private ⇒ (e^ε − 1)-stable, extended to e^ε − 1 + δ.

    Source: 002 §2 ("any ε-private algorithm is (e^ε − 1)-stable"; loose by about 2×).
    Valid, since (t − 1 + δ)(t + 1) − (t − 1 + 2δ) = (t − 1)(t + δ)
    ≥ 0 for t = e^ε ≥ 1: it is never below :func:`stability_from_privacy`, and strictly above
    it whenever ε > 0.
    """
    if not isinstance(claim, PrivatePrediction):
        raise InvalidArgument(f"claim={claim!r} must be a PrivatePrediction")
    return UniformStability(exp(claim.epsilon) - 1 + claim.delta)


def privacy_from_stability(claim: UniformStability) -> PrivatePrediction:
    """δ-uniform stability is exactly (0, δ)-private prediction, and conversely.

    Source: 002 §1 and §2 ("(0, δ)-private prediction is exactly the same
    as δ-stability" [BE02]).  The two definitions coincide letter for letter at ε = 0, so the
    converse is ``stability_from_privacy(PrivatePrediction.of(0, δ))``.  Requires a rational
    γ < 1 (δ is an exact rational below 1), else InvalidArgument.
    """
    if not isinstance(claim, UniformStability):
        raise InvalidArgument(f"claim={claim!r} must be a UniformStability")
    gamma = claim.gamma.exact
    if gamma is None:
        raise InvalidArgument(f"gamma={claim.gamma} must be rational to be a delta")
    if gamma >= 1:
        raise InvalidArgument(f"gamma={gamma} must be < 1 to be a delta (it is vacuous)")
    return PrivatePrediction(rational(0), gamma)


PredictionProgram: TypeAlias = Callable[[Dataset, Any], Program[int]]

def _dataset(data: object) -> Dataset:
    """``as_dataset(data)``, with InvalidArgument naming ``data`` instead of a TypeError."""
    try:
        return as_dataset(data)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidArgument(f"data={data!r} must be an iterable of hashable examples "
                              "(x, y)") from None


def _queries(queries: object) -> list[Hashable]:
    """``list(queries)``, with InvalidArgument naming ``queries`` instead of a TypeError."""
    if not isinstance(queries, Iterable):
        raise InvalidArgument(f"queries={queries!r} must be an iterable of query points")
    try:
        return list(queries)
    except TypeError:
        raise InvalidArgument(f"queries={queries!r} must be an iterable of query points"
                              ) from None


def _budgets(precision: object, max_paths: object | None = None) -> None:
    check_int(precision, "precision", minimum=16)
    if max_paths is not None:
        check_int(max_paths, "max_paths", minimum=1)


BATCH_LAW_MAX_PATHS = MAX_PATHS
"""Default path budget of :meth:`Predictor.predict_batch`'s law path; above it, per-query runs."""


@dataclass(frozen=True, slots=True)
class Predictor:
    """A prediction algorithm A(S, x) written once as a probabilistic program (002 D1).

    ``program(data, x)`` is the single definition, a generator function yielding its random
    choices and returning a label 0 or 1.  :meth:`law` (the exact per-query law, so
    p_S(x) = ``law(S, x).prob(1)``), :meth:`predict`, :meth:`predict_many` and
    :meth:`predict_batch` all derive from it, each query with fresh randomness (002 §2: the
    guarantees are per single query).
    ``claim`` is the per-query guarantee that ``source`` states for neighbors under
    ``relation`` (paper 002 uses substitution of one example, same n); ``domain``, when given, is
    the set of allowed query points (others raise InvalidArgument).  Every field is
    type-checked at construction (InvalidArgument naming the field).
    """

    name: str
    program: PredictionProgram
    claim: PredictionClaim
    source: Source
    relation: NeighborRelation = SUBSTITUTION
    domain: tuple[Hashable, ...] | None = None
    description: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InvalidArgument(f"name={self.name!r} must be a non-empty str")
        if not callable(self.program):
            raise InvalidArgument(f"program={self.program!r} of predictor {self.name!r} must "
                                  "be a callable returning a probabilistic program")
        if not isinstance(self.claim, PrivatePrediction | UniformStability):
            raise InvalidArgument(f"claim={self.claim!r} of predictor {self.name!r} must be a "
                                  "PrivatePrediction or UniformStability")
        if not isinstance(self.source, Citation | Uncited):
            raise InvalidArgument(f"source={self.source!r} of predictor {self.name!r} must be "
                                  "a Citation or Uncited")
        if not isinstance(self.relation, NeighborRelation):
            raise InvalidArgument(f"relation={self.relation!r} of predictor {self.name!r} "
                                  "must be a NeighborRelation")
        if self.domain is not None and (not isinstance(self.domain, tuple) or not self.domain):
            raise InvalidArgument(f"domain={self.domain!r} of predictor {self.name!r} must be "
                                  "None or a non-empty tuple of query points")
        if not isinstance(self.description, str):
            raise InvalidArgument(f"description={self.description!r} must be a str")

    def check_query(self, x: Hashable) -> Hashable:
        """Return ``x`` if it is a hashable point of ``domain`` (any hashable when None)."""
        try:
            hash(x)
        except TypeError:
            raise InvalidArgument(f"x={x!r} must be hashable") from None
        if self.domain is not None and x not in self.domain:
            raise InvalidArgument(f"x={x!r} must be a point of the domain of predictor "
                                  f"{self.name!r} ({len(self.domain)} points)")
        return x

    def at(self, x: Hashable) -> Mechanism[int]:
        """The mechanism S ↦ A(S, x) at one query point, to audit "as any other target".

        Its program is the predictor's own ``program`` with ``x`` fixed (no second
        definition): ``at(x).distribution(S)`` is ``law(S, x)`` and ``at(x).sample(S, rng)``
        is one run of the program on fresh randomness, the label checked to be the int 0 or 1
        as in :meth:`law` (UnsupportedProgram otherwise).  Name ``f"{name} at x={x!r}"``;
        source and relation are the predictor's.  Raises InvalidArgument when ``x`` is
        unhashable or outside ``domain``.

        The claim is the per-query guarantee read as (ε, δ)-DP of that map (002 §2; the
        guarantees are about ONE answer, for a fixed x, over substitution neighbors S, S''):

        * (ε, δ)-private prediction at x is, letter for letter, (ε, δ)-DP of S ↦ A(S, x)
          over the outcomes {0, 1} (every event of a two-outcome law is ∅, {0}, {1} or
          {0, 1}, and ∅, {0, 1} hold trivially): the claim is ``claim.privacy``;
        * γ-uniform stability at x is exactly (0, γ)-DP of S ↦ A(S, x)
          (:func:`privacy_from_stability`; 002 §1–§2 after [BE02]).  Proof: at ε = 0 the DP
          condition on event E is P(E) − Q(E) ≤ γ for both orders of every neighboring pair,
          i.e. |P(E) − Q(E)| ≤ γ; for E = {y} this is the stability condition at label y, and
          E = ∅, {0, 1} give 0.  Equivalently the hockey-stick divergence at e^0 is
          max(P(0) − Q(0), P(1) − Q(1)) ≤ γ both ways.  γ must therefore be a rational
          < 1 (an exact δ), else InvalidArgument.
        """
        x = self.check_query(x)
        claim: PrivacyClaim
        match self.claim:
            case PrivatePrediction():
                claim = self.claim.privacy
            case UniformStability():
                claim = privacy_from_stability(self.claim).privacy
            case _:
                assert_never(self.claim)
        program, check_label = self.program, self._check_label

        def labelled(run: Program[int]) -> Program[int]:
            label = yield from run
            return check_label(label)

        def at_x(data: Dataset) -> Program[int]:
            run = program(data, x)
            # a non-generator is handed on untouched, for the interpreter to refuse by name
            return labelled(run) if isinstance(run, Generator) else run

        return Mechanism(f"{self.name} at x={x!r}", at_x, claim, self.source, self.relation,
                         description=self.description)

    def law(self, data: Iterable[Hashable], x: Hashable, *, precision: int = DEFAULT_PRECISION,
            max_paths: int = MAX_PATHS) -> Distribution[int]:
        """The exact law of the single answer A(S, x) over {0, 1} (exact or enclosed).

        Raises UnsupportedProgram (naming the predictor) when the program is not a
        probabilistic program or can return anything but the ints 0 and 1.
        """
        _budgets(precision, max_paths)
        data, x = _dataset(data), self.check_query(x)
        try:
            law = distribution(self.program, data, x, precision=precision, max_paths=max_paths)
        except UnsupportedProgram as exc:
            raise UnsupportedProgram(f"predictor {self.name!r}: {exc}") from exc
        if not law.is_finite:
            raise UnsupportedProgram(f"predictor {self.name!r} returned unbounded integer noise")
        for outcome in law.support():
            self._check_label(outcome)
        return law

    def probability_one(self, data: Iterable[Hashable], x: Hashable, *,
                        precision: int = DEFAULT_PRECISION) -> Prob:
        """p_S(x) = P[A(S, x) = 1], exact (Fraction) or enclosed (Interval)."""
        return self.law(data, x, precision=precision).prob(1)

    def predict(self, data: Iterable[Hashable], x: Hashable, rng: np.random.Generator) -> int:
        """One exact draw of A(S, x): the program run once, on fresh randomness from ``rng``."""
        data, x = _dataset(data), self.check_query(x)
        try:
            label = sample(self.program, data, x, rng=rng)
        except UnsupportedProgram as exc:
            raise UnsupportedProgram(f"predictor {self.name!r}: {exc}") from exc
        return self._check_label(label)

    def predict_many(self, data: Iterable[Hashable], queries: Iterable[Hashable],
                     rng: np.random.Generator) -> tuple[int, ...]:
        """A(S, x_1), ..., A(S, x_k): the program run once per query, each on fresh randomness.

        The answers are independent given S (002 §2: each guarantee is about a single query).
        """
        data = _dataset(data)
        return tuple(self.predict(data, x, rng) for x in _queries(queries))

    def predict_batch(self, data: Iterable[Hashable], queries: Iterable[Hashable],
                      rng: np.random.Generator, *, precision: int = DEFAULT_PRECISION,
                      law_max_paths: int = BATCH_LAW_MAX_PATHS) -> npt.NDArray[np.uint8]:
        """Vectorized :meth:`predict_many`: the same joint law, drawn array-wise.

        Why it is the same law: with fresh randomness per query, the k answers are
        independent and the j-th is Bernoulli(p_S(x_j)), so their joint law is the product
        of the per-query laws.  Two paths, both exact in law:

        * law path (small inputs): p_S(x) is computed exactly ONCE per distinct query point
          (:meth:`law`, from the one program, with at most ``law_max_paths`` execution paths)
          and every repeat of x is an independent exact Bernoulli(p_S(x)) from integer
          randomness (:func:`privref.reference._sampling.bernoulli_array`; one draw at a time
          above its denominator limit).  When p_S(x) is irrational (an enclosure, which
          cannot be refined), each of those queries runs the program itself.
        * program path (large inputs, e.g. n = 10^5 where the C(n, m) subsets cannot be
          enumerated): as soon as one exact law needs more than ``law_max_paths`` paths
          (TooLargeToEnumerate), that query and every later one runs the program once on
          fresh randomness (:func:`~privref.reference.program.sample`), the dataset being
          converted once for the whole batch so that the program's fast blocks (cached count
          tables, Floyd subsets) are shared.  ``law_max_paths=0`` forces this path.

        Only the random stream differs from :meth:`predict_many`, not the law.
        """
        if not isinstance(rng, np.random.Generator):
            raise InvalidArgument(f"rng={rng!r} must be a numpy.random.Generator "
                                  "(e.g. numpy.random.default_rng(0))")
        if isinstance(law_max_paths, bool) or not isinstance(law_max_paths, int) \
                or law_max_paths < 0:
            raise InvalidArgument(f"law_max_paths={law_max_paths!r} must be an int >= 0")
        _budgets(precision)
        data = _dataset(data)
        points = [self.check_query(x) for x in _queries(queries)]
        out = np.zeros(len(points), dtype=np.uint8)
        where: dict[Hashable, list[int]] = {}
        for j, x in enumerate(points):
            where.setdefault(x, []).append(j)
        by_program = law_max_paths == 0
        for x, slots in where.items():
            index = np.asarray(slots, dtype=np.intp)
            if not by_program:
                try:
                    p = self.law(data, x, precision=precision,
                                 max_paths=law_max_paths).prob(1)
                except TooLargeToEnumerate:
                    by_program = True
            if by_program or not isinstance(p, Fraction):
                out[index] = [self._run(data, x, rng) for _ in slots]
            elif p.denominator <= _sampling.ARRAY_MAX_DENOMINATOR:
                out[index] = _sampling.bernoulli_array(rng, p, len(slots))
            else:
                out[index] = [_sampling.bernoulli(rng, p) for _ in slots]
        return out

    def _run(self, data: Dataset, x: Hashable, rng: np.random.Generator) -> int:
        """One run of the program on an already converted dataset and checked query."""
        try:
            label = sample(self.program, data, x, rng=rng)
        except UnsupportedProgram as exc:
            raise UnsupportedProgram(f"predictor {self.name!r}: {exc}") from exc
        return self._check_label(label)

    def _check_label(self, label: object) -> int:
        if isinstance(label, bool) or not isinstance(label, int) or label not in (0, 1):
            raise UnsupportedProgram(f"predictor {self.name!r} returned {label!r}; a prediction "
                                     "must be the int 0 or 1")
        return label
