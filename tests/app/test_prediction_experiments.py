"""``privref experiments`` (paper 002): the loss evaluators equal the predictors' exact laws.

Every evaluator of :mod:`privref.app.experiments.prediction` computes L_P(A, S) from the
predictor's sub-programs given the subset draw.  Averaged over EVERY subset (or every
hypothesis, for Algorithm 3) on tiny instances, it must equal the loss read off
:meth:`Predictor.law` at every query, exactly: ε = 2·ln(3/2) makes every law rational.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

from privref.app.cli import main
from privref.app.experiments import prediction as pe
from privref.reference.concepts import ConceptClass, thresholds_on
from privref.reference.learners import (
    erm,
    flipped_average_predictor,
    generic_predictor,
    private_majority_predictor,
    private_predictor,
    relabel,
    relabel_hypothesis,
    relabel_predictor,
    stable_hypothesis,
    stable_predictor,
    subsample_predictor,
)
from privref.reference.prediction import Predictor
from privref.reference.privacy import parse_epsilon
from privref.reference.program import distribution
from privref.reference.reals import Order, compare, rational
from privref.reference.vc import vc_dimension

EPS = parse_epsilon("2*ln(3/2)")
C3 = thresholds_on(3)
POP = pe.Population(C3, C3[2], Fraction(1, 5))     # target c_2: x < 2, noise 1/5
DATA = ((0, 1), (2, 0), (1, 1), (0, 0), (2, 1))
N = len(DATA)
Q = Fraction(1, 4)


def law_loss(predictor: Predictor) -> Fraction:
    """L_P(A, S) from the exact per-query laws of the predictor's one program."""
    lo, hi = POP.predictor_loss(lambda x: predictor.law(DATA, x).prob(1))
    assert lo == hi
    return lo


def subsets(m: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations(range(N), m))


def exact(bounds: tuple[Fraction, Fraction]) -> Fraction:
    assert bounds[0] == bounds[1]
    return bounds[0]


def test_population_losses_by_hand() -> None:
    """L_P(c_2) = 1/5 (only noise), L_P(c_0) = (4/5 + 4/5 + 1/5)/3 = 3/5; OPT = 1/5."""
    assert POP.loss(C3[2]) == Fraction(1, 5)
    assert POP.loss(C3[0]) == Fraction(3, 5)
    assert POP.opt() == Fraction(1, 5)
    assert exact(pe.flip_loss((Fraction(1, 5), Fraction(1, 5)), Q)) == Q + Fraction(1, 10)


@pytest.mark.parametrize("m", [1, 2, 3])
def test_stable_and_private_evaluators_average_to_the_exact_law(m: int) -> None:
    """Σ_I P(I)·E[L_P(h) | I] is Algorithm 1's loss; the flip identity gives Algorithm 2's."""
    total = Fraction(0)
    for index in subsets(m):
        law = pe.conditional_law(stable_hypothesis, (C3, DATA, m, EPS), index)
        total += exact(pe.hypothesis_loss(POP, law))
    average = total / math.comb(N, m)
    assert average == law_loss(stable_predictor(C3, N, m, EPS))
    assert exact(pe.flip_loss((average, average), Q)) == law_loss(
        private_predictor(C3, N, m, EPS, Q))


def test_subsample_evaluator_averages_to_the_exact_law() -> None:
    """B1: the average over every 2-subset of L_P(ERM(S_I)) is B1's loss."""
    average = sum((POP.loss(erm(C3, tuple(DATA[i] for i in index))) for index in subsets(2)),
                  Fraction(0)) / math.comb(N, 2)
    assert average == law_loss(subsample_predictor(C3, N, 2))


