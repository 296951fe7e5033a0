"""The tail auditor against a brute-force truncation, over random noisy mixtures (issue 14).

``audits._tails`` decides pairs whose laws have infinite support: mixtures of
``count + Z`` components (Z two-sided geometric, discrete Laplace or discrete Gaussian) and
atoms.  Here P and Q are random such mixtures and t is rational or e^x.  The true hockey-stick
divergence is enclosed independently: an explicit interval sum over a window of 2·110 + 1
integers, plus the noise's tail mass outside it (P(|Z| >= k) from ``NoiseLaw.tail_mass``,
at most 10⁻³⁰ for the laws used).  Soundness: the auditor's enclosure meets that one, and
its certified witness is at most the truth.  Sharpness: its enclosure is at most
2^-(prec-8) wider than needed, so a sound but wrong end of an interval, a lost row or a
working precision cut by a few bits shows.
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
from privref.reference.errors import TooLargeToEnumerate
from privref.reference.program import Affine, Distribution
from privref.reference.reals import Interval, Real, exp, prob_as_interval, rational, sqrt

pytestmark = pytest.mark.deep  # the deep tier: python -m pytest -m deep (docs/test-tiers.md)

PREC = 96
RADIUS = 110
"""Window half-width: every law below has P(|Z| >= RADIUS - 3) < 10^-30."""

LAWS: tuple[NoiseLaw, ...] = (TwoSidedGeometric(Fraction(1, 2)), TwoSidedGeometric(Fraction(1, 3)),
                              DiscreteLaplace(Fraction(1)), DiscreteLaplace(Fraction(3, 2)),
                              DiscreteGaussian(Fraction(1, 2)), DiscreteGaussian(Fraction(2)))


Law = tuple[Distribution[Any], Distribution[Any]]
"""A mixture's exact law and the law the auditor is given: the same, or with every weight
replaced by an enclosure 10⁻³ wide around it (the interval path, where the wrong end of an
enclosure moves results far above the final rounding)."""


@st.composite
def mixtures(draw: st.DrawFn, law: NoiseLaw) -> Law:
    """count + Z components at offsets in [-2, 2] and up to two atoms (an integer, a label)."""
    offsets = draw(st.lists(st.integers(-2, 2), min_size=1, max_size=2, unique=True))
    atoms = draw(st.lists(st.sampled_from((0, 1, 3, "leak")), max_size=2, unique=True))
    weights = draw(st.lists(st.integers(1, 6), min_size=len(offsets) + len(atoms),
                            max_size=len(offsets) + len(atoms)))
    total = sum(weights)
    widen = draw(st.booleans())

    def given(w: int) -> Fraction | Interval:
        exact = Fraction(w, total)
        return Interval(exact * Fraction(999, 1000), exact * Fraction(1001, 1000)) if widen \
            else exact

    pairs = list(zip(offsets, weights, strict=False))
    named = list(zip(atoms, weights[len(offsets):], strict=True))
    exact = Distribution.from_mapping(
        {a: Fraction(w, total) for a, w in named},
        tuple((Affine(law, 1, c), Fraction(w, total)) for c, w in pairs))
    shown = Distribution.from_mapping({a: given(w) for a, w in named},
                                      tuple((Affine(law, 1, c), given(w)) for c, w in pairs))
    return exact, shown


def enclosed_mass(dist: Distribution[Any], o: object, prec: int = PREC + 40) -> Interval:
    """P(o) as an interval at ``prec`` bits: its atom plus every component's pmf at o − offset."""
    total = prob_as_interval(dist.as_dict().get(o, Fraction(0)))
    if isinstance(o, int):
        for aff, w in dist.components:
            noise = aff.noise
            assert isinstance(noise, (TwoSidedGeometric, DiscreteLaplace, DiscreteGaussian))
            pmf = prob_as_interval(noise.pmf(o - aff.integer_offset, prec))
            total = total + pmf * prob_as_interval(w)
    return total


