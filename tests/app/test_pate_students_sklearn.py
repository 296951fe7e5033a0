"""001 §5's linear teachers and students (scikit-learn) on the real mushroom data, small and fast.

Exact claims: fits are deterministic; a teacher depends on its own part only, so removing one
record changes one teacher (the per-record assignment); the active learner asks at most
``budget`` labels, only at the positions it reports.  Accuracy thresholds are loose sanity
checks (mushroom is almost linearly separable), not reproduced numbers.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]

from privref.app.experiments.datasets import LibsvmData, default_data_dir, load_known
from privref.app.experiments.pate_students_sklearn import (
    AGNOSTIC_C0,
    active_logistic_student,
    agnostic_threshold,
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


# ------------------------------------------------------------------ the agnostic rule


def test_agnostic_threshold_formula() -> None:
    """Δ = b + √b(√r + √r'), b = C0·ln(n + 1)/n.  At r = 1/10, r' = 4/10: √r' = 2√r, so
    Δ = b + 3√(b/10); at r = r' = 0, Δ = b; at n = 0, +∞ (the first point is always asked)."""
    assert AGNOSTIC_C0 == 8
    b = 8 * math.log(10) / 9
    assert agnostic_threshold(9, 0.1, 0.4) == pytest.approx(b + 3 * math.sqrt(b / 10), rel=1e-12)
    assert agnostic_threshold(1, 0.0, 0.0) == pytest.approx(8 * math.log(2), rel=1e-12)
    assert agnostic_threshold(99, 0.25, 0.25, c0=0.5) == pytest.approx(
        0.5 * math.log(100) / 99 + 2 * 0.5 * math.sqrt(0.5 * math.log(100) / 99), rel=1e-12)
    assert agnostic_threshold(0, 0.0, 0.0) == math.inf
    # b_t alone is >= 1, above every gap of rates, exactly while n <= 26: 8 ln 27 >= 26 > ...
    assert 8 * math.log(27) >= 26 and 8 * math.log(28) < 27
    assert agnostic_threshold(26, 0.0, 0.0) >= 1 > agnostic_threshold(27, 0.0, 0.0)
    for bad, name in (((-1, 0.0, 0.0), "labeled"), ((3, 1.5, 0.0), "err_best"),
                      ((3, 0.0, -0.1), "err_other")):
        with pytest.raises(InvalidArgument, match=name):
            agnostic_threshold(*bad)
    with pytest.raises(InvalidArgument, match="c0=0"):
        agnostic_threshold(3, 0.0, 0.0, c0=0)


def _stream(n: int, flips: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """n points of [-5, 5] in an interleaved order, label 1(x > 0), with the labels at
    ``flips`` flipped (noise)."""
    xs = np.array([((-1) ** i) * 5 * (1 + (i * 7) % n) / n for i in range(n)])
    X = np.column_stack([xs, np.ones(n)])
    y = (xs > 0).astype(np.uint8)
    for i in flips:
        y[i] ^= 1
    return X, y


def test_agnostic_equals_cal_when_the_threshold_is_below_one_mistake() -> None:
    """With c0 = 1e-6 and n <= 20, Δ <= b + 2√b < 1/n (checked below for every n), so a gap of
    one mistake (rate gap 1/n) always exceeds Δ and a gap of 0 never does: the agnostic rule
    makes CAL's decision (slack 0) at every point, and the two runs are identical."""
    X, y = _stream(20, ())
    c0 = 1e-6
    assert all(agnostic_threshold(n, 1.0, 1.0, c0) < 1 / n for n in range(1, 21))
    cal = active_logistic_student(X, lambda j: int(y[j]), budget=20, seed=0)
    agn = active_logistic_student(X, lambda j: int(y[j]), budget=20, seed=0, rule="agnostic",
                                  c0=c0)
    assert cal.inferred  # CAL does infer here, so the comparison is not vacuous
    assert (agn.queried, agn.labels, agn.inferred, agn.processed) == \
        (cal.queried, cal.labels, cal.inferred, cal.processed)
    assert np.array_equal(agn.model.coef, cal.model.coef)


def test_agnostic_asks_at_least_as_much_as_cal_on_a_noisy_stream() -> None:
    """24 noisy points: while |L| <= 26, b_t >= 1 (previous test), so with C0 = 8 the agnostic
    rule infers only where one constrained fit is infeasible; CAL infers on every strict gap."""
    X, y = _stream(24, (3, 8, 15))
    cal = active_logistic_student(X, lambda j: int(y[j]), budget=24, seed=0)
    agn = active_logistic_student(X, lambda j: int(y[j]), budget=24, seed=0, rule="agnostic")
    assert cal.inferred and len(agn.queried) >= len(cal.queried)
    assert agn.queried[0] == 0  # L empty: Δ = +∞, the first point is always asked
    assert sorted(agn.queried + agn.inferred) == list(range(agn.processed))
    again = active_logistic_student(X, lambda j: int(y[j]), budget=24, seed=0, rule="agnostic")
    assert (again.queried, again.inferred) == (agn.queried, agn.inferred)
    assert np.array_equal(again.model.coef, agn.model.coef)
    short = active_logistic_student(X, lambda j: int(y[j]), budget=5, seed=0, rule="agnostic")
    assert len(short.queried) == 5 and short.queried == agn.queried[:5]  # budget semantics


def test_active_rule_is_validated() -> None:
    X, _ = _stream(6, ())
    with pytest.raises(InvalidArgument, match="rule='both'"):
        active_logistic_student(X, lambda j: 0, budget=2, seed=0, rule="both")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="c0=-1"):
        active_logistic_student(X, lambda j: 0, budget=2, seed=0, rule="agnostic", c0=-1)
