"""Exact curves of a finite mechanism over a universe: the privacy profile δ(ε), Gaussian-DP μ,
the Rényi curve D_α and the zCDP ρ, each the worst case over every ordered neighboring pair.

Every value is a rigorous enclosure computed from the exact (or enclosed) output laws, and every
verdict is decided on the enclosures (HOLDS / VIOLATED / UNDECIDED, never a float):

* **profile**: δ(ε) = max over pairs of sup_F P(F) − e^ε·Q(F), by the exact auditor's pair
  machinery (:func:`privref.audits.profile.privacy_profile` for one pair);
* **μ (Gaussian DP)**: the least μ for which every pair's trade-off curve T(P, Q) lies above
  G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) (Dong, Roth and Su 2022, Definition 2.6).  For finite laws T is
  piecewise linear with vertices at the likelihood-ratio prefix events E (Neyman–Pearson), and
  T − G_μ is concave on each piece (G_μ is convex), so T >= G_μ holds on a piece iff it holds at
  its two vertices; hence μ* = max over pairs and prefix events of Φ⁻¹(P(E)) − Φ⁻¹(Q(E)).  Any
  event gives a valid lower bound; the upper bound needs the prefix order proved, which it is
  by exact comparisons of the enclosed likelihood ratios (otherwise the upper end is unknown);
* **Rényi**: D_α at each order of a grid, max over pairs
  (:func:`privref.audits.renyi.renyi_enclosure_of_laws`), and D_∞ (the pure ε);
* **zCDP ρ**: ρ* = sup_{α>1} max_pairs D_α/α (Bun and Steinke 2016, Definition 1.1).  D_α is
  non-decreasing in α (van Erven and Harremoës 2014, Theorem 3), so for orders
  1 < α_1 < … < α_m:  sup over (1, α_1] of D_α/α <= D_{α_1};  over [α_i, α_{i+1}] it is
  <= D_{α_{i+1}}/α_i;  over [α_m, ∞) it is <= D_∞/α_m.  The largest of these bounds ρ* above,
  the largest D_{α_i}/α_i bounds it below, and the grid is refined where the upper bound is
  attained until the enclosure is tight or the refinement budget is spent.  A ρ-zCDP claim
  HOLDS when the upper end is proved <= ρ (a proof over every α > 1, not a grid check), is
  VIOLATED when some D_α > αρ is proved (witness: pair and order), and is UNDECIDED otherwise.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate, UnsupportedProgram
from privref.reference.fdp import normal_quantile
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import GDPClaim, ZCDPClaim, parse_epsilon
from privref.reference.program import Distribution
from privref.reference.reals import (
    DEFAULT_PRECISION,
    Interval,
    Real,
    exp,
    prob_as_interval,
)
from privref.reference.validate import ExactInput, to_fraction
from privref.reference.verdict import Verdict

from . import _pair, _tails
from .renyi import MAX_ORDER, LawPair, RenyiEnclosure

__all__ = [
    "DEFAULT_ORDERS",
    "MAX_GRID",
    "CurveValue",
    "ExactCurves",
    "GaussianAudit",
    "ZCDPAudit",
    "audit_gdp",
    "audit_zcdp",
    "exact_curves",
    "pair_mu",
    "zcdp_verdict",
]

DEFAULT_ORDERS: tuple[Fraction, ...] = tuple(Fraction(x) for x in (
    Fraction(5, 4), Fraction(3, 2), 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64))
"""The Rényi orders reported by default (a grid, refined further for ρ)."""

MAX_GRID = 256
"""Most ε values or orders one request may ask for."""

REFINEMENTS = 80
"""Most orders the ρ bracketing adds to the grid before it reports what it has."""

_QUANTILE_BITS = 32
_RENYI_BITS = 64


@dataclass(frozen=True, slots=True)
class CurveValue:
    """A rigorous enclosure [lower, upper] of one worst-case value over every pair.

    ``infinite``: +∞ is proved (``upper`` is None); ``upper`` None otherwise means no finite
    upper bound is known at this precision.  ``witness`` is the pair (a, b) (with the event or
    order in ``detail``) attaining ``lower``.
    """

    lower: Fraction
    upper: Fraction | None
    infinite: bool = False
    witness: tuple[Dataset, Dataset] | None = None
    detail: str = ""

    def text(self) -> str:
        """``inf``, ``x (± w)`` or ``[lo, hi]`` (floats rounded outward for reading)."""
        if self.infinite:
            return "inf"
        if self.upper is None:
            return f"[{float(self.lower):.6g}, inf]"
        width = self.upper - self.lower
        if width <= Fraction(1, 10**6) * max(Fraction(1), abs(self.upper)):
            return f"{float((self.upper + self.lower) / 2):.6g} (± {float(width):.0e})"
        return f"[{float(self.lower):.6g}, {float(self.upper):.6g}]"

    def to_json(self) -> dict[str, Any]:
        """Exact endpoints as strings, floats for reading, the witness pair."""
        return {"lower": str(self.lower), "upper": None if self.upper is None else str(self.upper),
                "lower_float": float(self.lower),
                "upper_float": None if self.upper is None else float(self.upper),
                "infinite": self.infinite,
                "witness": None if self.witness is None else [repr(self.witness[0]),
                                                               repr(self.witness[1])],
                "detail": self.detail}


def _worse(current: CurveValue | None, new: CurveValue) -> CurveValue:
    """The max of two enclosures: lower = max of lowers (its witness kept), upper = max of
    uppers (None if either is unknown), infinite if either is proved infinite."""
    if current is None:
        return new
    if current.infinite:
        return current
    if new.infinite:
        return new
    upper = None if current.upper is None or new.upper is None else max(current.upper, new.upper)
    best = new if new.lower > current.lower else current
    return CurveValue(best.lower, upper, False, best.witness, best.detail)


def _from_renyi(e: RenyiEnclosure, a: Dataset, b: Dataset, detail: str) -> CurveValue:
    return CurveValue(e.lower, e.upper, e.infinite, (a, b), detail)


@dataclass(frozen=True, slots=True)
class ExactCurves:
    """The worst-case curves of ``mechanism`` over every ordered neighboring pair of ``universe``.

    ``profile``: (ε, δ(ε)) at each requested ε; ``mu``: Gaussian-DP μ; ``renyi``: (α, D_α) at
    each order; ``renyi_infinity``: D_∞ (the pure ε); ``rho``: sup_α D_α/α, bracketed over the
    refined grid ``rho_orders``.  Sources: see the module docstring.
    """

    mechanism: str
    relation: str
    universe: str
    pairs: int
    profile: tuple[tuple[Real, CurveValue], ...]
    mu: CurveValue | None
    renyi: tuple[tuple[Fraction, CurveValue], ...]
    renyi_infinity: CurveValue | None
    rho: CurveValue | None
    rho_orders: tuple[Fraction, ...]

    def to_json(self) -> dict[str, Any]:
        """The curves as JSON (exact endpoints as strings)."""
        return {"mechanism": self.mechanism, "relation": self.relation,
                "universe": self.universe, "pairs": self.pairs,
                "profile": [{"epsilon": str(e), "delta": v.to_json()} for e, v in self.profile],
                "mu": None if self.mu is None else self.mu.to_json(),
                "renyi": [{"alpha": str(a), "divergence": v.to_json()} for a, v in self.renyi],
                "renyi_infinity": None if self.renyi_infinity is None
                else self.renyi_infinity.to_json(),
                "rho": None if self.rho is None else self.rho.to_json(),
                "rho_orders": [str(a) for a in self.rho_orders]}


class _Laws:
    """Each dataset's law, computed once, and the list of ordered neighboring pairs."""

    def __init__(self, mechanism: Mechanism[Any], universe: Universe, precision: int,
                 pair_limit: int) -> None:
        self.mechanism = mechanism
        self.precision = precision
        self.store: dict[Dataset, Distribution[Any]] = {}
        self._distinct: list[tuple[Dataset, Dataset, LawPair, Distribution[Any],
                                   Distribution[Any]]] | None = None
        self.pairs = list(universe.pairs(mechanism.relation,
                                         order_invariant=mechanism.order_invariant,
                                         limit=pair_limit))
        if not self.pairs:
            raise InvalidArgument(f"universe {universe}: no neighboring pair under "
                                  f"{mechanism.relation}; nothing to compute")

    def distinct(self) -> list[tuple[Dataset, Dataset, LawPair, Distribution[Any],
                                     Distribution[Any]]]:
        """One representative (a, b) per distinct pair of finite laws, with its
        :class:`~privref.audits.renyi.LawPair` (pairs with equal laws have equal divergences)."""
        if self._distinct is None:
            seen: dict[object, tuple[Dataset, Dataset, LawPair, Distribution[Any],
                                     Distribution[Any]]] = {}
            for a, b in self.pairs:
                p, q = self.law(a), self.law(b)
                key = (p.items(), q.items())
                if key not in seen:
                    seen[key] = (a, b, LawPair.of(p, q, _RENYI_BITS), p, q)
            self._distinct = list(seen.values())
        return self._distinct

    def law(self, d: Dataset) -> Distribution[Any]:
        found = self.store.get(d)
        if found is None:
            found = self.mechanism.distribution(d, precision=self.precision)
            self.store[d] = found
        return found

    def finite(self, what: str) -> None:
        for a, b in self.pairs:
            if not (self.law(a).is_finite and self.law(b).is_finite):
                raise UnsupportedProgram(f"{what} is computed for mechanisms with finitely many "
                                         f"outputs; {self.mechanism.name} has continuous noise "
                                         "in its output (ask for the profile instead)")


