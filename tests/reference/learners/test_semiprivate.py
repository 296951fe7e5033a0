"""A_SSPP (003 Algorithm 1): exact law, properness, privacy, cover rule, sampler, bad input."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privref.audits.exact import audit
from privref.reference.concept_strategies import concept_classes
from privref.reference.concepts import ConceptClass, intervals, thresholds_on
from privref.reference.data import BOTTOM, labeled, unlabeled
from privref.reference.errors import InvalidArgument
from privref.reference.exponential import agreements
from privref.reference.learners.semiprivate import (
    SSPP_SOURCE,
    alpha_cover,
    cover_agreements,
    split_public_private,
    sspp_learner,
)
from privref.reference.neighbors import PublicPrivate, Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import log
from privref.reference.vc import projection
from privref.reference.verdict import Verdict

from ...stats import chi_square_pvalue, fits

T3 = thresholds_on(3)
I3 = intervals(3)
ELEMENTS = tuple(labeled(x, y) for x in range(3) for y in (0, 1))


def _db(public: tuple[int, ...], private: tuple[tuple[int, int], ...]) -> tuple[object, ...]:
    return tuple(unlabeled(x) for x in public) + tuple(labeled(x, y) for x, y in private)


def test_metadata() -> None:
    L = sspp_learner(T3, public_size=2, epsilon="2*ln(2)")
    assert L.proper and L.concepts == T3
    assert L.source == SSPP_SOURCE
    assert L.mechanism.relation == PublicPrivate(2)
    assert str(L.claim.epsilon) == str(log(Fraction(2)) * 2)


@pytest.mark.parametrize("C", [T3, I3])
@pytest.mark.parametrize("public", [(), (1,), (0, 2), (2, 0, 2), (0, 1, 2)])
def test_exact_law_sums_to_one_and_is_proper(C: object, public: tuple[int, ...]) -> None:
    assert C is T3 or C is I3
    L = sspp_learner(C, public_size=len(public), epsilon="2*ln(3)")
    cover = set(alpha_cover(C, public))
    for private in itertools.product(((0, 0), (1, 1), (2, 0), (2, 1)), repeat=2):
        dist = L.distribution(_db(public, private))
        assert dist.is_exact and dist.total() == 1
        assert set(dist.support()) <= cover
        assert all(h in C for h in dist.support())


def test_exact_law_matches_formula() -> None:
    # r = e^{eps/2} = 2: Pr[h] ∝ 2^{agreements}
    L = sspp_learner(T3, public_size=2, epsilon="2*ln(2)")
    private = ((0, 1), (1, 1), (2, 0))
    dist = L.distribution(_db((0, 2), private)).as_dict()
    cover = alpha_cover(T3, (0, 2))
    weights = {h: Fraction(2) ** sum(h(x) == y for x, y in private) for h in cover}
    total = sum(weights.values())
    assert dist == {h: w / total for h, w in weights.items()}


def test_cover_one_per_pattern_and_public_only() -> None:
    for public in [(), (1,), (0, 2), (0, 1, 2)]:
        cover = alpha_cover(T3, public)
        pats = {tuple(h(x) for x in public) for h in cover}
        assert len(cover) == len(pats) == len(projection(T3, public))
    # depends on the set of public points only (order, repeats irrelevant)
    assert alpha_cover(I3, (2, 0)) == alpha_cover(I3, (0, 2, 0, 2)) == alpha_cover(I3, (0, 2))
    # ... and never on the private part: the support lies in the same cover for every S_priv
    L = sspp_learner(I3, public_size=2, epsilon="2*ln(2)")
    supports = {frozenset(L.distribution(_db((0, 2), p)).support())
                for p in itertools.product(((0, 0), (1, 1), (2, 1)), repeat=2)}
    assert set().union(*supports) <= set(alpha_cover(I3, (0, 2)))
    # public labels are ignored
    a = L.distribution((labeled(0, 1), labeled(2, 0), labeled(1, 1)))
    b = L.distribution((unlabeled(0), unlabeled(2), labeled(1, 1)))
    assert a.as_dict() == b.as_dict()


@pytest.mark.parametrize("public", [(), (1,), (0, 2), (0, 1, 2)])
def test_privacy_audit(public: tuple[int, ...]) -> None:
    L = sspp_learner(T3, public_size=len(public), epsilon="2*ln(2)")
    pub = tuple(labeled(x, 0) for x in public)
    report = audit(L.mechanism, Universe(ELEMENTS, (2, 3), public=pub))
    assert report.verdict is Verdict.HOLDS


def test_without_half_is_caught() -> None:
    broken = sspp_learner(T3, public_size=3, epsilon=log(Fraction(2)) * 4)
    pub = tuple(labeled(x, 0) for x in (0, 1, 2))
    report = audit(broken.mechanism, Universe(ELEMENTS, (3,), public=pub),
                   claim=PrivacyClaim(log(Fraction(2)) * 2))
    assert report.verdict is Verdict.VIOLATED
    assert str(report.epsilon_exact) == str(log(Fraction(193, 13)))


def test_sampler_matches_exact_law() -> None:
    L = sspp_learner(I3, public_size=2, epsilon="2*ln(3/2)")
    data = _db((0, 2), ((0, 1), (1, 1), (2, 0), (1, 0)))
    dist = L.distribution(data)
    assert len(dist.support()) > 1
    pvalue = chi_square_pvalue(dist, lambda rng: L.sample(data, rng), n=3000)
    assert fits(pvalue, "semi-private learner sampler"), pvalue
    rng = np.random.default_rng(7)
    assert L.sample(data, rng) in I3


def test_no_private_data_and_no_public_data() -> None:
    L = sspp_learner(T3, public_size=2, epsilon="2*ln(2)")
    dist = L.distribution(_db((0, 2), ()))
    assert set(dist.support()) == set(alpha_cover(T3, (0, 2)))
    assert len(set(dist.as_dict().values())) == 1          # uniform over the cover
    L0 = sspp_learner(T3, public_size=0, epsilon="2*ln(2)")
    assert len(L0.distribution(_db((), ((0, 1),))).support()) == 1


def test_bad_input() -> None:
    L = sspp_learner(T3, public_size=2, epsilon="2*ln(2)")
    with pytest.raises(InvalidArgument):
        L.distribution((unlabeled(0),))                            # shorter than the public part
    with pytest.raises(InvalidArgument):
        L.distribution((*_db((0, 2), ()), (1, BOTTOM)))            # unlabeled private entry
    with pytest.raises(InvalidArgument):
        L.distribution(_db((0, 7), ((1, 1),)))                     # point outside the domain
    with pytest.raises(InvalidArgument):
        L.distribution((unlabeled(0), unlabeled(1), (1, 2)))        # label not in {0, 1, ⊥}
    with pytest.raises(InvalidArgument):
        sspp_learner(T3, public_size=2, epsilon="2*ln(1/2)")       # ε = 2 ln r < 0 for r < 1
    with pytest.raises(InvalidArgument):
        sspp_learner(T3, public_size=-1, epsilon=1)
    with pytest.raises(InvalidArgument):
        sspp_learner("not a class", public_size=1, epsilon=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument):
        split_public_private(T3, 1, [unlabeled(0)])  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument):
        alpha_cover(T3, (5,))


def test_not_declared_order_invariant_across_the_public_boundary() -> None:
    """Moving an entry across the public/private boundary changes the law, so the mechanism must
    not declare order invariance (the exact auditor verifies such declarations and would refuse)."""
    from privref.audits.exact import verify_order_invariance
    from privref.reference.concepts import thresholds_on
    from privref.reference.learners.semiprivate import sspp_learner
    from privref.reference.neighbors import Universe

    three = thresholds_on(3)
    lrn = sspp_learner(three, public_size=1, epsilon="2*ln(2)")
    assert lrn.mechanism.order_invariant is False
    a, b = ((0, 0), (0, 0), (0, 1)), ((0, 1), (0, 0), (0, 0))
    assert lrn.distribution(a) != lrn.distribution(b)
    del verify_order_invariance, Universe  # imported to document where the refusal comes from


@settings(max_examples=60, deadline=None)
@given(concept_classes(), st.data())
def test_cover_agreements_equal_the_agreement_score(C: ConceptClass, data: st.DataObject) -> None:
    points = C.domain.points
    sample = tuple(labeled(data.draw(st.sampled_from(points)), data.draw(st.sampled_from((0, 1))))
                   for _ in range(data.draw(st.integers(0, 12))))
    public = tuple(data.draw(st.lists(st.sampled_from(points), max_size=4)))
    cover = alpha_cover(C, public)
    assert cover_agreements(C, cover, sample) == [agreements(h, sample) for h in cover]
    assert cover_agreements(C, C.concepts, sample) == [agreements(h, sample) for h in C]


def test_cover_agreements_on_wide_domains_and_bad_labels() -> None:
    H = thresholds_on(1000)                      # 125-byte masks: the byte packing is exercised
    sample = tuple(labeled(x, int(x < 600)) for x in range(0, 1000, 7))
    assert cover_agreements(H, H.concepts, sample) == [agreements(h, sample) for h in H]
    with pytest.raises(InvalidArgument, match="private entry 1 has label"):
        cover_agreements(T3, T3.concepts, (labeled(0, 1), unlabeled(1)))
