"""Tests of reference.vc against independent brute-force oracles and exact known values."""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Sequence
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.reference.concept_strategies import concept_classes, point_subsets
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
from privref.reference.reals import Order, compare, exp, rational
from privref.reference.vc import (
    canonical_representatives,
    growth_function,
    littlestone_dimension,
    projection,
    projection_size,
    representative,
    sauer_bound_exponential,
    sauer_shelah_bound,
    shatters,
    vc_dimension,
    xor_class,
)

# ------------------------------------------------------ independent oracles


def naive_projection(C: ConceptClass, B: Sequence[Hashable]) -> set[tuple[int, ...]]:
    return {tuple(c(b) for b in B) for c in C}


def naive_vc(C: ConceptClass) -> int:
    pts = C.domain.points
    return max(k for k in range(len(pts) + 1)
               if any(len(naive_projection(C, B)) == 2**k
                      for B in itertools.combinations(pts, k)))


def naive_ldim(C: ConceptClass) -> int:
    pts = C.domain.points

    @cache
    def ldim(V: frozenset[Concept]) -> int:
        if not V:
            return -1
        best = 0
        for x in pts:
            v0 = frozenset(c for c in V if c(x) == 0)
            v1 = V - v0
            if v0 and v1:
                best = max(best, 1 + min(ldim(v0), ldim(v1)))
        return best

    return ldim(frozenset(C))


def all_functions(n: int) -> ConceptClass:
    return explicit(range(n), [tuple((m >> i) & 1 for i in range(n)) for m in range(2**n)])


# ------------------------------------------------------------- projection


@given(st.data())
def test_projection_matches_oracle(data: st.DataObject) -> None:
    C = data.draw(concept_classes(max_points=6))
    B = data.draw(point_subsets(C))
    assert projection(C, B) == naive_projection(C, B)
    assert projection_size(C, B) == len(projection(C, B))
    assert shatters(C, B) == (len(naive_projection(C, B)) == 2 ** len(B))


def test_projection_with_repeated_points_repeats_coordinates() -> None:
    C = thresholds(2)
    assert projection(C, [1, 1, 2]) == {(0, 0, 0), (1, 1, 0), (1, 1, 1)}
    assert not shatters(C, [1, 1])
    assert projection(C, []) == {()} and shatters(C, [])


def test_projection_order_follows_b() -> None:
    C = thresholds(2)
    assert projection(C, [3, 1]) == {(0, 0), (0, 1), (1, 1)}
    assert projection(C, [1, 3]) == {(0, 0), (1, 0), (1, 1)}


# ---------------------------------------------- canonical representatives


@given(st.data())
def test_canonical_representatives_are_first_in_class_order(data: st.DataObject) -> None:
    C = data.draw(concept_classes(max_points=6))
    B = data.draw(point_subsets(C))
    reps = canonical_representatives(C, B)
    assert len(reps) == len(projection(C, B))
    assert [C.index(r) for r in reps] == sorted(C.index(r) for r in reps)
    for r in reps:
        pattern = tuple(r(b) for b in B)
        earlier = C.concepts[:C.index(r)]
        assert all(tuple(c(b) for b in B) != pattern for c in earlier)
        assert representative(C, B, pattern) is r
    # a fixed function of the set of points: reordering B changes nothing
    shuffled = data.draw(st.permutations(B))
    assert canonical_representatives(C, shuffled) == reps
    for r in reps:
        assert representative(C, shuffled, tuple(r(b) for b in shuffled)) is r


def test_representative_examples() -> None:
    C = thresholds(2)                                      # c_0 … c_4 over {0,1,2,3}
    assert [c.name for c in canonical_representatives(C, [1, 2])] == ["c_0", "c_2", "c_3"]
    assert representative(C, [1, 2], (1, 1)).name == "c_3"   # c_3 and c_4 both realise 11
    assert representative(C, [1, 1], (1, 1)).name == "c_2"