def _orders(orders: Sequence[ExactInput], name: str) -> tuple[Fraction, ...]:
    if isinstance(orders, str | bytes) or not isinstance(orders, Sequence):
        raise InvalidArgument(f"{name}={orders!r} must be a sequence of orders > 1")
    if len(orders) > MAX_GRID:
        raise InvalidArgument(f"{name} has {len(orders)} values; at most MAX_GRID={MAX_GRID}")
    out = set()
    for i, raw in enumerate(orders):
        a = to_fraction(raw, f"{name}[{i}]")
        if not 1 < a <= MAX_ORDER:
            raise InvalidArgument(f"{name}[{i}]={a} must lie in (1, {MAX_ORDER}]")
        out.add(a)
    return tuple(sorted(out))


def _epsilons(epsilons: Sequence[Real | ExactInput]) -> tuple[Real, ...]:
    if isinstance(epsilons, str | bytes) or not isinstance(epsilons, Sequence):
        raise InvalidArgument(f"epsilons={epsilons!r} must be a sequence of numbers >= 0")
    if len(epsilons) > MAX_GRID:
        raise InvalidArgument(f"epsilons has {len(epsilons)} values; at most MAX_GRID={MAX_GRID}")
    return tuple(parse_epsilon(e, f"epsilons[{i}]") for i, e in enumerate(epsilons))


