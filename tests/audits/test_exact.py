"""The exact auditor: hand-computed divergences, exact epsilons, sound verdicts, bad input."""

from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.audits._pair import epsilon_at_delta, hockey_stick, profile_breakpoints
from privref.audits.exact import (
    AuditReport,
    Verdict,
    audit,
    audit_pair,
    epsilon_text,
    verify_order_invariance,
)
from privref.reference.citations import Uncited
from privref.reference.composition import leak
from privref.reference.data import Dataset
from privref.reference.discrete_noise import TwoSidedGeometric
from privref.reference.errors import InvalidArgument, NotNeighboring, TooLargeToEnumerate
from privref.reference.exponential import exponential_mechanism
from privref.reference.geometric import discrete_laplace_mechanism
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Distribution, Program, bernoulli, categorical, uniform
from privref.reference.randomized_response import randomized_response
from privref.reference.reals import DEFAULT_PRECISION, Order, compare, exp, log, rational
from privref.reference.strategies import distributions
from privref.reference.subsampling import subsample


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


def test_the_smallest_allowed_precisions_are_accepted() -> None:
    """precision = 32 is the documented minimum, and max_precision may equal precision: both
    are accepted at the edge, one below is refused naming the argument and the limit."""
    bits = Universe((0, 1), (1,))
    rr = randomized_response("3/4")
    assert audit(rr, bits, precision=32).verdict is Verdict.HOLDS
    assert audit(rr, bits, precision=64, max_precision=64).verdict is Verdict.HOLDS
    with pytest.raises(InvalidArgument, match="precision=31 must be >= 32"):
        audit(rr, bits, precision=31)
    with pytest.raises(InvalidArgument, match="max_precision=63 must be >= precision=64"):
        audit(rr, bits, precision=64, max_precision=63)


def _enclosed(lower: Fraction, upper: Fraction) -> AuditReport:
    """A real report whose loss is given as the enclosure [lower, upper] (no exact form)."""
    report = audit(randomized_response("3/4"), Universe((0, 1), (1,)))
    return dataclasses.replace(report, epsilon_exact=None, epsilon_lower=lower,
                               epsilon_upper=upper)


def test_json_enclosure_is_rounded_outward_and_exact_when_representable() -> None:
    """to_json rounds epsilon_lower down and epsilon_upper up to floats: a dyadic endpoint is
    kept exactly, any other becomes the adjacent float on the outside."""
    record = _enclosed(Fraction(1, 2), Fraction(3, 4)).to_json()
    assert (record["epsilon_lower"], record["epsilon_upper"]) == (0.5, 0.75)
    third, two_thirds = Fraction(1, 3), Fraction(2, 3)
    record = _enclosed(third, two_thirds).to_json()
    lo, hi = record["epsilon_lower"], record["epsilon_upper"]
    assert Fraction(lo) < third < Fraction(math.nextafter(lo, math.inf))
    assert Fraction(math.nextafter(hi, -math.inf)) < two_thirds < Fraction(hi)


def test_epsilon_text_shows_a_narrow_enclosure_as_a_midpoint_and_a_wide_one_as_brackets() -> None:
    """Width below 10⁻⁹: 'mid (± width)'; otherwise '[lower, upper]' rounded outward."""
    narrow = epsilon_text(_enclosed(Fraction(1, 2), Fraction(1, 2) + Fraction(1, 10**12)))
    assert narrow.startswith("0.5 (± ")
    wide = epsilon_text(_enclosed(Fraction(1, 3), Fraction(1, 2)))
    assert wide == "[0.333333, 0.5]"
    at_the_edge = epsilon_text(_enclosed(Fraction(1, 2), Fraction(1, 2) + Fraction(1, 10**9)))
    assert at_the_edge.startswith("[")
    just_inside = epsilon_text(_enclosed(Fraction(1, 2), Fraction(1, 2) + Fraction(5, 10**10)))
    assert just_inside.startswith("0.5 (± ")


