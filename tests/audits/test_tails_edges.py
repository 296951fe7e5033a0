"""Edge cases of the tail auditor (``audits._tails``) that its sweeps do not reach.

Each test pins one contract at a point where a plausible one-line bug changes the answer:

* **Exact ties.** A row whose gap P(o) − t·Q(o) is exactly 0, or only known to be >= 0 or
  <= 0 (an enclosure end of exactly 0), has no proved sign: the certified event of
  ``hockey_stick`` lists only outcomes where P > t·Q is proved, and the row-level sign
  helpers report 0 or "undecided", never a strict sign.
* **Which end of an enclosure.** Probabilities, weights and t given as enclosures whose truth
  sits at one end: each bound (the divergence's two ends, the certified witness, t_lo and
  t_hi of ε at δ) must stay on its side of the truth.
* **Tail-sized divergences.** When t lies between the likelihood ratio of the window's last
  row and the next one, the discrete Gaussian's divergence is carried by the outside rows
  alone, so the proved tail bound (its offset, its weight's end, its tail mass's end) is
  the whole answer, far above the final rounding.
* **Symbolic thresholds and unbounded ratios.** t = √2 is neither rational nor e^(rational);
  at δ = 0 a Gaussian component of P beyond Q's makes the ratio unbounded on that side only.

The truths are computed independently: explicit sums at 200 bits over windows far wider than
the auditor's, plus the noise law's own proved tail mass for the rest.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from privref.audits import _tails
from privref.reference.discrete_noise import (
    DiscreteGaussian,
    DiscreteLaplace,
    NoiseLaw,
    TwoSidedGeometric,
)
from privref.reference.program import Affine, Distribution
from privref.reference.reals import Interval, Real, exp, prob_as_interval, rational, sqrt
from tests.audits.test_tails_sweep import enclosed_divergence

PREC = 96
TRUTH_PREC = 200


def _law(atoms: dict[Any, Fraction | Interval],
         components: tuple[tuple[NoiseLaw, int, Fraction | Interval], ...]) -> Distribution[Any]:
    return Distribution.from_mapping(atoms, tuple((Affine(law, 1, c), w)
                                                  for law, c, w in components))


def _box(value: Fraction | Interval) -> Interval:
    return value if isinstance(value, Interval) else Interval(value, value)


def _truth(p: Distribution[Any], q: Distribution[Any], t: Interval, radius: int) -> Interval:
    """Σ_o max(0, P(o) − t·Q(o)) over |o| <= radius and every label, plus P's mass beyond,
    at TRUTH_PREC bits."""
    return enclosed_divergence(p, q, t, radius, TRUTH_PREC)


# ------------------------------------------------------------------ exact ties


def _geometric_tie() -> tuple[Distribution[Any], Distribution[Any]]:
    """Z and Z + 1, Z two-sided geometric with α = 1/2: P(o) = 2·Q(o) exactly for o <= 0."""
    law = TwoSidedGeometric(Fraction(1, 2))
    return _law({}, ((law, 0, Fraction(1)),)), _law({}, ((law, 1, Fraction(1)),))


def test_a_geometric_row_exactly_at_the_threshold_is_not_in_the_event() -> None:
    """Z against Z + 1 (α = 1/2) at t = 2: every row o <= 0 and the lower tail have
    P = 2·Q exactly, though their Laurent polynomials differ (α is a root of the gap
    polynomial); the rows o >= 1 and the upper tail have P = Q/2.  The divergence is exactly
    0 and no outcome has P > 2·Q, so the certified event is empty."""
    p, q = _geometric_tie()
    value, witness, event = _tails.hockey_stick(p, q, rational(2), PREC)
    assert value == Fraction(0) and isinstance(value, Fraction)
    assert witness == Fraction(0)
    assert event == ()


def test_the_exact_geometric_sign_of_a_tie_is_zero() -> None:
    """The row helper's sign on the exact geometric path: 0 for the rows where P = 2·Q holds
    exactly (a non-zero gap polynomial vanishing at α), -1 where P = Q/2, with the exact
    value of P − 2·Q as its second element."""
    p, q = _geometric_tie()
    law = TwoSidedGeometric(Fraction(1, 2))
    base = _tails._exp_base(law)
    rows = _tails._exp_rows(*_tails._split(p, q)[1:])
    signs = {}
    for label, pp, qq in rows:
        sign, gap = _tails._exp_gap(pp, qq, base, rational(2), PREC)
        sym = _tails._symbolic_gap(pp, qq, base, rational(2))
        assert sym is not None and sym[0]  # the exact path, with a non-zero polynomial
        signs[label] = sign
        assert isinstance(gap, Fraction)
        if sign == 0:
            assert gap == 0
        else:
            assert sign == -1 and gap < 0
    assert signs == {0: 0, 1: -1, _tails.IntegerTail(True, 1): -1,
                     _tails.IntegerTail(False, 0): 0}


def test_a_label_whose_mass_may_be_zero_is_not_in_the_geometric_event() -> None:
    """P has a label of mass only known to lie in [0, 1/1000] (Q has none) besides the noise
    both laws share.  The label's gap is enclosed as [0, 1/1000]: P > Q there is not proved,
    so the label must not be listed, though its share widens the divergence's upper end."""
    law = TwoSidedGeometric(Fraction(1, 2))
    p = _law({"label": Interval(Fraction(0), Fraction(1, 1000))}, ((law, 0, Fraction(1)),))
    q = _law({}, ((law, 0, Fraction(1)),))
    value, witness, event = _tails.hockey_stick(p, q, rational(1), PREC)
    box = _box(value)
    assert event == ()
    assert witness == 0
    assert box.lo <= 0 and box.hi >= Fraction(1, 1000)


