"""PATE learning of paper 001: Algorithm 3 (PATE-PSQ) and Algorithm 5 (PATE-ASQ), with teachers.

Two layers.

*Programs on vote counts* (what a real-data experiment calls).  The teachers' vote counts on
the public points are given; :func:`psq` releases pseudo-labels for all m points through an
aggregator and fits the student (001 Algorithm 3 steps 3–4), and :func:`asq` hands an
active-learning oracle a labeling service that answers a request for stream position i with
one query of a per-query aggregator on votes[i], at most ``budget`` times (001 Algorithm 5).
The non-private baselines of 001 §6 are the same programs with the exact majority
(:func:`~privref.reference.pate.majority_votes`, :func:`~privref.reference.pate.majority_label`).

*Mechanisms over labeled records* (what the exact auditor checks).  Data is a tuple of records
(x, y) with x in the class's domain and y in {0, 1}; neighbors add or remove one record
(:class:`~privref.reference.neighbors.AddRemove`, the relation of 001).  Record r goes to
teacher :func:`~privref.reference.learners.pate_teachers.teacher_of` (r, K, seed), a keyed hash
of the record alone, so adding or removing one record changes one teacher's part: every vote
count moves by at most 1, which is the hypothesis of 001 Theorem 2's accounting.  (001 splits
"randomly and evenly"; under add/remove an even split can move many records between teachers,
so the paper's privacy argument for Algorithms 3 and 5 needs a per-record assignment.)
Each teacher is the deterministic ERM over the finite class on its part (an empty part, which
a fixed K allows on small data, gives C[0]).  The claim is the aggregator's guarantee for the
number of released labels, passed through post-processing (001 Theorem 2 and Lemma 40).

Duplicate records share a key, hence a teacher: adding a copy of a record still changes one part.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias, TypeVar

from .accounting import algorithm1_sigma, gaussian_zcdp, zcdp_compose, zcdp_epsilon
from .citations import cite
from .concepts import Concept, ConceptClass
from .data import BOTTOM as DATA_BOTTOM
from .data import Bottom, Dataset
from .errors import InvalidArgument
from .learners.pate_students import ActiveRun, disagreement_active_program, erm_student
from .learners.pate_teachers import TeacherAssignment, erm_teachers, teacher_of, vote_counts
from .mechanism import Mechanism
from .neighbors import AddRemove
from .pate import (
    BOTTOM,
    continuous_gaussian_label,
    continuous_gaussian_votes,
    gaussian_label,
    gaussian_pate_epsilon,
    gaussian_votes,
    svt_pate_at,
    svt_votes,
)
from .privacy import PrivacyClaim
from .program import Program
from .reals import rational
from .sparse_vector import rational_scale_at_least
from .validate import ExactInput, check_delta, check_int, check_positive, to_fraction

__all__ = [
    "Aggregator",
    "LabelService",
    "asq",
    "asq_mechanism",
    "calibrated_gaussian_aggregator",
    "continuous_gaussian_aggregator",
    "disagreement_active_program",
    "gaussian_aggregator",
    "keyed_teachers",
    "psq",
    "psq_mechanism",
    "svt_aggregator",
]

S = TypeVar("S")
R = TypeVar("R")

LabelService: TypeAlias = Callable[[int], Program[int]]
"""001 Algorithm 5's labeling service: stream position i (0-based) → one released label."""

Votes: TypeAlias = tuple[int, ...]
PseudoLabels: TypeAlias = tuple[int | str, ...]


# ------------------------------------------------------------------ programs on vote counts


def _check_votes(votes: object, k: object) -> tuple[Votes, int]:
    kk = check_int(k, "k", minimum=1)
    if not isinstance(votes, tuple):
        raise InvalidArgument(f"votes={votes!r} must be a tuple of vote counts")
    for j, v in enumerate(votes):
        check_int(v, f"votes[{j}]", minimum=0, maximum=kk)
    return votes, kk


