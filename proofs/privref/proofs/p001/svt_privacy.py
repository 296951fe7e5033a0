"""Ledger: the sparse-vector side of paper 001's privacy: Theorem 2's SVT steps, Lemmas 45–49.

* Theorem 2 (Algorithm 2) steps: the exact release probability of an unstable query and the
  paper's bound on it, dist's sensitivity and stability (exhaustive, K <= 40), the swapped ⊥/⊤
  roles of the proof, and the loose union bound over ℓ + T variables.
* Lemma 45 (Algorithm 6 privacy): the printed algorithm is not private (exact audit); the
  Dwork–Roth one is; the loop guard "while c <= T" allows T + 1 ⊥'s.
* Lemma 46 (Algorithm 6 utility): exact failure probabilities from the discrete law.
* Lemmas 48, 49 (Algorithm 7): exact audits, the two typos, and the utility tail.

Every verdict is exact: Fractions, interval enclosures, or the exact auditor.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from typing import Final, Literal

from privref.reference.accounting import algorithm2_lambda, algorithm2_threshold
from privref.reference.data import Dataset
from privref.reference.decide import at_most, equal, greater_than, less_than, proved_lt
from privref.reference.discrete_noise import DiscreteLaplace, difference_tail, upper_tail
from privref.reference.neighbors import Universe
from privref.reference.pate import BOTTOM, svt_votes
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, distribution
from privref.reference.reals import (
    Interval,
    Prob,
    Real,
    exp,
    log,
    prob_as_interval,
    rational,
    sqrt,
)
from privref.reference.sparse_vector import (
    continuous_release_probability,
    discrete_release_probability,
    paper_release_bound,
    sparse_vector,
)
from privref.reference.stability_release import (
    distance_to_instability,
    instability_distance,
    majority,
    stability_radius,
    threshold_floor,
)

from .._common import audit_result, combine
from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from ..numbers_text import decimal, interval_text

__all__ = [
    "ENTRIES",
    "check_alg6_utility",
    "check_alg7_audits",
    "check_alg7_noise_on_dist",
    "check_alg7_utility",
    "check_bottom_count_at_most_cutoff",
    "check_corrected_alg6",
    "check_corrected_alg6_continuous",
    "check_discrete_release_bound",
    "check_dist_stability",
    "check_labels_where_screen_passes",
    "check_max_k_reading",
    "check_printed_alg6",
    "check_printed_alg6_audit_continuous",
    "check_printed_alg6_continuous",
    "check_printed_loop_guard",
    "check_printed_roles",
    "check_release_probability",
    "check_union_bound",
    "conservative_cases",
    "difference_tail_by_pieces",
]

F = Fraction
_PREC: Final = 200

ALG6_CLAIM_SCALE = F(1)
"""001 Lemma 45 (corrected Algorithm 6): the claimed ε (leading 1, audited exactly)."""
LEMMA46_PHI_SCALE = F(1)
"""001 Lemma 46's φ = ln(2mT/β)·√(512T ln(1/δ))/ε (leading 1)."""
ALG7_CLAIM_SCALE = F(1)
"""001 Lemma 48 (Algorithm 7): the claimed ε (leading 1, audited exactly)."""
RELEASE_DENOMINATOR = 3
"""001 Theorem 2's proof: P(ν − ρ > w) < e^{−w/(3λ)} (discrete: e^{−w/(3t)}), the 3."""
SCREEN_BOTTOM_OFFSET = 0
"""001 Theorem 2 (corrected reading of the proof): at most T + 0 ⊥'s, the offset 0."""
ALG7_NOISE_SHIFT = 0
"""001 Lemma 48 / Algorithm 7 Step 1: noise added to dist_f(D) itself (shift 0)."""
LEMMA49_STABILITY_SCALE = F(1)
"""001 Lemma 49: dist >= (ln(1/δ) + ln(1/β))/ε gives P(⊥) <= β (leading 1)."""


def _box(p: Prob | Real) -> Interval:
    return p.enclose(_PREC) if isinstance(p, Real) else prob_as_interval(p)


def _apart(a: Interval, b: Interval) -> bool:
    """True when two enclosures are disjoint, so their values are proved different."""
    return equal(a, b) is Verdict.VIOLATED


# ================================================================== release probability


def difference_tail_by_pieces(b1: Fraction, b2: Fraction, w: Fraction) -> Real:
    """P(X − Y > w), X ~ Lap(b1), Y ~ Lap(b2), b1 != b2, w >= 0, by conditioning on Y (exact Real).

    With a = 1/b1, c = 1/b2 and S_X(u) = e^{−au}/2 (u >= 0), 1 − e^{au}/2 (u < 0), the integral
    ∫ f_Y(y) S_X(w + y) dy splits at y = 0 and y = −w into
    I1 = (c/4)e^{−aw}/(a + c), I2 = (c/4)e^{−aw}(1 − e^{−(c−a)w})/(c − a),
    I3 = e^{−cw}/2 − (c/4)e^{−cw}/(a + c).  An independent derivation of 001 Theorem 2's
    release probability (the reference uses the convolution density instead).
    """
    a, c = 1 / b1, 1 / b2
    ea, ec = exp(rational(-a * w)), exp(rational(-c * w))
    i1 = ea * (c / (4 * (a + c)))
    i2 = (ea - ec) * (c / (4 * (c - a)))
    i3 = ec * (F(1, 2) - c / (4 * (a + c)))
    return i1 + i2 + i3


_LAMS: Final = (F(1, 2), F(3), F(40))
_WS: Final = (F(0), F(1, 3), F(2), F(50), F(400))


