"""Privacy claims, epsilon parsing, group privacy and composition maps."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import get_args

import pytest

from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.privacy import (
    Claim,
    GDPClaim,
    PrivacyClaim,
    ProfileClaim,
    ZCDPClaim,
    check_claim,
    compose_claims,
    group_privacy,
    parse_epsilon,
)
from privref.reference.reals import MAX_EXPONENT, exp, rational
from privref.reference.validate import ExactInput


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
def test_bad_deltas_name_the_argument(delta: ExactInput, message: str) -> None:
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


# ---------------------------------------------------------------------------- the claim family

@pytest.mark.parametrize(("build", "message"), [
    (lambda: PrivacyClaim(rational(-1)), r"^epsilon=-1 must be >= 0$"),
    (lambda: PrivacyClaim(1), r"^epsilon=1 must be an exact Real"),  # type: ignore[arg-type]
    (lambda: PrivacyClaim(rational(1), Fraction(1)), r"^delta=1 must be < 1$"),
    (lambda: PrivacyClaim(rational(1), Fraction(-1, 2)), r"^delta=-1/2 must be >= 0$"),
    (lambda: PrivacyClaim.of(math.nan), r"^epsilon=nan must be a finite number$"),
    (lambda: PrivacyClaim.of(-math.inf), r"^epsilon=-inf must be a finite number$"),
    (lambda: ZCDPClaim(Fraction(0)), r"^rho=0 must be an exact number > 0$"),
    (lambda: ZCDPClaim(Fraction(-1, 8)), r"^rho=-1/8 must be an exact number > 0$"),
    (lambda: ZCDPClaim(0.5), r"^rho=0.5 must be an exact number > 0$"),  # type: ignore[arg-type]
    (lambda: ZCDPClaim.of(math.nan), r"^rho=nan must be a finite number$"),
    (lambda: ZCDPClaim(Fraction(1, 8), Fraction(0)), r"^delta=0 of a zCDP claim must lie in"),
    (lambda: ZCDPClaim(Fraction(1, 8), Fraction(1)), r"^delta=1 must be < 1$"),
    (lambda: ProfileClaim(()), r"^points: a profile must hold at least one"),
    (lambda: ProfileClaim(((1, 0),)), r"^points: .* each a PrivacyClaim"),  # type: ignore[arg-type]
    (lambda: ProfileClaim.of([(1, "1/10"), (-1, 0)]), r"^points\[1\] epsilon=-1 must be >= 0$"),
    (lambda: ProfileClaim.of([(1, 2)]), r"^points\[0\] delta=2 must be < 1$"),
    (lambda: check_claim(rational(1)),
     r"^claim=1 must be a PrivacyClaim, ZCDPClaim, ProfileClaim or GDPClaim$"),
])
def test_every_claim_is_validated_when_built(build: Callable[[], object], message: str) -> None:
    """The three claim types refuse a meaningless parameter at once, naming it."""
    with pytest.raises(InvalidArgument, match=message):
        build()


def test_claims_store_exact_fractions_and_print() -> None:
    """Exact inputs are normalized to Fractions; the family is one closed union."""
    assert PrivacyClaim(rational(1), 0).delta == Fraction(0)  # type: ignore[arg-type]
    z = ZCDPClaim.of("1/8", 0.25)
    assert (z.rho, z.delta, str(z)) == (Fraction(1, 8), Fraction(1, 4), "1/8-zCDP")
    assert ZCDPClaim(1).rho == Fraction(1)  # type: ignore[arg-type]
    p = ProfileClaim.of([("ln(3)", 0), (1, "1/100")])
    assert len(p.points) == 2 and str(p) == "profile {(log(3), 0), (1, 1/100)}"
    g = GDPClaim.of("1/2", "1/1000")
    assert (g.mu, g.delta, str(g)) == (Fraction(1, 2), Fraction(1, 1000), "1/2-GDP")
    assert set(get_args(Claim)) == {PrivacyClaim, ZCDPClaim, ProfileClaim, GDPClaim}
    for claim in (PrivacyClaim.of(1), z, p, g):
        assert check_claim(claim) is claim


def test_a_claim_forced_past_its_constructor_is_still_refused() -> None:
    """check_claim re-validates fields, so object.__setattr__ cannot smuggle in epsilon = -1."""
    claim = PrivacyClaim.of(1)
    object.__setattr__(claim, "epsilon", rational(-1))
    with pytest.raises(InvalidArgument, match=r"epsilon=-1 must be >= 0"):
        check_claim(claim)
    z = ZCDPClaim.of(1)
    object.__setattr__(z, "rho", Fraction(0))
    with pytest.raises(InvalidArgument, match=r"rho=0 must be an exact number > 0"):
        check_claim(z, "config.claim")
