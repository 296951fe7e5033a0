"""The layers import one way (app → proofs/audits → reference), under the privref namespace only.

Read from the source with :mod:`ast`, so a stray ``import reference`` (which would load a second
copy of a module from a checkout) or an import running back up a layer fails here, not in a
user's environment.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("reference", "audits", "proofs", "app", "validation")
ALLOWED: dict[str, frozenset[str]] = {
    "reference": frozenset({"reference"}),
    "audits": frozenset({"reference", "audits"}),
    "proofs": frozenset({"reference", "audits", "proofs"}),
    "validation": frozenset({"reference", "audits", "validation"}),
    "app": frozenset({"reference", "audits", "proofs", "app"}),
}


def _modules() -> list[tuple[str, Path]]:
    return [(layer, p) for layer in LAYERS for p in sorted((ROOT / layer).rglob("*.py"))]


def _imports(path: Path, layer: str) -> list[tuple[int, str]]:
    """Absolute module names imported by ``path`` (relative imports resolved in its package)."""
    package = [layer, *path.relative_to(ROOT / layer).parent.parts]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join(["privref", *base, *([node.module] if node.module else [])])
            else:
                mod = node.module or ""
            found.append((node.lineno, mod))
            found.extend((node.lineno, f"{mod}.{a.name}") for a in node.names)
    return found


def test_layers_exist_behind_the_namespace() -> None:
    for layer in LAYERS:
        link = ROOT / "privref" / layer
        assert link.is_dir() and link.resolve() == (ROOT / layer).resolve(), layer


@pytest.mark.parametrize(("layer", "path"), _modules(), ids=lambda v: str(v))
def test_imports_point_down_and_stay_public(layer: str, path: Path) -> None:
    for line, name in _imports(path, layer):
        parts = name.split(".")
        where = f"{path.relative_to(ROOT)}:{line} imports {name}"
        assert parts[0] not in LAYERS, f"{where}: import it as privref.{name}"
        if parts[0] != "privref" or len(parts) < 2 or parts[1] not in LAYERS:
            continue
        target = parts[1]
        assert target in ALLOWED[layer], f"{where}: {layer} may not depend on {target}"
        if target != layer:
            private = [p for p in parts[2:] if p.startswith("_") and not p.startswith("__")]
            assert not private, f"{where}: a private name of another layer"