def check_release_probability(
        closed_form: Callable[[Fraction, Fraction], Real] = continuous_release_probability,
        bound: Callable[[Fraction, Fraction], Real] = paper_release_bound) -> CheckResult:
    """P(Lap(2λ) − Lap(λ) > w) = (4e^{−w/(2λ)} − e^{−w/λ})/6 <= e^{−w/(3λ)} (001 Theorem 2 proof).

    On λ ∈ {1/2, 3, 40} × w ∈ {0, 1/3, 2, 50, 400}: ``closed_form`` must overlap
    :func:`difference_tail_by_pieces` (2λ, λ, w) to width < 2^-150 (disjoint enclosures prove a
    wrong formula), and must be proved < ``bound``.  At the paper's w = 3λ ln(2(ℓ + T)/δ) the
    bound's enclosure contains δ/(2(ℓ + T)).  Mutations: a wrong closed form, a too-strong bound.
    """
    for lam in _LAMS:
        for w in _WS:
            p, q = closed_form(lam, w), difference_tail_by_pieces(2 * lam, lam, w)
            bp, bq = _box(p), _box(q)
            if _apart(bp, bq):
                return CheckResult(Verdict.VIOLATED, "closed form differs from the derivation",
                                   f"λ={lam}, w={w}: {float(bp.lo):.12g} vs {float(bq.lo):.12g}")
            if bp.width > F(1, 2**150):
                return CheckResult(Verdict.UNDECIDED, "enclosure too wide", f"λ={lam}, w={w}")
            below = less_than(p, bound(lam, w))
            if below is not Verdict.HOLDS:
                return CheckResult(below, "release probability not proved below the bound",
                                   f"λ={lam}, w={w}")
    for ell, cutoff, eps, delta in ((1, 1, F(1), F(1, 10)), (20, 3, F(1, 2), F(1, 10**6))):
        w_real = algorithm2_threshold(ell, cutoff, eps, delta)
        lam_real = algorithm2_lambda(cutoff, eps, delta)
        box = exp(-(w_real / (lam_real * 3))).enclose(_PREC)
        target = delta / (2 * (ell + cutoff))
        if equal(box, target) is Verdict.VIOLATED:  # proved different
            return CheckResult(Verdict.VIOLATED, "e^{−w/(3λ)} is not δ/(2(ℓ+T))",
                               f"ℓ={ell}, T={cutoff}")
    return CheckResult(Verdict.HOLDS, f"{len(_LAMS) * len(_WS)} (λ, w) points: closed form = "
                       "piecewise derivation, and < e^{−w/(3λ)}; e^{−w/(3λ)} = δ/(2(ℓ+T)) at "
                       "the paper's w")


def check_discrete_release_bound() -> CheckResult:
    """The discrete analogue P(ν − ρ > w), ν ~ DLap(2t), ρ ~ DLap(t), is < e^{−w/(c·t)}.

    t ∈ {1/2, 1, 6} × integer w ∈ {0, 1, 2, 5, 20, 60} (c = :data:`RELEASE_DENOMINATOR` = 3 is
    the paper's bound); c = 1 (a too-strong bound) must fail.
    """
    exponent = F(1) / RELEASE_DENOMINATOR
    for t in (F(1, 2), F(1), F(6)):
        for w in (0, 1, 2, 5, 20, 60):
            p = _box(discrete_release_probability(t, w))
            b = exp(rational(-exponent * w / t)).enclose(_PREC)
            below = less_than(p, b)
            if below is Verdict.VIOLATED:
                return CheckResult(below, "discrete release above the bound",
                                   f"t={t}, w={w}: {decimal(p.lo)} >= {decimal(b.hi)}")
            if below is Verdict.UNDECIDED:
                return CheckResult(below, "undecided", f"t={t}, w={w}")
    return CheckResult(Verdict.HOLDS, "18 (t, w) points: discrete release < e^{−w/(3t)}")


# ================================================================== dist


def conservative_cases(kmax: int = 40,
                       dist: Callable[[int, int], int] = instability_distance) -> int:
    """#{(K, s): 1 <= K <= kmax, 0 <= s <= K, stability_radius(s, K) > dist(s, K)}.

    Exactly Σ_{even K <= kmax} K/2 for the paper's dist (ties go to 1, so for even K and
    s > K/2 the true radius s − K/2 exceeds dist = s − K/2 − 1); 210 for kmax = 40.
    """
    return sum(stability_radius(s, k) > dist(s, k)
               for k in range(1, kmax + 1) for s in range(k + 1))


def check_dist_stability(dist: Callable[[int, int], int] = instability_distance,
                         kmax: int = 40) -> CheckResult:
    """For every K <= kmax and vote count s: the majority is constant on [s − dist, s + dist] ∩
    [0, K], dist <= the true radius, and |dist(s) − dist(s + 1)| <= 1 (001 Algorithm 2 step 6).

    Exhaustive and exact (integers).  ``dist`` replaces the formula (mutation: ⌈Δ/2⌉).
    """
    for k in range(1, kmax + 1):
        for s in range(k + 1):
            d = dist(s, k)
            m = majority(s, k)
            for s2 in range(max(0, s - d), min(k, s + d) + 1):
                if majority(s2, k) != m:
                    return CheckResult(Verdict.VIOLATED, "majority changes within dist",
                                       f"K={k}, s={s}, dist={d}, s'={s2}")
            if d > stability_radius(s, k):
                return CheckResult(Verdict.VIOLATED, "dist exceeds the true radius", f"K={k}, s={s}")
            if s < k and abs(d - dist(s + 1, k)) > 1:
                return CheckResult(Verdict.VIOLATED, "dist has sensitivity > 1", f"K={k}, s={s}")
    count = conservative_cases(kmax, dist)
    return CheckResult(Verdict.HOLDS, f"every K <= {kmax}, every s: stable within dist, "
                       f"sensitivity 1; the true radius exceeds dist in {count} (K, s) cases")


