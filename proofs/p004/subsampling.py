"""Ledger: 004 Claim C.1 / 000 Claim 4.3 (privacy amplification by subsampling)."""

from __future__ import annotations

from privref.reference.composition import leak
from privref.reference.exponential import count_score, exponential_mechanism_rational
from privref.reference.neighbors import Universe
from privref.reference.randomized_response import randomized_response
from privref.reference.subsampling import subsample

from .._common import audit_result, combine
from .._ledger import Check, CheckResult, Entry, Kind, Status

__all__ = ["ENTRIES", "check_subsampling_audits"]



def check_subsampling_audits() -> CheckResult:
    """Exact audits of 𝓑 = subsample(𝒜) with t = n(3 + e^eps*)/eps for several 𝒜, n, t.

    𝒜 ranges over randomized response (eps* = ln 3, ln 2), a delta-leaking
    randomized response (stresses the delta term) and a rational-base
    exponential mechanism on counts with n = 2.  Each claim is
    (eps, 4·eps/(3 + e^eps*)·delta) as computed by reference.subsampling.
    """
    rr3 = randomized_response("3/4")
    rr2 = randomized_response("2/3")
    em = exponential_mechanism_rational((0, 1, 2), count_score, base="5/4")  # e^eps* = 25/16
    results = [
        audit_result(subsample(rr3, 1, 6), Universe((0, 1), (6,)))[0],
        audit_result(subsample(rr2, 1, 5), Universe((0, 1), (5,)))[0],
        audit_result(subsample(rr2, 1, 7), Universe((0, 1), (7,)))[0],
        audit_result(subsample(leak(rr3, "1/10"), 1, 8), Universe((0, 1), (8,)))[0],
        audit_result(subsample(leak(rr2, "1/5"), 1, 5), Universe((0, 1), (5,)))[0],
        audit_result(subsample(em, 2, 10), Universe((0, 1), (10,)))[0],
    ]
    return combine(results)


_STATEMENT = (
    "If 𝒜 is (eps*, delta)-DP on databases of size n, eps <= 1 and t = (n/eps)(3 + e^eps*), "
    "then running 𝒜 on a uniformly random size-n subset of a size-t database is "
    "(eps, 4·eps/(3 + e^eps*)·delta)-DP under substitution.")
_CHECKS = (Check("exact audits of subsample(𝒜) at the claimed (eps, delta')",
                 check_subsampling_audits),)
_NOTE = ("Neither version proves the claim (cited from [21,5]); the numeric comparison with "
         "the tight amplification bound is the proof-step entry '/ tight bound'.")

ENTRIES: tuple[Entry, ...] = (
    Entry(paper="004", number="Claim C.1", statement=_STATEMENT, kind=Kind.CLAIM,
          status=Status.CHECKED, checks=_CHECKS, also=("000 Claim 4.3",),
          subjects=("reference.subsampling",), notes=_NOTE),
)
