"""Bad input to ``privref audit-library`` and to approximate-zCDP declarations (issue 37).

A library that is not installed (exit 6) and a version outside the tested range (exit 2) depend
on what is installed, so they are checked with a fake library in tests/app/test_library_cli.py.
"""

from __future__ import annotations

from .harness import EXIT_USAGE, Case


def _cli(id: str, names: str, *argv: str, exit_code: int = EXIT_USAGE) -> Case:
    return Case(id=f"library-{id}", names=names, argv=("audit-library", *argv),
                exit_code=exit_code)


def _api(id: str, names: str, body: str, error: str = "PrivrefError") -> Case:
    return Case(id=f"library-api-{id}", names=names, api=body, error=error)


CASES = [
    _cli("no-name", "NAME is required: one of opendp"),
    _cli("unknown-name", "NAME='numpy' is not a library with a shipped suite; known: opendp",
         "numpy"),
    _cli("empty-name", "NAME='' is not a library", ""),
    _cli("workers-zero", "--workers", "opendp", "--workers", "0"),
    _cli("workers-text", "--workers", "opendp", "--workers", "many"),
    _cli("json-is-directory", "--json", "opendp", "--json", "."),
    _cli("html-missing-folder", "--html", "opendp", "--html", "no/such/folder/r.html"),
    _cli("coverage-markdown-is-directory", "--coverage-markdown", "--coverage-markdown", "."),
    _api("approx-delta-without-rho", r"declare\(approx_delta=...\) needs rho",
         "from privref.audits.blackbox import declare\ndeclare(epsilon=1, approx_delta='1/10')",
         error="TargetLoadError"),
    _api("approx-delta-one", "approx_delta=1 must be < 1",
         "from privref.audits.blackbox import declare\ndeclare(rho=1, approx_delta=1)",
         error="TargetLoadError"),
    _api("approx-delta-negative", "approx_delta=-1/10 must be >= 0",
         "from privref.reference.privacy import ZCDPClaim\nZCDPClaim.of(1, None, '-1/10')",
         error="InvalidArgument"),
    _api("approx-delta-above-delta", "delta=1/100 must exceed approx_delta=1/10",
         "from privref.reference.privacy import ZCDPClaim\nZCDPClaim.of(1, '1/100', '1/10')",
         error="InvalidArgument"),
    _api("approx-delta-audited-below", "must exceed the claim's approx_delta=1/10",
         "from fractions import Fraction\n"
         "from privref.reference.privacy import ZCDPClaim\n"
         "from privref.audits.blackbox.declarations import audited_point\n"
         "audited_point(ZCDPClaim.of(1, None, '1/10'), Fraction(1, 20))",
         error="InvalidArgument"),
    _api("approx-zcdp-exact-curve", "approximate zCDP is not decided from the Renyi curve",
         "from privref.reference.privacy import ZCDPClaim\n"
         "from privref.audits.curves import zcdp_verdict\n"
         "zcdp_verdict(None, ZCDPClaim.of(1, None, '1/10'))",
         error="InvalidArgument"),
]