def _profile_at(laws: _Laws, eps: Real) -> CurveValue:
    t = exp(eps)
    worst: CurveValue | None = None
    for a, b in laws.pairs:
        p, q = laws.law(a), laws.law(b)
        if p.is_finite and q.is_finite:
            value = _pair.hockey_stick(p, q, t, laws.precision)[0]
        else:
            value = _tails.hockey_stick(p, q, t, laws.precision)[0]
        box = prob_as_interval(value)
        worst = _worse(worst, CurveValue(max(box.lo, Fraction(0)), box.hi, False, (a, b)))
    assert worst is not None
    return worst


def _worst_divergence(laws: _Laws, divergence: Callable[[LawPair], RenyiEnclosure],
                      detail: str) -> CurveValue:
    """The max over every distinct pair of one divergence of its laws."""
    worst: CurveValue | None = None
    for a, b, pair, _, _ in laws.distinct():
        worst = _worse(worst, _from_renyi(divergence(pair), a, b, detail))
    assert worst is not None
    return worst


def _renyi_at(laws: _Laws, alpha: Fraction) -> CurveValue:
    return _worst_divergence(laws, lambda pair: pair.renyi(alpha), f"alpha={alpha}")


def _renyi_infinity(laws: _Laws) -> CurveValue:
    return _worst_divergence(laws, LawPair.max_log_ratio, "alpha=inf")


def _kl(laws: _Laws) -> CurveValue:
    return _worst_divergence(laws, LawPair.kl, "alpha -> 1 (KL)")


@functools.lru_cache(maxsize=1 << 14)
def _quantile_box(p: Fraction) -> Interval | None:
    try:
        return normal_quantile(p, _QUANTILE_BITS)
    except TooLargeToEnumerate:
        return None


