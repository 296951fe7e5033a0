"""The arb evaluation of the analytic Gaussian profile against its two independent references.

``accounting.analytic_gaussian_delta`` (and everything built on it: ``calibrate_sigma``,
``epsilon_ex_post``) computes δ(ε) = Φ(−A) − e^ε·Φ(−B) in arb ball arithmetic.  Here it is held
against (1) the series / continued-fraction oracle ``analytic_gaussian_delta_series`` (proved,
no arb), with which its enclosures must overlap, and (2) mpmath at 600 bits (not proved, but
500 bits beyond the enclosures' width).  The far ends are covered: ε up to 10⁴ (e^ε is not a
double), δ down to 10⁻¹⁰⁰⁰, a δ below 2^-2^20 (the magnitude floor of an exact interval), and
precision raised by cancellation.  The last tests break the arithmetic on purpose (a rounding
turned inward, the sign of one term flipped, the cancellation check skipped) and check that the
containment check catches each break.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction as F

import mpmath
import pytest

from privref.reference import _arb
from privref.reference import accounting as acc
from privref.reference._arb import arb
from privref.reference._mp import TINY
from privref.reference.reals import Interval

_BITS = 600
"""mpmath's precision for the reference values."""


@pytest.fixture(autouse=True)
def _reference_precision() -> Iterator[None]:
    with mpmath.workprec(_BITS):
        yield


def _mpf(q: F | int) -> mpmath.mpf:
    v = F(q)
    return mpmath.mpf(v.numerator) / v.denominator


def _exact(x: mpmath.mpf) -> F:
    """The exact rational value of a (finite) mpmath number."""
    sign, man, exp, _ = x._mpf_
    value = F(int(man) * 2**exp) if exp >= 0 else F(int(man), 2**-exp)
    return -value if sign else value


def _truth(eps: F, queries: F, sigma: F) -> mpmath.mpf:
    """δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ), μ = √q/σ, by mpmath at _BITS bits (Balle-Wang 2018
    Theorem 8); Φ(−x) = erfc(x/√2)/2."""
    mu = mpmath.sqrt(_mpf(queries)) / _mpf(sigma)
    e = _mpf(eps)
    root2 = mpmath.sqrt(2)
    return (mpmath.erfc((e / mu - mu / 2) / root2)
            - mpmath.exp(e) * mpmath.erfc((e / mu + mu / 2) / root2)) / 2


def _holds_truth(box: Interval, truth: mpmath.mpf) -> bool:
    """Containment, with the mpmath reference's own error (2^-(_BITS - 40) relative) allowed."""
    slack = abs(truth) * mpmath.mpf(2) ** -(_BITS - 40)
    return box.lo <= _exact(truth + slack) and _exact(truth - slack) <= box.hi


_GRID = [(eps, q, sigma)
         for eps in (F(0), F(1, 2), F(1), F(3), F(20))
         for q in (F(1), F(401, 10))
         for sigma in (F(1, 3), F(2), F(40))]


def _misses(grid: list[tuple[F, F, F]], prec: int = 64) -> list[tuple[F, F, F]]:
    """The grid points whose enclosure of δ(ε) does not contain the reference value."""
    return [(e, q, s) for e, q, s in grid
            if not _holds_truth(acc.analytic_gaussian_delta(e, q, s, prec), _truth(e, q, s))]


# ------------------------------------------------------------------- the two references


def test_the_arb_profile_contains_the_reference_on_a_grid() -> None:
    assert _misses(_GRID) == []


@pytest.mark.parametrize(("eps", "q", "sigma"), _GRID[::3])
def test_the_arb_profile_and_the_series_oracle_overlap_and_are_both_narrow(eps: F, q: F,
                                                                           sigma: F) -> None:
    """Two proved enclosures of the same number must intersect; both meet their precision."""
    fast = acc.analytic_gaussian_delta(eps, q, sigma, 64)
    slow = acc.analytic_gaussian_delta_series(eps, q, sigma, 64)
    assert fast.lo <= slow.hi and slow.lo <= fast.hi, (fast, slow)
    for box in (fast, slow):
        assert box.hi - box.lo <= box.lo / 2**60 or box.hi <= TINY


def test_the_oracle_alone_catches_a_profile_off_by_its_last_bits() -> None:
    """The overlap check can fail: the arb box moved up by twice its width misses the oracle."""
    fast = acc.analytic_gaussian_delta(1, 1, 2)
    slow = acc.analytic_gaussian_delta_series(1, 1, 2)
    moved = Interval(fast.lo + 2 * fast.width, fast.hi + 2 * fast.width)
    assert not (moved.lo <= slow.hi and slow.lo <= moved.hi)


