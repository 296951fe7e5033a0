"""Ledger: 004 Theorems B.3–B.6 (VC sample-complexity bounds), checked exactly on tiny domains.

Method.  A sample S of m i.i.d. draws from a rational distribution μ on a
domain of k points is summarised by its *type*, the count vector
(n_1, …, n_k), which has probability m!/(n_1!…n_k!)·Π μ_i^{n_i}.  Every event
of Theorems B.4–B.6 depends on S only through the counts N_S(D) = Σ_{x∈D} n_x
of finitely many sets D (the disagreement sets h Δ c), so its probability is
an exact finite sum over type classes.  :func:`bad_probability` evaluates

    Pr[∃ (D, lo, hi) among the conditions : N_S(D) ∉ [lo, hi]]

as an exact Fraction: with μ_i = a_i/q it sums the integers
multinomial·Π a_i^{n_i} over the bad types and divides by q^m.  Types are
enumerated over all but two support points; for the last two, the good counts
form an interval, summed (or complemented) with the binomial recurrence, so
m in the thousands is cheap for k <= 3 (k = 4 for moderate m).
:func:`bad_probability_by_types` is the literal sum over every type (tests), and
:func:`avoid_probability` the inclusion–exclusion form for events
"some D is never sampled" (B.3, B.4).

Sample sizes.  Each theorem's m* is the least integer >= its formula, decided
by interval arithmetic (:func:`sample_size`); "log" in B.5 is read both as ln
and as log2 (the papers mix them; 004-E20).  B.4's event is monotone in
m (adding a draw can only hit more sets), so checking m* covers every m >= m*;
B.5 and B.6 are checked at m* and m* + 1 only.

The instances are fixed below; the formulas' leading constants are the module
constants :data:`B4_LEAD`, :data:`B5_LEAD` and :data:`B6_LEAD`, read at run time,
so that a mutated constant (8 → 1/2, 48 → 1, 50 → 1/2) can be seen to fail.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from typing import Final, Literal

from privref.reference.concepts import ConceptClass, explicit, intervals, point_functions, thresholds_on
from privref.reference.decide import ceil, floor, greater_than
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate
from privref.reference.reals import Interval, interval_log
from privref.reference.vc import vc_dimension

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import fixed

__all__ = [
    "B3_INSTANCE",
    "B4_INSTANCES",
    "B4_LEAD",
    "B5_INSTANCES",
    "B5_LEAD",
    "B6_INSTANCES",
    "B6_LEAD",
    "ENTRIES",
    "Condition",
    "Instance",
    "Reading",
    "all_functions",
    "avoid_probability",
    "b4_conditions",
    "b5_conditions",
    "b6_conditions",
    "bad_probability",
    "bad_probability_by_types",
    "check_b3_memorizer",
    "check_b4",
    "check_b4_not_vacuous",
    "check_b5",
    "check_b5_not_vacuous",
    "check_b6",
    "check_b6_not_vacuous",
    "instance_probability",
    "sample_size",
    "sci",
    "support_probabilities",
]

PREC: Final = 96
"""Bits of the interval enclosures of the sample-size formulas."""

BUDGET: Final = 3_000_000
"""Most inner binomial terms :func:`bad_probability` may sum before refusing."""

B4_LEAD = Fraction(8)
"""004 Theorem B.4's leading constant: m >= (8/α)(VC·ln(16/α) + ln(2/β))."""

B5_LEAD = Fraction(48)
"""004 Theorem B.5's leading constant: m >= (48/α)(10·VC·log(48e/α) + log(5/β))."""

B6_LEAD = Fraction(50)
"""004 Theorem B.6's leading constant: m >= 50·VC/α²·ln(1/(αβ))."""

Reading = Literal["ln", "log2"]

Condition = tuple[int, int, int]
"""(mask, lo, hi): the sample is *good* for this condition iff lo <= N_S(D) <= hi, D = mask's points."""

_LN2: Final = interval_log(Interval.point(2), PREC)


# ------------------------------------------------------------------ display