def _quantile(p: Fraction, up: bool) -> Fraction | None:
    """An end of an enclosure of Φ⁻¹(p) (upper end if ``up``); None beyond the quantile range.
    The enclosures are cached: the laws of a universe repeat the same event masses."""
    box = _quantile_box(p)
    if box is None:
        return None
    return box.hi if up else box.lo


def _round(x: Fraction, up: bool) -> Fraction:
    """x rounded outward to 64 significant bits (keeps the quantiles' inputs small)."""
    box = Interval.point(x).rounded(64)
    return box.hi if up else box.lo


def _vertex_mu(p: Interval, q: Interval) -> tuple[Fraction | None, Fraction | None, bool, bool]:
    """(lower, upper, infinite, constrains) of Φ⁻¹(P(E)) − Φ⁻¹(Q(E)) for an event with
    P(E) ∈ p, Q(E) ∈ q.  A None lower end says nothing; a None upper end is unknown.
    ``constrains`` is False when the vertex is proved to bound nothing (P(E) = 0 or
    Q(E) = 1: the value is −∞)."""
    if (q.hi <= 0 < p.lo) or (p.lo >= 1 and q.hi < 1):
        return None, None, True, True
    if p.hi <= 0 or q.lo >= 1:
        return None, None, False, False
    lower: Fraction | None = None
    if 0 < p.lo < 1 and 0 < q.hi < 1:
        zp, zq = _quantile(_round(p.lo, False), False), _quantile(_round(q.hi, True), True)
        if zp is not None and zq is not None:
            lower = zp - zq
    upper: Fraction | None = None
    if p.hi < 1 and q.lo > 0:
        zp_hi = _quantile(_round(p.hi, True), True)
        zq_lo = _quantile(_round(q.lo, False), False)
        if zp_hi is not None and zq_lo is not None:
            upper = zp_hi - zq_lo
    return lower, upper, False, True


MAX_TIED = 10
"""Most outcomes whose likelihood-ratio order is not proved that μ's upper bound handles together
(every subset of such a cluster is evaluated: 2^MAX_TIED events)."""


def _ratio_bounds(p: Interval, q: Interval) -> tuple[Fraction, Fraction | None]:
    """[lo, hi] of P(o)/Q(o) (hi None: unbounded)."""
    lo = Fraction(0) if q.hi <= 0 and p.lo <= 0 else (
        p.lo / q.hi if q.hi > 0 else Fraction(1 << 62))
    hi = None if q.lo <= 0 else p.hi / q.lo
    return lo, hi


def _pair_mu(p_law: Distribution[Any], q_law: Distribution[Any]
             ) -> tuple[Fraction | None, Fraction | None, bool, str]:
    """(lower, upper, infinite, event) of the pair's μ* = max over likelihood-ratio prefix events
    of Φ⁻¹(P(E)) − Φ⁻¹(Q(E)).  Outcomes are sorted by a float hint, then cut into clusters only
    where every outcome before the cut is proved to have a likelihood ratio >= every outcome
    after it; within a cluster the order is unknown, so every subset of it is tried after the
    clusters before it (a superset of the true vertices: the upper end stays valid)."""
    zero = Interval.point(0)
    p = {o: prob_as_interval(v) for o, v in p_law.items()}
    q = {o: prob_as_interval(v) for o, v in q_law.items()}
    outcomes: list[Hashable] = list(dict.fromkeys([*p, *q]))
    ratios = {o: _ratio_bounds(p.get(o, zero), q.get(o, zero)) for o in outcomes}

    def hint(o: Hashable) -> float:  # ordering hint only; the cuts below are proved
        lo, hi = ratios[o]
        return float("inf") if hi is None else float(lo + hi) / 2

    outcomes.sort(key=hint, reverse=True)
    n = len(outcomes)
    suffix_hi: list[Fraction | None] = [Fraction(0)] * (n + 1)
    for i in range(n - 1, -1, -1):
        later, here = suffix_hi[i + 1], ratios[outcomes[i]][1]
        suffix_hi[i] = None if later is None or here is None else max(later, here)
    clusters: list[list[Hashable]] = []
    prefix_lo: Fraction | None = None
    for i, o in enumerate(outcomes):
        after = suffix_hi[i]
        cut = i > 0 and prefix_lo is not None and after is not None and prefix_lo >= after
        if cut or not clusters:
            clusters.append([])
        clusters[-1].append(o)
        lo = ratios[o][0]
        prefix_lo = lo if prefix_lo is None else min(prefix_lo, lo)
    lower: Fraction | None = None
    upper: Fraction | None = Fraction(-(1 << 62))
    event = ""
    before_p, before_q = zero, zero
    for c, cluster in enumerate(clusters):
        if len(cluster) > MAX_TIED:
            upper = None
        sizes = range(1, 1 << len(cluster)) if len(cluster) <= MAX_TIED else (
            (1 << k) - 1 for k in range(1, len(cluster) + 1))
        for mask in sizes:
            chosen = [o for j, o in enumerate(cluster) if mask >> j & 1]
            if c == len(clusters) - 1 and len(chosen) == len(cluster):
                continue  # the whole space: no constraint
            pe = before_p + sum((p.get(o, zero) for o in chosen), zero)
            qe = before_q + sum((q.get(o, zero) for o in chosen), zero)
            v_lo, v_hi, infinite, constrains = _vertex_mu(
                Interval(max(pe.lo, Fraction(0)), min(pe.hi, Fraction(1))),
                Interval(max(qe.lo, Fraction(0)), min(qe.hi, Fraction(1))))
            what = f"{len(chosen) + sum(len(k) for k in clusters[:c])} outcomes of highest " \
                   "likelihood ratio"
            if infinite:
                return None, None, True, what
            if v_lo is not None and (lower is None or v_lo > lower):
                lower, event = v_lo, what
            if upper is not None and constrains:
                upper = None if v_hi is None else max(upper, v_hi)
        before_p = before_p + sum((p.get(o, zero) for o in cluster), zero)
        before_q = before_q + sum((q.get(o, zero) for o in cluster), zero)
    return lower, upper, False, event


