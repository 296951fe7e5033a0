"""Integer noise laws: exact/enclosed pmfs that sum to 1, exact samplers, input validation."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from privref.reference.discrete_noise import (
    DiscreteGaussian,
    DiscreteLaplace,
    NoiseLaw,
    TwoSidedGeometric,
    bernoulli_exp_neg,
    bernoulli_exp_neg_array,
    discrete_gaussian,
    discrete_laplace,
    discrete_laplace_array,
    two_sided_geometric,
)
from privref.reference.errors import InvalidArgument
from privref.reference.geometric import (
    discrete_gaussian_mechanism,
    discrete_laplace_mechanism,
    geometric_mechanism,
)
from privref.reference.program import Affine, Distribution, distribution, sample
from privref.reference.reals import Interval, Prob, prob_add, prob_as_interval

from ..stats import chi_square_pvalue, fits

LAWS: list[NoiseLaw] = [
    TwoSidedGeometric(Fraction(1, 2)),
    TwoSidedGeometric(Fraction(9, 10)),
    DiscreteLaplace(Fraction(3, 2)),
    DiscreteLaplace(Fraction(1, 3)),
    DiscreteGaussian(Fraction(1)),
    DiscreteGaussian(Fraction(7, 3)),
    DiscreteGaussian(Fraction(1, 5)),
]


def _total(law: NoiseLaw, k: int) -> Prob:
    """Σ_{|z|<=k} P(z) + 2·P(Z >= k+1): the whole mass, by symmetry."""
    acc: Prob = Fraction(0)
    for z in range(-k, k + 1):
        acc = prob_add(acc, law.pmf(z))
    tail = law.tail_mass(k + 1)
    return prob_add(acc, prob_add(tail, tail))


@pytest.mark.parametrize("k", [0, 1, 5, 30])
def test_geometric_pmf_sums_to_exactly_one(k: int) -> None:
    """Window sum plus the closed-form tails is exactly 1 (rational arithmetic)."""
    for alpha in (Fraction(1, 2), Fraction(9, 10), Fraction(1, 1000)):
        assert _total(TwoSidedGeometric(alpha), k) == 1


@pytest.mark.parametrize("law", LAWS, ids=repr)
def test_pmf_total_encloses_one(law: NoiseLaw) -> None:
    """The enclosure of the total mass contains 1 and is tight."""
    for k in (0, 3, 12):
        box = prob_as_interval(_total(law, k))
        assert box.lo <= 1 <= box.hi
        assert box.width < Fraction(1, 2**80)


@pytest.mark.parametrize("law", LAWS, ids=repr)
def test_tail_mass_differences_enclose_pmf(law: NoiseLaw) -> None:
    """P(Z >= k) - P(Z >= k+1) = P(k), and the law is symmetric."""
    for k in range(0, 6):
        diff = prob_as_interval(law.tail_mass(k)) - prob_as_interval(law.tail_mass(k + 1))
        point = prob_as_interval(law.pmf(k))
        assert diff.lo <= point.hi and point.lo <= diff.hi
        assert law.pmf(k) == law.pmf(-k)


def test_gaussian_tail_bound_is_an_upper_bound() -> None:
    """The proved tail bound dominates a long explicit sum (and the normalizer encloses it)."""
    law = DiscreteGaussian(Fraction(2))
    n = law.normalizer()
    explicit = sum(math.exp(-z * z / 4) for z in range(-200, 201))
    assert float(n.lo) <= explicit * (1 + 1e-12) and explicit <= float(n.hi) * (1 + 1e-12)
    for k in (1, 2, 5):
        direct = sum(math.exp(-z * z / 4) for z in range(k, 300)) / explicit
        assert direct <= float(prob_as_interval(law.tail_mass(k)).hi) * (1 + 1e-9)
    for k in (1, 2, 5, 20):  # the unnormalized bound itself, against a long explicit sum
        direct = sum(math.exp(-z * z / 4) for z in range(k, k + 400))
        bound = float(law.tail_weight_upper_bound(k))
        assert direct <= bound * (1 + 1e-12)
        assert bound <= direct * (1 / (1 - math.exp(-k / 2))) * (1 + 1e-9)


def _binned(law: NoiseLaw, bound: int) -> tuple[Distribution[Hashable],
                                                Callable[[np.random.Generator], Hashable]]:
    """The law of Z binned into {-bound..bound} and the two tails, with a matching sampler."""
    probs: dict[Hashable, Prob] = {z: law.pmf(z) for z in range(-bound, bound + 1)}
    probs["low"] = probs["high"] = law.tail_mass(bound + 1)

    def draw(rng: np.random.Generator) -> Hashable:
        z = law.draw(rng)
        return "low" if z < -bound else "high" if z > bound else z
    return Distribution.from_mapping(probs), draw


@pytest.mark.parametrize(("law", "bound", "n"), [
    (TwoSidedGeometric(Fraction(1, 2)), 5, 8000),
    (TwoSidedGeometric(Fraction(4, 5)), 8, 8000),
    (DiscreteLaplace(Fraction(3, 2)), 6, 5000),
    (DiscreteLaplace(Fraction(2, 7)), 2, 5000),
    (DiscreteGaussian(Fraction(2)), 4, 5000),
    (DiscreteGaussian(Fraction(1, 3)), 2, 5000),
    (DiscreteGaussian(Fraction(30)), 12, 4000),
], ids=repr)
def test_sampler_matches_pmf(law: NoiseLaw, bound: int, n: int) -> None:
    """Seeded chi-square test (one recorded ``fits``: tests.stats.FALSE_POSITIVE_RATE for a random seed)."""
    dist, draw = _binned(law, bound)
    assert fits(chi_square_pvalue(dist, draw, n=n, seed=20260101), f"{law!r} sampler vs pmf")


@pytest.mark.parametrize("gamma", [Fraction(0), Fraction(1, 3), Fraction(1), Fraction(5, 2)])
def test_bernoulli_exp_neg_probability(gamma: Fraction) -> None:
    """CKS20 Algorithm 1 returns True with probability e^{-γ} (seeded binomial test)."""
    rng = np.random.default_rng(99)
    n = 8000
    hits = sum(bernoulli_exp_neg(rng, gamma) for _ in range(n))
    if gamma == 0:
        assert hits == n
        return
    assert fits(stats.binomtest(hits, n, math.exp(-float(gamma))).pvalue, f"bernoulli_exp_neg({gamma})")


def test_program_helpers_yield_affine_noise() -> None:
    """Under the exact interpreter the helpers return an Affine placeholder, never a truncation."""
    for program, law in ((lambda: two_sided_geometric(Fraction(1, 3)),
                          TwoSidedGeometric(Fraction(1, 3))),
                         (lambda: discrete_laplace(Fraction(2)), DiscreteLaplace(Fraction(2))),
                         (lambda: discrete_gaussian(Fraction(5)), DiscreteGaussian(Fraction(5)))):
        dist = distribution(program)
        assert dist.items() == ()
        assert dist.components == ((Affine(law), Fraction(1)),)
        assert isinstance(sample(program, rng=np.random.default_rng(0)), int)


def test_mechanisms_sample_integers_and_return_affine_laws() -> None:
    """count + noise: components at the count, samples are integers."""
    rng = np.random.default_rng(4)
    for mech in (geometric_mechanism(Fraction(1, 2)), discrete_laplace_mechanism(2),
                 discrete_gaussian_mechanism(3)):
        dist = mech.distribution((1, 0, 1))
        ((aff, weight),) = dist.components
        assert (aff.sign, aff.offset) == (1, 2)
        assert weight == Fraction(1)
        assert isinstance(mech.sample((1, 1), rng), int)


@pytest.mark.parametrize(("make", "message"), [
    (lambda: TwoSidedGeometric(Fraction(3, 2)), r"alpha=3/2 must lie in \(0, 1\)"),
    (lambda: TwoSidedGeometric(Fraction(0)), r"alpha=0 must lie in \(0, 1\)"),
    (lambda: TwoSidedGeometric(1.5), r"alpha=3/2 must lie in \(0, 1\)"),  # type: ignore[arg-type]
    (lambda: DiscreteLaplace(Fraction(0)), r"scale=0 must be > 0"),
    (lambda: DiscreteGaussian(Fraction(-1)), r"sigma2=-1 must be > 0"),
    (lambda: DiscreteGaussian(Fraction(1)).pmf(1.5), r"z=1.5 must be an int"),  # type: ignore[arg-type]
    (lambda: DiscreteLaplace(Fraction(1)).tail_mass(-1), r"k=-1 must be >= 0"),
    (lambda: bernoulli_exp_neg(np.random.default_rng(0), Fraction(-1)), r"gamma=-1 must be >= 0"),
    (lambda: geometric_mechanism(1), r"alpha=1 must lie in \(0, 1\)"),
    (lambda: geometric_mechanism(Fraction(1, 2), 0), r"sensitivity=0 must be >= 1"),
    (lambda: discrete_gaussian_mechanism(1, delta=0), r"delta=0 must be > 0"),
    (lambda: geometric_mechanism(Fraction(1, 2)).distribution((0, 2)),
     r"data\[1\]=2 must be an int in \[0, 1\]"),
])
def test_bad_arguments_name_the_argument(make: Callable[[], object], message: str) -> None:
    """Every refusal names the argument and its limit."""
    with pytest.raises(InvalidArgument, match=message):
        make()


def test_float_is_its_exact_binary_value() -> None:
    """A float parameter is the dyadic rational it holds (0.1 is not 1/10); NaN is refused."""
    assert DiscreteLaplace(0.1).scale == Fraction(3602879701896397, 36028797018963968)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="scale=nan must be a finite number"):
        DiscreteLaplace(float("nan"))  # type: ignore[arg-type]


def test_laws_are_hashable_values() -> None:
    """Equal parameters give equal, hashable laws (components are keyed by them)."""
    assert DiscreteLaplace(Fraction(2)) == DiscreteLaplace(2)  # type: ignore[arg-type]
    assert len({TwoSidedGeometric(Fraction(1, 2)), TwoSidedGeometric(Fraction(2, 4))}) == 1
    assert isinstance(prob_as_interval(DiscreteGaussian(Fraction(1)).pmf(0)), Interval)


# ------------------------------------------------------------------ array forms


def test_bernoulli_exp_neg_array_is_calibrated() -> None:
    for gamma in (Fraction(1, 3), Fraction(1), Fraction(5, 2)):
        n = 50_000
        hits = int(bernoulli_exp_neg_array(np.random.default_rng(17), gamma, n).sum())
        assert fits(stats.binomtest(hits, n, math.exp(-float(gamma))).pvalue,
                    f"bernoulli_exp_neg_array({gamma})")


@pytest.mark.parametrize("scale", [Fraction(2), Fraction(1, 2), Fraction(3, 4)])
def test_discrete_laplace_array_matches_the_pmf(scale: Fraction) -> None:
    """Chi-square against the enclosed pmf on the cells with >= 5 expected draws, the rest pooled."""
    law, n = DiscreteLaplace(scale), 100_000
    counts = Counter(discrete_laplace_array(np.random.default_rng(13), scale, n).tolist())
    boxes = {z: prob_as_interval(law.pmf(z)) for z in range(-12, 13)}
    probs = {z: float((box.lo + box.hi) / 2) for z, box in boxes.items()}
    keys = [z for z, p in probs.items() if p * n >= 5]
    observed = [counts[z] for z in keys] + [n - sum(counts[z] for z in keys)]
    expected = [probs[z] * n for z in keys] + [n - sum(probs[z] * n for z in keys)]
    assert fits(float(stats.chisquare(observed, expected).pvalue), f"discrete_laplace_array({scale})")


def test_array_forms_refuse_bad_parameters() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(InvalidArgument, match="gamma=-1 must be >= 0"):
        bernoulli_exp_neg_array(rng, Fraction(-1), 3)
    with pytest.raises(InvalidArgument, match="scale=0 must be > 0"):
        discrete_laplace_array(rng, Fraction(0), 3)


def test_discrete_gaussian_default_delta_is_one_in_a_million() -> None:
    """The documented default δ of discrete_gaussian_mechanism is 10⁻⁶, and the claim's ε is
    the zCDP conversion at that δ (CKS20 Theorem 4 with Bun-Steinke 2016 Proposition 1.3)."""
    mech = discrete_gaussian_mechanism(3)
    assert mech.claim.delta == Fraction(1, 10**6)
    explicit = discrete_gaussian_mechanism(3, delta=Fraction(1, 10**6))
    assert str(mech.claim.epsilon) == str(explicit.claim.epsilon)