@pytest.mark.parametrize("k", [1, 2, 3])
def test_block_evaluators_equal_the_exact_law(k: int) -> None:
    """B3 (average of block ERMs, then the flip) and B4 (majority) are exact, no draw."""
    hs = [erm(C3, tuple(DATA[i] for i in block)) for block in
          (tuple(range(j * N // k, (j + 1) * N // k)) for j in range(k))]
    mean = sum((POP.loss(h) for h in hs), Fraction(0)) / k
    assert exact(pe.flip_loss((mean, mean), Q)) == law_loss(
        flipped_average_predictor(C3, N, k, Q))
    assert exact(pe.majority_loss(POP, DATA, k, EPS)) == law_loss(
        private_majority_predictor(C3, N, k, EPS))


def test_generic_evaluator_equals_the_exact_law() -> None:
    """B5: the exact law of h over C."""
    assert exact(pe.generic_loss(POP, DATA, EPS)) == law_loss(generic_predictor(C3, N, EPS))


def test_relabel_evaluator_averages_to_the_exact_law() -> None:
    """Algorithm 3: Σ_h P(h)·[flip of B4 on S_h] is the full algorithm's loss."""
    m, k = 2, 2
    hypotheses = distribution(relabel_hypothesis, C3, DATA, m, EPS)
    total = Fraction(0)
    for h, p in hypotheses.items():
        assert isinstance(p, Fraction)
        total += p * exact(pe.flip_loss(pe.majority_loss(POP, relabel(DATA, h), k, EPS), Q))
    assert total == law_loss(relabel_predictor(C3, N, m, EPS, k, EPS, Q))


def test_predictor_loss_draws_are_reproducible() -> None:
    """The same seed gives the same Monte Carlo value; the exact ones ignore the draw."""
    import numpy as np
    par = pe.parameters("alg2", Fraction(1, 5), Fraction(1), 200)
    data = POP.draw(200, np.random.default_rng(1))
    one = pe.predictor_loss("alg2", POP, data, par, np.random.default_rng(5))
    two = pe.predictor_loss("alg2", POP, data, par, np.random.default_rng(5))
    assert one == two and one[1]
    assert one[0][0] <= one[0][1]


def test_unions_of_two_intervals_have_vc_four_by_brute_force() -> None:
    """1 + C(11, 2) + C(11, 4) = 386 sets with at most two runs on 10 points; VC 4."""
    C = pe.unions_of_two_intervals(10)
    assert isinstance(C, ConceptClass)
    assert len(C) == 1 + math.comb(11, 2) + math.comb(11, 4)
    assert vc_dimension(C) == 4
    assert [c.vc for c in pe.experiment_classes()] == [1, 2, 4]


@pytest.mark.parametrize("key", ["alg1", "alg2", "alg3", "b1", "b3", "b4", "b5"])
def test_parameter_choices_meet_the_target_exactly(key: str) -> None:
    """At n = 4000, α = 1/10, ε = 1 every proved run meets its target (decided exactly)."""
    alpha, eps, n = Fraction(1, 10), Fraction(1), 4000
    par = pe.parameters(key, alpha, eps, n)
    predictor = pe.build_predictor(key, thresholds_on(4), n, par)
    proved = pe.proved_epsilon(key, predictor, n, par)
    target = alpha * eps / 2 if key in ("alg1", "b1") else eps
    assert compare(proved, rational(target))[0] in (Order.LESS, Order.EQUAL)


def test_paper_rate_constants_are_not_proved_private() -> None:
    """Algorithm 3 with m = εn/8 exceeds ε under every bound proved here (reported, not hidden)."""
    alpha, eps, n = Fraction(1, 10), Fraction(1), 4000
    par = pe.parameters("alg3_rate", alpha, eps, n)
    predictor = pe.build_predictor("alg3_rate", thresholds_on(4), n, par)
    assert compare(pe.proved_epsilon("alg3_rate", predictor, n, par), 1)[0] is Order.GREATER


def test_n_grid() -> None:
    assert pe.n_grid(100) == (16, 23, 32, 45, 64, 91, 100)
    assert pe.n_grid(64) == (16, 23, 32, 45, 64)
    assert pe.n_grid(pe.MAX_N)[-1] == 100_000


def test_quick_command_writes_json_and_png(tmp_path: Path) -> None:
    """``privref experiments --quick`` records seed, versions and parameters; PNG written."""
    assert main(["experiments", "--quick", "--quiet", "--seed", "3",
                 "--out", str(tmp_path)]) == 0
    payload = json.loads((tmp_path / "prediction-sample-complexity.json").read_text())
    assert payload["seed"] == 3 and payload["versions"]["privref"]
    assert payload["command"] == ("privref experiments --quick --noise 1/10 --epsilon 1 "
                                  "--seed 3 --out DIR")
    assert str(tmp_path) not in json.dumps(payload)
    assert payload["config"]["quick"] is True
    assert payload["classes"][0]["vc_brute_force"] == 1
    assert {r["predictor"] for r in payload["n_star"]} == set(payload["config"]["predictors"])
    assert all("parameters" in r and "proved_meets_target" in r for r in payload["rows"])
    assert (tmp_path / "prediction-sample-complexity.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(("n", "m", "k", "eps1"), [(2, 1, 2, "2*ln(11/10)"),
                                                   (3, 1, 2, "2*ln(11/10)"),
                                                   (3, 2, 3, "2*ln(11/10)"),
                                                   (2, 1, 1, "2*ln(3/2)")])
def test_relabel_pure_epsilon_holds_under_the_exact_audit(n: int, m: int, k: int,
                                                          eps1: str) -> None:
    """The (ε₀, δ) + flip bound used to call Algorithm 3 runs "proved" HOLDS as a pure claim
    over every neighboring pair of all datasets of size n on 2 points (exact audit), and it
    is the closed form ln(e^{ε₀} + (1 − 2q)δ/q), with δ > 0 in the first three cases
    (ε₂ = 2·ln 2 and k >= 2 put kε₂/2 above ε₀)."""
    from privref.audits.prediction import audit_prediction
    from privref.reference.learners import relabel_core_privacy
    from privref.reference.neighbors import Universe
    from privref.reference.prediction import PrivatePrediction
    from privref.reference.reals import exp
    from privref.reference.verdict import Verdict

    T2 = thresholds_on(2)
    e1, e2 = parse_epsilon(eps1), parse_epsilon("2*ln(2)")
    bound = pe.relabel_pure_epsilon(n, m, e1, k, e2, Q)
    core = relabel_core_privacy(n, m, e1, k, e2)
    assert (core.delta > 0) == (k >= 2)
    base = exp(core.epsilon).exact
    assert base is not None
    assert exp(bound).exact == base + core.delta * (1 - 2 * Q) / Q
    full = relabel_predictor(T2, n, m, e1, k, e2, Q)
    examples = tuple((x, y) for x in (0, 1) for y in (0, 1))
    report = audit_prediction(full, Universe(examples, (n,)), (0, 1),
                              claim=PrivatePrediction(bound))
    assert report.verdict is Verdict.HOLDS
