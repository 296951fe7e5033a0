"""The sparse-vector variants of Lyu, Su and Li (PVLDB 10(6), 2017), Algorithms 1-6, as black-box targets.

Input: ``data`` is the list of query answers q_1..q_ℓ (every query has
sensitivity Δ = 1, so neighbors differ by at most 1 in every coordinate);
T is a fixed public threshold.  With ε1, ε2 as in the paper (Δ = 1):

====  ========================  ================  =====================  =======  ==============
Alg.  source (as in the paper)  threshold noise   query noise            cut-off  output on ⊤
====  ========================  ================  =====================  =======  ==============
1     Lyu et al. (proposed)     Lap(1/ε1), ε1=ε/2 Lap(2c/ε2)             c        ⊤
2     Dwork and Roth 2014       Lap(c/ε1), fresh  Lap(2c/ε1)             c        ⊤
                                after each ⊤
3     Roth 2011 lecture notes   Lap(1/ε1)         Lap(c/ε2)              c        q_i + ν_i
4     Lee and Clifton 2014      Lap(1/ε1), ε1=ε/4 Lap(1/ε2), ε2=3ε/4     c        ⊤
5     Stoddard et al. 2014      Lap(1/ε1)         none                   none     ⊤
6     Chen et al. 2015          Lap(1/ε1)         Lap(1/ε2)              none     ⊤
====  ========================  ================  =====================  =======  ==============

Each compares q_i + ν_i >= T + ρ.  Outcomes are tuples of length ℓ: for the
boolean variants 1 (⊤), 0 (⊥) and -1 (not answered: after the c-th ⊤ the
algorithm aborts); for Algorithm 3 the noisy answer q_i + ν_i (a float) for ⊤
and -inf for ⊥ and for positions after the abort (the abort position is
determined by the earlier entries, so nothing is lost).  StatDP
(cmla-psu/statdp, ``statdp/algorithms.py``) names: ``SVT`` = Algorithm 1,
``iSVT1`` = 5, ``iSVT2`` = 6, ``iSVT3`` = 4, ``iSVT4`` = 3.

The noise is numpy's float Laplace, as in the third-party implementations
these entries model; the exact laws in :func:`prefix_law` are those of the
real-arithmetic algorithm, enclosed by the exact core (:mod:`validation.zoo_integrands`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from privref.reference.citations import Uncited
from privref.reference.continuous_noise import LaplaceNoise, NoNoise, first_above
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import LInf
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program
from privref.reference.reals import Interval, rational

from .zoo_exact import audited_loss, int_values
from .zoo_integrands import Law, Piece, Pieces, enclose, expand, product, released_in
from .zoo_types import NOT_PRIVATE, Sampler, TrueEpsilon, Vectorized, Witness, ZooEntry

__all__ = [
    "ABORTED",
    "BOTTOM",
    "TOP",
    "PrefixItem",
    "SVTSpec",
    "enclose_prefix",
    "prefix_contains",
    "prefix_law",
    "svt_entries",
    "svt_mechanism",
    "svt_sampler",
    "svt_vectorized",
]

TOP, BOTTOM, ABORTED = 1, 0, -1
"""Codes of the boolean variants' outcome entries."""

PrefixItem = int | tuple[Fraction | None, Fraction | None]
"""One constrained position of an event: TOP, BOTTOM, or (lo, hi): "⊤ with noisy value in [lo, hi)"
(Algorithm 3 only; lo None means -∞, hi None +∞)."""

Variant = Literal[1, 2, 3, 4, 5, 6]


