"""The utility chain entries: 004 Claim C.9 ... Corollary 4.6 and 000 Claim 4.11 ... Corollary 4.18."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p000 import utility as u000
from privref.proofs.p004 import utility as u
from privref.proofs.registry import MANIFEST
from privref.reference.citations import Uncited
from privref.reference.concepts import thresholds_on
from privref.reference.reals import Interval

F = Fraction
ENTRIES = (*u.ENTRIES, *u000.ENTRIES)
BOX_LO = (F(1, 2**30), F(1), F(1))


# Each check's verdict is asserted once, by tests/proofs/test_ledger.py (no check runs twice).


def test_ids_statuses_and_manifest() -> None:
    by_id = {e.id: e for e in ENTRIES}
    for e in ENTRIES:
        assert e.number in MANIFEST[e.paper], e.id
    refuted = {i for i, e in by_id.items() if e.status is Status.REFUTED}
    assert refuted == {
        "004 Lemma C.10 / error_μ(h_fin, h_N) <= α/2 by Theorem B.5",
        "004 Lemma C.10 / Theorem B.5 applies to the pair (h_fin, h_N)",
        "004 Theorem 4.2 / Claim C.1 turns the (1, 41δ) learner into an (ε, δ) learner",
        "000 Lemma 4.12 / |S^3| >= (640/α)VC log(4480/(αβ))",
        "000 Lemma 4.12 / Theorem B.5 applies to the pair (h_fin, h_N)",
        "000 Theorem 4.14 / Claim 4.3 turns the (1, 41δ) learner into an (ε, δ) learner",
    }
    assert by_id["004 Claim C.9"].status is by_id["000 Claim 4.11"].status is Status.CHECKED
    for main in ("004 Lemma C.10", "004 Theorem C.11", "004 Theorem 4.2", "004 Theorem 4.4",
                 "004 Corollary 4.5", "004 Corollary 4.6", "000 Lemma 4.12", "000 Theorem 4.13",
                 "000 Theorem 4.14", "000 Theorem 4.16", "000 Corollary 4.17", "000 Corollary 4.18"):
        assert by_id[main].status is Status.NOT_CHECKABLE, main
    proved = [e for e in ENTRIES if e.status is Status.PROVED]
    assert len(proved) == 3 and all(e.parameter_range for e in proved)


# ------------------------------------------------------------------ the sufficiency algebra


@pytest.mark.parametrize("key", sorted(u.B5_USES))
@pytest.mark.parametrize("reading", ["ln", "log2"])
def test_scaled_gap_matches_the_formulas(key: str, reading: u.Reading) -> None:
    """a·(have - need) from the simplified affine form equals the one from the paper's formulas."""
    use = u.B5_USES[key]
    g = u.scaled_gap(use, reading)
    for alpha, beta, vc in [(F(1), F(1), F(1)), (F(1, 3), F(1, 7), F(5)), BOX_LO,
                            (F(1, 2**20), F(1, 2**50), F(10**4))]:
        direct = (u.have_enclosure(use, alpha, beta, vc, reading)
                  - u.need_enclosure(use, alpha, beta, vc, reading)) * (alpha * use.a_scale)
        simple = g(tuple(Interval.point(x) for x in (alpha, beta, vc)))
        assert simple.lo <= direct.hi and direct.lo <= simple.hi, (key, alpha, beta, vc)


def test_known_ratios() -> None:
    """004-E21's minima, enclosed from the formulas directly."""
    expected = {"000 C4.11": (F(10666, 10000), F(10667, 10000)),
                "000 L4.12": (F(1650, 100), F(1651, 100)),
                "000 L4.12 corrected": (F(8055, 1000), F(8056, 1000)),
                "004 C.9 step": (F(10227, 10000), F(10228, 10000)),
                "004 C.10": (F(2063, 1000), F(2064, 1000)),
                "004 C.9 step, 10": (F(8468, 10000), F(8469, 10000))}
    for key, (lo, hi) in expected.items():
        use = u.B5_USES[key]
        for reading in ("ln", "log2"):
            r = u.have_enclosure(use, *BOX_LO, reading) / u.need_enclosure(use, *BOX_LO, reading)
            assert lo <= r.lo and r.hi <= hi, (key, reading, r)


# ------------------------------------------------------------------ mutations


def test_broken_constants_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # 004 uses 12 where 000 uses 10: with 10 the step fails, and 48 -> 40 breaks 000's claim.
    assert u.check_sufficiency(u.B5_USES["004 C.9 step, 10"]).verdict is Verdict.VIOLATED
    weak = replace(u.B5_USES["000 C4.11"], P=F(40))
    res = u.check_sufficiency(weak)
    assert res.verdict is Verdict.VIOLATED and res.witness
    assert u.check_insufficient(u.B5_USES["004 C.9 step"]).verdict is Verdict.VIOLATED
    # a ratio window that excludes the true minimum is refuted
    assert u.check_min_ratio(u.B5_USES["004 C.10"], "ln", F(207, 100), F(208, 100), BOX_LO).verdict \
        is Verdict.VIOLATED
    # accumulation: 12 in 000 (10 → 12) and 13 in 004 exceed the budgets
    with monkeypatch.context() as m:
        m.setattr(u, "CLAIM411_MULTIPLIER", 12)
        assert u.check_accumulation("000").verdict is Verdict.VIOLATED
        m.setattr(u, "CLAIM411_MULTIPLIER", 9)   # premise of B.5
        assert u.check_accumulation("000").verdict is Verdict.VIOLATED
        m.setattr(u, "CLAIM_C9_MULTIPLIER", 13)
        assert u.check_accumulation("004").verdict is Verdict.VIOLATED
    # δ: the factor window, and the corrected δ′ audited exactly
    with monkeypatch.context() as m:
        m.setattr(u, "E13_DELTA_FACTOR", F(2875, 100))
        assert u.check_delta_factor().verdict is Verdict.VIOLATED
    assert u.check_delta_step(6, F(164, 6000)).verdict is Verdict.HOLDS
    assert u.check_delta_step(6, F(40, 6000)).verdict is Verdict.VIOLATED   # below the leak 41δ/6


