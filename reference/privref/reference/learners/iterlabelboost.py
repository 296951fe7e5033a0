"""IterLabelBoost (004 Algorithm 4) = LabelBoost (000 Algorithm 3), with every constant a parameter.

Input: one database B = S∘D of m + |D| entries ``(x, y)``: the first m are the
labeled sample S, the rest the unlabeled database D (labels there, ⊥ or not,
are ignored: D's entries are relabeled before use).  All sizes come from the
data-independent :func:`privref.reference.learners.schedule.size_schedule`; the
rounding rule is stated there (kept counts floored, v floored at 0).

For each iteration i = 1..N of the schedule:

* 2b: T ← the first v_i entries of D (removed from D);
* 2c: keep a uniformly random ⌊keep·|S|⌋-subset of S and ⌊keep·|T|⌋-subset
  of T (original order kept; the next steps ignore order);
* 2d–2h (000: LabelBoostProcedure): H ← one canonical concept per pattern of
  Π_C(P), P = points of S∘T; h ← exponential mechanism (ε = 1) over H on S;
  relabel S and T by h;
* 2i: S ← S∘T.

Then 3: keep a uniformly random ⌊keep_final·|S|⌋-subset of S; 4: S′ ← i.i.d.
uniform draws from S (|S| draws as printed, or n draws with
``draws="n"``: the algorithm's comment says "n i.i.d. samples",
004-E11); 5: run the base learner 𝒜 on S′.

Privacy.  With the printed constants and a (1, δ)-DP base (any ε <= 1),
000 Lemma 4.6 / 004 Lemma C.4 claim (1, 41δ).  With other constants the
learner's claim is recomputed by :func:`iteration_privacy_chain` along the
proof's induction over 𝓛_t (the last t iterations, then Steps 3–5;
004 Lemma C.4's proof): 𝓛_0 = subsample ∘ resample ∘ 𝒜 (004 Claims C.3, C.1),
𝓛′_t = LabelBoost(𝓛_{t−1}) (Lemma 4.1), 𝓛_t = subsample(𝓛′_t).  The devices
themselves are built by :func:`privacy_devices` for exact audits.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, Literal, TypeVar

from ..citations import Citation, cite
from ..concepts import ConceptClass
from ..data import Dataset
from ..errors import InvalidArgument
from ..mechanism import Mechanism
from ..privacy import PrivacyClaim, parse_epsilon
from ..program import Program, call, deterministic, subset, uniform
from ..reals import Order, Real, compare, exp, log, rational
from ..resampling import resampling_claim
from ..subsampling import unrank_combination
from ..validate import ExactInput
from ..vc import vc_dimension
from .base import Learner, as_learner
from .labelboost import label_boost, labelboost_claim, relabel_step
from .schedule import (
    PAPER_004,
    DrawsMode,
    LabelBoostConstants,
    Outcome,
    Schedule,
    size_schedule,
)

__all__ = [
    "LEMMA_DELTA_FACTOR",
    "Amplification",
    "PrivacyDevices",
    "amplified_claim",
    "boost_iterations",
    "iter_label_boost",
    "iteration_privacy_chain",
    "keep_subset",
    "privacy_devices",
    "resample_draws",
]

H = TypeVar("H", bound=Hashable)
Amplification = Literal["paper", "tight"]
SubsetDraw = Literal["rank", "subset"]

LEMMA_DELTA_FACTOR: Final = 41
"""δ multiplier of 000 Lemma 4.6 / 004 Lemma C.4: (1, 41δ)."""


# ----------------------------------------------------------------- random steps


def keep_subset(entries: Dataset, k: int, draw: SubsetDraw = "rank") -> Program[Dataset]:
    """A uniformly random k-subset of ``entries`` in original order (Steps 2c and 3: delete the rest).

    ``draw="rank"``: one uniform rank in [0, C(|entries|, k)), unranked lexicographically
    (O(|entries|) binomials); ``draw="subset"``: one :func:`~reference.program.subset` choice
    (Floyd's algorithm when sampled).  Both have the same exact law (each k-subset w.p.
    1/C(|entries|, k), enumerated in the same order); only the seeded draws differ.
    """
    if not 0 <= k <= len(entries):
        raise InvalidArgument(f"k={k} must lie in [0, {len(entries)}]")
    if draw == "subset":
        if not entries:
            return ()
        chosen = yield from subset(len(entries), k)
        return tuple(entries[i] for i in chosen)
    if draw != "rank":
        raise InvalidArgument(f"draw={draw!r} must be 'rank' or 'subset'")
    rank = yield from uniform(math.comb(len(entries), k))
    return tuple(entries[i] for i in unrank_combination(rank, len(entries), k))


def resample_draws(entries: Dataset, draws: int) -> Program[Dataset]:
    """Step 4: ``draws`` i.i.d. uniform draws from ``entries`` (004 Algorithm 5 when draws = |entries|)."""
    if not entries:
        raise InvalidArgument("entries=() must be non-empty to resample from")
    picked: list[Hashable] = []
    for _ in range(draws):
        j = yield from uniform(len(entries))
        picked.append(entries[j])
    return tuple(picked)


def _iteration(concepts: ConceptClass, s_part: Dataset, t_part: Dataset, kept_s: int,
               kept_t: int, epsilon: Real, draw: SubsetDraw = "rank") -> Program[Dataset]:
    """Steps 2c–2i of one iteration: subsample S and T, relabel both by the EM's h, merge."""
    s_c = yield from call(keep_subset, s_part, kept_s, draw)
    t_c = yield from call(keep_subset, t_part, kept_t, draw)
    return (yield from call(relabel_step, concepts, s_c, t_c, epsilon))


