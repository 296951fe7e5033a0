"""diffprivlib's public mechanisms and tools as declared black-box targets (issue 37).

Library: IBM's diffprivlib, tested on **0.6.6** (``pip install 'privref[diffprivlib]'``; 0.6.6
is also the newest upstream release, so bugs listed as present here are present upstream).
Docs: https://diffprivlib.readthedocs.io/en/latest/ (mechanisms:
``modules/mechanisms.html``, tools: ``modules/tools.html``).

**Claims, in diffprivlib's terms.**  Every mechanism takes ``epsilon`` (and, where it has one,
``delta``) and stores them as floats (``mech.epsilon``, ``mech.delta``); every tool takes
``epsilon`` and spends it on its ``BudgetAccountant`` (``accountant.total()``).  Each target
declares exactly the float it passes (``Fraction(float)`` is exact), and
``tests/audits/libraries/test_diffprivlib.py`` checks the declaration against what diffprivlib
stores or spends.  diffprivlib states no neighbour relation; the relation declared is the one
under which the library's calibration is correct: add/remove for a noisy count or histogram
(a record moves one count by 1), substitution for the tools that use the dataset size
(``sum``, ``mean``, ``var``, ``quantile``, ``count_nonzero`` truncate to bounds that scale with
``array.size``: bounded DP), and substitution of a one-record dataset for the local mechanisms
(``Binary``, ``ExponentialCategorical``).

**Seeding.**  Every mechanism and tool gets
``random_state=numpy.random.RandomState(rng.bit_generator)``, a ``RandomState`` that shares the
auditor's bit generator, so each draw consumes ``rng`` and an audit is reproducible from its seed
(diffprivlib 0.6.6 takes an int or a ``RandomState``, not a ``Generator``; with ``None`` it uses
``secrets.SystemRandom``, which cannot be seeded).  No target here uses its own randomness.

**Glue.**  diffprivlib has no batch sampler: the vectorized form ``fn(data, rng, size)`` builds
the mechanism once and loops ``randomise``; a tool is called ``size`` times, each call with a
fresh ``BudgetAccountant()`` (the default accountant would keep every spend, a list that grows
with the samples) and with ``PrivacyLeakWarning`` silenced (diffprivlib sets it to ``always``).
Datasets are lists; ``None`` stands for a missing value and is passed to diffprivlib as NaN
(the auditor's pairs hold no NaN).  Outputs: floats for the continuous mechanisms (audited in
both views: IEEE-754 and real arithmetic), ints for the discrete ones, strings for the
categorical ones, tuples for several releases or a histogram.

**Misconfigured targets** (``..._misconfigured_...``) are diffprivlib used wrongly: sensitivity
understated, δ dropped from a claim, a budget spent twice, a substitution claim read under
add/remove, a record-level budget read at user level, ``monotonic=True`` on a non-monotone
utility, the domain read from the data.  Each docstring gives the true ε.  **Known bugs**
(``known_bug_*``) are diffprivlib issue 20 (bounds inferred from the data), issue 80 (a NaN
passes the clamp: ``np.clip(nan)`` is NaN and the release is NaN) and the textbook
floating-point Laplace of Mironov (CCS 2012), compared with diffprivlib's ``Snapping``.

References: Dwork, McSherry, Nissim and Smith 2006 (Laplace); Holohan and Braghin 2021 (four-
uniform Laplace); Holohan et al. 2020 (bounded Laplace); Geng et al. 2018 (bounded noise);
Balle and Wang 2018 (analytic Gaussian); Canonne, Kamath and Steinke 2020 (discrete Gaussian);
Ghosh, Roughgarden and Sundararajan 2009 (geometric); McSherry and Talwar 2007 (exponential);
McKenna and Sheldon 2020 (permute-and-flip); Geng and Viswanath 2014 (staircase); Mironov 2012
(snapping); Smith 2011 (quantiles).
"""

from __future__ import annotations

import functools
import importlib
import warnings
from collections.abc import Callable, Hashable, Sequence
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from privref.audits.blackbox.declarations import declare
from privref.reference.errors import InvalidArgument

__all__ = [
    "BOUND", "CATEGORIES", "HIERARCHY", "LIBRARY",
    "accountant_mean_twice", "accountant_mean_twice_misconfigured_fresh_accountants",
    "binary_rr", "binary_rr_misconfigured_user_level", "bingham_direction",
    "exponential_categorical", "exponential_hierarchical",
    "exponential_vote_misconfigured_monotonic",
    "gaussian_analytic_count", "gaussian_analytic_sum_misconfigured_sensitivity",
    "gaussian_count", "gaussian_count_misconfigured_delta0", "gaussian_discrete_count",
    "geometric_folded_count", "geometric_truncated_count", "int_to_string_binary",
    "known_bug_issue20_domain_from_data_buggy", "known_bug_issue20_domain_from_data_fixed",
    "known_bug_issue80_nan_clamp_buggy", "known_bug_issue80_nan_clamp_fixed",
    "known_bug_textbook_laplace_buggy", "known_bug_textbook_laplace_fixed_snapping",
    "laplace_approx_count", "laplace_bounded_domain_count", "laplace_bounded_noise_count",
    "laplace_bounded_noise_count_misconfigured_delta0", "laplace_count_misconfigured_double_spent",
    "laplace_folded_count", "laplace_truncated_count", "permute_and_flip_vote",
    "rounded_integer_laplace_count", "snapping_count", "staircase_count", "textbook_laplace",
    "tools_count_nonzero", "tools_count_nonzero_misconfigured_add_remove", "tools_histogram",
    "tools_histogram2d", "tools_histogram_misconfigured_range_from_data",
    "tools_histogram_misconfigured_substitution", "tools_histogramdd", "tools_mean",
    "tools_median", "tools_nanmean_missing", "tools_nanstd", "tools_nansum_missing",
    "tools_nanvar", "tools_percentile", "tools_quantile", "tools_std", "tools_sum",
    "tools_sum_int", "tools_sum_misconfigured_add_remove", "tools_var", "uniform_count",
    "uniform_sum_misconfigured_sensitivity",
]

LIBRARY = "diffprivlib"
"""The distribution every target declares (its version is read from the installed one)."""

BOUND = 4
"""The clamp bounds of the sums, means and quantiles are [0, BOUND]."""

CATEGORIES = ("a", "b", "c")
"""The values of the categorical targets (``ExponentialCategorical``)."""

HIERARCHY = [["a", "b"], ["c", "d"]]
"""The hierarchy of ``ExponentialHierarchical``: leaves a, b under one node, c, d under another."""

