"""privref.audits.curves (and renyi.LawPair): exact worst-case profile, μ, Rényi curve and ρ.

Expected values come from closed forms computed independently with mpmath: randomized response
keeping the bit with probability 3/4 has P = (3/4, 1/4), Q = (1/4, 3/4), so μ* = 2Φ⁻¹(3/4),
D_α = ln(p^α q^(1−α) + q^α p^(1−α))/(α − 1), D_∞ = ln 3, KL = ln(3)/2, and ρ* = sup_α D_α/α;
a threshold bit of a Gaussian count shifted by one has μ* = 1/σ exactly (Φ⁻¹(Φ(x)) − Φ⁻¹(Φ(x − 1/σ))).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import pytest

from privref.audits import curves, renyi
from privref.reference.citations import Uncited
from privref.reference.continuous_release import laplace_mechanism
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument, UnsupportedProgram
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.pate import (
    continuous_gaussian_votes,
    gaussian_pate_at,
    gaussian_pate_epsilon,
    teacher_votes,
)
from privref.reference.privacy import GDPClaim, ZCDPClaim
from privref.reference.program import Program
from privref.reference.randomized_response import randomized_response
from privref.reference.verdict import Verdict

RR = randomized_response(F(3, 4))
BIT = Universe((0, 1), (1,))


def _mp(x: F) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _holds(value: curves.CurveValue, expected: mpmath.mpf, width: float) -> None:
    assert value.upper is not None and not value.infinite
    assert _mp(value.lower) <= expected <= _mp(value.upper), (value, expected)
    assert value.upper - value.lower <= F(width), (value.upper - value.lower)


def _rr_renyi(alpha: mpmath.mpf) -> mpmath.mpf:
    p, q = mpmath.mpf(3) / 4, mpmath.mpf(1) / 4
    return mpmath.log(p**alpha * q ** (1 - alpha) + q**alpha * p ** (1 - alpha)) / (alpha - 1)


def test_randomized_response_curves_meet_their_closed_forms() -> None:
    with mpmath.workprec(120):
        found = curves.exact_curves(RR, BIT, epsilons=(0, "ln(2)"), orders=(F(3, 2), 2, 16))
        assert found.pairs == 2
        _holds(found.profile[0][1], mpmath.mpf(1) / 2, 1e-15)          # TV distance 1/2
        _holds(found.profile[1][1], mpmath.mpf(1) / 4, 1e-15)          # 3/4 − 2·1/4
        assert found.mu is not None
        _holds(found.mu, 2 * mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf(1) / 2), 1e-9)
        for alpha, value in found.renyi:
            _holds(value, _rr_renyi(_mp(alpha)), 1e-15)
        assert found.renyi_infinity is not None
        _holds(found.renyi_infinity, mpmath.log(3), 1e-15)


def test_rho_brackets_the_supremum_over_every_order() -> None:
    """sup_α D_α/α for randomized response is approached as α → 1 (it equals KL = ln(3)/2);
    the largest value on the default grid (at α = 5/4) is below it, so a grid check alone would
    understate ρ*.  The enclosure must hold the supremum, found here by mpmath on a dense grid."""
    found = curves.exact_curves(RR, BIT)
    assert found.rho is not None and found.rho.upper is not None
    with mpmath.workprec(100):
        dense = max(_rr_renyi(1 + mpmath.mpf(k) / 10**5) / (1 + mpmath.mpf(k) / 10**5)
                    for k in (1, 10, 100, 1000, 10_000, 50_000, 200_000))
        kl = mpmath.log(3) / 2
        assert dense <= kl
        grid_max = max(_rr_renyi(_mp(a)) / _mp(a) for a in curves.DEFAULT_ORDERS)
        assert grid_max < kl - mpmath.mpf(1) / 50
        assert _mp(found.rho.lower) <= kl <= _mp(found.rho.upper)
        assert found.rho.upper - found.rho.lower <= F(1, 100) * found.rho.upper


def test_zcdp_claims_are_decided_over_every_order() -> None:
    """ρ = 0.53 lies above the largest D_α/α of the default grid but below KL = 0.549...: it is
    VIOLATED (a grid check would pass it).  ρ = 0.56 HOLDS (proved for every α > 1)."""
    assert curves.audit_zcdp(RR, BIT, ZCDPClaim(F(53, 100))).verdict is Verdict.VIOLATED
    held = curves.audit_zcdp(RR, BIT, ZCDPClaim(F(56, 100)))
    assert held.verdict is Verdict.HOLDS
    assert held.rho.upper is not None and held.rho.upper <= F(56, 100)


def test_gdp_claims_are_decided() -> None:
    """μ* = 2Φ⁻¹(3/4) = 1.34898...: μ = 1.35 HOLDS, μ = 1.34 is VIOLATED."""
    assert curves.audit_gdp(RR, BIT, GDPClaim.of("135/100")).verdict is Verdict.HOLDS
    refuted = curves.audit_gdp(RR, BIT, GDPClaim.of("134/100"))
    assert refuted.verdict is Verdict.VIOLATED and refuted.mu.witness is not None


def _continuous_pate(queries: int) -> Mechanism[tuple[int, ...]]:
    def program(data: Dataset) -> Program[tuple[int, ...]]:
        votes, k = teacher_votes(data, queries)
        return (yield from continuous_gaussian_votes(votes, k, 1))

    return Mechanism("continuous Gaussian PATE, sigma=1", program,
                     gaussian_pate_epsilon(queries, 1, F(1, 10)), Uncited("test fixture"),
                     order_invariant=True)


def test_a_gaussian_threshold_bit_has_mu_exactly_one_over_sigma() -> None:
    """Enclosed (irrational) laws: the released bit Φ((v − K/2)/σ) moves to Φ((v − 1 − K/2)/σ),
    so Φ⁻¹(P) − Φ⁻¹(Q) = 1/σ = 1 at every pair whose vote moves."""
    mech = _continuous_pate(1)
    found = curves.exact_curves(mech, Universe(((0,), (1,)), (2, 3)), orders=(2,))
    assert found.mu is not None
    _holds(found.mu, mpmath.mpf(1), 1e-9)


def test_independent_queries_add_their_divergences() -> None:
    """Two queries of Algorithm 1 release independent bits, so the worst pair (both votes move
    by one) has D_α twice the one-query worst case: D_α of a product law is the sum."""
    one = curves.exact_curves(gaussian_pate_at(1, 1, F(1, 10)), Universe(((0,), (1,)), (2,)),
                              orders=(2, 4), mu=False, rho=False)
    two = curves.exact_curves(gaussian_pate_at(2, 1, F(1, 10)),
                              Universe(tuple(itertools.product((0, 1), repeat=2)), (2,)),
                              orders=(2, 4), mu=False, rho=False)
    for (a1, v1), (a2, v2) in zip(one.renyi, two.renyi, strict=True):
        assert a1 == a2 and v1.upper is not None and v2.upper is not None
        assert 2 * v1.lower <= v2.upper and v2.lower <= 2 * v1.upper


def test_law_pair_agrees_with_the_exact_rational_divergence() -> None:
    p, q = RR.distribution((1,)), RR.distribution((0,))
    pair = renyi.LawPair.of(p, q)
    for alpha in (2, 3, F(5, 2)):
        exact = renyi.renyi_divergence_of_laws(p, q, alpha)
        assert exact is not None
        box = exact.enclose(80)
        e = pair.renyi(alpha)
        assert e.upper is not None and e.lower <= box.hi and box.lo <= e.upper
        assert e.upper - e.lower < F(1, 2**50)


def test_infinite_divergences_are_proved() -> None:
    """A leak of the data with probability 1/10 puts mass where the neighbour has none."""
    from privref.reference.composition import leak
    leaky = leak(RR, F(1, 10))
    found = curves.exact_curves(leaky, BIT, orders=(2,))
    assert found.rho is not None and found.rho.infinite
    assert found.renyi[0][1].infinite
    assert found.mu is not None and found.mu.infinite


@pytest.mark.parametrize(("call", "named"), [
    (lambda: curves.exact_curves(RR, BIT, orders=(1,)), r"orders\[0\]"),
    (lambda: curves.exact_curves(RR, BIT, orders=tuple(range(2, 300))), "MAX_GRID"),
    (lambda: curves.exact_curves(RR, BIT, epsilons=(-1,)), r"epsilons\[0\]"),
    (lambda: curves.exact_curves(RR, BIT, orders=(), mu=False, rho=False), "nothing requested"),
    (lambda: curves.exact_curves(RR, BIT, tolerance=2), "tolerance"),
    (lambda: curves.audit_gdp(RR, BIT, F(1)), "GDPClaim"),  # type: ignore[arg-type]
    (lambda: curves.audit_zcdp(RR, BIT, F(1, 2)), "ZCDPClaim"),  # type: ignore[arg-type]
])
def test_bad_input(call: object, named: str) -> None:
    with pytest.raises(InvalidArgument, match=named):
        call()  # type: ignore[operator]


def test_continuous_outputs_are_refused_for_mu_and_renyi() -> None:
    lap = laplace_mechanism(1)
    with pytest.raises(UnsupportedProgram, match="finitely many"):
        curves.exact_curves(lap, Universe((0, 1), (1,)), orders=(2,))


def test_wide_enclosures_round_every_end_outward() -> None:
    """Laws known only to intervals: P(1) ∈ [7/10, 8/10], Q(1) ∈ [2/10, 3/10].  μ's lower end
    must not exceed Φ⁻¹(7/10) − Φ⁻¹(3/10) (the least value any laws in the boxes give) and its
    upper end must reach Φ⁻¹(8/10) − Φ⁻¹(2/10); likewise for D_2, with p^2/q summed at the ends."""
    from privref.reference.program import Distribution
    from privref.reference.reals import Interval

    p = Distribution.from_mapping({1: Interval(F(7, 10), F(8, 10)), 0: Interval(F(2, 10), F(3, 10))})
    q = Distribution.from_mapping({1: Interval(F(2, 10), F(3, 10)), 0: Interval(F(7, 10), F(8, 10))})
    lo, hi, infinite, _ = curves._pair_mu(p, q)
    assert lo is not None and hi is not None and not infinite
    with mpmath.workprec(80):
        def z(x: float) -> mpmath.mpf:
            return mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(x) - 1)
        assert _mp(lo) <= z(0.7) - z(0.3) and _mp(hi) >= z(0.8) - z(0.2)
        assert _mp(lo) >= z(0.7) - z(0.3) - mpmath.mpf(10) ** -6
        e = renyi.LawPair.of(p, q).renyi(2)
        assert e.upper is not None
        least = mpmath.log(mpmath.mpf(7) ** 2 / 3 / 10 + mpmath.mpf(2) ** 2 / 8 / 10)  # p_lo²/q_hi
        most = mpmath.log(mpmath.mpf(8) ** 2 / 2 / 10 + mpmath.mpf(3) ** 2 / 7 / 10)
        assert _mp(e.lower) <= least and _mp(e.upper) >= most
        assert _mp(e.lower) >= least - mpmath.mpf(10) ** -12
