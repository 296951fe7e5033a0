"""The pytest plugin's decorator, privref.testing.audit: every bad setting and a mechanism that
cannot be audited are refused when the decorator is applied (at the test module's import),
with one line naming the argument and what is allowed (docs/pytest-plugin.md)."""

from __future__ import annotations

from .harness import Case

HEAD = '''
import privref
import privref.testing


def undeclared(data, rng):
    return data[0]


@privref.declare(epsilon="ln(3)", relation="substitution", pairs=[([0], [1])])
def rr(data, rng):
    return data[0] if rng.random() < 0.75 else 1 - data[0]

'''


def _api(id: str, names: str, code: str) -> Case:
    return Case(id=f"testing-api-{id}", names=names, api=HEAD + code, error="InvalidArgument")


CASES = [
    _api("confidence-one", r"privref\.testing\.audit: confidence=1 must lie in \(0, 1\)",
         "privref.testing.audit(confidence=1)(rr)"),
    _api("confidence-text", r"confidence.*'sure'",
         "privref.testing.audit(confidence='sure')(rr)"),
    _api("confidence-too-close", r"confidence=.* must be <= 1 - 10\*\*-15",
         "privref.testing.audit(confidence='0.9999999999999999')(rr)"),
    _api("samples-text", r"samples='many' must be an int in \[2, 10\*\*10\]",
         "privref.testing.audit(samples='many')(rr)"),
    _api("seed-too-large", r"seed=340282366920938463463374607431768211456 must be an int in "
         r"\[0, 2\*\*128 - 1\]", "privref.testing.audit(seed=2**128)(rr)"),
    _api("expect", r"expect='ok' must be one of VIOLATION, NO_VIOLATION_FOUND",
         "privref.testing.audit(expect='ok')(rr)"),
    _api("unknown-option", r"unknown option\(s\) \['epsilom'\]; allowed: expect, .*epsilon",
         "privref.testing.audit(epsilom=1)(rr)"),
    _api("undeclared", r"undeclared declares no privacy claim and no epsilon= is given",
         "privref.testing.audit()(undeclared)"),
    _api("not-callable", r"'rr' is a str, not a mechanism", "privref.testing.audit()('rr')"),
]
