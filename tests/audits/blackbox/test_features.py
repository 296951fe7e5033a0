"""IEEE-754 pattern keys and coordinate-wise symbols, with exact expected values."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from privref.audits.blackbox.features import (
    ATOM_NAN,
    ATOM_NEG_INF,
    ATOM_POS_INF,
    LOW_BITS_CAP,
    coarse_symbols,
    describe_float_pattern,
    float_pattern,
    patterns_are_intervals,
)


def _pattern(x: float) -> int:
    return int(float_pattern(np.array([x]))[0])


def test_patterns_read_sign_binade_and_trailing_zeros() -> None:
    """1 = 2^0 exactly (52 trailing zeros, capped); 0.375 = 3·2^-3; 1 + 2^-52 uses every bit."""
    assert describe_float_pattern(_pattern(1.0)) == f"+[2^0, 2^1) multiple of 2^{-52 + LOW_BITS_CAP}"
    assert describe_float_pattern(_pattern(0.375)) == f"+[2^-2, 2^-1) multiple of 2^{-54 + LOW_BITS_CAP}"
    assert describe_float_pattern(_pattern(1 + 2**-52)) == "+[2^0, 2^1) odd multiple of 2^-52"
    assert describe_float_pattern(_pattern(-(0.25 + 2**-50))) == "-[2^-2, 2^-1) odd multiple of 2^-50"
    assert describe_float_pattern(_pattern(5e-324)) == "+[2^-1023, 2^-1022) odd multiple of 2^-1075"
    # the sign of zero is a different double (a mechanism can leak through it): two keys
    assert [describe_float_pattern(_pattern(x)) for x in (0.0, -0.0)] == ["+0.0", "-0.0"]
    assert [describe_float_pattern(_pattern(x)) for x in (math.inf, -math.inf, math.nan)] == [
        "inf", "-inf", "nan"]


@given(st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x != 0))
def test_the_key_says_which_grid_a_double_lies_on(x: float) -> None:
    """x is an odd multiple of 2^g exactly when the key says so (checked with exact rationals)."""
    text = describe_float_pattern(_pattern(x))
    grain = int(text.rsplit("2^", 1)[1])
    from fractions import Fraction
    q = Fraction(x) / Fraction(2) ** grain
    assert q.denominator == 1
    if "odd" in text:
        assert q.numerator % 2 == 1
    binade = int(text.split("[2^", 1)[1].split(",", 1)[0])
    if binade > -1023:
        assert Fraction(2) ** binade <= abs(Fraction(x)) < Fraction(2) ** (binade + 1)
    assert (text[0] == "-") == (struct.pack(">d", x)[0] >= 0x80)


def test_the_mironov_grid_separates_shifted_laplace() -> None:
    """1 + noise in (0, 1/2) is on the 2^-53 grid; noise in (0, 1/2) mostly is not (ulp 2^-54 or finer)."""
    rng = np.random.default_rng(0)
    noise = rng.laplace(0.0, 1.0, 20_000)
    shifted = 1.0 + rng.laplace(0.0, 1.0, 20_000)

    def odd_grains(y: np.ndarray) -> list[int]:  # exact grains only ("multiple of" keys are capped)
        texts = [describe_float_pattern(k) for k in float_pattern(y[(y > 0) & (y < 0.5)]).tolist()]
        return [int(t.rsplit("2^", 1)[1]) for t in texts if "odd" in t]

    assert min(odd_grains(shifted)) >= -53
    fine = odd_grains(noise)
    assert sum(g < -53 for g in fine) > len(fine) // 2


def test_coarse_symbols_bin_finite_values_and_keep_atoms_apart() -> None:
    """Bins (-inf, 0], (0, 1], (1, inf) are 0, 1, 2; -inf, inf and nan are atoms."""
    edges = np.array([0.0, 1.0])
    got = coarse_symbols(np.array([-5.0, 0.0, 0.5, 1.0, 7.0, -math.inf, math.inf, math.nan]), edges)
    assert got.tolist() == [0, 0, 1, 1, 2, ATOM_NEG_INF, ATOM_POS_INF, ATOM_NAN]


def _binade(x: float) -> set[int]:
    """Every trailing-zero class of x's sign and binade: the keys of the whole binade."""
    base = _pattern(x) - (_pattern(x) % (LOW_BITS_CAP + 1))
    return set(range(base, base + LOW_BITS_CAP + 1))


def test_whole_binades_are_intervals_and_bit_classes_are_not() -> None:
    """issue 37: a pattern event equal to a plain interval ([1, 4) = two whole binades) is a
    real-arithmetic event; one class of trailing bits, +0.0 without -0.0, or NaN read float bits."""
    one_to_four = _binade(1.0) | _binade(2.0)
    assert patterns_are_intervals(one_to_four)
    assert patterns_are_intervals(one_to_four | {_pattern(0.0), _pattern(-0.0), _pattern(math.inf)})
    assert not patterns_are_intervals(one_to_four - {min(one_to_four)})   # a class missing
    assert not patterns_are_intervals({_pattern(1.5)})                      # odd multiples of 2^-1
    assert not patterns_are_intervals(one_to_four | {_pattern(0.0)})        # +0.0 without -0.0
    assert not patterns_are_intervals(one_to_four | {_pattern(math.nan)})


def test_an_interval_pattern_event_is_not_labelled_a_float_leak() -> None:
    """The estimator's float_leak flag follows the keys: a violation proved on the whole binade
    [1, 2) is real-arithmetic evidence; one on the odd multiples of 2^-1 there is a float leak."""
    from privref.audits.blackbox.estimate import conclude_pair
    from privref.audits.blackbox.events import FloatPattern
    from privref.audits.blackbox.selection import Candidate

    def finding(keys: set[int]) -> bool:
        event = FloatPattern(None, 1, frozenset(keys))
        found = conclude_pair([Candidate(event, "a→b", 0, 0, 0.0)], [(900, 10)], held_a=1000,
                              held_b=1000, selection_a=1000, selection_b=1000, epsilon=0,
                              delta=0, alpha=Fraction(1, 20))
        assert found.estimate.violation
        return found.estimate.float_leak

    assert not FloatPattern(None, 1, frozenset(_binade(1.0))).reads_float_bits
    assert not finding(_binade(1.0))
    assert finding({_pattern(1.5)})
