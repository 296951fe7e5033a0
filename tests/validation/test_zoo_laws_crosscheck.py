"""Two independent rigorous integrators agree: the zoo's exact exp-sums (validation.zoo_laws,
exact rationals, mpmath exponentials) and the exact core's closed form in arb balls
(privref.reference._piecewise_exp, the one behind continuous_noise's events)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.reference._piecewise_exp import Factor, integral
from privref.reference.continuous_noise import LaplaceNoise, NoisyArgmax, law_of
from privref.reference.reals import prob_as_interval
from validation import zoo_laws
from validation.zoo_selection import noisy_max_index_probability

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
