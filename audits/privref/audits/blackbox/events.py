"""Events: fixed sets of outcomes, each with a readable description and a vectorized membership test.

An *event* F is a fixed set of outcomes with a readable :meth:`Event.describe`
and a vectorized membership test :meth:`Event.mask`: sets of discrete outcomes
(:class:`OutcomeSet`), thresholds, intervals and unions of bins of a number or
of one coordinate (:class:`Threshold`, :class:`Band`, :class:`BinUnion`),
IEEE-754 classes (:class:`FloatPattern`), coordinate-wise patterns of vectors
(:class:`CoarseSet`), sparse-vector events on rows with atoms (:class:`Leading`,
:class:`Answered`), thresholds on a learned :class:`Score`
(:class:`ScoreThreshold`), and for tuples of varying length the halting
events (:class:`Length`, :class:`PrefixSet`) and any event read on rows
padded to a fixed length (:class:`Padded`).  Which events are candidates, and how one is chosen,
is :mod:`.selection`'s business.

Outputs an event's representation cannot read (a non-number where numbers
were seen, a vector of another length, NaN) are outside every threshold,
interval, bin and score event, so membership of every possible outcome is
fixed before the held-out split is looked at.  Every event reads each outcome
on its own (no state learned from the samples it counts), so counting a
sample chunk by chunk gives the same total.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, cast

import numpy as np
from numpy.typing import NDArray

from privref.reference.errors import InvalidArgument

from .features import (
    ATOM_NAN,
    ATOM_NEG_INF,
    ATOM_POS_INF,
    coarse_symbols,
    describe_float_pattern,
    float_pattern,
    patterns_are_intervals,
)
from .outcomes import (
    BoolArray,
    FloatArray,
    IntArray,
    lengths,
    outcome_keys,
    padded_rows,
    prefix_keys,
    readable,
    scalars,
    vectors,
    vectors_with_atoms,
)

__all__ = [
    "ANSWERED_MAX_DIM",
    "MARGIN_CLIP",
    "Answered",
    "Band",
    "BinUnion",
    "CoarseSet",
    "Event",
    "FloatPattern",
    "Leading",
    "Length",
    "OutcomeSet",
    "Padded",
    "PrefixSet",
    "Score",
    "ScoreThreshold",
    "Threshold",
    "answered_codes",
    "answered_stat",
    "atom_of",
    "increments",
    "leading",
    "table_index",
]


def _fmt(x: float) -> str:
    if math.isfinite(x) and x.is_integer() and abs(x) < 2**53:
        return str(int(x))
    return repr(float(x))


def _name(coord: int | None) -> str:
    return "output" if coord is None else f"output[{coord}]"


class Event(ABC):
    """A fixed set of outcomes: readable description and vectorized membership."""

    __slots__ = ()

    @abstractmethod
    def describe(self) -> str:
        """A readable description, e.g. ``output in {3, 4}`` or ``output > 1.27``."""

    @abstractmethod
    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Membership of each outcome (a boolean array of len(samples))."""

    def count(self, samples: Sequence[Any] | NDArray[Any]) -> int:
        """How many outcomes lie in the event."""
        return int(np.count_nonzero(self.mask(samples)))

    def __str__(self) -> str:
        return self.describe()


def _sorted_for_display(items: frozenset[Hashable]) -> list[Hashable]:
    try:
        return sorted(items)  # type: ignore[type-var]  # falls back below when unorderable
    except TypeError:
        return sorted(items, key=repr)


def _listing(items: frozenset[Hashable], limit: int, what: str) -> str:
    """The first ``limit`` items in display order, then how many there are in all."""
    shown = _sorted_for_display(items)
    text = ", ".join(repr(o) for o in shown[:limit])
    return text + (f", … ({len(shown)} {what})" if len(shown) > limit else "")


