"""Ledger: folklore and external results (group privacy, composition, the textbook mechanisms).

One entry per id of :data:`privref.reference.citations.EXTERNAL`: the results
the papers use without a number, and the external results that reference
mechanisms cite (randomized response, permute-and-flip, the geometric,
discrete Laplace and discrete Gaussian mechanisms).  Each is checked by exact
audits on small universes (and, where the bound is tight, by its exact value).
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

from privref.audits.prediction import audit_prediction
from privref.reference.composition import compose, leak
from privref.reference.concepts import thresholds_on
from privref.reference.exponential import count_score, exponential_mechanism
from privref.reference.geometric import (
    bounded_sum,
    discrete_gaussian_mechanism,
    discrete_laplace_mechanism,
    geometric_mechanism,
)
from privref.reference.learners.prediction_baselines import (
    block_average_predictor,
    subsample_predictor,
)
from privref.reference.neighbors import Universe
from privref.reference.noisy_max import report_noisy_max
from privref.reference.prediction import Predictor, UniformStability
from privref.reference.privacy import group_privacy
from privref.reference.randomized_response import label_flip, randomized_response
from privref.reference.reals import exp, log, rational

from ._common import audit_result, combine
from ._ledger import Check, CheckResult, Entry, Kind, Status, Verdict
from .folklore_accounting import ENTRIES as ACCOUNTING_ENTRIES
from .folklore_continuous import (
    check_above_threshold,
    check_gaussian_release_profile,
    check_laplace_mechanism,
    check_noisy_max,
    check_noisy_max_needs_the_factor_2,
)
from .folklore_gaussian import check_against_lemma_51, check_hockey_stick_integral
from .folklore_pooled import check_conditional_law, check_pooled_level
from .folklore_zcdp import (
    check_against_gaussian,
    check_delta_form_against_audits,
    check_delta_round_trip,
    check_tighter_than_lemma_51,
)

__all__ = ["BLOCK_STABILITY_SCALE", "ENTRIES", "SUBSAMPLE_STABILITY_SCALE"]

SUBSAMPLE_STABILITY_SCALE = Fraction(1)
"""The implicit leading 1 of B1's uniform stability γ = m/n (folklore, 002's baseline B1)."""
BLOCK_STABILITY_SCALE = Fraction(1)
"""The implicit leading 1 of B2's uniform stability γ = 1/k (folklore, 002's baseline B2)."""

_BITS = Universe((0, 1), (1, 2, 3))


def check_group_privacy_audits() -> CheckResult:
    """Exact audits at distance k = 2, 3 against (k·eps, delta·Σ_{j<k} e^{j·eps})."""
    flip = label_flip("3/4")
    labeled = Universe(((0, 0), (0, 1), (1, 0), (1, 1)), (2, 3))
    em = exponential_mechanism((0, 1, 2, 3), count_score, epsilon="2*ln(3/2)")
    leaky = leak(em, "1/50")
    bits = Universe((0, 1), (3,))
    results = []
    for k in (2, 3):
        results.append(audit_result(flip, labeled, claim=group_privacy(flip.claim, k),
                                    distance=k)[0])
        results.append(audit_result(em, bits, claim=group_privacy(em.claim, k), distance=k)[0])
        results.append(audit_result(leaky, bits, claim=group_privacy(leaky.claim, k),
                                    distance=k)[0])
    return combine(results)


def check_group_privacy_tight() -> CheckResult:
    """The k·eps part is tight: the label flip's exact loss at distance k is exactly k·ln 3."""
    flip = label_flip("3/4")
    labeled = Universe(((0, 0), (0, 1), (1, 0), (1, 1)), (3,))
    for k in (1, 2, 3):
        _, report = audit_result(flip, labeled, claim=group_privacy(flip.claim, k), distance=k)
        exact = report.epsilon_exact
        if exact is None or exp(exact).exact != exp(log(3) * k).exact:
            return CheckResult(Verdict.VIOLATED, f"distance {k}: exact loss {exact}, "
                               f"expected {k}·ln 3")
    return CheckResult(Verdict.HOLDS, "label flip: exact loss k·ln 3 at k = 1, 2, 3")


