"""Reading the real data sets of paper 001's experiments (LIBSVM format), offline only.

Paper 001 (Liu, Zhu, Chaudhuri, Wang) runs PATE-PSQ and PATE-ASQ on LIBSVM's mushroom, a9a and
real-sim (its §5.1, Table 3).  Two of them are kept next to the repository, in ``shared/data``
(see its README): UCI Mushroom as ``agaricus.txt.train`` + ``agaricus.txt.test`` (8,124 rows,
labels 0/1, 126 one-hot features) and UCI Adult as ``a9a`` (32,561 rows, labels −1/+1, 123
binary features).  Nothing is ever downloaded.

* :func:`load_libsvm` reads one file into an immutable :class:`LibsvmData` (a scipy CSR feature
  matrix, a read-only 0/1 label vector and the provenance of every file read: resolved path,
  rows, sha256).  The parser is this module's own, so every refusal is one line naming the path
  and (for content errors) the 1-based line number.
* :data:`KNOWN_DATASETS` / :func:`load_known` read a known data set by name from a directory
  the caller gives, or from :func:`default_data_dir`.

Format read (LIBSVM / svmlight): one example per line, ``<label> <index>:<value> ...`` with
1-based feature indices in strictly increasing order and finite values; blank lines and lines
starting with ``#`` are skipped, and a trailing ``# comment`` is ignored.  Labels must all be in
{−1, +1} or all in {0, 1} (written as integers, ``+1`` allowed); −1 and 0 map to 0, +1 and 1 to
1.  A file mixing −1 with 0, or holding any other label, is refused.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import scipy.sparse

from privref.reference.citations import Uncited
from privref.reference.errors import EmptyDataset, InvalidArgument, UnknownLabel
from privref.reference.validate import check_int

from ..checkout import default_data_dir

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_ROWS",
    "KNOWN_DATASETS",
    "FileProvenance",
    "KnownDataset",
    "LibsvmData",
    "concatenate",
    "default_data_dir",
    "load_known",
    "load_libsvm",
]

SOURCE: Final = Uncited("001 §5.1 experiments (the data sets of Table 3): not a numbered result")
"""What this module implements: the data input of paper 001's experiments, no numbered result."""

DEFAULT_MAX_ROWS: Final = 1_000_000
"""Default cap on the number of examples one file may hold."""

DEFAULT_MAX_BYTES: Final = 64 * 2**20
"""Default cap on the size of one file, in bytes (64 MiB; a9a is about 2.3 MB)."""


@dataclass(frozen=True)
class FileProvenance:
    """Where some rows came from: the resolved path, the number of rows read and the file's sha256."""

    path: str
    rows: int
    sha256: str


@dataclass(frozen=True, eq=False)
class LibsvmData:
    """Examples read from LIBSVM files: features (CSR, float64), labels (0/1) and provenance.

    Guarantee: ``features`` has shape (rows, n_features); ``labels`` is a read-only uint8 vector
    of length ``rows`` with entries in {0, 1}; ``sources`` lists the files read, in order, whose
    ``rows`` add up to ``rows``.  Compare two values with :meth:`same_as` (exact content).
    """

    features: Any  # scipy.sparse.csr_matrix (scipy ships no type information)
    labels: npt.NDArray[np.uint8]
    sources: tuple[FileProvenance, ...]

    @property
    def rows(self) -> int:
        """Number of examples."""
        return int(self.labels.shape[0])

    @property
    def n_features(self) -> int:
        """Number of feature columns."""
        return int(self.features.shape[1])

    def label_counts(self) -> tuple[int, int]:
        """(number of 0 labels, number of 1 labels)."""
        ones = int(self.labels.sum())
        return (self.rows - ones, ones)

    def same_as(self, other: LibsvmData) -> bool:
        """True iff both hold exactly the same features and labels (provenance ignored)."""
        if self.features.shape != other.features.shape:
            return False
        return bool(np.array_equal(self.labels, other.labels)
                    and (self.features != other.features).nnz == 0)


