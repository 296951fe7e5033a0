"""The ledger decides through one vocabulary (issue 31, item 1).

Every numeric decision of a ledger module goes through :mod:`privref.reference.decide`, so an
undecided comparison can never be read as yes or no.  This test reads each module's syntax tree
and forbids the hand-made forms the ledger used to carry:

* importing ``compare`` or ``Order`` from :mod:`privref.reference.reals` (a three-valued order
  collapsed by hand);
* ordering an enclosure's end (``box.lo > beta``, ``lo <= c.lo``) or a float (``float(x) < y``):
  one end of an enclosure decides only one direction, and a float decides nothing;
* private decision or number-text helpers (``_le``, ``_gt``, ``_ceil``, ``_d``, ``_fmt`` …):
  :mod:`privref.reference.decide` and :mod:`privref.proofs.numbers_text` are the one copy;
* importing a private name from another module (each paper's modules share public names only).

The branch-and-bound engine (:mod:`privref.proofs.bnb`) is the one exemption: it is the interval
prover itself, and its decisions on enclosure ends are its documented contract.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from privref.proofs import registry
from privref.proofs.p003 import upper
from privref.proofs.runner import run_entry
from privref.reference.reals import sqrt
from privref.reference.verdict import Verdict

ROOT = Path(__file__).resolve().parents[2] / "proofs" / "privref" / "proofs"
EXEMPT = {"bnb.py": "the interval branch-and-bound prover: deciding on enclosure ends is its job"}
MODULES = sorted(p for p in ROOT.rglob("*.py") if p.name not in EXEMPT)
ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
HELPER = re.compile(r"^_(le|lt|ge|gt|eq|leq|geq|less|greater|ceil|floor|d|fmt|dec|decide|order"
                    r"|compare|proved)(_.*)?$")


def _name(path: Path) -> str:
    return path.relative_to(ROOT).with_suffix("").as_posix()


def _is_end(node: ast.expr) -> bool:
    """An enclosure's end (``x.lo``, ``x.hi``) or a float conversion."""
    if isinstance(node, ast.Attribute) and node.attr in ("lo", "hi"):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float"


def hand_made_decisions(source: str) -> Iterator[str]:
    """Each forbidden form in ``source``, as ``line: text``."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names = [a.name for a in node.names]
            if (node.module or "").endswith("reals") and {"compare", "Order"} & set(names):
                yield f"{node.lineno}: imports compare/Order from reals (use privref.reference.decide)"
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private:
                yield f"{node.lineno}: imports private {private} from {node.module or '.'}"
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(isinstance(op, ORDERING) for op in node.ops) and any(map(_is_end, operands)):
                yield f"{node.lineno}: orders an enclosure end or a float: {ast.unparse(node)[:80]}"
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and HELPER.match(node.name):
            yield f"{node.lineno}: private helper {node.name} (use decide / numbers_text)"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_hand_made_decisions(path: Path) -> None:
    found = list(hand_made_decisions(path.read_text(encoding="utf-8")))
    assert not found, f"{_name(path)}:\n" + "\n".join(found)


@pytest.mark.parametrize("source", [
    "from privref.reference.reals import Order, compare\n",
    "if tail.hi > beta:\n    pass\n",
    "ok = lo <= c.lo and c.hi <= hi\n",
    "ok = float(eps) < 1\n",
    "def _le(a, b):\n    return a <= b\n",
    "def _d(x):\n    return str(x)\n",
    "from .labelboost import _neighbors\n",
])
def test_the_scan_sees_each_form(source: str) -> None:
    """The scan is not vacuous: each forbidden form is reported."""
    assert list(hand_made_decisions(source))


def test_the_scan_allows_the_vocabulary() -> None:
    source = ("from privref.reference.decide import at_most\n"
              "from .._ledger import Check\n"
              "v = at_most(box, beta)\nok = n <= 3 and box.lo == 0\n")
    assert not list(hand_made_decisions(source))


def test_a_refutation_turns_undecided_when_its_numbers_touch(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """003 Inequality (1) at 2n < d is REFUTED by P[Bad] > (1)'s bound.  Made to touch (the bound
    replaced by a real equal to P[Bad] that no enclosure separates from it), the check must be
    UNDECIDED, and the entry must no longer be confirmed."""
    real = upper.check_inequality_1_small_n()
    assert real.verdict is Verdict.VIOLATED
    H = upper.all_functions(8)
    p_bad = upper.bad_probability(H, upper.uniform(8), Fraction(1, 10), 1)
    touching = sqrt(2) * sqrt(2) * p_bad / 2  # equal to P[Bad]; no enclosure separates them
    monkeypatch.setattr(upper, "inequality_1_rhs", lambda n, d, alpha: touching)
    assert upper.check_inequality_1_small_n().verdict is Verdict.UNDECIDED
    entry = next(e for e in registry.all_entries()
                 if any(c.run is upper.check_inequality_1_small_n for c in e.checks))
    assert entry.status.value == "REFUTED"
    assert not run_entry(entry).consistent
