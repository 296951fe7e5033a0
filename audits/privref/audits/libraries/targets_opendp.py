"""OpenDP's noise-adding measurements as declared black-box targets (issue 37; OpenDP 0.16.0).

Library and version: ``opendp`` 0.16.0 (``pip install 'privref[opendp]'``); the Polars entry
also needs ``polars`` 1.36.1 (OpenDP's ``polars`` extra pins it), which privref does not install.

Randomness: OpenDP draws every random bit from its own CSPRNG (``opendp::traits::samplers``,
seeded by the operating system) and has **no seeding API**.  These targets draw nothing from the
auditor's ``rng`` and are declared ``uses_own_randomness=True``: their audits are statistically
valid (every draw is fresh and independent) but not bit-reproducible from ``--seed``.

Claims: each claim is OpenDP's own privacy map, ``meas.map(d_in)``, in OpenDP's own measure
(``MaxDivergence``: ε; ``ZeroConcentratedDivergence``: ρ; ``Approximate(MaxDivergence)``: (ε, δ)),
taken at the float's exact binary value.  ``@declare`` runs when this module is imported, without
OpenDP, so the claims are written here as exact constants; every target checks, when it builds
its measurement (first call), that OpenDP's map gives exactly that value, and raises
:class:`ClaimDrift` (the audit stops with an error, never a verdict) when it does not.  OpenDP's
native claim for the threshold measurements is approximate zCDP (ρ, δ); ``declare`` cannot state
that yet, so those claims are stated as (ε, δ) through OpenDP's own conversion
(``make_fix_delta(make_zCDP_to_approxDP(meas), δ)``).  A *misconfigured* target reads the map at
the wrong ``d_in``, under the wrong relation, in the wrong measure or once for several releases;
its docstring says what is wrong and what its true ε is.

Glue: datasets are Python lists (the auditor's neighbour relation acts on their entries).  A
count is ``make_count`` on ``vector_domain(atom_domain(T=int))`` with ``symmetric_distance``
(OpenDP's add/remove distance; a substitution is distance 2).  Vectorized forms
(``fn(data, rng, size)``) apply the transformation once and then the same noise constructor on
``vector_domain(atom_domain(T))`` with ``l1_distance`` (or ``l2_distance``) to ``size`` copies of
the query value: one OpenDP call for ``size`` draws (about 10 times faster than one call per
draw; OpenDP documents the vector form as adding the scalar noise to each coordinate, see
``privref.audits.blackbox.adapters_opendp``).  The other targets call the composed measurement
once per draw (about 100-400 µs each).  Keyed (threshold, ALP) targets take a dataset of user
keys (``"a"``/``"b"``), one key per user, and count them (each user changes one count by one:
``d_in = (l0, l1, l∞) = (1, 1, 1)``).

References: https://docs.opendp.org/en/v0.16.0/api/python/opendp.measurements.html (every
constructor, with its proof), .../opendp.combinators.html (``make_zCDP_to_approxDP``,
``make_fix_delta``), .../api/user-guide/polars/index.html; OpenDP issues 2922
(https://github.com/opendp/opendp/issues/2922) and 2923
(https://github.com/opendp/opendp/issues/2923); docs/library-opendp.md.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from privref.reference.errors import InvalidArgument, PrivrefError

from ..blackbox.declarations import declare

__all__ = [
    "TARGETS",
    "ClaimDrift",
    "alp_queryable",
    "canonical_noise",
    "gaussian_count_approx",
    "gaussian_count_float",
    "gaussian_count_misconfigured_delta0",
    "gaussian_count_misconfigured_rho_as_eps",
    "gaussian_count_zcdp",
    "geometric_count",
    "known_bug_2922_buggy",
    "known_bug_2922_fixed",
    "known_bug_2922_gaussian_buggy",
    "known_bug_2922_gaussian_fixed",
    "known_bug_2922_gaussian_native",
    "known_bug_2923_buggy",
    "known_bug_2923_fixed",
    "laplace_count",
    "laplace_count_float",
    "laplace_count_misconfigured_user_level",
    "laplace_count_user_level",
    "laplace_sum",
    "laplace_sum_misconfigured_sensitivity",
    "laplace_sum_misconfigured_substitution",
    "laplace_sum_substitution",
    "noise_count",
    "noisy_max",
    "noisy_max_misconfigured_sensitivity",
    "noisy_max_zcdp",
    "noisy_top_k",
    "polars_len",
    "private_quantile",
    "randomized_response",
    "randomized_response_bitvec",
    "randomized_response_bool",
    "randomized_response_bool_misconfigured_double_spent",
    "report_noisy_max_gumbel",
]

LIB = "opendp"


class ClaimDrift(PrivrefError):
    """The installed OpenDP's privacy map no longer gives the claim a target declares (written for
    OpenDP 0.16.0): the target refuses to run rather than audit a stale claim."""


@functools.cache
def _dp() -> Any:
    """``opendp.prelude`` with the ``contrib`` feature on (a process-wide flag OpenDP requires
    for these constructors); imported on first use only."""
    import opendp.prelude as dp

    dp.enable_features("contrib")
    return dp


def _exact(value: object, what: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ClaimDrift(f"{what} = {value!r}: expected a number")
    return Fraction(value)


def _check(value: object, expected: Fraction | tuple[Fraction, Fraction], what: str) -> None:
    """ClaimDrift unless OpenDP's map ``value`` (a number, or an (ε, δ) pair) is exactly
    ``expected`` (floats at their exact binary values)."""
    if isinstance(expected, tuple):
        if not isinstance(value, tuple | list) or len(value) != 2:
            raise ClaimDrift(f"{what} = {value!r}: expected an (epsilon, delta) pair")
        got: Fraction | tuple[Fraction, Fraction] = (_exact(value[0], what),
                                                     _exact(value[1], what))
    else:
        got = _exact(value, what)
    if got != expected:
        raise ClaimDrift(f"{what} = {value!r} on the installed OpenDP, but the target declares "
                         f"{expected!r} (OpenDP 0.16.0's map): update targets_opendp")


_VERIFIED: set[str] = set()


def _check_once(what: str, value: Callable[[], object],
                expected: Fraction | tuple[Fraction, Fraction]) -> None:
    """:func:`_check` of ``value()`` the first time ``what`` is checked in this process (a map,
    e.g. OpenDP's zCDP-to-(ε, δ) conversion, can cost milliseconds: once, not per draw)."""
    if what not in _VERIFIED:
        _check(value(), expected, what)
        _VERIFIED.add(what)


# ------------------------------------------------------------------ data glue

def _ints(data: Sequence[Hashable], what: str) -> list[int]:
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in data):
        raise InvalidArgument(f"data={list(data)!r}: the entries of {what} must be ints")
    return [int(x) for x in data if isinstance(x, int)]


def _one(data: Sequence[Hashable], allowed: Sequence[Hashable], what: str) -> Hashable:
    if len(data) != 1 or data[0] not in allowed:
        raise InvalidArgument(f"data={list(data)!r}: {what} takes one entry, one of "
                              f"{list(allowed)}")
    return data[0]


KEYS = ("a", "b")
"""The user keys of the keyed (threshold, ALP) targets: each user holds one key."""


