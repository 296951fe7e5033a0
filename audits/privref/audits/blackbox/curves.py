"""Privacy curves from one black-box run: lower bounds on δ(ε), on Gaussian-DP μ, on Rényi
divergences and on zCDP ρ, from the events the run already bounded.

Every bound comes from one event F in one direction (P = M(a), Q = M(b) or the reverse) with
held-out Clopper–Pearson bounds p_lo <= P(F) and q_hi >= Q(F) (:func:`privref.audits.stats.cp_lower`
/ :func:`~privref.audits.stats.cp_upper`):

* **δ(ε)** (the privacy profile): P(F) − e^ε Q(F) <= δ(ε) for every event (the definition of
  (ε, δ)-DP), so δ(ε) >= p_lo − e^ε q_hi, with e^ε enclosed (:func:`privref.reference.reals.exp`)
  and its upper end used, and the result clipped at 0: a rational lower bound at every ε of
  the grid (folklore: the definition of (ε, δ)-DP read as a bound on δ).
* **μ-GDP**: if the pair is μ-GDP, the test rejecting on F^c has type I error 1 − P(F) and type
  II error Q(F), so Q(F) >= G_μ(1 − P(F)) = Φ(Φ⁻¹(P(F)) − μ) (Dong, Roth and Su 2022,
  Definitions 2.1–2.6), i.e. μ >= Φ⁻¹(P(F)) − Φ⁻¹(Q(F)) >= Φ⁻¹(p_lo) − Φ⁻¹(q_hi) (Φ⁻¹ is
  increasing).  Φ⁻¹ is enclosed by :func:`privref.reference.fdp.normal_quantile`; the lower end
  of Φ⁻¹(p_lo) minus the upper end of Φ⁻¹(q_hi) is used.
* **Rényi**: D_α(P ‖ Q) >= D_α(Bern(P(F)) ‖ Bern(Q(F))) by data processing (Rényi 1961;
  van Erven and Harremoës 2014, the data processing inequality).  For α > 1 and q <= p,
  g(p, q) = p^α q^(1−α) + (1 − p)^α (1 − q)^(1−α) is convex in p with its minimum at p = q
  (so increasing in p >= q), and ∂g/∂q = (1 − α)[(p/q)^α − ((1 − p)/(1 − q))^α] <= 0 (so
  decreasing in q <= p).  Hence, when q_hi <= p_lo, D_α(Bern(P(F)) ‖ Bern(Q(F))) >=
  D_α(Bern(p_lo) ‖ Bern(q_hi)), computed exactly by
  :func:`privref.audits.renyi.renyi_divergence_of_laws` and enclosed (lower end).  When
  p_lo <= q_hi the bound is 0.
* **zCDP**: ρ-zCDP is D_α <= αρ for every α > 1 (Bun and Steinke 2016, Definition 1.1), so
  ρ >= max over the orders of (the Rényi lower bound)/α.

Each curve is the best (largest) bound over every event the run bounded, on every confirmed
pair, every tested (ε, δ) point and both views, in both directions: an event F bounded with
P = M(a) also bounds the reverse pair (P' = M(b), Q' = M(a)) through its complement, with
P'(F^c) = 1 − Q(F) >= 1 − q_hi and Q'(F^c) = 1 − P(F) <= 1 − p_lo, the same intervals (so no
extra confidence).  For μ the two directions give the same number (Φ⁻¹(1 − x) = −Φ⁻¹(x));
for δ(ε) at ε > 0 and for D_α they differ.

**Confidence.** The curves use the Clopper–Pearson bounds the run's confirmation stage
computes for its kept events, at their own per-side level alpha_side = (the share)/(2m) of
:func:`~privref.audits.blackbox.estimate.conclude_pair` (halved again with two views).  The
events are those of the k tested (ε, δ) points and of the :data:`CURVE_DELTAS` slots: events
chosen on the selection split alone (the same machinery as a tested point at that δ), which
take their share of the pair's alpha like a point, so each point gets alpha/(k + 2) instead of
alpha/k (counted in the split: the verdict's tests are slightly less powerful, and nothing is
spent twice).  All the levels
sum to 1 − confidence over pairs, points, slots, views, events and sides, so with probability
>= ``confidence`` every p_lo and q_hi holds together, and then every curve bound holds at once
(all ε, μ, all orders, ρ).  When every tested point used the per-side test (δ > 0, or fewer
than 4096 held-out outcomes), the verdict's bounds are among these, and the curves hold
**jointly with the verdict** (``joint_with_verdict``).  A point bounded by the pooled test
(δ = 0) decides its verdict from a pooled statistic instead; the per-side bounds of its events
(on the dealt sizes, binomial given them) are then part of a second statement at the same
confidence, and the curves and the verdict hold together with probability
>= 1 − 2(1 − confidence).  A custom estimator gives no curves.  With ``group = k`` the curves are
those of pairs at distance <= k.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from privref.reference.accounting import zcdp_to_dp_delta
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.fdp import gaussian_dp, normal_quantile
from privref.reference.privacy import (
    Claim,
    GDPClaim,
    PrivacyClaim,
    ProfileClaim,
    ZCDPClaim,
    check_claim,
)
from privref.reference.program import Distribution
from privref.reference.reals import Order, compare, exp, rational
from privref.reference.validate import to_fraction

from ..renyi import renyi_divergence_of_laws
from ..stats import check_alpha, cp_lower, cp_upper
from .selection import Candidate

__all__ = [
    "CURVE_DELTAS",
    "DEFAULT_CURVE_EPSILONS",
    "DEFAULT_ORDERS",
    "MAX_CURVE_EPSILON",
    "MAX_CURVE_EPSILONS",
    "MAX_CURVE_ORDER",
    "MAX_ORDERS",
    "CurveBounds",
    "CurveRequest",
    "EventEvidence",
    "claimed_delta",
    "curve_bounds",
    "delta_lower_bound",
    "evidence_of",
    "mu_lower_bound",
    "profile_claim",
    "renyi_lower_bound",
]

MAX_CURVE_EPSILONS: Final = 256
"""Most ε values of a curve grid (each costs one e^ε enclosure per event)."""
MAX_CURVE_EPSILON: Final = Fraction(64)
"""Largest ε of a curve grid (e^64 ≈ 6·10^27: beyond, no sample size gives a positive δ)."""
MAX_ORDERS: Final = 32
"""Most Rényi orders of a curve request."""
MAX_CURVE_ORDER: Final = Fraction(256)
"""Largest Rényi order (p^α of a rational p has α times its digits)."""
DEFAULT_CURVE_EPSILONS: Final = tuple(Fraction(k, 4) for k in range(33))
"""The default ε grid: 0, 1/4, …, 8."""
DEFAULT_ORDERS: Final = (Fraction(3, 2), Fraction(2), Fraction(3), Fraction(4), Fraction(8),
                         Fraction(16), Fraction(32))
"""The default Rényi orders."""

CURVE_DELTAS: Final = (Fraction(1, 4), Fraction(1, 32))
"""The curve slots: with curves asked for, the confirmation stage also selects (on the selection
split only) the events best for ε at each of these δ, broad events that the tested points'
tail events miss (δ(ε) at small ε, μ), and bounds them at a share of the pair's alpha counted
like a tested point's."""