def _outside(dist: Distribution[Any], radius: int, prec: int) -> Fraction:
    """An upper bound on P(outcome is an integer outside [-radius, radius])."""
    bound = Fraction(0)
    for aff, w in dist.components:
        noise = aff.noise
        assert isinstance(noise, (TwoSidedGeometric, DiscreteLaplace, DiscreteGaussian))
        k = radius + 1 - abs(aff.integer_offset)
        bound += 2 * prob_as_interval(noise.tail_mass(k, prec)).hi * prob_as_interval(w).hi
    return bound


def enclosed_divergence(p: Distribution[Any], q: Distribution[Any], t: Interval,
                        radius: int = RADIUS, prec: int = PREC + 40) -> Interval:
    """An enclosure of Σ_o max(0, P(o) − t·Q(o)) by explicit summation over |o| <= radius
    and every label, at ``prec`` bits, plus P's mass beyond the window."""
    lo = hi = Fraction(0)
    outcomes: list[object] = list(range(-radius, radius + 1))
    outcomes += [o for d in (p, q) for o in d.as_dict() if not isinstance(o, int)]
    for o in dict.fromkeys(outcomes):
        a, b = enclosed_mass(p, o, prec), enclosed_mass(q, o, prec)
        lo += max(Fraction(0), a.lo - t.hi * b.hi)
        hi += max(Fraction(0), a.hi - t.lo * b.lo)
    return Interval(lo, hi + _outside(p, radius, prec))


thresholds = st.one_of(
    st.fractions(min_value=1, max_value=4, max_denominator=8).map(rational),
    st.fractions(min_value=0, max_value=Fraction(3, 2), max_denominator=8).map(
        lambda x: exp(rational(x))))


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(LAWS), thresholds)
def test_tail_hockey_stick_matches_a_brute_force_truncation(data: st.DataObject, law: NoiseLaw,
                                                            t: Real) -> None:
    """The divergence of two noisy mixtures (its definition: 004 Definition 2.3's δ at e^ε)
    is enclosed soundly and sharply, and the certified witness is at most the truth."""
    (p, shown_p), (q, shown_q) = data.draw(mixtures(law)), data.draw(mixtures(law))
    value, witness, _ = _tails.hockey_stick(shown_p, shown_q, t, PREC)
    box = value if isinstance(value, Interval) else Interval(value, value)
    truth = enclosed_divergence(p, q, t.enclose(PREC + 40))
    assert box.lo <= truth.hi and truth.lo <= box.hi  # both contain the true value
    assert witness <= truth.hi
    if shown_p is p and shown_q is q:  # exact weights: the enclosure is as narrow as t's
        slack = (truth.hi - truth.lo) + Fraction(1, 2 ** (PREC - 8))
        assert box.hi - box.lo <= slack + (t.enclose(PREC).hi - t.enclose(PREC).lo)


@settings(max_examples=40, deadline=None)
@given(st.data(), st.sampled_from(LAWS),
       st.one_of(st.just(Fraction(0)),
                 st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(1, 2),
                              max_denominator=1000)))
def test_tail_epsilon_at_delta_brackets_the_truncated_solution(data: st.DataObject,
                                                               law: NoiseLaw,
                                                               delta: Fraction) -> None:
    """ε at δ of two noisy mixtures: the divergence at the returned t_hi is at most δ, and at
    t_lo (when above 1) at least δ minus the rounding, each checked on the brute-force
    enclosure.  ε = ∞ exactly when P puts more than δ where Q has no mass, or, at δ = 0,
    when a Gaussian component of P lies beyond all of Q's (an unbounded ratio)."""
    (p, shown_p), (q, shown_q) = data.draw(mixtures(law)), data.draw(mixtures(law))
    got = _tails.epsilon_at_delta(shown_p, shown_q, delta, PREC)
    # P's mass where Q has none: labels Q lacks (every integer has Q-mass: Q has noise)
    free = sum((prob_as_interval(w).lo for o, w in p.as_dict().items()
                if not isinstance(o, int) and o not in q.as_dict()), Fraction(0))
    # a Gaussian component of P beyond every one of Q's: P/Q grows without bound on that side
    p_off = [aff.offset for aff, _ in p.components]
    q_off = [aff.offset for aff, _ in q.components]
    beyond = isinstance(law, DiscreteGaussian) and (max(p_off) > max(q_off)
                                                    or min(p_off) < min(q_off))
    if shown_p is p and shown_q is q:
        assert got.infinite == (free > delta or (delta == 0 and beyond))
    else:  # enclosed weights: ε = ∞ only when true, and whenever it is true with room to spare
        assert not got.infinite or free > delta or (delta == 0 and beyond)
        if free * Fraction(999, 1000) > delta or (delta == 0 and beyond):
            assert got.infinite
    if got.infinite:
        return
    if got.t_hi is not None:
        at_hi = enclosed_divergence(p, q, Interval(got.t_hi, got.t_hi))
        assert at_hi.lo <= delta
    if got.t_lo > 1:
        at_lo = enclosed_divergence(p, q, Interval(got.t_lo, got.t_lo))
        assert at_lo.hi >= delta - Fraction(1, 2 ** (PREC - 8))


