"""The sdist and the wheel ship one top-level package, ``privref``, holding every shipped layer.

Both are built from a copy of the tracked tree (so the checkout stays clean), without build
isolation (setuptools comes from the test extra).  The wheel built from the tree and the wheel
built from the unpacked sdist (as pip does) must each hold every module of reference/, audits/,
proofs/ and app/ under ``privref/<layer>/``, nothing of the validation zoo, and nothing beside
privref and its dist-info; each is then installed into an empty folder and imported from there,
from a folder outside the checkout.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from privref.audits.libraries import LIBRARIES

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("reference", "audits", "proofs", "app")


def _pip(*args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", *args, "-q", "--no-deps", "--no-build-isolation"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def _tracked_copy(dest: Path) -> Path:
    """The tracked files of the checkout copied to ``dest`` (links would be copied as links)."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
                           ).stdout.decode().split("\0")
    for name in filter(None, names):
        if name.startswith(("docs/", "tests/", "benchmarks/", "mutation/")):
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((ROOT / name).read_bytes())
    return dest


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("dist")
    src = _tracked_copy(tmp / "src")
    _pip("wheel", str(src), "-w", str(tmp / "wheel"))
    done = subprocess.run([sys.executable, "-c", "from setuptools import build_meta as b; "
                           f"print(b.build_sdist({str(tmp / 'sdist')!r}))"],
                          cwd=src, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    (sdist,) = (tmp / "sdist").glob("privref-*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp / "unpacked", filter="data")
    (unpacked,) = (tmp / "unpacked").iterdir()
    _pip("wheel", str(unpacked), "-w", str(tmp / "wheel-from-sdist"))
    (wheel,) = (tmp / "wheel").glob("privref-*.whl")
    (wheel2,) = (tmp / "wheel-from-sdist").glob("privref-*.whl")
    return {"wheel": wheel, "wheel from sdist": wheel2, "tmp": tmp}


def _expected_modules() -> set[str]:
    return {f"privref/{layer}/{p.relative_to(ROOT / layer / 'privref' / layer).as_posix()}"
            for layer in SHIPPED for p in (ROOT / layer / "privref" / layer).rglob("*.py")}


@pytest.mark.parametrize("kind", ["wheel", "wheel from sdist"])
def test_the_wheel_ships_privref_and_only_privref(built: dict[str, Path], kind: str) -> None:
    archive = zipfile.ZipFile(built[kind])
    names = archive.namelist()
    tops = {n.split("/")[0] for n in names}
    dist = {t for t in tops if t.endswith(".dist-info")}
    assert tops - dist == {"privref"} and len(dist) == 1, tops
    shipped = {n for n in names if n.endswith(".py")}
    assert _expected_modules() <= shipped, sorted(_expected_modules() - shipped)
    assert not [n for n in shipped if "validation" in n.split("/")[:-1] or "zoo" in n], "zoo shipped"
    assert "privref/py.typed" in names
    data = {f"privref/audits/libraries/{lib}.{kind}.toml" for lib in LIBRARIES
            for kind in ("suite", "coverage")}  # privref audit-library reads them
    assert data <= set(names), sorted(data - set(names))
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "privref = privref.app.cli:main" in archive.read(entry).decode()


@pytest.mark.parametrize("kind", ["wheel", "wheel from sdist"])
def test_the_installed_wheel_imports_outside_the_checkout(built: dict[str, Path], kind: str) -> None:
    target = built["tmp"] / f"site-{kind.replace(' ', '-')}"
    _pip("install", "--target", str(target), str(built[kind]))
    code = ("import privref, privref.reference.errors as e, privref.app.cli as c\n"
            "assert privref.InvalidArgument is e.InvalidArgument\n"
            f"assert e.__file__.startswith({str(target)!r}), e.__file__\n"
            f"assert c.__file__.startswith({str(target)!r}), c.__file__\n"
            "import importlib.util\n"
            "assert importlib.util.find_spec('validation') is None\n"
            "print(privref.__version__)\n")
    done = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(target)!r})\n"
                           + code], cwd=built["tmp"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]


def test_the_package_list_names_every_package_folder() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    on_disk = {"privref"} | {
        ".".join(("privref", layer, *p.parent.relative_to(ROOT / layer / "privref" / layer).parts))
        for layer in SHIPPED for p in (ROOT / layer / "privref" / layer).rglob("__init__.py")}
    assert set(config["packages"]) == on_disk
    assert config["package-dir"] == {"privref": "privref",
                                     **{f"privref.{k}": f"{k}/privref/{k}" for k in SHIPPED}}
