"""Ledger entries for certified accounting (PLD composition, amplification by subsampling, GDP):
each check holds, and each fails when the mathematics it checks is broken on purpose."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from privref.audits import privacy_profile
from privref.proofs import folklore_accounting as fa
from privref.proofs.folklore import ENTRIES
from privref.proofs.halving import run_halved
from privref.proofs.registry import entry_by_id
from privref.reference import accounting, fdp
from privref.reference.fdp import GaussianDP
from privref.reference.geometric import discrete_laplace_mechanism
from privref.reference.pld import CertifiedPLD
from privref.reference.reals import Interval
from privref.reference.verdict import Verdict

from .checks import resolves

NUMBERS = ("Sommer-Meiser-Mohammadi 2019 PLD composition",
           "Li-Qardaji-Su 2012 Poisson amplification",
           "Balle-Barthe-Gaboardi 2018 sampling without replacement",
           "Dong-Roth-Su 2022 Corollary 2.13",
           "Dong-Roth-Su 2022 Corollary 3.3")


def test_the_entries_are_registered_and_their_subjects_resolve() -> None:
    numbers = {e.number for e in ENTRIES}
    assert set(NUMBERS) <= numbers
    for number in NUMBERS:
        entry = entry_by_id(f"folklore {number}")
        assert entry in fa.ENTRIES
        assert all(resolves(s) for s in entry.subjects), entry.subjects


@pytest.mark.parametrize("check", [c for e in fa.ENTRIES for c in e.checks],
                         ids=lambda c: c.name)
def test_every_check_holds(check: object) -> None:
    result = check.run()  # type: ignore[attr-defined]
    assert result.verdict is Verdict.HOLDS, result.evidence


@pytest.mark.parametrize("check", [c for e in fa.ENTRIES for c in e.checks if c.constant],
                         ids=lambda c: c.name)
def test_halving_the_sampling_rate_is_refuted(check: object) -> None:
    """(ln(1 + (q/2)(e^ε − 1)), (q/2)·δ) is below the exact loss: the audits refute it."""
    assert run_halved(check).verdict is Verdict.VIOLATED  # type: ignore[arg-type]


def test_composing_one_time_too_few_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    right = CertifiedPLD.self_compose
    monkeypatch.setattr(CertifiedPLD, "self_compose",
                        lambda self, k: right(self, max(1, k - 1)))
    assert fa.check_pld_randomized_response().verdict is Verdict.VIOLATED
    assert fa.check_pld_discrete_laplace().verdict is Verdict.VIOLATED
    assert fa.check_basic_composition_looser().verdict is Verdict.VIOLATED


def test_a_pld_upper_end_rounded_down_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The upper δ of the PLD one unit of 2^-40 too low (rounding the wrong way)."""
    right = CertifiedPLD.delta

    def low(self: CertifiedPLD, epsilon: Fraction) -> Interval:
        box = right(self, epsilon)
        return Interval(box.lo - Fraction(1, 1 << 40), box.hi - Fraction(1, 1 << 40))
    monkeypatch.setattr(CertifiedPLD, "delta", low)
    assert fa.check_pld_randomized_response().verdict is not Verdict.HOLDS


def _fixture_overlaps(clamped: Callable[[Fraction, int], Any]) -> bool:
    """The clamped discrete Laplace fixture's exact profile on (0,), (Δ,) overlaps the
    unclamped mechanism's at 4 ε each for (t, Δ) = (2, 2), (1, 1).  Evidence for the fixture,
    not a proof (the ledger relies on the argument in the entry's notes instead)."""
    for scale, d in ((Fraction(2), 2), (Fraction(1), 1)):
        epsilons = [Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(d) / scale]
        real = privacy_profile(discrete_laplace_mechanism(scale, d), (0,), (d,),
                               epsilons=epsilons, precision=128)
        fixture = privacy_profile(clamped(scale, d), (0,), (d,), epsilons=epsilons,
                                  precision=128)
        for (_, truth), (_, box) in zip(real.points, fixture.points, strict=True):
            if box.hi < truth.lo or truth.hi < box.lo:
                return False
    return True


def test_the_clamped_fixture_meets_the_mechanism() -> None:
    assert _fixture_overlaps(fa._clamped_discrete_laplace)


def test_a_fixture_unlike_the_mechanism_is_caught() -> None:
    """A clamped fixture at twice the noise scale does not meet the mechanism's profile."""
    assert not _fixture_overlaps(lambda scale, d: fa._clamped_discrete_laplace(scale * 2, d))


def test_gdp_composition_without_the_square_root_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """μ = Σ μ_i² (no root) instead of √(Σ μ_i²)."""
    def no_root(self: GaussianDP, *others: GaussianDP) -> GaussianDP:
        total = self.mu_squared + sum((o.mu_squared for o in others), Fraction(0))
        return GaussianDP(total * total)
    monkeypatch.setattr(GaussianDP, "compose", no_root)
    assert fa.check_gdp_composition().verdict is Verdict.VIOLATED


def test_gdp_composition_adding_mu_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """μ = Σ μ_i (basic-composition style) instead of √(Σ μ_i²)."""
    def add_mu(self: GaussianDP, *others: GaussianDP) -> GaussianDP:
        mu = sum((Fraction(g.mu(64).hi) for g in (self, *others)), Fraction(0))
        return GaussianDP(mu * mu)
    monkeypatch.setattr(GaussianDP, "compose", add_mu)
    assert fa.check_gdp_composition().verdict is Verdict.VIOLATED


@pytest.mark.parametrize("shift", [Fraction(1, 1 << 50), -Fraction(1, 1 << 50)])
def test_a_normal_cdf_rounded_the_wrong_way_breaks_the_duality(
        monkeypatch: pytest.MonkeyPatch, shift: Fraction) -> None:
    """Φ's enclosure moved by 2^-50 (past its width): G_μ no longer meets sup f_(ε,δ(ε))."""
    right = accounting.normal_cdf

    def moved(x: Fraction, prec: int = 64) -> Interval:
        box = right(x, prec)
        return Interval(box.lo + shift, box.hi + shift)
    monkeypatch.setattr(fdp, "normal_cdf", moved)
    assert fa.check_tradeoff_duality().verdict is Verdict.VIOLATED


def test_a_gdp_delta_ten_percent_low_is_refuted_by_the_audits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    right = GaussianDP.delta

    def low(self: GaussianDP, epsilon: Fraction, prec: int = 64) -> Interval:
        box = right(self, epsilon, prec)
        return Interval(box.lo * Fraction(9, 10), box.hi * Fraction(9, 10))
    monkeypatch.setattr(GaussianDP, "delta", low)
    assert fa.check_gdp_delta_against_audits().verdict is Verdict.VIOLATED