def _refuse(path: Path, line: int, what: str) -> InvalidArgument:
    return InvalidArgument(f"path={str(path)!r} line {line}: {what}")


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    try:
        size = os.stat(path).st_size
        if path.is_dir():
            raise InvalidArgument(f"path={str(path)!r} is a directory, not a LIBSVM file")
        if size > max_bytes:
            raise InvalidArgument(f"path={str(path)!r} holds {size} bytes, over max_bytes={max_bytes}")
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as err:
        raise InvalidArgument(f"path={str(path)!r} cannot be read: {err.strerror or err}") from None
    if len(data) > max_bytes:  # the file grew, or is not a regular file
        raise InvalidArgument(f"path={str(path)!r} holds more than max_bytes={max_bytes} bytes")
    return data


_LABELS: Final = {"-1": -1, "+1": 1, "1": 1, "0": 0, "+0": 0, "-0": 0}


def _parse(path: Path, text: str, n_features: int | None, max_rows: int
           ) -> tuple[list[int], list[int], list[int], list[float], int]:
    """Labels (raw −1/0/1), CSR indptr, column indices (0-based), values, largest index seen."""
    labels: list[int] = []
    indptr: list[int] = [0]
    cols: list[int] = []
    vals: list[float] = []
    largest = 0
    first_label_line: dict[int, int] = {}
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        tokens = line.split()
        label = _LABELS.get(tokens[0])
        if label is None:
            if ":" in tokens[0]:
                raise _refuse(path, number, f"starts with {tokens[0]!r}, not a label")
            raise UnknownLabel(f"path={str(path)!r} line {number}: label {tokens[0]!r} is not "
                               "binary (must be -1/+1 or 0/1)")
        first_label_line.setdefault(label, number)
        if -1 in first_label_line and 0 in first_label_line:
            other = first_label_line[0 if label == -1 else -1]
            raise UnknownLabel(f"path={str(path)!r} line {number}: label {tokens[0]!r} mixes the "
                               f"-1/+1 and 0/1 encodings (line {other} used the other one)")
        previous = 0
        for token in tokens[1:]:
            index_text, sep, value_text = token.partition(":")
            if not sep or not index_text.isdigit():
                raise _refuse(path, number, f"{token!r} is not of the form <index>:<value>")
            index = int(index_text)
            if index < 1:
                raise _refuse(path, number, f"feature index {index} must be >= 1")
            if index <= previous:
                raise _refuse(path, number, f"feature index {index} must exceed the previous "
                                            f"index {previous} (strictly increasing)")
            if n_features is not None and index > n_features:
                raise _refuse(path, number, f"feature index {index} is out of range: "
                                            f"n_features={n_features}")
            try:
                value = float(value_text)
            except ValueError:
                raise _refuse(path, number, f"{token!r} has a value that is not a number") from None
            if not math.isfinite(value):
                raise _refuse(path, number, f"{token!r} has a non-finite value")
            previous = index
            cols.append(index - 1)
            vals.append(value)
        largest = max(largest, previous)
        labels.append(label)
        indptr.append(len(cols))
        if len(labels) > max_rows:
            raise _refuse(path, number, f"more than max_rows={max_rows} examples")
    return labels, indptr, cols, vals, largest


