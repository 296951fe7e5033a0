"""The HTML report of a suite run (``privref audit-library NAME --html PATH``,
``privref blackbox-suite SUITE --html PATH``): one self-contained page, one row per entry.

Guarantees as for the single-audit page (:mod:`privref.app.reports.html_report`): one file with
an inline style sheet and no scripts or links; every string from the run (entry names, targets,
errors) is HTML-escaped; the numbers are those of the JSON report (verdicts in both views,
bounds, claims, relation, samples, seed, library versions, status) and the false-alarm bound of
the run (:func:`privref.app.blackbox_suite.false_alarm_bound`).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Protocol

from privref import reference
from privref.audits.blackbox.report import BlackboxReport

from .output import check_output_path, write_text_atomic


class _Case(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def expect(self) -> str: ...
    @property
    def expect_real(self) -> str | None: ...


class SuiteResult(Protocol):
    """What a row shows of one entry's outcome (``privref.app.blackbox_suite.SuiteResult``)."""

    @property
    def case(self) -> _Case: ...
    @property
    def status(self) -> str: ...
    @property
    def report(self) -> BlackboxReport | None: ...
    @property
    def error(self) -> str | None: ...

__all__ = ["SuiteResult", "render_suite_html", "write_suite_html"]

_CSS = ("body{font-family:sans-serif;margin:2em;max-width:90em}table{border-collapse:collapse}"
        "td,th{border:1px solid #bbb;padding:.3em .5em;vertical-align:top;font-size:.9em}"
        "th{background:#eee}.OK{background:#dfd}.FAIL,.ERROR{background:#fcc}.SKIP{background:#eee}"
        "code{font-size:.95em}")


def _cell(text: object) -> str:
    return f"<td>{escape(str(text))}</td>"


def render_suite_html(title: str, results: Sequence[SuiteResult], header: Sequence[str]) -> str:
    """The page for ``results`` (in run order); ``header`` lines (library, version, summary,
    false-alarm bound) are shown above the table, escaped."""
    rows = []
    for r in results:
        rep = r.report
        if rep is None:
            cells = [_cell(r.case.name), *(_cell("-") for _ in range(6)),
                     _cell(r.case.expect + (f" / real {r.case.expect_real}"
                                            if r.case.expect_real else "")),
                     f'<td class="{escape(r.status)}">{escape(r.status)}: '
                     f"{escape(r.error or '')}</td>"]
        else:
            ieee = f"{rep.verdict.value if rep.verdict else '-'} ({rep.epsilon_lower_bound:.4g})"
            real = f"{rep.real_verdict or '-'} ({rep.real_epsilon_lower_bound:.4g})"
            cells = [_cell(r.case.name), _cell(rep.relation),
                     _cell(f"({rep.claimed_epsilon}, {rep.claimed_delta})"), _cell(ieee),
                     _cell(real), _cell(f"{rep.samples_used:,}"), _cell(rep.seed),
                     _cell(r.case.expect + (f" / real {r.case.expect_real}"
                                            if r.case.expect_real else "")),
                     f'<td class="{escape(r.status)}">{escape(r.status)}</td>']
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head = "".join(f"<p>{escape(line)}</p>\n" for line in header)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            f"<h1>{escape(title)}</h1>\n{head}<table>\n<tr><th>entry</th><th>relation</th>"
            "<th>claim (&epsilon;, &delta;)</th><th>IEEE-754 view (bound)</th>"
            "<th>real-arithmetic view (bound)</th><th>samples per side</th><th>seed</th>"
            "<th>expected</th><th>status</th></tr>\n" + "\n".join(rows) + "\n</table>\n"
            "<footer><p>A black-box audit can only refute a claim: NO_VIOLATION_FOUND is no proof "
            "of privacy.  Written by privref "
            f"{escape(reference.__version__)}.</p></footer>\n</body>\n</html>\n")


def write_suite_html(path: str | Path, title: str, results: Sequence[SuiteResult],
                     header: Sequence[str], *, flag: str = "--html") -> None:
    """Write :func:`render_suite_html` to ``path``; InvalidArgument naming ``flag`` when the path
    is unusable, OutputError when the write fails."""
    target = check_output_path(flag, path)
    write_text_atomic(target, render_suite_html(title, results, header), flag=flag)