def boost_iterations(concepts: ConceptClass, schedule: Schedule, data: Dataset, epsilon: Real,
                     draw: SubsetDraw = "rank") -> Program[tuple[Dataset, ...]]:
    """Step 2 of 004 Algorithm 4 / 000 Algorithm 3 on B = S∘D: returns (S_0, S_1, …, S_N).

    S_0 = the first ``schedule.m`` entries of ``data``; for i = 1..N (the
    iterations of ``schedule``) 2b: T ← the next v_i entries of D; 2c–2i: keep
    a uniformly random |S_i^c|-subset of S and |T_i^c|-subset of T, relabel
    both by the h the exponential mechanism (``epsilon``) picks on S, S_i ←
    S∘T.  After iteration i every entry of S_i is labeled by h_i.  The one
    definition of the loop: :func:`iter_label_boost` runs it inline (``yield
    from``), the ledger's Monte Carlo (``004 Claim C.9``) samples it alone.
    ``draw`` is :func:`keep_subset`'s (same law either way).
    """
    s_part, d_part = data[:schedule.m], data[schedule.m:]
    history = [s_part]
    for it in schedule.iterations:
        t_part, d_part = d_part[:it.t_before], d_part[it.t_before:]          # Step 2b
        s_part = yield from call(_iteration, concepts, s_part, t_part, it.s_kept, it.t_kept,
                                 epsilon, draw)                              # Steps 2c–2i
        history.append(s_part)
    return tuple(history)


# ----------------------------------------------------------------- privacy chain


def amplified_claim(inner: PrivacyClaim, q: Fraction, how: Amplification) -> PrivacyClaim:
    """Subsampling a q-fraction of the entries (q <= 1) of an (ε*, δ)-DP mechanism.

    ``"paper"``: 004 Claim C.1 / 000 Claim 4.3 with ε = q(3 + e^{ε*}), δ' = 4qδ
    (= 4εδ/(3 + e^{ε*})), valid under the claim's hypothesis ε <= 1 (raises
    otherwise).  ``"tight"``: (ln(1 + q(e^{ε*} − 1)), qδ), the tight bound for
    subsampling without replacement under substitution (Balle, Barthe,
    Gaboardi 2018, Theorem 9), which implies the paper's form for every q.
    """
    if not 0 <= q <= 1:
        raise InvalidArgument(f"q={q} must lie in [0, 1]")
    if q == 0:
        return PrivacyClaim(rational(0), Fraction(0))
    if how == "paper":
        eps = (exp(inner.epsilon) + 3) * q
        order, _ = compare(eps, 1)
        if order in (Order.GREATER, Order.UNDECIDED):
            raise InvalidArgument(f"q={q} gives epsilon = q(3 + e^eps*) > 1, outside 004 Claim C.1")
        return PrivacyClaim(eps, 4 * q * inner.delta)
    if how == "tight":
        return PrivacyClaim(log((exp(inner.epsilon) - 1) * q + 1), q * inner.delta)
    raise InvalidArgument(f"how={how!r} must be 'paper' or 'tight'")