def pair_mu(p_law: Distribution[Any], q_law: Distribution[Any]) -> CurveValue:
    """μ* of one ordered pair of finite laws (exact or enclosed): the max over likelihood-ratio
    prefix events E of Φ⁻¹(P(E)) − Φ⁻¹(Q(E)) (module docstring; Dong, Roth and Su 2022,
    Definition 2.6), as an enclosure (``upper`` None when the prefix order is not proved or a
    quantile is out of range; ``infinite`` when +∞ is proved); ``detail`` names the event."""
    if not (p_law.is_finite and q_law.is_finite):
        raise UnsupportedProgram("μ* is computed for laws with finitely many outcomes")
    lo, hi, infinite, event = _pair_mu(p_law, q_law)
    lower = max(Fraction(0), lo) if lo is not None else Fraction(0)
    upper = None if hi is None or infinite else max(hi, lower)
    return CurveValue(lower, upper, infinite, None, event)


def _mu(laws: _Laws) -> CurveValue:
    worst: CurveValue | None = None
    for a, b, _, p, q in laws.distinct():
        found = pair_mu(p, q)
        worst = _worse(worst, CurveValue(found.lower, found.upper, found.infinite, (a, b),
                                         found.detail))
    assert worst is not None
    return worst


def _rho(laws: _Laws, orders: tuple[Fraction, ...], tolerance: Fraction,
         decide: Fraction | None = None
         ) -> tuple[CurveValue, tuple[Fraction, ...], dict[Fraction, CurveValue]]:
    """ρ* = sup_α max_pairs D_α/α, bracketed by monotonicity of D_α (module docstring)."""
    values = {a: _renyi_at(laws, a) for a in orders}
    top = _renyi_infinity(laws)
    if top.infinite or any(v.infinite for v in values.values()):
        witness = top if top.infinite else next(v for v in values.values() if v.infinite)
        return CurveValue(Fraction(0), None, True, witness.witness, witness.detail), \
            tuple(sorted(values)), values
    kl = _kl(laws)  # D_α/α -> KL as α -> 1, so KL <= ρ*
    if 1 + Fraction(1, 64) not in values and min(values) > 1 + Fraction(1, 64):
        values[1 + Fraction(1, 64)] = _renyi_at(laws, 1 + Fraction(1, 64))

    def best_lower() -> tuple[Fraction, CurveValue]:
        grid = sorted(values)
        at = max(grid, key=lambda a: values[a].lower / a)
        found = values[at]
        if kl.lower >= found.lower / at:
            return kl.lower, kl
        return found.lower / at, found

    for _ in range(REFINEMENTS + 1):
        grid = sorted(values)
        lower = best_lower()[0]
        bounds: list[tuple[Fraction | None, str, int]] = []
        bounds.append((values[grid[0]].upper, "first", 0))
        for i in range(len(grid) - 1):
            hi = values[grid[i + 1]].upper
            bounds.append((None if hi is None else hi / grid[i], "middle", i))
        bounds.append((None if top.upper is None else top.upper / grid[-1], "last", 0))
        if any(b is None for b, _, _ in bounds):
            upper = None
            break
        upper_value, where, i = max(((b, w, j) for b, w, j in bounds if b is not None),
                                    key=lambda t: t[0])
        upper = upper_value
        if upper - lower <= tolerance * max(lower, Fraction(1, 10**12)):
            break
        if decide is not None and (upper <= decide or lower > decide):
            break  # the claim ρ = decide is settled; refining further changes no verdict
        if where == "first":
            new = 1 + (grid[0] - 1) / 2
        elif where == "middle":
            new = (grid[i] + grid[i + 1]) / 2
        else:
            new = min(grid[-1] * 2, MAX_ORDER)
            if new == grid[-1]:
                break
        if new in values or len(values) >= len(orders) + REFINEMENTS + 1:
            break
        values[new] = _renyi_at(laws, new)
    lower, attained = best_lower()
    if upper is not None:
        upper = max(upper, lower)
    return (CurveValue(lower, upper, False, attained.witness, attained.detail),
            tuple(sorted(values)), values)


