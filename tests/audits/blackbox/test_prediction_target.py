"""Prediction services as black-box targets: the checks, the exact draws, the PATE services'
verdicts (the misconfigured one flagged, the correct one not), the adversaries, the command."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from privref.app.commands.cli import main
from privref.audits.blackbox import AuditConfig, BlackboxVerdict, run_audit
from privref.audits.blackbox.prediction_adversaries import plan_adversary
from privref.audits.blackbox.prediction_target import (
    LabelOutsideSet,
    NondeterministicPrediction,
    PredictionFitError,
    PredictionService,
    exact_draws,
    exact_loss,
    gaussian_pate_service,
    gnmax_service,
    misconfigured_pate_service,
    prediction_target,
    svt_pate_service,
)
from privref.audits.loss import epsilon_at_delta
from privref.reference.discrete_noise import DiscreteGaussian, difference_tail, upper_tail
from privref.reference.pate import gaussian_pate_at
from privref.reference.program import Distribution
from privref.reference.reals import DEFAULT_PRECISION, Interval, log, rational

K = 5
# votes 3 of 5 on every query (the majority threshold ⌈5/2⌉) against 2 of 5: teacher 0 flipped
EDGE_A = tuple((1,) * 10 if i < 3 else (0,) * 10 for i in range(K))
EDGE_B = tuple((0,) * 10 if i == 0 or i >= 3 else (1,) * 10 for i in range(K))


def _fit(data: tuple[object, ...], rng: np.random.Generator) -> tuple[object, ...]:
    return tuple(data)


def _service(**kw: object) -> PredictionService:
    base: dict[str, object] = {"name": "toy", "fit": _fit,
                               "predict": lambda m, q, rng: int(rng.integers(2)),
                               "labels": frozenset({0, 1})}
    base.update(kw)
    return PredictionService(**base)  # type: ignore[arg-type]


def test_fit_raising_is_a_typed_error_naming_the_service() -> None:
    def refuse(data: object, rng: object) -> object:
        raise ValueError("nope")
    target = prediction_target(_service(fit=refuse, name="refuser"), [0])
    with pytest.raises(PredictionFitError, match=r"fit of service 'refuser' raised .*nope"):
        target.function([0], np.random.default_rng(0))


def test_a_label_outside_the_declared_set_is_refused() -> None:
    target = prediction_target(_service(predict=lambda m, q, rng: 2), [0, 1])
    with pytest.raises(LabelOutsideSet, match=r"answered 2 at query 0, outside its declared"):
        target.function([0], np.random.default_rng(0))
    ok = prediction_target(_service(predict=lambda m, q, rng: 1), [0, 1])
    assert ok.function([0], np.random.default_rng(0)) == (1, 1)


def test_a_batch_label_outside_the_declared_set_is_refused() -> None:
    svc = _service(batch=lambda m, qs, rng, size: np.full(size, 3))
    with pytest.raises(LabelOutsideSet, match="answered 3"):
        prediction_target(svc, [0]).function([0], np.random.default_rng(0), 8)


def test_a_service_claiming_determinism_is_probed() -> None:
    liar = prediction_target(_service(deterministic=True), [0])
    with pytest.raises(NondeterministicPrediction, match="declares deterministic=True"):
        for seed in range(20):  # the probe generator is fixed; some seed disagrees with it
            liar.function([0], np.random.default_rng(seed))
    honest = prediction_target(_service(deterministic=True, predict=lambda m, q, rng: q % 2), [0, 1])
    assert honest.function([0], np.random.default_rng(0)) == (0, 1)


def test_a_batch_service_whose_fit_uses_rng_is_refused() -> None:
    svc = _service(fit=lambda d, rng: int(rng.integers(1 << 30)),
                   batch=lambda m, qs, rng, size: np.zeros(size, dtype=np.int64))
    with pytest.raises(NondeterministicPrediction, match="fit returned two different models"):
        prediction_target(svc, [0]).function([0], np.random.default_rng(0), 4)


class _WideLaw:
    """A two-outcome law whose enclosure of P(1) = 1/3 is loose at low precision, so that many
    draws straddle the boundary and go through the lazy refinement."""

    def __init__(self, prec: int) -> None:
        w = Fraction(1, 16) if prec <= DEFAULT_PRECISION else Fraction(1, 2**prec)
        self.p = Interval(Fraction(1, 3) - w, Fraction(1, 3) + w)

    def support(self) -> tuple[int, int]:
        return (1, 0)

    def items(self) -> list[tuple[int, Interval]]:
        return [(1, self.p), (0, Interval(1 - self.p.hi, 1 - self.p.lo))]


def test_exact_draws_follow_the_law_also_through_refinement() -> None:
    rng = np.random.default_rng(3)
    n = 6000
    draws = exact_draws(lambda p: _WideLaw(p), rng, n)  # type: ignore[arg-type, return-value]
    ones = sum(draws)
    # an exact two-sided binomial test of P(1) = 1/3 at the suite's level; a rule that sent every
    # straddling draw to one side would give 1/3 +- 1/16, about 375 draws off (sd 36.5)
    from scipy import stats as scipy_stats

    from tests.stats import fits

    assert fits(scipy_stats.binomtest(ones, n, 1 / 3).pvalue, "exact_draws through refinement")


def test_gaussian_service_law_is_001_algorithm_1() -> None:
    svc = gaussian_pate_service(1, 2, "1/100000")
    a, b = EDGE_A[:K], EDGE_B[:K]
    one_a = tuple(v[:1] for v in a)
    one_b = tuple(v[:1] for v in b)
    got = exact_loss(svc, one_a, one_b, [0], 0)
    # independently: the bit is 1 with P(Z >= ceil(K/2) - vote); the pure loss of the pair is
    # the larger log ratio over the two labels.  sigma^2 is read from the service's law
    law = svc.law(svc.fit(one_a, np.random.default_rng(0)), (0,), 128)  # type: ignore[misc]
    assert isinstance(law, Distribution)
    p1 = law.prob(1)
    for s2 in range(1, 200):  # find the rational sigma^2 whose tail is P(1) (it is an integer here)
        tail = upper_tail(DiscreteGaussian(Fraction(s2)), 0, 128)
        if isinstance(tail, Interval) and isinstance(p1, Interval) and tail.lo <= p1.hi \
                and p1.lo <= tail.hi:
            break
    mech = gaussian_pate_at(1, s2, "1/100000")
    pa, pb = mech.distribution(one_a), mech.distribution(one_b)
    worst = max(epsilon_at_delta(pa, pb, 0).t_lo, epsilon_at_delta(pb, pa, 0).t_lo)
    assert abs(got.lower - float(log(rational(worst)).enclose(64).lo)) < 1e-9


def test_gnmax_law_is_a_contest_of_two_noisy_counts() -> None:
    svc = gnmax_service(1, 4, "1/1000")
    one = tuple(v[:1] for v in EDGE_A)  # n1 = 3, n0 = 2
    law = svc.law(svc.fit(one, np.random.default_rng(0)), (0,), 128)  # type: ignore[misc]
    expected = difference_tail(DiscreteGaussian(Fraction(4)), DiscreteGaussian(Fraction(4)),
                               2 - 3 + 1, 128)  # P(3 + Z1 > 2 + Z0) = P(Z1 - Z0 >= 0)
    got = law.prob(1)
    assert isinstance(got, Interval) and isinstance(expected, Interval)
    assert got.lo <= expected.hi and expected.lo <= got.hi
    assert got.hi - got.lo < Fraction(1, 2**60)


def _edge(ell: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """K = 5 teachers, every vote 3 (the threshold) against 2: teacher 0's vector flipped."""
    a = tuple((1,) * ell if i < 3 else (0,) * ell for i in range(K))
    b = tuple((0,) * ell if i == 0 or i >= 3 else (1,) * ell for i in range(K))
    return a, b