# ================================================================== ⊥/⊤ roles and union bound

_T: Final = F(1, 2)
_W: Final = 1


def _law(votes: tuple[int, ...], k: int, cutoff: int
         ) -> tuple[tuple[tuple[int | str, ...], Prob], ...]:
    def program() -> Program[tuple[int | str, ...]]:
        return (yield from svt_votes(votes, k, _T, _W, cutoff))
    return distribution(program).items()


_VOTES: Final = tuple(itertools.product(range(4), repeat=3))  # K = 3, ℓ = 3


def check_printed_roles(extra: int = 0) -> CheckResult:
    """The proof's wording (L733): fewer than T labels ("⊤") are released.  Refuted by the law.

    Algorithm 2 (svt_votes, t = 1/2, w = 1, K = 3, ℓ = 3, T = 1, 2): some vote vector releases
    more than T labels with positive probability.  (``extra`` raises the bar to T + extra
    labels; extra = 3 >= ℓ cannot be exceeded, so the check then HOLDS.)
    """
    for cutoff in (1, 2):
        for votes in _VOTES:
            for out, p in _law(votes, 3, cutoff):
                labels = sum(1 for o in out if o != BOTTOM)
                if labels > cutoff + extra and greater_than(_box(p), 0) is Verdict.HOLDS:
                    return CheckResult(Verdict.VIOLATED, "more labels than the printed bound",
                                       f"T={cutoff}, votes={votes}: output {out} w.p. "
                                       f"{float(_box(p).lo):.4g}")
    return CheckResult(Verdict.HOLDS, "no output has T or more labels")


def check_labels_where_screen_passes() -> CheckResult:
    """Labels are released where the screen passes, and at most T ⊥'s occur (corrected reading).

    For every K = 3, ℓ = 3 vote vector and T ∈ {1, 2}: every output has <= T + cutoff_slack ⊥'s;
    P(first output is a label) overlaps P(dist_1 + ν > w + ρ) = P(ν − ρ >= w − dist_1 + 1)
    (disjoint enclosures would refute it).  cutoff_slack = :data:`SCREEN_BOTTOM_OFFSET`; −1 must
    fail.
    """
    cutoff_slack = SCREEN_BOTTOM_OFFSET
    for cutoff in (1, 2):
        for votes in _VOTES:
            first = Interval.point(0)
            for out, p in _law(votes, 3, cutoff):
                if sum(1 for o in out if o == BOTTOM) > cutoff + cutoff_slack:
                    return CheckResult(Verdict.VIOLATED, "too many ⊥'s", f"{votes}: {out}")
                if out[0] != BOTTOM:
                    first = first + _box(p)
            dist = instability_distance(votes[0], 3)
            passed = _box(difference_tail(DiscreteLaplace(2 * _T), DiscreteLaplace(_T),
                                          _W - dist + 1))
            if _apart(first, passed):
                return CheckResult(Verdict.VIOLATED, "labels not where the screen passes",
                                   f"votes={votes}")
    return CheckResult(Verdict.HOLDS, f"{2 * len(_VOTES)} (T, votes): <= T ⊥'s, first label "
                       "w.p. P(screen passes)")


def check_union_bound(terms: Callable[[int, int], int] = lambda ell, cutoff: ell) -> CheckResult:
    """P(some unstable query releases a label) <= terms(ℓ, T)·p, p = P(ν − ρ > w); ℓ terms suffice.

    All queries unstable (K = 2, one vote each: dist = 0), ℓ ∈ {1, 2, 3}, T ∈ {1, 2},
    t = 1/2, w = 1: the exact law gives P(a label is released); it is <= ℓ·p (the union over
    the ℓ query comparisons), which is < (ℓ + T)·p (the proof's "ℓ + T variables").
    ``terms`` = ℓ − 1 must fail.
    """
    p = _box(discrete_release_probability(_T, _W))
    rows = []
    for ell in (1, 2, 3):
        for cutoff in (1, 2):
            leak = Interval.point(0)
            for out, q in _law((1,) * ell, 2, cutoff):
                if any(o != BOTTOM for o in out):
                    leak = leak + _box(q)
            bound = terms(ell, cutoff) * p.hi
            fits = at_most(leak, bound)
            if fits is Verdict.VIOLATED:
                return CheckResult(fits, "the union bound fails",
                                   f"ℓ={ell}, T={cutoff}: {decimal(leak.lo)} > {decimal(bound)}")
            if fits is Verdict.UNDECIDED:
                return CheckResult(fits, "undecided", f"ℓ={ell}, T={cutoff}")
            rows.append(f"ℓ={ell},T={cutoff}: {float(leak.hi):.4f} <= {float(bound):.4f} < "
                        f"{float((ell + cutoff) * p.lo):.4f}")
    return CheckResult(Verdict.HOLDS, "; ".join(rows))


# ================================================================== Lemma 45


def _count(data: Dataset) -> int:
    return sum(1 for x in data if x == 1)


_SV_EPS: Final = F(1, 100)
_SV_DELTA: Final = F(1, 2**20)
_SV_UNIVERSE: Final = Universe((0, 1), (1,))

Variant = Literal["printed", "corrected"]


