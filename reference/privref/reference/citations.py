"""Citations: typed, checked links from a mechanism to the ledger entry backing its claim.

A :class:`Citation` names one result of the ledger: a numbered result of a
paper (``004 Proposition A.1``) or an external/folklore result
(``folklore Warner 1965``).  It is validated at construction, hence at
import for module-level constants: the paper must be known and the number
must be listed in :data:`MANIFEST` (or :data:`EXTERNAL` for ``folklore``).
The ledger (``privref.proofs``) has exactly one entry per listed number, a
test compares the two in both directions, and another checks that every
citation in ``reference/`` and in the built-in audits names an entry that
is not REFUTED unless it cites that entry's *corrected* statement.

Three uses of an entry (:class:`Use`):

* ``STATEMENT``: the claim is the entry's statement as printed;
* ``CORRECTED``: the claim is the ledger's corrected statement of a
  REFUTED entry (written ``"004 Lemma 4.1 (corrected)"``);
* ``PROOF``: the claim is what the entry's proof gives at other parameters
  (a recomputed chain, a proof device), written ``"004 Lemma C.4 (proof)"``.

:class:`Uncited` marks a mechanism that implements no result at all (test
fixtures, mutants, negative controls); built-in and reference mechanisms
never use it.  This module is pure data: it imports nothing from the ledger.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Final

from .errors import InvalidArgument

__all__ = ["EXTERNAL", "MANIFEST", "Citation", "Source", "Uncited", "Use", "cite"]

_P000: Final = (
    "Observation 3.2", "Theorem 3.3", "Corollary 3.4",
    "Lemma 4.1", "Claim 4.2", "Claim 4.3", "Remark 4.4", "Claim 4.5", "Lemma 4.6",
    "Observation 4.7", "Claim 4.8", "Claim 4.9", "Remark 4.10", "Claim 4.11", "Lemma 4.12",
    "Theorem 4.13", "Theorem 4.14", "Remark 4.15", "Theorem 4.16", "Corollary 4.17",
    "Corollary 4.18",
    "Remark 5.2", "Theorem 5.5", "Theorem 5.6", "Claim 5.7", "Theorem 5.8",
    "Proposition A.1", "Theorem A.3",
    "Theorem B.2", "Theorem B.3", "Theorem B.4", "Theorem B.5", "Theorem B.6",
)

_P004: Final = (
    "Observation 3.2", "Theorem 3.3", "Lemma 3.4",
    "Lemma 4.1", "Theorem 4.2", "Remark 4.3", "Theorem 4.4", "Corollary 4.5", "Corollary 4.6",
    "Remark 5.2", "Theorem 5.5", "Claim 5.6", "Theorem 5.7",
    "Proposition A.1", "Theorem A.3",
    "Theorem B.2", "Theorem B.3", "Theorem B.4", "Theorem B.5", "Theorem B.6",
    "Claim C.1", "Remark C.2", "Claim C.3", "Lemma C.4", "Claim C.5", "Claim C.6", "Claim C.7",
    "Corollary C.8", "Claim C.9", "Lemma C.10", "Theorem C.11", "Theorem C.12",
)

_P002: Final = (
    "Theorem 1", "Theorem 2", "Corollary 1",
    "Lemma 1", "Lemma 2", "Lemma 3", "Lemma 4", "Lemma 5", "Lemma 6",
    "Theorem 3", "Lemma 7", "Remark 1",
    "Theorem 5", "Lemma 8", "Remark 2", "Lemma 9", "Lemma 10", "Lemma 11",
    "Theorem 4",
)
"""002 in the paper's order: Theorems 1-2 and Corollary 1 (§1), Lemmas 1-6 (§2), Theorem 3
(restating 1), Lemma 7, Remark 1 (§3), Theorem 5 (restating 2), Lemmas 8-11, Remark 2 (§4),
Theorem 4 (§5).  The inventory's inline claims C1-C12 are proof steps of these entries."""

