"""The HTML report (``--html PATH``): self-contained, escaped, three plots, the bound-vs-N curve.

Small budgets and fixed seeds; every audit here is deterministic (the runner's
samples depend only on the seed, the target and the parameters).
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import textwrap
from collections.abc import Callable
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from privref.app.blackbox_cli import configure_parser, run
from privref.app.cli import main
from privref.app.reports.html_report import bound_growth, prefix_sizes, render_html, write_html
from privref.audits.blackbox import (
    AuditConfig,
    BlackboxReport,
    WitnessSamples,
    run_audit,
    sample_pair,
    target_from_callable,
)
from privref.audits.blackbox.target import TargetCallError
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.privacy import parse_epsilon
from validation.zoo import zoo_entry

from ..stats import AUDIT_CONFIDENCE

SAMPLES = 2000
SEED = 5


def rr_vec(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
    """Randomized response keeping the bit with probability 3/4 (ln 3-DP)."""
    return np.where(rng.random(size) < 0.75, data[0], 1 - data[0])


def colors(data: list[int], rng: np.random.Generator, size: int) -> list[str]:
    """Labels; '<script>alert(1)</script>' only appears on [1], and most often: the witness event."""
    common, rare = ("<script>alert(1)</script>", "green") if data[0] else ("green", "red")
    return [common if u < 0.7 else rare for u in rng.random(size)]


def laplace_inf(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
    """Laplace(1) around sum(data) (1-DP), with rare ±inf outcomes."""
    x = sum(data) + rng.laplace(0.0, 1.0, size)
    u = rng.random(size)
    x[u < 0.01] = np.inf
    x[u > 0.995] = -np.inf
    return x


colors.privref_vectorized = True  # type: ignore[attr-defined]

HIST = zoo_entry("histogram_inverted_scale")  # 5-bin integer count vectors, claims 1/2, true 2
CASES: dict[str, tuple[Callable[..., Any], str, tuple[tuple[int, ...], tuple[int, ...]]]] = {
    "discrete": (rr_vec, "1/2", ((0,), (1,))),
    "labels": (colors, "1", ((0,), (1,))),
    "float": (laplace_inf, "1", ((0,), (1,))),
    "vector": (HIST.vectorized or HIST.sampler, str(HIST.claimed_epsilon),
               (tuple(HIST.pairs[0][0]), tuple(HIST.pairs[0][1]))),
}


@cache
def audited(case: str) -> tuple[BlackboxReport, str]:
    fn, eps, pair = CASES[case]
    target = target_from_callable(fn, f"{case}-target")
    config = AuditConfig(epsilon=parse_epsilon(eps), samples=SAMPLES, seed=SEED, confidence=AUDIT_CONFIDENCE)
    report = run_audit(target, config, [pair], keep_witness_samples=True)
    return report, render_html(report)


class _Structure(HTMLParser):
    """Collects tags and checks that non-void elements are balanced."""

    VOID = frozenset({"meta", "br", "hr", "img", "link", "input", "line", "rect", "circle", "path"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def structure(text: str) -> _Structure:
    parser = _Structure()
    parser.feed(text)
    parser.close()
    return parser


def assert_self_contained(text: str) -> None:
    lowered = text.lower()
    assert "http://" not in lowered and "https://" not in lowered
    assert "//" not in lowered  # no protocol-relative link either
    assert "<script" not in lowered and "<link" not in lowered and "<img" not in lowered
    assert "@import" not in lowered and "url(" not in lowered and "<iframe" not in lowered
    parsed = structure(text)
    assert not parsed.errors and not parsed.stack
    for tag, attrs in parsed.tags:
        assert not {"src", "href", "xlink:href"} & set(attrs), (tag, attrs)
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)


@pytest.mark.parametrize("case", list(CASES))
def test_self_contained_with_three_plots(case: str) -> None:
    report, text = audited(case)
    assert report.status == "complete"
    assert_self_contained(text)
    plots = 4 if report.float_leak else 3  # a float leak adds the real-valued view
    assert text.count("<svg") == plots and text.count("</svg>") == plots
    for title in ("output distributions of the witness pair", "empirical privacy-loss distribution",
                  "epsilon lower bound as N grows"):
        assert title in text
    # the header carries the report's facts
    assert report.verdict is not None and report.verdict.value in text
    assert f"{report.epsilon_lower_bound:.6g}" in text and f"<td>{report.seed}</td>" in text
    assert f"{report.samples} per side" in text and "privref version" in text
    assert f"{case}-target" in text
    assert "separate confidence statement" in text


def test_full_n_point_is_the_reported_bound() -> None:
    for case in CASES:
        report, text = audited(case)
        w, samples = report.witness, report.witness_samples
        assert w is not None and samples is not None
        # the reported bound is the larger of the two views (float outputs) or the only one
        real = (w.real_estimate is not None
                and w.real_estimate.epsilon_lower_bound > w.estimate.epsilon_lower_bound)
        view = w.real_estimate if real and w.real_estimate is not None else w.estimate
        points = bound_growth(samples, epsilon=report.claimed_epsilon, delta=report.claimed_delta,
                              alpha=w.alpha, real_view=real)
        assert [p.samples_a for p in points] == list(prefix_sizes(SAMPLES))
        assert points[-1].samples_a == points[-1].samples_b == report.samples
        assert points[-1].epsilon_lower_bound == report.epsilon_lower_bound, case
        assert points[-1].violation == view.violation
        assert f"<tr><td>{SAMPLES}</td><td>{report.epsilon_lower_bound:.6g}</td>" in text
        assert "differs from the report" not in text


def test_prefix_sizes() -> None:
    assert prefix_sizes(20_000) == (312, 625, 1250, 2500, 5000, 10_000, 20_000)
    assert prefix_sizes(5) == (2, 5) and prefix_sizes(2) == (2,)


def test_views_per_output_type() -> None:
    """Bars for few outcomes, histograms for many numbers, one named coordinate for vectors."""
    assert "Bars per outcome" in audited("discrete")[1]
    labels = audited("labels")[1]
    assert "Bars per outcome" in labels and "&#x27;green&#x27;" in labels
    assert "(q̂ = 0)" in labels  # the event outcome is never seen under Q: the +inf loss bucket
    floats = audited("float")[1]
    # a floating-point leak: the pattern view where it lives, then the innocent real values
    assert "Floating-point leak (Mironov 2012)" in floats and "--no-float-events" in floats
    assert floats.index("the IEEE-754 pattern class of the output") < floats.index(
        "Real-valued view")
    assert ">+∞</text>" in floats and ">−∞</text>" in floats
    vector = audited("vector")[1]
    assert re.search(r"Shown: output\[\d\], the coordinate the witness event reads", vector)


def test_samples_are_the_confirmation_samples_and_results_unchanged() -> None:
    fn, eps, pair = CASES["discrete"]
    target = target_from_callable(fn, "discrete-target")
    config = AuditConfig(epsilon=parse_epsilon(eps), samples=SAMPLES, seed=SEED, confidence=AUDIT_CONFIDENCE)
    plain = run_audit(target, config, [pair])
    kept, _ = audited("discrete")
    assert plain.witness_samples is None and kept.witness_samples is not None
    strip = ("elapsed_seconds", "selection_cap")  # None when every outcome is kept
    assert kept.selection_cap is None and plain.selection_cap == 2**20
    assert ({k: v for k, v in plain.to_json().items() if k not in strip}
            == {k: v for k, v in kept.to_json().items() if k not in strip})
    a, b = sample_pair(target, pair, samples=SAMPLES, seed=SEED, stage=1, index=0)
    assert np.array_equal(np.asarray(kept.witness_samples.a), np.asarray(a.values))
    assert np.array_equal(np.asarray(kept.witness_samples.b), np.asarray(b.values))


def test_searched_run_keeps_only_the_witness_samples() -> None:
    target = target_from_callable(rr_vec, "rr")
    config = AuditConfig(epsilon=parse_epsilon("1/2"), samples=600, seed=2, screening_samples=200,
                         confirm=2, confidence=AUDIT_CONFIDENCE)
    report = run_audit(target, config, None, keep_witness_samples=True)
    w, samples = report.witness, report.witness_samples
    assert w is not None and samples is not None and len(samples.a) == len(samples.b) == 600
    a, _ = sample_pair(target, w.pair, samples=600, seed=2, stage=1, index=w.index)
    assert np.array_equal(np.asarray(samples.a), np.asarray(a.values))
    points = bound_growth(samples, epsilon=report.claimed_epsilon, delta=report.claimed_delta,
                          alpha=w.alpha)
    assert points[-1].epsilon_lower_bound == report.epsilon_lower_bound


def test_untrusted_strings_are_escaped() -> None:
    report, text = audited("labels")
    assert "<script" not in text.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text  # the event, in the header and pairs
    evil = dataclasses.replace(
        report, target="evil<script>alert('t')</script>.py:f", target_package="<b>pkg</b>",
        target_package_version="1<i>", warnings=("<img src=x onerror=alert(1)>",),
        notes=("a & b <note>",), status="error", verdict=None, error="</table><marquee>boom()")
    hostile = render_html(evil)
    assert_self_contained(hostile)
    for raw in ("<script", "<img", "<b>pkg", "<note>", "<marquee>", "1<i>"):
        assert raw not in hostile
    for escaped in ("evil&lt;script&gt;alert(&#x27;t&#x27;)&lt;/script&gt;.py:f",
                    "&lt;img src=x onerror=alert(1)&gt;", "a &amp; b &lt;note&gt;",
                    "&lt;/table&gt;&lt;marquee&gt;boom()"):
        assert escaped in hostile
    assert "ERROR (no verdict)" in hostile


def test_report_without_samples_still_has_three_panels() -> None:
    report, _ = audited("discrete")
    bare = dataclasses.replace(report, witness_samples=None)
    text = render_html(bare)
    assert_self_contained(text)
    assert text.count("<svg") == 3 and "keep_witness_samples=True" in text
    no_witness = dataclasses.replace(report, witness=None, witness_samples=None, pairs=(),
                                     status="interrupted", verdict=None, error="interrupted")
    text = render_html(no_witness)
    assert text.count("<svg") == 3 and "no witness pair" in text
    # explicit samples override the report's
    again = render_html(bare, WitnessSamples(report.witness_samples.a,  # type: ignore[union-attr]
                                             report.witness_samples.b))  # type: ignore[union-attr]
    assert "keep_witness_samples" not in again and again.count("<circle") == len(prefix_sizes(SAMPLES))


def test_write_html_refuses_missing_directory(tmp_path: Path) -> None:
    report, _ = audited("discrete")
    with pytest.raises(PrivrefError, match=r"--html /no/such/dir/r\.html: folder /no/such/dir does"):
        write_html("/no/such/dir/r.html", report)
    write_html(tmp_path / "r.html", report)
    assert (tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


# ----------------------------------------------------------------------------- the CLI

RR_FILE = """
import numpy as np

