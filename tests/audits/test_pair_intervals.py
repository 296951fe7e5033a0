"""The exact auditor's pair computations on interval probabilities: sound and sharp (issue 14).

``audits._pair`` has an exact path (rational probabilities and t) and an interval path
(probabilities or t known only as enclosures).  For random rational laws P, Q the true values
are computed here independently, from the exact rows, and the interval path is run on
enclosures of the same laws, widened by random relative amounts (zero included, and lower ends
of 0 for positive probabilities).  Soundness: every returned enclosure contains the true
value, and every certified witness is attained.  Sharpness: with zero-width enclosures the
interval path returns the true value up to the working precision's rounding, so a sound but
wrong end of an enclosure (``.lo`` for ``.hi``) or a lost term fails too.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from privref.audits._pair import epsilon_at_delta, hockey_stick, profile_breakpoints
from privref.reference.program import Distribution
from privref.reference.reals import Interval, Real, exp, prob_as_interval, rational
from privref.reference.strategies import distributions

PREC = 64
SWEEP = settings(max_examples=150, deadline=None)

widths = st.sampled_from((Fraction(0), Fraction(1, 10**9), Fraction(1, 1000), Fraction(1, 10)))


@st.composite
def widened(draw: st.DrawFn, exact: Distribution[Hashable]) -> Distribution[Hashable]:
    """Interval probabilities containing ``exact``'s: each widened by its own relative amount
    below and above (possibly none), sometimes with a lower end of 0."""
    out: dict[Hashable, Interval] = {}
    for o, p in exact.items():
        assert isinstance(p, Fraction)
        lo = Fraction(0) if draw(st.integers(0, 9)) == 0 else p * (1 - draw(widths))
        out[o] = Interval(lo, min(Fraction(1), p * (1 + draw(widths))))
    if draw(st.booleans()):  # an outcome of true probability 0, known only to lie in [0, w]
        out[GHOST] = Interval(Fraction(0), draw(widths.filter(lambda w: w > 0)))
    return Distribution.from_mapping(out)


GHOST = "ghost"
"""An outcome no exact law here has: widened laws may give it an enclosure [0, w]."""


def _degenerate(exact: Distribution[Hashable]) -> Distribution[Hashable]:
    """The same law with every probability as a zero-width interval (the interval path)."""
    return Distribution.from_mapping({o: Interval(p, p) for o, p in exact.items()
                                      if isinstance(p, Fraction)})


def _rows(p: Distribution[Hashable], q: Distribution[Hashable]
          ) -> list[tuple[Hashable, Fraction, Fraction]]:
    qd = q.as_dict()
    out = []
    for o, pr in p.items():
        qr = qd.get(o, Fraction(0))
        assert isinstance(pr, Fraction) and isinstance(qr, Fraction)
        out.append((o, pr, qr))
    return out


def _divergence(rows: list[tuple[Hashable, Fraction, Fraction]], t: Fraction) -> Fraction:
    """Σ_o max(0, P(o) − t·Q(o)), the hockey-stick divergence at t (by its definition)."""
    return sum((max(Fraction(0), p - t * q) for _, p, q in rows), Fraction(0))


def _true_t(rows: list[tuple[Hashable, Fraction, Fraction]], delta: Fraction) -> Fraction | None:
    """The least t >= 1 with divergence(t) <= delta, by brute force over the breakpoints.

    The divergence is convex, piecewise linear and decreasing in t, with kinks at the ratios
    P(o)/Q(o); None when even t → ∞ leaves P(Q = 0) > delta."""
    if sum((p for _, p, q in rows if q == 0), Fraction(0)) > delta:
        return None
    if _divergence(rows, Fraction(1)) <= delta:
        return Fraction(1)
    kinks = sorted({p / q for _, p, q in rows if q > 0 and p / q > 1})
    lo = Fraction(1)
    for k in kinks:  # find the first kink at which the divergence is <= delta
        if _divergence(rows, k) <= delta:
            d_lo, d_k = _divergence(rows, lo), _divergence(rows, k)
            return lo + (d_lo - delta) * (k - lo) / (d_lo - d_k)  # linear between lo and k
        lo = k
    raise AssertionError("unreachable: beyond the last kink the divergence is P(Q = 0)")


thresholds = st.one_of(
    st.fractions(min_value=1, max_value=4, max_denominator=12).map(rational),
    st.fractions(min_value=0, max_value=Fraction(3, 2), max_denominator=12).map(
        lambda x: exp(rational(x))))


@SWEEP
@given(st.data(), distributions(), distributions(), thresholds)
def test_hockey_stick_enclosure_contains_the_divergence_and_its_witness_is_attained(
        data: st.DataObject, p: Distribution[Hashable], q: Distribution[Hashable],
        t: Real) -> None:
    """Interval path of the hockey-stick divergence (definition in 004 Definition 2.3's
    (ε, δ)-DP): the enclosure contains Σ max(0, P − tQ) of the exact laws for every t in t's
    enclosure; the witness event F has P(F) − t·Q(F) >= the certified witness value, and each
    of its outcomes has P(o) > t·Q(o)."""
    rows = _rows(p, q)
    fine = t.enclose(400)
    shown_p = p if data.draw(st.integers(0, 3)) == 0 else data.draw(widened(p))  # mixed rows too
    value, witness, event = hockey_stick(shown_p, data.draw(widened(q)), t, PREC)
    box = value if isinstance(value, Interval) else Interval(value, value)
    assert box.lo <= _divergence(rows, fine.hi)
    assert _divergence(rows, fine.lo) <= box.hi
    table = {o: (pr, qr) for o, pr, qr in rows}
    assert all(table[o][0] - fine.hi * table[o][1] > 0 for o in event)
    assert sum((table[o][0] - fine.hi * table[o][1] for o in event), Fraction(0)) >= witness


@SWEEP
@given(distributions(), distributions(), thresholds)
def test_hockey_stick_on_zero_width_enclosures_is_the_divergence(
        p: Distribution[Hashable], q: Distribution[Hashable], t: Real) -> None:
    """With exact probabilities given as zero-width intervals, the interval path returns the
    divergence up to t's enclosure and the working precision's outward rounding, and the
    witness event is {o : P(o) > t·Q(o)} with nearly all of the divergence."""
    rows = _rows(p, q)
    tbox = t.enclose(PREC)
    value, witness, event = hockey_stick(_degenerate(p), _degenerate(q), t, PREC)
    box = value if isinstance(value, Interval) else Interval(value, value)
    slack = (tbox.hi - tbox.lo) + Fraction(1, 2 ** (PREC - 4))
    assert box.hi - box.lo <= slack
    fine = t.enclose(400)
    assert _divergence(rows, fine.lo) - witness <= slack
    inside = {o for o, pr, qr in rows if pr - tbox.hi * qr > 0}
    assert set(event) == inside
    # the certified witness is a lower bound: at most the event's value at any t' <= t
    table = {o: (pr, qr) for o, pr, qr in rows}
    assert witness <= sum((table[o][0] - fine.lo * table[o][1] for o in event), Fraction(0))


deltas = st.one_of(st.just(Fraction(0)),
                   st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(1, 2),
                                max_denominator=1000))


@SWEEP
@given(st.data(), distributions(), distributions(), deltas)
def test_epsilon_enclosure_contains_the_true_t(data: st.DataObject, p: Distribution[Hashable],
                                               q: Distribution[Hashable],
                                               delta: Fraction) -> None:
    """Interval path of ε at δ: [t_lo, t_hi] contains the least t >= 1 with divergence(t) <= δ
    of the exact laws (brute force over the kinks); ε = ∞ is claimed only when it is true;
    at δ = 0 the event's exact ratio P(o)/Q(o) is at least t_lo."""
    rows = _rows(p, q)
    true = _true_t(rows, delta)
    wide_p, wide_q = data.draw(widened(p)), data.draw(widened(q))
    got = epsilon_at_delta(wide_p, wide_q, delta, PREC)
    if got.infinite:
        assert true is None
        # the event certifies it: P provably positive, Q exactly 0, on each of its outcomes
        for o in got.event:
            assert prob_as_interval(wide_p.prob(o)).lo > 0
            assert prob_as_interval(wide_q.prob(o)).hi == 0
        return
    assert got.t_exact is None
    if true is None:
        assert got.t_hi is None
        return
    assert got.t_lo <= true
    assert got.t_hi is None or true <= got.t_hi
    if delta == 0 and got.event and got.t_hi is not None:
        table = {o: (pr, qr) for o, pr, qr in rows}
        (best,) = got.event
        pr, qr = table[best]
        assert qr > 0 and pr / qr >= got.t_lo


