"""``privref experiments --population agnostic`` (paper 002, issue 33 item 4).

The agnostic population's losses by hand, the count-based evaluators against the predictors'
own evaluators (same draws, exact equality), the crossover algebra on synthetic constants
(exact), the fits on synthetic points, and a tiny sweep end to end.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from privref.app.cli import main
from privref.app.experiments import prediction as pe
from privref.reference.concepts import thresholds_on
from privref.reference.exponential import reference_agreements
from privref.reference.learners import erm

F = Fraction


def test_agnostic_population_losses_by_hand() -> None:
    """α = 1/16 on 4 points: η = 1/2 − 4/16 = 1/4, target c_2 (x < 2).

    L(c_2) = 1/4 = OPT; L(c_0) = (3/4 + 3/4 + 1/4 + 1/4)/4 = 1/2 (excess 1/4 = 4α);
    L(c_1) = (1/4 + 3/4 + 1/4 + 1/4)/4 = 3/8 (excess 1/8 = 8α·1/4); L(c_4) = 1/2.
    """
    pop = pe.agnostic_population(F(1, 16), points=4)
    C = pop.concepts
    assert pop.noise == F(1, 4) and pop.eta(0) == F(3, 4) and pop.eta(3) == F(1, 4)
    assert [pop.loss(c) for c in C] == [F(1, 2), F(3, 8), F(1, 4), F(3, 8), F(1, 2)]
    assert [pop.reference_loss(c) for c in C] == [pop.loss(c) for c in C]
    assert pop.opt() == F(1, 4)
    # the excess of c_j is 8α·|j − K/2|/K
    assert all(pop.loss(C[j]) - pop.opt() == 8 * F(1, 16) * abs(j - 2) / 4 for j in range(5))


def test_agnostic_domain_grows_with_one_over_alpha() -> None:
    """K = the power of two nearest above 1/(4α), clamped to [16, 128]."""
    assert [pe.agnostic_points(F(1, 2 ** j)) for j in (4, 6, 7, 8, 9, 10)] == [
        16, 16, 32, 64, 128, 128]
    pop = pe.agnostic_population(F(1, 256))
    assert len(pop.concepts.domain) == 64 and pop.noise == F(1, 2) - F(4, 256)
    assert pop.target.name == "c_32"


def test_count_agreements_and_erm_equal_the_reference() -> None:
    """The count fast path equals the reference loop and ERM's first-maximum tie-break."""
    rng = np.random.default_rng(4)
    for C in (thresholds_on(6), pe.unions_of_two_intervals(5)):
        for n in (1, 2, 7, 40):
            pos = rng.integers(0, len(C.domain), n)
            lab = rng.integers(0, 2, n)
            data = tuple(zip([C.domain.points[i] for i in pos.tolist()], lab.tolist(),
                             strict=True))
            scores = pe.count_agreements(C, pos, lab)
            assert scores.tolist() == [reference_agreements(c, data) for c in C]
            assert pe.count_erm(C, pos, lab) == erm(C, data)


@pytest.mark.parametrize("key", ["alg1", "alg2", "b1", "b3"])
def test_sample_loss_equals_the_tuple_evaluator(key: str) -> None:
    """Same draws, same exact value as :func:`predictor_loss` on the tuple dataset."""
    alpha = F(1, 32)
    pop = pe.agnostic_population(alpha)
    drawn = pop.draw_sample(400, np.random.default_rng(7))
    data = drawn.dataset(pop.concepts)
    assert data == pop.draw(400, np.random.default_rng(7))
    level = F(1, 4) if key in ("alg1", "b1") else F(4)
    par = pe.sweep_parameters(key, alpha, level, 400)
    fast = pe.sample_loss(key, pop, drawn, par, np.random.default_rng(3))
    slow = pe.predictor_loss(key, pop, data, par, np.random.default_rng(3))
    assert fast == slow


