"""Malformed values of ``privref table4``'s active-student flags (--active-rule, --c0,
--c0-sweep, --sweep-runs, --iwal-gap): each ends in one InvalidArgument naming the flag and its
limit, before any data are read."""

from __future__ import annotations

from .harness import Case

_HEAD = """
import argparse
from privref.app.commands import table4 as pe
parser = argparse.ArgumentParser(prog='privref table4')
pe.configure_parser(parser)
parser.add_argument('--quiet', action='store_true')
def table4(*argv):
    return pe.run(parser.parse_args(list(argv) + ['--quiet']))
"""


def _api(id: str, names: str, body: str) -> Case:
    return Case(id=id, names=names, api=_HEAD + body, error="InvalidArgument", files={})


CASES: list[Case] = [
    _api("table4-students-rule-unknown", r"--active-rule='margin' must be one of iwal, agnostic, cal",
         "table4('--active-rule', 'margin')"),
    _api("table4-c0-zero", r"--c0='0' must be a number in \(0, 100\]", "table4('--c0', '0')"),
    _api("table4-c0-negative", r"--c0='-1e-5' must be a number in \(0, 100\]",
         "table4('--c0=-1e-5')"),
    _api("table4-c0-too-large", r"--c0='1000' must be a number in \(0, 100\]",
         "table4('--c0', '1000')"),
    _api("table4-c0-not-a-number", r"--c0='nan' must be a number in \(0, 100\]",
         "table4('--c0', 'nan')"),
    _api("table4-c0-tiny", r"--c0='1e-400' is below the smallest positive float",
         "table4('--c0', '1e-400')"),
    _api("table4-c0-sweep-too-many", r"--c0-sweep has 11 values; at most 10",
         "table4('--c0-sweep', ','.join(['1'] * 11))"),
    _api("table4-c0-sweep-repeat", r"--c0-sweep='1e-5,0.00001' repeats a value",
         "table4('--c0-sweep', '1e-5,0.00001')"),
    _api("table4-c0-sweep-empty-value", r"--c0-sweep='' must be a number",
         "table4('--c0-sweep', '1e-5,')"),
    _api("table4-c0-sweep-other-rule", r"--c0-sweep needs --active-rule iwal",
         "table4('--c0-sweep', '1e-5', '--active-rule', 'cal')"),
    _api("table4-sweep-runs-above-runs", r"--sweep-runs=5 must be an int in \[1, 2\]",
         "table4('--runs', '2', '--sweep-runs', '5')"),
]
