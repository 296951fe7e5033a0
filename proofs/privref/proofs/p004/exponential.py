"""Ledger: 004 Proposition A.1 (the exponential mechanism; also 000 Proposition A.1)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from privref.reference.concepts import ConceptClass, point_functions, thresholds_on
from privref.reference.data import Dataset
from privref.reference.decide import at_most
from privref.reference.errors import Undecided
from privref.reference.exponential import agreements, exponential_learner
from privref.reference.neighbors import Substitution, Universe
from privref.reference.reals import exp, log, rational

from .._common import audit_result, combine, property_result
from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict

if TYPE_CHECKING:
    from hypothesis import strategies as st

__all__ = ["ENTRIES", "UTILITY_TAIL_SCALE", "utility_tail_violation"]

UTILITY_TAIL_SCALE: Fraction = Fraction(1)
"""004 Proposition A.1 (ii)'s implicit leading 1 of |H|·exp(−ε·gap·m/2)."""


def _labeled_universe(C: ConceptClass, size: int) -> Universe:
    return Universe(tuple((x, y) for x in C.domain for y in (0, 1)), (size,))


def check_privacy_thresholds() -> CheckResult:
    """Exact audits: papers' form (eps = 1) and rational base (eps = 2 ln 3/2) over THRESH on 4 points."""
    C = thresholds_on(4)
    uni = _labeled_universe(C, 2)
    return combine([
        audit_result(exponential_learner(tuple(C), epsilon=1), uni)[0],
        audit_result(exponential_learner(tuple(C), epsilon="2*ln(3/2)"), uni)[0],
        audit_result(exponential_learner(tuple(C), epsilon="2*ln(3)"), _labeled_universe(C, 1))[0],
    ])


def _privacy_cases() -> st.SearchStrategy[tuple[ConceptClass, Dataset, Dataset, Fraction]]:
    """Generated (class, neighboring pair, rational base) cases; hypothesis is imported lazily."""
    from hypothesis import strategies as st

    from privref.reference.concept_strategies import concept_classes

    @st.composite
    def cases(draw: st.DrawFn) -> tuple[ConceptClass, Dataset, Dataset, Fraction]:
        C = draw(concept_classes(max_points=4))
        elements = tuple((x, y) for x in C.domain for y in (0, 1))
        size = draw(st.integers(1, 3))
        a = tuple(draw(st.lists(st.sampled_from(elements), min_size=size, max_size=size)))
        i = draw(st.integers(0, size - 1))
        new = draw(st.sampled_from([e for e in elements if e != a[i]]))
        b = (*a[:i], new, *a[i + 1:])
        base = draw(st.fractions(min_value=Fraction(11, 10), max_value=4, max_denominator=12))
        return C, a, b, base
    return cases()


def _privacy_violation(case: tuple[ConceptClass, Dataset, Dataset, Fraction]) -> str | None:
    from privref.audits.exact import audit_pair
    C, a, b, base = case
    mech = exponential_learner(tuple(C), epsilon=f"2*ln({base})")
    assert Substitution().are_neighbors(a, b)
    rep = audit_pair(mech, a, b)
    if rep.verdict is not Verdict.HOLDS:
        return f"class {C!r}, base {base}: pair {a!r} -> {b!r}: {rep.verdict.value}"
    return None


def check_privacy_generated() -> CheckResult:
    """Exact audit of generated (class, neighboring pair, rational base) cases."""
    return property_result(_privacy_cases(), _privacy_violation, examples=60,
                           what="exponential mechanism privacy on generated classes")


def _utility_cases() -> st.SearchStrategy[tuple[ConceptClass, Dataset, Fraction, Fraction]]:
    """Generated (class, sample, rational base, gap) cases; hypothesis is imported lazily."""
    from hypothesis import strategies as st

    from privref.reference.concept_strategies import concept_classes

    @st.composite
    def cases(draw: st.DrawFn) -> tuple[ConceptClass, Dataset, Fraction, Fraction]:
        C = draw(concept_classes(max_points=4))
        elements = tuple((x, y) for x in C.domain for y in (0, 1))
        data = tuple(draw(st.lists(st.sampled_from(elements), min_size=1, max_size=5)))
        base = draw(st.fractions(min_value=Fraction(11, 10), max_value=4, max_denominator=12))
        gap = draw(st.fractions(min_value=Fraction(1, 20), max_value=1, max_denominator=20))
        return C, data, base, gap
    return cases()


