"""Privacy guarantees as data: one family of exact claims, and the maps that combine them.

The family (:data:`Claim`), shared by the exact and the black-box auditors:

* :class:`PrivacyClaim`: (epsilon, delta)-DP, pure when delta = 0;
* :class:`ZCDPClaim`: rho-zCDP (Bun and Steinke 2016), with an optional delta at which it is
  audited by default;
* :class:`ProfileClaim`: a privacy profile given by finitely many (epsilon, delta) points;
* :class:`GDPClaim`: mu-GDP (Dong, Roth and Su 2022, Definition 2.6), with an optional delta
  at which it is audited by default.

Every claim is validated when it is built (InvalidArgument naming the argument, e.g.
``epsilon=-1 must be >= 0``), so no auditor ever starts work on a meaningless claim.
Epsilon is an exact real (:class:`privref.reference.reals.Real`), so a claim such as
``epsilon = ln 3`` keeps e^epsilon = 3 exactly and tight audits are decided,
not left UNDECIDED.  Delta, rho and mu are exact rationals.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

from .errors import InvalidArgument
from .reals import Order, Real, compare, exp, log, rational
from .validate import ExactInput, check_delta, check_int, to_fraction

__all__ = [
    "CLAIM_TYPES",
    "MAX_GDP_MU",
    "Claim",
    "GDPClaim",
    "PrivacyClaim",
    "ProfileClaim",
    "ZCDPClaim",
    "check_claim",
    "compose_claims",
    "group_privacy",
    "parse_epsilon",
]

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
    """An (epsilon, delta)-DP guarantee under a stated neighbor relation (pure when delta = 0).

    Guarantee of the type: epsilon is an exact non-negative real, delta an
    exact rational with 0 <= delta < 1 (both validated at construction:
    InvalidArgument naming ``epsilon`` or ``delta`` otherwise).  ``delta`` may be
    given as any :data:`~privref.reference.validate.ExactInput` and is stored as a
    Fraction; use :meth:`of` to read epsilon from user input too.
    """

    epsilon: Real
    delta: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        if not isinstance(self.epsilon, Real):
            raise InvalidArgument(f"epsilon={self.epsilon!r} must be an exact Real (use "
                                  "PrivacyClaim.of to read '1/2', 'ln(3)', 1, ...)")
        parse_epsilon(self.epsilon)
        object.__setattr__(self, "delta", check_delta(self.delta))

    @staticmethod
    def of(epsilon: Real | ExactInput, delta: ExactInput = 0) -> PrivacyClaim:
        """Build from user input (see :func:`parse_epsilon`; delta as an exact number)."""
        return PrivacyClaim(parse_epsilon(epsilon), check_delta(delta))

    def __str__(self) -> str:
        return f"({self.epsilon}, {self.delta})"


def _positive(value: object, name: str) -> Fraction:
    """``value`` as an exact Fraction > 0 (InvalidArgument naming ``name`` otherwise)."""
    if isinstance(value, bool) or not isinstance(value, Fraction | int | str):
        raise InvalidArgument(f"{name}={value!r} must be an exact number > 0")
    x = to_fraction(value, name)
    if x <= 0:
        raise InvalidArgument(f"{name}={x} must be an exact number > 0")
    return x


def _open_delta(value: object, kind: str) -> Fraction | None:
    """None, or ``value`` as a delta in (0, 1) (InvalidArgument naming ``delta``)."""
    if value is None:
        return None
    delta = check_delta(value)
    if delta == 0:
        raise InvalidArgument(f"delta={delta} of a {kind} claim must lie in (0, 1)")
    return delta


@dataclass(frozen=True, slots=True)
class ZCDPClaim:
    """A rho-zCDP guarantee (Bun and Steinke 2016): rho > 0 exact.

    ``delta`` is the point at which an auditor converts the claim to (epsilon, delta)-DP by
    default (None: the auditor needs one, e.g. ``--delta`` / ``delta=``); when given it lies in
    (0, 1).  ``approx_delta`` > 0 makes it approximate zCDP, OpenDP's
    ``Approximate(ZeroConcentratedDivergence)`` (ρ, δ_a) (Bun and Steinke 2016, Definition 8.1:
    conditioned on events of probability >= 1 - δ_a the laws are ρ-zCDP); it lies in [0, 1).
    All are validated at construction (InvalidArgument naming ``rho``, ``delta`` or
    ``approx_delta``) and stored as Fractions.
    """

    rho: Fraction
    delta: Fraction | None = None
    approx_delta: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rho", _positive(self.rho, "rho"))
        object.__setattr__(self, "delta", _open_delta(self.delta, "zCDP"))
        approx = self.approx_delta
        if (isinstance(approx, bool) or not isinstance(approx, Fraction | int)
                or not 0 <= approx < 1):
            raise InvalidArgument(f"approx_delta={approx!r} must be an exact number in [0, 1)")
        object.__setattr__(self, "approx_delta", Fraction(approx))
        if self.delta is not None and self.delta <= self.approx_delta:
            raise InvalidArgument(f"delta={self.delta} must exceed approx_delta="
                                  f"{self.approx_delta}: the audited delta includes it")

    @staticmethod
    def of(rho: ExactInput, delta: ExactInput | None = None,
           approx_delta: ExactInput = 0) -> ZCDPClaim:
        """Build from user input (exact numbers; a float is its exact binary value)."""
        return ZCDPClaim(to_fraction(rho, "rho"),
                         None if delta is None else check_delta(delta),
                         check_delta(approx_delta, "approx_delta"))

    def __str__(self) -> str:
        if self.approx_delta:
            return f"({self.rho}, {self.approx_delta})-approximate zCDP"
        return f"{self.rho}-zCDP"


@dataclass(frozen=True, slots=True)
class ProfileClaim:
    """A privacy profile delta(epsilon) given by finitely many points: the mechanism is
    (epsilon_i, delta_i)-DP for every i (and therefore (epsilon_i, delta)-DP for every
    delta >= delta_i).

    ``points`` is a non-empty sequence of :class:`PrivacyClaim` (each validated when built),
    stored as a tuple; anything else raises InvalidArgument naming ``points``.
    """

    points: tuple[PrivacyClaim, ...]

    def __post_init__(self) -> None:
        if isinstance(self.points, str | bytes) or not isinstance(self.points, Sequence):
            raise InvalidArgument(f"points={self.points!r} must be a sequence of PrivacyClaim")
        points = tuple(self.points)
        if not points or not all(isinstance(p, PrivacyClaim) for p in points):
            raise InvalidArgument("points: a profile must hold at least one (epsilon, delta) "
                                  "point, each a PrivacyClaim")
        object.__setattr__(self, "points", points)

    @staticmethod
    def of(points: Sequence[tuple[Real | ExactInput, ExactInput]]) -> ProfileClaim:
        """Build from user input: ``[(epsilon, delta), ...]`` (see :meth:`PrivacyClaim.of`)."""
        if isinstance(points, str | bytes) or not isinstance(points, Sequence):
            raise InvalidArgument(f"points={points!r} must be a list of (epsilon, delta) pairs")
        out = []
        for i, p in enumerate(points):
            if isinstance(p, str | bytes) or not isinstance(p, Sequence) or len(p) != 2:
                raise InvalidArgument(f"points[{i}]={p!r} must be an (epsilon, delta) pair")
            out.append(PrivacyClaim(parse_epsilon(p[0], f"points[{i}] epsilon"),
                                    check_delta(p[1], f"points[{i}] delta")))
        return ProfileClaim(tuple(out))

    def __str__(self) -> str:
        return "profile {" + ", ".join(str(p) for p in self.points) + "}"


@dataclass(frozen=True, slots=True)
class GDPClaim:
    """A mu-GDP guarantee (Dong, Roth and Su 2022, Definition 2.6): every pair of neighbours has
    trade-off function >= G_mu = T(N(0, 1), N(mu, 1)); mu > 0 exact.

    mu-GDP holds iff (epsilon, delta_mu(epsilon))-DP holds for every epsilon >= 0, with
    delta_mu(epsilon) = Phi(-epsilon/mu + mu/2) - e^epsilon Phi(-epsilon/mu - mu/2) (their
    Corollary 2.13; enclosed by :meth:`privref.reference.fdp.GaussianDP.delta`).  ``delta`` is
    the point at which an auditor converts the claim to (epsilon, delta)-DP by default (None:
    the auditor picks its own deltas); when given it lies in (0, 1).  Both are validated at
    construction (InvalidArgument naming ``mu`` or ``delta``) and stored as Fractions.
    """

    mu: Fraction
    delta: Fraction | None = None

    def __post_init__(self) -> None:
        mu = _positive(self.mu, "mu")
        if mu > MAX_GDP_MU:
            raise InvalidArgument(f"mu={mu} must be <= MAX_GDP_MU={MAX_GDP_MU} (a larger mu "
                                  "claims almost nothing: delta_mu(epsilon) ~ 1 at every "
                                  "epsilon below mu^2/2)")
        object.__setattr__(self, "mu", mu)
        object.__setattr__(self, "delta", _open_delta(self.delta, "GDP"))

    @staticmethod
    def of(mu: ExactInput, delta: ExactInput | None = None) -> GDPClaim:
        """Build from user input (exact numbers; a float is its exact binary value)."""
        return GDPClaim(to_fraction(mu, "mu"), None if delta is None else check_delta(delta))

    def __str__(self) -> str:
        return f"{self.mu}-GDP"


MAX_GDP_MU = Fraction(64)
"""Largest mu of a :class:`GDPClaim` (the normal quantiles privref encloses reach |z| <= 64)."""

Claim: TypeAlias = PrivacyClaim | ZCDPClaim | ProfileClaim | GDPClaim
"""Every privacy claim privref audits: (epsilon, delta)-DP (pure when delta = 0), rho-zCDP, a
privacy profile, or mu-GDP.  A closed union: code that branches on it handles the four classes."""

CLAIM_TYPES = (PrivacyClaim, ZCDPClaim, ProfileClaim, GDPClaim)
"""The classes of :data:`Claim`, for ``isinstance`` checks."""


def check_claim(claim: object, name: str = "claim") -> Claim:
    """``claim`` if it is a :data:`Claim`, else InvalidArgument naming ``name``.

    Claims validate themselves when built; this re-checks an (epsilon, delta) claim's fields,
    so that one forced past its constructor (``object.__setattr__``) is still refused before
    any work is done.
    """
    if not isinstance(claim, CLAIM_TYPES):
        raise InvalidArgument(f"{name}={claim!r} must be a PrivacyClaim, ZCDPClaim, "
                              "ProfileClaim or GDPClaim")
    for point in (claim,) if isinstance(claim, PrivacyClaim) else (
            claim.points if isinstance(claim, ProfileClaim) else ()):
        if not isinstance(point.epsilon, Real):
            raise InvalidArgument(f"{name}: epsilon={point.epsilon!r} must be an exact Real")
        parse_epsilon(point.epsilon, f"{name} epsilon")
        check_delta(point.delta, f"{name} delta")
    if isinstance(claim, ZCDPClaim) and (not isinstance(claim.rho, Fraction) or claim.rho <= 0):
        raise InvalidArgument(f"{name}: rho={claim.rho} must be an exact number > 0")
    if isinstance(claim, GDPClaim) and (not isinstance(claim.mu, Fraction)
                                        or not 0 < claim.mu <= MAX_GDP_MU):
        raise InvalidArgument(f"{name}: mu={claim.mu} must be an exact number in "
                              f"(0, {MAX_GDP_MU}]")
    return claim


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
