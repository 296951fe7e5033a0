"""Sharpness contracts of the tail auditor at a working precision (issue 14, mutation report).

``audits._tails`` works in interval arithmetic with guard bits above the requested precision
``prec`` and refines a row's sign until it is decided.  A precision bug keeps every enclosure
sound, so only a pinned width sees it.  The contracts pinned here hold on exact input laws
(Fraction weights) with noise scales up to 2^12 (discrete Laplace scale, 1/(1 − α), σ; the
tests use up to 256):

* ``hockey_stick``'s enclosure is at most ``K_HS·2^-prec`` wide (absolute: it is a
  probability), ``K_HS = 8``.  Measured maximum over about 2,000 random pairs of the
  strategies below at 32, 64, 96 and 128 bits (thresholds rational, e^x and e^√x): 4·2^-prec
  (a discrete Gaussian: its pmf enclosures are up to 1.9 units wide, on P's and t·Q's side).
* ``epsilon_at_delta``'s enclosure [t_lo, t_hi] of e^ε is sharp in δ: the divergence at
  t_lo exceeds the divergence at t_hi by at most ``K_EPS·2^-prec``, ``K_EPS = 16`` (measured
  maximum: 4.3·2^-prec; 4.7 at scale 4096).  Its width in t is not bounded by a constant
  times 2^-prec·t_hi: it is that δ-error divided by Q's mass on the event, which a steep
  discrete Gaussian makes tiny (1.3·10⁶·2^-prec·t_hi below, at δ = 1 − 10⁻⁶).  Beyond the
  scale bound the guard bits run out: at discrete Laplace scale 2^28 the δ-error reached
  3,600·2^-prec.
* A row's sign is decided whenever it is decidable at ``MAX_PRECISION``: a row whose gap
  P − t·Q is 2^-150 or 2^-1200, at prec 32 or 96, is proved positive (listed in the event)
  or proved negative (the divergence is then exactly 0).

A cut guard bit shows only where the rounding errors add up: slow laws (q = 1 − 1/256, so a
row is a difference of terms 256 times larger) with about 80 positive rows.  The divergence
at the dyadic ends t_lo and t_hi is enclosed by ``hockey_stick`` itself at prec + 64 bits
(its soundness is checked against brute force in ``test_tails_sweep``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privref.audits import _tails
from privref.reference.discrete_noise import (
    DiscreteGaussian,
    DiscreteLaplace,
    NoiseLaw,
    TwoSidedGeometric,
)
from privref.reference.program import Affine, Distribution
from privref.reference.reals import Interval, Prob, Real, exp, log, rational, sqrt
from tests.audits.test_tails_sweep import LAWS, mixtures

K_HS = 8
"""hockey_stick's enclosure is at most K_HS·2^-prec wide on exact laws."""
K_EPS = 16
"""The divergence at t_lo exceeds the one at t_hi by at most K_EPS·2^-prec on exact laws."""

PRECISIONS = (32, 64, 96, 128)

SCALED: tuple[tuple[NoiseLaw, int], ...] = (
    *((law, 1) for law in LAWS),
    (TwoSidedGeometric(Fraction(255, 256)), 256),
    (DiscreteLaplace(Fraction(256)), 256),
    (DiscreteGaussian(Fraction(64)), 8),
)
"""Each law with the scale S of its likelihood ratios (log P/Q moves by about 1/S per unit of
offset), so that thresholds near the ratios are drawn: a slow law (q close to 1) sums terms
S times larger than its rows, where a cut guard bit shows."""


def _width(value: Prob) -> Fraction:
    return value.hi - value.lo if isinstance(value, Interval) else Fraction(0)


def _box(value: Prob) -> Interval:
    return value if isinstance(value, Interval) else Interval(value, value)


def thresholds(scale: int) -> st.SearchStrategy[Real]:
    """t = 1 + y/S, e^(x/S) (the symbolic path for discrete Laplace) or e^(√x/S) (neither
    rational nor e^rational: the enclosed path)."""
    return st.one_of(
        st.fractions(min_value=0, max_value=3, max_denominator=8).map(
            lambda y: rational(1 + y / scale)),
        st.fractions(min_value=0, max_value=Fraction(3, 2), max_denominator=8).map(
            lambda x: exp(rational(x / scale))),
        st.fractions(min_value=Fraction(1, 8), max_value=2, max_denominator=8).map(
            lambda x: exp(sqrt(rational(x)) * Fraction(1, scale))))