def test_a_geometric_gap_known_only_to_be_at_most_zero_is_undecided() -> None:
    """A row with no P-mass and a Q-mass enclosed by [0, 1/1000]: P − t·Q is enclosed by
    [−t/1000, 0], an upper end of exactly 0.  Its sign is 0 or −1, not proved either way, so
    the helper answers None (undecided), never −1."""
    law = TwoSidedGeometric(Fraction(1, 2))
    base = _tails._exp_base(law)
    weight = Interval(Fraction(0), Fraction(1, 1000))
    sign, gap = _tails._exp_gap({}, {0: weight, 1: weight}, base, rational(1), PREC)
    assert sign is None
    box = prob_as_interval(gap)
    assert box.hi == 0 and box.lo < 0


def test_a_gaussian_label_exactly_at_the_threshold_is_not_in_the_event() -> None:
    """Discrete Gaussian noise with labels: P('x') = 1/2 = 2·Q('x') exactly, so that row's
    gap is enclosed as [0, 0]; every integer row has P = (1/2)·N < 2·(3/4)·N.  The true
    divergence at t = 2 is 0 and the event must be empty."""
    law = DiscreteGaussian(Fraction(1))
    p = _law({"x": Fraction(1, 2)}, ((law, 0, Fraction(1, 2)),))
    q = _law({"x": Fraction(1, 4)}, ((law, 0, Fraction(3, 4)),))
    value, witness, event = _tails.hockey_stick(p, q, rational(2), PREC)
    assert event == ()
    assert witness == 0
    assert _box(value).lo <= 0 <= _box(value).hi


@pytest.mark.parametrize(("p", "q"), [
    (Fraction(1, 2), Fraction(1, 4)),  # the gap is exactly [0, 0]
    (Fraction(0), Interval(Fraction(0), Fraction(1, 1000))),  # [−2/1000, 0]
    (Interval(Fraction(0), Fraction(1, 1000)), Fraction(0)),  # [0, 1/1000]
], ids=["exact tie", "upper end 0", "lower end 0"])
def test_an_enclosed_gap_with_an_end_at_zero_has_no_strict_sign(p: Fraction | Interval,
                                                               q: Fraction | Interval) -> None:
    """The Gaussian path's row helper at t = 2: a gap enclosed by [0, 0], [−a, 0] or [0, a]
    is not proved positive or negative, so its sign is None, and its box is returned."""
    sign, gap = _tails._enclosed_gap(p, q, Interval.point(Fraction(2)))
    assert sign is None
    box = prob_as_interval(gap)
    assert box.lo <= 0 <= box.hi and (box.lo == 0 or box.hi == 0)


# ------------------------------------------------------- which end of an enclosure


def _gaussian_truth(p: Distribution[Any], q: Distribution[Any], t: Real) -> Interval:
    return _truth(p, q, t.enclose(TRUTH_PREC), 60)


