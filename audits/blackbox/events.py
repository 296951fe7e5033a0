"""Event families and their selection on a selection split (bounded later on a held-out split).

An *event* F is a fixed set of outcomes with a readable :meth:`Event.describe`
and a vectorized membership test :meth:`Event.mask`.  Candidate events come
from the **selection split only**, in families:

* discrete (hashable) outcomes, tuples included: outcomes ranked by the
  smoothed likelihood ratio ((c_P + 1)/(s_P + 1)) / ((c_Q + 1)/(s_Q + 1)), every
  prefix of the ranking (a grid of 256 prefix lengths beyond 4096 outcomes);
* numeric scalars (ints or floats): thresholds {x <= c}, {x > c}, intervals
  {c < x <= c'} and their complements, with at most ``max_cuts`` cut points at
  quantiles of the pooled selection split; and a likelihood-ratio event,
  unions of quantile bins ranked as above;
* numeric tuples / vectors: the same threshold families on each coordinate,
  and thresholds on two scores learned on the selection split: a naive-Bayes
  sum of per-coordinate binned log ratios and a logistic regression (numpy
  Newton iterations; no other dependency).

Learned families (rankings, bins, scores) learn on the first half of the
selection split and are counted on its second half, so that their counts
carry no fitting bias; fixed-form families are counted on the whole
selection split.  :func:`select_events` ranks every candidate, in both
directions, by :func:`plug_in_score` (floats; heuristic) and returns the best
few distinct ones.

Why the final bounds are valid: the returned events and directions are
functions of the selection split alone, hence fixed with respect to the
held-out split, however many candidates were scored.  Bounding only the few
returned events, with a union bound over them, is a valid confidence
statement.

Outputs the chosen representation cannot read (a non-number where numbers
were seen, a vector of another length, NaN) are outside every threshold,
interval, bin and score event, so membership of every possible outcome is
fixed before the held-out split is looked at.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
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
)

__all__ = [
    "MAX_PREFIXES",
    "NAN",
    "Band",
    "BinUnion",
    "Candidate",
    "CoarseSet",
    "Event",
    "FloatPattern",
    "Layout",
    "OutcomeSet",
    "Score",
    "ScoreThreshold",
    "Threshold",
    "canonical",
    "detect_layout",
    "plug_in_score",
    "select_events",
]

Direction = Literal["a→b", "b→a"]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

MAX_PREFIXES: Final = 4096
"""Up to this many distinct outcomes every ranked prefix is a candidate; beyond, a grid of 256."""


class _NaN:
    """The one key every NaN outcome maps to (NaN != NaN would split them)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "nan"


NAN: Final = _NaN()


def canonical(outcome: object) -> Hashable:
    """The key of an outcome for discrete events: NaNs merged, lists and arrays made tuples."""
    if isinstance(outcome, (float, np.floating)):
        return NAN if math.isnan(outcome) else float(outcome)
    if isinstance(outcome, np.integer):
        return int(outcome)
    if isinstance(outcome, np.bool_):
        return bool(outcome)
    if isinstance(outcome, (tuple, list, np.ndarray)):
        return tuple(canonical(x) for x in outcome)
    if isinstance(outcome, Hashable):
        return outcome
    raise InvalidArgument(f"outcome={outcome!r} is not hashable; outputs must be hashable values, "
                          "numbers, or tuples of these")


def _keys(samples: Sequence[Any] | NDArray[Any]) -> list[Hashable]:
    """The canonical key of every outcome (fast paths for numpy arrays; same keys as :func:`canonical`)."""
    if isinstance(samples, np.ndarray) and samples.dtype.kind in "iub" and samples.ndim in (1, 2):
        return [tuple(r) for r in samples.tolist()] if samples.ndim == 2 else list(samples.tolist())
    if isinstance(samples, np.ndarray) and samples.dtype.kind == "f" and samples.ndim in (1, 2):
        values = samples.astype(np.float64)
        nan_rows = np.isnan(values) if values.ndim == 1 else np.isnan(values).any(axis=1)
        keys: list[Hashable] = ([tuple(r) for r in values.tolist()] if values.ndim == 2
                                else list(values.tolist()))
        for i in np.flatnonzero(nan_rows).tolist():
            keys[i] = canonical(values[i])
        return keys
    return [canonical(x) for x in samples]


