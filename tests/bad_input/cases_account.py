"""Bad-input cases for ``privref account`` (gaussian, dpsgd, calibrate, compose, convert) and the
accountants of privref.reference.accounting and privref.reference.pld_calibration.

Usage errors exit 2 (``privref account gaussian: error: --delta ...``); an output that cannot be
written mid-run exits 3.  Grids too large for the limits are refused from an estimate before any
work, so those cases end in milliseconds.
"""

from __future__ import annotations

from .harness import EXIT_INTERNAL, Case

_GOOD = ("--queries", "4", "--epsilon", "1", "--delta", "1/1000")

_API = """
from fractions import Fraction
from privref.reference import accounting as acc
"""


def _cli(id: str, names: str, *argv: str, exit_code: int = 2) -> Case:
    return Case(id=id, names=names, argv=("account", "gaussian", *argv), exit_code=exit_code)


_DPSGD = ("--sample-rate", "1/100", "--steps", "10", "--sigma", "1", "--step", "1/50")


def _kind(kind: str, id: str, names: str, *argv: str, exit_code: int = 2) -> Case:
    return Case(id=id, names=names, argv=("account", kind, *argv), exit_code=exit_code)


def _api(id: str, names: str, body: str, error: str = "InvalidArgument") -> Case:
    return Case(id=id, names=names, api=_API + body, error=error)


