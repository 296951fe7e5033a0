"""Ledger: passive PATE-PSQ rates of paper 001: Theorems 5/27, 10, 19/31, 20/32, Remarks 6, 11, 12, 16, 29.

The rates are Õ statements (NOT_CHECKABLE); their deterministic steps are checked exactly:

* exponent algebra on monomials d^a·(nε)^b·m^c·α^e with Fraction exponents (Remarks 6, 11,
  12, 29, Theorem 10's T), equal terms at the optimal m, the factor-2 optimality decided by
  interval arithmetic on instances;
* the scalar inequality a + 2√(ab) + 4b <= 2a + 5b as 4ab <= (a + b)²;
* the 0-1 triangle inequality and the ERM chains on every label vector of small length
  (:func:`privref.reference.learners.pate_students.erm_student`);
* h^agg_inf and Vote_K(H) exactly (:mod:`privref.reference.learners.noise_conditions`);
* the joint law of Algorithm 2's release (:func:`privref.reference.pate.svt_votes`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Final

from privref.reference.concepts import ConceptClass, explicit, intervals, thresholds_on
from privref.reference.decide import equal, proved_le
from privref.reference.learners.noise_conditions import (
    NoisyProblem,
    best_in_class,
    disagreement,
    erm_teacher_law,
    error,
    infinite_ensemble,
    vote_class,
)
from privref.reference.learners.pate_students import erm_student
from privref.reference.pate import svt_votes
from privref.reference.program import distribution
from privref.reference.reals import Interval, Real, exp, log, rational
from privref.reference.vc import vc_dimension

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict

__all__ = [
    "ENTRIES",
    "Monomial",
    "check_agg_not_in_votes",
    "check_eq7_case_split",
    "check_erm_chain",
    "check_err_minus_dis",
    "check_intro_sample_complexity",
    "check_remark6",
    "check_remark11",
    "check_remark12",
    "check_remark29",
    "check_scalar_inequality",
    "check_svt_dependence",
    "check_theorem10_exponents",
    "check_thirteen",
    "check_triangle",
    "check_vote_vc",
    "example1",
]

F = Fraction
TRIANGLE_FACTOR = F(1)
"""001 Theorem 5: Dis^(a, c) <= Dis^(a, b) + Dis^(b, c) (leading 1)."""
THEOREM5_CONSTANT = 13
"""001 Theorem 5's 13 = 2·6 + 1 in 13·Err(h*)."""
REMARK6_AGNOSTIC_D_EXP = F(-1, 5)
"""001 Remark 6: the agnostic m* = d^{−1/5}(nε)^{4/5}, the exponent −1/5 of d."""
THEOREM10_B_COEFF = 5
"""001 Theorem 10: a + 2√(ab) + 4b <= 2a + 5b, the 5."""
ERR_DIS_FACTOR = F(1)
"""001 Eqs. (3), (9): Err(h) − Err(g) <= Dis(h, g) (leading 1)."""
ERM_CHAIN_COEFFICIENT = 2
"""001 Theorem 10: Dis^(ĥ^S, g) <= min_h Dis^(h, g) + 2·Dis^(z, g), the 2."""
_D_m3__2: Final = F(-3, 2)
Monomial = dict[str, Fraction]
"""A monomial Π v^e over variables (d, ne = nε, m, n, eps, alpha), coefficient 1."""
_TAUS: Final = (F(1, 4), F(1, 3), F(1, 2), F(2, 3), F(3, 4), F(1))


def _mul(*ms: Monomial) -> Monomial:
    out: Monomial = {}
    for m in ms:
        for v, e in m.items():
            out[v] = out.get(v, F(0)) + e
    return {v: e for v, e in out.items() if e != 0}


def _pow(m: Monomial, k: Fraction) -> Monomial:
    return {v: e * k for v, e in m.items() if e * k != 0}


def _sub(m: Monomial, var: str, value: Monomial) -> Monomial:
    """Substitute var := value."""
    rest = {v: e for v, e in m.items() if v != var}
    return _mul(rest, _pow(value, m.get(var, F(0))))


def _v(**exps: Fraction | int) -> Monomial:
    return {k: F(e) for k, e in exps.items() if e != 0}


def _eval(m: Monomial, values: dict[str, Fraction]) -> Real:
    out = rational(1)
    for v, e in m.items():
        out = out * (rational(values[v] ** int(e)) if e.denominator == 1 else
                     exp(log(values[v]) * e))
    return out


# ------------------------------------------------------------------ Theorem 5


def check_triangle(max_len: int = 6) -> CheckResult:
    """Dis^(a, c) <= scale·(Dis^(a, b) + Dis^(b, c)) on every triple of 0/1 vectors of length <= max_len
    (scale = :data:`TRIANGLE_FACTOR`)."""
    scale = TRIANGLE_FACTOR
    count = 0
    for m in range(1, max_len + 1):
        for a, b, c in itertools.product(range(1 << m), repeat=3):
            if (a ^ c).bit_count() > scale * ((a ^ b).bit_count() + (b ^ c).bit_count()):
                return CheckResult(Verdict.VIOLATED, "triangle fails", f"{a:b}, {b:b}, {c:b}")
            count += 1
    return CheckResult(Verdict.HOLDS, f"{count} triples of label vectors, exact")