def _distinct_at_most(sel_a: Sequence[Any] | NDArray[Any], sel_b: Sequence[Any] | NDArray[Any],
                      limit: int) -> bool:
    """Whether the pooled outcomes take at most ``limit`` distinct canonical values."""
    parts = (sel_a, sel_b)
    if all(isinstance(p, np.ndarray) and p.dtype.kind in "iuf" and p.ndim == 2 for p in parts):
        rows = np.concatenate([np.asarray(p, dtype=np.float64) for p in parts])
        rows = np.where(np.isnan(rows), math.nan, rows) + 0.0  # one NaN payload; -0.0 + 0.0 is 0.0
        view = np.ascontiguousarray(rows).view(np.dtype((np.void, 8 * rows.shape[1]))).ravel()
        return len(np.unique(view)) <= limit
    if all(isinstance(p, np.ndarray) and p.dtype.kind in "iuf" and p.ndim == 1 for p in parts):
        return len(np.unique(np.concatenate([np.asarray(p, np.float64) for p in parts]))) <= limit
    return len(set(_keys(sel_a)) | set(_keys(sel_b))) <= limit


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


def _scalars(samples: Sequence[Any] | NDArray[Any]) -> FloatArray:
    """Outcomes as floats; NaN for anything that is not a real number."""
    if isinstance(samples, np.ndarray) and samples.ndim == 1 and samples.dtype.kind in "iuf":
        return samples.astype(np.float64)
    return np.array([float(x) if _is_number(x) else math.nan for x in samples], dtype=np.float64)


def _vectors(samples: Sequence[Any] | NDArray[Any], dim: int) -> FloatArray:
    """Outcomes as rows of ``dim`` floats; a row of NaN for anything else."""
    if isinstance(samples, np.ndarray) and samples.ndim == 2 and samples.dtype.kind in "iuf":
        if samples.shape[1] == dim:
            return samples.astype(np.float64)
        return np.full((len(samples), dim), math.nan)
    out = np.full((len(samples), dim), math.nan)
    for i, x in enumerate(samples):
        if isinstance(x, (tuple, list, np.ndarray)) and len(x) == dim:
            out[i] = [float(v) if _is_number(v) else math.nan for v in x]
    return out


def _vectors_with_atoms(samples: Sequence[Any] | NDArray[Any], dim: int
                        ) -> tuple[FloatArray, BoolArray]:
    """Outcomes as rows of ``dim`` floats (NaN for non-numeric entries) and which rows have length ``dim``."""
    if isinstance(samples, np.ndarray) and samples.ndim == 2 and samples.dtype.kind in "iuf":
        ok = np.full(len(samples), samples.shape[1] == dim)
        return _vectors(samples, dim), ok
    ok = np.fromiter((isinstance(x, (tuple, list, np.ndarray)) and len(x) == dim for x in samples),
                     dtype=np.bool_, count=len(samples))
    return _vectors(samples, dim), ok


@dataclass(frozen=True, slots=True)
class _Raw:
    """Real values of outputs (or of one coordinate) and which of them are numbers (NaN included)."""

    values: FloatArray
    readable: BoolArray


def _readable(samples: Sequence[Any] | NDArray[Any], coord: int | None, dim: int) -> _Raw:
    if coord is None:
        if isinstance(samples, np.ndarray) and samples.ndim == 1 and samples.dtype.kind in "iuf":
            return _Raw(samples.astype(np.float64), np.ones(len(samples), dtype=np.bool_))
        flags = np.fromiter((_is_number(x) for x in samples), dtype=np.bool_, count=len(samples))
        return _Raw(_scalars(samples), flags)
    values, ok = _vectors_with_atoms(samples, dim)
    if isinstance(samples, np.ndarray) and samples.ndim == 2 and samples.dtype.kind in "iuf":
        return _Raw(values[:, coord], ok)
    flags = np.fromiter((bool(ok[i]) and _is_number(x[coord]) for i, x in enumerate(samples)),
                        dtype=np.bool_, count=len(samples))
    return _Raw(values[:, coord], flags)


def _fmt(x: float) -> str:
    if math.isfinite(x) and x.is_integer() and abs(x) < 2**53:
        return str(int(x))
    return repr(float(x))


def _name(coord: int | None) -> str:
    return "output" if coord is None else f"output[{coord}]"


# ------------------------------------------------------------------ events


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