# ------------------------------------------------------------------- large ε, tiny δ


@pytest.mark.parametrize(("eps", "sigma"), [(F(10**4), F(1, 140)), (F(10**4), F(1, 150)),
                                            (F(710), F(1, 38)), (F(5000), F(1, 100))])
def test_epsilon_up_to_ten_thousand_is_enclosed_without_overflow(eps: F, sigma: F) -> None:
    """e^ε with ε >= 710 is not a double (Google's C++ PLD overflowed to NaN there); arb's
    exponents are unbounded.  μ = 1/σ puts δ(ε) at a moderate size, where the two terms cancel."""
    box = acc.analytic_gaussian_delta(eps, 1, sigma, 64)
    truth = _truth(eps, F(1), sigma)
    assert 0 < truth < 1 and _holds_truth(box, truth)
    assert box.hi - box.lo <= box.lo / 2**60


def test_a_profile_below_the_magnitude_floor_is_zero_to_tiny() -> None:
    """ε = 10⁴, μ = 1: δ ≈ e^{-5·10⁷} < 2^-2^20, below the smallest exact endpoint; the answer is
    the proved [0, 2^-2^20], not an underflow to 0."""
    box = acc.analytic_gaussian_delta(10**4, 1, 1)
    assert box == Interval(F(0), TINY)
    assert 0 < _truth(F(10**4), F(1), F(1)) < mpmath.ldexp(1, -(1 << 20))
    assert F(1, 1 << (1 << 20)) == TINY


_CANCELS = (F(3, 10**10), F(1), F(10**10))
"""μ = 10⁻¹⁰, ε = 3·10⁻¹⁰: Φ(−A) and e^ε·Φ(−B) agree to about μ²/ε (35 bits), beyond the 32
guard bits of the first arb evaluation."""


