"""privref auditors: the exact auditor (and, later, the black-box auditor)."""

from .exact import AuditReport, PairReport, Verdict, audit, audit_pair, epsilon_text

__all__ = ["AuditReport", "PairReport", "Verdict", "audit", "audit_pair", "epsilon_text"]
