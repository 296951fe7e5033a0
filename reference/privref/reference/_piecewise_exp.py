"""Integrals of products of Laplace and exponential densities and CDFs, in closed form.

The laws of the continuous-noise events (:mod:`privref.reference.continuous_noise`) are
one-dimensional integrals ``∫ Π_i g_i(x) dx`` where one factor is a density and the others
are CDFs or survival functions of Laplace or exponential laws with rational locations μ_i
and scales s_i.  Each factor is piecewise ``α + β·e^{κ(x-μ)}`` with α ∈ {0, 1}, β
rational and κ ∈ {0, ±1/s}, with one kink at its location.  Between consecutive kinks the
product is therefore a finite sum ``Σ_λ c_λ e^{λx}`` with rational exponents λ, which is
integrated exactly: ``(e^{λL} - 1)/λ`` on a piece of length L, ``1/λ`` (λ > 0) on the left
end piece and ``-1/λ`` (λ < 0) on the right one.  No quadrature and no truncation: the only
rounding is arb's ball arithmetic, so the result is a rigorous enclosure.  (The same
piecewise-exponential algebra is the basis of the Laplace case of Bhusal, Chadha, Sistla and
Viswanathan's DiPApprox, CCS 2025; ours is written from the formulas above.)

Numerics: each piece is expanded about its left end (its right end for the left end
piece), so every coefficient is at most 1/min(s) in magnitude; what remains is the
cancellation of alternating terms (a product of n factors ``1 - ½e^{…}`` loses up to about
1.6n bits), which :func:`integral` absorbs by doubling the working precision until the
enclosure is relatively ``prec`` bits wide or :data:`MAX_WORKING_PRECISION` is reached.

Cost: with k distinct scales the product has O(n^k) distinct exponents, so a kernel is
O(n^2) ball operations when all CDF factors share one scale (the sparse vector, report
noisy max, DiPApprox's benchmark programs).  :data:`MAX_TERMS` bounds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Final, Literal

from ._arb import arb, ball, real_ball, to_interval, working_precision
from .errors import InvalidArgument, TooLargeToEnumerate
from .reals import Interval, Order, Real, compare

__all__ = ["MAX_TERMS", "MAX_WORKING_PRECISION", "Factor", "Family", "Part", "check_integrand",
           "integral"]

MAX_TERMS: Final = 1 << 16
"""Most distinct exponents λ one piece's product may hold (else TooLargeToEnumerate)."""

MAX_WORKING_PRECISION: Final = 1 << 14
"""Largest arb precision (bits) :func:`integral` doubles to before returning a wider enclosure."""

Family = Literal["laplace", "exponential", "gaussian", "point"]
Part = Literal["density", "cdf", "sf"]