EQ7_FACTOR = F(2)
"""001 Eq. (7): T <= 2A or T^{3/4} <= 2c', the 2."""


def check_eq7_case_split() -> CheckResult:
    """T <= A + c'T^{1/4} implies T <= factor·A or T^{3/4} <= factor·c', exact on a grid
    (factor = :data:`EQ7_FACTOR`).

    Eq. (6) has the form T <= A + c'·T^{1/4} (c' = Õ(m d^{1/2}/(nε)^{1/2})); fourth powers keep
    it rational: c'T^{1/4} >= T − A iff T <= A or c'^4·T >= (T − A)^4, and T^{3/4} <= 2c' iff
    T^3 <= (2c')^4, i.e. T <= (2c')^{4/3} as in Eq. (7).
    """
    factor = EQ7_FACTOR
    grid = (F(1, 3), F(1), F(2), F(4), F(8), F(27, 2), F(100))
    cases = 0
    for A, c, T in itertools.product(grid, grid, (F(k ** 4) for k in range(1, 7))):
        if not (T <= A or c ** 4 * T >= (T - A) ** 4):
            continue
        cases += 1
        if not (factor * A >= T or (factor * c) ** 4 >= T ** 3):
            return CheckResult(Verdict.VIOLATED, "case split fails", f"A={A}, c'={c}, T={T}")
    return CheckResult(Verdict.HOLDS, f"{cases} (A, c', T) satisfying Eq. (6)'s form, exact")


def check_thirteen() -> CheckResult:
    """Err <= 2T/m + Err(h*) with T <= 6m Err(h*) gives 2·6 + 1 = constant
    (:data:`THEOREM5_CONSTANT`); vacuous iff Err(h*) > 1/26."""
    constant = THEOREM5_CONSTANT
    if constant != 2 * 6 + 1:
        return CheckResult(Verdict.VIOLATED, "constant mismatch", f"2·6 + 1 = 13 != {constant}")
    for k in range(1, 200):
        e = F(k, 1000)
        if (constant * e > F(1, 2)) != (e > F(1, 26)):
            return CheckResult(Verdict.VIOLATED, "vacuity threshold", f"Err(h*)={e}")
    return CheckResult(Verdict.HOLDS, "2·6 + 1 = 13; 13·Err(h*) > 1/2 iff Err(h*) > 1/26 "
                       "(199 grid values)")


# ------------------------------------------------------------------ balancing m (Remarks)


def _balance(t1: Monomial, t2: Monomial, m_star: Monomial, value: Monomial) -> str | None:
    a, b = _sub(t1, "m", m_star), _sub(t2, "m", m_star)
    if a != b or a != value:
        return f"at m*: {a} vs {b}, expected {value}"
    return None


def _factor_two(t1: Monomial, t2: Monomial, m_star: Monomial, values: dict[str, Fraction]
                ) -> str | None:
    """f(m*) <= 2 f(m) on m = m*·2^j, j = −3..3, decided with intervals (Undecided if not)."""
    base = _eval(m_star, values)

    def f(mm: Real) -> Real:
        return (_eval({k: e for k, e in t1.items() if k != "m"}, values) * _mpow(mm, t1["m"])
                + _eval({k: e for k, e in t2.items() if k != "m"}, values) * _mpow(mm, t2["m"]))

    for j in range(-3, 4):
        m_j = base * rational(F(2) ** j)
        if not proved_le(f(base), f(m_j) * 2):
            return f"j={j}"
    return None


def _mpow(x: Real, e: Fraction) -> Real:
    return exp(log(x) * e)


def check_remark6() -> CheckResult:
    """Remark 6: realizable m* = (nε)^{4/3}/d gives d/(nε)^{2/3}; agnostic m* = d^{−1/5}(nε)^{4/5}
    gives d^{3/5}/(nε)^{2/5}; both terms equal at m*, and f(m*) <= 2 f(m) on instances
    (d's exponent in m*: :data:`REMARK6_AGNOSTIC_D_EXP`)."""
    agnostic_exp = REMARK6_AGNOSTIC_D_EXP
    real = (_v(d=2, ne=-2, m=1), _v(d=F(1, 2), m=F(-1, 2)), _v(ne=F(4, 3), d=-1),
            _v(d=1, ne=F(-2, 3)))
    agn = (_v(m=F(1, 3), d=F(2, 3), ne=F(-2, 3)), _v(d=F(1, 2), m=F(-1, 2)),
           _v(d=agnostic_exp, ne=F(4, 5)), _v(d=F(3, 5), ne=F(-2, 5)))
    for t1, t2, ms, val in (real, agn):
        problem = _balance(t1, t2, ms, val)
        if problem is None:
            problem = _factor_two(t1, t2, ms, {"d": F(3), "ne": F(1000)})
        if problem is not None:
            return CheckResult(Verdict.VIOLATED, "balance fails", problem)
    return CheckResult(Verdict.HOLDS, "terms equal at m* (exact exponents) with the stated "
                       "values; f(m*) <= 2 f(m) at d = 3, nε = 1000, m = m*·2^j")


