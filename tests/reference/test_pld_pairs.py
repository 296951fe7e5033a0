"""Certified PLDs of the discrete Gaussian and of Poisson- and fixed-size-subsampled pairs
(privref.reference.pld): each enclosure must contain a δ(ε) computed independently here.

References: the discrete Gaussian's δ(ε) summed over the integers with its own normalizer and tail
bound at 320 bits (k = 1, 2); the subsampled Laplace pair's δ(ε) from Laplace CDFs at the optimal
half-line; the subsampled randomized response composed k times as a binomial sum; and fixed-size
subsampling as the exact worst case over all datasets of a tiny instance, enumerated.
"""

from __future__ import annotations

from fractions import Fraction as F
from itertools import combinations, product
from math import comb

import pytest

from privref.reference import pld
from privref.reference._arb import arb, ball, to_interval, working_precision
from privref.reference.accounting import analytic_gaussian_delta
from privref.reference.discrete_noise import DiscreteGaussian
from privref.reference.errors import InvalidArgument
from privref.reference.reals import Interval
from tests.reference.test_pld import _subsampled_exact

STEP = F(1, 100)


def _inside(inner: Interval, outer: Interval) -> bool:
    return outer.lo <= inner.lo and inner.hi <= outer.hi


def _nested(inner: Interval, outer: Interval) -> bool:
    """The finer enclosure inside the coarser one and narrower.  The pessimistic ends are both
    the truth plus mass rounding at shared grid points (the coarse split pair is a split of the
    fine one), so the upper end may differ by rounding units (2^-62 each) only."""
    return (outer.lo <= inner.lo and inner.hi <= outer.hi + F(1, 2**50)
            and inner.width < outer.width)


def _profile(atoms: list[tuple[arb, arb]], eps: F) -> Interval:
    """Σ_{l>ε} p_l (1 − e^{ε−l}) over (ball loss, ball mass) atoms; each l > ε or l <= ε proved."""
    total = arb(0)
    for loss, mass in atoms:
        if loss > ball(eps):
            total += mass * (1 - (ball(eps) - loss).exp())
        else:
            assert loss <= ball(eps), "a loss too close to epsilon to decide"
    return to_interval(total)


# ------------------------------------------------------------------ discrete Gaussian


def _dg_law(sigma2: F, radius: int) -> tuple[list[tuple[int, arb]], arb]:
    """(z, P(Z = z)) for |z| <= radius and a ball containing the mass beyond (both sides)."""
    weights = [(z, (-ball(F(z * z) / (2 * sigma2))).exp()) for z in range(-radius, radius + 1)]
    head = sum((w for _, w in weights), arb(0))
    r = radius + 1  # Σ_{z>=r} e^{-z²/2σ²} <= e^{-r²/2σ²}/(1 - e^{-r/σ²}), both sides
    tail = 2 * (-ball(F(r * r) / (2 * sigma2))).exp() / (1 - (-ball(F(r) / sigma2)).exp())
    norm = head + arb(0).union(tail)
    return [(z, w / norm) for z, w in weights], tail / head


def _dg_exact(sigma2: F, sens: int, k: int, eps: F) -> Interval:
    """δ(ε) of k composed DG(0,σ²) vs DG(Δ,σ²), enumerated, widened by the mass left out (its
    contribution to δ lies in [0, that mass])."""
    with working_precision(320):
        law, out = _dg_law(sigma2, 14)
        one = [(F(sens * sens - 2 * z * sens) / (2 * sigma2), p) for z, p in law]
        atoms = one
        for _ in range(k - 1):
            atoms = [(a + b, p * r) for (a, p), (b, r) in product(atoms, one)]
        merged: dict[F, arb] = {}
        for loss, p in atoms:
            merged[loss] = merged.get(loss, arb(0)) + p
        box = _profile([(ball(loss), p) for loss, p in merged.items()], eps)
        slack = to_interval(k * out)
        return Interval(box.lo, box.hi + slack.hi)


