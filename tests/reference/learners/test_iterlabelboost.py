"""IterLabelBoost (004 Algorithm 4) = LabelBoost (000 Algorithm 3): contract, exact values, errors."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from fractions import Fraction
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.audits.exact import Verdict, audit_pair
from privref.reference.citations import Uncited
from privref.reference.composition import leak
from privref.reference.concepts import thresholds_on
from privref.reference.data import BOTTOM, Dataset, Label
from privref.reference.errors import InvalidArgument
from privref.reference.exponential import exponential_learner
from privref.reference.learners import iterlabelboost as itlb
from privref.reference.learners.base import Learner, as_learner
from privref.reference.learners.iterlabelboost import (
    amplified_claim,
    iter_label_boost,
    iteration_privacy_chain,
    keep_subset,
    privacy_devices,
    resample_draws,
)
from privref.reference.learners.schedule import PAPER_000, PAPER_004, LabelBoostConstants, size_schedule
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, distribution, uniform
from privref.reference.reals import exp

from ...stats import chi_square_pvalue, fits
from ..contracts import MechanismContract

F = Fraction
U = BOTTOM
T3 = thresholds_on(3)
EM = "2*ln(3/2)"
TINY_000 = replace(PAPER_000, alpha_divisor=F(1, 2), beta_divisor=F(1, 8),
                   exponent_divisor=F(7, 8), keep_iteration=F(1, 2), keep_final=F(1, 3),
                   stop_factor=3, cap_factor=6, unlabeled_factor=18)
TINY_004 = replace(TINY_000, version="004", v_over_e=True, exponent_divisor=F(2, 5),
                   v_s_coefficient=F(2))
ELEMENTS = tuple((x, y) for x in range(3) for y in (0, 1, U))
INPUTS: tuple[Dataset, ...] = (((0, 1), (2, 0), (1, U), (2, U), (0, U), (1, U)),
                               ((1, 1), (1, 0), (0, 1), (2, 1), (2, U), (0, 0)))


def em(base: str | None = None) -> Learner[Any]:
    mech = (exponential_learner(T3.concepts, epsilon=1) if base is None
            else exponential_learner(T3.concepts, epsilon=f"2*ln({base})"))
    return as_learner(mech, T3, proper=True)


def size_reporter() -> Learner[int]:
    """A base learner that outputs len(input): 0-DP under substitution (sizes are public)."""
    def program(data: Dataset) -> Program[int]:
        return len(data)
        yield  # pragma: no cover
    return as_learner(Mechanism("size", program, PrivacyClaim.of(0), Uncited("test")), T3,
                      proper=False)


def tiny(base: Learner[Any], constants: LabelBoostConstants = TINY_000, unlabeled: int = 4,
         **kw: Any) -> Learner[Any]:
    return iter_label_boost(base, alpha=F(1, 2), beta=F(1, 2), n=1, m=2, constants=constants,
                            unlabeled=unlabeled, **kw)


class TestIterLabelBoost000(MechanismContract):
    """000 Algorithm 3 with tiny constants (N = 1), rational EM and base: exact probabilities."""

    constructors = (iter_label_boost,)
    audited = 2

    def mechanism(self) -> Mechanism[Any]:
        return tiny(em("3/2"), em_epsilon=EM).mechanism

    def universe(self) -> Universe:
        return Universe(tuple((x, y) for x in range(2) for y in (0, 1)), (6,))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return list(INPUTS)

    def test_exact_audit_holds(self) -> None:
        """Overridden: all neighbors of the fixed inputs (the full universe is 4^6 datasets)."""
        mech = self.mechanism()
        for a in self.inputs()[:self.audited]:
            for i in range(len(a)):
                for e in ELEMENTS:
                    if e != a[i]:
                        b = (*a[:i], e, *a[i + 1:])
                        assert audit_pair(mech, a, b).verdict is Verdict.HOLDS
                        assert audit_pair(mech, b, a).verdict is Verdict.HOLDS


class TestIterLabelBoost004PapersEpsilon(TestIterLabelBoost000):
    """004 Algorithm 4 with tiny constants and the papers' ε_em = 1 (interval enclosures)."""

    samples = 1500
    audited = 1

    def mechanism(self) -> Mechanism[Any]:
        return tiny(em("3/2"), TINY_004).mechanism


