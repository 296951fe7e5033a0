"""DP-Sniper's benchmark mechanisms at its default configuration, with their true epsilon where known.

Bichsel, Steffen, Bogunovic, Vechev, 'DP-Sniper: Black-Box Discovery of
Differential Privacy Violations using Classifiers', IEEE S&P 2021
(eth-sri/dp-sniper, ``dpsniper/mechanisms`` and ``experiments/exp_default.py``),
benchmark most of StatDP's mechanisms (Ding et al., CCS 2018) and a few more,
all at target ε = 0.1.  Each entry here is written from the sources'
descriptions at DP-Sniper's default parameters, with its input pairs: StatDP's
patterns (:func:`dpsniper_pairs`), one-entry or component-wise.

=======================  ===========================  ==============  ===========================
DP-Sniper mechanism      entry                        claimed ε       true ε (how known)
=======================  ===========================  ==============  ===========================
LaplaceMechanism         dpsniper_laplace             1/10            1/10 (closed form)
TruncatedGeometric...    dpsniper_truncated_geometric ln(9/8)         ln(9/8) (closed form)
NoisyHist1 / 2           dpsniper_noisy_hist1 / 2     1/10            1/10 / 10 (closed form)
ReportNoisyMax1          dpsniper_report_noisy_max1   1/10            [0.0946.., 1/10]
ReportNoisyMax2          dpsniper_report_noisy_max2   1/10            1/10 (closed form, attained)
ReportNoisyMax3 / 4      dpsniper_report_noisy_max3/4 1/10            1/4 / not private
SparseVectorTechnique1-6 dpsniper_svt1..6             1/10            see :func:`dpsniper_entries`
Rappor / OneTimeRappor   dpsniper_rappor / _one_time  8·ln(41/39) /   m·ln(41/39) / m·ln(21/19),
                                                      8·ln(21/19)     m = Bloom-filter distance
LaplaceParallel          dpsniper_laplace_parallel    1/10            1/10 (closed form)
SVT34Parallel            dpsniper_svt34_parallel      1/5             enclosure
PrefixSum                dpsniper_prefix_sum          1/10            1 (closed form)
NumericalSVT             dpsniper_numerical_svt       1/10            enclosure
=======================  ===========================  ==============  ===========================

The sparse-vector variants are Lyu, Su and Li's Algorithms 1-6 exactly as in
:mod:`validation.zoo_svt` (same noise scales, cut-off and outputs), so
they reuse its samplers and exact laws at DP-Sniper's parameters (ε = 1/10,
c = 1, T = 1/2 for SVT1 and 1 otherwise) instead of a second implementation;
:data:`MAPPING` lists every correspondence with the rest of the zoo.
:data:`PUBLISHED` holds DP-Sniper's published default-configuration bounds.

Noise that DP-Sniper draws as floats is drawn as numpy floats here too
(``float_outputs`` marks the entries that release them); the true ε is that
of the real-arithmetic mechanism, as for the other float entries of the zoo.
Finite laws (truncated geometric, RAPPOR) are sampled exactly from integers.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from privref.reference.continuous_noise import (
    ContinuousNoise,
    ExponentialNoise,
    LaplaceNoise,
    NoisyArgmax,
    law_of,
)
from privref.reference.errors import InvalidArgument
from privref.reference.reals import Interval, Real, interval_exp, log, prob_as_interval, rational

from .zoo_exact import audited_loss
from .zoo_integrands import ONE, Law, Piece, Term, enclose, integrand, product, tail
from .zoo_selection import noisy_max_mechanism
from .zoo_svt import (
    BOTTOM,
    TOP,
    PrefixItem,
    SVTSpec,
    enclose_prefix,
    prefix_contains,
    svt_mechanism,
    svt_sampler,
    svt_vectorized,
)
from .zoo_types import NOT_PRIVATE, Sampler, TrueEpsilon, Vectorized, Witness, ZooEntry

__all__ = [
    "EPSILON",
    "MAPPING",
    "PUBLISHED",
    "RAPPOR_DOMAIN",
    "bloom_bits",
    "dpsniper_entries",
    "dpsniper_pairs",
    "geometric_cdf_numerators",
    "left_tail_laws",
    "murmur3_32",
    "numerical_svt_law",
]

EPSILON = Fraction(1, 10)
"""DP-Sniper's target ε for every benchmark mechanism."""

PUBLISHED: dict[str, Fraction] = {
    "LaplaceMechanism": Fraction("0.0968"), "TruncatedGeometricMechanism": Fraction("0.1156"),
    "NoisyHist1": Fraction("0.0978"), "NoisyHist2": Fraction("4.602"),
    "ReportNoisyMax1": Fraction("0.0923"), "ReportNoisyMax2": Fraction("0.0975"),
    "ReportNoisyMax3": Fraction("0.2478"), "ReportNoisyMax4": Fraction("0.3463"),
    "SparseVectorTechnique1": Fraction("0.0858"), "SparseVectorTechnique2": Fraction("0.0859"),
    "SparseVectorTechnique3": Fraction("0.1716"), "SparseVectorTechnique4": Fraction("0.1687"),
    "SparseVectorTechnique5": Fraction("1.7612"), "SparseVectorTechnique6": Fraction("0.2720"),
    "Rappor": Fraction("0.2930"), "OneTimeRappor": Fraction("0.5978"),
    "LaplaceParallel": Fraction("0.0350"), "SVT34Parallel": Fraction("0.2610"),
    "PrefixSum": Fraction("0.5040"), "NumericalSVT": Fraction("0.0343"),
}
"""DP-Sniper's published lower bounds at target ε = 0.1, default configuration (Bichsel et al. 2021,
as quoted in privref issue 13), keyed by DP-Sniper's class name."""

