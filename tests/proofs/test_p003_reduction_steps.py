"""Proof-step entries P10–P15 of 003 Claim 4.6 (proofs.p003.reduction_steps): verdicts, mutations."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privref.proofs import Kind, Status, Verdict
from privref.proofs.p003 import ENTRIES as P003_ENTRIES
from privref.proofs.p003 import reduction as red
from privref.proofs.p003 import reduction_steps as steps
from privref.proofs.registry import entry_by_id
from privref.proofs.runner import run_entry
from privref.reference.concepts import ConceptClass, explicit
from privref.reference.learners import reduction as ref

F = Fraction

IDS = {
    "003 Claim 4.6 / P[Ŝ_pub = S_pub] >= (1 - 1/(100 n_pub))^n_pub >= 0.99": Status.PROVED,
    "003 Claim 4.6 / eq. (3): swapping S_pub for Ŝ_pub costs <= 0.01": Status.CHECKED,
    "003 Claim 4.6 / eq. (4): P_{S_priv,Ŝ_pub,𝒜}[excess > α] <= 1/17": Status.REFUTED,
    "003 Claim 4.6 / hence, using (3), the excess is <= α except with probability < 1/16":
        Status.REFUTED,
    "003 Claim 4.6 / err(h; D_(p)) = p·err(h; D) + (1-p)/2, same argmin": Status.CHECKED,
    "003 Claim 4.6 / realizable D: excess <= α ⇒ err(h; D) <= α/p = 100·n_pub·α": Status.CHECKED,
}


def test_entries_and_statuses() -> None:
    assert {e.id: e.status for e in steps.ENTRIES} == IDS
    for e in steps.ENTRIES:
        assert e.paper == "003" and e.number == "Claim 4.6" and e.step
        assert e.kind is Kind.PROOF_STEP
        assert entry_by_id(e.id) is e
        assert e in P003_ENTRIES
        assert e.subjects == ("reference.learners.reduction",)
    p10 = steps.ENTRIES[0]
    assert p10.parameter_range == ("every n_pub >= 1 (analytic, Bernoulli); exact rational check "
                                   "n_pub = 1..100")
    for e in steps.ENTRIES:
        if e.status is Status.REFUTED:
            assert e.counterexample and e.corrected
            assert "003 Theorem 4.1 / β_A = 1/18 fits Lemma 4.4's 1/16 budget" in e.notes


def test_existing_checks_are_reused_not_copied() -> None:
    runs = {c.run for e in steps.ENTRIES for c in e.checks}
    assert red.check_public_coupling in runs
    assert red.check_mixture_identity in runs


def test_exact_evidence_strings() -> None:
    eq4 = steps.check_eq4_arithmetic()
    assert eq4.verdict is Verdict.VIOLATED and "59/900" in eq4.evidence
    assert eq4.witness == "β_𝒜 = 1/18, P[exh] < 1/100: 59/900 > 1/17"
    after = steps.check_after_eq3_arithmetic()
    assert after.verdict is Verdict.VIOLATED and "117/1700" in after.evidence
    assert after.witness == "eq. (4) bound 1/17, TV 1/100: 117/1700 > 1/16"
    assert "37/600" in steps.check_corrected_end_to_end().evidence
    assert "the bound is 59/900" in steps.check_corrected_eq4().evidence
    corrected = steps.ENTRIES[2].corrected
    assert corrected is not None and "59/900" in corrected
    assert "equality only at n_pub = 1" in steps.check_bernoulli_public().evidence


def test_arithmetic_checks_are_not_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the inventory's β_𝒜 = 1/24 both printed steps' arithmetic goes through."""
    monkeypatch.setattr(steps, "PAPER_BETA", F(1, 24))
    assert steps.check_eq4_arithmetic().verdict is Verdict.HOLDS
    monkeypatch.setattr(steps, "EQ4_BOUND", F(31, 600))
    assert steps.check_after_eq3_arithmetic().verdict is Verdict.HOLDS
    monkeypatch.setattr(steps, "EQ4_BOUND", F(1, 17))
    monkeypatch.setattr(steps, "FINAL_BOUND", F(1, 14))
    assert steps.check_after_eq3_arithmetic().verdict is Verdict.HOLDS


# ------------------------------------------------------------------ mutations


