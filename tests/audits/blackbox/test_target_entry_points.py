"""Targets published by an installed distribution (entry-point group ``privref.targets``) are
auditable by name, in-process and from the ``privref`` command."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from privref.audits.blackbox import load_target
from privref.audits.blackbox.adapters import (
    TARGET_ENTRY_POINT_GROUP,
    register_target,
    registered_target,
    unregister_target,
)
from privref.audits.blackbox.errors import TargetLoadError

_MODULE = '''
from privref import declare


def build_rr():
    @declare(epsilon="1/2", relation="substitution", pairs=[([0], [1])])
    def rr(data, rng):
        return data[0] if rng.random() < 0.75 else 1 - data[0]
    return rr


NOT_A_BUILDER = 5
'''


def _fake_distribution(root: Path, entries: dict[str, str], dist: str = "fakeplugin") -> Path:
    """A module and a dist-info folder declaring ``entries`` in the privref.targets group."""
    (root / "fakeplugin_targets.py").write_text(_MODULE, encoding="utf-8")
    info = root / f"{dist}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n",
                                   encoding="utf-8")
    lines = "".join(f"{name} = {value}\n" for name, value in entries.items())
    (info / "entry_points.txt").write_text(f"[{TARGET_ENTRY_POINT_GROUP}]\n{lines}",
                                           encoding="utf-8")
    return root


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake installed distribution on sys.path publishing three target names."""
    root = _fake_distribution(tmp_path, {
        "fakelib:rr-half": "fakeplugin_targets:build_rr",
        "fakelib:not-a-builder": "fakeplugin_targets:NOT_A_BUILDER",
        "fakelib:gone-away": "fakeplugin_no_such_module:build",
        "opendp:count-laplace": "fakeplugin_targets:build_rr",   # a built-in name: ignored
    })
    monkeypatch.syspath_prepend(str(root))
    importlib.invalidate_caches()
    return root


def test_an_entry_point_target_loads_by_name(plugin: Path) -> None:
    assert registered_target("fakelib:rr-half") is not None
    target = load_target("fakelib:rr-half")
    assert str(getattr(target.claim, "epsilon", None)) == "1/2"
    assert target.pairs == (((0,), (1,)),)


def test_unknown_and_builtin_names_are_not_taken_from_entry_points(plugin: Path) -> None:
    assert registered_target("fakelib:no-such-target") is None
    assert registered_target("opendp:count-laplace") is None
    assert registered_target("fakeplugin_targets:build_rr") is None   # a module:function spec


def test_a_process_registration_comes_first(plugin: Path) -> None:
    def other() -> object:
        return lambda data, rng: 0
    register_target("fakelib:rr-half", other)
    try:
        assert registered_target("fakelib:rr-half") is other
    finally:
        unregister_target("fakelib:rr-half")
    assert registered_target("fakelib:rr-half") is not other


def test_broken_entry_points_are_load_errors(plugin: Path) -> None:
    with pytest.raises(TargetLoadError, match="not a builder"):
        load_target("fakelib:not-a-builder")
    with pytest.raises(TargetLoadError, match="fakeplugin_no_such_module"):
        load_target("fakelib:gone-away")


def test_two_distributions_with_one_name_are_refused(plugin: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    second = tmp_path / "second"
    second.mkdir()
    _fake_distribution(second, {"fakelib:rr-half": "fakeplugin_targets:NOT_A_BUILDER"},
                       dist="fakeplugin2")
    monkeypatch.syspath_prepend(str(second))
    importlib.invalidate_caches()
    with pytest.raises(TargetLoadError, match="several entry points"):
        load_target("fakelib:rr-half")


def test_the_privref_command_audits_an_entry_point_target(plugin: Path) -> None:
    """A separate ``privref`` process finds the target by its name (rr at ln 3 vs a claim of 1/2)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugin), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "privref.app.commands.cli", "audit", "blackbox", "fakelib:rr-half",
         "--samples", "4000", "--seed", "1", "--workers", "1", "--quiet"],
        capture_output=True, text=True, env=env, cwd=plugin, timeout=120, check=False)
    assert done.returncode == 1, done.stderr
    assert "black-box audit of fakelib:rr-half" in done.stdout
    assert "(0.5, 0)-DP under substitution" in done.stdout and "VIOLATION" in done.stdout


def test_a_broken_entry_point_is_a_usage_error_on_the_command_line(
        plugin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from privref.app.commands.cli import main
    assert main(["audit", "blackbox", "fakelib:gone-away", "--samples", "100"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("privref audit blackbox: error:") and "fakeplugin_no_such_module" in err