def _key_counts(data: Sequence[Hashable], what: str) -> dict[str, int]:
    if not all(x in KEYS for x in data):
        raise InvalidArgument(f"data={list(data)!r}: the entries of {what} must be keys in "
                              f"{list(KEYS)} (one per user)")
    counts: dict[str, int] = {}
    for x in data:
        counts[str(x)] = counts.get(str(x), 0) + 1
    return counts


def _floats(data: Sequence[Hashable], n: int, what: str) -> list[float]:
    if len(data) != n or not all(isinstance(x, float | int) and not isinstance(x, bool)
                                 for x in data):
        raise InvalidArgument(f"data: {what} takes exactly {n} numbers (got {len(data)} entries)")
    return [float(x) for x in data if isinstance(x, float | int)]


def _batch(noise: Any, value: object, size: int, dtype: type) -> np.ndarray[Any, Any]:
    """``size`` draws of the vector-valued noise measurement on copies of ``value``."""
    return np.asarray(noise([value] * size) if size else [], dtype=dtype)


COUNT_PAIRS = [[[0], []], [[0, 0, 0], [0, 0]]]
"""Add/remove pairs of the counts: one entry more or less (any entry value)."""

KEY_PAIRS = [[["a"], []]]
"""The add/remove pair of the keyed targets: a user who alone holds key "a" (one OpenDP call per
draw, so one pair keeps the suite's time down)."""


# ------------------------------------------------------------------ Laplace family

LAPLACE_COUNT_SCALE = 2.0
LAPLACE_COUNT_EPS = Fraction(1, 2)
"""``make_count >> then_laplace(scale=2).map(1)``: 1/2 (discrete Laplace, sensitivity 1)."""


@functools.cache
def _count_noise(kind: str, scale: float, float_output: bool = False) -> tuple[Any, Any, Any]:
    """(count, composed measurement, vector noise) of ``make_count >> then_<kind>(scale)``:
    ``kind`` is laplace, gaussian, geometric or noise (make_noise with MaxDivergence)."""
    dp = _dp()
    t = float if float_output else int
    count = dp.t.make_count(dp.vector_domain(dp.atom_domain(T=int)), dp.symmetric_distance(),
                            TO=t)
    atom = dp.atom_domain(T=float, nan=False) if float_output else dp.atom_domain(T=int)
    vec = dp.vector_domain(atom)
    if kind == "laplace":
        meas = count >> dp.m.then_laplace(scale=scale)
        noise = dp.m.make_laplace(vec, dp.l1_distance(T=t), scale=scale)
    elif kind == "geometric":
        meas = count >> dp.m.then_geometric(scale=scale)
        noise = dp.m.make_geometric(vec, dp.l1_distance(T=t), scale=scale)
    elif kind == "noise":
        meas = count >> dp.m.then_noise(dp.max_divergence(), scale=scale)
        noise = dp.m.make_noise(vec, dp.l1_distance(T=t), dp.max_divergence(), scale=scale)
    else:
        meas = count >> dp.m.then_gaussian(scale=scale)
        noise = dp.m.make_gaussian(vec, dp.l2_distance(T=t), scale=scale)
    return count, meas, noise


def _noisy_count(kind: str, scale: float, d_in: int, expected: Fraction, rows: list[int],
                 size: int, float_output: bool = False) -> np.ndarray[Any, Any]:
    """``size`` draws of ``make_count >> then_<kind>(scale)`` on ``rows`` (OpenDP's count, then
    the vector noise), after checking once that ``map(d_in)`` is exactly ``expected``."""
    count, meas, noise = _count_noise(kind, scale, float_output)
    what = f"make_count{'(TO=float)' if float_output else ''} >> then_{kind}(scale={scale:g})"
    _check_once(f"{what}.map({d_in})", lambda: meas.map(d_in), expected)
    return _batch(noise, count(rows), size, np.float64 if float_output else np.int64)


@declare(epsilon=LAPLACE_COUNT_EPS, relation="add-remove", pairs=COUNT_PAIRS, elements=(0, 1),
         library=LIB, uses_own_randomness=True)
def laplace_count(data: Sequence[Hashable], rng: np.random.Generator,
                  size: int) -> np.ndarray[Any, Any]:
    """Correct: ``make_count >> then_laplace(scale=2)`` (discrete Laplace on the count), claim
    ``map(1)`` = 1/2 under add/remove; true ε = 1/2 (attained on every pair)."""
    return _noisy_count("laplace", LAPLACE_COUNT_SCALE, 1, LAPLACE_COUNT_EPS,
                        _ints(data, "laplace_count"), size)


LAPLACE_FLOAT_EPS = Fraction(1)


@declare(epsilon=LAPLACE_FLOAT_EPS, relation="add-remove", pairs=COUNT_PAIRS, elements=(0, 1),
         library=LIB, uses_own_randomness=True)
def laplace_count_float(data: Sequence[Hashable], rng: np.random.Generator,
                        size: int) -> np.ndarray[Any, Any]:
    """Correct: ``make_count(TO=float) >> then_laplace(scale=1)``, float outputs (OpenDP samples
    discrete Laplace on a grid 2^k, so the float bits carry nothing more: both views clean);
    claim ``map(1)`` = 1; true ε = 1."""
    return _noisy_count("laplace", 1.0, 1, LAPLACE_FLOAT_EPS, _ints(data, "laplace_count_float"),
                        size, float_output=True)


@declare(epsilon=LAPLACE_COUNT_EPS, relation="add-remove", pairs=COUNT_PAIRS, elements=(0, 1),
         library=LIB, uses_own_randomness=True)
def noise_count(data: Sequence[Hashable], rng: np.random.Generator,
                size: int) -> np.ndarray[Any, Any]:
    """Correct: ``make_count >> then_noise(max_divergence(), scale=2)`` (the generic constructor;
    pure DP selects discrete Laplace), claim ``map(1)`` = 1/2; true ε = 1/2."""
    return _noisy_count("noise", LAPLACE_COUNT_SCALE, 1, LAPLACE_COUNT_EPS,
                        _ints(data, "noise_count"), size)


@declare(epsilon=LAPLACE_COUNT_EPS, relation="add-remove", pairs=COUNT_PAIRS, elements=(0, 1),
         library=LIB, uses_own_randomness=True)
def geometric_count(data: Sequence[Hashable], rng: np.random.Generator,
                    size: int) -> np.ndarray[Any, Any]:
    """Correct: ``make_count >> then_geometric(scale=2)`` (discrete Laplace by the geometric
    sampler), claim ``map(1)`` = 1/2; true ε = 1/2."""
    return _noisy_count("geometric", LAPLACE_COUNT_SCALE, 1, LAPLACE_COUNT_EPS,
                        _ints(data, "geometric_count"), size)


USER_RECORDS = 3
"""Records per user of the user-level counts: each user (one entry) contributes 3 rows."""
USER_LEVEL_EPS = Fraction(3, 2)


@declare(epsilon=LAPLACE_COUNT_EPS, relation="add-remove", pairs=COUNT_PAIRS, elements=(0, 1),
         library=LIB, uses_own_randomness=True)
