"""``privref check-accountant``'s DP-SGD tasks (Poisson-subsampled Gaussian, add/remove): the grid,
privref's PLD enclosure against an independent closed form, and the exact classification.

The PLD step is patched to 1/100 here (the grid's 1/1000 takes seconds per order); the enclosure
is then wider but must still contain the truth, which is all the classification relies on.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest

from privref.app.accountants import certify as certify_module
from privref.app.accountants import registry
from privref.app.accountants.certify import certify, classify
from privref.app.accountants.tasks import GRID, Task, find
from privref.reference.accounting import analytic_gaussian_delta, epsilon_ex_post
from privref.reference.reals import Interval
from tests.app.test_check_accountant import _above, _below
from tests.reference.test_pld import _subsampled_exact

F = Fraction
DPSGD = ("poisson_gaussian_epsilon", "poisson_gaussian_delta")


@pytest.fixture(autouse=True)
def coarse_step(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(certify_module, "POISSON_STEP", F(1, 100))
    certify_module._one_step.cache_clear()
    certify_module._dpsgd.cache_clear()
    yield
    certify_module._one_step.cache_clear()
    certify_module._dpsgd.cache_clear()


def test_the_grid_holds_dpsgd_tasks_at_q_001_and_1_and_k_1_to_10_5() -> None:
    tasks = [t for t in GRID if t.kind in DPSGD]
    assert {t.value("q") for t in tasks} == {0.01, 1.0}
    assert {t.value("steps") for t in tasks} == {1, 1000, 100_000}
    for t in tasks:
        assert type(t.value("steps")) is int and type(t.value("q")) is float
        assert t.kind in certify_module.certified_kinds()


@pytest.mark.parametrize("steps", [1, 2])
def test_delta_encloses_the_larger_order(steps: int) -> None:
    """k = 1 (the pairs' δ, no grid) and k = 2 (the composed grids): the true δ(ε) of each order
    is a difference of Gaussian tails at the optimal cut at k = 1 (tests/reference/test_pld.py)
    and at least that at k = 2; the task's true δ is the larger of the two orders."""
    task = Task("t", "poisson_gaussian_delta",
                (("q", 0.25), ("sigma", 1.0), ("steps", steps), ("epsilon", 0.125)))
    cert = certify(task)
    box = cert.enclosure
    exact = [_subsampled_exact(F(1), F(1, 4), order, F(1, 8)) for order in ("remove", "add")]
    truth = Interval(max(e.lo for e in exact), max(e.hi for e in exact))
    if steps == 1:
        assert box.lo <= truth.lo and truth.hi <= box.hi
        assert box.width < F(1, 2**100)
    else:
        assert box.hi > truth.hi and box.width < F(1, 100)
    assert classify(cert, _below(box.lo)).cls == "unsafe"
    assert classify(cert, _above(box.hi)).cls == "conservative"


def test_epsilon_enclosure_is_proved_through_the_composed_profile() -> None:
    """k = 4 steps at q = 1/4: δ at the enclosure's upper end is at most δ through the pessimistic
    grids, and the float just below the lower end is unsafe; an ε inside is checked at the float
    itself through the two orders' composed δ."""
    task = Task("t", "poisson_gaussian_epsilon",
                (("q", 0.25), ("sigma", 1.0), ("steps", 4), ("delta", 1e-5)))
    cert = certify(task)
    box = cert.enclosure
    assert 0 < box.lo < box.hi
    remove, add = certify_module._dpsgd(F(1, 4), F(1), 4)
    assert max(remove.delta(box.hi).hi, add.delta(box.hi).hi) <= F(1e-5)
    assert classify(cert, _below(box.lo)).cls == "unsafe"
    assert classify(cert, _above(box.hi)).cls == "conservative"
    inside = float(box.hi) if F(float(box.hi)) <= box.hi else _below(box.hi)
    verdict = classify(cert, inside)
    assert verdict.cls == "inside" and "at the value itself" in verdict.how
    low = classify(cert, _above(box.lo))  # the optimistic root: δ there is not proved <= δ
    assert low.cls == "inside" and not low.proved_safe


def test_q_1_is_the_analytic_gaussian_and_decided_at_the_float() -> None:
    task = find("dpsgd-eps-q1.0-s30.0-k1000-d1e-05")
    cert = certify(task)
    assert cert.enclosure == epsilon_ex_post(F(30), 1000, F(1e-5))
    # the float just below the least ε is inside the 2^-30 enclosure but proved unsafe there
    lo = cert.enclosure.lo
    v = _below(lo)
    assert classify(cert, v).cls == "unsafe"
    delta_task = find("dpsgd-delta-q1.0-s30.0-k1000-e2.0")
    box = certify(delta_task).enclosure
    assert box == analytic_gaussian_delta(F(2), 1000, F(30), 64)


def test_every_library_but_opendp_offers_both_kinds() -> None:
    for name, lib in registry.LIBRARIES.items():
        kinds = {m.kind for m in lib.methods}
        if name == "opendp":  # no Poisson amplification in OpenDP 0.16: not offered
            assert not kinds & set(DPSGD)
        else:
            assert set(DPSGD) <= kinds, name


def test_snippets_fill_every_dpsgd_parameter() -> None:
    for lib in registry.LIBRARIES.values():
        for method in lib.methods:
            for task in GRID:
                if task.kind == method.kind and task.kind in DPSGD:
                    code = method.snippet(task)
                    assert "$" not in code
                    compile(code, "<snippet>", "exec")
