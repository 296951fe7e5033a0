"""The black-box auditor under bad input: relations, group privacy, limits, timeouts,
checkpoint integrity, LOW-POWER, exact floats, floating-point leaks."""

from __future__ import annotations

import math
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from privref.audits.blackbox.api import assert_private
from privref.audits.blackbox.estimate import bound_ratio, estimate_pair, exceeds
from privref.audits.blackbox.runner import (
    MAX_SAMPLES,
    MAX_WORKERS,
    AuditConfig,
    CheckpointError,
    audited_claim,
    check_pairs,
    low_power,
    run_audit,
)
from privref.audits.blackbox.target import TargetTimeout, target_from_callable
from privref.audits.stats import cp_lower, cp_upper
from privref.reference.errors import InvalidArgument, NotNeighboring, PrivrefError
from privref.reference.neighbors import AddRemove, LInf, Substitution, relation_distance
from privref.reference.privacy import PrivacyClaim, group_privacy
from privref.reference.reals import Order, compare, exp, log, rational

from ...stats import AUDIT_CONFIDENCE


def rr(data: list[int], rng: np.random.Generator) -> int:
    b = data[0]
    return b if rng.random() < 0.75 else 1 - b


def laplace_count(data: list[int], rng: np.random.Generator) -> float:
    return float(sum(data) + rng.laplace(0.0, 1.0))


def sleepy(data: list[int], rng: np.random.Generator) -> int:
    time.sleep(3600)
    return 0


def config(**kw: object) -> AuditConfig:
    base: dict[str, object] = {"confidence": AUDIT_CONFIDENCE,
                               "epsilon": log(3), "samples": 2000, "seed": 1, "workers": 1}
    base.update(kw)
    return AuditConfig(**base)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- relations

def test_pair_must_be_neighboring_under_the_chosen_relation() -> None:
    with pytest.raises(NotNeighboring, match=r"pair \[0, 0, 0\] vs \[1, 1, 1\] is not neighboring "
                                             r"under substitution"):
        check_pairs([((0, 0, 0), (1, 1, 1))], Substitution())
    with pytest.raises(NotNeighboring, match=r"not neighboring under add-remove"):
        check_pairs([((0,), (1,))], AddRemove())
    assert check_pairs([((0, 0, 0), (1, 1, 1))], LInf()) == ([((0, 0, 0), (1, 1, 1))], 0)
    # the old behaviour: a substitution-false pair gave VIOLATION; now it never reaches a verdict
    with pytest.raises(NotNeighboring):
        run_audit(target_from_callable(laplace_count), config(relation=Substitution()),
                  [((0, 0, 0), (1, 1, 1))])


def test_group_privacy_accepts_pairs_within_k_and_tests_the_group_claim() -> None:
    assert check_pairs([((0, 0, 0), (1, 1, 1))], Substitution(), 3)[0] == [((0, 0, 0), (1, 1, 1))]
    with pytest.raises(NotNeighboring, match=r"at distance 3 under substitution.*--group 2"):
        check_pairs([((0, 0, 0), (1, 1, 1))], Substitution(), 2)
    assert relation_distance(AddRemove(), (0, 1), (1, 0)) == 2
    assert relation_distance(Substitution(), (0,), (0, 1)) is None
    eps3, delta3 = audited_claim(config(epsilon=rational(1), group=3))
    assert eps3.exact == 3 and delta3 == 0
    eps, delta = audited_claim(config(epsilon=rational(1), delta=Fraction(1, 100), group=2))
    expected = group_privacy(PrivacyClaim(rational(1), Fraction(1, 100)), 2)
    assert str(eps) == str(expected.epsilon) and delta == expected.delta
    with pytest.raises(InvalidArgument, match=r"--group=3 with delta=1/2: .*vacuous"):
        audited_claim(config(epsilon=rational(1), delta=Fraction(1, 2), group=3))
    report = run_audit(target_from_callable(laplace_count),
                       config(epsilon=rational(1), relation=Substitution(), group=3,
                              float_events=False), [((0, 0, 0), (1, 1, 1))])
    assert report.tested_epsilon is not None and report.tested_epsilon.exact == 3
    assert report.group == 3
    assert "group privacy    pairs within distance 3: tested (3, 0)-DP" in report.summary()


def test_duplicates_are_dropped_with_a_warning_and_nonfinite_refused() -> None:
    pairs, dropped = check_pairs([((0,), (1,)), ((0,), (1,)), ((1,), (0,))], Substitution())
    assert pairs == [((0,), (1,))] and dropped == 2
    warned: list[str] = []
    report = run_audit(target_from_callable(rr), config(relation=Substitution()),
                       [((0,), (1,)), ((0,), (1,))], on_warning=warned.append)
    assert warned[0].startswith("1 duplicate pair(s) removed") and warned[0] in report.warnings
    assert report.candidates == 1
    with pytest.raises(InvalidArgument, match=r"entries must be finite"):
        check_pairs([((math.inf,), (0,))], Substitution())


