"""Prediction services as black-box targets: ``fit(dataset, rng)`` plus ``predict(model, query, rng)``.

A private-prediction service (Dagan and Feldman 2020, 002 §2; PATE, 001 §2) is audited as an
ordinary randomized algorithm on training datasets (Chadha, Jagielski, Papernot, Choquette-Choo
and Nasr, *Auditing Private Prediction*, ICML 2024, §3): for fixed queries x_1..x_ℓ the map
S ↦ (A(S, x_1), ..., A(S, x_ℓ)) takes a training dataset and releases labels.  With one query the
outcome is the label, with ℓ > 1 the tuple of labels, so the black-box auditor's sampling, event
selection, Clopper–Pearson bounds and reports (:func:`~privref.audits.blackbox.runner.run_audit`)
apply unchanged, and a bound refutes the service's claim for the whole released sequence.

:class:`PredictionService` declares the label set, the relation on training datasets, whether
``predict`` is deterministic given the model, and optionally a joint ``answer`` (stateful
aggregators such as SVT-PATE, whose answers share noise), a vectorized ``batch`` (only for a
deterministic ``fit``: one fitted model, ``size`` independent answers) and an exact ``law``
(the ground truth of :func:`exact_loss`).  :func:`prediction_target` turns it into a
:class:`~privref.audits.blackbox.target.Target` and checks every call:

* ``fit`` raising is :class:`PredictionFitError` naming the service and the dataset;
* a label outside the declared set is :class:`LabelOutsideSet` naming the label and the set;
* a service declared deterministic (``deterministic=True``: predict is a function of the model
  and the query) that answers one (model, query) differently on a second generator is
  :class:`NondeterministicPrediction`; a ``fit`` declared deterministic (``batch`` given) that
  returns a different model on a second generator likewise.  The probe generator is seeded by
  a constant (:data:`PROBE_SEED`), never taken from ``rng``, so probing does not change the
  audited draws.

All three are :class:`~privref.audits.blackbox.errors.TargetFailure` (exit status 5 at the
command line: the target failed, nothing was concluded).

The PATE aggregators of paper 001 (:func:`gaussian_pate_service`, :func:`svt_pate_service`),
GNMax as commonly implemented (:func:`gnmax_service`, Papernot et al. 2018) and a misconfigured
Gaussian PATE (:func:`misconfigured_pate_service`: noise calibrated for one query, the claim
made for the whole sequence) are services on 001's data model (a dataset is the tuple of the K
teachers' label vectors over the ℓ queries, a neighbor substitutes one teacher's vector;
:mod:`privref.reference.pate`), each with its exact law, drawn exactly from integer randomness.
:func:`predictor_service` wraps a 002 :class:`~privref.reference.prediction.Predictor`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from privref.reference.accounting import algorithm1_sigma, zcdp_compose, zcdp_epsilon
from privref.reference.data import Dataset
from privref.reference.discrete_noise import DiscreteGaussian, beats
from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import SUBSTITUTION, NeighborRelation
from privref.reference.pate import (
    BOTTOM,
    gaussian_label,
    svt_pate_parameters,
    svt_votes,
    teacher_votes,
)
from privref.reference.prediction import Predictor
from privref.reference.privacy import Claim, PrivacyClaim
from privref.reference.program import Distribution, Program, distribution
from privref.reference.reals import DEFAULT_PRECISION, Real, log, rational
from privref.reference.sparse_vector import rational_scale_at_least
from privref.reference.validate import ExactInput, check_delta, check_int, check_positive, to_fraction

from ..curves import pair_mu
from ..exact import _round_down, _round_up
from ..loss import epsilon_at_delta
from ..renyi import LawPair
from .batch import describe_outcome
from .errors import OutcomeError, TargetCallError, TargetFailure
from .target import Target

__all__ = [
    "EXACT_MAX_QUERIES",
    "MAX_QUERIES",
    "PROBE_SEED",
    "AnswerCurves",
    "ExactLoss",
    "LabelOutsideSet",
    "NondeterministicPrediction",
    "PredictionFitError",
    "PredictionService",
    "answer_curves",
    "exact_loss",
    "gaussian_pate_service",
    "gnmax_service",
    "misconfigured_pate_service",
    "prediction_target",
    "predictor_service",
    "svt_pate_service",
]

MAX_QUERIES = 64
"""Most queries one prediction target answers (an outcome is a tuple of this many labels at most;
the black-box outcome limit is 256 entries)."""

EXACT_MAX_QUERIES = 12
"""Most queries :func:`exact_loss` takes: the joint law of ℓ answers has up to 2^ℓ outcomes, each
enumerated path by path (4,096 paths take about 4 s)."""

PROBE_SEED = 0x5EED_9D1C7
"""Seed of the generator of the determinism probes (a constant: the probes never read ``rng``)."""


class PredictionFitError(TargetCallError):
    """``fit`` raised on a training dataset: the message names the service, the dataset and the
    exception (exit status 5)."""


class LabelOutsideSet(OutcomeError):
    """A prediction is not in the service's declared label set; the message names both."""


