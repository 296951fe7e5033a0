"""``privref account convert``: (ε, δ) from zCDP (--rho), Rényi DP (--rdp) or Gaussian DP
(--mu), as proved enclosures.

* ``--rho R --epsilon E``: δ = inf over α > 1 of Canonne-Kamath-Steinke 2020's bound
  (Proposition 12 / Corollary 13), enclosed (:func:`~privref.reference.accounting.zcdp_to_dp_delta`);
* ``--rho R --delta D``: the ε of :func:`~privref.reference.accounting.zcdp_to_dp_epsilon` (the
  smaller of CKS at one rational order and 001 Lemma 51), an exact real, enclosed;
* ``--rdp "a1:e1,a2:e2,..." --delta D``: :func:`~privref.reference.accounting.rdp_to_dp_epsilon`
  (the least CKS Proposition 12 conversion over the given orders), enclosed;
* ``--mu M``: μ-GDP is exactly the analytic Gaussian with one sensitivity-1 query and σ = 1/μ
  (Dong, Roth & Su 2022, Corollary 2.13; Balle & Wang 2018): δ(ε) enclosed, or ε(δ) with its
  lower end proved unsafe and upper end proved safe.

Each answer is the conversion's value: an (ε, δ) every mechanism with that zCDP/RDP/GDP
guarantee satisfies (for GDP the tight one).
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Final

from privref.reference.accounting import (
    analytic_gaussian_delta,
    epsilon_ex_post,
    rdp_to_dp_epsilon,
    zcdp_to_dp_delta,
    zcdp_to_dp_epsilon,
)
from privref.reference.errors import InvalidArgument
from privref.reference.reals import Interval

from .account_common import Clock, add_json, emit, json_path, number

__all__ = ["MAX_MU", "MAX_ORDERS", "MAX_RHO", "configure_parser", "run"]

MAX_RHO: Final = Fraction(10**4)
"""Largest --rho."""

MAX_MU: Final = Fraction(100)
"""Largest --mu."""

MAX_ORDERS: Final = 1000
"""Most (alpha, value) pairs of --rdp."""

MAX_ALPHA: Final = Fraction(10**6)
"""Largest RDP order alpha (and largest RDP value)."""

_ENCLOSE_BITS: Final = 64
"""Bits of the enclosure of an exact-real ε."""


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``account convert`` arguments."""
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--rho", metavar="R", help=f"rho of rho-zCDP, in (0, {MAX_RHO}]")
    source.add_argument("--rdp", metavar="CURVE",
                        help="Renyi DP curve 'alpha:value,...' (alpha > 1, value >= 0; needs "
                             f"--delta; at most {MAX_ORDERS} pairs)")
    source.add_argument("--mu", metavar="M", help=f"mu of mu-Gaussian DP, in (0, {MAX_MU}]")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--delta", metavar="D", help="report epsilon at this delta in (0, 1)")
    target.add_argument("--epsilon", metavar="E", help="report delta at this epsilon in [0, 10000]")
    add_json(parser)


def _curve(text: str) -> list[tuple[Fraction, Fraction]]:
    pairs = [p for p in text.split(",") if p.strip()]
    if not pairs:
        raise InvalidArgument(f"--rdp={text!r} must list 'alpha:value' pairs, e.g. '2:0.5,4:1'")
    if len(pairs) > MAX_ORDERS:
        raise InvalidArgument(f"--rdp has {len(pairs)} pairs; at most {MAX_ORDERS}")
    curve = []
    for pair in pairs:
        alpha, sep, value = pair.partition(":")
        if not sep:
            raise InvalidArgument(f"--rdp: {pair!r} must be 'alpha:value'")
        curve.append((number(alpha, "--rdp alpha", low=Fraction(1), high=MAX_ALPHA,
                             high_open=False),
                      number(value, "--rdp value", low=Fraction(0), high=MAX_ALPHA,
                             low_open=False, high_open=False)))
    return curve


def run(args: argparse.Namespace) -> int:
    """Run ``privref account convert``; 0 on success (usage errors raise InvalidArgument)."""
    delta = None if args.delta is None else number(args.delta, "--delta", low=Fraction(0),
                                                   high=Fraction(1))
    if delta is not None and delta < Fraction(1, 10**100):
        raise InvalidArgument(f"--delta={args.delta} must be >= 1e-100")
    epsilon = None if args.epsilon is None else number(
        args.epsilon, "--epsilon", low=Fraction(0), high=Fraction(10**4), low_open=False,
        high_open=False)
    path = json_path(args)
    clock = Clock()
    params: dict[str, str | None] = {"delta": None if delta is None else str(delta),
                                     "epsilon": None if epsilon is None else str(epsilon)}
    if args.rho is not None:
        rho = number(args.rho, "--rho", low=Fraction(0), high=MAX_RHO, high_open=False)
        params["rho"] = str(rho)
        source, accountant = f"rho={rho} zCDP", "Canonne-Kamath-Steinke 2020 Corollary 13"
        if delta is not None:
            box = zcdp_to_dp_epsilon(rho, delta).enclose(_ENCLOSE_BITS)
        else:
            assert epsilon is not None
            box = zcdp_to_dp_delta(rho, epsilon)
        note = "the conversion's value: every rho-zCDP mechanism is DP there"
    elif args.rdp is not None:
        curve = _curve(args.rdp)
        if delta is None:
            raise InvalidArgument("--rdp needs --delta (the RDP -> delta conversion at a given "
                                  "epsilon is not offered)")
        params["rdp"] = ",".join(f"{a}:{v}" for a, v in curve)
        source, accountant = (f"RDP at {len(curve)} orders",
                              "Canonne-Kamath-Steinke 2020 Proposition 12, least over the orders")
        box = rdp_to_dp_epsilon(curve, delta).enclose(_ENCLOSE_BITS)
        note = "the conversion's value: every mechanism with this RDP curve is DP there"
    else:
        mu = number(args.mu, "--mu", low=Fraction(0), high=MAX_MU, high_open=False)
        params["mu"] = str(mu)
        source, accountant = f"mu={mu} Gaussian DP", "analytic Gaussian with sigma = 1/mu"
        if delta is not None:
            box = epsilon_ex_post(1 / mu, 1, delta)
        else:
            assert epsilon is not None
            box = analytic_gaussian_delta(epsilon, 1, 1 / mu)
        note = "mu-GDP's exact profile: the true value lies in this interval"
    label = (f"epsilon at delta={delta} from {source}" if delta is not None
             else f"delta at epsilon={epsilon} from {source}")
    return emit(label, Interval(box.lo, box.hi), path=path, clock=clock,
                accountant=accountant, relation="whatever relation the guarantee is stated for",
                parameters=params, quantity="epsilon" if delta is not None else "delta",
                note=note)
