"""Probabilistic programs: one definition, two interpreters.

A mechanism is written once, as a generator function that *yields* its random
choices and *returns* its outcome::

    def randomized_response(bit: int, keep: Fraction) -> Program[int]:
        kept = yield from bernoulli(keep)
        return bit if kept else 1 - bit

Two interpreters derive everything else from that single definition:

* :func:`distribution` enumerates every choice (replaying the generator along
  each path), multiplies the exact probabilities, and merges equal outcomes;
* :func:`sample` runs it once, drawing each choice with exact integer
  randomness from a seeded ``numpy.random.Generator``.

Sub-programs invoked with :func:`call` are interpreted compositionally: the
exact interpreter computes (and memoizes) the sub-program's distribution, then
branches over its merged outcomes rather than its internal paths.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar, cast

import numpy as np

from . import _kernels, _sampling
from .errors import InvalidArgument, TooLargeToEnumerate, UnsupportedProgram
from .reals import (
    DEFAULT_PRECISION,
    Interval,
    Prob,
    Real,
    prob_add,
    prob_mul,
    rational,
)

__all__ = [
    "MAX_PATHS",
    "Affine",
    "Bernoulli",
    "Call",
    "Categorical",
    "Choice",
    "ContinuousChoice",
    "Distribution",
    "FiniteEvent",
    "InfiniteChoice",
    "Program",
    "Subset",
    "Uniform",
    "bernoulli",
    "call",
    "categorical",
    "categorical_choice",
    "choose",
    "deterministic",
    "distribution",
    "floyd_subset",
    "sample",
    "subset",
    "uniform",
]

T = TypeVar("T")
U = TypeVar("U")

MAX_PATHS = 2_000_000
"""Default limit on enumerated execution paths before TooLargeToEnumerate is raised."""


class Choice:
    """Base of the random choices a program may yield.

    A finite choice implements :meth:`branches` (its exact support) and
    :meth:`draw` (an exact sampler using integer randomness).
    """

    __slots__ = ()

    def branches(self, prec: int) -> list[tuple[Any, Prob]]:
        """Every value with its exact probability (or enclosure at ``prec`` bits)."""
        raise UnsupportedProgram(f"{type(self).__name__} has no finite support")

    def draw(self, rng: np.random.Generator) -> Any:
        """One exact draw."""
        raise UnsupportedProgram(f"{type(self).__name__} cannot be sampled")


class InfiniteChoice(Choice):
    """An integer-valued choice with infinite support (e.g. discrete Laplace noise).

    The exact interpreter does not enumerate it: it sends an :class:`Affine`
    placeholder, and the program may only add or subtract integers, negate it,
    and return it (``return count + noise``).  The path then contributes a
    shifted copy of the noise law to the output, with its tails kept in closed
    form.  Any other use raises UnsupportedProgram rather than truncating.  To
    *branch* on noise (``c + Z >= t``, ``c1 + Z1 > c2 + Z2``), a program yields a
    :class:`FiniteEvent` comparison instead (see :mod:`privref.reference.discrete_noise`),
    whose exact law is the comparison's tail probability.
    """

    __slots__ = ()


class ContinuousChoice(InfiniteChoice):
    """A real-valued choice with a density (continuous Laplace or Gaussian noise).

    As with :class:`InfiniteChoice`, the exact interpreter sends an :class:`Affine`
    placeholder; the program may add or subtract exact rationals, negate it and return it
    (``return value + noise``): the path then contributes a shifted copy of the density, which
    the auditor decides from the density ratio (:mod:`privref.audits._released`).  The sampler
    gets an exact :class:`~privref.reference.reals.Real` draw.
    """

    __slots__ = ()


class FiniteEvent(Choice):
    """A choice with finitely many outcomes that is *defined* by comparing infinite-support noise.

    Subclasses (the threshold tests of :mod:`privref.reference.discrete_noise`) implement
    :meth:`branches` from closed-form or rigorously enclosed tail probabilities of the
    comparison, and :meth:`draw` by drawing the noises exactly and comparing, so both
    interpreters read one definition.  :meth:`accepts` says which values the choice can
    take (used to refuse programs whose choices change on replay).
    """

    __slots__ = ()

    def accepts(self, value: object) -> bool:
        """Whether ``value`` is one of this choice's outcomes."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Affine:
    """Placeholder for ``sign * noise + offset`` during exact interpretation.

    The offset is an int; for a :class:`ContinuousChoice` it may be any exact rational.
    """

    noise: InfiniteChoice
    sign: int = 1
    offset: int | Fraction = 0

    @property
    def integer_offset(self) -> int:
        """The offset of an integer-noise placeholder (UnsupportedProgram for a rational one)."""
        if isinstance(self.offset, int):
            return self.offset
        raise UnsupportedProgram(f"offset={self.offset} is not an integer: a continuous "
                                 "release, not an integer-noise one")

    def _shift(self, other: object) -> int | Fraction | None:
        """``other`` as an offset this placeholder can take, else None."""
        if isinstance(other, bool):
            return None
        if isinstance(other, int):
            return other
        if isinstance(other, Fraction) and isinstance(self.noise, ContinuousChoice):
            return other
        return None

    def __add__(self, other: int | Fraction) -> Affine:
        k = self._shift(other)
        if k is None:
            return NotImplemented
        return Affine(self.noise, self.sign, self.offset + k)

    __radd__ = __add__

    def __sub__(self, other: int | Fraction) -> Affine:
        k = self._shift(other)
        if k is None:
            return NotImplemented
        return Affine(self.noise, self.sign, self.offset - k)

    def __rsub__(self, other: int | Fraction) -> Affine:
        k = self._shift(other)
        if k is None:
            return NotImplemented
        return Affine(self.noise, -self.sign, k - self.offset)

    def __neg__(self) -> Affine:
        return Affine(self.noise, -self.sign, -self.offset)

    def __bool__(self) -> bool:
        raise UnsupportedProgram(
            "a program branched on infinite-support noise; its exact distribution is only "
            "available when the noise is returned as an affine expression (value + noise)")

    def __index__(self) -> int:
        raise UnsupportedProgram("infinite-support noise cannot be converted to int exactly")


