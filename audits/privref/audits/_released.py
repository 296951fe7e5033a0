"""Pair computations for laws that release a continuous noisy value (Laplace or Gaussian).

The divergence ∫ (p − t·q)_+ and the density ratio of two laws made of atoms and shifted
densities are computed by :mod:`privref.reference.released_density` (closed forms in arb,
exact zeros decided symbolically); this module splits a pair of output laws into that form
and turns the bounds into the auditor's answers.  The privacy loss of a released value is a
supremum over a continuum of outputs: it is decided from the density ratio, never by
sampling.

ε at δ > 0: the least t with E_t <= δ, by bisection on rationals (E_t is decreasing in t): a
step moves an end only when the bounds on E_t decide its side, so [t_lo, t_hi] always holds
the true e^ε.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from privref.reference.continuous_noise import GaussianNoise, LaplaceNoise
from privref.reference.errors import UnsupportedProgram
from privref.reference.program import ContinuousChoice, Distribution
from privref.reference.reals import Interval, Prob, Real, prob_add, prob_as_interval
from privref.reference.released_density import (
    ReleasedLaw,
    ReleasedRange,
    density_ratios,
    divergence,
)

from ._pair import PairEpsilon

__all__ = ["applies", "epsilon_at_delta", "hockey_stick"]

_BISECTION_BITS = 48
"""Relative width of [t_lo, t_hi] at which the bisection stops (the auditor settles at 2^-40)."""

_MAX_STEPS = 400
"""Most bisection and doubling steps for one pair."""

_MAX_T = Fraction(2) ** 256
"""Largest t = e^ε tried when the pure loss does not bound the search (Gaussian noise)."""

Noise = LaplaceNoise | GaussianNoise


def applies(p: Distribution[Any], q: Distribution[Any]) -> bool:
    """True when either law has a continuous component (this module decides the pair)."""
    return any(isinstance(a.noise, ContinuousChoice) for d in (p, q) for a, _ in d.components)


def _split(p: Distribution[Any], q: Distribution[Any]) -> tuple[Noise | None, ReleasedLaw,
                                                                   ReleasedLaw]:
    noises: list[Noise] = []
    laws = []
    for dist in (p, q):
        weights: dict[Fraction, Prob] = {}
        for aff, w in dist.components:
            choice = aff.noise
            noise = getattr(choice, "noise", None)
            if not isinstance(choice, ContinuousChoice) or not isinstance(noise, Noise):
                raise UnsupportedProgram(f"noise {choice!r}: a pair mixes continuous and other "
                                         "noise, which the auditor cannot compare")
            if noise not in noises:
                noises.append(noise)
            c = Fraction(aff.offset)
            weights[c] = prob_add(weights[c], w) if c in weights else w
        laws.append(ReleasedLaw(dist.as_dict(), weights))
    if len(noises) > 1:
        raise UnsupportedProgram(f"the pair releases values with different noise laws "
                                 f"{[repr(n) for n in noises]}; the auditor needs one law shared "
                                 "by both outputs")
    return (noises[0] if noises else None), laws[0], laws[1]


def hockey_stick(p: Distribution[Any], q: Distribution[Any], t: Real | Fraction, prec: int
                 ) -> tuple[Prob, Fraction, tuple[Any, ...]]:
    """(enclosure of ∫ (p − t·q)_+, a proved lower bound on it, the event where p > t·q is proved).

    The event lists atoms and :class:`~privref.reference.released_density.ReleasedRange`
    pieces.  Sound at every precision; the width shrinks as ``prec`` grows.
    """
    noise, mp, mq = _split(p, q)
    lo, hi, event = divergence(noise, mp, mq, t, prec)
    box = Interval(lo, hi).rounded(prec)
    return box, box.lo, event


def _pure(p: Distribution[Any], q: Distribution[Any], prec: int) -> PairEpsilon:
    """sup p/q over atoms (exact intervals) and released values (the density ratio)."""
    noise, mp, mq = _split(p, q)
    lo, hi = Fraction(1), Fraction(1)
    event: tuple[Any, ...] = ()
    for o, w in mp.atoms.items():
        wp, wq = prob_as_interval(w), prob_as_interval(mq.atoms.get(o, Fraction(0)))
        if wp.lo > 0 and wq.hi == 0:
            return PairEpsilon(Fraction(1), None, None, True, (o,))
        if wq.lo == 0:
            if wp.hi > 0:
                return PairEpsilon(lo, None, None, False, event)
            continue
        if wp.lo / wq.hi > lo:
            lo, event = wp.lo / wq.hi, (o,)
        hi = max(hi, wp.hi / wq.lo)
    if mp.weights and not mq.weights:
        return PairEpsilon(Fraction(1), None, None, True, (ReleasedRange(None, None),))
    if noise is not None and mp.weights:
        ratios = density_ratios(noise, mp, mq, prec)
        if ratios is None:
            return PairEpsilon(Fraction(1), None, None, True, (ReleasedRange(None, None),))
        for (r_lo, r_hi), label in ratios:
            if r_lo > lo:
                lo, event = r_lo, (label,)
            if r_hi is None:
                return PairEpsilon(lo, None, None, False, event)
            hi = max(hi, r_hi)
    box = Interval(lo, max(hi, lo)).rounded(prec)
    return PairEpsilon(max(box.lo, Fraction(1)), box.hi, None, False, event)


def _side(bounds: tuple[Fraction, Fraction, tuple[Any, ...]], delta: Fraction) -> int | None:
    """-1: E_t <= δ proved; 1: E_t > δ proved; None: undecided."""
    lo, hi, _ = bounds
    if hi <= delta:
        return -1
    if lo > delta:
        return 1
    return None


def epsilon_at_delta(p: Distribution[Any], q: Distribution[Any], delta: Fraction, prec: int
                     ) -> PairEpsilon:
    """e^ε at ``delta`` for the ordered pair (P, Q), enclosed; ``infinite`` only when proved."""
    if delta == 0:
        return _pure(p, q, prec)
    noise, mp, mq = _split(p, q)
    at: Callable[[Fraction], tuple[Fraction, Fraction, tuple[Any, ...]]] = \
        lambda t: divergence(noise, mp, mq, t, prec, False)  # noqa: E731
    if _side(at(Fraction(1)), delta) == -1:
        return PairEpsilon(Fraction(1), Fraction(1), Fraction(1), False, ())
    pure = _pure(p, q, prec)
    lo, hi = Fraction(1), pure.t_hi
    steps = 0
    if hi is None:  # square t until E_t <= δ is proved
        t = Fraction(2)
        while t <= _MAX_T and steps < _MAX_STEPS:
            steps += 1
            side = _side(at(t), delta)
            if side == -1:
                hi = t
                break
            if side == 1:
                lo = t
            t *= t
        if hi is None:
            free_lo, _, free_event = divergence(noise, mp, mq, _MAX_T, prec)
            return PairEpsilon(lo, None, None, pure.infinite and free_lo > delta, free_event)
    while steps < _MAX_STEPS and (hi - lo) * (1 << _BISECTION_BITS) > hi:
        steps += 1
        mid = (lo + hi) / 2
        short = mid.limit_denominator(1 << (_BISECTION_BITS + 16))
        if lo < short < hi:
            mid = short
        side = _side(at(mid), delta)
        if side == -1:
            hi = mid
        elif side == 1:
            lo = mid
        else:
            break
    return PairEpsilon(lo, hi, None, False, divergence(noise, mp, mq, lo, prec)[2])
