"""Sequential black-box audits (privref.audits.blackbox.sequential): the schedule, the exact alpha
spending and its union bound, early stopping, reproducibility, the API and the command line.

Reference values are derived by hand from the rule stated in the module (not read off the code):
the schedule of 10^5 from 1000 is 1000, 2000, 4000, 8000, 16000 (63,000 left after 31,000 is
spent, 69,000 < 2·32,000... so the last round takes the 69,000 left).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from privref.app.blackbox_cli import configure_parser, run
from privref.audits.blackbox import sequential as seqmod
from privref.audits.blackbox.api import assert_private
from privref.audits.blackbox.report import BlackboxVerdict
from privref.audits.blackbox.runner import AuditConfig, sample_pair
from privref.audits.blackbox.search import Pair, SearchSpace
from privref.audits.blackbox.sequential import (
    check_spending,
    default_first_round,
    round_seed,
    run_sequential_audit,
    schedule,
    spending,
)
from privref.audits.blackbox.target import target_from_callable
from privref.reference.errors import InvalidArgument

from ...stats import AUDIT_CONFIDENCE

PAIRS: list[Pair] = [((0,), (1,))]


def rr_vec(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
    """Randomized response keeping its bit with probability 3/4: exactly ln 3-DP."""
    return np.where(rng.random(size) < 0.75, data[0], 1 - data[0])


RR = target_from_callable(rr_vec, "rr_vec")


def _config(epsilon: str, samples: int, seed: int = 1,
            confidence: Fraction = AUDIT_CONFIDENCE) -> AuditConfig:
    return AuditConfig(epsilon=epsilon, samples=samples, seed=seed, confidence=confidence,
                       relation="substitution")


# ---------------------------------------------------------------------------- the schedule


def test_schedule_doubles_and_spends_exactly_the_budget() -> None:
    assert schedule(100_000, 1000) == (1000, 2000, 4000, 8000, 16000, 69000)
    assert schedule(20_000, 1000) == (1000, 2000, 4000, 13000)
    assert schedule(4000, 250) == (250, 500, 1000, 2250)
    assert schedule(5, 5) == (5,) and schedule(2, 2) == (2,)
    for budget, first in ((10**10, 2), (10**6, 977), (12345, 17), (3, 2)):
        sizes = schedule(budget, first)
        assert sum(sizes) == budget
        assert sizes[0] == first if budget >= 3 * first else sizes == (budget,)
        assert all(b == 2 * a for a, b in itertools.pairwise(sizes[:-1]))
        if len(sizes) > 1:  # the last round: at least the doubling, below three times it
            assert 2 * sizes[-2] <= sizes[-1] < 6 * sizes[-2]
    assert len(schedule(10**10, 2)) <= seqmod.MAX_ROUNDS
    assert default_first_round(100_000) == 1000 and default_first_round(10**8) == 97656
    assert default_first_round(500) == 500


@pytest.mark.parametrize(("budget", "first", "match"), [
    (1000, 1001, r"first_round.*1001 exceeds the budget samples=1000: no budget left"),
    (1000, 1, r"first_round.*=1 must be an int >= 2"),
    (1, 1, r"samples=1: a sequential run has no budget left"),
    (1000, 2.5, r"first_round=2.5 must be an int"),
    (1000, True, r"first_round=True must be an int"),
])
def test_schedule_refuses_nonsense(budget: int, first: object, match: str) -> None:
    with pytest.raises(InvalidArgument, match=match):
        schedule(budget, first)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- the spending


def test_spending_sums_to_at_most_alpha_exactly() -> None:
    for alpha in (Fraction(1, 20), Fraction(1, 10**7), Fraction(1, 3)):
        for rounds in (1, 2, 6, 33):
            alphas = spending(alpha, rounds)
            assert len(alphas) == rounds and all(isinstance(a, Fraction) for a in alphas)
            assert sum(alphas, Fraction(0)) <= alpha
            assert all(a > 0 for a in alphas)
            check_spending(alphas, alpha)


def test_broken_spending_is_refused_before_any_draw() -> None:
    """Every round given the whole alpha: the union bound would be R·alpha."""
    alpha = Fraction(1, 20)
    with pytest.raises(InvalidArgument, match=r"spending sums to 3/20 > alpha"):
        check_spending((alpha,) * 3, alpha)
    calls = []

    def counted(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
        calls.append(size)
        return rr_vec(data, rng, size)

    with pytest.raises(InvalidArgument, match=r"spending sums to"):
        run_sequential_audit(counted, _config("1", 20_000), PAIRS,
                             _spending=lambda a, r: (a,) * r)
    assert calls == []


@dataclass(frozen=True)
class _Round:
    """A stand-in for one round's report: just what the sequential driver reads."""

    verdict: BlackboxVerdict
    epsilon_lower_bound: float
    seed: int
    confidence: Fraction
    pairs: tuple[object, ...] = ()
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    elapsed_seconds: float = 0.0
    witness_samples: object = None
    sequential: object = None