def check_composition_audits() -> CheckResult:
    """Exact audits of compositions against (Σ eps_i, Σ delta_i)."""
    rr = randomized_response("3/4")
    rr2 = randomized_response("2/3")
    em = exponential_mechanism((0, 1, 2), count_score, epsilon="2*ln(3/2)")
    return combine([
        audit_result(compose(rr, rr2), Universe((0, 1), (1,)))[0],
        audit_result(compose(rr, leak(rr2, "1/10")), Universe((0, 1), (1,)))[0],
        audit_result(compose(em, em), Universe((0, 1), (2,)))[0],
    ])


def check_leak_audits() -> CheckResult:
    """Exact audits of leak(d) around pure and approximate mechanisms against (eps, delta + d)."""
    rr = randomized_response("3/4")
    em = exponential_mechanism((0, 1, 2), count_score, epsilon="2*ln(3/2)")
    return combine([
        audit_result(leak(rr, "1/10"), Universe((0, 1), (1,)))[0],
        audit_result(leak(leak(rr, "1/20"), "1/30"), Universe((0, 1), (1,)))[0],
        audit_result(leak(em, "1/50"), Universe((0, 1), (2,)))[0],
    ])


def check_rr_audits() -> CheckResult:
    """Randomized response and the label flip at keep p: exact audits against ln(p/(1-p))."""
    results = []
    for p in ("3/4", "2/3", "9/10"):
        results.append(audit_result(randomized_response(p), Universe((0, 1), (1,)))[0])
        results.append(audit_result(label_flip(p), Universe(((0, 0), (0, 1), (1, 1)), (2,)))[0])
    return combine(results)


def check_rr_tight() -> CheckResult:
    """The bound is attained: the exact worst-case loss of randomized response is ln(p/(1-p))."""
    for p, ratio in (("3/4", 3), ("2/3", 2), ("9/10", 9)):
        _, report = audit_result(randomized_response(p), Universe((0, 1), (1,)))
        exact = report.epsilon_exact
        if exact is None or exp(exact).exact != ratio:
            return CheckResult(Verdict.VIOLATED, f"keep {p}: exact loss {exact}, expected "
                               f"ln {ratio}")
    return CheckResult(Verdict.HOLDS, "exact loss ln(p/(1-p)) at p = 3/4, 2/3, 9/10")


def check_permute_and_flip() -> CheckResult:
    """Permute-and-flip with decay r over count scores: exact audits against 2·ln(1/r)."""
    return combine([
        audit_result(report_noisy_max((0, 1, 2), count_score, decay=r), _BITS)[0]
        for r in ("1/2", "2/3", "1/5")])


def check_geometric() -> CheckResult:
    """The geometric mechanism at alpha, sensitivity 1 and 2: exact audits against Δ·ln(1/alpha)."""
    return combine([
        audit_result(geometric_mechanism("1/2"), _BITS)[0],
        audit_result(geometric_mechanism("1/3"), _BITS)[0],
        audit_result(geometric_mechanism("1/2", 2), Universe((0, 1, 2), (1, 2)))[0],
        audit_result(geometric_mechanism("2/3", query=bounded_sum(1)), _BITS)[0],
    ])


def check_geometric_tight() -> CheckResult:
    """The bound is attained: the exact loss of the geometric mechanism is ln(1/alpha)."""
    for alpha, inverse in (("1/2", 2), ("1/3", 3)):
        _, report = audit_result(geometric_mechanism(alpha), Universe((0, 1), (1,)))
        exact = report.epsilon_exact
        if exact is None or exp(exact).exact != inverse:
            return CheckResult(Verdict.VIOLATED, f"alpha {alpha}: exact loss {exact}, "
                               f"expected ln {inverse}")
    return CheckResult(Verdict.HOLDS, "exact loss ln(1/alpha) at alpha = 1/2, 1/3")


