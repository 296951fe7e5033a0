"""Hypothesis strategies for privref's values (public API).

Use them in your own tests to generate small, exactly-enumerable inputs::

    from hypothesis import given
    from privref.reference.strategies import neighboring_pairs

    @given(neighboring_pairs(elements=(0, 1), sizes=(1, 2, 3)))
    def test_my_mechanism(pair): ...

Every strategy keeps its values small enough for exact enumeration.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction

from hypothesis import strategies as st

from .concept_strategies import concept_classes, domains, point_subsets
from .data import BOTTOM, Dataset
from .errors import InvalidArgument
from .neighbors import SUBSTITUTION, AddRemove, NeighborRelation, PublicPrivate
from .privacy import PrivacyClaim
from .program import Distribution
from .reals import Real, log, rational
from .validate import check_int

__all__ = [
    "concept_classes",
    "datasets",
    "deltas",
    "distributions",
    "domains",
    "epsilons",
    "labeled_datasets",
    "neighboring_pairs",
    "partially_labeled_datasets",
    "point_subsets",
    "privacy_claims",
]


def _elements(elements: Sequence[Hashable]) -> tuple[Hashable, ...]:
    out = tuple(elements)
    if not out:
        raise InvalidArgument("elements=() must hold at least one element")
    return out


def datasets(elements: Sequence[Hashable] = (0, 1), *, min_size: int = 0,
             max_size: int = 4) -> st.SearchStrategy[Dataset]:
    """Immutable datasets (tuples) of min_size..max_size entries drawn from ``elements``."""
    els = _elements(elements)
    check_int(min_size, "min_size", minimum=0)
    check_int(max_size, "max_size", minimum=min_size)
    return st.lists(st.sampled_from(els), min_size=min_size, max_size=max_size).map(tuple)


def labeled_datasets(points: Sequence[Hashable] = (0, 1, 2), *, min_size: int = 0,
                     max_size: int = 4) -> st.SearchStrategy[Dataset]:
    """Datasets of labeled examples (x, y), y in {0, 1}."""
    return datasets([(x, y) for x in _elements(points) for y in (0, 1)],
                    min_size=min_size, max_size=max_size)


def partially_labeled_datasets(points: Sequence[Hashable] = (0, 1, 2), *, min_size: int = 0,
                               max_size: int = 4) -> st.SearchStrategy[Dataset]:
    """Datasets of examples (x, y) with y in {0, 1, ⊥} (004 Definition 2.3)."""
    return datasets([(x, y) for x in _elements(points) for y in (0, 1, BOTTOM)],
                    min_size=min_size, max_size=max_size)


@st.composite
def _pairs(draw: st.DrawFn, relation: NeighborRelation, els: tuple[Hashable, ...],
           min_size: int, max_size: int) -> tuple[Dataset, Dataset]:
    public: Dataset = ()
    if isinstance(relation, PublicPrivate):
        public = tuple(draw(st.lists(st.sampled_from(els), min_size=relation.public_size,
                                     max_size=relation.public_size)))
    if isinstance(relation, AddRemove):
        a = draw(datasets(els, min_size=min_size, max_size=max(min_size, max_size - 1)))
        i = draw(st.integers(0, len(a)))
        b = (*a[:i], draw(st.sampled_from(els)), *a[i:])
        return (a, b) if draw(st.booleans()) else (b, a)
    if len(els) < 2:
        raise InvalidArgument("substitution pairs need at least two elements")
    a = public + draw(datasets(els, min_size=max(min_size, 1), max_size=max(max_size, 1)))
    k = len(public)
    i = draw(st.integers(k, len(a) - 1))
    new = draw(st.sampled_from([e for e in els if e != a[i]]))
    return a, (*a[:i], new, *a[i + 1:])


def neighboring_pairs(relation: NeighborRelation = SUBSTITUTION,
                      elements: Sequence[Hashable] = (0, 1), *, min_size: int = 1,
                      max_size: int = 4) -> st.SearchStrategy[tuple[Dataset, Dataset]]:
    """Ordered pairs (a, b) of neighbors under ``relation`` over ``elements``.

    Guarantee: ``relation.are_neighbors(a, b)`` holds for every generated pair
    (for PublicPrivate, a public prefix of ``public_size`` entries is drawn too).
    """
    els = _elements(elements)
    check_int(min_size, "min_size", minimum=0)
    check_int(max_size, "max_size", minimum=max(min_size, 1))
    return _pairs(relation, els, min_size, max_size)


def epsilons(*, max_base: Fraction = Fraction(4)) -> st.SearchStrategy[Real]:
    """Exact epsilons: rationals in [0, 3] and logs of rationals in (1, max_base]."""
    rationals = st.fractions(min_value=0, max_value=3, max_denominator=20).map(rational)
    logs = st.fractions(min_value=Fraction(21, 20), max_value=max_base,
                        max_denominator=20).map(lambda r: log(r))
    return st.one_of(rationals, logs)


def deltas(*, max_value: Fraction = Fraction(1, 10)) -> st.SearchStrategy[Fraction]:
    """Exact deltas in [0, max_value] (rationals with small denominators, 0 often)."""
    return st.one_of(st.just(Fraction(0)),
                     st.fractions(min_value=0, max_value=max_value, max_denominator=1000))


def privacy_claims() -> st.SearchStrategy[PrivacyClaim]:
    """(epsilon, delta) claims built from :func:`epsilons` and :func:`deltas`."""
    return st.builds(PrivacyClaim, epsilons(), deltas())


@st.composite
def _distributions(draw: st.DrawFn, outcomes: tuple[Hashable, ...]) -> Distribution[Hashable]:
    weights = draw(st.lists(st.integers(0, 12), min_size=len(outcomes),
                            max_size=len(outcomes)).filter(lambda w: sum(w) > 0))
    total = sum(weights)
    return Distribution.from_mapping({o: Fraction(w, total)
                                      for o, w in zip(outcomes, weights, strict=True)})


def distributions(outcomes: Sequence[Hashable] = (0, 1, 2, 3)
                  ) -> st.SearchStrategy[Distribution[Hashable]]:
    """Exact finite distributions over ``outcomes`` (rational probabilities summing to 1)."""
    return _distributions(_elements(outcomes))
