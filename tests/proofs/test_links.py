"""Checked links from code to the ledger: citations, the manifest, errata ids, generated docs.

* every built-in audit row and every ``cite("...")`` written in the code names an existing
  ledger entry that is not REFUTED, or the *corrected* statement of a REFUTED entry;
* the ledger and the manifest (with the external results) agree in both directions;
* every paper-qualified erratum id (``004-E5``) cited anywhere resolves in
  :data:`privref.proofs.errata.ERRATA`, and no inventory-style id remains;
* docs/errata.md and docs/paper-map.md are what the generators produce now.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from privref.app.suites.builtin import builtin_audits
from privref.app.suites.prediction import prediction_audits
from privref.proofs._ledger import Status
from privref.proofs.errata import ERRATA, ERRATUM_ID
from privref.proofs.registry import EXTERNAL, MANIFEST, all_entries, entry_by_id
from privref.reference.citations import Citation, Source, Uncited, Use, cite
from privref.reference.errors import InvalidArgument

ROOT = Path(__file__).resolve().parents[2]
CODE = ("reference", "audits", "proofs", "app", "validation", "tests", "benchmarks")


def broken_link(source: Source) -> str | None:
    """Why ``source`` is not a live link to the ledger, or None when it is."""
    if not isinstance(source, Citation):
        return f"{source}: cites no ledger entry"
    try:
        entry = entry_by_id(source.entry_id)
    except InvalidArgument:
        return f"{source}: no ledger entry {source.entry_id!r}"
    refuted = entry.status is Status.REFUTED
    match source.use:
        case Use.CORRECTED if not refuted:
            return f"{source}: cites a correction, but {entry.id} is {entry.status.value}"
        case Use.STATEMENT | Use.PROOF if refuted:
            return f"{source}: {entry.id} is REFUTED; cite its corrected statement"
        case Use.PRINTED if not refuted:
            return f"{source}: cites a refuted printed statement, but {entry.id} is " \
                   f"{entry.status.value}"
    return None


def _python_files(*layers: str) -> list[Path]:
    return [p for layer in layers for p in sorted((ROOT / layer).rglob("*.py"))]


def _cite_calls(path: Path) -> list[tuple[int, str, list[ast.expr]]]:
    """(line, callee, arguments) of every call of ``cite`` or ``Citation`` in ``path``."""
    found: list[tuple[int, str, list[ast.expr]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("cite", "Citation"):
            found.append((node.lineno, node.func.id, node.args))
    return found


def test_broken_link_detects_each_kind_of_bad_citation() -> None:
    """The rule can fail: a refuted entry cited as stated, a correction of a sound entry, none."""
    assert broken_link(cite("004 Lemma 4.1")) is not None            # REFUTED as printed
    assert broken_link(cite("004 Lemma 4.1 (proof)")) is not None
    assert broken_link(cite("000 Lemma 4.1 (corrected)")) is not None  # nothing to correct
    assert broken_link(Uncited("fixture")) is not None
    assert broken_link(cite("000 Lemma 4.1 (printed)")) is not None  # nothing refuted
    assert broken_link(cite("004 Lemma 4.1 (corrected)")) is None
    assert broken_link(cite("004 Lemma 4.1 (printed)")) is None
    assert broken_link(cite("000 Lemma 4.1")) is None


@pytest.mark.parametrize("deep", [False, True], ids=["default", "deep"])
def test_every_builtin_audit_row_cites_a_live_entry(deep: bool) -> None:
    """Every row of `privref audit` (built-in, learners and extra rows) cites a live entry."""
    rows = builtin_audits(deep=deep)
    problems = [f"{row.label or row.mechanism.name}: {why}" for row in rows
                if (why := broken_link(row.cited)) is not None]
    problems += [f"{row.label}: {why}" for row in prediction_audits(deep)
                 if (why := broken_link(row.predictor.source)) is not None]
    assert not problems, problems


def test_labelboost_row_cites_the_corrected_004_lemma() -> None:
    """The LabelBoost row audits (ε+3, 4eδ): the corrected 004 Lemma 4.1, not the printed one."""
    rows = [r for r in builtin_audits() if "LabelBoost(s=1" in (r.label or "")]
    assert [str(r.cited) for r in rows] == ["004 Lemma 4.1 (corrected)"]


def test_every_citation_written_in_the_code_is_a_literal_live_link() -> None:
    """Each cite(...) in reference/, proofs/, app/, validation/ parses and cites a live entry.

    Citations are written only as ``cite("<literal>")`` (no Citation(...) outside
    privref.reference.citations), so this scan sees every citation a mechanism can carry.
    """
    problems: list[str] = []
    seen = 0
    for path in _python_files("reference", "proofs", "app", "validation"):
        where = path.relative_to(ROOT)
        for line, callee, args in _cite_calls(path):
            if callee == "Citation" and where != Path("reference/privref/reference/citations.py"):
                problems.append(f"{where}:{line}: build citations with cite('...')")
                continue
            if callee != "cite":
                continue
            if len(args) != 1 or not (isinstance(args[0], ast.Constant)
                                      and isinstance(args[0].value, str)):
                problems.append(f"{where}:{line}: cite() needs one literal string")
                continue
            seen += 1
            why = broken_link(cite(args[0].value))
            if why is not None:
                problems.append(f"{where}:{line}: {why}")
    assert not problems, problems
    assert seen >= 20, seen


def test_ledger_and_manifest_agree_in_both_directions() -> None:
    """Every listed number has a (main) entry, and every entry's number is listed."""
    listed = {(paper, n) for paper, numbers in MANIFEST.items() for n in numbers}
    listed |= {("folklore", n) for n in EXTERNAL}
    mains = {(e.paper, e.number) for e in all_entries() if e.step is None}
    used = {(e.paper, e.number) for e in all_entries()}
    assert listed - mains == set(), "numbers without an entry"
    assert used - listed == set(), "entries citing unlisted numbers"


