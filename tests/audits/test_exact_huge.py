"""The exact auditor with astronomically large claimed epsilons: quick, sound answers."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

from privref.audits.exact import EPSILON_CAP, Verdict, audit
from privref.reference.citations import Uncited
from privref.reference.concepts import thresholds_on
from privref.reference.data import labeled
from privref.reference.exponential import exponential_learner
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, bernoulli
from privref.reference.randomized_response import randomized_response

BITS = Universe((0, 1), (1,))


def test_a_huge_claim_against_randomized_response_holds() -> None:
    """True loss ln 3 <= 10^9: HOLDS, decided against e^EPSILON_CAP (noted in the report)."""
    report = audit(randomized_response(Fraction(3, 4)), BITS, claim=PrivacyClaim.of(10**9))
    assert report.verdict is Verdict.HOLDS
    assert report.notes and str(EPSILON_CAP) in report.notes[0]
    assert str(report.epsilon_exact) == "log(3)"


def test_a_violation_where_q_vanishes_survives_the_cap() -> None:
    """Output 1 is impossible on (0,): P - t·0 = 1/2 > delta at every epsilon, so VIOLATED."""
    def leak(data: tuple[Hashable, ...]) -> Program[int]:
        coin = yield from bernoulli(Fraction(1, 2))
        return int(coin and data[0] == 1)

    mech = Mechanism("leak", leak, PrivacyClaim.of(1), Uncited("test fixture"))
    report = audit(mech, BITS, claim=PrivacyClaim.of(10**9, Fraction(1, 4)))
    assert report.verdict is Verdict.VIOLATED
    assert report.epsilon_infinite


def test_the_exponential_learner_at_epsilon_1e9_answers_quickly() -> None:
    """Weights e^(-5·10^8) are enclosed in [0, 2^-MAX_EXPONENT]: an answer, never a wrong one."""
    learner = exponential_learner(list(thresholds_on(2)), epsilon=10**9)
    universe = Universe(tuple(labeled(x, y) for x in range(2) for y in (0, 1)), (1,))
    report = audit(learner, universe)
    assert report.verdict is not Verdict.VIOLATED
    # some probability is only known to lie in [0, 2^-MAX_EXPONENT]: the loss has no upper
    # bound, and none is reported, though it is not proved infinite either
    assert not report.epsilon_infinite and report.epsilon_upper is None
    assert report.epsilon_lower > 1000
    assert audit(learner, universe, claim=PrivacyClaim.of(1)).verdict is Verdict.VIOLATED
