"""Tests of reference.concepts: the structured classes, explicit classes, and bad input."""

from __future__ import annotations

import itertools
from collections.abc import Hashable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.reference.concept_strategies import concept_classes, domains, point_subsets
from privref.reference.concepts import (
    Concept,
    ConceptClass,
    Domain,
    explicit,
    intervals,
    parities,
    point_functions,
    rectangles,
    thresholds,
    thresholds_on,
)
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate

# ------------------------------------------------------------ thresholds


@pytest.mark.parametrize("d", range(6))
def test_thresholds_match_definition(d: int) -> None:
    C = thresholds(d)
    n = 2**d
    assert C.domain.points == tuple(range(n))
    assert len(C) == n + 1                                    # 004 §3: 2^d + 1 concepts
    assert [c.name for c in C] == [f"c_{j}" for j in range(n + 1)]
    for j, c in enumerate(C):
        assert c.labels == tuple(int(x < j) for x in range(n))
        assert all(c(x) == int(x < j) for x in range(n))


def test_thresholds_on_agrees_with_thresholds() -> None:
    for d in range(5):
        a, b = thresholds(d), thresholds_on(2**d)
        assert a.domain == b.domain
        assert a.concepts == b.concepts
        assert [c.name for c in a] == [c.name for c in b]


def test_thresholds_on_small() -> None:
    C = thresholds_on(3)
    assert [c.labels for c in C] == [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)]


# ------------------------------------------------------- point functions


