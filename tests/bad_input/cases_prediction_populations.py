"""Bad-input cases for ``privref experiments --population`` (paper 002's agnostic sweep, issue 33).

Every new flag is validated before the run: --population names one of massart/agnostic;
--alpha is agnostic-only and bounded to [1/1024, 1/16]; --epsilon and --noise are
massart-only; --max-n is bounded by 2^20 for the agnostic sweep; --quick fixes --alpha.  Each
refusal is one ``privref experiments: error: ...`` line naming the flag, exit status 2; the
API refuses an α, a domain size, a grid or a predictor outside the sweep's bounds.
"""

from __future__ import annotations

from .harness import Case

_API = """
from fractions import Fraction
import numpy as np
from privref.app.experiments import prediction as pe
"""


def _cli(id: str, names: str, *argv: str) -> Case:
    return Case(id=id, names=names, argv=("experiments", *argv))


def _agnostic(id: str, names: str, *argv: str) -> Case:
    return _cli(id, names, "--population", "agnostic", "--out", "{cwd}", *argv)


def _api(id: str, names: str, body: str) -> Case:
    return Case(id=id, names=names, api=_API + body)


CASES: list[Case] = [
    _cli("populations-unknown", "--population", "--out", "{cwd}", "--population", "tsybakov"),
    _cli("populations-empty", "--population", "--out", "{cwd}", "--population", ""),
    _cli("populations-alpha-with-massart", "--alpha", "--quick", "--out", "{cwd}", "--alpha",
         "1/64"),
    _agnostic("populations-noise-with-agnostic", "--noise", "--noise", "1/10"),
    _agnostic("populations-epsilon-with-agnostic", "--epsilon", "--epsilon", "1"),
    _agnostic("populations-alpha-too-large", "--alpha", "--alpha", "1/8"),
    _agnostic("populations-alpha-too-small", "--alpha", "--alpha", "1/2048"),
    _agnostic("populations-alpha-zero", "--alpha", "--alpha", "0"),
    _agnostic("populations-alpha-negative", "--alpha", "--alpha=-1/64"),
    _agnostic("populations-alpha-nan", "--alpha", "--alpha", "nan"),
    _agnostic("populations-alpha-log", "--alpha", "--alpha", "ln(2)/100"),
    _agnostic("populations-alpha-garbage", "--alpha", "--alpha", "1/x"),
    _agnostic("populations-alpha-huge-denominator", "--alpha", "--alpha", "1/" + "9" * 40),
    _agnostic("populations-alpha-in-range-huge-denominator", "--alpha", "--alpha",
              "1000000007/100000000000"),
    _agnostic("populations-max-n-huge", "--max-n", "--max-n", "2000000"),
    _agnostic("populations-max-n-small", "--max-n", "--max-n", "8"),
    _agnostic("populations-datasets-huge", "--datasets", "--datasets", "51"),
    _agnostic("populations-draws-zero", "--draws", "--draws", "0"),
    _agnostic("populations-seed-negative", "--seed", "--seed=-3"),
    _agnostic("populations-quick-with-alpha", "--quick|--alpha", "--quick", "--alpha", "1/64"),
    _agnostic("populations-quick-with-max-n", "--quick|--max-n", "--quick", "--max-n", "512"),
    _api("populations-api-alpha-too-large", "alpha", "pe.agnostic_population(Fraction(1, 4))"),
    _api("populations-api-alpha-float", "alpha", "pe.agnostic_population(0.01)"),
    _api("populations-api-alpha-huge-denominator", "alpha",
         "pe.agnostic_population(Fraction(1000000007, 100000000000))"),
    _api("populations-api-points-odd", "points",
         "pe.agnostic_population(Fraction(1, 32), points=7)"),
    _api("populations-api-points-huge", "points",
         "pe.agnostic_population(Fraction(1, 32), points=10**6)"),
    _api("populations-api-grid-huge", "max_n", "pe.sweep_grid(2**21)"),
    _api("populations-api-unknown-sweep-predictor", "predictor",
         "pe.sweep_parameters('b5', Fraction(1, 64), Fraction(1), 100)"),
    _api("populations-api-sample-loss-predictor", "predictor",
         "pop = pe.agnostic_population(Fraction(1, 32))\n"
         "d = pop.draw_sample(50, np.random.default_rng(0))\n"
         "pe.sample_loss('b4', pop, d, {}, np.random.default_rng(0))"),
    _api("populations-api-rate-terms-predictor", "predictor",
         "pe.rate_terms('alg3', Fraction(1, 64), Fraction(1))"),
]
"""Malformed ``--population``/``--alpha`` command lines and sweep API calls (see harness.py)."""