def _calibrated_round(target: object, config: AuditConfig, pairs: object,
                      **_: object) -> _Round:
    """A round that raises a false alarm with probability exactly its alpha = 1 - confidence:
    u uniform on [0, 1) from the round's own seed (a dyadic double, compared exactly)."""
    u = Fraction(float(np.random.default_rng(config.seed).random()))
    alarm = u < 1 - config.confidence
    return _Round(BlackboxVerdict.VIOLATION if alarm else BlackboxVerdict.NO_VIOLATION_FOUND,
                  1.0 if alarm else 0.0, config.seed, config.confidence)


def _alarms(monkeypatch: pytest.MonkeyPatch, broken: bool, runs: int) -> int:
    monkeypatch.setattr(seqmod, "run_audit", _calibrated_round)
    if broken:  # the check is what stops a broken spending: bypass it to see the harm
        monkeypatch.setattr(seqmod, "check_spending", lambda alphas, alpha: None)
    alarms = 0
    for seed in range(runs):
        report = run_sequential_audit(
            RR, AuditConfig(epsilon=1, samples=100_000, seed=seed, confidence=Fraction(19, 20)),
            PAIRS, _spending=(lambda a, r: (a,) * r) if broken else spending)
        alarms += report.verdict is BlackboxVerdict.VIOLATION
    return alarms


def test_union_bound_holds_and_a_broken_spending_breaks_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Six rounds at alpha = 1/20, each round alarming with probability exactly its alpha_r
    (a stand-in round, independent across rounds through their seeds): the uniform spending
    alarms with probability 1 - (1 - 1/120)^6 = 0.0489 <= 1/20; the whole alpha on every round,
    with 1 - (19/20)^6 = 0.265."""
    runs = 200
    good = _alarms(monkeypatch, False, runs)
    bad = _alarms(monkeypatch, True, runs)
    # means 9.8 and 53.0: P(Bin(200, 0.0489) > 25) < 1e-5, P(Bin(200, 0.265) <= 25) < 1e-5
    assert good <= 25 < bad, (good, bad)


# ---------------------------------------------------------------------------- runs


def test_gross_violation_stops_early() -> None:
    """ln 3 against a claim of 1/4 (4.4x): flagged long before the budget of 10^5."""
    report = run_sequential_audit(RR, _config("1/4", 100_000), PAIRS)
    q = report.sequential
    assert q is not None and report.verdict is BlackboxVerdict.VIOLATION
    assert q.stopped_on == "violation" and len(q.rounds) <= 3
    assert report.samples_used == sum(r.samples for r in q.rounds) <= 7000
    assert q.schedule == (1000, 2000, 4000, 8000, 16000, 69000)
    assert report.samples == q.rounds[-1].samples  # the stopping round's own size
    assert 0.25 < q.bound_at_stop <= math.log(3) and report.epsilon_lower_bound == q.bound_at_stop
    # the stopping round's pairs are bounded at alpha_r / (pairs): 1 pair here
    confirmed = [p for p in report.pairs if p.stage == "confirmation"]
    assert all(p.alpha == (1 - AUDIT_CONFIDENCE) / len(q.schedule) for p in confirmed)
    assert report.confidence == AUDIT_CONFIDENCE and report.seed == 1


def test_correct_mechanism_runs_to_the_budget() -> None:
    report = run_sequential_audit(RR, _config("ln(3)", 20_000), PAIRS)
    q = report.sequential
    assert q is not None and report.verdict is BlackboxVerdict.NO_VIOLATION_FOUND
    assert q.stopped_on == "budget" and len(q.rounds) == len(q.schedule) == 4
    assert report.samples_used == 20_000 and q.draws == 2 * 20_000
    assert all(r.verdict == "NO_VIOLATION_FOUND" for r in q.rounds)
    assert report.epsilon_lower_bound == max(r.epsilon_lower_bound for r in q.rounds)
    assert report.epsilon_lower_bound <= math.log(3)


def test_reproducible_from_the_seed() -> None:
    def strip(payload: dict[str, object]) -> dict[str, object]:
        return {k: v for k, v in payload.items() if k != "elapsed_seconds"}

    one = run_sequential_audit(RR, _config("ln(3)", 6000, seed=5), PAIRS)
    two = run_sequential_audit(RR, _config("ln(3)", 6000, seed=5), PAIRS)
    other = run_sequential_audit(RR, _config("ln(3)", 6000, seed=6), PAIRS)
    assert strip(one.to_json()) == strip(two.to_json())
    assert one.sequential is not None and other.sequential is not None
    seeds = [r.seed for r in one.sequential.rounds]
    assert seeds == [round_seed(5, r) for r in range(len(seeds))]
    assert len(set(seeds)) == len(seeds) and 5 not in seeds
    assert all(0 <= s < 2**128 for s in seeds)
    assert seeds != [r.seed for r in other.sequential.rounds]


def test_pair_search_and_screening_run_inside_each_round() -> None:
    """No pairs: every round searches, screens its candidates and confirms the best on fresh
    samples; samples_used counts the confirmed pairs' samples, draws every outcome."""
    config = AuditConfig(epsilon="1/4", samples=20_000, seed=2, relation="substitution",
                         confidence=AUDIT_CONFIDENCE,
                         search=SearchSpace(elements=(0, 1), sizes=(1, 2)))
    report = run_sequential_audit(RR, config, None)
    q = report.sequential
    assert q is not None and report.verdict is BlackboxVerdict.VIOLATION
    stages = [p.stage for p in report.pairs]
    assert report.candidates > config.confirm and "screening" in stages
    assert report.samples_used == sum(r.samples for r in q.rounds) < 20_000
    assert q.draws == sum(2 * p.samples for p in report.pairs)  # one round: its draws
    assert len(q.rounds) == 1 and q.draws > 2 * report.samples_used


