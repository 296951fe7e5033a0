"""The built-in audit suite of ``privref audit``: every reference mechanism on its own universe.

Each :class:`BuiltinAudit` pairs a mechanism (with the guarantee its source
claims) with a small finite universe of datasets and, for group privacy, a
distance.  The default suite runs in seconds; ``deep=True`` enlarges the
universes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from privref.reference.citations import Citation, Source, Use, cite
from privref.reference.composition import compose, leak
from privref.reference.concepts import thresholds_on
from privref.reference.errors import InvalidArgument
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
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.noisy_max import report_noisy_max
from privref.reference.privacy import PrivacyClaim, group_privacy
from privref.reference.randomized_response import label_flip, randomized_response
from privref.reference.resampling import resample_iid
from privref.reference.subsampling import subsample
from privref.reference.verdict import Verdict

__all__ = ["BuiltinAudit", "builtin_audits"]


@dataclass(frozen=True, slots=True)
class BuiltinAudit:
    """One row of the default audit: mechanism, universe, and (for group privacy) the distance.

    ``claim`` overrides the mechanism's claim; it then needs ``source``, the
    citation of the ledger entry stating it (e.g. ``folklore Group privacy``).
    :attr:`cited` is what the row cites: ``source``, else the mechanism's.
    ``expect`` is the verdict the row must reach: HOLDS, or VIOLATED for a row that audits a
    printed claim the ledger REFUTES (e.g. 001 Algorithm 6 as printed); such a row cites the
    refuted statement itself, and its VIOLATED is reported as expected.
    """

    mechanism: Mechanism[Any]
    universe: Universe
    distance: int = 1
    claim: PrivacyClaim | None = None
    label: str | None = None
    source: Citation | None = None
    expect: Verdict = Verdict.HOLDS

    def __post_init__(self) -> None:
        if self.expect not in (Verdict.HOLDS, Verdict.VIOLATED):
            raise InvalidArgument(f"expect={self.expect} must be HOLDS or VIOLATED")
        printed = isinstance(self.source, Citation) and self.source.use is Use.PRINTED
        if printed != (self.expect is Verdict.VIOLATED):
            raise InvalidArgument(f"source={self.source}: a row expecting VIOLATED cites the "
                                  "refuted statement as printed ('... (printed)'), and only "
                                  f"such a row does (expect={self.expect.value})")
        if self.claim is not None and self.source is None:
            raise InvalidArgument(f"source=None: the row {self.label or self.mechanism.name!r} "
                                  "overrides the claim and must cite the entry stating it")

    @property
    def cited(self) -> Source:
        """The citation backing the audited claim (the row's ``source`` or the mechanism's)."""
        return self.source if self.source is not None else self.mechanism.source


def builtin_audits(*, deep: bool = False,
                   extra: tuple[Callable[[bool], list[BuiltinAudit]], ...] = ()
                   ) -> list[BuiltinAudit]:
    """The default audit suite (larger universes when ``deep``)."""
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
    ]
    for more in extra:
        audits.extend(more(deep))
    return audits
