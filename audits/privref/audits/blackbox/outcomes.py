"""How the black-box auditor reads outcomes: canonical keys, numeric views, and the layout.

* :func:`canonical`: the hashable key of an outcome for discrete events (every
  NaN is the one key :data:`NAN`; lists and arrays become tuples);
  :func:`outcome_keys` computes it for a whole sample.
* Numeric views: :func:`scalars`, :func:`vectors`, :func:`vectors_with_atoms`
  and :func:`readable` read outcomes as floats, anything unreadable (a
  non-number where numbers were seen, a vector of another length) as NaN, so
  that it is outside every threshold, interval, bin and score event;
  :func:`quantile_cuts` puts cut points at quantiles of such a view, and
  :func:`tail_cuts` at order statistics whose tail masses lie on a geometric grid
  around δ (the events that matter when δ > 0 live in the tails).
* :class:`Layout` / :func:`detect_layout`: whether the selection split holds
  scalars, vectors, mixed tuples, tuples of varying length (read padded, see
  :func:`padded_rows`) or other values, and whether the ranked-outcome family
  applies.
* Variable-length tuples: :func:`lengths`, :func:`padded_rows` (pad with the
  atom :data:`ABSENT` to the length L seen on the selection split; a longer row
  keeps its first L - 1 entries and ends with the atom :data:`OVERFLOW`) and
  :func:`prefix_keys` (the first k entries, padded with :data:`ABSENT`).

The rule for outcome types is docs/blackbox-outcomes.md.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, Literal

import numpy as np
from numpy.typing import NDArray

from privref.reference.errors import InvalidArgument

__all__ = [
    "ABSENT",
    "DEEP_FINE_COUNT",
    "DEEP_MIN_COUNT",
    "DEEP_STEPS",
    "EDGE_COUNTS",
    "NAN",
    "NEG_ZERO",
    "OVERFLOW",
    "TAIL_EXPONENTS",
    "Atom",
    "BoolArray",
    "FloatArray",
    "IntArray",
    "Layout",
    "Raw",
    "canonical",
    "decode_int_row",
    "deep_cuts",
    "detect_layout",
    "edge_cuts",
    "int_row_codes",
    "lengths",
    "outcome_keys",
    "padded_rows",
    "prefix_keys",
    "prefixes_of_keys",
    "quantile_cuts",
    "readable",
    "scalars",
    "tail_cuts",
    "vectors",
    "vectors_with_atoms",
]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Atom:
    """A marker outcome (or entry) that no target returns: equal by name, so it survives pickling.

    It is a non-number: outside every threshold, interval, bin and score event
    and read as the atom nan by coordinate-wise patterns and scores.
    """

    name: str

    def __repr__(self) -> str:
        return self.name


NAN: Final = Atom("nan")
"""The one key every NaN maps to (NaN != NaN would split them; every payload and sign is one atom)."""

NEG_ZERO: Final = Atom("-0.0")
"""The key of -0.0: equal to +0.0 as a number, but a different IEEE-754 value (its sign bit), so
a mechanism whose sign of zero depends on the data leaks through it; discrete events tell the
two apart (numeric views read both as zero)."""

ABSENT: Final = Atom("absent")
"""The entry of a padded row beyond the end of a shorter tuple (see :func:`padded_rows`)."""

OVERFLOW: Final = Atom("overflow")
"""The last entry of a padded row whose tuple was longer than the padding length."""


def _is_sequence(x: object) -> bool:
    return isinstance(x, (tuple, list)) or (isinstance(x, np.ndarray) and x.ndim >= 1)


def canonical(outcome: object) -> Hashable:
    """The key of an outcome for discrete events: NaNs merged, -0.0 the atom :data:`NEG_ZERO`,
    lists and arrays made (nested) tuples.

    Dicts, sets and other unhashable values raise InvalidArgument (docs/blackbox-outcomes.md).
    """
    if isinstance(outcome, (float, np.floating)):
        if outcome == 0 and math.copysign(1.0, outcome) < 0:
            return NEG_ZERO
        return NAN if math.isnan(outcome) else float(outcome)
    if isinstance(outcome, np.integer):
        return int(outcome)
    if isinstance(outcome, np.bool_):
        return bool(outcome)
    if isinstance(outcome, np.ndarray) and outcome.ndim == 0:
        return canonical(outcome.item())
    if isinstance(outcome, (tuple, list, np.ndarray)):
        return tuple(canonical(x) for x in outcome)
    if isinstance(outcome, Hashable) and not isinstance(outcome, dict):
        return outcome
    raise InvalidArgument(f"outcome={outcome!r} ({type(outcome).__name__}) is not a valid outcome; "
                          "outputs must be numbers, hashable labels, or tuples, lists or arrays "
                          "of these (dicts and sets are refused)")


def outcome_keys(samples: Sequence[Any] | NDArray[Any]) -> list[Hashable]:
    """The canonical key of every outcome (fast paths for numpy arrays; same keys as :func:`canonical`)."""
    if isinstance(samples, np.ndarray) and samples.dtype.kind in "iub" and samples.ndim in (1, 2):
        return [tuple(r) for r in samples.tolist()] if samples.ndim == 2 else list(samples.tolist())
    if isinstance(samples, np.ndarray) and samples.dtype.kind == "f" and samples.ndim in (1, 2):
        values = samples.astype(np.float64)
        odd = np.isnan(values) | ((values == 0) & np.signbit(values))  # NaN, -0.0: atoms
        nan_rows = odd if values.ndim == 1 else odd.any(axis=1)
        keys: list[Hashable] = ([tuple(r) for r in values.tolist()] if values.ndim == 2
                                else list(values.tolist()))
        for i in np.flatnonzero(nan_rows).tolist():
            keys[i] = canonical(values[i])
        return keys
    return [canonical(x) for x in samples]


def int_row_codes(*parts: NDArray[Any]) -> tuple[list[IntArray], IntArray, IntArray] | None:
    """Mixed-radix int64 codes of the rows of integer matrices (one code per distinct row, the
    same code for equal rows across ``parts``), with the radix's offsets and place values; None
    unless every part is a 2-D integer array of one width and the codes fit in 62 bits."""
    if not parts or not all(isinstance(p, np.ndarray) and p.ndim == 2
                            and (p.dtype.kind == "i" or (p.dtype.kind == "u" and p.itemsize < 8))
                            for p in parts):
        return None  # (uint64 may exceed int64: those rows keep the tuple path)
    width = parts[0].shape[1]
    if any(p.shape[1] != width for p in parts) or width == 0:
        return None
    nonempty = [p for p in parts if len(p)]
    if not nonempty:
        return None
    low = np.min([p.min(axis=0) for p in nonempty], axis=0).astype(np.int64)
    high = np.max([p.max(axis=0) for p in nonempty], axis=0).astype(np.int64)
    spans = [int(h) - int(lo) + 1 for lo, h in zip(low.tolist(), high.tolist(), strict=True)]
    total = 1
    for span in spans:
        total *= span
    if total >= 2**62:
        return None
    place = np.ones(width, dtype=np.int64)
    for j in range(1, width):
        place[j] = place[j - 1] * spans[j - 1]
    codes = [np.asarray((p.astype(np.int64) - low) @ place, dtype=np.int64) for p in parts]
    return codes, low, place


def decode_int_row(code: int, low: IntArray, place: IntArray) -> tuple[int, ...]:
    """The row (a tuple of Python ints, the key :func:`outcome_keys` gives it) of a code of
    :func:`int_row_codes`."""
    out = []
    for j in range(len(place) - 1, -1, -1):
        digit, code = divmod(code, int(place[j]))
        out.append(digit + int(low[j]))
    return tuple(reversed(out))


_MIX: Final = (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB)


def _row_hashes(rows: FloatArray) -> NDArray[np.uint64]:
    """A 64-bit hash of each row's bits (equal rows, equal hashes; distinct rows collide with
    probability about 2^-64 per pair, which can only lower a count of distinct rows)."""
    bits = np.ascontiguousarray(rows).view(np.uint64)
    h = np.zeros(len(rows), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(bits.shape[1]):
            h = (h ^ bits[:, j]) * np.uint64(_MIX[1])
            h ^= h >> np.uint64(31)
            h = (h + np.uint64(_MIX[0])) * np.uint64(_MIX[2])
    return h


def _distinct_at_most(sel_a: Sequence[Any] | NDArray[Any], sel_b: Sequence[Any] | NDArray[Any],
                      limit: int) -> bool:
    """Whether the pooled outcomes take at most ``limit`` distinct canonical values."""
    parts = (sel_a, sel_b)
    coded = int_row_codes(*(p for p in parts if isinstance(p, np.ndarray)))
    if coded is not None and len(coded[0]) == 2:
        return len(np.unique(np.concatenate(coded[0]))) <= limit
    if all(isinstance(p, np.ndarray) and p.dtype.kind in "iuf" and p.ndim == 2 for p in parts):
        rows = np.concatenate([np.asarray(p, dtype=np.float64) for p in parts])
        rows = np.where(np.isnan(rows), math.nan, rows) + 0.0  # one NaN payload; -0.0 + 0.0 is 0.0
        for j in range(min(3, rows.shape[1])):  # a column with too many values decides it alone
            if len(np.unique(rows[:, j])) > limit:
                return False
        return len(np.unique(_row_hashes(rows))) <= limit
    if all(isinstance(p, np.ndarray) and p.dtype.kind in "iuf" and p.ndim == 1 for p in parts):
        return len(np.unique(np.concatenate([np.asarray(p, np.float64) for p in parts]))) <= limit
    return len(set(outcome_keys(sel_a)) | set(outcome_keys(sel_b))) <= limit


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


def scalars(samples: Sequence[Any] | NDArray[Any]) -> FloatArray:
    """Outcomes as floats; NaN for anything that is not a real number."""
    if isinstance(samples, np.ndarray) and samples.ndim == 1 and samples.dtype.kind in "iuf":
        return samples.astype(np.float64)
    return np.array([float(x) if _is_number(x) else math.nan for x in samples], dtype=np.float64)


def vectors(samples: Sequence[Any] | NDArray[Any], dim: int) -> FloatArray:
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


def vectors_with_atoms(samples: Sequence[Any] | NDArray[Any], dim: int
                        ) -> tuple[FloatArray, BoolArray]:
    """Outcomes as rows of ``dim`` floats (NaN for non-numeric entries) and which rows have length ``dim``."""
    if isinstance(samples, np.ndarray) and samples.ndim == 2 and samples.dtype.kind in "iuf":
        ok = np.full(len(samples), samples.shape[1] == dim)
        return vectors(samples, dim), ok
    ok = np.fromiter((isinstance(x, (tuple, list, np.ndarray)) and len(x) == dim for x in samples),
                     dtype=np.bool_, count=len(samples))
    return vectors(samples, dim), ok


def lengths(samples: Sequence[Any] | NDArray[Any]) -> tuple[IntArray, BoolArray]:
    """The length of every outcome that is a tuple, list or array (0 elsewhere) and which outcomes are."""
    if isinstance(samples, np.ndarray) and samples.ndim >= 2:
        n = len(samples)
        return np.full(n, samples.shape[1], dtype=np.int64), np.ones(n, dtype=np.bool_)
    ok = np.fromiter((_is_sequence(x) for x in samples), dtype=np.bool_, count=len(samples))
    size = np.fromiter((len(x) if _is_sequence(x) else 0 for x in samples), dtype=np.int64,
                       count=len(samples))
    return size, ok


def _pad(x: Any, length: int) -> Any:
    if not _is_sequence(x):
        return x  # not a row: outside every event built on padded rows
    row = tuple(x)
    if len(row) <= length:
        return row + (ABSENT,) * (length - len(row))
    return (*row[: length - 1], OVERFLOW)


def padded_rows(samples: Sequence[Any] | NDArray[Any], length: int) -> list[Any]:
    """Each tuple (list, array) outcome as a row of exactly ``length`` >= 1 entries.

    A shorter row is completed with :data:`ABSENT`; a longer one keeps its
    first ``length - 1`` entries followed by :data:`OVERFLOW` (so it differs
    from every row of at most ``length`` entries).  Other outcomes are
    returned unchanged.  A pure function of each outcome: it works on any
    slice of a sample.
    """
    if length < 1:
        raise InvalidArgument(f"length={length} must be >= 1")
    if isinstance(samples, np.ndarray) and samples.ndim == 2 and samples.shape[1] == length:
        return [tuple(r) for r in samples.tolist()]
    return [_pad(x, length) for x in samples]


def prefix_keys(samples: Sequence[Any] | NDArray[Any], k: int) -> list[Hashable]:
    """The canonical first ``k`` entries of each tuple outcome, completed with :data:`ABSENT` when shorter.

    Outcomes that are not tuples (lists, arrays) keep their (non-tuple) canonical key, so no
    set of prefixes contains them.
    """
    return prefixes_of_keys(outcome_keys(samples), k)


def prefixes_of_keys(keys: Sequence[Hashable], k: int) -> list[Hashable]:
    """:func:`prefix_keys` from canonical keys already computed (:func:`outcome_keys`)."""
    if k < 0:
        raise InvalidArgument(f"k={k} must be >= 0")
    pad = (ABSENT,) * k
    return [(key[:k] + pad[: k - len(key)] if len(key) < k else key[:k]) if isinstance(key, tuple)
            else key for key in keys]


@dataclass(frozen=True, slots=True)
class Raw:
    """Real values of outputs (or of one coordinate) and which of them are numbers (NaN included)."""

    values: FloatArray
    readable: BoolArray


def readable(samples: Sequence[Any] | NDArray[Any], coord: int | None, dim: int) -> Raw:
    """Outputs (``coord`` None) or their coordinate ``coord`` (of ``dim``) as reals; which are numbers."""
    if coord is None:
        if isinstance(samples, np.ndarray) and samples.ndim == 1 and samples.dtype.kind in "iuf":
            return Raw(samples.astype(np.float64), np.ones(len(samples), dtype=np.bool_))
        flags = np.fromiter((_is_number(x) for x in samples), dtype=np.bool_, count=len(samples))
        return Raw(scalars(samples), flags)
    values, ok = vectors_with_atoms(samples, dim)
    if isinstance(samples, np.ndarray) and samples.ndim == 2 and samples.dtype.kind in "iuf":
        return Raw(values[:, coord], ok)
    flags = np.fromiter((bool(ok[i]) and _is_number(x[coord]) for i, x in enumerate(samples)),
                        dtype=np.bool_, count=len(samples))
    return Raw(values[:, coord], flags)


def quantile_cuts(values: FloatArray, max_cuts: int) -> FloatArray:
    """Up to max_cuts cut points: sample values at evenly spaced quantiles of the pooled sample."""
    finite = np.sort(values[np.isfinite(values)])
    if len(finite) == 0:
        return finite
    unique = np.unique(finite)
    if len(unique) <= max_cuts:
        return unique[:-1] if len(unique) > 1 else unique
    idx = np.unique(np.linspace(0, len(finite) - 1, max_cuts + 2).astype(np.int64)[1:-1])
    return np.unique(finite[idx])


TAIL_EXPONENTS: Final = tuple(range(-2, 9))
"""j of the tail masses δ·2^j at which :func:`tail_cuts` puts cut points (11 per tail)."""


def tail_cuts(values: FloatArray, delta: float,
              exponents: Sequence[int] = TAIL_EXPONENTS) -> FloatArray:
    """Cut points whose tails hold a fraction δ·2^j of the finite values, for j in ``exponents``.

    For each j with k = round(δ·2^j·n) in [1, n/2) (n finite values, sorted x_1 <= … <= x_n),
    two cuts: x_k (so that {x <= c} holds about k values) and x_{n−k} (so that {x > c} holds
    about k values).  At most 2·len(exponents) distinct cuts, sorted; empty when δ <= 0 (the
    δ = 0 families are unchanged).  A function of ``values`` only: callers pass the selection
    split, so the cuts carry no information from the held-out split.
    """
    if not delta > 0:
        return np.empty(0, dtype=np.float64)
    finite = np.sort(values[np.isfinite(values)])
    n = len(finite)
    out: list[float] = []
    for j in exponents:
        k = round(delta * 2.0 ** j * n)
        if k >= 1 and 2 * k < n:
            out += [float(finite[k - 1]), float(finite[n - k - 1])]
    return np.unique(np.array(out, dtype=np.float64))


DEEP_MIN_COUNT: Final = 64
"""The smallest number of pooled selection values a tail cut of :func:`deep_cuts` leaves outside."""

DEEP_STEPS: Final = 4
"""Deep tail cuts per halving of the tail mass while a tail holds at least ``DEEP_FINE_COUNT``
values: a tail's mass steps by 2^(−1/4), about 16%, so an optimum where the ratio stops being
constant (a tail's edge) is missed by at most that much mass."""

DEEP_FINE_COUNT: Final = 4096
"""Below this many values a tail steps by half octaves (two cuts per halving of its mass): small
tails are many lottery tickets for the selection's maximum, and their few hits cannot place an
edge finely anyway."""


EDGE_COUNTS: Final = (1, 2, 4, 8, 16, 32)
"""Tail sizes of the edge cuts (:func:`edge_cuts`): the tails thinner than ``DEEP_MIN_COUNT``."""


def edge_cuts(values: FloatArray) -> FloatArray:
    """Cut points at the edges of the selection split: x_k and x_(n−k) (sorted finite values) for
    k in ``EDGE_COUNTS``, so that {x <= c} and {x > c} each hold about k values.

    Where one side's support ends inside the other's (a released maximum of one-sided noise:
    {max < 2} is impossible on 2^5 and has probability 2.8·10⁻⁷ on 1^5), the best events sit
    in tails that the selection split holds a handful of values of, too few to rank them; a
    validation split larger than the selection split can (:data:`~privref.audits.blackbox.
    selection.LADDER`).  Sorted, distinct; a function of ``values`` only (the selection split).
    """
    finite = np.sort(values[np.isfinite(values)])
    n = len(finite)
    out = [float(v) for k in EDGE_COUNTS if 2 * k < n for v in (finite[k - 1], finite[n - k - 1])]
    return np.unique(np.array(out, dtype=np.float64))


def deep_cuts(values: FloatArray, min_count: int = DEEP_MIN_COUNT) -> FloatArray:
    """Cut points deep in both tails: tails holding about n·2^(−s) of the n finite values.

    The exponent s steps by 1/DEEP_STEPS from 1/2 while the tail holds at least
    ``DEEP_FINE_COUNT`` values, then by 1/2, while k = round(n·2^(−s)) >= ``min_count``: two
    cuts, x_k and x_(n−k) (sorted values), so that {x <= c} and {x > c} each hold about k
    values.  These reach tails far beyond the quantile cuts, where a threshold on a sum of many
    small losses (a learned score of a vector output) has its largest ratio, in steps fine
    enough to stop near where a big tail's ratio starts to fall.  Sorted, distinct; a function
    of ``values`` only (the selection split).
    """
    if min_count < 1:
        raise InvalidArgument(f"min_count={min_count} must be >= 1")
    finite = np.sort(values[np.isfinite(values)])
    n = len(finite)
    out: list[float] = []
    s = Fraction(1, 2)
    while (k := round(n * 2.0 ** -float(s))) >= min_count:
        if 2 * k < n:
            out += [float(finite[k - 1]), float(finite[n - k - 1])]
        s += Fraction(1, DEEP_STEPS) if k >= DEEP_FINE_COUNT else Fraction(1, 2)
    return np.unique(np.array(out, dtype=np.float64))


# ----------------------------------------------------------------- layout


@dataclass(frozen=True, slots=True)
class Layout:
    """How outcomes are read, decided on the selection split: scalar, vector, mixed or other.

    "vector": tuples/arrays of one length with numeric entries; "mixed":
    tuples of one length whose entries are numbers or other values (None,
    strings, …), the non-numbers read as the atom nan.  ``padded``: the tuples
    have varying lengths; they are read as rows of ``dim`` = L entries, L the
    largest length seen (:func:`padded_rows`), with kind "mixed".
    ``discrete`` enables the ranked-outcome family (always for "other" and
    "mixed"; for numbers when distinct values repeat: at most max(64, half the
    sample)).
    """

    kind: Literal["scalar", "vector", "mixed", "other"]
    dim: int
    discrete: bool
    padded: bool = False


def _row_kind(x: object) -> tuple[str, int]:
    if _is_number(x):
        return "scalar", 1
    if isinstance(x, (tuple, list, np.ndarray)) and _is_sequence(x):
        if len(x) == 0:
            return "atoms", 0
        numeric = [_is_number(v) or isinstance(v, (bool, np.bool_)) for v in x]
        if all(numeric):
            return "vector", len(x)
        if all(isinstance(v, Hashable) or _is_sequence(v) for v in x):
            return ("mixed" if any(numeric) else "atoms"), len(x)
    return "other", 0


def detect_layout(sel_a: Sequence[Any] | NDArray[Any], sel_b: Sequence[Any] | NDArray[Any]
                  ) -> Layout:
    """The layout of the pooled selection split: numbers, tuples of one or of varying lengths, other."""
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
    padded = False
    if kinds == {"scalar"}:
        kind = "scalar"
    elif kinds == {"vector"} and len(dims) == 1 and 0 not in dims:
        kind = "vector"
    elif (kinds <= {"vector", "mixed", "atoms"} and kinds & {"vector", "mixed"} and len(dims) == 1
          and 0 not in dims):
        kind = "mixed"
    elif kinds and kinds <= {"vector", "mixed", "atoms"} and len(dims) > 1:
        kind, padded = "mixed", True  # varying lengths: read padded to the longest
    dim = max(dims) if kind in ("vector", "mixed") else 1
    pooled = len(sel_a) + len(sel_b)
    discrete = kind in ("other", "mixed") or _distinct_at_most(sel_a, sel_b, max(64, pooled // 2))
    return Layout(kind, dim, discrete, padded)
