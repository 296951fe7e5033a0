"""The mechanism zoo: outcome types, laws against exact distributions, true-epsilon metadata, budgets.

Every statistical check is seeded (see tests/stats.py for the false-positive
rate of one check); everything about privacy is compared exactly or one-sided.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Hashable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pytest
from scipy import stats

from privref.audits.exact import audit_pair
from privref.reference.errors import InvalidArgument
from privref.reference.geometric import discrete_laplace_mechanism
from privref.reference.reals import Interval, Order, Real, compare, exp, interval_exp, rational
from tests.stats import chi_square_pvalue, expected_probabilities, fits
from validation.zoo import NOT_PRIVATE, Witness, ZooEntry, rows_as_outcomes, zoo, zoo_entry
from validation.zoo_samplers import finite_law_samplers, full_precision_uniform
from validation.zoo_selection import exponential_mechanisms
from validation.zoo_svt import (
    ABORTED,
    SVTSpec,
    Variant,
    enclose_prefix,
    svt_sampler,
    svt_vectorized,
)

pytestmark = pytest.mark.deep  # the deep tier: python -m pytest -m deep (docs/test-tiers.md)

ENTRIES = zoo()
NAMES = [e.name for e in ENTRIES]
DOC = Path(__file__).resolve().parents[2] / "docs" / "blackbox-zoo.md"

H = TypeVar("H", bound=Hashable)


def entry(name: str) -> ZooEntry:
    return next(e for e in ENTRIES if e.name == name)


# ------------------------------------------------------------------ registry


def test_names_and_aliases_are_unique_and_resolve() -> None:
    keys = [k for e in ENTRIES for k in (e.name, *e.aliases)]
    assert len(keys) == len(set(keys))
    for e in ENTRIES:
        for k in (e.name, *e.aliases):
            assert zoo_entry(k).name == e.name


def test_unknown_name_lists_the_valid_ones() -> None:
    with pytest.raises(InvalidArgument, match=r"name='svt7' is not a zoo entry; valid names: svt1"):
        zoo_entry("svt7")


DPSNIPER_CORRECT = {"dpsniper_laplace", "dpsniper_truncated_geometric", "dpsniper_noisy_hist1",
                    "dpsniper_report_noisy_max1", "dpsniper_report_noisy_max2", "dpsniper_svt1",
                    "dpsniper_svt2", "dpsniper_rappor", "dpsniper_one_time_rappor",
                    "dpsniper_laplace_parallel", "dpsniper_numerical_svt"}
DPSNIPER_INCORRECT = {"dpsniper_noisy_hist2", "dpsniper_report_noisy_max3",
                      "dpsniper_report_noisy_max4", "dpsniper_svt3", "dpsniper_svt4", "dpsniper_svt5",
                      "dpsniper_svt6", "dpsniper_svt34_parallel", "dpsniper_prefix_sum"}


def test_required_families_with_correct_and_incorrect_variants() -> None:
    correct = {e.name for e in ENTRIES if e.correct}
    assert correct == {"svt1", "svt2", "noisy_max_index", "histogram", "exponential",
                       "laplace_snapping", "laplace_discrete"} | DPSNIPER_CORRECT
    assert {e.name for e in ENTRIES if not e.correct} == {
        "svt3", "svt4", "svt5", "svt6", "noisy_max_value", "histogram_inverted_scale",
        "exponential_no_half", "laplace_float"} | DPSNIPER_INCORRECT


def test_dpsniper_benchmark_is_registered_under_its_class_names() -> None:
    """All 20 of DP-Sniper's mechanisms are in zoo(), reachable by DP-Sniper's class name."""
    from validation.zoo_dpsniper import MAPPING
    assert len(DPSNIPER_CORRECT | DPSNIPER_INCORRECT) == len(MAPPING) == 20
    for dpsniper_name, name, _ in MAPPING:
        assert zoo_entry(dpsniper_name).name == name
    assert {e.name for e in ENTRIES[-20:]} == {m[1] for m in MAPPING}


# ------------------------------------------------------ samplers and types


@pytest.mark.parametrize("name", NAMES)
def test_scalar_and_vectorized_outcomes_have_the_same_types(name: str) -> None:
    e = entry(name)
    assert e.vectorized is not None
    for data in e.pairs[0]:
        rng = np.random.default_rng(7)
        one = e.sampler(list(data), rng)
        rows = rows_as_outcomes(e.vectorized(list(data), rng, 50))
        assert len(rows) == 50
        hash(one)
        for o in rows:
            hash(o)
            assert type(o) is type(one)
            if isinstance(one, tuple):
                assert len(o) == len(one)
                assert [type(x) for x in o] == [type(x) for x in one]
            assert not (isinstance(o, float) and math.isnan(o))


@pytest.mark.parametrize("name", NAMES)
def test_randomness_comes_from_rng_only(name: str) -> None:
    """Equal seeds give equal draws, in both forms (no global RNG)."""
    e = entry(name)
    assert e.vectorized is not None
    data = list(e.pairs[0][0])
    draws = [[e.sampler(data, np.random.default_rng(3)) for _ in range(3)] for _ in range(2)]
    assert draws[0] == draws[1]
    v1 = e.vectorized(data, np.random.default_rng(5), 20)
    v2 = e.vectorized(data, np.random.default_rng(5), 20)
    assert np.array_equal(v1, v2)


@pytest.mark.parametrize("name", NAMES)
def test_bad_data_is_refused(name: str) -> None:
    e = entry(name)
    assert e.vectorized is not None
    good = list(e.pairs[0][0])
    bad_value = [*good[:-1], "x"]
    with pytest.raises(InvalidArgument, match=r"data\[\d+\]='x' must be"):
        e.sampler(bad_value, np.random.default_rng(0))
    if name.startswith(("svt", "noisy_max", "histogram", "exponential")):
        with pytest.raises(InvalidArgument, match="exactly"):
            e.vectorized(good + good[:1], np.random.default_rng(0), 3)


def test_vectorized_forms_return_size_outcomes() -> None:
    """Every entry has a vectorized form returning ``size`` outcomes (speed: benchmarks/)."""
    for e in ENTRIES:
        assert e.vectorized is not None
        assert len(e.vectorized(list(e.pairs[0][0]), np.random.default_rng(1), 1000)) == 1000, e.name


# ------------------------------------------------------------------- laws


def _chi_square(probs: dict[H, float], counts: Counter[H], n: int) -> float:
    assert set(counts) <= set(probs), set(counts) - set(probs)
    keys = [k for k in probs if probs[k] * n >= 5]
    observed = [counts[k] for k in keys]
    expected = [probs[k] * n for k in keys]
    rest = n - sum(expected)
    if rest >= 1:  # the rare outcomes, pooled
        observed.append(n - sum(observed))
        expected.append(rest)
    else:
        assert n - sum(observed) <= 5
        expected = [x * sum(observed) / sum(expected) for x in expected]
    return float(stats.chisquare(observed, expected).pvalue)


def _svt_outcomes(spec: SVTSpec, length: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for bits in itertools.product((0, 1), repeat=length):
        tops = [i for i, bit in enumerate(bits) if bit]
        if spec.has_cutoff and len(tops) >= spec.cutoff:
            bits = bits[:tops[spec.cutoff - 1] + 1]
        if bits not in out:
            out.append(bits)
    return out


def _svt_key(spec: SVTSpec, outcome: Sequence[float]) -> tuple[int, ...]:
    if spec.numeric:  # -inf is ⊥ or not answered; the prefix ends at the c-th ⊤
        codes = [0 if x == -math.inf else 1 for x in outcome]
        tops = [i for i, c in enumerate(codes) if c]
        return tuple(codes[:tops[spec.cutoff - 1] + 1] if len(tops) >= spec.cutoff else codes)
    row = [int(x) for x in outcome]
    return tuple(row[:row.index(ABORTED)] if ABORTED in row else row)


@pytest.mark.parametrize("variant", [1, 2, 3, 4, 5, 6])
def test_svt_samplers_follow_the_exact_law(variant: Variant) -> None:
    """Both forms of every variant against the closed-form law of every outcome pattern (ℓ = 4)."""
    spec = SVTSpec(variant, Fraction(1), 2, Fraction(0))
    data = [0, 2, -1, 1]
    probs = {o: float(enclose_prefix(spec, data, o).lo)
             for o in _svt_outcomes(spec, len(data))}
    assert math.isclose(sum(probs.values()), 1.0, rel_tol=1e-12)
    n = 20_000
    rows = rows_as_outcomes(svt_vectorized(spec, data, np.random.default_rng(20261121), n))
    assert fits(_chi_square(probs, Counter(_svt_key(spec, r) for r in rows), n),
                f"SVT variant {variant}: vectorized sampler")
    rng = np.random.default_rng(20261122)
    scalar = Counter(_svt_key(spec, svt_sampler(spec, data, rng)) for _ in range(3000))
    assert fits(_chi_square(probs, scalar, 3000), f"SVT variant {variant}: scalar sampler")


@pytest.mark.parametrize("which", [0, 1])
def test_exponential_samplers_match_the_exact_distribution(which: int) -> None:
    mech = exponential_mechanisms()[which]
    e = entry(("exponential", "exponential_no_half")[which])
    assert e.vectorized is not None
    for data in e.pairs[0]:
        dist = mech.distribution(data)

        def draw(r: np.random.Generator, d: Sequence[Any] = data) -> Any:
            return e.sampler(list(d), r)

        assert fits(chi_square_pvalue(dist, draw), f"{e.name} on {data!r}: scalar sampler")
        rows = rows_as_outcomes(e.vectorized(list(data), np.random.default_rng(9), 20_000))
        assert fits(_chi_square(expected_probabilities(dist), Counter(rows), 20_000),
                    f"{e.name} on {data!r}: vectorized sampler")


def test_finite_law_vectorizer_is_exact_on_a_fine_law() -> None:
    mech = exponential_mechanisms()[1]
    _, vectorized = finite_law_samplers(mech)
    dist = mech.distribution((0, 0, 0))  # P(1) = 1/65
    rows = rows_as_outcomes(vectorized([0, 0, 0], np.random.default_rng(4), 50_000))
    assert fits(_chi_square(expected_probabilities(dist), Counter(rows), 50_000),
                "finite-law vectorizer on a fine law")


def test_full_precision_uniform_fills_every_binade() -> None:
    u = full_precision_uniform(np.random.default_rng(19), 200_000)
    assert bool(np.all((u > 0) & (u < 1)))
    _, e = np.frexp(u)
    counts = Counter((1 - e).tolist())  # u in [2^-k, 2^-k+1) has frexp exponent 1 - k
    probs: dict[Hashable, float] = {k: 2.0**-k for k in range(1, 40)}
    assert fits(_chi_square(probs, counts, u.size), "full_precision_uniform binades")
    # low bits are used: a 53-bit grid would make every u a multiple of 2^-53
    small = u[u < 2.0**-10]
    assert bool(np.any(small * 2.0**53 != np.floor(small * 2.0**53)))


def _binomial_consistent(w: Witness, sample: Any, n: int, what: str) -> bool:
    hits = sum(1 for o in rows_as_outcomes(sample) if w.contains(o))
    p = float((w.p.lo + w.p.hi) / 2) if w.p_estimate is None else w.p_estimate
    return fits(stats.binomtest(hits, n, p).pvalue, f"{what}: {hits}/{n} against p = {p:.6g}")


@pytest.mark.parametrize("name", NAMES)
def test_witness_probabilities_match_the_samplers(name: str) -> None:
    """Each witness's P(F | a) and P(F | b) against seeded draws (where the event is not too rare)."""
    e = entry(name)
    assert e.vectorized is not None
    n = 40_000
    for i, w in enumerate(e.witnesses):
        rng = np.random.default_rng(1000 + i)
        if w.p.lo * n >= 20 or w.p_estimate is not None:
            assert _binomial_consistent(w, e.vectorized(list(w.a), rng, n), n,
                                        f"{name} witness {i}, P(F | a)")
        if w.q.lo * n >= 20:
            q = Witness(w.b, w.a, w.event, w.contains, w.q, w.p, w.basis)
            assert _binomial_consistent(q, e.vectorized(list(w.b), rng, n), n,
                                        f"{name} witness {i}, P(F | b)")