def psq(votes: Votes, k: int, aggregate: Callable[[Votes, int], Program[PseudoLabels]],
        fit_student: Callable[[PseudoLabels], S]) -> Program[S]:
    """001 Algorithm 3 steps 3–4 on the teachers' vote counts at the m public points.

    Pseudo-labels = ``aggregate(votes, k)`` (one of :func:`~privref.reference.pate.gaussian_votes`,
    :func:`~privref.reference.pate.continuous_gaussian_votes`,
    :func:`~privref.reference.pate.svt_votes` or :func:`~privref.reference.pate.majority_votes`,
    partially applied), then the student ``fit_student(pseudo_labels)``.  Guarantee: the output
    is a function of the released pseudo-labels alone (post-processing, 001 Lemma 40), so it
    inherits the aggregator's (ε, δ).  PSQ-NP is ``psq`` with majority_votes.  InvalidArgument
    names k (< 1) or votes at call time, and aggregate when it releases anything but one label
    (0, 1 or ⊥) per point.
    """
    vs, kk = _check_votes(votes, k)
    released = aggregate(vs, kk)

    def run() -> Program[S]:
        labels = yield from released
        if not isinstance(labels, tuple) or len(labels) > len(vs):
            raise InvalidArgument(f"aggregate released {labels!r}: at most {len(vs)} labels "
                                  "expected")
        for j, y in enumerate(labels):
            if y != BOTTOM and (isinstance(y, bool) or y not in (0, 1)):
                raise InvalidArgument(f"aggregate released label {y!r} at point {j}: labels "
                                      "must be 0, 1 or ⊥")
        return fit_student(labels)

    return run()


def asq(votes: Votes, k: int, label: Callable[[int, int], Program[int]],
        learner: Callable[[LabelService], Program[R]], budget: int) -> Program[R]:
    """001 Algorithm 5: an active-learning oracle fed by a PATE labeling service.

    The service answers a request for stream position i with ``label(votes[i], k)`` (e.g.
    ``partial(continuous_gaussian_label, sigma=σ)``: one query of 001 Algorithm 1), and refuses
    the (budget + 1)-th request (InvalidArgument naming budget).  ``learner(service)`` is the
    oracle written as a program (e.g. :func:`disagreement_active_program`); the result is its
    output.  Guarantee: at most ``budget`` labels are released, each by one call of ``label``
    with fresh randomness, and the output is a function of them (post-processing, 001 Lemma 40):
    with a ρ-zCDP label the whole run is budget·ρ-zCDP by adaptive composition.  ASQ-NP is
    ``asq`` with :func:`~privref.reference.pate.majority_label`.  InvalidArgument names k,
    votes, budget (< 1), position (a request outside the stream) or label (an answer not 0/1).
    """
    vs, kk = _check_votes(votes, k)
    ell = check_int(budget, "budget", minimum=1)

    def run() -> Program[R]:
        used = [0]

        def service(i: int) -> Program[int]:
            check_int(i, "position", minimum=0, maximum=len(vs) - 1)
            if used[0] >= ell:
                raise InvalidArgument(f"budget={ell} exhausted: the labeling service answers "
                                      f"at most {ell} requests")
            used[0] += 1
            return _checked_label(label(vs[i], kk), i)

        return (yield from learner(service))

    return run()


def _checked_label(answer: Program[int], i: int) -> Program[int]:
    y = yield from answer
    if isinstance(y, bool) or y not in (0, 1):
        raise InvalidArgument(f"label for position {i} released {y!r}: labels must be 0 or 1")
    return y


# ------------------------------------------------------------------ aggregators with claims