@pytest.mark.parametrize(("sigma2", "sens"), [(F(1), 1), (F(5, 2), 2)])
def test_discrete_gaussian_single_contains_the_sum(sigma2: F, sens: int) -> None:
    g = pld.discrete_gaussian_pld(sigma2, sens, step=STEP)
    for eps in (F(0), F(1, 3), F(1), F(3)):
        exact = _dg_exact(sigma2, sens, 1, eps)
        box = g.delta(eps)
        assert _inside(exact, box)
        assert box.width < F(1, 10**6)


def test_discrete_gaussian_two_fold_and_nesting() -> None:
    sigma2 = F(3, 2)  # losses (1 − 2z)/3: off the grid of step 1/50 and 1/100
    coarse = pld.discrete_gaussian_pld(sigma2, step=F(1, 50)).self_compose(2)
    fine = pld.discrete_gaussian_pld(sigma2, step=F(1, 100)).self_compose(2)
    for eps in (F(0), F(1, 2), F(2)):
        exact = _dg_exact(sigma2, 1, 2, eps)
        assert _inside(exact, fine.delta(eps))
        assert _nested(fine.delta(eps), coarse.delta(eps))
        assert _inside(exact, coarse.delta(eps))


# ------------------------------------------------------------------ subsampled Laplace


def _laplace_subsampled_exact(b: F, sens: F, q: F, order: str, eps: F) -> Interval:
    """((1−q)Q + qP, Q) (remove) or (Q, (1−q)Q + qP) (add), P = Lap(0,b), Q = Lap(Δ,b): the
    optimal set is a half-line {x < y} (remove) or {x > y}, y where the base loss (Δ−2x)/b
    equals the cut s; F_P(y) = 1 − e^{−y/b}/2, F_Q(y) = e^{(y−Δ)/b}/2 for 0 < y < Δ."""
    with working_precision(320):
        q_, e = ball(q), ball(eps).exp()
        target = e if order == "remove" else 1 / e
        s = ((target - (1 - q_)) / q_).log()
        y = (ball(sens) - ball(b) * s) / 2
        assert y > 0 and y < ball(sens), "pick ε with the cut inside the Laplace's ramp"
        fp = 1 - (-y / ball(b)).exp() / 2
        fq = ((y - ball(sens)) / ball(b)).exp() / 2
        if order == "remove":
            return to_interval((1 - q_) * fq + q_ * fp - e * fq)
        return to_interval((1 - fq) - e * ((1 - q_) * (1 - fq) + q_ * (1 - fp)))


@pytest.mark.parametrize("order", ["remove", "add"])
def test_poisson_subsampled_laplace_single_closed_form(order: str) -> None:
    b, sens, q = F(1), F(1), F(1, 5)
    pair = pld.laplace_pair(b, sens)
    coarse = pld.poisson_subsampled_pld(pair, q, order, step=F(1, 50))
    fine = pld.poisson_subsampled_pld(pair, q, order, step=F(1, 200))
    for eps in (F(1, 100), F(1, 20), F(1, 10)):
        exact = _laplace_subsampled_exact(b, sens, q, order, eps)
        assert _inside(exact, fine.delta(eps))
        assert _nested(fine.delta(eps), coarse.delta(eps))
        assert fine.delta(eps).width < F(1, 100)


def _rr_subsampled_atoms(e0: F, q: F, order: str) -> list[tuple[arb, arb]]:
    """The two atoms (loss, P'-mass) of Poisson-subsampled randomized response."""
    w = ball(e0).exp()
    p1, q1 = w / (1 + w), 1 / (1 + w)  # P(output = 1) on input 1 (P) and on input 0 (Q)
    q_ = ball(q)
    outs = []
    for pp, qq in ((p1, q1), (1 - p1, 1 - q1)):
        mixed = (1 - q_) * qq + q_ * pp
        if order == "remove":
            outs.append(((mixed / qq).log(), mixed))
        else:
            outs.append(((qq / mixed).log(), qq))
    return outs


