"""001 §5's linear teachers and students (scikit-learn) on the real mushroom data, small and fast.

Exact claims: fits are deterministic; a teacher depends on its own part only, so removing one
record changes one teacher (the per-record assignment); the active learner asks at most
``budget`` labels, only at the positions it reports.  Accuracy thresholds are loose sanity
checks (mushroom is almost linearly separable), not reproduced numbers.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]

from privref.app.datasets import LibsvmData, default_data_dir, load_known
from privref.app.pate_students_sklearn import (
    active_logistic_student,
    fit_logistic,
    logistic_student,
    row_keys,
    teacher_votes,
    train_logistic_teachers,
)
from privref.reference.errors import InvalidArgument
from privref.reference.learners.pate_teachers import assign_teachers, majority


@pytest.fixture(scope="module")
def mushroom() -> LibsvmData:
    try:
        return load_known("mushroom", default_data_dir())
    except InvalidArgument:
        pytest.skip("shared/data is not next to this checkout")


@pytest.fixture(scope="module")
def split(mushroom: LibsvmData) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    perm = np.random.default_rng(2024).permutation(mushroom.rows)
    return perm[:800], perm[800:1000], perm[1000:2000]  # private, public, test


def test_fit_is_deterministic_and_equals_sklearn(mushroom: LibsvmData) -> None:
    X, y = mushroom.features[:300], mushroom.labels[:300]
    a, b = fit_logistic(X, y, seed=0), fit_logistic(X, y, seed=0)
    assert np.array_equal(a.coef, b.coef) and a.intercept == b.intercept
    ref = LogisticRegression(solver="lbfgs", max_iter=1000, random_state=0).fit(X, y)
    assert np.array_equal(a.predict(mushroom.features), ref.predict(mushroom.features).astype(np.uint8))


def test_constant_fallbacks(mushroom: LibsvmData) -> None:
    X = mushroom.features[:5]
    assert fit_logistic(X, np.ones(5, dtype=np.uint8), seed=0).predict(X).tolist() == [1] * 5
    assert fit_logistic(X, np.zeros(5, dtype=np.uint8), seed=0).predict(X).tolist() == [0] * 5
    assert fit_logistic(X[:0], np.zeros(0, dtype=np.uint8), seed=0).predict(X).tolist() == [0] * 5
    with pytest.raises(InvalidArgument, match="labels in"):
        fit_logistic(X, np.full(5, 2), seed=0)


def test_row_keys_depend_on_the_row_only(mushroom: LibsvmData) -> None:
    X, y = mushroom.features[:50], mushroom.labels[:50]
    keys = row_keys(X, y)
    idx = [7, 3, 49, 0]
    assert row_keys(X[idx], y[idx]) == tuple(keys[i] for i in idx)
    assert row_keys(X.toarray(), y) == keys  # dense or sparse, same keys
    assert len(set(keys)) == len({(X[i].toarray().tobytes(), int(y[i])) for i in range(50)})


def test_removing_one_record_changes_one_teacher(mushroom: LibsvmData, split: tuple) -> None:  # type: ignore[type-arg]
    private = split[0][:300]
    X, y = mushroom.features[private], mushroom.labels[private]
    K, seed, i = 6, 11, 17
    a = assign_teachers(row_keys(X, y), K, seed)
    keep = [r for r in range(300) if r != i]
    b = assign_teachers(row_keys(X[keep], y[keep]), K, seed)
    full = train_logistic_teachers(X, y, a, seed=0)
    fewer = train_logistic_teachers(X[keep], y[keep], b, seed=0)
    same = [np.array_equal(f.coef, g.coef) and f.intercept == g.intercept
            for f, g in zip(full, fewer, strict=True)]
    assert [k for k in range(K) if not same[k]] == [a.teachers[i]]
    votes_full, votes_fewer = teacher_votes(full, mushroom.features), teacher_votes(fewer, mushroom.features)
    assert int(np.abs(votes_full - votes_fewer).max()) <= 1  # the vote count has sensitivity 1


def test_pate_pipeline_on_mushroom(mushroom: LibsvmData, split: tuple) -> None:  # type: ignore[type-arg]
    private, public, test = split
    X, y = mushroom.features, mushroom.labels
    K = 8
    a = assign_teachers(row_keys(X[private], y[private]), K, seed=3)
    teachers = train_logistic_teachers(X[private], y[private], a, seed=0)
    votes = teacher_votes(teachers, X[public])
    assert votes.min() >= 0 and votes.max() <= K
    assert votes.tolist() == np.sum([h.predict(X[public]) for h in teachers], axis=0).tolist()
    pseudo = np.array([majority(int(v), K) for v in votes], dtype=np.uint8)
    student = logistic_student(X[public], pseudo, seed=0)
    assert float(np.mean(student.predict(X[test]) == y[test])) > 0.9


def test_active_student_budget_and_determinism(mushroom: LibsvmData, split: tuple) -> None:  # type: ignore[type-arg]
    public, test = split[1][:120], split[2]
    X, y = mushroom.features, mushroom.labels
    asked: list[int] = []

    def label(j: int) -> int:
        asked.append(j)
        return int(y[public][j])

    run = active_logistic_student(X[public], label, budget=60, seed=0)
    assert asked == list(run.queried) and len(asked) <= 60
    assert list(run.labels) == [int(y[public][j]) for j in run.queried]
    assert sorted(run.queried + run.inferred) == list(range(run.processed))
    assert run.queried[0] == 0  # nothing known yet: the first point is always asked
    assert run.inferred  # some labels were inferred, not bought
    assert float(np.mean(run.model.predict(X[test]) == y[test])) > 0.9
    small = [active_logistic_student(X[public], lambda j: int(y[public][j]), budget=8, seed=0)
             for _ in range(2)]
    assert small[0].queried == small[1].queried == run.queried[:8]
    assert np.array_equal(small[0].model.coef, small[1].model.coef)


def test_active_student_refuses_bad_input(mushroom: LibsvmData) -> None:
    X = mushroom.features[:10]
    with pytest.raises(InvalidArgument, match="budget=0"):
        active_logistic_student(X, lambda j: 0, budget=0, seed=0)
    with pytest.raises(InvalidArgument, match="slack=-1"):
        active_logistic_student(X, lambda j: 0, budget=2, seed=0, slack=-1)
    with pytest.raises(InvalidArgument, match=r"label\(0\)=2"):
        active_logistic_student(X, lambda j: 2, budget=2, seed=0)
