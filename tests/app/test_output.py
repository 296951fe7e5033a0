"""privref.app.reports.output: the early output-path check and the I/O-safe writers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from privref.app.reports.output import (
    check_output_path,
    dumps_inline_lists,
    write_json,
    write_text_atomic,
)
from privref.reference.errors import InvalidArgument, OutputError


def test_early_check_names_the_flag(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    for path, message in ((str(tmp_path), "is a directory"),
                          (str(tmp_path / "no" / "x.json"), "does not exist"),
                          (str(tmp_path / "file" / "x.json"), "is not a folder"),
                          ("", "must be a file path")):
        with pytest.raises(InvalidArgument, match=message) as err:
            check_output_path("--json", path)
        assert str(err.value).startswith("--json")
    assert check_output_path("--png", tmp_path / "ok.png") == tmp_path / "ok.png"


def test_writes_are_atomic_and_failures_are_output_errors(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    write_json(target, {"a": 1})
    assert json.loads(target.read_text()) == {"a": 1}
    with pytest.raises(OutputError, match=r"--markdown /dev/full: could not write"):
        write_text_atomic("/dev/full", "x" * 10, flag="--markdown")
    with pytest.raises(OutputError, match="--json"):
        write_json(tmp_path / "gone" / "x.json", {})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]  # no temporary left


def test_written_files_get_ordinary_permissions(tmp_path: Path) -> None:
    """A new result is 0666 less the umask (not mkstemp's 0600); a replaced file keeps its mode."""
    import os
    import stat

    umask = os.umask(0o022)
    try:
        fresh = tmp_path / "new.json"
        write_text_atomic(fresh, "{}")
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o644
        kept = tmp_path / "kept.md"
        kept.write_text("old")
        kept.chmod(0o640)
        write_text_atomic(kept, "new", flag="--markdown")
        assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text() == "new"
    finally:
        os.umask(umask)


def test_inline_lists_keep_the_json_value_and_put_scalar_lists_on_one_line(tmp_path: Path) -> None:
    payload = {"runs": [{"queried": [0, 4, 9], "p": ["1", "3/8"], "none": None},
                        {"queried": [], "nested": [[1, 2], [3]], "é": {}}],
               "seed": 7, "path": Path("x.json")}
    target = tmp_path / "out.json"
    write_json(target, payload, inline_lists=True)
    text = target.read_text(encoding="utf-8")
    assert json.loads(text) == json.loads(json.dumps(payload, default=str))
    assert '"queried": [0, 4, 9],' in text and '"p": ["1", "3/8"],' in text
    assert '"nested": [\n' in text and "[1, 2]," in text        # a list of lists is indented
    assert text.endswith("}\n") and text == dumps_inline_lists(payload) + "\n"
    assert len(text.splitlines()) < len(json.dumps(payload, indent=2, default=str).splitlines())
