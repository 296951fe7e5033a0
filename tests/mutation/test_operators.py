"""The mutation harness's operators: each finds its sites and changes exactly one of them."""

from __future__ import annotations

import ast

import pytest

from mutation.__main__ import main
from mutation.operators import OPERATORS, apply, sites

SOURCE = '''"""Docstring with 2 < 3."""
__all__ = ["f"]


def f(x: int, box: object) -> object:
    """Not a site: 2 * 2."""
    if x < 2 and not x >= 5:
        return min(x * 2, box.lo) + Fraction(1, 2)
    raise ValueError(f"x={x + 1} too large")
'''


def test_every_operator_has_sites_and_none_in_docstrings_messages_or_all() -> None:
    found = sites(SOURCE, "m.py")
    assert {m.operator for m in found} == set(OPERATORS)
    assert all(m.line in (7, 8) for m in found)  # never the docstrings, __all__ or the raise


@pytest.mark.parametrize(("operator", "before", "after"), [
    ("boundary", "x < 2", "x <= 2"), ("flip", "x < 2", "x > 2"),
    ("arith", "x * 2", "x / 2"), ("half", "x * 2", "x * 1"), ("bound", "box.lo", "box.hi"),
    ("minmax", "min(", "max("), ("logic", "x < 2 and", "x < 2 or"),
    ("constant", "5", "6")])
def test_applying_a_mutant_changes_exactly_its_site(operator: str, before: str,
                                                    after: str) -> None:
    mutant = next(m for m in sites(SOURCE, "m.py")
                  if m.operator == operator and before in m.before and after in m.after
                  and m.before != m.after)
    base, mutated = apply(SOURCE, None), apply(SOURCE, mutant)
    assert before in base and after in mutated
    changed = [(a, b) for a, b in zip(base.splitlines(), mutated.splitlines(), strict=True)
               if a != b]
    assert len(changed) == 1
    ast.parse(mutated)


def test_the_unmutated_source_keeps_its_meaning() -> None:
    assert ast.dump(ast.parse(apply(SOURCE, None))) == ast.dump(ast.parse(SOURCE))


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--modules", "nowhere.py"]) == 2
    assert "--modules" in capsys.readouterr().err
    assert main(["--jobs", "0"]) == 2
