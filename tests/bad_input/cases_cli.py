"""Bad-input cases for the ``privref`` command (audit, lemmas, learn, illustrate, the top level)
and for the exact side of the Python API (reference/ and privref.audits.exact).

Exit codes (documented in ``privref --help``): 2 for a usage error (bad flag, bad value,
an output path unusable before the run), 3 when a result could not be written mid-run.
"""

from __future__ import annotations

from collections.abc import Mapping

from .harness import EXIT_INTERNAL, Case

RR = "randomized response"  # the fastest built-in audit (--only)
LEMMA = "004 Observation 3.2"  # a ledger entry

_API = """
from fractions import Fraction
import numpy as np
from privref import PrivacyClaim, Universe, audit, audit_pair, distribution, sample
from privref.reference.randomized_response import randomized_response
from privref.reference.exponential import exponential_learner
from privref.reference.concepts import thresholds_on
from privref.reference.data import labeled
from privref.reference.program import uniform
from privref.reference.privacy import parse_epsilon, group_privacy
from privref.reference.reals import Interval, exp, log, interval_exp, compare, rational
from privref.reference.validate import check_delta, to_fraction
rr = randomized_response(Fraction(3, 4))
"""


def _api(id: str, names: str, body: str, error: str = "PrivrefError") -> Case:
    return Case(id=id, names=names, api=_API + body, error=error)


def _cli(id: str, names: str, *argv: str, exit_code: int = 2,
         files: Mapping[str, str | bytes] | None = None) -> Case:
    return Case(id=id, names=names, argv=argv, exit_code=exit_code, files=files or {})


_FILE: Mapping[str, str | bytes] = {"plain.txt": "not a folder\n"}

