"""IWAL-CAL: importance-weighted active learning with an ERM oracle, as a probabilistic program.

Beygelzimer, Hsu, Langford and Zhang 2010, "Agnostic active learning without constraints",
Algorithm 1 (IWAL-CAL), the learner family that Yan et al. (2018)'s practical disagreement-based
learner (the active student of 001 §5.1) builds on.  No region of disagreement is kept; every
decision calls an ERM oracle.  Stream positions are 0-based here; the paper's index is
k = position + 1.

At stream point k (x_k at position k − 1), with S the queried examples so far, each (x_i, y_i)
weighted 1/P_i:

1. h_k = ERM(S) (importance-weighted); h'_k = ERM(S) constrained to h(x_k) ≠ h_k(x_k).
2. G_k = err(h'_k) − err(h_k), err(h) = (1/(k − 1)) Σ_{i ∈ S} (1/P_i)·1[h(x_i) ≠ y_i] (the
   importance-weighted error over the k − 1 points seen: an unqueried point contributes 0).
   G_k is an exact Fraction.  When the oracle finds no h' (every hypothesis it can reach agrees
   with h_k at x_k: x_k is outside the region of disagreement), G_k = +∞.
3. P_k = 1 if G_k <= √(b_k) + b_k, b_k = C0·ln k/(k − 1) (P_1 = 1); otherwise the s in (0, 1)
   solving G_k = (c1/√s − c1 + 1)·√(b_k) + (c2/s − c2 + 1)·b_k, c1 = 5 + 2√2, c2 = 5
   (:func:`query_probability`; the right side decreases in s, and G_k = +∞ gives P_k = 0).
4. Q_k ~ Bernoulli(P_k), drawn exactly as a random choice of the program
   (:func:`privref.reference.program.bernoulli`) at the dyadic P_k rounded UP to a multiple of
   2^-:data:`COIN_BITS` (rounding up only asks for more labels; the weight uses the rounded P).
   If Q_k = 1, the label is requested (``y = yield from service(position)``) and (x_k, y_k,
   1/P_k) joins S.  Stop when the stream ends or ``budget`` labels were requested.
5. Output ERM(S).

The learner never trains on a label it did not request (no inferred labels), requests at most
``budget`` labels, and its decisions depend only on the public stream, its own coins and the
answers it received, so under 001 Algorithm 5 it is post-processing of at most ℓ released
labels (ledger: ``proofs.p001.iwal_privacy``).

The floats of step 3 (ln, √, the solved s) are a learner's choice of a query probability, not a
verdict: the coin itself is exact at the Fraction P_k the learner reports.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Generic, Protocol, TypeVar

from privref.reference.citations import Uncited
from privref.reference.errors import InvalidArgument
from privref.reference.program import Program, bernoulli
from privref.reference.validate import check_int

__all__ = [
    "C1",
    "C2",
    "COIN_BITS",
    "ErmOracle",
    "GapFunction",
    "IwalRun",
    "WeightedExample",
    "iwal_cal_program",
    "iwal_rhs",
    "iwal_threshold",
    "query_probability",
    "weighted_gap",
]

SOURCE: Final = Uncited("Beygelzimer, Hsu, Langford, Zhang 2010, Algorithm 1 (IWAL-CAL): an "
                        "external learner used by 001 §5.1's experiments, not a result of 001–004")
"""What this module implements: IWAL-CAL, an external algorithm (no numbered result of 001–004)."""

C1: Final = 5.0 + 2.0 * math.sqrt(2.0)
"""c1 = 5 + 2√2 of IWAL-CAL's rejection threshold (Beygelzimer et al. 2010, Algorithm 1)."""

C2: Final = 5.0
"""c2 = 5 of IWAL-CAL's rejection threshold (Beygelzimer et al. 2010, Algorithm 1)."""

COIN_BITS: Final = 32
"""P_k is rounded up to a multiple of 2^-32 before the exact coin is drawn."""

H = TypeVar("H")
H_co = TypeVar("H_co", covariant=True)


@dataclass(frozen=True)
class WeightedExample:
    """A queried example: stream ``position``, released ``label`` and importance weight 1/P.

    Guarantee: ``weight`` = 1/``probability`` exactly (checked at construction), P in (0, 1].
    """

    position: int
    label: int
    probability: Fraction

    def __post_init__(self) -> None:
        if not (isinstance(self.probability, Fraction) and 0 < self.probability <= 1):
            raise InvalidArgument(f"probability={self.probability!r} must be a Fraction in (0, 1]")

    @property
    def weight(self) -> Fraction:
        """The importance weight 1/P (IWAL's Z_k entry)."""
        return 1 / self.probability


