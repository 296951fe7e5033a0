"""The compiled pair analysis equals the Fraction one (issue 34, item 6).

``audits._pair.compiled_pair`` decides a pair from integer classes with multiplicities; it must
return exactly what ``hockey_stick`` and ``epsilon_at_delta`` return on the same laws: the same
numbers, of the same types (a Fraction where they give a Fraction, an Interval where they give
one), and the same events in the same order.  Random finite laws here draw their probabilities
from small pools, so equal values, equal ratios, ratios equal to t, absent outcomes, exact
zeros, Q(o) = 0 and mixed exact/interval laws all occur.  A whole ``audit`` with compiled laws
must give the same report as with compiled laws switched off (every pair then takes the
Fraction path), field by field, witnesses and events included.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privref.audits import _pair, exact
from privref.audits._pair import (
    OutcomeIndex,
    compile_law,
    compiled_pair,
    epsilon_at_delta,
    hockey_stick,
)
from privref.audits.exact import AuditReport, Verdict, audit, audit_pair
from privref.reference.concepts import thresholds_on
from privref.reference.data import labeled
from privref.reference.exponential import exponential_learner, exponential_mechanism
from privref.reference.geometric import discrete_laplace_mechanism
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Distribution
from privref.reference.randomized_response import label_flip, randomized_response
from privref.reference.reals import MAX_EXPONENT, Interval, Prob, Real, exp, log, rational

PREC = 64
SWEEP = settings(max_examples=90, deadline=None)
DEEP_SWEEP = settings(max_examples=3000, deadline=None)

_VALUES = (Fraction(1, 2), Fraction(1, 3), Fraction(1, 4), Fraction(1, 6), Fraction(1, 12),
           Fraction(2, 3), Fraction(0))
_WIDTHS = (Fraction(0), Fraction(1, 2**20), Fraction(1, 100))


@st.composite
def probabilities(draw: st.DrawFn, kind: str) -> Prob:
    """A Fraction, or an Interval around one (zero width, narrow, wide, or down to 0)."""
    v = draw(st.sampled_from(_VALUES))
    if kind == "exact" or (kind == "mixed" and draw(st.booleans())):
        return v
    w = draw(st.sampled_from(_WIDTHS))
    lo = Fraction(0) if draw(st.integers(0, 5)) == 0 else max(Fraction(0), v - w)
    return Interval(lo, v + w)


@st.composite
def laws(draw: st.DrawFn, kind: str) -> Distribution[Hashable]:
    """A finite law (not normalized: the pair functions do not need it) over some of 6 outcomes,
    in a random order, possibly with exact zeros listed."""
    outcomes = draw(st.permutations(range(6)))
    size = draw(st.integers(0, 6))
    return Distribution(tuple((o, draw(probabilities(kind))) for o in outcomes[:size]))


thresholds = st.one_of(
    st.sampled_from((Fraction(1), Fraction(3, 2), Fraction(2), Fraction(4, 3), Fraction(8)))
    .map(rational),
    st.sampled_from((Fraction(1, 2), Fraction(1), Fraction(3, 10))).map(lambda x: exp(rational(x))),
)
deltas = st.sampled_from((Fraction(0), Fraction(0), Fraction(1, 100), Fraction(1, 6),
                          Fraction(1, 4), Fraction(1)))
kinds = st.sampled_from(("exact", "exact", "interval", "mixed"))


def _same(x: object, y: object) -> bool:
    """Equal values of the same type (a Fraction is not an Interval point, nor an int)."""
    return type(x) is type(y) and x == y


def _edge(p: Distribution[Hashable], q: Distribution[Hashable]) -> bool:
    """The order-dependent edge of the δ = 0 enclosure: some P(o) may be > 0 where Q(o)'s lower
    end is 0 (only there may the compiled path hand ε back)."""
    qd = q.as_dict()
    for o, pr in p.items():
        pb = pr if isinstance(pr, Interval) else Interval.point(pr)
        qr = qd.get(o, Fraction(0))
        qb = qr if isinstance(qr, Interval) else Interval.point(qr)
        if pb.hi > 0 and qb.lo == 0:
            return True
    return False


def check_pair(p: Distribution[Hashable], q: Distribution[Hashable], t: Real,
               delta: Fraction) -> None:
    index = OutcomeIndex()
    cp, cq = compile_law(p, index), compile_law(q, index)
    assert cp is not None and cq is not None
    got = compiled_pair(cp, cq, t, delta, PREC)
    value, witness, event = hockey_stick(p, q, t, PREC)
    assert _same(got.divergence, value)
    assert _same(got.margin, witness)
    assert got.event.expand() == event
    want = epsilon_at_delta(p, q, delta, PREC)
    if got.epsilon is None:
        assert delta == 0 and _edge(p, q)
        return
    eps = got.epsilon.value()
    for field in dataclasses.fields(want):
        assert _same(getattr(eps, field.name), getattr(want, field.name)), field.name


pairs_of_laws = kinds.flatmap(lambda k: st.tuples(laws(k), laws(k)))


@SWEEP
@given(pairs_of_laws, thresholds, deltas)
def test_compiled_pair_equals_the_fraction_functions(
        laws_pq: tuple[Distribution[Hashable], Distribution[Hashable]], t: Real,
        delta: Fraction) -> None:
    check_pair(*laws_pq, t, delta)


@pytest.mark.deep
@DEEP_SWEEP
@given(pairs_of_laws, thresholds, deltas)
def test_compiled_pair_equals_the_fraction_functions_deep(
        laws_pq: tuple[Distribution[Hashable], Distribution[Hashable]], t: Real,
        delta: Fraction) -> None:
    check_pair(*laws_pq, t, delta)


@settings(max_examples=60, deadline=None)
@given(laws("exact"), st.sampled_from(_VALUES[:6]), st.data())
def test_compiled_pair_equals_on_the_same_law_perturbed(p: Distribution[Hashable],
                                                        v: Fraction, data: st.DataObject) -> None:
    """Q = P with one probability replaced: most rows share their classes (multiplicities > 1
    once merged by value), the case the exponential mechanism produces."""
    items = list(p.items())
    if items:
        i = data.draw(st.integers(0, len(items) - 1))
        items[i] = (items[i][0], v)
    q = Distribution(tuple(items))
    check_pair(p, q, data.draw(thresholds), data.draw(deltas))
    check_pair(q, p, data.draw(thresholds), data.draw(deltas))


def test_equal_rows_merge_with_their_multiplicity() -> None:
    """Three outcomes share the row (1/6, 1/12): the divergence counts it three times."""
    sixth, twelfth = Fraction(1, 6), Fraction(1, 12)
    p: Distribution[Hashable] = Distribution(
        ((0, sixth), (1, sixth), (2, sixth), (3, Fraction(1, 2))))
    q: Distribution[Hashable] = Distribution(
        ((0, twelfth), (1, twelfth), (2, twelfth), (3, Fraction(3, 4))))
    index = OutcomeIndex()
    cp, cq = compile_law(p, index), compile_law(q, index)
    assert cp is not None and cq is not None
    got = compiled_pair(cp, cq, rational(Fraction(3, 2)), Fraction(1, 10), PREC)
    assert got.divergence == 3 * (Fraction(1, 6) - Fraction(3, 2) * Fraction(1, 12))
    assert got.event.expand() == (0, 1, 2)
    assert got.epsilon is not None and got.epsilon.value().t_exact == Fraction(8, 5)  # (1/2 − 1/10) / (1/4)
    check_pair(p, q, rational(Fraction(3, 2)), Fraction(1, 10))


def test_laws_without_a_compiled_form() -> None:
    """Infinite-support components and repeated outcomes keep the Fraction path."""
    index = OutcomeIndex()
    twice = Distribution(((0, Fraction(1, 2)), (0, Fraction(1, 2))))
    assert compile_law(twice, index) is None
    tails = discrete_laplace_mechanism(1).distribution((0,))
    assert tails.components and compile_law(tails, index) is None


# ------------------------------------------------------------------ whole audits


def _reference_audit(monkeypatch: pytest.MonkeyPatch, *args: Any, **kwargs: Any) -> AuditReport:
    """The audit with compiled laws switched off: every pair takes the Fraction path."""
    with monkeypatch.context() as m:
        m.setattr(_pair, "compile_law", lambda dist, index: None)
        return audit(*args, **kwargs)


def _comparable(report: AuditReport) -> tuple[AuditReport, str]:
    """The report, its exact ε (a Real, equal only to itself) as text."""
    return dataclasses.replace(report, epsilon_exact=None), str(report.epsilon_exact)


def _em(h: int, epsilon: Real) -> Mechanism[Any]:
    return exponential_learner([_Below(j) for j in range(h)], epsilon=epsilon)


@dataclasses.dataclass(frozen=True, slots=True)
class _Below:
    j: int

    def __call__(self, x: int) -> int:
        return int(x < self.j)


def _count_score(data: tuple[Hashable, ...], o: int) -> int:
    return -abs(o - sum(1 for x in data if x == 1))


LABELED = Universe(tuple((x, y) for x in (1, 4) for y in (0, 1)), (2,))
BASE = log(Fraction(3, 2)) * 2

AUDITS: list[tuple[str, Mechanism[Any], Universe, PrivacyClaim | None]] = [
    ("EM base 3/2, own claim", _em(6, BASE), LABELED, None),
    ("EM base 3/2, pure claim too small", _em(6, BASE), LABELED, PrivacyClaim(log(Fraction(3, 2)))),
    ("EM base 3/2, (ε, δ) claim", _em(6, BASE), LABELED,
     PrivacyClaim(log(Fraction(3, 2)), Fraction(1, 100))),
    ("EM ε = 1, own claim", _em(6, rational(1)), LABELED, None),
    ("EM ε = 1, pure claim too small", _em(6, rational(1)), LABELED, PrivacyClaim(rational(Fraction(1, 2)))),
    ("EM ε = 1, (ε, δ) claim", _em(6, rational(1)), LABELED,
     PrivacyClaim(rational(Fraction(1, 2)), Fraction(1, 50))),
    ("counting EM", exponential_mechanism(range(4), _count_score, epsilon=BASE),
     Universe((0, 1), (3,)), None),
    ("randomized response", randomized_response("3/4"), Universe((0, 1), (1,)), None),
    ("randomized response, claim too small", randomized_response("3/4"), Universe((0, 1), (1,)),
     PrivacyClaim.of("1/2")),
    ("label flip", label_flip(Fraction(7, 10)), Universe(((0, 0), (0, 1), (1, 1)), (2,)), None),
    ("a claim above the cap", randomized_response("3/4"), Universe((0, 1), (1,)),
     PrivacyClaim(rational(5000))),
    ("infinite support", discrete_laplace_mechanism(1), Universe((0, 1), (1,)), None),
]


@pytest.mark.parametrize(("name", "mech", "universe", "claim"), AUDITS, ids=[a[0] for a in AUDITS])
def test_audit_reports_equal_the_fraction_path(monkeypatch: pytest.MonkeyPatch, name: str,
                                               mech: Mechanism[Any], universe: Universe,
                                               claim: PrivacyClaim | None) -> None:
    for order_invariant in {mech.order_invariant, False}:
        m = dataclasses.replace(mech, order_invariant=order_invariant)
        got = audit(m, universe, claim=claim)
        want = _reference_audit(monkeypatch, m, universe, claim=claim)
        assert _comparable(got) == _comparable(want)
        assert got.to_json() == want.to_json()


def test_the_audits_cover_both_verdicts() -> None:
    """The list above holds HOLDS and VIOLATED audits with events (so the comparison sees them)."""
    verdicts = {audit(m, u, claim=c).verdict for _, m, u, c in AUDITS[:3]}
    assert verdicts == {Verdict.HOLDS, Verdict.VIOLATED}


def test_audit_pair_equals_the_fraction_path(monkeypatch: pytest.MonkeyPatch) -> None:
    mech = _em(6, rational(1))
    a, b = ((1, 1), (4, 0)), ((1, 0), (4, 0))
    claim = PrivacyClaim(rational(Fraction(1, 10)), Fraction(1, 1000))
    got = audit_pair(mech, a, b, claim=claim)
    with monkeypatch.context() as m:
        m.setattr(_pair, "compile_law", lambda dist, index: None)
        want = audit_pair(mech, a, b, claim=claim)
    assert got == want and got.verdict is Verdict.VIOLATED and got.violation_event


def test_the_audit_reuses_the_laws_of_the_order_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """verify_order_invariance fills the audit's cache: no law is computed twice."""
    mech = _em(6, BASE)
    computed: list[object] = []
    real = exact._Cache.get

    def counting(self: exact._Cache, data: Any, prec: int) -> Distribution[Any]:
        if (data, prec) not in self.store:
            computed.append(data)
        return real(self, data, prec)

    monkeypatch.setattr(exact._Cache, "get", counting)
    audit(mech, LABELED)
    assert len(computed) == len(set(computed)) == LABELED.count()


