"""Regression cases of ``privref check-accountant``: one per public issue listed in issue 35 that the
installed libraries reach, each decided exactly against privref's enclosure.

A library's answer is computed in-process by the adapter's own snippet (the code the command runs
and prints), and classified by :func:`privref.app.accountants.certify.classify`.  A bug fixed
upstream is asserted twice: the recorded value of the version that had it (a constant, with its
source) and the installed version's behaviour.  Issues not reachable here are listed in
docs/accountant-check.md with the reason (Opacus needs PyTorch; SmartNoise and Google's C++ library
are not Python packages we install; prv_accountant issue 17's own subsampled δ ≈ 1e-18 is below
what privref's 63-bit PLD masses can certify).
"""

from __future__ import annotations

import math
from fractions import Fraction
from importlib import metadata
from typing import Any

import pytest

from privref.app.accountants.certify import certify, classify
from privref.app.accountants.registry import LIBRARIES
from privref.app.accountants.tasks import find
from privref.reference import pld
from privref.reference.errors import TooLargeToEnumerate


def _run(library: str, method: str, task_id: str) -> tuple[float, ...]:
    """The library's answer to the grid task, by the adapter's snippet, in this process."""
    lib = LIBRARIES[library]
    pytest.importorskip(lib.module)
    (chosen,) = [m for m in lib.methods if m.name == method]
    scope: dict[str, Any] = {}
    exec(chosen.snippet(find(task_id)), scope)
    result = scope["result"]
    return tuple(result) if isinstance(result, tuple) else (float(result),)


# --- OpenDP pull request 2820 -----------------------------------------------------------------

OPENDP_2820 = "https://github.com/opendp/opendp/pull/2820"
FIXED = {"zcdp-r0.05-e0.25": 8.17727531036956e-2, "zcdp-r5e-30-e1e-13": 2.619676329730346e-234}
"""cdp_delta after the fix (the regression values quoted in issue 35 from OPENDP_2820)."""
BEFORE_FIX = {"zcdp-r0.05-e0.25": 0.08177275310369558, "zcdp-r5e-30-e1e-13": 2.6196763297300477e-234}
"""cdp_delta of opendp 0.16.0, before OPENDP_2820 (recorded on this machine): the first is one ulp
below the fixed value, the "1 ulp lower" rounding the pull request fixed."""


def test_opendp_2820_recorded_values_decided_exactly() -> None:
    """Both the fixed and the pre-fix values lie above the CKS conversion's certified δ (its
    infimum over α): the pre-fix rounding was anti-conservative only with respect to the bound
    at OpenDP's own α, and at these two points it is still a valid conversion."""
    assert BEFORE_FIX["zcdp-r0.05-e0.25"] == math.nextafter(FIXED["zcdp-r0.05-e0.25"], 0)
    for task_id in FIXED:
        cert = certify(find(task_id))
        assert classify(cert, FIXED[task_id]).cls == "conservative"
        assert classify(cert, BEFORE_FIX[task_id]).cls == "conservative"
        # the fixed value is the larger: the fix moved the answer up, never down
        assert Fraction(BEFORE_FIX[task_id]) < Fraction(FIXED[task_id])


@pytest.mark.parametrize("task_id", sorted(FIXED))
def test_opendp_2820_installed_version(task_id: str) -> None:
    (value,) = _run("opendp", "make_zCDP_to_approxDP .delta (cdp_delta)", task_id)
    version = metadata.version("opendp")
    expected = BEFORE_FIX if version == "0.16.0" else FIXED
    assert value == expected[task_id], (version, value)
    assert classify(certify(find(task_id)), value).cls == "conservative"


# --- prv_accountant issue 17 ------------------------------------------------------------------

PRV_17 = "https://github.com/microsoft/prv_accountant/issues/17"