def _ratio(kept: int, size: int) -> Fraction:
    return Fraction(kept, size) if size else Fraction(0)


def iteration_privacy_chain(schedule: Schedule, base: PrivacyClaim, *,
                            how: Amplification = "tight", em_epsilon: Real | ExactInput = 1
                            ) -> tuple[PrivacyClaim, ...]:
    """Claims of 𝓛_0, 𝓛_1, …, 𝓛_N along the induction of 000 Lemma 4.6 / 004 Lemma C.4.

    𝓛_0 (Steps 3–5): 004 Claim C.3 (ln 244, 2467δ) for the resampling (base
    ε <= 1 required), then subsampling with q = |S^3|/|S| (:func:`amplified_claim`).
    𝓛_t: Lemma 4.1 (ε + 3, 4eδ) for 𝓛′_t = LabelBoost(𝓛_{t−1}), then
    subsampling with q = max(|S_i^c|/|S_i^b|, |T_i^c|/|T_i^b|), i = N − t + 1
    (the differing entry lies in S or in T).  With the paper constants and
    ``how="paper"`` every claim is within (1, 41δ) (checked in the ledger).
    """
    if schedule.outcome is not Outcome.OK:
        raise InvalidArgument(f"schedule outcome={schedule.outcome.value} must be 'ok'")
    claims = [amplified_claim(resampling_claim(base), _ratio(schedule.s_final, schedule.s_loop),
                              how)]
    for it in reversed(schedule.iterations):
        boosted = labelboost_claim(claims[-1], em_epsilon)
        q = max(_ratio(it.s_kept, it.s_before), _ratio(it.t_kept, it.t_before))
        claims.append(amplified_claim(boosted, q, how))
    return tuple(claims)


def _learner_claim(schedule: Schedule, base: PrivacyClaim, em: Real
                   ) -> tuple[PrivacyClaim, Citation]:
    c = schedule.constants
    paper = c.version == "000"
    source = cite("000 Lemma 4.6") if paper else cite("004 Lemma C.4")
    order, _ = compare(base.epsilon, 1)
    if c.is_paper and em.exact == 1 and order in (Order.LESS, Order.EQUAL):
        delta = base.delta * LEMMA_DELTA_FACTOR
        if delta >= 1:
            raise InvalidArgument(f"41·delta={delta} must be < 1 for a meaningful claim")
        return PrivacyClaim(rational(1), delta), source
    chain = iteration_privacy_chain(schedule, base, how="tight", em_epsilon=em)
    # the claim is the chain recomputed by the lemma's proof at these constants
    return chain[-1], cite("000 Lemma 4.6 (proof)") if paper else cite("004 Lemma C.4 (proof)")


# ----------------------------------------------------------------- the learner


def _validated_schedule(base: Learner[Any], constants: LabelBoostConstants, alpha: ExactInput,
                        beta: ExactInput, n: int, m: int, vc: int | None,
                        concepts: ConceptClass | None, unlabeled: int | None
                        ) -> tuple[ConceptClass, Schedule]:
    if not isinstance(base, Learner):
        raise InvalidArgument(f"base={base!r} must be a reference.learners.Learner")
    C = base.concepts if concepts is None else concepts
    if not isinstance(C, ConceptClass):
        raise InvalidArgument(f"concepts={C!r} must be a ConceptClass")
    dim = vc_dimension(C) if vc is None else vc
    sched = size_schedule(constants, alpha, beta, n, m, dim, unlabeled=unlabeled)
    if sched.outcome is not Outcome.OK:
        raise InvalidArgument(f"the size schedule for m={m}, n={n} {sched.outcome.value} "
                              f"(Step 2b fails when D runs out; stalls when |S| never reaches "
                              f"{constants.stop_factor}·n): choose a larger m or |D|")
    if sched.s_final < 1:
        raise InvalidArgument(f"Step 3 keeps s_final={sched.s_final} entries; it must keep >= 1 "
                              "(raise keep_final or stop_factor)")
    return C, sched