@dataclass(frozen=True, slots=True)
class SVTSpec:
    """One of Lyu et al.'s Algorithms 1-6 with its parameters (Δ = 1).

    ``epsilon`` is the budget the algorithm's source claims; ``cutoff`` is c
    (ignored by Algorithms 5 and 6, which have none); ``threshold`` is T.
    """

    variant: Variant
    epsilon: Fraction
    cutoff: int
    threshold: Fraction

    def __post_init__(self) -> None:
        if self.variant not in (1, 2, 3, 4, 5, 6):
            raise InvalidArgument(f"variant={self.variant!r} must be one of 1..6")
        if self.epsilon <= 0:
            raise InvalidArgument(f"epsilon={self.epsilon} must be > 0")
        if self.cutoff < 1:
            raise InvalidArgument(f"cutoff={self.cutoff} must be >= 1")

    @property
    def threshold_scale(self) -> Fraction:
        """Scale of the threshold noise ρ (Algorithm 2: of each fresh draw)."""
        eps, c = self.epsilon, self.cutoff
        return {1: 2 / eps, 2: 2 * c / eps, 3: 2 / eps, 4: 4 / eps, 5: 2 / eps, 6: 2 / eps}[self.variant]

    @property
    def query_scale(self) -> Fraction:
        """Scale of each query's noise ν_i (0: none)."""
        eps, c = self.epsilon, self.cutoff
        return {1: 4 * c / eps, 2: 4 * c / eps, 3: 2 * c / eps, 4: 4 / (3 * eps), 5: Fraction(0),
                6: 2 / eps}[self.variant]

    @property
    def has_cutoff(self) -> bool:
        """Whether the algorithm aborts after the c-th ⊤ (all but Algorithms 5 and 6)."""
        return self.variant not in (5, 6)

    @property
    def numeric(self) -> bool:
        """Whether ⊤ releases the noisy answer (Algorithm 3)."""
        return self.variant == 3


def _answers(data: Sequence[object]) -> npt.NDArray[np.float64]:
    values = []
    for i, x in enumerate(data):
        if isinstance(x, bool) or not isinstance(x, int | Fraction):
            raise InvalidArgument(f"data[{i}]={x!r} must be an int query answer")
        values.append(float(x))
    if not values:
        raise InvalidArgument("data=[] must hold at least one query answer")
    return np.asarray(values, dtype=np.float64)


def svt_vectorized(spec: SVTSpec, data: Sequence[object], rng: np.random.Generator,
                   size: int) -> npt.NDArray[np.int8] | npt.NDArray[np.float64]:
    """``size`` outcomes as rows of an array (int8 codes, or floats for Algorithm 3)."""
    q = _answers(data)
    n = q.size
    t = float(spec.threshold)
    b0, b = float(spec.threshold_scale), float(spec.query_scale)
    rho = rng.laplace(0.0, b0, size)
    noisy = q + (rng.laplace(0.0, b, (size, n)) if b > 0 else np.zeros((size, n)))
    if spec.variant == 2:  # a fresh threshold after every ⊤
        top = np.empty((size, n), dtype=bool)
        for j in range(n):
            top[:, j] = noisy[:, j] >= t + rho
            fresh = rng.laplace(0.0, b0, size)
            rho = np.where(top[:, j], fresh, rho)
    else:
        top = noisy >= t + rho[:, None]
    if spec.numeric:
        if spec.has_cutoff:
            top &= _answered(top, spec.cutoff)
        return np.where(top, noisy, -math.inf)
    codes = top.astype(np.int8)  # TOP = 1, BOTTOM = 0
    if spec.has_cutoff:
        codes[~_answered(top, spec.cutoff)] = ABORTED
    return codes


def _answered(top: npt.NDArray[np.bool_], cutoff: int) -> npt.NDArray[np.bool_]:
    """Positions reached before the abort: fewer than c ⊤ strictly before them."""
    before = np.cumsum(top, axis=1, dtype=np.int32)
    before -= top
    result: npt.NDArray[np.bool_] = before < cutoff
    return result


def svt_sampler(spec: SVTSpec, data: Sequence[object], rng: np.random.Generator
                ) -> tuple[int, ...] | tuple[float, ...]:
    """One outcome, drawn query by query as the algorithm is written (same law as the vectorized form)."""
    q = _answers(data)
    t = float(spec.threshold)
    b0, b = float(spec.threshold_scale), float(spec.query_scale)
    rho = float(rng.laplace(0.0, b0))
    count = 0
    codes: list[int] = []
    values: list[float] = []
    for answer in q:
        if spec.has_cutoff and count >= spec.cutoff:
            codes.append(ABORTED)
            values.append(-math.inf)
            continue
        noisy = float(answer) + (float(rng.laplace(0.0, b)) if b > 0 else 0.0)
        if noisy >= t + rho:
            count += 1
            codes.append(TOP)
            values.append(noisy)
            if spec.variant == 2:
                rho = float(rng.laplace(0.0, b0))
        else:
            codes.append(BOTTOM)
            values.append(-math.inf)
    return tuple(values) if spec.numeric else tuple(codes)


