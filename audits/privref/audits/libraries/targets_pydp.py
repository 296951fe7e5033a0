"""PyDP (Google's differential-privacy library for Python) as declared black-box targets.

Tested version: ``python-dp`` 1.1.5 (import ``pydp``), the pybind11 binding of Google's C++
library.  Suite: ``pydp.suite.toml`` beside this file; coverage: ``pydp.coverage.toml``; notes and
results: ``docs/library-pydp.md``.

**Randomness cannot be seeded.**  Every draw of PyDP comes from the C++ library's
``differential_privacy::SecureURBG``, a process-wide ``absl::BitGen`` seeded by the operating
system; PyDP exposes no seeding API.  Every target here is therefore declared
``uses_own_randomness=True`` and draws nothing from ``rng``: reports are valid (each draw is fresh
and independent) but not bit-reproducible from ``--seed``, and the suite runs at confidence
1 - 10^-6 per entry.

**Glue.**  Each target is vectorized, ``fn(data, rng, size)``: it builds the PyDP object once
and calls it ``size`` times (PyDP has no batch sampler; a call costs 6-15 microseconds).  The
PyDP algorithms (``pydp.algorithms.laplacian``) are run through ``quick_result(entries)``, which
resets the algorithm and spends its whole budget on the entries given.  Claims are stated in
PyDP's terms, exactly as passed to the constructor (``epsilon``, ``delta``, the ``l0`` / ``linf``
sensitivities, the clamp ``lower_bound`` / ``upper_bound``); the tests check that the objects
report the same ``epsilon`` / ``delta`` back.  A float claim is taken at its exact binary value.
The library is imported inside the targets, so this module imports without PyDP.

Outputs: ints for ``dtype="int"`` algorithms and for ``add_noise(int)`` (noise rounded to an
integer), floats for ``dtype="float"`` and ``add_noise(float)``, bools for partition selection.
Float outputs are audited in both views (IEEE-754: events that read float bits count; real
arithmetic: they do not).

References: PyDP docs https://pydp.readthedocs.io/en/latest/ ; Google's C++ library
https://github.com/google/differential-privacy (``cc/algorithms``: ``numerical-mechanisms.h``,
``distributions.cc``, ``partition-selection.h``); the float attack: Mironov, "On significance of
the least significant bits for differential privacy", CCS 2012.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from privref.audits.blackbox.declarations import declare

__all__ = [
    "bounded_mean",
    "bounded_standard_deviation",
    "bounded_sum",
    "bounded_sum_misconfigured_double_spent",
    "bounded_variance",
    "count",
    "count_misconfigured_record_level",
    "count_user_level",
    "gaussian_float_leak",
    "gaussian_mechanism_count_int",
    "gaussian_mechanism_sum_misconfigured",
    "laplace_distribution_count",
    "laplace_mechanism_count",
    "laplace_mechanism_sum_misconfigured",
    "laplace_noised_value_above_threshold",
    "max_",
    "median",
    "min_",
    "ml_laplace_bounded_domain",
    "partition_selection_gaussian",
    "partition_selection_laplace",
    "partition_selection_misconfigured_record_level",
    "partition_selection_pre_threshold",
    "partition_selection_truncated_geometric",
    "percentile",
    "quantile_tree_median",
]

LIBRARY = "python-dp"
"""The distribution these targets audit (``pip install 'privref[pydp]'``)."""

GAUSSIAN_LEAK_EPSILON = 2.0
GAUSSIAN_LEAK_DELTA = 1e-5
"""The configuration of the known-bug fixture: ``GaussianMechanism(2, 1e-5, 1)`` has standard
deviation 1.994, so its noise lies on the grid 2^-55 (granularity: the next power of two of
2σ/2^57, ``GaussianDistribution::GetGranularity``)."""

PARTITION_EPSILON = 1.0
PARTITION_DELTA = 1e-5
"""The (ε, δ) of the correct partition-selection targets (``max_partitions_contributed=1``)."""


def _lib(name: str) -> Any:
    """The library module ``name``, imported when a target first runs (so this module imports
    without it; typed Any, as the library ships no type information)."""
    return importlib.import_module(name)


def _repeat(call: Callable[[], Any], size: int) -> list[Any]:
    return [call() for _ in range(size)]


def _clamp(data: Sequence[Any], low: int, high: int) -> list[int]:
    return [min(max(int(x), low), high) for x in data]


# --- pydp.algorithms.numerical_mechanisms ----------------------------------------------------

@declare(epsilon=0.5, relation="add-remove", pairs=[[[0], []], [[0, 0], [0]]], elements=[0],
         library=LIBRARY, uses_own_randomness=True)
def laplace_mechanism_count(data: list[Any], rng: object, size: int) -> list[float]:
    """Correct: ``LaplaceMechanism(epsilon=0.5, sensitivity=1).add_noise(float(len(data)))``.

    A count moves by 1 when an entry is added; Laplace noise of diversity 1/ε = 2: true ε = 1/2.
    PyDP draws Laplace on the grid 2^-40·(rounded diversity) and rounds the input to that grid
    first, so the float bits carry nothing: expected clean in both views."""
    LaplaceMechanism = _lib("pydp.algorithms.numerical_mechanisms").LaplaceMechanism
    mech = LaplaceMechanism(0.5, 1.0)
    value = float(len(data))
    return _repeat(lambda: mech.add_noise(value), size)


@declare(epsilon=0.5, relation="add-remove", pairs=[[[4], []], [[4, 0], [0]]], elements=[0, 4],
         bounds=(0, 4), library=LIBRARY, uses_own_randomness=True)
def laplace_mechanism_sum_misconfigured(data: list[Any], rng: object, size: int) -> list[int]:
    """Misconfigured (sensitivity understated): entries clamped to [0, 4] and summed, then
    ``LaplaceMechanism(epsilon=0.5, sensitivity=1).add_noise(int)``.

    Adding an entry moves the sum by up to 4 but the mechanism was told 1: true ε = 4·1/2 = 2
    (PyDP would be right with ``sensitivity=4``).  Integer outputs (noise rounded)."""
    LaplaceMechanism = _lib("pydp.algorithms.numerical_mechanisms").LaplaceMechanism
    mech = LaplaceMechanism(0.5, 1.0)
    value = sum(_clamp(data, 0, 4))
    return _repeat(lambda: mech.add_noise(value), size)


@declare(epsilon=1.0, delta=1e-5, relation="add-remove", pairs=[[[0], []], [[0, 0], [0]]],
         elements=[0], library=LIBRARY, uses_own_randomness=True)
def gaussian_mechanism_count_int(data: list[Any], rng: object, size: int) -> list[int]:
    """Correct: ``GaussianMechanism(epsilon=1, delta=1e-5, sensitivity=1).add_noise(len(data))``
    on an int (the noise rounded to an integer, post-processing).

    PyDP calibrates σ = 3.73 with the analytic Gaussian (Balle and Wang, ICML 2018), which is
    (1, 1e-5)-DP for an l2 sensitivity 1: expected NO_VIOLATION_FOUND."""
    GaussianMechanism = _lib("pydp.algorithms.numerical_mechanisms").GaussianMechanism
    mech = GaussianMechanism(1.0, 1e-5, 1.0)
    value = len(data)
    return _repeat(lambda: mech.add_noise(value), size)


@declare(epsilon=1.0, delta=1e-5, relation="add-remove", pairs=[[[4], []], [[4, 0], [0]]],
         elements=[0, 4], bounds=(0, 4), library=LIBRARY, uses_own_randomness=True)
def gaussian_mechanism_sum_misconfigured(data: list[Any], rng: object, size: int) -> list[int]:
    """Misconfigured (sensitivity understated): entries clamped to [0, 4] and summed, then
    ``GaussianMechanism(epsilon=1, delta=1e-5, sensitivity=1).add_noise(int)``.

    The true l2 sensitivity is 4: the mechanism is 4/σ = 1.07-GDP, whose ε at δ = 1e-5 is about
    4.4 (Dong, Roth and Su 2022, Corollary 2.13), far above the claimed 1."""
    GaussianMechanism = _lib("pydp.algorithms.numerical_mechanisms").GaussianMechanism
    mech = GaussianMechanism(1.0, 1e-5, 1.0)
    value = sum(_clamp(data, 0, 4))
    return _repeat(lambda: mech.add_noise(value), size)


@declare(epsilon=GAUSSIAN_LEAK_EPSILON, delta=GAUSSIAN_LEAK_DELTA, relation="add-remove",
         pairs=[[[0], []]], elements=[0], library=LIBRARY, uses_own_randomness=True)
def gaussian_float_leak(data: list[Any], rng: object, size: int) -> list[float]:
    """Known bug (issue 37): ``GaussianMechanism(2, 1e-5, 1).add_noise(float(len(data)))``,
    configured correctly, leaks through its float bits.

    σ = 1.994 puts the noise on the grid 2^-55.  From count 0.0 the output is the noise itself:
    about 1.1% of outputs are odd multiples of 2^-55 in [2^-8, 2^-4).  From count 1.0 an output in
    that range is 1 + noise with noise in (-1, -1/2), a double that is a multiple of 2^-53, and the
    sum is exact (Sterbenz): no output there is finer than 2^-53.  The event has probability about
    0.011 on ``[]`` and 0 on ``[0]``, far above δ = 1e-5: the implementation is not (2, 1e-5)-DP
    (true ε infinite at that δ).  In real arithmetic the mechanism is the analytic Gaussian and
    correct.  Expected: IEEE-754 VIOLATION, real-arithmetic NO_VIOLATION_FOUND.  The leak is not
    specific to this σ: the noise's grid (about 2σ/2^57) is finer than the spacing of doubles of
    magnitude above about σ/8, so for every σ some output binade holds odd multiples of the grid
    from one count and none from its neighbour (PipelineDP's PLD entry shows it at σ = 8.06).
    Integer outputs (``add_noise(int)``) do not leak."""
    GaussianMechanism = _lib("pydp.algorithms.numerical_mechanisms").GaussianMechanism
    mech = GaussianMechanism(GAUSSIAN_LEAK_EPSILON, GAUSSIAN_LEAK_DELTA, 1.0)
    value = float(len(data))
    return _repeat(lambda: mech.add_noise(value), size)


@declare(epsilon=1.0, relation="add-remove", pairs=[[[0] * 3, [0] * 2], [[0] * 4, [0] * 3]],
         elements=[0], library=LIBRARY, uses_own_randomness=True)
def laplace_noised_value_above_threshold(data: list[Any], rng: object,
                                         size: int) -> list[bool]:
    """Correct: ``LaplaceMechanism(epsilon=1, sensitivity=1).noised_value_above_threshold(
    float(len(data)), 3.0)``: whether the noisy count exceeds 3 (one Laplace draw of diversity 1,
    post-processed): true ε <= 1 by post-processing."""
    LaplaceMechanism = _lib("pydp.algorithms.numerical_mechanisms").LaplaceMechanism
    mech = LaplaceMechanism(1.0, 1.0)
    value = float(len(data))
    return _repeat(lambda: bool(mech.noised_value_above_threshold(value, 3.0)), size)


# --- pydp.distributions -----------------------------------------------------------------------

@declare(epsilon=0.5, relation="add-remove", pairs=[[[0], []], [[0, 0], [0]]], elements=[0],
         library=LIBRARY, uses_own_randomness=True)
def laplace_distribution_count(data: list[Any], rng: object, size: int) -> list[float]:
    """Correct: ``len(data) + LaplaceDistribution(epsilon=0.5, sensitivity=1).sample()``.

    The raw sampler with its own (ε, sensitivity) parameters: diversity 2, true ε = 1/2.  Its
    samples lie on the grid 2^-40·2 and a count plus a grid value is exact for |output| < 2^12, so
    the bits carry nothing: expected clean in both views."""
    LaplaceDistribution = _lib("pydp.distributions").LaplaceDistribution
    dist = LaplaceDistribution(epsilon=0.5, sensitivity=1.0)
    value = float(len(data))
    return _repeat(lambda: value + dist.sample(), size)


@declare(epsilon=1.0, relation="add-remove", pairs=[[[0], []], [[0] * 4, [0] * 3]],
         elements=[0], library=LIBRARY, uses_own_randomness=True)
def ml_laplace_bounded_domain(data: list[Any], rng: object, size: int) -> list[float]:
    """Correct: ``pydp.ml.mechanisms.laplace.LaplaceBoundedDomain`` (diffprivlib's port) with
    ``set_epsilon(1)``, ``set_sensitivity(1)``, ``set_bounds(0, 4)`` randomising the count clamped
    to [0, 4]: Laplace noise rescaled so the output stays in [0, 4] (Holohan et al. 2018), claimed
    ε = 1.  Correct in real arithmetic, leaky as implemented (a finding of this suite): the noise
    is computed in floats from a uniform draw and added to the value, so from count 0 most
    outputs in (0, 1/2) are finer than 2^-53, while from count 1 an output there is 1 + noise,
    exact (Sterbenz) and a multiple of 2^-53 (Mironov, CCS 2012).  Expected: IEEE-754 VIOLATION,
    real-arithmetic NO_VIOLATION_FOUND.  (The ``Laplace``, ``LaplaceTruncated`` and
    ``LaplaceFolded`` classes of the same module raise TypeError in 1.1.5.)"""
    import warnings

    LaplaceBoundedDomain = _lib("pydp.ml.mechanisms.laplace").LaplaceBoundedDomain
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mech = LaplaceBoundedDomain()
        mech.set_epsilon(1.0)
        mech.set_sensitivity(1)
        mech.set_bounds(0, 4)
    value = float(min(len(data), 4))
    return _repeat(lambda: float(mech.randomise(value)), size)


# --- pydp.algorithms.laplacian ----------------------------------------------------------------

@declare(epsilon=0.5, relation="add-remove", pairs=[[[0], []], [[0, 0], [0]]], elements=[0],
         library=LIBRARY, uses_own_randomness=True)
def count(data: list[Any], rng: object, size: int) -> list[int]:
    """Correct: ``Count(epsilon=0.5).quick_result(data)`` (l0 = linf = 1: one record per user).

    Laplace noise of diversity l0·linf/ε = 2 rounded to an integer: true ε = 1/2."""
    Count = _lib("pydp.algorithms.laplacian").Count
    algo = Count(epsilon=0.5, dtype="int")
    entries = [int(x) for x in data]
    return _repeat(lambda: algo.quick_result(entries), size)


def _records(data: Sequence[Any]) -> list[int]:
    """A dataset of users, each entry the number of records of one user, as PyDP's records."""
    return [1 for k in data for _ in range(int(k))]


@declare(epsilon=0.5, relation="add-remove", pairs=[[[3], []], [[3, 1], [1]]],
         elements=[1, 2, 3], library=LIBRARY, uses_own_randomness=True)
def count_misconfigured_record_level(data: list[Any], rng: object, size: int) -> list[int]:
    """Misconfigured (record-level bound for user-level privacy): each entry is a user with up
    to 3 records; ``Count(epsilon=0.5)`` (linf_sensitivity = 1) counts the records.

    PyDP's Count does not bound contributions; it trusts ``linf_sensitivity``.  Adding a user
    with 3 records moves the count by 3: true ε = 3·1/2 = 3/2."""
    Count = _lib("pydp.algorithms.laplacian").Count
    algo = Count(epsilon=0.5, dtype="int")
    entries = _records(data)
    return _repeat(lambda: algo.quick_result(entries), size)


@declare(epsilon=0.5, relation="add-remove", pairs=[[[3], []], [[3, 1], [1]]],
         elements=[1, 2, 3], library=LIBRARY, uses_own_randomness=True)
def count_user_level(data: list[Any], rng: object, size: int) -> list[int]:
    """Correct counterpart: ``Count(epsilon=0.5, linf_sensitivity=3)`` on the same users (at most
    3 records each): diversity 3/ε, true ε = 1/2."""
    Count = _lib("pydp.algorithms.laplacian").Count
    algo = Count(epsilon=0.5, linf_sensitivity=3, dtype="int")
    entries = _records(data)
    return _repeat(lambda: algo.quick_result(entries), size)


@declare(epsilon=0.5, relation="add-remove", pairs=[[[4], []], [[4, 0], [0]]], elements=[0, 4],
         bounds=(0, 4), library=LIBRARY, uses_own_randomness=True)
def bounded_sum(data: list[Any], rng: object, size: int) -> list[int]:
    """Correct: ``BoundedSum(epsilon=0.5, lower_bound=0, upper_bound=4, dtype="int")``.

    PyDP clamps each entry to [0, 4] and adds Laplace noise of diversity 4/ε: true ε = 1/2."""
    BoundedSum = _lib("pydp.algorithms.laplacian").BoundedSum
    algo = BoundedSum(epsilon=0.5, lower_bound=0, upper_bound=4, dtype="int")
    entries = [int(x) for x in data]
    return _repeat(lambda: algo.quick_result(entries), size)


@declare(epsilon=0.5, relation="add-remove", pairs=[[[4], []], [[4, 0], [0]]], elements=[0, 4],
         bounds=(0, 4), library=LIBRARY, uses_own_randomness=True)
def bounded_sum_misconfigured_double_spent(data: list[Any], rng: object,
                                           size: int) -> list[int]:
    """Misconfigured (budget spent twice): two ``BoundedSum(epsilon=0.5, [0, 4])`` results on the
    same data (``quick_result`` resets the budget each time), released as their sum, claimed 1/2.

    Two releases compose to ε = 1; their sum is post-processing, so a violation of the sum is a
    violation of the pair.  True ε of the sum: the sum of two Laplace(8) noises moved by 8, whose
    loss tends to 1 in the tails."""
    BoundedSum = _lib("pydp.algorithms.laplacian").BoundedSum
    algo = BoundedSum(epsilon=0.5, lower_bound=0, upper_bound=4, dtype="int")
    entries = [int(x) for x in data]
    return _repeat(lambda: algo.quick_result(entries) + algo.quick_result(entries), size)


def _bounded(cls_name: str) -> Callable[[list[Any], object, int], list[float]]:
    def run(data: list[Any], rng: object, size: int) -> list[float]:
        lap = _lib("pydp.algorithms.laplacian")
        algo = getattr(lap, cls_name)(epsilon=1.0, lower_bound=0.0, upper_bound=4.0,
                                      dtype="float")
        entries = [float(x) for x in data]
        return _repeat(lambda: float(algo.quick_result(entries)), size)
    return run


_BOUNDED_FLOAT = dict(epsilon=1.0, relation="add-remove",
                      pairs=[[[4], []], [[4, 0], [0]]], elements=[0, 4], bounds=(0, 4),
                      library=LIBRARY, uses_own_randomness=True)


@declare(**_BOUNDED_FLOAT)  # type: ignore[arg-type]
def bounded_mean(data: list[Any], rng: object, size: int) -> list[float]:
    """Correct: ``BoundedMean(epsilon=1, lower_bound=0, upper_bound=4, dtype="float")``.

    Noisy normalised sum over a noisy count (Li et al., "Differential Privacy: From Theory to
    Practice", 2.5.5), ε split inside PyDP: claimed and expected ε = 1, both views clean."""
    return _bounded("BoundedMean")(data, rng, size)


@declare(**_BOUNDED_FLOAT)  # type: ignore[arg-type]
def bounded_variance(data: list[Any], rng: object, size: int) -> list[float]:
    """Correct: ``BoundedVariance(epsilon=1, lower_bound=0, upper_bound=4, dtype="float")``
    (noisy count, sum and sum of squares; output clamped to [0, 16]): expected clean."""
    return _bounded("BoundedVariance")(data, rng, size)


@declare(**_BOUNDED_FLOAT)  # type: ignore[arg-type]
def bounded_standard_deviation(data: list[Any], rng: object, size: int) -> list[float]:
    """Correct: ``BoundedStandardDeviation(epsilon=1, [0, 4], dtype="float")``, the square root
    of the bounded variance (post-processing): expected clean."""
    return _bounded("BoundedStandardDeviation")(data, rng, size)


def _order(cls_name: str, dtype: str = "int",
           **extra: float) -> Callable[[list[Any], object, int], list[Any]]:
    def run(data: list[Any], rng: object, size: int) -> list[Any]:
        lap = _lib("pydp.algorithms.laplacian")
        conv: Callable[[Any], Any] = int if dtype == "int" else float
        algo = getattr(lap, cls_name)(epsilon=1.0, lower_bound=conv(0), upper_bound=conv(4),
                                      dtype=dtype, **extra)
        entries = [conv(x) for x in data]
        return _repeat(lambda: conv(algo.quick_result(entries)), size)
    return run


_ORDER = dict(epsilon=1.0, relation="add-remove",
              pairs=[[[4], []], [[0, 4], [0]]], elements=[0, 4], bounds=(0, 4),
              library=LIBRARY, uses_own_randomness=True)


@declare(**_ORDER)  # type: ignore[arg-type]
def max_(data: list[Any], rng: object, size: int) -> list[int]:
    """Correct: ``Max(epsilon=1, lower_bound=0, upper_bound=4, dtype="int")`` (a noisy order
    statistic over a bounded range): claimed ε = 1, expected clean."""
    return _order("Max")(data, rng, size)


@declare(**_ORDER)  # type: ignore[arg-type]
def min_(data: list[Any], rng: object, size: int) -> list[int]:
    """Correct: ``Min(epsilon=1, [0, 4], dtype="int")``: claimed ε = 1, expected clean."""
    return _order("Min")(data, rng, size)


@declare(**_ORDER)  # type: ignore[arg-type]
def median(data: list[Any], rng: object, size: int) -> list[int]:
    """Correct: ``Median(epsilon=1, [0, 4], dtype="int")``: claimed ε = 1, expected clean."""
    return _order("Median")(data, rng, size)


@declare(**_ORDER)  # type: ignore[arg-type]
def percentile(data: list[Any], rng: object, size: int) -> list[float]:
    """Correct: ``Percentile(epsilon=1, percentile=0.75, [0, 4], dtype="float")``: claimed ε = 1,
    expected clean in both views.  (``dtype="int"`` is not used: in PyDP 1.1.5 it returns 0.0
    whatever the data, see docs/library-pydp.md.)"""
    return _order("Percentile", "float", percentile=0.75)(data, rng, size)


@declare(epsilon=1.0, relation="add-remove", pairs=[[[4], []], [[0, 4], [0]]],
         elements=[0, 4], bounds=(0, 4), library=LIBRARY, uses_own_randomness=True)
def quantile_tree_median(data: list[Any], rng: object, size: int) -> list[float]:
    """Correct: ``QuantileTree(0, 4, tree_height=4, branching_factor=4)`` with every entry added,
    then ``compute_quantiles(epsilon=1, delta=0, max_partitions_contributed=1,
    max_contributions_per_partition=1, [0.5])`` (Laplace noise on the tree's counts): claimed
    ε = 1, expected clean in both views."""
    QuantileTree = _lib("pydp.algorithms.quantile_tree").QuantileTree
    entries = [float(x) for x in data]

    def once() -> float:
        tree = QuantileTree(0.0, 4.0, 4, 4)
        for x in entries:
            tree.add_entry(x)
        return float(tree.compute_quantiles(1.0, 0.0, 1, 1, [0.5])[0])
    return _repeat(once, size)


# --- pydp.algorithms.partition_selection ------------------------------------------------------

def _keep(strategy: str, epsilon: float, delta: float,
          pre_threshold: int | None = None) -> Callable[[list[Any], object, int], list[bool]]:
    def run(data: list[Any], rng: object, size: int) -> list[bool]:
        create_partition_strategy = _lib("pydp.algorithms.partition_selection").create_partition_strategy
        chooser = create_partition_strategy(strategy, epsilon, delta, 1, pre_threshold)
        users = len(data)
        return _repeat(lambda: bool(chooser.should_keep(users)), size)
    return run


_PARTITION = dict(epsilon=PARTITION_EPSILON, delta=PARTITION_DELTA, relation="add-remove",
                  pairs=[[[0], []], [[0] * 10, [0] * 9]], elements=[0],
                  library=LIBRARY, uses_own_randomness=True)


@declare(**_PARTITION)  # type: ignore[arg-type]
def partition_selection_truncated_geometric(data: list[Any], rng: object,
                                            size: int) -> list[bool]:
    """Correct: ``create_partition_strategy("truncated_geometric", 1, 1e-5, 1)
    .should_keep(#users)`` (Desfontaines et al. 2022, the optimal (ε, δ) partition selection):
    whether one partition with ``len(data)`` users is kept.  Expected clean."""
    return _keep("truncated_geometric", PARTITION_EPSILON, PARTITION_DELTA)(data, rng, size)


@declare(**_PARTITION)  # type: ignore[arg-type]
def partition_selection_laplace(data: list[Any], rng: object, size: int) -> list[bool]:
    """Correct: ``create_partition_strategy("laplace", 1, 1e-5, 1).should_keep(#users)`` (noisy
    count above a threshold set from δ): expected clean."""
    return _keep("laplace", PARTITION_EPSILON, PARTITION_DELTA)(data, rng, size)


@declare(**{**_PARTITION, "pairs": [[[0], []], [[0] * 17, [0] * 16]]})  # type: ignore[arg-type]
def partition_selection_gaussian(data: list[Any], rng: object, size: int) -> list[bool]:
    """Correct: ``create_partition_strategy("gaussian", 1, 1e-5, 1).should_keep(#users)``
    (Gaussian noise and threshold, δ split between them): expected clean."""
    return _keep("gaussian", PARTITION_EPSILON, PARTITION_DELTA)(data, rng, size)


@declare(**{**_PARTITION, "pairs": [[[0] * 3, [0] * 2], [[0] * 12, [0] * 11]]})  # type: ignore[arg-type]
def partition_selection_pre_threshold(data: list[Any], rng: object, size: int) -> list[bool]:
    """Correct: ``create_partition_strategy("laplace", 1, 1e-5, 1, pre_threshold=3)``: a partition
    needs 3 users before the Laplace strategy is asked (shifts the count by 2, post-processing of
    a public threshold): expected clean."""
    return _keep("laplace", PARTITION_EPSILON, PARTITION_DELTA, 3)(data, rng, size)


@declare(epsilon=1.0, delta=1e-3, relation="add-remove", pairs=[[[5], []], [[5, 5], [5]]],
         elements=[1, 5], library=LIBRARY, uses_own_randomness=True)
def partition_selection_misconfigured_record_level(data: list[Any], rng: object,
                                                   size: int) -> list[bool]:
    """Misconfigured (records counted as users): each entry is a user with up to 5 records, and
    ``create_partition_strategy("truncated_geometric", 1, 1e-3, 1).should_keep(#records)`` is
    given the number of records.  Adding a user with 5 records moves the input by 5, so the keep
    probability grows by up to e^5 (the (1, 1e-3) claim holds only for 1 record per user):
    PyDP's ``probability_of_keep`` is 0 at 0 records, 0.0858 at 5 and 0.983 at 10, so the pair
    ``[5]`` vs ``[]`` alone refutes δ = 1e-3."""
    create_partition_strategy = _lib("pydp.algorithms.partition_selection").create_partition_strategy
    chooser = create_partition_strategy("truncated_geometric", 1.0, 1e-3, 1)
    records = sum(int(k) for k in data)
    return _repeat(lambda: bool(chooser.should_keep(records)), size)