def test_citation_parser_and_constructor_refuse_unknown_results() -> None:
    """cite() validates paper and number at construction and round-trips through str()."""
    for text in ("004 Proposition A.1", "004 Lemma 4.1 (corrected)", "004 Lemma C.4 (proof)",
                 "folklore Warner 1965", "003 Claim 4.5"):
        assert str(cite(text)) == text
    for bad in ("004 Lemma 9.9", "005 Lemma 4.1", "folklore Nobody 1999", "Lemma 4.1", "",
                "004 Algorithm 2", "004 Lemma 4.1 (fixed)"):
        with pytest.raises(InvalidArgument):
            cite(bad)
    with pytest.raises(InvalidArgument, match="number="):
        Citation("004", "Lemma 4.7")
    with pytest.raises(InvalidArgument, match="text="):
        cite(41)  # type: ignore[arg-type]


# ------------------------------------------------------------------ errata ids

_INVENTORY = re.compile(r"\binventory [A-Z]\d")


def _texts() -> list[tuple[Path, str]]:
    return [(p, p.read_text(encoding="utf-8")) for p in _python_files(*CODE)]


def test_every_cited_erratum_id_resolves() -> None:
    """Every `00X-E<n>` in the code (docstrings, ledger text, tests) names a registered erratum."""
    known = {e.id for e in ERRATA}
    unknown = sorted({f"{p.relative_to(ROOT)}: {m.group(0)}" for p, text in _texts()
                      for m in ERRATUM_ID.finditer(text) if m.group(0) not in known})
    assert not unknown, unknown


def test_no_inventory_style_citation_remains() -> None:
    """Ids like 'inventory E5' point outside the repository and clash between papers."""
    this = Path(__file__).resolve()
    left = [f"{p.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
            for p, text in _texts() if p.resolve() != this for m in _INVENTORY.finditer(text)]
    assert not left, left


def test_errata_are_unique_and_name_existing_entries() -> None:
    ids = [e.id for e in ERRATA]
    assert len(ids) == len(set(ids))
    for e in ERRATA:
        for entry_id in e.entries:
            entry_by_id(entry_id)


# ------------------------------------------------------------------ generated docs


def test_docs_errata_is_current() -> None:
    """docs/errata.md equals what `privref lemmas --errata` generates now."""
    from privref.proofs.report import errata_markdown
    doc = ROOT / "docs" / "errata.md"
    assert doc.read_text(encoding="utf-8") == errata_markdown(), (
        "regenerate with: privref lemmas --errata docs/errata.md")


def test_docs_paper_map_is_current() -> None:
    """docs/paper-map.md equals what `privref lemmas --paper-map` generates now."""
    from privref.proofs.report import paper_map_markdown
    doc = ROOT / "docs" / "paper-map.md"
    assert doc.read_text(encoding="utf-8") == paper_map_markdown(ROOT / "tests"), (
        "regenerate with: privref lemmas --paper-map docs/paper-map.md")


def test_paper_map_functions_exist_and_cite_live_entries() -> None:
    """Each mapped function resolves; each example's citation (or listed entry) is live."""
    import importlib

    from privref.proofs.paper_map import IMPLEMENTATIONS
    for impl in IMPLEMENTATIONS:
        module, _, name = f"privref.{impl.function}".rpartition(".")
        assert callable(getattr(importlib.import_module(module), name)), impl.function
        if impl.example is not None:
            assert broken_link(impl.example()) is None, impl.function
        else:
            assert impl.entries, impl.function
            for citation in impl.entries:
                assert broken_link(citation) is None, (impl.function, str(citation))
