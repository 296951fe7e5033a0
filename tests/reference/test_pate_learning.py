"""001 Algorithms 3 (PATE-PSQ) and 5 (PATE-ASQ): programs on votes, keyed teachers, exact audits."""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from fractions import Fraction
from functools import partial
from typing import Any

import pytest

from privref.audits.exact import AuditReport, audit
from privref.reference.concepts import ConceptClass, thresholds_on
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument
from privref.reference.learners.pate_students import (
    ActiveRun,
    disagreement_active_learner,
    erm_student,
)
from privref.reference.learners.pate_teachers import vote_counts
from privref.reference.learners.prediction_baselines import erm
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import AddRemove, Universe
from privref.reference.pate import (
    BOTTOM,
    gaussian_label,
    gaussian_pate_at,
    gaussian_pate_epsilon,
    gaussian_votes,
    majority_label,
    majority_votes,
)
from privref.reference.pate_learning import (
    Aggregator,
    LabelService,
    asq,
    asq_mechanism,
    calibrated_gaussian_aggregator,
    continuous_gaussian_aggregator,
    disagreement_active_program,
    gaussian_aggregator,
    keyed_teachers,
    psq,
    psq_mechanism,
    svt_aggregator,
)
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, distribution
from privref.reference.reals import rational
from privref.reference.verdict import Verdict

C = thresholds_on(2)                        # c_0 = (0, 0), c_1 = (1, 0), c_2 = (1, 1) on points 0, 1
RECORDS = ((0, 0), (0, 1), (1, 0), (1, 1))  # every labeled example of the 2-point domain
UNIVERSE = Universe(RECORDS, (0, 1, 2))     # datasets of 0-2 records, add/remove neighbors
PUBLIC = (0, 1)                             # m = 2 public points
SIGMA2 = Fraction(1, 2)
DELTA = Fraction(1, 10)


def _zero(j: int, g: Fraction) -> int:
    return 0


def _identity(labels: tuple[int | str, ...]) -> tuple[int | str, ...]:
    return labels


def _point_mass(program: Program[object]) -> object:
    try:
        next(program)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("program made a random choice")


# ------------------------------------------------------------------ programs on votes


def test_psq_np_is_the_exact_majority_then_the_student() -> None:
    # PSQ-NP: no noise; ties (votes = K/2) go to 1
    law = distribution(lambda: psq((0, 1, 2), 2, majority_votes, _identity))
    assert law.items() == (((0, 1, 1), Fraction(1)),)
    student = _point_mass(psq((2, 0), 2, majority_votes,
                              lambda ys: erm_student(C, PUBLIC, ys)))  # type: ignore[arg-type]
    assert student == C[1]


def test_psq_with_gaussian_votes_has_the_aggregators_law() -> None:
    votes = (0, 1)
    law = distribution(lambda: psq(votes, 2, partial(gaussian_votes, sigma2=SIGMA2), _identity))
    direct = distribution(gaussian_votes, votes, 2, SIGMA2)
    assert law.items() == direct.items()


def test_asq_np_matches_the_deterministic_learner() -> None:
    # ASQ-NP on the stream 0, 1, 0, 1 with teachers' votes (2, 0, 2, 0) out of K = 2
    stream, votes = (0, 1, 0, 1), (2, 0, 2, 0)

    def learner(service: LabelService) -> Program[ActiveRun]:
        return disagreement_active_program(C, stream, service, budget=2, U=_zero)

    run = _point_mass(asq(votes, 2, majority_label, learner, 2))
    majority_at: dict[Hashable, int] = {0: 1, 1: 0}
    expected = disagreement_active_learner(C, stream, lambda x: majority_at[x], budget=2, U=_zero)
    assert run == expected
    assert isinstance(run, ActiveRun) and run.output == C[1] and run.labels_used == 2


def test_asq_service_refuses_more_than_the_budget() -> None:
    def greedy(service: LabelService) -> Program[int]:
        total = 0
        for i in range(3):
            total += yield from service(i)
        return total

    assert _point_mass(asq((1, 1, 1), 2, majority_label, greedy, 3)) == 3
    with pytest.raises(InvalidArgument, match="budget=2"):
        _point_mass(asq((1, 1, 1), 2, majority_label, greedy, 2))
    with pytest.raises(InvalidArgument, match="position"):
        _point_mass(asq((1, 1), 2, majority_label, greedy, 3))


def test_asq_gaussian_law_is_the_requested_queries_law() -> None:
    # one request at position 1: the law of Algorithm 1's single query on votes[1]
    def one(service: LabelService) -> Program[int]:
        return (yield from service(1))

    label = partial(gaussian_label, sigma2=SIGMA2)
    law = distribution(lambda: asq((0, 2), 2, label, one, 1))
    assert law.items() == distribution(gaussian_label, 2, 2, SIGMA2).items()


