"""LabelBoost (004 Algorithm 2) and LabelBoostProcedure (000 Algorithm 2).

Input: one partially labeled database B = S∘T∘D (entries ``(x, y)``, y ∈
{0, 1, ⊥}) whose split sizes |S| = s, |T| = t, |D| = d are public,
data-independent parameters fixed at construction, so substitution neighbors
keep S, T and D in place.

1. P ← the set of points appearing in S∘T (each must be a point of C's domain).
2. H ← one concept per pattern of Π_C(P): the first concept of C in its
   canonical order realising it (:func:`privref.reference.vc.canonical_representatives`),
   a fixed function of the pattern (inventory §3).
3. h ← the exponential mechanism with ε = 1 over H on the database S
   (q(S, h) counts agreements; ⊥-labeled entries of S agree with nothing).
4. Relabel S∘T by h: (S∘T)^h = ((x_i, h(x_i)))_i.
5. 000 Algorithm 2 (LabelBoostProcedure) *outputs* (S∘T)^h∘D (not private
   by itself: h reveals P); 004 Algorithm 2 (LabelBoost) *executes the base
   learner 𝒜* on it, which is 𝓑 = 𝒜∘LabelBoostProcedure of 000 Lemma 4.1.

The exponential mechanism is the papers' ε = 1: weights e^{q/2} are
irrational, so exact distributions are rigorous interval enclosures.  For
exact *rational* tests pass ``em_epsilon='2*ln(r)'`` with r rational (weights
r^q); the privacy claim is then recomputed by the same proof (below).

Privacy (000 Lemma 4.1; 004 Lemma 4.1's proof): if 𝒜 is (ε, δ)-DP then 𝓑 is
(ε + 3, 4e·δ)-DP.  The proof shows w_{1,z} <= 4e^{ε_em}·w_{2,z}; with ε_em = 1
and ln(4e) <= 3 this gives the printed claim; for another ε_em the same proof
gives (ε + ln 4 + ε_em, 4e^{ε_em}·δ) (:func:`labelboost_claim`).  The same
decomposition also yields the tighter (ε + ln 4 + ε_em, δ)
(:func:`labelboost_tight_claim`): the δ-terms sum to Σ_z w_{1,z}·δ = δ, so the
factor 4e on δ is not needed.  004 *prints* (ε + 3, 4ε·δ) (004-E5); the
ledger entry ``004 Lemma 4.1`` records what that statement is worth.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Final, TypeVar

from ..citations import Source, cite
from ..concepts import Concept, ConceptClass
from ..data import Dataset, label_of
from ..errors import InvalidArgument
from ..exponential import agreements, exponential_weights
from ..mechanism import Interpreted, Mechanism
from ..privacy import PrivacyClaim, parse_epsilon
from ..program import (
    Categorical,
    Program,
    call,
    categorical_choice,
    choose,
    deterministic,
)
from ..reals import DEFAULT_PRECISION, Real, exp, log, rational
from ..validate import ExactInput, check_int
from ..vc import canonical_representatives
from .base import Learner, as_learner

__all__ = [
    "LABELBOOST_EM_EPSILON",
    "LabelBoostProcedure",
    "boosted_learner",
    "label_boost",
    "label_boost_procedure",
    "labelboost_claim",
    "labelboost_hypotheses",
    "labelboost_tight_claim",
    "relabel",
    "relabel_step",
    "round_up_delta",
]

H = TypeVar("H", bound=Hashable)

LABELBOOST_EM_EPSILON: Final = rational(1)
"""ε of the exponential mechanism inside LabelBoost (004 Algorithm 2, Step 4; 000 Algorithm 2, Step 4)."""

_SOURCE_004: Final = cite("004 Lemma 4.1 (corrected)")
_SOURCE_000: Final = cite("000 Lemma 4.1")


# ----------------------------------------------------------------- the relabeling step


def _points(concepts: ConceptClass, entries: Dataset, name: str) -> tuple[Hashable, ...]:
    """Distinct points of ``entries`` in domain order; every entry must be (x, y), x in the domain."""
    positions: dict[int, Hashable] = {}
    for i, entry in enumerate(entries):
        label_of(entry)                           # raises UnknownLabel unless a pair (x, y)
        assert isinstance(entry, tuple)
        positions[concepts.domain.position(entry[0], f"{name}[{i}][0]")] = entry[0]
    return tuple(positions[p] for p in sorted(positions))


def labelboost_hypotheses(concepts: ConceptClass, s_part: Dataset, t_part: Dataset
                          ) -> tuple[Concept, ...]:
    """H of 004 Algorithm 2 / 000 Algorithm 2, Steps 2–3: one canonical concept per pattern of Π_C(P).

    P is the set of points of S∘T; the representative of a pattern is the
    first concept of C (canonical order) realising it, so H depends on the
    set P only and |H| = |Π_C(P)|.
    """
    if not isinstance(concepts, ConceptClass):
        raise InvalidArgument(f"concepts={concepts!r} must be a ConceptClass")
    points = _points(concepts, s_part + t_part, "S∘T")
    return canonical_representatives(concepts, points)


def relabel(entries: Dataset, h: Callable[[Hashable], int]) -> Dataset:
    """(S∘T)^h = ((x_i, h(x_i)))_i (004 Algorithm 2, Step 5)."""
    out: list[Hashable] = []
    for entry in entries:
        label_of(entry)
        assert isinstance(entry, tuple)
        out.append((entry[0], h(entry[0])))
    return tuple(out)


@lru_cache(maxsize=4096)
def _em_choice(shifted: tuple[int, ...], epsilon: Real) -> Categorical:
    """The EM's categorical choice for scores q - q_max (a pure function, memoized so that the
    enclosures of e^{ε(q - q_max)/2} are computed once across datasets)."""
    return categorical_choice(exponential_weights(shifted, epsilon=epsilon))


def _selection(concepts: ConceptClass, s_part: Dataset, t_part: Dataset, epsilon: Real
               ) -> tuple[Categorical, tuple[Concept, ...]]:
    hyps = labelboost_hypotheses(concepts, s_part, t_part)
    scores = [agreements(h, s_part) for h in hyps]
    top = max(scores)
    return _em_choice(tuple(q - top for q in scores), epsilon), hyps


def relabel_step(concepts: ConceptClass, s_part: Dataset, t_part: Dataset, epsilon: Real
                 ) -> Program[Dataset]:
    """Steps 1–5 of 004/000 Algorithm 2 as a program: returns (S∘T)^h, h by the EM on S.

    Also Steps 2d–2h of 004 Algorithm 4 (000 Algorithm 3, Step 2d).  H and
    the weights are computed once per exact interpretation.
    """
    choice, hyps = yield from deterministic(_selection, concepts, s_part, t_part, epsilon)
    index = yield from choose(choice)
    return relabel(s_part + t_part, hyps[index])


def _split(s: int, t: int, d: int, data: Dataset) -> tuple[Dataset, Dataset, Dataset]:
    if not isinstance(data, tuple) or len(data) != s + t + d:
        size = len(data) if isinstance(data, tuple) else "?"
        raise InvalidArgument(f"data has {size} entries; it must hold exactly "
                              f"|S|+|T|+|D| = {s}+{t}+{d} = {s + t + d}")
    return data[:s], data[s:s + t], data[s + t:]


def _sizes(s: int, t: int, d: int) -> tuple[int, int, int]:
    return (check_int(s, "s", minimum=0), check_int(t, "t", minimum=0),
            check_int(d, "d", minimum=0))


# ----------------------------------------------------------------- claims


def round_up_delta(value: Real, name: str = "delta") -> Fraction:
    """An exact rational >= ``value`` (the value itself when rational); raises if it is >= 1."""
    exact = value.exact
    bound = exact if exact is not None else value.enclose(DEFAULT_PRECISION).hi
    if bound >= 1:
        raise InvalidArgument(f"{name}={float(bound):.6g} must be < 1 for a meaningful claim")
    return bound


def labelboost_claim(inner: PrivacyClaim, em_epsilon: Real | ExactInput = 1) -> PrivacyClaim:
    """000 Lemma 4.1 (= 004 Lemma 4.1's proof): (ε + 3, 4e·δ) from an (ε, δ)-DP base, at ε_em = 1.

    For another exponential-mechanism ε_em the same proof (w_{1,z} <= 4e^{ε_em}
    w_{2,z}) gives (ε + ln 4 + ε_em, 4e^{ε_em}·δ).  An irrational δ-factor is
    rounded up to a rational, so the returned claim is implied by the exact one.
    """
    em = parse_epsilon(em_epsilon, "em_epsilon")
    if em.exact == 1:
        return PrivacyClaim(inner.epsilon + 3, round_up_delta(exp(1) * 4 * inner.delta))
    factor = exp(em) * 4
    return PrivacyClaim(inner.epsilon + log(factor), round_up_delta(factor * inner.delta))


def labelboost_tight_claim(inner: PrivacyClaim, em_epsilon: Real | ExactInput = 1) -> PrivacyClaim:
    """(ε + ln 4 + ε_em, δ): the decomposition of 000 Lemma 4.1's proof without the 4e on δ.

    Proof sketch: for each z ∈ Π_C(K) the conditional laws of 𝒜's output are
    (ε, δ)-close (every pair of relabeled databases is neighboring or equal),
    so Pr[𝓑(B_1) ∈ F] <= Σ_z w_{1,z}(e^ε·A_{2,z}(F) + δ) <= 4e^{ε_em}·e^ε·Pr[𝓑(B_2) ∈ F] + δ.
    Checked by exact audits in the ledger (``000 Lemma 4.1``).
    """
    em = parse_epsilon(em_epsilon, "em_epsilon")
    return PrivacyClaim(inner.epsilon + log(exp(em) * 4), inner.delta)


# ----------------------------------------------------------------- 000 Algorithm 2


@dataclass(frozen=True, slots=True)
class LabelBoostProcedure(Interpreted[Dataset]):
    """000 Algorithm 2: on S∘T∘D output (S∘T)^h∘D, h by the exponential mechanism (ε_em) on S.

    Not differentially private by itself (its output reveals P): it has no
    privacy claim.  Compose it with a private learner by :func:`boosted_learner`
    (000 Lemma 4.1).  ``distribution(data)`` and ``sample(data, rng=)`` both
    interpret the one ``program`` (:class:`~privref.reference.mechanism.Interpreted`).
    """

    concepts: ConceptClass
    s: int
    t: int
    d: int
    em_epsilon: Real = LABELBOOST_EM_EPSILON
    name: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.concepts, ConceptClass):
            raise InvalidArgument(f"concepts={self.concepts!r} must be a ConceptClass")
        _sizes(self.s, self.t, self.d)
        if not isinstance(self.em_epsilon, Real):
            raise InvalidArgument(f"em_epsilon={self.em_epsilon!r} must be a reference.reals.Real")
        object.__setattr__(self, "name", f"LabelBoostProcedure(s={self.s}, t={self.t}, d={self.d})")

    def program(self, data: Dataset) -> Program[Dataset]:
        """The probabilistic program of 000 Algorithm 2 (one database in, one relabeled database out)."""
        s_part, t_part, d_part = yield from deterministic(_split, self.s, self.t, self.d, data)
        relabeled = yield from call(relabel_step, self.concepts, s_part, t_part, self.em_epsilon)
        return relabeled + d_part


def label_boost_procedure(concepts: ConceptClass, *, s: int, t: int, d: int,
                          em_epsilon: Real | ExactInput = 1) -> LabelBoostProcedure:
    """000 Algorithm 2 with public split sizes (s, t, d); ``em_epsilon`` as in the module docstring."""
    return LabelBoostProcedure(concepts, *_sizes(s, t, d), parse_epsilon(em_epsilon, "em_epsilon"))


def _check_base(base: object) -> Learner[Any]:
    if not isinstance(base, Learner):
        raise InvalidArgument(f"base={base!r} must be a reference.learners.Learner")
    return base


def boosted_learner(base: Learner[H], procedure: LabelBoostProcedure, *,
                    name: str | None = None) -> Learner[H]:
    """𝓑 = 𝒜∘LabelBoostProcedure of 000 Lemma 4.1: run ``base`` on the procedure's output.

    Guarantee: (ε + 3, 4e·δ)-DP from an (ε, δ)-DP base at ε_em = 1 (000
    Lemma 4.1; see :func:`labelboost_claim` for other ε_em); proper iff the
    base is (the output is the base's output).  Ledger: ``000 Lemma 4.1``.
    """
    base = _check_base(base)
    if not isinstance(procedure, LabelBoostProcedure):
        raise InvalidArgument(f"procedure={procedure!r} must be a LabelBoostProcedure")
    return _boosted(base, procedure, name or f"{base.name} ∘ {procedure.name}", _SOURCE_000,
                    f"000 Lemma 4.1: 𝒜∘LabelBoostProcedure, em eps={procedure.em_epsilon}")


def _boosted(base: Learner[H], procedure: LabelBoostProcedure, label: str, source: Source,
             description: str) -> Learner[H]:
    """The one program of 𝒜∘LabelBoostProcedure (000 Lemma 4.1) = LabelBoost (004 Algorithm 2).

    The procedure's choices are issued inline (``yield from``), then 𝒜 runs
    as a sub-program on the relabeled database S^h∘T^h∘D.
    """
    inner = base.mechanism.program
    run_procedure = procedure.program

    def program(data: Dataset) -> Program[H]:
        relabeled = yield from run_procedure(data)
        return (yield from call(inner, relabeled))

    mech = Mechanism(label, program, labelboost_claim(base.claim, procedure.em_epsilon), source,
                     description=description)
    return as_learner(mech, base.concepts, proper=base.proper)


# ----------------------------------------------------------------- 004 Algorithm 2


def label_boost(base: Learner[H], *, s: int, t: int, d: int, concepts: ConceptClass | None = None,
                em_epsilon: Real | ExactInput = 1, name: str | None = None) -> Learner[H]:
    """004 Algorithm 2 (LabelBoost): relabel S∘T by the EM's h over Π_C(P), then execute ``base``.

    Preconditions (checked at run time): the input has exactly s + t + d
    entries (x, y), the points of S∘T lie in C's domain (C = ``concepts``,
    default the base's class).  Guarantee: (ε + 3, 4e·δ)-DP from an
    (ε, δ)-DP base (000 Lemma 4.1, 004 Lemma 4.1's proof; the printed 004
    statement says 4εδ, see the ledger), proper iff the base is.  It is
    :func:`boosted_learner`'s 𝒜∘LabelBoostProcedure (same program, same
    law), cited as 004's.  Ledger: ``004 Lemma 4.1``, ``004 Remark 4.3``.
    """
    base = _check_base(base)
    C = base.concepts if concepts is None else concepts
    procedure = label_boost_procedure(C, s=s, t=t, d=d, em_epsilon=em_epsilon)
    return _boosted(base, procedure,
                    name or f"LabelBoost(s={procedure.s}, t={procedure.t}, d={procedure.d}) -> "
                            f"{base.name}", _SOURCE_004,
                    f"004 Algorithm 2 over {C.name}, em eps={procedure.em_epsilon}")
