"""LabelBoost (004 Algorithm 2) and LabelBoostProcedure (000 Algorithm 2): contract, exact values, errors."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from fractions import Fraction
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.audits.exact import Verdict, audit
from privref.reference.composition import leak
from privref.reference.concepts import thresholds_on
from privref.reference.data import BOTTOM
from privref.reference.errors import InvalidArgument, UnknownLabel
from privref.reference.exponential import exponential_learner
from privref.reference.learners.base import Learner, as_learner
from privref.reference.learners.labelboost import (
    LabelBoostProcedure,
    boosted_learner,
    label_boost,
    label_boost_procedure,
    labelboost_claim,
    labelboost_hypotheses,
    labelboost_tight_claim,
    relabel,
)
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import Interval, exp

from ...stats import chi_square_pvalue, fits
from ..contracts import MechanismContract

F = Fraction
U = BOTTOM
T2, T3 = thresholds_on(2), thresholds_on(3)
EM = "2*ln(3/2)"                              # rational-base exponential mechanism inside


def em_learner(C: Any, base: str | None = None) -> Learner[Any]:
    mech = (exponential_learner(C.concepts, epsilon=1) if base is None
            else exponential_learner(C.concepts, epsilon=f"2*ln({base})"))
    return as_learner(mech, C, proper=True)


def elements(n_points: int, labels: tuple[object, ...] = (0, 1)) -> tuple[Hashable, ...]:
    return tuple((x, y) for x in range(n_points) for y in labels)


class TestLabelBoostPapersEpsilon(MechanismContract):
    """The printed algorithm: EM at ε = 1 (interval enclosures), base EM at ε = 1."""

    constructors = (label_boost,)
    samples = 1500

    def mechanism(self) -> Mechanism[Any]:
        return label_boost(em_learner(T2), s=1, t=1, d=1).mechanism

    def universe(self) -> Universe:
        return Universe(elements(2, (0, 1, U)), (3,))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [((0, 1), (1, U), (0, U)), ((1, 0), (0, 1), (1, 1))]


class TestLabelBoostRational(MechanismContract):
    """Rational EM (ε_em = 2 ln 3/2) and base (base 3/2): exact probabilities."""

    constructors = (label_boost,)

    def mechanism(self) -> Mechanism[Any]:
        return label_boost(em_learner(T3, "3/2"), s=2, t=1, d=0, em_epsilon=EM).mechanism

    def universe(self) -> Universe:
        return Universe(elements(3), (3,))

    def inputs(self) -> list[tuple[Hashable, ...]]:
        return [((0, 1), (2, 0), (1, U)), ((2, 1), (2, 1), (0, 0))]

    def test_distribution_is_exact(self) -> None:
        for data in self.inputs():
            assert self.mechanism().distribution(data).total() == 1
            assert self.mechanism().distribution(data).is_exact


def test_procedure_exact_law() -> None:
    """000 Algorithm 2 on S = ((0,1),(2,0)), T = ((1,⊥)) over THRESH_3, ε_em = 2 ln 3/2.

    H = c_0..c_3 (all 4 patterns on {0,1,2}); agreements with S: 1, 2, 2, 1, so the weights
    (3/2)^q give 1/5, 3/10, 3/10, 1/5; each h relabels S∘T by its values.
    """
    lbp = label_boost_procedure(T3, s=2, t=1, d=0, em_epsilon=EM)
    law = lbp.distribution(((0, 1), (2, 0), (1, U))).as_dict()
    assert law == {((0, 0), (2, 0), (1, 0)): F(1, 5), ((0, 1), (2, 0), (1, 0)): F(3, 10),
                   ((0, 1), (2, 0), (1, 1)): F(3, 10), ((0, 1), (2, 1), (1, 1)): F(1, 5)}


def test_procedure_at_eps_one_encloses_the_exact_weights() -> None:
    """Same input at ε_em = 1: probabilities e^{q/2}/Σ, enclosed by the intervals."""
    law = label_boost_procedure(T3, s=2, t=1, d=1).distribution(((0, 1), (2, 0), (1, U), (2, U)))
    total = exp(F(1, 2)) * 2 + exp(1) * 2
    for out, p in law.items():
        assert out[3] == (2, U)                      # D passes through untouched
        assert isinstance(p, Interval)
        q = 2 if out[:2] == ((0, 1), (2, 0)) else 1
        true = (exp(F(q, 2)) / total).enclose(200)
        assert p.lo <= true.lo and true.hi <= p.hi


def test_procedure_sampler_agrees() -> None:
    lbp = label_boost_procedure(T3, s=2, t=1, d=0, em_epsilon=EM)
    data = ((0, 1), (2, 0), (1, U))
    pvalue = chi_square_pvalue(lbp.distribution(data), lambda rng: lbp.sample(data, rng=rng), n=3000)
    assert fits(pvalue, "LabelBoost procedure sampler"), pvalue


def test_boosted_equals_label_boost() -> None:
    """𝓑 = 𝒜∘LabelBoostProcedure (000 Lemma 4.1) and 004 LabelBoost: same law, same claim."""
    base = em_learner(T2, "3/2")
    one = label_boost(base, s=2, t=1, d=1, em_epsilon=EM)
    two = boosted_learner(base, label_boost_procedure(T2, s=2, t=1, d=1, em_epsilon=EM))
    assert str(one.claim) == str(two.claim)
    assert (str(one.source), str(two.source)) == ("004 Lemma 4.1 (corrected)", "000 Lemma 4.1")
    for data in (((0, 1), (1, 0), (1, U), (0, U)), ((1, 1), (1, 1), (0, 1), (1, 0))):
        assert one.distribution(data).as_dict() == two.distribution(data).as_dict()


def test_claims() -> None:
    """(ε + 3, 4eδ) at ε_em = 1 (δ rounded up, tightly); (ε + ln 4r², 4r²δ) for base r; tight δ."""
    inner = PrivacyClaim.of(1, F(1, 100))
    paper = labelboost_claim(inner)
    assert paper.epsilon.exact == 4
    true = (exp(1) * F(4, 100)).enclose(200)
    assert true.hi <= paper.delta <= true.hi + F(1, 2**90)
    ln2 = PrivacyClaim.of("ln(2)", F(1, 100))
    rat = labelboost_claim(ln2, EM)                                  # 4·(3/2)^2 = 9
    assert rat.delta == F(9, 100) and exp(rat.epsilon).exact == 18
    tight = labelboost_tight_claim(ln2, EM)
    assert tight.delta == F(1, 100) and exp(tight.epsilon).exact == 18
    assert labelboost_claim(PrivacyClaim.of(2)).delta == 0           # pure in, pure out
    with pytest.raises(InvalidArgument, match=r"delta=.* must be < 1"):
        labelboost_claim(PrivacyClaim.of(1, F(1, 10)))               # 4e/10 >= 1


def test_proper_iff_base_proper() -> None:
    assert label_boost(em_learner(T3), s=2, t=1, d=0).proper
    leaky = as_learner(leak(exponential_learner(T3.concepts, epsilon="2*ln(3/2)"), "1/20"), T3,
                       proper=False)
    assert not label_boost(leaky, s=2, t=1, d=0).proper
    lb = label_boost(em_learner(T3, "3/2"), s=2, t=1, d=0, em_epsilon=EM)
    for data in (((0, 1), (2, 0), (1, U)), ((1, 1), (1, 0), (2, 1))):
        assert all(h in T3 for h, _ in lb.distribution(data).items())


@given(st.lists(st.sampled_from(elements(3, (0, 1, U))), min_size=1, max_size=5))
def test_hypothesis_set_depends_on_the_point_set_only(entries: list[Hashable]) -> None:
    """H: one canonical concept per pattern of Π_C(P), the same for any order/multiplicity of P."""
    data = tuple(entries)
    H = labelboost_hypotheses(T3, data[:1], data[1:])
    points = {e[0] for e in data}  # type: ignore[index]
    assert len(H) == len({tuple(h(x) for x in sorted(points)) for h in T3})  # |Π_C(P)|
    assert labelboost_hypotheses(T3, (), tuple(reversed(data)) + data) == H


def test_exact_audits_at_the_claims() -> None:
    """Papers' ε_em = 1 at (ε + 3, 4eδ) with a δ-leak; the tight (ε + ln 4r², δ) holds exactly."""
    leaky = as_learner(leak(exponential_learner(T2.concepts, epsilon="2*ln(21/20)"), "1/20"), T2,
                       proper=False)
    assert audit(label_boost(leaky, s=2, t=1, d=0).mechanism,
                 Universe(elements(2), (3,))).verdict is Verdict.HOLDS
    rat = label_boost(leaky, s=2, t=1, d=0, em_epsilon=EM)
    report = audit(rat.mechanism, Universe(elements(2), (3,)),
                   claim=labelboost_tight_claim(leaky.claim, EM))
    assert report.verdict is Verdict.HOLDS


