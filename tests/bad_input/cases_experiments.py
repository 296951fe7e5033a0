"""Bad-input cases for ``privref experiments`` (paper 002 sample complexity) and its Python API.

Every flag a user could inflate is bounded (--max-n, --datasets, --draws, --epsilon, --noise,
--seed); each refusal is one ``privref experiments: error: ...`` line naming the flag, exit 2.
"""

from __future__ import annotations

from collections.abc import Mapping

from .harness import Case

_FILE: Mapping[str, str | bytes] = {"plain.txt": "not a folder\n"}

_API = """
from fractions import Fraction
import numpy as np
from privref.app.experiments import prediction as pe
from privref.reference.concepts import thresholds_on
"""


def _cli(id: str, names: str, *argv: str,
         files: Mapping[str, str | bytes] | None = None) -> Case:
    return Case(id=id, names=names, argv=("experiments", *argv), files=files or {})


def _api(id: str, names: str, body: str) -> Case:
    return Case(id=id, names=names, api=_API + body)


CASES: list[Case] = [
    _cli("experiments-no-out", "--out", "--quick"),
    _cli("experiments-out-missing", "--out", "--quick", "--out", "{cwd}/missing"),
    _cli("experiments-out-is-file", "--out", "--quick", "--out", "{cwd}/plain.txt",
         files=_FILE),
    _cli("experiments-out-empty", "--out", "--quick", "--out", ""),
    _cli("experiments-max-n-huge", "--max-n", "--out", "{cwd}", "--max-n", "1000000"),
    _cli("experiments-max-n-small", "--max-n", "--out", "{cwd}", "--max-n", "8"),
    _cli("experiments-max-n-garbage", "--max-n", "--out", "{cwd}", "--max-n", "1e5"),
    _cli("experiments-datasets-zero", "--datasets", "--out", "{cwd}", "--datasets", "0"),
    _cli("experiments-datasets-huge", "--datasets", "--out", "{cwd}", "--datasets",
         "1000000000"),
    _cli("experiments-draws-huge", "--draws", "--out", "{cwd}", "--draws", "51"),
    _cli("experiments-draws-negative", "--draws", "--out", "{cwd}", "--draws=-1"),
    _cli("experiments-epsilon-zero", "--epsilon", "--quick", "--out", "{cwd}", "--epsilon",
         "0"),
    _cli("experiments-epsilon-huge", "--epsilon", "--quick", "--out", "{cwd}", "--epsilon",
         "1e9"),
    _cli("experiments-epsilon-nan", "--epsilon", "--quick", "--out", "{cwd}", "--epsilon",
         "nan"),
    _cli("experiments-epsilon-log", "--epsilon", "--quick", "--out", "{cwd}", "--epsilon",
         "ln(3)"),
    _cli("experiments-noise-half", "--noise", "--quick", "--out", "{cwd}", "--noise", "1/2"),
    _cli("experiments-noise-negative", "--noise", "--quick", "--out", "{cwd}",
         "--noise=-1/10"),
    _cli("experiments-noise-huge-denominator", "--noise", "--quick", "--out", "{cwd}",
         "--noise", "1/" + "9" * 40),
    _cli("experiments-seed-negative", "--seed", "--quick", "--out", "{cwd}", "--seed=-1"),
    _cli("experiments-seed-huge", "--seed", "--quick", "--out", "{cwd}", "--seed",
         "1" + "0" * 30),
    _cli("experiments-seed-garbage", "--seed", "--quick", "--out", "{cwd}", "--seed", "x"),
    _cli("experiments-quick-with-datasets", "--quick|--datasets", "--quick", "--out", "{cwd}",
         "--datasets", "3"),
    _cli("experiments-unknown-flag", "--frob", "--out", "{cwd}", "--frob"),
    _api("experiments-api-n-grid-huge", "max_n", "pe.n_grid(10**6)"),
    _api("experiments-api-unknown-class", "class", "pe.experiment_classes(('nope',))"),
    _api("experiments-api-unknown-predictor", "predictor",
         "pe.parameters('nope', Fraction(1, 10), Fraction(1), 100)"),
    _api("experiments-api-unions-too-many-points", "points", "pe.unions_of_two_intervals(99)"),
]
