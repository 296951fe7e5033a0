"""Curves from one black-box run (privref.audits.blackbox.curves) and μ-GDP claims.

Truths are derived independently of the code under test: randomized response 3/4 has
δ(ε) = max(0, 3/4 − e^ε/4) and μ = Φ⁻¹(3/4) − Φ⁻¹(1/4) (its trade-off curve is piecewise linear
with one kink at (1/4, 1/4), where G_μ touches it); the Gaussian mechanism of sensitivity 1 and
noise σ has μ = 1/σ (Dong, Roth and Su 2022, Theorem 2.7), δ(ε) from the analytic formula
(mpmath here) and D_α = α/(2σ²).  Counts are typical counts round(n·P) or exact-law binomial
draws with a fixed seed.
"""

from __future__ import annotations

from fractions import Fraction
from statistics import NormalDist
from xml.etree import ElementTree

import mpmath
import numpy as np
import pytest

from privref.app.reports.html_report import render_html
from privref.audits.blackbox.config import AuditConfig, claim_points
from privref.audits.blackbox.curves import (
    CurveRequest,
    EventEvidence,
    claimed_delta,
    curve_bounds,
    delta_lower_bound,
    evidence_of,
    mu_lower_bound,
    renyi_lower_bound,
)
from privref.audits.blackbox.declarations import audited_point, claim_json, claim_text
from privref.audits.blackbox.estimate import conclude_views, plan_views
from privref.audits.blackbox.runner import run_audit
from privref.audits.blackbox.target import target_from_callable
from privref.audits.stats import cp_lower, cp_upper
from privref.reference.errors import InvalidArgument
from privref.reference.privacy import GDPClaim, PrivacyClaim, ZCDPClaim, check_claim
from tests.stats import AUDIT_CONFIDENCE, record

N = NormalDist()
ALPHA_SIDE = Fraction(1, 100)


def _gauss_delta(eps: float, mu: float) -> float:
    """δ_μ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), in mpmath (Dong, Roth and Su 2022, Cor. 2.13)."""
    with mpmath.workdps(40):
        cdf = mpmath.ncdf
        return float(cdf(-eps / mu + mu / 2) - mpmath.exp(eps) * cdf(-eps / mu - mu / 2))


def _typical(p: float, q: float, n: int) -> EventEvidence:
    return EventEvidence("F", round(p * n), n, round(q * n), n, ALPHA_SIDE)


def test_bounds_on_randomized_response_are_below_the_truth_and_close() -> None:
    n = 100_000
    ev = _typical(0.75, 0.25, n)
    p, q = ev.p_lower, ev.q_upper
    true_mu = N.inv_cdf(0.75) - N.inv_cdf(0.25)
    mu = float(mu_lower_bound(p, q))
    assert 0.97 * true_mu < mu < true_mu
    se = (0.75 * 0.25 / n) ** 0.5  # the standard error of each side's frequency
    for eps in (Fraction(0), Fraction(1, 2), Fraction(1)):
        e = float(np.exp(float(eps)))
        truth = max(0.0, 0.75 - e * 0.25)
        got = float(delta_lower_bound(p, q, eps))
        assert truth - 3 * se * (1 + e) < got < truth  # z(1/100) = 2.33 standard errors a side
    # D_α(Bern(3/4) ‖ Bern(1/4)) at α = 2: ln(Σ p²/q) = ln((9/16)/(1/4) + (1/16)/(3/4)) = ln(7/3)
    got = float(renyi_lower_bound(p, q, Fraction(2)))
    assert np.log(7 / 3) - 0.02 < got < np.log(7 / 3)


@pytest.mark.parametrize("sigma", [1.0, 2.0])
def test_bounds_on_the_gaussian_mechanism_are_below_the_truth_and_close(sigma: float) -> None:
    n, t = 1_000_000, 1.0  # event {x > t}: P = N(1, σ²), Q = N(0, σ²)
    p_true, q_true = 1 - N.cdf((t - 1) / sigma), 1 - N.cdf(t / sigma)
    ev = _typical(p_true, q_true, n)
    p, q = ev.p_lower, ev.q_upper
    mu = float(mu_lower_bound(p, q))
    assert 0.98 / sigma < mu < 1 / sigma
    for eps in (Fraction(0), Fraction(1, 4)):
        truth = _gauss_delta(float(eps), 1 / sigma)
        got = float(delta_lower_bound(p, q, eps))
        assert 0 < got < truth  # one threshold event: below the profile, not necessarily close
    got = float(renyi_lower_bound(p, q, Fraction(2)))
    assert 0 < got < 2 / (2 * sigma**2)


