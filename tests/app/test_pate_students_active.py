"""The active students of privref table4 (app.experiments.pate_students_active): IWAL-CAL with a
logistic ERM oracle (Beygelzimer et al. 2010 Algorithm 1) and margin sampling (not 001's method).

Exact claims: each requested label carries weight exactly 1/P of its coin; the students fit only
the labels they requested; at most ℓ requests; the margin student requests the smallest |score|;
and the ledger's post-processing check holds for the app's IWAL student on a tiny instance."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from privref.app.experiments import pate_students_active as psa
from privref.app.experiments.pate_students_sklearn import fit_logistic
from privref.proofs import Verdict
from privref.proofs.p001 import iwal_privacy
from privref.reference.errors import InvalidArgument
from privref.reference.learners.iwal import WeightedExample
from privref.reference.program import Program, sample


def _toy(n: int, seed: int) -> tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = ((X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=n)) > 0).astype(np.uint8)
    return X, y


def _plain(y: int) -> Program[int]:
    return y
    yield  # pragma: no cover


def _iwal(X: Any, y: Any, budget: int, c0: float, seed: int, gap: str = "logistic") -> Any:
    asked: list[int] = []

    def service(j: int) -> Program[int]:
        asked.append(j)
        return _plain(int(y[j]))

    run = sample(lambda: psa.iwal_logistic_program(X, service, budget=budget, seed=0, c0=c0,
                                                   gap=gap), rng=np.random.default_rng(seed))
    return run, asked


@pytest.mark.deep
def test_iwal_weights_answers_and_output() -> None:
    X, y = _toy(30, 1)
    run, asked = _iwal(X, y, 30, 1e-3, 2)
    assert list(run.queried) == asked and 0 < len(asked) < 30     # active: skipped points
    assert any(e.probability < 1 for e in run.examples)
    for e in run.examples:
        assert e.weight == 1 / e.probability and e.label == y[e.position]
        assert e.probability == run.probabilities[e.position]
    assert psa.importance_weights(run) == tuple(1 / e.probability for e in run.examples)
    # the output is the weighted fit on the requested labels only, weights 1/P
    expected = fit_logistic(X[list(run.queried)], np.asarray(run.labels, dtype=np.uint8), seed=0,
                            weights=np.asarray([float(1 / e.probability) for e in run.examples]))
    assert np.array_equal(run.model.coef, expected.coef)
    assert run.model.intercept == expected.intercept


@pytest.mark.deep
def test_iwal_budget_and_determinism() -> None:
    X, y = _toy(30, 3)
    run, asked = _iwal(X, y, 7, 1e-3, 4)
    assert len(asked) == 7 and run.processed == asked[-1] + 1
    again, _ = _iwal(X, y, 7, 1e-3, 4)
    assert again.queried == run.queried and again.probabilities == run.probabilities
    with pytest.raises(InvalidArgument, match="gap"):
        psa.iwal_logistic_program(X, lambda j: _plain(0), budget=3, seed=0, gap="hinge")
    with pytest.raises(InvalidArgument, match="c0"):
        psa.iwal_logistic_program(X, lambda j: _plain(0), budget=3, seed=0, c0=-1.0)


def test_oracle_forced_fit_and_surrogate_gap() -> None:
    X, y = _toy(30, 5)
    oracle = psa.LogisticOracle(X, seed=0)
    exs = [WeightedExample(j, int(y[j]), Fraction(1, 1 + j % 3)) for j in range(12)]
    h = oracle.fit(exs, None)
    assert h is not None
    guess = int(oracle.predict(h, [20])[0])
    other = oracle.fit(exs, (20, 1 - guess))
    assert other is not None and int(oracle.predict(other, [20])[0]) == 1 - guess
    sign = 2.0 * np.asarray([e.label for e in exs]) - 1
    w = np.asarray([float(e.weight) for e in exs])
    rows = X[[e.position for e in exs]]
    manual = float(np.dot(w, np.log1p(np.exp(-sign * other.scores(rows)))
                          - np.log1p(np.exp(-sign * h.scores(rows))))) / 20
    assert oracle.surrogate_gap(h, other, exs, 21) == pytest.approx(manual, rel=1e-9)


@pytest.mark.deep
def test_the_printed_01_gap_asks_for_every_label_in_high_dimension() -> None:
    """With more features than labels, a linear fit gives any new point either label at no 0/1
    cost: G_k = 0 <= threshold, so the 0/1 gap requests every point (why the default is the
    surrogate gap)."""
    rng = np.random.default_rng(6)
    X = rng.normal(size=(10, 30))
    y = (X[:, 0] > 0).astype(np.uint8)
    _, asked = _iwal(X, y, 10, 1e-6, 7, gap="01")
    assert asked == list(range(10))


def test_margin_sampling_requests_the_smallest_score() -> None:
    X, y = _toy(30, 8)
    asked: list[int] = []

    def service(j: int) -> Program[int]:
        asked.append(j)
        return _plain(int(y[j]))

    res = sample(lambda: psa.margin_sampling_program(X, service, budget=8, seed=0),
                 rng=np.random.default_rng(0))
    assert list(res.queried) == asked and len(asked) == 8 == len(set(asked))
    for i, j in enumerate(asked):
        labels = [int(y[q]) for q in asked[:i]]
        if len(set(labels)) < 2:  # constant model: stream order
            assert j == min(set(range(30)) - set(asked[:i])) and res.margins[i] is None
            continue
        h = fit_logistic(X[asked[:i]], np.asarray(labels, dtype=np.uint8), seed=0)
        score = np.abs(h.scores(X))
        score[asked[:i]] = np.inf
        assert j == int(np.argmin(score)) and res.margins[i] == float(score[j])
    final = fit_logistic(X[asked], y[asked], seed=0)
    assert np.array_equal(res.model.coef, final.coef)


def _app_student(votes: tuple[int, ...]) -> Callable[[Callable[[int], Program[int]]], Program[Any]]:
    del votes  # the app's student never sees them
    X = np.array([[0.0], [1.0], [2.0]])
    return lambda service: psa.iwal_logistic_program(X, service, budget=iwal_privacy.CHECK_BUDGET,
                                                     seed=0, c0=iwal_privacy.CHECK_C0)


@pytest.mark.deep
def test_ledger_privacy_check_holds_for_the_app_student() -> None:
    """The exact post-processing check of the ledger with the app's IWAL student (logistic
    oracle) on three one-feature points: the law of the whole ASQ run stays within 2^ℓ."""
    X = np.array([[0.0], [1.0], [2.0]])
    result = iwal_privacy.check_asq_iwal_post_processing(
        _app_student, model_key=lambda h: tuple(int(v) for v in h.predict(X)))
    assert result.verdict is Verdict.HOLDS, result.evidence