def rr(data, rng, size):
    return np.where(rng.random(size) < 0.75, data[0], 1 - data[0])

def boom(data, rng):
    raise RuntimeError("sensor <offline>")
"""


@pytest.fixture
def target_file(tmp_path: Path) -> Path:
    path = tmp_path / "html_rr.py"
    path.write_text(textwrap.dedent(RR_FILE), encoding="utf-8")
    return path


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="privref audit blackbox")
    configure_parser(parser)
    return run(parser.parse_args(argv))


def test_cli_writes_html(target_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, js = tmp_path / "report.html", tmp_path / "report.json"
    status = _run([f"{target_file}:rr", "--epsilon", "1/2", "--pair", "[0]", "[1]", "--samples",
                   "2000", "--seed", "3", "--workers", "1", "--html", str(out), "--json", str(js)])
    assert status == 1
    text = out.read_text(encoding="utf-8")
    assert_self_contained(text)
    assert text.count("<svg") == 3 and "VIOLATION" in text and f"{target_file}:rr" in text
    assert f"wrote {out}" in capsys.readouterr().out


def test_cli_partial_report(target_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "partial.html"
    with pytest.raises(TargetCallError, match="sensor <offline>"):
        _run([f"{target_file}:boom", "--epsilon", "1", "--pair", "[0]", "[1]", "--samples", "100",
              "--workers", "1", "--html", str(out)])
    text = out.read_text(encoding="utf-8")
    assert "ERROR (no verdict)" in text and "sensor &lt;offline&gt;" in text
    assert text.count("<svg") == 3 and "no witness pair" in text


def test_cli_bad_html_directory(target_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = [f"{target_file}:rr", "--epsilon", "1", "--pair", "[0]", "[1]", "--samples", "100",
            "--workers", "1"]
    with pytest.raises(InvalidArgument, match=r"--html /no/such/dir/r\.html: folder /no/such/dir "
                                              "does not exist"):
        _run([*base, "--html", "/no/such/dir/r.html"])
    # exit status and one-line message exactly like --json's
    assert main(["audit", "blackbox", *base, "--json", "/no/such/dir/r.json"]) == 2
    assert main(["audit", "blackbox", *base, "--html", "/no/such/dir/r.html"]) == 2
    err = capsys.readouterr().err
    assert "error: --html /no/such/dir/r.html: folder /no/such/dir does not exist" in err