class ErmOracle(Protocol[H]):
    """The ERM oracle of IWAL-CAL: ``fit`` returns an (approximate) importance-weighted ERM on
    the examples, optionally constrained to label ``forced = (position, label)`` so, or None when
    it finds no such hypothesis; ``predict`` labels stream positions."""

    def fit(self, examples: Sequence[WeightedExample],
            forced: tuple[int, int] | None) -> H | None:
        """An ERM on ``examples`` (weights 1/P), with h(forced[0]) = forced[1] if given."""
        ...

    def predict(self, h: H, positions: Sequence[int]) -> Sequence[int]:
        """h's 0/1 label at each stream position."""
        ...


@dataclass(frozen=True)
class IwalRun(Generic[H_co]):
    """The outcome of :func:`iwal_cal_program`.

    ``model`` the output ERM(S); ``examples`` the queried examples in stream order (position,
    label, P); ``probabilities`` P_k at every stream point read (P = 0: skipped without a coin);
    ``processed`` how many stream points were read.
    """

    model: H_co
    examples: tuple[WeightedExample, ...]
    probabilities: tuple[Fraction, ...]
    processed: int

    @property
    def queried(self) -> tuple[int, ...]:
        """The requested stream positions, in order."""
        return tuple(e.position for e in self.examples)

    @property
    def labels(self) -> tuple[int, ...]:
        """The answers, in request order."""
        return tuple(e.label for e in self.examples)


def _check_c0(c0: float) -> float:
    if isinstance(c0, bool) or not isinstance(c0, (int, float, Fraction)) or \
            not math.isfinite(float(c0)) or not c0 > 0:
        raise InvalidArgument(f"c0={c0!r} must be a finite number > 0")
    return float(c0)


def iwal_threshold(k: int, c0: float) -> float:
    """√(b_k) + b_k with b_k = c0·ln k/(k − 1): IWAL-CAL's "query surely" threshold
    (Beygelzimer et al. 2010, Algorithm 1); +∞ at k = 1.  Requires k >= 1, c0 > 0 finite."""
    kk = check_int(k, "k", minimum=1)
    c = _check_c0(c0)
    if kk == 1:
        return math.inf
    b = c * math.log(kk) / (kk - 1)
    return math.sqrt(b) + b


def iwal_rhs(s: float, k: int, c0: float) -> float:
    """(c1/√s − c1 + 1)·√(b_k) + (c2/s − c2 + 1)·b_k: the right side of IWAL-CAL's equation for
    P_k (Beygelzimer et al. 2010, Algorithm 1), decreasing in s, equal to the threshold at s = 1.
    Requires 0 < s <= 1, k >= 2, c0 > 0."""
    if not (isinstance(s, (int, float, Fraction)) and 0 < s <= 1):
        raise InvalidArgument(f"s={s!r} must lie in (0, 1]")
    kk = check_int(k, "k", minimum=2)
    b = _check_c0(c0) * math.log(kk) / (kk - 1)
    sf = float(s)
    return (C1 / math.sqrt(sf) - C1 + 1) * math.sqrt(b) + (C2 / sf - C2 + 1) * b


def query_probability(gap: Fraction | float, k: int, c0: float) -> Fraction:
    """IWAL-CAL's P_k for the error gap G_k (Beygelzimer et al. 2010, Algorithm 1), as an exact
    dyadic Fraction rounded up to a multiple of 2^-COIN_BITS.

    Guarantee: 1 when k = 1 or G_k <= :func:`iwal_threshold`; 0 when G_k = +∞ (no disagreeing
    hypothesis); otherwise ⌈s·2^32⌉/2^32 in (0, 1], s the positive root of G_k =
    :func:`iwal_rhs` (s) (closed form: u = 1/√s solves c2·b·u² + c1·√b·u = G + (c1 − 1)√b +
    (c2 − 1)b), so iwal_rhs(P) <= G up to float rounding.  Requires k >= 1, c0 > 0, gap not NaN.
    """
    kk = check_int(k, "k", minimum=1)
    c = _check_c0(c0)
    g = float(gap)
    if math.isnan(g):
        raise InvalidArgument("gap must not be NaN")
    if kk == 1 or g <= iwal_threshold(kk, c):
        return Fraction(1)
    if math.isinf(g):
        return Fraction(0)
    b = c * math.log(kk) / (kk - 1)
    a = math.sqrt(b)
    rhs = g + (C1 - 1) * a + (C2 - 1) * b
    u = (-C1 * a + math.sqrt(C1 * C1 * b + 4 * C2 * b * rhs)) / (2 * C2 * b)
    s = 1.0 / (u * u)
    scale = 1 << COIN_BITS
    m = min(scale, max(1, math.ceil(s * scale)))
    return Fraction(m, scale)


