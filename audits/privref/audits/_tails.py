"""Pair computations for output laws with infinite-support (affine integer noise) components.

An output law here is a finite part (atoms) plus components ``w_c · law(Z + c)``
for one integer noise law Z from :mod:`privref.reference.discrete_noise` (an
``Affine(noise, sign, c)`` component has the law of Z + c because every
supported law is symmetric).  Nothing is truncated silently:

* **Geometric and discrete Laplace** (P(z) = C·q^{|z|}).  Let W = [lo, hi]
  cover every offset and integer atom of P and Q.  For o > hi every term is
  C·q^{o-c}, so P(o) = A_P·q^o and Q(o) = A_Q·q^o: the ratio is constant on
  the tail, the sign of P(o) - t·Q(o) is constant there, and the tail adds
  exactly max(0, Σ_{o>hi} P(o) - t·Σ_{o>hi} Q(o)) to the hockey-stick sum.  Each
  tail is therefore one exact row (an :class:`IntegerTail` event), and the
  problem becomes finite and exact.  Values are kept as Laurent polynomials
  in q (times the common factor 1/(1+q)).  For the geometric law q = α is
  rational and everything is an exact Fraction.  For discrete Laplace,
  q = e^{-λ}, λ = 1/scale; when t = c·e^{ε} with c, ε rational, put
  u = e^{-λ/d} with ε/λ = n/d: then P - t·Q = g(u)/(1+u^d) for a Laurent
  polynomial g with rational coefficients.  If g = 0 the gap is exactly 0;
  otherwise g(u) ≠ 0 because u is transcendental (Hermite–Lindemann), so
  refining the enclosure of u decides its sign.  Tight claims are decided.
* **Discrete Gaussian**: the window is widened by K = noise.radius(prec)
  and the outside is one row per side whose P-mass is enclosed by
  [0, Σ_c w_c·P(Z >= k_c)] (the proved tail bound); its hockey-stick share
  is in [0, that bound].  At delta = 0 the loss is proved infinite when P's
  extreme offset lies beyond Q's (the ratio e^{(c-c')(2o-c-c')/(2σ²)} is
  unbounded), or when P has mass where Q has none.

epsilon at delta: with exact rows, the exact solver of :mod:`privref.audits._pair`;
with enclosed rows, the solver applied to (p.lo, q.hi) gives a proved lower
bound on t = e^epsilon and to (p.hi, q.lo) a proved upper bound, because the
hockey-stick curve is monotone in each value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, assert_never

from privref.reference.discrete_noise import DiscreteGaussian, DiscreteLaplace, NoiseLaw, TwoSidedGeometric
from privref.reference.errors import TooLargeToEnumerate, UnsupportedProgram
from privref.reference.program import Distribution
from privref.reference.reals import (
    MAX_PRECISION,
    Interval,
    Prob,
    Real,
    exp_form,
    interval_exp,
    prob_add,
    prob_as_interval,
)

from . import _pair, _released
from ._pair import PairEpsilon, solve_exact

__all__ = ["MAX_WINDOW", "IntegerTail", "epsilon_at_delta", "hockey_stick"]

MAX_WINDOW = 1_000_000
"""Largest number of integer outcomes enumerated explicitly for one pair."""

_GUARD = 8
"""Guard bits of every intermediate rounding above the working precision: a row's mass, a
power of the noise's base, a product of a weight and a pmf."""

_WIDE_GUARD = 16
"""Guard bits of the enclosures that multiply a whole sum: the threshold t and the
normalising denominator 1 + q of the exponential laws."""


@dataclass(frozen=True, slots=True)
class IntegerTail:
    """The event {o ∈ Z : o > bound} when ``above``, else {o ∈ Z : o < bound}."""

    above: bool
    bound: int

    def __str__(self) -> str:
        return f"{{o > {self.bound}}}" if self.above else f"{{o < {self.bound}}}"

    __repr__ = __str__


Poly = dict[int, Prob]
"""A Laurent polynomial: exponent -> coefficient."""