def laplace_count_misconfigured_user_level(data: Sequence[Hashable], rng: np.random.Generator,
                                           size: int) -> np.ndarray[Any, Any]:
    """MISCONFIGURED (record-level bound for user-level privacy): each user (an entry of the
    dataset) contributes 3 rows to ``make_count >> then_laplace(scale=2)``, but the claim is
    ``map(1)`` = 1/2; adding a user moves the count by 3, so the true ε is ``map(3)`` = 3/2."""
    rows = [x for x in _ints(data, "laplace_count_misconfigured_user_level")
            for _ in range(USER_RECORDS)]
    return _noisy_count("laplace", LAPLACE_COUNT_SCALE, 1, LAPLACE_COUNT_EPS, rows, size)


@declare(epsilon=USER_LEVEL_EPS, relation="add-remove", pairs=COUNT_PAIRS, elements=(0, 1),
         library=LIB, uses_own_randomness=True)
def laplace_count_user_level(data: Sequence[Hashable], rng: np.random.Generator,
                             size: int) -> np.ndarray[Any, Any]:
    """Correct: as ``laplace_count_misconfigured_user_level`` (3 rows per user) with the claim
    read at the user's contribution, ``map(3)`` = 3/2; true ε = 3/2."""
    rows = [x for x in _ints(data, "laplace_count_user_level") for _ in range(USER_RECORDS)]
    return _noisy_count("laplace", LAPLACE_COUNT_SCALE, USER_RECORDS, USER_LEVEL_EPS, rows, size)


SUM_BOUNDS = (0, 4)
SUM_SCALE = 8.0
SUM_EPS = Fraction(1, 2)
"""``make_clamp(bounds=(0, 4)) >> then_sum() >> then_laplace(scale=8)``.map(1) = 4/8."""


@functools.cache
def _clamped_sum(bounds: tuple[int, int], scale: float) -> tuple[Any, Any, Any]:
    dp = _dp()
    vec = dp.vector_domain(dp.atom_domain(T=int))
    query = dp.t.make_clamp(vec, dp.symmetric_distance(), bounds=bounds) >> dp.t.then_sum()
    meas = query >> dp.m.then_laplace(scale=scale)
    noise = dp.m.make_laplace(vec, dp.l1_distance(T=int), scale=scale)
    return query, meas, noise


@declare(epsilon=SUM_EPS, relation="add-remove", pairs=[[[4], []], [[4, 0], [0]]],
         bounds=SUM_BOUNDS, library=LIB, uses_own_randomness=True)
def laplace_sum(data: Sequence[Hashable], rng: np.random.Generator,
                size: int) -> np.ndarray[Any, Any]:
    """Correct: ``make_clamp(bounds=(0, 4)) >> then_sum() >> then_laplace(scale=8)``, claim
    ``map(1)`` = 1/2 (OpenDP's sum knows its sensitivity 4); true ε = 4/8 = 1/2."""
    query, meas, noise = _clamped_sum(SUM_BOUNDS, SUM_SCALE)
    _check_once("make_clamp((0, 4)) >> then_sum() >> then_laplace(8).map(1)",
                lambda: meas.map(1),
                SUM_EPS)
    return _batch(noise, query(_ints(data, "laplace_sum")), size, np.int64)


MISCONFIGURED_SUM_SCALE = 2.0


@declare(epsilon=Fraction(1, 2), relation="add-remove", pairs=[[[4], []], [[4, 0], [0]]],
         bounds=SUM_BOUNDS, library=LIB, uses_own_randomness=True)
def laplace_sum_misconfigured_sensitivity(data: Sequence[Hashable], rng: np.random.Generator,
                                          size: int) -> np.ndarray[Any, Any]:
    """MISCONFIGURED (sensitivity understated): the entries clamped to [0, 4] are summed in
    Python and fed to ``make_laplace(atom_domain(T=int), absolute_distance(T=int), scale=2)``,
    whose guarantee is read as ``map(1)`` = 1/2; one entry moves the sum by 4, so the true ε
    is ``map(4)`` = 2."""
    dp = _dp()
    scalar = _scalar_laplace(MISCONFIGURED_SUM_SCALE)
    _check_once("make_laplace(atom int, scale=2).map(1)", lambda: scalar.map(1), Fraction(1, 2))
    noise = dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int),
                              scale=MISCONFIGURED_SUM_SCALE)
    total = sum(min(max(x, 0), 4) for x in _ints(data, "laplace_sum_misconfigured_sensitivity"))
    return _batch(noise, total, size, np.int64)


@functools.cache
def _scalar_laplace(scale: float) -> Any:
    dp = _dp()
    return dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=scale)


SIGNED_BOUNDS = (-2, 2)
SIGNED_SCALE = 2.0
SIGNED_PAIRS = [[[2], [-2]], [[2, 0], [-2, 0]]]
"""Substitution pairs of the signed sum: one entry 2 replaced by -2 moves the sum by 4."""


@declare(epsilon=Fraction(1), relation="substitution", pairs=SIGNED_PAIRS, bounds=SIGNED_BOUNDS,
         library=LIB, uses_own_randomness=True)
def laplace_sum_misconfigured_substitution(data: Sequence[Hashable], rng: np.random.Generator,
                                           size: int) -> np.ndarray[Any, Any]:
    """MISCONFIGURED (add/remove distance read as substitution): ``make_clamp(bounds=(-2, 2)) >>
    then_sum() >> then_laplace(scale=2)`` is stated under ``symmetric_distance`` (add/remove:
    one record moves the sum by 2, ``map(1)`` = 1), and ``map(1)`` is claimed for a
    substitution, which is symmetric distance 2 (a substitution 2 -> -2 moves it by 4): true ε
    ``map(2)`` = 2."""
    query, meas, noise = _clamped_sum(SIGNED_BOUNDS, SIGNED_SCALE)
    _check_once("make_clamp((-2, 2)) >> then_sum() >> then_laplace(2).map(1)",
                lambda: meas.map(1),
                Fraction(1))
    return _batch(noise, query(_ints(data, "laplace_sum_misconfigured_substitution")), size,
                  np.int64)


@declare(epsilon=Fraction(2), relation="substitution", pairs=SIGNED_PAIRS, bounds=SIGNED_BOUNDS,
         library=LIB, uses_own_randomness=True)
def laplace_sum_substitution(data: Sequence[Hashable], rng: np.random.Generator,
                             size: int) -> np.ndarray[Any, Any]:
    """Correct: as ``laplace_sum_misconfigured_substitution`` with the claim read at symmetric
    distance 2 (one substitution), ``map(2)`` = 2; true ε = 4/2 = 2."""
    query, meas, noise = _clamped_sum(SIGNED_BOUNDS, SIGNED_SCALE)
    _check_once("make_clamp((-2, 2)) >> then_sum() >> then_laplace(2).map(2)",
                lambda: meas.map(2),
                Fraction(2))
    return _batch(noise, query(_ints(data, "laplace_sum_substitution")), size, np.int64)


# ------------------------------------------------------------------ Gaussian family

GAUSS_SCALE = 2.0
GAUSS_RHO = Fraction(1, 8)
"""``make_count >> then_gaussian(scale=2).map(1)``: ρ = 1/(2·2²) = 1/8 (zCDP)."""


@declare(rho=GAUSS_RHO, relation="add-remove", pairs=COUNT_PAIRS, elements=(0, 1), library=LIB,
         uses_own_randomness=True)