def test_the_gaussian_profile_is_approached_by_its_optimal_event() -> None:
    """At ε, the optimal event of N(1, 1) vs N(0, 1) is {x > ε + 1/2}; its bound is close."""
    n = 1_000_000
    for eps in (0.0, 0.5, 1.0):
        t = eps + 0.5
        ev = _typical(1 - N.cdf(t - 1), 1 - N.cdf(t), n)
        truth = _gauss_delta(eps, 1.0)
        got = float(delta_lower_bound(ev.p_lower, ev.q_upper, Fraction(eps)))
        assert truth - 0.005 < got < truth


def test_mu_uses_the_upper_bound_on_q_and_the_lower_bound_on_p() -> None:
    """At typical counts of {x > 2} under N(1, 1) vs N(0, 1) the bound is below μ = 1; with
    q_lo in place of q_hi (a wrong formula) it would be above (Q's quantile is the noisier)."""
    n = 100_000
    ev = _typical(1 - N.cdf(1.0), 1 - N.cdf(2.0), n)
    assert mu_lower_bound(ev.p_lower, ev.q_upper) < 1
    wrong = mu_lower_bound(ev.p_lower, cp_lower(ev.hits_q, n, ALPHA_SIDE))
    assert wrong > 1  # the test above fails if the code used q_lo
    wrong_p = mu_lower_bound(cp_upper(ev.hits_p, n, ALPHA_SIDE), ev.q_upper)
    assert wrong_p > mu_lower_bound(ev.p_lower, ev.q_upper)


def test_coverage_of_the_delta_and_renyi_bounds_on_binomial_draws() -> None:
    """30 exact-law draws of randomized response at n = 2000, bounds at alpha_side = 10^-5: each
    bound exceeds the truth with probability <= 2·10^-5, so 3 or more exceedances have
    probability <= C(30, 3)·(2·10^-5)^3 < 10^-10 (recorded); a bound built from p_hi or q_lo
    exceeds it in about half of the draws."""
    rng = np.random.default_rng(7)
    n, level = 2000, Fraction(1, 10**5)
    over_delta = over_renyi = 0
    truth_delta = 0.75 - float(np.exp(0.5)) * 0.25
    for _ in range(30):
        ev = EventEvidence("F", int(rng.binomial(n, 0.75)), n, int(rng.binomial(n, 0.25)), n,
                           level)
        over_delta += float(delta_lower_bound(ev.p_lower, ev.q_upper, Fraction(1, 2))) > truth_delta
        over_renyi += float(renyi_lower_bound(ev.p_lower, ev.q_upper, Fraction(2))) > np.log(7 / 3)
    record("fit", 2 * Fraction(4060) * (2 * level) ** 3, "curves coverage on RR draws")
    assert over_delta <= 2 and over_renyi <= 2


def test_no_evidence_gives_zero() -> None:
    ev = _typical(0.3, 0.3, 10_000)
    assert mu_lower_bound(ev.p_lower, ev.q_upper) == 0
    assert renyi_lower_bound(ev.p_lower, ev.q_upper, Fraction(3)) == 0
    assert delta_lower_bound(ev.p_lower, ev.q_upper, Fraction(0)) == 0
    assert mu_lower_bound(Fraction(0), Fraction(1, 10)) == 0


def test_curve_bounds_take_the_best_event_and_rho_is_the_best_order() -> None:
    weak, strong = _typical(0.6, 0.4, 100_000), _typical(0.75, 0.25, 100_000)
    request = CurveRequest(epsilons=(Fraction(0), Fraction(1)), orders=(Fraction(2), Fraction(4)))
    cb = curve_bounds([weak, strong], request, confidence=Fraction(9, 10),
                      joint_with_verdict=True)
    assert cb.mu_lower == mu_lower_bound(strong.p_lower, strong.q_upper)
    assert cb.delta_lower[0] == delta_lower_bound(strong.p_lower, strong.q_upper, Fraction(0))
    assert cb.rho_lower == max(r / a for r, a in zip(cb.renyi_lower, cb.orders, strict=True))
    assert cb.to_json()["mu_lower_bound_exact"] == str(cb.mu_lower)


