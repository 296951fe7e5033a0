"""Certified PLDs (privref.reference.pld): every enclosure must contain an exact δ(ε).

Exact references: the analytic Gaussian (Balle-Wang, through accounting.analytic_gaussian_delta,
k-fold via μ = √k/σ), Laplace's δ(ε) = 1 − e^{(ε−ε0)/2}, and randomized response / discrete Laplace
composed k times as exact binomial / multinomial sums enclosed at 320 bits.
"""

from __future__ import annotations

import random
from fractions import Fraction as F
from itertools import product
from math import comb

import pytest

from privref.reference import _pld_grid as grid_
from privref.reference import pld
from privref.reference._arb import arb, ball, to_interval, working_precision
from privref.reference.accounting import analytic_gaussian_delta
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate
from privref.reference.reals import Interval

STEP = F(1, 100)


def _inside(inner: Interval, outer: Interval) -> bool:
    return outer.lo <= inner.lo and inner.hi <= outer.hi


def _strictly_inside(inner: Interval, outer: Interval) -> bool:
    return outer.lo < inner.lo and inner.hi < outer.hi


def _finite_delta(atoms: list[tuple[F, arb]], eps: F) -> Interval:
    """Σ_{l>ε} p_l (1 − e^{ε−l}) for exact losses l and ball masses p (call under precision)."""
    total = arb(0)
    for loss, mass in atoms:
        if loss > eps:
            total += mass * (1 - ball(eps - loss).exp())
    return to_interval(total)


@pytest.fixture(scope="module")
def gauss() -> pld.CertifiedPLD:
    return pld.gaussian_pld(1, step=STEP)


@pytest.mark.parametrize("eps", [F(0), F(1, 3), F(1), F(5, 2)])
def test_gaussian_single_contains_analytic(gauss: pld.CertifiedPLD, eps: F) -> None:
    exact = analytic_gaussian_delta(eps, 1, 1, prec=128)
    box = gauss.delta(eps)
    assert _strictly_inside(exact, box)
    assert box.width < F(1, 100)


@pytest.mark.parametrize(("k", "sigma"), [(2, F(1)), (8, F(2)), (13, F(3, 2))])
def test_gaussian_k_fold_contains_analytic(k: int, sigma: F) -> None:
    composed = pld.gaussian_pld(sigma, step=STEP).self_compose(k)
    for eps in (F(1, 2), F(2)):
        exact = analytic_gaussian_delta(eps, k, sigma, prec=128)
        assert _strictly_inside(exact, composed.delta(eps))


def test_compose_agrees_with_self_compose(gauss: pld.CertifiedPLD) -> None:
    three = gauss.compose(gauss).compose(gauss)
    exact = analytic_gaussian_delta(1, 3, 1, prec=128)
    assert _strictly_inside(exact, three.delta(1))
    assert _strictly_inside(exact, gauss.self_compose(3).delta(1))


def test_gaussian_epsilon_brackets_the_truth() -> None:
    composed = pld.gaussian_pld(2, step=STEP).self_compose(10)
    delta = F(1, 10**5)
    box = composed.epsilon(delta)
    assert 0 < box.lo < box.hi
    assert analytic_gaussian_delta(box.hi, 10, 2, prec=128).hi <= delta  # hi is safe
    assert analytic_gaussian_delta(box.lo, 10, 2, prec=128).lo > delta  # lo is unsafe
    assert box.width <= 10 * STEP + F(1, 10**6)


@pytest.mark.parametrize("eps", [F(0), F(1, 4), F(9, 10)])
def test_laplace_single_closed_form(eps: F) -> None:
    eps0 = F(1)  # scale 2, sensitivity 2
    with working_precision(320):
        exact = to_interval(1 - ball((eps - eps0) / 2).exp())
    box = pld.laplace_pld(2, 2, step=STEP).delta(eps)
    assert _strictly_inside(exact, box)


def _rr_exact(eps0: F, k: int, eps: F) -> Interval:
    with working_precision(320):
        w = ball(eps0).exp()
        p, q = w / (1 + w), 1 / (1 + w)
        atoms = [((2 * j - k) * eps0, comb(k, j) * p ** j * q ** (k - j)) for j in range(k + 1)]
        return _finite_delta(atoms, eps)