def gaussian_count_zcdp(data: Sequence[Hashable], rng: np.random.Generator,
                        size: int) -> np.ndarray[Any, Any]:
    """Correct: ``make_count >> then_gaussian(scale=2)`` (discrete Gaussian), claim ``map(1)`` =
    ρ = 1/8 (zCDP, OpenDP's measure), audited at the (ε, δ) points it implies."""
    return _noisy_count("gaussian", GAUSS_SCALE, 1, GAUSS_RHO, _ints(data, "gaussian_count_zcdp"),
                        size)


@declare(epsilon=GAUSS_RHO, relation="add-remove", pairs=COUNT_PAIRS, elements=(0, 1),
         library=LIB, uses_own_randomness=True)
def gaussian_count_misconfigured_rho_as_eps(data: Sequence[Hashable], rng: np.random.Generator,
                                            size: int) -> np.ndarray[Any, Any]:
    """MISCONFIGURED (ρ stated as pure ε): ``make_count >> then_gaussian(scale=2)`` whose zCDP
    ``map(1)`` = ρ = 1/8 is claimed as (1/8, 0)-DP; the discrete Gaussian is ε-DP for no
    finite ε (its loss at output k is (2k - 1)/8, unbounded)."""
    return _noisy_count("gaussian", GAUSS_SCALE, 1, GAUSS_RHO,
                        _ints(data, "gaussian_count_misconfigured_rho_as_eps"), size)


GAUSS_FLOAT_RHO = Fraction(1, 2)


@declare(rho=GAUSS_FLOAT_RHO, relation="add-remove", pairs=COUNT_PAIRS, elements=(0, 1),
         library=LIB, uses_own_randomness=True)
def gaussian_count_float(data: Sequence[Hashable], rng: np.random.Generator,
                         size: int) -> np.ndarray[Any, Any]:
    """Correct: ``make_count(TO=float) >> then_gaussian(scale=1)``, float outputs (discrete
    Gaussian on a grid 2^k), claim ``map(1)`` = ρ = 1/2; both views clean."""
    return _noisy_count("gaussian", 1.0, 1, GAUSS_FLOAT_RHO, _ints(data, "gaussian_count_float"),
                        size, float_output=True)


APPROX_DELTA = 0.05
"""The δ at which OpenDP's conversion states the discrete Gaussian (scale 1) as (ε, δ)-DP."""
APPROX_EPS = Fraction(2.0425160727325973)
"""``make_fix_delta(make_zCDP_to_approxDP(make_count >> then_gaussian(scale=1)), 0.05)``.map(1)
= (2.0425160727325973, 0.05): the ε, at its exact binary value."""


@functools.cache
def _gauss_approx() -> tuple[Any, Any]:
    dp = _dp()
    count, meas, noise = _count_noise("gaussian", 1.0)
    fixed = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(meas), APPROX_DELTA)
    _check_once("make_fix_delta(make_zCDP_to_approxDP(count >> gaussian(1)), 0.05).map(1)",
                lambda: fixed.map(1), (APPROX_EPS, Fraction(APPROX_DELTA)))
    return count, noise


@declare(epsilon=APPROX_EPS, delta=Fraction(APPROX_DELTA), relation="add-remove",
         pairs=COUNT_PAIRS, elements=(0, 1), library=LIB, uses_own_randomness=True)
def gaussian_count_approx(data: Sequence[Hashable], rng: np.random.Generator,
                          size: int) -> np.ndarray[Any, Any]:
    """Correct: ``make_count >> then_gaussian(scale=1)`` (ρ = 1/2) stated as (ε, δ) =
    (2.0425..., 0.05) by OpenDP's own ``make_fix_delta(make_zCDP_to_approxDP(...), 0.05)``."""
    count, noise = _gauss_approx()
    return _batch(noise, count(_ints(data, "gaussian_count_approx")), size, np.int64)


@declare(epsilon=APPROX_EPS, relation="add-remove", pairs=[[[0], []]], elements=(0, 1),
         library=LIB, uses_own_randomness=True)
def gaussian_count_misconfigured_delta0(data: Sequence[Hashable], rng: np.random.Generator,
                                        size: int) -> np.ndarray[Any, Any]:
    """MISCONFIGURED (δ = 0 for a Gaussian): as ``gaussian_count_approx`` with the δ = 0.05 of
    OpenDP's (ε, δ) dropped, claiming (2.0425..., 0)-DP; the discrete Gaussian's loss (2k - 1)/2
    at output k is unbounded (P[k >= 3] = 0.0586 from [0] against 0.0046 from [], a ratio
    e^2.54)."""
    count, noise = _gauss_approx()
    return _batch(noise, count(_ints(data, "gaussian_count_misconfigured_delta0")), size,
                  np.int64)


# ------------------------------------------------------------------ randomized response

RR_BOOL_EPS = Fraction(1.0986122886681098)
"""``make_randomized_response_bool(prob=0.75).map(1)``: ln 3 rounded up to the next float."""


@functools.cache
def _rr_bool() -> Any:
    meas = _dp().m.make_randomized_response_bool(prob=0.75)
    _check_once("make_randomized_response_bool(prob=0.75).map(1)", lambda: meas.map(1), RR_BOOL_EPS)
    return meas


@declare(epsilon=RR_BOOL_EPS, relation="substitution", pairs=[[[True], [False]]],
         elements=(False, True), sizes=(1,), library=LIB, uses_own_randomness=True)
def randomized_response_bool(data: Sequence[Hashable], rng: np.random.Generator) -> bool:
    """Correct: ``make_randomized_response_bool(prob=0.75)`` on a one-entry dataset [bit],
    claim ``map(1)`` = ln 3 (rounded up); true ε = ln 3."""
    return bool(_rr_bool()(bool(_one(data, (False, True), "randomized_response_bool"))))


@declare(epsilon=RR_BOOL_EPS, relation="substitution", pairs=[[[True], [False]]],
         elements=(False, True), sizes=(1,), library=LIB, uses_own_randomness=True)
def randomized_response_bool_misconfigured_double_spent(
        data: Sequence[Hashable], rng: np.random.Generator) -> tuple[bool, bool]:
    """MISCONFIGURED (double-spent budget): the same bit is released twice by
    ``make_randomized_response_bool(prob=0.75)`` and the claim is one ``map(1)`` = ln 3; two
    releases compose to 2 ln 3 (attained on the output (True, True))."""
    bit = bool(_one(data, (False, True), "randomized_response_bool_misconfigured_double_spent"))
    meas = _rr_bool()
    return bool(meas(bit)), bool(meas(bit))


RR_EPS = Fraction(0.6931471805599454)
"""``make_randomized_response(categories=[0, 1, 2], prob=0.5).map(1)``: ln 2 (as a float)."""


@functools.cache
def _rr() -> Any:
    meas = _dp().m.make_randomized_response(categories=[0, 1, 2], prob=0.5)
    _check_once("make_randomized_response([0, 1, 2], prob=0.5).map(1)", lambda: meas.map(1), RR_EPS)
    return meas


@declare(epsilon=RR_EPS, relation="substitution", pairs=[[[0], [1]]],
         elements=(0, 1, 2), sizes=(1,), library=LIB, uses_own_randomness=True)
