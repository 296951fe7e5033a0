"""Every public mechanism constructor is named by a MechanismContract subclass.

The rule for "public mechanism constructor": a function that is

* listed in ``__all__`` of a module of ``privref.reference`` or ``privref.reference.learners``
  whose name does not start with ``_`` (the modules are found with pkgutil, so a new module
  is covered without editing this test),
* defined in that module (``obj.__module__`` is the module; re-exports are counted once,
  where they are defined), and
* annotated to return ``Mechanism[...]`` or a subclass of Mechanism (the return hint is
  resolved with typing.get_type_hints; a hint that cannot be resolved fails this test
  rather than hiding a constructor).

Learner constructors (returning a Learner that carries a Mechanism) are not required,
though contract classes may name them too.  A contract class names its constructors in
``constructors`` (tests/reference/contracts.py); the contract classes are found by
importing every module under tests/reference whose source mentions MechanismContract.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import typing
from collections.abc import Callable, Iterator
from pathlib import Path

import privref.reference
import privref.reference.learners
from privref.reference.geometric import geometric_mechanism
from privref.reference.mechanism import Mechanism

from .contracts import MechanismContract

HERE = Path(__file__).resolve().parent


def _qualname(fn: Callable[..., object]) -> str:
    return f"{fn.__module__}.{fn.__name__}"


def public_mechanism_constructors() -> set[str]:
    """Qualified names of the public mechanism constructors (module docstring's rule)."""
    found: set[str] = set()
    for package in (privref.reference, privref.reference.learners):
        for info in pkgutil.iter_modules(package.__path__):
            if info.ispkg or info.name.startswith("_"):
                continue
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for name in getattr(module, "__all__", ()):
                obj = getattr(module, name)
                if not inspect.isfunction(obj) or obj.__module__ != module.__name__:
                    continue
                returned = typing.get_type_hints(obj).get("return")
                origin = typing.get_origin(returned) or returned
                if isinstance(origin, type) and issubclass(origin, Mechanism):
                    found.add(_qualname(obj))
    return found


def _subclasses(cls: type) -> Iterator[type]:
    sub: type
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def contract_classes() -> list[type]:
    """Every MechanismContract subclass defined under tests/reference."""
    for path in sorted(HERE.rglob("test_*.py")):
        if "MechanismContract" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(HERE).with_suffix("").parts
            importlib.import_module(".".join((__package__ or "tests.reference", *parts)))
    return list(_subclasses(MechanismContract))


def test_the_enumeration_finds_constructors() -> None:
    """Control: the rule sees a known constructor and nothing private."""
    names = public_mechanism_constructors()
    assert _qualname(geometric_mechanism) in names
    assert all(not part.startswith("_") for n in names for part in n.split("."))


def test_every_public_mechanism_constructor_has_a_contract_class() -> None:
    """A public constructor named by no contract class fails, naming it."""
    covered = {_qualname(fn) for cls in contract_classes()
               for fn in typing.cast(type[MechanismContract], cls).constructors}
    missing = sorted(public_mechanism_constructors() - covered)
    assert not missing, f"public mechanism constructors with no MechanismContract class: {missing}"
