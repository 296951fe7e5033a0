"""The parameters of one black-box audit: :class:`AuditConfig`, its limits, and the claim tested.

The claim is one of the claim family of :mod:`privref.reference.privacy` (:data:`Claim`: an
(epsilon, delta) :class:`PrivacyClaim`, pure when delta = 0, a :class:`ZCDPClaim` or a
:class:`ProfileClaim`), validated when the config is built, before any sampling: a negative,
NaN or infinite epsilon, a delta outside [0, 1), a rho <= 0 raise InvalidArgument naming the
argument.  ``AuditConfig(epsilon=..., delta=...)`` still builds the (epsilon, delta) claim.

Limits: ``samples`` <= MAX_SAMPLES per side, ``workers`` <= MAX_WORKERS,
datasets of at most MAX_DATASET_SIZE entries, ``seed`` < 2**128,
``confidence`` <= 1 - 10**-15, at most MAX_POINTS tested points, and a per-call ``timeout``
(audits.blackbox.target).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.neighbors import (
    AddRemove,
    LabelSubstitution,
    LInf,
    NeighborRelation,
    PublicPrivate,
    Substitution,
)
from privref.reference.privacy import (
    Claim,
    GDPClaim,
    PrivacyClaim,
    ZCDPClaim,
    check_claim,
    group_privacy,
    parse_epsilon,
)
from privref.reference.reals import Order, Real, compare, log, rational
from privref.reference.validate import ExactInput, check_delta

from .curves import CurveRequest
from .declarations import audited_point, profile_points
from .engines import BACKENDS
from .search import RELATIONS, SearchSpace, relation_from_name
from .target import DEFAULT_TIMEOUT, Target, check_timeout

__all__ = [
    "DEFAULT_SELECTION_CAP",
    "MAX_CONFIDENCE",
    "MAX_DATASET_SIZE",
    "MAX_IN_MEMORY",
    "MAX_POINTS",
    "MAX_SAMPLES",
    "MAX_SEED",
    "MAX_WORKERS",
    "AuditConfig",
    "PointInput",
    "audited_claim",
    "audited_points",
    "check_distinct_points",
    "check_relation",
    "claim_points",
    "limit_text",
    "low_power",
]

MAX_SAMPLES = 10**10
"""Largest ``samples`` per side and pair (the streaming estimator's memory does not grow with it)."""

MAX_IN_MEMORY = 10**8
"""Largest ``samples`` when every outcome is kept (a custom estimator, or the witness samples for
the HTML report): about 1.6 GB of float outcomes for one pair."""

MAX_POINTS = 64
"""Most (epsilon, delta) points one audit tests (AuditConfig.points plus the headline point)."""

DEFAULT_SELECTION_CAP = 2**20
"""Default cap of the selection split per side (the only outcomes the default estimator keeps)."""

MAX_WORKERS = 4 * (os.cpu_count() or 1)
"""Largest ``workers``: four per core."""

MAX_SEED = 2**128 - 1
"""Largest seed (numpy's SeedSequence entropy is taken as 128 bits here)."""

MAX_CONFIDENCE = 1 - Fraction(1, 10**15)
"""Largest confidence: 1 - 10**-15 (beyond it the float proposals of audits.stats underflow)."""

MAX_DATASET_SIZE = 10_000
"""Longest dataset in a given pair."""

PointInput = PrivacyClaim | tuple[Real, Fraction]
"""A further tested point: a :class:`PrivacyClaim`, or (legacy) an (exact Real, Fraction) pair."""

_RELATION_TYPES = (Substitution, AddRemove, LInf, LabelSubstitution, PublicPrivate)
_RELATION_ALLOWED = (f"None, a name ({', '.join(RELATIONS)}) or a relation of "
                     "privref.reference.neighbors")


def check_relation(value: object, name: str = "relation") -> NeighborRelation | None:
    """``value`` as a neighbor relation (None stays None; a name such as ``"add-remove"`` is
    looked up); InvalidArgument naming ``name`` and the accepted values otherwise."""
    if value is None or isinstance(value, _RELATION_TYPES):
        return value
    if isinstance(value, str):
        return relation_from_name(value, name)
    raise InvalidArgument(f"{name}={value!r} must be {_RELATION_ALLOWED}")


def _same_point(p: PrivacyClaim, q: PrivacyClaim) -> bool:
    if p.delta != q.delta:
        return False
    return str(p.epsilon) == str(q.epsilon) or compare(p.epsilon, q.epsilon)[0] is Order.EQUAL


def check_distinct_points(tested: tuple[PrivacyClaim, ...], own: int) -> None:
    """Refuse a repeated (epsilon, delta) point (InvalidArgument naming ``points`` / ``--point``):
    each tested point gets an equal share of the confidence, so a repeat would only split it.
    ``own`` is how many leading points are the claim's own (the rest are ``points``)."""
    for j in range(own, len(tested)):
        for i in range(j):
            if _same_point(tested[i], tested[j]):
                first = (f"points[{i - own}]" if i >= own else "the claim's own point"
                         if own == 1 else f"the claim's point {i}")
                raise InvalidArgument(
                    f"points[{j - own}] (CLI: --point) ({tested[j].epsilon}, {tested[j].delta}) "
                    f"repeats {first}; each (epsilon, delta) point may be tested once (a repeat "
                    "would only split the confidence)")


def claim_points(claim: Claim) -> tuple[PrivacyClaim, ...]:
    """The (epsilon, delta) points an audit of ``claim`` tests, the headline point first.

    An (epsilon, delta) claim is its own point; a ρ-zCDP claim with a delta is converted at it
    (:func:`privref.audits.blackbox.declarations.audited_point`); a ρ-zCDP claim without one,
    and a profile, are tested at every point of
    :func:`~privref.audits.blackbox.declarations.profile_points` (each point implied by the claim).
    """
    if isinstance(claim, PrivacyClaim):
        return (claim,)
    if isinstance(claim, ZCDPClaim | GDPClaim) and claim.delta is not None:
        return (audited_point(claim, None).claim,)
    return tuple(p.claim for p in profile_points(claim))


def _point(value: object, i: int) -> PrivacyClaim:
    if isinstance(value, PrivacyClaim):
        return value
    if isinstance(value, tuple) and len(value) == 2:
        eps, delta = value
        if isinstance(eps, Real) and isinstance(delta, Fraction | int) \
                and not isinstance(delta, bool) and 0 <= delta < 1:
            try:
                return PrivacyClaim(eps, Fraction(delta))
            except PrivrefError as exc:
                raise InvalidArgument(f"points[{i}]: {exc}") from None
    raise InvalidArgument(f"points: {value!r} must be an exact Real epsilon and a Fraction "
                          "delta in [0, 1), or a PrivacyClaim")


@dataclass(frozen=True, slots=True, init=False)
class AuditConfig:
    """Parameters of one black-box audit (validated at construction, before any sampling).

    ``claim`` is the claim audited (:data:`privref.reference.privacy.Claim`); instead of it,
    ``epsilon`` and ``delta`` (exact inputs: '1/2', 'ln(3)', a Real, a Fraction, a float at its
    exact binary value) build the (epsilon, delta) claim.  :attr:`epsilon` and :attr:`delta`
    are the headline point tested (:func:`claim_points`).  ``samples`` is per side and per
    confirmed pair; ``screening_samples`` defaults to ``min(samples, max(1000, samples // 10))``.
    ``confirm`` is how many candidates are confirmed on fresh samples after screening.
    ``float_events=False`` makes the default estimator leave out the IEEE-754
    pattern events (the real-arithmetic view; audits.blackbox.features).
    ``relation`` is the neighbor relation given pairs must satisfy (a relation or its name;
    None: :func:`~privref.audits.blackbox.runner.run_audit` uses the target's declared
    relation, else substitution with a warning; given pairs are always checked; a relation
    that differs from the target's declared one is refused by run_audit unless
    ``override_relation``, which the report's warnings record);
    ``group = k`` accepts pairs within distance
    k and tests the group claim (see :func:`audited_claim`).  ``timeout`` is
    the per-call limit in seconds (None: none).  ``backend`` is where chunks
    run: "local" (in-process, or a process pool of ``workers``) or "dask" (a
    local Dask cluster of ``workers`` processes, or the scheduler at
    ``scheduler``); the results do not depend on it.  ``selection_cap`` bounds
    the selection split of the default (streaming) estimator per side.
    ``points`` are further (epsilon, delta) points of the claim's privacy
    profile (:class:`PrivacyClaim`s), tested together with the claim's own points
    under the one confidence budget: each of the k points gets alpha/k (see
    :func:`audited_points`); a point repeated (also one of the claim's own) is refused.
    ``curves`` (a :class:`~privref.audits.blackbox.curves.CurveRequest`; None: none) asks the
    default estimator for the δ(ε), μ-GDP, Rényi and ρ lower bounds of
    :mod:`privref.audits.blackbox.curves` from the confirmed pairs' events, at no extra
    confidence (the report's ``curves``).
    ``progress`` is a hint for front ends (the command line shows
    its terminal bar when it is set); :func:`~privref.audits.blackbox.runner.run_audit` reports
    progress only to the callback it is given.  Limits: see the module docstring.
    """

    claim: Claim
    confidence: Fraction
    samples: int
    seed: int
    workers: int
    checkpoint: Path | None
    progress: bool
    screening_samples: int | None
    confirm: int
    search: SearchSpace
    chunk_size: int | None
    float_events: bool
    relation: NeighborRelation | None
    override_relation: bool
    group: int
    timeout: float | None
    backend: str
    scheduler: str | None
    selection_cap: int
    points: tuple[PrivacyClaim, ...]
    curves: CurveRequest | None
    _tested: tuple[PrivacyClaim, ...] = field(init=False, repr=False, compare=False)

    def __init__(self, claim: Claim | None = None, *,
                 epsilon: Real | ExactInput | None = None, delta: ExactInput | None = None,
                 confidence: Fraction | int = Fraction(95, 100), samples: int = 100_000,
                 seed: int = 0, workers: int = 1, checkpoint: Path | None = None,
                 progress: bool = False, screening_samples: int | None = None, confirm: int = 3,
                 search: SearchSpace | None = None, chunk_size: int | None = None,
                 float_events: bool = True, relation: NeighborRelation | str | None = None,
                 override_relation: bool = False,
                 group: int = 1, timeout: float | None = DEFAULT_TIMEOUT, backend: str = "local",
                 scheduler: str | None = None, selection_cap: int = DEFAULT_SELECTION_CAP,
                 points: tuple[PointInput, ...] = (),
                 curves: CurveRequest | None = None) -> None:
        """Build and validate (InvalidArgument naming the argument; see the class docstring)."""
        if claim is not None and (epsilon is not None or delta is not None):
            raise InvalidArgument("give claim= or epsilon=/delta=, not both")
        if claim is None:
            if epsilon is None:
                raise InvalidArgument("claim= (or epsilon=) is required: the claim to audit")
            claim = PrivacyClaim(parse_epsilon(epsilon, "epsilon"),
                                 check_delta(0 if delta is None else delta, "delta"))
        if not isinstance(points, tuple) or len(points) > MAX_POINTS - 1:
            raise InvalidArgument(f"points must be a tuple of at most {MAX_POINTS - 1} "
                                  "(epsilon, delta) points")
        relation = check_relation(relation)
        if isinstance(checkpoint, str) and checkpoint:
            checkpoint = Path(checkpoint)
        values = {"claim": claim, "confidence": confidence, "samples": samples, "seed": seed,
                  "workers": workers, "checkpoint": checkpoint, "progress": progress,
                  "screening_samples": screening_samples, "confirm": confirm,
                  "search": SearchSpace() if search is None else search,
                  "chunk_size": chunk_size, "float_events": float_events, "relation": relation,
                  "override_relation": override_relation,
                  "group": group, "timeout": timeout, "backend": backend,
                  "scheduler": scheduler, "selection_cap": selection_cap,
                  "points": tuple(_point(p, i) for i, p in enumerate(points)),
                  "curves": curves}
        for name, value in values.items():
            object.__setattr__(self, name, value)
        self.__post_init__()

    def __post_init__(self) -> None:
        """Validate every field (also re-run by run_audit before any sampling): InvalidArgument
        naming the field and the accepted values."""
        check_claim(self.claim)
        if not isinstance(self.points, tuple):
            raise InvalidArgument(f"points={self.points!r} must be a tuple of PrivacyClaim")
        for i, p in enumerate(self.points):
            if not isinstance(p, PrivacyClaim):
                raise InvalidArgument(f"points[{i}]={p!r} must be a PrivacyClaim")
            check_claim(p, f"points[{i}]")
        for name in ("progress", "float_events", "override_relation"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidArgument(f"{name}={getattr(self, name)!r} must be True or False")
        if self.checkpoint is not None and not isinstance(self.checkpoint, Path):
            raise InvalidArgument(f"checkpoint={self.checkpoint!r} must be None or a file path "
                                  "(a pathlib.Path or a non-empty str)")
        if self.relation is not None and not isinstance(self.relation, _RELATION_TYPES):
            raise InvalidArgument(f"relation={self.relation!r} must be {_RELATION_ALLOWED}")
        if not isinstance(self.confidence, Fraction | int) or isinstance(self.confidence, bool):
            raise InvalidArgument(f"confidence={self.confidence!r} must be an exact Fraction")
        if not 0 < self.confidence < 1:
            raise InvalidArgument(f"confidence={self.confidence} must lie in (0, 1)")
        if self.confidence > MAX_CONFIDENCE:
            raise InvalidArgument(f"confidence={self.confidence} must be <= 1 - 10**-15")
        for name, value, low, high in (("samples", self.samples, 2, MAX_SAMPLES),
                                       ("workers", self.workers, 1, MAX_WORKERS),
                                       ("confirm", self.confirm, 1, 1000),
                                       ("seed", self.seed, 0, MAX_SEED),
                                       ("group", self.group, 1, 1000),
                                       ("selection_cap", self.selection_cap, 1, MAX_SAMPLES)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise InvalidArgument(f"{name}={value!r} must be an int >= {low}")
            if value > high:
                raise InvalidArgument(f"{name}={limit_text(value)} must be <= {limit_text(high)}")
        if self.timeout is not None:
            check_timeout(self.timeout)
        if not isinstance(self.search, SearchSpace):
            raise InvalidArgument(f"search={self.search!r} must be a SearchSpace")
        if self.backend not in BACKENDS:
            raise InvalidArgument(f"backend={self.backend!r} must be one of {', '.join(BACKENDS)}")
        if self.scheduler is not None and (self.backend != "dask" or not isinstance(
                self.scheduler, str) or not self.scheduler):
            raise InvalidArgument(f"scheduler={self.scheduler!r} needs backend='dask' and an "
                                  "address such as 'tcp://host:8786'")
        for name, opt in (("screening_samples", self.screening_samples),
                          ("chunk_size", self.chunk_size)):
            if opt is not None and (isinstance(opt, bool) or not isinstance(opt, int) or opt < 1):
                raise InvalidArgument(f"{name}={opt!r} must be an int >= 1")
            if opt is not None and opt > MAX_SAMPLES:
                raise InvalidArgument(f"{name}={limit_text(opt)} must be <= {limit_text(MAX_SAMPLES)}")
        if self.curves is not None and not isinstance(self.curves, CurveRequest):
            raise InvalidArgument(f"curves={self.curves!r} must be None or a CurveRequest")
        tested = (*claim_points(self.claim), *self.points)
        if len(tested) > MAX_POINTS:
            raise InvalidArgument(f"points: the claim's {len(tested) - len(self.points)} points "
                                  f"and {len(self.points)} given make {len(tested)}; at most "
                                  f"{MAX_POINTS}")
        check_distinct_points(tested, len(tested) - len(self.points))
        object.__setattr__(self, "_tested", tested)

    @property
    def epsilon(self) -> Real:
        """The headline point's epsilon (the claim's own for an (epsilon, delta) claim)."""
        return self._tested[0].epsilon

    @property
    def delta(self) -> Fraction:
        """The headline point's delta (the claim's own for an (epsilon, delta) claim)."""
        return self._tested[0].delta

    @property
    def tested(self) -> tuple[PrivacyClaim, ...]:
        """Every point tested before the group transform: the claim's, then ``points``."""
        return self._tested

    @property
    def screening(self) -> int:
        """Samples per side per candidate in the screening stage."""
        if self.screening_samples is not None:
            return self.screening_samples
        return min(self.samples, max(1000, self.samples // 10))

    def chunk(self, target: Target) -> int:
        """Outcomes per chunk for ``target``."""
        return self.chunk_size or (2**14 if target.vectorized else 2**11)


def limit_text(n: int) -> str:
    """A limit for messages: n as digits, or as 10**k when it is an exact power of ten above
    10**6 (and 2**128 - 1 as such)."""
    if n > 10**6:
        k = len(str(n)) - 1
        if n == 10**k:
            return f"10**{k}"
        if n == 2**128 - 1:
            return "2**128 - 1"
    return str(n)



def audited_claim(config: AuditConfig) -> tuple[Real, Fraction]:
    """The claim the audit tests: config's (epsilon, delta), or for ``group = k`` the group claim.

    Group privacy: (epsilon, delta)-DP implies (k·epsilon, delta·Σ_{j<k} e^{j·epsilon})-DP
    for datasets at distance k (reference.privacy.group_privacy; the delta factor rounded up,
    so the tested claim is implied by the stated one).  A vacuous result (delta >= 1) raises
    InvalidArgument naming ``--group``; e^epsilon is never computed when delta = 0.
    """
    return _group_point(config.epsilon, config.delta, config.group)


def audited_points(config: AuditConfig) -> tuple[tuple[Real, Fraction], ...]:
    """Every (epsilon, delta) point the audit tests: :func:`audited_claim`, then the rest of
    ``config.tested`` (the claim's further points, then ``config.points``).

    Each point is transformed like the headline one for ``group = k``; each of the k points is
    tested at alpha/k, so with probability >= 1 - alpha no point is falsely reported violated.
    """
    return tuple(_group_point(p.epsilon, p.delta, config.group) for p in config.tested)


def _group_point(epsilon: Real, delta: Fraction, k: int) -> tuple[Real, Fraction]:
    if k == 1:
        return epsilon, delta
    if delta == 0:
        return epsilon * k, Fraction(0)
    # delta·e^{(k-1)·epsilon} <= the new delta; vacuous once it reaches 1 (checked on an
    # enclosure first, so that a huge epsilon never reaches the exact exponential)
    lo = (epsilon * (k - 1)).enclose(64).lo
    if lo > 50_000 or compare(log(rational(delta)) + rational(lo), rational(1))[0] \
            is Order.GREATER:  # delta·e^lo > e, decided exactly (no float)
        raise InvalidArgument(f"--group={k} with delta={delta}: the group claim's delta "
                              f"delta·Σ e^(j·epsilon) is >= 1, which is vacuous")
    try:
        claim = group_privacy(PrivacyClaim(epsilon, delta), k)
    except InvalidArgument as exc:
        raise InvalidArgument(f"--group={k}: {exc}") from None
    return claim.epsilon, claim.delta


def low_power(config: AuditConfig, pairs: int, held: int | None = None) -> str | None:
    """The LOW-POWER warning, or None: can the default estimator find a violation at all?

    With n = ``samples`` per side, the default estimator bounds its event on the held-out half
    (n - n//2 draws per side; ``held`` when given, e.g. n for a sequential round that selected
    on earlier rounds' outcomes) at alpha/(2·pairs) per side.  The most extreme counts, every
    held-out draw of P inside the event and none of Q, give the largest possible ratio
    (cp_lower(h, h) - delta)/cp_upper(0, h); when even that is <= e^epsilon (exact comparison),
    no outcome of the audit can be VIOLATION.
    """
    from .estimate import bound_ratio, epsilon_from_ratio, exceeds

    eps, delta = audited_claim(config)
    n = config.samples
    held = n - n // 2 if held is None else held
    alpha_side = (1 - config.confidence) / pairs / 2
    ratio = bound_ratio(held, held, 0, held, delta=delta, alpha_side=alpha_side)
    if exceeds(ratio, eps):
        return None
    return (f"LOW-POWER: samples={n} per side cannot detect a violation of the claim: even the "
            f"most extreme counts ({held} of {held} held-out draws in the event on one side, 0 on "
            f"the other) give an epsilon lower bound of at most {epsilon_from_ratio(ratio):.4g}, "
            f"not above the claimed {float(eps):.4g} at confidence {config.confidence} over "
            f"{pairs} pair(s); NO_VIOLATION_FOUND means nothing here: raise --samples")

