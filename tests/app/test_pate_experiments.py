"""``privref table4`` (001 Table 4's experiment), small and fast.

Exact claims: the split rule reproduces every size of 001 Table 3; the NP baselines are the
exact majority (recomputed here independently); a run is a deterministic function of the seed;
ε_ex_post never exceeds the budget ε (exact rationals) and the calibration bracket's ε_ex_post
at the full budget contains ε; bad flags end in InvalidArgument naming the flag.  Accuracy
figures are not asserted (they are measurements).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from privref.app.commands import table4
from privref.app.experiments import pate as pe
from privref.app.experiments import pate_students_sklearn
from privref.app.experiments.datasets import default_data_dir, load_known
from privref.app.experiments.paper_table4 import ACCURACY, ROWS, paper_accuracy
from privref.app.experiments.pate_students_active import iwal_logistic_program
from privref.app.experiments.pate_students_sklearn import logistic_student
from privref.app.reports import pate_text
from privref.reference.accounting import algorithm1_sigma, calibrate_sigma, epsilon_ex_post
from privref.reference.errors import InvalidArgument, PrivrefError, UnknownLabel
from privref.reference.learners.pate_teachers import majority
from privref.reference.program import Program, sample


def _plain(y: int) -> Program[int]:
    return y
    yield  # pragma: no cover


def _parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="privref table4")
    table4.configure_parser(parser)
    parser.add_argument("--quiet", action="store_true")
    return parser.parse_args(list(argv))


@pytest.fixture(scope="module")
def data_dir() -> Path:
    try:
        folder = default_data_dir()
        load_known("mushroom", folder)
    except InvalidArgument:
        pytest.skip("shared/data is not next to this checkout")
    return folder


def _synthetic(path: Path, rows: int, seed: int) -> Path:
    """A LIBSVM file of ``rows`` linearly separable-ish examples on 6 binary features."""
    rng = np.random.default_rng(seed)
    lines = []
    for _ in range(rows):
        x = rng.integers(0, 2, size=6)
        label = "+1" if x[0] + x[1] + (rng.random() < 0.1) >= 2 else "-1"
        feats = " ".join(f"{i + 1}:1" for i in range(6) if x[i])
        lines.append(f"{label} {feats}".strip())
    path.write_text("\n".join(lines) + "\n")
    return path


def test_split_rule_reproduces_table3() -> None:
    # 001 Table 3: # All, # Train, # Unlabeled, # Budget, # Test (mushroom, a9a, real-sim)
    for rows, train, unlabeled, budget, test in ((8124, 6499, 163, 49, 1462),
                                                 (48842, 39073, 977, 293, 8792),
                                                 (72309, 57847, 1447, 434, 13015)):
        s = pe.sizes_for(rows)
        assert (s.private, s.public, s.budget, s.test) == (train, unlabeled, budget, test)
        assert s.delta == Fraction(1, train)
    assert pe.sizes_for(8124).teachers == 65 and pe.sizes_for(32561).teachers == 260
    assert (pe.sizes_for(32561).public, pe.sizes_for(32561).budget) == (652, 196)


def test_paper_table4_in_one_place() -> None:
    assert len(ACCURACY) == 24
    row = paper_accuracy("mushroom", "ASQ", Fraction(1, 2))
    assert row is not None and row.accuracy == Fraction("0.6418") and row.queries == Fraction("40.1")
    assert paper_accuracy("a9a", "PSQ-NP", None) is not None
    # the private rows agree with the ε_ex_post table on # Queries
    for printed in ROWS:
        acc = paper_accuracy(printed.dataset, printed.method, printed.epsilon)
        assert acc is not None and acc.queries == printed.queries


def test_ci_half_width() -> None:
    assert pe.ci95_half_width([0.5]) is None
    assert pe.ci95_half_width([0.0, 1.0]) == pytest.approx(1.96 * np.sqrt(0.5) / np.sqrt(2))


def test_tiny_run_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = _synthetic(tmp_path / "toy.txt", 700, 1)
    out = tmp_path / "out"
    out.mkdir()
    args = _parse("--datasets", "", "--libsvm", str(file), "--runs", "2", "--seed", "5",
                  "--epsilons", "1/2,2", "--json", str(out / "t.json"), "--png",
                  str(out / "t.png"), "--markdown", str(out / "t.md"), "--quiet")
    assert table4.run(args) == 0
    payload = json.loads((out / "t.json").read_text())
    assert {"command", "versions", "seed", "seconds", "parameters", "notes",
            "datasets"} <= set(payload)
    assert payload["seed"] == 5 and payload["parameters"]["runs"] == 2
    (ds,) = payload["datasets"]
    assert ds["sizes"] == {"private": 560, "public": 14, "test": 126, "teachers": 6,
                           "budget": 4, "delta": "1/560"}
    assert len(ds["files"][0]["sha256"]) == 64 and ds["files"][0]["rows"] == 700
    keys = [(a["method"], a["epsilon"]) for a in ds["aggregates"]]
    assert keys == [("PSQ-NP", None), ("ASQ-NP", None), ("ASQ-MS-NP", None), ("PSQ", "1/2"),
                    ("ASQ", "1/2"), ("ASQ-MS", "1/2"), ("PSQ", "2"), ("ASQ", "2"),
                    ("ASQ-MS", "2")]
    for agg in ds["aggregates"]:
        assert {"accuracy_mean", "accuracy_ci95", "queries_mean", "queries_ci95"} <= set(agg)
        if agg["epsilon"] is not None:
            assert {"epsilon_ex_post_mean_of_ends", "epsilon_ex_post_at_mean_queries",
                    "epsilon_ex_post_at_budget", "sigma_bracket"} <= set(agg)
    for run in ds["runs"]:
        assert {"majority_class_rate", "nonprivate_accuracy", "methods"} <= set(run)
        for m in run["methods"]:
            assert m["correct"] == round(m["accuracy"] * 126)
            assert m["queries"] <= (14 if m["method"].startswith("PSQ") else 4)
    assert (out / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (out / "t.md").read_text()
    assert "| ASQ | 0.5 |" in page and "95%" in page and "not a privacy guarantee" in page
    assert "wrote" in capsys.readouterr().out


_BASE = pe.ExperimentConfig(datasets=("mushroom",), files=(), data_dir=None, runs=2, seed=3,
                            epsilons=(Fraction(1, 2), Fraction(2)), noise="continuous",
                            teachers=None, budget=None, delta=None, subsample=1000)


def _config(**changes: Any) -> pe.ExperimentConfig:
    return dataclasses.replace(_BASE, **changes)


def _figures(result: dict[str, Any]) -> Any:
    return [r["methods"] for r in result["runs"]], result["aggregates"]


def test_deterministic_and_np_is_the_exact_majority(data_dir: Path) -> None:
    data = load_known("mushroom", data_dir)
    config = _config(data_dir=str(data_dir), epsilons=(Fraction(2),))
    first = pe.run_dataset("mushroom", data, config)
    again = pe.run_dataset("mushroom", data, config)
    assert _figures(first) == _figures(again)
    assert _figures(pe.run_dataset("mushroom", data, _config(data_dir=str(data_dir), seed=4))) \
        != _figures(first)
    # recompute PSQ-NP and ASQ-NP of run 1 from the votes with an independent majority
    X, y = data.features, np.asarray(data.labels)
    keep = np.sort(np.random.default_rng(
        pe._seed_sequence(3, "mushroom", 1 << 30, 4)).choice(data.rows, 1000, replace=False))
    X, y = X[keep], y[keep]
    sizes = pe.sizes_for(1000)
    prep = pe.prepare_run(X, y, sizes, 3, "mushroom", 1)
    labels = np.array([majority(v, prep.teachers) for v in prep.votes], dtype=np.uint8)
    Xu, Xt, yt = X[prep.public], X[prep.test], y[prep.test]
    psq = logistic_student(Xu, labels, seed=prep.student_seed)
    # ASQ-NP: the IWAL student fed the independent majority, with the run's coin generator
    coins = np.random.default_rng(pe._seed_sequence(3, "mushroom", 1, 3, 1, 0, 0))
    asq = sample(lambda: iwal_logistic_program(Xu, lambda j: _plain(int(labels[j])),
                                               budget=sizes.budget, seed=prep.student_seed,
                                               c0=config.c0, gap=config.iwal_gap), rng=coins)
    by = {m["method"]: m for m in first["runs"][1]["methods"] if m["epsilon"] is None}
    assert by["PSQ-NP"]["correct"] == int(np.count_nonzero(psq.predict(Xt) == yt))
    assert by["ASQ-NP"]["correct"] == int(np.count_nonzero(asq.model.predict(Xt) == yt))
    assert by["ASQ-NP"]["queries"] == len(asq.queried)
    assert by["ASQ-NP"]["queried"] == list(asq.queried)
    for run in first["runs"]:  # every answer of every ASQ-NP run is the exact majority
        votes = pe.prepare_run(X, y, sizes, 3, "mushroom", run["run"]).votes
        np_row = next(m for m in run["methods"] if m["method"] == "ASQ-NP")
        assert np_row["answers"] == [majority(votes[j], prep.teachers) for j in np_row["queried"]]


def test_epsilon_ex_post_never_exceeds_the_budget(data_dir: Path) -> None:
    """σ_hi is proved safe for q queries, so ε(σ_hi, R) <= ε(σ_hi, q) <= ε for R <= q: every
    enclosure's lower end is <= ε (exact).  At R = q over the bracket (σ_lo, σ_hi], the
    enclosure holds ε: ε(σ_hi) <= ε < ε(σ_lo)."""
    data = load_known("mushroom", data_dir)
    config = _config(data_dir=str(data_dir), runs=1, epsilons=(Fraction(1),))
    result = pe.run_dataset("mushroom", data, config)
    sizes = pe.sizes_for(1000)
    for agg in (a for a in result["aggregates"] if a["epsilon"] is not None):
        q = sizes.public if agg["method"] == "PSQ" else sizes.budget
        bracket = calibrate_sigma(q, 1, sizes.delta, pe.CALIBRATION_TOLERANCE)
        assert Fraction(agg["noise_value_used"]) == bracket.hi
        whole = epsilon_ex_post(bracket, q, sizes.delta, pe.CALIBRATION_TOLERANCE)
        assert whole.lo <= 1 <= whole.hi
        at_budget = agg["epsilon_ex_post_at_budget"]
        assert Fraction(at_budget["lo"]) <= 1 and Fraction(at_budget["lo"]) >= whole.lo
        assert 1 - Fraction(at_budget["lo"]) <= Fraction(1, 10**6)  # σ_hi is nearly tight
    for run in result["runs"]:
        for m in run["methods"]:
            if m["epsilon"] is not None:
                assert Fraction(m["epsilon_ex_post"]["lo"]) <= Fraction(m["epsilon"])


def test_discrete_noise_accounting(tmp_path: Path) -> None:
    file = _synthetic(tmp_path / "toy.txt", 400, 2)
    config = _config(datasets=(), files=(str(file),), runs=1, noise="discrete", subsample=None,
                     epsilons=(Fraction(1),))
    result = pe.run_experiment(config)["datasets"][0]
    sizes = pe.sizes_for(400)
    for agg in (a for a in result["aggregates"] if a["epsilon"] is not None):
        q = sizes.public if agg["method"] == "PSQ" else sizes.budget
        s2 = Fraction(agg["noise_value_used"])
        square = (algorithm1_sigma(q, 1, sizes.delta) ** 2).enclose(64)
        assert s2.denominator == 1 and square.hi <= s2 < square.lo + 1  # ⌈σ²⌉ of Step 1
        assert Fraction(agg["epsilon_ex_post_at_budget"]["lo"]) <= 1


@pytest.mark.parametrize(("argv", "names"), [
    (("--runs", "0"), r"--runs=0 must be an int in \[1, 1000\]"),
    (("--runs", "x"), r"--runs='x'"),
    (("--epsilons", "0"), r"--epsilons: 0 must lie in \(0, 100\]"),
    (("--epsilons", "1/2,abc"), r"--epsilons='abc'"),
    (("--delta", "1"), r"--delta=1 must lie in the open interval"),
    (("--budget", "0"), r"--budget=0 must be an int in \[1,"),
    (("--seed", "-1"), r"--seed=-1"),
    (("--datasets", "real-sim"), r"--datasets='real-sim'"),
    (("--subsample", "10"), r"--subsample=10"),
    (("--datasets", ""), r"nothing to run"),
    (("--active-rule", "both"), r"--active-rule='both' must be one of iwal, agnostic, cal"),
    (("--c0", "0"), r"--c0='0' must be a number in \(0, 100\]"),
    (("--c0-sweep", "1,1"), r"--c0-sweep='1,1' repeats a value"),
    (("--runs", "3", "--sweep-runs", "4"), r"--sweep-runs=4 must be an int in \[1, 3\]"),
])
def test_bad_flags(argv: tuple[str, ...], names: str) -> None:
    with pytest.raises(InvalidArgument, match=names):
        table4.config_from_args(_parse(*argv))


def test_bad_data(tmp_path: Path, data_dir: Path) -> None:
    tiny = _synthetic(tmp_path / "tiny.txt", 40, 3)
    with pytest.raises(InvalidArgument, match=r"--teachers: rows=40 give 32 private rows"):
        table4.run(_parse("--datasets", "", "--libsvm", str(tiny), "--runs", "1", "--quiet"))
    with pytest.raises(InvalidArgument, match=r"--teachers=7000 must lie in \[1, 6499\]"):
        table4.run(_parse("--datasets", "mushroom", "--data-dir", str(data_dir), "--teachers",
                      "7000", "--runs", "1", "--quiet"))
    with pytest.raises(InvalidArgument, match=r"--budget=500 must lie in \[1, 163\]"):
        table4.run(_parse("--datasets", "mushroom", "--data-dir", str(data_dir), "--budget", "500",
                      "--runs", "1", "--quiet"))
    bad = tmp_path / "bad.txt"
    bad.write_text("+1 1:1\n3 2:1\n")
    with pytest.raises(UnknownLabel, match=r"--libsvm .*line 2: label '3' is not binary"):
        table4.run(_parse("--datasets", "", "--libsvm", str(bad), "--quiet"))
    with pytest.raises(PrivrefError, match=r"--data-dir \(mushroom\).*cannot be read"):
        table4.run(_parse("--datasets", "mushroom", "--data-dir", str(tmp_path), "--quiet"))


def test_docs_page_is_generated_from_the_committed_json() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs"
    table, page = docs / "generated" / "pate-table4.json", docs / "pate-experiments.md"
    if not table.exists() or not page.exists():
        pytest.skip("docs/generated/pate-table4.json or docs/pate-experiments.md not present")
    payload = json.loads(table.read_text())
    compare = payload["parameters"].get("compare_json")
    other = None if not compare else json.loads((table.parent / Path(compare).name).read_text())
    # the page lives in docs/, its data in docs/generated/ (a no-op once markdown() links there)
    expected = pate_text.markdown(payload, other).replace("](pate-table4", "](generated/pate-table4")
    assert page.read_text() == expected
    if other is not None:
        assert other["parameters"]["active_rule"] != payload["parameters"]["active_rule"]
        assert (other["seed"], other["parameters"]["runs"]) == (payload["seed"], 30)
    assert payload["parameters"]["runs"] == 30 and payload["seed"] == 0
    for ds in payload["datasets"]:  # ε_ex_post never above the budget, in every run (exact)
        for run in ds["runs"]:
            for m in run["methods"]:
                if m["epsilon"] is not None:
                    assert Fraction(m["epsilon_ex_post"]["lo"]) <= Fraction(m["epsilon"])


def test_active_rule_option(tmp_path: Path) -> None:
    """--active-rule: iwal by default, recorded in the JSON and the page's command line;
    --compare-json adds the side-by-side table and refuses a JSON of the same rule; the rule is
    all that changes (PSQ rows and every split are the same), and a run is deterministic."""
    assert table4.config_from_args(_parse()).active_rule == "iwal" == pe.DEFAULT_ACTIVE_RULE
    assert table4.config_from_args(_parse("--active-rule", "cal")).active_rule == "cal"
    quick = table4.config_from_args(_parse("--quick"))
    assert (quick.runs, quick.subsample) == (table4.QUICK_RUNS, table4.QUICK_ROWS)
    file = _synthetic(tmp_path / "toy.txt", 500, 4)
    base = ("--datasets", "", "--libsvm", str(file), "--runs", "2", "--seed", "1", "--epsilons",
            "1", "--quiet", "--active-rule", "agnostic")
    cal, agn, page = tmp_path / "cal.json", tmp_path / "agn.json", tmp_path / "agn.md"
    assert table4.run(_parse(*base, "--active-rule", "cal", "--json", str(cal))) == 0
    assert table4.run(_parse(*base, "--compare-json", str(cal), "--json", str(agn),
                         "--markdown", str(page))) == 0
    a, c = json.loads(agn.read_text()), json.loads(cal.read_text())
    assert (a["parameters"]["active_rule"], c["parameters"]["active_rule"]) == ("agnostic", "cal")
    text = page.read_text()
    assert "--active-rule agnostic --compare-json" in text
    assert "## The two active rules side by side" in text and "Accuracy (cal)" in text
    assert text == pate_text.markdown(a, c)
    for x, y in zip(a["datasets"][0]["runs"], c["datasets"][0]["runs"], strict=True):
        psq = [(m["method"], m["correct"]) for m in x["methods"] if m["method"].startswith("PSQ")]
        assert psq == [(m["method"], m["correct"]) for m in y["methods"]
                       if m["method"].startswith("PSQ")]
    # the rule reaches the active student (spied: whether the two rules' queries differ on a toy
    # set depends on floating-point ties of the fits, so the call itself is checked)
    seen: list[object] = []
    real = pate_students_sklearn.active_logistic_program

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("rule"))
        return real(*args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pe, "active_logistic_program", spy)
        assert table4.run(_parse(*base, "--active-rule", "cal", "--json", str(tmp_path / "s.json"))) == 0
        assert table4.run(_parse(*base, "--json", str(tmp_path / "t.json"))) == 0
    assert set(seen) == {"cal", "agnostic"} and seen[0] == "cal" and seen[-1] == "agnostic"
    again = tmp_path / "again.json"
    assert table4.run(_parse(*base, "--json", str(again))) == 0
    assert json.loads(again.read_text())["datasets"] == a["datasets"]
    with pytest.raises(InvalidArgument, match=r"--compare-json=.*same --active-rule agnostic"):
        table4.run(_parse(*base, "--compare-json", str(agn)))
    with pytest.raises(InvalidArgument, match=r"--compare-json=.*cannot be read"):
        table4.run(_parse(*base, "--compare-json", str(tmp_path / "missing.json")))
