"""DP-Sniper's benchmark mechanisms in the zoo: samplers, laws, ground truth re-derived, a quick audit.

Statistical checks are seeded one-sided Clopper–Pearson intervals
(audits.stats) at ALPHA per side; every privacy value is compared exactly
(rationals, exact sums Σ c·e^ν, or rigorous intervals).
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction
from functools import partial
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from privref.audits.blackbox.estimate import estimate_pair
from privref.audits.blackbox.runner import AuditConfig, run_audit
from privref.audits.blackbox.target import target_from_callable
from privref.audits.stats import cp_lower, cp_upper
from privref.reference.reals import Interval, Order, Real, compare, exp, interval_exp, rational
from validation import zoo_laws
from validation.zoo_dpsniper import (
    EPSILON,
    MAPPING,
    PUBLISHED,
    RAPPOR_DOMAIN,
    bloom_bits,
    dpsniper_entries,
    dpsniper_pairs,
    geometric_cdf_numerators,
    murmur3_32,
)
from validation.zoo_svt import BOTTOM, PrefixItem, SVTSpec, prefix_law
from validation.zoo_types import NOT_PRIVATE, ZooEntry, rows_as_outcomes

from ..stats import AUDIT_CONFIDENCE

pytestmark = pytest.mark.deep  # the deep tier: python -m pytest -m deep (docs/test-tiers.md)

ENTRIES = dpsniper_entries()
NAMES = [e.name for e in ENTRIES]
ALPHA = Fraction(1, 10**6)
"""False-positive rate of one seeded Clopper–Pearson side."""


def entry(name: str) -> ZooEntry:
    return next(e for e in ENTRIES if e.name == name)


def _shifted(value: zoo_laws.ExpSum, by: Fraction) -> zoo_laws.ExpSum:
    """The exact sum e^by · value."""
    return {nu + by: c for nu, c in value.items()}


def _product(parts: list[zoo_laws.ExpSum]) -> zoo_laws.ExpSum:
    out: zoo_laws.ExpSum = {Fraction(0): Fraction(1)}
    for p in parts:
        out = zoo_laws.times(out, p)
    return out


# ------------------------------------------------------------- registry


def test_mapping_and_published_cover_every_entry() -> None:
    assert len(ENTRIES) == 20 == len(PUBLISHED) == len(MAPPING)
    assert [m[1] for m in MAPPING] == sorted(NAMES, key=[m[1] for m in MAPPING].index)
    assert {m[1] for m in MAPPING} == set(NAMES)
    assert {e.aliases for e in ENTRIES} == {(m[0],) for m in MAPPING}
    assert set(PUBLISHED) == {m[0] for m in MAPPING}
    for e in ENTRIES:
        assert f"DP-Sniper (Bichsel et al. 2021) mechanism {e.aliases[0]}" in e.source
        assert str(PUBLISHED[e.aliases[0]]) in e.notes


def test_pairs_are_statdps_patterns_and_neighbors() -> None:
    one_entry, componentwise = dpsniper_pairs(5, False), dpsniper_pairs(10, True)
    assert len(one_entry) == 4 and len(componentwise) == 16
    assert ([0] * 5 + [1] * 5, [1] * 5 + [0] * 5) in componentwise  # the X shape, swapped
    assert ([1] * 10, [2] * 5 + [0] * 5) in componentwise
    for a, b in one_entry:
        assert sum(1 for x, y in zip(a, b, strict=True) if x != y) == 1
    for e in ENTRIES:
        for a, b in e.pairs:
            assert len(a) == len(b) and max(abs(x - y) for x, y in zip(a, b, strict=True)) >= 1
            if "component-wise" in e.relation:
                assert all(abs(x - y) <= 1 for x, y in zip(a, b, strict=True))
            elif "one coordinate" in e.relation:
                assert sum(abs(x - y) for x, y in zip(a, b, strict=True)) == 1


# ------------------------------------------------------- samplers and laws


@pytest.mark.parametrize("name", NAMES)
def test_outcome_shape_and_type(name: str) -> None:
    e = entry(name)
    assert e.vectorized is not None
    data = list(e.pairs[0][0])
    one = e.sampler(data, np.random.default_rng(1))
    array = e.vectorized(data, np.random.default_rng(2), 64)
    assert isinstance(array, np.ndarray) and array.shape[0] == 64
    rows = rows_as_outcomes(array)
    width = 1 if array.ndim == 1 else array.shape[1]
    expected = float if e.float_outputs else int
    for o in [one, *rows]:
        hash(o)
        items = o if isinstance(o, tuple) else (o,)
        assert len(items) == width and all(type(x) is expected for x in items), (o, expected)
    assert isinstance(one, tuple) is (width > 1)


def _columns(outcomes: list[Any]) -> npt.NDArray[np.float64]:
    return np.asarray(outcomes, dtype=np.float64).reshape(len(outcomes), -1)


def _thresholds(e: ZooEntry, data: list[Any]) -> list[tuple[int, float]]:
    """(column, value): the quartiles of each column's finite values in 201 seeded reference draws."""
    assert e.vectorized is not None
    ref = _columns(rows_as_outcomes(e.vectorized(data, np.random.default_rng(99), 201)))
    out = []
    for j in range(ref.shape[1]):
        finite = ref[np.isfinite(ref[:, j]), j]
        if finite.size:
            out += [(j, float(x)) for x in np.unique(np.quantile(finite, (0.25, 0.5, 0.75)))]
    return out


