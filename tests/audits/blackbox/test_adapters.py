"""Tests of the third-party target adapters (audits.blackbox.adapters, _opendp, _diffprivlib).

CI installs both libraries (extras ``opendp`` and ``diffprivlib``), so nothing
here is skipped.  Every statistical assertion goes through tests.stats.fits
(or rejects, for the power check), which records it; each goodness-of-fit test
has the false-positive rate tests.stats.FALSE_POSITIVE_RATE (10^-7).  The
diffprivlib ones are seeded (deterministic), the OpenDP ones cannot be (OpenDP
draws from the OS), so each of those fails spuriously with probability at most
FALSE_POSITIVE_RATE per run (8 such checks: < 10^-6 per run).
"""

from __future__ import annotations

import importlib
import math
import pickle
import sys
from collections.abc import Hashable
from fractions import Fraction
from types import ModuleType

import mpmath
import numpy as np
import pytest
from scipy import stats

from privref.audits.blackbox.adapters import (
    LIBRARIES,
    Library,
    MissingDependency,
    ThirdPartyTarget,
    is_third_party_name,
    third_party_target,
    third_party_target_names,
    third_party_targets,
)
from privref.audits.blackbox.adapters_diffprivlib import exponential_pair_epsilon
from privref.audits.blackbox.target import target_from_callable
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.neighbors import check_neighbors
from privref.reference.reals import Order, compare, log

from ...stats import fits, rejects

NAMES = third_party_target_names()
OPENDP = third_party_target_names("opendp")
DIFFPRIVLIB = third_party_target_names("diffprivlib")


def _draws(t: ThirdPartyTarget, data: tuple[Hashable, ...], rng: np.random.Generator,
           n: int, *, vectorized: bool) -> list[Hashable]:
    if vectorized:
        assert t.sample_many is not None
        return list(t.sample_many(list(data), rng, n))
    return [t.sample(list(data), rng) for _ in range(n)]


# ---------------------------------------------------------------------------- registry and claims

def test_each_library_has_two_correct_uses_and_one_misconfigured() -> None:
    for library in LIBRARIES:
        targets = third_party_targets(library)
        assert sum(t.correct for t in targets) >= 2, library
        assert sum(not t.correct for t in targets) >= 1, library
        assert {t.library for t in targets} == {library}
    assert set(NAMES) == set(OPENDP) | set(DIFFPRIVLIB)


def test_registry_names_never_collide_with_module_specs() -> None:
    for name in NAMES:
        assert is_third_party_name(name)
        assert "-" in name.partition(":")[2]  # a hyphen is never part of a Python attribute name
    assert not is_third_party_name("audits.blackbox.adapters:third_party_target")
    assert not is_third_party_name("opendp:laplace")


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(InvalidArgument, match="opendp:count-laplace"):
        third_party_target("opendp:no-such-thing")


@pytest.mark.parametrize("name", NAMES)
def test_claim_read_from_the_library_is_the_documented_one(name: str) -> None:
    t = third_party_target(name)
    got, documented = t.claim.epsilon.exact, t.documented_claim.epsilon.exact
    assert got is not None and got == documented, t.claim_source
    assert t.claim.delta == t.documented_claim.delta == 0


@pytest.mark.parametrize("name", NAMES)
def test_true_epsilon_is_below_the_claim_exactly_when_the_use_is_correct(name: str) -> None:
    t = third_party_target(name)
    order, _ = compare(t.true_epsilon, t.claim.epsilon)
    assert order is not Order.UNDECIDED
    if t.correct:
        assert order in (Order.LESS, Order.EQUAL)
    else:
        assert order is Order.GREATER and t.misconfiguration
    for (a, b), eps in zip(t.pairs, t.pair_epsilons, strict=True):
        check_neighbors(t.relation, a, b)
        assert compare(eps, t.true_epsilon)[0] in (Order.LESS, Order.EQUAL)
    if t.true_epsilon_attained:
        assert any(compare(eps, t.true_epsilon)[0] is Order.EQUAL for eps in t.pair_epsilons)


def test_opendp_privacy_maps_give_the_documented_values() -> None:
    assert third_party_target("opendp:count-laplace").claim.epsilon.exact == Fraction(1, 2)
    assert third_party_target("opendp:count-laplace-f64").claim.epsilon.exact == Fraction(1)
    assert third_party_target("opendp:sum-laplace-misconfigured").claim.epsilon.exact == Fraction(1, 2)
    # randomized response: OpenDP rounds ln 3 up, by less than one ulp (2^-52 at ln 3)
    rr = third_party_target("opendp:randomized-response").claim.epsilon
    assert compare(rr, log(3))[0] is Order.GREATER
    assert compare(rr - Fraction(1, 2**52), log(3))[0] is Order.LESS