def _noises(spec: SVTSpec) -> tuple[LaplaceNoise, LaplaceNoise | NoNoise]:
    """(threshold noise ρ, query noise ν) as the core's noise laws (Algorithm 5: no query noise)."""
    query = spec.query_scale
    return LaplaceNoise(spec.threshold_scale), (LaplaceNoise(query) if query else NoNoise())


def _factor(spec: SVTSpec, item: PrefixItem, answer: Fraction) -> Piece | Pieces:
    """The factor of x = T + ρ that ``item`` contributes at a query with answer q: ⊤ is
    P(q + ν > x) (the survival factor of q + ν), ⊥ its CDF, (lo, hi) :func:`released_in`."""
    _, nu = _noises(spec)
    match item:
        case 1:
            return Piece(nu, "sf", answer)
        case 0:
            return Piece(nu, "cdf", answer)
        case (lo, hi):
            if not spec.numeric or isinstance(nu, NoNoise):
                raise InvalidArgument("value intervals are only meaningful for Algorithm 3")
            return released_in(nu, answer, lo, hi)
    raise InvalidArgument(f"prefix item {item!r} must be TOP, BOTTOM or a (lo, hi) value interval")


def _is_top(item: PrefixItem) -> bool:
    return item == TOP or isinstance(item, tuple)


def prefix_law(spec: SVTSpec, data: Sequence[int], prefix: Sequence[PrefixItem]) -> Law:
    """P(the first len(prefix) outcome entries match ``prefix``) for the real-arithmetic algorithm.

    With x = T + ρ, the entries are independent given x, so the probability is
    ∫ f_x · Π_i g_i(x) dx with g_i the factor of entry i (:func:`_factor`): the core's
    closed-form integrand, one per segment of Algorithm 2 (which draws a fresh threshold after
    each ⊤).  The prefix may not run past the abort: it holds at most c ⊤ and, if it holds c,
    ends with the c-th one.  Later entries are unconstrained, so full outcomes are the
    prefixes of length ℓ (or ending at the abort).
    """
    if len(prefix) > len(data):
        raise InvalidArgument(f"prefix of length {len(prefix)} is longer than data ({len(data)})")
    tops = [i for i, item in enumerate(prefix) if _is_top(item)]
    if spec.has_cutoff and (len(tops) > spec.cutoff or (
            len(tops) == spec.cutoff and tops[-1] != len(prefix) - 1)):
        raise InvalidArgument(f"prefix {tuple(prefix)!r} runs past the abort after {spec.cutoff} ⊤")
    answers = [Fraction(x) for x in data]
    segments: list[list[Piece | Pieces]] = [[]]
    for item, answer in zip(prefix, answers, strict=False):
        segments[-1].append(_factor(spec, item, answer))
        if spec.variant == 2 and _is_top(item):
            segments.append([])  # Algorithm 2 draws a fresh threshold after each ⊤
    rho, _ = _noises(spec)
    density = Piece(rho, "density", spec.threshold)
    return product(*(expand(density, factors) for factors in segments if factors))


def prefix_contains(spec: SVTSpec, prefix: Sequence[PrefixItem], outcome: Sequence[float]) -> bool:
    """Whether an outcome (as returned by the samplers) lies in the prefix event."""
    if len(outcome) < len(prefix):
        return False
    for item, value in zip(prefix, outcome, strict=False):
        if not spec.numeric:
            ok = value == item
        elif isinstance(item, tuple):
            lo, hi = item
            ok = value != -math.inf and (lo is None or value >= lo) and (hi is None or value < hi)
        else:
            ok = (value != -math.inf) == (item == TOP)
        if not ok:
            return False
    return True


def enclose_prefix(spec: SVTSpec, data: Sequence[int], prefix: Sequence[PrefixItem]) -> Interval:
    """Rigorous enclosure of :func:`prefix_law`, by the exact core (:func:`zoo_integrands.enclose`)."""
    return enclose(prefix_law(spec, data, prefix))


