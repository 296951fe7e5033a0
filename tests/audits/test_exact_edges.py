"""Edges of the exact auditor's refinement loop that the mutation run found untested.

* A capped claim (epsilon above EPSILON_CAP) stops refining at once when a violation at
  e^EPSILON_CAP comes from rows where Q > 0 and the mass where Q vanishes is exact and at most
  delta (more precision cannot prove anything then); a pair whose proved mass ties the
  claimed delta at the first precision is refined and decided.
* Of several UNDECIDED pairs, the one reported is the first of the widest enclosures.
* An epsilon enclosure counts as settled when its width is at most 2^-40 · t_hi, inclusive.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any, ClassVar

import pytest

from privref.audits import _pair
from privref.audits.exact import EPSILON_CAP, AuditReport, PairReport, Verdict, audit, audit_pair
from privref.reference.citations import Uncited
from privref.reference.data import Dataset
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import MAX_PATHS, Distribution, Program, bernoulli
from privref.reference.reals import DEFAULT_PRECISION, Interval, exp, prob_as_interval, rational
from tests.audits.test_exact import IRRATIONAL_LEAK

HUGE = 10**9
"""A claimed epsilon far above EPSILON_CAP: every claim here is decided against e^EPSILON_CAP."""

TINY = Fraction(1, 2**6000)
"""Q's mass on a row where P is positive: below e^-EPSILON_CAP (about 2^-5909.3), so the row
violates at e^EPSILON_CAP, but not at e^HUGE (P - e^HUGE · TINY < 0)."""


def test_the_fixtures_sit_where_the_cap_matters() -> None:
    """TINY · e^EPSILON_CAP < 2^-90, while TINY · e^HUGE > 1."""
    assert EPSILON_CAP < HUGE
    cap = exp(rational(EPSILON_CAP)).enclose(64)
    assert TINY * cap.hi < Fraction(1, 2**90)
    assert HUGE > 6000  # e^HUGE > 2^HUGE > 1/TINY


# ------------------------------------------------ capped claims: when refinement stops

def test_a_capped_claim_tied_at_the_first_precision_is_refined_and_violated() -> None:
    """delta = the lower end of the first (96-bit) enclosure of P(x) = e^-1, where Q(x) = 0.
    At 96 bits the proved mass P(Q = 0) and the witness margin both equal delta exactly, so
    neither proves a violation nor stops the refinement; at 192 bits the lower end of e^-1
    exceeds delta, and since Q(x) = 0 the divergence is e^-1 > delta at every epsilon:
    VIOLATED.  (Stopping at the tie would leave the pair UNDECIDED.)"""
    law = IRRATIONAL_LEAK.distribution((1,), precision=DEFAULT_PRECISION)
    delta = prob_as_interval(law.as_dict()["x"]).lo
    assert 0 < exp(rational(-1)).enclose(400).lo - delta < Fraction(1, 2**90)
    claim = PrivacyClaim.of(HUGE, delta)

    stuck = audit_pair(IRRATIONAL_LEAK, (1,), (0,), claim=claim, max_precision=DEFAULT_PRECISION)
    assert stuck.verdict is Verdict.UNDECIDED
    assert stuck.violation_margin == delta == stuck.delta_at_claim.lo

    rep = audit_pair(IRRATIONAL_LEAK, (1,), (0,), claim=claim)
    assert rep.verdict is Verdict.VIOLATED
    assert rep.precision == 2 * DEFAULT_PRECISION
    assert rep.violation_event == ("x",)
    assert rep.violation_margin > delta
    assert rep.epsilon.infinite


def _rational_leak(data: Dataset) -> Program[str]:
    """On (1,): 'x' with probability 1/4 (never on (0,)), else 'o'.  On (0,): 'o' with
    probability TINY, else 'y'.  At e^EPSILON_CAP the row 'o' violates (3/4 - e^4096 · TINY
    > 0); at e^HUGE only P(Q = 0) = 1/4 remains."""
    if data[0] == 1:
        return "x" if (yield from bernoulli(Fraction(1, 4))) else "o"
    return "o" if (yield from bernoulli(TINY)) else "y"


RATIONAL_LEAK: Mechanism[str] = Mechanism("rational leak", _rational_leak, PrivacyClaim.of(1),
                                          Uncited("test fixture"))


@pytest.mark.parametrize("delta", [Fraction(1, 4), Fraction(1, 3)],
                         ids=["delta equal to P(Q=0)", "delta above P(Q=0)"])
def test_a_capped_violation_where_q_is_positive_stops_at_the_first_precision(
        delta: Fraction) -> None:
    """The divergence at e^EPSILON_CAP exceeds delta (row 'o'), which proves nothing at e^HUGE;
    the mass where Q vanishes is exactly P(x) = 1/4 <= delta at every precision, so more bits
    cannot prove a violation either.  The pair is UNDECIDED (the module's rule: a capped
    violation counts only where Q vanishes), found at the first precision, not after
    refining to max_precision; its enclosure starts at the exact 1/4."""
    rep = audit_pair(RATIONAL_LEAK, (1,), (0,), claim=PrivacyClaim.of(HUGE, delta))
    assert rep.verdict is Verdict.UNDECIDED
    assert rep.precision == DEFAULT_PRECISION
    assert rep.violation_margin == Fraction(1, 4) == rep.delta_at_claim.lo
    assert rep.violation_event == ("x",)
    assert rep.delta_at_claim.hi > Fraction(1, 4) + Fraction(3, 4) - Fraction(1, 2**80)


def test_a_capped_divergence_tied_with_delta_at_the_first_precision_is_refined() -> None:
    """delta = the proved lower end, at 96 bits, of the divergence at e^EPSILON_CAP (1/4 from
    'x' plus 3/4 - e^EPSILON_CAP · TINY from 'o').  That end only ties delta, so it does not
    yet show that the violation at e^EPSILON_CAP is all the evidence there will be: the pair
    is refined once, to 192 bits, where the lower end exceeds delta and P(Q = 0) = 1/4 <=
    delta is exact, so no more bits can decide it (UNDECIDED, as the module's rule for capped
    claims says)."""
    cap = exp(rational(EPSILON_CAP))
    p = RATIONAL_LEAK.distribution((1,), precision=DEFAULT_PRECISION)
    q = RATIONAL_LEAK.distribution((0,), precision=DEFAULT_PRECISION)
    _, margin, _ = _pair.hockey_stick(p, q, cap, DEFAULT_PRECISION)
    assert isinstance(margin, Fraction) and Fraction(1, 4) < margin < 1
    rep = audit_pair(RATIONAL_LEAK, (1,), (0,), claim=PrivacyClaim.of(HUGE, margin))
    assert rep.verdict is Verdict.UNDECIDED
    assert rep.precision == 2 * DEFAULT_PRECISION
    assert rep.violation_margin == Fraction(1, 4)


def test_a_capped_violation_where_q_vanishes_is_proved_at_the_first_precision() -> None:
    """With delta = 1/5 < P(x) = 1/4 exactly, the mass where Q vanishes proves the violation
    at once, at every epsilon."""
    rep = audit_pair(RATIONAL_LEAK, (1,), (0,), claim=PrivacyClaim.of(HUGE, Fraction(1, 5)))
    assert rep.verdict is Verdict.VIOLATED
    assert rep.precision == DEFAULT_PRECISION
    assert rep.violation_margin == Fraction(1, 4)
    assert rep.violation_event == ("x",)


def _irrational_leak_with_a_capped_row(data: Dataset) -> Program[str]:
    """On (1,): 'x' with probability e^-1 (never on (0,)), else 'o'.  On (0,): 'o' with
    probability TINY, else 'y'.  The row 'o' violates at e^EPSILON_CAP, and the mass where Q
    vanishes is irrational."""
    if data[0] == 1:
        return "x" if (yield from bernoulli(exp(rational(-1)))) else "o"
    return "o" if (yield from bernoulli(TINY)) else "y"


IRRATIONAL_CAPPED: Mechanism[str] = Mechanism(
    "irrational leak with a capped row", _irrational_leak_with_a_capped_row, PrivacyClaim.of(1),
    Uncited("test fixture"))


def test_a_capped_violation_on_an_irrational_mass_where_q_vanishes_is_refined() -> None:
    """delta = the lower end of the 96-bit enclosure of e^-1: at 96 bits the proved P(Q = 0)
    ties delta, while the row 'o' violates at e^EPSILON_CAP, which proves nothing at e^HUGE.
    The refinement must not stop there, since P(Q = 0) = e^-1 is only enclosed: at 192 bits
    its lower end exceeds delta, which proves VIOLATED at every epsilon.  (Stopping whenever
    the proved lower end of P(Q = 0) was at most delta left this pair UNDECIDED.)"""
    law = IRRATIONAL_CAPPED.distribution((1,), precision=DEFAULT_PRECISION)
    delta = prob_as_interval(law.as_dict()["x"]).lo
    rep = audit_pair(IRRATIONAL_CAPPED, (1,), (0,), claim=PrivacyClaim.of(HUGE, delta))
    assert rep.verdict is Verdict.VIOLATED
    assert rep.precision == 2 * DEFAULT_PRECISION
    assert rep.violation_event == ("x",)
    assert delta < rep.violation_margin < exp(rational(-1)).enclose(400).lo


# ------------------------------------------------ which UNDECIDED pair is reported

def _leaks(p1: Fraction, p2: Fraction) -> Mechanism[str]:
    """On (0,): 'o' with probability TINY, else 'z'; on (1,) and (2,): 'o' with p1, p2.
    Under a capped claim with delta = 1/8, the pairs ((1,), (0,)) and ((2,), (0,)) are
    UNDECIDED with enclosures [0, about p_i] of P(Q = 0) = 0 and the divergence at
    e^EPSILON_CAP; every other pair HOLDS."""
    weights: dict[Hashable, Fraction] = {0: TINY, 1: p1, 2: p2}

    def program(data: Dataset) -> Program[str]:
        return "o" if (yield from bernoulli(weights[data[0]])) else "z"

    return Mechanism("two leaks", program, PrivacyClaim.of(1), Uncited("test fixture"))


THREE = Universe((0, 1, 2), (1,))
WIDE_CLAIM = PrivacyClaim.of(HUGE, Fraction(1, 8))


def _undecided_audit(p1: Fraction, p2: Fraction) -> tuple[AuditReport, PairReport, PairReport]:
    mech = _leaks(p1, p2)
    assert list(THREE.pairs(mech.relation)) == [((0,), (1,)), ((0,), (2,)), ((1,), (0,)),
                                                ((1,), (2,)), ((2,), (0,)), ((2,), (1,))]
    first = audit_pair(mech, (1,), (0,), claim=WIDE_CLAIM)
    second = audit_pair(mech, (2,), (0,), claim=WIDE_CLAIM)
    for rep, p in ((first, p1), (second, p2)):
        assert rep.verdict is Verdict.UNDECIDED
        assert rep.delta_at_claim.lo == 0
        assert p - Fraction(1, 2**80) < rep.delta_at_claim.hi <= p
    for a, b in (((0,), (1,)), ((0,), (2,)), ((1,), (2,)), ((2,), (1,))):
        assert audit_pair(mech, a, b, claim=WIDE_CLAIM).verdict is Verdict.HOLDS
    report = audit(mech, THREE, claim=WIDE_CLAIM)
    assert report.verdict is Verdict.UNDECIDED
    return report, first, second


@pytest.mark.parametrize(("p1", "p2"), [(Fraction(1, 4), Fraction(1, 2)),
                                        (Fraction(1, 2), Fraction(1, 4))],
                         ids=["widest second", "widest first"])
def test_the_widest_undecided_pair_is_the_reported_witness(p1: Fraction, p2: Fraction) -> None:
    """Two UNDECIDED pairs of widths about 1/4 and 1/2: the audit reports the wider one and
    its width, whichever comes first."""
    report, first, second = _undecided_audit(p1, p2)
    widest = first if p1 > p2 else second
    assert report.verdict_witness is not None
    assert (report.verdict_witness.a, report.verdict_witness.b) == (widest.a, widest.b)
    assert report.undecided_width == widest.delta_at_claim.width
    assert report.undecided_width == max(first.delta_at_claim.width, second.delta_at_claim.width)


def test_of_equally_wide_undecided_pairs_the_first_is_reported() -> None:
    """Equal laws on (1,) and (2,) give the two UNDECIDED pairs the same enclosure, exactly;
    the first in the universe's order, ((1,), (0,)), is reported."""
    report, first, second = _undecided_audit(Fraction(1, 2), Fraction(1, 2))
    assert first.delta_at_claim == second.delta_at_claim
    assert report.verdict_witness is not None
    assert (report.verdict_witness.a, report.verdict_witness.b) == ((1,), (0,))
    assert report.undecided_width == first.delta_at_claim.width