def test_the_window_limit_is_inclusive() -> None:
    """A pair needing exactly MAX_WINDOW explicit outcomes is enumerated; one more is refused,
    naming the limit (TooLargeToEnumerate, not a hang)."""
    radius = 10
    span = _tails.MAX_WINDOW - 2 * radius - 1  # window = span + 2·radius + 1 outcomes
    a = _tails._Mixture({}, {0: Fraction(1)})
    assert _tails._window(a, _tails._Mixture({}, {span: Fraction(1)}), radius) == (
        -radius, span + radius)
    with pytest.raises(TooLargeToEnumerate, match="MAX_WINDOW=1000000"):
        _tails._window(a, _tails._Mixture({}, {span + 1: Fraction(1)}), radius)


def _shift(law: NoiseLaw, c: int, enclosed: bool) -> Distribution[Any]:
    weight: Fraction | Interval = Interval(Fraction(1), Fraction(1)) if enclosed else Fraction(1)
    return Distribution.from_mapping({}, ((Affine(law, 1, c), weight),))


@pytest.mark.parametrize("law", LAWS, ids=repr)
@pytest.mark.parametrize("delta", [Fraction(1, 100), Fraction(1, 10)])
@pytest.mark.parametrize("enclosed", [False, True], ids=["exact weight", "enclosed weight"])
def test_tail_epsilon_of_a_unit_shift_is_bracketed_from_both_sides(
        law: NoiseLaw, delta: Fraction, enclosed: bool) -> None:
    """Count 0 against count 1 under the same noise, at δ > 0, with the component's weight 1
    exact or given as an enclosure (the interval path): the returned t_lo > 1, the divergence
    at t_hi is at most δ and at t_lo at least δ (brute-force enclosures), so a mass or
    normaliser off by a constant factor moves one end past the truth."""
    p, q = _shift(law, 0, enclosed), _shift(law, 1, enclosed)
    got = _tails.epsilon_at_delta(p, q, delta, PREC)
    assert not got.infinite and got.t_hi is not None and got.t_lo > 1
    assert enclosed_divergence(p, q, Interval(got.t_hi, got.t_hi)).lo <= delta
    assert enclosed_divergence(p, q, Interval(got.t_lo, got.t_lo)).hi >= delta - Fraction(1, 2 ** (PREC - 8))


def test_a_gaussian_component_of_possibly_zero_weight_is_not_an_unbounded_ratio() -> None:
    """At δ = 0 a Gaussian component of P beyond Q's makes the ratio unbounded only if its
    weight is proved positive: a weight known only to lie in [0, 1/1000] (truly 0 here) must
    not be read as an infinite loss."""
    law = DiscreteGaussian(Fraction(1))
    p: Distribution[Any] = Distribution.from_mapping({}, (
        (Affine(law, 1, 0), Interval(Fraction(999, 1000), Fraction(1))),
        (Affine(law, 1, 2), Interval(Fraction(0), Fraction(1, 1000)))))
    q: Distribution[Any] = Distribution.from_mapping({}, ((Affine(law, 1, 0), Fraction(1)),))
    assert not _tails.epsilon_at_delta(p, q, Fraction(0), PREC).infinite


