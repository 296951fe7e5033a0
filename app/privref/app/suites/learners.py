"""Built-in exact audits of the learners of papers 000/004 (issue 4, item 4).

Each row audits one learner on a tiny universe with its claimed guarantee and
its ``source`` (e.g. ``004 Theorem 3.3``): GenericLearner with the BLR
sanitizer, the KLNRS learner, a PSSL run as an active learner (output and
transcript: TPAL), the SubSampling active learner (output only: PAL), the
LabelBoost learners, paper 003's semi-private learner A_SSPP under the
public/private relation (the public prefix stays fixed), and the private
learner 𝓑 of 003 Algorithm 2 built around A_SSPP (Claim 4.5: 𝒜's ε).  Universes hold
every entry (x, y) with y in {0, 1, ⊥} where the learner reads partially
labeled data, and fully labeled examples for active learners (Definition 5.3).
"""

from __future__ import annotations

from privref.reference.concepts import thresholds, thresholds_on
from privref.reference.data import BOTTOM
from privref.reference.learners.active import pssl_as_active, subsampling_learner, subsampling_repaired_claim
from privref.reference.learners.generic import generic_learner_blr, klnrs_learner
from privref.reference.learners.labelboost import boosted_learner, label_boost, label_boost_procedure
from privref.reference.learners.reduction import DummyDistribution, SemiPrivateLearner, reduction
from privref.reference.learners.semiprivate import sspp_learner
from privref.reference.neighbors import Universe
from privref.reference.reals import log

from .row import BuiltinAudit

__all__ = ["learner_audits"]


def learner_audits(deep: bool) -> list[BuiltinAudit]:
    """The learner rows of ``privref audit`` (larger databases when ``deep``)."""
    two = thresholds_on(2)
    entries = tuple((x, y) for x in two.domain for y in (0, 1, BOTTOM))
    examples = tuple((x, y) for x in two.domain for y in (0, 1))
    eps = log(3) - log(2)  # ε = 2·ln(3/2): rational weights (3/2)^q in the papers' e^{εq/2}
    generic = generic_learner_blr(two, m=1, k=1, epsilon=eps * 2)
    klnrs = klnrs_learner(thresholds(1), epsilon=eps * 2)
    n = 3 if deep else 2
    pssl = pssl_as_active(klnrs, n, n - 1)
    t = 4 if deep else 3
    sub = subsampling_learner(klnrs, 1, 1, t, claim=subsampling_repaired_claim(klnrs.claim, 1, t))
    boost = label_boost(klnrs, s=1, t=1, d=0)
    lbp = boosted_learner(klnrs, label_boost_procedure(klnrs.concepts, s=1, t=1, d=0))
    pairs = tuple((x, y) for x in klnrs.concepts.domain for y in (0, 1, BOTTOM))
    three = thresholds_on(3)
    sspp = sspp_learner(three, public_size=1, epsilon="2*ln(2)")
    labeled3 = tuple((x, y) for x in three.domain for y in (0, 1))
    inner = SemiPrivateLearner(sspp_learner(two, public_size=1, epsilon="2*ln(2)").mechanism,
                               n_priv=3, n_pub=1)
    d0 = DummyDistribution.uniform_on(two.domain.points)
    stressed = reduction(inner, d0, p="1/2", n_tilde=2)      # the paper's p = 1/100 in --deep
    rows = [
        BuiltinAudit(stressed, Universe(examples, (2,)),
                     label="𝓑 around A_SSPP (n_priv=3, n_pub=1; p=1/2, ñ=2) [003 Algorithm 2]"),
    ]
    if deep:
        rows.append(BuiltinAudit(reduction(inner, d0), Universe(examples, (1,)),
                                 label="𝓑 around A_SSPP (paper p=1/100, ñ=1) [003 Algorithm 2]"))
    return [
        BuiltinAudit(generic.mechanism, Universe(entries, (3 if deep else 2,)),
                     label=f"{generic.name} [004 Algorithm 1]"),
        BuiltinAudit(pssl.tpal(), Universe(examples, (n,)),
                     label="TPAL of the KLNRS learner as active learner [004 Theorem 5.5]"),
        BuiltinAudit(sub.pal(), Universe(examples, (t,)),
                     label=f"PAL SubSampling(KLNRS, n=1, m=1, t={t}) [004 Algorithm 6]"),
        BuiltinAudit(boost.mechanism, Universe(pairs, (2,)),
                     label="LabelBoost(s=1, t=1) -> KLNRS, em eps=1 [004 Algorithm 2]"),
        BuiltinAudit(lbp.mechanism, Universe(pairs, (2,)),
                     label="KLNRS ∘ LabelBoostProcedure(s=1, t=1) [000 Algorithm 2]"),
        BuiltinAudit(sspp.mechanism, Universe(labeled3, (2,), public=((1, 0),)),
                     label="A_SSPP, public (1), 2 private, base 2 [003 Algorithm 1]"),
        *rows,
    ]