def exact_curves(mechanism: Mechanism[Any], universe: Universe, *,
                 epsilons: Sequence[Real | ExactInput] = (),
                 orders: Sequence[ExactInput] = DEFAULT_ORDERS, mu: bool = True,
                 rho: bool = True, precision: int = DEFAULT_PRECISION,
                 pair_limit: int = 200_000,
                 tolerance: ExactInput = Fraction(1, 100),
                 decide_rho: ExactInput | None = None) -> ExactCurves:
    """The worst-case privacy profile at ``epsilons``, Gaussian-DP μ, Rényi curve at ``orders``
    (with D_∞) and zCDP ρ (bracketed to relative ``tolerance`` or :data:`REFINEMENTS` added orders)
    of ``mechanism`` over every ordered neighboring pair of ``universe``.  With ``decide_rho``
    the ρ refinement also stops as soon as ρ* is proved <= it or > it (the verdict on a
    ``decide_rho``-zCDP claim is then settled, :func:`audit_zcdp`).

    μ, the Rényi curve and ρ need finite output laws (UnsupportedProgram otherwise); the profile
    works for any law the exact auditor handles.  Bad grids raise InvalidArgument naming the
    argument (at most :data:`MAX_GRID` values; orders in (1, MAX_ORDER]).  Sources: Dong, Roth
    and Su 2022 (μ); Mironov 2017 (Rényi DP); Bun and Steinke 2016 (ρ).
    """
    eps_grid = _epsilons(epsilons)
    order_grid = _orders(orders, "orders")
    tol = to_fraction(tolerance, "tolerance")
    if not 0 < tol < 1:
        raise InvalidArgument(f"tolerance={tol} must lie in (0, 1)")
    if not isinstance(precision, int) or isinstance(precision, bool) or precision < 32:
        raise InvalidArgument(f"precision={precision!r} must be an int >= 32")
    if not order_grid and not eps_grid and not mu and not rho:
        raise InvalidArgument("nothing requested: give epsilons or orders, or mu/rho=True")
    laws = _Laws(mechanism, universe, precision, pair_limit)
    profile = tuple((e, _profile_at(laws, e)) for e in eps_grid)
    if order_grid or mu or rho:
        laws.finite("the Rényi curve, μ and ρ")
    mu_value = _mu(laws) if mu else None
    rho_value: CurveValue | None = None
    rho_orders: tuple[Fraction, ...] = ()
    computed: dict[Fraction, CurveValue] = {}
    if rho:
        target = None if decide_rho is None else to_fraction(decide_rho, "decide_rho")
        rho_value, rho_orders, computed = _rho(laws, order_grid or DEFAULT_ORDERS, tol, target)
    renyi = tuple((a, computed[a] if a in computed else _renyi_at(laws, a)) for a in order_grid)
    top = _renyi_infinity(laws) if order_grid or rho else None
    return ExactCurves(mechanism.name, str(mechanism.relation), str(universe), len(laws.pairs),
                       profile, mu_value, renyi, top, rho_value, rho_orders)


