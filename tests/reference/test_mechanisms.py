"""Contract tests and exact values for every foundation mechanism."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest

from privref.audits.exact import Verdict, audit
from privref.reference.composition import compose, leak
from privref.reference.errors import InvalidArgument, UnknownLabel
from privref.reference.exponential import (
    count_score,
    exponential_learner,
    exponential_mechanism,
)
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.noisy_max import report_noisy_max
from privref.reference.privacy import PrivacyClaim
from privref.reference.randomized_response import label_flip, randomized_response
from privref.reference.reals import exp
from privref.reference.resampling import resample_iid
from privref.reference.subsampling import subsample, subsampling_claim, unrank_combination

from .contracts import MechanismContract

COUNTS = (0, 1, 2)
BITS = Universe((0, 1), (1, 2))


class Threshold:
    """x < j, a tiny hashable hypothesis for learner tests."""

    def __init__(self, j: int) -> None:
        self.j = j

    def __call__(self, x: Hashable) -> int:
        assert isinstance(x, int)
        return int(x < self.j)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Threshold) and other.j == self.j

    def __hash__(self) -> int:
        return hash(("T", self.j))

    def __repr__(self) -> str:
        return f"c_{self.j}"


HYPOTHESES = tuple(Threshold(j) for j in range(4))
LABELED = Universe(((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)), (2,))


class TestRandomizedResponse(MechanismContract):
    def mechanism(self) -> Mechanism[Any]:
        return randomized_response("3/4")

    def universe(self) -> Universe:
        return Universe((0, 1), (1,))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0,), (1,)]

    def test_exact_values(self) -> None:
        """P(keep) = 3/4, and the loss is exactly ln 3 (tight)."""
        mech = self.mechanism()
        assert mech.distribution((1,)).as_dict() == {1: Fraction(3, 4), 0: Fraction(1, 4)}
        report = audit(mech, self.universe())
        assert report.epsilon_exact is not None and exp(report.epsilon_exact).exact == 3

    def test_bad_arguments(self) -> None:
        """keep must be an exact probability in [1/2, 1)."""
        with pytest.raises(InvalidArgument, match="keep=1/4 must be >= 1/2"):
            randomized_response("1/4")
        with pytest.raises(InvalidArgument, match=r"keep=1 must lie in \[0, 1\)"):
            randomized_response(1)
        with pytest.raises(InvalidArgument, match="single bit"):
            randomized_response("3/4").distribution((2,))


class TestLabelFlip(MechanismContract):
    def mechanism(self) -> Mechanism[Any]:
        return label_flip("2/3")

    def universe(self) -> Universe:
        return Universe(((0, 0), (0, 1), (1, 0), (1, 1)), (1, 2))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [((0, 1), (1, 0))]

    def test_unknown_label_is_refused(self) -> None:
        """Labels other than 0/1 are refused."""
        with pytest.raises(UnknownLabel, match="label=5"):
            self.mechanism().distribution(((0, 5),))


class TestExponentialPapersForm(MechanismContract):
    samples = 2000

    def mechanism(self) -> Mechanism[Any]:
        return exponential_learner(HYPOTHESES, epsilon=1)

    def universe(self) -> Universe:
        return LABELED

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [((0, 1), (2, 0))]


class TestExponentialRational(MechanismContract):
    def mechanism(self) -> Mechanism[Any]:
        return exponential_learner(HYPOTHESES, epsilon="2*ln(3/2)")

    def universe(self) -> Universe:
        return LABELED

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [((0, 1), (2, 0)), ((1, 1), (1, 0))]

    def test_exact_probabilities(self) -> None:
        """Weights (3/2)^q: on S = ((0,1),(2,0)) the scores of c_0..c_3 are 1, 2, 2, 1."""
        dist = self.mechanism().distribution(((0, 1), (2, 0)))
        z = Fraction(3, 2) + 2 * Fraction(9, 4) + Fraction(3, 2)
        assert dist.prob(HYPOTHESES[1]) == Fraction(9, 4) / z
        assert dist.prob(HYPOTHESES[0]) == Fraction(3, 2) / z


class TestExponentialCounts(MechanismContract):
    def mechanism(self) -> Mechanism[Any]:
        return exponential_mechanism(COUNTS, count_score, epsilon="1/2")

    def universe(self) -> Universe:
        return BITS

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(1, 1)]


class TestReportNoisyMax(MechanismContract):
    def mechanism(self) -> Mechanism[Any]:
        return report_noisy_max(COUNTS, count_score, decay="1/2")

    def universe(self) -> Universe:
        return BITS

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(1,), (0, 1)]

    def test_permute_and_flip_values(self) -> None:
        """Scores (-1, 0, -1), decay 1/2: P(top) = 1/3 + 2/3·(1/2)·(1/2 + 1/2·1/2) = 7/12.

        The top (1) is visited first w.p. 1/3; otherwise a side candidate is
        rejected w.p. 1/2, and then 1 comes next w.p. 1/2, or the other side
        candidate comes next and is rejected w.p. 1/2.
        """
        dist = self.mechanism().distribution((1,))
        assert dist.prob(1) == Fraction(7, 12)
        assert dist.prob(0) == dist.prob(2) == Fraction(5, 24)


class TestSubsampling(MechanismContract):
    def mechanism(self) -> Mechanism[Any]:
        return subsample(randomized_response("2/3"), 1, 5)

    def universe(self) -> Universe:
        return Universe((0, 1), (5,))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0, 1, 1, 0, 1)]

    def test_claim_constants(self) -> None:
        """004 Claim C.1 with e^eps* = 2, n = 1, t = 5: eps = 1, delta' = 4/5·delta."""
        claim = subsampling_claim(PrivacyClaim.of("ln(2)", "1/10"), 1, 5)
        assert claim.epsilon.exact == 1 and claim.delta == Fraction(4, 50)
        with pytest.raises(InvalidArgument, match="t=4 must be >= n"):
            subsampling_claim(PrivacyClaim.of("ln(2)"), 1, 4)

    def test_unranking_is_lexicographic(self) -> None:
        """All C(4, 2) subsets, in order."""
        assert [unrank_combination(r, 4, 2) for r in range(6)] == [
            (0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


class TestResampling(MechanismContract):
    def mechanism(self) -> Mechanism[Any]:
        return resample_iid(exponential_mechanism(COUNTS, count_score, epsilon="2*ln(3/2)"))

    def universe(self) -> Universe:
        return Universe((0, 1), (2,))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(0, 1)]

    def test_inner_epsilon_must_be_at_most_one(self) -> None:
        """004 Claim C.3 needs eps <= 1."""
        with pytest.raises(InvalidArgument, match="must be <= 1"):
            resample_iid(exponential_mechanism(COUNTS, count_score, epsilon="2*ln(2)"))


class TestCompositionAndLeak(MechanismContract):
    def mechanism(self) -> Mechanism[Any]:
        return compose(randomized_response("3/4"), leak(randomized_response("2/3"), "1/10"))

    def universe(self) -> Universe:
        return Universe((0, 1), (1,))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(1,)]

    def test_claim_adds_up(self) -> None:
        """(ln 3 + ln 2, 1/10)."""
        claim = self.mechanism().claim
        assert exp(claim.epsilon).exact == 6 and claim.delta == Fraction(1, 10)


