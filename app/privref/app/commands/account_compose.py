"""``privref account compose``: PLD composition of the mechanisms of
:mod:`privref.reference.pld`, as a proved enclosure of ε(δ) or δ(ε).

Each ``--mechanism KIND:PARAMS[:COUNT]`` is one of (sensitivity 1 throughout; scale the noise
by the sensitivity for another):

* ``gaussian:SIGMA`` (N(0, σ²), ℓ2), ``laplace:B`` (Lap(b), ℓ1), ``discrete-laplace:T``
  (integer queries), ``randomized-response:EPS0`` (one bit): symmetric tight pairs;
* ``subsampled-gaussian:SIGMA:RATE``: the Poisson-subsampled Gaussian under add/remove (Zhu,
  Dong & Wang 2022), whose two orders are composed separately with the symmetric pairs and the
  larger answer is reported.

Randomized response's pair is for substitution of one bit and the subsampled Gaussian's for
add/remove, so the two are not composed together.  Grid sizes are estimated and bounded before
any work (:data:`privref.reference.pld_calibration.MAX_STEP_POINTS`, ``MAX_COMPOSED_POINTS``).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from privref.reference import pld
from privref.reference import pld_calibration as pc
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate
from privref.reference.reals import Interval

from .account_common import Clock, add_json, count, emit, json_path, number
from .account_dpsgd import MAX_EPSILON, MIN_DELTA

__all__ = ["KINDS", "MAX_MECHANISMS", "Spec", "configure_parser", "parse_spec", "run"]

MAX_MECHANISMS: Final = 20
"""Most --mechanism flags."""

KINDS: Final = {"gaussian": "SIGMA", "laplace": "B", "discrete-laplace": "T",
                "randomized-response": "EPS0", "subsampled-gaussian": "SIGMA:RATE"}
"""The mechanism kinds and their parameters."""

_Z: Final = 12.0
"""Standard deviations a grid is estimated to span on each side (size estimate only)."""


@dataclass(frozen=True)
class Spec:
    """One --mechanism: its kind, exact parameters and how many times it is composed."""

    kind: str
    params: tuple[Fraction, ...]
    count: int

    def text(self) -> str:
        """The spec as given (exact values)."""
        return ":".join([self.kind, *map(str, self.params)]) + f" x{self.count}"


def parse_spec(text: str) -> Spec:
    """Parse KIND:PARAMS[:COUNT]; InvalidArgument naming --mechanism and the expected form."""
    kind, _, rest = text.partition(":")
    if kind not in KINDS:
        raise InvalidArgument(f"--mechanism={text!r}: KIND must be one of "
                              f"{', '.join(KINDS)}")
    wanted = KINDS[kind].count(":") + 1
    parts = rest.split(":") if rest else []
    if len(parts) not in (wanted, wanted + 1):
        raise InvalidArgument(f"--mechanism={text!r} must be {kind}:{KINDS[kind]}[:COUNT]")
    flag = f"--mechanism {kind}"
    if kind == "subsampled-gaussian":
        params: tuple[Fraction, ...] = (
            number(parts[0], f"{flag} SIGMA", low=Fraction(0), high=Fraction(10**6)),
            number(parts[1], f"{flag} RATE", low=Fraction(0), high=Fraction(1),
                   high_open=False))
    elif kind == "randomized-response":
        params = (number(parts[0], f"{flag} EPS0", low=Fraction(0), high=Fraction(100),
                         high_open=False),)
    else:
        params = (number(parts[0], f"{flag} {KINDS[kind]}", low=Fraction(0),
                         high=Fraction(10**6)),)
    times = count(parts[wanted], f"{flag} COUNT", pc.MAX_STEPS) if len(parts) > wanted else 1
    return Spec(kind, params, times)


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``account compose`` arguments."""
    parser.add_argument("--mechanism", action="append", required=True, metavar="SPEC",
                        help="KIND:PARAMS[:COUNT], repeatable (up to "
                             f"{MAX_MECHANISMS}): " + ", ".join(f"{k}:{v}" for k, v in
                                                                 KINDS.items()))
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--delta", metavar="D", help="report epsilon at this delta in (0, 1)")
    target.add_argument("--epsilon", metavar="E",
                        help=f"report delta at this epsilon in [0, {MAX_EPSILON}]")
    parser.add_argument("--step", metavar="H", default=str(pld.DEFAULT_STEP),
                        help=f"PLD grid spacing h in [2^-30, 1] (default {pld.DEFAULT_STEP})")
    add_json(parser)


def _estimate(spec: Spec, h: Fraction) -> tuple[int, int]:
    """(points of one PLD, estimated points of its COUNT-fold composition); floats, an
    estimate only (the grid code has its own hard limit)."""
    if spec.kind == "subsampled-gaussian" and spec.params[1] < 1:
        return pc.estimated_points(spec.params[0], spec.params[1], spec.count, h)
    width = float(h)
    if spec.kind in ("gaussian", "subsampled-gaussian"):
        mu = 1 / float(spec.params[0])
        mean, spread = mu * mu / 2, mu
        one = math.ceil(2 * _Z * mu / width) + 3
    else:
        eps0 = float(spec.params[0]) if spec.kind == "randomized-response" \
            else 1 / float(spec.params[0])
        mean, spread = eps0, eps0
        one = math.ceil(2 * eps0 / width) + 3
    composed = one + math.ceil((spec.count * mean + 2 * _Z * math.sqrt(spec.count) * spread)
                               / width)
    return one, min(spec.count * one, composed)