def test_exact_law_of_the_tiny_run() -> None:
    """Sizes: S of 2 → keep 1, T = first 4 of D → keep 2, |S| = 3, Step 3 keeps 1, 1 draw."""
    learner = tiny(size_reporter(), em_epsilon=EM)
    for data in INPUTS:
        assert learner.distribution(data).as_dict() == {1: 1}
    two = tiny(size_reporter(), replace(TINY_000, keep_final=F(2, 3)), em_epsilon=EM)
    assert two.distribution(INPUTS[0]).as_dict() == {2: 1}
    assert tiny(size_reporter(), replace(TINY_000, keep_final=F(2, 3)), draws="n",
                em_epsilon=EM).distribution(INPUTS[0]).as_dict() == {1: 1}


@given(st.lists(st.sampled_from(ELEMENTS), min_size=6, max_size=6),
       st.sampled_from((TINY_000, TINY_004)), st.integers(0, 2**32 - 1))
def test_sizes_are_data_independent(entries: list[Hashable], constants: LabelBoostConstants,
                                    seed: int) -> None:
    """Whatever the data and coins, the base learner receives exactly schedule.draws() entries."""
    learner = tiny(size_reporter(), constants)
    expected = size_schedule(constants, F(1, 2), F(1, 2), 1, 2, 1, unlabeled=4).draws()
    assert learner.sample(tuple(entries), np.random.default_rng(seed)) == expected


