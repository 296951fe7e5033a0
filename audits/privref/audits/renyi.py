"""Rényi divergences of a neighbouring pair's exact output laws: the exact auditor's RDP curve.

For laws P, Q on a finite set and an order α > 1 (Rényi 1961; Mironov 2017, Definition 3),

    D_α(P ‖ Q) = 1/(α − 1) · ln Σ_o P(o)^α · Q(o)^(1 − α),

and D_α = +∞ when P puts mass where Q has none.  A mechanism is (α, ε)-RDP when D_α <= ε for every
ordered pair of neighbours (Mironov 2017, Definition 4), and ρ-zCDP when D_α <= αρ for every α > 1
(Bun and Steinke 2016, Definition 1.1); so one pair and one order with D_α > αρ, proved, refutes
a ρ-zCDP claim, while no finite grid of orders proves one.

For exact rational laws and an integer α the sum is an exact rational (Σ p^α / q^(α−1)), and
D_α is ln of it over α − 1, an exact :class:`~privref.reference.reals.Real`; for a non-integer
rational α each term is exp(α ln p + (1 − α) ln q), still exact as a Real.  Enclosures at any
precision come from the Real; decisions go through :mod:`privref.reference.decide`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from privref.reference.data import as_dataset
from privref.reference.directed import exp_sum_bounds, log_bounds
from privref.reference.errors import InvalidArgument, UnsupportedProgram
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import check_neighbors
from privref.reference.program import Distribution
from privref.reference.reals import Interval, Real, exp, log, prob_as_interval, rational
from privref.reference.validate import ExactInput, to_fraction

__all__ = [
    "MAX_ORDER",
    "LawPair",
    "RenyiEnclosure",
    "renyi_curve",
    "renyi_divergence",
    "renyi_divergence_of_laws",
    "renyi_enclosure_of_laws",
]

MAX_ORDER = Fraction(1 << 16)
"""Largest order α accepted (p^α of a rational p has α times its digits)."""


@dataclass(frozen=True, slots=True)
class RenyiEnclosure:
    """A rigorous enclosure [lower, upper] of a divergence that may be +∞: ``infinite`` when +∞
    is proved (then ``upper`` is None); ``upper`` None and not ``infinite`` when no finite upper
    bound is known at this precision.  ``lower`` >= 0 always holds for a divergence."""

    lower: Fraction
    upper: Fraction | None
    infinite: bool = False


def _order(alpha: object) -> Fraction:
    a = to_fraction(alpha, "alpha")
    if not 1 < a <= MAX_ORDER:
        raise InvalidArgument(f"alpha={a} must lie in (1, {MAX_ORDER}] (MAX_ORDER)")
    return a


def _exact_masses(law: Distribution[Any], name: str) -> dict[Hashable, Fraction]:
    if not (law.is_finite and law.is_exact):
        raise UnsupportedProgram(f"{name}: the Rényi divergence is computed for exact finite laws "
                                 "(rational probabilities, no continuous noise)")
    masses: dict[Hashable, Fraction] = {}
    for outcome, p in law.items():
        assert isinstance(p, Fraction)
        masses[outcome] = p
    return masses


def renyi_divergence_of_laws(p_law: Distribution[Any], q_law: Distribution[Any],
                             alpha: ExactInput) -> Real | None:
    """D_α(P ‖ Q) of two exact finite laws as an exact Real, or None when it is +∞ (P has mass
    where Q has none).  α > 1 rational, at most MAX_ORDER.  Source: Rényi 1961; Mironov 2017,
    Definition 3."""
    a = _order(alpha)
    p = _exact_masses(p_law, "P")
    q = _exact_masses(q_law, "Q")
    if any(o not in q for o in p):
        return None
    if a.denominator == 1:
        n = a.numerator
        total = sum((p[o] ** n / q[o] ** (n - 1) for o in p), Fraction(0))
        return log(rational(total)) * (1 / (a - 1))
    terms: Real = rational(0)
    for o in p:
        terms = terms + exp(log(rational(p[o])) * a + log(rational(q[o])) * (1 - a))
    return log(terms) * (1 / (a - 1))


def renyi_divergence(mechanism: Mechanism[Any], a: Iterable[Hashable], b: Iterable[Hashable],
                     alpha: ExactInput) -> Real | None:
    """D_α(M(a) ‖ M(b)) for neighbours a, b (NotNeighboring otherwise) of a mechanism with exact
    finite output laws (UnsupportedProgram otherwise); None when it is +∞."""
    da, db = as_dataset(a), as_dataset(b)
    check_neighbors(mechanism.relation, da, db)
    return renyi_divergence_of_laws(mechanism.distribution(da), mechanism.distribution(db), alpha)


def renyi_curve(mechanism: Mechanism[Any], a: Iterable[Hashable], b: Iterable[Hashable],
                alphas: Sequence[ExactInput]) -> tuple[tuple[Fraction, Real | None], ...]:
    """(α, D_α(M(a) ‖ M(b))) at each order of a non-empty grid (the pair's RDP curve; None is
    +∞); the laws are computed once."""
    if not alphas:
        raise InvalidArgument("alphas=() must hold at least one order")
    orders = [_order(x) for x in alphas]
    da, db = as_dataset(a), as_dataset(b)
    check_neighbors(mechanism.relation, da, db)
    p_law, q_law = mechanism.distribution(da), mechanism.distribution(db)
    return tuple((x, renyi_divergence_of_laws(p_law, q_law, x)) for x in orders)


class LawPair:
    """Two finite laws P, Q (exact or enclosed probabilities) prepared for their divergences:
    the logs of every probability's enclosure ends are computed once, so each order α costs two
    exponentials per outcome.  Build with :meth:`of`; every method returns a
    :class:`RenyiEnclosure`.  Sources: Rényi 1961; van Erven and Harremoës 2014."""

    __slots__ = ("_infinite", "_precision", "_rows", "_unbounded")

    def __init__(self, rows: tuple[tuple[Interval, Interval, Interval | None, Interval | None],
                                   ...], infinite: bool, unbounded: bool, precision: int) -> None:
        self._rows = rows
        self._infinite = infinite
        self._unbounded = unbounded
        self._precision = precision

    @staticmethod
    def of(p_law: Distribution[Any], q_law: Distribution[Any], precision: int = 64) -> LawPair:
        """Prepare (P, Q); finite laws only (UnsupportedProgram otherwise).  Per outcome it keeps
        P's and Q's enclosures and, where positive, the enclosures of their logs' ends."""
        if not (p_law.is_finite and q_law.is_finite):
            raise UnsupportedProgram("the Rényi divergence is computed for laws with finitely "
                                     "many outcomes")
        prec = max(32, int(precision))
        q_probs = {o: prob_as_interval(pr) for o, pr in q_law.items()}
        rows = []
        infinite = unbounded = False
        for o, pr in p_law.items():
            p = prob_as_interval(pr)
            if p.hi <= 0:
                continue
            q = q_probs.get(o, Interval.point(0))
            if q.hi <= 0:
                if p.lo > 0:
                    infinite = True
                unbounded = True
                continue
            if q.lo <= 0 or p.lo <= 0:
                unbounded = unbounded or q.lo <= 0
            log_p = Interval(_log_end(p.lo, prec, up=False), _log_end(p.hi, prec, up=True)) \
                if p.lo > 0 else None
            log_q = Interval(_log_end(q.lo, prec, up=False), _log_end(q.hi, prec, up=True)) \
                if q.lo > 0 else None
            rows.append((p, q, log_p, log_q))
        return LawPair(tuple(rows), infinite, unbounded, prec)

    def renyi(self, alpha: ExactInput) -> RenyiEnclosure:
        """D_α(P ‖ Q), α > 1 rational: each term p^α q^(1−α) increases in p and decreases in q,
        so it lies between its values at (p_lo, q_hi) and (p_hi, q_lo); the sum's log over
        α − 1 is enclosed.  Source: Rényi 1961; Mironov 2017, Definition 3."""
        a = _order(alpha)
        if self._infinite:
            return RenyiEnclosure(Fraction(0), None, True)
        prec = self._precision
        lows: list[Fraction] = []
        highs: list[Fraction] = []
        for p, q, log_p, log_q in self._rows:
            if log_p is not None:
                log_q_hi = _log_end(q.hi, prec, up=True) if log_q is None else log_q.hi
                lows.append(a * log_p.lo + (1 - a) * log_q_hi)
            if log_q is not None:
                log_p_hi = log_p.hi if log_p is not None else _log_end(p.hi, prec, up=True)
                highs.append(a * log_p_hi + (1 - a) * log_q.lo)
        lower_sum = exp_sum_bounds(lows, prec).lo
        upper_sum = exp_sum_bounds(highs, prec).hi
        scale = 1 / (a - 1)
        lower = Fraction(0)
        if lower_sum > 1:  # D_α >= 0 always; a sum <= 1 gives nothing better
            lower = max(Fraction(0), _log_end(lower_sum, prec, up=False) * scale)
        if self._unbounded:
            return RenyiEnclosure(lower, None, False)
        upper = _log_end(upper_sum, prec, up=True) * scale if upper_sum > 0 else Fraction(0)
        return RenyiEnclosure(lower, max(upper, lower), False)

    def max_log_ratio(self) -> RenyiEnclosure:
        """D_∞(P ‖ Q) = max_o ln(P(o)/Q(o)) (the limit of D_α as α → ∞; the pair's pure ε).
        Source: van Erven and Harremoës 2014, Theorem 6."""
        if self._infinite:
            return RenyiEnclosure(Fraction(0), None, True)
        lower, upper = Fraction(0), Fraction(0)
        for p, q, log_p, log_q in self._rows:
            if log_p is not None:
                lower = max(lower, log_p.lo - _log_end(q.hi, self._precision, up=True))
            if log_q is not None:
                p_hi = log_p.hi if log_p is not None else _log_end(p.hi, self._precision, up=True)
                upper = max(upper, p_hi - log_q.lo)
        if self._unbounded:
            return RenyiEnclosure(lower, None, False)
        return RenyiEnclosure(lower, max(upper, lower), False)

    def kl(self) -> RenyiEnclosure:
        """KL(P ‖ Q) = Σ P ln(P/Q), the limit of D_α as α → 1 (so a lower bound on
        sup_α D_α/α, the zCDP ρ).  Where P's or Q's mass may be 0, p ln(p/q) >= p − q is used
        for the lower end.  Source: van Erven and Harremoës 2014, Theorem 5."""
        if self._infinite:
            return RenyiEnclosure(Fraction(0), None, True)
        prec = self._precision
        total = Interval.point(0)
        for p, q, log_p, log_q in self._rows:
            if log_p is None or log_q is None:
                total = total + Interval.point(p.lo - q.hi)
                continue
            total = (total + p * Interval(log_p.lo - log_q.hi, log_p.hi - log_q.lo)).rounded(prec)
        lower = max(Fraction(0), total.lo)
        if self._unbounded or any(lp is None or lq is None for _, _, lp, lq in self._rows):
            return RenyiEnclosure(lower, None, False)
        return RenyiEnclosure(lower, max(total.hi, lower), False)


def _round(x: Fraction, prec: int, *, up: bool) -> Fraction:
    """x rounded outward to ``prec`` significant bits."""
    box = Interval.point(x).rounded(prec)
    return box.hi if up else box.lo


def _log_end(x: Fraction, prec: int, *, up: bool) -> Fraction:
    """An end of an enclosure of ln x, x > 0 (rounded outward to ``prec`` bits first)."""
    box = log_bounds(_round(x, prec, up=up), prec)
    return _round(box.hi, prec, up=True) if up else _round(box.lo, prec, up=False)


def renyi_enclosure_of_laws(p_law: Distribution[Any], q_law: Distribution[Any], alpha: ExactInput,
                            precision: int = 64) -> RenyiEnclosure:
    """An enclosure of D_α(P ‖ Q) for finite laws whose probabilities are exact or enclosed,
    α > 1 rational (:meth:`LawPair.renyi`).  ``infinite`` is proved when some outcome has P-mass
    bounded away from 0 and Q-mass exactly 0; ``upper`` is None when Q's mass at some outcome P
    may charge cannot be bounded away from 0.  Source: Rényi 1961; Mironov 2017, Definition 3."""
    return LawPair.of(p_law, q_law, precision).renyi(alpha)