def check_discrete_laplace() -> CheckResult:
    """The discrete Laplace mechanism at scale t: exact audits against Δ/t."""
    return combine([
        audit_result(discrete_laplace_mechanism(2), _BITS)[0],
        audit_result(discrete_laplace_mechanism(1), _BITS)[0],
        audit_result(discrete_laplace_mechanism(3, 2), Universe((0, 1, 2), (1, 2)))[0],
    ])


def check_discrete_gaussian() -> CheckResult:
    """The discrete Gaussian at sigma², delta: exact audits against (ρ + 2√(ρ ln(1/δ)), δ)."""
    return combine([
        audit_result(discrete_gaussian_mechanism(4, delta="1/1000000"), _BITS)[0],
        audit_result(discrete_gaussian_mechanism(1, delta="1/1000"), _BITS)[0],
        audit_result(discrete_gaussian_mechanism(9, 2, delta="1/100"),
                     Universe((0, 1, 2), (1, 2)))[0],
    ])


def _stability_audits(cases: list[tuple[Predictor, Fraction, Universe]], *,
                      scale: Fraction) -> CheckResult:
    """Exact prediction audits of γ-uniform stability at γ = scale·bound, and the exact γ*.

    HOLDS when every claim holds and the exact worst case γ* equals the bound (tight);
    ``scale`` < 1 (a mutated module constant) must fail.
    """
    seen: list[str] = []
    for predictor, bound, universe in cases:
        C_points = predictor.domain or ()
        report = audit_prediction(predictor, universe, C_points,
                                  claim=UniformStability(rational(bound * scale)))
        if report.verdict is not Verdict.HOLDS:
            return CheckResult(report.verdict, f"{predictor.name}: claim γ = {bound * scale} "
                               f"{report.verdict.value}; exact worst case γ* = "
                               f"{report.gamma_exact}", witness=repr(report.verdict_witness))
        if report.gamma_exact != bound:
            return CheckResult(Verdict.VIOLATED, f"{predictor.name}: exact γ* = "
                               f"{report.gamma_exact}, expected the bound {bound} (tight)")
        seen.append(f"{predictor.name.split(' (')[0]} γ* = {bound}")
    return CheckResult(Verdict.HOLDS, "; ".join(seen) + " (exact, every pair and query)")


def _labeled(C_points: tuple[Hashable, ...], n: int) -> Universe:
    return Universe(tuple((x, y) for x in C_points for y in (0, 1)), (n,))


def check_subsample_stability() -> CheckResult:
    """B1 (ERM on a uniform m-subset) is exactly (m/n)-stable: (n, m) = (2, 1), (3, 1), (3, 2).

    The claimed γ is :data:`SUBSAMPLE_STABILITY_SCALE`·m/n, read at run time.
    """
    C = thresholds_on(3)
    points = tuple(C.domain)
    cases = [(subsample_predictor(C, n, m), Fraction(m, n), _labeled(points, n))
             for n, m in ((2, 1), (3, 1), (3, 2))]
    return _stability_audits(cases, scale=SUBSAMPLE_STABILITY_SCALE)


def check_block_average_stability() -> CheckResult:
    """B2 (average of k block ERMs) is exactly (1/k)-stable: (n, k) = (2, 2), (3, 3), (3, 1).

    The claimed γ is :data:`BLOCK_STABILITY_SCALE`/k, read at run time.
    """
    C = thresholds_on(3)
    points = tuple(C.domain)
    cases = [(block_average_predictor(C, n, k), Fraction(1, k), _labeled(points, n))
             for n, k in ((2, 2), (3, 3), (3, 1))]
    return _stability_audits(cases, scale=BLOCK_STABILITY_SCALE)


