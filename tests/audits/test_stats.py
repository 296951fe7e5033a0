"""Clopper–Pearson bounds: proved conservative (exact sums), tight (scipy, exact), edge cases, bad input."""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps

from privref.audits import stats as stats_module
from privref.audits.stats import (
    bonferroni,
    check_alpha,
    cp_lower,
    cp_upper,
    lower_tail_upper_bound,
    tail_exact,
    upper_tail_upper_bound,
)
from privref.reference.errors import InvalidArgument

ALPHAS = (Fraction(1, 40), Fraction(1, 10), Fraction(1, 2), 0.05, Fraction(9, 10))

SHARP = Fraction(1, 2**23)
"""A bound moved outward by this relative amount is no longer at the quantile: twice the
documented 2^-24 shift of cp_lower / cp_upper (the float guess and the 64-bit rounding add
far less)."""

NEAR_SCIPY = 2.0**-22
"""Relative distance allowed from scipy's quantile on the loose side: the 2^-24 shift plus room
for scipy's own error."""


def lower_tail_exact(n: int, k: int, p: Fraction) -> Fraction:
    """P(Bin(n, p) <= k) exactly."""
    return 1 - tail_exact(n, k + 1, p) if k < n else Fraction(1)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 12])
@pytest.mark.parametrize("alpha", ALPHAS)
def test_bounds_are_proved_conservative_and_tight_on_small_n(n: int, alpha: int | Fraction | float) -> None:
    """For every k: P_L(X >= k) <= alpha exactly, and 1 + 2^-23 times L already breaks it: the
    bound sits within the documented 2^-24 shift of p_L (tight)."""
    a = check_alpha(alpha)
    for k in range(n + 1):
        low, high = cp_lower(k, n, alpha), cp_upper(k, n, alpha)
        assert 0 <= low <= Fraction(k, n) or a >= Fraction(1, 2)
        if k > 0:
            assert tail_exact(n, k, low) <= a
            assert tail_exact(n, k, min(low * (1 + SHARP), Fraction(1))) > a
        else:
            assert low == 0
        if k < n:
            assert lower_tail_exact(n, k, high) <= a
            assert lower_tail_exact(n, k, high * (1 - SHARP)) > a
        else:
            assert high == 1


@pytest.mark.parametrize("n", [1, 5, 40, 1000])
def test_closed_forms_at_the_edges(n: int) -> None:
    """k = n: L <= alpha^(1/n) (L^n <= alpha exactly); k = 0: U >= 1 - alpha^(1/n); both tight."""
    alpha = Fraction(1, 20)
    low = cp_lower(n, n, alpha)
    assert low**n <= alpha < (low * (1 + SHARP)) ** n
    high = cp_upper(0, n, alpha)
    assert (1 - high) ** n <= alpha < (1 - high * (1 - SHARP)) ** n
    assert cp_lower(0, n, alpha) == 0 and cp_upper(n, n, alpha) == 1


def test_exact_coverage_of_the_lower_bound() -> None:
    """The guarantee itself: Σ_{k : L(k) > p} P(X = k) <= alpha, exactly, at many true p."""
    n, alpha = 25, Fraction(1, 10)
    bounds = [cp_lower(k, n, alpha) for k in range(n + 1)]
    for p in [Fraction(i, 97) for i in range(1, 97)]:
        miss = sum((math.comb(n, k) * p**k * (1 - p) ** (n - k)
                    for k in range(n + 1) if bounds[k] > p), Fraction(0))
        assert miss <= alpha


@pytest.mark.parametrize(("n", "k"), [(5000, 3700), (50_000, 12), (50_000, 49_990), (100_000, 50_000),
                                      (10**6, 3), (10**6, 5000)])
def test_large_n_agrees_with_scipy_in_the_safe_direction(n: int, k: int) -> None:
    """Large n (Robbins path): within 2^-22 relative of scipy's quantiles, on the safe side of them."""
    alpha = Fraction(1, 80)
    low, high = cp_lower(k, n, alpha), cp_upper(k, n, alpha)
    ref_low = sps.beta.ppf(float(alpha), k, n - k + 1)
    ref_high = sps.beta.ppf(1 - float(alpha), k + 1, n - k)
    assert ref_low * (1 - NEAR_SCIPY) <= float(low) <= ref_low * (1 + 1e-12)
    assert ref_high * (1 - 1e-12) <= float(high) <= ref_high * (1 + NEAR_SCIPY)