def sci(p: Fraction) -> str:
    """Decimal scientific display of an exact non-negative rational (display only)."""
    if p == 0:
        return "0"
    k = (p.numerator.bit_length() - p.denominator.bit_length()) * 30103 // 100000
    x = p / Fraction(10) ** k if k >= 0 else p * 10 ** (-k)
    while x >= 10:
        x, k = x / 10, k + 1
    while x < 1:
        x, k = x * 10, k - 1
    return f"{fixed(x, 3)}e{k}"


# ------------------------------------------------------------------ sample sizes


def _log(x: Fraction, reading: Reading) -> Interval:
    value = interval_log(Interval.point(x), PREC)
    return value if reading == "ln" else (value / _LN2).rounded(PREC)


def _least_integer_at_least(enc: Interval, what: str) -> int:
    """⌈x⌉ (at least 0) of the value x enclosed by ``enc``; refuses an enclosure that does not
    decide it.  x <= ⌈enc.hi⌉ = k always, so ⌈x⌉ = k exactly when x > k - 1 is proved."""
    k = ceil(enc.hi)
    if greater_than(enc, k - 1) is not Verdict.HOLDS:
        raise InvalidArgument(f"{what}: enclosure {enc} straddles an integer; cannot decide m*")
    return max(k, 0)


def sample_size(theorem: Literal["B.4", "B.5", "B.6"], alpha: Fraction, beta: Fraction, vc: int, *,
                reading: Reading = "ln") -> int:
    """m*: the least integer >= the sample-size formula of 004 Theorem B.4, B.5 or B.6.

    B.4: (8/α)(VC·ln(16/α) + ln(2/β));  B.5: (48/α)(10·VC·log(48e/α) + log(5/β)) with
    log = ``reading``;  B.6: (50·VC/α²)·ln(1/(αβ)).  The leading constants are read from
    :data:`B4_LEAD`, :data:`B5_LEAD`, :data:`B6_LEAD` at run time.  Decided by interval arithmetic.
    """
    if not (alpha > 0 and beta > 0) or vc < 0:
        raise InvalidArgument(f"alpha={alpha}, beta={beta}, vc={vc} must be > 0, > 0, >= 0")
    match theorem:
        case "B.4":
            c = B4_LEAD
            enc = (_log(16 / alpha, "ln") * vc + _log(2 / beta, "ln")) * (c / alpha)
        case "B.5":
            c = B5_LEAD
            log_e = Interval.point(1) if reading == "ln" else (1 / _LN2)
            inner = (_log(48 / alpha, reading) + log_e) * (10 * vc) + _log(5 / beta, reading)
            enc = inner * (c / alpha)
        case "B.6":
            c = B6_LEAD
            enc = _log(1 / (alpha * beta), "ln") * (c * vc / alpha**2)
    return _least_integer_at_least(enc.rounded(PREC), f"Theorem {theorem} sample size")


# ------------------------------------------------------------------ exact probabilities


