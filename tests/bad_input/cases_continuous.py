"""Bad-input cases for continuous noise (issue 34, item 7): the noise laws, the events, the
printed PATE aggregators.  Each must end in one typed error naming the argument and the limit."""

from __future__ import annotations

from .harness import Case

_API = """
from fractions import Fraction
from privref.reference.continuous_noise import (
    GaussianNoise, LaplaceNoise, ExponentialNoise, ThresholdRun, argmax, exceeds, first_above,
    law_of)
from privref.reference.pate import continuous_gaussian_label, printed_svt_pate
from privref.reference.reals import log, rational, sqrt
from privref.reference.continuous_release import (
    NoiseDraw, gaussian_mechanism, laplace_mechanism, release)
from privref.reference.continuous_noise import ExponentialNoise as _Exp
"""


def _api(id: str, names: str, body: str, error: str = "PrivrefError") -> Case:
    return Case(id=id, names=names, api=_API + body, error=error)


CASES: list[Case] = [
    _api("api-laplace-zero-scale", "scale", "LaplaceNoise(0)"),
    _api("api-laplace-negative-scale", "scale", "LaplaceNoise(-1)"),
    _api("api-laplace-nan-scale", "scale", "LaplaceNoise(float('nan'))"),
    _api("api-gaussian-infinite-scale", "scale", "GaussianNoise(float('inf'))"),
    _api("api-exponential-string-scale", "scale", "ExponentialNoise('wide')"),
    _api("api-threshold-plus-infinity", "threshold",
         "exceeds(LaplaceNoise(1), 0, float('inf'))"),
    _api("api-threshold-minus-infinity", "threshold",
         "first_above(LaplaceNoise(1), float('-inf'), LaplaceNoise(2), (0, 1))"),
    _api("api-unit-negative", "unit", "LaplaceNoise(1, unit=rational(-1))"),
    _api("api-unit-float", "unit", "LaplaceNoise(1, unit=2.0)"),
    _api("api-too-many-values", "MAX_EVENT_VALUES", "argmax(LaplaceNoise(1), tuple(range(513)))"),
    _api("api-gaussian-irrational-threshold", "threshold",
         "ThresholdRun(GaussianNoise(1), log(2), LaplaceNoise(1), (Fraction(0),))"),
    _api("api-law-precision-too-small", "prec",
         "law_of(ThresholdRun(LaplaceNoise(1), 0, LaplaceNoise(2), (Fraction(0),)), prec=4)"),
    _api("api-law-not-an-event", "event", "law_of(42)"),
    _api("api-unorderable-kinks", "could not be ordered",
         "two = sqrt(rational(2)) * sqrt(rational(2))\n"
         "law_of(ThresholdRun(LaplaceNoise(1), two, LaplaceNoise(2), (Fraction(2),)))",
         error="TooLargeToEnumerate"),
    _api("api-printed-svt-pate-delta-one", "delta", "printed_svt_pate(2, 1, 1, 1)"),
    _api("api-continuous-label-zero-sigma", "sigma", "continuous_gaussian_label(1, 2, 0)"),
    _api("api-continuous-label-negative-real-sigma", "sigma",
         "continuous_gaussian_label(1, 2, -sqrt(rational(2)))"),
    _api("api-release-exponential-noise", "noise", "NoiseDraw(_Exp(1))"),
    _api("api-release-float-value", "value", "release(LaplaceNoise(1), float('nan'))"),
    _api("api-laplace-mechanism-zero-epsilon", "epsilon", "laplace_mechanism(0)"),
    _api("api-laplace-mechanism-zero-sensitivity", "sensitivity", "laplace_mechanism(1, 0)"),
    _api("api-gaussian-mechanism-negative-sigma", "sigma", "gaussian_mechanism(-1)"),
    _api("api-released-value-branched-on", "branched",
         "from privref.reference.program import distribution\n"
         "def g():\n"
         "    z = yield from release(LaplaceNoise(1), 0)\n"
         "    return 1 if z else 0\n"
         "distribution(g)", error="UnsupportedProgram"),
    _api("api-released-noise-depends-on-data", "different noise laws",
         "from privref import Universe, audit\n"
         "from privref.reference.mechanism import Mechanism\n"
         "from privref.reference.privacy import PrivacyClaim\n"
         "from privref.reference.citations import Uncited\n"
         "def p(data):\n"
         "    return (yield from release(LaplaceNoise(1 + sum(data)), 0))\n"
         "m = Mechanism('x', p, PrivacyClaim(rational(1)), Uncited('t'), description='x')\n"
         "audit(m, Universe((0, 1), (1,)))", error="UnsupportedProgram"),
]