def test_prv_17_tiny_delta_is_refused_not_answered_unsafely() -> None:
    """PRV_17: ε jumps from 0.056 to 3.8 between δ = 1.1e-18 and 1.13e-18 (subsampled, q =
    0.00033: privref's PLD refuses that δ, next test).  At q = 1 and δ = 1e-18 prv-accountant
    0.2.0 refuses (ValueError: floating point errors will dominate) instead of answering."""
    with pytest.raises(ValueError, match="Floating point errors will dominate"):
        _run("prv-accountant", "PRVAccountant.compute_epsilon", "eps-s2.0-R1-d1e-18")
    upper, _ = _run("prv-accountant", "PRVAccountant.compute_epsilon", "eps-s2.0-R1-d1e-10")
    cert = certify(find("eps-s2.0-R1-d1e-10"))
    assert classify(cert, upper).cls == "conservative"


def test_prv_17_own_task_is_refused_by_the_certified_pld_not_answered() -> None:
    """PRV_17's task (q = 0.00033, σ = 4, 10⁴ steps, δ = 1.1e-18): privref's pessimistic grid
    keeps at least one mass unit (2^-63) per step at +∞, about 1.4e-15 after 10⁴ steps, so no
    finite ε is proved at δ = 1.1e-18 and ``epsilon`` refuses instead of returning a number."""
    remove = pld.poisson_subsampled_gaussian_pld(4, Fraction(0.00033), "remove",
                                                 step=Fraction(1, 50), bits=63)
    composed = remove.self_compose(10_000)
    assert Fraction(composed.upper.infinity, 1 << 63) > Fraction(1.13e-18)
    with pytest.raises(TooLargeToEnumerate, match="infinite loss"):
        composed.epsilon(Fraction(1.1e-18))


# --- Google's PLD past e^709 (differential-privacy pull request 430) ------------------------

GOOGLE_430 = "https://github.com/google/differential-privacy/pull/430"


def test_overflow_past_709_is_nan_in_prv_accountant() -> None:
    """GOOGLE_430: Google's C++ PLD returned NaN for ε ≳ 709 (e^ε overflows a float); the C++
    library is not installed here.  prv-accountant 0.2.0 shows the same failure: δ at ε = 709 is
    answered (and its upper bound is conservative), at ε = 710 it is NaN (``invalid``)."""
    cert709, cert710 = certify(find("delta-s0.02631578947368421-R1-e709.0")), \
        certify(find("delta-s0.02631578947368421-R1-e710.0"))
    upper, _ = _run("prv-accountant", "PRVAccountant.compute_delta", cert709.task.id)
    assert classify(cert709, upper).cls == "conservative"
    upper, estimate = _run("prv-accountant", "PRVAccountant.compute_delta", cert710.task.id)
    assert classify(cert710, upper).cls == classify(cert710, estimate).cls == "invalid"


# --- SmartNoise issue 462: the classical Gaussian σ at ε >= 1 -------------------------------

SMARTNOISE_462 = "https://github.com/opendp/smartnoise-sdk/issues/462"


def test_smartnoise_462_classical_sigma_at_epsilon_10_is_unsafe() -> None:
    """SMARTNOISE_462: SmartNoise used σ = √(2 ln(1.25/δ))·Δ/ε outside ε < 1 (fixed in 2022 by the
    analytic Gaussian).  SmartNoise is not installed; the formula's float at ε = 10, δ = 1e-5 is
    proved below the least safe σ."""
    classical = math.sqrt(2 * math.log(1.25 / 1e-5)) / 10.0
    cert = certify(find("sigma-R1-e10.0-d1e-05"))
    verdict = classify(cert, classical)
    assert verdict.cls == "unsafe" and verdict.relative is not None and verdict.relative < -0.02


# --- autodp (what paper 001 used) -------------------------------------------------------------

AUTODP_EPS = {"eps-s2.0-R1-d1e-18": 4.3366817594743186, "eps-s30.0-R1-d0.001": 0.05002240994739295}
"""autodp 0.2.3.1's dp_bank.get_eps_ana_gaussian on two grid tasks (recorded on this machine)."""


@pytest.mark.parametrize("task_id", sorted(AUTODP_EPS))
def test_autodp_analytic_epsilon_unsafe_inside_the_enclosure(task_id: str) -> None:
    cert = certify(find(task_id))
    assert classify(cert, AUTODP_EPS[task_id]).cls == "unsafe"
    (value,) = _run("autodp", "dp_bank.get_eps_ana_gaussian", task_id)
    if metadata.version("autodp") == "0.2.3.1":
        assert value == AUTODP_EPS[task_id]
