"""The lower-bound experiment for transcript-private active learners, executable on tiny d and n.

004 Theorem C.12 / 000 Theorem 5.6: every TPAL for THRESH_d has m = Ω(1/α).
The proof (004 Theorem C.12 / 000 Theorem 5.6) draws a labeled sample S from a distribution 𝒫:

1. D = (x_1, …, x_n), n uniform i.i.d. points of X_d = {0, …, 2^d − 1};
2. t uniform in a set B of thresholds; c_t(x) = 1 iff x < t;
3. S = ((x_i, c_t(x_i)))_i.

000 takes B = {1, …, 8α·2^d}; 004 takes B = {0, …, 8αn} (see :func:`threshold_range`).
A point x is "in B" when its integer value is.  The swap: x* uniform among the
entries of S in B (b >= 1 of them), x̂ uniform among all n entries, and S′ is S
with the two entries exchanged; x̂ then sits at x*'s old position.  The proof
uses that (S′, that position) ~ 𝒫|_{b>=1} × Unif[n] (:func:`swap_distribution`,
:func:`conditioned_product`).  Also here: the exact failure probability of a
learner that queries no point of B (:func:`failure_probability`; the papers'
"at least 3/4" is off by 1/|B|, :func:`failure_bound`), E[b]
(:func:`expected_b`), and the bound on m implied by the proof's final inequality
(:func:`implied_label_lower_bound`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import Final, Literal, TypeVar

from ..concepts import Concept
from ..data import Dataset
from ..errors import InvalidArgument, TooLargeToEnumerate
from ..privacy import parse_epsilon
from ..program import MAX_PATHS, Distribution, Program, call, distribution, uniform
from ..reals import Prob, Real, exp, log
from ..validate import ExactInput, check_int, check_probability, to_fraction

__all__ = [
    "MAX_EXHAUSTIVE_D",
    "PRINTED_FAILURE_BOUND",
    "Version",
    "b_positions",
    "conditioned_product",
    "expected_b",
    "failure_bound",
    "failure_probability",
    "hard_distribution",
    "hard_sample",
    "implied_label_lower_bound",
    "min_failure_all_hypotheses",
    "min_failure_thresholds",
    "swap_distribution",
    "swap_entries",
    "swap_experiment",
    "threshold_range",
    "wlog_sample_size",
]

Version = Literal["000", "004"]

K = TypeVar("K", bound=Hashable)

PRINTED_FAILURE_BOUND: Final = Fraction(3, 4)
"""Both versions: a learner that queries no point of B fails "with probability at least 3/4"."""

MAX_EXHAUSTIVE_D: Final = 4
"""Largest d for which :func:`min_failure_all_hypotheses` enumerates all 2^(2^d) hypotheses."""


def _alpha(alpha: object) -> Fraction:
    a = check_probability(to_fraction(alpha, "alpha"), "alpha", open_low=True)
    if a > Fraction(1, 8):
        raise InvalidArgument(f"alpha={a} must be <= 1/8 (so that |B| = 8α·2^d <= 2^d)")
    return a


def threshold_range(d: int, alpha: ExactInput, *, version: Version = "000",
                    n: int | None = None) -> tuple[int, ...]:
    """The threshold set B of the proof.

    ``"000"`` (000 Theorem 5.6): B = {1, …, 8α·2^d}; 8α·2^d must be a positive
    integer (needs α <= 1/8; 000 assumes α <= 1/9, and with α = 1/8 the last
    element 2^d is a threshold but not a point of X_d).  ``"004"`` (004 Theorem
    C.12): B = {0, …, 8αn}; needs ``n`` and 8αn an integer.  004's B does not
    depend on d, so it can even leave X_d (004-E16(i)).
    """
    d = check_int(d, "d", minimum=0, maximum=24)
    a = _alpha(alpha)
    match version:
        case "000":
            if n is not None:
                check_int(n, "n", minimum=1)
            size = a * 8 * (1 << d)
            if size.denominator != 1:
                raise InvalidArgument(f"alpha={a}: 8·alpha·2^d = {size} must be an integer (d={d})")
            return tuple(range(1, int(size) + 1))
        case "004":
            if n is None:
                raise InvalidArgument("n=None: version '004' has B = {0, …, 8αn}, which needs n")
            n = check_int(n, "n", minimum=1)
            top = a * 8 * n
            if top.denominator != 1:
                raise InvalidArgument(f"alpha={a}: 8·alpha·n = {top} must be an integer (n={n})")
            return tuple(range(int(top) + 1))
    raise InvalidArgument(f"version={version!r} must be '000' or '004'")


def _thresholds(thresholds: object) -> tuple[int, ...]:
    if not isinstance(thresholds, tuple) or not thresholds:
        raise InvalidArgument(f"thresholds={thresholds!r} must be a non-empty tuple of ints")
    for i, t in enumerate(thresholds):
        check_int(t, f"thresholds[{i}]", minimum=0)
    if len(set(thresholds)) != len(thresholds):
        raise InvalidArgument(f"thresholds={thresholds!r} must be distinct")
    return thresholds


def hard_sample(d: int, n: int, thresholds: tuple[int, ...]) -> Program[Dataset]:
    """Steps 1–3 of the thought experiment: S ~ 𝒫 for B = ``thresholds``."""
    size = 2 ** check_int(d, "d", minimum=0)
    n = check_int(n, "n", minimum=1)
    thresholds = _thresholds(thresholds)
    xs = []
    for _ in range(n):
        xs.append((yield from uniform(size)))
    t = thresholds[(yield from uniform(len(thresholds)))]
    return tuple((x, 1 if x < t else 0) for x in xs)


def hard_distribution(d: int, n: int, thresholds: tuple[int, ...], *,
                      max_paths: int = MAX_PATHS) -> Distribution[Dataset]:
    """The exact law 𝒫 (2^(d·n)·|B| paths; raises TooLargeToEnumerate beyond ``max_paths``)."""
    return distribution(hard_sample, d, n, thresholds, max_paths=max_paths)


def b_positions(sample: Dataset, thresholds: tuple[int, ...]) -> tuple[int, ...]:
    """Positions of the entries of ``sample`` whose point lies in B (b = their number)."""
    members = set(thresholds)
    return tuple(i for i, entry in enumerate(sample)
                 if isinstance(entry, tuple) and entry[0] in members)


def swap_entries(sample: Dataset, i: int, j: int) -> Dataset:
    """``sample`` with entries i and j exchanged."""
    out = list(sample)
    out[i], out[j] = out[j], out[i]
    return tuple(out)


def swap_experiment(d: int, n: int, thresholds: tuple[int, ...]
                    ) -> Program[tuple[Dataset, int] | None]:
    """S ~ 𝒫; None when b = 0; else (S′, position of x̂ in S′) after the swap of the proof."""
    sample: Dataset = yield from call(hard_sample, d, n, thresholds)
    inside = b_positions(sample, thresholds)
    if not inside:
        return None
    star = inside[(yield from uniform(len(inside)))]
    hat = yield from uniform(n)
    return swap_entries(sample, star, hat), star


def swap_distribution(d: int, n: int, thresholds: tuple[int, ...], *,
                      max_paths: int = MAX_PATHS) -> dict[tuple[Dataset, int], Fraction]:
    """Exact law of (S′, position of x̂) given b >= 1 (normalized by Pr[b >= 1])."""
    law = distribution(swap_experiment, d, n, thresholds, max_paths=max_paths)
    kept = {o: p for o, p in law.items() if o is not None}
    return _normalized(kept)


def conditioned_product(d: int, n: int, thresholds: tuple[int, ...], *,
                        max_paths: int = MAX_PATHS) -> dict[tuple[Dataset, int], Fraction]:
    """𝒫|_{b>=1} × Unif{0, …, n−1}: the law the proof needs (S′, x̂'s position) to have."""
    law = hard_distribution(d, n, thresholds, max_paths=max_paths)
    kept = {s: p for s, p in law.items() if b_positions(s, thresholds)}
    conditioned = _normalized(kept)
    return {(s, j): p / n for s, p in conditioned.items() for j in range(n)}


def _normalized(weights: Mapping[K, Prob]) -> dict[K, Fraction]:
    exact: dict[K, Fraction] = {}
    for key, p in weights.items():
        if not isinstance(p, Fraction):
            raise InvalidArgument(f"probability {p!r} is not exact")
        exact[key] = p
    total = sum(exact.values(), Fraction(0))
    if total == 0:
        raise InvalidArgument("Pr[b >= 1] = 0: no point of X_d lies in B")
    return {k: p / total for k, p in exact.items()}


def _mask(d: int, hypothesis: Concept | int) -> int:
    size = 1 << d
    if isinstance(hypothesis, Concept):
        if hypothesis.domain.points != tuple(range(size)):
            raise InvalidArgument(f"hypothesis={hypothesis!r} must be a concept over X_d = "
                                  f"(0, …, {size - 1})")
        mask: int = hypothesis.mask
        return mask
    return check_int(hypothesis, "hypothesis", minimum=0, maximum=(1 << size) - 1)


def _threshold_mask(d: int, t: int) -> int:
    return (1 << min(t, 1 << d)) - 1


def failure_probability(d: int, alpha: ExactInput, hypothesis: Concept | int,
                        thresholds: tuple[int, ...]) -> Fraction:
    """Pr_{t ~ Unif(B)}[error_μ(c_t, h) > α] for μ uniform on X_d: exact.

    This is the failure probability of any learner whose output is h whenever
    it queries no point of B (the answers then do not depend on t).  ``hypothesis``
    is a Concept over (0, …, 2^d − 1) or its bit mask (bit x = h(x)).
    Thresholds above 2^d act as c_{2^d}.
    """
    d = check_int(d, "d", minimum=0, maximum=24)
    a = _alpha(alpha)
    h = _mask(d, hypothesis)
    thresholds = _thresholds(thresholds)
    limit = a * (1 << d)
    bad = sum(1 for t in thresholds if (h ^ _threshold_mask(d, t)).bit_count() > limit)
    return Fraction(bad, len(thresholds))


def min_failure_thresholds(d: int, alpha: ExactInput, thresholds: tuple[int, ...]
                           ) -> tuple[Fraction, int]:
    """min over the threshold hypotheses c_s (s = 0..2^d) of :func:`failure_probability`, and s."""
    d = check_int(d, "d", minimum=0, maximum=20)
    best = min((failure_probability(d, alpha, _threshold_mask(d, s), thresholds), s)
               for s in range((1 << d) + 1))
    return best


def min_failure_all_hypotheses(d: int, alpha: ExactInput, thresholds: tuple[int, ...]) -> Fraction:
    """min over all 2^(2^d) hypotheses h: X_d → {0,1} (d <= MAX_EXHAUSTIVE_D)."""
    d = check_int(d, "d", minimum=0)
    if d > MAX_EXHAUSTIVE_D:
        raise TooLargeToEnumerate(f"d={d} must be <= {MAX_EXHAUSTIVE_D} (2^(2^d) hypotheses)")
    a = _alpha(alpha)
    thresholds = _thresholds(thresholds)
    limit = a * (1 << d)
    masks = [_threshold_mask(d, t) for t in thresholds]
    best = len(masks)
    for h in range(1 << (1 << d)):
        bad = sum(1 for c in masks if (h ^ c).bit_count() > limit)
        best = min(best, bad)
    return Fraction(best, len(masks))


def failure_bound(d: int, alpha: ExactInput, thresholds: tuple[int, ...]) -> Fraction:
    """Exact minimum failure probability for consecutive thresholds B ⊆ [0, 2^d]:

    1 − min(|B|, 2⌊α2^d⌋ + 1)/|B|.  An α-good h for c_t and c_{t′} has
    |t − t′| <= 2⌊α2^d⌋ (errors count whole points, triangle inequality), and
    c_s with s the middle of such a window achieves it.  For 000's B with α2^d
    an integer this is 3/4 − 1/|B|, e.g. 47/64 at d = 6, α = 1/8 (004-E16(v)).
    """
    d = check_int(d, "d", minimum=0, maximum=24)
    a = _alpha(alpha)
    thresholds = _thresholds(thresholds)
    if thresholds != tuple(range(thresholds[0], thresholds[0] + len(thresholds))) or (
            thresholds[-1] > (1 << d)):
        raise InvalidArgument(f"thresholds={thresholds!r} must be consecutive and <= 2^d = {(1 << d)}")
    window = 2 * int(a * (1 << d)) + 1
    return 1 - Fraction(min(len(thresholds), window), len(thresholds))


def expected_b(d: int, n: int, thresholds: tuple[int, ...]) -> Fraction:
    """E[b] = n·|B ∩ X_d|/2^d under 𝒫 (b ~ Binomial(n, |B ∩ X_d|/2^d))."""
    d = check_int(d, "d", minimum=0)
    n = check_int(n, "n", minimum=1)
    inside = sum(1 for t in _thresholds(thresholds) if t < (1 << d))
    return Fraction(n * inside, (1 << d))


def wlog_sample_size(alpha: ExactInput, beta: ExactInput) -> Real:
    """(100/α²)·ln(1/(αβ)), the size both proofs assume "without loss of generality"."""
    a = _alpha(alpha)
    b = check_probability(to_fraction(beta, "beta"), "beta", open_low=True, open_high=True)
    return log(1 / (a * b)) * (100 / a**2)


def implied_label_lower_bound(alpha: ExactInput, beta: ExactInput, epsilon: Real | ExactInput,
                              delta: ExactInput, n: int, *, version: Version = "000") -> Real:
    """n times the right side of the proof's final inequality: m >= this (exact real).

    000: e^{−2ε}(1 − 25β/9)/(9α) − nδ(1 + e^{−ε}); 004: the same with 7β/3.
    It is Ω(1/α) only when the first term dominates: β < 9/25 (000) or β < 3/7
    (004), ε = O(1) and nδ = o(1/α) (004-E16(ii), (vii)); otherwise it can
    be <= 0, i.e. vacuous.
    """
    a = _alpha(alpha)
    b = check_probability(to_fraction(beta, "beta"), "beta")
    eps = parse_epsilon(epsilon)
    dl = check_probability(to_fraction(delta, "delta"), "delta")
    n = check_int(n, "n", minimum=1)
    match version:
        case "000":
            accuracy = 1 - Fraction(25, 9) * b
        case "004":
            accuracy = 1 - Fraction(7, 3) * b
        case _:
            raise InvalidArgument(f"version={version!r} must be '000' or '004'")
    first = exp(-eps * 2) * (accuracy / (9 * a))
    return first - (exp(-eps) + 1) * (n * dl)