def randomized_response(data: Sequence[Hashable], rng: np.random.Generator) -> int:
    """Correct: ``make_randomized_response(categories=[0, 1, 2], prob=0.5)`` on a one-entry
    dataset [category]: the truth with probability 1/2, else one of the two others uniformly;
    claim ``map(1)`` = ln 2 = ln((1/2)/(1/4)); true ε = ln 2."""
    category = _ints([_one(data, (0, 1, 2), "randomized_response")], "randomized_response")[0]
    return int(_rr()(category))


BITVEC_EPS = Fraction(2.1972245773362196)
"""``make_randomized_response_bitvec(bitvector_domain(max_weight=1), discrete_distance(),
f=0.5).map(1)``: 2 ln 3 (as a float): two bits differ, each flipped with odds 3."""


@functools.cache
def _bitvec() -> Any:
    dp = _dp()
    meas = dp.m.make_randomized_response_bitvec(dp.bitvector_domain(max_weight=1),
                                                dp.discrete_distance(), f=0.5)
    _check_once("make_randomized_response_bitvec(max_weight=1, f=0.5).map(1)",
                lambda: meas.map(1),
                BITVEC_EPS)
    return meas


@declare(epsilon=BITVEC_EPS, relation="substitution", pairs=[[[0], [1]]],
         elements=tuple(range(8)), sizes=(1,), library=LIB, uses_own_randomness=True)
def randomized_response_bitvec(data: Sequence[Hashable],
                               rng: np.random.Generator) -> tuple[int, ...]:
    """Correct: ``make_randomized_response_bitvec(bitvector_domain(max_weight=1),
    discrete_distance(), f=0.5)`` on one user's 8-bit vector with a single 1 at the position
    given by the dataset's one entry (0-7); output the 8 released bits.  Claim ``map(1)`` =
    2 ln 3 (each bit kept with probability 3/4); true ε = 2 ln 3."""
    position = int(_ints([_one(data, tuple(range(8)), "randomized_response_bitvec")],
                         "randomized_response_bitvec")[0])
    bits = np.zeros(8, dtype=np.uint8)
    bits[position] = 1
    out = _bitvec()(np.packbits(bits))
    return tuple(int(b) for b in np.unpackbits(np.frombuffer(bytes(out), dtype=np.uint8))[:8])


# ------------------------------------------------------------------ selection

VOTE_CANDIDATES = (0, 1, 2)
VOTE_PAIRS = [[[1], []]]
"""The add/remove pair of the vote targets: one vote for candidate 1 (one pair: one OpenDP call
per draw)."""


def _votes(data: Sequence[Hashable], weight: int, what: str) -> list[int]:
    votes = _ints(data, what)
    if not all(v in VOTE_CANDIDATES for v in votes):
        raise InvalidArgument(f"data={list(data)!r}: the entries of {what} are votes in "
                              f"{list(VOTE_CANDIDATES)}")
    return [weight * votes.count(c) for c in VOTE_CANDIDATES]


@functools.cache
def _selector(kind: str, scale: float) -> Any:
    dp = _dp()
    vec, linf = dp.vector_domain(dp.atom_domain(T=int)), dp.linf_distance(T=int)
    if kind == "max":
        return dp.m.make_noisy_max(vec, linf, dp.max_divergence(), scale=scale)
    if kind == "max-zcdp":
        return dp.m.make_noisy_max(vec, linf, dp.zero_concentrated_divergence(), scale=scale)
    if kind == "gumbel":
        import warnings

        with warnings.catch_warnings():  # deprecated since 0.14 in favour of make_noisy_max
            warnings.simplefilter("ignore", DeprecationWarning)
            return dp.m.make_report_noisy_max_gumbel(vec, linf, scale=scale)
    return dp.m.make_noisy_top_k(vec, linf, dp.max_divergence(), k=2, scale=scale)


SELECT_SCALE = 2.0
NOISY_MAX_EPS = Fraction(1)
"""``make_noisy_max(..., max_divergence(), scale=2).map(1)``: 2·1/2 = 1 (scores not monotone)."""


@declare(epsilon=NOISY_MAX_EPS, relation="add-remove", pairs=VOTE_PAIRS,
         elements=VOTE_CANDIDATES, library=LIB, uses_own_randomness=True)
def noisy_max(data: Sequence[Hashable], rng: np.random.Generator) -> int:
    """Correct: ``make_noisy_max(vector_domain(atom_domain(T=int)), linf_distance(T=int),
    max_divergence(), scale=2)`` (report noisy max, exponential noise) on the vote counts of
    candidates 0-2 (one vote changes one count by 1: l∞ distance 1); claim ``map(1)`` = 1."""
    meas = _selector("max", SELECT_SCALE)
    _check_once("make_noisy_max(max_divergence, scale=2).map(1)",
                lambda: meas.map(1),
                NOISY_MAX_EPS)
    return int(meas(_votes(data, 1, "noisy_max")))


NOISY_MAX_RHO = Fraction(1, 8)


@declare(rho=NOISY_MAX_RHO, relation="add-remove", pairs=VOTE_PAIRS, elements=VOTE_CANDIDATES,
         library=LIB, uses_own_randomness=True)
def noisy_max_zcdp(data: Sequence[Hashable], rng: np.random.Generator) -> int:
    """Correct: ``make_noisy_max(..., zero_concentrated_divergence(), scale=2)`` (Gumbel noise:
    the exponential mechanism, ε = 1 bounded range, ρ = ε²/8), claim ``map(1)`` = ρ = 1/8.
    OpenDP issue 2911 (permute-and-flip charged ε²/8) is a Rényi-divergence bug a black-box
    (ε, δ) audit cannot see; tests/app/test_accountant_regression_opendp_2911.py checks it."""
    meas = _selector("max-zcdp", SELECT_SCALE)
    _check_once("make_noisy_max(zCDP, scale=2).map(1)", lambda: meas.map(1), NOISY_MAX_RHO)
    return int(meas(_votes(data, 1, "noisy_max_zcdp")))


@declare(epsilon=NOISY_MAX_EPS, relation="add-remove", pairs=VOTE_PAIRS,
         elements=VOTE_CANDIDATES, library=LIB, uses_own_randomness=True)
def report_noisy_max_gumbel(data: Sequence[Hashable], rng: np.random.Generator) -> int:
    """Correct: the deprecated ``make_report_noisy_max_gumbel(..., scale=2)`` (Gumbel noise) on
    the vote counts, claim ``map(1)`` = 1 (pure DP)."""
    meas = _selector("gumbel", SELECT_SCALE)
    _check_once("make_report_noisy_max_gumbel(scale=2).map(1)", lambda: meas.map(1), NOISY_MAX_EPS)
    return int(meas(_votes(data, 1, "report_noisy_max_gumbel")))


TOP_K_EPS = Fraction(2)


@declare(epsilon=TOP_K_EPS, relation="add-remove", pairs=VOTE_PAIRS, elements=VOTE_CANDIDATES,
         library=LIB, uses_own_randomness=True)
def noisy_top_k(data: Sequence[Hashable], rng: np.random.Generator) -> tuple[int, ...]:
    """Correct: ``make_noisy_top_k(..., max_divergence(), k=2, scale=2)`` on the vote counts,
    output the two indices in order; claim ``map(1)`` = 2 (k = 2 releases of ε = 1)."""
    meas = _selector("top-k", SELECT_SCALE)
    _check_once("make_noisy_top_k(k=2, scale=2).map(1)", lambda: meas.map(1), TOP_K_EPS)
    return tuple(int(i) for i in meas(_votes(data, 1, "noisy_top_k")))