def test_undecided_gaussian_rows_carry_their_upper_ends() -> None:
    """N(0) with weight given as [0, 1] (truly 1) against N(1) at t = 1: no row is proved
    positive (P's lower end is 0), so the certified event is empty and the witness 0, while
    the divergence's upper end must still cover the true value (the total variation of the
    two, about 0.38), carried by the undecided rows' upper ends."""
    law = DiscreteGaussian(Fraction(1))
    shown_p = _law({}, ((law, 0, Interval(Fraction(0), Fraction(1))),))
    p = _law({}, ((law, 0, Fraction(1)),))
    q = _law({}, ((law, 1, Fraction(1)),))
    value, witness, event = _tails.hockey_stick(shown_p, q, rational(1), PREC)
    truth = _gaussian_truth(p, q, rational(1))
    assert truth.lo > Fraction(1, 3)
    box = _box(value)
    assert box.lo <= truth.hi and truth.lo <= box.hi
    assert witness == 0
    assert event == ()


def _atom_pair(q_weight: Fraction | Interval) -> tuple[Distribution[Any], Distribution[Any]]:
    """P = {'a': 1}; Q = {'a': q_weight} plus N(0) with weight 1/100 (σ² = 1)."""
    law = DiscreteGaussian(Fraction(1))
    return _law({"a": Fraction(1)}, ()), _law({"a": q_weight}, ((law, 0, Fraction(1, 100)),))


@pytest.mark.parametrize("prec", [16, 24, 40])
@pytest.mark.parametrize("q_given", [
    Fraction(99, 100),
    Interval(Fraction(98, 100), Fraction(99, 100)),  # truth at the upper end
    Interval(Fraction(99, 100), Fraction(1)),  # truth at the lower end
], ids=["exact", "truth at hi", "truth at lo"])
def test_a_nearly_tied_label_is_enclosed_from_both_sides(prec: int,
                                                         q_given: Fraction | Interval) -> None:
    """P('a') = 1 against Q('a') = 99/100 at t = e^(1/100): the divergence is
    1 − (99/100)·e^(1/100) ≈ 5·10⁻⁵, tiny next to t·Q('a') ≈ 1, so at a low working
    precision t's enclosure (about 2^-prec wide) moves a row's gap by far more than the final
    rounding of the result.  Whichever end of t's enclosure or of Q's mass a bound takes
    wrongly, the divergence's enclosure or the certified witness lands on the wrong side of
    the 200-bit truth."""
    t = exp(Fraction(1, 100))
    tb = t.enclose(prec)
    assert tb.lo < tb.hi  # a genuine enclosure at this precision
    _, q_true = _atom_pair(Fraction(99, 100))
    p, shown_q = _atom_pair(q_given)
    value, witness, event = _tails.hockey_stick(p, shown_q, t, prec)
    truth = _gaussian_truth(p, q_true, t)
    assert truth.lo > 0
    box = _box(value)
    assert box.lo <= truth.hi and truth.lo <= box.hi, (prec, float(box.lo), float(box.hi))
    assert witness <= truth.hi
    if not isinstance(q_given, Interval):
        assert event == ("a",)


# ------------------------------------------------------------ tail-sized divergences


@pytest.mark.parametrize("prec", [16, 40, 96])
@pytest.mark.parametrize("weight", [Fraction(1), Interval(Fraction(1, 2), Fraction(1))],
                         ids=["exact weight", "weight in [1/2, 1]"])