def _cp(hits: int, n: int) -> Interval:
    return Interval(cp_lower(hits, n, ALPHA), cp_upper(hits, n, ALPHA))


def _overlap(x: Interval, y: Interval) -> bool:
    return x.lo <= y.hi and y.lo <= x.hi


@pytest.mark.parametrize("name", NAMES)
def test_scalar_and_vectorized_forms_agree_in_law(name: str) -> None:
    """Both forms' Clopper–Pearson intervals overlap (witness events, per-column quartile events),
    and the vectorized form's meets each witness's exact probability."""
    e = entry(name)
    assert e.vectorized is not None
    n_vec, n_scalar = 20_000, 2_000
    for side, data in enumerate(e.pairs[0]):
        vec = rows_as_outcomes(e.vectorized(list(data), np.random.default_rng(11 + side), n_vec))
        rng = np.random.default_rng(21 + side)
        scalar = [e.sampler(list(data), rng) for _ in range(n_scalar)]
        counts = [(sum(1 for o in vec if w.contains(o)), sum(1 for o in scalar if w.contains(o)))
                  for w in e.witnesses]
        vec_cols, scalar_cols = _columns(vec), _columns(scalar)
        counts += [(int(np.sum(vec_cols[:, j] <= t)), int(np.sum(scalar_cols[:, j] <= t)))
                   for j, t in _thresholds(e, list(data))]
        for k_vec, k_scalar in counts:
            a, b = _cp(k_vec, n_vec), _cp(k_scalar, n_scalar)
            assert _overlap(a, b), (name, side, a, b)
    for i, w in enumerate(e.witnesses):
        for data, exact in ((w.a, w.p), (w.b, w.q)):
            if exact.lo * n_vec >= 20:
                rows = rows_as_outcomes(e.vectorized(list(data), np.random.default_rng(31 + i), n_vec))
                assert _overlap(_cp(sum(1 for o in rows if w.contains(o)), n_vec), exact), (name, i)


def test_impossible_events_are_never_drawn() -> None:
    for name in ("dpsniper_svt5", "dpsniper_report_noisy_max4"):
        e = entry(name)
        assert e.true_epsilon is NOT_PRIVATE and e.vectorized is not None
        w = e.witnesses[0]
        assert w.q == Interval.point(0) and w.p.lo > 0 and w.epsilon_lower() is None
        rows = rows_as_outcomes(e.vectorized(list(w.b), np.random.default_rng(5), 50_000))
        assert not any(w.contains(o) for o in rows)


# ------------------------------------------------ ground truth, re-derived


def _contains(box: Interval, value: Real) -> bool:
    return (compare(value, box.lo)[0] is not Order.LESS
            and compare(value, box.hi)[0] is not Order.GREATER)


