"""Ledger: the folklore results certified accounting rests on, checked against exact audits.

* PLD composition (Sommer, Meiser & Mohammadi 2019; tight for products of tight pairs, Zhu, Dong &
  Wang 2022 Theorem 10): the certified PLDs of :mod:`privref.reference.pld`, self-composed k
  times, must enclose the exact privacy profile that the exact auditor computes on the k-fold
  composed mechanism (:func:`privref.reference.composition.compose`).
* Amplification by subsampling: Poisson subsampling under add/remove and sampling m of n without
  replacement under substitution, each (ln(1 + q(e^ε − 1)), q·δ), audited exactly on tiny
  universes, tight in ε and δ; the rate's factor is a named constant, so halving it must fail.
* Gaussian DP (Dong, Roth & Su 2022): δ(ε) of μ-GDP against exact audits of the Gaussian release,
  the trade-off curve G_μ as the supremum of the (ε, δ(ε)) curves, and composition against the
  certified Gaussian PLD.

Two fixtures make infinite or irrational laws auditable as finite programs: randomized response
at a rational ε0 (keep e^ε0/(1 + e^ε0), an exact real), and the discrete Laplace output clamped to
[0, Δ], which for the pair of counts 0 and Δ keeps the privacy loss (the loss is constant below 0
and above Δ), so the clamped pair has the same PLD; one check confirms the clamp against the
unclamped mechanism's own exact profile.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache, partial
from typing import Any

from privref.audits.profile import privacy_profile
from privref.reference.citations import Uncited
from privref.reference.composition import compose, leak
from privref.reference.continuous_release import gaussian_mechanism
from privref.reference.data import Dataset
from privref.reference.decide import greater_than, less_than, within
from privref.reference.fdp import GaussianDP, dp_tradeoff, normal_quantile
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import AddRemove, Substitution, Universe
from privref.reference.pld import (
    CertifiedPLD,
    discrete_laplace_pld,
    gaussian_pld,
    randomized_response_pld,
)
from privref.reference.poisson_subsampling import (
    amplified_claim,
    membership_response,
    poisson_subsample,
)
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, bernoulli, categorical
from privref.reference.randomized_response import randomized_response
from privref.reference.reals import Interval, exp, rational
from privref.reference.subsampling import subsample

from ._common import audit_result, combine
from ._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from .numbers_text import decimal, interval_text

__all__ = ["ENTRIES", "POISSON_RATE_FACTOR", "WITHOUT_REPLACEMENT_RATE_FACTOR"]

POISSON_RATE_FACTOR = Fraction(1)
"""The factor of q in (ln(1 + q(e^ε − 1)), q·δ) for Poisson subsampling, read at run time."""

WITHOUT_REPLACEMENT_RATE_FACTOR = Fraction(1)
"""The factor of m/n in (ln(1 + (m/n)(e^ε − 1)), (m/n)·δ) for sampling without replacement."""

_STEP = Fraction(1, 100)
"""Grid step of the PLDs (coarse: the ledger runs in CI)."""

_GAUSS_STEP = Fraction(1, 50)
_GAUSS_BITS = 40
_PREC = 64

_PROFILE_PREC = 256
"""Precision of the exact profiles: finer than the PLDs' 2^-62 mass unit, so a profile enclosure
fits inside a PLD enclosure of the same number."""


# --------------------------------------------------------------------------- fixtures


def _rr_at(eps0: Fraction) -> Mechanism[int]:
    """Randomized response on one bit with keep probability e^ε0/(1 + e^ε0) (an exact real)."""
    w = exp(rational(eps0))
    keep = w / (w + 1)

    def program(data: Dataset) -> Program[int]:
        bit = data[0]
        assert isinstance(bit, int)
        kept = yield from bernoulli(keep)
        return bit if kept else 1 - bit

    return Mechanism(f"randomized response eps0={eps0}", program,
                     PrivacyClaim(rational(eps0)),
                     Uncited("fixture: randomized response at a rational ε0, for the PLD checks"))


def _clamped_discrete_laplace(scale: Fraction, sensitivity: int) -> Mechanism[int]:
    """x + Z for one entry x, Z discrete Laplace of scale t, clamped to [0, Δ]: P(j) ∝ q^{|j−x|}
    (1 − q)/(1 + q) inside, the tails q^{x}/(1 + q) at 0 and q^{Δ−x}/(1 + q) at Δ (q = e^{−1/t})."""
    q = exp(rational(-1 / scale))
    d = sensitivity

    def program(data: Dataset) -> Program[int]:
        x = data[0]
        assert isinstance(x, int)
        inner = [(1 - q) * q ** abs(j - x) for j in range(1, d)]
        weights = (q ** x, *inner, q ** (d - x))
        return (yield from categorical(weights))

    return Mechanism(f"discrete Laplace scale={scale} clamped to [0, {d}]", program,
                     PrivacyClaim(rational(Fraction(d) / scale)),
                     Uncited("fixture: a clamp of the discrete Laplace output that keeps the "
                             "privacy loss of the pair of counts 0 and Δ"))


def _contains(outer: Interval, inner: Interval) -> Verdict:
    """HOLDS: the value ``inner`` encloses is proved inside ``outer`` (inner ⊆ outer); VIOLATED:
    proved outside (disjoint); else UNDECIDED."""
    return within(inner, outer.lo, outer.hi)


def _disjoint(a: Interval, b: Interval) -> bool:
    """The two enclosed values are proved different (the enclosures are disjoint)."""
    return Verdict.HOLDS in (less_than(a, b), greater_than(a, b))


def _profile(mechanism: Mechanism[Any], a: Dataset, b: Dataset,
             epsilons: Sequence[Fraction]) -> list[Interval]:
    found = privacy_profile(mechanism, a, b, epsilons=list(epsilons), precision=_PROFILE_PREC)
    return [box for _, box in found.points]


def _enclosure_check(what: str, single: Callable[[], CertifiedPLD],
                     composed: Callable[[int], Mechanism[Any]], a: Dataset, b: Dataset,
                     eps0: Fraction, ks: Sequence[int]) -> CheckResult:
    count = 0
    for k in ks:
        pld = single().self_compose(k)
        epsilons = [Fraction(0), eps0 / 2, eps0, k * eps0 / 2, k * eps0 - eps0 / 2]
        exact = _profile(composed(k), a, b, epsilons)
        for eps, box in zip(epsilons, exact, strict=True):
            bound = pld.delta(eps)
            found = _contains(bound, box)
            if found is not Verdict.HOLDS:
                return CheckResult(found, f"{what}, k={k}, ε={eps}: the exact δ "
                                   f"{interval_text(box)} is not inside the certified PLD's "
                                   f"{interval_text(bound)}", witness=f"k={k}, epsilon={eps}")
            count += 1
    return CheckResult(Verdict.HOLDS, f"{what}: {count} (k, ε) points, the exact k-fold profile "
                                      f"inside the certified PLD (step {_STEP})")


# --------------------------------------------------------------------------- PLD composition


def check_pld_randomized_response() -> CheckResult:
    """The certified PLD of randomized response at ε0 = 1/2, 1, self-composed k = 2, 3 times,
    encloses the exact profile of the composed mechanism at 5 ε each."""
    results = []
    for eps0 in (Fraction(1, 2), Fraction(1)):
        rr = _rr_at(eps0)
        results.append(_enclosure_check(
            f"randomized response ε0={eps0}", partial(randomized_response_pld, eps0, step=_STEP),
            partial(_repeat, rr), (1,), (0,), eps0, (2, 3)))
    return combine(results)


def _repeat(mechanism: Mechanism[Any], k: int) -> Mechanism[Any]:
    """The k-fold composition of ``mechanism`` (reference.composition.compose)."""
    return compose(*(mechanism,) * k)


def check_pld_discrete_laplace() -> CheckResult:
    """The certified PLD of discrete Laplace (t = 2, Δ = 2: losses ±1 and 0), self-composed
    k = 2, 3 times, encloses the exact profile of the composed clamped mechanism."""
    scale, d = Fraction(2), 2
    fixture = _clamped_discrete_laplace(scale, d)
    return _enclosure_check(f"discrete Laplace t={scale}, Δ={d}",
                            partial(discrete_laplace_pld, scale, d, step=_STEP),
                            partial(_repeat, fixture), (0,), (d,), Fraction(d) / scale,
                            (2, 3))


def check_basic_composition_looser() -> CheckResult:
    """For k = 3 compositions of randomized response at ε0 = 1 and δ = 1/10, 1/100: the PLD's ε(δ)
    is proved strictly below basic composition's k·ε0, and the exact auditor's profile on the pair
    (1,), (0,) does not refute it: δ(ε_hi) > δ or δ(ε_lo) < δ, proved, would fail the check."""
    eps0, k = Fraction(1), 3
    pld = randomized_response_pld(eps0, step=_STEP).self_compose(k)
    composed = _repeat(_rr_at(eps0), k)
    seen = []
    for delta in (Fraction(1, 10), Fraction(1, 100)):
        eps = pld.epsilon(delta)
        below = less_than(eps.hi, k * eps0)
        if below is not Verdict.HOLDS:
            return CheckResult(below, f"δ={delta}: the PLD's ε <= {decimal(eps.hi)} is not "
                                      f"below basic composition's {k * eps0}")
        at_hi, at_lo = _profile(composed, (1,), (0,), [eps.hi, eps.lo])
        if greater_than(at_hi, delta) is Verdict.HOLDS:  # ε_hi proved not to be a valid ε
            return CheckResult(Verdict.VIOLATED, f"δ={delta}: exact δ(ε_hi) = "
                               f"{interval_text(at_hi)} > {delta}")
        if less_than(at_lo, delta) is Verdict.HOLDS:  # a valid ε below ε_lo: lower end wrong
            return CheckResult(Verdict.VIOLATED, f"δ={delta}: exact δ(ε_lo) < {delta}, so the "
                               f"least ε is below the PLD's lower end {decimal(eps.lo)}")
        seen.append(f"δ={delta}: ε ∈ {interval_text(eps)} < {k * eps0}")
    return CheckResult(Verdict.HOLDS, "; ".join(seen) + " (exact audits agree)")


# --------------------------------------------------------------------------- amplification


def _amplified(results: list[CheckResult], mechanism: Mechanism[Any], universe: Universe,
               claim: PrivacyClaim, tight_epsilon: bool, tight_delta: bool) -> str | None:
    """Audit ``claim``; with ``tight_epsilon`` also require the exact ε to equal the claim's, with
    ``tight_delta`` require the claim with δ·99/100 to be refuted.  A failure text, or None."""
    result, report = audit_result(mechanism, universe, claim=claim)
    results.append(result)
    if report.verdict is not Verdict.HOLDS:
        return None
    if tight_epsilon:
        exact = report.epsilon_exact
        if exact is None or exp(exact).exact != exp(claim.epsilon).exact:
            return f"{mechanism.name}: exact ε {exact} is not the amplified {claim.epsilon}"
    if tight_delta:
        smaller = PrivacyClaim(claim.epsilon, claim.delta * Fraction(99, 100))
        _, under = audit_result(mechanism, universe, claim=smaller)
        if under.verdict is not Verdict.VIOLATED:
            return f"{mechanism.name}: δ·99/100 = {smaller.delta} is not refuted ({under.verdict})"
    return None


def check_poisson_amplification() -> CheckResult:
    """Membership response (keep 3/4, ε = ln 3) and its leak(1/10), Poisson-subsampled at
    q = 1/2, 1/3, 1/4, under add/remove (datasets of 0-3 bits) and under substitution (1-3
    bits): exact audits of (ln(1 + q(e^ε − 1)), q·δ) HOLD, the exact ε equals it, and
    q·δ·99/100 is refuted.

    The q in the claim is :data:`POISSON_RATE_FACTOR`·q, read at run time."""
    results: list[CheckResult] = []
    for relation, sizes in ((AddRemove(), (0, 1, 2, 3)), (Substitution(), (1, 2, 3))):
        inner = membership_response("3/4", relation=relation)
        leaky = leak(inner, "1/10")
        for rate in (Fraction(1, 2), Fraction(1, 3), Fraction(1, 4)):
            claimed = rate * POISSON_RATE_FACTOR
            for base, tight_delta in ((inner, False), (leaky, True)):
                universe = Universe((0, 1), sizes[:-1] if tight_delta else sizes)
                problem = _amplified(results, poisson_subsample(base, rate), universe,
                                     amplified_claim(base.claim, claimed), True, tight_delta)
                if problem is not None:
                    return CheckResult(Verdict.VIOLATED, problem)
    return combine(results)


def check_without_replacement_amplification() -> CheckResult:
    """Randomized response (keep 3/4) and its leak(1/10) run on 1 of n = 2, 3, 4 entries drawn
    without replacement (substitution): exact audits of (ln(1 + (1/n)(e^ε − 1)), δ/n) HOLD, tight
    in ε and δ.

    The m/n in the claim is :data:`WITHOUT_REPLACEMENT_RATE_FACTOR`·m/n, read at run time."""
    rr = randomized_response("3/4")
    leaky = leak(rr, "1/10")
    results: list[CheckResult] = []
    for n in (2, 3, 4):
        rate = Fraction(1, n) * WITHOUT_REPLACEMENT_RATE_FACTOR
        for base, tight_delta in ((rr, False), (leaky, True)):
            claim = amplified_claim(base.claim, rate)
            problem = _amplified(results, subsample(base, 1, n, claim=claim),
                                 Universe((0, 1), (n,)), claim, True, tight_delta)
            if problem is not None:
                return CheckResult(Verdict.VIOLATED, problem)
    return combine(results)


# --------------------------------------------------------------------------- Gaussian DP


def check_gdp_delta_against_audits() -> CheckResult:
    """μ-GDP's δ(ε) against exact audits of the released q(D) + N(0, σ²) (σ = 1/μ, Δ = 1):
    the claim (ε, δ(ε).hi) HOLDS and (ε, δ(ε).lo·999/1000) is refuted, at (μ, ε) = (1, 1/2),
    (1/2, 1), (2, 2)."""
    results = []
    for mu, eps in ((Fraction(1), Fraction(1, 2)), (Fraction(1, 2), Fraction(1)),
                    (Fraction(2), Fraction(2))):
        delta = GaussianDP(mu * mu).delta(eps)
        mech = gaussian_mechanism(1 / mu, epsilon=eps)
        universe = Universe((0, 1), (1,))
        results.append(audit_result(mech, universe, claim=PrivacyClaim(rational(eps),
                                                                       delta.hi))[0])
        _, report = audit_result(mech, universe, claim=PrivacyClaim(
            rational(eps), delta.lo * Fraction(999, 1000)))
        if report.verdict is not Verdict.VIOLATED:
            return CheckResult(Verdict.VIOLATED if report.verdict is Verdict.HOLDS
                               else report.verdict,
                               f"μ={mu}, ε={eps}: 0.999·δ(ε) = {decimal(delta.lo)} not refuted")
    return combine(results)


def _tradeoff_of_profile(mu_squared: Fraction, eps: Fraction, alpha: Fraction) -> Interval:
    """f_{ε,δ(ε)}(α) enclosed: f decreases in δ, so δ's upper end gives the lower end."""
    delta = GaussianDP(mu_squared).delta(eps)
    return Interval(dp_tradeoff(eps, delta.hi, alpha).lo, dp_tradeoff(eps, delta.lo, alpha).hi)