# ------------------------------------------------------------------ keyed teachers


def _positional_teachers(Cl: ConceptClass, data: Dataset, K: int) -> tuple[object, ...]:
    # the "even split" of 001's wording: record i goes to teacher i mod K (a negative control)
    parts = [tuple(r for i, r in enumerate(data) if i % K == k) for k in range(K)]
    return tuple(erm(Cl, p) for p in parts)


def _changed_teachers(teachers: object, a: Dataset, b: Dataset) -> int:
    ta = teachers(a)  # type: ignore[operator]
    tb = teachers(b)  # type: ignore[operator]
    return sum(1 for x, y in zip(ta, tb, strict=True) if x != y)


@pytest.mark.parametrize("K", [1, 2, 3])
def test_keyed_teachers_change_one_teacher_under_add_remove(K: int) -> None:
    universe = Universe(RECORDS, (0, 1, 2, 3))
    for seed in (0, 1):
        for a, b in universe.pairs(AddRemove()):
            ta, tb = keyed_teachers(C, a, K, seed), keyed_teachers(C, b, K, seed)
            assert sum(1 for x, y in zip(ta, tb, strict=True) if x != y) <= 1
            va, vb = vote_counts(ta, PUBLIC), vote_counts(tb, PUBLIC)
            assert all(abs(x - y) <= 1 for x, y in zip(va, vb, strict=True))


def test_the_positional_split_changes_two_teachers() -> None:
    # the check above can fail: removing the first record shifts every later one
    a: Dataset = ((0, 1), (1, 1))
    b: Dataset = ((1, 1),)
    assert AddRemove().are_neighbors(a, b)
    assert _changed_teachers(partial(_positional_teachers, C, K=2), a, b) == 2


def test_an_empty_part_gives_the_first_concept() -> None:
    assert keyed_teachers(C, (), 3, 0) == (C[0], C[0], C[0])


# ------------------------------------------------------------------ exact audits


def _reference_epsilon(queries: int) -> Fraction:
    """An exact upper bound on Algorithm 1's worst-case ε at δ on K = 2 teachers (substitution)."""
    vectors = tuple(itertools.product((0, 1), repeat=queries))
    report = audit(gaussian_pate_at(queries, SIGMA2, DELTA), Universe(vectors, (2,)))
    assert report.epsilon_upper is not None
    return report.epsilon_upper


def _same(a: PrivacyClaim, b: PrivacyClaim) -> bool:
    # Reals compare by expression here: both sides are built by the same accountant
    return str(a.epsilon) == str(b.epsilon) and a.delta == b.delta


def _holds(mech: Mechanism[Any], claim: PrivacyClaim | None = None) -> AuditReport:
    report = audit(mech, UNIVERSE, claim=claim)
    assert report.verdict is Verdict.HOLDS, report
    return report


@pytest.mark.parametrize("seed", [0, 2])
def test_psq_gaussian_holds_its_claim_and_algorithm_1s_exact_loss(seed: int) -> None:
    mech = psq_mechanism(C, PUBLIC, 2, seed, gaussian_aggregator(SIGMA2, DELTA))
    assert _same(mech.claim, gaussian_pate_epsilon(2, SIGMA2, DELTA))
    report = _holds(mech)
    # post-processing of Algorithm 1 on votes of sensitivity 1: never above its exact ε
    _holds(mech, PrivacyClaim(rational(_reference_epsilon(2)), DELTA))
    assert report.epsilon_upper is not None and report.epsilon_lower > 0


def test_psq_continuous_gaussian_holds_its_claim() -> None:
    mech = psq_mechanism(C, PUBLIC, 2, 0, continuous_gaussian_aggregator(1, DELTA))
    report = _holds(mech)
    assert report.epsilon_lower > 0


def test_psq_svt_holds_its_claim() -> None:
    agg = svt_aggregator(1, 3, 1)
    mech = psq_mechanism(C, PUBLIC, 3, 0, agg)
    assert mech.claim.epsilon.exact == 2
    _holds(mech)
    # the claim's δ is needed: an unstable majority (dist = 0) is released with positive
    # probability on one side of a pair and never on the other, so at δ = 0 the loss is unbounded
    assert audit(mech, UNIVERSE, claim=PrivacyClaim(mech.claim.epsilon, Fraction(0))).verdict \
        is Verdict.VIOLATED


