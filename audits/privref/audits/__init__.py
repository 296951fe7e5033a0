"""privref's auditors: the exact auditor and the black-box auditor.

* :mod:`privref.audits.exact`: the true worst-case loss over every neighboring pair of a finite
  universe, decided exactly or with interval arithmetic (:mod:`privref.audits.loss` for one pair);
* :mod:`privref.audits.renyi`: exact Rényi divergences of a pair's laws (RDP and zCDP claims);
* :mod:`privref.audits.curves`: the worst case over a universe of the privacy profile, Gaussian-DP
  μ, the Rényi curve and the zCDP ρ, with verdicts on ρ-zCDP and μ-GDP claims;
* :mod:`privref.audits.prediction`: the same exactness for per-query guarantees of prediction
  algorithms (paper 002's private prediction and uniform stability);
* :mod:`privref.audits.blackbox`: Clopper–Pearson lower bounds on the loss of any callable;
* :mod:`privref.audits.stats`: the exact binomial statistics both of them and the ledger use.
"""

if __name__ != "privref.audits":  # one importable name per module (docs/layout.md)
    raise ImportError(f"import privref.audits, not {__name__}: this folder is privref.audits")

from .blackbox.api import assert_private
from .curves import (
    CurveValue,
    ExactCurves,
    GaussianAudit,
    ZCDPAudit,
    audit_gdp,
    audit_zcdp,
    exact_curves,
    zcdp_verdict,
)
from .exact import (
    AuditReport,
    PairReport,
    Verdict,
    audit,
    audit_pair,
    epsilon_text,
    verify_order_invariance,
)
from .prediction import (
    PredictionAuditReport,
    PredictionWitness,
    audit_prediction,
    audit_prediction_pair,
)
from .profile import PrivacyProfile, privacy_profile
from .renyi import renyi_curve, renyi_divergence

__all__ = [
    "AuditReport",
    "CurveValue",
    "ExactCurves",
    "GaussianAudit",
    "PairReport",
    "PredictionAuditReport",
    "PredictionWitness",
    "PrivacyProfile",
    "Verdict",
    "ZCDPAudit",
    "assert_private",
    "audit",
    "audit_gdp",
    "audit_pair",
    "audit_prediction",
    "audit_prediction_pair",
    "audit_zcdp",
    "epsilon_text",
    "exact_curves",
    "privacy_profile",
    "renyi_curve",
    "renyi_divergence",
    "verify_order_invariance",
    "zcdp_verdict",
]
