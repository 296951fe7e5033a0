"""Reading 001's real data sets (LIBSVM format) and refusing malformed files with path + line.

Expected shapes are those of shared/data/README.md: mushroom 8,124 rows (4,208 zeros, 3,916 ones),
126 features; a9a 32,561 rows (24,720 −1's, 7,841 +1's), 123 features.  The reader is checked
against scikit-learn's independent ``load_svmlight_file`` on the same files.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_svmlight_file  # type: ignore[import-untyped]

from privref.app.experiments.datasets import (
    KNOWN_DATASETS,
    LibsvmData,
    concatenate,
    default_data_dir,
    load_known,
    load_libsvm,
)
from privref.reference.errors import EmptyDataset, InvalidArgument, UnknownLabel


def _data_dir() -> Path:
    try:
        return default_data_dir()
    except InvalidArgument:
        pytest.skip("shared/data is not next to this checkout")


@pytest.fixture(scope="module")
def mushroom() -> LibsvmData:
    return load_known("mushroom", _data_dir())


@pytest.fixture(scope="module")
def a9a() -> LibsvmData:
    return load_known("a9a")


def test_mushroom_matches_the_readme_and_sklearn(mushroom: LibsvmData) -> None:
    assert (mushroom.rows, mushroom.n_features) == (8124, 126)
    assert mushroom.label_counts() == (4208, 3916)
    assert [s.rows for s in mushroom.sources] == [6513, 1611]
    folder = _data_dir()
    for source, name in zip(mushroom.sources, ("agaricus.txt.train", "agaricus.txt.test"), strict=True):
        assert Path(source.path) == (folder / name).resolve()
        assert source.sha256 == hashlib.sha256((folder / name).read_bytes()).hexdigest()
    X1, y1 = load_svmlight_file(str(folder / "agaricus.txt.train"), n_features=126)
    X2, y2 = load_svmlight_file(str(folder / "agaricus.txt.test"), n_features=126)
    assert (mushroom.features[:6513] != X1).nnz == 0 and (mushroom.features[6513:] != X2).nnz == 0
    assert np.array_equal(mushroom.labels, np.concatenate([y1, y2]).astype(np.uint8))


def test_a9a_matches_the_readme_and_sklearn(a9a: LibsvmData) -> None:
    assert (a9a.rows, a9a.n_features) == (32561, 123)
    assert a9a.label_counts() == (24720, 7841)
    X, y = load_svmlight_file(str(_data_dir() / "a9a"), n_features=123)
    assert (a9a.features != X).nnz == 0
    assert np.array_equal(a9a.labels, (y == 1).astype(np.uint8))  # −1 → 0, +1 → 1
    assert not a9a.labels.flags.writeable


def test_registry() -> None:
    assert set(KNOWN_DATASETS) == {"mushroom", "a9a"}
    with pytest.raises(InvalidArgument, match="name='real-sim'"):
        load_known("real-sim")


def _write(tmp_path: Path, text: str | bytes, name: str = "d.txt") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def test_small_file_exactly(tmp_path: Path) -> None:
    path = _write(tmp_path, "# header\n+1 1:0.5 3:2\n\n-1 2:1  # trailing\n-1\n")
    data = load_libsvm(path)
    assert data.features.toarray().tolist() == [[0.5, 0, 2], [0, 1, 0], [0, 0, 0]]
    assert data.labels.tolist() == [1, 0, 0]
    assert data.sources[0].rows == 3 and data.n_features == 3
    wide = load_libsvm(path, n_features=5)
    assert wide.n_features == 5
    zero_one = load_libsvm(_write(tmp_path, "0 1:1\n1 2:1\n", "z.txt"))
    assert zero_one.labels.tolist() == [0, 1]
    both = concatenate([zero_one, load_libsvm(_write(tmp_path, "1 1:1\n", "w.txt"), n_features=2)])
    assert both.labels.tolist() == [0, 1, 1] and len(both.sources) == 2
    assert zero_one.same_as(zero_one) and not zero_one.same_as(both)


@pytest.mark.parametrize(("text", "error", "match"), [
    ("+1 1:1\n-1 x:1\n", InvalidArgument, r"line 2: 'x:1' is not of the form"),
    ("+1 1:1\n-1 2\n", InvalidArgument, r"line 2: '2' is not of the form"),
    ("+1 1:1\n3:1\n", InvalidArgument, r"line 2: starts with '3:1', not a label"),
    ("+1 1:1\n\n2 1:1\n", UnknownLabel, r"line 3: label '2' is not binary"),
    ("0.5 1:1\n", UnknownLabel, r"line 1: label '0.5' is not binary"),
    ("-1 1:1\n0 1:1\n", UnknownLabel, r"line 2: label '0' mixes .* \(line 1 used the other one\)"),
    ("+1 0:1\n", InvalidArgument, r"line 1: feature index 0 must be >= 1"),
    ("+1 3:1 2:1\n", InvalidArgument, r"line 1: feature index 2 must exceed the previous index 3"),
    ("+1 1:1\n+1 9:1\n", InvalidArgument, r"line 2: feature index 9 is out of range: n_features=4"),
    ("+1 1:nan\n", InvalidArgument, r"line 1: '1:nan' has a non-finite value"),
    ("+1 1:abc\n", InvalidArgument, r"line 1: '1:abc' has a value that is not a number"),
    (b"+1 1:1\n-1 \xff:1\n", InvalidArgument, r"line 2: is not UTF-8"),
    ("", EmptyDataset, r"holds no example"),
    ("# only a comment\n\n", EmptyDataset, r"holds no example"),
])
def test_malformed_files_name_path_and_line(tmp_path: Path, text: str | bytes,
                                            error: type[Exception], match: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(error, match=match) as info:
        load_libsvm(path, n_features=4)
    message = str(info.value)
    assert str(path) in message and "\n" not in message


def test_missing_directory_size_and_row_limits(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument, match=r"missing\.txt.*cannot be read"):
        load_libsvm(tmp_path / "missing.txt")
    with pytest.raises(InvalidArgument, match="is a directory"):
        load_libsvm(tmp_path)
    path = _write(tmp_path, "+1 1:1\n" * 10)  # 70 bytes
    with pytest.raises(InvalidArgument, match=r"holds 70 bytes, over max_bytes=69"):
        load_libsvm(path, max_bytes=69)
    assert load_libsvm(path, max_bytes=70).rows == 10
    with pytest.raises(InvalidArgument, match=r"line 4: more than max_rows=3"):
        load_libsvm(path, max_rows=3)
    with pytest.raises(InvalidArgument, match="n_features=0"):
        load_libsvm(path, n_features=0)


def test_known_data_set_in_a_wrong_directory(tmp_path: Path) -> None:
    _write(tmp_path, "-1 1:1\n+1 2:1\n", "a9a")
    with pytest.raises(InvalidArgument, match=r"a9a has 2 rows .* expected 32561"):
        load_known("a9a", tmp_path)
    with pytest.raises(InvalidArgument, match=r"agaricus\.txt\.train.*cannot be read"):
        load_known("mushroom", tmp_path)