class NondeterministicPrediction(TargetFailure):
    """A service declared deterministic answered one (model, query) differently on two
    generators (or its deterministic ``fit`` returned two different models)."""


Fit = Callable[[Dataset, np.random.Generator], Any]
Predict = Callable[[Any, Hashable, np.random.Generator], Hashable]
Answer = Callable[[Any, tuple[Hashable, ...], np.random.Generator], tuple[Hashable, ...]]
Batch = Callable[[Any, tuple[Hashable, ...], np.random.Generator, int],
                 "Sequence[object] | np.ndarray[Any, Any]"]
Law = Callable[[Any, tuple[Hashable, ...], int], Distribution[Any]]


@dataclass(frozen=True)
class PredictionService:
    """A prediction service: ``fit(dataset, rng) -> model``, ``predict(model, query, rng) -> label``.

    ``labels`` is the declared label set (every answer must be in it); ``relation`` the
    neighbor relation on training datasets the ``claim`` is stated for (a
    :data:`~privref.reference.privacy.Claim`: (ε, δ)-DP of the whole released sequence, or a
    zCDP / profile claim of :mod:`~privref.audits.blackbox.declarations`); ``deterministic``
    says predict is a function of (model, query) alone (its randomness, if any, is in fit).

    Optional: ``answer(model, queries, rng)`` answers a sequence jointly (default: ``predict``
    per query, each with fresh randomness: 002 §2); ``batch(model, queries, rng, size)``
    returns ``size`` independent joint answers on one fitted model, and declares that ``fit``
    is deterministic (it is called once per chunk, and probed); ``law(model, queries,
    precision)`` is the exact law of the joint answer (:func:`exact_loss`).
    """

    name: str
    fit: Fit
    predict: Predict
    labels: frozenset[Hashable]
    deterministic: bool = False
    relation: NeighborRelation = SUBSTITUTION
    claim: Claim | None = None
    source: str = ""
    answer: Answer | None = None
    batch: Batch | None = None
    law: Law | None = None
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InvalidArgument(f"name={self.name!r} must be a non-empty str")
        for attr in ("fit", "predict"):
            if not callable(getattr(self, attr)):
                raise InvalidArgument(f"{attr}={getattr(self, attr)!r} of service {self.name!r} "
                                      "must be callable")
        for attr in ("answer", "batch", "law"):
            value = getattr(self, attr)
            if value is not None and not callable(value):
                raise InvalidArgument(f"{attr}={value!r} of service {self.name!r} must be "
                                      "callable or None")
        if not isinstance(self.labels, frozenset) or not self.labels:
            raise InvalidArgument(f"labels={self.labels!r} of service {self.name!r} must be a "
                                  "non-empty frozenset")
        if not isinstance(self.deterministic, bool):
            raise InvalidArgument(f"deterministic={self.deterministic!r} must be True or False")
        if not isinstance(self.relation, NeighborRelation):
            raise InvalidArgument(f"relation={self.relation!r} of service {self.name!r} must be "
                                  "a NeighborRelation")


def _queries(queries: object) -> tuple[Hashable, ...]:
    if isinstance(queries, str | bytes) or not isinstance(queries, Sequence):
        raise InvalidArgument(f"queries={queries!r} must be a sequence of query points")
    out = tuple(queries)
    if not out:
        raise InvalidArgument("queries=() must hold at least one query")
    if len(out) > MAX_QUERIES:
        raise InvalidArgument(f"queries: {len(out)} given, at most {MAX_QUERIES}")
    for i, q in enumerate(out):
        try:
            hash(q)
        except TypeError:
            raise InvalidArgument(f"queries[{i}]={q!r} must be hashable") from None
    return out


def _probe_rng() -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(PROBE_SEED))


