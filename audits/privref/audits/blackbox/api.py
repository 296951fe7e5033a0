"""A pytest-friendly assertion for other projects' test suites.

Example::

    from privref.audits.blackbox.api import assert_private

    def my_rr(data, rng):
        return data[0] if rng.random() < 0.75 else 1 - data[0]

    def test_rr_is_ln3_dp():
        assert_private(my_rr, epsilon="ln(3)", pairs=[([0], [1])], samples=20_000)

``neighboring_pairs`` is :func:`privref.reference.strategies.neighboring_pairs` (a hypothesis
strategy for neighboring inputs), re-exported for convenience *lazily*: it is imported on first
access (module ``__getattr__``), so importing this module never imports hypothesis.  Import it
from :mod:`privref.reference.strategies` in new code.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from fractions import Fraction

from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import NeighborRelation
from privref.reference.privacy import PrivacyClaim, parse_epsilon
from privref.reference.reals import Real
from privref.reference.validate import ExactInput, check_delta, to_fraction

from .config import check_relation
from .declarations import audited_point, relation_in_force, search_space
from .report import FLOAT_LEAK, BlackboxReport, BlackboxVerdict, with_declarations
from .runner import AuditConfig, Estimator, check_pairs, run_audit
from .search import SearchSpace
from .sequential import default_first_round, run_sequential_audit, schedule
from .target import DEFAULT_TIMEOUT, check_timeout, target_from_callable

__all__ = ["assert_private", "audit_callable"]


def __getattr__(name: str) -> object:
    """``neighboring_pairs``, imported from privref.reference.strategies on first access (it needs
    hypothesis, which the auditor itself never imports)."""
    if name == "neighboring_pairs":
        from privref.reference.strategies import neighboring_pairs

        return neighboring_pairs
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _exact(value: object, name: str) -> object:
    """A float becomes its exact binary value (a Fraction); anything else is returned unchanged.

    Sound: every finite float is a dyadic rational, and that rational is what the float
    denotes.  NaN and infinities raise InvalidArgument naming ``name``.
    """
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidArgument(f"{name}={value!r} must be a finite number")
        return Fraction(value)
    return value


def _pairs(pairs: object) -> list[tuple[tuple[Hashable, ...], tuple[Hashable, ...]]] | None:
    if pairs is None:
        return None
    if isinstance(pairs, str | bytes) or not isinstance(pairs, Sequence):
        raise InvalidArgument(f"pairs={pairs!r} must be a list of pairs (a, b) of datasets")
    out = []
    for p in pairs:
        if isinstance(p, str | bytes) or not isinstance(p, Sequence) or len(p) != 2:
            raise InvalidArgument(f"pairs entry {p!r} must be a pair (a, b) of datasets")
        a, b = p
        for d in (a, b):
            if isinstance(d, str | bytes) or not isinstance(d, Sequence):
                raise InvalidArgument(f"pairs entry {p!r} must be a pair (a, b) of datasets "
                                      f"(lists or tuples), not of {type(d).__name__}")
        out.append((tuple(a), tuple(b)))
    return out


def assert_private(mechanism: object, *, epsilon: Real | ExactInput | None = None,
                   delta: ExactInput | None = None,
                   pairs: Sequence[tuple[Sequence[Hashable], Sequence[Hashable]]] | None = None,
                   samples: int = 20_000, confidence: ExactInput = Fraction(95, 100), seed: int = 0,
                   workers: int = 1, search: SearchSpace | None = None,
                   estimator: Estimator | None = None, float_events: bool = True,
                   relation: NeighborRelation | str | None = None, group: int = 1,
                   timeout: float | None = DEFAULT_TIMEOUT,
                   override_relation: bool = False, sequential: bool = False,
                   first_round: int | None = None) -> BlackboxReport:
    """Assert that no black-box evidence contradicts ``(epsilon, delta)``-DP; return the report.

    ``mechanism`` is a ``(data, rng)`` (or vectorized ``(data, rng, size)``)
    callable or a :class:`privref.reference.mechanism.Mechanism` (audited through its
    exact sampler).  ``epsilon`` accepts exact forms ('1/2', 'ln(3)', Fraction,
    Real); ``epsilon``, ``delta`` and ``confidence`` also accept floats, taken at
    their exact binary value (0.95 is 4278419646001971/4503599627370496; the
    report records it).  Without ``epsilon`` the claim the mechanism declares
    is audited (``privref_claim`` / :func:`privref.audits.blackbox.declarations.declare`;
    a ρ-zCDP or profile claim at the point ``audited_point`` gives at ``delta``;
    ``delta`` defaults to the declared one, else 0).  ``pairs`` are datasets
    neighboring under ``relation`` (a class of privref.reference.neighbors or
    its name; default: the relation the mechanism declares, else substitution,
    with a warning in the report; a ``relation`` contradicting the declared one raises
    InvalidArgument unless ``override_relation=True``, which the report records as
    ``relation_source="override"`` with a warning), or within distance ``group`` when
    ``group > 1``
    (the tested claim is then the group claim); anything else raises
    NotNeighboring, never a verdict.  Without pairs the declared pairs are
    used, else a neighbor search runs over ``search`` (default: ``relation``
    over the declared domain, clamp bounds included, else {0, 1}; sizes 1 to 3).  The seed
    defaults to 0 so test suites are deterministic.  ``float_events=False``
    leaves out the events that read the bits of float outputs (an audit of
    the algorithm as if it ran in real arithmetic).  ``timeout``: seconds one
    call of the mechanism may take (TargetTimeout beyond; None: no limit).
    ``sequential=True`` spends ``samples`` in rounds of fresh draws (``first_round``, doubling;
    :func:`privref.audits.blackbox.sequential.run_sequential_audit`) and stops at the first
    round that proves a violation, at the same confidence; ``first_round`` without
    ``sequential``, or above ``samples``, raises InvalidArgument before any draw.

    Raises AssertionError when the lower bound exceeds the claim at the
    stated confidence; the message shows the witness pair, the event, the
    counts and the bound, and names a floating-point leak (Mironov 2012) when
    the event reads float bits.  A falsely raised AssertionError happens with
    probability at most ``1 - confidence`` (for a truly private mechanism).
    Passing is no proof of privacy.
    """
    report = audit_callable(mechanism, epsilon=epsilon, delta=delta, pairs=pairs, samples=samples,
                            confidence=confidence, seed=seed, workers=workers, search=search,
                            estimator=estimator, float_events=float_events, relation=relation,
                            group=group, timeout=timeout, override_relation=override_relation,
                            sequential=sequential, first_round=first_round)
    if report.verdict is BlackboxVerdict.VIOLATION:
        w = report.witness
        assert w is not None
        leak = (f"\n  {FLOAT_LEAK}\n  event counts: {dict(w.estimate.counts)}"
                if report.float_leak else "")
        raise AssertionError(
            f"{report.target} is not ({report.claimed_epsilon}, {report.claimed_delta})-DP: "
            f"epsilon >= "
            f"{report.epsilon_lower_bound:.6g} with confidence {report.confidence}\n"
            f"  witness pair: {list(w.pair[0])!r} vs {list(w.pair[1])!r} ({w.estimate.direction})\n"
            f"  event: {w.estimate.event}\n"
            f"  counts: {dict(w.estimate.counts)}\n"
            f"  samples: {report.samples} per side, seed {report.seed}" + leak
            + ("" if report.sequential is None else
               f"\n  sequential: {report.samples_used} of {report.sequential.budget} samples per "
               f"side used in {len(report.sequential.rounds)} round(s)"))
    return report


def audit_callable(mechanism: object, *, epsilon: Real | ExactInput | None = None,
                   delta: ExactInput | None = None,
                   pairs: Sequence[tuple[Sequence[Hashable], Sequence[Hashable]]] | None = None,
                   samples: int = 20_000, confidence: ExactInput = Fraction(95, 100), seed: int = 0,
                   workers: int = 1, search: SearchSpace | None = None,
                   estimator: Estimator | None = None, float_events: bool = True,
                   relation: NeighborRelation | str | None = None, group: int = 1,
                   timeout: float | None = DEFAULT_TIMEOUT,
                   override_relation: bool = False, sequential: bool = False,
                   first_round: int | None = None) -> BlackboxReport:
    """The audit :func:`assert_private` makes, without its assertion: the report, whatever the
    verdict (a VIOLATION is returned, not raised).  Same parameters (one list: a test checks that
    the two signatures are equal), defaults, validation and guarantee as :func:`assert_private`:
    for a mechanism that satisfies the claim, a complete report's VIOLATION has probability at
    most ``1 - confidence``.
    """
    if not isinstance(sequential, bool):
        raise InvalidArgument(f"sequential={sequential!r} must be True or False")
    if not sequential and first_round is not None:
        raise InvalidArgument(f"first_round={first_round!r} needs sequential=True")
    if sequential and isinstance(samples, int) and not isinstance(samples, bool):
        schedule(samples, default_first_round(samples) if first_round is None else first_round)
    target = target_from_callable(mechanism)
    given_delta = None if delta is None else check_delta(_exact(delta, "delta"))
    conversion = None
    if epsilon is not None:
        claim = PrivacyClaim(parse_epsilon(_exact(epsilon, "epsilon")), given_delta or Fraction(0))
    elif target.claim is not None:
        point = audited_point(target.claim, given_delta)
        claim, conversion = point.claim, point.conversion
    else:
        raise InvalidArgument(f"epsilon is required: the mechanism {target.name} declares no "
                              "privacy claim (privref_claim / declare(epsilon=...))")
    conf = to_fraction(_exact(confidence, "confidence"), "confidence")
    rel, source = relation_in_force(check_relation(relation), target.relation, override_relation)
    if timeout is not None:
        timeout = check_timeout(timeout)
    given = _pairs(pairs)
    if given is None and target.pairs and search is None:
        given = [(tuple(a), tuple(b)) for a, b in target.pairs]
    if search is None and given is None:
        search = search_space(target.domain, rel)
    config = AuditConfig(claim, confidence=conf, samples=samples,
                         seed=seed, workers=workers, search=search or SearchSpace(),
                         float_events=float_events, relation=rel, group=group, timeout=timeout,
                         override_relation=source == "override")
    if given is not None:  # checked here so that errors name the API argument; run_audit
        check_pairs(given, rel, config.group, name="pairs entry",  # drops duplicates, warns
                    defaulted=source == "default")
    if sequential:
        audited = run_sequential_audit(target, config, given, first_round=first_round,
                                       estimator=estimator)
    else:
        audited = run_audit(target, config, given, estimator=estimator)
    report = with_declarations(audited,
                               relation_source=source,
                               declared_claim=target.claim if epsilon is None else None,
                               claim_conversion=conversion, libraries=target.libraries)
    return report