@st.composite
def pairs(draw: st.DrawFn) -> tuple[Distribution[Any], Distribution[Any], int]:
    """Two exact mixtures of one law (the exact half of the sweep's strategy) and its scale."""
    law, scale = draw(st.sampled_from(SCALED))
    (p, _), (q, _) = draw(mixtures(law)), draw(mixtures(law))
    return p, q, scale


@settings(max_examples=60)
@given(pairs(), st.data(), st.sampled_from(PRECISIONS))
def test_hockey_stick_is_at_most_k_units_of_the_working_precision_wide(
        pair: tuple[Distribution[Any], Distribution[Any], int], data: st.DataObject,
        prec: int) -> None:
    """On exact laws the divergence's enclosure is at most K_HS·2^-prec wide."""
    p, q, scale = pair
    t = data.draw(thresholds(scale))
    value, _, _ = _tails.hockey_stick(p, q, t, prec)
    assert _width(value) <= Fraction(K_HS, 2**prec), float(_width(value) * 2**prec)


def _delta_error(p: Distribution[Any], q: Distribution[Any], delta: Fraction, prec: int
                 ) -> Fraction | None:
    """Upper bound on HS(t_lo) − HS(t_hi) for epsilon_at_delta's ends; None when unbounded."""
    got = _tails.epsilon_at_delta(p, q, delta, prec)
    if got.infinite or got.t_hi is None:
        return None
    at_lo = _box(_tails.hockey_stick(p, q, rational(got.t_lo), prec + 64)[0])
    at_hi = _box(_tails.hockey_stick(p, q, rational(got.t_hi), prec + 64)[0])
    assert at_hi.lo <= delta  # soundness: HS(t_hi) <= delta
    return at_lo.hi - at_hi.lo


@settings(max_examples=60)
@given(pairs(), st.sampled_from(PRECISIONS),
       st.one_of(st.just(Fraction(0)),
                 st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(1, 2),
                              max_denominator=1000)))
def test_epsilon_at_delta_is_sharp_to_k_units_in_delta(
        pair: tuple[Distribution[Any], Distribution[Any], int], prec: int,
        delta: Fraction) -> None:
    """On exact laws the divergence at t_lo exceeds the divergence at t_hi by at most
    K_EPS·2^-prec."""
    p, q, _ = pair
    error = _delta_error(p, q, delta, prec)
    if error is not None:
        assert error <= Fraction(K_EPS, 2**prec), float(error * 2**prec)


def _one(law: NoiseLaw, c: int) -> Distribution[Any]:
    return Distribution.from_mapping({}, ((Affine(law, 1, c), Fraction(1)),))


def _mix(law: NoiseLaw, at: tuple[int, ...]) -> Distribution[Any]:
    """The even mixture of law(Z + c) over c in ``at``."""
    return Distribution.from_mapping({}, tuple((Affine(law, 1, c), Fraction(1, len(at)))
                                               for c in at))


@pytest.mark.parametrize("prec", [32, 96])
def test_an_ill_conditioned_epsilon_is_still_sharp_in_delta(prec: int) -> None:
    """N(0) against N(8) with σ² = 1/4 at δ = 1 − 10⁻⁶: e^ε ≈ 2.3·10²⁵ and Q's mass on the
    event is tiny, so the enclosure of e^ε is about 1.3·10⁶·2^-prec·t_hi wide (no constant
    bounds it relative to t); the divergence at its ends still differs by at most
    K_EPS·2^-prec."""
    law = DiscreteGaussian(Fraction(1, 4))
    error = _delta_error(_one(law, 0), _one(law, 8), 1 - Fraction(1, 10**6), prec)
    assert error is not None and error <= Fraction(K_EPS, 2**prec), float(error * 2**prec)


# ----------------------------------------------------- slow laws: many rows, large terms

SLOW_GEOMETRIC = TwoSidedGeometric(Fraction(255, 256))
SLOW_LAPLACE = DiscreteLaplace(Fraction(256))


@pytest.mark.parametrize(("law", "t"), [
    (SLOW_GEOMETRIC, exp(rational(Fraction(1, 16)))),
    (SLOW_LAPLACE, exp(rational(Fraction(1, 16)))),
    (SLOW_LAPLACE, exp(sqrt(rational(2)) * Fraction(1, 20))),
], ids=["geometric e^(1/16)", "laplace e^(1/16)", "laplace e^(sqrt(2)/20)"])
@pytest.mark.parametrize("prec", [32, 96])
def test_a_slow_law_with_many_positive_rows_keeps_the_width(law: NoiseLaw, t: Real,
                                                            prec: int) -> None:
    """N(0) against N(160) for a law of scale 256: about 80 rows with P > t·Q, each a
    difference of terms about 256 times larger than itself (q = 1 − 1/256), summed at a
    guard precision.  The enclosure stays within K_HS·2^-prec (measured: 0.5·2^-prec); the
    symbolic path (e^(1/16) for discrete Laplace) and the enclosed one (the others) both."""
    value, _, event = _tails.hockey_stick(_one(law, 0), _one(law, 160), t, prec)
    assert len(event) > 50
    assert _width(value) <= Fraction(K_HS, 2**prec), float(_width(value) * 2**prec)