def test_point_functions_default_excludes_zero() -> None:
    C = point_functions(["a", "b", "c"])
    assert [c.name for c in C] == ["c_a", "c_b", "c_c"]
    assert [c.labels for c in C] == [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
    assert Concept.from_mask(C.domain, 0) not in C


def test_point_functions_with_zero_appends_it_last() -> None:
    C = point_functions(range(3), include_zero=True)
    assert len(C) == 4
    assert C[3].name == "c_zero"
    assert C[3].labels == (0, 0, 0)


def test_point_functions_on_tuple_points() -> None:
    C = point_functions([(0, 1), (1, 0)])
    assert C[0]((0, 1)) == 1
    assert C[0]((1, 0)) == 0


# ------------------------------------------------------------- intervals


@pytest.mark.parametrize("n", range(1, 8))
def test_intervals_match_definition(n: int) -> None:
    C = intervals(n)
    assert len(C) == n * (n + 1) // 2 + 1
    assert C[0].name == "c_empty" and C[0].labels == (0,) * n
    expected = [(a, b) for a in range(n) for b in range(a, n)]
    assert [c.name for c in C.concepts[1:]] == [f"c_[{a},{b}]" for a, b in expected]
    for c, (a, b) in zip(C.concepts[1:], expected, strict=True):
        assert c.labels == tuple(int(a <= x <= b) for x in range(n))


# ------------------------------------------------------------ rectangles


def _rectangle_function(points: tuple[tuple[int, ...], ...], a: tuple[int, ...],
                        b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(all(ai <= xi <= bi for ai, xi, bi in zip(a, x, b, strict=True)))
                 for x in points)


@pytest.mark.parametrize(("d", "l"), [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2)])
def test_rectangles_match_definition(d: int, l: int) -> None:  # noqa: E741
    C = rectangles(d, l)
    side = 2**d
    points = tuple(itertools.product(range(side), repeat=l))
    assert C.domain.points == points
    # independent enumeration in canonical order, first name kept for equal functions
    first: dict[tuple[int, ...], str] = {}
    for a in points:
        for b in points:
            name = "c_[(" + ",".join(map(str, a)) + "),(" + ",".join(map(str, b)) + ")]"
            first.setdefault(_rectangle_function(points, a, b), name)
    assert [(c.labels, c.name) for c in C] == list(first.items())
    # number of distinct functions: (non-empty intervals per axis)^l + the empty concept
    assert len(C) == (side * (side + 1) // 2) ** l + 1


def test_rectangles_empty_concept_is_named_by_first_pair() -> None:
    C = rectangles(1, 2)
    empty = [c for c in C if not any(c.labels)]
    assert len(empty) == 1
    assert empty[0].name == "c_[(0,1),(0,0)]"


# -------------------------------------------------------------- parities


@pytest.mark.parametrize("d", range(1, 5))
def test_parities_match_definition(d: int) -> None:
    C = parities(d)
    points = tuple(itertools.product((0, 1), repeat=d))
    assert C.domain.points == points
    assert len(C) == 2**d
    for c, s in zip(C, points, strict=True):
        S = [i for i in range(d) if s[i]]
        assert c.name == "c_{" + ",".join(map(str, S)) + "}"
        assert c.labels == tuple(sum(x[i] for i in S) % 2 for x in points)


# -------------------------------------------------------------- explicit


def test_explicit_accepts_labels_callables_and_concepts() -> None:
    dom = Domain(("p", "q", "r"))
    named = Concept(dom, (1, 1, 1), "all")
    C = explicit(dom, [(0, 1, 0), lambda x: x == "r", named], name="mixed")
    assert C.name == "mixed"
    assert [c.name for c in C] == ["h_0", "h_1", "all"]
    assert [c.labels for c in C] == [(0, 1, 0), (0, 0, 1), (1, 1, 1)]


def test_explicit_dedupes_keeping_first_in_given_order() -> None:
    C = explicit(range(2), [(1, 0), (0, 0), (1, 0), lambda x: int(x == 0)])
    assert [(c.name, c.labels) for c in C] == [("h_0", (1, 0)), ("h_1", (0, 0))]


# ------------------------------------------------------ value semantics


def test_concept_equality_ignores_name_and_is_hashable() -> None:
    dom = Domain((0, 1))
    a, b = Concept(dom, (1, 0), "a"), Concept(dom, (1, 0), "b")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Concept(Domain((1, 0)), (1, 0), "a")          # other domain order
    assert a != Concept(dom, (0, 1), "a")
    assert Concept.from_mask(dom, 0b01) == a
    assert a.xor(Concept(dom, (1, 1))).labels == (0, 1)
    assert a.xor(Concept(dom, (1, 1), "t")).name == "a⊕t"


def test_concept_class_index_and_membership() -> None:
    C = thresholds(2)
    for i, c in enumerate(C):
        assert C.index(c) == i and c in C
    with pytest.raises(InvalidArgument, match=r"c=.*must be a concept of THRESH_2"):
        C.index(Concept(C.domain, (0, 1, 0, 0)))


@given(concept_classes(max_points=6))
def test_generated_classes_are_consistent(C: ConceptClass) -> None:
    assert len(C) >= 1
    assert len(set(C.masks)) == len(C)
    for c, m in zip(C, C.masks, strict=True):
        assert c.mask == m == sum(v << i for i, v in enumerate(c.labels))
        assert [c(x) for x in C.domain] == list(c.labels)
    copy = explicit(C.domain, list(C), name=C.name)
    assert copy == C and hash(copy) == hash(C)


@given(domains(max_points=6))
def test_generated_domains_are_valid(dom: Domain) -> None:
    assert 1 <= len(dom) <= 6
    assert [dom.position(x) for x in dom] == list(range(len(dom)))


@given(st.data())
def test_point_subsets_are_distinct_domain_points(data: st.DataObject) -> None:
    C = data.draw(concept_classes(max_points=5))
    B: tuple[Hashable, ...] = data.draw(point_subsets(C))
    assert len(set(B)) == len(B)
    assert all(b in C.domain for b in B)


# ------------------------------------------------------------- bad input


@pytest.mark.parametrize(("call", "message"), [
    (lambda: thresholds(-1), r"^d=-1 must be >= 0$"),
    (lambda: thresholds(True), r"^d=True must be an int$"),
    (lambda: thresholds(1.0), r"^d=1.0 must be an int$"),  # type: ignore[arg-type]
    (lambda: thresholds_on(0), r"^n_points=0 must be >= 1$"),
    (lambda: intervals(0), r"^domain_size=0 must be >= 1$"),
    (lambda: rectangles(0, 1), r"^d=0 must be >= 1$"),
    (lambda: rectangles(1, 0), r"^l=0 must be >= 1$"),
    (lambda: parities(0), r"^d=0 must be >= 1$"),
    (lambda: point_functions([]), r"^domain=\(\) must hold at least one point$"),
    (lambda: point_functions([1, 2], include_zero=1), r"^include_zero=1 must be a bool$"),  # type: ignore[arg-type]
    (lambda: thresholds(2, limit=0), r"^limit=0 must be >= 1$"),
    (lambda: explicit(range(2), []), r"^concepts=\[\] must hold at least one concept$"),
    (lambda: explicit(range(2), [(1, 0, 1)]), r"^concepts\[0\]: labels=.* must be a tuple of 2"),
    (lambda: explicit(range(2), [(1, 0), (1, 2)]), r"^concepts\[1\]: labels\[1\]=2 must be 0 or 1"),
    (lambda: explicit(range(2), [lambda x: 2]), r"^concepts\[0\]\(0\)=2 must be 0 or 1$"),
    (lambda: explicit(range(2), "01"),  # type: ignore[arg-type]
     r"^concepts='01' must be an iterable of concepts$"),
    (lambda: explicit(range(2), [5]), r"^concepts\[0\]=5 must be a Concept"),  # type: ignore[list-item]
    (lambda: explicit([1, 1], [(0, 0)]),
     r"^domain: points\[1\]=1 must be distinct from points\[0\]"),
    (lambda: explicit([[1]], [(0,)]),  # type: ignore[list-item]
     r"^domain: points\[0\]=\[1\] must be hashable$"),
    (lambda: Domain([1, 2]), r"^points=\[1, 2\] must be a tuple$"),  # type: ignore[arg-type]
    (lambda: Concept(Domain((0,)), (True,)), r"^labels\[0\]=True must be 0 or 1$"),
    (lambda: Concept.from_mask(Domain((0,)), 2), r"^mask=2 must be <= 1$"),
    (lambda: thresholds(1)[0](5), r"^x=5 must be a point of the domain$"),
    (lambda: ConceptClass("e", Domain((0,)), ()), r"^concepts=\(\) must be a non-empty tuple$"),
])
def test_bad_arguments_name_the_argument(call: object, message: str) -> None:
    assert callable(call)
    with pytest.raises(InvalidArgument, match=message):
        call()


def test_class_refuses_duplicate_and_foreign_concepts() -> None:
    dom = Domain((0, 1))
    c = Concept(dom, (1, 0), "a")
    with pytest.raises(InvalidArgument, match=r"concepts\[1\]=.* must differ from concepts\[0\]"):
        ConceptClass("dup", dom, (c, Concept(dom, (1, 0), "b")))
    with pytest.raises(InvalidArgument, match=r"concepts\[0\]=.* must be a Concept over the"):
        ConceptClass("foreign", Domain((0, 1, 2)), (c,))


@pytest.mark.parametrize(("call", "argument", "limit"), [
    (lambda: thresholds(5, limit=10), "d=5", "limit=10"),
    (lambda: thresholds(10**9), "d=1000000000", "limit=4194304"),
    (lambda: thresholds_on(100, limit=1000), "n_points=100", "limit=1000"),
    (lambda: intervals(20, limit=500), "domain_size=20", "limit=500"),
    (lambda: rectangles(3, 3), "d=3, l=3", "limit=4194304"),
    (lambda: rectangles(40, 40), "d=40, l=40", "limit=4194304"),
    (lambda: parities(12), "d=12", "limit=4194304"),
    (lambda: point_functions(range(50), limit=100), "domain of 50 points", "limit=100"),
    (lambda: explicit(range(4), itertools.repeat((0, 0, 0, 0)), limit=40), "concepts",
     "limit=40"),
])
def test_too_large_names_argument_and_limit(call: object, argument: str, limit: str) -> None:
    assert callable(call)
    with pytest.raises(TooLargeToEnumerate) as info:
        call()
    assert argument in str(info.value) and limit in str(info.value)


def test_limit_is_inclusive_on_label_count() -> None:
    # thresholds(2): 5 concepts over 4 points = 20 labels
    assert len(thresholds(2, limit=20)) == 5
    with pytest.raises(TooLargeToEnumerate):
        thresholds(2, limit=19)
