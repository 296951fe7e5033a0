"""PipelineDP (OpenMined and Google's DP aggregation framework) as declared black-box targets.

Tested version: ``pipeline-dp`` 0.3.1 (import ``pipeline_dp``) on its local backend
(``pipeline_dp.LocalBackend``), with PyDP (``python-dp`` 1.1.5) underneath.  Suite:
``pipelinedp.suite.toml`` beside this file; coverage: ``pipelinedp.coverage.toml``; notes and
results: ``docs/library-pipelinedp.md``.

**Randomness cannot be seeded.**  PipelineDP draws every noise value from PyDP's
``LaplaceMechanism`` / ``GaussianMechanism`` (``pipeline_dp.dp_computations``) and every
partition-selection decision from PyDP's strategies, all fed by the C++ library's ``SecureURBG``
(seeded by the operating system, no seeding API).  Contribution bounding samples records with
numpy's global generator (``pipeline_dp.sampling_utils``); the targets seed it from ``rng`` so
that part is reproducible, but the noise is not: every target is ``uses_own_randomness=True``.

**Neighbour relation: user level.**  PipelineDP's guarantee is for adding or removing one privacy
unit (``privacy_id``) with all its records.  A dataset here is a list of *users*, each entry the
tuple of that user's values in the audited partition, e.g. ``[(1.0,), (4.0, 4.0, 4.0)]``; the
relation is add-remove on users (substitution of one user for the entry that says so).

**Glue: one draw per public partition.**  ``fn(data, rng, size)`` runs ONE
``DPEngine.aggregate`` over ``size`` public partitions, partition ``i`` holding a copy of the
users of ``data`` under privacy ids ``(i, u)``.  PipelineDP computes each public partition on
its own contributions with its own noise, and no privacy unit reaches two partitions, so the
value of partition ``i`` has exactly the law of the same aggregation run on ``data`` alone, and
the ``size`` values are independent (about 75 µs a draw instead of about 1 ms per engine run).
PipelineDP refuses an empty collection, so every collection also holds one filler record in a
partition outside the public ones (:data:`FILLER_PARTITION`), which PipelineDP drops.
Claims are the accountant's: ``NaiveBudgetAccountant(total_epsilon, total_delta)`` (the
``PLDBudgetAccountant`` when it says so, which needs the ``dp-accounting`` distribution); the
tests check that the accountant spends exactly that budget.  Outputs are floats (both views
audited) or, for ``select_partitions``, bools (partition kept).

References: https://pipelinedp.io/ , https://github.com/OpenMined/PipelineDP (``dp_engine.py``,
``dp_computations.py``, ``budget_accounting.py``); Desfontaines, Voss, Gipson and Mandayam,
"Differentially private partition selection", PoPETs 2022.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from privref.audits.blackbox.declarations import declare

__all__ = [
    "add_dp_noise_count",
    "count_gaussian_pld",
    "count_laplace",
    "count_laplace_misconfigured_bounds_already_enforced",
    "count_laplace_misconfigured_double_spent",
    "count_laplace_misconfigured_record_privacy_id",
    "gaussian_float_leak",
    "mean_laplace",
    "percentile_laplace",
    "privacy_id_count_laplace",
    "select_partitions_gaussian",
    "select_partitions_laplace",
    "select_partitions_misconfigured_record_privacy_id",
    "select_partitions_truncated_geometric",
    "sum_gaussian",
    "sum_laplace",
    "sum_laplace_misconfigured_substitution",
    "variance_laplace",
]

LIBRARY = "pipeline-dp"
"""The distribution these targets audit (``pip install 'privref[pipelinedp]'``)."""

GAUSSIAN_LEAK_EPSILON = 2.0
GAUSSIAN_LEAK_DELTA = 1e-5
"""The known-bug configuration: a COUNT with Gaussian noise under
``NaiveBudgetAccountant(2, 1e-5)`` gets PyDP's ``GaussianMechanism(2, 1e-5, 1)`` (σ = 1.994,
noise on the grid 2^-55)."""

Row = tuple[int, Hashable, float]
Users = Sequence[Sequence[Any]]

Dataset = list[tuple[float, ...]]
_NONE: Dataset = []
_ONE: Dataset = [(1.0,)]
_THREE: Dataset = [(1.0, 1.0, 1.0)]
_COUNT_PAIRS: list[list[Dataset]] = [[_THREE, _NONE], [_THREE + _ONE, _ONE]]
_COUNT_ELEMENTS = [(1.0,), (1.0, 1.0, 1.0)]
_SUM_PAIRS: list[list[Dataset]] = [[[(4.0, 4.0, 4.0)], _NONE], [[(4.0,), (0.0,)], [(0.0,)]]]
_SUM_ELEMENTS = [(0.0,), (4.0,), (4.0, 4.0, 4.0)]


def _lib(name: str) -> Any:
    """The library module ``name``, imported when a target first runs (so this module imports
    without it; typed Any, as the library ships no type information)."""
    return importlib.import_module(name)


def _seed_numpy(rng: object) -> None:
    """Seed numpy's global generator (PipelineDP's contribution-bounding sampler) from ``rng``."""
    np = _lib("numpy")
    integers = getattr(rng, "integers", None)
    if callable(integers):
        np.random.seed(int(integers(0, 2**32)))


FILLER_PARTITION = -1
"""The partition of the one filler record every collection gets (PipelineDP refuses an empty
collection, ``ValueError: col must be non-empty``): it is not among the public partitions, so
PipelineDP drops it, and its privacy unit reaches no audited partition."""


def _rows(data: Users, size: int, record_ids: bool = False) -> list[Row]:
    """``size`` partitions, each a copy of the users of ``data`` under its own privacy ids
    (``(copy, user)``, or ``(copy, user, record)`` when each record is its own privacy unit),
    after one filler record in :data:`FILLER_PARTITION`."""
    rows: list[Row] = [(FILLER_PARTITION, ("filler",), 0.0)]
    for copy in range(size):
        for user, values in enumerate(data):
            for record, value in enumerate(values):
                pid: Hashable = (copy, user, record) if record_ids else (copy, user)
                rows.append((copy, pid, float(value)))
    return rows


def _extractors(with_privacy_id: bool = True) -> Any:
    pdp = _lib("pipeline_dp")
    return pdp.DataExtractors(
        partition_extractor=lambda r: r[0],
        privacy_id_extractor=(lambda r: r[1]) if with_privacy_id else None,
        value_extractor=lambda r: r[2])


def _aggregate(data: Users, rng: object, size: int, metric: Callable[[Any], Any],
               field: str, *, epsilon: float = 1.0, delta: float = 0.0,
               gaussian: bool = False, pld: bool = False, record_ids: bool = False,
               **params: Any) -> list[float]:
    """Run one ``DPEngine.aggregate`` with one metric over ``size`` public partitions (copies of
    ``data``) and return the metric's value in each, in partition order."""
    pdp = _lib("pipeline_dp")
    _seed_numpy(rng)
    accountant: Any = (pdp.PLDBudgetAccountant(total_epsilon=epsilon, total_delta=delta)
                       if pld else
                       pdp.NaiveBudgetAccountant(total_epsilon=epsilon, total_delta=delta))
    engine = pdp.DPEngine(accountant, pdp.LocalBackend())
    already = bool(params.get("contribution_bounds_already_enforced", False))
    aggregate = pdp.AggregateParams(
        metrics=[metric(pdp.Metrics)],
        noise_kind=pdp.NoiseKind.GAUSSIAN if gaussian else pdp.NoiseKind.LAPLACE,
        **{"max_partitions_contributed": 1, "max_contributions_per_partition": 1, **params})
    result = engine.aggregate(_rows(data, size, record_ids), aggregate,
                              _extractors(not already), public_partitions=list(range(size)))
    accountant.compute_budgets()
    values = dict(result)
    return [float(getattr(values[i], field)) for i in range(size)]