def test_refinement_doubles_the_precision_and_stops_when_settled() -> None:
    """A pair decided with a settled ε enclosure (width <= 2^-40·t) stops at the starting
    precision; a claim 10^-40 from tanh(1/2), the discrete Laplace mechanism's irrational total
    variation, needs more bits and gets them by doubling: 2 × 96 = 192."""
    from .test_decision_boundary import HAIR, _tanh_half_bounds
    laplace = discrete_laplace_mechanism(1)
    settled = audit_pair(discrete_laplace_mechanism(2), (0,), (1,))
    assert settled.verdict is Verdict.HOLDS and settled.precision == DEFAULT_PRECISION == 96
    lo, hi = _tanh_half_bounds(45)
    for delta, verdict in ((lo - HAIR, Verdict.VIOLATED), (hi + HAIR, Verdict.HOLDS)):
        pair = audit_pair(laplace, (0,), (1,), claim=PrivacyClaim(rational(0), delta))
        assert pair.verdict is verdict
        assert pair.precision == 2 * DEFAULT_PRECISION


def test_the_epsilon_witness_is_the_first_pair_attaining_the_worst_loss() -> None:
    """Ties go to the first pair in the universe's order, so reports are reproducible: both
    orders of randomized response's one-bit pair attain ln 3, and the first one is reported."""
    rr = randomized_response("3/4")
    bits = Universe((0, 1), (1,))
    first = next(iter(bits.pairs(rr.relation, order_invariant=rr.order_invariant)))
    report = audit(rr, bits)
    assert report.pairs == 2
    assert report.epsilon_witness is not None
    assert report.epsilon_witness[:2] == first


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

    def first(data: tuple[object, ...]) -> Program[object]:
        yield from ()
        return data[0]

    liar = Mechanism("first entry", first, PrivacyClaim.of(0), Uncited("test"),
                     order_invariant=True)
    with pytest.raises(InvalidArgument, match="declares order_invariant=True"):
        audit(liar, Universe((0, 1), (2,)))


@pytest.mark.parametrize("size", [4, 5, 6])
def test_a_false_order_invariance_is_caught_on_every_arrangement(size: int) -> None:
    """A law that depends on entries 0 and 2 only through "entry 0 is 1 and entry 2 is 0" is
    the same on each sorted dataset, its swap of the first two entries and its rotation, yet
    differs on (1, 0, 0, …).  The declaration must be refused at every size: checking a
    transposition and a cycle of the sorted representatives alone would pass it."""
    def corner(data: tuple[object, ...]) -> Program[int]:
        yield from ()
        return int(data[0] == 1 and data[2] == 0)

    liar = Mechanism("corner", corner, PrivacyClaim.of(0), Uncited("test"), order_invariant=True)
    with pytest.raises(InvalidArgument, match="declares order_invariant=True"):
        audit(liar, Universe((0, 1), (size,)))


@given(st.lists(st.sampled_from((0, 1, 2, "a", None)), max_size=6))
def test_arrangements_are_the_distinct_permutations_each_once(entries: list[object]) -> None:
    """The order check's reorderings: every distinct permutation of the entries, none twice."""
    from privref.audits.exact import _arrangements
    rest = tuple(entries)
    got = list(_arrangements(rest))
    assert len(got) == len(set(got))
    assert set(got) == set(itertools.permutations(rest))


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


# ------------------------------------------------- tests that kill mutants of privref.audits.exact

def _irrational_leak(data: Dataset) -> Program[str]:
    """'x' with probability e^-1 on (1,), never on (0,): Q vanishes where P is irrational."""
    if data[0] == 1 and (yield from bernoulli(exp(rational(-1)))):
        return "x"
    return "y"


IRRATIONAL_LEAK: Mechanism[str] = Mechanism("irrational leak", _irrational_leak,
                                            PrivacyClaim.of(1), Uncited("test fixture"))


def _half_noisy(data: Dataset) -> Program[int]:
    """0 on (0,); two-sided geometric noise (α = 1/2, P(0) = 1/3) on (1,)."""
    if data[0] == 0:
        return 0
    z: int = yield TwoSidedGeometric(Fraction(1, 2))
    return z


HALF_NOISY: Mechanism[int] = Mechanism("noisy on one input", _half_noisy, PrivacyClaim.of(1),
                                       Uncited("test fixture"))


@pytest.mark.parametrize(("side", "expected"), [("below", Verdict.VIOLATED),
                                                ("above", Verdict.HOLDS)])