def load_libsvm(path: str | os.PathLike[str], *, n_features: int | None = None,
                max_rows: int = DEFAULT_MAX_ROWS, max_bytes: int = DEFAULT_MAX_BYTES) -> LibsvmData:
    """Read one LIBSVM-format file into a :class:`LibsvmData` (format in the module docstring).

    Guarantee: row i of the result is the i-th example line of the file; labels are mapped
    −1→0, +1→1 (or kept, for a 0/1 file); ``n_features`` columns when given (an index above it
    is refused), else as many as the largest index read.  Refusals, each one line naming the
    path (and the line number for content): a missing, unreadable or directory path and a file
    over ``max_bytes`` (InvalidArgument); a file with no example (EmptyDataset); bytes that are
    not UTF-8, a malformed line, an index out of range, more than ``max_rows`` examples
    (InvalidArgument); a non-binary or mixed-encoding label (UnknownLabel).  Source: the data
    input of 001 §5.1 (Table 3).
    """
    if not isinstance(path, str | os.PathLike) or str(path) == "":
        raise InvalidArgument(f"path={path!r} must be a non-empty path")
    if n_features is not None:
        check_int(n_features, "n_features", minimum=1)
    check_int(max_rows, "max_rows", minimum=1)
    check_int(max_bytes, "max_bytes", minimum=1)
    where = Path(path)
    data = _read_bytes(where, max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise _refuse(where, line, "is not UTF-8 text") from None
    labels, indptr, cols, vals, largest = _parse(where, text, n_features, max_rows)
    if not labels:
        raise EmptyDataset(f"path={str(where)!r} holds no example (empty file)")
    width = n_features if n_features is not None else max(largest, 1)
    matrix = scipy.sparse.csr_matrix(
        (np.asarray(vals, dtype=np.float64), np.asarray(cols, dtype=np.int64),
         np.asarray(indptr, dtype=np.int64)), shape=(len(labels), width))
    y = (np.asarray(labels, dtype=np.int64) == 1).astype(np.uint8)
    y.setflags(write=False)
    resolved = str(where.resolve())
    return LibsvmData(matrix, y, (FileProvenance(resolved, len(labels), hashlib.sha256(data).hexdigest()),))


def concatenate(parts: Sequence[LibsvmData]) -> LibsvmData:
    """The rows of ``parts`` stacked in order (same number of features required), sources joined."""
    if not parts:
        raise InvalidArgument("parts=() must hold at least one LibsvmData")
    width = parts[0].n_features
    for i, part in enumerate(parts):
        if part.n_features != width:
            raise InvalidArgument(f"parts[{i}] has {part.n_features} features, parts[0] has {width}")
    matrix = scipy.sparse.vstack([p.features for p in parts], format="csr")
    y = np.concatenate([p.labels for p in parts]).astype(np.uint8)
    y.setflags(write=False)
    return LibsvmData(matrix, y, tuple(s for p in parts for s in p.sources))


@dataclass(frozen=True)
class KnownDataset:
    """One data set of 001's experiments kept offline: its files (read in order) and its shape.

    ``rows`` and ``label_counts`` (zeros, ones after the 0/1 mapping) are those stated in
    ``shared/data/README.md``; :func:`load_known` refuses files that do not match them.
    """

    name: str
    files: tuple[str, ...]
    n_features: int
    rows: int
    label_counts: tuple[int, int]
    description: str


KNOWN_DATASETS: Final[Mapping[str, KnownDataset]] = MappingProxyType({
    "mushroom": KnownDataset("mushroom", ("agaricus.txt.train", "agaricus.txt.test"), 126, 8124,
                             (4208, 3916), "UCI Mushroom (edible 0 / poisonous 1), 126 one-hot "
                             "features; 001 Table 3's mushroom (LIBSVM encodes it with 112)"),
    "a9a": KnownDataset("a9a", ("a9a",), 123, 32561, (24720, 7841),
                        "UCI Adult, LIBSVM a9a training file (-1/+1 mapped to 0/1), 123 binary "
                        "features; 001 Table 3 also used a9a.t, which is not kept"),
})
"""The known data sets by name (001 §5.1, Table 3)."""


def load_known(name: str, directory: str | os.PathLike[str] | None = None, *,
               max_bytes: int = DEFAULT_MAX_BYTES) -> LibsvmData:
    """Read the known data set ``name`` ("mushroom" or "a9a") from ``directory``.

    Guarantee: the files of :data:`KNOWN_DATASETS` [name], read with :func:`load_libsvm` at the
    registered number of features and stacked in order; the result has the registered rows and
    label counts (InvalidArgument naming the directory otherwise).  ``directory=None`` uses
    :func:`default_data_dir`.  Unknown names raise InvalidArgument naming ``name``.
    """
    if not isinstance(name, str) or name not in KNOWN_DATASETS:
        raise InvalidArgument(f"name={name!r} must be one of {sorted(KNOWN_DATASETS)}")
    known = KNOWN_DATASETS[name]
    if directory is not None and (not isinstance(directory, str | os.PathLike) or str(directory) == ""):
        raise InvalidArgument(f"directory={directory!r} must be a non-empty path or None")
    folder = default_data_dir() if directory is None else Path(directory)
    parts = [load_libsvm(folder / f, n_features=known.n_features, max_bytes=max_bytes)
             for f in known.files]
    data = concatenate(parts)
    if data.rows != known.rows or data.label_counts() != known.label_counts:
        raise InvalidArgument(f"directory={str(folder)!r}: {name} has {data.rows} rows and label "
                              f"counts {data.label_counts()}, expected {known.rows} and "
                              f"{known.label_counts}")
    return data