@dataclass(frozen=True)
class Aggregator:
    """An aggregator of 001 with its privacy claim as a function of the number of released labels.

    ``votes(votes, k)`` releases one label per point (Algorithm 3 step 3); ``label(vote, k)``,
    when not None, is one query of it (Algorithm 5's labeling service); ``claim(ℓ)`` is the
    (ε, δ) it guarantees for ℓ queries under one-vote-per-count changes (001 Theorem 2).
    """

    name: str
    votes: Callable[[Votes, int], Program[PseudoLabels]]
    label: Callable[[int, int], Program[int]] | None
    claim: Callable[[int], PrivacyClaim]


def _open_delta(delta: object) -> Fraction:
    d = check_delta(delta)
    if d == 0:
        raise InvalidArgument(f"delta={d} must be > 0")
    return d


def gaussian_aggregator(sigma2: ExactInput, delta: ExactInput) -> Aggregator:
    """001 Algorithm 1 with discrete Gaussian noise N_Z(0, σ²), claiming
    :func:`~privref.reference.pate.gaussian_pate_epsilon` (ℓ, σ², δ) for ℓ labels (CKS20
    Theorem 4, zCDP composition, 001 Lemma 51).  InvalidArgument names sigma2 (<= 0) or delta
    (outside (0, 1)).
    """
    s2 = check_positive(to_fraction(sigma2, "sigma2"), "sigma2")
    d = _open_delta(delta)

    def votes(vs: Votes, k: int) -> Program[PseudoLabels]:
        return (yield from gaussian_votes(vs, k, s2))

    def label(v: int, k: int) -> Program[int]:
        return gaussian_label(v, k, s2)

    return Aggregator(f"Gaussian (discrete, sigma^2={s2})", votes, label,
                      lambda ell: gaussian_pate_epsilon(ell, s2, d))


def continuous_gaussian_aggregator(sigma: ExactInput, delta: ExactInput) -> Aggregator:
    """001 Algorithm 1 with the paper's N(0, σ²) noise, claiming (ρ + 2√(ρ ln(1/δ)), δ) with
    ρ = ℓ/(2σ²) for ℓ labels (Gaussian mechanism ρ = 1/(2σ²), zCDP composition, 001 Lemma 51).
    InvalidArgument names sigma (<= 0) or delta (outside (0, 1)).
    """
    s = check_positive(to_fraction(sigma, "sigma"), "sigma")
    d = _open_delta(delta)

    def votes(vs: Votes, k: int) -> Program[PseudoLabels]:
        return (yield from continuous_gaussian_votes(vs, k, s))

    def label(v: int, k: int) -> Program[int]:
        return continuous_gaussian_label(v, k, s)

    def claim(ell: int) -> PrivacyClaim:
        n = check_int(ell, "queries", minimum=1)
        return PrivacyClaim(zcdp_epsilon(zcdp_compose(*([gaussian_zcdp(s)] * n)), d), d)

    return Aggregator(f"Gaussian (continuous, sigma={s})", votes, label, claim)


def calibrated_gaussian_aggregator(queries: int, epsilon: ExactInput, delta: ExactInput,
                                   denominator: int = 1) -> Aggregator:
    """001 Algorithm 1 calibrated by its Step 1 for ``queries`` labels, claiming (ε, δ).

    σ = :func:`~privref.reference.accounting.algorithm1_sigma` (queries, ε, δ), σ² rounded up to
    a multiple of 1/denominator, discrete Gaussian noise (as
    :func:`~privref.reference.pate.gaussian_pate`).  The claim holds for every ℓ <= queries
    (ρ grows with ℓ); ``claim(ℓ)`` refuses ℓ > queries.  InvalidArgument names queries,
    epsilon (<= 0), delta (outside (0, 1)) or denominator.
    """
    q = check_int(queries, "queries", minimum=1)
    eps = check_positive(to_fraction(epsilon, "epsilon"), "epsilon")
    d = _open_delta(delta)
    sigma = algorithm1_sigma(q, eps, d)
    s2 = rational_scale_at_least(sigma * sigma, denominator)
    base = gaussian_aggregator(s2, d)

    def claim(ell: int) -> PrivacyClaim:
        n = check_int(ell, "queries", minimum=1)
        if n > q:
            raise InvalidArgument(f"queries={n} exceeds the {q} the noise was calibrated for")
        return PrivacyClaim(rational(eps), d)

    return Aggregator(f"Gaussian (discrete, Step 1 for {q} queries, epsilon={eps})",
                      base.votes, base.label, claim)