def test_a_capped_claim_decides_from_the_correct_ends_of_irrational_enclosures(
        side: str, expected: Verdict) -> None:
    """Above EPSILON_CAP the divergence at e^ε is P(Q = 0) = e^-1 here, irrational.  A δ 10^-40
    below it is VIOLATED (a lower bound of P(Q = 0) proves it) and 10^-40 above it HOLDS (an
    upper bound of the divergence proves it); the first precision cannot tell, so a verdict
    read off the wrong end of an enclosure would be wrong at once."""
    e_inv = exp(rational(-1)).enclose(400)
    hair = Fraction(1, 10**40)
    delta = e_inv.lo - hair if side == "below" else e_inv.hi + hair
    claim = PrivacyClaim.of(10**9, delta)
    assert audit_pair(IRRATIONAL_LEAK, (1,), (0,), claim=claim).verdict is expected
    # without room to refine, 96 bits cannot separate δ from e^-1: UNDECIDED either way
    stuck = audit_pair(IRRATIONAL_LEAK, (1,), (0,), claim=claim, max_precision=DEFAULT_PRECISION)
    assert stuck.verdict is Verdict.UNDECIDED


def test_one_sided_infinite_support_goes_to_the_tail_auditor() -> None:
    """A law with an infinite-support part on one input only (the geometric mechanism's noise
    on (1,), a point mass on (0,)) is audited with its tails: on (1,) outputs other than 0
    are impossible under (0,), so the loss is infinite and a finite claim VIOLATED."""
    mech = HALF_NOISY
    report = audit(mech, Universe((0, 1), (1,)))
    assert report.verdict is Verdict.VIOLATED
    assert report.epsilon_infinite
    assert report.epsilon_upper is None
    assert report.to_json()["epsilon_upper"] is None


def test_the_exact_loss_lies_between_the_reported_rational_ends() -> None:
    """epsilon_lower <= ln 3 <= epsilon_upper for randomized response at 3/4, decided
    exactly: each end is the outer end of its enclosure of ln(t)."""
    report = audit(randomized_response("3/4"), Universe((0, 1), (1,)))
    assert report.epsilon_upper is not None
    assert compare(rational(report.epsilon_lower), log(3))[0] is Order.LESS
    assert compare(rational(report.epsilon_upper), log(3))[0] is Order.GREATER


def test_an_infinite_pair_is_the_witness_even_when_finite_pairs_follow() -> None:
    """The first pair with infinite loss stays the witness: a later finite pair with a larger
    ratio (500) does not replace it, nor does a later infinite pair.  Pairs run in the order
    (0,1), (0,2), (1,0), (1,2), (2,0), (2,1); (1,0) is the first infinite one."""
    laws = {0: {0: Fraction(1)}, 1: {0: Fraction(1, 2), 1: Fraction(1, 2)},
            2: {0: Fraction(1, 2), 1: Fraction(1, 1000), 2: Fraction(499, 1000)}}

    def program(data: Dataset) -> Program[int]:
        law = laws[cast(int, data[0])]
        k = yield from categorical(tuple(law.values()))
        return list(law)[k]

    mech: Mechanism[int] = Mechanism("support shift", program, PrivacyClaim.of(1),
                                     Uncited("test fixture"))
    universe = Universe((0, 1, 2), (1,))
    assert list(universe.pairs(mech.relation))[2] == ((1,), (0,))
    assert audit_pair(mech, (1,), (2,)).epsilon.t_exact == 500
    report = audit(mech, universe)
    assert report.epsilon_infinite
    assert report.epsilon_witness is not None
    assert report.epsilon_witness[:2] == ((1,), (0,))


def test_an_undecided_report_lists_the_undecided_pair_without_a_violation_margin() -> None:
    """An UNDECIDED audit (a claim 10^-40 above tanh(1/2) with no room to refine) reports its
    widest undecided pair in JSON as an epsilon witness, with no delta_lower_bound."""
    from .test_decision_boundary import HAIR, _tanh_half_bounds
    _, hi = _tanh_half_bounds(45)
    report = audit(discrete_laplace_mechanism(1), Universe((0, 1), (1,)),
                   claim=PrivacyClaim(rational(0), hi + HAIR), max_precision=DEFAULT_PRECISION)
    assert report.verdict is Verdict.UNDECIDED
    assert report.verdict_witness is not None
    record = report.to_json()
    assert record["verdict"] == "UNDECIDED"
    assert record["witness"] is not None and "delta_lower_bound" not in record["witness"]


def test_a_finite_law_against_an_infinite_support_one_under_a_capped_claim() -> None:
    """Under a claim above EPSILON_CAP, P(Q = 0) is read off Q's tails too: a point mass at 0
    against the geometric mechanism's noise (which puts 1/3 on 0) has loss ln 3, so it HOLDS,
    while a finite law on one side and noise on the other is infinite in the other order."""
    mech = HALF_NOISY
    huge = PrivacyClaim.of(10**9)
    assert audit_pair(mech, (0,), (1,), claim=huge).verdict is Verdict.HOLDS
    assert audit_pair(mech, (0,), (1,)).epsilon.t_exact == 3
    backwards = audit_pair(mech, (1,), (0,))
    assert backwards.verdict is Verdict.VIOLATED and backwards.epsilon.infinite


