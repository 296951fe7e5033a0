"""Ledger: folklore results the papers use without a number (group privacy, composition)."""

from __future__ import annotations

from privref.reference.composition import compose, leak
from privref.reference.exponential import count_score, exponential_mechanism_rational
from privref.reference.neighbors import Universe
from privref.reference.privacy import group_privacy
from privref.reference.randomized_response import label_flip, randomized_response
from privref.reference.reals import exp, log

from ._common import audit_result, combine
from ._ledger import Check, CheckResult, Entry, Kind, Status, Verdict

__all__ = ["ENTRIES"]



def check_group_privacy_audits() -> CheckResult:
    """Exact audits at distance k = 2, 3 against (k·eps, delta·Σ_{j<k} e^{j·eps})."""
    flip = label_flip("3/4")
    labeled = Universe(((0, 0), (0, 1), (1, 0), (1, 1)), (2, 3))
    em = exponential_mechanism_rational((0, 1, 2, 3), count_score, base="3/2")
    leaky = leak(em, "1/50")
    bits = Universe((0, 1), (3,))
    results = []
    for k in (2, 3):
        results.append(audit_result(flip, labeled, claim=group_privacy(flip.claim, k),
                                    distance=k)[0])
        results.append(audit_result(em, bits, claim=group_privacy(em.claim, k), distance=k)[0])
        results.append(audit_result(leaky, bits, claim=group_privacy(leaky.claim, k),
                                    distance=k)[0])
    return combine(results)


def check_group_privacy_tight() -> CheckResult:
    """The k·eps part is tight: the label flip's exact loss at distance k is exactly k·ln 3."""
    flip = label_flip("3/4")
    labeled = Universe(((0, 0), (0, 1), (1, 0), (1, 1)), (3,))
    for k in (1, 2, 3):
        _, report = audit_result(flip, labeled, claim=group_privacy(flip.claim, k), distance=k)
        exact = report.epsilon_exact
        if exact is None or exp(exact).exact != exp(log(3) * k).exact:
            return CheckResult(Verdict.VIOLATED, f"distance {k}: exact loss {exact}, "
                               f"expected {k}·ln 3")
    return CheckResult(Verdict.HOLDS, "label flip: exact loss k·ln 3 at k = 1, 2, 3")


def check_composition_audits() -> CheckResult:
    """Exact audits of compositions against (Σ eps_i, Σ delta_i)."""
    rr = randomized_response("3/4")
    rr2 = randomized_response("2/3")
    em = exponential_mechanism_rational((0, 1, 2), count_score, base="3/2")
    return combine([
        audit_result(compose(rr, rr2), Universe((0, 1), (1,)))[0],
        audit_result(compose(rr, leak(rr2, "1/10")), Universe((0, 1), (1,)))[0],
        audit_result(compose(em, em), Universe((0, 1), (2,)))[0],
    ])


ENTRIES: tuple[Entry, ...] = (
    Entry(paper="folklore", number="Group privacy",
          statement=("An (eps, delta)-DP algorithm is (k·eps, delta·Σ_{j<k} e^{j·eps})-DP for "
                     "datasets at distance k (used throughout the proofs of 004 Appendix C)."),
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits at distance 2 and 3", check_group_privacy_audits),
                  Check("k·eps is attained exactly by the label flip", check_group_privacy_tight)),
          subjects=("reference.privacy",)),
    Entry(paper="folklore", number="Basic composition",
          statement="Running (eps_i, delta_i)-DP algorithms on the same data is "
                    "(Σ eps_i, Σ delta_i)-DP.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits of compositions", check_composition_audits),),
          subjects=("reference.composition",)),
)