_P001: Final = (
    "Theorem 2", "Lemma 3", "Lemma 4", "Theorem 5", "Remark 6",
    "Lemma 9", "Theorem 10", "Remark 11", "Remark 12", "Lemma 13", "Lemma 14", "Lemma 15",
    "Remark 16", "Example 1", "Example 2", "Proposition 18", "Theorem 19", "Theorem 20",
    "Remark 21", "Theorem 22", "Remark 23", "Remark 24", "Remark 25",
    "Theorem 26", "Theorem 27", "Theorem 28", "Remark 29", "Proposition 30", "Theorem 31",
    "Theorem 32", "Lemma 33", "Theorem 34",
    "Lemma 35", "Lemma 36", "Lemma 37", "Lemma 38", "Lemma 39", "Lemma 40", "Lemma 42",
    "Lemma 44", "Lemma 45", "Lemma 46", "Lemma 48", "Lemma 49", "Lemma 51", "Lemma 52",
)
"""001 in the paper's order: the 29 distinct theorems, lemmas and propositions, their six
restatements in the appendix (Theorems 26, 27, 31, 32, 34 and Proposition 30 restate
Theorems 2, 5, 19, 20, 22 and Proposition 18), and the remarks and examples, which make
checkable claims.  The numbered definitions are not results: their typos (Definitions 8, 17
and 50) are proof steps of the results that use them (Lemma 9, Proposition 18, Lemma 51)."""

MANIFEST: Final[dict[str, tuple[str, ...]]] = {
    "000": _P000,
    "004": _P004,
    "001": _P001,
    "002": _P002,
    "003": ("Lemma 2.5", "Lemma 2.6", "Theorem 3.1", "Lemma 3.2", "Lemma 3.3", "Theorem 4.1",
            "Theorem 4.2", "Theorem 4.3", "Lemma 4.4", "Claim 4.5", "Claim 4.6"),
}
"""Every numbered result of each paper (the ledger's target list).

Taken from the papers' inventories (000/004: section 4.5 counts) and checked
against the papers.  Definitions and algorithms are not results; remarks are
included because they make checkable claims.
"""

EXTERNAL: Final[tuple[str, ...]] = (
    "Group privacy",
    "Basic composition",
    "Delta leak",
    "Warner 1965",
    "McKenna-Sheldon 2020 Theorem 1",
    "Dwork-McSherry-Nissim-Smith 2006",
    "Dwork-Roth 2014 Claim 3.9",
    "Dwork-Roth 2014 Theorem 3.23",
    "Ghosh-Roughgarden-Sundararajan 2009",
    "Canonne-Kamath-Steinke 2020 discrete Laplace",
    "Canonne-Kamath-Steinke 2020 Theorem 4",
    "Shalev-Shwartz et al. 2010 subsampling",
    "Disjoint-block averaging",
    "Balle-Wang 2018 Theorem 8",
    "Canonne-Kamath-Steinke 2020 Corollary 13",
    "Przyborowski-Wilenski 1940",
    "Sommer-Meiser-Mohammadi 2019 PLD composition",
    "Li-Qardaji-Su 2012 Poisson amplification",
    "Balle-Barthe-Gaboardi 2018 sampling without replacement",
    "Dong-Roth-Su 2022 Corollary 2.13",
    "Dong-Roth-Su 2022 Corollary 3.3",
)
"""Results the papers use without a number, or that come from other papers (ledger paper ``folklore``).

Group privacy and basic composition are folklore; the delta leak is the
textbook (epsilon, delta + d) bound for releasing the data with probability
d; Warner 1965 is randomized response; McKenna and Sheldon (NeurIPS 2020,
Theorem 1) prove permute-and-flip epsilon-DP; Dwork and Roth ("The Algorithmic Foundations
of Differential Privacy", 2014) prove report noisy max with Laplace noise (Claim 3.9) and
AboveThreshold, the sparse vector's cutoff-1 round (Theorem 3.23), epsilon-DP; Ghosh, Roughgarden and
Sundararajan (STOC 2009) the geometric mechanism; Canonne, Kamath and
Steinke (NeurIPS 2020) the discrete Laplace mechanism and, in Theorem 4
(with Bun-Steinke 2016 Proposition 1.3 for the conversion to (epsilon,
delta)), the discrete Gaussian.  Shalev-Shwartz, Shamir, Srebro and
Sridharan (JMLR 2010) give the m/n uniform stability of learning on a
random m-subset (002's baseline B1); disjoint-block averaging is the
folklore 1/k stability of averaging k learners trained on disjoint blocks
(002's baseline B2).  Balle and Wang (ICML 2018, Theorem 8) characterize the Gaussian
mechanism's privacy profile exactly (the analytic Gaussian mechanism, 001 §5's accountant).
Canonne, Kamath and Steinke (NeurIPS 2020, Corollary 13) convert ρ-zCDP to (ε, δ)-DP more tightly
than Bun-Steinke 2016 Proposition 1.3 (001 Lemma 51); the black-box auditor audits zCDP claims
through it.  Przyborowski and Wilenski (Biometrika 1940) test two Poisson counts by
conditioning on their sum; the black-box auditor's pooled test conditions draws dealt by fair
coins the same way.  Certified accounting rests on: PLD composition (Sommer, Meiser & Mohammadi
2019; tight for products of tight dominating pairs, Zhu, Dong & Wang 2022 Theorem 10); amplification
by Poisson subsampling under add/remove (Li, Qardaji & Su 2012; the (ε, δ) form in Balle, Barthe &
Gaboardi 2018) and by sampling m of n without replacement under substitution (Balle, Barthe &
Gaboardi 2018); Gaussian DP's δ(ε) (Dong, Roth & Su 2022, Corollary 2.13) and its composition
(Corollary 3.3).
"""