@pytest.mark.parametrize(("eps0", "k"), [(F(1, 2), 7), (F(1, 4), 12)])
def test_randomized_response_k_fold_binomial(eps0: F, k: int) -> None:
    composed = pld.randomized_response_pld(eps0, step=STEP).self_compose(k)
    for eps in (F(0), F(1, 2), F(3, 2)):
        box = composed.delta(eps)
        exact = _rr_exact(eps0, k, eps)
        assert _inside(exact, box)
        assert box.width < F(1, 10**12)  # losses on the grid: only mass rounding remains


def test_randomized_response_off_grid_is_wider_but_contains() -> None:
    eps0, k = F(1, 3) + F(1, 700), 5
    composed = pld.randomized_response_pld(eps0, step=STEP).self_compose(k)
    for eps in (F(0), F(1)):
        exact = _rr_exact(eps0, k, eps)
        assert _strictly_inside(exact, composed.delta(eps))


def test_discrete_laplace_two_fold_exact() -> None:
    scale, sens = F(2), 3
    composed = pld.discrete_laplace_pld(scale, sens, step=F(1, 20)).self_compose(2)
    with working_precision(320):
        q = (-ball(1 / scale)).exp()
        law = [(F(sens) / scale, 1 / (1 + q)), (-F(sens) / scale, q ** sens / (1 + q))]
        law += [(F(sens - 2 * z) / scale, (1 - q) * q ** z / (1 + q)) for z in range(1, sens)]
        atoms = [(l1 + l2, m1 * m2) for (l1, m1), (l2, m2) in product(law, law)]
        for eps in (F(0), F(1, 2), F(2)):
            assert _inside(_finite_delta(atoms, eps), composed.delta(eps))


def test_width_shrinks_with_step_and_bits() -> None:
    eps = F(1)
    coarse = pld.gaussian_pld(1, step=F(1, 25)).self_compose(4).delta(eps).width
    fine = pld.gaussian_pld(1, step=F(1, 100)).self_compose(4).delta(eps).width
    assert fine < coarse / 3
    rr = F(1, 2)
    few = pld.randomized_response_pld(rr, step=STEP, bits=20).self_compose(6).delta(eps).width
    many = pld.randomized_response_pld(rr, step=STEP, bits=40).self_compose(6).delta(eps).width
    assert many < few / 2**15


def _survival(g: grid_.Grid, index: int) -> int:
    """Units of mass at indices >= index (+∞ included)."""
    start = max(index - g.offset, 0)
    return sum(g.masses[start:]) + g.infinity


def test_grid_invariants_after_composition(gauss: pld.CertifiedPLD) -> None:
    composed = gauss.self_compose(5)
    up, low = composed.upper, composed.lower
    assert sum(up.masses) + up.infinity == 1 << up.bits  # a probability measure
    assert sum(low.masses) <= 1 << low.bits and low.infinity == 0
    # the two grids are not stochastically ordered against each other (the optimistic grid
    # stands for a merged pair, the pessimistic one for a split pair); what is proved is that
    # each δ(ε) bounds the truth from its side, so the optimistic δ is at most the pessimistic
    for eps in (F(0), F(1, 10), F(1, 2), F(1), F(2), F(3)):
        assert composed.delta(eps).lo <= composed.delta(eps).hi
        assert low.table().delta(eps, 256) <= up.table().delta(eps, 256)
    assert _survival(up, up.offset) == 1 << up.bits


def test_exact_convolution_matches_schoolbook() -> None:
    rng = random.Random(35)
    for n, m in ((1, 1), (3, 5), (40, 17)):
        a = tuple(rng.getrandbits(62) for _ in range(n))
        b = tuple(rng.getrandbits(62) for _ in range(m))
        slow = [sum(a[i] * b[s - i] for i in range(n) if 0 <= s - i < m) for s in range(n + m - 1)]
        assert grid_.exact_convolution(a, b) == slow


