"""The ledger: structure rules, every check run once, the manifest, and checks that can fail."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from privref.proofs import Check, CheckResult, Entry, Kind, Status, Verdict
from privref.proofs.registry import MANIFEST, all_entries, pending
from privref.proofs.runner import run_check, run_entry
from privref.reference.errors import InvalidArgument

ENTRIES = all_entries()


def _distinct() -> list[tuple[Check, tuple[Entry, ...]]]:
    """Each Check object of the ledger once (entries such as 000/004 counterparts share one), with
    the entries that use it, in ledger order."""
    users: dict[int, tuple[Check, list[Entry]]] = {}
    for entry in ENTRIES:
        for check in entry.checks:
            users.setdefault(id(check), (check, []))[1].append(entry)
    return [(check, tuple(entries)) for check, entries in users.values()]


DISTINCT = _distinct()

PINNED_EVIDENCE: dict[str, tuple[str, ...]] = {
    "Monte Carlo at the explicit sizes (THRESH[1000]": (  # 003 Theorem 3.1 / explicit instantiation
        "seed 20260031", "n_pub = 1407, n_priv = 1453", "0/200 runs"),
}
"""Fragments a check's evidence must show, by the start of the check's name: asserted here, where
the check runs, instead of in a per-module test that would run it again."""


def test_every_check_is_run_here_once() -> None:
    """The one place that runs the ledger's checks in the suite: every check of every entry is
    a case below, once (a per-module test that ran them again doubled the ledger's cost)."""
    assert sum(len(e.checks) for e in ENTRIES) >= len(DISTINCT)
    assert {id(c) for e in ENTRIES for c in e.checks} == {id(c) for c, _ in DISTINCT}


@pytest.mark.parametrize(("check", "entries"), DISTINCT,
                         ids=[f"{es[0].id} :: {c.name}" for c, es in DISTINCT])
def test_every_check_agrees_with_its_status(check: Check, entries: tuple[Entry, ...]) -> None:
    """Run every check of the ledger once, as ``privref lemmas --check`` does: it must return the
    verdict its entries' statuses expect (a crash is UNDECIDED, which agrees with none), and a
    VIOLATED result must carry its witness (a negative control that HOLDS may show one too)."""
    assert all(check in e.checks for e in entries)
    outcome = run_check(check)
    result = outcome.result
    assert outcome.agrees, (result.verdict, result.evidence)
    if result.verdict is Verdict.VIOLATED:
        assert result.witness, result.evidence
    for entry in entries:
        if entry.status is Status.AUDITED and result.confidence is not None:
            assert result.confidence == entry.confidence, (entry.id, result.confidence)
    for start, fragments in PINNED_EVIDENCE.items():
        if check.name.startswith(start):
            assert all(f in result.evidence for f in fragments), (fragments, result.evidence)


@pytest.mark.deep
@pytest.mark.parametrize(("check", "entries"), DISTINCT,
                         ids=[f"{es[0].id} :: {c.name}" for c, es in DISTINCT])
def test_every_check_is_deterministic(check: Check, entries: tuple[Entry, ...]) -> None:
    """Deep tier: a second run gives the same verdict, evidence and witness (checks are pure and
    seeded; CI runs each check once, docs/test-tiers.md)."""
    first, second = run_check(check).result, run_check(check).result
    assert (first.verdict, first.evidence, first.witness) == (
        second.verdict, second.evidence, second.witness), check.name


def test_ids_are_unique_and_in_the_manifest() -> None:
    """Every ledger number is a numbered result of its paper (no invented ids)."""
    ids = [e.id for e in ENTRIES]
    assert len(ids) == len(set(ids))
    for e in ENTRIES:
        if e.paper != "folklore":
            assert e.number in MANIFEST[e.paper], e.id


def test_pending_results_are_reported() -> None:
    """The manifest minus the ledger is the work left for later issues (never negative)."""
    missing = pending()
    covered = {(e.paper, e.number) for e in ENTRIES}
    for paper, numbers in missing.items():
        assert not any((paper, n) in covered for n in numbers)


def _holds() -> CheckResult:
    return CheckResult(Verdict.HOLDS, "ok")


def test_entry_rules_are_enforced() -> None:
    """Statuses need their evidence fields; numbers must look printed."""
    holds = Check("h", _holds)
    with pytest.raises(InvalidArgument, match="PROVED needs parameter_range"):
        Entry("004", "Claim C.3", "s", Kind.CLAIM, Status.PROVED, (holds,))
    with pytest.raises(InvalidArgument, match="REFUTED needs counterexample"):
        Entry("004", "Claim C.3", "s", Kind.CLAIM, Status.REFUTED, (holds,))
    with pytest.raises(InvalidArgument, match="needs a counterexample check"):
        Entry("004", "Claim C.3", "s", Kind.CLAIM, Status.REFUTED, (holds,),
              counterexample="x", corrected="y")
    with pytest.raises(InvalidArgument, match="AUDITED needs confidence"):
        Entry("004", "Claim C.3", "s", Kind.CLAIM, Status.AUDITED, (holds,))
    with pytest.raises(InvalidArgument, match="NOT_CHECKABLE needs reason"):
        Entry("004", "Claim C.3", "s", Kind.CLAIM, Status.NOT_CHECKABLE, ())
    with pytest.raises(InvalidArgument, match="not a printed result number"):
        Entry("004", "Lemma four", "s", Kind.LEMMA, Status.CHECKED, (holds,))
    with pytest.raises(InvalidArgument, match="paper='005'"):
        Entry("005", "Lemma 1.1", "s", Kind.LEMMA, Status.CHECKED, (holds,))
    ok = Entry("004", "Claim C.3", "s", Kind.CLAIM, Status.AUDITED, (holds,),
               confidence=Fraction(95, 100))
    assert ok.id == "004 Claim C.3"


def test_a_crashing_check_contradicts_its_status() -> None:
    """A check that raises is reported as UNDECIDED, which contradicts any status."""
    def boom() -> CheckResult:
        raise RuntimeError("boom")
    entry = Entry("004", "Claim C.1", "s", Kind.CLAIM, Status.CHECKED, (Check("b", boom),))
    report = run_entry(entry)
    assert not report.consistent
    assert "boom" in report.outcomes[0].result.evidence


def test_prop_a1_check_fails_when_the_half_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutation: weights exp(eps·q) instead of exp(eps·q/2) make 004 Proposition A.1's audit fail."""
    import privref.reference.exponential as em
    from privref.proofs.p004 import exponential as entry_module
    from privref.reference.reals import Real, exp

    def no_half(scores: Sequence[int], *, epsilon: Real, sensitivity: int = 1) -> tuple[Real, ...]:
        top = max(scores)
        return tuple(exp(epsilon * (q - top)) for q in scores)

    monkeypatch.setattr(em, "exponential_weights", no_half)
    result = entry_module.check_privacy_thresholds()
    assert result.verdict is Verdict.VIOLATED


def test_utility_tail_check_detects_a_too_strong_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutation: the bound |H|·exp(-eps·gap·m/2) divided by 20 is violated on a small case."""
    from privref.proofs.p004 import exponential
    from privref.reference.concepts import thresholds_on
    case = (thresholds_on(4), ((0, 1), (3, 0), (1, 1), (2, 0)), Fraction(2), Fraction(1, 4))
    assert exponential.utility_tail_violation(case) is None
    monkeypatch.setattr(exponential, "UTILITY_TAIL_SCALE", Fraction(1, 20))
    assert exponential.utility_tail_violation(case) is not None


def test_subsampling_check_fails_on_a_wrong_claim(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutation: claiming a tenth of the amplified epsilon makes the C.1 audit fail.

    (Half would not: the claim is loose, e.g. RR(3/4) subsampled 1 of 6 has
    exact loss ln(4/3) = 0.29 against the claimed 1.)
    """
    import privref.reference.subsampling as sub
    from privref.proofs.p004 import subsampling as entry_module
    from privref.reference.privacy import PrivacyClaim
    real = sub.subsampling_claim

    def too_good(inner: PrivacyClaim, n: int, t: int) -> PrivacyClaim:
        c = real(inner, n, t)
        return type(c)(c.epsilon * Fraction(1, 10), c.delta)

    monkeypatch.setattr(entry_module, "subsample",
                        lambda inner, n, t: sub.subsample(inner, n, t,
                                                          claim=too_good(inner.claim, n, t)))
    assert entry_module.check_subsampling_audits().verdict is Verdict.VIOLATED


def test_docs_ledger_is_current() -> None:
    """docs/ledger.md equals what `privref lemmas --markdown` generates now, apart from the
    source fingerprints (statuses, statements, checks: a behaviour change shows here).  The
    fingerprints alone are the drift test, tests/proofs/test_drift.py."""

    from privref.proofs.report import ledger_markdown
    from tests.proofs.test_drift import without_fingerprints
    doc = Path(__file__).resolve().parents[2] / "docs" / "ledger.md"
    assert without_fingerprints(doc.read_text(encoding="utf-8")) == without_fingerprints(
        ledger_markdown()), "regenerate with: privref lemmas --markdown docs/ledger.md"
