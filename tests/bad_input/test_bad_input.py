"""One table of malformed CLI and API inputs; each must fail cleanly (see harness.py).

The tables live next to this file, one per surface (``cases_*.py``, each exporting ``CASES``);
they are concatenated here into one parametrized test.  All cases run once, in parallel
subprocesses under a timeout, in a module fixture; each test then checks its own outcome.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

from .harness import Case, Outcome, problems, run_all


def _cases() -> list[Case]:
    found: list[Case] = []
    here = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if info.name.startswith("cases_"):
            found.extend(importlib.import_module(f"{__package__}.{info.name}").CASES)
    return found


CASES = _cases()


def test_case_ids_are_unique_and_the_corpus_is_large() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    assert len(ids) >= 100, len(ids)


@pytest.fixture(scope="module")
def outcomes() -> dict[str, Outcome]:
    return run_all(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_fails_cleanly(case: Case, outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes[case.id]
    assert not problems(outcome), (problems(outcome), outcome.stderr[-2000:])