def _validate_mu(mu: Sequence[Fraction]) -> tuple[Fraction, ...]:
    out = tuple(mu)
    if not out or any(not isinstance(p, Fraction | int) or isinstance(p, bool) or p < 0 for p in out):
        raise InvalidArgument(f"mu={mu!r} must be non-negative ints or Fractions")
    if sum(out) != 1:
        raise InvalidArgument(f"mu={mu!r} must sum to exactly 1")
    return tuple(Fraction(p) for p in out)


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every tuple of ``parts`` non-negative ints with sum <= total (lexicographic)."""
    if parts == 0:
        yield ()
        return
    for n in range(total + 1):
        for rest in _compositions(total - n, parts - 1):
            yield (n, *rest)


def _ipow(base: int, exponent: int) -> int:
    """base**exponent for exponent >= 0, typed as int (``int ** int`` is Any to mypy)."""
    return int(base**exponent)


def _range_sum(r: int, a1: int, a2: int, lo: int, hi: int) -> int:
    """Σ_{n=lo}^{hi} C(r,n)·a1^n·a2^(r-n), exactly (a2 > 0); 0 when lo > hi."""
    if lo > hi:
        return 0
    term = math.comb(r, lo) * _ipow(a1, lo) * _ipow(a2, r - lo)
    total = term
    for n in range(lo, hi):
        term = term * (r - n) * a1 // ((n + 1) * a2)  # exact: the next term is an integer
        total += term
    return total


def _scan(m: int, outer: Sequence[int], i1: int, i2: int, conds: Sequence[Condition]
          ) -> Iterator[tuple[tuple[int, ...], int, int, int]]:
    """For each outer composition: (counts, r, L, U) with the good n_{i1} forming [L, U] ∩ [0, r]."""
    prepared = [(tuple(k for k, j in enumerate(outer) if (mask >> j) & 1),
                 (mask >> i1) & 1, (mask >> i2) & 1, lo, hi) for mask, lo, hi in conds]
    for comp in _compositions(m, len(outer)):
        r = m - sum(comp)
        lo_n, hi_n = 0, r
        for picks, in1, in2, lo, hi in prepared:
            c = sum(comp[k] for k in picks) if picks else 0
            if in1 and in2:                 # N = c + r: no freedom left
                if not lo <= c + r <= hi:
                    lo_n, hi_n = 1, 0
            elif in1:                       # N = c + n
                lo_n, hi_n = max(lo_n, lo - c), min(hi_n, hi - c)
            elif in2:                       # N = c + r - n
                lo_n, hi_n = max(lo_n, r - (hi - c)), min(hi_n, r - (lo - c))
            elif not lo <= c <= hi:
                lo_n, hi_n = 1, 0
        yield comp, r, lo_n, hi_n


def _inner_cost(r: int, lo: int, hi: int) -> int:
    good = max(min(hi, r) - max(lo, 0) + 1, 0)
    return min(good, r + 1 - good)


def _bad_inner(r: int, a1: int, a2: int, lo: int, hi: int) -> int:
    """Σ over n ∉ [lo, hi] of C(r,n)·a1^n·a2^(r-n), summing whichever side is shorter."""
    lo, hi = max(lo, 0), min(hi, r)
    good = max(hi - lo + 1, 0)
    if good == 0:
        return _ipow(a1 + a2, r)
    if good <= r + 1 - good:
        return _ipow(a1 + a2, r) - _range_sum(r, a1, a2, lo, hi)
    return _range_sum(r, a1, a2, 0, lo - 1) + _range_sum(r, a1, a2, hi + 1, r)


def bad_probability(mu: Sequence[Fraction], m: int, conditions: Sequence[Condition], *,
                    budget: int = BUDGET) -> Fraction:
    """Exact Pr[∃ (D, lo, hi) ∈ conditions : N_S(D) ∉ [lo, hi]] for S ~ μ^m (004 Theorems B.4–B.6).

    ``mu[i]`` is the probability of domain position i, ``mask`` bit i selects it.
    Exact: a sum of multinomial type-class probabilities (see the module
    docstring).  Raises TooLargeToEnumerate when more than ``budget`` inner
    terms would be summed (choose a smaller m or domain).
    """
    mu = _validate_mu(mu)
    if isinstance(m, bool) or not isinstance(m, int) or m < 0:
        raise InvalidArgument(f"m={m!r} must be an int >= 0")
    support = [i for i, p in enumerate(mu) if p > 0]
    where = {p: j for j, p in enumerate(support)}
    conds: list[Condition] = []
    for mask, lo, hi in conditions:
        sub = sum(1 << where[p] for p in support if (mask >> p) & 1)
        conds.append((sub, lo, hi))
    k = len(support)
    if k == 1:
        return Fraction(int(any(not lo <= (m if sub else 0) <= hi for sub, lo, hi in conds)))
    q = math.lcm(*(mu[p].denominator for p in support))
    a = [int(mu[p] * q) for p in support]
    best: tuple[int, int, int, list[int], list[tuple[tuple[int, ...], int, int, int]]] | None = None
    for i1, i2 in itertools.combinations(range(k), 2):
        outer = [j for j in range(k) if j not in (i1, i2)]
        if k > 3 and math.comb(m + len(outer), len(outer)) > budget:
            raise TooLargeToEnumerate(f"m={m} on {k} support points: more than budget={budget} "
                                      "outer types")
        rows = [row for row in _scan(m, outer, i1, i2, conds) if not (row[2] <= 0 and row[3] >= row[1])]
        cost = sum(1 + _inner_cost(r, lo, hi) for _, r, lo, hi in rows)
        if best is None or cost < best[0]:
            best = (cost, i1, i2, outer, rows)
    assert best is not None
    cost, i1, i2, outer, rows = best
    if cost > budget:
        raise TooLargeToEnumerate(f"m={m}: {cost} inner terms exceed budget={budget}")
    weight = 0
    for comp, r, lo, hi in rows:
        w, rest = 1, m
        for j, n in zip(outer, comp, strict=True):
            w *= math.comb(rest, n) * a[j] ** n
            rest -= n
        weight += w * _bad_inner(r, a[i1], a[i2], lo, hi)
    return Fraction(weight, q**m)


def bad_probability_by_types(mu: Sequence[Fraction], m: int, conditions: Sequence[Condition]
                             ) -> Fraction:
    """The same probability as :func:`bad_probability`, by summing every type class literally.

    Cost C(m+k-1, k-1) types; meant for small m (tests cross-check the two).
    """
    mu = _validate_mu(mu)
    k = len(mu)
    total = Fraction(0)
    for comp in _compositions(m, k - 1):
        counts = (*comp, m - sum(comp))
        if any(not lo <= sum(counts[i] for i in range(k) if (mask >> i) & 1) <= hi
               for mask, lo, hi in conditions):
            p = Fraction(math.factorial(m))
            for i in range(k):
                p = p / math.factorial(counts[i]) * mu[i] ** counts[i]
            total += p
    return total


def support_probabilities(mu: Sequence[Fraction], m: int) -> tuple[Fraction, ...]:
    """Pr[support(S) = T] for every mask T, S ~ μ^m: Σ_{U ⊆ T} (-1)^{|T∖U|} μ(U)^m (exact).

    This groups the type classes by their support (inclusion–exclusion); cost 3^k.
    """
    mu = _validate_mu(mu)
    k = len(mu)
    mass = [sum((mu[i] for i in range(k) if (u >> i) & 1), Fraction(0)) for u in range(1 << k)]
    out: list[Fraction] = []
    for t in range(1 << k):
        u, exact = t, Fraction(0)
        while True:  # every subset u of t
            sign = -1 if (t ^ u).bit_count() % 2 else 1
            exact += sign * mass[u] ** m
            if u == 0:
                break
            u = (u - 1) & t
        out.append(exact)
    return tuple(out)


def avoid_probability(mu: Sequence[Fraction], m: int, masks: Sequence[int]) -> Fraction:
    """Exact Pr[S ∩ D = ∅ for some D in masks], S ~ μ^m (via :func:`support_probabilities`).

    The event depends on the type class only through its support; exact for any m.
    """
    probs = support_probabilities(mu, m)
    return sum((p for t, p in enumerate(probs) if any(t & d == 0 for d in masks)), Fraction(0))


# ------------------------------------------------------------------ the theorems' events


def _mass(mu: Sequence[Fraction], mask: int) -> Fraction:
    return sum((p for i, p in enumerate(mu) if (mask >> i) & 1), Fraction(0))


def b4_conditions(C: ConceptClass, target: int, mu: Sequence[Fraction], alpha: Fraction
                  ) -> tuple[int, ...]:
    """Theorem B.4's sets: h Δ c for every h ∈ C with error_μ(h, c) > α (c = C[target]).

    error_S(h) = 0 iff S misses h Δ c, so the event is "S misses one of these sets".
    """
    c = C.masks[target]
    return tuple(sorted({h ^ c for h in C.masks if _mass(mu, h ^ c) > alpha}))


def b5_conditions(C: ConceptClass, mu: Sequence[Fraction], alpha: Fraction, m: int
                  ) -> tuple[Condition, ...]:
    """Theorem B.5's conditions: for c, h ∈ C with error_μ(c,h) >= α, bad iff N_S(cΔh) <= αm/10."""
    t = floor(alpha * m / 10)
    diffs = sorted({c ^ h for c in C.masks for h in C.masks if _mass(mu, c ^ h) >= alpha})
    return tuple((d, t + 1, m) for d in diffs)