def check_tradeoff_duality() -> CheckResult:
    """sup_ε f_{ε,δ(ε)}(α) = G_μ(α) (Dong, Roth & Su 2022, Proposition 2.12 and Corollary 2.13),
    at μ = 1/2, 1, 2 and α = 1/100, 1/10, 3/10, 1/2, 4/5: no f_{ε,δ(ε)} on ε ∈ {0, 1/4, 1, 3} is
    proved above G_μ(α), and at the tangent ε* = |μz − μ²/2| (z = Φ⁻¹(1 − α), rounded to a
    rational) f_{ε*,δ(ε*)}(α) meets G_μ(α)'s enclosure."""
    count = 0
    for mu in (Fraction(1, 2), Fraction(1), Fraction(2)):
        gdp = GaussianDP(mu * mu)
        for alpha in (Fraction(1, 100), Fraction(1, 10), Fraction(3, 10), Fraction(1, 2),
                      Fraction(4, 5)):
            curve = gdp.tradeoff(alpha)
            for eps in (Fraction(0), Fraction(1, 4), Fraction(1), Fraction(3)):
                f = _tradeoff_of_profile(gdp.mu_squared, eps, alpha)
                if greater_than(f, curve) is Verdict.HOLDS:
                    return CheckResult(Verdict.VIOLATED, f"μ={mu}, α={alpha}, ε={eps}: "
                                       f"f_(ε,δ(ε)) >= {decimal(f.lo)} > G_μ <= "
                                       f"{decimal(curve.hi)}", witness=f"mu={mu}, alpha={alpha}")
            z = normal_quantile(1 - alpha)
            tangent = abs(mu * (z.lo + z.hi) / 2 - mu * mu / 2).limit_denominator(1 << 50)
            f = _tradeoff_of_profile(gdp.mu_squared, tangent, alpha)
            if _disjoint(f, curve):
                return CheckResult(Verdict.VIOLATED,
                                   f"μ={mu}, α={alpha}: at ε*={decimal(tangent, 9)} f ∈ "
                                   f"{interval_text(f)} misses G_μ ∈ {interval_text(curve)} "
                                   f"(gap >= {decimal(max(curve.lo - f.hi, f.lo - curve.hi))})",
                                   witness=f"mu={mu}, alpha={alpha}")
            count += 1
    return CheckResult(Verdict.HOLDS, f"{count} (μ, α) points: f_(ε,δ(ε)) <= G_μ on 4 ε and "
                                      "meets G_μ at the tangent ε (interval enclosures)")


