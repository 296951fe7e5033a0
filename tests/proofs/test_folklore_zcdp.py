"""The tight zCDP conversion (Canonne-Kamath-Steinke 2020 Corollary 13) and its ledger checks."""

from __future__ import annotations

from fractions import Fraction

from privref.proofs.folklore import ENTRIES
from privref.proofs.folklore_zcdp import (
    check_against_gaussian,
    check_delta_form_against_audits,
    check_delta_round_trip,
    check_tighter_than_lemma_51,
)
from privref.proofs.halving import run_halved
from privref.reference.accounting import (
    zcdp_epsilon,
    zcdp_epsilon_at_order,
    zcdp_to_dp_epsilon,
)
from privref.reference.reals import Real, log
from privref.reference.verdict import Verdict

from .checks import resolves


def test_the_three_checks_hold_and_the_entry_is_registered() -> None:
    assert check_delta_round_trip().verdict is Verdict.HOLDS
    assert check_against_gaussian().verdict is Verdict.HOLDS
    assert check_tighter_than_lemma_51().verdict is Verdict.HOLDS
    entry = next(e for e in ENTRIES if e.number == "Canonne-Kamath-Steinke 2020 Corollary 13")
    assert {c.run for c in entry.checks} == {check_delta_round_trip, check_against_gaussian,
                                             check_tighter_than_lemma_51,
                                             check_delta_form_against_audits}
    assert all(resolves(s) for s in entry.subjects), entry.subjects


def test_a_conversion_ten_percent_low_is_caught_by_the_gaussian() -> None:
    def low(rho: Fraction, delta: Fraction) -> Real:
        return zcdp_to_dp_epsilon(rho, delta) * Fraction(9, 10)
    assert check_against_gaussian(low).verdict is Verdict.VIOLATED


def test_lemma_51_itself_is_not_tighter_than_lemma_51() -> None:
    assert check_tighter_than_lemma_51(zcdp_epsilon).verdict is not Verdict.HOLDS


def test_a_formula_without_the_log_alpha_term_fails_the_round_trip() -> None:
    def no_log_alpha(rho: Fraction, delta: Fraction, alpha: Fraction) -> Real:
        return zcdp_epsilon_at_order(rho, delta, alpha) + log(alpha) / (alpha - 1)
    assert check_delta_round_trip(no_log_alpha).verdict is Verdict.VIOLATED


def test_the_delta_form_holds_against_the_discrete_gaussian_and_fails_halved() -> None:
    entry = next(e for e in ENTRIES if e.number == "Canonne-Kamath-Steinke 2020 Corollary 13")
    check = next(c for c in entry.checks if c.run is check_delta_form_against_audits)
    assert check.run().verdict is Verdict.HOLDS
    assert run_halved(check).verdict is Verdict.VIOLATED