Noise = Literal["discrete", "continuous"]


def _alg6(variant: Variant, queries: int = 8, cutoff: int = 2,
          noise: Noise = "discrete") -> object:
    return sparse_vector((_count,) * queries, 0, _SV_EPS, _SV_DELTA, cutoff, refresh=variant,
                         scale=variant, noise=noise)


def check_printed_alg6(variant: Variant = "printed", noise: Noise = "discrete") -> CheckResult:
    """Exact audit of 001 Algorithm 6 as printed (ŵ ← w + 1, λ = √(32T ln(1/δ)/ε)) at its claim.

    (ε, δ) = (1/100, 2⁻²⁰), T = 2, w = 0, eight counting queries, one-bit datasets: VIOLATED is
    the counterexample (worst-case ε ≈ 0.01038 > 1/100 over discrete Laplace, 0.0103862 over
    the printed continuous Laplace).  ``variant="corrected"`` must HOLD.
    """
    result, _ = audit_result(_alg6(variant, noise=noise), _SV_UNIVERSE)  # type: ignore[arg-type]
    return result


def check_printed_alg6_audit_continuous(variant: Variant = "printed") -> CheckResult:
    """:func:`check_printed_alg6` over the paper's own continuous Lap(λ), Lap(2λ), λ exact
    (irrational): every output's probability in closed form (privref.reference.continuous_noise)."""
    return check_printed_alg6(variant, "continuous")


def check_corrected_alg6(noise: Noise = "discrete") -> CheckResult:
    """Exact audit of the Dwork–Roth Algorithm 6 (ŵ ← w + Lap(λ), λ = √(32T ln(1/δ))/ε).

    Same instance as :func:`check_printed_alg6`, claim (c·ε, δ), c = :data:`ALG6_CLAIM_SCALE`;
    c = 1/100 must fail.
    """
    mech = _alg6("corrected", noise=noise)
    claim = PrivacyClaim(rational(_SV_EPS * ALG6_CLAIM_SCALE), _SV_DELTA)
    result, _ = audit_result(mech, _SV_UNIVERSE, claim=claim)  # type: ignore[arg-type]
    return result


def check_corrected_alg6_continuous() -> CheckResult:
    """:func:`check_corrected_alg6` over continuous Lap(λ), Lap(2λ) (the paper's noise)."""
    return check_corrected_alg6("continuous")


def _max_bottoms(mech: object) -> tuple[int, str]:
    best, witness = 0, ""
    for out, p in mech.distribution((0,)).items():  # type: ignore[attr-defined]
        n = sum(1 for o in out if o == BOTTOM)
        if n > best and greater_than(_box(p), 0) is Verdict.HOLDS:
            best, witness = n, f"output {out} w.p. {decimal(_box(p).lo, 3)}"
    return best, witness


def check_printed_loop_guard(guard_extra: int = 1) -> CheckResult:
    """"while c <= T" halts only after the (T + 1)-th ⊥: the law allows T + 1 ⊥'s.

    The printed guard is Algorithm 6 with halt at the (T + guard_extra)-th ⊥ (guard_extra = 1);
    four queries on the dataset (0) (value 0, w = 0, so ⊥ is likely), T = 1, 2.  VIOLATED (the
    counterexample to "at most T ⊥'s", Algorithm 2's break at c >= T) when an output with more
    than T ⊥'s has positive probability; guard_extra = 0 (Algorithm 2's rule) must HOLD.
    """
    for cutoff in (1, 2):
        mech = sparse_vector((_count,) * 4, 0, F(1), F(1, 10), cutoff + guard_extra)
        most, witness = _max_bottoms(mech)
        if most > cutoff:
            return CheckResult(Verdict.VIOLATED, f"T={cutoff}: {most} ⊥'s possible", witness)
    return CheckResult(Verdict.HOLDS, "at most T ⊥'s in every output (T = 1, 2)")


def check_bottom_count_at_most_cutoff(guard_extra: int = 0) -> CheckResult:
    """Algorithm 2 (svt_votes) and the corrected Algorithm 6 never output more than T ⊥'s.

    The corrected guard (halt at the T-th ⊥) on the same instances as
    :func:`check_printed_loop_guard`, and svt_votes on all-unstable votes, T = 1, 2.
    ``guard_extra`` = 1 (the printed guard) must fail.
    """
    inner = check_printed_loop_guard(guard_extra)
    if inner.verdict is not Verdict.HOLDS:
        return inner
    for cutoff in (1, 2):
        for out, _ in _law((1, 1, 1), 2, cutoff):
            if sum(1 for o in out if o == BOTTOM) > cutoff:
                return CheckResult(Verdict.VIOLATED, "Algorithm 2 exceeded T ⊥'s", f"{out}")
    return CheckResult(Verdict.HOLDS, "Algorithm 6 (corrected guard) and Algorithm 2: <= T ⊥'s")


# ================================================================== Lemma 46


