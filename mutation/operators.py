"""Named semantic mutation operators: the one-line bugs a careful implementer could still make.

Each operator finds its sites in a module's AST and rewrites one site at a time.  A mutant is
(file, operator, site index); applying it gives the module's source with that one change
(``ast.unparse`` of the whole module, so comments and layout differ from the file; the
harness runs the tests on the unparsed *unmutated* module first, so that only the mutation
can make them fail).

Operators (``OPERATORS``):

* ``boundary``: ``<`` ↔ ``<=`` and ``>`` ↔ ``>=`` (a strict inequality made weak, or back);
* ``flip``: ``<`` ↔ ``>`` and ``<=`` ↔ ``>=`` (a comparison reversed);
* ``arith``: ``+`` ↔ ``-`` and ``*`` ↔ ``/`` (a sign or a factor inverted);
* ``constant``: an integer constant 2..1000 becomes k + 1 (an off-by-one in a formula);
* ``half``: a literal 2 in a product or quotient becomes 1 (the dropped 1/2 of the
  exponential mechanism);
* ``bound``: attribute ``.lo`` ↔ ``.hi`` (the wrong end of an enclosure);
* ``minmax``: ``min`` ↔ ``max``;
* ``logic``: ``and`` ↔ ``or``, and ``not x`` → ``x``.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

__all__ = ["OPERATORS", "Mutant", "apply", "sites"]

_Cmp = dict[type[ast.cmpop], type[ast.cmpop]]
_SWAP_BOUNDARY: Final[_Cmp] = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
                               ast.GtE: ast.Gt}
_SWAP_FLIP: Final[_Cmp] = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}
_SWAP_ARITH: Final = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}


@dataclass(frozen=True, slots=True)
class Mutant:
    """One mutation: ``operator`` at its ``index``-th site of ``path`` (line ``line``)."""

    path: str
    operator: str
    index: int
    line: int
    before: str
    after: str

    @property
    def id(self) -> str:
        """A stable name: path:line:operator#index."""
        return f"{self.path}:{self.line}:{self.operator}#{self.index}"


Rewrite = Callable[[ast.AST], ast.AST | None]
"""A node's mutated copy, or None when the node is not a site of the operator."""


def _compare(table: _Cmp) -> Rewrite:
    def rewrite(node: ast.AST) -> ast.AST | None:
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in table:
            return ast.Compare(node.left, [table[type(node.ops[0])]()], node.comparators)
        return None
    return rewrite


def _arith(node: ast.AST) -> ast.AST | None:
    if isinstance(node, ast.BinOp) and type(node.op) in _SWAP_ARITH:
        return ast.BinOp(node.left, _SWAP_ARITH[type(node.op)](), node.right)
    return None


def _constant(node: ast.AST) -> ast.AST | None:
    if (isinstance(node, ast.Constant) and type(node.value) is int
            and 2 <= node.value <= 1000):
        return ast.Constant(node.value + 1)
    return None


def _is_two(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == 2


def _half(node: ast.AST) -> ast.AST | None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult | ast.Div):
        if _is_two(node.left):
            return ast.BinOp(ast.Constant(1), node.op, node.right)
        if _is_two(node.right):
            return ast.BinOp(node.left, node.op, ast.Constant(1))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "Fraction" and len(node.args) == 2
            and isinstance(node.args[1], ast.Constant) and node.args[1].value == 2):
        return ast.Call(node.func, [node.args[0], ast.Constant(1)], node.keywords)
    return None


def _bound(node: ast.AST) -> ast.AST | None:
    if isinstance(node, ast.Attribute) and node.attr in ("lo", "hi"):
        return ast.Attribute(node.value, "hi" if node.attr == "lo" else "lo", node.ctx)
    return None


def _minmax(node: ast.AST) -> ast.AST | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
            "min", "max"):
        return ast.Call(ast.Name("max" if node.func.id == "min" else "min", ast.Load()),
                        node.args, node.keywords)
    return None


def _logic(node: ast.AST) -> ast.AST | None:
    if isinstance(node, ast.BoolOp):
        return ast.BoolOp(ast.Or() if isinstance(node.op, ast.And) else ast.And(), node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return node.operand
    return None


OPERATORS: Final[dict[str, Rewrite]] = {
    "boundary": _compare(_SWAP_BOUNDARY),
    "flip": _compare(_SWAP_FLIP),
    "arith": _arith,
    "constant": _constant,
    "half": _half,
    "bound": _bound,
    "minmax": _minmax,
    "logic": _logic,
}


def _skipped(tree: ast.Module) -> set[int]:
    """ids of nodes never mutated: docstrings, annotations, __all__ and Final constants' names."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        for field in ("annotation", "returns"):
            sub = getattr(node, field, None)
            if isinstance(sub, ast.AST):
                skip.update(id(n) for n in ast.walk(sub))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Module):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skip.update(id(n) for n in ast.walk(body[0]))
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            skip.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.JoinedStr):  # messages, not behaviour
            skip.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.Raise):
            skip.update(id(n) for n in ast.walk(node))
    return skip


def sites(source: str, path: str) -> list[Mutant]:
    """Every mutant of ``source``: each operator at each of its sites, in a stable order."""
    tree = ast.parse(source)
    skip = _skipped(tree)
    out: list[Mutant] = []
    for name, rewrite in OPERATORS.items():
        index = 0
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            new = rewrite(node)
            if new is None:
                continue
            out.append(Mutant(path, name, index, getattr(node, "lineno", 0),
                              ast.unparse(node), ast.unparse(ast.fix_missing_locations(new))))
            index += 1
    return out


def apply(source: str, mutant: Mutant | None) -> str:
    """The module's source with ``mutant`` applied (``ast.unparse``; None: unmutated)."""
    tree = ast.parse(source)
    if mutant is not None:
        # ast.walk order (breadth first) numbers the sites in :func:`sites`; map it to nodes
        skip = _skipped(tree)
        rewrite = OPERATORS[mutant.operator]
        targets = [n for n in ast.walk(tree) if id(n) not in skip and rewrite(n) is not None]
        target = targets[mutant.index]
        new = rewrite(target)
        assert new is not None
        ast.copy_location(new, target)
        _replace(tree, target, new)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = new
                        return
    raise ValueError("mutation site not found")