def check_theorem10_exponents(t_exp: Callable[[Fraction], Fraction] = lambda t: 2 / (4 - 3 * t)
                              ) -> CheckResult:
    """T = (m^{2−τ}d^τ/(nε)^τ)^{2/(4−3τ)} solves T = m(d√T/(nε))^{τ/(2−τ)}; T/m = (md²/(nε)²)^{τ/(4−3τ)}."""
    for tau in _TAUS:
        T = _pow(_v(m=2 - tau, d=tau, ne=-tau), t_exp(tau))
        rhs = _mul(_v(m=1), _pow(_mul(_v(d=1, ne=-1), _pow(T, F(1, 2))), tau / (2 - tau)))
        ratio = _pow(_v(m=1, d=2, ne=-2), tau / (4 - 3 * tau))
        if rhs != T or _mul(T, _v(m=-1)) != ratio:
            return CheckResult(Verdict.VIOLATED, "exponent mismatch", f"τ={tau}: T={T}, rhs={rhs}")
    return CheckResult(Verdict.HOLDS, f"exact exponents for τ in {', '.join(map(str, _TAUS))}")


def check_scalar_inequality() -> CheckResult:
    """a + 2√(ab) + 4b <= 2a + c·b for a, b >= 0 (via 4ab <= (a + (c−4)b)²),
    c = :data:`THEOREM10_B_COEFF`."""
    b_coefficient = THEOREM10_B_COEFF
    grid = [F(0), F(1, 7), F(1, 2), F(1), F(3), F(10), F(1000)]
    for a, b in itertools.product(grid, repeat=2):
        rest = a + (b_coefficient - 4) * b
        if rest < 0 or 4 * a * b > rest * rest:
            return CheckResult(Verdict.VIOLATED, "inequality fails", f"a={a}, b={b}")
    return CheckResult(Verdict.HOLDS, f"{len(grid) ** 2} (a, b) pairs, exact; equality at a = b")


def _problems(seed: int = 1001, count: int = 40) -> list[NoisyProblem]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        k = rng.randint(1, 5)
        w = [rng.randint(1, 5) for _ in range(k)]
        out.append(NoisyProblem.of(range(k), (F(x, sum(w)) for x in w),
                                   (F(rng.randint(0, 10), 10) for _ in range(k))))
    return out


def check_err_minus_dis() -> CheckResult:
    """Err(h) − Err(g) <= scale·Dis(h, g) for every pair of labelings, exact (Eqs. (3), (9)),
    scale = :data:`ERR_DIS_FACTOR`."""
    scale = ERR_DIS_FACTOR
    count = 0
    for P in _problems():
        for h, g in itertools.product(range(1 << P.size), repeat=2):
            if error(P, h) - error(P, g) > scale * disagreement(P, h, g):
                return CheckResult(Verdict.VIOLATED, "Err difference > Dis", f"{P}, {h:b}, {g:b}")
            count += 1
    return CheckResult(Verdict.HOLDS, f"{count} labeling pairs on 40 seeded problems")


def check_erm_chain(cls: str = "thresholds") -> CheckResult:
    """ERM student ĥ^S on pseudo-labels z: Dis^(ĥ^S, g) <= min_{h∈H} Dis^(h, g) + coefficient·Dis^(z, g).

    Every pseudo-label vector z and every target vector g on 6 public points (two repeated);
    g ∈ H gives Theorem 10's Dis^(ĥ^S, h*) <= 2 Dis^(ĥ^priv, h*).  ``cls`` is "thresholds",
    "intervals" or "vote3" (Vote_3 of thresholds on 4 points: Theorem 20's student);
    coefficient = :data:`ERM_CHAIN_COEFFICIENT`.
    """
    coefficient = ERM_CHAIN_COEFFICIENT
    H: ConceptClass = {"thresholds": thresholds_on(4), "intervals": intervals(4),
                       "vote3": vote_class(explicit(range(4), [(1, 1, 0, 0), (1, 0, 1, 0),
                                                               (1, 0, 0, 1)]), 3)}[cls]
    points = (0, 1, 2, 3, 1, 2)
    count = 0
    for z in itertools.product((0, 1), repeat=len(points)):
        hs = erm_student(H, points, z)
        for g in itertools.product((0, 1), repeat=len(points)):
            def dis(u: tuple[int, ...], v: tuple[int, ...] = g) -> int:
                return sum(a != b for a, b in zip(u, v, strict=True))
            best = min(dis(tuple(h(x) for x in points)) for h in H)
            if dis(tuple(hs(x) for x in points)) > best + coefficient * dis(z):
                return CheckResult(Verdict.VIOLATED, "chain fails", f"z={z}, g={g}")
            count += 1
    return CheckResult(Verdict.HOLDS, f"{count} (z, g) pairs on {H.name}, exact")


def check_remark11() -> CheckResult:
    """τ = 1: n = d^{3/2}/(αε), m = d/α make d²m/(nε)² = α and d/m = α; K = √T/ε = md/(nε²)."""
    n = _v(d=F(3, 2), alpha=-1, eps=-1)
    m = _v(d=1, alpha=-1)
    first = _mul(_v(d=2), m, _pow(_mul(n, _v(eps=1)), F(-2)))
    T = _mul(_pow(m, F(2)), _v(d=2), _pow(_mul(n, _v(eps=1)), F(-2)))
    K = _mul(_pow(T, F(1, 2)), _v(eps=-1))
    if first != _v(alpha=1) or _mul(_v(d=1), _pow(m, F(-1))) != _v(alpha=1) or _mul(
            m, _v(d=1), _pow(n, F(-1)), _v(eps=-2)) != K:
        return CheckResult(Verdict.VIOLATED, "algebra fails", f"{first}, {T}, {K}")
    return CheckResult(Verdict.HOLDS, "both terms equal α at n = d^{3/2}/(αε), m = d/α; "
                       "K = md/(nε²), exact exponents")


