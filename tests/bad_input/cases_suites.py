"""Malformed and empty suites for ``privref blackbox-suite`` (issue 32, item 3).

Each case must end in one clean error line (see harness.py): a usage error (exit 2) found
before any audit runs and naming the file, the entry and the key; a suite in which nothing was
checked (exit 6); a suite whose target failed (exit 5).  A suite that must run and pass cannot
be a Case (a Case expects an error line): those checks are in tests/app/test_blackbox_suite.py.
"""

from __future__ import annotations

import json

from .harness import Case

TARGETS = '''
import os
import sys


def rr(data, rng):
    return data[0] if rng.random() < 0.75 else 1 - data[0]


def boom(data, rng):
    raise RuntimeError("sensor offline")


def quits(data, rng):
    os._exit(0)


def exits(data, rng):
    sys.exit(0)
'''

RUN = 'epsilon = 1\npairs = [[[0], [1]]]\nsamples = 200\nexpect = "NO_VIOLATION_FOUND"\n'
"""The keys of an entry that audits a file target of TARGETS cheaply (200 samples per side)."""

SKIPPED = ('[[target]]\nname = "a"\ntarget = "t.py:rr"\n' + RUN
           + 'requires = ["no-such-distribution-xyz"]\n\n'
           '[[target]]\nname = "b"\ntarget = "opendp:count-laplace"\n'
           'expect = "NO_VIOLATION_FOUND"\nrequires = ["no-such-distribution-abc"]\n')
"""A suite in which every entry is skipped (as docs/blackbox-suite.toml on a plain install)."""

ONE = '[[target]]\nname = "rr"\ntarget = "t.py:rr"\n' + RUN


def _entry(extra: str, target: str = '"t.py:rr"') -> str:
    """One entry on t.py:rr with the cheap run keys, ``extra`` last (a later key wins in no
    TOML table: each extra key must not repeat one of RUN)."""
    return f'[[target]]\nname = "x"\ntarget = {target}\n{extra}'


def _suite(id: str, names: str, suite: str | bytes, *flags: str, exit_code: int = 2,
           file: str = "s.toml", files: dict[str, str | bytes] | None = None,
           stderr: str | None = None) -> Case:
    return Case(id=f"suite-{id}", names=names, argv=("blackbox-suite", file, *flags),
                exit_code=exit_code, files={"t.py": TARGETS, file: suite, **(files or {})},
                stderr=stderr)


_MANY = json.dumps({"target": [{"name": f"e{i}", "target": "t.py:rr", "expect": "VIOLATION"}
                               for i in range(20_001)]})
_OVER_BUDGET = json.dumps({"defaults": {"samples": "10**10", "epsilon": 1},
                           "target": [{"name": f"e{i}", "target": "t.py:rr",
                                       "expect": "NO_VIOLATION_FOUND"} for i in range(11)]})

