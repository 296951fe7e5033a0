"""A small interval branch-and-bound prover, and rigorous series enclosures.

privref proves numeric inequalities over parameter ranges without sampling:
the range is a box of rational intervals, ``f`` is an *interval extension*
(it maps a box to an :class:`~reference.reals.Interval` containing every value
of the real function on that box), and the prover bisects the box until every
leaf is decided.  A float never decides anything here.

Guarantees of :func:`prove_nonnegative` (and :func:`prove_positive`):

* ``HOLDS``: every leaf box has an enclosure with ``lo >= 0`` (``> 0``); the
  leaves cover the box, so f >= 0 (> 0) on the whole closed box, and
  ``lower_bound`` is a proved lower bound of f there.
* ``VIOLATED``: ``witness`` is a rational point whose point enclosure lies
  entirely below 0 (at or below 0 for the strict variant): a proved
  counterexample.
* ``UNDECIDED``: neither, after ``max_boxes`` box enclosures; ``worst_box`` is
  the remaining box with the smallest lower bound.

The search is deterministic: best-first on the enclosure's lower bound
(ties by creation order), bisecting the widest side relative to the input
box's side (so units do not matter; lowest index on ties) at its exact
rational midpoint.  Witness candidates are the vertices of the input
box (when it has at most :data:`MAX_VERTEX_DIM` dimensions) and the midpoint
of every box that is split.

The series helpers enclose Σ_{ℓ>=start} term(ℓ) as an explicit interval
partial sum up to L plus a *proved* remainder enclosure; see
:func:`power_series_tail` for the geometric-ratio argument.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from privref.reference.errors import InvalidArgument
from privref.reference.reals import DEFAULT_PRECISION, Interval

from ._ledger import Verdict

__all__ = [
    "MAX_VERTEX_DIM",
    "BnbResult",
    "Box",
    "Enclosure",
    "enclose_series",
    "interval_pow",
    "mean_value_form",
    "power_series_tail",
    "prove_nonnegative",
    "prove_positive",
]

Box = tuple[tuple[Fraction, Fraction], ...]
"""A parameter box: one closed rational interval (lo, hi) per parameter."""

Enclosure = Callable[[tuple[Interval, ...]], Interval]
"""An interval extension: maps one Interval per parameter to an enclosure of f on that box."""

MAX_VERTEX_DIM: Final = 4
"""Up to this many dimensions, the vertices of the input box are tried as witnesses."""

_DEFAULT_MAX_BOXES: Final = 4096


@dataclass(frozen=True, slots=True)
class BnbResult:
    """Outcome of a branch-and-bound run (see the module docstring for the guarantees).

    ``boxes`` counts box enclosures evaluated (the root included) and
    ``points`` counts point enclosures evaluated while looking for witnesses.
    """

    verdict: Verdict
    strict: bool
    boxes: int
    points: int
    lower_bound: Fraction | None = None
    witness: tuple[Fraction, ...] | None = None
    witness_enclosure: Interval | None = None
    worst_box: Box | None = None
    worst_enclosure: Interval | None = None

    def summary(self) -> str:
        """One line for evidence strings (decimals are for display only)."""
        rel = "> 0" if self.strict else ">= 0"
        head = f"b&b {self.verdict.value} (f {rel}) after {self.boxes} boxes, {self.points} points"
        match self.verdict:
            case Verdict.HOLDS:
                assert self.lower_bound is not None
                return f"{head}; proved f >= {float(self.lower_bound):.6g} on the box"
            case Verdict.VIOLATED:
                assert self.witness is not None
                pt = ", ".join(f"{float(x):.9g}" for x in self.witness)
                return f"{head}; witness ({pt}) with f in {self.witness_enclosure}"
            case Verdict.UNDECIDED:
                assert self.worst_box is not None and self.worst_enclosure is not None
                side = max(hi - lo for lo, hi in self.worst_box)
                return (f"{head}; worst box side {float(side):.3g}, enclosure "
                        f"{self.worst_enclosure} (width {float(self.worst_enclosure.width):.3g})")


def _exact(x: object, name: str) -> Fraction:
    if isinstance(x, float):  # a finite float is an exact dyadic rational
        if not math.isfinite(x):
            raise InvalidArgument(f"{name}={x!r} must be a finite number")
        return Fraction(x)
    if isinstance(x, bool) or not isinstance(x, int | Fraction):
        raise InvalidArgument(f"{name}={x!r} must be an int, Fraction or finite float")
    return Fraction(x)


def _validate_box(box: Sequence[tuple[Fraction | int, Fraction | int]]) -> Box:
    if not isinstance(box, tuple | list) or len(box) == 0:
        raise InvalidArgument(f"box={box!r} must be a non-empty tuple of (lo, hi) pairs")
    out: list[tuple[Fraction, Fraction]] = []
    for i, side in enumerate(box):
        if not isinstance(side, tuple | list) or len(side) != 2:
            raise InvalidArgument(f"box[{i}]={side!r} must be a (lo, hi) pair")
        lo, hi = _exact(side[0], f"box[{i}].lo"), _exact(side[1], f"box[{i}].hi")
        if lo > hi:
            raise InvalidArgument(f"box[{i}]=({lo}, {hi}) must have lo <= hi")
        out.append((lo, hi))
    return tuple(out)


def _intervals(box: Box) -> tuple[Interval, ...]:
    return tuple(Interval(lo, hi) for lo, hi in box)


def _point(xs: tuple[Fraction, ...]) -> tuple[Interval, ...]:
    return tuple(Interval.point(x) for x in xs)


def _split(box: Box, scale: tuple[Fraction, ...]) -> tuple[Box, Box]:
    k = max(range(len(box)), key=lambda i: ((box[i][1] - box[i][0]) / scale[i], -i))
    lo, hi = box[k]
    mid = (lo + hi) / 2
    left = (*box[:k], (lo, mid), *box[k + 1:])
    right = (*box[:k], (mid, hi), *box[k + 1:])
    return left, right


def _prove(f: Enclosure, box: Sequence[tuple[Fraction | int, Fraction | int]], strict: bool,
           max_boxes: int, prec: int) -> BnbResult:
    exact_box = _validate_box(box)
    if isinstance(max_boxes, bool) or not isinstance(max_boxes, int) or max_boxes < 1:
        raise InvalidArgument(f"max_boxes={max_boxes!r} must be an int >= 1")
    if isinstance(prec, bool) or not isinstance(prec, int) or prec < 8:
        raise InvalidArgument(f"prec={prec!r} must be an int >= 8")

    def enclose(xs: tuple[Interval, ...]) -> Interval:
        value = f(xs)
        if not isinstance(value, Interval):
            raise InvalidArgument(f"f returned {value!r}; it must return an Interval")
        return value.rounded(prec)  # outward: sound, and rounding never changes a sign

    def decided(enc: Interval) -> bool:
        return enc.lo > 0 if strict else enc.lo >= 0

    def refutes(enc: Interval) -> bool:
        return enc.hi <= 0 if strict else enc.hi < 0

    points = 0

    def try_witness(candidates: Sequence[tuple[Fraction, ...]]) -> BnbResult | None:
        nonlocal points
        for pt in candidates:
            points += 1
            enc = enclose(_point(pt))
            if refutes(enc):
                return BnbResult(Verdict.VIOLATED, strict, boxes, points, witness=pt,
                                 witness_enclosure=enc)
        return None

    boxes = 1
    root = enclose(_intervals(exact_box))
    if decided(root):
        return BnbResult(Verdict.HOLDS, strict, boxes, points, lower_bound=root.lo)
    if len(exact_box) <= MAX_VERTEX_DIM:
        vertices = list(itertools.product(*[sorted({lo, hi}) for lo, hi in exact_box]))
        found = try_witness(vertices)
        if found is not None:
            return found
    scale = tuple(hi - lo if hi > lo else Fraction(1) for lo, hi in exact_box)
    counter = itertools.count()
    heap: list[tuple[Fraction, int, Box, Interval]] = [(root.lo, next(counter), exact_box, root)]
    lower: Fraction | None = None  # min over decided leaves of enclosure.lo
    while heap:
        _, _, cur, enc = heapq.heappop(heap)
        mid = tuple((lo + hi) / 2 for lo, hi in cur)
        found = try_witness([mid])
        if found is not None:
            return found
        if boxes + 2 > max_boxes or all(lo == hi for lo, hi in cur):
            return BnbResult(Verdict.UNDECIDED, strict, boxes, points, worst_box=cur,
                             worst_enclosure=enc)
        for child in _split(cur, scale):
            boxes += 1
            child_enc = enclose(_intervals(child))
            if decided(child_enc):
                lower = child_enc.lo if lower is None else min(lower, child_enc.lo)
            else:
                heapq.heappush(heap, (child_enc.lo, next(counter), child, child_enc))
    assert lower is not None  # the root was split, so some leaf was decided
    return BnbResult(Verdict.HOLDS, strict, boxes, points, lower_bound=lower)


def prove_nonnegative(f: Enclosure, box: Sequence[tuple[Fraction | int, Fraction | int]], *,
                      max_boxes: int = _DEFAULT_MAX_BOXES,
                      prec: int = DEFAULT_PRECISION) -> BnbResult:
    """Prove f >= 0 on the closed ``box``, or find a proved witness with f < 0.

    ``f`` must be an interval extension (inclusion-isotone enclosure) of the
    real function; ``box`` holds exact (int or Fraction) endpoints, floats are
    refused.  Enclosures are rounded outward to ``prec`` bits before use.
    Origin: privref's proof method for numeric proof steps (e.g. 004 Claim C.3).
    """
    return _prove(f, box, False, max_boxes, prec)


def prove_positive(f: Enclosure, box: Sequence[tuple[Fraction | int, Fraction | int]], *,
                   max_boxes: int = _DEFAULT_MAX_BOXES,
                   prec: int = DEFAULT_PRECISION) -> BnbResult:
    """Prove f > 0 on the closed ``box``, or find a proved witness with f <= 0.

    Same contract as :func:`prove_nonnegative` with strict inequalities
    (used e.g. for 004 Observation 3.2).
    """
    return _prove(f, box, True, max_boxes, prec)


def mean_value_form(f: Enclosure,
                    gradient: Callable[[tuple[Interval, ...]], tuple[Interval, ...]]) -> Enclosure:
    """The mean-value interval extension of f, intersected with f's own enclosure.

    Conditions: the real function is continuously differentiable on every box
    it is applied to, and ``gradient(xs)`` encloses its gradient over the box
    ``xs``.  Then for x in the box, f(x) = f(m) + ∇f(ξ)·(x - m) for some ξ in
    the box (mean value theorem, m the exact midpoint), so f(x) lies in
    f([m]) + Σ_i G_i·(X_i - m_i); both that and ``f(xs)`` are enclosures, hence
    so is their intersection.  Useful where the natural extension suffers from
    dependency (e.g. the subsampling bound of 004 Claim C.1).
    """

    def enclosure(xs: tuple[Interval, ...]) -> Interval:
        mid = tuple(Interval.point((x.lo + x.hi) / 2) for x in xs)
        grads = gradient(xs)
        if len(grads) != len(xs):
            raise InvalidArgument(f"gradient returned {len(grads)} components for "
                                  f"{len(xs)} parameters")
        acc = f(mid)
        for g, x, m in zip(grads, xs, mid, strict=True):
            acc = acc + g * (x - m)
        natural = f(xs)
        lo, hi = max(acc.lo, natural.lo), min(acc.hi, natural.hi)
        if lo > hi:
            raise InvalidArgument("the mean-value and natural enclosures are disjoint: "
                                  "f or gradient is not a valid enclosure")
        return Interval(lo, hi)

    return enclosure


# ------------------------------------------------------------------ series


def interval_pow(x: Interval, k: int, prec: int = DEFAULT_PRECISION) -> Interval:
    """Enclosure of {t**k : t in x} for an integer k >= 0, rounded outward to ``prec`` bits.

    Exact endpoint powers (rational arithmetic), so the only error is the final
    outward rounding.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise InvalidArgument(f"k={k!r} must be an int >= 0")
    if k == 0:
        return Interval.point(1)
    a, b = x.lo**k, x.hi**k
    if x.lo >= 0 or k % 2 == 1:
        return Interval(min(a, b), max(a, b)).rounded(prec)
    if x.hi <= 0:
        return Interval(b, a).rounded(prec)
    return Interval(Fraction(0), max(a, b)).rounded(prec)


