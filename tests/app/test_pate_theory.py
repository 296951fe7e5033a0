"""``privref pate-theory``: 001's rate predictions, exact excess risks, θ, ERM and the margins.

The predicted exponents are exact Fractions of τ; the excess risk and Dis of a hypothesis are
checked against hand computations; the fast θ and ERM equal the reference definitions on small
instances; the margins of a hand-made vote vector and their histogram are checked by hand.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from privref.app.cli import main
from privref.app.experiments import pate_rates as pr
from privref.reference.errors import InvalidArgument
from privref.reference.learners.disagreement import disagreement_coefficient
from privref.reference.learners.prediction_baselines import erm

F = Fraction


# ------------------------------------------------------------------ predictions


def test_predicted_slopes_exact_at_massart_and_half() -> None:
    one = pr.predicted_slopes(F(1))
    assert one == {"thm22": F(-1), "thm28_fixed_m": F(-1), "thm28_optimal_m": F(-2, 3),
                   "thm10_optimal_m": F(-1), "thm10_fixed_m": F(-2), "excess_tight": F(-1),
                   "labels_psq": F(-1), "labels_asq": F(0)}
    half = pr.predicted_slopes(F(1, 2))
    assert half["thm22"] == F(-1, 3) and half["thm28_fixed_m"] == F(-1, 3)
    assert half["thm28_optimal_m"] == F(-2, 7)
    assert half["thm10_fixed_m"] == F(-2, 5) and half["excess_tight"] == F(-2, 3)


@pytest.mark.parametrize("p,q", [(1, 3), (2, 3), (1, 5), (3, 7), (7, 8)])
def test_predicted_slopes_are_the_formulas(p: int, q: int) -> None:
    tau = F(p, q)
    got = pr.predicted_slopes(tau)
    assert got["thm22"] == F(-p, 2 * q - p)             # −τ/(2−τ)
    assert got["thm28_optimal_m"] == F(-2 * p, 4 * q - p)  # −2τ/(4−τ), Remark 29
    assert got["thm10_fixed_m"] == F(-2 * p, 4 * q - 3 * p)  # −2τ/(4−3τ)
    assert got["excess_tight"] == F(-q, 2 * q - p)      # −1/(2−τ)
    assert all(isinstance(v, Fraction) for v in got.values())


@pytest.mark.parametrize("bad", [F(0), F(-1, 2), F(3, 2), 0.5, 1])
def test_predicted_slopes_refuse_bad_tau(bad: object) -> None:
    with pytest.raises(InvalidArgument):
        pr.predicted_slopes(bad)  # type: ignore[arg-type]


def test_teacher_count_is_theorem_22_formula() -> None:
    for q, n in ((32, 2 ** 16), (512, 2 ** 20), (7, 1000)):
        L = math.log(10 ** 5)
        value = 6 * math.sqrt(math.log(2 * n)) * (math.sqrt(q * L) + math.sqrt(q * L + q))
        assert pr.teacher_count(q, n, F(1), F(1, 10 ** 5)) == math.ceil(value)


def test_claim_holds_at_step1_variance_and_fails_below() -> None:
    s2 = pr.noise_variance(64, F(1), F(1, 10 ** 5))
    assert pr.claim_holds(64, s2, F(1), F(1, 10 ** 5))
    assert not pr.claim_holds(64, s2 / 2, F(1), F(1, 10 ** 5))
    assert not pr.claim_holds(128, s2, F(1), F(1, 10 ** 5))


# ------------------------------------------------------------------ exact populations


def test_excess_and_dis_by_hand_massart() -> None:
    pop = pr.build_population("thresholds", "massart", 4)
    assert pop.posterior == (F(4, 5), F(4, 5), F(1, 5), F(1, 5))   # h* = c_2: 1 on x < 2
    c0 = pop.concepts[0].labels                                    # all zeros: wrong at 0, 1
    assert pop.excess(c0) == F(3, 10)                              # 2 · 1/4 · 3/5
    assert pop.dis(c0) == F(1, 2)
    assert pop.excess(pop.h_star.labels) == 0


def test_excess_by_hand_tsybakov_profile() -> None:
    pop = pr.build_population("thresholds", "tnc", 4, F(1, 2))
    # u = |2x + 1 − 4| = 3, 1, 1, 3; margins ½·u/4 = 3/8, 1/8, 1/8, 3/8
    assert pop.posterior == (F(7, 8), F(5, 8), F(3, 8), F(1, 8))
    assert pop.excess(pop.concepts[1].labels) == F(1, 16)           # 1/4 · |2·5/8 − 1|
    assert pop.excess(pop.concepts[4].labels) == F(1, 16) + F(1, 4) * F(3, 4)
    assert pop.dis(pop.concepts[4].labels) == F(1, 2)
    assert pr._err(pop) == F(1, 4) * (F(1, 8) + F(3, 8) + F(3, 8) + F(1, 8))


def test_draw_is_the_population_law() -> None:
    pop = pr.build_population("thresholds", "massart", 4)
    xs, ys = pop.draw(40000, np.random.default_rng(3))
    assert set(xs.tolist()) == {0, 1, 2, 3}
    rate = ys[xs == 0].mean()
    assert abs(rate - 0.8) < 0.02  # Bernoulli(4/5) at x = 0 (4σ ≈ 0.008)


def test_theta_profile_equals_reference_definition() -> None:
    for pop in (pr.build_population("thresholds", "massart", 8),
                pr.build_population("intervals", "tnc", 8, F(1, 2)),
                pr.build_population("intervals", "massart", 12)):
        theta = pr.theta_profile(pop)
        size = len(pop.weights)
        for k in range(0, 2 * size + 1):
            r0 = F(k, 2 * size)
            assert theta(r0) == disagreement_coefficient(pop.concepts, pop.h_star,
                                                         pop.weights, r0)


def test_erm_indices_equal_reference_erm() -> None:
    rng = np.random.default_rng(7)
    for C_pop in (pr.build_population("thresholds", "massart", 8),
                  pr.build_population("intervals", "massart", 8)):
        for _ in range(40):
            n = int(rng.integers(0, 12))
            xs = rng.integers(0, 8, size=n)
            ys = rng.integers(0, 2, size=n)
            ones = np.bincount(xs[ys == 1], minlength=8).reshape(1, 8).astype(np.int64)
            zeros = np.bincount(xs[ys == 0], minlength=8).reshape(1, 8).astype(np.int64)
            got = C_pop.concepts[int(pr.erm_indices(C_pop, ones, zeros)[0])]
            want = erm(C_pop.concepts, tuple((int(x), int(y)) for x, y in zip(xs, ys,
                                                                              strict=True)))
            assert got == want


def test_one_run_each_learner_on_a_tiny_population() -> None:
    pop = pr.build_population("thresholds", "massart", 8)
    rng = np.random.default_rng(0)
    xs, ys = pop.draw(400, rng)
    votes = pr.teacher_votes(pop, xs, ys, 9, rng)
    assert votes.shape == (8,) and votes.min() >= 0 and votes.max() <= 9
    stream = rng.integers(0, 8, size=16)
    s2 = pr.noise_variance(16, F(1), F(1, 100))
    psq = pr.run_psq(pop, votes, 9, stream, s2, rng)
    asq = pr.run_asq(pop, votes, 9, stream, s2, 5, rng)
    assert psq["labels"] == 16 and 1 <= asq["labels"] <= 5
    for res in (psq, asq):
        assert 0 <= res["excess"] <= res["dis"] <= 1


def test_svt_cutoff_is_theorem_10_formula_exactly() -> None:
    # τ = 1: T = ⌈(md/(nε))²⌉, exactly 16 here (an enclosure would round 16 up to 17)
    assert pr.svt_cutoff(4096, 1024, 1, F(1), F(1)) == 16
    assert pr.svt_cutoff(4096, 1025, 1, F(1), F(1)) == 16       # 15.97: rounded up
    assert pr.svt_cutoff(4096, 2 ** 14, 1, F(1), F(1)) == 1     # 1/16: clipped to 1
    assert pr.svt_cutoff(8, 1, 1, F(1), F(1)) == 8              # 64: clipped to m
    # τ = 1/2: (m^{3/2}/n^{1/2})^{4/5}; 2^{6.4} = 84.4 and 2^{8.8} = 445.7
    assert pr.svt_cutoff(4096, 2 ** 20, 1, F(1, 2), F(1)) == 85
    assert pr.svt_cutoff(4096, 2 ** 14, 1, F(1, 2), F(1)) == 446
    assert pr.svt_cutoff(4096, 2 ** 14, 2, F(1, 2), F(1, 2)) == math.ceil(2 ** 9.6)  # 776.0
    for bad in ((0, 1, 1, F(1), F(1)), (1, 1, 1, F(0), F(1)), (1, 1, 1, F(1), F(0))):
        with pytest.raises(InvalidArgument):
            pr.svt_cutoff(*bad)


def test_svt_setting_is_algorithm_2_calibration_and_its_claim(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from privref.reference import pate
    eps, delta = F(1), F(1, 10)
    st = pr.svt_setting(16, 16, 1, F(1, 2), eps, delta)   # T = ⌈16^{4/5}⌉ = ⌈9.19⌉ = 10
    params = pate.svt_pate_parameters(16, 10, eps, delta)
    assert (st.cutoff, st.scale, st.threshold) == (10, params.scale, params.threshold)
    assert st.teachers == 12 * (params.threshold + 1)
    assert pr.svt_claim_holds(16, st.cutoff, eps, delta)
    # the claim rests on svt_pate's exact release-bound check: a bound above δ/2 refutes it
    monkeypatch.setattr(pate, "_release_bound", lambda *a: delta)
    assert not pr.svt_claim_holds(16, st.cutoff, eps, delta)


def test_psq_svt_run_on_a_tiny_population() -> None:
    pop = pr.build_population("thresholds", "massart", 8)
    stream = np.array([0, 7, 1, 6, 2, 5, 3, 4] * 2, dtype=np.int64)
    st = pr.SvtSetting(cutoff=2, scale=F(1), threshold=3, teachers=60)
    # unanimous teachers voting h* (1 on x < 4): every label is released and right
    votes = np.array([60, 60, 60, 60, 0, 0, 0, 0], dtype=np.int64)
    res = pr.run_psq_svt(pop, votes, stream, st, np.random.default_rng(1))
    assert res["labels"] == 16 and res["excess"] == 0 and res["dis"] == 0
    # a tie everywhere (instability distance 0 < w): nothing released, the student is C[0]
    ties = np.full(8, 30, dtype=np.int64)
    res = pr.run_psq_svt(pop, ties, stream, st, np.random.default_rng(1))
    assert res["labels"] < 16
    assert 0 <= res["excess"] <= res["dis"] <= 1


# ------------------------------------------------------------------ margins


def test_margins_of_a_hand_made_vote_vector() -> None:
    pm = pytest.importorskip("privref.app.experiments.pate_margins")
    deltas, signed = pm.query_margins((0, 1, 2, 3, 4), 4, (0, 0, 1, 1, 0))
    assert deltas == (F(1, 2), F(1, 4), F(0), F(1, 4), F(1, 2))
    assert signed == (F(-1, 2), F(-1, 4), F(0), F(-1, 4), F(1, 2))
    edges = (F(-1, 2), F(-1, 4), F(0), F(1, 4), F(1, 2))
    assert pm.histogram(signed, edges) == (1, 2, 1, 1)
    assert pm.histogram(deltas, edges) == (0, 0, 1, 4)
    s = pm.summary(deltas, signed, first=5)
    assert s["majority_against_h_star"] == "1/5" and s["ties"] == "1/5"
    assert s["high_margin"] == "2/5" and s["high_margin_against_h_star"] == "1/5"
    assert s["identity_abs_signed_equals_delta"] is True
    assert s["histogram_abs_signed"] == s["histogram_delta"]


def test_high_margin_boundary_is_included() -> None:
    pm = pytest.importorskip("privref.app.experiments.pate_margins")
    deltas, signed = pm.query_margins((9, 1, 8), 10, (1, 1, 0))   # Δ̂ = 2/5, 2/5, 3/10
    assert deltas == (F(2, 5), F(2, 5), F(3, 10))
    assert signed == (F(-2, 5), F(2, 5), F(3, 10))
    s = pm.summary(deltas, signed, first=3)
    assert s["high_margin"] == "2/3" and s["high_margin_against_h_star"] == "1/3"
    assert s["majority_against_h_star"] == "2/3"


def test_margins_refuse_bad_votes() -> None:
    pm = pytest.importorskip("privref.app.experiments.pate_margins")
    with pytest.raises(InvalidArgument):
        pm.query_margins((5,), 4, (0,))
    with pytest.raises(InvalidArgument):
        pm.histogram((F(2),), (F(0), F(1)))


@pytest.mark.deep
def test_rates_quick_smoke(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    assert main(["pate-theory", "rates", "--quick", "--quiet", "--out", str(tmp_path),
                 "--markdown", str(page)]) == 0
    payload = json.loads((tmp_path / "pate-theory-rates.json").read_text())
    assert payload["rows"] and all(r["claim_holds"] for r in payload["rows"])
    assert all(f["fitted"] is not None for f in payload["fits"] if f["measure"] != "dis vs n")
    assert (tmp_path / "pate-theory-rates.png").stat().st_size > 0
    assert "Claim 1: at equal privacy" in page.read_text()


def test_verdict_rule_of_the_page() -> None:
    from privref.app.reports.pate_theory_plot import lemma13_term, verdict
    assert verdict(-0.9, F(-1)) == "Reproduced"
    assert verdict(-1.3, F(-1, 3), bound=True).startswith("Reproduced as a bound")
    assert verdict(-1.3, F(-1, 3)).startswith("Not reproduced")
    assert verdict(-0.2, F(-1), bound=True).startswith("Not reproduced")
    assert verdict(None, F(-1)).startswith("Out of reach")
    # ((dK ln(n/d) + ln(2K/γ))/n)^{τ/(2−τ)} at d = 1, K = 1, n = e, τ = 1: (1 + ln 20)/e
    assert lemma13_term(1, 1, 3, F(1)) == pytest.approx((math.log(3) + math.log(20)) / 3)


def test_theorem10_rate_term_against_its_floor() -> None:
    from privref.app.reports.pate_theory_plot import theorem10_rate_dominates as dom
    # τ = 1: md²/(n²ε²) > d/m iff n < m√d/ε; equality is not "above"
    assert dom(4096, 4095, 1, F(1), F(1)) and not dom(4096, 4096, 1, F(1), F(1))
    assert dom(4096, 8191, 4, F(1), F(1)) and not dom(4096, 8192, 4, F(1), F(1))
    # τ = 1/2: (m/n²)^{1/5} against 1/m at m = 4096, d = ε = 1: n < 2^{36}
    assert dom(4096, 2 ** 20, 1, F(1, 2), F(1)) and not dom(4096, 2 ** 36, 1, F(1, 2), F(1))
    assert dom(4096, 2 ** 36 - 1, 1, F(1, 2), F(1))


@pytest.mark.deep
def test_margins_quick_smoke(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    assert main(["pate-theory", "margins", "--quick", "--quiet", "--out", str(tmp_path)]) == 0
    payload = json.loads((tmp_path / "pate-theory-margins.json").read_text())
    run = payload["runs"][0]
    assert run["queries"] == 500 and run["teachers"] == 50
    assert run["identity_abs_signed_equals_delta"] is True
    assert sum(run["histogram_signed"]) == 500
    assert "/" not in payload["command"].split("--out ")[1]
