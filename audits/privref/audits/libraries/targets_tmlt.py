"""Tumult Core's public noise-adding measurements as declared black-box targets (issue 37).

Library: Tumult Core (distribution ``tmlt.core``, import ``tmlt.core``), tested with 0.20.0 on
Python 3.11, numpy 1.26.4, pandas 1.5.3, python-flint 0.9.0 (``pip install 'privref[tmlt]'``;
tmlt.core pins numpy < 2 and pulls pyspark, so it usually lives in its own virtual environment).
Docs: https://docs.tmlt.dev/core/latest/ (reference of ``tmlt.core.measurements``), source
https://github.com/opendp/tumult-core.  The library is imported inside the targets (through
:func:`importlib.import_module`), never at module top, so this module imports without it.

**Seeding (bit-reproducible audits).**  Every random bit Tumult Core draws comes from one
generator, ``tmlt.core.random.rng.prng()``: the inverse-CDF samplers of Laplace, Gaussian and
uniform (``tmlt.core.random.inverse_cdf``), the exact discrete samplers of Canonne, Kamath and
Steinke (``tmlt.core.random.discrete_gaussian``, through ``RNGWrapper(prng()).randrange``) and
the Gumbel bits of ``NoisyQuantile``.  ``prng()`` returns the module global
``_core_privacy_prng`` (a ``numpy.random.Generator`` over RDRAND, or over ``os.urandom``),
rebuilt only when the process id differs from ``_core_privacy_prng_pid``.  :func:`tumult_rng`
replaces that global, for the duration of one call, by ``numpy.random.Generator(
rng.bit_generator)``, a generator that shares the audit's bit generator, and sets the pid to the
current one; so every draw consumes the audit's ``rng``, the same seed gives the same outputs
bit for bit, and the targets declare ``uses_own_randomness=False``.  Two other sources exist and
are never reached here: ``random.choice`` (Python's global RNG) for an infinite noise scale,
and Spark's ``rand()`` in the partition shuffle of Spark measurements (not audited here).

**Glue.**  Numbers: ``AddLaplaceNoise`` and ``AddGaussianNoise`` take a Python ``float`` (their
domain is ``NumpyFloatDomain``), ``AddGeometricNoise`` and ``AddDiscreteGaussianNoise`` an
``int``; ``AddNoiseToSeries`` and ``NoisyQuantile`` take a ``pandas.Series`` of ``int64``.
The datasets are lists of entries; a count is ``len(data)``, a histogram counts the entries 0
and 1, a clamped sum clamps each entry to [0, 4].  Tumult has no batch sampler, so the
vectorized form ``fn(data, rng, size)`` builds the measurement once (cached per process) and
calls it ``size`` times: Tumult's own code runs on every draw.

**Claims, in Tumult's terms.**  Each claim is ``measurement.privacy_function(d_in)`` (an
``ExactNumber``, a sympy rational here, taken exactly) for the ``d_in`` of one neighboring step
under the measurement's input metric: ``AbsoluteDifference`` of the query value (1 for a count
under add-remove, 4 for a sum clamped to [0, 4]), ``SumOf(AbsoluteDifference())`` (L1) or
``RootSumOfSquared(AbsoluteDifference())`` (L2) of a histogram (add-remove moves one bin by 1;
substitution moves two, L1 = 2 and L2 = √2), ``SymmetricDifference`` of a quantile's input
(1 under add-remove).  ``PureDP`` claims are ``declare(epsilon=...)``, ``RhoZCDP`` claims
``declare(rho=...)`` (audited at (ε, δ) points the claim implies), and ``RhoZCDPToApproxDP``,
which only has a ``privacy_relation``, is declared at the boundary of that relation, (ρ +
2√(ρ ln(1/δ)), δ) (Bun and Steinke 2016, Proposition 1.3), the ε Tumult solves for.
:func:`library_claim` recomputes every declared claim from the installed library (the tests
check that both agree).

References: McSherry and Talwar 2007 (the exponential mechanism, ``NoisyQuantile``); Canonne,
Kamath and Steinke 2020 (the discrete Gaussian and its sampler); Bun and Steinke 2016 (zCDP,
Propositions 1.3 and 1.4); Cesar and Rogers 2021 (the exponential mechanism is ε²/8-zCDP);
Mironov 2012 (floating-point attacks on the textbook Laplace mechanism).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from privref.audits.blackbox.declarations import declare
from privref.reference.reals import log, rational, sqrt

__all__ = [
    "DISTRIBUTION",
    "ZCDP_TO_APPROX_DELTA",
    "discrete_gaussian_count",
    "discrete_gaussian_count_misconfigured_rho_as_eps",
    "discrete_gaussian_count_zcdp_to_approx",
    "gaussian_count",
    "gaussian_sum_misconfigured_sensitivity",
    "geometric_count",
    "geometric_count_misconfigured_double_spent",
    "laplace_count",
    "laplace_count_pure_to_zcdp",
    "laplace_sum_misconfigured_sensitivity",
    "library_claim",
    "noisy_quantile_median",
    "noisy_quantile_median_misconfigured_rho_as_eps",
    "noisy_quantile_median_zcdp",
    "quantiles_by_column",
    "series_discrete_gaussian_histogram_substitution",
    "series_geometric_histogram",
    "series_geometric_histogram_misconfigured_substitution",
    "series_geometric_histogram_substitution",
    "tumult_rng",
]

DISTRIBUTION = "tmlt.core"
"""The distribution the targets use (``declare(library=...)``, the suite's ``requires``)."""

ZCDP_TO_APPROX_DELTA = Fraction(1, 1000)
"""The δ at which :func:`discrete_gaussian_count_zcdp_to_approx` states its (ε, δ) claim."""

_BOUNDS = (0, 4)
_ADD_REMOVE_COUNT = [[[0], []]]
_QUANTILE_PAIRS = [[[2, 2], [2, 2, 4]]]

# ----------------------------------------------------------------------------------------------
# Tumult's generator, seeded from the audit's rng


def _module(name: str) -> Any:
    """``tmlt.core``'s module ``name``, imported on first use (Any: the library may be absent)."""
    return importlib.import_module(name)


@contextmanager
def tumult_rng(rng: np.random.Generator) -> Iterator[None]:
    """Make Tumult Core draw from ``rng`` for the duration of the block.

    Replaces ``tmlt.core.random.rng._core_privacy_prng`` (what ``prng()`` returns) by
    ``numpy.random.Generator(rng.bit_generator)`` and its pid guard by the current process id,
    then restores both: every Tumult draw in the block consumes ``rng``'s bit generator, so
    the same seed gives the same outputs (the module docstring explains why this covers every
    draw of the measurements audited here)."""
    rng_module = _module("tmlt.core.random.rng")
    saved = (rng_module._core_privacy_prng, rng_module._core_privacy_prng_pid)
    rng_module._core_privacy_prng = np.random.Generator(rng.bit_generator)
    rng_module._core_privacy_prng_pid = os.getpid()
    try:
        yield
    finally:
        rng_module._core_privacy_prng, rng_module._core_privacy_prng_pid = saved


# ----------------------------------------------------------------------------------------------
# Measurements, built once per process


@cache
def _laplace(scale: str) -> Any:
    noise = _module("tmlt.core.measurements.noise_mechanisms")
    domains = _module("tmlt.core.domains.numpy_domains")
    return noise.AddLaplaceNoise(domains.NumpyFloatDomain(), scale=scale)


@cache
def _gaussian(sigma_squared: str) -> Any:
    noise = _module("tmlt.core.measurements.noise_mechanisms")
    domains = _module("tmlt.core.domains.numpy_domains")
    return noise.AddGaussianNoise(domains.NumpyFloatDomain(), sigma_squared=sigma_squared)


@cache
def _geometric(alpha: str) -> Any:
    return _module("tmlt.core.measurements.noise_mechanisms").AddGeometricNoise(alpha=alpha)


@cache
def _discrete_gaussian(sigma_squared: str) -> Any:
    noise = _module("tmlt.core.measurements.noise_mechanisms")
    return noise.AddDiscreteGaussianNoise(sigma_squared=sigma_squared)


@cache
def _series(kind: str, scale: str) -> Any:
    series = _module("tmlt.core.measurements.pandas_measurements.series")
    inner = _geometric(scale) if kind == "geometric" else _discrete_gaussian(scale)
    return series.AddNoiseToSeries(inner)


@cache
def _quantile(measure: str, epsilon: str) -> Any:
    series = _module("tmlt.core.measurements.pandas_measurements.series")
    domains = _module("tmlt.core.domains.pandas_domains")
    numpy_domains = _module("tmlt.core.domains.numpy_domains")
    measures = _module("tmlt.core.measures")
    return series.NoisyQuantile(domains.PandasSeriesDomain(numpy_domains.NumpyIntegerDomain()),
                                measures.PureDP() if measure == "pure" else measures.RhoZCDP(),
                                quantile=0.5, lower=_BOUNDS[0], upper=_BOUNDS[1], epsilon=epsilon)


@cache
def _quantiles_by_column() -> Any:
    dataframe = _module("tmlt.core.measurements.pandas_measurements.dataframe")
    domains = _module("tmlt.core.domains.pandas_domains")
    numpy_domains = _module("tmlt.core.domains.numpy_domains")
    series = _module("tmlt.core.measurements.pandas_measurements.series")
    measures = _module("tmlt.core.measures")
    column = domains.PandasSeriesDomain(numpy_domains.NumpyIntegerDomain())
    return dataframe.AggregateByColumn(
        domains.PandasDataFrameDomain({"a": column, "b": column}),
        {c: series.NoisyQuantile(column, measures.PureDP(), quantile=0.5, lower=_BOUNDS[0],
                                 upper=_BOUNDS[1], epsilon="1/2") for c in ("a", "b")})


@cache
def _pure_to_zcdp_laplace(scale: str) -> Any:
    converters = _module("tmlt.core.measurements.converters")
    return converters.PureDPToRhoZCDP(_laplace(scale))


@cache
def _zcdp_to_approx_discrete_gaussian(sigma_squared: str) -> Any:
    converters = _module("tmlt.core.measurements.converters")
    return converters.RhoZCDPToApproxDP(_discrete_gaussian(sigma_squared))


# ----------------------------------------------------------------------------------------------
# Queries and the batching loop


def _count(data: Sequence[object]) -> int:
    return len(data)


def _clamped_sum(data: Sequence[object]) -> int:
    low, high = _BOUNDS
    return sum(min(max(int(x), low), high) for x in data)  # type: ignore[call-overload]


def _histogram(data: Sequence[object]) -> Any:
    pd = _module("pandas")
    return pd.Series([sum(1 for x in data if x == v) for v in (0, 1)], dtype="int64")


def _int_series(data: Sequence[object]) -> Any:
    pd = _module("pandas")
    return pd.Series([int(x) for x in data], dtype="int64")  # type: ignore[call-overload]


def _draws(rng: np.random.Generator, size: int, one: Callable[[], object]) -> list[object]:
    """``size`` draws of ``one()`` with Tumult seeded from ``rng`` (:func:`tumult_rng`)."""
    with tumult_rng(rng):
        return [one() for _ in range(size)]


# ----------------------------------------------------------------------------------------------
# AddLaplaceNoise (PureDP)


@declare(epsilon="1/2", relation="add-remove", pairs=_ADD_REMOVE_COUNT, elements=[0, 1],
         library=DISTRIBUTION, uses_own_randomness=False)
def laplace_count(data: Sequence[object], rng: np.random.Generator, size: int) -> np.ndarray:
    """A count with ``AddLaplaceNoise(NumpyFloatDomain(), scale=2)``: correct.

    Claim: ``privacy_function(1)`` = 1/2 (a count moves by 1 under add-remove).  True ε in real
    arithmetic: 1/2 (the Laplace ratio Δ/b, attained on the tails).  Tumult samples the Laplace
    law at location ``float(count)`` by inverse CDF in ball arithmetic and returns the float
    nearest to the real sample, a post-processing of the real mechanism: no floating-point leak
    is expected either (both views NO_VIOLATION_FOUND)."""
    m, value = _laplace("2"), float(_count(data))
    return np.array(_draws(rng, size, lambda: m(value)), dtype=np.float64)


@declare(epsilon="1/2", relation="add-remove", pairs=[[[4], []]], bounds=_BOUNDS,
         library=DISTRIBUTION, uses_own_randomness=False)
def laplace_sum_misconfigured_sensitivity(data: Sequence[object], rng: np.random.Generator,
                                          size: int) -> np.ndarray:
    """A sum of entries clamped to [0, 4] with ``AddLaplaceNoise(scale=2)``: MISCONFIGURED.

    The user reads the claim as ``privacy_function(1)`` = 1/2, but one entry moves the clamped
    sum by up to 4 (``AbsoluteDifference`` d_in = 4): Tumult's own answer is
    ``privacy_function(4)`` = 2, the true ε (pair [4] vs [])."""
    m, value = _laplace("2"), float(_clamped_sum(data))
    return np.array(_draws(rng, size, lambda: m(value)), dtype=np.float64)


@declare(rho="1/8", relation="add-remove", pairs=_ADD_REMOVE_COUNT, elements=[0, 1],
         library=DISTRIBUTION, uses_own_randomness=False)
def laplace_count_pure_to_zcdp(data: Sequence[object], rng: np.random.Generator,
                               size: int) -> np.ndarray:
    """``PureDPToRhoZCDP(AddLaplaceNoise(scale=2))`` on a count: correct.

    Claim: ``privacy_function(1)`` = ε²/2 = 1/8 (ε-DP implies ε²/2-zCDP, Bun and Steinke 2016
    Proposition 1.4); the mechanism is :func:`laplace_count`, 1/2-DP, so the claim holds."""
    m, value = _pure_to_zcdp_laplace("2"), float(_count(data))
    return np.array(_draws(rng, size, lambda: m(value)), dtype=np.float64)


# ----------------------------------------------------------------------------------------------
# AddGeometricNoise (PureDP)


@declare(epsilon=1, relation="add-remove", pairs=_ADD_REMOVE_COUNT, elements=[0, 1],
         library=DISTRIBUTION, uses_own_randomness=False)
def geometric_count(data: Sequence[object], rng: np.random.Generator, size: int) -> np.ndarray:
    """A count with ``AddGeometricNoise(alpha=1)`` (two-sided geometric): correct.

    Claim: ``privacy_function(1)`` = 1/α = 1; the true ε is 1 (P[k] ∝ e^{-|k - c|/α}, ratio e
    on the tails).  Integer outputs: one view."""
    m, value = _geometric("1"), _count(data)
    return np.array(_draws(rng, size, lambda: m(value)), dtype=np.int64)


@declare(epsilon=1, relation="add-remove", pairs=_ADD_REMOVE_COUNT, elements=[0, 1],
         library=DISTRIBUTION, uses_own_randomness=False)
def geometric_count_misconfigured_double_spent(data: Sequence[object], rng: np.random.Generator,
                                               size: int) -> np.ndarray:
    """The same count released twice with ``AddGeometricNoise(alpha=1)``: MISCONFIGURED.

    The claim is one release's ``privacy_function(1)`` = 1, but the budget is spent twice
    (sequential composition, what Tumult's ``Composition`` would charge: 2); the true ε is 2
    (both releases on their tails)."""
    m, value = _geometric("1"), _count(data)
    return np.array(_draws(rng, size, lambda: (m(value), m(value))), dtype=np.int64)


# ----------------------------------------------------------------------------------------------
# AddDiscreteGaussianNoise and AddGaussianNoise (RhoZCDP)


@declare(rho="1/2", relation="add-remove", pairs=_ADD_REMOVE_COUNT, elements=[0, 1],
         library=DISTRIBUTION, uses_own_randomness=False)
def discrete_gaussian_count(data: Sequence[object], rng: np.random.Generator,
                            size: int) -> np.ndarray:
    """A count with ``AddDiscreteGaussianNoise(sigma_squared=1)``: correct.

    Claim: ``privacy_function(1)`` = Δ²/(2σ²) = 1/2-zCDP (Canonne, Kamath and Steinke 2020
    Proposition 5), audited at the (ε, δ) points it implies.  Integer outputs: one view."""
    m, value = _discrete_gaussian("1"), _count(data)
    return np.array(_draws(rng, size, lambda: m(value)), dtype=np.int64)


@declare(epsilon="1/2", relation="add-remove", pairs=_ADD_REMOVE_COUNT, elements=[0, 1],
         library=DISTRIBUTION, uses_own_randomness=False)
def discrete_gaussian_count_misconfigured_rho_as_eps(data: Sequence[object],
                                                     rng: np.random.Generator,
                                                     size: int) -> np.ndarray:
    """:func:`discrete_gaussian_count` with its ρ = 1/2 stated as pure ε = 1/2: MISCONFIGURED.

    ``privacy_function(1)`` is a RhoZCDP value; read as a PureDP ε it is wrong: no Gaussian
    mechanism is ε-DP for any finite ε (the loss at output k, (2k - 1)/(2σ²), is unbounded;
    it exceeds 1/2 from k = 1 on)."""
    m, value = _discrete_gaussian("1"), _count(data)
    return np.array(_draws(rng, size, lambda: m(value)), dtype=np.int64)


@declare(epsilon=rational(Fraction(1, 2)) + 2 * sqrt(Fraction(1, 2) * log(1 / ZCDP_TO_APPROX_DELTA)),
         delta=ZCDP_TO_APPROX_DELTA, relation="add-remove", pairs=_ADD_REMOVE_COUNT,
         elements=[0, 1], library=DISTRIBUTION, uses_own_randomness=False)
def discrete_gaussian_count_zcdp_to_approx(data: Sequence[object], rng: np.random.Generator,
                                           size: int) -> np.ndarray:
    """``RhoZCDPToApproxDP(AddDiscreteGaussianNoise(sigma_squared=1))`` on a count: correct.

    The converter only has a ``privacy_relation``: (ε, δ) is accepted when the ρ solving
    ρ + 2√(ρ ln(1/δ)) = ε is at least the wrapped ρ = 1/2; the claim is the boundary,
    ε = 1/2 + 2√(ln(1000)/2) ≈ 4.2169 at δ = 1/1000 (Bun and Steinke 2016 Proposition 1.3),
    which holds."""
    m, value = _zcdp_to_approx_discrete_gaussian("1"), _count(data)
    return np.array(_draws(rng, size, lambda: m(value)), dtype=np.int64)


@declare(rho="1/2", relation="add-remove", pairs=_ADD_REMOVE_COUNT, elements=[0, 1],
         library=DISTRIBUTION, uses_own_randomness=False)
def gaussian_count(data: Sequence[object], rng: np.random.Generator, size: int) -> np.ndarray:
    """A count with ``AddGaussianNoise(NumpyFloatDomain(), sigma_squared=1)``: configured
    correctly (claim ``privacy_function(1)`` = 1/2-zCDP, true in real arithmetic).

    As implemented, Tumult returns ``float(value) + gaussian(u=0, sigma_squared)``: the noise is
    rounded to a float, then added in floating point (unlike ``AddLaplaceNoise``, which samples
    at the location and rounds once).  From 1.0, an output in [2⁻⁸, 2⁻⁴) is 1 + n with n in
    (-1, -1/2), exact by Sterbenz and a multiple of 2⁻⁵³; from 0.0 it is the noise itself, on a
    grid down to 2⁻⁶⁰: odd multiples of 2⁻⁵⁵ there are reachable from 0.0 only, a
    floating-point leak (Mironov 2012; docs/library-tmlt.md)."""
    m, value = _gaussian("1"), float(_count(data))
    return np.array(_draws(rng, size, lambda: m(value)), dtype=np.float64)


@declare(rho="1/8", relation="add-remove", pairs=[[[4], []]], bounds=_BOUNDS,
         library=DISTRIBUTION, uses_own_randomness=False)
def gaussian_sum_misconfigured_sensitivity(data: Sequence[object], rng: np.random.Generator,
                                           size: int) -> np.ndarray:
    """A sum of entries clamped to [0, 4] with ``AddGaussianNoise(sigma_squared=4)``:
    MISCONFIGURED.

    Claim read as ``privacy_function(1)`` = 1/8-zCDP, but d_in is 4: Tumult's own
    ``privacy_function(4)`` = 16/8 = 2 is the true ρ, a violation in real arithmetic too."""
    m, value = _gaussian("4"), float(_clamped_sum(data))
    return np.array(_draws(rng, size, lambda: m(value)), dtype=np.float64)


# ----------------------------------------------------------------------------------------------
# AddNoiseToSeries (vectors)


@declare(epsilon="1/2", relation="add-remove", pairs=[[[0], []]], elements=[0, 1],
         library=DISTRIBUTION, uses_own_randomness=False)
def series_geometric_histogram(data: Sequence[object], rng: np.random.Generator,
                               size: int) -> np.ndarray:
    """A histogram of the entries 0 and 1 with ``AddNoiseToSeries(AddGeometricNoise(alpha=2))``:
    correct.

    Input metric ``SumOf(AbsoluteDifference())`` (L1); one entry added or removed moves one bin
    by 1, so the claim is ``privacy_function(1)`` = 1/2, the true ε."""
    m, hist = _series("geometric", "2"), _histogram(data)
    return np.array(_draws(rng, size, lambda: tuple(m(hist))), dtype=np.int64)


@declare(epsilon=1, relation="substitution", pairs=[[[0], [1]]],
         elements=[0, 1], library=DISTRIBUTION, uses_own_randomness=False)
def series_geometric_histogram_substitution(data: Sequence[object], rng: np.random.Generator,
                                            size: int) -> np.ndarray:
    """:func:`series_geometric_histogram` under substitution, claimed correctly.

    Substituting one entry moves two bins by 1 each: L1 distance 2, claim
    ``privacy_function(2)`` = 1, the true ε."""
    m, hist = _series("geometric", "2"), _histogram(data)
    return np.array(_draws(rng, size, lambda: tuple(m(hist))), dtype=np.int64)


@declare(epsilon="1/2", relation="substitution", pairs=[[[0], [1]]],
         elements=[0, 1], library=DISTRIBUTION, uses_own_randomness=False)
def series_geometric_histogram_misconfigured_substitution(data: Sequence[object],
                                                          rng: np.random.Generator,
                                                          size: int) -> np.ndarray:
    """:func:`series_geometric_histogram` under substitution with the add-remove claim:
    MISCONFIGURED.

    The claim ``privacy_function(1)`` = 1/2 is for add-remove (L1 distance 1); a substitution
    moves two bins (L1 = 2), so the true ε is ``privacy_function(2)`` = 1 (pair [0] vs [1])."""
    m, hist = _series("geometric", "2"), _histogram(data)
    return np.array(_draws(rng, size, lambda: tuple(m(hist))), dtype=np.int64)


@declare(rho=1, relation="substitution", pairs=[[[0], [1]]], elements=[0, 1],
         library=DISTRIBUTION, uses_own_randomness=False)
def series_discrete_gaussian_histogram_substitution(data: Sequence[object],
                                                    rng: np.random.Generator,
                                                    size: int) -> np.ndarray:
    """A histogram with ``AddNoiseToSeries(AddDiscreteGaussianNoise(sigma_squared=1))`` under
    substitution: correct.

    Input metric ``RootSumOfSquared(AbsoluteDifference())`` (L2): a substitution moves two bins
    by 1, d_in = √2, claim ``privacy_function(√2)`` = 2/(2σ²) = 1-zCDP (independent
    coordinates: ρ adds up), the true ρ."""
    m, hist = _series("discrete-gaussian", "1"), _histogram(data)
    return np.array(_draws(rng, size, lambda: tuple(m(hist))), dtype=np.int64)


# ----------------------------------------------------------------------------------------------
# NoisyQuantile (the exponential mechanism) and AggregateByColumn


@declare(epsilon=1, relation="add-remove", pairs=_QUANTILE_PAIRS, elements=[0, 2, 4],
         library=DISTRIBUTION, uses_own_randomness=False)
def noisy_quantile_median(data: Sequence[object], rng: np.random.Generator,
                          size: int) -> np.ndarray:
    """The median of entries in [0, 4] with ``NoisyQuantile(PureDP(), quantile=0.5, lower=0,
    upper=4, epsilon=1)``: correct.

    Input metric ``SymmetricDifference``, claim ``privacy_function(1)`` = ε = 1.  The
    exponential mechanism (McSherry and Talwar 2007) picks an interval between sorted entries
    with weight (length) · exp(-ε |rank - q n| / (2 Δu)), Δu = max(q, 1 - q), with Gumbel noise
    in ball arithmetic, then a uniform point in it (inverse CDF, rounded once: a post-processing
    of the real output, so no floating-point leak is expected)."""
    m, series = _quantile("pure", "1"), _int_series(data)
    return np.array(_draws(rng, size, lambda: m(series)), dtype=np.float64)


@declare(rho="1/8", relation="add-remove", pairs=_QUANTILE_PAIRS, elements=[0, 2, 4],
         library=DISTRIBUTION, uses_own_randomness=False)
def noisy_quantile_median_zcdp(data: Sequence[object], rng: np.random.Generator,
                               size: int) -> np.ndarray:
    """:func:`noisy_quantile_median` with ``RhoZCDP()`` as its output measure: correct.

    Claim ``privacy_function(1)`` = ε²/8 = 1/8-zCDP (Cesar and Rogers 2021: the ε-DP
    exponential mechanism is ε²/8-zCDP); the sampler is the same as the pure one."""
    m, series = _quantile("zcdp", "1"), _int_series(data)
    return np.array(_draws(rng, size, lambda: m(series)), dtype=np.float64)


@declare(epsilon="1/8", relation="add-remove", pairs=_QUANTILE_PAIRS, elements=[0, 2, 4],
         library=DISTRIBUTION, uses_own_randomness=False)
def noisy_quantile_median_misconfigured_rho_as_eps(data: Sequence[object],
                                                   rng: np.random.Generator,
                                                   size: int) -> np.ndarray:
    """:func:`noisy_quantile_median_zcdp` with its ρ = 1/8 stated as pure ε = 1/8:
    MISCONFIGURED.

    The mechanism is the ε = 1 exponential mechanism; its loss on the pair [2, 2] vs [2, 2, 4]
    is far above 1/8 (the interval [2, 4] changes rank)."""
    m, series = _quantile("zcdp", "1"), _int_series(data)
    return np.array(_draws(rng, size, lambda: m(series)), dtype=np.float64)


@declare(epsilon=1, relation="add-remove", pairs=[[[(2, 2), (2, 2)], [(2, 2), (2, 2), (4, 4)]]],
         library=DISTRIBUTION, uses_own_randomness=False)
def quantiles_by_column(data: Sequence[object], rng: np.random.Generator, size: int) -> np.ndarray:
    """Two medians, of columns ``a`` and ``b`` of a pandas DataFrame whose rows are the entries
    (pairs in [0, 4]), with ``AggregateByColumn`` over two ``NoisyQuantile(PureDP(),
    epsilon=1/2)``: correct.

    Claim ``privacy_function(1)`` = 1/2 + 1/2 = 1 (Tumult composes the columns: one row
    touches both); each median is 1/2-DP, the true ε is at most 1."""
    pd = _module("pandas")
    rows = [tuple(int(v) for v in row) for row in data]  # type: ignore[attr-defined]
    frame = pd.DataFrame({"a": [r[0] for r in rows], "b": [r[1] for r in rows]}, dtype="int64")
    m = _quantiles_by_column()

    def one() -> tuple[float, float]:
        out = m(frame)
        return float(out["a"].iloc[0]), float(out["b"].iloc[0])

    return np.array(_draws(rng, size, one), dtype=np.float64)


# ----------------------------------------------------------------------------------------------
# The claims, recomputed from the installed library


def _exact(value: Any) -> Fraction:
    """An ``ExactNumber`` (a sympy rational) as a Fraction; ValueError when not rational."""
    expr = getattr(value, "expr", value)
    if not getattr(expr, "is_Rational", False):
        raise ValueError(f"{value!r} is not a rational number")
    return Fraction(int(expr.p), int(expr.q))


def _l2_substitution() -> Any:
    return _module("sympy").sqrt(2)


_LIBRARY_CLAIMS: dict[str, Callable[[], dict[str, Fraction]]] = {
    "laplace_count": lambda: {"epsilon": _exact(_laplace("2").privacy_function(1))},
    "laplace_sum_misconfigured_sensitivity":
        lambda: {"epsilon": _exact(_laplace("2").privacy_function(1))},
    "laplace_count_pure_to_zcdp": lambda: {"rho": _exact(_pure_to_zcdp_laplace("2")
                                                         .privacy_function(1))},
    "geometric_count": lambda: {"epsilon": _exact(_geometric("1").privacy_function(1))},
    "geometric_count_misconfigured_double_spent":
        lambda: {"epsilon": _exact(_geometric("1").privacy_function(1))},
    "discrete_gaussian_count": lambda: {"rho": _exact(_discrete_gaussian("1").privacy_function(1))},
    "discrete_gaussian_count_misconfigured_rho_as_eps":
        lambda: {"epsilon": _exact(_discrete_gaussian("1").privacy_function(1))},
    "gaussian_count": lambda: {"rho": _exact(_gaussian("1").privacy_function(1))},
    "gaussian_sum_misconfigured_sensitivity":
        lambda: {"rho": _exact(_gaussian("4").privacy_function(1))},
    "series_geometric_histogram":
        lambda: {"epsilon": _exact(_series("geometric", "2").privacy_function(1))},
    "series_geometric_histogram_substitution":
        lambda: {"epsilon": _exact(_series("geometric", "2").privacy_function(2))},
    "series_geometric_histogram_misconfigured_substitution":
        lambda: {"epsilon": _exact(_series("geometric", "2").privacy_function(1))},
    "series_discrete_gaussian_histogram_substitution":
        lambda: {"rho": _exact(_series("discrete-gaussian", "1")
                               .privacy_function(_l2_substitution()))},
    "noisy_quantile_median": lambda: {"epsilon": _exact(_quantile("pure", "1").privacy_function(1))},
    "noisy_quantile_median_zcdp": lambda: {"rho": _exact(_quantile("zcdp", "1").privacy_function(1))},
    "noisy_quantile_median_misconfigured_rho_as_eps":
        lambda: {"epsilon": _exact(_quantile("zcdp", "1").privacy_function(1))},
    "quantiles_by_column": lambda: {"epsilon": _exact(_quantiles_by_column().privacy_function(1))},
}


def library_claim(name: str) -> dict[str, Fraction]:
    """The claim of target ``name`` recomputed from the installed Tumult Core, exactly:
    ``{"epsilon": ...}`` (PureDP) or ``{"rho": ...}`` (RhoZCDP), the value of
    ``privacy_function(d_in)`` that the target declares (its docstring names d_in).  For
    :func:`discrete_gaussian_count_zcdp_to_approx`, whose converter has only a
    ``privacy_relation``, ``{"rho": ...}`` is the wrapped measurement's ρ (the declared ε is the
    boundary of the relation at :data:`ZCDP_TO_APPROX_DELTA`).  KeyError for an unknown name;
    ImportError when tmlt.core is not installed."""
    if name == "discrete_gaussian_count_zcdp_to_approx":
        return {"rho": _exact(_zcdp_to_approx_discrete_gaussian("1").zcdp_measurement
                              .privacy_function(1))}
    return _LIBRARY_CLAIMS[name]()

