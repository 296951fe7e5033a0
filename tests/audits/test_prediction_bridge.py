"""Predictor.at(x): a predictor at one query point, audited by the standard auditors.

Paper 002's guarantees are per single query (002 §2): at a fixed x, S ↦ A(S, x) is an ordinary
randomized algorithm on datasets, (ε, δ)-private prediction at x is (ε, δ)-DP of it, and
γ-uniform stability at x is (0, γ)-DP of it.  The exact auditor on ``predictor.at(x)`` must
therefore agree exactly with the prediction auditor restricted to x, and the black-box auditor
must treat it as any other target.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import pytest

from privref.audits.blackbox.api import assert_private
from privref.audits.blackbox.report import BlackboxVerdict
from privref.audits.blackbox.search import SearchSpace
from privref.audits.exact import audit
from privref.audits.prediction import audit_prediction
from privref.reference.citations import Uncited
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument, UnsupportedProgram
from privref.reference.neighbors import SUBSTITUTION, Universe
from privref.reference.prediction import (
    Predictor,
    PrivatePrediction,
    UniformStability,
)
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, bernoulli
from privref.reference.reals import exp, rational
from privref.reference.verdict import Verdict

from ..reference.test_prediction import EXAMPLES, X, majority_flip, subsample_flip
from ..stats import AUDIT_CONFIDENCE

THREE = Universe(EXAMPLES, (3,))
S = ((0, 1), (0, 1), (1, 0))

FLIP = majority_flip(Fraction(3, 4))          # exactly ln 3-private, 1/2-stable
SUBSAMPLE = subsample_flip(Fraction(3, 4), 3)  # exactly ln(5/3)-private on size 3, 1/6-stable
RANDOM_LABEL = subsample_flip(Fraction(1), 3)  # exactly 1/3-stable on size 3, no finite ε


def test_at_is_the_same_program() -> None:
    """at(x) has the predictor's law, name, source and relation, and the converted claim."""
    m = FLIP.at(0)
    assert m.name == "majority flip at x=0"
    assert m.source is FLIP.source and m.relation is SUBSTITUTION
    assert m.distribution(S).as_dict() == FLIP.law(S, 0).as_dict() == {
        1: Fraction(3, 4), 0: Fraction(1, 4)}
    assert SUBSAMPLE.at(1).distribution(S).as_dict() == {1: Fraction(7, 12), 0: Fraction(5, 12)}
    assert isinstance(FLIP.claim, PrivatePrediction)
    assert m.claim == FLIP.claim.privacy
    stable = RANDOM_LABEL.at(1).claim
    assert stable.epsilon.exact == 0 and stable.delta == Fraction(1, 3)


def test_at_refuses_bad_queries_and_claims() -> None:
    """A query outside the domain, an unhashable query, an irrational or vacuous γ: typed errors."""
    with pytest.raises(InvalidArgument, match=r"^x=2 must be a point of the domain"):
        FLIP.at(2)
    with pytest.raises(InvalidArgument, match=r"^x=\[0\] must be hashable"):
        FLIP.at([0])  # type: ignore[arg-type]  # deliberately unhashable
    irrational = Predictor("tanh", FLIP.program, UniformStability(exp(1) - 2), FLIP.source)
    with pytest.raises(InvalidArgument, match=r"^gamma=.* must be rational"):
        irrational.at(0)
    with pytest.raises(InvalidArgument, match=r"^gamma=1 must be < 1"):
        majority_flip(Fraction(1)).at(0)  # deterministic ERM: only the vacuous γ = 1


def test_at_checks_labels_like_law() -> None:
    """A program returning 2, or no generator at all, is refused by name as in Predictor.law."""
    def two(data: Dataset, x: Hashable) -> Program[int]:
        kept = yield from bernoulli(Fraction(1, 2))
        return 2 if kept else 0

    bad = Predictor("two", two, PrivatePrediction.of(1), Uncited("test fixture"))
    with pytest.raises(UnsupportedProgram, match=r"predictor 'two' returned 2"):
        bad.at(0).distribution(S)
    not_a_program = Predictor("plain", lambda data, x: 1, PrivatePrediction.of(1),  # type: ignore[arg-type, return-value]  # deliberately not a generator
                              Uncited("test fixture"))
    with pytest.raises(UnsupportedProgram, match=r"^mechanism 'plain at x=0'"):
        not_a_program.at(0).distribution(S)


@pytest.mark.parametrize("predictor", [FLIP, SUBSAMPLE], ids=["flip", "random-example"])
@pytest.mark.parametrize("x", X)
def test_exact_audit_agrees_with_prediction_audit(predictor: Predictor, x: int) -> None:
    """Same verdict, pairs, and worst-case ε at the claimed δ: exactly (symbol and enclosure)."""
    via_dp = audit(predictor.at(x), THREE)
    direct = audit_prediction(predictor, THREE, [x])
    assert via_dp.verdict is direct.verdict is Verdict.HOLDS
    assert via_dp.pairs == direct.pairs == 64 * 3 * 3
    assert via_dp.epsilon_exact is not None and direct.epsilon_exact is not None
    assert str(via_dp.epsilon_exact) == str(direct.epsilon_exact)
    assert exp(via_dp.epsilon_exact).exact == exp(direct.epsilon_exact).exact == (
        3 if predictor is FLIP else Fraction(5, 3))
    assert (via_dp.epsilon_lower, via_dp.epsilon_upper) == (direct.epsilon_lower,
                                                            direct.epsilon_upper)
    assert not via_dp.epsilon_infinite and not direct.epsilon_infinite


