"""Privacy-loss distributions on a rational grid with directed rounding (internal to :mod:`.pld`).

A :class:`Grid` is a finite measure on {i·h : i ∈ Z} ∪ {+∞}: ``masses[n]`` is the mass at loss
(offset + n)·h and ``infinity`` the mass at +∞, all integers in units of 2^-bits.  An *upper*
grid is a probability measure (total exactly 2^bits) that stochastically dominates the loss
distribution it stands for; a *lower* grid is a sub-probability measure (its missing mass sits at
−∞) that is stochastically dominated by it.  Every function here preserves that invariant; the
proof is in :mod:`.pld`'s docstring.  The three moves:

* :func:`discretize_upper` and :func:`discretize_lower` build the grids from enclosures of the
  survival functions P(L > t), P(L >= t) (and the same under Q) at the grid points, rounding
  survival probabilities up (upper) or down (lower) to units of 2^-bits;
* :func:`convolve` multiplies two grids exactly (Kronecker substitution: pack the integer masses
  into one huge integer each, multiply with FLINT, unpack), then rounds the survival function of
  the exact product back to 2^-bits in the grid's direction and truncates tails of at most
  ``tail`` units (upper: the top tail moves to +∞, the bottom tail up to the new bottom point;
  lower: the top tail moves down to the new top point, the bottom tail is dropped);
* :class:`DeltaTable` gives δ(ε) = Σ_{l>ε} p_l (1 − e^{ε−l}) + p_∞ of a grid with every rounding
  directed (upper: an upper bound; lower: a lower bound) and the matching ε(δ).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import accumulate

import numpy as np

from ._arb import arb, ball, multiply_integers, to_interval, working_precision
from .errors import InvalidArgument, TooLargeToEnumerate
from .reals import Interval

Survival = Callable[[Fraction, bool, bool], arb]
"""(t, strict, under_q) -> a ball containing P(L > t) (strict) or P(L >= t), or the same
probabilities under Q when ``under_q``; called under the working precision the builders set."""

GUARD: int = 96
"""Extra fixed-point bits of the δ tables (the e^{−h} recurrence) beyond the mass bits."""

MAX_POINTS: int = 1 << 24
"""Most grid points a grid may hold (memory bound: 2^24 masses of ~bits bits each)."""


@dataclass(frozen=True)
class Grid:
    """A discretized privacy-loss distribution: mass ``masses[n]``·2^-bits at (offset + n)·step,
    ``infinity``·2^-bits at +∞; ``upper`` says which side of the true distribution it is on."""

    step: Fraction
    bits: int
    offset: int
    masses: tuple[int, ...]
    infinity: int
    upper: bool
    _table: list[DeltaTable] = field(default_factory=list, compare=False, repr=False)

    @property
    def top(self) -> int:
        """The index of the highest finite grid point."""
        return self.offset + len(self.masses) - 1

    def table(self) -> DeltaTable:
        """The (cached) δ table of this grid."""
        if not self._table:
            self._table.append(DeltaTable(self))
        return self._table[0]


def _check_points(count: int) -> None:
    if count > MAX_POINTS:
        raise TooLargeToEnumerate(f"a grid of {count} points exceeds MAX_POINTS={MAX_POINTS}; "
                                  "use a coarser step")


def _ceil_units(box: arb, unit: int) -> int:
    return min(unit, max(0, math.ceil(to_interval(box, "a probability").hi * unit)))


def _floor_units(box: arb, unit: int) -> int:
    return min(unit, max(0, math.floor(to_interval(box, "a probability").lo * unit)))


def discretize_upper(survival: Survival, step: Fraction, bits: int, lo: int, hi: int) -> Grid:
    """The pessimistic grid on indices lo..hi: the split ("connect the dots") pair, then rounded up.

    Each loss l in an open bucket (jh, (j+1)h), lo <= j < hi, is split between jh and (j+1)h with
    the P-mass a at jh chosen so that the Q-mass is kept: a·e^{−jh} + (m − a)·e^{−(j+1)h} = Q-mass.
    Summed over the bucket, a_j = (Q_j − e^{−(j+1)h}·P_j)/(e^{−jh} − e^{−(j+1)h}) with P_j, Q_j the
    bucket's P- and Q-masses.  The survival S_i (mass at indices >= i) is then
    P(L > (i−1)h) − a_{i−1}; mass above hi·h goes to +∞ and mass below lo·h up to lo.  Each S_i is
    enclosed, rounded up to 2^-bits and made nonincreasing by a running minimum.
    """
    _check_points(hi - lo + 1)
    unit = 1 << bits
    values: list[int] = []
    with working_precision(bits + 48):
        gt_p = [survival(i * step, True, False) for i in range(lo, hi + 1)]
        for n, i in enumerate(range(lo + 1, hi + 1)):  # bucket ((i-1)h, ih)
            p_mass = gt_p[n] - survival(i * step, False, False)
            q_mass = survival((i - 1) * step, True, True) - survival(i * step, False, True)
            near, far = (-ball((i - 1) * step)).exp(), (-ball(i * step)).exp()
            low_part = (q_mass - far * p_mass) / (near - far)
            values.append(_ceil_units(gt_p[n] - low_part, unit))
        values.append(_ceil_units(gt_p[-1], unit))  # S_{hi+1}: the mass at +infinity
    surv = [unit, *accumulate(values, min)]  # S_lo = unit, then S_{lo+1} .. S_{hi+1}
    masses = tuple(surv[n] - surv[n + 1] for n in range(hi - lo + 1))
    return Grid(step, bits, lo, masses, surv[-1], True)


MERGE_TOLERANCE: int = 30
"""The adaptive merge stops refining a bucket's upper boundary once its merged loss is proved to
lie within h·2^-MERGE_TOLERANCE above its grid point (or the boundary's bracket is that narrow)."""

MAX_MERGE_STEPS: int = 60
"""Most survival evaluations spent on one bucket's boundary (bracketing and refinement)."""


def _dyadic(x: Fraction, step: Fraction) -> Fraction:
    """x rounded to a multiple of step·2^-(MERGE_TOLERANCE + 8) (keeps boundaries short)."""
    unit = step / (1 << (MERGE_TOLERANCE + 8))
    return math.floor(x / unit) * unit


class _Bucket:
    """The merge test of one bucket [a, b) against its target loss t: g(b) = P([a, b))·e^{−t} −
    Q([a, b)), whose sign is that of m − t for the merged loss m = ln(P([a, b))/Q([a, b)))."""

    def __init__(self, survival: Survival, a: Fraction, p_a: arb, q_a: arb, t: Fraction) -> None:
        self.survival, self.a, self.p_a, self.q_a = survival, a, p_a, q_a
        self.decay = (-ball(t)).exp()

    def masses(self, b: Fraction) -> tuple[arb, arb, arb, arb]:
        """(P-mass, Q-mass, P(L >= b), Q(L >= b)) of [a, b)."""
        p_b, q_b = self.survival(b, False, False), self.survival(b, False, True)
        return self.p_a - p_b, self.q_a - q_b, p_b, q_b

    def test(self, p_mass: arb, q_mass: arb) -> arb:
        return p_mass * self.decay - q_mass


def _boundary(survival: Survival, step: Fraction, a: Fraction, p_a: arb, q_a: arb,
              t: Fraction, limit: Fraction) -> tuple[Fraction, arb, arb] | None:
    """An upper boundary b in (a, limit] of the bucket [a, b) whose merged loss is proved >= t
    (and, for a smooth law, within about h·2^-MERGE_TOLERANCE of it), with P(L >= b), Q(L >= b);
    None when no such b <= limit is found within MAX_MERGE_STEPS evaluations.

    The test g(b) = P([a, b))e^{−t} − Q([a, b)) is <= 0 up to b = t and grows after it, with
    derivative f(b)(e^{−t} − e^{−b}) for the P-density f of the loss.  From the mirror guess
    2t − a, Newton steps (f estimated by the bucket's mean density P([a, b))/(b − a)) aim a little
    above the root, inside the bracket of the probes so far (bisection when a step leaves it).
    The floats only propose: a boundary is returned only when its test is proved >= 0."""
    bucket = _Bucket(survival, a, p_a, q_a, t)
    width = step / (1 << MERGE_TOLERANCE)
    tol = float(width)
    decay = float(bucket.decay.mid())
    low = max(a, t)  # g <= 0 up to here
    high: Fraction | None = None
    best: tuple[Fraction, arb, arb] | None = None
    if a >= t:  # every loss of the bucket is >= t: any b will do; keep the bucket at h/2
        x = min(limit, a + step / 2)
        p_mass, q_mass, p_b, q_b = bucket.masses(x)
        return (x, p_b, q_b) if bucket.test(p_mass, q_mass) >= 0 else None
    x = min(limit, _dyadic(2 * t - a, step) + width)
    for _ in range(MAX_MERGE_STEPS // 2):
        if not low < x <= limit:
            x = min(limit, low + (low - a)) if high is None else _dyadic((low + high) / 2, step)
            if not low < x:
                break
        p_mass, q_mass, p_b, q_b = bucket.masses(x)
        g = bucket.test(p_mass, q_mass)
        scale = float(p_mass.mid()) * decay  # g/scale ≈ m − t
        if g >= 0:
            high, best = x, (x, p_b, q_b)
            if float(g.mid()) <= scale * tol or high - low <= width:
                break
        elif x >= limit:
            return None
        else:
            low = x
            if high is not None and high - low <= width:
                break
        # Newton on g − scale·tol/2, with f ≈ P([a, x))/(x − a)
        slope = scale / float(x - a) * max(float(x - t), tol)
        target = float(g.mid()) - scale * tol / 2
        if slope > 0 and math.isfinite(target / slope):
            proposal = x - Fraction(target / slope)
        else:
            proposal = x + (x - a)
        x = _dyadic(proposal, step) + (width if high is None else 0)
        if high is None:
            x = max(x, low + width)
        elif not low < x < high:
            x = _dyadic((low + high) / 2, step)
    return best


def discretize_lower(survival: Survival, step: Fraction, bits: int, lo: int, hi: int,
                     merge: bool = False) -> Grid:
    """The optimistic grid on indices lo..hi.

    ``merge=False``: every loss moves down to the grid, [ih, (i+1)h) -> ih, survival
    R_i = P(L >= ih).  ``merge=True`` (for a law without atoms): the losses are cut into buckets
    [b_{i−1}, b_i), b_{lo−1} = lo·h − h/2, each merged into one outcome of loss
    m_i = ln(P(B_i)/Q(B_i)) (a post-processing of the pair) and placed at ih; the boundary b_i is
    chosen (:func:`_boundary`) so that m_i >= ih is proved, and as small as the search can make
    it, so that m_i sits just above ih and the placement loses almost nothing.  A bucket whose
    boundary is not found, and the top bucket [b_{hi−1}, ∞), are placed at ih when m_i >= ih is
    proved and at the grid point below otherwise (m_i >= b_{i−1} > (i−1)h always).  Mass below
    b_{lo−1} is dropped.  Each R_i is enclosed, rounded down to 2^-bits and made nonincreasing by
    a running maximum from the top.
    """
    _check_points(hi - lo + 1)
    unit = 1 << bits
    values: list[int] = []
    with working_precision(bits + 48):
        if not merge:
            values = [_floor_units(survival(i * step, False, False), unit)
                      for i in range(lo, hi + 1)]
        else:
            a = lo * step - step / 2
            p_a, q_a = survival(a, False, False), survival(a, False, True)
            limit = hi * step + step / 2
            for i in range(lo, hi + 1):
                edge = None if i == hi else _boundary(survival, step, a, p_a, q_a, i * step,
                                                      limit)
                if edge is None:  # a fixed bucket: [a, ih + h/2), the top one [a, ∞)
                    b = max(a, i * step) + step / 2
                    p_b = arb(0) if i == hi else survival(b, False, False)
                    q_b = arb(0) if i == hi else survival(b, False, True)
                    p_mass, q_mass = p_a - p_b, q_a - q_b
                    proved = p_mass * (-ball(i * step)).exp() - q_mass >= 0
                    # m_i >= ih proved: at ih; else one point down (m_i >= a >= (i−1)h)
                    values.append(_floor_units(p_a if proved else p_b, unit))
                    edge = (b, p_b, q_b)
                else:
                    values.append(_floor_units(p_a, unit))
                a, p_a, q_a = edge
    low = [*list(accumulate(reversed(values), max))[::-1], 0]  # R_lo .. R_hi, R_{hi+1} = 0
    masses = tuple(low[n] - low[n + 1] for n in range(hi - lo + 1))
    return Grid(step, bits, lo, masses, 0, False)


# --------------------------------------------------------------------------- exact convolution


def _pack(values: tuple[int, ...], slot: int) -> int:
    """Σ values[n]·2^(8·slot·n) for values < 2^64 (numpy writes each into its byte slot)."""
    buf = np.zeros((len(values), slot), dtype=np.uint8)
    buf[:, :8] = np.array(values, dtype=np.uint64).view(np.uint8).reshape(len(values), 8)
    return int.from_bytes(buf.tobytes(), "little")


def _unpack(packed: int, slot: int, count: int) -> list[int]:
    """The count slot-byte digits of ``packed`` (slot a multiple of 8), as Python ints."""
    raw = packed.to_bytes(slot * count, "little")
    limbs = np.frombuffer(raw, dtype=np.uint64).reshape(count, slot // 8)
    columns: list[list[int]] = [limbs[:, c].tolist() for c in range(slot // 8)]
    out = columns[0]
    for c in range(1, slot // 8):
        shift = 64 * c
        out = [a + (b << shift) for a, b in zip(out, columns[c], strict=True)]
    return out


def exact_convolution(a: tuple[int, ...], b: tuple[int, ...]) -> list[int]:
    """The exact convolution of two lists of nonnegative integers below 2^64 (Kronecker
    substitution with FLINT's multiplication)."""
    biggest = max(max(a), max(b), 1)
    need = 2 * biggest.bit_length() + min(len(a), len(b)).bit_length() + 1
    slot = 8 * -(-need // 64)
    return _unpack(multiply_integers(_pack(a, slot), _pack(b, slot)), slot, len(a) + len(b) - 1)


def convolve(a: Grid, b: Grid, tail: int) -> Grid:
    """The grid of the sum of independent losses from ``a`` and ``b``, re-rounded to 2^-bits in
    the grids' direction (survival rounded up for upper grids, down for lower ones), with tails of
    at most ``tail`` units truncated in the same direction."""
    if a.step != b.step or a.bits != b.bits or a.upper != b.upper:
        raise InvalidArgument("the two distributions must share step, bits and direction")
    _check_points(len(a.masses) + len(b.masses) - 1)
    exact = exact_convolution(a.masses, b.masses)
    bits = a.bits
    total_a, total_b = sum(a.masses) + a.infinity, sum(b.masses) + b.infinity
    inf = a.infinity * total_b + b.infinity * total_a - a.infinity * b.infinity
    # suffix sums of the exact product (units 2^-2bits), the +∞ mass above everything
    suffix = list(accumulate(reversed(exact), initial=inf))[::-1]  # suffix[n] = mass at >= n
    if a.upper:
        unit = (1 << bits) - 1
        surv = [(s + unit) >> bits for s in suffix]
    else:
        surv = [s >> bits for s in suffix]
    return _truncate(a.step, bits, a.offset + b.offset, surv, a.upper, tail)


def _truncate(step: Fraction, bits: int, offset: int, surv: list[int], upper: bool,
              tail: int) -> Grid:
    """The grid with survival ``surv`` (surv[n] = units at indices >= offset + n, surv[-1] the
    +∞ mass; nonincreasing) after moving tails of at most ``tail`` units in the safe direction."""
    count = len(surv) - 1
    total = surv[0]
    inf = surv[-1]
    # top: the first n whose survival is within `tail` of the +∞ mass
    top = count
    while top > 1 and surv[top - 1] - inf <= tail:
        top -= 1
    # bottom: the last n whose mass below is at most `tail`
    bottom = 0
    while bottom < top - 1 and total - surv[bottom + 1] <= tail:
        bottom += 1
    if upper:
        # mass at indices >= top goes to +∞; mass below bottom goes up to bottom
        cut = [total, *surv[bottom + 1:top]]
        masses = tuple(cut[n] - (cut[n + 1] if n + 1 < len(cut) else surv[top])
                       for n in range(len(cut)))
        return Grid(step, bits, offset + bottom, masses, surv[top], True)
    # lower: mass at indices >= top moves down to top - 1; mass below bottom is dropped
    cut = surv[bottom:top]
    masses = tuple(cut[n] - (cut[n + 1] if n + 1 < len(cut) else 0) for n in range(len(cut)))
    return Grid(step, bits, offset + bottom, masses, 0, False)


def power(a: Grid, k: int, tail: int) -> Grid:
    """The k-fold self-convolution of ``a`` by repeated squaring (O(log k) convolutions)."""
    result: Grid | None = None
    base = a
    while True:
        if k & 1:
            result = base if result is None else convolve(result, base, tail)
        k >>= 1
        if not k:
            break
        base = convolve(base, base, tail)
    assert result is not None
    return result


# --------------------------------------------------------------------------- δ(ε) and ε(δ)


class DeltaTable:
    """Directed δ(ε) of a grid.  For ε in segment j (jh <= ε < (j+1)h, j >= offset − 1; below,
    segment offset − 1) the grid's δ is A_j + p_∞ − e^{ε−jh}·C_j with A_j = Σ_{i>j} m_i and
    C_j = Σ_{i>j} m_i e^{−(i−j)h}.  C is kept in fixed point (GUARD extra bits) through
    C_{j−1} = e^{−h}(C_j + m_j) with e^{−h} and every product rounded down (upper grid, so
    δ can only grow) or up (lower grid, so δ can only shrink)."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        h = grid.step
        with working_precision(2 * GUARD + 32):
            box = to_interval((-ball(h)).exp(), "e^-h")
        r = math.floor(box.lo * (1 << GUARD)) if grid.upper else math.ceil(box.hi * (1 << GUARD))
        # A[n], C[n] for j = offset - 1 + n, n = 0..len(masses)
        masses = grid.masses
        count = len(masses)
        a_vals = [0] * (count + 1)
        c_vals = [0] * (count + 1)
        acc, c = 0, 0
        round_up = 0 if grid.upper else (1 << GUARD) - 1
        for n in range(count, 0, -1):
            m = masses[n - 1]
            acc += m
            c = (r * (c + (m << GUARD)) + round_up) >> GUARD
            a_vals[n - 1] = acc
            c_vals[n - 1] = c
        self.a_vals = a_vals
        self.c_vals = c_vals

    def _segment(self, eps: Fraction) -> int:
        g = self.grid
        return min(max(math.floor(eps / g.step), g.offset - 1), g.top)

    def _at(self, seg: int, eps: Fraction, prec: int) -> Interval:
        """Enclosure of A_seg + p_∞ − e^{ε−seg·h}·C_seg, in probability units."""
        g = self.grid
        n = seg - (g.offset - 1)
        whole = (self.a_vals[n] + g.infinity) << GUARD
        with working_precision(prec):
            value = (ball(whole) - (ball(eps - seg * g.step)).exp() * ball(self.c_vals[n]))
            return to_interval(value / ball(1 << (g.bits + GUARD)), "a delta")

    def delta(self, eps: Fraction, prec: int) -> Fraction:
        """Upper grid: an upper bound on its δ(ε); lower grid: a lower bound (clipped to [0, 1])."""
        box = self._at(self._segment(eps), eps, prec)
        if self.grid.upper:
            return min(box.hi, Fraction(1))
        return max(box.lo, Fraction(0))

    @cached_property
    def _points(self) -> list[int]:
        """D_j·2^(bits+GUARD) at ε = jh for j = offset − 1 .. top (exact integers)."""
        inf = self.grid.infinity
        return [((a + inf) << GUARD) - c for a, c in zip(self.a_vals, self.c_vals, strict=True)]

    def epsilon(self, delta: Fraction, prec: int) -> Fraction:
        """Upper grid: an ε_hi with δ_true(ε_hi) <= δ proved; lower grid: an ε_lo with
        δ_true(ε) > δ proved for every ε < ε_lo.  Raises TooLargeToEnumerate when the upper
        grid's +∞ mass alone exceeds δ (no finite ε is proved)."""
        g = self.grid
        h = g.step
        if self.delta(Fraction(0), prec) <= delta:
            return Fraction(0)
        scale = 1 << (g.bits + GUARD)
        target = math.floor(delta * scale)
        first = max(1, g.offset - 1)
        star = None
        points = self._points
        for j in range(first, g.top + 1):
            if points[j - (g.offset - 1)] <= target:
                star = j
                break
        if star is None:
            raise TooLargeToEnumerate(f"delta={delta} is below the proved mass at infinite "
                                      "loss; no finite epsilon is certified (refine the grid)")
        prev = (star - 1) * h if star - 1 >= first else Fraction(0)
        seg = self._segment(prev)
        n = seg - (g.offset - 1)
        whole = ((self.a_vals[n] + g.infinity) << GUARD) - delta * scale
        c = self.c_vals[n]
        if whole <= 0 or c == 0:
            return star * h if g.upper else prev
        with working_precision(prec):
            ratio = ball(Fraction(whole) / c)
            root = to_interval(ratio.log() + ball(seg * h), "an epsilon")
        if g.upper:
            return min(star * h, max(prev, root.hi))
        return max(prev, min(star * h, root.lo))