CASES: list[Case] = [
    # ---- nothing checked: exit 6 (--allow-empty: 0, in test_blackbox_suite.py) ----------------
    _suite("all-skipped", r"nothing was checked: all 2 entries .*skipped.*--allow-empty",
           SKIPPED, exit_code=6, stderr=r"2 entries: 0 ran \(0 OK, 0 FAIL, 0 ERROR\), 2 skipped; "
           r"checked 0 pairs on 0 samples"),
    _suite("only-selects-skipped", r"nothing was checked: all 1 entries",
           SKIPPED + "\n" + ONE.replace('"rr"', '"rr-runs"'), "--only", "a", exit_code=6),
    _suite("only-matches-nothing", r"--only \['zzz'\]: no entry of s\.toml matches", ONE,
           "--only", "zzz"),
    # ---- the target failed: exit 5, never a pass ------------------------------------------------
    _suite("target-raises", r"the target of 1 entry failed \(x\).*RuntimeError: sensor offline",
           _entry(RUN, '"t.py:boom"'), exit_code=5),
    _suite("target-os-exit", r"the target of 1 entry failed \(x\)",
           _entry(RUN, '"t.py:quits"'), exit_code=5),
    _suite("target-sys-exit", r"the target of 1 entry failed \(x\)",
           _entry(RUN, '"t.py:exits"'), exit_code=5),
    # ---- every entry validated before any run: exit 2 naming the entry and the key -------------
    _suite("target-not-a-string", r"target #1: target=5 must be a string", _entry(RUN, "5")),
    _suite("target-a-list", r"target #1: target=\['t\.py:rr'\] must be a string",
           _entry(RUN, '["t.py:rr"]')),
    _suite("target-no-colon", r"target #1: target='t\.py' must look like",
           _entry(RUN, '"t.py"')),
    _suite("search-with-pairs", r"target #1 \(x\): --search and --pair exclude each other",
           _entry(RUN + "search = true\n")),
    _suite("unknown-key", r"target #1: unknown key\(s\) \['colour'\]",
           _entry(RUN + "colour = 1\n")),
    _suite("unknown-defaults-key", r"\[defaults\] key\(s\) \['expect'\] not allowed",
           '[defaults]\nexpect = "VIOLATION"\n\n' + ONE),
    _suite("name-not-a-string", r"target #1: name=5 must be a non-empty string",
           ONE.replace('name = "rr"', "name = 5")),
    _suite("name-twice", r"the name 'rr' is used twice", ONE + "\n" + ONE),
    _suite("expect-bad", r"expect='HOLDS' must be one of", ONE.replace(
        'expect = "NO_VIOLATION_FOUND"', 'expect = "HOLDS"')),
    _suite("requires-a-string", r"requires='opendp' must be a list",
           _entry(RUN + 'requires = "opendp"\n')),
    _suite("samples-float", r"\(x\): --samples='2\.5' must be an int",
           _entry(RUN.replace("samples = 200", "samples = 2.5"))),
    _suite("samples-negative", r"\(x\): --samples=-5 must be an int >= 2",
           _entry(RUN.replace("samples = 200", "samples = -5"))),
    _suite("samples-over-cli-limit", r"\(x\): --samples=10\*\*11 must be <= 10\*\*10",
           _entry(RUN.replace("samples = 200", 'samples = "10**11"'))),
    _suite("samples-bool", r"\(x\): samples=True must be a string or a number",
           _entry(RUN.replace("samples = 200", "samples = true"))),
    _suite("seed-negative", r"\(x\): --seed=-1 must be an int >= 0", _entry(RUN + "seed = -1\n")),
    _suite("epsilon-inf", r"\(x\): --epsilon", _entry(RUN.replace("epsilon = 1", "epsilon = inf"))),
    _suite("epsilon-a-date", r"epsilon=datetime\.date\(1979, 5, 27\) must be a string or a number",
           _entry(RUN.replace("epsilon = 1", "epsilon = 1979-05-27"))),
    _suite("confidence-one", r"\(x\): --confidence=1 must lie strictly between 0 and 1",
           _entry(RUN + "confidence = 1\n")),
    _suite("relation-unknown", r"\(x\): --relation='nope'", _entry(RUN + 'relation = "nope"\n')),
    _suite("pairs-not-neighbors-under-given-relation", r"\(x\): .*not neighboring under add-remove",
           _entry(RUN + 'relation = "add-remove"\n')),
    _suite("pairs-shape", r"\(x\): pairs=\[\[0\]\] must be a non-empty list",
           _entry(RUN.replace("pairs = [[[0], [1]]]", "pairs = [[0]]"))),
    _suite("float-events-a-string", r"float_events='no' must be true or false",
           _entry(RUN + 'float_events = "no"\n')),
    _suite("sizes-not-a-list", r"sizes=3 must be a list", _entry(RUN + "sizes = 3\n")),
    _suite("workers-flag-zero", r"--workers=0 must be an int >= 1", ONE, "--workers", "0"),
    # ---- file targets are relative to the suite's folder, not the working directory ------------
    _suite("file-target-relative-to-suite-folder",
           r"target='t\.py:rr': .*/sub/t\.py does not exist \(a file target is relative to the "
           r"suite's folder", ONE, file="sub/s.toml"),
    _suite("file-target-a-directory", r"target='d\.py:f': .*/d\.py is not a file",
           _entry(RUN, '"d.py:f"'), files={"d.py/x": ""}),
    # ---- the file itself: binary, deeply nested, not a suite: exit 2 naming the file -----------
    _suite("binary-file", r"suite s\.toml: not UTF-8 text \(byte 0x89 at offset 0\)",
           b"\x89PNG\r\n\x1a\n\x00\xff\xfe"),
    _suite("deeply-nested-toml", r"suite s\.toml: not valid TOML \(nested too deeply\)",
           "x = " + "[" * 100_000),
    _suite("deeply-nested-json", r"suite s\.json: not valid JSON \(nested too deeply\)",
           "[" * 100_000, file="s.json"),
    _suite("json-integer-too-long", r"suite s\.json: not valid JSON",
           '{"target": [{"target": "t.py:rr", "samples": 1' + "0" * 5000 + "}]}", file="s.json"),
    _suite("not-toml", r"suite s\.toml: not valid TOML", "this is not toml"),
    _suite("no-entries", r"it must list at least one \[\[target\]\]", "[defaults]\nseed = 1\n"),
    _suite("top-level-list", r"the top level must hold \[defaults\] and \[\[target\]\]",
           "[1, 2]", file="s.json"),
    Case(id="suite-a-directory", names=r"suite d: is a directory",
         argv=("blackbox-suite", "d"), files={"d/x": ""}),
    Case(id="suite-a-device", names=r"suite /dev/zero: not a regular file",
         argv=("blackbox-suite", "/dev/zero")),
    Case(id="suite-missing-file", names=r"suite none\.toml: cannot be read",
         argv=("blackbox-suite", "none.toml")),
    # ---- budgets, checked before any run -------------------------------------------------------
    _suite("too-many-entries", r"20001 \[\[target\]\] entries; a suite holds at most 20000 "
           r"\(MAX_ENTRIES\)", _MANY, file="s.json"),
    _suite("total-samples-over-budget", r"more than 1e\+11 samples per side in all \(the sum of "
           r"'samples'; limit MAX_SUITE_SAMPLES", _OVER_BUDGET, file="s.json"),
    # ---- outputs never overwrite the suite -----------------------------------------------------
    _suite("json-is-the-suite", r"--json s\.toml is the suite file", ONE, "--json", "s.toml"),
    _suite("json-is-a-target-file", r"--json t\.py is the target file of entry 'rr'", ONE,
           "--json", "t.py"),
]
