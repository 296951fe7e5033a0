"""OpenDP measurements as black-box targets (extra ``privref[opendp]``; written against OpenDP 0.16).

Each target is an OpenDP ``Measurement`` (or, for the misconfigured use, an
OpenDP measurement fed by a query computed outside OpenDP) whose claim is read
from OpenDP's own privacy map, ``meas.map(d_in)``, with output measure
``MaxDivergence`` (pure DP, delta = 0).  OpenDP documents the maps and their
proofs with each constructor:

* ``make_count``: https://docs.opendp.org/en/v0.16.0/api/python/opendp.transformations.html
* ``make_laplace`` (discrete Laplace on integers; on floats, discrete Laplace
  on the grid 2^k, CKS20 / GRS12):
  https://docs.opendp.org/en/v0.16.0/api/python/opendp.measurements.html and its proof
  https://docs.opendp.org/en/v0.16.0/proofs/rust/src/measurements/noise/distribution/laplace/make_laplace.pdf
* ``make_randomized_response_bool``: same page.

Randomness: OpenDP draws every random bit from
``opendp::traits::samplers::fill_bytes`` (a thread-local CTR-DRBG seeded by
the operating system) and has no seeding API, so these adapters ignore
``rng`` (they draw nothing from it) and are marked ``uses_own_randomness``;
audits of them are statistically valid but not bit-reproducible.

Vectorized forms: the measurement's transformation (e.g. ``make_count``) is
applied once, then a vector-valued sibling measurement, ``make_laplace`` on
``vector_domain(atom_domain(T))`` with ``l1_distance`` and the same scale,
adds independent noise of the same law to ``size`` copies of the query value
(OpenDP documents the vector form as adding the scalar noise to each
coordinate).  That is about 10 times faster per draw than calling the
composed measurement once per draw (measured on OpenDP 0.16, one core:
about 9 µs against 110 µs per integer Laplace draw, 24 µs against 170 µs per
float one; see docs/blackbox-third-party.md) at the price of auditing the noise
primitive on OpenDP's own query value rather than the composed object; the
tests check that both forms have the documented law.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from types import ModuleType
from typing import Protocol

import numpy as np

from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import AddRemove, Substitution
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import log, rational

from .adapter_types import AdapterDefinition, Implementation, Outcomes, claim_of
from .declarations import InputDomain

__all__ = ["DEFINITIONS", "LAPLACE_SCALE", "MISCONFIGURED_BOUND", "RR_PROB"]

LAPLACE_SCALE = Fraction(2)
"""Noise scale of ``opendp:count-laplace`` and the misconfigured sum (a power of 2, so the map is exact)."""

F64_SCALE = Fraction(1)
"""Noise scale of ``opendp:count-laplace-f64``."""

RR_PROB = Fraction(3, 4)
"""Probability that ``opendp:randomized-response`` answers truthfully."""

MISCONFIGURED_BOUND = 4
"""The misconfigured sum clamps entries to [0, 4]: its true sensitivity is 4, not the declared 1."""

_DOCS = "https://docs.opendp.org/en/v0.16.0/api/python/opendp.measurements.html"


class _Measurement(Protocol):
    """The part of ``opendp.mod.Measurement`` used here (OpenDP's own annotations are not checked)."""

    @property
    def output_measure(self) -> object: ...

    def map(self, d_in: int) -> object: ...


def _pure_claim(meas: _Measurement, d_in: int, what: str) -> tuple[PrivacyClaim, str]:
    """The claim ``meas.map(d_in)`` of a MaxDivergence measurement; anything else is refused."""
    measure = str(meas.output_measure)
    if not measure.startswith("MaxDivergence"):
        raise InvalidArgument(f"{what}: output measure {measure} must be MaxDivergence (pure DP)")
    eps = meas.map(d_in)
    return claim_of(eps, 0, what), f"{what}.map({d_in}) = {eps!r} (MaxDivergence)"


def _ints(data: list[Hashable], target: str) -> list[int]:
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in data):
        raise InvalidArgument(f"data={data!r}: the entries of {target} must be ints")
    return [x for x in data if isinstance(x, int)]


def _bit(data: list[Hashable], target: str) -> bool:
    if len(data) != 1 or data[0] not in (0, 1):  # True == 1, False == 0
        raise InvalidArgument(f"data={data!r}: {target} takes exactly one entry, a bool (or 0/1)")
    return bool(data[0])


def _count_laplace(float_output: bool, scale: Fraction, name: str) -> Callable[[ModuleType], Implementation]:
    def build(dp: ModuleType) -> Implementation:
        dp.enable_features("contrib")  # process-wide flag; OpenDP requires it for these constructors
        t = float if float_output else int
        space = (dp.vector_domain(dp.atom_domain(T=int)), dp.symmetric_distance())
        count = dp.t.make_count(*space, TO=t)
        meas = count >> dp.m.then_laplace(scale=float(scale))
        atom = dp.atom_domain(T=float, nan=False) if float_output else dp.atom_domain(T=int)
        noise = dp.m.make_laplace(dp.vector_domain(atom), dp.l1_distance(T=t), scale=float(scale))
        claim, source = _pure_claim(meas, 1, "make_count >> then_laplace")

        def one(data: list[Hashable], rng: np.random.Generator) -> Hashable:
            return t(meas(_ints(data, name)))

        def many(data: list[Hashable], rng: np.random.Generator, size: int) -> Outcomes:
            draws = noise([count(_ints(data, name))] * size) if size else []
            if float_output:
                return np.asarray(draws, dtype=np.float64)
            return np.asarray(draws, dtype=np.int64)

        return Implementation(claim, source, one, many)

    return build


