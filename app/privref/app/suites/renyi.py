"""Rényi rows of ``privref audit``: exact per-query Rényi curves of paper 001's Gaussian PATE.

Each row decides a ρ-zCDP claim of 001 Algorithm 1 (the accounting of 001 Theorem 2's proof:
each query of a sensitivity-1 vote count at noise σ² is 1/(2σ²)-zCDP, ℓ queries ℓ/(2σ²)) over
every ordered neighboring pair of its universe with :func:`privref.audits.curves.audit_zcdp`:
HOLDS is a proof over every order α > 1 (by the monotonicity bracketing of
:mod:`privref.audits.curves`), not a grid check.  The JSON record carries the exact Rényi curve
(every order of :data:`~privref.audits.curves.DEFAULT_ORDERS`, as enclosures), D_∞ and the
worst-case ρ*; the table shows ρ* against the claimed ρ.

Universes: one query with K in {2, 3} teachers, two queries with K = 2 (a neighbor substitutes
one teacher's label vector); ``deep`` takes K in {2, 3, 4} for both.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from privref.audits.curves import DEFAULT_ORDERS, ExactCurves, ZCDPAudit, exact_curves, zcdp_verdict
from privref.reference.citations import Source, cite
from privref.reference.data import Dataset
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.pate import (
    continuous_gaussian_votes,
    gaussian_pate_at,
    gaussian_pate_epsilon,
    gaussian_pate_rho,
    teacher_votes,
)
from privref.reference.privacy import ZCDPClaim
from privref.reference.program import Program
from privref.reference.verdict import Verdict

__all__ = ["RenyiBuiltin", "renyi_audits"]


@dataclass(frozen=True, slots=True)
class RenyiBuiltin:
    """One Rényi row of ``privref audit``: a mechanism, its universe, the ρ-zCDP claim decided
    and the ledger entry stating it (``source``)."""

    mechanism: Mechanism[Any]
    universe: Universe
    claim: ZCDPClaim
    label: str
    source: Source

    def run(self) -> tuple[ZCDPAudit, ExactCurves]:
        """The zCDP verdict and the exact curves (Rényi at every default order, D_∞, ρ*)."""
        curves = exact_curves(self.mechanism, self.universe, orders=DEFAULT_ORDERS)
        return zcdp_verdict(curves, self.claim), curves


def _continuous_pate(queries: int, sigma: int) -> Mechanism[tuple[int, ...]]:
    """001 Algorithm 1 with the paper's N(0, σ²) noise at a given σ (the printed algorithm's
    noise, :func:`privref.reference.pate.continuous_gaussian_votes`)."""
    def program(data: Dataset) -> Program[tuple[int, ...]]:
        votes, k = teacher_votes(data, queries)
        return (yield from continuous_gaussian_votes(votes, k, sigma))

    return Mechanism("Gaussian PATE (continuous)", program,
                     gaussian_pate_epsilon(queries, sigma * sigma, Fraction(1, 10)),
                     cite("001 Theorem 2 (proof)"), order_invariant=True,
                     description=f"001 Algorithm 1 on {queries} queries with N(0, {sigma}^2)")


def renyi_audits(deep: bool) -> list[RenyiBuiltin]:
    """The Rényi rows: Gaussian PATE (discrete σ² = 1, one and two queries; continuous σ = 1,
    one query), each at its ρ = ℓ/(2σ²) (:func:`privref.reference.pate.gaussian_pate_rho`)."""
    sizes = (2, 3, 4) if deep else (2, 3)
    rows = []
    for ell in (1, 2):
        teachers = Universe(tuple(itertools.product((0, 1), repeat=ell)),
                            sizes if ell == 1 or deep else (2,))
        rows.append(RenyiBuiltin(gaussian_pate_at(ell, 1, Fraction(1, 10)), teachers,
                                 gaussian_pate_rho(ell, 1),
                                 f"Gaussian PATE, Renyi curve ({ell} "
                                 f"quer{'y' if ell == 1 else 'ies'}, discrete sigma^2=1) "
                                 "[001 Algorithm 1]", cite("001 Theorem 2 (proof)")))
    one = Universe(((0,), (1,)), sizes)
    rows.append(RenyiBuiltin(_continuous_pate(1, 1), one, gaussian_pate_rho(1, 1),
                             "Gaussian PATE, Renyi curve (1 query, continuous sigma=1) "
                             "[001 Algorithm 1]", cite("001 Theorem 2 (proof)")))
    return rows


def table_cells(row: RenyiBuiltin, found: ZCDPAudit) -> tuple[str, str, str, str, str, str]:
    """The row of ``privref audit``'s table: name, source, claimed ρ (zCDP), '-', the exact
    worst-case ρ* = sup_α D_α/α, verdict."""
    return (row.label, str(row.source), f"rho {row.claim.rho} (zCDP)", "-",
            f"rho {found.rho.text()}", found.verdict.value)


def json_record(row: RenyiBuiltin, found: ZCDPAudit, curves: ExactCurves) -> dict[str, Any]:
    """The JSON record of one Rényi row: the fields every ``privref audit`` row has (the float
    ε fields null: the claim is zCDP), the claimed and worst-case ρ, and the exact curves."""
    return {"mechanism": row.label, "kind": "renyi", "source": str(row.source),
            "claimed_rho": str(row.claim.rho), "claimed_epsilon": None, "claimed_delta": None,
            "epsilon_lower": None, "epsilon_upper": None,
            "verdict": found.verdict.value, "expected_verdict": Verdict.HOLDS.value,
            "relation": curves.relation, "universe": curves.universe, "pairs": curves.pairs,
            "witness": found.rho.to_json()["witness"],
            "rho": found.rho.to_json(), "rho_orders": [str(a) for a in found.orders],
            "curves": curves.to_json()}