class _Checked:
    """The checks of one prediction target (module docstring); ``name`` is the target's name."""

    def __init__(self, service: PredictionService, queries: tuple[Hashable, ...], name: str):
        self.service, self.queries, self.name = service, queries, name

    def fit(self, data: Sequence[object], rng: np.random.Generator) -> Any:
        try:
            return self.service.fit(tuple(data), rng)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            raise PredictionFitError(
                f"target {self.name}: fit of service {self.service.name!r} raised on "
                f"data={describe_outcome(list(data))}: {type(exc).__name__}: {exc}") from None

    def label(self, label: object, query: Hashable) -> Hashable:
        if isinstance(label, np.generic):
            label = label.item()
        try:
            known = label in self.service.labels
        except TypeError:
            known = False
        if not known:
            shown = sorted(map(repr, self.service.labels))
            raise LabelOutsideSet(f"target {self.name}: service {self.service.name!r} answered "
                                  f"{describe_outcome(label)} at query {query!r}, outside its "
                                  f"declared labels {{{', '.join(shown)}}}")
        return label

    def answers(self, model: Any, rng: np.random.Generator) -> tuple[Hashable, ...]:
        s = self.service
        if s.answer is not None:
            got = s.answer(model, self.queries, rng)
            if not isinstance(got, tuple):
                raise OutcomeError(f"target {self.name}: answer of service {s.name!r} returned "
                                   f"{describe_outcome(got)}, not a tuple of labels")
            # a joint answer may stop early (SVT-PATE stops at its T-th ⊥)
            return tuple(self.label(y, self.queries[min(i, len(self.queries) - 1)])
                         for i, y in enumerate(got))
        out = []
        for q in self.queries:
            y = self.label(s.predict(model, q, rng), q)
            if s.deterministic:
                self.same(y, s.predict(model, q, _probe_rng()), q)
            out.append(y)
        return tuple(out)

    def same(self, first: object, again: object, query: Hashable) -> None:
        if first != again:
            raise NondeterministicPrediction(
                f"target {self.name}: service {self.service.name!r} declares deterministic=True "
                f"but answered {describe_outcome(first)} and then {describe_outcome(again)} for "
                f"one model at query {query!r}")

    def outcome(self, labels: tuple[Hashable, ...]) -> object:
        return labels[0] if len(self.queries) == 1 and self.service.answer is None else labels

    def scalar(self, data: list[object], rng: np.random.Generator) -> object:
        return self.outcome(self.answers(self.fit(data, rng), rng))

    def vector(self, data: list[object], rng: np.random.Generator, size: int) -> object:
        s = self.service
        assert s.batch is not None
        model = self.fit(data, rng)
        if self.fit(data, _probe_rng()) != model:
            raise NondeterministicPrediction(
                f"target {self.name}: service {s.name!r} gives batch (so fit must be "
                "deterministic) but fit returned two different models on "
                f"data={describe_outcome(list(data))}")
        raw = s.batch(model, self.queries, rng, size)
        if isinstance(raw, np.ndarray):
            for y in np.unique(raw).tolist():  # every distinct label, checked once
                self.label(y, self.queries[0])
            rows = raw.reshape(len(raw), -1)
            differ = (rows != rows[:1]).any(axis=1)
            if s.deterministic and differ.any():
                self.same(rows[0].tolist(), rows[int(np.argmax(differ))].tolist(),
                          self.queries[0])
            return raw
        for row in raw:
            for i, y in enumerate(row if isinstance(row, tuple) else (row,)):
                self.label(y, self.queries[min(i, len(self.queries) - 1)])
            if s.deterministic and row != raw[0]:
                self.same(raw[0], row, self.queries[0])
        return raw


def prediction_target(service: PredictionService, queries: Sequence[Hashable], *,
                      name: str | None = None) -> Target:
    """``service`` answering ``queries`` as a black-box Target on training datasets.

    The target's input is the training dataset and its outcome the label (one query, no joint
    ``answer``) or the tuple of labels; it declares the service's claim and relation.  With
    ``service.batch`` the target is vectorized (one ``fit`` per chunk, probed to be
    deterministic).  Guarantee: every outcome passed on has been checked as in the module
    docstring (typed errors otherwise).  InvalidArgument names ``service`` or ``queries``
    (empty, more than :data:`MAX_QUERIES`, unhashable).
    """
    if not isinstance(service, PredictionService):
        raise InvalidArgument(f"service={service!r} must be a PredictionService")
    qs = _queries(queries)
    label = name or f"{service.name} on {len(qs)} quer{'y' if len(qs) == 1 else 'ies'}"
    checked = _Checked(service, qs, label)
    fn: Callable[..., object] = checked.vector if service.batch is not None else checked.scalar
    return Target(label, fn, service.batch is not None, None, "privref", None,
                  claim=service.claim, relation=service.relation)