VOTE_WEIGHT = 4


@declare(epsilon=NOISY_MAX_EPS, relation="add-remove", pairs=VOTE_PAIRS,
         elements=VOTE_CANDIDATES, library=LIB, uses_own_randomness=True)
def noisy_max_misconfigured_sensitivity(data: Sequence[Hashable],
                                        rng: np.random.Generator) -> int:
    """MISCONFIGURED (sensitivity understated): each vote counts 4 points, computed in Python,
    and ``make_noisy_max(..., max_divergence(), scale=2)`` is claimed at ``map(1)`` = 1; one
    vote moves a score by 4, so the true ε is ``map(4)`` = 4."""
    meas = _selector("max", SELECT_SCALE)
    _check_once("make_noisy_max(max_divergence, scale=2).map(1)",
                lambda: meas.map(1),
                NOISY_MAX_EPS)
    return int(meas(_votes(data, VOTE_WEIGHT, "noisy_max_misconfigured_sensitivity")))


QUANTILE_CANDIDATES = (0, 1, 2, 3, 4)
QUANTILE_EPS = Fraction(1)


@functools.cache
def _quantile() -> Any:
    dp = _dp()
    meas = dp.m.make_private_quantile(dp.vector_domain(dp.atom_domain(T=int)),
                                      dp.symmetric_distance(), dp.max_divergence(),
                                      candidates=list(QUANTILE_CANDIDATES), alpha=0.5, scale=1.0)
    _check_once("make_private_quantile(alpha=0.5, scale=1).map(1)",
                lambda: meas.map(1),
                QUANTILE_EPS)
    return meas


@declare(epsilon=QUANTILE_EPS, relation="add-remove", pairs=[[[4, 0], [0]]],
         elements=QUANTILE_CANDIDATES, sizes=(0, 1, 2, 3), library=LIB,
         uses_own_randomness=True)
def private_quantile(data: Sequence[Hashable], rng: np.random.Generator) -> int:
    """Correct: ``make_private_quantile(vector_domain(atom_domain(T=int)), symmetric_distance(),
    max_divergence(), candidates=[0..4], alpha=0.5, scale=1)`` (the median by the exponential
    mechanism on OpenDP's quantile scores), claim ``map(1)`` = 1."""
    return int(_quantile()(_ints(data, "private_quantile")))


CANONICAL_CLAIM = (Fraction(1), Fraction(0.001))
"""``make_canonical_noise(d_in=1, d_out=(1, 1e-3)).map(1)``: (1, 0.001) (δ at its binary value)."""


@functools.cache
def _canonical() -> Any:
    dp = _dp()
    meas = dp.m.make_canonical_noise(dp.atom_domain(T=float, nan=False),
                                     dp.absolute_distance(T=float), d_in=1.0, d_out=(1.0, 1e-3))
    _check_once("make_canonical_noise(d_in=1, d_out=(1, 1e-3)).map(1)",
                lambda: meas.map(1.0),
                CANONICAL_CLAIM)
    return meas


@declare(epsilon=CANONICAL_CLAIM[0], delta=CANONICAL_CLAIM[1], relation="substitution",
         pairs=[[[0.0], [1.0]]], elements=(0.0, 1.0), sizes=(1,), library=LIB,
         uses_own_randomness=True)
def canonical_noise(data: Sequence[Hashable], rng: np.random.Generator) -> float:
    """Correct: ``make_canonical_noise(atom_domain(T=float), absolute_distance(T=float),
    d_in=1, d_out=(1, 1e-3))`` (Awan and Vadhan's canonical noise distribution for (1, 1e-3))
    on a one-entry dataset [x], x in [0, 1]; claim ``map(1)`` = (1, 0.001); float outputs."""
    return float(_canonical()(_floats(data, 1, "canonical_noise")[0]))


# ------------------------------------------------------------------ keyed: thresholds and ALP

THRESHOLD = 3
GAUSS_THRESHOLD_SCALE = 2.0
"""Noise scale of the Gaussian threshold targets (the Laplace ones use scale 1)."""
LAPLACE_2922_CLAIM = (Fraction(1), Fraction(0.03639726343516558))
"""``make_laplace_threshold(scale=1, threshold=3).map((1, 1, 1))``: (1, 0.0364) = (1, P[Z >= 3])
for Z discrete Laplace of scale 1: OpenDP issue 2922's understated δ."""
LAPLACE_2922_FIXED = (Fraction(1), Fraction(0.09893801980144723))
"""The same map at threshold 2: (1, P[Z >= 2]) = (1, 0.0989), the release probability of a
new key at threshold 3 (the off-by-one of issue 2922 corrected with OpenDP's own tail)."""


@functools.cache
def _threshold(kind: str, threshold: int) -> Any:
    dp = _dp()
    domain = dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=int))
    if kind == "laplace":
        return dp.m.make_laplace_threshold(domain, dp.l01inf_distance(dp.absolute_distance(T=int)),
                                           scale=1.0, threshold=threshold)
    if kind == "gaussian":
        return dp.m.make_gaussian_threshold(
            domain, dp.l02inf_distance(dp.absolute_distance(T=int)), scale=GAUSS_THRESHOLD_SCALE,
            threshold=threshold)
    return dp.m.make_noise_threshold(domain, dp.l02inf_distance(dp.absolute_distance(T=int)),
                                     dp.approximate(dp.zero_concentrated_divergence()),
                                     scale=GAUSS_THRESHOLD_SCALE, threshold=threshold)


def _release_of_a(meas: Any, data: Sequence[Hashable], what: str) -> int:
    """1 when key "a" is released, else 0: the event that witnesses issue 2922 (a key held by one
    user appears only with that user), as the only output, so that the audit looks at it alone."""
    return int("a" in meas(_key_counts(data, what)))


def _released(meas: Any, data: Sequence[Hashable], what: str) -> tuple[int, ...]:
    """The noisy count of each key in KEYS when released, else 0 (released counts are >= the
    threshold 3, so 0 is unambiguous)."""
    out = meas(_key_counts(data, what))
    return tuple(int(out.get(k, 0)) for k in KEYS)


@declare(epsilon=LAPLACE_2922_CLAIM[0], delta=LAPLACE_2922_CLAIM[1], relation="add-remove",
         pairs=KEY_PAIRS, elements=KEYS, library=LIB, uses_own_randomness=True)
def known_bug_2922_buggy(data: Sequence[Hashable], rng: np.random.Generator) -> int:
    """KNOWN BUG (OpenDP issue 2922, open in 0.16.0): ``make_laplace_threshold(map_domain(str ->
    int), l01inf_distance, scale=1, threshold=3)`` on per-key user counts; claim ``map((1, 1,
    1))`` = (1, 0.0364).  A key held by one user is released with probability P[1 + Z >= 3] =
    e^-2/(1 + e^-1) = 0.0989 and never without that user, so δ >= 0.0989: VIOLATION.  Output:
    1 when key "a" is released, else 0 (post-processing of the release)."""
    meas = _threshold("laplace", THRESHOLD)
    _check_once("make_laplace_threshold(1, 3).map((1,1,1))",
                lambda: meas.map((1, 1, 1)),
                LAPLACE_2922_CLAIM)
    return _release_of_a(meas, data, "known_bug_2922_buggy")