def test_given_screening_is_scaled_to_the_round() -> None:
    """9090 per pair for a budget of 10^5: round n screens on n·9090/10^5 (90, 1454, 6272),
    at least 2; None stays run_audit's default."""
    big = AuditConfig(epsilon=1, samples=100_000, screening_samples=9090)
    assert [seqmod._screening(big, n) for n in (1000, 16000, 69000)] == [90, 1454, 6272]
    assert seqmod._screening(AuditConfig(epsilon=1, samples=100_000, screening_samples=3), 10) == 2
    assert seqmod._screening(AuditConfig(epsilon=1, samples=100_000), 1000) is None


def test_checkpoint_is_refused(tmp_path: Path) -> None:
    config = AuditConfig(epsilon=1, samples=2000, checkpoint=tmp_path / "c.jsonl")
    with pytest.raises(InvalidArgument, match=r"checkpoint.*sequential"):
        run_sequential_audit(RR, config, PAIRS)


# ---------------------------------------------------------------------------- API and CLI


def test_assert_private_sequential() -> None:
    with pytest.raises(AssertionError, match=r"sequential: 1000 of 100000 samples per side"):
        assert_private(rr_vec, epsilon="1/8", pairs=PAIRS, samples=100_000, sequential=True,
                       relation="substitution", confidence=AUDIT_CONFIDENCE)
    with pytest.raises(InvalidArgument, match=r"first_round=500 needs sequential=True"):
        assert_private(rr_vec, epsilon="1", pairs=PAIRS, samples=6000, first_round=500)
    with pytest.raises(InvalidArgument, match=r"exceeds the budget samples=6000"):
        assert_private(rr_vec, epsilon="1", pairs=PAIRS, samples=6000, sequential=True,
                       first_round=7000)


RR_FILE = """
import numpy as np

def rr_vec(data, rng, size):
    return np.where(rng.random(size) < 0.75, data[0], 1 - data[0])
"""