@dataclass(frozen=True, slots=True)
class OutcomeSet(Event):
    """{output in S} for a finite set S of (canonical) outcomes."""

    outcomes: frozenset[Hashable]
    _rows: dict[int, NDArray[np.int64]] = field(default_factory=dict, init=False, repr=False,
                                               compare=False, hash=False)

    def describe(self) -> str:
        return f"output in {{{_listing(self.outcomes, 12, 'outcomes')}}}"

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Membership by canonical key (vectorized for integer arrays; the same answer)."""
        if isinstance(samples, np.ndarray) and samples.dtype.kind in "iub" and samples.ndim in (1, 2):
            return self._integer_mask(samples)
        inside = self.outcomes
        return np.fromiter((k in inside for k in outcome_keys(samples)), dtype=np.bool_, count=len(samples))

    def _integer_mask(self, samples: NDArray[Any]) -> BoolArray:
        """Rows of an integer array whose canonical key (ints) lies in the set, by np.isin.

        The set's members that an integer row can equal are the ints (1-D) or the tuples of
        ``dim`` ints (2-D), where Python equality also counts bools and integral floats
        (``1 == True == 1.0``); they are collected once per width, as int64 rows.
        """
        dim = 0 if samples.ndim == 1 else samples.shape[1]
        rows = self._rows.get(dim)
        if rows is None:
            rows = _integer_rows(self.outcomes, dim)
            self._rows[dim] = rows
        values = samples.astype(np.int64, copy=False)
        if dim == 0:
            return np.isin(values, rows)
        if len(rows) == 0 or dim == 0 or len(values) == 0:
            return np.zeros(len(values), dtype=np.bool_)
        view = np.dtype((np.void, 8 * dim))
        return np.isin(np.ascontiguousarray(values).view(view).ravel(),
                       np.ascontiguousarray(rows).view(view).ravel())


_INT64 = (-(2**63), 2**63 - 1)


def _as_int(x: object) -> int | None:
    """The int64 that ``x`` equals in Python equality (ints, bools, integral floats), else None."""
    if isinstance(x, bool | int | np.integer) and _INT64[0] <= int(x) <= _INT64[1]:
        return int(x)
    if isinstance(x, float | np.floating) and math.isfinite(x) and float(x).is_integer() \
            and _INT64[0] <= x <= _INT64[1]:
        return int(x)
    return None


def _integer_rows(outcomes: frozenset[Hashable], dim: int) -> NDArray[np.int64]:
    """The members of ``outcomes`` an integer outcome of width ``dim`` (0: a scalar) can equal."""
    found: list[int] | list[list[int]] = []
    if dim == 0:
        scalars = [_as_int(o) for o in outcomes]
        return np.array(sorted({v for v in scalars if v is not None}), dtype=np.int64)
    rows: set[tuple[int, ...]] = set()
    for o in outcomes:
        if isinstance(o, tuple) and len(o) == dim:
            entries = [_as_int(x) for x in o]
            if all(v is not None for v in entries):
                rows.add(tuple(cast(int, v) for v in entries))
    found = [list(r) for r in sorted(rows)]
    return np.array(found, dtype=np.int64).reshape(len(found), dim)


@dataclass(frozen=True, slots=True)
class _Numeric(Event):
    coord: int | None
    dim: int

    def values(self, samples: Sequence[Any] | NDArray[Any]) -> FloatArray:
        if self.coord is None:
            return scalars(samples)
        return vectors(samples, self.dim)[:, self.coord]


@dataclass(frozen=True, slots=True)
class Threshold(_Numeric):
    """{x > cut} when ``above``, else {x <= cut}, for the output (or one coordinate of it)."""

    cut: float = 0.0
    above: bool = True

    def describe(self) -> str:
        return f"{_name(self.coord)} {'>' if self.above else '<='} {_fmt(self.cut)}"

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Comparison with the cut; NaN (unreadable) is outside."""
        x = self.values(samples)
        return np.asarray(x > self.cut if self.above else x <= self.cut)


