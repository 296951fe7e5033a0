"""``privref account gaussian``: calibrate σ for Q sensitivity-1 Gaussian queries at (ε, δ) and,
with ``--realized R``, the ex-post ε after R queries, both as proved enclosures.

The accounting is the analytic Gaussian mechanism (Balle-Wang 2018 Theorem 8) used by paper 001's
experiments (Table 4); see :mod:`privref.reference.accounting` and docs/accounting.md.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from typing import Any, Final

from privref import reference
from privref.reference.accounting import calibrate_sigma, epsilon_ex_post
from privref.reference.errors import InvalidArgument

from ..reports.output import check_output_path, write_json
from .account_common import number as _number

__all__ = ["MAX_QUERIES", "MIN_EPSILON", "configure_parser", "run"]

MAX_QUERIES = 10**9
"""Largest --queries and --realized (a larger composition is not a realistic PATE run)."""


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``account gaussian`` arguments."""
    parser.add_argument("--queries", required=True, metavar="Q",
                        help=f"number of sensitivity-1 Gaussian queries, an int in [1, {MAX_QUERIES}]")
    parser.add_argument("--epsilon", required=True, metavar="E",
                        help="target epsilon > 0 (exact: '1/2', '0.5')")
    parser.add_argument("--delta", required=True, metavar="D", help="target delta in (0, 1)")
    parser.add_argument("--realized", metavar="R", default=None,
                        help="also report the epsilon at delta after R queries (any rational "
                             "R > 0, e.g. an average such as 40.1)")
    parser.add_argument("--json", metavar="PATH", default=None,
                        help="also write the result as JSON to PATH")


MIN_EPSILON: Final = Fraction(1, 10**100)
"""Smallest --epsilon calibrated (like --delta's floor): the search for sigma doubles a bracket
at most MAX_BISECTION/4 times, which 1e-300 overruns; 1e-100 is calibrated in about 3 s."""


def _show(lo: Fraction, hi: Fraction) -> str:
    return f"[{float(lo):.10g}, {float(hi):.10g}]"


def run(args: argparse.Namespace) -> int:
    """Run ``privref account gaussian``; 0 on success (usage errors raise InvalidArgument)."""
    raw_q = args.queries.strip()
    if not raw_q.isdigit() or len(raw_q) > 12 or not 1 <= int(raw_q) <= MAX_QUERIES:
        raise InvalidArgument(f"--queries={args.queries!r} must be an int in [1, {MAX_QUERIES}]")
    queries = int(raw_q)
    epsilon = _number(args.epsilon, "--epsilon", low=Fraction(0), high=Fraction(100))
    if epsilon < MIN_EPSILON:
        raise InvalidArgument(f"--epsilon={args.epsilon} must be >= 1e-100 (MIN_EPSILON: the "
                              "calibration's search for sigma is bounded; below it sigma would "
                              "exceed 1e100)")
    delta = _number(args.delta, "--delta", low=Fraction(0), high=Fraction(1))
    if delta < Fraction(1, 10**100):
        raise InvalidArgument(f"--delta={args.delta} must be >= 1e-100")
    realized = None if args.realized is None else _number(
        args.realized, "--realized", low=Fraction(0), high=Fraction(MAX_QUERIES + 1))
    json_path = None if args.json is None else check_output_path("--json", args.json)
    start = time.perf_counter()
    sigma = calibrate_sigma(queries, epsilon, delta)
    print(f"sigma for {queries} sensitivity-1 Gaussian queries at epsilon={epsilon}, "
          f"delta={delta}: {_show(sigma.lo, sigma.hi)}")
    print("  (sigma_upper is proved (epsilon, delta)-DP; sigma_lower is proved not to be)")
    payload: dict[str, Any] = {
        "privref_version": reference.__version__,
        "accountant": "analytic Gaussian (Balle-Wang 2018 Theorem 8)",
        "parameters": {"queries": queries, "epsilon": str(epsilon), "delta": str(delta),
                       "realized": None if realized is None else str(realized)},
        "sigma_lower": str(sigma.lo), "sigma_upper": str(sigma.hi),
        "sigma_lower_float": float(sigma.lo), "sigma_upper_float": float(sigma.hi),
    }
    if realized is not None:
        eps = epsilon_ex_post(sigma, realized, delta)
        print(f"epsilon at delta={delta} after {realized} queries: {_show(eps.lo, eps.hi)}")
        payload.update({"epsilon_ex_post_lower": str(eps.lo),
                        "epsilon_ex_post_upper": str(eps.hi),
                        "epsilon_ex_post_lower_float": float(eps.lo),
                        "epsilon_ex_post_upper_float": float(eps.hi)})
    payload["seconds"] = round(time.perf_counter() - start, 3)
    if json_path is not None:
        write_json(json_path, payload, flag="--json")
        print(f"wrote {json_path}")
    return 0
