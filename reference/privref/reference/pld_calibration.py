"""DP-SGD accounting over certified PLDs: δ(ε) and ε(δ) after k steps, and σ calibration.

**Mechanism.**  DP-SGD (Abadi, Chu, Goodfellow, McMahan, Mironov, Talwar & Zhang 2016,
Algorithm 1) with Poisson sampling: each of k steps keeps every record independently with
probability q, sums the kept records' gradients clipped to ℓ2-norm 1 and adds N(0, σ²·I).  Under
add/remove neighbours each step is dominated by the pair of
:func:`~privref.reference.pld.poisson_subsampled_gaussian_pld` for its order ("remove":
((1−q)N(0, σ²) + qN(1, σ²), N(0, σ²)); "add": the reverse), tight for each direction, and the
k-step mechanism by the k-fold product (Zhu, Dong & Wang 2022, Theorems 10-11 and Proposition 30).
Its privacy profile is δ(ε) = max over the two orders of the composed δ_order(ε), and its ε at
δ is the larger of the two orders' ε.  The certified PLDs (Doroshenko, Ghazi, Kamath, Kumar &
Manurangsi 2022 for the pessimistic "connect-the-dots" grid; :mod:`.pld` for the proof) give,
for each order, [lo, hi] with lo <= δ_order(ε) <= hi proved; so

    max(lo_add, lo_remove) <= δ(ε) <= max(hi_add, hi_remove)

is proved, and likewise for ε(δ).  Rate q = 1 is the Gaussian mechanism itself: k steps are k
sensitivity-1 Gaussian queries, whose exact profile is the analytic Gaussian (Balle & Wang 2018,
Theorem 8; :mod:`.accounting`), used directly.

**Calibration** (:func:`calibrate_dpsgd_sigma`).  δ(ε; σ) is nonincreasing in σ (more noise is a
post-processing: add independent N(0, σ'² − σ²)), so a σ whose pessimistic δ(ε) is <= δ for
both orders is proved (ε, δ)-DP, every larger σ too, and a σ whose optimistic δ(ε) exceeds δ for
some order is proved not to be, nor any smaller σ.  The search probes rationals, keeps the largest
σ proved unsafe and the smallest proved safe, and returns them: σ_lo < σ* <= σ_hi for the least
safe σ*.  A probe that is neither (the grid's slack straddles δ) narrows nothing; the bracket
then stops at about the grid's resolution, wider than the tolerance but still proved.  Floats
only choose where to probe (an estimate from the Gaussian-DP central limit theorem of Bu, Dong,
Long & Su 2020, μ = q·√(k(e^{1/σ²} − 1)), and regula falsi on log δ): no float decides a
verdict.

**Work is bounded before it starts**: k <= :data:`MAX_STEPS`, a single step's grid at most
:data:`MAX_STEP_POINTS` points and the composed grid's estimated size at most
:data:`MAX_COMPOSED_POINTS` (:func:`check_grid`, raising TooLargeToEnumerate that names the
limit and the coarser step to use), and a calibration at most :data:`MAX_PROBES` probes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Final

from .accounting import analytic_gaussian_delta, calibrate_sigma, epsilon_ex_post
from .errors import InvalidArgument, TooLargeToEnumerate
from .pld import DEFAULT_BITS, CertifiedPLD, poisson_subsampled_gaussian_pld
from .reals import Interval
from .validate import ExactInput, check_int, to_fraction

__all__ = [
    "DEFAULT_CALIBRATION_STEP",
    "DEFAULT_CALIBRATION_TOLERANCE",
    "MAX_COMPOSED_POINTS",
    "MAX_PROBES",
    "MAX_STEPS",
    "MAX_STEP_POINTS",
    "ORDERS",
    "calibrate_dpsgd_sigma",
    "check_grid",
    "dpsgd_delta",
    "dpsgd_epsilon",
    "dpsgd_pld",
    "estimated_points",
]

ORDERS: Final = ("remove", "add")
"""The two ordered pairs of add/remove neighbours (the mechanism's δ is the larger)."""

MAX_STEPS: Final = 10**6
"""Most composed steps k (the issue's DP-SGD tasks go to 10^5)."""

MAX_STEP_POINTS: Final = 50_000
"""Most grid points of one step's PLD (discretizing costs about 1 ms of arb per point, so a
probe at the limit takes about a minute per order)."""

MAX_COMPOSED_POINTS: Final = 4_000_000
"""Most grid points of the k-step PLD, as estimated by :func:`estimated_points` (memory: a
few grids of this many Python integers)."""

MAX_PROBES: Final = 60
"""Most σ values one calibration may probe (each probe composes two PLDs)."""

DEFAULT_CALIBRATION_STEP: Final = Fraction(1, 200)
"""Default grid spacing of a calibration (coarser than pld.DEFAULT_STEP: many probes)."""

DEFAULT_CALIBRATION_TOLERANCE: Final = Fraction(1, 1000)
"""Default relative width at which a calibration stops: σ_hi − σ_lo <= tolerance·σ_hi."""

_TAIL_SIGMAS: Final = 12.0
"""Standard deviations the estimated composed grid spans on each side (a size estimate only)."""


# --------------------------------------------------------------------------- validation


def _rate(value: object) -> Fraction:
    q = to_fraction(value, "rate")
    if not 0 < q <= 1:
        raise InvalidArgument(f"rate={q} must lie in (0, 1]")
    return q


def _steps(value: object) -> int:
    return check_int(value, "steps", minimum=1, maximum=MAX_STEPS)


def _sigma(value: object) -> Fraction:
    s = to_fraction(value, "sigma")
    if s <= 0:
        raise InvalidArgument(f"sigma={s} must be > 0")
    return s


def _delta(value: object) -> Fraction:
    d = to_fraction(value, "delta")
    if not 0 < d < 1:
        raise InvalidArgument(f"delta={d} must lie in (0, 1)")
    return d


def _grid_step(value: object) -> Fraction:
    h = to_fraction(value, "step")
    if not Fraction(1, 1 << 30) <= h <= 1:
        raise InvalidArgument(f"step={h} must lie in [2^-30, 1]")
    return h


# --------------------------------------------------------------------------- size bounds


def _log_growth(sigma: float, rate: float, reach: float) -> float:
    """ln(1 − q + q·e^a), a = (2·reach − 1)/(2σ²), without overflow (a float estimate)."""
    a = (2 * reach - 1) / (2 * sigma * sigma)
    if a > 600:
        return a + math.log(rate) + math.log1p((1 - rate) / rate * math.exp(-a))
    return math.log1p(rate * math.expm1(a))


def estimated_points(sigma: ExactInput, rate: ExactInput, steps: int,
                     step: ExactInput) -> tuple[int, int]:
    """(points of one step's grid, estimated points of the k-step grid), per order, in floats.

    One step: the grid of :func:`~privref.reference.pld.poisson_subsampled_gaussian_pld` spans
    the losses of outputs within 12 standard deviations (more than its Φ(−z) < 2^-70 radius),
    ln(1 − q + q·e^{(2x − 1)/(2σ²)}) at x = 1 + 12σ, down to −q/(1 − q).  k steps: by the
    Gaussian-DP central limit theorem (Bu, Dong, Long & Su 2020) the composed loss is close to
    N(μ²/2, μ²), μ = q·√(k(e^{1/σ²} − 1)), so its grid spans about μ²/2 + 2·12·μ beyond one
    step's (capped at k times one step's, the size before truncation).  A resource estimate,
    never a verdict; the grid code enforces its own hard limit (_pld_grid.MAX_POINTS).
    """
    s, q = float(_sigma(sigma)), float(_rate(rate))
    k, h = _steps(steps), float(_grid_step(step))
    if q == 1:
        return 0, 0
    huge = 1 << 62
    top = _log_growth(s, q, 1 + _TAIL_SIGMAS * s)
    one = min(huge, math.ceil((top + q / (1 - q)) / h) + 3)
    if 1 / (s * s) > 600:  # e^{1/σ²} is beyond floats: the CLT says nothing useful here
        return one, min(huge, k * one)
    mu = q * math.sqrt(k * math.expm1(1 / (s * s)))
    spread = math.ceil((mu * mu / 2 + 2 * _TAIL_SIGMAS * mu) / h)
    return one, min(huge, k * one, one + spread)


def check_grid(sigma: ExactInput, rate: ExactInput, steps: int, step: ExactInput) -> int:
    """Raise TooLargeToEnumerate, before any work, when one step's grid would exceed
    :data:`MAX_STEP_POINTS` points or the k-step grid's estimate :data:`MAX_COMPOSED_POINTS`
    (see :func:`estimated_points`); return the estimated k-step points."""
    one, composed = estimated_points(sigma, rate, steps, step)
    h = _grid_step(step)
    if one > MAX_STEP_POINTS:
        coarser = Fraction(math.ceil(one / MAX_STEP_POINTS)) * h
        advice = f"use step >= {coarser} or a larger sigma" if coarser <= 1 else \
            "use a larger sigma (no step <= 1 is coarse enough)"
        raise TooLargeToEnumerate(
            f"step={h}: one step's PLD at sigma={_sigma(sigma)}, rate={_rate(rate)} needs about "
            f"{one} grid points > MAX_STEP_POINTS={MAX_STEP_POINTS}; {advice}")
    if composed > MAX_COMPOSED_POINTS:
        raise TooLargeToEnumerate(
            f"step={h}: {_steps(steps)} steps at sigma={_sigma(sigma)}, rate={_rate(rate)} "
            f"need about {composed} grid points > MAX_COMPOSED_POINTS={MAX_COMPOSED_POINTS}; "
            "use a coarser step or fewer steps")
    return composed


# --------------------------------------------------------------------------- δ(ε), ε(δ)


def dpsgd_pld(sigma: ExactInput, rate: ExactInput, order: str, steps: int, *,
              step: ExactInput = DEFAULT_CALIBRATION_STEP,
              bits: int = DEFAULT_BITS) -> CertifiedPLD:
    """The certified PLD of k Poisson-subsampled Gaussian steps for one ``order`` ("remove" or
    "add"): :func:`~privref.reference.pld.poisson_subsampled_gaussian_pld` composed k times
    (Zhu, Dong & Wang 2022), after :func:`check_grid`.  Rate q < 1 (q = 1 is the Gaussian)."""
    q = _rate(rate)
    if q == 1:
        raise InvalidArgument("rate=1 has no subsampled PLD: k steps at rate 1 are the Gaussian "
                              "mechanism (use dpsgd_delta / dpsgd_epsilon, or pld.gaussian_pld)")
    check_grid(sigma, q, steps, step)
    one = poisson_subsampled_gaussian_pld(sigma, q, order, step=step, bits=bits)
    return one.self_compose(_steps(steps))


def dpsgd_delta(sigma: ExactInput, rate: ExactInput, steps: int, epsilon: ExactInput, *,
                step: ExactInput = DEFAULT_CALIBRATION_STEP) -> Interval:
    """[lo, hi] with lo <= δ(ε) <= hi proved for k DP-SGD steps (Poisson rate q, noise σ,
    clipping norm 1) under add/remove neighbours: the larger of the two orders' enclosures
    (module docstring); at q = 1 the analytic Gaussian with k queries (Balle & Wang 2018)."""
    s, q, k = _sigma(sigma), _rate(rate), _steps(steps)
    e = to_fraction(epsilon, "epsilon")
    if e < 0:
        raise InvalidArgument(f"epsilon={e} must be >= 0")
    if q == 1:
        return analytic_gaussian_delta(e, k, s)
    boxes = [dpsgd_pld(s, q, order, k, step=step).delta(e) for order in ORDERS]
    return Interval(max(b.lo for b in boxes), max(b.hi for b in boxes))


def dpsgd_epsilon(sigma: ExactInput, rate: ExactInput, steps: int, delta: ExactInput, *,
                  step: ExactInput = DEFAULT_CALIBRATION_STEP) -> Interval:
    """[lo, hi] containing the least ε >= 0 with δ(ε) <= δ for k DP-SGD steps (as
    :func:`dpsgd_delta`), proved: hi is proved safe for both orders, every ε < lo unsafe for one.
    At q = 1 the analytic Gaussian's ex-post ε after k queries (:func:`.accounting.epsilon_ex_post`).
    Raises TooLargeToEnumerate when δ is below the pessimistic grid's mass at infinite loss."""
    s, q, k, d = _sigma(sigma), _rate(rate), _steps(steps), _delta(delta)
    if q == 1:
        return epsilon_ex_post(s, k, d)
    boxes = [dpsgd_pld(s, q, order, k, step=step).epsilon(d) for order in ORDERS]
    return Interval(max(b.lo for b in boxes), max(b.hi for b in boxes))


# --------------------------------------------------------------------------- calibration

_Probe = tuple[bool | None, float]
"""(True: proved safe / False: proved unsafe / None: neither, a float hint ln δ̃(ε) − ln δ)."""


def _verdict(sigma: Fraction, rate: Fraction, steps: int, epsilon: Fraction, delta: Fraction,
             step: Fraction) -> _Probe:
    """Decide δ(ε; σ) <= δ through both orders' certified PLDs ("remove" first: it usually
    decides).  Safe: every order's pessimistic δ(ε) <= δ; unsafe: some order's optimistic
    δ(ε) > δ.  The float is ln of the largest enclosure midpoint minus ln δ (a hint only)."""
    worst: Fraction | None = None
    safe = True
    for order in ORDERS:
        box = dpsgd_pld(sigma, rate, order, steps, step=step).delta(epsilon)
        mid = (box.lo + box.hi) / 2
        worst = mid if worst is None else max(worst, mid)
        hint = _log_ratio(worst, delta)
        if box.lo > delta:
            return False, hint
        if box.hi > delta:
            safe = False
    assert worst is not None
    return (True if safe else None), _log_ratio(worst, delta)


def _log_ratio(value: Fraction, delta: Fraction) -> float:
    """ln(value/δ) as a float (a search hint; −700 when value is 0)."""
    if value <= 0:
        return -700.0
    return (math.log(value.numerator) - math.log(value.denominator)
            - math.log(delta.numerator) + math.log(delta.denominator))


def _clt_guess(rate: Fraction, steps: int, epsilon: Fraction, delta: Fraction) -> Fraction:
    """A σ near the calibrated one (a float proposal only): the μ-GDP mechanism at (ε, δ)
    (the analytic Gaussian's calibration for one query, μ = 1/σ₁) matched to DP-SGD's CLT
    μ = q·√(k(e^{1/σ²} − 1)) (Bu, Dong, Long & Su 2020), solved for σ."""
    sigma1 = calibrate_sigma(1, epsilon, delta, Fraction(1, 1 << 10)).hi
    ratio = 1 / (float(rate) * float(sigma1))
    guess = 1 / math.sqrt(math.log1p(ratio * ratio / steps))
    return Fraction(guess).limit_denominator(1 << 20) if guess < 1e6 else Fraction(10**6)


def calibrate_dpsgd_sigma(rate: ExactInput, steps: int, epsilon: ExactInput, delta: ExactInput,
                          *, step: ExactInput = DEFAULT_CALIBRATION_STEP,
                          tolerance: ExactInput = DEFAULT_CALIBRATION_TOLERANCE) -> Interval:
    """[σ_lo, σ_hi] around the least noise σ for which k DP-SGD steps (Poisson rate q, clipping
    norm 1, add/remove neighbours; Abadi et al. 2016) are (ε, δ)-DP.

    Guarantee: σ_hi is proved (ε, δ)-DP (its pessimistic δ(ε) <= δ for both orders of the
    certified PLD, Doroshenko et al. 2022, Zhu, Dong & Wang 2022), and σ_lo is proved not to
    be (its optimistic δ(ε) > δ for one order); so the calibrated σ lies in (σ_lo, σ_hi].  The
    search stops when σ_hi − σ_lo <= tolerance·σ_hi, or earlier at the grid's resolution (a
    wider bracket, still proved; refine ``step`` to narrow it), or after MAX_PROBES probes.
    At q = 1 this is :func:`.accounting.calibrate_sigma` with k queries (the analytic
    Gaussian).  Raises InvalidArgument when δ >= 1 − (1 − q)^k (every σ > 0 is then
    (ε, δ)-DP: a record is sampled at all with probability 1 − (1 − q)^k, which bounds the
    total variation), and TooLargeToEnumerate when no unsafe σ is found before the grid
    exceeds its size limit (:func:`check_grid`) or no safe one within MAX_PROBES.
    """
    q, k = _rate(rate), _steps(steps)
    e = to_fraction(epsilon, "epsilon")
    if e <= 0:
        raise InvalidArgument(f"epsilon={e} must be > 0")
    d = _delta(delta)
    h = _grid_step(step)
    tol = to_fraction(tolerance, "tolerance")
    if not Fraction(1, 1 << 60) <= tol < 1:
        raise InvalidArgument(f"tolerance={tol} must lie in [2^-60, 1)")
    if q == 1:
        return calibrate_sigma(k, e, d, tol)
    never = 1 - (1 - q) ** k
    if d >= never:
        raise InvalidArgument(
            f"delta={d} must be < 1 - (1 - rate)^steps = {float(never):.6g}: at or above it "
            "every sigma > 0 is (epsilon, delta)-DP (nothing to calibrate)")
    return _search(lambda s: _verdict(s, q, k, e, d, h), _clt_guess(q, k, e, d), tol,
                   lambda s: check_grid(s, q, k, h))


def _search(probe: Callable[[Fraction], _Probe], guess: Fraction, tol: Fraction,
            fits: Callable[[Fraction], int]) -> Interval:
    """Bracket and narrow the threshold of a σ-monotone three-valued predicate.

    Every end returned is a proved verdict: hi is the least σ probed True, lo the largest probed
    False (σ* > lo and σ* <= hi follow from monotonicity of the truth, whatever the order of the
    probes).  Probes that return None are kept as "undecided" and the remaining gaps between
    them and the ends are bisected; floats (the hints) only propose where to probe.
    """
    probes = 0
    safe: tuple[Fraction, float] | None = None  # least σ proved safe, with its hint
    unsafe: tuple[Fraction, float] | None = None  # largest σ proved unsafe
    undecided: list[Fraction] = []

    def run(x: Fraction) -> bool | None:
        nonlocal probes, safe, unsafe
        probes += 1
        verdict, hint = probe(x)
        if verdict is True and (safe is None or x < safe[0]):
            safe = (x, hint)
        elif verdict is False and (unsafe is None or x > unsafe[0]):
            unsafe = (x, hint)
        elif verdict is None:
            undecided.append(x)
        return verdict

    fits(guess)
    run(guess)
    factor = Fraction(9, 8)
    while safe is None:  # upwards from everything probed
        top = max([guess, *undecided, *([unsafe[0]] if unsafe else [])])
        if probes >= MAX_PROBES:
            raise TooLargeToEnumerate(f"no sigma proved safe up to {float(top):.6g} within "
                                      f"MAX_PROBES={MAX_PROBES} probes")
        run(Interval.point(top * factor).rounded(24).hi)
        factor *= factor
    factor = Fraction(9, 8)
    while unsafe is None:  # downwards
        x = Interval.point(min([safe[0], *undecided]) / factor).rounded(24).lo
        try:
            fits(x)
        except TooLargeToEnumerate as exc:
            raise TooLargeToEnumerate(f"no sigma proved unsafe down to {float(x):.6g}: {exc}") \
                from None
        if probes >= MAX_PROBES:
            raise TooLargeToEnumerate(f"no sigma proved unsafe above {float(x):.6g} within "
                                      f"MAX_PROBES={MAX_PROBES} probes")
        run(x)
        factor *= factor
    plain = 0
    while probes < MAX_PROBES:
        lo, g_lo = unsafe
        hi, g_hi = safe
        if hi - lo <= tol * hi:
            break
        inside = [u for u in undecided if lo < u < hi]
        undecided[:] = inside
        if inside:  # bisect the larger gap between a proved end and the undecided zone
            low_gap, high_gap = min(inside) - lo, hi - max(inside)
            if max(low_gap, high_gap) <= tol * hi / 2:
                break  # the grid's resolution: the bracket cannot close further
            x = (lo + min(inside)) / 2 if low_gap >= high_gap else (max(inside) + hi) / 2
        else:
            x = (lo + hi) / 2
            plain += 1
            if plain % 3 and g_lo > 0 > g_hi:  # regula falsi on the hints (a proposal)
                guess_x = hi - (hi - lo) * Fraction(g_hi / (g_hi - g_lo))
                margin = (hi - lo) / 16
                if lo + margin < guess_x < hi - margin:
                    x = guess_x
        run(Interval.point(x).rounded(64).hi)
    assert safe is not None and unsafe is not None
    return Interval(unsafe[0], safe[0])
