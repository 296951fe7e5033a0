"""003 Theorem 3.1 at explicit sizes (proofs.p003.upper_mc): checks, sizes, exact data, mutations."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from typing import Any

import mpmath
import numpy as np
import pytest

from privref.proofs import Status, Verdict
from privref.proofs.p003 import upper_mc as mc
from privref.proofs.registry import all_entries
from privref.reference.concepts import thresholds_on
from privref.reference.reals import Real, log, rational

STEP = "explicit instantiation (ours): Monte Carlo at n_pub, n_priv from (i)–(iii)"


def test_entry_status_id_and_confidence() -> None:
    assert [(e.id, e.status) for e in mc.ENTRIES] == [(f"003 Theorem 3.1 / {STEP}", Status.AUDITED)]
    entry = mc.ENTRIES[0]
    assert entry.confidence == 1 - mc.MC_LEVEL == Fraction(999999, 10**6)
    assert entry.id in {e.id for e in all_entries()}
    # its run (verdict, confidence = the entry's, seed, sizes, 0/200 runs) is in test_ledger.py


# ------------------------------------------------------------------ explicit sizes, independently


def _independent_sizes(d: int, alpha: Fraction, beta: Fraction, eps: mpmath.mpf) -> tuple[int, int]:
    """Linear search with mpmath at 60 digits; every decision must clear a 1e-30 margin."""
    margin = mpmath.mpf(10) ** -30
    a, b = mpmath.mpf(alpha.numerator) / alpha.denominator, mpmath.mpf(beta.numerator) / beta.denominator
    n = math.ceil(d / 2)
    while True:
        lhs = 2 * (2 * mpmath.e * n / d) ** (2 * d) * mpmath.exp(-(a / 4) * n / 4)
        assert abs(lhs - b / 3) > margin
        if lhs <= b / 3:
            break
        n += 1
    N = sum(math.comb(n, i) for i in range(d + 1))
    needs = (8 * mpmath.log(6 * N / b) / a**2, 8 * mpmath.log(3 * N / b) / (eps * a))
    for x in needs:
        assert abs(x - mpmath.nint(x)) > margin
    return n, max(int(mpmath.ceil(x)) for x in needs)


@pytest.mark.parametrize(("d", "alpha", "beta", "eps"), [
    (1, Fraction(1, 4), Fraction(1, 10), None),             # None: ε = 2 ln(5/3)
    (1, Fraction(1, 5), Fraction(1, 10), Fraction(1)),
    (2, Fraction(1, 4), Fraction(1, 20), Fraction(1, 10)),
    (3, Fraction(1, 10), Fraction(1, 100), Fraction(2)),
])
def test_explicit_sample_sizes_match_an_independent_search(
        d: int, alpha: Fraction, beta: Fraction, eps: Fraction | None) -> None:
    with mpmath.workdps(60):
        eps_mp = (2 * mpmath.log(mpmath.mpf(5) / 3) if eps is None
                  else mpmath.mpf(eps.numerator) / eps.denominator)
        expected = _independent_sizes(d, alpha, beta, eps_mp)
    eps_real: Real = log(Fraction(5, 3)) * 2 if eps is None else rational(eps)
    assert mc.explicit_sample_sizes(d, alpha, beta, eps_real) == expected


def test_explicit_sample_sizes_known_values() -> None:
    # the Monte Carlo instance, and (1) at α/4 = 1/16 for d = 1: n_pub = 1407, N = 1408
    assert mc.explicit_sample_sizes(1, Fraction(1, 4), Fraction(1, 10), log(Fraction(5, 3)) * 2) \
        == (1407, 1453)
    # tiny ε: (iii) dominates, n_priv = ⌈8 ln(3N/β)/(εα)⌉
    n_pub, n_priv = mc.explicit_sample_sizes(1, Fraction(1, 4), Fraction(1, 10), Fraction(1, 100))
    assert n_pub == 1407
    assert n_priv == math.ceil(8 * math.log(3 * 1408 * 10) / (Fraction(1, 100) * Fraction(1, 4)))


def test_explicit_sample_sizes_rejects_bad_arguments() -> None:
    from privref.reference.errors import InvalidArgument
    for args in ((0, Fraction(1, 4), Fraction(1, 10), 1), (1, Fraction(1), Fraction(1, 10), 1),
                 (1, Fraction(1, 4), Fraction(0), 1), (1, Fraction(1, 4), Fraction(1, 10), 0)):
        with pytest.raises(InvalidArgument):
            mc.explicit_sample_sizes(*args)


def test_arithmetic_check_catches_a_non_minimal_size(monkeypatch: pytest.MonkeyPatch) -> None:
    real = mc.explicit_sample_sizes
    monkeypatch.setattr(mc, "explicit_sample_sizes", lambda *a: (real(*a)[0] + 1, real(*a)[1]))
    result = mc.check_explicit_sizes_arithmetic(mc.SIZE_GRID[:1])
    assert result.verdict is Verdict.VIOLATED and result.witness


# ------------------------------------------------------------------ exact data and errors


def test_points_and_labels_have_the_exact_law() -> None:
    weights = (3, 1, 0, 4)
    cum = np.cumsum(np.array(weights, dtype=np.int64))
    xs = mc.points_of(cum, np.arange(int(cum[-1]), dtype=np.int64))
    assert np.bincount(xs, minlength=4).tolist() == list(weights)


def test_excess_numerators_match_exact_errors() -> None:
    case = mc.McCase("tiny", 5, (1, 2, 3, 4, 5), (9, 9, 1, 1, 3), 10)
    H = thresholds_on(5)
    excess, den = mc._excess_numerators(case, H)
    W = sum(case.weights)

    def err(labels: tuple[int, ...]) -> Fraction:
        return sum((Fraction(w, W) * Fraction(o if h == 0 else 10 - o, 10)
                    for w, o, h in zip(case.weights, case.ones, labels, strict=True)), Fraction(0))
    errs = [err(c.labels) for c in H.concepts]
    assert [Fraction(int(e), den) for e in excess] == [e - min(errs) for e in errs]


def test_cases_are_as_described() -> None:
    ag, re = mc.agnostic_case(), mc.realizable_case()
    W = sum(ag.weights)
    assert ag.ones.index(1) == 707 and 2 * sum(ag.weights[:707]) >= W > 2 * sum(ag.weights[:706])
    assert re.ones.index(0) == 200 and Fraction(sum(re.weights[:200]), sum(re.weights)) > Fraction(1, 4)


# ------------------------------------------------------------------ mutations, reproducibility


@pytest.mark.parametrize("which", [0, 1], ids=["n_pub=1", "n_priv=1"])
def test_mutation_at_too_small_sizes_is_violated(which: int, monkeypatch: pytest.MonkeyPatch) -> None:
    real = mc.explicit_sample_sizes

    def too_small(*args: Any) -> tuple[int, int]:
        sizes = list(real(*args))
        sizes[which] = 1
        return sizes[0], sizes[1]

    monkeypatch.setattr(mc, "explicit_sample_sizes", too_small)
    result = mc.check_theorem_3_1_mc(runs=100)
    assert result.verdict is Verdict.VIOLATED, result.evidence
    assert result.witness and ("n_pub = 1," if which == 0 else "n_priv = 1,") in result.evidence


def test_mutation_flipped_private_labels_is_violated(monkeypatch: pytest.MonkeyPatch) -> None:
    # a data-generation bug (private labels flipped) makes A_SSPP learn the complement
    real = mc.dataset
    monkeypatch.setattr(mc, "dataset", lambda public, xs, ys: real(public, xs, 1 - ys))
    monkeypatch.setattr(mc, "run_case", cache(mc.run_case.__wrapped__))  # keep the shared cache clean
    result = mc.check_theorem_3_1_mc(runs=20, seed=5)
    assert result.verdict is Verdict.VIOLATED and result.witness


def test_same_seed_same_evidence(monkeypatch: pytest.MonkeyPatch) -> None:
    case = mc.agnostic_case()
    first = mc.run_case.__wrapped__(case, 1407, 1453, 12, 99)
    again = mc.run_case.__wrapped__(case, 1407, 1453, 12, 99)
    other = mc.run_case.__wrapped__(case, 1407, 1453, 12, 100)
    assert first == again
    assert other.mean_excess != first.mean_excess
    one = mc.check_theorem_3_1_mc(runs=12, seed=99)
    monkeypatch.setattr(mc, "run_case", cache(mc.run_case.__wrapped__))  # a fresh, empty cache
    assert mc.check_theorem_3_1_mc(runs=12, seed=99).evidence == one.evidence
    assert "seed 99" in one.evidence
