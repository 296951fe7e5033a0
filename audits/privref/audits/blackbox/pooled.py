"""The pooled test: one Clopper–Pearson bound on P(F)/(P(F) + Q(F)) instead of one per side.

Why: the per-side test bounds p_lo <= P(F) and q_hi >= Q(F) at alpha/2 each, and
the two widths add up.  Pooling the two sides' hits into one binomial spends all of
alpha on a single bound whose relative width is that of the log ratio itself:
about 45% narrower for rare events at alpha = 0.1 (see docs/blackbox-statistics.md).

How (exact, no float makes a random choice):

1. The bounding split has B outcomes per side.  Keep a spare of t = isqrt(24·B) + 1
   per side, and deal 2(B - t) draws to the two sides by fair coins: m ~ Bin(2(B - t), 1/2)
   draws of M(a), the rest of M(b) (:func:`allocate`; the coins are random bits of the
   audit's seed, counted exactly).  Since each side's draws are i.i.d., this is the same
   as dealing every draw to a side by its own coin.
2. Each draw then lands in (F and side a) with probability P/2 and (F and side b) with
   probability Q/2, independently, so the hit counts (X, Y) are multinomial and, given
   S = X + Y, X ~ Bin(S, r) with r = P/(P + Q) exactly.  Given S, the one-sided
   Clopper–Pearson bound r_lo at level alpha satisfies r >= r_lo with probability
   >= 1 - alpha, and then P/Q = r/(1 - r) >= r_lo/(1 - r_lo) (:func:`pooled_ratio`).
   Averaging over S keeps the level.
3. The dealt sizes must fit in the B outcomes per side: |m - (B - t)| <= t.  By
   Hoeffding's inequality the contrary has probability <= 2·e^(-t²/(B - t)) <= 2·e^-24;
   then the pair reports no evidence (never a wrong bound), so the level is unchanged.

The test bounds P/Q only, so it serves delta = 0; a delta > 0 point keeps the per-side
test (:func:`privref.audits.blackbox.estimate.bound_ratio`), valid at the dealt sizes
too because the sizes are independent of the outcomes.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Final

import numpy as np

from privref.reference.citations import cite
from privref.reference.errors import InvalidArgument
from privref.reference.validate import check_int

from ..stats import check_alpha, cp_lower

__all__ = ["POOLED_MIN", "SOURCE", "allocate", "fair_count", "pooled_applies", "pooled_ratio",
           "spare"]

SOURCE: Final = cite("folklore Przyborowski-Wilenski 1940")
"""The ledger entry of the conditional law this test rests on (checked exactly there)."""

POOLED_MIN: Final = 4096
"""The pooled test is used when the bounding split has at least this many outcomes per side
(the spare t is then at most 7.7% of it, 0.05% at 10^8)."""

_BLOCK: Final = 1 << 22
"""Random bytes drawn per step while counting coins (memory stays at 4 MB for any B)."""


def pooled_applies(bounding: int) -> bool:
    """True when a bounding split of ``bounding`` outcomes per side gets the pooled test."""
    return bounding >= POOLED_MIN


def spare(bounding: int) -> int:
    """t = isqrt(24·B) + 1: the outcomes per side held back so that the dealt sizes fit.

    t² > 24·B >= 24·(B - t), so the dealt sizes overflow with probability <= 2·e^-24.
    """
    check_int(bounding, "bounding", minimum=1)
    return math.isqrt(24 * bounding) + 1


def fair_count(coins: int, rng: np.random.Generator) -> int:
    """How many of ``coins`` fair coins show heads: exactly Bin(coins, 1/2), from random bits.

    The coins are the first ``coins`` bits (least significant first) of the ceil(coins/8)
    bytes of ``rng.bytes``, drawn in blocks of a multiple of 8 bytes (which concatenate to
    one draw of them all), counted as integers.
    """
    check_int(coins, "coins", minimum=0)
    heads = 0
    left = -(-coins // 8)
    bits = coins
    while left > 0:
        step = min(left, _BLOCK)
        block = int.from_bytes(rng.bytes(step), "little")
        if bits < 8 * step:  # the last block: only its first ``bits`` bits are coins
            block &= (1 << bits) - 1
        heads += block.bit_count()
        left -= step
        bits -= 8 * step
    return heads


def allocate(bounding: int, seed: np.random.SeedSequence) -> tuple[int, int]:
    """The pooled test's sizes per side out of ``bounding`` >= POOLED_MIN: (m, 2(B - t) - m).

    m ~ Bin(2(B - t), 1/2) exactly (:func:`fair_count` on a generator seeded by ``seed``),
    t = :func:`spare`.  Returns (0, 0) when a side would need more than B outcomes
    (probability <= 2·e^-24): the pair then reports no evidence.
    """
    if not pooled_applies(bounding):
        raise InvalidArgument(f"bounding={bounding} must be >= POOLED_MIN={POOLED_MIN}")
    t = spare(bounding)
    dealt = bounding - t
    m = fair_count(2 * dealt, np.random.Generator(np.random.PCG64(seed)))
    if abs(m - dealt) > t:
        return (0, 0)
    return (m, 2 * dealt - m)


def pooled_ratio(hits_p: int, hits_q: int, alpha: int | Fraction | float) -> Fraction:
    """r_lo/(1 - r_lo), r_lo the one-sided Clopper–Pearson lower bound on P/(P + Q) from
    ``hits_p`` of S = ``hits_p`` + ``hits_q`` pooled hits at level ``alpha``; 0 when S = 0.

    On dealt sizes (:func:`allocate`) this is <= P(F)/Q(F) with probability >= 1 - alpha.
    """
    a = check_alpha(alpha)
    for name, hits in (("hits_p", hits_p), ("hits_q", hits_q)):
        if isinstance(hits, bool) or not isinstance(hits, int) or hits < 0:
            raise InvalidArgument(f"{name}={hits!r} must be an int >= 0")
    if hits_p + hits_q == 0:
        return Fraction(0)
    r = cp_lower(hits_p, hits_p + hits_q, a)
    return r / (1 - r)
