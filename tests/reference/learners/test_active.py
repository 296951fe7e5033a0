"""Active learners (004/000 Section 5): oracle, transcripts, PAL vs TPAL, SubSampling, errors."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np
import pytest

from privref.audits.exact import Verdict, audit, audit_pair
from privref.reference.citations import Uncited
from privref.reference.composition import leak
from privref.reference.concepts import thresholds_on
from privref.reference.data import BOTTOM, labeled
from privref.reference.errors import InvalidArgument, UnknownLabel, UnsupportedProgram
from privref.reference.exponential import exponential_learner
from privref.reference.learners.active import (
    ActiveLearner,
    LabelOracle,
    active_learner,
    pssl_as_active,
    query,
    subsampling_active_claim,
    subsampling_epsilon,
    subsampling_learner,
    subsampling_repaired_claim,
)
from privref.reference.learners.base import Learner, as_learner
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, call, distribution, sample, uniform
from privref.reference.reals import Order, compare, exp, log

from ...stats import chi_square_pvalue, fits

C2 = thresholds_on(2)                      # c_0 ≡ 0, c_1 = 10, c_2 ≡ 1 on {0, 1}
F = Fraction
ELEMENTS = ((0, 0), (0, 1), (1, 0))


def em(base: str = "3/2") -> Learner[Any]:
    return as_learner(exponential_learner(tuple(C2), epsilon=f"2*ln({base})"), C2, proper=True)


def noisy(keep: str = "2/3") -> Learner[Any]:
    from privref.proofs.p004.active import noisy_label_learner
    return noisy_label_learner(keep)


def echo_learner(n: int, m: int, queries: tuple[int, ...]) -> ActiveLearner[Any]:
    """Queries ``queries`` in order and returns (points it was given, answers)."""
    def program(points: tuple[Hashable, ...]) -> Program[Any]:
        answers = []
        for i in queries:
            answers.append((yield from query(i)))
        return points, tuple(answers)
    return active_learner("echo", program, n=n, m=m, concepts=C2, proper=False,
                          pal_claim=PrivacyClaim.of(0), tpal_claim=PrivacyClaim.of(0),
                          source=Uncited("test"))


# ------------------------------------------------------------------ oracle and driver


def test_oracle_records_the_transcript_and_answers_by_index() -> None:
    oracle = LabelOracle(((5, 1), (9, 0), (5, 0)), budget=2)
    assert oracle.points == (5, 9, 5)
    assert oracle.transcript == ()
    assert oracle.answer(2) == 0
    assert oracle.answer(0) == 1
    # mypy keeps the property narrowed to tuple[()] by the assert above across answer() calls
    assert oracle.transcript == (2, 0)  # type: ignore[comparison-overlap]


def test_oracle_refuses_beyond_budget_and_range() -> None:
    oracle = LabelOracle(((0, 1), (1, 0)), budget=1)
    with pytest.raises(InvalidArgument, match="index=2 must be <= 1"):
        oracle.answer(2)
    with pytest.raises(InvalidArgument, match="index=-1 must be >= 0"):
        oracle.answer(-1)
    oracle.answer(1)
    with pytest.raises(InvalidArgument, match="exceeds the label budget m=1"):
        oracle.answer(0)
    assert oracle.transcript == (1,)  # refused queries are not recorded


def test_oracle_needs_fully_labeled_data() -> None:
    with pytest.raises(UnknownLabel, match="fully labeled"):
        LabelOracle(((0, 1), (1, BOTTOM)), budget=1)
    with pytest.raises(UnknownLabel, match="not a labeled pair"):
        LabelOracle((0, 1), budget=1)


def test_learner_sees_points_only_and_every_label_read_is_in_the_transcript() -> None:
    learner = echo_learner(3, 2, (2, 0))
    out = learner.tpal().distribution(((7, 1), (8, 0), (9, 0))).as_dict()
    assert out == {(((7, 8, 9), (0, 1)), (2, 0)): 1}


def test_queries_beyond_the_budget_fail_the_run() -> None:
    learner = echo_learner(2, 1, (0, 1))
    with pytest.raises(InvalidArgument, match="label budget m=1"):
        learner.pal().distribution(((0, 1), (1, 0)))


def test_a_query_inside_call_is_refused() -> None:
    def inner(_: int) -> Program[int]:
        return (yield from query(0))

    def program(points: tuple[Hashable, ...]) -> Program[int]:
        return (yield from call(inner, 0))

    learner = active_learner("sneaky", program, n=1, m=1, concepts=C2, proper=False,
                             pal_claim=PrivacyClaim.of(0), source=Uncited("test"))
    with pytest.raises(UnsupportedProgram, match="not inside call"):
        learner.pal().distribution(((0, 1),))
    with pytest.raises(UnsupportedProgram, match="not inside call"):
        learner.pal().sample(((0, 1),), np.random.default_rng(1))


def test_bad_pool_size_and_construction_arguments() -> None:
    learner = echo_learner(2, 1, (0,))
    with pytest.raises(InvalidArgument, match="pool size is n=2"):
        learner.pal().distribution(((0, 1),))
    with pytest.raises(InvalidArgument, match="m=3 must be <= 2"):
        echo_learner(2, 3, ())
    with pytest.raises(InvalidArgument, match="n=0 must be >= 1"):
        echo_learner(0, 0, ())
    with pytest.raises(InvalidArgument, match="index=-1 must be >= 0"):
        list(query(-1))


def test_active_learners_are_immutable() -> None:
    learner = pssl_as_active(em(), 2, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        learner.m = 2  # type: ignore[misc]


# ------------------------------------------------------------------ Theorem 5.5


@pytest.mark.parametrize("m", [0, 1, 3])
def test_pssl_transcript_is_constant_and_law_is_the_pssl_law(m: int) -> None:
    base = em()
    learner = pssl_as_active(base, 3, m)
    data = ((0, 1), (1, 0), (1, 1))
    assert learner.transcripts(data).as_dict() == {tuple(range(m)): 1}
    induced = tuple(e if i < m else (e[0], BOTTOM) for i, e in enumerate(data))
    expected = {(h, tuple(range(m))): p for h, p in base.distribution(induced).items()}
    assert learner.tpal().distribution(data).as_dict() == expected
    assert learner.pal_claim == learner.tpal_claim == base.claim


def test_pssl_pal_and_tpal_audits_agree() -> None:
    learner = pssl_as_active(em(), 2, 1)
    universe = Universe(ELEMENTS, (2,))
    pal, tpal = audit(learner.pal(), universe), audit(learner.tpal(), universe)
    assert pal.verdict is tpal.verdict is Verdict.HOLDS
    assert pal.epsilon_exact is not None and tpal.epsilon_exact is not None
    assert exp(pal.epsilon_exact).exact == exp(tpal.epsilon_exact).exact is not None


# ------------------------------------------------------------------ SubSampling


def test_subsampling_exact_law_and_transcripts() -> None:
    """n = 2, m = 1, t = 3: J ∈ {01, 02, 12}, K = smallest: transcripts (0,) twice, (1,) once."""
    learner = subsampling_learner(noisy(), 2, 1, 3, claim=PrivacyClaim.of(1))
    data = ((0, 1), (0, 0), (1, 1))
    assert learner.transcripts(data).as_dict() == {(0,): F(2, 3), (1,): F(1, 3)}
    law = learner.pal().distribution(data)
    assert law.total() == 1
    # output c_2 (≡ 1) w.p. keep when the labeled entry's label is 1: entry 0 (2/3) or 1 (1/3)
    assert law.as_dict() == {C2[2]: F(2, 3) * F(2, 3) + F(1, 3) * F(1, 3),
                             C2[0]: F(2, 3) * F(1, 3) + F(1, 3) * F(2, 3)}


def test_subsampling_epsilon_and_claims_are_exact() -> None:
    inner = em("9/8").claim                         # e^{ε*} = 81/64, e^{2ε*} = (9/8)^4
    w = F(9, 8) ** 4
    assert subsampling_epsilon(inner, 1, 5).exact == (3 + w) / 5
    claim = subsampling_active_claim(PrivacyClaim(inner.epsilon, F(1, 100)), 1, 5)
    assert claim.epsilon.exact == (3 + w) / 5
    assert claim.delta == (7 + F(81, 64)) * F(1, 5) * F(1, 100)
    repaired = subsampling_repaired_claim(PrivacyClaim(inner.epsilon, F(1, 100)), 1, 5)
    assert repaired.delta == (1 + F(81, 64)) * F(1, 5) * F(1, 100)


def test_subsampling_claim_refuses_eps_above_ln3_unless_asked() -> None:
    inner = noisy().claim                           # e^{2ε*} = 4: ε = 7n/t
    with pytest.raises(InvalidArgument, match=r"t=6 must be >= n·\(3 \+ e\^\(2eps\*\)\)/ln 3"):
        subsampling_active_claim(inner, 1, 6)
    printed = subsampling_active_claim(inner, 1, 6, proved_range_only=False)
    assert printed.epsilon.exact == F(7, 6)
    assert compare(subsampling_active_claim(inner, 1, 7).epsilon, log(3))[0] is Order.LESS
    with pytest.raises(InvalidArgument, match="t=1 must be >= 2"):
        subsampling_epsilon(inner, 2, 1)


def test_subsampling_pal_holds_exactly_on_a_tiny_universe() -> None:
    base = as_learner(leak(noisy().mechanism, "1/100"), C2, proper=False)
    learner = subsampling_learner(base, 1, 1, 7)                # ε = 1 <= ln 3
    report = audit(learner.pal(), Universe(((0, 0), (0, 1)), (7,)))
    assert report.verdict is Verdict.HOLDS


def test_subsampling_pal_holds_but_output_plus_transcript_does_not() -> None:
    learner = subsampling_learner(noisy(), 1, 1, 11)            # ε = 7/11 < ε* = ln 2
    assert learner.tpal_claim is None
    with pytest.raises(InvalidArgument, match="claims no transcript privacy"):
        learner.tpal()
    a = ((0, 0),) * 11
    b = ((0, 1),) + ((0, 0),) * 10
    strong = PrivacyClaim(log(F(1890, 1000)), F(0))               # e^{7/11} = 1.8895... < 1.890
    assert audit_pair(learner.pal(), a, b, claim=strong).verdict is Verdict.HOLDS
    tpal = audit_pair(learner.tpal(strong), a, b, claim=strong)
    assert tpal.verdict is Verdict.VIOLATED and tpal.epsilon.t_exact == 2


def test_subsampling_sampler_agrees_with_exact_law() -> None:
    learner = subsampling_learner(noisy(), 2, 1, 4, claim=PrivacyClaim.of(1))
    tpal = learner.tpal(PrivacyClaim.of(1))
    for data in (((0, 1), (1, 0), (0, 0), (1, 1)), ((0, 1),) * 4):
        dist = tpal.distribution(data)
        pvalue = chi_square_pvalue(dist, partial(tpal.sample, data), n=3000)
        assert fits(pvalue, f"subsampling TPAL sampler on {data!r}"), (data, pvalue)


def test_subsampling_shuffles_blocks_of_an_order_sensitive_base() -> None:
    """leak(·) releases D_J itself: shuffled, both orders of the unlabeled block appear."""
    base = as_learner(leak(em().mechanism, "1/2"), C2, proper=False)
    data = ((0, 1), (1, 0), (0, 0))
    claim = PrivacyClaim.of(5, "1/2")

    def leaked(shuffle: bool | None) -> set[Any]:
        learner = subsampling_learner(base, 3, 1, 3, shuffle=shuffle, claim=claim)
        law = learner.pal().distribution(data)
        assert law.total() == 1
        return {o[1] for o, _ in law.items() if isinstance(o, tuple)}

    head = labeled(0, 1)
    assert leaked(None) == {(head, (1, BOTTOM), (0, BOTTOM)), (head, (0, BOTTOM), (1, BOTTOM))}
    assert leaked(False) == {(head, (1, BOTTOM), (0, BOTTOM))}


def test_subsampling_bad_arguments() -> None:
    with pytest.raises(InvalidArgument, match=r"must be a reference\.learners\.base\.Learner"):
        subsampling_learner(em().mechanism, 1, 1, 5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="t=1 must be >= 2"):
        subsampling_learner(em(), 2, 1, 1)
    with pytest.raises(InvalidArgument, match="m=3 must be <= 2"):
        subsampling_learner(em(), 2, 3, 9)
    with pytest.raises(InvalidArgument, match="shuffle=1 must be a bool or None"):
        subsampling_learner(em(), 1, 1, 9, shuffle=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="must be < 1"):
        subsampling_active_claim(PrivacyClaim.of(0, "9/10"), 1, 4)


def test_programs_are_replayable_by_both_interpreters() -> None:
    """The driver re-creates its oracle on every replay: one path, one transcript."""
    def program(points: tuple[Hashable, ...]) -> Program[int]:
        i = yield from uniform(len(points))
        return (yield from query(i))

    learner = active_learner("random index", program, n=3, m=1, concepts=C2, proper=False,
                             pal_claim=PrivacyClaim.of(0), source=Uncited("test"))
    data = ((0, 1), (1, 0), (2, 1))
    assert distribution(learner.run, data).as_dict() == {
        (1, (0,)): F(1, 3), (0, (1,)): F(1, 3), (1, (2,)): F(1, 3)}
    assert sample(learner.run, data, rng=np.random.default_rng(3))[1] in {(0,), (1,), (2,)}