def test_truncated_geometric_is_a_clamped_two_sided_geometric_with_loss_ln_9_8() -> None:
    """GeoSample's F(z)/d equals clamp(c + Y), P(Y = y) ∝ α^|y|; the largest adjacent pmf ratio is 9/8."""
    assert interval_exp(Interval.point(2)).hi < 20 <= interval_exp(Interval.point(3)).lo  # k = 3
    k, n = 3, 5
    alpha = Fraction(2**k, 2**k + 1)
    norm = (1 - alpha) / (1 + alpha)

    def cdf_y(m: int) -> Fraction:  # P(Y <= m)
        return norm * alpha ** (-m) / (1 - alpha) if m < 0 else 1 - norm * alpha ** (m + 1) / (1 - alpha)

    laws = {}
    for c in range(n + 1):
        f = geometric_cdf_numerators(c, k)
        assert f == tuple(sorted(f)) and f[-1] == 111537
        laws[c] = [Fraction(f[z] - (f[z - 1] if z else 0), f[-1]) for z in range(n + 1)]
        closed = [cdf_y(z - c) - (cdf_y(z - 1 - c) if z else 0) for z in range(n)]
        assert laws[c] == [*closed, 1 - sum(closed)]
    ratio = max(max(laws[c][z] / laws[c + 1][z], laws[c + 1][z] / laws[c][z])
                for c in range(n) for z in range(n + 1))
    assert ratio == Fraction(9, 8)
    e = entry("dpsniper_truncated_geometric")
    assert isinstance(e.true_epsilon, Real) and exp(e.true_epsilon).exact == ratio
    assert e.witnesses[0].p.lo / e.witnesses[0].q.hi == ratio


@pytest.mark.parametrize(("name", "scale", "width", "cut", "shift", "value"), [
    ("dpsniper_laplace", Fraction(10), 1, 0, 1, Fraction(1, 10)),
    ("dpsniper_noisy_hist1", Fraction(10), 1, 0, 1, Fraction(1, 10)),
    ("dpsniper_noisy_hist2", Fraction(1, 10), 1, 0, 1, Fraction(10)),
    ("dpsniper_laplace_parallel", Fraction(200), 20, 0, 1, Fraction(1, 10)),
    ("dpsniper_prefix_sum", Fraction(10), 10, 0, 1, Fraction(1)),
    ("dpsniper_report_noisy_max3", Fraction(20), 5, 0, 1, Fraction(1, 4)),
])
def test_left_tail_entries_attain_their_closed_form(name: str, scale: Fraction, width: int, cut: int,
                                                    shift: int, value: Fraction) -> None:
    """Π P(L < cut) against Π P(L < cut - shift) as exact sums: the ratio is e^{width·shift/scale}."""
    p = _product([zoo_laws.laplace_cdf(Fraction(cut), scale)] * width)
    q = _product([zoo_laws.laplace_cdf(Fraction(cut - shift), scale)] * width)
    assert q == _shifted(p, -width * shift / scale) and width * shift / scale == value
    e = entry(name)
    assert isinstance(e.true_epsilon, Real) and e.true_epsilon.exact == value
    w = e.witnesses[0]
    assert w.p.lo <= zoo_laws.enclose(p).hi and zoo_laws.enclose(p).lo <= w.p.hi
    assert w.q.lo <= zoo_laws.enclose(q).hi and zoo_laws.enclose(q).lo <= w.q.hi


def test_report_noisy_max2_attains_epsilon() -> None:
    """With gaps -2, P(index 0) = e^{-2λ} Σ_k C(4,k)(-1)^k/(k+1) = e^{-2λ}/5, against 1/5 by symmetry."""
    assert sum(Fraction(comb(4, k) * (-1) ** k, k + 1) for k in range(5)) == Fraction(1, 5)
    e = entry("dpsniper_report_noisy_max2")
    w = e.witnesses[0]
    assert w.a == [1] * 5 and w.b == [0, 2, 2, 2, 2]
    two_lambda = 2 * (EPSILON / 2)
    assert _contains(Interval(w.p.lo / w.q.hi, w.p.hi / w.q.lo), exp(two_lambda))
    assert isinstance(e.true_epsilon, Real) and e.true_epsilon.exact == two_lambda == EPSILON


def test_svt3_at_c1_attains_l_eps_over_2c() -> None:
    """Every factor of the witness integrand is a left tail: P(·|0^10) = e^{1/2}·P(·|1^10) exactly."""
    spec = SVTSpec(3, EPSILON, 1, Fraction(1))
    prefix: list[PrefixItem] = [*([BOTTOM] * 9), (None, Fraction(0))]
    p = zoo_laws.exact(prefix_law(spec, [0] * 10, prefix))
    q = zoo_laws.exact(prefix_law(spec, [1] * 10, prefix))
    assert q == _shifted(p, Fraction(-1, 2))
    e = entry("dpsniper_svt3")
    assert isinstance(e.true_epsilon, Real) and e.true_epsilon.exact == Fraction(1, 2)