_PREC: Final = 96
_QUANTILE_PREC: Final = 40  # Φ⁻¹ to 2^-40: far below any sampling error, and fast


def _grid(values: object, name: str, low: Fraction, high: Fraction, size: int,
          open_low: bool) -> tuple[Fraction, ...]:
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise InvalidArgument(f"{name}={values!r} must be a sequence of exact numbers")
    if not values:
        raise InvalidArgument(f"{name}=() is empty: a curve needs at least one value")
    if len(values) > size:
        raise InvalidArgument(f"{name} has {len(values)} values; at most {size} are allowed")
    out = set()
    for i, raw in enumerate(values):
        x = to_fraction(raw, f"{name}[{i}]")
        if (x <= low if open_low else x < low) or x > high:
            raise InvalidArgument(f"{name}[{i}]={x} must lie in {'(' if open_low else '['}"
                                  f"{low}, {high}]")
        out.add(x)
    return tuple(sorted(out))


@dataclass(frozen=True, slots=True)
class CurveRequest:
    """Which curves a run reports: δ lower bounds at each ε of ``epsilons`` (distinct exact
    numbers in [0, :data:`MAX_CURVE_EPSILON`], at most :data:`MAX_CURVE_EPSILONS`, stored
    sorted), Rényi lower bounds at each order of ``orders`` (in (1, :data:`MAX_CURVE_ORDER`],
    at most :data:`MAX_ORDERS`), the μ-GDP and ρ-zCDP lower bounds; ``claim`` (optional) is the
    claim whose curve the report draws against the measured one (None: the tested points).
    Validated at construction: InvalidArgument naming ``epsilons``, ``orders`` or ``claim``.
    """

    epsilons: tuple[Fraction, ...] = DEFAULT_CURVE_EPSILONS
    orders: tuple[Fraction, ...] = DEFAULT_ORDERS
    claim: Claim | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilons", _grid(self.epsilons, "epsilons", Fraction(0),
                                                   MAX_CURVE_EPSILON, MAX_CURVE_EPSILONS, False))
        object.__setattr__(self, "orders", _grid(self.orders, "orders", Fraction(1),
                                                 MAX_CURVE_ORDER, MAX_ORDERS, True))
        if self.claim is not None:
            check_claim(self.claim, "claim")