def _select(data: Users, rng: object, size: int, strategy: str, *, epsilon: float = 1.0,
            delta: float = 1e-5, record_ids: bool = False) -> list[bool]:
    """Run one ``DPEngine.select_partitions`` over ``size`` partitions (copies of ``data``) and
    return, per partition, whether it was kept."""
    pdp = _lib("pipeline_dp")
    _seed_numpy(rng)
    accountant = pdp.NaiveBudgetAccountant(total_epsilon=epsilon, total_delta=delta)
    engine = pdp.DPEngine(accountant, pdp.LocalBackend())
    params = pdp.SelectPartitionsParams(
        max_partitions_contributed=1,
        partition_selection_strategy=getattr(pdp.PartitionSelectionStrategy, strategy))
    result = engine.select_partitions(_rows(data, size, record_ids), params, _extractors())
    accountant.compute_budgets()
    kept = set(result)  # the filler partition, if kept, is not among 0..size-1
    return [i in kept for i in range(size)]


# --- COUNT ------------------------------------------------------------------------------------

_COUNT = dict(epsilon=1.0, relation="add-remove", pairs=_COUNT_PAIRS, elements=_COUNT_ELEMENTS,
              library=LIBRARY, uses_own_randomness=True)


@declare(**_COUNT)  # type: ignore[arg-type]
def count_laplace(data: Users, rng: object, size: int) -> list[float]:
    """Correct: COUNT, Laplace, ``NaiveBudgetAccountant(1, 0)``, ``max_partitions_contributed=1``,
    ``max_contributions_per_partition=1``, on users with up to 3 records.

    PipelineDP keeps one record per user (contribution bounding), so a user moves the count by
    at most 1; Laplace noise of diversity 1: true ε = 1."""
    return _aggregate(data, rng, size, lambda m: m.COUNT, "count")