def test_cli_sequential_flag_and_json(tmp_path: Path) -> None:
    path = tmp_path / "rr_seq.py"
    path.write_text(RR_FILE, encoding="utf-8")
    out = tmp_path / "r.json"
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    args = parser.parse_args([f"{path}:rr_vec", "--epsilon", "1/8", "--pair", "[0]", "[1]",
                              "--relation", "substitution", "--seed", "3", "--workers", "1",
                              "--quiet", "--sequential", "--first-round", "500",
                              "--confidence", "0.9999999", "--json", str(out)])
    assert run(args) == 1
    report = json.loads(out.read_text())
    q = report["sequential"]
    assert report["verdict"] == "VIOLATION" and report["seed"] == 3
    assert q["schedule"][:3] == [500, 1000, 2000] and sum(q["schedule"]) == 100_000
    assert report["samples_used"] == sum(r["samples"] for r in q["rounds"]) < 100_000
    assert q["stopped_on"] == "violation" and q["rounds_run"] == len(q["rounds"])
    assert q["stopped_round"] == q["rounds_run"] - 1 and q["first_round"] == 500
    assert all(Fraction(a) == Fraction(1, 10**7) / len(q["schedule"]) for a in q["spending"])
    assert q["bound_at_stop"] == report["epsilon_lower_bound"]
    fixed = parser.parse_args([f"{path}:rr_vec", "--epsilon", "ln(3)", "--pair", "[0]", "[1]",
                               "--relation", "substitution", "--seed", "3", "--workers", "1",
                               "--quiet", "--samples", "2000", "--json", str(out)])
    assert run(fixed) == 0
    report = json.loads(out.read_text())
    assert report["sequential"] is None and report["samples_used"] == 2000


# ---------------------------------------------------------------------------- carried selection