@dataclass(frozen=True, slots=True)
class EventEvidence:
    """One bounded event of a run, in its direction: ``hits_p`` of ``n_p`` held-out draws of P
    fell in F, ``hits_q`` of ``n_q`` of Q; ``alpha_side`` is the level of each one-sided
    Clopper–Pearson bound the run gave it (:attr:`p_lower`, :attr:`q_upper`)."""

    event: str
    hits_p: int
    n_p: int
    hits_q: int
    n_q: int
    alpha_side: Fraction

    def __post_init__(self) -> None:
        for name in ("hits_p", "n_p", "hits_q", "n_q"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InvalidArgument(f"{name}={v!r} must be an int >= 0")
        if self.hits_p > self.n_p or self.hits_q > self.n_q or self.n_p == 0 or self.n_q == 0:
            raise InvalidArgument(f"hits ({self.hits_p}, {self.hits_q}) must lie within the sizes "
                                  f"({self.n_p}, {self.n_q}), each >= 1")
        object.__setattr__(self, "alpha_side", check_alpha(self.alpha_side, "alpha_side"))

    @property
    def p_lower(self) -> Fraction:
        """p_lo <= P(F), except with probability <= alpha_side."""
        return cp_lower(self.hits_p, self.n_p, self.alpha_side)

    @property
    def q_upper(self) -> Fraction:
        """q_hi >= Q(F), except with probability <= alpha_side."""
        return cp_upper(self.hits_q, self.n_q, self.alpha_side)


def evidence_of(chosen: Sequence[Candidate], hits: Sequence[tuple[int, int]],
                split: int | None, *, held_a: int, held_b: int,
                alpha: Fraction) -> tuple[EventEvidence, ...]:
    """The events of one pair and one tested point as :class:`EventEvidence`, at exactly the
    levels :func:`~privref.audits.blackbox.estimate.conclude_views` bounds them: each view
    (all of ``chosen``, or ``chosen[:split]`` and ``chosen[split:]``, each at alpha/2) gives each
    of its m events alpha_view/(2m) per side.  Dealt sizes (0, 0) (a pooled overflow) give none.
    """
    a = check_alpha(alpha)
    if held_a == 0 or held_b == 0:
        return ()
    views = [(0, len(chosen), a)] if split is None else [
        (0, split, a / 2), (split, len(chosen), a / 2)]
    out = []
    held = {"a": held_a, "b": held_b}
    for lo, hi, level in views:
        if hi <= lo:
            continue
        side = level / (2 * (hi - lo))
        for c, (ha, hb) in zip(chosen[lo:hi], hits[lo:hi], strict=True):
            h = {"a": ha, "b": hb}
            p, q = ("a", "b") if c.direction == "a→b" else ("b", "a")
            out.append(EventEvidence(f"{c.event.describe()}  (P = M({p}), Q = M({q}))",
                                     h[p], held[p], h[q], held[q], side))
    return tuple(out)


def _down(x: Fraction) -> Fraction:
    """x rounded down to a multiple of 2^-_PREC."""
    scale = 1 << _PREC
    return Fraction((x.numerator * scale) // x.denominator, scale)


def delta_lower_bound(p_lower: Fraction, q_upper: Fraction, epsilon: Fraction) -> Fraction:
    """max(0, p_lo − e^ε·q_hi) rounded down, with the upper end of e^ε's enclosure: <= P(F) −
    e^ε Q(F) <= δ(ε) whenever p_lo <= P(F) and Q(F) <= q_hi (definition of (ε, δ)-DP)."""
    e_hi = exp(rational(epsilon)).enclose(_PREC).hi
    return max(Fraction(0), _down(p_lower - e_hi * q_upper))


def mu_lower_bound(p_lower: Fraction, q_upper: Fraction) -> Fraction:
    """max(0, lower end of Φ⁻¹(p_lo) − Φ⁻¹(q_hi)): <= μ of any μ-GDP pair with P(F) >= p_lo
    and Q(F) <= q_hi (Dong, Roth and Su 2022, Definition 2.6; see the module docstring).
    0 when p_lo <= q_hi, and when either quantile lies beyond ±64 (not enclosed)."""
    if p_lower <= q_upper or p_lower == 0 or q_upper >= 1:
        return Fraction(0)
    try:
        zp = normal_quantile(p_lower, _QUANTILE_PREC)
        zq = normal_quantile(q_upper, _QUANTILE_PREC)
    except PrivrefError:  # |quantile| > 64: no usable enclosure, no evidence claimed
        return Fraction(0)
    return max(Fraction(0), _down(zp.lo - zq.hi))


def renyi_lower_bound(p_lower: Fraction, q_upper: Fraction, order: Fraction) -> Fraction:
    """Lower end of D_α(Bern(p_lo) ‖ Bern(q_hi)) when q_hi < p_lo (else 0): <= D_α(P ‖ Q) for
    every pair with P(F) >= p_lo and Q(F) <= q_hi (data processing and the monotonicity in the
    module docstring)."""
    if p_lower <= q_upper:
        return Fraction(0)
    bern_p: Distribution[bool] = Distribution.from_mapping({True: p_lower, False: 1 - p_lower})
    bern_q: Distribution[bool] = Distribution.from_mapping({True: q_upper, False: 1 - q_upper})
    value = renyi_divergence_of_laws(bern_p, bern_q, order)
    assert value is not None  # q_hi < p_lo < 1 and q_hi >= 0 with p_lo > q_hi: Q covers P
    return max(Fraction(0), _down(value.enclose(_PREC).lo))


def claimed_delta(claim: Claim, epsilon: Fraction) -> Fraction | None:
    """A rational >= the least δ the claim implies at ε (None when the claim implies nothing
    there): (ε_i, δ_i)-DP points give min δ_i over ε_i <= ε (compared exactly; (ε_i, δ_i)-DP
    implies (ε, δ_i)-DP for ε >= ε_i); ρ-zCDP the upper end of
    :func:`privref.reference.accounting.zcdp_to_dp_delta` (Canonne, Kamath and Steinke 2020);
    μ-GDP the upper end of :meth:`privref.reference.fdp.GaussianDP.delta` (Dong, Roth and Su
    2022, Corollary 2.13)."""
    if isinstance(claim, ZCDPClaim) and claim.approx_delta:
        # (rho, a)-approximate zCDP: (e, a + delta_rho(e - ln(1/(1-a))))-DP for every e
        # (declarations.audited_point's proof); ln(1/(1-a)) <= a/(1-a) and delta_rho decreases
        shifted = epsilon - claim.approx_delta / (1 - claim.approx_delta)
        if shifted <= 0:
            return Fraction(1)
        return min(Fraction(1), claim.approx_delta + zcdp_to_dp_delta(claim.rho, shifted).hi)
    if isinstance(claim, ZCDPClaim):
        return min(Fraction(1), zcdp_to_dp_delta(claim.rho, epsilon).hi)
    if isinstance(claim, GDPClaim):
        return min(Fraction(1), gaussian_dp(claim.mu).delta(epsilon).hi)
    points = (claim,) if isinstance(claim, PrivacyClaim) else claim.points
    implied = [p.delta for p in points
               if compare(p.epsilon, rational(epsilon))[0] in (Order.LESS, Order.EQUAL)]
    return min(implied) if implied else None


@dataclass(frozen=True, slots=True)
class CurveBounds:
    """The curves of one run (see the module docstring for what holds and at what confidence).

    ``delta_lower[i]`` <= δ(``epsilons[i]``), attained by ``delta_events[i]`` (None: no
    evidence); ``mu_lower`` <= μ of any μ-GDP claim the target could satisfy, by ``mu_event``;
    ``renyi_lower[j]`` <= D_α at α = ``orders[j]``; ``rho_lower`` <= ρ of any ρ-zCDP claim it
    could satisfy (at order ``rho_order``).  All exact rationals, rounded down.
    ``claimed_delta[i]`` is the claim's δ at ``epsilons[i]`` (:func:`claimed_delta`; None where
    it claims nothing), ``claim_text`` names it.  ``refuted`` lists what the curves prove
    beyond the claim (a δ above the claimed δ, μ above a claimed μ, ρ above a claimed ρ),
    decided with exact rationals at the curves' confidence.
    """

    confidence: Fraction
    joint_with_verdict: bool
    events: int
    epsilons: tuple[Fraction, ...]
    delta_lower: tuple[Fraction, ...]
    delta_events: tuple[str | None, ...]
    mu_lower: Fraction
    mu_event: str | None
    orders: tuple[Fraction, ...]
    renyi_lower: tuple[Fraction, ...]
    rho_lower: Fraction
    rho_order: Fraction | None
    claim_text: str | None = None
    claimed_delta: tuple[Fraction | None, ...] = ()
    refuted: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The JSON form: floats (rounded down, as the bounds are) with ``_exact`` strings."""
        return {
            "confidence": str(self.confidence),
            "joint_with_verdict": self.joint_with_verdict,
            "events": self.events,
            "delta": [{"epsilon": str(e), "delta_lower_bound": float(d),
                       "delta_lower_bound_exact": str(d), "event": ev,
                       "claimed_delta": None if c is None else float(c)}
                      for e, d, ev, c in zip(self.epsilons, self.delta_lower, self.delta_events,
                                             self.claimed_delta or (None,) * len(self.epsilons),
                                             strict=True)],
            "mu_lower_bound": float(self.mu_lower),
            "mu_lower_bound_exact": str(self.mu_lower),
            "mu_event": self.mu_event,
            "renyi": [{"order": str(a), "divergence_lower_bound": float(r),
                       "divergence_lower_bound_exact": str(r)}
                      for a, r in zip(self.orders, self.renyi_lower, strict=True)],
            "rho_lower_bound": float(self.rho_lower),
            "rho_lower_bound_exact": str(self.rho_lower),
            "rho_order": None if self.rho_order is None else str(self.rho_order),
            "claim": self.claim_text,
            "refuted": list(self.refuted),
        }

    def summary_lines(self) -> list[str]:
        """Terminal lines for the report's summary."""
        tail = "jointly with the verdict" if self.joint_with_verdict else (
            "on their own (the verdict used the pooled test)")
        shown = [(e, d) for e, d in zip(self.epsilons, self.delta_lower, strict=True) if d > 0]
        return [
            f"  curves           at confidence {self.confidence}, {tail}; {self.events} events",
            f"  mu lower bound   {float(self.mu_lower):.6g}"
            + ("" if self.mu_event is None else f" by {self.mu_event}"),
            f"  rho lower bound  {float(self.rho_lower):.6g}"
            + ("" if self.rho_order is None else f" (order {self.rho_order})"),
            "  delta(eps) >=    " + (", ".join(f"{float(e):g}: {float(d):.3g}"
                                               for e, d in shown[:8]) or "0 on the grid"),
        ] + [f"  curves refute    {r}" for r in self.refuted]


def curve_bounds(evidence: Sequence[EventEvidence], request: CurveRequest, *,
                 confidence: Fraction, joint_with_verdict: bool,
                 claim: Claim | None = None) -> CurveBounds:
    """The best bounds over ``evidence`` at every ε, for μ, every order and ρ (see the module
    docstring); ``claim`` (default ``request.claim``) gives the claimed curve and ``refuted``."""
    claim = request.claim if claim is None else claim
    if claim is not None:
        check_claim(claim, "claim")
    forward = [(ev.event, ev.p_lower, ev.q_upper) for ev in evidence]
    bounds = forward + [(f"complement of {name}, reverse direction", 1 - q, 1 - p)
                        for name, p, q in forward]
    delta_lower, delta_events = [], []
    for eps in request.epsilons:
        best, who = Fraction(0), None
        for name, p, q in bounds:
            d = delta_lower_bound(p, q, eps)
            if d > best:
                best, who = d, name
        delta_lower.append(best)
        delta_events.append(who)
    mu, mu_event = Fraction(0), None
    for name, p, q in forward:  # the reverse direction gives the same μ bound
        m = mu_lower_bound(p, q)
        if m > mu:
            mu, mu_event = m, name
    useful = [(p, q) for _name, p, q in bounds if p > q]
    renyi = [max((renyi_lower_bound(p, q, a) for p, q in useful), default=Fraction(0))
             for a in request.orders]
    rho, rho_order = Fraction(0), None
    for a, r in zip(request.orders, renyi, strict=True):
        if r / a > rho:
            rho, rho_order = r / a, a
    claimed: tuple[Fraction | None, ...] = ()
    refuted: list[str] = []
    text = None
    if claim is not None:
        text = str(claim) if not isinstance(claim, PrivacyClaim) else f"{claim}-DP"
        claimed = tuple(claimed_delta(claim, e) for e in request.epsilons)
        for e, d, c in zip(request.epsilons, delta_lower, claimed, strict=True):
            if c is not None and d > c:
                refuted.append(f"delta({e}) >= {float(d):.4g} > claimed {float(c):.4g}")
        if isinstance(claim, GDPClaim) and mu > claim.mu:
            refuted.append(f"mu >= {float(mu):.6g} > claimed mu {claim.mu}")
        if isinstance(claim, ZCDPClaim) and not claim.approx_delta and rho > claim.rho:
            refuted.append(f"rho >= {float(rho):.6g} > claimed rho {claim.rho}")
    return CurveBounds(confidence, joint_with_verdict, len(forward), request.epsilons,
                       tuple(delta_lower), tuple(delta_events), mu, mu_event, request.orders,
                       tuple(renyi), rho, rho_order, text, claimed, tuple(refuted))


def profile_claim(points: Sequence[PrivacyClaim]) -> ProfileClaim:
    """The tested points as one profile claim (the claimed curve when no claim is given)."""
    return ProfileClaim(tuple(points))