def test_an_unbounded_interval_loss_keeps_a_lower_end_below_the_truth() -> None:
    """P puts mass 1/3 on a label where Q's mass is only known to lie in [0, 1/1000] (truly 0):
    no upper end, ε = ∞ not claimed (it is not proved), and the divergence at t_lo is still at
    least δ."""
    law = TwoSidedGeometric(Fraction(1, 2))
    p = Distribution.from_mapping({"label": Fraction(1, 3)},
                                  ((Affine(law, 1, 0), Fraction(2, 3)),))
    q = Distribution.from_mapping({"label": Interval(Fraction(0), Fraction(1, 1000))},
                                  ((Affine(law, 1, 1), Interval(Fraction(999, 1000),
                                                                Fraction(1))),))
    delta = Fraction(1, 10)
    got = _tails.epsilon_at_delta(p, q, delta, PREC)
    assert not got.infinite and got.t_hi is None
    exact_q: Distribution[Any] = Distribution.from_mapping({}, ((Affine(law, 1, 1), Fraction(1)),))
    assert enclosed_divergence(p, exact_q, Interval(got.t_lo, got.t_lo)).hi >= delta


def _component(law: NoiseLaw, c: int, weight: Fraction | Interval) -> Distribution[Any]:
    return Distribution.from_mapping({}, ((Affine(law, 1, c), weight),))


@pytest.mark.parametrize("law", LAWS, ids=repr)
@pytest.mark.parametrize("which", ["p", "q"])
def test_an_enclosed_weight_truly_at_its_end_is_inside_the_enclosure(law: NoiseLaw,
                                                                     which: str) -> None:
    """N(0) against N(1) at t = e^(1/2), one side's weight given as [999/1000, 1] and truly 1:
    the divergence's enclosure must contain the value at weight 1 (the end of the enclosure
    the mass can take), and the certified witness stays below it.  Taking the wrong end of
    Q's mass in a row's lower gap moves the witness about 10⁻³ above the truth."""
    given_weight = Interval(Fraction(999, 1000), Fraction(1))
    p, q = _component(law, 0, Fraction(1)), _component(law, 1, Fraction(1))
    shown_p = _component(law, 0, given_weight) if which == "p" else p
    shown_q = _component(law, 1, given_weight) if which == "q" else q
    t = exp(Fraction(1, 2))
    value, witness, event = _tails.hockey_stick(shown_p, shown_q, t, PREC)
    box = value if isinstance(value, Interval) else Interval(value, value)
    truth = enclosed_divergence(p, q, t.enclose(PREC + 40))
    assert box.lo <= truth.hi and truth.lo <= box.hi
    assert witness <= truth.hi
    assert event  # the rows o <= 0 are proved positive at either end of the weight


@pytest.mark.parametrize("law", LAWS, ids=repr)
def test_the_event_lists_only_rows_proved_positive(law: NoiseLaw) -> None:
    """Every integer label of the certified event is a row where P(o) > t·Q(o) is proved by an
    independent enclosure.  A discrete Gaussian's tails (masses known only as [0, b]) are
    never in it; a geometric tail is one exact row, in it only on the side where P/Q > t."""
    p, q = _component(law, 0, Fraction(1)), _component(law, 1, Fraction(1))
    t = exp(Fraction(1, 2))
    tb = t.enclose(PREC + 40)
    _, witness, event = _tails.hockey_stick(p, q, t, PREC)
    tails = [o for o in event if isinstance(o, _tails.IntegerTail)]
    if isinstance(law, DiscreteGaussian):
        assert not tails, event
    else:  # P/Q is e^(±1/scale) on the tails: above t = e^(1/2) below 0, under it above 1
        assert [o.above for o in tails] == [False], event
    ints = [o for o in event if isinstance(o, int)]
    assert ints, event
    for o in ints:
        assert enclosed_mass(p, o).lo - tb.hi * enclosed_mass(q, o).hi > 0, o
    assert witness > 0


@pytest.mark.parametrize(("p_at", "q_at", "above"), [((0, 2), (0, 1), True),
                                                     ((-2, 0), (-1, 0), False)])