def test_sweep_parameters_meet_the_level() -> None:
    """alg1/b1 at γ get stability γ exactly as target (ε = 2γ/α); alg2/b3 at ε."""
    alpha = F(1, 64)
    assert pe.sweep_parameters("alg1", alpha, F(1, 8), 10_000)["gamma"] == F(1, 8)
    assert pe.sweep_parameters("b1", alpha, F(1, 8), 10_000) == {"m": 1250, "gamma": F(1, 8)}
    assert pe.sweep_parameters("b3", alpha, F(2), 10_000) == {"k": 64, "flip": F(1, 128)}
    assert pe.sweep_parameters("alg2", alpha, F(2), 10_000)["gamma"] == F(1, 64)


def test_crossovers_on_synthetic_constants_are_exact() -> None:
    """At the computed crossing the two fitted rates are equal, exactly; the paper's
    predictor needs fewer examples just below it and more just above."""
    alpha, a, b, c = F(1, 64), F(8), F(1, 16), F(1, 4)
    g = pe.stable_crossover_gamma(alpha, a, b, c)
    assert g == (F(1, 4) - F(8, 64)) * 16 == 2

    def alg1(gamma: Fraction) -> Fraction:
        return a / (alpha * gamma) + b / alpha ** 2

    def b1(gamma: Fraction) -> Fraction:
        return c / (alpha ** 2 * gamma)

    assert alg1(g) == b1(g)
    assert alg1(g / 2) < b1(g / 2) and alg1(2 * g) > b1(2 * g)
    gamma = F(1, 32)
    s = pe.stable_crossover_alpha(gamma, a, b, c)
    assert s is not None
    assert a / (s * gamma) + b / s ** 2 == c / (s ** 2 * gamma)
    assert pe.stable_crossover_gamma(alpha, a, b, a * alpha) is None

    e = pe.private_crossover_epsilon(alpha, F(16), F(1, 16), F(1, 2))
    assert e == (F(1, 2) - F(16, 64)) / (F(1, 16) * alpha) == 256
    assert F(16) / (alpha ** 2 * e) + F(1, 16) / alpha ** 2 == F(1, 2) / (alpha ** 3 * e)
    p = pe.private_crossover_alpha(F(4), F(16), F(1, 16), F(1, 2))
    assert p == F(1, 2) / (16 + F(1, 4))
    assert F(16) / (p ** 2 * 4) + F(1, 16) / p ** 2 == F(1, 2) / (p ** 3 * 4)


def test_fit_constants_recovers_synthetic_constants() -> None:
    """Points on n = 3·t₁ + 5·t₂ give (3, 5); one-term points their geometric mean."""
    pts = [((F(t), F(10)), 3 * t + 50) for t in (100, 400, 1600, 6400)]
    fit = pe.fit_constants(pts)
    assert fit["model"].startswith("two terms")
    assert abs(fit["constants"][0] - 3) < 1e-9 and abs(fit["constants"][1] - 5) < 1e-9
    one = pe.fit_constants([((F(10),), 20), ((F(10),), 80)])
    assert abs(one["constants"][0] - 4) < 1e-12          # exp(mean(log 2, log 8)) = 4
    assert one["se"][0] > 0


def test_measured_winner_per_level() -> None:
    """A predictor that reached α beats one that did not; equal n* is a tie."""
    levels = [F(1, 2), F(1, 4), F(1, 8)]
    found = {("alg1", F(1, 2)): 100, ("b1", F(1, 2)): 50, ("alg1", F(1, 4)): 200,
             ("b1", F(1, 4)): 200, ("alg1", F(1, 8)): 400, ("b1", F(1, 8)): None}
    out = pe.sweep_crossovers("stable", F(1, 64), levels, found, {})
    assert [m["fewer"] for m in out["measured"]] == ["b1", "tie", "alg1"]
    assert out["extrapolated"] is None