@dataclass(frozen=True, slots=True)
class Factor:
    """One factor of an integrand: the density, CDF or survival function of μ + Z at x.

    ``family`` "laplace": Z has density e^{-|z|/s}/(2s); "exponential": e^{-z/s}/s on z >= 0;
    "gaussian": Z ~ N(0, s²) (not piecewise exponential: :mod:`._quadrature` integrates it);
    "point": Z = 0 (no noise; a CDF or survival function only, a step at μ; scale unused).
    The scale is s = ``scale``·``unit``: a rational, or a rational multiple of one exact
    real (001 Algorithm 6's printed λ = √(32T ln(1/δ)/ε) is irrational); the factors of one
    integrand share one unit, so that the exponents stay rational multiples of 1/unit.  The
    location is a rational or an exact :class:`~privref.reference.reals.Real` (001 Algorithm
    2's threshold w = 3λ ln(2(ℓ+T)/δ)); kinks at Real locations are ordered by exact
    comparison (:func:`~privref.reference.reals.compare`), in closed form only.
    """

    family: Family
    part: Part
    location: Fraction | Real
    scale: Fraction
    unit: Real | None = None

    def __post_init__(self) -> None:
        if self.family not in ("laplace", "exponential", "gaussian", "point") \
                or self.part not in ("density", "cdf", "sf") \
                or (self.family == "point" and self.part == "density"):
            raise InvalidArgument(f"factor {self.family} {self.part} is not supported")
        if not isinstance(self.scale, Fraction) or self.scale <= 0:
            raise InvalidArgument(f"scale={self.scale!r} must be a positive Fraction")
        if not isinstance(self.location, Fraction | Real):
            raise InvalidArgument(f"location={self.location!r} must be a Fraction or an exact Real")
        if self.unit is not None and not isinstance(self.unit, Real):
            raise InvalidArgument(f"unit={self.unit!r} must be an exact Real or None")

    def piece(self, right: bool) -> tuple[int, Fraction, Fraction]:
        """(α, β, κ) with the factor equal to α + β·e^{κ(x-μ)/unit} on the side ``right`` of μ
        (a density's β is to be divided by the unit too); Laplace and exponential only."""
        if self.family == "gaussian":
            raise InvalidArgument("a Gaussian factor is not piecewise exponential")
        zero = Fraction(0)
        if self.family == "point":  # P(μ <= x): 1 right of μ, 0 left of it; the sf the reverse
            return (1 if right == (self.part == "cdf") else 0), zero, zero
        s = self.scale
        if self.family == "laplace":
            if self.part == "density":
                return 0, 1 / (2 * s), (-1 / s if right else 1 / s)
            half = Fraction(1, 2)
            if right:  # x >= μ: cdf 1 - ½e^{-(x-μ)/s}, sf ½e^{-(x-μ)/s}
                return (1, -half, -1 / s) if self.part == "cdf" else (0, half, -1 / s)
            return (0, half, 1 / s) if self.part == "cdf" else (1, -half, 1 / s)
        if not right:  # exponential, x < μ: density 0, cdf 0, sf 1
            return (1, Fraction(0), Fraction(0)) if self.part == "sf" else (0, Fraction(0),
                                                                            Fraction(0))
        if self.part == "density":
            return 0, 1 / s, -1 / s
        return (1, Fraction(-1), -1 / s) if self.part == "cdf" else (0, Fraction(1), -1 / s)


def check_integrand(factors: tuple[Factor, ...]) -> None:
    """InvalidArgument unless ``factors`` is a tuple of Factors with exactly one density and one
    shared scale unit (so that the integral is a finite probability)."""
    if not isinstance(factors, tuple) or not all(isinstance(f, Factor) for f in factors):
        raise InvalidArgument("factors must be a tuple of Factor")
    if sum(1 for f in factors if f.part == "density") != 1:
        raise InvalidArgument("an integrand has exactly one density factor (the others are "
                              "CDFs or survival functions), so that its integral is finite")
    if len({id(f.unit) for f in factors if f.family != "point"}) != 1:
        raise InvalidArgument("the factors of one integrand must share one scale unit")


Location = Fraction | Real


def _layout(factors: tuple[Factor, ...]) -> tuple[list[Location], list[int]]:
    """The distinct kinks in increasing order, and the index of each factor's kink.

    Rational kinks are sorted directly; a Real one is placed by exact comparison, and two
    kinks whose order :func:`~privref.reference.reals.compare` cannot prove (equal but
    written differently, or closer than its precision) are refused as TooLargeToEnumerate:
    the pieces would be wrong, and no guess is made.
    """
    kinks: list[Location] = []
    kinks.extend(sorted({f.location for f in factors if isinstance(f.location, Fraction)}))
    for loc in dict.fromkeys(f.location for f in factors if isinstance(f.location, Real)):
        at = 0
        for at, kink in enumerate(kinks):  # noqa: B007 - `at` is the insertion point
            order, _ = compare(loc, kink)
            if order is Order.UNDECIDED:
                raise TooLargeToEnumerate(f"the kinks at {loc} and {kink} could not be ordered "
                                          "exactly")
            if order is not Order.GREATER:
                break
        else:
            at = len(kinks)
        if at < len(kinks) and compare(loc, kinks[at])[0] is Order.EQUAL:
            continue
        kinks.insert(at, loc)
    rank = {id(k): i for i, k in enumerate(kinks)}
    index = {k: i for i, k in enumerate(kinks) if isinstance(k, Fraction)}
    where: list[int] = []
    for f in factors:
        at_ = f.location
        if isinstance(at_, Fraction):
            where.append(index[at_])
        else:
            where.append(rank[id(at_)] if id(at_) in rank
                         else next(i for i, k in enumerate(kinks)
                                   if compare(at_, k)[0] is Order.EQUAL))
    return kinks, where


def _point(x: Location) -> arb:
    return ball(x) if isinstance(x, Fraction) else real_ball(x)


