"""Divergences and likelihood ratios of laws made of atoms and shifted continuous densities.

A law here is a finite part (atoms) plus components ``w_c · f(y − c)``: the density of
``c + Z`` for one continuous noise law Z (the released values of
:mod:`privref.reference.continuous_release`; Laplace and Gaussian are symmetric, so ``c − Z``
is the same component).  Atoms and densities are mutually singular, so every divergence is
the atoms' plus the densities'.  Everything is computed in arb ball arithmetic and returned
as exact-endpoint bounds; :mod:`privref.audits._released` turns them into verdicts.

* **Laplace, scale b.**  Sort the offsets c_1 < … < c_m of both laws.  On a piece
  [c_k, c_{k+1}], with u = (y − c_k)/b, p(y) − t·q(y) = (A·e^u + B·e^{−u})/(2b) where
  A = Σ_{c >= c_{k+1}} d_c e^{−(c − c_k)/b}, B = Σ_{c <= c_k} d_c e^{−(c_k − c)/b} and
  d_c = w_P(c) − t·w_Q(c).  A·e^u + B·e^{−u} changes sign at most once, at
  e^{2u*} = −B/A, so ∫ (p − t·q)_+ is a sum of closed forms; the two tails are one
  exponential each.  The ratio p/q on a piece is (a·z + b')/(c·z + d') in z = e^{2u}, monotone,
  and constant beyond the extreme offsets, so sup p/q (pure ε) is its largest value at an
  offset.  A sign is decided by the ball or, when the ball holds 0, exactly: with rational
  weights, offsets, scale and t = c·e^ε, every coefficient is a sum Σ c_x·e^x over rationals x
  (:func:`~privref.reference.reals.exp_form`), which is 0 only when every c_x is 0; otherwise
  the piece contributes the sound bounds [max(0, ∫ g), ∫ (A₊e^u + B₊e^{−u})].
* **Gaussian, σ.**  One offset in each law: the region p > t·q is a half-line
  {y > y0} or {y < y0} with y0 = (s + r)/2 − σ² ln(w_P/(t·w_Q))/(s − r), so
  E_t = w_P·Φ(±(s − y0)/σ) − t·w_Q·Φ(±(r − y0)/σ) (the analytic Gaussian mechanism of Balle
  and Wang 2018, Theorem 8, with the masses).  A mixture of several offsets is enclosed only
  by [max(0, Σw_P − t·Σw_Q), Σw_P], and its ratio by [its tail limits, max_c w_P(c)/w_Q(c)]
  (the mediant inequality), unbounded when P's extreme offset lies beyond Q's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ._arb import arb, ball, real_ball, to_interval, working_precision
from .continuous_noise import GaussianNoise, LaplaceNoise
from .reals import Prob, Real, exp_form, prob_as_interval

__all__ = ["Ratio", "ReleasedLaw", "ReleasedRange", "density_ratios", "divergence"]

_GUARD = 32
"""Bits of working precision above the requested one."""


@dataclass(frozen=True, slots=True)
class ReleasedRange:
    """The event "the released value lies in (lo, hi)" (endpoints as text: they may be
    irrational, e.g. the crossing point of two densities); None is ∓∞."""

    lo: str | None
    hi: str | None

    def __str__(self) -> str:
        return f"value in ({self.lo or '-inf'}, {self.hi or '+inf'})"

    __repr__ = __str__


@dataclass(frozen=True, slots=True)
class ReleasedLaw:
    """A law of atoms (outcome -> probability) plus shifted densities (offset -> weight)."""

    atoms: Mapping[Any, Prob]
    weights: Mapping[Fraction, Prob]


def _ball(p: Prob) -> arb:
    box = prob_as_interval(p)
    return ball(box.lo) if box.is_point else ball(box.lo).union(ball(box.hi))


def _t_ball(t: Real | Fraction) -> arb:
    return ball(t) if isinstance(t, Fraction) else real_ball(t)


def _pos(x: arb) -> bool:
    return bool(x > 0)


def _neg(x: arb) -> bool:
    return bool(x < 0)


Terms = dict[Fraction, Fraction]
"""Σ_x c_x·e^x with rational c_x and distinct rational x: exactly 0 iff every c_x is 0, since
e^x for distinct rationals x are linearly independent over the algebraic numbers
(Lindemann–Weierstrass).  This decides the tight claims (E_t exactly 0), where no ball can."""


def _sign(x: arb, terms: Terms | None) -> int | None:
    """1 or −1 when the ball proves it, 0 when ``terms`` (the same value) vanish, else None."""
    if _pos(x):
        return 1
    if _neg(x):
        return -1
    if terms is not None and not any(terms.values()):
        return 0
    return None


def _put(terms: Terms | None, exponent: Fraction, coef: Fraction) -> None:
    if terms is not None:
        terms[exponent] = terms.get(exponent, Fraction(0)) + coef


def _gap_terms(wp: Prob, wq: Prob, form: tuple[Fraction, Fraction] | None, shift: Fraction,
               terms: Terms | None) -> Terms | None:
    """Add (w_P − t·w_Q)·e^{shift} to ``terms``; None once anything is not rational-exact."""
    if terms is None or form is None or not isinstance(wp, Fraction) \
            or not isinstance(wq, Fraction):
        return None
    c, eps = form
    _put(terms, shift, wp)
    _put(terms, shift + eps, -c * wq)
    return terms


# ------------------------------------------------------------------ the divergence E_t


@dataclass
class _Sum:
    """Proved lower and upper bounds of a sum of non-negative parts, with the event."""

    lo: Fraction = Fraction(0)
    hi: Fraction = Fraction(0)
    event: list[Any] | None = None

    def add(self, part: arb, lower_only: arb | None = None, label: Any = None) -> None:
        """Add ``part`` (>= 0 as a whole), or the bounds [max(0, lower_only), part]."""
        box = to_interval(part, "a divergence")
        if lower_only is None:
            self.lo += max(box.lo, Fraction(0))
            if label is not None and box.lo > 0 and self.event is not None:
                self.event.append(label)
        else:
            self.lo += max(to_interval(lower_only, "a divergence").lo, Fraction(0))
        self.hi += max(box.hi, Fraction(0))


def _atoms(mp: ReleasedLaw, mq: ReleasedLaw, t: arb, form: tuple[Fraction, Fraction] | None, acc: _Sum
           ) -> None:
    for o in dict.fromkeys([*mp.atoms, *mq.atoms]):
        wp, wq = mp.atoms.get(o, Fraction(0)), mq.atoms.get(o, Fraction(0))
        gap = _ball(wp) - t * _ball(wq)
        _signed(gap, _gap_terms(wp, wq, form, Fraction(0), {}), acc, o)


def _inverse_scale(noise: LaplaceNoise | GaussianNoise) -> arb:
    s = ball(noise.scale)
    return 1 / (s if noise.unit is None else s * real_ball(noise.unit))


def _laplace(noise: LaplaceNoise, mp: ReleasedLaw, mq: ReleasedLaw, t: arb,
             form: tuple[Fraction, Fraction] | None, acc: _Sum) -> None:
    inv_b = _inverse_scale(noise)
    b_exact = noise.scale if noise.unit is None else None  # the exponents are rational
    kinks = sorted({*mp.weights, *mq.weights})
    zero = Fraction(0)

    def weight(ref: Fraction, cs: list[Fraction]) -> tuple[arb, Terms | None]:
        """Σ_{c in cs} d_c e^{−|c − ref|/b}, as a ball and (when exact) as terms."""
        total = arb(0)
        terms: Terms | None = {} if b_exact is not None else None
        for c in cs:
            wp, wq = mp.weights.get(c, zero), mq.weights.get(c, zero)
            total += (_ball(wp) - t * _ball(wq)) * (-ball(abs(c - ref)) * inv_b).exp()
            if b_exact is not None:
                terms = _gap_terms(wp, wq, form, -abs(c - ref) / b_exact, terms)
        return total, terms

    # the tails: one exponential each, ∫ = ½·coefficient
    half = arb(1) / 2
    for at, label in ((kinks[0], ReleasedRange(None, str(kinks[0]))),
                      (kinks[-1], ReleasedRange(str(kinks[-1]), None))):
        coef, terms = weight(at, kinks)
        _signed(half * coef, terms, acc, label)
    for k in range(len(kinks) - 1):
        lo_c, hi_c = kinks[k], kinks[k + 1]
        a = weight(lo_c, [c for c in kinks if c >= hi_c])
        b = weight(lo_c, [c for c in kinks if c <= lo_c])
        length = ball(hi_c - lo_c) * inv_b
        exact = None if b_exact is None else (hi_c - lo_c) / b_exact
        _piece(a, b, length, exact, acc, (lo_c, hi_c))


def _signed(part: arb, terms: Terms | None, acc: _Sum, label: Any) -> None:
    """Add max(part, 0) (a sign decided by the ball or by ``terms``), else [0, part₊]."""
    sign = _sign(part, terms)
    if sign == 1:
        acc.add(part, label=label)
    elif sign is None:
        acc.add(part.upper().union(arb(0)), lower_only=arb(0))


def _piece(a_t: tuple[arb, Terms | None], b_t: tuple[arb, Terms | None], length: arb,
           length_exact: Fraction | None, acc: _Sum, ends: tuple[Fraction, Fraction]) -> None:
    """Add ½∫_0^L (a·e^u + b·e^{−u})_+ du (the piece's share of E_t, times b cancels 1/2b)."""
    (a, a_terms), (b, b_terms) = a_t, b_t
    half = arb(1) / 2
    grow, shrink = length.expm1(), -(-length).expm1()  # e^L − 1, 1 − e^{−L}
    whole = half * (a * grow + b * shrink)
    label = ReleasedRange(str(ends[0]), str(ends[1]))
    sa, sb = _sign(a, a_terms), _sign(b, b_terms)
    if sa is not None and sb is not None and sa >= 0 and sb >= 0:
        if sa + sb > 0:
            acc.add(whole, label=label)
        return
    if sa is not None and sb is not None and sa <= 0 and sb <= 0:
        return
    # one sign change: decide the signs of g at the two ends (exactly when the terms vanish)
    g0 = _sign(a + b, _add_terms(a_terms, b_terms))
    g_len = _sign(a * length.exp() + b * (-length).exp(),
                  _add_terms(_shift_terms(a_terms, length_exact),
                             _shift_terms(b_terms, None if length_exact is None
                                          else -length_exact)))
    rising = sa == 1 and sb == -1  # then positive beyond u* = ½ ln(−b/a); else below it
    if g0 is not None and g_len is not None and (sa, sb) in ((1, -1), (-1, 1)):
        if (rising and g_len <= 0) or (not rising and g0 <= 0):
            return
        if (rising and g0 >= 0) or (not rising and g_len >= 0):
            acc.add(whole, label=label)
            return
        e = (-b / a).sqrt()  # e^{u*}, strictly inside the piece
        if rising:
            part = half * (a * (length.exp() - e) + b * (1 / e - (-length).exp()))
        else:
            part = half * (a * (e - 1) + b * (1 - 1 / e))
        acc.add(part, label=label)
        return
    acc.add(half * (_plus(a) * grow + _plus(b) * shrink), lower_only=whole)


def _add_terms(x: Terms | None, y: Terms | None) -> Terms | None:
    if x is None or y is None:
        return None
    out = dict(x)
    for e, c in y.items():
        out[e] = out.get(e, Fraction(0)) + c
    return out


def _shift_terms(x: Terms | None, by: Fraction | None) -> Terms | None:
    """``x`` times e^{by}."""
    if x is None or by is None:
        return None
    return {e + by: c for e, c in x.items()}


def _plus(x: arb) -> arb:
    """An upper bound on max(x, 0)."""
    return arb(0) if _neg(x) else x.upper().union(arb(0)).upper()


def _phi(x: arb) -> arb:
    return (-x / arb(2).sqrt()).erfc() / 2


def _gaussian(noise: GaussianNoise, mp: ReleasedLaw, mq: ReleasedLaw, t: arb,
              form: tuple[Fraction, Fraction] | None, acc: _Sum) -> None:
    total_p = sum((_ball(w) for w in mp.weights.values()), arb(0))
    total_q = sum((_ball(w) for w in mq.weights.values()), arb(0))
    if not mq.weights:
        acc.add(total_p, label=ReleasedRange(None, None))
        return
    if not mp.weights:
        return
    if len(mp.weights) > 1 or len(mq.weights) > 1:  # a mixture: the bounds of the docstring
        acc.add(total_p, lower_only=total_p - t * total_q)
        return
    (s, wp), = mp.weights.items()
    (r, wq), = mq.weights.items()
    a, c = _ball(wp), t * _ball(wq)
    if s == r:
        _signed(a - c, _gap_terms(wp, wq, form, Fraction(0), {}), acc, ReleasedRange(None, None))
        return
    inv_sigma = _inverse_scale(noise)
    sigma = 1 / inv_sigma
    y0 = ball(s + r) / 2 - sigma * sigma * (a / c).log() / ball(s - r)
    if s > r:
        part = a * _phi((ball(s) - y0) * inv_sigma) - c * _phi((ball(r) - y0) * inv_sigma)
        label = ReleasedRange(_text(y0), None)
    else:
        part = a * _phi((y0 - ball(s)) * inv_sigma) - c * _phi((y0 - ball(r)) * inv_sigma)
        label = ReleasedRange(None, _text(y0))
    _signed(part, None, acc, label)


def _text(x: arb) -> str:
    return x.str(10, radius=False)


def divergence(noise: LaplaceNoise | GaussianNoise | None, mp: ReleasedLaw, mq: ReleasedLaw,
               t: Real | Fraction, prec: int, with_event: bool = True
               ) -> tuple[Fraction, Fraction, tuple[Any, ...]]:
    """(lower, upper, event): proved bounds on ∫ (p − t·q)_+ over atoms and released values,
    at ``prec`` bits (sound at every precision, tighter as it grows), and the event where
    p > t·q is proved (atoms and :class:`ReleasedRange` pieces; empty unless ``with_event``)."""
    acc = _Sum(event=[] if with_event else None)
    form = exp_form(t)
    with working_precision(prec + _GUARD):
        tb = _t_ball(t)
        _atoms(mp, mq, tb, form, acc)
        if isinstance(noise, LaplaceNoise):
            if mp.weights and not mq.weights:
                acc.add(sum((_ball(w) for w in mp.weights.values()), arb(0)),
                        label=ReleasedRange(None, None))
            elif mp.weights:
                _laplace(noise, mp, mq, tb, form, acc)
        elif isinstance(noise, GaussianNoise):
            _gaussian(noise, mp, mq, tb, form, acc)
    return acc.lo, max(acc.hi, acc.lo), tuple(acc.event or ())


# ------------------------------------------------------------------ the density ratio


Ratio = tuple[tuple[Fraction, Fraction | None], Any]
"""((lower, upper or None for unbounded), event) of the density ratio p/q at one candidate."""


def _laplace_ratios(noise: LaplaceNoise | GaussianNoise, mp: ReleasedLaw, mq: ReleasedLaw
                    ) -> list[Ratio]:
    """p/q at every offset.  Beyond the extreme offsets the ratio is constant (every component
    lies on one side, p(y) = p(c_1)·e^{(y − c_1)/b} on the left), so these are all the
    candidates for the supremum."""
    inv_b = _inverse_scale(noise)

    def density(law: ReleasedLaw, at: Fraction) -> arb:
        """Σ w_c e^{−|at − c|/b}: the density at ``at`` times 2b."""
        total = arb(0)
        for c, w in law.weights.items():
            total += _ball(w) * (-ball(abs(c - at)) * inv_b).exp()
        return total

    out: list[Ratio] = []
    for at in sorted({*mp.weights, *mq.weights}):
        ratio = to_interval(density(mp, at) / density(mq, at), "a likelihood ratio")
        out.append(((ratio.lo, ratio.hi), ReleasedRange(str(at), str(at))))
    return out


def _gaussian_ratios(mp: ReleasedLaw, mq: ReleasedLaw) -> list[Ratio] | None:
    """None when the ratio is unbounded (P's extreme offset beyond Q's); else the tail limits
    (lower bounds) and the mediant bound max_c w_P/w_Q (upper), UNDECIDED-wide unless equal."""
    if max(mp.weights) > max(mq.weights) or min(mp.weights) < min(mq.weights):
        return None
    lows: list[Ratio] = []
    for c, label in ((max(mq.weights), ReleasedRange("+inf", None)),
                     (min(mq.weights), ReleasedRange(None, "-inf"))):
        wp = mp.weights.get(c, Fraction(0))
        lows.append(((to_interval(_ball(wp) / _ball(mq.weights[c]), "a ratio").lo, Fraction(1)),
                     label))
    upper = Fraction(0)
    for c, wp in mp.weights.items():
        wq = mq.weights.get(c)
        if wq is None:  # the mediant bound is infinite; the ratio may still be bounded
            return [((lo, None), label) for (lo, _), label in lows]
        upper = max(upper, to_interval(_ball(wp) / _ball(wq), "a ratio").hi)
    return [((lo, upper), label) for (lo, _), label in lows]


def density_ratios(noise: LaplaceNoise | GaussianNoise, mp: ReleasedLaw, mq: ReleasedLaw,
                   prec: int) -> list[Ratio] | None:
    """Bounds on sup p/q over the released values (both laws with densities): one per
    candidate point (module docstring); None when the ratio is proved unbounded."""
    with working_precision(prec + _GUARD):
        if isinstance(noise, LaplaceNoise):
            return _laplace_ratios(noise, mp, mq)
        return _gaussian_ratios(mp, mq)