def test_a_gaussian_component_beyond_all_of_q_makes_the_ratio_unbounded(
        p_at: tuple[int, int], q_at: tuple[int, int], above: bool) -> None:
    """At δ = 0, P with a Gaussian component beyond every one of Q's (above, or below) has an
    unbounded likelihood ratio on that tail (Gaussian tails decay as e^(-x²)): ε = ∞ is proved,
    with that tail as the event, though P's other component lies inside Q's range."""
    law = DiscreteGaussian(Fraction(1))
    half = Fraction(1, 2)
    p: Distribution[Any] = Distribution.from_mapping({}, tuple((Affine(law, 1, c), half)
                                                               for c in p_at))
    q: Distribution[Any] = Distribution.from_mapping({}, tuple((Affine(law, 1, c), half)
                                                               for c in q_at))
    got = _tails.epsilon_at_delta(p, q, Fraction(0), PREC)
    assert got.infinite and got.t_hi is None
    assert len(got.event) == 1 and isinstance(got.event[0], _tails.IntegerTail)
    assert got.event[0].above is above


@pytest.mark.parametrize("law", LAWS[:4], ids=repr)
@pytest.mark.parametrize("scale", [Fraction(1), Fraction(3, 2)])
def test_a_threshold_with_an_irrational_exponent(law: NoiseLaw, scale: Fraction) -> None:
    """t = c·e^√2 is neither rational nor e^(rational): the geometric and discrete-Laplace rows
    take the enclosed path, and the result still meets the brute-force truth."""
    t = exp(sqrt(rational(2))) * rational(scale) if scale != 1 else exp(sqrt(rational(2)))
    p: Distribution[Any] = Distribution.from_mapping({}, ((Affine(law, 1, 0), Fraction(2, 3)),
                                                          (Affine(law, 1, 2), Fraction(1, 3))))
    q = _component(law, 1, Fraction(1))
    value, witness, _ = _tails.hockey_stick(p, q, t, PREC)
    box = value if isinstance(value, Interval) else Interval(value, value)
    truth = enclosed_divergence(p, q, t.enclose(PREC + 40))
    assert box.lo <= truth.hi and truth.lo <= box.hi and witness <= truth.hi
    assert box.hi - box.lo <= (truth.hi - truth.lo) + Fraction(1, 2 ** (PREC - 8))


def _gaussian_truth(law: DiscreteGaussian, shift: int, t: Interval) -> Interval:
    """Σ_o max(0, N(0)(o) − t·N(shift)(o)) over |o| <= 80 at 200 bits, plus 10⁻⁴⁰ for the rest
    (P(|Z| > 70) < 10⁻⁴⁰ for σ² <= 4)."""
    lo = hi = Fraction(0)
    for o in range(-80, 81):
        a = prob_as_interval(law.pmf(o, 200))
        b = prob_as_interval(law.pmf(o - shift, 200))
        lo += max(Fraction(0), a.lo - t.hi * b.hi)
        hi += max(Fraction(0), a.hi - t.lo * b.lo)
    return Interval(lo, hi + Fraction(1, 10**40))


@pytest.mark.parametrize("prec", range(4, 41, 2))
@pytest.mark.parametrize("sigma2", [Fraction(1, 4), Fraction(1), Fraction(4)])
@pytest.mark.parametrize("t", [rational(Fraction(1, 2)), rational(1), exp(Fraction(1, 2))],
                         ids=["1/2", "1", "e^(1/2)"])
@pytest.mark.parametrize("shift", [1, 3])
def test_every_working_precision_encloses_the_gaussian_divergence(
        prec: int, sigma2: Fraction, t: Real, shift: int) -> None:
    """At 4 to 40 bits the enclosure is wide, so a row's gap taken at the wrong end of t's
    enclosure (t.lo for t.hi) moves an end past the truth: every precision must still
    contain the 200-bit value."""
    law = DiscreteGaussian(sigma2)
    value, witness, _ = _tails.hockey_stick(_component(law, 0, Fraction(1)),
                                            _component(law, shift, Fraction(1)), t, prec)
    box = value if isinstance(value, Interval) else Interval(value, value)
    truth = _gaussian_truth(law, shift, t.enclose(200))
    assert box.lo <= truth.hi and truth.lo <= box.hi, (prec, float(box.lo), float(box.hi))
    assert witness <= truth.hi