@dataclass(frozen=True, slots=True)
class Band(_Numeric):
    """{lo < x <= hi} when ``inside``, else its complement among numbers {x <= lo or x > hi}."""

    lo: float = 0.0
    hi: float = 0.0
    inside: bool = True

    def describe(self) -> str:
        name, lo, hi = _name(self.coord), _fmt(self.lo), _fmt(self.hi)
        return f"{lo} < {name} <= {hi}" if self.inside else f"{name} <= {lo} or {name} > {hi}"

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Interval membership; NaN is outside both the band and its complement."""
        x = self.values(samples)
        if self.inside:
            return np.asarray((x > self.lo) & (x <= self.hi))
        return np.asarray((x <= self.lo) | (x > self.hi))


@dataclass(frozen=True, slots=True)
class BinUnion(_Numeric):
    """A union of quantile bins (-inf, e0], (e0, e1], …, (e_last, inf): a learned likelihood-ratio event."""

    edges: tuple[float, ...] = ()
    bins: frozenset[int] = frozenset()

    def describe(self) -> str:
        runs: list[tuple[int, int]] = []
        for b in sorted(self.bins):
            if runs and runs[-1][1] == b - 1:
                runs[-1] = (runs[-1][0], b)
            else:
                runs.append((b, b))
        name, parts = _name(self.coord), []
        for first, last in runs[:8]:
            lo = "-inf" if first == 0 else _fmt(self.edges[first - 1])
            hi = "inf" if last == len(self.edges) else _fmt(self.edges[last])
            parts.append(f"({lo}, {hi}]" if hi != "inf" else f"({lo}, inf)")
        more = f" ∪ … ({len(runs)} intervals)" if len(runs) > 8 else ""
        return f"{name} in " + " ∪ ".join(parts) + more

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Bin lookup (searchsorted); NaN is outside."""
        x = self.values(samples)
        idx = np.searchsorted(np.asarray(self.edges), x, side="left")
        chosen = np.zeros(len(self.edges) + 1, dtype=np.bool_)
        chosen[sorted(self.bins)] = True
        return np.asarray(chosen[idx] & ~np.isnan(x))


@dataclass(frozen=True, slots=True)
class FloatPattern(_Numeric):
    """{float_pattern(x) in keys}: a union of IEEE-754 classes (sign, binade, trailing zero bits).

    See :mod:`privref.audits.blackbox.features`; non-numbers are outside, while NaN,
    zero and ±inf have their own keys.
    """

    keys: frozenset[int] = frozenset()

    @property
    def reads_float_bits(self) -> bool:
        """False when the keys are a union of whole binades (intervals of the reals,
        :func:`~privref.audits.blackbox.features.patterns_are_intervals`): the event is then a
        real-arithmetic one written in IEEE-754 terms, and a violation on it is no float leak."""
        return not patterns_are_intervals(self.keys)

    def describe(self) -> str:
        shown = [describe_float_pattern(k) for k in sorted(self.keys)[:6]]
        more = f" ∪ … ({len(self.keys)} classes)" if len(self.keys) > 6 else ""
        return f"{_name(self.coord)} as a double in " + " ∪ ".join(shown) + more

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Pattern lookup; outputs that are not numbers are outside."""
        raw = readable(samples, self.coord, self.dim)
        keys = float_pattern(raw.values)
        inside = np.isin(keys, np.fromiter(self.keys, dtype=np.int64, count=len(self.keys)))
        return np.asarray(inside & raw.readable)


def leading(values: FloatArray) -> tuple[IntArray, FloatArray]:
    """For rows of floats: how many entries lead the row before its first finite one (0..dim), and
    that first finite entry (NaN when the row has none)."""
    finite = np.isfinite(values)
    dim = values.shape[1]
    first = np.where(finite.any(axis=1), np.argmax(finite, axis=1), dim).astype(np.int64)
    at = np.minimum(first, max(dim - 1, 0))
    value = values[np.arange(len(values)), at] if dim else np.full(len(values), math.nan)
    return first, np.where(first < dim, value, math.nan)


@dataclass(frozen=True, slots=True)
class Leading(Event):
    """{at least ``skip`` entries lead the first finite one, and it is <= ``cut`` (or > ``cut`` when
    ``above``)}, for vector outputs of length ``dim`` whose unanswered entries are atoms (-inf,
    +inf, nan or non-numbers): a sparse vector's "the first ``skip`` queries were not answered,
    then an answer below ``cut``".  Rows with no finite entry count as below every cut (they are
    the limit "never answered"); ``cut`` = inf with ``above`` False is {at least ``skip`` lead}.
    With ``exact``, exactly ``skip`` entries lead (so a finite entry follows when skip < dim).
    Outputs of another length are outside.
    """

    dim: int
    skip: int
    cut: float
    above: bool
    exact: bool = False

    def describe(self) -> str:
        many = "exactly" if self.exact else "at least"
        head = f"{many} {self.skip} non-finite entries before the first finite one"
        if self.cut == math.inf and not self.above:
            return head + ("" if self.exact else " (or none)")
        if self.above:
            return f"{head}, and it is > {_fmt(self.cut)}"
        return f"{head}, and it is <= {_fmt(self.cut)}" + ("" if self.exact else " (or there is none)")

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Leading-atom count and first finite entry of each row; rows of another length are outside."""
        values, ok = vectors_with_atoms(samples, self.dim)
        lead, first = leading(values)
        deep = ((lead == self.skip) if self.exact else (lead >= self.skip)) & ok
        none = lead >= self.dim
        if self.above:
            return np.asarray(deep & ~none & (first > self.cut))
        return np.asarray(deep & (none | (first <= self.cut)))


