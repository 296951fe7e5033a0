"""Exact VC combinatorics over finite concept classes (004 Appendix B, Definition 3.1).

All functions work on the bitmask form of concepts (bit i = label of the i-th
domain point) and are exact: no sampling, no floats.  Each enumeration has a
``limit`` on its work and raises :class:`~reference.errors.TooLargeToEnumerate`
instead of running for too long.

Ledger: ``004 Theorem B.2`` (Sauer) and ``004 Observation 3.2`` in
:mod:`privref.proofs.p004.vc` check the statements these functions compute.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Final

from .concepts import DEFAULT_LIMIT, Concept, ConceptClass
from .errors import InvalidArgument, TooLargeToEnumerate
from .reals import Real, exp, rational
from .validate import check_int

__all__ = [
    "DEFAULT_WORK_LIMIT",
    "canonical_representatives",
    "growth_function",
    "littlestone_dimension",
    "projection",
    "projection_size",
    "representative",
    "sauer_bound_exponential",
    "sauer_shelah_bound",
    "shatters",
    "vc_dimension",
    "xor_class",
]

DEFAULT_WORK_LIMIT: Final = 2**24
"""Default cap on the work of :func:`vc_dimension` (candidate sets tested) and
:func:`littlestone_dimension` ((version space, point) pairs examined)."""

_MAX_DEPTH: Final = 400


def _check_class(C: ConceptClass) -> ConceptClass:
    if not isinstance(C, ConceptClass):
        raise InvalidArgument(f"C={C!r} must be a ConceptClass")
    return C


def _positions(C: ConceptClass, B: Sequence[Hashable]) -> tuple[int, ...]:
    """Domain positions of the points of B, in B's order (InvalidArgument names ``B[i]``)."""
    if isinstance(B, str | bytes) or not isinstance(B, Sequence):
        raise InvalidArgument(f"B={B!r} must be a sequence of domain points")
    return tuple(C.domain.position(b, f"B[{i}]") for i, b in enumerate(B))


def _support(positions: tuple[int, ...]) -> int:
    s = 0
    for p in positions:
        s |= 1 << p
    return s


def _pattern(mask: int, positions: tuple[int, ...]) -> tuple[int, ...]:
    return tuple((mask >> p) & 1 for p in positions)


def projection(C: ConceptClass, B: Sequence[Hashable]) -> frozenset[tuple[int, ...]]:
    """Π_C(B) = {(c(b_1), …, c(b_ℓ)) : c ∈ C} (004 Definition B.1).

    ``B`` is a sequence of domain points; the tuples follow its order.  A point
    repeated in B gives a repeated coordinate, so such a B is never shattered
    (unless it is empty).  Every point must belong to C's domain.
    """
    positions = _positions(_check_class(C), B)
    support = _support(positions)
    return frozenset(_pattern(r, positions) for r in {m & support for m in C.masks})


def projection_size(C: ConceptClass, B: Sequence[Hashable]) -> int:
    """|Π_C(B)|, computed without building the tuples (equals ``len(projection(C, B))``)."""
    support = _support(_positions(_check_class(C), B))
    return len({m & support for m in C.masks})


def growth_function(C: ConceptClass, m: int, *, limit: int = DEFAULT_WORK_LIMIT) -> int:
    """G_C(m) = max |Π_C(V)| over sets V of m distinct domain points (003 Lemma 3.3, proof).

    Exact, by enumerating every m-subset of the domain.  For m > |X| there is
    no such set; the value returned is then G_C(|X|), the maximum over
    samples of size m with repetitions (a repeated point adds no pattern).
    G_C(0) = 1.  Raises TooLargeToEnumerate (naming ``m`` and ``limit``) when
    C(|X|, m)·|C| exceeds ``limit``.
    """
    C = _check_class(C)
    m = check_int(m, "m", minimum=0)
    limit = check_int(limit, "limit", minimum=1)
    n = len(C.domain)
    size = min(m, n)
    work = math.comb(n, size) * len(C)
    if work > limit:
        raise TooLargeToEnumerate(f"growth_function(C={C.name}, m={m}) would examine "
                                  f"C({n}, {size})·|C| = {work} > limit={limit} patterns; "
                                  "pass a larger limit=")
    best = 0
    for positions in itertools.combinations(range(n), size):
        support = _support(positions)
        best = max(best, len({mask & support for mask in C.masks}))
    return best


def shatters(C: ConceptClass, B: Sequence[Hashable]) -> bool:
    """True iff C realises all 2^|B| dichotomies on B (004 Definition B.1)."""
    return len(projection(C, B)) == 1 << len(B)