@declare(epsilon=LAPLACE_2922_FIXED[0], delta=LAPLACE_2922_FIXED[1], relation="add-remove",
         pairs=KEY_PAIRS, elements=KEYS, library=LIB, uses_own_randomness=True)
def known_bug_2922_fixed(data: Sequence[Hashable], rng: np.random.Generator) -> tuple[int, ...]:
    """Fixed configuration of issue 2922: the same release (threshold 3) with δ read from
    OpenDP's map one threshold lower, (1, P[Z >= 2]) = (1, 0.0989), exactly the release
    probability of a new key; the counts of released keys are ε = 1 Laplace: passes."""
    meas = _threshold("laplace", THRESHOLD)
    _check_once("make_laplace_threshold(1, 2).map((1,1,1))",
                lambda: _threshold("laplace", THRESHOLD - 1).map((1, 1, 1)),
                LAPLACE_2922_FIXED)
    return _released(meas, data, "known_bug_2922_fixed")


GAUSS_2922_DELTA = 0.17
GAUSS_2922_CLAIM = (Fraction(1.102255144072611), Fraction(0.17))
"""``make_fix_delta(make_zCDP_to_approxDP(make_gaussian_threshold(scale=2, threshold=3)),
0.17).map((1, 1, 1))`` = (1.1023, 0.17): OpenDP's approximate zCDP (ρ, δ) = (1/8, Φ(-1) =
0.1587) stated as (ε, δ) by OpenDP's own conversion (declare cannot state (ρ, δ) yet)."""
GAUSS_2922_FIXED_DELTA = 0.32
GAUSS_2922_FIXED = (Fraction(1.1000491457611052), Fraction(0.32))
"""The same conversion at threshold 2, total δ 0.32: (ρ, δ) = (1/8, Φ(-1/2) = 0.3085) covers
the release probability P[1 + Z >= 3] = 0.2242 (discrete Gaussian, σ = 2) of a new key at
threshold 3."""


def _gauss_threshold_claim(kind: str, threshold: int, delta: float) -> Any:
    dp = _dp()
    return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(_threshold(kind, threshold)), delta)


@declare(epsilon=GAUSS_2922_CLAIM[0], delta=GAUSS_2922_CLAIM[1], relation="add-remove",
         pairs=KEY_PAIRS, elements=KEYS, library=LIB, uses_own_randomness=True)
def known_bug_2922_gaussian_buggy(data: Sequence[Hashable], rng: np.random.Generator) -> int:
    """KNOWN BUG (OpenDP issue 2922, Gaussian side): ``make_gaussian_threshold(map_domain(str ->
    int), l02inf_distance, scale=2, threshold=3)``, claim (ε, δ) = (1.1023, 0.17) by OpenDP's
    conversion of its approximate zCDP (ρ, δ) = (1/8, 0.1587).  A one-user key is released
    with probability P[1 + Z >= 3] = 0.2242 (discrete Gaussian, σ = 2) > 0.17: VIOLATION.
    Output: 1 when key "a" is released, else 0."""
    meas = _threshold("gaussian", THRESHOLD)
    _check_once("make_fix_delta(make_zCDP_to_approxDP(gaussian threshold 3), 0.03).map((1,1,1))",
                lambda: _gauss_threshold_claim("gaussian", THRESHOLD, GAUSS_2922_DELTA).map((1, 1, 1)),
                GAUSS_2922_CLAIM)
    return _release_of_a(meas, data, "known_bug_2922_gaussian_buggy")


GAUSS_2922_NATIVE = (Fraction(1, 8), Fraction(0.1586552858352661))
"""``make_gaussian_threshold(scale=2, threshold=3).map((1, 1, 1))`` = (ρ, δ_a) = (1/8,
0.15866): OpenDP's native approximate-zCDP claim, stated as it is (``declare(rho=...,
approx_delta=...)``, Bun and Steinke 2016 Def. 8.1)."""


@declare(rho=GAUSS_2922_NATIVE[0], approx_delta=GAUSS_2922_NATIVE[1], delta=GAUSS_2922_CLAIM[1],
         relation="add-remove", pairs=KEY_PAIRS, elements=KEYS, library=LIB,
         uses_own_randomness=True)
def known_bug_2922_gaussian_native(data: Sequence[Hashable], rng: np.random.Generator) -> int:
    """KNOWN BUG (OpenDP issue 2922, Gaussian side), OpenDP's own claim: approximate zCDP
    (ρ, δ_a) = (1/8, 0.15866) read from ``map((1, 1, 1))`` and audited at total δ = 0.17, the
    point (ε_ρ(0.17 − δ_a) + ln(1/(1 − δ_a)), 0.17) it implies under either reading of the
    definition (docs/library-suites.md).  A one-user key is released with probability 0.2242 >
    0.17 and never without that user: VIOLATION.  Output: 1 when key "a" is released, else 0."""
    meas = _threshold("gaussian", THRESHOLD)
    _check_once("make_gaussian_threshold(2, 3).map((1,1,1))",
                lambda: meas.map((1, 1, 1)), GAUSS_2922_NATIVE)
    return _release_of_a(meas, data, "known_bug_2922_gaussian_native")


@declare(epsilon=GAUSS_2922_FIXED[0], delta=GAUSS_2922_FIXED[1], relation="add-remove",
         pairs=KEY_PAIRS, elements=KEYS, library=LIB, uses_own_randomness=True)
def known_bug_2922_gaussian_fixed(data: Sequence[Hashable],
                                  rng: np.random.Generator) -> tuple[int, ...]:
    """Fixed configuration of issue 2922 (Gaussian), built with the generic
    ``make_noise_threshold(..., approximate(zero_concentrated_divergence()), scale=2,
    threshold=3)`` (the same law as ``make_gaussian_threshold``): the claim is converted from
    OpenDP's map one threshold lower, (ε, δ) = (1.1000, 0.32), which covers the release
    probability 0.2242 of a new key: passes."""
    meas = _threshold("noise", THRESHOLD)
    _check_once("make_fix_delta(make_zCDP_to_approxDP(gaussian threshold 2), 0.17).map((1,1,1))",
                lambda: _gauss_threshold_claim("noise", THRESHOLD - 1, GAUSS_2922_FIXED_DELTA).map((1, 1, 1)),
                GAUSS_2922_FIXED)
    return _released(meas, data, "known_bug_2922_gaussian_fixed")


ALP_EPS = Fraction(1)


@functools.cache
def _alp() -> Any:
    dp = _dp()
    meas = dp.m.make_alp_queryable(dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=int)),
                                   dp.l01inf_distance(dp.absolute_distance(T=int)), scale=1.0,
                                   total_limit=10, value_limit=3)
    _check_once("make_alp_queryable(scale=1, total_limit=10).map((1,1,1))",
                lambda: meas.map((1, 1, 1)),
                ALP_EPS)
    return meas


@declare(epsilon=ALP_EPS, relation="add-remove", pairs=[[["a"], []]], elements=KEYS,
         library=LIB, uses_own_randomness=True)
