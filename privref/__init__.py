"""privref: exact reference implementations of private learning algorithms, and auditors.

This module is the documented façade of the public API.  The layers underneath are
subpackages, each importable on its own:

* :mod:`privref.reference`: mechanisms and learners, each written once as a probabilistic
  program with an exact law and an exact sampler;
* :mod:`privref.audits`: the exact auditor (worst case over a finite universe) and the
  black-box auditor (Clopper–Pearson lower bounds for any callable);
* :mod:`privref.proofs`: the ledger of the papers' numbered results;
* :mod:`privref.app`: the ``privref`` command, the built-in audit suite and the experiments;
* :mod:`validation`: the mechanism zoo and oracle used to validate the black-box auditor.

Everything named here is re-exported from those subpackages and carries their guarantees.
"""

from .audits import (
    AuditReport,
    PairReport,
    PrivacyProfile,
    Verdict,
    assert_private,
    audit,
    audit_pair,
    privacy_profile,
)
from .audits.blackbox import (
    AuditConfig,
    BlackboxReport,
    BlackboxVerdict,
    InputDomain,
    SearchSpace,
    Target,
    declare,
    load_target,
    register_target,
    run_audit,
    target_from_callable,
)
from .proofs import Entry, Status
from .reference import (
    AddRemove,
    Distribution,
    InvalidArgument,
    LabelSubstitution,
    Mechanism,
    PrivacyClaim,
    PrivrefError,
    PublicPrivate,
    Substitution,
    Universe,
    __version__,
    bernoulli,
    categorical,
    distribution,
    sample,
    uniform,
)
from .reference.privacy import GDPClaim, ProfileClaim, ZCDPClaim

__all__ = [
    "AddRemove",
    "AuditConfig",
    "AuditReport",
    "BlackboxReport",
    "BlackboxVerdict",
    "Distribution",
    "Entry",
    "GDPClaim",
    "InputDomain",
    "InvalidArgument",
    "LabelSubstitution",
    "Mechanism",
    "PairReport",
    "PrivacyClaim",
    "PrivacyProfile",
    "PrivrefError",
    "ProfileClaim",
    "PublicPrivate",
    "SearchSpace",
    "Status",
    "Substitution",
    "Target",
    "Universe",
    "Verdict",
    "ZCDPClaim",
    "__version__",
    "assert_private",
    "audit",
    "audit_pair",
    "bernoulli",
    "categorical",
    "declare",
    "distribution",
    "load_target",
    "privacy_profile",
    "register_target",
    "run_audit",
    "sample",
    "target_from_callable",
    "uniform",
]
