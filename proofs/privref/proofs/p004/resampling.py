"""Ledger: 004 Claim C.3 / 000 Claim 4.5 (i.i.d. resampling, Algorithm 𝓑 of 004)."""

from __future__ import annotations

from privref.reference.composition import leak
from privref.reference.decide import at_least, less_than
from privref.reference.exponential import count_score, exponential_mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import log
from privref.reference.resampling import resample_iid

from .._common import audit_result, combine
from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from .numeric import REPAIRED_CHAIN_CHECKS

__all__ = ["ENTRIES", "check_resampling_audits"]



def check_resampling_audits() -> CheckResult:
    """Exact audits of 𝓑 (n = 1..4) with eps <= 1 inner mechanisms, pure and delta-leaking.

    Besides the claim (ln 244, 2467·delta), the pure case also checks the
    exact worst-case loss stays below the inner mechanism's eps = 1 bound's
    image ln 244 by a wide margin (the inventory reports 0.53 for n <= 5).
    """
    results: list[CheckResult] = []
    for n in (1, 2, 3, 4):
        outs = tuple(range(n + 1))
        em1 = exponential_mechanism(outs, count_score, epsilon=1)
        res, report = audit_result(resample_iid(em1), Universe((0, 1), (n,)))
        results.append(res)
        if n <= 3:
            leaky = leak(exponential_mechanism(outs, count_score, epsilon="2*ln(3/2)"), "1/5000")
            results.append(audit_result(resample_iid(leaky), Universe((0, 1), (n,)))[0])
        if report.epsilon_upper is not None and less_than(report.epsilon_upper,
                                                          log(244)) is not Verdict.HOLDS:
            # epsilon_upper only bounds the worst eps from above: a refutation needs the lower end
            refuted = at_least(report.epsilon_lower, log(244)) is Verdict.HOLDS
            results.append(CheckResult(
                Verdict.VIOLATED if refuted else Verdict.UNDECIDED,
                f"n={n}: worst eps {'>= ln 244' if refuted else 'not proved < ln 244'}",
                witness=f"n={n}" if refuted else None))
    return combine(results)


def check_resampling_wrong_claim_fails() -> CheckResult:
    """Sanity: the audit can fail — claiming (0, 0) for 𝓑 must be VIOLATED."""
    em1 = exponential_mechanism((0, 1, 2), count_score, epsilon=1)
    res, _ = audit_result(resample_iid(em1, claim=PrivacyClaim.of(0)), Universe((0, 1), (2,)))
    if res.verdict is Verdict.VIOLATED:
        return CheckResult(Verdict.HOLDS, "claiming eps = 0 is refuted, as it must be: "
                           + res.evidence)
    return CheckResult(Verdict.VIOLATED, "the audit failed to refute eps = 0: " + res.evidence)


_STATEMENT = (
    "If 𝒜 is (eps, delta)-DP with eps <= 1 on databases of size n, then 𝓑, which runs 𝒜 on n "
    "i.i.d. uniform draws from its size-n input, is (ln 244, 2467·delta)-DP under "
    "substitution.")
_CHECKS = (
    *REPAIRED_CHAIN_CHECKS,
    Check("exact audits of 𝓑 for n <= 4 at (ln 244, 2467·delta)", check_resampling_audits),
    Check("the audit refutes a false claim (eps = 0)", check_resampling_wrong_claim_fails),
)
_RANGE = ("all n >= 1 and all (eps, delta)-DP 𝒜 with eps <= 1: by the 004 proof with the "
          "denominator bound replaced by Jensen's e^-eps (entries '004 Claim C.3 / ...'); "
          "exact audits for n <= 4")

ENTRIES: tuple[Entry, ...] = (
    Entry(paper="004", number="Claim C.3", statement=_STATEMENT, kind=Kind.CLAIM,
          status=Status.PROVED, checks=_CHECKS, parameter_range=_RANGE,
          also=("000 Claim 4.5",), subjects=("reference.resampling",),
          notes="The printed proof's chain fails at its constant 61 (see the proof-step "
                "entries); the statement itself holds via the repaired chain."),
)