def b6_conditions(H: ConceptClass, f: int, mu: Sequence[Fraction], alpha: Fraction, m: int
                  ) -> tuple[Condition, ...]:
    """Theorem B.6's conditions: for h ∈ H, good iff |error_μ(h,f) - N_S(hΔf)/m| <= α (f a mask)."""
    out = []
    for h in H.masks:
        p = _mass(mu, h ^ f)
        out.append((h ^ f, ceil(m * (p - alpha)), floor(m * (p + alpha))))
    return tuple(sorted(set(out)))


# ------------------------------------------------------------------ instances


@cache
def all_functions(n: int) -> ConceptClass:
    """Every function on {0, …, n-1} (VC = n), in mask order."""
    dom = tuple(range(n))
    return explicit(dom, [tuple((m >> i) & 1 for i in range(n)) for m in range(1 << n)],
                    name=f"ALL[{n} points]")


@dataclass(frozen=True, slots=True)
class Instance:
    """One exact test case: class, distribution, accuracy/confidence, and a target.

    ``target`` is the index of c in the class (B.4) or the label mask of f
    (B.6); B.5 has none.  ``small_m`` is a sample size at which the bad event
    has probability > β (the non-vacuity witness).
    """

    name: str
    concepts: Callable[[], ConceptClass]
    mu: tuple[Fraction, ...]
    alpha: Fraction
    beta: Fraction
    target: int = 0
    small_m: int = 1

    def describe(self) -> str:
        mu = ",".join(str(p) for p in self.mu)
        return f"{self.name}, μ=({mu}), α={self.alpha}, β={self.beta}"


