"""Ledger: 004 Claim C.1 / 000 Claim 4.3 (privacy amplification by subsampling)."""

from __future__ import annotations

from fractions import Fraction

from privref.audits.exact import audit_pair
from privref.reference.composition import leak
from privref.reference.exponential import count_score, exponential_mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.randomized_response import randomized_response
from privref.reference.reals import exp
from privref.reference.subsampling import subsample

from .._common import audit_result, combine
from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import decimal

__all__ = ["ENTRIES", "check_rescaled_rate", "check_subsampling_audits"]



def check_subsampling_audits() -> CheckResult:
    """Exact audits of 𝓑 = subsample(𝒜) with t = n(3 + e^eps*)/eps for several 𝒜, n, t.

    𝒜 ranges over randomized response (eps* = ln 3, ln 2), a delta-leaking
    randomized response (stresses the delta term) and a rational-base
    exponential mechanism on counts with n = 2.  Each claim is
    (eps, 4·eps/(3 + e^eps*)·delta) as computed by reference.subsampling.
    """
    rr3 = randomized_response("3/4")
    rr2 = randomized_response("2/3")
    em = exponential_mechanism((0, 1, 2), count_score, epsilon="2*ln(5/4)")  # e^eps* = 25/16
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


# ------------------------------------------------------------------ the rate repair of E13


def check_rescaled_rate(t: int = 164, delta: Fraction = Fraction(1, 1000)) -> CheckResult:
    """Exact δ over *all* neighbors: subsample 1 of t of 𝒜 = leak(41δ)∘RR(2/3), claim (ε_t, δ).

    𝒜 is (ln 2, 41δ)-DP, so (1, 41δ)-DP as Theorem C.11's learner.  ε_t = (3+e)/t
    is the rate of Claim C.1 at t = n(3+e)/ε_t (n = 1).  At t = 164 (ε = 1 in
    t = 164n/ε, i.e. subsampling at ε(3+e)/164 instead of ε) Claim C.1's
    δ′ = 4ε_t·41δ/(3+e) = δ, so 004 Theorem 4.2 / 000 Theorem 4.14 get (ε, δ) with
    ε_t <= ε = 1; at the printed t = (3+e)n/ε (t = 6 at ε ≈ 0.953) it fails.

    Every neighboring pair of {0,1}^t is covered: the output law is
    (1/t)Σ_j 𝒜(z_j), so for neighbors differing at i and an event F,
    P(F) − e^ε·P′(F) = (𝒜(z_i)(F) − e^ε·𝒜(z_i′)(F))/t + (1 − e^ε)/t·Σ_{j≠i} 𝒜(z_j)(F),
    which (1 − e^ε <= 0) is largest when every other entry is the w minimizing
    𝒜(w)(F).  So the worst δ is attained on a pair (z, w, …, w) / (z′, w, …, w):
    4 pairs, audited exactly (audit_pair, the claimed e^ε enclosed by intervals).
    """
    eps = (exp(1) + 3) / t
    mech = subsample(leak(randomized_response("2/3"), 41 * delta), 1, t,
                     claim=PrivacyClaim(eps, delta))
    results = []
    for z in (0, 1):
        for w in (0, 1):
            a = (z,) + (w,) * (t - 1)
            b = (1 - z,) + (w,) * (t - 1)
            rep = audit_pair(mech, a, b)
            results.append(CheckResult(
                rep.verdict, f"z={z}→{1 - z}, others {w}: hockey-stick at e^ε_t <= "
                             f"{decimal(rep.delta_at_claim.hi)}",
                witness=f"({z}, {w}×{t - 1}) -> ({1 - z}, {w}×{t - 1})"
                if rep.verdict is Verdict.VIOLATED else None))
    out = combine(results)
    return CheckResult(out.verdict, f"t={t}, ε_t = (3+e)/{t}, δ = {delta}, all pairs of "
                       f"{{0,1}}^{t} (reduced to 4): {out.evidence}", out.witness)
