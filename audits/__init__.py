"""privref auditors: the exact auditor (and, later, the black-box auditor)."""

from .blackbox.api import assert_private
from .exact import (
    AuditReport,
    PairReport,
    Verdict,
    audit,
    audit_pair,
    epsilon_text,
    verify_order_invariance,
)
from .profile import PrivacyProfile, privacy_profile

__all__ = [
    "AuditReport",
    "PairReport",
    "PrivacyProfile",
    "Verdict",
    "assert_private",
    "audit",
    "audit_pair",
    "epsilon_text",
    "privacy_profile",
    "verify_order_invariance",
]
