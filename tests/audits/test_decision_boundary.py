"""Decision boundaries: claims exactly at the true loss, and 10^-40 above and below it.

Soundness demands, for the exact auditor: HOLDS at or above the true loss (or UNDECIDED when
the equality cannot be proved), VIOLATED below it (the enclosures refine until they separate
a 10^-40 gap), never the other way round.  For the black-box auditor: a violation exactly
when the bound ratio exceeds e^epsilon, never at equality.  Probabilities are rational
(randomized response) or irrational (the discrete Laplace mechanism, e^(-|z|) weights).
A mutant that decides HOLDS from the wrong end of an enclosure, or rounds a margin the wrong
way, fails the "below" cases; one that treats equality as a violation fails the "at" cases.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.audits.blackbox.estimate import conclude_pair, epsilon_from_ratio, exceeds
from privref.audits.blackbox.events import Threshold
from privref.audits.blackbox.selection import Candidate
from privref.audits.exact import audit
from privref.reference.geometric import discrete_laplace_mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.randomized_response import randomized_response
from privref.reference.reals import Real, exp, log, rational
from privref.reference.verdict import Verdict

HAIR = Fraction(1, 10**40)
BITS = Universe((0, 1), (1,))


def _eps_cases(true: Real) -> list[tuple[str, Real, Verdict]]:
    return [("at", true, Verdict.HOLDS), ("below", true - rational(HAIR), Verdict.VIOLATED),
            ("above", true + rational(HAIR), Verdict.HOLDS)]


@pytest.mark.parametrize(("where", "eps", "expected"), _eps_cases(log(3)))
def test_rational_probabilities_at_the_epsilon_boundary(where: str, eps: Real,
                                                        expected: Verdict) -> None:
    """Randomized response keeping the bit w.p. 3/4: the loss is ln 3 exactly."""
    report = audit(randomized_response(Fraction(3, 4)), BITS, claim=PrivacyClaim(eps))
    assert report.verdict is expected, where
    assert report.epsilon_exact is not None and exp(report.epsilon_exact).exact == 3


@pytest.mark.parametrize(("where", "delta", "expected"), [
    ("at", Fraction(1, 2), Verdict.HOLDS), ("below", Fraction(1, 2) - HAIR, Verdict.VIOLATED),
    ("above", Fraction(1, 2) + HAIR, Verdict.HOLDS)])
def test_rational_probabilities_at_the_delta_boundary(where: str, delta: Fraction,
                                                      expected: Verdict) -> None:
    """At epsilon = 0 the hockey-stick divergence is the total variation, 3/4 - 1/4 = 1/2."""
    report = audit(randomized_response(Fraction(3, 4)), BITS,
                   claim=PrivacyClaim(rational(0), delta))
    assert report.verdict is expected, where
    if expected is Verdict.VIOLATED:
        w = report.verdict_witness
        assert w is not None and w.violation_margin > delta


@pytest.mark.parametrize(("where", "eps", "expected"), _eps_cases(rational(1)))
def test_irrational_probabilities_at_the_epsilon_boundary(where: str, eps: Real,
                                                          expected: Verdict) -> None:
    """The discrete Laplace mechanism at scale 1: weights e^(-|z|), loss exactly 1."""
    report = audit(discrete_laplace_mechanism(1), BITS, claim=PrivacyClaim(eps))
    assert report.verdict is expected, where
    assert report.epsilon_lower <= 1 <= report.epsilon_upper  # type: ignore[operator]


def _tanh_half_bounds(digits: int) -> tuple[Fraction, Fraction]:
    """tanh(1/2) = (e - 1)/(e + 1) rounded down and up to ``digits`` decimals (intervals)."""
    e = exp(rational(1)).enclose(400)
    lo, hi = (e.lo - 1) / (e.hi + 1), (e.hi - 1) / (e.lo + 1)
    scale = 10**digits
    return (Fraction(int(lo * scale), scale), Fraction(int(hi * scale) + 1, scale))


@pytest.mark.parametrize("side", ["below", "above"])
def test_irrational_probabilities_at_the_delta_boundary(side: str) -> None:
    """At epsilon = 0 the discrete Laplace mechanism's total variation on 0 vs 1 is
    tanh(1/2), irrational: a rational delta 10^-40 below it is VIOLATED, 10^-40 above HOLDS."""
    lo, hi = _tanh_half_bounds(45)
    delta = lo - HAIR if side == "below" else hi + HAIR
    report = audit(discrete_laplace_mechanism(1), BITS, claim=PrivacyClaim(rational(0), delta))
    assert report.verdict is (Verdict.VIOLATED if side == "below" else Verdict.HOLDS)


def test_exceeds_is_strict_and_exact_at_the_boundary() -> None:
    assert not exceeds(Fraction(3), log(3))
    assert exceeds(3 + HAIR, log(3))
    assert not exceeds(3 - HAIR, log(3))
    assert not exceeds(Fraction(1), rational(0))  # ratio 1 is no evidence
    assert exceeds(1 + HAIR, rational(0))


@pytest.mark.parametrize("dealt", [False, True])
def test_black_box_violation_exactly_when_the_bound_exceeds_the_claim(dealt: bool) -> None:
    """The claim set at ln of the bound ratio itself (an exact Real): no violation; a hair
    below: a violation; a hair above: none.  Both bounding tests, per-side and pooled."""
    c = [Candidate(Threshold(None, 1, 0.5, False), "a→b", 0, 0, 0.0)]
    kw = {"held_a": 5000, "held_b": 5000, "selection_a": 10, "selection_b": 10,
          "delta": 0, "alpha": Fraction(1, 10), "dealt": dealt}
    ratio = conclude_pair(c, [(900, 300)], epsilon=rational(0), **kw).ratio  # type: ignore[arg-type]
    assert ratio > 1
    true = log(ratio)
    for eps, violation in ((true, False), (true - rational(HAIR), True),
                           (true + rational(HAIR), False)):
        found = conclude_pair(c, [(900, 300)], epsilon=eps, **kw)  # type: ignore[arg-type]
        assert found.estimate.violation is violation
        assert found.ratio == ratio  # the claim decides the verdict only, never the bound
    # the reported float is rounded down: never above the exact ln(ratio)
    assert Fraction(epsilon_from_ratio(ratio)) <= true.enclose(128).lo