@dataclass(frozen=True, slots=True)
class Uniform(Choice):
    """A uniformly random integer in [0, n)."""

    n: int

    def branches(self, prec: int) -> list[tuple[Any, Prob]]:
        """n values, each with probability exactly 1/n."""
        p = Fraction(1, self.n)
        return [(i, p) for i in range(self.n)]

    def draw(self, rng: np.random.Generator) -> Any:
        """Exactly uniform by rejection on raw bits."""
        return _sampling.uniform_int(rng, self.n)


def floyd_subset(n: int, m: int, draws: Sequence[int]) -> tuple[int, ...]:
    """Floyd's algorithm: the sorted m-subset of range(n) that the integer ``draws`` select.

    ``draws[i]`` must lie in [0, n − m + i] (i = 0..m−1).  Guarantee: when the draws are
    independent and each uniform on its range, the result is uniform over the C(n, m)
    m-subsets.  Proof (induction on i): before step i the set is a uniform
    i-subset of range(n − m + i); step i, with j = n − m + i, adds the draw t when it is new
    and j otherwise, so each (i+1)-subset of range(j + 1) is produced by exactly i + 1 of the
    (j + 1)·C(j, i) equally likely (set, draw) pairs (the tests count this exhaustively).
    Pure integer arithmetic (Floyd, "A sample of brilliance", CACM 1987).
    """
    chosen: set[int] = set()
    for i, t in enumerate(draws):
        j = n - m + i
        chosen.add(j if t in chosen else t)
    return tuple(sorted(chosen))


