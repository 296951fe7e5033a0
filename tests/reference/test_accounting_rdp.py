"""The RDP → (ε, δ) conversion (Canonne-Kamath-Steinke 2020 Proposition 12) at one order and
over a curve: exact where the mathematics gives it, sound against the Gaussian mechanism's exact
privacy profile, and tighter than the classical conversion ε_α + ln(1/δ)/(α − 1)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from privref.reference import accounting as acc
from privref.reference.errors import InvalidArgument
from privref.reference.reals import Order, compare, log


def test_at_divergence_alpha_rho_it_is_the_zcdp_conversion_exactly() -> None:
    """ρ-zCDP is (α, αρ)-RDP at every α: the two conversions are the same exact expression."""
    for rho, delta, alpha in [(F(1, 8), F(1, 10**5), F(9)), (F(2), F(1, 10**3), F(3, 2))]:
        rdp = acc.rdp_order_to_dp_epsilon(alpha, alpha * rho, delta)
        zcdp = acc.zcdp_epsilon_at_order(rho, delta, alpha)
        assert compare(rdp, zcdp)[0] is Order.EQUAL or rdp.enclose(200) == zcdp.enclose(200)


def test_at_order_two_the_value_is_exact() -> None:
    """α = 2: ε = ε_2 + ln(1/δ) + ln(1/2) − ln 2 = ε_2 + ln(1/(4δ)), so at δ = 1/4 it is ε_2."""
    box = acc.rdp_order_to_dp_epsilon(2, F(3, 7), F(1, 4)).enclose(300)
    assert box.lo <= F(3, 7) <= box.hi and box.width < F(1, 2**250)
    box = acc.rdp_order_to_dp_epsilon(2, F(3, 7), F(1, 40)).enclose(300)
    want = (F(3, 7) + log(10)).enclose(300)
    assert box.lo <= want.hi and want.lo <= box.hi and box.width < F(1, 2**250)


def _gaussian_curve(mu: F, orders: list[F]) -> list[tuple[F, F]]:
    """The Gaussian mechanism with μ = Δ/σ is (α, αμ²/2)-RDP at every α (Mironov 2017)."""
    return [(a, a * mu * mu / 2) for a in orders]


ORDERS = [F(3, 2), F(2), F(3), F(5), F(8), F(16), F(32), F(64)]


@pytest.mark.parametrize(("mu", "delta"), [(F(1), F(1, 10**5)), (F(1, 4), F(1, 10**6)),
                                           (F(3), F(1, 10**3)), (F(1, 10), F(1, 10**9))])
def test_the_curve_conversion_is_sound_for_the_gaussian_mechanism(mu: F, delta: F) -> None:
    """The returned ε must be at least the Gaussian mechanism's exact ε at δ: δ(ε) <= δ proved
    with the analytic profile (Balle-Wang 2018 Theorem 8).  A conversion that drops part of
    ln(1/δ) fails here."""
    eps = acc.rdp_to_dp_epsilon(_gaussian_curve(mu, ORDERS), delta)
    hi = eps.enclose(64).hi
    assert acc.analytic_gaussian_delta(hi, 1, 1 / mu).hi <= delta


@pytest.mark.parametrize(("mu", "delta"), [(F(1), F(1, 10**5)), (F(1, 4), F(1, 10**6))])
def test_the_curve_conversion_beats_the_classical_one(mu: F, delta: F) -> None:
    """Strictly below min_α (ε_α + ln(1/δ)/(α − 1)) (Mironov 2017 Proposition 3) on the same
    orders: the extra terms (α − 1) ln(1 − 1/α) − ln α are negative."""
    eps = acc.rdp_to_dp_epsilon(_gaussian_curve(mu, ORDERS), delta)
    classical = min((e + log(1 / delta) / (a - 1)).enclose(64).lo
                    for a, e in _gaussian_curve(mu, ORDERS))
    assert eps.enclose(64).hi < classical


def test_the_least_order_is_chosen_and_a_non_positive_least_is_zero() -> None:
    curve = _gaussian_curve(F(1), ORDERS)
    best = acc.rdp_to_dp_epsilon(curve, F(1, 10**5)).enclose(64)
    for a, e in curve:
        assert best.hi <= acc.rdp_order_to_dp_epsilon(a, e, F(1, 10**5)).enclose(64).hi
    # ε_α = 0 at α = 2 and δ = 1/2: ε = ln(2) − ln 2 − ln 2 < 0, so (0, 1/2)-DP exactly
    assert acc.rdp_to_dp_epsilon([(2, 0)], F(1, 2)).exact == 0


@pytest.mark.parametrize(("call", "name"), [
    (lambda: acc.rdp_to_dp_epsilon([], F(1, 2)), r"curve=\[\] must hold"),
    (lambda: acc.rdp_to_dp_epsilon([(1, 1)], F(1, 2)), r"curve\[0\].alpha=1 must be > 1"),
    (lambda: acc.rdp_to_dp_epsilon([(2, 1), (3, -1)], F(1, 2)),
     r"curve\[1\].rdp_epsilon=-1 must be >= 0"),
    (lambda: acc.rdp_order_to_dp_epsilon(2, 1, 0), "delta"),
    (lambda: acc.rdp_order_to_dp_epsilon(2, -F(1, 10**9), F(1, 2)), "rdp_epsilon=.* must be >= 0"),
    (lambda: acc.rdp_order_to_dp_epsilon(1, 1, F(1, 2)), "alpha=1 must be > 1"),
])
def test_bad_input_names_the_argument(call: object, name: str) -> None:
    assert callable(call)
    with pytest.raises(InvalidArgument, match=name):
        call()
