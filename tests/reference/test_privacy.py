"""Privacy claims, epsilon parsing, group privacy and composition maps."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.privacy import PrivacyClaim, compose_claims, group_privacy, parse_epsilon
from privref.reference.reals import MAX_EXPONENT, exp


def test_epsilon_parsing_is_exact() -> None:
    """Strings, ints and Fractions parse exactly; ln forms keep e^eps rational."""
    assert parse_epsilon("1/2").exact == Fraction(1, 2)
    assert exp(parse_epsilon("ln(3)")).exact == 3
    assert exp(parse_epsilon("2*ln(3/2)")).exact == Fraction(9, 4)
    assert parse_epsilon(2).exact == 2


def test_floats_are_read_at_their_exact_binary_value() -> None:
    """A float is a dyadic rational: 0.1 is taken as the number the float holds, not 1/10."""
    assert parse_epsilon(0.1).exact == Fraction(3602879701896397, 36028797018963968)
    assert parse_epsilon(1.5).exact == Fraction(3, 2)
    claim = PrivacyClaim.of(0.5, 0.25)
    assert claim.epsilon.exact == Fraction(1, 2) and claim.delta == Fraction(1, 4)
    assert str(PrivacyClaim.of(0.1).epsilon) == "3602879701896397/36028797018963968"


def test_huge_epsilons_are_handled_quickly() -> None:
    """1e400, 10**400 parse exactly; group privacy with them refuses cleanly (no hang)."""
    assert parse_epsilon("1e400").exact == 10**400
    assert PrivacyClaim.of(10**400).epsilon.exact == 10**400
    with pytest.raises(InvalidArgument, match="exp\\(exp"):
        parse_epsilon("exp(exp(100))")
    with pytest.raises(InvalidArgument, match="decimal exponent beyond"):
        parse_epsilon("1e99999999")
    with pytest.raises(PrivrefError, match=f"2\\^{MAX_EXPONENT}"):
        group_privacy(PrivacyClaim.of("1e400", "1/10"), 2)


@pytest.mark.parametrize(("value", "error", "message"), [
    (-1, InvalidArgument, "epsilon=-1 must be >= 0"),
    (-0.5, InvalidArgument, "epsilon=-1/2 must be >= 0"),
    (math.nan, InvalidArgument, "epsilon=nan must be a finite number"),
    (math.inf, InvalidArgument, "epsilon=inf must be a finite number"),
    ("abc", InvalidArgument, "epsilon='abc' is not a number"),
    ("ln(0)", InvalidArgument, "argument of ln must be > 0"),
])
def test_bad_epsilons_name_the_argument(value: object, error: type[Exception],
                                        message: str) -> None:
    """Every invalid epsilon gets a typed error naming it."""
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_epsilon(value)


@pytest.mark.parametrize(("delta", "message"), [
    (-1, "delta=-1 must be >= 0"), (1, "delta=1 must be < 1"), ("3/2", "delta=3/2 must be < 1"),
])
def test_bad_deltas_name_the_argument(delta: object, message: str) -> None:
    """delta must lie in [0, 1)."""
    with pytest.raises(InvalidArgument, match=message):
        PrivacyClaim.of(1, delta)


def test_group_privacy_exact_formula() -> None:
    """(ln 3, 1/100) at k = 3: (3 ln 3, (1 + 3 + 9)/100) exactly."""
    claim = group_privacy(PrivacyClaim.of("ln(3)", "1/100"), 3)
    assert exp(claim.epsilon).exact == 27
    assert claim.delta == Fraction(13, 100)
    irrational = group_privacy(PrivacyClaim.of(1, "1/1000"), 2)
    assert irrational.delta >= Fraction(1, 1000) * (1 + Fraction(2718281828, 10**9))
    with pytest.raises(InvalidArgument, match="k=0 must be >= 1"):
        group_privacy(claim, 0)
    with pytest.raises(InvalidArgument, match="vacuous"):
        group_privacy(PrivacyClaim.of(2, "1/2"), 2)


def test_composition_adds_parameters() -> None:
    """Basic composition sums epsilons and deltas exactly."""
    c = compose_claims(PrivacyClaim.of("ln(2)", "1/10"), PrivacyClaim.of("ln(3)", "1/5"))
    assert exp(c.epsilon).exact == 6 and c.delta == Fraction(3, 10)
    with pytest.raises(InvalidArgument, match=r"claims=\(\)"):
        compose_claims()


def test_privacy_map_is_group_privacy() -> None:
    """Mechanism.privacy_map(k) is the group-privacy claim; k = 1 is the claim itself."""
    from privref.reference.randomized_response import randomized_response
    mech = randomized_response("3/4")
    assert mech.privacy_map(1) == mech.claim
    assert exp(mech.privacy_map(2).epsilon).exact == 9