def test_poisson_subsampled_randomized_response_k_fold_binomial() -> None:
    e0, q, k = F(1), F(1, 4), 9
    for order in ("remove", "add"):
        composed = pld.poisson_subsampled_pld(pld.randomized_response_pair(e0), q, order,
                                              step=STEP).self_compose(k)
        with working_precision(320):
            (l1, m1), (l0, m0) = _rr_subsampled_atoms(e0, q, order)
            atoms = [(j * l1 + (k - j) * l0, comb(k, j) * m1 ** j * m0 ** (k - j))
                     for j in range(k + 1)]
            for eps in (F(0), F(1, 4), F(1)):
                exact = _profile(atoms, eps)
                assert _inside(exact, composed.delta(eps)), (order, eps)


def test_poisson_subsampled_discrete_laplace_contains_the_atoms() -> None:
    """Discrete Laplace scale 1, Δ = 1: losses ±1; subsampled, two atoms as for RR with masses
    1/(1+e^{-1}) and e^{-1}/(1+e^{-1}) (the DLap pair of Δ = 1 is RR's with ε0 = 1)."""
    g = pld.poisson_subsampled_pld(pld.discrete_laplace_pair(1, 1), F(1, 4), "remove", step=STEP)
    with working_precision(320):
        atoms = _rr_subsampled_atoms(F(1), F(1, 4), "remove")
        for eps in (F(0), F(1, 10)):
            assert _inside(_profile(atoms, eps), g.delta(eps))


# ------------------------------------------------------------------ fixed-size subsampling


def _wor_worst_case(e0: F, n: int, m: int, eps: F) -> Interval:
    """max over all substitution neighbours D, D' in {0,1}^n of δ_{M(D),M(D')}(ε) for
    M(D) = the multiset of randomized-response bits (parameter ε0) of m records drawn without
    replacement: each record's bit is released through its own RR, so M on a subset is
    dominated by RR's pair under substitution.  Exact enumeration at 320 bits."""
    with working_precision(320):
        w = ball(e0).exp()
        keep = w / (1 + w)

        def law(data: tuple[int, ...]) -> dict[int, arb]:
            out: dict[int, arb] = {}
            subsets = list(combinations(range(n), m))
            for subset in subsets:
                for flips in product((0, 1), repeat=m):
                    prob = arb(1) / len(subsets)
                    ones = 0
                    for i, flip in zip(subset, flips, strict=True):
                        prob *= (1 - keep) if flip else keep
                        ones += data[i] ^ flip
                    out[ones] = out.get(ones, arb(0)) + prob
            return out

        best = Interval(F(0), F(0))
        for data in product((0, 1), repeat=n):
            for i in range(n):
                other = (*data[:i], 1 - data[i], *data[i + 1:])
                p, r = law(data), law(other)
                total = arb(0)
                for o in p:
                    diff = p[o] - ball(eps).exp() * r[o]
                    if diff > 0:
                        total += diff
                    else:
                        assert diff <= 0
                box = to_interval(total)
                if box.lo > best.hi or (box.hi > best.hi):
                    best = Interval(max(best.lo, box.lo), max(best.hi, box.hi))
        return best


@pytest.mark.parametrize(("n", "m"), [(3, 1), (4, 2)])
def test_fixed_size_forward_bounds_the_worst_case_and_is_attained(n: int, m: int) -> None:
    e0 = F(1)
    forward = pld.fixed_size_subsampled_pld(pld.randomized_response_pair(e0), m, n, step=STEP)
    for eps in (F(0), F(1, 10), F(1, 4)):
        worst = _wor_worst_case(e0, n, m, eps)
        box = forward.delta(eps)
        assert worst.hi <= box.hi  # the proved bound holds over every neighbouring pair
        if m == 1:  # one record drawn: D = (1,0,..), D' = (0,0,..) realises the forward pair
            assert box.lo <= worst.lo