# --------------------------------------------------------- true-epsilon metadata


def _contains(box: Interval, value: Real) -> bool:
    return compare(value, box.lo)[0] is not Order.LESS and compare(value, box.hi)[0] is not Order.GREATER


@pytest.mark.parametrize("which", [0, 1])
def test_exponential_true_epsilon_equals_the_exact_audit_of_the_pair(which: int) -> None:
    mech = exponential_mechanisms()[which]
    e = entry(("exponential", "exponential_no_half")[which])
    a, b = e.pairs[0]
    report = audit_pair(mech, a, b)
    assert isinstance(e.true_epsilon, Real)
    assert report.epsilon.t_exact is not None
    assert exp(e.true_epsilon).exact == report.epsilon.t_exact == Fraction((3, 13)[which])
    w = e.witnesses[0]
    assert w.p.lo / w.q.hi == report.epsilon.t_exact
    assert compare(e.true_epsilon, e.claimed_epsilon)[0] is (Order.LESS, Order.GREATER)[which]


@pytest.mark.parametrize("name", ["histogram", "histogram_inverted_scale", "laplace_discrete"])
def test_discrete_laplace_true_epsilon_equals_the_exact_audit(name: str) -> None:
    e = entry(name)
    assert isinstance(e.true_epsilon, Real) and e.true_epsilon.exact is not None
    scale = 1 / e.true_epsilon.exact
    report = audit_pair(discrete_laplace_mechanism(scale), [0], [1])
    assert report.epsilon.t_hi is not None
    assert _contains(Interval(report.epsilon.t_lo, report.epsilon.t_hi), exp(e.true_epsilon))
    w = e.witnesses[0]
    ratio = interval_exp(Interval.point(e.true_epsilon.exact))
    assert w.p.lo <= ratio.hi * w.q.hi and w.p.hi >= ratio.lo * w.q.lo  # p/q = e^{1/scale}