def check_remark12(m_exp: Callable[[Fraction], Fraction] = lambda t: 1 / (4 - 2 * t)
                   ) -> CheckResult:
    """m* = (d^{4−5τ}(nε)^{2τ})^{1/(4−2τ)} equalizes d/m and (md²/(nε)²)^{τ/(4−3τ)}.

    The common value is (d^{3/2}/(nε))^{τ/(2−τ)}.
    """
    for tau in _TAUS:
        m_star = _pow(_v(d=4 - 5 * tau, ne=2 * tau), m_exp(tau))
        problem = _balance(_pow(_v(m=1, d=2, ne=-2), tau / (4 - 3 * tau)), _v(d=1, m=-1), m_star,
                           _pow(_v(d=F(3, 2), ne=-1), tau / (2 - tau)))
        if problem is not None:
            return CheckResult(Verdict.VIOLATED, "balance fails", f"τ={tau}: {problem}")
    problem = _factor_two(_pow(_v(m=1, d=2, ne=-2), F(1, 5)), _v(d=1, m=-1),
                          _pow(_v(d=F(3, 2), ne=F(1)), F(1, 3)), {"d": F(2), "ne": F(500)})
    if problem is not None:
        return CheckResult(Verdict.VIOLATED, "factor 2 fails", problem)
    return CheckResult(Verdict.HOLDS, "terms equal at m* for τ in "
                       f"{', '.join(map(str, _TAUS))}; f(m*) <= 2 f(m) at τ = 1/2")


def check_remark29(value_exp: Callable[[Fraction], Fraction] = lambda t: 2 * t / (4 - t)
                   ) -> CheckResult:
    """d/m = (d√m/(nε))^{τ/(2−τ)} at m = d^{2(2−2τ)/(4−τ)}(nε)^{2τ/(4−τ)}; value (d^{3/2}/(nε))^{2τ/(4−τ)}."""
    for tau in _TAUS:
        m_star = _v(d=2 * (2 - 2 * tau) / (4 - tau), ne=2 * tau / (4 - tau))
        problem = _balance(_v(d=1, m=-1), _pow(_v(d=1, m=F(1, 2), ne=-1), tau / (2 - tau)),
                           m_star, _pow(_v(d=F(3, 2), ne=-1), value_exp(tau)))
        if problem is not None:
            return CheckResult(Verdict.VIOLATED, "balance fails", f"τ={tau}: {problem}")
    return CheckResult(Verdict.HOLDS, "exact exponents; at τ = 1 the value is d/(nε)^{2/3}")


def check_intro_sample_complexity(alpha_exp: Fraction = _D_m3__2) -> CheckResult:
    """Realizable Gaussian PATE: d/(nε)^{2/3} = α at n = d^{3/2}α^{alpha_exp}/ε (α^{−3/2}, not α^{−1})."""
    n = _v(d=F(3, 2), alpha=alpha_exp, eps=-1)
    rate = _mul(_v(d=1), _pow(_mul(n, _v(eps=1)), F(-2, 3)))
    if rate != _v(alpha=1):
        return CheckResult(Verdict.VIOLATED, "the sample size does not give error α",
                           f"n = d^(3/2)·α^({alpha_exp})/ε gives error {rate}")
    return CheckResult(Verdict.HOLDS, "n = d^{3/2}/(α^{3/2}ε) gives error exactly α")


# ------------------------------------------------------------------ Remark 16, Theorems 19/20


def _svt_law() -> list[tuple[tuple[int | str, ...], Interval]]:
    law = distribution(svt_votes, (3, 1), 4, F(1), 1, 2)
    return [(o, p if isinstance(p, Interval) else Interval.point(p)) for o, p in law.items()]


def check_svt_dependence(law: Callable[[], list[tuple[tuple[int | str, ...], Interval]]]
                         = _svt_law) -> CheckResult:
    """Algorithm 2 on two queries (votes 3, 1 of K = 4): the joint law is not the product of marginals.

    ``law`` gives (outcome, probability interval) pairs; a product law must fail.
    """
    items = law()
    for o, p in items:
        if len(o) != 2:
            continue
        first = sum((q for oo, q in items if oo[0] == o[0]), Interval.point(F(0)))
        second = sum((q for oo, q in items if len(oo) == 2 and oo[1] == o[1]),
                     Interval.point(F(0)))
        prod = first * second
        if equal(p, prod) is Verdict.VIOLATED:  # disjoint enclosures: proved unequal
            return CheckResult(Verdict.HOLDS, f"P{o} ∈ {p} but the product of marginals is in "
                               f"{prod}: dependent entries")
    return CheckResult(Verdict.VIOLATED, "no dependence decided", str(items))