@SWEEP
@given(distributions(), distributions(), deltas)
def test_epsilon_on_zero_width_enclosures_is_the_true_t(p: Distribution[Hashable],
                                                       q: Distribution[Hashable],
                                                       delta: Fraction) -> None:
    """With zero-width enclosures the interval path's t_lo and t_hi are both the true t (or
    ε = ∞ exactly when P(Q = 0) > δ), and at δ = 0 the event is an outcome attaining it."""
    rows = _rows(p, q)
    true = _true_t(rows, delta)
    got = epsilon_at_delta(_degenerate(p), _degenerate(q), delta, PREC)
    if true is None:
        assert got.infinite or got.t_hi is None
        if delta == 0:
            assert got.infinite
            assert all(dict((o, qr) for o, _, qr in rows)[o] == 0 for o in got.event)
        return
    assert not got.infinite
    assert got.t_lo == true == got.t_hi
    if delta == 0 and true > 1:
        (best,) = got.event
        first = next(o for o, pr, qr in rows if qr > 0 and pr / qr == true)
        assert best == first  # ties go to the first outcome in P's order


@SWEEP
@given(distributions(), distributions(), deltas)
def test_the_exact_path_agrees_with_the_brute_force(p: Distribution[Hashable],
                                                   q: Distribution[Hashable],
                                                   delta: Fraction) -> None:
    """Exact rational laws: t is exact and equals the brute-force least t, and the event is
    the outcomes whose ratio P/Q is at least t (with those where Q vanishes); an infinite loss
    names exactly the outcomes where Q vanishes and P does not."""
    rows = _rows(p, q)
    true = _true_t(rows, delta)
    got = epsilon_at_delta(p, q, delta, PREC)
    if true is None:
        assert got.infinite
        assert set(got.event) == {o for o, pr, qr in rows if qr == 0 and pr > 0}
        return
    assert got.t_exact == got.t_lo == got.t_hi == true
    assert set(got.event) == {o for o, pr, qr in rows
                              if (qr == 0 and pr > 0) or (qr > 0 and pr / qr >= true)}