def weighted_gap(examples: Sequence[WeightedExample], pred: Sequence[int],
                 pred_other: Sequence[int], k: int) -> Fraction:
    """err(h') − err(h) exactly: (1/(k − 1)) Σ_i (1/P_i)(1[h'(x_i) ≠ y_i] − 1[h(x_i) ≠ y_i])
    over the queried examples (unqueried points contribute 0), given h's and h''s labels at
    their positions (Beygelzimer et al. 2010, Algorithm 1's G_k).  Requires k >= 2."""
    kk = check_int(k, "k", minimum=2)
    if not len(pred) == len(pred_other) == len(examples):
        raise InvalidArgument("pred and pred_other must label every example")
    total = Fraction(0)
    for e, p, q in zip(examples, pred, pred_other, strict=True):
        if int(p) != int(q):
            total += e.weight if int(q) != e.label else -e.weight
    return total / (kk - 1)


LabelService = Callable[[int], Program[int]]
"""A labeling service in program form: ``service(j)`` returns the label of stream position j."""


GapFunction = Callable[[H, H, Sequence[WeightedExample], int], Fraction | float]
"""gap(h, h', S, k): the error gap G_k of h' over h on the queried examples S at stream point k."""


def iwal_cal_program(stream: int, service: LabelService, oracle: ErmOracle[H], *, budget: int,
                     c0: float, gap: GapFunction[H] | None = None) -> Program[IwalRun[H]]:
    """IWAL-CAL (Beygelzimer, Hsu, Langford, Zhang 2010, Algorithm 1) on ``stream`` points,
    requesting labels through ``service`` and fitting with ``oracle`` (module docstring).

    Guarantee: at most ``budget`` requests, in increasing stream order, each preceded by an
    exact coin of probability :func:`query_probability` (no coin when P = 1 or P = 0); every
    queried example is kept with weight exactly 1/P; nothing else is trained on; the output is
    ``oracle.fit`` on the queried examples.  The run reads only the stream positions, the
    oracle, its coins and the answers.  ``gap`` replaces the exact importance-weighted 0/1 gap
    (:func:`weighted_gap`, the paper's) by another error measure of the same form (e.g. a
    surrogate loss); it sees only h, h', the queried examples and k.  Requires stream >= 1,
    budget >= 1, c0 > 0 finite (InvalidArgument at call time) and answers in {0, 1}
    (InvalidArgument when answered).
    """
    n = check_int(stream, "stream", minimum=1)
    ell = check_int(budget, "budget", minimum=1)
    c = _check_c0(c0)
    if not callable(service):
        raise InvalidArgument(f"service={service!r} must be a callable j -> Program[int]")

    def run() -> Program[IwalRun[H]]:
        examples: list[WeightedExample] = []
        probabilities: list[Fraction] = []
        current: H | None = None
        processed = 0
        for j in range(n):
            processed = j + 1
            k = j + 1
            if k == 1 or not examples:
                p = Fraction(1)
            else:
                if current is None:
                    current = oracle.fit(examples, None)
                if current is None:
                    raise InvalidArgument("oracle.fit found no hypothesis without a constraint")
                guess = int(oracle.predict(current, [j])[0])
                other = oracle.fit(examples, (j, 1 - guess))
                if other is None:
                    p = query_probability(math.inf, k, c)
                elif gap is not None:
                    p = query_probability(gap(current, other, tuple(examples), k), k, c)
                else:
                    positions = [e.position for e in examples]
                    g = weighted_gap(examples, oracle.predict(current, positions),
                                     oracle.predict(other, positions), k)
                    p = query_probability(g, k, c)
            probabilities.append(p)
            if p == 0:
                continue
            if p < 1:
                coin = yield from bernoulli(p)
                if not coin:
                    continue
            y = yield from service(j)
            if isinstance(y, bool) or y not in (0, 1):
                raise InvalidArgument(f"label({j})={y!r} must be 0 or 1")
            examples.append(WeightedExample(j, int(y), p))
            current = None
            if len(examples) >= ell:
                break
        model = oracle.fit(examples, None)
        if model is None:
            raise InvalidArgument("oracle.fit found no hypothesis without a constraint")
        return IwalRun(model, tuple(examples), tuple(probabilities), processed)

    return run()