F = Fraction

B4_INSTANCES: Final = (
    Instance("THRESH[4 points], c=c_2", partial(thresholds_on, 4), (F(1, 4),) * 4, F(1, 4),
             F(1, 10), target=2, small_m=4),
    Instance("INTERVALS[4 points], c=c_[1,2]", partial(intervals, 4),
             (F(1, 2), F(1, 4), F(1, 8), F(1, 8)), F(1, 8), F(1, 20), target=6, small_m=8),
    Instance("ALL[3 points], c=010", partial(all_functions, 3), (F(1, 2), F(1, 3), F(1, 6)),
             F(1, 3), F(1, 4), target=2, small_m=2),
    Instance("POINT[4 points]+zero, c=c_zero", partial(point_functions, range(4), include_zero=True),
             (F(1, 10), F(2, 10), F(3, 10), F(4, 10)), F(1, 20), F(1, 100), target=4, small_m=10),
)
"""Theorem B.4 instances: fixed target c = C[target], consistent hypotheses with error > α."""

B5_INSTANCES: Final = (
    Instance("THRESH[2 points]", partial(thresholds_on, 2), (F(1, 3), F(2, 3)), F(1, 3), F(1, 10),
             small_m=2),
    Instance("THRESH[3 points]", partial(thresholds_on, 3), (F(1, 2), F(1, 4), F(1, 4)), F(1, 2),
             F(1, 10), small_m=2),
    Instance("INTERVALS[3 points]", partial(intervals, 3), (F(1, 2), F(1, 4), F(1, 4)), F(3, 4),
             F(1, 20), small_m=1),
    Instance("ALL[3 points]", partial(all_functions, 3), (F(1, 2), F(1, 4), F(1, 4)), F(3, 4),
             F(1, 4), small_m=1),
)
"""Theorem B.5 instances: all pairs (c, h) ∈ C × C."""

B6_INSTANCES: Final = (
    Instance("THRESH[3 points], f=010 ∉ H", partial(thresholds_on, 3), (F(1, 3),) * 3, F(1, 2),
             F(1, 4), target=0b010, small_m=2),
    Instance("INTERVALS[3 points], f=101 ∉ H", partial(intervals, 3), (F(1, 4), F(1, 2), F(1, 4)),
             F(1, 2), F(1, 10), target=0b101, small_m=2),
    Instance("ALL[3 points], f=101 ∈ H", partial(all_functions, 3), (F(1, 4), F(1, 2), F(1, 4)),
             F(1, 2), F(1, 10), target=0b101, small_m=2),
    Instance("THRESH[2 points], f=01 ∉ H", partial(thresholds_on, 2), (F(1, 2), F(1, 2)), F(1, 4),
             F(1, 4), target=0b10, small_m=1),
)
"""Theorem B.6 instances: f given as a label mask (bit i = f(point i)), not necessarily in H."""