@pytest.mark.parametrize(("n", "k"), [(100, 50), (100, 99), (1000, 100), (1000, 500)])
@pytest.mark.parametrize("alpha", [Fraction(1, 10**30), Fraction(1, 10**300)])
def test_extreme_levels_agree_with_scipy_in_the_safe_direction(n: int, k: int,
                                                               alpha: Fraction) -> None:
    """At α = 10^-30 and 10^-300 (the mode of Bin(n, p_L) lies far below k, so the float guess
    sums a window far from the mode): still within 2^-22 relative of scipy's quantile, below it."""
    low = cp_lower(k, n, alpha)
    ref_low = sps.beta.ppf(float(alpha), k, n - k + 1)
    assert ref_low * (1 - NEAR_SCIPY) <= float(low) <= ref_low * (1 + 1e-9)


def mp_tail(n: int, k: int, p: Fraction) -> mpmath.mpf:
    """P(Bin(n, p) >= k) by direct high-precision summation (a test reference)."""
    with mpmath.workprec(300):
        pm = mpmath.mpf(p.numerator) / p.denominator
        return mpmath.fsum(mpmath.binomial(n, j) * pm**j * (1 - pm) ** (n - j) for j in range(k, n + 1))


@pytest.mark.parametrize(("n", "k", "p"), [(3000, 2300, Fraction(3, 4)), (6000, 200, Fraction(1, 32)),
                                           (6000, 5990, Fraction(127, 128)), (9000, 4400, Fraction(1, 2))])
def test_tail_bound_large_n_is_above_and_close_to_the_tail(n: int, k: int, p: Fraction) -> None:
    """The Robbins-path tail bound (64-bit p, large n) is >= a 300-bit reference sum and within 2^-30."""
    p = p - Fraction(1, 2**64)  # 64 significant bits: too many for the exact first term
    bound = upper_tail_upper_bound(n, k, p)
    ref = mp_tail(n, k, p)
    with mpmath.workprec(300):
        b = mpmath.mpf(bound.numerator) / bound.denominator
        assert b >= ref * (1 - mpmath.mpf(2) ** -200)
        assert b <= ref * (1 + mpmath.mpf(2) ** -30)


@given(st.integers(1, 60), st.data())
def test_tail_bounds_enclose_the_exact_tails(n: int, data: st.DataObject) -> None:
    """Small n (exact first term): tail <= bound <= tail·(1 + 2^-60), for both tails."""
    k = data.draw(st.integers(0, n))
    p = Fraction(data.draw(st.integers(1, 2**16 - 1)), 2**16)
    exact = tail_exact(n, k, p)
    bound = upper_tail_upper_bound(n, k, p)
    assert exact <= bound <= exact * (1 + Fraction(1, 2**60))
    low_exact = lower_tail_exact(n, k, p)
    low_bound = lower_tail_upper_bound(n, k, p)
    assert low_exact <= low_bound <= low_exact * (1 + Fraction(1, 2**60))


@pytest.mark.parametrize("n", [1, 4, 9])
def test_tail_bounds_at_the_edges_of_k_and_p(n: int) -> None:
    """k = 0 and p in {0, 1}: the tail bounds are the exact tails (0 or 1), not a sum that
    divides by 1 - p = 0 or starts from a zero term."""
    for k in range(n + 1):
        for p in (Fraction(0), Fraction(1, 2), Fraction(1)):
            assert upper_tail_upper_bound(n, k, p) >= tail_exact(n, k, p)
            assert lower_tail_upper_bound(n, k, p) >= lower_tail_exact(n, k, p)
            if p != Fraction(1, 2) or k == 0:
                assert upper_tail_upper_bound(n, k, p) == tail_exact(n, k, p), (k, p)
            if p != Fraction(1, 2) or k == n:
                assert lower_tail_upper_bound(n, k, p) == lower_tail_exact(n, k, p), (k, p)