@declare(**_COUNT)  # type: ignore[arg-type]
def count_laplace_misconfigured_record_privacy_id(data: Users, rng: object,
                                                  size: int) -> list[float]:
    """Misconfigured (record-level privacy id): as :func:`count_laplace`, but the
    ``privacy_id_extractor`` returns a record id, so each record is its own privacy unit.

    Contribution bounding then bounds records, not users: a user with 3 records moves the count
    by 3: true ε (user level) = 3, claimed 1."""
    return _aggregate(data, rng, size, lambda m: m.COUNT, "count", record_ids=True)


@declare(**_COUNT)  # type: ignore[arg-type]
def count_laplace_misconfigured_bounds_already_enforced(data: Users, rng: object,
                                                        size: int) -> list[float]:
    """Misconfigured (bounds declared, not enforced): as :func:`count_laplace` with
    ``contribution_bounds_already_enforced=True`` on data where a user has 3 records in the
    partition; PipelineDP trusts ``max_contributions_per_partition=1`` and skips the bounding.

    A user moves the count by 3: true ε = 3, claimed 1."""
    return _aggregate(data, rng, size, lambda m: m.COUNT, "count",
                      contribution_bounds_already_enforced=True)


@declare(**_COUNT)  # type: ignore[arg-type]
def count_laplace_misconfigured_double_spent(data: Users, rng: object,
                                             size: int) -> list[float]:
    """Misconfigured (budget spent twice): the COUNT of :func:`count_laplace` run twice, each run
    with its own ``NaiveBudgetAccountant(1, 0)``, released as the sum of both, claimed 1.

    Two ε = 1 releases compose to 2; the sum is post-processing of the pair, so a violation of the
    sum refutes the claim.  True ε of the sum: two Laplace(1) noises moved by 2, loss tending to
    2 in the tails."""
    first = _aggregate(data, rng, size, lambda m: m.COUNT, "count")
    second = _aggregate(data, rng, size, lambda m: m.COUNT, "count")
    return [a + b for a, b in zip(first, second, strict=True)]


@declare(epsilon=GAUSSIAN_LEAK_EPSILON, delta=GAUSSIAN_LEAK_DELTA, relation="add-remove",
         pairs=[[_ONE, []]], elements=_COUNT_ELEMENTS, library=LIBRARY,
         uses_own_randomness=True)
def gaussian_float_leak(data: Users, rng: object, size: int) -> list[float]:
    """Known bug (issue 37), PipelineDP's side: COUNT with Gaussian noise under
    ``NaiveBudgetAccountant(2, 1e-5)``, configured correctly.

    PipelineDP adds noise with PyDP's ``GaussianMechanism(2, 1e-5, 1).add_noise(1.0 * count)``
    (``dp_computations.GaussianMechanism``): σ = 1.994, noise on the grid 2^-55.  From an empty
    partition (count 0.0) about 1.1% of outputs are odd multiples of 2^-55 in [2^-8, 2^-4); from
    one user (count 1.0) none is finer than 2^-53.  Expected: IEEE-754 VIOLATION, real-arithmetic
    NO_VIOLATION_FOUND."""
    return _aggregate(data, rng, size, lambda m: m.COUNT, "count",
                      epsilon=GAUSSIAN_LEAK_EPSILON, delta=GAUSSIAN_LEAK_DELTA, gaussian=True)


@declare(epsilon=0.5, delta=1e-6, relation="add-remove", pairs=_COUNT_PAIRS,
         elements=_COUNT_ELEMENTS, library=LIBRARY, uses_own_randomness=True)