def _gap(a: Location, b: Location) -> Fraction | arb:
    """b - a: exact when both are rational, else a ball."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return b - a
    return _point(b) - _point(a)


def _piece_terms(factors: tuple[Factor, ...], where: list[int], kinks: list[Location], piece: int,
                 exps: dict[object, arb], inv_unit: arb) -> dict[Fraction, arb]:
    """The product on piece ``piece`` (between kinks[piece-1] and kinks[piece]) as {λ: c_λ}
    (terms c_λ·e^{λ(x-x0)/unit}), expanded about its reference point x0: its left end, or
    its right end for the left end piece."""
    ref = piece - 1 if piece > 0 else piece
    x0 = kinks[ref]
    terms: dict[Fraction, arb] = {Fraction(0): arb(1)}
    for f, at in zip(factors, where, strict=True):
        alpha, beta, kappa = f.piece(piece > at)
        if beta == 0:
            if alpha == 0:
                return {}
            continue
        gap = _gap(f.location, x0)
        key: object = kappa * gap if isinstance(gap, Fraction) else (kappa, ref, at)
        if key not in exps:
            shift = ball(kappa * gap) if isinstance(gap, Fraction) else ball(kappa) * gap
            exps[key] = (shift * inv_unit).exp()
        coef = exps[key] * ball(beta)
        if f.part == "density":
            coef *= inv_unit
        new: dict[Fraction, arb] = dict(terms) if alpha else {}
        for lam, c in terms.items():
            key_lam = lam + kappa
            prod = c * coef
            new[key_lam] = new[key_lam] + prod if key_lam in new else prod
        terms = new
        if len(terms) > MAX_TERMS:
            raise TooLargeToEnumerate(f"the integrand has more than {MAX_TERMS} distinct "
                                      "exponents on one piece (too many distinct noise scales)")
    return terms


def _integral_ball(factors: tuple[Factor, ...], layout: tuple[list[Location], list[int]]) -> arb:
    """The integral as an arb ball at the current precision."""
    kinks, where = layout
    exps: dict[object, arb] = {}
    unit = next(f.unit for f in factors if f.part == "density")
    inv_unit = arb(1) if unit is None else 1 / real_ball(unit)
    total = arb(0)
    for piece in range(len(kinks) + 1):
        terms = _piece_terms(factors, where, kinks, piece, exps, inv_unit)
        end_piece = piece == 0 or piece == len(kinks)
        length = None if end_piece else _gap(kinks[piece - 1], kinks[piece])
        for lam, c in terms.items():
            if length is None:
                if (lam > 0) != (piece == 0) or lam == 0:
                    raise InvalidArgument("the integrand does not decay in its tails")
                total += c / (ball(abs(lam)) * inv_unit)
            elif lam == 0:
                total += c * (ball(length) if isinstance(length, Fraction) else length)
            else:
                span = ball(lam * length) if isinstance(length, Fraction) else ball(lam) * length
                total += c * (span * inv_unit).expm1() / (ball(lam) * inv_unit)
    return total


@lru_cache(maxsize=4096)
def integral(factors: tuple[Factor, ...], prec: int) -> Interval:
    """A rigorous enclosure of ``∫ Π factors dx`` (a probability), relatively ``prec`` bits wide.

    The working precision starts at prec + 2n + 32 bits and doubles until the ball's
    radius is at most 2^-prec of its lower end, or :data:`MAX_WORKING_PRECISION` is reached
    (then the wider enclosure is returned: callers see the width, never a guess).  The result
    is clipped to [0, 1].  Raises InvalidArgument for an integrand without exactly one
    density, TooLargeToEnumerate past :data:`MAX_TERMS` or when arb cannot bound the value.
    """
    check_integrand(factors)
    if any(f.family == "gaussian" for f in factors):
        raise InvalidArgument("Gaussian factors are integrated by privref.reference._quadrature")
    layout = _layout(factors)
    work = prec + 2 * len(factors) + 32
    while True:
        with working_precision(work):
            value = _integral_ball(factors, layout)
            box = to_interval(value, "a continuous-noise probability")
        if box.hi - box.lo <= max(box.lo, Fraction(0)) / (1 << prec) \
                or work >= MAX_WORKING_PRECISION:
            one = Fraction(1)
            return Interval(min(max(box.lo, Fraction(0)), one), min(max(box.hi, Fraction(0)), one))
        work = min(2 * work, MAX_WORKING_PRECISION)