@dataclass(frozen=True, slots=True)
class OutcomeSet(Event):
    """{output in S} for a finite set S of (canonical) outcomes."""

    outcomes: frozenset[Hashable]

    def describe(self) -> str:
        shown = _sorted_for_display(self.outcomes)
        text = ", ".join(repr(o) for o in shown[:12])
        if len(shown) > 12:
            text += f", … ({len(shown)} outcomes)"
        return f"output in {{{text}}}"

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Membership by canonical key."""
        inside = self.outcomes
        return np.fromiter((k in inside for k in _keys(samples)), dtype=np.bool_, count=len(samples))


@dataclass(frozen=True, slots=True)
class _Numeric(Event):
    coord: int | None
    dim: int

    def values(self, samples: Sequence[Any] | NDArray[Any]) -> FloatArray:
        if self.coord is None:
            return _scalars(samples)
        return _vectors(samples, self.dim)[:, self.coord]


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

    def describe(self) -> str:
        shown = [describe_float_pattern(k) for k in sorted(self.keys)[:6]]
        more = f" ∪ … ({len(self.keys)} classes)" if len(self.keys) > 6 else ""
        return f"{_name(self.coord)} as a double in " + " ∪ ".join(shown) + more

    def mask(self, samples: Sequence[Any] | NDArray[Any]) -> BoolArray:
        """Pattern lookup; outputs that are not numbers are outside."""
        raw = _readable(samples, self.coord, self.dim)
        keys = float_pattern(raw.values)
        inside = np.isin(keys, np.fromiter(self.keys, dtype=np.int64, count=len(self.keys)))
        return np.asarray(inside & raw.readable)


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
        v, ok = _vectors_with_atoms(samples, self.dim)
        cols = [coarse_symbols(v[:, i], np.asarray(self.edges[i], dtype=np.float64))
                for i in range(self.dim)]
        return np.column_stack(cols) if cols else np.zeros((len(v), 0), np.int64), ok

    def codes(self, samples: Sequence[Any] | NDArray[Any]) -> tuple[list[Hashable], BoolArray]:
        """One hashable code per output (an int when the patterns fit in 63 bits, else a tuple)."""
        sym, ok = self.symbols(samples)
        radix = max((len(e) for e in self.edges), default=0) + 4  # bins, then 3 atoms
        if radix ** self.dim < 2**62:
            weights = radix ** np.arange(self.dim, dtype=np.int64)
            return list(((sym - ATOM_NAN) @ weights).tolist()), ok
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
    atom symbol, weight) add a weight when an entry is that atom).  Atoms are
    as in :func:`privref.audits.blackbox.features.coarse_symbols`; non-numeric
    entries read as nan.
    """

    kind: Literal["naive-Bayes", "logistic"]
    dim: int
    edges: tuple[tuple[float, ...], ...] = ()
    table: tuple[tuple[float, ...], ...] = ()
    weights: tuple[float, ...] = ()
    center: tuple[float, ...] = ()
    scale: tuple[float, ...] = ()
    intercept: float = 0.0
    atoms: tuple[tuple[int, int, float], ...] = ()

    def __call__(self, x: FloatArray) -> FloatArray:
        """Scores of rows of x (rows of ``dim`` floats; every row gets a finite score)."""
        if self.kind == "logistic":
            finite = np.isfinite(x)
            z = np.where(finite, (x - np.asarray(self.center)) / np.asarray(self.scale), 0.0)
            total = np.asarray(z @ np.asarray(self.weights) + self.intercept, dtype=np.float64)
            for coord, atom, weight in self.atoms:
                total = total + weight * (_atom_of(x[:, coord]) == atom)
            return total
        total = np.zeros(len(x))
        for i in range(self.dim):
            sym = _table_index(x[:, i], self.edges[i])
            total += np.asarray(self.table[i])[sym]
        return total

    def describe(self) -> str:
        """Short description of the learned score."""
        if self.kind == "logistic":
            terms = " ".join(f"{w:+.3g}·z[{i}]" for i, w in enumerate(self.weights))
            atoms = "".join(f" {w:+.3g}·[x[{c}] = {_symbol_text(a, ())}]" for c, a, w in self.atoms)
            return f"logistic score ({terms}{atoms} {self.intercept:+.3g}, z = standardized output)"
        bins = max((len(e) + 1 for e in self.edges), default=0)
        return f"naive-Bayes log-ratio score (≤ {bins} quantile bins per coordinate, atoms apart)"


def _atom_of(col: FloatArray) -> IntArray:
    """The atom symbol of each entry (0 for finite entries)."""
    out = np.where(col == -math.inf, ATOM_NEG_INF, 0)
    out = np.where(col == math.inf, ATOM_POS_INF, out)
    return np.asarray(np.where(np.isnan(col), ATOM_NAN, out), dtype=np.int64)