def count_gaussian_pld(data: Users, rng: object, size: int) -> list[float]:
    """Correct configuration, leaky implementation: COUNT, Gaussian,
    ``PLDBudgetAccountant(0.5, 1e-6)`` (needs ``dp-accounting``).

    The PLD accountant picks σ = 8.06 for one Gaussian of l2 sensitivity 1 at (0.5, 1e-6), and
    PipelineDP builds PyDP's ``GaussianMechanism.create_from_standard_deviation(σ)``: correct in
    real arithmetic.  It leaks through its float bits like :func:`gaussian_float_leak`, with
    another pattern: the noise lies on the grid 2^-52, so from count 0 about 2% of outputs are
    odd multiples of 2^-52 in -[1, 2), while from count 1 an output there is 1 + noise with noise
    in [-3, -2), a double that is a multiple of 2^-51 (the sum is exact): none is.  Expected:
    IEEE-754 VIOLATION, real-arithmetic NO_VIOLATION_FOUND."""
    return _aggregate(data, rng, size, lambda m: m.COUNT, "count", epsilon=0.5, delta=1e-6,
                      gaussian=True, pld=True)


@declare(**_COUNT)  # type: ignore[arg-type]
def privacy_id_count_laplace(data: Users, rng: object, size: int) -> list[float]:
    """Correct: PRIVACY_ID_COUNT (distinct users), Laplace, ``NaiveBudgetAccountant(1, 0)``,
    ``max_partitions_contributed=1``: a user moves it by 1, true ε = 1."""
    return _aggregate(data, rng, size, lambda m: m.PRIVACY_ID_COUNT, "privacy_id_count")


# --- SUM, MEAN, VARIANCE, PERCENTILE ------------------------------------------------------------

_SUM = dict(epsilon=1.0, relation="add-remove", pairs=_SUM_PAIRS, elements=_SUM_ELEMENTS,
            library=LIBRARY, uses_own_randomness=True)


@declare(**_SUM)  # type: ignore[arg-type]
def sum_laplace(data: Users, rng: object, size: int) -> list[float]:
    """Correct: SUM, Laplace, ``NaiveBudgetAccountant(1, 0)``, ``min_value=0``, ``max_value=4``,
    one record per user per partition: a user moves the sum by at most 4 and the noise has
    diversity 4: true ε = 1."""
    return _aggregate(data, rng, size, lambda m: m.SUM, "sum", min_value=0.0, max_value=4.0)


@declare(epsilon=1.0, delta=1e-5, relation="add-remove", pairs=_SUM_PAIRS,
         elements=_SUM_ELEMENTS, library=LIBRARY, uses_own_randomness=True)
def sum_gaussian(data: Users, rng: object, size: int) -> list[float]:
    """Correct configuration, leaky implementation: SUM, Gaussian, ``NaiveBudgetAccountant(1,
    1e-5)``, values in [0, 4]: PyDP's ``GaussianMechanism(1, 1e-5, 4)`` (σ = 14.9, noise on the
    grid 2^-52).  From sum 0 the output is the noise; from sum 4, outputs near 0 are 4 + noise with
    noise near -4, a double on a coarser grid, so odd multiples of the fine grid appear from one
    side only (the float leak of :func:`gaussian_float_leak`).  Expected: IEEE-754 VIOLATION,
    real-arithmetic NO_VIOLATION_FOUND."""
    return _aggregate(data, rng, size, lambda m: m.SUM, "sum", delta=1e-5, gaussian=True,
                      min_value=0.0, max_value=4.0)


@declare(epsilon=1.0, relation="substitution", pairs=[[[(4.0,)], [(-4.0,)]]],
         elements=[(-4.0,), (4.0,)], library=LIBRARY, uses_own_randomness=True)
def sum_laplace_misconfigured_substitution(data: Users, rng: object,
                                           size: int) -> list[float]:
    """Misconfigured (add/remove claim read as substitution): SUM, Laplace,
    ``NaiveBudgetAccountant(1, 0)``, values in [-4, 4], claimed ε = 1 for replacing one user.

    PipelineDP's ε = 1 is for adding or removing a user (sensitivity max(|min|, |max|) = 4).
    Replacing a user's -4 by 4 moves the sum by 8: true ε under substitution = 2."""
    return _aggregate(data, rng, size, lambda m: m.SUM, "sum", min_value=-4.0, max_value=4.0)


@declare(**_SUM)  # type: ignore[arg-type]
def mean_laplace(data: Users, rng: object, size: int) -> list[float]:
    """Correct: MEAN, Laplace, ``NaiveBudgetAccountant(1, 0)``, values in [0, 4]: a noisy
    normalised sum over a noisy count (budget split in two), post-processing; true ε <= 1."""
    return _aggregate(data, rng, size, lambda m: m.MEAN, "mean", min_value=0.0, max_value=4.0)