@pytest.mark.parametrize("budget", [1, 2])
def test_asq_gaussian_holds_its_claim(budget: int) -> None:
    mech = asq_mechanism(C, PUBLIC, 2, 0, budget, _zero, gaussian_aggregator(SIGMA2, DELTA))
    assert _same(mech.claim, gaussian_pate_epsilon(budget, SIGMA2, DELTA))
    _holds(mech)
    if budget == 1:  # one (non-adaptive) query: at most Algorithm 1's exact ε for ℓ = 1
        _holds(mech, PrivacyClaim(rational(_reference_epsilon(1)), DELTA))


def test_asq_continuous_gaussian_holds_its_claim() -> None:
    _holds(asq_mechanism(C, PUBLIC, 2, 0, 1, _zero, continuous_gaussian_aggregator(1, DELTA)))


def test_dropping_the_noise_violates_the_claim() -> None:
    # control: the exact majority under the Gaussian claim is caught by the same audit
    gauss = gaussian_aggregator(SIGMA2, DELTA)
    noiseless = Aggregator("majority under a Gaussian claim", majority_votes, majority_label,
                           gauss.claim)
    for mech in (psq_mechanism(C, PUBLIC, 2, 0, noiseless),
                 asq_mechanism(C, PUBLIC, 2, 0, 1, _zero, noiseless)):
        report = audit(mech, UNIVERSE)
        assert report.verdict is Verdict.VIOLATED
        assert report.epsilon_infinite


# ------------------------------------------------------------------ bad input


def _bad_calls() -> list[tuple[str, object]]:
    gauss = gaussian_aggregator(SIGMA2, DELTA)

    def two(v: int, k: int) -> Program[int]:
        return 2
        yield  # pragma: no cover

    def ask(service: LabelService) -> Program[int]:
        return (yield from service(0))

    return [
        ("budget=0", lambda: asq((1,), 2, majority_label, ask, 0)),
        ("budget=0", lambda: asq_mechanism(C, PUBLIC, 2, 0, 0, _zero, gauss)),
        ("K=0", lambda: psq_mechanism(C, PUBLIC, 0, 0, gauss)),
        ("K=0", lambda: keyed_teachers(C, (), 0, 0)),
        ("k=0", lambda: psq((0,), 0, majority_votes, _identity)),
        ("sigma2=0", lambda: gaussian_aggregator(0, DELTA)),
        ("sigma=-1", lambda: continuous_gaussian_aggregator(-1, DELTA)),
        ("delta=1", lambda: gaussian_aggregator(SIGMA2, 1)),
        ("delta=0", lambda: continuous_gaussian_aggregator(1, 0)),
        ("epsilon=0", lambda: calibrated_gaussian_aggregator(2, 0, DELTA)),
        ("queries=3", lambda: calibrated_gaussian_aggregator(2, 1, DELTA).claim(3)),
        ("label", lambda: _point_mass(asq((1,), 2, two, ask, 1))),
        (r"data\[0\]", lambda: keyed_teachers(C, ((0, 2),), 2, 0)),
        ("aggregate", lambda: _point_mass(psq((1,), 2, lambda v, k: _const((2,)), _identity))),
        ("aggregator", lambda: asq_mechanism(C, PUBLIC, 2, 0, 1, _zero, svt_aggregator(1, 3, 1))),
        (r"public_points\[0\]", lambda: psq_mechanism(C, (7,), 2, 0, gauss)),
    ]


def _const(labels: tuple[int | str, ...]) -> Program[tuple[int | str, ...]]:
    return labels
    yield  # pragma: no cover


@pytest.mark.parametrize("case", range(len(_bad_calls())))
def test_bad_input_names_the_argument(case: int) -> None:
    name, call = _bad_calls()[case]
    with pytest.raises(InvalidArgument, match=name):
        call()  # type: ignore[operator]


def test_svt_bottom_reaches_the_student_as_the_fill_label() -> None:
    # K = 3 with no records: every teacher is c_0, votes (0, 0), stable (distance 1); with
    # threshold 3 the first query is refused (⊥) with positive probability and T = 1 stops
    agg = svt_aggregator(1, 3, 1)
    labels_law = distribution(agg.votes, (0, 0), 3)
    assert (BOTTOM,) in labels_law.support()
    law = psq_mechanism(C, PUBLIC, 3, 0, agg).distribution(())

    def fit(labels: tuple[int | str, ...]) -> object:
        filled = tuple(0 if y == BOTTOM else y for y in labels)
        return erm_student(C, PUBLIC[:len(filled)], filled)  # type: ignore[arg-type]

    expected = labels_law.map(fit)
    assert dict(law.items()) == dict(expected.items())
