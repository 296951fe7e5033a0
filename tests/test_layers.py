"""The layers import one way (app → proofs/audits → reference), each under one name only.

Each shipped layer keeps its top-level folder and holds its modules at ``<layer>/privref/<layer>/``
(docs/layout.md), so a module's path ends in its one importable name.  Read from the source with
:mod:`ast`, so a bare ``import reference`` or an import running back up a layer fails here, not in
a user's environment.  The validation zoo (``validation/``) is a top-level package of the checkout
that tests and benchmarks import; it is not shipped, and no shipped layer may import it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("reference", "audits", "proofs", "app")
ALLOWED: dict[str, frozenset[str]] = {
    "reference": frozenset({"reference"}),
    "audits": frozenset({"reference", "audits"}),
    "proofs": frozenset({"reference", "audits", "proofs"}),
    "app": frozenset({"reference", "audits", "proofs", "app"}),
    "validation": frozenset({"reference", "audits"}),
}


def _package_root(layer: str) -> Path:
    return ROOT / layer if layer == "validation" else ROOT / layer / "privref" / layer


def _modules() -> list[tuple[str, Path]]:
    return [(layer, p) for layer in ALLOWED for p in sorted(_package_root(layer).rglob("*.py"))]


def _package_of(path: Path, layer: str) -> list[str]:
    inner = list(path.relative_to(_package_root(layer)).parent.parts)
    return [layer, *inner] if layer == "validation" else ["privref", layer, *inner]


def _imports(path: Path, layer: str) -> list[tuple[int, str]]:
    """Absolute module names imported by ``path`` (relative imports resolved in its package)."""
    package = _package_of(path, layer)
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join([*base, *([node.module] if node.module else [])])
            else:
                mod = node.module or ""
            found.append((node.lineno, mod))
            found.extend((node.lineno, f"{mod}.{a.name}") for a in node.names)
    return found


def test_each_layer_folder_holds_only_its_package() -> None:
    for layer in SHIPPED:
        inner = ROOT / layer / "privref"
        assert sorted(p.name for p in (ROOT / layer).iterdir() if p.name != "__pycache__") == ["privref"]
        assert sorted(p.name for p in inner.iterdir() if p.name != "__pycache__") == [layer]
        assert (inner / layer / "__init__.py").is_file(), layer


def test_no_tracked_file_is_a_link() -> None:
    """A clone made with ``core.symlinks=false`` gets every file: git tracks no link (mode 120000)."""
    listing = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.splitlines()
    assert listing, "git ls-files listed nothing"
    links = [line.split("\t", 1)[1] for line in listing if line.startswith("120000")]
    assert links == []


@pytest.mark.parametrize("layer", SHIPPED)
def test_a_layer_cannot_be_imported_by_a_second_name(layer: str) -> None:
    """From the checkout, ``<layer>`` is an empty namespace and ``<layer>.privref.<layer>`` refuses."""
    code = (f"import {layer}\n"
            f"assert not hasattr({layer}, '__file__') or {layer}.__file__ is None\n"
            f"try:\n    import {layer}.privref.{layer}\nexcept ImportError as e:\n    print(e)\n"
            f"else:\n    raise SystemExit('imported {layer}.privref.{layer}')\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"import privref.{layer}, not {layer}.privref.{layer}" in done.stdout


@pytest.mark.parametrize(("layer", "path"), _modules(), ids=lambda v: str(v))
def test_imports_point_down_and_stay_public(layer: str, path: Path) -> None:
    for line, name in _imports(path, layer):
        parts = name.split(".")
        where = f"{path.relative_to(ROOT)}:{line} imports {name}"
        assert parts[0] not in SHIPPED, f"{where}: import it as privref.{name}"
        if parts[0] == "validation":
            assert layer == "validation", f"{where}: the validation zoo is not shipped"
            continue
        if parts[0] != "privref" or len(parts) < 2 or parts[1] not in SHIPPED:
            continue
        target = parts[1]
        assert target in ALLOWED[layer], f"{where}: {layer} may not depend on {target}"
        if target != layer:
            private = [p for p in parts[2:] if p.startswith("_") and not p.startswith("__")]
            assert not private, f"{where}: a private name of another layer"


def _module_name(layer: str, path: Path) -> str:
    package = _package_of(path, layer)
    return ".".join(package if path.name == "__init__.py" else [*package, path.stem])


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_dependencies(layer: str, path: Path, known: set[str]) -> set[str]:
    """The shipped modules ``path`` imports when it runs: at top level or inside functions (a
    deferred import still closes a circle), but not under ``if TYPE_CHECKING:``; ``from pkg
    import mod`` depends on ``pkg.mod``, not on the package's ``__init__``."""
    package = _package_of(path, layer)
    skipped: set[int] = set()
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            skipped.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            mod = ".".join([*base, *([node.module] if node.module else [])])
            found.update(f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod
                         for a in node.names)
    return found & known


def import_cycles(modules: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(modules[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(modules):
        if v not in index:
            visit(v)
    return cycles


def test_no_module_imports_itself_through_others() -> None:
    """No import circle among the shipped modules (issue 31: manifest and registry had one)."""
    shipped = [(layer, p) for layer, p in _modules() if layer in SHIPPED]
    known = {_module_name(layer, p) for layer, p in shipped}
    graph = {_module_name(layer, p): _runtime_dependencies(layer, p, known) - {_module_name(layer, p)}
             for layer, p in shipped}
    assert len(graph) > 100
    assert import_cycles(graph) == []


def test_the_cycle_finder_sees_a_circle() -> None:
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []
