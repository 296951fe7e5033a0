"""The built-in audit suite of ``privref audit``: every reference mechanism on its own universe,
then the learners' rows (:mod:`.learners`) and paper 001's (:mod:`.pate`).

Each :class:`~privref.app.suites.row.BuiltinAudit` pairs a mechanism (with the guarantee its
source claims) with a small finite universe of datasets and, for group privacy, a distance.
The default suite runs in seconds; ``deep=True`` enlarges the universes.
"""

from __future__ import annotations

from privref.reference.citations import cite
from privref.reference.composition import compose, leak
from privref.reference.concepts import thresholds_on
from privref.reference.continuous_release import gaussian_mechanism, laplace_mechanism
from privref.reference.exponential import (
    count_score,
    exponential_learner,
    exponential_mechanism,
)
from privref.reference.geometric import (
    discrete_gaussian_mechanism,
    discrete_laplace_mechanism,
    geometric_mechanism,
)
from privref.reference.neighbors import LInf, Universe, answer, answer_query
from privref.reference.noisy_max import report_noisy_max, report_noisy_max_laplace
from privref.reference.privacy import group_privacy
from privref.reference.randomized_response import label_flip, randomized_response
from privref.reference.resampling import resample_iid
from privref.reference.sparse_vector import above_threshold
from privref.reference.subsampling import subsample

from .learners import learner_audits
from .pate import pate_audits
from .row import BuiltinAudit

__all__ = ["builtin_audits"]


def builtin_audits(*, deep: bool = False) -> list[BuiltinAudit]:
    """The whole exact-audit suite, in this order: the reference mechanisms' rows, the learners'
    (:func:`~privref.app.suites.learners.learner_audits`) and paper 001's
    (:func:`~privref.app.suites.pate.pate_audits`); larger universes when ``deep``."""
    return [*_mechanism_audits(deep), *learner_audits(deep), *pate_audits(deep)]


def _mechanism_audits(deep: bool) -> list[BuiltinAudit]:
    """The rows of the reference mechanisms (larger universes when ``deep``)."""
    n = 4 if deep else 2
    bits = Universe((0, 1), tuple(range(1, n + 1)))
    counts = tuple(range(n + 1))
    rr = randomized_response("3/4")
    em_e = exponential_mechanism(counts, count_score, epsilon=1,
                                 name="exponential (count, eps=1)")
    em_q = exponential_mechanism(counts, count_score, epsilon="2*ln(3/2)",
                                 name="exponential (count, base 3/2)")
    flip = label_flip("3/4")
    labeled_uni = Universe(((0, 0), (0, 1), (1, 0), (1, 1)), (2,))
    thresh = tuple(thresholds_on(4 if not deep else 8))
    points = (0, 1, 2, 3) if not deep else (0, 2, 5, 7)
    learner_uni = Universe(tuple((x, y) for x in points for y in (0, 1)), (2,) if not deep else (3,))
    audits = [
        BuiltinAudit(exponential_learner(thresh, epsilon=1,
                                         name="exponential learner, THRESH (eps=1)"), learner_uni),
        BuiltinAudit(exponential_learner(
            thresh, epsilon="2*ln(3/2)", name="exponential learner, THRESH (base 3/2)"), learner_uni),
        BuiltinAudit(rr, Universe((0, 1), (1,))),
        BuiltinAudit(flip, labeled_uni),
        BuiltinAudit(flip, labeled_uni, distance=2, claim=group_privacy(flip.claim, 2),
                     label="label flip, group of 2", source=cite("folklore Group privacy")),
        BuiltinAudit(em_e, bits),
        BuiltinAudit(em_q, bits),
        BuiltinAudit(report_noisy_max(counts, count_score, decay="1/2"), bits),
        BuiltinAudit(subsample(rr, 1, 6), Universe((0, 1), (6,))),
        BuiltinAudit(subsample(leak(rr, "1/20"), 1, 8), Universe((0, 1), (8,))),
        BuiltinAudit(resample_iid(em_q), Universe((0, 1), (4 if deep else 2,))),
        BuiltinAudit(compose(em_q, report_noisy_max(counts, count_score, decay="1/2")), bits),
        BuiltinAudit(leak(em_q, "1/50"), bits),
        BuiltinAudit(geometric_mechanism("1/2"), bits),
        BuiltinAudit(discrete_laplace_mechanism(2), bits),
        BuiltinAudit(discrete_gaussian_mechanism(4, delta="1/1000000"), bits),
        *_continuous_audits(deep),
    ]
    return audits


def _continuous_audits(deep: bool) -> list[BuiltinAudit]:
    """The textbook continuous-noise rows: the Laplace and Gaussian mechanisms' released values
    (bounded sums), then query-answer vectors in {0,1}^n under l-infinity."""
    n = 4 if deep else 3
    vectors = Universe((0, 1), (n,))
    sums = Universe((0, 1), (1, 2, 3) if deep else (1, 2))
    return [
        BuiltinAudit(laplace_mechanism(1), sums),
        BuiltinAudit(gaussian_mechanism(2, epsilon=1), sums),
        BuiltinAudit(report_noisy_max_laplace(range(n), answer, epsilon=1, relation=LInf(),
                                              name="report noisy max, Lap(2/eps) (eps=1)"),
                     vectors),
        BuiltinAudit(above_threshold(tuple(answer_query(i) for i in range(n)), 0, 1, relation=LInf(),
                                     name="AboveThreshold, Lap(2/eps), Lap(4/eps) (eps=1)"),
                     vectors),
    ]
