"""The shipped library suites: every suite and coverage file loads, the coverage table names
only entries of its suite and every entry is named by some mechanism, every target module
imports without its library, and docs/library-coverage.md is current (issue 37)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from privref.app.blackbox_suite import load_suite
from privref.audits.libraries import LIBRARIES, coverage_markdown, read_coverage

ROOT = Path(__file__).parents[3]


@pytest.mark.parametrize("name", list(LIBRARIES))
def test_the_coverage_table_and_the_suite_name_each_other(name: str) -> None:
    lib = LIBRARIES[name]
    cases = load_suite(lib.suite_file)
    names = {c.name for c in cases}
    rows = read_coverage(name)
    covered = {e for r in rows for e in r.entries}
    assert covered <= names, sorted(covered - names)
    assert names <= covered, sorted(names - covered)
    assert all(lib.distribution in c.requires for c in cases), name  # SKIP, never ERROR
    assert {c.expect for c in cases} == {"VIOLATION", "NO_VIOLATION_FOUND"}, name


@pytest.mark.parametrize("name", list(LIBRARIES))
def test_the_targets_module_imports_without_its_library(name: str) -> None:
    """No top-level import of the library: one environment may lack it."""
    lib = LIBRARIES[name]
    module = importlib.import_module(lib.targets)
    assert module.__file__ is not None
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    roots = {lib.distribution.split(".")[0].replace("-", "_"), "pydp", "pipeline_dp", "tmlt",
             "opendp", "diffprivlib"}
    top = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    imported = {(a.name if isinstance(n, ast.Import) else (n.module or "")).split(".")[0]
                for n in top for a in n.names}
    assert not imported & roots, imported & roots


def test_docs_library_coverage_is_current() -> None:
    """Regenerate with: privref audit-library --coverage-markdown docs/library-coverage.md"""
    assert (ROOT / "docs" / "library-coverage.md").read_text(encoding="utf-8") == (
        coverage_markdown())