# ---------------------------------------------------------------------------- limits

def test_limits_are_errors_naming_the_argument() -> None:
    with pytest.raises(InvalidArgument, match=r"samples=10\*\*12 must be <= 10\*\*10"):
        config(samples=10**12)
    assert MAX_SAMPLES == 10**10
    # keeping every outcome (a custom estimator, the HTML report's samples) is limited further
    with pytest.raises(InvalidArgument, match=r"samples=10\*\*9: a custom estimator keeps every "
                                              r"outcome, so samples must be <= 10\*\*8"):
        run_audit(target_from_callable(rr, "rr"), config(samples=10**9), [((0,), (1,))],
                  estimator=estimate_pair)
    with pytest.raises(InvalidArgument, match=r"the HTML report's samples keeps every outcome"):
        run_audit(target_from_callable(rr, "rr"), config(samples=10**9), [((0,), (1,))],
                  keep_witness_samples=True)
    with pytest.raises(InvalidArgument, match=r"backend='spark' must be one of local, dask"):
        config(backend="spark")
    with pytest.raises(InvalidArgument, match=r"scheduler='tcp://x:1' needs backend='dask'"):
        config(scheduler="tcp://x:1")
    with pytest.raises(InvalidArgument, match=r"selection_cap=0 must be an int >= 1"):
        config(selection_cap=0)
    with pytest.raises(InvalidArgument, match=rf"workers={MAX_WORKERS + 1} must be <= {MAX_WORKERS}"):
        config(workers=MAX_WORKERS + 1)
    with pytest.raises(InvalidArgument, match=r"confidence=.* must be <= 1 - 10\*\*-15"):
        config(confidence=1 - Fraction(1, 10**17))
    config(confidence=1 - Fraction(1, 10**15))  # the limit itself is fine
    with pytest.raises(InvalidArgument, match=r"timeout=0 must be a number of seconds > 0"):
        config(timeout=0)


def test_a_call_that_never_returns_times_out_in_process_and_in_the_pool() -> None:
    start = time.monotonic()
    with pytest.raises(TargetTimeout, match=r"target sleepy did not return within the per-call "
                                            r"limit timeout=0.3 s on data=\[0\]"):
        run_audit(target_from_callable(sleepy, "sleepy"), config(timeout=0.3), [((0,), (1,))])
    assert time.monotonic() - start < 30
    fast = target_from_callable(rr, "rr")  # the probe runs in-process; the pool draws afterwards
    slow_in_pool = target_from_callable(_SlowInWorkers(), "slow")
    run_audit(fast, config(workers=2, timeout=5), [((0,), (1,)), ((0, 0), (1, 0))])
    with pytest.raises(TargetTimeout, match=r"slow did not return.*timeout=0.3"):
        run_audit(slow_in_pool, config(workers=2, timeout=0.3, samples=4000, chunk_size=1000),
                  [((0,), (1,)), ((0, 0), (1, 0))])


class _SlowInWorkers:
    """Fast in the parent (the randomness probe), stuck in worker processes."""

    def __init__(self) -> None:
        import os
        self.parent = os.getpid()

    def __call__(self, data: list[int], rng: np.random.Generator) -> int:
        import os
        if os.getpid() != self.parent:
            time.sleep(3600)
        return rr(data, rng)


# ---------------------------------------------------------------------------- statistics

def test_low_power_is_derived_exactly() -> None:
    cfg = config(samples=2, epsilon=rational(1))
    message = low_power(cfg, 1)
    assert message is not None and message.startswith("LOW-POWER: samples=2 per side")
    # the most extreme counts (1 of 1 vs 0 of 1 held-out draw) and their exact ratio
    ratio = (cp_lower(1, 1, Fraction(1, 40)) - 0) / cp_upper(0, 1, Fraction(1, 40))
    assert ratio == bound_ratio(1, 1, 0, 1, delta=Fraction(0), alpha_side=Fraction(1, 40))
    assert compare(rational(ratio), exp(rational(1)))[0] is not Order.GREATER
    assert low_power(config(samples=20_000, epsilon=rational(1)), 3) is None
    report = run_audit(target_from_callable(rr), config(samples=2, epsilon=rational(1)),
                       [((0,), (1,))])
    assert any(w.startswith("LOW-POWER") for w in report.warnings)


def test_huge_epsilon_never_forms_e_to_the_epsilon() -> None:
    start = time.monotonic()
    assert not exceeds(Fraction(10**6), rational(10**9))
    assert not exceeds(Fraction(10**6), log(3) * 10**9)
    assert exceeds(Fraction(4), log(3))
    a = np.arange(1000) % 2
    est = estimate_pair(a, 1 - a, epsilon=log(3) * 10**9, delta=0, alpha=Fraction(1, 20))
    assert est.violation is False
    assert low_power(config(samples=1000, epsilon=rational(10**9)), 1) is not None
    assert time.monotonic() - start < 20


