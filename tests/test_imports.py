"""``import privref`` and every shipped module import without hypothesis.

hypothesis is a test-time tool: only privref.reference.strategies and
privref.reference.concept_strategies (the public strategies) may import it at module
level.  A fresh interpreter installs a meta-path finder that refuses any ``hypothesis``
import, then imports ``privref`` and every module of the reference, proofs and app layers
(walked with pkgutil) except those two; each failure is reported with its module name.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

ALLOWED = ("privref.reference.strategies", "privref.reference.concept_strategies")

SCRIPT = textwrap.dedent("""
    import importlib, importlib.abc, pkgutil, sys, traceback

    class RefuseHypothesis(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "hypothesis" or name.startswith("hypothesis."):
                raise ImportError(f"hypothesis import refused: {name}")
            return None

    sys.meta_path.insert(0, RefuseHypothesis())
    allowed = set(sys.argv[1:])
    failures = []

    def attempt(name):
        try:
            importlib.import_module(name)
        except BaseException:
            failures.append(f"{name}: {traceback.format_exc(limit=-3)}")

    attempt("privref")
    seen = 0
    for layer in ("privref.reference", "privref.proofs", "privref.app"):
        package = importlib.import_module(layer)
        for info in pkgutil.walk_packages(package.__path__, layer + "."):
            if info.name in allowed:
                continue
            seen += 1
            attempt(info.name)
    print(f"imported {seen} modules")
    if "hypothesis" in sys.modules:
        failures.append("hypothesis ended up in sys.modules")
    for failure in failures:
        print(failure)
    sys.exit(1 if failures else 0)
""")


def test_shipped_modules_import_without_hypothesis() -> None:
    """Fails naming each module whose import (transitively) imports hypothesis."""
    run = subprocess.run([sys.executable, "-c", SCRIPT, *ALLOWED], capture_output=True,
                         text=True, timeout=300, check=False)
    assert "imported" in run.stdout, run.stderr
    assert int(run.stdout.split()[1]) > 50, run.stdout     # the walk found the layers' modules
    assert run.returncode == 0, run.stdout + run.stderr
