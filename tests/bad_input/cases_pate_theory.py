"""Bad-input cases for ``privref pate-theory {rates,margins}`` and its Python API.

Every flag a user could inflate is bounded (--runs, --seed, --epsilon, --teachers, --queries);
each refusal is one ``privref pate-theory: error: ...`` line naming the flag, exit 2, before any
run.
"""

from __future__ import annotations

from collections.abc import Mapping

from .harness import Case

_FILE: Mapping[str, str | bytes] = {"plain.txt": "not a folder\n"}

_API = """
from fractions import Fraction
import numpy as np
from privref.app.experiments import pate_rates as pr
"""


def _cli(id: str, names: str, *argv: str,
         files: Mapping[str, str | bytes] | None = None) -> Case:
    return Case(id=id, names=names, argv=("pate-theory", *argv), files=files or {})


def _api(id: str, names: str, body: str) -> Case:
    return Case(id=id, names=names, api=_API + body)


CASES: list[Case] = [
    _cli("pate-theory-no-which", "which|WHICH|required", "--out", "{cwd}"),
    _cli("pate-theory-bad-which", "which|invalid choice", "theorems", "--out", "{cwd}"),
    _cli("pate-theory-no-out", "--out", "rates", "--quick"),
    _cli("pate-theory-out-missing", "--out", "rates", "--quick", "--out", "{cwd}/missing"),
    _cli("pate-theory-out-is-file", "--out", "rates", "--quick", "--out", "{cwd}/plain.txt",
         files=_FILE),
    _cli("pate-theory-out-empty", "--out", "rates", "--quick", "--out", ""),
    _cli("pate-theory-markdown-is-dir", "--markdown", "rates", "--quick", "--out", "{cwd}",
         "--markdown", "{cwd}"),
    _cli("pate-theory-runs-zero", "--runs", "rates", "--out", "{cwd}", "--runs", "0"),
    _cli("pate-theory-runs-huge", "--runs", "rates", "--out", "{cwd}", "--runs", "101"),
    _cli("pate-theory-runs-garbage", "--runs", "rates", "--out", "{cwd}", "--runs", "1e3"),
    _cli("pate-theory-runs-with-quick", "--quick|--runs", "rates", "--quick", "--out", "{cwd}",
         "--runs", "3"),
    _cli("pate-theory-margins-runs-huge", "--runs", "margins", "--out", "{cwd}", "--runs",
         "11"),
    _cli("pate-theory-seed-negative", "--seed", "rates", "--quick", "--out", "{cwd}",
         "--seed=-1"),
    _cli("pate-theory-seed-huge", "--seed", "rates", "--quick", "--out", "{cwd}", "--seed",
         "1" + "0" * 30),
    _cli("pate-theory-epsilon-zero", "--epsilon", "rates", "--quick", "--out", "{cwd}",
         "--epsilon", "0"),
    _cli("pate-theory-epsilon-huge", "--epsilon", "rates", "--quick", "--out", "{cwd}",
         "--epsilon", "9"),
    _cli("pate-theory-epsilon-nan", "--epsilon", "rates", "--quick", "--out", "{cwd}",
         "--epsilon", "nan"),
    _cli("pate-theory-epsilon-denominator", "--epsilon", "rates", "--quick", "--out", "{cwd}",
         "--epsilon", "1/" + "7" * 30),
    _cli("pate-theory-teachers-for-rates", "--teachers", "rates", "--quick", "--out", "{cwd}",
         "--teachers", "10"),
    _cli("pate-theory-epsilon-for-margins", "--epsilon", "margins", "--out", "{cwd}",
         "--epsilon", "2"),
    _cli("pate-theory-teachers-small", "--teachers", "margins", "--out", "{cwd}",
         "--teachers", "2"),
    _cli("pate-theory-teachers-huge", "--teachers", "margins", "--out", "{cwd}",
         "--teachers", "100000"),
    _cli("pate-theory-queries-huge", "--queries", "margins", "--out", "{cwd}", "--queries",
         "7000"),
    _cli("pate-theory-queries-with-quick", "--quick|--queries", "margins", "--quick", "--out",
         "{cwd}", "--queries", "50"),
    _cli("pate-theory-data-dir-missing", "--data-dir", "margins", "--out", "{cwd}",
         "--data-dir", "{cwd}/nowhere"),
    _cli("pate-theory-data-dir-without-a9a", "--data-dir|a9a", "margins", "--quick", "--out",
         "{cwd}", "--data-dir", "{cwd}"),
    _api("pate-theory-api-bad-class", "cls", "pr.build_population('circles', 'massart', 16)"),
    _api("pate-theory-api-bad-noise", "noise", "pr.build_population('thresholds', 'none', 16)"),
    _api("pate-theory-api-too-many-points", "points",
         "pr.build_population('thresholds', 'massart', 10**6)"),
    _api("pate-theory-api-tau-not-unit-fraction", "tau",
         "pr.build_population('thresholds', 'tnc', 16, Fraction(2, 3))"),
    _api("pate-theory-api-tau-out-of-range", "tau", "pr.predicted_slopes(Fraction(3, 2))"),
    _api("pate-theory-api-teachers-queries-zero", "queries",
         "pr.teacher_count(0, 100, Fraction(1), Fraction(1, 100))"),
]
