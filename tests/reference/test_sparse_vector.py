"""001 Algorithm 6 (sparse vector) as printed and corrected: exact laws, samplers, exact audits."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from privref.audits.exact import audit
from privref.audits.stats import bonferroni, cp_lower, cp_upper
from privref.reference.data import Dataset
from privref.reference.discrete_noise import DiscreteLaplace, difference_tail
from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import Universe
from privref.reference.reals import Interval, Order, compare, prob_as_interval
from privref.reference.sparse_vector import (
    BOTTOM,
    TOP,
    continuous_accounting,
    continuous_release_probability,
    discrete_accounting,
    discrete_release_probability,
    laplace_difference_tail,
    paper_release_bound,
    parameters,
    sparse_vector,
    svt_lambda,
)
from privref.reference.verdict import Verdict

ALPHA = Fraction(1, 10**6)
UNIVERSE = Universe((0, 1), (1,))


def count(data: Dataset) -> int:
    """The number of ones: sensitivity 1 under substitution."""
    return sum(1 for x in data if x == 1)


def test_lambda_variants_and_rational_scale() -> None:
    eps, delta = Fraction(1, 4), Fraction(1, 1000)
    printed = svt_lambda(eps, delta, 3, "printed")
    corrected = svt_lambda(eps, delta, 3, "corrected")
    # printed² = 32T ln(1/δ)/ε and corrected² = 32T ln(1/δ)/ε², so corrected² = printed²/ε
    ratio = (corrected * corrected) / (printed * printed)
    box = ratio.enclose(200)
    assert box.lo <= 1 / eps <= box.hi
    for variant in ("printed", "corrected"):
        params = parameters(eps, delta, 3, variant, denominator=4)
        assert compare(params.lam, params.scale)[0] is Order.LESS
        assert compare(params.lam, params.scale - Fraction(1, 4))[0] is Order.GREATER


def test_one_query_one_round_is_a_contest_of_dlap_t_against_dlap_2t() -> None:
    # ⊥ iff v + ν <= w + ρ iff ρ - ν >= v - w, with ρ ~ DLap(t), ν ~ DLap(2t)
    mech = sparse_vector((count,), 1, Fraction(2), Fraction(1, 10), 1)
    t = parameters(Fraction(2), Fraction(1, 10), 1, "corrected").scale
    for data, v in (((0,), 0), ((1,), 1)):
        law = mech.distribution(data)
        expected = prob_as_interval(difference_tail(DiscreteLaplace(t), DiscreteLaplace(2 * t),
                                                    v - 1))
        got = prob_as_interval(law.prob((BOTTOM,)))
        assert got.lo <= expected.hi and expected.lo <= got.hi
        assert set(law.support()) == {(TOP,), (BOTTOM,)}


def test_printed_refresh_compares_later_queries_with_w_plus_one() -> None:
    # printed: after the first ⊥ the threshold is w + 1 with no noise, so with T = 2 and two
    # queries P(⊥, ⊤) = P(first ⊥)·P(v + ν > w + 1) = P(first ⊥)·P(ν >= w + 2 - v)
    from privref.reference.discrete_noise import upper_tail

    w, v = 0, 1
    mech = sparse_vector((count,) * 2, w, Fraction(2), Fraction(1, 10), 2, refresh="printed")
    t = parameters(Fraction(2), Fraction(1, 10), 2, "corrected").scale
    first = prob_as_interval(difference_tail(DiscreteLaplace(t), DiscreteLaplace(2 * t), v - w))
    later = prob_as_interval(upper_tail(DiscreteLaplace(2 * t), w + 2 - v))
    expected = first * later
    got = prob_as_interval(mech.distribution((1,)).prob((BOTTOM, TOP)))
    assert got.lo <= expected.hi and expected.lo <= got.hi
    assert got.width < Fraction(1, 2**60)


@pytest.mark.parametrize("refresh", ["printed", "corrected"])
def test_runs_halt_at_the_cutoff_and_laws_sum_to_one(refresh: str) -> None:
    mech = sparse_vector((count,) * 4, 0, Fraction(2), Fraction(1, 10), 2,
                         refresh=refresh)  # type: ignore[arg-type]
    law = mech.distribution((1,))
    total = Interval.point(Fraction(0))
    for outcome, p in law.items():
        total = total + prob_as_interval(p)
        assert outcome.count(BOTTOM) <= 2
        assert len(outcome) == 4 or outcome.count(BOTTOM) == 2
        assert outcome.count(BOTTOM) == 2 or len(outcome) == 4
    assert total.lo <= 1 <= total.hi


def test_with_cutoff_one_the_refresh_variants_coincide() -> None:
    args = ((count,) * 3, 0, Fraction(2), Fraction(1, 10), 1)
    a = sparse_vector(*args, refresh="printed").distribution((0,))
    b = sparse_vector(*args, refresh="corrected").distribution((0,))
    assert a.as_dict() == b.as_dict()


@pytest.mark.parametrize("refresh", ["printed", "corrected"])
def test_sampler_matches_exact_law(refresh: str) -> None:
    mech = sparse_vector((count,) * 3, 0, Fraction(8), Fraction(1, 1000), 2,
                         refresh=refresh, denominator=4)  # type: ignore[arg-type]
    law = mech.distribution((1,))
    rng = np.random.default_rng(20261124)
    n = 1500
    counts = Counter(mech.sample((1,), rng) for _ in range(n))
    assert set(counts) <= set(law.support())
    level = bonferroni(ALPHA, 2 * len(law))
    for outcome, p in law.items():
        box = prob_as_interval(p)
        assert cp_lower(counts[outcome], n, level) <= box.hi
        assert cp_upper(counts[outcome], n, level) >= box.lo


# ------------------------------------------------------------------ audits
#
# Claimed (ε, δ) = (1/100, 2^-20), T = 2, w = 0, eight count queries, datasets of one bit.
# Printed λ = √(64 ln(2^20)·100) ≈ 297.9, so t = 298; corrected λ ≈ 2978.7, t = 2979.

EPS, DELTA = Fraction(1, 100), Fraction(1, 2**20)


def _mech(refresh: str, scale: str) -> object:
    return sparse_vector((count,) * 8, 0, EPS, DELTA, 2, refresh=refresh,  # type: ignore[arg-type]
                         scale=scale)  # type: ignore[arg-type]


def test_printed_algorithm_violates_its_claim() -> None:
    mech = _mech("printed", "printed")
    report = audit(mech, UNIVERSE)  # type: ignore[arg-type]
    assert report.verdict is Verdict.VIOLATED
    # the exact worst-case ε at δ = 2^-20 (enclosed) exceeds the claimed 1/100
    assert report.epsilon_lower > EPS


def test_corrected_algorithm_holds_within_its_discrete_accounting() -> None:
    mech = _mech("corrected", "corrected")
    report = audit(mech, UNIVERSE)  # type: ignore[arg-type]
    assert report.verdict is Verdict.HOLDS
    t = parameters(EPS, DELTA, 2, "corrected").scale
    basic, advanced = discrete_accounting(t, 2, DELTA)
    assert report.epsilon_upper is not None
    assert report.epsilon_upper < basic.epsilon.exact  # type: ignore[operator]  # 2T/t = 4/2979
    assert compare(advanced.epsilon, EPS)[0] is Order.LESS


@pytest.mark.parametrize(("refresh", "scale"), [("printed", "corrected"),
                                                ("corrected", "printed")])
def test_mixed_variants_reach_a_verdict(refresh: str, scale: str) -> None:
    report = audit(_mech(refresh, scale), UNIVERSE)  # type: ignore[arg-type]
    assert report.verdict is Verdict.HOLDS


def test_continuous_accounting_of_corrected_lambda_is_at_most_epsilon() -> None:
    for eps in (Fraction(1, 10), Fraction(1, 2), Fraction(1)):
        lam = svt_lambda(eps, Fraction(1, 10**5), 3, "corrected")
        claim = continuous_accounting(lam, 3, Fraction(1, 10**5))
        assert compare(claim.epsilon, eps)[0] is Order.LESS


# ------------------------------------------- release of an unstable query


def test_continuous_release_probability() -> None:
    assert continuous_release_probability(3, 0).exact == Fraction(1, 2)  # (4 - 1)/6
    for lam in (Fraction(1, 2), Fraction(3), Fraction(40)):
        for w in (Fraction(1, 3), Fraction(2), Fraction(50), Fraction(400)):
            p = continuous_release_probability(lam, w)
            general = laplace_difference_tail(2 * lam, lam, w)
            box, gbox = p.enclose(200), general.enclose(200)
            assert box.lo <= gbox.hi and gbox.lo <= box.hi and box.width < Fraction(1, 2**150)
            assert compare(p, paper_release_bound(lam, w))[0] is Order.LESS


def test_discrete_release_probability_against_its_convolution() -> None:
    # P(ν - ρ > w) = Σ_r P(ρ = r)·P(ν >= w + r + 1), window |r| <= 200 plus P(|ρ| > 200)
    from privref.reference.discrete_noise import upper_tail

    t = Fraction(2)
    rho, nu = DiscreteLaplace(t), DiscreteLaplace(2 * t)
    for w in (0, 3, 12):
        lo = hi = Fraction(0)
        for r in range(-200, 201):
            term = prob_as_interval(rho.pmf(r)) * prob_as_interval(upper_tail(nu, w + r + 1))
            lo, hi = lo + term.lo, hi + term.hi
        hi += 2 * prob_as_interval(rho.tail_mass(201)).hi
        got = prob_as_interval(discrete_release_probability(t, w))
        assert got.lo <= hi and lo <= got.hi
    # the discrete release at w is below the continuous one's paper bound e^{-w/(3t)} for w = 12
    bound = paper_release_bound(t, 12).enclose(128)
    assert prob_as_interval(discrete_release_probability(t, 12)).hi < bound.lo


# ---------------------------------------------------------------- bad inputs


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"epsilon": 0}, "epsilon"),
    ({"epsilon": -1}, "epsilon"),
    ({"delta": 0}, "delta"),
    ({"delta": 1}, "delta"),
    ({"cutoff": 0}, "cutoff"),
    ({"threshold": Fraction(1, 2)}, "threshold"),
    ({"queries": ()}, "queries"),
    ({"refresh": "both"}, "refresh"),
    ({"scale": "other"}, "scale"),
])
def test_bad_inputs_name_the_argument(kwargs: dict[str, object], name: str) -> None:
    args: dict[str, object] = {"queries": (count,), "threshold": 0, "epsilon": 1,
                               "delta": Fraction(1, 10), "cutoff": 1}
    args.update(kwargs)
    with pytest.raises(InvalidArgument, match=name):
        sparse_vector(**args)  # type: ignore[arg-type]


def test_bad_release_inputs() -> None:
    with pytest.raises(InvalidArgument, match="lam"):
        continuous_release_probability(-1, 1)
    with pytest.raises(InvalidArgument, match="w"):
        continuous_release_probability(1, -1)
    with pytest.raises(InvalidArgument, match="scale"):
        discrete_release_probability(-2, 1)
    with pytest.raises(InvalidArgument, match="b1"):
        laplace_difference_tail(1, 1, 1)
    with pytest.raises(InvalidArgument, match="cutoff"):
        svt_lambda(1, Fraction(1, 2), 0, "printed")