def svt_mechanism(spec: SVTSpec, length: int) -> Mechanism[tuple[int, ...]]:
    """Lyu et al.'s Algorithm ``spec.variant`` on ``length`` sensitivity-1 answers, as a core
    program whose outcomes are :func:`validation.zoo_svt.svt_sampler`'s codes (1 ⊤, 0 ⊥,
    -1 aborted).

    Each round is one :func:`~privref.reference.continuous_noise.first_above` over the
    answers not yet read, with its own threshold noise: exact for Algorithm 2 (a fresh
    threshold after each ⊤) at any cut-off, and for Algorithms 1 and 4 at c = 1 (one round).
    InvalidArgument for the others (a threshold shared by several ⊤, or released values).
    """
    if not (spec.variant == 2 or (spec.variant in (1, 4) and spec.cutoff == 1)):
        raise InvalidArgument(f"variant={spec.variant} with cutoff={spec.cutoff} shares one noisy "
                              "threshold across several answers or releases values: no core "
                              "event gives its law")
    if length < 1:
        raise InvalidArgument(f"length={length} must be >= 1")
    rho, nu = LaplaceNoise(spec.threshold_scale), LaplaceNoise(spec.query_scale)

    def program(data: Dataset) -> Program[tuple[int, ...]]:
        values = int_values(data)
        if len(values) != length:
            raise InvalidArgument(f"data has {len(values)} answers; this program takes {length}")
        codes: list[int] = []
        while len(codes) < length:
            if codes.count(TOP) == spec.cutoff:
                codes.append(ABORTED)
                continue
            rest = values[len(codes):]
            j = yield from first_above(rho, spec.threshold, nu, rest)
            codes += [BOTTOM] * j + ([TOP] if j < len(rest) else [])
        return tuple(codes)

    return Mechanism(f"sparse vector (Lyu et al. Algorithm {spec.variant}, c = {spec.cutoff})",
                     program, PrivacyClaim(rational(spec.epsilon)),
                     Uncited("the zoo's sparse vector as a core program (validation)"),
                     relation=LInf(),
                     description=f"threshold {spec.threshold} + {rho}, queries + {nu}")


# ------------------------------------------------------------------ zoo entries

LENGTH = 10
"""ℓ: the zoo instances answer exactly 10 queries."""

EPSILON = Fraction(1)
CUTOFF = 2
THRESHOLD = Fraction(0)

_SOURCE = ("Lyu, Su, Li, 'Understanding the Sparse Vector Technique for Differential Privacy', "
           "PVLDB 10(6):637-648, 2017 (arXiv:1603.01699)")
_RELATION = (f"query-answer vectors of length {LENGTH}; neighbors differ by at most 1 in every "
             "coordinate (each query has sensitivity 1)")


def _spec(variant: Variant) -> SVTSpec:
    return SVTSpec(variant, EPSILON, CUTOFF, THRESHOLD)


def _checked(data: Sequence[object]) -> list[int]:
    if len(data) != LENGTH:
        raise InvalidArgument(f"data has {len(data)} query answers; the zoo's SVT instances take "
                              f"exactly {LENGTH}")
    answers = []
    for i, x in enumerate(data):
        if isinstance(x, bool) or not isinstance(x, int):
            raise InvalidArgument(f"data[{i}]={x!r} must be an int query answer")
        answers.append(x)
    return answers