@pytest.mark.parametrize(("B", "pattern", "message"), [
    ([1, 2], (1,), r"^pattern=\(1,\) must be a sequence of 2 labels"),
    ([1, 2], (1, 2), r"^pattern\[1\]=2 must be 0 or 1$"),
    ([1, 2], (0, 1), r"^pattern=\(0, 1\) is not in Π_C\(B\) for C=THRESH_2$"),
    ([1, 1], (0, 1), r"^pattern=\(0, 1\) gives the repeated point B\[1\]=1 two labels"),
    ([1, 9], (0, 0), r"^B\[1\]=9 must be a point of the domain$"),
    ("12", (0, 0), r"^B='12' must be a sequence of domain points$"),
])
def test_representative_bad_input(B: Sequence[Hashable], pattern: tuple[int, ...],
                                  message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        representative(thresholds(2), B, pattern)


def test_projection_bad_input() -> None:
    with pytest.raises(InvalidArgument, match=r"^B\[0\]=7 must be a point of the domain$"):
        projection(thresholds(1), [7])
    with pytest.raises(InvalidArgument, match=r"^C=3 must be a ConceptClass$"):
        projection(3, [0])  # type: ignore[arg-type]


# -------------------------------------------------------------------- VC


@given(concept_classes(max_points=6))
def test_vc_matches_oracle(C: ConceptClass) -> None:
    assert vc_dimension(C) == naive_vc(C)


@pytest.mark.parametrize(("C", "expected"), [
    *[(thresholds(d), 1) for d in range(0, 6)],           # 004 §3: VC(THRESH_d) = 1
    (thresholds_on(1), 1),
    (intervals(1), 1),
    *[(intervals(n), 2) for n in range(2, 9)],
    (rectangles(2, 1), 2),                                 # 004 §4: VC = 2ℓ (d >= 2)
    (rectangles(2, 2), 4),
    (rectangles(3, 1), 2),
    (rectangles(1, 1), 2),                                 # d = 1: two values per axis
    (rectangles(1, 2), 2),
    (rectangles(1, 3), 3),
    *[(parities(d), d) for d in range(1, 5)],
    (point_functions([0]), 0),
    *[(point_functions(range(n)), 1) for n in range(2, 6)],
    *[(all_functions(n), n) for n in range(0, 5)],
])
def test_vc_exact_values(C: ConceptClass, expected: int) -> None:
    assert vc_dimension(C) == expected


def test_vc_zero_iff_single_concept() -> None:
    assert vc_dimension(explicit(range(4), [(1, 0, 1, 1)])) == 0
    assert vc_dimension(explicit(range(4), [(1, 0, 1, 1), (1, 0, 1, 0)])) == 1


def test_vc_limit() -> None:
    with pytest.raises(TooLargeToEnumerate, match=r"C=INTERVALS\[6 points\].*limit=10"):
        vc_dimension(intervals(6), limit=10)
    with pytest.raises(InvalidArgument, match=r"^limit=0 must be >= 1$"):
        vc_dimension(intervals(6), limit=0)


def test_vc_is_fast_on_thousands_of_concepts() -> None:
    import random
    rng = random.Random(2014)
    dense = explicit(range(8), [tuple((m >> i) & 1 for i in range(8)) for m in range(256)])
    sparse = explicit(range(12), [tuple((m >> i) & 1 for i in range(12))
                                  for m in rng.sample(range(4096), 3000)])
    assert vc_dimension(dense) == 8
    assert vc_dimension(sparse) >= 8


def test_vc_of_rectangle_2_3_is_six() -> None:
    # 004 §4: VC(RECTANGLE_d^ℓ) = 2ℓ; 1001 concepts over 64 points
    assert vc_dimension(rectangles(2, 3)) == 6


# ---------------------------------------------------------------- C^⊕


def test_xor_class_order_names_and_content() -> None:
    C = thresholds_on(2)                                   # c_0=00, c_1=10, c_2=11
    X = xor_class(C)
    assert X.name == "THRESH[2 points]^⊕"
    assert [(c.name, c.labels) for c in X] == [
        ("c_0⊕c_0", (0, 0)), ("c_0⊕c_1", (1, 0)), ("c_0⊕c_2", (1, 1)), ("c_1⊕c_2", (0, 1))]


@given(concept_classes(max_points=6))
def test_xor_class_is_pairwise_xor(C: ConceptClass) -> None:
    X = xor_class(C)
    assert set(X.masks) == {h ^ f for h in C.masks for f in C.masks}
    order = [next((i, j) for i in range(len(C)) for j in range(len(C))
                  if C.masks[i] ^ C.masks[j] == m) for m in X.masks]
    assert order == sorted(order)
    assert X.masks[0] == 0


@pytest.mark.parametrize("n", range(1, 9))
def test_xor_of_thresholds_is_half_open_intervals(n: int) -> None:
    # 004 §3: THRESH^⊕ = {[a, b)} with VC 2
    X = xor_class(thresholds_on(n))
    half_open = {tuple(int(a <= x < b) for x in range(n)) for a in range(n + 1)
                 for b in range(a, n + 1)}
    assert {c.labels for c in X} == half_open
    assert vc_dimension(X) == min(n, 2)


@pytest.mark.parametrize(("C", "vc", "vc_xor"), [
    (thresholds(3), 1, 2),                                 # 004-E17: THRESH 1 -> 2
    (intervals(6), 2, 4),                                  # INTERVALS 2 -> 4
    (intervals(8), 2, 4),
    (parities(3), 3, 3),                                   # parities are closed under ⊕
    (point_functions(range(5)), 1, 2),
    (explicit(range(3), [(0, 1, 1)]), 0, 0),
])
def test_xor_vc_exact_values(C: ConceptClass, vc: int, vc_xor: int) -> None:
    assert (vc_dimension(C), vc_dimension(xor_class(C))) == (vc, vc_xor)


def test_xor_limit() -> None:
    with pytest.raises(TooLargeToEnumerate, match=r"C=THRESH_3.*limit=50"):
        xor_class(thresholds(3), limit=50)


# ------------------------------------------------------------- Littlestone


@given(concept_classes(max_points=5))
def test_ldim_matches_oracle_and_sandwich(C: ConceptClass) -> None:
    ldim = littlestone_dimension(C)
    assert ldim == naive_ldim(C)
    assert vc_dimension(C) <= ldim <= len(C).bit_length() - 1


@pytest.mark.parametrize("n", range(1, 9))
def test_ldim_thresholds_formula_against_oracle(n: int) -> None:
    assert littlestone_dimension(thresholds_on(n)) == naive_ldim(thresholds_on(n))


def test_ldim_thresholds_formula() -> None:
    # brute force (above) shows Ldim(thresholds on n points) = floor(log2(n + 1))
    for n in range(1, 70):
        assert littlestone_dimension(thresholds_on(n)) == (n + 1).bit_length() - 1
    assert littlestone_dimension(thresholds(0)) == 1     # two concepts on one point
    for d in range(1, 8):
        assert littlestone_dimension(thresholds(d)) == d  # floor(log2(2^d + 1)) = d


@pytest.mark.parametrize(("C", "expected"), [
    *[(parities(d), d) for d in range(1, 5)],
    (point_functions([0]), 0),
    *[(point_functions(range(n)), 1) for n in range(2, 7)],
    *[(point_functions(range(n), include_zero=True), 1) for n in range(1, 7)],
    *[(all_functions(n), n) for n in range(0, 5)],
    *[(intervals(n), v) for n, v in zip(range(1, 10), [1, 2, 2, 3, 3, 4, 4, 4, 5], strict=True)],
])
def test_ldim_exact_values(C: ConceptClass, expected: int) -> None:
    assert littlestone_dimension(C) == expected
    if len(C.domain) <= 6:
        assert naive_ldim(C) == expected


def test_ldim_limits() -> None:
    with pytest.raises(TooLargeToEnumerate, match=r"C=THRESH_4.*limit=5"):
        littlestone_dimension(thresholds(4), limit=5)
    # pairs {2i} and {2i, 2i+1}: the most balanced split peels off one pair at a time
    n = 450
    dom = Domain(tuple(range(2 * n)))
    chain = [Concept.from_mask(dom, m) for i in range(n) for m in (1 << 2 * i, 3 << 2 * i)]
    with pytest.raises(TooLargeToEnumerate, match=r"recursion exceeds 400 levels"):
        littlestone_dimension(explicit(dom, chain))
    assert littlestone_dimension(explicit(dom, chain[:8])) == naive_ldim_small_chain(4) == 2


def naive_ldim_small_chain(pairs: int) -> int:
    dom = Domain(tuple(range(2 * pairs)))
    return naive_ldim(explicit(dom, [Concept.from_mask(dom, m) for i in range(pairs)
                                     for m in (1 << 2 * i, 3 << 2 * i)]))


# ---------------------------------------------------------------- Sauer


@pytest.mark.parametrize(("m", "d", "expected"), [
    (0, 0, 1), (5, 0, 1), (5, 1, 6), (5, 2, 16), (5, 5, 32), (3, 7, 8), (10, 3, 176),
])
def test_sauer_shelah_bound_values(m: int, d: int, expected: int) -> None:
    assert sauer_shelah_bound(m, d) == expected


@given(st.integers(0, 40), st.integers(0, 40))
def test_sauer_shelah_bound_formula(m: int, d: int) -> None:
    expected = sum(math.comb(m, i) for i in range(d + 1))
    assert sauer_shelah_bound(m, d) == expected
    if d >= m:
        assert expected == 2**m


def test_sauer_bound_exponential_is_exact() -> None:
    value = sauer_bound_exponential(5, 2)                  # (5e/2)^2 = 25 e^2 / 4
    assert compare(value, exp(2) * rational(Fraction(25, 4)))[0] is Order.EQUAL or \
        value.enclose().lo == (exp(2) * Fraction(25, 4)).enclose().lo
    assert compare(value, 46)[0] is Order.GREATER and compare(value, 47)[0] is Order.LESS


@given(st.integers(1, 12).flatmap(lambda d: st.tuples(st.integers(d + 1, 60), st.just(d))))
def test_sauer_sum_below_exponential_bound(md: tuple[int, int]) -> None:
    m, d = md
    order, _ = compare(sauer_shelah_bound(m, d), sauer_bound_exponential(m, d))
    assert order is Order.LESS


def test_sauer_bound_exponential_unrestricted_form() -> None:
    value = sauer_bound_exponential(1, 8, require_hypothesis=False)   # (e/8)^8 ≈ 1.78e-4
    assert compare(value, Fraction(17, 100000))[0] is Order.GREATER
    assert compare(value, Fraction(18, 100000))[0] is Order.LESS


def naive_growth(C: ConceptClass, m: int) -> int:
    points = C.domain.points
    size = min(m, len(points))
    return max(len(naive_projection(C, list(V))) for V in itertools.combinations(points, size))


@given(concept_classes(), st.integers(0, 7))
def test_growth_function_matches_brute_force(C: ConceptClass, m: int) -> None:
    assert growth_function(C, m) == naive_growth(C, m)
    assert growth_function(C, m) <= sauer_shelah_bound(m, vc_dimension(C))


def test_growth_function_values_and_limits() -> None:
    assert [growth_function(thresholds_on(4), m) for m in range(7)] == [1, 2, 3, 4, 5, 5, 5]
    assert growth_function(parities(3), 3) == 8
    with pytest.raises(TooLargeToEnumerate, match=r"m=10\).*limit=100"):
        growth_function(thresholds_on(20), 10, limit=100)
    with pytest.raises(InvalidArgument, match=r"^m=-1 must be >= 0$"):
        growth_function(thresholds_on(3), -1)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: sauer_shelah_bound(-1, 2), r"^m=-1 must be >= 0$"),
    (lambda: sauer_shelah_bound(3, -2), r"^d=-2 must be >= 0$"),
    (lambda: sauer_bound_exponential(3, 0), r"^d=0 must be >= 1$"),
    (lambda: sauer_bound_exponential(2, 2), r"^m=2 must be > d=2"),
    (lambda: sauer_bound_exponential(Fraction(5), 2),  # type: ignore[arg-type]
     r"^m=Fraction\(5, 1\) must be an int$"),
])
def test_sauer_bad_input(call: object, message: str) -> None:
    assert callable(call)
    with pytest.raises(InvalidArgument, match=message):
        call()