def test_a_data_dependent_size_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutation: Step 4 draws one more entry per entry of S^3 at point 2.  The size reporter's
    output then depends on the data: the size check fails and the exact audit finds an infinite
    privacy loss (the claimed one is finite)."""
    def leaky_draws(entries: Dataset, draws: int) -> Program[Dataset]:
        extra = sum(1 for e in cast("tuple[tuple[int, Label], ...]", entries) if e[0] == 2)
        picked = []
        for _ in range(draws + extra):
            j = yield from uniform(len(entries))
            picked.append(entries[j])
        return tuple(picked)

    monkeypatch.setattr(itlb, "resample_draws", leaky_draws)
    learner = tiny(size_reporter(), em_epsilon=EM)
    supports = {learner.distribution(d).support() for d in INPUTS}
    assert supports != {(1,)}
    a: Dataset = ((0, 1), (1, 0), (0, U), (1, U), (0, U), (1, U))   # no point 2 anywhere
    b = ((2, 1), *a[1:])
    verdicts = {audit_pair(learner.mechanism, a, b).verdict, audit_pair(learner.mechanism, b,
                                                                          a).verdict}
    assert Verdict.VIOLATED in verdicts


def test_devices_compose_to_the_algorithm() -> None:
    """𝓛_N built from LabelBoost and subsampling blocks has exactly IterLabelBoost's law (also
    with one unused entry of D at the end: T is the *first* v entries of D)."""
    for constants, extra in ((TINY_000, 0), (TINY_004, 0), (TINY_000, 1)):
        base = em("3/2")
        dev = privacy_devices(base, alpha=F(1, 2), beta=F(1, 2), n=1, m=2, constants=constants,
                              unlabeled=4 + extra, em_epsilon=EM)
        learner = tiny(base, constants, unlabeled=4 + extra, em_epsilon=EM)
        assert len(dev.tails) == 2 and len(dev.boosted) == 1
        for data in (d + ((0, U),) * extra for d in INPUTS):
            assert dev.tails[-1].distribution(data).as_dict() == \
                learner.distribution(data).as_dict()
        assert str(dev.tails[-1].claim) == str(learner.claim)


def test_chain_claims_exact() -> None:
    """Tiny schedule, pure base (ε = 2 ln 3/2): 𝓛_0 = ln(1 + 243/3) = ln 82; 𝓛′_1 = ln 82 + ln 9;
    𝓛_1 = ln(1 + (738 − 1)/2) = ln(739/2)."""
    sched = size_schedule(TINY_000, F(1, 2), F(1, 2), 1, 2, 1, unlabeled=4)
    chain = iteration_privacy_chain(sched, em("3/2").claim, em_epsilon=EM)
    assert [exp(c.epsilon).exact for c in chain] == [82, F(739, 2)]
    assert all(c.delta == 0 for c in chain)
    assert str(tiny(em("3/2"), em_epsilon=EM).claim) == str(chain[-1])
    leaky = PrivacyClaim.of(EM, F(1, 10000))
    assert iteration_privacy_chain(sched, leaky, em_epsilon=EM)[0].delta == F(2467, 30000)


def test_paper_learner_claims_one_41_delta() -> None:
    """Paper constants, base (1, δ): (1, 41δ) (000 Lemma 4.6 / 004 Lemma C.4), built at real sizes."""
    base = as_learner(leak(exponential_learner(T3.concepts, epsilon=1), F(1, 10**6)), T3,
                      proper=False)
    for constants, source in ((PAPER_000, "000 Lemma 4.6"), (PAPER_004, "004 Lemma C.4")):
        learner = iter_label_boost(base, alpha=F(1, 2), beta=F(1, 2), n=10**5, m=10**7,
                                   constants=constants)
        assert learner.claim.epsilon.exact == 1 and learner.claim.delta == F(41, 10**6)
        assert str(learner.source) == source and not learner.proper
        sched = size_schedule(constants, F(1, 2), F(1, 2), 10**5, 10**7, 1)
        for c in iteration_privacy_chain(sched, base.claim, how="paper"):
            assert c.delta <= F(41, 10**6)


def test_amplified_claim() -> None:
    inner = PrivacyClaim.of("ln(3)", F(1, 100))
    tight = amplified_claim(inner, F(1, 4), "tight")
    assert exp(tight.epsilon).exact == F(3, 2) and tight.delta == F(1, 400)
    paper = amplified_claim(inner, F(1, 6), "paper")
    assert paper.epsilon.exact == 1 and paper.delta == F(4, 600)
    zero = amplified_claim(inner, F(0), "tight")
    assert zero.epsilon.exact == 0 and zero.delta == 0
    with pytest.raises(InvalidArgument, match=r"outside 004 Claim C.1"):
        amplified_claim(inner, F(1, 2), "paper")
    with pytest.raises(InvalidArgument, match="how='x'"):
        amplified_claim(inner, F(1, 2), "x")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="q=2 must lie in"):
        amplified_claim(inner, F(2), "tight")


def test_random_steps_exact_laws() -> None:
    subsets = distribution(keep_subset, (1, 2, 3, 4), 2).as_dict()
    assert len(subsets) == 6 and set(subsets.values()) == {F(1, 6)}
    draws = distribution(resample_draws, (1, 2), 2).as_dict()
    assert draws == {(1, 1): F(1, 4), (1, 2): F(1, 4), (2, 1): F(1, 4), (2, 2): F(1, 4)}
    with pytest.raises(InvalidArgument, match="k=3 must lie in"):
        distribution(keep_subset, (1, 2), 3)


def test_sampler_of_the_papers_epsilon_run() -> None:
    learner = tiny(em(), TINY_000)
    data = INPUTS[0]
    pvalue = chi_square_pvalue(learner.distribution(data), lambda rng: learner.sample(data, rng),
                               n=1500)
    assert fits(pvalue, "iterated LabelBoost sampler (paper's epsilon run)"), pvalue


def test_proper_outputs() -> None:
    learner = tiny(em("3/2"), em_epsilon=EM)
    assert learner.proper
    for data in INPUTS:
        assert all(h in T3 for h, _ in learner.distribution(data).items())


def test_bad_arguments_raise_named_errors() -> None:
    base = em("3/2")
    with pytest.raises(InvalidArgument, match="stalls"):
        iter_label_boost(base, alpha=F(1, 2), beta=F(1, 2), n=1, m=1, constants=TINY_000,
                         unlabeled=4)
    with pytest.raises(InvalidArgument, match="fails"):
        iter_label_boost(base, alpha=F(1, 2), beta=F(1, 2), n=1, m=2, constants=TINY_000,
                         unlabeled=3)
    with pytest.raises(InvalidArgument, match="Step 3 keeps s_final=0"):
        tiny(base, replace(TINY_000, keep_final=F(1, 4)))
    with pytest.raises(InvalidArgument, match="base="):
        tiny(base.mechanism)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="mode='all'"):
        tiny(base, draws="all")
    with pytest.raises(InvalidArgument, match=r"exactly m \+ \|D\| = 6"):
        tiny(base).distribution(INPUTS[0][:5])
    with pytest.raises(InvalidArgument, match="inner epsilon"):
        tiny(em("3"))                        # ε = 2 ln 3 > 1: Claim C.3 does not apply