def test_misconfigured_pate_loses_more_than_it_claims_exactly() -> None:
    a, b = _edge(8)
    bad = misconfigured_pate_service(8, 2, "1/100000")
    truth = exact_loss(bad, a, b, list(range(8)), Fraction(1, 100000))
    assert truth.lower > 2  # refutes eps = 2 already at 8 queries
    good = gaussian_pate_service(8, 2, "1/100000")
    assert exact_loss(good, a, b, list(range(8)), Fraction(1, 100000)).upper < 2


def test_misconfigured_pate_is_flagged() -> None:
    a, b = _edge(16)
    bad = misconfigured_pate_service(16, 2, "1/100000")
    report = run_audit(prediction_target(bad, list(range(16))),
                       AuditConfig(bad.claim, samples=8000, seed=1), [(a, b)])
    assert report.verdict is BlackboxVerdict.VIOLATION


@pytest.mark.deep  # two audits of 30,000 samples of 16-label outcomes, about 10 s
def test_correct_gaussian_pate_is_not_flagged_where_the_misconfigured_one_is() -> None:
    from tests.stats import AUDIT_CONFIDENCE

    a, b = _edge(16)
    good = gaussian_pate_service(16, 2, "1/100000")
    report = run_audit(prediction_target(good, list(range(16))),
                       AuditConfig(good.claim, samples=30_000, seed=1,
                                   confidence=AUDIT_CONFIDENCE), [(a, b)])
    assert report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND


def test_svt_service_answers_jointly_with_bottom() -> None:
    svc = svt_pate_service(3, 1, 2, "1/100000")
    target = prediction_target(svc, [0, 1, 2])
    data = [v[:3] for v in EDGE_A]
    out = target.function(data, np.random.default_rng(0), 50)
    assert isinstance(out, list)
    assert all(isinstance(o, tuple) and 1 <= len(o) <= 3 for o in out)
    assert {y for o in out for y in o} <= {0, 1, "⊥"}