@pytest.mark.parametrize("x", X)
def test_exact_audit_of_a_stability_claim(x: int) -> None:
    """Random label on size 3: (0, 1/3)-DP holds with ε = 0 there, ε = ∞ at δ = 0, both ways."""
    m = RANDOM_LABEL.at(x)
    via_dp = audit(m, THREE)
    direct = audit_prediction(RANDOM_LABEL, THREE, [x])
    assert via_dp.verdict is direct.verdict is Verdict.HOLDS
    assert direct.gamma_exact == Fraction(1, 3)
    at_gamma = audit_prediction(RANDOM_LABEL, THREE, [x],
                                claim=PrivatePrediction.of(0, Fraction(1, 3)))
    assert via_dp.epsilon_exact is not None and at_gamma.epsilon_exact is not None
    assert via_dp.epsilon_exact.exact == at_gamma.epsilon_exact.exact == 0
    at_zero = audit(m, THREE, claim=PrivacyClaim(rational(0)))
    assert at_zero.epsilon_infinite and direct.epsilon_infinite


@pytest.mark.parametrize(("predictor", "gamma"), [(RANDOM_LABEL, Fraction(1, 3)),
                                                 (FLIP, Fraction(1, 2)),
                                                 (SUBSAMPLE, Fraction(1, 6))],
                         ids=["random-label", "flip", "random-example"])
@pytest.mark.parametrize(("shift", "verdict"), [(Fraction(0), Verdict.HOLDS),
                                                (Fraction(-1, 1000), Verdict.VIOLATED)])
def test_stability_verdicts_agree(predictor: Predictor, gamma: Fraction, shift: Fraction,
                                  verdict: Verdict) -> None:
    """(0, γ)-DP of at(0) and γ-stability at 0 hold at the audited γ, fail 1/1000 below it."""
    direct = audit_prediction(predictor, THREE, [0])
    assert direct.gamma_exact == gamma
    g = gamma + shift
    stability = audit_prediction(predictor, THREE, [0], claim=UniformStability.of(g))
    via_dp = audit(predictor.at(0), THREE, claim=PrivacyClaim(rational(0), g))
    assert stability.verdict is via_dp.verdict is verdict


ONE_FLIP = (((0, 1),), ((0, 0),))  # the ERM label at 0 moves from 1 to 0
ONE_LABEL = (((0, 1), (0, 1), (1, 1)), ((0, 1), (0, 1), (1, 0)))  # one label of three flips


def over_claimed(predictor: Predictor, claim: PrivatePrediction | UniformStability) -> Predictor:
    """The same program with a claim well below its truth."""
    return Predictor(f"over-claimed {predictor.name}", predictor.program, claim,
                     Uncited("test fixture: a deliberately false claim"), domain=X)


@pytest.mark.parametrize(("predictor", "pair"), [(FLIP, ONE_FLIP), (RANDOM_LABEL, ONE_LABEL)],
                         ids=["flip", "random-label"])
def test_blackbox_passes_a_correct_predictor(predictor: Predictor,
                                             pair: tuple[Dataset, Dataset]) -> None:
    """2000 samples per side, seed 1, the worst pair given and then a searched one: no violation.

    False positives: for a truly private target the auditor raises falsely with probability
    at most 1 − confidence = 1/20 per call over the seed (docs/blackbox.md); the seed is fixed,
    so this is one deterministic realization, not a flaky test.  Both claims are exact
    (ln 3 is FLIP's true ε, 1/3 RANDOM_LABEL's true γ on size 3), so it is the tightest case.
    """
    m = predictor.at(0)
    given = assert_private(m, epsilon=m.claim.epsilon, delta=m.claim.delta, pairs=[pair],
                           samples=2000, seed=1, confidence=AUDIT_CONFIDENCE)
    searched = assert_private(m, epsilon=m.claim.epsilon, delta=m.claim.delta, samples=2000,
                              seed=1, search=SearchSpace(elements=EXAMPLES, sizes=(3,)),
                              confidence=AUDIT_CONFIDENCE)
    assert given.verdict is searched.verdict is BlackboxVerdict.NO_VIOLATION_FOUND


@pytest.mark.parametrize(("predictor", "claim", "pair"), [
    (FLIP, PrivatePrediction.of("1/10"), ONE_FLIP),
    (RANDOM_LABEL, UniformStability.of("1/30"), ONE_LABEL),
], ids=["flip", "random-label"])
def test_blackbox_flags_an_over_claimed_predictor(
        predictor: Predictor, claim: PrivatePrediction | UniformStability,
        pair: tuple[Dataset, Dataset]) -> None:
    """A claim far below the truth is flagged VIOLATION at 2000 samples per side, seed 1.

    Flip: P(0) = 3/4 vs 1/4 on the pair, true ε = ln 3 ≈ 1.10 against a claimed 1/10; the
    bound from 1000 held-out draws a side is about ln(760/239) ≈ 1.0 (counts near their means
    750 and 250).  Random label: P(0) = 1/3 vs 0 exactly, true γ = 1/3 against a claimed
    1/30 (δ = 1/30 at ε = 0).  A miss would need a count more than ten standard deviations
    (about 14 draws each) off its mean, so the false-negative probability is negligible; the
    fixed seed makes the test deterministic.  The exact auditor would report VIOLATED too.
    """
    m = over_claimed(predictor, claim).at(0)
    with pytest.raises(AssertionError, match=r"is not \(.*\)-DP: epsilon >= "):
        assert_private(m, epsilon=m.claim.epsilon, delta=m.claim.delta, pairs=[pair],
                       samples=2000, seed=1, confidence=AUDIT_CONFIDENCE)
    assert audit(m, THREE).verdict is Verdict.VIOLATED