def test_heavy_truncation_stays_sound() -> None:
    """A huge tail moves visible mass to +∞ (pessimistic) or drops it (optimistic): wider, sound."""
    g = pld.gaussian_pld(1, step=STEP, tail=1 << 40).self_compose(4)
    assert g.upper.infinity > 0
    exact = analytic_gaussian_delta(F(3), 4, 1, prec=128)
    assert _strictly_inside(exact, g.delta(3))


def test_bad_input() -> None:
    with pytest.raises(InvalidArgument, match="sigma"):
        pld.gaussian_pld(0)
    with pytest.raises(InvalidArgument, match="step"):
        pld.laplace_pld(1, step=0)
    with pytest.raises(InvalidArgument, match="bits"):
        pld.randomized_response_pld(1, bits=64)
    with pytest.raises(InvalidArgument, match="sensitivity"):
        pld.discrete_laplace_pld(1, sensitivity=0)
    g = pld.randomized_response_pld(1, step=STEP)
    with pytest.raises(InvalidArgument, match="k"):
        g.self_compose(0)
    with pytest.raises(InvalidArgument, match="delta"):
        g.epsilon(0)
    with pytest.raises(InvalidArgument, match="epsilon"):
        g.delta(-1)
    with pytest.raises(InvalidArgument, match="step"):
        g.compose(pld.randomized_response_pld(1, step=F(1, 10)))


def _grid_delta(g: grid_.Grid, eps: F) -> Interval:
    """The exact δ(ε) of a grid itself, enclosed at 400 bits (reference for the directed tables)."""
    with working_precision(400):
        unit = ball(F(1, 1 << g.bits))
        atoms = [((g.offset + n) * g.step, m * unit) for n, m in enumerate(g.masses) if m]
        box = _finite_delta(atoms, eps)
        return Interval(box.lo + F(g.infinity, 1 << g.bits), box.hi + F(g.infinity, 1 << g.bits))


@pytest.mark.parametrize("upper", [True, False])
def test_delta_table_rounds_in_its_direction(upper: bool) -> None:
    """The δ and ε of one grid against its own δ enclosed 144 bits tighter: the upper table must
    never be below it and the lower table never above (catches a wrongly rounded e^{-h} too)."""
    rng = random.Random(7 if upper else 8)
    masses = tuple(rng.getrandbits(40) for _ in range(300))
    g = grid_.Grid(F(1, 50), 62, -120, masses, rng.getrandbits(20) if upper else 0, upper)
    for eps in (F(0), F(1, 7), F(1, 2), F(3)):
        exact = _grid_delta(g, eps)
        for prec in (24, 256):  # at 24 bits the final ball's own radius dominates
            got = g.table().delta(eps, prec)
            assert (got >= exact.hi) if upper else (got <= exact.lo)
    for delta in (F(1, 10**12), F(1, 1000), F(1, 3)):
        eps = g.table().epsilon(delta, 256)
        if upper:
            assert _grid_delta(g, eps).hi <= delta
        else:
            assert eps == 0 or _grid_delta(g, eps).lo >= delta


@pytest.mark.parametrize("eps", [F(0), F(1, 2), F(9, 10)])
def test_split_is_exact_at_grid_points(gauss: pld.CertifiedPLD, eps: F) -> None:
    """The split (connect-the-dots) pair has the true δ at grid points for one mechanism: the
    pessimistic end exceeds the truth by mass rounding only."""
    for box, exact in (
        (gauss.delta(eps), analytic_gaussian_delta(eps, 1, 1, prec=128)),
        (pld.laplace_pld(2, 2, step=STEP).delta(eps), _laplace_exact(F(1), eps)),
    ):
        assert exact.hi <= box.hi < exact.hi + F(1, 2**50)


def _laplace_exact(eps0: F, eps: F) -> Interval:
    with working_precision(320):
        return to_interval(1 - ball((eps - eps0) / 2).exp())


@pytest.mark.parametrize(("step", "k"), [(F(1, 2), 1), (F(1, 3), 3), (F(1, 4), 6)])
def test_coarse_grid_merge_stays_sound(step: F, k: int) -> None:
    """On coarse grids the merged buckets' losses often fall below their grid point and must be
    moved one point down; the enclosure must still contain the truth."""
    composed = pld.gaussian_pld(F(3, 4), step=step).self_compose(k)
    for eps in (F(0), F(1), F(3)):
        exact = analytic_gaussian_delta(eps, k, F(3, 4), prec=128)
        assert _strictly_inside(exact, composed.delta(eps))