def _check_size(expected: int, data: Dataset) -> Dataset:
    if not isinstance(data, tuple) or len(data) != expected:
        size = len(data) if isinstance(data, tuple) else "?"
        raise InvalidArgument(f"data has {size} entries; it must hold exactly m + |D| = {expected}")
    return data


def iter_label_boost(base: Learner[H], *, alpha: ExactInput, beta: ExactInput, n: int, m: int,
                     constants: LabelBoostConstants = PAPER_004, vc: int | None = None,
                     concepts: ConceptClass | None = None, unlabeled: int | None = None,
                     draws: DrawsMode = "printed", em_epsilon: Real | ExactInput = 1,
                     name: str | None = None, subset_draw: SubsetDraw = "rank") -> Learner[H]:
    """004 Algorithm 4 (IterLabelBoost); with ``constants=PAPER_000``, 000 Algorithm 3 (LabelBoost).

    Preconditions (checked): the schedule for (constants, α, β, n, m, VC(C))
    is OK (see :func:`~reference.learners.schedule.size_schedule`); the input
    has exactly m + |D| entries (|D| = ``unlabeled``, default
    unlabeled_factor·n; only the first Σ v_i entries of D are read).
    Guarantee: with the paper constants, ε_em = 1 and a base with ε <= 1:
    (1, 41δ)-DP (000 Lemma 4.6, 004 Lemma C.4); otherwise the claim of
    :func:`iteration_privacy_chain` (tight subsampling).  Proper iff the base
    is (000 Remark 4.15, 004 Remark 4.3).  ``subset_draw="subset"`` draws the deletions of
    Steps 2c and 3 by Floyd's algorithm (same law as the default rank draw, O(k) work;
    for |T| in the 10^4s).
    """
    if subset_draw not in ("rank", "subset"):
        raise InvalidArgument(f"subset_draw={subset_draw!r} must be 'rank' or 'subset'")
    C, sched = _validated_schedule(base, constants, alpha, beta, n, m, vc, concepts, unlabeled)
    em = parse_epsilon(em_epsilon, "em_epsilon")
    n_draws = sched.draws(draws)
    inner = base.mechanism.program
    size = sched.input_size

    def program(data: Dataset) -> Program[H]:
        data = yield from deterministic(_check_size, size, data)
        loop = yield from boost_iterations(C, sched, data, em, subset_draw)  # Step 2
        s3 = yield from call(keep_subset, loop[-1], sched.s_final, subset_draw)  # Step 3
        s4 = yield from call(resample_draws, s3, n_draws)                   # Step 4
        return (yield from call(inner, s4))                                 # Step 5

    claim, source = _learner_claim(sched, base.claim, em)
    algorithm = "000 Algorithm 3" if constants.version == "000" else "004 Algorithm 4"
    label = name or (f"{'LabelBoost' if constants.version == '000' else 'IterLabelBoost'}"
                     f"(n={n}, m={m}, N={sched.n_iterations}) -> {base.name}")
    mech = Mechanism(label, program, claim, source,
                     description=f"{algorithm} over {C.name}; draws={draws}, em eps={em}")
    return as_learner(mech, base.concepts, proper=base.proper)


# ----------------------------------------------------------------- proof devices


