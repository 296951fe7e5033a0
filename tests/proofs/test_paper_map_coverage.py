"""Every numbered algorithm of the five papers has a row in the paper map (docs/paper-map.md).

The list of algorithms is :data:`privref.proofs.paper_map.PAPER_ALGORITHMS`, taken from the
inventories; when the paper texts are next to the checkout (``../shared/papers``), the test also
checks that every "Algorithm N" the texts name is on that list.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from privref.proofs.paper_map import (
    IMPLEMENTATIONS,
    PAPER_ALGORITHMS,
    algorithms_named,
    unmapped,
)

PAPERS = Path(__file__).resolve().parents[2].parent / "shared" / "papers"


def test_every_numbered_algorithm_has_a_row() -> None:
    assert unmapped() == [], "add a row to privref.proofs.paper_map.IMPLEMENTATIONS"


def test_a_missing_row_is_reported() -> None:
    """Dropping the rows of 001 Algorithm 6 leaves exactly that algorithm unmapped."""
    rows = tuple(r for r in IMPLEMENTATIONS if ("001", 6) not in algorithms_named(r.algorithm))
    assert len(rows) == len(IMPLEMENTATIONS) - 2
    assert unmapped(rows) == [("001", 6)]


def test_a_row_names_each_paper_it_covers() -> None:
    assert algorithms_named("004 Algorithm 4 / 000 Algorithm 3 (IterLabelBoost)") == {
        ("004", 4), ("000", 3)}
    assert algorithms_named("001 Algorithm 5 (Algorithm 4 fed by a service)") == {("001", 5)}


def test_every_row_names_a_known_algorithm_or_result() -> None:
    """A row's label names a listed algorithm, or (for the devices and theorems) none."""
    listed = {(p, k) for p, ks in PAPER_ALGORITHMS.items() for k in ks}
    for row in IMPLEMENTATIONS:
        assert algorithms_named(row.algorithm) <= listed, row.algorithm


@pytest.mark.skipif(not PAPERS.is_dir(), reason="the paper texts are not next to the checkout")
def test_the_list_covers_the_algorithms_the_papers_name() -> None:
    for text in sorted(PAPERS.glob("00[0-4]_*.txt")):
        paper = text.name[:3]
        named = {int(k) for k in re.findall(r"\bAlgorithm (\d+)", text.read_text(encoding="utf-8"))}
        assert named <= set(PAPER_ALGORITHMS[paper]), (paper, sorted(named))