def test_evidence_levels_are_those_of_the_run() -> None:
    """evidence_of gives each event exactly conclude_views' per-side level (no extra spend)."""
    rng = np.random.default_rng(3)
    a, b = rng.normal(0, 1, 4000), rng.normal(1, 1, 4000)
    chosen, split = plan_views(a[:2000], b[:2000], held_a=2000, held_b=2000,
                               delta=Fraction(1, 100), alpha=Fraction(1, 20), float_events=True)
    hits = tuple((int(c.event.count(a[2000:])), int(c.event.count(b[2000:]))) for c in chosen)
    ieee, real = conclude_views(chosen, hits, split, held_a=2000, held_b=2000, selection_a=2000,
                                selection_b=2000, epsilon=1, delta=Fraction(1, 100),
                                alpha=Fraction(1, 20))
    evidence = evidence_of(chosen, hits, split, held_a=2000, held_b=2000, alpha=Fraction(1, 20))
    levels = {ieee.alpha_side} | ({real.alpha_side} if real is not None else set())
    assert {e.alpha_side for e in evidence} == levels
    assert len(evidence) == len(chosen)


def test_claimed_curves() -> None:
    assert claimed_delta(PrivacyClaim.of(1, Fraction(1, 100)), Fraction(1, 2)) is None
    assert claimed_delta(PrivacyClaim.of(1, Fraction(1, 100)), Fraction(2)) == Fraction(1, 100)
    got = claimed_delta(GDPClaim.of(1), Fraction(1))
    assert got is not None and _gauss_delta(1.0, 1.0) <= float(got) < _gauss_delta(1.0, 1.0) + 1e-9
    z = claimed_delta(ZCDPClaim.of(Fraction(1, 2)), Fraction(1))
    assert z is not None and float(z) >= _gauss_delta(1.0, 1.0)  # zCDP's conversion is looser


def test_gdp_claim_points_are_implied() -> None:
    claim = GDPClaim.of(1)
    for point in claim_points(claim):
        assert _gauss_delta(float(point.epsilon), 1.0) <= float(point.delta)
        # and tight: a slightly smaller epsilon needs a larger delta
        assert _gauss_delta(float(point.epsilon) * (1 - 1e-6), 1.0) > float(point.delta)
    p = audited_point(GDPClaim.of(Fraction(1, 2), Fraction(1, 1000)), None)
    assert p.delta == Fraction(1, 1000) and "Corollary 2.13" in (p.conversion or "")
    assert claim_text(claim) == "1-GDP"
    assert claim_json(claim) == {"kind": "gdp", "mu": "1", "delta": None}


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"epsilons": ()}, r"epsilons=\(\) is empty"),
    ({"epsilons": (-1,)}, r"epsilons\[0\]=-1 must lie in \[0, 64\]"),
    ({"epsilons": tuple(range(257))}, r"at most 256"),
    ({"orders": (1,)}, r"orders\[0\]=1 must lie in \(1, 256\]"),
    ({"orders": ()}, r"orders=\(\) is empty"),
    ({"orders": "2"}, r"must be a sequence"),
])
def test_bad_curve_requests_are_refused(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(InvalidArgument, match=match):
        CurveRequest(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("mu", "match"), [(0, "mu=0 must be"), (-1, "mu=-1 must be"),
                                           (65, "MAX_GDP_MU"), (True, "exact number")])
def test_bad_gdp_claims_are_refused(mu: object, match: str) -> None:
    with pytest.raises(InvalidArgument, match=match):
        GDPClaim(mu)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="GDP claim must lie in"):
        GDPClaim(Fraction(1), Fraction(0))
    assert check_claim(GDPClaim.of(1)) == GDPClaim(Fraction(1))


def _gauss(data: list[float], rng: np.random.Generator, size: int) -> np.ndarray:
    return float(sum(data)) + rng.normal(0.0, 1.0, size)


_gauss.privref_vectorized = True  # type: ignore[attr-defined]