_COUNT_PAIRS = [[[0], []], [[0, 0, 0], [0, 0]]]
_SUM_PAIRS = [[[4], []], [[4, 0], [0]]]
_SUB_PAIRS = [[[0, 0], [4, 0]], [[4, 4], [0, 4]]]
_VOTE_PAIRS = [[[1, 1, 1], [0, 1, 1]], [[1, 1, 1, 1, 1, 1], [0, 1, 1, 1, 1, 1]]]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


@functools.cache
def _module(name: str) -> ModuleType:
    """``diffprivlib.<name>``, imported on first use (the module loads without diffprivlib)."""
    return importlib.import_module(f"diffprivlib.{name}")


def _mech() -> ModuleType:
    return _module("mechanisms")


def _tools() -> ModuleType:
    return _module("tools")


def _state(rng: np.random.Generator) -> np.random.RandomState:
    """A RandomState on ``rng``'s own bit generator: diffprivlib's draws consume ``rng``."""
    return np.random.RandomState(rng.bit_generator)


def _count_floats(cls: str, data: list[Hashable], rng: np.random.Generator, size: int,
                  **params: Any) -> F64:
    """``size`` draws of ``diffprivlib.mechanisms.<cls>(**params)`` on the count ``len(data)``
    (one mechanism object, seeded from ``rng``), as floats."""
    m = getattr(_mech(), cls)(**params, random_state=_state(rng))
    n = len(data)
    return _floats(lambda: m.randomise(n), size)


def _count_ints(cls: str, data: list[Hashable], rng: np.random.Generator, size: int,
                **params: Any) -> I64:
    """As :func:`_count_floats`, for an integer-valued mechanism."""
    m = getattr(_mech(), cls)(**params, random_state=_state(rng))
    n = len(data)
    return _ints(lambda: m.randomise(n), size)


def _floats(draw: Callable[[], Any], size: int) -> F64:
    return np.fromiter((float(draw()) for _ in range(size)), dtype=np.float64, count=size)


def _ints(draw: Callable[[], Any], size: int) -> I64:
    return np.fromiter((int(draw()) for _ in range(size)), dtype=np.int64, count=size)


def _rows(draw: Callable[[], Sequence[float]], size: int, width: int, dtype: type) -> Any:
    out: Any = np.empty((size, width), dtype=dtype)
    for i in range(size):
        out[i] = draw()
    return out


def _numbers(data: list[Hashable], target: str) -> F64:
    """The entries as floats, ``None`` (a missing value) as NaN; InvalidArgument otherwise."""
    if not all(x is None or (isinstance(x, int | float) and not isinstance(x, bool))
               for x in data):
        raise InvalidArgument(f"data={data!r}: the entries of {target} must be numbers or None")
    return np.array([np.nan if x is None else float(x) for x in data],  # type: ignore[arg-type]
                    dtype=np.float64)


def _clamped_sum(data: list[Hashable], target: str) -> float:
    return float(np.clip(_numbers(data, target), 0, BOUND).sum())


def _tally(data: list[Hashable], target: str) -> list[int]:
    if not all(x in (0, 1) and not isinstance(x, bool) for x in data):
        raise InvalidArgument(f"data={data!r}: the entries of {target} must be votes in (0, 1)")
    return [sum(1 for x in data if x == c) for c in (0, 1)]


def _one(data: list[Hashable], allowed: Sequence[Hashable], target: str) -> Hashable:
    if len(data) != 1 or data[0] not in allowed:
        raise InvalidArgument(f"data={data!r}: {target} takes one entry in {list(allowed)}")
    return data[0]