B3_INSTANCE: Final = (5, F(1, 32), (F(1, 2), F(1, 8), F(1, 8), F(1, 8), F(1, 8)))
"""(k, α, μ) for the Theorem B.3 illustration: all functions on k points, EHKV-style μ."""


def instance_probability(theorem: Literal["B.4", "B.5", "B.6"], inst: Instance, m: int) -> Fraction:
    """The exact probability of the theorem's bad event on ``inst`` with m samples."""
    C = inst.concepts()
    match theorem:
        case "B.4":
            return avoid_probability(inst.mu, m, b4_conditions(C, inst.target, inst.mu, inst.alpha))
        case "B.5":
            return bad_probability(inst.mu, m, b5_conditions(C, inst.mu, inst.alpha, m))
        case "B.6":
            return bad_probability(inst.mu, m, b6_conditions(C, inst.target, inst.mu, inst.alpha, m))


# ------------------------------------------------------------------ checks


def _check_theorem(theorem: Literal["B.4", "B.5", "B.6"], instances: Sequence[Instance],
                   readings: Sequence[Reading], extra: Sequence[int]) -> CheckResult:
    parts: list[str] = []
    for inst in instances:
        vc = vc_dimension(inst.concepts())
        for reading in readings:
            m_star = sample_size(theorem, inst.alpha, inst.beta, vc, reading=reading)
            probs = []
            for m in (m_star, *(m_star + e for e in extra)):
                p = instance_probability(theorem, inst, m)
                probs.append(p)
                where = f"{inst.describe()}, VC={vc}, m={m} ({reading})"
                if p > inst.beta:
                    return CheckResult(Verdict.VIOLATED, f"{where}: Pr = {sci(p)} > β = {inst.beta}",
                                       witness=f"{where}: Pr = {p}")
            parts.append(f"{inst.name} [{reading}] m*={m_star}: Pr={sci(probs[0])}")
    also = "and " + ", ".join(f"m*+{e}" for e in extra) if extra else "m* only"
    return CheckResult(Verdict.HOLDS, f"exact Pr <= β at m* ({also}): " + "; ".join(parts))


def check_b4(instances: Sequence[Instance] = B4_INSTANCES) -> CheckResult:
    """004 Theorem B.4 on each instance: Pr[∃h: error_μ(h,c) > α ∧ error_S(h) = 0] <= β at m*."""
    res = _check_theorem("B.4", instances, ("ln",), ())
    if res.verdict is not Verdict.HOLDS:
        return res
    return CheckResult(res.verdict, res.evidence + " (the event shrinks as m grows: every m >= m* holds)")


def check_b5(instances: Sequence[Instance] = B5_INSTANCES, reading: Reading = "ln") -> CheckResult:
    """004 Theorem B.5 on each instance with log = ``reading``: at m* and m*+1 (ln), at m* (log2)."""
    return _check_theorem("B.5", instances, (reading,), (1,) if reading == "ln" else ())


def check_b6(instances: Sequence[Instance] = B6_INSTANCES) -> CheckResult:
    """004 Theorem B.6 on each instance: Pr[∃h: |error_μ(h,f) - error_S(h)| > α] <= β at m*, m*+1."""
    return _check_theorem("B.6", instances, ("ln",), (1,))


