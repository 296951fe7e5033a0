"""Contract tests and exact values for every foundation mechanism."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest

from privref.audits.exact import Verdict, audit
from privref.reference.citations import Uncited
from privref.reference.composition import compose, leak
from privref.reference.data import Dataset
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
from privref.reference.program import Program
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
    constructors = (randomized_response,)
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

    def test_keep_one_half_is_allowed_and_has_zero_loss(self) -> None:
        """keep = 1/2 is the edge of [1/2, 1): allowed, ε = 0 exactly, and the law ignores the bit."""
        mech = randomized_response("1/2")
        assert mech.claim.epsilon.exact == 0
        report = audit(mech, self.universe())
        assert report.verdict is Verdict.HOLDS
        assert report.epsilon_exact is not None and exp(report.epsilon_exact).exact == 1

    @pytest.mark.parametrize("keep", ["2/5", "49/100", "1/3"])
    def test_keep_just_below_one_half_is_refused(self, keep: str) -> None:
        """Below 1/2 the mechanism is randomized response with the output negated: refused."""
        with pytest.raises(InvalidArgument, match="must be >= 1/2"):
            randomized_response(keep)

    def test_bad_arguments(self) -> None:
        """keep must be an exact probability in [1/2, 1)."""
        with pytest.raises(InvalidArgument, match="keep=1/4 must be >= 1/2"):
            randomized_response("1/4")
        with pytest.raises(InvalidArgument, match=r"keep=1 must lie in \[0, 1\)"):
            randomized_response(1)
        with pytest.raises(InvalidArgument, match="single bit"):
            randomized_response("3/4").distribution((2,))


class TestLabelFlip(MechanismContract):
    constructors = (label_flip,)
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
    constructors = (exponential_learner,)
    samples = 2000

    def mechanism(self) -> Mechanism[Any]:
        return exponential_learner(HYPOTHESES, epsilon=1)

    def universe(self) -> Universe:
        return LABELED

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [((0, 1), (2, 0))]


class TestExponentialRational(MechanismContract):
    constructors = (exponential_learner,)
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
    constructors = (exponential_mechanism,)
    def mechanism(self) -> Mechanism[Any]:
        return exponential_mechanism(COUNTS, count_score, epsilon="1/2")

    def universe(self) -> Universe:
        return BITS

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [(1, 1)]


    @pytest.mark.parametrize("output", [True, False, "1", 1.0, None])
    def test_count_score_refuses_outputs_that_are_not_int_counts(self, output: object) -> None:
        """A count is an int, and a bool is not one: InvalidArgument naming the output."""
        with pytest.raises(InvalidArgument, match=r"output=.* must be an int count"):
            count_score((0, 1), output)


class TestReportNoisyMax(MechanismContract):
    constructors = (report_noisy_max,)
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
    constructors = (subsample,)
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

    def test_an_order_dependent_inner_mechanism_sees_a_shuffled_subsample(self) -> None:
        """004 Remark C.2: ``shuffle`` defaults to ``not inner.order_invariant``.  An inner that
        releases its first entry then releases each of the t entries with probability 1/t;
        without the shuffle, the lowest-indexed subset member would be likelier (entry 0 with
        probability n/t)."""
        def first(data: Dataset) -> Program[Hashable]:
            yield from ()
            return data[0]

        inner: Mechanism[Hashable] = Mechanism("first entry", first, PrivacyClaim.of(1),
                                               Uncited("order-dependent fixture"))
        fixture = PrivacyClaim.of(1)  # 004 Claim C.1 needs t >= 2(3 + e); only the law matters
        law = subsample(inner, 2, 4, claim=fixture).distribution(("a", "b", "c", "d"))
        assert law.as_dict() == {x: Fraction(1, 4) for x in "abcd"}
        unshuffled = subsample(inner, 2, 4, shuffle=False, claim=fixture).distribution(
            ("a", "b", "c", "d"))
        assert unshuffled.prob("a") == Fraction(1, 2)
        # the shuffled subsample is order invariant whatever the inner is; unshuffled it is not
        assert subsample(inner, 2, 4, claim=fixture).order_invariant
        assert not subsample(inner, 2, 4, shuffle=False, claim=fixture).order_invariant

    def test_claim_delta_is_rounded_up_when_e_to_epsilon_is_irrational(self) -> None:
        """004 Claim C.1's δ' = 4ε/(3 + e^{ε*})·δ is exactly (4n/t)·δ; with ε* = 1/2 the
        factor is not found exact, so it is enclosed and δ' is rounded up, never down, and
        only by a hair."""
        delta = Fraction(1, 10)
        claim = subsampling_claim(PrivacyClaim.of("1/2", delta), 1, 5)
        exact = Fraction(4, 5) * delta
        assert exact <= claim.delta < exact + Fraction(1, 10**30)

    def test_unranking_is_lexicographic(self) -> None:
        """All C(4, 2) subsets, in order."""
        assert [unrank_combination(r, 4, 2) for r in range(6)] == [
            (0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


class TestResampling(MechanismContract):
    constructors = (resample_iid,)
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
    constructors = (compose, leak)
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
def test_exponential_takes_the_exact_path_exactly_at_two_ln_r(epsilon: int | str, sensitivity: int,
                                                               exact: bool) -> None:
    """One function for every ε (004 Proposition A.1): the weights r^(q - q_max) are exact rationals
    exactly when ε/(2·sensitivity) is ln r with r rational; otherwise the law is enclosed."""
    em = exponential_mechanism(COUNTS, count_score, epsilon=epsilon, sensitivity=sensitivity)
    law = em.distribution((1, 0, 1))
    assert law.is_exact is exact
    if epsilon == "2*ln(3/2)" and sensitivity == 1:
        q = {o: count_score((1, 0, 1), o) for o in COUNTS}
        assert all(law.prob(o) / law.prob(2) == Fraction(3, 2) ** (q[o] - q[2]) for o in COUNTS)