def _ratio_box(w: Witness) -> Interval | None:
    return None if w.q.lo == 0 else Interval(w.p.lo / w.q.hi, w.p.hi / w.q.lo)


@pytest.mark.parametrize("name", NAMES)
def test_witnesses_agree_with_the_true_epsilon(name: str) -> None:
    """Witness losses lie below the true epsilon's upper end; the enclosure's lower end is a
    witness's loss, or the exact auditor's loss over the entry's pairs (validation.zoo_exact),
    which a witness attains (both are proved lower bounds, rounded differently: within 2^-60)."""
    e = entry(name)
    true = e.true_epsilon
    for w in e.witnesses:
        lower = w.epsilon_lower()
        if lower is None:
            assert w.q.hi == 0 and w.p.lo > 0 and true is NOT_PRIVATE
            continue
        if isinstance(true, Interval):
            assert lower <= true.hi
        elif isinstance(true, Real):
            assert compare(rational(lower), true)[0] is not Order.GREATER
    if isinstance(true, Interval) and name != "laplace_snapping":
        assert abs(true.lo - max(w.epsilon_lower() or 0 for w in e.witnesses)) < Fraction(1, 2**60)


@pytest.mark.parametrize("name", NAMES)
def test_incorrect_entries_have_a_proved_violation_and_correct_ones_none(name: str) -> None:
    e = entry(name)
    claim = e.claimed_epsilon
    proved = []
    for w in e.witnesses:
        lower = w.epsilon_lower()
        proved.append(lower is None or compare(rational(lower), claim)[0] is Order.GREATER)
        box = _ratio_box(w)
        if e.correct:
            assert box is not None
            assert compare(rational(box.lo), exp(claim))[0] is not Order.GREATER
    assert any(proved) is not e.correct


