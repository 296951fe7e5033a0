"""Two independent rigorous integrators agree: the zoo's exact exp-sums (validation.zoo_laws,
exact rationals, mpmath exponentials) and the exact core's closed form in arb balls
(privref.reference._piecewise_exp, the one behind continuous_noise's events), on bare kernels
and on every law the zoo builds from the core's pieces (validation.zoo_integrands)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from privref.reference._piecewise_exp import Factor, integral
from privref.reference.continuous_noise import LaplaceNoise, NoisyArgmax, law_of
from privref.reference.reals import Interval, prob_as_interval
from validation import zoo_laws
from validation.zoo_dpsniper import NSVT_WITNESS, left_tail_laws, numerical_svt_law
from validation.zoo_integrands import Law, enclose
from validation.zoo_selection import noisy_max_index_probability
from validation.zoo_svt import BOTTOM, TOP, PrefixItem, SVTSpec, Variant, prefix_law

F = Fraction

# (density scale b0, [(above?, shift, scale)]): g = P(ν >= r + shift) or P(ν < r + shift)
CASES = [
    (F(2), [(False, F(0), F(4)), (True, F(1), F(4)), (False, F(-3, 2), F(4))]),
    (F(1, 2), [(True, F(i % 3), F(1)) for i in range(6)] + [(False, F(2), F(1))]),
    (F(3), [(False, F(1, 3), F(1, 2)), (False, F(-2), F(5))]),
    (F(4), [(True, F(0), F(8))] * 9 + [(False, F(1), F(8))]),
]


@pytest.mark.parametrize(("b0", "spec"), CASES)
def test_the_two_integrators_overlap(b0: Fraction, spec: list[tuple[bool, Fraction, Fraction]]
                                     ) -> None:
    zoo = zoo_laws.enclose(zoo_laws.integrate(b0, [
        (zoo_laws.above if up else zoo_laws.below)(shift, scale) for up, shift, scale in spec]))
    # ν >= r + s  <=>  -s + ν >= r: the survival function of -s + ν at r (its CDF for "<")
    core = integral((Factor("laplace", "density", F(0), b0),
                     *(Factor("laplace", "sf" if up else "cdf", -shift, scale)
                       for up, shift, scale in spec)), 96)
    assert zoo.lo <= core.hi and core.lo <= zoo.hi
    assert core.width <= core.lo / 2**96


def test_report_noisy_max_index_agrees_with_the_core() -> None:
    """The zoo's noisy_max_index witness probabilities (Laplace(2/ε), ε = 1) are the core's
    NoisyArgmax law."""
    for scores in ([0, 1, 1, 1, 1], [-1, 2, 2, 2, 2], [3, 0, 1, 2, 0]):
        law = dict(law_of(NoisyArgmax(LaplaceNoise(F(2)), tuple(F(s) for s in scores))))
        for index in range(len(scores)):
            zoo = noisy_max_index_probability(scores, index)
            core = prob_as_interval(law[index])
            assert zoo.lo <= core.hi and core.lo <= zoo.hi


# -------------------------------------- the zoo's laws: the core's enclosure against exact sums

def _patterns(spec: SVTSpec, length: int) -> list[tuple[PrefixItem, ...]]:
    """Every full outcome pattern of ``spec`` on ``length`` answers (ending at the abort)."""
    out: list[tuple[PrefixItem, ...]] = []
    for bits in itertools.product((BOTTOM, TOP), repeat=length):
        tops = [i for i, bit in enumerate(bits) if bit == TOP]
        if spec.has_cutoff and len(tops) >= spec.cutoff:
            bits = bits[:tops[spec.cutoff - 1] + 1]
        if bits not in out:
            out.append(bits)
    return out


def _agree(law: Law) -> Interval:
    core, exact = enclose(law), zoo_laws.enclose(zoo_laws.exact(law))
    assert core.lo <= exact.hi and exact.lo <= core.hi, (core, exact)
    return core


@pytest.mark.parametrize("variant", [1, 2, 3, 4, 5, 6])
def test_every_svt_pattern_law_agrees_with_the_exact_sum_and_the_laws_sum_to_one(variant: Variant
                                                                                 ) -> None:
    """All outcome patterns of each variant on 4 answers (c = 2): the core's enclosure of
    zoo_svt.prefix_law overlaps the exact sum of the same law, and the laws sum to 1."""
    spec = SVTSpec(variant, F(1), 2, F(0))
    data = [0, 2, -1, 1]
    total = Interval.point(0)
    for pattern in _patterns(spec, len(data)):
        total = total + _agree(prefix_law(spec, data, pattern))
    assert total.lo <= 1 <= total.hi


@pytest.mark.parametrize(("lo", "hi"), [(None, F(0)), (None, F(3)), (F(-1), F(2)), (F(1), None),
                                        (F(-2), F(-1))])
def test_svt3_released_value_windows_agree_and_partition_the_top_event(
        lo: Fraction | None, hi: Fraction | None) -> None:
    """Algorithm 3's "⊤ with value in [lo, hi)" (signed core terms) against the exact sum; the
    windows (-∞, lo), [lo, hi), [hi, ∞) of one ⊤ add up to the plain ⊤ event."""
    spec = SVTSpec(3, F(1), 2, F(1, 2))
    data = [1, -1, 2]
    prefix: list[PrefixItem] = [BOTTOM, TOP]
    whole = _agree(prefix_law(spec, data, [*prefix, TOP]))
    cuts = [c for c in (lo, hi) if c is not None]
    edges: list[Fraction | None] = [None, *cuts, None]
    total = Interval.point(0)
    for a, b in itertools.pairwise(edges):
        total = total + _agree(prefix_law(spec, data, [*prefix, (a, b)]))
    assert total.lo <= whole.hi and whole.lo <= total.hi
    assert _agree(prefix_law(spec, data, [*prefix, (lo, hi)])).lo > 0


def test_numerical_svt_laws_agree_with_the_exact_sums_and_windows_partition_the_release(
        ) -> None:
    """NumericalSVT's witness and two-sided release windows: core enclosure against exact sum;
    the windows (-∞, -3), [-3, 4), [4, ∞) of a release add up to the unconstrained ⊤, exactly."""
    a, b, prefix = NSVT_WITNESS
    for data in (a, b):
        _agree(numerical_svt_law(data, prefix))
        _agree(numerical_svt_law(data, (BOTTOM, (F(-3), F(4)), BOTTOM, (None, F(1)))))
        windows: list[tuple[Fraction | None, Fraction | None]] = [(None, F(-3)), (F(-3), F(4)),
                                                                   (F(4), None)]
        parts = [zoo_laws.exact(numerical_svt_law(data, (BOTTOM, w))) for w in windows]
        total: zoo_laws.ExpSum = {}
        for part in parts:
            for nu, c in part.items():
                total[nu] = total.get(nu, F(0)) + c
        whole = zoo_laws.exact(numerical_svt_law(data, (BOTTOM, (None, None))))
        assert {nu: c for nu, c in total.items() if c} == whole


@pytest.mark.parametrize(("scale", "k"), [(F(10), 1), (F(200), 20), (F(20), 5)])
def test_left_tail_laws_are_the_closed_form(scale: Fraction, k: int) -> None:
    """P(L <= 0)^k = 2^-k and P(1 + L <= 0)^k = 2^-k·e^{-k/scale}, as exact sums, enclosed."""
    p, q = left_tail_laws(scale, k)
    assert zoo_laws.exact(p) == {F(0): F(1, 2**k)}
    assert zoo_laws.exact(q) == {-k / scale: F(1, 2**k)}
    _agree(p)
    _agree(q)
