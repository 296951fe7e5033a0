"""Additive-noise mechanisms of the zoo: noisy histograms, and the Laplace mechanism in three implementations.

* Noisy histogram of 5 bins with exact discrete Laplace noise (Canonne,
  Kamath, Steinke 2020) of scale 1/ε (correct), or of scale ε: the "scale
  inverted" bug of StatDP's ``histogram_eps`` (Ding et al., CCS 2018).  One
  record moves one bin by 1, the other bins' outputs are independent and
  identically distributed, so the loss is that of one bin: 1/scale exactly
  (P(z)/P(z+1) = e^{±1/t}, with equality on the tails).  Claimed ε = 1/2:
  the inverted scale 1/2 gives 2.
* The textbook Laplace mechanism ``count + rng.laplace(0, 1/ε)`` in floating
  point (Mironov, 'On Significance of the Least Significant Bits for
  Differential Privacy', CCS 2012).  For a count of 1, every output in
  (0, 1/2) is y = 1 + n with n in [-1, -1/2], a double with spacing 2^-53, and
  1 + n is exact (Sterbenz's lemma), so y is a multiple of 2^-53; for a count
  of 0, y = n itself, and most doubles n in (0, 1/2) are not.  The event
  "0 < y < 1/2 and y is not a multiple of 2^-53" therefore has positive
  probability on [0] and probability 0 on [1]: not ε-DP for any ε.
* The same release made safe: Mironov's snapping mechanism (Section 5.2) and
  an exact discrete Laplace mechanism (privref ``privref.reference.geometric``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from privref.reference.continuous_noise import LaplaceNoise
from privref.reference.discrete_noise import discrete_laplace_array, sample_discrete_laplace
from privref.reference.errors import InvalidArgument
from privref.reference.geometric import discrete_laplace_mechanism
from privref.reference.reals import Interval, interval_exp, rational

from .zoo_integrands import enclose, tail
from .zoo_samplers import full_precision_uniform
from .zoo_types import NOT_PRIVATE, Witness, ZooEntry

__all__ = [
    "SNAP_BOUND",
    "histogram_entries",
    "laplace_entries",
    "off_grid",
    "snapping_epsilon",
]

BINS = 5
HISTOGRAM_EPSILON = Fraction(1, 2)
LAPLACE_EPSILON = Fraction(1)
SNAP_BOUND = 2**10
"""B: the snapping mechanism clamps to [-B, B] (Mironov's condition λ < B < 2^46·λ holds)."""
ETA = Fraction(1, 2**53)
"""η: the unit roundoff of IEEE doubles, as in Mironov (2012)."""

_DING = ("Ding, Wang, Wang, Zhang, Kifer, 'Detecting Violations of Differential Privacy', CCS 2018 "
         "(StatDP, cmla-psu/statdp statdp/algorithms.py)")
_MIRONOV = ("Mironov, 'On Significance of the Least Significant Bits for Differential Privacy', "
            "CCS 2012")


# ------------------------------------------------------------------ histogram


def _counts(data: Sequence[object]) -> list[int]:
    if len(data) != BINS:
        raise InvalidArgument(f"data has {len(data)} bins; the zoo's histograms have exactly {BINS}")
    counts = []
    for i, x in enumerate(data):
        if isinstance(x, bool) or not isinstance(x, int) or x < 0:
            raise InvalidArgument(f"data[{i}]={x!r} must be a non-negative int count")
        counts.append(x)
    return counts


def _histogram(scale: Fraction, name: str) -> tuple[Any, Any]:
    def sampler(data: list[Any], rng: np.random.Generator) -> tuple[int, ...]:
        return tuple(c + sample_discrete_laplace(rng, scale) for c in _counts(data))

    def vectorized(data: list[Any], rng: np.random.Generator, size: int) -> npt.NDArray[np.int64]:
        counts = np.asarray(_counts(data), dtype=np.int64)
        return counts + discrete_laplace_array(rng, scale, size * BINS).reshape(size, BINS)

    sampler.__name__ = vectorized.__name__ = name
    return sampler, vectorized


def _tail_witness(a: list[int], b: list[int], scale: Fraction, cut: int, coordinate: int | None
                  ) -> Witness:
    """{y <= cut} where the count moves from cut (on a) to cut + 1 (on b): ratio e^{1/scale}."""
    qa = interval_exp(Interval.point(-1 / scale))
    p, q = 1 / (qa + 1), qa / (qa + 1)  # P(Z <= 0) = 1/(1+q), P(Z <= -1) = q/(1+q)
    i = 0 if coordinate is None else coordinate
    if coordinate is None:
        event, contains = f"the release is <= {cut}", lambda o: o <= cut
    else:
        event = f"bin {i} of the release is <= {cut}"
        contains = lambda o: o[i] <= cut  # noqa: E731
    return Witness(a=a, b=b, event=event, contains=contains, p=p, q=q,
                   basis="closed form: discrete Laplace tails P(Z <= 0) = 1/(1+q), "
                         f"P(Z <= -1) = q/(1+q), q = e^(-1/{scale})")


def histogram_entries() -> tuple[ZooEntry, ...]:
    """Noisy histograms with discrete Laplace noise: scale 1/ε (correct) and scale ε (inverted)."""
    eps = HISTOGRAM_EPSILON
    a, b = [1, 2, 0, 3, 1], [2, 2, 0, 3, 1]
    relation = (f"histograms (bin counts) of {BINS} bins; neighbors differ by 1 in one bin "
                "(one record added or removed)")
    entries = []
    for name, scale, correct in (("histogram", 1 / eps, True),
                                 ("histogram_inverted_scale", eps, False)):
        sampler, vectorized = _histogram(scale, name)
        loss = 1 / scale
        entries.append(ZooEntry(
            name=name, sampler=sampler, vectorized=vectorized, claimed_epsilon=rational(eps),
            claimed_delta=Fraction(0), true_epsilon=rational(loss),
            true_epsilon_basis=f"exact: 1/scale = {loss} (discrete Laplace pmf ratio e^(±1/t), "
                               "attained on the tail; Ghosh, Roughgarden, Sundararajan 2009 and "
                               "CKS20); equals audits.exact.audit_pair of "
                               f"discrete_laplace_mechanism({scale}) on [0] vs [1]",
            correct=correct,
            source=(f"{_DING}, histogram" if correct else
                    f"{_DING}, histogram_eps ('INCORRECT: using (epsilon) noise instead of "
                    "(1 / epsilon)')"),
            relation=relation, pairs=((list(a), list(b)),),
            witnesses=(_tail_witness(list(a), list(b), scale, a[0], 0),),
            notes=f"Noise: exact discrete Laplace of scale {scale} per bin (StatDP uses float "
                  "Laplace; the exact noise keeps the floating-point issue of laplace_float out "
                  "of this pair, so each entry has one bug at most).  Integer outputs.",
            aliases=(("histogram_eps",) if not correct else ())))
    return tuple(entries)


# ------------------------------------------------------------ Laplace mechanism


def _count(data: Sequence[object]) -> int:
    if not data:
        raise InvalidArgument("data=[] must hold at least one 0/1 entry")
    for i, x in enumerate(data):
        if isinstance(x, bool) or x not in (0, 1):
            raise InvalidArgument(f"data[{i}]={x!r} must be 0 or 1")
    return sum(1 for x in data if x == 1)


def laplace_float(data: list[Any], rng: np.random.Generator) -> float:
    """INCORRECT: the textbook float Laplace mechanism, count + Laplace(1/ε) in doubles."""
    return float(_count(data)) + float(rng.laplace(0.0, float(1 / LAPLACE_EPSILON)))


def laplace_float_vectorized(data: list[Any], rng: np.random.Generator, size: int
                             ) -> npt.NDArray[np.float64]:
    """``size`` draws of :func:`laplace_float` (numpy's laplace is the same routine per draw)."""
    return float(_count(data)) + rng.laplace(0.0, float(1 / LAPLACE_EPSILON), size)


def off_grid(y: float) -> bool:
    """The witness event of ``laplace_float``: 0 < y < 1/2 and y is not a multiple of 2^-53."""
    return 0 < y < 0.5 and not (y * 2.0**53).is_integer()  # scaling by 2^53 is exact


def _off_grid_model() -> float:
    """P(off_grid | count 0) if the low bits of the logarithm behave uniformly (planning only).

    For n in [2^-k, 2^-k+1) the doubles have spacing 2^-(k+52), so a fraction
    1 - 2^-(k-1) of them lies off the 2^-53 grid; the binade has Laplace mass
    ½(e^{-2^-k/b} - e^{-2^-(k-1)/b}).
    """
    b = float(1 / LAPLACE_EPSILON)
    return sum(0.5 * (math.exp(-(2.0**-k) / b) - math.exp(-(2.0 ** -(k - 1)) / b))
               * (1 - 2.0 ** (1 - k)) for k in range(2, 64))


def snapping_epsilon(scale: Fraction, bound: int) -> Fraction:
    """Mironov's guarantee for the snapping mechanism: (1 + 12·B·η)/λ + 2η, valid for λ < B < 2^46·λ.

    Mironov (2012), Section 5.2 (the same expression is used by the independent
    implementations in diffprivlib and OpenDP's smartnoise prototype).
    """
    if not scale < bound < 2**46 * scale:
        raise InvalidArgument(f"bound={bound} must satisfy λ < B < 2^46·λ for λ={scale}")
    return (1 + 12 * bound * ETA) / scale + 2 * ETA


def _power_of_two_at_least(x: Fraction) -> Fraction:
    """Λ: the smallest power of 2 that is >= x > 0 (exact)."""
    power = Fraction(1)
    while power < x:
        power *= 2
    while power / 2 >= x:
        power /= 2
    return power


def _snap(counts: npt.NDArray[np.float64], rng: np.random.Generator) -> npt.NDArray[np.float64]:
    lam = float(1 / LAPLACE_EPSILON)
    big_lambda = float(_power_of_two_at_least(1 / LAPLACE_EPSILON))
    bound = float(SNAP_BOUND)
    sign = np.where(rng.integers(0, 2, counts.size) == 1, -1.0, 1.0)
    noise = sign * (lam * np.log(full_precision_uniform(rng, counts.size)))
    y = np.clip(counts, -bound, bound) + noise
    snapped = np.floor(y / big_lambda + 0.5) * big_lambda  # nearest multiple of Λ, ties up
    return np.clip(snapped, -bound, bound)


def laplace_snapping(data: list[Any], rng: np.random.Generator) -> float:
    """Mironov's snapping mechanism for a count: clamp_B(round_Λ(clamp_B(count) ⊕ S·λ·ln U*))."""
    return float(_snap(np.asarray([float(_count(data))]), rng)[0])


def laplace_snapping_vectorized(data: list[Any], rng: np.random.Generator, size: int
                                ) -> npt.NDArray[np.float64]:
    """``size`` draws of :func:`laplace_snapping`."""
    return _snap(np.full(size, float(_count(data))), rng)


@lru_cache(maxsize=1)
def _discrete_laplace() -> Any:
    return discrete_laplace_mechanism(1 / LAPLACE_EPSILON)


def laplace_discrete(data: list[Any], rng: np.random.Generator) -> int:
    """count + exact discrete Laplace(1/ε) noise (privref reference.geometric, CKS20 sampler)."""
    _count(data)
    result: int = _discrete_laplace().sample(data, rng)
    return result


def laplace_discrete_vectorized(data: list[Any], rng: np.random.Generator, size: int
                                ) -> npt.NDArray[np.int64]:
    """``size`` exact draws of :func:`laplace_discrete`."""
    return _count(data) + discrete_laplace_array(rng, 1 / LAPLACE_EPSILON, size)


def laplace_entries() -> tuple[ZooEntry, ...]:
    """The textbook float Laplace mechanism next to snapping and exact discrete Laplace."""
    eps = LAPLACE_EPSILON
    relation = "lists of 0/1 entries, released as their count; neighbors differ in one entry"
    float_w = Witness(
        a=[0], b=[1], event="0 < y < 1/2 and y is not a multiple of 2^-53", contains=off_grid,
        p=Interval(ETA, Fraction(1)), q=Interval.point(0),
        basis="P(F | [1]) = 0 exactly (Sterbenz: 1 + n is exact for n in [-1, -1/2]); "
              "P(F | [0]) >= 2^-53 (an outcome in F exhibited by the tests; each 53-bit uniform "
              "has probability 2^-53); planning value: uniform-low-bits model",
        p_estimate=_off_grid_model())
    snap_claim = snapping_epsilon(1 / eps, SNAP_BOUND)
    below = Fraction(-1, 2)  # count + noise rounds to <= -1 (ties up) iff it is < -1/2
    ideal_p, ideal_q = (enclose(tail(LaplaceNoise(1 / eps), Fraction(c), below, False))
                        for c in (0, 1))
    snap_w = Witness(a=[0], b=[1], event="the release is <= -1", contains=lambda o: o <= -1,
                     p=ideal_p, q=ideal_q,
                     basis="real-arithmetic snapping: P(0 + Lap(λ) < -1/2) and P(1 + Lap(λ) < -1/2) "
                           "(exact core: continuous_noise.ThresholdTest)")
    return (
        ZooEntry(
            name="laplace_float", sampler=laplace_float, vectorized=laplace_float_vectorized,
            claimed_epsilon=rational(eps), claimed_delta=Fraction(0), true_epsilon=NOT_PRIVATE,
            true_epsilon_basis="exact: the witness event has probability 0 on [1] and positive "
                               "probability on [0] (Mironov 2012, Sections 3-4: the float Laplace "
                               "release is porous)",
            correct=False, source=f"{_MIRONOV}, Sections 3-4 (textbook implementation)",
            relation=relation, pairs=(([0], [1]),), witnesses=(float_w,),
            notes="In real arithmetic this is the ε-DP Laplace mechanism; the bug is the "
                  "floating-point release.  numpy's laplace computes scale·log(2U) from a 53-bit "
                  "uniform U.  Only events on the low-order bits expose it.",
            float_outputs=True),
        ZooEntry(
            name="laplace_snapping", sampler=laplace_snapping, vectorized=laplace_snapping_vectorized,
            claimed_epsilon=rational(snap_claim), claimed_delta=Fraction(0),
            true_epsilon=Interval(eps - Fraction(1, 2**40), snap_claim),
            true_epsilon_basis="upper: Mironov 2012, Section 5.2: (1 + 12Bη)/λ + 2η with "
                               f"λ = {1 / eps}, B = {SNAP_BOUND}, η = 2^-53, assuming an exactly "
                               "uniform U* and a correctly rounded ln; lower: in real arithmetic "
                               "the witness event's ratio is e^{1/λ}, and with a faithful, "
                               "monotone ln the float probabilities are within a relative 2^-50",
            correct=True, source=f"{_MIRONOV}, Section 5.2 (snapping mechanism)",
            relation=relation, pairs=(([0], [1]),), witnesses=(snap_w,),
            notes="U* is drawn at full precision (every double in (0, 1) with the probability of "
                  "its real interval); numpy's log stands in for a correctly rounded ln "
                  "(diffprivlib uses crlibm), a gap far below any Monte Carlo resolution.  "
                  "Outputs are multiples of Λ = 1 in [-B, B].",
            float_outputs=False),
        ZooEntry(
            name="laplace_discrete", sampler=laplace_discrete, vectorized=laplace_discrete_vectorized,
            claimed_epsilon=rational(eps), claimed_delta=Fraction(0), true_epsilon=rational(eps),
            true_epsilon_basis="exact: discrete Laplace of scale 1/ε has loss ε, attained on the "
                               "tail (Ghosh et al. 2009; CKS20); equals audits.exact.audit_pair "
                               "on [0] vs [1]",
            correct=True, source="Canonne, Kamath, Steinke, NeurIPS 2020 (privref "
                                 "reference.geometric.discrete_laplace_mechanism)",
            relation=relation, pairs=(([0], [1]),),
            witnesses=(_tail_witness([0], [1], 1 / eps, 0, None),),
            notes="Exact integer noise: no floating point anywhere."),
    )