@cache
def _gaussian(sigma: Fraction) -> CertifiedPLD:
    return gaussian_pld(sigma, step=_GAUSS_STEP, bits=_GAUSS_BITS)


def check_gdp_composition() -> CheckResult:
    """√(Σ μ_i²)-GDP's δ(ε) lies inside the certified Gaussian PLD of the composition: σ = 1 three
    times (μ = √3) and σ = 1 with σ = 2 (μ = √(5/4)), at ε = 0, 1/2, 1, 2."""
    cases = (("N(0,1) three times", (Fraction(1),) * 3),
             ("N(0,1) then N(0,4)", (Fraction(1), Fraction(2))))
    count = 0
    for what, sigmas in cases:
        pld = _gaussian(sigmas[0])
        gdp = GaussianDP(1 / (sigmas[0] ** 2))
        for s in sigmas[1:]:
            pld = pld.compose(_gaussian(s))
            gdp = gdp.compose(GaussianDP(1 / (s * s)))
        for eps in (Fraction(0), Fraction(1, 2), Fraction(1), Fraction(2)):
            bound, ours = pld.delta(eps), gdp.delta(eps)
            found = _contains(bound, ours)
            if found is not Verdict.HOLDS:
                return CheckResult(found, f"{what}, ε={eps}: GDP δ {interval_text(ours)} "
                                   f"(μ² = {gdp.mu_squared}) not inside the PLD's "
                                   f"{interval_text(bound)}", witness=f"{what}, epsilon={eps}")
            count += 1
    return CheckResult(Verdict.HOLDS, f"{count} points: composed GDP δ(ε) inside the certified "
                                      f"Gaussian PLD (step {_GAUSS_STEP})")


