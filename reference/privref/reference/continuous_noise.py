"""Continuous Laplace and exponential noise, compared exactly: the events programs branch on.

A program that adds continuous noise to a value and then *compares* (above a noisy
threshold, the largest noisy value, the first query above a shared noisy threshold) yields
one of the :class:`~privref.reference.program.FiniteEvent` choices below.  Both
interpreters read the one definition:

* the exact interpreter takes :meth:`branches`: the law of the event's finitely many
  outcomes, each probability a rigorous enclosure of a one-dimensional integral of
  Laplace/exponential densities and CDFs computed in closed form in arb ball arithmetic
  (:mod:`privref.reference._piecewise_exp`: no quadrature, no truncation), relatively
  ``prec`` bits wide;
* the sampler draws the outcome from that same law by lazy refinement
  (:func:`privref.reference._sampling.categorical_real`'s method): a uniform variate is
  revealed 32 bits at a time and the enclosures tightened until it falls inside one
  outcome's interval.  No float is ever drawn or compared, and the draw has the event's
  law exactly.

Laws (Z with location 0; a value ``shift + Z``):

* :class:`LaplaceNoise`, scale b > 0: density e^{-|z|/b}/(2b) (the Laplace mechanism,
  Dwork, McSherry, Nissim, Smith 2006; 001 Algorithms 2 and 6 draw Lap(λ), Lap(2λ));
* :class:`ExponentialNoise`, scale b > 0: density e^{-z/b}/b on z >= 0 (report noisy max
  with exponential noise, which releases the exponential mechanism's law; McKenna and
  Sheldon 2020, "Permute-and-Flip").

Comparisons between continuous values tie with probability 0, so ``>`` and ``>=`` are the
same event here.  Shifts and thresholds are exact rationals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar, Final, TypeAlias, TypeVar, cast

import numpy as np

from . import _quadrature
from ._arb import arb, ball, real_ball, to_interval, working_precision
from ._piecewise_exp import MAX_WORKING_PRECISION, Factor, Family, Part
from ._piecewise_exp import integral as _closed_form
from ._sampling import _lazy_choice
from .errors import InvalidArgument
from .program import FiniteEvent, Program
from .reals import DEFAULT_PRECISION, Interval, Order, Prob, Real, compare
from .validate import ExactInput, check_int, check_positive, to_fraction

__all__ = [
    "MAX_EVENT_VALUES",
    "MAX_VECTOR_VALUES",
    "ContinuousNoise",
    "ExponentialNoise",
    "FirstInRange",
    "GaussianNoise",
    "LaplaceNoise",
    "NoNoise",
    "NoiseContest",
    "NoisyArgmax",
    "NoisyBetween",
    "RangeRun",
    "SignedThresholdRun",
    "ThresholdRun",
    "ThresholdTest",
    "ThresholdVector",
    "argmax",
    "argmin",
    "beats",
    "between",
    "clear_caches",
    "exceeds",
    "first_above",
    "first_below",
    "first_in_range",
    "integral",
    "law_of",
    "range_run",
    "signed_first_below",
    "threshold_vector",
]

_E = TypeVar("_E")


@dataclass(frozen=True, slots=True)
class _ScaledNoise:
    """A continuous noise law of scale ``scale``·``unit`` (``unit`` None: 1)."""

    family: ClassVar[Family]
    scale: Fraction
    unit: Real | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "scale", check_positive(to_fraction(self.scale, "scale"),
                                                         "scale"))
        _check_unit(self.unit)

    def factor(self, part: Part, location: Fraction | Real) -> Factor:
        """The density, CDF or survival function of ``location + Z`` as an integrand factor."""
        return Factor(self.family, part, location, self.scale, self.unit)


@dataclass(frozen=True, slots=True)
class LaplaceNoise(_ScaledNoise):
    """Continuous Laplace noise of scale b > 0: density e^{-|z|/b}/(2b).

    b = ``scale`` (an exact rational) times ``unit`` (an exact positive Real, or None for 1;
    e.g. 001 Algorithm 6's irrational λ).  The noises of one event must share the unit.
    """

    family: ClassVar[Family] = "laplace"


@dataclass(frozen=True, slots=True)
class ExponentialNoise(_ScaledNoise):
    """Continuous exponential noise of scale b > 0: density e^{-z/b}/b on z >= 0.

    b = ``scale`` (an exact rational) times ``unit`` (an exact positive Real, or None for 1).
    The noises of one event must share the unit.
    """

    family: ClassVar[Family] = "exponential"


MAX_EVENT_VALUES: Final = 512
"""Most values one run or argmax may compare (its law costs O(n³) ball operations or n
quadratures: about 12 s at n = 200 with Laplace noise)."""


def _check_values(values: object) -> None:
    if not isinstance(values, tuple) or not values:
        raise InvalidArgument(f"values={values!r} must be a non-empty tuple")
    if len(values) > MAX_EVENT_VALUES:
        raise InvalidArgument(f"values has {len(values)} entries; at most {MAX_EVENT_VALUES} "
                              "(MAX_EVENT_VALUES) can be compared in one event")


def _check_unit(unit: object) -> None:
    if unit is None:
        return
    if not isinstance(unit, Real):
        raise InvalidArgument(f"unit={unit!r} must be an exact Real (privref.reference.reals) "
                              "or None")
    if compare(unit, 0)[0] is not Order.GREATER:
        raise InvalidArgument(f"unit={unit} must be provably > 0")


@dataclass(frozen=True, slots=True)
class GaussianNoise(_ScaledNoise):
    """Continuous Gaussian noise N(0, σ²): σ = ``scale`` (an exact rational, the standard
    deviation) times ``unit`` (an exact positive Real, or None for 1).

    Events with Gaussian noise are integrated by validated quadrature (:mod:`._quadrature`):
    slower than the closed form, and limited to :data:`._quadrature.MAX_QUADRATURE_PRECISION`.
    """

    family: ClassVar[Family] = "gaussian"


ContinuousNoise: TypeAlias = LaplaceNoise | ExponentialNoise | GaussianNoise


@dataclass(frozen=True, slots=True)
class NoNoise:
    """No noise: the value is compared as it is (DiPApprox's leaky sparse vectors).

    Accepted only as a :class:`ThresholdRun`'s ``query_noise``, against a continuous threshold
    noise, where ties still have probability 0.
    """

    unit: None = None

    def factor(self, part: Part, location: Fraction) -> Factor:
        """The CDF or survival function of the constant ``location`` (a step at it)."""
        return Factor("point", part, location, Fraction(1))


def _check_noise(noise: object, name: str) -> None:
    if not isinstance(noise, LaplaceNoise | ExponentialNoise | GaussianNoise):
        raise InvalidArgument(f"{name}={noise!r} must be a LaplaceNoise, ExponentialNoise or "
                              "GaussianNoise")


def _exact(value: object, name: str) -> Fraction:
    return to_fraction(value, name)


def integral(factors: tuple[Factor, ...], prec: int) -> Interval:
    """An enclosure of ``∫ Π factors dx``: in closed form (:mod:`._piecewise_exp`) for Laplace
    and exponential factors, by validated quadrature (:mod:`._quadrature`) when one is Gaussian."""
    if any(f.family == "gaussian" for f in factors):
        return _quadrature.integral(factors, prec)
    return _closed_form(factors, prec)


def _tail(noise: ContinuousNoise, k: Fraction, upper: bool, prec: int) -> Interval:
    """P(Z > k) (``upper``) or P(Z < k), relatively ``prec`` bits wide (closed form)."""
    b = noise.scale
    if isinstance(noise, LaplaceNoise | GaussianNoise) and not upper:
        return _tail(noise, -k, True, prec)  # symmetric: P(Z < k) = P(Z > -k)
    if isinstance(noise, ExponentialNoise) and k <= 0:
        return Interval.point(Fraction(1 if upper else 0))
    work = prec + 32
    while True:
        with working_precision(work):
            x = ball(k / b) if noise.unit is None else ball(k / b) / real_ball(noise.unit)
            if isinstance(noise, GaussianNoise):  # P(Z > k) = erfc(k/(σ√2))/2
                value = (x / arb(2).sqrt()).erfc() / 2
            elif isinstance(noise, ExponentialNoise):  # e^{-x} or 1 - e^{-x}, x = k/b > 0
                value = (-x).exp() if upper else -(-x).expm1()
            elif k >= 0:
                value = (-x).exp() / 2
            else:
                value = 1 - x.exp() / 2
            box = to_interval(value, "a tail probability")
        if box.width <= box.lo / (1 << prec) or work >= MAX_WORKING_PRECISION:
            return Interval(max(box.lo, Fraction(0)), min(box.hi, Fraction(1)))
        work *= 2


def _draw(rng: np.random.Generator, law: Callable[[int], list[tuple[object, Prob]]]) -> object:
    """One outcome drawn from ``law`` (prec -> enclosed law) by lazy refinement: exact."""
    def bounds(prec: int) -> tuple[list[Fraction], list[Fraction]]:
        boxes = [p if isinstance(p, Interval) else Interval.point(p) for _, p in law(prec)]
        return [b.lo for b in boxes], [b.hi for b in boxes]

    outcomes = [v for v, _ in law(DEFAULT_PRECISION)]
    return outcomes[_lazy_choice(rng, bounds)]


@dataclass(frozen=True, slots=True)
class ThresholdTest(FiniteEvent):
    """The event ``shift + Z > threshold`` for one continuous noise draw Z.

    Exact law: True with P(Z > threshold - shift) in closed form (Laplace: ½e^{-k/b} for
    k >= 0, 1 - ½e^{k/b} below; exponential: e^{-k/b} for k > 0, 1 below); False with the
    complement, enclosed on its own (no cancellation).
    """

    noise: ContinuousNoise
    shift: Fraction
    threshold: Fraction

    def __post_init__(self) -> None:
        _check_noise(self.noise, "noise")
        object.__setattr__(self, "shift", _exact(self.shift, "shift"))
        object.__setattr__(self, "threshold", _exact(self.threshold, "threshold"))

    def accepts(self, value: object) -> bool:
        """True and False."""
        return isinstance(value, bool)

    def branches(self, prec: int) -> list[tuple[object, Prob]]:
        """True and False with their enclosed probabilities."""
        return list(_test_law(self, prec))

    def draw(self, rng: np.random.Generator) -> bool:
        """The outcome drawn exactly from :meth:`branches`' law."""
        return bool(_draw(rng, self.branches))


@lru_cache(maxsize=4096)
def _test_law(test: ThresholdTest, prec: int) -> tuple[tuple[object, Prob], ...]:
    k = test.threshold - test.shift
    return ((True, _tight(_tail(test.noise, k, True, prec))),
            (False, _tight(_tail(test.noise, k, False, prec))))


def _tight(box: Interval) -> Prob:
    return box.lo if box.is_point else box


@dataclass(frozen=True, slots=True)
class NoiseContest(FiniteEvent):
    """The event ``shift1 + Z1 > shift2 + Z2`` for independent continuous Z1, Z2.

    Exact law: True with ∫ f1(x)·F2(x) dx (f1 the density of shift1 + Z1, F2 the CDF of
    shift2 + Z2), False with ∫ f1·(1 - F2); closed form (:mod:`._piecewise_exp`).
    """

    noise1: ContinuousNoise
    shift1: Fraction
    noise2: ContinuousNoise
    shift2: Fraction

    def __post_init__(self) -> None:
        _check_noise(self.noise1, "noise1")
        _check_noise(self.noise2, "noise2")
        object.__setattr__(self, "shift1", _exact(self.shift1, "shift1"))
        object.__setattr__(self, "shift2", _exact(self.shift2, "shift2"))

    def accepts(self, value: object) -> bool:
        """True and False."""
        return isinstance(value, bool)

    def branches(self, prec: int) -> list[tuple[object, Prob]]:
        """True and False with their enclosed probabilities."""
        density = self.noise1.factor("density", self.shift1)
        return [(True, _tight(integral((density, self.noise2.factor("cdf", self.shift2)),
                                       prec))),
                (False, _tight(integral((density, self.noise2.factor("sf", self.shift2)),
                                        prec)))]

    def draw(self, rng: np.random.Generator) -> bool:
        """The outcome drawn exactly from :meth:`branches`' law."""
        return bool(_draw(rng, self.branches))


@dataclass(frozen=True, slots=True)
class ThresholdRun(FiniteEvent):
    """The first j whose noisy value crosses one shared noisy threshold; len(values) if none.

    ``above`` true: the first j with values[j] + ν_j > threshold + ρ (the sparse vector's
    AboveThreshold, Dwork and Roth 2014 Algorithm 1: the first ⊤); false: the first j with
    values[j] + ν_j < threshold + ρ.  ρ ~ ``threshold_noise`` is drawn once, each ν_j ~
    ``query_noise`` afresh (or :class:`NoNoise`: the raw values).  The threshold is a rational or,
    with Laplace and exponential noise, an exact :class:`~privref.reference.reals.Real` (001
    Algorithm 2's w = 3λ ln(2(ℓ+T)/δ)).  Exact law, with x = threshold + ρ:
    P(j) = ∫ f_ρ(x) Π_{i<j} P(values[i] + ν_i on the other side of x)·P(values[j] + ν_j
    crosses x) dx, each a closed-form integral (:mod:`._piecewise_exp`).
    """

    threshold_noise: ContinuousNoise
    threshold: Fraction | Real
    query_noise: ContinuousNoise | NoNoise
    values: tuple[Fraction, ...]
    above: bool = True

    def __post_init__(self) -> None:
        _check_noise(self.threshold_noise, "threshold_noise")
        if not isinstance(self.query_noise, NoNoise):
            _check_noise(self.query_noise, "query_noise")
        if isinstance(self.threshold, Real):
            if any(isinstance(n, GaussianNoise) for n in (self.threshold_noise, self.query_noise)):
                raise InvalidArgument(f"threshold={self.threshold}: an irrational threshold is "
                                      "supported with Laplace and exponential noise only")
        else:
            object.__setattr__(self, "threshold", _exact(self.threshold, "threshold"))
        _check_values(self.values)
        object.__setattr__(self, "values", tuple(_exact(v, f"values[{i}]")
                                                 for i, v in enumerate(self.values)))
        if not isinstance(self.above, bool):
            raise InvalidArgument(f"above={self.above!r} must be a bool")

    def accepts(self, value: object) -> bool:
        """The ints 0..len(values)."""
        return (isinstance(value, int) and not isinstance(value, bool)
                and 0 <= value <= len(self.values))

    def branches(self, prec: int) -> list[tuple[object, Prob]]:
        """Each stopping index with its enclosed probability (see the class docstring)."""
        return list(_run_law(self, prec))

    def draw(self, rng: np.random.Generator) -> int:
        """The stopping index drawn exactly from :meth:`branches`' law."""
        return cast(int, _draw(rng, self.branches))


@lru_cache(maxsize=1024)
def _run_law(run: ThresholdRun, prec: int) -> tuple[tuple[object, Prob], ...]:
    cross: Part = "sf" if run.above else "cdf"
    stay: Part = "cdf" if run.above else "sf"
    density = run.threshold_noise.factor("density", run.threshold)
    out: list[tuple[object, Prob]] = []
    prefix: tuple[Factor, ...] = (density,)
    for j, v in enumerate(run.values):
        out.append((j, _tight(integral((*prefix, run.query_noise.factor(cross, v)), prec))))
        prefix = (*prefix, run.query_noise.factor(stay, v))
    out.append((len(run.values), _tight(integral(prefix, prec))))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class NoisyArgmax(FiniteEvent):
    """The index of the largest ``values[j] + Z_j`` (``maximum`` false: the smallest), Z_j iid.

    Report noisy max (Dwork and Roth 2014, Claim 3.9).  Exact law:
    P(j) = ∫ f_j(x) Π_{i≠j} F_i(x) dx (survival functions for the minimum), f_j the density
    of values[j] + Z_j and F_i the CDF of values[i] + Z_i; ties have probability 0.
    """

    noise: ContinuousNoise
    values: tuple[Fraction, ...]
    maximum: bool = True

    def __post_init__(self) -> None:
        _check_noise(self.noise, "noise")
        _check_values(self.values)
        object.__setattr__(self, "values", tuple(_exact(v, f"values[{i}]")
                                                 for i, v in enumerate(self.values)))
        if not isinstance(self.maximum, bool):
            raise InvalidArgument(f"maximum={self.maximum!r} must be a bool")

    def accepts(self, value: object) -> bool:
        """The ints 0..len(values) - 1."""
        return (isinstance(value, int) and not isinstance(value, bool)
                and 0 <= value < len(self.values))

    def branches(self, prec: int) -> list[tuple[object, Prob]]:
        """Each index with its enclosed probability (see the class docstring)."""
        return list(_argmax_law(self, prec))

    def draw(self, rng: np.random.Generator) -> int:
        """The index drawn exactly from :meth:`branches`' law."""
        return cast(int, _draw(rng, self.branches))


@lru_cache(maxsize=1024)
def _argmax_law(event: NoisyArgmax, prec: int) -> tuple[tuple[object, Prob], ...]:
    below: Part = "cdf" if event.maximum else "sf"
    out: list[tuple[object, Prob]] = []
    for j, v in enumerate(event.values):
        others = tuple(event.noise.factor(below, w) for i, w in enumerate(event.values) if i != j)
        out.append((j, _tight(integral((event.noise.factor("density", v), *others), prec))))
    return tuple(out)


MAX_VECTOR_VALUES: Final = 12
"""Most comparisons one :class:`ThresholdVector` may release (its law has 2^n outcomes, each
one integral: 4096 at the limit)."""


@dataclass(frozen=True, slots=True)
class ThresholdVector(FiniteEvent):
    """Every comparison with one shared noisy threshold, all released: the tuple of
    ``values[j] + ν_j > threshold + ρ`` over j.

    The sparse vector without halting, which is not private (DiPApprox's SVT-Laplace-Leaky-6,
    taken from DiPC; Lyu, Su and Li 2017 analyse such variants).  ρ ~ ``threshold_noise`` is
    drawn once, each ν_j ~ ``query_noise`` afresh (or :class:`NoNoise`: the raw values).  Exact
    law, with x = threshold + ρ: P(b) = ∫ f_ρ(x) Π_j G_j(x) dx, G_j(x) = P(values[j] + ν_j > x)
    where b_j is true and P(values[j] + ν_j < x) where it is false; one closed-form integral
    (:mod:`._piecewise_exp`), or a validated quadrature with Gaussian noise, per outcome.
    """

    threshold_noise: ContinuousNoise
    threshold: Fraction
    query_noise: ContinuousNoise | NoNoise
    values: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        _check_noise(self.threshold_noise, "threshold_noise")
        if not isinstance(self.query_noise, NoNoise):
            _check_noise(self.query_noise, "query_noise")
        object.__setattr__(self, "threshold", _exact(self.threshold, "threshold"))
        _check_values(self.values)
        if len(self.values) > MAX_VECTOR_VALUES:
            raise InvalidArgument(f"values has {len(self.values)} entries; a ThresholdVector "
                                  f"releases at most {MAX_VECTOR_VALUES} (MAX_VECTOR_VALUES) "
                                  "comparisons (its law has 2^n outcomes)")
        object.__setattr__(self, "values", tuple(_exact(v, f"values[{i}]")
                                                 for i, v in enumerate(self.values)))

    def accepts(self, value: object) -> bool:
        """The tuples of len(values) bools."""
        return (isinstance(value, tuple) and len(value) == len(self.values)
                and all(isinstance(b, bool) for b in value))

    def branches(self, prec: int) -> list[tuple[object, Prob]]:
        """Each tuple of comparisons with its enclosed probability (see the class docstring)."""
        return list(_vector_law(self, prec))

    def draw(self, rng: np.random.Generator) -> tuple[bool, ...]:
        """The comparisons drawn exactly from :meth:`branches`' law."""
        return cast(tuple[bool, ...], _draw(rng, self.branches))


@lru_cache(maxsize=256)
def _vector_law(event: ThresholdVector, prec: int) -> tuple[tuple[object, Prob], ...]:
    n = len(event.values)
    density = event.threshold_noise.factor("density", event.threshold)
    out: list[tuple[object, Prob]] = []
    for code in range(1 << n):
        bits = tuple(bool(code >> (n - 1 - j) & 1) for j in range(n))
        # the integrand depends on the multiset of (bit, value) only: sort it, so that outcomes
        # with the same multiset share one cached integral
        pairs = sorted(zip(bits, event.values, strict=True))
        factors = tuple(event.query_noise.factor("sf" if b else "cdf", v) for b, v in pairs)
        out.append((bits, _tight(integral((density, *factors), prec))))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class NoisyBetween(FiniteEvent):
    """Whether ``value + Z`` lies strictly between ``low + Z_low`` and ``high + Z_high`` (Z,
    Z_low, Z_high independent continuous noises).

    ``ordered`` true: the event low + Z_low < value + Z < high + Z_high (false when the noisy
    low exceeds the noisy high): DiPApprox's m-Range at one query.  ``ordered`` false: value + Z
    lies between the smaller and the larger of the two: DiPApprox's k-Min-Max at k = 2 and three
    queries (the third noisy query inside the range of the first two).  Exact law, conditioning
    on y = value + Z (density f), the two bounds being independent given y (CDFs F_low, F_high,
    survival functions S = 1 - F): ordered: True with ∫ f·F_low·S_high, False with
    ∫ f·S_low + ∫ f·F_low·F_high; unordered: True with ∫ f·F_low·S_high + ∫ f·S_low·F_high,
    False with ∫ f·S_low·S_high + ∫ f·F_low·F_high.  Every term is a closed-form integral (or a
    validated quadrature with Gaussian noise), each outcome a sum of positive terms (no
    cancellation).
    """

    noise: ContinuousNoise
    value: Fraction
    low_noise: ContinuousNoise
    low: Fraction
    high_noise: ContinuousNoise
    high: Fraction
    ordered: bool = True

    def __post_init__(self) -> None:
        _check_noise(self.noise, "noise")
        _check_noise(self.low_noise, "low_noise")
        _check_noise(self.high_noise, "high_noise")
        for name in ("value", "low", "high"):
            object.__setattr__(self, name, _exact(getattr(self, name), name))
        if not isinstance(self.ordered, bool):
            raise InvalidArgument(f"ordered={self.ordered!r} must be a bool")

    def accepts(self, value: object) -> bool:
        """True and False."""
        return isinstance(value, bool)

    def branches(self, prec: int) -> list[tuple[object, Prob]]:
        """True and False with their enclosed probabilities (see the class docstring)."""
        return list(_between_law(self, prec))

    def draw(self, rng: np.random.Generator) -> bool:
        """The outcome drawn exactly from :meth:`branches`' law."""
        return bool(_draw(rng, self.branches))


@lru_cache(maxsize=1024)
def _between_law(event: NoisyBetween, prec: int) -> tuple[tuple[object, Prob], ...]:
    f = event.noise.factor("density", event.value)

    def lo(part: Part) -> Factor:
        return event.low_noise.factor(part, event.low)

    def hi(part: Part) -> Factor:
        return event.high_noise.factor(part, event.high)

    inside = integral((f, lo("cdf"), hi("sf")), prec)
    outside = integral((f, lo("cdf"), hi("cdf")), prec)  # above both
    if event.ordered:
        outside = outside + integral((f, lo("sf")), prec)  # below the low end
    else:
        inside = inside + integral((f, lo("sf"), hi("cdf")), prec)
        outside = outside + integral((f, lo("sf"), hi("sf")), prec)  # below both
    return ((True, _tight(inside)), (False, _tight(outside)))


def threshold_vector(threshold_noise: ContinuousNoise, threshold: ExactInput,
                     query_noise: ContinuousNoise | NoNoise, values: tuple[ExactInput, ...]
                     ) -> Program[tuple[bool, ...]]:
    """Yield every comparison with one shared noisy threshold (:class:`ThresholdVector`)."""
    return _event(ThresholdVector(threshold_noise, cast(Fraction, threshold), query_noise,
                                  cast(tuple[Fraction, ...], tuple(values))))


def between(noise: ContinuousNoise, value: ExactInput, low_noise: ContinuousNoise,
            low: ExactInput, high_noise: ContinuousNoise, high: ExactInput,
            ordered: bool = True) -> Program[bool]:
    """Yield whether a noisy value lies strictly between two noisy bounds (:class:`NoisyBetween`)."""
    return _event(NoisyBetween(noise, cast(Fraction, value), low_noise, cast(Fraction, low),
                               high_noise, cast(Fraction, high), ordered))


def _nested_bits(prec: int) -> int:
    """The relative precision asked of a two-dimensional law: a quarter of ``prec`` (at least 24
    bits), since one nested integral costs about a one-dimensional quadrature per evaluation;
    it still grows with ``prec``, so the exact sampler's refinement terminates."""
    return max(24, prec // 4)


def _nested(outer: tuple[Factor, ...], inner: tuple[Factor, ...], prec: int) -> Interval:
    from ._nested_quadrature import nested_integral  # a local import: the header is shared
    return nested_integral(outer, inner, _nested_bits(prec))


def _probability(box: Interval) -> Prob:
    """A sum of signed enclosures as a probability: clipped to [0, 1]."""
    return _tight(Interval(max(box.lo, Fraction(0)), min(box.hi, Fraction(1))))


def _check_rational_scale(noise: ContinuousNoise, name: str) -> None:
    if noise.unit is not None:
        raise InvalidArgument(f"{name}={noise!r}: a two-dimensional law takes a rational scale "
                              "(unit None)")


@dataclass(frozen=True, slots=True)
class RangeRun(FiniteEvent):
    """How many of ``count`` noisy queries, drawn one after another, fall strictly between one
    pair of noisy bounds before the first that does not: k in 0..count.

    DiPApprox's m-Range with one range, as their files ``examples/mrange/mrange_{1,2,3}.dip``
    write it: LOW = low + Z_low and HIGH = high + Z_high drawn once; the queries Q_i = value +
    Z_i iid (their files read the same input for every query); the run continues while LOW <
    Q_i < HIGH and stops at the first query outside.  With p = P(LOW < Q < HIGH | LOW, HIGH) =
    (F(HIGH) - F(LOW))⁺ (F the CDF of Q) and M_k = E[p^k]: P(k) = M_k - M_{k+1} (k < count),
    P(count) = M_count, P(0) = ∫ f_Q·S_low + ∫ f_Q·F_low·F_high (enclosed on its own) and
    M_1 = ∫ f_Q·F_low·S_high.  For k >= 2, expanding (F(h) - F(l))^k binomially,
    M_k = Σ_a C(k, a)(-1)^{k-a} ∫ f_low(l) F(l)^{k-a} ∫_{h>l} f_high(h) F(h)^a dh dl: nested
    integrals (:mod:`._nested_quadrature`), enclosed relatively prec/4 bits wide (the signed
    sum loses some of them; the auditor sees the width).
    """

    noise: ContinuousNoise
    value: Fraction
    low_noise: ContinuousNoise
    low: Fraction
    high_noise: ContinuousNoise
    high: Fraction
    count: int

    def __post_init__(self) -> None:
        for name in ("noise", "low_noise", "high_noise"):
            _check_noise(getattr(self, name), name)
            _check_rational_scale(getattr(self, name), name)
        for name in ("value", "low", "high"):
            object.__setattr__(self, name, _exact(getattr(self, name), name))
        check_int(self.count, "count", minimum=1)
        if self.count > MAX_VECTOR_VALUES:
            raise InvalidArgument(f"count={self.count}: a RangeRun takes at most "
                                  f"{MAX_VECTOR_VALUES} (MAX_VECTOR_VALUES) queries (its law "
                                  "costs O(count²) nested integrals)")

    def accepts(self, value: object) -> bool:
        """The ints 0..count."""
        return (isinstance(value, int) and not isinstance(value, bool)
                and 0 <= value <= self.count)

    def branches(self, prec: int) -> list[tuple[object, Prob]]:
        """Each run length with its enclosed probability (see the class docstring)."""
        return list(_range_run_law(self, prec))

    def draw(self, rng: np.random.Generator) -> int:
        """The run length drawn exactly from :meth:`branches`' law."""
        return cast(int, _draw(rng, self.branches))


@lru_cache(maxsize=256)
def _range_run_law(event: RangeRun, prec: int) -> tuple[tuple[object, Prob], ...]:
    f = event.noise.factor("density", event.value)
    below = event.noise.factor("cdf", event.value)
    low, high = event.low_noise, event.high_noise
    zero = integral((f, low.factor("sf", event.low)), prec) \
        + integral((f, low.factor("cdf", event.low), high.factor("cdf", event.high)), prec)
    moments = [Interval.point(Fraction(1)),
               integral((f, low.factor("cdf", event.low), high.factor("sf", event.high)), prec)]
    for k in range(2, event.count + 1):
        total, binomial = Interval.point(Fraction(0)), 1  # binomial = C(k, a)
        for a in range(k + 1):
            term = _nested((low.factor("density", event.low), *(below,) * (k - a)),
                           (high.factor("density", event.high), *(below,) * a), prec)
            total = total + term * (binomial * (-1) ** (k - a))
            binomial = binomial * (k - a) // (a + 1)
        moments.append(total)
    out: list[tuple[object, Prob]] = [(0, _tight(zero))]
    for k in range(1, event.count):
        out.append((k, _probability(moments[k] - moments[k + 1])))
    out.append((event.count, _probability(moments[event.count])))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class FirstInRange(FiniteEvent):
    """The first noisy query strictly between the noisy minimum and maximum of the first two,
    scanning while the queries stay below the minimum: j - 2 for query j, or len(values) - 2
    when a query reaches the maximum or none is found.

    DiPApprox's k-Min-Max at k = 2, as their files ``examples/kminmax/example_{3,4}.dip`` write
    it (their paper's Algorithm 26 differs): Q_i = values[i] + Z_i iid noise; MIN and MAX the
    smaller and larger of Q_0 and Q_1; for j = 2, 3, ...: MIN < Q_j < MAX stops with j - 2;
    Q_j >= MAX stops with none; Q_j <= MIN continues.  Exact law, summing over which of Q_0,
    Q_1 is the minimum (A) and which the maximum (B), F_i and S_i the CDF and survival function
    of Q_i: P(j - 2) = Σ_{A,B} ∫ f_A(x) Π_{2<=i<j} F_i(x) ∫_{y>x} f_j(y) S_B(y) dy dx; P(none)
    = Σ_{A,B} [Σ_j ∫ f_A Π_{i<j} F_i ∫_{y>x} f_B S_j + ∫ f_A·S_B·Π_{i>=2} F_i]: sums of
    positive nested integrals (:mod:`._nested_quadrature`), each enclosed relatively prec/4
    bits wide.
    """

    noise: ContinuousNoise
    values: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        _check_noise(self.noise, "noise")
        _check_rational_scale(self.noise, "noise")
        _check_values(self.values)
        if len(self.values) < 3:
            raise InvalidArgument(f"values has {len(self.values)} entries; a FirstInRange "
                                  "needs at least 3 (two for the range, one to test)")
        if len(self.values) > MAX_VECTOR_VALUES:
            raise InvalidArgument(f"values has {len(self.values)} entries; a FirstInRange "
                                  f"takes at most {MAX_VECTOR_VALUES} (MAX_VECTOR_VALUES)")
        object.__setattr__(self, "values", tuple(_exact(v, f"values[{i}]")
                                                 for i, v in enumerate(self.values)))

    def accepts(self, value: object) -> bool:
        """The ints 0..len(values) - 2."""
        return (isinstance(value, int) and not isinstance(value, bool)
                and 0 <= value <= len(self.values) - 2)

    def branches(self, prec: int) -> list[tuple[object, Prob]]:
        """Each outcome with its enclosed probability (see the class docstring)."""
        return list(_first_in_range_law(self, prec))

    def draw(self, rng: np.random.Generator) -> int:
        """The outcome drawn exactly from :meth:`branches`' law."""
        return cast(int, _draw(rng, self.branches))


@lru_cache(maxsize=256)
def _first_in_range_law(event: FirstInRange, prec: int) -> tuple[tuple[object, Prob], ...]:
    n, q, nu = len(event.values), event.values, event.noise
    found: list[Interval] = [Interval.point(Fraction(0)) for _ in range(2, n)]
    none = Interval.point(Fraction(0))
    for a, b in ((0, 1), (1, 0)):
        for j in range(2, n):
            outer = (nu.factor("density", q[a]), *(nu.factor("cdf", q[i]) for i in range(2, j)))
            found[j - 2] = found[j - 2] + _nested(
                outer, (nu.factor("density", q[j]), nu.factor("sf", q[b])), prec)
            none = none + _nested(outer, (nu.factor("density", q[b]), nu.factor("sf", q[j])),
                                  prec)
        none = none + integral((nu.factor("density", q[a]), nu.factor("sf", q[b]),
                                *(nu.factor("cdf", q[i]) for i in range(2, n))), prec)
    return (*((j, _probability(p)) for j, p in enumerate(found)), (n - 2, _probability(none)))


def range_run(noise: ContinuousNoise, value: ExactInput, low_noise: ContinuousNoise,
              low: ExactInput, high_noise: ContinuousNoise, high: ExactInput, count: int
              ) -> Program[int]:
    """Yield how many noisy queries fall between two noisy bounds before one does not
    (:class:`RangeRun`)."""
    return _event(RangeRun(noise, cast(Fraction, value), low_noise, cast(Fraction, low),
                           high_noise, cast(Fraction, high), count))


def first_in_range(noise: ContinuousNoise, values: tuple[ExactInput, ...]) -> Program[int]:
    """Yield the first noisy query inside the noisy range of the first two (:class:`FirstInRange`)."""
    return _event(FirstInRange(noise, cast(tuple[Fraction, ...], tuple(values))))


@dataclass(frozen=True, slots=True)
class SignedThresholdRun(FiniteEvent):
    """A :class:`ThresholdRun` that also releases whether the crossing noisy value is at least
    ``cut``: (j, values[j] + ν_j >= cut) for the first crossing j, or (len(values), False) if
    none crosses.

    DiPApprox's SVT-Laplace-Leaky-3 (``examples/dipc/svt_3.dip``, from DiPC): the sparse vector
    that, at the first query below the noisy threshold, also releases the sign of the noisy
    query.  With x = threshold + ρ and y = values[j] + ν_j, ``above`` true (crossing y > x):
    P(j, side) = ∫ f_ρ(x) Π_{i<j} F_i(x) ∫_{y>x} f_j(y)·1[y >= cut or y < cut] dy dx; ``above``
    false (crossing y < x): P(j, side) = ∫ f_j(y)·1[...] ∫_{x>y} f_ρ(x) Π_{i<j} S_i(x) dx dy
    (the indicator a no-noise factor at ``cut``); P(none) = ∫ f_ρ Π_i (stay) — nested integrals
    of positive integrands (:mod:`._nested_quadrature`), enclosed relatively prec/4 bits wide.
    """

    threshold_noise: ContinuousNoise
    threshold: Fraction
    query_noise: ContinuousNoise
    values: tuple[Fraction, ...]
    cut: Fraction
    above: bool = True

    def __post_init__(self) -> None:
        _check_noise(self.threshold_noise, "threshold_noise")
        _check_noise(self.query_noise, "query_noise")
        _check_rational_scale(self.threshold_noise, "threshold_noise")
        _check_rational_scale(self.query_noise, "query_noise")
        object.__setattr__(self, "threshold", _exact(self.threshold, "threshold"))
        object.__setattr__(self, "cut", _exact(self.cut, "cut"))
        _check_values(self.values)
        if len(self.values) > MAX_VECTOR_VALUES:
            raise InvalidArgument(f"values has {len(self.values)} entries; a SignedThresholdRun "
                                  f"takes at most {MAX_VECTOR_VALUES} (MAX_VECTOR_VALUES)")
        object.__setattr__(self, "values", tuple(_exact(v, f"values[{i}]")
                                                 for i, v in enumerate(self.values)))
        if not isinstance(self.above, bool):
            raise InvalidArgument(f"above={self.above!r} must be a bool")

    def accepts(self, value: object) -> bool:
        """(j, side) for j < len(values), and (len(values), False)."""
        if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bool)):
            return False
        j, side = value
        n = len(self.values)
        return (isinstance(j, int) and not isinstance(j, bool)
                and (0 <= j < n or (j == n and not side)))

    def branches(self, prec: int) -> list[tuple[object, Prob]]:
        """Each (stopping index, side of ``cut``) with its enclosed probability."""
        return list(_signed_run_law(self, prec))

    def draw(self, rng: np.random.Generator) -> tuple[int, bool]:
        """The outcome drawn exactly from :meth:`branches`' law."""
        return cast(tuple[int, bool], _draw(rng, self.branches))


@lru_cache(maxsize=256)
def _signed_run_law(event: SignedThresholdRun, prec: int) -> tuple[tuple[object, Prob], ...]:
    stay: Part = "cdf" if event.above else "sf"
    rho, nu = event.threshold_noise, event.query_noise
    prefix: tuple[Factor, ...] = (rho.factor("density", event.threshold),)
    out: list[tuple[object, Prob]] = []
    for j, v in enumerate(event.values):
        for side in (True, False):
            crossing = (nu.factor("density", v), NoNoise().factor("cdf" if side else "sf",
                                                                   event.cut))
            box = (_nested(prefix, crossing, prec) if event.above
                   else _nested(crossing, prefix, prec))
            out.append(((j, side), _probability(box)))
        prefix = (*prefix, nu.factor(stay, v))
    out.append(((len(event.values), False), _tight(integral(prefix, prec))))
    return tuple(out)


def signed_first_below(threshold_noise: ContinuousNoise, threshold: ExactInput,
                       query_noise: ContinuousNoise, values: tuple[ExactInput, ...],
                       cut: ExactInput) -> Program[tuple[int, bool]]:
    """Yield the first index below one shared noisy threshold and whether that noisy value is at
    least ``cut`` (:class:`SignedThresholdRun`)."""
    return _event(SignedThresholdRun(threshold_noise, cast(Fraction, threshold), query_noise,
                                     cast(tuple[Fraction, ...], tuple(values)),
                                     cast(Fraction, cut), False))


def law_of(event: FiniteEvent, prec: int = DEFAULT_PRECISION) -> tuple[tuple[object, Prob], ...]:
    """The enclosed law of one of this module's events (what the exact interpreter reads)."""
    if not isinstance(event, ThresholdTest | NoiseContest | ThresholdRun | NoisyArgmax
                                 | ThresholdVector | NoisyBetween | RangeRun | FirstInRange
                                 | SignedThresholdRun):
        raise InvalidArgument(f"event={event!r} is not a continuous-noise event")
    check_int(prec, "prec", minimum=16)
    return tuple(event.branches(prec))


def clear_caches() -> None:
    """Forget every memoized law and integral (for benchmarks that time cold computations)."""
    _test_law.cache_clear()
    _run_law.cache_clear()
    _argmax_law.cache_clear()
    _vector_law.cache_clear()
    _between_law.cache_clear()
    _range_run_law.cache_clear()
    _first_in_range_law.cache_clear()
    _signed_run_law.cache_clear()
    from ._nested_quadrature import nested_integral
    nested_integral.cache_clear()
    _closed_form.cache_clear()
    _quadrature.integral.cache_clear()


def exceeds(noise: ContinuousNoise, shift: ExactInput, threshold: ExactInput) -> Program[bool]:
    """Yield the event ``shift + Z > threshold`` (validated now; :class:`ThresholdTest`)."""
    return _event(ThresholdTest(noise, cast(Fraction, shift), cast(Fraction, threshold)))


def beats(noise1: ContinuousNoise, shift1: ExactInput, noise2: ContinuousNoise,
          shift2: ExactInput) -> Program[bool]:
    """Yield the event ``shift1 + Z1 > shift2 + Z2`` (:class:`NoiseContest`)."""
    return _event(NoiseContest(noise1, cast(Fraction, shift1), noise2, cast(Fraction, shift2)))


def first_above(threshold_noise: ContinuousNoise, threshold: ExactInput | Real,
                query_noise: ContinuousNoise | NoNoise, values: tuple[ExactInput, ...]) -> Program[int]:
    """Yield the first index above one shared noisy threshold (:class:`ThresholdRun`)."""
    return _event(ThresholdRun(threshold_noise, cast(Fraction, threshold), query_noise,
                               cast(tuple[Fraction, ...], tuple(values)), True))


def first_below(threshold_noise: ContinuousNoise, threshold: ExactInput | Real,
                query_noise: ContinuousNoise | NoNoise, values: tuple[ExactInput, ...]) -> Program[int]:
    """Yield the first index below one shared noisy threshold (:class:`ThresholdRun`)."""
    return _event(ThresholdRun(threshold_noise, cast(Fraction, threshold), query_noise,
                               cast(tuple[Fraction, ...], tuple(values)), False))


def argmax(noise: ContinuousNoise, values: tuple[ExactInput, ...]) -> Program[int]:
    """Yield the index of the largest noisy value (report noisy max; :class:`NoisyArgmax`)."""
    return _event(NoisyArgmax(noise, cast(tuple[Fraction, ...], tuple(values)), True))


def argmin(noise: ContinuousNoise, values: tuple[ExactInput, ...]) -> Program[int]:
    """Yield the index of the smallest noisy value (report noisy min; :class:`NoisyArgmax`)."""
    return _event(NoisyArgmax(noise, cast(tuple[Fraction, ...], tuple(values)), False))


def _event(choice: FiniteEvent) -> Program[_E]:
    value = yield choice
    return cast(_E, value)