ANSWERED_MAX_DIM: Final = 62
"""The longest vector an :class:`Answered` event reads: a pattern is a bit mask in an int64."""


def answered_codes(values: FloatArray) -> IntArray:
    """For rows of floats (``dim`` <= :data:`ANSWERED_MAX_DIM`): the bit mask of each row's
    finite entries (bit i set when entry i is finite), the pattern an :class:`Answered` event
    fixes."""
    finite = np.isfinite(values)
    weights = np.left_shift(np.int64(1), np.arange(values.shape[1], dtype=np.int64))
    return np.asarray(finite.astype(np.int64) @ weights, dtype=np.int64)


def answered_stat(values: FloatArray, code: int, stat: Literal["min", "max"]) -> FloatArray:
    """The smallest (``min``) or largest (``max``) entry of each row among the entries in the bit
    mask ``code`` (which must be non-zero); meaningful on the rows whose finite entries are
    exactly those."""
    cols = [i for i in range(values.shape[1]) if code >> i & 1]
    part = values[:, cols]
    return np.asarray(part.min(axis=1) if stat == "min" else part.max(axis=1), dtype=np.float64)


@dataclass(frozen=True, slots=True)
class Answered(Event):
    """{the finite entries are exactly ``answered``, and their ``stat`` is > ``cut`` (``above``) or
    <= ``cut``}, for vector outputs of length ``dim`` whose unanswered entries are atoms (-inf,
    +inf, nan or non-numbers): a sparse vector's "these queries, and only these, were answered,
    and every answer is > c" (min above) or "every answer is <= c" (max below); the candidates
    (:func:`.pools.answered_pools`) are these two and the pattern alone.  It holds the
    conjunctions over several released values that :class:`Leading` (the first answer only) cannot:
    NumericalSVT's worst event is ⊥⁵ then two answers >= 2.  ``cut`` = inf with ``above`` False
    is the pattern alone.  Outputs of another length are outside.  Raises InvalidArgument unless
    1 <= ``dim`` <= :data:`ANSWERED_MAX_DIM` and ``answered`` is increasing within ``range(dim)``.
    """

    dim: int
    answered: tuple[int, ...]
    stat: Literal["min", "max"]
    cut: float
    above: bool

    def __post_init__(self) -> None:
        if not 1 <= self.dim <= ANSWERED_MAX_DIM:
            raise InvalidArgument(f"dim={self.dim} must be in [1, {ANSWERED_MAX_DIM}] (a pattern "
                                  "of answered entries is a bit mask in an int64)")
        if any(not 0 <= i < self.dim for i in self.answered) or list(self.answered) != sorted(
                set(self.answered)):
            raise InvalidArgument(f"answered={self.answered} must be increasing indices in "
                                  f"[0, {self.dim})")
        if self.stat not in ("min", "max"):
            raise InvalidArgument(f"stat={self.stat!r} must be 'min' or 'max'")

    def describe(self) -> str:
        where = "{" + ", ".join(str(i) for i in self.answered) + "}"
        head = f"the finite entries are exactly {where}"
        if self.cut == math.inf and not self.above:
            return head
        which = "smallest" if self.stat == "min" else "largest"
        return f"{head}, and the {which} of them is {'>' if self.above else '<='} {_fmt(self.cut)}"

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """The row's finite entries and their min or max; rows of another length are outside."""
        values, ok = vectors_with_atoms(samples, self.dim)
        code = sum(1 << i for i in self.answered)
        inside = ok & (answered_codes(values) == code)
        if not self.answered:
            return np.asarray(inside & (self.cut == math.inf and not self.above))
        rows = np.flatnonzero(inside)
        stat = answered_stat(values[rows], code, self.stat)
        inside[rows] = (stat > self.cut) if self.above else (stat <= self.cut)
        return np.asarray(inside)


