"""Checks of the textbook continuous-noise mechanisms (Dwork and Roth 2014; DMNS06; Balle–Wang).

* Report noisy max (Claim 3.9): argmax of the scores plus independent Laplace noise is ε-DP;
  Lap(2Δ/ε) for any scores, Lap(Δ/ε) for monotone ones (counts under add/remove).
* AboveThreshold (Theorem 3.23, Algorithm 1): the first query whose value plus Lap(4/ε)
  exceeds the threshold plus one shared Lap(2/ε) is ε-DP.
* The Laplace mechanism (Dwork, McSherry, Nissim, Smith 2006): a query of sensitivity Δ plus
  Lap(Δ/ε), the released value itself, is ε-DP and no better (decided from the density ratio,
  :mod:`privref.audits._released`).
* The Gaussian mechanism's exact profile (Balle and Wang 2018, Theorem 8): the released value
  q(D) + N(0, σ²) meets δ(ε) and no smaller δ, by the auditor's own integral of the densities
  (independent of :func:`~privref.reference.accounting.analytic_gaussian_delta`'s series).

Each check is an exact audit (every probability in closed form, rigorous intervals:
:mod:`privref.reference.continuous_noise`) over every neighbouring pair of a small universe:
query-answer vectors in {0,1}ⁿ under ℓ∞ distance <= 1 (every answer may move by 1, in any
direction), and counts under add/remove for the monotone case.
"""

from __future__ import annotations

from fractions import Fraction

from privref.reference.accounting import analytic_gaussian_delta
from privref.reference.continuous_release import gaussian_mechanism, laplace_mechanism
from privref.reference.data import Dataset
from privref.reference.neighbors import AddRemove, LInf, Universe, answer, answer_query
from privref.reference.noisy_max import report_noisy_max_laplace
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import rational
from privref.reference.sparse_vector import above_threshold

from ._common import audit_result, combine
from ._ledger import CheckResult, Verdict

__all__ = ["ABOVE_THRESHOLD_CLAIM_SCALE", "LAPLACE_CLAIM_SCALE", "NOISY_MAX_CLAIM_SCALE",
           "check_above_threshold", "check_gaussian_release_profile", "check_laplace_mechanism",
           "check_noisy_max", "check_noisy_max_needs_the_factor_2"]

NOISY_MAX_CLAIM_SCALE = Fraction(1)
"""Dwork–Roth Claim 3.9: the claimed ε (leading 1), audited exactly."""

ABOVE_THRESHOLD_CLAIM_SCALE = Fraction(1)
"""Dwork–Roth Theorem 3.23: the claimed ε (leading 1), audited exactly."""

LAPLACE_CLAIM_SCALE = Fraction(1)
"""Dwork–McSherry–Nissim–Smith 2006: the Laplace mechanism's claimed ε (leading 1), audited
exactly; the claim is tight, so any smaller factor fails."""

_EPSILONS = (Fraction(1, 2), Fraction(1))


def _count(data: Dataset, r: int) -> int:
    return sum(1 for x in data if x == r)


def _claim(eps: Fraction, scale: Fraction) -> PrivacyClaim:
    return PrivacyClaim(rational(eps * scale))


def check_noisy_max() -> CheckResult:
    """Report noisy max, exact audits against c·ε (c = :data:`NOISY_MAX_CLAIM_SCALE`):
    Lap(2/ε) on vectors in {0,1}ⁿ (ℓ∞, n = 2, 3), and Lap(1/ε) on monotone counts (add/remove,
    three candidates, datasets of up to 3 records), ε = 1/2, 1."""
    results = []
    for eps in _EPSILONS:
        claim = _claim(eps, NOISY_MAX_CLAIM_SCALE)
        for n in (2, 3):
            mech = report_noisy_max_laplace(range(n), answer, epsilon=eps, relation=LInf())
            results.append(audit_result(mech, Universe((0, 1), (n,)), claim=claim)[0])
        counts = report_noisy_max_laplace(range(3), _count, epsilon=eps, monotone=True,
                                          relation=AddRemove())
        results.append(audit_result(counts, Universe((0, 1, 2), (0, 1, 2, 3)), claim=claim)[0])
    return combine(results)