@dataclass(frozen=True, slots=True)
class ZCDPAudit:
    """The verdict on a ρ-zCDP claim over a universe, with the enclosure of the exact ρ* and,
    for VIOLATED, the witness pair and order (``rho.witness``, ``rho.detail``)."""

    claim: ZCDPClaim
    verdict: Verdict
    rho: CurveValue
    orders: tuple[Fraction, ...]


def audit_zcdp(mechanism: Mechanism[Any], universe: Universe, claim: ZCDPClaim, *,
               orders: Sequence[ExactInput] = DEFAULT_ORDERS,
               precision: int = DEFAULT_PRECISION,
               pair_limit: int = 200_000) -> ZCDPAudit:
    """Decide ``claim`` (ρ-zCDP) over every ordered neighboring pair of ``universe``: HOLDS when
    the bracketed ρ* is proved <= ρ for every α > 1, VIOLATED when D_α > αρ is proved at some
    pair and order, UNDECIDED otherwise.  Source: Bun and Steinke 2016, Definition 1.1."""
    if not isinstance(claim, ZCDPClaim):
        raise InvalidArgument(f"claim={claim!r} must be a ZCDPClaim")
    if claim.approx_delta:
        raise InvalidArgument(f"claim={claim}: approximate zCDP (approx_delta > 0) is not decided "
                              "from the Renyi curve (its events are unknown); audit it at an "
                              "(epsilon, delta) point (declarations.audited_point)")
    curves = exact_curves(mechanism, universe, orders=orders, mu=False, precision=precision,
                          pair_limit=pair_limit, decide_rho=claim.rho)
    return zcdp_verdict(curves, claim)


def zcdp_verdict(curves: ExactCurves, claim: ZCDPClaim) -> ZCDPAudit:
    """The verdict on ``claim`` from curves computed with ρ (:func:`exact_curves` with
    ``rho=True``): VIOLATED when ρ* > ρ is proved, HOLDS when ρ* <= ρ is proved, else
    UNDECIDED.  Source: Bun and Steinke 2016, Definition 1.1."""
    if claim.approx_delta:
        raise InvalidArgument(f"claim={claim}: approximate zCDP is not decided from the Renyi "
                              "curve; audit it at an (epsilon, delta) point")
    rho = curves.rho
    if rho is None:
        raise InvalidArgument("curves: computed without rho (exact_curves(..., rho=True))")
    if rho.infinite or rho.lower > claim.rho:
        verdict = Verdict.VIOLATED
    elif rho.upper is not None and rho.upper <= claim.rho:
        verdict = Verdict.HOLDS
    else:
        verdict = Verdict.UNDECIDED
    return ZCDPAudit(claim, verdict, rho, curves.rho_orders)


@dataclass(frozen=True, slots=True)
class GaussianAudit:
    """The verdict on a μ-GDP claim over a universe, with the enclosure of the exact μ* and its
    witness (pair and likelihood-ratio event) in ``mu``."""

    claim: GDPClaim
    verdict: Verdict
    mu: CurveValue


def audit_gdp(mechanism: Mechanism[Any], universe: Universe, claim: GDPClaim, *,
              precision: int = DEFAULT_PRECISION, pair_limit: int = 200_000) -> GaussianAudit:
    """Decide a μ-GDP claim over every ordered neighboring pair of ``universe``: HOLDS when the
    exact μ* is proved <= μ, VIOLATED when proved > μ, UNDECIDED otherwise.  Source: Dong, Roth
    and Su 2022, Definition 2.6 (μ* by the vertex argument of the module docstring)."""
    if not isinstance(claim, GDPClaim):
        raise InvalidArgument(f"claim={claim!r} must be a GDPClaim (GDPClaim.of(mu))")
    curves = exact_curves(mechanism, universe, orders=(), mu=True, rho=False,
                          precision=precision, pair_limit=pair_limit)
    found = curves.mu
    assert found is not None
    if found.infinite or found.lower > claim.mu:
        verdict = Verdict.VIOLATED
    elif found.upper is not None and found.upper <= claim.mu:
        verdict = Verdict.HOLDS
    else:
        verdict = Verdict.UNDECIDED
    return GaussianAudit(claim, verdict, found)