@pytest.fixture
def fresh_bound_caches() -> Iterator[None]:
    """Empty the bounds' caches before and after a test that changes how they are computed."""
    stats_module._cp_lower.cache_clear()
    stats_module._cp_upper.cache_clear()
    yield
    stats_module._cp_lower.cache_clear()
    stats_module._cp_upper.cache_clear()


@pytest.mark.usefixtures("fresh_bound_caches")
@pytest.mark.parametrize("factor", [0.25, 0.5, 0.999, 1.001, 2.0, 4.0])
def test_a_wrong_float_guess_never_decides(monkeypatch: pytest.MonkeyPatch, factor: float) -> None:
    """The module's claim that the float quantile guess is only a proposal: with the guess
    scaled by ``factor`` (too low or too high), every bound is still proved conservative,
    exactly; at worst it is loose (0 or 1)."""
    real = stats_module._quantile_guess

    def wrong(k: int, n: int, alpha: float, *, upper: bool) -> float:
        return min(real(k, n, alpha, upper=upper) * factor, 1 - 2**-20)

    monkeypatch.setattr(stats_module, "_quantile_guess", wrong)
    n, alpha = 12, Fraction(1, 10)
    for k in range(n + 1):
        low, high = cp_lower(k, n, alpha), cp_upper(k, n, alpha)
        assert 0 <= low <= high <= 1
        if k > 0:
            assert tail_exact(n, k, low) <= alpha, (k, low)
        if k < n:
            assert lower_tail_exact(n, k, high) <= alpha, (k, high)


def _guess_off_by(monkeypatch: pytest.MonkeyPatch, r: float) -> None:
    """Make the float guess wrong by the relative amount r, in the direction that fails: too
    high for lower bounds, too low for upper bounds."""
    real = stats_module._quantile_guess

    def wrong(k: int, n: int, alpha: float, *, upper: bool) -> float:
        return real(k, n, alpha, upper=upper) * (1 - r if upper else 1 + r)

    monkeypatch.setattr(stats_module, "_quantile_guess", wrong)


@pytest.mark.usefixtures("fresh_bound_caches")
@pytest.mark.parametrize(("r", "slack"), [(2.0**-20, Fraction(1, 2**15)),   # the 2^-16 move
                                          (2.0**-14, Fraction(1, 2**7))])   # the 2^-8 move
def test_a_slightly_wrong_guess_costs_little(monkeypatch: pytest.MonkeyPatch, r: float,
                                             slack: Fraction) -> None:
    """The outward moves of the guess are tried from the smallest: a guess off by r just beyond
    one move is saved by the next, so the bound stays within ``slack`` of the quantile (it does
    not fall to a far move, or to 0 or 1)."""
    _guess_off_by(monkeypatch, r)
    n, alpha = 12, Fraction(1, 10)
    for k in range(1, n):
        low, high = cp_lower(k, n, alpha), cp_upper(k, n, alpha)
        assert tail_exact(n, k, low) <= alpha < tail_exact(n, k, low * (1 + slack)), k
        assert lower_tail_exact(n, k, high) <= alpha < lower_tail_exact(n, k, high * (1 - slack)), k


@pytest.mark.usefixtures("fresh_bound_caches")
def test_a_guess_off_by_one_percent_falls_back_to_half(monkeypatch: pytest.MonkeyPatch) -> None:
    """A guess 1% off defeats the moves up to 2^-8; the last move (half the guess for a lower
    bound, 1.5 times it for an upper bound) still gives a proved bound within a factor of
    about 2 of the quantile, not the trivial 0 or 1."""
    _guess_off_by(monkeypatch, 0.01)
    n, alpha = 12, Fraction(1, 10)
    for k in range(1, n):
        low, high = cp_lower(k, n, alpha), cp_upper(k, n, alpha)
        assert tail_exact(n, k, low) <= alpha < tail_exact(n, k, min(low * Fraction(21, 10), Fraction(1))), k
        assert lower_tail_exact(n, k, high) <= alpha, k
        if k <= 3:  # p_U well below 1/1.6 here, so 1.5 times the guess is a bound below 1
            assert high < 1 and lower_tail_exact(n, k, high / Fraction(16, 10)) > alpha, k


_MOVES = (Fraction(1, 2**24), Fraction(1, 2**16), Fraction(1, 2**8), Fraction(1, 2))