def _libsvm(path: Path, rows: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    lines = []
    for _ in range(rows):
        x = rng.integers(2, size=6)
        y = int(x[0] ^ (rng.random() < 0.2))
        lines.append(f"{y} " + " ".join(f"{j + 1}:1" for j in range(6) if x[j]))
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("adversary", ["natural", "poison", "queries"])
def test_adversaries_give_neighbors_differing_in_one_teacher(tmp_path: Path, adversary: str
                                                             ) -> None:
    _libsvm(tmp_path / "train", 200, 1)
    _libsvm(tmp_path / "test", 100, 2)
    plan = plan_adversary(adversary, train=tmp_path / "train", test=tmp_path / "test",
                          teachers=7, records_per_teacher=2, queries=3, seed=4)
    differ = [k for k in range(7) if plan.a[k] != plan.b[k]]
    assert differ == [plan.teacher]
    assert all(abs(x - y) <= 1 for x, y in zip(plan.votes_a, plan.votes_b, strict=True))
    again = plan_adversary(adversary, train=tmp_path / "train", test=tmp_path / "test",
                           teachers=7, records_per_teacher=2, queries=3, seed=4)
    assert again == plan


def test_query_choosing_adversary_picks_the_smallest_margins(tmp_path: Path) -> None:
    _libsvm(tmp_path / "train", 200, 1)
    _libsvm(tmp_path / "test", 100, 2)
    margins = {}
    for adversary in ("poison", "queries"):
        plan = plan_adversary(adversary, train=tmp_path / "train", test=tmp_path / "test",
                              teachers=7, records_per_teacher=2, queries=3, seed=4)
        margins[adversary] = sum(abs(2 * v - 7) for v in plan.votes_a)
    assert margins["queries"] <= margins["poison"]
    assert margins["queries"] == 3  # three queries at margin 1 (votes 3 or 4 of 7)


def test_command_refuses_a_bad_flag() -> None:
    assert main(["audit-prediction", "gaussian-pate", "--queries", "0"]) == 2


@pytest.mark.deep  # two audits of 20,000 samples of 10-label outcomes, about 4 s
def test_command_exit_codes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    _libsvm(tmp_path / "agaricus.txt.train", 200, 1)
    _libsvm(tmp_path / "agaricus.txt.test", 100, 2)
    monkeypatch.chdir(tmp_path)
    common = ["--data-dir", str(tmp_path), "--teachers", "7", "--samples", "20000",
              "--queries", "16", "--seed", "1"]
    assert main(["audit-prediction", "misconfigured-pate", *common]) == 1
    assert "VIOLATION" in capsys.readouterr().out
    assert main(["audit-prediction", "gaussian-pate", *common, "--confidence",
                 "0.9999999"]) == 0


def test_a_deterministic_batch_that_varies_is_refused() -> None:
    svc = _service(deterministic=True, fit=lambda d, rng: 0,
                   batch=lambda m, qs, rng, size: rng.integers(2, size=size))
    with pytest.raises(NondeterministicPrediction, match="declares deterministic=True"):
        prediction_target(svc, [0]).function([0], np.random.default_rng(0), 64)
    labels = _service(fit=lambda d, rng: 0, labels=frozenset({"a", "b"}),
                      batch=lambda m, qs, rng, size: np.array(["a", "c"] * (size // 2)))
    with pytest.raises(LabelOutsideSet, match="answered 'c'"):
        prediction_target(labels, [0]).function([0], np.random.default_rng(0), 4)


def test_answer_curves_of_randomized_response() -> None:
    """Keep the bit with probability 3/4: D_2 = ln(9/4 + 1/12) = ln(7/3) both ways, and
    mu = Phi^-1(3/4) - Phi^-1(1/4) = 2 * 0.6744897501960817 (the normal quartile)."""
    import math

    from privref.audits.blackbox.prediction_target import answer_curves

    def law(model: int, qs: object, prec: int) -> Distribution[int]:
        keep = Fraction(3, 4)
        return Distribution.from_mapping({model: keep, 1 - model: 1 - keep})

    rr = _service(fit=lambda d, rng: d[0], law=law)
    got = answer_curves(rr, [1], [0], 0, orders=(2,))
    lo, hi = got.renyi[0]
    assert hi is not None and abs(float(lo) - math.log(7 / 3)) < 1e-12
    assert float(hi - lo) < 1e-12
    assert got.mu is not None
    assert abs(float(got.mu[0]) - 2 * 0.6744897501960817) < 1e-9
    assert float(got.mu[1] - got.mu[0]) < 1e-9


def test_command_curves_print_bounds_and_exact_terms(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    _libsvm(tmp_path / "agaricus.txt.train", 200, 1)
    _libsvm(tmp_path / "agaricus.txt.test", 100, 2)
    assert main(["audit-prediction", "gnmax", "--data-dir", str(tmp_path), "--teachers", "7",
                 "--samples", "4000", "--seed", "1", "--curves"]) == 0
    out = capsys.readouterr().out
    assert "mu lower bound" in out and "exact mu on the pair: " in out and "D_2 = " in out