def test_audit_fails_when_the_em_epsilon_is_dropped() -> None:
    """Mutation: an almost deterministic relabeling (ε_em = 2 ln 10^4) under the ε_em = 1 claim.

    𝒜 = EM with base 10 (ε = 2 ln 10), |S| = 1, |T| = 3: the true LabelBoost's loss is ≈ 0.74,
    the mutant's ≈ 8.8 > ε + 3 ≈ 7.6, so the exact audit must report VIOLATED.
    """
    base = em_learner(T2, "10")
    uni = Universe(elements(2), (4,))
    claim = labelboost_claim(base.claim)
    good = label_boost(base, s=1, t=3, d=0, em_epsilon=EM)
    bad = label_boost(base, s=1, t=3, d=0, em_epsilon="2*ln(10000)")
    assert audit(good.mechanism, uni, claim=claim).verdict is Verdict.HOLDS
    assert audit(bad.mechanism, uni, claim=claim).verdict is Verdict.VIOLATED


def test_relabel() -> None:
    assert relabel(((0, 1), (2, U)), T3[1]) == ((0, 1), (2, 0))
    with pytest.raises(UnknownLabel):
        relabel(((0, 7),), T3[1])


def test_bad_arguments_raise_named_errors() -> None:
    base = em_learner(T3)
    with pytest.raises(InvalidArgument, match="s=-1 must be >= 0"):
        label_boost(base, s=-1, t=1, d=0)
    with pytest.raises(InvalidArgument, match=r"base=.* must be a reference.learners.Learner"):
        label_boost(base.mechanism, s=1, t=1, d=0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match=r"em_epsilon=nan must be a finite number"):
        label_boost(base, s=1, t=1, d=0, em_epsilon=float("nan"))
    label_boost(base, s=1, t=1, d=0, em_epsilon=0.5)  # a float is its exact binary value, 1/2
    with pytest.raises(InvalidArgument, match=r"concepts=.* must be a ConceptClass"):
        label_boost(base, s=1, t=1, d=0, concepts="THRESH")  # type: ignore[arg-type]
    lb = label_boost(base, s=2, t=1, d=0)
    with pytest.raises(InvalidArgument, match=r"exactly \|S\|\+\|T\|\+\|D\| = 2\+1\+0 = 3"):
        lb.distribution(((0, 1), (1, 0)))
    with pytest.raises(InvalidArgument, match=r"S∘T\[1\]\[0\]=9"):
        lb.distribution(((0, 1), (9, 0), (1, U)))
    with pytest.raises(UnknownLabel, match="label=2"):
        lb.distribution(((0, 1), (1, 2), (1, U)))
    with pytest.raises(InvalidArgument, match="procedure="):
        boosted_learner(base, "LBP")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="concepts="):
        LabelBoostProcedure("C", 1, 1, 1)  # type: ignore[arg-type]


def test_values_are_immutable() -> None:
    lbp = label_boost_procedure(T3, s=1, t=1, d=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        lbp.s = 2  # type: ignore[misc]
    rng = np.random.default_rng(5)
    out = lbp.sample(((0, 1), (1, U)), rng=rng)
    assert isinstance(out, tuple) and len(out) == 2 and cast("tuple[int, int]", out[0])[0] == 0