def example1() -> tuple[NoisyProblem, ConceptClass]:
    """001 Example 1: uniform x on 4 points, y ≡ 1, H = {1100, 1010, 1001}."""
    return (NoisyProblem.of(range(4), (F(1, 4),) * 4, (1, 1, 1, 1)),
            explicit(range(4), [(1, 1, 0, 0), (1, 0, 1, 0), (1, 0, 0, 1)], name="EX1"))


def check_agg_exact(n: int = 1) -> CheckResult:
    """Example 1, n = 1: ERM picks 1100 w.p. 1/2 (x1 ties, x2), 1010 and 1001 w.p. 1/4: h^agg_inf = 1100."""
    P, H = example1()
    law = erm_teacher_law(P, H, n)
    expected = {0b0011: F(1, 2), 0b0101: F(1, 4), 0b1001: F(1, 4)}
    if law != expected or infinite_ensemble(P, H, n) != 0b0011:
        return CheckResult(Verdict.VIOLATED, "law differs from the hand computation",
                           f"n={n}: {law}")
    return CheckResult(Verdict.HOLDS, "exact law {1100: 1/2, 1010: 1/4, 1001: 1/4}; "
                       "h^agg_inf = 1100 = h* (first minimizer)")


def check_agg_not_in_votes(n: int = 4, ks: tuple[int, ...] = (1, 2, 4)) -> CheckResult:
    """VIOLATED: h^agg_inf ∈ Vote_K(H): Example 1 with 4 samples per teacher gives 1000 ∉ Vote_K(H)."""
    P, H = example1()
    agg = infinite_ensemble(P, H, n)
    missing = [K for K in ks if agg not in vote_class(H, K).masks]
    if missing:
        return CheckResult(Verdict.VIOLATED, "h^agg_inf is not a K-vote of H",
                           f"Example 1, n/K = {n}: h^agg_inf = "
                           f"{''.join(str(agg >> i & 1) for i in range(4))} ∉ Vote_K(H) for K = "
                           f"{missing}; Dis(h*, h^agg_inf) = "
                           f"{disagreement(P, best_in_class(P, H).mask, agg)}")
    return CheckResult(Verdict.HOLDS, f"h^agg_inf ∈ Vote_K(H) for K in {ks}")


def check_vote_vc(per_vote: Callable[[int, int], int] = lambda K, d: K * d) -> CheckResult:
    """VC(Vote_K(H)) <= per_vote(K, d) (paper: Kd), exact, on thresholds, intervals and seeded classes."""
    rng = random.Random(2020)
    classes = [thresholds_on(5), intervals(4), intervals(5)]
    for _ in range(30):
        masks = sorted({rng.getrandbits(5) for _ in range(rng.randint(3, 6))})
        classes.append(explicit(range(5), [tuple(m >> i & 1 for i in range(5)) for m in masks]))
    count = 0
    for H in classes:
        d = vc_dimension(H)
        for K in (2, 3):
            v = vc_dimension(vote_class(H, K))
            if v > per_vote(K, d):
                return CheckResult(Verdict.VIOLATED, "VC(Vote_K(H)) exceeds the bound",
                                   f"{H.name}: d={d}, K={K}, VC={v}")
            count += 1
    return CheckResult(Verdict.HOLDS, f"{count} (class, K) pairs with VC(Vote_K(H)) <= Kd")


# ------------------------------------------------------------------ entries

_TRI: Final = Check("all label-vector triples, length <= 6", check_triangle,
                    constant="TRIANGLE_FACTOR")
_EQ7: Final = Check("Eq. (7) case split on a rational grid", check_eq7_case_split,
                    constant="EQ7_FACTOR")
_13: Final = Check("2·6 + 1 = 13 and the 1/26 threshold", check_thirteen,
                   constant="THEOREM5_CONSTANT")
_T10: Final = Check("T and T/m exponents, τ grid", check_theorem10_exponents)
_SCALAR: Final = Check("a + 2√(ab) + 4b <= 2a + 5b, exact grid", check_scalar_inequality,
                       constant="THEOREM10_B_COEFF")
_ERRDIS: Final = Check("Err(h) − Err(g) <= Dis(h, g), all labelings", check_err_minus_dis,
                       constant="ERR_DIS_FACTOR")
_CHAIN: Final = Check("ERM chain on thresholds, every (z, g)", check_erm_chain,
                      constant="ERM_CHAIN_COEFFICIENT")
_CHAIN_VOTE: Final = Check("ERM chain on Vote_3(H) of Example 1, every (z, g)",
                           lambda: check_erm_chain("vote3"), constant="ERM_CHAIN_COEFFICIENT")
_AGG: Final = Check("Example 1, n = 1: exact law and h^agg_inf", check_agg_exact)
_NC: Final = "reference.learners.noise_conditions"
_THM5_STATEMENT: Final = (
    "L246–263 / L741–823: with T = 3(E[Err(ĥ_1)]m + √(m log(m/β)/2)) and K = "
    "O(log(mT/min(δ, β))√(T log(1/δ))/ε), PATE-PSQ with SVT aggregation has, w.p. >= 1 − β, "
    "Err(ĥ^S) <= Õ(d²m log(1/δ)/(n²ε²) + √(d/m)) (realizable) and 13 Err(h*) + "
    "Õ(m^{1/3}d^{2/3}/(n^{2/3}ε^{2/3}) + √(d/m)) (agnostic).")