def _crossing(theorem: Literal["B.4", "B.5", "B.6"], inst: Instance, lo: int, hi: int) -> int:
    """Bisection for m in [lo, hi) with Pr(m) > β >= Pr(m+1), given Pr(lo) > β >= Pr(hi)."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if instance_probability(theorem, inst, mid) > inst.beta:
            lo = mid
        else:
            hi = mid
    return lo


def _check_not_vacuous(theorem: Literal["B.4", "B.5", "B.6"], instances: Sequence[Instance],
                       monotone: bool) -> CheckResult:
    parts: list[str] = []
    for inst in instances:
        vc = vc_dimension(inst.concepts())
        m_star = sample_size(theorem, inst.alpha, inst.beta, vc)
        p = instance_probability(theorem, inst, inst.small_m)
        if not p > inst.beta:
            return CheckResult(Verdict.VIOLATED, f"{inst.describe()}: Pr = {sci(p)} <= β already at "
                               f"m = {inst.small_m}; the instance does not exercise the bound",
                               witness=inst.describe())
        cross = _crossing(theorem, inst, inst.small_m, m_star)
        kind = "last m with Pr > β" if monotone else "a crossing (bisection)"
        parts.append(f"{inst.name}: Pr({inst.small_m}) = {sci(p)} > β; {kind} m = {cross}, "
                     f"m* = {m_star} ({fixed(Fraction(m_star, cross), 1)}x)")
    return CheckResult(Verdict.HOLDS, "the bound is not vacuous (small samples fail): "
                       + "; ".join(parts))


def check_b4_not_vacuous(instances: Sequence[Instance] = B4_INSTANCES) -> CheckResult:
    """Each B.4 instance has Pr > β at a small m, and the exact threshold m (monotone event)."""
    return _check_not_vacuous("B.4", instances, True)


def check_b5_not_vacuous(instances: Sequence[Instance] = B5_INSTANCES) -> CheckResult:
    """Each B.5 instance has Pr > β at a small m; reports a crossing below m* (ln reading)."""
    return _check_not_vacuous("B.5", instances, False)


def check_b6_not_vacuous(instances: Sequence[Instance] = B6_INSTANCES) -> CheckResult:
    """Each B.6 instance has Pr > β at a small m; reports a crossing below m*."""
    return _check_not_vacuous("B.6", instances, False)


def check_b3_memorizer(k: int = B3_INSTANCE[0], alpha: Fraction = B3_INSTANCE[1],
                       mu: tuple[Fraction, ...] = B3_INSTANCE[2]) -> CheckResult:
    """Illustration of 004 Theorem B.3 on one learner: the memorizer over all functions on k points.

    The memorizer outputs the sample's labels on seen points and 0 elsewhere;
    with target c ≡ 1 its error is μ(unseen points), so it fails (error > α)
    iff the unseen mass exceeds α; exact over supports.  HOLDS when it fails
    with probability > 1/2 (> any β < 1/2) at every m < (VC-1)/(16α), as B.3
    requires of every learner; reports the m where it first succeeds.
    """
    vc = vc_dimension(all_functions(k))
    bound = Fraction(vc - 1) / (16 * alpha)
    full = (1 << k) - 1

    def fail(m: int) -> Fraction:
        probs = support_probabilities(mu, m)
        return sum((p for t, p in enumerate(probs) if _mass(mu, full ^ t) > alpha), Fraction(0))

    below = list(range(ceil(bound)))
    for m in below:
        p = fail(m)
        if not p > Fraction(1, 2):
            return CheckResult(Verdict.VIOLATED, f"memorizer fails w.p. {sci(p)} <= 1/2 at m = {m} "
                               f"< (VC-1)/(16α) = {bound}", witness=f"m={m}")
    m = ceil(bound)
    while fail(m) > Fraction(1, 2):
        m += 1
    mu_txt = ",".join(map(str, mu))
    return CheckResult(Verdict.HOLDS, f"ALL[{k} points] (VC {vc}), μ=({mu_txt}), c ≡ 1, α={alpha}: "
                       f"(VC-1)/(16α) = {bound}; the memorizer fails w.p. > 1/2 for every m < {bound} "
                       f"(at m={below[-1]}: {sci(fail(below[-1]))}) and first succeeds w.p. >= 1/2 at "
                       f"m = {m}")


# ------------------------------------------------------------------ entries


def _b5_rows() -> str:
    return "; ".join(i.describe() for i in B5_INSTANCES)


B3 = Entry(
    paper="004", number="Theorem B.3", kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
    also=("000 Theorem B.3",),
    statement="For any (α, β < 1/2, n, m)-SSL for a class C: m >= (VC(C) - 1)/(16α) "
              "(cited from [18], Ehrenfeucht–Haussler–Kearns–Valiant).",
    reason="A lower bound quantified over every learner (and the hard distribution is chosen "
           "against it); no finite computation covers all learners.",
    illustration="One learner on one hard instance: the memorizer (seen labels, 0 elsewhere) on "
                 "all functions over 5 points (VC 5), μ = (1/2, 1/8, 1/8, 1/8, 1/8), c ≡ 1, "
                 "α = 1/32: the bound is m >= 8, and the memorizer fails with probability > 1/2 "
                 "at every m < 8 (exact, inclusion–exclusion).",
    checks=(Check("memorizer fails below (VC-1)/(16α) (exact)", check_b3_memorizer),),
    notes="The illustration is consistent with B.3 but cannot confirm it (B.3 is about all "
          "learners). The EHKV construction puts 1 - 16α on one point and spreads 16α over "
          "VC - 1 points; the instance uses exactly that shape.",
)

B4 = Entry(
    paper="004", number="Theorem B.4", kind=Kind.THEOREM, status=Status.CHECKED,
    also=("000 Theorem B.4",),
    statement="For m >= (8/α)(VC(C)·ln(16/α) + ln(2/β)), a fixed c ∈ C and S = m i.i.d. draws "
              "from D labeled by c: Pr[∃h ∈ C: error_D(h,c) > α ∧ error_S(h) = 0] <= β.",
    notes="Checked exactly on four (class, μ, c, α, β) instances with |X| <= 4 (THRESH, INTERVALS, "
          "all functions, point functions + zero). error_S(h) = 0 iff S misses h Δ c, so the "
          "probability is a sum over type classes grouped by their support (inclusion–exclusion; "
          "cross-checked against the literal type-class sum in the tests). The event shrinks as m "
          "grows, so m* covers every m >= m*. The not-vacuous check gives each instance's exact "
          "threshold: the formula asks 40-165x more samples than these instances need. 000 cites "
          "[30,10], 004 [30,11].",
    checks=(Check("exact Pr <= β at m* on 4 instances", check_b4, constant="B4_LEAD"),
            Check("the bound is not vacuous (exact thresholds)", check_b4_not_vacuous)),
)

B5 = Entry(
    paper="004", number="Theorem B.5", kind=Kind.THEOREM, status=Status.CHECKED,
    also=("000 Theorem B.5",),
    statement="For m >= (48/α)(10·VC(C)·log(48e/α) + log(5/β)) and S = m i.i.d. draws from μ: "
              "Pr[∃c, h ∈ C: error_μ(c,h) >= α ∧ error_S(c,h) <= α/10] <= β.",
    notes="Checked exactly (type-class sums, m in the thousands) on: " + _b5_rows() + ", with log "
          "read as ln (at m* and m*+1) and as log2 (at m*). The probabilities at m* are astronomically "
          "small (e.g. 1e-1200): B.5's constants are very loose on tiny domains. Uniform over pairs "
          "in C × C only: the utility proofs of 000 Lemma 4.12 / 004 Lemma C.10 need the base "
          "learner's output in C (004-E10). 004 prints error_D in the event (typo, 004-E20).",
    checks=(Check("exact Pr <= β at m*, m*+1 (log = ln), 4 instances", check_b5,
                  constant="B5_LEAD"),
            Check("exact Pr <= β at m* (log = log2), 4 instances", partial(check_b5, reading="log2"),
                  constant="B5_LEAD"),
            Check("the bound is not vacuous", check_b5_not_vacuous)),
)

B6 = Entry(
    paper="004", number="Theorem B.6", kind=Kind.THEOREM, status=Status.CHECKED,
    also=("000 Theorem B.6",),
    statement="For any f: X → {0,1}, m >= 50·VC(H)/α²·ln(1/(αβ)) and S = m i.i.d. draws from μ "
              "labeled by f: Pr[∀h ∈ H: |error_μ(h,f) - error_S(h)| <= α] >= 1 - β.",
    notes="Checked exactly (two-sided count conditions, type-class sums) on four instances with "
          "|X| <= 3, three of them with f ∉ H (the agnostic case), at m* and m*+1.",
    checks=(Check("exact Pr[some |deviation| > α] <= β at m*, m*+1, 4 instances", check_b6,
                  constant="B6_LEAD"),
            Check("the bound is not vacuous", check_b6_not_vacuous)),
)

ENTRIES: tuple[Entry, ...] = (B3, B4, B5, B6)
