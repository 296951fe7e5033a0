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
from typing import TypeVar

from .citations import cite
from .data import Dataset
from .errors import InvalidArgument
from .mechanism import Mechanism
from .privacy import PrivacyClaim
from .program import Program, bernoulli, uniform
from .reals import log
from .validate import ExactInput, check_int, to_fraction

__all__ = ["report_noisy_max"]

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
