"""Ledger entries of proofs.p001.active (001 Definition 7, Algorithm 4, Lemmas 33 and 39, Remarks
23 and 25): verdicts, statuses and mutations that must fail."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from privref.proofs import Entry, Status, Verdict
from privref.proofs.p001 import active
from privref.proofs.registry import entry_by_id
from privref.reference.concepts import Concept, ConceptClass
from privref.reference.learners.pate_students import ActiveRun, Query, disagreement_active_learner
from privref.reference.reals import Real, rational
from privref.reference.validate import ExactInput
from tests.proofs.checks import case_id, resolves

F = Fraction


def test_entries_and_statuses() -> None:
    assert {e.id: e.status for e in active.ENTRIES} == {
        "001 Lemma 33": Status.NOT_CHECKABLE,
        "001 Lemma 33 / Definition 7: DIS(V) exact and monotone": Status.CHECKED,
        "001 Lemma 33 / Algorithm 4: the radius U needs Err(h*) and θ": Status.CHECKED,
        "001 Lemma 33 / Algorithm 4: the label budget stops the learner early": Status.CHECKED,
        "001 Lemma 33 / Algorithm 4: invariants of the version space": Status.CHECKED,
        "001 Lemma 33 / Hanneke's survivor bound with a derived radius": Status.CHECKED,
        "001 Lemma 39": Status.NOT_CHECKABLE,
        "001 Remark 23": Status.NOT_CHECKABLE,
        "001 Remark 25": Status.NOT_CHECKABLE,
    }
    for e in active.ENTRIES:
        assert entry_by_id(e.id) is e  # each check's verdict: the parametrized test above
        assert all(resolves(s) for s in e.subjects), e.subjects


def _ids(entries: Sequence[Entry]) -> list[str]:
    return [case_id((e, c)) for e in entries for c in e.checks]


def test_case_ids_are_unique_per_entry() -> None:
    ids = _ids(active.ENTRIES)
    assert len(ids) == len(set(ids))


# ------------------------------------------------------------------ mutations


def test_a_region_missing_points_is_caught() -> None:
    """Only comparing with the first hypothesis against the last misses disagreements."""
    def partial(V: Sequence[Concept], pts: Sequence[Hashable]) -> tuple[Hashable, ...]:
        return tuple(x for x in pts if len(V) > 1 and V[0](x) != V[-1](x))
    assert active.check_dis_region(partial).verdict is Verdict.VIOLATED


def test_a_radius_ignoring_err_star_is_caught() -> None:
    same = rational(F(1, 3))

    def blind(j: int, g: Fraction, **_: Any) -> Real:
        return same
    assert active.check_radius_needs_err_star(blind).verdict is Verdict.VIOLATED


def test_a_large_budget_reads_the_whole_stream() -> None:
    assert active.check_budget_stops_early(budget=200).verdict is Verdict.VIOLATED


def _dropping_minimizer(*args: Any, **kwargs: Any) -> ActiveRun:
    run = disagreement_active_learner(*args, **kwargs)
    V = run.version_space
    return replace(run, version_space=V[1:] if len(V) > 1 else V)


def _extra_query(*args: Any, **kwargs: Any) -> ActiveRun:
    run = disagreement_active_learner(*args, **kwargs)
    if run.processed >= 2 and len(run.queries) < run.processed:
        asked = {q.j for q in run.queries}
        j = min(k for k in range(1, run.processed + 1) if k not in asked)
        x = args[1][j - 1]
        return replace(run, queries=(*run.queries, Query(j, x, 0)))
    return run


def test_broken_learners_break_the_invariants() -> None:
    assert active.check_invariants(_dropping_minimizer).verdict is Verdict.VIOLATED
    assert active.check_invariants(_extra_query).verdict is Verdict.VIOLATED


def test_a_positive_radius_can_leave_errors_in_the_realizable_case() -> None:
    """U = 1 (j·U >= every mistake gap early on) keeps inconsistent thresholds."""
    assert active.check_realizable_zero_error(u=F(1)).verdict is Verdict.VIOLATED


def test_a_learner_with_a_wider_radius_breaks_the_2u_bound() -> None:
    def wider(*args: Any, U: Callable[[int, object], Fraction], **kwargs: Any) -> Any:
        return disagreement_active_learner(*args, U=lambda j, g: 3 * U(j, g), **kwargs)

    assert active.check_survivors_within_2u(wider).verdict is Verdict.VIOLATED


def test_a_too_small_hoeffding_radius_is_caught() -> None:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(active, "HOEFFDING_RADIUS_SCALE", F(1, 8))
        assert active.check_hoeffding_event().verdict is Verdict.VIOLATED


def _pointwise_ratio(C: ConceptClass, h: Concept, w: Sequence[ExactInput], r0: ExactInput
                     ) -> Fraction:
    """P(DIS(B(h*, r0)))/r0 without the supremum (r0 > 0), floored at 1."""
    from privref.reference.learners.disagreement import ball, check_marginal, dis_mass
    ws = check_marginal(C, w)
    assert isinstance(r0, Fraction | int)
    r = F(r0)
    if r == 0:
        return F(2)
    return max(F(1), dis_mass(ball(C, h, r, ws), C.domain.points, ws) / r)


def test_a_theta_without_supremum_is_caught() -> None:
    assert active.check_theta_non_increasing(_pointwise_ratio).verdict is Verdict.VIOLATED
    assert active.check_theta_thresholds(_pointwise_ratio).verdict is Verdict.VIOLATED


def test_remark_checks_fail_when_broken() -> None:
    assert active.check_remark23_rates(exponent_of_theta=F(1)).verdict is Verdict.VIOLATED
    assert active.check_remark25_selection((2,)).verdict is Verdict.VIOLATED


def test_paper_radius_by_hand() -> None:
    """Err(h*) = 0 and θ ≡ 1: U = c'·log(1/γ_j)/j exactly, up to the enclosure."""
    one: Callable[[Fraction], Fraction] = lambda r: F(1)  # noqa: E731
    u = active.paper_radius(4, F(1, 9), d=1, err_star=F(0), theta=one).enclose(64)
    ln9 = rational(9)
    from privref.reference.reals import log
    want = (log(ln9) * rational(F(1, 4))).enclose(64)
    assert u.lo <= want.hi and want.lo <= u.hi
