"""Generated data under docs/ stays in docs/generated/, stays small, and is all referenced.

The JSON and PNG files that experiments and benchmarks write are kept in one folder,
docs/generated/, so their weight is visible in one place.  The bound is the folder's size when
the test was written (5,506,631 bytes) plus about 1.7%: a run that grows a file by more than that,
or a new file, must raise it here, deliberately.  Each file is named by some page (README.md or a
page under docs/), by its path from that page (``generated/x.json``) or from the root
(``docs/generated/x.json``): data no page explains is not kept.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
GENERATED = DOCS / "generated"

MAX_GENERATED_BYTES = 5_715_000
"""Bound on the total size of docs/generated/ (5,506,631 bytes on 2026-11-28; raised by 60,000 on
2026-11-29 for DiPApprox's remaining benchmark families in dipapprox.json and .md, whose JSON is
now written one case per line; raised by 35,000 on 2026-11-29 for blackbox-sequential.json, the
runs of benchmarks/bench_sequential.py, one row per run; raised by 10,000 on 2026-11-29 for
prediction-audit.json, the 25 rows of benchmarks/bench_prediction_audit.py, one per line;
raised by 10,000 on 2026-11-29 for blackbox-sequential.json's rerun record, the 140 sequential
runs of bench_sequential.py --rerun (carried selection), one row per run)."""


def _files() -> list[Path]:
    return sorted(p for p in GENERATED.rglob("*") if p.is_file())


def _pages() -> str:
    pages = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
    return "\n".join(p.read_text(encoding="utf-8") for p in pages)


def test_generated_data_is_bounded() -> None:
    total = sum(p.stat().st_size for p in _files())
    assert _files(), "docs/generated/ is empty"
    assert total <= MAX_GENERATED_BYTES, (
        f"docs/generated/ holds {total:,} bytes, above the bound {MAX_GENERATED_BYTES:,}: make "
        "the data smaller (a summary), or raise the bound in tests/test_docs_size.py on purpose")


def test_every_generated_file_is_referenced_by_a_page() -> None:
    text = _pages()
    unreferenced = [p.relative_to(ROOT).as_posix() for p in _files()
                    if f"generated/{p.relative_to(GENERATED).as_posix()}" not in text]
    assert not unreferenced, f"no page under docs/ (or README.md) names {unreferenced}"


def test_generated_data_lives_in_docs_generated() -> None:
    """No JSON or PNG elsewhere under docs/."""
    stray = [p.relative_to(ROOT).as_posix() for p in DOCS.rglob("*")
             if p.suffix in {".json", ".png"} and GENERATED not in p.parents]
    assert not stray, f"move {stray} to docs/generated/"