# ------------------------------------------------ when an epsilon enclosure is settled

X_TRUE = Fraction(1, 2) * (1 - Fraction(1, 2**41))
"""P(x) on (1,) in the enclosed fixture; Q(x) = 1/4 on (0,), so e^epsilon at delta 0 is
4·X_TRUE = 2 - 2^-40."""


def _enclosed_program(data: Dataset) -> Program[str]:
    """The law the enclosed fixture encloses: 'x' with X_TRUE on (1,), 1/4 on (0,)."""
    return "x" if (yield from bernoulli(X_TRUE if data[0] == 1 else Fraction(1, 4))) else "y"


class _Enclosed(Mechanism[str]):
    """The law of :func:`_enclosed_program`, as an interpreter of irrational programs would give
    it: on (1,), at 96 bits, P(x) is only known to lie in [X_LO, 1/2]; at more bits, within
    2^-precision of X_TRUE."""

    X_LO: ClassVar[Fraction] = Fraction(1, 2) * (1 - Fraction(1, 2**40))
    """Then e^epsilon is enclosed by [2 - 2^-39, 2]: 2^-40 wide relative to t_hi = 2."""

    def distribution(self, data: Any, *, precision: int = DEFAULT_PRECISION,
                     max_paths: int = MAX_PATHS) -> Distribution[str]:
        if data == (0,):
            return Distribution.from_mapping({"x": Fraction(1, 4), "y": Fraction(3, 4)})
        if precision <= DEFAULT_PRECISION:
            x = Interval(self.X_LO, Fraction(1, 2))
        else:
            x = Interval(X_TRUE - Fraction(1, 2**precision), X_TRUE + Fraction(1, 2**precision))
        return Distribution.from_mapping({"x": x, "y": Interval(1 - x.hi, 1 - x.lo)})