def alp_queryable(data: Sequence[Hashable], rng: np.random.Generator) -> float:
    """Correct: ``make_alp_queryable(map_domain(str -> int), l01inf_distance, scale=1,
    total_limit=10, value_limit=3)`` (approximate Laplace projection, Aumüller, Lebeda and
    Pagh 2021) on per-key user counts; the output is the queryable's estimate of key "a";
    claim ``map((1, 1, 1))`` = 1."""
    return float(_alp()(_key_counts(data, "alp_queryable"))("a"))


# ------------------------------------------------------------------ Polars

POLARS_EPS = Fraction(1, 2)


@functools.cache
def _polars_len() -> tuple[Any, Any]:
    import warnings

    import polars as pl  # type: ignore[import-not-found, unused-ignore]

    dp = _dp()
    domain = dp.lazyframe_domain([dp.series_domain("x", dp.atom_domain(T=dp.i32))])
    plan = pl.LazyFrame({"x": []}, schema={"x": pl.Int32})
    with warnings.catch_warnings():  # the FutureWarning on dp.len's default (signed=False)
        warnings.simplefilter("ignore", FutureWarning)
        meas = dp.m.make_private_lazyframe(domain, dp.symmetric_distance(), dp.max_divergence(),
                                           plan.select(dp.len(scale=2.0)))
    _check_once("make_private_lazyframe(select(dp.len(scale=2))).map(1)",
                lambda: meas.map(1),
                POLARS_EPS)
    return pl, meas


@declare(epsilon=POLARS_EPS, relation="add-remove", pairs=[[[0], []]], elements=(0, 1),
         library=LIB, uses_own_randomness=True)
def polars_len(data: Sequence[Hashable], rng: np.random.Generator) -> int:
    """Correct: ``make_private_lazyframe(lazyframe_domain([x: i32]), symmetric_distance(),
    max_divergence(), lf.select(dp.len(scale=2)))`` (OpenDP's Polars API: the frame length plus
    discrete Laplace, clamped at 0), collected; claim ``map(1)`` = 1/2.  Needs polars."""
    pl, meas = _polars_len()
    frame = pl.LazyFrame({"x": _ints(data, "polars_len")}, schema={"x": pl.Int32})
    return int(meas(frame).collect().item())


# ------------------------------------------------------------------ issue 2923

SSD_N = 1024
SSD_HIGH = 2.0 ** 50
"""Issue 2923's instance: n = 1024 records in [2^50, 2^50 + 1] (every double there is a multiple
of 1/4, and the sum's rounding moves the float mean)."""
SSD_BUGGY_SCALE = 32.0
SSD_BUGGY_EPS = Fraction(1.2687792778072893)
"""``make_sum_of_squared_deviations(size=1024, bounds=(2^50, 2^50 + 1)) >> then_laplace(32)``
.map(2) = 1.2688 (the transformation's map(2) is 40.60)."""
SSD_BUGGY_PAIR = [[SSD_HIGH + 0.25] * SSD_N, [SSD_HIGH + 0.5] + [SSD_HIGH + 0.25] * (SSD_N - 1)]
SSD_FIXED_SCALE = 1.0
SSD_FIXED_EPS = Fraction(0.9990234375045576)
"""The workaround (records shifted by the public lower bound: bounds (0, 1)): ``map(2)`` at
scale 1 = 0.99902343750456, above the pair's exact SSD change 1023/1024."""
SSD_FIXED_PAIR = [[1.0] + [0.0] * (SSD_N - 1), [0.0] * SSD_N]


@functools.cache
def _ssd(low: float, scale: float) -> tuple[Any, Any, Any]:
    dp = _dp()
    domain = dp.vector_domain(dp.atom_domain(bounds=(low, low + 1.0), nan=False), size=SSD_N)
    query = dp.t.make_sum_of_squared_deviations(domain, dp.symmetric_distance())
    meas = query >> dp.m.then_laplace(scale=scale)
    noise = dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=float, nan=False)),
                              dp.l1_distance(T=float), scale=scale)
    return query, meas, noise


@declare(epsilon=SSD_BUGGY_EPS, relation="substitution", pairs=[SSD_BUGGY_PAIR], library=LIB,
         uses_own_randomness=True)
def known_bug_2923_buggy(data: Sequence[Hashable], rng: np.random.Generator,
                         size: int) -> np.ndarray[Any, Any]:
    """KNOWN BUG (OpenDP issue 2923, open in 0.16.0): ``make_sum_of_squared_deviations`` on 1024
    records in [2^50, 2^50 + 1] >> ``then_laplace(scale=32)``, claim ``map(2)`` (one
    substitution) = 1.2688.  The float mean's rounding moves every deviation: on the issue's
    pair the SSD is 0 and 63.9375 (claimed sensitivity 40.60), so the loss is 63.9375/32 = 2.0:
    VIOLATION (in both views)."""
    query, meas, noise = _ssd(SSD_HIGH, SSD_BUGGY_SCALE)
    _check_once("make_sum_of_squared_deviations(2^50) >> laplace(32).map(2)",
                lambda: meas.map(2),
                SSD_BUGGY_EPS)
    return _batch(noise, query(_floats(data, SSD_N, "known_bug_2923_buggy")), size, np.float64)


@declare(epsilon=SSD_FIXED_EPS, relation="substitution", pairs=[SSD_FIXED_PAIR], library=LIB,
         uses_own_randomness=True)
def known_bug_2923_fixed(data: Sequence[Hashable], rng: np.random.Generator,
                         size: int) -> np.ndarray[Any, Any]:
    """Fixed configuration of issue 2923 (a workaround; OpenDP has no fix yet): records shifted by
    their public lower bound into [0, 1] (the SSD is shift-invariant in real arithmetic), where
    the float mean's rounding error is tiny (1024 partial sums below 1024, each rounded by at
    most 2^-44, then divided by 1024); ``make_sum_of_squared_deviations >>
    then_laplace(scale=1)``, claim ``map(2)`` = 0.99902343750456, on the pair that moves the SSD
    most (by 1023/1024): passes."""
    query, meas, noise = _ssd(0.0, SSD_FIXED_SCALE)
    _check_once("make_sum_of_squared_deviations(0) >> laplace(1).map(2)", lambda: meas.map(2),
                SSD_FIXED_EPS)
    return _batch(noise, query(_floats(data, SSD_N, "known_bug_2923_fixed")), size, np.float64)


TARGETS: tuple[Callable[..., object], ...] = (
    laplace_count, laplace_count_float, noise_count, geometric_count,
    laplace_count_misconfigured_user_level, laplace_count_user_level, laplace_sum,
    laplace_sum_misconfigured_sensitivity, laplace_sum_misconfigured_substitution,
    laplace_sum_substitution, gaussian_count_zcdp, gaussian_count_misconfigured_rho_as_eps,
    gaussian_count_float, gaussian_count_approx, gaussian_count_misconfigured_delta0,
    randomized_response_bool, randomized_response_bool_misconfigured_double_spent,
    randomized_response, randomized_response_bitvec, noisy_max, noisy_max_zcdp,
    report_noisy_max_gumbel, noisy_top_k, noisy_max_misconfigured_sensitivity, private_quantile,
    canonical_noise, known_bug_2922_buggy, known_bug_2922_fixed, known_bug_2922_gaussian_buggy,
    known_bug_2922_gaussian_native,
    known_bug_2922_gaussian_fixed, alp_queryable, polars_len, known_bug_2923_buggy,
    known_bug_2923_fixed,
)
"""Every target of this module, in suite order."""
