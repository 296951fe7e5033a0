"""Poisson subsampling as an exact program (reference.poisson_subsampling)."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction as F
from typing import Any

import pytest

from privref.audits.exact import Verdict, audit
from privref.reference.composition import leak
from privref.reference.errors import InvalidArgument
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import LabelSubstitution, Substitution, Universe
from privref.reference.poisson_subsampling import (
    amplified_claim,
    amplified_epsilon,
    membership_response,
    poisson_subsample,
)
from privref.reference.privacy import PrivacyClaim
from privref.reference.randomized_response import label_flip
from privref.reference.reals import exp, log

from .contracts import MechanismContract


class TestMembershipResponse(MechanismContract):
    constructors = (membership_response,)

    def mechanism(self) -> Mechanism[Any]:
        return membership_response("3/4")

    def universe(self) -> Universe:
        return Universe((0, 1, 2), (0, 1, 2))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(), (1,), (0, 2)]


class TestPoissonSubsample(MechanismContract):
    constructors = (poisson_subsample,)

    def mechanism(self) -> Mechanism[Any]:
        return poisson_subsample(leak(membership_response("2/3"), "1/10"), "1/3")

    def universe(self) -> Universe:
        return Universe((0, 1), (0, 1, 2))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(1,), (0, 1), (1, 1)]


def test_the_law_is_the_mixture_over_kept_subsets() -> None:
    # keep 3/4 on [1 in data], q = 1/2 on (1, 1): P(some 1 kept) = 3/4
    law = poisson_subsample(membership_response("3/4"), "1/2").distribution((1, 1))
    assert law.prob(1) == F(3, 4) * F(3, 4) + F(1, 4) * F(1, 4)
    assert poisson_subsample(membership_response("3/4"), 1).distribution((1,)).prob(1) == F(3, 4)


def test_the_claim_is_the_amplified_pair() -> None:
    claim = amplified_claim(PrivacyClaim(log(3), F(1, 10)), "1/4")
    assert exp(claim.epsilon).exact == F(3, 2) and claim.delta == F(1, 40)
    assert exp(amplified_epsilon(log(5), F(1, 2))).exact == 3


@pytest.mark.parametrize("rate", [F(1, 2), F(1, 5)])
def test_the_amplified_epsilon_is_attained_exactly(rate: F) -> None:
    report = audit(poisson_subsample(membership_response("3/4"), rate), Universe((0, 1), (0, 1, 2)))
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_exact is not None
    assert exp(report.epsilon_exact).exact == 1 + 2 * rate


def test_under_substitution_the_same_epsilon_is_attained() -> None:
    inner = membership_response("3/4", relation=Substitution())
    mech = poisson_subsample(inner, "1/3")
    assert mech.relation == Substitution()
    report = audit(mech, Universe((0, 1), (1, 2, 3)))
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_exact is not None and exp(report.epsilon_exact).exact == F(5, 3)
    wrong = poisson_subsample(inner, "1/3", claim=amplified_claim(inner.claim, "1/6"))
    assert audit(wrong, Universe((0, 1), (2,))).verdict is Verdict.VIOLATED


def test_a_claim_at_half_the_rate_is_refuted() -> None:
    inner = membership_response("3/4")
    wrong = poisson_subsample(inner, "1/2", claim=amplified_claim(inner.claim, "1/4"))
    assert audit(wrong, Universe((0, 1), (0, 1))).verdict is Verdict.VIOLATED


def test_bad_input_names_the_argument() -> None:
    with pytest.raises(InvalidArgument, match="rate="):
        poisson_subsample(membership_response("3/4"), 0)
    with pytest.raises(InvalidArgument, match="rate="):
        poisson_subsample(membership_response("3/4"), "3/2")
    with pytest.raises(InvalidArgument, match="add/remove or substitution"):
        poisson_subsample(label_flip("3/4"), "1/2")
    with pytest.raises(InvalidArgument, match="relation="):
        membership_response("3/4", relation=LabelSubstitution())  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="inner="):
        poisson_subsample("not a mechanism", "1/2")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="keep="):
        membership_response("1/3")