@pytest.mark.usefixtures("fresh_bound_caches")
@pytest.mark.parametrize("move", range(4))
@pytest.mark.parametrize(("k", "guess"), [(3, 0.0731), (9, 0.61803)])
def test_a_candidate_whose_proved_tail_equals_alpha_is_the_bound(
        monkeypatch: pytest.MonkeyPatch, k: int, guess: float, move: int) -> None:
    """The documented candidates, in turn: the float guess moved outward by 2^-24, 2^-16, 2^-8,
    then 1/2 (cp_lower: times 1 − m; cp_upper: times 1 + m), rounded outward to 64 (or 65)
    significant bits; the bound is the first whose proved tail bound is <= alpha.  With alpha
    set exactly to the proved tail bound of candidate ``move`` (a tie: the decision boundary),
    that candidate is the bound: the earlier ones are proved above alpha, and equality accepts."""
    monkeypatch.setattr(stats_module, "_quantile_guess",
                        lambda k, n, alpha, *, upper: guess)
    n, g = 12, Fraction(guess)

    def candidate(m: Fraction, up: bool) -> Fraction:
        x = g * (1 + m if up else 1 - m)
        c = stats_module._round_bits(x, 64, up=up)
        assert 0 <= (c - x if up else x - c) < x / 2**63  # at least 64 significant bits
        return c

    low = candidate(_MOVES[move], False)
    alpha = upper_tail_upper_bound(n, k, low)
    assert all(upper_tail_upper_bound(n, k, candidate(m, False)) > alpha for m in _MOVES[:move])
    assert cp_lower(k, n, alpha) == low
    high = candidate(_MOVES[move], True)
    alpha = lower_tail_upper_bound(n, k, high)
    assert all(lower_tail_upper_bound(n, k, candidate(m, True)) > alpha for m in _MOVES[:move])
    assert cp_upper(k, n, alpha) == high


def _tail_mp(n: int, k: int, p: mpmath.mpf, *, upper: bool) -> mpmath.mpf:
    """P_p(X >= k) (``upper``) or P_p(X <= k), summed term by term in mpmath (few hits, small np)."""
    q = 1 - p
    if upper:
        t = mpmath.binomial(n, k) * p**k * q ** (n - k)
        total, j = t, k
        while j < n and t >= total * mpmath.mpf(10) ** -70:
            t = t * (n - j) * p / ((j + 1) * q)
            total, j = total + t, j + 1
        return total
    t = total = q**n
    for j in range(k):
        t = t * (n - j) * p / ((j + 1) * q)
        total += t
    return total


def _quantile_mp(n: int, k: int, alpha: float, *, upper: bool) -> float:
    """p_L (or p_U) by bisection in mpmath at 60 digits, independent of the module."""
    with mpmath.workdps(60):
        lo, hi = mpmath.mpf(10) ** -400, mpmath.mpf(1)
        while hi / lo - 1 > mpmath.mpf(10) ** -25:
            mid = mpmath.sqrt(lo * hi)
            if (_tail_mp(n, k, mid, upper=not upper) <= alpha) != upper:
                lo = mid
            else:
                hi = mid
        return float(hi if upper else lo)


@pytest.mark.usefixtures("fresh_bound_caches")
@pytest.mark.parametrize("n", [2 * 10**8, 2**31])
@pytest.mark.parametrize("k", [1, 5])
@pytest.mark.parametrize("alpha", [0.1, 1e-30])
def test_the_float_guess_is_accurate_for_large_n(n: int, k: int, alpha: float) -> None:
    """The 2^-24 move of the guess assumes the guess is far closer to the quantile than 2^-24.
    With ln C(n, k) from lgamma it was not for large n and few hits (2.7·10^-7 at n = 2·10^8,
    2.7·10^-6 at 2^31: lgamma(n) ~ n ln n cancels), so the bound fell 5 to 40 times further
    below p_L than documented, or to the 2^-16 move.  Within 2^-36 of a 60-digit quantile here,
    and the bound within 2^-23 (relative) of it, on the safe side."""
    lower = _quantile_mp(n, k, alpha, upper=False)
    upper = _quantile_mp(n, k, alpha, upper=True)
    assert abs(stats_module._quantile_guess(k, n, alpha, upper=False) - lower) <= lower / 2**36
    assert abs(stats_module._quantile_guess(k, n, alpha, upper=True) - upper) <= upper / 2**36
    a = Fraction(alpha)
    assert Fraction(lower) * (1 - Fraction(1, 2**23)) <= cp_lower(k, n, a) <= Fraction(lower)
    assert Fraction(upper) <= cp_upper(k, n, a) <= Fraction(upper) * (1 + Fraction(1, 2**23))