@declare(**_SUM)  # type: ignore[arg-type]
def variance_laplace(data: Users, rng: object, size: int) -> list[float]:
    """Correct: VARIANCE, Laplace, ``NaiveBudgetAccountant(1, 0)``, values in [0, 4]: noisy
    count, normalised sum and sum of squares (budget split in three), post-processing; true
    ε <= 1."""
    return _aggregate(data, rng, size, lambda m: m.VARIANCE, "variance", min_value=0.0,
                      max_value=4.0)


@declare(**_SUM)  # type: ignore[arg-type]
def percentile_laplace(data: Users, rng: object, size: int) -> list[float]:
    """Correct: PERCENTILE(50), Laplace, ``NaiveBudgetAccountant(1, 0)``, values in [0, 4]:
    PyDP's ``QuantileTree`` with Laplace noise on its counts; true ε <= 1."""
    return _aggregate(data, rng, size, lambda m: m.PERCENTILE(50), "percentile_50",
                      min_value=0.0, max_value=4.0)


# --- add_dp_noise -----------------------------------------------------------------------------

@declare(**_COUNT)  # type: ignore[arg-type]
def add_dp_noise_count(data: Users, rng: object, size: int) -> list[float]:
    """Correct: ``DPEngine.add_dp_noise`` (pre-aggregated data) with Laplace,
    ``l0_sensitivity=1``, ``linf_sensitivity=1``, ``NaiveBudgetAccountant(1, 0)``, on the number of
    users of ``data`` (each user counted once, as the caller must ensure): true ε = 1."""
    pdp = _lib("pipeline_dp")
    _seed_numpy(rng)
    accountant = pdp.NaiveBudgetAccountant(total_epsilon=1.0, total_delta=0.0)
    engine = pdp.DPEngine(accountant, pdp.LocalBackend())
    params = pdp.AddDPNoiseParams(noise_kind=pdp.NoiseKind.LAPLACE, l0_sensitivity=1,
                                  linf_sensitivity=1)
    users = len(data)
    result = engine.add_dp_noise([(i, users) for i in range(size)], params)
    accountant.compute_budgets()
    values = dict(result)
    return [float(values[i]) for i in range(size)]


# --- select_partitions ------------------------------------------------------------------------

_SELECT = dict(epsilon=1.0, delta=1e-5, relation="add-remove",
               pairs=[[_ONE, []], [_ONE * 10, _ONE * 9]], elements=_COUNT_ELEMENTS,
               library=LIBRARY, uses_own_randomness=True)


@declare(**_SELECT)  # type: ignore[arg-type]
def select_partitions_truncated_geometric(data: Users, rng: object, size: int) -> list[bool]:
    """Correct: ``select_partitions`` with ``TRUNCATED_GEOMETRIC``, ``NaiveBudgetAccountant(1,
    1e-5)``, ``max_partitions_contributed=1``: whether the partition is kept (PyDP's optimal
    strategy, Desfontaines et al. 2022).  Expected clean."""
    return _select(data, rng, size, "TRUNCATED_GEOMETRIC")


@declare(**_SELECT)  # type: ignore[arg-type]
def select_partitions_laplace(data: Users, rng: object, size: int) -> list[bool]:
    """Correct: ``select_partitions`` with ``LAPLACE_THRESHOLDING`` at (1, 1e-5): expected
    clean."""
    return _select(data, rng, size, "LAPLACE_THRESHOLDING")


@declare(**_SELECT)  # type: ignore[arg-type]
def select_partitions_gaussian(data: Users, rng: object, size: int) -> list[bool]:
    """Correct: ``select_partitions`` with ``GAUSSIAN_THRESHOLDING`` at (1, 1e-5): expected
    clean."""
    return _select(data, rng, size, "GAUSSIAN_THRESHOLDING")


@declare(epsilon=1.0, delta=1e-3, relation="add-remove",
         pairs=[[[(1.0,) * 5], []], [[(1.0,) * 5] * 2, [(1.0,) * 5]]],
         elements=[(1.0,), (1.0,) * 5], library=LIBRARY, uses_own_randomness=True)
def select_partitions_misconfigured_record_privacy_id(data: Users, rng: object,
                                                      size: int) -> list[bool]:
    """Misconfigured (record-level privacy id): ``select_partitions`` with
    ``TRUNCATED_GEOMETRIC`` at (1, 1e-3) but each record its own privacy unit, on users with 5
    records.  One user then counts as 5: the keep probability from 5 records is 0.0858 (PyDP's
    ``probability_of_keep``) against 0 from none, far above δ = 1e-3."""
    return _select(data, rng, size, "TRUNCATED_GEOMETRIC", delta=1e-3, record_ids=True)