def _check(specs: list[Spec], h: Fraction) -> None:
    """The grid-size limits, before any work, as a usage error naming the flag."""
    total = 0
    for spec in specs:
        one, composed = _estimate(spec, h)
        if one > pc.MAX_STEP_POINTS:
            raise InvalidArgument(f"--mechanism {spec.text()} at --step={h} needs about {one} "
                                  f"grid points > MAX_STEP_POINTS={pc.MAX_STEP_POINTS}; use a "
                                  "coarser --step")
        total += composed
    if total > pc.MAX_COMPOSED_POINTS:
        raise InvalidArgument(f"--step={h}: the composition needs about {total} grid points > "
                              f"MAX_COMPOSED_POINTS={pc.MAX_COMPOSED_POINTS}; use a coarser "
                              "--step or fewer mechanisms")


def _pld(spec: Spec, h: Fraction, order: str) -> pld.CertifiedPLD:
    """The certified PLD of one spec, composed COUNT times."""
    value = spec.params[0]
    if spec.kind == "gaussian" or (spec.kind == "subsampled-gaussian" and spec.params[1] == 1):
        one = pld.gaussian_pld(value, step=h)
    elif spec.kind == "laplace":
        one = pld.laplace_pld(value, step=h)
    elif spec.kind == "discrete-laplace":
        one = pld.discrete_laplace_pld(value, step=h)
    elif spec.kind == "randomized-response":
        one = pld.randomized_response_pld(value, step=h)
    else:
        one = pld.poisson_subsampled_gaussian_pld(value, spec.params[1], order, step=h)
    return one.self_compose(spec.count)


def _relation(specs: list[Spec]) -> str:
    kinds = {s.kind for s in specs}
    if "subsampled-gaussian" in kinds:
        return ("add/remove neighbours, the larger of the two orders (subsampled Gaussian: "
                "Zhu-Dong-Wang 2022; every other pair is symmetric, sensitivity 1)")
    if "randomized-response" in kinds:
        return ("substitution of one record (randomized response: its bit; the other pairs "
                "are symmetric, sensitivity 1)")
    return ("any relation under which each query has sensitivity 1 (Gaussian: l2; Laplace, "
            "discrete Laplace: l1); the pairs are symmetric, so both orders")


def run(args: argparse.Namespace) -> int:
    """Run ``privref account compose``; 0 on success (usage errors raise InvalidArgument)."""
    if len(args.mechanism) > MAX_MECHANISMS:
        raise InvalidArgument(f"--mechanism is given {len(args.mechanism)} times; at most "
                              f"{MAX_MECHANISMS}")
    specs = [parse_spec(text) for text in args.mechanism]
    kinds = {s.kind for s in specs}
    if {"randomized-response", "subsampled-gaussian"} <= kinds:
        raise InvalidArgument("--mechanism: randomized-response (substitution) and "
                              "subsampled-gaussian (add/remove) are for different neighbour "
                              "relations; compose them separately")
    h = number(args.step, "--step", low=Fraction(1, 1 << 30), high=Fraction(1), low_open=False,
               high_open=False)
    delta = None if args.delta is None else number(args.delta, "--delta", low=Fraction(0),
                                                   high=Fraction(1))
    if delta is not None and delta < MIN_DELTA:
        raise InvalidArgument(f"--delta={args.delta} must be >= 1e-100")
    epsilon = None if args.epsilon is None else number(
        args.epsilon, "--epsilon", low=Fraction(0), high=MAX_EPSILON, low_open=False,
        high_open=False)
    path = json_path(args)
    _check(specs, h)
    clock = Clock()
    orders = ("remove", "add") if "subsampled-gaussian" in kinds else ("remove",)
    boxes: list[Interval] = []
    for order in orders:
        composed: pld.CertifiedPLD | None = None
        for spec in specs:
            one = _pld(spec, h, order)
            composed = one if composed is None else composed.compose(one)
        assert composed is not None
        try:
            boxes.append(composed.epsilon(delta) if delta is not None
                         else composed.delta(epsilon if epsilon is not None else 0))
        except TooLargeToEnumerate as exc:
            raise InvalidArgument(f"--delta={delta}: {exc}") from None
    box = Interval(max(b.lo for b in boxes), max(b.hi for b in boxes))
    what = ", ".join(s.text() for s in specs)
    label = (f"epsilon at delta={delta}" if delta is not None
             else f"delta at epsilon={epsilon}") + f" of the composition of {what}"
    return emit(label, box, path=path, clock=clock,
                accountant="certified PLD composition (Doroshenko et al. 2022)",
                relation=_relation(specs),
                parameters={"mechanisms": [s.text() for s in specs], "step": str(h),
                            "delta": None if delta is None else str(delta),
                            "epsilon": None if epsilon is None else str(epsilon)},
                quantity="epsilon" if delta is not None else "delta",
                note="the true value is proved to lie in this interval")