@pytest.mark.usefixtures("fresh_bound_caches")
@pytest.mark.parametrize(("n", "k"), [(2**20, 2**16 - 1), (2**20, 2**16), (2**20, 2**18),
                                      (2**24, 2**17 + 5), (2**26, 2**25),
                                      (2**20, 2**20 - 2**16)])
def test_the_float_guess_is_accurate_with_many_hits(n: int, k: int) -> None:
    """Both ways of forming ln C(n, k) (summed below min(k, n - k) = 2^16, lgamma from there):
    the guess is within 2^-30 of scipy's quantiles (accurate to about 10^-11 in these central
    cases), and the bound is the first candidate, within 2^-23 of the quantile."""
    alpha = 1e-3
    lower = float(sps.beta.ppf(alpha, k, n - k + 1))
    upper = float(sps.beta.isf(alpha, k + 1, n - k))
    assert abs(stats_module._quantile_guess(k, n, alpha, upper=False) - lower) <= lower / 2**30
    assert abs(stats_module._quantile_guess(k, n, alpha, upper=True) - upper) <= upper / 2**30
    a = Fraction(alpha)
    assert Fraction(lower) * (1 - Fraction(1, 2**23)) <= cp_lower(k, n, a) <= Fraction(lower)
    assert Fraction(upper) <= cp_upper(k, n, a) <= Fraction(upper) * (1 + Fraction(1, 2**23))


def test_bonferroni_splits_exactly() -> None:
    """alpha/parts exactly; the parts sum back to alpha."""
    assert bonferroni(Fraction(1, 20), 3) == Fraction(1, 60)
    assert bonferroni(0.5, 4) == Fraction(1, 8)
    assert bonferroni(Fraction(1, 20), 1) == Fraction(1, 20)  # one part: the whole level