def test_murmur3_matches_reference_values() -> None:
    """SMHasher's verification value for MurmurHash3_x86_32 (0xB0F57EE3) and mmh3.hash('foo')."""
    key = bytes(range(256))
    hashes = b"".join((murmur3_32(key[:i], 256 - i) % 2**32).to_bytes(4, "little") for i in range(256))
    assert murmur3_32(hashes, 0) % 2**32 == 0xB0F57EE3
    assert murmur3_32(b"foo", 0) == -156908512


@pytest.mark.parametrize(("name", "f", "p", "q"), [
    ("dpsniper_rappor", Fraction(3, 4), Fraction(9, 20), Fraction(11, 20)),
    ("dpsniper_one_time_rappor", Fraction(19, 20), None, None),
])
def test_rappor_loss_by_enumeration(name: str, f: Fraction, p: Fraction | None, q: Fraction | None) -> None:
    """Per-bit laws from RAPPOR's f, p, q; the loss of the worst pair by enumerating its differing bits."""
    set_one = 1 - f / 2 if p is None or q is None else (1 - f / 2) * q + f / 2 * p
    unset_one = f / 2 if p is None or q is None else f / 2 * q + (1 - f / 2) * p
    m, v, w = max((len(bloom_bits(x) ^ bloom_bits(y)), x, y) for x in RAPPOR_DOMAIN for y in RAPPOR_DOMAIN)
    only_v, only_w = bloom_bits(v) - bloom_bits(w), bloom_bits(w) - bloom_bits(v)
    worst = Fraction(0)
    for bits in itertools.product((0, 1), repeat=m):
        pv = pw = Fraction(1)
        for j, bit in zip([*only_v, *only_w], bits, strict=True):
            pv *= (set_one if j in only_v else unset_one) if bit else (
                1 - (set_one if j in only_v else unset_one))
            pw *= (set_one if j in only_w else unset_one) if bit else (
                1 - (set_one if j in only_w else unset_one))
        worst = max(worst, pv / pw)
    e = entry(name)
    assert isinstance(e.true_epsilon, Real) and exp(e.true_epsilon).exact == worst
    assert worst == (set_one / unset_one) ** m and m == 8
    assert exp(e.claimed_epsilon).exact == (set_one / unset_one) ** 8
    assert len(bloom_bits(1) ^ bloom_bits(0)) == 6  # DP-Sniper's pair: 6 differing bits


def test_enclosures_and_verdicts_are_consistent() -> None:
    """Lower ends are the witnesses' proved losses (or the exact auditor's loss over the pairs,
    which a witness attains within 2^-60); incorrect entries have a proof, correct ones none."""
    for e in ENTRIES:
        lowers = [w.epsilon_lower() for w in e.witnesses]
        if isinstance(e.true_epsilon, Interval):
            best = max(x for x in lowers if x is not None)
            assert abs(e.true_epsilon.lo - best) < Fraction(1, 2**60), e.name
        proved = any(x is None or compare(rational(x), e.claimed_epsilon)[0] is Order.GREATER
                     for x in lowers)
        assert proved is not e.correct, e.name


# ---------------------------------------------------------- quick audits


@pytest.mark.parametrize("name", ["dpsniper_truncated_geometric", "dpsniper_noisy_hist2",
                                  "dpsniper_one_time_rappor"])
def test_quick_audit_is_sound_and_sees_something(name: str) -> None:
    """10^5 samples per side, seed 0, real-arithmetic events, confidence 1 - 10^-7 (a bound
    above the true ε has at most that probability): 0 < bound <= true ε."""
    e = entry(name)
    target = target_from_callable(e.vectorized or e.sampler, name=e.name)
    config = AuditConfig(epsilon=e.claimed_epsilon, delta=Fraction(0), confidence=AUDIT_CONFIDENCE,
                         samples=100_000, seed=0, workers=1, relation="linf")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        report = run_audit(target, config, [(tuple(a), tuple(b)) for a, b in e.pairs],
                           estimator=partial(estimate_pair, float_events=False))
    bound = Fraction(report.epsilon_lower_bound)
    assert bound > 0, name
    assert isinstance(e.true_epsilon, Real)
    assert compare(rational(bound), e.true_epsilon)[0] is not Order.GREATER, (name, float(bound))
    assert math.isfinite(report.epsilon_lower_bound)