@SWEEP
@given(distributions(), distributions(), st.fractions(min_value=1, max_value=4,
                                                      max_denominator=12))
def test_exact_hockey_stick_is_the_divergence_on_the_strict_event(
        p: Distribution[Hashable], q: Distribution[Hashable], t: Fraction) -> None:
    """Rational laws and t: the divergence exactly, attained by {o : P(o) > t·Q(o)} (strictly:
    an outcome with P(o) = t·Q(o) adds nothing and is not listed)."""
    rows = _rows(p, q)
    value, witness, event = hockey_stick(p, q, rational(t), PREC)
    assert value == witness == _divergence(rows, t)
    assert set(event) == {o for o, pr, qr in rows if pr > t * qr}


@SWEEP
@given(distributions(), distributions())
def test_profile_breakpoints_are_every_ratio_at_least_one(p: Distribution[Hashable],
                                                          q: Distribution[Hashable]) -> None:
    """The exact privacy profile's kinks: every ratio P(o)/Q(o) >= 1 (1 included) with the
    divergence there; outcomes where Q vanishes make no kink."""
    rows = _rows(p, q)
    kinks = sorted({pr / qr for _, pr, qr in rows if qr > 0 and pr / qr >= 1})
    assert profile_breakpoints(p, q) == tuple((k, _divergence(rows, k)) for k in kinks)