def canonical_representatives(C: ConceptClass, B: Sequence[Hashable]) -> tuple[Concept, ...]:
    """One concept per pattern of Π_C(B): the first, in C's canonical order, realising it.

    The representative of a pattern depends only on (C, the set of points of B,
    the labelling the pattern gives those points), not on B's order or on any
    data: this is the fixed choice rule the privacy proofs need (inventory §3
    implementation notes; 004 Lemma 4.1, GenericLearner Step 4).  The result
    is ordered by position in C, so its length is |Π_C(B)|.
    """
    support = _support(_positions(_check_class(C), B))
    seen: set[int] = set()
    chosen: list[Concept] = []
    for c, m in zip(C.concepts, C.masks, strict=True):
        r = m & support
        if r not in seen:
            seen.add(r)
            chosen.append(c)
    return tuple(chosen)


def representative(C: ConceptClass, B: Sequence[Hashable],
                   pattern: Sequence[int]) -> Concept:
    """The first concept of C (canonical order) with (c(b_1), …, c(b_ℓ)) = ``pattern``.

    Agrees with :func:`canonical_representatives`.  Raises InvalidArgument if
    the pattern has the wrong length, a non-0/1 entry, or is not in Π_C(B).
    """
    positions = _positions(_check_class(C), B)
    if isinstance(pattern, str | bytes) or not isinstance(pattern, Sequence) \
            or len(pattern) != len(positions):
        raise InvalidArgument(f"pattern={pattern!r} must be a sequence of {len(positions)} "
                              "labels, one per point of B")
    target = 0
    assigned: dict[int, int] = {}
    for i, (p, v) in enumerate(zip(positions, pattern, strict=True)):
        if type(v) is not int or v not in (0, 1):
            raise InvalidArgument(f"pattern[{i}]={v!r} must be 0 or 1")
        if assigned.setdefault(p, v) != v:
            raise InvalidArgument(f"pattern={tuple(pattern)!r} gives the repeated point "
                                  f"B[{i}]={B[i]!r} two labels, so it is not in Π_C(B)")
        target |= v << p
    support = _support(positions)
    for c, m in zip(C.concepts, C.masks, strict=True):
        if m & support == target:
            return c
    raise InvalidArgument(f"pattern={tuple(pattern)!r} is not in Π_C(B) for C={C.name}")


def vc_dimension(C: ConceptClass, *, limit: int = DEFAULT_WORK_LIMIT) -> int:
    """VC(C), the size of the largest shattered subset of the domain (004 Definition B.1).

    Exact brute force, level by level: a set of size k+1 is tested only if all
    its k-subsets are shattered, and no set larger than log2|C| is tried; the
    search stops at the first size with no shattered set.  VC(C) = 0 iff
    |C| = 1.  Raises TooLargeToEnumerate (naming ``C`` and ``limit``) once more
    than ``limit`` candidate sets would be tested.
    """
    C = _check_class(C)
    limit = check_int(limit, "limit", minimum=1)
    cols = _columns(C)
    full = (1 << len(C)) - 1
    n = len(C.domain)
    k_max = min(n, len(C).bit_length() - 1)         # 2^k <= |C| is necessary
    level: set[int] = {0}                           # the empty set is shattered (C non-empty)
    tested = 0
    d = 0
    for k in range(1, k_max + 1):
        next_level: set[int] = set()
        for s in level:
            for p in range(s.bit_length(), n):      # extend by a larger element only
                t = s | (1 << p)
                if not _all_subsets_in(t, p, level):
                    continue
                tested += 1
                if tested > limit:
                    raise TooLargeToEnumerate(
                        f"vc_dimension(C={C.name}) would test more than limit={limit} "
                        "candidate sets; pass a larger limit=")
                if _shattered(cols, full, p, s):
                    next_level.add(t)
        if not next_level:
            break
        level, d = next_level, k
    return d


def _columns(C: ConceptClass) -> list[int]:
    """cols[x]: bitmask over concept indices of the concepts labelling point x with 1."""
    cols = [0] * len(C.domain)
    for idx, m in enumerate(C.masks):
        while m:
            low = m & -m
            cols[low.bit_length() - 1] |= 1 << idx
            m ^= low
    return cols


def _shattered(cols: list[int], full: int, p: int, s: int) -> bool:
    """Whether {p} ∪ s is shattered: every cell of the partition of C by its labels is non-empty."""
    cells = [full]
    rest = s
    point = p
    while True:
        col = cols[point]
        split: list[int] = []
        for cell in cells:
            ones = cell & col
            if not ones or ones == cell:            # some pattern is not realised
                return False
            split += (ones, cell ^ ones)
        cells = split
        if not rest:
            return True
        low = rest & -rest
        point = low.bit_length() - 1
        rest ^= low


def _all_subsets_in(t: int, skip: int, level: set[int]) -> bool:
    """All (|t|−1)-subsets of t, except t minus ``skip`` (known to be in level), lie in level."""
    rest = t & ~(1 << skip)
    while rest:
        low = rest & -rest
        if (t & ~low) not in level:
            return False
        rest ^= low
    return True


