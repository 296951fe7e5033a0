"""A wheel of privref installs one top-level package, ``privref``, holding every layer.

The wheel is built from a copy of the source tree (so the checkout stays clean), without build
isolation (setuptools comes from the test extra), and its file list is compared with the
layer folders: every module of reference/, audits/, proofs/, app/ and validation/ ships under
privref/<layer>/, and nothing else sits at the top level beside privref and its dist-info.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("reference", "audits", "proofs", "app", "validation")


def _build(tmp: Path) -> zipfile.ZipFile:
    src = tmp / "src"
    keep = ("privref", *LAYERS, "pyproject.toml", "README.md")
    src.mkdir()
    for name in keep:
        item = ROOT / name
        if item.is_symlink() or item.is_file():
            shutil.copy2(item, src / name, follow_symlinks=False)
        else:
            shutil.copytree(item, src / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps",
                    "--no-build-isolation", "-q", "-w", str(out)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = out.glob("privref-*.whl")
    return zipfile.ZipFile(wheel)


def test_wheel_installs_only_privref(tmp_path: Path) -> None:
    names = _build(tmp_path).namelist()
    tops = {n.split("/")[0] for n in names}
    dist = {t for t in tops if t.endswith(".dist-info")}
    assert tops - dist == {"privref"} and len(dist) == 1, tops
    shipped = {n for n in names if n.endswith(".py")}
    for layer in LAYERS:
        for path in (ROOT / layer).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            assert f"privref/{rel}" in shipped, rel
    assert "privref/py.typed" in names
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(next((tmp_path / "wheel").glob("*.whl"))).read(entry).decode()
    assert "privref = privref.app.cli:main" in text
