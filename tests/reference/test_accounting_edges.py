"""The accountant at the edges of its domain: each limit accepted on its inside and refused one
step outside, and the validity conditions of its sources at their boundary values.

Each test states the boundary it holds; a comparison turned from strict to loose (or back) at
any of them fails here.  Source of the limits: the docstrings of ``privref.reference.accounting``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from fractions import Fraction as F

import mpmath
import pytest

from privref.reference import accounting as acc
from privref.reference._arb import arb
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate
from privref.reference.reals import Interval, Order, Real, compare, exp, log, rational


@pytest.fixture(autouse=True)
def _reference_precision() -> Iterator[None]:
    """Every mpmath reference here at 300 bits, restored after the test (mpmath's precision is
    global state, shared with the other tests of the worker)."""
    with mpmath.workprec(300):
        yield


def _exact(x: mpmath.mpf) -> F:
    """The exact rational value of an mpmath number, sign included."""
    sign, man, exp, _ = x._mpf_
    value = F(int(man) * 2**exp) if exp >= 0 else F(int(man), 2**-exp)
    return -value if sign else value


def _mpf(q: F | int) -> mpmath.mpf:
    """A rational as an mpmath number at the current precision."""
    v = F(q)
    return mpmath.mpf(v.numerator) / v.denominator


with mpmath.workprec(2300):
    _PI = _exact(+mpmath.pi)
    """π within 2^-2298, beyond every precision the accountant accepts."""


def test_the_classical_gaussian_is_refused_from_epsilon_one_on() -> None:
    """001 Lemma 44 (corrected) holds for ε < 1 only: ε = 1 is refused, the largest ε below it is
    answered with σ = √(2 ln(1.25/δ))/ε."""
    with pytest.raises(InvalidArgument, match="epsilon=1 must be < 1"):
        acc.classical_gaussian_sigma(1, F(1, 10**5))
    eps = 1 - F(1, 10**9)
    got = acc.classical_gaussian_sigma(eps, F(1, 10**5))
    want = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 * 10**5)) / (mpmath.mpf(eps.numerator)
                                                                    / eps.denominator)
    box = got.enclose(200)
    assert box.lo <= F(str(want)) + F(1, 10**80) and F(str(want)) - F(1, 10**80) <= box.hi


def test_zero_is_a_valid_rho_in_a_composition_and_a_negative_one_is_not() -> None:
    assert acc.zcdp_compose(0, F(1, 3), 0) == F(1, 3)
    assert acc.zcdp_compose() == 0
    with pytest.raises(InvalidArgument, match=r"rhos\[1\]=-1/10\*\*9|rhos\[1\]=-1/1000000000"):
        acc.zcdp_compose(1, -F(1, 10**9))


@pytest.mark.parametrize(("call", "name"), [
    (lambda: acc.gaussian_zcdp(0), "sigma=0 must be > 0"),
    (lambda: acc.gaussian_zcdp(1, 0), "sensitivity=0 must be > 0"),
    (lambda: acc.pure_to_zcdp(0), "epsilon=0 must be > 0"),
    (lambda: acc.zcdp_delta(0, 1), "rho=0 must be > 0"),
    (lambda: acc.gaussian_mu(1, 0), "sigma=0 must be > 0"),
    (lambda: acc.gaussian_mu(1 - F(1, 10**12), 1), "queries=.* must be >= 1"),
    (lambda: acc.algorithm1_sigma(0, 1, F(1, 2)), "queries=0 must be >= 1"),
    (lambda: acc.algorithm1_sigma(True, 1, F(1, 2)), "queries=True must be an int"),
    (lambda: acc.pi_enclosure(31), r"prec=31 must be an int in \[32, 2048\]"),
    (lambda: acc.pi_enclosure(2049), r"prec=2049 must be an int in \[32, 2048\]"),
    (lambda: acc.analytic_gaussian_delta(-F(1, 10**30), 1, 1), "epsilon=.* must be >= 0"),
    (lambda: acc.epsilon_ex_post(1, 1, F(1, 2), tolerance=1), r"tolerance=1 must lie in"),
    (lambda: acc.epsilon_ex_post(1, 1, F(1, 2), tolerance=F(1, 2**200) - F(1, 2**300)),
     r"tolerance=.* must lie in \[2\^-200, 1\)"),
    (lambda: acc.epsilon_ex_post(Interval(F(0), F(1)), 1, F(1, 2)), "sigma=.* must be > 0"),
])
def test_one_step_outside_each_limit_is_refused(call: object, name: str) -> None:
    assert callable(call)
    with pytest.raises(InvalidArgument, match=name):
        call()


def test_each_limit_itself_is_accepted() -> None:
    """The inside ends: queries 1, prec 32 and 2048, ε = 0 in the analytic Gaussian (the total
    variation 2Φ(μ/2) − 1), a tolerance of exactly 2^-200 (checked where it costs nothing: the
    answer at δ(0) <= δ is exactly 0 whatever the tolerance)."""
    assert acc.gaussian_mu(1, 1).lo <= 1 <= acc.gaussian_mu(1, 1).hi
    assert acc.algorithm1_sigma(1, 1, F(1, 2)).enclose(64).lo > 0
    for prec in (32, 2048):
        box = acc.pi_enclosure(prec)
        assert box.lo < _PI < box.hi and box.hi - box.lo < F(1, 2**prec)
    tv = acc.analytic_gaussian_delta(0, 1, 1)
    want = F(str(2 * mpmath.ncdf(mpmath.mpf(1) / 2) - 1))
    assert tv.lo - F(1, 10**60) <= want <= tv.hi + F(1, 10**60)
    # μ = 1/1000: δ(0) = 2Φ(1/2000) − 1 ≈ 4·10⁻⁴ <= 1/2 is proved, so ε is exactly 0
    assert acc.epsilon_ex_post(1000, 1, F(1, 2), tolerance=F(1, 2**200)) == Interval.point(0)


def test_zcdp_delta_is_one_exactly_up_to_epsilon_equal_to_rho() -> None:
    """001 Lemma 51 gives nothing for ε <= ρ: δ = 1 there, exactly, and just above ρ it is below
    1 by the formula exp(−(ε − ρ)²/(4ρ))."""
    rho = F(1, 3)
    assert acc.zcdp_delta(rho, rho).exact == 1
    assert acc.zcdp_delta(rho, rho / 2).exact == 1
    just_above = acc.zcdp_delta(rho, rho + F(1, 10**6))
    assert compare(just_above, rational(1))[0] is Order.LESS


def test_every_accepted_precision_is_answered_up_to_max_precision() -> None:
    """prec = MAX_PRECISION is accepted, so it must be answered: the guard bits added inside
    (π, μ and φ at prec + 16 to prec + 64 bits) go beyond MAX_PRECISION and must not be refused
    by the public limit (they were, with "prec=2112 must be an int in [32, 2048]")."""
    top = acc.MAX_PRECISION
    with mpmath.workprec(2300):
        phi = _exact(mpmath.ncdf(1))
        delta = _exact(mpmath.ncdf(mpmath.mpf(1) / 2 - 1) - mpmath.e * mpmath.ncdf(-mpmath.mpf(3) / 2))
    box = acc.normal_cdf(1, top)
    assert box.lo <= phi <= box.hi and box.hi - box.lo <= 16 * box.lo / 2**top
    gauss = acc.analytic_gaussian_delta(1, 1, 1, prec=top)
    assert gauss.lo <= delta <= gauss.hi and gauss.hi - gauss.lo <= 16 * gauss.lo / 2**top
    real = acc.normal_cdf_real(1).enclose(4000)  # clipped to MAX_PRECISION inside
    assert real.lo <= phi <= real.hi


def test_a_target_inside_the_last_enclosure_is_left_undecided() -> None:
    """calibrate_sigma's probe doubles its precision up to MAX_PRECISION and no further: a target
    δ at the midpoint of the MAX_PRECISION-bit enclosure of δ(1; two queries, σ = 1) is undecided
    (None), while its two ends are decided (the upper end safe; just below the lower end
    unsafe).  Two queries make μ = √2 irrational, so μ's own precision shows in δ's enclosure."""
    box = acc.analytic_gaussian_delta(1, 2, 1, prec=acc.MAX_PRECISION)
    one, two = F(1), F(2)
    assert acc._safe(one, two, one, (box.lo + box.hi) / 2)[0] is None
    assert acc._safe(one, two, one, box.hi)[0] is True
    assert acc._safe(one, two, one, box.lo - (box.hi - box.lo))[0] is False


def test_the_exact_lower_end_of_the_last_enclosure_is_not_a_proof_of_unsafety() -> None:
    """False means δ(ε; σ) > δ proved: a target equal to the lower end of the MAX_PRECISION-bit
    enclosure only gives δ(ε; σ) >= δ, so the probe stays undecided (None), not False."""
    box = acc.analytic_gaussian_delta(1, 2, 1, prec=acc.MAX_PRECISION)
    one = F(1)
    assert acc._safe(one, F(2), one, box.lo)[0] is None


def test_the_continued_fraction_stops_at_max_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    """At x = 5 the continued fraction needs 2^11 levels for 500 bits: with MAX_DEPTH = 2^10 it
    raises, naming the limit, instead of trying the deeper level; with 2^11 it answers.  (The
    limit is read when the function runs; the shipped 2^14 is reached at 2100 bits, 10 s.)"""
    monkeypatch.setattr(acc, "MAX_DEPTH", 1 << 10)
    with pytest.raises(TooLargeToEnumerate, match="MAX_DEPTH=1024"):
        acc._continued_fraction(F(5), 500)
    monkeypatch.setattr(acc, "MAX_DEPTH", 1 << 11)
    assert acc._continued_fraction(F(5), 500).width > 0


# ----------------------------------------------------------------- the calibration's search

def _above(threshold: F, calls: list[F]) -> Callable[[F], tuple[bool | None, float]]:
    """Safe exactly from ``threshold`` on, with a flat guide (pure bisection, no regula falsi)."""
    def safe(x: F) -> tuple[bool | None, float]:
        calls.append(x)
        return x >= threshold, 0.0
    return safe


def test_the_upward_search_takes_at_most_a_quarter_of_max_bisection_doublings() -> None:
    cap = acc.MAX_BISECTION // 4
    calls: list[F] = []
    got = acc._bisect(_above(F(2) ** cap, calls), F(1), F(1, 2), "x", increasing_safe=True)
    assert (got.lo, got.hi) == (F(2) ** (cap - 1), F(2) ** cap)
    with pytest.raises(TooLargeToEnumerate, match=r"no safe x found below .* within MAX_BISECTION="):
        acc._bisect(_above(F(2) ** (cap + 1), []), F(1), F(1, 2), "x", increasing_safe=True)


def test_the_downward_search_stops_at_half_of_max_bisection_steps() -> None:
    cap = acc.MAX_BISECTION // 2
    got = acc._bisect(_above(F(1, 2**cap), []), F(1), F(1, 2), "x", increasing_safe=True)
    assert (got.lo, got.hi) == (F(1, 2 ** (cap + 1)), F(1, 2**cap))
    with pytest.raises(TooLargeToEnumerate, match="no unsafe x found above"):
        acc._bisect(_above(F(1, 2 ** (cap + 1)), []), F(1), F(1, 2), "x", increasing_safe=True)


def test_the_narrowing_stops_after_max_bisection_steps_in_all() -> None:
    """A tolerance no bisection reaches: the bracket [1/4, 1/2] around 1/3 is halved until the
    step count (one bracketing step, then the narrowing) reaches MAX_BISECTION, no further."""
    calls: list[F] = []
    got = acc._bisect(_above(F(1, 3), calls), F(1), F(1, 2**1000), "x", increasing_safe=True)
    assert got.lo < F(1, 3) <= got.hi
    assert got.hi - got.lo == F(1, 4) / 2 ** (acc.MAX_BISECTION - 1)
    assert len(calls) == 2 + acc.MAX_BISECTION


def test_the_narrowing_stops_at_a_width_equal_to_the_tolerance() -> None:
    """(hi − lo) <= tolerance·hi ends the search (DEFAULT_TOLERANCE's doc): with hi = 1 fixed the
    widths are 2^-j, and the width 2^-10 at tolerance 2^-10 is the last."""
    got = acc._bisect(_above(1 - F(1, 2**100), []), F(1), F(1, 2**10), "x", increasing_safe=True)
    assert (got.lo, got.hi) == (1 - F(1, 2**10), F(1))


def test_the_narrowing_stops_at_the_first_undecided_probe() -> None:
    """_bisect's doc: the search ends when a probe stays undecided (the bracket is then wider,
    still proved).  Here x < 1/3 is unsafe, x >= 1/3 + 2^-12 safe, and between undecided; the guide
    1/3 − x is linear, so the first regula-falsi proposal is 1/3 and its probe pair, 2^-13 either
    side, gets one unsafe verdict and one undecided: no probe follows that pair."""
    calls: list[tuple[F, bool | None]] = []

    def safe(x: F) -> tuple[bool | None, float]:
        verdict = None if F(1, 3) <= x < F(1, 3) + F(1, 2**12) else x >= F(1, 3)
        calls.append((x, verdict))
        return verdict, float(F(1, 3) - x)

    got = acc._bisect(safe, F(1), F(1, 2**10), "x", increasing_safe=True)
    undecided = [i for i, (_, v) in enumerate(calls) if v is None]
    assert undecided == [len(calls) - 1]
    assert calls[-2][1] is False and got == Interval(calls[-2][0], F(1, 2))


def test_the_ex_post_epsilon_is_zero_only_when_that_is_proved() -> None:
    """epsilon_ex_post answers exactly 0 only when δ(0) <= δ is proved.  Here δ exceeds δ(0) =
    2Φ(1/2) − 1 (σ = 1, one query) by 2^-3000: true, and provable at 4096 bits, but beyond what
    the MAX_PRECISION-bit (2048) enclosure shows, so the answer is not 0; every ε > 0 is then
    safe as well, and the search for an unsafe ε ends at its step limit, naming it."""
    with mpmath.workprec(4400):
        above = _exact(2 * mpmath.ncdf(mpmath.mpf(1) / 2) - 1) + F(1, 2**3000)
    with pytest.raises(TooLargeToEnumerate, match=r"no unsafe epsilon found .* MAX_BISECTION=400"):
        acc.epsilon_ex_post(1, 1, above)


@pytest.mark.parametrize("x", [F(4), F(9, 2), F(5), F(6), F(79, 10), F(30)])
def test_the_upper_tail_is_answered_at_max_precision(x: F) -> None:
    """Φ(x) for 4 <= x <= 30 at MAX_PRECISION bits: from the series below 8 (the continued
    fraction would need more than MAX_DEPTH levels near 4), from the continued fraction at 30;
    both enclose Φ and meet the docstring's "about prec bits, relative in the tails" (for Φ(−x),
    the tail itself; for Φ(x) ≈ 1, relative to 1)."""
    top = acc.MAX_PRECISION
    with mpmath.workprec(2400):
        tail = _exact(mpmath.ncdf(-mpmath.mpf(x.numerator) / x.denominator))
    box = acc.normal_cdf(x, top)
    assert box.lo <= 1 - tail <= box.hi and box.hi - box.lo <= F(16, 2**top)
    low = acc.normal_cdf(-x, top)
    assert low.lo <= tail <= low.hi and low.hi - low.lo <= 16 * tail / 2**top


def test_the_ex_post_search_meets_a_tolerance_beyond_the_first_enclosure() -> None:
    """The ex-post ε bracket meets the requested tolerance (epsilon_ex_post's doc) even when it
    is finer than the first 64-bit enclosure of δ can separate: the probe must refine its
    precision instead of stopping undecided."""
    tol = F(1, 2**80)
    got = acc.epsilon_ex_post(3, 10, F(1, 10**5), tolerance=tol)
    assert 0 < got.hi - got.lo <= tol * got.hi
    assert acc.analytic_gaussian_delta(got.hi, 10, 3, prec=256).hi <= F(1, 10**5)
    assert acc.analytic_gaussian_delta(got.lo, 10, 3, prec=256).lo > F(1, 10**5)


@pytest.mark.parametrize(("rho", "delta"), [(F(1, 8), F(3, 1000)), (F(1, 2), F(7, 10**6)),
                                            (F(4), F(9, 10)), (F(1, 50), F(123, 10**4)),
                                            (F(1, 8), acc.zcdp_delta(F(1, 3), 2))])
def test_the_proposed_order_is_near_optimal_for_any_numerator_of_delta(rho: F, delta: F | Real
                                                                       ) -> None:
    """zcdp_order's float ln(1/δ) = ln(den) − ln(num): on δ = 1/10^k (every other test) the
    numerator's log is 0, so a sign error there is invisible; these δ have numerators > 1, and
    the last is an irrational Real (e^{-25/12}, whose ln comes from its enclosure).  No order on
    a grid from 0.03 to 2 times the proposed α − 1 beats the returned ε by 10^-6."""
    best = float(acc.zcdp_to_dp_epsilon(rho, delta))
    alpha = acc.zcdp_order(rho, delta)
    for k in range(1, 60):
        other = 1 + (alpha - 1) * F(k, 30)
        assert float(acc.zcdp_epsilon_at_order(rho, delta, other)) >= best - 1e-6


@pytest.mark.parametrize("delta", [exp(rational(1)), log(F(1, 2))], ids=["e", "ln_half"])
@pytest.mark.parametrize("call", [lambda d: acc.zcdp_order(F(1, 2), d),
                                  lambda d: acc.zcdp_to_dp_epsilon(F(1, 2), d),
                                  lambda d: acc.zcdp_epsilon_at_order(F(1, 2), d, 2),
                                  lambda d: acc.zcdp_epsilon(F(1, 2), d)],
                         ids=["order", "to_dp", "at_order", "lemma_51"])
def test_an_irrational_delta_outside_the_unit_interval_on_one_side_is_refused(
        delta: object, call: Callable[[object], object]) -> None:
    """A Real δ must be proved to lie in (0, 1): e > 1 fails only the upper limit, ln(1/2) < 0
    only the lower one, and each alone is refused, naming δ (zcdp_epsilon checks it itself, the
    other three through _open_unit_real)."""
    with pytest.raises(InvalidArgument, match=r"must be proved to lie in \(0, 1\)"):
        call(delta)


@pytest.mark.parametrize(("rho", "delta"), [(F(1, 8), F(3, 1000)), (F(1, 2), F(1, 10**6)),
                                            (F(4), F(9, 10)), (F(1, 50), F(123, 10**4)),
                                            (F(10**6), F(1, 10**5)), (F(1, 10**6), F(1, 10**5))])
def test_the_proposed_order_is_a_short_dyadic_rational(rho: F, delta: F) -> None:
    """zcdp_order rounds α − 1 to ORDER_BITS significant bits after its leading one (its doc): α − 1
    is m·2^e with m odd and below 2^(ORDER_BITS + 1), so the exact conversions stay short."""
    t = acc.zcdp_order(rho, delta) - 1
    assert t > 0 and t.denominator & (t.denominator - 1) == 0
    m = t.numerator
    while m % 2 == 0:
        m //= 2
    assert m.bit_length() <= acc.ORDER_BITS + 1


@pytest.mark.parametrize("sensitivity", [F(1, 3), F(2), F(7)])
def test_the_noise_scales_with_the_sensitivity(sensitivity: F) -> None:
    """Δ = 1 hides Δ against 1/Δ and Δ²: σ = √(2 ln(1.25/δ))·Δ/ε (001 Lemma 44, corrected) and
    ρ = Δ²/(2σ²) (Bun-Steinke Proposition 1.6) at sensitivities other than 1."""
    eps, delta = F(1, 2), F(1, 10**5)
    with mpmath.workprec(400):
        want = _exact(mpmath.sqrt(2 * mpmath.log(mpmath.mpf(125000))) * 2
                      * mpmath.mpf(sensitivity.numerator) / sensitivity.denominator)
    box = acc.classical_gaussian_sigma(eps, delta, sensitivity).enclose(200)
    assert box.lo - F(1, 2**180) <= want <= box.hi + F(1, 2**180)
    assert acc.gaussian_zcdp(F(3), sensitivity) == sensitivity**2 / 18


@pytest.mark.parametrize("prec", [32, 64, 200, acc.MAX_PRECISION])
def test_mu_is_enclosed_to_its_precision(prec: int) -> None:
    """gaussian_mu's doc: relative width at most 2^-prec, around the true √q/σ."""
    for q, sigma in [(F(1), F(1)), (F(2), F(3, 7)), (F(401), F(10)), (F(401, 10), F(1, 3))]:
        box = acc.gaussian_mu(q, sigma, prec)
        qf = q
        assert box.lo > 0 and box.hi - box.lo <= box.lo / 2**prec
        assert box.lo**2 * sigma**2 <= qf <= box.hi**2 * sigma**2


def test_pi_is_enclosed_at_every_precision_up_to_300_bits() -> None:
    """pi_enclosure's doc (width below 2^-prec, containing π) at every precision from 32 to 300
    bits, not only at the few the other tests use."""
    for prec in range(32, 301):
        box = acc.pi_enclosure(prec)
        assert box.lo < _PI < box.hi and box.hi - box.lo < F(1, 2**prec), prec


def test_delta_for_a_large_mu_takes_the_complement_branch_exactly() -> None:
    """μ = 10 (σ = 1/10, one query) at ε = 1: A = ε/μ − μ/2 = −4.9 < −4, where δ is formed as
    1 − φ(A)(R(−A) + R(B)); against Φ(μ/2 − ε/μ) − e^ε·Φ(−μ/2 − ε/μ) at 400 bits."""
    with mpmath.workprec(400):
        mu, e = mpmath.mpf(10), mpmath.mpf(1)
        want = _exact(mpmath.ncdf(mu / 2 - e / mu) - mpmath.exp(e) * mpmath.ncdf(-mu / 2 - e / mu))
    box = acc.analytic_gaussian_delta(1, 1, F(1, 10), prec=128)
    assert box.lo <= want <= box.hi and box.hi - box.lo <= 16 * box.lo / 2**128


@pytest.mark.parametrize("k", [5, 239])
def test_each_arctangent_series_straddles_its_value(k: int) -> None:
    """_atan_inverse(k, prec): the alternating series' partial sum ± its first omitted term, an
    interval around atan(1/k) narrower than 2^-(prec+7)."""
    with mpmath.workprec(600):
        want = _exact(mpmath.atan(mpmath.mpf(1) / k))
    for prec in (32, 64, 100, 256, 512):
        box = acc._atan_inverse(k, prec)
        assert box.lo < want < box.hi and box.hi - box.lo < F(1, 2 ** (prec + 7)), prec


# ------------------------------------------------------------ the work of the two searches

_SEARCHES = [
    ("calibrate_sigma", (1, F(1), F(1, 10**5), acc.DEFAULT_TOLERANCE)),
    ("calibrate_sigma", (F(401, 10), F(2), F(1, 10**6), acc.DEFAULT_TOLERANCE)),
    ("calibrate_sigma", (100, F(1, 2), F(1, 10**5), F(1, 10**12))),
    ("calibrate_sigma", (5000, F(1, 10), F(1, 10**6), acc.DEFAULT_TOLERANCE)),
    ("epsilon_ex_post", (F(40), F(401, 10), F(1, 10**6), acc.DEFAULT_TOLERANCE)),
    ("epsilon_ex_post", (F(200), F(3), F(1, 10**5), F(1, 10**12))),
    ("epsilon_ex_post", (F(3), F(100), F(1, 10**8), acc.DEFAULT_TOLERANCE)),
]


def _probed(monkeypatch: pytest.MonkeyPatch, name: str, args: tuple[object, ...]
            ) -> tuple[Interval, list[tuple[F, bool | None]], int]:
    """Run one search, recording each probe of ``_bisect`` with its verdict, and counting the
    evaluations of δ it took to decide them: one per ball comparison (``_compare_delta``) and
    one per refined enclosure (``_delta_from_mu``)."""
    probes: list[tuple[F, bool | None]] = []
    enclosures = [0]
    bisect, delta_from_mu, compare = acc._bisect, acc._delta_from_mu, acc._compare_delta

    def counting_bisect(safe: Callable[[F], tuple[bool | None, float]], start: F, tol: F,
                        what: str, *, increasing_safe: bool, guess: float | None = None
                        ) -> Interval:
        def probe(x: F) -> tuple[bool | None, float]:
            verdict = safe(x)
            probes.append((x, verdict[0]))
            return verdict
        return bisect(probe, start, tol, what, increasing_safe=increasing_safe, guess=guess)

    def counting_delta(epsilon: F, mu_squared: F, prec: int) -> acc._Profile:
        enclosures[0] += 1
        return delta_from_mu(epsilon, mu_squared, prec)

    def counting_compare(epsilon: F, mu_squared: F, delta: F, work: int
                         ) -> tuple[bool | None, arb]:
        enclosures[0] += 1
        return compare(epsilon, mu_squared, delta, work)

    monkeypatch.setattr(acc, "_bisect", counting_bisect)
    monkeypatch.setattr(acc, "_delta_from_mu", counting_delta)
    monkeypatch.setattr(acc, "_compare_delta", counting_compare)
    got = getattr(acc, name)(*args)
    assert isinstance(got, Interval)
    return got, probes, enclosures[0]


@pytest.mark.parametrize(("name", "args"), _SEARCHES)
def test_each_search_starts_from_its_proved_safe_value_and_only_goes_down(
        monkeypatch: pytest.MonkeyPatch, name: str, args: tuple[object, ...]) -> None:
    """Both searches start from 001 Lemma 51's value (calibrate_sigma: the one-query zCDP σ
    times √q; epsilon_ex_post: ρ + 2√(ρ ln(1/δ))), which is safe: the first probe is proved
    safe, and no probe lies above it (a start below the answer would double upward first)."""
    got, probes, _ = _probed(monkeypatch, name, args)
    start, verdict = probes[0]
    assert verdict is True and got.hi <= start
    assert all(x <= start for x, _ in probes)


def _lemma_51_start(name: str, args: tuple[object, ...]) -> mpmath.mpf:
    """The search's documented start, from 001 Lemma 51 at 300 bits (ε = ρ + 2√(ρ ln(1/δ)),
    ρ = q/(2σ²) for q unit-sensitivity Gaussian queries): the σ giving ε for q queries, or the ε
    of ρ = R/(2σ²)."""
    def mp(x: object) -> mpmath.mpf:
        assert isinstance(x, (int, F))
        return _mpf(x)
    if name == "calibrate_sigma":
        q, eps, delta = (mp(a) for a in args[:3])
        big_l = mpmath.log(1 / delta)
        return (mpmath.sqrt(2 * big_l) + mpmath.sqrt(2 * big_l + 2 * eps)) / (2 * eps) * mpmath.sqrt(q)
    sigma, realized, delta = (mp(a) for a in args[:3])
    rho = realized / (2 * sigma**2)
    return rho + 2 * mpmath.sqrt(rho * mpmath.log(1 / delta))


@pytest.mark.parametrize(("name", "args"), _SEARCHES)
def test_each_search_starts_at_lemma_51s_value_rounded_up(
        monkeypatch: pytest.MonkeyPatch, name: str, args: tuple[object, ...]) -> None:
    """The first probe is 001 Lemma 51's value (see the test above) rounded up, within 2^-60
    relative: any smaller start may be unsafe, any larger one costs halvings."""
    _, probes, _ = _probed(monkeypatch, name, args)
    start = _mpf(probes[0][0])
    want = _lemma_51_start(name, args)
    assert want <= start <= want * (1 + mpmath.mpf(2) ** -60)


@pytest.mark.parametrize(("name", "args"), _SEARCHES)
def test_the_probe_pair_narrowing_needs_fewer_probes_than_bisection(
        monkeypatch: pytest.MonkeyPatch, name: str, args: tuple[object, ...]) -> None:
    """Once an unsafe probe brackets the answer within a factor 2, bisection would need
    log2(1/tolerance) probes to reach the tolerance; the regula-falsi probe pairs of ``_bisect``
    (each pair tolerance·hi/2 apart around the proposal) need fewer on these smooth δ curves.
    Probes spaced by anything but tolerance·hi, or a safe probe above the proposal that never
    lowers the safe end, fall back to bisection's pace or worse."""
    got, probes, _ = _probed(monkeypatch, name, args)
    tol = args[-1]
    assert isinstance(tol, F)
    first_unsafe = [v for _, v in probes].index(False)
    narrowing = len(probes) - first_unsafe - 1
    assert narrowing <= math.ceil(math.log2(1 / tol))
    assert got.hi - got.lo <= tol * got.hi


@pytest.mark.parametrize(("name", "args"), [s for s in _SEARCHES if s[0] == "epsilon_ex_post"])
def test_each_ex_post_probe_is_decided_at_the_working_precision(
        monkeypatch: pytest.MonkeyPatch, name: str, args: tuple[object, ...]) -> None:
    """δ's first ball comparison, at WORK_PRECISION + 32 bits, decides every probe of these
    searches at once (none lies within 2^-64 relative of the answer): one evaluation of δ per
    probe, plus the one of ε = 0.  A ball too coarse makes the probes refine their precision."""
    _, probes, enclosures = _probed(monkeypatch, name, args)
    assert all(v is not None for _, v in probes)
    assert enclosures == len(probes) + 1


# ------------------------------------------------- the helpers over intervals, and δ's clip

def _mills_ratio(t: F) -> mpmath.mpf:
    x = _mpf(t)
    return mpmath.ncdf(-x) / mpmath.npdf(x)


@pytest.mark.parametrize(("lo", "hi"), [(F(1, 3), F(2)), (F(-3), F(-1, 2)), (F(-1), F(5, 2))])
def test_the_series_over_an_interval_holds_its_value_at_both_ends(lo: F, hi: F) -> None:
    """_series' doc: S is odd and increasing, so S over [lo, hi] lies in [S(lo), S(hi)]; a wide
    argument must give an enclosure of S at every point of it, the two ends included (the
    callers pass points, so only a wide argument tells the ends apart)."""
    box = acc._series(Interval(lo, hi), 64)
    for t in (lo, hi):
        x = _mpf(t)
        value = mpmath.sqrt(mpmath.pi / 2) * mpmath.exp(x**2 / 2) * mpmath.erf(x / mpmath.sqrt(2))
        assert box.lo <= _exact(value) <= box.hi


@pytest.mark.parametrize(("lo", "hi"), [(F(1, 3), F(2)), (F(4), F(9)), (F(-2), F(1))])
def test_the_mills_ratio_over_an_interval_holds_its_value_at_both_ends(lo: F, hi: F) -> None:
    """_mills' doc: R is decreasing, so R over [lo, hi] lies in [R(hi), R(lo)] (the δ of a wide μ
    reaches it with non-point arguments)."""
    box = acc._mills(Interval(lo, hi), 64)
    assert box.lo <= _exact(_mills_ratio(hi)) and _exact(_mills_ratio(lo)) <= box.hi


@pytest.mark.parametrize("side", [1, -1])
def test_delta_keeps_its_ends_when_the_truth_lies_just_beside_a_grid_point(side: int) -> None:
    """δ's enclosure is clipped to [0, 1] and rounded outward to prec bits (here 32): each end
    must come from the same end of the working enclosure.  ε is chosen (to 2^-120) so that the
    true δ(ε) for μ = 1 lies 2^-40 of a unit of the 32nd bit above (side 1) or below (side −1) a
    32-bit dyadic d: an upper end taken from the lower end rounds up to d itself, a lower end
    taken from the upper end rounds down to d, and either misses the truth."""
    def delta(eps: mpmath.mpf) -> mpmath.mpf:
        return mpmath.ncdf(half - eps) - mpmath.exp(eps) * mpmath.ncdf(-half - eps)

    half = mpmath.mpf(1) / 2
    first = delta(half)
    unit = mpmath.mpf(2) ** (int(mpmath.floor(mpmath.log(first, 2))) - 31)
    grid = mpmath.floor(first / unit) * unit
    offset = side * unit * mpmath.mpf(2) ** -40
    root = mpmath.findroot(lambda x: delta(x) - grid - offset, half)
    eps = _exact(mpmath.floor(root * 2**120) / 2**120)
    truth = delta(_mpf(eps))
    assert 0 < (truth - grid) / offset < 2
    box = acc.analytic_gaussian_delta(eps, 1, 1, prec=32)
    assert box.lo <= _exact(truth) <= box.hi
