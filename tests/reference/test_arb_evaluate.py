"""privref.reference._arb.evaluate: a Real's expression tree evaluated in arb contains its value,
and undefined operations give balls whose comparisons all fail (never a wrong decision)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from privref.reference import _arb
from privref.reference import accounting as acc
from privref.reference.reals import Order, Real, compare, exp, log, rational, sqrt

_EXPRESSIONS: list[Real] = [
    exp(rational(F(1, 3))) * log(rational(7)) - sqrt(rational(2)),
    (sqrt(rational(F(5, 4))) + exp(-rational(40))).reciprocal(),
    log(1 + exp(rational(-3))) * rational(F(-2, 9)),
    acc.zcdp_epsilon_at_order(F(1, 8), F(1, 10**5), F(3)),
    acc.zcdp_epsilon(F(2), F(1, 10**6)),
    acc.normal_cdf_real(F(1, 2)) * 3,
]


def _contains(x: Real, prec: int) -> bool:
    """The ball of ``x`` at ``prec`` bits holds its 600-bit enclosure (Real.enclose, mpmath)."""
    box = x.enclose(600)
    with _arb.working_precision(prec):
        value = _arb.evaluate(x)
        if not value.is_finite():
            return False
        inside = _arb.to_interval(value)
    return inside.lo <= box.lo and box.hi <= inside.hi


@pytest.mark.parametrize("x", _EXPRESSIONS)
@pytest.mark.parametrize("prec", [53, 128, 400])
def test_the_ball_contains_the_exact_value(x: Real, prec: int) -> None:
    """The ball holds the value and is about prec bits wide."""
    assert _contains(x, prec)
    box = x.enclose(600)
    with _arb.working_precision(prec):
        inside = _arb.to_interval(_arb.evaluate(x))
    assert inside.hi - inside.lo <= (abs(box.lo) + 1) * F(1, 2 ** (prec - 12))


def test_a_broken_leaf_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The containment check is not vacuous: with each rational leaf's ball moved by 2^-40
    relative (a wrong conversion) it fails on every expression."""
    exact_ball = _arb.ball

    def moved(x: F | int) -> _arb.arb:
        return exact_ball(F(x) * (1 + F(1, 2**40)) + F(1, 2**40))
    monkeypatch.setattr(_arb, "ball", moved)
    assert not any(_contains(x, 128) for x in _EXPRESSIONS)


@pytest.mark.parametrize("x", [log(sqrt(rational(2)) - sqrt(rational(2))),
                               sqrt(rational(-1) + exp(rational(F(1, 10**30))) - 1),
                               (exp(rational(1)) - exp(rational(1))).reciprocal()])
def test_an_undefined_operation_gives_a_ball_that_decides_nothing(x: Real) -> None:
    with _arb.working_precision(64):
        value = _arb.evaluate(x)
        zero = _arb.ball(0)
        assert not (value < zero or value > zero or value <= zero or value >= zero)


_GRID = [(rho, delta) for rho in (F(1, 1000), F(1, 50), F(1, 8), F(2), F(10))
         for delta in (F(1, 10), F(1, 10**3), F(1, 10**12))] + [(acc.gaussian_zcdp(22), F(1, 10))]


def _no_balls(x: Real) -> _arb.arb:
    """evaluate that never decides (a non-finite ball): the exact comparisons choose instead."""
    return _arb.arb("nan")


@pytest.mark.parametrize(("rho", "delta"), _GRID)
def test_the_ball_choice_equals_the_exact_choice(monkeypatch: pytest.MonkeyPatch,
                                                 rho: F, delta: F) -> None:
    """zcdp_to_dp_epsilon chooses between ε_α, Lemma 51's ε and 0 by ball comparisons when the
    balls separate; the choice must be the one the exact comparisons make."""
    fast = acc.zcdp_to_dp_epsilon(rho, delta)
    monkeypatch.setattr(acc, "evaluate", _no_balls)
    slow = acc.zcdp_to_dp_epsilon(rho, delta)
    assert compare(fast, slow)[0] is Order.EQUAL or fast.enclose(200) == slow.enclose(200)


def test_a_swapped_ball_choice_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the two candidates' balls swapped the fast path returns Lemma 51's ε where ε_α is
    smaller, and the equality above fails on the grid."""
    real_evaluate = _arb.evaluate
    calls: list[int] = []

    def swapped(x: Real) -> _arb.arb:
        calls.append(1)
        return real_evaluate(x) if len(calls) % 2 == 0 else real_evaluate(x) + 10**6
    differs = 0
    for rho, delta in _GRID[:6]:
        monkeypatch.setattr(acc, "evaluate", _no_balls)
        slow = acc.zcdp_to_dp_epsilon(rho, delta)
        monkeypatch.setattr(acc, "evaluate", swapped)
        fast = acc.zcdp_to_dp_epsilon(rho, delta)
        differs += fast.enclose(200) != slow.enclose(200)
    assert differs > 0
