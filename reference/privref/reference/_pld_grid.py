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


def merge_offset(step: Fraction) -> Fraction:
    """s = min(2h², h/32): how far above its grid point a merged bucket is centred.  A bucket's
    merged loss sits about s − h²/24 − (h²/12)·|ω'/ω| above the point (Jensen's gap and the
    density's slope), so s must beat those terms (2h² does for a Gaussian with μ >= 1 within 11
    standard deviations); buckets where it does not are moved one point down, soundly."""
    return min(2 * step * step, step / 32)


def discretize_lower(survival: Survival, step: Fraction, bits: int, lo: int, hi: int,
                     merge: Fraction | None) -> Grid:
    """The optimistic grid on indices lo..hi.

    ``merge=None``: every loss moves down to the grid, [ih, (i+1)h) -> ih, survival
    R_i = P(L >= ih).  ``merge=s`` (0 < s < h/2, e.g. :func:`merge_offset`): the buckets
    B_i = [ih − w, ih + h − w), w = h/2 − s (B_hi unbounded above) are merged, each into one outcome of loss
    m_i = ln(P(B_i)/Q(B_i)) in B_i, placed at ih when m_i >= ih is proved
    (P(B_i)·e^{−ih} − Q(B_i) >= 0 enclosed) and at (i−1)h < m_i otherwise (dropped below lo).
    Mass below the first bucket is dropped.  Each R_i
    is enclosed, rounded down to 2^-bits and made nonincreasing by a running maximum from the top.
    """
    _check_points(hi - lo + 1)
    unit = 1 << bits
    values: list[int] = []
    if merge is not None and not 0 < merge < step / 2:
        raise InvalidArgument(f"merge={merge} must be in (0, step/2)")
    shift = step / 2 - merge if merge is not None else Fraction(0)
    with working_precision(bits + 48):
        edges_p = [survival(i * step - shift, False, False) for i in range(lo, hi + 2)]
        for n, i in enumerate(range(lo, hi + 1)):
            r_i = edges_p[n]
            if merge is not None:
                top = i == hi
                p_mass = r_i if top else r_i - edges_p[n + 1]
                q_lo = survival(i * step - shift, False, True)
                q_mass = q_lo if top else q_lo - survival((i + 1) * step - shift, False, True)
                test = to_interval(p_mass * (-ball(i * step)).exp() - q_mass, "a merge test")
                if test.lo < 0:  # m_i >= ih not proved: the bucket goes one point down
                    r_i = r_i - p_mass
            values.append(_floor_units(r_i, unit))
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
