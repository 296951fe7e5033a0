"""Built-in exact audits of the prediction algorithms of paper 002 (Dagan and Feldman).

Each :class:`PredictionBuiltin` row audits one predictor's per-query claim (γ-uniform
stability or (ε, δ)-private prediction, 002 §2) with
:func:`privref.audits.prediction.audit_prediction`: worst case over every neighboring pair
(substitution, same n) of a tiny universe of labeled examples and over every query point of
the class's domain, one query at a time.  The rows cover Algorithms 1–3, the core of
Algorithm 3 (an (ε, δ) claim), and the baselines B1–B5.  Weights are rational: every
exponential-mechanism ε is 2·ln(r) for a rational r.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from privref.audits.prediction import PredictionAuditReport, PredictionWitness, audit_prediction
from privref.reference.concepts import thresholds_on
from privref.reference.learners.prediction_baselines import (
    block_average_predictor,
    flipped_average_predictor,
    generic_predictor,
    private_majority_predictor,
    subsample_predictor,
)
from privref.reference.learners.relabel_prediction import relabel_core_predictor, relabel_predictor
from privref.reference.learners.stable_prediction import private_predictor, stable_predictor
from privref.reference.neighbors import Universe
from privref.reference.prediction import Predictor, UniformStability
from privref.reference.reals import rational

__all__ = ["PredictionBuiltin", "json_record", "prediction_audits", "table_cells"]


@dataclass(frozen=True, slots=True)
class PredictionBuiltin:
    """One prediction row of ``privref audit``: a predictor, its universe and its query points.

    The audited claim is the predictor's own, whose ``source`` cites the ledger entry that
    states it (a test checks every citation resolves and is not REFUTED).
    """

    predictor: Predictor
    universe: Universe
    queries: tuple[Hashable, ...]
    label: str

    def run(self) -> PredictionAuditReport:
        """The exact audit of this row (:func:`privref.audits.prediction.audit_prediction`)."""
        return audit_prediction(self.predictor, self.universe, self.queries)


def prediction_audits(deep: bool) -> list[PredictionBuiltin]:
    """The 002 rows of ``privref audit``: thresholds on 3 points, n = 2 (n = 3 when ``deep``)."""
    C = thresholds_on(3)
    n = 3 if deep else 2
    examples = tuple((x, y) for x in C.domain for y in (0, 1))
    universe = Universe(examples, (n,))
    queries = tuple(C.domain)
    eps = "2*ln(3/2)"       # e^{ε/2} = 3/2: exact rational weights
    small = "2*ln(5/4)"
    rows = [
        (stable_predictor(C, n, 1, eps), "002 Algorithm 1"),
        (private_predictor(C, n, 1, eps, "1/4"), "002 Algorithm 2"),
        (relabel_core_predictor(C, n, 1, small, 1, small), "002 Algorithm 3, core"),
        (relabel_predictor(C, n, 1, small, 1, small, "1/4"), "002 Algorithm 3"),
        (subsample_predictor(C, n, 1), "B1"),
        (block_average_predictor(C, n, n), "B2"),
        (flipped_average_predictor(C, n, n, "1/4"), "B3"),
        (private_majority_predictor(C, n, n, eps), "B4"),
        (generic_predictor(C, n, eps), "B5"),
    ]
    return [PredictionBuiltin(p, universe, queries, f"{p.name} [{tag}; {C.name}, n={n}]")
            for p, tag in rows]


def _fraction_text(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):.6g} = {value}"


def _epsilon_text(report: PredictionAuditReport) -> str:
    if report.epsilon_infinite:
        return "inf"
    if report.epsilon_exact is not None:
        exact = report.epsilon_exact
        return f"{float(exact):.6g}" + (f" = {exact}" if exact.exact is None else "")
    upper = "inf" if report.epsilon_upper is None else f"{float(report.epsilon_upper):.6g}"
    return f"[{float(report.epsilon_lower):.6g}, {upper}]"


def _gamma_text(report: PredictionAuditReport) -> str:
    if report.gamma_exact is not None:
        return f"γ {_fraction_text(report.gamma_exact)}"
    return f"γ [{float(report.gamma_lower):.6g}, {float(report.gamma_upper):.6g}]"


def table_cells(row: PredictionBuiltin, report: PredictionAuditReport
                ) -> tuple[str, str, str, str, str, str]:
    """The row of ``privref audit``'s table: name, source, claimed ε (or γ), claimed δ,
    the exact worst case (ε at the claimed δ, or γ for a stability claim), verdict."""
    claim = report.claim
    if isinstance(claim, UniformStability):
        claimed, delta, worst = f"γ {claim.gamma}", "-", _gamma_text(report)
    else:
        eps = claim.epsilon
        claimed = f"{float(eps):.6g}" + ("" if eps.exact is not None else f" = {eps}")
        delta, worst = str(claim.delta), _epsilon_text(report)
    return (row.label, report.source, claimed, delta, worst, report.verdict.value)


def _witness(w: PredictionWitness | None) -> dict[str, Any] | None:
    if w is None:
        return None
    return {"a": repr(w.a), "b": repr(w.b), "x": repr(w.x), "y": w.y}


def json_record(row: PredictionBuiltin, report: PredictionAuditReport) -> dict[str, Any]:
    """The JSON record of one prediction row, with the fields every ``privref audit`` row has.

    ``claimed_epsilon``/``claimed_delta`` read the claim as (ε, δ)-DP of S ↦ A(S, x)
    (γ-stability as (0, γ), :meth:`~privref.reference.prediction.Predictor.at`); the float
    ``epsilon_lower``/``epsilon_upper`` enclose the worst-case ε at the claimed δ for a
    private-prediction claim and are null for a stability claim, whose worst case is γ
    (``gamma_*``).  Exact values are strings (``*_exact``), witnesses (pair, x, y) reprs.
    """
    claim = report.claim
    lower: float | None = None
    upper: float | None = None
    if isinstance(claim, UniformStability):
        claimed_eps, claimed_delta = rational(0), claim.gamma
    else:
        claimed_eps, claimed_delta = claim.epsilon, rational(claim.delta)
        lower = float(report.epsilon_lower)
        upper = None if report.epsilon_upper is None else float(report.epsilon_upper)
        if report.epsilon_exact is not None:
            lower = upper = float(report.epsilon_exact)
    return {
        "mechanism": row.label, "kind": "prediction", "source": report.source,
        "claimed_epsilon": float(claimed_eps), "claimed_epsilon_exact": str(claimed_eps),
        "claimed_delta": float(claimed_delta), "claimed_delta_exact": str(claimed_delta),
        "epsilon_lower": lower, "epsilon_upper": upper,
        "witness": _witness(report.verdict_witness or report.epsilon_witness),
        "claim": str(claim), "relation": report.relation, "universe": report.universe,
        "queries": [repr(x) for x in report.queries], "pairs": report.pairs,
        "verdict": report.verdict.value, "verdict_witness": _witness(report.verdict_witness),
        "gamma_lower": str(report.gamma_lower), "gamma_upper": str(report.gamma_upper),
        "gamma_exact": None if report.gamma_exact is None else str(report.gamma_exact),
        "gamma_witness": _witness(report.gamma_witness), "delta": str(report.delta),
        "epsilon_exact": None if report.epsilon_exact is None else str(report.epsilon_exact),
        "epsilon_lower_exact": str(report.epsilon_lower),
        "epsilon_upper_exact": None if report.epsilon_upper is None else str(report.epsilon_upper),
        "epsilon_infinite": report.epsilon_infinite,
        "epsilon_witness": _witness(report.epsilon_witness), "precision": report.precision,
    }