@pytest.mark.parametrize(("name", "value"), [("svt3", Fraction(5, 2)), ("noisy_max_value", Fraction(5, 2))])
def test_attained_closed_forms_are_attained_by_the_first_witness(name: str, value: Fraction) -> None:
    """svt3: ℓ·ε/(2c); noisy_max_value: k·ε/2 -- the witness ratio is exactly e^value."""
    e = entry(name)
    assert isinstance(e.true_epsilon, Real) and e.true_epsilon.exact == value
    box = _ratio_box(e.witnesses[0])
    assert box is not None
    assert _contains(box, exp(value))


def test_svt5_witness_is_impossible_on_one_side() -> None:
    e = entry("svt5")
    w = e.witnesses[0]
    assert w.q == Interval.point(0) and w.p.lo > 0
    assert e.vectorized is not None
    rows = rows_as_outcomes(e.vectorized(w.b, np.random.default_rng(2), 30_000))
    assert not any(w.contains(o) for o in rows)


def test_laplace_float_witness_is_exhibited_and_impossible_on_one_side() -> None:
    """Some draw from [0] lies in F (so P(F|[0]) >= 2^-53); no draw from [1] does (Sterbenz)."""
    e = entry("laplace_float")
    w = e.witnesses[0]
    assert e.vectorized is not None and e.true_epsilon is NOT_PRIVATE
    from_a = e.vectorized(w.a, np.random.default_rng(23), 10_000)
    assert any(w.contains(y) for y in from_a.tolist())
    from_b = e.vectorized(w.b, np.random.default_rng(29), 200_000)
    in_range = from_b[(from_b > 0) & (from_b < 0.5)]
    assert in_range.size > 10_000 and not any(w.contains(y) for y in in_range.tolist())


