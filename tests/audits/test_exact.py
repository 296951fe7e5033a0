"""The exact auditor: hand-computed divergences, exact epsilons, sound verdicts, bad input."""

from __future__ import annotations

from fractions import Fraction
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.audits._pair import epsilon_at_delta, hockey_stick, profile_breakpoints
from privref.audits.exact import Verdict, audit, audit_pair
from privref.reference.citations import Uncited
from privref.reference.composition import leak
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument, NotNeighboring
from privref.reference.exponential import exponential_mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Distribution
from privref.reference.randomized_response import randomized_response
from privref.reference.reals import exp, log, rational
from privref.reference.strategies import distributions


def dist(**probs: Fraction) -> Distribution[str]:
    """A Distribution from keyword probabilities."""
    return Distribution.from_mapping(dict(probs))


P = dist(a=Fraction(1, 2), b=Fraction(1, 3), c=Fraction(1, 6))
Q = dist(a=Fraction(1, 4), b=Fraction(1, 4), c=Fraction(1, 2))


def test_hockey_stick_by_hand() -> None:
    """delta(t=1) = TV = 1/4 + 1/12 = 1/3; delta(t=3/2) = 1/2 - 3/8 = 1/8; delta(2) = 0."""
    assert hockey_stick(P, Q, rational(1), 64)[0] == Fraction(1, 3)
    value, witness, event = hockey_stick(P, Q, rational(Fraction(3, 2)), 64)
    assert value == witness == Fraction(1, 8) and event == ("a",)
    assert hockey_stick(P, Q, rational(2), 64)[0] == 0


def test_epsilon_at_delta_solves_the_piecewise_linear_curve() -> None:
    """max ratio 2 at delta 0; at delta = 1/8 the curve P(a) - t·Q(a) = 1/8 gives t = 3/2."""
    assert epsilon_at_delta(P, Q, Fraction(0), 64).t_exact == 2
    assert epsilon_at_delta(P, Q, Fraction(1, 8), 64).t_exact == Fraction(3, 2)
    assert epsilon_at_delta(P, Q, Fraction(1, 2), 64).t_exact == 1  # eps = 0 once delta >= TV
    assert profile_breakpoints(P, Q) == ((Fraction(4, 3), Fraction(1, 6)), (Fraction(2), Fraction(0)))


def test_disjoint_support_is_infinite_unless_delta_covers_it() -> None:
    """P puts 1/10 where Q puts nothing: eps = ∞ for delta < 1/10, finite from 1/10 on."""
    p = dist(x=Fraction(9, 10), z=Fraction(1, 10))
    q = dist(x=Fraction(1))
    assert epsilon_at_delta(p, q, Fraction(1, 20), 64).infinite
    assert epsilon_at_delta(p, q, Fraction(1, 10), 64).t_exact == 1


def exact_delta(p: Distribution[object], q: Distribution[object], t: Fraction) -> Fraction:
    """delta(t) for exact P, Q and t, where hockey_stick's enclosure is an exact Fraction."""
    value = hockey_stick(p, q, rational(t), 64)[0]
    assert isinstance(value, Fraction)
    return value


@given(distributions(), distributions(), st.fractions(0, 1, max_denominator=50))
def test_solved_epsilon_meets_delta_exactly(p: Distribution[object], q: Distribution[object],
                                            delta: Fraction) -> None:
    """At the solved t, delta(t) <= delta, and just below t (when t > 1) delta(t) > delta."""
    eps = epsilon_at_delta(p, q, delta, 64)
    if eps.infinite:
        assert exact_delta(p, q, Fraction(10**9)) > delta
        return
    assert eps.t_exact is not None
    assert exact_delta(p, q, eps.t_exact) <= delta
    if eps.t_exact > 1:
        below = eps.t_exact * (1 - Fraction(1, 10**6))
        assert exact_delta(p, q, below) > delta


def test_tight_randomized_response_is_decided() -> None:
    """RR with keep 3/4 at exactly ln 3: HOLDS, decided exactly, eps_lower = eps_upper."""
    report = audit(randomized_response("3/4"), Universe((0, 1), (1,)))
    assert report.verdict is Verdict.HOLDS
    assert report.epsilon_exact is not None and exp(report.epsilon_exact).exact == 3
    record = report.to_json()
    assert record["epsilon_lower"] == record["epsilon_upper"]


def test_violation_has_a_witness_pair_and_event() -> None:
    """Claiming ln 2 for RR(3/4) is VIOLATED with a proved margin."""
    report = audit(randomized_response("3/4"), Universe((0, 1), (1,)),
                   claim=PrivacyClaim.of("ln(2)"))
    assert report.verdict is Verdict.VIOLATED
    w = report.verdict_witness
    assert w is not None and w.violation_margin > 0 and len(w.violation_event) == 1