@dataclass(frozen=True, slots=True)
class PrivacyDevices:
    """The learners 𝓛_0..𝓛_N and 𝓛′_1..𝓛′_N of the privacy induction (004 Lemma C.4's proof).

    ``tails[t]`` is 𝓛_t: the last t iterations, then Steps 3–5, on a database
    of size n(N − t + 1) (``schedule.database_sizes()``).  ``boosted[t − 1]``
    is 𝓛′_t = LabelBoost(𝓛_{t−1}) (𝓛_t without its Step 2c), on S^c∘T^c∘D^b.
    Each carries the claim of :func:`iteration_privacy_chain` (or Lemma 4.1).
    """

    schedule: Schedule
    tails: tuple[Learner[Any], ...]
    boosted: tuple[Learner[Any], ...]


def privacy_devices(base: Learner[H], *, alpha: ExactInput, beta: ExactInput, n: int, m: int,
                    constants: LabelBoostConstants = PAPER_004, vc: int | None = None,
                    concepts: ConceptClass | None = None, unlabeled: int | None = None,
                    draws: DrawsMode = "printed", em_epsilon: Real | ExactInput = 1,
                    how: Amplification = "tight") -> PrivacyDevices:
    """Build 𝓛_t and 𝓛′_t compositionally from the building blocks (004 Lemma C.4's proof).

    𝓛_0 = keep ⌊keep_final·|S|⌋ of S, resample, run 𝒜 (D ignored);
    𝓛′_t = :func:`~reference.learners.labelboost.label_boost` with base 𝓛_{t−1};
    𝓛_t = subsample S and T of iteration N − t + 1, then 𝓛′_t.  Guarantee:
    𝓛_N has the same output law as :func:`iter_label_boost` (checked by the
    tests); claims follow :func:`iteration_privacy_chain` with ``how``.
    """
    C, sched = _validated_schedule(base, constants, alpha, beta, n, m, vc, concepts, unlabeled)
    em = parse_epsilon(em_epsilon, "em_epsilon")
    chain = iteration_privacy_chain(sched, base.claim, how=how, em_epsilon=em)
    sizes = sched.database_sizes()
    inner = base.mechanism.program
    s_loop, s_final, n_draws = sched.s_loop, sched.s_final, sched.draws(draws)

    def tail0(data: Dataset) -> Program[H]:
        data = yield from deterministic(_check_size, sizes[-1], data)
        s3 = yield from call(keep_subset, data[:s_loop], s_final)
        s4 = yield from call(resample_draws, s3, n_draws)
        return (yield from call(inner, s4))

    source = cite("004 Lemma C.4 (proof)")  # a proof device of the induction
    current: Learner[Any] = as_learner(
        Mechanism(f"L_0 (keep {s_final} of {s_loop}, resample, {base.name})", tail0, chain[0],
                  source), base.concepts, proper=base.proper)
    tails: list[Learner[Any]] = [current]
    boosted: list[Learner[Any]] = []
    for t, it in enumerate(reversed(sched.iterations), start=1):
        prime = label_boost(current, s=it.s_kept, t=it.t_kept, d=it.d_after, concepts=C,
                            em_epsilon=em, name=f"L'_{t}")
        boosted.append(prime)
        current = as_learner(Mechanism(f"L_{t}", _subsampled(prime, it.s_before, it.t_before,
                                                             it.s_kept, it.t_kept,
                                                             sizes[len(sizes) - 1 - t]),
                                       chain[t], source), base.concepts, proper=base.proper)
        tails.append(current)
    return PrivacyDevices(sched, tuple(tails), tuple(boosted))


def _subsampled(prime: Learner[Any], s: int, v: int, kept_s: int, kept_t: int, size: int
                ) -> Any:
    """𝓛_t from 𝓛′_t: on S^b∘T^b∘D^b keep the Step 2c subsets, then run 𝓛′_t on S^c∘T^c∘D^b."""
    inner = prime.mechanism.program

    def program(data: Dataset) -> Program[Any]:
        data = yield from deterministic(_check_size, size, data)
        s_c = yield from call(keep_subset, data[:s], kept_s)
        t_c = yield from call(keep_subset, data[s:s + v], kept_t)
        return (yield from call(inner, s_c + t_c + data[s + v:]))
    return program