def _symbol_text(symbol: int, edges: tuple[float, ...]) -> str:
    if symbol == ATOM_NEG_INF:
        return "-inf"
    if symbol == ATOM_POS_INF:
        return "inf"
    if symbol == ATOM_NAN:
        return "nan"
    lo = "-inf" if symbol == 0 else _fmt(edges[symbol - 1])
    hi = "inf" if symbol == len(edges) else _fmt(edges[symbol])
    return f"({lo}, {hi}]" if hi != "inf" else f"({lo}, inf)"


@dataclass(frozen=True, slots=True)
class CoarseSet(Event):
    """{coarse(x) in keys} for vector outputs read coordinate-wise as a bin or an atom (-inf, inf, nan).

    ``edges[i]`` are coordinate i's bin edges (learned on the selection split);
    a key is one symbol per coordinate (see
    :func:`privref.audits.blackbox.features.coarse_symbols`).  Outputs of another
    length are outside.
    """

    dim: int
    edges: tuple[tuple[float, ...], ...]
    keys: frozenset[tuple[int, ...]]

    def describe(self) -> str:
        def one(key: tuple[int, ...]) -> str:
            return "(" + ", ".join(_symbol_text(s, self.edges[i]) for i, s in enumerate(key)) + ")"

        shown = [one(k) for k in sorted(self.keys)[:4]]
        more = f", … ({len(self.keys)} patterns)" if len(self.keys) > 4 else ""
        return "output coordinate-wise in {" + ", ".join(shown) + more + "}"

    def symbols(self, samples: Sequence[Any] | NDArray[Any]) -> tuple[IntArray, BoolArray]:
        """The symbol matrix of the outputs and which rows have the right length."""
        v, ok = vectors_with_atoms(samples, self.dim)
        cols = [coarse_symbols(v[:, i], np.asarray(self.edges[i], dtype=np.float64))
                for i in range(self.dim)]
        return np.column_stack(cols) if cols else np.zeros((len(v), 0), np.int64), ok

    def codes(self, samples: Sequence[Any] | NDArray[Any]
              ) -> tuple[IntArray | list[Hashable], BoolArray]:
        """One code per output: an int64 array when the patterns fit in 63 bits, else a list of tuples."""
        sym, ok = self.symbols(samples)
        radix = max((len(e) for e in self.edges), default=0) + 4  # bins, then 3 atoms
        if radix ** self.dim < 2**62:
            weights = radix ** np.arange(self.dim, dtype=np.int64)
            return np.asarray((sym - ATOM_NAN) @ weights, dtype=np.int64), ok
        return [tuple(r) for r in sym.tolist()], ok

    def code(self, key: tuple[int, ...]) -> Hashable:
        """The code of one pattern, as :meth:`codes` computes it."""
        radix = max((len(e) for e in self.edges), default=0) + 4
        if radix ** self.dim < 2**62:
            return int(sum((s - ATOM_NAN) * radix ** i for i, s in enumerate(key)))
        return key

    def decode(self, code: Hashable) -> tuple[int, ...]:
        """The pattern of a code from :meth:`codes`."""
        if isinstance(code, tuple):
            return tuple(int(v) for v in code)
        radix = max((len(e) for e in self.edges), default=0) + 4
        rest, out = int(cast(int, code)), []
        for _ in range(self.dim):
            rest, digit = divmod(rest, radix)
            out.append(digit + ATOM_NAN)
        return tuple(out)

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Pattern lookup; outputs of another length (or not vectors) are outside."""
        codes, ok = self.codes(samples)
        inside_codes = {self.code(k) for k in self.keys}
        if isinstance(codes, np.ndarray):
            wanted = np.array(sorted(cast(int, c) for c in inside_codes), dtype=np.int64)
            return np.asarray(np.isin(codes, wanted) & ok)
        inside = np.fromiter((c in inside_codes for c in codes), dtype=np.bool_, count=len(codes))
        return np.asarray(inside & ok)


@dataclass(frozen=True, slots=True)
class Score:
    """A real-valued score of vector outputs learned on the selection split.

    ``kind`` is "naive-Bayes" (sum over coordinates of a per-symbol log
    ratio; ``edges[i]`` are the bin edges of coordinate i and ``table[i]``
    the log ratios of its bins followed by its atoms -inf, +inf and nan) or
    "logistic" (``weights`` · standardized x + intercept, where a
    non-finite entry counts as the center and the ``atoms`` terms (coordinate,
    atom symbol, weight) add a weight when an entry is that atom) or "linear"
    (the same form, with Fisher's discriminant direction as ``weights``) or
    "vote" (``weights`` · [x > median], one median per coordinate in
    ``edges[i] = (median,)``, weights in {-1, 0, 1}; +inf is above every
    median, -inf and nan above none) or "margin" (min over the coordinates
    with ``weights[i]`` != 0 of ``weights[i]``·(x_i − ``edges[i][0]``)/``scale[i]``,
    read on the increments x_1, x_2 − x_1, … when ``differences``; a nan term
    counts as −inf, and the score is clipped to ±``MARGIN_CLIP``).  Atoms are
    as in :func:`privref.audits.blackbox.features.coarse_symbols`; non-numeric
    entries read as nan.
    """

    kind: Literal["naive-Bayes", "logistic", "linear", "vote", "margin"]
    dim: int
    edges: tuple[tuple[float, ...], ...] = ()
    table: tuple[tuple[float, ...], ...] = ()
    weights: tuple[float, ...] = ()
    center: tuple[float, ...] = ()
    scale: tuple[float, ...] = ()
    intercept: float = 0.0
    atoms: tuple[tuple[int, int, float], ...] = ()
    differences: bool = False

    def __call__(self, x: FloatArray) -> FloatArray:
        """Scores of rows of x (rows of ``dim`` floats; every row gets a finite score)."""
        if self.kind == "margin":
            return self._margin(x)
        if self.kind == "vote":
            above = x > np.asarray([e[0] for e in self.edges])  # nan compares False
            return np.asarray(above @ np.asarray(self.weights), dtype=np.float64)
        if self.kind != "naive-Bayes":
            finite = np.isfinite(x)
            z = np.where(finite, (x - np.asarray(self.center)) / np.asarray(self.scale), 0.0)
            total = np.asarray(z @ np.asarray(self.weights) + self.intercept, dtype=np.float64)
            for coord, atom, weight in self.atoms:
                total = total + weight * (atom_of(x[:, coord]) == atom)
            return total
        total = np.zeros(len(x))
        for i in range(self.dim):
            sym = table_index(x[:, i], self.edges[i])
            total += np.asarray(self.table[i])[sym]
        return total

    def _margin(self, x: FloatArray) -> FloatArray:
        if self.differences:
            x = increments(x)
        use = np.asarray(self.weights) != 0
        center = np.asarray([e[0] for e in self.edges])[use]
        w, s = np.asarray(self.weights)[use], np.asarray(self.scale)[use]
        with np.errstate(invalid="ignore"):
            terms = w * (x[:, use] - center) / s
        terms = np.where(np.isnan(terms), -math.inf, terms)
        low = terms.min(axis=1) if terms.shape[1] else np.full(len(x), -math.inf)
        return np.asarray(np.clip(low, -MARGIN_CLIP, MARGIN_CLIP), dtype=np.float64)

    def describe(self) -> str:
        """Short description of the learned score."""
        if self.kind == "margin":
            of = "x[i] - x[i-1] (x[-1] = 0)" if self.differences else "x[i]"
            terms = " ".join(f"{'+' if w > 0 else '-'}(d[{i}] - {e[0]:.6g})/{s:.3g}"
                             for i, (w, e, s) in enumerate(zip(self.weights, self.edges, self.scale,
                                                               strict=True)) if w)
            return f"margin score (min of {terms}; d[i] = {of})"
        if self.kind == "vote":
            terms = " ".join(f"{'+' if w > 0 else '-'}[x[{i}] > {e[0]:.6g}]"
                             for i, (w, e) in enumerate(zip(self.weights, self.edges, strict=True))
                             if w)
            return f"vote count ({terms})"
        if self.kind != "naive-Bayes":
            terms = " ".join(f"{w:+.3g}·z[{i}]" for i, w in enumerate(self.weights))
            atoms = "".join(f" {w:+.3g}·[x[{c}] = {_symbol_text(a, ())}]" for c, a, w in self.atoms)
            name = "logistic score" if self.kind == "logistic" else "linear discriminant score"
            return f"{name} ({terms}{atoms} {self.intercept:+.3g}, z = standardized output)"
        bins = max((len(e) + 1 for e in self.edges), default=0)
        return f"naive-Bayes log-ratio score (≤ {bins} quantile bins per coordinate, atoms apart)"


MARGIN_CLIP: Final = 1e300
"""Margin scores are clipped to [-MARGIN_CLIP, MARGIN_CLIP], so every row gets a finite score."""


def increments(x: FloatArray) -> FloatArray:
    """Rows x_1, x_2 − x_1, …, x_d − x_(d−1): the increments of a row (inf − inf is nan)."""
    with np.errstate(invalid="ignore"):
        return np.asarray(np.diff(x, axis=1, prepend=0.0), dtype=np.float64)


def atom_of(col: FloatArray) -> IntArray:
    """The atom symbol of each entry (0 for finite entries)."""
    out = np.where(col == -math.inf, ATOM_NEG_INF, 0)
    out = np.where(col == math.inf, ATOM_POS_INF, out)
    return np.asarray(np.where(np.isnan(col), ATOM_NAN, out), dtype=np.int64)


def table_index(col: FloatArray, edges: tuple[float, ...]) -> IntArray:
    """Index into a naive-Bayes table: the bin for finite entries, then -inf, +inf, nan after them."""
    sym = coarse_symbols(col, np.asarray(edges, dtype=np.float64))
    n = len(edges) + 1
    return np.asarray(np.where(sym >= 0, sym, n - 1 - sym), dtype=np.int64)  # -1, -2, -3 -> n, n+1, n+2


@dataclass(frozen=True, slots=True)
class ScoreThreshold(Event):
    """{score(x) > cut} when ``above``, else {score(x) <= cut}, for a score learned on the selection split."""

    score: Score
    cut: float
    above: bool

    def describe(self) -> str:
        return f"{self.score.describe()} {'>' if self.above else '<='} {self.cut!r}"

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Comparison of the score with the cut; outputs of another length are outside."""
        values, ok = vectors_with_atoms(samples, self.score.dim)
        s = self.score(values)
        return np.asarray((s > self.cut if self.above else s <= self.cut) & ok)


# ------------------------------------------------------------- variable-length tuples


@dataclass(frozen=True, slots=True)
class Length(Event):
    """{len(output) = k}, {len(output) <= k} or {len(output) >= k} (``relation``) for tuple outputs.

    Lists and arrays count by their length like tuples; other outputs are outside.
    """

    k: int
    relation: Literal["=", "<=", ">="]

    def describe(self) -> str:
        return f"len(output) {self.relation} {self.k}"

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Length comparison; outputs that are not tuples are outside."""
        size, ok = lengths(samples)
        if self.relation == "=":
            inside = size == self.k
        elif self.relation == "<=":
            inside = size <= self.k
        else:
            inside = size >= self.k
        return np.asarray(inside & ok)


@dataclass(frozen=True, slots=True)
class PrefixSet(Event):
    """{the first k entries of the output are one of ``prefixes``}, for tuple outputs.

    A prefix is the canonical tuple of the first ``k`` entries, completed with
    the atom ``absent`` when the output is shorter
    (:func:`privref.audits.blackbox.outcomes.prefix_keys`); other outputs are outside.
    """

    k: int
    prefixes: frozenset[Hashable]

    def describe(self) -> str:
        return f"output[:{self.k}] in {{{_listing(self.prefixes, 8, 'prefixes')}}}"

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Membership of each output's prefix."""
        inside = self.prefixes
        return np.fromiter((key in inside for key in prefix_keys(samples, self.k)), dtype=np.bool_,
                           count=len(samples))


@dataclass(frozen=True, slots=True)
class Padded(Event):
    """``inner`` read on outputs padded to ``length`` entries (see ``outcomes.padded_rows``).

    A shorter tuple is completed with the atom ``absent``; a longer one keeps
    its first ``length - 1`` entries and ends with the atom ``overflow``.
    Both atoms are non-numbers (outside thresholds, read as nan by patterns
    and scores).  A fixed set of outcomes whenever ``inner`` is one.
    """

    inner: Event
    length: int

    def describe(self) -> str:
        return f"{self.inner.describe()} [output padded to length {self.length} with absent]"

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """The inner event's membership of the padded outputs."""
        return self.inner.mask(padded_rows(samples, self.length))