def test_a_law_with_unrelated_denominators_keeps_the_fraction_path() -> None:
    """Distinct primes as denominators: the common one would be thousands of bits long."""
    primes = [p for p in range(3, 4000, 2) if all(p % d for d in range(3, int(p**0.5) + 1, 2))]
    law: Distribution[Hashable] = Distribution(
        tuple((i, Fraction(1, p)) for i, p in enumerate(primes)))
    assert compile_law(law, OutcomeIndex()) is None
    assert compile_law(Distribution(((0, Fraction(1, 3)), (1, Fraction(2, 3)))),
                       OutcomeIndex()) is not None


# ------------------------------------------------------------------ the size guard (COMPILED_BITS)


def test_the_laws_of_the_learner_at_epsilon_1e9_keep_the_fraction_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Weights e^(-5·10^8) are enclosed in [0, 2^-MAX_EXPONENT]: a common denominator of 2^20
    bits, far over COMPILED_BITS.  compile_law declines every such law before any lcm (no
    integer of that length is built), and the audit decides no pair on compiled laws."""
    learner = exponential_learner(list(thresholds_on(2)), epsilon=10**9)
    universe = Universe(tuple(labeled(x, y) for x in range(2) for y in (0, 1)), (1,))

    def no_lcm(*args: int) -> int:
        raise AssertionError(f"lcm of {[a.bit_length() for a in args]} bits")

    index = OutcomeIndex()
    longest: set[int] = set()
    with monkeypatch.context() as m:
        m.setattr(math, "lcm", no_lcm)
        for data in universe.datasets(order_invariant=True):
            law = learner.distribution(data)
            longest.add(max(x.denominator.bit_length() for _, p in law.items() for x in _ends(p)))
            assert compile_law(law, index) is None
    assert longest == {MAX_EXPONENT + 1, MAX_EXPONENT + 2}   # 2^-MAX_EXPONENT, halved once

    def no_pair(*args: Any) -> _pair.CompiledPair:
        raise AssertionError("a pair was decided on compiled laws")

    monkeypatch.setattr(_pair, "compiled_pair", no_pair)
    report = audit(learner, universe)
    assert report.verdict is Verdict.UNDECIDED and report.pairs == 12


def _ends(p: Prob) -> tuple[Fraction, Fraction]:
    return (p, p) if isinstance(p, Fraction) else (p.lo, p.hi)


def _longest(law: _pair.CompiledLaw) -> int:
    return max(x.bit_length() for x in (law.den, *law.lo, *law.hi))


@pytest.mark.parametrize(("other", "k"), [
    (Fraction(1, 2), _pair.COMPILED_BITS - 1),      # den 2^k: k + 1 bits
    (Fraction(1), _pair.COMPILED_BITS - 2),         # 1·den needs one bit more than den
    (Interval(Fraction(0), Fraction(2**100)), _pair.COMPILED_BITS - 102),  # 2^100·den
], ids=["one half", "one", "2^100"])
def test_compiled_integers_stop_at_exactly_compiled_bits(other: Prob, k: int) -> None:
    """An enclosure [0, 2^-k] beside another probability: compiled at the largest k that the
    bound taken before building allows (each x·den within den's bits + x's numerator bits −
    x's denominator bits + 1 <= COMPILED_BITS), with every integer within COMPILED_BITS bits
    and the denominator 2^k exactly; declined one bit further."""
    index = OutcomeIndex()
    fits = compile_law(Distribution(((0, Interval(Fraction(0), Fraction(1, 2**k))), (1, other))),
                       index)
    assert fits is not None and fits.den == 2**k
    assert _longest(fits) <= _pair.COMPILED_BITS
    over = Distribution(((0, Interval(Fraction(0), Fraction(1, 2**(k + 1)))), (1, other)))
    assert compile_law(over, index) is None


@given(st.fractions(1, 10, max_denominator=2**50), st.integers(-3, 3), st.integers(1, 2**45),
       st.booleans())
def test_settled_is_the_relative_width_rule(t_lo: Fraction, shift: int, scale: int,
                                            unbounded: bool) -> None:
    """``_settled`` (integers) decides t_hi − t_lo <= t_hi / 2^40 as the Fraction rule does,
    at and around the boundary width t_hi·2^-40."""
    # t_hi = t_lo·2^40/(2^40 − 1) is exactly on the boundary; move it by shift/scale·t_lo·2^-40
    t_hi = t_lo * 2**40 / (2**40 - 1) + Fraction(shift, scale) * t_lo / 2**40
    t_hi = max(t_hi, t_lo)
    eps = _pair.LazyEpsilon(t_lo, None if unbounded else t_hi, None, False, ())
    want = not unbounded and t_hi - t_lo <= Fraction(1, 2**40) * t_hi
    assert exact._settled(eps) is want
    assert exact._settled(_pair.LazyEpsilon(t_lo, t_hi, t_lo, False, ()))
    assert exact._settled(_pair.LazyEpsilon(t_lo, None, None, True, ()))


class _FixedLaws(exact._Cache):
    """An auditor's cache that serves given laws (the same at every precision)."""

    def __init__(self, laws: dict[Any, Distribution[Hashable]]) -> None:
        super().__init__(randomized_response("3/4"), 1000)
        self.laws = laws

    def get(self, data: Any, prec: int) -> Distribution[Any]:
        return self.laws[data]


@settings(max_examples=80, deadline=None)
@given(pairs_of_laws, thresholds, deltas.filter(lambda d: d < 1), st.booleans())
def test_a_decided_pair_equals_the_fraction_path(
        laws_pq: tuple[Distribution[Hashable], Distribution[Hashable]], t: Real, delta: Fraction,
        capped: bool) -> None:
    """``_decide`` as a whole (verdict, margin, events, ε, precision loop, the cap's rule, and the
    Fraction fallback for the order-dependent δ = 0 edge) on random laws, compiled or not."""
    p, q = laws_pq
    a, b = ("a",), ("b",)
    claim = PrivacyClaim(rational(1), delta)
    got = exact._decide(_FixedLaws({a: p, b: q}), a, b, claim, 64, 256, t, capped).report()
    reference = _FixedLaws({a: p, b: q})
    reference.get_compiled = lambda data, prec: None  # type: ignore[method-assign]
    want = exact._decide(reference, a, b, claim, 64, 256, t, capped).report()
    assert got == want


def test_a_lower_ratio_of_exactly_one_is_no_witness() -> None:
    """δ = 0 on enclosures: P(a)/Q(a) >= 1/2 / 1/2 = 1 is no loss, so ε's event is empty;
    the first outcome whose lower ratio exceeds 1 (here b, not c after it) is the witness."""
    half, quarter = Fraction(1, 2), Fraction(1, 4)
    p: Distribution[Hashable] = Distribution(
        (("a", Interval(half, half)), ("b", Interval(half, half)), ("c", Interval(half, half))))
    q: Distribution[Hashable] = Distribution((("a", Interval(quarter, half)),))
    check_pair(p, q, rational(2), Fraction(0))
    index = OutcomeIndex()
    cp, cq = compile_law(p, index), compile_law(q, index)
    assert cp is not None and cq is not None
    eps = compiled_pair(cp, cq, rational(2), Fraction(0), PREC).epsilon
    assert eps is None  # b and c are absent from Q: the order-dependent edge
    q2: Distribution[Hashable] = Distribution((("a", Interval(quarter, half)),
                                               ("b", Interval(quarter, quarter)),
                                               ("c", Interval(quarter, quarter))))
    cq2 = compile_law(q2, index)
    assert cq2 is not None
    got = compiled_pair(cp, cq2, rational(2), Fraction(0), PREC).epsilon
    assert got is not None and got.value().event == ("b",) and got.t_lo == 2
    q3: Distribution[Hashable] = Distribution((("a", Interval(quarter, half)),
                                               ("b", Interval(half, half)),
                                               ("c", Interval(half, half))))
    cq3 = compile_law(q3, index)
    assert cq3 is not None
    flat = compiled_pair(cp, cq3, rational(2), Fraction(0), PREC).epsilon
    assert flat is not None and flat.value().event == () and flat.t_lo == 1
    check_pair(p, q2, rational(2), Fraction(0))
    check_pair(p, q3, rational(2), Fraction(0))