CASES: list[Case] = [
    # ---------------------------------------------------------------- top level
    _cli("cli-unknown-command", "frobnicate|invalid choice", "frobnicate"),
    _cli("cli-unknown-flag", "--frob", "--frob"),
    _cli("cli-no-command", "COMMAND"),
    _cli("cli-audit-unknown-flag", "--frob", "audit", "--frob"),
    # ---------------------------------------------------------------- privref audit
    _cli("audit-only-matches-nothing", "--only", "audit", "--only", "no-such-mechanism"),
    _cli("audit-only-empty", "--only", "audit", "--only", ""),
    _cli("audit-json-is-directory", "--json", "audit", "--only", RR, "--json", "{cwd}"),
    _cli("audit-json-missing-folder", "--json", "audit", "--only", RR, "--json",
         "{cwd}/missing/out.json"),
    _cli("audit-json-parent-is-file", "--json", "audit", "--only", RR, "--json",
         "{cwd}/plain.txt/out.json", files=_FILE),
    _cli("audit-json-empty", "--json", "audit", "--only", RR, "--json", ""),
    _cli("audit-json-dev-full", "--json", "audit", "--only", RR, "--json", "/dev/full",
         exit_code=EXIT_INTERNAL),
    _cli("audit-deep-with-value", "yes|unrecognized", "audit", "--deep", "yes"),
    # ---------------------------------------------------------------- privref lemmas
    _cli("lemmas-id-matches-nothing", "--id", "lemmas", "--id", "999 Nonexistent 9.9"),
    _cli("lemmas-id-empty", "--id", "lemmas", "--id", ""),
    _cli("lemmas-json-is-directory", "--json", "lemmas", "--id", LEMMA, "--json", "{cwd}"),
    _cli("lemmas-json-missing-folder", "--json", "lemmas", "--id", LEMMA, "--json",
         "{cwd}/missing/l.json"),
    _cli("lemmas-markdown-is-directory", "--markdown", "lemmas", "--id", LEMMA, "--markdown",
         "{cwd}"),
    _cli("lemmas-markdown-parent-is-file", "--markdown", "lemmas", "--id", LEMMA,
         "--markdown", "{cwd}/plain.txt/l.md", files=_FILE),
    _cli("lemmas-json-dev-full", "--json", "lemmas", "--id", LEMMA, "--json", "/dev/full",
         exit_code=EXIT_INTERNAL),
    _cli("lemmas-markdown-dev-full", "--markdown", "lemmas", "--id", LEMMA, "--markdown",
         "/dev/full", exit_code=EXIT_INTERNAL),
    # ---------------------------------------------------------------- privref learn
    _cli("learn-alpha-nan", "--alpha", "learn", "--quick", "--alpha", "nan"),
    _cli("learn-alpha-zero", "--alpha", "learn", "--quick", "--alpha", "0"),
    _cli("learn-alpha-negative", "--alpha", "learn", "--quick", "--alpha=-1/4"),
    _cli("learn-alpha-huge", "--alpha", "learn", "--quick", "--alpha", "1e400"),
    _cli("learn-beta-one", "--beta", "learn", "--quick", "--beta", "1"),
    _cli("learn-beta-garbage", "--beta", "learn", "--quick", "--beta", "abc"),
    _cli("learn-epsilon-zero", "--epsilon", "learn", "--quick", "--epsilon", "0"),
    _cli("learn-epsilon-negative", "--epsilon", "learn", "--quick", "--epsilon=-1"),
    _cli("learn-epsilon-huge", "--epsilon", "learn", "--quick", "--epsilon", "1e9"),
    _cli("learn-epsilon-inf", "--epsilon", "learn", "--quick", "--epsilon", "inf"),
    _cli("learn-runs-zero", "--runs", "learn", "--runs", "0"),
    _cli("learn-runs-huge", "--runs", "learn", "--runs", "1000000000"),
    _cli("learn-runs-not-int", "--runs", "learn", "--runs", "1.5"),
    _cli("learn-runs-list", "--runs", "learn", "--runs", "5,6"),
    _cli("learn-dims-zero", "--dims", "learn", "--dims", "0"),
    _cli("learn-dims-huge", "--dims", "learn", "--dims", "60"),
    _cli("learn-dims-garbage", "--dims", "learn", "--dims", "a,b"),
    _cli("learn-dims-empty", "--dims", "learn", "--dims", ""),
    _cli("learn-labeled-negative", "--labeled|labeled", "learn", "--labeled=-3"),
    _cli("learn-labeled-huge", "--labeled|labeled", "learn", "--labeled", "1000000000"),
    _cli("learn-unlabeled-huge", "--unlabeled|unlabeled", "learn", "--unlabeled",
         "1000000000"),
    _cli("learn-seed-negative", "--seed", "learn", "--seed=-1"),
    _cli("learn-seed-huge", "--seed", "learn", "--seed", "1" + "0" * 40),
    _cli("learn-seed-garbage", "--seed", "learn", "--seed", "x"),
    _cli("learn-quick-with-runs", "--quick|--runs", "learn", "--quick", "--runs", "5"),
    _cli("learn-unknown-learner", "--learners|learner", "learn", "--learners", "nope"),
    _cli("learn-unknown-family", "--families|family", "learn", "--families", "nope"),
    _cli("learn-grid-too-large", "runs|grid", "learn", "--runs", "10000", "--dims",
         "2,3,4,5,6,7,8", "--labeled", "2,4,8,16,32,64,128,256"),
    _cli("learn-json-is-directory", "--json", "learn", "--quick", "--json", "{cwd}"),
    _cli("learn-png-missing-folder", "--png", "learn", "--quick", "--png",
         "{cwd}/missing/l.png"),
    _cli("learn-json-dev-full", "--json", "learn", "--quick", "--learners", "klnrs",
         "--families", "thresholds", "--json", "/dev/full", exit_code=EXIT_INTERNAL),
    # ---------------------------------------------------------------- privref illustrate
    _cli("illustrate-unknown-which", "nope|invalid choice", "illustrate", "nope"),
    _cli("illustrate-runs-garbage", "--runs", "illustrate", "semiprivate", "--runs", "x"),
    _cli("illustrate-runs-zero", "--runs", "illustrate", "semiprivate", "--runs", "0"),
    _cli("illustrate-runs-huge", "--runs", "illustrate", "public", "--runs", "1000000000"),
    _cli("illustrate-seed-negative", "--seed", "illustrate", "public", "--seed=-5"),
    _cli("illustrate-seed-huge", "--seed", "illustrate", "public", "--seed", "9" * 30),
    _cli("illustrate-quick-with-runs", "--quick|--runs", "illustrate", "semiprivate",
         "--quick", "--runs", "5"),
    _cli("illustrate-json-is-directory", "--json", "illustrate", "littlestone", "--quick",
         "--json", "{cwd}"),
    _cli("illustrate-png-missing-folder", "--png", "illustrate", "littlestone", "--quick",
         "--png", "{cwd}/missing/x.png"),
    _cli("illustrate-json-dev-full", "--json", "illustrate", "littlestone", "--quick",
         "--json", "/dev/full", exit_code=EXIT_INTERNAL),
    # ---------------------------------------------------------------- API: claims, reals
    _api("api-claim-nan-string", "epsilon", "PrivacyClaim.of('nan')"),
    _api("api-claim-nan-float", "epsilon", "PrivacyClaim.of(float('nan'))"),
    _api("api-claim-inf-float", "epsilon", "PrivacyClaim.of(float('inf'))"),
    _api("api-claim-negative", "epsilon=-1 must be >= 0", "PrivacyClaim.of(-1)"),
    _api("api-claim-delta-one", "delta=1 must be < 1", "PrivacyClaim.of(1, 1)"),
    _api("api-claim-delta-float-one", "delta=1 must be < 1", "PrivacyClaim.of(1, 1.0)"),
    _api("api-claim-exp-exp", "epsilon", "PrivacyClaim.of('exp(exp(100))')"),
    _api("api-claim-bool", "epsilon", "PrivacyClaim.of(True)"),
    _api("api-epsilon-ln-zero", "epsilon", "parse_epsilon('ln(0)')"),
    _api("api-group-privacy-huge-epsilon", "delta|2\\^|magnitude",
         "group_privacy(PrivacyClaim.of('1e400', '1/10'), 2)"),
    _api("api-check-delta-inf", "delta", "check_delta(float('inf'))"),
    _api("api-to-fraction-list", "x=", "to_fraction([1], 'x')"),
    _api("api-interval-reversed", "lo=", "Interval(Fraction(1), Fraction(0))"),
    _api("api-log-negative", "log", "log(-1)"),
    _api("api-exp-1e400-enclose", "2\\^|magnitude", "exp(Fraction(10**400)).enclose()"),
    _api("api-interval-exp-huge", "2\\^|magnitude",
         "interval_exp(Interval(Fraction(10**6), Fraction(10**6)))"),
    # ---------------------------------------------------------------- API: mechanisms, audits
    _api("api-rr-keep-float-too-big", "keep", "randomized_response(1.5)"),
    _api("api-rr-keep-nan", "keep", "randomized_response(float('nan'))"),
    _api("api-thresholds-negative", "n_points=-1", "thresholds_on(-1)"),
    _api("api-universe-duplicates", "elements", "Universe((0, 0), (1,))"),
    _api("api-universe-negative-size", "sizes", "Universe((0, 1), (-1,))"),
    _api("api-universe-no-pairs", "universe|neighboring pairs",
         "audit(rr, Universe((0,), (1,)))"),
    _api("api-universe-too-large", "limit", "audit(rr, Universe(tuple(range(60)), (8,)))"),
    _api("api-audit-pair-not-neighbors", "not neighbors", "audit_pair(rr, (0, 0), (1, 1))"),
    _api("api-audit-precision", "precision=8", "audit(rr, Universe((0, 1), (1,)), precision=8)"),
    _api("api-distribution-garbage", "42|Choice",
         "def g():\n    x = yield 42\n    return x\ndistribution(g)"),
    _api("api-sample-bad-rng", "rng",
         "def g():\n    x = yield from uniform(2)\n    return x\nsample(g, rng=42)"),
    _api("api-exponential-huge-epsilon-sample", "rng",
         "H = list(thresholds_on(3))\n"
         "m = exponential_learner(H, epsilon=10**9)\n"
         "data = (labeled(0, 1), labeled(2, 0))\n"
         "d = m.distribution(data)\n"
         "assert len(d.support()) >= 1\n"
         "m.sample(data, rng=42)"),
    _api("api-exponential-huge-epsilon-audit", "precision=8",
         "H = list(thresholds_on(2))\n"
         "m = exponential_learner(H, epsilon=10**9)\n"
         "U = Universe(tuple(labeled(x, y) for x in range(2) for y in (0, 1)), (1,))\n"
         "r = audit(m, U)\n"
         "assert r.verdict.value != 'VIOLATED', r.verdict\n"
         "audit(m, U, precision=8)"),
    _api("api-rr-huge-claim-holds", "precision=8",
         "U = Universe((0, 1), (1,))\n"
         "r = audit(rr, U, claim=PrivacyClaim.of(10**9))\n"
         "assert r.verdict.value == 'HOLDS', r.verdict\n"
         "audit(rr, U, precision=8)"),
    _api("api-assert-private-nan", "epsilon",
         "from privref import assert_private\n"
         "assert_private(lambda data, rng: 0, epsilon=float('nan'))"),
]