def test_mutation_mixture_without_one_minus_p(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_factor(d: Mapping[Hashable, Fraction], d0: ref.DummyDistribution,
                  p: Fraction) -> dict[Hashable, Fraction]:
        out: dict[Hashable, Fraction] = {z: p * q for z, q in d.items()}
        for z, q in d0.law().items():
            out[z] = out.get(z, F(0)) + q      # drops the (1 - p) factor
        return out

    monkeypatch.setattr(steps, "mixture", no_factor)
    monkeypatch.setattr(red, "mixture", no_factor)
    assert steps.check_eq3_paper_p().verdict is Verdict.VIOLATED
    assert steps.check_realizable_excess().verdict is Verdict.VIOLATED
    assert red.check_mixture_identity().verdict is Verdict.VIOLATED
    for index in (1, 4, 5):
        assert not run_entry(steps.ENTRIES[index]).consistent


def test_mutation_mixing_rate_one_over_ten_npub(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(steps, "reduction_mixing_rate", lambda n_pub: F(1, 10 * n_pub))
    assert steps.check_bernoulli_public().verdict is Verdict.VIOLATED
    assert steps.check_eq3_paper_p().verdict is Verdict.VIOLATED
    assert steps.check_alpha_over_p().verdict is Verdict.VIOLATED
    assert steps.check_eq3_general_p().verdict is Verdict.HOLDS   # p overridden there
    for index in (0, 1, 5):
        assert not run_entry(steps.ENTRIES[index]).consistent


def test_mutation_off_by_one_exhaustion_formula(monkeypatch: pytest.MonkeyPatch) -> None:
    original = ref.exhaustion_probability

    def wrong(n_priv: int, n_tilde: int, p: Fraction) -> Fraction:
        return original(n_priv + 1, n_tilde, p)  # Bin(n_priv, p) instead of Bin(n_priv - 1, p)

    monkeypatch.setattr(steps, "exhaustion_probability", wrong)
    result = steps.check_corrected_eq4()
    assert result.verdict is Verdict.VIOLATED and result.witness
    assert not run_entry(steps.ENTRIES[2]).consistent


def test_mutation_unbiased_labels_defeat_the_control(monkeypatch: pytest.MonkeyPatch) -> None:
    original = steps._biased_mixture

    def fair(d: Mapping[Hashable, Fraction], points: tuple[int, ...],
             weights: tuple[Fraction, ...], bias: Fraction, p: Fraction) -> dict[Hashable, Fraction]:
        return original(d, points, weights, F(1, 2), p)

    monkeypatch.setattr(steps, "_biased_mixture", fair)
    assert steps.check_uniform_labels_needed().verdict is Verdict.VIOLATED


def test_mutation_realizable_noise_defeats_the_control(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(steps, "_NOISY", {(0, 1): F(1, 2), (1, 0): F(1, 2)})
    assert steps.check_realizability_needed().verdict is Verdict.VIOLATED


# ------------------------------------------------------------------ property test (P14)

Instance = tuple[ConceptClass, dict[Hashable, Fraction], ref.DummyDistribution, Fraction]


@st.composite
def _instances(draw: st.DrawFn) -> Instance:
    n = draw(st.integers(1, 3))
    points = tuple(range(n))
    labels = draw(st.lists(st.tuples(*[st.integers(0, 1) for _ in points]), min_size=1,
                           max_size=5))
    cls = explicit(points, labels)
    raw = draw(st.lists(st.integers(0, 5), min_size=2 * n, max_size=2 * n)
               .filter(lambda w: sum(w) > 0))
    total = sum(raw)
    d: dict[Hashable, Fraction] = {(x, y): F(raw[2 * x + y], total)
                                   for x in points for y in (0, 1) if raw[2 * x + y]}
    marginal = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)
                    .filter(lambda w: sum(w) > 0))
    d0 = ref.DummyDistribution(points, tuple(F(w) for w in marginal))
    den = draw(st.integers(1, 200))
    p = F(draw(st.integers(0, den)), den)
    return cls, d, d0, p


@settings(max_examples=50, deadline=None, derandomize=True, database=None)
@given(_instances())
def test_property_mixture_identity(instance: Instance) -> None:
    cls, d, d0, p = instance
    mix = ref.mixture(d, d0, p)
    assert sum(mix.values()) == 1
    errs_d = {h: ref.error(h, d) for h in cls}
    errs_m = {h: ref.error(h, mix) for h in cls}
    for h, e in errs_d.items():
        assert errs_m[h] == p * e + (1 - p) / 2
    if p:
        assert ({h for h, e in errs_d.items() if e == min(errs_d.values())}
                == {h for h, e in errs_m.items() if e == min(errs_m.values())})