@dataclass(frozen=True, slots=True)
class Subset(Choice):
    """A uniformly random m-subset of range(n), as a sorted tuple of m distinct indices.

    Exact law: each of the C(n, m) subsets with probability exactly 1/C(n, m), enumerated in
    lexicographic order (:func:`itertools.combinations`).  Sampler: Floyd's algorithm
    (:func:`floyd_subset`) on m unbiased integer draws (``numpy.random.Generator.integers``
    with an array of upper bounds, which rejects rather than rounds), O(m) work and never a
    float, so it stays fast at n = 10^5 where unranking one of C(n, m) ranks does not.
    """

    n: int
    m: int

    def branches(self, prec: int) -> list[tuple[Any, Prob]]:
        """The C(n, m) sorted subsets, each with probability exactly 1/C(n, m)."""
        p = Fraction(1, math.comb(self.n, self.m))
        return [(s, p) for s in itertools.combinations(range(self.n), self.m)]

    def draw(self, rng: np.random.Generator) -> Any:
        """One exact draw by Floyd's algorithm (integer draws only)."""
        if self.m == 0:
            return ()
        highs = np.arange(self.n - self.m + 1, self.n + 1, dtype=np.int64)
        draws = rng.integers(0, highs, dtype=np.int64)
        return floyd_subset(self.n, self.m, draws.tolist())


@dataclass(frozen=True, slots=True)
class Bernoulli(Choice):
    """True with probability p (an exact real in [0, 1])."""

    p: Real

    def branches(self, prec: int) -> list[tuple[Any, Prob]]:
        """True with p, False with 1 - p (exact, or enclosed at ``prec`` bits)."""
        shares = _weight_shares((self.p, rational(1) - self.p), prec)
        return [(True, shares[0]), (False, shares[1])]

    def draw(self, rng: np.random.Generator) -> Any:
        """Exact: integer comparison for rational p, lazy refinement otherwise."""
        if self.p.exact is not None:
            return _sampling.bernoulli(rng, self.p.exact)
        return _sampling.categorical_real(rng, (self.p, rational(1) - self.p)) == 0


@dataclass(frozen=True, slots=True)
class Categorical(Choice):
    """Index i with probability weights[i] / sum(weights); weights are exact non-negative reals."""

    weights: tuple[Real, ...]

    def branches(self, prec: int) -> list[tuple[Any, Prob]]:
        """Each index with positive weight, with its exact share (or enclosure); O(len(weights))."""
        shares = _weight_shares(self.weights, prec)
        return [(i, shares[i]) for i in range(len(self.weights)) if self.weights[i].exact != 0]

    def draw(self, rng: np.random.Generator) -> Any:
        """Exact: integer arithmetic for rational weights, lazy refinement otherwise."""
        return _sampling.categorical_real(rng, self.weights)


@dataclass(frozen=True, slots=True)
class Call(Choice):
    """Run a sub-program; interpreted compositionally (and memoized) by :func:`distribution`."""

    program: Callable[..., Generator[Choice, Any, Any]]
    args: tuple[Any, ...]


Program = Generator[Choice, Any, T]
"""A probabilistic program returning T."""


def uniform(n: int) -> Program[int]:
    """Yield a uniform integer in [0, n); n must be >= 1."""
    if n < 1:
        raise InvalidArgument(f"n={n} must be >= 1")
    value = yield Uniform(n)
    return cast(int, value)