MAPPING: tuple[tuple[str, str, str], ...] = (
    ("LaplaceMechanism", "dpsniper_laplace",
     "laplace_float's algorithm (count + float Laplace(1/ε)) on a scalar input at ε = 1/10"),
    ("TruncatedGeometricMechanism", "dpsniper_truncated_geometric", "new"),
    ("NoisyHist1", "dpsniper_noisy_hist1",
     "StatDP histogram; zoo 'histogram' is the same algorithm with exact discrete noise at ε = 1/2"),
    ("NoisyHist2", "dpsniper_noisy_hist2",
     "StatDP histogram_eps; zoo 'histogram_inverted_scale' with discrete noise at ε = 1/2"),
    ("ReportNoisyMax1", "dpsniper_report_noisy_max1",
     "StatDP noisy_max_v1a = zoo 'noisy_max_index' (Laplace(2/ε), index) at ε = 1/10"),
    ("ReportNoisyMax2", "dpsniper_report_noisy_max2", "new (StatDP noisy_max_v2a)"),
    ("ReportNoisyMax3", "dpsniper_report_noisy_max3",
     "StatDP noisy_max_v1b = zoo 'noisy_max_value' (Laplace(2/ε), value) at ε = 1/10"),
    ("ReportNoisyMax4", "dpsniper_report_noisy_max4", "new (StatDP noisy_max_v2b)"),
    *((f"SparseVectorTechnique{k}", f"dpsniper_svt{k}",
       f"Lyu et al. Algorithm {k} = zoo 'svt{k}' (zoo_svt.SVTSpec variant {k}) at "
       f"ε = 1/10, c = 1, T = {'1/2' if k == 1 else '1'}") for k in range(1, 7)),
    ("Rappor", "dpsniper_rappor", "new"),
    ("OneTimeRappor", "dpsniper_one_time_rappor", "new"),
    ("LaplaceParallel", "dpsniper_laplace_parallel", "new"),
    ("SVT34Parallel", "dpsniper_svt34_parallel",
     "zoo_svt variants 3 and 4 at ε = 1/10, c = 2, T = 1, run side by side"),
    ("PrefixSum", "dpsniper_prefix_sum", "new"),
    ("NumericalSVT", "dpsniper_numerical_svt", "new"),
)
"""(DP-Sniper class name, entry here, how it relates to the rest of the zoo).

DP-Sniper's SparseVectorTechnique k is Lyu et al.'s Algorithm k (DP-Sniper's
docstrings cite it; the noise scales agree: SVT1 threshold 1/ε1 = 2/ε and
queries 2c/ε2 = 4c/ε, ...), so StatDP's names map as in zoo_svt: SVT = 1,
iSVT1 = 5, iSVT2 = 6, iSVT3 = 4, iSVT4 = 3."""

RAPPOR_DOMAIN = range(-10, 11)
"""DP-Sniper's input domain for RAPPOR: one integer value in [-10, 10]."""

_BICHSEL = "Bichsel, Steffen, Bogunovic, Vechev, 'DP-Sniper', IEEE S&P 2021 (eth-sri/dp-sniper)"
_DING = "Ding, Wang, Wang, Zhang, Kifer, 'Detecting Violations of Differential Privacy', CCS 2018"
_LYU = "Lyu, Su, Li, 'Understanding the Sparse Vector Technique for Differential Privacy', PVLDB 2017"
_WANG = "Wang, Ding, Wang, Kifer, Zhang, 'Proving Differential Privacy with Shadow Execution', PLDI 2019"
_RAPPOR = "Erlingsson, Pihur, Korolova, 'RAPPOR', CCS 2014"

Pair = tuple[list[int], list[int]]


def dpsniper_pairs(dimensions: int, componentwise: bool) -> tuple[Pair, ...]:
    """StatDP's input patterns as DP-Sniper generates them, each pair in both orders.

    Base a = 1^d; b = 0 1^{d-1} (one above) and 2 1^{d-1} (one below); with
    component-wise neighbors also 2 0^{d-1}, 0 2^{d-1}, 2^{h} 0^{d-h} (h = ⌊d/2⌋),
    2^d, 0^d, and the X shape 1^h 0^{d-h} against 0^h 1^{d-h} (Ding et al. 2018,
    Section 5; DP-Sniper's PatternGenerator).
    """
    if dimensions < 1:
        raise InvalidArgument(f"dimensions={dimensions} must be >= 1")
    d, h = dimensions, dimensions // 2
    one = [1] * d
    raw = [(one, [0] + [1] * (d - 1)), (one, [2] + [1] * (d - 1))]
    if componentwise:
        raw += [(one, [2] + [0] * (d - 1)), (one, [0] + [2] * (d - 1)),
                (one, [2] * h + [0] * (d - h)), (one, [2] * d), (one, [0] * d),
                ([1] * h + [0] * (d - h), [0] * h + [1] * (d - h))]
    out: list[Pair] = []
    for a, b in raw:
        out += [(list(a), list(b)), (list(b), list(a))]
    return tuple(out)


def _ints(data: Sequence[object], length: int, what: str, lo: int | None = None,
          hi: int | None = None) -> list[int]:
    if len(data) != length:
        raise InvalidArgument(f"data has {len(data)} entries; this mechanism takes exactly {length}")
    out = []
    for i, x in enumerate(data):
        if isinstance(x, bool) or not isinstance(x, int) or (lo is not None and x < lo) or (
                hi is not None and x > hi):
            rng_text = "" if lo is None or hi is None else f" in [{lo}, {hi}]"
            raise InvalidArgument(f"data[{i}]={x!r} must be an int {what}{rng_text}")
        out.append(x)
    return out


def _left_tails(scale: Fraction, k: int, shift: int = 1) -> tuple[Interval, Interval]:
    """(P, Q) = (P(L <= 0)^k, P(shift + L <= 0)^k) = ((½)^k, (½e^{-shift/scale})^k) for k
    independent L ~ Laplace(scale): the core's threshold tests (``left_tail_laws``)."""
    p, q = left_tail_laws(scale, k, shift)
    return enclose(p), enclose(q)


def left_tail_laws(scale: Fraction, k: int, shift: int = 1) -> tuple[Law, Law]:
    """The laws of :func:`_left_tails`: k core threshold tests P(0 + L <= 0), P(shift + L <= 0)."""
    noise = LaplaceNoise(scale)
    zero = Fraction(0)
    return (product(*[tail(noise, zero, zero, False)] * k),
            product(*[tail(noise, Fraction(shift), zero, False)] * k))


# ------------------------------------------------------- additive noise