def check_printed_alg6_continuous() -> CheckResult:
    """001 Algorithm 6 as printed, with the paper's continuous Laplace noise: one event refutes
    (ε, δ) = (1/100, 2⁻²⁰), exactly.

    T = 2, w = 0, eight copies of a counting query, datasets (0,) and (1,) (counts 0 and 1),
    λ = √(32T ln(1/δ)/ε).  The event S = "⊥ at the first query, then ⊤ seven times" (the whole
    transcript: the loop stops only at the (T + 1)-th ⊥).  With a = e^{−1/(2λ)}:

    * count 1: the first ⊥ is 1 + Lap(2λ) <= Lap(λ), of probability P(Lap(2λ) − Lap(λ) >= 1) =
      (4a − a²)/6 (:func:`privref.reference.sparse_vector.continuous_release_probability`'s
      closed form); then ŵ = w + 1 = 1 and each ⊤ is 1 + Lap(2λ) > 1, of probability 1/2;
    * count 0: the first ⊥ has probability 1/2 (symmetry); each ⊤ is Lap(2λ) > 1, of
      probability a/2.

    So P₁(S) − e^ε·P₀(S) = (4a − a²)/(6·2⁷) − e^ε·a⁷/2⁸, which must be <= δ for (ε, δ)-DP; it is
    decided against δ by interval arithmetic.  The same event gives ε(δ) >=
    ln((2(4a − a²)/6 − 2⁸δ)/a⁷), reported as an enclosure.
    """
    lam = sqrt(rational(32 * 2) * log(rational(1 / _SV_DELTA)) / rational(_SV_EPS))
    a = exp(-(lam * 2).reciprocal())
    first_bottom = (a * 4 - a * a) / 6
    on_one = first_bottom / 2**7
    on_zero = a**7 / 2**8
    excess = on_one - exp(rational(_SV_EPS)) * on_zero
    verdict = greater_than(excess, _SV_DELTA)
    eps_at_delta = log((first_bottom * 2 - rational(2**8 * _SV_DELTA)) / a**7)
    text = (f"event ⊥⊤⊤⊤⊤⊤⊤⊤: P₁ − e^ε·P₀ = {decimal(excess, 6)} vs δ = 2⁻²⁰ ≈ "
            f"{decimal(_SV_DELTA, 6)}; ε(2⁻²⁰) >= {interval_text(eps_at_delta.enclose(64), 6)}")
    if verdict is Verdict.HOLDS:  # the excess above δ refutes the claim
        return CheckResult(Verdict.VIOLATED, f"printed Algorithm 6, continuous noise: {text}",
                           "datasets (0,) vs (1,), transcript ⊥⊤⊤⊤⊤⊤⊤⊤")
    if verdict is Verdict.VIOLATED:
        return CheckResult(Verdict.HOLDS, f"this event does not refute the claim: {text}")
    return CheckResult(Verdict.UNDECIDED, f"undecided: {text}")


def check_alg6_utility(variants: tuple[Variant, ...] = ("corrected", "printed")) -> CheckResult:
    """P(some i ∉ L(φ) is answered ⊥) <= β for φ = ln(2mT/β)·√(512T ln(1/δ))/ε (001 Lemma 46).

    Exact discrete laws of Algorithm 6 (corrected refresh, λ corrected or printed, rounded up to
    the discrete scale t), w = 0, δ = 1/10: (ε, β, T) ∈ {(1, 1/10, 1), (1, 1/2, 2), (1/4, 1/2, 1)}
    (both λ's at ε = 1/4; they coincide at ε = 1); queries in L(φ) have value 0 (|L| <= T), the
    others the least integer > w + c·φ, c = :data:`LEMMA46_PHI_SCALE`.  c = 1/8 must fail.
    """
    phi_factor = LEMMA46_PHI_SCALE
    rows = 0
    delta = F(1, 10)
    corrected: tuple[Variant, ...] = ("corrected",)
    instances = ((F(1), F(1, 10), 1, (0, 1, 1), corrected),
                 (F(1), F(1, 2), 2, (1, 0, 1, 0), corrected),
                 (F(1, 4), F(1, 2), 1, (0, 1, 1), variants))
    for eps, beta, cutoff, pattern, which in instances:
        m = len(pattern)
        phi = (log(F(2 * m * cutoff) / beta) * sqrt(log(1 / delta) * (512 * cutoff))
               / eps * phi_factor)
        high = threshold_floor(phi) + 1
        values = tuple(high if bit else 0 for bit in pattern)
        queries = tuple((lambda d, v=v: v) for v in values)
        for variant in which:
            mech = sparse_vector(queries, 0, eps, delta, cutoff, scale=variant)
            fail = Interval.point(0)
            for out, p in mech.distribution((0,)).items():
                if any(o == BOTTOM and pattern[i] for i, o in enumerate(out)):
                    fail = fail + _box(p)
            fits = at_most(fail, beta)
            if fits is Verdict.VIOLATED:
                return CheckResult(fits, "failure probability above β",
                                   f"ε={eps}, β={beta}, T={cutoff}, {variant} λ, "
                                   f"values {values}: {decimal(fail.lo, 4)}")
            if fits is Verdict.UNDECIDED:
                return CheckResult(fits, "undecided", f"{values}")
            rows += 1
    return CheckResult(Verdict.HOLDS, f"{rows} instances: exact failure probability <= β")


# ================================================================== Lemmas 48, 49

_ALG7: Final = ((F(1), F(1, 10), 5), (F(2), F(1, 1000), 6), (F(1), F(1, 100), 8))


def check_alg7_audits() -> CheckResult:
    """Exact audits of 001 Algorithm 7 (distance_to_instability, discrete Laplace) at (ε, δ).

    (ε, δ, K) ∈ {(1, 1/10, 5), (2, 1/1000, 6), (1, 1/100, 8)}, substitution of one vote; claim ε
    scaled by :data:`ALG7_CLAIM_SCALE` (1/2 must fail: the worst-case ε exceeds ε/2 on every
    instance).
    """
    results = []
    for eps, delta, k in _ALG7:
        mech = distance_to_instability(eps, delta)
        claim = PrivacyClaim(rational(eps * ALG7_CLAIM_SCALE), delta)
        results.append(audit_result(mech, Universe((0, 1), (k,)), claim=claim)[0])
    return combine(results)