def test_opendp_itself_gives_the_true_epsilon_of_the_misconfigured_sum() -> None:
    """OpenDP's own map at the true sensitivity (4) is the documented true epsilon."""
    dp = importlib.import_module("opendp.prelude")
    dp.enable_features("contrib")
    meas = dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=2.0)
    t = third_party_target("opendp:sum-laplace-misconfigured")
    assert t.true_epsilon.exact == Fraction(meas.map(4)) == 2


def test_exponential_pair_epsilon_matches_the_closed_form() -> None:
    """(0, n) vs (1, n-1) votes: c + ln((1 + e^{cn}) / (e^c + e^{c(n-1)})), c = 1/2, checked with mpmath."""
    for n in (1, 3, 6, 40):
        got = exponential_pair_epsilon(Fraction(1), Fraction(1), (0, n), (1, n - 1)).enclose(200)
        with mpmath.workdps(60):
            c = mpmath.mpf(1) / 2
            expected = c + mpmath.log((1 + mpmath.exp(c * n))
                                      / (mpmath.exp(c) + mpmath.exp(c * (n - 1))))
            lo = mpmath.mpf(got.lo.numerator) / got.lo.denominator
            hi = mpmath.mpf(got.hi.numerator) / got.hi.denominator
            assert lo - mpmath.mpf(10) ** -50 <= expected <= hi + mpmath.mpf(10) ** -50
        assert got.hi < 1  # the supremum, epsilon = 1, is not attained


# ---------------------------------------------------------------------------- forms, types, randomness

@pytest.mark.parametrize("name", NAMES)
def test_outcomes_have_one_type_in_both_forms(name: str) -> None:
    t = third_party_target(name)
    rng = np.random.default_rng(1)
    for data in {d for pair in t.pairs for d in pair}:
        scalar = _draws(t, data, rng, 10, vectorized=False)
        assert {type(x) for x in scalar} == {t.outcome_type}, scalar
        if t.sample_many is not None:
            many = t.sample_many(list(data), rng, 10)
            assert isinstance(many, np.ndarray) and many.shape == (10,)
            assert many.dtype == (np.float64 if t.outcome_type is float else np.int64)
            assert len(t.sample_many(list(data), rng, 0)) == 0


@pytest.mark.parametrize("name", NAMES)
def test_forms_carry_the_loaders_vectorized_flag(name: str) -> None:
    """audits.blackbox.target reads ``privref_vectorized`` before the signature."""
    t = third_party_target(name)
    assert t.function.privref_vectorized == (t.sample_many is not None)
    assert t.sample.privref_vectorized is False
    assert t.sample.uses_own_randomness == t.uses_own_randomness == (t.library == "opendp")


def test_the_loader_sees_both_forms() -> None:
    vectorized = third_party_target("opendp:count-laplace")
    scalar = third_party_target("opendp:randomized-response")
    assert target_from_callable(vectorized.function).vectorized
    assert not target_from_callable(scalar.function).vectorized


@pytest.mark.parametrize("name", DIFFPRIVLIB)
def test_diffprivlib_is_reproducible_from_the_seed_and_consumes_rng(name: str) -> None:
    t = third_party_target(name)
    data = t.pairs[0][0]

    def run(seed: int) -> tuple[list[Hashable], list[Hashable]]:
        rng = np.random.default_rng(seed)
        return _draws(t, data, rng, 20, vectorized=False), _draws(t, data, rng, 20, vectorized=True)

    assert run(7) == run(7)
    assert run(7) != run(8)
    rng = np.random.default_rng(7)
    before = rng.bit_generator.state
    t.sample(list(data), rng)
    assert rng.bit_generator.state != before


@pytest.mark.parametrize("name", OPENDP)
def test_opendp_draws_nothing_from_rng(name: str) -> None:
    t = third_party_target(name)
    rng = np.random.default_rng(7)
    before = rng.bit_generator.state
    _draws(t, t.pairs[0][0], rng, 5, vectorized=False)
    if t.sample_many is not None:
        _draws(t, t.pairs[0][0], rng, 5, vectorized=True)
    assert rng.bit_generator.state == before
    assert t.uses_own_randomness and t.function.uses_own_randomness


