"""Hypothesis strategies for domains, concept classes and point sets (re-exported by the lead).

Every strategy draws small objects (at most ``max_points`` domain points) so
that exact enumeration over them stays fast.
"""

from __future__ import annotations

from collections.abc import Hashable

from hypothesis import strategies as st

from .concepts import (
    ConceptClass,
    Domain,
    explicit,
    intervals,
    parities,
    point_functions,
    rectangles,
    thresholds_on,
)
from .errors import InvalidArgument

__all__ = ["concept_classes", "domains", "point_subsets"]

_POINTS: st.SearchStrategy[Hashable] = st.one_of(
    st.integers(min_value=-3, max_value=20),
    st.text(alphabet="abcxyz", min_size=1, max_size=2),
    st.tuples(st.integers(0, 2), st.integers(0, 2)),
)


def _check_max_points(max_points: int) -> None:
    if isinstance(max_points, bool) or not isinstance(max_points, int) or max_points < 1:
        raise InvalidArgument(f"max_points={max_points!r} must be an int >= 1")


def domains(max_points: int = 6) -> st.SearchStrategy[Domain]:
    """Domains of 1..max_points distinct points (ints, short strings or int pairs), any order."""
    _check_max_points(max_points)
    return st.lists(_POINTS, min_size=1, max_size=max_points, unique=True).map(
        lambda pts: Domain(tuple(pts)))


@st.composite
def _explicit_classes(draw: st.DrawFn, max_points: int) -> ConceptClass:
    dom = draw(domains(max_points))
    n = len(dom)
    masks = draw(st.lists(st.integers(0, (1 << n) - 1), min_size=1, max_size=min(1 << n, 40),
                          unique=True))
    rows = [tuple((m >> i) & 1 for i in range(n)) for m in masks]
    return explicit(dom, rows, name=f"random[{n} points]")


@st.composite
def _structured_classes(draw: st.DrawFn, max_points: int) -> ConceptClass:
    options: list[st.SearchStrategy[ConceptClass]] = [
        st.integers(1, max_points).map(thresholds_on),
        st.integers(1, max_points).map(intervals),
        domains(max_points).flatmap(
            lambda dom: st.booleans().map(lambda z: point_functions(dom, include_zero=z))),
    ]
    if max_points >= 2:
        top = max_points.bit_length() - 1           # 2^top <= max_points
        options.append(st.integers(1, top).map(parities))
        options.append(st.integers(1, top).map(lambda ell: rectangles(1, ell)))
    if max_points >= 4:
        options.append(st.just(rectangles(2, 1)))
    return draw(st.one_of(options))


def concept_classes(max_points: int = 6) -> st.SearchStrategy[ConceptClass]:
    """Concept classes on at most ``max_points`` points: random explicit ones and structured ones.

    Random classes are 1..40 distinct concepts (drawn as label bitmasks) over
    a drawn domain; structured ones are thresholds, intervals, point functions,
    parities and rectangles whose domain fits in ``max_points``.
    """
    _check_max_points(max_points)
    return st.one_of(_explicit_classes(max_points), _structured_classes(max_points))


def point_subsets(C: ConceptClass, *, min_size: int = 0,
                  max_size: int | None = None) -> st.SearchStrategy[tuple[Hashable, ...]]:
    """Sequences of distinct points of C's domain, in a drawn order (a subset B with an order)."""
    if not isinstance(C, ConceptClass):
        raise InvalidArgument(f"C={C!r} must be a ConceptClass")
    return st.lists(st.sampled_from(C.domain.points), min_size=min_size, max_size=max_size,
                    unique=True).map(tuple)