def svt_aggregator(scale: ExactInput, threshold: int, cutoff: int) -> Aggregator:
    """001 Algorithm 2 (discrete Laplace scales t and 2t, integer threshold w, cutoff T), claiming
    :func:`~privref.reference.pate.svt_pate_at`'s (2T/t, ℓ·P(ν − ρ > w)) for ℓ points.  It has
    no per-query form (its threshold noise is shared), so ``label`` is None.  InvalidArgument
    names scale, threshold or cutoff (and delta when ℓ·P(ν − ρ > w) >= 1).
    """
    t = check_positive(to_fraction(scale, "scale"), "scale")
    w = check_int(threshold, "threshold")
    big_t = check_int(cutoff, "cutoff", minimum=1)

    def votes(vs: Votes, k: int) -> Program[PseudoLabels]:
        return (yield from svt_votes(vs, k, t, w, big_t))

    return Aggregator(f"SVT (t={t}, w={w}, T={big_t})", votes, None,
                      lambda ell: svt_pate_at(ell, t, w, big_t).claim)


# ------------------------------------------------------------------ mechanisms over records


def keyed_teachers(C: ConceptClass, data: Dataset, K: int, seed: int) -> tuple[Concept, ...]:
    """The K teachers of 001 Algorithms 3 and 5 steps 1–2 with the keyed per-record split.

    Record r goes to teacher :func:`~privref.reference.learners.pate_teachers.teacher_of`
    (r, K, seed); teacher k is the ERM over C on its part (C[0] when the part is empty, which is
    allowed: K may exceed the number of records).  Guarantee: adding or removing one record
    changes exactly one teacher's part.  Records must be pairs (x, y) with x in C's domain, y in
    {0, 1}, and x an int, str, bytes or tuple of these (InvalidArgument naming data[i]); K >= 1.
    """
    kk = check_int(K, "K", minimum=1)
    for i, r in enumerate(data):
        if not (isinstance(r, tuple) and len(r) == 2):
            raise InvalidArgument(f"data[{i}]={r!r} must be a labeled record (x, y)")
        y = r[1]
        if isinstance(y, bool) or y not in (0, 1):
            raise InvalidArgument(f"data[{i}]={r!r}: its label must be 0 or 1")
        if r[0] not in C.domain:
            raise InvalidArgument(f"data[{i}]={r!r}: its point is not in the class's domain")
    assignment = TeacherAssignment(kk, tuple(teacher_of(r, kk, seed) for r in data))  # type: ignore[arg-type]
    return erm_teachers(C, data, assignment)


def _check_mechanism_args(C: ConceptClass, points: Sequence[Hashable], name: str, K: int,
                          seed: int) -> tuple[tuple[Hashable, ...], int]:
    if not isinstance(C, ConceptClass):
        raise InvalidArgument(f"C={C!r} must be a ConceptClass")
    pts = tuple(points)
    if not pts:
        raise InvalidArgument(f"{name}=() must hold at least one point")
    for i, x in enumerate(pts):
        C.domain.position(x, f"{name}[{i}]")
    kk = check_int(K, "K", minimum=1)
    teacher_of(0, kk, seed)  # validates seed
    return pts, kk


def _student_labels(labels: PseudoLabels) -> tuple[int | Bottom, ...]:
    return tuple(DATA_BOTTOM if y == BOTTOM else int(y) for y in labels)