@dataclass(frozen=True, slots=True)
class _Mixture:
    atoms: dict[Any, Prob]
    weights: dict[int, Prob]  # offset -> total weight of the components at that offset


Row = tuple[Any, Prob, Prob]


def _split(p: Distribution[Any], q: Distribution[Any]) -> tuple[NoiseLaw | None, _Mixture,
                                                                   _Mixture]:
    noises: set[NoiseLaw] = set()
    mixes = []
    for dist in (p, q):
        weights: dict[int, Prob] = {}
        for aff, w in dist.components:
            noise = aff.noise
            if not isinstance(noise, (TwoSidedGeometric, DiscreteLaplace, DiscreteGaussian)):
                raise UnsupportedProgram(f"noise {noise!r} has no closed-form law for the auditor")
            noises.add(noise)
            c = aff.integer_offset
            weights[c] = prob_add(weights[c], w) if c in weights else w
        mixes.append(_Mixture(dist.as_dict(), weights))
    if len(noises) > 1:
        raise UnsupportedProgram(f"the pair mixes different noise laws {sorted(map(repr, noises))};"
                                 " the auditor needs one law shared by both outputs")
    return (noises.pop() if noises else None), mixes[0], mixes[1]


def _window(p: _Mixture, q: _Mixture, radius: int) -> tuple[int, int]:
    points = [o for m in (p, q) for o in m.atoms if isinstance(o, int)]
    points += [c for m in (p, q) for c in m.weights]
    lo, hi = min(points) - radius, max(points) + radius
    if hi - lo + 1 > MAX_WINDOW:
        raise TooLargeToEnumerate(f"the pair needs {hi - lo + 1} explicit outcomes, more than "
                                  f"MAX_WINDOW={MAX_WINDOW}")
    return lo, hi


# ------------------------------------------------ geometric / discrete Laplace


@dataclass(frozen=True, slots=True)
class _Base:
    """q = exact (geometric) or q = e^{-decay} (discrete Laplace)."""

    exact: Fraction | None
    decay: Fraction | None

    def power(self, e: int, d: int, prec: int) -> Interval:
        """An enclosure of q^{e/d}; one exp evaluation, so huge exponents cost nothing extra."""
        if self.exact is not None:
            assert d == 1
            return Interval.point(self.exact**e)
        assert self.decay is not None
        return interval_exp(Interval.point(-self.decay * e / d), prec)


def _padd(poly: Poly, e: int, c: Prob) -> None:
    poly[e] = prob_add(poly[e], c) if e in poly else c


def _neg(c: Prob) -> Prob:
    return -c


def _exp_rows(p: _Mixture, q: _Mixture) -> list[tuple[Any, Poly, Poly]]:
    """Rows (event, (1+q)·P(event), (1+q)·Q(event)) as Laurent polynomials in q."""
    lo, hi = _window(p, q, 0)

    def point(m: _Mixture, o: int) -> Poly:
        poly: Poly = {}
        a = m.atoms.get(o)
        if a is not None:
            _padd(poly, 0, a)
            _padd(poly, 1, a)
        for c, w in m.weights.items():
            _padd(poly, abs(o - c), w)
            _padd(poly, abs(o - c) + 1, _neg(w))
        return poly

    rows: list[tuple[Any, Poly, Poly]] = [(o, point(p, o), point(q, o))
                                          for o in range(lo, hi + 1)]
    for o, a in p.atoms.items():
        if not isinstance(o, int):
            b = q.atoms.get(o, Fraction(0))
            rows.append((o, {0: a, 1: a}, {0: b, 1: b}))
    # Σ_{o>hi} C·q^{o-c} = q^{hi+1-c}/(1+q);  Σ_{o<lo} C·q^{c-o} = q^{c+1-lo}/(1+q)
    for above in (True, False):
        polys = []
        for m in (p, q):
            poly: Poly = {}
            for c, w in m.weights.items():
                _padd(poly, hi + 1 - c if above else c + 1 - lo, w)
            polys.append(poly)
        rows.append((IntegerTail(above, hi if above else lo), polys[0], polys[1]))
    return rows


