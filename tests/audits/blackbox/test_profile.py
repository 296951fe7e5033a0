"""Audits of several (epsilon, delta) points of a privacy profile under one confidence budget.

Deterministic (fixed seeds).  False-positive rate of the "true profile is not flagged" check:
each of the k points is bounded at alpha/k, so at most alpha = 0.05 over the seeds.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from privref.audits.blackbox.estimate import conclude_views, plan_views
from privref.audits.blackbox.runner import AuditConfig, audited_points, run_audit, sample_pair
from privref.audits.blackbox.target import target_from_callable
from privref.reference.accounting import analytic_gaussian_delta
from privref.reference.errors import InvalidArgument
from privref.reference.reals import Real, rational

from ...stats import AUDIT_CONFIDENCE


def gauss(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
    return sum(data) + rng.normal(0.0, 1.0, size)  # sigma = 1, sensitivity 1


TARGET = target_from_callable(gauss, "gauss")
PAIR = ((0,), (1,))


def true_point(eps: Fraction) -> tuple[Real, Fraction]:
    """(eps, delta) with delta at or above the mechanism's exact delta(eps) (Balle-Wang)."""
    upper = analytic_gaussian_delta(eps, 1, 1).hi
    return rational(eps), Fraction(upper).limit_denominator(10**12) + Fraction(1, 10**12)


def config(points: tuple[tuple[Real, Fraction], ...], **kw: object) -> AuditConfig:
    eps, delta = true_point(Fraction(1))
    base: dict[str, object] = {"confidence": AUDIT_CONFIDENCE,
                               "epsilon": eps, "delta": delta, "samples": 60_000, "seed": 5,
                               "float_events": False, "points": points}
    base.update(kw)
    return AuditConfig(**base)  # type: ignore[arg-type]


def test_every_point_gets_its_share_and_is_the_planned_estimate() -> None:
    points = (true_point(Fraction(1, 2)), true_point(Fraction(2)))
    cfg = config(points)
    report = run_audit(TARGET, cfg, [PAIR])
    w = report.witness
    assert w is not None and len(w.profile) == 3
    tested = audited_points(cfg)
    a, b = sample_pair(TARGET, PAIR, samples=60_000, seed=5, chunk_size=cfg.chunk(TARGET))
    share = w.alpha / 3
    for point, (eps, delta) in zip(w.profile, tested, strict=True):
        assert (point.epsilon, point.delta) == (eps, delta)
        assert point.estimate.alpha == float(share)
        chosen, split = plan_views(a.values[:30_000], b.values[:30_000], held_a=30_000,
                                   held_b=30_000, delta=delta, alpha=share, float_events=False)
        hits = [(c.event.count(a.values[30_000:]), c.event.count(b.values[30_000:]))
                for c in chosen]
        ieee, real = conclude_views(chosen, hits, split, held_a=30_000, held_b=30_000,
                                    selection_a=30_000, selection_b=30_000, epsilon=eps,
                                    delta=delta, alpha=share)
        assert point.estimate == ieee.estimate and real is None
    assert w.estimate == w.profile[0].estimate
    assert report.verdict is not None and report.verdict.value == "NO_VIOLATION_FOUND"
    assert "profile point    (0.5," in report.summary()
    assert len(report.to_json()["pairs"][0]["profile"]) == 3


def test_one_overclaimed_point_is_found_and_named() -> None:
    # at delta(2) the mechanism's epsilon is 2; claiming 1/2 there is false
    _, delta_at_2 = true_point(Fraction(2))
    report = run_audit(TARGET, config((true_point(Fraction(1, 2)),
                                       (rational(Fraction(1, 2)), delta_at_2))), [PAIR])
    w = report.witness
    assert w is not None and report.verdict is not None
    assert report.verdict.value == "VIOLATION"
    assert [p.violation for p in w.profile] == [False, False, True]
    assert 1 / 2 < w.profile[2].estimate.epsilon_lower_bound <= 2


def test_points_are_validated_and_need_the_default_estimator() -> None:
    with pytest.raises(InvalidArgument, match=r"points: .* must be an exact Real epsilon"):
        config(((1.0, Fraction(1, 10)),))  # type: ignore[arg-type]  # deliberately wrong
    with pytest.raises(InvalidArgument, match=r"points must be a tuple of at most 63"):
        config(tuple(true_point(Fraction(1)) for _ in range(64)))
    from privref.audits.blackbox.estimate import estimate_pair
    with pytest.raises(InvalidArgument, match=r"a custom estimator tests one"):
        run_audit(TARGET, config((true_point(Fraction(2)),)), [PAIR], estimator=estimate_pair)


def test_group_privacy_transforms_every_point() -> None:
    cfg = config(((rational(Fraction(1, 2)), Fraction(0)),), group=2)
    eps, delta = audited_points(cfg)[1]
    assert eps.exact == 1 and delta == 0  # (1/2, 0) for a group of 2 is (1, 0)