def test_snapping_claim_is_mironovs_bound() -> None:
    e = entry("laplace_snapping")
    assert e.vectorized is not None
    assert e.claimed_epsilon.exact == 1 + Fraction(12 * 2**10 + 2, 2**53)
    rows = e.vectorized([1], np.random.default_rng(31), 10_000)
    assert bool(np.all(rows == np.round(rows))) and bool(np.all(np.abs(rows) <= 2**10))


# ------------------------------------------------------------------ budgets


def required_samples(p: float, q: float, epsilon: float, confidence: float = 0.95) -> float:
    """Smallest N per side with ln(CP_lower(N·p) / CP_upper(N·q)) > epsilon (docs/blackbox-zoo.md).

    Counts at their expectations (⌊Np⌋ and ⌈Nq⌉), one-sided Clopper-Pearson
    bounds at (1 - confidence)/2 each; inf when p <= e^epsilon·q.
    """
    if q > 0 and math.log(p / q) <= epsilon:
        return math.inf
    a = (1 - confidence) / 2

    def ok(n: int) -> bool:
        kp, kq = math.floor(n * p), math.ceil(n * q)
        lo = float(stats.beta.ppf(a, kp, n - kp + 1)) if kp > 0 else 0.0
        hi = float(stats.beta.ppf(1 - a, kq + 1, n - kq)) if kq < n else 1.0
        return lo > 0 and math.log(lo / hi) > epsilon

    n = 8
    while not ok(n):
        n *= 2
        if n > 10**14:
            return math.inf
    lo_n, hi_n = n // 2, n
    while hi_n - lo_n > max(1, lo_n // 1000):
        mid = (lo_n + hi_n) // 2
        lo_n, hi_n = (lo_n, mid) if ok(mid) else (mid, hi_n)
    return hi_n


def budget_text(n: float) -> str:
    """Two significant digits, rounded up: 340000 -> '3.4e5'."""
    if n == math.inf:
        return "—"
    exponent = max(math.floor(math.log10(n)) - 1, 0)
    mantissa = math.ceil(n / 10**exponent)
    if mantissa >= 100:
        mantissa, exponent = math.ceil(mantissa / 10), exponent + 1
    value = mantissa * 10**exponent
    if value < 10_000:
        return str(value)
    digits = f"{mantissa / 10:.1f}"
    return f"{digits}e{exponent + 1}"


def entry_budget(e: ZooEntry) -> float:
    claim = float(e.claimed_epsilon)
    best = math.inf
    for w in e.witnesses:
        p = w.p_estimate if w.p_estimate is not None else float((w.p.lo + w.p.hi) / 2)
        best = min(best, required_samples(p, float((w.q.lo + w.q.hi) / 2), claim))
    return best


def test_budget_examples() -> None:
    assert required_samples(0.2, 0.0, 1.0) < 100  # an impossible event is exposed at once
    assert required_samples(0.5, 0.5 * math.exp(-0.5), 1.0) == math.inf
    assert budget_text(340_123) == "3.5e5" and budget_text(820) == "820" and budget_text(1116) == "1200"


def test_doc_table_budgets_are_current() -> None:
    """docs/blackbox-zoo.md lists, per entry, the budget recomputed here (detects drift)."""
    text = DOC.read_text(encoding="utf-8")
    for e in ENTRIES:
        row = re.search(rf"^\| `{e.name}` \|.*$", text, flags=re.MULTILINE)
        assert row is not None, e.name
        cells = [c.strip() for c in row.group(0).strip("|").split("|")]
        assert cells[-1] == budget_text(entry_budget(e)), (e.name, cells[-1])
