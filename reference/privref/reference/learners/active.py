"""Active learners (004/000 Section 5): label queries by index, PAL and TPAL mechanisms.

Model (004/000 Definition 5.1, Remark 5.2).  An active learner holds the
unlabeled points (x_1, …, x_n) and, for at most m rounds, outputs an *index*
and receives that entry's label; then it outputs a hypothesis.  Here it is a
probabilistic program ``program(points)`` that yields its random choices (as
every program of :mod:`privref.reference.program`) and, to read a label, yields
``query(i)``.  The program never receives the labels: the driver answers each
query from a :class:`LabelOracle` that records the **transcript**, the ordered
sequence of queried indices (Definition 5.4).  So reading a label without it
entering the transcript is impossible by construction, and the budget m is
enforced (one more query raises :class:`~reference.errors.InvalidArgument`).
Indices are 0-based positions (the paper's ℓ − 1).

Privacy (Definitions 5.3 and 5.4).  The input of the mechanisms is the *fully
labeled* sample S ∈ (X × {0,1})^n, neighbors under substitution of one entry.

* :meth:`ActiveLearner.pal` releases the hypothesis only (PAL, Def 5.3);
* :meth:`ActiveLearner.tpal` releases (hypothesis, transcript) (TPAL, Def 5.4).

Learners here:

* :func:`pssl_as_active` (004/000 Theorem 5.5): a PSSL run as an active learner
  that queries 0, …, m−1; the transcript is constant, so PAL = TPAL = the PSSL's claim.
* :func:`subsampling_learner` (004 Algorithm 6 / 000 Algorithm 4, SubSampling):
  choose J ⊆ [t], |J| = n, uniformly; query K = the m smallest indices of J in
  increasing order; run the base PSSL on D_J, laid out as the labeled entries of
  K (increasing index) followed by the unlabeled entries of J∖K (increasing
  index), each block shuffled uniformly when the base is not order-invariant (the
  papers run 𝒜 "on the multiset D_J"; cf. 004 Remark C.2).  The claim is a PAL
  claim only: the transcript K reveals part of J, so no TPAL claim is made.

Exact laws come from the one program: J is enumerated with
:func:`privref.reference.subsampling.unrank_combination`, and the base learner runs
through :func:`privref.reference.program.call` (memoized per D_J).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, Literal, TypeVar, cast

import numpy as np

from ..citations import Source, cite
from ..concepts import ConceptClass
from ..data import BOTTOM, Dataset, as_dataset, label_of, labeled, point_of, unlabeled
from ..errors import InvalidArgument, UnknownLabel, UnsupportedProgram
from ..mechanism import Mechanism
from ..neighbors import SUBSTITUTION
from ..privacy import PrivacyClaim, parse_epsilon
from ..program import Choice, Distribution, Program, call, subset, uniform
from ..reals import Order, Prob, Real, compare, exp, log, rational
from ..subsampling import unrank_combination
from ..validate import ExactInput, check_int
from .base import Learner
from .schedule import PAPER_004, LabelBoostConstants, floor_real

__all__ = [
    "ActiveLearner",
    "LabelOracle",
    "Query",
    "Transcript",
    "active_learner",
    "pssl_as_active",
    "query",
    "subsampling_active_claim",
    "subsampling_epsilon",
    "subsampling_learner",
    "subsampling_repaired_claim",
    "theorem57_learner",
    "theorem57_pool",
]

H = TypeVar("H", bound=Hashable)

Transcript = tuple[int, ...]
"""The ordered queried indices (004/000 Definition 5.4), 0-based."""

Points = tuple[Hashable, ...]


@dataclass(frozen=True, slots=True)
class Query(Choice):
    """A label request for entry ``index``, answered by the active-learner driver.

    It is not a random choice: the interpreters of :mod:`privref.reference.program`
    refuse it, so a query can only be made by an active learner's own program
    (not inside :func:`~reference.program.call`, whose sub-programs are
    interpreted separately and cannot reach the oracle).
    """

    index: int

    def branches(self, prec: int) -> list[tuple[Any, Prob]]:
        """Refused: queries are answered by the driver, never enumerated."""
        raise UnsupportedProgram(
            f"query({self.index}) reached the exact interpreter: label queries must be made by "
            "the active learner's own program, not inside call()")

    def draw(self, rng: np.random.Generator) -> Any:
        """Refused: queries are answered by the driver, never sampled."""
        raise UnsupportedProgram(
            f"query({self.index}) reached the sampler: label queries must be made by the "
            "active learner's own program, not inside call()")


def query(index: int) -> Program[int]:
    """Ask for the label (0 or 1) of entry ``index``; recorded in the transcript."""
    label = yield Query(check_int(index, "index", minimum=0))
    return cast(int, label)


class LabelOracle:
    """Answers label queries by index and records the transcript (Def 5.1, 5.4).

    Built by the driver from a fully labeled sample; the learner's program never
    holds it.  The labels are kept in a closure: :meth:`answer` is the only way
    to read one, and it appends the index to :attr:`transcript` first.  At most
    ``budget`` answers are given (004/000 Definition 5.1: "for at most m rounds").
    """

    __slots__ = ("_answer", "_budget", "_points", "_queried")

    def __init__(self, data: Dataset, budget: int) -> None:
        budget = check_int(budget, "budget", minimum=0)
        points: list[Hashable] = []
        labels: list[int] = []
        for i, example in enumerate(as_dataset(data)):
            y = label_of(example)
            if y is BOTTOM:
                raise UnknownLabel(f"data[{i}]={example!r} is unlabeled; the input of an active "
                                   "learner is a fully labeled sample (004/000 Definition 5.3)")
            assert isinstance(y, int)
            points.append(point_of(example))
            labels.append(y)
        frozen = tuple(labels)

        def answer(index: int) -> int:
            return frozen[index]

        self._answer: Callable[[int], int] = answer
        self._points: Points = tuple(points)
        self._budget = budget
        self._queried: list[int] = []

    @property
    def points(self) -> Points:
        """The unlabeled points x_1, …, x_n (all the learner starts with)."""
        return self._points

    @property
    def budget(self) -> int:
        """m, the number of label queries allowed."""
        return self._budget

    @property
    def transcript(self) -> Transcript:
        """The indices queried so far, in order (004/000 Definition 5.4)."""
        return tuple(self._queried)

    def answer(self, index: int) -> int:
        """Record ``index`` in the transcript, then return the label of that entry.

        Raises InvalidArgument when ``index`` is not an int in [0, n) or the
        budget m is exhausted (nothing is recorded then).
        """
        i = check_int(index, "index", minimum=0, maximum=len(self._points) - 1)
        if len(self._queried) >= self._budget:
            raise InvalidArgument(f"query number {len(self._queried) + 1} (index={i}) exceeds "
                                  f"the label budget m={self._budget}")
        self._queried.append(i)
        return self._answer(i)


def _drive(program: Callable[[Points], Program[H]], oracle: LabelOracle) -> Program[H]:
    """Run an active learner's program: answer its queries, pass its random choices on."""
    gen = program(oracle.points)
    reply: Any = None
    while True:
        try:
            item = gen.send(reply)
        except StopIteration as stop:
            return cast(H, stop.value)
        if isinstance(item, Query):
            reply = oracle.answer(item.index)
        else:
            reply = yield item