def _tool_floats(call: Callable[[np.random.RandomState, Any], Any], rng: np.random.Generator,
                 size: int) -> F64:
    """``size`` releases of a tool, each with a fresh BudgetAccountant, warnings silenced."""
    accountant = _module("accountant").BudgetAccountant
    state = _state(rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _floats(lambda: call(state, accountant()), size)


# ---------------------------------------------------------------- Laplace family (floats)

@declare(epsilon=0.5, delta=0.1, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         library=LIBRARY)
def laplace_approx_count(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``Laplace(epsilon=0.5, delta=0.1, sensitivity=1).randomise(len(data))``: correct.

    diffprivlib's relaxed Laplace (Holohan, Leith and Mason 2015) uses the scale
    1/(ε − ln(1 − δ)), so it is pure (0.5 + ln(10/9))-DP, which implies (0.5, 0.1)-DP
    (P ≤ e^ε Q/(1 − δ) ≤ e^ε Q + δ whenever e^ε Q ≤ 1 − δ).  Real view: no violation; IEEE
    view: ``count + noise`` leaks through its low-order bits (Mironov 2012), as plain Laplace.
    """
    return _count_floats("Laplace", data, rng, size, epsilon=0.5, delta=0.1, sensitivity=1)


@declare(epsilon=0.5, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         library=LIBRARY)
def laplace_count_misconfigured_double_spent(data: list[Hashable], rng: np.random.Generator,
                                             size: int) -> F64:
    """Two releases of ``Laplace(epsilon=0.5, sensitivity=1).randomise(len(data))`` (an
    output pair), claimed at one mechanism's ε = 0.5: MISCONFIGURED (double-spent budget).
    Basic composition: the true ε is 2 × 0.5 = 1 (tight on the tail event both > t)."""
    m = _mech().Laplace(epsilon=0.5, sensitivity=1, random_state=_state(rng))
    n = len(data)
    out: F64 = _rows(lambda: (m.randomise(n), m.randomise(n)), size, 2, np.float64)
    return out


@declare(epsilon=0.5, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         sizes=[0, 1, 2, 3], library=LIBRARY)
def laplace_truncated_count(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``LaplaceTruncated(epsilon=0.5, sensitivity=1, lower=0, upper=4)`` on the count:
    correct (truncation is post-processing: ε = 0.5 in real arithmetic)."""
    return _count_floats("LaplaceTruncated", data, rng, size, epsilon=0.5, sensitivity=1,
                     lower=0, upper=BOUND)


@declare(epsilon=0.5, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         sizes=[0, 1, 2, 3], library=LIBRARY)
def laplace_folded_count(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``LaplaceFolded(epsilon=0.5, sensitivity=1, lower=0, upper=4)`` on the count: correct
    (folding into [0, 4] is post-processing: ε = 0.5 in real arithmetic)."""
    return _count_floats("LaplaceFolded", data, rng, size,
                     epsilon=0.5, sensitivity=1, lower=0, upper=BOUND)


@declare(epsilon=0.5, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         sizes=[0, 1, 2, 3], library=LIBRARY)
def laplace_bounded_domain_count(data: list[Hashable], rng: np.random.Generator,
                                 size: int) -> F64:
    """``LaplaceBoundedDomain(epsilon=0.5, sensitivity=1, lower=0, upper=4)`` on the count:
    correct (Holohan et al. 2020: rejection sampling on [0, 4] with the scale widened so the
    normalisers' ratio is paid for; ε = 0.5 in real arithmetic)."""
    return _count_floats("LaplaceBoundedDomain", data, rng, size,
                     epsilon=0.5, sensitivity=1, lower=0, upper=BOUND)


def _bounded_noise(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    return _count_floats("LaplaceBoundedNoise", data, rng, size,
                     epsilon=0.5, delta=0.1, sensitivity=1)


@declare(epsilon=0.5, delta=0.1, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         library=LIBRARY)
def laplace_bounded_noise_count(data: list[Hashable], rng: np.random.Generator,
                                size: int) -> F64:
    """``LaplaceBoundedNoise(epsilon=0.5, delta=0.1, sensitivity=1)`` on the count: correct
    (Geng et al. 2018: Laplace noise of scale 2 conditioned on |noise| ≤ B; outputs beyond the
    neighbour's support are paid for by δ)."""
    return _bounded_noise(data, rng, size)


@declare(epsilon=0.5, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         library=LIBRARY)
def laplace_bounded_noise_count_misconfigured_delta0(data: list[Hashable],
                                                     rng: np.random.Generator,
                                                     size: int) -> F64:
    """The same mechanism claimed as pure (0.5, 0)-DP: MISCONFIGURED (δ dropped).  The noise
    lies in [−B, B], so outputs in (n + B − 1, n + B] are reachable from count n and not from
    n − 1: the true pure ε is infinite."""
    return _bounded_noise(data, rng, size)


# ---------------------------------------------------------------- Gaussian family

@declare(epsilon=0.5, delta=0.01, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         library=LIBRARY)
def gaussian_count(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``Gaussian(epsilon=0.5, delta=0.01, sensitivity=1)`` on the count: correct (the
    classical σ = √(2 ln(1.25/δ))/ε of Dwork and Roth 2014, valid for ε ≤ 1)."""
    return _count_floats("Gaussian", data, rng, size, epsilon=0.5, delta=0.01, sensitivity=1)


@declare(epsilon=1.0, relation="add-remove", pairs=[[[0], []]], elements=[0, 1],
         library=LIBRARY)
def gaussian_count_misconfigured_delta0(data: list[Hashable], rng: np.random.Generator,
                                        size: int) -> F64:
    """``Gaussian(epsilon=1, delta=0.5, sensitivity=1)`` claimed as pure (1, 0)-DP:
    MISCONFIGURED (δ = 0 for a Gaussian).  σ = √(2 ln 2.5) = 1.354; the loss at output x is
    (2x − 1)/(2σ²), unbounded: the true pure ε is infinite (the tail x > 4 already gives
    P₁/P₀ ≈ 8.4, a loss of about 2.1 > 1)."""
    return _count_floats("Gaussian", data, rng, size, epsilon=1.0, delta=0.5, sensitivity=1)


@declare(epsilon=2.0, delta=0.01, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         library=LIBRARY)
def gaussian_analytic_count(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``GaussianAnalytic(epsilon=2, delta=0.01, sensitivity=1)`` on the count: correct
    (Balle and Wang 2018: σ is the exact calibration, so (2, 0.01) is tight)."""
    return _count_floats("GaussianAnalytic", data, rng, size,
                     epsilon=2.0, delta=0.01, sensitivity=1)


@declare(epsilon=2.0, delta=0.01, relation="add-remove", pairs=_SUM_PAIRS, bounds=(0, BOUND),
         library=LIBRARY)
def gaussian_analytic_sum_misconfigured_sensitivity(data: list[Hashable],
                                                    rng: np.random.Generator,
                                                    size: int) -> F64:
    """``GaussianAnalytic(epsilon=2, delta=0.01, sensitivity=1)`` on a sum of entries clamped to
    [0, 4]: MISCONFIGURED (sensitivity 4 declared as 1).  σ ≈ 1.116 is calibrated for
    neighbours 1 apart; these are 4 apart, and the Gaussian with mean shift 4/σ has ε ≈ 14.0 at
    δ = 0.01 (Balle and Wang 2018, Theorem 8, evaluated in floats: a hint, not a proof)."""
    m = _mech().GaussianAnalytic(epsilon=2.0, delta=0.01, sensitivity=1,
                                 random_state=_state(rng))
    s = _clamped_sum(data, "gaussian_analytic_sum_misconfigured_sensitivity")
    return _floats(lambda: m.randomise(s), size)


@declare(epsilon=1.0, delta=0.01, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         library=LIBRARY)
def gaussian_discrete_count(data: list[Hashable], rng: np.random.Generator, size: int) -> I64:
    """``GaussianDiscrete(epsilon=1, delta=0.01, sensitivity=1)`` on the count: correct
    (Canonne, Kamath and Steinke 2020, calibrated to (ε, δ) by diffprivlib's search); ints."""
    return _count_ints("GaussianDiscrete", data, rng, size, epsilon=1.0, delta=0.01,
                     sensitivity=1)


# ---------------------------------------------------------------- Geometric family (ints)

@declare(epsilon=0.5, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         sizes=[0, 1, 2, 3], library=LIBRARY)
def geometric_truncated_count(data: list[Hashable], rng: np.random.Generator,
                              size: int) -> I64:
    """``GeometricTruncated(epsilon=0.5, sensitivity=1, lower=0, upper=4)`` on the count:
    correct (two-sided geometric, P[k] ∝ e^{−|k|/2}, truncated: post-processing)."""
    return _count_ints("GeometricTruncated", data, rng, size,
                     epsilon=0.5, sensitivity=1, lower=0, upper=BOUND)


@declare(epsilon=0.5, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         sizes=[0, 1, 2, 3], library=LIBRARY)
def geometric_folded_count(data: list[Hashable], rng: np.random.Generator, size: int) -> I64:
    """``GeometricFolded(epsilon=0.5, sensitivity=1, lower=0, upper=4)`` on the count: correct
    (folding into [0, 4] is post-processing)."""
    return _count_ints("GeometricFolded", data, rng, size,
                     epsilon=0.5, sensitivity=1, lower=0, upper=BOUND)


# ---------------------------------------------------------------- selection mechanisms

@declare(epsilon=1.0, relation="substitution", pairs=_VOTE_PAIRS, elements=[0, 1],
         library=LIBRARY)
def exponential_vote_misconfigured_monotonic(data: list[Hashable], rng: np.random.Generator,
                                             size: int) -> I64:
    """``Exponential(epsilon=1, sensitivity=1, utility=[#0 votes, #1 votes], monotonic=True)``:
    MISCONFIGURED.  ``monotonic=True`` halves the noise (P[r] ∝ e^{ε u_r/Δ}), valid only when
    every utility moves in the same direction; a substituted vote moves one count up and one
    down.  Tallies (0, n) vs (1, n − 1) lose c + ln((1 + e^{cn})/(e^c + e^{c(n−1)})) with
    c = ε = 1: 1.98 at n = 6 (-> 2ε); claim 1."""
    m = _mech().Exponential(epsilon=1.0, sensitivity=1.0, monotonic=True,
                            utility=_tally(data, "exponential_vote_misconfigured_monotonic"),
                            random_state=_state(rng))
    return _ints(m.randomise, size)


@declare(epsilon=1.0, relation="substitution", pairs=_VOTE_PAIRS, elements=[0, 1],
         library=LIBRARY)
def permute_and_flip_vote(data: list[Hashable], rng: np.random.Generator, size: int) -> I64:
    """``PermuteAndFlip(epsilon=1, sensitivity=1, utility=[#0 votes, #1 votes])``: correct
    (McKenna and Sheldon 2020, ε-DP for utilities of sensitivity 1)."""
    m = _mech().PermuteAndFlip(epsilon=1.0, sensitivity=1.0,
                               utility=_tally(data, "permute_and_flip_vote"),
                               random_state=_state(rng))
    return _ints(m.randomise, size)


@declare(epsilon=1.0, relation="substitution", pairs=[[["a"], ["c"]], [["a"], ["b"]]],
         elements=list(CATEGORIES), sizes=[1], library=LIBRARY)
def exponential_categorical(data: list[Hashable], rng: np.random.Generator,
                            size: int) -> list[Hashable]:
    """``ExponentialCategorical(epsilon=1, utility_list=[a-b: 1, a-c: 2, b-c: 1])`` on a
    one-record dataset (local DP): correct.  Utilities are distances (sensitivity = the largest,
    2); P[y | x] ∝ e^{−ε d(x, y)/(2·2)}, so neighbouring inputs give ratios ≤ e^ε."""
    m = _mech().ExponentialCategorical(
        epsilon=1.0, utility_list=[["a", "b", 1], ["a", "c", 2], ["b", "c", 1]],
        random_state=_state(rng))
    x = _one(data, CATEGORIES, "exponential_categorical")
    return [m.randomise(x) for _ in range(size)]


@declare(epsilon=1.0, relation="substitution", pairs=[[["a"], ["c"]], [["a"], ["b"]]],
         elements=["a", "b", "c", "d"], sizes=[1], library=LIBRARY)
def exponential_hierarchical(data: list[Hashable], rng: np.random.Generator,
                             size: int) -> list[Hashable]:
    """``ExponentialHierarchical(epsilon=1, hierarchy=[["a", "b"], ["c", "d"]])`` on a
    one-record dataset (local DP): correct (an ``ExponentialCategorical`` whose utility is the
    distance in the hierarchy)."""
    m = _mech().ExponentialHierarchical(epsilon=1.0, hierarchy=HIERARCHY,
                                        random_state=_state(rng))
    x = _one(data, ("a", "b", "c", "d"), "exponential_hierarchical")
    return [m.randomise(x) for _ in range(size)]


# ---------------------------------------------------------------- randomized response

@declare(epsilon=1.0, relation="substitution", pairs=[[["yes"], ["no"]]],
         elements=["no", "yes"], sizes=[1], library=LIBRARY)
def binary_rr(data: list[Hashable], rng: np.random.Generator, size: int) -> list[Hashable]:
    """``Binary(epsilon=1, value0="no", value1="yes")`` on a one-record dataset: correct
    (randomized response keeping the value with probability e/(1 + e): ε = 1 exactly)."""
    m = _mech().Binary(epsilon=1.0, value0="no", value1="yes", random_state=_state(rng))
    x = _one(data, ("no", "yes"), "binary_rr")
    return [m.randomise(x) for _ in range(size)]


@declare(epsilon=1.0, relation="substitution", pairs=[[[3], [0]]], elements=[0, 1, 2, 3],
         sizes=[1], library=LIBRARY)
def binary_rr_misconfigured_user_level(data: list[Hashable], rng: np.random.Generator,
                                       size: int) -> list[Hashable]:
    """A user holds two answers (the entry 0..3 is their two bits); each answer goes through
    ``Binary(epsilon=1)`` and the per-record ε = 1 is read as the user's: MISCONFIGURED
    (record-level bound read at user level).  Changing a user changes both answers: the true
    user-level ε is 2 (the outputs ("yes", "yes") vs ("no", "no"))."""
    m = _mech().Binary(epsilon=1.0, value0="no", value1="yes", random_state=_state(rng))
    x = _one(data, (0, 1, 2, 3), "binary_rr_misconfigured_user_level")
    assert isinstance(x, int)
    first, second = ("yes" if x & 1 else "no"), ("yes" if x & 2 else "no")
    return [(m.randomise(first), m.randomise(second)) for _ in range(size)]


# ---------------------------------------------------------------- other noise

@declare(epsilon=1.0, relation="add-remove", pairs=[[[0], []], [[1, 0], [0]]], elements=[0, 1],
         sizes=[0, 1, 2], library=LIBRARY)
def bingham_direction(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``Bingham(epsilon=1, sensitivity=1)`` on A = Σ e_x e_xᵀ (entry x ∈ {0, 1} is the unit
    vector e_x): correct (Leake, Holohan and Mac Aonghusa 2020; a record moves A by e_x e_xᵀ, of
    spectral norm 1).  The output, a unit vector u up to sign, is released as the angle of ±u
    in [0, π) (post-processing)."""
    m = _mech().Bingham(epsilon=1.0, sensitivity=1.0, random_state=_state(rng))
    counts = _tally(data, "bingham_direction")
    a = np.diag(np.array(counts, dtype=np.float64))

    def draw() -> float:
        u = m.randomise(a)
        return float(np.arctan2(u[1], u[0]) % np.pi)

    return _floats(draw, size)


def _snapping(rng: np.random.Generator) -> Any:
    return _mech().Snapping(epsilon=1.0, sensitivity=1, lower=0, upper=16,
                            random_state=_state(rng))


@declare(epsilon=1.0, relation="add-remove", pairs=[[[0], []], [[0, 0, 0], [0, 0]]],
         elements=[0, 1], sizes=[0, 1, 2, 3], library=LIBRARY)
def snapping_count(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``Snapping(epsilon=1, sensitivity=1, lower=0, upper=16)`` on the count: correct
    (Mironov 2012: clamp, Laplace from a uniform on all doubles, round to the power of two λ
    above the scale, clamp; the outputs lie on the grid λ, so no float bit depends on the
    data: clean in both views)."""
    m = _snapping(rng)
    n = len(data)
    return _floats(lambda: m.randomise(n), size)


@declare(epsilon=1.0, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         library=LIBRARY)
def staircase_count(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``Staircase(epsilon=1, sensitivity=1)`` on the count: correct (Geng and Viswanath 2014,
    γ = 1/(1 + e^{ε/2})).  Real view: ε = 1; IEEE view: ``count + noise``, as Laplace."""
    return _count_floats("Staircase", data, rng, size, epsilon=1.0, sensitivity=1)


@declare(epsilon=0, delta=0.25, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         library=LIBRARY)
def uniform_count(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``Uniform(delta=0.25, sensitivity=1)`` on the count: correct ((0, δ)-DP: the noise is
    uniform on [−2, 2], and two such laws 1 apart are at total variation 1/4 = δ, tight).  The
    float bits of ``count + noise`` differ between counts only on a set of mass below δ, so
    the IEEE-754 view is clean too (measured)."""
    return _count_floats("Uniform", data, rng, size, delta=0.25, sensitivity=1)


@declare(epsilon=0, delta=0.25, relation="add-remove", pairs=_SUM_PAIRS, bounds=(0, BOUND),
         library=LIBRARY)
def uniform_sum_misconfigured_sensitivity(data: list[Hashable], rng: np.random.Generator,
                                          size: int) -> F64:
    """``Uniform(delta=0.25, sensitivity=1)`` on a sum of entries clamped to [0, 4]:
    MISCONFIGURED (sensitivity 4 declared as 1).  Laws 4 apart on intervals of width 4 are
    disjoint: the true δ at ε = 0 is 1."""
    m = _mech().Uniform(delta=0.25, sensitivity=1, random_state=_state(rng))
    s = _clamped_sum(data, "uniform_sum_misconfigured_sensitivity")
    return _floats(lambda: m.randomise(s), size)


# ---------------------------------------------------------------- transforms

@declare(epsilon=0.5, relation="add-remove", pairs=_COUNT_PAIRS, elements=[0, 1],
         library=LIBRARY)
def rounded_integer_laplace_count(data: list[Hashable], rng: np.random.Generator,
                                  size: int) -> I64:
    """``RoundedInteger(Laplace(epsilon=0.5, sensitivity=1))`` on the count: correct (rounding
    is post-processing); the outputs are ints, so the float leak of plain Laplace is gone."""
    transforms = _module("mechanisms.transforms")
    m = transforms.RoundedInteger(_mech().Laplace(epsilon=0.5, sensitivity=1,
                                                  random_state=_state(rng)))
    n = len(data)
    return _ints(lambda: m.randomise(n), size)


@declare(epsilon=1.0, relation="substitution", pairs=[[[1], [0]]], elements=[0, 1], sizes=[1],
         library=LIBRARY)
def int_to_string_binary(data: list[Hashable], rng: np.random.Generator, size: int) -> I64:
    """``IntToString(Binary(epsilon=1, value0="0", value1="1"))`` on a one-record dataset of an
    int bit: correct (randomized response, ε = 1)."""
    transforms = _module("mechanisms.transforms")
    m = transforms.IntToString(_mech().Binary(epsilon=1.0, value0="0", value1="1",
                                              random_state=_state(rng)))
    x = _one(data, (0, 1), "int_to_string_binary")
    return _ints(lambda: m.randomise(x), size)


# ---------------------------------------------------------------- tools (bounded DP)

def _sum_tool(data: list[Hashable], rng: np.random.Generator, size: int, name: str) -> F64:
    x = _numbers(data, name)
    return _tool_floats(lambda s, acc: _tools().sum(x, epsilon=1.0, bounds=(0, BOUND),
                                                    random_state=s, accountant=acc), rng, size)


@declare(epsilon=1.0, relation="substitution", pairs=_SUB_PAIRS, bounds=(0, BOUND),
         sizes=[1, 2], library=LIBRARY)
def tools_sum(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``tools.sum(x, epsilon=1, bounds=(0, 4))``: correct under substitution (bounded DP: the
    sum moves by at most 4 = upper − lower, the sensitivity diffprivlib uses; the truncation
    to [0, 4n] is post-processing for a fixed n)."""
    return _sum_tool(data, rng, size, "tools_sum")


@declare(epsilon=1.0, relation="add-remove", pairs=[[[4], []], [[4, 4], [4]]],
         bounds=(0, BOUND), sizes=[0, 1, 2], library=LIBRARY)
def tools_sum_misconfigured_add_remove(data: list[Hashable], rng: np.random.Generator,
                                       size: int) -> F64:
    """``tools.sum(x, epsilon=1, bounds=(0, 4))`` read as add/remove DP: MISCONFIGURED
    (substitution claim read under add/remove).  The truncation range [0, 4n] depends on n:
    with one entry 4 the output is exactly 4.0 with probability 1/2, with no entry it is
    always 0 (the range is [0, 0]): the true ε is infinite."""
    return _sum_tool(data, rng, size, "tools_sum_misconfigured_add_remove")


@declare(epsilon=1.0, relation="substitution", pairs=_SUB_PAIRS, bounds=(0, BOUND),
         sizes=[1, 2], library=LIBRARY)
def tools_sum_int(data: list[Hashable], rng: np.random.Generator, size: int) -> I64:
    """``tools.sum(x, epsilon=1, bounds=(0, 4), dtype=int)``: correct under substitution
    (integer data: ``GeometricTruncated`` with sensitivity 4); int outputs."""
    x = np.array(_numbers(data, "tools_sum_int"), dtype=np.int64)
    accountant = _module("accountant").BudgetAccountant
    state = _state(rng)
    return _ints(lambda: _tools().sum(x, epsilon=1.0, bounds=(0, BOUND), dtype=int,
                                      random_state=state, accountant=accountant()), size)


@declare(epsilon=1.0, relation="substitution", pairs=[[[None, 0], [None, 4]], [[None, 0], [4, 0]]],
         elements=[0, 4, None], sizes=[2], library=LIBRARY)
def tools_nansum_missing(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``tools.nansum(x, epsilon=1, bounds=(0, 4))`` on data with missing values (None -> NaN):
    correct under substitution (NaNs count as 0: the sum still moves by at most 4)."""
    x = _numbers(data, "tools_nansum_missing")
    return _tool_floats(lambda s, acc: _tools().nansum(x, epsilon=1.0, bounds=(0, BOUND),
                                                       random_state=s, accountant=acc), rng, size)


def _count_nonzero(data: list[Hashable], rng: np.random.Generator, size: int) -> I64:
    x = _numbers(data, "tools_count_nonzero")
    accountant = _module("accountant").BudgetAccountant
    state = _state(rng)
    return _ints(lambda: _tools().count_nonzero(x, epsilon=1.0, random_state=state,
                                                accountant=accountant()), size)


@declare(epsilon=1.0, relation="substitution", pairs=[[[0, 0], [1, 0]], [[1, 1], [0, 1]]],
         elements=[0, 1], sizes=[1, 2], library=LIBRARY)
def tools_count_nonzero(data: list[Hashable], rng: np.random.Generator, size: int) -> I64:
    """``tools.count_nonzero(x, epsilon=1)``: correct under substitution (a ``sum`` of
    booleans with bounds (0, 1): ``GeometricTruncated`` on [0, n])."""
    return _count_nonzero(data, rng, size)


@declare(epsilon=1.0, relation="add-remove", pairs=[[[1], []], [[1, 1], [1]]],
         elements=[0, 1], sizes=[0, 1, 2], library=LIBRARY)
def tools_count_nonzero_misconfigured_add_remove(data: list[Hashable],
                                                 rng: np.random.Generator, size: int) -> I64:
    """``tools.count_nonzero`` read as add/remove DP: MISCONFIGURED.  The output is truncated to
    [0, n]: with no entry it is always 0, with one entry 1 it is 1 with probability
    1/(1 + e⁻¹): the true ε is infinite."""
    return _count_nonzero(data, rng, size)


def _mean(x: F64, rng: np.random.Generator, size: int, *, nan: bool = False,
          bounds: tuple[int, int] | None = (0, BOUND)) -> F64:
    fn = _tools().nanmean if nan else _tools().mean
    return _tool_floats(lambda s, acc: fn(x, epsilon=1.0, bounds=bounds, random_state=s,
                                          accountant=acc), rng, size)


@declare(epsilon=1.0, relation="substitution", pairs=_SUB_PAIRS, bounds=(0, BOUND),
         sizes=[1, 2], library=LIBRARY)
def tools_mean(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``tools.mean(x, epsilon=1, bounds=(0, 4))``: correct under substitution
    (``LaplaceTruncated`` with sensitivity 4/n on [0, 4])."""
    return _mean(_numbers(data, "tools_mean"), rng, size)


@declare(epsilon=1.0, relation="substitution", pairs=[[[None, 0], [None, 4]],
                                                      [[None, None, 0], [None, None, 4]]],
         elements=[0, 4, None], sizes=[2, 3], library=LIBRARY)
def tools_nanmean_missing(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``tools.nanmean(x, epsilon=1, bounds=(0, 4))`` on data with missing values: correctly
    configured by diffprivlib's documentation, and NOT ε-DP (a finding, docs/library-
    diffprivlib.md).  The sensitivity is (upper − lower)/``array.size``, counting the NaNs,
    while the mean is over the k non-NaN entries and moves by (upper − lower)/k.  With one
    NaN of two entries (k = 1): scale 2 for a shift of 4; truncated to [0, 4], P[output = 4]
    is 1/2 from mean 4 and e⁻²/2 from mean 0: the true ε is 2 on the first pair, 3 on the
    second."""
    return _mean(_numbers(data, "tools_nanmean_missing"), rng, size, nan=True)


def _var(data: list[Hashable], rng: np.random.Generator, size: int, name: str) -> F64:
    x = _numbers(data, name)
    fn = getattr(_tools(), name.removeprefix("tools_"))
    return _tool_floats(lambda s, acc: fn(x, epsilon=1.0, bounds=(0, BOUND), random_state=s,
                                          accountant=acc), rng, size)


_VAR_PAIRS = [[[0, 0], [4, 0]], [[0, 0, 0], [4, 0, 0]]]


@declare(epsilon=1.0, relation="substitution", pairs=_VAR_PAIRS, bounds=(0, BOUND),
         sizes=[2, 3], library=LIBRARY)
def tools_var(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``tools.var(x, epsilon=1, bounds=(0, 4))``: correct under substitution
    (``LaplaceBoundedDomain`` on [0, 4] with sensitivity 16(n − 1)/n²)."""
    return _var(data, rng, size, "tools_var")


@declare(epsilon=1.0, relation="substitution", pairs=_VAR_PAIRS, bounds=(0, BOUND),
         sizes=[2, 3], library=LIBRARY)
def tools_std(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``tools.std(x, epsilon=1, bounds=(0, 4))``: correct (√ of ``var``: post-processing)."""
    return _var(data, rng, size, "tools_std")


@declare(epsilon=1.0, relation="substitution", pairs=_VAR_PAIRS, bounds=(0, BOUND),
         sizes=[2, 3], library=LIBRARY)
def tools_nanvar(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``tools.nanvar(x, epsilon=1, bounds=(0, 4))`` on data without missing values: correct
    (with NaNs it shares ``nanmean``'s understated sensitivity; see the finding)."""
    return _var(data, rng, size, "tools_nanvar")


@declare(epsilon=1.0, relation="substitution", pairs=_VAR_PAIRS, bounds=(0, BOUND),
         sizes=[2, 3], library=LIBRARY)
def tools_nanstd(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``tools.nanstd(x, epsilon=1, bounds=(0, 4))`` on data without missing values: correct."""
    return _var(data, rng, size, "tools_nanstd")


def _quantile(data: list[Hashable], rng: np.random.Generator, size: int, name: str,
              bounds: tuple[int, int] | None = (0, BOUND)) -> F64:
    x = _numbers(data, name)
    t = _tools()
    calls: dict[str, Callable[[Any, Any], Any]] = {
        "quantile": lambda s, acc: t.quantile(x, 0.25, epsilon=1.0, bounds=bounds,
                                              random_state=s, accountant=acc),
        "median": lambda s, acc: t.median(x, epsilon=1.0, bounds=bounds, random_state=s,
                                          accountant=acc),
        "percentile": lambda s, acc: t.percentile(x, 75, epsilon=1.0, bounds=bounds,
                                                  random_state=s, accountant=acc),
    }
    return _tool_floats(calls[name], rng, size)


_Q_PAIRS = [[[0, 0, 0], [4, 0, 0]], [[0, 4, 4], [4, 4, 4]]]


@declare(epsilon=1.0, relation="substitution", pairs=_Q_PAIRS, bounds=(0, BOUND), sizes=[3],
         library=LIBRARY)
def tools_quantile(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``tools.quantile(x, 0.25, epsilon=1, bounds=(0, 4))``: correct under substitution
    (Smith 2011: exponential mechanism over the gaps, utility −|i − qn| of sensitivity 1)."""
    return _quantile(data, rng, size, "quantile")


@declare(epsilon=1.0, relation="substitution", pairs=_Q_PAIRS, bounds=(0, BOUND), sizes=[3],
         library=LIBRARY)
def tools_median(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``tools.median(x, epsilon=1, bounds=(0, 4))``: correct (``quantile`` at 1/2)."""
    return _quantile(data, rng, size, "median")


@declare(epsilon=1.0, relation="substitution", pairs=_Q_PAIRS, bounds=(0, BOUND), sizes=[3],
         library=LIBRARY)
def tools_percentile(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """``tools.percentile(x, 75, epsilon=1, bounds=(0, 4))``: correct (``quantile`` at 3/4)."""
    return _quantile(data, rng, size, "percentile")


# ---------------------------------------------------------------- histograms (add/remove)

def _histogram(data: list[Hashable], rng: np.random.Generator, size: int, name: str,
               with_range: bool = True) -> I64 | F64:
    x = _numbers(data, name)
    accountant = _module("accountant").BudgetAccountant
    state = _state(rng)
    t = _tools()
    hist_range = (0, BOUND) if with_range else None
    width = 4 if with_range else 8

    def draw() -> Sequence[float]:
        hist, edges = t.histogram(x, epsilon=1.0, bins=4, range=hist_range,
                                  random_state=state, accountant=accountant())
        return list(hist) if with_range else [*hist, *edges[:4]]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out: I64 | F64 = _rows(draw, size, width, np.int64 if with_range else np.float64)
    return out


@declare(epsilon=1.0, relation="add-remove", pairs=[[[0], []], [[0, 3], [3]]],
         elements=[0, 1, 2, 3], sizes=[0, 1, 2], library=LIBRARY)
def tools_histogram(data: list[Hashable], rng: np.random.Generator, size: int) -> I64:
    """``tools.histogram(x, epsilon=1, bins=4, range=(0, 4))``, the noisy counts: correct under
    add/remove (one record moves one bin by 1; ``GeometricTruncated`` per bin, parallel
    composition: ε = 1)."""
    out = _histogram(data, rng, size, "tools_histogram")
    assert out.dtype == np.int64
    return out  # type: ignore[return-value]


@declare(epsilon=1.0, relation="substitution", pairs=[[[0], [3]], [[0, 1], [3, 1]]],
         elements=[0, 1, 2, 3], sizes=[1, 2], library=LIBRARY)
def tools_histogram_misconfigured_substitution(data: list[Hashable], rng: np.random.Generator,
                                               size: int) -> I64:
    """The same histogram read as substitution DP: MISCONFIGURED (add/remove claim read under
    substitution).  Substituting a record moves two bins by 1 each: the true ε is 2."""
    out = _histogram(data, rng, size, "tools_histogram_misconfigured_substitution")
    return out  # type: ignore[return-value]


@declare(epsilon=1.0, relation="add-remove", pairs=[[[0, 3], [0]], [[0, 1, 3], [0, 1]]],
         elements=[0, 1, 2, 3], sizes=[1, 2, 3], library=LIBRARY)
def tools_histogram_misconfigured_range_from_data(data: list[Hashable],
                                                  rng: np.random.Generator,
                                                  size: int) -> F64:
    """``tools.histogram(x, epsilon=1, bins=4)`` without ``range``: MISCONFIGURED (diffprivlib
    issue 20: the range is read from the data, with a PrivacyLeakWarning).  The released bin
    edges are the data's min and max: adding the entry 3 to [0] moves them deterministically,
    so the true ε is infinite.  Outputs: the 4 counts and the 4 left edges."""
    out = _histogram(data, rng, size, "tools_histogram_misconfigured_range_from_data",
                     with_range=False)
    return out  # type: ignore[return-value]


@declare(epsilon=1.0, relation="add-remove", pairs=[[[0], []], [[0, 3], [3]]],
         elements=[0, 1, 2, 3], sizes=[0, 1, 2], library=LIBRARY)
def tools_histogramdd(data: list[Hashable], rng: np.random.Generator, size: int) -> I64:
    """``tools.histogramdd`` of the points (x, x mod 2) with 2×2 bins on [0, 4)×[0, 2): correct
    under add/remove (one record moves one cell by 1)."""
    x = _numbers(data, "tools_histogramdd")
    points = np.stack([x, x % 2], axis=1) if len(x) else np.empty((0, 2))
    accountant = _module("accountant").BudgetAccountant
    state = _state(rng)

    def draw() -> Sequence[float]:
        hist, _ = _tools().histogramdd(points, epsilon=1.0, bins=2, range=[(0, 4), (0, 2)],
                                       random_state=state, accountant=accountant())
        return [int(v) for v in hist.ravel()]

    out: I64 = _rows(draw, size, 4, np.int64)
    return out


@declare(epsilon=1.0, relation="add-remove", pairs=[[[0], []], [[0, 3], [3]]],
         elements=[0, 1, 2, 3], sizes=[0, 1, 2], library=LIBRARY)
def tools_histogram2d(data: list[Hashable], rng: np.random.Generator, size: int) -> I64:
    """``tools.histogram2d`` of (x, x mod 2) with 2×2 bins on [0, 4)×[0, 2): correct under
    add/remove."""
    x = _numbers(data, "tools_histogram2d")
    accountant = _module("accountant").BudgetAccountant
    state = _state(rng)

    def draw() -> Sequence[float]:
        hist, _, _ = _tools().histogram2d(x, x % 2, epsilon=1.0, bins=2,
                                          range=[(0, 4), (0, 2)], random_state=state,
                                          accountant=accountant())
        return [int(v) for v in hist.ravel()]

    out: I64 = _rows(draw, size, 4, np.int64)
    return out


# ---------------------------------------------------------------- the budget accountant

_ONE_PAIRS = [[[0], [4]], [[0, 0], [4, 0]]]
"""One-record pairs first: a mean moved by the full width 4 puts the atom at 4 in play (P = 1/2
from 4, e⁻¹/2 from 0, per release), which 2,000 samples see."""


def _two_means(data: list[Hashable], rng: np.random.Generator, size: int, shared: bool) -> F64:
    """The sum of two ``tools.mean(x, epsilon=1, bounds=(0, 4))`` releases (post-processing of
    the pair), on one accountant (``shared``) or on two fresh ones."""
    x = _numbers(data, "accountant_mean_twice")
    accountant = _module("accountant").BudgetAccountant
    state = _state(rng)
    t = _tools()

    def draw() -> float:
        first = accountant()
        second = first if shared else accountant()
        return float(t.mean(x, epsilon=1.0, bounds=(0, BOUND), random_state=state,
                            accountant=first)
                     + t.mean(x, epsilon=1.0, bounds=(0, BOUND), random_state=state,
                              accountant=second))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _floats(draw, size)


@declare(epsilon=2.0, relation="substitution", pairs=_ONE_PAIRS, bounds=(0, BOUND),
         sizes=[1, 2], library=LIBRARY)
def accountant_mean_twice(data: list[Hashable], rng: np.random.Generator, size: int) -> F64:
    """Two ``tools.mean(x, epsilon=1, bounds=(0, 4))`` on one ``BudgetAccountant``, released as
    their sum and claimed at the accountant's ``total()`` = (2, 0): correct (sequential
    composition, then post-processing)."""
    return _two_means(data, rng, size, shared=True)


@declare(epsilon=1.0, relation="substitution", pairs=_ONE_PAIRS, bounds=(0, BOUND),
         sizes=[1, 2], library=LIBRARY)
def accountant_mean_twice_misconfigured_fresh_accountants(data: list[Hashable],
                                                          rng: np.random.Generator,
                                                          size: int) -> F64:
    """The same two means, each on a fresh ``BudgetAccountant()``, claimed at one accountant's
    ``total()`` = (1, 0): MISCONFIGURED (double spending hidden from the accountant).  The
    true ε is 2: on [0] vs [4] (scale 4, truncation to [0, 4]) the sum is 8 with probability
    1/4 from 4 and e⁻²/4 from 0."""
    return _two_means(data, rng, size, shared=False)


# ---------------------------------------------------------------- known bugs

@declare(epsilon=1.0, relation="substitution", pairs=[[[0, 0], [4, 0]], [[0, 0, 0], [4, 0, 0]]],
         bounds=(0, BOUND), sizes=[2, 3], library=LIBRARY)
def known_bug_issue20_domain_from_data_buggy(data: list[Hashable], rng: np.random.Generator,
                                             size: int) -> F64:
    """``tools.mean(x, epsilon=1)`` without ``bounds`` (diffprivlib issue 20, open in 0.6.6):
    the bounds are the data's min and max (a PrivacyLeakWarning, and the release goes on).
    On [0, 0] the bounds are (0, 0), the sensitivity 0 and the output exactly 0.0; on [4, 0] it
    is noisy: the true ε is infinite."""
    return _mean(_numbers(data, "known_bug_issue20_domain_from_data_buggy"), rng, size,
                 bounds=None)


@declare(epsilon=1.0, relation="substitution", pairs=[[[0, 0], [4, 0]], [[0, 0, 0], [4, 0, 0]]],
         bounds=(0, BOUND), sizes=[2, 3], library=LIBRARY)
def known_bug_issue20_domain_from_data_fixed(data: list[Hashable], rng: np.random.Generator,
                                             size: int) -> F64:
    """The fix of issue 20's misuse: ``tools.mean(x, epsilon=1, bounds=(0, 4))``, bounds from
    domain knowledge: ε = 1 in real arithmetic."""
    return _mean(_numbers(data, "known_bug_issue20_domain_from_data_fixed"), rng, size)


_NAN_PAIRS: list[list[list[int | None]]] = [[[None, 0], [4, 0]], [[None, 4], [0, 4]]]


@declare(epsilon=1.0, relation="substitution", pairs=_NAN_PAIRS, elements=[0, 4, None],
         sizes=[2], library=LIBRARY)
def known_bug_issue80_nan_clamp_buggy(data: list[Hashable], rng: np.random.Generator,
                                      size: int) -> F64:
    """``tools.mean(x, epsilon=1, bounds=(0, 4))`` on data with a missing value (None -> NaN):
    diffprivlib issue 80 (open in 0.6.6, the newest release): ``np.clip`` keeps NaN, the mean
    is NaN, ``LaplaceTruncated`` adds noise to NaN and its clamp keeps NaN, so the output is NaN
    exactly when a NaN record is present: the true ε is infinite."""
    return _mean(_numbers(data, "known_bug_issue80_nan_clamp_buggy"), rng, size)


@declare(epsilon=1.0, relation="substitution", pairs=_NAN_PAIRS, elements=[0, 4, None],
         sizes=[2], library=LIBRARY)
def known_bug_issue80_nan_clamp_fixed(data: list[Hashable], rng: np.random.Generator,
                                      size: int) -> F64:
    """The fix: map a missing value into the bounds before the call
    (``np.nan_to_num(x, nan=lower)``, a per-record map, so substitution stays substitution),
    then ``tools.mean(x, epsilon=1, bounds=(0, 4))``: ε = 1 in real arithmetic."""
    x = np.nan_to_num(_numbers(data, "known_bug_issue80_nan_clamp_fixed"), nan=0.0)
    return _mean(x, rng, size)


def textbook_laplace(value: float, scale: float, rng: np.random.Generator, size: int) -> F64:
    """The textbook floating-point Laplace mechanism: ``value − scale·sign(u)·ln(1 − 2|u|)``
    with u uniform on (−1/2, 1/2) in doubles (Dwork et al. 2006, as written; Mironov 2012
    section 2 shows it leaks: its outputs miss many doubles, and which ones depends on
    ``value``).  Draws from ``rng`` only."""
    u = rng.random(size) - 0.5
    out: F64 = value - scale * np.sign(u) * np.log(1 - 2 * np.abs(u))
    return out


@declare(epsilon=1.0, relation="add-remove", pairs=[[[0], []], [[0, 0, 0], [0, 0]]],
         elements=[0, 1], sizes=[0, 1, 2, 3])
def known_bug_textbook_laplace_buggy(data: list[Hashable], rng: np.random.Generator,
                                     size: int) -> F64:
    """:func:`textbook_laplace` of scale 1 on the count, claimed 1-DP: the Mironov (CCS 2012)
    floating-point leak.  Real view: exactly Laplace(1), ε = 1 (clean); IEEE view: outputs
    from count 1 in (0, 1/2) are multiples of 2⁻⁵³ (Sterbenz), from count 0 most are finer:
    the true ε of the implementation is infinite (flagged)."""
    return textbook_laplace(float(len(data)), 1.0, rng, size)


@declare(epsilon=1.0, relation="add-remove", pairs=[[[0], []], [[0, 0, 0], [0, 0]]],
         elements=[0, 1], sizes=[0, 1, 2, 3], library=LIBRARY)
def known_bug_textbook_laplace_fixed_snapping(data: list[Hashable], rng: np.random.Generator,
                                              size: int) -> F64:
    """The fix of Mironov 2012, as diffprivlib ships it: ``Snapping(epsilon=1, sensitivity=1,
    lower=0, upper=16)`` on the count (outputs on a power-of-two grid): clean in both views."""
    m = _snapping(rng)
    n = len(data)
    return _floats(lambda: m.randomise(n), size)
