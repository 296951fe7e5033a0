"""``privref table4 --help`` lists every option and names the realdata extra, installed or not."""

from __future__ import annotations

import sys

import pytest

import privref.app.commands
import privref.app.experiments
import privref.app.reports
from privref.app.commands.cli import main

_HEAVY = ("scipy", "scipy.sparse", "sklearn", "sklearn.linear_model")
_OURS = ("privref.app.commands.table4", "privref.app.experiments.datasets",
         "privref.app.experiments.pate", "privref.app.experiments.pate_students_sklearn",
         "privref.app.reports.pate_plot", "privref.app.reports.pate_text")
_FLAGS = ("--runs", "--seed", "--datasets", "--libsvm", "--data-dir", "--epsilons", "--noise",
          "--teachers", "--budget", "--delta", "--subsample", "--active-rule", "--compare-json",
          "--jobs", "--json", "--png", "--markdown", "--quiet", "--quick", "--c0", "--c0-sweep",
          "--sweep-runs", "--iwal-gap")


@pytest.fixture
def without_realdata(monkeypatch: pytest.MonkeyPatch) -> None:
    """scipy and scikit-learn cannot be imported; privref's modules that use them are re-imported."""
    for name in _HEAVY:
        monkeypatch.setitem(sys.modules, name, None)
    for name in _OURS:
        monkeypatch.delitem(sys.modules, name, raising=False)
        parent, _, leaf = name.rpartition(".")
        monkeypatch.delattr(sys.modules[parent], leaf, raising=False)


def test_help_lists_the_options_without_the_extra(without_realdata: None,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table4", "--help"]) == 0
    out = capsys.readouterr().out
    missing = [flag for flag in _FLAGS if flag not in out]
    assert not missing, f"--help without the realdata extra lacks {missing}"
    assert "pip install 'privref[realdata]'" in out and "It is not installed here" in out
    assert "a9a, mushroom" in out and "C0 = 8" in out


def test_running_without_the_extra_names_it(without_realdata: None,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table4", "--runs", "2"]) == 2
    err = capsys.readouterr().err
    assert "privref table4: error: the 'realdata' extra is not installed" in err
    assert main(["table4", "--no-such-flag"]) == 2
    assert "unrecognized arguments: --no-such-flag" in capsys.readouterr().err


def test_help_with_the_extra_names_it(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sklearn")
    assert main(["table4", "--help"]) == 0
    out = capsys.readouterr().out
    assert all(flag in out for flag in _FLAGS)
    assert "pip install 'privref[realdata]'" in out and "not installed" not in out


def test_help_fallbacks_match_the_experiment() -> None:
    """The values --help shows without the extra are the experiment's own."""
    pytest.importorskip("sklearn")
    from privref.app.commands import table4
    from privref.app.experiments.datasets import KNOWN_DATASETS
    from privref.app.experiments.pate import DEFAULT_ACTIVE_RULE
    from privref.app.experiments.pate_students_sklearn import AGNOSTIC_C0
    assert tuple(sorted(KNOWN_DATASETS)) == table4._HELP_DATASETS
    assert table4._HELP_ACTIVE_RULE == DEFAULT_ACTIVE_RULE
    assert table4._HELP_AGNOSTIC_C0 == AGNOSTIC_C0
    from privref.app.experiments.pate_students_active import IWAL_C0
    assert table4._HELP_IWAL_C0 == IWAL_C0
    assert privref.app.commands and privref.app.experiments and privref.app.reports
