"""Exact audits of additive integer-noise mechanisms (infinite supports, closed-form tails)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import pytest

from privref.audits import _tails
from privref.audits.exact import Verdict, audit, audit_pair
from privref.reference.citations import Uncited
from privref.reference.data import Dataset
from privref.reference.discrete_noise import DiscreteGaussian, DiscreteLaplace, NoiseLaw, TwoSidedGeometric
from privref.reference.errors import UnsupportedProgram
from privref.reference.geometric import (
    discrete_gaussian_mechanism,
    discrete_laplace_mechanism,
    geometric_mechanism,
)
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Affine, Distribution, Program, bernoulli
from privref.reference.reals import Interval, exp, log, prob_as_interval, rational

UNIVERSE = Universe((0, 1), (1, 2))


def _shifted(noise: NoiseLaw, *offsets: tuple[int, Fraction]) -> Distribution[Any]:
    return Distribution.from_mapping({}, tuple((Affine(noise, 1, c), w) for c, w in offsets))


def _brute_geometric(alpha: Fraction, c_p: int, c_q: int, t: Fraction, radius: int) -> Fraction:
    """Σ_{|o|<=radius} max(0, P(o) - t·Q(o)) with exact rationals (an independent truncation)."""
    law = TwoSidedGeometric(alpha)
    total = Fraction(0)
    for o in range(-radius, radius + 1):
        p, q = law.pmf(o - c_p), law.pmf(o - c_q)
        assert isinstance(p, Fraction) and isinstance(q, Fraction)
        total += max(Fraction(0), p - t * q)
    return total


@pytest.mark.parametrize("alpha", [Fraction(1, 2), Fraction(2, 3), Fraction(1, 10)])
def test_geometric_audit_is_exact_and_tight(alpha: Fraction) -> None:
    """HOLDS decided exactly at Δ·ln(1/α), and the worst epsilon is exactly ln(1/α)."""
    report = audit(geometric_mechanism(alpha), UNIVERSE)
    assert report.verdict is Verdict.HOLDS
    assert report.undecided_width is None
    assert report.epsilon_exact is not None
    assert exp(report.epsilon_exact).exact == 1 / alpha
    assert str(report.epsilon_exact) == str(log(1 / alpha))


def test_geometric_hockey_stick_is_exact_and_matches_truncation() -> None:
    """The closed-form tails give the exact value; a long truncation approaches it from below."""
    alpha = Fraction(1, 2)
    law = TwoSidedGeometric(alpha)
    p, q = _shifted(law, (0, Fraction(1))), _shifted(law, (1, Fraction(1)))
    for (a, b), (c_p, c_q) in (((p, q), (0, 1)), ((q, p), (1, 0))):
        for t in (Fraction(1), Fraction(3, 2), Fraction(2), Fraction(5)):
            value, margin, _ = _tails.hockey_stick(a, b, rational(t), 64)
            assert isinstance(value, Fraction) and value == margin
            brute = _brute_geometric(alpha, c_p, c_q, t, 200)
            assert brute <= value <= brute + 2 * alpha**200
    # at t = 3/2: δ = (1 - t·α)·P(Z <= 0) = (1/4)·1/(1+α) = 1/6
    assert _tails.hockey_stick(p, q, rational(Fraction(3, 2)), 64)[0] == Fraction(1, 6)


@pytest.mark.parametrize("law", [TwoSidedGeometric(Fraction(2, 3)), DiscreteLaplace(Fraction(5, 2)),
                                 DiscreteGaussian(Fraction(3, 2))], ids=repr)
def test_rows_carry_all_the_mass(law: NoiseLaw) -> None:
    """At t = 0 the hockey-stick sum is the total mass of P: exactly 1 for the geometric law."""
    p = Distribution.from_mapping({"skip": Fraction(1, 5)},
                                  ((Affine(law, 1, -2), Fraction(1, 2)),
                                   (Affine(law, -1, 3), Fraction(3, 10))))
    q = _shifted(law, (1, Fraction(1)))
    for a, b in ((p, q), (q, p)):
        value = _tails.hockey_stick(a, b, rational(0), 96)[0]
        if isinstance(law, TwoSidedGeometric):
            assert value == 1
        box = prob_as_interval(value)
        assert box.lo <= 1 <= box.hi and box.width < Fraction(1, 2**80)


def test_geometric_smaller_claim_is_violated_with_witness() -> None:
    """Claiming ln(3/2) < ln 2 is VIOLATED; the witness event includes the left tail."""
    mech = geometric_mechanism(Fraction(1, 2))
    claim = PrivacyClaim(log(Fraction(3, 2)))
    report = audit(mech, UNIVERSE, claim=claim)
    assert report.verdict is Verdict.VIOLATED
    witness = report.verdict_witness
    assert witness is not None
    assert witness.violation_margin == Fraction(1, 6)
    assert any(isinstance(o, _tails.IntegerTail) for o in witness.violation_event)
    pair = audit_pair(mech, (0,), (1,), claim=claim)
    assert pair.verdict is Verdict.VIOLATED
    assert pair.epsilon.t_exact == 2


def test_geometric_with_sensitivity_two() -> None:
    """Bounded sum over {0, 1, 2}: the worst epsilon is exactly 2·ln(1/α) = ln 9."""
    report = audit(geometric_mechanism(Fraction(1, 3), 2), Universe((0, 1, 2), (1, 2)))
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_exact is not None
    assert exp(report.epsilon_exact).exact == 9


def test_mixture_with_atoms() -> None:
    """With probability 1/4 release the exact count, else count + noise: worst ratio 4, exactly."""
    noise = TwoSidedGeometric(Fraction(1, 2))

    def program(data: Dataset) -> Program[int]:
        count = sum(int(x) for x in data)  # type: ignore[call-overload]
        if (yield from bernoulli(Fraction(1, 4))):
            return count
        z: int = yield noise
        return count + z

    mech = Mechanism("leaky geometric", program, PrivacyClaim(log(4)), Uncited("test"))
    report = audit(mech, UNIVERSE)
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_exact is not None
    assert exp(report.epsilon_exact).exact == 4
    assert audit(mech, UNIVERSE, claim=PrivacyClaim(log(Fraction(39, 10)))).verdict is (
        Verdict.VIOLATED)


def test_discrete_laplace_audit_is_decided() -> None:
    """The tight claim Δ/t HOLDS (decided, exact zero gaps) and epsilon encloses 1/t tightly."""
    scale = Fraction(3, 2)
    report = audit(discrete_laplace_mechanism(scale), UNIVERSE)
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_upper is not None
    assert report.epsilon_lower <= 1 / scale <= report.epsilon_upper
    assert report.epsilon_upper - report.epsilon_lower < Fraction(1, 2**40)
    # a claim that is not an integer multiple of the rate 2/3 (u = e^{-1/3}) also decides
    assert audit(discrete_laplace_mechanism(scale), UNIVERSE,
                 claim=PrivacyClaim(rational(1))).verdict is Verdict.HOLDS


def test_discrete_laplace_halved_claim_matches_mpmath() -> None:
    """Halving epsilon is VIOLATED; the enclosure contains a 50-digit mpmath evaluation."""
    scale = Fraction(3, 2)
    mech = discrete_laplace_mechanism(scale)
    claim = PrivacyClaim(rational(1 / (2 * scale)))
    assert audit(mech, UNIVERSE, claim=claim).verdict is Verdict.VIOLATED
    law = DiscreteLaplace(scale)
    box, margin, _ = _tails.hockey_stick(_shifted(law, (0, Fraction(1))),
                                         _shifted(law, (1, Fraction(1))), exp(claim.epsilon), 96)
    with mpmath.workdps(50):
        q = mpmath.exp(-1 / mpmath.mpf(3) * 2)
        t = mpmath.exp(mpmath.mpf(1) / 3)
        c = (1 - q) / (1 + q)
        ref = sum(max(0, c * q ** abs(o) - t * c * q ** abs(o - 1)) for o in range(-400, 401))
        enclosure = prob_as_interval(box)
        assert mpmath.mpf(enclosure.lo.numerator) / enclosure.lo.denominator <= ref * (1 + 1e-30)
        assert ref <= mpmath.mpf(enclosure.hi.numerator) / enclosure.hi.denominator * (1 + 1e-30)
    assert 0 < margin <= enclosure.lo


def test_discrete_gaussian_audit() -> None:
    """Infinite at delta = 0, HOLDS at the claimed (ε, δ), VIOLATED at ε/2."""
    mech = discrete_gaussian_mechanism(1)
    claim = mech.claim
    pure = audit(mech, UNIVERSE, claim=PrivacyClaim(claim.epsilon, Fraction(0)))
    assert pure.epsilon_infinite
    assert pure.verdict is Verdict.VIOLATED
    report = audit(mech, UNIVERSE)
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_upper is not None and not report.epsilon_infinite
    assert report.epsilon_upper - report.epsilon_lower < Fraction(1, 2**30)
    halved = audit(mech, UNIVERSE, claim=PrivacyClaim(claim.epsilon * Fraction(1, 2),
                                                      claim.delta))
    assert halved.verdict is Verdict.VIOLATED
    assert halved.verdict_witness is not None
    assert halved.verdict_witness.violation_margin > claim.delta
    # one-sided cross-check of the epsilon enclosure against a 50-digit evaluation
    with mpmath.workdps(50):
        norm = mpmath.nsum(lambda z: mpmath.exp(-z * z / 2), [-mpmath.inf, mpmath.inf])

        def curve(eps: Fraction) -> Any:
            t = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
            return sum(max(0, mpmath.exp(-o * o / 2) - t * mpmath.exp(-(o - 1) ** 2 / 2))
                       for o in range(-60, 61)) / norm
        delta = mpmath.mpf(claim.delta.numerator) / claim.delta.denominator
        assert curve(report.epsilon_upper) <= delta
        assert curve(report.epsilon_lower) >= delta


def test_gaussian_against_a_finite_output() -> None:
    """Noise vs an atom: proved infinite one way, finite (1/P(0)) the other way."""
    law = DiscreteGaussian(Fraction(2))
    noisy = _shifted(law, (0, Fraction(1)))
    atom: Distribution[Any] = Distribution.from_mapping({0: Fraction(1)})
    assert _tails.epsilon_at_delta(noisy, atom, Fraction(1, 2), 96).infinite
    back = _tails.epsilon_at_delta(atom, noisy, Fraction(0), 96)
    assert back.t_hi is not None and not back.infinite
    inverse = 1 / prob_as_interval(law.pmf(0))
    assert back.t_lo <= inverse.hi and inverse.lo <= back.t_hi


def test_gaussian_bounded_ratio_is_not_called_infinite() -> None:
    """Mixtures with the same extreme offsets have a bounded ratio: never reported infinite."""
    law = DiscreteGaussian(Fraction(1))
    p = _shifted(law, (0, Fraction(1, 2)), (2, Fraction(1, 2)))
    q = _shifted(law, (0, Fraction(1, 3)), (2, Fraction(2, 3)))
    result = _tails.epsilon_at_delta(p, q, Fraction(0), 96)
    assert not result.infinite
    # sup P/Q = 3/2, approached (not attained) on the left tail: a sound lower bound below it
    assert Fraction(149, 100) < result.t_lo <= Fraction(3, 2)
    shifted = _tails.epsilon_at_delta(_shifted(law, (3, Fraction(1))), q, Fraction(0), 96)
    assert shifted.infinite and shifted.event == (_tails.IntegerTail(True, 3),)


def test_gaussian_tail_rows_account_for_outside_mass() -> None:
    """The hockey-stick enclosure at t = 1 (total variation) contains the 50-digit value."""
    law = DiscreteGaussian(Fraction(3))
    box = prob_as_interval(_tails.hockey_stick(_shifted(law, (0, Fraction(1))),
                                               _shifted(law, (2, Fraction(1))), rational(1),
                                               96)[0])
    with mpmath.workdps(50):
        w = [mpmath.exp(-mpmath.mpf(o * o) / 6) for o in range(-80, 83)]
        norm = sum(w[:161])
        tv = sum(max(0, w[i] - w[i - 2]) for i in range(2, 161)) / norm + w[0] / norm
        assert mpmath.mpf(box.lo.numerator) / box.lo.denominator <= tv * (1 + 1e-30)
        assert tv <= mpmath.mpf(box.hi.numerator) / box.hi.denominator * (1 + 1e-30)
    assert box.width < Fraction(1, 2**80)


def test_mixed_noise_laws_are_unsupported() -> None:
    """Different laws in one pair raise UnsupportedProgram instead of guessing."""
    p = _shifted(DiscreteLaplace(Fraction(1)), (0, Fraction(1)))
    q = _shifted(DiscreteLaplace(Fraction(2)), (0, Fraction(1)))
    with pytest.raises(UnsupportedProgram, match="different noise laws"):
        _tails.hockey_stick(p, q, rational(2), 96)
    with pytest.raises(UnsupportedProgram, match="different noise laws"):
        _tails.epsilon_at_delta(p, q, Fraction(0), 96)


def test_integer_tail_reads_as_an_event() -> None:
    """Witness events print as sets of integers."""
    assert str(_tails.IntegerTail(True, 3)) == "{o > 3}"
    assert str(_tails.IntegerTail(False, -1)) == "{o < -1}"
    assert isinstance(prob_as_interval(Fraction(1)), Interval)
