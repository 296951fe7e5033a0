"""Bad-input cases for ``privref account gaussian`` and the accountants of privref.reference.accounting.

Usage errors exit 2 (``privref account gaussian: error: --delta ...``); an output that cannot be
written mid-run exits 3.
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


def _api(id: str, names: str, body: str, error: str = "InvalidArgument") -> Case:
    return Case(id=id, names=names, api=_API + body, error=error)


CASES: list[Case] = [
    Case(id="account-no-kind", names="KIND", argv=("account",)),
    Case(id="account-unknown-kind", names="laplace|invalid choice", argv=("account", "laplace")),
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
]