def check_noisy_max_needs_the_factor_2() -> CheckResult:
    """Lap(1/ε) is not enough for scores that move in opposite directions: on {0,1}³ under ℓ∞
    the exact audit of ε-DP fails (HOLDS here means the audit found the violation)."""
    eps = Fraction(1)
    mech = report_noisy_max_laplace(range(3), answer, epsilon=eps, monotone=True,
                                    relation=LInf())
    result, _ = audit_result(mech, Universe((0, 1), (3,)))
    if result.verdict is Verdict.VIOLATED:
        return CheckResult(Verdict.HOLDS, f"Lap(1/ε) on non-monotone scores: {result.evidence}",
                           result.witness)
    return CheckResult(Verdict.VIOLATED if result.verdict is Verdict.HOLDS else result.verdict,
                       f"Lap(1/ε) on non-monotone scores was not refuted: {result.evidence}")


def check_above_threshold() -> CheckResult:
    """AboveThreshold, exact audits against c·ε (c = :data:`ABOVE_THRESHOLD_CLAIM_SCALE`) on
    vectors in {0,1}ⁿ (ℓ∞, n = 2, 3), threshold 0 and 1, firing above and below, ε = 1/2, 1."""
    results = []
    for eps in _EPSILONS:
        claim = _claim(eps, ABOVE_THRESHOLD_CLAIM_SCALE)
        for n in (2, 3):
            queries = tuple(answer_query(i) for i in range(n))
            for threshold in (0, 1):
                for below in (False, True):
                    mech = above_threshold(queries, threshold, eps, below=below, relation=LInf())
                    results.append(audit_result(mech, Universe((0, 1), (n,)), claim=claim)[0])
    return combine(results)


def check_laplace_mechanism() -> CheckResult:
    """The Laplace mechanism, exact audits against c·ε (c = :data:`LAPLACE_CLAIM_SCALE`) of the
    released value: bounded sums with Δ = 1, 2, datasets of 1–2 records, ε = 1/2, 1, 3.  The
    claim is tight (ε is the supremum of the density ratio), so c < 1 fails."""
    results = []
    for eps, sensitivity in ((Fraction(1, 2), 1), (Fraction(1), 1), (Fraction(3), 2)):
        mech = laplace_mechanism(eps, sensitivity)
        universe = Universe(tuple(range(sensitivity + 1)), (1, 2))
        results.append(audit_result(mech, universe,
                                    claim=_claim(eps, LAPLACE_CLAIM_SCALE))[0])
    return combine(results)


def check_gaussian_release_profile() -> CheckResult:
    """The released q(D) + N(0, σ²) meets Balle–Wang's δ(ε) and not 0.999·δ(ε): exact audits
    at σ = 1, 2, 3 and ε = 1/2, 1, 2 (bounded sums, Δ = 1); the auditor integrates the two
    Gaussian densities itself, so this checks the accountant's closed form too."""
    results = []
    for sigma, eps in ((Fraction(1), Fraction(1, 2)), (Fraction(2), Fraction(1)),
                       (Fraction(3), Fraction(2))):
        mech = gaussian_mechanism(sigma, epsilon=eps)
        universe = Universe((0, 1), (1, 2))
        results.append(audit_result(mech, universe)[0])
        exact = analytic_gaussian_delta(eps, 1, sigma).lo
        tighter, report = audit_result(mech, universe,
                                       claim=PrivacyClaim(rational(eps), exact * Fraction(999, 1000)))
        if report.verdict is not Verdict.VIOLATED:
            return CheckResult(Verdict.VIOLATED if report.verdict is Verdict.HOLDS
                               else report.verdict,
                               f"σ={sigma}, ε={eps}: 0.999·δ(ε) was not refuted "
                               f"({tighter.evidence})")
    return combine(results)