def test_merge_moves_a_bucket_down_when_its_loss_is_below_the_point() -> None:
    """Two atoms at ±(1/2 − 1/1000), merged on a grid of step 1/10: the bucket around 1/2 holds
    only the atom below 1/2, so it must go down to 2/5; left at 1/2 the optimistic δ would exceed
    the truth."""
    eps0 = F(1, 2) - F(1, 1000)

    def survival(x: F, strict: bool, under_q: bool) -> arb:
        w = ball(eps0).exp()
        return pld._atoms_survival([(eps0, w / (1 + w)), (-eps0, 1 / (1 + w))], x, strict, under_q)

    low = grid_.discretize_lower(survival, F(1, 10), 62, -6, 6, merge=True)
    for eps in (F(0), F(1, 4)):
        with working_precision(320):
            w = ball(eps0).exp()
            exact = _finite_delta([(eps0, w / (1 + w)), (-eps0, 1 / (1 + w))], eps)
        assert low.table().delta(eps, 256) <= exact.lo


def test_epsilon_refused_below_the_infinite_atom(gauss: pld.CertifiedPLD) -> None:
    """The pessimistic grid keeps the Gaussian's far tail at +∞ (at least 2^-62): a δ below it has
    no certified finite ε, which must be an error, not a number."""
    assert gauss.upper.infinity >= 1
    with pytest.raises(TooLargeToEnumerate, match="infinite loss"):
        gauss.epsilon(F(1, 10**30))


def _subsampled_exact(sigma: F, q: F, order: str, eps: F) -> Interval:
    """δ(ε) of one Poisson-subsampled Gaussian (Zhu-Dong-Wang's pairs), directly: the optimal set
    is a half-line {X > c} (remove) or {X < c} (add) with c where the likelihood ratio is e^ε."""
    with working_precision(320):
        root2 = arb(2).sqrt()

        def upper_tail(y: arb) -> arb:
            return (y / root2).erfc() / 2

        ratio = ball(eps).exp() if order == "remove" else (-ball(eps)).exp()
        if not ratio > 1 - ball(q):  # the whole line (remove) or nothing (add) has loss > ε
            raise AssertionError("pick ε inside the loss range")
        c = ball(sigma * sigma) * ((ratio - (1 - ball(q))) / ball(q)).log() + ball(F(1, 2))
        mix = ((1 - ball(q)) * upper_tail(c / ball(sigma))
               + ball(q) * upper_tail((c - 1) / ball(sigma)))
        base = upper_tail(c / ball(sigma))
        if order == "remove":  # P = mixture, Q = N(0, σ²), S = {X > c}
            return to_interval(mix - ball(eps).exp() * base)
        # add: P = N(0, σ²), Q = mixture, S = {X < c}
        return to_interval((1 - base) - ball(eps).exp() * (1 - mix))


@pytest.mark.parametrize("order", ["remove", "add"])
def test_poisson_subsampled_gaussian_single(order: str) -> None:
    sigma, q = F(1), F(1, 5)
    g = pld.poisson_subsampled_gaussian_pld(sigma, q, order, step=F(1, 100))
    for eps in (F(0), F(1, 20), F(1, 10)):
        exact = _subsampled_exact(sigma, q, order, eps)
        assert _inside(exact, g.delta(eps))
        assert g.delta(eps).width < F(1, 1000)
    two = g.self_compose(2)
    assert two.delta(F(1, 10)).lo > g.delta(F(1, 10)).hi  # composing costs privacy


def test_poisson_subsampled_bad_input() -> None:
    with pytest.raises(InvalidArgument, match="rate"):
        pld.poisson_subsampled_gaussian_pld(1, 1, "remove")
    with pytest.raises(InvalidArgument, match="order"):
        pld.poisson_subsampled_gaussian_pld(1, F(1, 2), "replace")