def power_series_tail(c_upper: Fraction, k: int, L: int) -> Interval:
    """Proved enclosure [0, B] of Σ_{ℓ>L} u_ℓ with u_ℓ = ℓ^k · (c/ℓ)^ℓ, for any 0 < c <= c_upper.

    Argument (stated here, checked by the exact arithmetic below): for ℓ >= 1,
    u_{ℓ+1}/u_ℓ = (1+1/ℓ)^k · c/(ℓ+1) · (ℓ/(ℓ+1))^ℓ <= (1+1/ℓ)^k · c/(ℓ+1),
    which decreases in ℓ; so for every ℓ >= L+1 the ratio is at most
    r = (1+1/(L+1))^k · c_upper/(L+2).  If r < 1 then u_ℓ <= u_{L+1} r^{ℓ-L-1}
    and Σ_{ℓ>L} u_ℓ <= u_{L+1}/(1-r), with u_{L+1} <= (L+1)^k (c_upper/(L+1))^{L+1}.
    Everything is exact rational arithmetic.  Raises InvalidArgument if r >= 1
    (take a larger L).  A series whose terms satisfy 0 <= term(ℓ) <= u_ℓ for
    ℓ > L therefore has its remainder in the returned interval.
    Origin: the tail bounds of the series in 004 Claim C.3 (proof).
    """
    c = _exact(c_upper, "c_upper")
    if c <= 0:
        raise InvalidArgument(f"c_upper={c} must be > 0")
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise InvalidArgument(f"k={k!r} must be an int >= 0")
    if isinstance(L, bool) or not isinstance(L, int) or L < 0:
        raise InvalidArgument(f"L={L!r} must be an int >= 0")
    r = (1 + Fraction(1, L + 1)) ** k * c / (L + 2)
    if r >= 1:
        raise InvalidArgument(f"L={L} too small: tail ratio bound {float(r):.4g} must be < 1")
    first = Fraction(L + 1) ** k * (c / (L + 1)) ** (L + 1)
    return Interval(Fraction(0), first / (1 - r)).rounded(DEFAULT_PRECISION)


def enclose_series(term: Callable[[int], Interval], L: int, tail: Interval, *, start: int = 0,
                   prec: int = DEFAULT_PRECISION) -> Interval:
    """Enclose Σ_{ℓ>=start} term(ℓ) as Σ_{ℓ=start}^{L} term(ℓ) + tail.

    Conditions (the caller's obligation, to be stated where it is used):
    ``term(ℓ)`` contains the ℓ-th term for start <= ℓ <= L, and ``tail``
    contains the remainder Σ_{ℓ>L} term(ℓ) (e.g. from :func:`power_series_tail`).
    Under them the result contains the sum.  Partial sums are rounded outward
    to ``prec`` bits.  Origin: the series constants of 004 Claim C.3 (proof).
    """
    if isinstance(L, bool) or not isinstance(L, int) or isinstance(start, bool) \
            or not isinstance(start, int) or start > L:
        raise InvalidArgument(f"L={L!r} and start={start!r} must be ints with L >= start")
    total = Interval.point(0)
    for ell in range(start, L + 1):
        total = (total + term(ell)).rounded(prec)
    return (total + tail).rounded(prec)