def test_fixed_size_refuses_composition_and_bad_input() -> None:
    pair = pld.laplace_pair(1)
    one = pld.fixed_size_subsampled_pld(pair, 1, 10, step=F(1, 20))
    with pytest.raises(InvalidArgument, match="one use"):
        one.self_compose(2)
    with pytest.raises(InvalidArgument, match="one use"):
        pld.laplace_pld(1, step=F(1, 20)).compose(one)
    assert one.self_compose(1) is not None
    with pytest.raises(InvalidArgument, match="size"):
        pld.fixed_size_subsampled_pld(pair, 10, 10)
    with pytest.raises(InvalidArgument, match="population"):
        pld.fixed_size_subsampled_pld(pair, 1, 1)
    with pytest.raises(InvalidArgument, match="rate"):
        pld.poisson_subsampled_pld(pair, 0, "remove")
    with pytest.raises(InvalidArgument, match="pair"):
        pld.poisson_subsampled_pld("laplace", F(1, 2), "remove")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="sigma2"):
        pld.discrete_gaussian_pair(0)


def test_fixed_size_pair_is_the_poisson_removal_pair_at_the_same_rate() -> None:
    """The same mixture pair: γ = m/n equals Poisson's q, so the two grids coincide."""
    pair = pld.randomized_response_pair(F(1, 2))
    fixed = pld.fixed_size_subsampled_pld(pair, 1, 5, step=STEP)
    poisson = pld.poisson_subsampled_pld(pair, F(1, 5), "remove", step=STEP)
    for eps in (F(0), F(1, 20)):
        assert fixed.delta(eps) == poisson.delta(eps)


# ------------------------------------------------------------------ the survival functions


def _contains(box: arb, exact: Interval) -> bool:
    got = to_interval(box)
    return got.lo <= exact.lo and exact.hi <= got.hi


def _dg_cdf_exact(sigma2: F, m: int) -> Interval:
    """P(Z <= m), Z ~ DG(0, σ²), summed over z >= -(|m| + 40) with the rest bounded, 400 bits."""
    with working_precision(400):
        radius = abs(m) + 40
        law, out = _dg_law(sigma2, radius)
        total = sum((p for z, p in law if z <= m), arb(0))
        return to_interval(total + arb(0).union(out))


def test_discrete_gaussian_survival_contains_the_sum_far_in_the_tails() -> None:
    """Far below the grid the survival is P(Z <= m) for m near −K: the proved mass beyond K
    (not a truncation) is what keeps the truth inside."""
    sigma2 = F(1)
    pair = pld.discrete_gaussian_pair(sigma2)
    radius = DiscreteGaussian(sigma2).radius(pld._DG_PREC)
    for m in (-radius - 3, -radius - 1, -radius, -radius + 1, -2, 0, 3, radius, radius + 2):
        # P(L >= x) = P(Z <= m) at the loss x = (1 − 2m)/2 of z = m (non-strict), under P
        x = F(1 - 2 * m, 2)
        with working_precision(110):
            box = pair.survival(x, False, False)
            box_q = pair.survival(x, False, True)  # Q(L >= x) = P(Z + 1 <= m)
        assert _contains(box, _dg_cdf_exact(sigma2, m)), m
        assert _contains(box_q, _dg_cdf_exact(sigma2, m - 1)), m


def _laplace_mixture_survival_exact(q: F, forward: bool, x: F, under_q: bool) -> Interval:
    """Survival of the subsampled Lap(0,1) vs Lap(1,1) pair's loss at x (continuous part)."""
    with working_precision(400):
        q_ = ball(q)
        room = ball(x if forward else -x).exp() - (1 - q_)
        if not room > 0:
            return Interval(F(1), F(1)) if forward else Interval(F(0), F(0))
        s = (room / q_).log()
        y = (1 - s) / 2  # base loss (1 − 2y) = s
        if y <= 0 or y >= 1:
            raise AssertionError("pick x with the cut inside the ramp")
        fp, fq = 1 - (-y).exp() / 2, (y - 1).exp() / 2  # P(X < y), Q(X < y)
        if forward:  # L' > x iff X < y; P' = (1−q)Q + qP, Q' = Q
            return to_interval(fq if under_q else (1 - q_) * fq + q_ * fp)
        # reverse: L' > x iff X > y; P' = Q, Q' = (1−q)Q + qP
        return to_interval(((1 - q_) * (1 - fq) + q_ * (1 - fp)) if under_q else 1 - fq)


