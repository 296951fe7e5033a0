"""The analytic Gaussian accountant against an independent hockey-stick integral and 001 Lemma 51."""

from __future__ import annotations

from fractions import Fraction

from privref.proofs.folklore_gaussian import (
    _PI,
    _ROOT_2PI,
    accountant_profile,
    check_against_lemma_51,
    check_hockey_stick_integral,
    riemann_normal_cdf,
)
from privref.reference.accounting import normal_cdf
from privref.reference.reals import Interval
from privref.reference.verdict import Verdict


def test_root_two_pi_bounds_follow_from_the_pi_bounds() -> None:
    assert _ROOT_2PI.lo ** 2 <= 2 * _PI.lo and 2 * _PI.hi <= _ROOT_2PI.hi ** 2


def test_riemann_enclosure_meets_the_series_and_tightens_with_steps() -> None:
    for a in (Fraction(-2), Fraction(0), Fraction(3, 2)):
        coarse, fine = riemann_normal_cdf(a, 200), riemann_normal_cdf(a, 1600)
        series = normal_cdf(a)
        assert fine.lo <= series.hi and series.lo <= fine.hi
        assert fine.hi - fine.lo < coarse.hi - coarse.lo


def test_both_checks_hold() -> None:
    assert check_hockey_stick_integral().verdict is Verdict.HOLDS
    assert check_against_lemma_51().verdict is Verdict.HOLDS


def test_a_profile_one_percent_off_is_caught() -> None:
    def off(eps: Fraction, mu: Fraction) -> Interval:
        box = accountant_profile(eps, mu)
        return Interval(box.lo * Fraction(101, 100), box.hi * Fraction(101, 100))
    assert check_hockey_stick_integral(off).verdict is Verdict.VIOLATED


def test_a_profile_with_e_to_minus_epsilon_is_caught() -> None:
    def flipped(eps: Fraction, mu: Fraction) -> Interval:
        # Φ(μ/2 − ε/μ) − e^{−ε}Φ(−μ/2 − ε/μ): the accountant at ε = 0 shifted, enclosed crudely
        first = normal_cdf(mu / 2 - eps / mu)
        second = normal_cdf(-mu / 2 - eps / mu)
        # e^{-ε} in [1 - ε, 1] for ε >= 0
        return Interval(first.lo - second.hi, first.hi - (1 - eps) * second.lo)
    assert check_hockey_stick_integral(flipped).verdict is Verdict.VIOLATED


def test_a_profile_with_sigma_in_place_of_mu_breaks_the_zcdp_bound() -> None:
    def swapped(eps: Fraction, mu: Fraction) -> Interval:
        return accountant_profile(eps, 1 / mu)
    assert check_against_lemma_51(swapped).verdict is Verdict.VIOLATED