def test_a_divergence_carried_by_the_gaussian_tails_is_enclosed(prec: int,
                                                                weight: Fraction | Interval
                                                                ) -> None:
    """N(1) against N(0), σ² = 1/4, with t = e^(hi/σ²) where hi = 1 + radius(prec) is the
    window's last outcome: the likelihood ratio e^((2o − 1)/(2σ²)) is below t on every
    window row and above it beyond, so the whole divergence (about 0.86·P(Z >= radius + 1))
    lies outside the window.  Its enclosure must contain the truth (the outside row's proved
    bound, taken at the upper end of the weight's and of the tail mass's enclosures, at the
    right distance from the component), and its upper end may exceed the truth only by the
    mass P puts beyond the window (the module's stated enclosure [0, that mass] of each
    outside row), not by a window row's mass counted again."""
    sigma2 = Fraction(1, 4)
    law = DiscreteGaussian(sigma2)
    k = law.radius(prec)
    hi = 1 + k
    t = exp(Fraction(hi) / sigma2)
    p = _law({}, ((law, 1, Fraction(1)),))
    shown_p = _law({}, ((law, 1, weight),))
    q = _law({}, ((law, 0, Fraction(1)),))
    value, witness, event = _tails.hockey_stick(shown_p, q, t, prec)
    truth = _truth(p, q, t.enclose(TRUTH_PREC), hi + 30)
    # P's mass beyond the window [−k, 1 + k]: P(Z >= k + 1) above, P(Z >= k + 2) below
    beyond = (prob_as_interval(law.tail_mass(k + 1, TRUTH_PREC)).hi
              + prob_as_interval(law.tail_mass(k + 2, TRUTH_PREC)).hi)
    assert truth.lo > beyond / 2  # the tail is most of the divergence
    box = _box(value)
    assert box.lo <= truth.hi and truth.lo <= box.hi, (prec, float(box.hi), float(truth.lo))
    assert box.hi <= truth.hi + beyond * Fraction(17, 16), (prec, float(box.hi), float(beyond))
    assert witness <= truth.hi
    assert event == ()


# -------------------------------------------------------------- ε at δ, enclosed masses


@pytest.mark.parametrize(("p_given", "q_given"), [
    (Interval(Fraction(1), Fraction(1)), Fraction(1)),
    (Interval(Fraction(1), Fraction(11, 10)), Fraction(1)),  # P's truth at its lower end
    (Fraction(1), Interval(Fraction(9, 10), Fraction(1))),  # Q's truth at its upper end
    (Interval(Fraction(9, 10), Fraction(1)), Fraction(1)),  # P's truth at its upper end
    (Fraction(1), Interval(Fraction(1), Fraction(11, 10))),  # Q's truth at its lower end
], ids=["point interval", "P at lo", "Q at hi", "P at hi", "Q at lo"])
@pytest.mark.parametrize("delta", [Fraction(1, 100), Fraction(1, 10)])
def test_geometric_epsilon_with_enclosed_weights_brackets_the_exact_value(
        p_given: Fraction | Interval, q_given: Fraction | Interval, delta: Fraction) -> None:
    """Z against Z + 1 (α = 1/2) at δ, the weights (truly 1) given as enclosures with the
    truth at one end: t_lo <= the exact e^ε <= t_hi, the exact value being the auditor's
    own answer for the exact weights.  t_lo is solved with P's lower and Q's upper masses,
    t_hi with the opposite ends; P's masses normalised by 1 + α."""
    law = TwoSidedGeometric(Fraction(1, 2))
    exact = _tails.epsilon_at_delta(_law({}, ((law, 0, Fraction(1)),)),
                                    _law({}, ((law, 1, Fraction(1)),)), delta, PREC)
    assert exact.t_exact is not None and exact.t_exact > 1
    got = _tails.epsilon_at_delta(_law({}, ((law, 0, p_given),)),
                                  _law({}, ((law, 1, q_given),)), delta, PREC)
    assert not got.infinite and got.t_hi is not None
    assert got.t_lo <= exact.t_exact <= got.t_hi


@pytest.mark.parametrize("prec", [8, 12, 16])
def test_an_unbounded_upper_end_keeps_t_lo_rounded_down(prec: int) -> None:
    """P puts 1/4 on a label whose Q-mass is given as [0, 1/1024] and is truly 1/1024: no
    upper bound on e^ε follows from the enclosures (t_hi is None).  At δ = 1/10 the label
    alone decides: e^ε = (1/4 − 1/10)·1024 = 768/5 exactly, and every mass at the truth's
    corner is dyadic, so t_lo is solved exactly; it must then be rounded down to prec bits,
    never up past the exact value."""
    law = TwoSidedGeometric(Fraction(1, 2))
    p = _law({"label": Fraction(1, 4)}, ((law, 0, Fraction(3, 4)),))
    q_true = _law({"label": Fraction(1, 1024)}, ((law, 1, Fraction(1023, 1024)),))
    shown_q = _law({"label": Interval(Fraction(0), Fraction(1, 1024))},
                   ((law, 1, Fraction(1023, 1024)),))
    delta = Fraction(1, 10)
    exact = _tails.epsilon_at_delta(p, q_true, delta, PREC)
    assert exact.t_exact == Fraction(768, 5)
    got = _tails.epsilon_at_delta(p, shown_q, delta, prec)
    assert not got.infinite and got.t_hi is None
    assert got.t_lo <= exact.t_exact
    assert got.t_lo >= exact.t_exact * (1 - Fraction(1, 2 ** (prec - 1)))


