"""One row of the built-in audit suite: a mechanism, its universe and the verdict it must reach.

Every row module of the suite (:mod:`.builtin`, :mod:`.learners`, :mod:`.pate`) builds
:class:`BuiltinAudit` rows; :func:`privref.app.suites.builtin.builtin_audits` lists them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from privref.reference.citations import Citation, Source, Use
from privref.reference.errors import InvalidArgument
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.verdict import Verdict

__all__ = ["BuiltinAudit"]


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