def test_json_lists_at_most_20_outcomes_of_an_event_and_its_full_size() -> None:
    """A violation event of 30 outcomes is listed by its first 20 and its size 30; outcomes
    that are None or strings pass into JSON unchanged."""
    outs = tuple(range(30))

    def program(data: Dataset) -> Program[object]:
        if data == (1,):
            return None
        k = yield from uniform(30)
        return outs[k]

    mech: Mechanism[object] = Mechanism("thirty", program, PrivacyClaim.of(1),
                                        Uncited("test fixture"))
    record = audit(mech, Universe((0, 1), (1,))).to_json()
    assert record["verdict"] == "VIOLATED"
    witness = record["witness"]
    assert witness["event_size"] == 30 and len(witness["event"]) == 20
    assert "delta_lower_bound" in witness
    holds = audit(randomized_response("3/4"), Universe((0, 1), (1,))).to_json()
    assert "delta_lower_bound" not in holds["witness"]
    assert len(holds["witness"]["event"]) <= 20


def test_json_keeps_none_strings_and_ints_as_they_are() -> None:
    """Outcomes None, a string and an int appear in the JSON witness as themselves, tuples as
    lists, and other values (a Fraction) as their str."""
    def program(data: Dataset) -> Program[object]:
        coin = yield from bernoulli(Fraction(3, 4) if data == (0,) else Fraction(1, 4))
        return (None, "a", 1, Fraction(1, 2)) if coin else "b"

    mech: Mechanism[object] = Mechanism("odd outputs", program, PrivacyClaim.of("ln(3)"),
                                        Uncited("test fixture"))
    record = audit(mech, Universe((0, 1), (1,))).to_json()
    assert record["verdict"] == "HOLDS"
    events = record["witness"]["event"]
    assert events in ([[None, "a", 1, "1/2"]], ["b"])


def test_a_false_order_invariance_is_caught_on_infinite_support_laws() -> None:
    """Noise added to the first entry, declared order invariant: the laws on (0, 1) and (1, 0)
    have no atoms and differ only in their noise component, which the check compares."""
    def first_plus_noise(data: Dataset) -> Program[int]:
        z: int = yield TwoSidedGeometric(Fraction(1, 2))
        return cast(int, data[0]) + z

    liar: Mechanism[int] = Mechanism("first + noise", first_plus_noise, PrivacyClaim.of(1),
                                     Uncited("test"), order_invariant=True)
    with pytest.raises(InvalidArgument, match="declares order_invariant=True"):
        audit(liar, Universe((0, 1), (2,)))


def test_json_lists_at_most_20_outcomes_of_an_epsilon_witness() -> None:
    """A claim that HOLDS lists its epsilon witness event too, also cut at 20 outcomes: here
    the 30 outcomes whose ratio is the worst (3, on the first pair (0,) → (1,))."""
    def program(data: Dataset) -> Program[object]:
        if (yield from bernoulli(Fraction(1, 4) if data == (0,) else Fraction(3, 4))):
            return "x"
        k = yield from uniform(30)
        return k

    mech: Mechanism[object] = Mechanism("thirty-one", program, PrivacyClaim.of("ln(3)"),
                                        Uncited("test fixture"))
    record = audit(mech, Universe((0, 1), (1,))).to_json()
    assert record["verdict"] == "HOLDS"
    assert record["witness"]["event_size"] == 30 and len(record["witness"]["event"]) == 20


def test_the_order_check_refuses_a_universe_past_its_limit() -> None:
    """The order check computes one law per dataset, so a universe with more datasets than
    pair_limit is refused before any law, naming the limit (never a long silent run)."""
    rr = randomized_response("3/4")
    with pytest.raises(TooLargeToEnumerate, match="universe has 64 datasets, more than limit=63"):
        audit(subsample(rr, 1, 6), Universe((0, 1), (6,)), pair_limit=63)
    # the limit is inclusive: exactly 64 datasets at limit=64 are checked (and pass)
    verify_order_invariance(subsample(rr, 1, 6), Universe((0, 1), (6,)), limit=64)
