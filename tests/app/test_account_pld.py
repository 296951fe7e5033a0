"""``privref account dpsgd``, ``calibrate``, ``compose`` and ``convert``.

Every enclosure the command prints is checked against a reference computed another way: the
certified PLDs built here directly, the analytic Gaussian's independent series oracle, Laplace's
closed form δ(ε) = 1 − e^{(ε−ε0)/2}, an mpmath evaluation of one subsampled-Gaussian step, or the
order relations between conversions (a ρ-zCDP bound can never beat the Gaussian of that ρ).
Coarse grids (h = 1/50) keep the file fast.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import mpmath
import pytest

from privref.app.cli import main
from privref.app.commands.account_common import exact_text
from privref.reference import pld
from privref.reference.accounting import analytic_gaussian_delta_series, zcdp_delta
from privref.reference.reals import Interval

from ..reference.test_pld_calibration import _mpf, _one_step_delta, _proved_safe, _proved_unsafe

H = "1/50"


def _run(tmp_path: Path, *argv: str) -> tuple[dict[str, Any], Interval]:
    out = tmp_path / "out.json"
    assert main(["account", *argv, "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    return data, Interval(_parse(data["lower"]), _parse(data["upper"]))


def _contains(box: Interval, inner: Interval) -> bool:
    return box.lo <= inner.lo and inner.hi <= box.hi


# --------------------------------------------------------------------------- dpsgd


def test_dpsgd_json_records_everything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, box = _run(tmp_path, "dpsgd", "--sample-rate", "0.1", "--steps", "5", "--sigma", "1",
                     "--epsilon", "1/2", "--step", H)
    text = capsys.readouterr().out
    assert "delta at epsilon=1/2 after 5 steps" in text and "relation: add/remove" in text
    assert "width" in text and "relative" in text
    assert data["privref_version"] and data["seconds"] >= 0
    assert data["parameters"] == {"sample_rate": "1/10", "steps": 5, "sigma": "1",
                                  "step": "1/50", "delta": None, "epsilon": "1/2"}
    assert F(data["width"]) == box.width and "add/remove" in data["relation"]
    # the larger of the two orders' certified enclosures, built here directly
    orders = [pld.poisson_subsampled_gaussian_pld(1, F(1, 10), o, step=F(1, 50))
              .self_compose(5).delta(F(1, 2)) for o in ("add", "remove")]
    assert box == Interval(max(b.lo for b in orders), max(b.hi for b in orders))


def test_dpsgd_one_step_contains_the_exact_delta(tmp_path: Path) -> None:
    _, box = _run(tmp_path, "dpsgd", "--sample-rate", "1/5", "--steps", "1", "--sigma", "1/2",
                  "--epsilon", "1/4", "--step", H)
    exact = _one_step_delta(F(1, 2), F(1, 5), F(1, 4))
    assert _mpf(box.lo) <= exact <= _mpf(box.hi)


def test_dpsgd_epsilon_ends_are_proved(tmp_path: Path) -> None:
    q, k, sigma, delta = F(1, 10), 5, F(1), F(1, 10**4)
    _, box = _run(tmp_path, "dpsgd", "--sample-rate", "0.1", "--steps", "5", "--sigma", "1",
                  "--delta", "1e-4", "--step", H)
    assert 0 < box.lo < box.hi
    assert _proved_safe(sigma, q, k, box.hi + box.hi / 10**6, delta)
    assert _proved_unsafe(sigma, q, k, box.lo - box.lo / 1000, delta)


def test_dpsgd_rate_one_is_the_analytic_gaussian(tmp_path: Path) -> None:
    data, box = _run(tmp_path, "dpsgd", "--steps", "10", "--sigma", "5", "--epsilon", "1")
    oracle = analytic_gaussian_delta_series(1, 10, 5)  # no arb: the independent enclosure
    assert box.lo <= oracle.hi and oracle.lo <= box.hi
    assert "Balle-Wang" in data["accountant"]


# --------------------------------------------------------------------------- calibrate


def test_calibrate_ends_are_proved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, sigma = _run(tmp_path, "calibrate", "--epsilon", "1", "--delta", "1e-5", "--steps",
                       "10", "--sample-rate", "1/10", "--step", H, "--tolerance", "1/20")
    assert "sigma_upper is proved" in capsys.readouterr().out
    assert data["parameters"]["tolerance"] == "1/20" and data["quantity"] == "sigma"
    q, k, eps, delta = F(1, 10), 10, F(1), F(1, 10**5)
    assert _proved_safe(sigma.hi, q, k, eps, delta)
    assert _proved_unsafe(sigma.lo, q, k, eps, delta)


def test_calibrate_rate_one_against_the_series_oracle(tmp_path: Path) -> None:
    _, sigma = _run(tmp_path, "calibrate", "--epsilon", "1", "--delta", "1e-5", "--steps", "4")
    assert analytic_gaussian_delta_series(1, 4, sigma.hi).hi <= F(1, 10**5)
    assert analytic_gaussian_delta_series(1, 4, sigma.lo).lo > F(1, 10**5)
    assert sigma.width <= sigma.hi / 1000  # the default tolerance


# --------------------------------------------------------------------------- compose


def test_compose_gaussians_is_one_gaussian(tmp_path: Path) -> None:
    # k Gaussians of noise σ compose to one of noise σ/√k: Balle-Wang with k queries
    data, box = _run(tmp_path, "compose", "--mechanism", "gaussian:2:3", "--mechanism",
                     "gaussian:2", "--epsilon", "1/2", "--step", H)
    assert _contains(box, analytic_gaussian_delta_series(F(1, 2), 4, 2))
    assert data["parameters"]["mechanisms"] == ["gaussian:2 x3", "gaussian:2 x1"]
    assert "symmetric" in data["relation"]


def test_compose_one_laplace_closed_form(tmp_path: Path) -> None:
    # Lap(b = 1/2): ε0 = 2, δ(ε) = 1 − e^{(ε − ε0)/2} = 1 − e^{-1/2} at ε = 1
    _, box = _run(tmp_path, "compose", "--mechanism", "laplace:1/2", "--epsilon", "1",
                  "--step", H)
    exact = 1 - mpmath.exp(mpmath.mpf(-1) / 2)
    assert _mpf(box.lo) <= exact <= _mpf(box.hi)


def test_compose_with_subsampled_takes_both_orders(tmp_path: Path) -> None:
    data, box = _run(tmp_path, "compose", "--mechanism", "subsampled-gaussian:1:1/10:3",
                     "--mechanism", "laplace:4", "--delta", "1e-3", "--step", H)
    assert "add/remove" in data["relation"]
    h = F(1, 50)
    lap = pld.laplace_pld(4, step=h)
    boxes = [pld.poisson_subsampled_gaussian_pld(1, F(1, 10), o, step=h).self_compose(3)
             .compose(lap).epsilon(F(1, 1000)) for o in ("remove", "add")]
    assert box == Interval(max(b.lo for b in boxes), max(b.hi for b in boxes))


# --------------------------------------------------------------------------- convert


def test_convert_zcdp_is_never_below_the_gaussian_of_that_rho(tmp_path: Path) -> None:
    # N(0, σ²) is exactly (1/(2σ²))-zCDP, so any ρ-zCDP -> DP conversion is at least the
    # Gaussian's exact value (μ = √(2ρ) = 1 at ρ = 1/2), and at most Lemma 51's closed form
    _, eps_box = _run(tmp_path, "convert", "--rho", "1/2", "--delta", "1e-5")
    _, gauss = _run(tmp_path, "convert", "--mu", "1", "--delta", "1e-5")
    assert gauss.hi < eps_box.lo
    lemma51 = F(1, 2) + 2 * mpmath.sqrt(mpmath.mpf(1) / 2 * mpmath.log(10**5))
    assert _mpf(eps_box.hi) <= lemma51
    _, delta_box = _run(tmp_path, "convert", "--rho", "1/2", "--epsilon", "3")
    gauss_delta = analytic_gaussian_delta_series(3, 1, 1)
    assert gauss_delta.hi < delta_box.lo
    assert delta_box.hi <= zcdp_delta(F(1, 2), 3).enclose(64).hi


def test_convert_rdp_is_the_least_order(tmp_path: Path) -> None:
    # ε = min over α of ε_α + (ln(1/δ) + (α−1) ln(1−1/α) − ln α)/(α−1), by mpmath
    curve = [(2, F(1, 2)), (4, F(1)), (8, F(2))]
    _, box = _run(tmp_path, "convert", "--rdp", "2:0.5,4:1,8:2", "--delta", "1e-5")
    with mpmath.workdps(40):
        best = min(_mpf(e) + (mpmath.log(10**5) + (a - 1) * mpmath.log(1 - mpmath.mpf(1) / a)
                              - mpmath.log(a)) / (a - 1) for a, e in curve)
        assert _mpf(box.lo) <= best <= _mpf(box.hi)


def test_convert_mu_is_the_analytic_gaussian(tmp_path: Path) -> None:
    _, box = _run(tmp_path, "convert", "--mu", "2", "--epsilon", "1")
    oracle = analytic_gaussian_delta_series(1, 1, F(1, 2))  # two enclosures of one number
    assert box.lo <= oracle.hi and oracle.lo <= box.hi
    _, eps = _run(tmp_path, "convert", "--mu", "2", "--delta", "1e-3")
    assert analytic_gaussian_delta_series(eps.hi, 1, F(1, 2)).hi <= F(1, 1000)
    assert analytic_gaussian_delta_series(eps.lo, 1, F(1, 2)).lo > F(1, 1000)


# --------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize(("argv", "flag"), [
    (["dpsgd", "--sample-rate", "0", "--steps", "3", "--sigma", "1", "--delta", "0.1"],
     "--sample-rate"),
    (["dpsgd", "--sample-rate", "1.5", "--steps", "3", "--sigma", "1", "--delta", "0.1"],
     "--sample-rate"),
    (["dpsgd", "--sample-rate", "0.1", "--steps", "10000001", "--sigma", "1", "--delta", "0.1"],
     "--steps"),
    (["dpsgd", "--sample-rate", "0.1", "--steps", "3", "--sigma", "-1", "--delta", "0.1"],
     "--sigma"),
    (["dpsgd", "--sample-rate", "0.1", "--steps", "3", "--sigma", "1", "--delta", "0"],
     "--delta"),
    (["dpsgd", "--sample-rate", "0.1", "--steps", "3", "--sigma", "1", "--epsilon", "nan"],
     "--epsilon"),
    (["dpsgd", "--sample-rate", "0.01", "--steps", "3", "--sigma", "1/100", "--delta", "0.1",
      "--step", "1e-9"], "--step"),
    (["calibrate", "--epsilon", "inf", "--delta", "1e-5", "--steps", "3"], "--epsilon"),
    (["calibrate", "--epsilon", "1", "--delta", "1", "--steps", "3"], "--delta"),
    (["calibrate", "--epsilon", "1", "--delta", "3/4", "--steps", "2", "--sample-rate", "0.5"],
     "--delta"),
    (["compose", "--mechanism", "gaussian:0", "--delta", "1e-5"], "--mechanism"),
    (["compose", "--mechanism", "poisson:1", "--delta", "1e-5"], "--mechanism"),
    (["compose", "--mechanism", "laplace:1:0", "--delta", "1e-5"], "COUNT"),
    (["compose", "--mechanism", "randomized-response:1", "--mechanism",
      "subsampled-gaussian:1:0.1", "--delta", "1e-5"], "--mechanism"),
    (["compose", "--mechanism", "gaussian:1/1000", "--delta", "1e-5", "--step", "1e-6"],
     "--step"),
    (["convert", "--rho", "0", "--delta", "1e-5"], "--rho"),
    (["convert", "--rdp", "1:2", "--delta", "1e-5"], "--rdp"),
    (["convert", "--rdp", "2:1", "--epsilon", "1"], "--rdp"),
    (["convert", "--mu", "-1", "--epsilon", "1"], "--mu"),
])
def test_usage_errors_exit_2(argv: list[str], flag: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["account", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith(f"privref account {argv[0]}: error: ") and flag in err


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["account", "--help"]) == 0
    text = capsys.readouterr().out
    for kind in ("gaussian", "dpsgd", "compose", "convert", "calibrate"):
        assert f"  {kind} " in text
    assert main(["--help"]) == 0
    assert "account KIND" in capsys.readouterr().out


def _parse(text: str) -> F:
    num, _, den = text.partition("/")
    if den.startswith("2^"):
        return F(int(num), 1 << int(den[2:]))
    return F(text)


def test_huge_fractions_are_written_rounded_outward() -> None:
    x = F(1, 3**10000)  # 15,850 bits: more than Python will turn into text
    low, high = _parse(exact_text(x, up=False)), _parse(exact_text(x, up=True))
    assert low <= x <= high and high - low <= x / 2**60
    assert exact_text(F(-7, 3), up=True) == "-7/3"


def test_epsilon_ten_thousand_does_not_overflow(tmp_path: Path) -> None:
    # μ = 1: δ(10^4) = Φ(1/2 − 10^4) − e^{10^4}Φ(−1/2 − 10^4) < Φ(−9999) < e^{−4.9·10^7}, far
    # below the smallest end privref keeps, 2^-2^20: so the enclosure is [0, 2^-2^20]
    data, box = _run(tmp_path, "convert", "--mu", "1", "--epsilon", "10000")
    assert box.lo == 0 and _parse(data["upper"]) == F(1, 1 << (1 << 20))
    _, sgd = _run(tmp_path, "dpsgd", "--sample-rate", "0.01", "--steps", "10", "--sigma", "1",
                  "--epsilon", "10000", "--step", H)
    assert sgd.lo == 0 and 0 < sgd.hi < F(1, 10**15)
