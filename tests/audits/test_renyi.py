"""privref.audits.renyi: exact Rényi divergences of neighbouring output laws (the RDP curve)."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import pairwise

import mpmath
import pytest

from privref.audits import renyi
from privref.reference.composition import leak
from privref.reference.continuous_release import laplace_mechanism
from privref.reference.decide import at_most, greater_than
from privref.reference.errors import InvalidArgument, NotNeighboring, UnsupportedProgram
from privref.reference.program import Distribution
from privref.reference.randomized_response import randomized_response
from privref.reference.reals import Real, log, rational
from privref.reference.verdict import Verdict

RR = randomized_response(F(3, 4))


def _is(value: Real | None, expected: mpmath.mpf) -> bool:
    """The value's 200-bit enclosure holds the mpmath reference (300 bits) and is narrow."""
    assert value is not None
    box = value.enclose(200)
    lo = mpmath.mpf(box.lo.numerator) / box.lo.denominator
    hi = mpmath.mpf(box.hi.numerator) / box.hi.denominator
    slack = abs(expected) * mpmath.mpf(2) ** -180
    return bool(lo - slack <= expected <= hi + slack and hi - lo <= abs(expected) / 2**150 + 2**-190)


def test_integer_order_is_exact() -> None:
    """Randomized response keeping the bit with 3/4: P = (3/4, 1/4), Q = (1/4, 3/4), so
    D_2 = ln(9/4 + 1/12) = ln(7/3) and D_3 = ln(27/4 + 1/36)/2 = ln(61/9)/2."""
    with mpmath.workprec(300):
        assert _is(renyi.renyi_divergence(RR, (1,), (0,), 2), mpmath.log(mpmath.mpf(7) / 3))
        assert _is(renyi.renyi_divergence(RR, (1,), (0,), 3), mpmath.log(mpmath.mpf(61) / 9) / 2)
    # the same law from the rational sum: ln(7/3) is exactly what the Real holds
    d2 = renyi.renyi_divergence(RR, (1,), (0,), 2)
    assert d2 is not None and (d2 - log(rational(F(7, 3)))).enclose(300).width < F(1, 2**250)


@pytest.mark.parametrize("alpha", [F(3, 2), F(5, 4), F(7, 2)])
def test_fractional_order_against_mpmath(alpha: F) -> None:
    with mpmath.workprec(300):
        a = mpmath.mpf(alpha.numerator) / alpha.denominator
        p, q = [mpmath.mpf(3) / 4, mpmath.mpf(1) / 4], [mpmath.mpf(1) / 4, mpmath.mpf(3) / 4]
        expected = mpmath.log(sum(pi**a * qi ** (1 - a) for pi, qi in zip(p, q, strict=True))) / (a - 1)
        assert _is(renyi.renyi_divergence(RR, (1,), (0,), alpha), expected)


@pytest.mark.parametrize("alpha", [F(3, 2), 2, F(7, 2)])
def test_an_asymmetric_pair_against_mpmath(alpha: F | int) -> None:
    """P = (1/2, 1/2), Q = (7/8, 1/8) (permute-and-flip at decay 1/2 on scores (0, 0) and
    (1, −1)): D_α(P ‖ Q) and D_α(Q ‖ P) differ, and each meets its mpmath value, so the roles of
    P and Q in the formula are checked."""
    p_law = Distribution.from_mapping({0: F(1, 2), 1: F(1, 2)})
    q_law = Distribution.from_mapping({0: F(7, 8), 1: F(1, 8)})
    with mpmath.workprec(300):
        a = mpmath.mpf(F(alpha).numerator) / F(alpha).denominator
        p, q = [mpmath.mpf(1) / 2, mpmath.mpf(1) / 2], [mpmath.mpf(7) / 8, mpmath.mpf(1) / 8]

        def reference(x: list[mpmath.mpf], y: list[mpmath.mpf]) -> mpmath.mpf:
            return mpmath.log(sum(xi**a * yi ** (1 - a)
                                  for xi, yi in zip(x, y, strict=True))) / (a - 1)
        assert _is(renyi.renyi_divergence_of_laws(p_law, q_law, alpha), reference(p, q))
        assert _is(renyi.renyi_divergence_of_laws(q_law, p_law, alpha), reference(q, p))


def test_the_curve_increases_with_the_order_and_stays_below_epsilon() -> None:
    """D_α is nondecreasing in α and tends to D_∞ = ε = ln 3 (van Erven and Harremoës 2014): on a
    grid every value is proved at most the next one and below ln 3."""
    curve = renyi.renyi_curve(RR, (1,), (0,), [F(3, 2), 2, 3, 8, 64])
    values = [v for _, v in curve]
    assert all(v is not None for v in values)
    for x, y in pairwise(values):
        assert x is not None and y is not None and at_most(x, y) is Verdict.HOLDS
    last = values[-1]
    assert last is not None and at_most(last, log(rational(3))) is Verdict.HOLDS


def test_order_of_the_pair_matters() -> None:
    """D_2 of a leak: P has mass where Q has none in one order (+∞), not in the other."""
    leaky = leak(RR, F(1, 10))
    forward = renyi.renyi_divergence(leaky, (1,), (0,), 2)
    assert forward is None  # M(1) releases ("leak", (1,)), which M(0) never does


def test_a_zcdp_charge_is_refuted_and_the_right_one_is_not() -> None:
    """ε-DP randomized response (ε = ln 3) is not (ε²/8)-zCDP: D_2 = ln(7/3) > 2·ε²/8, proved; and
    D_2 is proved below 2·ε²/2 (every ε-DP mechanism is ε²/2-zCDP, Bun and Steinke 2016)."""
    d2 = renyi.renyi_divergence(RR, (1,), (0,), 2)
    assert d2 is not None
    eps = log(rational(3))
    assert greater_than(d2, eps * eps * F(2, 8)) is Verdict.HOLDS
    assert at_most(d2, eps * eps * F(2, 2)) is Verdict.HOLDS


@pytest.mark.parametrize(("call", "error", "named"), [
    (lambda: renyi.renyi_divergence(RR, (1,), (0,), 1), InvalidArgument, "alpha"),
    (lambda: renyi.renyi_divergence(RR, (1,), (0,), F(1, 2)), InvalidArgument, "alpha"),
    (lambda: renyi.renyi_divergence(RR, (1,), (0,), 1 << 17), InvalidArgument, "MAX_ORDER"),
    (lambda: renyi.renyi_divergence(RR, (1,), (0,), "x"), InvalidArgument, "alpha"),
    (lambda: renyi.renyi_divergence(RR, (1, 0), (0,), 2), NotNeighboring, "neighbors"),
    (lambda: renyi.renyi_curve(RR, (1,), (0,), []), InvalidArgument, "alphas"),
    (lambda: renyi.renyi_divergence(laplace_mechanism(1), (1,), (0,), 2), UnsupportedProgram,
     "exact finite laws"),
])
def test_bad_input(call: object, error: type[Exception], named: str) -> None:
    with pytest.raises(error, match=named):
        call()  # type: ignore[operator]