def test_irrational_claims_are_decided_by_refinement() -> None:
    """eps = 1 exponential mechanism: interval probabilities, still decided HOLDS; eps = 1/2 refuted."""
    def score(data: Dataset, o: int) -> int:
        return -abs(int(o) - sum(int(x) for x in cast("tuple[int, ...]", data)))
    mech = exponential_mechanism((0, 1, 2), score, epsilon=1)
    uni = Universe((0, 1), (2,))
    assert audit(mech, uni).verdict is Verdict.HOLDS
    assert audit(mech, uni, claim=PrivacyClaim.of("1/2")).verdict is Verdict.VIOLATED


def test_delta_claims_use_the_hockey_stick() -> None:
    """leak(RR, 1/10): (ln 3, 1/10) holds; (ln 3, 1/20) does not."""
    mech = leak(randomized_response("3/4"), "1/10")
    uni = Universe((0, 1), (1,))
    assert audit(mech, uni).verdict is Verdict.HOLDS
    report = audit(mech, uni, claim=PrivacyClaim(log(3), Fraction(1, 20)))
    assert report.verdict is Verdict.VIOLATED


def test_audit_pair_refuses_non_neighbors() -> None:
    """Non-neighboring inputs get a typed error, not an answer."""
    with pytest.raises(NotNeighboring, match="not neighbors"):
        audit_pair(randomized_response("3/4"), (0,), (0,))
    with pytest.raises(InvalidArgument, match="precision=8"):
        audit(randomized_response("3/4"), Universe((0, 1), (1,)), precision=8)


@given(distributions(), distributions())
def test_interval_path_encloses_the_exact_epsilon(p: Distribution[object],
                                                  q: Distribution[object]) -> None:
    """With probabilities given as (widened) intervals, the delta = 0 enclosure contains the exact t."""
    from privref.reference.reals import Interval
    eps = Fraction(1, 10**6)

    def widen(d: Distribution[object]) -> Distribution[object]:
        return Distribution.from_mapping({o: Interval(max(Fraction(0), pr - eps * pr), pr + eps * pr)
                                          for o, pr in d.items() if isinstance(pr, Fraction)})

    exact = epsilon_at_delta(p, q, Fraction(0), 64)
    boxed = epsilon_at_delta(widen(p), widen(q), Fraction(0), 64)
    if exact.infinite:
        assert boxed.infinite or boxed.t_hi is None
        return
    assert exact.t_exact is not None
    assert boxed.t_lo <= exact.t_exact
    assert boxed.t_hi is not None and exact.t_exact <= boxed.t_hi


def test_false_order_invariance_declaration_is_caught() -> None:
    """A mechanism that reports its first entry but claims order invariance is refused."""
    from privref.reference.mechanism import Mechanism
    from privref.reference.program import Program

    def first(data: tuple[object, ...]) -> Program[object]:
        yield from ()
        return data[0]

    liar = Mechanism("first entry", first, PrivacyClaim.of(0), Uncited("test"),
                     order_invariant=True)
    with pytest.raises(InvalidArgument, match="declares order_invariant=True"):
        audit(liar, Universe((0, 1), (2,)))


def test_universe_lists_neighbors_of_a_dataset() -> None:
    """neighbors_of enumerates the relation's neighbors within the universe's sizes."""
    from privref.reference.neighbors import AddRemove, Substitution
    uni = Universe((0, 1, 2), (2,))
    assert sorted(uni.neighbors_of((0, 0), Substitution())) == [(0, 1), (0, 2), (1, 0), (2, 0)]
    assert list(Universe((0, 1), (1,)).neighbors_of((0,), AddRemove())) == []


def test_privacy_profile_of_randomized_response() -> None:
    """RR(3/4) on (1,) vs (0,): one breakpoint at ln 3 with delta 0; delta(0) = TV = 1/2."""
    from privref.audits import privacy_profile
    prof = privacy_profile(randomized_response("3/4"), (1,), (0,), epsilons=(0, "ln(2)", "ln(3)"))
    assert prof.breakpoints is not None and len(prof.breakpoints) == 1
    eps, delta = prof.breakpoints[0]
    assert exp(eps).exact == 3 and delta == 0
    assert prof.mass_without_q == 0
    values = [box for _, box in prof.points]
    assert values[0].lo == values[0].hi == Fraction(1, 2)
    assert values[1].lo == values[1].hi == Fraction(3, 4) - 2 * Fraction(1, 4)
    assert values[2].hi == 0


def test_privacy_profile_of_infinite_support_noise() -> None:
    """Geometric(1/2): delta(ln 2) = 0 exactly; delta(0) encloses the total variation 1/3."""
    from privref.audits import privacy_profile
    from privref.reference.geometric import geometric_mechanism
    prof = privacy_profile(geometric_mechanism("1/2"), (0,), (1,), epsilons=(0, "ln(2)"))
    assert prof.breakpoints is None
    tv, at_eps = prof.points[0][1], prof.points[1][1]
    assert tv.lo <= Fraction(1, 3) <= tv.hi
    assert at_eps.hi == 0
