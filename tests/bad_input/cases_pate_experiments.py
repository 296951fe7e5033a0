"""Malformed inputs to ``privref table4`` (privref.app.pate_experiments, 001 Table 4's experiment).

The command is reached through its own parser (``configure_parser`` + ``run``), as privref.app.cli
wires it.  Each case must end in one typed privref error whose one-line message names the flag
(and, for file content, the path and line; see harness.py).
"""

from __future__ import annotations

from collections.abc import Mapping

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

_TINY = "".join(f"{'+1' if i % 3 else '-1'} {1 + i % 5}:1\n" for i in range(40))
_GOOD = "".join(f"{'+1' if i % 3 else '-1'} {1 + i % 5}:1\n" for i in range(400))


def _api(id: str, names: str, body: str, error: str = "InvalidArgument",
         files: Mapping[str, str | bytes] | None = None) -> Case:
    return Case(id=id, names=names, api=_HEAD + body, error=error, files=files or {})


CASES: list[Case] = [
    _api("table4-runs-zero", r"--runs=0 must be an int in \[1, 1000\]", "table4('--runs', '0')"),
    _api("table4-runs-too-many", r"--runs=1001", "table4('--runs', '1001')"),
    _api("table4-epsilon-zero", r"--epsilons: 0 must lie in \(0, 100\]",
         "table4('--epsilons', '1,0')"),
    _api("table4-epsilon-negative", r"--epsilons: -1/2 must lie", "table4('--epsilons=-1/2')"),
    _api("table4-epsilon-not-a-number", r"--epsilons='one'", "table4('--epsilons', 'one')"),
    _api("table4-delta-one", r"--delta=1 must lie in the open interval \(0, 1\)",
         "table4('--delta', '1')"),
    _api("table4-delta-above-one", r"--delta=3/2", "table4('--delta', '3/2')"),
    _api("table4-budget-zero", r"--budget=0 must be an int in \[1,", "table4('--budget', '0')"),
    _api("table4-budget-above-public", r"--budget=50 must lie in \[1, 8\]",
         "table4('--datasets', '', '--libsvm', '{cwd}/good.txt', '--budget', '50')",
         files={"good.txt": _GOOD}),
    _api("table4-teachers-above-private", r"--teachers=400 must lie in \[1, 320\]",
         "table4('--datasets', '', '--libsvm', '{cwd}/good.txt', '--teachers', '400')",
         files={"good.txt": _GOOD}),
    _api("table4-too-few-rows-for-teachers", r"--teachers: rows=40 give 32 private rows, too few",
         "table4('--datasets', '', '--libsvm', '{cwd}/tiny.txt')", files={"tiny.txt": _TINY}),
    _api("table4-unknown-dataset", r"--datasets='real-sim'", "table4('--datasets', 'real-sim')"),
    _api("table4-seed-negative", r"--seed=-1", "table4('--seed', '-1')"),
    _api("table4-jobs-zero", r"--jobs=0", "table4('--jobs', '0', '--datasets', '', '--libsvm', "
                                         "'{cwd}/good.txt')", files={"good.txt": _GOOD}),
    _api("table4-missing-file", r"--libsvm .*nope\.txt.*cannot be read",
         "table4('--datasets', '', '--libsvm', '{cwd}/nope.txt')"),
    _api("table4-malformed-file", r"--libsvm .*bad\.txt' line 2: '2-1' is not of the form",
         "table4('--datasets', '', '--libsvm', '{cwd}/bad.txt')",
         files={"bad.txt": "+1 1:1\n-1 2-1\n"}),
    _api("table4-non-binary-labels", r"--libsvm .*bad\.txt' line 2: label '2' is not binary",
         "table4('--datasets', '', '--libsvm', '{cwd}/bad.txt')", error="UnknownLabel",
         files={"bad.txt": "1 1:1\n2 2:1\n"}),
    _api("table4-empty-data-dir", r"--data-dir \(mushroom\).*agaricus\.txt\.train.*cannot be read",
         "table4('--datasets', 'mushroom', '--data-dir', '{cwd}')"),
    _api("table4-compare-json-not-json", r"--compare-json=.*x\.json.*cannot be read as JSON",
         "table4('--compare-json', '{cwd}/x.json')", files={"x.json": "{not json"}),
    _api("table4-json-is-a-directory", r"--json", "table4('--datasets', '', '--libsvm', "
                                                 "'{cwd}/good.txt', '--json', '{cwd}/sub')",
         files={"good.txt": _GOOD, "sub/keep.txt": "x"}),
]
