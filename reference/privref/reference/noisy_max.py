"""Report-noisy-max with exponential noise, as its exact finite program (permute-and-flip).

Report-noisy-max adding Exponential(2·sensitivity/epsilon) noise to each score
and reporting the arg max has the same output law as permute-and-flip
(McKenna and Sheldon 2020; equivalence by Ding, Kifer et al. 2021): visit the
candidates in uniformly random order and accept candidate r with probability
exp(epsilon·(q_r - q_max)/(2·sensitivity)); the best candidate is always
accepted, so the program is finite.  Guarantee: epsilon-DP.

With a rational ``decay`` = e^{-epsilon/(2·sensitivity)} in (0, 1) every
probability is exact, and epsilon = 2·sensitivity·ln(1/decay).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import TypeVar

from .citations import cite
from .continuous_noise import LaplaceNoise, argmax
from .data import Dataset
from .errors import InvalidArgument
from .mechanism import Mechanism
from .neighbors import SUBSTITUTION, NeighborRelation
from .privacy import PrivacyClaim
from .program import Program, bernoulli, uniform
from .reals import log, rational
from .validate import ExactInput, check_int, check_positive, to_fraction

__all__ = ["report_noisy_max", "report_noisy_max_laplace"]

OutT = TypeVar("OutT", bound=Hashable)


def report_noisy_max(outputs: Sequence[OutT], score: Callable[[Dataset, OutT], int], *,
                     decay: ExactInput, sensitivity: int = 1,
                     name: str = "report-noisy-max") -> Mechanism[OutT]:
    """Report-noisy-max (exponential noise) = permute-and-flip with acceptance decay^{q_max - q_r}.

    Precondition (caller-checked): ``score`` has the stated sensitivity.
    Guarantee: (2·sensitivity·ln(1/decay))-DP (McKenna and Sheldon 2020, Theorem 1).
    """
    rho = to_fraction(decay, "decay")
    if not 0 < rho < 1:
        raise InvalidArgument(f"decay={rho} must lie in (0, 1) (decay = e^(-eps/(2·sens)))")
    check_int(sensitivity, "sensitivity", minimum=1)
    outs = tuple(outputs)
    if not outs:
        raise InvalidArgument("outputs=() must hold at least one candidate")

    def program(data: Dataset) -> Program[OutT]:
        scores = [score(data, o) for o in outs]
        top = max(scores)
        remaining = list(range(len(outs)))
        while True:
            j = yield from uniform(len(remaining))
            r = remaining.pop(j)
            if (yield from bernoulli(rho ** (top - scores[r]))):
                return outs[r]

    eps = log(1 / rho) * (2 * sensitivity)
    return Mechanism(name, program, PrivacyClaim(eps),
                     cite("folklore McKenna-Sheldon 2020 Theorem 1"),
                     order_invariant=True,
                     description=f"permute-and-flip over {len(outs)} outputs, decay {rho}")


def report_noisy_max_laplace(outputs: Sequence[OutT], score: Callable[[Dataset, OutT], int], *,
                             epsilon: ExactInput, sensitivity: int = 1, monotone: bool = False,
                             relation: NeighborRelation = SUBSTITUTION,
                             name: str = "report-noisy-max (Laplace)") -> Mechanism[OutT]:
    """Report noisy max with continuous Laplace noise: argmax_r score(D, r) + Lap(b) (ties: prob. 0).

    b = 2·sensitivity/ε in general, sensitivity/ε when ``monotone`` (every score moves in the
    same direction between neighbours, as counts do under add/remove).  Precondition
    (caller-checked): ``score`` has the stated sensitivity (and monotonicity) under ``relation``.
    Guarantee: ε-DP (Dwork and Roth 2014, Claim 3.9, stated for counts with Lap(1/ε); the
    factor 2 covers scores that move in opposite directions).  ε is an exact rational.  The
    law is decided exactly (:class:`privref.reference.continuous_noise.NoisyArgmax`).
    """
    eps = check_positive(to_fraction(epsilon, "epsilon"), "epsilon")
    check_int(sensitivity, "sensitivity", minimum=1)
    if not isinstance(monotone, bool):
        raise InvalidArgument(f"monotone={monotone!r} must be a bool")
    outs = tuple(outputs)
    if not outs:
        raise InvalidArgument("outputs=() must hold at least one candidate")
    noise = LaplaceNoise(Fraction(sensitivity if monotone else 2 * sensitivity) / eps)

    def program(data: Dataset) -> Program[OutT]:
        index = yield from argmax(noise, tuple(to_fraction(score(data, o), f"score(data, {o!r})")
                                                for o in outs))
        return outs[index]

    return Mechanism(name, program, PrivacyClaim(rational(eps)),
                     cite("folklore Dwork-Roth 2014 Claim 3.9"), relation=relation,
                     description=f"argmax of {len(outs)} scores + Lap({noise.scale})")
