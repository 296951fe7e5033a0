"""The Tumult Core suite (privref.audits.libraries.targets_tmlt, tmlt.suite.toml, tmlt.coverage.toml).

CI has no tmlt.core: there the tests check that the targets module imports without it, that
the declarations, the suite file and the coverage table are consistent.  With tmlt.core
installed (its own venv, docs/library-tmlt.md) they also check every declared claim against
Tumult's ``privacy_function``, that seeding from the audit's rng is bit-reproducible, two
entries at small samples, and that a flipped expectation FAILs; the whole suite is one deep test.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from privref.app.blackbox_suite import SuiteCase, load_suite, run_case
from privref.audits.blackbox.declarations import library_version, read_declaration
from privref.audits.blackbox.errors import MissingDependency
from privref.audits.libraries import library_suite, read_coverage
from privref.audits.libraries import targets_tmlt as tm
from privref.reference.privacy import PrivacyClaim, ZCDPClaim

SUITE = library_suite("tmlt")
TARGETS: dict[str, Any] = {n: getattr(tm, n) for n in tm.__all__ if hasattr(getattr(tm, n), "privref_claim")}
HAVE_TMLT = library_version("tmlt.core") is not None
PREFIX = "privref.audits.libraries.targets_tmlt:"


def _cases() -> dict[str, SuiteCase]:
    return {c.name: c for c in load_suite(SUITE.suite_file)}


def _target_of(case: SuiteCase) -> str:
    spec = case.argv[0]
    assert spec.startswith(PREFIX), spec
    return spec[len(PREFIX):]


def test_no_top_level_import_of_the_library() -> None:
    """The module imports nothing of tmlt/pandas/pyspark at top level (it loads without them:
    CI imports it above without tmlt.core)."""
    tree = ast.parse(inspect.getsource(tm))
    for node in tree.body:
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        for name in names:
            assert name.split(".")[0] not in {"tmlt", "pandas", "pyspark", "sympy"}, name


def test_declarations() -> None:
    """Every target declares a claim, a relation, pairs, the library, seeded randomness; the
    claims are exact (PureDP: PrivacyClaim, RhoZCDP: ZCDPClaim)."""
    assert len(TARGETS) == 18
    for name, fn in TARGETS.items():
        assert fn.privref_library.name == "tmlt.core", name
        assert fn.uses_own_randomness is False, name
        assert fn.privref_pairs and fn.privref_relation is not None, name
        assert isinstance(fn.privref_claim, PrivacyClaim | ZCDPClaim), name
        if HAVE_TMLT:
            assert read_declaration(fn, name).claim == fn.privref_claim
        else:
            with pytest.raises(MissingDependency, match=r"tmlt\.core"):
                read_declaration(fn, name)


def test_suite_and_coverage_agree() -> None:
    """The suite names every target once, misconfigured entries expect VIOLATION, float
    targets state both views; the coverage table names only suite entries and covers every one."""
    cases = _cases()
    assert sorted(_target_of(c) for c in cases.values()) == sorted(TARGETS)
    for name, case in cases.items():
        assert name.startswith("tmlt:") and case.requires == ("tmlt.core",)
        target = _target_of(case)
        assert name == "tmlt:" + target.replace("_", "-"), name
        if "misconfigured" in name:
            assert case.expect == "VIOLATION", name
        floats = inspect.getsource(TARGETS[target]).count("np.float64") > 0
        assert (case.expect_real is not None) == floats, name
    rows = read_coverage("tmlt")
    covered = {e for r in rows for e in r.entries}
    assert covered == set(cases)
    assert len({r.api for r in rows}) == len(rows)


def test_zcdp_to_approx_claim_is_tumults_boundary() -> None:
    """The declared ε solves ρ + 2√(ρ ln(1/δ)) = ε at ρ = 1/2, δ = 1/1000 (the equation
    ``RhoZCDPToApproxDP.privacy_relation`` solves), checked against an independent float."""
    import math

    claim = TARGETS["discrete_gaussian_count_zcdp_to_approx"].privref_claim
    assert claim.delta == Fraction(1, 1000)
    value = 0.5 + 2 * math.sqrt(0.5 * math.log(1000))
    box = claim.epsilon.enclose()
    assert box.lo <= Fraction(value) + Fraction(1, 10**12) and Fraction(value) - Fraction(1, 10**12) <= box.hi
    assert box.width < Fraction(1, 10**12)


# ---------------------------------------------------------------------------------- tmlt.core


def test_claims_are_tumults() -> None:
    """Every declared claim equals Tumult's own privacy_function at the documented d_in."""
    pytest.importorskip("tmlt.core")
    for name, fn in TARGETS.items():
        got = tm.library_claim(name)
        claim = fn.privref_claim
        if "rho" in got and isinstance(claim, ZCDPClaim):
            assert claim.rho == got["rho"], name
        elif name == "discrete_gaussian_count_zcdp_to_approx":
            assert got == {"rho": Fraction(1, 2)}
        else:
            assert isinstance(claim, PrivacyClaim) and claim.epsilon.exact == got["epsilon"], name


def test_seeded_from_the_audit_rng() -> None:
    """Same seed, same outputs (bit for bit); another seed, other outputs; Tumult's own
    generator is restored afterwards."""
    pytest.importorskip("tmlt.core")
    trng = importlib.import_module("tmlt.core.random.rng")

    before = trng.prng()
    for fn, data in ((tm.gaussian_count, [0]), (tm.noisy_quantile_median, [2, 2]),
                     (tm.discrete_gaussian_count, [0])):
        a = fn(data, np.random.default_rng(5), 20)
        b = fn(data, np.random.default_rng(5), 20)
        c = fn(data, np.random.default_rng(6), 20)
        assert a.tobytes() == b.tobytes()
        assert a.tobytes() != c.tobytes()
    assert trng.prng() is before


def _small(name: str, samples: int, expect: str | None = None) -> SuiteCase:
    case = _cases()[name]
    argv = (*case.argv, "--samples", str(samples))
    return dataclasses.replace(case, argv=argv, expect=expect or case.expect)


def test_two_entries_at_small_samples() -> None:
    """A correct and a misconfigured entry reach their verdicts at 4000 samples; the same
    misconfigured entry with its expectation flipped FAILs (the check can fail)."""
    pytest.importorskip("tmlt.core")
    ok = run_case(_small("tmlt:geometric-count", 4000), workers="1")
    assert ok.status == "OK", ok.line()
    bad = run_case(_small("tmlt:geometric-count-misconfigured-double-spent", 4000), workers="1")
    assert bad.status == "OK", bad.line()
    flipped = run_case(_small("tmlt:geometric-count-misconfigured-double-spent", 4000,
                              expect="NO_VIOLATION_FOUND"), workers="1")
    assert flipped.status == "FAIL", flipped.line()


@pytest.mark.deep
def test_full_suite() -> None:
    """The whole shipped suite at its default samples: every entry OK (6 min 38 s on 2 cores at
    load 1-3, 9 min 22 s at load 3-7, 29 min at load 10-12; docs/library-tmlt.md)."""
    pytest.importorskip("tmlt.core")
    results = [run_case(case, workers="2") for case in load_suite(SUITE.suite_file)]
    bad = [r.line() for r in results if r.status != "OK"]
    assert not bad, "\n".join(bad)


def test_suite_file_is_shipped() -> None:
    """The suite and coverage files live in the package (package data)."""
    assert Path(SUITE.suite_file).is_file() and Path(SUITE.coverage_file).is_file()