@pytest.mark.parametrize(("mu", "violated"), [(Fraction(1, 2), True), (Fraction(3, 2), False)])
def test_a_gdp_claim_below_the_truth_is_violated_and_above_is_not(mu: Fraction,
                                                                  violated: bool) -> None:
    """The Gaussian mechanism with σ = 1 is exactly 1-GDP: 1/2-GDP is refuted, 3/2-GDP is not
    (a false VIOLATION has probability <= 10^-7; the run is deterministic at this seed)."""
    config = AuditConfig(GDPClaim(mu), samples=20_000, seed=1, workers=1, float_events=False,
                         relation="substitution", curves=CurveRequest(orders=(Fraction(2), Fraction(4))),
                         confidence=AUDIT_CONFIDENCE)
    report = run_audit(target_from_callable(_gauss), config, [((0,), (1,))])
    assert (report.verdict is not None and report.verdict.value == "VIOLATION") is violated
    curves = report.curves
    assert curves is not None and curves.joint_with_verdict
    assert 0.75 < float(curves.mu_lower) < 1
    assert (any("mu >=" in r for r in curves.refuted)) is violated
    assert 0 < float(curves.delta_lower[0]) < _gauss_delta(0.0, 1.0)
    assert 0 < float(curves.rho_lower) < 0.5
    assert report.to_json()["curves"]["claim"] == f"{mu}-GDP"
    page = render_html(report)
    svg = page[page.index("<h2>Curves</h2>"):]
    svg = svg[svg.index("<svg"):svg.index("</svg>") + 6]
    ElementTree.fromstring(svg)  # well-formed
    assert svg.count('stroke-dasharray="6 4"') == 1  # the claimed δ_μ(ε), dashed
    assert svg.count("<circle") == len(curves.epsilons)  # one measured point per grid ε


def _rr(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
    keep = rng.random(size) < 0.75
    return np.where(keep, data[0], 1 - data[0])


_rr.privref_vectorized = True  # type: ignore[attr-defined]


@pytest.mark.deep  # about 1 s: the CI tier keeps the two GDP runs
def test_a_pure_claim_audited_by_the_pooled_test_gives_curves_on_their_own() -> None:
    """δ = 0 with >= 4096 held-out draws per side: the verdict uses the pooled test, so the
    curves (per-side bounds) are a separate statement (joint_with_verdict is False)."""
    config = AuditConfig(epsilon="ln(3)", samples=20_000, seed=2, workers=1,
                         relation="substitution", curves=CurveRequest(orders=(Fraction(2),)),
                         confidence=AUDIT_CONFIDENCE)
    report = run_audit(target_from_callable(_rr), config, [((0,), (1,))])
    assert report.witness is not None and report.witness.estimate.test == "pooled"  # type: ignore[attr-defined]
    curves = report.curves
    assert curves is not None and not curves.joint_with_verdict
    true_mu = N.inv_cdf(0.75) - N.inv_cdf(0.25)
    assert 0.8 * true_mu < float(curves.mu_lower) < true_mu
    assert 0 < float(curves.delta_lower[0]) < 0.5  # δ(0) = TV = 1/2
    assert curves.claimed_delta[0] is None and curves.claimed_delta[-1] == 0  # (ln 3, 0): ε >= ln 3


def test_the_reverse_direction_of_an_event_is_used() -> None:
    """Two-point laws P = (0.9, 0.1), Q = (0.5, 0.5) and F the first point.  Forward,
    P(F) − e·Q(F) < 0; the complement in the reverse direction gives Q(F^c) − e·P(F^c) =
    0.5 − 0.1e = 0.228, which is the true δ(1) of the pair (the forward δ(1) is 0).  D₂ of the
    reverse pair, ln(0.5²/0.1 + 0.5²/0.9), exceeds the forward ln(0.9²/0.5 + 0.1²/0.5)."""
    ev = _typical(0.9, 0.5, 1_000_000)
    cb = curve_bounds([ev], CurveRequest(epsilons=(Fraction(1),), orders=(Fraction(2),)),
                      confidence=Fraction(9, 10), joint_with_verdict=True)
    truth = 0.5 - 0.1 * float(np.exp(1.0))
    assert truth - 0.01 < float(cb.delta_lower[0]) < truth
    assert cb.delta_events[0] is not None and "reverse" in cb.delta_events[0]
    # D_2 of the reverse pair: (0.5²/0.1 + 0.5²/0.9) against forward (0.9²/0.5 + 0.1²/0.5)
    assert float(cb.renyi_lower[0]) < np.log(0.25 / 0.1 + 0.25 / 0.9)
    assert float(cb.renyi_lower[0]) > np.log(0.81 / 0.5 + 0.01 / 0.5)