@dataclass(frozen=True, slots=True)
class ActiveLearner(Generic[H]):
    """An active learner (004/000 Definition 5.1) with its privacy claims.

    ``program(points)`` is the learner, on a pool of ``n`` points with label
    budget ``m``.  ``pal_claim`` is the claimed privacy of the output
    (Definition 5.3); ``tpal_claim`` that of output plus transcript
    (Definition 5.4), or None when the source claims none.  ``concepts`` and
    ``proper`` are as for :class:`~reference.learners.base.Learner`.
    """

    name: str
    program: Callable[[Points], Program[H]]
    n: int
    m: int
    concepts: ConceptClass
    proper: bool
    pal_claim: PrivacyClaim
    tpal_claim: PrivacyClaim | None
    source: Source

    def run(self, data: Dataset) -> Program[tuple[H, Transcript]]:
        """The program S ↦ (hypothesis, transcript) on a fully labeled sample of size n."""
        data = as_dataset(data)
        if len(data) != self.n:
            raise InvalidArgument(f"data has {len(data)} entries; this active learner's pool "
                                  f"size is n={self.n}")
        oracle = LabelOracle(data, self.m)
        h = yield from _drive(self.program, oracle)
        return h, oracle.transcript

    def pal(self, claim: PrivacyClaim | None = None) -> Mechanism[H]:
        """The mechanism S ↦ hypothesis (Definition 5.3), claiming ``claim`` or ``pal_claim``."""
        def program(data: Dataset) -> Program[H]:
            h, _ = yield from self.run(data)
            return h

        return Mechanism(f"PAL {self.name}", program, claim or self.pal_claim, self.source,
                         SUBSTITUTION, description="output only (004/000 Definition 5.3)")

    def tpal(self, claim: PrivacyClaim | None = None) -> Mechanism[tuple[H, Transcript]]:
        """The mechanism S ↦ (hypothesis, transcript) (Definition 5.4).

        ``claim`` defaults to ``tpal_claim``; raises InvalidArgument when both are None.
        """
        stated = claim or self.tpal_claim
        if stated is None:
            raise InvalidArgument(f"claim=None: {self.name!r} ({self.source}) claims no transcript "
                                  "privacy; pass the claim to audit explicitly")
        return Mechanism(f"TPAL {self.name}", self.run, stated, self.source, SUBSTITUTION,
                         description="output and transcript (004/000 Definition 5.4)")

    def transcripts(self, data: Any) -> Distribution[Transcript]:
        """The exact law of the transcript on ``data``."""
        return self.tpal(self.tpal_claim or self.pal_claim).distribution(data).map(
            lambda out: out[1])