def _exact_coeffs(poly: Poly) -> dict[int, Fraction] | None:
    out: dict[int, Fraction] = {}
    for e, c in poly.items():
        if not isinstance(c, Fraction):
            return None
        if c != 0:
            out[e] = c
    return out


def _ieval(poly: Mapping[int, Prob], base: _Base, d: int, prec: int) -> Interval:
    """An enclosure of Σ_e c_e·q^{e/d}."""
    total = Interval.point(0)
    for e, c in poly.items():
        term = prob_as_interval(c) * base.power(e, d, prec + _GUARD)
        total = (total + term).rounded(prec + _GUARD)
    return total


def _symbolic_gap(pp: Poly, qq: Poly, base: _Base, t: Real
                  ) -> tuple[dict[int, Fraction], int] | None:
    """(g, d) with (1+q)(P - tQ) = g(u), u = q^{1/d}, when everything is rational-exact."""
    ep, eq, form = _exact_coeffs(pp), _exact_coeffs(qq), exp_form(t)
    if ep is None or eq is None or form is None:
        return None
    c, eps = form
    if eps == 0:
        d, n = 1, 0
    elif base.decay is not None:
        r = eps / base.decay  # t = c·q^{-r} = c·u^{-n} with u = q^{1/d}
        d, n = r.denominator, r.numerator
    else:
        return None
    g: dict[int, Fraction] = {}
    for e, v in ep.items():
        g[d * e] = g.get(d * e, Fraction(0)) + v
    for e, v in eq.items():
        g[d * e - n] = g.get(d * e - n, Fraction(0)) - c * v
    return {e: v for e, v in g.items() if v != 0}, d


def _exp_gap(pp: Poly, qq: Poly, base: _Base, t: Real, prec: int) -> tuple[int | None, Prob]:
    """(sign of P - tQ, None if undecided at MAX_PRECISION; enclosure of P - tQ) on one row."""
    if _exact_coeffs(pp) == {} and _exact_coeffs(qq) == {}:
        return 0, Fraction(0)  # no mass on either side
    sym = _symbolic_gap(pp, qq, base, t)
    if sym is not None:
        g = sym[0]
        if not g:
            return 0, Fraction(0)
        if base.exact is not None:  # geometric with rational t: exact
            a = base.exact
            value = sum((v * a**e for e, v in g.items()), Fraction(0)) / (1 + a)  # d == 1
            return (value > 0) - (value < 0), value
    p = prec
    while True:
        if sym is not None:
            g, d = sym
            den = 1 + base.power(1, 1, p + _GUARD)
            box = (_ieval(g, base, d, p + _GUARD) / den).rounded(p)
        else:
            den = 1 + base.power(1, 1, p + _WIDE_GUARD)
            tq = t.enclose(p + _WIDE_GUARD) * (_ieval(qq, base, 1, p + _GUARD) / den)
            box = (_ieval(pp, base, 1, p + _GUARD) / den - tq).rounded(p)
        if box.lo > 0 or box.hi < 0:
            return (1 if box.lo > 0 else -1), box
        if p >= MAX_PRECISION:
            return None, box
        p *= 2


def _exp_base(noise: TwoSidedGeometric | DiscreteLaplace) -> _Base:
    if isinstance(noise, TwoSidedGeometric):
        return _Base(noise.alpha, None)
    return _Base(None, noise.decay)


def _exp_masses(rows: list[tuple[Any, Poly, Poly]], base: _Base, prec: int) -> list[Row]:
    out: list[Row] = []
    if base.exact is not None:
        a = base.exact
        for label, pp, qq in rows:
            ep, eq = _exact_coeffs(pp), _exact_coeffs(qq)
            if ep is not None and eq is not None:
                out.append((label, sum((v * a**e for e, v in ep.items()), Fraction(0)) / (1 + a),
                            sum((v * a**e for e, v in eq.items()), Fraction(0)) / (1 + a)))
                continue
            out.append((label, (_ieval(pp, base, 1, prec) / (1 + a)).rounded(prec),
                        (_ieval(qq, base, 1, prec) / (1 + a)).rounded(prec)))
        return out
    den = 1 + base.power(1, 1, prec + _WIDE_GUARD)
    for label, pp, qq in rows:
        out.append((label, (_ieval(pp, base, 1, prec + _GUARD) / den).rounded(prec),
                    (_ieval(qq, base, 1, prec + _GUARD) / den).rounded(prec)))
    return out