_THM5_COMMON: Final[dict[str, object]] = dict(
    kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
    reason="Õ bounds with unstated constants and log factors.",
    illustration=("The deterministic chain: 0-1 triangle inequality, Eq. (7)'s case split, "
                  "2·6 + 1 = 13."),
    checks=(_TRI, _EQ7, _13),
    notes=("Proof gaps: the Hoeffding bound on each teacher's mistakes is union-bounded over "
           "the K teachers, so log(K/β) (not log(m/β)) is needed; it uses E[Err(ĥ_1)] although "
           "Err(ĥ_k) is random (condition on the teachers' data or bound Err(ĥ_k) w.h.p.), and "
           "T then needs the unknown E[Err(ĥ_1)]. The agnostic bound is vacuous once Err(h*) > "
           "1/26."),
    subjects=("reference.learners.pate_students.erm_student", "reference.pate.svt_votes"))
_THM19_STATEMENT: Final = (
    "L509–515 / L918–939: under the (ν, ξ) high-margin condition (Definition 17 read as "
    "P[Δ(x) <= ξ] <= ν), with K, T of Proposition 18 and ε <= log(2/δ), w.p. >= 1 − 2γ: "
    "Err(ĥ^S) − Err(h^agg_inf) <= min_{h∈H} Dis(h, h^agg_inf) + 2T/m + Õ(√(d/m)).")
_THM20_STATEMENT: Final = (
    "L518–521 / L941–964: with the student ERM over Vote_K(H), Err(ĥ^S) − Err(h^agg_inf) <= "
    "4T/m + 5(Kd + log(4/γ))/m = Õ(ν + log(4/γ)/m + d√ν/(ξ√m)) w.p. >= 1 − 2γ.")
_THM20_COMMON: Final[dict[str, object]] = dict(
    kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
    reason=("Õ bound; it rests on two unproved claims (h^agg_inf ∈ Vote_K(H), refuted in a "
            "step, and VC(Vote_K(H)) <= Kd, not decidable in general)."),
    illustration="The Eq. (10) chain for a Vote_3 student and the scalar inequality, exact.",
    checks=(_CHAIN_VOTE, _SCALAR),
    notes=("The final Õ drops the 1/ε and √log(1/δ) carried by K ∝ λ/ξ. The standard bound "
           "is VC(Vote_K(H)) = O(Kd log K)."),
    subjects=(f"{_NC}.vote_class", f"{_NC}.infinite_ensemble"))


def _entry(number: str, statement: str, common: dict[str, object]) -> Entry:
    return Entry(paper="001", number=number, statement=statement, **common)  # type: ignore[arg-type]