def check_max_k_reading(dist: Callable[[int, int], int] = instability_distance,
                        kmax: int = 40) -> CheckResult:
    """Lemma 48's dist_f = "argmax_k (f is k-stable)" read as the largest such k.

    For K <= kmax and every s: {k : f(D) is k-stable} = {0, ..., radius} (an interval, so the
    literal argmax of its indicator is every k <= radius, a set of >= 2 elements in some case);
    ``dist`` <= radius (max-k reading) with sensitivity 1.  A dist above the radius must fail.
    """
    ambiguous = 0
    for k in range(1, kmax + 1):
        for s in range(k + 1):
            radius = stability_radius(s, k)
            stable = [r for r in range(k + 1)
                      if all(majority(v, k) == majority(s, k)
                             for v in range(max(0, s - r), min(k, s + r) + 1))]
            if stable != list(range(radius + 1)):
                return CheckResult(Verdict.VIOLATED, "stable k's are not {0..radius}",
                                   f"K={k}, s={s}")
            ambiguous += radius >= 1
            if dist(s, k) > radius or (s < k and abs(dist(s, k) - dist(s + 1, k)) > 1):
                return CheckResult(Verdict.VIOLATED, "dist is not a sensitivity-1 lower bound "
                                   "of max k", f"K={k}, s={s}")
    return CheckResult(Verdict.HOLDS, f"K <= {kmax}: the literal argmax is a set of >= 2 values "
                       f"in {ambiguous} cases; dist <= max k, sensitivity 1")


def check_alg7_noise_on_dist() -> CheckResult:
    """Algorithm 7 Step 1 adds Lap(1/ε) to dist_f(D) (printed: to dist^_f(D)).

    The law of distance_to_instability: P(output = f(D)) overlaps P(Z >= ⌊Γ⌋ + 1 − dist + shift)
    for Z ~ DLap(1/ε), every K <= 6 and vote count, (ε, δ) ∈ {(1, 1/10), (1/2, 1/3)}.
    shift = :data:`ALG7_NOISE_SHIFT`; 1 must fail.
    """
    shift = ALG7_NOISE_SHIFT
    for eps, delta in ((F(1), F(1, 10)), (F(1, 2), F(1, 3))):
        mech = distance_to_instability(eps, delta)
        gamma = threshold_floor(log(1 / delta) / eps)
        for k in range(1, 7):
            for s in range(k + 1):
                data = (1,) * s + (0,) * (k - s)
                law = dict(mech.distribution(data).items())
                got = _box(law.get(majority(s, k), F(0)))
                want = _box(upper_tail(DiscreteLaplace(1 / eps),
                                       gamma + 1 - instability_distance(s, k) + shift))
                if _apart(got, want):
                    return CheckResult(Verdict.VIOLATED, "release law differs",
                                       f"ε={eps}, δ={delta}, K={k}, s={s}")
    return CheckResult(Verdict.HOLDS, "release probability = P(dist + Z > ⌊Γ⌋) on every input")


def check_alg7_utility(drop_delta: bool = False) -> CheckResult:
    """P(Lap(1/ε) <= −ln(1/β)/ε) = β/2 <= β, and the discrete mechanism outputs f(D) w.p. >= 1 − β.

    Continuous: ½·exp(−ε·ln(1/β)/ε) encloses β/2 (width < 2^-150), (ε, β) on a grid.  Discrete:
    for (ε, δ, β) on a grid, K teachers all voting 1 with dist = ⌈K/2⌉ − 1 >= (ln(1/δ) +
    ln(1/β))/ε (least such K): P(⊥) <= β exactly.  ``drop_delta`` (stability only ln(1/β)/ε)
    must fail.  The stability threshold is scaled by :data:`LEMMA49_STABILITY_SCALE`.
    """
    for eps in (F(1, 2), F(1), F(3)):
        for beta in (F(1, 2), F(1, 10), F(1, 1000)):
            tail = exp(-(log(1 / beta) / eps) * eps) * F(1, 2)
            box = tail.enclose(_PREC)
            if equal(box, beta / 2) is Verdict.VIOLATED:  # proved != β/2
                return CheckResult(Verdict.VIOLATED, "tail is not β/2", f"ε={eps}, β={beta}")
    for eps, delta, beta in ((F(1), F(1, 10), F(1, 10)), (F(2), F(1, 100), F(1, 2)),
                             (F(1, 2), F(1, 3), F(1, 5))):
        need = ((log(1 / beta) if drop_delta else log(1 / delta) + log(1 / beta)) / eps
                * rational(LEMMA49_STABILITY_SCALE))
        k = 1
        while proved_lt(instability_distance(k, k), need):
            k += 1
        law = dict(distance_to_instability(eps, delta).distribution((1,) * k).items())
        bottom = _box(law.get(BOTTOM, F(0)))
        fits = at_most(bottom, beta)
        if fits is Verdict.VIOLATED:
            return CheckResult(fits, "P(⊥) above β",
                               f"ε={eps}, δ={delta}, β={beta}, K={k}: {decimal(bottom.lo, 4)}")
        if fits is Verdict.UNDECIDED:
            return CheckResult(fits, "undecided", f"K={k}")
    return CheckResult(Verdict.HOLDS, "continuous tail = β/2 on 9 points; discrete P(⊥) <= β on "
                       "3 instances")


# ================================================================== entries

_SVT: Final = ("reference.pate.svt_votes", "reference.pate.svt_pate")
_SV: Final = ("reference.sparse_vector.sparse_vector",)
_DTI: Final = ("reference.stability_release.distance_to_instability",)

