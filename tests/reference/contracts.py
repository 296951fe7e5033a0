"""The contract every reference mechanism's tests inherit (STYLE.md item 7).

A subclass names the public constructors it covers (``constructors``), implements
``mechanism()``, ``universe()`` and ``inputs()`` (abstract: a subclass that forgets
one cannot be instantiated, so its tests error) and may skip contract tests only by
name with a reason (``skips``, checked at class creation to name existing tests).
tests/reference/test_contract_completeness.py fails when a public mechanism
constructor is named by no contract class.  The contract then checks that each
exact distribution is normalized (exactly 1, or an enclosure containing 1), that
the sampler agrees with it (seeded chi-square, false-positive rate
tests.stats.FALSE_POSITIVE_RATE), that the exact audit over the universe decides
the claim as HOLDS, and that the mechanism is immutable.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from functools import partial
from typing import Any, ClassVar

import pytest

from privref.audits.exact import Verdict, audit
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.reals import Interval

from ..stats import chi_square_pvalue, fits


def contract_tests() -> frozenset[str]:
    """Names of the tests every MechanismContract subclass inherits."""
    return frozenset(name for name in vars(MechanismContract) if name.startswith("test_"))


class MechanismContract(abc.ABC):
    """Abstract contract; subclasses provide the mechanism, a universe and sample inputs.

    ``constructors``: the public constructors (of mechanisms or of learners) whose
    mechanisms this class exercises; at least one.  ``skips``: contract test name ->
    reason, for tests that do not apply or are too costly; unknown names fail at import.
    """

    samples = 3000
    constructors: ClassVar[tuple[Callable[..., object], ...]] = ()
    skips: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.constructors:
            raise TypeError(f"{cls.__name__} must name the constructors it covers")
        unknown = set(cls.skips) - contract_tests()
        if unknown:
            raise TypeError(f"{cls.__name__}.skips names no contract test: {sorted(unknown)}")
        empty = [name for name, reason in cls.skips.items() if not reason.strip()]
        if empty:
            raise TypeError(f"{cls.__name__}.skips gives no reason for {empty}")

    @pytest.fixture(autouse=True)
    def _skip_by_name(self, request: pytest.FixtureRequest) -> None:
        reason = self.skips.get(request.function.__name__)
        if reason is not None:
            pytest.skip(reason)

    @abc.abstractmethod
    def mechanism(self) -> Mechanism[Any]:
        """The mechanism under test."""

    @abc.abstractmethod
    def universe(self) -> Universe:
        """A universe on which its claim must hold exactly."""

    @abc.abstractmethod
    def inputs(self) -> list[tuple[Hashable, ...]]:
        """Datasets on which the sampler is compared with the exact distribution."""

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