class _EnclosedWider(_Enclosed):
    """As :class:`_Enclosed`, with X_LO lower by 2^-100."""

    X_LO: ClassVar[Fraction] = _Enclosed.X_LO - Fraction(1, 2**100)


@pytest.mark.parametrize(("kind", "settled"), [(_Enclosed, True), (_EnclosedWider, False)],
                         ids=["tie", "wider"])
def test_an_epsilon_enclosure_exactly_2_to_the_minus_40_wide_relative_is_settled(
        kind: type[_Enclosed], settled: bool) -> None:
    """At delta = 0, e^epsilon = P(x)/Q(x) is enclosed by [4·x_lo, 2].  The claim (epsilon = 1,
    t = e > 2) HOLDS at the first precision.  An enclosure of width exactly 2^-40 · t_hi is
    settled, so the pair is reported at 96 bits with that enclosure; a wider one (by 2^-98)
    is refined once more, to 192 bits."""
    mech = kind("enclosed", _enclosed_program, PrivacyClaim.of(1), Uncited("test fixture"))
    rep = audit_pair(mech, (1,), (0,))
    assert rep.verdict is Verdict.HOLDS
    eps = rep.epsilon
    assert eps.t_exact is None and not eps.infinite and eps.t_hi is not None
    assert eps.t_lo <= 4 * X_TRUE <= eps.t_hi
    if settled:
        assert rep.precision == DEFAULT_PRECISION
        assert (eps.t_lo, eps.t_hi) == (2 - Fraction(1, 2**39), Fraction(2))
        assert eps.t_hi - eps.t_lo == Fraction(1, 2**40) * eps.t_hi
    else:
        assert rep.precision == 2 * DEFAULT_PRECISION
        assert eps.t_hi - eps.t_lo <= Fraction(1, 2**(2 * DEFAULT_PRECISION - 3))