ENTRIES: Final[tuple[Entry, ...]] = (
    _entry("Theorem 5", _THM5_STATEMENT, _THM5_COMMON),
    Entry(paper="001", number="Theorem 5", step="0-1 triangle inequality for Dis^",
          statement="Dis^(a, c) <= Dis^(a, b) + Dis^(b, c) for label vectors (Eq. (5)).",
          kind=Kind.PROOF_STEP, status=Status.CHECKED, checks=(_TRI,),
          subjects=("reference.learners.pate_students.erm_student",)),
    Entry(paper="001", number="Theorem 5", step="Eq. (7) case split",
          statement=("Eqs. (6)–(7): T <= A + c'T^{1/4} implies T <= 2A (if A >= T/2) or else "
                     "T^{3/4} <= 2c', i.e. T <= (2c')^{4/3}; so T <= 2A + (2c')^{4/3}."),
          kind=Kind.PROOF_STEP, status=Status.CHECKED, checks=(_EQ7,),
          subjects=("reference.pate.svt_votes",)),
    Entry(paper="001", number="Theorem 5", step="constant 13 and vacuity above 1/26",
          statement=("Err(ĥ^S) <= 2T/m + Err(h*) + … with T <= 6m Err(h*) + … gives 13 Err(h*); "
                      "the bound exceeds 1/2 iff Err(h*) > 1/26 (§4.1)."),
          kind=Kind.PROOF_STEP, status=Status.CHECKED, checks=(_13,),
          subjects=("reference.learners.pate_students.erm_student",)),
    _entry("Theorem 27", "Restates Theorem 5 (appendix, L741–823); shares its checks. "
           + _THM5_STATEMENT, _THM5_COMMON),
    Entry(paper="001", number="Remark 6",
          statement=("L265–267: optimizing m in Theorem 5 gives Õ(d/(nε)^{2/3}) (realizable, m* = "
                     "(nε)^{4/3}/d) and O(Err(h*)) + Õ(d^{3/5}/(nε)^{2/5}) (agnostic, m* = "
                     "d^{−1/5}(nε)^{4/5}); m* is optimal within a factor 2."),
          kind=Kind.REMARK, status=Status.CHECKED,
          checks=(Check("exact exponents and factor 2 on instances", check_remark6,
                        constant="REMARK6_AGNOSTIC_D_EXP"),),
          notes=("Factor 2 in general: one term increases and the other decreases in m, so "
                 "f(m) >= max(t1, t2)(m) >= the common value at m*, and f(m*) = 2·that value."),
          subjects=("reference.learners.pate_students.erm_student",)),
    Entry(paper="001", number="Theorem 10",
          statement=("L342–350: under TNC(τ) with h* = h_Bayes ∈ H, T = Õ((m^{2−τ}d^τ/(nε)^τ)"
                     "^{2/(4−3τ)}) and K as in Theorem 5, PATE-PSQ (SVT) has Err(ĥ^S) <= "
                     "Err(h*) + Õ(d/m + (md²/(nε)²)^{τ/(4−3τ)}) w.p. >= 1 − β."),
          kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
          reason="Õ bound; constants of Lemmas 13, 36 and 3 are hidden.",
          illustration=("Exponents of T and T/m, the scalar step of Eq. (3), Err − Err* <= Dis "
                        "on every labeling, and the ERM step Dis^(ĥ^S, h*) <= 2Dis^(ĥ^priv, h*)."),
          checks=(_T10, _SCALAR, _ERRDIS, _CHAIN),
          notes=("Eq. (3)'s Lemma 36 step carries the paper's d + log(4/γ) (the textbook term is "
                 "log S_H(2m)); the Massart instance of the Lemma 9 / 13 entries gives exact "
                 "τ = 1, η = 5 and Err(h*) = 2/5."),
          subjects=("reference.learners.pate_students.erm_student", f"{_NC}.error")),
    Entry(paper="001", number="Theorem 10", step="T ≈ m(d√T/(nε))^{τ/(2−τ)} exponents",
          statement=("T = (m^{2−τ}d^τ/(nε)^τ)^{2/(4−3τ)} solves T = m(d√T/(nε))^{τ/(2−τ)} and "
                     "T/m = (md²/(nε)²)^{τ/(4−3τ)}."),
          kind=Kind.PROOF_STEP, status=Status.CHECKED, checks=(_T10,),
          subjects=("reference.pate.svt_votes",)),
    Entry(paper="001", number="Theorem 10", step="a + 2√(ab) + 4b <= 2a + 5b",
          statement="Eq. (3)'s last step: a + 2√(ab) + 4b <= 2a + 5b for a, b >= 0.",
          kind=Kind.PROOF_STEP, status=Status.PROVED, checks=(_SCALAR,),
          parameter_range="a, b >= 0",
          notes="2√(ab) <= a + b (AM–GM, i.e. (√a − √b)² >= 0); equality iff a = b.",
          subjects=("reference.learners.pate_students.erm_student",)),
    Entry(paper="001", number="Theorem 10", step="Eq. (3) chain on exact instances",
          statement=("Err(h) − Err(h*) <= Dis(h, h*) and, for the ERM student with h* ∈ H, "
                     "Dis^(ĥ^S, h*) <= 2 Dis^(ĥ^priv, h*) (so 2·2 = 4 in Eq. (3))."),
          kind=Kind.PROOF_STEP, status=Status.CHECKED, checks=(_ERRDIS, _CHAIN),
          subjects=("reference.learners.pate_students.erm_student", f"{_NC}.disagreement")),
    Entry(paper="001", number="Remark 11",
          statement=("L352–354: at τ = 1 the excess is Õ(d²m/(nε)² + d/m) with K = Õ(dm/(nε²)); "
                     "n = Õ(d^{3/2}/(αε)) private and m = Õ(d/α) public points suffice."),
          kind=Kind.REMARK, status=Status.CHECKED,
          checks=(Check("exact exponents", check_remark11),),
          subjects=("reference.pate.svt_votes",)),
    Entry(paper="001", number="Remark 12",
          statement=("L356–358: Theorem 10's bound is minimized at m* = (d^{4−5τ}n^{2τ}ε^{2τ})"
                     "^{1/(4−2τ)}, where d/m* = (d^{3/2}/(nε))^{τ/(2−τ)} (Table 1, column S)."),
          kind=Kind.REMARK, status=Status.CHECKED,
          checks=(Check("exact exponents and factor 2 at τ = 1/2", check_remark12),),
          subjects=("reference.pate.svt_votes",)),
    Entry(paper="001", number="Remark 16",
          statement=("L426–428: with Algorithm 2 the released vector ĥ^priv has dependent "
                     "entries, so the student is analysed as ERM with uniform convergence."),
          kind=Kind.REMARK, status=Status.NOT_CHECKABLE,
          reason="A methodological remark; nothing is claimed beyond the dependence.",
          illustration=("Exact (interval) joint law of Algorithm 2 on two queries: not the "
                        "product of its marginals."),
          checks=(Check("svt_votes, votes (3, 1), K = 4, scale 1, w = 1, T = 2",
                        check_svt_dependence),),
          subjects=("reference.pate.svt_votes", "reference.learners.pate_students.erm_student")),
    _entry("Theorem 19", _THM19_STATEMENT, dict(
        kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
        reason="Õ(√(d/m)) from uniform convergence; the second form needs T ≈ νm.",
        illustration="The Eq. (9) chain on vectors and h^agg_inf exactly on Example 1.",
        checks=(_ERRDIS, _CHAIN, _AGG),
        subjects=(f"{_NC}.infinite_ensemble", "reference.learners.pate_students.erm_student"))),
    Entry(paper="001", number="Theorem 19", step="Eq. (9) chain on label vectors",
          statement=("Err(ĥ^S) − Err(h^agg_inf) <= Dis(ĥ^S, h^agg_inf), and Dis^(ĥ^S, g) <= "
                     "min_h Dis^(h, g) + 2 Dis^(ĥ^priv, g) for the ERM student and any g."),
          kind=Kind.PROOF_STEP, status=Status.CHECKED,
          checks=(_ERRDIS, _CHAIN, Check("ERM chain on intervals", lambda: check_erm_chain(
              "intervals"), constant="ERM_CHAIN_COEFFICIENT")),
          subjects=("reference.learners.pate_students.erm_student",)),
    Entry(paper="001", number="Theorem 19", step="h^agg_inf computed exactly",
          statement=("h^agg_inf(x) = 1(E[ĥ_1(x)] >= 1/2) over ERM teachers on n samples (L458), "
                     "by exact enumeration."),
          kind=Kind.PROOF_STEP, status=Status.CHECKED, checks=(_AGG,),
          subjects=(f"{_NC}.infinite_ensemble", f"{_NC}.erm_teacher_law")),
    _entry("Theorem 31", "Restates Theorem 19 (appendix); shares its checks. "
           + _THM19_STATEMENT, dict(
               kind=Kind.THEOREM, status=Status.NOT_CHECKABLE,
               reason="Õ(√(d/m)) from uniform convergence; the second form needs T ≈ νm.",
               illustration="The Eq. (9) chain on vectors and h^agg_inf exactly on Example 1.",
               checks=(_ERRDIS, _CHAIN, _AGG),
               subjects=(f"{_NC}.infinite_ensemble",))),
    _entry("Theorem 20", _THM20_STATEMENT, _THM20_COMMON),
    Entry(paper="001", number="Theorem 20", step="h^agg_inf ∈ Vote_K(H)",
          statement=("Eq. (10) uses Dis^(h̃, h^agg_inf) = 0 because h^agg_inf ∈ Vote_K(H)."),
          kind=Kind.PROOF_STEP, status=Status.REFUTED,
          counterexample=("Example 1 (y ≡ 1, H = {1100, 1010, 1001}) with ERM teachers on 4 "
                          "samples: h^agg_inf = 1000, which is not a majority vote (ties to 1) of "
                          "K = 1, 2 or 4 members of H."),
          corrected=("Add the approximation term: Dis^(ĥ^S, h^agg_inf) <= min_{g ∈ Vote_K(H)} "
                     "Dis^(g, h^agg_inf) + 2 Dis^(ĥ^priv, h^agg_inf), as for Theorem 19."),
          checks=(Check("Example 1, n/K = 4, K ∈ {1, 2, 4}", check_agg_not_in_votes,
                        expect=Verdict.VIOLATED), _CHAIN_VOTE),
          subjects=(f"{_NC}.vote_class", f"{_NC}.infinite_ensemble")),
    Entry(paper="001", number="Theorem 20", step="VC(Vote_K(H)) <= Kd",
          statement="Eq. (10) applies Lemma 36 to Vote_K(H) with VC dimension Kd.",
          kind=Kind.PROOF_STEP, status=Status.NOT_CHECKABLE,
          reason=("A claim over all classes; the known general bound is O(Kd log K) and "
                  "lower bounds of order Kd log K need classes far beyond exact enumeration."),
          illustration=("Exact VC(Vote_K(H)) <= Kd for K = 2, 3 on thresholds, intervals and "
                        "30 seeded classes on 5 points (no counterexample found)."),
          checks=(Check("exact VC of vote classes", check_vote_vc),),
          notes=("Also searched (not in the ledger): 626,068 random (class, K) pairs, classes "
                 "of VC dimension 1–2 on 5–7 points, K = 2, 3: max VC(Vote_K(H)) = Kd, never "
                 "above. Correction if needed: VC(Vote_K(H)) <= 2Kd log2(3K)."),
          subjects=(f"{_NC}.vote_class", "reference.vc.vc_dimension")),
    _entry("Theorem 32", "Restates Theorem 20 (appendix); shares its checks. "
           + _THM20_STATEMENT, _THM20_COMMON),
    Entry(paper="001", number="Remark 29",
          statement=("L881–883: for Gaussian PATE, balancing d/m against (d√m/(nε))^{τ/(2−τ)} "
                     "gives Õ((d^{3/2}/(nε))^{2τ/(4−τ)}), i.e. d/(nε)^{2/3} at τ = 1."),
          kind=Kind.REMARK, status=Status.CHECKED,
          checks=(Check("exact exponents, τ grid", check_remark29),),
          subjects=("reference.pate.gaussian_votes",)),
    Entry(paper="001", number="Remark 29", step="introduction's Õ(d^{3/2}/(αε))",
          statement=("Introduction (L55): Gaussian PATE's realizable private sample complexity "
                     "is Õ(d^{3/2}/(αε))."),
          kind=Kind.PROOF_STEP, status=Status.REFUTED,
          counterexample="n = d^{3/2}/(αε) in d/(nε)^{2/3} gives error α^{2/3}, not α.",
          corrected="n = Õ(d^{3/2}/(α^{3/2}ε)), matching Bassily et al.",
          checks=(Check("printed exponent α^{−1}", lambda: check_intro_sample_complexity(F(-1)),
                        expect=Verdict.VIOLATED),
                  Check("corrected exponent α^{−3/2}", check_intro_sample_complexity)),
          subjects=("reference.pate.gaussian_votes",)),
)
