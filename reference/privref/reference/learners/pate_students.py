"""PATE's students over a finite class (paper 001): ERM on pseudo-labels, and Algorithm 4.

* :func:`erm_student`: the student of 001 Algorithm 3 step 4 / Remark 16, the ERM over H on the
  public points labeled by the aggregator, ĥ^S = argmin_{h ∈ H} Dis^(h, ĥ^priv).  Ties go to the
  first minimizer in the class's canonical order.  Entries labeled ⊥ (the SVT aggregator's "no
  answer") are either dropped or replaced by a fixed label (``fill``): 001 says "assign ⊥
  labels arbitrarily", and a fixed choice keeps the student a function of the released labels.
* :func:`disagreement_region`: DIS(V) = {x : ∃ h, g ∈ V, h(x) ≠ g(x)} (001 Definition 7), exactly.
* :func:`disagreement_active_learner`: 001 Algorithm 4 (disagreement-based active learning,
  after Hanneke 2014) with the version space V kept explicitly.  The paper's confidence radius
  U(j, γ_j) needs the unknown Err(h*) and disagreement coefficient θ (and a constant c'), so it
  is a parameter here: a callable ``U(j, gamma_j)`` returning an exact non-negative number.
  γ_j = γ/(log₂(2j))² is exact, because the update runs only when j is a power of two.
  The loop is written once, as a probabilistic program (:func:`disagreement_active_program`)
  whose labeling service maps a stream position to a program releasing one label (for PATE-ASQ,
  001 Algorithm 5, one query of Algorithm 1's noisy aggregator); :func:`disagreement_active_learner`
  runs it with a deterministic service ``label(x) -> 0 | 1``.  Given the answers, the learner is
  a pure function of its inputs.

Algorithm 4, as run here (j = 1, …, m over the stream; V ← H, Q ← ∅, output ← H[0], c ← 0):
if x_j ∈ DIS(V), request y_j, add (x_j, y_j) to Q and c ← c + 1; if j is a power of two,
V ← {h ∈ V : mistakes_Q(h) − min_{g ∈ V} mistakes_Q(g) ≤ U(j, γ_j)·j} (the paper's
(Err_Q(h) − min_g Err_Q(g))·|Q|, with mistakes_Q = |Q|·Err_Q) and output ← the first h of V
in H's order; if c ≥ ℓ, stop.  Since U ≥ 0, V never empties.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from privref.reference.citations import cite
from privref.reference.concepts import Concept, ConceptClass
from privref.reference.data import BOTTOM, Bottom
from privref.reference.errors import InvalidArgument
from privref.reference.learners.prediction_baselines import erm
from privref.reference.program import Program
from privref.reference.validate import ExactInput, check_int, check_probability, to_fraction

__all__ = [
    "ActiveRun",
    "Query",
    "disagreement_active_learner",
    "disagreement_active_program",
    "disagreement_region",
    "erm_student",
    "gamma_j",
    "is_power_of_two",
]

ERM_SOURCE: Final = cite("001 Remark 16")
"""The student of 001 Algorithm 3 as analysed (Remark 16)."""

ACTIVE_SOURCE: Final = cite("001 Lemma 33")
"""001 Algorithm 4 (disagreement-based active learning, Hanneke 2014), whose guarantee is 001
Lemma 33."""


def erm_student(C: ConceptClass, points: Sequence[Hashable], pseudo_labels: Sequence[int | Bottom],
                *, fill: int | None = None) -> Concept:
    """ĥ^S = argmin_{h ∈ C} Dis^(h, ĥ^priv) over the pseudo-labeled public points (001 Remark 16).

    Guarantee: the first concept of C (canonical order) with the fewest disagreements with the
    pseudo-labels; an entry labeled ⊥ is dropped when ``fill`` is None and labeled ``fill``
    otherwise; C[0] when nothing is left.  Requires one label (0, 1 or ⊥) per point, points of
    C's domain, and fill in {None, 0, 1} (InvalidArgument naming the argument).
    """
    if fill is not None and (isinstance(fill, bool) or fill not in (0, 1)):
        raise InvalidArgument(f"fill={fill!r} must be None, 0 or 1")
    pts, labels = tuple(points), tuple(pseudo_labels)
    if len(pts) != len(labels):
        raise InvalidArgument(f"pseudo_labels has {len(labels)} entries, points has {len(pts)}")
    data: list[tuple[Hashable, int]] = []
    for i, (x, y) in enumerate(zip(pts, labels, strict=True)):
        if y is BOTTOM:
            if fill is not None:
                data.append((x, fill))
            continue
        if isinstance(y, bool) or y not in (0, 1):
            raise InvalidArgument(f"pseudo_labels[{i}]={y!r} must be 0, 1 or ⊥")
        data.append((x, int(y)))
    return erm(C, tuple(data))


def disagreement_region(V: Sequence[Concept], points: Sequence[Hashable]) -> tuple[Hashable, ...]:
    """The points of ``points`` in DIS(V) = {x : ∃ h, g ∈ V with h(x) ≠ g(x)} (001 Definition 7).

    Guarantee: exact; order as in ``points``; empty when |V| <= 1; monotone (V ⊆ V' gives
    DIS(V) ⊆ DIS(V')).
    """
    hs = tuple(V)
    if not hs:
        return ()
    return tuple(x for x in points if any(h(x) != hs[0](x) for h in hs[1:]))


def is_power_of_two(j: int) -> bool:
    """True iff log₂(j) is a natural number (j = 1, 2, 4, …): 001 Algorithm 4 step 11."""
    return j >= 1 and j & (j - 1) == 0


def gamma_j(gamma: Fraction, j: int) -> Fraction:
    """γ_j = γ/(log₂(2j))² of 001 Algorithm 4, exact at powers of two j (log₂(2j) = 1 + log₂ j)."""
    check_int(j, "j", minimum=1)
    if not is_power_of_two(j):
        raise InvalidArgument(f"j={j} must be a power of two")
    return Fraction(gamma) / j.bit_length() ** 2


@dataclass(frozen=True)
class Query:
    """One label request of Algorithm 4: stream position j (1-based), the point and its answer."""

    j: int
    x: Hashable
    y: int


@dataclass(frozen=True)
class ActiveRun:
    """The outcome of :func:`disagreement_active_program` / :func:`disagreement_active_learner`.

    ``output`` is Algorithm 4's "current output"; ``version_space`` the final V (in H's order);
    ``queries`` every label request in order (so ``len(queries)`` labels were spent);
    ``processed`` how many stream points were read before stopping.
    """

    output: Concept
    version_space: tuple[Concept, ...]
    queries: tuple[Query, ...]
    processed: int

    @property
    def labels_used(self) -> int:
        """Number of label requests made (at most the budget)."""
        return len(self.queries)


def disagreement_active_program(C: ConceptClass, stream: Sequence[Hashable],
                                label: Callable[[int], Program[int]], *, budget: int,
                                U: Callable[[int, Fraction], object],
                                gamma: ExactInput = Fraction(1, 10)) -> Program[ActiveRun]:
    """001 Algorithm 4 as a probabilistic program: the label of stream position i (0-based) is
    ``yield from label(i)``, so a noisy labeling service (001 Algorithm 5) contributes its
    random choices and both interpreters of :mod:`privref.reference.program` apply.

    Guarantee: the steps of the module docstring exactly (integers and exact rationals only); a
    label is requested only at points of DIS(V) for the current V, at most ``budget`` times, in
    stream order; V always holds a minimizer of the mistakes on Q; given the answers, the run is
    a function of (C, stream, budget, U, gamma).  Requires budget >= 1, 0 < gamma < 1, stream
    points of C's domain (checked at call time), answers in {0, 1} and U values exact and
    >= 0 (checked when met); InvalidArgument names the argument.
    """
    if not isinstance(C, ConceptClass):
        raise InvalidArgument(f"C={C!r} must be a ConceptClass")
    ell = check_int(budget, "budget", minimum=1)
    g = check_probability(to_fraction(gamma, "gamma"), "gamma", open_low=True, open_high=True)
    xs = tuple(stream)
    for i, x in enumerate(xs):
        C.domain.position(x, f"stream[{i}]")
    return _algorithm4(C, xs, label, ell, U, g)


def _algorithm4(C: ConceptClass, xs: tuple[Hashable, ...], label: Callable[[int], Program[int]],
                ell: int, U: Callable[[int, Fraction], object], g: Fraction) -> Program[ActiveRun]:
    V: tuple[Concept, ...] = C.concepts
    Q: list[Query] = []
    output = C[0]
    processed = 0
    for j, x in enumerate(xs, start=1):
        processed = j
        if any(h(x) != V[0](x) for h in V[1:]):
            y = yield from label(j - 1)
            if isinstance(y, bool) or y not in (0, 1):
                raise InvalidArgument(f"label({j - 1})={y!r} (stream point {x!r}) must be 0 or 1")
            Q.append(Query(j, x, int(y)))
        if is_power_of_two(j):
            radius = to_fraction(U(j, gamma_j(g, j)), "U(j, gamma_j)")
            if radius < 0:
                raise InvalidArgument(f"U({j}, gamma_j)={radius} must be >= 0")
            mistakes = [sum(1 for q in Q if h(q.x) != q.y) for h in V]
            best = min(mistakes)
            V = tuple(h for h, e in zip(V, mistakes, strict=True) if e - best <= radius * j)
            output = V[0]
        if len(Q) >= ell:
            break
    return ActiveRun(output, V, tuple(Q), processed)


def _answer(label: Callable[[Hashable], int], x: Hashable) -> Program[int]:
    y = label(x)
    if isinstance(y, bool) or y not in (0, 1):
        raise InvalidArgument(f"label({x!r})={y!r} must be 0 or 1")
    return int(y)
    yield  # pragma: no cover - a program with no random choice


def disagreement_active_learner(C: ConceptClass, stream: Sequence[Hashable],
                                label: Callable[[Hashable], int], *, budget: int,
                                U: Callable[[int, Fraction], object],
                                gamma: ExactInput = Fraction(1, 10)) -> ActiveRun:
    """001 Algorithm 4 with an explicit version space, U(j, γ_j) given, and label budget ℓ = budget.

    Guarantee: :func:`disagreement_active_program` driven by the deterministic service
    ``label(x) -> 0 | 1`` (one definition of the loop): a label is requested only at points
    of DIS(V) for the current V, at most ``budget`` times; V always holds a minimizer of the
    mistakes on Q; the result is a function of (C, stream, the service's answers, budget, U,
    gamma).  Requires budget >= 1, 0 < gamma < 1, stream points of C's domain, answers in
    {0, 1} and U values exact and >= 0 (InvalidArgument naming the argument).
    """
    xs = tuple(stream)
    run = disagreement_active_program(C, xs, lambda i: _answer(label, xs[i]), budget=budget,
                                      U=U, gamma=gamma)
    try:
        next(run)
    except StopIteration as stop:
        result: ActiveRun = stop.value
        return result
    raise AssertionError("a deterministic labeling service yielded a random choice")