def xor_class(C: ConceptClass, *, limit: int = DEFAULT_LIMIT) -> ConceptClass:
    """C^⊕ = {h ⊕ f : h, f ∈ C} (004 Definition 3.1), as an explicit class.

    Canonical order: pairs (h, f) by (index of h, index of f); a repeated
    function keeps its first pair, named ``h⊕f`` (so ``c⊕c`` ≡ 0 comes first).
    Named ``<C.name>^⊕``.  Raises TooLargeToEnumerate when |C|^2 > ``limit``.
    """
    C = _check_class(C)
    limit = check_int(limit, "limit", minimum=1)
    if len(C) ** 2 > limit:
        raise TooLargeToEnumerate(f"xor_class(C={C.name}) would form {len(C) ** 2} pairs "
                                  f"(more than limit={limit}); pass a larger limit=")
    first: dict[int, tuple[int, int]] = {}
    masks = C.masks
    for i, h in enumerate(masks):
        for j, f in enumerate(masks):
            first.setdefault(h ^ f, (i, j))
    concepts = tuple(C.concepts[i].xor(C.concepts[j]) for i, j in first.values())
    return ConceptClass(f"{C.name}^⊕", C.domain, concepts)


def littlestone_dimension(C: ConceptClass, *, limit: int = DEFAULT_WORK_LIMIT) -> int:
    """Ldim(C), the depth of the largest complete mistake tree shattered by C (exact).

    Recursion on version spaces V ⊆ C: Ldim(V) = max over points x splitting V
    into non-empty V_{x,0}, V_{x,1} of 1 + min(Ldim(V_{x,0}), Ldim(V_{x,1})),
    with Ldim = 0 for a single concept (and, by convention, −1 for the empty
    version space, which the recursion never reaches and a ConceptClass never
    is).  Memoised on V as a bitmask over C's indices; splits are tried most
    balanced first and pruned with Ldim(V) <= floor(log2 |V|).  VC(C) <= Ldim(C)
    <= floor(log2 |C|).  Raises TooLargeToEnumerate once more than ``limit``
    (version space, point) pairs are examined or the recursion gets deeper than
    400 levels.
    """
    C = _check_class(C)
    limit = check_int(limit, "limit", minimum=1)
    ones = _columns(C)
    memo: dict[int, int] = {}
    work = [0]

    def too_large(what: str) -> TooLargeToEnumerate:
        return TooLargeToEnumerate(f"littlestone_dimension(C={C.name}) {what}; "
                                   f"pass a larger limit= (limit={limit})")

    def ldim(v: int, depth: int) -> int:
        size = v.bit_count()
        if size == 1:
            return 0
        cached = memo.get(v)
        if cached is not None:
            return cached
        if depth > _MAX_DEPTH:
            raise too_large(f"recursion exceeds {_MAX_DEPTH} levels")
        work[0] += len(ones)
        if work[0] > limit:
            raise too_large(f"would examine more than limit={limit} (version space, point) pairs")
        splits = sorted(((v & ~o, v & o) for o in ones if v & o and v & ~o),
                        key=lambda s: -min(s[0].bit_count(), s[1].bit_count()))
        bound = size.bit_length() - 1
        best = 0
        for v0, v1 in splits:
            small, large = (v0, v1) if v0.bit_count() <= v1.bit_count() else (v1, v0)
            if 1 + small.bit_count().bit_length() - 1 <= best:
                break                               # later splits are no more balanced
            a = ldim(small, depth + 1)
            if 1 + a > best:                        # min(0, Ldim(large)) = 0: no need to recurse
                best = max(best, 1 + (0 if a == 0 else min(a, ldim(large, depth + 1))))
            if best == bound:
                break
        memo[v] = best
        return best

    return ldim((1 << len(C)) - 1, 0)


def sauer_shelah_bound(m: int, d: int) -> int:
    """Σ_{i=0}^{d} C(m, i): the Sauer–Shelah bound on |Π_C(B)| for |B| = m, VC(C) = d (exact).

    Used as the integer intermediate step of 004 Theorem B.2.  Requires m, d >= 0.
    """
    m = check_int(m, "m", minimum=0)
    d = check_int(d, "d", minimum=0)
    return sum(math.comb(m, i) for i in range(min(d, m) + 1))


def sauer_bound_exponential(m: int, d: int, *, require_hypothesis: bool = True) -> Real:
    """(e·m/d)^d as an exact Real, the right-hand side of 004 Theorem B.2 (Sauer).

    Computed as exp(d) · (m/d)^d, exactly.  Requires m > d >= 1 (the theorem's
    hypotheses |B| > VC(C) >= 1; for m < d the value can be below the true count).
    ``require_hypothesis=False`` accepts any m >= 0, to evaluate the unrestricted
    form that 003 Lemma 3.3's proof prints (for its counterexample).
    """
    d = check_int(d, "d", minimum=1)
    m = check_int(m, "m", minimum=0)
    if require_hypothesis and m <= d:
        raise InvalidArgument(f"m={m} must be > d={d} (004 Theorem B.2 needs |B| > VC(C))")
    return exp(d) * rational(Fraction(m, d) ** d)
