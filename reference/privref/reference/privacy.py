"""Privacy guarantees as data: exact (epsilon, delta) claims and the maps that combine them.

Epsilon is an exact real (:class:`privref.reference.reals.Real`), so a claim such as
``epsilon = ln 3`` keeps e^epsilon = 3 exactly and tight audits are decided,
not left UNDECIDED.  Delta is an exact rational in [0, 1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from .errors import InvalidArgument
from .reals import Order, Real, compare, exp, log, rational
from .validate import check_delta, check_int, to_fraction

__all__ = ["PrivacyClaim", "compose_claims", "group_privacy", "parse_epsilon"]

_LOG = re.compile(r"^\s*(?:(?P<coef>[0-9./]+)\s*\*\s*)?(?:ln|log)\s*\(\s*(?P<arg>[0-9./]+)\s*\)\s*$")


def parse_epsilon(value: object, name: str = "epsilon") -> Real:
    """An exact epsilon >= 0 from a Real, int, Fraction, or a string like '1/2', 'ln(3)', '2*ln(3/2)'.

    A finite float is its exact binary value (0.1 -> 3602879701896397/36028797018963968; see
    reference.validate.to_fraction), so ``str`` of the result records exactly what was
    audited; NaN, infinities and negative values raise InvalidArgument naming ``name``.
    """
    if isinstance(value, Real):
        eps = value
    elif isinstance(value, str) and _LOG.match(value):
        m = _LOG.match(value)
        assert m is not None
        arg = to_fraction(m.group("arg"), name)
        if arg <= 0:
            raise InvalidArgument(f"{name}={value!r}: the argument of ln must be > 0")
        coef = to_fraction(m.group("coef"), name) if m.group("coef") else Fraction(1)
        eps = log(arg) * coef
    else:
        eps = rational(to_fraction(value, name))
    order, _ = compare(eps, 0)
    if order is Order.LESS:
        raise InvalidArgument(f"{name}={eps} must be >= 0")
    return eps


@dataclass(frozen=True, slots=True)
class PrivacyClaim:
    """An (epsilon, delta)-DP guarantee under a stated neighbor relation.

    Guarantee of the type: epsilon is an exact non-negative real, delta an
    exact rational with 0 <= delta < 1 (both validated at construction).
    """

    epsilon: Real
    delta: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        parse_epsilon(self.epsilon)
        check_delta(self.delta)

    @staticmethod
    def of(epsilon: object, delta: object = 0) -> PrivacyClaim:
        """Build from user input (see :func:`parse_epsilon`; delta as an exact number)."""
        return PrivacyClaim(parse_epsilon(epsilon), check_delta(delta))

    def __str__(self) -> str:
        return f"({self.epsilon}, {self.delta})"


def group_privacy(claim: PrivacyClaim, k: int) -> PrivacyClaim:
    """(epsilon, delta)-DP implies (k·epsilon, delta·Σ_{j<k} e^{j·epsilon})-DP for datasets at distance k.

    Folklore (used throughout the proofs of 004 Appendix C; ledger ``folklore Group privacy``).
    Edge cases in order: k is validated (>= 1); k = 1 returns the claim; then
    the closed form.  The delta factor is exact when e^epsilon is rational;
    otherwise it is rounded up to a rational (never down), so the returned
    claim is implied by the exact one.
    """
    check_int(k, "k", minimum=1)
    if k == 1:
        return claim
    factor = sum((exp(claim.epsilon * j) for j in range(k)), rational(0))
    delta_factor = factor.exact if factor.exact is not None else factor.enclose().hi
    new_delta = claim.delta * delta_factor
    if new_delta >= 1:
        raise InvalidArgument(
            f"group privacy at k={k} gives delta={new_delta} >= 1, which is vacuous")
    return PrivacyClaim(claim.epsilon * k, new_delta)


def compose_claims(*claims: PrivacyClaim) -> PrivacyClaim:
    """Basic sequential composition: (Σ epsilon_i, Σ delta_i) (Dwork et al.; folklore)."""
    if not claims:
        raise InvalidArgument("claims=() must hold at least one claim")
    eps = sum((c.epsilon for c in claims), rational(0))
    delta = sum((c.delta for c in claims), Fraction(0))
    if delta >= 1:
        raise InvalidArgument(f"composition gives delta={delta} >= 1, which is vacuous")
    return PrivacyClaim(eps, delta)