ENTRIES: tuple[Entry, ...] = (
    Entry(
        paper="001", number="Theorem 2", step="release probability of an unstable query",
        statement=("001 Theorem 2's proof (L733–737), Algorithm 2: an unstable query (dist = 0) "
                   "passes with probability P(Lap(2λ) − Lap(λ) > w) = (4e^{−w/(2λ)} − "
                   "e^{−w/λ})/6 <= e^{−w/(3λ)} = δ/(2(ℓ + T)) at w = 3λ ln(2(ℓ + T)/δ); the "
                   "discrete analogue obeys the same bound."),
        kind=Kind.PROOF_STEP, status=Status.PROVED,
        parameter_range="every λ > 0 and w >= 0 (continuous); the grids for the discrete one",
        checks=(Check("closed form = piecewise derivation, and < e^{−w/(3λ)}",
                      check_release_probability),
                Check("discrete release < e^{−w/(3t)}", check_discrete_release_bound,
                      constant="RELEASE_DENOMINATOR")),
        notes=("Proof of the bound: with x = e^{−w/(6λ)} ∈ (0, 1], (4x³ − x⁶)/6 <= x² iff "
               "4x − x⁴ <= 6, true. The closed form is derived by conditioning on Y (see "
               "difference_tail_by_pieces)."),
        subjects=("reference.sparse_vector.continuous_release_probability",
                  "reference.sparse_vector.discrete_release_probability",
                  "reference.sparse_vector.paper_release_bound")),
    Entry(
        paper="001", number="Theorem 2", step="dist has sensitivity 1 and keeps the majority",
        statement=("001 Algorithm 2 step 6 (L190–211): dist = max{0, ⌈Δ/2⌉ − 1} has "
                   "sensitivity 1 in the vote count and the majority (ties to 1) is constant "
                   "within dist; dist is conservative (smaller than the true radius in 210 of "
                   "the (K, s) cases with K <= 40)."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exhaustive K <= 40", check_dist_stability),),
        subjects=("reference.stability_release.instability_distance",
                  "reference.stability_release.majority",
                  "reference.stability_release.stability_radius")),
    Entry(
        paper="001", number="Theorem 2", step="the proof swaps ⊥ and ⊤",
        statement=("001 Theorem 2's proof (L733) speaks of labels released where the screen "
                   "fails and of fewer than T '⊤'; Algorithm 2 releases labels where the screen "
                   "passes and outputs at most T ⊥'s."),
        kind=Kind.PROOF_STEP, status=Status.REFUTED,
        counterexample=("t = 1/2, w = 1, K = 3, ℓ = 3, T = 1: Algorithm 2 releases more than T "
                        "labels with positive probability."),
        corrected=("Labels are released where dist + Lap(2λ) > ŵ; at most T ⊥'s occur, the run "
                   "stopping at the T-th."),
        checks=(Check("printed reading: fewer than T labels", check_printed_roles,
                      Verdict.VIOLATED),
                Check("corrected reading: labels where the screen passes, <= T ⊥'s",
                      check_labels_where_screen_passes)),
        subjects=_SVT),
    Entry(
        paper="001", number="Theorem 2", step="union bound over ℓ + T variables is loose",
        statement=("001 Theorem 2's proof unions over 'ℓ + T Laplace variables'; only the ℓ "
                   "query comparisons can release an unstable label, so ℓ·P(Lap(2λ) − Lap(λ) > "
                   "w) already bounds the event; the printed bound is valid but loose."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("exact P(unstable label) <= ℓ·p < (ℓ + T)·p", check_union_bound),),
        subjects=_SVT),
    Entry(
        paper="001", number="Lemma 45",
        statement=("001 Lemma 45 (L1147–1149): Algorithm 6 (L1134–1145) is (ε, δ)-DP. As "
                   "printed (λ = √(32T ln(1/δ)/ε), refresh ŵ ← w + 1) it is not."),
        kind=Kind.LEMMA, status=Status.REFUTED,
        counterexample=("Algorithm 6 as printed, (ε, δ) = (1/100, 2⁻²⁰), T = 2, w = 0, eight "
                        "counting queries on one-bit datasets. With the paper's continuous "
                        "Laplace noise, the one transcript ⊥⊤⊤⊤⊤⊤⊤⊤ has P₁ − e^ε·P₀ ≈ 2.46·10⁻⁶ "
                        "> δ ≈ 9.5·10⁻⁷, so ε(2⁻²⁰) >= 0.0103862 (closed form, interval "
                        "arithmetic), and the exact audit over every output finds the same "
                        "worst case, ε(2⁻²⁰) = 0.0103862; with discrete Laplace noise the exact "
                        "audit's worst-case ε at δ is ≈ 0.01038 > 1/100."),
        corrected=("Dwork–Roth's algorithm: λ = √(32T ln(1/δ))/ε and the refresh ŵ ← w + "
                   "Lap(λ) after each ⊥; its exact audit holds with either noise (ε ≈ "
                   "4.1·10⁻⁴ on the same instance)."),
        checks=(Check("printed Algorithm 6: exact audit", check_printed_alg6, Verdict.VIOLATED),
                Check("printed Algorithm 6 with continuous Laplace noise: one event, exactly",
                      check_printed_alg6_continuous, Verdict.VIOLATED),
                Check("printed Algorithm 6 with continuous Laplace noise: exact audit",
                      check_printed_alg6_audit_continuous, Verdict.VIOLATED),
                Check("corrected Algorithm 6: exact audit", check_corrected_alg6,
                      constant="ALG6_CLAIM_SCALE"),
                Check("corrected Algorithm 6 with continuous Laplace noise: exact audit",
                      check_corrected_alg6_continuous, constant="ALG6_CLAIM_SCALE")),
        notes=("On this instance each printed change alone still passes (tests of "
               "reference.sparse_vector): the violation needs both. Without the refresh every "
               "query after the first ⊥ meets a fixed threshold and spends privacy of its own."),
        subjects=(*_SV, "reference.sparse_vector.svt_lambda")),
    Entry(
        paper="001", number="Lemma 45", step="loop guard while c <= T",
        statement=("001 Algorithm 6's loop guard 'while c <= T' (L1134–1145) halts only after "
                   "the (T + 1)-th ⊥, inconsistent with Algorithm 2's break at the T-th ⊥ and "
                   "with the T-fold accounting."),
        kind=Kind.PROOF_STEP, status=Status.REFUTED,
        counterexample=("Four zero-valued queries, w = 0, T = 1: an output with 2 ⊥'s has "
                        "positive probability."),
        corrected="Halt at the T-th ⊥ (c >= T), as Algorithm 2 and Dwork–Roth do.",
        checks=(Check("printed guard allows T + 1 ⊥'s", check_printed_loop_guard,
                      Verdict.VIOLATED),
                Check("T-th ⊥ halt: at most T ⊥'s", check_bottom_count_at_most_cutoff)),
        subjects=(*_SV, "reference.pate.svt_votes")),
    Entry(
        paper="001", number="Lemma 46",
        statement=("001 Lemma 46 (L1151–1153): for φ = ln(2mT/β)√(512T ln(1/δ))/ε and "
                   "|L(φ)| <= T, with probability >= 1 − β no query outside L(φ) = {i : q_i <= "
                   "w + φ} is answered ⊥ by Algorithm 6."),
        kind=Kind.LEMMA, status=Status.CHECKED,
        checks=(Check("exact discrete failure probabilities <= β", check_alg6_utility,
                      constant="LEMMA46_PHI_SCALE"),),
        notes=("Checked on the discrete corrected-refresh Algorithm 6 (scale t >= λ) at both λ's: "
               "the printed λ (ε under the root) is smaller than the corrected one for ε < 1, so "
               "it adds less noise and its utility is better; it is its privacy that fails "
               "(Lemma 45). Failure = a query outside L(φ) answered ⊥ (the Dwork–Roth accuracy "
               "notion); queries after the T-th ⊥ are not answered."),
        subjects=_SV),
    Entry(
        paper="001", number="Lemma 48",
        statement=("001 Lemma 48 (L1169–1171): with Γ = ln(1/δ)/ε and dist_f the largest k with "
                   "f k-stable, Algorithm 7 (L1159–1167) is (ε, δ)-DP; checked by exact audits "
                   "of its discrete-Laplace version on majority votes."),
        kind=Kind.LEMMA, status=Status.CHECKED,
        checks=(Check("exact audits of Algorithm 7", check_alg7_audits, constant="ALG7_CLAIM_SCALE"),),
        notes=("Attributed by 001 to Bassily et al. 2018b; the framework is Thakurta and Smith "
               "2013. The discrete accounting: dist moves by <= 1, so every output's probability "
               "moves by <= e^ε; when f(D) != f(D') both dists are 0 and the leak "
               "P(Z > ⌊Γ⌋) is < δ."),
        subjects=_DTI),
    Entry(
        paper="001", number="Lemma 48", step="argmax_k read as max k",
        statement=("001 Lemma 48 defines dist_f(D) = argmax_k (f(D) is k-stable); the indicator "
                   "is maximized by every k up to the radius, so it must read max k; Algorithm "
                   "2's dist is a sensitivity-1 lower bound of it."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("stable k's form {0..radius}; dist <= radius", check_max_k_reading),),
        subjects=("reference.stability_release.stability_radius",
                  "reference.stability_release.instability_distance")),
    Entry(
        paper="001", number="Lemma 48", step="noise is added to dist",
        statement=("001 Algorithm 7 Step 1 prints dist^ ← dist^_f(D) + Lap(1/ε); it means "
                   "dist_f(D) + Lap(1/ε), which is what the implementation's law shows."),
        kind=Kind.PROOF_STEP, status=Status.CHECKED,
        checks=(Check("release law = P(dist + Z > ⌊Γ⌋)", check_alg7_noise_on_dist),),
        subjects=_DTI),
    Entry(
        paper="001", number="Lemma 49",
        statement=("001 Lemma 49 (L1173–1175): if f(D) is ((ln(1/δ) + ln(1/β))/ε)-stable, "
                   "Algorithm 7 outputs f(D) with probability >= 1 − β, since P(Lap(1/ε) <= "
                   "−ln(1/β)/ε) = β/2."),
        kind=Kind.LEMMA, status=Status.PROVED,
        parameter_range="every ε > 0, δ, β ∈ (0, 1) (continuous); the grid (discrete)",
        checks=(Check("tail = β/2; discrete P(⊥) <= β", check_alg7_utility,
                      constant="LEMMA49_STABILITY_SCALE"),),
        notes=("Proof: dist >= Γ + ln(1/β)/ε, so P(dist + Z <= Γ) <= P(Z <= −ln(1/β)/ε) = "
               "½e^{−ln(1/β)} = β/2. Discrete: P(Z <= −k) = e^{−εk}/(1 + e^{−ε}) <= β for "
               "k >= ln(1/β)/ε."),
        subjects=_DTI),
)