ENTRIES: tuple[Entry, ...] = (
    Entry(paper="folklore", number="Group privacy",
          statement=("An (eps, delta)-DP algorithm is (k·eps, delta·Σ_{j<k} e^{j·eps})-DP for "
                     "datasets at distance k (used throughout the proofs of 004 Appendix C)."),
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits at distance 2 and 3", check_group_privacy_audits),
                  Check("k·eps is attained exactly by the label flip", check_group_privacy_tight)),
          subjects=("reference.privacy",)),
    Entry(paper="folklore", number="Basic composition",
          statement="Running (eps_i, delta_i)-DP algorithms on the same data is "
                    "(Σ eps_i, Σ delta_i)-DP.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits of compositions", check_composition_audits),),
          subjects=("reference.composition",)),
    Entry(paper="folklore", number="Delta leak",
          statement="Releasing the whole dataset with probability d and otherwise running an "
                    "(eps, delta)-DP algorithm is (eps, delta + d)-DP.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits of leaks", check_leak_audits),),
          subjects=("reference.composition",)),
    Entry(paper="folklore", number="Warner 1965",
          statement="Randomized response (Warner 1965): keeping each private bit with "
                    "probability p >= 1/2 and flipping it otherwise is ln(p/(1-p))-DP under "
                    "substitution of one entry; the same holds for the label flip under "
                    "substitution of one label.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits, bits and labels, p = 3/4, 2/3, 9/10", check_rr_audits),
                  Check("ln(p/(1-p)) is attained exactly", check_rr_tight)),
          subjects=("reference.randomized_response",)),
    Entry(paper="folklore", number="McKenna-Sheldon 2020 Theorem 1",
          statement="Permute-and-flip (McKenna and Sheldon, NeurIPS 2020, Theorem 1): visiting "
                    "the candidates in a uniformly random order and accepting r with probability "
                    "exp(eps·(q(r) - q_max)/(2Δ)) is eps-DP for a score of sensitivity Δ.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits at decay 1/2, 2/3, 1/5", check_permute_and_flip),),
          subjects=("reference.noisy_max",)),
    Entry(paper="folklore", number="Dwork-McSherry-Nissim-Smith 2006",
          statement="The Laplace mechanism (Dwork, McSherry, Nissim, Smith, TCC 2006): a query "
                    "of sensitivity Δ plus continuous Lap(Δ/eps) noise, the noisy value itself "
                    "released, is eps-DP, and no smaller eps holds (the density ratio reaches "
                    "e^eps on a half-line).",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits of the released value, eps = 1/2, 1, 3, Δ = 1, 2 "
                        "(tight: decided from the density ratio)", check_laplace_mechanism,
                        constant="LAPLACE_CLAIM_SCALE"),),
          subjects=("reference.continuous_release", "reference.released_density",
                    "audits._released")),
    Entry(paper="folklore", number="Dwork-Roth 2014 Claim 3.9",
          statement="Report noisy max (Dwork and Roth 2014, Claim 3.9): adding independent "
                    "Laplace noise to each score and releasing the argmax is eps-DP: with "
                    "Lap(Δ/eps) for monotone scores (Claim 3.9's counting queries under "
                    "add/remove) and with Lap(2Δ/eps) for scores of sensitivity Δ that may move "
                    "in opposite directions.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits, continuous Laplace, eps = 1/2, 1", check_noisy_max,
                        constant="NOISY_MAX_CLAIM_SCALE"),
                  Check("Lap(Δ/eps) fails on non-monotone scores (the 2 is needed)",
                        check_noisy_max_needs_the_factor_2)),
          notes="Claim 3.9 is stated for counting queries with Lap(1/eps); the factor 2 for "
                "general scores is the standard extension, and the second check shows it "
                "necessary: on {0,1}^3 under l-infinity the exact loss of Lap(1/eps) is 1.42 at "
                "eps = 1.",
          subjects=("reference.noisy_max",)),
    Entry(paper="folklore", number="Dwork-Roth 2014 Theorem 3.23",
          statement="AboveThreshold (Dwork and Roth 2014, Algorithm 1 and Theorem 3.23): with "
                    "a threshold noise Lap(2/eps) drawn once and Lap(4/eps) on each "
                    "sensitivity-1 query, releasing the index of the first noisy query above "
                    "the noisy threshold is eps-DP.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits, continuous Laplace, eps = 1/2, 1, above and below",
                        check_above_threshold, constant="ABOVE_THRESHOLD_CLAIM_SCALE"),),
          subjects=("reference.sparse_vector",)),
    Entry(paper="folklore", number="Ghosh-Roughgarden-Sundararajan 2009",
          statement="The geometric mechanism (Ghosh, Roughgarden, Sundararajan, STOC 2009): a "
                    "query of sensitivity Δ plus two-sided geometric noise, P(z) ∝ alpha^|z|, "
                    "is (Δ·ln(1/alpha))-DP, and the bound is tight.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits, alpha = 1/2, 1/3, 2/3, Δ = 1, 2", check_geometric),
                  Check("ln(1/alpha) is attained exactly", check_geometric_tight)),
          subjects=("reference.geometric",)),
    Entry(paper="folklore", number="Canonne-Kamath-Steinke 2020 discrete Laplace",
          statement="The discrete Laplace mechanism (Canonne, Kamath, Steinke, NeurIPS 2020): a "
                    "query of sensitivity Δ plus noise P(z) ∝ e^(-|z|/t) is (Δ/t)-DP (the "
                    "geometric mechanism at alpha = e^(-1/t)).",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits, t = 1, 2, 3, Δ = 1, 2", check_discrete_laplace),),
          subjects=("reference.geometric", "reference.discrete_noise")),
    Entry(paper="folklore", number="Canonne-Kamath-Steinke 2020 Theorem 4",
          statement="The discrete Gaussian mechanism (Canonne, Kamath, Steinke, NeurIPS 2020, "
                    "Theorem 4) is ρ-zCDP with ρ = Δ²/(2σ²), hence (ρ + 2√(ρ ln(1/δ)), δ)-DP for "
                    "every δ > 0 (Bun and Steinke 2016, Proposition 1.3).",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits, σ² = 1, 4, 9, Δ = 1, 2", check_discrete_gaussian),),
          subjects=("reference.geometric", "reference.discrete_noise")),
    Entry(paper="folklore", number="Balle-Wang 2018 Theorem 8",
          statement="A Gaussian mechanism with sensitivity-to-noise ratio μ (q sensitivity-1 "
                    "queries at noise σ: μ = √q/σ) is (ε, δ(ε))-DP exactly for δ(ε) = "
                    "Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ), and for no smaller δ (Balle and Wang, "
                    "ICML 2018, Theorem 8): the accountant behind 001 §5 and Table 4.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("meets the hockey-stick integral by Riemann sums, 5 points",
                        check_hockey_stick_integral),
                  Check("below the zCDP bound of 001 Lemma 51, 9 points",
                        check_against_lemma_51, constant="LEMMA_51_FACTOR"),
                  Check("the released q(D) + N(0, σ²) meets δ(ε) and not 0.999·δ(ε) (exact "
                        "audits, 3 points)", check_gaussian_release_profile)),
          notes="The hockey-stick divergence of N(0, 1) from N(μ, 1) at e^ε is ∫ (φ(t) − "
                "e^ε φ(t − μ))₊ dt, and the integrand is positive exactly for t < μ/2 − ε/μ; "
                "the integral is enclosed by monotone Riemann sums with interval exponentials "
                "and rational bounds of π, independently of the accountant's Φ series.",
          subjects=("reference.accounting.analytic_gaussian_delta",
                    "reference.accounting.calibrate_sigma",
                    "reference.accounting.epsilon_ex_post")),
    Entry(paper="folklore", number="Canonne-Kamath-Steinke 2020 Corollary 13",
          statement="A ρ-zCDP mechanism is (ε, δ)-DP for δ = inf_{α>1} exp((α − 1)(αρ − ε))·"
                    "(1 − 1/α)^α/(α − 1) (Canonne, Kamath and Steinke, NeurIPS 2020, Corollary "
                    "13; Proposition 12 at Rényi order α with divergence αρ); equivalently, for "
                    "every α > 1 it is (ε_α, δ)-DP with ε_α = αρ + (ln(1/δ) + (α − 1) ln(1 − 1/α) "
                    "− ln α)/(α − 1).  Never looser than Bun-Steinke 2016 Proposition 1.3 "
                    "(001 Lemma 51) at the best α.",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("ε_α solves the paper's δ formula, 12 points", check_delta_round_trip),
                  Check("sound against the Gaussian mechanism's exact profile, 12 points",
                        check_against_gaussian),
                  Check("strictly below 001 Lemma 51, 20 points",
                        check_tighter_than_lemma_51, constant="LEMMA_51_FACTOR"),
                  Check("δ form: exact audits of the discrete Gaussian, 4 points",
                        check_delta_form_against_audits, constant="CKS_DELTA_SCALE")),
          notes="The accountant evaluates ε_α exactly at a rational α proposed by a float "
                "minimisation (d ε_α/dα = ρ − (ln(1/δ) − ln α)/(α − 1)²); every α > 1 is "
                "valid, so the float never decides soundness.  The black-box auditor converts "
                "declared ρ-zCDP claims through it.",
          subjects=("reference.accounting.zcdp_to_dp_epsilon",
                    "reference.accounting.zcdp_epsilon_at_order",
                    "reference.accounting.zcdp_to_dp_delta",
                    "audits.blackbox.declarations.audited_point")),
    Entry(paper="folklore", number="Przyborowski-Wilenski 1940",
          statement="Two counts conditioned on their sum (Przyborowski and Wilenski, Biometrika "
                    "1940, for Poisson counts): when 2D draws are dealt to two sides by fair coins "
                    "and a draw of side a (b) lands in F with probability P (Q), the hits X of "
                    "side a given the total s are Bin(s, P/(P + Q)); so a one-sided "
                    "Clopper–Pearson bound r_lo on that share at level alpha gives "
                    "r_lo/(1 − r_lo) ≤ P/Q with probability ≥ 1 − alpha (the black-box "
                    "auditor's pooled test).",
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("the conditional law is binomial exactly, 4 cases, 8 draws",
                        check_conditional_law),
                  Check("the pooled bound's failure probability is <= alpha exactly, 4 cases",
                        check_pooled_level)),
          notes="Without the coins (D draws per side) the conditional law is Fisher's "
                "noncentral hypergeometric, not binomial; a test shows the check fails then.",
          subjects=("audits.blackbox.pooled.allocate", "audits.blackbox.pooled.pooled_ratio")),
    Entry(paper="folklore", number="Shalev-Shwartz et al. 2010 subsampling",
          statement=("Running any learner on a uniform random m-subset of the n indices of S "
                     "and predicting with its output is (m/n)-uniformly stable in the "
                     "per-query sense of 002 §2 (Shalev-Shwartz, Shamir, Srebro, Sridharan, "
                     "JMLR 2010; 002's baseline B1)."),
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits of B1 (ERM), thresholds on 3 points; γ* = m/n exactly",
                        check_subsample_stability, constant="SUBSAMPLE_STABILITY_SCALE"),),
          notes=("Proof: for S, S'' differing at index i, the subsets without i (probability "
                 "1 − m/n) give the same law; the others move the label law by at most 1. "
                 "Tight for ERM: changing the one sampled example flips the ERM label."),
          subjects=("reference.learners.prediction_baselines.subsample_predictor",)),
    Entry(paper="folklore", number="Disjoint-block averaging",
          statement=("Training a learner on each of k disjoint index blocks of S and answering "
                     "with a uniformly random block's prediction is (1/k)-uniformly stable "
                     "(002 §1, baseline B2)."),
          kind=Kind.FOLKLORE, status=Status.CHECKED,
          checks=(Check("exact audits of B2 (ERM blocks), thresholds on 3 points; γ* = 1/k",
                        check_block_average_stability, constant="BLOCK_STABILITY_SCALE"),),
          notes=("Proof: one example lies in exactly one block, so at most one of the k "
                 "equally likely answers changes."),
          subjects=("reference.learners.prediction_baselines.block_average_predictor",)),
    *ACCOUNTING_ENTRIES,
)
