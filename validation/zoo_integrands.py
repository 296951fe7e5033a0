"""The zoo's continuous-noise events as laws built from the exact core's pieces, and their enclosures.

The witnesses of the zoo's Laplace- and exponential-noise mechanisms (the sparse vector's
outcome patterns, NumericalSVT's prefixes, report-noisy-max's left tails, the Laplace
mechanism's tails) all have probabilities of one shape: a signed sum of products of

* one-dimensional integrals ``∫ Π factors dx`` of the core's density, CDF and survival
  factors (``noise.factor(part, location)`` of :mod:`privref.reference.continuous_noise`'s
  noises, held here as :class:`Piece` objects; e.g. the noisy threshold's density times one
  CDF or survival function per query), enclosed by the core's closed form
  (:func:`privref.reference.continuous_noise.integral`), and
* threshold tests ``P(shift + Z > threshold)`` or their complements
  (:class:`privref.reference.continuous_noise.ThresholdTest`), enclosed by the core's
  :func:`~privref.reference.continuous_noise.law_of`.

A :data:`Law` holds such a sum symbolically; :func:`enclose` encloses it with the core alone,
so the zoo's numbers have one source of truth.  The signs come only from released values in a
window (Algorithm 3's "⊤ with a value in [lo, hi)", see :func:`released_in`; NumericalSVT's
two-sided release windows), which are written as differences of such terms.
:mod:`validation.zoo_laws` integrates the same laws independently, as exact sums Σ c·e^ν, for
the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from privref.reference.continuous_noise import (
    ContinuousNoise,
    NoNoise,
    ThresholdTest,
    integral,
    law_of,
)
from privref.reference.errors import InvalidArgument
from privref.reference.reals import DEFAULT_PRECISION, Interval, prob_as_interval

__all__ = ["ONE", "Integrand", "Law", "Piece", "Pieces", "Term", "enclose", "expand", "integrand",
           "product", "released_in", "tail"]


@dataclass(frozen=True, slots=True)
class Piece:
    """The density, CDF or survival function (``part``) of ``location + Z`` at x, Z ~ ``noise``
    (:class:`~privref.reference.continuous_noise.NoNoise`: Z = 0, a step; no density): the
    core's integrand factor ``noise.factor(part, location)``."""

    noise: ContinuousNoise | NoNoise
    part: Literal["density", "cdf", "sf"]
    location: Fraction


Integrand = tuple[Piece, ...]
"""One core integrand: exactly one density, the others CDFs or survival functions."""


@dataclass(frozen=True, slots=True)
class Term:
    """``sign`` · Π P(test = outcome) over ``tests`` · Π ∫ Π factors dx over ``integrals``."""

    sign: int
    tests: tuple[tuple[ThresholdTest, bool], ...] = ()
    integrals: tuple[Integrand, ...] = ()


Law = tuple[Term, ...]
"""A probability as the sum of its terms (exact symbolically; enclosed by :func:`enclose`)."""

ONE: Law = (Term(1),)
"""The certain event."""


def tail(noise: ContinuousNoise, shift: Fraction, threshold: Fraction, above: bool) -> Law:
    """P(shift + Z > threshold) (``above``) or P(shift + Z <= threshold), Z ~ ``noise``."""
    return (Term(1, ((ThresholdTest(noise, shift, threshold), above),)),)


def integrand(factors: Integrand) -> Law:
    """∫ Π ``factors`` dx (one density among them)."""
    return (Term(1, (), (factors,)),)


def product(*laws: Law) -> Law:
    """The product of independent laws (terms multiplied out)."""
    out: Law = ONE
    for law in laws:
        out = tuple(Term(a.sign * b.sign, a.tests + b.tests, a.integrals + b.integrals)
                    for a in out for b in law)
    return out


Pieces = tuple[tuple[int, Law, Integrand], ...]
"""A factor g(x) = Σ sign · constant law · Π factors of x (:func:`released_in`)."""


def released_in(noise: ContinuousNoise, value: Fraction, lo: Fraction | None, hi: Fraction | None,
                ) -> Pieces:
    """The factor g(x) = P(max(x, lo) <= value + Z < hi) of "crosses x, released in [lo, hi)".

    Returned as signed pieces (sign, constant law, factors of x) with
    g = Σ sign · constant · Π factors: with S(y) = P(value + Z > y) (ties have probability 0),
    g(x) = S(x)·1{lo <= x < hi} - S(hi)·1{x < hi} + S(lo)·1{x < lo}
    (lo None: -∞, hi None: +∞, dropping the terms that vanish).
    """
    if lo is not None and hi is not None and lo >= hi:
        raise InvalidArgument(f"lo={lo} must be < hi={hi}")
    step = NoNoise()
    window = tuple(f for f in (None if lo is None else Piece(step, "cdf", lo),
                               None if hi is None else Piece(step, "sf", hi)) if f is not None)
    pieces: list[tuple[int, Law, Integrand]] = [(1, ONE, (Piece(noise, "sf", value), *window))]
    if hi is not None:
        pieces.append((-1, tail(noise, value, hi, True), (Piece(step, "sf", hi),)))
    if lo is not None:
        pieces.append((1, tail(noise, value, lo, True), (Piece(step, "sf", lo),)))
    return tuple(pieces)


def expand(density: Piece, factors: Sequence[Piece | Pieces]) -> Law:
    """∫ density · Π factors dx, where each factor is a :class:`Piece` or signed pieces
    (:func:`released_in`); the pieces are multiplied out into terms."""
    partial: list[tuple[int, Law, Integrand]] = [(1, ONE, (density,))]
    for f in factors:
        if isinstance(f, Piece):
            partial = [(s, c, (*fs, f)) for s, c, fs in partial]
        else:
            partial = [(s * t, product(c, d), (*fs, *gs)) for s, c, fs in partial
                       for t, d, gs in f]
    terms: list[Term] = []
    for sign, constant, fs in partial:
        terms += [Term(sign * t.sign, t.tests, (*t.integrals, fs)) for t in constant]
    return tuple(terms)


def enclose(law: Law, prec: int = DEFAULT_PRECISION) -> Interval:
    """A rigorous enclosure of ``law``, from the core's enclosures of its pieces, clipped to [0, 1].

    Each piece is enclosed relatively ``prec`` bits wide; a signed sum may lose relative
    precision to cancellation (the width is what it is, never guessed away).  Raises
    AssertionError if the enclosure is entirely negative (a wrongly built law).
    """
    total = Interval.point(0)
    for term in law:
        value = Interval.point(term.sign)
        for test, outcome in term.tests:
            value = (value * prob_as_interval(dict(law_of(test, prec))[outcome])).rounded(prec + 16)
        for factors in term.integrals:
            core = tuple(f.noise.factor(f.part, f.location) for f in factors)
            value = (value * integral(core, prec)).rounded(prec + 16)
        total = total + value
    if total.hi < 0:
        raise AssertionError(f"a probability enclosed as {total}, which is negative")
    return Interval(max(total.lo, Fraction(0)), min(max(total.hi, Fraction(0)), Fraction(1)))
