"""``privref check-accountant``: the exact classification, privref's CKS enclosure, the worker's
limits and the command's exit status (with stand-in libraries: no third-party library needed)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest

from privref.app.accountants import registry
from privref.app.accountants.adapter import Library, Method
from privref.app.accountants.certify import certify, classify, gaussian_floor
from privref.app.accountants.tasks import GRID, find
from privref.app.accountants.worker import LibraryFailed, LibraryMissing, Worker
from privref.app.commands.cli import main
from privref.reference.accounting import zcdp_delta
from privref.reference.accounting import zcdp_to_dp_delta as cks_delta

F = Fraction


def _below(x: Fraction) -> float:
    """The largest float < x."""
    f = float(x)
    while F(f) >= x:
        f = math.nextafter(f, -math.inf)
    return f


def _above(x: Fraction) -> float:
    """The smallest float > x."""
    f = float(x)
    while F(f) <= x:
        f = math.nextafter(f, math.inf)
    return f


def test_grid_ids_are_unique_and_every_parameter_is_a_float_or_int() -> None:
    ids = [t.id for t in GRID]
    assert len(ids) == len(set(ids))
    for task in GRID:
        for _, value in task.params:
            assert type(value) in (float, int)


def test_a_float_one_ulp_below_the_profile_is_unsafe_and_one_above_conservative() -> None:
    cert = certify(find("delta-s1.0-R1-e1.0"))
    box = cert.enclosure
    assert classify(cert, _below(box.lo)).cls == "unsafe"
    assert classify(cert, _above(box.hi)).cls == "conservative"
    assert classify(cert, math.nan).cls == "invalid"
    assert classify(cert, math.inf).cls == "conservative"
    assert classify(cert, 0.0).cls == "unsafe"


def test_an_epsilon_inside_the_enclosure_is_decided_at_the_float_itself() -> None:
    """autodp 0.2.3.1's get_eps_ana_gaussian(2.0, 1e-18) (recorded) lies inside privref's 2^-30
    enclosure, but δ at that ε is proved to exceed 1e-18: unsafe; the next float up is safe."""
    cert = certify(find("eps-s2.0-R1-d1e-18"))
    recorded = 4.3366817594743186
    assert cert.enclosure.lo <= F(recorded) <= cert.enclosure.hi
    verdict = classify(cert, recorded)
    assert verdict.cls == "unsafe" and "proved to exceed" in verdict.how
    safe = classify(cert, float(cert.enclosure.hi))
    assert safe.cls in ("inside", "conservative") and safe.proved_safe


def test_sigma_below_the_calibrated_sigma_is_unsafe() -> None:
    cert = certify(find("sigma-R1-e10.0-d1e-05"))
    assert classify(cert, _below(cert.enclosure.lo)).cls == "unsafe"
    assert classify(cert, float(cert.enclosure.hi) * 2).cls == "conservative"


def test_cks_enclosure_is_tight_and_between_the_gaussian_and_lemma_51() -> None:
    rho, eps = F(1, 20), F(1, 4)
    box = cks_delta(rho, eps)
    assert box.width <= box.hi * F(1, 2**150)
    # mpmath at 80 digits (findroot on g', then exp(g)), an independent computation
    assert abs(F("0.0817727531036955208742573049945") - box.lo) <= F(1, 10**30)
    float_rho = cks_delta(F(0.05), eps)  # ρ = the float 0.05, slightly above 1/20
    assert abs(F("0.0817727531036955257378546784146") - float_rho.lo) <= F(1, 10**30)
    assert gaussian_floor(rho, eps).hi < box.lo
    assert box.hi <= zcdp_delta(rho, eps).enclose(128).lo  # 001 Lemma 51's δ is looser


def test_a_zcdp_delta_below_the_gaussian_is_unsafe_between_unproved() -> None:
    cert = certify(find("zcdp-r0.05-e0.25"))
    assert cert.floor is not None
    assert classify(cert, _below(cert.floor.lo)).cls == "unsafe"
    assert classify(cert, _below(cert.enclosure.lo)).cls == "unproved"
    assert classify(cert, _above(cert.enclosure.hi)).cls == "conservative"


def test_worker_reports_missing_and_failing_imports(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(LibraryMissing, match="not installed"):
        Worker("privref_no_such_library", "ghost", 5).start()
    (tmp_path / "privref_broken_fixture.py").write_text("raise RuntimeError('broken at import')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    with pytest.raises(LibraryFailed, match="RuntimeError: broken at import"):
        Worker("privref_broken_fixture", "broken", 5).start()


def test_worker_call_raises_overruns_and_recovers() -> None:
    worker = Worker("json", "privref", timeout=1.0)
    worker.start()
    try:
        assert worker.call("result = (0.1, 2.5)").values == (0.1, 2.5)
        assert worker.call("raise ValueError('no answer')").raised == "ValueError: no answer"
        print_then = worker.call("print('noise on stdout')\nresult = 1.0")
        assert print_then.values == (1.0,)  # a library's print never corrupts the answers
        slow = worker.call("import time\ntime.sleep(30)\nresult = 1.0")
        assert slow.timed_out and slow.values is None
        assert worker.call("result = 3.0").values == (3.0,)  # a new child after the kill
    finally:
        worker.close()


def _fake(code: str) -> Library:
    return Library("fake", "json", "privref", (Method("stand-in", "gaussian_delta", code),))


@pytest.mark.parametrize(("code", "status", "shown"), [
    ("result = 1.0", 0, "conservative"),
    ("result = 0.0", 1, "UNSAFE"),
    ("result = float('nan')", 5, "invalid"),
    ("raise ValueError('refused')", 5, "raised ValueError: refused"),
])
def test_exit_status_follows_the_worst_answer(code: str, status: int, shown: str,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(registry.LIBRARIES, "fake", _fake(code))
    assert main(["check-accountant", "fake", "--only", "delta-s1.0-R1-e1.0", "--quiet"]) == status
    assert shown in capsys.readouterr().out


def test_unsafe_answer_prints_the_snippet_to_reproduce(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(registry.LIBRARIES, "fake", _fake("result = 0.0 * $sigma"))
    assert main(["check-accountant", "fake", "--only", "delta-s1.0-R1-e1.0", "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "reproduce:" in out and "result = 0.0 * 1.0" in out


def test_missing_library_exits_6_and_failing_import_exits_5(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(registry.LIBRARIES, "ghost", Library(
        "ghost", "privref_no_such_library", "ghost", _fake("result = 1.0").methods))
    assert main(["check-accountant", "ghost", "--only", "delta-s1.0-R1-e1.0"]) == 6
    assert "error: ghost is not installed" in capsys.readouterr().err
    (tmp_path / "privref_broken_fixture.py").write_text("raise RuntimeError('broken')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setitem(registry.LIBRARIES, "broken", Library(
        "broken", "privref_broken_fixture", "broken", _fake("result = 1.0").methods))
    assert main(["check-accountant", "broken", "--only", "delta-s1.0-R1-e1.0"]) == 5
    err = capsys.readouterr().err
    assert "error: importing broken raised RuntimeError: broken" in err
    assert "Traceback" not in err


def test_timeout_exits_5(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(registry.LIBRARIES, "fake", _fake("import time\ntime.sleep(30)\nresult = 1.0"))
    assert main(["check-accountant", "fake", "--only", "delta-s1.0-R1-e1.0", "--task-timeout",
                 "0.5", "--quiet"]) == 5
    assert "timeout" in capsys.readouterr().out


def test_json_records_versions_enclosures_and_snippets(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    monkeypatch.setitem(registry.LIBRARIES, "fake", _fake("result = 1.0"))
    out = tmp_path / "out.json"
    assert main(["check-accountant", "fake", "--only", "delta-s1.0-R1-e1.0", "--quiet",
                 "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["libraries"]["fake"]["version"] and data["privref_version"]
    (answer,) = data["libraries"]["fake"]["answers"]
    assert answer["class"] == "conservative" and answer["value_hex"] == (1.0).hex()
    (task,) = data["tasks"]
    lo, hi = (F(x) for x in task["enclosure"])
    assert lo <= hi < 1


def test_all_skips_a_missing_library_and_a_broken_one_exits_5(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "privref_broken_fixture.py").write_text("raise RuntimeError('broken')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    fake = _fake("result = 1.0")
    monkeypatch.setattr(registry, "LIBRARIES", {
        "fake": fake,
        "ghost": Library("ghost", "privref_no_such_library", "ghost", fake.methods),
    })
    from privref.app.commands import check_accountant

    monkeypatch.setattr(check_accountant, "LIBRARIES", registry.LIBRARIES)
    assert main(["check-accountant", "all", "--only", "delta-s1.0-R1-e1.0", "--quiet"]) == 0
    assert "ghost: not installed (skipped)" in capsys.readouterr().out
    registry.LIBRARIES["broken"] = Library("broken", "privref_broken_fixture", "broken",
                                           fake.methods)
    assert main(["check-accountant", "all", "--only", "delta-s1.0-R1-e1.0", "--quiet"]) == 5
    assert "broken failed to import" in capsys.readouterr().err