def _laplace_targets(length: int, copies: int, scale: Fraction, name: str, *,
                     prefix_sums: bool = False) -> tuple[Sampler, Vectorized]:
    """x + Laplace(scale) per coordinate (``copies`` times a scalar x when length is 1 and copies > 1)."""
    b = float(scale)

    def vectorized(data: list[Any], rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        x = np.asarray(_ints(data, length, "input"), dtype=np.float64)
        width = max(length, copies)
        out = np.broadcast_to(x, (width,)) + rng.laplace(0.0, b, (size, width))
        if prefix_sums:
            out = np.cumsum(out, axis=1)
        return out[:, 0] if width == 1 else out

    def sampler(data: list[Any], rng: np.random.Generator) -> Any:
        x = _ints(data, length, "input")
        values = [float(x[min(i, length - 1)]) + float(rng.laplace(0.0, b))
                  for i in range(max(length, copies))]
        if prefix_sums:
            values = list(itertools.accumulate(values))
        return values[0] if len(values) == 1 else tuple(values)

    sampler.__name__ = vectorized.__name__ = name
    return sampler, vectorized


def _tail_witness(a: list[int], b: list[int], pq: tuple[Interval, Interval], event: str,
                  contains: Callable[[Any], bool]) -> Witness:
    return Witness(a=a, b=b, event=event, contains=contains, p=pq[0], q=pq[1],
                   basis="exact core: Laplace left tails P(x + L < x) = 1/2 and "
                         "P(x + 1 + L < x) = e^(-1/b)/2 (continuous_noise.ThresholdTest), "
                         "independent coordinates")


# ------------------------------------------------------- truncated geometric

GEOMETRIC_N = 5
"""n: the truncated geometric mechanism releases a count in [0, n]."""


def _geometric_k(epsilon: Fraction) -> int:
    """k = ⌈ln(2/ε)⌉ as DP-Sniper computes it (a natural logarithm), decided exactly."""
    k = 0
    while not interval_exp(Interval.point(k)).lo >= 2 / epsilon:  # e^k >= 2/ε, the first such k
        if interval_exp(Interval.point(k)).hi >= 2 / epsilon:
            raise AssertionError("e^k and 2/ε not separated at the default precision")
        k += 1
    return k


def geometric_cdf_numerators(count: int, k: int, n: int = GEOMETRIC_N) -> tuple[int, ...]:
    """F(0..n) of Balcer and Vadhan's GeoSample (arXiv:1709.05396, Alg. 4.8): P(Z <= z) = F(z)/d.

    d = (2^{k+1}+1)(2^k+1)^{n-1}; F(z) = 2^{k(c-z)}(2^k+1)^{n-(c-z)} for z < c,
    d - 2^{k(z-c+1)}(2^k+1)^{n-1-(z-c)} for c <= z < n, and F(n) = d.
    """
    if not 0 <= count <= n:
        raise InvalidArgument(f"count={count} must lie in [0, {n}]")
    two_k, d = 2**k, (2 ** (k + 1) + 1) * (2**k + 1) ** (n - 1)
    f = [two_k ** (count - z) * (two_k + 1) ** (n - (count - z)) for z in range(count)]
    f += [d - two_k ** (z - count + 1) * (two_k + 1) ** (n - 1 - (z - count)) for z in range(count, n)]
    return (*f, d)


def _geometric_targets(k: int) -> tuple[Sampler, Vectorized]:
    def vectorized(data: list[Any], rng: np.random.Generator, size: int) -> npt.NDArray[np.int64]:
        (c,) = _ints(data, 1, "count", 0, GEOMETRIC_N)
        f = np.asarray(geometric_cdf_numerators(c, k), dtype=np.int64)
        u = rng.integers(1, int(f[-1]) + 1, size)  # exact uniform on [1, d]
        z: npt.NDArray[np.int64] = np.searchsorted(f, u, side="left").astype(np.int64)
        return z  # the smallest z with F(z) >= u

    def sampler(data: list[Any], rng: np.random.Generator) -> int:
        (c,) = _ints(data, 1, "count", 0, GEOMETRIC_N)
        f = geometric_cdf_numerators(c, k)
        u = int(rng.integers(1, f[-1] + 1))
        return next(z for z, fz in enumerate(f) if fz >= u)

    sampler.__name__ = vectorized.__name__ = "truncated_geometric"
    return sampler, vectorized


# ------------------------------------------------------------ noisy max

def _noisy_max_targets(exponential: bool, value: bool, name: str) -> tuple[Sampler, Vectorized]:
    b = float(2 / EPSILON)

    def noise(rng: np.random.Generator, shape: tuple[int, ...]) -> npt.NDArray[np.float64]:
        return rng.exponential(b, shape) if exponential else rng.laplace(0.0, b, shape)

    def vectorized(data: list[Any], rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        q = np.asarray(_ints(data, 5, "score"), dtype=np.float64)
        noisy = q + noise(rng, (size, q.size))
        out: npt.NDArray[Any] = np.max(noisy, axis=1) if value else np.argmax(noisy, axis=1)
        return out

    def sampler(data: list[Any], rng: np.random.Generator) -> Any:
        q = _ints(data, 5, "score")
        noisy = [float(x) + float(noise(rng, (1,))[0]) for x in q]
        best = max(range(len(q)), key=lambda i: noisy[i])
        return noisy[best] if value else best

    sampler.__name__ = vectorized.__name__ = name
    return sampler, vectorized


def _argmax_probability(noise: ContinuousNoise, scores: Sequence[int], index: int) -> Interval:
    """P(index wins) = ∫ f(z - q_i) Π_{j≠i} P(q_j + ν_j < z) dz: the law of the core's
    :class:`privref.reference.continuous_noise.NoisyArgmax`, enclosed."""
    law = dict(law_of(NoisyArgmax(noise, tuple(Fraction(q) for q in scores))))
    return prob_as_interval(law[index])


# ------------------------------------------------------------- RAPPOR

RAPPOR_HASHES, RAPPOR_BITS = 4, 20
"""DP-Sniper's RAPPOR: 4 hash functions into a Bloom filter of 20 bits."""

_MASK = 0xFFFFFFFF


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _MASK


def murmur3_32(key: bytes, seed: int) -> int:
    """MurmurHash3 x86_32 (Appleby's public-domain algorithm) as a signed 32-bit int, as Python's mmh3.

    DP-Sniper's RAPPOR hashes ``str(value)`` with seeds 0..3 and reduces modulo
    the filter size with Python's ``%`` (a non-negative result).
    """
    c1, c2 = 0xCC9E2D51, 0x1B873593
    h = seed & _MASK
    blocks = len(key) // 4
    for i in range(blocks):
        k = int.from_bytes(key[4 * i:4 * i + 4], "little")
        k = _rotl((k * c1) & _MASK, 15) * c2 & _MASK
        h = (_rotl(h ^ k, 13) * 5 + 0xE6546B64) & _MASK
    tail = key[4 * blocks:]
    if tail:
        k = int.from_bytes(tail, "little")
        h ^= _rotl((k * c1) & _MASK, 15) * c2 & _MASK
    h ^= len(key)
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _MASK
    h ^= h >> 16
    return h - 2**32 if h >= 2**31 else h


@cache
def bloom_bits(value: int) -> frozenset[int]:
    """The Bloom filter of ``value``: bits murmur3_32(str(value), seed=i) mod 20, i = 0..3."""
    return frozenset(murmur3_32(str(value).encode(), i) % RAPPOR_BITS for i in range(RAPPOR_HASHES))


def _rappor_targets(one: Fraction, zero: Fraction, name: str) -> tuple[Sampler, Vectorized]:
    """Each bit independently 1 w.p. ``one`` (filter bit set) or ``zero`` (unset), drawn exactly."""
    den = math.lcm(one.denominator, zero.denominator)
    hi, lo = int(one * den), int(zero * den)

    def vectorized(data: list[Any], rng: np.random.Generator, size: int) -> npt.NDArray[np.int64]:
        (v,) = _ints(data, 1, "value", RAPPOR_DOMAIN.start, RAPPOR_DOMAIN.stop - 1)
        bits = bloom_bits(v)
        cut = np.asarray([hi if j in bits else lo for j in range(RAPPOR_BITS)], dtype=np.int64)
        out: npt.NDArray[np.int64] = (rng.integers(0, den, (size, RAPPOR_BITS)) < cut).astype(np.int64)
        return out

    def sampler(data: list[Any], rng: np.random.Generator) -> tuple[int, ...]:
        (v,) = _ints(data, 1, "value", RAPPOR_DOMAIN.start, RAPPOR_DOMAIN.stop - 1)
        bits = bloom_bits(v)
        return tuple(int(int(rng.integers(0, den)) < (hi if j in bits else lo))
                     for j in range(RAPPOR_BITS))

    sampler.__name__ = vectorized.__name__ = name
    return sampler, vectorized


def _rappor_distance() -> tuple[int, int, int]:
    """(m, v, w): the largest Bloom-filter distance |B(v) △ B(w)| over the domain, and a pair attaining it."""
    return max((len(bloom_bits(v) ^ bloom_bits(w)), v, w)
               for v in RAPPOR_DOMAIN for w in RAPPOR_DOMAIN)


def _rappor_witness(v: int, w: int, one: Fraction, zero: Fraction) -> Witness:
    """The reported bits agree with B(v) on B(v) △ B(w) (1 on B(v) \\ B(w), 0 on B(w) \\ B(v)), exactly."""
    only_v, only_w = sorted(bloom_bits(v) - bloom_bits(w)), sorted(bloom_bits(w) - bloom_bits(v))
    m = len(only_v) + len(only_w)
    p = one ** len(only_v) * (1 - zero) ** len(only_w)
    q = zero ** len(only_v) * (1 - one) ** len(only_w)

    def contains(o: Any) -> bool:
        return all(o[j] == 1 for j in only_v) and all(o[j] == 0 for j in only_w)

    return Witness(a=[v], b=[w], event=f"bits {only_v} are 1 and bits {only_w} are 0",
                   contains=contains, p=Interval.point(p), q=Interval.point(q),
                   basis=f"exact: independent bits, {m} of them differ in law between the inputs")


# --------------------------------------------------------- numerical SVT

NSVT_CUTOFF, NSVT_THRESHOLD, NSVT_LENGTH = 2, Fraction(1), 10
"""NumericalSVT's defaults in DP-Sniper: c = 2, T = 1, 10 queries."""

NumericalItem = int | tuple[Fraction | None, Fraction | None]
"""BOTTOM, or (lo, hi): "⊤ with released value in [lo, hi)" (None: unbounded)."""


def _nsvt_scales() -> tuple[Fraction, Fraction, Fraction]:
    """(threshold, comparison, release) noise scales 3/ε, 6c/ε, 3c/ε (Wang et al. 2019)."""
    return 3 / EPSILON, 6 * NSVT_CUTOFF / EPSILON, 3 * NSVT_CUTOFF / EPSILON


def _nsvt_vectorized(data: list[Any], rng: np.random.Generator, size: int) -> npt.NDArray[np.float64]:
    q = np.asarray(_ints(data, NSVT_LENGTH, "query answer"), dtype=np.float64)
    b0, b1, b2 = (float(s) for s in _nsvt_scales())
    rho = rng.laplace(0.0, b0, (size, 1))
    top = q + rng.laplace(0.0, b1, (size, q.size)) >= float(NSVT_THRESHOLD) + rho
    released = q + rng.laplace(0.0, b2, (size, q.size))
    before: npt.NDArray[np.int64] = np.cumsum(top, axis=1) - top  # ⊤ answers strictly before each position
    out: npt.NDArray[np.float64] = np.where(top & (before < NSVT_CUTOFF), released, -math.inf)
    return out


def _nsvt_sampler(data: list[Any], rng: np.random.Generator) -> tuple[float, ...]:
    q = _ints(data, NSVT_LENGTH, "query answer")
    b0, b1, b2 = (float(s) for s in _nsvt_scales())
    rho = float(rng.laplace(0.0, b0))
    out: list[float] = []
    count = 0
    for x in q:
        top = x + float(rng.laplace(0.0, b1)) >= float(NSVT_THRESHOLD) + rho
        value = x + float(rng.laplace(0.0, b2))
        if count < NSVT_CUTOFF and top:
            out.append(value)
            count += 1
        else:
            out.append(-math.inf)
    return tuple(out)


def _released(noise: LaplaceNoise, x: int, lo: Fraction | None, hi: Fraction | None) -> Law:
    """P(lo <= x + ν < hi) for ν ~ ``noise`` (None: unbounded): the core's threshold tests."""
    q = Fraction(x)
    if lo is None:
        return ONE if hi is None else tail(noise, q, hi, False)
    if hi is None:
        return tail(noise, q, lo, True)
    return (*tail(noise, q, lo, True), *(Term(-t.sign, t.tests, t.integrals)
                                          for t in tail(noise, q, hi, True)))


def numerical_svt_law(data: Sequence[int], prefix: Sequence[NumericalItem]) -> Law:
    """P(the outcome starts with ``prefix``) for real-arithmetic NumericalSVT (Wang et al. 2019).

    Given the threshold x = T + ρ the comparisons are independent, and each released value
    q_i + Lap(3c/ε) is independent of everything else, so
    P = ∫ f_x Π_i P(comparison i | x) dx · Π_{⊤ i} P(q_i + Lap ∈ [lo, hi)): one core integrand
    times core threshold tests.  The prefix holds at most c ⊤ and ends at the c-th one if it
    holds c.
    """
    tops = [i for i, item in enumerate(prefix) if item != BOTTOM]
    if len(prefix) > len(data) or len(tops) > NSVT_CUTOFF or (
            len(tops) == NSVT_CUTOFF and tops[-1] != len(prefix) - 1):
        raise InvalidArgument(f"prefix {tuple(prefix)!r} is not a prefix of an outcome")
    b0, b1, b2 = (LaplaceNoise(b) for b in _nsvt_scales())
    factors = [Piece(b0, "density", NSVT_THRESHOLD)]
    releases: list[Law] = []
    for item, x in zip(prefix, data, strict=False):
        if item == BOTTOM:
            factors.append(Piece(b1, "cdf", Fraction(x)))
            continue
        if not isinstance(item, tuple):
            raise InvalidArgument(f"prefix item {item!r} must be BOTTOM or (lo, hi)")
        factors.append(Piece(b1, "sf", Fraction(x)))
        releases.append(_released(b2, x, *item))
    return product(integrand(tuple(factors)), *releases)


def _nsvt_contains(prefix: Sequence[NumericalItem], outcome: Sequence[float]) -> bool:
    for item, value in zip(prefix, outcome, strict=False):
        if item == BOTTOM:
            if value != -math.inf:
                return False
        elif isinstance(item, tuple):
            lo, hi = item
            if value == -math.inf or (lo is not None and value < lo) or (hi is not None and value >= hi):
                return False
    return len(outcome) >= len(prefix)


# --------------------------------------------------------------- SVT

def _svt_targets(spec: SVTSpec, name: str) -> tuple[Sampler, Vectorized]:
    def sampler(data: list[Any], rng: np.random.Generator) -> Any:
        return svt_sampler(spec, _ints(data, 10, "query answer"), rng)

    def vectorized(data: list[Any], rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        return svt_vectorized(spec, _ints(data, 10, "query answer"), rng, size)

    sampler.__name__ = vectorized.__name__ = name
    return sampler, vectorized


@cache
def _svt_enclosed(spec: SVTSpec, data: tuple[int, ...], prefix: tuple[PrefixItem, ...]) -> Interval:
    return enclose_prefix(spec, data, prefix)


def _describe(prefix: Sequence[PrefixItem | NumericalItem]) -> str:
    parts = []
    for item in prefix:
        if isinstance(item, tuple):
            lo, hi = item
            parts.append(f"⊤[{'-∞' if lo is None else lo}, {'∞' if hi is None else hi})")
        else:
            parts.append("⊤" if item == TOP else "⊥")
    return "outcome starts " + " ".join(parts)


def _svt_witness(spec: SVTSpec, a: list[int], b: list[int], prefix: Sequence[PrefixItem]) -> Witness:
    pre = tuple(prefix)
    return Witness(a=a, b=b, event=_describe(pre),
                   contains=lambda o: prefix_contains(spec, pre, o),
                   p=_svt_enclosed(spec, tuple(a), pre), q=_svt_enclosed(spec, tuple(b), pre),
                   basis="exact core: closed-form Laplace integrals over the threshold "
                         "(continuous_noise.integral via zoo_integrands), enclosed rigorously")


def _svt34_targets(s3: SVTSpec, s4: SVTSpec) -> tuple[Sampler, Vectorized]:
    def vectorized(data: list[Any], rng: np.random.Generator, size: int) -> npt.NDArray[np.float64]:
        q = _ints(data, 10, "query answer")
        first = svt_vectorized(s3, q, rng, size)
        return np.concatenate([first, svt_vectorized(s4, q, rng, size).astype(np.float64)], axis=1)

    def sampler(data: list[Any], rng: np.random.Generator) -> tuple[float, ...]:
        q = _ints(data, 10, "query answer")
        first = svt_sampler(s3, q, rng)
        return tuple(float(x) for x in (*first, *svt_sampler(s4, q, rng)))

    sampler.__name__ = vectorized.__name__ = "svt34_parallel"
    return sampler, vectorized


# ------------------------------------------------------------- entries

def _lower(witnesses: Sequence[Witness]) -> Fraction:
    return max(b for b in (w.epsilon_lower() for w in witnesses) if b is not None)


def _entry(name: str, dps: str, targets: tuple[Sampler, Vectorized], claimed: Real, true: TrueEpsilon,
           basis: str, correct: bool, source: str, relation: str, pairs: tuple[Pair, ...],
           witnesses: tuple[Witness, ...], notes: str, *, float_outputs: bool) -> ZooEntry:
    return ZooEntry(
        name=name, sampler=targets[0], vectorized=targets[1], claimed_epsilon=claimed,
        claimed_delta=Fraction(0), true_epsilon=true, true_epsilon_basis=basis, correct=correct,
        source=f"DP-Sniper (Bichsel et al. 2021) mechanism {dps}; {source}; {_BICHSEL}",
        relation=relation, pairs=pairs, witnesses=witnesses,
        notes=f"{notes}  DP-Sniper's published bound at target 0.1: {PUBLISHED[dps]}.",
        float_outputs=float_outputs, aliases=(dps,))


_AUDITED = ("the exact auditor's loss over DP-Sniper's 16 ordered pairs (audits.exact.audit_pair on "
            "the mechanism as a core program, every outcome set)")
_ONE_ENTRY = "neighbors differ by at most 1 in one coordinate (DP-Sniper's one-entry patterns)"
_COMPONENTWISE = ("query answers (sensitivity 1 each); neighbors differ by at most 1 in every "
                  "coordinate (DP-Sniper's component-wise patterns)")


def _additive_entries() -> list[ZooEntry]:
    eps = EPSILON
    scalar = f"one real value (an int here); {_ONE_ENTRY}"
    entries = [_entry(
        "dpsniper_laplace", "LaplaceMechanism", _laplace_targets(1, 1, 1 / eps, "laplace"),
        rational(eps), rational(eps),
        "exact: the Laplace(1/ε) density ratio is at most e^ε and equals it on the left tail (witness)",
        True, "Dwork, McSherry, Nissim, Smith 2006", scalar, dpsniper_pairs(1, False),
        (_tail_witness([0], [1], _left_tails(1 / eps, 1), "y < 0", lambda o: o < 0),),
        "x + Laplace(1/ε), released as a double.", float_outputs=True)]
    for k, scale, correct in ((1, 1 / eps, True), (2, eps, False)):
        a, b = [0, 1, 1, 1, 1], [1, 1, 1, 1, 1]
        entries.append(_entry(
            f"dpsniper_noisy_hist{k}", f"NoisyHist{k}",
            _laplace_targets(5, 5, scale, f"noisy_hist{k}"), rational(eps), rational(1 / scale),
            f"exact: 1/scale = {1 / scale}; one bin moves by at most 1 and the Laplace({scale}) density "
            "ratio is at most e^{1/scale}, attained on the left tail (witness)",
            correct, f"{_DING}, Algorithm {8 + k}", f"histograms of 5 bins; {_ONE_ENTRY}",
            dpsniper_pairs(5, False),
            (_tail_witness(a, b, _left_tails(scale, 1), "bin 0 < 0", lambda o: o[0] < 0),),
            f"Laplace({scale}) noise per bin" + ("" if correct else " (scale ε instead of 1/ε)") + ".",
            float_outputs=True))
    parallel_eps = eps / 20
    entries.append(_entry(
        "dpsniper_laplace_parallel", "LaplaceParallel",
        _laplace_targets(1, 20, 1 / parallel_eps, "laplace_parallel"), rational(eps), rational(eps),
        "exact: 20 independent Laplace(200) releases of x, composition 20·(1/200) = 1/10, attained on "
        "the joint left tail (witness)", True, "20 Laplace mechanisms at ε = 1/200 side by side", scalar,
        dpsniper_pairs(1, False),
        (_tail_witness([0], [1], _left_tails(1 / parallel_eps, 20), "all 20 releases < 0",
                       lambda o: all(v < 0 for v in o)),),
        "Outcome: 20 doubles.", float_outputs=True))
    pre_a, pre_b = [1] * 10, [2] * 10
    entries.append(_entry(
        "dpsniper_prefix_sum", "PrefixSum", _laplace_targets(10, 10, 1 / eps, "prefix_sum",
                                                             prefix_sums=True),
        rational(eps), rational(10 * eps),
        "exact: ℓ·ε = 1.  The prefix sums are a bijection of the noisy answers q_i + Lap(1/ε), whose "
        "loss under component-wise neighbors is ℓ·ε; the witness (every increment y_i - y_(i-1) < 1, "
        "all ℓ left tails) attains e^(ℓ·ε) exactly",
        False, f"{_WANG} (PrefixSum)", f"10 {_COMPONENTWISE}", dpsniper_pairs(10, True),
        (_tail_witness(pre_a, pre_b, _left_tails(1 / eps, 10),
                       "y_1 < 1 and y_i - y_(i-1) < 1 for every i",
                       lambda o: all(v < 1 for v in np.diff(np.asarray((0.0, *o))).tolist())),),
        "Cumulative sums of q_i + Laplace(1/ε).  The claim ε holds when one answer changes; DP-Sniper's "
        "component-wise patterns move all ℓ = 10 answers, which costs ℓ·ε.", float_outputs=True))
    return entries


def _geometric_entry() -> ZooEntry:
    k = _geometric_k(EPSILON)
    two_k = 2**k
    guarantee = log(rational(Fraction(two_k + 1, two_k)))
    p, q = Fraction(two_k + 1, 2 * two_k + 1), Fraction(two_k, 2 * two_k + 1)
    w = Witness(a=[0], b=[1], event="z = 0", contains=lambda o: o == 0, p=Interval.point(p),
                q=Interval.point(q), basis="exact: F(0)/d for counts 0 and 1 (geometric_cdf_numerators)")
    return _entry(
        "dpsniper_truncated_geometric", "TruncatedGeometricMechanism", _geometric_targets(k),
        guarantee, guarantee,
        f"exact: ln(1 + 2^-k) = ln({two_k + 1}/{two_k}), k = ⌈ln(2/ε)⌉ = {k}.  F(z)/d is the law of "
        f"clamp_[0,n](c + Y), Y two-sided geometric with P(Y = y) ∝ α^|y|, α = 2^k/(2^k+1); adjacent "
        "pmfs differ by the factor 1/α inside and on the clamped ends, and by at most it elsewhere",
        True, "Balcer, Vadhan, 'Differential Privacy on Finite Computers', arXiv:1709.05396, "
        "Alg. 4.8 (GeoSample) and Thm. 4.7", f"counts in [0, {GEOMETRIC_N}]; {_ONE_ENTRY}",
        dpsniper_pairs(1, False), (w,),
        f"Exact integer sampling (uniform u in [1, d], the first z with F(z) >= u).  DP-Sniper computes "
        f"k with a natural logarithm, so the guarantee ln({two_k + 1}/{two_k}) = 0.1178 exceeds the "
        "target 0.1; the claim here is the guarantee its docstring states.", float_outputs=False)


def _noisy_max_entries() -> list[ZooEntry]:
    eps, b = EPSILON, 2 / EPSILON
    pairs = dpsniper_pairs(5, True)
    ones, shifted, twos = [1] * 5, [0, 2, 2, 2, 2], [2] * 5
    relation = f"5 scores; {_COMPONENTWISE}"
    laplace, expo = LaplaceNoise(b), ExponentialNoise(b)
    p1, q1 = _argmax_probability(laplace, ones, 0), _argmax_probability(laplace, shifted, 0)
    w1 = Witness(a=ones, b=shifted, event="index 0", contains=lambda o: o == 0, p=p1, q=q1,
                 basis="exact core: the law of continuous_noise.NoisyArgmax (closed-form Laplace "
                       "integral), enclosed rigorously")
    w2 = Witness(a=ones, b=shifted, event="index 0", contains=lambda o: o == 0,
                 p=_argmax_probability(expo, ones, 0), q=_argmax_probability(expo, shifted, 0),
                 basis="exact core: the law of continuous_noise.NoisyArgmax with exponential noise; "
                       "closed form 1/5 by symmetry and ∫_2^∞ λe^{-λr}(1 - e^{-λ(r-2)})^4 dr = "
                       "e^{-2λ}/5")
    zero_max = _left_tails(b, 5)
    w3 = _tail_witness(ones, twos, zero_max, "max < 1", lambda o: o < 1)
    below_two = [enclose(product(*[tail(expo, Fraction(q), Fraction(2), False)] * 5)) for q in (1, 2)]
    w4 = Witness(a=ones, b=twos, event="max < 2", contains=lambda o: o < 2, p=below_two[0],
                 q=below_two[1], basis="exact core: Π_i P(q_i + E_i <= 2) (continuous_noise."
                 "ThresholdTest); every noisy score is >= its score, so max >= 2 on 2^5 (exactly "
                 "0); on 1^5 the event is all five Exp(20) <= 1, (1 - e^{-1/20})^5")
    return [
        _entry("dpsniper_report_noisy_max1", "ReportNoisyMax1", _noisy_max_targets(False, False, "rnm1"),
               rational(eps), Interval(audited_loss(noisy_max_mechanism, (eps, "laplace"), pairs).lower,
                                       eps),
               "upper: report-noisy-max with Laplace(2/ε) is ε-DP (Dwork and Roth 2014, Claim 3.9); "
               f"lower: {_AUDITED} (zoo_selection.noisy_max_mechanism), attained by the witness",
               True, f"{_DING}, Algorithm 5", relation, pairs, (w1,),
               "Index of the largest q_i + Laplace(2/ε).", float_outputs=False),
        _entry("dpsniper_report_noisy_max2", "ReportNoisyMax2", _noisy_max_targets(True, False, "rnm2"),
               rational(eps), rational(eps),
               "exact, attained: upper, with the other noises fixed index i wins iff E_i >= t, t moving by "
               "at most 2 and P(E >= t)/P(E >= t + 2) <= e^{2/b} = e^ε; lower, the witness ratio is e^ε",
               True, f"{_DING}, Algorithm 6", relation, pairs, (w2,),
               "Index of the largest q_i + Exponential(2/ε).", float_outputs=False),
        _entry("dpsniper_report_noisy_max3", "ReportNoisyMax3", _noisy_max_targets(False, True, "rnm3"),
               rational(eps), rational(5 * eps / 2),
               "exact, attained: k·ε/2 = 1/4.  Upper: the max has density Σ_i f(y - q_i) Π_{j≠i} F(y - q_j) "
               "and each factor moves by at most e^{1/b}; lower: on the left tail all five factors move by "
               "exactly that (witness)", False, f"{_DING}, Algorithm 7", relation, pairs, (w3,),
               "Largest q_i + Laplace(2/ε), released as a double.", float_outputs=True),
        _entry("dpsniper_report_noisy_max4", "ReportNoisyMax4", _noisy_max_targets(True, True, "rnm4"),
               rational(eps), NOT_PRIVATE,
               "exact: exponential noise is >= 0, so the released max is >= max_i q_i; {max < 2} is "
               "impossible on 2^5 and has probability (1 - e^{-1/20})^5 > 0 on 1^5",
               False, f"{_DING}, Algorithm 8", relation, pairs, (w4,),
               "Largest q_i + Exponential(2/ε), released as a double.", float_outputs=True),
    ]


def _svt_entries() -> list[ZooEntry]:
    eps = EPSILON
    ones, mixed = [1] * 10, [2] * 5 + [0] * 5
    zeros = [0] * 10
    pairs = dpsniper_pairs(10, True)
    relation = f"10 {_COMPONENTWISE}"
    bottom5_top: list[PrefixItem] = [*([BOTTOM] * 5), TOP]
    specs = {k: SVTSpec(k, eps, 1, Fraction(1, 2) if k == 1 else Fraction(1))  # type: ignore[arg-type]
             for k in range(1, 7)}
    w = {
        1: (_svt_witness(specs[1], ones, mixed, bottom5_top),),
        2: (_svt_witness(specs[2], ones, mixed, bottom5_top),),
        3: (_svt_witness(specs[3], zeros, ones, [*([BOTTOM] * 9), (None, Fraction(0))]),
            _svt_witness(specs[3], zeros, ones, [*([BOTTOM] * 3), (None, Fraction(0))])),
        4: (_svt_witness(specs[4], ones, mixed, bottom5_top),),
        5: (_svt_witness(specs[5], [2] + [0] * 9, ones, [TOP, BOTTOM]),),
        6: (_svt_witness(specs[6], ones, mixed, [BOTTOM] * 5 + [TOP] * 5),),
    }
    best = (f"lower: {_AUDITED} (zoo_svt.svt_mechanism: one first_above), attained by the "
            "witness")

    def audited(k: int) -> Fraction:
        return audited_loss(svt_mechanism, (specs[k], 10), pairs).lower

    truth: dict[int, tuple[TrueEpsilon, str, bool]] = {
        1: (Interval(audited(1), eps), f"upper: Lyu et al. prove Alg. 1 ε-DP; {best}", True),
        2: (Interval(audited(2), eps), f"upper: Lyu et al. show Alg. 2 ε-DP; {best} (with c = 1 "
            "Algorithm 2 has Algorithm 1's law)", True),
        3: (rational(10 * eps / 2), "exact: ℓ·ε2/c = 1/2 (as zoo svt3): upper, composition over the "
            "ℓ released answers q_i + Lap(c/ε2); lower, every factor of the witness integrand is a "
            "left-tail Laplace CDF, so its ratio is e^{1/2} exactly (the second, likelier witness: "
            "e^{1/5} exactly, 4 left tails)", False),
        4: (Interval(audited(4), (1 + 6 * 1) * eps / 4), "upper: Lyu et al., ((1+6c)/4)ε-DP; "
            + best, False),
        5: (NOT_PRIVATE, "exact: without query noise ⊤ on q_1 = 2 and ⊥ on q_2 = 0 needs "
            "ρ in (-1, 1], but both are impossible together when q_1 = q_2 (witness)", False),
        6: (rational(10 * eps / 2), "exact supremum ℓ·ε2 = 1/2, not attained (as zoo svt6): upper, "
            f"composition; lower, ⊤ queries lowered and ⊥ raised in the limit; {best} reaches less",
            False),
    }
    entries = []
    codes = {True: "⊥ and aborted are -inf (DP-Sniper: -1000, -2000)", False: "1 ⊤, 0 ⊥, -1 aborted"}
    for k in range(1, 7):
        spec = specs[k]
        true, basis, correct = truth[k]
        entries.append(_entry(
            f"dpsniper_svt{k}", f"SparseVectorTechnique{k}", _svt_targets(spec, f"dpsniper_svt{k}"),
            rational(eps), true, basis, correct, f"{_LYU}, Algorithm {k}", relation, pairs, w[k],
            f"zoo_svt variant {k} at ε = 1/10, c = 1, T = {spec.threshold}: threshold noise "
            f"Lap({spec.threshold_scale}), query noise "
            f"{'none' if spec.query_scale == 0 else f'Lap({spec.query_scale})'}; outcomes as zoo svt{k} "
            f"({codes[spec.numeric]}).",
            float_outputs=spec.numeric))
    return entries


def _svt34_entry() -> ZooEntry:
    eps = EPSILON
    s3, s4 = SVTSpec(3, eps, 2, Fraction(1)), SVTSpec(4, eps, 2, Fraction(1))
    zeros, ones = [0] * 10, [1] * 10
    pre3: tuple[PrefixItem, ...] = (*([BOTTOM] * 9), (None, Fraction(0)))
    pre4: tuple[PrefixItem, ...] = (BOTTOM,) * 10
    p = _svt_enclosed(s3, tuple(zeros), pre3) * _svt_enclosed(s4, tuple(zeros), pre4)
    q = _svt_enclosed(s3, tuple(ones), pre3) * _svt_enclosed(s4, tuple(ones), pre4)
    w = Witness(a=zeros, b=ones, event=f"SVT3 part: {_describe(pre3)}; SVT4 part: {_describe(pre4)}",
                contains=lambda o: prefix_contains(s3, pre3, o[:10]) and prefix_contains(s4, pre4, o[10:]),
                p=p, q=q, basis="product of the two independent parts' exact laws (exact core, "
                "zoo_integrands)")
    upper = 10 * eps / (2 * 2) + (1 + 6 * 2) * eps / 4
    return _entry(
        "dpsniper_svt34_parallel", "SVT34Parallel", _svt34_targets(s3, s4), rational(2 * eps),
        Interval(_lower((w,)), upper),
        "upper: the two parts are independent, so the loss is at most SVT3's ℓ·ε2/c = 1/4 plus "
        "SVT4's ((1+6c)/4)ε = 13/40 (Lyu et al.); lower: the exact loss of the witness",
        False, f"{_LYU}, Algorithms 3 and 4", f"10 {_COMPONENTWISE}", dpsniper_pairs(10, True), (w,),
        "SVT3 and SVT4 at ε = 1/10, c = 2, T = 1 on the same answers with independent noise; outcome: "
        "SVT3's 10 entries (-inf for ⊥ and aborted) then SVT4's 10 codes as floats.  Claimed ε: the "
        "basic composition 2·(1/10) of the two parts' claims.", float_outputs=True)


def _rappor_entries() -> list[ZooEntry]:
    m, v, w = _rappor_distance()
    entries = []
    for name, dps, one, zero, params in (
            ("dpsniper_rappor", "Rappor", Fraction(41, 80), Fraction(39, 80), "f = 3/4, p = 9/20, q = 11/20"),
            ("dpsniper_one_time_rappor", "OneTimeRappor", Fraction(21, 40), Fraction(19, 40), "f = 19/20")):
        ratio = one / zero
        witnesses = (_rappor_witness(v, w, one, zero), _rappor_witness(1, 0, one, zero))
        entries.append(_entry(
            name, dps, _rappor_targets(one, zero, dps), log(rational(ratio ** (2 * RAPPOR_HASHES))),
            log(rational(ratio ** m)),
            f"exact: m·ln({ratio}) with m = {m}, the largest Bloom-filter distance |B(v) △ B(w)| over "
            f"v, w in [-10, 10] (attained by {v}, {w}); the 20 reported bits are independent, each "
            f"1 w.p. {one} or {zero}, and bits outside B(v) △ B(w) have the same law",
            True, f"{_RAPPOR}, Steps 1-{3 if dps == 'Rappor' else 2}",
            "one value in [-10, 10] per user; any two values are neighbors (local model)",
            dpsniper_pairs(1, False), witnesses,
            f"{params}: a bit is reported 1 w.p. {one} if set in the Bloom filter and {zero} if not "
            "(sampled exactly from integers).  Hashes: MurmurHash3 x86_32 of str(value), seeds 0-3, "
            f"mod 20.  Claim: RAPPOR's 2h·ln({ratio}) (h = 4); on DP-Sniper's pairs 1 vs 0 and 1 vs 2 "
            f"the distances are {len(bloom_bits(1) ^ bloom_bits(0))} and "
            f"{len(bloom_bits(1) ^ bloom_bits(2))}.", float_outputs=False))
    return entries


def _nsvt_witness(a: list[int], b: list[int], prefix: tuple[NumericalItem, ...]) -> Witness:
    return Witness(a=a, b=b, event=_describe(prefix), contains=lambda o: _nsvt_contains(prefix, o),
                   p=enclose(numerical_svt_law(a, prefix)), q=enclose(numerical_svt_law(b, prefix)),
                   basis="exact core: a closed-form Laplace integral over the threshold times "
                         "independent release tails (numerical_svt_law), enclosed rigorously")


NSVT_WITNESS: tuple[list[int], list[int], tuple[NumericalItem, ...]] = (
    [1] * 10, [2] * 5 + [0] * 5, (*([BOTTOM] * 5), (Fraction(2), None), (Fraction(2), None)))
"""The best event of a search over DP-Sniper's pairs (see the entry's notes)."""


def _nsvt_entry() -> ZooEntry:
    a, b, prefix = NSVT_WITNESS
    w = _nsvt_witness(list(a), list(b), prefix)
    return _entry(
        "dpsniper_numerical_svt", "NumericalSVT", (_nsvt_sampler, _nsvt_vectorized), rational(EPSILON),
        Interval(_lower((w,)), EPSILON),
        "upper: Wang et al. 2019 prove NumericalSVT ε-DP (ε/3 threshold, ε/3 comparisons, ε/3 "
        "releases); lower: the exact loss of the witness", True, f"{_WANG} (NumericalSVT)",
        f"10 {_COMPONENTWISE}", dpsniper_pairs(10, True), (w,),
        "Threshold T + Lap(3/ε), comparisons q_i + Lap(6c/ε), ⊤ releases q_i + Lap(3c/ε) (fresh noise), "
        "c = 2, T = 1; ⊥ and aborted entries are -inf (DP-Sniper: 0 and -1000).  The witness is the best "
        "of a search over DP-Sniper's pairs, comparison patterns with at most c ⊤ and, per ⊤, the value "
        "tail favouring the first input.", float_outputs=True)


def dpsniper_entries() -> tuple[ZooEntry, ...]:
    """DP-Sniper's 20 benchmark mechanisms at its defaults (ε = 1/10), with ground truth."""
    return (*_additive_entries(), _geometric_entry(), *_noisy_max_entries(), *_svt_entries(),
            _svt34_entry(), *_rappor_entries(), _nsvt_entry())
