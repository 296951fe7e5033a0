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
from fractions import Fraction
from typing import Any

from privref.reference.data import as_dataset
from privref.reference.errors import InvalidArgument, UnsupportedProgram
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import check_neighbors
from privref.reference.program import Distribution
from privref.reference.reals import Real, exp, log, rational
from privref.reference.validate import ExactInput, to_fraction

__all__ = ["MAX_ORDER", "renyi_curve", "renyi_divergence", "renyi_divergence_of_laws"]

MAX_ORDER = Fraction(1 << 16)
"""Largest order α accepted (p^α of a rational p has α times its digits)."""


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