# ---------------------------------------------------------------------------- checkpoint

def _checkpointed(path: Path) -> AuditConfig:
    return config(epsilon=rational(2), samples=400, seed=3, chunk_size=100, checkpoint=path)


def test_checkpoint_refuses_a_flipped_byte_and_a_truncation(tmp_path: Path) -> None:
    assert issubclass(CheckpointError, PrivrefError)
    path = tmp_path / "cp.jsonl"
    target = target_from_callable(rr)
    first = run_audit(target, _checkpointed(path), [((0,), (1,))])
    raw = path.read_bytes()
    i = raw.index(b'"data"', raw.index(b"\n") + 1) + 12
    path.write_bytes(raw[:i] + (b"A" if raw[i:i + 1] != b"A" else b"B") + raw[i + 1:])
    with pytest.raises(CheckpointError, match=r"was tampered with: line 2 fails its SHA-256"):
        run_audit(target, _checkpointed(path), [((0,), (1,))])
    path.write_bytes(raw[: len(raw) * 2 // 3])
    with pytest.raises(CheckpointError, match=r"is truncated"):
        run_audit(target, _checkpointed(path), [((0,), (1,))])
    lines = raw.split(b"\n")
    path.write_bytes(b"\n".join([lines[0], lines[2], lines[1], *lines[3:]]))  # reordered: fine
    again = run_audit(target, _checkpointed(path), [((0,), (1,))])
    assert again.to_json()["counts"] == first.to_json()["counts"]
    path.write_bytes(bytes(range(256)))
    with pytest.raises(CheckpointError, match=r"is not a privref checkpoint \(binary data\)"):
        run_audit(target, _checkpointed(path), [((0,), (1,))])


def test_checkpoint_chunks_are_bound_to_their_run(tmp_path: Path) -> None:
    """A chunk line copied from another run's file (other seed) fails its digest."""
    target = target_from_callable(rr)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run_audit(target, _checkpointed(one), [((0,), (1,))])
    cfg_two = config(epsilon=rational(2), samples=400, seed=4, chunk_size=100, checkpoint=two)
    run_audit(target, cfg_two, [((0,), (1,))])
    a, b = one.read_bytes().split(b"\n"), two.read_bytes().split(b"\n")
    one.write_bytes(b"\n".join([a[0], b[1], *a[2:]]))
    with pytest.raises(CheckpointError, match=r"line 2 fails its SHA-256"):
        run_audit(target, _checkpointed(one), [((0,), (1,))])


# ---------------------------------------------------------------------------- the API

def test_api_floats_are_their_exact_binary_values() -> None:
    report = assert_private(rr, epsilon=1.5, confidence=0.9999999, pairs=[([0], [1])],
                            samples=2000)
    record = report.to_json()
    exact = Fraction(0.9999999)
    assert exact.denominator == 2**53 and exact != Fraction(9999999, 10**7)
    assert record["claimed_epsilon_exact"] == "3/2"
    assert record["confidence_exact"] == f"{exact.numerator}/{2**53}"
    assert f"at confidence 0.9999999 = {exact.numerator}/{2**53}" in report.summary()


def test_api_refuses_bad_pairs_before_any_verdict() -> None:
    with pytest.raises(InvalidArgument, match=r"pairs entry \(0, 1\) must be a pair \(a, b\) of "
                                              r"datasets \(lists or tuples\), not of int"):
        assert_private(rr, epsilon=1, pairs=[(0, 1)])  # type: ignore[list-item]
    with pytest.raises(NotNeighboring, match=r"pairs entry \[0\] vs \[5, 5, 5\] is not "
                                             r"neighboring under substitution"):
        assert_private(rr, epsilon=1, pairs=[([0], [5, 5, 5])])
    report = assert_private(rr, epsilon="ln(3)", pairs=[([0, 0], [1, 1])], group=2, samples=2000,
                            confidence=AUDIT_CONFIDENCE)
    assert report.group == 2 and str(report.tested_epsilon) == str(log(3) * 2)


def test_float_leak_is_explained() -> None:
    with pytest.raises(AssertionError) as info:
        assert_private(laplace_count, epsilon=1, pairs=[([0], [1])], samples=4000, seed=1,
                       confidence=AUDIT_CONFIDENCE)
    message = str(info.value)
    assert "floating-point leak (Mironov 2012)" in message and "--no-float-events" in message
    assert "event counts: {'hits_a'" in message
    report = run_audit(target_from_callable(laplace_count),
                       config(epsilon=rational(1), samples=4000), [((0,), (1,))])
    assert report.float_leak and report.to_json()["float_leak"] is True
    summary = report.summary()
    assert "floating-point leak (Mironov 2012)" in summary and "--no-float-events" in summary
    real = run_audit(target_from_callable(laplace_count),
                     config(epsilon=rational(1), samples=4000, float_events=False),
                     [((0,), (1,))])
    assert not real.float_leak and "Mironov" not in real.summary()
