"""A pytest-friendly assertion for other projects' test suites.

Example::

    from privref.audits.blackbox.api import assert_private

    def my_rr(data, rng):
        return data[0] if rng.random() < 0.75 else 1 - data[0]

    def test_rr_is_ln3_dp():
        assert_private(my_rr, epsilon="ln(3)", pairs=[([0], [1])], samples=20_000)

:data:`neighboring_pairs` is :func:`privref.reference.strategies.neighboring_pairs`
(hypothesis strategy for neighboring inputs), re-exported for convenience.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction

from privref.reference.errors import InvalidArgument
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import AddRemove
from privref.reference.privacy import parse_epsilon
from privref.reference.strategies import neighboring_pairs
from privref.reference.validate import check_delta, to_fraction

from .report import BlackboxReport, BlackboxVerdict
from .runner import AuditConfig, Estimator, run_audit
from .search import SearchSpace
from .target import target_from_callable

__all__ = ["assert_private", "neighboring_pairs"]


def _pairs(pairs: Sequence[tuple[Sequence[Hashable], Sequence[Hashable]]] | None
           ) -> list[tuple[tuple[Hashable, ...], tuple[Hashable, ...]]] | None:
    if pairs is None:
        return None
    out = []
    for p in pairs:
        if len(p) != 2:
            raise InvalidArgument(f"pairs entry {p!r} must be a pair (a, b) of datasets")
        out.append((tuple(p[0]), tuple(p[1])))
    return out


def assert_private(mechanism: object, *, epsilon: object, delta: object = 0,
                   pairs: Sequence[tuple[Sequence[Hashable], Sequence[Hashable]]] | None = None,
                   samples: int = 20_000, confidence: object = Fraction(95, 100), seed: int = 0,
                   workers: int = 1, search: SearchSpace | None = None,
                   estimator: Estimator | None = None, float_events: bool = True) -> BlackboxReport:
    """Assert that no black-box evidence contradicts ``(epsilon, delta)``-DP; return the report.

    ``mechanism`` is a ``(data, rng)`` (or vectorized ``(data, rng, size)``)
    callable or a :class:`privref.reference.mechanism.Mechanism` (audited through its
    exact sampler; its relation picks the search relation).  ``epsilon``
    accepts exact forms ('1/2', 'ln(3)', Fraction, Real); ``delta`` and
    ``confidence`` are exact numbers (floats are refused).  ``pairs`` are
    neighboring datasets; without them a neighbor search runs over
    ``search`` (default: substitution over {0, 1}, sizes 1 to 3).  The seed
    defaults to 0 so test suites are deterministic.  ``float_events=False``
    leaves out the events that read the bits of float outputs (an audit of
    the algorithm as if it ran in real arithmetic).

    Raises AssertionError when the lower bound exceeds the claim at the
    stated confidence; the message shows the witness pair, the event, the
    counts and the bound.  A falsely raised AssertionError happens with
    probability at most ``1 - confidence`` (for a truly private mechanism).
    Passing is no proof of privacy.
    """
    claim_eps = parse_epsilon(epsilon)
    claim_delta = check_delta(delta)
    conf = to_fraction(confidence, "confidence")
    if search is None:
        add_remove = isinstance(mechanism, Mechanism) and isinstance(mechanism.relation, AddRemove)
        search = SearchSpace(relation="add-remove" if add_remove else "substitution")
    target = target_from_callable(mechanism)
    config = AuditConfig(epsilon=claim_eps, delta=claim_delta, confidence=conf, samples=samples,
                         seed=seed, workers=workers, search=search, float_events=float_events)
    report = run_audit(target, config, _pairs(pairs), estimator=estimator)
    if report.verdict is BlackboxVerdict.VIOLATION:
        w = report.witness
        assert w is not None
        raise AssertionError(
            f"{target.name} is not ({claim_eps}, {claim_delta})-DP: epsilon >= "
            f"{report.epsilon_lower_bound:.6g} with confidence {conf}\n"
            f"  witness pair: {list(w.pair[0])!r} vs {list(w.pair[1])!r} ({w.estimate.direction})\n"
            f"  event: {w.estimate.event}\n"
            f"  counts: {dict(w.estimate.counts)}\n"
            f"  samples: {report.samples} per side, seed {report.seed}")
    return report