CASES: list[Case] = [
    Case(id="account-no-kind", names="KIND", argv=("account",)),
    Case(id="account-unknown-kind", names="laplace|invalid choice", argv=("account", "laplace")),
    _kind("dpsgd", "account-dpsgd-rate-zero", "--sample-rate", "--sample-rate", "0", "--steps",
          "10", "--sigma", "1", "--delta", "1e-5"),
    _kind("dpsgd", "account-dpsgd-rate-above-one", "--sample-rate", "--sample-rate", "1.01",
          "--steps", "10", "--sigma", "1", "--delta", "1e-5"),
    _kind("dpsgd", "account-dpsgd-steps-huge", r"--steps.*1000000", "--sample-rate", "0.01",
          "--steps", "10" * 40, "--sigma", "1", "--delta", "1e-5"),
    _kind("dpsgd", "account-dpsgd-steps-negative", "--steps", "--sample-rate", "0.01",
          "--steps", "-3", "--sigma", "1", "--delta", "1e-5"),
    _kind("dpsgd", "account-dpsgd-sigma-zero", "--sigma", "--sample-rate", "0.01", "--steps",
          "10", "--sigma", "0", "--delta", "1e-5"),
    _kind("dpsgd", "account-dpsgd-sigma-negative", "--sigma", "--sample-rate", "0.01",
          "--steps", "10", "--sigma=-1/2", "--delta", "1e-5"),
    _kind("dpsgd", "account-dpsgd-delta-zero", "--delta", *_DPSGD, "--delta", "0"),
    _kind("dpsgd", "account-dpsgd-delta-one", "--delta", *_DPSGD, "--delta", "1"),
    _kind("dpsgd", "account-dpsgd-epsilon-nan", "--epsilon", *_DPSGD, "--epsilon", "nan"),
    _kind("dpsgd", "account-dpsgd-epsilon-inf", "--epsilon", *_DPSGD, "--epsilon", "inf"),
    _kind("dpsgd", "account-dpsgd-both-targets", "--delta|--epsilon|not allowed", *_DPSGD,
          "--delta", "1e-5", "--epsilon", "1"),
    _kind("dpsgd", "account-dpsgd-grid-too-large", r"--step.*MAX_STEP_POINTS",
          "--sample-rate", "0.01", "--steps", "10", "--sigma", "1/1000", "--delta", "1e-5"),
    _kind("dpsgd", "account-dpsgd-composed-too-large", r"MAX_COMPOSED_POINTS",
          "--sample-rate", "1/2", "--steps", "1000000", "--sigma", "1/2", "--delta", "1e-5"),
    _kind("dpsgd", "account-dpsgd-step-zero", "--step", "--sample-rate", "0.01", "--steps", "10",
          "--sigma", "1", "--delta", "1e-5", "--step", "0"),
    _kind("dpsgd", "account-dpsgd-json-dev-full", "--json", *_DPSGD, "--delta", "1e-3",
          "--json", "/dev/full", exit_code=EXIT_INTERNAL),
    _kind("calibrate", "account-calibrate-epsilon-nan", "--epsilon", "--epsilon", "nan",
          "--delta", "1e-5", "--steps", "10"),
    _kind("calibrate", "account-calibrate-epsilon-zero", "--epsilon", "--epsilon", "0",
          "--delta", "1e-5", "--steps", "10"),
    _kind("calibrate", "account-calibrate-delta-negative", "--delta", "--epsilon", "1",
          "--delta", "-1e-5", "--steps", "10"),
    _kind("calibrate", "account-calibrate-delta-trivial", r"--delta.*1 - \(1 - rate\)",
          "--epsilon", "1", "--delta", "1/2", "--steps", "1", "--sample-rate", "1/2"),
    _kind("calibrate", "account-calibrate-tolerance-zero", "--tolerance", "--epsilon", "1",
          "--delta", "1e-5", "--steps", "10", "--tolerance", "0"),
    _kind("calibrate", "account-calibrate-steps-missing", "--steps", "--epsilon", "1",
          "--delta", "1e-5"),
    _kind("compose", "account-compose-unknown-kind", "--mechanism.*KIND", "--mechanism",
          "exponential:1", "--delta", "1e-5"),
    _kind("compose", "account-compose-sigma-zero", "--mechanism gaussian", "--mechanism",
          "gaussian:0", "--delta", "1e-5"),
    _kind("compose", "account-compose-count-huge", "COUNT", "--mechanism",
          "laplace:1:99999999999", "--delta", "1e-5"),
    _kind("compose", "account-compose-missing-rate", "subsampled-gaussian:SIGMA:RATE",
          "--mechanism", "subsampled-gaussian:1", "--delta", "1e-5"),
    _kind("compose", "account-compose-rate-zero", "RATE", "--mechanism",
          "subsampled-gaussian:1:0", "--delta", "1e-5"),
    _kind("compose", "account-compose-mixed-relations", "neighbour relations", "--mechanism",
          "randomized-response:1", "--mechanism", "subsampled-gaussian:1:1/10", "--delta",
          "1e-5"),
    _kind("compose", "account-compose-grid-too-large", r"--step", "--mechanism",
          "gaussian:1/10000", "--epsilon", "1"),
    _kind("compose", "account-compose-epsilon-nan", "--epsilon", "--mechanism", "laplace:1",
          "--epsilon", "nan"),
    _kind("convert", "account-convert-no-source", "--rho|--rdp|--mu", "--delta", "1e-5"),
    _kind("convert", "account-convert-rho-negative", "--rho", "--rho", "-1", "--delta", "1e-5"),
    _kind("convert", "account-convert-rdp-order-one", "--rdp alpha", "--rdp", "1:1", "--delta",
          "1e-5"),
    _kind("convert", "account-convert-rdp-malformed", "--rdp", "--rdp", "2-1", "--delta",
          "1e-5"),
    _kind("convert", "account-convert-rdp-epsilon", "--rdp needs --delta", "--rdp", "2:1",
          "--epsilon", "1"),
    _kind("convert", "account-convert-mu-inf", "--mu", "--mu", "inf", "--epsilon", "1"),
    _kind("convert", "account-convert-delta-one", "--delta", "--mu", "1", "--delta", "1"),
    _cli("account-missing-queries", "--queries", "--epsilon", "1", "--delta", "0.1"),
    _cli("account-queries-zero", "--queries", "--queries", "0", "--epsilon", "1", "--delta", "0.1"),
    _cli("account-queries-fraction", "--queries", "--queries", "5/2", "--epsilon", "1",
         "--delta", "0.1"),
    _cli("account-epsilon-zero", "--epsilon", "--queries", "3", "--epsilon", "0", "--delta", "0.1"),
    _cli("account-epsilon-nan", "--epsilon", "--queries", "3", "--epsilon", "nan", "--delta", "0.1"),
    _cli("account-delta-zero", "--delta", "--queries", "3", "--epsilon", "1", "--delta", "0"),
    _cli("account-delta-one", "--delta", "--queries", "3", "--epsilon", "1", "--delta", "1"),
    _cli("account-delta-tiny", "--delta", "--queries", "3", "--epsilon", "1", "--delta", "1e-999"),
    _cli("account-realized-zero", "--realized", *_GOOD, "--realized", "0"),
    _cli("account-realized-inf", "--realized", *_GOOD, "--realized", "inf"),
    _cli("account-json-is-directory", "--json", *_GOOD, "--json", "{cwd}"),
    _cli("account-json-dev-full", "--json", *_GOOD, "--json", "/dev/full",
         exit_code=EXIT_INTERNAL),
    _api("api-account-calibrate-queries", "queries", "acc.calibrate_sigma(0, 1, Fraction(1, 10))"),
    _api("api-account-ex-post-sigma", "sigma", "acc.epsilon_ex_post(0, 3, Fraction(1, 10))"),
    _api("api-account-classical-epsilon", "epsilon", "acc.classical_gaussian_sigma(10, Fraction(1, 10**5))"),
    _api("api-account-prec", "prec", "acc.normal_cdf(1, prec=10**9)"),
    _api("api-dpsgd-rate", "rate", "from privref.reference import pld_calibration as pc\n"
         "pc.calibrate_dpsgd_sigma(2, 10, 1, Fraction(1, 10**5))"),
    _api("api-dpsgd-steps", "steps", "from privref.reference import pld_calibration as pc\n"
         "pc.dpsgd_delta(1, Fraction(1, 10), 10**7, 1)"),
    _api("api-dpsgd-grid", "MAX_STEP_POINTS", "from privref.reference import pld_calibration "
         "as pc\npc.dpsgd_pld(Fraction(1, 10**4), Fraction(1, 10), 'add', 10)",
         error="TooLargeToEnumerate"),
]
