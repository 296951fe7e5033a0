"""Released continuous values decided from the density ratio (privref.audits._released)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from privref.audits import _released
from privref.audits.exact import audit
from privref.audits.stats import bonferroni, cp_lower, cp_upper
from privref.reference.accounting import analytic_gaussian_delta
from privref.reference.citations import Uncited
from privref.reference.continuous_noise import GaussianNoise, LaplaceNoise
from privref.reference.continuous_release import (
    NoiseDraw,
    gaussian_mechanism,
    laplace_mechanism,
    release,
)
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument, UnsupportedProgram
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import Universe
from privref.reference.privacy import PrivacyClaim
from privref.reference.program import Program, bernoulli, distribution
from privref.reference.reals import Interval, Real, exp, rational, sqrt
from privref.reference.verdict import Verdict

F = Fraction
BITS = Universe((0, 1), (1, 2))


def _claim(eps: Fraction | Real) -> PrivacyClaim:
    return PrivacyClaim(eps if isinstance(eps, Real) else rational(eps))


# ------------------------------------------------------------------ the Laplace mechanism

@pytest.mark.parametrize(("eps", "sensitivity"), [(F(1), 1), (F(1, 2), 1), (F(3), 2)])
def test_laplace_mechanism_is_exactly_epsilon_dp(eps: Fraction, sensitivity: int) -> None:
    m = laplace_mechanism(eps, sensitivity)
    universe = Universe(tuple(range(sensitivity + 1)), (1, 2))
    report = audit(m, universe)
    assert report.verdict is Verdict.HOLDS  # the tight claim, decided exactly
    assert report.epsilon_lower <= eps <= report.epsilon_upper  # type: ignore[operator]
    assert report.epsilon_upper - report.epsilon_lower < F(1, 2**40)  # type: ignore[operator]
    below = audit(m, universe, claim=_claim(eps * F(999, 1000)))
    assert below.verdict is Verdict.VIOLATED
    assert below.verdict_witness is not None and below.verdict_witness.violation_event


@pytest.mark.parametrize("ratio", [F(0), F(1, 4), F(1, 2), F(9, 10)])
def test_laplace_privacy_profile_is_the_closed_form(ratio: Fraction) -> None:
    # Lap(1) shifted by 1: δ(ε') = 1 − e^{(ε' − 1)/2} for ε' <= 1 (an independent closed form)
    m = laplace_mechanism(1)
    p, q = m.distribution((0,)), m.distribution((1,))
    box, margin, _ = _released.hockey_stick(p, q, exp(rational(ratio)), 96)
    truth = (1 - exp(rational((ratio - 1) / 2))).enclose(128)
    assert isinstance(box, Interval)
    assert box.lo <= truth.hi and truth.lo <= box.hi and box.width < F(1, 2**80)
    assert margin <= truth.hi


# ------------------------------------------------------------------ mixtures, against quadrature

def _law(offsets: dict[Fraction, Fraction], atoms: dict[str, Fraction], scale: Fraction
         ) -> Callable[[], Program[object]]:
    """A program: an atom, or c + Lap(scale) for an offset c, with the given probabilities."""
    items = [*atoms.items(), *offsets.items()]

    def program() -> Program[object]:
        left = F(1)
        for i, (what, w) in enumerate(items):
            last = i == len(items) - 1
            if last or (yield from bernoulli(w / left)):
                if isinstance(what, str):
                    return what
                assert isinstance(what, Fraction)
                return (yield from release(LaplaceNoise(scale), what))
            left -= w
        raise AssertionError  # pragma: no cover

    return program


def _oracle(p_off: dict[Fraction, Fraction], p_atoms: dict[str, Fraction],
            q_off: dict[Fraction, Fraction], q_atoms: dict[str, Fraction], scale: Fraction,
            t: mpmath.mpf) -> mpmath.mpf:
    """∫ (p − t·q)_+ by mpmath quadrature split at the offsets, plus the atoms (an oracle)."""
    b = mpmath.mpf(scale.numerator) / scale.denominator

    def dens(off: dict[Fraction, Fraction], y: mpmath.mpf) -> mpmath.mpf:
        return sum((mpmath.mpf(w.numerator) / w.denominator
                    * mpmath.exp(-abs(y - mpmath.mpf(c.numerator) / c.denominator) / b) / (2 * b)
                    for c, w in off.items()), mpmath.mpf(0))

    def gap(y: mpmath.mpf) -> mpmath.mpf:
        return dens(p_off, y) - t * dens(q_off, y)

    with mpmath.workdps(40):
        kinks = sorted(mpmath.mpf(c.numerator) / c.denominator for c in {*p_off, *q_off})
        ends = [kinks[0] - 60 * b, *kinks, kinks[-1] + 60 * b]  # tails beyond: < e^-60
        cuts = list(ends)
        for lo, hi in itertools.pairwise(ends):  # sign changes, refined by bisection
            grid = [lo + (hi - lo) * k / 400 for k in range(401)]
            for x, y in itertools.pairwise(grid):
                if gap(x) * gap(y) < 0:
                    cuts.append(mpmath.findroot(gap, (x, y), solver="bisect"))
        cuts.sort()
        total = mpmath.mpf(0)
        for x, y in itertools.pairwise(cuts):
            if gap((x + y) / 2) > 0:
                total += mpmath.quad(gap, [x, y])
        for o in {*p_atoms, *q_atoms}:
            total += max(mpmath.mpf(p_atoms.get(o, F(0))) - t * q_atoms.get(o, F(0)), 0)
        return total


MIXTURES = [
    ({F(0): F(1, 2), F(2): F(1, 2)}, {}, {F(1): F(1)}, {}),
    ({F(0): F(1, 3), F(1): F(1, 3)}, {"skip": F(1, 3)}, {F(1): F(1, 2)}, {"skip": F(1, 2)}),
    ({F(-1): F(1, 4), F(3, 2): F(3, 4)}, {}, {F(0): F(1, 2), F(3, 2): F(1, 2)}, {}),
]


@pytest.mark.parametrize("case", MIXTURES)
@pytest.mark.parametrize("eps", [F(0), F(1, 10), F(1, 2), F(1)])
def test_mixture_divergence_matches_quadrature(
        case: tuple[dict[Fraction, Fraction], dict[str, Fraction], dict[Fraction, Fraction],
                    dict[str, Fraction]], eps: Fraction) -> None:
    p_off, p_atoms, q_off, q_atoms = case
    scale = F(1)
    p = distribution(_law(p_off, p_atoms, scale))
    q = distribution(_law(q_off, q_atoms, scale))
    box, margin, _ = _released.hockey_stick(p, q, exp(rational(eps)), 96)
    with mpmath.workdps(40):
        oracle = _oracle(p_off, p_atoms, q_off, q_atoms, scale, mpmath.exp(eps))
        value = F(mpmath.nstr(oracle, 30, min_fixed=-40, max_fixed=40))
    assert isinstance(box, Interval)
    assert box.lo - F(1, 10**25) <= value <= box.hi + F(1, 10**25)
    assert box.width < F(1, 2**60) and margin == box.lo


def test_pure_loss_of_a_mixture_is_its_largest_ratio_at_an_offset() -> None:
    # P = ½Lap(0) + ½Lap(2), Q = Lap(1), b = 1: p/q at 0 and 2 is (1 + e^-2)/(2e^-1) = cosh(1),
    # at 1 it is e^-1: sup = cosh(1), constant beyond the extreme offsets
    p = distribution(_law({F(0): F(1, 2), F(2): F(1, 2)}, {}, F(1)))
    q = distribution(_law({F(1): F(1)}, {}, F(1)))
    eps = _released.epsilon_at_delta(p, q, F(0), 96)
    cosh1 = ((exp(rational(1)) + exp(rational(-1))) / 2).enclose(128)
    assert eps.t_hi is not None and eps.t_lo <= cosh1.hi and cosh1.lo <= eps.t_hi
    assert eps.t_hi - eps.t_lo < F(1, 2**80)


def test_epsilon_at_delta_brackets_the_profile() -> None:
    # Lap(1) shifted by 1 at δ = 1 − e^{-1/4}: ε = 1/2 exactly (the profile above, inverted)
    m = laplace_mechanism(1)
    p, q = m.distribution((0,)), m.distribution((1,))
    delta = (1 - exp(rational(F(-1, 4)))).enclose(200).lo
    eps = _released.epsilon_at_delta(p, q, delta, 96)
    half = exp(rational(F(1, 2))).enclose(128)
    assert eps.t_hi is not None and eps.t_lo <= half.hi and half.lo <= eps.t_hi + F(1, 2**40)
    assert (eps.t_hi - eps.t_lo) * 2**40 <= eps.t_hi


# ------------------------------------------------------------------ Gaussian

@pytest.mark.parametrize(("sigma", "eps"), [(F(2), F(1)), (F(1), F(1, 2)), (F(3), F(2))])
def test_gaussian_divergence_is_balle_wang(sigma: Fraction, eps: Fraction) -> None:
    m = gaussian_mechanism(sigma, epsilon=eps)
    p, q = m.distribution((0,)), m.distribution((1,))
    box, _, _ = _released.hockey_stick(p, q, exp(rational(eps)), 96)
    truth = analytic_gaussian_delta(eps, 1, sigma, 128)
    assert isinstance(box, Interval)
    assert box.lo <= truth.hi and truth.lo <= box.hi and box.width < F(1, 2**60)
    assert audit(m, BITS).verdict is Verdict.HOLDS
    tighter = PrivacyClaim(rational(eps), truth.lo * F(999, 1000))
    assert audit(m, BITS, claim=tighter).verdict is Verdict.VIOLATED


def test_gaussian_release_is_not_pure_and_mixtures_stay_undecided() -> None:
    m = gaussian_mechanism(2)
    report = audit(m, BITS, claim=_claim(F(5)))
    assert report.verdict is Verdict.VIOLATED and report.epsilon_infinite

    def mixture(data: Dataset) -> Program[object]:
        shift = F(sum(int(x) for x in data))  # type: ignore[call-overload]
        if (yield from bernoulli(F(1, 2))):
            return (yield from release(GaussianNoise(F(1)), shift))
        return (yield from release(GaussianNoise(F(1)), shift + 2))

    mech = Mechanism("Gaussian mixture", mixture, PrivacyClaim(rational(1), F(1, 10)),
                     Uncited("a test mixture"), description="a mixture of two releases")
    assert audit(mech, Universe((0, 1), (1,))).verdict is Verdict.UNDECIDED


# ------------------------------------------------------------------ soundness edges

def test_an_irrational_scale_is_sound_but_not_tight() -> None:
    # Lap(√2): the tight claim ε = 1/√2 cannot be proved (the exponents are not rational),
    # so it is UNDECIDED, never a guess; a looser claim holds, a tighter one fails
    root2 = sqrt(rational(2))

    def program(data: Dataset) -> Program[object]:
        return (yield from release(LaplaceNoise(F(1), root2), F(sum(int(x) for x in data))))  # type: ignore[call-overload]

    def mech(eps: Real) -> Mechanism[object]:
        return Mechanism("Laplace, scale √2", program, PrivacyClaim(eps),
                         Uncited("a test mechanism"), description="count + Lap(√2)")

    assert audit(mech(1 / root2), Universe((0, 1), (1,))).verdict is Verdict.UNDECIDED
    assert audit(mech(1 / root2 * F(1001, 1000)), Universe((0, 1), (1,))).verdict is Verdict.HOLDS
    assert audit(mech(1 / root2 * F(999, 1000)), Universe((0, 1), (1,))).verdict \
        is Verdict.VIOLATED


def test_different_noise_laws_in_one_pair_are_refused() -> None:
    def program(data: Dataset) -> Program[object]:
        scale = F(1) if not any(data) else F(2)
        return (yield from release(LaplaceNoise(scale), F(0)))

    mech = Mechanism("data-dependent scale", program, PrivacyClaim(rational(1)),
                     Uncited("a test mechanism"), description="the scale depends on the data")
    with pytest.raises(UnsupportedProgram, match="different noise laws"):
        audit(mech, Universe((0, 1), (1,)))
    with pytest.raises(InvalidArgument, match="noise"):
        NoiseDraw("wide")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="epsilon"):
        laplace_mechanism(0)


def test_a_released_value_cannot_be_branched_on() -> None:
    def program() -> Program[object]:
        z = yield from release(LaplaceNoise(F(1)), 0)
        return 1 if z > 0 else 0  # type: ignore[operator]

    with pytest.raises((UnsupportedProgram, TypeError)):
        distribution(program)


# ------------------------------------------------------------------ the sampler

@pytest.mark.parametrize("mechanism", [laplace_mechanism(1), gaussian_mechanism(1)],
                         ids=["laplace", "gaussian"])
def test_sampler_tail_frequency_matches_the_law(mechanism: Mechanism[object]) -> None:
    # P(value > 1 + 1) for data (1,): Lap(1): ½e^{-1}; N(0, 1): 1 − Φ(1); false-positive 10^-6
    n = 1200
    rng = np.random.default_rng(20261129)
    hits = 0
    for _ in range(n):
        value = mechanism.sample((1,), rng=rng)
        assert isinstance(value, Real)
        box = value.enclose(64)
        assert box.width < F(1, 2**40)
        hits += box.lo > 2
    if "Laplace" in mechanism.name:
        p = (exp(rational(-1)) / 2).enclose(64)
    else:
        p = Interval(F(1586552539, 10**10), F(1586552540, 10**10))
    level = bonferroni(F(1, 10**6), 2)
    assert cp_lower(hits, n, level) <= p.hi and cp_upper(hits, n, level) >= p.lo


def test_distribution_records_one_component_per_path() -> None:
    law = laplace_mechanism(F(1, 2)).distribution((1, 0, 1))
    assert law.items() == ()
    ((affine, weight),) = law.components
    assert affine.offset == 2 and weight == 1
    assert isinstance(affine.noise, NoiseDraw) and affine.noise.noise == LaplaceNoise(F(2))