def test_counterexamples_need_their_hypotheses(monkeypatch: pytest.MonkeyPatch) -> None:
    # 004-E9: with μ(h_fin Δ h_N) <= α/2 the step's conclusion holds on the instance.
    assert u.check_premise_gap(p=F(1, 20)).verdict is Verdict.HOLDS
    # 004-E10: with few domain points the improper pair no longer escapes.
    assert u.check_improper_pair("004", domain=10**5).verdict is Verdict.HOLDS
    # 000-E12: the corrected 320/2240 bound is met where 640/4480 is not.
    assert u000.check_e12_instance().verdict is Verdict.VIOLATED
    with monkeypatch.context() as m:
        m.setattr(u000, "LEMMA412_PRINTED_CONSTANT", 320)
        m.setattr(u000, "LEMMA412_PRINTED_LOG_CONSTANT", 2240)
        assert u000.check_e12_instance().verdict is Verdict.HOLDS
    # corrected C.10 bookkeeping fails with a multiplier below 10
    monkeypatch.setattr(u, "CORRECTED_C10_MULTIPLIER", F(9))
    assert u.check_corrected_c10(F(1, 10), F(1, 10)).verdict is Verdict.VIOLATED


def test_delta_counterexample_witness() -> None:
    res = u.check_delta_step()
    assert res.verdict is Verdict.VIOLATED
    assert res.witness is not None and "leak" in res.witness


# ------------------------------------------------------------------ Monte Carlo of Claim C.9 / 4.11


def test_monte_carlo_schedule_iterates() -> None:
    for version in ("000", "004"):
        sched = u.mc_schedule(version)
        assert sched.n_iterations == 4
        assert [it.s_before for it in sched.iterations] == [60, 105, 127, 138]
        c = sched.constants
        assert (c.alpha_divisor, c.beta_divisor) == ((Fraction(10), Fraction(4)) if version == "000"
                                                         else (Fraction(24), Fraction(4)))


def test_monte_carlo_check_holds_and_is_deterministic() -> None:
    for version in ("000", "004"):
        res = u.check_error_accumulation_mc(version)
        assert res.verdict is Verdict.HOLDS and res.confidence == 1 - u.MC_LEVEL == F(999999, 10**6)
        assert "200 runs" in res.evidence and "i=4" in res.evidence
        assert u.run_monte_carlo(version).errors == u.run_monte_carlo.__wrapped__(version).errors


def test_monte_carlo_catches_a_claim_ten_times_too_small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(u, "CLAIM_C9_BETA_FACTOR", F(1, 5))
    res = u.check_error_accumulation_mc("004")
    assert res.verdict is Verdict.VIOLATED and res.witness and "i=1" in res.witness


def test_monte_carlo_loop_is_iter_label_boosts_loop() -> None:
    """With one seed, iter_label_boost (base = a reporter of its input S′) relabels every entry it
    hands to the base by the h_N that the Monte Carlo recovers from the loop sub-program it samples."""
    import numpy as np

    from privref.reference.learners.base import as_learner
    from privref.reference.learners.iterlabelboost import boost_iterations, iter_label_boost
    from privref.reference.learners.labelboost import LABELBOOST_EM_EPSILON
    from privref.reference.mechanism import Mechanism
    from privref.reference.privacy import PrivacyClaim
    from privref.reference.program import sample

    sched = u.mc_schedule("004")
    C = thresholds_on(u.MC_POINTS)

    def report(data: tuple[object, ...]):  # type: ignore[no-untyped-def]
        return data
        yield  # pragma: no cover

    reporter = as_learner(Mechanism("reporter", report, PrivacyClaim.of(0), Uncited("test")), C,
                          proper=False)
    learner = iter_label_boost(reporter, alpha=u.MC_ALPHA, beta=u.MC_BETA, n=1, m=u.MC_M,
                               constants=u.MC_CONSTANTS["004"], vc=1)
    for seed in range(5):
        _, data = u.mc_dataset(np.random.default_rng(seed), sched)
        loop = sample(boost_iterations, C, sched, data, LABELBOOST_EM_EPSILON,
                      rng=np.random.default_rng(100 + seed))
        assert len(loop) == sched.n_iterations + 1 and loop[0] == data[:u.MC_M]
        h_n = u.hypothesis_of(C, loop[-1])
        out = learner.sample(data, np.random.default_rng(100 + seed))
        assert len(out) == sched.draws() and all(h_n(x) == y for x, y in out)