def _build_rr(dp: ModuleType) -> Implementation:
    dp.enable_features("contrib")
    meas = dp.m.make_randomized_response_bool(prob=float(RR_PROB))
    claim, source = _pure_claim(meas, 1, "make_randomized_response_bool")

    def one(data: list[Hashable], rng: np.random.Generator) -> Hashable:
        return bool(meas(_bit(data, "opendp:randomized-response")))

    return Implementation(claim, source, one, None)


def _build_misconfigured_sum(dp: ModuleType) -> Implementation:
    dp.enable_features("contrib")
    name = "opendp:sum-laplace-misconfigured"
    scalar = dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=float(LAPLACE_SCALE))
    noise = dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int),
                              scale=float(LAPLACE_SCALE))
    claim, source = _pure_claim(scalar, 1, "make_laplace(atom_domain(T=int), absolute_distance)")

    def query(data: list[Hashable]) -> int:
        return sum(min(max(x, 0), MISCONFIGURED_BOUND) for x in _ints(data, name))

    def one(data: list[Hashable], rng: np.random.Generator) -> Hashable:
        return int(scalar(query(data)))

    def many(data: list[Hashable], rng: np.random.Generator, size: int) -> Outcomes:
        return np.asarray(noise([query(data)] * size) if size else [], dtype=np.int64)

    return Implementation(claim, source, one, many)


_ADD_REMOVE = AddRemove()
_RR_EPSILON = log(RR_PROB / (1 - RR_PROB))
"""ln(p / (1 - p)) = ln 3: the exact loss of randomized response on its one-bit pair (one object,
so that comparing the pair's loss with the supremum is decided EQUAL)."""
_COUNT_PAIRS = (((0,), ()), ((0, 0, 0), (0, 0)))

DEFINITIONS: tuple[AdapterDefinition, ...] = (
    AdapterDefinition(
        name="opendp:count-laplace",
        library="opendp",
        description="make_count >> then_laplace(scale=2): the number of entries (ints) plus discrete "
                    "Laplace noise, P[k] ∝ exp(-|k|/2); integer outcomes",
        relation=_ADD_REMOVE,
        pairs=_COUNT_PAIRS,
        pair_epsilons=(rational(1 / LAPLACE_SCALE),) * 2,
        true_epsilon=rational(1 / LAPLACE_SCALE),
        true_epsilon_attained=True,
        documented_claim=PrivacyClaim.of(Fraction(1, 2)),
        misconfiguration=None,
        reference=_DOCS + "#opendp.measurements.make_laplace",
        outcome_type=int,
        vectorized=True,
        build=_count_laplace(False, LAPLACE_SCALE, "opendp:count-laplace"),
        domain=InputDomain(elements=(0, 1)),
    ),
    AdapterDefinition(
        name="opendp:count-laplace-f64",
        library="opendp",
        description="make_count(TO=float) >> then_laplace(scale=1): the number of entries (ints) plus "
                    "OpenDP's float Laplace (discrete Laplace on the grid 2^k); float outcomes",
        relation=_ADD_REMOVE,
        pairs=_COUNT_PAIRS,
        pair_epsilons=(rational(1 / F64_SCALE),) * 2,
        true_epsilon=rational(1 / F64_SCALE),
        true_epsilon_attained=True,
        documented_claim=PrivacyClaim.of(1),
        misconfiguration=None,
        reference=_DOCS + "#opendp.measurements.make_laplace",
        outcome_type=float,
        vectorized=True,
        build=_count_laplace(True, F64_SCALE, "opendp:count-laplace-f64"),
        domain=InputDomain(elements=(0, 1)),
    ),
    AdapterDefinition(
        name="opendp:randomized-response",
        library="opendp",
        description="make_randomized_response_bool(prob=3/4) on a one-entry dataset [bit]: the bit "
                    "with probability 3/4, else its negation; bool outcomes",
        relation=Substitution(),
        pairs=(((True,), (False,)),),
        pair_epsilons=(_RR_EPSILON,),
        true_epsilon=_RR_EPSILON,
        true_epsilon_attained=True,
        # OpenDP rounds ln 3 up to the next float: 1.0986122886681098 (ln 3 = 1.09861228866810969...)
        documented_claim=PrivacyClaim.of(Fraction(4947709893870347, 4503599627370496)),
        misconfiguration=None,
        reference=_DOCS + "#opendp.measurements.make_randomized_response_bool",
        outcome_type=bool,
        vectorized=False,
        build=_build_rr,
        domain=InputDomain(elements=(False, True), sizes=(1,)),
    ),
    AdapterDefinition(
        name="opendp:sum-laplace-misconfigured",
        library="opendp",
        description="sum of the entries clamped to [0, 4], computed outside OpenDP and fed to "
                    "make_laplace(atom_domain(T=int), absolute_distance(T=int), scale=2), with the "
                    "guarantee read as map(1); integer outcomes",
        relation=_ADD_REMOVE,
        pairs=(((MISCONFIGURED_BOUND,), ()), ((MISCONFIGURED_BOUND, 0), (0,))),
        pair_epsilons=(rational(MISCONFIGURED_BOUND / LAPLACE_SCALE),) * 2,
        true_epsilon=rational(MISCONFIGURED_BOUND / LAPLACE_SCALE),
        true_epsilon_attained=True,
        documented_claim=PrivacyClaim.of(Fraction(1, 2)),
        misconfiguration="sensitivity too small: the privacy map is read at d_in=1, but adding one "
                         "entry moves the clamped sum by up to 4, so the true eps is "
                         "map(4) = 4/2 = 2, four times the claimed 1/2",
        reference=_DOCS + "#opendp.measurements.make_laplace",
        outcome_type=int,
        vectorized=True,
        build=_build_misconfigured_sum,
        domain=InputDomain(bounds=(0, MISCONFIGURED_BOUND)),
    ),
)