@pytest.mark.parametrize("forward", [True, False])
def test_mixture_survival_contains_the_truth_at_low_precision(forward: bool) -> None:
    """At 24 bits the cut s is a wide ball: the survival must be the union of its values at
    both ends of s (the survival is monotone in s) to contain the truth; also points beyond
    ln(1 − q), where every outcome (remove) or none (add) has loss above x."""
    q = F(1, 5)
    sub = pld._mixture_pair(pld.laplace_pair(1), q, forward, "test")
    sign = 1 if forward else -1
    xs = [sign * F(v, 100) for v in (-30, -5, 1, 7, 15)]
    for x in xs:
        for under_q in (False, True):
            exact = _laplace_mixture_survival_exact(q, forward, x, under_q)
            for strict in (True, False):
                with working_precision(24):
                    assert _contains(sub.survival(x, strict, under_q), exact), (x, under_q)


# ------------------------------------------------------------------ one use, no grid


@pytest.mark.parametrize("order", ["remove", "add"])
def test_pair_delta_and_epsilon_of_one_subsampled_gaussian_step(order: str) -> None:
    """pair_delta against the closed form at the optimal half-line; pair_epsilon's ends proved
    on the right sides of δ by that same closed form; both orders, two precisions."""
    sigma, q = F(1), F(1, 5)
    pair = pld.poisson_subsampled_gaussian_pair(sigma, q, order)
    for eps in (F(0), F(1, 20), F(1, 10)):
        exact = _subsampled_exact(sigma, q, order, eps)
        box = pld.pair_delta(pair, eps)
        assert _inside(exact, box) and box.width < F(1, 2**100)
    for delta in ((F(1, 10**3), F(1, 10**9)) if order == "remove" else (F(1, 10**2),)):
        for prec in (32, 128):  # at 32 bits δ's box is wide: its ends must be used the right way
            eps_box = pld.pair_epsilon(pair, delta, prec=prec)
            assert 0 < eps_box.lo < eps_box.hi
            assert prec < 128 or eps_box.hi <= eps_box.lo * (1 + F(1, 2**29))
            assert _subsampled_exact(sigma, q, order, eps_box.hi).hi <= delta
            assert _subsampled_exact(sigma, q, order, eps_box.lo).lo > delta
    assert pld.pair_epsilon(pair, F(1, 2)) == Interval(F(0), F(0))  # δ(0) <= 1/2 already


def test_gaussian_pair_delta_is_the_analytic_gaussian() -> None:
    pair = pld.gaussian_pair(F(3, 2), 2)
    for eps in (F(0), F(1, 2), F(3)):
        exact = analytic_gaussian_delta(eps, 1, F(3, 4), prec=160)  # μ = Δ/σ = 4/3 both ways
        box = pld.pair_delta(pair, eps)
        assert box.lo <= exact.hi and exact.lo <= box.hi and box.width < F(1, 2**100)


@pytest.mark.parametrize("order", ["remove", "add"])
def test_generic_subsampling_of_the_gaussian_pair_agrees_with_the_specialised_pld(order: str) -> None:
    """poisson_subsampled_pld(gaussian_pair) and poisson_subsampled_gaussian_pld are two
    constructions of one pair: both contain the closed form at k = 1, and their composed
    enclosures, both containing the truth, must overlap."""
    sigma, q = F(1), F(1, 5)
    generic = pld.poisson_subsampled_pld(pld.gaussian_pair(sigma), q, order, step=STEP)
    special = pld.poisson_subsampled_gaussian_pld(sigma, q, order, step=STEP)
    for eps in (F(0), F(1, 20), F(1, 10)):
        exact = _subsampled_exact(sigma, q, order, eps)
        assert _inside(exact, generic.delta(eps)) and _inside(exact, special.delta(eps))
    for eps in (F(0), F(1, 4)):
        a, b = generic.self_compose(3).delta(eps), special.self_compose(3).delta(eps)
        assert a.lo <= b.hi and b.lo <= a.hi
