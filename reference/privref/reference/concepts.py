"""Concepts and concept classes over finite domains (004 Section 3, Appendix B).

A :class:`Domain` is a finite tuple of distinct hashable points in a fixed
order.  A :class:`Concept` is a 0/1 function on a domain, stored as its label
tuple in domain order together with a readable ``name``; two concepts are
equal exactly when they are the same function on the same domain (the name
does not take part in equality).  A :class:`ConceptClass` is a non-empty
tuple of pairwise distinct concepts over one domain, in a **canonical order**
that each constructor documents and that never depends on data: the privacy
proofs of 004 (Lemma 4.1, GenericLearner Step 4) need "an arbitrary concept
realising a pattern" to be a fixed choice, and :mod:`privref.reference.vc` picks the
first one in this order.

Every constructor refuses to compute more than ``limit`` labels (number of
candidate concepts times number of points) and raises
:class:`~reference.errors.TooLargeToEnumerate` naming the argument and the limit.
Constructors that can produce the same function twice keep the first one in
canonical order (with its name) and drop the rest.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

from .errors import InvalidArgument, TooLargeToEnumerate
from .validate import check_int

__all__ = [
    "DEFAULT_LIMIT",
    "Concept",
    "ConceptClass",
    "ConceptSpec",
    "Domain",
    "as_domain",
    "explicit",
    "intervals",
    "parities",
    "point_functions",
    "rectangles",
    "thresholds",
    "thresholds_on",
]

DEFAULT_LIMIT: Final = 2**22
"""Default cap on the number of labels (candidate concepts × points) a constructor computes."""


@dataclass(frozen=True, slots=True, eq=False)
class Domain:
    """A finite domain: distinct hashable points in a fixed order.

    Guarantee: ``position(x)`` is the index of ``x`` in ``points``; two domains
    are equal exactly when their point tuples are equal.
    """

    points: tuple[Hashable, ...]
    _positions: dict[Hashable, int] = field(init=False, repr=False)
    _hash: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.points, tuple):
            raise InvalidArgument(f"points={self.points!r} must be a tuple")
        positions: dict[Hashable, int] = {}
        for i, p in enumerate(self.points):
            try:
                j = positions.setdefault(p, i)
            except TypeError:
                raise InvalidArgument(f"points[{i}]={p!r} must be hashable") from None
            if j != i:
                raise InvalidArgument(f"points[{i}]={p!r} must be distinct from points[{j}]")
        object.__setattr__(self, "_positions", positions)
        object.__setattr__(self, "_hash", hash(self.points))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Domain):
            return NotImplemented
        return self._hash == other._hash and self.points == other.points

    def __hash__(self) -> int:
        return self._hash

    def __len__(self) -> int:
        return len(self.points)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.points)

    def __contains__(self, x: object) -> bool:
        try:
            return x in self._positions
        except TypeError:
            return False

    def position(self, x: Hashable, name: str = "x") -> int:
        """Index of point ``x``; raises InvalidArgument (naming ``name``) for a non-point."""
        try:
            return self._positions[x]
        except (KeyError, TypeError):
            raise InvalidArgument(f"{name}={x!r} must be a point of the domain") from None


def as_domain(domain: Domain | Iterable[Hashable], name: str = "domain") -> Domain:
    """``domain`` itself, or a Domain built from the given points (validated, named ``name``)."""
    if isinstance(domain, Domain):
        return domain
    if isinstance(domain, str | bytes) or not isinstance(domain, Iterable):
        raise InvalidArgument(f"{name}={domain!r} must be a Domain or a sequence of points")
    try:
        return Domain(tuple(domain))
    except InvalidArgument as err:
        raise InvalidArgument(f"{name}: {err}") from None


@dataclass(frozen=True, slots=True, eq=False)
class Concept:
    """A concept c: X → {0, 1} over a finite domain (004 Definition 2.2's "concept").

    ``labels[i]`` is c(domain.points[i]); ``mask`` has bit i set iff that label is 1.
    Equality and hashing use (domain, labels) only, never ``name``.  Calling
    ``c(x)`` returns the 0/1 label of point ``x`` and raises InvalidArgument for
    a point outside the domain.
    """

    domain: Domain
    labels: tuple[int, ...]
    name: str = ""
    mask: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.domain, Domain):
            raise InvalidArgument(f"domain={self.domain!r} must be a Domain")
        if not isinstance(self.labels, tuple) or len(self.labels) != len(self.domain):
            raise InvalidArgument(f"labels={self.labels!r} must be a tuple of "
                                  f"{len(self.domain)} labels, one per domain point")
        mask = 0
        for i, v in enumerate(self.labels):
            if type(v) is not int or v not in (0, 1):
                raise InvalidArgument(f"labels[{i}]={v!r} must be 0 or 1")
            mask |= v << i
        object.__setattr__(self, "mask", mask)

    @classmethod
    def from_mask(cls, domain: Domain, mask: int, name: str = "") -> Concept:
        """The concept whose label on ``domain.points[i]`` is bit i of ``mask``."""
        check_int(mask, "mask", minimum=0, maximum=(1 << len(domain)) - 1)
        return cls(domain, tuple((mask >> i) & 1 for i in range(len(domain))), name)

    def __call__(self, x: Hashable) -> int:
        return self.labels[self.domain.position(x)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Concept):
            return NotImplemented
        return self.mask == other.mask and self.domain == other.domain

    def __hash__(self) -> int:
        return hash((self.domain, self.mask))

    def __repr__(self) -> str:
        return f"Concept({self.name or '?'}: {''.join(map(str, self.labels))})"

    def xor(self, other: Concept) -> Concept:
        """h ⊕ f, the pointwise XOR (004 Definition 3.1), named ``h⊕f``."""
        if other.domain != self.domain:
            raise InvalidArgument(f"other={other!r} must be over the same domain")
        return Concept.from_mask(self.domain, self.mask ^ other.mask,
                                 f"{self.name}⊕{other.name}")


@dataclass(frozen=True, slots=True, eq=False)
class ConceptClass:
    """A non-empty finite concept class: distinct concepts over one domain, in canonical order.

    Guarantee: ``concepts`` are pairwise distinct functions over ``domain`` and
    their order is the documented canonical order of the constructor that
    made the class; ``masks[i]`` is ``concepts[i].mask``.  Equality is equality
    of (name, domain, concepts in order).
    """

    name: str
    domain: Domain
    concepts: tuple[Concept, ...]
    masks: tuple[int, ...] = field(init=False, repr=False)
    _index: dict[int, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.domain, Domain):
            raise InvalidArgument(f"domain={self.domain!r} must be a Domain")
        if not isinstance(self.concepts, tuple) or not self.concepts:
            raise InvalidArgument(f"concepts={self.concepts!r} must be a non-empty tuple")
        index: dict[int, int] = {}
        for i, c in enumerate(self.concepts):
            if not isinstance(c, Concept) or c.domain != self.domain:
                raise InvalidArgument(f"concepts[{i}]={c!r} must be a Concept over the domain")
            j = index.setdefault(c.mask, i)
            if j != i:
                raise InvalidArgument(f"concepts[{i}]={c!r} must differ from concepts[{j}]")
        object.__setattr__(self, "masks", tuple(c.mask for c in self.concepts))
        object.__setattr__(self, "_index", index)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConceptClass):
            return NotImplemented
        return (self.name, self.domain, self.masks) == (other.name, other.domain, other.masks)

    def __hash__(self) -> int:
        return hash((self.name, self.domain, self.masks))

    def __repr__(self) -> str:
        return f"ConceptClass({self.name}: {len(self)} concepts over {len(self.domain)} points)"

    def __len__(self) -> int:
        return len(self.concepts)

    def __iter__(self) -> Iterator[Concept]:
        return iter(self.concepts)

    def __getitem__(self, i: int) -> Concept:
        return self.concepts[i]

    def __contains__(self, c: object) -> bool:
        return isinstance(c, Concept) and c.domain == self.domain and c.mask in self._index

    def index(self, c: Concept) -> int:
        """Position of ``c`` in canonical order; InvalidArgument if ``c`` is not in the class."""
        if c not in self:
            raise InvalidArgument(f"c={c!r} must be a concept of {self.name}")
        return self._index[c.mask]


# ------------------------------------------------------------------ helpers


def _check_limit(limit: int) -> int:
    return check_int(limit, "limit", minimum=1)


def _refuse(argument: str, n_concepts: int, n_points: int, limit: int) -> None:
    """Raise TooLargeToEnumerate unless n_concepts × n_points labels fit in ``limit``."""
    if n_points > limit or n_concepts * max(n_points, 1) > limit:
        raise TooLargeToEnumerate(
            f"{argument} gives {n_concepts} candidate concepts over {n_points} points "
            f"(more than limit={limit} labels); pass a larger limit= to enumerate it")


def _power_of_two_too_large(argument: str, exponent: int, limit: int) -> None:
    """Refuse 2**exponent points before computing it, when it surely exceeds ``limit``."""
    if exponent >= limit.bit_length():
        raise TooLargeToEnumerate(
            f"{argument} gives 2**{exponent} points (more than limit={limit} labels); "
            "pass a larger limit= to enumerate it")


def _build(name: str, domain: Domain, masked: Iterable[tuple[int, str]]) -> ConceptClass:
    """A class from (mask, name) pairs in canonical order, keeping the first of equal masks."""
    first: dict[int, str] = {}
    for mask, cname in masked:
        first.setdefault(mask, cname)
    return ConceptClass(name, domain,
                        tuple(Concept.from_mask(domain, m, n) for m, n in first.items()))


def _int_domain(n: int) -> Domain:
    return Domain(tuple(range(n)))


# ------------------------------------------------------------- constructors


def thresholds(d: int, *, limit: int = DEFAULT_LIMIT) -> ConceptClass:
    """THRESH_d (004 §3): c_j(x) = 1 iff x < j over X_d = {0, …, 2^d − 1}.

    Canonical order c_0, c_1, …, c_{2^d} (c_0 ≡ 0, c_{2^d} ≡ 1); 2^d + 1 concepts, VC 1.
    Points are ints.  Requires d >= 0.
    """
    d = check_int(d, "d", minimum=0)
    limit = _check_limit(limit)
    _power_of_two_too_large(f"d={d}", d, limit)
    return _thresholds(1 << d, f"d={d}", f"THRESH_{d}", limit)


def thresholds_on(n_points: int, *, limit: int = DEFAULT_LIMIT) -> ConceptClass:
    """Thresholds c_j(x) = 1 iff x < j over {0, …, n_points − 1}, j = 0..n_points, in that order.

    ``thresholds_on(2**d)`` has the same concepts, names and order as ``thresholds(d)``.
    """
    n_points = check_int(n_points, "n_points", minimum=1)
    limit = _check_limit(limit)
    return _thresholds(n_points, f"n_points={n_points}", f"THRESH[{n_points} points]", limit)


def _thresholds(n: int, argument: str, name: str, limit: int) -> ConceptClass:
    _refuse(argument, n + 1, n, limit)
    return _build(name, _int_domain(n), (((1 << j) - 1, f"c_{j}") for j in range(n + 1)))


def point_functions(domain: Domain | Iterable[Hashable], *, include_zero: bool = False,
                    limit: int = DEFAULT_LIMIT) -> ConceptClass:
    """Point functions c_p(x) = 1 iff x = p, one per point p, in domain order.

    The all-zero concept is **not** included by default (none of papers 000/004
    defines the class; this follows the common POINT_d = {c_p : p ∈ X_d}).  With
    ``include_zero=True`` it is appended last, named ``c_zero``.
    """
    dom = as_domain(domain)
    if not dom.points:
        raise InvalidArgument("domain=() must hold at least one point")
    if not isinstance(include_zero, bool):
        raise InvalidArgument(f"include_zero={include_zero!r} must be a bool")
    limit = _check_limit(limit)
    n = len(dom)
    _refuse(f"domain of {n} points", n + int(include_zero), n, limit)
    pairs = [(1 << i, f"c_{p}") for i, p in enumerate(dom.points)]
    if include_zero:
        pairs.append((0, "c_zero"))
    return _build(f"POINT[{n} points]", dom, pairs)


def intervals(domain_size: int, *, limit: int = DEFAULT_LIMIT) -> ConceptClass:
    """Intervals c_[a,b](x) = 1 iff a <= x <= b over {0, …, domain_size − 1}, plus the empty set.

    Canonical order: ``c_empty`` first, then c_[a,b] for 0 <= a <= b < n in
    lexicographic order of (a, b); n(n+1)/2 + 1 concepts, VC 2 when n >= 2.
    """
    n = check_int(domain_size, "domain_size", minimum=1)
    limit = _check_limit(limit)
    _refuse(f"domain_size={n}", n * (n + 1) // 2 + 1, n, limit)
    pairs = [(0, "c_empty")]
    pairs += [(((1 << (b + 1)) - 1) ^ ((1 << a) - 1), f"c_[{a},{b}]")
              for a in range(n) for b in range(a, n)]
    return _build(f"INTERVALS[{n} points]", _int_domain(n), pairs)


def rectangles(d: int, l: int, *, limit: int = DEFAULT_LIMIT) -> ConceptClass:  # noqa: E741
    """RECTANGLE_d^ℓ (004 §4) over X_d^ℓ = ({0, …, 2^d − 1})^ℓ, with ℓ = ``l``.

    Points are ℓ-tuples of ints, in lexicographic order.  c_[a,b](x) = 1 iff
    a_i <= x_i <= b_i for every i.  Canonical order: (a, b) ranging over
    X_d^ℓ × X_d^ℓ lexicographically (a outer).  Equal functions are kept once,
    under the first name in that order; every a with some a_i > b_i gives the
    empty concept, which is therefore named after the first such pair, e.g.
    ``c_[(0,1),(0,0)]``.  VC = 2ℓ for d >= 2 (004 §4; needs 3 values per axis).
    """
    d = check_int(d, "d", minimum=1)
    l = check_int(l, "l", minimum=1)  # noqa: E741
    limit = _check_limit(limit)
    argument = f"d={d}, l={l}"
    _power_of_two_too_large(argument, d * l, limit)
    side = 1 << d
    points = tuple(itertools.product(range(side), repeat=l))
    _refuse(argument, len(points) ** 2, len(points), limit)
    dom = Domain(points)
    # axis_value[i][v]: mask of points whose i-th coordinate is v
    axis_value = [[0] * side for _ in range(l)]
    for pos, x in enumerate(points):
        for i, v in enumerate(x):
            axis_value[i][v] |= 1 << pos
    # axis_interval[i][(a, b)]: mask of points with a <= x_i <= b (0 when a > b)
    axis_interval: list[dict[tuple[int, int], int]] = []
    for i in range(l):
        table: dict[tuple[int, int], int] = {}
        for a in range(side):
            acc = 0
            for b in range(side):
                if b >= a:
                    acc |= axis_value[i][b]
                table[(a, b)] = acc  # stays 0 while b < a: the empty interval
        axis_interval.append(table)
    full = (1 << len(points)) - 1

    def pairs() -> Iterator[tuple[int, str]]:
        for a in points:
            for b in points:
                m = full
                for i in range(l):
                    m &= axis_interval[i][(a[i], b[i])]
                yield m, f"c_[{_tup(a)},{_tup(b)}]"

    return _build(f"RECTANGLE_{d}^{l}", dom, pairs())


def _tup(t: tuple[int, ...]) -> str:
    return "(" + ",".join(map(str, t)) + ")"


def parities(d: int, *, limit: int = DEFAULT_LIMIT) -> ConceptClass:
    """Parities c_S(x) = ⊕_{i∈S} x_i over {0,1}^d; all 2^d subsets S of {0, …, d−1}.

    Points are d-tuples of bits in lexicographic order; S is enumerated by its
    indicator tuple in the same order (so c_{} ≡ 0 is first); names list the
    0-based coordinates, e.g. ``c_{0,2}``.  VC = d.
    """
    d = check_int(d, "d", minimum=1)
    limit = _check_limit(limit)
    _power_of_two_too_large(f"d={d}", d, limit)
    points = tuple(itertools.product((0, 1), repeat=d))
    _refuse(f"d={d}", len(points), len(points), limit)

    def parity_mask(s: tuple[int, ...]) -> int:
        m = 0
        for pos, x in enumerate(points):
            m |= (sum(si & xi for si, xi in zip(s, x, strict=True)) & 1) << pos
        return m

    names = ("c_{" + ",".join(str(i) for i in range(d) if s[i]) + "}" for s in points)
    return _build(f"PARITY_{d}", Domain(points),
                  zip((parity_mask(s) for s in points), names, strict=True))


ConceptSpec = Concept | Sequence[int] | Callable[[Hashable], int]
"""How :func:`explicit` accepts a concept: a Concept, a label sequence, or a function."""


def explicit(domain: Domain | Iterable[Hashable], concepts: Iterable[ConceptSpec], *,
             name: str = "explicit", limit: int = DEFAULT_LIMIT) -> ConceptClass:
    """An explicit finite class over ``domain``, deduplicated, in the order given.

    Each item is a :class:`Concept` over the domain (its name is kept), a
    sequence of 0/1 labels in domain order, or a callable point -> 0/1 (bools
    are accepted as 0/1).  Items without a name are named ``h_i``, i being the
    item's position in ``concepts``.  A repeated function keeps its first
    occurrence.  Raises InvalidArgument if no concept is given.
    """
    dom = as_domain(domain)
    limit = _check_limit(limit)
    if isinstance(concepts, str | bytes) or not isinstance(concepts, Iterable):
        raise InvalidArgument(f"concepts={concepts!r} must be an iterable of concepts")
    n = len(dom)
    pairs: list[tuple[int, str]] = []
    for i, spec in enumerate(concepts):
        _refuse(f"concepts (at least {i + 1} items)", i + 1, n, limit)
        pairs.append(_spec_mask(dom, spec, i))
    if not pairs:
        raise InvalidArgument("concepts=[] must hold at least one concept")
    return _build(name, dom, pairs)


def _spec_mask(dom: Domain, spec: ConceptSpec, i: int) -> tuple[int, str]:
    if isinstance(spec, Concept):
        if spec.domain != dom:
            raise InvalidArgument(f"concepts[{i}]={spec!r} must be over the given domain")
        return spec.mask, spec.name or f"h_{i}"
    if callable(spec):
        labels = []
        for x in dom.points:
            v = spec(x)
            if isinstance(v, bool):
                v = int(v)
            if type(v) is not int or v not in (0, 1):
                raise InvalidArgument(f"concepts[{i}]({x!r})={v!r} must be 0 or 1")
            labels.append(v)
        return Concept(dom, tuple(labels)).mask, f"h_{i}"
    if isinstance(spec, str | bytes) or not isinstance(spec, Sequence):
        raise InvalidArgument(f"concepts[{i}]={spec!r} must be a Concept, labels or a callable")
    try:
        return Concept(dom, tuple(spec)).mask, f"h_{i}"
    except InvalidArgument as err:
        raise InvalidArgument(f"concepts[{i}]: {err}") from None