def _table_index(col: FloatArray, edges: tuple[float, ...]) -> IntArray:
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
        values, ok = _vectors_with_atoms(samples, self.score.dim)
        s = self.score(values)
        return np.asarray((s > self.cut if self.above else s <= self.cut) & ok)


# ----------------------------------------------------------------- layout


@dataclass(frozen=True, slots=True)
class Layout:
    """How outcomes are read, decided on the selection split: scalar, vector, mixed or other.

    "vector": tuples/arrays of one length with numeric entries; "mixed":
    tuples of one length whose entries are numbers or other values (None,
    strings, …), the non-numbers read as the atom nan.  ``discrete`` enables
    the ranked-outcome family (always for "other" and "mixed"; for numbers when
    distinct values repeat: at most max(64, half the sample)).
    """

    kind: Literal["scalar", "vector", "mixed", "other"]
    dim: int
    discrete: bool


def _row_kind(x: object) -> tuple[str, int]:
    if _is_number(x):
        return "scalar", 1
    if isinstance(x, (tuple, list, np.ndarray)) and len(x) > 0:
        numeric = [_is_number(v) or isinstance(v, (bool, np.bool_)) for v in x]
        if all(numeric):
            return "vector", len(x)
        if all(isinstance(v, Hashable) for v in x):
            return ("mixed" if any(numeric) else "atoms"), len(x)
    return "other", 0