ENTRIES: tuple[Entry, ...] = (
    Entry(paper="folklore", number="Sommer-Meiser-Mohammadi 2019 PLD composition",
          statement="The privacy loss distribution of a composition is the convolution of the "
                    "components' PLDs, and δ(ε) = E[(1 − e^(ε−L))₊] of the convolution is the "
                    "exact privacy profile of the non-adaptive composition of tight dominating "
                    "pairs (Sommer, Meiser & Mohammadi 2019; Zhu, Dong & Wang 2022 Theorem 10 for "
                    "adaptive composition).  privref's certified PLDs enclose it.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("randomized response ε0 = 1/2, 1, k = 2, 3: exact profile inside the PLD",
                        check_pld_randomized_response),
                  Check("discrete Laplace t = 2, Δ = 2, k = 2, 3: exact profile inside the PLD",
                        check_pld_discrete_laplace),
                  Check("k·ε0 basic composition strictly looser; ε(δ) confirmed by exact audits",
                        check_basic_composition_looser)),
          notes="The exact profiles come from the exact auditor's hockey-stick divergence on the "
                "k-fold composed program (privref.audits.profile).  The discrete Laplace "
                "output is clamped to [0, Δ] to make it finite: for the counts 0 and Δ the loss "
                "is Δ/t at or below 0 and −Δ/t at or above Δ, so the clamp merges outcomes of "
                "equal loss and keeps the PLD (an argument, not a check: "
                "tests/proofs/test_folklore_accounting.py only shows the two profiles' "
                "enclosures overlap).  The containment check holds for the clamped mechanism "
                "itself either way.",
          subjects=("reference.pld", "reference.composition", "audits.profile")),
    Entry(paper="folklore", number="Li-Qardaji-Su 2012 Poisson amplification",
          statement="If M is (ε, δ)-DP under add/remove of one entry, running M on a Poisson "
                    "subsample (each entry kept independently with probability q) is "
                    "(ln(1 + q(e^ε − 1)), q·δ)-DP under add/remove (Li, Qardaji & Su 2012 for "
                    "ε; Balle, Barthe & Gaboardi 2018 for the (ε, δ) form), and likewise under "
                    "substitution; tight for randomized response on membership.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits, q = 1/2, 1/3, 1/4, add/remove and substitution, tight in "
                        "ε and δ",
                        check_poisson_amplification, constant="POISSON_RATE_FACTOR"),),
          notes="Balle, Barthe & Gaboardi 2018 state the Poisson case for the remove relation; "
                "the audits cover every ordered add/remove pair of the universe.",
          subjects=("reference.poisson_subsampling",)),
    Entry(paper="folklore", number="Balle-Barthe-Gaboardi 2018 sampling without replacement",
          statement="If M is (ε, δ)-DP under substitution on datasets of size m, running M on m "
                    "of n entries drawn uniformly without replacement is "
                    "(ln(1 + (m/n)(e^ε − 1)), (m/n)·δ)-DP under substitution (Balle, Barthe & "
                    "Gaboardi 2018); tight for randomized response at m = 1.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits, m = 1, n = 2, 3, 4, tight in ε and δ",
                        check_without_replacement_amplification,
                        constant="WITHOUT_REPLACEMENT_RATE_FACTOR"),),
          subjects=("reference.subsampling", "reference.poisson_subsampling.amplified_claim")),
    Entry(paper="folklore", number="Dong-Roth-Su 2022 Corollary 2.13",
          statement="μ-GDP holds iff (ε, δ(ε))-DP holds for every ε >= 0, δ(ε) = Φ(−ε/μ + μ/2) − "
                    "e^ε Φ(−ε/μ − μ/2) (Dong, Roth & Su 2022, Corollary 2.13): the trade-off "
                    "curve G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) is the supremum over ε of "
                    "f_(ε,δ(ε))(α) = max(0, 1 − δ − e^ε α, e^(−ε)(1 − δ − α)).",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("δ(ε) against exact audits of the Gaussian release, 3 points",
                        check_gdp_delta_against_audits),
                  Check("G_μ is the supremum of the (ε, δ(ε)) curves, 15 (μ, α) points",
                        check_tradeoff_duality)),
          subjects=("reference.fdp",)),
    Entry(paper="folklore", number="Dong-Roth-Su 2022 Corollary 3.3",
          statement="The composition of μ_i-GDP mechanisms is √(μ_1² + … + μ_n²)-GDP (Dong, Roth "
                    "& Su 2022, Corollary 3.3), exactly for Gaussian mechanisms.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("composed GDP δ(ε) inside the certified Gaussian PLD, 8 points",
                        check_gdp_composition),),
          subjects=("reference.fdp.GaussianDP",)),
)
