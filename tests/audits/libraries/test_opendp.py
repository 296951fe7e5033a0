"""The OpenDP suite (issue 37): targets, suite file and coverage table of privref.audits.libraries.

CI (a few seconds): the targets module imports without OpenDP and holds no top-level import of it;
every declaration is valid; the suite and coverage files agree with the module; every claim
equals the installed OpenDP's privacy map (each target builds its measurement once); a changed
map is refused (ClaimDrift); one misconfigured and one correct entry at small samples, and the
misconfigured one with its expectation flipped FAILs.  Deep: the whole suite.
"""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
import tomllib
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from privref.app.blackbox_suite import load_suite, run_case, suite_cases
from privref.audits.blackbox.declarations import read_declaration
from privref.audits.libraries import library_suite, read_coverage
from privref.audits.libraries import targets_opendp as T

SUITE = library_suite("opendp")
MODULE = "privref.audits.libraries.targets_opendp"


def _entries() -> dict[str, str]:
    """Suite entry name -> target function name."""
    return {c.name: c.argv[0].rpartition(":")[2] for c in load_suite(SUITE.suite_file)}


def test_the_module_has_no_top_level_import_of_opendp_or_polars() -> None:
    tree = ast.parse(Path(inspect.getsourcefile(T) or "").read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    names = [a.name for n in top if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in top if isinstance(n, ast.ImportFrom)]
    assert not [m for m in names if m.split(".")[0] in ("opendp", "polars")], names


def test_the_module_imports_and_declares_without_opendp() -> None:
    """In a fresh interpreter where ``import opendp`` fails, the module imports and every target
    carries its declaration (the library is only needed to run a target)."""
    code = ("import sys; sys.modules['opendp'] = None; sys.modules['polars'] = None\n"
            f"import {MODULE} as T\n"
            "assert all(f.privref_claim is not None and f.uses_own_randomness for f in T.TARGETS)\n"
            "print(len(T.TARGETS))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         check=True)
    assert int(out.stdout) == len(T.TARGETS)


def test_every_declaration_is_valid() -> None:
    for fn in T.TARGETS:
        decl = read_declaration(fn, fn.__name__)
        assert decl.claim is not None and decl.relation is not None and decl.pairs, fn.__name__
        assert decl.library is not None and decl.library.name == "opendp"
        assert getattr(fn, "uses_own_randomness", None) is True
        kinds = ("Correct:", "MISCONFIGURED (", "KNOWN BUG (", "Fixed configuration of issue")
        assert sum(k in (fn.__doc__ or "") for k in kinds) == 1, fn.__name__


def test_the_suite_covers_every_target_and_expects_what_the_docstrings_say() -> None:
    entries = _entries()
    assert sorted(entries.values()) == sorted(f.__name__ for f in T.TARGETS)
    cases = suite_cases(SUITE.suite_file)
    for case in cases:
        fn = getattr(T, entries[case.name])
        flagged = "MISCONFIGURED" in (fn.__doc__ or "") or "KNOWN BUG" in (fn.__doc__ or "")
        assert case.expect == ("VIOLATION" if flagged else "NO_VIOLATION_FOUND"), case.name
        assert case.name.startswith("opendp:") and "opendp" in case.requires
        assert flagged == ("misconfigured" in case.name or case.name.endswith("-buggy"))


def test_the_coverage_table_names_suite_entries_and_reasons() -> None:
    rows = read_coverage("opendp")
    names = set(_entries())
    covered = {e for r in rows for e in r.entries}
    assert covered <= names and names <= covered
    apis = [r.api for r in rows]
    assert len(apis) == len(set(apis))
    import opendp.measurements as m  # the CI venv has opendp

    public = {f"opendp.measurements.{n}" for n in dir(m) if n.startswith("make_")}
    assert public - {"opendp.measurements.make_proof_link"} <= set(apis), public - set(apis)
    with open(SUITE.coverage_file, "rb") as fh:
        assert tomllib.load(fh)["mechanism"]


def test_every_claim_is_the_installed_opendps_map() -> None:
    """Each target builds its measurement on first call and raises ClaimDrift unless OpenDP's map
    gives exactly the declared claim; one call each (the Polars target needs polars)."""
    pytest.importorskip("opendp")
    rng = np.random.default_rng(0)
    for fn in T.TARGETS:
        if fn is T.polars_len and not _has("polars"):
            continue
        data = list(fn.privref_pairs[0][0])  # type: ignore[attr-defined]
        if "size" in inspect.signature(fn).parameters:
            assert np.asarray(fn(data, rng, 2)).shape == (2,)
        else:
            fn(data, rng)


def _has(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def test_a_changed_map_is_refused() -> None:
    with pytest.raises(T.ClaimDrift, match="update targets_opendp"):
        T._check(0.5, Fraction(1, 3), "m.map(1)")
    with pytest.raises(T.ClaimDrift):
        T._check((1.0, 0.036), (Fraction(1), Fraction(0.0363)), "m.map((1,1,1))")
    T._check((1.0, 0.5), (Fraction(1), Fraction(1, 2)), "m.map((1,1,1))")


def _small_suite(tmp_path: Path, name: str, expect: str) -> Path:
    fn = _entries()[name]
    path = tmp_path / "s.toml"
    path.write_text(f'[defaults]\nseed = 3\nconfidence = "0.999999"\nsamples = 4000\n'
                    f'requires = ["opendp"]\n[[target]]\nname = "{name}"\n'
                    f'target = "{MODULE}:{fn}"\nexpect = "{expect}"\n', encoding="utf-8")
    return path


def test_a_correct_entry_passes_at_small_samples(tmp_path: Path) -> None:
    pytest.importorskip("opendp")
    (case,) = load_suite(_small_suite(tmp_path, "opendp:laplace-count", "NO_VIOLATION_FOUND"))
    result = run_case(case, workers="1")
    assert result.status == "OK", result.line()


def test_a_misconfigured_entry_expected_clean_fails(tmp_path: Path) -> None:
    """The check can fail: the misconfigured sum (true ε 2, claim 1/2) expected clean is a FAIL,
    because the audit finds its VIOLATION at 4,000 samples per side."""
    pytest.importorskip("opendp")
    (case,) = load_suite(_small_suite(tmp_path, "opendp:laplace-sum-misconfigured-sensitivity",
                                      "NO_VIOLATION_FOUND"))
    result = run_case(case, workers="1")
    assert result.status == "FAIL", result.line()
    assert result.report is not None and result.report.verdict is not None
    assert result.report.verdict.value == "VIOLATION"


@pytest.mark.deep  # the whole suite: several minutes on 2 cores (docs/library-opendp.md)
def test_the_whole_suite() -> None:
    pytest.importorskip("opendp")
    bad = [r.line() for r in (run_case(c, workers="2") for c in suite_cases(SUITE.suite_file))
           if r.status not in ("OK", "SKIP")]
    assert not bad, "\n".join(bad)
