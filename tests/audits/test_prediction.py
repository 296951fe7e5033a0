"""The exact prediction auditor: tight conversions, verdicts at/above/below the truth, bad input."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privref.audits.loss import epsilon_at_delta
from privref.audits.prediction import (
    PredictionAuditReport,
    audit_prediction,
    audit_prediction_pair,
)
from privref.reference.errors import InvalidArgument, NotNeighboring
from privref.reference.neighbors import Universe
from privref.reference.prediction import (
    Predictor,
    PrivatePrediction,
    UniformStability,
    paper_stability_bound,
    privacy_from_stability,
    stability_from_privacy,
)
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Distribution
from privref.reference.reals import Order, compare, exp, log, rational
from privref.reference.verdict import Verdict

from ..reference.test_prediction import EXAMPLES, X, majority_flip, subsample_flip

ONE = Universe(EXAMPLES, (1,))
THREE = Universe(EXAMPLES, (3,))
TWO = Universe(EXAMPLES, (2,))


def check_witness(report: PredictionAuditReport, predictor: Predictor) -> None:
    """A VIOLATED witness (a, b, x, y) really breaks the claim, recomputed from the laws."""
    w = report.verdict_witness
    assert w is not None and w.y is not None
    p, q = predictor.probability_one(w.a, w.x), predictor.probability_one(w.b, w.x)
    assert isinstance(p, Fraction) and isinstance(q, Fraction)
    py, qy = (p, q) if w.y == 1 else (1 - p, 1 - q)
    claim = report.claim
    if isinstance(claim, PrivatePrediction):
        t = exp(claim.epsilon).exact
        assert t is not None and py > t * qy + claim.delta
    else:
        assert compare(rational(abs(py - qy)), claim.gamma)[0] is Order.GREATER


def test_label_flip_attains_tanh_exactly() -> None:
    """Flip of the local-majority ERM at keep 3/4: audited ε = ln 3, audited γ = 1/2 = tanh(ln 3/2).

    The tight conversion is attained exactly; the paper's e^ε - 1 = 2 is four times larger.
    """
    flip = majority_flip(Fraction(3, 4))
    assert isinstance(flip.claim, PrivatePrediction)
    report = audit_prediction(flip, THREE, X)
    assert report.verdict is Verdict.HOLDS and report.pairs == 64 * 3 * 3
    assert report.epsilon_exact is not None and exp(report.epsilon_exact).exact == 3
    assert report.gamma_exact == Fraction(1, 2)
    assert stability_from_privacy(flip.claim).gamma.exact == report.gamma_exact
    assert paper_stability_bound(flip.claim).gamma.exact == 2
    w = report.gamma_witness
    pa, pb = flip.probability_one(w.a, w.x), flip.probability_one(w.b, w.x)
    assert isinstance(pa, Fraction) and isinstance(pb, Fraction) and abs(pa - pb) == Fraction(1, 2)


@pytest.mark.parametrize(("epsilon", "verdict"), [
    ("ln(3)", Verdict.HOLDS),              # exactly the truth: decided, not UNDECIDED
    ("ln(3001/1000)", Verdict.HOLDS),      # just above
    ("ln(2999/1000)", Verdict.VIOLATED),   # just below
])
def test_private_verdicts_at_above_below(epsilon: str, verdict: Verdict) -> None:
    """ln 3 is the exact worst case of the keep-3/4 flip; the verdict flips exactly there."""
    flip = majority_flip(Fraction(3, 4))
    report = audit_prediction(flip, ONE, X, claim=PrivatePrediction.of(epsilon))
    assert report.verdict is verdict
    if verdict is Verdict.VIOLATED:
        check_witness(report, flip)


@pytest.mark.parametrize(("gamma", "verdict"), [
    (Fraction(1, 2), Verdict.HOLDS),
    (Fraction(1, 2) + Fraction(1, 10**9), Verdict.HOLDS),
    (Fraction(1, 2) - Fraction(1, 10**9), Verdict.VIOLATED),
])
def test_stability_verdicts_at_above_below(gamma: Fraction, verdict: Verdict) -> None:
    """γ = 1/2 is the exact worst case of the keep-3/4 flip."""
    flip = majority_flip(Fraction(3, 4))
    report = audit_prediction(flip, ONE, X, claim=UniformStability(rational(gamma)))
    assert report.verdict is verdict
    assert report.epsilon_exact is not None and exp(report.epsilon_exact).exact == 3  # at δ = 0
    if verdict is Verdict.VIOLATED:
        check_witness(report, flip)


def test_irrational_tanh_is_decided_soundly() -> None:
    """keep = e/(1+e) (ε = 1): γ = tanh(1/2) is irrational and the laws are enclosures.

    At the exact claim equality cannot be proved with intervals: UNDECIDED, never a wrong
    HOLDS/VIOLATED.  Just above and below, the verdicts are proved.
    """
    flip = majority_flip(exp(1) / (exp(1) + 1))
    tanh = stability_from_privacy(PrivatePrediction.of(1)).gamma
    at = audit_prediction(flip, ONE, X, claim=UniformStability(tanh), max_precision=256)
    assert at.verdict is Verdict.UNDECIDED and at.gamma_exact is None
    box = tanh.enclose(256)
    assert at.gamma_lower <= box.hi and box.lo <= at.gamma_upper
    eps = Fraction(1, 10**6)
    assert audit_prediction(flip, ONE, X, claim=UniformStability(tanh + eps)).verdict \
        is Verdict.HOLDS
    assert audit_prediction(flip, ONE, X, claim=UniformStability(tanh - eps)).verdict \
        is Verdict.VIOLATED
    private = audit_prediction(flip, ONE, X, claim=PrivatePrediction.of(1), max_precision=256)
    assert private.verdict is Verdict.UNDECIDED
    assert private.epsilon_lower <= 1 and private.epsilon_upper is not None
    assert private.epsilon_upper >= 1
    assert audit_prediction(flip, ONE, X, claim=PrivatePrediction.of("101/100")).verdict \
        is Verdict.HOLDS
    assert audit_prediction(flip, ONE, X, claim=PrivatePrediction.of("99/100")).verdict \
        is Verdict.VIOLATED


def test_random_label_is_delta_stable_and_not_pure_private() -> None:
    """Random-label predictor on n = 2: γ = 1/2 exactly, ε = ∞ at δ = 0, ε = 0 at δ = 1/2."""
    rand = subsample_flip(Fraction(1), 2)
    stable = audit_prediction(rand, TWO, X)
    assert stable.verdict is Verdict.HOLDS and stable.gamma_exact == Fraction(1, 2)
    assert stable.epsilon_infinite and stable.epsilon_upper is None
    private = audit_prediction(rand, TWO, X, claim=PrivatePrediction.of(0, "1/2"))
    assert private.verdict is Verdict.HOLDS and private.epsilon_exact is not None
    assert private.epsilon_exact.exact == 0
    below = audit_prediction(rand, TWO, X, claim=PrivatePrediction.of(0, "499/1000"))
    assert below.verdict is Verdict.VIOLATED
    check_witness(below, rand)


@settings(max_examples=15)
@given(st.fractions(0, Fraction(11, 12), max_denominator=12))
def test_zero_epsilon_privacy_and_stability_verdicts_coincide(delta: Fraction) -> None:
    """(0, δ)-private prediction ≡ δ-stability (002 C2): the exact auditor agrees on every δ."""
    rand = subsample_flip(Fraction(1), 2)
    stable = UniformStability(rational(delta))
    private = privacy_from_stability(stable)
    a = audit_prediction(rand, TWO, X, claim=stable).verdict
    b = audit_prediction(rand, TWO, X, claim=private).verdict
    assert a is b is (Verdict.HOLDS if delta >= Fraction(1, 2) else Verdict.VIOLATED)


@settings(max_examples=15)
@given(st.fractions(Fraction(1, 2), Fraction(19, 20), max_denominator=20), st.integers(1, 2),
       st.sampled_from([Fraction(0), Fraction(1, 20), Fraction(1, 5)]))
def test_converted_bound_covers_audited_gamma(keep: Fraction, n: int, delta: Fraction) -> None:
    """For the subsample-flip predictor: audited γ <= γ(audited ε at δ, δ), equal when n = 1 and δ = 0.

    At n = 1 the predictor is randomized response on the label, the extremal case of C2.
    """
    pred = subsample_flip(keep, n)
    report = audit_prediction(pred, Universe(EXAMPLES, (n,)), X,
                              claim=PrivatePrediction(rational(0), delta))
    assert report.epsilon_exact is not None and report.gamma_exact is not None
    converted = stability_from_privacy(PrivatePrediction(report.epsilon_exact, delta)).gamma
    assert converted.exact is not None and report.gamma_exact <= converted.exact
    assert report.gamma_exact == (2 * keep - 1) / n
    if n == 1 and delta == 0:
        assert report.gamma_exact == converted.exact


def bernoulli_law(p: Fraction) -> Distribution[int]:
    """The law of one answer with P[1] = p."""
    return Distribution.from_mapping({1: p, 0: 1 - p})


@given(st.fractions(0, 1, max_denominator=40), st.fractions(0, 1, max_denominator=40),
       st.fractions(0, Fraction(9, 10), max_denominator=20))
def test_conversion_with_the_pair_solver(p: Fraction, q: Fraction, delta: Fraction) -> None:
    """C2 on one binary pair: with e^ε the least t for both orders at δ, |p - q| <= γ(ε, δ)."""
    lp, lq = bernoulli_law(p), bernoulli_law(q)
    ts = [epsilon_at_delta(lp, lq, delta), epsilon_at_delta(lq, lp, delta)]
    if any(t.infinite for t in ts):
        return
    t = max(e.t_exact for e in ts if e.t_exact is not None)
    gamma = stability_from_privacy(PrivatePrediction(log(rational(t)), delta)).gamma
    assert gamma.exact is not None and abs(p - q) <= gamma.exact


# --------------------------------------------------------------------------------- bad input


def test_bad_input_raises() -> None:
    """Non-neighbors, bad queries, empty universes and bad claims raise typed errors."""
    flip = majority_flip(Fraction(3, 4))
    with pytest.raises(NotNeighboring):
        audit_prediction_pair(flip, [(0, 0), (0, 0)], [(1, 1), (1, 1)], X)
    with pytest.raises(NotNeighboring):
        audit_prediction_pair(flip, [(0, 0)], [(0, 0), (0, 1)], X)
    with pytest.raises(InvalidArgument, match="x=5 must be a point of the domain"):
        audit_prediction(flip, ONE, [0, 5])
    with pytest.raises(InvalidArgument, match=r"queries=\(\) must hold at least one"):
        audit_prediction(flip, ONE, [])
    with pytest.raises(InvalidArgument, match="contains duplicates"):
        audit_prediction(flip, ONE, [0, 0])
    with pytest.raises(InvalidArgument, match="has no neighboring pairs"):
        audit_prediction(flip, Universe(EXAMPLES, (0,)), X)
    with pytest.raises(InvalidArgument, match=r"elements=\(\) must hold at least one"):
        audit_prediction(flip, Universe((), (1,)), X)
    with pytest.raises(InvalidArgument, match="must be a PrivatePrediction or UniformStability"):
        audit_prediction(flip, ONE, X, claim=PrivacyClaim.of(1))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="precision=16 must be >= 32"):
        audit_prediction(flip, ONE, X, precision=16)
    with pytest.raises(InvalidArgument, match="max_precision=64 must be >= precision=128"):
        audit_prediction(flip, ONE, X, precision=128, max_precision=64)
    with pytest.raises(InvalidArgument, match=r"must be a reference\.neighbors\.Universe"):
        audit_prediction(flip, EXAMPLES, X)  # type: ignore[arg-type]


def test_pair_audit_matches_the_universe_worst_case() -> None:
    """The pair (0,0) -> (0,1) moves the ERM label at x = 0: ε = ln 3, γ = 1/2 there, 0 at x = 1."""
    flip = majority_flip(Fraction(3, 4))
    at0 = audit_prediction_pair(flip, [(0, 0)], [(0, 1)], [0])
    assert at0.pairs == 1 and at0.gamma_exact == Fraction(1, 2)
    assert at0.epsilon_exact is not None and exp(at0.epsilon_exact).exact == 3
    at1 = audit_prediction_pair(flip, [(0, 0)], [(0, 1)], [1])
    assert at1.gamma_exact == 0 and at1.epsilon_exact is not None
    assert at1.epsilon_exact.exact == 0
    tight = audit_prediction_pair(flip, [(0, 0)], [(0, 1)], [0],
                                  claim=PrivatePrediction.of("ln(2999/1000)"))
    assert tight.verdict is Verdict.VIOLATED and tight.verdict_witness is not None
    assert tight.verdict_witness.y == 0  # P(0) = 3/4 > e^ε · 1/4
    check_witness(tight, flip)


def test_malformed_audit_arguments_are_refused_by_name() -> None:
    """Every size, budget and argument type is checked before any law is computed."""
    flip = majority_flip(Fraction(3, 4))
    with pytest.raises(InvalidArgument, match=r"predictor='flip' must be a Predictor"):
        audit_prediction("flip", ONE, X)  # type: ignore[arg-type]  # deliberately wrong
    with pytest.raises(InvalidArgument, match=r"predictor=None must be a Predictor"):
        audit_prediction_pair(None, [(0, 0)], [(0, 1)], X)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match=r"queries=3 must be an iterable"):
        audit_prediction(flip, ONE, 3)  # type: ignore[arg-type]  # deliberately wrong
    with pytest.raises(InvalidArgument, match=r"precision='high' must be an int"):
        audit_prediction(flip, ONE, X, precision="high")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match=r"max_precision=None must be an int"):
        audit_prediction(flip, ONE, X, max_precision=None)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match=r"max_paths=0 must be >= 1"):
        audit_prediction(flip, ONE, X, max_paths=0)
    with pytest.raises(InvalidArgument, match=r"pair_limit=0 must be >= 1"):
        audit_prediction(flip, ONE, X, pair_limit=0)
    with pytest.raises(InvalidArgument, match=r"pair_limit='x' must be an int"):
        audit_prediction(flip, ONE, X, pair_limit="x")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match=r"a=5 must be a dataset"):
        audit_prediction_pair(flip, 5, [(0, 1)], X)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match=r"b=\[\{0\}\] must hold hashable examples"):
        audit_prediction_pair(flip, [(0, 0)], [{0}], X)  # type: ignore[list-item]
    with pytest.raises(NotNeighboring):
        audit_prediction_pair(flip, [(0, 0)], [(0, 0)], X)  # equal datasets: never a verdict
