"""The shipped diffprivlib suite (privref.audits.libraries, issue 37): its targets module, its
declarations, its claims read against diffprivlib, its coverage table, a few audits at small
samples, and (deep tier) the whole suite.

CI runs the quick tests (a few seconds: two small audits and a one-entry suite run); the full
suite, about 59 audits, is one ``deep`` test.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from privref.app import blackbox_suite
from privref.audits.blackbox.api import assert_private
from privref.audits.blackbox.report import BlackboxVerdict
from privref.audits.libraries import library_suite, read_coverage
from privref.reference.privacy import PrivacyClaim

from ...stats import AUDIT_CONFIDENCE

MODULE = "privref.audits.libraries.targets_diffprivlib"
SUITE = library_suite("diffprivlib")


def _targets() -> dict[str, Any]:
    module = importlib.import_module(MODULE)
    return {name: getattr(module, name) for name in module.__all__
            if hasattr(getattr(module, name), "privref_claim")}


def _suite() -> dict[str, Any]:
    with open(SUITE.suite_file, "rb") as fh:
        return tomllib.load(fh)


def test_the_targets_module_imports_diffprivlib_only_inside_functions() -> None:
    """No module-level import of diffprivlib (the module must load without it): every import of
    it is ``importlib.import_module`` inside a function (checked on the source's syntax tree)."""
    module = importlib.import_module(MODULE)
    tree = ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
            assert not any(n.split(".")[0] == "diffprivlib" for n in names), ast.dump(node)
    assert "import diffprivlib" not in ast.unparse(tree)


@pytest.mark.deep  # a fresh interpreter importing privref: several seconds on a loaded machine
def test_the_targets_module_imports_without_diffprivlib() -> None:
    """A blocked ``diffprivlib`` import does not stop the module: the declarations load, a
    library-free target runs, and a diffprivlib target fails with the ImportError."""
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'diffprivlib' or name.startswith('diffprivlib.'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"import {MODULE} as m\n"
        "assert 'diffprivlib' not in sys.modules\n"
        "assert m.tools_mean.privref_library.name == 'diffprivlib'\n"
        "import numpy as np\n"
        "print(len(m.known_bug_textbook_laplace_buggy([0], np.random.default_rng(0), 3)))\n"
        "try:\n"
        "    m.tools_mean([0, 4], np.random.default_rng(0), 1)\n"
        "except ImportError as e:\n"
        "    print('ImportError', e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.splitlines() == ["3", "ImportError blocked: diffprivlib"]


def test_every_target_declares_claim_relation_pairs_and_library() -> None:
    targets = _targets()
    assert len(targets) >= 50
    for name, fn in targets.items():
        assert fn.privref_relation is not None, name
        assert fn.privref_pairs, name
        doc = fn.__doc__ or ""
        assert any(w in doc for w in ("correct", "MISCONFIGURED", "NOT", "issue", "Mironov", "fix")), name
        if name != "known_bug_textbook_laplace_buggy":
            assert fn.privref_library.name == "diffprivlib", name
        assert list(inspect.signature(fn).parameters)[2] == "size", name


def test_every_suite_entry_names_an_existing_target_and_the_coverage_is_consistent() -> None:
    raw = _suite()
    targets = _targets()
    names = set()
    for entry in raw["target"]:
        names.add(entry["name"])
        assert entry["name"].startswith("diffprivlib:"), entry
        spec = entry["target"]
        if spec.startswith(MODULE + ":"):
            assert spec.split(":")[1] in targets, spec
    assert all(f"{MODULE}:{t}" in {e["target"] for e in raw["target"]} for t in targets)
    rows = read_coverage("diffprivlib")
    for row in rows:
        assert set(row.entries) <= names, row.api
        assert row.entries or row.reason
    covered = {e for row in rows for e in row.entries}
    assert names == covered


def test_the_coverage_lists_every_public_mechanism_tool_and_model() -> None:
    pytest.importorskip("diffprivlib")
    mechanisms = importlib.import_module("diffprivlib.mechanisms")
    tools = importlib.import_module("diffprivlib.tools")
    models = importlib.import_module("diffprivlib.models")
    transforms = importlib.import_module("diffprivlib.mechanisms.transforms")
    listed = {row.api for row in read_coverage("diffprivlib")}
    bases = {"DPMachine", "DPMechanism", "TruncationAndFoldingMixin", "DPTransformer"}
    public: set[str] = set()
    for module in (mechanisms, tools, models, transforms):
        for name, value in vars(module).items():
            if (not name.startswith("_") and (inspect.isclass(value) or inspect.isfunction(value))
                    and value.__module__.startswith(module.__name__) and name not in bases):
                public.add(f"{module.__name__}.{name}")
    assert public == listed


def _recorded(fn: Callable[..., Any], data: list[Any],
              monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[float, float]], list[float]]:
    """The (epsilon, delta) of every diffprivlib mechanism ``fn`` builds, and every epsilon
    spent on a BudgetAccountant, in one call of ``fn(data, rng, 2)``."""
    base = importlib.import_module("diffprivlib.mechanisms.base")
    accountant = importlib.import_module("diffprivlib.accountant").BudgetAccountant
    built: list[tuple[float, float]] = []
    spent: list[float] = []
    init, spend = base.DPMechanism.__init__, accountant.spend

    def record_init(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        built.append((self.epsilon, self.delta))

    def record_spend(self: Any, epsilon: float, delta: float) -> Any:
        spent.append(epsilon)
        return spend(self, epsilon, delta)

    monkeypatch.setattr(base.DPMechanism, "__init__", record_init)
    monkeypatch.setattr(accountant, "spend", record_spend)
    fn(data, np.random.default_rng(0), 2)
    return built, spent


def test_every_declared_claim_is_the_one_diffprivlib_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The declared (ε, δ) is exactly the float diffprivlib stores in each mechanism the target
    builds (and, for a tool, the ε it spends); the exceptions are the misconfigurations that
    drop δ, and the shared accountant whose total is the claim."""
    pytest.importorskip("diffprivlib")
    for name, fn in _targets().items():
        if name == "known_bug_textbook_laplace_buggy":
            continue
        claim = fn.privref_claim
        assert isinstance(claim, PrivacyClaim), name
        built, spent = _recorded(fn, list(fn.privref_pairs[0][0]), monkeypatch)
        assert built, name
        if name == "accountant_mean_twice":
            assert claim.epsilon.exact == sum(Fraction(e) for e in spent[:2]) == 2, name
            continue
        for eps, delta in built:
            assert claim.epsilon.exact == Fraction(eps), name
            expected_delta = 0 if name.endswith("_delta0") else Fraction(delta)
            assert claim.delta == expected_delta, name
            if name.endswith("_delta0"):
                assert delta > 0, name
        assert all(claim.epsilon.exact == Fraction(e) for e in spent), name


@pytest.mark.deep  # two audits of 2,000 samples per side, a few seconds
def test_a_correct_and_a_misconfigured_target_at_small_samples() -> None:
    """binary_rr (ε = 1 exactly) is not flagged; the Uniform sum with sensitivity 4 declared as
    1 (true δ = 1 at ε = 0) is, at 2,000 samples."""
    pytest.importorskip("diffprivlib")
    module = importlib.import_module(MODULE)
    report = assert_private(module.binary_rr, samples=2000, seed=3,
                            confidence=AUDIT_CONFIDENCE)
    assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND
    with pytest.raises(AssertionError, match="is not"):
        assert_private(module.uniform_sum_misconfigured_sensitivity, samples=2000, seed=3,
                       confidence=AUDIT_CONFIDENCE, float_events=False)


def _two_entry_suite(tmp_path: Path, name: str) -> Path:
    """The entry ``name`` as shipped (1,000 samples), and a copy whose expectations are flipped."""
    entry = next(e for e in _suite()["target"] if e["name"] == name)
    flip = {"VIOLATION": "NO_VIOLATION_FOUND", "NO_VIOLATION_FOUND": "VIOLATION"}
    text = ""
    for label, expect, real in ((name, entry["expect"], entry["expect_real"]),
                                (name + " (flipped)", flip[entry["expect"]],
                                 flip[entry["expect_real"]])):
        text += ("[[target]]\n"
                 f'name = "{label}"\ntarget = "{entry["target"]}"\nexpect = "{expect}"\n'
                 f'expect_real = "{real}"\nsamples = 1000\nseed = 5\n'
                 'requires = ["diffprivlib"]\n')
    path = tmp_path / "two.toml"
    path.write_text(text)
    return path


def test_a_suite_entry_passes_and_its_flipped_copy_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The misconfigured Uniform entry (true δ = 1 at ε = 0), run as shipped: OK; the same entry
    with both expectations flipped: FAIL, and the suite exits 1 (a check that can fail)."""
    pytest.importorskip("diffprivlib")
    path = _two_entry_suite(tmp_path, "diffprivlib:uniform-sum-misconfigured-sensitivity")
    parser = argparse.ArgumentParser()
    blackbox_suite.configure_parser(parser)
    assert blackbox_suite.run(parser.parse_args([str(path)])) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0].endswith("  OK") and lines[1].endswith("  FAIL")


def _suite_results() -> Iterator[blackbox_suite.SuiteResult]:
    for case in blackbox_suite.suite_cases(SUITE.suite_file):
        yield blackbox_suite.run_case(case, workers="2")


@pytest.mark.deep  # the whole suite: about 59 audits, several minutes on 2 cores
def test_the_whole_diffprivlib_suite_gets_every_expected_verdict() -> None:
    pytest.importorskip("diffprivlib")
    results = list(_suite_results())
    bad = [r.line() for r in results if r.status != "OK"]
    assert not bad, "\n".join(bad)
