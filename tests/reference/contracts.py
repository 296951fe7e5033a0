"""The contract every reference mechanism's tests inherit (STYLE.md item 7).

A subclass sets ``mechanism()``, ``universe()`` and ``inputs()``; the contract
then checks that each exact distribution is normalized (exactly 1, or an
enclosure containing 1), that the sampler agrees with it (seeded chi-square,
false-positive rate tests.stats.FALSE_POSITIVE_RATE), that the exact audit
over the universe decides the claim as HOLDS, and that the mechanism is immutable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from fractions import Fraction
from functools import partial
from typing import Any

import pytest

from privref.audits.exact import Verdict, audit
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.reals import Interval

from ..stats import chi_square_pvalue, fits


class MechanismContract:
    """Abstract contract; subclasses provide the mechanism, a universe and sample inputs."""

    samples = 3000

    def mechanism(self) -> Mechanism[Any]:
        """The mechanism under test."""
        raise NotImplementedError

    def universe(self) -> Universe:
        """A universe on which its claim must hold exactly."""
        raise NotImplementedError

    def inputs(self) -> list[tuple[Hashable, ...]]:
        """Datasets on which the sampler is compared with the exact distribution."""
        raise NotImplementedError

    def test_distribution_is_normalized(self) -> None:
        """Exact probabilities sum to exactly 1; enclosures contain 1."""
        mech = self.mechanism()
        for data in self.inputs():
            total = mech.distribution(data).total()
            if isinstance(total, Fraction):
                assert total == 1
            else:
                assert isinstance(total, Interval) and total.lo <= 1 <= total.hi

    def test_sampler_agrees_with_distribution(self) -> None:
        """Seeded chi-square of the sampler against the exact law."""
        mech = self.mechanism()
        for data in self.inputs():
            dist = mech.distribution(data)
            pvalue = chi_square_pvalue(dist, partial(mech.sample, data),
                                       n=self.samples)
            assert fits(pvalue, f"{mech.name} sampler on {data!r}"), (data, pvalue)

    def test_exact_audit_holds(self) -> None:
        """The claimed guarantee HOLDS over every neighboring pair of the universe."""
        report = audit(self.mechanism(), self.universe())
        assert report.verdict is Verdict.HOLDS, report

    def test_mechanism_is_immutable(self) -> None:
        """Mechanisms are frozen values."""
        mech = self.mechanism()
        with pytest.raises(dataclasses.FrozenInstanceError):
            mech.name = "changed"  # type: ignore[misc]