# ---------------------------------------------------------- discrete Gaussian


def _gauss_rows(noise: DiscreteGaussian, p: _Mixture, q: _Mixture, prec: int) -> list[Row]:
    """Window rows (enclosed) plus one outside row per side with mass enclosed by [0, bound]."""
    lo, hi = _window(p, q, noise.radius(prec))

    def mass(m: _Mixture, o: int) -> Prob:
        acc: Prob = m.atoms.get(o, Fraction(0))
        for c, w in m.weights.items():
            acc = prob_add(acc, (prob_as_interval(w) * prob_as_interval(noise.pmf(o - c, prec))
                                 ).rounded(prec + _GUARD))
        return acc

    def outside(m: _Mixture, above: bool) -> Prob:
        if not m.weights:
            return Fraction(0)
        bound = Fraction(0)
        for c, w in m.weights.items():  # P(Z + c > hi) = P(Z >= hi+1-c); P(Z + c < lo) by symmetry
            k = hi + 1 - c if above else c - lo + 1
            bound += prob_as_interval(w).hi * prob_as_interval(noise.tail_mass(k, prec)).hi
        return Interval(Fraction(0), bound).rounded(prec)

    rows: list[Row] = [(o, mass(p, o), mass(q, o)) for o in range(lo, hi + 1)]
    rows += [(o, a, q.atoms.get(o, Fraction(0))) for o, a in p.atoms.items()
             if not isinstance(o, int)]
    rows += [(IntegerTail(True, hi), outside(p, True), outside(q, True)),
             (IntegerTail(False, lo), outside(p, False), outside(q, False))]
    return rows


def _unbounded_ratio(p: _Mixture, q: _Mixture, lo: int, hi: int) -> IntegerTail | None:
    """A tail on which P/Q is unbounded (Gaussian components), or None when not proved."""
    if not q.weights:
        return None  # handled by the rows: P has mass where Q has none
    certain = [c for c, w in p.weights.items() if prob_as_interval(w).lo > 0]
    if certain and max(certain) > max(q.weights):
        return IntegerTail(True, hi)
    if certain and min(certain) < min(q.weights):
        return IntegerTail(False, lo)
    return None


# ------------------------------------------------------------------ public API


def _enclosed_gap(p: Prob, q: Prob, t: Interval) -> tuple[int | None, Prob]:
    if isinstance(p, Fraction) and isinstance(q, Fraction) and p == 0 and q == 0:
        return 0, Fraction(0)
    pb, qb = prob_as_interval(p), prob_as_interval(q)
    box = Interval(pb.lo - t.hi * qb.hi, pb.hi - t.lo * qb.lo)
    return (1 if box.lo > 0 else -1 if box.hi < 0 else None), box