# ---------------------------------------------------------------------------- exact draws


def _bounds(law: Distribution[Any], prec: int) -> tuple[list[Fraction], list[Fraction]]:
    lows, highs = [], []
    for _o, p in law.items():
        if isinstance(p, Fraction):
            lows.append(p)
            highs.append(p)
        else:
            box = p.enclose(prec) if isinstance(p, Real) else p
            lows.append(box.lo)
            highs.append(box.hi)
    return lows, highs


_WORD = 62


def exact_draws(law_at: Callable[[int], Distribution[Any]], rng: np.random.Generator, size: int
                ) -> list[Any]:
    """``size`` independent exact draws from a finite law given as enclosures ``law_at(prec)``.

    A uniform U in [0, 1) is revealed as a 62-bit integer u (numpy's bounded integers, exactly
    uniform); outcome i is returned once U's dyadic interval [u, u + 1)/2^k provably lies in
    [C_{i-1}/T, C_i/T) for every value the enclosures allow (C partial sums, T total), the rule
    of ``privref.reference._sampling.categorical_real``.  The rare u that straddles a
    boundary gets 32 more bits at a time, at doubled precision every second round (lazy
    refinement), so the law is exact and no float decides.  The enclosures of ``law_at(prec)``
    must tighten as ``prec`` grows and list the outcomes in one order.
    """
    law = law_at(DEFAULT_PRECISION)
    outcomes = list(law.support())
    lows, highs = _bounds(law, DEFAULT_PRECISION)
    t_lo, t_hi = sum(lows), sum(highs)
    scale = 1 << _WORD
    starts, ends = [], []
    c_lo = c_hi = Fraction(0)
    for lo, hi in zip(lows, highs, strict=True):
        prev_hi = c_hi
        c_lo, c_hi = c_lo + lo, c_hi + hi
        # u decides i when u*t_lo >= prev_hi*2^k and (u+1)*t_hi <= c_lo*2^k
        starts.append(-((-prev_hi * scale) // t_lo))
        ends.append((c_lo * scale) // t_hi - 1)
    u = rng.integers(0, scale, size, dtype=np.int64)
    ends_arr = np.array(ends, dtype=object)
    idx = np.searchsorted(np.array([min(e, scale) for e in ends], dtype=np.int64), u,
                          side="left")
    out: list[Any] = []
    for ui, i in zip(u.tolist(), idx.tolist(), strict=True):
        if i < len(outcomes) and starts[i] <= ui <= ends_arr[i] and highs[i] > 0:
            out.append(outcomes[i])
        else:
            out.append(outcomes[_refine(law_at, outcomes, rng, ui)])
    return out


def _refine(law_at: Callable[[int], Distribution[Any]], outcomes: list[Any],
            rng: np.random.Generator, u: int) -> int:
    """Lazy refinement of one straddling draw (see :func:`exact_draws`)."""
    k, prec, rounds = _WORD, DEFAULT_PRECISION, 0
    while True:
        u = (u << 32) | int(rng.integers(0, 1 << 32))  # exactly uniform (bounded integers)
        k += 32
        rounds += 1
        if rounds % 2 == 0:
            prec *= 2
        law = law_at(prec)
        if list(law.support()) != outcomes:
            raise InvalidArgument("law_at: the outcomes changed with the precision")
        lows, highs = _bounds(law, prec)
        t_lo, t_hi = sum(lows), sum(highs)
        scale = 1 << k
        c_lo = c_hi = Fraction(0)
        for i, (lo, hi) in enumerate(zip(lows, highs, strict=True)):
            prev_hi = c_hi
            c_lo, c_hi = c_lo + lo, c_hi + hi
            if hi > 0 and u * t_lo >= prev_hi * scale and (u + 1) * t_hi <= c_lo * scale:
                return i


# ---------------------------------------------------------------------------- PATE services

_BITS = frozenset({0, 1})


def _votes_model(data: Dataset, rng: np.random.Generator) -> tuple[tuple[int, ...], int]:
    """fit of the aggregator services: the vote vector and K (001 §2; deterministic)."""
    del rng
    if not data:
        raise InvalidArgument("data=() must hold at least one teacher's label vector")
    first = data[0]
    if not isinstance(first, tuple) or not first:
        raise InvalidArgument(f"data[0]={first!r} must be a teacher's label vector (a tuple)")
    return teacher_votes(data, len(first))


def _query_index(model: tuple[tuple[int, ...], int], query: Hashable) -> int:
    votes, _k = model
    if isinstance(query, bool) or not isinstance(query, int) or not 0 <= query < len(votes):
        raise InvalidArgument(f"query={query!r} must be an index in range({len(votes)}) of the "
                              "teachers' label vectors")
    return query


class _IndependentAggregator:
    """An aggregator answering each query independently from its vote: exact per-vote laws
    (cached), exact scalar and array draws, and the exact joint law (a product)."""

    def __init__(self, label_program: Callable[[int, int], Program[int]]):
        self.label_program = label_program
        self.cache: dict[tuple[int, int, int], Distribution[int]] = {}

    def vote_law(self, vote: int, k: int, prec: int) -> Distribution[int]:
        key = (vote, k, prec)
        if key not in self.cache:
            self.cache[key] = distribution(self.label_program, vote, k, precision=prec)
        return self.cache[key]

    def predict(self, model: tuple[tuple[int, ...], int], query: Hashable,
                rng: np.random.Generator) -> int:
        votes, k = model
        v = votes[_query_index(model, query)]
        return int(exact_draws(lambda p: self.vote_law(v, k, p), rng, 1)[0])

    def batch(self, model: tuple[tuple[int, ...], int], queries: tuple[Hashable, ...],
              rng: np.random.Generator, size: int) -> np.ndarray[Any, Any]:
        votes, k = model
        cols = []
        for q in queries:
            v = votes[_query_index(model, q)]
            cols.append(np.array(exact_draws(partial(self.vote_law, v, k), rng, size),
                                 dtype=np.int64))
        return cols[0] if len(cols) == 1 else np.stack(cols, axis=1)

    def law(self, model: tuple[tuple[int, ...], int], queries: tuple[Hashable, ...],
            prec: int) -> Distribution[Any]:
        votes, k = model
        chosen = tuple(votes[_query_index(model, q)] for q in queries)
        label_program = self.label_program

        def joint(vs: tuple[int, ...]) -> Program[Any]:
            out = []
            for v in vs:
                out.append((yield from label_program(v, k)))
            return out[0] if len(out) == 1 else tuple(out)

        return distribution(joint, chosen, precision=prec)


def _independent_service(name: str, agg: _IndependentAggregator, claim: Claim, source: str,
                         description: str) -> PredictionService:
    return PredictionService(name, _votes_model, agg.predict, _BITS, deterministic=False,
                             relation=SUBSTITUTION, claim=claim, source=source,
                             batch=agg.batch, law=agg.law, description=description)


def _check_open_delta(delta: ExactInput) -> Fraction:
    d = check_delta(delta)
    if d == 0:
        raise InvalidArgument(f"delta={d} must be > 0")
    return d


def _gaussian_label_program(sigma2: Fraction) -> Callable[[int, int], Program[int]]:
    def program(vote: int, k: int) -> Program[int]:
        return (yield from gaussian_label(vote, k, sigma2))
    return program


def gaussian_pate_service(queries: int, epsilon: ExactInput, delta: ExactInput,
                          denominator: int = 1) -> PredictionService:
    """001 Algorithm 1 (Gaussian PATE, discrete Gaussian) calibrated for ``queries`` answers.

    σ² is 001 Step 1's σ² rounded up to a multiple of 1/denominator (as
    :func:`privref.reference.pate.gaussian_pate`), the claim (ε, δ) for the whole sequence
    (001 Theorem 2 with CKS20 Theorem 4 and 001 Lemma 51).  Each query is answered with fresh
    noise; draws are exact.  InvalidArgument names queries, epsilon, delta or denominator.
    """
    ell = check_int(queries, "queries", minimum=1)
    eps = check_positive(to_fraction(epsilon, "epsilon"), "epsilon")
    d = _check_open_delta(delta)
    sigma = algorithm1_sigma(ell, eps, d)
    s2 = rational_scale_at_least(sigma * sigma, denominator)
    return _independent_service(
        f"Gaussian PATE (l={ell}, eps={eps})", _IndependentAggregator(_gaussian_label_program(s2)),
        PrivacyClaim(rational(eps), d), "001 Theorem 2",
        f"001 Algorithm 1, discrete Gaussian sigma^2={s2} calibrated for {ell} queries")


def misconfigured_pate_service(queries: int, epsilon: ExactInput, delta: ExactInput,
                               denominator: int = 1) -> PredictionService:
    """MISCONFIGURED Gaussian PATE: noise calibrated for ONE query, (ε, δ) claimed for ``queries``.

    σ² is 001 Step 1's for ℓ = 1 (as :func:`gaussian_pate_service` with queries=1), but the
    service answers ``queries`` queries and claims (ε, δ) for all of them: the budget is
    charged once for the whole sequence instead of composed (001 Theorem 2 needs σ to grow like
    √ℓ).  A neighbor that moves every vote at the majority threshold loses about ℓ times the
    one-query loss; the black-box auditor must flag it.
    """
    ell = check_int(queries, "queries", minimum=1)
    eps = check_positive(to_fraction(epsilon, "epsilon"), "epsilon")
    d = _check_open_delta(delta)
    sigma = algorithm1_sigma(1, eps, d)
    s2 = rational_scale_at_least(sigma * sigma, denominator)
    return _independent_service(
        f"MISCONFIGURED Gaussian PATE (l={ell}, noise for 1 query)",
        _IndependentAggregator(_gaussian_label_program(s2)),
        PrivacyClaim(rational(eps), d), "001 Theorem 2 (misapplied: charged once)",
        f"001 Algorithm 1 with sigma^2={s2} calibrated for one query, claimed for {ell}")


def _gnmax_program(sigma2: Fraction) -> Callable[[int, int], Program[int]]:
    noise = DiscreteGaussian(sigma2)

    def program(vote: int, k: int) -> Program[int]:
        # argmax over (n0 + Z0, n1 + Z1), ties to the first class (numpy.argmax): 1 iff n1+Z1 > n0+Z0
        won = yield from beats(noise, vote, noise, k - vote)
        return 1 if won else 0
    return program


def gnmax_service(queries: int, sigma2: ExactInput, delta: ExactInput) -> PredictionService:
    """GNMax as commonly implemented (Papernot et al. 2018): independent N_Z(0, σ²) on BOTH counts.

    Label 1 iff n1 + Z1 > n0 + Z0 (argmax, ties to class 0), Z0, Z1 independent discrete
    Gaussians (CKS20).  One teacher's change moves (n0, n1) by (∓1, ±1), L2 sensitivity √2, so
    each answer is 1/σ²-zCDP (CKS20 Theorem 4), ℓ answers ℓ/σ² (composition), claimed as
    (ρ + 2√(ρ ln(1/δ)), δ) (001 Lemma 51).  InvalidArgument names queries, sigma2 or delta.
    """
    ell = check_int(queries, "queries", minimum=1)
    s2 = check_positive(to_fraction(sigma2, "sigma2"), "sigma2")
    d = _check_open_delta(delta)
    rho = zcdp_compose(*([1 / s2] * ell))
    return _independent_service(
        f"GNMax (l={ell}, sigma^2={s2})", _IndependentAggregator(_gnmax_program(s2)),
        PrivacyClaim(zcdp_epsilon(rho, d), d), "Papernot et al. 2018 (GNMax); CKS20 Theorem 4",
        f"GNMax, discrete Gaussian sigma^2={s2} on both class counts")


def svt_pate_service(queries: int, cutoff: int, epsilon: ExactInput, delta: ExactInput,
                     denominator: int = 1) -> PredictionService:
    """001 Algorithm 2 (SVT-PATE) calibrated by its Steps 2–3 (``svt_pate_parameters``).

    The answers share the threshold noise, so the service answers the sequence jointly
    (``answer``: the labels, ⊥ for a refused query, stopping at the T-th ⊥); labels {0, 1, ⊥};
    claim (ε, δ) (001 Theorem 2; the discrete proof in :mod:`privref.reference.pate`).  Draws
    come from the exact joint law.  InvalidArgument names the argument.
    """
    ell = check_int(queries, "queries", minimum=1)
    big_t = check_int(cutoff, "cutoff", minimum=1)
    eps = check_positive(to_fraction(epsilon, "epsilon"), "epsilon")
    d = _check_open_delta(delta)
    params = svt_pate_parameters(ell, big_t, eps, d, denominator)
    cache: dict[tuple[tuple[int, ...], int, int], Distribution[Any]] = {}

    def law(model: tuple[tuple[int, ...], int], qs: tuple[Hashable, ...], prec: int
            ) -> Distribution[Any]:
        votes, k = model
        chosen = tuple(votes[_query_index(model, q)] for q in qs)
        key = (chosen, k, prec)
        if key not in cache:
            cache[key] = distribution(svt_votes, chosen, k, params.scale, params.threshold,
                                      big_t, precision=prec)
        return cache[key]

    def answer(model: tuple[tuple[int, ...], int], qs: tuple[Hashable, ...],
               rng: np.random.Generator) -> tuple[Hashable, ...]:
        return tuple(exact_draws(lambda p: law(model, qs, p), rng, 1)[0])

    def predict(model: tuple[tuple[int, ...], int], query: Hashable,
                rng: np.random.Generator) -> Hashable:
        return answer(model, (query,), rng)[0]

    def batch(model: tuple[tuple[int, ...], int], qs: tuple[Hashable, ...],
              rng: np.random.Generator, size: int) -> list[object]:
        return exact_draws(lambda p: law(model, qs, p), rng, size)

    return PredictionService(
        f"SVT-PATE (l={ell}, T={big_t}, eps={eps})", _votes_model, predict,
        frozenset({0, 1, BOTTOM}), deterministic=False, relation=SUBSTITUTION,
        claim=PrivacyClaim(rational(eps), d), source="001 Theorem 2", answer=answer,
        batch=batch, law=law,
        description=f"001 Algorithm 2, discrete Laplace t={params.scale}, threshold "
                    f"{params.threshold}, T={big_t}")


def predictor_service(predictor: Predictor) -> PredictionService:
    """A 002 :class:`~privref.reference.prediction.Predictor` as a service: fit keeps the
    dataset (deterministic), predict runs the predictor's program on fresh randomness
    (002 §2), ``batch`` is :meth:`~privref.reference.prediction.Predictor.predict_batch` (the
    same law) and ``law`` its exact per-query law (one query at a time; a joint law of several
    queries is the product, built by :func:`exact_loss`).  The claim is the per-query
    guarantee read as DP of one answer (:meth:`~privref.reference.prediction.Predictor.at`).
    """
    if not isinstance(predictor, Predictor):
        raise InvalidArgument(f"predictor={predictor!r} must be a Predictor")
    claim = predictor.at(predictor.domain[0]).claim if predictor.domain else None

    def fit(data: Dataset, rng: np.random.Generator) -> Dataset:
        del rng
        return tuple(data)

    def predict(model: Dataset, query: Hashable, rng: np.random.Generator) -> int:
        return predictor.predict(model, query, rng)

    def batch(model: Dataset, qs: tuple[Hashable, ...], rng: np.random.Generator, size: int
              ) -> np.ndarray[Any, Any]:
        cols = [predictor.predict_batch(model, [q] * size, rng).astype(np.int64) for q in qs]
        return cols[0] if len(cols) == 1 else np.stack(cols, axis=1)

    def law(model: Dataset, qs: tuple[Hashable, ...], prec: int) -> Distribution[Any]:
        if len(qs) != 1:
            raise InvalidArgument("a 002 predictor's exact law is per query: give one query")
        return predictor.law(model, qs[0], precision=prec)

    return PredictionService(predictor.name, fit, predict, _BITS, deterministic=False,
                             relation=predictor.relation, claim=claim,
                             source=str(predictor.source), batch=batch, law=law,
                             description=predictor.description)


# ---------------------------------------------------------------------------- ground truth


@dataclass(frozen=True, slots=True)
class ExactLoss:
    """The exact privacy loss of a service on one neighboring pair at ``delta``.

    ``epsilon`` is max over both orders of ln t(δ), t(δ) the least t with
    Σ_o max(0, P(o) − t·Q(o)) <= δ (:func:`privref.audits.loss.epsilon_at_delta`), enclosed in
    [``lower``, ``upper``] (the exact enclosure's ends as floats, for reports only: no verdict
    reads them); ``infinite``
    when proved infinite.
    """

    delta: Fraction
    lower: float
    upper: float
    infinite: bool


def exact_loss(service: PredictionService, a: Sequence[object], b: Sequence[object],
               queries: Sequence[Hashable], delta: ExactInput,
               precision: int = DEFAULT_PRECISION) -> ExactLoss:
    """The exact loss of ``service`` answering ``queries`` on the pair (a, b), both orders.

    Needs ``service.law`` and a deterministic fit (the law is of the answers given the fitted
    model).  The worst order is taken; exact or enclosed, never a float decision (the floats
    are outward roundings of :class:`~privref.audits.loss.PairEpsilon` enclosures).
    InvalidArgument when the service has no law or more than :data:`EXACT_MAX_QUERIES` queries
    are given.
    """
    if service.law is None:
        raise InvalidArgument(f"service {service.name!r} has no exact law")
    d = check_delta(delta)
    qs = _queries(queries)
    if len(qs) > EXACT_MAX_QUERIES:
        raise InvalidArgument(f"queries: {len(qs)} given; the exact joint law is computed for "
                              f"at most {EXACT_MAX_QUERIES}")
    rng = _probe_rng()
    ma, mb = service.fit(tuple(a), rng), service.fit(tuple(b), rng)
    p, q = service.law(ma, qs, precision), service.law(mb, qs, precision)
    lo, hi, infinite = 0.0, 0.0, False
    for x, y in ((p, q), (q, p)):
        e = epsilon_at_delta(x, y, d, precision)
        if e.infinite:
            infinite = True
            continue
        t_lo = e.t_exact if e.t_exact is not None else e.t_lo
        t_hi = e.t_exact if e.t_exact is not None else e.t_hi
        lo = max(lo, _round_down(log(rational(max(t_lo, Fraction(1)))).enclose(precision).lo))
        hi = max(hi, float("inf") if t_hi is None
                 else _round_up(log(rational(t_hi)).enclose(precision).hi))
    return ExactLoss(d, lo, float("inf") if infinite else hi, infinite)


@dataclass(frozen=True, slots=True)
class AnswerCurves:
    """The exact Rényi and Gaussian-DP terms of a service's ONE answer on one pair, both orders.

    ``renyi[i]`` encloses max(D_α(P ‖ Q), D_α(Q ‖ P)) at ``orders[i]`` as [lo, hi] (hi None:
    unbounded at this precision); ``mu`` encloses the least μ with the pair's tradeoff curves
    above G_μ in both orders (Dong, Roth and Su 2022, Definition 2.6; the vertex argument of
    :mod:`privref.audits.curves`), None when no finite upper end is known.
    """

    orders: tuple[Fraction, ...]
    renyi: tuple[tuple[Fraction, Fraction | None], ...]
    mu: tuple[Fraction, Fraction] | None


def answer_curves(service: PredictionService, a: Sequence[object], b: Sequence[object],
                  query: Hashable, orders: Sequence[ExactInput] = (2,),
                  precision: int = DEFAULT_PRECISION) -> AnswerCurves:
    """The exact Rényi divergences (:class:`privref.audits.renyi.LawPair`) and Gaussian-DP μ
    (:func:`privref.audits.curves.pair_mu`) of ``service``'s answer at ``query`` on (a, b), both
    orders: the ground truth of the black-box curve bounds (:mod:`privref.audits.blackbox.curves`).
    Needs ``service.law`` and a deterministic fit (InvalidArgument otherwise).
    """
    if service.law is None:
        raise InvalidArgument(f"service {service.name!r} has no exact law")
    rng = _probe_rng()
    ma, mb = service.fit(tuple(a), rng), service.fit(tuple(b), rng)
    qs = _queries([query])
    p, q = service.law(ma, qs, precision), service.law(mb, qs, precision)
    wanted = tuple(to_fraction(o, "orders") for o in orders)
    pairs = (LawPair.of(p, q, 64), LawPair.of(q, p, 64))
    renyi = []
    for alpha in wanted:
        lo = Fraction(0)
        up: Fraction | None = Fraction(0)
        for pair in pairs:
            e = pair.renyi(alpha)
            lo = max(lo, e.lower)
            up = None if up is None or e.upper is None else max(up, e.upper)
        renyi.append((lo, up))
    both = (pair_mu(p, q), pair_mu(q, p))
    mu = None if any(m.upper is None for m in both) else (
        max(m.lower for m in both), max(m.upper for m in both if m.upper is not None))
    return AnswerCurves(wanted, tuple(renyi), mu)