def same_vec(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
    """Uniform doubles whatever the data (0-DP): every outcome is distinct with probability 1,
    so which draws an audit read can be told apart by their values."""
    return rng.random(size) + 0 * data[0]


SAME = target_from_callable(same_vec, "same_vec")
SMALL = (300, 600, 2100)
"""schedule(3000, 300) by the rule: 300 (2700 left >= 600), 600 (2100 left < 2·1200: the last
round takes it); every round below POOLED_MIN, so no dealing: a round bounds all it draws."""


def _rounds(monkeypatch: pytest.MonkeyPatch, config: AuditConfig, **kw: object
            ) -> tuple[list[object], list[tuple[int, np.ndarray, np.ndarray]]]:
    """Run a sequential audit recording every round's report and every selection split read by
    the event selection (the round it was read in, both sides)."""
    from privref.audits.blackbox import estimate, runner

    reports: list[object] = []
    seen: list[tuple[int, np.ndarray, np.ndarray]] = []
    real_run, real_plan = runner.run_audit, estimate.plan_views

    def run_round(*args: object, **kwargs: object) -> object:
        out = real_run(*args, **kwargs)  # type: ignore[arg-type]
        reports.append(out)
        return out

    def plan(sel_a: np.ndarray, sel_b: np.ndarray, **kwargs: object) -> object:
        seen.append((len(reports), np.array(sel_a), np.array(sel_b)))
        return real_plan(sel_a, sel_b, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(seqmod, "run_audit", run_round)
    monkeypatch.setattr(runner, "plan_views", plan)  # the name the event planner calls
    run_sequential_audit(SAME, config, PAIRS, first_round=300, **kw)  # type: ignore[arg-type]
    return reports, seen


def test_later_rounds_select_on_earlier_rounds_and_bound_on_all_their_draws(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 0 splits 300 as 150/150; round r >= 1 selects on the n_0 + ... + n_{r-1} outcomes
    of the earlier rounds (300, then 900) and bounds on all of its own n_r (600, 2100)."""
    reports, _ = _rounds(monkeypatch, _config("1", 3000))
    final = reports[-1]
    assert len(reports) == 3
    for r, (report, n, carried) in enumerate(zip(reports, SMALL, (0, 300, 900), strict=True)):
        confirmed = [p for p in report.pairs if p.stage == "confirmation"]  # type: ignore[attr-defined]
        assert confirmed
        for p in confirmed:
            counts = p.estimate.counts
            held, selection = (n - n // 2, n // 2) if r == 0 else (n, carried)
            assert (counts["held_out_a"], counts["held_out_b"]) == (held, held)
            assert (counts["selection_a"], counts["selection_b"]) == (selection, selection)
    seq = run_sequential_audit(SAME, _config("1", 3000), PAIRS, first_round=300).sequential
    assert seq is not None
    assert [(q.selection, q.carried) for q in seq.rounds] == [
        ("split", 0), ("earlier rounds", 300), ("earlier rounds", 900)]
    assert seq.rounds[1].to_json()["selection"] == "earlier rounds"
    assert final is not None


def _draws_of(r: int, n: int, seed: int = 1) -> np.ndarray:
    """Round r's own confirmation draws, both sides, redrawn as run_audit draws them."""
    a, b = sample_pair(SAME, PAIRS[0], samples=n, seed=round_seed(seed, r), stage=1, index=0)
    return np.concatenate([np.asarray(a.values), np.asarray(b.values)])


def test_a_round_never_selects_on_its_own_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every outcome the event selection of round r >= 1 read was drawn by an earlier round and
    none by round r itself (the draws are distinct doubles, redrawn from the rounds' seeds);
    round 0 reads the first half of its own draws.  Also with a selection cap of 700 (room
    700 // confirm = 233 per side: the carried sample is the earlier rounds' first 233)."""
    for config, room in ((_config("1", 3000), None),
                         (replace(_config("1", 3000), selection_cap=700), 700 // 3)):
        _, seen = _rounds(monkeypatch, config)
        monkeypatch.undo()
        own = [_draws_of(r, n) for r, n in enumerate(SMALL)]
        assert sorted({r for r, _a, _b in seen}) == [0, 1, 2]
        for r, sel_a, sel_b in seen:
            read = np.concatenate([sel_a, sel_b])
            if r == 0:
                half = SMALL[0] // 2
                a, b = sample_pair(SAME, PAIRS[0], samples=SMALL[0], seed=round_seed(1, 0))
                assert np.array_equal(sel_a, np.asarray(a.values)[:half])
                assert np.array_equal(sel_b, np.asarray(b.values)[:half])
                continue
            earlier = np.concatenate(own[:r])
            assert not np.isin(read, own[r]).any(), f"round {r} read its own draws"
            assert np.isin(read, earlier).all()
            expected = sum(SMALL[:r]) if room is None else min(room, sum(SMALL[:r]))
            assert len(sel_a) == len(sel_b) == expected


def test_carried_selection_is_reproducible_and_leaves_round_zero_alone() -> None:
    """Same seed, same report (every round's bound and selection); round 0 is the same audit
    with or without carrying (it splits as before); carry=False is the old path, every round
    split."""
    def strip(payload: dict[str, object]) -> dict[str, object]:
        return {k: v for k, v in payload.items() if k != "elapsed_seconds"}

    one = run_sequential_audit(RR, _config("ln(3)", 6000, seed=5), PAIRS)
    two = run_sequential_audit(RR, _config("ln(3)", 6000, seed=5), PAIRS)
    old = run_sequential_audit(RR, _config("ln(3)", 6000, seed=5), PAIRS, carry=False)
    assert strip(one.to_json()) == strip(two.to_json())
    assert one.sequential is not None and old.sequential is not None
    assert one.sequential.rounds[0] == old.sequential.rounds[0]
    # schedule(6000, 1000) = (1000, 5000): 4000 < 2·2000 is left after 1000 + 2000
    assert [(q.selection, q.carried) for q in one.sequential.rounds] == [
        ("split", 0), ("earlier rounds", 1000)]
    assert {q.selection for q in old.sequential.rounds} == {"split"}


def test_low_power_of_a_carried_last_round_counts_all_its_draws() -> None:
    """Rounds (40, 200), alpha = 10^-7 (AUDIT_CONFIDENCE), two rounds: alpha_r = alpha/2, one
    pair: alpha_r/2 = 1/(4 10^7) per side.  Bounding 100 draws (a split) gives at most ratio
    a/(1 - a) with a = (1/(4 10^7))^(1/100) = 0.8395, 5.2 < e^2: LOW-POWER; bounding all 200
    (carried selection) gives a = 0.9162, 10.9 > e^2: no warning."""
    def run(carry: bool) -> tuple[list[str], tuple[str, ...]]:
        got: list[str] = []
        config = _config("2", 240)
        report = run_sequential_audit(RR, config, PAIRS, first_round=40, carry=carry,
                                      on_warning=got.append)
        assert report.sequential is not None and len(report.sequential.rounds) == 2
        return ([g for g in got if g.startswith("LOW-POWER")],
                tuple(w for w in report.warnings if w.startswith("LOW-POWER")))

    assert run(True) == ([], ())
    split, in_report = run(False)
    assert len(split) == 1 and "100 of 100 held-out draws" in split[0] and in_report == tuple(split)