@pytest.mark.parametrize("p_at", [(0,), (0, 7)], ids=["N(0)", "N(0)+N(7)"])
@pytest.mark.parametrize("prec", [32, 96])
def test_a_slow_law_keeps_epsilon_sharp_in_delta(p_at: tuple[int, ...], prec: int) -> None:
    """Discrete Laplace of scale 256, P = N(0) (or the even mixture of N(0) and N(7)) against
    N(160) (or of N(160) and N(30)), δ = 1/10: the divergence at t_lo exceeds the one at
    t_hi by at most K_EPS·2^-prec (measured: 2.4·2^-prec)."""
    law = SLOW_LAPLACE
    q_at = (160,) if len(p_at) == 1 else (160, 30)
    error = _delta_error(_mix(law, p_at), _mix(law, q_at), Fraction(1, 10), prec)
    assert error is not None and error <= Fraction(K_EPS, 2**prec), float(error * 2**prec)


# ------------------------------------------------------------- deciding a nearly tied row

NEAR: list[tuple[NoiseLaw, Real, Interval]] = [
    # geometric α = 1/2: P/Q = 2 on {o <= 0} for N(0) against N(1), P(o <= 0) = 2/3 and
    # Q(o <= 0) = 1/3; t = 2·e^(∓x) is not rational (the enclosed path)
    (TwoSidedGeometric(Fraction(1, 2)), log(rational(2)), Interval.point(Fraction(2, 3))),
    # discrete Laplace, scale 1: P/Q = e on {o <= 0}, P(o <= 0) = 1/(1 + e^-1) and
    # Q(o <= 0) = e^-1/(1 + e^-1); t = e^(1 ∓ x) (the symbolic path)
    (DiscreteLaplace(Fraction(1)), rational(1),
     Interval(Fraction(7310585, 10**7), Fraction(7310586, 10**7))),
]
"""(law, log of P/Q on {o <= 0}, an enclosure of P(o <= 0))."""


@pytest.mark.parametrize(("law", "log_ratio", "mass"), NEAR, ids=["geometric", "laplace"])
@pytest.mark.parametrize("bits", [150, 1200])
@pytest.mark.parametrize("prec", [32, 96])
def test_a_row_just_above_the_threshold_is_proved_positive(
        law: NoiseLaw, log_ratio: Real, mass: Interval, bits: int, prec: int) -> None:
    """t = (P/Q on {o <= 0})·e^(-x), x = 2^-bits: the rows o = 0 and {o < 0} have gaps
    about 2^-bits > 0, decidable at MAX_PRECISION = 1536 though not at prec + 20.  Both are
    in the event, the enclosure meets the divergence P(o <= 0)·(1 − e^-x), which lies in
    [m·(x − x²/2), m·x] for m = P(o <= 0), and the certified witness is positive."""
    x = Fraction(1, 2**bits)
    t = exp(log_ratio - rational(x))
    value, witness, event = _tails.hockey_stick(_one(law, 0), _one(law, 1), t, prec)
    assert event == (0, _tails.IntegerTail(False, 0)), event
    box = _box(value)
    assert box.lo <= mass.hi * x and mass.lo * (x - x * x / 2) <= box.hi
    assert 0 < witness <= mass.hi * x


@pytest.mark.parametrize(("law", "log_ratio", "mass"), NEAR, ids=["geometric", "laplace"])
@pytest.mark.parametrize("bits", [150, 1200])
@pytest.mark.parametrize("prec", [32, 96])
def test_a_row_just_below_the_threshold_is_proved_negative(
        law: NoiseLaw, log_ratio: Real, mass: Interval, bits: int, prec: int) -> None:
    """t = (P/Q on {o <= 0})·e^(2^-bits): every row is proved P < t·Q, so the divergence is
    exactly 0 with an empty event (an undecided row would leave an interval)."""
    t = exp(log_ratio + rational(Fraction(1, 2**bits)))
    value, witness, event = _tails.hockey_stick(_one(law, 0), _one(law, 1), t, prec)
    assert isinstance(value, Fraction) and value == 0, value
    assert witness == 0 and event == ()
