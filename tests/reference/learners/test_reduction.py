"""003 Algorithms 2-4 (reference.learners.reduction): exact laws, samplers, privacy, bad inputs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from fractions import Fraction
from typing import TypeVar

import numpy as np
import pytest

from privref.audits.exact import audit
from privref.reference.citations import Uncited
from privref.reference.concepts import Concept, thresholds_on
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument
from privref.reference.learners.reduction import (
    PRIVSAMP,
    PUBSAMP,
    REDUCTION_SOURCE,
    DummyDistribution,
    SemiPrivateLearner,
    coupled_public_sample,
    error,
    exhaustion_probability,
    exponential_semi_private_learner,
    mixture,
    priv_samp,
    product_law,
    reduction,
    reduction_input_size,
    reduction_mixing_rate,
    total_variation,
)
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import SUBSTITUTION, PublicPrivate, Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, distribution, sample
from privref.reference.reals import Prob, rational
from privref.reference.validate import ExactInput
from privref.reference.verdict import Verdict

from ...stats import chi_square_pvalue, fits

F = Fraction
K = TypeVar("K")
H2 = thresholds_on(2)
D0 = DummyDistribution.uniform_on((0, 1))
ELEMENTS: tuple[Hashable, ...] = tuple((x, y) for x in (0, 1) for y in (0, 1))


def _exact(items: Iterable[tuple[K, Prob]]) -> dict[K, Fraction]:
    out: dict[K, Fraction] = {}
    for k, q in items:
        assert isinstance(q, Fraction)
        out[k] = q
    return out


def _a(base: ExactInput = 2, public_weight: int = 1) -> SemiPrivateLearner[Concept]:
    return exponential_semi_private_learner(H2, base=base, n_priv=3, n_pub=1,
                                            public_weight=public_weight)


def test_paper_parameters() -> None:
    assert reduction_input_size(10, 1) == 1
    assert reduction_input_size(11, 1) == 2
    assert reduction_input_size(100, 5) == 2
    assert reduction_mixing_rate(3) == F(1, 300)


def test_dummy_distribution_law_has_uniform_labels() -> None:
    d0 = DummyDistribution((0, 1, 2), (F(1), F(3), F(0)))
    law = d0.law()
    assert sum(law.values()) == 1
    assert law == {(0, 0): F(1, 8), (0, 1): F(1, 8), (1, 0): F(3, 8), (1, 1): F(3, 8)}


@pytest.mark.parametrize("s_tilde", [((0, 1),), ((0, 1), (0, 1)), ((1, 0), (0, 1))])
@pytest.mark.parametrize("p", [F(0), F(1, 3), F(1)])
def test_privsamp_law_sums_to_one_and_uses_each_entry_at_most_once(
        s_tilde: Dataset, p: Fraction) -> None:
    point = DummyDistribution((5,), (F(1),))  # D_0 points never collide with S̃ entries
    dist = PRIVSAMP.distribution(s_tilde, point, p, 3)
    assert dist.is_exact and dist.total() == 1
    exhausted = F(0)
    for (s_priv, flag), q in _exact(dist.items()).items():
        assert len(s_priv) == 3
        used = [z for z in s_priv if z[0] != 5]
        assert used == list(s_tilde[:len(used)])  # in order, each position at most once
        if flag:
            assert used == list(s_tilde)
            exhausted += q
    assert exhausted == exhaustion_probability(3, len(s_tilde), p)
    if p == 1:
        assert all(s[:len(s_tilde)] == s_tilde for (s, _), _q in dist.items())
    if p == 0:
        assert all(not flag and all(z[0] == 5 for z in s) for (s, flag), _q in dist.items())


def test_pubsamp_is_d0_product_and_zero_dp() -> None:
    law = PUBSAMP.distribution(D0, 2).as_dict()
    assert law == product_law(D0.law(), 2)
    assert PUBSAMP.claim is not None
    assert PUBSAMP.claim.epsilon.exact == 0 and PUBSAMP.claim.delta == 0
    assert PUBSAMP.source == "003 Algorithm 4"
    assert PRIVSAMP.source == "003 Algorithm 3" and PRIVSAMP.claim is None


@pytest.mark.parametrize("generator", ["PrivSamp", "PubSamp"])
def test_sample_generators_sampler_agrees_with_law(generator: str) -> None:
    """Both interpreters of the one program(*args) (reference.mechanism.Interpreted) agree."""
    gen, args = ((PRIVSAMP, (((5, 1), (6, 0)), D0, F(1, 2), 3)) if generator == "PrivSamp"
                 else (PUBSAMP, (D0, 2)))
    law = gen.distribution(*args)
    assert law.is_exact and law.total() == 1 and gen.name == generator
    pvalue = chi_square_pvalue(law, lambda rng: gen.sample(*args, rng=rng), n=3000)
    assert fits(pvalue, f"{generator} sampler"), pvalue


def test_reduction_records_claim_and_source() -> None:
    a = _a()
    b = reduction(a, D0)
    assert b.claim == a.mechanism.claim
    assert b.source == REDUCTION_SOURCE and str(REDUCTION_SOURCE) == "003 Claim 4.5"
    assert b.relation == SUBSTITUTION
    dist = b.distribution(((0, 1),))
    assert dist.is_exact and dist.total() == 1
    assert set(dist.support()) <= set(H2)


def test_reduction_with_p_one_feeds_s_tilde_first() -> None:
    def echo(data: Dataset) -> Program[Dataset]:
        return data
        yield  # pragma: no cover

    a = SemiPrivateLearner(Mechanism("echo", echo, PrivacyClaim(rational(1)), Uncited("test"),
                                     relation=PublicPrivate(1)), 3, 1)
    dist = reduction(a, D0, p=1, n_tilde=2).distribution(((0, 1), (1, 0)))
    assert dist.total() == 1
    for out, _q in dist.items():
        assert out[1:3] == ((0, 1), (1, 0))  # public first, then S̃ in order
        assert out[0] in D0.law() and out[3] in D0.law()


def test_unlabeled_public_passes_bare_points() -> None:
    def public_part(data: Dataset) -> Program[Hashable]:
        return data[0]
        yield  # pragma: no cover

    a = SemiPrivateLearner(Mechanism("pub", public_part, PrivacyClaim(rational(1)), Uncited("test"),
                                     relation=PublicPrivate(1)), 3, 1, unlabeled_public=True)
    law = reduction(a, D0).distribution(((0, 1),)).as_dict()
    assert law == {0: F(1, 2), 1: F(1, 2)}


def test_sampler_agrees_with_exact_law() -> None:
    b = reduction(_a(), D0, p=F(1, 2), n_tilde=2)
    data = ((0, 1), (1, 1))
    exact = _exact(b.distribution(data).items())
    rng = np.random.default_rng(20261122)
    n = 3000
    counts = Counter(b.sample(data, rng) for _ in range(n))
    assert set(counts) <= set(exact)
    empirical = {h: F(c, n) for h, c in counts.items()}
    assert total_variation(empirical, exact) < F(4, 100)


def test_privsamp_sampler_agrees_with_exact_law() -> None:
    args = (((0, 1), (1, 0)), D0, F(1, 2), 2)
    exact = _exact(distribution(priv_samp, *args).items())
    rng = np.random.default_rng(7)
    n = 3000
    counts = Counter(sample(priv_samp, *args, rng=rng) for _ in range(n))
    assert set(counts) <= set(exact)
    assert total_variation({k: F(c, n) for k, c in counts.items()},
                           exact) < F(8, 100)


def test_exact_audits_hold_at_the_claim() -> None:
    universe = Universe(ELEMENTS, (1,))
    assert audit(reduction(_a(), D0), universe).verdict is Verdict.HOLDS
    stressed = reduction(_a(), D0, p=F(1, 2), n_tilde=2)
    assert audit(stressed, Universe(ELEMENTS, (2,))).verdict is Verdict.HOLDS


def test_semi_private_learner_itself_is_private_in_its_private_part() -> None:
    a = _a()
    report = audit(a.mechanism, Universe(ELEMENTS, (3,), public=((0, 1),)))
    assert report.verdict is Verdict.HOLDS


def test_coupled_public_sample_marginals() -> None:
    d = (((0, 1), F(1, 2)), ((1, 1), F(1, 2)))
    joint = _exact(distribution(coupled_public_sample, d, D0, F(1, 4), 1).items())
    same = sum((q for (s, t), q in joint.items() if s == t), F(0))
    assert same >= F(3, 4)
    hat: dict[Dataset, Fraction] = {}
    for (_s, t), q in joint.items():
        hat[t] = hat.get(t, F(0)) + q
    assert hat == product_law(mixture(dict(d), D0, F(1, 4)), 1)


def test_mixture_error_identity() -> None:
    d = {(0, 1): F(1, 2), (1, 1): F(1, 2)}
    for h in H2:
        assert error(h, mixture(d, D0, F(1, 5))) == F(1, 5) * error(h, d) + F(4, 5) / 2


def test_exhaustion_probability_values() -> None:
    assert exhaustion_probability(10, 1, F(1, 100)) == 1 - F(99, 100) ** 9
    assert exhaustion_probability(1, 1, F(1, 2)) == 0
    assert exhaustion_probability(3, 3, F(1)) == 0


def test_bad_inputs_raise() -> None:
    a = _a()
    b = reduction(a, D0)
    with pytest.raises(InvalidArgument):
        b.distribution(((0, 1), (1, 1)))  # ñ = 1
    with pytest.raises(InvalidArgument):
        reduction(a, D0, p=F(3, 2))
    with pytest.raises(InvalidArgument):
        reduction(a, D0, n_tilde=0)
    with pytest.raises(InvalidArgument):
        reduction("not a learner", D0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument):
        reduction(a, "not a distribution")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument):
        SemiPrivateLearner(a.mechanism, 3, 2)  # relation is PublicPrivate(1)
    with pytest.raises(InvalidArgument):
        SemiPrivateLearner(a.mechanism, 0, 1)
    with pytest.raises(InvalidArgument):
        DummyDistribution((), ())
    with pytest.raises(InvalidArgument):
        DummyDistribution((0, 0), (F(1), F(1)))
    with pytest.raises(InvalidArgument):
        DummyDistribution((0, 1), (F(-1), F(1)))
    with pytest.raises(InvalidArgument):
        DummyDistribution((0, 1), (F(0), F(0)))
    with pytest.raises(InvalidArgument):
        exponential_semi_private_learner(H2, base=1, n_priv=3, n_pub=1)
    with pytest.raises(InvalidArgument):
        a.mechanism.distribution(((0, 1),))  # too short for n_pub + n_priv
    with pytest.raises(InvalidArgument):
        reduction_input_size(0, 1)
    with pytest.raises(InvalidArgument):
        exhaustion_probability(3, 1, F(2))
    with pytest.raises(InvalidArgument):
        mixture_law_bad = {(0, 1): F(1, 2)}
        distribution(coupled_public_sample, tuple(mixture_law_bad.items()), D0, F(1, 2), 1)