def subset(n: int, m: int) -> Program[tuple[int, ...]]:
    """Yield a uniform m-subset of range(n) as a sorted tuple; requires 0 <= m <= n, n >= 1.

    One :class:`Subset` choice: the exact interpreter enumerates the C(n, m) subsets (refused
    with TooLargeToEnumerate when they exceed the path budget), the sampler uses Floyd's
    algorithm.  InvalidArgument names n or m.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidArgument(f"n={n!r} must be an int >= 1")
    if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m <= n:
        raise InvalidArgument(f"m={m!r} must be an int with 0 <= m <= n={n}")
    value = yield Subset(n, m)
    return cast(tuple[int, ...], value)


def bernoulli(p: Real | Fraction) -> Program[bool]:
    """Yield a coin that is True with probability p, an exact number in [0, 1]."""
    real = p if isinstance(p, Real) else rational(p)
    if real.exact is not None and not 0 <= real.exact <= 1:
        raise InvalidArgument(f"p={real.exact} must lie in [0, 1]")
    value = yield Bernoulli(real)
    return cast(bool, value)


def categorical(weights: tuple[Real | Fraction | int, ...]) -> Program[int]:
    """Yield an index drawn proportionally to non-negative exact weights (not all zero)."""
    return (yield from choose(categorical_choice(weights)))


def call(program: Callable[..., Program[T]], *args: Any) -> Program[T]:
    """Run ``program(*args)`` as a sub-program (memoized by the exact interpreter)."""
    value = yield Call(program, args)
    return cast(T, value)


def _pure(fn: Callable[..., T], args: tuple[Any, ...]) -> Program[T]:
    return fn(*args)
    yield  # pragma: no cover - makes this a generator function with no choices


def deterministic(fn: Callable[..., T], *args: Any) -> Program[T]:
    """Compute ``fn(*args)`` once per exact interpretation (memoized), not once per replayed path.

    The exact interpreter re-runs a program from the start for every path, so
    heavy deterministic work (scores, weights, hypothesis sets) should go
    through this helper.  ``fn`` and ``args`` must be hashable for the memo to
    apply, and the result must be hashable.  Sampling simply calls ``fn``.
    """
    value = yield Call(_pure, (fn, args))
    return cast(T, value)


def choose(choice: Categorical) -> Program[int]:
    """Yield an already-built (and validated) Categorical choice; see :func:`categorical`."""
    value = yield choice
    return cast(int, value)


def categorical_choice(weights: tuple[Real | Fraction | int, ...]) -> Categorical:
    """Validate non-negative exact weights (not all zero) and build the Categorical choice."""
    reals = tuple(w if isinstance(w, Real) else rational(w) for w in weights)
    if not reals:
        raise InvalidArgument("weights=() must be non-empty")
    for i, w in enumerate(reals):
        if w.exact is not None and w.exact < 0:
            raise InvalidArgument(f"weights[{i}]={w.exact} must be >= 0")
    if all(w.exact == 0 for w in reals):
        raise InvalidArgument("weights must not all be 0")
    return Categorical(reals)


# --------------------------------------------------------------- distributions


@dataclass(frozen=True, slots=True)
class Distribution(Generic[T]):
    """A finite distribution: outcome -> probability (exact Fraction or enclosing Interval).

    Guarantee: when ``is_exact``, the probabilities are exact and sum to exactly
    1; otherwise each is an interval containing the true probability.  Outcomes
    with probability exactly 0 are omitted.
    """

    _items: tuple[tuple[T, Prob], ...]
    components: tuple[tuple[Affine, Prob], ...] = ()
    """Infinite-support parts: (sign * noise + offset, probability of that path)."""

    @staticmethod
    def from_mapping(probs: Mapping[T, Prob],
                     components: tuple[tuple[Affine, Prob], ...] = ()) -> Distribution[T]:
        """Build from a mapping, dropping exact zeros, in insertion order."""
        return Distribution(tuple((o, p) for o, p in probs.items() if not (
            isinstance(p, Fraction) and p == 0)), components)

    @property
    def is_finite(self) -> bool:
        """True when the distribution has finite support (no infinite-noise components)."""
        return not self.components

    def items(self) -> tuple[tuple[T, Prob], ...]:
        """(outcome, probability) pairs in enumeration order."""
        return self._items

    def support(self) -> tuple[T, ...]:
        """Outcomes with non-zero (or not provably zero) probability."""
        return tuple(o for o, _ in self._items)

    def as_dict(self) -> dict[T, Prob]:
        """A fresh dict outcome -> probability."""
        return dict(self._items)

    def prob(self, outcome: T) -> Prob:
        """Probability of one outcome (0 when absent)."""
        for o, p in self._items:
            if o == outcome:
                return p
        return Fraction(0)

    @property
    def is_exact(self) -> bool:
        """True when every probability is an exact rational."""
        return all(isinstance(p, Fraction) for _, p in self._items)

    def total(self) -> Prob:
        """Sum of all probabilities, including the mass of infinite-support parts."""
        acc: Prob = Fraction(0)
        for _, p in self._items:
            acc = prob_add(acc, p)
        for _, p in self.components:
            acc = prob_add(acc, p)
        return acc

    def map(self, f: Callable[[T], U]) -> Distribution[U]:
        """The push-forward distribution of f (equal images are merged); finite only."""
        if self.components:
            raise UnsupportedProgram("cannot map a distribution with infinite-support parts")
        merged: dict[U, Prob] = {}
        for o, p in self._items:
            key = f(o)
            merged[key] = prob_add(merged[key], p) if key in merged else p
        return Distribution.from_mapping(merged)

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[tuple[T, Prob]]:
        return iter(self._items)


def _branches(choice: Choice, prec: int, memo: dict[Any, Distribution[Any]],
              budget: list[int]) -> list[tuple[Any, Prob]]:
    if isinstance(choice, Call):
        key: Any = (choice.program, choice.args)
        try:
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in memo:
            return list(memo[key].items())
        sub = _enumerate(choice.program, choice.args, prec, memo, budget)
        if sub.components:
            raise UnsupportedProgram(
                "a sub-program returned infinite-support noise; only the top-level "
                "program may return affine noise")
        if key is not None:
            memo[key] = sub
        return list(sub.items())
    if isinstance(choice, Subset) and math.comb(choice.n, choice.m) > budget[0]:
        raise TooLargeToEnumerate(
            f"exact enumeration of the C({choice.n}, {choice.m}) subsets exceeds "
            f"max_paths={budget[1]} execution paths; use a smaller input or raise max_paths")
    return choice.branches(prec)


def _weight_shares(weights: tuple[Real, ...], prec: int) -> list[Prob]:
    """w_i / Σ w for every i: exact for rational weights, else enclosures (one pass)."""
    exact = [w.exact for w in weights]
    if all(e is not None for e in exact):
        fracs = [e for e in exact if e is not None]
        den = math.lcm(*(f.denominator for f in fracs))
        return list(_kernels.normalized([int(f * den) for f in fracs]))
    # one enclosure and one share per distinct weight object (the exponential mechanism's laws
    # have a few distinct weights repeated across many outputs); the same formula as one per item
    boxes: dict[int, Interval] = {}
    counts: dict[int, int] = {}
    for w in weights:
        key = id(w)
        if key not in boxes:
            boxes[key] = w.enclose(prec + 8)
            counts[key] = 0
        counts[key] += 1
    total_lo = sum((b.lo * counts[k] for k, b in boxes.items()), Fraction(0))
    total_hi = sum((b.hi * counts[k] for k, b in boxes.items()), Fraction(0))
    share_of: dict[int, Prob] = {}
    for key, mine in boxes.items():
        others_lo, others_hi = total_lo - mine.lo, total_hi - mine.hi
        # w/(w+o) is increasing in w and decreasing in o
        lo = mine.lo / (mine.lo + others_hi) if mine.lo + others_hi > 0 else Fraction(0)
        hi = mine.hi / (mine.hi + others_lo) if mine.hi + others_lo > 0 else Fraction(1)
        share_of[key] = Interval(lo, hi).rounded(prec)
    return [share_of[id(w)] for w in weights]


def _enumerate(program: Callable[..., Program[T]], args: tuple[Any, ...], prec: int,
               memo: dict[Any, Distribution[Any]], budget: list[int]) -> Distribution[T]:
    merged: dict[T, Prob] = {}
    components: dict[Affine, Prob] = {}
    stack: list[tuple[tuple[Any, ...], Prob]] = [((), Fraction(1))]
    while stack:
        prefix, prob = stack.pop()
        budget[0] -= 1
        if budget[0] < 0:
            raise TooLargeToEnumerate(
                f"exact enumeration exceeded max_paths={budget[1]} execution paths; "
                "use a smaller input or raise max_paths")
        gen = _start(program, args)
        try:
            choice = next(gen)
            for value in prefix:
                _check_replay(choice, value)
                choice = gen.send(value)
        except StopIteration as stop:
            outcome = cast(T, stop.value)
            if isinstance(outcome, Affine):
                components[outcome] = (prob_add(components[outcome], prob)
                                       if outcome in components else prob)
                continue
            try:
                merged[outcome] = prob_add(merged[outcome], prob) if outcome in merged else prob
            except TypeError:
                raise UnsupportedProgram(
                    f"outcome {outcome!r} is not hashable; programs must return hashable "
                    "values (tuples, ints, frozensets, ...)") from None
            continue
        if not isinstance(choice, Choice):
            raise UnsupportedProgram(f"program yielded {choice!r}, which is not a Choice")
        gen.close()
        if isinstance(choice, InfiniteChoice):
            if any(isinstance(v, Affine) for v in prefix):
                raise UnsupportedProgram("a program may use at most one infinite-support choice")
            stack.append(((*prefix, Affine(choice)), prob))
            continue
        for value, p in reversed(_branches(choice, prec, memo, budget)):
            if isinstance(p, Fraction) and p == 0:
                continue
            stack.append(((*prefix, value), prob_mul(prob, p, prec)))
    return Distribution.from_mapping(merged, tuple(components.items()))


def _start(program: Callable[..., Program[T]], args: tuple[Any, ...]) -> Program[T]:
    """``program(*args)``, refused with UnsupportedProgram unless it is a generator."""
    gen = program(*args)
    if not isinstance(gen, Generator):
        name = getattr(program, "__qualname__", repr(program))
        raise UnsupportedProgram(
            f"program={name} returned {type(gen).__name__}, not a generator: write it as a "
            "generator function that yields its choices (reference.program)")
    return gen


def _check_replay(choice: object, value: object) -> None:
    """Refuse a program whose choices change on replay (hidden randomness or state)."""
    ok = (isinstance(choice, Uniform) and isinstance(value, int) and 0 <= value < choice.n) or (
        isinstance(choice, Bernoulli) and isinstance(value, bool)) or (
        isinstance(choice, Subset) and isinstance(value, tuple) and len(value) == choice.m) or (
        isinstance(choice, Categorical) and isinstance(value, int)
        and 0 <= value < len(choice.weights)) or isinstance(choice, Call) or (
        isinstance(choice, InfiniteChoice) and isinstance(value, Affine)) or (
        isinstance(choice, FiniteEvent) and choice.accepts(value))
    if not ok:
        raise UnsupportedProgram(
            f"the program yielded {choice!r} where it earlier yielded a choice with value "
            f"{value!r}: it is not deterministic given its choices; take every random decision "
            "from a yielded choice (no global RNG, no hidden state)")


def distribution(program: Callable[..., Program[T]], *args: Any,
                 precision: int = DEFAULT_PRECISION,
                 max_paths: int = MAX_PATHS) -> Distribution[T]:
    """The exact output distribution of ``program(*args)``.

    Probabilities are exact Fractions when every choice has rational
    probabilities, and rigorous Interval enclosures (at ``precision`` bits)
    otherwise.  Raises TooLargeToEnumerate after ``max_paths`` paths.
    """
    if precision < 16:
        raise InvalidArgument(f"precision={precision} must be >= 16")
    return _enumerate(program, args, precision, {}, [max_paths, max_paths])


def sample(program: Callable[..., Program[T]], *args: Any, rng: np.random.Generator) -> T:
    """Run ``program(*args)`` once, drawing each choice exactly from ``rng``'s raw bits."""
    if not isinstance(rng, np.random.Generator):
        raise InvalidArgument(f"rng={rng!r} must be a numpy.random.Generator "
                              "(e.g. numpy.random.default_rng(0))")
    gen = _start(program, args)
    try:
        choice = next(gen)
        while True:
            choice = gen.send(_draw(choice, rng))
    except StopIteration as stop:
        return cast(T, stop.value)


def _draw(choice: Choice, rng: np.random.Generator) -> Any:
    if isinstance(choice, Call):
        return sample(choice.program, *choice.args, rng=rng)
    return choice.draw(rng)


