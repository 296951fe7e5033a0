"""Ledger: 000 Theorem 3.3, Corollary 3.4 and Theorem A.3, sharing the checks of their 004 counterparts.

The proof of 000 Theorem 3.3 is the text of 004 Appendix C.1 (inline in 000);
its constant-carrying steps are the ``004 Theorem 3.3 / …`` proof-step
entries, which list ``000 Theorem 3.3`` in ``also``.
"""

from __future__ import annotations

from dataclasses import replace

from .._ledger import Entry, Kind
from ..p004 import generic

__all__ = ["ENTRIES"]

_T33 = (
    "Let C be a concept class over X_d. For every α, β, ε there is an (α, β, ε, δ=0, n, m)-private "
    "semi-supervised proper learner for C (GenericLearner, Algorithm 1) with "
    "m = O(VC(C)/(α³ε)·log(1/α) + 1/(αε)·log(1/β)) and "
    "n = O(d·VC(C)/(α³ε)·log(1/α) + 1/(αε)·log(1/β)). Privacy: ε-DP by parallel composition (the "
    "sanitizer reads only D, the exponential mechanism only S).")

_C34 = ("There exists an efficient approximate-private proper learner for THRESH_d with labeled "
        "sample complexity O_{α,β,ε}(1) and unlabeled sample complexity Õ_{α,β,ε,δ}(8^{log* d}) "
        "(GenericLearner with the approximate-private sanitizer for thresholds of [7] = BNS13 in Step 2).")

_A3 = ("For any class of predicates C over X and any α, β, ε there is an (α, β, ε, m)-sanitizer for C "
       "(Definition A.2), where m = O(log|X|·VC(C)·log(1/α)/(α³ε) + log(1/β)/(εα)); its output has "
       "O(VC(C)/α²·log(1/α)) elements (Blum, Ligett, Roth [9]).")

ENTRIES: tuple[Entry, ...] = (
    replace(generic.THEOREM_3_3, paper="000", statement=_T33, also=("004 Theorem 3.3",),
            notes="Same algorithm and proof as 004 Theorem 3.3 (here inline); 004's appendix restates "
                  "n = O_{α,β,ε}(d·VC(C)) and 'm >= O(…)'. Checks, caveats and proof-step entries: see "
                  "004 Theorem 3.3 (its '/ the proof's m requirement is within the stated O(·)' step is "
                  "REFUTED, and applies verbatim here)."),
    replace(generic.LEMMA_3_4, paper="000", number="Corollary 3.4", kind=Kind.COROLLARY,
            statement=_C34, also=("004 Lemma 3.4",),
            notes="004 Lemma 3.4 with the same content; 000 cites the sanitizer 'for threshold "
                  "functions from [7]', 004 the sanitizer 'for intervals from [8]' (BNS APPROX'13 "
                  "under each version's numbering)."),
    replace(generic.THEOREM_A_3, paper="000", statement=_A3, also=("004 Theorem A.3",),
            notes="004 Theorem A.3 with 'm = O(…)' where 004 writes 'provided m >= O(…)'; 000's "
                  "Definition A.2 is stated cleanly (004's item 2 is garbled). Checked for the concrete "
                  "BLR instantiation only; see 004 Theorem A.3."),
)