FOLKLORE: Final = "folklore"


class Use(Enum):
    """Which statement of a ledger entry a citation relies on."""

    STATEMENT = "statement"
    CORRECTED = "corrected"
    PROOF = "proof"
    PRINTED = "printed"
    """The statement as printed, which the ledger REFUTES: cited only by a built-in audit row
    that expects VIOLATED (the refutation, reproduced by ``privref audit``)."""


_SUFFIX: Final = {Use.STATEMENT: "", Use.CORRECTED: " (corrected)", Use.PROOF: " (proof)",
                  Use.PRINTED: " (printed)"}
_PARSE: Final = re.compile(r"^(\S+) (.+?)(?: \((corrected|proof|printed)\))?$")


@dataclass(frozen=True, slots=True)
class Citation:
    """A checked reference to one ledger entry: ``paper``, ``number`` and the :class:`Use` made of it.

    Raises InvalidArgument at construction when ``paper`` is unknown or
    ``number`` is not in its :data:`MANIFEST` (or :data:`EXTERNAL` for
    ``folklore``).  ``str()`` gives the form :func:`cite` parses back.
    """

    paper: str
    number: str
    use: Use = Use.STATEMENT

    def __post_init__(self) -> None:
        if not isinstance(self.paper, str) or not isinstance(self.number, str):
            raise InvalidArgument(f"paper={self.paper!r} and number={self.number!r} must be str")
        if not isinstance(self.use, Use):
            raise InvalidArgument(f"use={self.use!r} must be a reference.citations.Use")
        if self.paper == FOLKLORE:
            known: tuple[str, ...] = EXTERNAL
        elif self.paper in MANIFEST:
            known = MANIFEST[self.paper]
        else:
            raise InvalidArgument(f"paper={self.paper!r} must be one of "
                                  f"{(*MANIFEST, FOLKLORE)}")
        if self.number not in known:
            raise InvalidArgument(f"number={self.number!r} is not a listed result of paper "
                                  f"{self.paper} (reference.citations.MANIFEST / EXTERNAL)")

    @property
    def entry_id(self) -> str:
        """The id of the cited ledger entry, e.g. ``004 Lemma 4.1``."""
        return f"{self.paper} {self.number}"

    @property
    def corrected(self) -> bool:
        """True when the citation relies on the corrected statement of a REFUTED entry."""
        return self.use is Use.CORRECTED

    def __str__(self) -> str:
        return self.entry_id + _SUFFIX[self.use]


@dataclass(frozen=True, slots=True)
class Uncited:
    """The source of a mechanism that implements no result: a test fixture, mutant or control.

    ``reason`` says which (non-empty).  Reference and built-in mechanisms never use it.
    """

    reason: str

    def __post_init__(self) -> None:
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise InvalidArgument(f"reason={self.reason!r} must be a non-empty str")

    def __str__(self) -> str:
        return f"uncited ({self.reason})"


Source = Citation | Uncited
"""What a mechanism's ``source`` holds: a checked citation, or an explicit 'no result'."""


def cite(text: str) -> Citation:
    """Parse ``"<paper> <number>[ (corrected)| (proof)]"`` into a validated :class:`Citation`.

    Examples: ``cite("004 Proposition A.1")``, ``cite("004 Lemma 4.1 (corrected)")``,
    ``cite("folklore Warner 1965")``.  Raises InvalidArgument on anything else.
    """
    if not isinstance(text, str):
        raise InvalidArgument(f"text={text!r} must be a str such as '004 Proposition A.1'")
    match = _PARSE.match(text)
    if match is None:
        raise InvalidArgument(f"text={text!r} must read '<paper> <number>', e.g. "
                              "'004 Proposition A.1'")
    paper, number, use = match.groups()
    return Citation(paper, number, Use(use) if use else Use.STATEMENT)