@pytest.mark.parametrize(("n", "k"), [(3, 1), (5, 2), (7, 3), (9, 1)])
def test_tail_bound_when_a_term_ratio_is_exactly_1(n: int, k: int) -> None:
    """At p = 1/2 and odd n the term ratio (n−j)p/((j+1)q) is exactly 1 at j = (n−1)/2: the
    geometric tail bound (ratio < 1) must not be used there; the bound is still the exact tail
    or just above it."""
    half = Fraction(1, 2)
    exact = sum((Fraction(math.comb(n, j), 2**n) for j in range(k, n + 1)), Fraction(0))
    bound = upper_tail_upper_bound(n, k, half)
    assert exact <= bound <= exact * (1 + Fraction(1, 2**40))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: cp_lower(1, 10, 0), "alpha=0 must lie in (0, 1)"),
    (lambda: cp_lower(1, 10, 1), "alpha=1 must lie in (0, 1)"),
    (lambda: cp_upper(1, 10, "0.05"), "alpha='0.05' must be a number in (0, 1)"),  # type: ignore[arg-type]
    (lambda: cp_upper(1, 10, True), "alpha=True must be a number in (0, 1)"),
    (lambda: cp_upper(1, 10, math.nan), "alpha=nan must be a finite number in (0, 1)"),
    (lambda: cp_lower(-1, 10, 0.1), "k=-1 must lie in [0, n=10]"),
    (lambda: cp_lower(11, 10, 0.1), "k=11 must lie in [0, n=10]"),
    (lambda: cp_lower(1, 0, 0.1), "n=0 must be >= 1"),
    (lambda: cp_lower(1.0, 10, 0.1), "k=1.0 must be an int"),  # type: ignore[arg-type]  # bad on purpose
    (lambda: cp_upper(1, 10.0, 0.1), "n=10.0 must be an int"),  # type: ignore[arg-type]  # bad on purpose
    (lambda: bonferroni(0.1, 0), "parts=0 must be an int >= 1"),
    (lambda: upper_tail_upper_bound(5, 1, Fraction(1, 3)), "p=1/3 must be a dyadic rational"),
])
def test_bad_arguments_are_named(call: object, message: str) -> None:
    """Each bad argument raises InvalidArgument naming it."""
    assert callable(call)
    with pytest.raises(InvalidArgument, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        call()


def test_float_alpha_is_taken_at_its_binary_value() -> None:
    """0.05 becomes the exact Fraction of the double 0.05 (documented), not 1/20."""
    assert check_alpha(0.05) == Fraction(0.05) != Fraction(1, 20)


@pytest.mark.deep  # a scale test (docs/test-tiers.md)
def test_bounds_at_a_billion_draws_need_little_memory() -> None:
    # the float proposal sums the binomial terms in a window of ±40 standard deviations, never
    # over all n (which took O(n) memory: 1.7 GB at n = 10^8); the rigorous check is unchanged
    import tracemalloc

    n = 10**9
    tracemalloc.start()
    try:
        lo = cp_lower(n // 17, n, Fraction(1, 80))
        hi = cp_upper(n // 17, n, Fraction(1, 80))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20
    assert lo < Fraction(1, 17) < hi
    assert upper_tail_upper_bound(n, n // 17, lo) <= Fraction(1, 80)  # proved at the bound itself


@pytest.mark.parametrize("m", [2, 17, 4095, 4096])
def test_log_factorial_is_sharp_up_to_4096(m: int) -> None:
    """Up to m = 4096 (the docstring's limit, included) ln m! is the 160-bit log of the exact
    integer m!: an enclosure of it within 2^-140, far sharper than Robbins' bounds (width up to
    1/(144 m^2), 4·10^-10 at m = 4097), which are used only above."""
    encl = stats_module._log_factorial(m, 160)
    assert encl.hi - encl.lo < Fraction(1, 2**140)
    with mpmath.workprec(600):
        true = mpmath.loggamma(mpmath.mpf(m) + 1)
        assert mpmath.mpf(encl.lo.numerator) / encl.lo.denominator <= true
        assert true <= mpmath.mpf(encl.hi.numerator) / encl.hi.denominator


@pytest.mark.parametrize(("n", "p"), [(2047, Fraction(1, 2**63)),
                                      (1023, Fraction(3, 2**127)),
                                      (2047, 1 - Fraction(1, 2**63))])
def test_first_term_is_exact_up_to_its_bit_limit(n: int, p: Fraction) -> None:
    """The tail bounds' first term C(n, k) p^k (1-p)^(n-k) is the exact rational while
    (n + 1)·(bits of p's longer part) <= 2^17 (here exactly 2^17, the limit included); beyond,
    an upper bound from the log enclosure.  One size beyond the limit the bound is that
    enclosure's upper end, strictly above the exact term: the exact rational, whose size grows
    as (n + 1)·bits, is not formed there (the limit bounds its cost, counted on p's longer part)."""
    bits = max(p.numerator.bit_length(), p.denominator.bit_length())
    assert (n + 1) * bits == 2**17
    for k in (0, 3, n // 2, n):
        exact = math.comb(n, k) * p**k * (1 - p) ** (n - k)
        assert stats_module._first_term_upper(n, k, p) == exact
        beyond = math.comb(n + 1, k) * p**k * (1 - p) ** (n + 1 - k)
        assert stats_module._first_term_upper(n + 1, k, p) > beyond


@pytest.mark.parametrize("m", [4097, 10**6, 10**12, 2**60, 2**80])
def test_log_factorial_encloses_ln_m_factorial(m: int) -> None:
    """Robbins' path of the tail bounds' first term: the enclosure of ln m! contains it (a 600-bit
    reference).  At m = 2^60 and beyond, the interval arithmetic's width exceeds Robbins' slack
    1/(12m) - 1/(12m+1), so building the lower end on the wrong end of the Stirling base is
    caught here."""
    encl = stats_module._log_factorial(m, 160)
    with mpmath.workprec(600):
        true = mpmath.loggamma(mpmath.mpf(m) + 1)
        lo = mpmath.mpf(encl.lo.numerator) / encl.lo.denominator
        hi = mpmath.mpf(encl.hi.numerator) / encl.hi.denominator
        assert lo <= true <= hi