def test_tiny_sweep_runs_and_proves_every_n_star() -> None:
    """End to end on a tiny instance: every reported n* has its proved level met."""
    config = pe.SweepConfig(F(1, 16), (F(1, 2),), (F(4),), 2048, 2, 1, 0)
    result = pe.run_sweep(config)
    assert {r["predictor"] for r in result["n_star"]} == {"alg1", "b1", "alg2", "b3"}
    for r in result["n_star"]:
        if r["n_star"] is not None:
            row = next(x for x in result["rows"] if x["predictor"] == r["predictor"]
                       and x["n"] == r["n_star"])
            assert row["proved_meets_target"] and row["mean_excess"] <= 1 / 16
    assert result["population"]["opt"] == "1/4"


@pytest.mark.deep
def test_quick_agnostic_command_writes_json_and_png(tmp_path: Path) -> None:
    """``privref experiments --population agnostic --quick``: n* for every unit, the command
    line recorded (no machine path), fits and crossovers, a PNG."""
    assert main(["experiments", "--population", "agnostic", "--quick", "--quiet",
                 "--out", str(tmp_path)]) == 0
    payload = json.loads((tmp_path / "prediction-agnostic.json").read_text())
    assert payload["command"] == ("privref experiments --population agnostic --quick "
                                  "--seed 0 --out DIR")
    assert str(tmp_path) not in json.dumps(payload)
    assert all(r["n_star"] is not None for r in payload["n_star"])
    assert payload["crossovers"]["private"]["extrapolated"]["alpha_star"]["4"] is not None
    assert (tmp_path / "prediction-agnostic.png").read_bytes()[:4] == b"\x89PNG"


def test_no_n_star_without_the_proved_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """n* requires the proved stability/privacy to meet the level: with every proof reporting
    10 (above every level), no unit gets an n* although the excess reaches α."""
    from privref.reference.reals import rational
    monkeypatch.setattr(pe, "proved_epsilon", lambda *args: rational(10))
    config = pe.SweepConfig(F(1, 16), (F(1, 2),), (F(4),), 2048, 2, 1, 0)
    result = pe.run_sweep(config)
    assert all(r["n_star"] is None for r in result["n_star"])
    assert min(r["mean_excess"] for r in result["rows"]) <= F(1, 16)
    assert not any(r["proved_meets_target"] for r in result["rows"])


def test_extrapolated_crossover_and_its_interval() -> None:
    """From synthetic fits: γ* = (c − aα)/b = 2 at α = 1/64 and α*(1/8) = (c − b/8)/a, each
    inside its ±2·se corner interval; one-term fits with c > aα win at every level."""
    fits = {"alg1": {"constants": [8.0, 0.0625], "se": [1e-3, 1e-5]},
            "b1": {"constants": [0.25], "se": [1e-5]}}
    found: dict[tuple[str, Fraction], int | None] = {("alg1", F(1, 8)): 100,
                                                     ("b1", F(1, 8)): 200}
    ext = pe.sweep_crossovers("stable", F(1, 64), [F(1, 8)], found, fits)["extrapolated"]
    assert ext["level_star"] == 2.0 and not ext["paper_fewer_at_every_level"]
    low, high = ext["level_star_interval"]
    assert 1.99 < low < 2.0 < high < 2.01
    star = (0.25 - 0.0625 / 8) / 8
    assert abs(ext["alpha_star"]["1/8"] - star) < 1e-15
    low, high = ext["alpha_star_interval"]["1/8"]
    assert star * 0.999 < low < star < high < star * 1.001
    one = {"alg2": {"constants": [16.0, 0.0], "se": [1.0, 0.0]},
           "b3": {"constants": [0.5], "se": [0.01]}}
    ext = pe.sweep_crossovers("private", F(1, 64), [F(4)], {}, one)["extrapolated"]
    assert ext["paper_fewer_at_every_level"] and ext["level_star"] is None
    assert ext["alpha_star"]["4"] == 0.5 / 16
    assert ext["level_star_interval"] == [None, None]          # JSON has no infinity