def hockey_stick(p: Distribution[Any], q: Distribution[Any], t: Real, prec: int
                 ) -> tuple[Prob, Fraction, tuple[Any, ...]]:
    """(enclosure of Σ_o max(0, P(o) - t·Q(o)), proved lower bound attained by the event, event).

    Exact (a Fraction) for geometric noise with rational t, and exactly 0
    whenever every row's sign is decided non-positive (tight discrete Laplace
    claims included); otherwise a rigorous Interval.  The event lists integer
    outcomes, atoms and :class:`IntegerTail` events where P > t·Q is proved.

    Sharpness, for exact input laws and noise scales up to 2^12 (discrete Laplace scale,
    1/(1 − α), σ): the enclosure is at most 8·2^-prec wide, and a row's sign is decided
    whenever MAX_PRECISION bits decide it (tests/audits/test_tails_precision.py).
    """
    if _released.applies(p, q):
        return _released.hockey_stick(p, q, t, prec)
    noise, mp, mq = _split(p, q)
    gaps: list[tuple[Any, int | None, Prob]] = []
    match noise:
        case None:
            return _as_triple(_pair.hockey_stick(p, q, t, prec))
        case TwoSidedGeometric() | DiscreteLaplace():
            base = _exp_base(noise)
            for label, pp, qq in _exp_rows(mp, mq):
                gaps.append((label, *_exp_gap(pp, qq, base, t, prec)))
        case DiscreteGaussian():
            tbox = t.enclose(prec)
            for label, pv, qv in _gauss_rows(noise, mp, mq, prec):
                gaps.append((label, *_enclosed_gap(pv, qv, tbox)))
        case _:
            assert_never(noise)
    lo, hi, exact = Fraction(0), Fraction(0), True
    event = []
    for label, sign, gap in gaps:
        box = prob_as_interval(gap)
        if sign == 1:
            event.append(label)
            lo, hi = lo + box.lo, hi + box.hi
        elif sign is None:
            hi += max(box.hi, Fraction(0))
        if (sign == 1 or sign is None) and not isinstance(gap, Fraction):
            exact = False
    if exact:
        return lo, lo, tuple(event)
    return Interval(lo, hi).rounded(prec), Interval.point(lo).rounded(prec).lo, tuple(event)


def _as_triple(r: tuple[Prob, Prob, tuple[Any, ...]]) -> tuple[Prob, Fraction, tuple[Any, ...]]:
    margin = r[1]
    return r[0], (margin if isinstance(margin, Fraction) else margin.lo), r[2]


def _solve(rows: list[Row], delta: Fraction, prec: int) -> PairEpsilon:
    exact = [(o, a, b) for o, a, b in rows if isinstance(a, Fraction) and isinstance(b, Fraction)]
    if len(exact) == len(rows):
        t, event = solve_exact(exact, delta)
        if t is None:
            return PairEpsilon(Fraction(1), None, None, True, event)
        return PairEpsilon(t, t, t, False, event)
    boxes = [(o, prob_as_interval(a), prob_as_interval(b)) for o, a, b in rows]
    t_lo, event = solve_exact([(o, a.lo, b.hi) for o, a, b in boxes], delta)
    if t_lo is None:
        return PairEpsilon(Fraction(1), None, None, True, event)
    t_hi, _ = solve_exact([(o, a.hi, b.lo) for o, a, b in boxes], delta)
    if t_hi is None:
        return PairEpsilon(Interval.point(t_lo).rounded(prec).lo, None, None, False, event)
    box = Interval(t_lo, t_hi).rounded(prec)
    return PairEpsilon(max(box.lo, Fraction(1)), box.hi, None, False, event)


def epsilon_at_delta(p: Distribution[Any], q: Distribution[Any], delta: Fraction, prec: int
                     ) -> PairEpsilon:
    """e^epsilon at ``delta`` for the ordered pair (P, Q): exact for geometric noise, else enclosed.

    ``infinite`` is set only when proved (mass of P where Q has none exceeds
    delta, or a Gaussian likelihood ratio unbounded at delta = 0).

    Sharpness, for exact input laws and noise scales up to 2^12: the divergence at t_lo
    exceeds the one at t_hi by at most 16·2^-prec.  The width of [t_lo, t_hi] is that
    error over Q's mass on the event, so it has no bound in units of 2^-prec·t_hi.
    """
    if _released.applies(p, q):
        return _released.epsilon_at_delta(p, q, delta, prec)
    noise, mp, mq = _split(p, q)
    match noise:
        case None:
            return _pair.epsilon_at_delta(p, q, delta, prec)
        case TwoSidedGeometric() | DiscreteLaplace():
            base = _exp_base(noise)
            return _solve(_exp_masses(_exp_rows(mp, mq), base, prec), delta, prec)
        case DiscreteGaussian():
            if delta == 0:
                lo, hi = _window(mp, mq, 0)
                tail = _unbounded_ratio(mp, mq, lo, hi)
                if tail is not None:
                    return PairEpsilon(Fraction(1), None, None, True, (tail,))
            return _solve(_gauss_rows(noise, mp, mq, prec), delta, prec)
        case _:
            assert_never(noise)