def detect_layout(sel_a: Sequence[Any] | NDArray[Any], sel_b: Sequence[Any] | NDArray[Any]
                  ) -> Layout:
    """The layout of the pooled selection split (numbers, tuples of one length, or other)."""
    kinds: set[str] = set()
    dims: set[int] = set()
    for part in (sel_a, sel_b):
        if isinstance(part, np.ndarray) and part.dtype.kind in "iuf" and part.ndim in (1, 2):
            kinds.add("scalar" if part.ndim == 1 else "vector")
            if part.ndim == 2:
                dims.add(part.shape[1])
            continue
        for x in part:
            k, d = _row_kind(x)
            kinds.add(k)
            if k == "other":
                break
            if k != "scalar":
                dims.add(d)
    kind: Literal["scalar", "vector", "mixed", "other"] = "other"
    if kinds == {"scalar"}:
        kind = "scalar"
    elif kinds == {"vector"} and len(dims) == 1:
        kind = "vector"
    elif kinds <= {"vector", "mixed", "atoms"} and kinds & {"vector", "mixed"} and len(dims) == 1:
        kind = "mixed"
    dim = dims.pop() if kind in ("vector", "mixed") else 1
    pooled = len(sel_a) + len(sel_b)
    discrete = kind in ("other", "mixed") or _distinct_at_most(sel_a, sel_b, max(64, pooled // 2))
    return Layout(kind, dim, discrete)


# ------------------------------------------------------------- candidates


@dataclass(frozen=True, slots=True)
class Candidate:
    """A selected event and direction, with the hits that scored it and its score (a float).

    ``hits_a``/``hits_b`` are counted on the part of the selection split that
    scored the candidate (all of it for thresholds and intervals, its second
    half for learned events); they never involve the held-out split.
    """

    event: Event
    direction: Direction
    hits_a: int
    hits_b: int
    score: float


@dataclass(slots=True)
class _Pool:
    """Candidates in one direction: hits under P and Q on a counting split of sizes (size_p, size_q)."""

    direction: Direction
    hits_p: IntArray
    hits_q: IntArray
    size_p: int
    size_q: int
    make: Callable[[int], Event]


def _both(hits_a: IntArray, hits_b: IntArray, size_a: int, size_b: int,
          make: Callable[[int], Event]) -> list[_Pool]:
    return [_Pool("a→b", hits_a, hits_b, size_a, size_b, make),
            _Pool("b→a", hits_b, hits_a, size_b, size_a, make)]


def _ranked(fit_a: list[Hashable], fit_b: list[Hashable], test_a: list[Hashable],
            test_b: list[Hashable], build: Callable[[frozenset[Hashable]], Event]) -> list[_Pool]:
    """Prefixes of the outcomes ranked by likelihood ratio on the fit part, counted on the test part."""
    ca, cb = Counter(fit_a), Counter(fit_b)
    support = list(dict.fromkeys([*ca, *cb]))  # first-seen order: independent of hash seeds
    if not support:
        return []
    position = {o: i for i, o in enumerate(support)}
    a = np.array([ca[o] for o in support], dtype=np.int64)
    b = np.array([cb[o] for o in support], dtype=np.int64)
    ta = np.bincount([position[o] for o in test_a if o in position], minlength=len(support))
    tb = np.bincount([position[o] for o in test_b if o in position], minlength=len(support))
    pools: list[_Pool] = []
    for direction, p, q, sp, sq, tp, tq, np_, nq in (
            ("a→b", a, b, len(fit_a), len(fit_b), ta, tb, len(test_a), len(test_b)),
            ("b→a", b, a, len(fit_b), len(fit_a), tb, ta, len(test_b), len(test_a))):
        ratio = ((p + 1) / (sp + 1)) / ((q + 1) / (sq + 1))
        order = np.lexsort((-p, -ratio))  # by ratio, then by mass, both decreasing
        lengths = np.arange(1, len(support) + 1)
        if len(support) > MAX_PREFIXES:
            lengths = np.unique(np.geomspace(1, len(support), 256).astype(np.int64))
        cum_p = np.cumsum(tp[order])[lengths - 1].astype(np.int64)
        cum_q = np.cumsum(tq[order])[lengths - 1].astype(np.int64)

        def make(i: int, order: IntArray = order, lengths: IntArray = lengths) -> Event:
            return build(frozenset(support[j] for j in order[: lengths[i]]))

        d: Direction = "a→b" if direction == "a→b" else "b→a"
        pools.append(_Pool(d, cum_p, cum_q, np_, nq, make))
    return pools


def _cuts(values: FloatArray, max_cuts: int) -> FloatArray:
    """Up to max_cuts cut points: sample values at evenly spaced quantiles of the pooled sample."""
    finite = np.sort(values[np.isfinite(values)])
    if len(finite) == 0:
        return finite
    unique = np.unique(finite)
    if len(unique) <= max_cuts:
        return unique[:-1] if len(unique) > 1 else unique
    idx = np.unique(np.linspace(0, len(finite) - 1, max_cuts + 2).astype(np.int64)[1:-1])
    return np.unique(finite[idx])


@dataclass(frozen=True, slots=True)
class _Halves:
    """Real values of the selection split: a fit part (learns) and a test part (counts)."""

    fit_a: FloatArray
    fit_b: FloatArray
    test_a: FloatArray
    test_b: FloatArray


def _le_counts(values: FloatArray, cuts: FloatArray) -> tuple[IntArray, int]:
    finite = np.sort(values[~np.isnan(values)])
    return np.searchsorted(finite, cuts, side="right").astype(np.int64), len(finite)


def _threshold_pools(whole: _Halves, coord: int | None, dim: int, max_cuts: int,
                     bands: bool) -> list[_Pool]:
    """Thresholds, and (when ``bands``) intervals and their complements, on one real view."""
    cuts = _cuts(np.concatenate([whole.fit_a, whole.fit_b]), max_cuts)
    if len(cuts) == 0:
        return []
    (le_a, na), (le_b, nb) = _le_counts(whole.test_a, cuts), _le_counts(whole.test_b, cuts)
    sa, sb = len(whole.test_a), len(whole.test_b)
    pools = _both(le_a, le_b, sa, sb, lambda i: Threshold(coord, dim, float(cuts[i]), False))
    pools += _both(na - le_a, nb - le_b, sa, sb,
                   lambda i: Threshold(coord, dim, float(cuts[i]), True))
    lo, hi = np.triu_indices(len(cuts), k=1)
    if bands and len(lo):
        band_a, band_b = le_a[hi] - le_a[lo], le_b[hi] - le_b[lo]
        pools += _both(band_a, band_b, sa, sb,
                       lambda i: Band(coord, dim, float(cuts[lo[i]]), float(cuts[hi[i]]), True))
        pools += _both(na - band_a, nb - band_b, sa, sb,
                       lambda i: Band(coord, dim, float(cuts[lo[i]]), float(cuts[hi[i]]), False))
    return pools


def _binned_pools(h: _Halves, coord: int | None, dim: int, max_cuts: int) -> list[_Pool]:
    """Unions of quantile bins ranked by likelihood ratio on the fit part, counted on the test part."""
    cuts = _cuts(np.concatenate([h.fit_a, h.fit_b]), max_cuts)
    if len(cuts) < 2:
        return []
    edges = tuple(float(v) for v in cuts)

    def bins(x: FloatArray) -> list[Hashable]:
        return list(np.searchsorted(cuts, x[~np.isnan(x)], side="left").tolist())

    return _ranked(bins(h.fit_a), bins(h.fit_b), bins(h.test_a), bins(h.test_b),
                   lambda s: BinUnion(coord, dim, edges, frozenset(cast(int, v) for v in s)))


def _naive_bayes(va: FloatArray, vb: FloatArray, bins: int) -> Score:
    edges, table = [], []
    for i in range(va.shape[1]):
        cuts = _cuts(np.concatenate([va[:, i], vb[:, i]]), bins - 1)
        e = tuple(float(v) for v in cuts)
        size = len(cuts) + 4  # bins, then the atoms -inf, +inf, nan
        ca = np.bincount(_table_index(va[:, i], e), minlength=size) + 1
        cb = np.bincount(_table_index(vb[:, i], e), minlength=size) + 1
        ratio = np.log(ca / ca.sum()) - np.log(cb / cb.sum())
        edges.append(e)
        table.append(tuple(float(v) for v in ratio))
    return Score("naive-Bayes", va.shape[1], edges=tuple(edges), table=tuple(table))


def _logistic(va: FloatArray, vb: FloatArray, iterations: int = 25) -> Score | None:
    x = np.concatenate([va, vb])
    y = np.concatenate([np.ones(len(va)), np.zeros(len(vb))])
    finite = np.isfinite(x)
    counts = finite.sum(axis=0)
    center = np.where(counts > 0, np.where(finite, x, 0.0).sum(axis=0) / np.maximum(counts, 1), 0.0)
    spread = np.where(finite, x - center, 0.0)
    scale = np.sqrt((spread ** 2).sum(axis=0) / np.maximum(counts, 1))
    scale = np.where(scale > 0, scale, 1.0)
    columns = [np.where(finite, (x - center) / scale, 0.0)]
    atoms: list[tuple[int, int]] = []
    for i in range(x.shape[1]):
        sym = _atom_of(x[:, i])
        for atom in (ATOM_NEG_INF, ATOM_POS_INF, ATOM_NAN):
            flag = sym == atom
            if flag.any() and not flag.all():
                atoms.append((i, atom))
                columns.append(flag[:, None].astype(np.float64))
    z = np.column_stack([*columns, np.ones(len(x))])
    w = np.zeros(z.shape[1])
    ridge = 1e-3 * np.eye(z.shape[1])
    for _ in range(iterations):
        prob = 1 / (1 + np.exp(-np.clip(z @ w, -30, 30)))
        grad = z.T @ (prob - y) + ridge @ w
        hess = (z * (prob * (1 - prob))[:, None]).T @ z + ridge
        try:
            w = w - np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:
            return None
    if not np.all(np.isfinite(w)):
        return None
    dim = va.shape[1]
    return Score("logistic", dim, weights=tuple(float(v) for v in w[:dim]),
                 center=tuple(float(v) for v in center), scale=tuple(float(v) for v in scale),
                 intercept=float(w[-1]),
                 atoms=tuple((c, a, float(w[dim + k])) for k, (c, a) in enumerate(atoms)))


def _score_pools(score: Score, h: _Halves, max_cuts: int) -> list[_Pool]:
    """Thresholds on a learned score: cut points from the fit part, counts on the test part."""
    cuts = _cuts(np.concatenate([h.fit_a, h.fit_b]), max_cuts)
    if len(cuts) == 0:
        return []
    (le_a, na), (le_b, nb) = _le_counts(h.test_a, cuts), _le_counts(h.test_b, cuts)
    sa, sb = len(h.test_a), len(h.test_b)
    pools = _both(le_a, le_b, sa, sb, lambda i: ScoreThreshold(score, float(cuts[i]), False))
    pools += _both(na - le_a, nb - le_b, sa, sb,
                   lambda i: ScoreThreshold(score, float(cuts[i]), True))
    return pools


Split = Sequence[Any] | NDArray[Any]


def _float_pattern_pools(h: _Halves, coord: int | None, dim: int) -> list[_Pool]:
    """Unions of IEEE-754 classes ranked by likelihood ratio on the fit part (only for non-integer floats)."""
    fit = np.concatenate([h.fit_a, h.fit_b])
    finite = fit[np.isfinite(fit)]
    if len(finite) == 0 or np.all(finite == np.round(finite)):
        return []

    def keys(x: FloatArray) -> list[Hashable]:
        return list(float_pattern(x).tolist())

    return _ranked(keys(h.fit_a), keys(h.fit_b), keys(h.test_a), keys(h.test_b),
                   lambda s: FloatPattern(coord, dim, frozenset(cast(int, k) for k in s)))


def _coarse_pools(fit_a: FloatArray, fit_b: FloatArray, test_a: FloatArray, test_b: FloatArray,
                  bins: int) -> list[_Pool]:
    """Unions of coordinate-wise patterns (bin or atom per coordinate) ranked by likelihood ratio."""
    dim = fit_a.shape[1]
    edges = tuple(tuple(float(v) for v in _cuts(np.concatenate([fit_a[:, i], fit_b[:, i]]), bins - 1))
                  for i in range(dim))
    probe = CoarseSet(dim, edges, frozenset())
    return _ranked(probe.codes(fit_a)[0], probe.codes(fit_b)[0], probe.codes(test_a)[0],
                   probe.codes(test_b)[0],
                   lambda s: CoarseSet(dim, edges, frozenset(probe.decode(c) for c in s)))


LEARNER_MAX_ROWS: Final = 50_000
"""The logistic score learns on at most this many rows per side of the fit part (its cost is linear)."""

COARSE_MAX_DIM: Final = 32
"""Coordinate-wise pattern and float-pattern families are built for vectors of at most this length."""


def _pools(sel_a: Split, sel_b: Split, cut_a: int, cut_b: int, layout: Layout,
           max_cuts: int, float_events: bool) -> list[_Pool]:
    """Every family's candidates.  Fixed-form families (thresholds, intervals) count on the whole
    selection split; learned ones (ranked outcomes, bins, patterns, scores) learn on its first part
    (``[:cut]``) and count on the rest, so their counts carry no fitting bias."""
    split = cut_a > 0 and cut_b > 0
    fit_a, fit_b = (sel_a[:cut_a], sel_b[:cut_b]) if split else (sel_a, sel_b)
    test_a, test_b = (sel_a[cut_a:], sel_b[cut_b:]) if split else (sel_a, sel_b)

    def halves(xa: FloatArray, xb: FloatArray) -> _Halves:
        if not split:
            return _Halves(xa, xb, xa, xb)
        return _Halves(xa[:cut_a], xb[:cut_b], xa[cut_a:], xb[cut_b:])

    pools: list[_Pool] = []
    if layout.discrete:
        pools += _ranked(_keys(fit_a), _keys(fit_b), _keys(test_a), _keys(test_b), OutcomeSet)
    if layout.kind == "scalar":
        xa, xb = _scalars(sel_a), _scalars(sel_b)
        pools += _threshold_pools(_Halves(xa, xb, xa, xb), None, 1, max_cuts, True)
        pools += _binned_pools(halves(xa, xb), None, 1, max_cuts)
        if float_events and not layout.discrete:
            ra, rb = _readable(sel_a, None, 1), _readable(sel_b, None, 1)
            pools += _float_pattern_pools(halves(ra.values, rb.values), None, 1)
    elif layout.kind in ("vector", "mixed"):
        dim = layout.dim
        va, vb = _vectors(sel_a, dim), _vectors(sel_b, dim)
        per_coord = max(8, max_cuts // 4) if dim > 1 else max_cuts
        for i in range(dim):
            ca, cb = va[:, i], vb[:, i]
            pools += _threshold_pools(_Halves(ca, cb, ca, cb), i, dim, per_coord, True)
            if dim == 1:
                pools += _binned_pools(halves(ca, cb), i, dim, max_cuts)
            if float_events and not layout.discrete and dim <= COARSE_MAX_DIM:
                pools += _float_pattern_pools(halves(ca, cb), i, dim)
        fa, fb = (va[:cut_a], vb[:cut_b]) if split else (va, vb)
        if dim > 1 and dim <= COARSE_MAX_DIM:
            ta, tb = (va[cut_a:], vb[cut_b:]) if split else (va, vb)
            for bins in (2, 4):
                pools += _coarse_pools(fa, fb, ta, tb, bins)
        cap = LEARNER_MAX_ROWS
        learned: list[Score | None] = [_naive_bayes(fa, fb, 16), _logistic(fa[:cap], fb[:cap])]
        for score in learned:
            if score is not None:
                sa, sb = score(va), score(vb)
                pools += _score_pools(score, halves(sa, sb), max_cuts)
    return pools


# --------------------------------------------------------------- scoring


def _wilson(phat: FloatArray, n: int, z: float, upper: bool) -> FloatArray:
    z2 = z * z
    center = (phat + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * np.sqrt(phat * (1 - phat) / n + z2 / (4 * n * n))
    return np.asarray(np.clip(center + half if upper else center - half, 0.0, 1.0))


def plug_in_score(hits_p: IntArray, size_p: int, held_p: int, hits_q: IntArray, size_q: int,
                  held_q: int, delta: float, z: float, z_selection: float) -> FloatArray:
    """A pessimistic plug-in of the held-out bound ln((p_lo - delta)/q_hi); -inf when there is none.

    The selection frequencies are first moved to their own Wilson bounds at
    the selection sizes (``z_selection``; 0 keeps them), then the held-out
    bounds (``z``) are applied at the held-out sizes.  The first step keeps
    small events with lucky ratios from winning the maximum over many
    candidates.  Floats, heuristic: this only chooses events and never
    enters a reported bound.
    """
    p_sel = _wilson(hits_p / size_p, size_p, z_selection, upper=False)
    q_sel = _wilson(hits_q / size_q, size_q, z_selection, upper=True)
    p_lo = _wilson(p_sel, held_p, z, upper=False)
    q_hi = _wilson(q_sel, held_q, z, upper=True)
    num = p_lo - delta
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where((num > 0) & (q_hi > 0), np.log(np.maximum(num, 1e-300) / q_hi), -np.inf)
    return np.asarray(out, dtype=np.float64)


def select_events(sel_a: Sequence[Any] | NDArray[Any], sel_b: Sequence[Any] | NDArray[Any], *,
                  held_a: int, held_b: int, delta: Fraction, alpha_side: Fraction,
                  count: int = 1, max_cuts: int = 64, pessimism: float = 1.0,
                  float_events: bool = True) -> list[Candidate]:
    """The ``count`` best distinct (event, direction) candidates, chosen from the selection split only.

    ``held_a``/``held_b`` are the held-out sizes and ``alpha_side`` the level
    of each one-sided held-out bound; they only shape the score.  Candidates
    with equal selection counts in the same direction are treated as one.
    Candidates are ranked by :func:`plug_in_score` with ``z_selection =
    pessimism·z``, ties (e.g. all -inf) broken by the score without the
    selection step and then by the smoothed empirical log ratio, so a caller
    always gets an event when any outcome was seen.  ``float_events=False``
    leaves out the IEEE-754 pattern family (audit the algorithm as if in real
    arithmetic; see :mod:`privref.audits.blackbox.features`).
    """
    if count < 1:
        raise InvalidArgument(f"count={count} must be >= 1")
    if len(sel_a) == 0 or len(sel_b) == 0:
        raise InvalidArgument("the selection split must hold at least one outcome per side")
    layout = detect_layout(sel_a, sel_b)
    cut_a, cut_b = (len(sel_a) + 1) // 2, (len(sel_b) + 1) // 2
    if cut_a == len(sel_a) or cut_b == len(sel_b):  # too few to split: learned families count in-sample
        cut_a, cut_b = 0, 0
    pools = _pools(sel_a, sel_b, cut_a, cut_b, layout, max_cuts, float_events)
    z = NormalDist().inv_cdf(1 - float(alpha_side))
    d = float(delta)
    held = {"a→b": (held_a, held_b), "b→a": (held_b, held_a)}
    ranked: list[tuple[float, float, float, int, int]] = []  # (keys..., pool, index)
    for pi, pool in enumerate(pools):
        if pool.size_p == 0 or pool.size_q == 0:
            continue
        held_p, held_q = held[pool.direction]
        args = (pool.hits_p, pool.size_p, held_p, pool.hits_q, pool.size_q, held_q, d, z)
        primary = plug_in_score(*args, z_selection=pessimism * z)
        secondary = plug_in_score(*args, z_selection=0.0)
        ratio = (np.log((pool.hits_p + 1) / (pool.size_p + 1))
                 - np.log((pool.hits_q + 1) / (pool.size_q + 1)))
        top = np.lexsort((-ratio, -secondary, -primary))[: 4 * count]
        ranked += [(float(primary[i]), float(secondary[i]), float(ratio[i]), pi, int(i))
                   for i in top]
    ranked.sort(key=lambda r: r[:3], reverse=True)
    chosen: list[Candidate] = []
    seen: set[tuple[str, int, int]] = set()
    for score, _, _, pi, i in ranked:
        pool = pools[pi]
        key = (pool.direction, int(pool.hits_p[i]), int(pool.hits_q[i]))
        if key in seen:
            continue
        seen.add(key)
        hits_a, hits_b = (key[1], key[2]) if pool.direction == "a→b" else (key[2], key[1])
        chosen.append(Candidate(pool.make(i), pool.direction, hits_a, hits_b, score))
        if len(chosen) == count:
            break
    return chosen