def test_a_gaussian_ratio_approaching_its_supremum_has_no_finite_upper_end_below_it() -> None:
    """N(1) against (N(0) + N(1))/2, σ² = 1, at δ = 0: the ratio 2/(1 + e^((1 − 2o)/2))
    grows towards 2 and never reaches it, so e^ε = 2 exactly.  P's component lies within
    Q's range, so ε is finite, and any upper end returned must be at least 2: the outside
    rows' masses (enclosed by [0, tail bound]) may not be dropped."""
    law = DiscreteGaussian(Fraction(1))
    p = _law({}, ((law, 1, Fraction(1)),))
    q = _law({}, ((law, 0, Fraction(1, 2)), (law, 1, Fraction(1, 2))))
    got = _tails.epsilon_at_delta(p, q, Fraction(0), PREC)
    assert not got.infinite
    assert got.t_lo <= 2
    assert got.t_hi is None or got.t_hi >= 2


@pytest.mark.parametrize(("p_at", "q_at", "tail"), [
    ((-1, 3), (0, 2), _tails.IntegerTail(True, 3)),
    ((-2, 1), (-1, 1), _tails.IntegerTail(False, -2)),
])
def test_an_unbounded_gaussian_ratio_is_found_on_the_right_side(
        p_at: tuple[int, int], q_at: tuple[int, int], tail: _tails.IntegerTail) -> None:
    """At δ = 0, P's components spread around Q's: the ratio is unbounded above when P's
    highest offset exceeds Q's highest (even if its lowest is below Q's lowest too), and
    below when P's lowest is below Q's lowest while its highest is within Q's range."""
    law = DiscreteGaussian(Fraction(1))
    half = Fraction(1, 2)
    p = _law({}, tuple((law, c, half) for c in p_at))
    q = _law({}, tuple((law, c, half) for c in q_at))
    got = _tails.epsilon_at_delta(p, q, Fraction(0), PREC)
    assert got.infinite and got.t_hi is None
    assert got.event == (tail,)


# ------------------------------------------------------------------ symbolic thresholds


@pytest.mark.parametrize("law", [TwoSidedGeometric(Fraction(1, 2)), DiscreteLaplace(Fraction(1)),
                                 DiscreteLaplace(Fraction(3, 2))], ids=repr)
def test_a_square_root_threshold_is_not_read_as_an_exponential(law: NoiseLaw) -> None:
    """t = √2 (neither rational nor e^(rational)) with exact mixtures: the rows must take the
    enclosed path with t itself.  Reading √2's argument 2 as an exponent (t = e²) gives a far
    smaller divergence; the result must meet the brute-force truth."""
    t = sqrt(rational(2))
    p = _law({}, ((law, 0, Fraction(2, 3)), (law, 2, Fraction(1, 3))))
    q = _law({}, ((law, 1, Fraction(1)),))
    value, witness, _ = _tails.hockey_stick(p, q, t, PREC)
    truth = _truth(p, q, t.enclose(TRUTH_PREC), 110)
    box = _box(value)
    assert box.lo <= truth.hi and truth.lo <= box.hi
    assert witness <= truth.hi
    assert box.hi - box.lo <= (truth.hi - truth.lo) + Fraction(1, 2 ** (PREC - 8))


@pytest.mark.parametrize("beyond", [2, -2])
def test_a_gaussian_component_of_possibly_zero_weight_beyond_q_is_not_unbounded(
        beyond: int) -> None:
    """At δ = 0 a component of P beyond all of Q's, above or below, with weight known only to
    lie in [0, 1/1000] (truly 0): the ratio is not proved unbounded, so ε = ∞ is not claimed."""
    law = DiscreteGaussian(Fraction(1))
    p = _law({}, ((law, 0, Interval(Fraction(999, 1000), Fraction(1))),
                  (law, beyond, Interval(Fraction(0), Fraction(1, 1000)))))
    q = _law({}, ((law, 0, Fraction(1)),))
    assert not _tails.epsilon_at_delta(p, q, Fraction(0), PREC).infinite
