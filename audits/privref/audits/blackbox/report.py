"""The black-box audit report: an immutable record, its JSON form and a terminal summary.

JSON fields (documented in docs/blackbox.md): ``claimed_epsilon``,
``claimed_delta``, ``epsilon_lower_bound`` (a float rounded down by the
estimator; 0.0 when there is no evidence), ``verdict`` (``VIOLATION`` or
``NO_VIOLATION_FOUND``; null when the run did not complete), ``confidence``,
``samples`` (per side, per confirmed pair), ``seed``, ``pair``, ``event``,
``direction``, ``counts``, ``bound_test`` (``pooled`` or ``per-side``: the held-out
test that gave the bound, see audits.blackbox.pooled; null for a custom estimator
without one), ``delta_at_claimed_epsilon``, ``privref_version``,
``target``, ``target_package``, ``target_package_version``, ``warnings``,
``notes``, ``pairs`` (one record per pair and stage), ``elapsed_seconds``,
``status``, ``error`` and ``float_events`` (False for the real-arithmetic
view, without the IEEE-754 pattern events); ``relation`` (the neighbor relation
the given pairs were checked under, always set by run_audit), ``group`` (k for group
privacy at distance k) with ``tested_epsilon_exact``/``tested_delta_exact`` (the
group claim actually tested; null when k = 1), ``float_leak`` (the witness event
reads the IEEE-754 bits of float outputs: a floating-point leak, Mironov 2012)
and ``float_leak_explanation``.  Every exact parameter (``claimed_epsilon``,
``claimed_delta``, ``confidence``) also has an ``_exact`` string: a float given to
the API is used at its exact binary value, and that value is what is recorded.

Declarations (audits.blackbox.declarations): ``relation_source`` (``given``: --relation /
relation=; ``declared``: by the target; ``default``: neither, substitution, with the
warning :data:`~privref.audits.blackbox.declarations.DEFAULTED_RELATION`; ``override``: given
against the target's declared relation with --override-declared-relation (API:
``override_relation=True``), with the warning
:data:`~privref.audits.blackbox.declarations.OVERRIDDEN_RELATION`; null: unknown),
``declared_claim`` (the target's claim as declared: ``{"kind": "dp", "epsilon", "delta"}``,
``{"kind": "zcdp", "rho", "delta"}``, ``{"kind": "gdp", "mu", "delta"}`` or
``{"kind": "profile", "points"}``; null: none),
``claim_conversion`` (how the audited (``claimed_epsilon``, ``claimed_delta``) point follows
from it; null: it is the point itself) and ``libraries`` (``[{"name", "version",
"source"}]``: the distributions the target uses, ``declared``, ``registered`` or
``detected``); ``curves`` (null unless asked for: the δ(ε), μ-GDP, Rényi and ρ lower bounds
of :class:`~privref.audits.blackbox.curves.CurveBounds`, from the confirmed pairs' events).

Sequential audits (:mod:`privref.audits.blackbox.sequential`): ``samples_used`` (per side per
confirmed pair actually drawn; ``samples`` for a fixed audit) and ``sequential`` (null for a
fixed audit; else the schedule, the exact alpha spending, each round's samples, alpha, seed,
bound and verdict, the round that stopped and why, the draws and the bound at stop).
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol

from numpy.typing import NDArray

from privref import reference
from privref.reference.errors import InvalidArgument, OutputError
from privref.reference.reals import Real

from .curves import CurveBounds
from .declarations import (
    DEFAULTED_RELATION,
    OVERRIDDEN_RELATION,
    DeclaredClaim,
    LibraryVersion,
    claim_json,
    claim_text,
)

__all__ = ["FLOAT_LEAK", "BlackboxReport", "BlackboxVerdict", "EstimateLike", "PairResult",
           "PointResult", "SequentialRecord", "SequentialRound",
           "WitnessSamples", "exact_text", "is_float_leak", "with_declarations", "write_json"]

FLOAT_LEAK = ("floating-point leak (Mironov 2012): the violation lives in the IEEE-754 bits of the "
              "float outputs (sign, binade, trailing zero bits), not in their real values; rerun "
              "with --no-float-events (API: float_events=False) for the real-arithmetic view")
"""The explanation attached to a verdict that comes from an IEEE-754 pattern event."""


def is_float_leak(estimate: object) -> bool:
    """True when ``estimate`` (a PairEstimate or look-alike) comes from an IEEE-754 pattern event."""
    return getattr(estimate, "float_leak", False) is True


def exact_text(value: Fraction | Real) -> str:
    """A short decimal for the terminal, followed by `` = exact`` unless the decimal is exact.

    Six significant digits, more when six would show an integer the value is not (a
    confidence of 1 - 10^-7 reads 0.9999999, never 1).
    """
    exact = value if isinstance(value, Fraction) else value.exact
    short = f"{float(value):.6g}"
    for digits in range(7, 18):
        if not math.isfinite(float(value)) or Fraction(short).denominator != 1 \
                or Fraction(short) == exact:
            break
        short = f"{float(value):.{digits}g}"
    if exact is not None and Fraction(short) == exact:
        return short
    return f"{short} = {value}"


class BlackboxVerdict(Enum):
    """VIOLATION: the lower bound exceeds the claim at the stated confidence."""

    VIOLATION = "VIOLATION"
    NO_VIOLATION_FOUND = "NO_VIOLATION_FOUND"


class EstimateLike(Protocol):
    """The fields of ``privref.audits.blackbox.estimate.PairEstimate`` the report reads."""

    @property
    def epsilon_lower_bound(self) -> float: ...
    @property
    def delta_at_claimed_epsilon(self) -> tuple[float, float] | None: ...
    @property
    def event(self) -> str: ...
    @property
    def direction(self) -> str: ...
    @property
    def counts(self) -> Mapping[str, int]: ...
    @property
    def alpha(self) -> float: ...
    @property
    def violation(self) -> bool: ...


def _jsonable(value: object) -> object:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


@dataclass(frozen=True, slots=True)
class PointResult:
    """One (epsilon, delta) point of a profile audit on one pair: its estimate in each view.

    ``estimate`` is the IEEE-754 (or only) view, ``real_estimate`` the real-arithmetic view
    when both were taken; each point of a k-point audit is bounded at the pair's alpha/k.
    """

    epsilon: Real
    delta: Fraction
    estimate: EstimateLike
    real_estimate: EstimateLike | None = None

    @property
    def violation(self) -> bool:
        """Either view proves (epsilon(delta) > the point's epsilon)."""
        return self.estimate.violation or (self.real_estimate is not None
                                           and self.real_estimate.violation)

    def to_json(self) -> dict[str, Any]:
        """JSON record: the point, each view's bound, event and verdict."""
        def view(e: EstimateLike | None) -> dict[str, Any] | None:
            return None if e is None else {"epsilon_lower_bound": e.epsilon_lower_bound,
                                           "event": e.event, "violation": e.violation,
                                           "counts": dict(e.counts)}
        return {"epsilon": float(self.epsilon), "epsilon_exact": str(self.epsilon),
                "delta": float(self.delta), "delta_exact": str(self.delta),
                "violation": self.violation, "view": view(self.estimate),
                "real_arithmetic": view(self.real_estimate)}


@dataclass(frozen=True, slots=True)
class PairResult:
    """One pair's estimate in one stage (``screening`` or ``confirmation``).

    ``alpha`` is the failure probability this stage allotted to the pair
    (for screening it only ranks pairs and carries no guarantee).
    """

    index: int
    stage: str
    pair: tuple[tuple[Hashable, ...], tuple[Hashable, ...]]
    samples: int
    alpha: Fraction
    estimate: EstimateLike
    real_estimate: EstimateLike | None = None
    profile: tuple[PointResult, ...] = ()

    @property
    def violation(self) -> bool:
        """Some view of some tested point proves a violation (each at its share of ``alpha``).

        ``estimate``/``real_estimate`` are the headline point's views; ``profile`` holds every
        point of a multi-point audit (the headline first), empty for a one-point audit.
        """
        return (self.estimate.violation
                or (self.real_estimate is not None and self.real_estimate.violation)
                or any(p.violation for p in self.profile))

    @property
    def best_bound(self) -> float:
        """The larger epsilon lower bound of the two views."""
        real = 0.0 if self.real_estimate is None else self.real_estimate.epsilon_lower_bound
        return max(self.estimate.epsilon_lower_bound, real)

    def to_json(self) -> dict[str, Any]:
        """JSON record of this pair (lists for datasets, floats for bounds)."""
        e = self.estimate
        r = self.real_estimate
        real = None if r is None else {
            "epsilon_lower_bound": r.epsilon_lower_bound, "event": r.event,
            "direction": r.direction, "counts": dict(r.counts), "alpha": r.alpha,
            "violation": r.violation, "bound_test": getattr(r, "test", None),
            "delta_at_claimed_epsilon": (None if r.delta_at_claimed_epsilon is None
                                         else list(r.delta_at_claimed_epsilon))}
        return {
            "index": self.index, "stage": self.stage,
            "pair": [_jsonable(self.pair[0]), _jsonable(self.pair[1])],
            "samples": self.samples, "alpha": float(self.alpha), "alpha_exact": str(self.alpha),
            "epsilon_lower_bound": e.epsilon_lower_bound, "event": e.event,
            "direction": e.direction, "counts": dict(e.counts),
            "delta_at_claimed_epsilon": (None if e.delta_at_claimed_epsilon is None
                                         else list(e.delta_at_claimed_epsilon)),
            "violation": e.violation,
            "float_pattern_event": is_float_leak(e),
            "bound_test": getattr(e, "test", None),
            "real_arithmetic": real,
            "profile": [p.to_json() for p in self.profile],
        }


def _real_view(p: PairResult) -> tuple[float, bool]:
    """(bound, violation) of the pair's real-arithmetic evidence."""
    if p.real_estimate is not None:
        return p.real_estimate.epsilon_lower_bound, p.real_estimate.violation
    if is_float_leak(p.estimate):
        return 0.0, False
    return p.estimate.epsilon_lower_bound, p.estimate.violation


@dataclass(frozen=True, slots=True, eq=False)
class WitnessSamples:
    """The confirmation samples of the witness pair, exactly as the estimator received them.

    ``a`` holds the draws of M(pair[0]) and ``b`` those of M(pair[1]), in
    draw order: a 1-D numpy array for numbers, else a list of hashable
    outcomes.  Kept only on request (``run_audit(..., keep_witness_samples=True)``);
    never part of the JSON report.
    """

    a: Sequence[Hashable] | NDArray[Any]
    b: Sequence[Hashable] | NDArray[Any]


@dataclass(frozen=True, slots=True)
class SequentialRound:
    """One round (look) of a sequential audit (:mod:`privref.audits.blackbox.sequential`):
    ``samples`` per side per confirmed pair on fresh draws from ``seed``, at failure probability
    ``alpha``; its bound and verdict; ``draws``, every outcome it drew (both sides, every pair
    and stage, screening included).  ``selection``: ``split`` when the round chose its events on
    a selection split of its own draws (bounding on the rest), ``earlier rounds`` when its
    confirmed pairs chose them on outcomes of earlier rounds (``carried`` per side, the largest
    over its pairs) and bounded on all of its ``samples``."""

    index: int
    samples: int
    alpha: Fraction
    seed: int
    verdict: str
    epsilon_lower_bound: float
    draws: int
    selection: str = "split"
    carried: int = 0

    def to_json(self) -> dict[str, Any]:
        """JSON record of the round (``alpha`` also as an exact string)."""
        return {"round": self.index, "samples": self.samples, "alpha": float(self.alpha),
                "alpha_exact": str(self.alpha), "seed": self.seed, "verdict": self.verdict,
                "epsilon_lower_bound": self.epsilon_lower_bound, "draws": self.draws,
                "selection": self.selection, "carried": self.carried}


@dataclass(frozen=True, slots=True)
class SequentialRecord:
    """What a sequential audit did: the pre-declared ``schedule`` (round sizes per side) and its
    alpha ``spending`` (exact; sums to at most 1 - confidence), the ``rounds`` run, the round that
    stopped it (``stopped_on``: ``violation`` or ``budget``), ``samples_used`` (per side per
    confirmed pair, summed over the rounds run: the figure to compare with a fixed audit's
    ``samples``), ``draws`` (every outcome drawn) and ``bound_at_stop`` (the stopping round's
    bound)."""

    budget: int
    first_round: int
    schedule: tuple[int, ...]
    spending: tuple[Fraction, ...]
    rounds: tuple[SequentialRound, ...]
    stopped_on: str
    samples_used: int
    draws: int
    bound_at_stop: float

    def to_json(self) -> dict[str, Any]:
        """JSON record (see docs/blackbox-sequential.md)."""
        return {"budget": self.budget, "first_round": self.first_round,
                "schedule": list(self.schedule),
                "spending": [str(a) for a in self.spending],
                "rounds_run": len(self.rounds), "rounds_planned": len(self.schedule),
                "stopped_round": len(self.rounds) - 1 if self.rounds else None,
                "stopped_on": self.stopped_on, "samples_used": self.samples_used,
                "draws": self.draws, "bound_at_stop": self.bound_at_stop,
                "rounds": [r.to_json() for r in self.rounds]}


@dataclass(frozen=True, slots=True)
class BlackboxReport:
    """The outcome of a black-box audit (complete or partial).

    Guarantee (when ``status == "complete"``): with probability at least
    ``confidence`` over the sampling, the true privacy loss of the target at
    ``claimed_delta`` on the ``witness`` pair is at least
    ``epsilon_lower_bound`` (see audits.blackbox.runner for the correction
    over pairs).  ``verdict`` is VIOLATION exactly when a confirmed pair's
    bound exceeds the claim.  NO_VIOLATION_FOUND is no proof of privacy.

    ``witness_samples`` (None unless requested from run_audit) are the
    witness pair's confirmation samples, for the HTML report; they take no
    part in equality, repr or the JSON report.
    """

    target: str
    target_package: str | None
    target_package_version: str | None
    vectorized: bool
    claimed_epsilon: Real
    claimed_delta: Fraction
    confidence: Fraction
    samples: int
    seed: int
    status: str
    verdict: BlackboxVerdict | None
    epsilon_lower_bound: float
    witness: PairResult | None
    pairs: tuple[PairResult, ...]
    candidates: int
    search: Mapping[str, object] | None
    screening_samples: int | None
    workers: int
    warnings: tuple[str, ...]
    notes: tuple[str, ...]
    elapsed_seconds: float
    error: str | None = None
    float_events: bool = True
    witness_samples: WitnessSamples | None = field(default=None, repr=False, compare=False)
    relation: str | None = None
    group: int = 1
    tested_epsilon: Real | None = None
    tested_delta: Fraction | None = None
    relation_source: str | None = None
    declared_claim: DeclaredClaim | None = None
    claim_conversion: str | None = None
    libraries: tuple[LibraryVersion, ...] = ()
    backend: str = "local"
    selection_cap: int | None = None
    curves: CurveBounds | None = None
    sequential: SequentialRecord | None = None

    @property
    def samples_used(self) -> int:
        """Samples per side per confirmed pair actually drawn: ``samples`` for a fixed audit, the
        sum over the rounds run for a sequential one."""
        return self.samples if self.sequential is None else self.sequential.samples_used

    @property
    def float_leak(self) -> bool:
        """VIOLATION whose witness event is an IEEE-754 pattern, and no real-arithmetic violation."""
        return (self.verdict is BlackboxVerdict.VIOLATION and self.witness is not None
                and is_float_leak(self.witness.estimate)
                and not self.real_arithmetic_violation)

    @property
    def real_arithmetic_violation(self) -> bool:
        """A confirmed pair's violation is proved by an event that does not read float bits.

        That is the real-arithmetic view of a two-view run, or a single view's witness that is
        not an IEEE-754 pattern event: the claim fails even for the algorithm in real arithmetic
        (a mis-calibration, a double-spent budget), not only through its floating-point leak.
        """
        return any(_real_view(p)[1] for p in self.pairs if p.stage == "confirmation")

    @property
    def real_verdict(self) -> str | None:
        """The real-arithmetic view's verdict: ``"VIOLATION"`` when a confirmed pair's violation
        is proved by an event that reads no float bits (:attr:`real_arithmetic_violation`),
        ``"NO_VIOLATION_FOUND"`` otherwise; None when the audit reached no verdict."""
        if self.verdict is None:
            return None
        return "VIOLATION" if self.real_arithmetic_violation else "NO_VIOLATION_FOUND"

    @property
    def real_epsilon_lower_bound(self) -> float:
        """The largest epsilon lower bound from events that do not read float bits (confirmed pairs)."""
        return max((_real_view(p)[0] for p in self.pairs if p.stage == "confirmation"),
                   default=0.0)

    def to_json(self) -> dict[str, Any]:
        """The JSON report (see the module docstring for the fields)."""
        w = self.witness
        e = None if w is None else w.estimate
        return {
            "privref_version": reference.__version__,
            "target": self.target,
            "target_package": self.target_package,
            "target_package_version": self.target_package_version,
            "vectorized": self.vectorized,
            "claimed_epsilon": float(self.claimed_epsilon),
            "claimed_epsilon_exact": str(self.claimed_epsilon),
            "claimed_delta": float(self.claimed_delta),
            "claimed_delta_exact": str(self.claimed_delta),
            "status": self.status,
            "verdict": None if self.verdict is None else self.verdict.value,
            "epsilon_lower_bound": self.epsilon_lower_bound,
            "confidence": float(self.confidence),
            "confidence_exact": str(self.confidence),
            "samples": self.samples,
            "seed": self.seed,
            "pair": None if w is None else [_jsonable(w.pair[0]), _jsonable(w.pair[1])],
            "event": None if e is None else e.event,
            "direction": None if e is None else e.direction,
            "counts": None if e is None else dict(e.counts),
            "bound_test": None if e is None else getattr(e, "test", None),
            "delta_at_claimed_epsilon": (None if e is None or e.delta_at_claimed_epsilon is None
                                         else list(e.delta_at_claimed_epsilon)),
            "candidates_tried": self.candidates,
            "search": None if self.search is None else dict(self.search),
            "screening_samples": self.screening_samples,
            "workers": self.workers,
            "backend": self.backend,
            "selection_cap": self.selection_cap,
            "warnings": list(self.warnings),
            "notes": list(self.notes),
            "pairs": [p.to_json() for p in self.pairs],
            "elapsed_seconds": round(self.elapsed_seconds, 3),
            "error": self.error,
            "float_events": self.float_events,
            "relation": self.relation,
            "group": self.group,
            "tested_epsilon_exact": None if self.tested_epsilon is None else str(self.tested_epsilon),
            "tested_delta_exact": None if self.tested_delta is None else str(self.tested_delta),
            "float_leak": self.float_leak,
            "real_arithmetic_violation": self.real_arithmetic_violation,
            "real_epsilon_lower_bound": self.real_epsilon_lower_bound,
            "float_leak_explanation": FLOAT_LEAK if self.float_leak else None,
            "relation_source": self.relation_source,
            "declared_claim": None if self.declared_claim is None else claim_json(self.declared_claim),
            "claim_conversion": self.claim_conversion,
            "libraries": [lib.to_json() for lib in self.libraries],
            "curves": None if self.curves is None else self.curves.to_json(),
            "samples_used": self.samples_used,
            "sequential": None if self.sequential is None else self.sequential.to_json(),
        }

    def summary(self) -> str:
        """A short human-readable summary for the terminal."""
        lines = [f"black-box audit of {self.target}"
                 + (f" ({self.target_package} {self.target_package_version})"
                    if self.target_package_version else "")]
        lines.append(f"  claim            ({exact_text(self.claimed_epsilon)}, "
                     f"{exact_text(self.claimed_delta)})-DP"
                     + ("" if self.relation is None else f" under {self.relation}"))
        if self.declared_claim is not None and self.claim_conversion is not None:
            lines.append(f"  declared claim   {claim_text(self.declared_claim)}; audited point: "
                         f"{self.claim_conversion}")
        if self.relation is not None:
            source = {"given": "given (--relation / relation=)",
                      "declared": "declared by the target",
                      "default": "DEFAULTED (neither given nor declared)",
                      "override": "OVERRIDDEN: given against the target's declared relation "
                                  "(--override-declared-relation)"}.get(
                          self.relation_source or "", "")
            lines.append(f"  relation         {self.relation}" + (f" ({source})" if source else ""))
        if self.libraries:
            lines.append("  libraries        " + ", ".join(
                f"{lib.name} {lib.version or '(version unknown)'} ({lib.source})"
                for lib in self.libraries))
        if self.group > 1 and self.tested_epsilon is not None and self.tested_delta is not None:
            lines.append(f"  group privacy    pairs within distance {self.group}: tested "
                         f"({exact_text(self.tested_epsilon)}, {exact_text(self.tested_delta)})-DP "
                         f"(group claim of the stated one)")
        if self.status != "complete":
            lines.append(f"  status           {self.status.upper()}: {self.error}")
        w = self.witness
        if w is not None:
            lines.append(f"  eps lower bound  {self.epsilon_lower_bound:.6g} at confidence "
                         f"{exact_text(self.confidence)}")
            lines.append(f"  witness pair     {_jsonable(w.pair[0])} vs {_jsonable(w.pair[1])} "
                         f"({w.estimate.direction})")
            lines.append(f"  event            {w.estimate.event}")
            lines.append("  event kind       " + (
                "IEEE-754 pattern (reads the bits of float outputs: a floating-point leak)"
                if is_float_leak(w.estimate) else "real-arithmetic (thresholds, sets, scores)"))
            for point in w.profile:
                lines.append(f"  profile point    ({exact_text(point.epsilon)}, "
                             f"{exact_text(point.delta)}): eps(delta) >= "
                             f"{point.estimate.epsilon_lower_bound:.6g}"
                             + ("" if point.real_estimate is None else
                                f", real view {point.real_estimate.epsilon_lower_bound:.6g}")
                             + (" VIOLATION" if point.violation else ""))
            if w.real_estimate is not None:
                r = w.real_estimate
                lines.append(f"  real view        eps lower bound {r.epsilon_lower_bound:.6g}"
                             f"{' (VIOLATION)' if r.violation else ''} with events that do not "
                             f"read float bits: {r.event}")
                lines.append("  two views        IEEE-754 and real-arithmetic events from the "
                             "same samples, each at half of the pair's alpha")
            lines.append(f"  counts           {dict(w.estimate.counts)}")
            if getattr(w.estimate, "test", None) == "pooled":
                lines.append("  bound test       pooled: one Clopper–Pearson bound on "
                             "P/(P + Q), held-out sizes dealt by fair coins")
            if w.estimate.delta_at_claimed_epsilon is not None:
                lo, hi = w.estimate.delta_at_claimed_epsilon
                lines.append(f"  delta at claim   [{lo:.3g}, {hi:.3g}]")
        confirmed = sum(p.stage == "confirmation" for p in self.pairs)
        lines.append(f"  samples          {self.samples} per side on {confirmed} confirmed of "
                     f"{self.candidates} candidate pairs; seed {self.seed}; "
                     f"{self.elapsed_seconds:.1f}s on {self.workers} worker(s)"
                     + ("" if self.backend == "local" else f" ({self.backend})"))
        if self.sequential is not None:
            q = self.sequential
            lines.append(f"  sequential       stopped at round {len(q.rounds)} of {len(q.schedule)} "
                         f"({'VIOLATION' if q.stopped_on == 'violation' else 'budget spent'}); "
                         f"{q.samples_used} of {q.budget} samples per side used; bound at stop "
                         f"{q.bound_at_stop:.6g}; schedule {list(q.schedule)}")
        if not self.float_events:
            lines.append("  events           real-arithmetic view (no IEEE-754 pattern events)")
        # the relation line above already says DEFAULTED / OVERRIDDEN (and the command line
        # printed the warning once on stderr): the summary does not repeat its long text
        lines.extend(f"  warning          {m}" for m in self.warnings
                     if m not in (DEFAULTED_RELATION, OVERRIDDEN_RELATION))
        lines.extend(f"  note             {m}" for m in self.notes)
        if self.float_leak:
            assert w is not None
            lines.append(f"  float leak       {FLOAT_LEAK}; event counts {dict(w.estimate.counts)}")
        if self.curves is not None:
            lines.extend(self.curves.summary_lines())
        if self.verdict is not None:
            both = (w is not None and w.real_estimate is not None and w.real_estimate.violation
                    and is_float_leak(w.estimate))
            lines.append(f"  verdict          {self.verdict.value}"
                         + (" (floating-point leak, Mironov 2012)" if self.float_leak else "")
                         + (" in both views: a real-arithmetic violation, eps >= "
                            f"{w.real_estimate.epsilon_lower_bound:.6g} without reading float "
                            f"bits, and a float leak, eps >= {self.epsilon_lower_bound:.6g}"
                            if both and w is not None and w.real_estimate is not None else ""))
        return "\n".join(lines)


def write_json(path: str | Path, payload: Mapping[str, Any], flag: str = "--json") -> None:
    """Write ``payload`` as indented JSON.

    InvalidArgument (naming ``flag``) if the folder is missing or the path is a directory;
    OutputError (naming ``flag``) when the write itself fails (a full disk, no permission).
    """
    target = Path(path)
    if not target.parent.exists():
        raise InvalidArgument(f"{flag} {path}: directory {target.parent} does not exist")
    if target.is_dir():
        raise InvalidArgument(f"{flag} {path}: is a directory; give a file path")
    text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    try:
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise OutputError(f"{flag} {path}: could not write the report "
                          f"({exc.strerror or type(exc).__name__})") from None



def with_declarations(report: BlackboxReport, *, relation_source: str | None,
                      declared_claim: DeclaredClaim | None = None,
                      claim_conversion: str | None = None,
                      libraries: Sequence[LibraryVersion] = ()) -> BlackboxReport:
    """``report`` with the declaration fields set (see the module docstring); a defaulted
    relation (``relation_source="default"``) adds :data:`DEFAULTED_RELATION` to the warnings
    (once), an overridden declared one (``"override"``) :data:`OVERRIDDEN_RELATION`.  Pure:
    returns a new report."""
    if relation_source not in (None, "given", "declared", "default", "override"):
        raise InvalidArgument(f"relation_source={relation_source!r} must be given, declared, "
                              "default, override or None")
    warnings = report.warnings
    if relation_source == "default" and DEFAULTED_RELATION not in warnings:
        warnings = (DEFAULTED_RELATION, *warnings)
    if relation_source == "override" and OVERRIDDEN_RELATION not in warnings:
        warnings = (OVERRIDDEN_RELATION, *warnings)
    return replace(report, relation_source=relation_source, declared_claim=declared_claim,
                   claim_conversion=claim_conversion, libraries=tuple(libraries),
                   warnings=warnings)
