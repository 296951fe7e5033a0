"""DP-SGD accounting and σ calibration over certified PLDs (privref.reference.pld_calibration).

Every bracket end is re-decided here without the module's search: through CertifiedPLD.delta of
freshly built PLDs (both orders), through an independent mpmath evaluation of one step's exact
δ(ε) (the optimal event of Zhu-Dong-Wang's pair is a half-line), and, at rate 1, through the
analytic Gaussian.  Coarse grids (h = 1/50) keep the file fast.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

from privref.reference import pld
from privref.reference import pld_calibration as pc
from privref.reference.accounting import analytic_gaussian_delta, calibrate_sigma
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate
from privref.reference.reals import Interval

H = F(1, 50)


def _pld_delta(sigma: F, q: F, k: int, eps: F, order: str) -> Interval:
    return pld.poisson_subsampled_gaussian_pld(sigma, q, order, step=H).self_compose(k).delta(eps)


def _proved_safe(sigma: F, q: F, k: int, eps: F, delta: F) -> bool:
    return all(_pld_delta(sigma, q, k, eps, o).hi <= delta for o in ("add", "remove"))


def _proved_unsafe(sigma: F, q: F, k: int, eps: F, delta: F) -> bool:
    return any(_pld_delta(sigma, q, k, eps, o).lo > delta for o in ("add", "remove"))


def _mpf(x: F) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _one_step_delta(sigma: F, q: F, eps: F) -> mpmath.mpf:
    """max over the two orders of one subsampled-Gaussian step's δ(ε), by mpmath at 60 digits.

    Remove: P = (1−q)N(0,σ²) + qN(1,σ²), Q = N(0,σ²); P/Q = 1 − q + q·e^{(2x−1)/(2σ²)} is
    increasing in x, so the optimal event is {x > c} with P/Q = e^ε at c.  Add: the pair
    reversed, so the event is {x < c'} with Q/P = e^{−ε} at c'."""
    with mpmath.workdps(60):
        s, qq, e = _mpf(sigma), _mpf(q), _mpf(eps)

        def tail(x: mpmath.mpf, mean: int) -> mpmath.mpf:  # P(N(mean, σ²) > x)
            return mpmath.erfc((x - mean) / (s * mpmath.sqrt(2))) / 2

        def cut(ratio: mpmath.mpf) -> mpmath.mpf:
            return s * s * mpmath.log((ratio - (1 - qq)) / qq) + mpmath.mpf(1) / 2

        c = cut(mpmath.exp(e))
        remove = (1 - qq) * tail(c, 0) + qq * tail(c, 1) - mpmath.exp(e) * tail(c, 0)
        deltas = [remove]
        if mpmath.exp(-e) > 1 - qq:
            c2 = cut(mpmath.exp(-e))
            add = (1 - tail(c2, 0)) - mpmath.exp(e) * (1 - (1 - qq) * tail(c2, 0)
                                                        - qq * tail(c2, 1))
            deltas.append(add)
        return max(deltas)


Task = tuple[F, int, F, F, Interval]


def _task(q: F, k: int, eps: F, delta: F) -> Task:
    return q, k, eps, delta, pc.calibrate_dpsgd_sigma(q, k, eps, delta, step=H,
                                                      tolerance=F(1, 20))


@pytest.fixture(scope="module")
def ten_steps() -> Task:
    return _task(F(1, 10), 10, F(1), F(1, 10**5))


@pytest.fixture(scope="module")
def hundred_steps() -> Task:
    # q = 1/100 at h = 1/50: the optimistic grid is far below the truth, so many probes are
    # neither proved safe nor unsafe and the bracket stops wider than the tolerance
    return _task(F(1, 100), 100, F(1), F(1, 10**5))


# both ends of the same ten-step calibration are proved in CI through the command
# (tests/app/test_account_pld.py::test_calibrate_ends_are_proved); here in the deep tier
@pytest.mark.parametrize("task", [pytest.param("ten_steps", marks=pytest.mark.deep),
                                  pytest.param("hundred_steps", marks=pytest.mark.deep)])
def test_sigma_hi_is_proved_safe_and_sigma_lo_unsafe(task: str,
                                                     request: pytest.FixtureRequest) -> None:
    q, k, eps, delta, sigma = request.getfixturevalue(task)
    assert 0 < sigma.lo < sigma.hi
    assert _proved_safe(sigma.hi, q, k, eps, delta)
    assert _proved_unsafe(sigma.lo, q, k, eps, delta)


@pytest.mark.deep  # the hundred-step calibration takes about 15 s
def test_undecided_zone_is_kept_out_of_the_bracket(hundred_steps: Task) -> None:
    # the grid cannot decide much of (σ_lo, σ_hi): its midpoint is neither proved safe nor
    # proved unsafe, which is why the search stopped there
    q, k, eps, delta, sigma = hundred_steps
    assert sigma.width > sigma.hi / 20
    mid = (sigma.lo + sigma.hi) / 2
    assert not _proved_safe(mid, q, k, eps, delta)
    assert not _proved_unsafe(mid, q, k, eps, delta)


def test_bracket_reaches_the_tolerance_when_the_grid_allows(ten_steps: Task) -> None:
    *_, sigma = ten_steps
    assert sigma.width <= sigma.hi / 20


def test_subsampling_needs_less_noise_than_the_full_batch(ten_steps: Task) -> None:
    # rate 1 (the analytic Gaussian with k queries) dominates every rate q < 1 (joint convexity
    # of the hockey-stick divergence), so its proved-unsafe σ_lo is above the DP-SGD σ*
    _, k, eps, delta, sigma = ten_steps
    full = calibrate_sigma(k, eps, delta)
    assert sigma.hi < full.lo


@pytest.mark.deep  # about 24 s; the ten-step bracket and privref account calibrate stay in CI
def test_single_step_bracket_holds_the_exact_threshold() -> None:
    # k = 1: δ(ε; σ) by an independent mpmath evaluation must be <= δ at σ_hi and > δ at σ_lo
    q, eps, delta = F(1, 5), F(1, 2), F(1, 100)
    sigma = pc.calibrate_dpsgd_sigma(q, 1, eps, delta, step=H, tolerance=F(1, 50))
    assert _one_step_delta(sigma.hi, q, eps) <= _mpf(delta)
    assert _one_step_delta(sigma.lo, q, eps) > _mpf(delta)


def test_rate_one_is_the_analytic_gaussian() -> None:
    k, eps, delta = 7, F(1, 2), F(1, 1000)
    sigma = pc.calibrate_dpsgd_sigma(1, k, eps, delta, step=H)
    assert sigma == calibrate_sigma(k, eps, delta, pc.DEFAULT_CALIBRATION_TOLERANCE)
    assert analytic_gaussian_delta(eps, k, sigma.hi).hi <= delta
    assert analytic_gaussian_delta(eps, k, sigma.lo).lo > delta
    assert pc.dpsgd_delta(sigma.hi, 1, k, eps) == analytic_gaussian_delta(eps, k, sigma.hi)


def test_dpsgd_delta_is_the_larger_order() -> None:
    sigma, q, k, eps = F(1), F(1, 10), 5, F(1, 2)
    box = pc.dpsgd_delta(sigma, q, k, eps, step=H)
    add, remove = (_pld_delta(sigma, q, k, eps, o) for o in ("add", "remove"))
    assert box == Interval(max(add.lo, remove.lo), max(add.hi, remove.hi))
    assert box.lo > 0 and box.width < box.hi


@pytest.mark.deep  # about 7 s; tests/app/test_account_pld.py proves the same ends, same task, in CI
def test_dpsgd_epsilon_ends_are_proved() -> None:
    sigma, q, k, delta = F(1), F(1, 10), 5, F(1, 10**4)
    eps = pc.dpsgd_epsilon(sigma, q, k, delta, step=H)
    assert 0 < eps.lo < eps.hi
    # (a hair above the upper end: at the end itself δ = the target up to 256-bit rounding)
    assert pc.dpsgd_delta(sigma, q, k, eps.hi + eps.hi / 10**6, step=H).hi <= delta
    # just below the lower end the mechanism is proved not (ε, δ)-DP
    below = eps.lo - eps.lo / 1000
    assert pc.dpsgd_delta(sigma, q, k, below, step=H).lo > delta


def test_delta_at_or_above_the_sampling_bound_is_refused() -> None:
    # 1 − (1 − 1/10)^2 = 19/100: every σ > 0 is (ε, 19/100)-DP, nothing to calibrate
    with pytest.raises(InvalidArgument, match="nothing to calibrate"):
        pc.calibrate_dpsgd_sigma(F(1, 10), 2, 1, F(19, 100), step=H)
    assert pc.dpsgd_delta(F(1, 5), F(1, 10), 2, 0, step=F(1, 10)).hi <= F(19, 100)


@pytest.mark.parametrize(("call", "name"), [
    (lambda: pc.calibrate_dpsgd_sigma(0, 10, 1, F(1, 10**5)), "rate"),
    (lambda: pc.calibrate_dpsgd_sigma(F(3, 2), 10, 1, F(1, 10**5)), "rate"),
    (lambda: pc.calibrate_dpsgd_sigma(F(1, 10), 0, 1, F(1, 10**5)), "steps"),
    (lambda: pc.calibrate_dpsgd_sigma(F(1, 10), pc.MAX_STEPS + 1, 1, F(1, 10**5)), "steps"),
    (lambda: pc.calibrate_dpsgd_sigma(F(1, 10), 10, 0, F(1, 10**5)), "epsilon"),
    (lambda: pc.calibrate_dpsgd_sigma(F(1, 10), 10, float("nan"), F(1, 10**5)), "epsilon"),
    (lambda: pc.calibrate_dpsgd_sigma(F(1, 10), 10, 1, 0), "delta"),
    (lambda: pc.calibrate_dpsgd_sigma(F(1, 10), 10, 1, 1), "delta"),
    (lambda: pc.calibrate_dpsgd_sigma(F(1, 10), 10, 1, F(1, 10**5), tolerance=0), "tolerance"),
    (lambda: pc.calibrate_dpsgd_sigma(F(1, 10), 10, 1, F(1, 10**5), step=2), "step"),
    (lambda: pc.dpsgd_delta(0, F(1, 10), 10, 1), "sigma"),
    (lambda: pc.dpsgd_pld(1, 1, "add", 10), "rate"),
])
def test_bad_input_names_the_argument(call: object, name: str) -> None:
    assert callable(call)
    with pytest.raises(InvalidArgument, match=name):
        call()


def test_grid_limit_is_checked_before_any_work() -> None:
    # σ = 1/100 at h = 2^-20 would need billions of points: refused from the estimate alone
    with pytest.raises(TooLargeToEnumerate, match="MAX_STEP_POINTS"):
        pc.check_grid(F(1, 100), F(1, 100), 10, F(1, 1 << 20))
    with pytest.raises(TooLargeToEnumerate, match="MAX_COMPOSED_POINTS"):
        pc.dpsgd_delta(F(1, 2), F(1, 2), pc.MAX_STEPS, 1, step=F(1, 1000))
    one, composed = pc.estimated_points(1, F(1, 100), 1000, H)
    actual = pld.poisson_subsampled_gaussian_pld(1, F(1, 100), "remove", step=H)
    assert actual.points <= one  # the estimate covers the grid actually built
    assert actual.self_compose(1000).points <= composed


@pytest.mark.deep  # about 21 s; test_grid_limit_is_checked_before_any_work stays in CI
def test_unsafe_sigma_search_stops_at_the_grid_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # δ just below 1 − (1 − q)^k: only a tiny σ is unsafe, and its grid is too large (the
    # limit lowered to keep the test fast)
    monkeypatch.setattr(pc, "MAX_STEP_POINTS", 2000)
    with pytest.raises(TooLargeToEnumerate, match=r"no sigma proved unsafe.*MAX_STEP_POINTS"):
        pc.calibrate_dpsgd_sigma(F(1, 2), 1, F(1, 10), F(1, 2) - F(1, 10**6), step=H)
