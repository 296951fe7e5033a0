"""The black-box audit driver: :func:`run_audit` (and :func:`sample_pair`, its sampling alone).

Reproducibility.  Chunk ``c`` of side ``s`` (0 for the pair's first
dataset, 1 for the second) of candidate ``i`` in stage ``g`` (0 screening,
1 confirmation) is drawn with ``numpy.random.Generator(PCG64(SeedSequence(seed,
spawn_key=(g, i, s, c, 0))))``, and the global ``random`` / ``numpy.random``
states are reseeded from ``spawn_key=(g, i, s, c, 1)`` for the chunk (then
restored).  Chunks are reassembled in chunk order, so the samples, hence the
report, depend only on the seed, the target and the parameters, never on
``workers`` or on scheduling.

Statistics across pairs.  With at most ``confirm`` candidate pairs, each is
estimated once on ``samples`` draws per side with failure probability
``(1 - confidence) / k`` (Bonferroni over the ``k`` pairs).  With more
candidates (neighbor search), a *screening* stage draws
``screening_samples`` per side for every candidate only to rank them; the
``confirm`` best are then re-estimated on *fresh* samples (stage 1) with
``(1 - confidence) / k`` each.  The screening samples are independent of the
confirmation samples, so the selection does not bias the confirmation, and by
the union bound every confirmed bound holds simultaneously with probability
at least ``confidence``.  The estimator corrects within a pair (events and
directions; audits.blackbox.estimate).

Memory.  Outcomes are drawn in chunks of ``chunk_size`` (default 2**14 for
vectorized targets, 2**11 for scalar ones).  The default estimator streams
(:meth:`privref.audits.blackbox.engines.SamplingEngine.stream`): it keeps the selection split (at most
``selection_cap`` outcomes per side) and one chunk per worker, and the
held-out chunks come back as counts, so memory does not grow with
``samples``.  A custom estimator or the HTML report's samples keep every
outcome (packed: numpy arrays for numbers), at most MAX_IN_MEMORY per side.  A sequential
audit's rounds (:class:`CarriedSamples`) also keep, for the next round, at most
``selection_cap // confirm`` outcomes per side per confirmed pair.

Checkpoint.  With ``checkpoint`` set, completed chunks are stored and a rerun with the
same parameters resumes (:mod:`privref.audits.blackbox.checkpoint`).

Progress.  :func:`run_audit` reports progress only to the ``progress`` reporter it is given
(:class:`~privref.audits.blackbox.engines.ProgressReporter`; the command line supplies a
terminal bar); none by default.

Pairs.  Given pairs are checked by :func:`privref.audits.blackbox.pairs.check_pairs`
(neighboring under the relation in force: ``config.relation``, else the target's declared
relation, else substitution; or within ``config.group``; duplicates dropped).

Layout.  The parameters and their limits are :mod:`privref.audits.blackbox.config`, the pair
rules :mod:`~privref.audits.blackbox.pairs`, the sampling engine
:mod:`~privref.audits.blackbox.engines`, the checkpoint :mod:`~privref.audits.blackbox.checkpoint`;
their public names are re-exported here for compatibility.  Tasks are generated lazily, so the
plan never sits in memory.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from typing import Any

from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import Real, rational

from .batch import check_kinds
from .checkpoint import CheckpointError, Counted
from .config import (
    DEFAULT_SELECTION_CAP,
    MAX_CONFIDENCE,
    MAX_DATASET_SIZE,
    MAX_IN_MEMORY,
    MAX_POINTS,
    MAX_SAMPLES,
    MAX_SEED,
    MAX_WORKERS,
    AuditConfig,
    audited_claim,
    audited_points,
    limit_text,
    low_power,
)
from .curves import (
    CURVE_DELTAS,
    CurveBounds,
    EventEvidence,
    curve_bounds,
    evidence_of,
    profile_claim,
)
from .declarations import DEFAULTED_RELATION, OVERRIDDEN_RELATION, relation_in_force
from .engines import (
    VALIDATION_SHARE,
    ProgressReporter,
    SamplingEngine,
    Streamed,
    chunk_head,
    dealing_seed,
    validation_chunks,
)
from .estimate import conclude_views, dealt_sizes, plan_views, refine_views, selection_sizes
from .pairs import check_pairs, confirmed_pairs, usable_candidates
from .report import (
    BlackboxReport,
    BlackboxVerdict,
    EstimateLike,
    PairResult,
    PointResult,
    WitnessSamples,
)
from .search import Pair, candidate_pairs, relation_name_safe
from .selection import Candidate
from .target import Batch, Target, probe_randomness, target_from_callable

__all__ = [
    "DEFAULT_SELECTION_CAP",
    "MAX_CONFIDENCE",
    "MAX_DATASET_SIZE",
    "MAX_IN_MEMORY",
    "MAX_POINTS",
    "MAX_SAMPLES",
    "MAX_SEED",
    "MAX_WORKERS",
    "VALIDATION_SHARE",
    "AuditConfig",
    "CarriedSamples",
    "CheckpointError",
    "Counted",
    "Estimator",
    "ProgressReporter",
    "Streamed",
    "audited_claim",
    "audited_points",
    "check_pairs",
    "confirmed_pairs",
    "dealing_seed",
    "low_power",
    "run_audit",
    "sample_pair",
    "validation_chunks",
]

Estimator = Callable[..., EstimateLike]
"""A custom estimator: ``estimator(outcomes_a, outcomes_b, epsilon=, delta=, alpha=)`` returns an
estimate with the guarantee of :func:`privref.audits.blackbox.estimate.estimate_pair`."""

_Found = tuple[int, Pair, EstimateLike, "EstimateLike | None", "tuple[PointResult, ...]"]
_Checker = Callable[[dict[tuple[int, int], Batch]], None]


def sample_pair(target: Target, pair: Pair, *, samples: int, seed: int, workers: int = 1,
                chunk_size: int | None = None, stage: int = 1, index: int = 0
                ) -> tuple[Batch, Batch]:
    """Draw ``samples`` outcomes on each side of ``pair`` exactly as :func:`run_audit` does.

    The result depends only on (target, pair, samples, seed, chunk_size,
    stage, index), never on ``workers``.
    """
    config = AuditConfig(epsilon=0, samples=max(samples, 2), seed=seed, workers=workers,
                         chunk_size=chunk_size, timeout=None)
    with SamplingEngine(target, config, {}) as engine:
        out = engine.sample(stage, [(index, pair)], samples, "sampling")
    return out[(index, 0)], out[(index, 1)]


# ---------------------------------------------------------------------------- one run's state

@dataclass(slots=True)
class CarriedSamples:
    """Selection samples carried into an audit from draws made before it, and the outcomes it
    keeps for the next audit (the rounds of :mod:`privref.audits.blackbox.sequential`).

    ``selection[pair]``: a sample per side of ``pair``, drawn before this audit and
    independently of its draws.  A confirmed pair that has one (at least one outcome per side)
    selects its events on it alone and bounds them on all of its ``samples`` confirmation draws
    per side (no selection or validation split: the streaming engine's ``carried``); a confirmed
    pair without one splits as usual.  ``room``: the outcomes per side per pair a selection
    sample may hold; for each confirmed pair the audit keeps the first
    ``room - len(selection[pair])`` (at most ``samples``) outcomes per side of its
    confirmation draws in ``kept`` (the engine's ``keep``), and ``used[pair]`` records the size
    of the carried sample a pair selected on.  Validity: the events are a function of samples
    independent of the confirmation draws, so the held-out argument of
    :mod:`privref.audits.blackbox.estimate` holds conditionally on them (folklore: sample
    splitting).  Used by the default streaming estimator only.
    """

    selection: Mapping[Pair, tuple[Batch, Batch]]
    room: int
    kept: dict[Pair, tuple[Batch, Batch]] = field(default_factory=dict)
    used: dict[Pair, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Run:
    """What an audit fixes before sampling: the target, the parameters, the tested points."""

    target: Target
    config: AuditConfig
    given: bool  # pairs were given (not searched)
    points: tuple[tuple[Real, Fraction], ...]
    claim: tuple[Real, Fraction]
    estimator: Estimator | None
    streaming: bool
    carry: CarriedSamples | None = None  # the sequential mode's carried samples (rounds >= 1)


@dataclass(slots=True)
class _Log:
    """What an audit accumulates (mutable by design: filled as the run goes, read by _report)."""

    start: float
    candidates: list[Pair]
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    results: list[PairResult] = field(default_factory=list)
    kept: dict[int, WitnessSamples] = field(default_factory=dict)  # only when asked for
    seen: list[tuple[Batch, Sequence[Hashable]]] = field(default_factory=list)
    evidence: list[EventEvidence] = field(default_factory=list)  # confirmation events (curves)


def _warn(warnings: list[str], on_warning: Callable[[str], None] | None, message: str) -> None:
    warnings.append(message)
    if on_warning is not None:
        on_warning(message)


def _fingerprint(target: Target, config: AuditConfig, given: Sequence[Pair] | None) -> dict[str, Any]:
    curves = {} if config.curves is None else {  # the curve slots change the plan
        "curves": [str(d) for d in CURVE_DELTAS]}
    return {**curves,
        "target": target.name, "vectorized": target.vectorized, "seed": config.seed,
        "samples": config.samples, "screening_samples": config.screening,
        "chunk_size": config.chunk(target), "confirm": config.confirm,
        "epsilon": str(config.epsilon), "delta": str(config.delta),
        "confidence": str(config.confidence), "selection_cap": config.selection_cap,
        "float_events": config.float_events,
        "pairs": None if given is None else json.loads(json.dumps([[list(a), list(b)]
                                                                     for a, b in given], default=repr)),
        "search": None if given is not None else config.search.to_json(),
    }


def _prepare(target: Target, config: AuditConfig, estimator: Estimator | None,
             keep_witness_samples: bool, given: bool) -> _Run:
    """Every check that needs no sampling: the config (re-validated, so a claim forced past its
    constructor is refused here), the memory limit, the tested points."""
    if not isinstance(config, AuditConfig):
        raise InvalidArgument(f"config={config!r} must be an AuditConfig")
    config.__post_init__()
    streaming = estimator is None and not keep_witness_samples
    if not streaming and config.samples > MAX_IN_MEMORY:
        why = "a custom estimator" if estimator is not None else "the HTML report's samples"
        raise InvalidArgument(f"samples={limit_text(config.samples)}: {why} keeps every outcome, so "
                              f"samples must be <= {limit_text(MAX_IN_MEMORY)} (the default estimator "
                              "streams, and has no such limit)")
    claim = audited_claim(config)
    points = audited_points(config)
    if estimator is not None and len(points) > 1:
        raise InvalidArgument("points: a custom estimator tests one (epsilon, delta) point; "
                              "leave points empty or use the default estimator")
    return _Run(target, config, given, points, claim, estimator, streaming)


def _target(target: object) -> Target:
    """``target`` as a Target: a plain ``(data, rng)`` callable is wrapped
    (:func:`~privref.audits.blackbox.target.target_from_callable`), anything else refused."""
    if isinstance(target, Target):
        return target
    if callable(target):
        return target_from_callable(target)
    raise InvalidArgument(f"target={target!r:.80} must be a Target (target_from_callable(fn), "
                          "load_target('file.py:fn')) or a (data, rng) callable")


def _with_relation(target: Target, config: AuditConfig) -> tuple[AuditConfig, str]:
    """``config`` with the relation in force set and where it came from, by
    :func:`~privref.audits.blackbox.declarations.relation_in_force`: ``config.relation``
    (refused when it contradicts the target's declared relation, unless
    ``config.override_relation``), else the declared one, else substitution."""
    if not isinstance(config, AuditConfig):
        raise InvalidArgument(f"config={config!r} must be an AuditConfig")
    relation, source = relation_in_force(config.relation, getattr(target, "relation", None),
                                         config.override_relation)
    return (config if relation is config.relation else replace(config, relation=relation)), source


def _given_candidates(pairs: Sequence[Pair], config: AuditConfig, warnings: list[str],
                      on_warning: Callable[[str], None] | None) -> list[Pair]:
    if isinstance(pairs, str | bytes) or not isinstance(pairs, Sequence):
        raise InvalidArgument(f"pairs={pairs!r} must be a list of pairs (a, b) of datasets")
    if not pairs:
        raise InvalidArgument("pairs=[] must hold at least one pair")
    try:
        given = [(tuple(a), tuple(b)) for a, b in pairs]
    except (TypeError, ValueError):
        raise InvalidArgument("pairs must be pairs (a, b) of datasets (sequences)") from None
    for a, b in pairs:
        if any(isinstance(d, str | bytes) or not isinstance(d, Sequence) for d in (a, b)):
            raise InvalidArgument(f"pairs entry {(a, b)!r} must be a pair (a, b) of datasets "
                                  "(lists or tuples)")
    candidates, duplicates = check_pairs(given, config.relation, config.group)
    if duplicates:
        _warn(warnings, on_warning,
              f"{duplicates} duplicate pair(s) removed (a repeated pair, also in the other "
              "order, would only split the confidence)")
    return candidates


def _report(run: _Run, log: _Log, status: str, error: str | None) -> BlackboxReport:
    """The report of the run so far (``status``: complete, error or interrupted)."""
    config, target = run.config, run.target
    confirmed = [r for r in log.results if r.stage == "confirmation"]
    witness = None
    if confirmed:
        witness = max(confirmed, key=lambda r: (r.violation, r.best_bound, -r.index))
    verdict = None
    if status == "complete":
        verdict = (BlackboxVerdict.VIOLATION if any(r.violation for r in confirmed)
                   else BlackboxVerdict.NO_VIOLATION_FOUND)
    claim_eps, claim_delta = run.claim
    return BlackboxReport(
        curves=_curves(run, log, confirmed) if status == "complete" else None,
        target=target.name, target_package=target.package,
        target_package_version=target.package_version, vectorized=target.vectorized,
        claimed_epsilon=config.epsilon, claimed_delta=config.delta,
        confidence=config.confidence, samples=config.samples, seed=config.seed,
        status=status, verdict=verdict,
        epsilon_lower_bound=0.0 if witness is None else witness.best_bound,
        witness=witness, pairs=tuple(log.results), candidates=len(log.candidates),
        search=None if run.given else config.search.to_json(),
        screening_samples=None if len(log.candidates) <= config.confirm else config.screening,
        workers=config.workers, warnings=tuple(log.warnings), notes=tuple(log.notes),
        elapsed_seconds=time.perf_counter() - log.start, error=error,
        float_events=config.float_events,
        witness_samples=None if witness is None else log.kept.get(witness.index),
        relation=(None if config.relation is None else relation_name_safe(config.relation)),
        group=config.group,
        tested_epsilon=None if config.group == 1 else claim_eps,
        tested_delta=None if config.group == 1 else claim_delta,
        backend=config.backend if config.scheduler is None
        else f"{config.backend} {config.scheduler}",
        selection_cap=config.selection_cap if run.streaming else None,
        declared_claim=target.claim, libraries=target.libraries)


def _check_kinds(batches: dict[tuple[int, int], Batch], *, indexed: dict[int, Pair], name: str,
                 seen: list[tuple[Batch, Sequence[Hashable]]]) -> None:
    # heads only: the first batch is kept as the reference for the whole run
    check_kinds({k: chunk_head(b) for k, b in batches.items()}, indexed, name, seen)


def _curves(run: _Run, log: _Log, confirmed: list[PairResult]) -> CurveBounds | None:
    """The curves of :mod:`privref.audits.blackbox.curves` from the confirmation stage's events
    (None when not asked for, or with a custom estimator)."""
    request = run.config.curves
    if request is None or run.estimator is not None:
        return None
    views = [v for r in confirmed for p in ((r.estimate, r.real_estimate),
                                            *((q.estimate, q.real_estimate) for q in r.profile))
             for v in p if v is not None]
    joint = all(getattr(v, "test", "per-side") != "pooled" for v in views)
    config = run.config
    claim = (profile_claim([PrivacyClaim(e, d) for e, d in run.points]) if config.group > 1
             else request.claim if request.claim is not None
             else config.claim if not config.points  # the claim itself (GDP, zCDP, profile...)
             else profile_claim(config.tested))
    return curve_bounds(log.evidence, request, confidence=run.config.confidence,
                        joint_with_verdict=joint, claim=claim)


# ---------------------------------------------------------------------------- one stage

class _Planner:
    """The default estimator's event plan of one stage, over every tested point.

    :meth:`plan` and :meth:`refine` are the engine's :data:`~privref.audits.blackbox.engines.Plan`
    and :data:`~privref.audits.blackbox.engines.Refine`; they record, per pair, which slice of
    the candidates belongs to which point (``spans``), and :meth:`conclude` turns the counts
    into one :class:`PointResult` per point, each at its share of the pair's alpha.

    With ``curves`` (the confirmation stage of a run asking for curves), the plan also holds
    the events chosen for the curve slots (:data:`~privref.audits.blackbox.curves.CURVE_DELTAS`,
    each planned as a point at that δ, on the selection split only); each slot takes a share of
    the pair's alpha like a tested point, so the k tested points get alpha/(k + slots) each, and
    every event's bounds (``evidence``) feed the curves.
    """

    def __init__(self, run: _Run, level: Fraction, curves: bool = False) -> None:
        self.points = run.points
        self.float_events = run.config.float_events
        self.curves = curves and run.config.curves is not None
        self.plan_points = run.points + (tuple((rational(0), d) for d in CURVE_DELTAS)
                                         if self.curves else ())
        self.share = level / len(self.plan_points)  # each point's (or slot's) part of alpha
        self.pooled = any(delta == 0 for _eps, delta in run.points)
        self.spans: dict[int, list[tuple[int, int, int | None]]] = {}
        self.evidence: list[EventEvidence] = []  # every bounded event, for the curves

    def plan(self, index: int, sel_a: Any, sel_b: Any, held_a: int, held_b: int,
             shortlist: bool, dealt: bool) -> tuple[Candidate, ...]:
        """The candidates to count for every point (see engines.Plan)."""
        picked: list[Candidate] = []
        self.spans[index] = []
        for _eps, point_delta in self.plan_points:
            got, split = plan_views(sel_a, sel_b, held_a=held_a, held_b=held_b,
                                    delta=point_delta, alpha=self.share,
                                    float_events=self.float_events, shortlist=shortlist,
                                    pooled=dealt and point_delta == 0)
            self.spans[index].append((len(picked), len(picked) + len(got), split))
            picked.extend(got)
        return tuple(picked)

    def refine(self, index: int, shortlist: tuple[Candidate, ...],
               seen: tuple[tuple[int, int], ...], validation: int, bounding: int,
               dealt: bool) -> tuple[Candidate, ...]:
        """The shortlisted candidates kept for every point (see engines.Refine)."""
        kept: list[Candidate] = []
        old, self.spans[index] = self.spans[index], []
        for (start, end, split), (_eps, point_delta) in zip(old, self.plan_points, strict=True):
            got, new_split = refine_views(
                shortlist[start:end], split,
                seen[start:end], validation_a=validation, validation_b=validation,
                held_a=bounding, held_b=bounding, delta=point_delta, alpha=self.share,
                pooled=dealt and point_delta == 0)
            self.spans[index].append((len(kept), len(kept) + len(got), new_split))
            kept.extend(got)
        return tuple(kept)

    def conclude(self, index: int, pair: Pair, got: Streamed) -> _Found:
        """The pair's estimate at every point, the headline point first."""
        profile: list[PointResult] = []
        for (start, end, split), (point_eps, point_delta) in zip(
                self.spans[index], self.plan_points, strict=True):
            if self.curves:
                self.evidence.extend(evidence_of(
                    got.chosen[start:end], got.hits[start:end], split, held_a=got.bounding[0],
                    held_b=got.bounding[1], alpha=self.share))
            if len(profile) == len(self.points):  # a curve slot: its evidence only
                continue
            ieee, real = conclude_views(
                got.chosen[start:end], got.hits[start:end], split,
                held_a=got.bounding[0], held_b=got.bounding[1],
                selection_a=got.selection_size, selection_b=got.selection_size,
                epsilon=point_eps, delta=point_delta, alpha=self.share,
                validation=got.validation_size, dealt=got.dealt is not None)
            profile.append(PointResult(point_eps, point_delta, ieee.estimate,
                                       None if real is None else real.estimate))
        head = profile[0]
        return (index, pair, head.estimate, head.real_estimate,
                tuple(profile) if len(self.points) > 1 else ())


def _custom_stage(run: _Run, engine: SamplingEngine, check: _Checker, number: int,
                  chosen: list[tuple[int, Pair]], n: int, label: str,
                  level: Fraction) -> list[_Found]:
    """A stage of a custom estimator, which sees every outcome."""
    assert run.estimator is not None
    batches = engine.sample(number, chosen, n, label)
    check(batches)
    eps, delta = run.claim
    return [(i, pair, run.estimator(batches[(i, 0)].values, batches[(i, 1)].values,
                                    epsilon=eps, delta=delta, alpha=level), None, ())
            for i, pair in chosen]


def _kept_stage(run: _Run, log: _Log, engine: SamplingEngine, check: _Checker,
                planner: _Planner, number: int, chosen: list[tuple[int, Pair]], n: int,
                label: str) -> dict[int, Streamed]:
    """The default estimator with every outcome kept (the HTML report's samples): the same plan
    and counts as the streaming engine; the confirmation samples are kept for the report."""
    batches = engine.sample(number, chosen, n, label)
    check(batches)
    sel, _ = selection_sizes(n, n)
    streamed = {}
    for i, _pair in chosen:
        xa, xb = batches[(i, 0)].values, batches[(i, 1)].values
        dealt = (dealt_sizes(n - sel, n - sel, Fraction(0),
                             dealing_seed(run.config.seed, number, i))
                 if planner.pooled else None)
        end_a, end_b = (n, n) if dealt is None else (sel + dealt[0], sel + dealt[1])
        picked = planner.plan(i, xa[:sel], xb[:sel], n - sel, n - sel, False, dealt is not None)
        streamed[i] = Streamed(picked, tuple(
            (c.event.count(xa[sel:end_a]), c.event.count(xb[sel:end_b])) for c in picked),
            sel, n - sel, dealt=dealt)
        if number == 1:
            log.kept[i] = WitnessSamples(xa, xb)
    return streamed


def _carried_stage(carry: CarriedSamples, engine: SamplingEngine, check: _Checker,
                   planner: _Planner, chosen: list[tuple[int, Pair]], n: int,
                   label: str) -> dict[int, Streamed]:
    """The confirmation stage with carried selection samples (:class:`CarriedSamples`), one
    pair at a time (each keeps its own number of outcomes)."""
    streamed: dict[int, Streamed] = {}
    for i, pair in chosen:
        have = carry.selection.get(pair)
        size = 0 if have is None else min(len(have[0]), len(have[1]))
        got = engine.stream(1, [(i, pair)], n, label, planner.plan, check,
                            refine=planner.refine, pooled=planner.pooled,
                            carried=None if have is None or size == 0 else {i: have},
                            keep=max(0, carry.room - size))
        streamed[i] = got[i]
        kept = got[i].kept
        if kept is not None:
            carry.kept[pair] = kept
        if size:
            carry.used[pair] = size
    return streamed


def _stage(run: _Run, log: _Log, engine: SamplingEngine, check: _Checker, number: int,
           chosen: list[tuple[int, Pair]], n: int, label: str, level: Fraction) -> list[_Found]:
    """Stage ``number`` (0 screening, 1 confirmation) on ``chosen`` with ``n`` samples per side,
    each pair at failure probability ``level``."""
    if run.estimator is not None:
        return _custom_stage(run, engine, check, number, chosen, n, label, level)
    planner = _Planner(run, level, curves=number == 1)
    if run.streaming and number == 1 and run.carry is not None:
        streamed = _carried_stage(run.carry, engine, check, planner, chosen, n, label)
    elif run.streaming:
        streamed = engine.stream(number, chosen, n, label, planner.plan, check,
                                 refine=planner.refine, pooled=planner.pooled)
    else:
        streamed = _kept_stage(run, log, engine, check, planner, number, chosen, n, label)
    found = [planner.conclude(i, pair, streamed[i]) for i, pair in chosen]
    if number == 1:
        log.evidence.extend(planner.evidence)
    return found


def _sample_and_estimate(run: _Run, log: _Log, engine: SamplingEngine, check: _Checker) -> None:
    """Screening (only with more candidates than ``confirm``), then confirmation on fresh samples,
    each confirmed pair at alpha/k; the results go to ``log.results``."""
    config = run.config
    alpha = 1 - config.confidence
    chosen = list(enumerate(log.candidates))
    if len(log.candidates) > config.confirm:
        for i, pair, est, real, prof in _stage(run, log, engine, check, 0, chosen,
                                               config.screening, "screening", alpha):
            log.results.append(PairResult(i, "screening", pair, config.screening, alpha, est,
                                          real, prof))
        chosen = sorted((r.index, r.pair) for r in confirmed_pairs(log.results, config.confirm))
    share = alpha / len(chosen)
    for i, pair, est, real, prof in _stage(run, log, engine, check, 1, chosen, config.samples,
                                           "confirmation", share):
        log.results.append(PairResult(i, "confirmation", pair, config.samples, share, est,
                                      real, prof))


def _audit(run: _Run, log: _Log, pairs: Sequence[Pair] | None,
           on_warning: Callable[[str], None] | None,
           progress: ProgressReporter | None) -> None:
    """Everything from the target's first call on: usable candidates, the LOW-POWER warning, the
    randomness probe, then both stages."""
    config, target = run.config, run.target
    if pairs is None:
        log.candidates = usable_candidates(target, log.candidates, config.seed, log.warnings,
                                           config.timeout)
    if run.estimator is None:
        weak = low_power(config, min(len(log.candidates), config.confirm))
        if weak is not None:
            _warn(log.warnings, on_warning, weak)
    w, n = probe_randomness(target, log.candidates[0][0], seed=config.seed,
                            timeout=config.timeout)
    log.warnings.extend(w)
    log.notes.extend(n)
    check = partial(_check_kinds, indexed=dict(enumerate(log.candidates)), name=target.name,
                    seen=log.seen)
    with SamplingEngine(target, config, _fingerprint(target, config, pairs), progress) as engine:
        _sample_and_estimate(run, log, engine, check)


# ---------------------------------------------------------------------------- the audit

def run_audit(target: Target | Callable[..., Any], config: AuditConfig,
              pairs: Sequence[Pair] | None = None, *,
              estimator: Estimator | None = None,
              on_partial: Callable[[BlackboxReport], None] | None = None,
              keep_witness_samples: bool = False,
              on_warning: Callable[[str], None] | None = None,
              progress: ProgressReporter | None = None,
              _carry: CarriedSamples | None = None) -> BlackboxReport:
    """Audit ``target`` against ``config``'s claim on ``pairs`` (searched when None).

    ``target`` is a :class:`~privref.audits.blackbox.target.Target` or a plain ``(data, rng)``
    callable (wrapped by ``target_from_callable``); anything else is InvalidArgument.

    Guarantee: when the report is complete, with probability at least
    ``config.confidence`` every confirmed pair's ``epsilon_lower_bound`` is
    at most the target's true privacy loss at ``config.delta`` on that pair
    (given the estimator's per-pair guarantee; see the module docstring for
    the correction over pairs).  On a PrivrefError or Ctrl-C, ``on_partial``
    receives the partial report (status ``error`` or ``interrupted``) before
    the exception propagates; completed chunks are already in the checkpoint.

    Before the target is first called, the config is validated again (a claim forced past
    its constructor raises InvalidArgument here), and so are the pairs.

    With ``keep_witness_samples``, the report's ``witness_samples`` holds the
    witness pair's confirmation samples (the very arrays the estimator saw;
    no extra sampling) for audits.blackbox.html; the other pairs' samples are
    dropped on return, so memory stays that of one stage.  Nothing else in
    the report changes.

    Given pairs are checked by :func:`check_pairs` (NotNeighboring, naming the pair, the
    relation and the distance, under the relation in force: ``config.relation``, else the
    target's declared relation, else substitution with the warning
    :data:`~privref.audits.blackbox.declarations.DEFAULTED_RELATION`; the report records it;
    duplicates dropped with a warning); with ``group = k``
    the tested claim is :func:`audited_claim`.  Warnings known before sampling
    (duplicates, LOW-POWER) are also passed to ``on_warning`` as they arise.
    ``progress`` (a :class:`~privref.audits.blackbox.engines.ProgressReporter`, e.g. the
    command line's terminal bar) is told of every stage and every chunk; None: silent.

    ``_carry`` (internal: the sequential mode's rounds) is :class:`CarriedSamples`, used only
    with the default streaming estimator; None (the default) changes nothing.
    """
    target = _target(target)
    config, source = _with_relation(target, config)
    run = _prepare(target, config, estimator, keep_witness_samples, pairs is not None)
    if _carry is not None and run.streaming:
        run = replace(run, carry=_carry)
    log = _Log(time.perf_counter(), [])
    if source in ("default", "override"):
        _warn(log.warnings, on_warning,
              DEFAULTED_RELATION if source == "default" else OVERRIDDEN_RELATION)
    if pairs is not None:
        log.candidates = _given_candidates(pairs, config, log.warnings, on_warning)
    else:
        log.candidates = list(candidate_pairs(config.search, config.seed))
    try:
        _audit(run, log, pairs, on_warning, progress)
    except PrivrefError as exc:
        if on_partial is not None:
            on_partial(_report(run, log, "error", str(exc)))
        raise
    except KeyboardInterrupt:
        if on_partial is not None:
            where = (f"; completed chunks are in {config.checkpoint}: rerun the same command to "
                     "resume" if config.checkpoint is not None else "")
            on_partial(_report(run, log, "interrupted", "interrupted" + where))
        raise
    if log.seen and log.seen[0][0].conversions:
        log.notes.append("outputs converted to canonical tuples: "
                         + "; ".join(log.seen[0][0].conversions)
                         + " (docs/blackbox-outcomes.md)")
    return _report(run, log, "complete", None)
