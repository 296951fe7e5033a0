"""Cross-checks of privref's certified analytic-Gaussian accountant against third-party accountants.

For each case (001 Table 4's rows, and a grid) privref gives a proved enclosure of the ex-post ε
(width <= 2^-30 relative).  Recorded behaviour of each library (docs/accounting.md, "Cross-checks"):

* autodp (the accountant 001's experiments used): its float ε lies inside the enclosure;
* dp-accounting's pessimistic privacy-loss distribution: never below the enclosure (never unsafe),
  above it by at most 2·10⁻⁶ relative (the discretization it rounds up by design);
* prv-accountant (eps_error = 10⁻²): its [lower, upper] bounds contain the enclosure and its
  estimate lies within 10⁻³ relative of it (either side: it is an estimate);
* autodp's calibrated σ (``ana_gaussian_mech``): inside, or off by at most 10⁻⁸ relative on a
  recorded side, one case on the unsafe side (below σ_lo, proved not (ε, δ)-DP).

Each library is optional (``pip install 'privref[accounting]'``); its tests skip without it.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import pytest

from privref.app.experiments.paper_table4 import PAPER_TRAIN, ROWS, calibrated_sigma
from privref.reference.accounting import calibrate_sigma, epsilon_ex_post
from privref.reference.reals import Interval

pytestmark = pytest.mark.deep  # the deep tier: python -m pytest -m deep (docs/test-tiers.md)

F = Fraction
TOL = F(1, 2**30)

Case = tuple[str, Fraction, Fraction, Fraction]  # name, σ, q, δ


def _cases() -> list[Case]:
    found: list[Case] = []
    seen: set[tuple[Fraction, Fraction, int]] = set()
    for row in ROWS:  # the σ 001's experiments calibrated (privref's safe end), at q_actual
        n = PAPER_TRAIN[row.dataset]
        key = (row.queries, row.epsilon, n)
        if key in seen:
            continue
        seen.add(key)
        sigma = calibrated_sigma(row).hi
        found.append((f"{row.dataset}-{row.method}-eps{row.epsilon}-q{row.queries}",
                      sigma, row.queries, F(1, n)))
    for sigma in (F(2), F(5), F(30)):
        for q in (1, 10, 50):
            for delta in (F(1, 10**3), F(1, 10**6)):
                found.append((f"grid-s{sigma}-q{q}-d{delta}", sigma, F(q), delta))
    return found


CASES = _cases()


@cache
def _enclosure(sigma: Fraction, q: Fraction, delta: Fraction) -> Interval:
    return epsilon_ex_post(sigma, q, delta, TOL)


def _relative(x: float, box: Interval) -> float:
    """Signed relative distance of x from the enclosure (0 inside)."""
    v = F(x)
    if v > box.hi:
        return float((v - box.hi) / box.hi)
    if v < box.lo:
        return float((v - box.lo) / box.lo)
    return 0.0


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_autodp_lies_inside(case: Case) -> None:
    pytest.importorskip("autodp")
    # autodp issue #51: privacy_calibrator fails to import first; import another module before it
    import autodp.mechanism_zoo  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
    from autodp import dp_bank  # type: ignore[import-untyped,import-not-found,unused-ignore]

    _, sigma, q, delta = case
    box = _enclosure(sigma, q, delta)
    found = dp_bank.get_eps_ana_gaussian(float(sigma) / math.sqrt(float(q)), float(delta))
    assert _relative(float(found), box) == 0.0, (float(found), box)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_dp_accounting_is_never_unsafe(case: Case) -> None:
    pytest.importorskip("dp_accounting")
    from dp_accounting.pld import privacy_loss_distribution as pld  # type: ignore[import-untyped,import-not-found,unused-ignore]

    _, sigma, q, delta = case
    box = _enclosure(sigma, q, delta)
    dist = pld.from_gaussian_mechanism(float(sigma), sensitivity=math.sqrt(float(q)))
    rel = _relative(float(dist.get_epsilon_for_delta(float(delta))), box)
    assert 0.0 <= rel <= 2e-6, rel


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_prv_accountant_bounds_contain_the_enclosure(case: Case) -> None:
    pytest.importorskip("prv_accountant")
    from prv_accountant import PRVAccountant  # type: ignore[import-untyped,import-not-found,unused-ignore]
    from prv_accountant.privacy_random_variables import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        GaussianMechanism,
    )

    _, sigma, q, delta = case
    box = _enclosure(sigma, q, delta)
    mech = GaussianMechanism(noise_multiplier=float(sigma), l2_sensitivity=math.sqrt(float(q)))
    accountant = PRVAccountant(prvs=[mech], max_self_compositions=[1], eps_error=1e-2,
                               delta_error=float(delta) * 1e-2)
    low, estimate, high = accountant.compute_epsilon(delta=float(delta), num_self_compositions=[1])
    assert F(low) <= box.lo and box.hi <= F(high)
    # the estimate: within the requested eps_error of the truth, and recorded to 10⁻⁴ relative
    assert abs(F(estimate) - box.lo) <= F(1, 100)
    assert abs(_relative(estimate, box)) <= 1e-3, _relative(estimate, box)


AUTODP_SIGMA = [  # (q, ε, n, side of autodp's σ relative to [σ_lo, σ_hi]), recorded
    (49, F(1, 2), 6499, "above"),  # 7.4e-11 relative: safe, slightly conservative
    (163, F(1), 6499, "inside"),
    (293, F(2), 39073, "above"),  # 1.6e-9 relative: safe
    (1447, F(1, 2), 57847, "below"),  # 1.7e-9 relative: unsafe (δ exceeds 1/n)
]


@pytest.mark.parametrize(("queries", "epsilon", "n", "side"), AUTODP_SIGMA)
def test_autodp_calibration_recorded_side(queries: int, epsilon: Fraction, n: int,
                                          side: str) -> None:
    pytest.importorskip("autodp")
    # autodp issue #51: privacy_calibrator fails to import first; import another module before it
    import autodp.mechanism_zoo  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
    from autodp import privacy_calibrator  # type: ignore[import-untyped,import-not-found,unused-ignore]

    from privref.reference.accounting import analytic_gaussian_delta

    delta = F(1, n)
    box = calibrate_sigma(queries, epsilon, delta, TOL)
    unit = privacy_calibrator.ana_gaussian_mech(float(epsilon), 1 / n)["sigma"]  # sensitivity 1
    # privref's bracket for one sensitivity-1 query is box/√q; compare autodp's σ there exactly
    unit_box = calibrate_sigma(1, epsilon, delta, TOL)
    rel = _relative(unit, unit_box)
    found = "inside" if rel == 0 else ("above" if rel > 0 else "below")
    assert found == side and abs(rel) <= 1e-8, (found, rel)
    # the bracket scales with √q (μ = √q/σ): q queries at σ√q are one query at σ
    assert abs(_relative(unit * math.sqrt(queries), box)) <= 1e-8
    if side == "below":  # proved: autodp's σ is not (ε, δ)-DP
        assert analytic_gaussian_delta(epsilon, 1, F(unit), 192).lo > delta


DP_ACCOUNTING_SIGMA = [  # (n, ε, verdict of δ(ε; σ) <= 1/n at dp-accounting's σ), recorded
    (6499, F(1, 2), "safe"), (6499, F(1), "unsafe"), (6499, F(2), "unsafe"),
    (39073, F(1, 2), "safe"), (39073, F(1), "unsafe"), (39073, F(2), "safe"),
    (57847, F(1, 2), "safe"), (57847, F(1), "unsafe"), (57847, F(2), "safe"),
]


@pytest.mark.parametrize(("n", "epsilon", "verdict"), DP_ACCOUNTING_SIGMA)
def test_dp_accounting_sigma_recorded_verdict(n: int, epsilon: Fraction, verdict: str) -> None:
    """dp-accounting's get_sigma_gaussian (brentq, xtol 1e-12) at δ = 1/n of Table 3's n: each
    σ is decided exactly: δ(ε; σ) <= δ proved (safe) or δ(ε; σ) > δ proved (unsafe, by at most
    3·10⁻¹³ relative in δ); 4 of the 9 are unsafe."""
    pytest.importorskip("dp_accounting")
    from dp_accounting.gaussian_mechanism import get_sigma_gaussian  # type: ignore[import-untyped,import-not-found,unused-ignore]

    from privref.reference.accounting import analytic_gaussian_delta

    delta = F(1, n)
    sigma = F(get_sigma_gaussian(float(epsilon), 1 / n))  # the float's exact value
    box = analytic_gaussian_delta(epsilon, 1, sigma, 160)
    found = "safe" if box.hi <= delta else "unsafe" if box.lo > delta else "undecided"
    assert found == verdict, (found, float(box.lo), float(box.hi))
    assert box.lo <= delta * (1 + F(3, 10**13))
