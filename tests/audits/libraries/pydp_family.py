"""Helpers shared by the PyDP and PipelineDP suite tests (PipelineDP draws its noise from PyDP)."""

from __future__ import annotations

import ast
import dataclasses
import tomllib
from fractions import Fraction
from pathlib import Path

from privref.app.blackbox_suite import SuiteCase, load_suite
from privref.audits.libraries import LibrarySuite, read_coverage


def suite_case(suite: LibrarySuite, name: str) -> SuiteCase:
    """The entry called ``name`` of the shipped suite."""
    return next(c for c in load_suite(suite.suite_file) if c.name == name)


def small(case: SuiteCase, samples: int, expect: str | None = None,
          expect_real: str | None = None) -> SuiteCase:
    """The case at ``samples`` per side (the last --samples wins), its expected verdicts replaced
    when given."""
    return dataclasses.replace(
        case, argv=(*case.argv, "--samples", str(samples)),
        expect=case.expect if expect is None else expect,
        expect_real=case.expect_real if expect_real is None else expect_real)


def top_level_imports(module: Path) -> set[str]:
    """The top-level package names a module imports at its top level (not inside functions)."""
    found: set[str] = set()
    for node in ast.parse(module.read_text()).body:
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module.split(".")[0])
    return found


def check_suite_file(suite: LibrarySuite, functions: list[str]) -> set[str]:
    """Check the suite file against its targets module and coverage table; return entry names.

    Every entry is named ``NAME:...`` and targets a function of the module; the defaults run at
    confidence 1 - 10^-6; the coverage table names exactly the suite's entries; every
    misconfigured entry expects VIOLATION."""
    cases = load_suite(suite.suite_file)
    names = {c.name for c in cases}
    assert len(names) == len(cases)
    with open(suite.suite_file, "rb") as fh:
        raw = tomllib.load(fh)
    assert raw["defaults"]["confidence"] == "0.999999"
    for entry in raw["target"]:
        module, _, fn = entry["target"].partition(":")
        assert module == suite.targets and fn in functions, entry
        assert entry["name"].startswith(f"{suite.name}:")
    assert {e for row in read_coverage(suite.name) for e in row.entries} == names
    assert all(c.expect == "VIOLATION" for c in cases if "misconfigured" in c.name)
    return names


def odd_multiple_in(x: float, k: int, low: Fraction, high: Fraction) -> bool:
    """Whether the double ``x`` is an odd multiple of 2^-k with low <= |x| < high (exact)."""
    m = abs(Fraction(x)) * 2**k
    return low <= abs(Fraction(x)) < high and m.denominator == 1 and m.numerator % 2 == 1
