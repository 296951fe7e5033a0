"""Mechanism validates its fields at construction, and refuses a non-program when interpreted."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from privref.reference.citations import Uncited, cite
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument, UnsupportedProgram
from privref.reference.mechanism import Mechanism
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, bernoulli

CLAIM = PrivacyClaim.of("1")
SOURCE = cite("folklore Warner 1965")


def coin(data: Dataset) -> Program[int]:
    bit = 1 if data[0] == 1 else 0
    kept = yield from bernoulli(Fraction(3, 4))
    return bit if kept else 1 - bit


def test_a_valid_mechanism_builds_and_runs() -> None:
    mech = Mechanism("coin", coin, CLAIM, SOURCE)
    law = mech.distribution((1,))
    assert (law.prob(1), law.prob(0)) == (Fraction(3, 4), Fraction(1, 4))


@pytest.mark.parametrize(("field", "value", "message"), [
    ("name", "", "name="),
    ("name", 3, "name="),
    ("program", "not callable", "program="),
    ("claim", (1, 0), "claim="),
    ("source", "004 Proposition A.1", "source="),
    ("source", None, "source="),
    ("relation", "substitution", "relation="),
    ("order_invariant", 1, "order_invariant="),
    ("description", None, "description="),
])
def test_bad_fields_are_refused_naming_the_field(field: str, value: Any, message: str) -> None:
    fields: dict[str, Any] = {"name": "m", "program": coin, "claim": CLAIM, "source": SOURCE}
    fields[field] = value
    with pytest.raises(InvalidArgument, match=message) as info:
        Mechanism(**fields)
    assert "\n" not in str(info.value)


def test_a_string_source_must_go_through_cite() -> None:
    with pytest.raises(InvalidArgument, match="cite"):
        Mechanism("m", coin, CLAIM, "folklore Warner 1965")  # type: ignore[arg-type]
    assert Mechanism("m", coin, CLAIM, cite("folklore Warner 1965")).source == SOURCE
    assert str(Mechanism("m", coin, CLAIM, Uncited("fixture")).source) == "uncited (fixture)"


def test_a_plain_function_is_refused_by_both_interpreters_naming_the_mechanism() -> None:
    """Mechanism('m', lambda d: d[0], ...) used to fail with a TypeError traceback."""
    def first(data: Dataset) -> Any:  # a plain function, not a generator: what is refused
        return data[0]

    plain: Mechanism[Any] = Mechanism("first entry", first, CLAIM, Uncited("test"))
    with pytest.raises(UnsupportedProgram, match=r"mechanism 'first entry'.*not a generator"):
        plain.distribution((1,))
    with pytest.raises(UnsupportedProgram, match=r"mechanism 'first entry'.*not a generator"):
        plain.sample((1,), np.random.default_rng(0))


def test_uncited_needs_a_reason() -> None:
    with pytest.raises(InvalidArgument, match="reason="):
        Uncited(" ")