def active_learner(name: str, program: Callable[[Points], Program[H]], *, n: int, m: int,
                   concepts: ConceptClass, proper: bool, pal_claim: PrivacyClaim,
                   tpal_claim: PrivacyClaim | None = None, source: Source) -> ActiveLearner[H]:
    """Validate and build an :class:`ActiveLearner` (n >= 1, 0 <= m <= n)."""
    n = check_int(n, "n", minimum=1)
    m = check_int(m, "m", minimum=0, maximum=n)
    if not isinstance(concepts, ConceptClass):
        raise InvalidArgument(f"concepts={concepts!r} must be a reference.concepts.ConceptClass")
    for what, c in (("pal_claim", pal_claim), ("tpal_claim", tpal_claim)):
        if c is not None and not isinstance(c, PrivacyClaim):
            raise InvalidArgument(f"{what}={c!r} must be a PrivacyClaim")
    return ActiveLearner(name, program, n, m, concepts, bool(proper), pal_claim, tpal_claim,
                         source)


def _check_base(base: object) -> Learner[Any]:
    if not isinstance(base, Learner):
        raise InvalidArgument(f"base={base!r} must be a reference.learners.base.Learner")
    return base


# ------------------------------------------------------------------ Theorem 5.5


def pssl_as_active(base: Learner[H], n: int, m: int) -> ActiveLearner[H]:
    """004/000 Theorem 5.5: a PSSL on n entries, the first m labeled, as an active learner.

    It queries 0, 1, …, m−1 (a fixed, data-independent transcript), then runs
    ``base`` on ((x_0, y_0), …, (x_{m−1}, y_{m−1}), (x_m, ⊥), …, (x_{n−1}, ⊥))
    (Definition 2.3's layout).  Guarantee: PAL and TPAL claims both equal the
    base's (ε, δ) (neighbors of the fully labeled sample map to inputs of the
    base at distance <= 1; the transcript is constant).  Ledger: ``004 Theorem 5.5``.
    """
    base = _check_base(base)
    n = check_int(n, "n", minimum=1)
    m = check_int(m, "m", minimum=0, maximum=n)
    inner = base.mechanism.program

    def program(points: Points) -> Program[H]:
        labels = []
        for i in range(m):
            labels.append((yield from query(i)))
        data = tuple(labeled(points[i], labels[i]) for i in range(m)) + tuple(
            unlabeled(points[i]) for i in range(m, n))
        return (yield from call(inner, data))

    return active_learner(f"PSSL as active ({base.name})", program, n=n, m=m,
                          concepts=base.concepts, proper=base.proper, pal_claim=base.claim,
                          tpal_claim=base.claim, source=cite("004 Theorem 5.5"))


# ------------------------------------------------------------------ SubSampling


def subsampling_epsilon(inner: PrivacyClaim, n: int, t: int) -> Real:
    """ε implied by t = (n/ε)(3 + e^{2ε*}) (004 Claim 5.6 / 000 Claim 5.7): ε = n(3 + e^{2ε*})/t.

    Requires 1 <= n <= t (J ⊆ [t] has size n).  Exact when e^{2ε*} is rational.
    """
    n = check_int(n, "n", minimum=1)
    t = check_int(t, "t", minimum=n)
    return (exp(inner.epsilon * 2) + 3) * Fraction(n, t)


def _delta(coefficient: Real, delta: Fraction, what: str) -> Fraction:
    """coefficient·delta, exact when possible, else rounded up (the claim stays implied)."""
    exact = coefficient.exact
    value = delta * (exact if exact is not None else coefficient.enclose().hi)
    if value >= 1:
        raise InvalidArgument(f"delta'={value} ({what}) must be < 1; use a smaller inner delta")
    return value