def psq_mechanism(C: ConceptClass, public_points: Sequence[Hashable], K: int, seed: int,
                  aggregator: Aggregator, *, fill: int | None = 0) -> Mechanism[Concept]:
    """001 Algorithm 3 (PATE-PSQ) over labeled records with add/remove neighbors.

    Teachers: :func:`keyed_teachers` (K, seed); votes on the m public points; pseudo-labels from
    ``aggregator.votes``; student: :func:`~privref.reference.learners.pate_students.erm_student`
    on the pseudo-labeled public points (⊥ labeled ``fill``, or dropped when fill is None; points
    after an early SVT stop are dropped).  Output: the student concept.  Claim:
    ``aggregator.claim(m)`` (001 Theorem 2 + post-processing, Lemma 40; valid because one
    record moves one teacher).  InvalidArgument names C, public_points, K (< 1) or seed.
    """
    pts, kk = _check_mechanism_args(C, public_points, "public_points", K, seed)
    claim = aggregator.claim(len(pts))

    def fit(labels: PseudoLabels) -> Concept:
        return erm_student(C, pts[:len(labels)], _student_labels(labels), fill=fill)

    def program(data: Dataset) -> Program[Concept]:
        votes = vote_counts(keyed_teachers(C, data, kk, seed), pts)
        return (yield from psq(votes, kk, aggregator.votes, fit))

    return Mechanism("PATE-PSQ", program, claim,
                     cite("001 Theorem 2 (proof)"),
                     relation=AddRemove(), order_invariant=True,
                     description=f"001 Algorithm 3 over {C.name} with K={kk} keyed teachers "
                                 f"(seed {seed}), m={len(pts)} public points, aggregator "
                                 f"{aggregator.name}; data = labeled records, add/remove")


def asq_mechanism(C: ConceptClass, stream: Sequence[Hashable], K: int, seed: int, budget: int,
                  U: Callable[[int, Fraction], object], aggregator: Aggregator, *,
                  gamma: ExactInput = Fraction(1, 10)) -> Mechanism[Concept]:
    """001 Algorithm 5 (PATE-ASQ) over labeled records with add/remove neighbors.

    Teachers: :func:`keyed_teachers` (K, seed); their votes on the stream; labeling service:
    ``aggregator.label`` on the requested position's votes, at most ``budget`` answers
    (:func:`asq`); oracle: 001 Algorithm 4 (:func:`disagreement_active_program` with label
    budget ``budget``, radius U and γ).  Output: the oracle's current output ĥ^S.  Claim:
    ``aggregator.claim(budget)`` (001 Theorem 2 for at most ``budget`` adaptive queries +
    post-processing, Lemma 40).  InvalidArgument names C, stream, K, seed, budget (< 1) or
    aggregator (one without a per-query label, such as SVT).
    """
    pts, kk = _check_mechanism_args(C, stream, "stream", K, seed)
    ell = check_int(budget, "budget", minimum=1)
    label = aggregator.label
    if label is None:
        raise InvalidArgument(f"aggregator={aggregator.name!r} has no per-query label service")
    claim = aggregator.claim(ell)
    disagreement_active_program(C, pts, _no_label, budget=ell, U=U, gamma=gamma).close()

    def learner(service: LabelService) -> Program[ActiveRun]:
        return disagreement_active_program(C, pts, service, budget=ell, U=U, gamma=gamma)

    def program(data: Dataset) -> Program[Concept]:
        votes = vote_counts(keyed_teachers(C, data, kk, seed), pts)
        run = yield from asq(votes, kk, label, learner, ell)
        return run.output

    return Mechanism("PATE-ASQ", program, claim,
                     cite("001 Theorem 2 (proof)"),
                     relation=AddRemove(), order_invariant=True,
                     description=f"001 Algorithm 5 over {C.name} with K={kk} keyed teachers "
                                 f"(seed {seed}), a stream of {len(pts)} points, label budget "
                                 f"{ell}, aggregator {aggregator.name}; data = labeled records, "
                                 "add/remove")


def _no_label(i: int) -> Program[int]:
    raise AssertionError("validation run requested a label")
    yield  # pragma: no cover
