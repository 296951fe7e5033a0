"""Built-in exact audits of paper 001's mechanisms (issue 12, item 4).

Each row audits one 001 mechanism, written once in ``reference/``, on a tiny universe at its own
claim (at the claim's δ when it is (ε, δ)):

* Algorithm 1 (Gaussian PATE, discrete Gaussian) with a given σ² and as calibrated by Step 1,
  and as printed (continuous N(0, σ²) with Step 1's exact σ);
* Algorithm 2 (SVT-PATE) as calibrated by Steps 2-3, with the basic accounting 2T/t, and as
  printed (continuous Lap(λ), Lap(2λ) with the exact λ and irrational threshold w);
* Algorithm 6 (the sparse vector) as printed, which the auditor must find VIOLATED (the row
  expects it: 001 Lemma 45 is REFUTED as printed), and as corrected;
* Algorithm 7 (distance to instability);
* Algorithms 3 (PATE-PSQ) and 5 (PATE-ASQ, with Algorithm 4 as the oracle, U = 0) over labeled
  records of thresholds on two points, with add/remove neighbors: teachers from the keyed
  per-record assignment (one record moves one teacher), Algorithm 1's discrete and continuous
  Gaussian labels, the ERM student; the claim is Algorithm 1's for the number of labels.

Universes: for the PATE aggregators every dataset of K in {2, 3} teachers' label vectors
(substituting one teacher's vector: one private record lives in one teacher's part); for the
sparse vector one record in {0, 1} with counting queries; for Algorithm 7 five votes; for PSQ
and ASQ every dataset of 0-2 labeled records.  ``deep`` adds a third query, a larger K, or a
third record.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from privref.reference.citations import cite
from privref.reference.concepts import thresholds_on
from privref.reference.data import Dataset
from privref.reference.neighbors import Universe
from privref.reference.pate import (
    gaussian_pate,
    gaussian_pate_at,
    printed_gaussian_pate,
    printed_svt_pate,
    svt_pate,
    svt_pate_at,
)
from privref.reference.pate_learning import (
    asq_mechanism,
    continuous_gaussian_aggregator,
    gaussian_aggregator,
    psq_mechanism,
)
from privref.reference.sparse_vector import sparse_vector
from privref.reference.stability_release import distance_to_instability
from privref.reference.verdict import Verdict

from .row import BuiltinAudit

__all__ = ["pate_audits"]


def _label_vectors(queries: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.product((0, 1), repeat=queries))


def _ones(data: Dataset) -> int:
    """The number of ones: a counting query of sensitivity 1 under substitution."""
    return sum(1 for x in data if x == 1)


def _no_radius(j: int, gamma_j: Fraction) -> int:
    """U(j, γ_j) = 0: Algorithm 4 keeps only the minimizers of the mistakes on Q."""
    return 0


def pate_audits(deep: bool) -> list[BuiltinAudit]:
    """The paper-001 rows of ``privref audit`` (a third query, or more teachers, when ``deep``)."""
    ell = 3 if deep else 2
    teachers = Universe(_label_vectors(ell), (2, 3))
    tenth = Fraction(1, 10)
    svt_eps, svt_delta = Fraction(1, 100), Fraction(1, 2**20)
    printed = sparse_vector((_ones,) * 8, 0, svt_eps, svt_delta, 2,
                            refresh="printed", scale="printed")
    two = thresholds_on(2)
    points = tuple(two.domain)
    records = Universe(tuple((x, y) for x in points for y in (0, 1)),
                       (0, 1, 2, 3) if deep else (0, 1, 2))
    half = Fraction(1, 2)
    corrected = sparse_vector((_ones,) * 8, 0, svt_eps, svt_delta, 2,
                              refresh="corrected", scale="corrected")
    printed_lap = sparse_vector((_ones,) * 8, 0, svt_eps, svt_delta, 2, refresh="printed",
                                scale="printed", noise="continuous")
    corrected_lap = sparse_vector((_ones,) * 8, 0, svt_eps, svt_delta, 2, refresh="corrected",
                                  scale="corrected", noise="continuous")
    return [
        BuiltinAudit(gaussian_pate_at(ell, 1, tenth), teachers,
                     label=f"Gaussian PATE ({ell} queries, discrete sigma^2=1) [001 Algorithm 1]"),
        BuiltinAudit(gaussian_pate(ell, 1, tenth), teachers,
                     label=f"Gaussian PATE ({ell} queries, Step 1 sigma, eps=1) [001 Algorithm 1]"),
        BuiltinAudit(printed_gaussian_pate(ell, 1, tenth), teachers,
                     label=f"Gaussian PATE as printed ({ell} queries, continuous N(0, sigma^2), "
                           "Step 1 sigma exact, eps=1) [001 Algorithm 1]"),
        BuiltinAudit(svt_pate(ell, 1, 1, tenth), teachers,
                     label=f"SVT-PATE ({ell} queries, T=1, Steps 2-3, eps=1) [001 Algorithm 2]"),
        BuiltinAudit(printed_svt_pate(ell, 1, 1, tenth), teachers,
                     label=f"SVT-PATE as printed ({ell} queries, T=1, continuous Lap(lambda), "
                           "Lap(2 lambda), lambda and w exact, eps=1) [001 Algorithm 2]"),
        BuiltinAudit(svt_pate_at(ell, Fraction(1, 2), 1, 2), teachers,
                     label=f"SVT-PATE ({ell} queries, T=2, t=1/2, w=1, basic 2T/t) "
                           "[001 Algorithm 2]"),
        BuiltinAudit(printed, Universe((0, 1), (1,)), expect=Verdict.VIOLATED,
                     source=cite("001 Lemma 45 (printed)"),
                     label="sparse vector as printed (w+1 refresh, printed lambda) "
                           "[001 Algorithm 6]"),
        BuiltinAudit(corrected, Universe((0, 1), (1,)), source=cite("001 Lemma 45 (corrected)"),
                     label="sparse vector corrected (Dwork-Roth) [001 Algorithm 6]"),
        BuiltinAudit(printed_lap, Universe((0, 1), (1,)), expect=Verdict.VIOLATED,
                     source=cite("001 Lemma 45 (printed)"),
                     label="sparse vector as printed, continuous Lap(lambda), Lap(2 lambda) "
                           "[001 Algorithm 6]"),
        BuiltinAudit(corrected_lap, Universe((0, 1), (1,)),
                     source=cite("001 Lemma 45 (corrected)"),
                     label="sparse vector corrected, continuous Lap(lambda), Lap(2 lambda) "
                           "[001 Algorithm 6]"),
        BuiltinAudit(psq_mechanism(two, points, 2, 0, gaussian_aggregator(half, tenth)), records,
                     label="PATE-PSQ (K=2, m=2, discrete sigma^2=1/2, ERM student) "
                           "[001 Algorithm 3]"),
        BuiltinAudit(psq_mechanism(two, points, 2, 0, continuous_gaussian_aggregator(1, tenth)),
                     records, label="PATE-PSQ (K=2, m=2, continuous sigma=1, ERM student) "
                                    "[001 Algorithm 3]"),
        BuiltinAudit(asq_mechanism(two, points, 2, 0, 2, _no_radius,
                                   gaussian_aggregator(half, tenth)), records,
                     label="PATE-ASQ (K=2, budget 2, discrete sigma^2=1/2, Algorithm 4 U=0) "
                           "[001 Algorithm 5]"),
        BuiltinAudit(asq_mechanism(two, points, 2, 0, 1, _no_radius,
                                   continuous_gaussian_aggregator(1, tenth)), records,
                     label="PATE-ASQ (K=2, budget 1, continuous sigma=1, Algorithm 4 U=0) "
                           "[001 Algorithm 5]"),
        BuiltinAudit(distance_to_instability(1, tenth), Universe((0, 1), (7 if deep else 5,)),
                     source=cite("001 Lemma 48"),
                     label=f"distance to instability (K={7 if deep else 5}, eps=1) "
                           "[001 Algorithm 7]"),
    ]