def subsampling_active_claim(inner: PrivacyClaim, n: int, t: int, *,
                             proved_range_only: bool = True) -> PrivacyClaim:
    """004 Claim 5.6 / 000 Claim 5.7: (ε, (7 + e^{ε*})/(3 + e^{2ε*})·ε·δ) with ε = n(3+e^{2ε*})/t.

    Since ε/(3 + e^{2ε*}) = n/t, δ' = (7 + e^{ε*})·(n/t)·δ exactly (rounded up
    when e^{ε*} is irrational).  The papers state it "for every ε", but the
    printed proof needs e^ε <= 3 (004-E15; ledger ``004 Claim 5.6 /
    δ-coefficient``).  With ``proved_range_only`` (default) an ε > ln 3 raises
    InvalidArgument naming t; pass False to get the claim as printed.
    """
    eps = subsampling_epsilon(inner, n, t)
    if proved_range_only:
        order, _ = compare(exp(eps), 3)
        if order in (Order.GREATER, Order.UNDECIDED):
            bound = float((exp(inner.epsilon * 2) + 3) * n / log(3))
            raise InvalidArgument(
                f"t={t} must be >= n·(3 + e^(2eps*))/ln 3 = {bound:.6g} so that eps <= ln 3, the "
                "range of the printed proof of 004 Claim 5.6 (004-E15); pass "
                "proved_range_only=False for the claim as printed")
    coefficient = (exp(inner.epsilon) + 7) * Fraction(n, t)
    return PrivacyClaim(eps, _delta(coefficient, inner.delta, "(7 + e^eps*)·n/t·delta"))


def subsampling_repaired_claim(inner: PrivacyClaim, n: int, t: int) -> PrivacyClaim:
    """(ε, (1 + e^{ε*})·(n/t)·δ) for every ε = n(3 + e^{2ε*})/t: implies the printed claim.

    Guarantee by the repaired proof of ledger entry ``004 Claim 5.6 / repaired
    δ-term`` (the same-J coupling when ε >= ε*; otherwise the paper's
    two-substitution bound with e^ε(1 − q) >= 1 − q + q·e^{2ε*}).
    """
    eps = subsampling_epsilon(inner, n, t)
    coefficient = (exp(inner.epsilon) + 1) * Fraction(n, t)
    return PrivacyClaim(eps, _delta(coefficient, inner.delta, "(1 + e^eps*)·n/t·delta"))


def _shuffled(block: list[Hashable]) -> Program[list[Hashable]]:
    out: list[Hashable] = []
    pool = list(block)
    while pool:
        j = yield from uniform(len(pool))
        out.append(pool.pop(j))
    return out


def subsampling_learner(base: Learner[H], n: int, m: int, t: int, *,
                        shuffle: bool | None = None,
                        claim: PrivacyClaim | None = None,
                        draw: Literal["rank", "subset"] = "rank") -> ActiveLearner[H]:
    """004 Algorithm 6 / 000 Algorithm 4 (SubSampling) around a PSSL on n entries, m labeled.

    On t unlabeled points: J ⊆ {0..t−1} uniform with |J| = n (rank uniform in
    [0, C(t, n)), unranked lexicographically); K = the m smallest indices of J,
    queried in increasing order; the base runs on the labeled entries of K then
    the unlabeled entries of J∖K (each in increasing index order, each block
    shuffled when ``shuffle``, default ``not base.mechanism.order_invariant``).
    Guarantee (PAL only): ``claim`` or :func:`subsampling_active_claim`, which
    raises unless ε <= ln 3.  Ledger: ``004 Claim 5.6`` / ``000 Claim 5.7``.
    ``draw="subset"`` draws the same uniform J by one :func:`~reference.program.subset`
    choice (Floyd's algorithm: O(n) integer draws, the same exact law, lexicographic
    enumeration) instead of a rank in [0, C(t, n)) (O(t) unranking), for pools of 10^6.
    """
    base = _check_base(base)
    if draw not in ("rank", "subset"):
        raise InvalidArgument(f"draw={draw!r} must be 'rank' or 'subset'")
    n = check_int(n, "n", minimum=1)
    m = check_int(m, "m", minimum=0, maximum=n)
    t = check_int(t, "t", minimum=n)
    if shuffle is not None and not isinstance(shuffle, bool):
        raise InvalidArgument(f"shuffle={shuffle!r} must be a bool or None")
    do_shuffle = (not base.mechanism.order_invariant) if shuffle is None else shuffle
    stated = claim if claim is not None else subsampling_active_claim(base.claim, n, t)
    inner = base.mechanism.program
    subsets = math.comb(t, n) if draw == "rank" else 0

    def program(points: Points) -> Program[H]:
        if draw == "subset":
            chosen = yield from subset(t, n)
        else:
            rank = yield from uniform(subsets)
            chosen = unrank_combination(rank, t, n)
        labels = []
        for i in chosen[:m]:
            labels.append((yield from query(i)))
        head: list[Hashable] = [labeled(points[i], y) for i, y in zip(chosen[:m], labels,
                                                                        strict=True)]
        tail: list[Hashable] = [unlabeled(points[i]) for i in chosen[m:]]
        if do_shuffle:
            head = yield from _shuffled(head)
            tail = yield from _shuffled(tail)
        return (yield from call(inner, tuple(head + tail)))

    return active_learner(f"SubSampling n={n} m={m} t={t} ({base.name})", program, n=t, m=m,
                          concepts=base.concepts, proper=base.proper, pal_claim=stated,
                          tpal_claim=None, source=cite("004 Claim 5.6"))