def test_dropping_the_half_breaks_privacy() -> None:
    """Mutation: weights exp(eps·q) instead of exp(eps·q/2) violate eps-DP, and the audit says so."""
    def score2(data: tuple[Hashable, ...], o: object) -> int:
        return 2 * count_score(data, o)
    broken = exponential_mechanism(COUNTS, score2, epsilon="2*ln(3/2)")  # sensitivity 2 scores
    report = audit(broken, BITS)
    assert report.verdict is Verdict.VIOLATED
    assert report.verdict_witness is not None and report.verdict_witness.violation_event


@pytest.mark.parametrize(("epsilon", "sensitivity", "exact"), [
    ("2*ln(3/2)", 1, True), ("2*ln(2)", 1, True), ("4*ln(3/2)", 2, True),  # e^{ε/(2Δ)} rational
    (1, 1, False), ("ln(3/2)", 1, False), ("2*ln(3/2)", 2, False),         # odd multiples of ε/2Δ
])
def test_exponential_takes_the_exact_path_exactly_at_two_ln_r(epsilon: object, sensitivity: int,
                                                               exact: bool) -> None:
    """One function for every ε (004 Proposition A.1): the weights r^(q - q_max) are exact rationals
    exactly when ε/(2·sensitivity) is ln r with r rational; otherwise the law is enclosed."""
    em = exponential_mechanism(COUNTS, count_score, epsilon=epsilon, sensitivity=sensitivity)
    law = em.distribution((1, 0, 1))
    assert law.is_exact is exact
    if epsilon == "2*ln(3/2)" and sensitivity == 1:
        q = {o: count_score((1, 0, 1), o) for o in COUNTS}
        assert all(law.prob(o) / law.prob(2) == Fraction(3, 2) ** (q[o] - q[2]) for o in COUNTS)