@pytest.mark.parametrize("name", NAMES)
def test_samplers_pickle_for_worker_processes(name: str) -> None:
    t = third_party_target(name)
    fn = pickle.loads(pickle.dumps(t.function))
    assert fn == t.function
    rng = np.random.default_rng(3)
    data = list(t.pairs[0][0])
    out = fn(data, rng, 3) if t.sample_many is not None else fn(data, rng)
    assert out is not None


def test_bad_entries_are_refused_with_the_target_named() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(InvalidArgument, match="opendp:randomized-response"):
        third_party_target("opendp:randomized-response").sample([True, False], rng)
    with pytest.raises(InvalidArgument, match="votes in"):
        third_party_target("diffprivlib:exponential-vote").sample([0, 2], rng)
    with pytest.raises(InvalidArgument, match="must be ints"):
        third_party_target("diffprivlib:sum-laplace-misconfigured").sample([1.5], rng)


# ---------------------------------------------------------------------------- missing libraries

@pytest.mark.parametrize("library", LIBRARIES)
def test_missing_library_names_the_pip_extra(library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    module = {"opendp": "opendp.prelude", "diffprivlib": "diffprivlib.mechanisms"}[library]
    monkeypatch.setitem(sys.modules, module, None)  # makes `import module` raise ModuleNotFoundError
    name = third_party_target_names(library)[0]
    with pytest.raises(MissingDependency) as info:
        third_party_target(name)
    message = str(info.value)
    assert f"pip install 'privref[{library}]'" in message and name in message and "not installed" in message
    assert isinstance(info.value, PrivrefError)


def test_broken_library_is_reported_with_its_import_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def fake(name: str, package: str | None = None) -> ModuleType:
        if name == "diffprivlib.mechanisms":
            raise ImportError("cannot import name 'DOUBLE' from 'sklearn.tree._tree'")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", fake)
    with pytest.raises(MissingDependency, match=r"installed but cannot be imported \(ImportError: "
                                                r"cannot import name 'DOUBLE'.*privref\[diffprivlib\]"):
        third_party_target("diffprivlib:count-laplace")


# ---------------------------------------------------------------------------- laws (statistical)

def _two_sided_normal_pvalue(z: float) -> float:
    """Two-sided p-value of an asymptotically standard normal statistic: 2 P[N(0, 1) > |z|]."""
    return float(2 * stats.norm.sf(abs(z)))


def _two_sided_geometric_gof(draws: np.ndarray, loc: int, a: float) -> float:
    """Chi-square p-value of integer draws against P[k] = (1-a)/(1+a) a^|k-loc| (tails pooled)."""
    n = len(draws)
    w = 1
    while n * a ** (w + 2) / (1 + a) >= 20:  # every pooled tail expects >= 20 draws
        w += 1
    k = draws - loc
    cells = np.arange(-w, w + 1)
    pmf = (1 - a) / (1 + a) * a ** np.abs(cells)
    tail = a ** (w + 1) / (1 + a)
    observed = np.array([np.sum(k < -w), *[np.sum(k == j) for j in cells], np.sum(k > w)])
    expected = n * np.array([tail, *pmf, tail])
    assert math.isclose(expected.sum(), n)
    return float(stats.chisquare(observed, expected).pvalue)


@pytest.mark.parametrize("vectorized", [True, False])
def test_misconfigured_laplace_has_the_noise_ratio_of_its_true_epsilon(vectorized: bool) -> None:
    """diffprivlib, sensitivity 1 declared, clamped sum in [0, 4]: location gap 4, scale b = 2, eps = 4/b.

    Means: X̄ ~ N(loc, 2b²/N); variance: s² ~ N(2b², 20b⁴/N) (Laplace's fourth
    central moment is 24b⁴); each z gives a two-sided normal p-value, 2 P[N(0, 1) > |z|],
    checked with tests.stats.fits.
    """
    t = third_party_target("diffprivlib:sum-laplace-misconfigured")
    (a, b_data), b, n = t.pairs[0], 2.0, (20_000 if vectorized else 5_000)
    rng = np.random.default_rng(2024)
    xa = np.asarray(_draws(t, a, rng, n, vectorized=vectorized), dtype=float)
    xb = np.asarray(_draws(t, b_data, rng, n, vectorized=vectorized), dtype=float)
    gap = xa.mean() - xb.mean()
    assert fits(_two_sided_normal_pvalue((gap - 4) / math.sqrt(2 * 2 * b * b / n)),
                "diffprivlib misconfigured sum: location gap 4")
    for x in (xa, xb):
        assert fits(_two_sided_normal_pvalue((x.var(ddof=1) - 2 * b * b) / math.sqrt(20 * b**4 / n)),
                    "diffprivlib misconfigured sum: variance 2b^2")
    claimed = t.claim.epsilon.exact
    assert claimed is not None and t.true_epsilon.exact == Fraction(4) / Fraction(2) > claimed


@pytest.mark.parametrize("vectorized", [True, False])
def test_opendp_misconfigured_sum_has_the_discrete_laplace_law(vectorized: bool) -> None:
    """Discrete Laplace of scale 2 around the clamped sum: 4 on [4], 0 on [] (so eps = 4/2)."""
    t = third_party_target("opendp:sum-laplace-misconfigured")
    (a, b_data), n = t.pairs[0], (10_000 if vectorized else 1_000)
    for data, loc in ((a, 4), (b_data, 0)):
        draws = np.asarray(_draws(t, data, np.random.default_rng(0), n, vectorized=vectorized))
        assert fits(_two_sided_geometric_gof(draws, loc, math.exp(-1 / 2)),
                    f"opendp misconfigured sum: discrete Laplace(2) around {loc}")


def test_opendp_count_laplace_has_the_discrete_laplace_law() -> None:
    t = third_party_target("opendp:count-laplace")
    draws = np.asarray(_draws(t, (0, 0, 0), np.random.default_rng(0), 20_000, vectorized=True))
    assert fits(_two_sided_geometric_gof(draws, 3, math.exp(-1 / 2)), "opendp count: discrete Laplace(2)")


def test_diffprivlib_geometric_has_the_two_sided_geometric_law() -> None:
    t = third_party_target("diffprivlib:count-geometric")
    draws = np.asarray(_draws(t, (0, 0, 0), np.random.default_rng(5), 20_000, vectorized=True))
    assert fits(_two_sided_geometric_gof(draws, 3, math.exp(-1)),
                "diffprivlib geometric: two-sided geometric")


@pytest.mark.parametrize(("name", "loc", "scale"), [("opendp:count-laplace-f64", 3, 1.0),
                                                     ("diffprivlib:count-laplace", 3, 2.0)])
def test_continuous_laplace_law(name: str, loc: int, scale: float) -> None:
    """Kolmogorov-Smirnov against Laplace(loc, scale) on [0, 0, 0]."""
    t = third_party_target(name)
    draws = np.asarray(_draws(t, (0, 0, 0), np.random.default_rng(9), 10_000, vectorized=True))
    assert fits(stats.kstest(draws, "laplace", args=(loc, scale)).pvalue, f"{name}: KS against Laplace")


def _binomial_ok(successes: int, n: int, p: float, what: str) -> bool:
    return fits(stats.binomtest(successes, n, p).pvalue, f"{what}: {successes}/{n} against p = {p:.6g}")


def test_exponential_vote_has_the_exponential_mechanism_law() -> None:
    """P[0] = 1 / (1 + e^{(n1 - n0)/2}) on each dataset of the recommended pairs."""
    t = third_party_target("diffprivlib:exponential-vote")
    rng = np.random.default_rng(11)
    for data in {d for pair in t.pairs for d in pair}:
        n0, n1 = data.count(0), data.count(1)
        draws = _draws(t, data, rng, 5_000, vectorized=True)
        assert _binomial_ok(sum(1 for x in draws if x == 0), 5_000, 1 / (1 + math.exp((n1 - n0) / 2)),
                            f"diffprivlib exponential vote on {data}")


def test_randomized_response_tells_the_truth_with_probability_three_quarters() -> None:
    t = third_party_target("opendp:randomized-response")
    rng = np.random.default_rng(0)
    for bit in (True, False):
        draws = _draws(t, (bit,), rng, 1_000, vectorized=False)
        assert _binomial_ok(sum(1 for x in draws if x == bit), 1_000, 0.75,
                            f"opendp randomized response on {bit}")


def test_every_statistical_helper_rejects_a_wrong_law() -> None:
    """Power check: the same tests do reject when the scale is wrong (so passing above means something)."""
    rng = np.random.default_rng(1)
    wrong = rng.laplace(0, 1.0, 20_000).round().astype(np.int64)  # not discrete Laplace of scale 2
    assert rejects(_two_sided_geometric_gof(wrong, 0, math.exp(-1 / 2)),
                   "geometric chi-square rejects a rounded Laplace(1)")
    assert rejects(stats.kstest(rng.laplace(3, 1.5, 20_000), "laplace", args=(3, 2.0)).pvalue,
                   "KS rejects Laplace(3, 1.5) as Laplace(3, 2)")