# ------------------------------------------------------------------ Theorem 5.7


def theorem57_pool(inner: PrivacyClaim, n: int, epsilon: Real | Fraction | int) -> int:
    """t = ⌈(n/ε)(3 + e^{2ε*})⌉: the smallest pool for which Claim 5.6's ε_t = n(3 + e^{2ε*})/t <= ε.

    004 Claim 5.6 / 000 Claim 5.7 with the ceiling (the papers leave t real): ε_t <= ε
    and ε_{t−1} > ε (decided with interval arithmetic, never a float).  ``inner`` is the
    PSSL's claim (ε*, δ), n its input size.
    """
    n = check_int(n, "n", minimum=1)
    eps = epsilon if isinstance(epsilon, Real) else rational(Fraction(epsilon))
    order, _ = compare(eps, 0)
    if order is not Order.GREATER:
        raise InvalidArgument(f"epsilon={eps} must be > 0")
    need = (exp(inner.epsilon * 2) + 3) * n / eps
    return max(n, -floor_real(-need))


def theorem57_learner(base: Learner[H], *, alpha: ExactInput, beta: ExactInput, n: int, m: int,
                      epsilon: Real | ExactInput, constants: LabelBoostConstants = PAPER_004,
                      unlabeled: int | None = None, em_epsilon: Real | ExactInput = 1
                      ) -> ActiveLearner[H]:
    """The final PAL of 004 Theorem 5.7 / 000 Theorem 5.8, assembled with every constant a parameter.

    SubSampling (004 Algorithm 6 / 000 Algorithm 4) around the ε* = 1 PSSL of 004
    Theorem C.11 / 000 Theorem 4.13, i.e. IterLabelBoost (004 Algorithm 4) on ``base``
    with m labeled and |D| unlabeled entries (n' = m + |D|), not around Theorem 4.2's
    learner (004-E14: that one keeps the 1/ε in m).  The pool is t =
    :func:`theorem57_pool` (ε*, n', ε), so Claim 5.6 gives ε_t <= ``epsilon``; the
    learner asks exactly m labels (K = the m smallest indices of J), whatever ε.
    Guarantee (PAL): :func:`subsampling_active_claim` of IterLabelBoost's claim (ε*, δ*)
    at (n', t): (ε_t, (7 + e^{ε*})(n'/t)δ*) (004 Claim 5.6, valid for ε_t <= ln 3, which
    is checked; with the paper constants ε* = 1 and δ* = 41δ, so δ′ ≈ 38.35εδ, 004-E13;
    0 for a pure base).  With scaled constants ε* is recomputed along 004 Lemma C.4's
    proof (:func:`~reference.learners.iterlabelboost.iteration_privacy_chain`).
    J and IterLabelBoost's deletions are drawn by uniform-subset choices (Floyd's algorithm;
    the same law as ranks).  Ledger: ``004 Theorem 5.7``.
    """
    from .iterlabelboost import iter_label_boost
    pssl = iter_label_boost(base, alpha=alpha, beta=beta, n=n, m=m, constants=constants,
                            unlabeled=unlabeled, em_epsilon=em_epsilon, subset_draw="subset")
    n_prime = m + (constants.unlabeled_factor * n if unlabeled is None else unlabeled)
    eps = parse_epsilon(epsilon, "epsilon")
    t = theorem57_pool(pssl.claim, n_prime, eps)
    claim = subsampling_active_claim(pssl.claim, n_prime, t)
    learner = subsampling_learner(pssl, n_prime, m, t, claim=claim, draw="subset")
    return active_learner(f"Theorem 5.7 PAL: SubSampling t={t} ({pssl.name})", learner.program,
                          n=t, m=m, concepts=pssl.concepts, proper=pssl.proper, pal_claim=claim,
                          tpal_claim=None, source=cite("004 Theorem 5.7"))