def utility_tail_violation(case: tuple[ConceptClass, Dataset, Fraction, Fraction]) -> str | None:
    """None when Pr[error_S(h) > ê + gap] <= c·|H|·exp(-eps·gap·m/2) exactly (004 Prop A.1 (ii)),
    c = :data:`UTILITY_TAIL_SCALE`.

    Returns the violation's text when the tail is proved larger; raises
    :class:`~privref.reference.errors.Undecided` when the comparison is not decided.
    """
    C, data, base, gap = case
    hs = tuple(C)
    mech = exponential_learner(hs, epsilon=f"2*ln({base})")
    dist = mech.distribution(data)
    m = len(data)
    errors = {h: Fraction(m - agreements(h, data), m) for h in hs}
    best = min(errors.values())
    tail = Fraction(0)
    for h, p in dist.items():
        assert isinstance(p, Fraction)
        if errors[h] > best + gap:
            tail += p
    # eps = 2 ln(base): |H| exp(-eps gap m / 2) = |H| base^(-gap m)
    bound = exp(log(rational(base)) * (-gap * m)) * (UTILITY_TAIL_SCALE * len(hs))
    verdict = at_most(tail, bound)
    if verdict is Verdict.VIOLATED:
        return f"class {C!r}, S={data!r}, base {base}, gap {gap}: tail {tail} > {bound}"
    if verdict is Verdict.UNDECIDED:
        raise Undecided(f"class {C!r}, S={data!r}, base {base}, gap {gap}: tail {tail} vs {bound}")
    return None


def check_utility_generated() -> CheckResult:
    """Exact tail probability vs |H| exp(-eps·Δ·m/2) on a near-tight case and generated cases.

    The near-tight case: point functions on 4 points, S = five copies of (0, 1), base 4, gap
    19/20: the three wrong hypotheses tie just above ê + gap, so the tail is 0.53 of the bound.
    A case whose comparison is undecided is no counterexample: it makes the result UNDECIDED
    (unless another case proves a violation).
    """
    tight = (point_functions(range(4)), ((0, 1),) * 5, Fraction(4), Fraction(19, 20))
    try:
        bad = utility_tail_violation(tight)
    except Undecided as exc:
        return CheckResult(Verdict.UNDECIDED, str(exc))
    if bad is not None:
        return CheckResult(Verdict.VIOLATED, f"near-tight case: {bad}", witness=bad)
    undecided: list[str] = []

    def violation(case: tuple[ConceptClass, Dataset, Fraction, Fraction]) -> str | None:
        try:
            return utility_tail_violation(case)
        except Undecided as exc:
            undecided.append(str(exc))
            return None

    result = property_result(_utility_cases(), violation, examples=80,
                             what="exponential mechanism utility tail")
    if result.verdict is Verdict.HOLDS and undecided:
        return CheckResult(Verdict.UNDECIDED, f"exponential mechanism utility tail: "
                           f"{len(undecided)} undecided case(s)", witness=undecided[0])
    return result


_STATEMENT = (
    "The exponential mechanism over a finite class H, choosing h with probability "
    "proportional to exp(eps·q(S,h)/2) where q counts agreements with the labeled sample S "
    "of size m, is (i) eps-differentially private under substitution, and (ii) for every "
    "gap > 0, outputs h with error_S(h) > min_f error_S(f) + gap with probability at most "
    "|H|·exp(-eps·gap·m/2).")

_CHECKS: tuple[Check, ...] = (
    Check("privacy: exact audit over THRESH on 4 points", check_privacy_thresholds),
    Check("privacy: exact audits of generated classes and pairs", check_privacy_generated),
    Check("utility tail: exact probability vs bound on generated cases",
          check_utility_generated, constant="UTILITY_TAIL_SCALE"),
)

ENTRIES: tuple[Entry, ...] = (
    Entry(paper="004", number="Proposition A.1", statement=_STATEMENT,
          kind=Kind.PROPOSITION, status=Status.CHECKED, checks=_CHECKS,
          also=("000 Proposition A.1",), subjects=("reference.exponential",),
          notes="McSherry-Talwar 2007.  Privacy audited exactly (rational base: exact "
                "probabilities; eps = 1: interval enclosures refined until decided)."),
    Entry(paper="000", number="Proposition A.1", statement=_STATEMENT,
          kind=Kind.PROPOSITION, status=Status.CHECKED, checks=_CHECKS,
          also=("004 Proposition A.1",), subjects=("reference.exponential",),
          notes="Identical to 004 Proposition A.1 (000 Algorithm 5)."),
)

