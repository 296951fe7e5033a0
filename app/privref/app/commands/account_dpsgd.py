"""``privref account dpsgd`` and ``privref account calibrate``: DP-SGD (Poisson-subsampled
Gaussian, add/remove neighbours) as proved enclosures.

``dpsgd``: the ε at δ (or δ at ε) after k steps of rate q and noise σ, the larger of the two
orders of the certified PLD (:mod:`privref.reference.pld_calibration`); ``calibrate``: σ_lo
(proved not (ε, δ)-DP) and σ_hi (proved (ε, δ)-DP).  Rate 1 is the analytic Gaussian (k
queries).  See docs/accounting.md, "Command line".
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Final

from privref.reference import pld_calibration as pc
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate
from privref.reference.pld import DEFAULT_STEP

from .account_common import Clock, add_json, count, emit, json_path, number

__all__ = ["MAX_EPSILON", "MIN_DELTA", "configure_calibrate", "configure_dpsgd",
           "run_calibrate", "run_dpsgd"]

MAX_EPSILON: Final = Fraction(10**4)
"""Largest --epsilon (the certified δ(ε) does not overflow there)."""

MIN_DELTA: Final = Fraction(1, 10**100)
"""Smallest --delta."""

RELATION: Final = ("add/remove neighbours, the larger of the two orders (remove: the mixture "
                   "against N(0, sigma^2); add: the reverse; Zhu-Dong-Wang 2022)")
GAUSSIAN_RELATION: Final = ("add/remove neighbours (rate 1: k sensitivity-1 Gaussian queries, "
                            "a symmetric pair)")


def _common(parser: argparse.ArgumentParser, step_default: Fraction) -> None:
    parser.add_argument("--sample-rate", metavar="Q", default="1",
                        help="Poisson sampling rate q in (0, 1] (default 1: the full batch, "
                             "the analytic Gaussian)")
    parser.add_argument("--steps", required=True, metavar="K",
                        help=f"number of steps k, an int in [1, {pc.MAX_STEPS}]")
    parser.add_argument("--step", metavar="H", default=str(step_default),
                        help=f"PLD grid spacing h in [2^-30, 1] (default {step_default}; "
                             "coarser is faster and wider)")


def configure_dpsgd(parser: argparse.ArgumentParser) -> None:
    """Add the ``account dpsgd`` arguments."""
    _common(parser, DEFAULT_STEP)
    parser.add_argument("--sigma", required=True, metavar="S",
                        help="noise multiplier sigma > 0 (clipping norm 1)")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--delta", metavar="D", help="report epsilon at this delta in (0, 1)")
    target.add_argument("--epsilon", metavar="E",
                        help=f"report delta at this epsilon in [0, {MAX_EPSILON}]")
    add_json(parser)


def configure_calibrate(parser: argparse.ArgumentParser) -> None:
    """Add the ``account calibrate`` arguments."""
    _common(parser, pc.DEFAULT_CALIBRATION_STEP)
    parser.add_argument("--epsilon", required=True, metavar="E",
                        help=f"target epsilon in (0, {MAX_EPSILON}]")
    parser.add_argument("--delta", required=True, metavar="D", help="target delta in (0, 1)")
    parser.add_argument("--tolerance", metavar="T", default=str(pc.DEFAULT_CALIBRATION_TOLERANCE),
                        help="stop when sigma_hi - sigma_lo <= T*sigma_hi, T in [2^-60, 1) "
                             f"(default {pc.DEFAULT_CALIBRATION_TOLERANCE})")
    add_json(parser)


def _delta(text: str) -> Fraction:
    d = number(text, "--delta", low=Fraction(0), high=Fraction(1))
    if d < MIN_DELTA:
        raise InvalidArgument(f"--delta={text} must be >= 1e-100")
    return d


def _grid(args: argparse.Namespace) -> tuple[Fraction, int, Fraction]:
    rate = number(args.sample_rate, "--sample-rate", low=Fraction(0), high=Fraction(1),
                  high_open=False)
    steps = count(args.steps, "--steps", pc.MAX_STEPS)
    h = number(args.step, "--step", low=Fraction(1, 1 << 30), high=Fraction(1), low_open=False,
               high_open=False)
    return rate, steps, h


def _check(sigma: Fraction, rate: Fraction, steps: int, h: Fraction) -> None:
    """The grid-size limit, before any work, as a usage error naming --step."""
    if rate < 1:
        try:
            pc.check_grid(sigma, rate, steps, h)
        except TooLargeToEnumerate as exc:
            raise InvalidArgument(f"--{exc}") from None


def run_dpsgd(args: argparse.Namespace) -> int:
    """Run ``privref account dpsgd``; 0 on success (usage errors raise InvalidArgument)."""
    rate, steps, h = _grid(args)
    sigma = number(args.sigma, "--sigma", low=Fraction(0), high=Fraction(10**6))
    delta = None if args.delta is None else _delta(args.delta)
    epsilon = None if args.epsilon is None else number(
        args.epsilon, "--epsilon", low=Fraction(0), high=MAX_EPSILON, low_open=False,
        high_open=False)
    path = json_path(args)
    _check(sigma, rate, steps, h)
    clock = Clock()
    mechanism = (f"{steps} steps of the Poisson-subsampled Gaussian (rate={rate}, "
                 f"sigma={sigma})" if rate < 1 else f"{steps} Gaussian steps (sigma={sigma})")
    parameters = {"sample_rate": str(rate), "steps": steps, "sigma": str(sigma),
                  "step": str(h), "delta": None if delta is None else str(delta),
                  "epsilon": None if epsilon is None else str(epsilon)}
    accountant = ("certified PLD, both orders (Doroshenko et al. 2022; Zhu-Dong-Wang 2022)"
                  if rate < 1 else "analytic Gaussian (Balle-Wang 2018 Theorem 8)")
    relation = RELATION if rate < 1 else GAUSSIAN_RELATION
    if delta is not None:
        box = pc.dpsgd_epsilon(sigma, rate, steps, delta, step=h)
        label = f"epsilon at delta={delta} after {mechanism}"
        quantity = "epsilon"
    else:
        assert epsilon is not None
        box = pc.dpsgd_delta(sigma, rate, steps, epsilon, step=h)
        label = f"delta at epsilon={epsilon} after {mechanism}"
        quantity = "delta"
    return emit(label, box, path=path, clock=clock, accountant=accountant, relation=relation,
                parameters=parameters, quantity=quantity,
                note=f"the true {quantity} is proved to lie in this interval")


def run_calibrate(args: argparse.Namespace) -> int:
    """Run ``privref account calibrate``; 0 on success (usage errors raise InvalidArgument)."""
    rate, steps, h = _grid(args)
    epsilon = number(args.epsilon, "--epsilon", low=Fraction(0), high=MAX_EPSILON,
                     high_open=False)
    delta = _delta(args.delta)
    tolerance = number(args.tolerance, "--tolerance", low=Fraction(1, 1 << 60),
                       high=Fraction(1), low_open=False)
    path = json_path(args)
    clock = Clock()
    try:
        sigma = pc.calibrate_dpsgd_sigma(rate, steps, epsilon, delta, step=h,
                                         tolerance=tolerance)
    except TooLargeToEnumerate as exc:
        raise InvalidArgument(f"--step={h}: {exc}") from None
    except InvalidArgument as exc:  # "delta=... must be < 1 - (1 - rate)^steps": name the flag
        raise InvalidArgument(f"--{exc}") from None
    what = (f"{steps} steps of the Poisson-subsampled Gaussian (rate={rate})" if rate < 1
            else f"{steps} sensitivity-1 Gaussian queries")
    return emit(f"sigma for {what} at epsilon={epsilon}, delta={delta}", sigma, path=path,
                  clock=clock, relation=RELATION if rate < 1 else GAUSSIAN_RELATION,
                  accountant=("certified PLD, both orders (Doroshenko et al. 2022; "
                              "Zhu-Dong-Wang 2022)" if rate < 1
                              else "analytic Gaussian (Balle-Wang 2018 Theorem 8)"),
                  parameters={"sample_rate": str(rate), "steps": steps, "epsilon": str(epsilon),
                              "delta": str(delta), "step": str(h),
                              "tolerance": str(tolerance)},
                  quantity="sigma",
                  note="sigma_upper is proved (epsilon, delta)-DP; sigma_lower is proved not "
                       "to be")