def test_cancellation_raises_the_working_precision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first 96-bit ball is too wide after the cancellation; the precision is raised and the
    enclosure is narrow and contains δ."""
    used: list[int] = []
    real = _arb.working_precision

    @contextmanager
    def recording(prec: int) -> Iterator[None]:
        used.append(prec)
        with real(prec):
            yield

    monkeypatch.setattr(acc, "working_precision", recording)
    eps, q, sigma = _CANCELS
    box = acc.analytic_gaussian_delta(eps, q, sigma, 64)
    assert used[0] == 64 + 32 and len(used) > 1
    assert _holds_truth(box, _truth(eps, q, sigma)) and box.hi - box.lo <= box.lo / 2**60


@pytest.mark.parametrize("eps", [F(1000), F(10**4)])
def test_the_ex_post_epsilon_up_to_ten_thousand(eps: F) -> None:
    """σ calibrated for ε (one query, δ = 10⁻⁵), then the ex-post ε at that σ: each end of both
    brackets is decided against the mpmath reference."""
    delta = F(1, 10**5)
    sigmas = acc.calibrate_sigma(1, eps, delta)
    assert _truth(eps, F(1), sigmas.hi) <= _mpf(delta) < _truth(eps, F(1), sigmas.lo)
    assert sigmas.hi - sigmas.lo <= acc.DEFAULT_TOLERANCE * sigmas.hi
    got = acc.epsilon_ex_post(sigmas.hi, 1, delta)
    assert _truth(got.hi, F(1), sigmas.hi) <= _mpf(delta) < _truth(got.lo, F(1), sigmas.hi)
    assert got.lo <= eps <= got.hi + acc.DEFAULT_TOLERANCE * eps


@pytest.mark.parametrize("exponent", [50, 300, 1000])
def test_tiny_delta_calibrates_and_inverts(exponent: int) -> None:
    """δ = 10^-k down to 10⁻¹⁰⁰⁰ (far below a double's 10⁻³⁰⁸): σ and the ex-post ε decided at
    each end against the reference."""
    delta, eps, q = F(1, 10**exponent), F(1), F(40)
    sigmas = acc.calibrate_sigma(q, eps, delta)
    assert _truth(eps, q, sigmas.hi) <= _mpf(delta) < _truth(eps, q, sigmas.lo)
    got = acc.epsilon_ex_post(sigmas.hi, q, delta)
    assert _truth(got.hi, q, sigmas.hi) <= _mpf(delta) < _truth(got.lo, q, sigmas.hi)


@pytest.mark.parametrize("delta", [1 - F(1, 10**60), F(3, 4), F(1, 2) + F(1, 10**9)])
def test_delta_near_one_is_calibrated_and_inverted(delta: F) -> None:
    """δ > 1/2 takes ln(1/δ) = −log1p(−(1 − δ)) in the searches' Lemma 51 start: both ends of
    both brackets decided against the reference (a wrong sign there makes ln(1/δ) negative)."""
    sigmas = acc.calibrate_sigma(1, 1, delta)
    assert _truth(F(1), F(1), sigmas.hi) <= _mpf(delta) < _truth(F(1), F(1), sigmas.lo)
    got = acc.epsilon_ex_post(F(1, 100), 1, delta)
    assert _truth(got.hi, F(1), F(1, 100)) <= _mpf(delta) < _truth(got.lo, F(1), F(1, 100))


def test_mu_tiny_is_answered() -> None:
    """σ = 10⁶ (μ = 10⁻⁶): the ex-post ε is exactly 0, and δ at ε = 10⁻⁴ is enclosed."""
    got = acc.epsilon_ex_post(F(10**6), 1, F(1, 10**3))
    assert got == Interval.point(0)  # δ(0) = 2Φ(μ/2) − 1 ≈ 4·10⁻⁷ <= 10⁻³, proved
    box = acc.analytic_gaussian_delta(F(1, 10**4), 1, F(10**6))
    assert _holds_truth(box, _truth(F(1, 10**4), F(1), F(10**6)))


# ------------------------------------------------------------ broken on purpose, caught


def _inward(value: arb, prec: int) -> Interval:
    """_to_box with its rounding turned the wrong way: each end rounded inward to prec bits
    (the point of the upper rounding of lo when the two cross)."""
    box = acc._clip_unit(_arb.to_interval(value, "delta"))
    up = Interval.point(box.lo).rounded(prec).hi
    down = Interval.point(box.hi).rounded(prec).lo
    return Interval(up, max(up, down))


def _flipped(epsilon: arb, mu: arb) -> arb:
    """_delta_ball with e^{−ε} in place of e^ε."""
    root2 = arb(2).sqrt()
    first = ((epsilon / mu - mu / 2) / root2).erfc()
    second = (-epsilon).exp() * ((epsilon / mu + mu / 2) / root2).erfc()
    return (first - second) / 2


@pytest.mark.parametrize(("name", "broken"), [("_to_box", _inward), ("_delta_ball", _flipped),
                                              ("MAX_WORK_PRECISION", 0)],
                         ids=["rounding_inward", "e_to_minus_epsilon", "no_precision_raise"])
def test_each_break_is_caught_by_the_containment_check(monkeypatch: pytest.MonkeyPatch,
                                                       name: str, broken: object) -> None:
    """The containment check above is not vacuous: with one piece of the arb path broken it
    reports misses.  MAX_WORK_PRECISION = 0 returns the first ball however wide: at _CANCELS
    (cancellation beyond the guard bits) it then misses the required width."""
    monkeypatch.setattr(acc, name, broken)
    grid = [*_GRID, _CANCELS]
    if name == "MAX_WORK_PRECISION":
        box = acc.analytic_gaussian_delta(*_CANCELS, 64)
        assert not box.hi - box.lo <= box.lo / 2**60
    else:
        assert _misses(grid) != []


def _midpoint_compare(epsilon: F, mu_squared: F, delta: F, work: int
                      ) -> tuple[bool | None, arb]:
    """_compare_delta with the ball's radius dropped: its midpoint compared with δ's."""
    _, value = _COMPARE(epsilon, mu_squared, delta, work)
    with _arb.working_precision(work):
        middle = arb(value.mid())
        return bool(middle <= _arb.ball(delta)), middle


_COMPARE = acc._compare_delta


def _undecided_compare(epsilon: F, mu_squared: F, delta: F, work: int
                       ) -> tuple[bool | None, arb]:
    """_compare_delta that never decides (the refined enclosures then decide every probe)."""
    return None, _COMPARE(epsilon, mu_squared, delta, work)[1]


@pytest.mark.parametrize(("name", "broken"), [("_to_box", _inward),
                                              ("_compare_delta", _midpoint_compare)],
                         ids=["enclosure_rounded_inward", "comparison_without_radius"])
def test_a_broken_decision_makes_a_probe_decide_wrongly(monkeypatch: pytest.MonkeyPatch,
                                                       name: str, broken: object) -> None:
    """A probe (_safe) decides by comparing balls first and by refined enclosures when the balls
    overlap.  With either broken (the comparison reading the midpoint only, or the enclosure
    rounded inward) a target δ strictly between the truth and the broken value is decided
    against the truth: the break reaches a verdict, not only a width.  The targets sit within
    the error of each path (2^-90 relative of the truth for the comparison, the inward box's
    edge for the enclosure; there the ball comparison is skipped, so that the enclosures
    decide)."""
    monkeypatch.setattr(acc, name, broken)
    if name == "_to_box":
        monkeypatch.setattr(acc, "_compare_delta", _undecided_compare)
    wrong = 0
    for eps, q, sigma in _GRID:
        truth = _exact(_truth(eps, q, sigma))
        if truth == 0:
            continue
        if name == "_to_box":
            box = acc.analytic_gaussian_delta(eps, q, sigma)
            if box.lo <= truth <= box.hi:
                continue
            target = (truth + box.hi) / 2 if truth > box.hi else (truth + box.lo) / 2
        else:
            target = truth * (1 + F(1, 2**90))  # safe in truth, within the ball's radius
        verdict, _ = acc._safe(eps, q, sigma, target)
        wrong += verdict is not (truth <= target)
    assert wrong > 0


def test_the_ball_comparison_is_sound_at_targets_next_to_the_truth() -> None:
    """Unbroken, the same probes next to the truth (2^-90 relative above and below, within the
    first ball's radius) are never decided against it: None or the true verdict."""
    for eps, q, sigma in _GRID:
        truth = _exact(_truth(eps, q, sigma))
        for target in (truth * (1 + F(1, 2**90)), truth * (1 - F(1, 2**90))):
            if not 0 < target < 1:
                continue
            verdict, _ = acc._safe(eps, q, sigma, target)
            assert verdict in (None, truth <= target)


# ------------------------------------------------------------- the float proposal of a search


def _threshold(at: F, probes: list[F]) -> object:
    """Safe exactly from ``at`` on, with the linear guide at − x."""
    def safe(x: F) -> tuple[bool | None, float]:
        probes.append(x)
        return x >= at, float(at - x)
    return safe


@pytest.mark.parametrize("guess", [None, 0.3, 0.33333333, 1e-9, 0.9999, 5.0, math.nan],
                         ids=["none", "low", "close", "far_low", "near_start", "above_start",
                              "nan"])
def test_any_proposal_leaves_the_bracket_proved(guess: float | None) -> None:
    """_bisect's guess only chooses where to probe: whatever it is (absent, off, above the start,
    not a number) the bracket returned has an unsafe lower end and a safe upper end around 1/3,
    within the tolerance, and no point is probed twice (a proposal's probe proved unsafe starts
    the downward search without being probed again)."""
    probes: list[F] = []
    tol = F(1, 2**30)
    got = acc._bisect(_threshold(F(1, 3), probes), F(1), tol, "x",  # type: ignore[arg-type]
                      increasing_safe=True, guess=guess)
    assert got.lo < F(1, 3) <= got.hi and got.hi - got.lo <= tol * got.hi
    assert probes[0] == 1 and all(x <= 1 for x in probes)
    assert len(set(probes)) == len(probes)  # no point is probed twice


def test_a_close_proposal_needs_three_probes() -> None:
    """The start, then the pair around a proposal within tolerance/4 of the threshold: three
    proved probes in all, the pair being the bracket."""
    probes: list[F] = []
    got = acc._bisect(_threshold(F(1, 3), probes), F(1), F(1, 2**30), "x",  # type: ignore[arg-type]
                      increasing_safe=True, guess=1 / 3)
    assert len(probes) == 3 and (got.lo, got.hi) == (probes[2], probes[1])


@pytest.mark.parametrize(("name", "args"), [
    ("calibrate_sigma", (163, F(1, 2), F(1, 6499))), ("calibrate_sigma", (1, F(10**4), F(1, 10**5))),
    ("calibrate_sigma", (40, F(1), F(1, 10**300))), ("epsilon_ex_post", (F(1983, 50), F(401, 10),
                                                                        F(1, 6499))),
    ("epsilon_ex_post", (F(1, 140), F(1), F(1, 10**5)))])
def test_the_searches_prove_their_float_proposal_in_a_few_probes(
        monkeypatch: pytest.MonkeyPatch, name: str, args: tuple[object, ...]) -> None:
    """The secant proposal on unproved arb evaluations lands within tolerance/4 of the answer, so
    the search takes the start, the proposal's pair and (for ε) the probe at ε = 0: a wrong
    guide (its sign, or ln δ in place of √(2 ln 1/δ) beyond a linear regime) costs probes here."""
    count = [0]
    real = acc._decide

    def counting(*a: F) -> tuple[bool | None, float]:
        count[0] += 1
        return real(*a)

    monkeypatch.setattr(acc, "_decide", counting)
    got = getattr(acc, name)(*args)
    assert got.hi - got.lo <= acc.DEFAULT_TOLERANCE * got.hi
    assert count[0] <= 4