def _targets(spec: SVTSpec) -> tuple[Sampler, Vectorized]:
    def sampler(data: list[Any], rng: np.random.Generator) -> Any:
        return svt_sampler(spec, _checked(data), rng)

    def vectorized(data: list[Any], rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        return svt_vectorized(spec, _checked(data), rng, size)

    sampler.__name__ = vectorized.__name__ = f"svt{spec.variant}"
    return sampler, vectorized


def _describe(prefix: Sequence[PrefixItem]) -> str:
    parts = []
    for i, item in enumerate(prefix, start=1):
        if isinstance(item, tuple):
            lo, hi = item
            parts.append(f"#{i} ⊤ with noisy value < {hi}" if lo is None
                         else f"#{i} ⊤ with noisy value >= {lo}" if hi is None
                         else f"#{i} ⊤ with noisy value in [{lo}, {hi})")
        else:
            parts.append(f"#{i} {'⊤' if item == TOP else '⊥'}")
    return "outcome entries " + ", ".join(parts) + " (later entries free)"


@cache
def _enclosed(spec: SVTSpec, data: tuple[int, ...], prefix: tuple[PrefixItem, ...]) -> Interval:
    return enclose_prefix(spec, data, prefix)


def _witness(spec: SVTSpec, a: Sequence[int], b: Sequence[int], prefix: Sequence[PrefixItem]
             ) -> Witness:
    pre = tuple(prefix)
    return Witness(a=list(a), b=list(b), event=_describe(pre),
                   contains=lambda outcome: prefix_contains(spec, pre, outcome),
                   p=_enclosed(spec, tuple(a), pre), q=_enclosed(spec, tuple(b), pre),
                   basis="exact core: closed-form Laplace integrals over the threshold "
                         "(continuous_noise.integral via zoo_integrands), enclosed rigorously")


def _lower(witnesses: Sequence[Witness]) -> Fraction:
    bounds = [w.epsilon_lower() for w in witnesses]
    return max(b for b in bounds if b is not None)


def svt_entries() -> tuple[ZooEntry, ...]:
    """The six variants at ε = 1, c = 2, T = 0, ℓ = 10 (see the module docstring)."""
    eps = EPSILON
    flat = [3] * LENGTH
    mixed = [4] * 8 + [2] * 2
    zeros, ones = [0] * LENGTH, [1] * LENGTH
    bottoms8_tops2: list[PrefixItem] = [*([BOTTOM] * 8), TOP, TOP]
    entries = []

    s1 = _spec(1)
    w1 = (_witness(s1, flat, mixed, bottoms8_tops2),)
    entries.append(_entry(
        s1, "svt1", True, Interval(_lower(w1), eps), w1, ("SVT",),
        basis="upper: Lyu et al. prove Alg. 1 ε-DP (Section 3; Table 1); lower: the exact loss of the "
              "listed witness event",
        notes="Lyu et al.'s proposed SVT.  The listed pair is the best of a search over constant "
              "vectors x·1 (x in -3..3) against neighbors raising the first k answers and lowering "
              "the rest (or the reverse), over all outcomes; on the same pattern the loss creeps "
              "up as x grows (0.9526 at x = 11)."))

    s2 = _spec(2)
    w2 = (_witness(s2, flat, [4] * 9 + [2], [BOTTOM] * 4 + [TOP] + [BOTTOM] * 4 + [TOP]),)
    audited2 = audited_loss(svt_mechanism, (s2, LENGTH), [(w.a, w.b) for w in w2])
    entries.append(_entry(
        s2, "svt2", True, Interval(audited2.lower, eps), w2, (),
        basis="upper: Lyu et al. show Dwork and Roth's SVT ε-DP (Section 3; Table 1); lower: the "
              "exact auditor's loss over the listed pair in both orders (audits.exact.audit_pair "
              "on the core program validation.zoo_exact.svt_mechanism: one first_above per ⊤, "
              "each with its fresh threshold; every outcome set), which the listed witness "
              "event attains",
        notes="Dwork and Roth (2014) resample the threshold after every ⊤; with ε1 = ε2 its "
              "noise scales are 2c/ε (threshold) and 4c/ε (queries).  Witness: the best of the "
              "same search as svt1."))

    s3 = _spec(3)
    tail = _witness(s3, zeros, ones, [BOTTOM] * (LENGTH - 1) + [(None, Fraction(0))])
    likely = _witness(s3, zeros, ones, [BOTTOM] * 8 + [(None, Fraction(2))])
    value3 = Fraction(LENGTH) * eps / (2 * CUTOFF)
    entries.append(_entry(
        s3, "svt3", False, rational(value3), (tail, likely), ("iSVT4",),
        basis=f"exact: ℓ·ε2/c = {value3}.  Upper: the output is a function of ρ (data-free) and "
              "the ℓ answers q_i + Lap(c/ε2) (composition).  Lower: on the listed pair every "
              "factor of the first witness's integrand is a left-tail Laplace CDF, so the ratio is "
              "e^{ℓ·ε2/c} exactly.  Lyu et al. (Table 1): not ε'-DP for any ε' independent of ℓ",
        notes="Roth's lecture-notes SVT releases q_i + ν_i on ⊤; the loss grows with the number "
              "of ⊥ answers.  The second witness trades ratio for probability."))

    s4 = _spec(4)
    w4 = (_witness(s4, flat, mixed, bottoms8_tops2),
          _witness(s4, [-1, -1, -1] + [1] * 7, zeros, [BOTTOM] * 3 + [TOP, TOP]))
    entries.append(_entry(
        s4, "svt4", False, Interval(_lower(w4), (1 + 6 * CUTOFF) * eps / 4), w4, ("iSVT3",),
        basis="upper: Lyu et al. show Alg. 4 is ((1+6c)/4)ε-DP (Table 1); lower: the exact loss "
              "of the first witness event",
        notes="Lee and Clifton (2014) spend ε/4 on the threshold and give queries noise "
              "Lap(1/ε2) that does not scale with c."))

    s5 = _spec(5)
    w5 = (_witness(s5, [1] + [0] * (LENGTH - 1), zeros, [TOP, BOTTOM]),)
    entries.append(_entry(
        s5, "svt5", False, NOT_PRIVATE, w5, ("iSVT1",),
        basis="exact: without query noise, ⊤ on q_1 and ⊥ on q_2 needs q_1 >= T + ρ > q_2, "
              "impossible when q_1 = q_2 and of probability P(0 < ρ <= 1) > 0 when q_1 = q_2 + 1 "
              "(Lyu et al., Table 1: ∞-DP)",
        notes="Stoddard et al. (2014) add no noise to the queries and never abort."))

    s6 = _spec(6)
    w6 = (_witness(s6, [-4] * 5 + [4] * 5, [-5] * 5 + [5] * 5, [TOP] * 5 + [BOTTOM] * 5),
          _witness(s6, [1, 1, 1] + [-1] * 7, zeros, [TOP] * 3 + [BOTTOM] * 3))
    value6 = Fraction(LENGTH) * eps / 2
    entries.append(_entry(
        s6, "svt6", False, rational(value6), w6, ("iSVT2",),
        basis=f"exact supremum ℓ·ε2 = {value6}, not attained.  Upper: composition over the ℓ "
              "answers q_i + Lap(1/ε2).  Lower: with ⊤ queries lowered and ⊥ queries raised by "
              "1, the conditional ratio given ρ is e^{ℓ·ε2} on a window of ρ that can be made "
              "to carry all but a vanishing share of the mass; the first witness (⊤ queries at "
              "-4, ⊥ queries at 4) already reaches 4.96.  Lyu et al. (Table 1): ∞-DP as ℓ grows",
        notes="Chen et al. (2015) never abort and give queries noise Lap(1/ε2)."))
    return tuple(entries)


def _entry(spec: SVTSpec, name: str, correct: bool, true: TrueEpsilon,
           witnesses: tuple[Witness, ...], aliases: tuple[str, ...], *, basis: str,
           notes: str) -> ZooEntry:
    sampler, vectorized = _targets(spec)
    pairs: list[tuple[list[Any], list[Any]]] = []
    for w in witnesses:
        if (w.a, w.b) not in pairs:
            pairs.append((list(w.a), list(w.b)))
    return ZooEntry(
        name=name, sampler=sampler, vectorized=vectorized, claimed_epsilon=rational(spec.epsilon),
        claimed_delta=Fraction(0), true_epsilon=true, true_epsilon_basis=basis, correct=correct,
        source=f"{_SOURCE}, Algorithm {spec.variant}", relation=_RELATION, pairs=tuple(pairs),
        witnesses=witnesses,
        notes=(f"Threshold noise Lap({spec.threshold_scale}), query noise "
               f"{'none' if spec.query_scale == 0 else f'Lap({spec.query_scale})'}, "
               f"{f'abort after c = {spec.cutoff} ⊤' if spec.has_cutoff else 'no abort'}, "
               f"T = {spec.threshold}.  " + notes),
        float_outputs=spec.numeric, aliases=aliases)
